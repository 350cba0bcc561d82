// SPDX-License-Identifier: GPL-2.0
/*
 * The crypto-diff entry for guests without a shell (arm64, arm): the same
 * report as guest-image/entry/crypto-diff, as a static program.
 *
 * Loads /lib/cryptodiff/cryptodiff.ko (finit_module(2)), reads its
 * "cryptodiff: IMPL RUN DIGEST" lines from the kernel log, and compares
 * each with the host's digest of RUN's primitive in
 * /lib/cryptodiff/expected.txt ("PRIM DIGEST" lines; a run named
 * PRIM-split, PRIM-sg or PRIM-layout has PRIM's).  Then removes the
 * module.  KTAP out; exits 1 if any case failed.
 *
 * The case names come from the shell entry's "# cases-lib:", "# cases-zinc:"
 * and "# cases-end:" lines, passed in at build time, so the host's list of
 * expected cases and this program cannot drift apart.  The Zinc cases are
 * reported when the module says it ran Zinc ("cryptodiff: impls: ...").
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cases.h"
#include "klog.h"

#if !defined(CRYPTO_DIFF_LIB_CASES) || !defined(CRYPTO_DIFF_ZINC_CASES) || \
	!defined(CRYPTO_DIFF_END_CASES)
#error "build with -DCRYPTO_DIFF_{LIB,ZINC,END}_CASES='\"name|name|...\"'"
#endif

#define DIR "/lib/cryptodiff"
#define MAX_CASES 64

static char *names[MAX_CASES];
static int ncases;

/* The whole of a small file, NUL-terminated, or NULL. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = calloc(1, 65536);
	n = buf ? fread(buf, 1, 65535, f) : 0;
	fclose(f);
	if (buf)
		buf[n] = '\0';
	return buf;
}

/*
 * In text, the line "KEY VALUE" (KEY being one or more words): VALUE,
 * copied to out; empty if there is none.
 */
static void lookup(const char *text, const char *key, char *out, size_t size,
		   int from_log)
{
	size_t n = strlen(key);
	const char *p, *line, *msg;

	out[0] = '\0';
	for (p = text; p && *p; p = line ? line + 1 : NULL) {
		line = strchr(p, '\n');
		msg = from_log ? klog_message(p) : p;
		if (from_log) {
			if (strncmp(msg, "cryptodiff: ", 12))
				continue;
			msg += 12;
		}
		if (strncmp(msg, key, n) || msg[n] != ' ')
			continue;
		snprintf(out, size, "%.*s",
			 (int)((line ? line : msg + strlen(msg)) - (msg + n + 1)),
			 msg + n + 1);
	}
}

int main(void)
{
	char lib[] = CRYPTO_DIFF_LIB_CASES, zinc[] = CRYPTO_DIFF_ZINC_CASES;
	char end[] = CRYPTO_DIFF_END_CASES;
	char key[128], prim[64], got[64], want[64], impls[64], *log, *expected;
	int fd, i, failed = 0, removed;

	expected = slurp(DIR "/expected.txt");
	fd = open(DIR "/cryptodiff.ko", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || !expected) {
		fprintf(stderr, "crypto-diff: " DIR "/cryptodiff.ko or expected.txt is missing: boot with netns-tests/crypto-diff/build.sh's cpio\n");
		return 2;
	}
	if (syscall(SYS_finit_module, fd, "", 0))
		perror("# finit_module(cryptodiff.ko)");
	close(fd);
	log = klog_read("crypto-diff");
	if (!log)
		return 2;

	ncases = split_cases(lib, names, ncases, MAX_CASES);
	lookup(log, "impls:", impls, sizeof(impls), 1);
	if (strstr(impls, "zinc"))
		ncases = split_cases(zinc, names, ncases, MAX_CASES);
	printf("KTAP version 1\n1..%d\n", ncases + 1);
	for (i = 0; i < ncases; i++) {
		const char *sep = strstr(names[i], ": ");
		char *suffix;

		if (!sep)
			continue;
		/* "IMPL: RUN" in the case name, "IMPL RUN" in the log. */
		snprintf(key, sizeof(key), "%.*s %s", (int)(sep - names[i]),
			 names[i], sep + 2);
		snprintf(prim, sizeof(prim), "%s", sep + 2);
		suffix = strrchr(prim, '-');
		if (suffix && (!strcmp(suffix, "-split") || !strcmp(suffix, "-sg") ||
			       !strcmp(suffix, "-layout")))
			*suffix = '\0';
		lookup(log, key, got, sizeof(got), 1);
		lookup(expected, prim, want, sizeof(want), 0);
		printf("# %s: %s (libsodium/OpenSSL: %s)\n", names[i], got, want);
		if (*want && !strcmp(got, want)) {
			printf("ok %d %s\n", i + 1, names[i]);
			continue;
		}
		if (!*got)
			printf("# the module logged no digest for %s\n", names[i]);
		if (!*want)
			printf("# expected.txt has no digest for %s\n", prim);
		printf("not ok %d %s\n", i + 1, names[i]);
		failed++;
	}
	removed = !syscall(SYS_delete_module, "cryptodiff", O_NONBLOCK);
	if (!removed)
		perror("# delete_module(cryptodiff)");
	printf("%sok %d %s\n", removed ? "" : "not ", i + 1, end);
	failed += !removed;
	fflush(stdout);
	return failed ? 1 : 0;
}
