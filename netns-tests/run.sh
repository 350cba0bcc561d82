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
bad() { echo "$prog: $*" >&2; exit 2; }
known_flavors=$("$top/kernel/build.sh" --flavors)
is_flavor() { case " $known_flavors " in *" $1 "*) return 0 ;; esac; return 1; }
# case_dir SUITE: the folder of netns-tests holding a suite's scenario files.
case_dir() { case "$1" in timers | peer) echo "$1" ;; *) echo cases ;; esac; }
# scenario_suite SUITE: a suite of scenario files (netns-tests/DIR/*.sh,
# one case each, run by the netns entry).
scenario_suite() { case "$1" in netns | timers | peer) return 0 ;; esac; return 1; }
# scenario_dirs: their folders.
scenario_dirs="cases timers peer"
# split_word WORD: suite and flavors of a SUITE:FLAVOR word; a netns suite
# written netns=a,b names its own cases, which stand for CASES while that
# suite runs (cases_from: where the cases came from, for messages).
cases_given=${CASES:-}
split_word() {
	suite=${1%%:*} flavors=${1#*:}
	CASES=$cases_given cases_from=CASES
	case "$suite" in
	netns=* | timers=* | peer=*)
		CASES=${suite#*=} suite=${suite%%=*} cases_from="'$1'"
		[ -n "$CASES" ] || bad "'$1': $suite= names no case"
		;;
	*=*) bad "'$1': only the netns, timers and peer suites take their own cases (netns=a,b:FLAVOR)" ;;
	# CASES names netns cases: a timers or peer word runs its own, or all.
	timers | peer) CASES= ;;
	esac
	return 0
}
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
kernel_name() {
	if [ "$arch" = x86_64 ]; then echo "$1"; else echo "$1-$arch"; fi
}
# kernel_dir FLAVOR: the held copy once the run holds it, else the build's.
kernel_dir() {
	local n
	n=$(kernel_name "$1")
	if [ -n "$held" ] && [ -d "$held/$n" ]; then
		echo "$held/$n"
	else
		echo "$kroot/$n"
	fi
}
# hold_kernel FLAVOR: this run holds FLAVOR's kernel from its plan to its
# last report, so a build in the same BUILD_DIR meanwhile (another make)
# cannot change what it boots or what its results name.  Under the
# flavor's build lock (shared: kernel/build.sh holds it for a whole build,
# so a build under way is waited for), the image and modules are hard
# links (kernel/build.sh replaces them by rename, leaving these as they
# are) and the small files (config, key, patches, series, source, ...)
# are copied, into $outdir/kernel; kernel_dir then reads them there.
hold_kernel() {
	local n src dst f
	n=$(kernel_name "$1")
	src=$kroot/$n dst=$outdir/kernel/$n
	[ -d "$dst" ] && return 0
	mkdir -p "$dst.tmp"
	if ! flock -s -n 3 3> "$kroot/.$n.lock"; then
		echo "$prog: $1's kernel is being built; waiting for that build" >&2
	fi
	(
		flock -s 3
		[ -r "$src/key" ] || die "$1's kernel in $src is incomplete (no key): rebuild it (make kernel FLAVOR=$1)"
		for f in "$src"/*; do
			[ -f "$f" ] || continue
			case "${f##*/}" in
			*.log | *.new) ;;
			"$kimage" | modules.cpio.gz) ln "$f" "$dst.tmp/" 2> /dev/null || cp "$f" "$dst.tmp/" ;;
			*) cp "$f" "$dst.tmp/" ;;
			esac
		done
	) 3> "$kroot/.$n.lock"
	mv "$dst.tmp" "$dst"
	held=$outdir/kernel
}
# What a case is named after: the flavor, and a foreign architecture.
label() {
	if [ "$arch" = x86_64 ]; then echo "$1"; else echo "$1-$arch"; fi
}
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

# header_cases FILE TAG: the '|'-separated list on FILE's '# TAG: ' line.
header_cases() { sed -n "s/^# $2: //p" "$1" | tr '|' '\n'; }

# has_kunit FLAVOR: FLAVOR's kernel has Zinc's KUnit suites (its primitives
# built in, with ZINC_KUNIT_TEST: wg-patches 0019).  Its zinc-selftest guest
# then boots with kunit.enable=1 and reports each KUnit case too.
has_kunit() {
	local config
	config=$(kernel_dir "$1")/config
	grep -qx 'CONFIG_ZINC_KUNIT_TEST=y' "$config" 2> /dev/null &&
		grep -qx 'CONFIG_ZINC_CHACHA20=y' "$config"
}

# kunit_cases FLAVOR: the cases of Zinc's KUnit suites in FLAVOR's kernel,
# "zinc-PRIM: PART" a line, read from the source it was built from (each
# "ZINC_KUNIT_CASE(prim, part)," in lib/zinc: wg-patches 0019), so a case
# a patch adds is planned, and the guest reports what the kernel ran,
# without a list to edit.
kunit_cases() {
	local d src
	d=$(kernel_dir "$1")
	src=$(sed -n 's/^tree=//p' "$d/source" 2> /dev/null)
	[ -n "$src" ] || src=$BUILD_DIR/kernel/src/$(cat "$d/src-key" 2> /dev/null)
	[ -d "$src/lib/zinc" ] ||
		die "$1: no lib/zinc in $src, the source its kernel was built from: rebuild it (make kernel FLAVOR=$1)"
	find "$src/lib/zinc" -name '*.c' | sort | xargs grep -hE '^[[:space:]]*ZINC_KUNIT_CASE\([a-z0-9_]+, *[a-z0-9_]+\),' |
		sed -E 's/^[[:space:]]*ZINC_KUNIT_CASE\(([a-z0-9_]+), *([a-z0-9_]+)\),.*/zinc-\1: \2/'
}

# has_zinc FLAVOR: FLAVOR's kernel has every Zinc primitive (built in or
# as modules) that the crypto-diff module asks for before it runs Zinc
# beside lib/crypto: the CONFIG_ZINC_* symbols of its CD_HAVE_ZINC, read
# from the module's source so that the two cannot disagree.
has_zinc() {
	local config sym syms
	config=$(kernel_dir "$1")/config
	syms=$(sed -n '/^#define CD_HAVE_ZINC/,/[^\\]$/p' "$top/netns-tests/crypto-diff/cryptodiff.c" |
		grep -o 'CONFIG_ZINC_[A-Z0-9_]*') ||
		die "no CONFIG_ZINC_* symbols in cryptodiff.c's CD_HAVE_ZINC"
	for sym in $syms; do
		grep -qE "^$sym=[ym]\$" "$config" 2> /dev/null || return 1
	done
}

# cases_of SUITE FLAVOR: the case names the suite will report, one a line.
cases_of() {
	case "$1" in
	netns | timers | peer)
		if [ -n "${CASES:-}" ]; then
			echo "$CASES" | tr ',' '\n'
		else
			for f in "$top/netns-tests/$(case_dir "$1")"/*.sh; do basename "$f" .sh; done
		fi
		# The debug flavor's kmemleak scan after the last case.
		case "$2" in *-debug) echo kmemleak ;; esac
		;;
	zinc-selftest)
		header_cases "$entries/zinc-selftest" cases
		# (exit: bash runs a command substitution without set -e.)
		! has_kunit "$2" || kunit_cases "$2" | sed 's/^/kunit: /' || exit 1
		;;
	zinc-selftest-relax)
		header_cases "$entries/zinc-selftest" cases
		header_cases "$entries/zinc-selftest" cases-relax
		;;
	crypto-diff)
		header_cases "$entries/crypto-diff" cases-lib
		! has_zinc "$2" || header_cases "$entries/crypto-diff" cases-zinc
		header_cases "$entries/crypto-diff" cases-end
		;;
	two-guest)
		header_cases "$entries/two-guest" cases-initiator | sed 's/^/initiator: /'
		header_cases "$entries/two-guest" cases-responder | sed 's/^/responder: /'
		;;
	interop)
		header_cases "$entries/interop" cases
		if interop_two_guests "${2%%+*}" "${2#*+}"; then
			header_cases "$entries/interop" cases-responder | sed 's/^/responder: /'
		fi
		;;
	*) bad "unknown suite '$1' (netns, timers, peer, zinc-selftest, zinc-selftest-relax, crypto-diff, two-guest, interop)" ;;
	esac
	# Each guest's own case (guest_case).
	case "$1" in
	two-guest) printf '%s\n' "initiator: $GUEST_CASE" "responder: $GUEST_CASE" ;;
	interop)
		echo "$GUEST_CASE"
		if interop_two_guests "${2%%+*}" "${2#*+}"; then
			echo "responder: $GUEST_CASE"
		fi
		;;
	*) echo "$GUEST_CASE" ;;
	esac
}

# guest_case RUN BOOT_RC: every guest's last case, appended to its KTAP.  It
# passes when init's check after the entry found the kernel log clean and
# no taint since boot (# wgt-health: ok), and the guest then shut down: the
# kernel reached its restart.  A guest that hangs or oopses in teardown, or
# whose kernel complained between cases, fails it.
GUEST_CASE="guest: kernel healthy, clean shutdown"
guest_case() {
	local run=$1 rc=$2 k=$outdir/$1.ktap console=$RESULTS_DIR/$1/console.log why=
	if [ "$rc" -ge 124 ]; then
		# What the kernel said as it died: the first lines of its
		# report, from the console (the port may have lost them).
		local excerpt
		excerpt=$(sed -n 's/\r$//; /BUG: \|Oops\|Kernel panic\|WARNING: \|RIP: \|soft lockup\|rcu: INFO/p' \
			"$console" 2> /dev/null | sed -n 1,6p | tr -d '\000' | sed 's/^/# console: /' || true)
		why="the guest died (boot.sh exit $rc)${excerpt:+$'\n'$excerpt}"
	elif grep -qx '# wgt-health: FAIL' "$k"; then
		why="the kernel log or taint flags show trouble (above)"
	elif ! grep -qx '# wgt-health: ok' "$k"; then
		why="init did not report the kernel's health"
	elif ! grep -q 'reboot: Restarting system' "$console" 2> /dev/null; then
		why="the guest did not restart cleanly after its last case ($console)"
	fi
	if [ -z "$why" ]; then
		echo "ok 0 $GUEST_CASE" >> "$k"
	else
		printf '# %s\nnot ok 0 %s\n' "$why" "$GUEST_CASE" >> "$k"
	fi
}

# interop_two_guests I R: the cell needs a guest each (two kernel flavors).
interop_two_guests() { [ "$1" != go ] && [ "$2" != go ] && [ "$1" != "$2" ]; }
INTEROP_GO_KERNEL=${INTEROP_GO_KERNEL:-zinc}
is_flavor "$INTEROP_GO_KERNEL" ||
	bad "INTEROP_GO_KERNEL='$INTEROP_GO_KERNEL' is not a flavor ($known_flavors)"

need_kernel() {
	local dir
	dir=$(kernel_dir "$1")
	if [ "$arch" = x86_64 ]; then
		[ -r "$dir/$kimage" ] ||
			die "no $1 kernel in $dir: run 'make kernel FLAVOR=$1'"
	else
		[ -r "$dir/$kimage" ] ||
			die "no $1 kernel in $dir: run 'make kernel FLAVOR=$1 ARCH=$arch'"
	fi
}

total=0 all_kernels=
seen=""
for sf in "$@"; do
	[ "${sf%%:*}" != "$sf" ] || bad "'$sf' is not SUITE:FLAVOR"
	split_word "$sf"
	# (A word's guests are named after its suite and flavors, and words
	# run side by side.)
	# (two-guest:F is two-guest:F+F.)
	k=$suite:$flavors
	[ "$suite" != two-guest ] || k=$suite:${flavors%%+*}+${flavors#*+}
	case "$seen" in *" $k "*) bad "'$sf': suite $suite on $flavors is named twice" ;; esac
	seen="$seen $k "
	[ "$arch" = x86_64 ] || [ "${suite%-relax}" = zinc-selftest ] || [ "$suite" = crypto-diff ] ||
		bad "suite '$suite' runs on x86_64 only (ARCH=$arch guests carry only zinc-selftest and crypto-diff)"
	case "$suite:$flavors" in
	*:*+*+* | *:+* | *:*+) bad "'$sf': one flavor, or two joined by one '+'" ;;
	interop:*+* | two-guest:*) ;;
	interop:*) bad "'$sf': interop cells are interop:INITIATOR+RESPONDER" ;;
	*:*+*) bad "'$sf': suite '$suite' boots one flavor" ;;
	esac
	kernels=
	for f in $(echo "$flavors" | tr '+' ' '); do
		if [ "$suite" = interop ] && [ "$f" = go ]; then
			continue
		fi
		is_flavor "$f" || bad "'$sf': unknown flavor '$f' (flavors: $known_flavors; interop also takes go)"
		kernels="$kernels $f"
	done
	[ "$suite:$flavors" != interop:go+go ] || kernels=$INTEROP_GO_KERNEL
	all_kernels="$all_kernels $kernels"
	if [ $check_only = 0 ]; then
		for f in $kernels; do
			need_kernel "$f"
			[ -n "${LAVA_BOOTS:-}" ] || hold_kernel "$f"
		done
	fi
	if scenario_suite "$suite" && [ -n "${CASES:-}" ]; then
		for c in $(echo "$CASES" | tr , " "); do
			case "$c" in
			*[!a-z0-9-]*) bad "$cases_from names '$c', which is not a case name" ;;
			esac
			[ -r "$top/netns-tests/$(case_dir "$suite")/$c.sh" ] ||
				bad "$cases_from names '$c', which is not a file in netns-tests/$(case_dir "$suite")"
		done
	fi
	# (Into a variable first: a plan that cannot be made stops the run.)
	planned=$(cases_of "$suite" "$flavors")
	total=$((total + $(printf "%s\n" "$planned" | { grep -c . || true; })))
done

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

# case_fix CASE: the kernel fix netns case CASE names in its '# fixed-by:
# SUBJECT' line (the fix's patch subject), or nothing.  carries_fix FLAVOR
# SUBJECT: FLAVOR's kernel has that patch (kernel/build.sh lists its
# patches in FLAVOR/patches).
case_fix() {
	local d
	for d in $scenario_dirs; do cat "$top/netns-tests/$d/$1.sh" 2> /dev/null || true; done |
		sed -n 's/^# fixed-by: //p'
}
carries_fix() { grep -qxF -- "$2" "$(kernel_dir "$1")/patches" 2> /dev/null; }

# fix_known FLAVOR: whether a fix can be told to be in FLAVOR's kernel or
# not: only for one built from linux-source-6.1 and a series (its source
# names the tarball).  A KERNEL= image or a KERNEL_TREE build has no patch
# list to read: its cases say "fix status unknown" (lib.sh bug_shows).
fix_known() { grep -q '^tarball=' "$(kernel_dir "$1")/source" 2> /dev/null; }

# Each result also goes to $outdir/cases.tsv, a line each, for the KCIDB
# report (netns-tests/kcidb): number, ok or not ok, the KTAP name, where
# (the test path's level), the case's own name, the directive, seconds
# (netns cases log them), the flavor of the kernel it ran on, the guest
# run, and notes: "KEY=VALUE" words, timeout_scale (the factor the guest
# stretched the case's waits, windows and timeout by: "# wgt-scale: N" in
# its diagnostics) and qemu_restarts (the guest's QEMU crashed and was
# booted again: guest-image/boot.sh's "# wgt-boot: " line).  where PATH
# FLAVOR RUN sets the path (under "wireguard.", e.g. netns or
# two-guest.initiator), flavor and run of the next results collected.
rec_path= rec_flavor= rec_run= rec_restarts=0 cur_word=
where() { rec_path=$1 rec_flavor=$2 rec_run=$3; }
# reproduce WORD NAME: the command that runs result NAME of suite word
# WORD again, alone: make check on the same kernel (series, tree or
# image) with the same knobs.  A scenario case runs on its own (its suite
# written SUITE=NAME:FLAVOR); a result of any other suite (a KUnit or
# crypto-diff case, an interop cell, a guest's health) with its whole
# word, the least that can run it.  The eleventh field of cases.tsv, and
# a "# reproduce: " line above each failure.
reproduce() {
	local word=$1 name=$2 s f k v cmd
	s=${word%%:*} f=${word#*:}
	s=${s%%=*}
	if scenario_suite "$s" && [ -r "$top/netns-tests/$(case_dir "$s")/$name.sh" ]; then
		word=$s=$name:$f
	fi
	cmd="make -C $top check CHECK_SUITES=$word"
	for k in ARCH ACCEL PATCHES KERNEL_TREE KERNEL KERNEL_CONFIG CONFIG_FRAGMENT SERIES FIXES \
		BUILD_DIR TIMEOUT_SCALE SUITE_TIMEOUT INTEROP_GO_KERNEL; do
		v=${!k:-}
		case "$k=$v" in
		*=|ARCH=x86_64|BUILD_DIR="$top/build"|INTEROP_GO_KERNEL=zinc) continue ;;
		esac
		cmd="$cmd $k=$v"
	done
	echo "$cmd"
}
record() {
	local res=$1 name=$2 directive=$3 diag=$4 repro=${5:-} secs scale notes
	secs=$(printf '%s\n' "$diag" | awk -v p="# + $name: " '
		index($0, p) == 1 { s = substr($0, length(p) + 1); sub(/ s$/, "", s); if (s ~ /^[0-9]+$/) t = s }
		END { print t }')
	scale=$(printf '%s\n' "$diag" | sed -n 's/^# wgt-scale: \([0-9]*\) .*/\1/p' | tail -n 1)
	notes="qemu_restarts=$rec_restarts${scale:+ timeout_scale=$scale}"
	# (vclock_note's line, on virtual time.)
	notes="$notes$(printf '%s\n' "$diag" | sed -n 's/^# wgt-clock: \([0-9.]*\) s of guest time in \([0-9.]*\) s of wall time.*/ guest_seconds=\1 wall_seconds=\2/p' | tail -n 1)"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$res" "$prefix$name" \
		"$rec_path" "$name" "$(printf '%s' "${directive# \# }" | tr '\t' ' ')" "$secs" "$rec_flavor" "$rec_run" \
		"$notes" "$repro" >> "$outdir/cases.tsv"
}

# vclock_note RUN: in a guest on virtual time (timers), turn each case's
# "# wgt-vtime: S" (the seconds of the guest's clock it took) into
# "# wgt-clock: S s of guest time in W s of wall time (R guest seconds a
# wall second)", in RUN's KTAP.  W is the host's: the time between the
# verdict lines of the case before and of this one reaching the host
# (boot.sh --stamp, to 0.2 s).
vclock_note() {
	local v=$RESULTS_DIR/$1/verdict.log times=$RESULTS_DIR/$1/verdict.times
	[ -s "$v" ] && [ -s "$times" ] || return 0
	# Wall seconds of each case in the verdict, "INDEX SECONDS" lines.
	awk 'FNR == NR { t[++k] = $1; b[k] = $2; next }
		function wall_at(off,   i) {
			for (i = 1; i <= k; i++) if (b[i] >= off) return t[i]
			return t[k]
		}
		{ off += length($0) + 1 }
		/^1\.\.[0-9]+$/ && !started { prev = wall_at(off); started = 1 }
		/^(not )?ok [0-9]+ / && started {
			w = wall_at(off); printf "%d %.1f\n", ++c, w - prev; prev = w
		}' "$times" "$v" > "$outdir/$1.wall"
	awk 'FNR == NR { w[$1] = $2; next }
		/^# wgt-vtime: / {
			g = $3; c = n + 1
			if (c in w && w[c] > 0)
				printf "# wgt-clock: %s s of guest time in %s s of wall time (%.1f guest seconds a wall second)\n", g, w[c], g / w[c]
			else
				printf "# wgt-clock: %s s of guest time in %s s of wall time\n", g, (c in w ? w[c] : "?")
			next
		}
		/^(not )?ok [0-9]+ / { n++ }
		{ print }' "$outdir/$1.wall" "$outdir/$1.ktap" > "$outdir/$1.ktap.tmp"
	mv "$outdir/$1.ktap.tmp" "$outdir/$1.ktap"
	rm -f "$outdir/$1.wall"
}

# collect FILE PREFIX EXPECTED DIED [FLAVOR]: re-emit the guest KTAP in FILE
# under global numbers as "PREFIX name"; every name in EXPECTED (one a line)
# that the guest did not report fails with DIED as the reason.  With FLAVOR
# (netns suites), a case the guest reported as a known failure ("# TODO
# known failure: ...": the one assertion it names failed, nothing else
# did) is counted apart; every other "not ok" is a failure.
collect() {
	local file=$1 prefix=$2 expected=$3 died=$4 flavor=${5:-}
	local line res rest name directive diag= reported= stray= clock repro=
	rec_restarts=0
	while IFS= read -r line; do
		case "$line" in
		'# wgt-boot: '*)
			# boot.sh booted the guest again after QEMU crashed:
			# always said, passing or not.
			rec_restarts=$((rec_restarts + 1))
			emit "$line" ;;
		'# '*)
			diag="$diag${diag:+$'\n'}$line" ;;
		'ok '*|'not ok '*)
			res=${line%% [0-9]*}
			rest=${line#"$res "}
			rest=${rest#* }
			name=${rest%% \#*}
			directive=
			case "$rest" in *' # '*) directive=" # ${rest#* \# }" ;; esac
			n=$((n + 1))
			reported="$reported$name"$'\n'
			if [ "$res" = ok ]; then
				case "$directive" in
				*SKIP*) skipped=$((skipped + 1)) ;;
				*) passed=$((passed + 1)) ;;
				esac
				if [ "${V:-0}" = 1 ]; then
					[ -z "$diag" ] || emit "$diag"
				else
					# How much time a case on virtual time
					# gained (vclock_note): said when it passes too.
					clock=$(printf '%s\n' "$diag" | grep '^# wgt-clock: ' || true)
					[ -z "$clock" ] || emit "$clock"
				fi
			elif [ -n "$flavor" ] && [ "${directive# \# TODO known failure: }" != "$directive" ]; then
				# The one assertion the case names as a known failure
				# (lib.sh xfail, bug_shows); the guest reported it so
				# only when nothing else about the case failed.
				known=$((known + 1))
				case "$directive" in
				*'known failure: fix status unknown: '*) known_unknown=$((known_unknown + 1)) ;;
				esac
				[ -z "$diag" ] || emit "$diag"
			else
				failed=$((failed + 1))
				[ -z "$diag" ] || emit "$diag"
				repro=$(reproduce "$cur_word" "$name")
				emit "# reproduce: $repro"
			fi
			emit "$res $n $prefix$name$directive"
			record "$res" "$name" "$directive" "$diag" "$repro"
			repro=
			diag=
			;;
		'KTAP version '* | [0-9]*..[0-9]* | '') ;;
		*)
			# Anything else the guest printed (an entry's own error,
			# "No space left on device") is kept as a diagnostic.
			diag="$diag${diag:+$'\n'}# $line"
			stray="$stray${stray:+$'\n'}# $line" ;;
		esac
	done < "$file"
	[ -z "$diag" ] || emit "$diag"
	while IFS= read -r name; do
		[ -n "$name" ] || continue
		# Not 'printf | grep -q': grep -q may exit before printf is done,
		# and under pipefail the SIGPIPE reads as "not reported".
		if grep -qxF -- "$name" <<< "$reported"; then
			continue
		fi
		n=$((n + 1))
		failed=$((failed + 1))
		# What the guest said besides KTAP explains the first of them.
		[ -z "$stray" ] || emit "$stray"
		stray=
		repro=$(reproduce "$cur_word" "$name")
		emit "# reproduce: $repro"
		emit "not ok $n $prefix$name # not run: $died"
		record "not ok" "$name" " # not run: $died" "" "$repro"
	done <<< "$expected"
}

# guest_timeout SUITE: how long a guest of SUITE may run.  A netns guest
# gets the sum of its cases' own timeouts (each "# timeout: N", default
# 120, plus the 10 s the entry gives a case to die after TERM), stretched
# by TIMEOUT_SCALE, plus 300 s for boot and the checks around the cases:
# the guest is never killed while its cases are within their limits.
# Other guests: 1200 s, stretched the same way.  SUITE_TIMEOUT overrides
# both.
guest_timeout() {
	local c t sum=0
	if [ -n "${SUITE_TIMEOUT:-}" ]; then
		echo "$SUITE_TIMEOUT"
	elif scenario_suite "$1"; then
		for c in $(cases_of "$1" x); do
			[ -r "$top/netns-tests/$(case_dir "$1")/$c.sh" ] || continue
			t=$(sed -n 's/^# timeout: \([0-9]*\)$/\1/p' "$top/netns-tests/$(case_dir "$1")/$c.sh")
			sum=$((sum + ${t:-120} + 10))
		done
		echo $((sum * ${TIMEOUT_SCALE:-1} + 300))
	else
		echo $((1200 * ${TIMEOUT_SCALE:-1}))
	fi
}

# fix_cases FLAVOR carries|lacks: the netns cases whose fix ('# fixed-by:')
# FLAVOR's kernel carries, or is known to lack, comma-separated: the
# guest's wgt_fixed (with which other cases also hold a fixed kernel to
# tighter bounds, lib.sh kernel_fixed) and wgt_lacks.  A kernel whose
# patch list cannot be told (fix_known) lacks nothing known: a case in
# neither list runs on a kernel whose fix status is unknown.
fix_cases() {
	local d f c fix list=
	[ "$2" = carries ] || fix_known "$1" || return 0
	for d in $scenario_dirs; do for f in "$top/netns-tests/$d"/*.sh; do
		c=$(basename "$f" .sh)
		fix=$(case_fix "$c")
		[ -n "$fix" ] || continue
		if carries_fix "$1" "$fix"; then
			[ "$2" = carries ] || continue
		else
			[ "$2" = lacks ] || continue
		fi
		list="$list${list:+,}$c"
	done; done
	echo "$list"
}

# boot RUN FLAVOR ENTRY [boot.sh args]: boot one guest, its KTAP into
# $outdir/RUN.ktap; sets boot_rc.
boot() {
	local run=$1 flavor=$2 entry=$3 fixed lacks
	shift 3
	local out=$outdir/$run.ktap
	boot_rc=0
	# Under LAVA_BOOTS, boot.sh writes the boot instead of running it.
	[ -z "${lava_file:-}" ] || { set -- "$@" --lava "$lava_file"; out=/dev/null; }
	fixed=$(fix_cases "$flavor" carries)
	lacks=$(fix_cases "$flavor" lacks)
	# The guest learns which flavor it is meant to be (wgt_flavor), so a
	# case can check the running kernel against that claim, and which
	# known kernel bugs it has fixed (wgt_fixed).
	"$top/guest-image/boot.sh" --kernel "$(kernel_dir "$flavor")/$kimage" \
		--initrd "$initrd" --entry "$entry" --name "$run" \
		--append "wgt_flavor=$flavor${fixed:+ wgt_fixed=$fixed}${lacks:+ wgt_lacks=$lacks}${TIMEOUT_SCALE:+ wgt_timeout_scale=$TIMEOUT_SCALE}${boot_append:+ $boot_append}" --arch "$arch" \
		--timeout "$(guest_timeout "$entry")" "$@" > "$out" &
	# In the background and waited for: a TERM to this script is then
	# handled at once (bash runs traps only between foreground commands).
	wait $! || boot_rc=$?
}
died_msg() {
	if [ "$1" -ge 124 ]; then
		echo "guest died (boot.sh exit $1, console: $RESULTS_DIR/$2/console.log)"
	else
		echo "guest did not report it (exit $1)"
	fi
}

# boot_pair ENTRY RUN_I FLAVOR_I ARGS_I RUN_R FLAVOR_R ARGS_R: boot an
# initiator and a responder guest joined by a virtual link (a unix socket
# in a private folder, guest-image/link.sh; never a host NIC); sets rc_i
# and rc_r.
boot_pair() {
	local entry=$1 run_i=$2 fl_i=$3 args_i=$4 run_r=$5 fl_r=$6 args_r=$7
	link_new
	# The responder listens; the initiator connects once the listening
	# socket exists.
	(boot "$run_r" "$fl_r" "$entry" --smp 1 --args "$args_r" \
		--qemu "$(link_netdev server 52:54:00:77:00:02)"
	 exit $boot_rc) &
	local pid_r=$!
	link_wait $pid_r
	boot "$run_i" "$fl_i" "$entry" --smp 1 --args "$args_i" \
		--qemu "$(link_netdev client 52:54:00:77:00:01)"
	rc_i=$boot_rc
	rc_r=0
	wait $pid_r || rc_r=$?
	link_done
}

# boot_two_guest A B: the two-guest suite's guests, initiator A and
# responder B, with fresh keys; sets run, run_b, rc_i and rc_r.
boot_two_guest() {
	local a=$1 b=$2 priv_a priv_b pub_a pub_b
	command -v wg > /dev/null || die "wg (wireguard-tools) is needed on the host for two-guest keys"
	priv_a=$(wg genkey)
	priv_b=$(wg genkey)
	pub_a=$(echo "$priv_a" | wg pubkey)
	pub_b=$(echo "$priv_b" | wg pubkey)
	run=two-guest-$a+$b-initiator-$stamp
	run_b=two-guest-$a+$b-responder-$stamp
	boot_pair two-guest "$run" "$a" "initiator,$priv_a,$pub_b" \
		"$run_b" "$b" "responder,$priv_b,$pub_a"
}
collect_two_guest() {
	local a=$1 b=$2
	local prefix="$a+$b: two-guest:"
	guest_case "$run" "$rc_i"
	guest_case "$run_b" "$rc_r"
	where two-guest.initiator "$a" "$run"
	collect "$outdir/$run.ktap" "$prefix initiator ($a): " \
		"$(header_cases "$entries/two-guest" cases-initiator)" "$(died_msg "$rc_i" "$run")"
	where two-guest.responder "$b" "$run_b"
	collect "$outdir/$run_b.ktap" "$prefix responder ($b): " \
		"$(header_cases "$entries/two-guest" cases-responder)" "$(died_msg "$rc_r" "$run_b")"
}

# boot_interop I R: the guest or guests of one interop cell; sets run (and
# run_b, with two guests), boot_rc or rc_i and rc_r.
boot_interop() {
	local a=$1 b=$2 ia=kernel ib=kernel host
	[ "$a" != go ] || ia=go
	[ "$b" != go ] || ib=go
	if interop_two_guests "$a" "$b"; then
		run=interop-$a+$b-initiator-$stamp
		run_b=interop-$a+$b-responder-$stamp
		boot_pair interop "$run" "$a" "initiator,$ia,$ib" "$run_b" "$b" "responder,$ib"
	else
		host=$(interop_host "$a" "$b")
		run=interop-$a+$b-$stamp
		boot "$run" "$host" interop --args "local,$ia,$ib"
	fi
}
# interop_host I R: the flavor a cell of one guest boots.
interop_host() {
	local host=$1
	[ "$host" != go ] || host=$2
	[ "$host" != go ] || host=$INTEROP_GO_KERNEL
	echo "$host"
}

# The interop matrix: cell_I_R is pass or fail for each cell that ran.
interop_names=
collect_interop() {
	local a=$1 b=$2 failed_before=$failed
	local prefix="interop: $a -> $b: "
	if interop_two_guests "$a" "$b"; then
		guest_case "$run" "$rc_i"
		guest_case "$run_b" "$rc_r"
		where "interop.$a-to-$b" "$a" "$run"
		collect "$outdir/$run.ktap" "$prefix" "$(header_cases "$entries/interop" cases)" \
			"$(died_msg "$rc_i" "$run")"
		where "interop.$a-to-$b.responder" "$b" "$run_b"
		collect "$outdir/$run_b.ktap" "${prefix}responder: " \
			"$(header_cases "$entries/interop" cases-responder)" "$(died_msg "$rc_r" "$run_b")"
	else
		guest_case "$run" "$boot_rc"
		where "interop.$a-to-$b" "$(interop_host "$a" "$b")" "$run"
		collect "$outdir/$run.ktap" "$prefix" "$(header_cases "$entries/interop" cases)" \
			"$(died_msg "$boot_rc" "$run")"
	fi
	local v=pass
	[ "$failed" = "$failed_before" ] || v=FAIL
	eval "cell_$(echo "$a" | tr - _)_$(echo "$b" | tr - _)=$v"
	for x in "$a" "$b"; do
		case " $interop_names " in *" $x "*) ;; *) interop_names="$interop_names $x" ;; esac
	done
}

# The matrix of the cells that ran, rows initiators, columns responders.
interop_matrix() {
	local x y v line
	[ -n "$interop_names" ] || return 0
	emit "# interop matrix (rows: initiator, columns: responder)"
	line=$(printf '%-12s' "")
	for y in $interop_names; do line="$line$(printf '%-12s' "$y")"; done
	emit "# $line"
	for x in $interop_names; do
		line=$(printf '%-12s' "$x")
		for y in $interop_names; do
			eval "v=\${cell_$(echo "$x" | tr - _)_$(echo "$y" | tr - _):--}"
			line="$line$(printf '%-12s' "$v")"
		done
		emit "# $line"
	done
}

# The harness's own peer (wgpeer, the peer suite) against each
# implementation it met, a line under the matrix: its go-* cases against
# wireguard-go, the others against the kernel of their flavor; FAIL when
# one of them failed (a known failure, # TODO, is not one).
peer_row() {
	local line
	[ -e "$outdir/cases.tsv" ] || return 0
	# (Each result as its one reader gives it: its kind, then the
	# record, $5 where, $6 the case, $9 the flavor.)
	line=$(/usr/bin/python3 "$top/netns-tests/results.py" list "$outdir" | awk -F '\t' '$5 == "peer" {
			i = ($6 ~ /^go-/) ? "go" : $9
			if (!(i in v)) { v[i] = "pass"; o[++k] = i }
			if ($1 == "fail") v[i] = "FAIL"
		}
		END { for (j = 1; j <= k; j++) printf "%s%s %s", (j > 1 ? ", " : ""), o[j], v[o[j]] }')
	[ -z "$line" ] || emit "# wgpeer (the harness's own peer) against: $line"
}

# one_guest SUITE FLAVOR: the entry, boot_append and boot.sh arguments
# (boot_args) of a suite of one guest.  What a suite needs built first and
# could not be (the crypto-diff module) is prep_error: the guest is not
# booted, and its cases fail with that reason.
one_guest() {
	entry=$1 boot_append= boot_args=() prep_error=
	local cpio
	if [ "$1" = crypto-diff ]; then
		if cpio=$(ARCH=$arch WGT_HELD_KEY=$(cat "$(kernel_dir "$2")/key") \
			"$top/netns-tests/crypto-diff/build.sh" "$2"); then
			boot_args=(--extra "$cpio")
		else
			prep_error="the cryptodiff module or the host reference did not build (above)"
		fi
	fi
	! scenario_suite "$1" || [ -z "${CASES:-}" ] || boot_args=(--args "$CASES")
	if [ "$1" = timers ]; then
		# Virtual time: one vCPU (-icount runs every vCPU on one TCG
		# thread, and hung a two-vCPU guest at bring-up), 8 ns of guest
		# time per instruction (shift=3: a busy guest's clock runs at
		# about the host's pace), idle time skipped (sleep=off).  Never
		# KVM: its clock is the host's.  --stamp: boot.sh records when
		# each part of the verdict arrived, for vclock_note.
		boot_args=(--smp 1 --accel tcg --qemu "-icount shift=3,sleep=off" --stamp
			${CASES:+--args "$CASES"})
		# The kernel's tick rate, where its config tells it, bounds how
		# late a timer may fire (lib.sh timer_late_ms).
		local hz
		hz=$(sed -n 's/^CONFIG_HZ=\([0-9]*\)$/\1/p' "$(kernel_dir "$2")/config" 2> /dev/null || true)
		boot_append=${hz:+wgt_hz=$hz}
	fi
	[ "$1" != zinc-selftest ] || ! has_kunit "$2" || boot_append=kunit.enable=1
	if [ "$1" = zinc-selftest-relax ]; then
		entry=zinc-selftest boot_append=zinc.force_simd_relax=1
	fi
	if [ "$entry" = zinc-selftest ] && [ "${LONG_SELFTESTS:-0}" = 1 ]; then
		boot_append="${boot_append:+$boot_append }zinc_chacha20poly1305.selftest_sweep_all=1"
	fi
}

# kernel_desc FLAVOR: what was tested, from what kernel/build.sh recorded:
# the kernel's source, patch count and last patch (the user's, when
# PATCHES= added any), its key and folder.
kernel_desc() {
	local d img t src np
	d=$(kernel_dir "$1")
	# (A kernel built before kernel/build.sh recorded its source has
	# none: it is named by its patch count alone.)
	img=$(sed -n 's/^image=//p' "$d/source" 2> /dev/null || true)
	if [ -n "$img" ]; then
		echo "the prebuilt $img (key $(cat "$d/key"), $d)"
		return
	fi
	t=$(sed -n 's/^tree=//p' "$d/source" 2> /dev/null || true)
	if [ -n "$t" ]; then
		echo "the tree $t at $(sed -n 's/^describe=//p' "$d/source") (key $(cat "$d/key"), $d)"
		return
	fi
	src=$(sed -n 's/^package=//p' "$d/source" 2> /dev/null || true)
	np=$(grep -c . "$d/patches" 2> /dev/null || true)
	echo "${src:-linux-source-6.1} + ${np:-0} patches$([ "${np:-0}" = 0 ] || echo ", the last: '$(tail -n 1 "$d/patches")'") (key $(cat "$d/key" 2> /dev/null || echo unknown), $d)"
}

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
kernel_knobs=${PATCHES:+PATCHES=$PATCHES}${KERNEL_TREE:+ KERNEL_TREE=$KERNEL_TREE}${KERNEL:+ KERNEL=$KERNEL}${CONFIG_FRAGMENT:+ CONFIG_FRAGMENT=$CONFIG_FRAGMENT}
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

# boot_word I WORD: boot the guests of suite word number I; what the
# results need (run names, exit statuses, why a guest was not booted) goes
# to $outdir/word-I.rc, written last, for collect_word.  Run in a subshell
# of its own: a TERM stops its guests and removes its link.
boot_word() {
	local i=$1 flavor
	trap 'kill -TERM $(jobs -p) 2> /dev/null; link_done; exit 143' TERM
	split_word "$2"
	run="" run_b="" boot_rc=0 rc_i=0 rc_r=0 prep_error=""
	case "$suite" in
	two-guest) boot_two_guest "${flavors%%+*}" "${flavors#*+}" ;;
	interop) boot_interop "${flavors%%+*}" "${flavors#*+}" ;;
	*)
		flavor=$flavors
		run=$suite-$(label "$flavor")-$stamp
		one_guest "$suite" "$flavor"
		if [ -z "$prep_error" ]; then
			boot "$run" "$flavor" "$entry" "${boot_args[@]}"
		else
			printf '# not booted: %s\nnot ok 0 %s\n' "$prep_error" "$GUEST_CASE" > "$outdir/$run.ktap"
			boot_rc=1
		fi
		;;
	esac
	declare -p run run_b boot_rc rc_i rc_r prep_error > "$outdir/word-$i.tmp"
	mv "$outdir/word-$i.tmp" "$outdir/word-$i.rc"
}

# collect_word WORD: its results, from the variables word-I.rc set.
collect_word() {
	local flavor died
	cur_word=$1
	split_word "$1"
	case "$suite" in
	two-guest) collect_two_guest "${flavors%%+*}" "${flavors#*+}" ;;
	interop) collect_interop "${flavors%%+*}" "${flavors#*+}" ;;
	*)
		flavor=$flavors
		if [ -z "$prep_error" ]; then
			died=$(died_msg "$boot_rc" "$run")
			[ "$suite" != timers ] || vclock_note "$run"
			guest_case "$run" "$boot_rc"
		else
			died="not booted: $prep_error"
		fi
		where "$suite" "$(label "$flavor")" "$run"
		collect "$outdir/$run.ktap" "$(label "$flavor"): $suite: " "$(cases_of "$suite" "$flavor")" \
			"$died" "$(! scenario_suite "$suite" || echo "$flavor")"
		;;
	esac
}

# The words' guests run SUITE_JOBS words at once, each word's in a subshell
# (boot_word); the results are collected, and printed, in the words'
# order, each as soon as it and every word before it are done.  The whole
# netns suites (about 9 minutes each under TCG, the rest a minute or less)
# start first, so that the short words fill the other slots around them
# instead of one of them running on alone at the end.
words=("$@")
order=()
for long in 1 0; do
	for i in "${!words[@]}"; do
		split_word "${words[i]}"
		is_long=0
		! scenario_suite "$suite" || [ -n "${CASES:-}" ] || is_long=1
		[ $is_long != $long ] || order+=("$i")
	done
done
word_pid=()
next=0 done_n=0
# running: how many words started and not yet done.
running() {
	local i c=0
	for ((i = 0; i < next; i++)); do
		[ -e "$outdir/word-${order[i]}.rc" ] || [ "${order[i]}" -lt "$done_n" ] || c=$((c + 1))
	done
	echo $c
}
while [ $done_n -lt ${#words[@]} ]; do
	while [ $next -lt ${#words[@]} ] && [ "$(running)" -lt "$suite_jobs" ]; do
		# (Its stdout to stderr: the KTAP on stdout is collect's.)
		i=${order[next]}
		boot_word "$i" "${words[i]}" >&2 &
		word_pid[i]=$!
		next=$((next + 1))
	done
	if [ -z "${word_pid[done_n]:-}" ] ||
		{ [ ! -e "$outdir/word-$done_n.rc" ] && kill -0 "${word_pid[done_n]}" 2> /dev/null; }; then
		# (Not started yet, or still running.)  Waited for in the
		# background: a TERM is handled at once.
		sleep 1 &
		wait $! || true
		continue
	fi
	wait "${word_pid[done_n]}" || true
	[ -e "$outdir/word-$done_n.rc" ] ||
		die "${words[done_n]}: its guests could not be booted (the error above)"
	# shellcheck disable=SC1090 # boot_word's declare -p
	. "$outdir/word-$done_n.rc"
	rm -f "$outdir/word-$done_n.rc"
	collect_word "${words[done_n]}"
	done_n=$((done_n + 1))
done
interop_matrix
peer_row
echo "# results: $ktap"
# The same results as a KCIDB v5 report, validated; a report that cannot
# be written fails the run.
kcidb_ok=1
kcidb=$(/usr/bin/python3 "$top/netns-tests/kcidb/kcidb.py" write "$outdir") || kcidb_ok=0
[ $kcidb_ok = 0 ] || echo "# KCIDB: $kcidb"
# The history (netns-tests/history.sh, make history): this run appended,
# what is new since the last run of each kernel, and the flaky cases.
# (Not for a bisection's steps, WGT_HISTORY=0: their commits differ on
# purpose, and their flips are no flakes.)
if [ "${WGT_HISTORY:-1}" != 0 ]; then
	"$top/netns-tests/history.sh" add "$outdir" || echo "# history: not written (the error above)"
fi
# The run's page (netns-tests/page.py), read back: its case count and
# failing cases must be the KTAP's, or the run fails.
page_ok=1
page=$(/usr/bin/python3 "$top/netns-tests/page.py" write "$outdir") &&
	/usr/bin/python3 "$top/netns-tests/page.py" check "$outdir" > /dev/null || page_ok=0
[ $page_ok = 0 ] || echo "# page: $page"
todos=
[ $known = 0 ] || todos=", $known known failures (TODO)"
[ $known_unknown = 0 ] || todos="$todos, $known_unknown of them on a kernel whose fix status is unknown"
# The failures again, last, where a CI log's tail shows them.
[ $failed = 0 ] || grep '^not ok ' "$ktap" | grep -v '# TODO' | sed 's/^/# failed: /' || true
# More results than planned (a guest reported a case the plan did not
# name, e.g. a KUnit case the kernel ran that its source does not list):
# said, and the run fails, never a green line with a non-zero exit.
[ "$n" = "$total" ] ||
	emit "# the guests reported $n results, the plan had $total: the run fails"
echo "$passed passed, $failed failed, $skipped skipped$todos$([ "$n" = "$total" ] || echo ", $((n - total)) unplanned")"
[ $failed = 0 ] && [ $n = "$total" ] && [ $kcidb_ok = 1 ] && [ $page_ok = 1 ]
