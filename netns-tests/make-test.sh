#!/bin/bash
# What 'make test' runs once its kernels are built.
#
#   netns-tests/make-test.sh SUITE:FLAVOR...
#
# 1. bench's own checks (BENCH_CHECK), alone: its cost verdict counts a
#    guest's instructions, and a busy host changes how many timer
#    interrupts a TCG guest takes for the same work.
# 2. The suites (netns-tests/run.sh SUITE:FLAVOR...), with the host-side
#    checks beside them:
#    - NATIVE_CHECK (Zinc natively, and a short fuzz), kernel/build.sh's,
#      KCIDB's, LAVA's and the guest init's checks, at the lowest
#      priority (nice 19): they take the CPU the guests leave while they
#      wait on timers and packets, and the guests barely feel them;
#    - FIXTURE_CHECK (the user's path: a series on top of a flavor), whose
#      kernel builds are niced the same way, while its two short guests
#      run as a suite's do.
#    The suites' KTAP comes as they run; the host checks' output is kept
#    in RESULTS_DIR/host-checks-TIME/ and printed after it.
# 3. One line per part, and the exit status: non-zero when any failed.
#
# BENCH_CHECK, NATIVE_CHECK and FIXTURE_CHECK are commands (the Makefile
# sets them; 'true' leaves a part out).  Ctrl-C or TERM stops every part.
set -e -o pipefail
export LC_ALL=C

prog=netns-tests/make-test.sh
die() { echo "$prog: $*" >&2; exit 1; }

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
[ $# -gt 0 ] || die "usage: $prog SUITE:FLAVOR..."
BUILD_DIR=${BUILD_DIR:-$top/build}
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR=$top/$BUILD_DIR ;; esac
export BUILD_DIR
RESULTS_DIR=${RESULTS_DIR:-$BUILD_DIR/results}
case "$RESULTS_DIR" in /*) ;; *) RESULTS_DIR=$top/$RESULTS_DIR ;; esac
export RESULTS_DIR
logs=$RESULTS_DIR/host-checks-$(date +%Y%m%d-%H%M%S)-$$
mkdir -p "$logs"

# Each part beside the suites runs in a session of its own (setsid), so
# that stopping it stops whatever it is running at the time; run.sh stops
# its own guests on TERM.
pids=() suites_pid=""
stop() {
	local p
	for p in "${pids[@]}"; do
		kill -TERM -- "-$p" 2> /dev/null || true
	done
	[ -z "$suites_pid" ] || kill -TERM "$suites_pid" 2> /dev/null || true
	wait 2> /dev/null || true
}
trap stop EXIT
trap 'echo "$prog: interrupted; stopping every part" >&2; exit 130' INT
trap 'exit 143' TERM

# part NAME COMMAND: run COMMAND (a shell command line) and keep its exit
# status in $logs/NAME.rc; a part with no such file did not finish.
part() {
	local rc=0
	bash -c "$2" || rc=$?
	echo "$rc" > "$logs/$1.rc"
}
export logs
export BENCH_CMD=${BENCH_CHECK:-true} NATIVE_CMD=${NATIVE_CHECK:-true} FIXTURE_CMD=${FIXTURE_CHECK:-true}

start=$(date +%s)
echo "[test] bench's checks, alone on the host: $BENCH_CMD" >&2
part bench "$BENCH_CMD"

echo "[test] the suites, and beside them the native, kernel, KCIDB, LAVA and init checks (nice 19) and the fixtures (their output: $logs)" >&2
# shellcheck disable=SC2016 # expanded by the inner shell
setsid nice -n 19 bash -c "$(declare -f part)"'
	part native "$NATIVE_CMD"
	part kernel kernel/check.sh
	part kcidb netns-tests/kcidb/check.sh
	part lava netns-tests/lava/format-check.sh
	part init guest-image/check/init-check.sh' > "$logs/host.log" 2>&1 &
pids+=($!)
# shellcheck disable=SC2016
FIXTURE_NICE=19 setsid bash -c "$(declare -f part)"'
	part fixtures "$FIXTURE_CMD"' > "$logs/fixtures.log" 2>&1 &
pids+=($!)

suites_rc=0
netns-tests/run.sh "$@" &
suites_pid=$!
wait $suites_pid || suites_rc=$?
suites_pid=""
suites_end=$(date +%s)
echo "[test] the suites are done; waiting for the checks beside them" >&2
for p in "${pids[@]}"; do
	wait "$p" || true
done
pids=()
echo "# the checks beside the suites (ended $(($(date +%s) - suites_end)) s after them):"
cat "$logs/host.log" "$logs/fixtures.log"

# The verdict: every part above, by the name part() kept its status under.
parts="bench native kernel kcidb lava init fixtures"
failed=""
[ "$suites_rc" = 0 ] || failed="$failed suites"
for name in $parts; do
	[ "$(cat "$logs/$name.rc" 2> /dev/null)" = 0 ] || failed="$failed $name"
done
if [ -z "$failed" ]; then
	echo "[test] $(($(date +%s) - start)) s: every part passed: suites $parts"
else
	echo "[test] $(($(date +%s) - start)) s: FAILED:$failed"
	exit 1
fi
