#!/bin/sh
# WireGuard inside WireGuard: wg1 in a and b uses wg0's inner IPv6
# addresses as its endpoints.  Pings (v4, v6, full-size unfragmented) and
# an iperf3 TCP run cross wg1, and wg0 carries all of wg1's bytes.
# timeout: 90
. "$(dirname "$0")/../lib.sh"

ns_add a
ns_add b
wg_pair a b

keypair
KEY_C=$PRIV PUB_C=$PUB
keypair
KEY_D=$PRIV PUB_D=$PUB
wg_dev a wg1 5555 "$KEY_C"
wg_dev b wg1 5556 "$KEY_D"
wg_peer a wg1 "$PUB_D" endpoint "[fd00:241::2]:5556" allowed-ips 192.168.242.2/32,fd00:242::2/128
wg_peer b wg1 "$PUB_C" endpoint "[fd00:241::1]:5555" allowed-ips 192.168.242.1/32,fd00:242::1/128
for x in "a 1" "b 2"; do
	set -- $x
	ip -n "$(nsname $1)" addr add 192.168.242.$2/24 dev wg1
	ip -n "$(nsname $1)" addr add fd00:242::$2/64 dev wg1 nodad
	# wg0's 1420 minus 80 bytes of IPv6 encapsulation.
	ip -n "$(nsname $1)" link set wg1 mtu 1340 up
done

ping_all a 1 -W 5 192.168.242.2
ping_all a 3 -i 0.2 -W 2 192.168.242.2
ping_all b 3 -i 0.2 -W 2 fd00:242::1
ping_all a 3 -W 2 -M do -s $((1340 - 28)) 192.168.242.2
has_handshake a wg1 "$PUB_D" || fail "no handshake on wg1"
has_handshake a wg0 "$PUB_B" || fail "no handshake on wg0"
pass "pings over wg1 inside wg0, full-size ones too"

set -- $(transfer a wg0 "$PUB_B")
outer0=$2
set -- $(transfer a wg1 "$PUB_D")
inner0=$2
iperf_tcp a b 192.168.242.2 2
mbit_positive
set -- $(transfer a wg0 "$PUB_B")
outer=$(($2 - outer0))
set -- $(transfer a wg1 "$PUB_D")
inner=$(($2 - inner0))
echo "iperf3 over wg1: $MBIT Mbit/s; wg1 sent $inner bytes, wg0 $outer"
[ "$inner" -gt 0 ] || fail "wg1's counters did not move"
[ "$outer" -gt "$inner" ] || fail "wg0 sent $outer bytes, less than the $inner wg1 sent through it"
pass "TCP over wg1; wg0 carried all of it"

# Nothing genuine was dropped on the way (lib.sh dropped_nothing): a
# message that failed authentication is invisible to the checks above.
dropped_nothing a b
