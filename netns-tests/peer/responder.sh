#!/bin/sh
# a's WireGuard initiates (a ping to the peer's tunnel address); the
# harness's own peer (b) responds.  From the wire: a's initiation is 148
# bytes with zero reserved bytes, its mac1 valid, its static key a's, its
# timestamp decrypts; the peer's response completes the handshake, a's
# queued echo arrives in a transport message that decrypts with the
# derived keys, padded with zeros to a multiple of 16, and the peer's
# answer reaches a's ping.
# timeout: 120
. "$(dirname "$0")/../lib.sh"

peer_pair a b
wgpeer_bg await-init,wait=30 respond serve,wait=30
peer=$BG_PID
wait_for 10 udp_listening b 51821 || fail "the peer does not listen"
trap 'cat /tmp/$ns_prefix.peer.out; cleanup' EXIT
ping_all a 1 -W 20 192.168.241.2
wait $peer || fail "$(grep '^FAIL' /tmp/$ns_prefix.peer.out)"
[ "$(tr_count recv 1 148)" -ge 1 ] || fail "no 148-byte initiation in the transcript"
[ "$(tr_count send 2 92)" = 1 ] || fail "the peer sent $(tr_count send 2 92) responses"
has_handshake a "$(wg_if a wg0)" "$PUB_B" || fail "a's wg show has no handshake with the peer"
pass "a's initiation valid, the peer's response accepted, a's echo answered"
