#!/bin/sh
# Peers removed and re-added under traffic: while fast pings run both
# ways (v4 and v6), a drops and re-adds b ten times, b drops and re-adds a
# every other time; each time traffic resumes on a fresh handshake: echo
# requests arrive through the tunnel again in both directions (the ICMP
# counters of the receiving stack; WireGuard's own counters also count
# handshake messages, which are not traffic resuming).  At
# the end each side has exactly its one peer, with its allowed-ips, and
# the tunnel works.
# bad-packets: a peer re-added under traffic can take data before its allowed-ips are back (seen: unallowed src IP)
# timeout: 150
. "$(dirname "$0")/../lib.sh"

ns_add a
ns_add b
wg_pair a b
ping_all a 1 -W 5 192.168.241.2

bg a /usr/bin/ping -q -f 192.168.241.2
p1=$BG_PID
bg b /usr/bin/ping -q -i 0.02 fd00:241::1
p2=$BG_PID

# Echo requests delivered: a's v4 flood at b, b's v6 pings at a.
echos() { echo "$(snmp b Icmp InEchos) $(snmp a Icmp6 InEchos)"; }
both_grew() {
	set -- $1 $(echos)
	[ "$3" -gt "$1" ] && [ "$4" -gt "$2" ]
}

i=0
while [ $i -lt 10 ]; do
	on a wg set wg0 peer "$PUB_B" remove
	wg_peer a wg0 "$PUB_B" endpoint 10.0.0.2:51821 allowed-ips 192.168.241.2/32,fd00:241::2/128
	if [ $((i % 2)) = 1 ]; then
		on b wg set wg0 peer "$PUB_A" remove
		wg_peer b wg0 "$PUB_A" endpoint 10.0.0.1:51820 allowed-ips 192.168.241.1/32,fd00:241::1/128
	fi
	e=$(echos)
	wait_for 20 both_grew "$e" ||
		fail "echo requests through the tunnel did not resume both ways after re-adding the peers (round $i: $e -> $(echos))"
	i=$((i + 1))
done
stop $p1
stop $p2
pass "ten rounds of peer removal under flood traffic, traffic resumed each time"

[ "$(on a wg show wg0 peers)" = "$PUB_B" ] || fail "a's peers: $(on a wg show wg0 peers)"
[ "$(on b wg show wg0 peers)" = "$PUB_A" ] || fail "b's peers: $(on b wg show wg0 peers)"
[ "$(on a wg show wg0 allowed-ips)" = "$PUB_B	192.168.241.2/32 fd00:241::2/128" ] ||
	fail "a's allowed-ips: $(on a wg show wg0 allowed-ips)"
ping_all a 3 -i 0.2 -W 3 192.168.241.2
ping_all b 3 -i 0.2 -W 3 fd00:241::1
pass "one peer each, allowed-ips intact, tunnel working"
