# shellcheck shell=bash disable=SC2154 # the run's variables are run.sh's
# netns-tests/run.sh's plan part (sourced by it, never run alone).
# The plan: which suites, on which kernels, with which cases; the checks of
# the words and knobs, and what the kernels are.

bad() { echo "$prog: $*" >&2; exit 2; }

is_flavor() { case " $known_flavors " in *" $1 "*) return 0 ;; esac; return 1; }

# case_dir SUITE: the folder of netns-tests holding a suite's scenario files.
case_dir() { case "$1" in timers | peer) echo "$1" ;; *) echo cases ;; esac; }

# scenario_suite SUITE: a suite of scenario files (netns-tests/DIR/*.sh,
# one case each, run by the netns entry).
scenario_suite() { case "$1" in netns | timers | peer) return 0 ;; esac; return 1; }

# The knobs that make a flavor's kernel the user's own, in this order:
# run.env's kernel_knobs (the history's and the page's name of the
# kernel) and each reproduce line carry the ones that are set.
kernel_knob_names="PATCHES KERNEL_TREE KERNEL KERNEL_CONFIG CONFIG_FRAGMENT SERIES FIXES"
# kernel_knobs: those set, as KNOB=VALUE words.
kernel_knobs() {
	local k out=
	for k in $kernel_knob_names; do
		[ -z "${!k:-}" ] || out="$out${out:+ }$k=${!k}"
	done
	echo "$out"
}

# split_word WORD: suite and flavors of a SUITE:FLAVOR word; a netns suite
# written netns=a,b names its own cases, which stand for CASES while that
# suite runs (cases_from: where the cases came from, for messages).
split_word() {
	suite=${1%%:*} flavors=${1#*:}
	CASES=$cases_given cases_from=CASES
	case "$suite" in
	netns=* | timers=* | peer=*)
		CASES=${suite#*=} suite=${suite%%=*} cases_from="'$1'"
		[ -n "$CASES" ] || bad "'$1': $suite= names no case"
		;;
	*=*) bad "'$1': only the netns, timers and peer suites take their own cases (netns=a,b:FLAVOR)" ;;
	# CASES names netns cases: a timers or peer word runs its own, or all.
	timers | peer) CASES= ;;
	esac
	return 0
}

kernel_name() {
	if [ "$arch" = x86_64 ]; then echo "$1"; else echo "$1-$arch"; fi
}

# kernel_dir FLAVOR: the held copy once the run holds it, else the build's.
kernel_dir() {
	local n
	n=$(kernel_name "$1")
	if [ -n "$held" ] && [ -d "$held/$n" ]; then
		echo "$held/$n"
	else
		echo "$kroot/$n"
	fi
}

# hold_kernel FLAVOR: this run holds FLAVOR's kernel from its plan to its
# last report, so a build in the same BUILD_DIR meanwhile (another make)
# cannot change what it boots or what its results name.  Under the
# flavor's build lock (shared: kernel/build.sh holds it for a whole build,
# so a build under way is waited for), the image and modules are hard
# links (kernel/build.sh replaces them by rename, leaving these as they
# are) and the small files (config, key, patches, series, source, ...)
# are copied, into $outdir/kernel; kernel_dir then reads them there.
hold_kernel() {
	local n src dst f
	n=$(kernel_name "$1")
	src=$kroot/$n dst=$outdir/kernel/$n
	[ -d "$dst" ] && return 0
	mkdir -p "$dst.tmp"
	if ! flock -s -n 3 3> "$kroot/.$n.lock"; then
		echo "$prog: $1's kernel is being built; waiting for that build" >&2
	fi
	(
		flock -s 3
		[ -r "$src/key" ] || die "$1's kernel in $src is incomplete (no key): rebuild it (make kernel FLAVOR=$1)"
		for f in "$src"/*; do
			[ -f "$f" ] || continue
			case "${f##*/}" in
			*.log | *.new) ;;
			"$kimage" | modules.cpio.gz) ln "$f" "$dst.tmp/" 2> /dev/null || cp "$f" "$dst.tmp/" ;;
			*) cp "$f" "$dst.tmp/" ;;
			esac
		done
	) 3> "$kroot/.$n.lock"
	mv "$dst.tmp" "$dst"
	held=$outdir/kernel
}

# What a case is named after: the flavor, and a foreign architecture.
label() {
	if [ "$arch" = x86_64 ]; then echo "$1"; else echo "$1-$arch"; fi
}

# header_cases FILE TAG: the '|'-separated list on FILE's '# TAG: ' line.
header_cases() { sed -n "s/^# $2: //p" "$1" | tr '|' '\n'; }

# has_kunit FLAVOR: FLAVOR's kernel has Zinc's KUnit suites (its primitives
# built in, with ZINC_KUNIT_TEST: wg-patches 0019).  Its zinc-selftest guest
# then boots with kunit.enable=1 and reports each KUnit case too.
has_kunit() {
	local config
	config=$(kernel_dir "$1")/config
	grep -qx 'CONFIG_ZINC_KUNIT_TEST=y' "$config" 2> /dev/null &&
		grep -qx 'CONFIG_ZINC_CHACHA20=y' "$config"
}

# kunit_cases FLAVOR: the cases of Zinc's KUnit suites in FLAVOR's kernel,
# "zinc-PRIM: PART" a line, read from the source it was built from (each
# "ZINC_KUNIT_CASE(prim, part)," in lib/zinc: wg-patches 0019), so a case
# a patch adds is planned, and the guest reports what the kernel ran,
# without a list to edit.
kunit_cases() {
	local d src
	d=$(kernel_dir "$1")
	src=$(sed -n 's/^tree=//p' "$d/source" 2> /dev/null)
	[ -n "$src" ] || src=$BUILD_DIR/kernel/src/$(cat "$d/src-key" 2> /dev/null)
	[ -d "$src/lib/zinc" ] ||
		die "$1: no lib/zinc in $src, the source its kernel was built from: rebuild it (make kernel FLAVOR=$1)"
	find "$src/lib/zinc" -name '*.c' | sort | xargs grep -hE '^[[:space:]]*ZINC_KUNIT_CASE\([a-z0-9_]+, *[a-z0-9_]+\),' |
		sed -E 's/^[[:space:]]*ZINC_KUNIT_CASE\(([a-z0-9_]+), *([a-z0-9_]+)\),.*/zinc-\1: \2/'
}

# has_zinc FLAVOR: FLAVOR's kernel has every Zinc primitive (built in or
# as modules) that the crypto-diff module asks for before it runs Zinc
# beside lib/crypto: the CONFIG_ZINC_* symbols of its CD_HAVE_ZINC, read
# from the module's source so that the two cannot disagree.
has_zinc() {
	local config sym syms
	config=$(kernel_dir "$1")/config
	syms=$(sed -n '/^#define CD_HAVE_ZINC/,/[^\\]$/p' "$top/netns-tests/crypto-diff/cryptodiff.c" |
		grep -o 'CONFIG_ZINC_[A-Z0-9_]*') ||
		die "no CONFIG_ZINC_* symbols in cryptodiff.c's CD_HAVE_ZINC"
	for sym in $syms; do
		grep -qE "^$sym=[ym]\$" "$config" 2> /dev/null || return 1
	done
}

# cases_of SUITE FLAVOR: the case names the suite will report, one a line.
cases_of() {
	case "$1" in
	netns | timers | peer)
		if [ -n "${CASES:-}" ]; then
			echo "$CASES" | tr ',' '\n'
		else
			for f in "$top/netns-tests/$(case_dir "$1")"/*.sh; do basename "$f" .sh; done
		fi
		# The debug flavor's kmemleak scan after the last case.
		case "$2" in *-debug) echo kmemleak ;; esac
		;;
	zinc-selftest)
		header_cases "$entries/zinc-selftest" cases
		# (exit: bash runs a command substitution without set -e.)
		! has_kunit "$2" || kunit_cases "$2" | sed 's/^/kunit: /' || exit 1
		;;
	zinc-selftest-relax)
		header_cases "$entries/zinc-selftest" cases
		header_cases "$entries/zinc-selftest" cases-relax
		;;
	crypto-diff)
		header_cases "$entries/crypto-diff" cases-lib
		! has_zinc "$2" || header_cases "$entries/crypto-diff" cases-zinc
		header_cases "$entries/crypto-diff" cases-end
		;;
	two-guest)
		header_cases "$entries/two-guest" cases-initiator | sed 's/^/initiator: /'
		header_cases "$entries/two-guest" cases-responder | sed 's/^/responder: /'
		;;
	interop)
		header_cases "$entries/interop" cases
		if interop_two_guests "${2%%+*}" "${2#*+}"; then
			header_cases "$entries/interop" cases-responder | sed 's/^/responder: /'
		fi
		;;
	*) bad "unknown suite '$1' (netns, timers, peer, zinc-selftest, zinc-selftest-relax, crypto-diff, two-guest, interop)" ;;
	esac
	# Each guest's own case (guest_case).
	case "$1" in
	two-guest) printf '%s\n' "initiator: $GUEST_CASE" "responder: $GUEST_CASE" ;;
	interop)
		echo "$GUEST_CASE"
		if interop_two_guests "${2%%+*}" "${2#*+}"; then
			echo "responder: $GUEST_CASE"
		fi
		;;
	*) echo "$GUEST_CASE" ;;
	esac
}

# interop_two_guests I R: the cell needs a guest each (two kernel flavors).
interop_two_guests() { [ "$1" != go ] && [ "$2" != go ] && [ "$1" != "$2" ]; }

need_kernel() {
	local dir
	dir=$(kernel_dir "$1")
	if [ "$arch" = x86_64 ]; then
		[ -r "$dir/$kimage" ] ||
			die "no $1 kernel in $dir: run 'make kernel FLAVOR=$1'"
	else
		[ -r "$dir/$kimage" ] ||
			die "no $1 kernel in $dir: run 'make kernel FLAVOR=$1 ARCH=$arch'"
	fi
}

# case_fix CASE: the kernel fix netns case CASE names in its '# fixed-by:
# SUBJECT' line (the fix's patch subject), or nothing.  carries_fix FLAVOR
# SUBJECT: FLAVOR's kernel has that patch (kernel/build.sh lists its
# patches in FLAVOR/patches).
case_fix() {
	local d
	for d in $scenario_dirs; do cat "$top/netns-tests/$d/$1.sh" 2> /dev/null || true; done |
		sed -n 's/^# fixed-by: //p'
}

carries_fix() { grep -qxF -- "$2" "$(kernel_dir "$1")/patches" 2> /dev/null; }

# fix_known FLAVOR: whether a fix can be told to be in FLAVOR's kernel or
# not: only for one built from linux-source-6.1 and a series (its source
# names the tarball).  A KERNEL= image or a KERNEL_TREE build has no patch
# list to read: its cases say "fix status unknown" (lib.sh bug_shows).
fix_known() { grep -q '^tarball=' "$(kernel_dir "$1")/source" 2> /dev/null; }

# fix_cases FLAVOR carries|lacks: the netns cases whose fix ('# fixed-by:')
# FLAVOR's kernel carries, or is known to lack, comma-separated: the
# guest's wgt_fixed (with which other cases also hold a fixed kernel to
# tighter bounds, lib.sh kernel_fixed) and wgt_lacks.  A kernel whose
# patch list cannot be told (fix_known) lacks nothing known: a case in
# neither list runs on a kernel whose fix status is unknown.
fix_cases() {
	local d f c fix list=
	[ "$2" = carries ] || fix_known "$1" || return 0
	for d in $scenario_dirs; do for f in "$top/netns-tests/$d"/*.sh; do
		c=$(basename "$f" .sh)
		fix=$(case_fix "$c")
		[ -n "$fix" ] || continue
		if carries_fix "$1" "$fix"; then
			[ "$2" = carries ] || continue
		else
			[ "$2" = lacks ] || continue
		fi
		list="$list${list:+,}$c"
	done; done
	echo "$list"
}

# kernel_desc FLAVOR: what was tested, from what kernel/build.sh recorded:
# the kernel's source, patch count and last patch (the user's, when
# PATCHES= added any), its key and folder.
kernel_desc() {
	local d img t src np
	d=$(kernel_dir "$1")
	# (A kernel built before kernel/build.sh recorded its source has
	# none: it is named by its patch count alone.)
	img=$(sed -n 's/^image=//p' "$d/source" 2> /dev/null || true)
	if [ -n "$img" ]; then
		echo "the prebuilt $img (key $(cat "$d/key"), $d)"
		return
	fi
	t=$(sed -n 's/^tree=//p' "$d/source" 2> /dev/null || true)
	if [ -n "$t" ]; then
		echo "the tree $t at $(sed -n 's/^describe=//p' "$d/source") (key $(cat "$d/key"), $d)"
		return
	fi
	src=$(sed -n 's/^package=//p' "$d/source" 2> /dev/null || true)
	np=$(grep -c . "$d/patches" 2> /dev/null || true)
	echo "${src:-linux-source-6.1} + ${np:-0} patches$([ "${np:-0}" = 0 ] || echo ", the last: '$(tail -n 1 "$d/patches")'") (key $(cat "$d/key" 2> /dev/null || echo unknown), $d)"
}

# plan WORD...: each SUITE:FLAVOR word checked, its kernels found (and held),
# its cases planned: total, all_kernels.
plan() {
	total=0 all_kernels=
	seen=""
	for sf in "$@"; do
		[ "${sf%%:*}" != "$sf" ] || bad "'$sf' is not SUITE:FLAVOR"
		split_word "$sf"
		# (A word's guests are named after its suite and flavors, and words
		# run side by side.)
		# (two-guest:F is two-guest:F+F.)
		k=$suite:$flavors
		[ "$suite" != two-guest ] || k=$suite:${flavors%%+*}+${flavors#*+}
		case "$seen" in *" $k "*) bad "'$sf': suite $suite on $flavors is named twice" ;; esac
		seen="$seen $k "
		[ "$arch" = x86_64 ] || [ "${suite%-relax}" = zinc-selftest ] || [ "$suite" = crypto-diff ] ||
			bad "suite '$suite' runs on x86_64 only (ARCH=$arch guests carry only zinc-selftest and crypto-diff)"
		case "$suite:$flavors" in
		*:*+*+* | *:+* | *:*+) bad "'$sf': one flavor, or two joined by one '+'" ;;
		interop:*+* | two-guest:*) ;;
		interop:*) bad "'$sf': interop cells are interop:INITIATOR+RESPONDER" ;;
		*:*+*) bad "'$sf': suite '$suite' boots one flavor" ;;
		esac
		kernels=
		for f in $(echo "$flavors" | tr '+' ' '); do
			if [ "$suite" = interop ] && [ "$f" = go ]; then
				continue
			fi
			is_flavor "$f" || bad "'$sf': unknown flavor '$f' (flavors: $known_flavors; interop also takes go)"
			kernels="$kernels $f"
		done
		[ "$suite:$flavors" != interop:go+go ] || kernels=$INTEROP_GO_KERNEL
		all_kernels="$all_kernels $kernels"
		if [ $check_only = 0 ]; then
			for f in $kernels; do
				need_kernel "$f"
				[ -n "${LAVA_BOOTS:-}" ] || hold_kernel "$f"
			done
		fi
		if scenario_suite "$suite" && [ -n "${CASES:-}" ]; then
			for c in $(echo "$CASES" | tr , " "); do
				case "$c" in
				*[!a-z0-9-]*) bad "$cases_from names '$c', which is not a case name" ;;
				esac
				[ -r "$top/netns-tests/$(case_dir "$suite")/$c.sh" ] ||
					bad "$cases_from names '$c', which is not a file in netns-tests/$(case_dir "$suite")"
			done
		fi
		# (Into a variable first: a plan that cannot be made stops the run.)
		planned=$(cases_of "$suite" "$flavors")
		total=$((total + $(printf "%s\n" "$planned" | { grep -c . || true; })))
	done
}
