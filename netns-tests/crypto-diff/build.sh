#!/bin/bash
# Build what the crypto-diff suite boots with, for one kernel flavor:
#
#   netns-tests/crypto-diff/build.sh FLAVOR
#
# - the host's reference digests (ref.c, libsodium and OpenSSL), into
#   $BUILD_DIR/crypto-diff/expected.txt;
# - the guest's module (cryptodiff.c), built against the flavor's own kernel
#   build (kernel/build.sh keeps its objects and source tree);
# - both packed as a cpio, /lib/cryptodiff/{cryptodiff.ko,expected.txt},
#   into KERNEL_ROOT/FLAVOR[-ARCH]/cryptodiff.cpio.gz, which boot.sh --extra
#   appends to the guest's initramfs.
#
# Cached by content: the sources here and the kernel's key.  Prints the
# cpio's path.  Knobs: ARCH (x86_64, arm64, arm), BUILD_DIR, KERNEL_ROOT,
# CROSS_COMPILE (as kernel/build.sh).
set -e -o pipefail
export LC_ALL=C

prog=netns-tests/crypto-diff/build.sh
die() { echo "$prog: $*" >&2; exit 1; }
msg() { echo "[crypto-diff] $*" >&2; }

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
BUILD_DIR=${BUILD_DIR:-$top/build}
kroot=${KERNEL_ROOT:-$BUILD_DIR/kernel}
flavor=${1:-}
[ $# = 1 ] && [ -n "$flavor" ] || die "usage: $prog FLAVOR"

arch=${ARCH:-x86_64}
# kernel/build.sh's kernel_arch and kmake, so that the module goes to the
# flavor's own build and kbuild sees the same commands there.
. "$top/kernel/kmake.sh"
kernel_arch "$arch" "$flavor" || die "unknown ARCH '$arch' (x86_64, arm64, arm)"
kdir=$kroot/$outname
[ -r "$kdir/key" ] || die "no $outname kernel in $kdir: run 'make kernel FLAVOR=$flavor'"
! grep -q '^image=' "$kdir/source" 2> /dev/null ||
	die "$outname is a prebuilt image (KERNEL=): there is no kernel build to build the module against"
grep -qx 'CONFIG_MODULES=y' "$kdir/config" ||
	die "$outname has CONFIG_MODULES off: the module cannot load"
for t in cc cpio gzip; do
	command -v "$t" > /dev/null || die "$t is missing (make deps)"
done

# The reference: one for every flavor.
refdir=$BUILD_DIR/crypto-diff
mkdir -p "$refdir"
exec 7> "$refdir/.lock"
flock 7
refkey=$(cat "$here/cases.h" "$here/ref.c" | sha256sum | cut -c1-16)
if [ "$(cat "$refdir/key" 2> /dev/null)" != "$refkey" ] || [ ! -s "$refdir/expected.txt" ]; then
	msg "building the host reference (libsodium, OpenSSL)"
	rm -f "$refdir/key"
	cc -O2 -Wall -Werror -o "$refdir/ref" "$here/ref.c" -lsodium -lcrypto ||
		die "the host reference did not build (libsodium-dev and libssl-dev: make deps)"
	# Its split and layout runs must give its own digests: the driver is
	# consistent.
	"$refdir/ref" --self > "$refdir/expected.txt.new" ||
		die "the host reference failed (above)"
	mv "$refdir/expected.txt.new" "$refdir/expected.txt"
	echo "$refkey" > "$refdir/key"
fi
flock -u 7

# The module, against the flavor's build, which must not change meanwhile
# (kernel/build.sh holds this lock while it builds the flavor).
exec 9> "$kroot/.$outname.lock"
flock -s 9
tree=$(sed -n 's/^tree=//p' "$kdir/source" 2> /dev/null || true)
if [ -n "$tree" ]; then
	src=$tree
else
	src=$BUILD_DIR/kernel/src/$(cat "$kdir/src-key" 2> /dev/null || echo none)
	# In use while the module builds: kernel/build.sh's free_disk leaves
	# a tree alone while anyone holds its .use lock.
	[ ! -d "$src" ] || { exec 6> "$src.use" && flock -s 6; }
fi
[ -r "$src/Makefile" ] && [ -d "$kdir/obj" ] ||
	die "$outname's source tree or objects are gone ($src, $kdir/obj): rebuild it with 'make kernel FLAVOR=$flavor'"
# run.sh holds a copy of the kernel it boots (WGT_HELD_KEY, its key): a
# module built against a kernel rebuilt since would not match it.
[ -z "${WGT_HELD_KEY:-}" ] || [ "$(cat "$kdir/key" 2> /dev/null)" = "$WGT_HELD_KEY" ] ||
	die "$outname was rebuilt since this run took its kernel (key $WGT_HELD_KEY, now $(cat "$kdir/key" 2> /dev/null || echo none)): run again"

out=$kdir/cryptodiff
key=$(cat "$here/cases.h" "$here/cryptodiff.c" "$here/Kbuild" "$kdir/key" "$refdir/key" |
	sha256sum | cut -c1-16)
if [ "$(cat "$out/key" 2> /dev/null)" = "$key" ] && [ -r "$kdir/cryptodiff.cpio.gz" ]; then
	echo "$kdir/cryptodiff.cpio.gz"
	exit 0
fi
msg "$outname: building the cryptodiff module (log: $out/build.log)"
rm -rf "$out" "$kdir/cryptodiff.cpio.gz"
mkdir -p "$out/src" "$out/root/lib/cryptodiff"
cp "$here/cases.h" "$here/cryptodiff.c" "$here/Kbuild" "$out/src/"
# (kmake with the kernel's own commands: kbuild rebuilds nothing of it.)
obj=$kdir/obj
# An external module links against the kernel's symbol list and needs the
# module linker script.  kernel/build.sh builds "modules" with every
# kernel that takes modules, which writes both; objects without them
# (built before it did) get a module pass over the kernel here (no
# built-in object is compiled).  A symbol list older than vmlinux's own
# (vmlinux.symvers, rewritten only when vmlinux's exports change) is
# another kernel's: one copied with the objects a flavor started from
# (zinc-nopreempt from zinc, which has no __cond_resched) or left from
# before a rebuild.
if [ ! -r "$kdir/obj/Module.symvers" ] || [ ! -r "$kdir/obj/scripts/module.lds" ] ||
	[ "$kdir/obj/vmlinux.symvers" -nt "$kdir/obj/Module.symvers" ]; then
	msg "$outname: preparing its build for external modules"
	# (Two calls: "modules" alone is what keeps kbuild off vmlinux.)
	{ kmake modules_prepare && kmake modules; } > "$out/prepare.log" 2>&1 ||
		{ tail -30 "$out/prepare.log" >&2; die "$outname: preparing for modules failed (log: $out/prepare.log)"; }
fi
kmake M="$out/src" modules > "$out/build.log" 2>&1 ||
	{ tail -30 "$out/build.log" >&2; die "$outname: the cryptodiff module did not build (log: $out/build.log)"; }
cp "$out/src/cryptodiff.ko" "$refdir/expected.txt" "$out/root/lib/cryptodiff/"
(cd "$out/root" && find lib | sort | cpio -o -H newc -R 0:0 --quiet) |
	gzip -1 > "$kdir/cryptodiff.cpio.gz.new"
mv "$kdir/cryptodiff.cpio.gz.new" "$kdir/cryptodiff.cpio.gz"
echo "$key" > "$out/key"
echo "$kdir/cryptodiff.cpio.gz"
