#!/bin/bash
# Host side of the test suite: boot guests, collect each guest's KTAP from
# its verdict port, and print one KTAP document for the whole run, every case
# named after the flavor(s) it ran on, closed by "N passed, N failed, N
# skipped" (and ", N known failures (TODO)" when there are any).
#
#   netns-tests/run.sh SUITE:FLAVOR...
#
# Suites:
#   netns:F           the scenario files in netns-tests/cases, one case each,
#                     in one guest (CASES=a,b limits them)
#   netns=a,b:F       the same, these cases only (instead of CASES)
#   timers:F          WireGuard's protocol timers, the scenario files in
#                     netns-tests/timers, in one guest on virtual time: one
#                     vCPU under TCG with -icount sleep=off (never KVM), so
#                     an idle guest's clock jumps to its next timer and the
#                     minutes the timers take pass in seconds.  Each case's
#                     guest seconds against wall seconds are in its KTAP
#                     diagnostics ("# wgt-clock: ...").  timers=a,b:F too.
#   peer:F            the handshake, cookies under load and transport checked
#                     from the wire by the harness's own WireGuard peer
#                     (guest-image/peer): the scenario files in
#                     netns-tests/peer, in one guest.  peer=a,b:F too.
#   zinc-selftest:F   Zinc's boot-time selftests, one case per primitive
#   zinc-selftest-relax:F
#                     the same, booted with zinc.force_simd_relax=1: every
#                     simd_relax() gives the vector unit back, so a SIMD call
#                     that does not claim it again fails its selftest; plus a
#                     case that the kernel took the parameter
#   crypto-diff:F     the crypto differential (netns-tests/crypto-diff): one
#                     seeded input set per primitive through lib/crypto, and
#                     Zinc where F has it, each digest against libsodium's
#                     and OpenSSL's on the host; one case per implementation
#                     and primitive
#   two-guest:A+B     a tunnel between two guests on a virtual link, the
#                     initiator booting flavor A, the responder flavor B
#                     (two-guest:F means F+F)
#   interop:I+R       one cell of the handshake interop matrix: initiator I,
#                     responder R, each a flavor or "go" (wireguard-go).
#                     Kernels of different flavors run in two guests; other
#                     pairs in one guest (go+go in $INTEROP_GO_KERNEL, zinc).
#                     The run ends with the matrix of the cells it ran.
#
# Kernels come from $BUILD_DIR/kernel/FLAVOR, the initramfs from
# $BUILD_DIR/initramfs.cpio.gz: build them first (make).  The KTAP is also
# written to $RESULTS_DIR/test-TIME/ktap.txt.  V=1 passes on every case's
# diagnostics, not only those of failing cases.  TIMEOUT_SCALE=N stretches
# every case timeout and wait in the guests N times (slow debug kernels).
# LONG_SELFTESTS=1 boots the zinc-selftest suites with the self-tests'
# longer variants, too slow for make test: the ChaCha20Poly1305 sweep in
# every feature combination (wg-patches 0021), at boot and in KUnit.
# SUITE_JOBS=N runs N words' guests at once (default 2 on a host of two
# or more CPUs, 1 otherwise); the KTAP still follows the words' order.
#
# ARCH=arm64 or ARCH=arm (default x86_64) runs the guests on that
# architecture under TCG: kernels from $BUILD_DIR/kernel/FLAVOR-ARCH, the
# initramfs from $BUILD_DIR/initramfs-ARCH.cpio.gz (make image ARCH=...),
# only the zinc-selftest and crypto-diff suites, and every case named
# FLAVOR-ARCH: ...
#
# LAVA_BOOTS=DIR boots nothing: each suite of one guest is written as
# DIR/SUITE-FLAVOR.boot (guest-image/boot.sh --lava, plus suite, flavor,
# label, what the kernel is and the case plan) for the LAVA job writer
# (netns-tests/lava).
set -e -o pipefail
export LC_ALL=C

prog=netns-tests/run.sh
die() { echo "$prog: $*" >&2; exit 1; }

top=$(cd "$(dirname "$0")/.." && pwd)
# --check: only validate the SUITE:FLAVOR words and the knobs (CASES,
# INTEROP_GO_KERNEL, ACCEL), with no kernel or image needed: make runs it
# before any build.  A bad word or knob is one line and exit 2.
check_only=0
if [ "${1:-}" = --check ]; then
	check_only=1
	shift
fi
# The parts, by what they do (functions only, and the constants they
# share): plan, schedule the guests, collect, report.
for part in plan guests collect report; do
	# shellcheck source=/dev/null
	. "$top/netns-tests/run/$part.sh"
done
known_flavors=$("$top/kernel/build.sh" --flavors)
# scenario_dirs: their folders.
scenario_dirs="cases timers peer"
# CASES as given: split_word sets CASES for each word.
cases_given=${CASES:-}
. "$top/guest-image/link.sh"
# boot.sh stops its guest when this process is gone (killed outright, its
# pair boots' subshells would keep the guests running to the timeout).
export WGT_OWNER=$$
BUILD_DIR=${BUILD_DIR:-$top/build}
export RESULTS_DIR=${RESULTS_DIR:-$BUILD_DIR/results}
arch=${ARCH:-x86_64}
case "$arch" in x86|amd64) arch=x86_64 ;; esac
# kernel_dir FLAVOR, and the image in it, per architecture.
case "$arch" in
x86_64) initrd=$BUILD_DIR/initramfs.cpio.gz kimage=bzImage ;;
arm64) initrd=$BUILD_DIR/initramfs-$arch.cpio.gz kimage=Image ;;
arm) initrd=$BUILD_DIR/initramfs-$arch.cpio.gz kimage=zImage ;;
*) die "unknown ARCH '$arch' (x86_64, arm64, arm)" ;;
esac
# KERNEL_ROOT (default BUILD_DIR/kernel): a user's kernels (make PATCHES=).
kroot=${KERNEL_ROOT:-$BUILD_DIR/kernel}
# Unique among runs at once on this host: two runs in one second differ
# in their pid.
stamp=$(date +%Y%m%d-%H%M%S)-$$
outdir=$RESULTS_DIR/test-$stamp
# held: where this run holds the kernels it tests (hold_kernel).
held=
entries=$top/guest-image/entry
[ $# -gt 0 ] || bad "usage: $prog [--check] SUITE:FLAVOR... (e.g. netns:stock)"
case "${ACCEL:-}" in
'' | tcg) ;;
kvm) [ -r /dev/kvm ] && [ -w /dev/kvm ] || bad "ACCEL=kvm, but /dev/kvm is missing or not usable by $(id -un)" ;;
*) bad "ACCEL must be kvm or tcg (or unset: probe), not '$ACCEL'" ;;
esac
case "${LONG_SELFTESTS:-0}" in
0 | 1) ;;
*) bad "LONG_SELFTESTS must be 0 or 1, not '$LONG_SELFTESTS'" ;;
esac
# SUITE_JOBS: how many suite words run their guests at once (default 2 on
# a host of two or more CPUs, else 1).  A netns guest under TCG keeps about
# a core busy (zinc's whole suite: 554 s alone, 935 s beside stock's), so
# two at once save what one leaves idle, not half; the cases scale their
# waits by the guest's measured speed, not by a fixed time.
suite_jobs=${SUITE_JOBS:-}
if [ -z "$suite_jobs" ]; then
	suite_jobs=1
	[ "$(nproc)" -lt 2 ] || suite_jobs=2
fi
case "$suite_jobs" in
*[!0-9]* | 0*) bad "SUITE_JOBS must be a number of suites at once, at least 1, not '$SUITE_JOBS'" ;;
esac
if [ $check_only = 1 ]; then
	:
elif [ "$arch" = x86_64 ]; then
	[ -r "$initrd" ] || die "no initramfs at $initrd: run 'make image' first"
else
	[ -r "$initrd" ] || die "no initramfs at $initrd: run 'make image ARCH=$arch' first"
fi

INTEROP_GO_KERNEL=${INTEROP_GO_KERNEL:-zinc}
is_flavor "$INTEROP_GO_KERNEL" ||
	bad "INTEROP_GO_KERNEL='$INTEROP_GO_KERNEL' is not a flavor ($known_flavors)"

plan "$@"

[ $check_only = 0 ] || exit 0

# Ctrl-C or TERM ends the whole run, not just the guest it was in: every
# boot.sh stops its QEMU as it goes (they also watch WGT_OWNER), and
# nothing boots after.  Exit 130 or 143.
interrupted() {
	trap - INT TERM
	echo "$prog: interrupted; stopping the guests" >&2
	# shellcheck disable=SC2046
	kill -TERM $(jobs -p) 2> /dev/null || true
	wait 2> /dev/null || true
	link_done
	exit "$1"
}
trap 'interrupted 130' INT
trap 'interrupted 143' TERM
# A run that stops on an error stops the suites still booting beside it.
trap 'kill -TERM $(jobs -p) 2> /dev/null || true' EXIT

# BUILD_DIR is in use while this runs (a shared lock): make clean and
# distclean refuse to remove it under a running build, test or bench.
mkdir -p "$BUILD_DIR" && exec 5> "$BUILD_DIR/.wgt-in-use" && flock -s 5

n=0 passed=0 failed=0 skipped=0 known=0 known_unknown=0

if [ -n "${LAVA_BOOTS:-}" ]; then
	mkdir -p "$LAVA_BOOTS"
	for sf in "$@"; do
		split_word "$sf"
		flavor=$flavors
		case "$suite" in
		two-guest | interop)
			echo "$prog: $sf: no LAVA job (two guests on one link would need a LAVA MultiNode job)" >&2
			continue
			;;
		crypto-diff)
			echo "$prog: $sf: no LAVA job (its module is built against each kernel, and a job carries one initramfs)" >&2
			continue
			;;
		esac
		lava_file=$LAVA_BOOTS/$suite-$(label "$flavor").boot
		one_guest "$suite" "$flavor"
		boot "$suite-$(label "$flavor")" "$flavor" "$entry" "${boot_args[@]}"
		[ "$boot_rc" = 0 ] || die "$sf: guest-image/boot.sh --lava failed"
		{
			echo "suite=$suite"
			echo "flavor=$flavor"
			echo "label=$(label "$flavor")"
			echo "tested=$(kernel_desc "$flavor")"
			echo "cases=$(cases_of "$suite" "$flavor" | tr '\n' '|')"
		} >> "$lava_file"
		echo "$lava_file"
	done
	exit 0
fi

mkdir -p "$RESULTS_DIR"
# A full disk fails every guest in odd ways (an empty verdict, a truncated
# log): name it instead.  A guest's logs take a few MB, a modular one's
# initramfs copy 12.
free_mb=$(df -Pm "$RESULTS_DIR" | awk 'NR == 2 { print $4 }')
[ "${free_mb:-0}" -ge 100 ] ||
	die "disk full: ${free_mb:-0} MB free in $RESULTS_DIR (the results need at least 100 MB)"
mkdir -p "$outdir"
ktap=$outdir/ktap.txt
# What the KCIDB report (netns-tests/kcidb) says about the run as a whole.
accel=${ACCEL:-}
[ -n "$accel" ] || [ "$arch" != x86_64 ] || accel=$("$top/guest-image/accel.sh" 2> /dev/null) || accel=
cat > "$outdir/run.env" << EOF
stamp=$stamp
start_time=$(date -u +%Y-%m-%dT%H:%M:%S+00:00)
kernel_root=${held:-$kroot}
results_dir=$RESULTS_DIR
arch=$arch
accel=${accel:-tcg}
harness=$(git -C "$top" describe --always --dirty 2> /dev/null || true)
kernel_knobs=$(kernel_knobs)
EOF
: > "$ktap"
emit() { printf '%s\n' "$*" | tee -a "$ktap"; }

emit "KTAP version 1"
emit "1..$total"
# What was tested: each kernel's source, patch count and last patch (the
# user's, when PATCHES= added any), from what kernel/build.sh recorded.
for f in $(printf '%s\n' $all_kernels | sort -u); do
	emit "# kernel $(label "$f"): $(kernel_desc "$f")"
done

schedule "$@"
report
