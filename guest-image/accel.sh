#!/bin/bash
# Print the QEMU accelerator to use: "kvm" when a short probe boot under KVM
# really works, else "tcg".  /dev/kvm existing is not enough: on some hosts
# it is there and every guest dies with "KVM internal error".  The answer is
# kept per host boot (keyed on the boot id and QEMU's version).
#
# ACCEL=kvm|tcg skips the probe.  Needs a built stock kernel and initramfs.
set -e -o pipefail
export LC_ALL=C

prog=guest-image/accel.sh
die() { echo "$prog: $*" >&2; exit 1; }

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$top/build}
case "${ACCEL:-}" in
kvm|tcg) echo "$ACCEL"; exit 0 ;;
'') ;;
*) die "ACCEL must be kvm or tcg, not '$ACCEL'" ;;
esac

cache=$BUILD_DIR/accel
key="$(cat /proc/sys/kernel/random/boot_id) $(qemu-system-x86_64 --version | sed -n 1p)"
if [ -r "$cache" ] && [ "$(sed -n 2p "$cache")" = "$key" ]; then
	head -n 1 "$cache"
	exit 0
fi

result=tcg
kernel=${PROBE_KERNEL:-$(ls "$BUILD_DIR"/kernel/*/bzImage 2> /dev/null | sed -n 1p)}
initrd=$BUILD_DIR/initramfs.cpio.gz
if [ ! -w /dev/kvm ]; then
	echo "[accel] /dev/kvm not usable: TCG" >&2
elif [ -z "$kernel" ] || [ ! -r "$initrd" ]; then
	die "KVM probe needs a built kernel and $initrd"
elif RESULTS_DIR=$BUILD_DIR/results "$top/guest-image/boot.sh" --accel kvm \
	--kernel "$kernel" --initrd "$initrd" --entry probe --name kvm-probe \
	--timeout 20 --smp 1 --mem 256 > /dev/null 2>&1; then
	result=kvm
	echo "[accel] KVM probe boot succeeded: using KVM" >&2
else
	echo "[accel] KVM probe boot failed (see $BUILD_DIR/results/kvm-probe/): using TCG" >&2
fi
mkdir -p "$BUILD_DIR"
printf '%s\n%s\n' "$result" "$key" > "$cache"
echo "$result"
