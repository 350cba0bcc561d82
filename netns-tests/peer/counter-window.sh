#!/bin/sh
# Transport counters (the whitepaper, 5.4.6; receive.c's replay window of
# 8192 bits less one word): after a handshake the peer sends echoes with
# chosen counters.  10000 (a jump ahead) is answered; 1000, never used
# but behind the window, is not; 10000 again, a replay, is not; 9000,
# never used and inside the window, the control, is answered.
# bad-packets: transport messages behind the window and replayed, refused by design
# timeout: 120
. "$(dirname "$0")/../lib.sh"

w=$((15 * ${wgt_timeout_scale:-1}))
q=$((2 * ${wgt_timeout_scale:-1}))
peer_pair a b
wgpeer init response,wait=$w ping,counter=10000,wait=$w ping,counter=1000,expect=none,wait=$q \
	ping,counter=10000,expect=none,wait=$q ping,counter=9000,wait=$w > /tmp/$ns_prefix.steps 2>&1 ||
	{ cat /tmp/$ns_prefix.steps; fail "$(grep '^FAIL' /tmp/$ns_prefix.steps)"; }
cat /tmp/$ns_prefix.steps
pass "counters: ahead taken, behind the window and replayed dropped, inside it taken"
