#!/bin/bash
# make shell: boot FLAVOR's kernel (or the user's: PATCHES, KERNEL_TREE,
# KERNEL, through KERNEL_ROOT as make sets it) into an interactive shell
# on the console, with the cases' library loaded (guest-image/entry/shell).
#
#   guest-image/shell.sh FLAVOR
#
# TUNNEL=1 first brings up two namespaces with a WireGuard tunnel between
# them.  'exit' (or Ctrl-D) ends the guest, whose kernel health is then
# checked and printed as after any run; the exit status is the shell's,
# or boot.sh's when the guest died.  Ctrl-A x stops QEMU at once.
# Commands may come on stdin from a pipe too (guest-image/check/
# shell-check.sh): wait for "wgt-shell: ready" before sending them.
set -e -o pipefail
export LC_ALL=C

prog=guest-image/shell.sh
die() { echo "$prog: $*" >&2; exit 1; }

top=$(cd "$(dirname "$0")/.." && pwd)
flavor=${1:-}
[ -n "$flavor" ] || die "usage: $prog FLAVOR"
BUILD_DIR=${BUILD_DIR:-$top/build}
kroot=${KERNEL_ROOT:-$BUILD_DIR/kernel}
kernel=$kroot/$flavor/bzImage
initrd=$BUILD_DIR/initramfs.cpio.gz
[ -r "$kernel" ] || die "no $flavor kernel at $kernel: build it first (make kernel FLAVOR=$flavor)"
[ -r "$initrd" ] || die "no guest image at $initrd: build it first (make image)"
case "${TUNNEL:-0}" in
0) args= ;;
1) args=tunnel ;;
*) die "TUNNEL=$TUNNEL: 0 or 1" ;;
esac

echo "[shell] $flavor ($kernel)${args:+, with a tunnel between two namespaces}" >&2
echo "[shell] the guest's console follows: exit (or Ctrl-D) ends the guest, Ctrl-A x stops QEMU" >&2
# A day: a shell is never cut short by a test's timeout.
exec "$top/guest-image/boot.sh" --shell --kernel "$kernel" --initrd "$initrd" \
	--entry shell ${args:+--args "$args"} --name "shell-$flavor-$(date +%Y%m%d-%H%M%S)-$$" \
	--timeout 86400 --append "wgt_flavor=$flavor${TIMEOUT_SCALE:+ wgt_timeout_scale=$TIMEOUT_SCALE}"
