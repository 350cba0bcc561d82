#!/bin/sh
# cookie-initiator with wireguard-go as b (lib.sh WG_GO), the initiator
# that must use its cookie under the kernel's load.
# bad-packets: the flood's initiations (random static keys), refused by design
# timeout: 300
WG_GO=b
. "$(dirname "$0")/cookie-initiator.sh"
