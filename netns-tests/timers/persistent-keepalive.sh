#!/bin/sh
# Persistent keepalive (timers.c, wg_timers_any_authenticated_packet_
# traversal): with nothing else to send, a peer sends a keepalive every
# interval (25 s here), over many intervals and across the rekeys of a
# long idle tunnel (120 s: each handshake message restarts the interval).
# Timed on the wire, over 12 intervals.
# timeout: 700
. "$(dirname "$0")/../lib.sh"

timers_pair

ping_all a 1 -W 5 192.168.241.2
wg_peer a wg0 "$PUB_B" persistent-keepalive 25
t0=$(tl_now)
# 12 intervals, the first keepalive, and one a rekey at most each 120 s
# (its confirmation: not the timer's).
wait_for 500 tl_seen 16 "$tl" a2b 4 32 32 "$t0" ||
	{ tl_show "$tl" "$t0"; fail "a sent $(tl_count "$tl" a2b 4 32 32 "$t0") keepalives in 500 s with a 25 s persistent keepalive"; }
# Each keepalive: 25 s after the message from a or to a just before it
# (a keepalive, or a handshake message that restarted the interval).
awk -v t="$t0" '$1 > t && ($2 == "a2b" || $2 == "b2a") { print $1, $2, $3, $4 }' "$tl" > /tmp/$ns_prefix.pk
n=0
prev=
# (The keepalive right after b's response confirms the new session to b:
# that one is not the timer's.)
prev_what=
while read -r t dir type len; do
	if [ "$dir $type $len" = "a2b 4 32" ] && [ -n "$prev" ] && [ "$prev_what" != "b2a 2" ]; then
		n=$((n + 1))
		[ $n -le 12 ] || break
		within "$prev" "$t" 25 ||
			{ tl_show "$tl" "$t0"; fail "keepalive $n came $prev -> $t s, not 25 s after the message before it"; }
	fi
	prev=$t prev_what="$dir $type"
done < /tmp/$ns_prefix.pk
[ $n -ge 12 ] || fail "only $n keepalives followed another message"
rekeys=$(tl_count "$tl" a2b 1 0 65535 "$t0")
echo "$n keepalives timed, $rekeys handshakes in between"
[ "$rekeys" -ge 1 ] || fail "no rekey in $n intervals: the interval's restart was not exercised"
pass "a keepalive every 25 s over $n intervals and $rekeys rekeys"
