#!/bin/bash
# Throughput of a candidate kernel against a baseline kernel, A/B
# interleaved, and Zinc's in-kernel crypto microbenchmark.
#
#   bench/bench.sh            (make bench)
#
# For each repetition and each mode, one boot of each kernel, the order
# alternating (candidate first on odd repetitions, baseline first on even
# ones: A B B A A B ...), so slow drift of the host's load hits both alike.
# Each boot runs every test once:
#   netns      one guest (-smp 2), the tunnel between two namespaces
#   two-guest  two guests (-smp 1 each) on a QEMU socket link on 127.0.0.1
# and the netns boot also runs the microbenchmark when the kernel has it
# (CONFIG_ZINC_BENCH).  The results go to RESULTS_DIR/bench-TIME/:
# results.json, results.png, table.txt, the raw runs (*.tsv), each guest's
# output (*.out) and a folder per guest with its console.
#
# Knobs (environment; make passes its variables of the same names):
#   CAND, BASE              kernel flavors (default zinc-release, stock),
#                           built with kernel/build.sh (cached by content);
#                           zinc-release is zinc without CONFIG_ZINC_DEBUG,
#                           whose assertions cost instructions on every call
#                           of a primitive (bench/README.md)
#   CAND_PATCHES=DIR        build the candidate from this patch series (a
#   BASE_PATCHES=DIR        directory with a 'series' file, git am-able on
#                           linux-source-6.1) with the flavor's config, in
#                           BUILD_DIR/bench-kernels/ (the flavor's own
#                           kernel is left alone)
#   CAND_TREE=DIR           build the candidate from this kernel source tree
#   BASE_TREE=DIR           (out of tree, O= in BUILD_DIR/bench-kernels/,
#                           with the harness's config fragments; the zinc
#                           fragment too when the tree has lib/zinc)
#   CAND_KERNEL=BZIMAGE     use this image as it is
#   BASE_KERNEL=BZIMAGE
#   CAND_APPEND, BASE_APPEND  extra kernel command-line words for that side
#                           (e.g. CAND_APPEND=noxsave)
#   CAND_QEMU, BASE_QEMU    extra QEMU arguments for that side (e.g.
#                           "-cpu Westmere": a CPU model without AVX)
#   CAND_LABEL, BASE_LABEL  names in the table (default: derived)
#   BENCH_REPS (5)          repetitions; at least 5 for a verdict you trust
#   BENCH_SECS (3)          seconds per iperf3 test
#   BENCH_TESTS             tcp-1:tcp-4:udp-64:udp-512:udp-1392 (tcp-N: N
#                           TCP streams; udp-BYTES: UDP payload size)
#   BENCH_MODES             "netns two-guest"
#   BENCH_MICRO_MS (100)    microbenchmark milliseconds per measurement,
#                           0 for none
#   BENCH_COST (16/20)      the cost windows of each boot, MIB/HANDSHAKES
#                           (0: none): the guest's executed instructions,
#                           counted by a QEMU TCG plugin (bench/cost/), per
#                           byte of MIB MiB of UDP (fixed packet count) and
#                           of TCP, and per handshake; the verdict's metric
#                           (bench/README.md). TCG only.
#   BENCH_COST_TOL (0.01)   an instruction-count increase smaller than this
#                           is never a regression
#   BENCH_COST_ALPHA (0.05) one-sided level of the verdict's lower bound
#   BENCH_OUT               the results folder (default a new one)
#   BENCH_TSC_KHZ           the guest's TSC frequency in kHz, given to its
#                           kernel (tsc_early_khz= tsc=reliable); default:
#                           the host's ('cpu MHz' of /proc/cpuinfo), which
#                           is what a TCG guest's TSC counts; 0: not given.
#                           Without it a guest on a busy host may fail to
#                           calibrate its TSC and keep time by the timer
#                           tick, which lags, and iperf3's Mbit/s with it.
set -e -o pipefail
export LC_ALL=C

prog=bench/bench.sh
die() { echo "$prog: $*" >&2; exit 1; }
msg() { echo "[bench] $*"; }

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$top/build}
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR=$top/$BUILD_DIR ;; esac
# BUILD_DIR is in use while this runs (a shared lock): make clean and
# distclean refuse to remove it under a running build, test or bench.
mkdir -p "$BUILD_DIR" && exec 5> "$BUILD_DIR/.wgt-in-use" && flock -s 5
export BUILD_DIR
export RESULTS_DIR=${RESULTS_DIR:-$BUILD_DIR/results}
initrd=$BUILD_DIR/initramfs.cpio.gz

reps=${BENCH_REPS:-5}
secs=${BENCH_SECS:-3}
tests=$(echo "${BENCH_TESTS:-tcp-1:tcp-4:udp-64:udp-512:udp-1392}" | tr ', ' '::')
modes=${BENCH_MODES:-netns two-guest}
micro_ms=${BENCH_MICRO_MS:-100}
cost=${BENCH_COST:-16/20}

isnum() { case "$1" in ''|*[!0-9]*) return 1 ;; esac; }
isnum "$reps" && [ "$reps" -ge 1 ] || die "BENCH_REPS must be a positive number, not '$reps'"
[ "$reps" -ge 5 ] || msg "warning: BENCH_REPS=$reps: fewer than 5 repetitions give a spread nobody should trust"
isnum "$secs" && [ "$secs" -ge 1 ] || die "BENCH_SECS must be a positive number of seconds, not '$secs'"
tsc_khz=${BENCH_TSC_KHZ:-$(awk -F: '/^cpu MHz/ { printf "%d", $2 * 1000; exit }' /proc/cpuinfo)}
isnum "$tsc_khz" || die "BENCH_TSC_KHZ must be a number of kHz (0: none), not '$tsc_khz'"
clock_args=
[ "$tsc_khz" = 0 ] || clock_args="tsc_early_khz=$tsc_khz tsc=reliable"
isnum "$micro_ms" && [ "$micro_ms" -le 10000 ] || die "BENCH_MICRO_MS must be 0 to 10000, not '$micro_ms'"
case "$cost" in
0) ;;
[1-9]*/[1-9]*)
	isnum "${cost%/*}" && isnum "${cost#*/}" && [ "${cost%/*}" -le 1024 ] && [ "${cost#*/}" -le 1000 ] ||
		die "BENCH_COST must be MIB/HANDSHAKES (MIB 1-1024, HANDSHAKES 1-1000) or 0, not '$cost'" ;;
*) die "BENCH_COST must be MIB/HANDSHAKES (e.g. 16/20) or 0, not '$cost'" ;;
esac
awk -v t="${BENCH_COST_TOL:-0.01}" -v a="${BENCH_COST_ALPHA:-0.05}" \
	'BEGIN { exit !(t ~ /^[0-9.]+$/ && t + 0 < 1 && a ~ /^[0-9.]+$/ && a + 0 > 0 && a + 0 < 0.5) }' ||
	die "BENCH_COST_TOL must be in [0, 1) and BENCH_COST_ALPHA in (0, 0.5)"
[ "$tests" != none ] || tests=
ntests=0
for t in $(echo "$tests" | tr ':' ' '); do
	case "$t" in
	tcp-[1-9]|tcp-[1-9][0-9]) ;;
	udp-[0-9]*)
		isnum "${t#udp-}" && [ "${t#udp-}" -ge 16 ] && [ "${t#udp-}" -le 1392 ] ||
			die "BENCH_TESTS: $t: UDP payloads are 16 to 1392 bytes (1420 MTU less IP and UDP headers)" ;;
	*) die "BENCH_TESTS: unknown test '$t' (tcp-N for N streams, udp-BYTES)" ;;
	esac
	ntests=$((ntests + 1))
done
[ $ntests -gt 0 ] || [ "$cost" != 0 ] || die "BENCH_TESTS is none and BENCH_COST is 0: nothing to measure"
[ $ntests -gt 0 ] || tests=none
nmodes=0
for m in $modes; do
	case "$m" in netns|two-guest) ;; *) die "BENCH_MODES: unknown mode '$m' (netns, two-guest)" ;; esac
	nmodes=$((nmodes + 1))
done
[ $nmodes -gt 0 ] || die "BENCH_MODES is empty"
command -v wg > /dev/null || die "wg (wireguard-tools) is needed on the host for the two-guest keys (make deps)"
command -v gnuplot > /dev/null || msg "warning: no gnuplot (make deps installs gnuplot-nox): no plot"

# --- The two kernels --------------------------------------------------------

# hash_of STRING: a short stable name for a folder.
hash_of() { echo "$1" | sha256sum | cut -c1-12; }

# build_tree SIDE DIR: build a kernel source tree out of tree with the
# harness's fragments; prints the image.
build_tree() {
	local side=$1 src out frags="base.config virtio.config net.config wireguard.config trace.config"
	src=$(cd "$2" && pwd) || die "${side}_TREE: no directory '$2'"
	[ -r "$src/Makefile" ] && [ -d "$src/arch/x86" ] ||
		die "${side}_TREE: '$src' is not a kernel source tree"
	[ ! -d "$src/lib/zinc" ] || frags="$frags zinc.config"
	out=$BUILD_DIR/bench-kernels/tree-$(hash_of "$src")
	mkdir -p "$out"
	msg "${side}: building $src (O=$out, tinyconfig + $frags)" >&2
	{
		make -C "$src" O="$out" ARCH=x86_64 -s tinyconfig &&
		(cd "$top/kernel/config" && "$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" $frags) &&
		make -C "$src" O="$out" ARCH=x86_64 -s olddefconfig &&
		nice -n 5 make -C "$src" O="$out" ARCH=x86_64 -j"${JOBS:-$(nproc)}" bzImage
	} > "$out/build.log" 2>&1 ||
		{ tail -n 30 "$out/build.log" >&2; die "${side}_TREE: build failed (log: $out/build.log)"; }
	grep -q '^CONFIG_WIREGUARD=y' "$out/.config" ||
		die "${side}_TREE: the tree's config has no built-in WireGuard (CONFIG_WIREGUARD=y)"
	echo "$out/arch/x86/boot/bzImage"
}

# resolve SIDE: sets KIMG_SIDE, LABEL_SIDE, DESC_SIDE (SIDE: CAND or BASE).
resolve() {
	local side=$1 flavor kernel patches tree append qemu label desc img bd obj
	eval "flavor=\${$side:-} kernel=\${${side}_KERNEL:-} patches=\${${side}_PATCHES:-}"
	eval "tree=\${${side}_TREE:-} append=\${${side}_APPEND:-} qemu=\${${side}_QEMU:-}"
	eval "label=\${${side}_LABEL:-}"
	[ -n "$flavor" ] || die "$side names no kernel flavor"
	case "$flavor" in stock|zinc|zinc-debug|zinc-release) ;;
	*) die "$side=$flavor: unknown flavor (stock, zinc, zinc-release, zinc-debug)" ;; esac
	[ "$(echo ${kernel:+k} ${patches:+p} ${tree:+t} | wc -w)" -le 1 ] ||
		die "name one of ${side}_KERNEL, ${side}_PATCHES, ${side}_TREE, not several"
	if [ -n "$kernel" ]; then
		[ -r "$kernel" ] || die "${side}_KERNEL: no kernel image '$kernel'"
		img=$(cd "$(dirname "$kernel")" && pwd)/$(basename "$kernel")
		desc="image $img"
		: "${label:=$(basename "$(dirname "$img")")}"
	elif [ -n "$tree" ]; then
		img=$(build_tree "$side" "$tree")
		desc="tree $(cd "$tree" && pwd)"
		: "${label:=$(basename "$tree")}"
	elif [ -n "$patches" ]; then
		[ -r "$patches/series" ] || die "${side}_PATCHES: no series file in '$patches'"
		patches=$(cd "$patches" && pwd)
		bd=$BUILD_DIR/bench-kernels/patches-$(hash_of "$patches")
		msg "$side: $flavor kernel from the series in $patches"
		BUILD_DIR=$bd SERIES=$patches PATCHES= KERNEL= KERNEL_ROOT= nice -n 5 "$top/kernel/build.sh" "$flavor" ||
			die "${side}_PATCHES: kernel build failed"
		img=$bd/kernel/$flavor/bzImage
		desc="$flavor config, series $patches ($(grep -c '^[^#]' "$patches/series") patches)"
		: "${label:=$(basename "$patches")}"
	elif [ "$side" = CAND ] && [ -n "${PATCHES:-}${KERNEL:-}" ]; then
		# make's PATCHES= or KERNEL= name the candidate (make test's
		# kernel); the base stays the flavor's own.
		nice -n 5 "$top/kernel/build.sh" "$flavor" || die "$side: kernel build failed"
		img=$KERNEL_ROOT/$flavor/bzImage
		desc="$flavor flavor + ${PATCHES:+the series $PATCHES}${KERNEL:+the image $KERNEL} (key $(cat "$KERNEL_ROOT/$flavor/key"))"
		: "${label:=$flavor+$(basename "${PATCHES:-$KERNEL}")}"
	else
		PATCHES= KERNEL= KERNEL_ROOT= nice -n 5 "$top/kernel/build.sh" "$flavor" ||
			die "$side: kernel build failed"
		img=$BUILD_DIR/kernel/$flavor/bzImage
		desc="$flavor flavor (build key $(cat "$BUILD_DIR/kernel/$flavor/key" 2> /dev/null || echo ?))"
		: "${label:=$flavor}"
	fi
	if [ -n "$append" ]; then
		desc="$desc, booted with '$append'"
		eval "[ -n \"\${${side}_LABEL:-}\" ]" || label="$label+$(echo $append | tr ' ' '+')"
	fi
	if [ -n "$qemu" ]; then
		desc="$desc, QEMU '$qemu'"
		eval "[ -n \"\${${side}_LABEL:-}\" ]" || label="$label+qemu"
	fi
	# The build folder with System.map, when there is one: the cost
	# metric's ranges of WireGuard and its crypto come from it.
	obj=
	case "$img" in
	*/arch/x86/boot/bzImage) [ ! -r "${img%/arch/x86/boot/bzImage}/System.map" ] || obj=${img%/arch/x86/boot/bzImage} ;;
	*) [ ! -r "$(dirname "$img")/obj/System.map" ] || obj=$(dirname "$img")/obj ;;
	esac
	eval "KIMG_$side=\$img LABEL_$side=\$label DESC_$side=\$desc OBJ_$side=\$obj"
}

CAND=${CAND:-zinc-release} BASE=${BASE:-stock}
resolve CAND
resolve BASE
[ "$LABEL_CAND" != "$LABEL_BASE" ] || { LABEL_CAND="$LABEL_CAND(A)" LABEL_BASE="$LABEL_BASE(B)"; }
"$top/guest-image/mkinitramfs.sh" "$initrd"

stamp=$(date +%Y%m%d-%H%M%S)
out=${BENCH_OUT:-$RESULTS_DIR/bench-$stamp}
mkdir -p "$out"
runs=$out/runs.tsv sessions=$out/sessions.tsv micro=$out/micro.tsv costs=$out/cost.tsv

# The cost metric: the instruction-counting plugin, and per kernel the
# ranges of WireGuard's and its crypto's code.
plugin=
if [ "$cost" != 0 ]; then
	accel=$("$top/guest-image/accel.sh")
	if [ "$accel" != tcg ]; then
		msg "guests run under $accel: instruction counts need TCG, so no cost metric (BENCH_COST=0; ACCEL=tcg gives one); the verdict judges wall clock"
		cost=0
	fi
fi
if [ "$cost" != 0 ]; then
	case "$out$BUILD_DIR" in *,*) die "the cost plugin's paths cannot hold a comma (QEMU's -plugin syntax): $out" ;; esac
	# Built into the run's own folder (a second, one-second build), so that
	# no other run can change it under this one.
	plugin=$out/wgt-insns.so
	gcc -shared -fPIC -fvisibility=hidden -O2 -Wall -Wextra -Werror -o "$plugin" \
		"$top/bench/cost/wgt-insns.c" -lpthread || die "cannot build the QEMU plugin bench/cost/wgt-insns.c"
	# QEMU must load it (a QEMU built without plugin support does not):
	# one clear line now, not a failure per boot.
	echo quit | timeout 60 qemu-system-x86_64 -M none -nodefaults -display none -monitor stdio \
		-plugin "$plugin,out=$out/plugin-probe.log" > "$out/plugin-probe.out" 2>&1 &&
		grep -q '^exit insns=' "$out/plugin-probe.log" 2> /dev/null ||
		die "QEMU does not load the cost plugin ($(grep -o 'wgt-insns: .*\|Could not load.*\|qemu-system-x86_64: .*' "$out/plugin-probe.out" | sed -n 1p)); BENCH_COST=0 runs without the cost metric"
	for side in CAND BASE; do
		o=$(eval echo "\$OBJ_$side")
		if [ -n "$o" ] && [ "$side" = BASE ] && [ "$o" = "$OBJ_CAND" ]; then
			cp "$out/ranges-CAND.txt" "$out/ranges-BASE.txt"
		elif [ -n "$o" ]; then
			"$top/bench/cost/ranges.sh" "$o" > "$out/ranges-$side.txt" ||
				die "$side: cannot find WireGuard's code in $o"
		else
			msg "$side: no System.map beside $(eval echo "\$KIMG_$side"): whole-guest instruction counts only"
		fi
	done
fi
printf 'mode\ttest\tside\trep\torder\tmbit\tzinc_enc\tzinc_dec\tlib_enc\tlib_dec\tpkts\tboot\terror\n' > "$runs"
printf 'mode\tside\trep\trole\tzinc_enc\tzinc_dec\tlib_enc\tlib_dec\tpkts\tboot\n' > "$sessions"
printf 'mode\ttest\tside\trep\torder\tunits\tunit\tinsns\twg_insns\tgroups\tpkts\tboot\terror\tfpu_sections\n' > "$costs"
printf 'side\trep\tprimitive\top\timpl\tbytes\tops\tcycles\tns\tbatch\tbest\n' > "$micro"

# Every boot this script starts is ended by it, whatever the way out.
pids=
cleanup() {
	local p
	for p in $pids; do kill "$p" 2> /dev/null || true; done
	for p in $pids; do wait "$p" 2> /dev/null || true; done
	[ "$(type -t link_done)" != function ] || link_done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# One boot's iperf3 runs, microbenchmark (34 measurements) and cost
# windows fit in this, with room for a slow boot on a busy host.
boot_timeout=$((180 + ntests * (secs + 1) * 4 + micro_ms * 34 * 4 / 1000))
[ "$cost" = 0 ] || boot_timeout=$((boot_timeout + 60 + ${cost%/*} * 12 + ${cost#*/} * 4))

# boot_guest RUN SIDE ARGS SMP [QEMU_LINK_ARGS]: the bench entry on SIDE's
# kernel; its output in $out/RUN.out, boot.sh's exit status in $out/RUN.rc.
boot_guest() {
	local run=$1 side=$2 args=$3 smp=$4 link=${5:-} rc=0 append qemu
	eval "append=\${${side}_APPEND:-} qemu=\${${side}_QEMU:-}"
	# Each guest's console and verdict under the run's folder.
	RESULTS_DIR=$out "$top/guest-image/boot.sh" --kernel "$(eval echo "\$KIMG_$side")" --initrd "$initrd" \
		--entry bench --name "$run" --args "$args" --timeout "$boot_timeout" \
		--smp "$smp" --append "$clock_args${append:+ $append}" --qemu "$link $qemu" \
		> "$out/$run.out" 2> "$out/$run.err" || rc=$?
	echo $rc > "$out/$run.rc"
}

# why_died RUN: one line on what went wrong with a boot.
why_died() {
	local rc
	rc=$(cat "$out/$1.rc")
	if grep -q "$prog\|boot.sh" "$out/$1.err"; then
		grep "boot.sh:" "$out/$1.err" | tail -n 1 | tr '\t' ' '
	else
		echo "entry exit $rc: $(grep -v '^\[boot\]' "$out/$1.out" "$out/$1.err" | tail -n 1 | tr '\t' ' ')"
	fi
}

# collect MODE SIDE REP ORDER RUN [RESPONDER_RUN]: the measurements of one
# boot (or pair) into the TSV files; a test the guest did not measure is
# recorded with its reason.
collect() {
	local mode=$1 side=$2 rep=$3 order=$4 run=$5 rrun=${6:-} t line err c r sick=
	# A number from a kernel that logged trouble (init's health check) is
	# not a measurement of that kernel.
	for r in "$run" $rrun; do
		if grep -q '^# wgt-health: FAIL' "$out/$r.out"; then
			sick="kernel unhealthy in $r: $(grep -m 1 '^#   ' "$out/$r.out" | cut -c 1-160 || true)"
		fi
	done
	for t in $(echo "$tests" | tr ':' ' ' | sed 's/^none$//'); do
		line=$(grep "^bench $t " "$out/$run.out" | tail -n 1 || true)
		[ -z "$sick" ] || line="bench $t error $sick"
		case "$line" in
		*" mbit="*)
			echo "$line" | awk -v m="$mode" -v s="$side" -v r="$rep" -v o="$order" -v b="$run" -v t="$t" '{
				for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
				printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", m, t, s, r, o,
					v["mbit"], v["zinc_enc"], v["zinc_dec"], v["lib_enc"], v["lib_dec"], v["pkts"], b
			}' >> "$runs"
			;;
		*)
			err=${line#"bench $t error "}
			[ -n "$line" ] || err="not measured: $(why_died "$run")"
			printf '%s\t%s\t%s\t%s\t%s\tNA\t\t\t\t\t\t%s\t%s\n' "$mode" "$t" "$side" "$rep" "$order" \
				"$run" "$(echo "$err" | tr '\t' ' ')" >> "$runs"
			msg "  $t: $err"
			;;
		esac
	done
	for r in "$run" $rrun; do
		local role=initiator
		[ "$r" = "$run" ] || role=responder
		[ "$mode" = two-guest ] || role=guest
		sed -n 's/^profile //p' "$out/$r.out" | awk -v m="$mode" -v s="$side" -v rp="$rep" -v ro="$role" -v b="$r" '{
			for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", m, s, rp, ro,
				v["zinc_enc"], v["zinc_dec"], v["lib_enc"], v["lib_dec"], v["pkts"], b
		}' >> "$sessions"
	done
	for r in "$run" $rrun; do
		c=$(sed -n 's/^clock //p' "$out/$r.out")
		[ "$c" = tsc ] || msg "  warning: $r kept time by '${c:-?}', not the TSC: its Mbit/s are suspect"
	done
	sed -n 's/^micro //p' "$out/$run.out" | awk -v s="$side" -v r="$rep" 'NF == 9 {
		printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", s, r, $1, $2, $3, $4, $5, $6, $7, $8, $9
	}' >> "$micro"
	if grep -q '^micro-error' "$out/$run.out"; then
		msg "  microbenchmark: $(grep '^micro-error' "$out/$run.out" | sed -n 1p)"
		grep '^# .*FAIL' "$out/$run.out" | sed 's/^/[bench]   /' || true
	fi
}

. "$top/guest-image/link.sh"

# collect_cost MODE SIDE REP ORDER RUN [RESPONDER_RUN]: the cost windows
# of one boot (or pair) into cost.tsv. The guest ran two marks per window,
# in order, whatever happened (in two-guest mode the responder marked
# each window too, on the initiator's word); each plugin logged one line
# per mark. The counts of a pair are summed. A window without its marks,
# or one the guest reported failed, is recorded with its reason.
collect_cost() {
	local mode=$1 side=$2 rep=$3 order=$4 run=$5 rrun=${6:-} marks=$out/$5.marks nwin ndisc nmarks why= r
	nwin=$(grep -c '^cost ' "$out/$run.out" || true)
	ndisc=$(grep -c '^cost [^ ]* discard' "$out/$run.out" || true)
	[ "$ndisc" = 0 ] || msg "  cost: $ndisc window(s) run again: $(grep '^cost [^ ]* discard' "$out/$run.out" | cut -c 6- | tr '\n' ';')"
	for r in "$run" $rrun; do
		nmarks=$(grep -c '^mark ' "$out/$r.marks" 2> /dev/null || true)
		[ -n "$why" ] || [ "$nwin" = 0 ] || [ "$nmarks" = $((2 * nwin)) ] ||
			why="$nmarks marks in $r for $nwin windows (the plugin's log: $out/$r.marks)"
		! grep -q '^# wgt-health: FAIL' "$out/$r.out" || why="kernel unhealthy in $r"
	done
	[ "$nwin" != 0 ] || why="no cost window reported: $(why_died "$run")"
	if [ -n "$rrun" ] && [ -z "$why" ]; then
		# One log for the pair: each mark line the sum of the two.
		paste -d ' ' <(grep '^mark ' "$out/$run.marks") <(grep '^mark ' "$out/$rrun.marks") |
			awk '{
				n = NF / 2
				printf "mark %s vcpu=-", $2
				for (i = 4; i <= n; i++) { split($i, a, "="); split($(i + n), b, "="); printf " %s=%.0f", a[1], a[2] + b[2] }
				printf "\n"
			}' > "$out/$run.pair-marks"
		marks=$out/$run.pair-marks
	fi
	if [ -n "$why" ]; then
		for t in cost-udp cost-udp64 cost-tcp cost-hs; do
			printf '%s\t%s\t%s\t%s\t%s\t\t\t\t\t\t\t%s\t%s\n' "$mode" "$t" "$side" "$rep" "$order" "$run" "$why" >> "$costs"
		done
		msg "  cost: $why"
		return 0
	fi
	# Window i is marks 2i-1 and 2i; groups g0-g6 are WireGuard, its
	# crypto and the FPU section code (bench/cost/ranges.sh), their sum
	# the wg_insns metric; e6 counts the FPU sections begun.
	awk -v m="$mode" -v s="$side" -v r="$rep" -v o="$order" -v b="$run" -v msgp="[bench]   " '
	FNR == 1 { f++ }
	f == 1 && $1 == "mark" {
		nm++
		ng = 0
		for (i = 4; i <= NF; i++) {
			split($i, kv, "="); v[nm, kv[1]] = kv[2]
			if (kv[1] ~ /^g[0-9]+$/) ng++
		}
		next
	}
	f == 2 && $1 == "cost" {
		w++
		t = $2
		a = 2 * w - 1; z = 2 * w
		if ($3 == "discard")
			next
		if ($3 == "error") {
			$1 = $2 = $3 = ""
			printf "%s\t%s\t%s\t%s\t%s\t\t\t\t\t\t\t%s\t%s\n", m, t, s, r, o, b, substr($0, 4)
			print msgp t ": " substr($0, 4) > "/dev/stderr"
			next
		}
		for (i = 3; i <= NF; i++) { split($i, kv, "="); c[kv[1]] = kv[2] }
		wg = ""; groups = ""
		for (g = 0; g < ng; g++) {
			d = v[z, "g" g] - v[a, "g" g]
			wg += d
			groups = groups (g ? "," : "") d
		}
		fs = (z, "e6") in v ? sprintf("%.0f", v[z, "e6"] - v[a, "e6"]) : ""
		printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.0f\t%s\t%s\t%s\t%s\t\t%s\n", m, t, s, r, o, c["units"], c["unit"],
			v[z, "insns"] - v[a, "insns"], wg == "" ? "" : sprintf("%.0f", wg), groups, c["pkts"], b, fs
	}' "$marks" "$out/$run.out" >> "$costs"
}

# plugin_args RUN SIDE: the QEMU arguments that count RUN's instructions
# (none without the cost metric).
plugin_args() {
	[ -n "$plugin" ] || return 0
	printf ' -plugin %s,out=%s' "$plugin" "$out/$1.marks"
	[ ! -e "$out/ranges-$2.txt" ] || printf ',ranges=%s' "$out/ranges-$2.txt"
}

run_netns() { # SIDE REP ORDER
	local run=bench-$stamp-netns-$(echo "$1" | tr A-Z a-z)-$2
	boot_guest "$run" "$1" "netns,$secs,$tests,$micro_ms,$cost" 2 "$(plugin_args "$run" "$1")"
	collect netns "$1" "$2" "$3" "$run"
	[ -z "$plugin" ] || collect_cost netns "$1" "$2" "$3" "$run"
}

run_two_guest() { # SIDE REP ORDER
	local side=$1 rep=$2 order=$3 priv_a priv_b pub_a pub_b pid
	local run_a=bench-$stamp-2g-$(echo "$1" | tr A-Z a-z)-$2-initiator
	local run_b=bench-$stamp-2g-$(echo "$1" | tr A-Z a-z)-$2-responder
	priv_a=$(wg genkey) priv_b=$(wg genkey)
	pub_a=$(echo "$priv_a" | wg pubkey) pub_b=$(echo "$priv_b" | wg pubkey)
	link_new
	boot_guest "$run_b" "$side" "two-guest,responder,$priv_b,$pub_a,$secs,$tests,$cost" 1 \
		"$(link_netdev server 52:54:00:78:00:02)$(plugin_args "$run_b" "$side")" &
	pid=$!
	pids="$pids $pid"
	link_wait $pid
	boot_guest "$run_a" "$side" "two-guest,initiator,$priv_a,$pub_b,$secs,$tests,$cost" 1 \
		"$(link_netdev client 52:54:00:78:00:01)$(plugin_args "$run_a" "$side")"
	wait $pid || true
	pids=${pids% $pid}
	link_done
	collect two-guest "$side" "$rep" "$order" "$run_a" "$run_b"
	[ -z "$plugin" ] || collect_cost two-guest "$side" "$rep" "$order" "$run_a" "$run_b"
}

{
	echo "cand_label=$LABEL_CAND"
	echo "base_label=$LABEL_BASE"
	echo "cand_kernel=$DESC_CAND"
	echo "base_kernel=$DESC_BASE"
	echo "reps=$reps"
	echo "secs=$secs"
	echo "tests=$tests"
	echo "modes=$modes"
	echo "micro_ms=$micro_ms"
	echo "cost=$cost"
	echo "cost_tol=${BENCH_COST_TOL:-0.01}"
	echo "cost_alpha=${BENCH_COST_ALPHA:-0.05}"
	echo "guest_clock=${clock_args:-as the guest calibrates it}"
	echo "accel=$(head -n 1 "$BUILD_DIR/accel" 2> /dev/null || echo "${ACCEL:-probe}")"
	echo "host=$(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | sed -n 1p)"
	echo "started=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} > "$out/meta.env"

total=$((reps * nmodes * 2))
msg "$LABEL_CAND (candidate: $DESC_CAND)"
msg "$LABEL_BASE (baseline: $DESC_BASE)"
msg "$total boots: $reps repetitions x {$modes} x 2 kernels, tests $(echo "$tests" | tr ':' ' '), ${secs}s each; results in $out"
start=$(date +%s)
n=0
for rep in $(seq 1 "$reps"); do
	if [ $((rep % 2)) = 1 ]; then order="CAND BASE"; else order="BASE CAND"; fi
	for mode in $modes; do
		o=0
		for side in $order; do
			o=$((o + 1))
			n=$((n + 1))
			el=$(($(date +%s) - start))
			eta=
			[ $n -le 1 ] || eta=", about $(( (el * (total - n + 1) / (n - 1) + 30) / 60 )) min left"
			msg "run $n/$total: $mode, $(eval echo "\$LABEL_$side"), repetition $rep/$reps ($((el / 60))m$((el % 60))s so far$eta)"
			"run_$(echo $mode | tr - _)" "$side" "$rep" "$o"
		done
	done
done
echo "finished=$(date -u +%Y-%m-%dT%H:%M:%SZ)" >> "$out/meta.env"
echo "wall_s=$(($(date +%s) - start))" >> "$out/meta.env"
msg "all $total boots done in $((($(date +%s) - start) / 60)) min $((($(date +%s) - start) % 60)) s"
"$top/bench/report.sh" "$out"
# The figures and verdicts as a KCIDB report too (netns-tests/kcidb).
/usr/bin/python3 "$top/netns-tests/kcidb/kcidb.py" bench "$out" "$KIMG_CAND" "$KIMG_BASE" > /dev/null ||
	{ echo "$prog: writing the KCIDB report of $out failed" >&2; exit 2; }
# The cost verdict (report.sh's last VERDICT line) is the exit status: 1 a
# regression, 2 a measurement missing or failed.
case "$(grep '^VERDICT:' "$out/table.txt" | tail -n 1)" in
*ERROR*) exit 2 ;;
*REGRESSION*) exit 1 ;;
esac
