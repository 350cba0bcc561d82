// SPDX-License-Identifier: GPL-2.0
/*
 * crypto-diff's guest side: run cases.h's seeded inputs through lib/crypto,
 * and through Zinc when the kernel has it, and print one digest line per
 * primitive and implementation, "cryptodiff: IMPL PRIM DIGEST".  The guest's
 * entry compares them with the host's reference (ref.c).  Loading runs
 * everything, once; the module then stays loaded until removed, and does
 * nothing more.
 */
#define pr_fmt(fmt) "cryptodiff: " fmt

#include <asm/unaligned.h>
#include <crypto/blake2s.h>
#include <crypto/chacha.h>
#include <crypto/chacha20poly1305.h>
#include <crypto/curve25519.h>
#include <crypto/poly1305.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/scatterlist.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#define CD_HAVE_ZINC (IS_ENABLED(CONFIG_ZINC_CHACHA20) && \
		      IS_ENABLED(CONFIG_ZINC_POLY1305) && \
		      IS_ENABLED(CONFIG_ZINC_CHACHA20POLY1305) && \
		      IS_ENABLED(CONFIG_ZINC_BLAKE2S) && \
		      IS_ENABLED(CONFIG_ZINC_CURVE25519))
#if CD_HAVE_ZINC
#include <zinc/blake2s.h>
#include <zinc/chacha20.h>
#include <zinc/chacha20poly1305.h>
#include <zinc/curve25519.h>
#include <zinc/poly1305.h>
#endif

#define cd_yield() cond_resched()
#include "cases.h"

/*
 * A split run's chunk: 1 to 300 bytes, or whole 64-byte blocks for
 * ChaCha20, whose every call starts a new block.
 */
static size_t cd_chunk(struct cd_rng *cuts, size_t left, size_t unit)
{
	size_t n = unit == 1 ? 1 + cd_below(cuts, 300) :
			       unit * (1 + cd_below(cuts, 8));

	return min(n, left);
}

/*
 * The scatterlist of a split AEAD run: the message and its tag in segments
 * of 1 byte up to the whole, each at a seeded gap after the one before in
 * one 64 KiB arena, from a random offset in its first 4 KiB, so a segment
 * may cross a page and a block or the tag may be cut anywhere.  (At most
 * 4 KiB + 4112 segments * 7 bytes of gap + 4112 bytes: 37 KiB.)
 */
#define CD_ARENA	(64 * 1024)
#define CD_MAX_SEGS	(CD_MAX_LEN + CD_TAG)

static u8 *cd_arena;
static struct scatterlist *cd_sg;

/* Lay len bytes out as a scatterlist, the first copy of them from src. */
static void cd_scatter(struct cd_rng *cuts, const u8 *src, size_t copy,
		       size_t len)
{
	static const u32 max_seg[] = { 1, 3, 17, 64, 700, CD_MAX_SEGS };
	u32 most = max_seg[cd_below(cuts, ARRAY_SIZE(max_seg))];
	size_t off = cd_below(cuts, SZ_4K), done = 0, n;
	int nsegs = 0;

	sg_init_table(cd_sg, CD_MAX_SEGS);
	while (done < len) {
		n = min_t(size_t, 1 + cd_below(cuts, most), len - done);
		off += cd_below(cuts, 8);
		if (done < copy)
			memcpy(cd_arena + off, src + done, min(n, copy - done));
		sg_set_buf(&cd_sg[nsegs++], cd_arena + off, n);
		off += n;
		done += n;
	}
	if (!nsegs)
		sg_set_buf(&cd_sg[nsegs++], cd_arena, 0);
	sg_mark_end(&cd_sg[nsegs - 1]);
}

static void cd_gather(u8 *dst, size_t len)
{
	sg_copy_to_buffer(cd_sg, sg_nents(cd_sg), dst, len);
}

/* lib/crypto */

static void lib_chacha20(u8 *dst, const u8 *src, size_t len, const u8 *key,
			 u64 nonce, u32 counter, struct cd_rng *split)
{
	u32 state[16], k[CHACHA_KEY_SIZE / sizeof(u32)];
	u8 iv[CHACHA_IV_SIZE];
	size_t n;
	int i;

	for (i = 0; i < ARRAY_SIZE(k); i++)
		k[i] = get_unaligned_le32(key + 4 * i);
	put_unaligned_le32(counter, iv);
	put_unaligned_le32(0, iv + 4);
	put_unaligned_le64(nonce, iv + 8);
	chacha_init(state, k, iv);
	if (!split) {
		chacha20_crypt(state, dst, src, len);
		return;
	}
	for (; len; len -= n, dst += n, src += n) {
		n = cd_chunk(split, len, CHACHA_BLOCK_SIZE);
		chacha20_crypt(state, dst, src, n);
	}
}

static void lib_poly1305(u8 *tag, const u8 *msg, size_t len, const u8 *key,
			 struct cd_rng *split)
{
	struct poly1305_desc_ctx ctx;
	size_t n;

	poly1305_init(&ctx, key);
	for (; len; len -= n, msg += n) {
		n = split ? cd_chunk(split, len, 1) : len;
		poly1305_update(&ctx, msg, n);
	}
	poly1305_final(&ctx, tag);
}

static void lib_aead_encrypt(u8 *dst, const u8 *src, size_t len,
			     const u8 *ad, size_t ad_len, const u8 *nonce,
			     size_t nonce_len, const u8 *key,
			     struct cd_rng *split)
{
	if (nonce_len == XCHACHA20POLY1305_NONCE_SIZE) {
		xchacha20poly1305_encrypt(dst, src, len, ad, ad_len, nonce,
					  key);
	} else if (!split) {
		chacha20poly1305_encrypt(dst, src, len, ad, ad_len,
					 get_unaligned_le64(nonce), key);
	} else {
		cd_scatter(split, src, len, len + CD_TAG);
		if (chacha20poly1305_encrypt_sg_inplace(cd_sg, len, ad, ad_len,
							get_unaligned_le64(nonce),
							key))
			cd_gather(dst, len + CD_TAG);
		else
			memset(dst, 0, len + CD_TAG);
	}
}

static bool lib_aead_decrypt(u8 *dst, const u8 *src, size_t len,
			     const u8 *ad, size_t ad_len, const u8 *nonce,
			     size_t nonce_len, const u8 *key,
			     struct cd_rng *split)
{
	bool ok;

	if (nonce_len == XCHACHA20POLY1305_NONCE_SIZE)
		return xchacha20poly1305_decrypt(dst, src, len, ad, ad_len,
						 nonce, key);
	if (!split)
		return chacha20poly1305_decrypt(dst, src, len, ad, ad_len,
						get_unaligned_le64(nonce), key);
	cd_scatter(split, src, len, len);
	ok = chacha20poly1305_decrypt_sg_inplace(cd_sg, len, ad, ad_len,
						 get_unaligned_le64(nonce),
						 key);
	if (ok)
		cd_gather(dst, len - CD_TAG);
	return ok;
}

static void lib_blake2s(u8 *out, size_t outlen, const u8 *in, size_t len,
			const u8 *key, size_t keylen, struct cd_rng *split)
{
	struct blake2s_state state;
	size_t n;

	if (!split) {
		blake2s(out, in, keylen ? key : NULL, outlen, len, keylen);
		return;
	}
	if (keylen)
		blake2s_init_key(&state, outlen, key, keylen);
	else
		blake2s_init(&state, outlen);
	for (; len; len -= n, in += n) {
		n = cd_chunk(split, len, 1);
		blake2s_update(&state, in, n);
	}
	blake2s_final(&state, out);
}

static bool lib_x25519(u8 *out, const u8 *scalar, const u8 *point)
{
	if (!point)
		return curve25519_generate_public(out, scalar);
	return curve25519(out, scalar, point);
}

static const struct cd_ops lib_ops = {
	.chacha20 = lib_chacha20,
	.poly1305 = lib_poly1305,
	.aead_encrypt = lib_aead_encrypt,
	.aead_decrypt = lib_aead_decrypt,
	.blake2s = lib_blake2s,
	.x25519 = lib_x25519,
};

#if CD_HAVE_ZINC
/*
 * Zinc.  Its BLAKE2s is lib/crypto's (wg-patches 0008): only the HMAC is
 * its own.  Every SIMD call shares one context per message, as WireGuard's.
 */

static void zinc_chacha20_run(u8 *dst, const u8 *src, size_t len,
			      const u8 *key, u64 nonce, u32 counter,
			      struct cd_rng *split)
{
	simd_context_t simd;
	struct chacha20_ctx ctx;
	size_t n;

	chacha20_init(&ctx, key, nonce);
	ctx.counter[0] = counter;
	simd_get(&simd);
	for (; len; len -= n, dst += n, src += n) {
		n = split ? cd_chunk(split, len, CHACHA20_BLOCK_SIZE) : len;
		zinc_chacha20(&ctx, dst, src, n, &simd);
	}
	simd_put(&simd);
}

static void zinc_poly1305_run(u8 *tag, const u8 *msg, size_t len,
			      const u8 *key, struct cd_rng *split)
{
	struct poly1305_desc_ctx ctx;
	simd_context_t simd;
	size_t n;

	zinc_poly1305_init(&ctx, key);
	simd_get(&simd);
	for (; len; len -= n, msg += n) {
		n = split ? cd_chunk(split, len, 1) : len;
		zinc_poly1305_update(&ctx, msg, n, &simd);
	}
	simd_put(&simd);
	zinc_poly1305_final(&ctx, tag);
}

static void zinc_aead_encrypt(u8 *dst, const u8 *src, size_t len,
			      const u8 *ad, size_t ad_len, const u8 *nonce,
			      size_t nonce_len, const u8 *key,
			      struct cd_rng *split)
{
	simd_context_t simd;
	bool ok;

	if (nonce_len == XCHACHA20POLY1305_NONCE_SIZE) {
		zinc_xchacha20poly1305_encrypt(dst, src, len, ad, ad_len,
					       nonce, key);
	} else if (!split) {
		zinc_chacha20poly1305_encrypt(dst, src, len, ad, ad_len,
					      get_unaligned_le64(nonce), key);
	} else {
		cd_scatter(split, src, len, len + CD_TAG);
		simd_get(&simd);
		ok = zinc_chacha20poly1305_encrypt_sg_inplace(cd_sg, len, ad,
							      ad_len,
							      get_unaligned_le64(nonce),
							      key, &simd);
		simd_put(&simd);
		if (ok)
			cd_gather(dst, len + CD_TAG);
		else
			memset(dst, 0, len + CD_TAG);
	}
}

static bool zinc_aead_decrypt(u8 *dst, const u8 *src, size_t len,
			      const u8 *ad, size_t ad_len, const u8 *nonce,
			      size_t nonce_len, const u8 *key,
			      struct cd_rng *split)
{
	simd_context_t simd;
	bool ok;

	if (nonce_len == XCHACHA20POLY1305_NONCE_SIZE)
		return zinc_xchacha20poly1305_decrypt(dst, src, len, ad, ad_len,
						      nonce, key);
	if (!split)
		return zinc_chacha20poly1305_decrypt(dst, src, len, ad, ad_len,
						     get_unaligned_le64(nonce),
						     key);
	cd_scatter(split, src, len, len);
	simd_get(&simd);
	ok = zinc_chacha20poly1305_decrypt_sg_inplace(cd_sg, len, ad, ad_len,
						      get_unaligned_le64(nonce),
						      key, &simd);
	simd_put(&simd);
	if (ok)
		cd_gather(dst, len - CD_TAG);
	return ok;
}

static void zinc_blake2s_hmac_run(u8 *out, const u8 *in, size_t len,
				  const u8 *key, size_t keylen)
{
	zinc_blake2s_hmac(out, in, key, BLAKE2S_HASH_SIZE, len, keylen);
}

static bool zinc_x25519(u8 *out, const u8 *scalar, const u8 *point)
{
	if (!point)
		return zinc_curve25519_generate_public(out, scalar);
	return zinc_curve25519(out, scalar, point);
}

static const struct cd_ops zinc_ops = {
	.chacha20 = zinc_chacha20_run,
	.poly1305 = zinc_poly1305_run,
	.aead_encrypt = zinc_aead_encrypt,
	.aead_decrypt = zinc_aead_decrypt,
	.blake2s_hmac = zinc_blake2s_hmac_run,
	.x25519 = zinc_x25519,
};
#endif

static void cd_run_impl(const char *impl, const struct cd_ops *ops,
			struct cd_bufs *b)
{
	enum cd_prim p;

	for (p = 0; p < CD_NR_PRIMS; p++) {
		if (!cd_has(ops, p))
			continue;
		pr_info("%s %s %016llx\n", impl, cd_prim_name[p],
			cd_run(ops, p, CD_WHOLE, b));
		if (cd_split_name[p])
			pr_info("%s %s %016llx\n", impl, cd_split_name[p],
				cd_run(ops, p, CD_SPLIT, b));
		pr_info("%s %s-layout %016llx\n", impl, cd_prim_name[p],
			cd_run(ops, p, CD_LAYOUT, b));
	}
}

static int __init cryptodiff_init(void)
{
	struct cd_bufs *b;
	int ret = -ENOMEM;

	/* Each buffer a vmalloc area of its own: a guard page after it. */
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (b) {
		b->src = vmalloc(CD_BUF);
		b->dst = vmalloc(CD_BUF);
		b->back = vmalloc(CD_BUF);
	}
	cd_arena = kmalloc(CD_ARENA, GFP_KERNEL);
	cd_sg = kvmalloc_array(CD_MAX_SEGS, sizeof(*cd_sg), GFP_KERNEL);
	if (!b || !b->src || !b->dst || !b->back || !cd_arena || !cd_sg)
		goto out;

	pr_info("impls: lib/crypto%s\n", CD_HAVE_ZINC ? " zinc" : "");
	cd_run_impl("lib/crypto", &lib_ops, b);
#if CD_HAVE_ZINC
	cd_run_impl("zinc", &zinc_ops, b);
#endif
	pr_info("done\n");
	ret = 0;
out:
	kvfree(cd_sg);
	kfree(cd_arena);
	if (b) {
		vfree(b->src);
		vfree(b->dst);
		vfree(b->back);
	}
	kfree(b);
	return ret;
}

static void __exit cryptodiff_exit(void)
{
}

module_init(cryptodiff_init);
module_exit(cryptodiff_exit);
MODULE_DESCRIPTION("crypto-diff: lib/crypto and Zinc on seeded inputs");
MODULE_LICENSE("GPL");
