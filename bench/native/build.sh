#!/bin/bash
# Compile Zinc from the patched tree for userspace, unchanged.
#
#   bench/native/build.sh TREE OUT VARIANT
#
# VARIANT: test (gcc, selftests and ZINC_DEBUG on), asan (clang with
# AddressSanitizer and UndefinedBehaviorSanitizer), fuzz (clang, libFuzzer
# instrumentation plus ASan/UBSan), bench (gcc -O2, no selftests).  Writes
# OUT/libzinc.a, the objects of the Zinc units, the kernel's x86_64 assembly
# they call, the generated CRYPTOGAMS Poly1305 (perl, as the kernel's
# Makefile makes it), the kernel's x86_64 Curve25519 and its lib/crypto
# generic fallback, and the compatibility runtime; and OUT/cflags, the flags
# a program that links it must compile with.  The bench variant also writes
# OUT/liblibcrypto.a, lib/crypto's ChaCha20Poly1305 and BLAKE2s with their
# x86_64 glue.
set -e -o pipefail
export LC_ALL=C

prog=bench/native/build.sh
die() { echo "$prog: $*" >&2; exit 1; }

here=$(cd "$(dirname "$0")" && pwd)
tree=${1:-}
out=${2:-}
variant=${3:-}
[ -n "$tree" ] && [ -n "$out" ] && [ -n "$variant" ] ||
	die "usage: $prog TREE OUT test|asan|fuzz|bench"
[ -d "$tree/lib/zinc" ] || die "$tree has no lib/zinc: not a patched tree (bench/native/tree.sh)"
command -v perl > /dev/null || die "perl not found (make deps)"

# UBSan without the alignment check, as the kernel's UBSAN_ALIGNMENT (off on
# x86, which has efficient unaligned access): curve25519-x86_64.c loads the
# scalar and the point as u64 from wherever the caller's bytes are.
ubsan="-fsanitize=undefined -fno-sanitize=alignment"
common="-std=gnu11 -O2 -g -fno-strict-aliasing -fno-common -Wall -Wextra \
	-Wno-unused-parameter -Wno-sign-compare -Wno-missing-field-initializers"
case "$variant" in
test)
	CC=${CC:-gcc}
	cflags="$common -DCONFIG_ZINC_SELFTEST=1 -DCONFIG_ZINC_DEBUG=1 -DDEBUG" ;;
asan)
	CC=clang
	cflags="$common -DCONFIG_ZINC_SELFTEST=1 -DCONFIG_ZINC_DEBUG=1 -DDEBUG \
		-fsanitize=address $ubsan -fno-sanitize-recover=all \
		-fno-omit-frame-pointer" ;;
fuzz)
	CC=clang
	cflags="$common -DCONFIG_ZINC_DEBUG=1 \
		-fsanitize=fuzzer-no-link,address $ubsan \
		-fno-sanitize-recover=all -fno-omit-frame-pointer" ;;
bench)
	CC=${CC:-gcc}
	cflags="$common" ;;
*)
	die "unknown variant '$variant' (test, asan, fuzz, bench)" ;;
esac
command -v "$CC" > /dev/null || die "$CC not found (make deps)"

rm -rf "$out"
mkdir -p "$out/inc/linux" "$out/inc/crypto" "$out/obj"
# The tree's own headers that compile as they are in userspace; everything
# else they include comes from compat/include.
ln -s "$tree/include/zinc" "$out/inc/zinc"
ln -s "$tree/include/linux/simd.h" "$out/inc/linux/simd.h"
ln -s "$tree/include/crypto/curve25519.h" "$out/inc/crypto/curve25519.h"
incs="-I$out/inc -I$here/compat/include -include native-config.h"
echo "$cflags $incs" > "$out/cflags"
echo "$CC" > "$out/cc"

# As arch/x86/crypto/Makefile: poly1305-x86_64-cryptogams.S from the .pl.
perl "$tree/arch/x86/crypto/poly1305-x86_64-cryptogams.pl" \
	> "$out/poly1305-x86_64-cryptogams.S" ||
	die "perl $tree/arch/x86/crypto/poly1305-x86_64-cryptogams.pl failed"

# UNIT:SOURCE; the unit names the module_init entry zn_init_UNIT().
zinc_units="chacha20:lib/zinc/chacha20/chacha20.c
poly1305:lib/zinc/poly1305/poly1305.c
chacha20poly1305:lib/zinc/chacha20poly1305.c
blake2s:lib/zinc/blake2s/blake2s.c
curve25519:lib/zinc/curve25519/curve25519.c"
kernel_units="curve25519_x86:arch/x86/crypto/curve25519-x86_64.c
curve25519_hacl64:lib/crypto/curve25519-hacl64.c
curve25519_generic:lib/crypto/curve25519-generic.c"
asm="$tree/arch/x86/crypto/chacha-ssse3-x86_64.S
$tree/arch/x86/crypto/chacha-avx2-x86_64.S
$tree/arch/x86/crypto/chacha-avx512vl-x86_64.S
$tree/lib/zinc/blake2s/blake2s-x86_64.S
$out/poly1305-x86_64-cryptogams.S"

objs=
cc() {
	local obj=$1; shift
	$CC "$@" -c -o "$out/obj/$obj" || die "compiling $obj failed"
	objs="$objs $out/obj/$obj"
}
for u in $zinc_units; do
	# The flags of lib/zinc/Makefile.
	cc "${u%%:*}.o" $cflags $incs -DZINC_NATIVE_UNIT="${u%%:*}" \
		-D'pr_fmt(fmt)="zinc: " fmt' "$tree/${u#*:}"
done
for u in $kernel_units; do
	cc "${u%%:*}.o" $cflags $incs -DZINC_NATIVE_UNIT="${u%%:*}" "$tree/${u#*:}"
done
for s in $asm; do
	o=$(basename "$s" .S).o
	cc "$o" -D__ASSEMBLY__ $incs "$s"
done
cc zn_runtime.o $cflags $incs -DZINC_NATIVE_UNIT=runtime "$here/compat/zn_runtime.c"
rm -f "$out/libzinc.a"
ar rcs "$out/libzinc.a" $objs

# For the benchmark: lib/crypto's ChaCha20Poly1305 and BLAKE2s with their
# x86_64 glue (arch/x86/crypto/{chacha,poly1305,blake2s}_glue.c, whose crypto
# API registration is configured out), as CRYPTO_ARCH_HAVE_LIB_* builds them,
# in OUT/liblibcrypto.a; the assembly is the one in libzinc.a, plus
# blake2s-core.S.  Headers from the tree; module_init selftests configured
# out.
[ "$variant" = bench ] || exit 0
mkdir -p "$out/inc/crypto/internal"
for h in chacha.h poly1305.h blake2s.h chacha20poly1305.h internal/blake2s.h \
	internal/poly1305.h internal/chacha.h; do
	ln -s "$tree/include/crypto/$h" "$out/inc/crypto/$h"
done
libcrypto_units="lc_chacha20poly1305:lib/crypto/chacha20poly1305.c
lc_chacha:lib/crypto/chacha.c
lc_libchacha:lib/crypto/libchacha.c
lc_poly1305:lib/crypto/poly1305.c
lc_poly1305_donna64:lib/crypto/poly1305-donna64.c
lc_blake2s:lib/crypto/blake2s.c
lc_blake2s_generic:lib/crypto/blake2s-generic.c
lc_chacha_x86:arch/x86/crypto/chacha_glue.c
lc_poly1305_x86:arch/x86/crypto/poly1305_glue.c
lc_blake2s_x86:arch/x86/crypto/blake2s-glue.c"
objs=
for u in $libcrypto_units; do
	cc "${u%%:*}.o" $cflags $incs -DZINC_NATIVE_UNIT="${u%%:*}" \
		-DCONFIG_CRYPTO_MANAGER_DISABLE_TESTS=1 \
		-DCONFIG_CRYPTO_ARCH_HAVE_LIB_CHACHA=1 \
		-DCONFIG_CRYPTO_ARCH_HAVE_LIB_POLY1305=1 \
		-DCONFIG_CRYPTO_ARCH_HAVE_LIB_BLAKE2S=1 \
		-DCONFIG_CRYPTO_LIB_POLY1305_RSIZE=11 "$tree/${u#*:}"
done
cc blake2s-core.o -D__ASSEMBLY__ $incs "$tree/arch/x86/crypto/blake2s-core.S"
rm -f "$out/liblibcrypto.a"
ar rcs "$out/liblibcrypto.a" $objs
