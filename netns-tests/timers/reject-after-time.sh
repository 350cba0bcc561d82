#!/bin/sh
# REJECT_AFTER_TIME (send.c, receive.c): a keypair 180 s old is used for
# nothing, either way.  a starts the session; the relay then holds all a
# sends, so no new session can complete.  b sends a's sink a datagram
# every 5 s: on the first session up to 180 s, never after (b stages them
# and starts handshakes instead).  a refuses data on it after 180 s: a
# datagram of b's from 175 s on, held by the relay and sent to a at 182 s,
# is not taken, where the same replay at 60 s was (the control).  Timed on
# the wire; what a took, from its receive counter (wg show transfer).
# bad-packets: the replay at 182 s is refused on purpose
# timeout: 500
. "$(dirname "$0")/../lib.sh"

timers_pair
bg a /usr/bin/wgmitm sink 192.168.241.1:9999 900
wait_for 10 udp_listening a 9999 || fail "no sink on a"

ping_all a 1 -W 5 192.168.241.2
set -- $(awk '$2 == "a2b" && $3 == 1 { print $1, $5; exit }' "$tl")
idx_a1=$2
t_hs=$(tl_times "$tl" b2a 2 | sed -n 1p)
[ -n "$t_hs" ] && [ -n "$idx_a1" ] || { tl_show "$tl"; fail "no handshake"; }
mitm hold a2b on
rx_a() { transfer a wg0 "$PUB_B" | awk '{ print $1 }'; }
age() { awk -v t="$t_hs" '{ printf "%d", $1 - t }' /proc/uptime; }
# send_until AGE: b sends a datagram every 5 s until the session is AGE s old.
send_until() {
	while [ "$(age)" -lt "$1" ]; do
		on b /usr/bin/wgmitm send 192.168.241.1:9999 100
		sleep 5
	done
}
# replay AGE: hold b's sends until the relay stored a datagram of b's,
# let b go on until the session is AGE s old, then send that datagram to
# a as it was; GREW is how much a's receive counter grew.
replay() {
	local n rx0
	n=$(tl_count "$tl" b2a 4 33)
	mitm hold b2a on
	on b /usr/bin/wgmitm send 192.168.241.1:9999 100
	wait_for 10 tl_seen $((n + 1)) "$tl" b2a 4 33 || fail "b's datagram did not reach the relay"
	send_until "$1"
	rx0=$(rx_a)
	mitm inject b2a 4 relay asis 0 1 || fail "the relay could not replay b's datagram"
	sleep 2
	GREW=$(($(rx_a) - rx0))
	mitm hold b2a off
}

send_until 60
replay 60
grew=$GREW
echo "a's receive counter grew by $grew bytes for a held datagram of b's replayed at $(age) s"
[ "$grew" -gt 0 ] || fail "a did not take b's held datagram at 60 s: the replay below would prove nothing"
send_until 175
replay 182
grew=$GREW
echo "a's receive counter grew by $grew bytes for a datagram of b's from 175 s replayed at $(age) s"
[ "$grew" = 0 ] || { tl_show "$tl" "$t_hs"; fail "a took data on a keypair older than 180 s (its receive counter grew by $grew)"; }
pass "a refuses data on a keypair older than 180 s, and took the same replay at 60 s"

send_until 200
last=$(awk -v i="$idx_a1" '$2 == "b2a" && $3 == 4 && $6 == i { t = $1 } END { print t }' "$tl")
echo "b's last data on the first session at $last s, $(awk -v a="$t_hs" -v b="$last" 'BEGIN { printf "%.2f", b - a }') s into it"
awk -v a="$t_hs" -v b="$last" 'BEGIN { exit !(b - a <= 180 + 0.05) }' ||
	{ tl_show "$tl" "$t_hs"; fail "b sent data on the first session at $last s, more than 180 s after it began"; }
awk -v a="$t_hs" -v b="$last" 'BEGIN { exit !(b - a >= 175) }' ||
	{ tl_show "$tl" "$t_hs"; fail "b stopped sending on the first session before 175 s: the check above proves nothing"; }
[ "$(awk -v t="$t_hs" '$2 == "b2a" && $3 == 1 && $1 > t + 180' "$tl" | wc -l)" -ge 1 ] ||
	{ tl_show "$tl" "$t_hs"; fail "b sent no handshake initiation after 180 s, with data to send"; }
pass "b sends nothing on a keypair older than 180 s, and starts a handshake instead"
