#!/bin/sh
# Configuration through netlink, as wg show reads it back: keys are stored
# and cleared; a private key is clamped; taking the private key of a
# configured peer removes that peer, and a peer with our own public key is
# refused; allowed-ips are masked to their prefix and may nest; listen-port
# 0 picks a port; keepalive and fwmark show; showconf/setconf round-trips;
# a missing interface is an error.
# timeout: 60
. "$(dirname "$0")/../lib.sh"

ns_add a
ip -n "$(nsname a)" link add wg0 type wireguard
show() { ip netns exec "$(nsname a)" /usr/bin/wg show wg0 "$@"; }
expect() { [ "$1" = "$2" ] || fail "$3: '$1', expected '$2'"; }

keypair
KEY1=$PRIV PUB1=$PUB
keypair
KEY2=$PRIV PUB2=$PUB
PSK=$(wg genpsk)
expect "$(show private-key)" "(none)" "private key of a new interface"
on a wg set wg0 private-key "$(keyfile "$KEY1")" peer "$PUB2" preshared-key "$(keyfile "$PSK")"
expect "$(show private-key)" "$KEY1" "private key"
expect "$(show public-key)" "$PUB1" "public key"
expect "$(show preshared-keys)" "$PUB2	$PSK" "preshared key"
on a wg set wg0 private-key /dev/null peer "$PUB2" preshared-key /dev/null
expect "$(show private-key)" "(none)" "cleared private key"
expect "$(show preshared-keys)" "$PUB2	(none)" "cleared preshared key"
pass "keys stored and cleared"

on a wg set wg0 private-key "$(keyfile "$KEY2")"
expect "$(show public-key)" "$PUB2" "public key after taking peer 2's private key"
expect "$(show peers)" "" "peers after taking peer 2's private key"
on a wg set wg0 peer "$PUB2"
expect "$(show peers)" "" "peers after adding our own public key"
on a wg set wg0 private-key "$(keyfile "$KEY1")" peer "$PUB2"
expect "$(show peers)" "$PUB2" "peers"
pass "a peer with our own public key is removed and refused"

# Clamping clears the low 3 bits of the first byte; the first base64
# character carries its top 6: '/' (63) becomes '+' (62).
on a wg set wg0 private-key "$(keyfile "/${KEY1#?}")"
expect "$(show private-key)" "+${KEY1#?}" "clamped private key"
pass "private keys are clamped"

on a wg set wg0 peer "$PUB2" allowed-ips 10.1.2.3/8,192.168.77.77/24,fd00:1:2:3::4/48,0.0.0.0/0
expect "$(show allowed-ips)" "$PUB2	10.0.0.0/8 192.168.77.0/24 fd00:1:2::/48 0.0.0.0/0" "masked allowed-ips"
on a wg set wg0 peer "$PUB2" allowed-ips 0.0.0.0/0,10.0.0.0/8,100.0.0.0/10,172.16.0.0/12,::/0,1700::/111,5000::/4,e000::/37,9000::/75
n=$(show allowed-ips | awk '{ print NF - 1 }')
expect "$n" 9 "number of nested allowed-ips"
on a wg set wg0 peer "$PUB2" allowed-ips ""
expect "$(show allowed-ips)" "$PUB2	(none)" "emptied allowed-ips"
pass "allowed-ips masked to their prefix, nested, emptied"

on a wg set wg0 listen-port 0 fwmark 0x1234 peer "$PUB2" persistent-keepalive 17 endpoint "[fd00::9]:4242"
ip -n "$(nsname a)" link set wg0 up
port=$(show listen-port)
[ "$port" -gt 0 ] || fail "listen-port 0 left the port at '$port'"
udp_listening a "$port" || fail "nothing listens on the chosen port $port"
expect "$(show fwmark)" 0x1234 "fwmark"
expect "$(show persistent-keepalive)" "$PUB2	17" "persistent keepalive"
expect "$(show endpoints)" "$PUB2	[fd00::9]:4242" "endpoint"
pass "listen-port 0 picks port $port; fwmark, keepalive and endpoint shown"

on a wg showconf wg0 > /tmp/$ns_prefix.conf
ip -n "$(nsname a)" link add wg1 type wireguard
on a wg setconf wg1 /tmp/$ns_prefix.conf
expect "$(on a wg showconf wg1)" "$(cat /tmp/$ns_prefix.conf)" "wg1's configuration"
on a wg set wg0 peer "$PUB2" remove
expect "$(show peers)" "" "peers after removal"
pass "showconf/setconf round-trips; peers removed"

on a wg show doesnotexist > /dev/null 2>&1 && fail "wg show of a missing interface succeeded"
pass "a missing interface is an error"
