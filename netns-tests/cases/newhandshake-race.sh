#!/bin/sh
# The new-handshake-timer race, the data path's twin of rehandshake-race
# (netns-tests/README.md): 6.1's wg_packet_create_data_done() arms the
# "new handshake" timer (KEEPALIVE_TIMEOUT + REKEY_TIMEOUT, 15 s, plus
# jitter: data sent and nothing heard back) only after the data has gone
# out, so an answer consumed before that finds no timer to cancel, and 15
# s later the peer starts a handshake it did not need ("because we
# stopped hearing back after 15 seconds") on a tunnel that works.
#
# Made likely instead of waiting for luck: wgt-preempt --data, a
# SCHED_FIFO thread on CPU 1 woken by a data message leaving veth-a,
# preempts a transmit worker on CPU 1 at the end of its send and holds the
# CPU until the answer is back and consumed on CPU 0.  A peer's transmit
# worker runs on the CPU its id picks (wg_cpumask_choose_online), so about
# half of RACE_TUNNELS (8) tunnels send from CPU 1, and the answer's path
# avoids CPU 1 only when each of its workers' round-robin CPUs does, so a
# ping races about one time in ten: each tunnel pings ROUNDS (8) times.
# None may start a handshake 15 s later.
#
# The control, asserted: wgt-preempt held CPU 1 from a data message until
# its answer came back for every tunnel.  Only "no needless handshake" is
# the known failure on a kernel without the fix; on such a kernel a run
# where none shows fails (lib.sh bug_absent).
# fixed-by: wireguard: send: arm the new handshake timer before sending data
# timeout: 300
. "$(dirname "$0")/../lib.sh"

k=${RACE_TUNNELS:-8}
rounds=${ROUNDS:-8}
[ "$(nproc)" -ge 2 ] || skip "the race needs two CPUs, the guest has $(nproc)"

race_tunnels $k nh 211 52500 52700

# Every tunnel's handshake done first, with no CPU held, and at rest: a
# retry from 6.1's other race (rehandshake-race) is over within REKEY_TIMEOUT.
i=1
while [ $i -le $k ]; do
	ping_all a 1 -W 20 10.211.$i.2
	i=$((i + 1))
done
quiet_period 7

held=/tmp/"$ns_prefix".held
bg a wgt-preempt --data veth-a 1 0 $((3000 * ${wgt_timeout_scale:-1})) > "$held"
preempt=$BG_PID
wait_for 10 grep -qx ready "$held" || fail "wgt-preempt did not start: $(cat "$held")"
kmsg_mark
r=1
while [ $r -le $rounds ]; do
	i=1
	while [ $i -le $k ]; do
		ping_all a 1 -W 20 10.211.$i.2
		i=$((i + 1))
	done
	r=$((r + 1))
done
stop $preempt
# held_ports: the tunnels (a's listen ports, 52501..) whose data
# wgt-preempt held CPU 1 for until the answer came back.
held_ports() { sed -n 's/^data [0-9]* from port \([0-9]*\): held cpu1 for .*(answer seen)$/\1/p' "$held" | sort -u; }
sed 's/^/  /' "$held"
[ "$(held_ports | wc -l)" = "$k" ] ||
	fail "the race was not provoked: wgt-preempt held cpu1 while an answer came back for $(held_ports | wc -l) of $k tunnels (ports: $(echo $(held_ports)))"
pass "$rounds rounds of $k pings, each sender held off cpu1 from its data until the answer was back"
# A timer the answer could not cancel fires 15 s (+ 1/3 s, + the timer
# wheel's 256 ms) after the last ping of its tunnel.
quiet_period 17
kmsg_since | grep -E 'wireguard: nh[0-9]+: Retrying handshake with peer .* because we stopped hearing back after 15 seconds' > /tmp/"$ns_prefix".retries || true
sed 's/^/  /' /tmp/"$ns_prefix".retries
retries=$(wc -l < /tmp/"$ns_prefix".retries)
tunnels=$(sed 's/.*wireguard: \(nh[0-9]*\):.*/\1/' /tmp/"$ns_prefix".retries | sort -u | wc -l)
[ "$retries" = 0 ] ||
	bug_shows "$tunnels of $k tunnels started a handshake 15 s after an answered ping, $retries in all (the new handshake timer was armed after the answer was consumed)"
bug_absent "no tunnel started a needless handshake after an answered ping"
