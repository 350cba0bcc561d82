#!/bin/sh
# Handshake retries (timers.c, wg_expired_retransmit_handshake): an
# initiation that gets no answer is sent again every REKEY_TIMEOUT (5 s)
# plus up to a third of a second of jitter; after MAX_TIMER_HANDSHAKES
# (18) retries more than REKEY_ATTEMPT_TIME (90 s) the peer gives up: 20
# initiations in all, then none, and the packets staged for the handshake
# are dropped, so a packet sent later arrives alone.  Timed on the wire.
# timeout: 400
. "$(dirname "$0")/../lib.sh"

timers_pair
mitm hold b2a on

# One echo request staged on a, whose handshake gets no response.
# icmp_in: the echo requests b received (Icmp InEchos).
icmp_in() {
	ip netns exec "$(nsname b)" cat /proc/net/snmp |
		awk '/^Icmp:/ { if (!h) { for (i = 1; i <= NF; i++) c[$i] = i; h = 1 } else print $(c["InEchos"]) }'
}
in0=$(icmp_in)
t0=$(tl_now)
ping_count a -c 1 -W 1 192.168.241.2 > /dev/null
# 20 initiations take 95 to 101 s; wait for them, and 30 s more.
wait_for 150 tl_seen 20 "$tl" a2b 1 0 65535 "$t0" ||
	{ tl_show "$tl" "$t0"; fail "a sent $(tl_count "$tl" a2b 1 0 65535 "$t0") initiations in 150 s, expected 20"; }
quiet_period 30
set -- $(tl_times "$tl" a2b 1 0 65535 "$t0")
echo "a's initiations at: $*"
[ $# = 20 ] || { tl_show "$tl" "$t0"; fail "a sent $# initiations, expected 20 (1 and 19 retries) and then none"; }
[ "$(tl_count "$tl" b2a 2 0 65535 "$t0")" -ge 20 ] ||
	fail "b answered only $(tl_count "$tl" b2a 2 0 65535 "$t0") of a's initiations (the relay held them): the handshake could have completed"
prev=$1
shift
k=2
for t in "$@"; do
	within "$prev" "$t" 5 333 ||
		{ tl_show "$tl" "$t0"; fail "initiation $k came $prev -> $t s, not 5 s (+ up to 333 ms of jitter) after the one before"; }
	prev=$t k=$((k + 1))
done
pass "20 initiations, 5 s (+ jitter) apart, then none for 30 s"

# The staged echo request was dropped with the handshake: let responses
# through, ping again; b gets the new request only.
mitm hold b2a off
ping_all a 1 -W 10 192.168.241.2
in1=$(icmp_in)
echo "b received $((in1 - in0)) echo requests since the first ping"
[ $((in1 - in0)) = 1 ] ||
	fail "b received $((in1 - in0)) echo requests, expected 1: the request staged for the abandoned handshake was sent after all"
pass "the packet staged for an abandoned handshake is dropped; the next one gets through alone"
