/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Assembler linkage for userspace: ELF symbols, no CFI/IBT annotations. */
#ifndef _LINUX_LINKAGE_H
#define _LINUX_LINKAGE_H

#ifdef __ASSEMBLY__

#define SYM_FUNC_START(name)	\
	.text;			\
	.globl name;		\
	.type name, @function;	\
	.p2align 4;		\
name:

#define SYM_FUNC_START_LOCAL(name) \
	.text;			\
	.type name, @function;	\
	.p2align 4;		\
name:

#define SYM_FUNC_END(name)	\
	.size name, .-name

#define RET	ret

/* Every object says it needs no executable stack. */
	.section .note.GNU-stack, "", @progbits
	.previous

#else

#include <zn_kernel.h>

#endif /* __ASSEMBLY__ */
#endif /* _LINUX_LINKAGE_H */
