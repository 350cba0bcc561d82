#!/bin/bash
# make native-test: Zinc's self-tests on the host CPU, as one KTAP document.
#
#   bench/native/run-tests.sh
#
# Builds Zinc from the patched tree (bench/native/tree.sh) four ways and
# runs bench/native/test/zinc-native-test with each: plain (gcc), under
# AddressSanitizer + UndefinedBehaviorSanitizer (clang), under UBSan's
# alignment check alone (clang; each misaligned place a diagnostic, the x86
# Curve25519 code's a known failure), and the generic paths under valgrind
# memcheck.  Every CPU level the host has (avx512, avx2, avx, ssse3,
# generic) and every combination of each primitive's optional
# implementations is a case; AVX-512 where the CPU has it, SKIP where not.
# Exit status: 0 when every case passed (or skipped, or is a known
# failure), 1 otherwise.
#
# Knobs (environment): BUILD_DIR (default build); NATIVE_TREE, a patched
# tree to use instead of the one tree.sh makes from wg-patches/; NATIVE_BREAK,
# to show that the tests fail on a broken copy of lib/zinc (the rest of the
# tree by links):
#   1               one byte of ChaCha20 vector 1 flipped: every chacha20
#                   case must be 'not ok';
#   relax           chacha20_arch() decides once, before its loop, whether
#                   to use SIMD, instead of before each chunk: its vector
#                   code then runs after simd_relax() released the unit;
#   relax-poly1305  the same defect in poly1305_arch();
#   align           chacha20poly1305_xor_bytes() XORs u32 words through
#                   pointer casts, misaligned in the scatterlist sweep:
#                   the alignment run must name it.
set -e -o pipefail
export LC_ALL=C

prog=bench/native/run-tests.sh
die() { echo "$prog: $*" >&2; exit 1; }

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
BUILD_DIR=${BUILD_DIR:-$top/build}
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR=$top/$BUILD_DIR ;; esac
[ "$(uname -m)" = x86_64 ] || die "the native build is x86_64 only (this is $(uname -m))"
for t in gcc clang valgrind perl git; do
	command -v $t > /dev/null || die "$t not found: run 'make deps' as root"
done

work=$BUILD_DIR/native
results=$BUILD_DIR/results/native-test
mkdir -p "$work" "$results"
tmp=$(mktemp -d "$work/run.XXXXXX")
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

src=$("$here/tree.sh" "$work/linux")
tree=$src

# break_copy: a copy of lib/zinc in $tmp/broken, the rest of the tree by links.
break_copy() {
	tree=$tmp/broken
	mkdir -p "$tree/lib"
	cp -r "$src/lib/zinc" "$tree/lib/zinc"
	for d in include arch lib/crypto; do ln -s "$src/$d" "$tree/$d"; done
}

# break_relax FILE FUNCTION: in FUNCTION's loop, the 'const bool simd = ...;'
# decided per chunk (of 'todo' bytes) is moved before the loop (deciding on
# all 'len' bytes), so that after a simd_relax() that released the unit the
# vector code runs on without a new simd_use().
break_relax() {
	local file=$tree/lib/zinc/$1
	FUNC=$2 perl -0pi -e '
		s{(\n[^\n]*\b$ENV{FUNC}\(.*?\n\{\n.*?)(\twhile \(len\) \{\n)(.*?)\t\tconst bool simd = (.*?);\n}{
			my ($head, $loop, $body, $cond) = ($1, $2, $3, $4);
			$cond =~ s/\btodo\b/len/g;
			$cond =~ s/\n\t\t/\n\t/g;
			"$head\tconst bool simd = $cond;\n\n$loop$body"
		}se or die "pattern not found\n"' "$file" ||
		die "NATIVE_BREAK: no per-chunk SIMD decision found in $2() of lib/zinc/$1"
	echo "[native] NATIVE_BREAK=$NATIVE_BREAK: $2() decides SIMD once, before its loop (lib/zinc/$1 in a copy):" >&2
	diff -u "$src/lib/zinc/$1" "$file" | sed 's/^/[native]   /' >&2 || true
}

case "${NATIVE_BREAK:-0}" in
0) ;;
1)
	break_copy
	sed -i '/chacha20_output001\[\]/{n;s/0x76/0x77/}' \
		"$tree/lib/zinc/selftest/chacha20-vectors.h"
	grep -A1 'chacha20_output001\[\]' "$tree/lib/zinc/selftest/chacha20-vectors.h" |
		grep -q 0x77 || die "NATIVE_BREAK: the vector to corrupt was not found"
	echo "[native] NATIVE_BREAK=1: chacha20 vector 1 corrupted in a copy of lib/zinc" >&2
	;;
relax)
	break_copy
	break_relax chacha20/chacha20.c chacha20_arch
	;;
relax-poly1305)
	break_copy
	break_relax poly1305/poly1305.c poly1305_arch
	;;
align)
	break_copy
	perl -0pi -e 's{(chacha20poly1305_xor_bytes\(u8 \*dst, const u8 \*src, size_t len\)\n\{\n)}{$1\tfor (; len >= 4; len -= 4, dst += 4, src += 4)\n\t\t*(u32 *)dst ^= *(const u32 *)src;\n}s or die "pattern not found\n"' \
		"$tree/lib/zinc/chacha20poly1305.c" ||
		die "NATIVE_BREAK: chacha20poly1305_xor_bytes() not found in lib/zinc/chacha20poly1305.c"
	echo "[native] NATIVE_BREAK=align: chacha20poly1305_xor_bytes() XORs u32 words through pointer casts (a copy of lib/zinc)" >&2
	;;
*)
	die "NATIVE_BREAK=$NATIVE_BREAK: unknown (1, relax, relax-poly1305, align)" ;;
esac

# The entry points test/calls.c checks, through the linker's --wrap.
wraps=$(sed -n 's/^\tX([A-Z0-9_]*, \([a-z0-9_]*\),.*/\1/p' "$here/test/calls.c")
[ -n "$wraps" ] || die "no entry points found in test/calls.c"
wrap_flags=$(for w in $wraps; do printf -- '-Wl,--wrap=%s ' "$w"; done)

# build VARIANT CC: libzinc.a and the test driver in $work/VARIANT.
build() {
	local out=$work/$1
	echo "[native] building $1 ($2)" >&2
	"$here/build.sh" "$tree" "$out" "$1" >&2
	$2 $(cat "$out/cflags") $wrap_flags -o "$out/zinc-native-test" \
		"$here/test/zinc-native-test.c" "$here/test/calls.c" \
		"$out/libzinc.a" >&2 ||
		die "linking the $1 test driver failed"
	echo "$out/zinc-native-test"
}
plain=$(build test gcc)
asan=$(build asan clang)
align=$(build align clang)

# align_verdict ERR: the alignment run's UBSan reports in ERR, one line per
# place ("FILE:LINE: load of misaligned address for type 'T'"), as two
# cases.  The x86_64 Curve25519 code loads u64s from wherever its caller's
# bytes are: x86 allows that, and 6.1 offers UBSAN_ALIGNMENT only where it
# does not (HAVE_EFFICIENT_UNALIGNED_ACCESS), so its places are a known
# failure; any other place fails.
align_verdict() {
	local places=$tmp/align-places curve=arch/x86/crypto/curve25519-x86_64.c
	sed -n 's/^\(.*\.[ch]:[0-9]*\):[0-9]*: runtime error: \(.* misaligned address\) 0x[0-9a-f]* \(for type [^,]*\),.*/\1: \2 \3/p' "$1" |
		sed "s#^$tree/##; s#^$src/##; s#^$top/##" | sort -u > "$places"
	if grep -qv "^$curve:" "$places"; then
		echo "not ok native-align: no misaligned access in Zinc, lib/crypto or the glue"
		grep -v "^$curve:" "$places" | sed 's/^/#   /'
	else
		echo "ok native-align: no misaligned access in Zinc, lib/crypto or the glue"
	fi
	if grep -q "^$curve:" "$places"; then
		echo "not ok native-align: $curve loads u64s at any alignment # TODO known: x86 allows it and 6.1 has no UBSAN_ALIGNMENT there"
		grep "^$curve:" "$places" | sed 's/^/#   /'
	else
		echo "ok native-align: $curve loads u64s at any alignment # SKIP none seen in this run"
	fi
}

# run NAME COMMAND...: its result lines, then one for its exit status.
run() {
	local name=$1 rc=0; shift
	echo "[native] running $name" >&2
	# A hang is a failure too (valgrind needs about 10 s here).
	timeout 600 "$@" > "$tmp/$name.out" 2> "$tmp/$name.err" || rc=$?
	cat "$tmp/$name.out"
	if [ $rc = 0 ]; then
		echo "ok $name: run: clean exit"
	else
		echo "not ok $name: run: clean exit"
		echo "#   exit status $rc"
		sed 's/^/#   /' "$tmp/$name.err" | tail -40
	fi
}
{
	run native "$plain" --prefix native
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		run native-asan "$asan" --prefix native-asan
	UBSAN_OPTIONS=print_stacktrace=0:halt_on_error=0 \
		run native-align "$align" --prefix native-align
	align_verdict "$tmp/native-align.err"
	# valgrind does not know AVX-512 (nor ADX): the generic paths only.
	run native-valgrind valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite "$plain" \
		--prefix native-valgrind --generic-only
} > "$tmp/lines"

# Number the cases into one KTAP document.
awk '
	/^(not )?ok / { n++; sub(/^ok /, "ok " n " "); sub(/^not ok /, "not ok " n " ");
			if ($0 ~ /# SKIP/) skip++; else if ($0 ~ /# TODO/) todo++
			else if ($0 ~ /^not ok/) fail++; else pass++ }
	{ lines[++l] = $0 }
	END {
		print "KTAP version 1"; print "1.." n
		for (i = 1; i <= l; i++) print lines[i]
		printf "# native-test: %d passed, %d failed, %d skipped", pass, fail, skip
		printf "%s\n", todo ? sprintf(", %d known failure%s (TODO)", todo, todo > 1 ? "s" : "") : ""
		exit fail || !n
	}' "$tmp/lines" | tee "$results/ktap.txt"
