// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * BLAKE2s, as <zinc/blake2s.h> offers it, against OpenSSL: unkeyed
 * BLAKE2s-256 (BLAKE2S-256), keyed BLAKE2s with keys of 1 to 32 bytes and
 * digests of 1 to 32 bytes (BLAKE2SMAC, which is RFC 7693's keyed mode),
 * all of which are lib/crypto's (on the x86_64 glue's SSSE3 or AVX-512
 * compression, or the generic one), and Zinc's HMAC-BLAKE2s as WireGuard's
 * KDF uses it (OpenSSL's HMAC over BLAKE2S-256, keys of any length).  The
 * incremental API is fed in pieces the fuzzer picks.
 *
 * Input: level, key length, digest length, split count, split bytes, key
 * (up to 80 bytes), message.
 */

#include "fuzz.h"

#include <zinc/blake2s.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

static void openssl_mac(const char *alg_name, const char *digest, u8 *out,
			size_t outlen, const u8 *key, size_t keylen,
			const u8 *msg, size_t len)
{
	OSSL_PARAM params[2] = { OSSL_PARAM_END, OSSL_PARAM_END };
	EVP_MAC *alg = EVP_MAC_fetch(NULL, alg_name, NULL);
	EVP_MAC_CTX *ctx = alg ? EVP_MAC_CTX_new(alg) : NULL;
	size_t n;
	int ok;

	if (digest)
		params[0] = OSSL_PARAM_construct_utf8_string(
			OSSL_MAC_PARAM_DIGEST, (char *)digest, 0);
	else
		params[0] = OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE,
							&outlen);
	ok = ctx && EVP_MAC_init(ctx, key, keylen, params) &&
	     EVP_MAC_update(ctx, msg, len) &&
	     EVP_MAC_final(ctx, out, &n, 32) && n == (digest ? 32 : outlen);
	EVP_MAC_CTX_free(ctx);
	EVP_MAC_free(alg);
	if (!ok)
		FUZZ_FAIL("OpenSSL %s failed", alg_name);
}

static void zinc_pieces(struct blake2s_state *st, const u8 *msg, size_t len,
			const u8 *splits, unsigned int nsplits)
{
	size_t off = 0, piece;
	unsigned int i;

	for (i = 0; i < nsplits && off < len; ++i, off += piece) {
		piece = min((size_t)splits[i], len - off);
		blake2s_update(st, msg + off, piece);
	}
	blake2s_update(st, msg + off, len - off);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fuzz_input in = { data, size };
	u8 key[80], splits[16], out_z[32], out_o[32], *msg;
	size_t keylen, outlen, len;
	unsigned int nsplits;
	struct blake2s_state st;
	const char *level;
	unsigned int md_len;

	level = fuzz_pick_level(fuzz_u8(&in));
	keylen = fuzz_u8(&in) % (sizeof(key) + 1);
	outlen = fuzz_u8(&in) % 32 + 1;
	nsplits = fuzz_u8(&in) % sizeof(splits);
	fuzz_bytes(&in, splits, nsplits);
	fuzz_bytes(&in, key, keylen);
	len = in.len;
	msg = malloc(len + 1);
	fuzz_bytes(&in, msg, len);

	/* Unkeyed, 32 bytes. */
	blake2s_init(&st, BLAKE2S_HASH_SIZE);
	zinc_pieces(&st, msg, len, splits, nsplits);
	blake2s_final(&st, out_z);
	if (!EVP_Digest(msg, len, out_o, &md_len, EVP_blake2s256(), NULL) ||
	    md_len != 32)
		FUZZ_FAIL("OpenSSL BLAKE2S-256 failed");
	if (memcmp(out_z, out_o, 32))
		FUZZ_FAIL("%s: blake2s-256 of %zu bytes differs", level, len);
	/* The one-shot helper agrees. */
	blake2s(out_z, msg, NULL, BLAKE2S_HASH_SIZE, len, 0);
	if (memcmp(out_z, out_o, 32))
		FUZZ_FAIL("%s: blake2s() of %zu bytes differs", level, len);

	/* Keyed, 1 to 32 bytes of key and of digest. */
	if (keylen >= 1 && keylen <= BLAKE2S_KEY_SIZE) {
		blake2s_init_key(&st, outlen, key, keylen);
		zinc_pieces(&st, msg, len, splits, nsplits);
		blake2s_final(&st, out_z);
		openssl_mac("BLAKE2SMAC", NULL, out_o, outlen, key, keylen,
			    msg, len);
		if (memcmp(out_z, out_o, outlen))
			FUZZ_FAIL("%s: keyed blake2s (key %zu, out %zu) of %zu bytes differs",
				  level, keylen, outlen, len);
	}

	/* HMAC-BLAKE2s, truncated to outlen as Zinc allows. */
	zinc_blake2s_hmac(out_z, msg, key, outlen, len, keylen);
	openssl_mac("HMAC", "BLAKE2S-256", out_o, 32, key, keylen, msg, len);
	if (memcmp(out_z, out_o, outlen))
		FUZZ_FAIL("%s: hmac-blake2s (key %zu) of %zu bytes differs",
			  level, keylen, len);
	free(msg);
	fuzz_check_clean(level);
	return 0;
}
