/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Shared by the differential fuzz targets: reading the input, choosing the
 * Zinc implementation to run (one of the CPU levels, from the input), and
 * failing loudly.  A difference calls abort(), so libFuzzer writes the
 * input as a reproducer and stops with an error.
 */
#ifndef _ZINC_FUZZ_H
#define _ZINC_FUZZ_H

#include <zn_entry.h>

#include <stdio.h>

struct fuzz_input {
	const u8 *p;
	size_t len;
};

static inline u8 fuzz_u8(struct fuzz_input *in)
{
	u8 v = 0;

	if (in->len) {
		v = *in->p++;
		--in->len;
	}
	return v;
}

/* Up to @len bytes, zero-padded when the input runs out. */
static inline void fuzz_bytes(struct fuzz_input *in, void *dst, size_t len)
{
	size_t n = min(len, in->len);

	memcpy(dst, in->p, n);
	memset((u8 *)dst + n, 0, len - n);
	in->p += n;
	in->len -= n;
}

#define FUZZ_FAIL(fmt, ...) do {					\
	fprintf(stderr, "DIFFERENCE: %s:%d: " fmt "\n", __FILE__,	\
		__LINE__, ##__VA_ARGS__);				\
	abort();							\
} while (0)

/*
 * After each input: vector code outside a held SIMD section (ZINC_DEBUG's
 * check), or any WARN (an unbalanced kernel_fpu section, say), fails it.
 */
static inline void fuzz_check_clean(const char *level)
{
	if (atomic_read(&zinc_simd_violations) || zn_warnings)
		FUZZ_FAIL("%s: %d SIMD violations, %lu WARNs", level,
			  atomic_read(&zinc_simd_violations), zn_warnings);
}

/* Zinc's ChaCha20 and Poly1305 on the kernel's x86_64 code, or not. */
static inline void fuzz_zinc_arch(bool on)
{
	const struct zinc_nob *nobs;
	unsigned int len, i;

	nobs = zinc_chacha20_nobs(&len);
	for (i = 0; i < len; ++i)
		*nobs[i].enabled = on;
	nobs = zinc_poly1305_nobs(&len);
	for (i = 0; i < len; ++i)
		*nobs[i].enabled = on;
}

/*
 * The CPU levels of the x86_64 glue: generic (lib/crypto's C code for
 * everything: Zinc's "arch" nobs off too), ssse3, avx, avx2 (with BMI2 and
 * ADX) and avx512.  The glue's module_init picks its code again under the
 * level's mask, its static keys turned off first.  Returns the level's
 * name; a level the CPU lacks runs what the CPU has below it.
 */
static inline const char *fuzz_pick_level(u8 sel)
{
#define F(x) BIT(X86_FEATURE_##x)
	static const struct { const char *name; unsigned long hides; } lv[] = {
		{ "generic", ~0UL },
		{ "ssse3", ~F(SSSE3) },
		{ "avx", ~(F(SSSE3) | F(AVX)) },
		{ "avx2", F(AVX512F) | F(AVX512VL) | F(AVX512BW) },
		{ "avx512", 0 },
	};
#undef F
	static int current = -1;
	int i = sel % ARRAY_SIZE(lv);

	if (i != current) {
		zn_cpu_mask(lv[i].hides);
		zn_static_keys_reset();
		if (zn_init_chacha_x86() || zn_init_poly1305_x86() ||
		    zn_init_blake2s_x86() || zn_init_curve25519_x86())
			FUZZ_FAIL("the x86_64 glue's module_init failed");
		fuzz_zinc_arch(i != 0);
		current = i;
	}
	return lv[i].name;
}

#endif
