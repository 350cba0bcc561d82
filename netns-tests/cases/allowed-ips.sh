#!/bin/sh
# Cryptokey routing: a packet goes to the peer whose allowed-ips hold the
# longest matching prefix.  A second peer c with a /32 (/128) inside b's
# /24 (/64) takes b's inner address away from b (pings stop, c's counter
# moves, b's does not); a /25 (/65) loses to b's /32 (/128); giving an
# exact prefix to another peer moves it there.
# bad-packets: peer c has no host: its initiations go to b's port, whose MAC check refuses them
# timeout: 90
. "$(dirname "$0")/../lib.sh"

ns_add a
ns_add b
wg_pair a b
keypair
PUB_C=$PUB

peer_ips() {
	ip netns exec "$(nsname a)" /usr/bin/wg show wg0 allowed-ips | awk -v p="$1" '$1 == p { $1 = ""; print }'
}
tx_to() { transfer a wg0 "$1" | awk '{ print $2 }'; }

wg_peer a wg0 "$PUB_B" allowed-ips 192.168.241.0/24,fd00:241::/64
ping_all a 2 -W 3 192.168.241.2
ping_all a 2 -W 3 fd00:241::2
pass "b's /24 and /64 carry pings"

# Echo requests arriving at b through wg0.
on b nft -f - <<'NFT'
table inet echoes {
	chain input {
		type filter hook input priority 0; policy accept;
		iifname "wg0" icmp type echo-request counter
		iifname "wg0" icmpv6 type echo-request counter
	}
}
NFT
echoes() { on b nft list table inet echoes | awk '/counter packets/ { for (i = 1; i < NF; i++) if ($i == "packets") n += $(i + 1) } END { print n + 0 }'; }
e0=$(echoes)
[ "$e0" = 0 ] || fail "b's echo counter starts at $e0"
ping_all a 1 -W 3 192.168.241.2
[ "$(echoes)" = 1 ] || fail "b's echo counter did not count a ping"

wg_peer a wg0 "$PUB_C" endpoint 10.0.0.2:51821 allowed-ips 192.168.241.2/32,fd00:241::2/128
no_ping a -c 2 -W 2 192.168.241.2
no_ping a -c 2 -W 2 fd00:241::2
[ "$(tx_to "$PUB_C")" -gt 0 ] || fail "nothing was sent to peer c"
[ "$(echoes)" = 1 ] || fail "b received $(($(echoes) - 1)) echo requests meant for c"
pass "c's /32 and /128 win over b's /24 and /64"

wg_peer a wg0 "$PUB_C" allowed-ips 192.168.241.0/25,fd00:241::/65
wg_peer a wg0 "$PUB_B" allowed-ips 192.168.241.2/32,fd00:241::2/128
ping_all a 2 -W 3 192.168.241.2
ping_all a 2 -W 3 fd00:241::2
pass "b's /32 and /128 win over c's /25 and /65"

echo "b: $(peer_ips "$PUB_B")"
echo "c: $(peer_ips "$PUB_C")"
wg_peer a wg0 "$PUB_C" allowed-ips 192.168.241.2/32
case " $(peer_ips "$PUB_B") " in
*" 192.168.241.2/32 "*) fail "192.168.241.2/32 still listed for b after c took it" ;;
esac
[ "$(peer_ips "$PUB_C")" = " 192.168.241.2/32" ] || fail "c's allowed-ips are '$(peer_ips "$PUB_C")'"
no_ping a -c 1 -W 2 192.168.241.2
ping_all a 2 -W 3 fd00:241::2
pass "an exact prefix moves from b to c; b keeps its other prefixes"

on a wg set wg0 peer "$PUB_C" remove
wg_peer a wg0 "$PUB_B" allowed-ips 192.168.241.2/32,fd00:241::2/128
ping_all a 2 -W 3 192.168.241.2
pass "with c removed, b is reached again"
