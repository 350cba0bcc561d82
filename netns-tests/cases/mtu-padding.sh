#!/bin/sh
# Padding respects the route MTU: with wg0 at MTU 1300, a 1297-byte packet
# is padded to 1300 and travels in a 1360-byte outer packet, which b drops
# (nft rule on the exact length).  With a route MTU of 1299 to b the padding
# stops at 1299, the outer packet is 1359 bytes and the ping passes.
# IPv4 and IPv6 inner packets, the drop rule's counter checked.
# timeout: 90
. "$(dirname "$0")/../lib.sh"

ns_add a
ns_add b
wg_pair a b
ip -n "$(nsname a)" link set wg0 mtu 1300
ip -n "$(nsname b)" link set wg0 mtu 1300
ping_all a 1 -W 5 192.168.241.2

on b nft -f - <<'NFT'
table inet padding {
	chain input {
		type filter hook input priority 0; policy accept;
		ip length 1360 udp dport 51821 counter drop
	}
}
NFT
drops() { on b nft list table inet padding | sed -n 's/.*counter packets \([0-9]*\) .*/\1/p'; }

# 1269 + 28 = 1297 bytes of IPv4, 1249 + 48 = 1297 bytes of IPv6.
no_ping a -c 2 -W 2 -s 1269 192.168.241.2
no_ping a -c 2 -W 2 -s 1249 fd00:241::2
[ "$(drops)" -ge 4 ] || fail "the 1360-byte drop rule matched $(drops) packets, expected 4"
pass "without a route MTU, 1297-byte packets are padded to 1300 (outer 1360, dropped)"

ip -n "$(nsname a)" route add 192.168.241.2/32 dev wg0 mtu 1299
ip -n "$(nsname a)" -6 route add fd00:241::2/128 dev wg0 mtu 1299
before=$(drops)
ping_all a 3 -W 3 -s 1269 192.168.241.2
ping_all a 3 -W 3 -s 1249 fd00:241::2
[ "$(drops)" = "$before" ] || fail "the drop rule matched with the route MTU in place"
pass "with a 1299-byte route MTU the padding stops at 1299 and pings pass"
