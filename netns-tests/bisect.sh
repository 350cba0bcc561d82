#!/bin/bash
# make bisect: the first commit of the user's kernel tree at which the
# harness's cases fail, by git bisect run, with make check as the test.
#
#   GOOD=REV BAD=REV KERNEL_TREE=DIR [FLAVOR=zinc] [CASES=...]
#   [CHECK_SUITES=...] netns-tests/bisect.sh
#
# The bisection runs in a worktree of the tree's repository under
# BUILD_DIR/bisect (the user's own checkout is never touched), built as
# KERNEL_TREE=that worktree with FLAVOR's fragments, always into the same
# objects, so each step recompiles what its commit changed.  At each step:
# a commit whose kernel does not build, or whose guest does not boot or
# dies before its cases report, is skipped (exit 125), never counted bad; a
# case that fails is bad; all passing (known failures included) is good.
# Each step's log is kept in BUILD_DIR/bisect/step-N.log.  At the end the
# first bad commit is named (or the candidates, when skipped commits hide
# it), the bisection is reset and the worktree removed, also when it is
# interrupted.
set -e -o pipefail
export LC_ALL=C

prog=netns-tests/bisect.sh
die() { echo "$prog: $*" >&2; exit 1; }
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$top/build}
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR=$top/$BUILD_DIR ;; esac
work=$BUILD_DIR/bisect
flavor=${FLAVOR:-zinc}
suites=${CHECK_SUITES:-netns:$flavor}

# step: one commit (git bisect run's command; the worktree is the cwd).
if [ "${1:-}" = step ]; then
	n=$(($(cat "$work/steps" 2> /dev/null || echo 0) + 1))
	echo $n > "$work/steps"
	log=$work/step-$n.log
	commit=$(git rev-parse --short HEAD)
	echo "[bisect] step $n: $commit $(git log -1 --format=%s HEAD)" >&2
	# Its own kernel root: the steps share their objects, and never
	# touch those of the user's tree (make KERNEL_TREE=DIR builds).
	export KERNEL_TREE=$work/tree KERNEL_ROOT=$work/kernel
	unset PATCHES KERNEL
	# Not in the history: a bisection's flips are its point, not flakes.
	export WGT_HISTORY=0
	if ! "$top/kernel/build.sh" "$flavor" > "$log" 2>&1; then
		echo "[bisect] step $n: $commit: the kernel does not build: skipped ($(tail -n 1 "$log"))" >&2
		exit 125
	fi
	rc=0
	# shellcheck disable=SC2086 # the suite words
	"$top/netns-tests/run.sh" $suites >> "$log" 2>&1 || rc=$?
	out=$(sed -n 's/^# results: \(.*\)\/ktap.txt$/\1/p' "$log" | tail -n 1)
	if [ $rc = 0 ]; then
		echo "[bisect] step $n: $commit: good ($(tail -n 1 "$log"))" >&2
		exit 0
	fi
	# Bad only when a case itself failed: a guest that never booted or
	# died before reporting ("not run: ...", "not booted") says nothing
	# about the commit's WireGuard.
	# (The run's results as their one reader gives them: kind, then
	# the record, $4 the KTAP name, $7 the directive.)
	if [ -n "$out" ] && [ -r "$out/cases.tsv" ] &&
		/usr/bin/python3 "$top/netns-tests/results.py" list "$out" > "$log.results" &&
		awk -F'\t' '$1 == "fail" && $7 !~ /^not run: / { bad = 1 } END { exit !bad }' "$log.results"; then
		echo "[bisect] step $n: $commit: bad: $(awk -F'\t' '$1 == "fail" { printf "%s%s", s, $4; s = ", " }' "$log.results")" >&2
		exit 1
	fi
	echo "[bisect] step $n: $commit: no case could run (the guest did not boot or died): skipped ($(tail -n 1 "$log"))" >&2
	exit 125
fi

[ -n "${GOOD:-}" ] && [ -n "${BAD:-}" ] && [ -n "${KERNEL_TREE:-}" ] ||
	die "usage: make bisect GOOD=REV BAD=REV KERNEL_TREE=DIR [FLAVOR=...] [CASES=...] [CHECK_SUITES=...]"
[ -d "$KERNEL_TREE" ] || die "KERNEL_TREE=$KERNEL_TREE: no such folder"
repo=$(git -C "$KERNEL_TREE" rev-parse --show-toplevel 2> /dev/null) ||
	die "KERNEL_TREE=$KERNEL_TREE is not in a git repository: bisect needs its history"
good=$(git -C "$repo" rev-parse -q --verify "$GOOD^{commit}") || die "GOOD=$GOOD is not a commit of $repo"
bad=$(git -C "$repo" rev-parse -q --verify "$BAD^{commit}") || die "BAD=$BAD is not a commit of $repo"
git -C "$repo" merge-base --is-ancestor "$good" "$bad" || die "GOOD=$GOOD is not an ancestor of BAD=$BAD"
[ "$good" != "$bad" ] || die "GOOD and BAD are the same commit"
[ ! -e "$work/tree" ] || die "$work/tree exists: another bisection is running, or one was cut off (remove it: git -C $repo worktree remove --force $work/tree)"

mkdir -p "$work"
rm -f "$work"/step-*.log "$work"/step-*.log.results "$work/steps"
cleanup() {
	git -C "$work/tree" bisect reset > /dev/null 2>&1 || true
	git -C "$repo" worktree remove --force "$work/tree" 2> /dev/null || rm -rf "$work/tree"
	git -C "$repo" worktree prune 2> /dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
git -C "$repo" worktree add -q --detach "$work/tree" "$bad"
echo "[bisect] $(git -C "$repo" rev-list --count "$good..$bad") commits from GOOD=$GOOD to BAD=$BAD in $repo, tested with: $suites${CASES:+ CASES=$CASES} on $flavor (worktree: $work/tree)" >&2
cd "$work/tree"
git bisect start "$bad" "$good" > /dev/null || die "git bisect start $BAD $GOOD failed in $work/tree"
rc=0
# Each step's verdict as it comes (the steps' own output in their logs).
git bisect run "$top/netns-tests/bisect.sh" step 2>&1 | tee "$work/bisect.log" |
	grep --line-buffered '^\[bisect\]' >&2 || rc=$?
first=$(sed -n 's/^\([0-9a-f]\{40\}\) is the first bad commit$/\1/p' "$work/bisect.log")
if [ -n "$first" ]; then
	echo "first bad commit: $(git log -1 --format='%h %s' "$first")"
	exit 0
fi
if grep -q 'only .skip.ped commits left to test' "$work/bisect.log"; then
	echo "the first bad commit is one of these (the others could not be built or booted):"
	sed -n '/first bad commit could be any of/,$p' "$work/bisect.log" | sed -n 's/^\([0-9a-f]\{40\}\)$/\1/p' |
		while read -r c; do echo "  $(git log -1 --format='%h %s' "$c")"; done
	exit 1
fi
cat "$work/bisect.log" >&2
die "git bisect run ended without naming a commit (exit $rc)"
