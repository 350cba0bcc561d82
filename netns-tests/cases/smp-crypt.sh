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

ns_add a
ns_add b
wg_pair a b
ping_all a 1 -W 5 192.168.241.2

prof_start
iperf_tcp a b 192.168.241.2 3 -P 4
prof_pause
mbit_positive

# One line per CPU: "CPU ENCRYPTIONS DECRYPTIONS".
cpu=0
while [ $cpu -lt "$ncpu" ]; do
	e=0 d=0
	for f in $enc_fns; do e=$((e + $(prof_hits_cpu $cpu $f))); done
	for f in $dec_fns; do d=$((d + $(prof_hits_cpu $cpu $f))); done
	echo "$cpu $e $d"
	cpu=$((cpu + 1))
done > /tmp/$ns_prefix.percpu
awk '{ print "cpu" $1 ": encrypt " $2 " decrypt " $3 }' /tmp/$ns_prefix.percpu
# Totals, and the CPUs that did at least a twentieth of each.
set -- $(awk '{ e[NR] = $2; d[NR] = $3; te += $2; td += $3 }
	END { for (i = 1; i <= NR; i++) { if (e[i] * 20 >= te) be++; if (d[i] * 20 >= td) bd++ }
		print te + 0, td + 0, be + 0, bd + 0 }' /tmp/$ns_prefix.percpu)
enc_total=$1 dec_total=$2 enc_cpus=$3 dec_cpus=$4
[ "$enc_total" -gt 100 ] && [ "$dec_total" -gt 100 ] ||
	fail "too little traffic to judge ($enc_total encryptions, $dec_total decryptions counted)"
[ "$enc_cpus" -ge 2 ] || fail "encryption ran on $enc_cpus CPU(s) only, of $ncpu"
[ "$dec_cpus" -ge 2 ] || fail "decryption ran on $dec_cpus CPU(s) only, of $ncpu"
pass "encryption on $enc_cpus and decryption on $dec_cpus of $ncpu CPUs"

# Nothing genuine was dropped on the way (lib.sh dropped_nothing): a
# message that failed authentication is invisible to the checks above.
dropped_nothing a b
