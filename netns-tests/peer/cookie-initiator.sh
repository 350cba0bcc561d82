#!/bin/sh
# A legitimate initiator under the flood (the whitepaper, 5.4.7): b's
# WireGuard initiates to a while a is under load, through a wgmitm relay
# in m that records every message with whether its mac2 is set; the
# flood comes from m.  On the wire: b's initiation without mac2 gets a
# cookie reply and no response, b retries (REKEY_TIMEOUT later) with a
# mac2, and that initiation gets the response: b used its cookie, and its
# echo gets through.  a's load is shown by the flood's cookie replies; a
# try whose handshake a answered without a cookie (a gap in a's
# under-load flag, which holds only a second after its queue was last an
# eighth full: b's initiation cannot be fenced with bursts as the
# harness's own peer's are, peer/cookie.sh) is made again with both
# peers configured anew, three tries at most.
# bad-packets: the flood's initiations (random static keys), refused by design
# timeout: 300
. "$(dirname "$0")/../lib.sh"

tl=/tmp/$ns_prefix.timeline
ns_add a
ns_add m
ns_add b
mitm_pair a m b "$tl"
flood_start 600 m 10.0.1.1
wait_for 60 flood_loaded 1 || { cat "$FLOOD_OUT"; fail "a never came under load: no cookie reply to the flood in 60 s"; }
tail -n 1 "$FLOOD_OUT"
deva=$(wg_if a wg0) devb=$(wg_if b wg0)
try=1
while :; do
	flood_mark
	l0=$(flood_lines) t0=$(tl_now)
	got=$(ping_count b -c 1 -W 30 192.168.241.1)
	flood_mark
	steady=yes
	flood_steady "$l0" || steady=no
	# b's initiations and a's answers since t0: "TIME DIR TYPE SENDER RECEIVER MAC2".
	awk -v f="$t0" '$1 >= f && ($3 == 1 || $3 == 2 || $3 == 3) { print $1, $2, $3, $5, $6, $9 }' "$tl" > /tmp/$ns_prefix.hs
	sed 's/^/handshake: /' /tmp/$ns_prefix.hs
	echo "try $try: echo replies $got; the flood's cookie replies kept coming: $steady"
	# The verdict from the wire: a cookie reply after an initiation
	# without mac2, then an initiation with mac2 answered by a response
	# to its index, and no response to any initiation without mac2.
	verdict=$(awk '
		$2 == "b2a" && $3 == 1 { mac2[$4] = $6; if ($6 == "nomac2") bare++; if ($6 == "mac2" && cookie) withmac2++ }
		$2 == "a2b" && $3 == 3 && bare { cookie++ }
		$2 == "a2b" && $3 == 2 { if (mac2[$5] == "nomac2") nocookie++; else if (mac2[$5] == "mac2") answered++ }
		END {
			if (nocookie) print "a answered an initiation without mac2"
			else if (!bare) print "b sent no initiation without mac2"
			else if (!cookie) print "a sent no cookie reply"
			else if (!withmac2) print "b did not use its cookie: no initiation with mac2 after the cookie reply"
			else if (!answered) print "a did not answer the initiation with the cookie'"'"'s mac2"
			else print "ok"
		}' /tmp/$ns_prefix.hs)
	if [ "$verdict" = ok ] && [ "$got" = 1 ]; then
		break
	fi
	echo "try $try: $verdict"
	if [ "$verdict" != "a answered an initiation without mac2" ] || [ $try -ge 3 ]; then
		fail "$verdict (echo replies: $got)"
	fi
	try=$((try + 1))
	# Both peers anew: no session, no cookie, and none of the last try's
	# timers (a's new-handshake timer, 15 s after a's keepalive on that
	# session went unanswered, once fired just before b's ping: a
	# initiated, and b sent no initiation to test).
	on b wg set "$devb" peer "$PUB_A" remove
	on a wg set "$deva" peer "$PUB_B" remove
	wg_peer a wg0 "$PUB_B" endpoint 10.0.1.254:5000 allowed-ips 192.168.241.2/32,fd00:241::2/128
	wg_peer b wg0 "$PUB_A" endpoint 10.0.2.254:5000 allowed-ips 192.168.241.1/32,fd00:241::1/128
	wait_for 60 flood_loaded $(($(flood_replies) + 1)) || fail "a did not come under load again"
done
flood_stop
pass "under load, b's initiation without mac2 got a cookie reply, its retry with the cookie's mac2 the response, and the echo went through"
