#!/bin/bash
# make page-check: a run's page (netns-tests/page.py) in a real browser:
# Debian's headless Chromium renders OUTDIR/index.html (default: the
# newest test run in RESULTS_DIR), its DOM is read back and checked against
# the KTAP (the case count, every failing case), and a screenshot is saved
# as OUTDIR/index-screenshot.png.  Not part of make test: it needs
# Chromium (make page-check installs it, as root).
#
#   netns-tests/page-browser.sh [OUTDIR]
set -e -o pipefail
export LC_ALL=C

prog=netns-tests/page-browser.sh
die() { echo "$prog: $*" >&2; exit 1; }
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$top/build}
RESULTS_DIR=${RESULTS_DIR:-$BUILD_DIR/results}
out=${1:-}
if [ -z "$out" ]; then
	out=$(ls -d "$RESULTS_DIR"/test-*/ 2> /dev/null | sort | tail -n 1)
	[ -n "$out" ] || die "no test run in $RESULTS_DIR: run make check or make test first, or name one (PAGE=DIR)"
fi
out=${out%/}
[ -r "$out/index.html" ] || die "$out has no index.html (a run before pages were written?)"
browser=$(command -v chromium || true)
[ -n "$browser" ] || die "chromium is not installed (make page-check installs it, as root)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wgt-page.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
flags="--headless --no-sandbox --disable-gpu --user-data-dir=$tmp/profile"
# shellcheck disable=SC2086
timeout 120 "$browser" $flags --dump-dom "file://$(realpath "$out/index.html")" > "$tmp/dom.html" 2> "$tmp/dom.err" ||
	{ cat "$tmp/dom.err" >&2; die "chromium could not render $out/index.html"; }
[ -s "$tmp/dom.html" ] || { cat "$tmp/dom.err" >&2; die "chromium gave no DOM for $out/index.html"; }
/usr/bin/python3 "$top/netns-tests/page.py" check "$out" "$tmp/dom.html"
# shellcheck disable=SC2086
timeout 120 "$browser" $flags --hide-scrollbars --window-size=1280,1024 \
	--screenshot="$out/index-screenshot.png" "file://$(realpath "$out/index.html")" > /dev/null 2>&1 ||
	die "chromium could not take a screenshot of $out/index.html"
[ -s "$out/index-screenshot.png" ] || die "no screenshot written"
echo "screenshot: $out/index-screenshot.png"
