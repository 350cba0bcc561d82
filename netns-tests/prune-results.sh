#!/bin/bash
# Prune RESULTS_DIR when a run starts (the Makefile calls it before make
# test, soak, test-matrix, test-debug and interop):
#
#   netns-tests/prune-results.sh RESULTS_DIR KEEP
#
# Of each kind of run, the KEEP newest stay (KEEP_RESULTS, default 20):
# test-STAMP/ (a run.sh run) with its guests' folders (*-STAMP/),
# soak-TIME-*/ (a make soak) and host-checks-STAMP/ (make test's host
# checks); older ones are removed, oldest first.  A run still going (its
# pid, the stamp's last part, runs, or a file in it changed in the last 10
# minutes) is never removed.  bench-*/ (baselines for bench-compare,
# small) and anything else stay.
set -e -o pipefail
export LC_ALL=C

prog=netns-tests/prune-results.sh
die() { echo "$prog: $*" >&2; exit 2; }

dir=${1:-} keep=${2:-20}
[ -n "$dir" ] || die "usage: $prog RESULTS_DIR [KEEP]"
case "$keep" in '' | *[!0-9]* | 0*) die "KEEP_RESULTS=$keep: must be a whole number from 1" ;; esac
[ -d "$dir" ] || exit 0

# busy DIR PID: the run in DIR is still going.
busy() {
	{ [ -n "$2" ] && [ -d "/proc/$2" ]; } ||
		[ -n "$(find "$1" -newermt '-10 minutes' -print -quit 2> /dev/null)" ]
}
# prune KIND: the runs of KIND (test, soak, host-checks) beyond the KEEP
# newest (their names sort by time).
prune() {
	local kind=$1 d name stamp pid n=0 gone=0
	for d in $(find "$dir" -mindepth 1 -maxdepth 1 -type d -name "$kind-[0-9]*" -printf '%f\n' | sort -r); do
		n=$((n + 1))
		[ $n -gt "$keep" ] || continue
		stamp=${d#"$kind"-} pid=
		case "$kind" in test | host-checks) pid=${stamp##*-} ;; esac
		busy "$dir/$d" "$pid" && continue
		rm -rf "${dir:?}/$d"
		# A test run's guests' folders: SUITE-FLAVOR[-ROLE]-STAMP.
		[ "$kind" != test ] || find "$dir" -mindepth 1 -maxdepth 1 -type d -name "*-$stamp" -exec rm -rf {} +
		gone=$((gone + 1))
	done
	[ $gone = 0 ] || echo "[results] removed the $gone oldest $kind runs in $dir (KEEP_RESULTS=$keep of each kind stay)"
}
prune test
prune soak
prune host-checks
