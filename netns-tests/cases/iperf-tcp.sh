#!/bin/sh
# iperf3 TCP through the tunnel over an IPv4 underlay: inner IPv4 a -> b,
# inner IPv6 a -> b and inner IPv4 b -> a (reverse mode); each run moves
# data and the sender's wg counters grow by at least what was received.
# timeout: 120
. "$(dirname "$0")/../lib.sh"

SECS=2

ns_add a
ns_add b
wg_pair a b
ping_all a 1 -W 5 192.168.241.2

for x in "192.168.241.2 -" "fd00:241::2 -" "192.168.241.2 -R"; do
	set -- $x
	addr=$1 rev=$2
	set -- $(transfer a wg0 "$PUB_B")
	rx0=$1 tx0=$2
	if [ "$rev" = -R ]; then
		iperf_tcp a b "$addr" $SECS -R
	else
		iperf_tcp a b "$addr" $SECS
	fi
	mbit_positive
	set -- $(transfer a wg0 "$PUB_B")
	if [ "$rev" = -R ]; then moved=$(($1 - rx0)); else moved=$(($2 - tx0)); fi
	min=$(awk -v m="$MBIT" -v s=$SECS 'BEGIN { printf "%d", m * 1e6 / 8 * s * 0.9 }')
	echo "TCP to $addr ${rev#-}: $MBIT Mbit/s, wg counters moved $moved bytes (>= $min)"
	[ "$moved" -ge "$min" ] || fail "wg counters moved $moved bytes for $MBIT Mbit/s over ${SECS}s"
done
pass "TCP inner v4 and v6, both directions"

# Nothing genuine was dropped on the way (lib.sh dropped_nothing): a
# message that failed authentication is invisible to the checks above.
dropped_nothing a b
