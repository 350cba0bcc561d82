#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The known-answer transcript of wgpeer kat, computed independently.

The same fixed keys, ephemerals, indices, timestamp, nonce and cookie as
wgpeer.c's kat(), through other primitives: Python's own BLAKE2s
(hashlib), X25519 and ChaCha20Poly1305 from python3-cryptography
(OpenSSL), and XChaCha20Poly1305 assembled here from HChaCha20 (the
XChaCha draft, section 2.2).  Prints the lines wgpeer kat prints.
"""
import hashlib
import struct

from cryptography.hazmat.primitives.asymmetric.x25519 import (
    X25519PrivateKey, X25519PublicKey)
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

CONSTRUCTION = b"Noise_IKpsk2_25519_ChaChaPoly_BLAKE2s"
IDENTIFIER = b"WireGuard v1 zx2c4 Jason@zx2c4.com"


def fill(n, v):
    return bytes((v + i) & 0xff for i in range(n))


def h(*parts):
    return hashlib.blake2s(b"".join(parts)).digest()


def mac(key, data):
    return hashlib.blake2s(data, digest_size=16, key=key).digest()


def hmac(key, data):
    key = key.ljust(64, b"\0")
    inner = h(bytes(k ^ 0x36 for k in key), data)
    return h(bytes(k ^ 0x5c for k in key), inner)


def kdf(n, ck, data):
    t0 = hmac(ck, data)
    out, t = [], b""
    for i in range(1, n + 1):
        t = hmac(t0, t + bytes([i]))
        out.append(t)
    return out


def pub(priv):
    return X25519PrivateKey.from_private_bytes(priv).public_key().public_bytes(
        Encoding.Raw, PublicFormat.Raw)


def dh(priv, peer):
    return X25519PrivateKey.from_private_bytes(priv).exchange(
        X25519PublicKey.from_public_bytes(peer))


def aead(key, counter, plain, ad):
    return ChaCha20Poly1305(key).encrypt(b"\0" * 4 + struct.pack("<Q", counter), plain, ad)


def hchacha20(key, nonce16):
    def rotl(x, n):
        return ((x << n) | (x >> (32 - n))) & 0xffffffff

    def qr(s, a, b, c, d):
        s[a] = (s[a] + s[b]) & 0xffffffff; s[d] = rotl(s[d] ^ s[a], 16)
        s[c] = (s[c] + s[d]) & 0xffffffff; s[b] = rotl(s[b] ^ s[c], 12)
        s[a] = (s[a] + s[b]) & 0xffffffff; s[d] = rotl(s[d] ^ s[a], 8)
        s[c] = (s[c] + s[d]) & 0xffffffff; s[b] = rotl(s[b] ^ s[c], 7)

    s = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]
    s += list(struct.unpack("<8I", key)) + list(struct.unpack("<4I", nonce16))
    for _ in range(10):
        qr(s, 0, 4, 8, 12); qr(s, 1, 5, 9, 13); qr(s, 2, 6, 10, 14); qr(s, 3, 7, 11, 15)
        qr(s, 0, 5, 10, 15); qr(s, 1, 6, 11, 12); qr(s, 2, 7, 8, 13); qr(s, 3, 4, 9, 14)
    return struct.pack("<8I", *(s[0:4] + s[12:16]))


def xaead(key, nonce24, plain, ad):
    sub = hchacha20(key, nonce24[:16])
    return ChaCha20Poly1305(sub).encrypt(b"\0" * 4 + nonce24[16:], plain, ad)


def tai64n(sec, nsec):
    return struct.pack(">QI", 0x400000000000000a + sec, nsec)


def main():
    si, sr, psk = fill(32, 0x10), fill(32, 0x40), fill(32, 0x70)
    ei, er = fill(32, 0xa0), fill(32, 0xc0)
    si_pub, sr_pub, ei_pub, er_pub = pub(si), pub(sr), pub(ei), pub(er)
    idx_i, idx_r = 0x11223344, 0x55667788
    lines = [("initiator-public", si_pub), ("responder-public", sr_pub)]

    # Initiation (whitepaper 5.4.2).
    ck = h(CONSTRUCTION)
    hh = h(h(ck, IDENTIFIER), sr_pub)
    ck, = kdf(1, ck, ei_pub)
    hh = h(hh, ei_pub)
    ck, k = kdf(2, ck, dh(ei, sr_pub))
    enc_static = aead(k, 0, si_pub, hh)
    hh = h(hh, enc_static)
    ck, k = kdf(2, ck, dh(si, sr_pub))
    enc_ts = aead(k, 0, tai64n(1700000000, 123456789), hh)
    hh = h(hh, enc_ts)
    body = struct.pack("<BxxxI", 1, idx_i) + ei_pub + enc_static + enc_ts
    mac1 = mac(h(b"mac1----", sr_pub), body)
    init = body + mac1 + b"\0" * 16
    lines.append(("initiation", init))

    # Response (5.4.3).
    ck, = kdf(1, ck, er_pub)
    hh = h(hh, er_pub)
    ck, = kdf(1, ck, dh(er, ei_pub))
    ck, = kdf(1, ck, dh(er, si_pub))
    ck, t, k = kdf(3, ck, psk)
    hh = h(hh, t)
    empty = aead(k, 0, b"", hh)
    body = struct.pack("<BxxxII", 2, idx_r, idx_i) + er_pub + empty
    lines.append(("response", body + mac(h(b"mac1----", si_pub), body) + b"\0" * 16))

    # Transport keys (5.4.5) and one data message each way.
    send_i, recv_i = kdf(2, ck, b"")
    lines += [("initiator-send", send_i), ("initiator-receive", recv_i)]
    lines.append(("data", struct.pack("<BxxxIQ", 4, idx_r, 0) +
                  aead(send_i, 0, b"WireGuard kat 16", b"")))
    lines.append(("keepalive", struct.pack("<BxxxIQ", 4, idx_i, 0) + aead(recv_i, 0, b"", b"")))

    # A cookie reply to the initiation (5.4.7), and the initiation with its mac2.
    nonce, cookie = fill(24, 0xe0), fill(16, 0xf0)
    lines.append(("cookie-reply", struct.pack("<BxxxI", 3, idx_i) + nonce +
                  xaead(h(b"cookie--", sr_pub), nonce, cookie, mac1)))
    lines.append(("initiation-with-mac2", init[:132] + mac(cookie, init[:132])))

    for name, value in lines:
        print(name, value.hex())


if __name__ == "__main__":
    main()
