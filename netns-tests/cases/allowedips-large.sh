#!/bin/sh
# Large allowed-ips sets: b gets 4096 IPv4 /32s and 4096 IPv6 /128s on a
# besides its own; wg show lists all 8194 (netlink split dumps inside one
# peer).  An address of b inside the set is reached, one just outside is
# not routed to any peer.  Replacing the set shrinks it back.  40 peers of
# 52 /16s each are each listed whole.
# timeout: 120
. "$(dirname "$0")/../lib.sh"

ns_add a
ns_add b
wg_pair a b

conf=/tmp/$ns_prefix.ips.conf
awk -v k="$PUB_B" 'BEGIN {
	# A peer in a configuration file gets exactly the allowed-ips listed.
	print "[Peer]\nPublicKey = " k "\nAllowedIPs = 192.168.241.2/32, fd00:241::2/128"
	for (i = 0; i < 4096; i++)
		printf "AllowedIPs = 10.200.%d.%d/32, fd00:200::%x:%x/128\n", int(i / 256), i % 256, int(i / 256), i % 256
}' > "$conf"
on a wg addconf wg0 "$conf"
count_ips() { on "$1" wg show wg0 allowed-ips | awk -v p="$2" '$1 == p { print NF - 1 }'; }
n=$(count_ips a "$PUB_B")
[ "$n" = 8194 ] || fail "wg show lists $n allowed-ips for b, expected 8194"
pass "8194 allowed-ips on one peer listed"

ip -n "$(nsname b)" addr add 10.200.7.77/32 dev wg0
ip -n "$(nsname b)" addr add fd00:200::7:4d/128 dev wg0 nodad
ip -n "$(nsname b)" addr add 10.200.16.1/32 dev wg0
ip -n "$(nsname a)" route add 10.200.0.0/16 dev wg0
ip -n "$(nsname a)" -6 route add fd00:200::/64 dev wg0
ping_all a 3 -i 0.2 -W 3 10.200.7.77
ping_all a 3 -i 0.2 -W 3 fd00:200::7:4d
e0=$(dev_stat a wg0 tx_errors)
no_ping a -c 2 -W 2 10.200.16.1
[ "$(dev_stat a wg0 tx_errors)" -gt "$e0" ] || fail "a did not count a tx error for 10.200.16.1 (no peer)"
pass "addresses inside the set are reached, one outside is not routed"

wg_peer a wg0 "$PUB_B" allowed-ips 192.168.241.2/32,fd00:241::2/128
[ "$(count_ips a "$PUB_B")" = 2 ] || fail "after replacing, b has $(count_ips a "$PUB_B") allowed-ips"
no_ping a -c 1 -W 2 10.200.7.77
ping_all a 2 -W 3 192.168.241.2
pass "replacing the set drops the 8192 prefixes"

ip -n "$(nsname a)" link add wg1 type wireguard
randkeys 40 4242 | awk '{
	print "[Peer]\nPublicKey = " $1
	for (b = 1; b <= 52; b++)
		printf "AllowedIPs = %d.%d.0.0/16\n", NR, b
}' > "$conf"
on a wg setconf wg1 "$conf"
bad=$(on a wg show wg1 allowed-ips | awk 'NF != 53 { n++ } END { print n + 0 }')
lines=$(on a wg show wg1 allowed-ips | wc -l)
[ "$lines" = 40 ] && [ "$bad" = 0 ] || fail "wg1 shows $lines peers, $bad of them without exactly 52 prefixes"
pass "40 peers with 52 prefixes each listed whole"
