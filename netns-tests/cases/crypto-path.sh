#!/bin/sh
# Which code carried the tunnel, asked of the running kernel: the ftrace
# function profiler counts calls to Zinc's and lib/crypto's entry points
# while a tunnel does a handshake and moves data, and the counts must match
# the flavor the guest was booted as (wgt_flavor):
#  - zinc: Zinc's in-place SG encrypt/decrypt ran once per data packet the
#    interfaces counted (tolerance below), Zinc's Curve25519 ran for the
#    handshake, lib/crypto's SG functions never ran, every lib/crypto-level
#    Curve25519 call came through Zinc, and each crypt worker took the FPU
#    once per batch of packets, not per packet (a second traffic run under
#    the function tracer: simd_batches below);
#    and, one level down on x86_64, the vector code did the bulk: Zinc
#    reached the x86 glue's held entry points, the generic C ChaCha20
#    block function ran about as often as there were packets (each
#    packet's Poly1305 key block, and the short ones), never per 64 bytes
#    of data, the generic Poly1305 blocks hardly ran, and Curve25519 ran
#    the BMI2/ADX code where the CPU has it, never the generic C;
#  - stock: the mirror image: lib/crypto did the work and Zinc is absent.
# The profiler only counts calls (no graph tracer), so it costs little.
# timeout: 210
. "$(dirname "$0")/../lib.sh"

prof_available || fail "no function profiler in this kernel (CONFIG_FUNCTION_PROFILER)"
flavor=${wgt_flavor:-}
[ -n "$flavor" ] || fail "wgt_flavor is not set: the host did not say what this kernel claims to be"

fpu_fn=$PROF_FPU_FN
traceable() { prof_traceable "$@"; }
trap 'prof_stop; cleanup' EXIT

prof_filter $PROF_ZINC_FNS $PROF_LIB_FNS $fpu_fn $PROF_IMPL_FNS
hits() { prof_hits "$@"; }

# pkts NS DIR: packets wg0 in NS counted, DIR rx or tx.
pkts() { dev_stat "$1" wg0 "$2"_packets; }

ns_add a
ns_add b
wg_pair a b

# The kernel's first TCP connect fills a 256 KiB port-selection table from
# the RNG (__inet_hash_connect's net_get_random_once): 4096 generic ChaCha20
# blocks, which would count against the check of the generic code below
# on a slow (debug) kernel, whose transfer has few packets.  One connect
# on loopback, refused and away from the tunnel, does it first.
on a nc -w 2 127.0.0.1 9 < /dev/null > /dev/null 2>&1 || true

prof_start
on a ping -c 20 -i 0.05 -W 2 192.168.241.2 > /dev/null || fail "ping a -> b"
# A repeating payload: iperf3 otherwise fills its buffers from
# /dev/urandom, thousands of generic ChaCha20 blocks in the kernel's RNG
# that would count against the check of the generic code below (on a slow
# run with few packets, more than the packets' own).
iperf_tcp a b 192.168.241.2 2 --repeating-payload
on b ping -c 10 -i 0.05 -W 2 192.168.241.1 > /dev/null || fail "ping b -> a"
prof_pause

tx=$(($(pkts a tx) + $(pkts b tx)))
rx=$(($(pkts a rx) + $(pkts b rx)))
z_enc=$(hits zinc_chacha20poly1305_encrypt_sg_inplace)
z_dec=$(hits zinc_chacha20poly1305_decrypt_sg_inplace)
z_dh=$(($(hits zinc_curve25519) + $(hits zinc_curve25519_generate_public)))
l_enc=$(hits chacha20poly1305_encrypt_sg_inplace)
l_dec=$(hits chacha20poly1305_decrypt_sg_inplace)
l_dh=$(($(hits curve25519_arch) + $(hits curve25519_base_arch) + $(hits curve25519_generic)))
fpu=$(hits $fpu_fn)
echo "flavor $flavor: wg0 packets tx $tx rx $rx"
echo "zinc: encrypt_sg $z_enc decrypt_sg $z_dec curve25519 $z_dh"
echo "lib/crypto: encrypt_sg $l_enc decrypt_sg $l_dec curve25519 $l_dh"
echo "kernel_fpu_begin: $fpu"

[ "$tx" -gt 100 ] || fail "too little traffic to judge ($tx packets sent)"

# SIMD amortisation, judged per batch of each crypt worker.  A worker takes
# up to WG_CRYPT_BATCH ring entries at once (ptr_ring_consume_batched_bh(),
# whose spin_lock_bh() is the batch's first event on the worker's task) and
# crypts them under one SIMD context: the first packet that needs the FPU
# takes it, the next ones find it held, and it is given back at the end of
# the batch, or between packets only when simd_relax() sees a reschedule
# due (need_resched(), on a preemptible kernel).  So within a batch the FPU
# is never given back and taken again while no reschedule is due.  A worker
# that takes it per packet does exactly that at every packet.  (Short
# packets, e.g. TCP acks, take no FPU at all.)  Totals over all packets
# cannot tell the two apart: on a slow kernel whose workers find one packet
# at a time, a batched worker takes the FPU per packet too.  The function
# tracer keeps the order of calls per task, and whether a reschedule was
# due at each, which the profiler's counts do not.
#
# simd_trace SECONDS: trace a transfer of SECONDS; SIMD_STATS gets the
# figures below (FTR_LOST the events the buffer dropped).
simd_trace() {
	local trace=/tmp/$ns_prefix.trace
	ftr_record "$trace" "_raw_spin_lock_bh zinc_chacha20poly1305_encrypt_sg_inplace
		zinc_chacha20poly1305_decrypt_sg_inplace $fpu_fn kernel_fpu_end" \
		iperf_tcp a b 192.168.241.2 "$1" --repeating-payload
	# Per direction: batches; those where several packets used the FPU,
	# their packets and FPU sections; the FPU given back and taken again
	# within a batch, and how often with no reschedule due.  Then the
	# en/decryptions outside any batch, of all.
	SIMD_STATS=$(awk -v fpu="$fpu_fn" -v bc="$FTR_BATCH_CALLER" '
		function close_batch(p, d) {
			d = dir[p]
			if (d == "") return
			b[d]++
			if (used[p] > 1) { m[d]++; mu[d] += used[p]; ms[d] += sec[p] }
			dir[p] = ""
		}
		# $1 task, $2 task context, $3 reschedule due, $4 function, $5 caller.
		# A softirq on the worker task is not the worker.
		$2 != 1 { if ($4 ~ /^zinc_/) { all++; out++ }; next }
		$4 == "_raw_spin_lock_bh" {
			if ($5 ~ bc) {
				close_batch($1)
				dir[$1] = "?"; used[$1] = sec[$1] = cur[$1] = 0; rel[$1] = ""
			}
			next
		}
		$4 ~ /^zinc_chacha20poly1305_(en|de)crypt_sg_inplace$/ {
			all++
			d = $4 ~ /encrypt/ ? "enc" : "dec"
			if (dir[$1] == "" || (dir[$1] != "?" && dir[$1] != d)) { out++; next }
			dir[$1] = d; cur[$1] = 0
			if (held[$1]) { used[$1]++; cur[$1] = 1 }
			next
		}
		$4 == fpu {
			held[$1] = 1
			if (dir[$1] == "") next
			sec[$1]++
			if (!cur[$1]) { used[$1]++; cur[$1] = 1 }
			# Given back earlier in this batch, taken again now.
			if (rel[$1] != "" && dir[$1] != "?") {
				again[dir[$1]]++
				if (rel[$1] == 0) unforced[dir[$1]]++
			}
			rel[$1] = ""
			next
		}
		$4 == "kernel_fpu_end" { held[$1] = 0; if (dir[$1] != "") rel[$1] = $3 }
		END {
			for (p in dir) close_batch(p)
			printf "%d %d %d %d %d %d %d %d %d %d %d %d %d %d\n",
				b["enc"], m["enc"], mu["enc"], ms["enc"], again["enc"], unforced["enc"],
				b["dec"], m["dec"], mu["dec"], ms["dec"], again["dec"], unforced["dec"], out, all
		}' "$trace")
}

# simd_batches: trace, then judge each direction.
simd_batches() {
	local secs
	prof_stop
	trap 'ftr_reset; cleanup' EXIT
	# A slow kernel (a debug one) may give no batch of several packets
	# in a second: a longer transfer then, before anything is judged.
	for secs in 1 5; do
		simd_trace $secs
		set -- $SIMD_STATS
		[ $# = 14 ] || fail "the trace could not be read"
		echo "traced $secs s of TCP (events lost: $FTR_LOST), per crypt worker:"
		echo "  encrypt: $1 batches; in the $2 where several packets used the FPU: $3 packets, $4 FPU sections;"
		echo "           FPU given back and taken again within a batch $5 times, $6 of them with no reschedule due"
		echo "  decrypt: $7 batches; in the $8 where several packets used the FPU: $9 packets, ${10} FPU sections;"
		echo "           FPU given back and taken again within a batch ${11} times, ${12} of them with no reschedule due"
		echo "  en/decryptions outside a worker's batch: ${13} of ${14}"
		[ "$2" -lt 1 ] || [ "$8" -lt 1 ] || break
	done
	local eb=$1 em=$2 eu=$3 es=$4 ef=$6 db=$7 dm=$8 du=$9 ds=${10} df=${12} out=${13} all=${14}
	[ $((eb + db)) -gt 0 ] ||
		fail "no crypt worker batch in the trace: its start (spin_lock_bh called from the worker) was not seen"
	[ $((out * 10)) -le "$all" ] ||
		fail "$out of $all en/decryptions ran outside a worker's batch: the trace does not show the batches"
	[ "$em" -ge 1 ] && [ "$dm" -ge 1 ] ||
		fail "too few batches where several packets used the FPU to judge ($em encrypt, $dm decrypt)"
	[ "$ef" = 0 ] ||
		fail "the encrypt worker gave the FPU back and took it again $ef times within a batch with no reschedule due ($es sections for $eu packets): not once per batch"
	[ "$df" = 0 ] ||
		fail "the decrypt worker gave the FPU back and took it again $df times within a batch with no reschedule due ($ds sections for $du packets): not once per batch"
	pass "each crypt worker took the FPU once per batch, giving it back only for a due reschedule"
}

# Every packet the interfaces counted was encrypted once and decrypted once;
# handshake and keepalive messages add a few calls, retransmitted packets
# none: allow 5% and 20 calls either way.
near() { # near CALLS PACKETS
	[ "$1" -ge $(($2 * 95 / 100 - 20)) ] && [ "$1" -le $(($2 * 105 / 100 + 20)) ]
}

case "$flavor" in
zinc*)
	near "$z_enc" "$tx" || fail "Zinc encrypt_sg ran $z_enc times for $tx packets sent"
	near "$z_dec" "$rx" || fail "Zinc decrypt_sg ran $z_dec times for $rx packets received"
	[ "$l_enc" = 0 ] && [ "$l_dec" = 0 ] ||
		fail "lib/crypto's SG ChaCha20Poly1305 ran ($l_enc/$l_dec) on a zinc kernel"
	[ "$z_dh" -ge 2 ] || fail "Zinc's Curve25519 did not run for the handshake ($z_dh calls)"
	[ "$l_dh" -le "$z_dh" ] ||
		fail "lib/crypto-level Curve25519 ran $l_dh times, more than through Zinc ($z_dh)"
	pass "WireGuard's data and handshakes went through Zinc"

	simd_batches

	[ "$(uname -m)" = x86_64 ] || exit 0
	# A check that a function did not run means nothing if it cannot
	# be traced.
	# The generic C first: it names the defect (a build that fell back
	# to it) even where the x86 entry points below do not exist.
	for f in chacha_block_generic poly1305_core_blocks; do
		traceable "$f" || fail "$f cannot be traced: the implementation checks would prove nothing"
	done
	gen_c=$(hits chacha_block_generic) gen_p=$(hits poly1305_core_blocks)
	pk=$((tx + rx))
	echo "generic C: chacha_block_generic $gen_c poly1305_core_blocks $gen_p (for $pk packets)"
	# Generic ChaCha20 for a full-size packet is 23 blocks; one key block
	# each, plus a data block for the short ones (TCP acks), is at most 3;
	# 400 more for the rest of the kernel (its RNG).
	[ "$gen_c" -le $((pk * 3 + 400)) ] ||
		fail "generic ChaCha20 ran $gen_c blocks for $pk packets: the data was not encrypted by the vector code"
	[ "$gen_p" -le $((pk / 10 + 20)) ] ||
		fail "generic Poly1305 ran $gen_p times for $pk packets: the x86 Poly1305 was not used"
	for f in chacha_crypt_held poly1305_update_held curve25519_arch curve25519_generic; do
		traceable "$f" || fail "$f cannot be traced: the implementation checks would prove nothing"
	done
	held_c=$(hits chacha_crypt_held) held_p=$(hits poly1305_update_held)
	echo "x86 glue: chacha_crypt_held $held_c poly1305_update_held $held_p"
	[ "$held_c" -ge $((pk * 95 / 100 - 20)) ] ||
		fail "chacha_crypt_held ran $held_c times for $pk packets: Zinc's ChaCha20 did not reach the x86 code"
	[ "$held_p" -ge $((pk * 95 / 100 - 20)) ] ||
		fail "poly1305_update_held ran $held_p times for $pk packets: Zinc's Poly1305 did not reach the x86 code"
	if grep -qw bmi2 /proc/cpuinfo && grep -qw adx /proc/cpuinfo; then
		[ "$(hits curve25519_generic)" = 0 ] ||
			fail "generic Curve25519 ran $(hits curve25519_generic) times on a CPU with BMI2/ADX"
		[ "$(hits curve25519_arch)" -ge 1 ] ||
			fail "the x86 Curve25519 (BMI2/ADX) did not run for the handshake"
		pass "the vector ChaCha20 and Poly1305 and the BMI2/ADX Curve25519 carried the tunnel"
	else
		pass "the vector ChaCha20 and Poly1305 carried the tunnel (no BMI2/ADX: Curve25519 not judged)"
	fi
	;;
stock*)
	grep -q ' zinc_chacha20poly1305_encrypt_sg_inplace$' /proc/kallsyms &&
		fail "a stock kernel carries Zinc"
	near "$l_enc" "$tx" || fail "lib/crypto encrypt_sg ran $l_enc times for $tx packets sent"
	near "$l_dec" "$rx" || fail "lib/crypto decrypt_sg ran $l_dec times for $rx packets received"
	[ "$l_dh" -ge 2 ] || fail "lib/crypto's Curve25519 did not run for the handshake"
	pass "WireGuard's data and handshakes went through lib/crypto"
	;;
*)
	skip "no expectations for flavor '$flavor'"
	;;
esac
