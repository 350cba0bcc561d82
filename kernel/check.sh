#!/bin/bash
# kernel/build.sh's own checks, KTAP (part of make test), on a made-up
# BUILD_DIR that never gets as far as a build: with the disk short,
# source trees no flavor builds from go, least recently used first; the
# trees the flavors build from and a tree a running build holds stay; a
# disk still short is named as such; a bad KERNEL_MIN_FREE_MB is refused;
# the same before any flavor is built; an obj.tmp left by a seeding cut
# short is not carried into the next seeding.
set -e -o pipefail
export LC_ALL=C

prog=kernel/check.sh
die() { echo "$prog: $*" >&2; exit 1; }

top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wgt-kernel-check.XXXXXX")
holder=
cleanup() {
	[ -z "$holder" ] || kill "$holder" 2> /dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
[ -r "${KSRC_TARBALL:-/usr/src/linux-source-6.1.tar.xz}" ] ||
	die "no linux-source-6.1 tarball: run 'make deps' as root"

. "$top/netns-tests/ktap-checks.sh"
ktap_begin kernel 6

# Four trees: "old" and "older" are unused (older the least recently),
# "flavor" is zinc's, "busy" is held by a build still running.
bd=$tmp/build src=$tmp/build/kernel/src
mkdir -p "$bd/kernel/zinc"
for k in older old flavor busy; do
	mkdir -p "$src/$k"
	head -c 1048576 /dev/zero > "$src/$k/file"
	: > "$src/$k.lock"
done
touch -d '2026-01-01 00:00' "$src/older.use"
touch -d '2026-02-01 00:00' "$src/old.use"
touch -d '2025-01-01 00:00' "$src/flavor.use" "$src/busy.use"
echo flavor > "$bd/kernel/zinc/src-key"
(exec 3> "$src/busy.use" && flock -s 3 && exec sleep 600) &
holder=$!
for _ in $(seq 100); do
	! flock -n -x "$src/busy.use" true || { sleep 0.1; continue; }
	break
done
! flock -n -x "$src/busy.use" true || die "could not hold src/busy.use"

# build NEED: kernel/build.sh stock with the disk NEED MB short.
build() {
	local free
	free=$(df -Pm "$bd" | awk 'NR == 2 { print $4 }')
	BUILD_DIR=$bd KERNEL_MIN_FREE_MB=$((free + $1)) timeout 60 \
		"$top/kernel/build.sh" stock > "$tmp/build.log" 2>&1
}

evicts_lru() {
	! build 1000000 || { cat "$tmp/build.log"; die "build.sh went on with the disk short"; }
	cat "$tmp/build.log"
	grep -q 'removing src/older,' "$tmp/build.log" || die "src/older was not removed"
	grep -q 'removing src/old,' "$tmp/build.log" || die "src/old was not removed"
	[ "$(grep -n 'removing src/older,' "$tmp/build.log" | cut -d: -f1)" -lt \
		"$(grep -n 'removing src/old,' "$tmp/build.log" | cut -d: -f1)" ] ||
		die "src/old went before src/older, which was used less recently"
	[ ! -e "$src/older" ] && [ ! -e "$src/old" ] || die "a tree reported removed is still there"
	[ ! -e "$src/older.use" ] && [ ! -e "$src/old.lock" ] || die "a removed tree's lock files are left"
}
keeps_used() {
	cat "$tmp/build.log"
	[ -e "$src/flavor/file" ] || die "the tree zinc builds from was removed"
	[ -e "$src/busy/file" ] || die "the tree a running build holds was removed"
	! grep -q 'removing src/\(flavor\|busy\),' "$tmp/build.log" || die "a kept tree was reported removed"
}
names_full() {
	cat "$tmp/build.log"
	grep -q '^kernel/build.sh: disk full: [0-9]* MB free in .*, a kernel build needs about [0-9]* MB' \
		"$tmp/build.log" || die "no 'disk full' error"
}
bad_need() {
	! BUILD_DIR=$bd KERNEL_MIN_FREE_MB=lots "$top/kernel/build.sh" stock > "$tmp/bad.log" 2>&1 ||
		die "KERNEL_MIN_FREE_MB=lots was taken"
	cat "$tmp/bad.log"
	grep -q 'KERNEL_MIN_FREE_MB=lots is not a number of MB' "$tmp/bad.log" || die "no error naming KERNEL_MIN_FREE_MB"
}
# A BUILD_DIR where no flavor is built yet: its trees are all unused.
first_build() {
	local bd2=$tmp/build2 free
	mkdir -p "$bd2/kernel/src/stale"
	head -c 1048576 /dev/zero > "$bd2/kernel/src/stale/file"
	free=$(df -Pm "$bd2" | awk 'NR == 2 { print $4 }')
	! BUILD_DIR=$bd2 KERNEL_MIN_FREE_MB=$((free + 1000000)) timeout 60 \
		"$top/kernel/build.sh" stock > "$tmp/first.log" 2>&1 ||
		{ cat "$tmp/first.log"; die "build.sh went on with the disk short"; }
	cat "$tmp/first.log"
	grep -q 'removing src/stale,' "$tmp/first.log" || die "src/stale was not removed"
	grep -q '^kernel/build.sh: disk full: ' "$tmp/first.log" || die "no 'disk full' error"
}
# An interrupted seeding's obj.tmp, holding a stale object: the next
# build of stock-modular seeds from stock's objects (then stops at
# tinyconfig, the tree being a stub) and has stock's objects alone.
stale_seed() {
	local bd3=$tmp/build3 key
	key=$(stat -c '%n %s %Y' "${KSRC_TARBALL:-/usr/src/linux-source-6.1.tar.xz}" | sha256sum | cut -c1-16)
	mkdir -p "$bd3/kernel/src/$key" "$bd3/kernel/stock/obj" "$bd3/kernel/stock-modular/obj.tmp"
	touch "$bd3/kernel/src/$key/.wgt-complete"
	echo stock > "$bd3/kernel/stock/obj/good.o"
	echo "$key" > "$bd3/kernel/stock/src-key"
	echo stale > "$bd3/kernel/stock-modular/obj.tmp/stale.o"
	! BUILD_DIR=$bd3 JOBS=1 timeout 60 "$top/kernel/build.sh" stock-modular > "$tmp/seed.log" 2>&1 ||
		die "build.sh went on with a stub source tree"
	cat "$tmp/seed.log"
	grep -q "starting from stock's objects" "$tmp/seed.log" || die "stock-modular did not seed from stock"
	local got
	got=$(cd "$bd3/kernel/stock-modular" && find obj obj.tmp -type f 2> /dev/null | sort | tr '\n' ' ')
	echo "# seeded: $got"
	[ "$got" = "obj/good.o " ] || die "the seeded objects are '$got', not stock's obj/good.o alone"
}
check "a short disk removes the unused source trees, least recently used first" evicts_lru
check "the trees a flavor builds from or a running build holds stay" keeps_used
check "a disk still short is named as such" names_full
check "a KERNEL_MIN_FREE_MB that is not a number is refused" bad_need
check "a short disk before any flavor is built removes the unused trees too" first_build
check "an obj.tmp left by an interrupted seeding is not seeded from" stale_seed
echo "# kernel: $((n - failed)) passed, $failed failed"
[ "$failed" = 0 ]
