#!/bin/bash
# Summarise one bench run: table on stdout (also table.txt), results.json
# and results.png in the run's folder.
#
#   bench/report.sh RESULTS_FOLDER
#
# Reads what bench/bench.sh left there: meta.env, runs.tsv, sessions.tsv,
# micro.tsv.  Per mode and test: the median throughput of each kernel with
# its min and max, the ratio of the medians candidate/baseline with a 95%
# percentile-bootstrap interval, and the median of the per-repetition
# ratios (each repetition boots both kernels back to back).  The crypto
# column says which code the function profiler saw encrypt and decrypt the
# packets: calls to Zinc's and lib/crypto's in-place SG functions per data
# packet, summed over the runs.
set -e -o pipefail
export LC_ALL=C

prog=bench/report.sh
die() { echo "$prog: $*" >&2; exit 1; }

top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-}
[ -n "$dir" ] || die "usage: $prog RESULTS_FOLDER"
[ -e "$dir/cost.tsv" ] || printf 'mode\ttest\tside\trep\torder\tunits\tunit\tinsns\twg_insns\tgroups\tpkts\tboot\terror\tfpu_sections\n' > "$dir/cost.tsv"
for f in meta.env runs.tsv sessions.tsv micro.tsv; do
	[ -r "$dir/$f" ] || die "$dir/$f is missing: not a bench/bench.sh results folder"
done
stats=$top/bench/stats.awk
# astat PROGRAM FILE...: awk, tab-separated, with the functions of stats.awk.
astat() {
	local p=$1
	shift
	awk -F'\t' "$(cat "$stats")"$'\n'"$p" "$@"
}
meta() { sed -n "s/^$1=//p" "$dir/meta.env" | tail -n 1; }
cand=$(meta cand_label) base=$(meta base_label)

# summary.tsv: one line per mode and test.
astat '
NR == 1 { next }
{
	k = $1 "\t" $2
	if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
	if ($6 == "NA") { fails[k]++; next }
	if ($3 == "CAND") { c[k, ++nc[k]] = $6; crep[k, $4] = $6 } else { b[k, ++nb[k]] = $6; brep[k, $4] = $6 }
	reps[$4] = 1
	if ($7 != "" && $7 >= 0) {
		ze[k, $3] += $7 + $8; le[k, $3] += $9 + $10; pk[k, $3] += $11; prof[k, $3] = 1
	}
}
function evidence(k, s,    z, l, p) {
	if (!prof[k, s])
		return "-"
	p = pk[k, s] > 0 ? pk[k, s] : 1
	z = ze[k, s] / p
	l = le[k, s] / p
	if (ze[k, s] > 0 && le[k, s] == 0)
		return sprintf("zinc:%.2f", z)
	if (le[k, s] > 0 && ze[k, s] == 0)
		return sprintf("lib:%.2f", l)
	return sprintf("zinc:%.2f+lib:%.2f", z, l)
}
END {
	for (i = 1; i <= nk; i++) {
		k = keys[i]
		split("", x); split("", y); split("", pr)
		for (j = 1; j <= nc[k]; j++) x[j] = c[k, j]
		for (j = 1; j <= nb[k]; j++) y[j] = b[k, j]
		np = 0
		for (r in reps)
			if ((k, r) in crep && (k, r) in brep && brep[k, r] > 0)
				pr[++np] = crep[k, r] / brep[k, r]
		mc = median(x, nc[k]); mb = median(y, nb[k])
		ratio = lo = hi = ""
		if (nc[k] && nb[k] && mb > 0) {
			ratio = mc / mb
			boot_ratio(x, nc[k], y, nb[k], 2000)
			lo = BOOT_LO; hi = BOOT_HI
		}
		printf "%s\t%d\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%d\n", k,
			nc[k], mc, nc[k] ? amin(x, nc[k]) : "", nc[k] ? amax(x, nc[k]) : "",
			nb[k], mb, nb[k] ? amin(y, nb[k]) : "", nb[k] ? amax(y, nb[k]) : "",
			ratio, lo, hi, np, np ? median(pr, np) : "", np ? amin(pr, np) : "", np ? amax(pr, np) : "",
			evidence(k, "CAND"), evidence(k, "BASE"), fails[k]
	}
}' "$dir/runs.tsv" > "$dir/summary.tsv"

# micro-summary.tsv: per kernel, primitive, operation, implementation and
# length: cycles per byte (per operation for Curve25519) of the fastest
# batch of each run, median, min and max over the runs; the same from all
# batches (mean); and operations per second (from the mean).  Under TCG the
# cycles are the host's TSC: the fastest batch is the one the host's other
# work disturbed least.
astat '
NR == 1 { next }
{
	k = $1 "\t" $3 "\t" $4 "\t" $5 "\t" $6
	if (!(k in n)) keys[++nk] = k
	n[k]++
	per = $3 == "curve25519" ? 1 : $6
	best[k, n[k]] = $11 / ($10 * per)
	mean[k, n[k]] = $8 / ($7 * per)
	ops[k, n[k]] = $7 * 1e9 / $9
}
END {
	for (i = 1; i <= nk; i++) {
		k = keys[i]
		split("", x); split("", y); split("", z)
		for (j = 1; j <= n[k]; j++) { x[j] = best[k, j]; y[j] = ops[k, j]; z[j] = mean[k, j] }
		printf "%s\t%d\t%.4g\t%.4g\t%.4g\t%.6g\t%.6g\t%.6g\t%.4g\t%.4g\t%.4g\n", k, n[k],
			median(x, n[k]), amin(x, n[k]), amax(x, n[k]),
			median(y, n[k]), amin(y, n[k]), amax(y, n[k]),
			median(z, n[k]), amin(z, n[k]), amax(z, n[k])
	}
}' "$dir/micro.tsv" > "$dir/micro-summary.tsv"

# cost-summary.tsv: per mode, test and metric (insns: the whole guest;
# wg_insns: WireGuard's and its crypto's objects), instructions per unit of
# each kernel, median [min - max]; the candidate's change against the
# baseline: Hodges-Lehmann estimate of the per-repetition log ratios
# (paired: the two boots of a repetition) with its signed-rank interval,
# the smallest increase the run could have flagged, and the verdict.
# Judged: wg_insns of cost-udp and cost-hs. cost-tcp's ACK count follows
# timing, and so does the whole guest'"'"'s count (a vCPU spins while the host
# has descheduled its partner): both shown, not judged.
cost_tol=$(meta cost_tol) cost_alpha=$(meta cost_alpha)
astat '
NR == 1 { next }
{
	k = $1 "\t" $2
	if (!(k in seen)) { seen[k] = 1; keys[++nk] = k; unit[k] = "" }
	reps[$4] = 1
	if ($13 != "" || $8 == "") { fail[k] = fail[k] sprintf("%s%s rep %d: %s", fail[k] == "" ? "" : "; ", $3 == "CAND" ? "candidate" : "baseline", $4, $13); next }
	unit[k] = $7
	v[k, "insns", $3, $4] = $8 / $6
	if ($9 != "") { v[k, "wg_insns", $3, $4] = $9 / $6; haswg[k, $3] = 1 }
}
function line(k, met,    n, r, x, y, d, nx, ny, verdict, judged, both) {
	split("", x); split("", y); split("", d)
	nx = ny = n = 0
	for (r in reps) {
		if ((k, met, "CAND", r) in v) x[++nx] = v[k, met, "CAND", r]
		if ((k, met, "BASE", r) in v) y[++ny] = v[k, met, "BASE", r]
		if ((k, met, "CAND", r) in v && (k, met, "BASE", r) in v && v[k, met, "BASE", r] > 0)
			d[++n] = log(v[k, met, "CAND", r] / v[k, met, "BASE", r])
	}
	if (nx == 0 && ny == 0 && fail[k] == "")
		return
	# Judged: WireGuard'"'"'s and its crypto'"'"'s share (the whole guest only
	# when there is no share: a kernel without System.map), not cost-tcp.
	both = (k, "CAND") in haswg && (k, "BASE") in haswg
	judged = k !~ /\tcost-tcp$/ && (met == "wg_insns" ? both : !both)
	HL["est"] = HL["lo"] = HL["hi"] = HL["mde"] = ""
	if (fail[k] != "")
		verdict = "error"
	else if (!judged && !n)
		verdict = "not judged"
	else if (n) {
		hl_paired(d, n, alpha)
		verdict = cost_verdict(tol)
		if (!judged)
			verdict = "not judged"
	} else
		verdict = "error"
	printf "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", k, met, unit[k],
		nx, nx ? median(x, nx) : "", nx ? amin(x, nx) : "", nx ? amax(x, nx) : "",
		ny, ny ? median(y, ny) : "", ny ? amin(y, ny) : "", ny ? amax(y, ny) : "",
		n, HL["est"] == "" ? "" : exp(HL["est"]) - 1, HL["lo"] == "" ? "" : exp(HL["lo"]) - 1,
		HL["hi"] == "" ? "" : exp(HL["hi"]) - 1, HL["mde"], verdict, fail[k]
}
END {
	for (i = 1; i <= nk; i++) {
		line(keys[i], "wg_insns")
		line(keys[i], "insns")
	}
}' tol="$cost_tol" alpha="$cost_alpha" "$dir/cost.tsv" > "$dir/cost-summary.tsv"

# cost-groups.tsv: where the instructions went, per mode, test and kernel:
# the median over the repetitions of each group's instructions (the
# groups of bench/cost/ranges.sh) and of the FPU sections begun, per
# packet that crossed a wg0 (an encryption or a decryption) in the packet
# windows, per handshake in cost-hs. Shown, not judged: wg_insns, their
# sum, is what the verdict judges.
COST_GROUPS=chacha20,poly1305,chacha20poly1305,curve25519,blake2s,wireguard,fpu
astat '
NR == 1 { next }
$13 != "" || $10 == "" { next }
{
	k = $1 "\t" $2 "\t" $3
	if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
	per = $7 == "handshake" ? $6 : $11
	if (per <= 0)
		next
	j = ++n[k]
	ng[k] = split($10, g, ",")
	for (i = 1; i <= ng[k]; i++) v[k, i, j] = g[i] / per
	v[k, "total", j] = $9 / per
	v[k, "sec", j] = $14 == "" ? -1 : $14 / per
}
END {
	for (x = 1; x <= nk; x++) {
		k = keys[x]
		printf "%s\t%s", k, n[k]
		for (i = 1; i <= ng[k]; i++) {
			for (j = 1; j <= n[k]; j++) a[j] = v[k, i, j]
			printf "%s%.1f", i == 1 ? "\t" : ",", median(a, n[k])
		}
		for (j = 1; j <= n[k]; j++) a[j] = v[k, "total", j]
		printf "\t%.1f", median(a, n[k])
		for (j = 1; j <= n[k]; j++) a[j] = v[k, "sec", j]
		printf "\t%s\n", a[1] < 0 ? "" : sprintf("%.4f", median(a, n[k]))
	}
}' "$dir/cost.tsv" > "$dir/cost-groups.tsv"

# The table.
{
	echo "WireGuard throughput: $cand (candidate) vs $base (baseline)"
	echo "  $cand: $(meta cand_kernel)"
	echo "  $base: $(meta base_kernel)"
	echo "  $(meta reps) repetitions, A/B interleaved, iperf3 $(meta secs)s per test, $(meta accel) guests, host: $(meta host)"
	echo "  Mbit/s at the receiver: median [min - max]; ratio of medians with 95% bootstrap interval;"
	echo "  paired: median [min - max] of the per-repetition ratios; crypto: SG AEAD calls per packet (ftrace)"
	echo
	awk -F'\t' -v c="$cand" -v b="$base" '
	function rng(m, lo, hi) { return m == "" ? "-" : sprintf("%.1f [%.1f-%.1f]", m, lo, hi) }
	BEGIN {
		printf "%-9s %-8s %-18s %-18s %-22s %-22s %s\n", "mode", "test", c, b,
			c "/" b, "paired", "crypto " c " | " b
	}
	{
		r = $11 == "" ? "-" : sprintf("%.3f [%.3f-%.3f]", $11, $12, $13)
		p = $15 == "" ? "-" : sprintf("%.3f [%.3f-%.3f]", $15, $16, $17)
		printf "%-9s %-8s %-18s %-18s %-22s %-22s %s | %s%s\n", $1, $2, rng($4, $5, $6),
			rng($8, $9, $10), r, p, $18, $19, $20 ? "  (" $20 " runs failed)" : ""
	}' "$dir/summary.tsv"
	if [ -s "$dir/cost-summary.tsv" ]; then
		echo
		echo "Cost: guest instructions per unit, counted by a QEMU TCG plugin (bench/cost/): median [min - max];"
		echo "  wg_insns: in WireGuard's and its crypto's objects; insns: the whole guest. change: $cand/$base - 1,"
		echo "  Hodges-Lehmann of the per-repetition ratios with its $(awk -v a="$cost_alpha" 'BEGIN { printf "%g", 100 - 200 * a }')% signed-rank interval;"
		echo "  a regression: the interval's lower end above +$(awk -v t="$cost_tol" 'BEGIN { printf "%g", t * 100 }')%; detectable: the smallest increase this run could flag"
		awk -F'\t' -v c="$cand" -v b="$base" '
		function rng(m, lo, hi) { return m == "" ? "-" : sprintf(m >= 1000 ? "%.0f [%.0f-%.0f]" : "%.3f [%.3f-%.3f]", m, lo, hi) }
		function pc(x) { return x == "" ? "-" : sprintf("%+.2f%%", x * 100) }
		BEGIN {
			printf "%-9s %-9s %-9s %-10s %-28s %-28s %-26s %-10s %s\n", "mode", "test", "metric", "per", c, b,
				"change [interval]", "detectable", "verdict"
		}
		{
			ch = $14 == "" ? "-" : sprintf("%s [%s %s]", pc($14), pc($15), pc($16))
			printf "%-9s %-9s %-9s %-10s %-28s %-28s %-26s %-10s %s%s\n", $1, $2, $3, $4, rng($6, $7, $8),
				rng($10, $11, $12), ch, $17 == "" ? "-" : sprintf("+%.2f%%", $17 * 100), $18,
				$19 == "" ? "" : " (" $19 ")"
		}' "$dir/cost-summary.tsv"
		if [ -s "$dir/cost-groups.tsv" ]; then
			echo
			echo "Where the instructions went: per packet through a wg0 (an encryption or a decryption; per"
			echo "  handshake in cost-hs), median over the repetitions; fpu: the FPU section code (begin, end,"
			echo "  usability check, the user registers' save and restore); sections: FPU sections begun"
			awk -F'\t' -v c="$cand" -v b="$base" -v names="$COST_GROUPS" '
			BEGIN {
				ng = split(names, h, ",")
				printf "%-9s %-10s %-8s", "mode", "test", "kernel"
				for (i = 1; i <= ng; i++) printf " %16s", h[i]
				printf " %10s %9s\n", "wg_insns", "sections"
			}
			{
				printf "%-9s %-10s %-8s", $1, $2, $3 == "CAND" ? c : b
				n = split($5, g, ",")
				for (i = 1; i <= ng; i++) printf " %16s", i <= n ? g[i] : "-"
				printf " %10s %9s\n", $6, $7 == "" ? "-" : $7
			}' "$dir/cost-groups.tsv"
		fi
		awk -F'\t' '$18 == "REGRESSION" { r++ } $18 == "error" { e++ } $18 == "undecided" { u++ } $18 == "ok" { o++ }
		END {
			if (e) printf "VERDICT: ERROR: %d cost measurements missing or failed (named above): no verdict\n", e
			else if (r) printf "VERDICT: REGRESSION in %d of %d judged cost metrics\n", r, r + o + u
			else if (u) printf "VERDICT: undecided: too few repetitions for a bound (5 or more)\n"
			else if (o) printf "VERDICT: no regression (%d cost metrics judged)\n", o
		}' "$dir/cost-summary.tsv"
	fi
	if [ -s "$dir/micro-summary.tsv" ]; then
		echo
		echo "In-kernel crypto microbenchmark (CONFIG_ZINC_BENCH, $(meta micro_ms) ms per measurement):"
		echo "  cycles/byte of each run's fastest batch, median [min - max] over the runs"
		echo "  (Curve25519: cycles per shared secret, and shared secrets per second)"
		awk -F'\t' -v c="$cand" -v b="$base" '
		{
			side = $1 == "CAND" ? c : b
			row = side "\t" $2 " " $3 " " $5
			if (!(row in seen)) { seen[row] = 1; rows[++nr] = row }
			if ($2 == "curve25519")
				v[row, $4] = sprintf("%.0f cyc %.0f/s", $7, $10)
			else
				v[row, $4] = sprintf("%.2f [%.2f-%.2f]", $7, $8, $9)
			if (!(($4) in isimpl)) { isimpl[$4] = 1; impls[++ni] = $4 }
		}
		END {
			printf "  %-8s %-32s", "kernel", "primitive operation bytes"
			for (i = 1; i <= ni; i++) printf " %-20s", impls[i]
			printf "\n"
			for (r = 1; r <= nr; r++) {
				split(rows[r], f, "\t")
				printf "  %-8s %-32s", f[1], f[2]
				for (i = 1; i <= ni; i++) printf " %-20s", ((rows[r], impls[i]) in v) ? v[rows[r], impls[i]] : "-"
				printf "\n"
			}
		}' "$dir/micro-summary.tsv"
		awk -F'\t' -v c="$cand" -v b="$base" '$2 == "chacha20poly1305" && ($4 == "zinc-batch" || $4 == "zinc-packet" || $4 == "lib") {
			x = ($1 == "CAND" ? c : b) " " $3 " " $5
			v[x, $4] = $7; k[x] = 1
		}
		END {
			for (x in k)
				if ((x, "zinc-batch") in v && (x, "zinc-packet") in v && (x, "lib") in v)
					printf "  %s: cycles/byte zinc-batch/zinc-packet %.3f, zinc-batch/lib %.3f\n", x,
						v[x, "zinc-batch"] / v[x, "zinc-packet"], v[x, "zinc-batch"] / v[x, "lib"]
		}' "$dir/micro-summary.tsv" | sort -k2,2r -k3,3n
	fi
	echo
	echo "results: $dir/results.json${have_plot:+, $dir/results.png}"
} > "$dir/table.txt.tmp"

# results.json: one object per line inside each array, so that awk (and
# bench/compare.sh) can read it back line by line.
astat '
kind == "meta" { i = index($0, "="); m[substr($0, 1, i - 1)] = substr($0, i + 1); next }
FNR == 1 && (kind == "runs" || kind == "sessions" || kind == "micro" || kind == "cost") { next }
kind == "runs" {
	runs[++nruns] = sprintf("{\"mode\":\"%s\",\"test\":\"%s\",\"kernel\":\"%s\",\"rep\":%d,\"order\":%d,\"mbit\":%s,\"profile\":{\"zinc_enc\":%s,\"zinc_dec\":%s,\"lib_enc\":%s,\"lib_dec\":%s,\"wg_packets\":%s},\"boot\":\"%s\",\"error\":\"%s\"}",
		$1, $2, $3 == "CAND" ? "cand" : "base", $4, $5, jnum($6), jnum($7), jnum($8), jnum($9), jnum($10), jnum($11), jesc($12), jesc($13))
	next
}
kind == "sessions" {
	sess[++nsess] = sprintf("{\"mode\":\"%s\",\"kernel\":\"%s\",\"rep\":%d,\"role\":\"%s\",\"profile\":{\"zinc_enc\":%s,\"zinc_dec\":%s,\"lib_enc\":%s,\"lib_dec\":%s,\"wg_packets\":%s},\"boot\":\"%s\"}",
		$1, $2 == "CAND" ? "cand" : "base", $3, $4, jnum($5), jnum($6), jnum($7), jnum($8), jnum($9), jesc($10))
	next
}
kind == "micro" {
	micro[++nmicro] = sprintf("{\"kernel\":\"%s\",\"rep\":%d,\"primitive\":\"%s\",\"op\":\"%s\",\"impl\":\"%s\",\"bytes\":%d,\"ops\":%s,\"cycles\":%s,\"ns\":%s,\"batch\":%s,\"best_batch_cycles\":%s}",
		$1 == "CAND" ? "cand" : "base", $2, $3, $4, $5, $6, jnum($7), jnum($8), jnum($9), jnum($10), jnum($11))
	next
}
kind == "summary" {
	summ[++nsumm] = sprintf("{\"mode\":\"%s\",\"test\":\"%s\",\"unit\":\"Mbit/s\",\"cand\":{\"n\":%d,\"median\":%s,\"min\":%s,\"max\":%s,\"crypto\":\"%s\"},\"base\":{\"n\":%d,\"median\":%s,\"min\":%s,\"max\":%s,\"crypto\":\"%s\"},\"ratio\":%s,\"ratio_ci95\":[%s,%s],\"paired_ratio\":{\"n\":%d,\"median\":%s,\"min\":%s,\"max\":%s},\"failed_runs\":%d}",
		$1, $2, $3, jnum($4), jnum($5), jnum($6), $18, $7, jnum($8), jnum($9), jnum($10), $19,
		jnum($11), jnum($12), jnum($13), $14, jnum($15), jnum($16), jnum($17), $20)
	next
}
kind == "cost" {
	costs[++ncost] = sprintf("{\"mode\":\"%s\",\"test\":\"%s\",\"kernel\":\"%s\",\"rep\":%d,\"order\":%d,\"units\":%s,\"unit\":\"%s\",\"insns\":%s,\"wg_insns\":%s,\"groups\":[%s],\"wg_packets\":%s,\"fpu_sections\":%s,\"boot\":\"%s\",\"error\":\"%s\"}",
		$1, $2, $3 == "CAND" ? "cand" : "base", $4, $5, jnum($6), $7, jnum($8), jnum($9), $10, jnum($11), jnum($14), jesc($12), jesc($13))
	next
}
kind == "cgroups" {
	cgroups[++ncgroups] = sprintf("{\"mode\":\"%s\",\"test\":\"%s\",\"kernel\":\"%s\",\"n\":%d,\"per\":\"%s\",\"groups\":[%s],\"wg_insns\":%s,\"fpu_sections\":%s}",
		$1, $2, $3 == "CAND" ? "cand" : "base", $4, $2 == "cost-hs" ? "handshake" : "packet", $5, jnum($6), jnum($7))
	next
}
kind == "csummary" {
	csumm[++ncsumm] = sprintf("{\"mode\":\"%s\",\"test\":\"%s\",\"metric\":\"%s\",\"unit\":\"instructions/%s\",\"cand\":{\"n\":%d,\"median\":%s,\"min\":%s,\"max\":%s},\"base\":{\"n\":%d,\"median\":%s,\"min\":%s,\"max\":%s},\"pairs\":%d,\"change\":%s,\"change_interval\":[%s,%s],\"interval_level\":%s,\"tolerance\":%s,\"min_detectable_change\":%s,\"verdict\":\"%s\",\"failures\":\"%s\"}",
		$1, $2, $3, $4, $5, jnum($6), jnum($7), jnum($8), $9, jnum($10), jnum($11), jnum($12), $13,
		jnum($14), jnum($15), jnum($16), 1 - 2 * m["cost_alpha"], jnum(m["cost_tol"]), jnum($17), $18, jesc($19))
	next
}
kind == "msummary" {
	unit = $2 == "curve25519" ? "cycles/op" : "cycles/byte"
	msumm[++nmsumm] = sprintf("{\"kernel\":\"%s\",\"primitive\":\"%s\",\"op\":\"%s\",\"impl\":\"%s\",\"bytes\":%d,\"n\":%d,\"unit\":\"%s\",\"best_batch\":{\"median\":%s,\"min\":%s,\"max\":%s},\"mean\":{\"median\":%s,\"min\":%s,\"max\":%s},\"ops_per_s\":{\"median\":%s,\"min\":%s,\"max\":%s}}",
		$1 == "CAND" ? "cand" : "base", $2, $3, $4, $5, $6, unit, jnum($7), jnum($8), jnum($9), jnum($13), jnum($14), jnum($15), jnum($10), jnum($11), jnum($12))
	next
}
function arr(name, a, n, last,    i) {
	printf "\"%s\": [\n", name
	for (i = 1; i <= n; i++)
		printf "  %s%s\n", a[i], i < n ? "," : ""
	printf "]%s\n", last ? "" : ","
}
END {
	printf "{\n\"format\": \"wg-harness-bench/1\",\n"
	printf "\"candidate\": {\"label\":\"%s\",\"kernel\":\"%s\"},\n", jesc(m["cand_label"]), jesc(m["cand_kernel"])
	printf "\"baseline\": {\"label\":\"%s\",\"kernel\":\"%s\"},\n", jesc(m["base_label"]), jesc(m["base_kernel"])
	printf "\"config\": {\"reps\":%s,\"secs\":%s,\"tests\":\"%s\",\"modes\":\"%s\",\"micro_ms\":%s,\"cost\":\"%s\",\"cost_tol\":%s,\"cost_alpha\":%s,\"cost_groups\":\"%s\",\"accel\":\"%s\",\"host\":\"%s\"},\n",
		jnum(m["reps"]), jnum(m["secs"]), jesc(m["tests"]), jesc(m["modes"]), jnum(m["micro_ms"]), jesc(m["cost"]), jnum(m["cost_tol"]), jnum(m["cost_alpha"]), groups, jesc(m["accel"]), jesc(m["host"])
	printf "\"started\": \"%s\",\n\"finished\": \"%s\",\n\"wall_s\": %s,\n", m["started"], m["finished"], jnum(m["wall_s"])
	arr("summary", summ, nsumm)
	arr("cost_summary", csumm, ncsumm)
	arr("cost", costs, ncost)
	arr("cost_groups_per_packet", cgroups, ncgroups)
	arr("micro_summary", msumm, nmsumm)
	arr("runs", runs, nruns)
	arr("sessions", sess, nsess)
	arr("micro", micro, nmicro, 1)
	printf "}\n"
}' groups="$COST_GROUPS" kind=meta "$dir/meta.env" kind=runs "$dir/runs.tsv" kind=sessions "$dir/sessions.tsv" \
	kind=micro "$dir/micro.tsv" kind=summary "$dir/summary.tsv" kind=msummary "$dir/micro-summary.tsv" \
	kind=cost "$dir/cost.tsv" kind=csummary "$dir/cost-summary.tsv" kind=cgroups "$dir/cost-groups.tsv" \
	> "$dir/results.json.tmp"
mv "$dir/results.json.tmp" "$dir/results.json"

# The plot.
have_plot=
if command -v gnuplot > /dev/null && [ -s "$dir/summary.tsv" ]; then
	awk -F'\t' '$4 != "" { printf "%d\t%s/%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", NR - 1, $1, $2, $4, $5, $6, $8, $9, $10,
		$11 == "" ? "NaN" : $11, $12 == "" ? "NaN" : $12, $13 == "" ? "NaN" : $13 }' \
		"$dir/summary.tsv" > "$dir/plot-tput.dat"
	# Cycles per byte of the AEAD and BLAKE2s at each length, per
	# implementation, on the kernel that has the microbenchmark.
	awk -F'\t' '$2 != "curve25519" {
		row = $2 " " $3 " " $5
		if (!(row in r)) { r[row] = ++n; name[n] = ($2 == "chacha20poly1305" ? "aead " : "b2s ") ($3 == "hash" ? "" : substr($3, 1, 3) " ") $5 }
		v[r[row], $4] = $7; lo[r[row], $4] = $8; hi[r[row], $4] = $9
	}
	END {
		split("lib zinc-batch zinc-packet zinc", im, " ")
		for (i = 1; i <= n; i++) {
			printf "%d\t%s", i - 1, name[i]
			for (j = 1; j <= 4; j++)
				printf "\t%s\t%s\t%s", ((i, im[j]) in v) ? v[i, im[j]] : "NaN",
					((i, im[j]) in v) ? lo[i, im[j]] : "NaN", ((i, im[j]) in v) ? hi[i, im[j]] : "NaN"
			printf "\n"
		}
	}' <(awk -F'\t' -v s="$(cut -f1 "$dir/micro-summary.tsv" | grep CAND | sed -n 1p || cut -f1 "$dir/micro-summary.tsv" | sed -n 1p)" '$1 == s' "$dir/micro-summary.tsv") \
		> "$dir/plot-micro.dat"
	dh=$(awk -F'\t' '$2 == "curve25519" { printf "%s%s %.0f/s", sep, $4, $10; sep = ", " }' "$dir/micro-summary.tsv" | cut -c 1-200)
	nplots=2
	[ -s "$dir/plot-micro.dat" ] && nplots=3
	gnuplot > "$dir/gnuplot.log" 2>&1 <<EOF || echo "$prog: gnuplot failed (see $dir/gnuplot.log)" >&2
set terminal png size 1400,$((nplots * 380)) font ",10"
set output "$dir/results.png.tmp"
set datafile separator "\t"
set datafile missing "NaN"
set multiplot layout $nplots,1
set grid ytics
set key outside right top
set xtics rotate by -20 nomirror
set offsets 0.5, 0.5, 0, 0
set title "Throughput through the tunnel, median with min/max ($(meta reps) runs each, A/B interleaved)"
set ylabel "Mbit/s"
set yrange [0:*]
plot "$dir/plot-tput.dat" using (\$1-0.12):3:4:5:xtic(2) with yerrorbars pt 7 lc rgb "#c03030" title "$cand", \
     "" using (\$1+0.12):6:7:8 with yerrorbars pt 5 lc rgb "#3060c0" title "$base"
set title "Throughput ratio $cand / $base: ratio of medians, 95% bootstrap interval"
set ylabel "ratio"
set yrange [*:*]
plot "$dir/plot-tput.dat" using 1:9:10:11:xtic(2) with yerrorbars pt 7 lc rgb "#207020" title "$cand/$base", \
     1 with lines dt 2 lc rgb "black" notitle
if ($nplots == 3) {
	set title "In-kernel microbenchmark, cycles/byte of the fastest batch (median, min/max over runs). Curve25519: $dh"
	set ylabel "cycles/byte"
	set logscale y
	plot "$dir/plot-micro.dat" using (\$1-0.2):3:4:5:xtic(2) with yerrorbars pt 7 lc rgb "#3060c0" title "lib/crypto", \
	     "" using (\$1):6:7:8 with yerrorbars pt 7 lc rgb "#c03030" title "zinc, SIMD per batch", \
	     "" using (\$1+0.2):9:10:11 with yerrorbars pt 6 lc rgb "#e08020" title "zinc, SIMD per packet", \
	     "" using (\$1):12:13:14 with yerrorbars pt 5 lc rgb "#c03030" title "zinc"
}
unset multiplot
EOF
	if [ -s "$dir/results.png.tmp" ]; then
		mv "$dir/results.png.tmp" "$dir/results.png"
		have_plot=1
	fi
fi
if [ -n "$have_plot" ]; then
	sed "s|^results: .*|results: $dir/results.json, $dir/results.png|" "$dir/table.txt.tmp" > "$dir/table.txt"
else
	mv "$dir/table.txt.tmp" "$dir/table.txt"
fi
rm -f "$dir/table.txt.tmp"
cat "$dir/table.txt"
