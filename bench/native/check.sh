#!/bin/bash
# The native part of 'make test': make native-test and a short make fuzz,
# their KTAP kept in files, one summary line each on stderr (stdout stays
# the guest suite's single KTAP document), the failing cases with their
# diagnostics on stderr.  Exit status: 0 when both passed.
#
#   bench/native/check.sh
#
# Knobs (environment): TEST_FUZZ_SECONDS (default 20, per target), BUILD_DIR,
# NATIVE_TREE (a patched tree to test instead of the one bench/native/tree.sh
# makes from wg-patches/).
set -e -o pipefail
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
BUILD_DIR=${BUILD_DIR:-$top/build}
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR=$top/$BUILD_DIR ;; esac
export BUILD_DIR
results=$BUILD_DIR/results
mkdir -p "$results"

# check NAME FILE COMMAND...: run it, summarise it, show what failed.
check() {
	local name=$1 file=$2 rc=0 start
	start=$(date +%s)
	shift 2
	"$@" > "$file" 2> "$file.log" || rc=$?
	echo "[native] $name: $(tail -1 "$file" | sed 's/^# [a-z-]*: //') in $(( $(date +%s) - start )) s ($file)" >&2
	if [ $rc != 0 ]; then
		echo "[native] $name FAILED (exit status $rc):" >&2
		awk '/^not ok /{p=1; print; next} /^(ok |KTAP|1\.\.)/{p=0} p' "$file" >&2
		tail -5 "$file.log" >&2
	fi
	return $rc
}

failed=0
check native-test "$results/native-test.txt" "$here/run-tests.sh" || failed=1
check fuzz "$results/fuzz.txt" env FUZZ_SECONDS="${TEST_FUZZ_SECONDS:-20}" \
	"$here/fuzz.sh" || failed=1
exit $failed
