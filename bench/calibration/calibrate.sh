#!/bin/bash
# Calibrate bench's cost verdict on this machine (make bench-calibrate):
# how often it flags identical kernels, and how often a known small
# slowdown.
#
#   bench/calibration/calibrate.sh              both runs, then the tally
#   bench/calibration/calibrate.sh --tally DIR  the tally of one bench run
#
# 1. same: zinc against zinc, BENCH_CAL_COMPARISONS (10) x 5 repetitions
#    in one interleaved run, cost windows only;
# 2. one slow run per folder named in BENCH_CAL_SLOW (default: every-third
#    every-packet): the zinc series plus that folder's calibration patch
#    against zinc, the same way.
#      every-packet: one ChaCha20 block computed and thrown away per packet
#                    sent (+7.9% of WireGuard's instructions);
#      every-third:  the same on every third packet (the 2-3% to flag).
#    BENCH_CAL_SAME=0 leaves out the same-kernel run.
# Each run's repetitions are then cut into comparisons of 5 (1-5, 6-10,
# ...), each judged by bench/report.sh exactly as make bench judges its
# own 5 repetitions. The tally: per judged metric, how many comparisons
# flagged a regression, the changes measured, the smallest detectable
# change; and the spread of each metric over all repetitions of a kernel.
set -e -o pipefail
export LC_ALL=C

prog=bench/calibration/calibrate.sh
die() { echo "$prog: $*" >&2; exit 1; }
msg() { echo "[calibrate] $*"; }

top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD_DIR=${BUILD_DIR:-$top/build}
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR=$top/$BUILD_DIR ;; esac
export BUILD_DIR
ncmp=${BENCH_CAL_COMPARISONS:-10}
case "$ncmp" in '' | *[!0-9]* | 0) die "BENCH_CAL_COMPARISONS must be a positive number, not '$ncmp'" ;; esac
per=5

# tally DIR: cut DIR's repetitions into comparisons of $per and judge each.
tally() {
	local dir=$1 reps g sub first
	[ -r "$dir/cost.tsv" ] && [ -r "$dir/meta.env" ] || die "'$dir' is not a bench results folder with cost windows"
	reps=$(sed -n 's/^reps=//p' "$dir/meta.env")
	[ "$reps" -ge $per ] 2> /dev/null || die "$dir has $reps repetitions: fewer than $per"
	echo "== $(sed -n 's/^cand_label=//p' "$dir/meta.env") vs $(sed -n 's/^base_label=//p' "$dir/meta.env"): $dir"
	echo "   ($(sed -n 's/^cand_kernel=//p' "$dir/meta.env"))"
	for g in $(seq 1 $((reps / per))); do
		sub=$dir/comparison-$g
		mkdir -p "$sub"
		first=$(((g - 1) * per + 1))
		sed "s/^reps=.*/reps=$per/" "$dir/meta.env" > "$sub/meta.env"
		awk -F'\t' -v OFS='\t' -v a=$first -v b=$((first + per - 1)) \
			'NR == 1 || ($4 >= a && $4 <= b) { if (NR > 1) $4 = $4 - a + 1; print }' \
			"$dir/cost.tsv" > "$sub/cost.tsv"
		for f in runs sessions micro; do head -n 1 "$dir/$f.tsv" > "$sub/$f.tsv"; done
		"$top/bench/report.sh" "$sub" > /dev/null 2> "$sub/report.err" ||
			die "report.sh failed on $sub: $(tail -n 1 "$sub/report.err")"
		awk -F'\t' -v g=$g '{ print g "\t" $0 }' "$sub/cost-summary.tsv"
	done > "$dir/calibration.tsv"
	awk -F'\t' '
	$19 == "not judged" { next }
	{
		k = $3 " " $4
		if (!(k in n)) keys[++nk] = k
		n[k]++
		if ($19 == "REGRESSION") flag[k]++
		ch[k] = ch[k] sprintf(" %+.2f", $15 * 100)
		if ($18 != "" && (mde[k] == "" || $18 > mde[k])) mde[k] = $18
		if ($18 != "" && (mdl[k] == "" || $18 < mdl[k])) mdl[k] = $18
	}
	END {
		printf "   %-19s %-9s %-18s %s\n", "metric", "flagged", "detectable", "change per comparison (%)"
		for (i = 1; i <= nk; i++) {
			k = keys[i]
			printf "   %-19s %2d of %-3d +%.2f-%.2f%%     %s\n", k, flag[k], n[k], mdl[k] * 100, mde[k] * 100, ch[k]
		}
	}' "$dir/calibration.tsv"
	# Spread over all repetitions, per kernel and metric.
	awk -F'\t' '
	NR == 1 || $13 != "" || $8 == "" { next }
	{
		for (m = 1; m <= 2; m++) {
			v = (m == 1 ? $9 : $8)
			if (v == "") continue
			k = $2 " " (m == 1 ? "wg_insns" : "insns") " " $3
			if (!(k in n)) keys[++nk] = k
			x = v / $6
			n[k]++; s[k] += x; ss[k] += x * x
			if (!(k in lo) || x < lo[k]) lo[k] = x
			if (!(k in hi) || x > hi[k]) hi[k] = x
		}
	}
	END {
		printf "   spread over all repetitions (instructions per unit): %-30s %s\n", "", ""
		for (i = 1; i <= nk; i++) {
			k = keys[i]
			mean = s[k] / n[k]
			sd = n[k] > 1 ? sqrt((ss[k] - n[k] * mean * mean) / (n[k] - 1)) : 0
			if (sd != sd) sd = 0
			printf "   %-32s n=%-3d mean %-12.6g sd %.3f%%  range %.3f%%\n", k, n[k], mean,
				100 * sd / mean, 100 * (hi[k] - lo[k]) / mean
		}
	}' "$dir/cost.tsv"
}

if [ "${1:-}" = --tally ]; then
	shift
	[ $# -gt 0 ] || die "usage: $prog --tally RESULTS_DIR..."
	for d in "$@"; do tally "$d"; done
	exit 0
fi
[ $# = 0 ] || die "usage: $prog [--tally RESULTS_DIR...]"

slows=${BENCH_CAL_SLOW-every-third every-packet}
for slow in $slows; do
	case "$slow" in */* | .*) die "BENCH_CAL_SLOW: '$slow' is not a folder name" ;; esac
	ls "$top/bench/calibration/$slow"/0*.patch > /dev/null 2>&1 ||
		die "BENCH_CAL_SLOW: no calibration patch in bench/calibration/$slow"
done
[ "${BENCH_CAL_SAME:-1}" = 0 ] || [ "${BENCH_CAL_SAME:-1}" = 1 ] ||
	die "BENCH_CAL_SAME must be 0 or 1, not '$BENCH_CAL_SAME'"

# series SLOW: a series folder with what the zinc flavor carries (the Zinc
# series, then wg-patches/fixes) and SLOW's patch last.
series() {
	local dir=$BUILD_DIR/bench-calibration/$1 p s
	rm -rf "$dir"
	mkdir -p "$dir"
	for s in wg-patches wg-patches/fixes; do
		grep -v '^#' "$top/$s/series" | grep . | while read -r p; do
			cp "$top/$s/$p" "$dir/"
			echo "$p" >> "$dir/series"
		done
	done
	for p in "$top/bench/calibration/$1"/0*.patch; do
		cp "$p" "$dir/"
		basename "$p" >> "$dir/series"
	done
	echo "$dir"
}

stamp=$(date +%Y%m%d-%H%M%S)
base=$BUILD_DIR/results/calibration-$stamp
common="BENCH_REPS=$((ncmp * per)) BENCH_TESTS=none BENCH_MODES=netns BENCH_MICRO_MS=0"
runs=
if [ "${BENCH_CAL_SAME:-1}" = 1 ]; then
	msg "zinc against zinc, $ncmp x $per repetitions: $base-same"
	rc=0
	env $common CAND=zinc BASE=zinc BENCH_OUT="$base-same" "$top/bench/bench.sh" || rc=$?
	[ $rc -le 1 ] || die "the same-kernel run failed (exit $rc)"
	runs="$base-same"
fi
for slow in $slows; do
	msg "zinc + the $slow calibration patch against zinc, $ncmp x $per repetitions: $base-$slow"
	rc=0
	env $common CAND=zinc CAND_PATCHES="$(series "$slow")" CAND_LABEL="zinc+waste-$slow" BASE=zinc \
		BENCH_OUT="$base-$slow" "$top/bench/bench.sh" || rc=$?
	[ $rc -le 1 ] || die "the $slow run failed (exit $rc)"
	runs="$runs $base-$slow"
done
for d in $runs; do
	echo
	tally "$d"
done
