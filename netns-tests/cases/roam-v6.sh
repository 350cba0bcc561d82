#!/bin/sh
# Roaming over IPv6 and across families: a changes its IPv6 underlay
# address and port and b's endpoint follows; a then switches to b's IPv4
# address and back, and b's endpoint follows the family each time.
# timeout: 60
. "$(dirname "$0")/../lib.sh"

ns_add a
ns_add b
OUTER=6 wg_pair a b

ping_all a 1 -W 5 192.168.241.2
[ "$(endpoint b wg0 "$PUB_A")" = "[fd00::1]:51820" ] || fail "b's endpoint for a is $(endpoint b wg0 "$PUB_A")"

ip -n "$(nsname a)" addr del fd00::1/64 dev veth-a
ip -n "$(nsname a)" addr add fd00::11/64 dev veth-a nodad
on a wg set wg0 listen-port 9998
ping_all a 1 -W 3 192.168.241.2
[ "$(endpoint b wg0 "$PUB_A")" = "[fd00::11]:9998" ] ||
	fail "b's endpoint for a is $(endpoint b wg0 "$PUB_A") after a moved, expected [fd00::11]:9998"
ping_all b 3 -i 0.2 -W 2 fd00:241::1
pass "b follows a to [fd00::11]:9998 and reaches it there"

on a wg set wg0 peer "$PUB_B" endpoint 10.0.0.2:51821
ping_all a 1 -W 3 192.168.241.2
[ "$(endpoint b wg0 "$PUB_A")" = 10.0.0.1:9998 ] ||
	fail "b's endpoint for a is $(endpoint b wg0 "$PUB_A") after a went v4, expected 10.0.0.1:9998"
ping_all b 3 -i 0.2 -W 2 192.168.241.1
on a wg set wg0 peer "$PUB_B" endpoint "[fd00::2]:51821"
ping_all a 1 -W 3 fd00:241::2
[ "$(endpoint b wg0 "$PUB_A")" = "[fd00::11]:9998" ] ||
	fail "b's endpoint for a is $(endpoint b wg0 "$PUB_A") after a went back to v6"
pass "b's endpoint follows a from IPv6 to IPv4 and back"
