#!/bin/bash
# Boot a test guest under QEMU and return its verdict.
#
#   guest-image/boot.sh --kernel BZIMAGE --initrd CPIO --entry NAME
#       [--args ARGS] [--name RUN] [--timeout SECONDS] [--smp N] [--mem MB]
#       [--append WORDS] [--qemu 'EXTRA QEMU ARGS'] [--accel kvm|tcg]
#       [--arch x86_64|arm64|arm] [--extra CPIO] [--lava FILE] [--stamp]
#       [--shell]
#
# The guest runs /tests/entry/NAME and writes its output to a virtio-serial
# port that lands in RESULTS_DIR/RUN/verdict.log; the console goes to
# RESULTS_DIR/RUN/console.log.  After the guest is gone the verdict (without
# its final status line) is printed on stdout and this script exits with the
# entry's exit status.  A guest that panics, hangs past the timeout or
# reports nothing gives a non-zero exit and a message naming the console log.
#
# A modular kernel (kernel/build.sh) has modules.cpio.gz beside its image:
# the guest's initramfs is then extended with it (the kernel unpacks
# concatenated archives), and the guest's init loads every module in it.
# --extra CPIO extends it the same way, last (e.g. the crypto-diff suite's
# module and reference digests).
#
# --stamp records when the verdict grew, in host wall-clock time: each
# change of its size seen (polled every 0.2 s) is a line "EPOCH_SECONDS
# BYTES" in RESULTS_DIR/RUN/verdict.times.  A guest on virtual time
# (-icount) cannot read the host's clock; this is how the host tells how
# much wall time a case took (netns-tests/run.sh, timers suite).
#
# --lava FILE boots nothing: it writes this boot, as a LAVA job needs it
# (netns-tests/lava), to FILE as name=value lines: the QEMU binary and its
# options, less the verdict port and the console file (LAVA reads the
# console on QEMU's stdio), with the machine, CPU and memory apart; the
# kernel command line with wgt_lava=1 (init then repeats each result on
# the console); kernel, initramfs, modules and timeout.
#
# --shell (make shell, guest-image/shell.sh): the console is this
# script's stdin and stdout (and still copied to console.log), QEMU runs
# in the foreground, and the kernel prints only warnings and worse there;
# Ctrl-A x stops QEMU.  No second boot after a QEMU crash.
#
# Knobs: ACCEL (kvm or tcg; default: probe once per host boot, see accel.sh),
# ARCH (the guest's architecture, default x86_64; --arch wins), RESULTS_DIR
# (default $BUILD_DIR/results), V=1 streams the console.
#
# arm64 boots qemu-system-aarch64 -M virt -cpu max, arm boots
# qemu-system-arm -M virt -cpu cortex-a15 (ARMv7 with NEON), both always
# under TCG (no KVM probe for a foreign architecture), the console on the
# PL011 (ttyAMA0); the verdict port and the RNG are the same virtio-pci
# devices as on x86_64.
set -e -o pipefail
export LC_ALL=C

prog=guest-image/boot.sh
die() { echo "$prog: $*" >&2; exit 1; }

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$top/build}
RESULTS_DIR=${RESULTS_DIR:-$BUILD_DIR/results}

kernel= initrd= entry= args= name= timeout=300 smp=2 mem=768 append= qemu_extra=
extra=
lava=
stamp=0 shell=0
accel=${ACCEL:-} arch=${ARCH:-x86_64}
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2 ;;
	--initrd) initrd=$2 ;;
	--entry) entry=$2 ;;
	--args) args=$2 ;;
	--name) name=$2 ;;
	--timeout) timeout=$2 ;;
	--smp) smp=$2 ;;
	--mem) mem=$2 ;;
	--append) append=$2 ;;
	--qemu) qemu_extra=$2 ;;
	--extra) extra=$2 ;;
	--accel) accel=$2 ;;
	--arch) arch=$2 ;;
	--lava) lava=$2 ;;
	--stamp) stamp=1; shift; continue ;;
	--shell) shell=1; shift; continue ;;
	*) die "unknown argument '$1' (see the header of $prog)" ;;
	esac
	[ $# -ge 2 ] || die "$1 needs a value"
	shift 2
done
[ -r "$kernel" ] || die "no kernel image '$kernel' (--kernel)"
[ -r "$initrd" ] || die "no initramfs '$initrd' (--initrd)"
[ -n "$entry" ] || die "--entry is required"
[ -z "$extra" ] || [ -r "$extra" ] || die "no cpio '$extra' (--extra)"
[ -z "$extra" ] || [ -z "$lava" ] || die "--extra has no place in a LAVA job (--lava)"
case "$timeout" in ''|*[!0-9]*) die "--timeout must be a number of seconds" ;; esac
case "$args" in *' '*) die "--args must not contain spaces (use commas)" ;; esac
case "$arch" in x86|amd64) arch=x86_64 ;; esac
case "$arch" in
x86_64)
	qemu=qemu-system-x86_64 console_dev=ttyS0 machine= cpu=max ;;
arm64)
	qemu=qemu-system-aarch64 console_dev=ttyAMA0 machine="-M virt" cpu=max ;;
arm)
	# highmem=off: a kernel without LPAE cannot reach PCI windows above 4G.
	qemu=qemu-system-arm console_dev=ttyAMA0 machine="-M virt,highmem=off" cpu=cortex-a15 ;;
*)
	die "unknown architecture '$arch' (--arch or ARCH: x86_64, arm64, arm)" ;;
esac
command -v $qemu > /dev/null || die "$qemu missing (make deps ARCH=$arch)"

if [ "$arch" != x86_64 ]; then
	# A foreign architecture never runs under KVM here: no probe.
	[ -z "$accel" ] || [ "$accel" = tcg ] ||
		die "ACCEL=$accel is not possible for ARCH=$arch guests on this host (tcg only)"
	accel=tcg
fi
[ -n "$accel" ] || accel=$("$top/guest-image/accel.sh")
case "$accel" in
kvm) accel_args="-accel kvm" cpu=host ;;
tcg)
	# One thread per vCPU (MTTCG), except under -icount, which needs the
	# single round-robin thread.
	case " $qemu_extra " in
	*" -icount "*) accel_args="-accel tcg,thread=single" ;;
	*) accel_args="-accel tcg,thread=multi" ;;
	esac
	;;
*) die "ACCEL must be kvm or tcg, not '$accel'" ;;
esac

name=${name:-$entry-$(date +%Y%m%d-%H%M%S)-$$}
modules=$(dirname "$kernel")/modules.cpio.gz
[ -r "$modules" ] || modules=

seed=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
# A WARN, an oops, a soft lockup (60 s: watchdog_thresh=30 fits TCG) or an
# RCU stall ends the guest at once (kernel/config/health.config).
cmdline="console=$console_dev panic_on_warn=1 panic=-1 oops=panic init=/init"
cmdline="$cmdline watchdog_thresh=30 sysctl.kernel.panic_on_rcu_stall=1"
# The guest reads its verdicts from the kernel log: tinyconfig's 128 KiB
# lost a self-test's pass line under another primitive's 781 failure lines
# (a fixture), so the first primitives read as failed.  8 MiB holds a run.
cmdline="$cmdline log_buf_len=8M"
cmdline="$cmdline wgt_entry=$entry wgt_seed=$seed wgt_smp=$smp wgt_accel=$accel"
[ -z "$args" ] || cmdline="$cmdline wgt_args=$args"
# What the kernel's config fragments need at boot (kernel/build.sh).
params=$(dirname "$kernel")/boot-params
[ ! -s "$params" ] || cmdline="$cmdline $(cat "$params")"
[ -z "$append" ] || cmdline="$cmdline $append"
[ $shell = 0 ] || cmdline="$cmdline loglevel=4"
qemu_args="-no-reboot $accel_args -smp $smp -device virtio-rng-pci"

if [ -n "$lava" ]; then
	# (Only warnings and worse on a LAVA console, so that no kernel
	# message splits a result line; the health check reads the whole log.)
	cat > "$lava" <<-EOF
	name=$name
	entry=$entry
	arch=$arch
	accel=$accel
	qemu=$qemu
	machine=${machine#-M }
	cpu=$cpu
	mem=$mem
	options=$qemu_args${qemu_extra:+ $qemu_extra}
	cmdline=$cmdline wgt_lava=1 loglevel=4
	kernel=$(realpath "$kernel")
	initrd=$(realpath "$initrd")
	modules=${modules:+$(realpath "$modules")}
	timeout=$timeout
	EOF
	exit 0
fi

rundir=$RESULTS_DIR/$name
mkdir -p "$rundir"
console=$rundir/console.log
verdict=$rundir/verdict.log
rm -f "$console" "$verdict" "$rundir/verdict.times"
: > "$verdict"

if [ -n "$modules$extra" ]; then
	cat "$initrd" ${modules:+"$modules"} ${extra:+"$extra"} > "$rundir/initrd.cpio.gz"
	initrd=$rundir/initrd.cpio.gz
fi

qemu_pid=
tail_pid=
cleanup() {
	[ -z "$tail_pid" ] || kill "$tail_pid" 2> /dev/null || true
	if [ -n "$qemu_pid" ] && kill -0 "$qemu_pid" 2> /dev/null; then
		kill -KILL "$qemu_pid" 2> /dev/null || true
		wait "$qemu_pid" 2> /dev/null || true
	fi
	rm -f "$rundir/initrd.cpio.gz"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "[boot] $name: ${machine:+$arch }$accel, -smp $smp, ${mem}M, timeout ${timeout}s (console: $console)" >&2
start=$(date +%s)
# The guest's QEMU, all but its console: launch and shell add theirs.
# shellcheck disable=SC2206,SC2054 # machine, qemu_args, qemu_extra: words; commas are QEMU's
qemu_cmd=($qemu $machine -nodefaults -nographic -display none -monitor none
	$qemu_args -cpu "$cpu" -m "$mem"
	-kernel "$kernel" -initrd "$initrd" -append "$cmdline"
	-device virtio-serial-pci
	-chardev "file,id=verdict,path=$verdict"
	-device virtserialport,chardev=verdict,name=verdict
	$qemu_extra)
# launch: QEMU in the background, qemu_pid set.
launch() {
	"${qemu_cmd[@]}" -serial "file:$console" < /dev/null > "$rundir/qemu.log" 2>&1 &
	qemu_pid=$!
	if [ "${V:-0}" = 1 ] && [ -z "$tail_pid" ]; then
		tail -n +1 -F "$console" 2> /dev/null >&2 &
		tail_pid=$!
	fi
}

# Whoever started us (run.sh passes its own pid as WGT_OWNER, since its
# pair boots sit in subshells) may be killed without a chance to stop us:
# the guest then goes too, instead of running on to its timeout.
owner=${WGT_OWNER:-$PPID}
timed_out=0
verdict_size=0
# stamp_verdict: with --stamp, note the verdict's size when it changed.
stamp_verdict() {
	local size
	[ $stamp = 1 ] || return 0
	size=$(stat -c %s "$verdict" 2> /dev/null || echo 0)
	[ "$size" != "$verdict_size" ] || return 0
	verdict_size=$size
	echo "$(date +%s.%N | cut -c1-14) $size" >> "$rundir/verdict.times"
}
# watch: wait for QEMU to end (or the timeout), qemu_rc set.
watch() {
	while kill -0 "$qemu_pid" 2> /dev/null; do
		stamp_verdict
		if ! kill -0 "$owner" 2> /dev/null; then
			echo "$prog: $name: process $owner that started the guest is gone; stopping it" >&2
			exit 143
		fi
		if [ $(($(date +%s) - start)) -ge "$timeout" ]; then
			timed_out=1
			kill -KILL "$qemu_pid" 2> /dev/null || true
			break
		fi
		sleep 0.2
	done
	qemu_rc=0
	wait "$qemu_pid" 2> /dev/null || qemu_rc=$?
	qemu_pid=
	stamp_verdict
}
# shell: QEMU in the foreground, its console on our stdin and stdout
# (signal=off: a Ctrl-C goes to the guest), copied to console.log.
shell() {
	local rc=0
	"${qemu_cmd[@]}" -chardev "stdio,id=con,mux=on,signal=off,logfile=$console" -serial chardev:con \
		2> "$rundir/qemu.log" || rc=$?
	# (QEMU leaves a terminal as it found it, unless it was killed.)
	[ ! -t 0 ] || stty sane 2> /dev/null || true
	qemu_rc=$rc
}
if [ $shell = 1 ]; then
	shell
else
	launch
	watch
fi
# QEMU itself crashing (killed by a signal of its own, not by us) before
# the guest said a word is the host's fault, not the kernel's: QEMU 7.2's
# TCG has died here with a general protection fault while the guest was
# still enumerating PCI.  One more boot, said out loud; the crashed one's
# logs are kept beside the new ones.
if [ $shell = 0 ] && [ $timed_out = 0 ] && [ "$qemu_rc" -gt 128 ] && [ ! -s "$verdict" ]; then
	echo "[boot] $name: QEMU crashed (exit $qemu_rc, signal $((qemu_rc - 128))) before the guest reported anything; booting it again (logs: $rundir/*.crashed)" >&2
	# Also in the KTAP (the host's collect counts it for the KCIDB report).
	echo "# wgt-boot: QEMU crashed (exit $qemu_rc, signal $((qemu_rc - 128))) before the guest reported anything; booted it again (logs: $rundir/*.crashed)"
	mv "$console" "$console.crashed" 2> /dev/null || true
	mv "$rundir/qemu.log" "$rundir/qemu.log.crashed"
	: > "$verdict"
	verdict_size=0
	[ $stamp = 0 ] || mv "$rundir/verdict.times" "$rundir/verdict.times.crashed" 2> /dev/null || true
	launch
	watch
fi
elapsed=$(($(date +%s) - start))

status=$(sed -n 's/^# wgt-exit: \([0-9]*\)$/\1/p' "$verdict" | tail -n 1)
grep -v '^# wgt-exit: ' "$verdict" || true
if [ $timed_out = 1 ]; then
	echo "$prog: $name: guest hung: no verdict after ${timeout}s; console log: $console" >&2
	exit 124
fi
if [ -z "$status" ]; then
	reason="guest ended without a verdict"
	grep -q 'Kernel panic' "$console" 2> /dev/null && reason="guest kernel panicked"
	[ $qemu_rc = 0 ] || reason="$reason (qemu exit $qemu_rc: $(tail -n 3 "$rundir/qemu.log" | tr '\n' ' '))"
	echo "$prog: $name: $reason; console log: $console" >&2
	exit 125
fi
echo "[boot] $name: verdict $status after ${elapsed}s" >&2
exit "$status"
