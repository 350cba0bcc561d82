#!/bin/sh
# Cryptokey reverse-path filtering: a drops a packet that b authenticated
# but whose inner source is not in b's allowed-ips on a, counting it in
# wg0's rx_frame_errors; also when the source lies in b's /24 but a more
# specific prefix belongs to another peer.  Allowing the source lets it in.
# A dropped packet still updates the sender's endpoint.
# bad-packets: a packet whose inner source b's allowed-ips on a do not hold, refused by design
# timeout: 90
. "$(dirname "$0")/../lib.sh"

ns_add a
ns_add b
wg_pair a b
ip -n "$(nsname b)" addr add 192.168.241.22/32 dev wg0
ip -n "$(nsname b)" addr add fd00:241::22/128 dev wg0 nodad
ping_all a 1 -W 5 192.168.241.2

frame_errors() { dev_stat a wg0 rx_frame_errors; }

# rejected DESCRIPTION: pings from b's .22 / ::22 get no reply, and a
# counts each as a frame error.
rejected() {
	local e0 b_tx0 e1
	e0=$(frame_errors)
	b_tx0=$(transfer b wg0 "$PUB_A" | awk '{ print $2 }')
	no_ping b -c 3 -i 0.3 -W 2 -I 192.168.241.22 192.168.241.1
	no_ping b -c 3 -i 0.3 -W 2 -I fd00:241::22 fd00:241::1
	e1=$(frame_errors)
	[ "$(transfer b wg0 "$PUB_A" | awk '{ print $2 }')" -gt "$b_tx0" ] || fail "b did not even send ($1)"
	[ $((e1 - e0)) -ge 6 ] || fail "a counted $((e1 - e0)) rx_frame_errors for 6 spoofed packets ($1)"
	pass "$1: dropped, $((e1 - e0)) frame errors counted"
}
accepted() {
	ping_all b 3 -i 0.3 -W 2 -I 192.168.241.22 192.168.241.1
	ping_all b 3 -i 0.3 -W 2 -I fd00:241::22 fd00:241::1
	pass "$1: accepted"
}

rejected "source outside b's allowed-ips"
wg_peer a wg0 "$PUB_B" allowed-ips 192.168.241.2/32,192.168.241.22/32,fd00:241::2/128,fd00:241::22/128
accepted "source added to b's allowed-ips"

keypair
wg_peer a wg0 "$PUB_B" allowed-ips 192.168.241.0/24,fd00:241::/64
wg_peer a wg0 "$PUB" allowed-ips 192.168.241.22/32,fd00:241::22/128
# b moves to another port first: a still learns the new endpoint from the
# packets it drops, since they were authenticated (upstream's netns.sh
# checks the same).
on b wg set wg0 listen-port 9997
rejected "source in b's /24 but another peer holds its /32"
ep=$(endpoint a wg0 "$PUB_B")
[ "$ep" = 10.0.0.2:9997 ] ||
	fail "a's endpoint for b is $ep after b moved to port 9997: the packets a dropped did not update it"
pass "the endpoint is learned from the authenticated packets the filter drops ($ep)"
on a wg set wg0 peer "$PUB" remove
accepted "that peer removed"
