/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The harness's own WireGuard: Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s as
 * the WireGuard whitepaper (section 5.4) and the Noise specification
 * write it.  BLAKE2s is written here from RFC 7693; X25519 and the two
 * AEADs are libsodium's.  Nothing is shared with the kernel or
 * wireguard-go.
 */
#ifndef WGPEER_NOISE_H
#define WGPEER_NOISE_H

#include <stddef.h>
#include <stdint.h>

#define WG_KEY 32
#define WG_MAC 16
#define WG_TAG 16
#define WG_TS 12

enum { MSG_INIT = 1, MSG_RESP = 2, MSG_COOKIE = 3, MSG_DATA = 4 };
enum {
	INIT_LEN = 148, RESP_LEN = 92, COOKIE_LEN = 64, DATA_HDR = 16,
	INIT_MAC1 = 116, RESP_MAC1 = 60,	/* offsets of mac1; mac2 follows */
};

/* BLAKE2s-256, keyed or not, and the MAC (16-byte keyed BLAKE2s). */
void blake2s(uint8_t *out, size_t outlen, const uint8_t *key, size_t keylen,
	     const uint8_t *in, size_t inlen);
void hmac(uint8_t out[WG_KEY], const uint8_t *key, size_t keylen,
	  const uint8_t *in, size_t inlen);
/* KDF_n(key, input): n = 1, 2 or 3 outputs of 32 bytes (out2/out3 may be NULL). */
void kdf(uint8_t *out1, uint8_t *out2, uint8_t *out3, const uint8_t ck[WG_KEY],
	 const uint8_t *in, size_t inlen);

struct peer_keys {
	uint8_t priv[WG_KEY], pub[WG_KEY];	/* our static pair */
	uint8_t peer[WG_KEY];			/* the other side's static public */
	uint8_t psk[WG_KEY];			/* zero: none */
};

struct handshake {
	uint8_t ck[WG_KEY], h[WG_KEY];
	uint8_t e_priv[WG_KEY], e_pub[WG_KEY];
	uint8_t remote_e[WG_KEY];
	uint8_t ts[WG_TS];		/* initiator: sent; responder: received */
	uint8_t remote_static[WG_KEY];
	uint32_t local_index, remote_index;
	uint8_t mac1_sent[WG_MAC];	/* of our last message, for a cookie reply */
	uint8_t cookie[WG_MAC];
	int have_cookie;
};

struct session {
	uint8_t send[WG_KEY], recv[WG_KEY];
	uint32_t local_index, remote_index;
	uint64_t send_counter;
};

int noise_pubkey(uint8_t pub[WG_KEY], const uint8_t priv[WG_KEY]);
void tai64n(uint8_t out[WG_TS], int64_t unix_sec, uint32_t nsec);

/* Messages: each writes the whole message, mac1 and mac2 included (mac2
 * zero unless the handshake holds a cookie).  e_priv must be set. */
int noise_create_initiation(struct handshake *hs, const struct peer_keys *k,
			    uint8_t msg[INIT_LEN]);
/* Responder: checks mac1, decrypts the initiator's static (must be
 * k->peer) and timestamp into hs.  0, or -1 with *why set. */
int noise_consume_initiation(struct handshake *hs, const struct peer_keys *k,
			     const uint8_t msg[INIT_LEN], const char **why);
int noise_create_response(struct handshake *hs, const struct peer_keys *k,
			  uint8_t msg[RESP_LEN]);
int noise_consume_response(struct handshake *hs, const struct peer_keys *k,
			   const uint8_t msg[RESP_LEN], const char **why);
/* The transport keys, once the handshake is done. */
void noise_session(struct session *s, const struct handshake *hs, int initiator);

/* mac1 and mac2 of a handshake message of len bytes (mac1 at len - 32). */
void mac1_of(uint8_t out[WG_MAC], const uint8_t receiver_pub[WG_KEY],
	     const uint8_t *msg, size_t len);
void mac2_of(uint8_t out[WG_MAC], const uint8_t cookie[WG_MAC],
	     const uint8_t *msg, size_t len);
/* A cookie reply to us: its cookie into hs (keyed by the sender's static
 * public, about our last mac1).  0, or -1 if it does not decrypt. */
int noise_consume_cookie(struct handshake *hs, const uint8_t sender_pub[WG_KEY],
			 const uint8_t msg[COOKIE_LEN]);
/* A cookie reply from us (the responder), for a message whose mac1 was
 * mac1 and whose sender index is receiver: cookie = MAC(secret, source). */
void noise_create_cookie(uint8_t msg[COOKIE_LEN], const uint8_t our_pub[WG_KEY],
			 uint32_t receiver, const uint8_t cookie[WG_MAC],
			 const uint8_t mac1[WG_MAC], const uint8_t nonce[24]);

/* Transport data: plain (len bytes, already padded) into msg; returns
 * the message's length.  Open: the plaintext's length, or -1. */
size_t noise_seal(struct session *s, uint8_t *msg, const uint8_t *plain, size_t len);
long noise_open(const struct session *s, const uint8_t *msg, size_t len,
		uint8_t *plain, uint64_t *counter);

static inline void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = v; p[1] = v >> 8; p[2] = v >> 16; p[3] = v >> 24;
}

static inline uint32_t get_le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

#endif
