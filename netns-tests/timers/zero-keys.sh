#!/bin/sh
# Key zeroing (timers.c, wg_timers_session_derived): every key of a peer
# is erased REJECT_AFTER_TIME * 3 (540 s) after the last session was
# derived, on both sides, and the timer starts again with each new
# session.  a starts a session, sends at 185 s (the keypair has expired:
# a new session, whatever the rekey timers do), then the tunnel stays
# idle.  The times of the sessions come from
# the wire; the erasure itself leaves no trace on the wire, so its time is
# the kernel's "Zeroing out all keys" line (WIREGUARD_DEBUG), set against
# the relay's clock through a mark written to the kernel log.  Also
# asserted from the wire: the erasure sends nothing, and nothing else
# (no rekey) happened in between.
# timeout: 1000
. "$(dirname "$0")/../lib.sh"

timers_pair
u_mark=$(tl_now)
kmsg_mark

ping_all a 1 -W 5 192.168.241.2
t_hs=$(tl_times "$tl" b2a 2 | sed -n 1p)
[ -n "$t_hs" ] || { tl_show "$tl"; fail "no handshake"; }
# At 185 s a sends: a new session, which restarts the 540 s.
while [ "$(awk -v t="$t_hs" '{ printf "%d", $1 - t }' /proc/uptime)" -lt 185 ]; do sleep 5; done
ping_all a 1 -W 10 192.168.241.2
wait_for 10 tl_seen 2 "$tl" b2a 2 || { tl_show "$tl" "$t_hs"; fail "no new session when a sent at 185 s"; }
t_last=$(tl_times "$tl" b2a 2 | tail -n 1)
echo "sessions at $t_hs s and $t_last s"

# Both sides' lines, up to 540 s and the timer wheel's slack after t_last.
zero_lines() { [ "$(kmsg_since | grep -c ': Zeroing out all keys for peer')" -ge "$1" ]; }
wait_for 620 zero_lines 2 ||
	{ kmsg_since | grep -i zeroing; fail "the kernel did not erase both peers' keys in 620 s after the last session"; }
quiet_period 20
# The log's clock against the relay's: the mark, written at u_mark.
off=$(kmsg_since | awk -v u="$u_mark" -v m="$KMSG_MARK" '!n && index($0, m) { n = 1; gsub(/^\[ *|\].*/, ""); print $0 - u }')
[ -n "$off" ] || fail "the mark is not in the kernel log"
set -- $(kmsg_since | awk -v o="$off" '/: Zeroing out all keys for peer/ { s = $0; gsub(/^\[ *|\].*/, "", s); printf "%.3f\n", s - o }')
echo "keys erased at $* s (relay's clock), 540 s after $t_last s is $(awk -v t="$t_last" 'BEGIN { print t + 540 }') s"
[ $# = 2 ] || fail "$# erasures in the kernel log, expected 2 (a's peer and b's)"
late=$(timer_late_ms 540)
for z in "$@"; do
	awk -v t="$t_last" -v z="$z" -v l="$late" 'BEGIN { d = z - t; exit !(d >= 540 - 0.1 && d <= 540 + l / 1000 + 0.1) }' ||
		fail "keys erased at $z s: $(awk -v t="$t_last" -v z="$z" 'BEGIN { print z - t }') s after the last session, not 540 s (up to $late ms late)"
done
pass "both peers' keys erased 540 s after the last session (not the first)"
# From the wire: nothing after a's passive keepalive (10 s in: b's echo
# reply got no answer), whenever it came.
k=$(tl_times "$tl" a2b 4 32 32 "$t_last" | sed -n 1p)
[ -n "$k" ] || { tl_show "$tl" "$t_last"; fail "a's passive keepalive after the last session is not on the wire: the silence below would prove nothing"; }
n=$(awk -v t="$k" '$1 > t' "$tl" | wc -l)
[ "$n" = 0 ] || { tl_show "$tl" "$t_last"; fail "$n messages on the wire after a's last keepalive ($k s), through the erasure"; }
pass "the tunnel was silent from a's last keepalive to the erasure and after"
