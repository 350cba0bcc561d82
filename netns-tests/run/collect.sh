# shellcheck shell=bash disable=SC2154 # the run's variables are run.sh's
# netns-tests/run.sh's collect part (sourced by it, never run alone).
# Collecting: each guest's KTAP read into the run's one KTAP document and
# its record (cases.tsv), with the counts, known failures and reproduce
# lines.

# guest_case RUN BOOT_RC: every guest's last case, appended to its KTAP.  It
# passes when init's check after the entry found the kernel log clean and
# no taint since boot (# wgt-health: ok), and the guest then shut down: the
# kernel reached its restart.  A guest that hangs or oopses in teardown, or
# whose kernel complained between cases, fails it.
GUEST_CASE="guest: kernel healthy, clean shutdown"
guest_case() {
	local run=$1 rc=$2 k=$outdir/$1.ktap console=$RESULTS_DIR/$1/console.log why=
	if [ "$rc" -ge 124 ]; then
		# What the kernel said as it died: the first lines of its
		# report, from the console (the port may have lost them).
		local excerpt
		excerpt=$(sed -n 's/\r$//; /BUG: \|Oops\|Kernel panic\|WARNING: \|RIP: \|soft lockup\|rcu: INFO/p' \
			"$console" 2> /dev/null | sed -n 1,6p | tr -d '\000' | sed 's/^/# console: /' || true)
		why="the guest died (boot.sh exit $rc)${excerpt:+$'\n'$excerpt}"
	elif grep -qx '# wgt-health: FAIL' "$k"; then
		why="the kernel log or taint flags show trouble (above)"
	elif ! grep -qx '# wgt-health: ok' "$k"; then
		why="init did not report the kernel's health"
	elif ! grep -q 'reboot: Restarting system' "$console" 2> /dev/null; then
		why="the guest did not restart cleanly after its last case ($console)"
	fi
	if [ -z "$why" ]; then
		echo "ok 0 $GUEST_CASE" >> "$k"
	else
		printf '# %s\nnot ok 0 %s\n' "$why" "$GUEST_CASE" >> "$k"
	fi
}

# Each result also goes to $outdir/cases.tsv, a line each, for the KCIDB
# report (netns-tests/kcidb): number, ok or not ok, the KTAP name, where
# (the test path's level), the case's own name, the directive, seconds
# (netns cases log them), the flavor of the kernel it ran on, the guest
# run, and notes: "KEY=VALUE" words, timeout_scale (the factor the guest
# stretched the case's waits, windows and timeout by: "# wgt-scale: N" in
# its diagnostics) and qemu_restarts (the guest's QEMU crashed and was
# booted again: guest-image/boot.sh's "# wgt-boot: " line).  where PATH
# FLAVOR RUN sets the path (under "wireguard.", e.g. netns or
# two-guest.initiator), flavor and run of the next results collected.
rec_path= rec_flavor= rec_run= rec_restarts=0 cur_word=
where() { rec_path=$1 rec_flavor=$2 rec_run=$3; }

# reproduce WORD NAME: the command that runs result NAME of suite word
# WORD again, alone: make check on the same kernel (series, tree or
# image) with the same knobs.  A scenario case runs on its own (its suite
# written SUITE=NAME:FLAVOR); a result of any other suite (a KUnit or
# crypto-diff case, an interop cell, a guest's health) with its whole
# word, the least that can run it.  The eleventh field of cases.tsv, and
# a "# reproduce: " line above each failure.
reproduce() {
	local word=$1 name=$2 s f k v cmd
	s=${word%%:*} f=${word#*:}
	s=${s%%=*}
	if scenario_suite "$s" && [ -r "$top/netns-tests/$(case_dir "$s")/$name.sh" ]; then
		word=$s=$name:$f
	fi
	cmd="make -C $top check CHECK_SUITES=$word"
	for k in ARCH ACCEL $kernel_knob_names BUILD_DIR TIMEOUT_SCALE SUITE_TIMEOUT INTEROP_GO_KERNEL; do
		v=${!k:-}
		case "$k=$v" in
		*=|ARCH=x86_64|BUILD_DIR="$top/build"|INTEROP_GO_KERNEL=zinc) continue ;;
		esac
		cmd="$cmd $k=$v"
	done
	echo "$cmd"
}

record() {
	local res=$1 name=$2 directive=$3 diag=$4 repro=${5:-} secs scale notes
	secs=$(printf '%s\n' "$diag" | awk -v p="# + $name: " '
		index($0, p) == 1 { s = substr($0, length(p) + 1); sub(/ s$/, "", s); if (s ~ /^[0-9]+$/) t = s }
		END { print t }')
	scale=$(printf '%s\n' "$diag" | sed -n 's/^# wgt-scale: \([0-9]*\) .*/\1/p' | tail -n 1)
	notes="qemu_restarts=$rec_restarts${scale:+ timeout_scale=$scale}"
	# (vclock_note's line, on virtual time.)
	notes="$notes$(printf '%s\n' "$diag" | sed -n 's/^# wgt-clock: \([0-9.]*\) s of guest time in \([0-9.]*\) s of wall time.*/ guest_seconds=\1 wall_seconds=\2/p' | tail -n 1)"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$res" "$prefix$name" \
		"$rec_path" "$name" "$(printf '%s' "${directive# \# }" | tr '\t' ' ')" "$secs" "$rec_flavor" "$rec_run" \
		"$notes" "$repro" >> "$outdir/cases.tsv"
}

# vclock_note RUN: in a guest on virtual time (timers), turn each case's
# "# wgt-vtime: S" (the seconds of the guest's clock it took) into
# "# wgt-clock: S s of guest time in W s of wall time (R guest seconds a
# wall second)", in RUN's KTAP.  W is the host's: the time between the
# verdict lines of the case before and of this one reaching the host
# (boot.sh --stamp, to 0.2 s).
vclock_note() {
	local v=$RESULTS_DIR/$1/verdict.log times=$RESULTS_DIR/$1/verdict.times
	[ -s "$v" ] && [ -s "$times" ] || return 0
	# Wall seconds of each case in the verdict, "INDEX SECONDS" lines.
	awk 'FNR == NR { t[++k] = $1; b[k] = $2; next }
		function wall_at(off,   i) {
			for (i = 1; i <= k; i++) if (b[i] >= off) return t[i]
			return t[k]
		}
		{ off += length($0) + 1 }
		/^1\.\.[0-9]+$/ && !started { prev = wall_at(off); started = 1 }
		/^(not )?ok [0-9]+ / && started {
			w = wall_at(off); printf "%d %.1f\n", ++c, w - prev; prev = w
		}' "$times" "$v" > "$outdir/$1.wall"
	awk 'FNR == NR { w[$1] = $2; next }
		/^# wgt-vtime: / {
			g = $3; c = n + 1
			if (c in w && w[c] > 0)
				printf "# wgt-clock: %s s of guest time in %s s of wall time (%.1f guest seconds a wall second)\n", g, w[c], g / w[c]
			else
				printf "# wgt-clock: %s s of guest time in %s s of wall time\n", g, (c in w ? w[c] : "?")
			next
		}
		/^(not )?ok [0-9]+ / { n++ }
		{ print }' "$outdir/$1.wall" "$outdir/$1.ktap" > "$outdir/$1.ktap.tmp"
	mv "$outdir/$1.ktap.tmp" "$outdir/$1.ktap"
	rm -f "$outdir/$1.wall"
}

# collect FILE PREFIX EXPECTED DIED [FLAVOR]: re-emit the guest KTAP in FILE
# under global numbers as "PREFIX name"; every name in EXPECTED (one a line)
# that the guest did not report fails with DIED as the reason.  With FLAVOR
# (netns suites), a case the guest reported as a known failure ("# TODO
# known failure: ...": the one assertion it names failed, nothing else
# did) is counted apart; every other "not ok" is a failure.
collect() {
	local file=$1 prefix=$2 expected=$3 died=$4 flavor=${5:-}
	local line res rest name directive diag= reported= stray= clock repro=
	rec_restarts=0
	while IFS= read -r line; do
		case "$line" in
		'# wgt-boot: '*)
			# boot.sh booted the guest again after QEMU crashed:
			# always said, passing or not.
			rec_restarts=$((rec_restarts + 1))
			emit "$line" ;;
		'# '*)
			diag="$diag${diag:+$'\n'}$line" ;;
		'ok '*|'not ok '*)
			res=${line%% [0-9]*}
			rest=${line#"$res "}
			rest=${rest#* }
			name=${rest%% \#*}
			directive=
			case "$rest" in *' # '*) directive=" # ${rest#* \# }" ;; esac
			n=$((n + 1))
			reported="$reported$name"$'\n'
			if [ "$res" = ok ]; then
				case "$directive" in
				*SKIP*) skipped=$((skipped + 1)) ;;
				*) passed=$((passed + 1)) ;;
				esac
				if [ "${V:-0}" = 1 ]; then
					[ -z "$diag" ] || emit "$diag"
				else
					# How much time a case on virtual time
					# gained (vclock_note): said when it passes too.
					clock=$(printf '%s\n' "$diag" | grep '^# wgt-clock: ' || true)
					[ -z "$clock" ] || emit "$clock"
				fi
			elif [ -n "$flavor" ] && [ "${directive# \# TODO known failure: }" != "$directive" ]; then
				# The one assertion the case names as a known failure
				# (lib.sh xfail, bug_shows); the guest reported it so
				# only when nothing else about the case failed.
				known=$((known + 1))
				case "$directive" in
				*'known failure: fix status unknown: '*) known_unknown=$((known_unknown + 1)) ;;
				esac
				[ -z "$diag" ] || emit "$diag"
			else
				failed=$((failed + 1))
				[ -z "$diag" ] || emit "$diag"
				repro=$(reproduce "$cur_word" "$name")
				emit "# reproduce: $repro"
			fi
			emit "$res $n $prefix$name$directive"
			record "$res" "$name" "$directive" "$diag" "$repro"
			repro=
			diag=
			;;
		'KTAP version '* | [0-9]*..[0-9]* | '') ;;
		*)
			# Anything else the guest printed (an entry's own error,
			# "No space left on device") is kept as a diagnostic.
			diag="$diag${diag:+$'\n'}# $line"
			stray="$stray${stray:+$'\n'}# $line" ;;
		esac
	done < "$file"
	[ -z "$diag" ] || emit "$diag"
	while IFS= read -r name; do
		[ -n "$name" ] || continue
		# Not 'printf | grep -q': grep -q may exit before printf is done,
		# and under pipefail the SIGPIPE reads as "not reported".
		if grep -qxF -- "$name" <<< "$reported"; then
			continue
		fi
		n=$((n + 1))
		failed=$((failed + 1))
		# What the guest said besides KTAP explains the first of them.
		[ -z "$stray" ] || emit "$stray"
		stray=
		repro=$(reproduce "$cur_word" "$name")
		emit "# reproduce: $repro"
		emit "not ok $n $prefix$name # not run: $died"
		record "not ok" "$name" " # not run: $died" "" "$repro"
	done <<< "$expected"
}

# died_msg BOOT_RC RUN: why a guest's missing cases are missing.
died_msg() {
	if [ "$1" -ge 124 ]; then
		echo "guest died (boot.sh exit $1, console: $RESULTS_DIR/$2/console.log)"
	else
		echo "guest did not report it (exit $1)"
	fi
}

# collect_two_guest A B: the two-guest suite's two guests' results.
collect_two_guest() {
	local a=$1 b=$2
	local prefix="$a+$b: two-guest:"
	guest_case "$run" "$rc_i"
	guest_case "$run_b" "$rc_r"
	where two-guest.initiator "$a" "$run"
	collect "$outdir/$run.ktap" "$prefix initiator ($a): " \
		"$(header_cases "$entries/two-guest" cases-initiator)" "$(died_msg "$rc_i" "$run")"
	where two-guest.responder "$b" "$run_b"
	collect "$outdir/$run_b.ktap" "$prefix responder ($b): " \
		"$(header_cases "$entries/two-guest" cases-responder)" "$(died_msg "$rc_r" "$run_b")"
}

# The interop matrix: cell_I_R is pass or fail for each cell that ran.
interop_names=
collect_interop() {
	local a=$1 b=$2 failed_before=$failed
	local prefix="interop: $a -> $b: "
	if interop_two_guests "$a" "$b"; then
		guest_case "$run" "$rc_i"
		guest_case "$run_b" "$rc_r"
		where "interop.$a-to-$b" "$a" "$run"
		collect "$outdir/$run.ktap" "$prefix" "$(header_cases "$entries/interop" cases)" \
			"$(died_msg "$rc_i" "$run")"
		where "interop.$a-to-$b.responder" "$b" "$run_b"
		collect "$outdir/$run_b.ktap" "${prefix}responder: " \
			"$(header_cases "$entries/interop" cases-responder)" "$(died_msg "$rc_r" "$run_b")"
	else
		guest_case "$run" "$boot_rc"
		where "interop.$a-to-$b" "$(interop_host "$a" "$b")" "$run"
		collect "$outdir/$run.ktap" "$prefix" "$(header_cases "$entries/interop" cases)" \
			"$(died_msg "$boot_rc" "$run")"
	fi
	local v=pass
	[ "$failed" = "$failed_before" ] || v=FAIL
	eval "cell_$(echo "$a" | tr - _)_$(echo "$b" | tr - _)=$v"
	for x in "$a" "$b"; do
		case " $interop_names " in *" $x "*) ;; *) interop_names="$interop_names $x" ;; esac
	done
}

# collect_word WORD: its results, from the variables word-I.rc set.
collect_word() {
	local flavor died
	cur_word=$1
	split_word "$1"
	case "$suite" in
	two-guest) collect_two_guest "${flavors%%+*}" "${flavors#*+}" ;;
	interop) collect_interop "${flavors%%+*}" "${flavors#*+}" ;;
	*)
		flavor=$flavors
		if [ -z "$prep_error" ]; then
			died=$(died_msg "$boot_rc" "$run")
			[ "$suite" != timers ] || vclock_note "$run"
			guest_case "$run" "$boot_rc"
		else
			died="not booted: $prep_error"
		fi
		where "$suite" "$(label "$flavor")" "$run"
		collect "$outdir/$run.ktap" "$(label "$flavor"): $suite: " "$(cases_of "$suite" "$flavor")" \
			"$died" "$(! scenario_suite "$suite" || echo "$flavor")"
		;;
	esac
}
