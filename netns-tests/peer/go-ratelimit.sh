#!/bin/sh
# ratelimit with wireguard-go as a (lib.sh WG_GO): its own rate limiter
# (20 a second, 5 at once, per address), the same assertions.
# timeout: 300
WG_GO=a
. "$(dirname "$0")/ratelimit.sh"
