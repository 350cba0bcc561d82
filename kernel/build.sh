#!/bin/bash
# Build one kernel flavor from Debian's linux-source-6.1.
#
#   kernel/build.sh FLAVOR
#
# Flavors: stock (pristine 6.1), zinc (with wg-patches/), zinc-debug and
# stock-debug (the debug checks of debug.config), zinc-modular and
# stock-modular (WireGuard and its crypto as modules, modular.config),
# zinc-nopreempt (PREEMPT_NONE), zinc-release (no CONFIG_ZINC_DEBUG, as a
# production kernel: make bench's candidate).
#
# The result is $BUILD_DIR/kernel/FLAVOR/bzImage (x86_64), or for another
# ARCH $BUILD_DIR/kernel/FLAVOR-ARCH/Image (arm64) or .../zImage (arm).  The
# build is keyed on the content of everything that goes into it (source
# tarball, patch series, config fragments, this script); when the key is
# unchanged nothing is rebuilt.
#
# Flavors that share a source tree (the same patch series) share one
# unpacked tree, $BUILD_DIR/kernel/src/KEY, and a flavor built for the first
# time starts from a copy of its sibling's objects (zinc for the other zinc
# flavors, stock for stock-modular and stock-debug): kbuild then recompiles
# only what the config difference touches, not the whole kernel.  A modular flavor also
# gets FLAVOR/modules.cpio.gz (/lib/modules with modules.dep), which
# boot.sh appends to the guest's initramfs.  Beside the image: config,
# patches (the subjects of the patches applied), series ("SHA256 PATH" of
# each) and source (the tarball and its Debian package), which the results
# report as what was tested.
#
# Knobs (environment): ARCH (x86_64, arm64 or arm; default x86_64),
# CROSS_COMPILE (default aarch64-linux-gnu- for arm64, arm-linux-gnueabihf-
# for arm), BUILD_DIR (default build), JOBS (default nproc), SERIES (patch
# directory with a 'series' file replacing the flavor's own: default
# wg-patches for the zinc flavors, none for stock), FIXES (a series of
# kernel fixes applied next, default wg-patches/fixes for the zinc flavors
# without SERIES; 'none' for none), PATCHES (a user's series, applied last,
# on top of all that), KERNEL_ROOT (where FLAVOR/ goes, default
# BUILD_DIR/kernel; a kernel in a root of its own starts from the objects
# of the flavor's default build), KERNEL (a prebuilt image used as it is,
# with KERNEL_CONFIG, see install_image), KSRC_TARBALL, KERNEL_MIN_FREE_MB
# (the free disk a build wants before it removes unused source trees, see
# free_disk), KEEP_TREES and KEEP_USER_KERNELS (what a build keeps of
# the source trees and of user-kernels/, see free_disk), V=1 for the full
# build log.
set -E -e -o pipefail
export LC_ALL=C

prog=kernel/build.sh
die() { echo "$prog: $*" >&2; exit 1; }
# A command that stops the build says where, so that no build log is left
# without its reason (one a fixture check once showed empty); -E above
# makes that true inside functions and subshells too.
trap 'echo "$prog: stopped at line $LINENO (exit $?): $BASH_COMMAND" >&2' ERR
msg() { echo "[kernel] $*"; }

top=$(cd "$(dirname "$0")/.." && pwd)
flavor=${1:-}
# The flavors below, for the Makefile and netns-tests/run.sh to check a
# FLAVOR or a suite's flavors against before anything is built.
all_flavors="stock zinc zinc-debug zinc-modular zinc-nopreempt zinc-release stock-modular stock-debug"
[ "$flavor" != --flavors ] || { echo "$all_flavors"; exit 0; }

# series DIR: the patches DIR's series file names, in order.
series() {
	local dir=$1 p
	case "$dir" in /*) ;; *) dir=$top/$dir ;; esac
	[ -d "$dir" ] || die "$dir is not a folder"
	[ -r "$dir/series" ] || die "no series file in $dir (the patches' names, in order)"
	while read -r p; do
		case "$p" in ''|'#'*) continue ;; esac
		[ -r "$dir/$p" ] || die "series names $p but $dir/$p is missing"
		echo "$dir/$p"
	done < "$dir/series"
}
# --check-patches DIR: a user's series (make PATCHES=) is readable and
# names at least one patch, checked by make before any build.
if [ "$flavor" = --check-patches ]; then
	list=$(series "${2:-}") || exit 1
	[ -n "$list" ] || die "the series in ${2:-} names no patch"
	exit 0
fi
[ -n "$flavor" ] || die "usage: $prog FLAVOR ($all_flavors)"

BUILD_DIR=${BUILD_DIR:-$top/build}
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR=$top/$BUILD_DIR ;; esac
# BUILD_DIR is in use while this runs (a shared lock): make clean and
# distclean refuse to remove it under a running build, test or bench.
mkdir -p "$BUILD_DIR" && exec 5> "$BUILD_DIR/.wgt-in-use" && flock -s 5
JOBS=${JOBS:-$(nproc)}
KSRC_TARBALL=${KSRC_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
cfgdir=$top/kernel/config
# frag F: the file of fragment F (kernel/config/F, or the user's own).
frag() { case "$1" in /*) echo "$1" ;; *) echo "$cfgdir/$1" ;; esac; }
arch=${ARCH:-x86_64}

# Per architecture: the kernel's ARCH, the image and where the build goes
# (kernel_arch, kernel/kmake.sh), the common fragments and the zinc
# flavor's fragment.  On ARM only what the Zinc selftests need (no
# networking, WireGuard or tracing).
. "$top/kernel/kmake.sh"
kernel_arch "$arch" "$flavor" || die "unknown ARCH '$arch' (x86_64, arm64, arm)"
case "$arch" in
x86_64)
	fragments="base.config health.config kunit.config virtio.config net.config wireguard.config trace.config"
	zinc_frag=zinc.config ;;
arm64)
	fragments="base-arm.config health.config kunit.config arm64.config virtio.config"
	zinc_frag=zinc-arm64.config ;;
arm)
	fragments="base-arm.config health.config kunit.config arm.config virtio.config"
	zinc_frag=zinc-arm.config ;;
esac
imgname=${image##*/}
if [ -n "$cross" ]; then
	command -v "${cross}gcc" > /dev/null ||
		die "${cross}gcc not found: install the cross compiler (make deps ARCH=$arch)"
fi

# Fragments, in merge order (a later fragment's value wins), the patch
# series, and the sibling flavor whose objects a first build starts from.
# Without it, the same flavor on the other tree (stock for zinc, zinc for
# stock, each -modular or -debug with its own) is the next best: the two
# trees differ only in the files the series touches.
patches= seed= xseed=
case "$flavor" in
stock*) xseed=zinc${flavor#stock} ;;
zinc*) xseed=stock${flavor#zinc} ;;
esac
case "$flavor" in
stock)
	fragments="$fragments stock.config" ;;
stock-modular)
	fragments="$fragments stock.config modular.config" seed=stock ;;
stock-debug)
	fragments="$fragments stock.config debug.config" seed=stock ;;
zinc)
	fragments="$fragments $zinc_frag"
	patches=${SERIES:-$top/wg-patches} ;;
zinc-debug | zinc-modular | zinc-nopreempt | zinc-release)
	case "$flavor" in
	zinc-debug) extra=debug.config ;;
	zinc-modular) extra=modular.config ;;
	zinc-nopreempt) extra=nopreempt.config ;;
	zinc-release) extra=release.config ;;
	esac
	fragments="$fragments $zinc_frag $extra" seed=zinc
	patches=${SERIES:-$top/wg-patches} ;;
*)
	die "unknown flavor '$flavor' ($all_flavors)" ;;
esac
[ "$arch" = x86_64 ] || case "$flavor" in
	*-modular | *-nopreempt | *-release) die "flavor $flavor is built for x86_64 only" ;;
	esac
# A user may build 'stock' from their own series too (bench: BASE_PATCHES).
case "$flavor" in stock | stock-modular) [ -z "${SERIES:-}" ] || patches=$SERIES ;; esac

# KERNEL=IMAGE: a prebuilt kernel, used as it is.  Its config (KERNEL_CONFIG,
# else 'config' or '.config' beside it, else /boot/config-VERSION for a
# /boot/vmlinuz-VERSION) must have what the guest and the suites need,
# built in: every option of virtio.config and net.config, WireGuard, and
# the init essentials below; each missing one is named.  What the flavor's
# other fragments ask for is only reported: the cases that need it (the
# path checks need the function profiler, zinc-selftest needs Zinc) fail.
needed_base="BLK_DEV_INITRD RD_GZIP DEVTMPFS PROC_FS SYSFS TMPFS BINFMT_ELF BINFMT_SCRIPT TTY
SERIAL_8250_CONSOLE UNIX98_PTYS MULTIUSER FUTEX EPOLL SHMEM SYSCTL PROC_SYSCTL INOTIFY_USER"
install_image() {
	local img=$1 cfg=${KERNEL_CONFIG:-} kind sym line missing= unmet= f
	[ -r "$img" ] && [ -f "$img" ] || die "KERNEL=$img: no such kernel image"
	kind=$(file -b "$img")
	case "$arch:$kind" in
	x86_64:*"Linux kernel x86 boot executable bzImage"*) ;;
	arm64:*"Linux kernel ARM64 boot executable Image"*) ;;
	arm:*"Linux kernel ARM boot executable zImage"*) ;;
	*) die "KERNEL=$img is not a $arch kernel image ($imgname): file(1) says '$kind'" ;;
	esac
	if [ -z "$cfg" ]; then
		for f in "$(dirname "$img")/config" "$(dirname "$img")/.config" \
			"/boot/config-$(basename "$img" | sed -n 's/^vmlinuz-//p')"; do
			[ -r "$f" ] && [ -f "$f" ] && { cfg=$f; break; }
		done
	fi
	[ -n "$cfg" ] && [ -r "$cfg" ] ||
		die "KERNEL=$img: no config beside it; name it with KERNEL_CONFIG=FILE"
	grep -q '^CONFIG_' "$cfg" || die "KERNEL_CONFIG=$cfg is not a kernel config"
	for sym in $needed_base $(sed -n 's/^CONFIG_\([A-Z0-9_]*\)=y$/\1/p' "$cfgdir/virtio.config" "$cfgdir/net.config") WIREGUARD; do
		grep -qx "CONFIG_$sym=y" "$cfg" ||
			missing="$missing CONFIG_$sym ($(grep -E "^CONFIG_$sym=|^# CONFIG_$sym is not set" "$cfg" | sed 's/^# .* is not set$/n/; s/^CONFIG_[A-Z0-9_]*=//' || echo unset))"
	done
	[ -z "$missing" ] ||
		die "KERNEL=$img: its config ($cfg) lacks what the guest and the suites need, built in:$missing"
	for f in $fragments; do
		while read -r line; do
			case "$line" in CONFIG_*=*) ;; *) continue ;; esac
			grep -qxF "$line" "$cfg" || unmet="$unmet ${line%%=*}"
		done < "$(frag "$f")"
	done
	[ -z "$unmet" ] ||
		msg "$outname: note: KERNEL's config differs from the $flavor flavor's fragments in:$unmet (cases that rely on them may fail)"
	mkdir -p "$out"
	cp "$img" "$out/$imgname.new"
	mv "$out/$imgname.new" "$out/$imgname"
	cp "$cfg" "$out/config"
	: > "$out/patches"
	: > "$out/series"
	: > "$out/boot-params"
	printf 'image=%s\nconfig=%s\nimage_sha256=%s\n' "$(realpath "$img")" "$(realpath "$cfg")" \
		"$(sha256sum < "$img" | cut -c1-64)" > "$out/source"
	echo "image-$(cat "$out/$imgname" "$out/config" | sha256sum | cut -c1-16)" > "$out/key"
	msg "$outname: the prebuilt $img ($(cat "$out/key"))"
}
if [ -n "${KERNEL:-}" ]; then
	kroot=${KERNEL_ROOT:-$BUILD_DIR/kernel}
	[ "$kroot" != "$BUILD_DIR/kernel" ] ||
		die "KERNEL=IMAGE needs a KERNEL_ROOT of its own (make sets one), not the flavors' own folder"
	out=$kroot/$outname
	install_image "$KERNEL"
	exit 0
fi

# KERNEL_TREE=DIR: the user's own source tree, built out of tree (O= in
# FLAVOR/obj) with the flavor's fragments and no patches; DIR is never
# written to.  The build is cached on the tree's commit and diff (a tree
# without git is rebuilt each time, incrementally).
tree=${KERNEL_TREE:-}
if [ -n "$tree" ]; then
	[ -z "${PATCHES:-}" ] || die "KERNEL_TREE and PATCHES: name your kernel with one of them"
	[ -d "$tree" ] || die "KERNEL_TREE=$tree: no such folder"
	tree=$(realpath "$tree")
	srcarch=$karch
	[ "$srcarch" != x86_64 ] || srcarch=x86
	[ -r "$tree/Makefile" ] && grep -q '^VERSION = ' "$tree/Makefile" &&
		[ -d "$tree/arch/$srcarch" ] && [ -x "$tree/scripts/kconfig/merge_config.sh" ] ||
		die "KERNEL_TREE=$tree is not a kernel source tree (no top Makefile with VERSION, arch/$srcarch or scripts/kconfig/merge_config.sh)"
	[ ! -e "$tree/.config" ] ||
		die "KERNEL_TREE=$tree has a .config: it is configured in place, and kbuild refuses O= builds of it ('make mrproper' there)"
	if git -C "$tree" rev-parse -q --verify HEAD > /dev/null 2>&1; then
		tree_id="$(git -C "$tree" rev-parse HEAD) $(git -C "$tree" diff HEAD | sha256sum | cut -c1-16)"
		tree_desc=$(git -C "$tree" describe --always --dirty 2> /dev/null || git -C "$tree" rev-parse --short HEAD)
	else
		tree_id="no git, $(date +%s%N)"
		tree_desc="no git"
	fi
else
	[ -r "$KSRC_TARBALL" ] ||
		die "$KSRC_TARBALL not found: install Debian's linux-source-6.1 (make deps)"
fi
# CONFIG_FRAGMENT=FILE: the user's own fragment, merged last.
if [ -n "${CONFIG_FRAGMENT:-}" ]; then
	[ -r "$CONFIG_FRAGMENT" ] && [ -f "$CONFIG_FRAGMENT" ] ||
		die "CONFIG_FRAGMENT=$CONFIG_FRAGMENT: no such file"
	grep -q '^\(CONFIG_[A-Z0-9_]*=\|# CONFIG_[A-Z0-9_]* is not set\)' "$CONFIG_FRAGMENT" ||
		die "CONFIG_FRAGMENT=$CONFIG_FRAGMENT has no CONFIG_ lines: not a config fragment"
	fragments="$fragments $(realpath "$CONFIG_FRAGMENT")"
fi
for f in $fragments; do
	[ -r "$(frag "$f")" ] || die "missing config fragment kernel/config/$f"
done

patch_list=
[ -z "$patches" ] || patch_list=$(series "$patches")
# Kernel fixes (wg-patches/fixes/) go on top: by default on the zinc
# flavors built from wg-patches/, never on stock, which stays pristine.
# FIXES=DIR names another fixes series, FIXES=none leaves them out.
fixes=${FIXES:-}
if [ -z "$fixes" ]; then
	case "$flavor" in zinc*) [ -n "${SERIES:-}" ] || fixes=$top/wg-patches/fixes ;; esac
fi
[ "$fixes" != none ] || fixes=
[ -z "$fixes" ] || patch_list="$patch_list $(series "$fixes")"
# The user's own series, on top of everything the flavor carries.
user=${PATCHES:-}
[ -z "$user" ] || patch_list="$patch_list $(series "$user")"
[ -z "$tree" ] || patch_list=
patch_list=$(echo $patch_list)
# Each patch's sha256 and path, in order: for the keys below, and what
# FLAVOR/series records.
patch_sums=$(for p in $patch_list; do echo "$(sha256sum < "$p" | cut -c1-64) $p"; done)
# The keys hash them as sha256sum prints them for stdin ("HASH  -"), a line
# a patch and none without patches, so the trees and objects of earlier
# builds keep their keys.
patch_hashes=$(printf '%s\n' "$patch_sums" | sed -n 's/^\([0-9a-f]\{64\}\) .*/\1  -/p')

# The content key: tarball identity, patches, fragments and this script
# (with the kmake it sources).
key=$(
	{
		if [ -n "$tree" ]; then
			echo "tree $tree $tree_id"
		else
			stat -c '%n %s %Y' "$KSRC_TARBALL"
		fi
		echo "$flavor"
		[ "$arch" = x86_64 ] || echo "$arch $cross"
		[ -z "$patch_hashes" ] || echo "$patch_hashes"
		for f in $fragments; do echo "$f"; cat "$(frag "$f")"; done
		cat "$0" "$top/kernel/kmake.sh"
	} | sha256sum | cut -c1-16
)

# KERNEL_ROOT: where the kernels go (default BUILD_DIR/kernel); the
# Makefile gives a user's kernel (PATCHES, KERNEL_TREE) a root of its own,
# so the flavors' own builds stay cached beside it.
kroot=${KERNEL_ROOT:-$BUILD_DIR/kernel}
out=$kroot/$outname
# Two runs at once (one checkout, one BUILD_DIR) build a flavor once: the
# second waits for the first, then finds its result cached.
mkdir -p "$kroot"
# The root is in use while this runs (a shared lock on ROOT/.use, whose
# open also marks when it was last used): prune_user_kernels leaves it.
# (A root removed between its mkdir and the lock is made again.)
for _ in 1 2 3; do
	mkdir -p "$kroot"
	exec 10> "$kroot/.use"
	flock -s 10
	[ ! "$kroot/.use" -ef /proc/self/fd/10 ] || break
done
exec 9> "$kroot/.$outname.lock"
if ! flock -n 9; then
	msg "$outname: another build of it is running; waiting for it"
	flock 9
fi
if [ -r "$out/$imgname" ] && [ "$(cat "$out/key" 2>/dev/null)" = "$key" ]; then
	msg "$outname: cached ($key), not rebuilding"
	exit 0
fi

mkdir -p "$out"
# The old image stays usable until the new one replaces it; only the key
# marks it stale.
rm -f "$out/key"
# Trees of the layout before the shared one: never used again.
rm -rf "$out/linux"

# Disk.  user-kernels/ (a kernel root per PATCHES, KERNEL_TREE, KERNEL
# and fixture) keeps the KEEP_USER_KERNELS (default 8) most recently used
# roots; older ones go, never one in use (a build or a run's snapshot of
# it holds its .use or a flavor's lock).  A kernel build needs about 2 GB
# for an unpacked, patched tree and 0.5 GB per flavor for its objects; each
# series (a changed patch, a fixture) unpacks a tree of its own.  Trees a
# flavor (kernel/*, this root's) or a kernel in user-kernels/ builds from
# stay; of the others the KEEP_TREES (default 2) most recently used stay,
# and when the disk holds less than a build needs, none of them (a tree in
# use by a running build holds its .use lock and is skipped); a disk
# still full is named as such, not as a compiler error.
# KERNEL_MIN_FREE_MB sets the need (default 2500 MB, or 800 when the tree
# is already unpacked).
number() {
	case "$2" in ''|*[!0-9]*) die "$1=$2 is not a whole number" ;; esac
}
# lru PATH...: "TIME PATH" for each, least recently used first: the time
# of PATH.use (a tree's) or PATH/.use (a root's), else PATH's own.
lru() {
	local p
	for p in "$@"; do
		[ -d "$p" ] || continue
		echo "$({ stat -c %Y "$p.use" || stat -c %Y "$p/.use" || stat -c %Y "$p"; } 2> /dev/null | sed -n 1p) $p"
	done | sort -n
}
prune_user_kernels() {
	local keep=${KEEP_USER_KERNELS:-8} roots n when r
	number KEEP_USER_KERNELS "$keep"
	[ -d "$BUILD_DIR/user-kernels" ] || return 0
	roots=$(lru "$BUILD_DIR"/user-kernels/*)
	n=$(echo "$roots" | grep -c . || true)
	# Not 'echo | while ... break': bash writes a line at a time into a
	# pipe, and a loop that stops early leaves echo writing into a closed
	# pipe (SIGPIPE, exit 141 under pipefail, and the build stops unlogged).
	while read -r when r; do
		if [ -z "$r" ] || [ "$n" -le "$keep" ]; then break; fi
		n=$((n - 1))
		[ "$(realpath "$r")" != "$(realpath "$kroot")" ] || continue
		(
			for f in "$r/.use" "$r"/.*.lock; do
				[ -e "$f" ] || continue
				exec {fd}> "$f"
				flock -n -x "$fd" || exit 0
			done
			msg "$outname: removing user-kernels/${r##*/} ($(du -sm "$r" | cut -f1) MB, last used $(date -d "@$when" '+%F %T')): beyond the KEEP_USER_KERNELS=$keep most recently used"
			rm -rf "$r"
		)
	done <<< "$roots"
}
free_disk() {
	local need dir key used trees t when why keep=${KEEP_TREES:-2} n
	number KEEP_TREES "$keep"
	need=${KERNEL_MIN_FREE_MB:-}
	if [ -z "$need" ]; then
		need=2500
		[ -z "$tree" ] && [ ! -e "$src/.wgt-complete" ] || need=800
	fi
	case "$need" in ''|*[!0-9]*) die "KERNEL_MIN_FREE_MB=$need is not a number of MB" ;; esac
	dir=$BUILD_DIR/kernel/src
	free_mb() { df -Pm "$kroot" | awk 'NR == 2 { print $4 }'; }
	used=" $src_key "
	for t in "$BUILD_DIR"/kernel/*/src-key "$kroot"/*/src-key "$BUILD_DIR"/user-kernels/*/*/src-key; do
		if [ -r "$t" ]; then used="$used$(cat "$t") "; fi
	done
	# Least recently used first: the .use file's time, else the tree's.
	trees=$(for t in "$dir"/*/; do
		[ -d "$t" ] || continue
		key=$(basename "$t")
		case "$used" in *" $key "*) continue ;; esac
		echo "$dir/$key"
	done)
	# shellcheck disable=SC2086 # paths without spaces (BUILD_DIR is checked)
	trees=$(lru $trees)
	n=$(echo "$trees" | grep -c . || true)
	while read -r when t; do
		[ -n "$t" ] || continue
		key=${t##*/}
		if [ "$n" -gt "$keep" ]; then
			why="beyond the KEEP_TREES=$keep most recently used such trees"
		elif [ "$(free_mb)" -lt "$need" ]; then
			why="disk short ($(free_mb) MB free, $need MB needed)"
		else
			break
		fi
		n=$((n - 1))
		(
			exec 3> "$t.use" 4> "$t.lock"
			flock -n -x 3 && flock -n -x 4 || exit 0
			msg "$outname: removing src/$key, which no flavor or user kernel here builds from: $why ($(du -sm "$t" | cut -f1) MB, last used $(date -d "@$when" '+%F %T'))"
			rm -rf "$t"
			rm -f "$t.use" "$t.lock"
		)
	done <<< "$trees"
	[ "$(free_mb)" -ge "$need" ] ||
		die "disk full: $(free_mb) MB free in $kroot, a kernel build needs about $need MB (each source tree left is one a flavor or user kernel here builds from, or in use by a running build)"
}

# The source tree, unpacked and patched once per tarball and series, shared
# by every flavor (and architecture) built from it.
# A user's tree is its own source: keyed on its path only, so its objects
# are kept (and rebuilt incrementally) as it changes.
if [ -n "$tree" ]; then
	src=$tree
	src_key=tree-$(echo "$tree" | sha256sum | cut -c1-16)
	exec 8> "$kroot/.$outname.src.lock"
else
	src_key=$(
		{ stat -c '%n %s %Y' "$KSRC_TARBALL"; [ -z "$patch_hashes" ] || echo "$patch_hashes"; } |
			sha256sum | cut -c1-16
	)
	src=$BUILD_DIR/kernel/src/$src_key
	mkdir -p "$BUILD_DIR/kernel/src"
	exec 8> "$src.lock"
	# In use until this build ends (a shared lock, whose open also
	# marks when the tree was last used): free_disk leaves it alone.
	exec 6> "$src.use"
	flock -s 6
fi
prune_user_kernels
free_disk
flock 8
if [ -z "$tree" ] && [ ! -e "$src/.wgt-complete" ]; then
	msg "$outname: unpacking $(basename "$KSRC_TARBALL")"
	rm -rf "$src"
	mkdir -p "$src"
	tar -xf "$KSRC_TARBALL" -C "$src" --strip-components=1
	if [ -n "$patch_list" ]; then
		msg "$outname: applying $(echo $patch_list | wc -w) patches from ${patches:-no series}${fixes:+ and $fixes}${user:+, then $user}"
		# No automatic gc: it would repack the whole tree in the
		# background, on the build's CPUs, holding the build's lock.
		g() {
			git -C "$src" -c gc.auto=0 -c maintenance.auto=false \
				-c user.name=harness -c user.email=harness@localhost "$@"
		}
		g init -q
		# Debian's tree ignores its own top level (.gitignore: '/*').
		g add -A -f .
		g commit -qm "linux-source-6.1 (pristine)"
		for p in $patch_list; do
			if ! g am -q "$p" \
				> "$out/am.log" 2>&1; then
				cat "$out/am.log" >&2
				rm -rf "$src"
				where=$(sed -n 's/^error: patch failed: \(.*\)$/\1/p; s/^error: \([^ ]*\): does not exist in index$/\1 (no such file)/p' "$out/am.log" | sed -n 1p)
				die "patch $p does not apply to linux-source-6.1${where:+ (at $where)}"
			fi
		done
	fi
	touch "$src/.wgt-complete"
fi
# Shared from here on: other flavors may read it while we build.
flock -u 8

# changed_files TREE: the files TREE's patch series touched (none for a
# pristine tree, which has no git).
changed_files() {
	[ -d "$1/.git" ] || return 0
	git -C "$1" diff --name-only "$(git -C "$1" rev-list --max-parents=0 HEAD)" HEAD
}

# seed_from DIR NAME [move]: start from the objects of DIR (an earlier build
# of the same architecture, NAME in messages), copied, or moved when DIR is
# this flavor's own set-aside build that nothing else reads.  kbuild's command and dependency
# files name DIR's object folder and source tree: they are pointed at ours,
# keeping every timestamp.  When DIR was built from another tree (another
# series), each file either series touched gets DIR's tree's timestamp
# where its content is the same and a new one where it differs, so kbuild
# recompiles what the difference touches and nothing else.
seed_from() {
	local from=$1 from_src f old_obj old_src new_obj new_src
	from_src=$BUILD_DIR/kernel/src/$(cat "$from/src-key")
	# Read below: kept from free_disk in another build meanwhile.
	exec 4> "$from_src.use"
	flock -s 4
	# kbuild writes real paths (no symlinks) into its files.
	old_obj=$(realpath "$from/obj") old_src=$(realpath "$from_src")
	msg "$outname: starting from $2's objects"
	# obj.tmp is new here (removed below, under the flavor's lock): cp -a
	# and mv into a folder left by an interrupted run would nest the copy
	# inside it and keep its stale files.
	[ ! -e "$obj.tmp" ] || die "$obj.tmp is left over (removed before seeding, yet still there)"
	if [ "${3:-}" = move ]; then
		mv -T "$from/obj" "$obj.tmp"
	else
		exec 7> "$(dirname "$from")/.$(basename "$from").lock"
		flock 7
		cp -a -T "$from/obj" "$obj.tmp"
		flock -u 7
	fi
	new_obj=$(realpath -m "$obj") new_src=$(realpath "$src")
	{ grep -rlF --exclude='*.o' --binary-files=without-match \
		-e "$old_obj" -e "$old_src" "$obj.tmp" || true; } |
		while read -r f; do
			sed -i.wgt-orig -e "s|$old_obj|$new_obj|g" -e "s|$old_src|$new_src|g" "$f" &&
				touch -r "$f.wgt-orig" "$f" && rm "$f.wgt-orig"
		done
	if [ "$from_src" != "$src" ]; then
		flock 8
		{ changed_files "$from_src"; changed_files "$src"; } | sort -u |
			while read -r f; do
				if [ -e "$from_src/$f" ] && [ -e "$src/$f" ] && cmp -s "$from_src/$f" "$src/$f"; then
					touch -r "$from_src/$f" "$src/$f"
				elif [ -e "$src/$f" ]; then
					touch "$src/$f"
				fi
			done
		flock -u 8
	fi
	# -T: obj is gone (removed before seeding); never move into it.
	mv -T "$obj.tmp" "$obj"
}
# seedable DIR: DIR has objects, and the tree they were built from is here.
seedable() {
	[ -d "$1/obj" ] && [ -r "$1/src-key" ] &&
		[ -e "$BUILD_DIR/kernel/src/$(cat "$1/src-key")/.wgt-complete" ]
}

# The objects: this flavor's own from an earlier build of the same tree;
# else its own from its last build of another tree (a changed series: only
# what the changed patches touch is recompiled); else a copy of the seed
# flavor's (same tree, same architecture), so the build recompiles only
# what the config difference touches; else the same flavor's on the other
# tree (stock's for zinc, zinc's for stock: what the series touches, and
# the few options only one of them sets); else, for a kernel in a root of
# its own (a user's series), the flavor's default build, so only what the
# user's patches touch is recompiled.
obj=$out/obj
# A seeding cut short (Ctrl-C, a kill, a full disk) leaves obj.tmp, a copy
# of another build's objects: never reused, since the flavor's lock (fd 9)
# says no other build of it is running.
rm -rf "$obj.tmp"
if [ "$(cat "$out/src-key" 2>/dev/null)" != "$src_key" ]; then
	# This flavor's objects from its last build, of another series (a
	# changed patch): set aside, to start from when nothing closer is.
	prev=$out/prev
	rm -rf "$prev"
	if [ -z "$tree" ] && seedable "$out"; then
		mkdir "$prev" && mv "$obj" "$prev/obj" && cp "$out/src-key" "$prev/src-key"
	fi
	rm -rf "$obj" "$out/src-key"
	sfx=${outname#"$flavor"}
	if [ -d "$prev/obj" ]; then
		seed_from "$prev" "its last build (another series)" move
	elif [ -n "$seed" ] && [ "$(cat "$kroot/$seed$sfx/src-key" 2>/dev/null)" = "$src_key" ] &&
		seedable "$kroot/$seed$sfx"; then
		seed_from "$kroot/$seed$sfx" "$seed"
	elif [ -z "$tree" ] && seedable "$kroot/$xseed$sfx"; then
		seed_from "$kroot/$xseed$sfx" "$xseed (the other tree)"
	elif [ -z "$tree" ] && [ "$kroot" != "$BUILD_DIR/kernel" ] && seedable "$BUILD_DIR/kernel/$outname"; then
		# (Never for a user's tree: seeding would set its files'
		# timestamps, and the user's tree is not ours to touch.)
		seed_from "$BUILD_DIR/kernel/$outname" "the $outname flavor's own build"
	fi
	rm -rf "$prev"
	echo "$src_key" > "$out/src-key"
fi
mkdir -p "$obj"

msg "$outname: configuring (tinyconfig + $fragments)"
rm -f "$obj/.config"
kmake -s tinyconfig > "$out/config.log" 2>&1 || { cat "$out/config.log" >&2; die "tinyconfig failed"; }
(cd "$cfgdir" && "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" $fragments) \
	>> "$out/config.log" 2>&1 || { cat "$out/config.log" >&2; die "merge_config.sh failed"; }
kmake -s olddefconfig >> "$out/config.log" 2>&1 || { cat "$out/config.log" >&2; die "olddefconfig failed"; }

# merge_config.sh only warns when a symbol is dropped: assert every request,
# as the last fragment to name a symbol asked for it.
declare -A want=()
order=
for f in $fragments; do
	while read -r line; do
		case "$line" in
		CONFIG_*=*) sym=${line%%=*} ;;
		'# CONFIG_'*' is not set') sym=${line#\# }; sym=${sym%% *} ;;
		*) continue ;;
		esac
		[ -n "${want[$sym]+set}" ] || order="$order $sym"
		want[$sym]=$line
	done < "$(frag "$f")"
done
missing=
for sym in $order; do
	line=${want[$sym]}
	case "$line" in
	CONFIG_*)
		grep -qxF "$line" "$obj/.config" ||
			missing="$missing $sym(wanted ${line#*=}, got $(grep -E "^$sym=|^# $sym is not set" "$obj/.config" || echo unset))"
		;;
	*)
		! grep -q "^$sym=[ym]" "$obj/.config" || missing="$missing $sym(wanted n)"
		;;
	esac
done
[ -z "$missing" ] || die "$outname: config symbols did not survive the merge:$missing"

# Modules, when the config has any: built, installed with their modules.dep
# and packed as a cpio the guest's initramfs is extended with.  "modules"
# is built whenever the kernel takes modules, also with none: it writes
# Module.symvers and scripts/module.lds, which an external module (the
# crypto differential's) needs, in the image's own walk of the tree rather
# than in a walk of its own later (about a minute under TCG guests).
targets=$imgname
modular=0
if grep -q '^CONFIG_MODULES=y' "$obj/.config"; then
	targets="$targets modules"
	if grep -q '^CONFIG_[A-Z0-9_]*=m$' "$obj/.config"; then
		modular=1
		depmod=$(command -v depmod || echo /sbin/depmod)
		[ -x "$depmod" ] || die "depmod is missing: install kmod (make deps)"
	fi
fi

msg "$outname: building $targets with -j$JOBS (log: $out/build.log)"
start=$(date +%s)
if [ "${V:-0}" = 1 ]; then
	kmake -j"$JOBS" $targets 2>&1 | tee "$out/build.log"
else
	kmake -j"$JOBS" $targets > "$out/build.log" 2>&1 ||
		{ tail -40 "$out/build.log" >&2; die "$outname: kernel build failed (full log: $out/build.log)"; }
fi
rm -f "$out/modules.cpio.gz"
if [ $modular = 1 ]; then
	rm -rf "$out/modroot"
	kmake -s INSTALL_MOD_PATH="$out/modroot" INSTALL_MOD_STRIP=1 \
		DEPMOD="$depmod" modules_install \
		>> "$out/build.log" 2>&1 ||
		{ tail -20 "$out/build.log" >&2; die "$outname: modules_install failed"; }
	# Only what the guest needs: the modules and depmod's index.
	find "$out/modroot/lib/modules" \( -name build -o -name source \) -type l -delete
	(cd "$out/modroot" && find lib | sort | cpio -o -H newc -R 0:0 --quiet) |
		gzip -1 > "$out/modules.cpio.gz.new"
	mv "$out/modules.cpio.gz.new" "$out/modules.cpio.gz"
	msg "$outname: $(find "$out/modroot" -name '*.ko' | wc -l) modules packed in $out/modules.cpio.gz"
fi
cp "$obj/$image" "$out/$imgname.new"
mv "$out/$imgname.new" "$out/$imgname"
cp "$obj/.config" "$out/config"
# Kernel parameters a fragment needs at boot, its '# boot: WORDS' lines:
# guest-image/boot.sh reads them from beside the image.
for f in $fragments; do sed -n 's/^# boot: //p' "$(frag "$f")"; done |
	tr '\n' ' ' | sed 's/ *$//' > "$out/boot-params"
# The subjects of the patches in this kernel, a line each: a case that
# names the fix it needs ('# fixed-by:', netns-tests/run.sh) is a known
# failure on a kernel without it.
for p in $patch_list; do
	awk '/^Subject: / {
		s = substr($0, 10)
		while ((getline l) > 0 && l ~ /^[ \t]/) s = s l
		sub(/^\[[^]]*\] */, "", s)
		gsub(/[ \t]+/, " ", s)
		print s
		exit
	}' "$p"
done > "$out/patches"
# What was built, for the results (netns-tests/kcidb): the source and its
# Debian package, and each patch applied, "SHA256 PATH", in order.
if [ -n "$tree" ]; then
	{
		echo "tree=$tree"
		echo "describe=$tree_desc"
		git -C "$tree" rev-parse -q --verify HEAD 2> /dev/null | sed 's/^/commit=/' || true
		echo "release=$(cat "$obj/include/config/kernel.release" 2> /dev/null)"
		echo "src_key=$src_key"
	} > "$out/source"
else
	pkg=$(dpkg-query -S "$KSRC_TARBALL" 2> /dev/null | cut -d: -f1 || true)
	{
		echo "tarball=$KSRC_TARBALL"
		[ -z "$pkg" ] || echo "package=$pkg $(dpkg-query -W -f='${Version}' "$pkg")"
		echo "src_key=$src_key"
	} > "$out/source"
fi
{ [ -z "$patch_sums" ] || echo "$patch_sums"; } > "$out/series"
echo "$key" > "$out/key"
msg "$outname: built in $(( $(date +%s) - start )) s ($key)"
