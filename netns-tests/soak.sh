#!/bin/bash
# Run the same suites N times and report each case's pass rate: the way to
# show a suite has no flakes (a case that fails once in ten runs is a
# defect), and to find the ones it has.
#
#   netns-tests/soak.sh N SUITE:FLAVOR...      (make soak REPEAT=N)
#
# Each run is a plain netns-tests/run.sh with its own results folder; the
# table (cases as rows: passes, failures, skips and known failures out of
# N, and the runs that failed) goes to stdout and to
# $RESULTS_DIR/soak-TIME/table.txt.  Exits non-zero when any case failed in
# any run (a known failure, # TODO, is not one).
set -e -o pipefail
export LC_ALL=C

prog=netns-tests/soak.sh
die() { echo "$prog: $*" >&2; exit 2; }

top=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-}
case "$n" in
'' | *[!0-9]* | 0) die "usage: $prog N SUITE:FLAVOR... (N: how many runs, at least 1)" ;;
esac
shift
[ $# -gt 0 ] || die "usage: $prog N SUITE:FLAVOR..."
BUILD_DIR=${BUILD_DIR:-$top/build}
RESULTS_DIR=${RESULTS_DIR:-$BUILD_DIR/results}
out=$(mktemp -d "$RESULTS_DIR/soak-$(date +%Y%m%d-%H%M%S)-XXXX")
child=
trap '[ -z "$child" ] || kill -TERM "$child" 2> /dev/null || true; exit 130' INT
trap '[ -z "$child" ] || kill -TERM "$child" 2> /dev/null || true; exit 143' TERM

start=$(date +%s)
exited=
for i in $(seq 1 "$n"); do
	echo "[soak] run $i of $n: $*" >&2
	rc=0
	RESULTS_DIR=$out/run-$i "$top/netns-tests/run.sh" "$@" > "$out/run-$i.out" 2>&1 &
	child=$!
	wait "$child" || rc=$?
	child=
	echo "[soak] run $i: $(tail -n 1 "$out/run-$i.out") (exit $rc)" >&2
	# A run that failed before or beside its cases (a harness error, a
	# report it could not write) fails the soak even with no case row.
	[ $rc = 0 ] || exited="$exited $i"
done

# One row per case: the results of every run, as their one reader reads
# each run's record (netns-tests/results.py).
results() { /usr/bin/python3 "$top/netns-tests/results.py" "$@"; }
run_results() {
	local i d
	for i in $(seq 1 "$n"); do
		for d in "$out/run-$i"/test-*; do
			[ ! -d "$d" ] || results list "$d" | awk -v r="$i" '{ print r "\t" $0 }'
		done
	done
}
{
	printf '%-60s %5s %5s %5s %5s  %s\n' case pass fail skip todo "failed in runs"
	run_results | awk -F '\t' -v n="$n" '
		{
			c = $5
			if (!(c in seen)) { seen[c] = 1; order[++k] = c }
			if ($2 == "known") todo[c]++
			else if ($2 == "fail") { fail[c]++; runs[c] = runs[c] " " $1 }
			else if ($2 == "skip") skip[c]++
			else pass[c]++
		}
		END {
			for (i = 1; i <= k; i++) {
				c = order[i]
				printf "%-60s %5d %5d %5d %5d %s\n", c, pass[c], fail[c], skip[c], todo[c], runs[c]
				if (fail[c]) bad++
			}
			printf "%d cases, %d runs, %d cases failed at least once\n", k, n, bad
		}'
	[ -z "$exited" ] || echo "runs that exited non-zero:$exited (see $out/run-N.out)"
	echo "time: $(($(date +%s) - start)) s; runs in $out"
} | tee "$out/table.txt"
[ -z "$exited" ] || exit 1
# Known failures (# TODO: a kernel without the fix a case names) do not
# fail the soak; every other failure does.
[ "$(run_results | awk -F '\t' '$2 == "fail" { f++ } END { print f + 0 }')" = 0 ]
