// SPDX-License-Identifier: GPL-2.0
/*
 * init.c's LAVA lines, off the guest (netns-tests/lava/format-check.sh):
 * init.c is compiled in with its main() renamed, and stdin goes to its
 * lava_feed() in reads of the sizes given as arguments, in turn, so that
 * lines split across reads are covered as well as whole ones.
 */
#define main init_main
#include "../../guest-image/init.c"
#undef main

int main(int argc, char **argv)
{
	static char buf[1 << 16];
	size_t len = fread(buf, 1, sizeof(buf), stdin), off = 0, n;
	int i = 1;

	console_fd = 1;
	while (off < len) {
		n = argc > 1 ? strtoul(argv[i], NULL, 0) : len;
		if (!n || n > len - off)
			n = len - off;
		lava_feed(buf + off, n);
		off += n;
		if (++i >= argc)
			i = 1;
	}
	return 0;
}
