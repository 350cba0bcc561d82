#!/bin/sh
# Which code carried the tunnel, asked of the running kernel: the ftrace
# function profiler counts calls to Zinc's and lib/crypto's entry points
# while a tunnel does a handshake and moves data, and the counts must match
# the flavor the guest was booted as (wgt_flavor):
#  - zinc: Zinc's in-place SG encrypt/decrypt ran once per data packet the
#    interfaces counted (tolerance below), Zinc's Curve25519 ran for the
#    handshake, lib/crypto's SG functions never ran, every lib/crypto-level
#    Curve25519 call came through Zinc, and the FPU was taken fewer times
#    than half the packets (one SIMD context per batch, in both the
#    encrypt and the decrypt worker);
#    and, one level down on x86_64, the vector code did the bulk: Zinc
#    reached the x86 glue's held entry points, the generic C ChaCha20
#    block function ran about as often as there were packets (each
#    packet's Poly1305 key block, and the short ones), never per 64 bytes
#    of data, the generic Poly1305 blocks hardly ran, and Curve25519 ran
#    the BMI2/ADX code where the CPU has it, never the generic C;
#  - stock: the mirror image: lib/crypto did the work and Zinc is absent.
# The profiler only counts calls (no graph tracer), so it costs little.
# timeout: 150
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
pkts() {
	ip -n "$(nsname "$1")" -s link show wg0 |
		awk -v d="$2" '/^ *RX:/ { getline; rx = $2 } /^ *TX:/ { getline; tx = $2 }
			END { print (d == "rx" ? rx : tx) }'
}

ns_add a
ns_add b
wg_pair a b

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
	# The encrypt and decrypt workers each see half the packets: one of
	# them taking the FPU per packet alone reaches half the total, so
	# both must batch for the count to stay under it (here: 0.14).
	if traceable $fpu_fn; then
		[ $((fpu * 2)) -lt $((z_enc + z_dec)) ] ||
			fail "FPU taken $fpu times for $((z_enc + z_dec)) packets: SIMD not amortised in both directions"
	else
		fail "$fpu_fn cannot be traced: SIMD amortisation not judged"
	fi
	pass "WireGuard's data and handshakes went through Zinc"

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
