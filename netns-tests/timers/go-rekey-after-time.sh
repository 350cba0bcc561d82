#!/bin/sh
# rekey-after-time with wireguard-go as peer a (lib.sh WG_GO), the kernel as b, in the
# same guest on the same clock: wireguard-go's own timers, timed on the
# wire by the same assertions (rekey-after-time.sh).
# timeout: 400
WG_GO=a
. "$(dirname "$0")/rekey-after-time.sh"
