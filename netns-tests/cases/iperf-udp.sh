#!/bin/sh
# iperf3 UDP at a fixed 5 Mbit/s through the tunnel over an IPv4 underlay,
# inner IPv4 and IPv6: the receiver gets the datagrams (at most 10% lost)
# and its wg counters grow by at least the payload received.
# timeout: 120
. "$(dirname "$0")/../lib.sh"

SECS=2

ns_add a
ns_add b
wg_pair a b
ping_all a 1 -W 5 192.168.241.2

for addr in 192.168.241.2 fd00:241::2; do
	set -- $(transfer b wg0 "$PUB_A")
	rx0=$1
	iperf_udp a b "$addr" $SECS 5M
	set -- $(transfer b wg0 "$PUB_A")
	min=$(awk -v m="$MBIT" -v s=$SECS 'BEGIN { printf "%d", m * 1e6 / 8 * s * 0.9 }')
	[ $(($1 - rx0)) -ge "$min" ] || fail "b's wg rx moved $(($1 - rx0)) bytes, expected >= $min"
done
pass "UDP inner v4 and v6"
