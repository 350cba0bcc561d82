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

# One consistent reading of every counter: a late keepalive may land
# between two reads, so read them all twice until two readings agree.
snap() {
	echo "$(transfer b wg0 "$PUB_A") $(transfer a wg0 "$PUB_B")" \
		"$(dev_stat b wg0 rx_bytes) $(dev_stat b wg0 tx_bytes)" \
		"$(dev_stat a wg0 rx_bytes) $(dev_stat a wg0 tx_bytes)" \
		"$(dev_stat b wg0 rx_packets)"
}
steady() { SNAP=$(snap); [ "$(snap)" = "$SNAP" ]; }
wait_for 20 steady || fail "the counters kept moving: $SNAP"
set -- $SNAP
b_rx=$1 b_tx=$2 a_rx=$3 a_tx=$4

# b initiated: it sent the initiation and ten requests, maybe a keepalive;
# it received the response and ten replies, and maybe one keepalive when a
# slow kernel reads the counters more than 10 s later.
echo "b: rx $b_rx tx $b_tx (expected rx 1372 or 1404, tx 1428 or 1460)"
echo "a: rx $a_rx tx $a_tx"
[ "$b_rx" = 1372 ] || [ "$b_rx" = 1404 ] || fail "b received $b_rx bytes from a, expected 1372 (or 1404)"
[ "$b_tx" = 1428 ] || [ "$b_tx" = 1460 ] || fail "b sent $b_tx bytes to a, expected 1428 or 1460"
[ "$a_tx" = "$b_rx" ] || fail "a sent $a_tx bytes, b received $b_rx"
[ "$a_rx" = "$b_tx" ] || fail "a received $a_rx bytes, b sent $b_tx"
pass "wg show transfer accounts every message of the exchange"

echo "interfaces: b rx $5 tx $6, a rx $7 tx $8 bytes; b rx $9 packets"
[ "$5 $6" = "$b_rx $b_tx" ] || fail "b's wg0 rx/tx bytes ($5 $6) differ from its peer's counters"
[ "$7 $8" = "$a_rx $a_tx" ] || fail "a's wg0 rx/tx bytes ($7 $8) differ from its peer's counters"
packets=$((11 + (b_rx - 1372) / 32))
[ "$9" = "$packets" ] || fail "b's wg0 received $9 packets, expected $packets"
pass "interface counters agree with the peer counters"

for side in "a $PUB_B" "b $PUB_A"; do
	set -- $side
	hs=$(latest_handshake "$1" wg0 "$2")
	echo "$1: latest handshake $hs (exchange between $t0 and $t1)"
	[ "$hs" -ge $((t0 - 1)) ] && [ "$hs" -le $((t1 + 1)) ] ||
		fail "$1's latest handshake $hs is outside the exchange ($t0..$t1)"
done
pass "latest-handshake on both sides falls within the exchange"
