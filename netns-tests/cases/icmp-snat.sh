#!/bin/sh
# An ICMP error for a packet that was source-NATed into wg0 goes back to
# the real sender, as upstream's netns.sh checks it: r reaches
# 192.168.241.1 through b (10.0.0.100), which forwards into its wg0 with
# SNAT to its own 192.168.241.2.  No peer of b's wg0 has 192.168.241.1,
# so WireGuard answers "host unreachable"; it must undo the NAT first
# (icmp_ndo_send), so r's ping reports the error from 10.0.0.100 instead
# of b sending it to itself.
# timeout: 60
. "$(dirname "$0")/../lib.sh"

ns_add r
ns_add b
veth_pair r b
ip -n "$(nsname r)" addr add 10.0.0.1/24 dev veth-r
ip -n "$(nsname b)" addr add 10.0.0.100/24 dev veth-b
ip -n "$(nsname r)" route add 192.168.241.1 via 10.0.0.100
keypair
wg_dev b wg0 51821 "$PRIV"
ip -n "$(nsname b)" addr add 192.168.241.2/24 dev wg0
ip -n "$(nsname b)" link set wg0 up
sysctl_set b net.ipv4.ip_forward 1
on b nft -f - <<'NFT'
table ip natr {
	chain post {
		type nat hook postrouting priority 100;
		ip saddr 10.0.0.0/24 ip daddr 192.168.241.0/24 snat to 192.168.241.2
	}
}
NFT
out=$(ip netns exec "$(nsname r)" /usr/bin/ping -W 2 -c 1 192.168.241.1 2>&1 || true)
echo "$out" | sed 's/^/  /'
echo "$out" | grep 'From 10.0.0.100 icmp_seq=1 Destination Host Unreachable' > /dev/null ||
	fail "r's ping got no 'host unreachable' from 10.0.0.100: the error did not find its way back through the NAT"
pass "the ICMP error for a NATed packet came back to r from 10.0.0.100"
