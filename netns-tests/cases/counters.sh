#!/bin/sh
# Exact byte accounting on a fresh tunnel: ten flood pings from b to a give
# known counters in wg show transfer on both sides (128-byte data messages
# for the 84-byte ICMP packets, the 148-byte initiation, the 92-byte
# response and maybe one 32-byte keepalive), the interface counters agree,
# and both latest-handshakes are a time within the exchange.
# timeout: 60
. "$(dirname "$0")/../lib.sh"

ns_add a
ns_add b
wg_pair a b

[ "$(transfer a wg0 "$PUB_B")" = "0 0" ] || fail "a's counters not zero before any traffic"
[ "$(transfer b wg0 "$PUB_A")" = "0 0" ] || fail "b's counters not zero before any traffic"

t0=$(date +%s)
ping_all b 10 -f -W 2 192.168.241.1
t1=$(date +%s)

# b initiated: it sent the initiation and ten requests, maybe a keepalive;
# it received the response and ten replies.
set -- $(transfer b wg0 "$PUB_A")
echo "b: rx $1 tx $2 (expected rx 1372, tx 1428 or 1460)"
[ "$1" = 1372 ] || fail "b received $1 bytes from a, expected 1372"
[ "$2" = 1428 ] || [ "$2" = 1460 ] || fail "b sent $2 bytes to a, expected 1428 or 1460"
b_tx=$2
set -- $(transfer a wg0 "$PUB_B")
echo "a: rx $1 tx $2"
[ "$2" = 1372 ] || fail "a sent $2 bytes to b, expected 1372"
[ "$1" = "$b_tx" ] || fail "a received $1 bytes, b sent $b_tx"
pass "wg show transfer accounts every message of the exchange"

for s in rx_bytes tx_bytes; do
	[ "$(dev_stat b wg0 $s)" = "$(transfer b wg0 "$PUB_A" | awk -v s=$s '{ print s == "rx_bytes" ? $1 : $2 }')" ] ||
		fail "b's wg0 $s ($(dev_stat b wg0 $s)) differs from its peer's counter"
	[ "$(dev_stat a wg0 $s)" = "$(transfer a wg0 "$PUB_B" | awk -v s=$s '{ print s == "rx_bytes" ? $1 : $2 }')" ] ||
		fail "a's wg0 $s ($(dev_stat a wg0 $s)) differs from its peer's counter"
done
[ "$(dev_stat b wg0 rx_packets)" = 11 ] || fail "b's wg0 received $(dev_stat b wg0 rx_packets) packets, expected 11"
pass "interface counters agree with the peer counters"

for side in "a $PUB_B" "b $PUB_A"; do
	set -- $side
	hs=$(latest_handshake "$1" wg0 "$2")
	echo "$1: latest handshake $hs (exchange between $t0 and $t1)"
	[ "$hs" -ge $((t0 - 1)) ] && [ "$hs" -le $((t1 + 1)) ] ||
		fail "$1's latest handshake $hs is outside the exchange ($t0..$t1)"
done
pass "latest-handshake on both sides falls within the exchange"
