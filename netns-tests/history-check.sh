#!/bin/bash
# netns-tests/history.sh on made-up runs (part of make test, KTAP): three
# runs of one kernel and one of the same flavor with PATCHES; each run's
# news (newly failing, newly passing, flaky) and make history's table.
set -e -o pipefail
export LC_ALL=C

prog=netns-tests/history-check.sh
die() { echo "$prog: $*" >&2; exit 1; }
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wgt-history-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
. "$top/netns-tests/ktap-checks.sh"
export RESULTS_DIR=$tmp/results
h=$top/netns-tests/history.sh
t=$'\t'

# run N KNOBS RESULTS: a made-up run N of zinc (KNOBS: its kernel_knobs),
# its cases a, b, c with RESULTS (three of ok, fail, skip, todo).
run() {
	local out=$RESULTS_DIR/test-$1 i=0 r res dir
	mkdir -p "$out/kernel/zinc"
	echo "key$1" > "$out/kernel/zinc/key"
	printf 'stamp=s%s\nstart_time=2026-12-0%sT10:00:00+00:00\nkernel_root=%s\nkernel_knobs=%s\n' \
		"$1" "$1" "$out/kernel" "$2" > "$out/run.env"
	: > "$out/cases.tsv"
	printf 'KTAP version 1\n1..3\n' > "$out/ktap.txt"
	for r in $3; do
		i=$((i + 1))
		res=ok dir=
		case "$r" in
		fail) res="not ok" ;;
		skip) dir="SKIP no IPv6" ;;
		todo) res="not ok" dir="TODO known failure: x" ;;
		esac
		c=$(printf '%s' abc | cut -c$i)
		printf '%s\n' "$i$t$res${t}zinc: netns: $c${t}netns$t$c$t$dir${t}1${t}zinc${t}netns-zinc-s$1${t}qemu_restarts=0" >> "$out/cases.tsv"
		[ "$r" != fail ] || echo "# FAIL: $c's check" >> "$out/ktap.txt"
		echo "$res $i zinc: netns: $c${dir:+ # $dir}" >> "$out/ktap.txt"
	done
	"$h" add "$out" > "$tmp/news-$1"
	cat "$tmp/news-$1"
}

ktap_begin history 5

t_first() {
	run 1 "" "ok ok fail"
	grep -x '# history: 0 of 3 results new or changed since the last run of their kernel, 3 first runs, 0 flaky' "$tmp/news-1" ||
		die "a first run is not said to be one"
	[ "$(wc -l < "$RESULTS_DIR/history.tsv")" = 3 ] || die "not 3 lines in the history"
	grep -qx "2026-12-01T10:00:00+00:00${t}s1${t}zinc${t}key1${t}F${t}zinc: netns: c" "$RESULTS_DIR/history.tsv" ||
		die "c's line is not 'start, stamp, zinc, key1, F, name'"
}
check "a first run: appended, a line per case, nothing new" t_first

t_news() {
	run 2 "" "fail ok ok"
	grep -x '# history: newly failing: zinc: netns: a (was pass on 2026-12-01T10:00:00+00:00)' "$tmp/news-2" ||
		die "a's new failure is not named"
	grep -x '# history: newly passing: zinc: netns: c (pass now, failed on 2026-12-01T10:00:00+00:00)' "$tmp/news-2" ||
		die "c's new pass is not named"
	! grep 'netns: b' "$tmp/news-2" || die "b did not change, and is named"
	run 3 "" "ok skip fail"
	grep -x '# history: flaky: zinc: netns: a: PFP (last 3, oldest first)' "$tmp/news-3" ||
		die "a (pass, fail, pass) is not flaky"
	grep -x '# history: flaky: zinc: netns: c: FPF (last 3, oldest first)' "$tmp/news-3" || die "c (fail, pass, fail) is not flaky"
	grep -x '# history: 2 of 3 results new or changed since the last run of their kernel, 0 first runs, 2 flaky' "$tmp/news-3" ||
		die "the summary is wrong"
}
check "the next runs: newly failing, newly passing, and the cases that flipped twice as flaky" t_news

t_kernels() {
	run 4 "PATCHES=my-series" "fail fail todo"
	grep -x '# history: 0 of 3 results new or changed since the last run of their kernel, 3 first runs, 0 flaky' "$tmp/news-4" ||
		die "zinc with PATCHES= is not a kernel of its own"
}
check "zinc with PATCHES= has a history of its own" t_kernels

t_show() {
	"$h" show 10 > "$tmp/show"
	cat "$tmp/show"
	grep -E '^PFP +zinc +2 flips, flaky .*zinc: netns: a$' "$tmp/show" || die "a's line is not PFP, 2 flips, flaky"
	grep -E '^PPS +zinc +1 flips .*zinc: netns: b$' "$tmp/show" || die "b's line is not PPS, 1 flip"
	grep -E '^X +zinc PATCHES=my-series +0 flips .*zinc: netns: c$' "$tmp/show" || die "c on zinc PATCHES=my-series is not X"
	"$h" show 2 > "$tmp/show2"
	grep -E '^FP +zinc +1 flips, flaky .*zinc: netns: a$' "$tmp/show2" ||
		die "RUNS=2: a's line is not FP, 1 flip (flaky over its last 10)"
}
check "make history: each case's last results per kernel, its flips, flaky" t_show

# The run's page (netns-tests/page.py), as run.sh writes and reads it
# back after every run: run 3 (c failed, b skipped).
t_page() {
	local p=$RESULTS_DIR/test-3 py=$top/netns-tests/page.py
	/usr/bin/python3 "$py" write "$p"
	/usr/bin/python3 "$py" check "$p"
	grep -F '<td class="hist">FPF</td>' "$p/index.html" > /dev/null || die "c's history (FPF) is not on the page"
	grep -F "# FAIL: c&#x27;s check" "$p/index.html" > /dev/null || die "c's diagnostics are not on the page"
	# A page that lost the failure, or a row, is refused.
	sed -i 's|<section class="failure"[^>]*>|<section>|' "$p/index.html"
	! /usr/bin/python3 "$py" check "$p" 2> "$tmp/err" || die "a page without c's failure passed the check"
	cat "$tmp/err"
	/usr/bin/python3 "$py" write "$p" > /dev/null
	sed -i '0,/<tr class="case/s|<tr class="case[^>]*>|<tr>|' "$p/index.html"
	! /usr/bin/python3 "$py" check "$p" 2> "$tmp/err" || die "a page without a row passed the check"
	cat "$tmp/err"
}
check "the run's page: every case, c's failure with its diagnostics and history; a page that lost either is refused" t_page

echo "# history: $((n - failed)) passed, $failed failed"
[ "$failed" = 0 ]
