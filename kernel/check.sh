#!/bin/bash
# kernel/build.sh's own checks, KTAP (part of make test), on a made-up
# BUILD_DIR that never gets as far as a build: with the disk short,
# source trees no flavor builds from go, least recently used first; the
# trees the flavors build from and a tree a running build holds stay; a
# disk still short is named as such; a bad KERNEL_MIN_FREE_MB is refused;
# the same before any flavor is built; an obj.tmp left by a seeding cut
# short is not carried into the next seeding; KEEP_USER_KERNELS and
# KEEP_TREES keep what they say (user-kernels/ least recently used first,
# never a root in use; the trees a flavor or a user kernel builds from,
# and so many others), also with the disk short; a bad KEEP_TREES is
# refused.
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
ktap_begin kernel 9

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
# The policies with room on the disk: in a BUILD_DIR whose stock tree is
# a stub (the build stops at tinyconfig), five roots in user-kernels/ (u0
# the oldest but in use, held by a run's snapshot of zinc) and seven
# trees: stock's, zinc's, u1's and u3's (the oldest), t1 to t4 (no one's).
# KEEP_USER_KERNELS=2 leaves u0 (in use), u3 and u4; KEEP_TREES=2 then
# leaves the trees of stock, zinc and u3, and t3 and t4.
policies() {
	local bd4=$tmp/build4 key k s
	key=$(stat -c '%n %s %Y' "${KSRC_TARBALL:-/usr/src/linux-source-6.1.tar.xz}" | sha256sum | cut -c1-16)
	s=$bd4/kernel/src
	mkdir -p "$s/$key" "$bd4/kernel/zinc"
	touch "$s/$key/.wgt-complete"
	echo zinctree > "$bd4/kernel/zinc/src-key"
	for k in zinctree ut1 ut3 t1 t2 t3 t4; do mkdir -p "$s/$k"; : > "$s/$k/file"; done
	touch -d '2025-06-01 00:00' "$s/ut1.use" "$s/ut3.use" "$s/zinctree.use"
	for k in 1 2 3 4; do touch -d "2026-01-0$k 00:00" "$s/t$k.use"; done
	for k in 0 1 2 3 4; do
		mkdir -p "$bd4/user-kernels/u$k/zinc"
		echo zinctree > "$bd4/user-kernels/u$k/zinc/src-key"
		touch -d "2026-02-0$((k + 1)) 00:00" "$bd4/user-kernels/u$k/.use"
	done
	echo ut1 > "$bd4/user-kernels/u1/zinc/src-key"
	echo ut3 > "$bd4/user-kernels/u3/zinc/src-key"
	touch -d '2025-01-01 00:00' "$bd4/user-kernels/u0/.use"
	(exec 3> "$bd4/user-kernels/u0/.zinc.lock" && flock -s 3 && exec sleep 600) &
	local snap=$!
	for _ in $(seq 100); do
		flock -n -x "$bd4/user-kernels/u0/.zinc.lock" true || break
		sleep 0.1
	done
	! BUILD_DIR=$bd4 KERNEL_MIN_FREE_MB=0 KEEP_TREES=2 KEEP_USER_KERNELS=2 JOBS=1 timeout 60 \
		"$top/kernel/build.sh" stock > "$tmp/policies.log" 2>&1 || { kill $snap; die "build.sh went on with a stub source tree"; }
	kill $snap
	cat "$tmp/policies.log"
	echo "# user-kernels/: $(cd "$bd4/user-kernels" && echo *)"
	echo "# kernel/src/: $(cd "$s" && find . -mindepth 1 -maxdepth 1 -type d -printf '%f ' | tr ' ' '\n' | sort | tr '\n' ' ')"
	[ "$(cd "$bd4/user-kernels" && echo *)" = "u0 u3 u4" ] || die "user-kernels/ holds $(cd "$bd4/user-kernels" && echo *), not u0 u3 u4"
	[ "$(cd "$s" && find . -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort | tr '\n' ' ')" = "$(printf '%s\n' "$key" t3 t4 ut3 zinctree | sort | tr '\n' ' ')" ] ||
		die "kernel/src/ does not hold exactly stock's, zinc's and u3's trees, t3 and t4"
}
# With the disk short: a tree a kernel in user-kernels/ (a fixture's)
# builds from stays; only the tree no one builds from goes.
fixture_tree() {
	local bd5=$tmp/build5 free
	mkdir -p "$bd5/kernel/src/fxtree" "$bd5/kernel/src/stale" "$bd5/user-kernels/fixture-harmless/zinc"
	echo fxtree > "$bd5/user-kernels/fixture-harmless/zinc/src-key"
	free=$(df -Pm "$bd5" | awk 'NR == 2 { print $4 }')
	! BUILD_DIR=$bd5 KERNEL_MIN_FREE_MB=$((free + 1000000)) timeout 60 \
		"$top/kernel/build.sh" stock > "$tmp/fx.log" 2>&1 || die "build.sh went on with the disk short"
	cat "$tmp/fx.log"
	[ ! -e "$bd5/kernel/src/stale" ] || die "src/stale, no one's, was not removed"
	[ -e "$bd5/kernel/src/fxtree" ] || die "src/fxtree, the fixture's, was removed"
}
bad_keep() {
	! BUILD_DIR=$tmp/build6 KEEP_TREES=two KERNEL_MIN_FREE_MB=1048576 timeout 60 "$top/kernel/build.sh" stock > "$tmp/keep.log" 2>&1 ||
		die "KEEP_TREES=two was taken"
	cat "$tmp/keep.log"
	grep -q 'KEEP_TREES=two is not a whole number' "$tmp/keep.log" || die "no error naming KEEP_TREES"
}
check "a short disk removes the unused source trees, least recently used first" evicts_lru
check "the trees a flavor builds from or a running build holds stay" keeps_used
check "a disk still short is named as such" names_full
check "a KERNEL_MIN_FREE_MB that is not a number is refused" bad_need
check "a short disk before any flavor is built removes the unused trees too" first_build
check "an obj.tmp left by an interrupted seeding is not seeded from" stale_seed
check "KEEP_USER_KERNELS=2 and KEEP_TREES=2: the newest user kernels and one in use stay, the trees anyone builds from and the 2 newest others" policies
check "with the disk short, a tree a user kernel (a fixture) builds from stays" fixture_tree
check "a KEEP_TREES that is not a number is refused" bad_keep
echo "# kernel: $((n - failed)) passed, $failed failed"
[ "$failed" = 0 ]
