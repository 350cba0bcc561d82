/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Userspace stand-in: crypto_simd_usable() is in zn_kernel.h. */
#ifndef _ZN_CRYPTO_INTERNAL_SIMD_H
#define _ZN_CRYPTO_INTERNAL_SIMD_H
#include <zn_kernel.h>
#endif
