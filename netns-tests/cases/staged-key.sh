#!/bin/sh
# Packets staged before the interface has a private key are sent once it
# gets one (upstream "wireguard: netlink: send staged packets when setting
# initial private key", present in Debian's 6.1.192): a's wg0 is up with b
# as its peer but no key, a ping to b is staged and nothing leaves a;
# setting a's key starts the handshake and the staged echo request reaches
# b, so that very ping is answered.
# timeout: 60
. "$(dirname "$0")/../lib.sh"

ns_add a
ns_add b
veth_pair a b
ip -n "$(nsname a)" addr add 10.0.0.1/24 dev veth-a
ip -n "$(nsname b)" addr add 10.0.0.2/24 dev veth-b
keypair
KEY_A=$PRIV PUB_A=$PUB
keypair
KEY_B=$PRIV PUB_B=$PUB
ip -n "$(nsname a)" link add wg0 type wireguard
on a wg set wg0 listen-port 51820 peer "$PUB_B" endpoint 10.0.0.2:51821 allowed-ips 192.168.241.2/32
wg_dev b wg0 51821 "$KEY_B"
wg_peer b wg0 "$PUB_A" allowed-ips 192.168.241.1/32
ip -n "$(nsname a)" addr add 192.168.241.1/24 dev wg0
ip -n "$(nsname b)" addr add 192.168.241.2/24 dev wg0
ip -n "$(nsname a)" link set wg0 up
ip -n "$(nsname b)" link set wg0 up

echos0=$(snmp b Icmp InEchos)
bg a /usr/bin/ping -c 1 -W 30 192.168.241.2
pinger=$BG_PID
quiet_period 2
[ "$(transfer a wg0 "$PUB_B")" = "0 0" ] || fail "a sent something without a private key: $(transfer a wg0 "$PUB_B")"
kill -0 $pinger 2> /dev/null || fail "the ping ended before a had a key"
pass "without a private key the ping is staged and nothing is sent"

on a wg set wg0 private-key "$(keyfile "$KEY_A")"
rc=0
wait $pinger || rc=$?
bg_pids=
[ $rc = 0 ] || fail "the staged ping was not answered once a had its key (ping exit $rc; b's echo requests +$(($(snmp b Icmp InEchos) - echos0)))"
[ $(($(snmp b Icmp InEchos) - echos0)) = 1 ] || fail "b got $(($(snmp b Icmp InEchos) - echos0)) echo requests, expected the one staged"
pass "setting the key sent the staged echo request, and it was answered"
