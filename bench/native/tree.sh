#!/bin/bash
# Make the patched source tree the native build compiles from.
#
#   bench/native/tree.sh DIR
#
# Unpacks from Debian's linux-source-6.1 tarball only what the Zinc series
# touches and what the native build compiles (include/, lib/, MAINTAINERS,
# drivers/net/{Kconfig,wireguard}, arch/{x86,arm,arm64}/crypto), and applies
# wg-patches/series with 'git am', as kernel/build.sh does for the zinc
# flavor.  Keyed on the tarball, the patches and this script: an
# up-to-date DIR is left alone.  Prints the tree to build from: DIR, or,
# when NATIVE_TREE is set, that patched tree instead (checked, DIR
# untouched).  run-tests.sh, fuzz.sh and bench.sh all get their tree here.
# Knobs (environment): KSRC_TARBALL, SERIES (the Zinc series, as for
# kernel/build.sh; a user's PATCHES are not applied here), NATIVE_TREE.
set -e -o pipefail
export LC_ALL=C

prog=bench/native/tree.sh
die() { echo "$prog: $*" >&2; exit 1; }

top=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:-}
[ -n "$dir" ] || die "usage: $prog DIR"
if [ -n "${NATIVE_TREE:-}" ]; then
	[ -d "$NATIVE_TREE/lib/zinc" ] || die "NATIVE_TREE=$NATIVE_TREE has no lib/zinc"
	cd "$NATIVE_TREE" && pwd
	exit 0
fi
KSRC_TARBALL=${KSRC_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
patches=${SERIES:-$top/wg-patches}
[ -r "$KSRC_TARBALL" ] ||
	die "$KSRC_TARBALL not found: install Debian's linux-source-6.1 (make deps)"
[ -r "$patches/series" ] || die "no series file in $patches"
command -v git > /dev/null || die "git not found (make deps)"

patch_list=
while read -r p; do
	case "$p" in ''|'#'*) continue ;; esac
	[ -r "$patches/$p" ] || die "series names $p but $patches/$p is missing"
	patch_list="$patch_list $patches/$p"
done < "$patches/series"

key=$(
	{
		stat -c '%n %s %Y' "$KSRC_TARBALL"
		for p in $patch_list; do sha256sum < "$p"; done
		cat "$0"
	} | sha256sum | cut -c1-16
)
if [ "$(cat "$dir.key" 2>/dev/null)" = "$key" ] && [ -d "$dir/lib/zinc" ]; then
	echo "$dir"
	exit 0
fi

tmp=$dir.tmp
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
rm -rf "$tmp" "$dir" "$dir.key"
mkdir -p "$tmp"
echo "[native] unpacking the parts of $(basename "$KSRC_TARBALL") the Zinc series touches" >&2
# Debian names the top directory after the tarball.
top_dir=$(basename "$KSRC_TARBALL" .tar.xz)
tar -xf "$KSRC_TARBALL" -C "$tmp" --strip-components=1 \
	"$top_dir/MAINTAINERS" "$top_dir/include" "$top_dir/lib" \
	"$top_dir/drivers/net/Kconfig" "$top_dir/drivers/net/wireguard" \
	"$top_dir/arch/x86/crypto" "$top_dir/arch/arm/crypto" \
	"$top_dir/arch/arm64/crypto"
echo "[native] applying $(echo $patch_list | wc -w) patches from ${patches#$top/}/" >&2
git -C "$tmp" init -q
# Debian's tree ignores its own top level (.gitignore: '/*').
git -C "$tmp" add -A -f .
git -C "$tmp" -c user.name=harness -c user.email=harness@localhost \
	commit -qm "linux-source-6.1 (pristine, partial)"
for p in $patch_list; do
	git -C "$tmp" -c user.name=harness -c user.email=harness@localhost \
		am -q "$p" > "$tmp.log" 2>&1 || {
		cat "$tmp.log" >&2; rm -f "$tmp.log"
		die "patch $(basename "$p") does not apply to linux-source-6.1"
	}
done
rm -f "$tmp.log"
mv "$tmp" "$dir"
echo "$key" > "$dir.key"
echo "$dir"
