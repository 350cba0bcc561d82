#!/bin/bash
# wgpeer checked on its own, with no kernel WireGuard (part of make test):
# it builds; its known-answer transcript equals kat.py's, computed through
# other primitives (Python's BLAKE2s, OpenSSL's X25519 and ChaCha20Poly1305
# through python3-cryptography); a changed byte is caught; and two
# instances complete a handshake over the host's loopback and carry an
# echo each way through it, with and without a preshared key, and fail it
# when only one side has the key.  KTAP out.
set -e -o pipefail
export LC_ALL=C

prog=guest-image/peer/check.sh
die() { echo "$prog: $*" >&2; exit 1; }

top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/guest-image/peer
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wgt-peer-check.XXXXXX")
pids=
trap 'for p in $pids; do kill "$p" 2> /dev/null || true; done; rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

. "$top/netns-tests/ktap-checks.sh"
ktap_begin peer 6

t_build() {
	gcc -O2 -Wall -Wextra -Werror -o "$tmp/wgpeer" "$here/wgpeer.c" "$here/noise.c" -lsodium ||
		die "wgpeer does not build (libsodium-dev)"
}
check "wgpeer builds" t_build

t_kat() {
	"$tmp/wgpeer" kat > "$tmp/kat.c"
	/usr/bin/python3 "$here/kat.py" > "$tmp/kat.py" ||
		die "kat.py failed (python3-cryptography)"
	diff -u "$tmp/kat.py" "$tmp/kat.c" || die "wgpeer's transcript differs from kat.py's"
	echo "$(wc -l < "$tmp/kat.c") lines equal"
}
check "known-answer transcript: wgpeer equals kat.py" t_kat

# A check that can fail: the same comparison with one byte of one line
# changed must report that line.
t_kat_mutated() {
	sed '3s/^\(initiation 0100000044\)33/\134/' "$tmp/kat.c" > "$tmp/kat.bad"
	! cmp -s "$tmp/kat.bad" "$tmp/kat.c" || die "the mutation changed nothing"
	! diff -u "$tmp/kat.py" "$tmp/kat.bad" > "$tmp/kat.diff" || die "a changed byte was not caught"
	grep -q '^+initiation 01000000443422' "$tmp/kat.diff" || die "the diff does not name the changed line"
}
check "known-answer transcript: a changed byte is caught" t_kat_mutated

# pair PORT_OFFSET PSK_R PSK_I: a responder and an initiator on loopback
# ports; the responder answers and serves an echo, the initiator pings.
# Their outputs in $tmp/r.out and $tmp/i.out.
pair() {
	local pr=$((40000 + $1)) pi=$((40100 + $1)) ki kr pubi pubr rc=0
	ki=$(head -c 32 /dev/urandom | base64) kr=$(head -c 32 /dev/urandom | base64)
	pubi=$(key_pub "$ki") pubr=$(key_pub "$kr")
	"$tmp/wgpeer" run --listen "$pr" --key "$kr" --peer-key "$pubi" ${2:+--psk "$2"} \
		--inner 10.9.0.2,10.9.0.1 --transcript "$tmp/r.tr" \
		await-init,wait=10 respond serve,wait=10 ping,wait=10 > "$tmp/r.out" 2>&1 &
	local r=$! i
	pids="$pids $r"
	for i in $(seq 100); do
		! ss -Hlun "sport = :$pr" | grep . > /dev/null || break
		sleep 0.1
	done
	"$tmp/wgpeer" run --listen "$pi" --peer "127.0.0.1:$pr" --key "$ki" --peer-key "$pubr" \
		${3:+--psk "$3"} --inner 10.9.0.1,10.9.0.2 --transcript "$tmp/i.tr" \
		init response,wait=10 ping,wait=10 serve,wait=10 > "$tmp/i.out" 2>&1 || rc=$?
	wait "$r" || rc=1
	cat "$tmp/r.out" "$tmp/i.out"
	return $rc
}
# key_pub B64: the X25519 public key of a private key (kat.py's library).
key_pub() {
	/usr/bin/python3 -c '
import base64, sys
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
k = X25519PrivateKey.from_private_bytes(base64.b64decode(sys.argv[1]))
print(base64.b64encode(k.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)).decode())' "$1"
}

t_self() {
	pair 1 "" "" || die "the handshake or an echo failed"
	[ "$(grep -c '^ok ' "$tmp/i.out")" = 4 ] || die "the initiator did not finish its steps"
}
check "self-handshake: response, then an echo each way" t_self

t_psk() {
	local psk
	psk=$(head -c 32 /dev/urandom | base64)
	pair 2 "$psk" "$psk" || die "the handshake with a preshared key failed"
}
check "self-handshake: the same preshared key on both sides" t_psk

t_psk_one() {
	local psk
	psk=$(head -c 32 /dev/urandom | base64)
	! pair 3 "$psk" "" || die "the handshake succeeded with a preshared key on one side only"
	grep -q "^FAIL response,wait=10: the response is not valid: its empty payload does not authenticate" \
		"$tmp/i.out" || die "the initiator did not refuse the response for its payload"
}
check "self-handshake: a preshared key on one side only fails it" t_psk_one

[ "$failed" = 0 ]
