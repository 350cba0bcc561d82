// SPDX-License-Identifier: GPL-2.0
/*
 * Noise_IKpsk2 as WireGuard uses it, from the whitepaper (section 5.4)
 * and the Noise specification; BLAKE2s from RFC 7693.  See noise.h.
 */
#include <string.h>
#include <sodium.h>
#include "noise.h"

static const char construction[] = "Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s";
static const char identifier[] = "WireGuard v1 zx2c4 Jason@zx2c4.com";
static const char label_mac1[] = "mac1----";
static const char label_cookie[] = "cookie--";

/* BLAKE2s, RFC 7693 section 3 and appendix D. */
static const uint32_t b2s_iv[8] = {
	0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
	0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19,
};
static const uint8_t b2s_sigma[10][16] = {
	{ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 },
	{ 14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3 },
	{ 11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4 },
	{ 7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8 },
	{ 9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13 },
	{ 2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9 },
	{ 12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11 },
	{ 13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10 },
	{ 6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5 },
	{ 10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0 },
};

struct b2s {
	uint32_t h[8], t[2];
	uint8_t buf[64];
	size_t fill, outlen;
};

static uint32_t ror32(uint32_t x, int n)
{
	return x >> n | x << (32 - n);
}

static void b2s_compress(struct b2s *s, int last)
{
	uint32_t v[16], m[16];
	int i, r;

	for (i = 0; i < 16; i++)
		m[i] = get_le32(s->buf + 4 * i);
	for (i = 0; i < 8; i++) {
		v[i] = s->h[i];
		v[i + 8] = b2s_iv[i];
	}
	v[12] ^= s->t[0];
	v[13] ^= s->t[1];
	if (last)
		v[14] = ~v[14];
#define G(a, b, c, d, x, y) do {					\
		v[a] += v[b] + (x); v[d] = ror32(v[d] ^ v[a], 16);	\
		v[c] += v[d]; v[b] = ror32(v[b] ^ v[c], 12);		\
		v[a] += v[b] + (y); v[d] = ror32(v[d] ^ v[a], 8);	\
		v[c] += v[d]; v[b] = ror32(v[b] ^ v[c], 7);		\
	} while (0)
	for (r = 0; r < 10; r++) {
		const uint8_t *z = b2s_sigma[r];

		G(0, 4, 8, 12, m[z[0]], m[z[1]]);
		G(1, 5, 9, 13, m[z[2]], m[z[3]]);
		G(2, 6, 10, 14, m[z[4]], m[z[5]]);
		G(3, 7, 11, 15, m[z[6]], m[z[7]]);
		G(0, 5, 10, 15, m[z[8]], m[z[9]]);
		G(1, 6, 11, 12, m[z[10]], m[z[11]]);
		G(2, 7, 8, 13, m[z[12]], m[z[13]]);
		G(3, 4, 9, 14, m[z[14]], m[z[15]]);
	}
#undef G
	for (i = 0; i < 8; i++)
		s->h[i] ^= v[i] ^ v[i + 8];
}

static void b2s_count(struct b2s *s, uint32_t n)
{
	s->t[0] += n;
	if (s->t[0] < n)
		s->t[1]++;
}

static void b2s_update(struct b2s *s, const uint8_t *in, size_t len)
{
	while (len) {
		size_t n;

		/* A full buffer is compressed only once more input comes:
		 * the last block is compressed by b2s_final. */
		if (s->fill == 64) {
			b2s_count(s, 64);
			b2s_compress(s, 0);
			s->fill = 0;
		}
		n = 64 - s->fill < len ? 64 - s->fill : len;
		memcpy(s->buf + s->fill, in, n);
		s->fill += n;
		in += n;
		len -= n;
	}
}

static void b2s_init(struct b2s *s, size_t outlen, const uint8_t *key, size_t keylen)
{
	memset(s, 0, sizeof(*s));
	memcpy(s->h, b2s_iv, sizeof(s->h));
	s->h[0] ^= 0x01010000 ^ (uint32_t)keylen << 8 ^ (uint32_t)outlen;
	s->outlen = outlen;
	if (keylen) {
		uint8_t block[64] = { 0 };

		memcpy(block, key, keylen);
		b2s_update(s, block, 64);
	}
}

static void b2s_final(struct b2s *s, uint8_t *out)
{
	uint8_t full[32];
	int i;

	b2s_count(s, (uint32_t)s->fill);
	memset(s->buf + s->fill, 0, 64 - s->fill);
	b2s_compress(s, 1);
	for (i = 0; i < 8; i++)
		put_le32(full + 4 * i, s->h[i]);
	memcpy(out, full, s->outlen);
}

void blake2s(uint8_t *out, size_t outlen, const uint8_t *key, size_t keylen,
	     const uint8_t *in, size_t inlen)
{
	struct b2s s;

	b2s_init(&s, outlen, key, keylen);
	b2s_update(&s, in, inlen);
	b2s_final(&s, out);
}

/* HASH(a || b) */
static void hash2(uint8_t out[WG_KEY], const void *a, size_t alen,
		  const void *b, size_t blen)
{
	struct b2s s;

	b2s_init(&s, WG_KEY, NULL, 0);
	b2s_update(&s, a, alen);
	b2s_update(&s, b, blen);
	b2s_final(&s, out);
}

/* HMAC (RFC 2104) over BLAKE2s-256, block 64 bytes. */
void hmac(uint8_t out[WG_KEY], const uint8_t *key, size_t keylen,
	  const uint8_t *in, size_t inlen)
{
	uint8_t k[64] = { 0 }, pad[64], inner[WG_KEY];
	struct b2s s;
	int i;

	if (keylen > 64)
		blake2s(k, WG_KEY, NULL, 0, key, keylen);
	else
		memcpy(k, key, keylen);
	for (i = 0; i < 64; i++)
		pad[i] = k[i] ^ 0x36;
	b2s_init(&s, WG_KEY, NULL, 0);
	b2s_update(&s, pad, 64);
	b2s_update(&s, in, inlen);
	b2s_final(&s, inner);
	for (i = 0; i < 64; i++)
		pad[i] = k[i] ^ 0x5c;
	hash2(out, pad, 64, inner, WG_KEY);
}

void kdf(uint8_t *out1, uint8_t *out2, uint8_t *out3, const uint8_t ck[WG_KEY],
	 const uint8_t *in, size_t inlen)
{
	uint8_t t0[WG_KEY], t[WG_KEY + 1];

	hmac(t0, ck, WG_KEY, in, inlen);
	t[0] = 1;
	hmac(t, t0, WG_KEY, t, 1);
	memcpy(out1, t, WG_KEY);
	if (out2) {
		t[WG_KEY] = 2;
		hmac(t, t0, WG_KEY, t, WG_KEY + 1);
		memcpy(out2, t, WG_KEY);
	}
	if (out3) {
		t[WG_KEY] = 3;
		hmac(t, t0, WG_KEY, t, WG_KEY + 1);
		memcpy(out3, t, WG_KEY);
	}
}

int noise_pubkey(uint8_t pub[WG_KEY], const uint8_t priv[WG_KEY])
{
	return crypto_scalarmult_base(pub, priv);
}

void tai64n(uint8_t out[WG_TS], int64_t unix_sec, uint32_t nsec)
{
	uint64_t s = 0x400000000000000aULL + (uint64_t)unix_sec;
	int i;

	for (i = 0; i < 8; i++)
		out[i] = s >> (56 - 8 * i);
	for (i = 0; i < 4; i++)
		out[8 + i] = nsec >> (24 - 8 * i);
}

static void nonce12(uint8_t n[12], uint64_t counter)
{
	int i;

	memset(n, 0, 4);
	for (i = 0; i < 8; i++)
		n[4 + i] = counter >> (8 * i);
}

static void aead_seal(uint8_t *c, const uint8_t key[WG_KEY], uint64_t counter,
		      const uint8_t *m, size_t mlen, const uint8_t *ad, size_t adlen)
{
	uint8_t n[12];

	nonce12(n, counter);
	crypto_aead_chacha20poly1305_ietf_encrypt(c, NULL, m, mlen, ad, adlen,
						  NULL, n, key);
}

static int aead_open(uint8_t *m, const uint8_t key[WG_KEY], uint64_t counter,
		     const uint8_t *c, size_t clen, const uint8_t *ad, size_t adlen)
{
	uint8_t n[12];

	nonce12(n, counter);
	return crypto_aead_chacha20poly1305_ietf_decrypt(m, NULL, NULL, c, clen,
							 ad, adlen, n, key);
}

static int dh(uint8_t out[WG_KEY], const uint8_t priv[WG_KEY], const uint8_t pub[WG_KEY])
{
	return crypto_scalarmult(out, priv, pub);
}

/* ck = HASH(Construction); h = HASH(HASH(ck || Identifier) || responder's static) */
static void hs_start(struct handshake *hs, const uint8_t responder_pub[WG_KEY])
{
	blake2s(hs->ck, WG_KEY, NULL, 0, (const uint8_t *)construction,
		sizeof(construction) - 1);
	hash2(hs->h, hs->ck, WG_KEY, identifier, sizeof(identifier) - 1);
	hash2(hs->h, hs->h, WG_KEY, responder_pub, WG_KEY);
}

static void mix_hash(struct handshake *hs, const uint8_t *in, size_t len)
{
	hash2(hs->h, hs->h, WG_KEY, in, len);
}

void mac1_of(uint8_t out[WG_MAC], const uint8_t receiver_pub[WG_KEY],
	     const uint8_t *msg, size_t len)
{
	uint8_t key[WG_KEY];

	hash2(key, label_mac1, 8, receiver_pub, WG_KEY);
	blake2s(out, WG_MAC, key, WG_KEY, msg, len - 2 * WG_MAC);
}

void mac2_of(uint8_t out[WG_MAC], const uint8_t cookie[WG_MAC],
	     const uint8_t *msg, size_t len)
{
	blake2s(out, WG_MAC, cookie, WG_MAC, msg, len - WG_MAC);
}

static void add_macs(struct handshake *hs, const uint8_t peer_pub[WG_KEY],
		     uint8_t *msg, size_t len)
{
	mac1_of(msg + len - 2 * WG_MAC, peer_pub, msg, len);
	memcpy(hs->mac1_sent, msg + len - 2 * WG_MAC, WG_MAC);
	if (hs->have_cookie)
		mac2_of(msg + len - WG_MAC, hs->cookie, msg, len);
	else
		memset(msg + len - WG_MAC, 0, WG_MAC);
}

int noise_create_initiation(struct handshake *hs, const struct peer_keys *k,
			    uint8_t msg[INIT_LEN])
{
	uint8_t key[WG_KEY], shared[WG_KEY];

	hs_start(hs, k->peer);
	memset(msg, 0, INIT_LEN);
	msg[0] = MSG_INIT;
	put_le32(msg + 4, hs->local_index);
	if (noise_pubkey(hs->e_pub, hs->e_priv))
		return -1;
	memcpy(msg + 8, hs->e_pub, WG_KEY);
	kdf(hs->ck, NULL, NULL, hs->ck, hs->e_pub, WG_KEY);
	mix_hash(hs, hs->e_pub, WG_KEY);
	if (dh(shared, hs->e_priv, k->peer))
		return -1;
	kdf(hs->ck, key, NULL, hs->ck, shared, WG_KEY);
	aead_seal(msg + 40, key, 0, k->pub, WG_KEY, hs->h, WG_KEY);
	mix_hash(hs, msg + 40, WG_KEY + WG_TAG);
	if (dh(shared, k->priv, k->peer))
		return -1;
	kdf(hs->ck, key, NULL, hs->ck, shared, WG_KEY);
	aead_seal(msg + 88, key, 0, hs->ts, WG_TS, hs->h, WG_KEY);
	mix_hash(hs, msg + 88, WG_TS + WG_TAG);
	add_macs(hs, k->peer, msg, INIT_LEN);
	return 0;
}

int noise_consume_initiation(struct handshake *hs, const struct peer_keys *k,
			     const uint8_t msg[INIT_LEN], const char **why)
{
	uint8_t key[WG_KEY], shared[WG_KEY], mac[WG_MAC];

	mac1_of(mac, k->pub, msg, INIT_LEN);
	if (msg[0] != MSG_INIT || sodium_memcmp(mac, msg + INIT_MAC1, WG_MAC)) {
		*why = "mac1 is not made with our public key";
		return -1;
	}
	hs_start(hs, k->pub);
	hs->remote_index = get_le32(msg + 4);
	memcpy(hs->remote_e, msg + 8, WG_KEY);
	kdf(hs->ck, NULL, NULL, hs->ck, hs->remote_e, WG_KEY);
	mix_hash(hs, hs->remote_e, WG_KEY);
	if (dh(shared, k->priv, hs->remote_e)) {
		*why = "the ephemeral is a low-order point";
		return -1;
	}
	kdf(hs->ck, key, NULL, hs->ck, shared, WG_KEY);
	if (aead_open(hs->remote_static, key, 0, msg + 40, WG_KEY + WG_TAG, hs->h, WG_KEY)) {
		*why = "the static key does not decrypt";
		return -1;
	}
	mix_hash(hs, msg + 40, WG_KEY + WG_TAG);
	if (sodium_memcmp(hs->remote_static, k->peer, WG_KEY)) {
		*why = "the static key is not our peer's";
		return -1;
	}
	if (dh(shared, k->priv, k->peer)) {
		*why = "the peer's static key is a low-order point";
		return -1;
	}
	kdf(hs->ck, key, NULL, hs->ck, shared, WG_KEY);
	if (aead_open(hs->ts, key, 0, msg + 88, WG_TS + WG_TAG, hs->h, WG_KEY)) {
		*why = "the timestamp does not decrypt";
		return -1;
	}
	mix_hash(hs, msg + 88, WG_TS + WG_TAG);
	return 0;
}

/* The responder's and the initiator's common part after the ephemerals:
 * ee, se, psk; then the empty AEAD, sealed or opened at p. */
static int resp_keys(struct handshake *hs, const struct peer_keys *k,
		     const uint8_t ee[WG_KEY], const uint8_t se[WG_KEY],
		     uint8_t *p, int seal)
{
	uint8_t t[WG_KEY], key[WG_KEY];

	kdf(hs->ck, NULL, NULL, hs->ck, ee, WG_KEY);
	kdf(hs->ck, NULL, NULL, hs->ck, se, WG_KEY);
	kdf(hs->ck, t, key, hs->ck, k->psk, WG_KEY);
	mix_hash(hs, t, WG_KEY);
	if (seal)
		aead_seal(p, key, 0, NULL, 0, hs->h, WG_KEY);
	else if (aead_open(NULL, key, 0, p, WG_TAG, hs->h, WG_KEY))
		return -1;
	mix_hash(hs, p, WG_TAG);
	return 0;
}

int noise_create_response(struct handshake *hs, const struct peer_keys *k,
			  uint8_t msg[RESP_LEN])
{
	uint8_t ee[WG_KEY], se[WG_KEY];

	memset(msg, 0, RESP_LEN);
	msg[0] = MSG_RESP;
	put_le32(msg + 4, hs->local_index);
	put_le32(msg + 8, hs->remote_index);
	if (noise_pubkey(hs->e_pub, hs->e_priv))
		return -1;
	memcpy(msg + 12, hs->e_pub, WG_KEY);
	kdf(hs->ck, NULL, NULL, hs->ck, hs->e_pub, WG_KEY);
	mix_hash(hs, hs->e_pub, WG_KEY);
	if (dh(ee, hs->e_priv, hs->remote_e) || dh(se, hs->e_priv, k->peer))
		return -1;
	resp_keys(hs, k, ee, se, msg + 44, 1);
	add_macs(hs, k->peer, msg, RESP_LEN);
	return 0;
}

int noise_consume_response(struct handshake *hs, const struct peer_keys *k,
			   const uint8_t msg[RESP_LEN], const char **why)
{
	uint8_t ee[WG_KEY], se[WG_KEY], mac[WG_MAC];

	mac1_of(mac, k->pub, msg, RESP_LEN);
	if (msg[0] != MSG_RESP || sodium_memcmp(mac, msg + RESP_MAC1, WG_MAC)) {
		*why = "mac1 is not made with our public key";
		return -1;
	}
	if (get_le32(msg + 8) != hs->local_index) {
		*why = "it answers an index we did not send";
		return -1;
	}
	hs->remote_index = get_le32(msg + 4);
	memcpy(hs->remote_e, msg + 12, WG_KEY);
	kdf(hs->ck, NULL, NULL, hs->ck, hs->remote_e, WG_KEY);
	mix_hash(hs, hs->remote_e, WG_KEY);
	if (dh(ee, hs->e_priv, hs->remote_e) || dh(se, k->priv, hs->remote_e)) {
		*why = "the ephemeral is a low-order point";
		return -1;
	}
	if (resp_keys(hs, k, ee, se, (uint8_t *)msg + 44, 0)) {
		*why = "its empty payload does not authenticate (keys or preshared key differ)";
		return -1;
	}
	return 0;
}

void noise_session(struct session *s, const struct handshake *hs, int initiator)
{
	uint8_t t1[WG_KEY], t2[WG_KEY];

	kdf(t1, t2, NULL, hs->ck, NULL, 0);
	memcpy(s->send, initiator ? t1 : t2, WG_KEY);
	memcpy(s->recv, initiator ? t2 : t1, WG_KEY);
	s->local_index = hs->local_index;
	s->remote_index = hs->remote_index;
	s->send_counter = 0;
}

int noise_consume_cookie(struct handshake *hs, const uint8_t sender_pub[WG_KEY],
			 const uint8_t msg[COOKIE_LEN])
{
	uint8_t key[WG_KEY];

	hash2(key, label_cookie, 8, sender_pub, WG_KEY);
	if (msg[0] != MSG_COOKIE ||
	    crypto_aead_xchacha20poly1305_ietf_decrypt(hs->cookie, NULL, NULL, msg + 32,
						       WG_MAC + WG_TAG, hs->mac1_sent,
						       WG_MAC, msg + 8, key))
		return -1;
	hs->have_cookie = 1;
	return 0;
}

void noise_create_cookie(uint8_t msg[COOKIE_LEN], const uint8_t our_pub[WG_KEY],
			 uint32_t receiver, const uint8_t cookie[WG_MAC],
			 const uint8_t mac1[WG_MAC], const uint8_t nonce[24])
{
	uint8_t key[WG_KEY];

	hash2(key, label_cookie, 8, our_pub, WG_KEY);
	memset(msg, 0, COOKIE_LEN);
	msg[0] = MSG_COOKIE;
	put_le32(msg + 4, receiver);
	memcpy(msg + 8, nonce, 24);
	crypto_aead_xchacha20poly1305_ietf_encrypt(msg + 32, NULL, cookie, WG_MAC,
						   mac1, WG_MAC, NULL, nonce, key);
}

size_t noise_seal(struct session *s, uint8_t *msg, const uint8_t *plain, size_t len)
{
	uint64_t c = s->send_counter++;
	int i;

	memset(msg, 0, DATA_HDR);
	msg[0] = MSG_DATA;
	put_le32(msg + 4, s->remote_index);
	for (i = 0; i < 8; i++)
		msg[8 + i] = c >> (8 * i);
	aead_seal(msg + DATA_HDR, s->send, c, plain, len, NULL, 0);
	return DATA_HDR + len + WG_TAG;
}

long noise_open(const struct session *s, const uint8_t *msg, size_t len,
		uint8_t *plain, uint64_t *counter)
{
	uint64_t c = 0;
	int i;

	if (len < DATA_HDR + WG_TAG || msg[0] != MSG_DATA ||
	    get_le32(msg + 4) != s->local_index)
		return -1;
	for (i = 0; i < 8; i++)
		c |= (uint64_t)msg[8 + i] << (8 * i);
	if (aead_open(plain, s->recv, c, msg + DATA_HDR, len - DATA_HDR, NULL, 0))
		return -1;
	*counter = c;
	return (long)(len - DATA_HDR - WG_TAG);
}
