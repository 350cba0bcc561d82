#!/bin/sh
# Upstream netns.sh's cross-namespace routing loop, with its bound: ten
# flood pings into the loop, and wg1 must have sent less than 70000 bytes
# a second after the last.  On 6.1 it does not: a KTAP known failure
# (# TODO) with the bytes it sent, and a pass on a kernel that stops it.
#
# a's and b's wg0 were created in r and moved (their sockets talk over r's
# loopback, 127.0.0.1:1-2); wg1 in a and b is a tunnel over wg0 (outer
# fd00::5:1-2).  Once a's wg1 moves to r (its socket stays in a), a ping
# from r to 192.168.241.2 goes wg1 -> a's wg0 -> b.  Then a's wg0 points
# its peer at 192.168.241.2:7 and b's devices go: a packet for b leaves
# r's wg1 for fd00::5:2 in a, a's wg0 sends it to 192.168.241.2 from r,
# where the route is wg1 again, and so on.  No device sends into itself,
# so the same-device check of WireGuard's socket code never fires.
# timeout: 90
. "$(dirname "$0")/../lib.sh"

ns_add r
ns_add a
ns_add b
R=$(nsname r) A=$(nsname a) B=$(nsname b)
for k in 1 2 3 4; do
	keypair
	eval "KEY$k=\$PRIV PUB$k=\$PUB"
done

# wg0 of a and b: made in r, so their sockets stay there.
ip -n "$R" link add wga type wireguard
ip -n "$R" link add wgb type wireguard
ip -n "$R" link set wga netns "$A" name wg0
ip -n "$R" link set wgb netns "$B" name wg0
on a wg set wg0 private-key "$(keyfile "$KEY1")" listen-port 1
on b wg set wg0 private-key "$(keyfile "$KEY2")" listen-port 2
wg_peer a wg0 "$PUB2" allowed-ips fd00::5:2/128 endpoint 127.0.0.1:2
wg_peer b wg0 "$PUB1" allowed-ips fd00::5:1/128 endpoint 127.0.0.1:1
ip -n "$A" addr add fd00::5:1/112 dev wg0 nodad
ip -n "$B" addr add fd00::5:2/112 dev wg0 nodad
ip -n "$A" link set wg0 up
ip -n "$B" link set wg0 up

# wg1: a tunnel inside wg0.
wg_dev a wg1 5 "$KEY3"
wg_dev b wg1 5 "$KEY4"
wg_peer a wg1 "$PUB4" allowed-ips 192.168.241.2/32 endpoint "[fd00::5:2]:5"
wg_peer b wg1 "$PUB3" allowed-ips 192.168.241.1/32 endpoint "[fd00::5:1]:5"
ip -n "$A" addr add 192.168.241.1/24 dev wg1
ip -n "$B" addr add 192.168.241.2/24 dev wg1
ip -n "$A" link set wg1 mtu 1340 up
ip -n "$B" link set wg1 mtu 1340 up
ping_all a 1 -W 5 192.168.241.2
pass "wg1 runs inside wg0"

ip -n "$A" link set wg1 netns "$R"
ip -n "$R" addr add 192.168.241.1/24 dev wg1
ip -n "$R" link set wg1 up
ping_all r 1 -W 5 192.168.241.2
pass "a's wg1, moved to r, still reaches b through a's wg0"

wg_peer a wg0 "$PUB2" endpoint 192.168.241.2:7
ip -n "$B" link del wg0
ip -n "$B" link del wg1
wg1_tx() { on r wg show wg1 transfer | awk '{ print $3 }'; }
tx0=$(wg1_tx) a0=$(dev_stat a wg0 tx_bytes)
no_ping r -W 1 -c 10 -f 192.168.241.2
sleep 1
tx1=$(wg1_tx) a1=$(dev_stat a wg0 tx_bytes)
echo "wg1 in r sent $((tx1 - tx0)) bytes, wg0 in a $((a1 - a0)) bytes"
# The bound proves nothing unless the packets went round at least once:
# out of r's wg1 and through a's wg0.
[ $((tx1 - tx0)) -gt 0 ] && [ $((a1 - a0)) -gt 0 ] ||
	fail "the pings never went round the loop (wg1 sent $((tx1 - tx0)) bytes, a's wg0 $((a1 - a0)))"
# Break the loop before judging it, so a failure does not leave it running.
on a wg set wg0 peer "$PUB2" remove
# 6.1 has nothing that stops such a loop (upstream's netns.sh prints "This
# architecture does not do the right thing with cross-namespace routing
# loops" and carries on); a kernel that gets it right passes.
[ $((tx1 - tx0)) -lt 70000 ] ||
	known_fail "the cross-namespace routing loop ran on, as in every kernel so far: wg1 sent $((tx1 - tx0)) bytes for 10 pings (upstream's bound: under 70000)"
pass "the routing loop stopped within upstream's bound"
