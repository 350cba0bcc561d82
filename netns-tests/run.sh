#!/bin/bash
# Host side of the test suite: boot one guest per suite, collect each guest's
# KTAP from its verdict port, and print one KTAP document for the whole run,
# each case named after the flavor it ran on, closed by "N passed, N failed".
#
#   netns-tests/run.sh SUITE:FLAVOR...
#
# Suites: netns (the scenario files in netns-tests/cases, one case each;
# CASES=a,b limits them).  Kernels are taken from $BUILD_DIR/kernel/FLAVOR,
# the initramfs from $BUILD_DIR/initramfs.cpio.gz: build them first (make).
# The KTAP is also written to $RESULTS_DIR/test-TIME/ktap.txt.  V=1 passes
# on every case's diagnostics, not only those of failing cases.
set -e -o pipefail
export LC_ALL=C

prog=netns-tests/run.sh
die() { echo "$prog: $*" >&2; exit 1; }

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$top/build}
export RESULTS_DIR=${RESULTS_DIR:-$BUILD_DIR/results}
initrd=$BUILD_DIR/initramfs.cpio.gz
[ $# -gt 0 ] || die "usage: $prog SUITE:FLAVOR... (e.g. netns:stock)"
[ -r "$initrd" ] || die "no initramfs at $initrd: run 'make image' first"

# cases_of SUITE: the case names the suite will report, in order.
cases_of() {
	case "$1" in
	netns)
		if [ -n "${CASES:-}" ]; then
			echo "$CASES" | tr ',' '\n'
		else
			for f in "$top"/netns-tests/cases/*.sh; do basename "$f" .sh; done
		fi
		;;
	*) die "unknown suite '$1'" ;;
	esac
}

total=0
for sf in "$@"; do
	suite=${sf%%:*} flavor=${sf#*:}
	[ "$suite" != "$sf" ] || die "'$sf' is not SUITE:FLAVOR"
	[ -r "$BUILD_DIR/kernel/$flavor/bzImage" ] ||
		die "no $flavor kernel in $BUILD_DIR/kernel/$flavor: run 'make kernel FLAVOR=$flavor'"
	if [ "$suite" = netns ] && [ -n "${CASES:-}" ]; then
		for c in $(cases_of netns); do
			[ -r "$top/netns-tests/cases/$c.sh" ] || die "CASES names '$c', which is not a file in netns-tests/cases"
		done
	fi
	total=$((total + $(cases_of "$suite" | wc -l)))
done

stamp=$(date +%Y%m%d-%H%M%S)
outdir=$RESULTS_DIR/test-$stamp
mkdir -p "$outdir"
ktap=$outdir/ktap.txt
emit() { echo "$*" | tee -a "$ktap"; }

: > "$ktap"
emit "KTAP version 1"
emit "1..$total"
n=0 passed=0 failed=0 skipped=0
for sf in "$@"; do
	suite=${sf%%:*} flavor=${sf#*:}
	expected=$(cases_of "$suite")
	run=$suite-$flavor-$stamp
	rc=0
	boot_args=
	[ "$suite" = netns ] && [ -n "${CASES:-}" ] && boot_args="--args $CASES"
	# shellcheck disable=SC2086
	"$top/guest-image/boot.sh" --kernel "$BUILD_DIR/kernel/$flavor/bzImage" \
		--initrd "$initrd" --entry "$suite" --name "$run" \
		--timeout "${SUITE_TIMEOUT:-1200}" $boot_args > "$outdir/$run.ktap" ||
		rc=$?
	died=
	[ $rc -lt 124 ] || died="guest died (boot.sh exit $rc, console: $RESULTS_DIR/$run/console.log)"

	# Re-emit the guest's cases under global numbers, in the expected order.
	diag=
	reported=
	while IFS= read -r line; do
		case "$line" in
		'# '*)
			diag="$diag${diag:+
}$line"
			;;
		'ok '*|'not ok '*)
			res=${line%% [0-9]*}
			rest=${line#"$res "}
			rest=${rest#* }
			name=${rest%% \#*}
			directive=
			case "$rest" in *' # '*) directive=" # ${rest#* \# }" ;; esac
			n=$((n + 1))
			reported="$reported $name"
			if [ "$res" = ok ]; then
				case "$directive" in
				*SKIP*) skipped=$((skipped + 1)) ;;
				*) passed=$((passed + 1)) ;;
				esac
				[ "${V:-0}" != 1 ] || [ -z "$diag" ] || emit "$diag"
			else
				failed=$((failed + 1))
				[ -z "$diag" ] || emit "$diag"
			fi
			emit "$res $n $flavor: $suite: $name$directive"
			diag=
			;;
		esac
	done < "$outdir/$run.ktap"
	[ -z "$diag" ] || emit "$diag"
	for c in $expected; do
		case " $reported " in *" $c "*) continue ;; esac
		n=$((n + 1))
		failed=$((failed + 1))
		emit "not ok $n $flavor: $suite: $c # not run: ${died:-guest did not report it (exit $rc)}"
	done
done
echo "# results: $ktap"
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed = 0 ] && [ $n = "$total" ]
