#!/bin/bash
# The kernel text ranges of WireGuard and its crypto, by object file, for
# the instruction-counting plugin (wgt-insns.c, ranges=FILE).
#
#   bench/cost/ranges.sh OBJDIR > FILE
#
# OBJDIR is a kernel build folder (kernel/build.sh's FLAVOR/obj) with
# System.map. Each object file of lib/crypto, lib/zinc, arch/x86/crypto and
# drivers/net/wireguard whose name says which primitive it is (all of
# WireGuard's but the ratelimiter, below) becomes one
# range of its .text: where its global symbols landed in System.map, less
# their offsets in the object. Objects are matched by file, not by symbol
# name, so static helpers (curve25519's field arithmetic, for one) count
# with their primitive. Output: "START END GROUP" lines, hex, sorted, with
# GROUP the index in GROUPS below (report.sh reads the same names).
#
# One more group, fpu, is x86's FPU section code, by function, not object
# (arch/x86/kernel/fpu/core.o holds much else): the begin and end of a
# kernel FPU section, the usability check every SIMD caller makes, the
# XSAVE of a user task's registers at begin and their restore on its way
# back to user space (what inline code in the scheduler's switch does is
# not a function of its own and is not counted). Its kernel_fpu_begin_mask
# line carries "entry", so the plugin counts the sections as well.
#
# Exit status 1, named, when OBJDIR has no System.map or no object of
# WireGuard (then no range file is better than a silently empty one).
set -e -o pipefail
export LC_ALL=C

prog=bench/cost/ranges.sh
die() { echo "$prog: $*" >&2; exit 1; }

# Keep in step with bench/report.sh.
GROUPS_=(chacha20 poly1305 chacha20poly1305 curve25519 blake2s wireguard fpu)
FPU_FUNCS=(kernel_fpu_begin_mask kernel_fpu_end irq_fpu_usable save_fpregs_to_fpstate
	restore_fpregs_from_fpstate fpregs_restore_userregs switch_fpu_return)

obj=${1:?usage: $prog OBJDIR}
map=$obj/System.map
[ -r "$map" ] || die "no System.map in '$obj' (a kernel build folder)"

group_of() {
	case "$1" in
	# The ratelimiter's code on the packet path runs only under load; its
	# garbage collector runs once a second over the whole table, so its
	# count follows wall time, not work (0.14M instructions a run).
	drivers/net/wireguard/ratelimiter.o) ;;
	drivers/net/wireguard/*) echo 5 ;;
	*/bench.o|*/debug.o|*selftest*) ;;
	*chacha20poly1305*) echo 2 ;;
	*chacha*) echo 0 ;;
	*poly1305*) echo 1 ;;
	*curve25519*) echo 3 ;;
	*blake2s*) echo 4 ;;
	esac
}

# text_range OBJECT: "START END" of its .text in the image, or nothing
# (not linked in, no global text symbol, or no .text).
text_range() {
	local o=$1 size sym off addr
	size=$(objdump -h "$o" | awk '$2 == ".text" && !n++ { print $3 }')
	[ -n "$size" ] && [ $((16#$size)) -gt 0 ] || return 0
	# One global symbol of .text is enough: globals are unique in System.map.
	read -r off sym < <(objdump -t "$o" |
		awk '$2 == "g" && $(NF - 2) == ".text" { print $1, $NF; exit }') || true
	[ -n "$sym" ] || return 0
	addr=$(awk -v s="$sym" '$3 == s && $2 == "T" { print $1; exit }' "$map")
	[ -n "$addr" ] || return 0
	printf '%016x %016x\n' $((16#$addr - 16#$off)) $((16#$addr - 16#$off + 16#$size))
}

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
n=0
for d in lib/crypto lib/zinc arch/x86/crypto drivers/net/wireguard; do
	[ -d "$obj/$d" ] || continue
	while read -r o; do
		g=$(group_of "${o#"$obj"/}")
		[ -n "$g" ] || continue
		r=$(text_range "$o")
		[ -n "$r" ] || continue
		echo "$r $g" >> "$tmp"
		n=$((n + 1))
	done < <(find "$obj/$d" -name '*.o' ! -name '*.mod.o' ! -name '.*' | sort)
done
grep -q ' 5$' "$tmp" || die "no WireGuard object in '$obj' linked into its image"
# Each FPU function: from its address to the next higher one in System.map
# (sorted by address). An architecture without them has no such group.
awk -v names="${FPU_FUNCS[*]}" '
	BEGIN { n = split(names, a, " "); for (i = 1; i <= n; i++) want[a[i]] = 1 }
	open != "" && $1 != open { print open, $1, 6 (name == "kernel_fpu_begin_mask" ? " entry" : ""); open = "" }
	($2 == "T" || $2 == "t") && ($3 in want) && !done[$3]++ { open = $1; name = $3 }
' "$map" | while read -r s e g flag; do
	printf '%016x %016x %s%s\n' $((16#$s)) $((16#$e)) "$g" "${flag:+ $flag}"
done >> "$tmp"
# Composite objects (wireguard.o, chacha-x86_64.o) hold their parts: keep
# the outermost range; ranges of two groups must not overlap.
sort "$tmp" | awk -v prog="$prog" '
	$1 < end { if ($2 > end || $3 != g) { print prog ": overlapping ranges of groups " g " and " $3 " at " $1 > "/dev/stderr"; exit 1 }; next }
	{ print; end = $2; g = $3 }'
