#!/bin/sh
# Replies come from the address the peer used: a owns 10.0.0.1 and
# 10.0.0.3 (and fd00::1, fd00::3) on one link and 10.50.0.1 on a dummy
# interface; whichever b sends to, a answers from it, so b's endpoint for a
# stays exactly what b set.  The source is sticky, but not too sticky: when
# a's address goes away, a's next packets come from another one and b
# follows, over v4 and over v6.
# timeout: 90
. "$(dirname "$0")/../lib.sh"

ns_add a
ns_add b
wg_pair a b
sysctl_set a net.ipv4.conf.veth-a.promote_secondaries 1
ip -n "$(nsname a)" addr add 10.0.0.3/24 dev veth-a
ip -n "$(nsname a)" addr add fd00::3/64 dev veth-a nodad
ip -n "$(nsname a)" link add dummy0 type dummy
ip -n "$(nsname a)" addr add 10.50.0.1/24 dev dummy0
ip -n "$(nsname a)" link set dummy0 up
ip -n "$(nsname b)" route add 10.50.0.0/24 dev veth-b
# a answers on 10.50.0.1 through veth-a although the address is dummy0's.
sysctl_set a net.ipv4.conf.all.rp_filter 0
sysctl_set a net.ipv4.conf.veth-a.rp_filter 0

for ep in 10.0.0.3:51820 10.0.0.1:51820 "[fd00::3]:51820" "[fd00::1]:51820" 10.50.0.1:51820 10.0.0.3:51820; do
	wg_peer b wg0 "$PUB_A" endpoint "$ep"
	ping_all b 2 -W 5 192.168.241.1
	[ "$(endpoint b wg0 "$PUB_A")" = "$ep" ] ||
		fail "b set $ep for a, but after a's replies it is $(endpoint b wg0 "$PUB_A")"
done
pass "a replies from whichever address b used"

ip -n "$(nsname a)" addr del 10.0.0.3/24 dev veth-a
ping_all a 2 -W 5 192.168.241.2
[ "$(endpoint b wg0 "$PUB_A")" = 10.0.0.1:51820 ] ||
	fail "after a lost 10.0.0.3, b's endpoint is $(endpoint b wg0 "$PUB_A"), expected 10.0.0.1:51820"
ping_all b 2 -W 3 192.168.241.1
pass "a's source moves on when its address goes away, and b follows"

# The same over v6: b talks to fd00::3, a's replies stick to it, and when
# a loses fd00::3 its next packets come from fd00::1.
wg_peer b wg0 "$PUB_A" endpoint "[fd00::3]:51820"
ping_all b 2 -W 5 192.168.241.1
[ "$(endpoint b wg0 "$PUB_A")" = "[fd00::3]:51820" ] ||
	fail "b set [fd00::3]:51820 for a, but after a's replies it is $(endpoint b wg0 "$PUB_A")"
ip -n "$(nsname a)" addr del fd00::3/64 dev veth-a
ping_all a 2 -W 5 192.168.241.2
[ "$(endpoint b wg0 "$PUB_A")" = "[fd00::1]:51820" ] ||
	fail "after a lost fd00::3, b's endpoint is $(endpoint b wg0 "$PUB_A"), expected [fd00::1]:51820"
pass "over v6 too: the source moves on when its address goes away, and b follows"
