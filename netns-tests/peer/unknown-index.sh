#!/bin/sh
# A response to an index nobody sent is ignored (the whitepaper, 5.4.3;
# receive.c looks the receiver index up among the handshakes in flight).
# a initiates (a ping to the peer); the peer answers a's initiation with
# a response that is valid in every byte but its receiver index, one a
# never sent: a must not take it, so its queued echo does not come (2 s,
# within a's 5 s retry).  The control: the same handshake answered with
# the right index is taken, the echo arrives and is answered.
# bad-packets: the response to an index nobody sent, refused by design
# timeout: 120
. "$(dirname "$0")/../lib.sh"

w=$((30 * ${wgt_timeout_scale:-1}))
peer_pair a b
wgpeer_bg await-init,wait=$w respond,receiver=flip quiet,wait=2 respond serve,wait=$w
peer=$BG_PID
wait_for 10 udp_listening b 51821 || fail "the peer does not listen"
trap 'cat /tmp/$ns_prefix.peer.out; cleanup' EXIT
ping_all a 1 -W 30 192.168.241.2
wait $peer || fail "$(grep '^FAIL' /tmp/$ns_prefix.peer.out)"
[ "$(tr_count send 2 92)" = 2 ] || fail "the peer sent $(tr_count send 2 92) responses, expected 2"
pass "a response to an index nobody sent was ignored; the right one was taken"
