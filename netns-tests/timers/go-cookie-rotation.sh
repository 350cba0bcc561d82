#!/bin/sh
# cookie-rotation with wireguard-go as a (lib.sh WG_GO): its own cookie
# secret, replaced once 120 s old (CookieRefreshTime), the same assertions.
# bad-packets: the bursts' initiations (random static keys), refused by design
# timeout: 400
WG_GO=a
. "$(dirname "$0")/cookie-rotation.sh"
