#!/bin/bash
# make bench-native: cycles/byte of Zinc and the kernel's lib/crypto (both
# from the same tree, per implementation path), OpenSSL and libsodium on
# the host CPU, pinned to one core.
#
#   bench/native/bench.sh
#
# Prints the table; writes BUILD_DIR/results/native-bench-TIME/native.json,
# native.dat (GB/s by message size, ChaCha20Poly1305 encryption) and
# native.png (gnuplot).  Knobs (environment): BENCH_CPU (default the last
# CPU this process may use), BENCH_RUNS (9), BENCH_MS (20), BENCH_STAT
# (median, or min: the fastest run), BUILD_DIR, NATIVE_TREE (a patched
# tree to use instead of the one tree.sh makes from wg-patches/).  The other
# load on the machine shows in the figures: run it idle, or with many short
# runs and BENCH_STAT=min.
set -e -o pipefail
export LC_ALL=C

prog=bench/native/bench.sh
die() { echo "$prog: $*" >&2; exit 1; }

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
BUILD_DIR=${BUILD_DIR:-$top/build}
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR=$top/$BUILD_DIR ;; esac
[ "$(uname -m)" = x86_64 ] || die "the native build is x86_64 only"
command -v gcc > /dev/null || die "gcc not found: run 'make deps' as root"
for h in openssl/evp.h sodium.h; do
	echo "#include <$h>" | gcc -E -x c - > /dev/null 2>&1 ||
		die "<$h> not found: run 'make deps' as root (libssl-dev, libsodium-dev)"
done

work=$BUILD_DIR/native
out=$work/bench
res=$BUILD_DIR/results/native-bench-$(date +%Y%m%d-%H%M%S)
mkdir -p "$work" "$res"

tree=$("$here/tree.sh" "$work/linux")
echo "[bench-native] building Zinc and lib/crypto (gcc -O2)" >&2
"$here/build.sh" "$tree" "$out" bench >&2
gcc $(cat "$out/cflags") -o "$out/zinc-bench" "$here/bench/bench.c" \
	"$out/libzinc.a" -lcrypto -lsodium || die "linking the benchmark failed"

{
	echo "# $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
	"$out/zinc-bench" "$res/native.json" "$res/native.dat"
} | tee "$res/table.txt"

if command -v gnuplot > /dev/null; then
	gnuplot -e "dat='$res/native.dat'; png='$res/native.png'" "$here/bench/plot.gp" ||
		die "gnuplot failed"
	echo "# $res/native.json, $res/native.png"
else
	echo "# $res/native.json (no gnuplot: no PNG; make deps installs gnuplot-nox)"
fi
