// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Runs Zinc's own self-tests, compiled from the patched tree for userspace,
 * and prints one result line per primitive and CPU-feature subset:
 *
 *	ok native: avx+avx512vl: blake2s
 *	not ok native: ssse3: chacha20
 *	ok native: avx512vl: chacha20 # SKIP not available on this CPU
 *	ok native: avx2: chacha20poly1305
 *
 * followed by "# " diagnostics.  bench/native/run-tests.sh numbers them into
 * KTAP.
 *
 * Each primitive's module_init (zn_init_NAME) runs its self-test once per
 * subset of its optional implementations turned off (lib/zinc/selftest/
 * run.h), logging only failures, with the subset, and a summary.  This
 * program reads that log back: a subset passed when no failure names it,
 * and the whole primitive fails if the log and the return value disagree,
 * if the number of subsets run is not 2^available, or if anything WARNed.
 *
 * ChaCha20Poly1305 (buffer, scatter-gather with several segment splits, and
 * XChaCha20Poly1305) has no implementations of its own, so it is run once
 * per CPU level (generic, ssse3, avx, avx2, avx512) with the CPU features
 * above the level hidden, ChaCha20 and Poly1305 set up again for each.
 *
 * Last, every optional implementation the CPU has must have been called
 * (calls.c counts them): "ok native: calls: poly1305_blocks_avx512".
 *
 *	zinc-native-test [--prefix NAME] [--generic-only]
 */

#include <zn_kernel.h>

#include <stdio.h>

#include "calls.h"

int zn_init_chacha20(void);
int zn_init_poly1305(void);
int zn_init_chacha20poly1305(void);
int zn_init_blake2s(void);
int zn_init_curve25519(void);
int zn_init_curve25519_x86(void);

extern void (*zn_log_hook)(const char *level, const char *line);

#define LOG_MAX 4096
static char *log_lines[LOG_MAX];
static unsigned int log_len;
static bool verbose;

static void log_capture(const char *level, const char *line)
{
	if (verbose)
		fprintf(stderr, "[%s] %s", level, line);
	if (log_len < LOG_MAX)
		log_lines[log_len++] = strdup(line);
}

static void log_clear(void)
{
	while (log_len)
		free(log_lines[--log_len]);
}

static void log_dump(void)
{
	unsigned int i;

	for (i = 0; i < log_len; ++i)
		printf("#   %s%s", log_lines[i],
		       strchr(log_lines[i], '\n') ? "" : "\n");
}

static const char *prefix = "native";
static const char *unavailable = "not available on this CPU";
static unsigned int failed;

static void result(bool ok, const char *subset, const char *name,
		   const char *skip)
{
	printf("%sok %s: %s: %s", ok ? "" : "not ", prefix, subset, name);
	if (skip)
		printf(" # SKIP %s", skip);
	printf("\n");
	if (!ok)
		++failed;
}

struct primitive {
	const char *name;
	int (*init)(void);
};

static const struct primitive primitives[] = {
	{ "chacha20", zn_init_chacha20 },
	{ "poly1305", zn_init_poly1305 },
	{ "blake2s", zn_init_blake2s },
	{ "curve25519", zn_init_curve25519 },
};

#define MAX_NOBS 8

/*
 * Run one primitive's module_init with its log captured; report per subset
 * of the implementations the runner found available.
 */
static void run_primitive(const struct primitive *p)
{
	char avail[MAX_NOBS][32], skipped[MAX_NOBS][32], want[128], line[256];
	unsigned int n_avail = 0, n_skipped = 0, runs = 0, fails = 0, i;
	unsigned long warnings = zn_warnings, off;
	bool pass_line = false, consistent;
	char *list = NULL, *tok, *save;
	int ret;

	log_clear();
	ret = p->init();

	for (i = 0; i < log_len; ++i) {
		const char *l = log_lines[i];
		char name[32], nob[32];
		unsigned int n;

		if (strstr(l, ": not available, skipped") &&
		    sscanf(l, "zinc: %31[^:]: %31[^:]:", name, nob) == 2 &&
		    !strcmp(name, p->name) && n_skipped < MAX_NOBS) {
			strcpy(skipped[n_skipped++], nob);
		} else if (sscanf(l, "zinc: %31[^:]: ran %u feature", name,
				  &n) == 2 && !strcmp(name, p->name)) {
			const char *open = strchr(l, '('), *close = strrchr(l, ')');

			runs = n;
			if (open && close > open)
				list = strndup(open + 1, close - open - 1);
		} else if (strstr(l, " self-tests: pass")) {
			pass_line = true;
		} else if (strstr(l, "): FAIL")) {
			++fails;
		}
	}
	if (list && strcmp(list, "no optional implementations")) {
		for (tok = strtok_r(list, " ", &save); tok && n_avail < MAX_NOBS;
		     tok = strtok_r(NULL, " ", &save))
			snprintf(avail[n_avail++], sizeof(avail[0]), "%s", tok);
	}
	free(list);

	consistent = runs == (1U << n_avail) && zn_warnings == warnings &&
		     (ret == 0) == pass_line && (ret == 0) == !fails;
	if (!consistent)
		printf("# %s: %u runs for %u implementations, init returned %d, %lu WARNs, %u failures, pass line %s\n",
		       p->name, runs, n_avail, ret, zn_warnings - warnings,
		       fails, pass_line ? "present" : "missing");

	/* From everything on down to nothing on, as the runner walks them. */
	for (off = 0; off < (1UL << n_avail); ++off) {
		char on[128] = "", offs[128] = "";
		bool ok = consistent;

		for (i = 0; i < n_avail; ++i) {
			char *s = (off & BIT(i)) ? offs : on;

			if (*s)
				strcat(s, (off & BIT(i)) ? "," : "+");
			strcat(s, avail[i]);
		}
		snprintf(want, sizeof(want), "(nobs: %s): FAIL",
			 *offs ? offs : "none");
		for (i = 0; i < log_len; ++i)
			if (strstr(log_lines[i], want))
				ok = false;
		result(ok, *on ? on : "generic", p->name, NULL);
		if (!ok)
			for (i = 0; i < log_len; ++i)
				if (strstr(log_lines[i], want))
					printf("#   %s", log_lines[i]);
	}
	for (i = 0; i < n_skipped; ++i) {
		snprintf(line, sizeof(line), "%s", skipped[i]);
		result(true, line, p->name, unavailable);
	}
	if (!consistent)
		log_dump();
}

/* CPU levels: the features each needs, and all that it hides. */
#define F(x) BIT(X86_FEATURE_##x)
#define ABOVE_AVX2 (F(AVX512F) | F(AVX512VL) | F(AVX512BW))
#define ABOVE_AVX (ABOVE_AVX2 | F(AVX2) | F(BMI2) | F(ADX))
#define ABOVE_SSSE3 (ABOVE_AVX | F(AVX))

static const struct level {
	const char *name;
	unsigned long needs, hides;
} levels[] = {
	{ "avx512", F(AVX512F) | F(AVX512VL) | F(AVX512BW) | F(AVX2) | F(AVX), 0 },
	{ "avx2", F(AVX2) | F(AVX), ABOVE_AVX2 },
	{ "avx", F(AVX), ABOVE_AVX },
	{ "ssse3", F(SSSE3), ABOVE_SSSE3 },
	{ "generic", 0, ~0UL },
};

static void run_aead_level(const struct level *lv)
{
	unsigned long warnings = zn_warnings, old;
	bool ok = true;
	unsigned int i;
	int ret;

	if ((zn_cpu_present() & lv->needs) != lv->needs) {
		result(true, lv->name, "chacha20poly1305", unavailable);
		return;
	}
	/* On top of what ZINC_NATIVE_CPU_OFF hides, if anything. */
	old = zn_cpu_mask(0);
	zn_cpu_mask(old | lv->hides);
	log_clear();
	/* The primitives pick their implementations again under the mask. */
	for (i = 0; i < ARRAY_SIZE(primitives); ++i)
		if (primitives[i].init()) {
			printf("# %s: %s self-tests failed while setting up\n",
			       lv->name, primitives[i].name);
			ok = false;
		}
	log_clear();
	ret = zn_init_chacha20poly1305();
	ok = ok && !ret && zn_warnings == warnings;
	result(ok, lv->name, "chacha20poly1305", NULL);
	if (!ok)
		log_dump();
	zn_cpu_mask(old);
}

/* Each optional implementation the CPU has was called at least once. */
static void report_calls(void)
{
	const struct zn_call *c;
	char name[96];

	for (c = zn_calls; c->name; ++c) {
		snprintf(name, sizeof(name), "%s", c->name);
		if ((zn_cpu_present() & c->features) != c->features) {
			result(true, "calls", name, unavailable);
			continue;
		}
		/* As poly1305_fpu_init(): no zmm on Skylake-X (downclocking). */
		if (!strcmp(c->name, "poly1305_blocks_avx512") &&
		    boot_cpu_data.x86 == 6 &&
		    boot_cpu_data.x86_model == INTEL_FAM6_SKYLAKE_X) {
			result(true, "calls", name, "not used on Skylake-X");
			continue;
		}
		result(*c->count > 0, "calls", name, NULL);
		printf("# %s: %lu calls\n", c->name, *c->count);
	}
}

int main(int argc, char *argv[])
{
	bool generic_only = false;
	unsigned int i;

	for (i = 1; i < (unsigned int)argc; ++i) {
		if (!strcmp(argv[i], "--prefix") && i + 1 < (unsigned int)argc) {
			prefix = argv[++i];
		} else if (!strcmp(argv[i], "--generic-only")) {
			generic_only = true;
		} else if (!strcmp(argv[i], "-v")) {
			verbose = true;
		} else {
			fprintf(stderr, "usage: %s [--prefix NAME] [--generic-only] [-v]\n",
				argv[0]);
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	zn_log_hook = log_capture;
	if (generic_only) {
		zn_cpu_mask(~0UL);
		unavailable = "hidden: generic paths only";
	}

	printf("# %s: CPU features:", prefix);
	for (i = 0; i < ZN_CPU_FEATURES; ++i)
		if (zn_cpu_present() & BIT(i))
			printf(" %s%s", zn_cpu_feature_names[i],
			       generic_only ? "(hidden)" : "");
	printf("\n");

	/* lib/crypto's x86_64 Curve25519 (Zinc's glue calls it) sets up. */
	zn_init_curve25519_x86();
	for (i = 0; i < ARRAY_SIZE(primitives); ++i)
		run_primitive(&primitives[i]);
	for (i = 0; i < ARRAY_SIZE(levels); ++i)
		if (!generic_only || !strcmp(levels[i].name, "generic"))
			run_aead_level(&levels[i]);
	if (!generic_only)
		report_calls();
	log_clear();
	return failed ? 1 : 0;
}
