#!/bin/sh
# Two namespaces on a veth underlay, wg0 in each with fresh keys: the
# handshake completes, ping passes both ways over inner IPv4 and IPv6, a
# short iperf3 TCP run goes through at no less than 1/500 of the plain
# underlay's rate measured just before, and wg show's counters account
# for it.
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

iperf_tcp a b 10.0.0.2 "$IPERF_SECONDS"
plain=$MBIT
set -- $(transfer a wg0 "$PUB_B")
rx0=$1 tx0=$2
set -- $(transfer b wg0 "$PUB_A")
brx0=$1
iperf_tcp a b 192.168.241.2 "$IPERF_SECONDS"
echo "throughput: $MBIT Mbit/s (iperf3 TCP a -> b, ${IPERF_SECONDS}s)"
mbit_floor "TCP a -> b" "$plain"

# The receiver got MBIT * seconds of TCP payload.  Every byte of it left a's
# wg0 encrypted and was decrypted on b's, so both counters moved by at least
# that much (each message counts its header and padding too; 0.9 absorbs
# the rounding of the receiver's rate).  Packets the emulated link or a full
# queue dropped count on a's side only, so the two sides are not compared
# with each other: TCP retransmits them, and the loss is the link's, not
# WireGuard's.
min=$(awk -v m="$MBIT" -v s="$IPERF_SECONDS" 'BEGIN { printf "%d", m * 1e6 / 8 * s * 0.9 }')
set -- $(transfer a wg0 "$PUB_B")
rx1=$1 tx1=$2
set -- $(transfer b wg0 "$PUB_A")
got=$(($1 - brx0)) sent=$((tx1 - tx0))
echo "counters: a sent $sent, b received $got bytes during iperf3 (each expected >= $min)"
[ "$sent" -ge "$min" ] || fail "wg transfer tx on a moved $sent bytes, expected >= $min"
[ "$got" -ge "$min" ] || fail "wg transfer rx on b moved $got bytes, expected >= $min"
[ "$rx1" -gt "$rx0" ] || fail "wg transfer rx on a did not move (TCP acks)"
pass "transfer counters moved"

# Nothing genuine was dropped on the way (lib.sh dropped_nothing): a
# message that failed authentication is invisible to the checks above.
dropped_nothing a b
