// SPDX-License-Identifier: GPL-2.0
/*
 * The zinc-selftest entry for guests without a shell (arm64, arm): the same
 * report as guest-image/entry/zinc-selftest, as a static program.
 *
 * Reads the kernel log (syslog(2), SYSLOG_ACTION_READ_ALL) and prints KTAP,
 * one case per primitive: ok only when the log carries the exact line
 * "zinc: NAME self-tests: pass".  The primitive's other "zinc: NAME:" and
 * "zinc: NAME ..." lines (the CPU-feature combinations that ran, a failing
 * vector) are passed on as "# " diagnostics.  Exits 1 if any case failed.
 *
 * The case names come from the shell entry's "# cases:" line, passed in at
 * build time as ZINC_SELFTEST_CASES ("a|b|c"), so the host's list of
 * expected cases and this program cannot drift apart.  Booted with
 * zinc.force_simd_relax=1 (the zinc-selftest-relax suite), one more case,
 * force_simd_relax, checks that the kernel took the parameter, as the shell
 * entry does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "klog.h"

#ifndef ZINC_SELFTEST_CASES
#error "build with -DZINC_SELFTEST_CASES='\"name|name|...\"'"
#endif

#define RELAX_PARAM "/sys/module/zinc/parameters/force_simd_relax"

#define MAX_CASES 16

/* Is msg "zinc: NAME" followed by ':' or ' '? */
static int about(const char *msg, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(msg, "zinc: ", 6) || strncmp(msg + 6, name, n))
		return 0;
	return msg[6 + n] == ':' || msg[6 + n] == ' ';
}

/* Does the first line of @path contain the word @word? */
static int file_has_word(const char *path, const char *word)
{
	char buf[4096], *p;
	size_t n = strlen(word);
	FILE *f = fopen(path, "r");
	int found = 0;

	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f)) {
		for (p = strstr(buf, word); p && !found; p = strstr(p + 1, word))
			found = (p == buf || p[-1] == ' ') &&
				(p[n] == ' ' || p[n] == '\n' || !p[n]);
	}
	fclose(f);
	return found;
}

int main(void)
{
	char cases[] = ZINC_SELFTEST_CASES;
	char *names[MAX_CASES], *log, *line, *save, *tok;
	int ncases = 0, failed = 0, any_zinc = 0, i, relax;

	for (tok = strtok_r(cases, "|", &save); tok && ncases < MAX_CASES;
	     tok = strtok_r(NULL, "|", &save))
		names[ncases++] = tok;

	log = klog_read("zinc-selftest");
	if (!log)
		return 2;

	relax = file_has_word("/proc/cmdline", "zinc.force_simd_relax=1");
	printf("KTAP version 1\n1..%d\n", ncases + relax);
	for (i = 0; i < ncases; i++) {
		int pass = 0;
		char want[128];
		const char *p;

		snprintf(want, sizeof(want), "zinc: %s self-tests: pass",
			 names[i]);
		for (p = log; *p; p = line ? line + 1 : p + strlen(p)) {
			const char *msg = klog_message(p);
			size_t n;

			line = strchr(p, '\n');
			n = line ? (size_t)(line - msg) : strlen(msg);
			if (!strncmp(msg, "zinc: ", 6))
				any_zinc = 1;
			if (!about(msg, names[i]))
				continue;
			printf("# %.*s\n", (int)(n - 6), msg + 6);
			if (n == strlen(want) && !strncmp(msg, want, n))
				pass = 1;
		}
		if (!pass && !any_zinc)
			printf("# no \"zinc:\" lines in the kernel log: not a Zinc kernel, or CONFIG_ZINC_SELFTEST is off\n");
		printf("%sok %d %s\n", pass ? "" : "not ", i + 1, names[i]);
		failed += !pass;
	}
	if (relax) {
		int ok = file_has_word(RELAX_PARAM, "Y");

		if (!ok)
			printf("# %s is not Y: a kernel without ZINC_DEBUG ignores the parameter\n",
			       RELAX_PARAM);
		printf("%sok %d force_simd_relax\n", ok ? "" : "not ", i + 1);
		failed += !ok;
	}
	fflush(stdout);
	return failed ? 1 : 0;
}
