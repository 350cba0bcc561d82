#!/bin/sh
# cookie with wireguard-go as a (lib.sh WG_GO): the same assertions from the
# wire against wireguard-go's own handshake, cookie and transport code.
# timeout: 300
WG_GO=a
. "$(dirname "$0")/cookie.sh"
