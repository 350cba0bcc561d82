#!/bin/sh
# Passive keepalive (timers.c, wg_timers_data_received): a peer that got
# data and sent nothing back sends one keepalive KEEPALIVE_TIMEOUT (10 s)
# later (the whitepaper, 6.5); data that arrives while that keepalive is
# pending is answered by the same keepalive, within 10 s of it; then,
# hearing nothing, it sends nothing.  Timed on the wire, at the relay
# between the two peers.  (6.1 also asks for "another keepalive" for data
# that came while one was pending, but the send path deletes the re-armed
# timer as the first one leaves, so none follows: not asserted either way.)
# timeout: 300
. "$(dirname "$0")/../lib.sh"

timers_pair
bg a /usr/bin/wgmitm sink 192.168.241.1:9999 600
wait_for 10 udp_listening a 9999 || fail "no sink on a"

# 1. a pings b: b's echo reply is data a answers with nothing.
ping_all a 1 -W 5 192.168.241.2
wait_for 30 tl_seen 1 "$tl" a2b 4 32 32 ||
	{ tl_show "$tl"; fail "a sent no keepalive after b's echo reply"; }
t_reply=$(tl_times "$tl" b2a 4 33 | sed -n 1p)
t_ka=$(tl_times "$tl" a2b 4 32 32 | sed -n 1p)
echo "b's echo reply at $t_reply s, a's keepalive at $t_ka s"
within "$t_reply" "$t_ka" 10 || { tl_show "$tl"; fail "a's keepalive came $t_ka - $t_reply s after the data it answers, not 10 s"; }
pass "a keepalive 10 s after data that got no answer"

# 2. b sends a's sink two datagrams 3 s apart: the second arrives while
# a's keepalive is pending; a's one keepalive, 10 s after the first,
# answers both, and nothing follows it.
wait_for 30 udp_listening a 9999
t0=$(tl_now)
on b /usr/bin/wgmitm send 192.168.241.1:9999 100
sleep 3
on b /usr/bin/wgmitm send 192.168.241.1:9999 100
wait_for 30 tl_seen 1 "$tl" a2b 4 32 32 "$t0" ||
	{ tl_show "$tl" "$t0"; fail "a sent no keepalive in 30 s after two datagrams from b"; }
set -- $(tl_times "$tl" b2a 4 33 65535 "$t0")
[ $# = 2 ] || { tl_show "$tl" "$t0"; fail "the relay saw $# data messages from b, expected 2"; }
d1=$1 d2=$2
k1=$(tl_times "$tl" a2b 4 32 32 "$t0" | sed -n 1p)
echo "b's datagrams at $d1 and $d2 s, a's keepalive at $k1 s"
within "$d1" "$k1" 10 || { tl_show "$tl" "$t0"; fail "a's keepalive came $d1 -> $k1, not 10 s after b's first datagram"; }
# The negative, with its control above (a's keepalive timer fired, seen
# here): nothing more from a for 60 s.
quiet_period 60
n=$(awk -v f="$k1" '$2 == "a2b" && $1 > f' "$tl" | wc -l)
[ "$n" = 0 ] || { tl_show "$tl" "$t0"; fail "a sent $n more messages in the 60 s after its keepalive, hearing nothing"; }
pass "data that came while a keepalive was pending is answered by it; then silence for 60 s"
