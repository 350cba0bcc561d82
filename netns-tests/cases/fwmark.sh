#!/bin/sh
# fwmark and policy routing the way wg-quick does a full tunnel: a routes
# everything (v4 and v6) into wg0 through table 51820 unless the packet
# carries wg0's fwmark 51820; b's endpoint is reachable only through a's
# main default route.  Pings to addresses only b has, and to b's underlay
# address itself, go through the tunnel; wg's own packets carry the mark
# (nft counter) and leave through the underlay.  Before that, packets
# bound to wg0 (ping -I wg0) and packets re-marked by nft still route.
# timeout: 90
. "$(dirname "$0")/../lib.sh"

ns_add a
ns_add b
wg_pair a b
ping_all a 1 -W 5 192.168.241.2

ping_all a 2 -W 3 -I wg0 192.168.241.2
on a nft -f - <<'NFT'
table inet remark {
	chain output {
		type route hook output priority mangle; policy accept;
		meta l4proto { 1, 58 } meta mark set 1	# icmp, ipv6-icmp (no /etc/protocols)
	}
}
NFT
ping_all a 2 -W 3 192.168.241.2
ping_all a 2 -W 3 -I wg0 192.168.241.2
on a nft delete table inet remark
pass "bound to wg0 and re-marked by nft, pings still route"

ip -n "$(nsname b)" addr add 10.9.9.9/32 dev veth-b
ip -n "$(nsname b)" addr add fd00:9::9/128 dev veth-b nodad
ip -n "$(nsname b)" addr add 192.168.99.7/32 dev wg0
ip -n "$(nsname b)" addr add abab::1111/128 dev wg0 nodad
ip -n "$(nsname a)" route add default via 10.0.0.2
ip -n "$(nsname a)" -6 route add default via fd00::2
on a wg set wg0 fwmark 51820 peer "$PUB_B" endpoint 10.9.9.9:51821 allowed-ips 0.0.0.0/0,::/0
[ "$(on a wg show wg0 fwmark)" = 0xca6c ] || fail "wg show wg0 fwmark is '$(on a wg show wg0 fwmark)'"
for v in -4 -6; do
	ip -n "$(nsname a)" $v route add default dev wg0 table 51820
	ip -n "$(nsname a)" $v rule add not fwmark 51820 table 51820
	ip -n "$(nsname a)" $v rule add table main suppress_prefixlength 0
done
on a nft -f - <<'NFT'
table inet marked {
	chain output {
		type filter hook output priority 0; policy accept;
		meta mark 51820 udp dport 51821 counter
	}
}
NFT

set -- $(transfer a wg0 "$PUB_B")
tx0=$2
ping_all a 50 -f -W 3 192.168.99.7
ping_all a 50 -f -W 3 abab::1111
ping_all a 3 -W 3 10.9.9.9
ping_all a 3 -W 3 fd00:9::9
set -- $(transfer a wg0 "$PUB_B")
[ $(($2 - tx0)) -ge $((106 * 96)) ] || fail "only $(($2 - tx0)) bytes went through wg0 for 106 pings"
marked=$(on a nft list table inet marked | sed -n 's/.*counter packets \([0-9]*\) .*/\1/p')
[ "$marked" -ge 106 ] || fail "only $marked of wg's packets to b carried the fwmark"
[ "$(endpoint a wg0 "$PUB_B")" = 10.9.9.9:51821 ] || fail "a's endpoint for b moved to $(endpoint a wg0 "$PUB_B")"
pass "full tunnel by policy routing: $marked marked packets carried 106 pings"
