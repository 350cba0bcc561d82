#!/bin/sh
# passive-keepalive with wireguard-go as peer a (lib.sh WG_GO), the kernel as b, in the
# same guest on the same clock: wireguard-go's own timers, timed on the
# wire by the same assertions (passive-keepalive.sh).
# timeout: 300
WG_GO=a
. "$(dirname "$0")/passive-keepalive.sh"
