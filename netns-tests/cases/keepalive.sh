#!/bin/sh
# Persistent keepalive.  An interface with a keepalive peer sends a
# handshake initiation as soon as it comes up; one without a private key
# sends nothing until it gets one.  On an idle tunnel a 1 s keepalive shows
# up at the other side as 32-byte empty data messages, about one a second,
# and stops when set to 0.
# timeout: 90
. "$(dirname "$0")/../lib.sh"

ns_add a
ns_add b
wg_pair a b
tx_of() { transfer a "$1" "$2" | awk '{ print $2 }'; }
tx_positive() { [ "$(tx_of "$1" "$2")" -gt 0 ]; }

keypair
ip -n "$(nsname a)" link add wg1 type wireguard
on a wg set wg1 private-key "$(keyfile "$PRIV")" peer "$PUB_B" endpoint 10.0.0.2:1 persistent-keepalive 1
[ "$(tx_of wg1 "$PUB_B")" = 0 ] || fail "wg1 sent something while down"
ip -n "$(nsname a)" link set wg1 up
wait_for 10 tx_positive wg1 "$PUB_B" || fail "wg1 sent nothing after coming up"
pass "coming up with a keepalive peer sends at once ($(tx_of wg1 "$PUB_B") bytes)"

ip -n "$(nsname a)" link add wg2 type wireguard
on a wg set wg2 peer "$PUB_B" endpoint 10.0.0.2:1 persistent-keepalive 1
ip -n "$(nsname a)" link set wg2 up
quiet_period 2
[ "$(tx_of wg2 "$PUB_B")" = 0 ] || fail "wg2 sent $(tx_of wg2 "$PUB_B") bytes without a private key"
keypair
on a wg set wg2 private-key "$(keyfile "$PRIV")"
wait_for 10 tx_positive wg2 "$PUB_B" || fail "wg2 sent nothing after getting its private key"
pass "without a private key nothing is sent, with it at once"

ping_all a 2 -W 5 192.168.241.2
handshake_at_rest 30 handshake_times a b || fail "the handshake never came to rest (readings above)"

# Count what reaches b's wg0 port from a by WireGuard message size (UDP
# length = 8 + message): keepalives (32) and handshake initiations (148).
# Byte counters would mix the two, and a handshake retransmission that
# crosses the window is not what this case is about.
on b nft -f - <<'NFT'
table inet ka {
	chain in {
		type filter hook input priority 0;
		ip saddr 10.0.0.1 udp dport 51821 udp length 40 counter comment "keepalive"
		ip saddr 10.0.0.1 udp dport 51821 udp length 156 counter comment "initiation"
	}
}
NFT
# counts: "KEEPALIVES INITIATIONS" from a at b, from one reading.
counts() {
	on b nft list chain inet ka in | awk '
		/comment "keepalive"/ { for (i = 1; i < NF; i++) if ($i == "packets") k = $(i + 1) }
		/comment "initiation"/ { for (i = 1; i < NF; i++) if ($i == "packets") n = $(i + 1) }
		END { print k + 0, n + 0 }'
}
# A handshake a starts on its own still ends in one keepalive from a: the
# initiator confirms every new session with one when it has nothing else to
# send.  Such a handshake is not the keepalive timer but WireGuard's
# retransmit or new-handshake timer, which a slow guest can leave armed
# after the ping (see netns-tests/README.md), so each initiation from a
# allows one more keepalive in both windows below.
wg_peer a wg0 "$PUB_B" persistent-keepalive 1
# The window is 5 s plus however long the reads take (seconds on a debug
# kernel): at one keepalive a second, no more than its outer length + 1.
w0=$(uptime_cs)
set -- $(counts)
k0=$1 i0=$2
w1=$(uptime_cs)
quiet_period 5
w2=$(uptime_cs)
set -- $(counts)
k=$(($1 - k0)) i=$(($2 - i0))
w3=$(uptime_cs)
max=$(((w3 - w0) / 100 + 1 + i))
echo "b got $k keepalives and $i handshake initiations from a in $(((w2 - w1) / 100)) to $(((w3 - w0) / 100)) idle seconds with a 1 s keepalive"
[ "$k" -ge 3 ] && [ "$k" -le "$max" ] || fail "b got $k keepalives, expected 3 to $max"
wg_peer a wg0 "$PUB_B" persistent-keepalive 0
set -- $(counts)
i0=$2
# One keepalive may still be on its way from before the switch.
quiet_period 1
set -- $(counts)
k0=$1
quiet_period 3
set -- $(counts)
k=$(($1 - k0)) i=$(($2 - i0))
echo "after turning it off: $k keepalives in 3 s, $i handshake initiations from a since"
[ "$k" -le "$i" ] ||
	fail "b still got $k keepalives in 3 s after the keepalive was turned off ($i handshake initiations)"
pass "1 s keepalives of 32 bytes on an idle tunnel, none after turning them off"
