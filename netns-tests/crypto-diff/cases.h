/* SPDX-License-Identifier: GPL-2.0 */
/*
 * crypto-diff: one fixed, seeded set of inputs for each primitive, and the
 * driver that runs them through an implementation and folds every output
 * into one 64-bit digest per primitive.  The same file is compiled into the
 * guest's kernel module (cryptodiff.c: lib/crypto, and Zinc where the
 * kernel has it) and into the host's reference (ref.c: libsodium and
 * OpenSSL), so both sides draw the same inputs by construction; a digest
 * that differs is an output that differs.
 *
 * The includer provides u8, u32, u64, bool, size_t, memcpy(), memmove(),
 * memset(), and cd_yield() (the kernel's cond_resched(); nothing on the host).
 *
 * The inputs come from splitmix64 seeded with a constant per primitive.  The
 * digest is FNV-1a (64-bit) over each output's length and bytes, in order:
 * not a cryptographic hash, and it need not be one, as nothing here is
 * adversarial; it only has to be written twice the same way and change when
 * any output byte does.
 *
 * Every message and every output lies at the very end of its buffer, which
 * the kernel module allocates with vmalloc(): the unmapped guard page after
 * a vmalloc area turns any read or write past the end into a fault, at
 * every length.
 *
 * A "split" run of a primitive hands the implementation a second seeded
 * generator for how to cut the same computation up (incremental chunks, a
 * scatterlist layout).  The reference ignores it and computes in one go, so
 * a split run's digest must equal the primitive's own.
 *
 * A "layout" run moves the same inputs before each call: every buffer
 * (message, output, key, nonce, associated data) to its own seeded
 * alignment 0-127, and half the time the output over the input (in place
 * for ChaCha20 and the AEADs; for a MAC or hash, the output anywhere inside
 * the message it covers).  Curve25519's output never overlaps its inputs:
 * no API here promises that it may.  Its digest, too, must be the
 * primitive's own.
 */
#ifndef CRYPTO_DIFF_CASES_H
#define CRYPTO_DIFF_CASES_H

#define CD_MAX_LEN	4096	/* message lengths 0 to this, each once */
#define CD_TAG		16
#define CD_MAX_AD	64
#define CD_HMAC_MAX_KEY	96	/* past BLAKE2s's 64-byte block: hashed */
#define CD_X25519_RUNS	256

struct cd_rng {
	u64 s;
};

static inline u64 cd_next(struct cd_rng *r)
{
	u64 z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * A number in [0, n), from the draw's top 32 bits scaled by n: no 64-bit
 * division, which 32-bit ARM kernels have no helper for.
 */
static inline u32 cd_below(struct cd_rng *r, u32 n)
{
	return (u32)(((cd_next(r) >> 32) * n) >> 32);
}

static inline void cd_fill(struct cd_rng *r, u8 *p, size_t len)
{
	u64 v = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		if (!(i & 7))
			v = cd_next(r);
		p[i] = (u8)v;
		v >>= 8;
	}
}

static inline void cd_fold(u64 *h, const u8 *p, size_t len)
{
	u64 n = len;
	size_t i;

	for (i = 0; i < 8; i++, n >>= 8)
		*h = (*h ^ (u8)n) * 0x100000001b3ULL;
	for (i = 0; i < len; i++)
		*h = (*h ^ p[i]) * 0x100000001b3ULL;
}

static inline void cd_fold_bool(u64 *h, bool v)
{
	u8 b = v;

	cd_fold(h, &b, 1);
}

/*
 * What an implementation provides.  split is NULL for a run in one go; in a
 * split run it is the generator to draw the cuts from.  nonce is 8 bytes
 * (little-endian, ChaCha20Poly1305) or 24 (XChaCha20Poly1305), as nonce_len
 * says.  x25519 with a NULL point is the public key of scalar.  A member
 * left NULL is a primitive this implementation does not have.
 */
struct cd_ops {
	void (*chacha20)(u8 *dst, const u8 *src, size_t len, const u8 *key,
			 u64 nonce, u32 counter, struct cd_rng *split);
	void (*poly1305)(u8 *tag, const u8 *msg, size_t len, const u8 *key,
			 struct cd_rng *split);
	void (*aead_encrypt)(u8 *dst, const u8 *src, size_t len, const u8 *ad,
			     size_t ad_len, const u8 *nonce, size_t nonce_len,
			     const u8 *key, struct cd_rng *split);
	bool (*aead_decrypt)(u8 *dst, const u8 *src, size_t len, const u8 *ad,
			     size_t ad_len, const u8 *nonce, size_t nonce_len,
			     const u8 *key, struct cd_rng *split);
	void (*blake2s)(u8 *out, size_t outlen, const u8 *in, size_t len,
			const u8 *key, size_t keylen, struct cd_rng *split);
	void (*blake2s_hmac)(u8 *out, const u8 *in, size_t len,
			     const u8 *key, size_t keylen);
	bool (*x25519)(u8 *out, const u8 *scalar, const u8 *point);
};

enum cd_prim {
	CD_CHACHA20,
	CD_POLY1305,
	CD_CHACHA20POLY1305,
	CD_XCHACHA20POLY1305,
	CD_BLAKE2S,
	CD_BLAKE2S_HMAC,
	CD_X25519,
	CD_X25519_BASE,
	CD_NR_PRIMS
};

static const char *const cd_prim_name[CD_NR_PRIMS] = {
	[CD_CHACHA20] = "chacha20",
	[CD_POLY1305] = "poly1305",
	[CD_CHACHA20POLY1305] = "chacha20poly1305",
	[CD_XCHACHA20POLY1305] = "xchacha20poly1305",
	[CD_BLAKE2S] = "blake2s",
	[CD_BLAKE2S_HMAC] = "blake2s-hmac",
	[CD_X25519] = "curve25519",
	[CD_X25519_BASE] = "curve25519-base",
};

enum cd_mode {
	CD_WHOLE,	/* in one go, every buffer ending at its guard page */
	CD_SPLIT,	/* cut up as a second generator says */
	CD_LAYOUT,	/* in one go, at other alignments, output over input */
};

/* Whether a primitive has a split run, and what the split is. */
static const char *const cd_split_name[CD_NR_PRIMS] = {
	[CD_CHACHA20] = "chacha20-split",
	[CD_POLY1305] = "poly1305-split",
	[CD_CHACHA20POLY1305] = "chacha20poly1305-sg",
	[CD_BLAKE2S] = "blake2s-split",
};

/*
 * The buffers a run needs, from the caller: src, dst and back are CD_BUF
 * bytes each, and what a run puts in one ends where the buffer does
 * (cd_end()).
 */
#define CD_BUF		8192

struct cd_bufs {
	u8 *src, *dst, *back;
	u8 key[CD_HMAC_MAX_KEY];
	u8 ad[CD_MAX_AD];
	u8 nonce[24];
};

static inline u8 *cd_end(u8 *buf, size_t len)
{
	return buf + CD_BUF - len;
}

/*
 * A layout run's places.  Messages and outputs end within 127 bytes of
 * their buffer's end, so from 3953 bytes in; keys, nonces and associated
 * data go at the start of the back buffer, each in its own 256 bytes.
 */
#define CD_AT_KEY	0
#define CD_AT_NONCE	256
#define CD_AT_AD	512

/* Copy len bytes from p to a seeded alignment past buf + off; the copy. */
static inline const u8 *cd_put(struct cd_rng *at, u8 *buf, size_t off,
			       const u8 *p, size_t len)
{
	u8 *q = buf + off + cd_below(at, 128);

	memcpy(q, p, len);
	return q;
}

/*
 * Move a message of len bytes (at cd_end(b->src, len)) to a seeded
 * alignment, and place its outlen-byte output: over the message, at a
 * seeded offset inside it, half the time when it fits (exactly in place
 * when outlen is len), else at an alignment of its own in b->dst.
 */
static inline void cd_place(struct cd_rng *at, struct cd_bufs *b, u8 **msg,
			    u8 **out, size_t len, size_t outlen, bool overlap)
{
	u8 *m = cd_end(b->src, len + cd_below(at, 128));

	memmove(m, *msg, len);
	*msg = m;
	if (overlap && len >= outlen && cd_below(at, 2))
		*out = m + cd_below(at, (u32)(len - outlen + 1));
	else
		*out = cd_end(b->dst, outlen + cd_below(at, 128));
}

static inline bool cd_has(const struct cd_ops *ops, enum cd_prim p)
{
	switch (p) {
	case CD_CHACHA20:
		return ops->chacha20;
	case CD_POLY1305:
		return ops->poly1305;
	case CD_CHACHA20POLY1305:
	case CD_XCHACHA20POLY1305:
		return ops->aead_encrypt && ops->aead_decrypt;
	case CD_BLAKE2S:
		return ops->blake2s;
	case CD_BLAKE2S_HMAC:
		return ops->blake2s_hmac;
	case CD_X25519:
	case CD_X25519_BASE:
		return ops->x25519;
	default:
		return false;
	}
}

/*
 * Each AEAD message is sealed, opened, then opened again with one bit of
 * the sealed message (tag included) flipped, which must fail.  What a
 * failed open leaves in its output is not folded: implementations differ.
 * In a layout run, half the messages are sealed and opened in place (the
 * sealed copy kept in b->back for the flipped open), the rest each at an
 * alignment of its own.
 */
static void cd_run_aead(const struct cd_ops *ops, struct cd_bufs *b,
			struct cd_rng *r, struct cd_rng *at, size_t len,
			size_t nonce_len, u64 *h, enum cd_mode mode)
{
	u8 *src = cd_end(b->src, len), *sealed = cd_end(b->dst, len + CD_TAG);
	u8 *back = cd_end(b->back, len), *keep = NULL;
	const u8 *key = b->key, *nonce = b->nonce, *ad = b->ad;
	struct cd_rng cuts, *split = mode == CD_SPLIT ? &cuts : NULL;
	size_t ad_len, bit;
	bool ok;

	cd_fill(r, b->key, 32);
	cd_fill(r, b->nonce, nonce_len);
	ad_len = cd_below(r, CD_MAX_AD + 1);
	cd_fill(r, b->ad, ad_len);
	cd_fill(r, src, len);
	bit = cd_below(r, (u32)(len + CD_TAG) * 8);
	cuts.s = cd_next(r);

	if (mode == CD_LAYOUT) {
		key = cd_put(at, b->back, CD_AT_KEY, key, 32);
		nonce = cd_put(at, b->back, CD_AT_NONCE, nonce, nonce_len);
		ad = cd_put(at, b->back, CD_AT_AD, ad, ad_len);
		if (cd_below(at, 2)) {
			sealed = cd_end(b->dst, len + CD_TAG + cd_below(at, 128));
			memcpy(sealed, src, len);
			src = sealed;
			back = sealed;
			keep = cd_end(b->back, len + CD_TAG);
		} else {
			cd_place(at, b, &src, &sealed, len, len + CD_TAG, false);
			back = cd_end(b->back, len + cd_below(at, 128));
		}
	}

	ops->aead_encrypt(sealed, src, len, ad, ad_len, nonce, nonce_len, key,
			  split);
	cd_fold(h, sealed, len + CD_TAG);
	if (keep)
		memcpy(keep, sealed, len + CD_TAG);
	ok = ops->aead_decrypt(back, sealed, len + CD_TAG, ad, ad_len, nonce,
			       nonce_len, key, split);
	cd_fold_bool(h, ok);
	if (ok)
		cd_fold(h, back, len);
	if (keep)
		memcpy(sealed, keep, len + CD_TAG);
	sealed[bit / 8] ^= (u8)(1U << (bit % 8));
	ok = ops->aead_decrypt(back, sealed, len + CD_TAG, ad, ad_len, nonce,
			       nonce_len, key, split);
	cd_fold_bool(h, ok);
}

/* Run primitive p, in the given mode, over its whole input set; its digest. */
static u64 cd_run(const struct cd_ops *ops, enum cd_prim p, enum cd_mode mode,
		  struct cd_bufs *b)
{
	struct cd_rng r = { 0x5eed0000ULL + (u64)p * 0x1000193ULL };
	struct cd_rng at = { 0x1a70000ULL + (u64)p * 0x1000193ULL };
	struct cd_rng cuts, *split = mode == CD_SPLIT ? &cuts : NULL;
	bool layout = mode == CD_LAYOUT;
	u64 h = 0xcbf29ce484222325ULL;
	size_t len, keylen, outlen;
	const u8 *key;
	u8 *src, *out;
	u64 nonce;
	u32 counter;
	bool ok;
	int i;

	switch (p) {
	case CD_CHACHA20:
		for (len = 0; len <= CD_MAX_LEN; len++) {
			src = cd_end(b->src, len);
			out = cd_end(b->dst, len);
			cd_fill(&r, b->key, 32);
			nonce = cd_next(&r);
			counter = cd_below(&r, 1U << 16);
			cd_fill(&r, src, len);
			cuts.s = cd_next(&r);
			key = b->key;
			if (layout) {
				key = cd_put(&at, b->back, CD_AT_KEY, key, 32);
				cd_place(&at, b, &src, &out, len, len, true);
			}
			ops->chacha20(out, src, len, key, nonce, counter, split);
			cd_fold(&h, out, len);
			cd_yield();
		}
		break;
	case CD_POLY1305:
		for (len = 0; len <= CD_MAX_LEN; len++) {
			src = cd_end(b->src, len);
			out = cd_end(b->dst, CD_TAG);
			cd_fill(&r, b->key, 32);
			cd_fill(&r, src, len);
			cuts.s = cd_next(&r);
			key = b->key;
			if (layout) {
				key = cd_put(&at, b->back, CD_AT_KEY, key, 32);
				cd_place(&at, b, &src, &out, len, CD_TAG, true);
			}
			ops->poly1305(out, src, len, key, split);
			cd_fold(&h, out, CD_TAG);
			cd_yield();
		}
		break;
	case CD_CHACHA20POLY1305:
	case CD_XCHACHA20POLY1305:
		for (len = 0; len <= CD_MAX_LEN; len++) {
			cd_run_aead(ops, b, &r, &at, len,
				    p == CD_CHACHA20POLY1305 ? 8 : 24, &h,
				    mode);
			cd_yield();
		}
		break;
	case CD_BLAKE2S:
		/* Unkeyed digests are 32 bytes: OpenSSL has no other. */
		for (len = 0; len <= CD_MAX_LEN; len++) {
			keylen = cd_below(&r, 33);
			outlen = 1 + cd_below(&r, 32);
			if (!keylen)
				outlen = 32;
			src = cd_end(b->src, len);
			out = cd_end(b->dst, outlen);
			cd_fill(&r, b->key, keylen);
			cd_fill(&r, src, len);
			cuts.s = cd_next(&r);
			key = b->key;
			if (layout) {
				key = cd_put(&at, b->back, CD_AT_KEY, key,
					     keylen);
				cd_place(&at, b, &src, &out, len, outlen, true);
			}
			ops->blake2s(out, outlen, src, len, key, keylen, split);
			cd_fold(&h, out, outlen);
			cd_yield();
		}
		break;
	case CD_BLAKE2S_HMAC:
		for (len = 0; len <= CD_MAX_LEN; len++) {
			keylen = cd_below(&r, CD_HMAC_MAX_KEY + 1);
			src = cd_end(b->src, len);
			out = cd_end(b->dst, 32);
			cd_fill(&r, b->key, keylen);
			cd_fill(&r, src, len);
			key = b->key;
			if (layout) {
				key = cd_put(&at, b->back, CD_AT_KEY, key,
					     keylen);
				cd_place(&at, b, &src, &out, len, 32, true);
			}
			ops->blake2s_hmac(out, src, len, key, keylen);
			cd_fold(&h, out, 32);
			cd_yield();
		}
		break;
	case CD_X25519:
	case CD_X25519_BASE:
		/*
		 * The points are random, but for two of order 1 and 2
		 * (zero and one) first, whose shared secret is zero: refused.
		 */
		for (i = 0; i < CD_X25519_RUNS; i++) {
			src = cd_end(b->src, 32);
			out = cd_end(b->dst, 32);
			cd_fill(&r, b->key, 32);
			cd_fill(&r, src, 32);
			if (p == CD_X25519 && i < 2) {
				memset(src, 0, 32);
				src[0] = (u8)i;
			}
			key = b->key;
			if (layout) {
				key = cd_put(&at, b->back, CD_AT_KEY, key, 32);
				cd_place(&at, b, &src, &out, 32, 32, false);
			}
			ok = ops->x25519(out, key, p == CD_X25519 ? src : NULL);
			cd_fold_bool(&h, ok);
			if (ok)
				cd_fold(&h, out, 32);
			cd_yield();
		}
		break;
	default:
		break;
	}
	return h;
}

#endif /* CRYPTO_DIFF_CASES_H */
