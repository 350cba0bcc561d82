#!/bin/bash
# The results' history: every run's cases, a line each, in
# RESULTS_DIR/history.tsv (default BUILD_DIR/results), read from the run's
# record (cases.tsv and run.env, netns-tests/run.sh).
#
#   netns-tests/history.sh add OUTDIR    append run OUTDIR; print what is
#                                        new since the last run of each
#                                        of its kernels, and its flaky cases
#   netns-tests/history.sh show [N]      per case, the last N (default 10)
#                                        results, oldest first, and flips
#
# A line: the run's start time, its stamp, the kernel (the flavor and the
# knobs that name the user's kernel: run.sh's kernel_knob_names, PATCHES,
# KERNEL_TREE, KERNEL, KERNEL_CONFIG, CONFIG_FRAGMENT, SERIES, FIXES), the
# kernel's content key, the result (P pass, F fail,
# S skip, X known failure) and the KTAP name.  "The same kernel" is the
# same flavor and knobs, whatever its content.  A case is flaky when its
# result flipped more than once in its last 10 runs on one kernel.
set -e -o pipefail
export LC_ALL=C

prog=netns-tests/history.sh
die() { echo "$prog: $*" >&2; exit 1; }
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$top/build}
RESULTS_DIR=${RESULTS_DIR:-$BUILD_DIR/results}
hist=$RESULTS_DIR/history.tsv

# The lines, the news and the table are netns-tests/results.py's, the one
# reader of a run's record.
results() { /usr/bin/python3 "$top/netns-tests/results.py" "$@"; }
add() {
	[ -r "$1/run.env" ] || die "$1 has no run.env: not a run's results"
	results history-add "$1" "$hist"
}

show() {
	local n=${1:-10}
	case "$n" in '' | *[!0-9]* | 0) die "N=$n: a number of runs, at least 1" ;; esac
	[ -s "$hist" ] || { echo "no history yet in $hist (make test or make check writes it)"; return 0; }
	results history-show "$hist" "$n"
	echo "(P pass, F fail, S skip, X known failure; oldest first; $hist)"
}

case "${1:-}" in
add) [ -n "${2:-}" ] || die "usage: $prog add OUTDIR"; add "$2" ;;
show) show "${2:-10}" ;;
*) die "usage: $prog add OUTDIR | show [N]" ;;
esac
