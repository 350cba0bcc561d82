/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Just enough of the crypto API's shash types for
 * arch/x86/crypto/poly1305_glue.c to compile; CONFIG_CRYPTO_HASH is not
 * set, so nothing registers.
 */
#ifndef _ZN_CRYPTO_INTERNAL_HASH_H
#define _ZN_CRYPTO_INTERNAL_HASH_H
#include <zn_kernel.h>

struct shash_desc {
	void *__ctx;
};

struct shash_alg {
	int (*init)(struct shash_desc *desc);
	int (*update)(struct shash_desc *desc, const u8 *data,
		      unsigned int len);
	int (*final)(struct shash_desc *desc, u8 *out);
	unsigned int digestsize, descsize;
	struct crypto_alg base;
};

static inline void *shash_desc_ctx(struct shash_desc *desc)
{
	return desc->__ctx;
}

static inline int crypto_register_shash(struct shash_alg *alg)
{
	return -ENOSYS;
}

static inline void crypto_unregister_shash(struct shash_alg *alg)
{
}

#endif
