#!/bin/sh
# The per-source rate limit under load (the whitepaper, 5.3; 6.1's
# ratelimiter.c: 20 initiations a second from one address, 5 at once):
# under the flood, the peer gets a cookie (its initiation fenced by
# bursts, as in cookie.sh), then sends 120 new initiations with the
# cookie's mac2, 25 ms apart (40 a second, twice the limit; each a new
# handshake, more than 20 ms after the last, so that nothing else refuses
# it).  At least one must be answered (the responder takes them), and at
# most 5 + 20 a second over the time they took and half a second more
# (the last of them wait in a's queue behind the flood's), plus two for
# the edges.  A correct kernel answered 44 of 80 over 1.98 s; one without
# the limit (fixture ratelimit-off) 65 to 71.  A try that fails, or whose
# sending was too slow to tell (under 30 a second), is made again, three
# tries at most: the responder applies the limit only while under load,
# and its under-load flag can lapse between the flood's cookie replies
# (peer/README.md); a kernel without the limit fails all three.  A try
# whose initiation got no cookie reply is made again too (a slow guest's
# full queue drops it: wireguard-go once at a timeout scale of 3); three
# without one fail.  So is a try none of whose initiations was answered:
# wireguard-go at a timeout scale of 6 answered none of 120 sent at 13 a
# second, while it had answered 56 in the try before; the last try
# decides, a skip when it was too slow to tell.
# bad-packets: the flood's initiations (random static keys), refused by design
# timeout: 300
. "$(dirname "$0")/../lib.sh"

w=$((15 * ${wgt_timeout_scale:-1}))
burst=burst,n=1024
[ "${WG_GO:-}" != a ] || burst=burst,n=200
peer_pair a b
flood_start
wait_for 60 flood_loaded 1 || { cat "$FLOOD_OUT"; fail "a never came under load: no cookie reply to the flood in 60 s"; }
try=1
while :; do
	flood_mark
	l0=$(flood_lines)
	rc=0
	wgpeer $burst init,mac2=zero $burst cookie,wait=$w rapid,n=120,gap=0.025 > /tmp/$ns_prefix.steps 2>&1 || rc=$?
	cat /tmp/$ns_prefix.steps
	if [ $rc != 0 ]; then
		[ "$rc" = 1 ] || fail "wgpeer failed to run (exit $rc)"
		# No cookie for the peer's initiation: on a slow guest the
		# flood can fill a's queue (the initiation dropped unanswered)
		# or a's under-load flag lapse; tried again, as the rest.
		if grep '^FAIL cookie' /tmp/$ns_prefix.steps > /dev/null && [ $try -lt 3 ]; then
			echo "try $try: no cookie reply to the peer's initiation; again"
			try=$((try + 1))
			sleep 2
			continue
		fi
		fail "$(grep '^FAIL' /tmp/$ns_prefix.steps)"
	fi
	flood_mark
	steady=yes
	flood_steady "$l0" || steady=no
	set -- $(sed -n 's/^ok rapid.*: answered \([0-9]*\) of \([0-9]*\) initiations sent over \([0-9.]*\) s.*/\1 \2 \3/p' /tmp/$ns_prefix.steps)
	[ $# = 3 ] || fail "wgpeer did not say how many were answered"
	answered=$1 sent=$2 span=$3
	bound=$(awk -v s="$span" 'BEGIN { b = 5 + 20 * (s + 0.5) + 2; printf "%d", (b == int(b)) ? b : int(b) + 1 }')
	rate=$(awk -v n="$sent" -v s="$span" 'BEGIN { printf "%.0f", n / s }')
	echo "try $try: $answered of $sent answered over $span s ($rate a second); the limit allows $bound; the flood's cookie replies kept coming: $steady"
	if [ "$answered" -ge 1 ] && [ "$rate" -ge 30 ] && [ "$answered" -le "$bound" ]; then
		break
	fi
	if [ $try -ge 3 ]; then
		[ "$rate" -ge 30 ] || skip "three tries sent under 30 initiations a second: too slow a guest to tell the limit of 20"
		[ "$answered" -ge 1 ] || fail "none of the initiations with the cookie's mac2 was answered"
		fail "$answered of $sent initiations from one address answered over $span s: more than the $bound the limit allows"
	fi
	try=$((try + 1))
	# The limiter's bucket for this address fills again (a second idle).
	sleep 2
done
flood_stop
pass "$answered of $sent initiations from one address answered over $span s under load (the limit allows $bound)"
