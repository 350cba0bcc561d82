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
wg_pair6 a b
ping_all a 1 -W 5 192.168.241.2
[ "$(endpoint a wg0 "$PUB_B")" = "[fd00::2]:51821" ] ||
	fail "a's endpoint for b is $(endpoint a wg0 "$PUB_B"), not on the v6 underlay"
OUTER=6 outer_fragments
