// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * ChaCha20Poly1305, Zinc against OpenSSL (RFC 8439, with the 64-bit nonce
 * as the last 8 bytes of the 12-byte one), and XChaCha20Poly1305 against
 * libsodium: same ciphertext and tag; both decrypt it back; both reject it
 * with a bit flipped (in the ciphertext, the tag or the associated data),
 * and Zinc then leaves the output untouched.
 *
 * Input: level, flip position (2 bytes), ad length, key, nonce (24 bytes),
 * ad, plaintext (the rest).
 */

#include "fuzz.h"

#include <zinc/chacha20poly1305.h>

#include <openssl/evp.h>
#include <sodium.h>

static bool openssl_aead(bool enc, u8 *out, const u8 *in, size_t len,
			 const u8 *ad, size_t ad_len, u64 nonce, const u8 *key)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	u8 iv[12] = { 0 };
	int n, ok = 1;
	size_t data_len = enc ? len : len - 16;

	put_unaligned_le64(nonce, iv + 4);
	if (!ctx)
		FUZZ_FAIL("EVP_CIPHER_CTX_new");
	ok &= EVP_CipherInit_ex(ctx, EVP_chacha20_poly1305(), NULL, key, iv, enc);
	if (!enc)
		ok &= EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16,
					  (void *)(in + data_len));
	if (ad_len)
		ok &= EVP_CipherUpdate(ctx, NULL, &n, ad, ad_len);
	if (data_len)
		ok &= EVP_CipherUpdate(ctx, out, &n, in, data_len);
	if (ok && !EVP_CipherFinal_ex(ctx, out + data_len, &n))
		ok = 0;
	if (ok && enc)
		ok &= EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16,
					  out + data_len);
	EVP_CIPHER_CTX_free(ctx);
	return ok;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	if (sodium_init() < 0)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct fuzz_input in = { data, size };
	u8 key[32], xnonce[24], *ad, *pt, *ct_z, *ct_o, *out, *bad;
	size_t ad_len, pt_len, ct_len, flip;
	const char *level;
	u64 nonce;
	bool ok_z, ok_o;
	unsigned long long sodium_len;

	level = fuzz_pick_level(fuzz_u8(&in));
	flip = fuzz_u8(&in) | fuzz_u8(&in) << 8;
	ad_len = fuzz_u8(&in);
	fuzz_bytes(&in, key, sizeof(key));
	fuzz_bytes(&in, xnonce, sizeof(xnonce));
	nonce = get_unaligned_le64(xnonce);
	ad_len = min(ad_len, in.len);
	ad = malloc(ad_len + 1);
	fuzz_bytes(&in, ad, ad_len);
	pt_len = in.len;
	pt = malloc(pt_len + 1);
	fuzz_bytes(&in, pt, pt_len);
	ct_len = pt_len + 16;
	ct_z = malloc(ct_len);
	ct_o = malloc(ct_len);
	out = malloc(ct_len);
	bad = malloc(ct_len);

	zinc_chacha20poly1305_encrypt(ct_z, pt, pt_len, ad, ad_len, nonce, key);
	if (!openssl_aead(true, ct_o, pt, pt_len, ad, ad_len, nonce, key))
		FUZZ_FAIL("OpenSSL encrypt failed");
	if (memcmp(ct_z, ct_o, ct_len))
		FUZZ_FAIL("%s: encrypt: %zu bytes, ad %zu: ciphertext differs",
			  level, pt_len, ad_len);

	ok_z = zinc_chacha20poly1305_decrypt(out, ct_z, ct_len, ad, ad_len,
					     nonce, key);
	if (!ok_z || memcmp(out, pt, pt_len))
		FUZZ_FAIL("%s: decrypt of own ciphertext failed", level);
	ok_o = openssl_aead(false, out, ct_z, ct_len, ad, ad_len, nonce, key);
	if (!ok_o || memcmp(out, pt, pt_len))
		FUZZ_FAIL("OpenSSL decrypt of Zinc's ciphertext failed");

	/* Tampered: one bit of ciphertext, tag or associated data. */
	memcpy(bad, ct_z, ct_len);
	flip %= (ct_len + ad_len) * 8;
	if (flip < ct_len * 8)
		bad[flip / 8] ^= 1 << (flip % 8);
	else
		ad[flip / 8 - ct_len] ^= 1 << (flip % 8);
	memset(out, 0xa5, ct_len);
	ok_z = zinc_chacha20poly1305_decrypt(out, bad, ct_len, ad, ad_len,
					     nonce, key);
	if (memchr_inv(out, 0xa5, ct_len))
		FUZZ_FAIL("%s: rejected decrypt wrote plaintext", level);
	ok_o = openssl_aead(false, ct_o, bad, ct_len, ad, ad_len, nonce, key);
	if (ok_z || ok_o)
		FUZZ_FAIL("%s: tampered message accepted (zinc %d, openssl %d)",
			  level, ok_z, ok_o);
	if (flip >= ct_len * 8)
		ad[flip / 8 - ct_len] ^= 1 << (flip % 8);

	/* XChaCha20Poly1305 against libsodium (ad and ciphertext restored). */
	zinc_xchacha20poly1305_encrypt(ct_z, pt, pt_len, ad, ad_len, xnonce, key);
	crypto_aead_xchacha20poly1305_ietf_encrypt(ct_o, &sodium_len, pt, pt_len,
						   ad, ad_len, NULL, xnonce, key);
	if (sodium_len != ct_len || memcmp(ct_z, ct_o, ct_len))
		FUZZ_FAIL("%s: xchacha20poly1305: ciphertext differs", level);
	if (!zinc_xchacha20poly1305_decrypt(out, ct_z, ct_len, ad, ad_len,
					    xnonce, key) ||
	    memcmp(out, pt, pt_len))
		FUZZ_FAIL("%s: xchacha20poly1305: decrypt failed", level);
	ct_z[flip / 8 % ct_len] ^= 1 << (flip % 8);
	if (zinc_xchacha20poly1305_decrypt(out, ct_z, ct_len, ad, ad_len,
					   xnonce, key) ||
	    !crypto_aead_xchacha20poly1305_ietf_decrypt(out, NULL, NULL, ct_z,
							ct_len, ad, ad_len,
							xnonce, key))
		FUZZ_FAIL("%s: xchacha20poly1305: tampered message accepted",
			  level);

	free(ad);
	free(pt);
	free(ct_z);
	free(ct_o);
	free(out);
	free(bad);
	fuzz_check_clean(level);
	return 0;
}
