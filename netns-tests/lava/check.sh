#!/bin/bash
# make lava-check: the LAVA jobs (make lava-jobs) run by Debian's
# lava-dispatcher, lava-run without a server, and their case results
# compared with a direct run of the same suites (netns-tests/run.sh).  KTAP:
# one result per job, ok when the job completed and every case has the
# same result both ways (a case one side lacks differs).
#
#   netns-tests/lava/check.sh [SUITE:FLAVOR...]
#
# Default: zinc-selftest:zinc netns:zinc (CASES= narrows netns, as for
# run.sh).  Everything is kept in BUILD_DIR/lava-check/TIME: the jobs,
# each lava-run log (JOB.log), its cases (JOB.lava) and the direct run's
# (JOB.direct), and the direct run's KTAP (direct.ktap).
set -e -o pipefail
export LC_ALL=C

prog=netns-tests/lava/check.sh
die() { echo "$prog: $*" >&2; exit 1; }

top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD_DIR=${BUILD_DIR:-$top/build}
arch=${ARCH:-x86_64}
command -v lava-run > /dev/null ||
	die "lava-run is missing: run 'make lava-check' as root (it installs Debian's lava-dispatcher)"
[ "$(id -u)" = 0 ] ||
	die "lava-run runs as root only (it says: lava-run should be executed as root)"
[ $# -gt 0 ] || set -- zinc-selftest:zinc netns:zinc

work=$BUILD_DIR/lava-check/$(date +%Y%m%d-%H%M%S)-$$
mkdir -p "$work"
lava_pid=
tmp=$work/tmp
mkdir -p "$tmp"
cleanup() {
	# lava-run leads its own process group: QEMU goes with it.
	[ -z "$lava_pid" ] || kill -TERM -- "-$lava_pid" 2> /dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "[lava] jobs for $* in $work" >&2
"$top/netns-tests/lava/jobs.sh" "$work" "$@" > "$work/jobs.txt"
mapfile -t jobs < <(grep '/jobs/.*\.yaml$' "$work/jobs.txt")
device=$work/devices/wgt-qemu-$arch.yaml

echo "[lava] the direct run: netns-tests/run.sh $*" >&2
direct_rc=0
"$top/netns-tests/run.sh" "$@" > "$work/direct.ktap" || direct_rc=$?
tsv=$(sed -n 's/^# results: //p' "$work/direct.ktap")
tsv=${tsv%/ktap.txt}/cases.tsv
[ -r "$tsv" ] || die "the direct run (exit $direct_rc) wrote no cases.tsv: see $work/direct.ktap"
echo "[lava] direct run: $(tail -n 1 "$work/direct.ktap") (exit $direct_rc)" >&2

. "$top/netns-tests/ktap-checks.sh"
ktap_begin lava ${#jobs[@]}
i=0
for job in "${jobs[@]}"; do
	i=$((i + 1))
	name=$(basename "$job" .yaml)
	suite=$(sed -n 's/^  suite: //p' "$job")
	label=$(sed -n 's/^  kernel: //p' "$job")
	start=$(date +%s)
	echo "[lava] lava-run $name" >&2
	rc=0
	setsid lava-run --job-id "$i" --output-dir "$tmp/$name" \
		--device "$device" "$job" > "$work/$name.log" 2>&1 &
	lava_pid=$!
	wait "$lava_pid" || rc=$?
	lava_pid=
	echo "[lava] $name: lava-run exit $rc after $(($(date +%s) - start))s" >&2
	awk -F'\t' -v s="$suite" -v l="$label" '$4 == s && $8 == l' "$tsv" > "$work/$name.direct"
	(
		echo "lava-run exit $rc, log $work/$name.log"
		/usr/bin/python3 "$top/netns-tests/lava/lava.py" results "$work/$name.log" > "$work/$name.lava"
		/usr/bin/python3 "$top/netns-tests/lava/lava.py" compare "$work/$name.direct" "$work/$name.lava"
	) > "$tmp/out" 2>&1 && r=0 || r=1
	# (The table is JOB.compare; an ok job shows its count line.)
	cp "$tmp/out" "$work/$name.compare"
	[ "$r" != 0 ] || sed -n 's/^\([0-9]* direct, .*\)/# \1/p' "$tmp/out"
	result "$r" "$suite:$label: LAVA's results equal the direct run's"
done
echo "# $work"
[ "$failed" = 0 ]
