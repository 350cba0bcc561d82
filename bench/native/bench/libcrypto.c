// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The benchmark's view of lib/crypto, built from the same tree: its own
 * translation unit, since lib/crypto's and Zinc's headers declare the same
 * names.
 */

#include <crypto/blake2s.h>
#include <crypto/chacha20poly1305.h>
#include <crypto/curve25519.h>

#include "libcrypto.h"

int zn_init_lc_chacha_x86(void);
int zn_init_lc_poly1305_x86(void);
int zn_init_lc_blake2s_x86(void);

/*
 * The x86_64 glue's module_init: enables the static keys of what the CPU
 * (as masked) has.  Keys are only ever enabled, so call it for the lower
 * path first.
 */
void lc_init(void)
{
	zn_init_lc_chacha_x86();
	zn_init_lc_poly1305_x86();
	zn_init_lc_blake2s_x86();
}

void lc_aead_encrypt(u8 *dst, const u8 *src, size_t len, u64 nonce,
		     const u8 *key)
{
	chacha20poly1305_encrypt(dst, src, len, NULL, 0, nonce, key);
}

bool lc_aead_decrypt(u8 *dst, const u8 *src, size_t len, u64 nonce,
		     const u8 *key)
{
	return chacha20poly1305_decrypt(dst, src, len, NULL, 0, nonce, key);
}

void lc_blake2s(u8 *out, const u8 *in, size_t len)
{
	blake2s(out, in, NULL, BLAKE2S_HASH_SIZE, len, 0);
}

void lc_x25519_generic(u8 *out, const u8 *scalar, const u8 *point)
{
	curve25519_generic(out, scalar, point);
}

void lc_x25519_arch(u8 *out, const u8 *scalar, const u8 *point)
{
	curve25519_arch(out, scalar, point);
}
