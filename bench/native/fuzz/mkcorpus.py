#!/usr/bin/env python3
# Writes the seed corpus of the fuzz targets (committed under corpus/; run
# again only to change it).  Deterministic: the same files every time.
#
#   bench/native/fuzz/mkcorpus.py [DIR]
#
# Every target's input starts with a byte that picks the implementation
# (generic, ssse3, avx, avx2, avx512); the seeds cover each with lengths
# around the block sizes and the widths of the vector code.  X25519 also
# gets the low-order points and non-canonical encodings (u >= p, top bit
# set) that RFC 7748 implementations must agree on.
import os
import random
import sys

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
rng = random.Random(20190322)
LEVELS = 5
LENS = [0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 512,
        513, 1023, 1024, 1420, 2047, 2048, 4096 - 100]


def rand(n):
    return bytes(rng.getrandbits(8) for _ in range(n))


def write(target, name, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


for i, n in enumerate(LENS):
    lv = i % LEVELS
    ad = rng.choice([0, 1, 13, 16, 64, 200])
    # aead: level, flip (2), ad length, key, 24-byte nonce, ad, plaintext
    write("aead", f"len{n}-ad{ad}-l{lv}",
          bytes([lv]) + rand(2) + bytes([ad]) + rand(32 + 24 + ad + n))
    # aead_sg: level, segments, flip (2), ad length, key, nonce, lengths, ad, pt
    segs = rng.choice([1, 2, 3, 7, 16, 63])
    lens = bytes(rng.choice([0, 1, 5, 16, 63, 64, 65, 200, 255]) for _ in range(segs - 1))
    write("aead_sg", f"len{n}-segs{segs}-l{lv}",
          bytes([lv, segs - 1]) + rand(2) + bytes([ad]) + rand(32 + 8) + lens +
          rand(ad + n))
    # poly1305: level, splits, key, split bytes, message
    splits = rng.randrange(16)
    write("poly1305", f"len{n}-splits{splits}-l{lv}",
          bytes([lv, splits]) + rand(32 + splits + n))
    # blake2s: level, key length, out length, splits, split bytes, key, msg
    kl = rng.choice([0, 1, 16, 32, 33, 64, 65, 80])
    write("blake2s", f"len{n}-key{kl}-l{lv}",
          bytes([lv, kl, rng.randrange(32), splits]) + rand(splits + kl + n))

# Poly1305 edge cases: the largest r, all-ones messages (carries).
for lv in range(LEVELS):
    write("poly1305", f"ones-l{lv}", bytes([lv, 0]) + b"\xff" * (32 + 1040))
    write("poly1305", f"zeros-l{lv}", bytes([lv, 0]) + b"\x00" * (32 + 300))

# X25519: level, scalar, point.
P = 2**255 - 19
special = {
    "zero": 0, "one": 1,
    "order8a": 0x00b8495f16056286fdb1329ceb8d09da6ac49ff1fae35616aeb8413b7c7aebe0,
    "order8b": 0x57119fd0dd4e22d8868e1c58c45c44045bef839c55b1d0b1248c50a3bc959c5f,
    "p-1": P - 1, "p": P, "p+1": P + 1,
    "order8a+p": 0x00b8495f16056286fdb1329ceb8d09da6ac49ff1fae35616aeb8413b7c7aebe0 + P,
    "order8b+p": 0x57119fd0dd4e22d8868e1c58c45c44045bef839c55b1d0b1248c50a3bc959c5f + P,
    "2p-1": 2 * P - 1, "2p": 2 * P, "2p+1": 2 * P + 1,
    "2^255-1": 2**255 - 1, "2^256-1": 2**256 - 1, "nine": 9, "p+9": P + 9,
    "2^255+9": 2**255 + 9,
}
for name, u in special.items():
    for lv in range(LEVELS):
        write("x25519", f"{name}-l{lv}", bytes([lv]) + rand(32) + u.to_bytes(32, "little"))
for lv in range(LEVELS):
    write("x25519", f"zero-scalar-l{lv}", bytes([lv]) + bytes(32) + (9).to_bytes(32, "little"))
    write("x25519", f"ones-scalar-l{lv}", bytes([lv]) + b"\xff" * 32 + rand(32))
    write("x25519", f"random-l{lv}", bytes([lv]) + rand(64))
