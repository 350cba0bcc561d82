#!/bin/sh
# Many peers: a's wg0 gets 200 extra peers (each a /24 and a /64 and an
# endpoint, some a keepalive) besides b, loaded with wg addconf.  wg show
# must list all of them through netlink's split dumps, with every
# allowed-ip and setting; b is still reached among them; showconf/setconf
# reproduces the configuration on another interface; removing 100 peers in
# one call leaves 101.
# timeout: 120
. "$(dirname "$0")/../lib.sh"

N=200
ns_add a
ns_add b
wg_pair a b

keys=/tmp/$ns_prefix.keys
conf=/tmp/$ns_prefix.peers.conf
randkeys $N 20251203 > "$keys"
awk '{
	i = NR
	printf "[Peer]\nPublicKey = %s\nAllowedIPs = 10.%d.%d.0/24, fd00:%x:%x::/64\n", $1, 100 + int(i / 256), i % 256, 100 + int(i / 256), i % 256
	printf "Endpoint = 10.1.%d.%d:%d\n", int(i / 256), i % 256, 1000 + i
	if (i % 50 == 0)
		printf "PersistentKeepalive = 25\n"
	printf "\n"
}' "$keys" > "$conf"
on a wg addconf wg0 "$conf"

# dump_peers IFACE: wg show dump's peer lines without the runtime fields.
dump_peers() { on a wg show "$1" dump | tail -n +2 | cut -f 1-4,8 | sort; }

peers=$(on a wg show wg0 peers | wc -l)
[ "$peers" = $((N + 1)) ] || fail "wg show lists $peers peers, expected $((N + 1))"
ips=$(on a wg show wg0 allowed-ips | awk '{ n += NF - 1 } END { print n }')
[ "$ips" = $((2 * N + 2)) ] || fail "wg show lists $ips allowed-ips, expected $((2 * N + 2))"
on a wg show wg0 peers > /tmp/$ns_prefix.shown
missing=$(awk 'NR == FNR { shown[$1] = 1; next } !($1 in shown) { m++ } END { print m + 0 }' \
	/tmp/$ns_prefix.shown "$keys")
[ "$missing" = 0 ] || fail "$missing configured peers are missing from wg show"
dump_peers wg0 | awk -F '\t' -v k="$(sed -n 100p "$keys")" '
	$1 == k { found = 1; if ($3 != "10.1.0.100:1100" || $4 != "10.100.100.0/24,fd00:64:64::/64" || $5 != 25) exit 1 }
	END { exit !found }' || fail "peer 100 does not show its endpoint, allowed-ips and keepalive"
pass "$N extra peers with $((2 * N)) allowed-ips all listed"

ping_all a 3 -i 0.2 -W 3 192.168.241.2
ping_all b 3 -i 0.2 -W 3 fd00:241::1
pass "b is reached among $((N + 1)) peers"

on a wg showconf wg0 > /tmp/$ns_prefix.show.conf
ip -n "$(nsname a)" link add wg1 type wireguard
on a wg setconf wg1 /tmp/$ns_prefix.show.conf
[ "$(dump_peers wg1)" = "$(dump_peers wg0)" ] || fail "wg1 loaded from wg0's showconf differs from wg0"
pass "showconf/setconf reproduces all peers"

on a wg set wg0 $(head -n 100 "$keys" | awk '{ printf "peer %s remove ", $1 }')
peers=$(on a wg show wg0 peers | wc -l)
[ "$peers" = $((N + 1 - 100)) ] || fail "after removing 100 peers wg show lists $peers, expected $((N + 1 - 100))"
ping_all a 3 -i 0.2 -W 3 192.168.241.2
pass "100 peers removed in one call, $peers left, b still reached"
