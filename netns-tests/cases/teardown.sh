#!/bin/sh
# Namespace teardown with live tunnels.  wg0 of a and of b are created in
# namespace u, so their UDP sockets live in u while the interfaces move to
# a and b; the tunnel runs over u's loopback.  Under flood traffic b's
# namespace is deleted: its socket in u goes away.  Then u, the creating
# namespace, is deleted under a's traffic: a's wg0 loses carrier but stays
# usable to wg show.  Then a goes, and a pair of interfaces created in each
# other's namespace.  Every interface and peer the kernel logged as created
# is logged as destroyed, nothing is left, and a new tunnel works.
# timeout: 120
. "$(dirname "$0")/../lib.sh"

kmsg_mark
ns_add u
ns_add a
ns_add b
keypair
KEY_A=$PRIV PUB_A=$PUB
keypair
KEY_B=$PRIV PUB_B=$PUB
ip -n "$(nsname u)" link add wgta type wireguard
ip -n "$(nsname u)" link add wgtb type wireguard
ip -n "$(nsname u)" link set wgta netns "$(nsname a)" name wg0
ip -n "$(nsname u)" link set wgtb netns "$(nsname b)" name wg0
on a wg set wg0 private-key "$(keyfile "$KEY_A")" listen-port 51820 \
	peer "$PUB_B" endpoint 127.0.0.1:51821 allowed-ips 192.168.241.2/32
on b wg set wg0 private-key "$(keyfile "$KEY_B")" listen-port 51821 \
	peer "$PUB_A" endpoint 127.0.0.1:51820 allowed-ips 192.168.241.1/32
ip -n "$(nsname a)" addr add 192.168.241.1/24 dev wg0
ip -n "$(nsname b)" addr add 192.168.241.2/24 dev wg0
ip -n "$(nsname a)" link set wg0 up
ip -n "$(nsname b)" link set wg0 up
udp_listening u 51820 && udp_listening u 51821 || fail "the sockets are not in the creating namespace u"
udp_listening a 51820 && fail "a's socket is in a, not in u"
ping_all a 3 -i 0.2 -W 5 192.168.241.2
pass "interfaces created in u and moved to a and b tunnel over u's loopback"

bg a /usr/bin/ping -q -f 192.168.241.2
flood=$BG_PID
wait_for 10 has_handshake b wg0 "$PUB_A" || fail "no handshake before the teardown"
ip netns del "$(nsname b)"
not_listening() { ! udp_listening "$1" "$2"; }
wait_for 20 not_listening u 51821 || fail "b's socket in u outlived b's namespace"
udp_listening u 51820 || fail "a's socket in u went away with b"
pass "b deleted under traffic: its socket in u is gone"

ip netns del "$(nsname u)"
no_carrier() { ip -n "$(nsname a)" link show wg0 | grep NO-CARRIER > /dev/null; }
wait_for 20 no_carrier || fail "a's wg0 kept its carrier after its creating namespace went"
on a wg show wg0 > /dev/null || fail "wg show fails on a's wg0 after u went"
stop $flood
ip netns del "$(nsname a)"
pass "creating namespace deleted under traffic: a's wg0 lost carrier, then a deleted"

# Each interface created in the other's namespace, both up, then both
# namespaces deleted.
ns_add c
ns_add d
ip -n "$(nsname c)" link add wg1 type wireguard
ip -n "$(nsname d)" link add wg2 type wireguard
ip -n "$(nsname c)" link set wg1 netns "$(nsname d)"
ip -n "$(nsname d)" link set wg2 netns "$(nsname c)"
ip -n "$(nsname c)" link set wg2 up
ip -n "$(nsname d)" link set wg1 up
ip netns del "$(nsname c)"
ip netns del "$(nsname d)"

# all_destroyed: the kernel logged 4 interfaces and 2 peers created, and as
# many destroyed.
all_destroyed() {
	[ "$(kmsg_since | awk '
		/: Interface created/ { ic++ } /: Interface destroyed/ { id++ }
		/: Peer [0-9]+ created/ { pc++ } /: Peer [0-9]+ \(.*\) destroyed/ { pd++ }
		END { print ic + 0, id + 0, pc + 0, pd + 0 }')" = "4 4 2 2" ]
}
wait_for 30 all_destroyed || {
	kmsg_since | grep -E 'Interface|Peer [0-9]* (created|\(.*\) destroyed)'
	fail "not every interface and peer created was destroyed"
}
pass "4 interfaces and 2 peers created, all destroyed"

ns_add e
ns_add f
wg_pair e f
ping_all e 3 -i 0.2 -W 5 192.168.241.2
pass "a new tunnel works afterwards"
