#!/bin/bash
# make-test.sh's signal handling, KTAP (part of make test, a few seconds, no
# guest): netns-tests/make-test.sh runs in a folder of stand-ins, where
# every part it starts (bench's, native's, kernel's, KCIDB's, LAVA's and
# init's checks, the fixtures, run.sh and the boot.sh it starts in the
# background) is a stub that starts a child of its own (a stand-in for
# a check's compiler or a guest's QEMU) and waits.  Once all are up it is
#  - sent INT as a process group (Ctrl-C in a terminal), in the suites'
#    phase and in bench's: it exits 130;
#  - sent TERM (a CI's cancel, or kill): it exits 143;
#  - its process group sent KILL (a CI's hard stop): no trap runs;
# and in every case no process of the run is left; and what a group's
# KILL cannot reach (a process in a session of its own, as init-check's
# entries are) is ended by the next run (each carries a mark in
# its environment, looked for in /proc).  The stubs' children end after
# 60 s on their own, so a failed check leaves nothing for long.  About 10 s
# when all pass.
set -e -o pipefail
export LC_ALL=C

prog=netns-tests/signal-check.sh
die() { echo "$prog: $*" >&2; exit 1; }

top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wgt-signal-check.XXXXXX")
mark=wgt-signal-check-$$
# left: the pids of processes still carrying this check's mark.
left() {
	grep -lzx "WGT_SIGNAL_CHECK=$mark" /proc/[0-9]*/environ 2> /dev/null |
		sed 's|^/proc/\([0-9]*\)/environ$|\1|' || true
}
# running PID: PID runs (a zombie, ended and not yet reaped, does not).
running() {
	local st
	st=$(sed 's/^.*) //' "/proc/$1/stat" 2> /dev/null | cut -d' ' -f1)
	[ -n "$st" ] && [ "$st" != Z ]
}
cleanup() {
	local p
	for p in $(left); do kill -KILL "$p" 2> /dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT

. "$top/netns-tests/ktap-checks.sh"

# The stand-in tree: the real make-test.sh, stubs for what it runs.
t=$tmp/tree
mkdir -p "$t/netns-tests/kcidb" "$t/netns-tests/lava" "$t/guest-image/check" "$t/kernel" "$tmp/bin"
cp "$top/netns-tests/make-test.sh" "$t/netns-tests/"
cp "$(command -v sleep)" "$tmp/bin/child"
# stub NAME: what every part's stub does: note itself, start a child and
# wait for it, as a check waits on its compiler or boot.sh on QEMU.
cat > "$t/stub" << 'STUB'
#!/bin/bash
name=$1
"$WGT_STUB_BIN/child" 60 &
if [ "$name" = native ] && [ -n "${WGT_STUB_DETACH:-}" ]; then
	setsid "$WGT_STUB_BIN/child" 60 &
	echo $! > "$WGT_STUB_DETACH"
fi
echo "$$ $!" > "$WGT_STUB_UP/$name"
wait
STUB
# run.sh's stand-in: its traps (interrupted, with every boot.sh stopped by
# TERM) and boot.sh started in the background and waited for, as run.sh
# does; boot.sh's: its traps, QEMU in the background.
cat > "$t/netns-tests/run.sh" << 'STUB'
#!/bin/bash
interrupted() {
	trap - INT TERM
	kill -TERM $(jobs -p) 2> /dev/null || true
	wait 2> /dev/null || true
	exit "$1"
}
trap 'interrupted 130' INT
trap 'interrupted 143' TERM
trap 'kill -TERM $(jobs -p) 2> /dev/null || true' EXIT
echo $$ > "$WGT_STUB_UP/run.sh"
RUN_BOOT
wait $! || true
STUB
cat > "$t/boot.sh" << 'STUB'
#!/bin/bash
qemu_pid=
trap '[ -z "$qemu_pid" ] || kill -KILL "$qemu_pid" 2> /dev/null || true' EXIT
BOOT_TRAPS
"$WGT_STUB_BIN/child" 60 &
qemu_pid=$!
echo "$$ $qemu_pid" > "$WGT_STUB_UP/boot.sh"
wait "$qemu_pid"
STUB
# The two lines above taken from the real scripts, so the stand-ins
# change as they do.
# (run.sh's guests part, netns-tests/run/guests.sh, starts boot.sh.)
boot_line=$(grep -m1 '^	"$top/guest-image/boot.sh" ' "$top/netns-tests/run/guests.sh" | sed 's/ --kernel.*//')
[ -n "$boot_line" ] || die "no boot.sh line found in netns-tests/run/guests.sh"
boot_traps=$(grep "^trap .* \(INT\|TERM\)" "$top/guest-image/boot.sh")
[ -n "$boot_traps" ] || die "no INT or TERM trap found in guest-image/boot.sh"
sed -i "s|^RUN_BOOT\$|top=$t; ${boot_line//|/\\|} \&|" "$t/netns-tests/run.sh"
awk -v traps="$boot_traps" '$0 == "BOOT_TRAPS" { print traps; next } { print }' "$t/boot.sh" > "$t/boot.sh.new"
mv "$t/boot.sh.new" "$t/boot.sh"
mkdir -p "$t/guest-image"
mv "$t/boot.sh" "$t/guest-image/boot.sh"
for s in kernel/check.sh netns-tests/kcidb/check.sh netns-tests/lava/format-check.sh guest-image/check/init-check.sh; do
	printf '#!/bin/bash\nexec "%s" %s\n' "$t/stub" "$(basename "$(dirname "$s")")" > "$t/$s"
done
chmod +x "$t/stub" "$t/netns-tests/run.sh" "$t/guest-image/boot.sh" "$t"/kernel/check.sh \
	"$t"/netns-tests/kcidb/check.sh "$t"/netns-tests/lava/format-check.sh "$t"/guest-image/check/init-check.sh

# start WAIT_FOR...: make-test.sh in a process group of its own (as under
# make, in a terminal or a CI job), taking INT as a foreground job does
# (a background job's INT is ignored); returns once every stub named is
# up.
start() {
	local up=$tmp/up-$RANDOM i s missing
	mkdir -p "$up"
	BENCH=true
	[ "$1" != bench ] || BENCH="$t/stub bench"
	WGT_SIGNAL_CHECK=$mark WGT_STUB_UP=$up WGT_STUB_BIN=$tmp/bin BUILD_DIR=$tmp/build RESULTS_DIR=$tmp/build/results \
		BENCH_CHECK=$BENCH NATIVE_CHECK="$t/stub native" FIXTURE_CHECK="$t/stub fixtures" \
		WGT_STUB_DETACH=${WGT_STUB_DETACH:-} env --default-signal=INT setsid "$t/netns-tests/make-test.sh" netns:zinc \
		> "$tmp/make-test.log" 2>&1 &
	mt=$!
	for i in $(seq 300); do
		missing=
		for s in "$@"; do [ -s "$up/$s" ] || missing="$missing $s"; done
		[ -n "$missing" ] || break
		sleep 0.1
	done
	[ -z "$missing" ] || { cat "$tmp/make-test.log"; die "not started:$missing"; }
	sleep 0.2
	echo "# running: $(left | wc -l) processes"
}
# stops SIGNAL TARGET WANT [EXCEPT]: send it, then make-test.sh's exit
# status is WANT (or any, for -) and within 20 s nothing of the run is
# left (but the pid EXCEPT).
stops() {
	local rc=0 i p
	kill -"$1" -- "$2"
	wait "$mt" || rc=$?
	echo "# make-test.sh: exit $rc"
	for i in $(seq 200); do
		[ -n "$(left | grep -vxF "${4:-none}")" ] || break
		sleep 0.1
	done
	p=$(left | grep -vxF "${4:-none}" || true)
	if [ -n "$p" ]; then
		echo "# left running:"
		ps -o pid,pgid,sid,args -p "$(echo "$p" | paste -sd ,)" | sed 's/^/#   /'
		for i in $p; do kill -KILL "$i" 2> /dev/null || true; done
		return 1
	fi
	[ "$3" = - ] || [ "$rc" = "$3" ] || { echo "# wanted exit $3"; sed 's/^/# make-test.sh: /' "$tmp/make-test.log"; return 1; }
}
int_suites() { start native fixtures run.sh boot.sh; stops INT "-$mt" 130; }
int_bench() { start bench; stops INT "-$mt" 130; }
term() { start native fixtures run.sh boot.sh; stops TERM "$mt" 143; }
kill_group() {
	WGT_STUB_DETACH=$tmp/detached start native fixtures run.sh boot.sh
	stops KILL "-$mt" - "$(cat "$tmp/detached")"
}
next_run() {
	local d
	d=$(cat "$tmp/detached")
	running "$d" || { echo "# no detached process left by the KILL"; return 1; }
	start native fixtures run.sh boot.sh
	cat "$tmp/make-test.log"
	if running "$d"; then
		echo "# the detached process $d still runs"
		stops TERM "$mt" 143 || true
		return 1
	fi
	stops TERM "$mt" 143
}

ktap_begin signals 5
check "INT to the process group (Ctrl-C) beside the suites: exit 130, nothing left" int_suites
check "INT to the process group while bench's checks run: exit 130, nothing left" int_bench
check "TERM: exit 143, nothing left" term
check "KILL to the process group: nothing left in the group" kill_group
check "what a KILL could not reach (its own session) the next run ends" next_run
echo "# signals: $((n - failed)) passed, $failed failed"
[ "$failed" = 0 ]
