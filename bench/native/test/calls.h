/* SPDX-License-Identifier: GPL-2.0 OR MIT */
#ifndef _ZINC_NATIVE_CALLS_H
#define _ZINC_NATIVE_CALLS_H

/* An optional implementation's entry point and the calls it received. */
struct zn_call {
	const char *name;
	unsigned long features;	/* the CPU features it needs */
	unsigned long *count;
};

/* Terminated by a NULL name. */
extern const struct zn_call zn_calls[];

#endif
