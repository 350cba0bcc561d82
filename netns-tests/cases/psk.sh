#!/bin/sh
# Preshared keys: with the same PSK on both sides the handshake completes
# and wg show lists it; with different PSKs b answers the initiation but a
# rejects the response, so no handshake and no data (counters show the
# attempt); setting the PSKs equal recovers; clearing them on both sides
# shows (none) and fresh peers handshake without one.
# bad-packets: a response made with another preshared key, refused by design
# timeout: 90
. "$(dirname "$0")/../lib.sh"

ns_add a
ns_add b
wg_pair a b
PSK1=$(wg genpsk)
PSK2=$(wg genpsk)
f1=$(keyfile "$PSK1")
f2=$(keyfile "$PSK2")

psk_of() { ip netns exec "$(nsname "$1")" /usr/bin/wg show wg0 preshared-keys | awk -v p="$2" '$1 == p { print $2 }'; }
# fresh_peers PSK_FILE_A PSK_FILE_B: both sides drop and re-add their peer
# (no session, no handshake rate limit) with these preshared keys.
fresh_peers() {
	on a wg set wg0 peer "$PUB_B" remove
	on b wg set wg0 peer "$PUB_A" remove
	wg_peer a wg0 "$PUB_B" preshared-key "$1" endpoint 10.0.0.2:51821 \
		allowed-ips 192.168.241.2/32,fd00:241::2/128
	wg_peer b wg0 "$PUB_A" preshared-key "$2" endpoint 10.0.0.1:51820 \
		allowed-ips 192.168.241.1/32,fd00:241::1/128
}
# refused WHY: after a's pings, the handshake failed as a PSK mismatch
# makes it fail: b got a's initiation and answered, a rejected the answer,
# neither side has a session.
refused() {
	has_handshake a wg0 "$PUB_B" && fail "a completed a handshake with $1"
	has_handshake b wg0 "$PUB_A" && fail "b completed a handshake with $1"
	set -- "$1" $(transfer b wg0 "$PUB_A")
	[ "$2" -gt 0 ] || fail "b never received a's initiation"
	set -- "$1" $(transfer a wg0 "$PUB_B")
	[ "$2" = 0 ] || fail "a accepted $2 bytes from b with $1"
}

fresh_peers "$f1" "$f1"
[ "$(psk_of a "$PUB_B")" = "$PSK1" ] || fail "a shows preshared key '$(psk_of a "$PUB_B")'"
[ "$(psk_of b "$PUB_A")" = "$PSK1" ] || fail "b shows preshared key '$(psk_of b "$PUB_A")'"
ping_all a 2 -W 5 192.168.241.2
pass "same preshared key: handshake and traffic"

fresh_peers "$f1" "$f2"
no_ping a -c 3 -i 0.5 -W 2 192.168.241.2
refused "mismatched preshared keys"
pass "mismatched preshared keys: b answers, a rejects the response, no handshake"

wg_peer b wg0 "$PUB_A" preshared-key "$f1"
wait_for 20 on a ping -c 1 -W 1 192.168.241.2 || fail "no traffic after making the preshared keys equal"
has_handshake b wg0 "$PUB_A" || fail "no handshake after making the preshared keys equal"
pass "equal preshared keys again: handshake on a's next retry"

on a wg set wg0 peer "$PUB_B" preshared-key /dev/null
on b wg set wg0 peer "$PUB_A" preshared-key /dev/null
[ "$(psk_of a "$PUB_B")" = "(none)" ] || fail "a's cleared preshared key shows as '$(psk_of a "$PUB_B")'"
[ "$(psk_of b "$PUB_A")" = "(none)" ] || fail "b's cleared preshared key shows as '$(psk_of b "$PUB_A")'"
fresh_peers /dev/null /dev/null
ping_all a 2 -W 5 192.168.241.2
pass "preshared keys cleared: (none) shown, handshake without one"

fresh_peers /dev/null "$f1"
no_ping a -c 2 -i 0.5 -W 2 192.168.241.2
refused "a preshared key on b's side only"
pass "a preshared key on one side only: b answers, a rejects the response, no handshake"
