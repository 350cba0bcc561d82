// SPDX-License-Identifier: GPL-2.0
/*
 * crypto-diff's host side: cases.h's seeded inputs through libsodium
 * (ChaCha20, Poly1305, ChaCha20Poly1305, XChaCha20Poly1305, X25519) and
 * OpenSSL (BLAKE2s, keyed BLAKE2s, HMAC-BLAKE2s), one line per primitive,
 * "PRIM DIGEST": what the guest's cryptodiff module must print for every
 * implementation it runs.  Split and layout runs are the same computation,
 * so they have no lines of their own.
 *
 *   ref            the reference digests
 *   ref --self     also run the split runs (through the same ops, which
 *                  ignore the cut) and the layout runs here, and exit 1
 *                  unless each equals its primitive's digest: the driver's
 *                  own consistency
 */
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sodium.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint32_t u32;
typedef uint64_t u64;

#define cd_yield() do { } while (0)
#include "cases.h"

static void die(const char *what)
{
	fprintf(stderr, "crypto-diff ref: %s failed\n", what);
	exit(2);
}

static void put_le64(u8 *p, u64 v)
{
	int i;

	for (i = 0; i < 8; i++, v >>= 8)
		p[i] = (u8)v;
}

/* ChaCha20 with a 32-bit block counter and 64-bit nonce, as RFC 8439's. */
static void ref_chacha20(u8 *dst, const u8 *src, size_t len, const u8 *key,
			 u64 nonce, u32 counter, struct cd_rng *split)
{
	u8 n[12] = { 0 };

	(void)split;
	put_le64(n + 4, nonce);
	if (crypto_stream_chacha20_ietf_xor_ic(dst, src, len, n, counter, key))
		die("crypto_stream_chacha20_ietf_xor_ic");
}

static void ref_poly1305(u8 *tag, const u8 *msg, size_t len, const u8 *key,
			 struct cd_rng *split)
{
	(void)split;
	if (crypto_onetimeauth_poly1305(tag, msg, len, key))
		die("crypto_onetimeauth_poly1305");
}

static void ref_aead_encrypt(u8 *dst, const u8 *src, size_t len, const u8 *ad,
			     size_t ad_len, const u8 *nonce, size_t nonce_len,
			     const u8 *key, struct cd_rng *split)
{
	u8 n[12] = { 0 };
	int r;

	(void)split;
	if (nonce_len == 24) {
		r = crypto_aead_xchacha20poly1305_ietf_encrypt(dst, NULL, src,
							       len, ad, ad_len,
							       NULL, nonce,
							       key);
	} else {
		memcpy(n + 4, nonce, 8);
		r = crypto_aead_chacha20poly1305_ietf_encrypt(dst, NULL, src,
							      len, ad, ad_len,
							      NULL, n, key);
	}
	if (r)
		die("libsodium's AEAD encryption");
}

static bool ref_aead_decrypt(u8 *dst, const u8 *src, size_t len, const u8 *ad,
			     size_t ad_len, const u8 *nonce, size_t nonce_len,
			     const u8 *key, struct cd_rng *split)
{
	u8 n[12] = { 0 };

	(void)split;
	if (nonce_len == 24)
		return !crypto_aead_xchacha20poly1305_ietf_decrypt(dst, NULL,
								   NULL, src,
								   len, ad,
								   ad_len,
								   nonce, key);
	memcpy(n + 4, nonce, 8);
	return !crypto_aead_chacha20poly1305_ietf_decrypt(dst, NULL, NULL, src,
							  len, ad, ad_len, n,
							  key);
}

/* Unkeyed: BLAKE2s-256.  Keyed: OpenSSL's BLAKE2SMAC, any digest length. */
static void ref_blake2s(u8 *out, size_t outlen, const u8 *in, size_t len,
			const u8 *key, size_t keylen, struct cd_rng *split)
{
	OSSL_PARAM params[2];
	EVP_MAC_CTX *ctx;
	EVP_MAC *mac;
	size_t got;

	(void)split;
	if (!keylen) {
		if (outlen != 32 ||
		    !EVP_Digest(in, len, out, NULL, EVP_blake2s256(), NULL))
			die("EVP_Digest(BLAKE2s-256)");
		return;
	}
	mac = EVP_MAC_fetch(NULL, "BLAKE2SMAC", NULL);
	ctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
	params[0] = OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &outlen);
	params[1] = OSSL_PARAM_construct_end();
	if (!ctx || !EVP_MAC_init(ctx, key, keylen, params) ||
	    !EVP_MAC_update(ctx, in, len) ||
	    !EVP_MAC_final(ctx, out, &got, outlen) || got != outlen)
		die("OpenSSL's BLAKE2SMAC");
	EVP_MAC_CTX_free(ctx);
	EVP_MAC_free(mac);
}

static void ref_blake2s_hmac(u8 *out, const u8 *in, size_t len, const u8 *key,
			     size_t keylen)
{
	static const u8 nokey;
	unsigned int got = 0;

	if (!HMAC(EVP_blake2s256(), keylen ? key : &nokey, (int)keylen, in,
		  len, out, &got) || got != 32)
		die("OpenSSL's HMAC(BLAKE2s-256)");
}

/* libsodium refuses an all-zero result, as the kernel does. */
static bool ref_x25519(u8 *out, const u8 *scalar, const u8 *point)
{
	if (!point)
		return !crypto_scalarmult_curve25519_base(out, scalar);
	return !crypto_scalarmult_curve25519(out, scalar, point);
}

static const struct cd_ops ref_ops = {
	.chacha20 = ref_chacha20,
	.poly1305 = ref_poly1305,
	.aead_encrypt = ref_aead_encrypt,
	.aead_decrypt = ref_aead_decrypt,
	.blake2s = ref_blake2s,
	.blake2s_hmac = ref_blake2s_hmac,
	.x25519 = ref_x25519,
};

int main(int argc, char **argv)
{
	static u8 src[CD_BUF], dst[CD_BUF], back[CD_BUF];
	static struct cd_bufs b = { .src = src, .dst = dst, .back = back };
	bool self = argc > 1 && !strcmp(argv[1], "--self");
	enum cd_prim p;
	int bad = 0;
	u64 h;

	if (argc > 2 || (argc == 2 && !self)) {
		fprintf(stderr, "usage: %s [--self]\n", argv[0]);
		return 2;
	}
	if (sodium_init() < 0)
		die("sodium_init");
	for (p = 0; p < CD_NR_PRIMS; p++) {
		h = cd_run(&ref_ops, p, CD_WHOLE, &b);
		printf("%s %016llx\n", cd_prim_name[p], (unsigned long long)h);
		if (!self)
			continue;
		if (cd_split_name[p] && cd_run(&ref_ops, p, CD_SPLIT, &b) != h) {
			fprintf(stderr, "crypto-diff ref: %s differs from %s\n",
				cd_split_name[p], cd_prim_name[p]);
			bad = 1;
		}
		if (cd_run(&ref_ops, p, CD_LAYOUT, &b) != h) {
			fprintf(stderr, "crypto-diff ref: %s-layout differs from %s\n",
				cd_prim_name[p], cd_prim_name[p]);
			bad = 1;
		}
	}
	return bad;
}
