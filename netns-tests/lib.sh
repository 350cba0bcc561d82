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

# Namespaces are named after the case, so a leak names its owner.
ns_prefix=wgt-$$
created_ns=
bg_pids=

cleanup() {
	local p x
	set +e
	for p in $bg_pids; do kill "$p" 2> /dev/null; done
	for p in $bg_pids; do wait "$p" 2> /dev/null; done
	for x in $created_ns; do ip netns del "$x" 2> /dev/null; done
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
# bg NAME CMD...: as on(), in the background; killed at cleanup.
bg() {
	local ns=$ns_prefix-$1
	shift
	log "[$ns] $* &"
	ip netns exec "$ns" "$@" &
	bg_pids="$bg_pids $!"
}

# wait_for SECONDS CMD...: poll CMD every 0.1 s until it succeeds.
wait_for() {
	local deadline=$(($1 * 10))
	shift
	while ! "$@" > /dev/null 2>&1; do
		deadline=$((deadline - 1))
		[ $deadline -gt 0 ] || return 1
		sleep 0.1
	done
}

# tcp_listening NS PORT: something listens on TCP PORT in NS.
tcp_listening() {
	ip netns exec "$ns_prefix-$1" /usr/bin/ss -Htln "sport = :$2" | grep -q .
}

# latest_handshake NS IFACE PEER: seconds since the epoch, 0 if none.
latest_handshake() {
	ip netns exec "$ns_prefix-$1" /usr/bin/wg show "$2" latest-handshakes |
		awk -v p="$3" '$1 == p { print $2 }'
}
has_handshake() { [ "$(latest_handshake "$@")" -gt 0 ] 2> /dev/null; }

# transfer NS IFACE PEER: prints "RX TX" bytes for PEER.
transfer() {
	ip netns exec "$ns_prefix-$1" /usr/bin/wg show "$2" transfer |
		awk -v p="$3" '$1 == p { print $2, $3 }'
}

# veth_pair A B: a veth link between namespaces A and B, both ends up,
# named veth-A / veth-B inside them.
veth_pair() {
	ip link add "vt$$a" type veth peer name "vt$$b"
	ip link set "vt$$a" netns "$ns_prefix-$1" name "veth-$1"
	ip link set "vt$$b" netns "$ns_prefix-$2" name "veth-$2"
	ip -n "$ns_prefix-$1" link set "veth-$1" up
	ip -n "$ns_prefix-$2" link set "veth-$2" up
}

# wg_pair A B: the usual two-peer setup.  Underlay 10.0.0.1/24 (A) and
# 10.0.0.2/24 (B) on a veth, fd00::1/2; wg0 in each with fresh keys,
# listening on 51820 (A) and 51821 (B), inner 192.168.241.1-2/24 and
# fd00:241::1-2/64.  Sets PUB_A, PUB_B.  OUTER=6 puts the endpoints on v6.
wg_pair() {
	local a=$1 b=$2 key_a key_b
	veth_pair "$a" "$b"
	ip -n "$ns_prefix-$a" addr add 10.0.0.1/24 dev "veth-$a"
	ip -n "$ns_prefix-$b" addr add 10.0.0.2/24 dev "veth-$b"
	ip -n "$ns_prefix-$a" addr add fd00::1/64 dev "veth-$a" nodad
	ip -n "$ns_prefix-$b" addr add fd00::2/64 dev "veth-$b" nodad
	key_a=$(wg genkey)
	key_b=$(wg genkey)
	PUB_A=$(echo "$key_a" | wg pubkey)
	PUB_B=$(echo "$key_b" | wg pubkey)
	ip -n "$ns_prefix-$a" link add wg0 type wireguard
	ip -n "$ns_prefix-$b" link add wg0 type wireguard
	echo "$key_a" > /tmp/$ns_prefix-$a.key
	echo "$key_b" > /tmp/$ns_prefix-$b.key
	local ep_a=10.0.0.1:51820 ep_b=10.0.0.2:51821
	if [ "${OUTER:-4}" = 6 ]; then
		ep_a=[fd00::1]:51820
		ep_b=[fd00::2]:51821
	fi
	on "$a" wg set wg0 private-key /tmp/$ns_prefix-$a.key listen-port 51820 \
		peer "$PUB_B" endpoint "$ep_b" allowed-ips 192.168.241.2/32,fd00:241::2/128
	on "$b" wg set wg0 private-key /tmp/$ns_prefix-$b.key listen-port 51821 \
		peer "$PUB_A" endpoint "$ep_a" allowed-ips 192.168.241.1/32,fd00:241::1/128
	rm -f /tmp/$ns_prefix-$a.key /tmp/$ns_prefix-$b.key
	ip -n "$ns_prefix-$a" addr add 192.168.241.1/24 dev wg0
	ip -n "$ns_prefix-$b" addr add 192.168.241.2/24 dev wg0
	ip -n "$ns_prefix-$a" addr add fd00:241::1/64 dev wg0 nodad
	ip -n "$ns_prefix-$b" addr add fd00:241::2/64 dev wg0 nodad
	ip -n "$ns_prefix-$a" link set wg0 up
	ip -n "$ns_prefix-$b" link set wg0 up
}

# iperf_tcp CLIENT SERVER SERVER_ADDR SECONDS [iperf3 args]: sets MBIT to
# the Mbit/s the receiver saw.  The server serves one test and exits.
iperf_tcp() {
	local c=$1 s=$2 addr=$3 secs=$4 mbit
	shift 4
	bg "$s" /usr/bin/iperf3 -s -1 -p 5201
	wait_for 10 tcp_listening "$s" 5201 || fail "iperf3 server did not start"
	on "$c" /usr/bin/iperf3 -c "$addr" -p 5201 -t "$secs" -f m "$@" > /tmp/$ns_prefix.iperf ||
		{ cat /tmp/$ns_prefix.iperf; fail "iperf3 to $addr failed"; }
	mbit=$(awk '/receiver/ { for (i = 1; i < NF; i++) if ($(i + 1) == "Mbits/sec") v = $i } END { print v }' \
		/tmp/$ns_prefix.iperf)
	rm -f /tmp/$ns_prefix.iperf
	[ -n "$mbit" ] || fail "no receiver throughput in iperf3 output"
	MBIT=$mbit
}
