#!/bin/bash
# netns-tests/prune-results.sh's checks, KTAP (part of make test, under a
# second): in a made-up RESULTS_DIR of 25 finished test runs (each with
# its guests' folders), 3 soaks, 25 host-checks folders, a bench run and a
# run still going, KEEP=20 leaves the 20 newest of each kind with their
# guests' folders, the running one, the bench and a stray file; KEEP=0
# is refused.
set -e -o pipefail
export LC_ALL=C

prog=netns-tests/prune-results-check.sh
die() { echo "$prog: $*" >&2; exit 1; }

top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wgt-prune-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
. "$top/netns-tests/ktap-checks.sh"
ktap_begin results 2

r=$tmp/results
mkdir -p "$r"
# Finished runs: old files, pids that no longer run (99999999).
for i in $(seq -w 1 25); do
	s=202601$i-120000-99999999
	mkdir -p "$r/test-$s" "$r/netns-zinc-$s" "$r/two-guest-zinc+zinc-initiator-$s" "$r/host-checks-$s"
	: > "$r/test-$s/ktap.txt"
done
mkdir -p "$r/soak-20260101-120000-aaaa" "$r/soak-20260102-120000-bbbb" "$r/bench-20250101-000000"
: > "$r/notes.txt"
find "$r" -exec touch -d '2026-02-01 00:00' {} +
# A run still going: older by its name, its run.sh (this script) alive.
mkdir -p "$r/test-20250101-000000-$$" "$r/netns-zinc-20250101-000000-$$"

prunes() {
	"$top/netns-tests/prune-results.sh" "$r" 20
	local got
	got=$(find "$r" -mindepth 1 -maxdepth 1 -name 'test-*' | wc -l)
	[ "$got" = 21 ] || die "$got test runs left, not 20 and the running one"
	[ ! -e "$r/test-20260101-120000-99999999" ] && [ ! -e "$r/test-20260105-120000-99999999" ] ||
		die "an old test run is left"
	[ -e "$r/test-20260106-120000-99999999" ] && [ -e "$r/test-20260125-120000-99999999" ] ||
		die "one of the 20 newest test runs is gone"
	[ ! -e "$r/netns-zinc-20260103-120000-99999999" ] && [ ! -e "$r/two-guest-zinc+zinc-initiator-20260103-120000-99999999" ] ||
		die "a removed run's guests' folders are left"
	[ -e "$r/netns-zinc-20260110-120000-99999999" ] || die "a kept run's guest folder is gone"
	[ -e "$r/test-20250101-000000-$$" ] && [ -e "$r/netns-zinc-20250101-000000-$$" ] || die "the running run was removed"
	[ "$(find "$r" -mindepth 1 -maxdepth 1 -name 'host-checks-*' | wc -l)" = 20 ] || die "not 20 host-checks folders"
	[ -e "$r/soak-20260101-120000-aaaa" ] && [ -e "$r/bench-20250101-000000" ] && [ -e "$r/notes.txt" ] ||
		die "a soak (within 20), the bench run or a stray file is gone"
}
refuses_zero() {
	! "$top/netns-tests/prune-results.sh" "$r" 0 || die "KEEP=0 was taken"
}
check "KEEP=20: the 20 newest runs of each kind, their guests' folders, a running run, bench and others stay" prunes
check "KEEP=0 is refused" refuses_zero
echo "# results: $((n - failed)) passed, $failed failed"
[ "$failed" = 0 ]
