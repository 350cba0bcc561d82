// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Poly1305, Zinc against OpenSSL's POLY1305 MAC, the message fed to Zinc
 * in pieces whose sizes the fuzzer picks (so that the buffering of partial
 * blocks and the switches between the scalar and vector code are covered).
 *
 * Input: level, split count, key, one split byte per piece, message.
 */

#include "fuzz.h"

#include <zinc/poly1305.h>

#include <openssl/evp.h>

static void openssl_poly1305(u8 *mac, const u8 *key, const u8 *msg,
			     size_t len)
{
	static EVP_MAC *alg;
	EVP_MAC_CTX *ctx;
	size_t n;
	int ok;

	if (!alg)
		alg = EVP_MAC_fetch(NULL, "POLY1305", NULL);
	ctx = alg ? EVP_MAC_CTX_new(alg) : NULL;
	ok = ctx && EVP_MAC_init(ctx, key, 32, NULL) &&
	     EVP_MAC_update(ctx, msg, len) && EVP_MAC_final(ctx, mac, &n, 16);
	EVP_MAC_CTX_free(ctx);
	if (!ok)
		FUZZ_FAIL("OpenSSL POLY1305 failed");
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fuzz_input in = { data, size };
	u8 key[32], splits[16], mac_z[16], mac_o[16], *msg;
	struct poly1305_desc_ctx ctx;
	simd_context_t simd;
	unsigned int nsplits, i;
	size_t len, off, piece;
	const char *level;

	level = fuzz_pick_level(fuzz_u8(&in));
	nsplits = fuzz_u8(&in) % sizeof(splits);
	fuzz_bytes(&in, key, sizeof(key));
	fuzz_bytes(&in, splits, nsplits);
	len = in.len;
	msg = malloc(len + 1);
	fuzz_bytes(&in, msg, len);

	simd_get(&simd);
	zinc_poly1305_init(&ctx, key);
	/* Each split byte is a piece of up to 255 bytes, or 16 times that. */
	for (i = 0, off = 0; i < nsplits && off < len; ++i, off += piece) {
		piece = splits[i] & 0x80 ? (splits[i] & 0x7f) * 16 : splits[i];
		piece = min(piece, len - off);
		zinc_poly1305_update(&ctx, msg + off, piece, &simd);
		simd_relax(&simd);
	}
	zinc_poly1305_update(&ctx, msg + off, len - off, &simd);
	zinc_poly1305_final(&ctx, mac_z);
	simd_put(&simd);

	openssl_poly1305(mac_o, key, msg, len);
	if (memcmp(mac_z, mac_o, sizeof(mac_z)))
		FUZZ_FAIL("%s: poly1305 of %zu bytes in %u pieces differs",
			  level, len, nsplits);
	free(msg);
	fuzz_check_clean(level);
	return 0;
}
