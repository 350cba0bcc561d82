#!/bin/sh
# A routing loop must not hang the kernel.  First a legitimate nesting:
# a's wg0 gets a peer c (wg1 in b) whose endpoint is reached through wg0
# itself.  Then b's wg1 goes and c's endpoint is pointed at c's own inner
# address: each packet for c is encrypted, routed back into wg0 and
# encrypted again (6.1 has no check for an outer route that leads back into
# the device; upstream's netns.sh only asks that it not crash).  Pings to c
# fail, wg0's counters show the loop really ran, a stays responsive, and
# once peer c is removed the loop stops (wg0 goes quiet) and b is reached
# as before.
# timeout: 90
. "$(dirname "$0")/../lib.sh"

ns_add a
ns_add b
wg_pair a b
ping_all a 1 -W 5 192.168.241.2

keypair
KEY_C=$PRIV PUB_C=$PUB
wg_dev b wg1 5555 "$KEY_C"
wg_peer b wg1 "$PUB_A" allowed-ips 192.168.242.1/32
ip -n "$(nsname b)" addr add 192.168.242.2/24 dev wg1
ip -n "$(nsname b)" link set wg1 up
wg_peer a wg0 "$PUB_C" endpoint 192.168.241.2:5555 allowed-ips 192.168.242.2/32
ip -n "$(nsname a)" addr add 192.168.242.1/24 dev wg0
ping_all a 2 -W 5 192.168.242.2
pass "wg0 carries its own peer c's traffic to wg1 in b"

ip -n "$(nsname b)" link del wg1
wg_peer a wg0 "$PUB_C" endpoint 192.168.242.2:5555
tx0=$(dev_stat a wg0 tx_bytes)
no_ping a -c 3 -i 0.3 -W 1 192.168.242.2
tx1=$(dev_stat a wg0 tx_bytes)
# Three pings encrypted once each would be under 500 bytes; a loop
# encrypts each packet again and again (tens of MB under TCG).  Less than
# 10 KB means no loop was set up, and the checks below would prove nothing.
echo "wg0 sent $((tx1 - tx0)) bytes while looping"
[ $((tx1 - tx0)) -ge 10000 ] ||
	fail "wg0 sent only $((tx1 - tx0)) bytes for 3 pings to c: the routing loop never formed"
timeout 10 /usr/bin/ip netns exec "$(nsname a)" /usr/bin/wg show wg0 > /dev/null ||
	fail "wg show did not answer within 10 s during the loop"
pass "the looping pings fail and a stays responsive"

on a wg set wg0 peer "$PUB_C" remove
# wg0 must go quiet: a second without a byte sent, within 20 tries (a
# keepalive to b may interrupt one).
tries=0
while :; do
	t0=$(dev_stat a wg0 tx_bytes)
	sleep 1
	[ "$(dev_stat a wg0 tx_bytes)" != "$t0" ] || break
	tries=$((tries + 1))
	[ $tries -lt 20 ] || fail "wg0 kept sending after the looping peer was removed"
done
ping_all a 3 -i 0.2 -W 3 192.168.241.2
ping_all b 3 -i 0.2 -W 3 192.168.241.1
pass "peer c removed: the loop stops and b is reached"
