#!/bin/sh
# Which code carried the tunnel, asked of the running kernel: the ftrace
# function profiler counts calls to Zinc's and lib/crypto's entry points
# while a tunnel does a handshake and moves data, and the counts must match
# the flavor the guest was booted as (wgt_flavor):
#  - zinc: Zinc's in-place SG encrypt/decrypt ran once per data packet the
#    interfaces counted (tolerance below), Zinc's Curve25519 ran for the
#    handshake, lib/crypto's SG functions never ran, every lib/crypto-level
#    Curve25519 call came through Zinc, and the FPU was taken fewer times
#    than there were packets (one SIMD context per batch);
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

prof_filter $PROF_ZINC_FNS $PROF_LIB_FNS $fpu_fn
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
iperf_tcp a b 192.168.241.2 2
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
	if traceable $fpu_fn; then
		[ "$fpu" -lt $((z_enc + z_dec)) ] ||
			fail "FPU taken $fpu times for $((z_enc + z_dec)) packets: SIMD not amortised"
	fi
	pass "WireGuard's data and handshakes went through Zinc"
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
