#!/bin/bash
# make lava-jobs: a LAVA job for each suite of one guest in SUITE:FLAVOR...
# (netns-tests/run.sh's words), for ARCH, with the device it runs on.
#
#   netns-tests/lava/jobs.sh OUT SUITE:FLAVOR...
#
# OUT/jobs/SUITE-FLAVOR.yaml, OUT/artifacts/ (the kernels and initramfs
# images the jobs boot), OUT/devices/wgt-qemu-ARCH.{jinja2,yaml} (the
# device dictionary for a server, and the device rendered for lava-run).
# LAVA_URL=URL: the jobs fetch their artifacts from URL (where OUT/artifacts
# is published) instead of file:// paths, which only a local lava-run reads.
set -e -o pipefail
export LC_ALL=C

prog=netns-tests/lava/jobs.sh
die() { echo "$prog: $*" >&2; exit 1; }

top=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -ge 2 ] || die "usage: $prog OUT SUITE:FLAVOR..."
out=$1
shift
/usr/bin/python3 -c 'import yaml' 2> /dev/null ||
	die "python3-yaml is missing: run 'make deps' as root"
case "${LAVA_URL:-}" in
'' | http://* | https://* | file://*) ;;
*) die "LAVA_URL='$LAVA_URL' is not an http://, https:// or file:// address" ;;
esac

boots=$(mktemp -d "${TMPDIR:-/tmp}/wgt-lava-boots.XXXXXX")
trap 'rm -rf "$boots"' EXIT
LAVA_BOOTS=$boots "$top/netns-tests/run.sh" "$@" > /dev/null
ls "$boots"/*.boot > /dev/null 2>&1 || die "none of '$*' is a suite of one guest: no job to write"
rm -rf "$out/jobs" "$out/artifacts" "$out/devices"
/usr/bin/python3 "$top/netns-tests/lava/lava.py" jobs "$boots" "$out" ${LAVA_URL:+"$LAVA_URL"}
