#!/bin/sh
# WireGuard's cached routes (dst_cache) do not outlive their namespace, as
# upstream's netns.sh checks it: a tunnel over a v6 veth whose ends route
# everything through each other (default routes via the peer) carries a
# ping, then both namespaces are deleted; both wg0s and veths must be
# destroyed within 20 s.  A dst still held would keep the netns device
# waiting ("unregister_netdevice: waiting for ..."), which the entry's
# health check also quotes.
# timeout: 60
. "$(dirname "$0")/../lib.sh"

ns_add a
ns_add b
wg_pair6 a b
ip -n "$(nsname a)" -6 route add default dev veth-a via fd00::2
ip -n "$(nsname b)" -6 route add default dev veth-b via fd00::1
ping_all a 1 -W 5 fd00:241::2
pass "a ping over the v6 veth with default routes through each other"

kmsg_mark
for ns in a b; do
	ip netns del "$(nsname $ns)"
done
created_ns=
destroyed() { [ "$(kmsg_since | grep -c 'wireguard: wg0: Interface destroyed')" -ge 2 ]; }
wait_for 20 destroyed ||
	fail "only $(kmsg_since | grep -c 'wireguard: wg0: Interface destroyed') of the 2 wg0s were destroyed 20 s after their namespaces were deleted"
pass "both namespaces deleted: their wg0s destroyed"
