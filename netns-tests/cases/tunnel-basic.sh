#!/bin/sh
# Two namespaces on a veth underlay, wg0 in each with fresh keys: the
# handshake completes, ping passes both ways over inner IPv4 and IPv6, a
# short iperf3 TCP run goes through, and wg show's counters account for it.
# timeout: 90
. "$(dirname "$0")/../lib.sh"

IPERF_SECONDS=${IPERF_SECONDS:-3}

ns_add a
ns_add b
wg_pair a b

[ "$(latest_handshake a wg0 "$PUB_B")" = 0 ] || fail "handshake before any traffic"
on a ping -c 1 -W 5 192.168.241.2 > /dev/null || fail "ping a -> b (inner v4)"
wait_for 10 has_handshake a wg0 "$PUB_B" || fail "no handshake recorded in a"
wait_for 10 has_handshake b wg0 "$PUB_A" || fail "no handshake recorded in b"
pass "handshake: a and b both report a latest handshake"

on a ping -c 3 -i 0.2 -W 2 192.168.241.2 > /dev/null || fail "ping a -> b (inner v4)"
on b ping -c 3 -i 0.2 -W 2 192.168.241.1 > /dev/null || fail "ping b -> a (inner v4)"
on a ping -6 -c 3 -i 0.2 -W 2 fd00:241::2 > /dev/null || fail "ping a -> b (inner v6)"
on b ping -6 -c 3 -i 0.2 -W 2 fd00:241::1 > /dev/null || fail "ping b -> a (inner v6)"
pass "ping both ways, inner v4 and v6"

set -- $(transfer a wg0 "$PUB_B")
rx0=$1 tx0=$2
iperf_tcp a b 192.168.241.2 "$IPERF_SECONDS"
echo "throughput: $MBIT Mbit/s (iperf3 TCP a -> b, ${IPERF_SECONDS}s)"
awk -v m="$MBIT" 'BEGIN { exit !(m > 0) }' || fail "iperf3 measured $MBIT Mbit/s"

# The TCP run moved at least MBIT * seconds of payload from a to b; the
# encrypted counters must show at least that much more sent by a.
set -- $(transfer a wg0 "$PUB_B")
rx1=$1 tx1=$2
sent=$((tx1 - tx0))
min=$(awk -v m="$MBIT" -v s="$IPERF_SECONDS" 'BEGIN { printf "%d", m * 1e6 / 8 * s * 0.9 }')
echo "counters: a sent $sent bytes during iperf3 (expected >= $min), received $((rx1 - rx0))"
[ "$sent" -ge "$min" ] || fail "wg transfer tx moved $sent bytes, expected >= $min"
[ "$rx1" -gt "$rx0" ] || fail "wg transfer rx did not move (TCP acks)"
set -- $(transfer b wg0 "$PUB_A")
[ "$1" -ge "$sent" ] || fail "b received $1 bytes, fewer than a sent ($sent)"
pass "transfer counters moved"
