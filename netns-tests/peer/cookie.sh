#!/bin/sh
# Cookies under load (the whitepaper, 5.4.7; receive.c): a flood of
# initiations with a valid mac1 (wgpeer flood) puts a's WireGuard under
# load, which it shows by answering the flood with cookie replies.  Then,
# from the peer's own port: an initiation without mac2 gets a cookie reply
# and no response; the cookie decrypts (XChaCha20Poly1305 keyed by a's
# public key, about the initiation's mac1: Zinc's on the zinc flavors); an
# initiation whose mac2 is wrong gets a cookie reply again and no
# response; one whose mac2 is made with the cookie gets a response, and
# an echo through the new session is answered (the cookie replies to
# the peer's own initiations show the load when it mattered).  The
# control, before the
# flood: the same initiation without mac2 gets a response.  The load is
# asserted around the steps (the flood got cookie replies between its
# progress lines just before and just after them, a quarter of a second
# apart); a try during which it lapsed is made again, three times at most.
# bad-packets: the flood's initiations (random static keys), refused by design
# timeout: 300
. "$(dirname "$0")/../lib.sh"

w=$((15 * ${wgt_timeout_scale:-1}))
peer_pair a b
wgpeer init response,wait=$w || fail "without load, an initiation without mac2 was not answered"
flood_start
wait_for 60 flood_loaded 1 || { cat "$FLOOD_OUT"; fail "a never came under load: no cookie reply to the flood in 60 s"; }
tail -n 1 "$FLOOD_OUT"
try=1
while :; do
	flood_mark
	l0=$(flood_lines) r0=$(flood_replies)
	rc=0
	wgpeer init,mac2=zero cookie,wait=$w init,mac2=bad cookie,wait=$w init response,wait=$w \
		ping,wait=$w > /tmp/$ns_prefix.steps 2>&1 || rc=$?
	cat /tmp/$ns_prefix.steps
	flood_mark
	r1=$(flood_replies) steady=1
	flood_steady "$l0" || steady=0
	echo "try $try: the flood got $((r1 - r0)) cookie replies during the steps, in every quarter of a second: $([ $steady = 1 ] && echo yes || echo no)"
	[ $rc != 0 ] || break
	[ "$rc" = 1 ] || fail "wgpeer failed to run (exit $rc)"
	if [ $steady = 0 ] && [ $try -lt 3 ]; then
		echo "the load lapsed during try $try: again"
		try=$((try + 1))
		wait_for 60 flood_loaded $((r1 + 1)) || fail "a did not come under load again"
		continue
	fi
	fail "$(grep '^FAIL' /tmp/$ns_prefix.steps)"
done
flood_stop
[ "$(tr_count recv 3 64)" -ge 2 ] || fail "the peer got $(tr_count recv 3 64) cookie replies, expected 2 at least"
pass "under load: no mac2 and a wrong mac2 got cookie replies, the cookie's mac2 a response, the session carried an echo"
