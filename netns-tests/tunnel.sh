#!/bin/bash
# make's main job: boot FLAVOR, run the tunnel-basic scenario, and say in a
# few lines whether the handshake happened and what went through.
#
#   netns-tests/tunnel.sh FLAVOR
set -e -o pipefail
export LC_ALL=C

prog=netns-tests/tunnel.sh
die() { echo "$prog: $*" >&2; exit 1; }

top=$(cd "$(dirname "$0")/.." && pwd)
flavor=${1:-}
[ -n "$flavor" ] || die "usage: $prog FLAVOR"
BUILD_DIR=${BUILD_DIR:-$top/build}
export RESULTS_DIR=${RESULTS_DIR:-$BUILD_DIR/results}

out=$(mktemp "${TMPDIR:-/tmp}/wgt-tunnel.XXXXXX")
trap 'rm -f "$out"' EXIT
rc=0
CASES=tunnel-basic V=1 "$top/netns-tests/run.sh" "netns:$flavor" > "$out" || rc=$?
[ "${V:-0}" != 1 ] || cat "$out"

ver=$(sed -n 's/.*Linux version \([^ ]*\).*/\1/p' "$RESULTS_DIR"/netns-"$flavor"-*/console.log 2> /dev/null | tail -n 1)
accel=$(head -n 1 "$BUILD_DIR/accel" 2> /dev/null || echo "${ACCEL:-?}")
hs=$(sed -n 's/^# PASS: handshake: //p' "$out" | tail -n 1)
tput=$(sed -n 's/^# throughput: //p' "$out" | tail -n 1)
ktap=$(sed -n 's/^# results: //p' "$out")
what=$(sed -n 's/^# kernel [^:]*: //p' "$out" | sed -n 1p)

echo
echo "WireGuard tunnel, $flavor kernel ${ver:+($ver) }under ${accel^^}:"
echo "  kernel:     ${what:-?}"
echo "  handshake:  ${hs:-NOT completed}"
echo "  throughput: ${tput:-not measured}"
if [ $rc = 0 ]; then
	echo "  result:     PASS ($ktap)"
else
	grep -E '^# (FAIL|.*left behind)|^not ok' "$out" | sed 's/^/  /' || true
	echo "  result:     FAIL ($ktap)"
fi
exit $rc
