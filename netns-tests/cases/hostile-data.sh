#!/bin/sh
# Replayed and tampered data packets, injected by a man in the middle
# (wgmitm) from the relay's address and from its own: captured 1000-byte
# pings replayed as they are, with a bit flipped in the receiver index, the
# counter, the ciphertext or the tag, truncated below the minimum or into
# the ciphertext, or with bytes appended.  The sockets take them in, but no
# byte is accounted, no endpoint moves, nothing answers the attacker, and
# the tunnel keeps working.
# bad-packets: replayed and tampered data messages, injected
# timeout: 120
. "$(dirname "$0")/../lib.sh"

ns_add a
ns_add m
ns_add b
mitm_pair a m b
ping_all a 3 -i 0.2 -W 5 -s 1000 192.168.241.2

len_a2b=$(mitm_stat last.a2b.4)
len_b2a=$(mitm_stat last.b2a.4)
echo "captured data packets: a -> b $len_a2b bytes, b -> a $len_b2a bytes"
[ "$len_a2b" -gt 1000 ] && [ "$len_b2a" -gt 1000 ] || fail "the relay captured no 1000-byte data packets"

state() {
	echo "$(endpoint a wg0 "$PUB_B") $(endpoint b wg0 "$PUB_A") $(mitm_stat atk.a) $(mitm_stat atk.b)"
}
rx() { transfer "$1" wg0 "$2" | awk '{ print $1 }'; }
before=$(state)
rx_a=$(rx a "$PUB_B")
rx_b=$(rx b "$PUB_A")
in_a=$(udp_in a)
in_b=$(udp_in b)

# Data: type 4, receiver 4 @4, counter 8 @8, ciphertext @16, tag: last 16.
for x in "a2b $len_a2b" "b2a $len_b2a"; do
	set -- $x
	for from in relay atk; do
		mitm inject $1 4 $from asis 0 5
	done
	for byte in 5 9 20 $(($2 - 1)); do
		mitm inject $1 4 relay flip $byte 5
	done
	mitm inject $1 4 relay trunc 31 5
	mitm inject $1 4 relay trunc 48 5
	mitm inject $1 4 relay grow 16 5
done
wait_for 20 udp_in_grew b "$in_b" 45 || fail "b's sockets took in only $(($(udp_in b) - in_b)) of 45 forged packets"
wait_for 20 udp_in_grew a "$in_a" 45 || fail "a's sockets took in only $(($(udp_in a) - in_a)) of 45 forged packets"
quiet_period 2

after=$(state)
da=$(($(rx a "$PUB_B") - rx_a))
db=$(($(rx b "$PUB_A") - rx_b))
echo "accounted meanwhile: a $da bytes, b $db bytes; endpoints, atk.a atk.b: $before -> $after"
[ "$db" -lt "$len_a2b" ] || fail "b accounted $db bytes: replayed or tampered data was accepted"
[ "$da" -lt "$len_b2a" ] || fail "a accounted $da bytes: replayed or tampered data was accepted"
[ "$after" = "$before" ] || fail "forged data changed endpoints or drew answers: $before -> $after"
pass "90 replayed or tampered data packets: none accepted, none answered"

ping_all a 3 -i 0.2 -W 3 -s 1000 192.168.241.2
ping_all b 3 -i 0.2 -W 3 fd00:241::1
pass "the tunnel still works"
