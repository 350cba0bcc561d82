#!/bin/bash
# make shell, used as a user types into it, but from a pipe (part of make
# test, KTAP): make shell TUNNEL=1 on FLAVOR (default zinc) boots; once the
# console says "wgt-shell: ready", commands go in on stdin: a ping from
# namespace a to b's tunnel address, a sum only a shell evaluates, the
# library's wg_pair, 'exit 3'.  Their answers come back on stdout, the
# guest ends with the shell's status and a healthy kernel, and nothing of
# it is left running.
#
#   guest-image/check/shell-check.sh [FLAVOR]
#
# SHELL_CHECK_WAIT (default 900) is how long the guest may take to boot
# and bring the tunnel up, and then to end: TCG beside the suites at nice
# 19 is slow.
set -e -o pipefail
export LC_ALL=C

prog=guest-image/check/shell-check.sh
die() { echo "$prog: $*" >&2; exit 1; }

top=$(cd "$(dirname "$0")/../.." && pwd)
flavor=${1:-zinc}
wait_s=${SHELL_CHECK_WAIT:-900}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wgt-shell-check.XXXXXX")
pid=
cleanup() {
	if [ -n "$pid" ]; then
		[ ! -s "$tmp/sid" ] || kill -TERM -- "-$(cat "$tmp/sid")" 2> /dev/null || true
		wait "$pid" 2> /dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
. "$top/netns-tests/ktap-checks.sh"

# out: the console so far, without the serial line's carriage returns.
out() { tr -d '\r' < "$tmp/console"; }
# until_out SECONDS PATTERN: poll the output for an ERE; false after
# SECONDS or once make has ended without it.
until_out() {
	local end=$(($(date +%s) + $1))
	while [ "$(date +%s)" -lt "$end" ]; do
		! out | grep -E -- "$2" > /dev/null || return 0
		[ ! -e "$tmp/rc" ] || { out | grep -E -- "$2" > /dev/null; return; }
		sleep 1
	done
	return 1
}

ktap_begin shell 4
mkfifo "$tmp/in"
# Opened for reading and writing: never blocks, and make's stdin sees no
# end of file until this script closes it.
exec 3<> "$tmp/in"
start=$(date +%s)
# (make's exit status in a file: the checks run in subshells, which
# cannot wait for it.)
# A session of its own, so that a stop of this check stops QEMU with it
# (boot.sh runs a shell's QEMU in the foreground).
setsid bash -c 'echo $$ > "$3/sid"; make -s -C "$1" shell FLAVOR="$2" TUNNEL=1 < "$3/in" > "$3/console" 2>&1; echo $? > "$3/rc"' \
	- "$top" "$flavor" "$tmp" &
pid=$!

t_ready() {
	until_out "$wait_s" '^wgt-shell: ready' || { out; die "no 'wgt-shell: ready' on the console in ${wait_s}s"; }
	out | grep -E '^wgt-shell: tunnel: .*first ping ok' ||
		{ out; die "the tunnel did not come up (no 'first ping ok')"; }
	# What the leftover check below looks for, seen while it runs.
	pgrep -f 'wgt_entry=shell' > /dev/null || die "no QEMU with wgt_entry=shell while the shell runs"
	echo "ready after $(($(date +%s) - start)) s"
}
check "make shell TUNNEL=1 on $flavor: the shell is ready, with a tunnel between namespaces a and b" t_ready

# What goes in: each answer is something only the guest could print.
printf '%s\n' \
	'on a ping -c 1 -W 5 192.168.241.2 | sed -n "s/.* \([0-9]*\) received.*/received=\1/p"' \
	'echo "sum=$((6 * 7))"' \
	'type wg_pair' \
	'exit 3' >&3
t_answers() {
	until_out "$wait_s" '^sum=42' || { out; die "no answer 'sum=42' to echo \"sum=\$((6 * 7))\""; }
	out | grep -x 'received=1' ||
		{ out; die "ping from a to 192.168.241.2 over the tunnel: no 'received=1'"; }
	out | grep -E '^wg_pair is a (shell )?function' ||
		{ out; die "the cases' library is not loaded (wg_pair is not a function)"; }
}
check "commands typed on stdin run in the guest: a ping over the tunnel, a sum, the library's wg_pair" t_answers

t_exit() {
	local rc end=$(($(date +%s) + wait_s))
	while [ ! -e "$tmp/rc" ] && [ "$(date +%s)" -lt "$end" ]; do sleep 1; done
	[ -e "$tmp/rc" ] || { out; die "the guest did not end in ${wait_s}s after 'exit 3'"; }
	rc=$(cat "$tmp/rc")
	# make's own status is 2 for a failed recipe; the recipe's is the
	# shell's, and boot.sh names it.
	[ "$rc" = 2 ] && out | grep -E '^\[boot\] shell-.*: verdict 3 after' ||
		{ out; die "make shell exited $rc, not 2 with the guest's verdict 3 (exit 3)"; }
	out | grep -x '# wgt-health: ok' ||
		{ out; die "no '# wgt-health: ok' (init's kernel health verdict) after the shell ended"; }
}
check "exit 3 ends the guest: its verdict is 3, its kernel healthy" t_exit
exec 3>&-
wait "$pid" 2> /dev/null || true
pid=

t_left() {
	local left
	left=$(pgrep -af 'wgt_entry=shell' || true)
	[ -z "$left" ] || { echo "$left"; die "a guest of make shell is still running"; }
}
check "nothing of the guest is left running" t_left

echo "# shell: $((n - failed)) passed, $failed failed"
[ "$failed" = 0 ]
