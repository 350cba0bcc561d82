// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * X25519, Zinc against OpenSSL: the same shared secret for any scalar and
 * any 32 bytes of point (low-order points, u >= p, the top bit set, points
 * on the twist), and the same refusal when the result is all zeros, which
 * Zinc reports by returning false and OpenSSL by failing the derivation.
 * Public key generation (Zinc's fixed-base path) against OpenSSL's too.
 *
 * Input: level, scalar, point.
 */

#include "fuzz.h"

#include <zinc/curve25519.h>

#include <openssl/evp.h>

static bool openssl_x25519(u8 *out, const u8 *scalar, const u8 *point)
{
	EVP_PKEY *priv, *peer;
	EVP_PKEY_CTX *ctx;
	size_t len = 32;
	bool ok;

	priv = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, scalar, 32);
	peer = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, point, 32);
	if (!priv || !peer)
		FUZZ_FAIL("OpenSSL X25519 keys");
	ctx = EVP_PKEY_CTX_new(priv, NULL);
	ok = ctx && EVP_PKEY_derive_init(ctx) > 0 &&
	     EVP_PKEY_derive_set_peer(ctx, peer) > 0 &&
	     EVP_PKEY_derive(ctx, out, &len) > 0 && len == 32;
	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(peer);
	EVP_PKEY_free(priv);
	return ok;
}

static void openssl_public(u8 *pub, const u8 *scalar)
{
	EVP_PKEY *priv;
	size_t len = 32;

	priv = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, scalar, 32);
	if (!priv || !EVP_PKEY_get_raw_public_key(priv, pub, &len) || len != 32)
		FUZZ_FAIL("OpenSSL X25519 public key");
	EVP_PKEY_free(priv);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static const u8 zero[32];
	struct fuzz_input in = { data, size };
	u8 scalar[32], point[32], out_z[32], out_o[32];
	const char *level;
	bool ok_z, ok_o;

	level = fuzz_pick_level(fuzz_u8(&in));
	fuzz_bytes(&in, scalar, sizeof(scalar));
	fuzz_bytes(&in, point, sizeof(point));

	memset(out_o, 0, sizeof(out_o));
	ok_z = zinc_curve25519(out_z, scalar, point);
	ok_o = openssl_x25519(out_o, scalar, point);
	if (ok_z != ok_o || (ok_z && memcmp(out_z, out_o, 32)))
		FUZZ_FAIL("%s: x25519 differs (zinc %d, openssl %d)", level,
			  ok_z, ok_o);
	if (!ok_z && memcmp(out_z, zero, 32))
		FUZZ_FAIL("%s: x25519 refused a nonzero result", level);

	ok_z = zinc_curve25519_generate_public(out_z, scalar);
	openssl_public(out_o, scalar);
	if (!memcmp(scalar, zero, 32) ? ok_z :
	    !ok_z || memcmp(out_z, out_o, 32))
		FUZZ_FAIL("%s: public key differs (zinc %d)", level, ok_z);
	fuzz_check_clean(level);
	return 0;
}
