// SPDX-License-Identifier: GPL-2.0
/*
 * The zinc-selftest entry's report: the entry itself in the images of
 * guests without a shell (arm64, arm), /usr/bin/wgt-zinc-selftest, which
 * guest-image/entry/zinc-selftest runs, in the x86 image.
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
 *
 * Booted with kunit.enable=1 (a kernel with Zinc's KUnit suites, wg-patches
 * 0019), each case the kernel ran in a KUnit suite named zinc-* is a case
 * too, "kunit: SUITE: CASE", ok only when KUnit's own nested KTAP in the
 * log says ok.  The cases are read from that KTAP, not from a list (the
 * host plans them from the kernel's source: run.sh kunit_cases).
 * A failing one is given the part's failing vectors ("zinc: NAME/PART ...")
 * and KUnit's messages for that case as diagnostics.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"
#include "klog.h"

#ifndef ZINC_SELFTEST_CASES
#error "build with -DZINC_SELFTEST_CASES='\"name|name|...\"'"
#endif

#define RELAX_PARAM "/sys/module/zinc/parameters/force_simd_relax"

#define MAX_CASES 16
#define MAX_KUNIT_CASES 128
#define KUNIT_NAME_MAX 128

/* The log's messages, one a line, without level or timestamp. */
static const char **msgs;
static int nmsgs;

/* Splits @log into msgs[] in place; 0, or -1 when out of memory. */
static int split_log(char *log)
{
	char *p, *nl;
	int n = 1;

	for (p = log; *p; p++)
		n += *p == '\n';
	msgs = malloc(n * sizeof(*msgs));
	if (!msgs)
		return -1;
	for (p = log; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		msgs[nmsgs++] = klog_message(p);
		if (!nl)
			break;
	}
	return 0;
}

static int starts(const char *msg, const char *prefix)
{
	return !strncmp(msg, prefix, strlen(prefix));
}

/* Is msg "zinc: NAME" followed by ':' or ' '? */
static int about(const char *msg, const char *name)
{
	size_t n = strlen(name);

	if (!starts(msg, "zinc: ") || strncmp(msg + 6, name, n))
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

/* One primitive's boot-time self-tests: its diagnostics, then its case. */
static int report_primitive(int num, const char *name)
{
	char want[128];
	int pass = 0, any_zinc = 0, i;

	snprintf(want, sizeof(want), "zinc: %s self-tests: pass", name);
	for (i = 0; i < nmsgs; i++) {
		if (starts(msgs[i], "zinc: "))
			any_zinc = 1;
		if (!about(msgs[i], name))
			continue;
		printf("# %s\n", msgs[i] + 6);
		if (!strcmp(msgs[i], want))
			pass = 1;
	}
	if (!pass && !any_zinc)
		printf("# no \"zinc:\" lines in the kernel log: %s\n",
		       "not a Zinc kernel, or CONFIG_ZINC_SELFTEST is off");
	printf("%sok %d %s\n", pass ? "" : "not ", num, name);
	return !pass;
}

/*
 * Tracks KUnit's nested KTAP: a suite's block runs from its "    # Subtest:
 * SUITE" line to the next unindented "ok N" or "not ok N" (its own result).
 * Returns whether msgs[@i] is inside @suite's block, updating @in.
 */
static int in_suite(int i, const char *suite, int *in)
{
	const char *m = msgs[i];

	if (starts(m, "    # Subtest: "))
		*in = !strcmp(m + 15, suite);
	else if (starts(m, "ok ") || starts(m, "not ok "))
		*in = 0;
	return *in;
}

/*
 * KUnit's result for @suite's case @name: 1 for "    ok N NAME", 0 for
 * "    not ok N NAME" or a skip ("# SKIP"), -1 when KUnit reported none.
 */
static int kunit_result(const char *suite, const char *name)
{
	size_t len = strlen(name);
	int i, in = 0, res = -1;

	for (i = 0; i < nmsgs; i++) {
		const char *p = msgs[i];
		int ok;

		if (!in_suite(i, suite, &in))
			continue;
		if (starts(p, "    ok "))
			ok = 1, p += 7;
		else if (starts(p, "    not ok "))
			ok = 0, p += 11;
		else
			continue;
		p += strspn(p, "0123456789");
		if (*p++ != ' ' || strncmp(p, name, len))
			continue;
		p += len;
		if (*p && !starts(p, " #"))
			continue;
		res = ok && !strstr(p, "# SKIP");
	}
	return res;
}

/*
 * The cases of Zinc's KUnit suites the kernel ran, "SUITE: CASE" into
 * @names in the log's order: each "    ok N CASE" or "    not ok N CASE"
 * in the block of a suite named zinc-* ("    # Subtest: SUITE" up to the
 * suite's own unindented result).  Returns how many.
 */
static int kunit_ran(char (*names)[KUNIT_NAME_MAX], int max)
{
	const char *suite = NULL;
	int i, j, n = 0;

	for (i = 0; i < nmsgs && n < max; i++) {
		const char *m = msgs[i], *p, *end;

		if (starts(m, "    # Subtest: ")) {
			suite = starts(m + 15, "zinc-") ? m + 15 : NULL;
			continue;
		}
		if (starts(m, "ok ") || starts(m, "not ok ")) {
			suite = NULL;
			continue;
		}
		if (!suite)
			continue;
		if (starts(m, "    ok "))
			p = m + 7;
		else if (starts(m, "    not ok "))
			p = m + 11;
		else
			continue;
		p += strspn(p, "0123456789");
		if (*p++ != ' ')
			continue;
		end = strstr(p, " #");
		snprintf(names[n], KUNIT_NAME_MAX, "%s: %.*s", suite,
			 (int)(end ? (size_t)(end - p) : strlen(p)), p);
		for (j = 0; j < n && strcmp(names[j], names[n]); j++)
			;
		n += j == n;
	}
	return n;
}

/*
 * A KUnit case "SUITE: PART" (SUITE is zinc-NAME): the part's failing
 * vectors ("zinc: NAME/PART ..."), KUnit's messages for the case in the
 * suite's block ("    # PART: ..."), the part's failure line and a missing
 * part, then the case.
 */
static int report_kunit(int num, const char *kcase)
{
	char suite[64], tag[128], what[160];
	const char *part = strstr(kcase, ": ");
	size_t plen;
	int i, in = 0, res;

	if (!part || (size_t)(part - kcase) >= sizeof(suite)) {
		printf("# malformed KUnit case name \"%s\"\nnot ok %d kunit: %s\n",
		       kcase, num, kcase);
		return 1;
	}
	snprintf(suite, sizeof(suite), "%.*s", (int)(part - kcase), kcase);
	part += 2;
	plen = strlen(part);
	res = kunit_result(suite, part);
	if (res == 1) {
		printf("ok %d kunit: %s\n", num, kcase);
		return 0;
	}
	snprintf(tag, sizeof(tag), "%s/%s", suite + strlen("zinc-"), part);
	snprintf(what, sizeof(what), "self-tests have no part %s", part);
	for (i = 0; i < nmsgs; i++) {
		const char *m = msgs[i], *failed = strstr(m, tag);
		size_t n = strlen(m);

		if (failed && !starts(failed + strlen(tag), " failed: "))
			failed = NULL;
		if (in_suite(i, suite, &in) && starts(m, "    # ") &&
		    !strncmp(m + 6, part, plen) && starts(m + 6 + plen, ": "))
			printf("# %s: %s\n", suite, m + 8 + plen);
		else if (starts(m, "zinc: ") && starts(m + 6, tag) &&
			 m[6 + strlen(tag)] == ' ')
			printf("# %s\n", m + 6);
		else if (failed)
			printf("# %s\n", failed);
		else if (n >= strlen(what) && !strcmp(m + n - strlen(what), what))
			printf("# %s's %s\n", suite + strlen("zinc-"), what);
	}
	if (res < 0)
		printf("# KUnit reported no result for %s\n", kcase);
	printf("not ok %d kunit: %s\n", num, kcase);
	return 1;
}

int main(void)
{
	char cases[] = ZINC_SELFTEST_CASES;
	static char knames[MAX_KUNIT_CASES][KUNIT_NAME_MAX];
	char *names[MAX_CASES], *log;
	int ncases, nkunit = 0, failed = 0, num = 0, i, relax, kunit;

	ncases = split_cases(cases, names, 0, MAX_CASES);
	log = klog_read("zinc-selftest");
	if (!log)
		return 2;
	if (split_log(log)) {
		fprintf(stderr, "zinc-selftest: out of memory for the log's lines\n");
		return 2;
	}

	relax = file_has_word("/proc/cmdline", "zinc.force_simd_relax=1");
	kunit = file_has_word("/proc/cmdline", "kunit.enable=1");
	if (kunit) {
		nkunit = kunit_ran(knames, MAX_KUNIT_CASES);
		/* KUnit ran no Zinc suite at all: one failing case says so. */
		if (!nkunit)
			snprintf(knames[nkunit++], KUNIT_NAME_MAX, "zinc: no Zinc KUnit suite");
	}
	printf("KTAP version 1\n1..%d\n", ncases + relax + nkunit);
	for (i = 0; i < ncases; i++)
		failed += report_primitive(++num, names[i]);
	if (relax) {
		int ok = file_has_word(RELAX_PARAM, "Y");

		if (!ok)
			printf("# %s is not Y: a kernel without ZINC_DEBUG ignores the parameter\n",
			       RELAX_PARAM);
		printf("%sok %d force_simd_relax\n", ok ? "" : "not ", ++num);
		failed += !ok;
	}
	for (i = 0; i < nkunit; i++)
		failed += report_kunit(++num, knames[i]);
	fflush(stdout);
	return failed ? 1 : 0;
}
