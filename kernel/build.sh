#!/bin/bash
# Build one kernel flavor from Debian's linux-source-6.1.
#
#   kernel/build.sh FLAVOR        (stock, zinc, zinc-debug)
#
# The result is $BUILD_DIR/kernel/FLAVOR/bzImage (x86_64), or for another
# ARCH $BUILD_DIR/kernel/FLAVOR-ARCH/Image (arm64) or .../zImage (arm).  The
# build is keyed on the content of everything that goes into it (source
# tarball, patch series, config fragments, this script); when the key is
# unchanged nothing is rebuilt.
#
# Knobs (environment): ARCH (x86_64, arm64 or arm; default x86_64),
# CROSS_COMPILE (default aarch64-linux-gnu- for arm64, arm-linux-gnueabihf-
# for arm), BUILD_DIR (default build), JOBS (default nproc), PATCHES (patch
# directory with a 'series' file, default wg-patches for the zinc flavors),
# KSRC_TARBALL, V=1 for the full build log.
set -e -o pipefail
export LC_ALL=C

prog=kernel/build.sh
die() { echo "$prog: $*" >&2; exit 1; }
msg() { echo "[kernel] $*"; }

top=$(cd "$(dirname "$0")/.." && pwd)
flavor=${1:-}
# The flavors below, for the Makefile and netns-tests/run.sh to check a
# FLAVOR or a suite's flavors against before anything is built.
[ "$flavor" != --flavors ] || { echo "stock zinc zinc-debug"; exit 0; }
[ -n "$flavor" ] || die "usage: $prog FLAVOR (stock, zinc, zinc-debug)"

BUILD_DIR=${BUILD_DIR:-$top/build}
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR=$top/$BUILD_DIR ;; esac
JOBS=${JOBS:-$(nproc)}
KSRC_TARBALL=${KSRC_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
cfgdir=$top/kernel/config
arch=${ARCH:-x86_64}

# Per architecture: the kernel's ARCH, the image, where the build goes, the
# common fragments and the zinc flavor's fragment.  x86_64 keeps its
# historical paths (kernel/FLAVOR); on ARM only what the Zinc selftests
# need (no networking, WireGuard or tracing).
case "$arch" in
x86_64)
	karch=x86_64 image=arch/x86/boot/bzImage cross=
	outname=$flavor
	fragments="base.config health.config virtio.config net.config wireguard.config trace.config"
	zinc_frag=zinc.config ;;
arm64)
	karch=arm64 image=arch/arm64/boot/Image
	cross=${CROSS_COMPILE:-aarch64-linux-gnu-}
	outname=$flavor-$arch
	fragments="base-arm.config health.config arm64.config virtio.config"
	zinc_frag=zinc-arm64.config ;;
arm)
	karch=arm image=arch/arm/boot/zImage
	cross=${CROSS_COMPILE:-arm-linux-gnueabihf-}
	outname=$flavor-$arch
	fragments="base-arm.config health.config arm.config virtio.config"
	zinc_frag=zinc-arm.config ;;
*)
	die "unknown ARCH '$arch' (x86_64, arm64, arm)" ;;
esac
imgname=${image##*/}
if [ -n "$cross" ]; then
	command -v "${cross}gcc" > /dev/null ||
		die "${cross}gcc not found: install the cross compiler (make deps ARCH=$arch)"
fi

# Fragments, in merge order, and the patch series for each flavor.
patches=
case "$flavor" in
stock)
	fragments="$fragments stock.config" ;;
zinc)
	fragments="$fragments $zinc_frag"
	patches=${PATCHES:-$top/wg-patches} ;;
zinc-debug)
	fragments="$fragments $zinc_frag debug.config"
	patches=${PATCHES:-$top/wg-patches} ;;
*)
	die "unknown flavor '$flavor' (stock, zinc, zinc-debug)" ;;
esac
# A user may build 'stock' from their own series too (bench: BASE_PATCHES).
[ "$flavor" = stock ] && [ -n "${PATCHES:-}" ] && patches=$PATCHES

[ -r "$KSRC_TARBALL" ] ||
	die "$KSRC_TARBALL not found: install Debian's linux-source-6.1 (make deps)"
for f in $fragments; do
	[ -r "$cfgdir/$f" ] || die "missing config fragment kernel/config/$f"
done

patch_list=
if [ -n "$patches" ]; then
	case "$patches" in /*) ;; *) patches=$top/$patches ;; esac
	[ -r "$patches/series" ] || die "no series file in $patches"
	while read -r p; do
		case "$p" in ''|'#'*) continue ;; esac
		[ -r "$patches/$p" ] || die "series names $p but $patches/$p is missing"
		patch_list="$patch_list $patches/$p"
	done < "$patches/series"
fi

# The content key: tarball identity, patches, fragments and this script.
key=$(
	{
		stat -c '%n %s %Y' "$KSRC_TARBALL"
		echo "$flavor"
		[ "$arch" = x86_64 ] || echo "$arch $cross"
		for p in $patch_list; do sha256sum < "$p"; done
		for f in $fragments; do echo "$f"; cat "$cfgdir/$f"; done
		cat "$0"
	} | sha256sum | cut -c1-16
)

out=$BUILD_DIR/kernel/$outname
# Two runs at once (one checkout, one BUILD_DIR) build a flavor once: the
# second waits for the first, then finds its result cached.
mkdir -p "$BUILD_DIR/kernel"
exec 9> "$BUILD_DIR/kernel/.$outname.lock"
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
src=$out/linux
stamp=$out/src-key
src_key=$(
	{ stat -c '%n %s %Y' "$KSRC_TARBALL"; for p in $patch_list; do sha256sum < "$p"; done; } |
		sha256sum | cut -c1-16
)
if [ "$(cat "$stamp" 2>/dev/null)" != "$src_key" ] || [ ! -d "$src" ]; then
	msg "$outname: unpacking $(basename "$KSRC_TARBALL")"
	rm -rf "$src" "$out/obj" "$stamp"
	mkdir -p "$src"
	tar -xf "$KSRC_TARBALL" -C "$src" --strip-components=1
	if [ -n "$patch_list" ]; then
		msg "$outname: applying $(echo $patch_list | wc -w) patches from $patches"
		git -C "$src" init -q
		# Debian's tree ignores its own top level (.gitignore: '/*').
		git -C "$src" add -A -f .
		git -C "$src" -c user.name=harness -c user.email=harness@localhost \
			commit -qm "linux-source-6.1 (pristine)"
		for p in $patch_list; do
			if ! git -C "$src" -c user.name=harness \
				-c user.email=harness@localhost am -q "$p" \
				> "$out/am.log" 2>&1; then
				cat "$out/am.log" >&2
				git -C "$src" am --abort > /dev/null 2>&1 || true
				die "patch $(basename "$p") does not apply to linux-source-6.1"
			fi
		done
	fi
	echo "$src_key" > "$stamp"
fi

obj=$out/obj
mkdir -p "$obj"
kmake() {
	local cc=${cross}gcc hostcc=gcc
	command -v ccache > /dev/null && cc="ccache $cc" hostcc="ccache gcc"
	make -C "$src" O="$obj" ARCH="$karch" CROSS_COMPILE="$cross" \
		CC="$cc" HOSTCC="$hostcc" "$@"
}

msg "$outname: configuring (tinyconfig + $fragments)"
rm -f "$obj/.config"
kmake -s tinyconfig > "$out/config.log" 2>&1 || { cat "$out/config.log" >&2; die "tinyconfig failed"; }
(cd "$cfgdir" && "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" $fragments) \
	>> "$out/config.log" 2>&1 || { cat "$out/config.log" >&2; die "merge_config.sh failed"; }
kmake -s olddefconfig >> "$out/config.log" 2>&1 || { cat "$out/config.log" >&2; die "olddefconfig failed"; }

# merge_config.sh only warns when a symbol is dropped: assert every request.
missing=
for f in $fragments; do
	while read -r line; do
		case "$line" in
		CONFIG_*=*)
			sym=${line%%=*}
			grep -qxF "$line" "$obj/.config" ||
				missing="$missing $sym(wanted ${line#*=}, got $(grep -E "^$sym=|^# $sym is not set" "$obj/.config" || echo unset))"
			;;
		'# CONFIG_'*' is not set')
			sym=${line#\# }; sym=${sym%% *}
			grep -q "^$sym=[ym]" "$obj/.config" && missing="$missing $sym(wanted n)"
			;;
		esac
	done < "$cfgdir/$f"
done
[ -z "$missing" ] || die "$outname: config symbols did not survive the merge:$missing"

msg "$outname: building $imgname with -j$JOBS (log: $out/build.log)"
start=$(date +%s)
if [ "${V:-0}" = 1 ]; then
	kmake -j"$JOBS" "$imgname" 2>&1 | tee "$out/build.log"
else
	kmake -j"$JOBS" "$imgname" > "$out/build.log" 2>&1 ||
		{ tail -40 "$out/build.log" >&2; die "$outname: kernel build failed (full log: $out/build.log)"; }
fi
cp "$obj/$image" "$out/$imgname.new"
mv "$out/$imgname.new" "$out/$imgname"
cp "$obj/.config" "$out/config"
echo "$key" > "$out/key"
msg "$outname: built in $(( $(date +%s) - start )) s ($key)"
