#!/bin/bash
# bench's own checks, KTAP (part of make test): the cost verdict's
# statistics on known samples, bench-compare and report.sh on made-up
# results (a regression, identical runs, a failed repetition), and one
# short bench run of zinc against zinc through the instruction-counting
# plugin.
#
#   bench/check.sh            everything
#   BENCH_CHECK_BOOT=0 ...    without the guest boots (no kernel needed)
set -e -o pipefail
export LC_ALL=C

prog=bench/check.sh
die() { echo "$prog: $*" >&2; exit 1; }

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$top/build}
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR=$top/$BUILD_DIR ;; esac
export BUILD_DIR
boot=${BENCH_CHECK_BOOT:-1}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wgt-bench-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

plan=5
[ "$boot" = 0 ] || plan=7
. "$top/netns-tests/ktap-checks.sh"
ktap_begin bench $plan

stats() { awk "$(cat "$top/bench/stats.awk")"$'\n'"$1"; }

# 1. The exact interval bounds: the k of the signed-rank and Mann-Whitney
# lower bounds at 5%, against the published critical values (Wilcoxon
# signed-rank, one-sided 0.05: n=5 -> 1 (T<=0), n=6 -> 3, n=8 -> 6,
# n=10 -> 11; Mann-Whitney n=m=5 -> 5 (U<=4)).
t_bounds() {
	stats 'BEGIN {
		split("5 1 6 3 8 6 10 11", c, " ")
		for (i = 1; i <= 8; i += 2) {
			n = c[i]
			for (j = 1; j <= n; j++) d[j] = j
			hl_paired(d, n, 0.05)
			if (HL["k"] != c[i + 1]) { printf "signed-rank n=%d: k=%d, expected %d\n", n, HL["k"], c[i + 1]; bad = 1 }
		}
		for (j = 1; j <= 5; j++) { x[j] = j; y[j] = j }
		hl_two(x, 5, y, 5, 0.05)
		if (HL["k"] != 5) { printf "Mann-Whitney 5,5: k=%d, expected 5\n", HL["k"]; bad = 1 }
		hl_paired(d, 4, 0.05)
		if (HL["k"] != 0) { printf "signed-rank n=4: k=%d, expected 0 (no bound)\n", HL["k"]; bad = 1 }
		exit bad
	}'
}
check "cost statistics: exact interval bounds" t_bounds

# 2. Verdicts: +3% in all five pairs is a regression; +-0.2% noise is not;
# +0.5% (under the 1% tolerance) is not; four pairs are undecided.
t_verdicts() {
	stats 'function v(s, n, want,    d, i) {
		split(s, d, " ")
		for (i = 1; i <= n; i++) d[i] = log(d[i])
		hl_paired(d, n, 0.05)
		got = cost_verdict(0.01)
		if (got != want) { printf "ratios %s: %s, expected %s\n", s, got, want; bad = 1 }
	}
	BEGIN {
		v("1.031 1.029 1.030 1.032 1.028", 5, "REGRESSION")
		v("1.002 0.998 1.001 0.999 1.000", 5, "ok")
		v("1.005 1.004 1.006 1.005 1.005", 5, "ok")
		v("1.031 1.029 1.030 1.032", 4, "undecided")
		exit bad
	}'
}
check "cost statistics: verdicts on known ratios" t_verdicts

# A made-up results folder: REPS repetitions, the candidate's wg_insns per
# byte FACTOR times the baseline's (with a little noise), FAILREP (if any)
# a failed candidate repetition.  With FACTOR "-" no cost windows, as on a
# KVM host, and FAKE_MBIT (when set) the candidate's throughput factor in
# one udp-1392 test (about 5% noise).
fake_run() {
	local dir=$1 reps=$2 factor=$3 failrep=${4:-0}
	mkdir -p "$dir"
	cat > "$dir/meta.env" <<-EOF
	cand_label=cand
	base_label=base
	cand_kernel=made up
	base_kernel=made up
	reps=$reps
	secs=3
	tests=none
	modes=netns
	micro_ms=0
	cost=16/20
	cost_tol=0.01
	cost_alpha=0.05
	accel=tcg
	host=check
	EOF
	printf 'mode\ttest\tside\trep\torder\tmbit\tzinc_enc\tzinc_dec\tlib_enc\tlib_dec\tpkts\tboot\terror\n' > "$dir/runs.tsv"
	[ -z "${FAKE_MBIT:-}" ] || awk -v reps="$reps" -v f="$FAKE_MBIT" 'BEGIN {
		OFS = "\t"
		srand(11)
		for (r = 1; r <= reps; r++)
			for (s = 1; s <= 2; s++)
				print "netns", "udp-1392", s == 1 ? "CAND" : "BASE", r, s,
					sprintf("%.1f", 100 * (s == 1 ? f : 1) * (1 + (rand() - 0.5) * 0.1)), -1, -1, -1, -1, -1, "boot-" r, ""
	}' >> "$dir/runs.tsv"
	printf 'mode\tside\trep\trole\tzinc_enc\tzinc_dec\tlib_enc\tlib_dec\tpkts\tboot\n' > "$dir/sessions.tsv"
	printf 'side\trep\tprimitive\top\timpl\tbytes\tops\tcycles\tns\tbatch\tbest\n' > "$dir/micro.tsv"
	awk -v reps="$reps" -v f="$factor" -v fr="$failrep" 'BEGIN {
		OFS = "\t"
		print "mode", "test", "side", "rep", "order", "units", "unit", "insns", "wg_insns", "groups", "pkts", "boot", "error"
		if (f == "-")
			exit
		srand(7)
		for (r = 1; r <= reps; r++)
			for (s = 1; s <= 2; s++) {
				side = s == 1 ? "CAND" : "BASE"
				k = s == 1 ? f : 1
				if (side == "CAND" && r == fr) {
					print "netns", "cost-udp", side, r, s, "", "", "", "", "", "", "boot-" r, "guest died"
					continue
				}
				wg = 300000000 * k * (1 + (rand() - 0.5) * 0.002)
				print "netns", "cost-udp", side, r, s, 16776384, "byte", sprintf("%.0f", wg * 2.1), sprintf("%.0f", wg), "", 24858, "boot-" r, ""
			}
	}' > "$dir/cost.tsv"
	"$top/bench/report.sh" "$dir" > "$dir/report.out" 2>&1
}

# 3. report.sh: its own verdict on a 3% regression, on identical kernels,
# and on a run with a failed repetition.
t_report() {
	fake_run "$tmp/r-slow" 5 1.03
	grep -q '^VERDICT: REGRESSION' "$tmp/r-slow/table.txt" || { cat "$tmp/r-slow/table.txt"; echo "a 3% regression was not flagged"; return 1; }
	fake_run "$tmp/r-same" 5 1
	grep -q '^VERDICT: no regression' "$tmp/r-same/table.txt" || { cat "$tmp/r-same/table.txt"; echo "identical kernels were flagged"; return 1; }
	fake_run "$tmp/r-fail" 5 1 3
	grep -q '^VERDICT: ERROR' "$tmp/r-fail/table.txt" &&
		grep -q 'candidate rep 3: guest died' "$tmp/r-fail/table.txt" ||
		{ cat "$tmp/r-fail/table.txt"; echo "a failed repetition was not an error naming it"; return 1; }
}
check "report.sh: cost verdicts (regression, none, failed repetition)" t_report

# 4. bench-compare: new against stored, exit 1 on a regression, 0 on none,
# 2 naming a failed repetition (never a skipped sample).
t_compare() {
	local rc
	rc=0; "$top/bench/compare.sh" "$tmp/r-slow/results.json" "$tmp/r-same/results.json" > "$tmp/c1" || rc=$?
	[ $rc = 1 ] && grep -q '^VERDICT: REGRESSION' "$tmp/c1" || { cat "$tmp/c1"; echo "exit $rc for a 3% regression, expected 1"; return 1; }
	rc=0; "$top/bench/compare.sh" "$tmp/r-same/results.json" "$tmp/r-same/results.json" > "$tmp/c2" || rc=$?
	[ $rc = 0 ] || { cat "$tmp/c2"; echo "exit $rc for identical runs, expected 0"; return 1; }
	rc=0; "$top/bench/compare.sh" "$tmp/r-fail/results.json" "$tmp/r-same/results.json" > "$tmp/c3" || rc=$?
	[ $rc = 2 ] && grep -q 'cand rep 3: guest died' "$tmp/c3" || { cat "$tmp/c3"; echo "exit $rc for a failed repetition, expected 2 naming it"; return 1; }
}
check "bench-compare: exit 1 on a regression, 0 on none, 2 on a failed repetition" t_compare

# 4b. bench-compare without cost windows (a KVM host): the wall-clock
# verdict, with its Hodges-Lehmann interval and the smallest detectable
# drop: a 30% drop flagged, identical runs not.
t_compare_wall() {
	local rc
	FAKE_MBIT=0.7 fake_run "$tmp/w-slow" 5 -
	FAKE_MBIT=1 fake_run "$tmp/w-same" 5 -
	rc=0; "$top/bench/compare.sh" "$tmp/w-slow/results.json" "$tmp/w-same/results.json" > "$tmp/w1" || rc=$?
	[ $rc = 1 ] && grep -q '^netns .*udp-1392 .* -[0-9.]*% \[-[0-9.]*% -[0-9.]*%\] *-[0-9.]*% *REGRESSED' "$tmp/w1" ||
		{ cat "$tmp/w1"; echo "exit $rc for a 30% drop in wall clock, expected 1 with an interval and a detectable drop"; return 1; }
	rc=0; "$top/bench/compare.sh" "$tmp/w-same/results.json" "$tmp/w-same/results.json" > "$tmp/w2" || rc=$?
	[ $rc = 0 ] || { cat "$tmp/w2"; echo "exit $rc for identical wall-clock runs, expected 0"; return 1; }
}
check "bench-compare, wall clock: a 30% drop flagged with its interval and detectable drop, none for identical runs" t_compare_wall

# 5. The calibration patch applies to send.c as wg-patches leaves it (the
# zinc flavor's source tree, kernel/build.sh's build/kernel/src/KEY).
t_patch() {
	local key src d f
	key=$(cat "$BUILD_DIR/kernel/zinc/src-key" 2> /dev/null) || { echo "no zinc build (kernel/build.sh zinc)"; return 1; }
	src=$BUILD_DIR/kernel/src/$key
	[ -r "$src/drivers/net/wireguard/send.c" ] || { echo "no $src/drivers/net/wireguard/send.c"; return 1; }
	for f in "$top"/bench/calibration/*/0*.patch; do
		d=$tmp/am/$(basename "$f")
		mkdir -p "$d/drivers/net/wireguard"
		cp "$src/drivers/net/wireguard/send.c" "$d/drivers/net/wireguard/"
		(cd "$d" && patch -p1 --dry-run < "$f") || { echo "$(basename "$f") does not apply to wg-patches' send.c"; return 1; }
	done
}
[ "$boot" = 0 ] || check "calibration patch applies to wg-patches' send.c" t_patch

# 6. One short bench run, zinc against zinc, cost windows only: every
# window measured through the plugin, WireGuard's share found in its seven
# groups, FPU sections counted in the UDP window (zinc begins one per
# batch), and the two identical kernels' UDP cost per byte within 1%
# (observed: 0.05%).
t_boot() {
	local out=$tmp/run
	ACCEL=tcg BENCH_REPS=1 BENCH_TESTS=none BENCH_MODES=netns BENCH_MICRO_MS=0 BENCH_COST=2/2 \
		CAND=zinc BASE=zinc BENCH_OUT=$out "$top/bench/bench.sh" || { echo "bench.sh failed"; return 1; }
	awk -F'\t' 'NR > 1 {
		n++
		if ($13 != "") { print "failed: " $0; bad = 1 }
		if ($8 <= 0 || $9 <= 0 || $9 >= $8) { print "implausible counts: " $0; bad = 1 }
		if (split($10, g, ",") != 7) { print "not 7 groups: " $0; bad = 1 }
		if ($2 == "cost-udp") {
			u[$3] = $9 / $6
			if ($14 !~ /^[0-9]+$/ || $14 == 0) { print "no FPU section counted: " $0; bad = 1 }
		}
	}
	END {
		if (n != 8) { print n " cost rows, expected 8 (4 windows x 2 boots)"; bad = 1 }
		if (!("CAND" in u) || !("BASE" in u)) { print "no cost-udp row for both boots"; exit 1 }
		r = u["CAND"] / u["BASE"]
		printf "identical kernels: cost-udp wg_insns/byte %.4f and %.4f (ratio %.5f)\n", u["CAND"], u["BASE"], r
		if (r < 0.99 || r > 1.01) { print "identical kernels differ by more than 1%"; bad = 1 }
		exit bad
	}' "$out/cost.tsv"
}
[ "$boot" = 0 ] || check "cost plugin: zinc against zinc, 2 MiB and 2 handshakes" t_boot

echo "# bench: $((n - failed)) passed, $failed failed"
[ $failed = 0 ]
