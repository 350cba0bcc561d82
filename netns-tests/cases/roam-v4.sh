#!/bin/sh
# Roaming over IPv4: a changes its underlay address and listen port; its
# next packet moves b's endpoint for a to the new address and port, and b
# reaches a there.  a's own socket must not stick to the removed address.
# timeout: 60
. "$(dirname "$0")/../lib.sh"

ns_add a
ns_add b
wg_pair a b

ping_all a 1 -W 5 192.168.241.2
[ "$(endpoint b wg0 "$PUB_A")" = 10.0.0.1:51820 ] || fail "b's endpoint for a is $(endpoint b wg0 "$PUB_A")"

ip -n "$(nsname a)" addr del 10.0.0.1/24 dev veth-a
ip -n "$(nsname a)" addr add 10.0.0.11/24 dev veth-a
on a wg set wg0 listen-port 9999
ping_all a 1 -W 3 fd00:241::2
[ "$(endpoint b wg0 "$PUB_A")" = 10.0.0.11:9999 ] ||
	fail "b's endpoint for a is $(endpoint b wg0 "$PUB_A") after a moved, expected 10.0.0.11:9999"
ping_all b 3 -i 0.2 -W 2 192.168.241.1
pass "b follows a to 10.0.0.11:9999 and reaches it there"

on a wg set wg0 listen-port 9997
ping_all a 1 -W 3 192.168.241.2
[ "$(endpoint b wg0 "$PUB_A")" = 10.0.0.11:9997 ] ||
	fail "b's endpoint for a is $(endpoint b wg0 "$PUB_A") after a changed port, expected 10.0.0.11:9997"
ping_all b 3 -i 0.2 -W 2 fd00:241::1
[ "$(endpoint a wg0 "$PUB_B")" = 10.0.0.2:51821 ] || fail "a's endpoint for b changed to $(endpoint a wg0 "$PUB_B")"
pass "a port change alone is followed too; a's endpoint for b stays put"
