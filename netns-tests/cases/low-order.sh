#!/bin/sh
# Low-order Curve25519 public keys: peers whose public key is one of the
# seven small-order points (0, 1, the two points of order 8, p-1, p, p+1)
# are accepted in the configuration but never get a handshake initiation,
# even with a persistent keepalive asking for one; a peer with a real key,
# same settings, does get one (148 bytes, to its own port).
# timeout: 60
. "$(dirname "$0")/../lib.sh"

ns_add a
keypair
wg_dev a wg0 51820 "$PRIV"

for hex in \
	0000000000000000000000000000000000000000000000000000000000000000 \
	0100000000000000000000000000000000000000000000000000000000000000 \
	e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800 \
	5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157 \
	ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f \
	edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f \
	eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f; do
	key=$(echo "$hex" | xxd -r -p | base64)
	wg_peer a wg0 "$key" persistent-keepalive 1 endpoint 127.0.0.1:1111
done
keypair
wg_peer a wg0 "$PUB" persistent-keepalive 1 endpoint 127.0.0.1:2222
n=$(on a wg show wg0 peers | wc -l)
[ "$n" = 8 ] || fail "wg show lists $n peers, expected 8"

# Both sinks listen before wg0 comes up.  A persistent keepalive sends an
# initiation at once (WireGuard's tx counter shows its 148 bytes), and
# every keepalive interval (1 s) after: the sinks stop 3 s after the real
# peer's first initiation, which gave the low-order peers that long to
# get one too.  Their own limit is only a backstop: a slow (debug) kernel
# may take long to get there, and a fixed window scaled for it outlasted
# the case's timeout.
bg a /usr/bin/wgmitm sink 127.0.0.1:2222 600 > /tmp/$ns_prefix.sink2
s2=$BG_PID
bg a /usr/bin/wgmitm sink 127.0.0.1:1111 600 > /tmp/$ns_prefix.sink1
s1=$BG_PID
wait_for 10 udp_listening a 2222 || fail "sink on 2222 did not start"
wait_for 10 udp_listening a 1111 || fail "sink on 1111 did not start"
ip -n "$(nsname a)" link set wg0 up
real_initiated() {
	on a wg show wg0 transfer |
		awk -v k="$PUB" '$1 == k && $3 >= 148 { f = 1 } END { exit !f }'
}
wait_for 20 real_initiated || fail "no handshake initiation sent to the real peer"
quiet_period 3
kill -TERM $s1 $s2 2> /dev/null || true
wait $s1 || fail "sink on 1111 failed"
wait $s2 || fail "sink on 2222 failed"
low=$(cat /tmp/$ns_prefix.sink1)
real=$(cat /tmp/$ns_prefix.sink2)
echo "low-order peers' port: $low; real peer's port: $real"

set -- $real
[ "$2" -ge 1 ] && [ $(($4 % 148)) = 0 ] || fail "the real peer's port got '$real', expected initiations of 148 bytes"
pass "a peer with a real key gets handshake initiations"
[ "$low" = "packets 0 bytes 0" ] || fail "low-order peers' port got $low"
on a wg show wg0 transfer | while read -r key rx tx; do
	[ "$key" = "$PUB" ] || [ "$tx" = 0 ] || fail "$tx bytes sent to low-order peer $key"
done
pass "no packet at all for the seven low-order public keys"
