#!/bin/bash
# The guest's init (guest-image/init.c), checked off the guest (part of
# make test): its run_entry(), built with entries of this check's own
# (relay.c), copies every line an entry writes to the verdict port, the
# last one too; does not wait for an orphan that keeps the entry's output
# open; and returns the entry's exit status as the guest's verdict.
set -e -o pipefail
export LC_ALL=C

prog=guest-image/check/init-check.sh
die() { echo "$prog: $*" >&2; exit 1; }

top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wgt-init-check.XXXXXX")
cleanup() {
	[ ! -s "$tmp/orphan.pgid" ] || kill -- "-$(cat "$tmp/orphan.pgid")" 2> /dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir "$tmp/entry"
gcc -O2 -Wall -Wextra -Werror -DENTRY_DIR="\"$tmp/entry\"" \
	-o "$tmp/relay" "$top/guest-image/check/relay.c" ||
	die "guest-image/check/relay.c (guest-image/init.c) does not build"

# entry NAME: an entry script from stdin.
entry() {
	{ echo '#!/bin/sh'; cat; } > "$tmp/entry/$1"
	chmod +x "$tmp/entry/$1"
}

# relay_gives ENTRY DELAY_MS RC OUTPUT: init's run_entry() on ENTRY
# copies exactly OUTPUT (a printf format) and returns RC.
relay_gives() {
	local rc=0
	"$tmp/relay" "$1" "$2" > "$tmp/got" || rc=$?
	# shellcheck disable=SC2059 # the format is the caller's
	printf "$4" > "$tmp/want"
	diff -u "$tmp/want" "$tmp/got" || { echo "init's copy of $1's output differs from what $1 wrote"; return 1; }
	[ "$rc" = "$3" ] || { echo "$1: run_entry returned $rc, not $3"; return 1; }
}

# The netns entry's end: its last case's result, then exit at once.  init
# polls for 200 ms; here a poll that finds nothing returns 2 s late, so the
# entry has written its last line and exited before init reaps it.
entry last << 'EOF2'
echo 'ok 1 first'
sleep 0.3
echo 'ok 2 last'
EOF2

# An entry that leaves a process behind holding its output open (a case's
# stray daemon): init goes on once the entry exited and its output is
# drained, while the orphan still runs (it leaves a file when it ends).
# The entry leads a session of its own (init's setsid), so its process
# group is the orphan's too, and the cleanup ends it.
entry orphan << EOF2
echo \$\$ > $tmp/orphan.pgid
(sleep 20; : > $tmp/orphan.ended) &
echo 'ok 1 done'
EOF2
orphan_left() {
	relay_gives orphan 0 0 'ok 1 done\n' || return 1
	[ ! -e "$tmp/orphan.ended" ] ||
		{ echo "run_entry returned only once the orphan ended"; return 1; }
}

# The verdict: the entry's exit status, 128 + N when signal N ended it.
entry exit3 <<< 'exit 3'
entry killed <<< 'kill -TERM $$'
exit_status() {
	relay_gives exit3 0 3 '' && relay_gives killed 0 143 ''
}

. "$top/netns-tests/ktap-checks.sh"
ktap_begin init 3
check "an entry's last line, written as it exits, reaches the verdict" \
	relay_gives last 2000 0 'ok 1 first\nok 2 last\n'
check "an orphan holding the entry's output open does not hold the guest" orphan_left
check "the entry's exit status is the verdict, 128 + N for signal N" exit_status
[ "$failed" = 0 ]
