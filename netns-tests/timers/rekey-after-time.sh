#!/bin/sh
# REKEY_AFTER_TIME (send.c, keep_key_fresh): the initiator of a session
# starts a new handshake with the first packet it sends on a keypair 120 s
# old or older; the responder, sending on its side of the same session as
# long, never does.  b pings a every 5 s (both send), a having started the
# session.  Then both move to the new session: every data message after
# it names the new receiver indices.  Timed on the wire.
# timeout: 400
. "$(dirname "$0")/../lib.sh"

timers_pair

ping_all a 1 -W 5 192.168.241.2
# a's keypair is born when a takes b's response, just after the relay saw it.
set -- $(awk '$2 == "b2a" && $3 == 2 { print $1, $5; exit }' "$tl")
t_hs=$1 idx_b1=$2
[ -n "$t_hs" ] || { tl_show "$tl"; fail "no handshake response from b"; }
# b pings a every 5 s until a rekeyed and the new session carried data
# both ways, 150 s at most.
end=$(awk -v t="$t_hs" 'BEGIN { printf "%d", t + 150 }')
after=0
while [ $after -lt 3 ] && [ "$(awk '{ printf "%d", $1 }' /proc/uptime)" -lt "$end" ]; do
	ping_count b -c 1 -W 2 192.168.241.1 > /dev/null
	[ "$(tl_count "$tl" a2b 1 0 65535 "$t_hs")" = 0 ] || after=$((after + 1))
	sleep 5
done
set -- $(awk -v t="$t_hs" '$2 == "a2b" && $3 == 1 && $1 > t { print $1, $5; exit }' "$tl")
t_re=$1 idx_a2=$2
[ -n "$t_re" ] || { tl_show "$tl" "$t_hs"; fail "a never started a new handshake in 150 s of sending on its keypair"; }
echo "session from $t_hs s, a's new initiation at $t_re s"
awk -v a="$t_hs" -v b="$t_re" 'BEGIN { exit !(b - a >= 120 - 0.001) }' ||
	{ tl_show "$tl" "$t_hs"; fail "a started a new handshake $t_hs -> $t_re s, before its keypair was 120 s old"; }
# The first data a sent at 120 s or later is what started it.
t_trig=$(awk -v t="$t_hs" '$2 == "a2b" && $3 == 4 && $4 > 32 && $1 >= t + 120 { print $1; exit }' "$tl")
[ -n "$t_trig" ] && awk -v a="$t_trig" -v b="$t_re" 'BEGIN { exit !(b >= a && b - a <= 0.5) }' ||
	{ tl_show "$tl" "$t_hs"; fail "a's new initiation ($t_re s) did not follow the first data it sent at 120 s or later (${t_trig:-none})"; }
pass "the initiator rekeys with its first send at 120 s (after $(awk -v a="$t_hs" -v b="$t_re" 'BEGIN { printf "%.2f", b - a }') s)"

# The responder: it sent on its keypair about as long (b's request that
# a's rekeying reply answers comes milliseconds before that reply: 119.5
# s) and did not start a handshake of its own, in the whole run.
late=$(awk -v t="$t_hs" -v e="$t_re" '$2 == "b2a" && $3 == 4 && $4 > 32 && $1 >= t + 119.5 && $1 <= e' "$tl" | wc -l)
[ "$late" -ge 1 ] || { tl_show "$tl" "$t_hs"; fail "b sent no data at 119.5 s or later on the first session: the check below would prove nothing"; }
[ "$(tl_count "$tl" b2a 1)" = 0 ] || { tl_show "$tl" "$t_hs"; fail "b, the responder, sent $(tl_count "$tl" b2a 1) handshake initiations"; }
pass "the responder sent $late data messages on a keypair 119.5 s old or older and started no handshake"

# The new session: b's response to a's initiation names b's new index,
# which a's data must carry from then on; b's data the index of a's new
# initiation once a's first data confirmed the session to b.
set -- $(awk -v t="$t_re" '$2 == "b2a" && $3 == 2 && $1 >= t { print $1, $5; exit }' "$tl")
t_resp2=$1 idx_b2=$2
[ -n "$t_resp2" ] || { tl_show "$tl" "$t_re"; fail "b did not answer a's new initiation"; }
t_conf=$(awk -v t="$t_resp2" '$2 == "a2b" && $3 == 4 && $1 > t { print $1; exit }' "$tl")
[ -n "$t_conf" ] || { tl_show "$tl" "$t_re"; fail "a sent nothing on the new session"; }
bad=$(awk -v t="$t_resp2" -v i="$idx_b2" '$2 == "a2b" && $3 == 4 && $1 > t && $6 != i' "$tl")
[ -z "$bad" ] || { tl_show "$tl" "$t_re"; fail "a sent data on an old session after the new one began: $bad"; }
bad=$(awk -v t="$t_conf" -v i="$idx_a2" '$2 == "b2a" && $3 == 4 && $1 > t + 0.5 && $6 != i' "$tl")
[ -z "$bad" ] || { tl_show "$tl" "$t_re"; fail "b sent data on an old session after a confirmed the new one: $bad"; }
[ "$(awk -v t="$t_conf" '$2 == "b2a" && $3 == 4 && $1 > t + 0.5' "$tl" | wc -l)" -ge 1 ] ||
	{ tl_show "$tl" "$t_re"; fail "b sent no data on the new session"; }
pass "both sides use the new session from its first data on"
