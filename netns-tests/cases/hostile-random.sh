#!/bin/sh
# Garbage at the listen ports: a man in the middle sends 3000 malformed
# datagrams to each peer from its own address (random lengths and bytes;
# handshake messages of the right length with random contents; data
# messages with random or the live receiver index).  The WireGuard sockets
# take them all in, nothing answers the sender, no counter, endpoint or
# handshake moves, and the tunnel keeps passing traffic.
# bad-packets: malformed datagrams at the listen ports, injected
# timeout: 120
. "$(dirname "$0")/../lib.sh"

N=3000
ns_add a
ns_add m
ns_add b
mitm_pair a m b
ping_all a 2 -W 5 192.168.241.2
ping_all b 2 -W 3 192.168.241.1
handshake_at_rest 30 handshake_state || fail "the handshake never came to rest (readings above)"

# counters: the four transfer counters; fixed: the endpoints.  Handshake
# times may move only with a genuine re-handshake through the relay (see
# genuine_rehandshake in lib.sh).
counters() { echo "$(transfer a wg0 "$PUB_B") $(transfer b wg0 "$PUB_A")"; }
fixed() { echo "$(endpoint a wg0 "$PUB_B") $(endpoint b wg0 "$PUB_A")"; }
counters0=$(counters)
fixed0=$(fixed)
hstate0=$AT_REST
in_a=$(udp_in a)
in_b=$(udp_in b)
mitm junk a2b $N
mitm junk b2a $N
udp_in_reached() { [ "$(udp_in "$1")" -ge $(($2 + N)) ]; }
wait_for 30 udp_in_reached b "$in_b" || fail "b's sockets took in $(($(udp_in b) - in_b)) of $N datagrams"
wait_for 30 udp_in_reached a "$in_a" || fail "a's sockets took in $(($(udp_in a) - in_a)) of $N datagrams"
pass "$N junk datagrams reached each peer's WireGuard socket"

quiet_period 2
[ "$(mitm_stat atk.a)" = 0 ] || fail "a answered the junk sender $(mitm_stat atk.a) times"
[ "$(mitm_stat atk.b)" = 0 ] || fail "b answered the junk sender $(mitm_stat atk.b) times"
counters1=$(counters)
fixed1=$(fixed)
hstate1=$(handshake_state)
echo "transfer counters: $counters0 -> $counters1"
echo "endpoints: $fixed0 -> $fixed1"
echo "handshakes a b, relay's genuine init a2b, resp b2a, init b2a, resp a2b: $hstate0 -> $hstate1"
[ "$fixed1" = "$fixed0" ] || fail "endpoints changed: $fixed0 -> $fixed1"
genuine_rehandshake "$hstate0" "$hstate1" || fail "the junk was answered or changed a handshake"
# Only keepalives (32 bytes each, a few at most) and a genuine re-handshake
# (148 + 92 bytes and a confirming keepalive) may have moved them.
limit=$((200 + 300 * REHANDSHAKES))
echo "$counters0 $counters1" | awk -v l=$limit '{ for (i = 1; i <= 4; i++) if ($(i + 4) - $i >= l) bad = 1 } END { exit bad }' ||
	fail "transfer counters moved by $limit bytes or more: $counters0 -> $counters1"
pass "no answer to the sender; counters, endpoints and handshakes unchanged"

ping_all a 50 -f -W 3 192.168.241.2
ping_all b 50 -f -W 3 fd00:241::1
pass "the tunnel still passes traffic"
