#!/bin/sh
# Interface MTU through the tunnel: wg0 defaults to 1420; an unfragmentable
# (-M do) ping just under the MTU passes and one byte more is refused, for
# inner IPv4 and IPv6, also after setting the MTU to 1300; larger packets
# are fragmented and go through; with a wg0 MTU above the underlay's the
# encapsulated packets are fragmented outside, up to a 34736-byte MTU.
# timeout: 120
. "$(dirname "$0")/../lib.sh"

ns_add a
ns_add b
wg_pair a b

mtu_of() { ip -n "$(nsname "$1")" -o link show "$2" | sed -n 's/.* mtu \([0-9]*\) .*/\1/p'; }

# edge MTU: the largest unfragmented ping fits, one byte more is refused.
edge() {
	local m=$1
	ping_all a 2 -W 3 -M do -s $((m - 28)) 192.168.241.2
	ping_all a 2 -W 3 -M do -s $((m - 48)) fd00:241::2
	no_ping a -c 1 -W 2 -M do -s $((m - 27)) 192.168.241.2
	no_ping a -c 1 -W 2 -M do -s $((m - 47)) fd00:241::2
	pass "MTU $m: -M do pings of $m bytes pass, $((m + 1)) refused (v4 and v6)"
}

[ "$(mtu_of a wg0)" = 1420 ] || fail "wg0's default MTU is $(mtu_of a wg0), expected 1420"
ping_all a 1 -W 5 192.168.241.2
edge 1420

set_mtu 1300
[ "$(mtu_of b wg0)" = 1300 ] || fail "wg0's MTU did not change to 1300"
edge 1300

ping_all a 3 -W 3 -s 3000 192.168.241.2
ping_all b 3 -W 3 -s 3000 fd00:241::1
pass "3000-byte pings are fragmented and pass (v4 and v6)"

outer_fragments
