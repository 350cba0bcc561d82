#!/bin/sh
# Another interface's route with a lower metric takes over an ongoing
# tunnel's source, as upstream's netns.sh checks it: a reaches b's
# 10.0.0.2 through veth-a (src 10.0.0.1, metric 2) and b learns
# 10.0.0.1; then a route through a second veth (src 10.0.0.3, metric 1)
# takes precedence, and a's next packet leaves from 10.0.0.3: b's
# endpoint for a follows.  The sticky source is dropped when its route
# moves to another interface.
# timeout: 60
. "$(dirname "$0")/../lib.sh"

ns_add a
ns_add b
wg_pair a b
veth_pair a b veth3 veth4
ip -n "$(nsname a)" addr add 10.0.0.3/24 dev veth3
ip -n "$(nsname a)" route flush dev veth-a
ip -n "$(nsname a)" route flush dev veth3
ip -n "$(nsname a)" route add 10.0.0.0/24 dev veth-a src 10.0.0.1 metric 2
# The second path is asymmetric (b's veth4 has no address): no reverse
# path filtering on either side.
for k in all veth-a veth3; do sysctl_set a net.ipv4.conf.$k.rp_filter 0; done
for k in all veth-b veth4; do sysctl_set b net.ipv4.conf.$k.rp_filter 0; done
ping_all a 1 -W 5 192.168.241.2
ep=$(endpoint b wg0 "$PUB_A")
[ "$ep" = 10.0.0.1:51820 ] || fail "b's endpoint for a is $ep, expected 10.0.0.1:51820"
pass "through veth-a (metric 2), b sees a at $ep"

ip -n "$(nsname a)" route add 10.0.0.0/24 dev veth3 src 10.0.0.3 metric 1
ping_all a 1 -W 5 192.168.241.2
ep=$(endpoint b wg0 "$PUB_A")
[ "$ep" = 10.0.0.3:51820 ] || fail "b's endpoint for a is $ep after the metric 1 route via veth3, expected 10.0.0.3:51820"
pass "a metric 1 route via veth3 takes over: b sees a at $ep"
