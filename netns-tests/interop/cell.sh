#!/bin/sh
# One cell of the interop matrix: an initiator of implementation IMPL_I and a
# responder of implementation IMPL_R ("kernel" or "go") bring up a tunnel,
# without and then with a preshared key, and must agree; then two
# misconfigurations must keep them from agreeing.  KTAP on stdout.
#
#   cell.sh local IMPL_I IMPL_R
#       both ends in this guest, in namespaces joined by a veth pair
#   cell.sh remote IMPL_I IMPL_R
#       the initiator here (root namespace, underlay 10.99.0.1 already up),
#       the responder on the other guest (10.99.0.2), driven through the
#       control agent (agent.sh) listening there on TCP 9000
#
# cases: handshake|ping both ways|transfer digest both ways|re-handshake|psk: handshake|psk: ping both ways|psk: transfer digest both ways|psk: re-handshake|psk mismatch: no handshake|wrong peer key: no handshake
set -e -o pipefail
export LC_ALL=C

lib=/tests/netns/interop/endpoint.sh
. "$lib"
die() { echo "interop: $*" >&2; exit 2; }

[ $# = 3 ] || die "usage: cell.sh local|remote IMPL_I IMPL_R"
mode=$1 impl_i=$2 impl_r=$3
for x in "$impl_i" "$impl_r"; do
	case "$x" in kernel|go) ;; *) die "unknown implementation '$x' (kernel, go)" ;; esac
done

# Interface names differ: two wireguard-go ends share /var/run/wireguard.
ifc_i=wgi ifc_r=wgr
port_i=51820 port_r=51821
in4_i=192.168.241.1 in4_r=192.168.241.2
in6_i=fd00:241::1 in6_r=fd00:241::2
ns_i=interop-i ns_r=interop-r

cleanup() {
	set +e
	if [ "$mode" = local ]; then
		/usr/bin/ip netns exec $ns_i sh -c ". $lib; ep_down $ifc_i" 2> /dev/null
		/usr/bin/ip netns exec $ns_r sh -c ". $lib; ep_down $ifc_r" 2> /dev/null
		/usr/bin/ip netns del $ns_i 2> /dev/null
		/usr/bin/ip netns del $ns_r 2> /dev/null
	else
		ep_down $ifc_i
		r ep_down $ifc_r > /dev/null 2>&1
	fi
	killall wgt-xfer 2> /dev/null
}
trap cleanup EXIT
trap 'exit 143' INT TERM

# i OP ARGS / r OP ARGS: run an endpoint operation at the initiator / the
# responder; its stdout is theirs, a failure comes back as a non-zero exit
# with the message on stderr.
if [ "$mode" = local ]; then
	under_i=10.0.0.1 under_r=10.0.0.2
	i() { /usr/bin/ip netns exec $ns_i sh -c ". $lib; \"\$@\"" sh "$@"; }
	r() { /usr/bin/ip netns exec $ns_r sh -c ". $lib; \"\$@\"" sh "$@"; }
	/usr/bin/ip netns add $ns_i
	/usr/bin/ip netns add $ns_r
	/usr/bin/ip -n $ns_i link set lo up
	/usr/bin/ip -n $ns_r link set lo up
	/usr/bin/ip link add ivx type veth peer name rvx
	/usr/bin/ip link set ivx netns $ns_i name veth0
	/usr/bin/ip link set rvx netns $ns_r name veth0
	/usr/bin/ip -n $ns_i addr add $under_i/24 dev veth0
	/usr/bin/ip -n $ns_r addr add $under_r/24 dev veth0
	/usr/bin/ip -n $ns_i link set veth0 up
	/usr/bin/ip -n $ns_r link set veth0 up
elif [ "$mode" = remote ]; then
	under_i=10.99.0.1 under_r=10.99.0.2
	i() { sh -c ". $lib; \"\$@\"" sh "$@"; }
	# The agent answers with the operation's output and a last line rc=N.
	r() {
		local out rc
		out=$(echo "$*" | /usr/bin/wgt-xfer send $under_r 9000 2> /tmp/agent.err) ||
			{ echo "control agent at $under_r: $(cat /tmp/agent.err)" >&2; return 1; }
		rc=$(echo "$out" | sed -n '$s/^rc=//p')
		echo "$out" | sed '$d' > /tmp/agent.out
		if [ "$rc" = 0 ]; then
			cat /tmp/agent.out
		else
			cat /tmp/agent.out >&2
			return "${rc:-1}"
		fi
	}
	wait_for 240 r true || die "no control agent at $under_r:9000 after 240 s"
else
	die "unknown mode '$mode' (local, remote)"
fi

n=0
failed=0
# check NAME FUNCTION: run FUNCTION in a subshell, report it as case NAME
# with its messages as diagnostics.  set -e does not hold in a function
# whose status is tested, so every step below ends in "|| return 1".
check() {
	local rc=0 t0
	n=$((n + 1))
	t0=$(date +%s)
	( "$2" ) > /tmp/check.log 2>&1 || rc=$?
	echo "($(($(date +%s) - t0)) s)" >> /tmp/check.log
	[ $rc = 0 ] || [ "$(wc -l < /tmp/check.log)" -gt 1 ] || echo "failed (exit $rc) without a message" >> /tmp/check.log
	sed 's/^/# /' /tmp/check.log
	if [ $rc = 0 ]; then
		echo "ok $n $1"
	else
		echo "not ok $n $1"
		failed=$((failed + 1))
	fi
}

key_i=$(wg genkey) key_r=$(wg genkey)
pub_i=$(echo "$key_i" | wg pubkey) pub_r=$(echo "$key_r" | wg pubkey)

echo "KTAP version 1"
echo "1..10"
echo "# initiator: $impl_i ($pub_i), responder: $impl_r ($pub_r), $mode"
i ep_up $impl_i $ifc_i "$key_i" $port_i $in4_i $in6_i
r ep_up $impl_r $ifc_r "$key_r" $port_r $in4_r $in6_r

# peers PSK_I PSK_R [PUB_R_AS_SEEN_BY_I]: (re)configure both ends' peers;
# only the initiator knows an endpoint, the responder learns it.
peers() {
	i ep_unpeer $ifc_i "${3:-$pub_r}" 2> /dev/null || true
	i ep_unpeer $ifc_i "$pub_r" 2> /dev/null || true
	r ep_unpeer $ifc_r "$pub_i" 2> /dev/null || true
	i ep_peer $ifc_i "${3:-$pub_r}" $under_r:$port_r $in4_r/32,$in6_r/128 "$1"
	r ep_peer $ifc_r "$pub_i" none $in4_i/32,$in6_i/128 "$2"
}
hs_both() { [ "$(i ep_hs $ifc_i)" -gt 0 ] && [ "$(r ep_hs $ifc_r)" -gt 0 ]; }

t_handshake() {
	# The first ping waits for the handshake: poll.
	wait_for 60 i ep_ping $in4_r 1 || { echo "no reply through the tunnel in 60 s"; return 1; }
	wait_for 10 hs_both || { echo "latest handshake: initiator $(i ep_hs $ifc_i), responder $(r ep_hs $ifc_r)"; return 1; }
	echo "handshake at $(i ep_hs $ifc_i) (initiator), $(r ep_hs $ifc_r) (responder)"
}
t_ping() {
	i ep_ping $in4_r 3 || return 1
	i ep_ping $in6_r 3 || return 1
	r ep_ping $in4_i 3 || return 1
	r ep_ping $in6_i 3 || return 1
	echo "3 pings each way, v4 and v6"
}
# xfer FROM TO TO_ADDR: 1 MiB of random bytes, digests compared.
xfer() {
	local sent got
	$2 ep_recv_start 9100 || return 1
	sent=$($1 ep_send "$3" 9100 1048576) || { $2 ep_recv_stop; return 1; }
	got=$($2 ep_recv_digest 9100) || return 1
	[ -n "$sent" ] && [ "$sent" = "$got" ] || { echo "digest mismatch: sent $sent, received $got"; return 1; }
	echo "1 MiB $1 -> $2: sha256 $got on both ends"
}
t_xfer() {
	xfer i r $in4_r || return 1
	xfer r i $in6_i || return 1
}
# A re-handshake: the initiator forgets the responder (and its sessions)
# and comes back; the responder must accept a fresh initiation from a peer
# it still holds a session with.  WireGuard keeps seconds, so the new
# handshake is told apart by waiting for a later second first.
t_rehandshake() {
	local before
	before=$(r ep_hs $ifc_r) || return 1
	wait_for 5 sh -c "[ \$(date +%s) -gt $before ]" || return 1
	i ep_unpeer $ifc_i "$pub_r" || return 1
	i ep_peer $ifc_i "$pub_r" $under_r:$port_r $in4_r/32,$in6_r/128 "${psk:-none}" || return 1
	wait_for 60 i ep_ping $in4_r 1 || { echo "no reply after the re-handshake"; return 1; }
	hs_later() { [ "$(r ep_hs $ifc_r)" -gt "$before" ]; }
	wait_for 10 hs_later || { echo "responder's handshake still at $(r ep_hs $ifc_r), was $before"; return 1; }
	echo "responder's latest handshake $before -> $(r ep_hs $ifc_r)"
}
# no_handshake WHAT: after the responder received initiations (and, with
# ANSWERED=1, the initiator got answers), neither end reports a handshake
# and the tunnel carries nothing.
t_negative() {
	local ui ur
	ui=$(i ep_udp_in) && ur=$(r ep_udp_in) || return 1
	i ep_ping_none $in4_r 4 || return 1
	got_more() { [ "$($1 ep_udp_in)" -gt "$2" ]; }
	got_more r "$ur" || { echo "the responder received nothing: the check proves nothing"; return 1; }
	if [ "$answered" = 1 ]; then
		wait_for 10 got_more i "$ui" || { echo "the responder never answered"; return 1; }
	fi
	[ "$(i ep_hs $ifc_i)" = 0 ] && [ "$(r ep_hs $ifc_r)" = 0 ] ||
		{ echo "a handshake completed: initiator $(i ep_hs $ifc_i), responder $(r ep_hs $ifc_r)"; return 1; }
	echo "responder took in $(($(r ep_udp_in) - ur)) datagrams, initiator $(($(i ep_udp_in) - ui)); no handshake, no reply"
}

psk=
peers none none
check "handshake" t_handshake
check "ping both ways" t_ping
check "transfer digest both ways" t_xfer
check "re-handshake" t_rehandshake

psk=$(wg genpsk)
peers "$psk" "$psk"
check "psk: handshake" t_handshake
check "psk: ping both ways" t_ping
check "psk: transfer digest both ways" t_xfer
check "psk: re-handshake" t_rehandshake

# The responder answers an initiation before the preshared key matters; the
# initiator then cannot open the answer.
peers "$psk" "$(wg genpsk)"
answered=1
check "psk mismatch: no handshake" t_negative
# Keyed to the wrong public key, the initiation fails the responder's mac1
# check and is dropped unanswered.
wrong=$(wg genkey | wg pubkey)
peers none none "$wrong"
answered=0
check "wrong peer key: no handshake" t_negative
i ep_unpeer $ifc_i "$wrong" || true

[ $failed = 0 ]
