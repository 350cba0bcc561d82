#!/bin/bash
# Regression verdict: is the candidate of a new bench run slower than the
# candidate of a stored one, beyond the noise both runs measured?
#
#   bench/compare.sh NEW.json BASELINE.json
#   bench/compare.sh --check FILE.json     is FILE one? (before a long run)
#
# Both files are bench/bench.sh results (results.json).  For every mode and
# test the two have in common, the samples compared are, by default
# (BENCH_METRIC=paired), each repetition's candidate throughput divided by
# the baseline kernel's throughput in the same repetition: the two boots
# ran back to back, so a host that got busier or idler between the stored
# run and this one moves both and cancels out.  BENCH_METRIC=absolute
# compares the candidate's Mbit/s as they are (only meaningful on a quiet,
# unchanged host).
#
# A test regressed when both hold:
#  - the new median is below the stored median by more than BENCH_TOL
#    (default 0.05: 5%), and
#  - the one-sided exact Mann-Whitney test says the new samples are lower
#    with p <= BENCH_ALPHA (default 0.01): with 5 samples a side that
#    means at most one of the 25 (new, stored) pairs is out of order.
# Exit status: 0 no regression, 1 at least one, 2 bad input or nothing to
# compare.
set -e -o pipefail
export LC_ALL=C

prog=bench/compare.sh
die() { echo "$prog: $*" >&2; exit 2; }

top=$(cd "$(dirname "$0")/.." && pwd)

# check FILE: FILE is a bench results.json with its runs.
check() {
	[ -e "$1" ] || die "no file '$1'"
	[ -r "$1" ] || die "cannot read '$1'"
	grep -q '^"format": "wg-harness-bench/1",$' "$1" ||
		die "'$1' is not a bench results.json (no \"format\": \"wg-harness-bench/1\" line)"
	grep -q '^"runs": \[$' "$1" || die "'$1' has no runs array: truncated?"
}
if [ "${1:-}" = --check ]; then
	[ -n "${2:-}" ] || die "usage: $prog --check FILE.json"
	check "$2"
	exit 0
fi

new=${1:-} old=${2:-}
[ -n "$new" ] && [ -n "$old" ] || die "usage: $prog NEW.json BASELINE.json"
tol=${BENCH_TOL:-0.05}
alpha=${BENCH_ALPHA:-0.01}
metric=${BENCH_METRIC:-paired}
case "$metric" in paired|absolute) ;; *) die "BENCH_METRIC must be paired or absolute, not '$metric'" ;; esac
awk -v t="$tol" -v a="$alpha" 'BEGIN { exit !(t + 0 >= 0 && t + 0 < 1 && a + 0 > 0 && a + 0 <= 1) }' ||
	die "BENCH_TOL must be in [0, 1) and BENCH_ALPHA in (0, 1] (got $tol, $alpha)"
check "$new"
check "$old"

awk "$(cat "$top/bench/stats.awk")"'
# add_fail(a, file, key, kernel, rep, why): one failed repetition, for
# fails_of(a, key): the failures of both files, named.
function add_fail(a, file, key, k, r, why) {
	a[file, key] = a[file, key] sprintf("%s%s rep %d: %s", a[file, key] == "" ? "" : "; ", k, r, why)
}
function fails_of(a, key) {
	return ((1, key) in a ? "new: " a[1, key] : "") ((1, key) in a && (2, key) in a ? "; " : "") \
		((2, key) in a ? "stored: " a[2, key] : "")
}
# samples: per file (1 new, 2 old), mode and test, the values compared.
FNR == 1 { file++; inruns = 0; incost = 0 }
/^"candidate": / { label[file] = jget($0, "label") }
/^"baseline": / { blabel[file] = jget($0, "label") }
/^"runs": \[$/ { inruns = 1; next }
/^\]/ { inruns = 0; incost = 0; next }
/^"cost": \[$/ { incost = 1; next }
incost {
	m = jget($0, "mode"); t = jget($0, "test"); k = jget($0, "kernel"); r = jget($0, "rep")
	u = jget($0, "units"); e = jget($0, "error")
	key = m "\t" t
	if (!((file, key) in cseen)) { cseen[file, key] = 1; if (file == 1) ckeys[++nck] = key }
	if (e != "" || u == "" || u + 0 <= 0) {
		add_fail(cfail, file, key, k, r, e)
		next
	}
	if (k != "cand")
		next
	cval[file, key, "insns", ++cn[file, key, "insns"]] = log(jget($0, "insns") / u)
	if ((w = jget($0, "wg_insns")) != "")
		cval[file, key, "wg_insns", ++cn[file, key, "wg_insns"]] = log(w / u)
	unitof[key] = jget($0, "unit")
	next
}
inruns {
	m = jget($0, "mode"); t = jget($0, "test"); k = jget($0, "kernel"); r = jget($0, "rep"); v = jget($0, "mbit")
	key = m "\t" t
	if (v == "") {
		add_fail(fail, file, key, k, r, jget($0, "error"))
		next
	}
	if (!((file, key) in seen)) { seen[file, key] = 1; if (file == 1) keys[++nk] = key }
	val[file, key, k, r] = v
	reps[file, key, r] = 1
}
function collect(f, key, out,    r, n, c, b) {
	n = 0
	for (r = 1; r <= 1000; r++) {
		if (!((f, key, r) in reps))
			continue
		if (!((f, key, "cand", r) in val))
			continue
		c = val[f, key, "cand", r]
		if (metric == "absolute") {
			out[++n] = c
			continue
		}
		if (!((f, key, "base", r) in val))
			continue
		b = val[f, key, "base", r]
		if (b > 0)
			out[++n] = c / b
	}
	return n
}
# cost_section(): the candidate'"'"'s instructions per unit, new against
# stored (two samples: Hodges-Lehmann of the log differences, Mann-Whitney
# interval); sets ccompared, cbad, cerr.
function cost_section(    i, key, kk, met, x, y, nx, ny, j, v, judged, mm) {
	printf "Cost (guest instructions per unit, the candidate'"'"'s): new against stored; a regression:\n"
	printf "the %g%% interval of the change has its lower end above +%g%%\n\n", 100 - 200 * calpha, ctol * 100
	printf "%-6s %-9s %-9s %-26s %-26s %-26s %-10s %s\n", "mode", "test", "metric", "stored", "new", "change [interval]", "detectable", "verdict"
	for (i = 1; i <= nck; i++) {
		key = ckeys[i]
		split(key, kk, "\t")
		if (!((2, key) in cseen)) {
			printf "%-6s %-9s only in the new run: not compared\n", kk[1], kk[2]
			continue
		}
		if ((1, key) in cfail || (2, key) in cfail) {
			printf "%-6s %-9s ERROR: failed or missing repetitions: %s\n", kk[1], kk[2], fails_of(cfail, key)
			cerr++
			continue
		}
		for (mm = 1; mm <= 2; mm++) {
			met = mm == 1 ? "wg_insns" : "insns"
			# As report.sh: the attributed share, the whole guest only
			# without one; never cost-tcp.
			judged = kk[2] != "cost-tcp" && (met == "wg_insns" || !cn[1, key, "wg_insns"] || !cn[2, key, "wg_insns"])
			nx = cn[1, key, met]; ny = cn[2, key, met]
			if (!nx || !ny)
				continue
			split("", x); split("", y)
			for (j = 1; j <= nx; j++) x[j] = cval[1, key, met, j]
			for (j = 1; j <= ny; j++) y[j] = cval[2, key, met, j]
			hl_two(x, nx, y, ny, calpha)
			v = cost_verdict(ctol)
			if (!judged)
				v = "not judged"
			else if (v == "REGRESSION")
				cbad++
			else if (v == "undecided")
				cund++
			if (judged)
				ccompared++
			printf "%-6s %-9s %-9s %-26s %-26s %-26s %-10s %s\n", kk[1], kk[2], met,
				sprintf("%.6g n=%d", exp(median(y, ny)), ny), sprintf("%.6g n=%d", exp(median(x, nx)), nx),
				HL["lo"] == "" ? sprintf("%+.2f%% [-]", 100 * (exp(HL["est"]) - 1)) : \
					sprintf("%+.2f%% [%+.2f%% %+.2f%%]", 100 * (exp(HL["est"]) - 1), 100 * (exp(HL["lo"]) - 1), 100 * (exp(HL["hi"]) - 1)),
				HL["mde"] == "" ? "-" : sprintf("+%.2f%%", 100 * HL["mde"]), v
		}
	}
	printf "\n"
}
END {
	if (nck) {
		cost_section()
		if (cerr) {
			printf "VERDICT: ERROR: %d cost tests with failed or missing repetitions (named above): no verdict\n", cerr
			exit 2
		}
		if (ccompared) {
			printf "%s\n\n", cbad ? "VERDICT: REGRESSION in " cbad " of " ccompared " judged cost metrics" : \
				cund ? "VERDICT: undecided: " cund " of " ccompared " cost metrics have too few repetitions for a bound" : \
				"VERDICT: no regression (" ccompared " cost metrics judged)"
			printf "Throughput below: shown, not judged (the cost metric is; wall clock under TCG moves with the host'"'"'s load)\n\n"
		}
	}
	unit = metric == "paired" ? "cand/base" : "Mbit/s"
	printf "Regression check (%s): new candidate %s vs stored candidate %s\n", metric == "paired" ? \
		"per-repetition throughput ratio candidate/baseline" : "candidate Mbit/s", label[1], label[2]
	if (metric == "paired" && blabel[1] != blabel[2])
		printf "note: the baseline kernels differ (%s, stored %s): paired ratios assume the same reference\n", blabel[1], blabel[2]
	printf "rule: regressed when the median drops by more than %.0f%% and the one-sided exact Mann-Whitney p <= %s\n", tol * 100, alpha
	printf "HL: Hodges-Lehmann change new/stored with its %g%% Mann-Whitney interval; detectable: the smallest drop\n", 100 - 200 * alpha
	printf "this run could flag (the tolerance plus the estimate'"'"'s distance to the interval'"'"'s upper end)\n\n"
	printf "%-9s %-9s %-24s %-24s %-8s %-7s %-26s %-10s %s\n", "mode", "test", "stored " unit, "new " unit, "change", "p", "HL [interval]", "detectable", "verdict"
	compared = 0; bad = 0
	for (i = 1; i <= nk; i++) {
		key = keys[i]
		split("", y); split("", x)
		ny = collect(1, key, y)
		nx = collect(2, key, x)
		split(key, kk, "\t")
		if ((1, key) in fail || (2, key) in fail) {
			printf "%-9s %-9s ERROR: failed or missing repetitions: %s\n", kk[1], kk[2], fails_of(fail, key)
			err++
			continue
		}
		if (ny < 2 || nx < 2) {
			printf "%-9s %-9s not compared: %d new and %d stored samples (2 or more each needed)\n", kk[1], kk[2], ny, nx
			continue
		}
		compared++
		my = median(y, ny); mx = median(x, nx)
		p = mw_p_lower(y, ny, x, nx)
		change = mx > 0 ? my / mx - 1 : 0
		verdict = "ok"
		if (change < -tol && p <= alpha) {
			verdict = "REGRESSED"
			bad++
		} else if (change < -tol) {
			verdict = "ok (lower, within the noise)"
		} else if (p <= alpha && change < 0) {
			verdict = "ok (lower, below the tolerance)"
		}
		# The effect on the log scale: new (y) against stored (x).
		hl = det = "-"
		if (mx > 0 && amin(x, nx) > 0 && amin(y, ny) > 0) {
			split("", lx); split("", ly)
			for (j = 1; j <= nx; j++) lx[j] = log(x[j])
			for (j = 1; j <= ny; j++) ly[j] = log(y[j])
			hl_two(ly, ny, lx, nx, alpha)
			hl = HL["lo"] == "" ? sprintf("%+.1f%% [-]", 100 * (exp(HL["est"]) - 1)) : \
				sprintf("%+.1f%% [%+.1f%% %+.1f%%]", 100 * (exp(HL["est"]) - 1), 100 * (exp(HL["lo"]) - 1), 100 * (exp(HL["hi"]) - 1))
			if (HL["hi"] != "")
				det = sprintf("-%.1f%%", 100 * (1 - (1 - tol) * exp(HL["est"] - HL["hi"])))
		}
		fmt = metric == "paired" ? "%.3f [%.3f-%.3f] n=%d" : "%.1f [%.1f-%.1f] n=%d"
		printf "%-9s %-9s %-24s %-24s %+7.1f%% %-7.4f %-26s %-10s %s\n", kk[1], kk[2],
			sprintf(fmt, mx, amin(x, nx), amax(x, nx), nx), sprintf(fmt, my, amin(y, ny), amax(y, ny), ny),
			change * 100, p, hl, det, verdict
	}
	for (k in seen) {
		split(k, kk, SUBSEP)
		if (kk[1] == 2 && !((1, kk[2]) in seen)) {
			split(kk[2], mt, "\t")
			printf "%-9s %-9s only in the stored run: not compared\n", mt[1], mt[2]
		}
	}
	if (ccompared)
		exit cbad ? 1 : 0
	if (err) {
		printf "\nVERDICT: ERROR: %d throughput tests with failed or missing repetitions (named above): no verdict\n", err
		exit 2
	}
	if (!compared) {
		print "nothing to compare: the two runs share no mode and test with samples"
		exit 2
	}
	printf "\n%s\n", bad ? "VERDICT: REGRESSION in " bad " of " compared " throughput tests" : \
		"VERDICT: no regression (" compared " throughput tests compared)"
	exit bad ? 1 : 0
}' metric="$metric" tol="$tol" alpha="$alpha" ctol="${BENCH_COST_TOL:-0.01}" calpha="${BENCH_COST_ALPHA:-0.05}" "$new" "$old"
