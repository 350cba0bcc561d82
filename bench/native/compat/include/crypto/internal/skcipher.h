/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Just enough of the crypto API's skcipher types for
 * arch/x86/crypto/chacha_glue.c to compile; CONFIG_CRYPTO_SKCIPHER is not
 * set, so nothing registers and no walk ever starts.
 */
#ifndef _ZN_CRYPTO_INTERNAL_SKCIPHER_H
#define _ZN_CRYPTO_INTERNAL_SKCIPHER_H
#include <zn_kernel.h>

struct crypto_skcipher {
	void *ctx;
};

struct skcipher_request {
	struct crypto_skcipher *tfm;
	unsigned int cryptlen;
	u8 *iv;
};

struct skcipher_walk {
	union {
		struct {
			void *addr;
		} virt;
	} src, dst;
	unsigned int nbytes, total, stride;
};

struct skcipher_alg {
	int (*setkey)(struct crypto_skcipher *tfm, const u8 *key,
		      unsigned int keylen);
	int (*encrypt)(struct skcipher_request *req);
	int (*decrypt)(struct skcipher_request *req);
	unsigned int min_keysize, max_keysize, ivsize, chunksize;
	struct crypto_alg base;
};

static inline struct crypto_skcipher *
crypto_skcipher_reqtfm(struct skcipher_request *req)
{
	return req->tfm;
}

static inline void *crypto_skcipher_ctx(struct crypto_skcipher *tfm)
{
	return tfm->ctx;
}

static inline int skcipher_walk_virt(struct skcipher_walk *walk,
				     struct skcipher_request *req, bool atomic)
{
	memset(walk, 0, sizeof(*walk));
	return -ENOSYS;
}

static inline int skcipher_walk_done(struct skcipher_walk *walk, int err)
{
	return -ENOSYS;
}

static inline int crypto_register_skciphers(struct skcipher_alg *algs,
					    int count)
{
	return -ENOSYS;
}

static inline void crypto_unregister_skciphers(struct skcipher_alg *algs,
					       int count)
{
}

#endif
