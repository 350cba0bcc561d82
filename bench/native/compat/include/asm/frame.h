/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Frame pointer setup in assembly: not needed in userspace. */
#ifndef _ASM_X86_FRAME_H
#define _ASM_X86_FRAME_H
#ifdef __ASSEMBLY__
#define FRAME_BEGIN
#define FRAME_END
#endif
#endif
