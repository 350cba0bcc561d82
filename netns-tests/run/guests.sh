# shellcheck shell=bash disable=SC2154 # the run's variables are run.sh's
# netns-tests/run.sh's guests part (sourced by it, never run alone).
# Scheduling the guests: booting each word's guests, SUITE_JOBS words at
# once, and handing their results to the collector in the words' order.

# guest_timeout SUITE: how long a guest of SUITE may run.  A netns guest
# gets the sum of its cases' own timeouts (each "# timeout: N", default
# 120, plus the 10 s the entry gives a case to die after TERM), stretched
# by TIMEOUT_SCALE, plus 300 s for boot and the checks around the cases:
# the guest is never killed while its cases are within their limits.
# Other guests: 1200 s, stretched the same way.  SUITE_TIMEOUT overrides
# both.
guest_timeout() {
	local c t sum=0
	if [ -n "${SUITE_TIMEOUT:-}" ]; then
		echo "$SUITE_TIMEOUT"
	elif scenario_suite "$1"; then
		for c in $(cases_of "$1" x); do
			[ -r "$top/netns-tests/$(case_dir "$1")/$c.sh" ] || continue
			t=$(sed -n 's/^# timeout: \([0-9]*\)$/\1/p' "$top/netns-tests/$(case_dir "$1")/$c.sh")
			sum=$((sum + ${t:-120} + 10))
		done
		echo $((sum * ${TIMEOUT_SCALE:-1} + 300))
	else
		echo $((1200 * ${TIMEOUT_SCALE:-1}))
	fi
}

# boot RUN FLAVOR ENTRY [boot.sh args]: boot one guest, its KTAP into
# $outdir/RUN.ktap; sets boot_rc.
boot() {
	local run=$1 flavor=$2 entry=$3 fixed lacks
	shift 3
	local out=$outdir/$run.ktap
	boot_rc=0
	# Under LAVA_BOOTS, boot.sh writes the boot instead of running it.
	[ -z "${lava_file:-}" ] || { set -- "$@" --lava "$lava_file"; out=/dev/null; }
	fixed=$(fix_cases "$flavor" carries)
	lacks=$(fix_cases "$flavor" lacks)
	# The guest learns which flavor it is meant to be (wgt_flavor), so a
	# case can check the running kernel against that claim, and which
	# known kernel bugs it has fixed (wgt_fixed).
	"$top/guest-image/boot.sh" --kernel "$(kernel_dir "$flavor")/$kimage" \
		--initrd "$initrd" --entry "$entry" --name "$run" \
		--append "wgt_flavor=$flavor${fixed:+ wgt_fixed=$fixed}${lacks:+ wgt_lacks=$lacks}${TIMEOUT_SCALE:+ wgt_timeout_scale=$TIMEOUT_SCALE}${boot_append:+ $boot_append}" --arch "$arch" \
		--timeout "$(guest_timeout "$entry")" "$@" > "$out" &
	# In the background and waited for: a TERM to this script is then
	# handled at once (bash runs traps only between foreground commands).
	wait $! || boot_rc=$?
}

# boot_pair ENTRY RUN_I FLAVOR_I ARGS_I RUN_R FLAVOR_R ARGS_R: boot an
# initiator and a responder guest joined by a virtual link (a unix socket
# in a private folder, guest-image/link.sh; never a host NIC); sets rc_i
# and rc_r.
boot_pair() {
	local entry=$1 run_i=$2 fl_i=$3 args_i=$4 run_r=$5 fl_r=$6 args_r=$7
	link_new
	# The responder listens; the initiator connects once the listening
	# socket exists.
	(boot "$run_r" "$fl_r" "$entry" --smp 1 --args "$args_r" \
		--qemu "$(link_netdev server 52:54:00:77:00:02)"
	 exit $boot_rc) &
	local pid_r=$!
	link_wait $pid_r
	boot "$run_i" "$fl_i" "$entry" --smp 1 --args "$args_i" \
		--qemu "$(link_netdev client 52:54:00:77:00:01)"
	rc_i=$boot_rc
	rc_r=0
	wait $pid_r || rc_r=$?
	link_done
}

# boot_two_guest A B: the two-guest suite's guests, initiator A and
# responder B, with fresh keys; sets run, run_b, rc_i and rc_r.
boot_two_guest() {
	local a=$1 b=$2 priv_a priv_b pub_a pub_b
	command -v wg > /dev/null || die "wg (wireguard-tools) is needed on the host for two-guest keys"
	priv_a=$(wg genkey)
	priv_b=$(wg genkey)
	pub_a=$(echo "$priv_a" | wg pubkey)
	pub_b=$(echo "$priv_b" | wg pubkey)
	run=two-guest-$a+$b-initiator-$stamp
	run_b=two-guest-$a+$b-responder-$stamp
	boot_pair two-guest "$run" "$a" "initiator,$priv_a,$pub_b" \
		"$run_b" "$b" "responder,$priv_b,$pub_a"
}

# boot_interop I R: the guest or guests of one interop cell; sets run (and
# run_b, with two guests), boot_rc or rc_i and rc_r.
boot_interop() {
	local a=$1 b=$2 ia=kernel ib=kernel host
	[ "$a" != go ] || ia=go
	[ "$b" != go ] || ib=go
	if interop_two_guests "$a" "$b"; then
		run=interop-$a+$b-initiator-$stamp
		run_b=interop-$a+$b-responder-$stamp
		boot_pair interop "$run" "$a" "initiator,$ia,$ib" "$run_b" "$b" "responder,$ib"
	else
		host=$(interop_host "$a" "$b")
		run=interop-$a+$b-$stamp
		boot "$run" "$host" interop --args "local,$ia,$ib"
	fi
}

# interop_host I R: the flavor a cell of one guest boots.
interop_host() {
	local host=$1
	[ "$host" != go ] || host=$2
	[ "$host" != go ] || host=$INTEROP_GO_KERNEL
	echo "$host"
}

# one_guest SUITE FLAVOR: the entry, boot_append and boot.sh arguments
# (boot_args) of a suite of one guest.  What a suite needs built first and
# could not be (the crypto-diff module) is prep_error: the guest is not
# booted, and its cases fail with that reason.
one_guest() {
	entry=$1 boot_append= boot_args=() prep_error=
	local cpio
	if [ "$1" = crypto-diff ]; then
		if cpio=$(ARCH=$arch WGT_HELD_KEY=$(cat "$(kernel_dir "$2")/key") \
			"$top/netns-tests/crypto-diff/build.sh" "$2"); then
			boot_args=(--extra "$cpio")
		else
			prep_error="the cryptodiff module or the host reference did not build (above)"
		fi
	fi
	! scenario_suite "$1" || [ -z "${CASES:-}" ] || boot_args=(--args "$CASES")
	if [ "$1" = timers ]; then
		# Virtual time: one vCPU (-icount runs every vCPU on one TCG
		# thread, and hung a two-vCPU guest at bring-up), 8 ns of guest
		# time per instruction (shift=3: a busy guest's clock runs at
		# about the host's pace), idle time skipped (sleep=off).  Never
		# KVM: its clock is the host's.  --stamp: boot.sh records when
		# each part of the verdict arrived, for vclock_note.
		boot_args=(--smp 1 --accel tcg --qemu "-icount shift=3,sleep=off" --stamp
			${CASES:+--args "$CASES"})
		# The kernel's tick rate, where its config tells it, bounds how
		# late a timer may fire (lib.sh timer_late_ms).
		local hz
		hz=$(sed -n 's/^CONFIG_HZ=\([0-9]*\)$/\1/p' "$(kernel_dir "$2")/config" 2> /dev/null || true)
		boot_append=${hz:+wgt_hz=$hz}
	fi
	[ "$1" != zinc-selftest ] || ! has_kunit "$2" || boot_append=kunit.enable=1
	if [ "$1" = zinc-selftest-relax ]; then
		entry=zinc-selftest boot_append=zinc.force_simd_relax=1
	fi
	if [ "$entry" = zinc-selftest ] && [ "${LONG_SELFTESTS:-0}" = 1 ]; then
		boot_append="${boot_append:+$boot_append }zinc_chacha20poly1305.selftest_sweep_all=1"
	fi
}

# boot_word I WORD: boot the guests of suite word number I; what the
# results need (run names, exit statuses, why a guest was not booted) goes
# to $outdir/word-I.rc, written last, for collect_word.  Run in a subshell
# of its own: a TERM stops its guests and removes its link.
boot_word() {
	local i=$1 flavor
	trap 'kill -TERM $(jobs -p) 2> /dev/null; link_done; exit 143' TERM
	split_word "$2"
	run="" run_b="" boot_rc=0 rc_i=0 rc_r=0 prep_error=""
	case "$suite" in
	two-guest) boot_two_guest "${flavors%%+*}" "${flavors#*+}" ;;
	interop) boot_interop "${flavors%%+*}" "${flavors#*+}" ;;
	*)
		flavor=$flavors
		run=$suite-$(label "$flavor")-$stamp
		one_guest "$suite" "$flavor"
		if [ -z "$prep_error" ]; then
			boot "$run" "$flavor" "$entry" "${boot_args[@]}"
		else
			printf '# not booted: %s\nnot ok 0 %s\n' "$prep_error" "$GUEST_CASE" > "$outdir/$run.ktap"
			boot_rc=1
		fi
		;;
	esac
	declare -p run run_b boot_rc rc_i rc_r prep_error > "$outdir/word-$i.tmp"
	mv "$outdir/word-$i.tmp" "$outdir/word-$i.rc"
}

# running: how many words started and not yet done.
running() {
	local i c=0
	for ((i = 0; i < next; i++)); do
		[ -e "$outdir/word-${order[i]}.rc" ] || [ "${order[i]}" -lt "$done_n" ] || c=$((c + 1))
	done
	echo $c
}

# schedule WORD...: the words' guests, run and collected.
# The words' guests run SUITE_JOBS words at once, each word's in a subshell
# (boot_word); the results are collected, and printed, in the words'
# order, each as soon as it and every word before it are done.  The whole
# netns suites (about 9 minutes each under TCG, the rest a minute or less)
# start first, so that the short words fill the other slots around them
# instead of one of them running on alone at the end.
schedule() {
	words=("$@")
	order=()
	for long in 1 0; do
		for i in "${!words[@]}"; do
			split_word "${words[i]}"
			is_long=0
			! scenario_suite "$suite" || [ -n "${CASES:-}" ] || is_long=1
			[ $is_long != $long ] || order+=("$i")
		done
	done
	word_pid=()
	next=0 done_n=0
	while [ $done_n -lt ${#words[@]} ]; do
		while [ $next -lt ${#words[@]} ] && [ "$(running)" -lt "$suite_jobs" ]; do
			# (Its stdout to stderr: the KTAP on stdout is collect's.)
			i=${order[next]}
			boot_word "$i" "${words[i]}" >&2 &
			word_pid[i]=$!
			next=$((next + 1))
		done
		if [ -z "${word_pid[done_n]:-}" ] ||
			{ [ ! -e "$outdir/word-$done_n.rc" ] && kill -0 "${word_pid[done_n]}" 2> /dev/null; }; then
			# (Not started yet, or still running.)  Waited for in the
			# background: a TERM is handled at once.
			sleep 1 &
			wait $! || true
			continue
		fi
		wait "${word_pid[done_n]}" || true
		[ -e "$outdir/word-$done_n.rc" ] ||
			die "${words[done_n]}: its guests could not be booted (the error above)"
		# shellcheck disable=SC1090 # boot_word's declare -p
		. "$outdir/word-$done_n.rc"
		rm -f "$outdir/word-$done_n.rc"
		collect_word "${words[done_n]}"
		done_n=$((done_n + 1))
	done
}
