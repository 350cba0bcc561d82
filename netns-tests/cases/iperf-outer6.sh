#!/bin/sh
# The tunnel over an IPv6-only underlay (the IPv4 underlay addresses are
# removed): iperf3 TCP and UDP with inner IPv4 and IPv6 go through, and
# both sides show IPv6 endpoints.
# timeout: 150
. "$(dirname "$0")/../lib.sh"

SECS=2

ns_add a
ns_add b
wg_pair6 a b

ping_all a 1 -W 5 192.168.241.2
[ "$(endpoint b wg0 "$PUB_A")" = "[fd00::1]:51820" ] || fail "b's endpoint for a is $(endpoint b wg0 "$PUB_A")"
[ "$(endpoint a wg0 "$PUB_B")" = "[fd00::2]:51821" ] || fail "a's endpoint for b is $(endpoint a wg0 "$PUB_B")"

for addr in 192.168.241.2 fd00:241::2; do
	iperf_tcp a b $addr $SECS
	echo "TCP to $addr over outer v6: $MBIT Mbit/s"
	mbit_positive
	iperf_udp a b $addr $SECS 5M
done
pass "TCP and UDP, inner v4 and v6, over an IPv6 underlay"

# Nothing genuine was dropped on the way (lib.sh dropped_nothing): a
# message that failed authentication is invisible to the checks above.
dropped_nothing a b
