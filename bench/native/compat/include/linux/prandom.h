/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Userspace stand-in: everything the Zinc sources use is in zn_kernel.h. */
#ifndef _ZN_LINUX_PRANDOM_H
#define _ZN_LINUX_PRANDOM_H
#include <zn_kernel.h>
#endif
