#!/bin/sh
# iperf3 UDP at a fixed 5 Mbit/s through the tunnel over an IPv4 underlay,
# inner IPv4 and IPv6: the receiver gets the datagrams (at most 10% lost)
# and its wg counters grow by at least the payload received.  Then at -b 0
# (no rate limit), both ways: datagrams still arrive and the tunnel still
# answers afterwards.
# timeout: 180
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

# Unlimited (-b 0), as upstream's netns.sh runs it, both ways: the senders
# outrun the tunnel and datagrams are lost on the way (seen under TCG: 2
# to 457 of 2000-3000; a's wg0 tx_dropped is shown too).  Datagrams still
# arrive each way, the tunnel answers pings afterwards, and the kernel
# stays healthy (the entry's check after every case).
for x in "192.168.241.2 -" "fd00:241::2 -" "192.168.241.2 -R"; do
	set -- $x
	addr=$1 rev=$2
	drop0=$(dev_stat a wg0 tx_dropped)
	if [ "$rev" = -R ]; then
		iperf_run a b "$addr" $SECS -u -b 0 -R
	else
		iperf_run a b "$addr" $SECS -u -b 0
	fi
	echo "UDP -b 0 to $addr ${rev#-}: $MBIT Mbit/s received, $LOST of $TOTAL datagrams lost, a's wg0 tx_dropped +$(($(dev_stat a wg0 tx_dropped) - drop0))"
	[ "$TOTAL" -gt 0 ] && [ "$LOST" -lt "$TOTAL" ] || fail "UDP -b 0 to $addr ${rev#-}: nothing arrived ($LOST of $TOTAL lost)"
done
ping_all a 3 -i 0.2 -W 5 192.168.241.2
ping_all b 3 -i 0.2 -W 5 fd00:241::1
pass "unlimited UDP both ways, inner v4 and v6; the tunnel answers afterwards"
