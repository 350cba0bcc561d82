#!/bin/sh
# The full allowed-ips load upstream's netns.sh gives one peer: every
# IPv4 /16 from 1.0.0.0 to 255.255.0.0 and as many IPv6 /128s, 130,560
# prefixes through one wg setconf; wg show lists every one of them, and
# the interface is removed cleanly afterwards (the settle after the case
# checks its teardown).
# timeout: 300
. "$(dirname "$0")/../lib.sh"

ns_add a
ip -n "$(nsname a)" link add wg0 type wireguard
keypair
{
	echo "[Interface]"
	echo "PrivateKey = $PRIV"
	echo "[Peer]"
	echo "PublicKey = $(randkeys 1 29)"
	awk 'BEGIN {
		for (a = 1; a <= 255; a++)
			for (b = 0; b <= 255; b++)
				printf "AllowedIPs = %d.%d.0.0/16, %x::%x/128\n", a, b, a, b
	}'
} > /tmp/"$ns_prefix".conf
on a wg setconf wg0 /tmp/"$ns_prefix".conf
n=$(ip netns exec "$(nsname a)" /usr/bin/wg show wg0 allowed-ips | awk '{ n += NF - 1 } END { print n + 0 }')
[ "$n" = 130560 ] || fail "wg show lists $n allowed-ips, expected 130560"
pass "one peer with 130560 allowed-ips, all listed"
