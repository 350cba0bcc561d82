#!/bin/sh
# The harness's own peer (b) initiates; a's WireGuard responds.  From the
# wire: the response is 92 bytes with zero reserved bytes, answers the
# peer's sender index, carries a valid mac1 (made with the peer's public
# key) and completes Noise_IKpsk2 as wgpeer computes it; then an echo
# through the tunnel is answered in a transport message that decrypts
# with the derived keys, its counter new, its plaintext padded with zeros
# to a multiple of 16 (wgpeer checks each).  a's wg show agrees: a
# handshake with b, and b's echo received.
# timeout: 120
. "$(dirname "$0")/../lib.sh"

peer_pair a b
wgpeer init response,wait=15 ping,wait=15 ping,wait=15 || fail "the peer's handshake or echo failed"
[ "$(tr_count recv 2 92)" = 1 ] || fail "the transcript has $(tr_count recv 2 92) responses of 92 bytes, expected 1"
[ "$(tr_count recv 4 80)" -ge 2 ] || fail "the transcript has $(tr_count recv 4 80) transport messages of 80 bytes (a 44-byte echo reply padded to 48), expected 2"
has_handshake a "$(wg_if a wg0)" "$PUB_B" || fail "a's wg show has no handshake with the peer"
rx=$(on a wg show "$(wg_if a wg0)" transfer | awk -v p="$PUB_B" '$1 == p { print $2 }')
[ "${rx:-0}" -ge 128 ] || fail "a's wg show counts ${rx:-0} bytes received from the peer, less than its two echoes"
pass "the peer's handshake answered, two echoes through it, a received $rx bytes"
