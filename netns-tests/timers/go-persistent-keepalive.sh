#!/bin/sh
# persistent-keepalive with wireguard-go as peer a (lib.sh WG_GO), the kernel as b, in the
# same guest on the same clock: wireguard-go's own timers, timed on the
# wire by the same assertions (persistent-keepalive.sh).
# timeout: 700
WG_GO=a
. "$(dirname "$0")/persistent-keepalive.sh"
