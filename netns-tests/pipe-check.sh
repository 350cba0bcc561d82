#!/bin/bash
# The harness's shell scripts against one defect class, KTAP (part of
# make test): under 'set -o pipefail' a pipeline whose last command stops
# reading early (head, grep -q/-m/-l, awk's exit outside END, a 'while'
# loop that breaks) fails, at random, with the writer's SIGPIPE (141)
# whenever the writer has not finished writing: bash and many tools write
# a line at a time into a pipe.  Under set -e that stops the script with
# no message, as it stopped kernel/build.sh in a CI run (an empty build
# log, exit 141).  Write such a pipeline so that the last command reads
# everything (sed -n 1p, grep > /dev/null, awk's END), or feed the loop
# with '<<<' or '< FILE'.  A line that must keep the form says why after
# '# pipe-ok:'.
#
# First it shows that it finds each form in a sample, then it checks every
# shell script of the checkout.
set -e -o pipefail
export LC_ALL=C

prog=netns-tests/pipe-check.sh
die() { echo "$prog: $*" >&2; exit 1; }
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wgt-pipe-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
. "$top/netns-tests/ktap-checks.sh"

# scan FILE...: "FILE:LINE: TEXT" for each early reader after a pipe.
scan() {
	awk '
	FNR == 1 { loop = 0 }
	/^[ \t]*#/ || /# pipe-ok:/ { next }
	{
		line = $0
		if (loop && line ~ ("^" indent "done([^A-Za-z_]|$)")) {
			loop = 0
		} else if (loop && line ~ /(^|[^A-Za-z_])break([^A-Za-z_]|$)/) {
			print FILENAME ":" loopline ": a piped while loop that breaks (line " FNR ")"
			loop = 0
		}
		if (line ~ /\|[ \t]*while[ \t]/) {
			loop = 1; loopline = FNR
			indent = line; sub(/[^ \t].*/, "", indent)
		}
		s = line
		while ((i = index(s, "|")) > 0) {
			s = substr(s, i + 1)
			if (s ~ /^\|/) { s = substr(s, 2); continue }	# ||
			t = s; sub(/^[ \t]+/, "", t)
			if (t ~ /^head([ \t]|$)/ ||
			    t ~ /^grep[ \t]+(-[A-Za-z]*[qml]|--quiet|--silent|--max-count|--files-with)/) {
				print FILENAME ":" FNR ": " line
				break
			}
			if (t ~ /^awk[ \t]/) {
				p = t; sub(/END.*/, "", p)
				if (p ~ /(^|[^A-Za-z_])exit([^A-Za-z_]|$)/) {
					print FILENAME ":" FNR ": " line
					break
				}
			}
		}
	}' "$@"
}

# The shell scripts of the checkout: *.sh, and files whose first line
# names sh or bash (the guest's entries, .ci/run); not this one, whose
# sample has each form on purpose.
scripts() {
	find "$top" \( -name build -o -name .git -o -name results \) -prune -o -type f -print |
		while read -r f; do
			case "$f" in
			*.sh) echo "$f" ;;
			*.c | *.h | *.py | *.md | *.patch | *.json | *.mk | */Makefile) ;;
			*) if sed -n '1{/^#!.*\(sh\|bash\)\([[:space:]]\|$\)/p}' "$f" | grep . > /dev/null; then echo "$f"; fi ;;
			esac
		done | grep -v '/netns-tests/pipe-check\.sh$' | sort
}

ktap_begin pipes 2

t_sample() {
	cat > "$tmp/sample.sh" <<-'EOF'
	a=$(seq 9 | head -n 1)
	seq 9 | grep -q 1 || true
	seq 9 | awk '{ exit }'
	seq 9 | awk '{ n++ } END { exit n == 0 }'
	x=$(seq 9 | sed -n 1p) || [ "$x" ] || true
	seq 9 | while read -r l; do
		[ "$l" != 2 ] || break
	done
	seq 9 | while read -r l; do
		echo "$l"
	done
	while read -r l; do break; done <<< "$a"
	seq 9 | head -n 1 # pipe-ok: the sample's waiver
	EOF
	scan "$tmp/sample.sh" > "$tmp/found"
	cat "$tmp/found"
	printf '%s\n' 1 2 3 6 | sed "s|^|$tmp/sample.sh:|" > "$tmp/want"
	sed 's/: .*//' "$tmp/found" | cmp -s - "$tmp/want" ||
		die "the sample's early readers are on lines 1, 2, 3 and 6 (head, grep -q, awk's exit, a loop's break), and only there"
}
check "the sample's head, grep -q, awk exit and piped loop with break are found, and only they" t_sample

t_tree() {
	local n
	scripts > "$tmp/scripts"
	n=$(wc -l < "$tmp/scripts")
	[ "$n" -gt 50 ] || die "found only $n shell scripts in $top"
	# shellcheck disable=SC2046 # paths without spaces
	scan $(cat "$tmp/scripts") | sed "s|^$top/||" > "$tmp/found"
	echo "$n scripts read"
	if [ -s "$tmp/found" ]; then
		cat "$tmp/found"
		die "a pipeline above ends in a reader that may stop early: under pipefail it can fail with SIGPIPE (141)"
	fi
}
check "no pipeline of the harness's scripts ends in a reader that may stop early" t_tree

echo "# pipes: $((n - failed)) passed, $failed failed"
[ "$failed" = 0 ]
