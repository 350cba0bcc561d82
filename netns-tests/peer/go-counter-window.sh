#!/bin/sh
# counter-window with wireguard-go as a (lib.sh WG_GO): the same assertions from the
# wire against wireguard-go's own handshake, cookie and transport code.
# timeout: 120
WG_GO=a
. "$(dirname "$0")/counter-window.sh"
