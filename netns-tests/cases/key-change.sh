#!/bin/sh
# Private key changes.  a takes a new private key and b swaps a's old
# public key for the new one: a's very next ping handshakes at once (well
# before any rekey timer).  Then b changes its key without telling a: a's
# packets still arrive but b cannot answer, until a learns the new key.
# bad-packets: b's initiations with a key a does not know yet are refused by design
# timeout: 60
. "$(dirname "$0")/../lib.sh"

ns_add a
ns_add b
wg_pair a b
ping_all a 1 -W 5 192.168.241.2

keypair
KEY_C=$PRIV PUB_C=$PUB
on a wg set wg0 private-key "$(keyfile "$KEY_C")"
[ "$(on a wg show wg0 public-key)" = "$PUB_C" ] || fail "a's public key did not change"
wg_peer b wg0 "$PUB_C" allowed-ips 192.168.241.1/32,fd00:241::1/128 peer "$PUB_A" remove
ping_all a 1 -W 4 192.168.241.2
has_handshake b wg0 "$PUB_C" || fail "b has no handshake with a's new key"
ping_all b 2 -W 2 fd00:241::1
pass "a's new private key handshakes at once"

keypair
KEY_D=$PRIV PUB_D=$PUB
on b wg set wg0 private-key "$(keyfile "$KEY_D")"
u0=$(udp_in b)
no_ping a -c 2 -W 2 192.168.241.2
# The packets did reach b, which could not answer them.
[ "$(udp_in b)" -ge $((u0 + 2)) ] || fail "a's packets never reached b ($u0 -> $(udp_in b) datagrams)"
pass "b's key changed behind a's back: a's packets arrive, no replies"

wg_peer a wg0 "$PUB_D" endpoint 10.0.0.2:51821 allowed-ips 192.168.241.2/32,fd00:241::2/128 \
	peer "$PUB_B" remove
ping_all a 1 -W 4 192.168.241.2
ping_all b 2 -W 2 fd00:241::1
has_handshake a wg0 "$PUB_D" || fail "a has no handshake with b's new key"
pass "once a knows b's new key the tunnel is back"
