# One end of an interop tunnel: the operations the cell driver
# (netns-tests/interop/cell.sh) runs on either side, locally in a network
# namespace or on the other guest through the control agent.  Sourced; every
# operation is a function taking plain words (keys are base64, no spaces).
#
# An end is an interface IFACE of implementation IMPL: "kernel" (the running
# kernel's WireGuard) or "go" (wireguard-go over /dev/net/tun, its UAPI
# socket under /var/run/wireguard, so two go ends need distinct names).
set -e -o pipefail
export LC_ALL=C

ep_die() { echo "endpoint: $*" >&2; exit 1; }

# wait_for SECONDS CMD...: poll CMD until it succeeds, SECONDS at most.
. /tests/netns/poll.sh

ep_go_ready() { [ -S "/var/run/wireguard/$1.sock" ] && /usr/bin/ip link show "$1"; }

# ep_up IMPL IFACE PRIVATE_KEY PORT ADDR4 ADDR6: the interface, keyed,
# listening on PORT, with the inner addresses, up.
ep_up() {
	local impl=$1 ifc=$2 key=$3 port=$4 a4=$5 a6=$6
	case "$impl" in
	kernel)
		/usr/bin/ip link add "$ifc" type wireguard ;;
	go)
		mkdir -p /var/run/wireguard
		# wireguard-go daemonizes; its log goes to a file, not to the
		# agent's connection.
		/usr/bin/wireguard-go "$ifc" < /dev/null > "/tmp/wireguard-go.$ifc.log" 2>&1 ||
			ep_die "wireguard-go $ifc failed: $(cat "/tmp/wireguard-go.$ifc.log")"
		wait_for 30 ep_go_ready "$ifc" || ep_die "wireguard-go $ifc: no UAPI socket after 30 s"
		;;
	*) ep_die "unknown implementation '$impl' (kernel, go)" ;;
	esac
	echo "$key" > "/tmp/$ifc.key"
	/usr/bin/wg set "$ifc" private-key "/tmp/$ifc.key" listen-port "$port"
	rm -f "/tmp/$ifc.key"
	/usr/bin/ip addr add "$a4/24" dev "$ifc"
	/usr/bin/ip addr add "$a6/64" dev "$ifc" nodad
	/usr/bin/ip link set "$ifc" up
}

# ep_down IFACE: remove it (wireguard-go exits when its TUN goes).
ep_down() {
	/usr/bin/ip link del "$1" 2> /dev/null || true
	wait_for 10 sh -c "! [ -S /var/run/wireguard/$1.sock ]" || true
}

# ep_peer IFACE PUBLIC_KEY ENDPOINT|none ALLOWED_IPS PSK|none
ep_peer() {
	local ifc=$1 pub=$2 ep=$3 allowed=$4 psk=$5
	set -- peer "$pub" allowed-ips "$allowed"
	[ "$ep" = none ] || set -- "$@" endpoint "$ep"
	if [ "$psk" != none ]; then
		echo "$psk" > "/tmp/$ifc.psk"
		set -- "$@" preshared-key "/tmp/$ifc.psk"
	fi
	/usr/bin/wg set "$ifc" "$@"
	rm -f "/tmp/$ifc.psk"
}

# ep_unpeer IFACE PUBLIC_KEY: forget the peer and its sessions.
ep_unpeer() { /usr/bin/wg set "$1" peer "$2" remove; }

# ep_hs IFACE: the latest handshake with the (only) peer, seconds since the
# epoch, 0 for none.
ep_hs() {
	local t
	t=$(/usr/bin/wg show "$1" latest-handshakes | awk 'NR == 1 { print $2 }')
	echo "${t:-0}"
}

# ep_udp_in: UDP datagrams taken in here (v4 + v6), WireGuard's included.
ep_udp_in() {
	cat /proc/net/snmp /proc/net/snmp6 | awk '
		$1 == "Udp:" && $2 == "InDatagrams" { for (i = 2; i <= NF; i++) if ($i == "InDatagrams") col = i; next }
		$1 == "Udp:" && col { n += $col }
		$1 == "Udp6InDatagrams" { n += $2 }
		END { print n + 0 }'
}

# ep_ping ADDR COUNT: COUNT pings, all answered.
ep_ping() {
	local got
	# ping fails when a reply is missing: the count says which.
	got=$(/usr/bin/ping -c "$2" -i 0.2 -W 2 "$1" 2>&1 | sed -n 's/.* \([0-9]*\) received.*/\1/p') || true
	[ "${got:-0}" = "$2" ] || ep_die "ping $1: ${got:-0} of $2 replies"
}

# ep_ping_none ADDR COUNT: COUNT pings, none answered.
ep_ping_none() {
	local got
	got=$(/usr/bin/ping -c "$2" -i 0.5 -W 1 "$1" 2>&1 | sed -n 's/.* \([0-9]*\) received.*/\1/p') || true
	[ "${got:-0}" = 0 ] || ep_die "ping $1: $got replies, expected none"
}

# ep_recv_start PORT: receive one TCP stream on PORT into /tmp/rx.PORT.
ep_recv_start() {
	rm -f "/tmp/rx.$1" "/tmp/rx.$1.done"
	( /usr/bin/wgt-xfer recv "$1" > "/tmp/rx.$1" 2> "/tmp/rx.$1.log"
	  echo $? > "/tmp/rx.$1.done" ) < /dev/null > /dev/null 2>&1 &
	wait_for 10 sh -c "/usr/bin/ss -Htln 'sport = :$1' | grep . > /dev/null" ||
		ep_die "receiver on port $1 did not start"
}

# ep_recv_digest PORT: wait for the stream to end; print its sha256.
ep_recv_digest() {
	wait_for 60 test -e "/tmp/rx.$1.done" || {
		killall wgt-xfer 2> /dev/null || true
		ep_die "stream on port $1 did not end"
	}
	[ "$(cat "/tmp/rx.$1.done")" = 0 ] || ep_die "receiving on port $1: $(cat "/tmp/rx.$1.log")"
	sha256sum < "/tmp/rx.$1" | cut -d' ' -f1
	rm -f "/tmp/rx.$1" "/tmp/rx.$1.done" "/tmp/rx.$1.log"
}

# ep_recv_stop: give up on a stream that will not come.
ep_recv_stop() { killall wgt-xfer 2> /dev/null || true; }

# ep_send ADDR PORT BYTES: send BYTES random bytes; print their sha256.
ep_send() {
	head -c "$3" /dev/urandom > /tmp/tx.dat
	# A dead tunnel would leave connect() to TCP's own minutes of retries.
	timeout 60 /usr/bin/wgt-xfer send "$1" "$2" < /tmp/tx.dat > /dev/null 2> /tmp/tx.log ||
		ep_die "sending to $1 port $2 failed or took over 60 s: $(cat /tmp/tx.log)"
	sha256sum < /tmp/tx.dat | cut -d' ' -f1
	rm -f /tmp/tx.dat /tmp/tx.log
}
