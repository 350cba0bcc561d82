#!/bin/sh
# NAT between the peers: a sits behind router r, which masquerades a's
# 192.168.1.0/24 onto its 10.0.0.1 (nft) and forgets idle UDP mappings
# after 3 s.  b, with no route back and no endpoint for a, learns a's
# endpoint as r's address.  With a persistent keepalive of 1 s the mapping
# outlives 10 s without data: b's passive keepalive, sent 10 s after a's
# last reply, still reaches a.  With the keepalive off the mapping expires
# and b's packets no longer reach a: they end at r itself.
#
# The negative check needs a tunnel that has nothing more to send.  A peer
# that sent data and then hears nothing for 15 s starts a new handshake
# (KEEPALIVE_TIMEOUT + REKEY_TIMEOUT), and a's initiation opens a new
# mapping.  So the keepalive goes off only once b's passive keepalive has
# reached a, which stops that timer; and b tries only once r has forwarded
# nothing between the two WireGuard ports for 6 s, counted by r: longer than
# a retransmitted initiation takes (REKEY_TIMEOUT, 5 s, plus up to 1/3 s of
# jitter), so no handshake is still under way.  (Before, the keepalive
# went off right after b's pings: b's passive keepalive then ended at r,
# a's new handshake came 15 s after its reply, and on a debug kernel, where
# every poll takes seconds, b's negative ping came within the 3 s of the
# mapping that handshake opened, and got through.)
# timeout: 120
. "$(dirname "$0")/../lib.sh"

ns_add a
ns_add r
ns_add b
veth_pair a r veth-a veth-ra
veth_pair r b veth-rb veth-b
ip -n "$(nsname a)" addr add 192.168.1.100/24 dev veth-a
ip -n "$(nsname a)" route add default via 192.168.1.1
ip -n "$(nsname r)" addr add 192.168.1.1/24 dev veth-ra
ip -n "$(nsname r)" addr add 10.0.0.1/24 dev veth-rb
ip -n "$(nsname b)" addr add 10.0.0.100/24 dev veth-b
sysctl_set r net.ipv4.ip_forward 1
sysctl_set r net.netfilter.nf_conntrack_udp_timeout 3
sysctl_set r net.netfilter.nf_conntrack_udp_timeout_stream 3
on r nft -f - <<'NFT'
table ip nat {
	chain postrouting {
		type nat hook postrouting priority srcnat; policy accept;
		ip saddr 192.168.1.0/24 oifname "veth-rb" masquerade
	}
}
table ip watch {
	chain mapped {
		type filter hook forward priority filter; policy accept;
		ip saddr 192.168.1.100 udp sport 51820 counter
		ip daddr 192.168.1.100 udp dport 51820 counter
	}
	chain b_in {
		type filter hook input priority filter; policy accept;
		ip saddr 10.0.0.100 udp sport 51821 counter
	}
	chain b_keepalive {
		type filter hook forward priority filter; policy accept;
		ip saddr 10.0.0.100 udp sport 51821 udp length 40 counter
	}
}
NFT

# r_count CHAIN: packets counted by r's watch CHAIN (mapped: WireGuard
# packets r forwarded between a and b, either way; b_in: b's WireGuard
# packets ending at r itself; b_keepalive: b's keepalives, 32 bytes of
# UDP payload, that r forwarded to a).
r_count() {
	ip netns exec "$(nsname r)" nft list chain ip watch "$1" |
		awk '/counter packets/ { for (i = 1; i < NF; i++) if ($i == "packets") n += $(i + 1) }
			END { print n + 0 }'
}
# r_count_grew CHAIN N: r's CHAIN counted more than N packets.
r_count_grew() { [ "$(r_count "$1")" -gt "$2" ]; }
# mapping_idle_for SECONDS: r has forwarded no WireGuard packet between a
# and b for SECONDS (polls; gives up when it has not been idle
# that long within 40 s, stretched like every wait on a slow kernel).
mapping_idle_for() {
	local last now since up end
	last=$(r_count mapped)
	since=$(uptime_cs)
	up=$since
	end=$((since + 4000 * ${wgt_timeout_scale:-1}))
	while [ "$up" -lt "$end" ]; do
		sleep 0.1
		now=$(r_count mapped)
		up=$(uptime_cs)
		if [ "$now" != "$last" ]; then
			last=$now
			since=$up
		elif [ $((up - since)) -gt $(($1 * 100)) ]; then
			return 0
		fi
	done
	return 1
}

wg_tunnel a b "" 10.0.0.100:51821
wg_peer a wg0 "$PUB_B" persistent-keepalive 1
ping_all a 2 -W 5 192.168.241.2
# On a kernel without the retransmit-timer fix (stock, rehandshake-race),
# a's completed handshake can be "retried" REKEY_TIMEOUT (5 s, plus up to
# 1/3 s of jitter) later, and b's response to that retry is a packet b
# sends, which cancels b's passive keepalive (seen once in a stock soak:
# "r forwarded 0 of b's keepalives").  So b pings only once a's latest
# handshake is 6 s old: no retry of it is still due.
hs_settled() {
	local t
	t=$(latest_handshake a wg0 "$PUB_B")
	[ "${t:-0}" -gt 0 ] && [ $(($(date +%s) - t)) -ge 6 ]
}
wait_for 60 hs_settled || fail "a's handshake never stayed 6 s without a retry"
ep=$(endpoint b wg0 "$PUB_A")
case "$ep" in
10.0.0.1:*) ;;
*) fail "b's endpoint for a is '$ep', expected r's 10.0.0.1" ;;
esac
ping_all b 2 -W 3 192.168.241.1
pass "through the masquerade: b learned a as $ep"

ka=$(r_count b_keepalive)
wait_for 20 r_count_grew b_keepalive "$ka" ||
	fail "b's passive keepalive, due 10 s after a's last reply, did not reach a: r forwarded $(($(r_count b_keepalive) - ka)) of b's keepalives"
pass "after 10 s without data the 1 s keepalive kept the mapping: b's passive keepalive reached a"

wg_peer a wg0 "$PUB_B" persistent-keepalive 0
mapping_idle_for 6 || fail "a and b kept talking through r with the keepalive off"
before=$(r_count b_in)
no_ping b -c 1 -W 2 192.168.241.1
after=$(r_count b_in)
[ "$after" -gt "$before" ] ||
	fail "b's packet did not reach r ($before -> $after): nothing shows the mapping expired"
pass "keepalive off: the mapping expired; b's packet ended at r, not at a"
