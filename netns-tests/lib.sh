# Helpers shared by the scenario files in cases/, sourced by each of them.
# Runs under busybox sh inside the test guest.
#
# A case prints what it does, calls fail() (or exits non-zero) on the first
# check that does not hold, and exits 0 when all held.  skip() exits 4.
# Everything a case creates is registered for cleanup() on exit, whatever
# the way out.
set -e -o pipefail
export LC_ALL=C

prog=${0##*/}
prog=${prog%.sh}

# Debian's busybox runs its own applets before $PATH: use the real tools.
ip() { /usr/bin/ip "$@"; }
ss() { /usr/bin/ss "$@"; }
ping() { /usr/bin/ping "$@"; }
wg() { /usr/bin/wg "$@"; }
iperf3() { /usr/bin/iperf3 "$@"; }

die() { echo "$prog: $*" >&2; exit 1; }
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 4; }
log() { echo "+ $*" >&2; }
pass() { echo "PASS: $*"; }
# Known failures are narrow: one named assertion of a case, never the
# case.  The case exits KSFT_XFAIL (2) with an "XFAIL: WHY" line right at
# that assertion, and guest-image/entry/netns reports it as a KTAP known
# failure ("not ok N CASE # TODO known failure: WHY") only when the case
# left nothing behind and the kernel stayed healthy.  Any other failure of
# the same case (another check, a leftover, a splat, a timeout) stays a
# failure.  An exit 2 without that line (a shell syntax error) fails.
xfail() { echo "XFAIL: $*"; exit 2; }
# known_fail WHY: the check failed the way it does on every kernel known
# so far, with no fix to name (upstream's own test only warns there); a
# pass once a kernel gets it right.
known_fail() { xfail "$*"; }

# A case that tests a kernel bug names the fix in a '# fixed-by: SUBJECT'
# line.  The host knows, for kernels built from linux-source-6.1 and a
# series, whether the fix is among the patches (wgt_fixed: the cases whose
# fix the kernel carries; wgt_lacks: those whose fix it lacks); for a
# KERNEL= image or a KERNEL_TREE build it cannot tell, and says so.
case_fix() { sed -n 's/^# fixed-by: //p' "$0"; }
# fix_status: fixed, lacking or unknown, for this case's fix.
fix_status() {
	! kernel_fixed "$prog" || { echo fixed; return 0; }
	case ",${wgt_lacks:-}," in *",$prog,"*) echo lacking; return 0 ;; esac
	echo unknown
}
# bug_shows WHY: the one assertion that shows the case's kernel bug failed.
# On a kernel that carries the fix: a failure.  On one known to lack it: a
# known failure.  On one whose fix status is unknown: a known failure whose
# reason says the status is unknown (never a silent TODO).
bug_shows() {
	local fix
	fix=$(case_fix)
	[ -n "$fix" ] || fail "bug_shows in a case without a '# fixed-by:' line: $*"
	case $(fix_status) in
	fixed) fail "$* (on a kernel that carries '$fix')" ;;
	lacking) xfail "$* (this kernel lacks '$fix')" ;;
	*) xfail "fix status unknown: $* (whether this kernel carries '$fix' cannot be told: not built from linux-source-6.1 and a series)" ;;
	esac
}
# bug_absent WHAT: that assertion held.  On a kernel known to lack the fix
# the bug must show: when it does not, the case no longer provokes it (the
# control is gone, e.g. stock stopped reproducing a race), a failure.
bug_absent() {
	[ "$(fix_status)" != lacking ] ||
		fail "$*, on a kernel that lacks '$(case_fix)': the bug did not show, so the case no longer provokes it"
	pass "$*"
}

# Namespaces are named after the case, so a leak names its owner.
ns_prefix=wgt-$$
created_ns=
bg_pids=

case_start=$(date +%s)
cleanup() {
	local rc=$? p x
	set +e
	log "$prog: $(($(date +%s) - case_start)) s"
	# A failing case that ran wgpeer (the peer suite) shows what the peer
	# sent and received: its transcript's last 30 messages.
	if [ "$rc" != 0 ] && [ -s "${PEER_TR:-}" ]; then
		log "wgpeer's transcript (time, send or recv, type, length, bytes), its last 30 messages:"
		tail -n 30 "$PEER_TR" | sed 's/^/+   /' >&2
	fi
	for p in $bg_pids; do kill "$p" 2> /dev/null; done
	for p in $bg_pids; do wait "$p" 2> /dev/null; done
	# wireguard-go (WG_GO) exits once its TUN is gone: waited for, so
	# the runner's leftover check does not find it on its way out.
	if [ -n "${WG_GO:-}" ] && [ -S /var/run/wireguard/wgo.sock ]; then
		ip -n "$ns_prefix-$WG_GO" link del wgo 2> /dev/null
		wait_for 10 sh -c '! pidof wireguard-go'
	fi
	for x in $created_ns; do ip netns del "$x" 2> /dev/null; done
	rm -f /tmp/"$ns_prefix".* /tmp/"$ns_prefix"-*
}
trap cleanup EXIT
trap 'exit 143' INT TERM

# ns_add NAME: a namespace with lo up.
ns_add() {
	local ns=$ns_prefix-$1
	ip netns add "$ns"
	created_ns="$created_ns $ns"
	ip -n "$ns" link set lo up
}
nsname() { echo "$ns_prefix-$1"; }
# on NAME CMD...: run CMD in the namespace NAME, logged.
on() {
	local ns=$ns_prefix-$1
	shift
	log "[$ns] $*"
	ip netns exec "$ns" "$@"
}
# bg NAME CMD...: as on(), in the background; killed at cleanup.  Sets
# BG_PID to its process id.
bg() {
	local ns=$ns_prefix-$1
	shift
	log "[$ns] $* &"
	# /usr/bin/ip itself, not the ip() function: a function would run in
	# a subshell whose death at cleanup would orphan the command.
	/usr/bin/ip netns exec "$ns" "$@" &
	BG_PID=$!
	bg_pids="$bg_pids $BG_PID"
}
# stop PID: end a process started with bg() and wait for it.
stop() {
	kill "$1" 2> /dev/null || true
	wait "$1" 2> /dev/null || true
}

# wait_for SECONDS CMD...: poll CMD until it succeeds, SECONDS at most.
. /tests/netns/poll.sh

# tcp_listening NS PORT: something listens on TCP PORT in NS.
tcp_listening() {
	ip netns exec "$ns_prefix-$1" /usr/bin/ss -Htln "sport = :$2" | grep . > /dev/null
}

# udp_listening NS PORT: a UDP socket is bound to PORT in NS.
udp_listening() {
	ip netns exec "$ns_prefix-$1" /usr/bin/ss -Huln "sport = :$2" | grep . > /dev/null
}

# latest_handshake NS IFACE PEER: seconds since the epoch, 0 if none.
latest_handshake() {
	ip netns exec "$ns_prefix-$1" /usr/bin/wg show "$2" latest-handshakes |
		awk -v p="$3" '$1 == p { print $2 }'
}
has_handshake() { [ "$(latest_handshake "$@")" -gt 0 ] 2> /dev/null; }

# handshake_at_rest SECONDS CMD...: wait, SECONDS at most, until no
# handshake is in flight.  CMD prints a reading: the latest-handshake times
# of both sides first, then anything else a handshake moves (the relay's
# counts, handshake_state).  At rest means both times are set and the
# reading stayed the same for 2 s (stretched like every wait on a slow
# kernel); an exchange takes milliseconds.  Rest is not silence: a tunnel
# nobody uses may re-key at any time (netns-tests/README.md, an idle tunnel
# is not silent), so cases take a reading here and count what moves after
# it.  Sets AT_REST to the reading at rest.  Prints each reading that
# changed, so a tunnel that never came to rest shows why.
handshake_at_rest() {
	local end still now cur prev=
	end=$(($(uptime_cs) + $1 * 100 * ${wgt_timeout_scale:-1}))
	shift
	while :; do
		cur=$("$@")
		now=$(uptime_cs)
		if [ "$cur" != "$prev" ]; then
			echo "handshake reading at ${now}cs: $cur"
			prev=$cur
			still=$((now + 200 * ${wgt_timeout_scale:-1}))
		elif [ "$now" -ge "$still" ] &&
			echo "$cur" | awk '{ ok = $1 > 0 && $2 > 0 } END { exit !ok }'; then
			AT_REST=$cur
			return 0
		fi
		[ "$now" -lt "$end" ] || return 1
		sleep 0.5
	done
}
# handshake_times A B: the latest-handshake times of A's peer B and B's
# peer A (wg0, PUB_A/PUB_B), a reading for handshake_at_rest.
handshake_times() {
	echo "$(latest_handshake "$1" wg0 "$PUB_B") $(latest_handshake "$2" wg0 "$PUB_A")"
}

# transfer NS IFACE PEER: prints "RX TX" bytes for PEER.
transfer() {
	ip netns exec "$ns_prefix-$1" /usr/bin/wg show "$2" transfer |
		awk -v p="$3" '$1 == p { print $2, $3 }'
}

# veth_pair A B [NAME_A NAME_B]: a veth link between namespaces A and B,
# both ends up, named NAME_A / NAME_B inside them (default veth-A / veth-B).
veth_pair() {
	local na=${3:-veth-$1} nb=${4:-veth-$2}
	ip link add "vt$$a" type veth peer name "vt$$b"
	ip link set "vt$$a" netns "$ns_prefix-$1" name "$na"
	ip link set "vt$$b" netns "$ns_prefix-$2" name "$nb"
	ip -n "$ns_prefix-$1" link set "$na" up
	ip -n "$ns_prefix-$2" link set "$nb" up
}

# sysctl_set NS KEY VALUE: set a sysctl inside namespace NS.
sysctl_set() { on "$1" sysctl -q -w "$2=$3"; }

# keypair: sets PRIV and PUB to a fresh WireGuard key pair.
keypair() {
	PRIV=$(wg genkey)
	PUB=$(echo "$PRIV" | wg pubkey)
}

# keyfile KEY: prints the name of a fresh file holding KEY, for wg's
# private-key and preshared-key options (removed at cleanup).
keyfile() {
	local f
	f=$(mktemp "/tmp/$ns_prefix.key.XXXXXX")
	echo "$1" > "$f"
	echo "$f"
}

# WG_GO=NS: the namespace whose WireGuard is wireguard-go, not the
# kernel's (the timers suite's go cases): its wg0 is wireguard-go's TUN
# "wgo" (wg finds a userspace interface by its UAPI socket, shared by all
# namespaces, so it must not be named like a kernel one).  wg_if NS IFACE:
# the name IFACE has in NS.
wg_if() {
	if [ "$1" = "${WG_GO:-}" ] && [ "$2" = wg0 ]; then echo wgo; else echo "$2"; fi
}

# wg_dev NS IFACE PORT PRIV: a WireGuard interface IFACE in NS (left down)
# with private key PRIV, listening on PORT.
wg_dev() {
	local dev
	dev=$(wg_if "$1" "$2")
	if [ "$dev" = wgo ]; then
		mkdir -p /var/run/wireguard
		# (It daemonizes; its log to a file.)
		on "$1" /usr/bin/wireguard-go wgo < /dev/null > /tmp/"$ns_prefix".go.log 2>&1 ||
			fail "wireguard-go did not start: $(cat /tmp/"$ns_prefix".go.log)"
		wait_for 30 test -S /var/run/wireguard/wgo.sock || fail "wireguard-go: no UAPI socket after 30 s"
	else
		ip -n "$ns_prefix-$1" link add "$dev" type wireguard
	fi
	on "$1" wg set "$dev" private-key "$(keyfile "$4")" listen-port "$3"
}

# wg_peer NS IFACE PUB [ARGS...]: wg set IFACE peer PUB ARGS... in NS.
wg_peer() {
	local ns=$1 dev pub=$3
	dev=$(wg_if "$1" "$2")
	shift 3
	on "$ns" wg set "$dev" peer "$pub" "$@"
}

# wg_tunnel A B EP_A EP_B: wg0 in A and B with fresh keys (KEY_A/PUB_A,
# KEY_B/PUB_B), listening on 51820 (A) and 51821 (B), each the other's
# peer, inner 192.168.241.1-2/24 and fd00:241::1-2/64, up.  A reaches B at
# EP_B and B reaches A at EP_A; an empty one leaves the endpoint unset.
wg_tunnel() {
	local a=$1 b=$2 ep_a=$3 ep_b=$4
	keypair
	KEY_A=$PRIV PUB_A=$PUB
	keypair
	KEY_B=$PRIV PUB_B=$PUB
	wg_dev "$a" wg0 51820 "$KEY_A"
	wg_dev "$b" wg0 51821 "$KEY_B"
	wg_peer "$a" wg0 "$PUB_B" ${ep_b:+endpoint "$ep_b"} \
		allowed-ips 192.168.241.2/32,fd00:241::2/128
	wg_peer "$b" wg0 "$PUB_A" ${ep_a:+endpoint "$ep_a"} \
		allowed-ips 192.168.241.1/32,fd00:241::1/128
	local dev_a dev_b
	dev_a=$(wg_if "$a" wg0)
	dev_b=$(wg_if "$b" wg0)
	ip -n "$ns_prefix-$a" addr add 192.168.241.1/24 dev "$dev_a"
	ip -n "$ns_prefix-$b" addr add 192.168.241.2/24 dev "$dev_b"
	ip -n "$ns_prefix-$a" addr add fd00:241::1/64 dev "$dev_a" nodad
	ip -n "$ns_prefix-$b" addr add fd00:241::2/64 dev "$dev_b" nodad
	ip -n "$ns_prefix-$a" link set "$dev_a" up
	ip -n "$ns_prefix-$b" link set "$dev_b" up
}

# wg_pair A B: the usual two-peer setup.  Underlay 10.0.0.1/24 (A) and
# 10.0.0.2/24 (B) on a veth, fd00::1/2; wg0 in each with fresh keys,
# listening on 51820 (A) and 51821 (B), inner 192.168.241.1-2/24 and
# fd00:241::1-2/64.  Sets PUB_A, PUB_B (and KEY_A, KEY_B).  OUTER=6 puts
# the endpoints on v6.
wg_pair() {
	local a=$1 b=$2 ep_a=10.0.0.1:51820 ep_b=10.0.0.2:51821
	veth_pair "$a" "$b"
	ip -n "$ns_prefix-$a" addr add 10.0.0.1/24 dev "veth-$a"
	ip -n "$ns_prefix-$b" addr add 10.0.0.2/24 dev "veth-$b"
	ip -n "$ns_prefix-$a" addr add fd00::1/64 dev "veth-$a" nodad
	ip -n "$ns_prefix-$b" addr add fd00::2/64 dev "veth-$b" nodad
	if [ "${OUTER:-4}" = 6 ]; then
		ep_a=[fd00::1]:51820
		ep_b=[fd00::2]:51821
	fi
	wg_tunnel "$a" "$b" "$ep_a" "$ep_b"
}

# wg_pair6 A B: wg_pair A B on an IPv6-only underlay (endpoints on
# fd00::1-2, the v4 underlay addresses removed).
wg_pair6() {
	OUTER=6 wg_pair "$1" "$2"
	ip -n "$ns_prefix-$1" addr del 10.0.0.1/24 dev "veth-$1"
	ip -n "$ns_prefix-$2" addr del 10.0.0.2/24 dev "veth-$2"
}

# endpoint NS IFACE PEER: the endpoint IFACE in NS has for PEER.
endpoint() {
	ip netns exec "$ns_prefix-$1" /usr/bin/wg show "$2" endpoints |
		awk -v p="$3" '$1 == p { print $2 }'
}
# endpoint_is NS IFACE PEER ENDPOINT: it is ENDPOINT (for wait_for).
endpoint_is() { [ "$(endpoint "$1" "$2" "$3")" = "$4" ]; }

# dev_stat NS IFACE NAME: the interface counter NAME (rx_bytes,
# rx_frame_errors, tx_errors, ... as in /sys/class/net/IFACE/statistics).
dev_stat() {
	ip netns exec "$ns_prefix-$1" cat "/sys/class/net/$2/statistics/$3"
}

# udp_in NS: datagrams the UDP sockets of NS have taken in (InDatagrams of
# /proc/net/snmp, v4 plus v6); WireGuard's encapsulation sockets count.
udp_in() {
	ip netns exec "$ns_prefix-$1" cat /proc/net/snmp /proc/net/snmp6 | awk '
		$1 == "Udp:" && $2 == "InDatagrams" { for (i = 2; i <= NF; i++) if ($i == "InDatagrams") col = i; next }
		$1 == "Udp:" && col { n += $col }
		$1 == "Udp6InDatagrams" { n += $2 }
		END { print n + 0 }'
}

# udp_in_grew NS BEFORE N: NS's sockets have taken in at least N datagrams
# since udp_in read BEFORE (a wait_for predicate).
udp_in_grew() { [ "$(udp_in "$1")" -ge $(($2 + $3)) ]; }

# snmp NS PROTO FIELD: one counter of NS's IP stack, e.g. "snmp b Icmp
# InEchos" (/proc/net/snmp) or "snmp a Icmp6 InEchos" (/proc/net/snmp6).
snmp() {
	ip netns exec "$ns_prefix-$1" cat /proc/net/snmp /proc/net/snmp6 | awk -v p="$2:" -v f="$3" -v p6="$2$3" '
		$1 == p && $2 !~ /^[0-9]+$/ { for (i = 2; i <= NF; i++) if ($i == f) col = i; next }
		$1 == p && col { v = $col }
		$1 == p6 { v = $2 }
		END { print v + 0 }'
}

# ping_scaled ARGS...: sets PING_ARGS to ARGS with the reply wait (-W N)
# stretched by the guest's measured slowness (wgt_timeout_scale), like
# every other wait: a guest 15 times slower than the reference (a starved
# host) lost a reply to -W 3 in a soak.
ping_scaled() {
	local n=$# a w=
	while [ $n -gt 0 ]; do
		a=$1
		shift
		n=$((n - 1))
		if [ -n "$w" ]; then
			a=$((a * ${wgt_timeout_scale:-1}))
			w=
		fi
		[ "$a" != -W ] || w=1
		set -- "$@" "$a"
	done
	PING_ARGS="$*"
}
# ping_run NS ARGS...: ping ARGS (ping_scaled) in NS, its output in
# PING_OUT, its summary to stderr, interrupted after 60 s stretched like
# -W.  ping_count and no_ping read it.
ping_run() {
	local ns=$1
	shift
	ping_scaled "$@"
	# (PING_ARGS: words without spaces, options and an address.)
	# shellcheck disable=SC2086
	set -- $PING_ARGS
	log "[$ns_prefix-$ns] ping $*"
	PING_OUT=$(timeout -s INT $((60 * ${wgt_timeout_scale:-1})) /usr/bin/ip netns exec "$ns_prefix-$ns" /usr/bin/ping "$@" 2>&1 || true)
	echo "$PING_OUT" | grep -E 'transmitted|error' >&2 || true
}

# ping_count NS ARGS...: run ping ARGS in NS and print how many replies came
# back (0 when ping failed); the summary goes to stderr.  Whatever ping's
# own timeouts do, it is interrupted (and reports) after 60 s, stretched
# like -W (ping_scaled).
ping_count() {
	ping_run "$@"
	echo "$PING_OUT" | sed -n 's/.* \([0-9]*\) received.*/\1/p' | grep . || echo 0
}

# ping_all NS COUNT ARGS...: COUNT pings in NS (ARGS: options and the
# address) must all be answered.
ping_all() {
	local ns=$1 count=$2 got
	shift 2
	got=$(ping_count "$ns" -c "$count" "$@")
	[ "$got" = "$count" ] || fail "[$ns] ping $*: $got of $count replies"
}

# no_ping NS ARGS...: the ping must send and get no reply at all.  A ping
# that could not send (no route, a bad address) proves nothing and fails;
# a local send error counted by ping (EMSGSIZE past the MTU, ENOKEY without
# a peer) is a send that got no reply.  Where the point is that packets
# arrived and were refused, the case checks the receiver too.
no_ping() {
	local ns=$1 sent
	shift
	log "[$ns_prefix-$ns] the ping below expects no reply"
	ping_run "$ns" "$@"
	sent=$(echo "$PING_OUT" | sed -n 's/^\([0-9]*\) packets transmitted.*/\1/p')
	[ "${sent:-0}" -gt 0 ] || fail "[$ns] ping $PING_ARGS: nothing was sent: $(echo "$PING_OUT" | sed -n 1p)"
	echo "$PING_OUT" | grep ', 0 received' > /dev/null || fail "[$ns] ping $PING_ARGS got a reply, expected none"
}

# quiet_period SECONDS: give something that must NOT happen (an answer to
# a forged packet, a keepalive) the time to happen anyway.  Only for such
# negative checks: everything else polls with wait_for.  Stretched by the
# guest's measured slowness like every positive wait (wgt_timeout_scale),
# so a slow guest gets more time to show the event, never less.
quiet_period() { sleep $(($1 * ${wgt_timeout_scale:-1})); }

# iperf_run CLIENT SERVER SERVER_ADDR SECONDS [iperf3 args]: one iperf3 test,
# its client output left in $IPERF_OUT; sets MBIT to the Mbit/s the receiver
# saw and, for UDP, LOST and TOTAL to its datagram counts.  The server
# serves one test and exits.
IPERF_OUT=/tmp/$ns_prefix.iperf
iperf_run() {
	local c=$1 s=$2 addr=$3 secs=$4 mbit
	shift 4
	bg "$s" /usr/bin/iperf3 -s -1 -p 5201
	wait_for 10 tcp_listening "$s" 5201 || fail "iperf3 server did not start"
	on "$c" /usr/bin/iperf3 -c "$addr" -p 5201 -t "$secs" -f m "$@" > "$IPERF_OUT" ||
		{ cat "$IPERF_OUT"; fail "iperf3 to $addr failed"; }
	mbit=$(awk '/receiver/ { for (i = 1; i < NF; i++) if ($(i + 1) == "Mbits/sec") v = $i } END { print v }' \
		"$IPERF_OUT")
	[ -n "$mbit" ] || { cat "$IPERF_OUT"; fail "no receiver throughput in iperf3 output"; }
	MBIT=$mbit
	set -- $(awk '/receiver/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\/[0-9]+$/) v = $i } END { sub("/", " ", v); print v }' \
		"$IPERF_OUT")
	LOST=${1:-0} TOTAL=${2:-0}
}

# iperf_tcp CLIENT SERVER SERVER_ADDR SECONDS [iperf3 args]: sets MBIT to
# the Mbit/s the receiver saw.  The server serves one test and exits.
iperf_tcp() { iperf_run "$@"; }

# rcvbuf_errors NS: datagrams NS's UDP sockets dropped for a full receive
# buffer (RcvbufErrors, v4 plus v6).
rcvbuf_errors() {
	echo $(($(snmp "$1" Udp RcvbufErrors) + $(snmp "$1" Udp6 RcvbufErrors)))
}

# iperf_udp CLIENT SERVER SERVER_ADDR SECONDS RATE [iperf3 args]: UDP at
# RATE (e.g. 10M); sets MBIT, LOST and TOTAL; fails unless the receiver got
# datagrams and lost at most a tenth of them, not counting those its own
# socket dropped for a full buffer: a receiver that a busy TCG host stops
# for a few hundred ms (seen once: 93 of 912 lost in one second) is not the
# tunnel losing them.
iperf_udp() {
	local c=$1 s=$2 addr=$3 secs=$4 rate=$5 full0 full
	shift 5
	full0=$(rcvbuf_errors "$s")
	iperf_run "$c" "$s" "$addr" "$secs" -u -b "$rate" "$@"
	full=$(($(rcvbuf_errors "$s") - full0))
	echo "UDP $c -> $addr: $MBIT Mbit/s received, $LOST of $TOTAL datagrams lost, $full dropped by $s's full socket buffers"
	[ "$TOTAL" -gt 0 ] || fail "iperf3 UDP to $addr: no datagrams received"
	[ $(((LOST - full) * 10)) -le "$TOTAL" ] ||
		fail "iperf3 UDP to $addr lost $LOST of $TOTAL datagrams, $full of them to $s's full socket buffers"
}

# mbit_positive: the last iperf run moved data.
mbit_positive() {
	awk -v m="$MBIT" 'BEGIN { exit !(m > 0) }' || fail "iperf3 measured $MBIT Mbit/s"
}

# mbit_floor WHAT REF_MBIT: the last iperf run (through the tunnel) reached
# at least 1/MBIT_FLOOR_DIV (1/500) of REF_MBIT, the same transfer measured
# just before on the plain underlay between the same namespaces.  Relative,
# never absolute: a busy host slows both.  Seen under TCG: 1/49 on stock
# with the host busy; a tunnel ten times slower than that fails.
mbit_floor() {
	local div=${MBIT_FLOOR_DIV:-500} ratio
	ratio=$(awk -v m="$MBIT" -v r="$2" 'BEGIN { if (m > 0) printf "%.1f", r / m; else print "inf" }')
	echo "$1: $MBIT Mbit/s through the tunnel, $2 Mbit/s on the plain underlay: 1/$ratio (floor 1/$div)"
	awk -v m="$MBIT" -v r="$2" -v d="$div" 'BEGIN { exit !(m > 0 && m * d >= r) }' ||
		fail "$1: the tunnel reached $MBIT Mbit/s, below 1/$div of the underlay's $2 Mbit/s"
}

# set_mtu MTU: wg0's MTU in a and b.
set_mtu() {
	ip -n "$ns_prefix-a" link set wg0 mtu "$1"
	ip -n "$ns_prefix-b" link set wg0 mtu "$1"
}

# outer_fragments: on wg_pair a b, a wg0 MTU of 1500 and then of 34736
# (upstream's big MTU) over the 1500-byte underlay: WireGuard's 60 or 80
# bytes push the encapsulated packets past the underlay's MTU, so they
# must be fragmented and reassembled outside the tunnel.  Unfragmentable
# inner pings of the full MTU pass both ways, and TCP moves data.
outer_fragments() {
	local big=$((34816 - 1500 + 1420))
	set_mtu 1500
	ping_all a 3 -W 3 -M do -s 1472 192.168.241.2
	ping_all b 3 -W 3 -M do -s 1452 fd00:241::1
	set_mtu $big
	ping_all a 3 -W 5 -M do -s $((big - 28)) 192.168.241.2
	ping_all b 3 -W 5 -M do -s $((big - 48)) fd00:241::1
	iperf_tcp a b 192.168.241.2 2
	mbit_positive
	pass "wg0 MTU 1500 and $big over a 1500-byte IPv${OUTER:-4} underlay: outer fragmentation works ($MBIT Mbit/s TCP)"
}

# mitm_pair A M B: A and B joined through a wgmitm relay in M, which does
# not forward IP.  Underlay 10.0.1.1/24 (A, veth-a) -- 10.0.1.254 (M,
# veth-ma) and 10.0.2.254 (M, veth-mb) -- 10.0.2.1/24 (B, veth-b).  wg0 as
# in wg_tunnel; A's endpoint for B is the relay at 10.0.1.254:5000, B's for
# A is 10.0.2.254:5000; forged packets come from 10.0.1.254:5001 (to A) and
# 10.0.2.254:5001 (to B).  Drive it with mitm and mitm_stat.  With
# TIMELINE, the relay writes every message it sees to that file, with its
# time (guest-image/tools/wgmitm.c; the timers cases read it).
MITM_NS=
mitm_pair() {
	local a=$1 m=$2 b=$3 timeline=${4:-}
	veth_pair "$a" "$m" veth-a veth-ma
	veth_pair "$m" "$b" veth-mb veth-b
	ip -n "$ns_prefix-$a" addr add 10.0.1.1/24 dev veth-a
	ip -n "$ns_prefix-$m" addr add 10.0.1.254/24 dev veth-ma
	ip -n "$ns_prefix-$m" addr add 10.0.2.254/24 dev veth-mb
	ip -n "$ns_prefix-$b" addr add 10.0.2.1/24 dev veth-b
	MITM_NS=$m
	bg "$m" /usr/bin/wgmitm relay 127.0.0.1:7000 10.0.1.254:5000 10.0.1.1:51820 \
		10.0.2.254:5000 10.0.2.1:51821 ${timeline:+"$timeline"}
	wait_for 10 mitm stats || fail "wgmitm relay did not start"
	wg_tunnel "$a" "$b" 10.0.2.254:5000 10.0.1.254:5000
}
# mitm COMMAND...: a command to the relay (see guest-image/tools/wgmitm.c);
# its answer is shown only when it is an error.
mitm() {
	local out
	log "[mitm] $*"
	out=$(ip netns exec "$ns_prefix-$MITM_NS" /usr/bin/wgmitm ctl 127.0.0.1:7000 "$@" 2>&1) ||
		{ echo "mitm $*: $out"; return 1; }
}
# mitm_stat NAME: one of the relay's counters.
mitm_stat() {
	ip netns exec "$ns_prefix-$MITM_NS" /usr/bin/wgmitm ctl 127.0.0.1:7000 stats |
		awk -v n="$1" '$1 == n { print $2 }'
}

# handshake_state: for the a/b pair behind the relay, the latest-handshake
# times of a's peer b and b's peer a, then the genuine handshake messages
# the relay forwarded: "HS_A HS_B INIT_A2B RESP_B2A INIT_B2A RESP_A2B".
handshake_state() {
	echo "$(handshake_times a b)" \
		"$(mitm_stat seen.a2b.1) $(mitm_stat seen.b2a.2) $(mitm_stat seen.b2a.1) $(mitm_stat seen.a2b.2)"
}
# genuine_rehandshake STATE0 STATE1 (two handshake_state readings): succeed
# when the handshake times stayed, or moved together with genuine
# initiations through the relay, and no side sent more responses than it
# got genuine initiations (an extra one answered a forged message).  Sets
# REHANDSHAKES to the genuine initiations counted.  A tunnel at rest may
# re-key on its own (netns-tests/README.md: an idle tunnel is not silent).
genuine_rehandshake() {
	set -- $1 $2
	local ia=$(($9 - $3)) rb=$((${10} - $4)) ib=$((${11} - $5)) ra=$((${12} - $6))
	REHANDSHAKES=$((ia + ib))
	if [ $rb -gt $ia ] || [ $ra -gt $ib ]; then
		echo "b sent $rb responses for $ia genuine initiations of a, a sent $ra for $ib of b"
		return 1
	fi
	[ "$1 $2" != "$7 $8" ] || return 0
	if [ $REHANDSHAKES = 0 ]; then
		echo "handshake times moved without a genuine initiation through the relay: $1 $2 -> $7 $8"
		return 1
	fi
	echo "a genuine re-handshake through the relay ($ia + $ib initiations) moved the handshake times"
}

# Which code ran, asked of the kernel: the ftrace function profiler
# (CONFIG_FUNCTION_PROFILER) counts calls to the functions in its filter,
# nothing else (no graph tracer).  crypto-path.sh and the bench entry share
# these.  The entry points of Zinc and lib/crypto that tell the two apart:
PROF_ZINC_FNS="zinc_chacha20poly1305_encrypt_sg_inplace zinc_chacha20poly1305_decrypt_sg_inplace zinc_curve25519 zinc_curve25519_generate_public"
PROF_LIB_FNS="chacha20poly1305_encrypt_sg_inplace chacha20poly1305_decrypt_sg_inplace curve25519_arch curve25519_base_arch curve25519_generic"
PROF_FPU_FN=kernel_fpu_begin_mask
# One level down, on x86_64: the arch glue's entry points Zinc calls, the
# generic C block functions, and the two Curve25519 implementations (the
# assembly itself cannot be traced).
PROF_IMPL_FNS="chacha_crypt_held poly1305_update_held chacha_block_generic poly1305_core_blocks"
PROF_TR=/sys/kernel/tracing

# prof_available: this kernel has the function profiler.
prof_available() { [ -w $PROF_TR/function_profile_enabled ]; }
# prof_traceable FN: FN can be put in the profiler's filter (a module's
# functions are listed as "FN [MODULE]").
prof_traceable() { grep -qE "^$1( \[[a-z0-9_]+\])?\$" $PROF_TR/available_filter_functions; }
# prof_filter FN...: profile exactly these functions; each one this kernel
# cannot trace is named on stdout and left out.
# An empty filter would profile every function: that fails.
prof_filter() {
	local f n=0
	: > $PROF_TR/set_ftrace_filter
	for f in "$@"; do
		if prof_traceable "$f"; then
			echo "$f" >> $PROF_TR/set_ftrace_filter
			n=$((n + 1))
		else
			echo "not traceable in this kernel: $f"
		fi
	done
	[ $n -gt 0 ] || fail "none of the functions to profile can be traced: $*"
}
# prof_start: zero the counts and count; prof_pause: stop counting, keep
# the counts for prof_hits; prof_stop: stop and clear the filter.
prof_start() { text_patch tr_write 1 function_profile_enabled; }
prof_pause() { text_patch tr_write 0 function_profile_enabled; }
prof_stop() {
	text_patch tr_write 0 function_profile_enabled 2> /dev/null || true
	echo > $PROF_TR/set_ftrace_filter 2> /dev/null || true
}
# prof_hits FN: calls to FN counted since prof_start, all CPUs.  The
# profiler prints names cut to 30 characters; among the functions above
# those prefixes are still unique.
prof_hits() { prof_count "$1" $PROF_TR/trace_stat/function*; }
# prof_hits_cpu CPU FN: the same, counted on CPU alone.
prof_hits_cpu() { prof_count "$2" $PROF_TR/trace_stat/function"$1"; }
prof_count() { # prof_count FN FILE...
	local f=$1
	shift
	cat "$@" 2> /dev/null |
		awk -v f="$f" '$1 == substr(f, 1, 30) { n += $2 } END { print n + 0 }'
}

# The function tracer, for what a count cannot tell: the order of calls on
# one task.  Each event is "TASK-PID [CPU] FLAGS TIME: FN <-CALLER".
# ftr_start FN...: trace these functions (each one must be traceable) into
# a cleared buffer of FTR_KB KiB per CPU; ftr_stop: stop, keep the buffer
# for ftr_dump; ftr_reset: no tracer, no filter, the buffer's old size.
#
# Arming and resetting the tracer rewrites the functions' first
# instruction on a live kernel (an int3, then the call).  Under TCG with
# several CPUs, doing so while another CPU runs the function in a tight
# loop once crashed the guest: a CPU still executed the int3 after the
# kernel's last sync ("int3: 0000 [#1]" in _raw_spin_lock_bh, mid-load).
# So the tracer is armed and reset while the guest is quiet, and a window
# of a running load is recorded with ftr_arm before the load and
# ftr_window during it, which only switch the ring buffer on and off.
# Quiet was not enough: the scheduler's own rcu_note_context_switch(),
# which every CPU runs all the time, once crashed a guest the same way
# as the tracer was reset after the load ("Fatal exception in interrupt"
# at rcu_note_context_switch+0x1).  So under TCG the text is rewritten
# with the other CPUs offline (text_patch), where no CPU can run it.
FTR_KB=8192
# text_patch CMD...: run CMD, a write that makes the kernel rewrite its
# text (arming or resetting a tracer or the profiler); under TCG
# (wgt_accel, from boot.sh) with every CPU but the boot CPU offline for
# it, and back online after.  On KVM or bare metal the CPU keeps its
# instruction caches coherent: CMD runs as it is.
text_patch() {
	local c off= rc=0
	if [ "${wgt_accel:-tcg}" = tcg ]; then
		for c in /sys/devices/system/cpu/cpu[1-9]*; do
			[ -w "$c/online" ] && [ "$(cat "$c/online")" = 1 ] || continue
			echo 0 > "$c/online" || fail "${c##*/} could not be taken offline to rewrite kernel text"
			off="$off $c"
		done
	fi
	"$@" || rc=$?
	for c in $off; do
		echo 1 > "$c/online" || fail "${c##*/} did not come back online after the kernel's text was rewritten"
	done
	return $rc
}
# tr_write VALUE FILE: VALUE into the tracing file FILE.
tr_write() { echo "$1" > "$PROF_TR/$2"; }
ftr_start() {
	ftr_arm "$@"
	echo 1 > $PROF_TR/tracing_on
}
# ftr_arm FN...: as ftr_start, with the ring buffer still off.
ftr_arm() {
	local f
	for f in "$@"; do
		prof_traceable "$f" || fail "$f cannot be traced: the order of calls cannot be judged"
	done
	# "7 (expanded: 1408)" until the buffer was first used.
	FTR_OLD_KB=$(awk '{ v = $1 } /expanded/ { v = $3; sub(/\)/, "", v) } END { print v }' \
		$PROF_TR/buffer_size_kb)
	echo 0 > $PROF_TR/tracing_on
	echo nop > $PROF_TR/current_tracer
	: > $PROF_TR/set_ftrace_filter
	for f in "$@"; do echo "$f" >> $PROF_TR/set_ftrace_filter; done
	echo $FTR_KB > $PROF_TR/buffer_size_kb
	: > $PROF_TR/trace
	text_patch tr_write function current_tracer || fail "no function tracer in this kernel"
}
# ftr_window OUT SECONDS: record SECONDS of the armed functions into a
# cleared buffer, then write the events to OUT as ftr_dump does, and
# FTR_LOST.  The tracer stays armed, for ftr_reset once the load is over.
ftr_window() {
	: > $PROF_TR/trace
	echo 1 > $PROF_TR/tracing_on
	sleep "$2"
	ftr_save "$1"
}
ftr_stop() { echo 0 > $PROF_TR/tracing_on; }
# ftr_save OUT: stop, FTR_LOST, and the events to OUT as ftr_dump writes them.
ftr_save() {
	ftr_stop
	FTR_LOST=$(ftr_lost)
	ftr_dump > "$1"
}
ftr_reset() {
	echo 0 > $PROF_TR/tracing_on 2> /dev/null || true
	text_patch tr_write nop current_tracer 2> /dev/null || true
	echo > $PROF_TR/set_ftrace_filter 2> /dev/null || true
	[ -z "${FTR_OLD_KB:-}" ] || echo "$FTR_OLD_KB" > $PROF_TR/buffer_size_kb 2> /dev/null || true
	echo 1 > $PROF_TR/tracing_on 2> /dev/null || true
}
# A crypt worker taking a batch off its ring, as the tracer sees it: the
# caller of that spin_lock_bh(), ptr_ring_consume*_bh() inlined into the
# worker or not.
FTR_BATCH_CALLER='^(wg_packet_(en|de)crypt_worker|ptr_ring_consume(_batched)?_bh)$'
# ftr_record OUT FNS CMD...: trace the functions FNS (one word, a list)
# while CMD runs; the events go to OUT as ftr_dump writes them, and
# FTR_LOST gets how many the buffer dropped.
ftr_record() {
	local out=$1 fns=$2
	shift 2
	ftr_start $fns
	"$@"
	ftr_save "$out"
	ftr_reset
}
# ftr_lost: events the buffer dropped since ftr_start, all CPUs.
ftr_lost() {
	cat $PROF_TR/per_cpu/cpu*/stats | awk '/^overrun:/ { n += $2 } END { print n + 0 }'
}
# ftr_dump: the events, one per line: PID TASKCTX RESCHED FN CALLER, where
# TASKCTX is 1 in task context and 0 in an interrupt or softirq (the third
# character of the flags), RESCHED is 0 when no reschedule was due, 1 when
# only the task's TIF_NEED_RESCHED was set (n: what need_resched() reads)
# and 2 when the CPU's preempt count has it too (N: what preemption and
# cond_resched() act on; a remote wakeup sets it at the next interrupt),
# and CALLER has no "<-".
ftr_dump() {
	awk '/^#/ || NF < 6 { next }
		{ c = $NF; sub(/^<-/, "", c); fl = $(NF - 3)
		  t = substr($0, 1, index($0, "[") - 1); sub(/ +$/, "", t); sub(/.*-/, "", t)
		  r = substr(fl, 2, 1)
		  print t, (substr(fl, 3, 1) == "." ? 1 : 0), (r == "N" ? 2 : r == "n" ? 1 : 0),
			$(NF - 1), c }' $PROF_TR/trace
}

# kernel_fixed CASE: the kernel carries the fix netns case CASE names in
# its '# fixed-by:' line (the host says so on the command line, wgt_fixed).
kernel_fixed() {
	case ",${wgt_fixed:-}," in *",$1,"*) return 0 ;; esac
	return 1
}

# dropped_nothing A B [IFACE]: WireGuard between A and B (IFACE, default
# wg0; PUB_A and PUB_B its keys) dropped nothing it should have accepted,
# for the end of a case that sent it only genuine packets.  A data
# message that fails authentication is dropped by 6.1's WireGuard without
# a counter or a log line (receive.c), and TCP sends its payload again, so
# digests and payload byte counts cannot see a kernel that corrupts one
# packet in a thousand; the peers' own counters can: every byte one side
# sent the other (its peer's tx) was accepted there (the other's rx for
# it), in one reading taken once nothing is in flight, and neither
# interface counted a receive error.  (The entry fails any case that made
# WireGuard log an invalid packet, unless it says it sends such packets.)
# A veth underlay loses nothing, and a case that drives this check keeps
# WireGuard's queues from overflowing (TCP, or pings that wait for their
# replies): its only excuse for a gap would be a full decryption queue,
# which a flood (iperf3 UDP -b 0) may fill.
dropped_nothing() {
	local a=$1 b=$2 dev=${3:-wg0} x bad
	wait_for 10 accounts_balance "$a" "$b" "$dev" ||
		fail "WireGuard accepted less than was sent to it: $(balance_reading "$a" "$b" "$dev") (no reading balanced within 10 s)"
	for x in "$a" "$b"; do
		bad=$(dev_stat "$x" "$dev" rx_errors)
		[ "$bad" = 0 ] || fail "$dev in $x counted $bad receive errors"
	done
	pass "$dev dropped nothing: $(balance_reading "$a" "$b" "$dev"), no receive errors"
}
# balance_reading A B IFACE: what each side sent and the other accepted,
# from one reading (the receiver's counter read before the sender's, so a
# message in flight shows as sent and not yet accepted).
balance_reading() {
	local na=$1 nb=$2 dev=$3
	set -- $(transfer "$nb" "$dev" "$PUB_A") $(transfer "$na" "$dev" "$PUB_B")
	echo "$na sent $4 bytes, $nb accepted $1; $nb sent $2, $na accepted $3"
}
accounts_balance() {
	set -- $(transfer "$2" "$3" "$PUB_A") $(transfer "$1" "$3" "$PUB_B")
	[ "$#" = 4 ] && [ "$1" = "$4" ] && [ "$2" = "$3" ]
}
# kmsg_mark: a unique line in the kernel log; kmsg_since prints what the
# kernel logged after it (WireGuard's debug messages included).
kmsg_mark() {
	KMSG_MARK="wgt-mark-$$-$(date +%s)"
	echo "$KMSG_MARK" > /dev/kmsg
}
kmsg_since() { dmesg | sed -n "/$KMSG_MARK/,\$p"; }

# randkeys N SEED: N distinct well-formed public keys (random 32-byte
# values in base64, not valid points: enough for peers that never talk).
randkeys() {
	awk -v n="$1" -v seed="$2" 'BEGIN {
		srand(seed)
		b = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
		last = "AEIMQUYcgkosw048"	# 43rd character: its low 2 bits are padding, zero
		for (k = 0; k < n; k++) {
			s = ""
			for (i = 0; i < 42; i++)
				s = s substr(b, int(rand() * 64) + 1, 1)
			print s substr(last, int(rand() * 16) + 1, 1) "="
		}
	}'
}

# Protocol timers on the wire (the timers suite, on virtual time).  The
# relay's timeline (mitm_pair TIMELINE) has a line a message: "SECONDS DIR
# TYPE LEN SENDER RECEIVER COUNTER fwd|held MAC2" (guest-image/tools/wgmitm.c;
# MAC2: mac2 or nomac2 for a handshake initiation or response, else -).
#
# race_tunnels K NAME NET PORT_A PORT_B: K tunnels NAME1..NAMEK between
# namespaces a and b, over one veth (10.0.0.1 in a, 10.0.0.2 in b), for
# the race cases: tunnel i listens on PORT_A + i in a and PORT_B + i in b,
# inner 10.NET.i.1/24 (a) and 10.NET.i.2 (b); a has b's endpoint, b learns
# a's from the handshake.  pub_i: b's public key of tunnel i.  One wg call
# per interface, the links and addresses in ip batches: the setup's time
# is mostly process starts under TCG.
race_tunnels() {
	local k=$1 name=$2 net=$3 pa0=$4 pb0=$5 i=1 ka pa kb pb
	ns_add a
	ns_add b
	veth_pair a b
	ip -n "$(nsname a)" addr add 10.0.0.1/24 dev veth-a
	ip -n "$(nsname b)" addr add 10.0.0.2/24 dev veth-b
	seq 1 "$k" | sed "s/.*/link add $name& type wireguard/" > /tmp/"$ns_prefix".links
	ip -n "$(nsname a)" -batch /tmp/"$ns_prefix".links
	ip -n "$(nsname b)" -batch /tmp/"$ns_prefix".links
	: > /tmp/"$ns_prefix".ipa
	: > /tmp/"$ns_prefix".ipb
	while [ $i -le "$k" ]; do
		keypair
		ka=$PRIV pa=$PUB
		keypair
		kb=$PRIV pb=$PUB
		on a wg set "$name$i" private-key "$(keyfile "$ka")" listen-port $((pa0 + i)) \
			peer "$pb" endpoint 10.0.0.2:$((pb0 + i)) allowed-ips "10.$net.$i.2/32"
		on b wg set "$name$i" private-key "$(keyfile "$kb")" listen-port $((pb0 + i)) \
			peer "$pa" allowed-ips "10.$net.$i.1/32"
		printf 'addr add 10.%s.%d.1/24 dev %s%d\nlink set %s%d up\n' "$net" $i "$name" $i "$name" $i >> /tmp/"$ns_prefix".ipa
		printf 'addr add 10.%s.%d.2/24 dev %s%d\nlink set %s%d up\n' "$net" $i "$name" $i "$name" $i >> /tmp/"$ns_prefix".ipb
		eval "pub_$i=\$pb"
		i=$((i + 1))
	done
	ip -n "$(nsname a)" -batch /tmp/"$ns_prefix".ipa
	ip -n "$(nsname b)" -batch /tmp/"$ns_prefix".ipb
}

# timers_pair: every timers case's setup: a and b joined through a wgmitm
# relay in m (mitm_pair) writing its timeline to $tl; waits poll once a
# second (WAIT_STEP: on virtual time each poll costs guest time).
timers_pair() {
	WAIT_STEP=1
	tl=/tmp/$ns_prefix.timeline
	ns_add a
	ns_add m
	ns_add b
	mitm_pair a m b "$tl"
}

# tl_times FILE DIR TYPE [MINLEN [MAXLEN [FROM [TO]]]]: the times of the
# messages of TYPE in DIR (a2b, b2a), of MINLEN to MAXLEN bytes, seen at
# FROM to TO seconds (the relay's clock), one a line.
tl_times() {
	awk -v d="$2" -v t="$3" -v lo="${4:-0}" -v hi="${5:-65535}" \
		-v from="${6:-0}" -v to="${7:-1e12}" \
		'$2 == d && $3 == t && $4 >= lo && $4 <= hi && $1 >= from && $1 <= to { print $1 }' "$1"
}
# tl_count FILE DIR TYPE [MINLEN [MAXLEN [FROM [TO]]]]: how many.
tl_count() { tl_times "$@" | wc -l; }
# tl_seen N FILE DIR TYPE...: at least N of them (for wait_for).
tl_seen() {
	local want=$1
	shift
	[ "$(tl_count "$@")" -ge "$want" ]
}
# tl_show FILE [FROM]: the timeline from FROM seconds on, for a failure's
# diagnostics.
tl_show() { awk -v f="${2:-0}" '$1 >= f' "$1" | tail -n 60 | sed 's/^/timeline: /'; }
# tl_now: the relay's clock (CLOCK_MONOTONIC), in seconds.
tl_now() { awk '{ print $1 }' /proc/uptime; }

# timer_late_ms SECONDS: how late, at most, a kernel timer set SECONDS
# ahead may fire, in ms.  The timer wheel (kernel/time/timer.c) rounds an
# expiry up to the granularity of the level it lands in: level n holds
# timers from 63 * 8^(n-1) jiffies ahead, in steps of 8^n jiffies (so
# about an eighth of a long timer: 2 s of a 120 s one at HZ=250), plus the
# jiffy it is armed in.  wgt_hz (the host passes the kernel's CONFIG_HZ)
# gives the jiffy; a kernel whose tick rate is unknown gets the bound for
# the coarsest of HZ=100, 250, 300 and 1000.  Plus 50 ms for the softirq,
# the send and the relay (virtual time runs on while the guest works).
timer_late_ms() {
	awk -v s="$1" -v hz="${wgt_hz:-}" 'BEGIN {
		n = split(hz != "" ? hz : "100 250 300 1000", h, " ")
		worst = 0
		for (i = 1; i <= n; i++) {
			# (busybox awk has no ^.)
			j = s * h[i]; g = 1; start = 63
			for (lvl = 1; lvl < 9 && j >= start; lvl++) { g *= 8; start *= 8 }
			ms = (g + 1) * 1000 / h[i]
			if (ms > worst) worst = ms
		}
		printf "%d\n", worst + 50
	}'
}
# within T0 T1 SECONDS EXTRA_MS: T1 - T0 is SECONDS, up to the timer
# wheel's lateness for it (timer_late_ms) and EXTRA_MS more (jitter the
# code adds), never earlier (1 ms for the clocks' rounding).
within() {
	awk -v a="$1" -v b="$2" -v s="$3" -v late="$(timer_late_ms "$3")" -v x="${4:-0}" \
		'BEGIN { d = (b - a) * 1000; exit !(d >= s * 1000 - 1 && d <= s * 1000 + late + x) }'
}

# The peer suite (netns-tests/peer): the harness's own WireGuard peer
# (guest-image/peer, /usr/bin/wgpeer) in b against wg0 in a (the
# kernel's, or wireguard-go's with WG_GO=a).
# peer_pair A B: wg_pair A B, then B's wg0 removed: wgpeer takes its keys
# (KEY_B, PUB_B), its port 51821 and its inner address 192.168.241.2.
# PEER_RUN: wgpeer run as that peer, against A's wg0 (keys and paths
# without spaces), its transcript appended to $PEER_TR.
peer_pair() {
	ns_add "$1"
	ns_add "$2"
	wg_pair "$1" "$2"
	ip -n "$ns_prefix-$2" link del wg0
	PEER_TR=/tmp/$ns_prefix.transcript
	PEER_RUN="/usr/bin/wgpeer run --listen 51821 --peer 10.0.0.1:51820 --key $KEY_B
		--peer-key $PUB_A --inner 192.168.241.2,192.168.241.1 --transcript $PEER_TR"
}
# wgpeer STEP...: that peer in b (guest-image/peer/wgpeer.c lists the
# steps).  wgpeer_bg STEP...: the same in the background (BG_PID), its
# output in /tmp/$ns_prefix.peer.out.
# shellcheck disable=SC2086 # PEER_RUN is words
wgpeer() { on b $PEER_RUN "$@"; }
# shellcheck disable=SC2086
wgpeer_bg() { bg b $PEER_RUN "$@" > /tmp/"$ns_prefix".peer.out 2>&1; }
# tr_count DIR TYPE LEN: messages of TYPE and LEN bytes the transcript
# has in DIR (send, recv).
tr_count() {
	awk -v d="$1" -v t="$2" -v l="$3" '$2 == d && $4 == t && $6 == l { n++ } END { print n + 0 }' "$PEER_TR"
}
# The flood (wgpeer flood): initiations with a valid mac1 from port 51822
# until a's WireGuard is under load; its progress lines (4 a second) in
# $FLOOD_OUT.  flood_replies: the cookie replies it got
# so far.  flood_loaded N: at least N.  flood_stop: ended, its last line.
# flood_start [SECONDS [NS ADDRESS]]: from NS (b) to a's wg0 at ADDRESS
# (10.0.0.1, peer_pair's).
flood_start() {
	FLOOD_OUT=/tmp/$ns_prefix.flood
	local window=1536
	[ "${WG_GO:-}" != a ] || window=512
	bg "${2:-b}" /usr/bin/wgpeer flood --listen 51822 --peer "${3:-10.0.0.1}:51820" \
		--peer-key "$PUB_A" --window $window "${1:-600}" > "$FLOOD_OUT" 2>&1
	FLOOD_PID=$BG_PID
}
flood_replies() {
	awk '$1 == "progress" || $1 == "done" { n = $5 } END { print n + 0 }' "$FLOOD_OUT"
}
flood_loaded() { [ "$(flood_replies)" -ge "$1" ]; }
# flood_lines: its progress lines so far; flood_mark: wait for the next
# one (4 a second), so that a count read after it covers what came before.
flood_lines() { grep -c '^progress' "$FLOOD_OUT" || true; }
# flood_steady LINE: from its progress line LINE on, every quarter of a
# second brought cookie replies: the responder was under load throughout
# (a lapse, the queue short for over a second, stops them).
flood_steady() {
	grep '^progress' "$FLOOD_OUT" | awk -v from="$1" 'NR >= from { if (NR > from && $5 <= last) bad = 1; last = $5 } END { exit bad }'
}
flood_mark() {
	local n
	n=$(flood_lines)
	wait_for 10 flood_past "$n" || fail "the flood stopped reporting"
}
flood_past() { [ "$(flood_lines)" -gt "$1" ]; }
flood_stop() {
	stop "$FLOOD_PID"
	tail -n 1 "$FLOOD_OUT"
}
