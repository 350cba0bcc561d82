/* SPDX-License-Identifier: GPL-2.0 OR MIT */
#ifndef _ZINC_BENCH_LIBCRYPTO_H
#define _ZINC_BENCH_LIBCRYPTO_H
void lc_init(void);
void lc_aead_encrypt(u8 *dst, const u8 *src, size_t len, u64 nonce,
		     const u8 *key);
bool lc_aead_decrypt(u8 *dst, const u8 *src, size_t len, u64 nonce,
		     const u8 *key);
void lc_blake2s(u8 *out, const u8 *in, size_t len);
void lc_x25519_generic(u8 *out, const u8 *scalar, const u8 *point);
void lc_x25519_arch(u8 *out, const u8 *scalar, const u8 *point);
#endif
