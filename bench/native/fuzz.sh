#!/bin/bash
# make fuzz: differential fuzzing of Zinc (built from the patched tree)
# against OpenSSL and libsodium, with libFuzzer, ASan and UBSan.
#
#   bench/native/fuzz.sh [TARGET...]
#
# Targets (bench/native/fuzz/*.c): aead, aead_sg, poly1305, blake2s,
# x25519; default all, one after the other.  Each starts from its committed
# seed corpus (bench/native/fuzz/corpus/TARGET, copied; new inputs go to
# BUILD_DIR/native/fuzz-corpus/TARGET) and runs FUZZ_SECONDS.  A difference
# or a sanitizer report stops the target, leaves the reproducer in
# BUILD_DIR/results/fuzz/ and fails the run; rerun one with
# BUILD_DIR/native/fuzz/TARGET REPRODUCER.
#
# Knobs (environment): FUZZ_SECONDS (default 60, per target), FUZZ_TARGETS,
# BUILD_DIR, FUZZ_NICE (default 10), NATIVE_TREE (a patched tree to use
# instead of the one tree.sh makes from wg-patches/).
set -e -o pipefail
export LC_ALL=C

prog=bench/native/fuzz.sh
die() { echo "$prog: $*" >&2; exit 1; }

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
BUILD_DIR=${BUILD_DIR:-$top/build}
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR=$top/$BUILD_DIR ;; esac
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_NICE=${FUZZ_NICE:-10}
all="aead aead_sg poly1305 blake2s x25519"
targets=${*:-${FUZZ_TARGETS:-$all}}
case "$FUZZ_SECONDS" in ''|*[!0-9]*|0) die "FUZZ_SECONDS must be a positive number of seconds" ;; esac
for t in $targets; do
	case " $all " in *" $t "*) ;; *) die "unknown target '$t' ($all)" ;; esac
done
[ "$(uname -m)" = x86_64 ] || die "the native build is x86_64 only"
command -v clang > /dev/null || die "clang not found: run 'make deps' as root"
for h in openssl/evp.h sodium.h; do
	echo "#include <$h>" | clang -E -x c - > /dev/null 2>&1 ||
		die "<$h> not found: run 'make deps' as root (libssl-dev, libsodium-dev)"
done

work=$BUILD_DIR/native
out=$work/fuzz
results=$BUILD_DIR/results/fuzz
mkdir -p "$work" "$results"
tmp=$(mktemp -d "$work/fuzz-run.XXXXXX")
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT

tree=$("$here/tree.sh" "$work/linux")
echo "[fuzz] building Zinc with libFuzzer, ASan and UBSan" >&2
"$here/build.sh" "$tree" "$out" fuzz >&2
for t in $targets; do
	clang $(cat "$out/cflags") -fsanitize=fuzzer -o "$out/$t" \
		"$here/fuzz/$t.c" "$out/libzinc.a" -lcrypto -lsodium ||
		die "building fuzz target $t failed"
done

n=0 failed=0
echo "KTAP version 1"
echo "1..$(echo $targets | wc -w)"
for t in $targets; do
	n=$((n + 1))
	corpus=$work/fuzz-corpus/$t
	mkdir -p "$corpus"
	echo "[fuzz] $t: ${FUZZ_SECONDS}s" >&2
	rc=0
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	nice -n "$FUZZ_NICE" "$out/$t" -max_total_time="$FUZZ_SECONDS" \
		-max_len=4096 -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$results/$t-" \
		"$corpus" "$here/fuzz/corpus/$t" > "$tmp/$t.log" 2>&1 || rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/$t.log" | tail -1)
	secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$tmp/$t.log" | tail -1)
	cp "$tmp/$t.log" "$results/$t.log"
	if [ $rc = 0 ] && [ -n "$execs" ] && [ "$execs" -gt 0 ]; then
		echo "ok $n fuzz: $t"
		echo "# $t: ${execs} executions in ${secs:-$FUZZ_SECONDS} s, no difference"
	else
		failed=$((failed + 1))
		echo "not ok $n fuzz: $t"
		echo "#   exit status $rc after ${execs:-?} executions"
		grep -E 'DIFFERENCE|ERROR|SUMMARY|runtime error|Test unit written' \
			"$tmp/$t.log" | sed -n '1,20s/^/#   /p'
		echo "#   log: $results/$t.log"
	fi
done
echo "# fuzz: $((n - failed)) passed, $failed failed"
[ $failed = 0 ]
