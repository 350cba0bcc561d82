#!/bin/sh
# rekey-on-receive with wireguard-go as peer a (lib.sh WG_GO), the kernel as b, in the
# same guest on the same clock: wireguard-go's own timers, timed on the
# wire by the same assertions (rekey-on-receive.sh).
# timeout: 400
WG_GO=a
. "$(dirname "$0")/rekey-on-receive.sh"
