/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What the native programs (test/, fuzz/) call in the Zinc they link: each
 * unit's module_init (zn_kernel.h renames it zn_init_UNIT), the lists of
 * optional implementations from lib/zinc/selftest/run.h, and the debug
 * counters of lib/zinc/debug.c (the native build has CONFIG_ZINC_SELFTEST
 * and CONFIG_ZINC_DEBUG).
 */
#ifndef _ZN_ENTRY_H
#define _ZN_ENTRY_H

#include <zn_kernel.h>

int zn_init_chacha20(void);
int zn_init_poly1305(void);
int zn_init_chacha20poly1305(void);
int zn_init_blake2s(void);
int zn_init_curve25519(void);
/* The x86_64 glue's module_init (arch/x86/crypto). */
int zn_init_chacha_x86(void);
int zn_init_poly1305_x86(void);
int zn_init_blake2s_x86(void);
int zn_init_curve25519_x86(void);

/* As lib/zinc/selftest/run.h. */
struct zinc_nob {
	const char *name;
	bool *enabled;
};
const struct zinc_nob *zinc_chacha20_nobs(unsigned int *len);
const struct zinc_nob *zinc_poly1305_nobs(unsigned int *len);

extern bool simd_debug_force_relax;
extern atomic_t zinc_simd_violations;

#endif
