# shellcheck shell=bash
# kmake: make in a kernel build, as kernel/build.sh runs it, for every
# script that makes in one (kernel/build.sh; netns-tests/crypto-diff's
# module).  Sourced; uses src (the source tree), obj (the object folder),
# karch (the kernel's ARCH) and cross (CROSS_COMPILE).
#
# The same CC and HOSTCC every time (ccache when it is there): kbuild
# rebuilds whatever it last built with another command, and objtool, on
# which every object depends, is one of them.
# shellcheck disable=SC2154 # src, obj, karch, cross: the caller's
kmake() {
	local cc=${cross}gcc hostcc=gcc
	command -v ccache > /dev/null && cc="ccache $cc" hostcc="ccache gcc"
	make -C "$src" O="$obj" ARCH="$karch" CROSS_COMPILE="$cross" \
		CC="$cc" HOSTCC="$hostcc" "$@"
}
