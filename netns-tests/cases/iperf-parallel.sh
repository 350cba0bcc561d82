#!/bin/sh
# iperf3 TCP with four parallel streams (-P 4) through the tunnel, inner
# IPv4 a -> b and inner IPv6 b -> a: every stream moves data.
# timeout: 120
. "$(dirname "$0")/../lib.sh"

ns_add a
ns_add b
wg_pair a b
ping_all a 1 -W 5 192.168.241.2

for x in "192.168.241.2 -" "fd00:241::2 -R"; do
	set -- $x
	if [ "$2" = -R ]; then
		iperf_tcp a b "$1" 2 -P 4 -R
	else
		iperf_tcp a b "$1" 2 -P 4
	fi
	mbit_positive
	streams=$(awk '/receiver/ && !/SUM/ { for (i = 1; i < NF; i++) if ($(i + 1) == "Mbits/sec" && $i > 0) n++ } END { print n + 0 }' "$IPERF_OUT")
	echo "to $1 ${2#-}: $MBIT Mbit/s in total, $streams streams moved data"
	[ "$streams" = 4 ] || { cat "$IPERF_OUT"; fail "$streams of 4 parallel streams moved data"; }
done
pass "four parallel TCP streams, inner v4 and v6, both directions"

# Nothing genuine was dropped on the way (lib.sh dropped_nothing): a
# message that failed authentication is invisible to the checks above.
dropped_nothing a b
