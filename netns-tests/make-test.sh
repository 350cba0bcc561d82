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
#      KCIDB's, LAVA's and the guest init's checks, this script's own
#      signal handling (netns-tests/signal-check.sh) and the results'
#      pruning (netns-tests/prune-results-check.sh), at the lowest
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
# sets them; 'true' leaves a part out).  Ctrl-C or TERM stops every part
# and everything it started (exit 130 or 143), as does a KILL of the
# process group; netns-tests/signal-check.sh checks it.
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

# Stopping: every process this run starts carries WGT_RUN_OWNER=PID.START
# (this script's pid and start time) in its environment, and stays in the
# process group it was started in (no setsid), so that
# - a KILL of the process group (a CI's hard stop) ends them all with it;
# - INT (Ctrl-C) or TERM: stop() sends TERM to every process carrying the
#   mark, a part's children and their orphans too, wherever their parent
#   went (run.sh stops its guests, boot.sh its QEMU), and KILL to what is
#   left after 10 s; exit 130 or 143.  Every part runs in the background
#   and is waited for: bash runs the trap at once, and a background job
#   ignores INT, so each part stops the one way, by TERM;
# - what escapes both (a process in a session of its own, such as
#   init-check's entries, when the group is killed) is ended by the next
#   run here: every process whose mark names a run no longer running.
# marked: "PID OWNER" for each process carrying a mark (run unmarked, so
# that the pipeline does not find itself).
marked() {
	grep -aoz -H '^WGT_RUN_OWNER=[0-9]*\.[0-9]*' /proc/[0-9]*/environ 2> /dev/null |
		tr '\0' '\n' | sed -n 's|^/proc/\([0-9]*\)/environ:WGT_RUN_OWNER=|\1 |p' || true
}
# started PID: when PID started (clock ticks since boot), empty if gone.
started() {
	[ -r "/proc/$1/stat" ] && sed 's/^.*) //' "/proc/$1/stat" 2> /dev/null | cut -d' ' -f20
}
me=$$.$(started $$)
# ours: the pids of this run's processes, this script's own aside.
ours() {
	(
		unset WGT_RUN_OWNER
		marked | awk -v me="$me" -v self=$$ '$2 == me && $1 != self { print $1 }'
	)
}
# (The pid lists are split into words on purpose.)
# shellcheck disable=SC2086
stop() {
	local left
	trap '' INT TERM
	left=$(ours)
	[ -z "$left" ] || kill -TERM $left 2> /dev/null || true
	for _ in $(seq 50); do
		left=$(ours)
		[ -n "$left" ] || break
		sleep 0.2
	done
	if [ -n "$left" ]; then
		echo "$prog: still running 10 s after TERM, killed:" >&2
		ps -o pid=,args= -p "$(echo $left | tr ' ' ,)" | sed 's/^/  /' >&2 || true
		kill -KILL $left 2> /dev/null || true
	fi
	wait 2> /dev/null || true
}
left=$(marked | while read -r p owner; do
	[ "$(started "${owner%.*}")" = "${owner#*.}" ] || echo "$p"
done)
if [ -n "$left" ]; then
	echo "$prog: ending what an earlier run killed outright left running:" >&2
	# shellcheck disable=SC2086
	ps -o pid=,args= -p "$(echo $left | tr ' ' ,)" | sed 's/^/  /' >&2 || true
	# shellcheck disable=SC2086
	kill -KILL $left 2> /dev/null || true
fi
export WGT_RUN_OWNER=$me
suites_pid=""
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
export BENCH_CMD=${BENCH_CHECK:-true} NATIVE_CMD=${NATIVE_CHECK:-true} FIXTURE_CMD=${FIXTURE_CHECK:-true} \
	SHELL_CMD=${SHELL_CHECK:-true}

start=$(date +%s)
echo "[test] bench's checks, alone on the host: $BENCH_CMD" >&2
part bench "$BENCH_CMD" &
wait $! || true

echo "[test] the suites, and beside them the native, kernel, pipes, history, KCIDB, LAVA, init, peer, signal, results and shell checks (nice 19) and the fixtures (their output: $logs)" >&2
# shellcheck disable=SC2016 # expanded by the inner shell
nice -n 19 bash -c "$(declare -f part)"'
	part native "$NATIVE_CMD"
	part kernel kernel/check.sh
	part pipes netns-tests/pipe-check.sh
	part history netns-tests/history-check.sh
	part kcidb netns-tests/kcidb/check.sh
	part lava netns-tests/lava/format-check.sh
	part init guest-image/check/init-check.sh
	part peer guest-image/peer/check.sh
	part signals netns-tests/signal-check.sh
	part results netns-tests/prune-results-check.sh
	part shell "$SHELL_CMD"' > "$logs/host.log" 2>&1 &
pids=($!)
# shellcheck disable=SC2016
FIXTURE_NICE=19 bash -c "$(declare -f part)"'
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
parts="bench native kernel pipes history kcidb lava init peer signals results shell fixtures"
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
