/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Just enough of the crypto API's KPP types for
 * arch/x86/crypto/curve25519-x86_64.c to compile; CONFIG_CRYPTO_KPP is not
 * set, so nothing registers.
 */
#ifndef _ZN_CRYPTO_INTERNAL_KPP_H
#define _ZN_CRYPTO_INTERNAL_KPP_H
#include <zn_kernel.h>

struct crypto_kpp {
	u8 ctx[32];
};

struct kpp_request {
	struct crypto_kpp *tfm;
	struct scatterlist *src, *dst;
	unsigned int src_len, dst_len;
};

struct kpp_alg {
	int (*set_secret)(struct crypto_kpp *tfm, const void *buf,
			  unsigned int len);
	int (*generate_public_key)(struct kpp_request *req);
	int (*compute_shared_secret)(struct kpp_request *req);
	unsigned int (*max_size)(struct crypto_kpp *tfm);
	struct crypto_alg base;
};

static inline void *kpp_tfm_ctx(struct crypto_kpp *tfm)
{
	return tfm->ctx;
}

static inline struct crypto_kpp *crypto_kpp_reqtfm(struct kpp_request *req)
{
	return req->tfm;
}

static inline int crypto_register_kpp(struct kpp_alg *alg)
{
	(void)alg;
	return -ENOSYS;
}

static inline void crypto_unregister_kpp(struct kpp_alg *alg)
{
	(void)alg;
}

#endif
