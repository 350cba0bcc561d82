#!/bin/sh
# Netlink dump splits at the edges upstream's netns.sh checks: 29 peers
# with no allowed-ips and then one with, and a peer with none followed by
# one with 197 IPv6 prefixes.  wg show and wg showconf must list every peer
# and every prefix, and "(none)" for the peers without, across the dump
# messages the kernel splits them into.
# timeout: 120
. "$(dirname "$0")/../lib.sh"

ns_add a
keypair
ip -n "$(nsname a)" link add wg0 type wireguard
on a wg set wg0 private-key "$(keyfile "$PRIV")"

# 29 peers without allowed-ips, then one with two.
randkeys 30 17 > /tmp/"$ns_prefix".keys
head -n 29 /tmp/"$ns_prefix".keys | sed 's/^/peer /' | tr '\n' ' ' > /tmp/"$ns_prefix".args
last=$(tail -n 1 /tmp/"$ns_prefix".keys)
on a wg set wg0 $(cat /tmp/"$ns_prefix".args) peer "$last" allowed-ips 10.9.0.1/32,fd00:9::1/128
on a wg showconf wg0 > /tmp/"$ns_prefix".conf
peers=$(grep -c '^\[Peer\]' /tmp/"$ns_prefix".conf)
[ "$peers" = 30 ] || fail "showconf lists $peers peers, expected 30"
none=$(ip netns exec "$(nsname a)" /usr/bin/wg show wg0 allowed-ips | grep -c '(none)$')
[ "$none" = 29 ] || fail "wg show lists $none peers with (none), expected 29"
got=$(ip netns exec "$(nsname a)" /usr/bin/wg show wg0 allowed-ips | awk -v p="$last" '$1 == p { $1 = ""; print }')
[ "$got" = " 10.9.0.1/32 fd00:9::1/128" ] || fail "the 30th peer's allowed-ips are '$got'"
pass "29 peers without allowed-ips, then one with: all 30 listed, 29 as (none)"

# A peer with none, then one with 197 IPv6 prefixes.
ip -n "$(nsname a)" link add wg1 type wireguard
keypair
on a wg set wg1 private-key "$(keyfile "$PRIV")"
randkeys 2 23 > /tmp/"$ns_prefix".keys2
p1=$(sed -n 1p /tmp/"$ns_prefix".keys2) p2=$(sed -n 2p /tmp/"$ns_prefix".keys2)
ips=$(awk 'BEGIN { for (i = 1; i <= 197; i++) printf "%sabcd::%x/128", (i > 1 ? "," : ""), i }')
on a wg set wg1 peer "$p1" peer "$p2" allowed-ips "$ips"
ip netns exec "$(nsname a)" /usr/bin/wg show wg1 allowed-ips > /tmp/"$ns_prefix".ips
n1=$(awk -v p="$p1" '$1 == p { print NF - 1 }' /tmp/"$ns_prefix".ips)
first=$(awk -v p="$p1" '$1 == p { print $2 }' /tmp/"$ns_prefix".ips)
n2=$(awk -v p="$p2" '$1 == p { print NF - 1 }' /tmp/"$ns_prefix".ips)
[ "$n1" = 1 ] && [ "$first" = "(none)" ] || fail "the first peer shows '$first' ($n1 words), expected (none)"
[ "$n2" = 197 ] || { head -c 600 /tmp/"$ns_prefix".ips; echo; fail "the second peer shows $n2 prefixes, expected 197"; }
on a wg showconf wg1 | grep '^AllowedIPs' | tr ',' '\n' | grep -c 'abcd::' > /tmp/"$ns_prefix".n
[ "$(cat /tmp/"$ns_prefix".n)" = 197 ] || fail "showconf lists $(cat /tmp/"$ns_prefix".n) of the 197 prefixes"
pass "a peer with none, then one with 197 v6 prefixes: (none), and all 197"
