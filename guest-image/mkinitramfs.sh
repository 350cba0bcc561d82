#!/bin/bash
# Build the guest's initramfs from the installed Debian binaries.
#
#   guest-image/mkinitramfs.sh OUTPUT.cpio.gz
#
# Contents: our static /init (guest-image/init.c), busybox-static with its
# applets linked in /bin (except those that would shadow the real tools),
# Debian's wg, ip, ss, ping, iperf3 and wireguard-go with every shared
# library ldd names, and the test entries and scenarios under /tests.
# Rebuilt only when one of those inputs changed.
set -e -o pipefail
export LC_ALL=C

prog=guest-image/mkinitramfs.sh
die() { echo "$prog: $*" >&2; exit 1; }
msg() { echo "[image] $*"; }

top=$(cd "$(dirname "$0")/.." && pwd)
output=${1:-}
[ -n "$output" ] || die "usage: $prog OUTPUT.cpio.gz"

busybox=/bin/busybox
# Real tools, by the name the scenarios call them (always by full path:
# Debian's busybox shell runs its own 'ip' and 'ping' before $PATH).
tools="/usr/bin/wg /usr/bin/ip /usr/bin/ss /usr/bin/ping /usr/bin/iperf3 /usr/bin/wireguard-go /usr/sbin/nft"
for t in $busybox $tools; do
	[ -x "$t" ] || die "$t is missing (make deps installs busybox-static, wireguard-tools, iproute2, iputils-ping, iperf3, wireguard-go, nftables)"
done
file -L "$busybox" 2>/dev/null | grep 'statically linked' > /dev/null ||
	die "$busybox is not static: install busybox-static"
command -v cpio > /dev/null || die "cpio is missing"

# Only what runs inside the guest: the entries, the scenario library and cases.
test_files=$(cd "$top" && find guest-image/entry guest-image/tools guest-image/cross netns-tests/lib.sh netns-tests/poll.sh netns-tests/cases netns-tests/timers netns-tests/peer netns-tests/interop guest-image/peer -type f 2> /dev/null | sort)

key=$(
	{
		cat "$0" "$top/guest-image/init.c"
		for t in $busybox $tools; do sha256sum "$t"; done
		for f in $test_files; do echo "$f"; cat "$top/$f"; done
	} | sha256sum | cut -c1-16
)
# One build at a time per output (two runs at once share it); the image is
# replaced by a rename, so a guest booting from the old one is unharmed.
mkdir -p "$(dirname "$output")"
exec 9> "$output.lock"
if ! flock -n 9; then
	msg "another build of $output is running; waiting for it"
	flock 9
fi
if [ -r "$output" ] && [ "$(cat "$output.key" 2>/dev/null)" = "$key" ]; then
	msg "initramfs cached ($key)"
	exit 0
fi

for d in "${TMPDIR:-/tmp}" "$(dirname "$output")"; do
	free_mb=$(df -Pm "$d" | awk 'NR == 2 { print $4 }')
	[ "${free_mb:-0}" -ge 100 ] ||
		die "disk full: ${free_mb:-0} MB free in $d (the initramfs needs about 100 MB to build)"
done
stage=$(mktemp -d "${TMPDIR:-/tmp}/wgt-initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT

mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,lib64,dev,proc,sys,tmp,run,etc,tests,var}
ln -s ../run "$stage/var/run"
gcc -static -O2 -Wall -Wextra -Werror -o "$stage/init" "$top/guest-image/init.c" ||
	die "cannot build init (static glibc: libc6-dev)"

# Our own guest tools (guest-image/tools/NAME.c), static, as /usr/bin/NAME.
for c in "$top"/guest-image/tools/*.c; do
	[ -e "$c" ] || continue
	t=$(basename "$c" .c)
	gcc -static -O2 -Wall -Wextra -Werror -o "$stage/usr/bin/$t" "$c" ||
		die "cannot build guest tool $t"
done

# The zinc-selftest entry's reader of the kernel log: the program the
# cross images run as that entry (guest-image/cross/zinc-selftest.c), its
# case names from the shell entry's "# cases:" line, as there.
zcases=$(sed -n 's/^# cases: //p' "$top/guest-image/entry/zinc-selftest")
[ -n "$zcases" ] || die "no '# cases:' line in guest-image/entry/zinc-selftest"
gcc -static -O2 -Wall -Wextra -Werror "-DZINC_SELFTEST_CASES=\"$zcases\"" \
	-o "$stage/usr/bin/wgt-zinc-selftest" "$top/guest-image/cross/zinc-selftest.c" ||
	die "cannot build the zinc-selftest reader (guest-image/cross/zinc-selftest.c)"

# The harness's own WireGuard peer (guest-image/peer/), static on libsodium.
gcc -static -O2 -Wall -Wextra -Werror -o "$stage/usr/bin/wgpeer" \
	"$top/guest-image/peer/wgpeer.c" "$top/guest-image/peer/noise.c" -lsodium ||
	die "cannot build wgpeer (static libsodium: libsodium-dev)"

cp "$busybox" "$stage/bin/busybox"
for applet in $("$busybox" --list); do
	case "$applet" in
	busybox|ip|ss|ping|ping6|init|linuxrc) continue ;;
	esac
	ln -s busybox "$stage/bin/$applet"
done

copy_lib() {
	local lib=$1 dst
	dst=$stage$lib
	[ -e "$dst" ] && return 0
	mkdir -p "$(dirname "$dst")"
	cp -L "$lib" "$dst"
}
for t in $tools; do
	cp "$t" "$stage/usr/bin/"
	for lib in $(ldd "$t" | awk '/=>/ { print $3 } /^[[:space:]]*\// { print $1 }'); do
		copy_lib "$lib"
	done
done

echo "root:x:0:0:root:/tmp:/bin/sh" > "$stage/etc/passwd"
echo "root:x:0:" > "$stage/etc/group"
printf '127.0.0.1 localhost\n::1 localhost\n' > "$stage/etc/hosts"

mkdir -p "$stage/tests/entry" "$stage/tests/netns"
cp "$top"/guest-image/entry/* "$stage/tests/entry/"
cp -r "$top/netns-tests/lib.sh" "$top/netns-tests/poll.sh" "$top/netns-tests/cases" "$top/netns-tests/timers" "$top/netns-tests/peer" "$top/netns-tests/interop" "$stage/tests/netns/"
chmod +x "$stage"/tests/entry/*

mkdir -p "$(dirname "$output")"
(cd "$stage" && find . | sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$output.tmp"
mv "$output.tmp" "$output"
echo "$key" > "$output.key"
msg "initramfs built: $output ($(du -h "$output" | cut -f1), $key)"
