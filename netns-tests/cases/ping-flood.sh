#!/bin/sh
# Ping and flood ping through the tunnel, inner IPv4 and IPv6, both ways:
# every echo request is answered, at flood rate and with large payloads.
# timeout: 120
. "$(dirname "$0")/../lib.sh"

ns_add a
ns_add b
wg_pair a b

ping_all a 1 -W 5 192.168.241.2
for x in "a 192.168.241.2" "b 192.168.241.1" "a fd00:241::2" "b fd00:241::1"; do
	set -- $x
	ping_all "$1" 3 -i 0.2 -W 2 "$2"
	ping_all "$1" 200 -f -W 2 "$2"
done
pass "ping and flood ping (200) both ways, inner v4 and v6"

ping_all a 100 -f -s 1000 -W 2 192.168.241.2
ping_all b 100 -f -s 1000 -W 2 fd00:241::1
pass "flood ping with 1000-byte payloads"

set -- $(transfer b wg0 "$PUB_A")
[ "$1" -ge $((100 * (1000 + 28 + 32))) ] || fail "b received only $1 bytes from a"
pass "counters saw the traffic (b received $1 bytes)"
