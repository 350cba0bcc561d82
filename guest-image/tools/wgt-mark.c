// SPDX-License-Identifier: GPL-2.0
/*
 * wgt-mark: execute the marker instruction that bench/cost/wgt-insns.c
 * (a QEMU TCG plugin) watches for, so that the host learns how many
 * instructions this guest has executed so far. Without the plugin it is a
 * no-op.
 *
 *   wgt-mark     one mark; the host pairs marks in the order they come
 */
#include <stdio.h>

int main(void)
{
#if defined(__x86_64__) || defined(__i386__)
	/* xchg %bx,%bx: swaps a register with itself, so changes nothing. */
	__asm__ volatile(".byte 0x66, 0x87, 0xdb" ::: "memory");
	return 0;
#else
	fputs("wgt-mark: no marker instruction on this architecture\n", stderr);
	return 1;
#endif
}
