// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Runs Zinc's own self-tests, compiled from the patched tree for userspace,
 * once per CPU level, and prints one result line per level, primitive and
 * combination of the primitive's optional implementations ("nobs") left on:
 *
 *	ok native: avx512: chacha20: arch+simd
 *	not ok native: avx2: poly1305: arch
 *	ok native: ssse3: blake2s
 *	ok native: avx512: chacha20 # SKIP not available on this CPU
 *	ok native: avx512: chacha20 (force_simd_relax): arch+simd
 *	ok native: calls: chacha_8block_xor_avx512vl
 *
 * followed by "# " diagnostics.  bench/native/run-tests.sh numbers them into
 * KTAP.
 *
 * Zinc's primitives run on the kernel's x86_64 glue (arch/x86/crypto), which
 * picks SSSE3, AVX, AVX2 or AVX-512 code in its module_init, by static keys.
 * A CPU level (avx512, avx2, avx, ssse3, generic) hides the CPU features
 * above it (zn_cpu_mask()), turns every static key off and runs the glue's
 * module_init again, then each primitive's module_init, which runs its
 * self-test once per subset of its nobs turned off (lib/zinc/selftest/
 * run.h), logging only failures, with the subset, and a summary.  This
 * program reads that log back: a subset passed when no failure names it,
 * and the whole primitive fails if the log and the return value disagree,
 * if the number of subsets run is not 2^available, if a kernel_fpu section
 * was left open, or if anything WARNed (calls.c WARNs when vector code runs
 * outside a kernel_fpu section).  ChaCha20Poly1305's nobs are those of
 * ChaCha20 and Poly1305; their flags are put back before every primitive, so
 * that one that failed (and was left generic) does not hide the others.
 *
 * Then, at the highest level, every primitive again with
 * simd_debug_force_relax set, so that every simd_relax() releases the vector
 * unit ("(force_simd_relax)").  Last, every entry point the CPU has the
 * features for must have been called, never outside a kernel_fpu section
 * where it is vector code, and never on a CPU (as masked) that lacks its
 * features ("calls: NAME", calls.c).
 *
 *	zinc-native-test [--prefix NAME] [--generic-only] [-v]
 */

#include <zn_entry.h>

#include <stdio.h>

#include "calls.h"

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

static void result(bool ok, const char *name, const char *skip)
{
	printf("%sok %s: %s", ok ? "" : "not ", prefix, name);
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
	{ "chacha20poly1305", zn_init_chacha20poly1305 },
	{ "blake2s", zn_init_blake2s },
	{ "curve25519", zn_init_curve25519 },
};

/*
 * The nob flags of ChaCha20 and Poly1305 as the tree initialises them: a
 * failed self-test leaves them off, and they are put back before each run.
 * (Curve25519's flag is not exported: after a failure it stays off, and
 * its later runs SKIP it.)
 */
#define MAX_NOBS 8
static struct {
	bool *flag;
	bool value;
} saved_nobs[2 * MAX_NOBS];
static unsigned int saved_nobs_len;

static void nobs_save(void)
{
	const struct zinc_nob *nobs[2];
	unsigned int len[2], i, j;

	nobs[0] = zinc_chacha20_nobs(&len[0]);
	nobs[1] = zinc_poly1305_nobs(&len[1]);
	for (i = 0; i < ARRAY_SIZE(nobs); ++i) {
		for (j = 0; j < len[i]; ++j) {
			if (saved_nobs_len == ARRAY_SIZE(saved_nobs))
				return;
			saved_nobs[saved_nobs_len].flag = nobs[i][j].enabled;
			saved_nobs[saved_nobs_len].value = *nobs[i][j].enabled;
			++saved_nobs_len;
		}
	}
}

static void nobs_restore(void)
{
	unsigned int i;

	for (i = 0; i < saved_nobs_len; ++i)
		*saved_nobs[i].flag = saved_nobs[i].value;
}

/* "zinc: NAME: " at the start of @l: the rest, else NULL. */
static const char *after_name(const char *l, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(l, "zinc: ", 6) || strncmp(l + 6, name, n) ||
	    strncmp(l + 6 + n, ": ", 2))
		return NULL;
	return l + 6 + n + 2;
}

/*
 * Run one primitive's module_init with its log captured; report per subset
 * of the nobs the runner found on, named "LEVEL: NAME[TAG]: ON".
 */
static void run_primitive(const struct primitive *p, const char *level,
			  const char *tag)
{
	static const char skipped_suffix[] = ": not available, skipped";
	char avail[MAX_NOBS][32], skipped[MAX_NOBS][32], want[160];
	char name[96], line[512];
	unsigned int n_avail = 0, n_skipped = 0, runs = 0, fails = 0, i;
	unsigned long warnings = zn_warnings, off;
	int violations = atomic_read(&zinc_simd_violations), ret, depth;
	bool pass_line = false, consistent;
	char *list = NULL, *tok, *save;

	snprintf(name, sizeof(name), "%s: %s%s", level, p->name, tag);
	nobs_restore();
	zn_calls_rearm();
	log_clear();
	ret = p->init();
	depth = zn_fpu_depth();

	snprintf(want, sizeof(want), "zinc: %s self-tests: pass", p->name);
	for (i = 0; i < log_len; ++i) {
		const char *l = log_lines[i], *rest = after_name(l, p->name);
		const char *end;
		unsigned int n;

		if (rest && (end = strstr(rest, skipped_suffix)) &&
		    n_skipped < MAX_NOBS) {
			snprintf(skipped[n_skipped++], sizeof(skipped[0]),
				 "%.*s", (int)(end - rest), rest);
		} else if (rest && sscanf(rest, "ran %u feature", &n) == 1) {
			const char *open = strchr(rest, '(');
			const char *close = strrchr(rest, ')');

			runs = n;
			if (open && close > open)
				list = strndup(open + 1, close - open - 1);
		} else if (!strncmp(l, want, strlen(want))) {
			pass_line = true;
		} else if (strstr(l, "): FAIL")) {
			++fails;
		}
	}
	if (list && strcmp(list, "no optional implementations")) {
		for (tok = strtok_r(list, " ", &save);
		     tok && n_avail < MAX_NOBS; tok = strtok_r(NULL, " ", &save))
			snprintf(avail[n_avail++], sizeof(avail[0]), "%s", tok);
	}
	free(list);

	consistent = runs == (1U << n_avail) && zn_warnings == warnings &&
		     !depth && (ret == 0) == pass_line && (ret == 0) == !fails;
	if (!consistent)
		printf("# %s: %u runs for %u implementations, init returned %d, %lu WARNs, %d SIMD violations, kernel_fpu depth %d after, %u failures, pass line %s\n",
		       name, runs, n_avail, ret, zn_warnings - warnings,
		       atomic_read(&zinc_simd_violations) - violations, depth,
		       fails, pass_line ? "present" : "missing");

	/* From everything on down to nothing on, as the runner walks them. */
	for (off = 0; off < (1UL << n_avail); ++off) {
		char on[160] = "", offs[160] = "";
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
		if (n_avail || n_skipped)
			snprintf(line, sizeof(line), "%s: %s", name,
				 *on ? on : "generic");
		else
			snprintf(line, sizeof(line), "%s", name);
		result(ok, line, NULL);
		if (!ok && consistent)
			for (i = 0; i < log_len; ++i)
				if (strstr(log_lines[i], want))
					printf("#   %s", log_lines[i]);
	}
	for (i = 0; i < n_skipped; ++i) {
		snprintf(line, sizeof(line), "%s: %s", name, skipped[i]);
		result(true, line, "turned off by an earlier failure");
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

/* What ZINC_NATIVE_CPU_OFF (or --generic-only) hides, under every level. */
static unsigned long base_off;

static bool level_available(const struct level *lv)
{
	return (zn_cpu_present() & lv->needs) == lv->needs;
}

/*
 * The x86_64 glue picks its code again under the level's mask: every static
 * key off first, as the kernel's are only ever enabled.
 */
static bool level_enter(const struct level *lv)
{
	static const struct {
		const char *name;
		int (*init)(void);
	} glue[] = {
		{ "chacha_simd_mod_init", zn_init_chacha_x86 },
		{ "poly1305_simd_mod_init", zn_init_poly1305_x86 },
		{ "blake2s_mod_init", zn_init_blake2s_x86 },
		{ "curve25519_mod_init", zn_init_curve25519_x86 },
	};
	unsigned long warnings = zn_warnings;
	bool ok = true;
	unsigned int i;
	int ret;

	zn_cpu_mask(base_off | lv->hides);
	zn_static_keys_reset();
	log_clear();
	for (i = 0; i < ARRAY_SIZE(glue); ++i) {
		ret = glue[i].init();
		if (ret) {
			printf("# %s: %s returned %d\n", lv->name, glue[i].name,
			       ret);
			ok = false;
		}
	}
	if (zn_warnings != warnings) {
		printf("# %s: the glue's module_init WARNed\n", lv->name);
		log_dump();
		ok = false;
	}
	return ok;
}

static void run_level(const struct level *lv, const char *tag)
{
	char name[64];
	unsigned int i;

	if (!level_available(lv)) {
		for (i = 0; i < ARRAY_SIZE(primitives); ++i) {
			snprintf(name, sizeof(name), "%s: %s%s", lv->name,
				 primitives[i].name, tag);
			result(true, name, unavailable);
		}
		return;
	}
	if (!level_enter(lv)) {
		for (i = 0; i < ARRAY_SIZE(primitives); ++i) {
			snprintf(name, sizeof(name), "%s: %s%s", lv->name,
				 primitives[i].name, tag);
			result(false, name, NULL);
		}
		return;
	}
	for (i = 0; i < ARRAY_SIZE(primitives); ++i)
		run_primitive(&primitives[i], lv->name, tag);
}

/*
 * Each entry point the CPU has the features for was called at least once,
 * and none was called outside a kernel_fpu section or on a CPU (as masked)
 * without its features.
 */
static void report_calls(void)
{
	const struct zn_call *c;
	char name[96];
	bool ok;

	for (c = zn_calls; c->name; ++c) {
		snprintf(name, sizeof(name), "calls: %s", c->name);
		if ((zn_cpu_present() & c->features) != c->features) {
			result(true, name, unavailable);
			continue;
		}
		/* As poly1305_simd_mod_init(): no zmm on Skylake-X. */
		if (!strcmp(c->name, "poly1305_blocks_avx512") &&
		    boot_cpu_data.x86 == 6 &&
		    boot_cpu_data.x86_model == INTEL_FAM6_SKYLAKE_X) {
			result(true, name, "not used on Skylake-X");
			continue;
		}
		ok = c->calls && !c->outside_fpu && !c->without_features;
		result(ok, name, NULL);
		printf("# %s: %lu calls", c->name, c->calls);
		if (c->outside_fpu)
			printf(", %lu outside a kernel_fpu section",
			       c->outside_fpu);
		if (c->without_features)
			printf(", %lu on a CPU without its features",
			       c->without_features);
		printf("\n");
	}
}

int main(int argc, char *argv[])
{
	const struct level *top = NULL;
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
	base_off = zn_cpu_mask(0);
	if (generic_only) {
		base_off = ~0UL;
		unavailable = "hidden: generic paths only";
	}

	printf("# %s: CPU features:", prefix);
	for (i = 0; i < ZN_CPU_FEATURES; ++i)
		if (zn_cpu_present() & BIT(i))
			printf(" %s%s", zn_cpu_feature_names[i],
			       (base_off & BIT(i)) ? "(hidden)" : "");
	printf("\n");

	nobs_save();
	for (i = 0; i < ARRAY_SIZE(levels); ++i) {
		if (generic_only && strcmp(levels[i].name, "generic"))
			continue;
		run_level(&levels[i], "");
		if (!top && level_available(&levels[i]))
			top = &levels[i];
	}

	/* Every simd_relax() releases the unit, at the highest level. */
	simd_debug_force_relax = true;
	run_level(top, " (force_simd_relax)");
	simd_debug_force_relax = false;

	if (!generic_only)
		report_calls();
	zn_cpu_mask(base_off);
	log_clear();
	return failed ? 1 : 0;
}
