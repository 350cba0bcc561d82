/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Shared by the differential fuzz targets: reading the input, choosing the
 * Zinc implementation to run (one of the CPU levels, from the input), and
 * failing loudly.  A difference calls abort(), so libFuzzer writes the
 * input as a reproducer and stops with an error.
 */
#ifndef _ZINC_FUZZ_H
#define _ZINC_FUZZ_H

#include <zn_kernel.h>

#include <stdio.h>

int zn_init_chacha20(void);
int zn_init_poly1305(void);
int zn_init_blake2s(void);
int zn_init_curve25519(void);
int zn_init_curve25519_x86(void);

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
 * The CPU levels of the Zinc glue: generic, ssse3, avx, avx2 (with BMI2 and
 * ADX) and avx512.  Returns the level's name; a level the CPU lacks runs
 * what the CPU has below it.
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
	static bool once;
	int i = sel % ARRAY_SIZE(lv);

	if (!once) {
		zn_init_curve25519_x86();
		once = true;
	}
	if (i != current) {
		zn_cpu_mask(lv[i].hides);
		zn_init_chacha20();
		zn_init_poly1305();
		zn_init_blake2s();
		zn_init_curve25519();
		current = i;
	}
	return lv[i].name;
}

#endif
