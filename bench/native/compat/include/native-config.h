/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The kernel configuration the native build stands for, forced into every
 * translation unit (-include), as the kernel's build does with autoconf.h:
 * x86_64 with every Zinc primitive built in, on lib/crypto's generic code
 * and the x86_64 crypto glue (arch/x86/crypto) as ZINC_* selects them, an
 * assembler that knows AVX-512, and a preemptible kernel (so that the
 * simd_relax() paths are taken).  The crypto API registrations of the glue
 * (CRYPTO_SKCIPHER, CRYPTO_HASH, CRYPTO_KPP) and lib/crypto's module_init
 * self-tests are off.  CONFIG_ZINC_SELFTEST and CONFIG_ZINC_DEBUG come from
 * the command line: the test builds set them, the benchmark not.
 */
#ifndef _NATIVE_CONFIG_H
#define _NATIVE_CONFIG_H

#define CONFIG_X86 1
#define CONFIG_X86_64 1
#define CONFIG_64BIT 1
#define CONFIG_AS_AVX512 1
#define CONFIG_ARCH_SUPPORTS_INT128 1
#define CONFIG_PREEMPTION 1
#define CONFIG_ZINC_CHACHA20 1
#define CONFIG_ZINC_POLY1305 1
#define CONFIG_ZINC_CHACHA20POLY1305 1
#define CONFIG_ZINC_BLAKE2S 1
#define CONFIG_ZINC_CURVE25519 1
#define CONFIG_CRYPTO_LIB_CHACHA_GENERIC 1
#define CONFIG_CRYPTO_LIB_POLY1305_GENERIC 1
#define CONFIG_CRYPTO_LIB_POLY1305_RSIZE 11
#define CONFIG_CRYPTO_LIB_BLAKE2S_GENERIC 1
#define CONFIG_CRYPTO_LIB_CURVE25519_GENERIC 1
#define CONFIG_CRYPTO_LIB_CHACHA20POLY1305 1
#define CONFIG_CRYPTO_CHACHA20_X86_64 1
#define CONFIG_CRYPTO_POLY1305_X86_64 1
#define CONFIG_CRYPTO_BLAKE2S_X86 1
#define CONFIG_CRYPTO_CURVE25519_X86 1
#define CONFIG_CRYPTO_ARCH_HAVE_LIB_CHACHA 1
#define CONFIG_CRYPTO_ARCH_HAVE_LIB_POLY1305 1
#define CONFIG_CRYPTO_ARCH_HAVE_LIB_BLAKE2S 1
#define CONFIG_CRYPTO_ARCH_HAVE_LIB_CURVE25519 1
#define CONFIG_CRYPTO_MANAGER_DISABLE_TESTS 1

#endif
