#!/bin/sh
# REJECT_AFTER_TIME - KEEPALIVE_TIMEOUT - REKEY_TIMEOUT (receive.c,
# keep_key_fresh): an initiator that only receives starts a new handshake
# once what it receives comes on a keypair 165 s old, so that the session
# is renewed before the responder must stop sending on it (180 s).  a
# starts the session and then sends nothing (its one passive keepalive
# aside); b sends a keepalive every 5 s (persistent-keepalive: keepalives
# ask for no answer).  Timed on the wire.
# timeout: 400
. "$(dirname "$0")/../lib.sh"

timers_pair

ping_all a 1 -W 5 192.168.241.2
t_hs=$(tl_times "$tl" b2a 2 | sed -n 1p)
[ -n "$t_hs" ] || { tl_show "$tl"; fail "no handshake response from b"; }
wg_peer b wg0 "$PUB_A" persistent-keepalive 5
# Until a's new initiation, 200 s at most.
wait_for 200 tl_seen 1 "$tl" a2b 1 0 65535 "$t_hs" ||
	{ tl_show "$tl" "$t_hs"; fail "a started no new handshake in 200 s of receiving on its keypair"; }
wait_for 10 tl_seen 1 "$tl" b2a 2 0 65535 "$(tl_times "$tl" a2b 1 0 65535 "$t_hs" | sed -n 1p)" ||
	{ tl_show "$tl" "$t_hs"; fail "b did not answer a's new initiation"; }
t_re=$(tl_times "$tl" a2b 1 0 65535 "$t_hs" | sed -n 1p)
echo "session from $t_hs s, a's new initiation at $t_re s"
# It came with the first keepalive a received at 165 s or later.
t_trig=$(awk -v t="$t_hs" '$2 == "b2a" && $3 == 4 && $1 >= t + 165 { print $1; exit }' "$tl")
awk -v a="$t_hs" -v b="$t_re" 'BEGIN { exit !(b - a >= 165 - 0.001) }' ||
	{ tl_show "$tl" "$t_hs"; fail "a started a new handshake $t_hs -> $t_re s, before its keypair was 165 s old"; }
[ -n "$t_trig" ] && awk -v a="$t_trig" -v b="$t_re" 'BEGIN { exit !(b >= a && b - a <= 0.5) }' ||
	{ tl_show "$tl" "$t_hs"; fail "a's new initiation ($t_re s) did not follow the first packet it received at 165 s or later (${t_trig:-none})"; }
# What makes it the receive path's rule: a sent nothing after its passive
# keepalive (10 s in), so the send path's 120 s never applied.
sent=$(awk -v t="$t_hs" -v e="$t_re" '$2 == "a2b" && $1 > t + 15 && $1 < e' "$tl" | wc -l)
[ "$sent" = 0 ] || { tl_show "$tl" "$t_hs"; fail "a sent $sent messages between 15 s and its new initiation: not the receive path's rekey"; }
pass "the initiator rekeys with the first packet it receives at 165 s (after $(awk -v a="$t_hs" -v b="$t_re" 'BEGIN { printf "%.2f", b - a }') s)"
[ "$(tl_count "$tl" b2a 1)" = 0 ] || { tl_show "$tl" "$t_hs"; fail "b, the responder, sent $(tl_count "$tl" b2a 1) handshake initiations"; }
[ "$(tl_count "$tl" b2a 4 32 32 "$(awk -v t="$t_hs" 'BEGIN { print t + 120 }')" "$t_re")" -ge 1 ] ||
	{ tl_show "$tl" "$t_hs"; fail "b sent no keepalive at 120 s or later on the first session: the check above would prove nothing"; }
pass "the responder, sending keepalives on the same keypair, started no handshake"
