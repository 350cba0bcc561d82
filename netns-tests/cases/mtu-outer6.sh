#!/bin/sh
# Big MTU over an IPv6 underlay, as upstream's netns.sh checks it: the
# tunnel's endpoints on v6 (the underlay's v4 addresses removed), then a
# wg0 MTU of 1500 and of 34736 over the 1500-byte link, so the v6
# encapsulation (80 bytes) is fragmented and reassembled outside the
# tunnel; unfragmentable full-size pings pass both ways and TCP moves data.
# timeout: 120
. "$(dirname "$0")/../lib.sh"

ns_add a
ns_add b
OUTER=6 wg_pair a b
ip -n "$(nsname a)" addr del 10.0.0.1/24 dev veth-a
ip -n "$(nsname b)" addr del 10.0.0.2/24 dev veth-b
ping_all a 1 -W 5 192.168.241.2
[ "$(endpoint a wg0 "$PUB_B")" = "[fd00::2]:51821" ] ||
	fail "a's endpoint for b is $(endpoint a wg0 "$PUB_B"), not on the v6 underlay"
OUTER=6 outer_fragments
