#!/bin/sh
# NAT between the peers: a sits behind router r, which masquerades a's
# 192.168.1.0/24 onto its 10.0.0.1 (nft) and forgets idle UDP mappings
# after 3 s.  b, with no route back and no endpoint for a, learns a's
# endpoint as r's address.  With a persistent keepalive of 1 s, b still
# reaches a after 6 idle seconds; with the keepalive off the mapping
# expires and b's packets no longer reach a.
# timeout: 90
. "$(dirname "$0")/../lib.sh"

ns_add a
ns_add r
ns_add b
veth_pair a r veth-a veth-ra
veth_pair r b veth-rb veth-b
ip -n "$(nsname a)" addr add 192.168.1.100/24 dev veth-a
ip -n "$(nsname a)" route add default via 192.168.1.1
ip -n "$(nsname r)" addr add 192.168.1.1/24 dev veth-ra
ip -n "$(nsname r)" addr add 10.0.0.1/24 dev veth-rb
ip -n "$(nsname b)" addr add 10.0.0.100/24 dev veth-b
sysctl_set r net.ipv4.ip_forward 1
sysctl_set r net.netfilter.nf_conntrack_udp_timeout 3
sysctl_set r net.netfilter.nf_conntrack_udp_timeout_stream 3
on r nft -f - <<'NFT'
table ip nat {
	chain postrouting {
		type nat hook postrouting priority srcnat; policy accept;
		ip saddr 192.168.1.0/24 oifname "veth-rb" masquerade
	}
}
NFT

wg_tunnel a b "" 10.0.0.100:51821
wg_peer a wg0 "$PUB_B" persistent-keepalive 1
ping_all a 2 -W 5 192.168.241.2
ep=$(endpoint b wg0 "$PUB_A")
case "$ep" in
10.0.0.1:*) ;;
*) fail "b's endpoint for a is '$ep', expected r's 10.0.0.1" ;;
esac
ping_all b 2 -W 3 192.168.241.1
pass "through the masquerade: b learned a as $ep"

quiet_period 6
ping_all b 2 -W 3 192.168.241.1
pass "after 6 idle seconds the 1 s keepalive kept the mapping: b reaches a"

# b's next packets to a (its passive keepalive, a's rekeying) are due
# 10 s and more from now; the mapping lapses 3 s after a's last keepalive.
wg_peer a wg0 "$PUB_B" persistent-keepalive 0
quiet_period 5
no_ping b -c 2 -W 2 192.168.241.1
pass "keepalive off: the mapping expired and b no longer reaches a"
