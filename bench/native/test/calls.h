/* SPDX-License-Identifier: GPL-2.0 OR MIT */
#ifndef _ZINC_NATIVE_CALLS_H
#define _ZINC_NATIVE_CALLS_H

#include <zn_kernel.h>

/* An entry point of the kernel code Zinc runs on, and what it received. */
struct zn_call {
	const char *name;
	unsigned long features;	/* the CPU features it needs */
	bool vector;		/* only inside a kernel_fpu section */
	bool dispatch;		/* picks its path: no per-call feature check */
	unsigned long calls;
	unsigned long outside_fpu;	/* vector code outside a section */
	unsigned long without_features;	/* called while the CPU lacked them */
	unsigned int warned;
};

/* Terminated by a NULL name. */
extern struct zn_call zn_calls[];

/* Let the next violations print their WARNING again (they always count). */
void zn_calls_rearm(void);

#endif
