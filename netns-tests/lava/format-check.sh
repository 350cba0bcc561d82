#!/bin/bash
# The LAVA jobs' result lines, checked off the guest (part of make test;
# make lava-check runs the jobs themselves, with lava-run): the guest's init
# (netns-tests/lava/feed.c compiles its lava_feed()) turns KTAP results
# into wgt-lava: lines, and the jobs' monitor (lava.py's pattern and
# fixupdict) reads them back: every top-level result, with its name whole,
# pass, fail, skip, or fail for a known failure; nothing from diagnostics
# or subtests.  Fed whole, and in reads of 1, 7 and 3 bytes in turn.
set -e -o pipefail
export LC_ALL=C

prog=netns-tests/lava/format-check.sh
die() { echo "$prog: $*" >&2; exit 1; }

top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wgt-lava-format.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 -c 'import yaml' 2> /dev/null ||
	die "python3-yaml is missing: run 'make deps' as root"
gcc -O2 -Wall -Wextra -Werror -o "$tmp/feed" "$top/netns-tests/lava/feed.c" ||
	die "netns-tests/lava/feed.c (guest-image/init.c) does not build"

cat > "$tmp/ktap" << 'EOF2'
KTAP version 1
1..7
# a diagnostic line: ok 9 not-a-result
ok 1 roam-v4
not ok 2 mtu
    ok 1 a subtest
ok 3 smp-crypt # SKIP one CPU
not ok 4 routing-loop-bound # TODO known failure: 6.1 sends 31760608 bytes
ok 5 guest: kernel healthy, clean shutdown
not ok 6 allowed-ips # timed out after 90s
ok 7 ends-without-newline
EOF2
printf 'not ok 8 last' >> "$tmp/ktap"
cat > "$tmp/want" << 'EOF2'
pass	roam-v4
fail	mtu
skip	smp-crypt
fail	routing-loop-bound
pass	guest: kernel healthy, clean shutdown
fail	allowed-ips
pass	ends-without-newline
EOF2

. "$top/netns-tests/ktap-checks.sh"
ktap_begin lava-format 2
read_back() {
	"$tmp/feed" "$@" < "$tmp/ktap" > "$tmp/console"
	/usr/bin/python3 "$top/netns-tests/lava/lava.py" monitor "$tmp/console" > "$tmp/got"
	diff -u "$tmp/want" "$tmp/got"
}
check "init's lines read back by the jobs' monitor, fed whole" read_back
check "init's lines read back by the jobs' monitor, fed in 1, 7 and 3 bytes" read_back 1 7 3
[ "$failed" = 0 ]
