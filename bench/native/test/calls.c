// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Wraps each entry point of the kernel's x86_64 crypto code that Zinc runs
 * on, through the linker's --wrap (bench/native/run-tests.sh links the test
 * driver with -Wl,--wrap=NAME for every NAME in ZN_CALLS below), and checks
 * every call:
 *
 * - vector code (SSSE3, AVX, AVX2, AVX-512) must run inside a kernel_fpu
 *   section, as in the kernel, where outside one it would corrupt the
 *   vector registers of the task it interrupted: the wrapper WARNs when the
 *   section is not held (zn_fpu_depth() != 1).  The scalar entry points
 *   (poly1305_blocks_x86_64, poly1305_emit_*, curve25519_*arch) may run
 *   anywhere.
 * - the CPU (as masked for the run) must have the features the code needs:
 *   a call on a CPU without them means the glue's static keys are stale.
 *   curve25519_arch and curve25519_base_arch pick their own path, so only
 *   the count is theirs.
 *
 * A WARN fails the primitive and CPU level that made the call.  The counts
 * make the "calls" cases: every entry point the CPU has the features for
 * must have been called by the self-tests.
 */

#include <zn_kernel.h>

#include "calls.h"

#define F(x) BIT(X86_FEATURE_##x)

/* kind, entry point, CPU features, class */
#define ZN_CALLS(X)							\
	X(CHACHA, chacha_block_xor_ssse3, F(SSSE3), VECTOR)		\
	X(CHACHA, chacha_4block_xor_ssse3, F(SSSE3), VECTOR)		\
	X(CHACHA, chacha_2block_xor_avx2, F(AVX) | F(AVX2), VECTOR)	\
	X(CHACHA, chacha_4block_xor_avx2, F(AVX) | F(AVX2), VECTOR)	\
	X(CHACHA, chacha_8block_xor_avx2, F(AVX) | F(AVX2), VECTOR)	\
	X(CHACHA, chacha_2block_xor_avx512vl, CHACHA_AVX512, VECTOR)	\
	X(CHACHA, chacha_4block_xor_avx512vl, CHACHA_AVX512, VECTOR)	\
	X(CHACHA, chacha_8block_xor_avx512vl, CHACHA_AVX512, VECTOR)	\
	X(POLY1305, poly1305_blocks_x86_64, 0, SCALAR)			\
	X(POLY1305, poly1305_blocks_avx, F(AVX), VECTOR)		\
	X(POLY1305, poly1305_blocks_avx2, F(AVX) | F(AVX2), VECTOR)	\
	X(POLY1305, poly1305_blocks_avx512, POLY1305_AVX512, VECTOR)	\
	X(EMIT, poly1305_emit_x86_64, 0, SCALAR)			\
	X(EMIT, poly1305_emit_avx, F(AVX), SCALAR)			\
	X(BLAKE2S, blake2s_compress_ssse3, F(SSSE3), VECTOR)		\
	X(BLAKE2S, blake2s_compress_avx512, BLAKE2S_AVX512, VECTOR)	\
	X(X25519, curve25519_arch, F(BMI2) | F(ADX), DISPATCH)		\
	X(X25519_BASE, curve25519_base_arch, F(BMI2) | F(ADX), DISPATCH)

/* What each glue's module_init asks for before it enables its AVX-512 key. */
#define CHACHA_AVX512 (F(AVX) | F(AVX2) | F(AVX512VL) | F(AVX512BW))
#define POLY1305_AVX512 (F(AVX) | F(AVX2) | F(AVX512F))
#define BLAKE2S_AVX512 (F(AVX) | F(AVX2) | F(AVX512F) | F(AVX512VL))

#define VECTOR .vector = true
#define SCALAR .vector = false
#define DISPATCH .dispatch = true

#define SIG_CHACHA (u32 *state, u8 *dst, const u8 *src, unsigned int len, \
		    int nrounds)
#define ARGS_CHACHA (state, dst, src, len, nrounds)
#define SIG_POLY1305 (void *ctx, const u8 *inp, size_t len, u32 padbit)
#define ARGS_POLY1305 (ctx, inp, len, padbit)
#define SIG_EMIT (void *ctx, u8 *mac, const u32 *nonce)
#define ARGS_EMIT (ctx, mac, nonce)
#define SIG_BLAKE2S (void *state, const u8 *block, size_t nblocks, u32 inc)
#define ARGS_BLAKE2S (state, block, nblocks, inc)
#define SIG_X25519 (u8 *out, const u8 *secret, const u8 *point)
#define ARGS_X25519 (out, secret, point)
#define SIG_X25519_BASE (u8 *pub, const u8 *secret)
#define ARGS_X25519_BASE (pub, secret)

enum {
#define CALL_INDEX(kind, fn, features_, class) CALL_##fn,
	ZN_CALLS(CALL_INDEX)
#undef CALL_INDEX
	CALLS_LEN
};

struct zn_call zn_calls[CALLS_LEN + 1] = {
#define CALL_ENTRY(kind, fn, features_, class)				\
	[CALL_##fn] = { .name = #fn, .features = (features_), class },
	ZN_CALLS(CALL_ENTRY)
#undef CALL_ENTRY
	[CALLS_LEN] = { .name = NULL }
};

/* At most this many WARNINGs printed per entry point between rearms. */
#define WARN_PRINTS 2

static void zn_call_violation(struct zn_call *c, const char *what)
{
	++zn_warnings;
	if (c->warned >= WARN_PRINTS)
		return;
	++c->warned;
	zn_printk("warn", "WARNING: %s called %s\n", c->name, what);
}

static void zn_call_enter(struct zn_call *c)
{
	++c->calls;
	if (c->vector && zn_fpu_depth() != 1) {
		++c->outside_fpu;
		zn_call_violation(c, zn_fpu_depth() ?
				  "inside a nested kernel_fpu section" :
				  "outside a kernel_fpu section");
	}
	if (!c->dispatch && (zn_cpu_features() & c->features) != c->features) {
		++c->without_features;
		zn_call_violation(c, "on a CPU (as masked) lacking its features");
	}
}

void zn_calls_rearm(void)
{
	struct zn_call *c;

	for (c = zn_calls; c->name; ++c)
		c->warned = 0;
}

#define WRAPPER(kind, fn, features_, class)				\
	void __real_##fn SIG_##kind;					\
	void __wrap_##fn SIG_##kind;					\
	void __wrap_##fn SIG_##kind					\
	{								\
		zn_call_enter(&zn_calls[CALL_##fn]);			\
		__real_##fn ARGS_##kind;				\
	}
ZN_CALLS(WRAPPER)
