#!/bin/sh
# Replay (the whitepaper, 5.1; noise.c): a responder answers an
# initiation only if its TAI64N timestamp is newer than the last one it
# accepted from that peer.  The peer's initiation is answered; the same
# initiation's timestamp again, with a new ephemeral, gets no response,
# nor does one a second older; a newer one, the control, is answered.
# Half a second passes before the replay: a responder also drops a
# peer's initiation within 20 ms of the last it took (INITIATIONS_PER_SECOND),
# which must not be what refuses it.
# bad-packets: the replayed initiations, refused by design
# timeout: 120
. "$(dirname "$0")/../lib.sh"

w=$((15 * ${wgt_timeout_scale:-1}))
q=$((3 * ${wgt_timeout_scale:-1}))
peer_pair a b
wgpeer init response,wait=$w sleep,0.5 init,ts=same none,wait=$q init,ts=older none,wait=$q \
	init response,wait=$w > /tmp/$ns_prefix.steps 2>&1 || { cat /tmp/$ns_prefix.steps; fail "$(grep '^FAIL' /tmp/$ns_prefix.steps)"; }
cat /tmp/$ns_prefix.steps
[ "$(tr_count send 1 148)" = 4 ] || fail "the peer sent $(tr_count send 1 148) initiations, expected 4"
[ "$(tr_count recv 2 92)" = 2 ] || fail "the peer got $(tr_count recv 2 92) responses, expected 2"
pass "the same and an older timestamp got no response; a newer one did"
