#!/bin/sh
# Forged and replayed handshake messages, injected by a man in the middle
# (wgmitm) from its own address and from the relay's.  First a control: a
# fresh initiation held back from b and then sent from the attacker's
# address is answered there (so silence below means something).  Then, on
# the established tunnel: replayed initiations, initiations one byte short,
# one byte and 1000 bytes long, with a bit flipped in the ephemeral key,
# the encrypted static key, the timestamp or mac1; replayed and bit-flipped
# responses to a.  None is answered, no handshake or endpoint changes, and
# the tunnel keeps working.
# bad-packets: forged and replayed handshake messages, injected
# timeout: 120
. "$(dirname "$0")/../lib.sh"

ns_add a
ns_add m
ns_add b
mitm_pair a m b

mitm hold a2b on
no_ping a -c 1 -W 2 192.168.241.2
held_init() { [ "$(mitm_stat held.a2b)" -ge 1 ]; }
wait_for 10 held_init || fail "the relay held no initiation from a"
# a keeps retrying while held; hold stays on through the control, or a
# retry forwarded meanwhile would move b's endpoint back before it is seen.
mitm inject a2b 1 atk asis 0 1
atk_answered() { [ "$(mitm_stat atk.b.2)" -ge 1 ]; }
wait_for 10 atk_answered || fail "b did not answer a fresh initiation sent from the attacker's address"
wait_for 10 endpoint_is b wg0 "$PUB_A" 10.0.2.254:5001 || fail "b's endpoint did not follow the fresh initiation"
pass "control: a fresh initiation from the attacker's address is answered there"
mitm hold a2b off

# a retries its handshake through the relay, which puts things right.
wait_for 30 on a ping -c 1 -W 1 192.168.241.2 || fail "the tunnel did not come up through the relay"
wait_for 10 endpoint_is b wg0 "$PUB_A" 10.0.2.254:5000 || fail "b's endpoint for a is $(endpoint b wg0 "$PUB_A")"
ping_all b 2 -W 3 192.168.241.1
handshake_at_rest 30 handshake_state || fail "the handshake never came to rest (readings above)"

# Strict: endpoints and answers to the attacker.  Handshake times may move
# only with a genuine re-handshake (a tunnel at rest can re-key on its own,
# see netns-tests/README.md), which the relay sees as initiations and
# responses it forwarded; a response beyond the genuine initiations
# answered a forged one.
state() {
	echo "$(endpoint a wg0 "$PUB_B") $(endpoint b wg0 "$PUB_A") $(mitm_stat atk.a) $(mitm_stat atk.b)"
}
before=$(state)
hstate0=$AT_REST
in_a=$(udp_in a)
in_b=$(udp_in b)

# Initiation: type 4, sender 4, ephemeral 32 @8, static 48 @40,
# timestamp 28 @88, mac1 16 @116, mac2 16 @132: 148 bytes.
for from in atk relay; do
	mitm inject a2b 1 $from asis 0 3
	mitm inject a2b 1 $from trunc 147 3
	mitm inject a2b 1 $from grow 1 3
	mitm inject a2b 1 $from grow 1000 3
	for byte in 8 40 100 120; do
		mitm inject a2b 1 $from flip $byte 3
	done
done
# Response: type 4, sender 4, receiver 4, ephemeral 32 @12, empty 16 @44,
# mac1 16 @60, mac2 16 @76: 92 bytes.
for from in atk relay; do
	mitm inject b2a 2 $from asis 0 3
	mitm inject b2a 2 $from trunc 91 3
	for byte in 12 44 64; do
		mitm inject b2a 2 $from flip $byte 3
	done
done
wait_for 20 udp_in_grew b "$in_b" 48 || fail "b's sockets took in only $(($(udp_in b) - in_b)) of 48 forged messages"
wait_for 20 udp_in_grew a "$in_a" 30 || fail "a's sockets took in only $(($(udp_in a) - in_a)) of 30 forged messages"
quiet_period 2
after=$(state)
hstate1=$(handshake_state)
echo "endpoints, atk.a atk.b: $before -> $after"
echo "handshakes a b, relay's genuine init a2b, resp b2a, init b2a, resp a2b: $hstate0 -> $hstate1"
[ "$after" = "$before" ] || fail "forged handshake messages moved an endpoint or drew an answer: $before -> $after"
genuine_rehandshake "$hstate0" "$hstate1" || fail "forged handshake messages were answered or changed a handshake"
pass "78 forged handshake messages: no answer, no new handshake, no endpoint change"

ping_all a 3 -i 0.2 -W 3 192.168.241.2
ping_all b 3 -i 0.2 -W 3 fd00:241::1
pass "the tunnel still works"
