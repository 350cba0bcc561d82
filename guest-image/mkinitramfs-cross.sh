#!/bin/bash
# Build the minimal initramfs for a guest of another architecture.
#
#   guest-image/mkinitramfs-cross.sh ARCH OUTPUT.cpio.gz     (arm64, arm)
#
# Debian's busybox and tools are x86_64 binaries, so these guests carry only
# what the Zinc selftests need: our static /init (guest-image/init.c) and
# the zinc-selftest entry as a static program (guest-image/cross/), both
# cross-compiled with CROSS_COMPILE (default aarch64-linux-gnu- for arm64,
# arm-linux-gnueabihf- for arm).  Rebuilt only when an input changed.
set -e -o pipefail
export LC_ALL=C

prog=guest-image/mkinitramfs-cross.sh
die() { echo "$prog: $*" >&2; exit 1; }
msg() { echo "[image] $*"; }

top=$(cd "$(dirname "$0")/.." && pwd)
arch=${1:-}
output=${2:-}
[ -n "$arch" ] && [ -n "$output" ] || die "usage: $prog ARCH OUTPUT.cpio.gz (ARCH: arm64, arm)"
# The kernel builds' cross compiler (kernel_arch, kernel/kmake.sh).
. "$top/kernel/kmake.sh"
case "$arch" in
arm64 | arm) kernel_arch "$arch" - ;;
*) die "unknown ARCH '$arch' (arm64, arm; x86_64 uses mkinitramfs.sh)" ;;
esac
cc=${cross}gcc
command -v "$cc" > /dev/null || die "$cc not found (make deps ARCH=$arch installs it, with its static libc)"
command -v cpio > /dev/null || die "cpio is missing"

# The entries this image carries, each built from guest-image/cross/NAME.c;
# the case list comes from the shell entry of the same name.
entries="zinc-selftest crypto-diff"
# Each static entry's case names, from its shell entry's header lines, as
# the -D flags it is built with.
header() {
	local v
	v=$(sed -n "s/^# $2: //p" "$top/guest-image/entry/$1")
	[ -n "$v" ] || die "no '# $2:' line in guest-image/entry/$1"
	echo "$v"
}
# One flag a line (case names hold spaces).
entry_flags() {
	case "$1" in
	zinc-selftest)
		printf -- '-DZINC_SELFTEST_CASES="%s"\n' "$(header zinc-selftest cases)" ;;
	crypto-diff)
		printf -- '-DCRYPTO_DIFF_%s_CASES="%s"\n' \
			LIB "$(header crypto-diff cases-lib)" \
			ZINC "$(header crypto-diff cases-zinc)" \
			END "$(header crypto-diff cases-end)" ;;
	esac
}

key=$(
	{
		cat "$0" "$top/guest-image/init.c"
		echo "$arch $cross"
		"$cc" --version | sed -n 1p
		cat "$top/guest-image/cross/klog.h" "$top/guest-image/cross/cases.h"
		for e in $entries; do entry_flags "$e"; cat "$top/guest-image/cross/$e.c"; done
	} | sha256sum | cut -c1-16
)
if [ -r "$output" ] && [ "$(cat "$output.key" 2>/dev/null)" = "$key" ]; then
	msg "$arch initramfs cached ($key)"
	exit 0
fi

stage=$(mktemp -d "${TMPDIR:-/tmp}/wgt-initramfs-$arch.XXXXXX")
trap 'rm -rf "$stage"' EXIT

mkdir -p "$stage"/{dev,proc,sys,tmp,run,tests/entry}
cflags="-static -O2 -Wall -Wextra -Werror"
# shellcheck disable=SC2086
"$cc" $cflags -o "$stage/init" "$top/guest-image/init.c" ||
	die "cannot build init with $cc (its static glibc: make deps ARCH=$arch)"
for e in $entries; do
	mapfile -t eflags < <(entry_flags "$e")
	# shellcheck disable=SC2086
	"$cc" $cflags "${eflags[@]}" \
		-o "$stage/tests/entry/$e" "$top/guest-image/cross/$e.c" ||
		die "cannot build entry $e with $cc"
done

mkdir -p "$(dirname "$output")"
(cd "$stage" && find . | sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 > "$output.tmp"
mv "$output.tmp" "$output"
echo "$key" > "$output.key"
msg "$arch initramfs built: $output ($(du -h "$output" | cut -f1), $key)"
