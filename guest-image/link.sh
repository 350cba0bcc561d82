# Host side, sourced by netns-tests/run.sh and bench/bench.sh: the virtual
# link a pair of guests shares.  It is a unix socket in a folder only this
# user can enter (mktemp -d makes it 0700), not a TCP port any local user
# could connect to and inject frames through, and two runs never meet on it.
#
#   link_new           a fresh folder; sets LINK_DIR and LINK_SOCK
#   link_netdev ROLE MAC
#                      QEMU arguments for one end: ROLE server (listens,
#                      boot it first) or client
#   link_wait PID      until the server's socket exists (PID: its boot)
#   link_done          removes the folder

link_new() {
	local tmp=${TMPDIR:-/tmp}
	# QEMU splits its options on commas, boot.sh splits them on blanks,
	# and a socket path has at most 107 bytes.
	case "$tmp" in *[,[:space:]]*) tmp=/tmp ;; esac
	[ ${#tmp} -le 80 ] || tmp=/tmp
	LINK_DIR=$(mktemp -d "$tmp/wgt-link.XXXXXX")
	LINK_SOCK=$LINK_DIR/sock
}

link_netdev() {
	local server=off
	[ "$1" != server ] || server=on
	echo "-netdev stream,id=link,server=$server,addr.type=unix,addr.path=$LINK_SOCK" \
		"-device virtio-net-pci,netdev=link,mac=$2"
}

link_wait() {
	local tries=300
	while [ ! -S "$LINK_SOCK" ] && [ $tries -gt 0 ] && kill -0 "$1" 2> /dev/null; do
		tries=$((tries - 1))
		sleep 0.1
	done
}

link_done() {
	[ -z "${LINK_DIR:-}" ] || rm -rf "$LINK_DIR"
	LINK_DIR=
}
