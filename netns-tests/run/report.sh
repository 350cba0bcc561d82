# shellcheck shell=bash disable=SC2154 # the run's variables are run.sh's
# netns-tests/run.sh's report part (sourced by it, never run alone).
# Reporting: the interop matrix, wgpeer's line, the KCIDB report, the
# history, the page and the closing line, once every word is collected.

# The matrix of the cells that ran, rows initiators, columns responders.
interop_matrix() {
	local x y v line
	[ -n "$interop_names" ] || return 0
	emit "# interop matrix (rows: initiator, columns: responder)"
	line=$(printf '%-12s' "")
	for y in $interop_names; do line="$line$(printf '%-12s' "$y")"; done
	emit "# $line"
	for x in $interop_names; do
		line=$(printf '%-12s' "$x")
		for y in $interop_names; do
			eval "v=\${cell_$(echo "$x" | tr - _)_$(echo "$y" | tr - _):--}"
			line="$line$(printf '%-12s' "$v")"
		done
		emit "# $line"
	done
}

# The harness's own peer (wgpeer, the peer suite) against each
# implementation it met, a line under the matrix: its go-* cases against
# wireguard-go, the others against the kernel of their flavor; FAIL when
# one of them failed (a known failure, # TODO, is not one).
peer_row() {
	local line
	[ -e "$outdir/cases.tsv" ] || return 0
	# (Each result as its one reader gives it: its kind, then the
	# record, $5 where, $6 the case, $9 the flavor.)
	line=$(/usr/bin/python3 "$top/netns-tests/results.py" list "$outdir" | awk -F '\t' '$5 == "peer" {
			i = ($6 ~ /^go-/) ? "go" : $9
			if (!(i in v)) { v[i] = "pass"; o[++k] = i }
			if ($1 == "fail") v[i] = "FAIL"
		}
		END { for (j = 1; j <= k; j++) printf "%s%s %s", (j > 1 ? ", " : ""), o[j], v[o[j]] }')
	[ -z "$line" ] || emit "# wgpeer (the harness's own peer) against: $line"
}

# report: the end of the run, its exit status the verdict: every case
# passed (or is a known failure), every planned result came, and the KCIDB
# report and the page were written.
report() {
	interop_matrix
	peer_row
	echo "# results: $ktap"
	# The same results as a KCIDB v5 report, validated; a report that cannot
	# be written fails the run.
	kcidb_ok=1
	kcidb=$(/usr/bin/python3 "$top/netns-tests/kcidb/kcidb.py" write "$outdir") || kcidb_ok=0
	[ $kcidb_ok = 0 ] || echo "# KCIDB: $kcidb"
	# The history (netns-tests/history.sh, make history): this run appended,
	# what is new since the last run of each kernel, and the flaky cases.
	# (Not for a bisection's steps, WGT_HISTORY=0: their commits differ on
	# purpose, and their flips are no flakes.)
	if [ "${WGT_HISTORY:-1}" != 0 ]; then
		"$top/netns-tests/history.sh" add "$outdir" || echo "# history: not written (the error above)"
	fi
	# The run's page (netns-tests/page.py), read back: its case count and
	# failing cases must be the KTAP's, or the run fails.
	page_ok=1
	page=$(/usr/bin/python3 "$top/netns-tests/page.py" write "$outdir") &&
		/usr/bin/python3 "$top/netns-tests/page.py" check "$outdir" > /dev/null || page_ok=0
	[ $page_ok = 0 ] || echo "# page: $page"
	todos=
	[ $known = 0 ] || todos=", $known known failures (TODO)"
	[ $known_unknown = 0 ] || todos="$todos, $known_unknown of them on a kernel whose fix status is unknown"
	# The failures again, last, where a CI log's tail shows them.
	[ $failed = 0 ] || grep '^not ok ' "$ktap" | grep -v '# TODO' | sed 's/^/# failed: /' || true
	# More results than planned (a guest reported a case the plan did not
	# name, e.g. a KUnit case the kernel ran that its source does not list):
	# said, and the run fails, never a green line with a non-zero exit.
	[ "$n" = "$total" ] ||
		emit "# the guests reported $n results, the plan had $total: the run fails"
	echo "$passed passed, $failed failed, $skipped skipped$todos$([ "$n" = "$total" ] || echo ", $((n - total)) unplanned")"
	[ $failed = 0 ] && [ $n = "$total" ] && [ $kcidb_ok = 1 ] && [ $page_ok = 1 ]
}
