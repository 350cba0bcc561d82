// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * In-place scatter-gather ChaCha20Poly1305, Zinc against OpenSSL's buffer
 * encryption: the message and its tag are spread over segments whose
 * lengths the fuzzer picks (zero-length ones included, the tag split
 * anywhere), each its own allocation.  The ciphertext gathered from the
 * segments must equal OpenSSL's, decrypting in place must give the
 * plaintext back, and a flipped bit anywhere must be rejected.
 *
 * Input: level, segment count, flip position (2 bytes), ad length, key,
 * nonce, one length byte per segment, ad, plaintext (the rest).
 */

#include "fuzz.h"

#include <zinc/chacha20poly1305.h>

#include <openssl/evp.h>

#define MAX_SEGS 64

static void openssl_encrypt(u8 *out, const u8 *in, size_t len, const u8 *ad,
			    size_t ad_len, u64 nonce, const u8 *key)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	u8 iv[12] = { 0 };
	int n, ok = !!ctx;

	put_unaligned_le64(nonce, iv + 4);
	ok = ok && EVP_EncryptInit_ex(ctx, EVP_chacha20_poly1305(), NULL, key, iv);
	if (ad_len)
		ok = ok && EVP_EncryptUpdate(ctx, NULL, &n, ad, ad_len);
	if (len)
		ok = ok && EVP_EncryptUpdate(ctx, out, &n, in, len);
	ok = ok && EVP_EncryptFinal_ex(ctx, out + len, &n);
	ok = ok && EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, out + len);
	EVP_CIPHER_CTX_free(ctx);
	if (!ok)
		FUZZ_FAIL("OpenSSL encrypt failed");
}

static void scatter(struct scatterlist *sg, unsigned int n, const u8 *buf)
{
	unsigned int i;

	for (i = 0; i < n; buf += sg[i++].length)
		memcpy(sg[i].buf, buf, sg[i].length);
}

static void gather(u8 *buf, struct scatterlist *sg, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; buf += sg[i++].length)
		memcpy(buf, sg[i].buf, sg[i].length);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fuzz_input in = { data, size };
	struct scatterlist sg[MAX_SEGS];
	u8 key[32], nonce_b[8], lens[MAX_SEGS], *ad, *pt, *ct, *buf;
	size_t ad_len, pt_len, total, left, flip;
	simd_context_t simd;
	unsigned int nsegs, i;
	const char *level;
	u64 nonce;
	bool ok;

	level = fuzz_pick_level(fuzz_u8(&in));
	nsegs = fuzz_u8(&in) % MAX_SEGS + 1;
	flip = fuzz_u8(&in) | fuzz_u8(&in) << 8;
	ad_len = fuzz_u8(&in);
	fuzz_bytes(&in, key, sizeof(key));
	fuzz_bytes(&in, nonce_b, sizeof(nonce_b));
	nonce = get_unaligned_le64(nonce_b);
	fuzz_bytes(&in, lens, nsegs - 1);
	ad_len = min(ad_len, in.len);
	ad = malloc(ad_len + 1);
	fuzz_bytes(&in, ad, ad_len);
	pt_len = in.len;
	pt = malloc(pt_len + 1);
	fuzz_bytes(&in, pt, pt_len);
	total = pt_len + 16;
	ct = malloc(total);
	buf = malloc(total);

	/* Segment i gets lens[i] bytes, the last one whatever is left. */
	sg_init_table(sg, nsegs);
	for (i = 0, left = total; i < nsegs; ++i) {
		size_t len = i == nsegs - 1 ? left : min((size_t)lens[i], left);

		sg_set_buf(&sg[i], malloc(len + 1), len);
		left -= len;
	}
	memcpy(buf, pt, pt_len);
	memset(buf + pt_len, 0, 16);
	scatter(sg, nsegs, buf);

	openssl_encrypt(ct, pt, pt_len, ad, ad_len, nonce, key);
	simd_get(&simd);
	ok = zinc_chacha20poly1305_encrypt_sg_inplace(sg, pt_len, ad, ad_len,
						      nonce, key, &simd);
	simd_put(&simd);
	gather(buf, sg, nsegs);
	if (!ok || memcmp(buf, ct, total))
		FUZZ_FAIL("%s: sg encrypt, %zu bytes in %u segments: %s", level,
			  pt_len, nsegs, ok ? "ciphertext differs" : "failed");

	simd_get(&simd);
	ok = zinc_chacha20poly1305_decrypt_sg_inplace(sg, total, ad, ad_len,
						      nonce, key, &simd);
	simd_put(&simd);
	gather(buf, sg, nsegs);
	if (!ok || memcmp(buf, pt, pt_len))
		FUZZ_FAIL("%s: sg decrypt, %zu bytes in %u segments failed",
			  level, pt_len, nsegs);

	/* One bit flipped in the ciphertext or tag must be rejected. */
	flip %= total * 8;
	ct[flip / 8] ^= 1 << (flip % 8);
	scatter(sg, nsegs, ct);
	simd_get(&simd);
	ok = zinc_chacha20poly1305_decrypt_sg_inplace(sg, total, ad, ad_len,
						      nonce, key, &simd);
	simd_put(&simd);
	if (ok)
		FUZZ_FAIL("%s: sg decrypt accepted bit %zu flipped", level, flip);

	for (i = 0; i < nsegs; ++i)
		free(sg[i].buf);
	free(ad);
	free(pt);
	free(ct);
	free(buf);
	fuzz_check_clean(level);
	return 0;
}
