#!/bin/bash
# The results' history: every run's cases, a line each, in
# RESULTS_DIR/history.tsv (default BUILD_DIR/results), read from the run's
# record (cases.tsv and run.env, netns-tests/run.sh).
#
#   netns-tests/history.sh add OUTDIR    append run OUTDIR; print what is
#                                        new since the last run of each
#                                        of its kernels, and its flaky cases
#   netns-tests/history.sh show [N]      per case, the last N (default 10)
#                                        results, oldest first, and flips
#
# A line: the run's start time, its stamp, the kernel (the flavor and the
# knobs that name the user's kernel: PATCHES, KERNEL_TREE, KERNEL,
# CONFIG_FRAGMENT), the kernel's content key, the result (P pass, F fail,
# S skip, X known failure) and the KTAP name.  "The same kernel" is the
# same flavor and knobs, whatever its content: a developer's patched
# kernel changes from run to run, and what changed with it is the point.
# A case is flaky when its result flipped more than once in its last 10
# runs on one kernel.
set -e -o pipefail
export LC_ALL=C

prog=netns-tests/history.sh
die() { echo "$prog: $*" >&2; exit 1; }
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$top/build}
RESULTS_DIR=${RESULTS_DIR:-$BUILD_DIR/results}
hist=$RESULTS_DIR/history.tsv

# kv FILE KEY: KEY's value in a KEY=VALUE file.
kv() { sed -n "s/^$2=//p" "$1" | sed -n 1p; }

add() {
	local out=$1 start stamp knobs root
	[ -r "$out/run.env" ] || die "$out has no run.env: not a run's results"
	start=$(kv "$out/run.env" start_time)
	stamp=$(kv "$out/run.env" stamp)
	knobs=$(kv "$out/run.env" kernel_knobs)
	knobs=${knobs# }
	root=$(kv "$out/run.env" kernel_root)
	[ -s "$out/cases.tsv" ] || return 0
	mkdir -p "$RESULTS_DIR"
	(
		flock 9
		awk -F'\t' -v OFS='\t' -v start="$start" -v stamp="$stamp" -v knobs="$knobs" -v root="$root" '
			function key(flavor,   f, k) {
				f = root "/" flavor "/key"
				if ((getline k < f) <= 0) k = "-"
				close(f)
				return k
			}
			{
				r = "P"
				if ($2 == "ok" && $6 ~ /^SKIP/) r = "S"
				else if ($2 != "ok" && $6 ~ /^TODO/) r = "X"
				else if ($2 != "ok") r = "F"
				k = $8 (knobs != "" ? " " knobs : "")
				print start, stamp, k, key($8), r, $3
			}' "$out/cases.tsv" >> "$hist"
	) 9>> "$hist.lock"
	news "$stamp"
}

# news STAMP: for run STAMP's cases, each against its last result on the
# same kernel before that run: newly failing, newly passing; then its
# cases that flipped more than once in their last 10 results.
news() {
	awk -F'\t' -v stamp="$1" '
		$2 == stamp { cur[$3 "\t" $6] = $5; order[++n] = $3 "\t" $6; next }
		{ id = $3 "\t" $6; last[id] = $5; lastwhen[id] = $1; hist[id] = hist[id] $5 }
		END {
			for (i = 1; i <= n; i++) {
				id = order[i]; split(id, p, "\t")
				if (!(id in last)) { fresh++; continue }
				was = last[id]; now = cur[id]
				if (was != "F" && now == "F")
					nf = nf sprintf("# history: newly failing: %s (was %s on %s)\n", p[2], word(was), lastwhen[id])
				if (was == "F" && now != "F")
					np = np sprintf("# history: newly passing: %s (%s now, failed on %s)\n", p[2], word(now), lastwhen[id])
				h = substr(hist[id] now, length(hist[id] now) - 9)
				fl = 0
				for (j = 2; j <= length(h); j++) if (substr(h, j, 1) != substr(h, j - 1, 1)) fl++
				if (fl > 1) fk = fk sprintf("# history: flaky: %s: %s (last %d, oldest first)\n", p[2], h, length(h))
			}
			if (n == 0) exit
			printf "%s%s%s", nf, np, fk
			printf "# history: %d of %d results new or changed since the last run of their kernel, %d first runs, %d flaky\n",
				gsub(/\n/, "\n", nf) + gsub(/\n/, "\n", np), n, fresh, gsub(/\n/, "\n", fk)
		}
		function word(r) { return r == "P" ? "pass" : r == "F" ? "fail" : r == "S" ? "skip" : "known failure" }
	' "$hist"
}

show() {
	local n=${1:-10}
	case "$n" in '' | *[!0-9]* | 0) die "N=$n: a number of runs, at least 1" ;; esac
	[ -s "$hist" ] || { echo "no history yet in $hist (make test or make check writes it)"; return 0; }
	awk -F'\t' -v n="$n" '
		{ id = $3 "\t" $6; if (!(id in h)) ids[++k] = id; h[id] = h[id] $5; when[id] = $1 }
		END {
			for (i = 1; i <= k; i++) {
				id = ids[i]; split(id, p, "\t")
				s = h[id]; if (length(s) > n) s = substr(s, length(s) - n + 1)
				fl = 0
				for (j = 2; j <= length(s); j++) if (substr(s, j, 1) != substr(s, j - 1, 1)) fl++
				t = h[id]; if (length(t) > 10) t = substr(t, length(t) - 9)
				f10 = 0
				for (j = 2; j <= length(t); j++) if (substr(t, j, 1) != substr(t, j - 1, 1)) f10++
				fmt = "%-" n "s  %-24s  %2d flips%s  (last %s)\t%s\n"
				printf fmt, s, p[1], fl, (f10 > 1 ? ", flaky" : ""), when[id], p[2]
			}
		}' "$hist" | sort -t $'\t' -k2,2 | tr '\t' ' '
	echo "(P pass, F fail, S skip, X known failure; oldest first; $hist)"
}

case "${1:-}" in
add) [ -n "${2:-}" ] || die "usage: $prog add OUTDIR"; add "$2" ;;
show) show "${2:-10}" ;;
*) die "usage: $prog add OUTDIR | show [N]" ;;
esac
