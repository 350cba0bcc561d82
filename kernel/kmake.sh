# shellcheck shell=bash
# Sourced by every script that makes in a kernel build (kernel/build.sh;
# netns-tests/crypto-diff's module), so that they agree on the build.
#
# kernel_arch ARCH FLAVOR: sets karch (the kernel's ARCH), cross
# (CROSS_COMPILE), image (what kbuild makes) and outname (the flavor's
# folder under the kernel root: FLAVOR on x86_64, which keeps its
# historical paths, FLAVOR-ARCH on arm64 and arm); fails for another ARCH.
# shellcheck disable=SC2034 # karch, cross, image, outname: for the caller
kernel_arch() {
	case "$1" in
	x86_64)
		karch=x86_64 cross='' image=arch/x86/boot/bzImage outname=$2 ;;
	arm64)
		karch=arm64 cross=${CROSS_COMPILE:-aarch64-linux-gnu-}
		image=arch/arm64/boot/Image outname=$2-$1 ;;
	arm)
		karch=arm cross=${CROSS_COMPILE:-arm-linux-gnueabihf-}
		image=arch/arm/boot/zImage outname=$2-$1 ;;
	*)
		return 1 ;;
	esac
}

# kmake: make in a kernel build, as kernel/build.sh runs it.  Uses src (the
# source tree), obj (the object folder), karch and cross (kernel_arch).
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
