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
# control, before the flood: the same initiation without mac2 gets a
# response.  The responder's under-load flag holds for a second after
# its queue was last an eighth full, and the flood alone once left a gap
# an initiation fell into (answered, while the flood's cookie replies
# kept coming): bursts around each initiation close it.  A try that still
# fails is made again, three tries at most; a kernel that is wrong fails
# all three.  Each try says whether the flood's cookie replies kept
# coming (its progress lines just before and after the steps).
# bad-packets: the flood's initiations (random static keys), refused by design
# timeout: 300
. "$(dirname "$0")/../lib.sh"

w=$((15 * ${wgt_timeout_scale:-1}))
# Around each of the peer's initiations that must meet the load, a burst
# of the flood's kind: the one after it is what stands behind it in a's
# queue when a takes it, so a is under load then, by its own measure
# (an eighth of its queue: 512 of 4096 in the kernel, 128 of 1024 in
# wireguard-go), whatever the flood beside does at that moment.
burst=burst,n=1024
[ "${WG_GO:-}" != a ] || burst=burst,n=200
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
	wgpeer $burst init,mac2=zero $burst cookie,wait=$w $burst init,mac2=bad $burst cookie,wait=$w \
		init response,wait=$w ping,wait=$w > /tmp/$ns_prefix.steps 2>&1 || rc=$?
	cat /tmp/$ns_prefix.steps
	flood_mark
	r1=$(flood_replies) steady=yes
	flood_steady "$l0" || steady=no
	echo "try $try: the flood got $((r1 - r0)) cookie replies during the steps, in every quarter of a second: $steady"
	[ $rc != 0 ] || break
	[ "$rc" = 1 ] || fail "wgpeer failed to run (exit $rc)"
	grep '^progress' "$FLOOD_OUT" | sed -n "$l0,$((l0 + 7))p"
	[ $try -lt 3 ] || fail "three tries failed, the last: $(grep '^FAIL' /tmp/$ns_prefix.steps)"
	try=$((try + 1))
	wait_for 60 flood_loaded $((r1 + 1)) || fail "a did not come under load again"
done
flood_stop
[ "$(tr_count recv 3 64)" -ge 2 ] || fail "the peer got $(tr_count recv 3 64) cookie replies, expected 2 at least"
pass "under load: no mac2 and a wrong mac2 got cookie replies, the cookie's mac2 a response, the session carried an echo"
