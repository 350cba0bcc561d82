#!/bin/sh
# WireGuard's crypt workers on every CPU.  The guest must see all the CPUs
# QEMU gave it (boot.sh passes the count as wgt_smp: a kernel that finds
# only the boot CPU fails here), and during a four-stream transfer the
# function profiler's per-CPU counts must show both the encryption and
# the decryption of the data packets spread over at least two CPUs, as
# WireGuard's per-CPU workers do.  Zinc's and lib/crypto's SG functions
# are both counted, so the case holds on any flavor.
# timeout: 120
. "$(dirname "$0")/../lib.sh"

ncpu=$(grep -c '^processor' /proc/cpuinfo)
want=${wgt_smp:-}
[ -n "$want" ] || fail "wgt_smp is not set: the host did not say how many CPUs it gave the guest"
echo "the guest sees $ncpu CPUs; QEMU gave it $want"
[ "$ncpu" -ge "$want" ] || fail "the guest sees $ncpu of the $want CPUs QEMU gave it"
[ "$ncpu" -ge 2 ] || skip "booted with one CPU: nothing to spread over"
prof_available || fail "no function profiler in this kernel (CONFIG_FUNCTION_PROFILER)"

enc_fns="zinc_chacha20poly1305_encrypt_sg_inplace chacha20poly1305_encrypt_sg_inplace"
dec_fns="zinc_chacha20poly1305_decrypt_sg_inplace chacha20poly1305_decrypt_sg_inplace"
trap 'prof_stop; cleanup' EXIT
prof_filter $enc_fns $dec_fns

# cpu_hits CPU FN...: calls to the FNs counted on CPU.
cpu_hits() {
	local cpu=$1 f n=0
	shift
	for f in "$@"; do
		n=$((n + $(prof_hits_cpu "$cpu" "$f")))
	done
	echo $n
}

ns_add a
ns_add b
wg_pair a b
ping_all a 1 -W 5 192.168.241.2

prof_start
iperf_tcp a b 192.168.241.2 3 -P 4
prof_pause
mbit_positive

enc_total=0 dec_total=0
cpu=0
while [ $cpu -lt "$ncpu" ]; do
	eval "enc_$cpu=$(cpu_hits $cpu $enc_fns) dec_$cpu=$(cpu_hits $cpu $dec_fns)"
	eval "echo \"cpu$cpu: encrypt \$enc_$cpu decrypt \$dec_$cpu\""
	eval "enc_total=\$((enc_total + enc_$cpu)) dec_total=\$((dec_total + dec_$cpu))"
	cpu=$((cpu + 1))
done
[ "$enc_total" -gt 100 ] && [ "$dec_total" -gt 100 ] ||
	fail "too little traffic to judge ($enc_total encryptions, $dec_total decryptions counted)"

# busy_cpus WHAT TOTAL: CPUs that did at least a twentieth of WHAT.
busy_cpus() {
	local what=$1 total=$2 cpu=0 n=0 v
	while [ $cpu -lt "$ncpu" ]; do
		eval "v=\$${what}_$cpu"
		[ $((v * 20)) -lt "$total" ] || n=$((n + 1))
		cpu=$((cpu + 1))
	done
	echo $n
}
enc_cpus=$(busy_cpus enc "$enc_total")
dec_cpus=$(busy_cpus dec "$dec_total")
[ "$enc_cpus" -ge 2 ] || fail "encryption ran on $enc_cpus CPU(s) only, of $ncpu"
[ "$dec_cpus" -ge 2 ] || fail "decryption ran on $dec_cpus CPU(s) only, of $ncpu"
pass "encryption on $enc_cpus and decryption on $dec_cpus of $ncpu CPUs"
