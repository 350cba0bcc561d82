// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Counts the calls Zinc's glue makes into each optional implementation,
 * through the linker's --wrap (bench/native/run-tests.sh links the test
 * driver with -Wl,--wrap=NAME for every NAME below): a CPU that has a
 * feature must see its code called during the self-tests, or the feature
 * was detected but never used.
 */

#include <zn_kernel.h>

#include "calls.h"

#define WRAP_CHACHA(name)						\
	void __real_##name(u32 *state, u8 *dst, const u8 *src,		\
			   unsigned int len, int nrounds);		\
	void __wrap_##name(u32 *state, u8 *dst, const u8 *src,		\
			   unsigned int len, int nrounds);		\
	static unsigned long calls_##name;				\
	void __wrap_##name(u32 *state, u8 *dst, const u8 *src,		\
			   unsigned int len, int nrounds)		\
	{								\
		++calls_##name;						\
		__real_##name(state, dst, src, len, nrounds);		\
	}

#define WRAP_POLY1305(name)						\
	void __real_##name(void *ctx, const u8 *inp, size_t len,	\
			   u32 padbit);					\
	void __wrap_##name(void *ctx, const u8 *inp, size_t len,	\
			   u32 padbit);					\
	static unsigned long calls_##name;				\
	void __wrap_##name(void *ctx, const u8 *inp, size_t len,	\
			   u32 padbit)					\
	{								\
		++calls_##name;						\
		__real_##name(ctx, inp, len, padbit);			\
	}

#define WRAP_BLAKE2S(name)						\
	void __real_##name(void *state, const u8 *block, size_t nblocks, \
			   u32 inc);					\
	void __wrap_##name(void *state, const u8 *block, size_t nblocks, \
			   u32 inc);					\
	static unsigned long calls_##name;				\
	void __wrap_##name(void *state, const u8 *block, size_t nblocks, \
			   u32 inc)					\
	{								\
		++calls_##name;						\
		__real_##name(state, block, nblocks, inc);		\
	}

WRAP_CHACHA(chacha_block_xor_ssse3)
WRAP_CHACHA(chacha_4block_xor_ssse3)
WRAP_CHACHA(chacha_8block_xor_avx2)
WRAP_CHACHA(chacha_8block_xor_avx512vl)
WRAP_CHACHA(chacha_4block_xor_avx512vl)
WRAP_CHACHA(chacha_2block_xor_avx512vl)
WRAP_POLY1305(poly1305_blocks_x86_64)
WRAP_POLY1305(poly1305_blocks_avx)
WRAP_POLY1305(poly1305_blocks_avx2)
WRAP_POLY1305(poly1305_blocks_avx512)
WRAP_BLAKE2S(zinc_blake2s_compress_avx)
WRAP_BLAKE2S(zinc_blake2s_compress_avx512)

void __real_curve25519_arch(u8 *out, const u8 *secret, const u8 *point);
void __wrap_curve25519_arch(u8 *out, const u8 *secret, const u8 *point);
static unsigned long calls_curve25519_arch;
void __wrap_curve25519_arch(u8 *out, const u8 *secret, const u8 *point)
{
	++calls_curve25519_arch;
	__real_curve25519_arch(out, secret, point);
}

#define F(x) BIT(X86_FEATURE_##x)
#define CALL(features, name) { #name, features, &calls_##name }
const struct zn_call zn_calls[] = {
	CALL(F(SSSE3), chacha_block_xor_ssse3),
	CALL(F(SSSE3), chacha_4block_xor_ssse3),
	CALL(F(AVX) | F(AVX2), chacha_8block_xor_avx2),
	CALL(F(AVX2) | F(AVX512VL) | F(AVX512BW), chacha_8block_xor_avx512vl),
	CALL(F(AVX2) | F(AVX512VL) | F(AVX512BW), chacha_4block_xor_avx512vl),
	CALL(F(AVX2) | F(AVX512VL) | F(AVX512BW), chacha_2block_xor_avx512vl),
	CALL(0, poly1305_blocks_x86_64),
	CALL(F(AVX), poly1305_blocks_avx),
	CALL(F(AVX) | F(AVX2), poly1305_blocks_avx2),
	CALL(F(AVX2) | F(AVX512F), poly1305_blocks_avx512),
	CALL(F(AVX), zinc_blake2s_compress_avx),
	CALL(F(AVX2) | F(AVX512F) | F(AVX512VL), zinc_blake2s_compress_avx512),
	CALL(F(BMI2) | F(ADX), curve25519_arch),
	{ NULL, 0, NULL }
};
