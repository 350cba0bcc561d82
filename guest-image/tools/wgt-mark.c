// SPDX-License-Identifier: GPL-2.0
/*
 * wgt-mark: execute the marker instruction that bench/cost/wgt-insns.c
 * (a QEMU TCG plugin) watches for, so that the host learns how many
 * instructions this guest has executed so far. Without the plugin it is a
 * no-op.
 *
 *   wgt-mark         one mark; the host pairs marks in the order they come
 *   wgt-mark reply   for a network server (nc -ll -e): read one word from
 *                    stdin; "mark": mark, then answer "marked"; "ping":
 *                    answer "pong" without marking
 */
#include <stdio.h>
#include <string.h>

static int mark(void)
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

int main(int argc, char **argv)
{
	char word[16];

	if (argc == 1)
		return mark();
	if (argc != 2 || strcmp(argv[1], "reply")) {
		fputs("usage: wgt-mark [reply]\n", stderr);
		return 2;
	}
	if (!fgets(word, sizeof(word), stdin))
		return 1;
	word[strcspn(word, "\r\n")] = '\0';
	if (!strcmp(word, "ping")) {
		puts("pong");
		return 0;
	}
	if (strcmp(word, "mark"))
		return 2;
	if (mark())
		return 1;
	puts("marked");
	return 0;
}
