/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The kernel types and helpers the Zinc sources use, for a userspace build
 * of those sources unchanged.  Every <linux/...>, <asm/...> and <crypto/...>
 * header they include is a stub that includes this file.
 *
 * What differs from the kernel, on purpose:
 * - SIMD is usable outside a kernel_fpu section and, as in the kernel, not
 *   inside one (may_use_simd() is false while it is held);
 *   kernel_fpu_begin()/end() only check that they pair up (a nested begin
 *   or an unbalanced end is a WARN), since userspace saves the vector
 *   registers itself.
 * - need_resched() is true every other call, so that simd_relax() really
 *   puts and gets the context between pages and packets.
 * - CPU features come from cpuid and xgetbv, minus those named in the
 *   environment variable ZINC_NATIVE_CPU_OFF (or set with zn_cpu_mask()),
 *   so that one binary can run every implementation the host has.
 * - A WARN prints and is counted (zn_warnings); the test driver fails on it.
 * - Static keys are plain flags that zn_static_keys_reset() turns off
 *   again, so that the glue's module_init can pick again under another
 *   CPU feature mask.
 */
#ifndef _ZN_KERNEL_H
#define _ZN_KERNEL_H

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* Types */
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef u16 __le16;
typedef u32 __le32;
typedef u64 __le64;
typedef u32 __be32;
typedef u64 __be64;
typedef unsigned int gfp_t;

#define U8_MAX		((u8)~0U)
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)
#define SZ_4K		0x00001000
#define SZ_1G		0x40000000

/* Compiler attributes and section markers */
#undef __always_inline
#define __always_inline	inline __attribute__((__always_inline__))
#define noinline	__attribute__((__noinline__))
#define __aligned(x)	__attribute__((__aligned__(x)))
#define __packed	__attribute__((__packed__))
#define __maybe_unused	__attribute__((__unused__))
#define __must_check	__attribute__((__warn_unused_result__))
#define __force
#define __weak		__attribute__((__weak__))
#define __alias(sym)	__attribute__((__alias__(#sym)))
#define __init
#define __exit
#define __initdata
#define __initconst
#define __ro_after_init
#define __read_mostly
#define asmlinkage
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define barrier()	__asm__ __volatile__("" : : : "memory")
#define barrier_data(p)	__asm__ __volatile__("" : : "r"(p) : "memory")
#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))

/* Atomics: what ZINC_DEBUG's counters use. */
typedef struct {
	int counter;
} atomic_t;
#define ATOMIC_INIT(i)	{ (i) }

static inline int atomic_read(const atomic_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static inline void atomic_inc(atomic_t *v)
{
	__atomic_fetch_add(&v->counter, 1, __ATOMIC_RELAXED);
}

static inline void atomic_dec(atomic_t *v)
{
	__atomic_fetch_sub(&v->counter, 1, __ATOMIC_RELAXED);
}

/* IS_ENABLED(), as in <linux/kconfig.h>: 1 if CONFIG_FOO is defined to 1. */
#define __ZN_ARG_PLACEHOLDER_1 0,
#define __zn_take_second_arg(ignored, val, ...) val
#define __zn_is_defined(x) ___zn_is_defined(x)
#define ___zn_is_defined(val) ____zn_is_defined(__ZN_ARG_PLACEHOLDER_##val)
#define ____zn_is_defined(arg1_or_junk) __zn_take_second_arg(arg1_or_junk 1, 0)
#define IS_ENABLED(option) __zn_is_defined(option)
#define IS_BUILTIN(option) __zn_is_defined(option)
#define IS_REACHABLE(option) __zn_is_defined(option)

/* Arithmetic and sizes */
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define BIT(n)			(1UL << (n))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define round_down(x, y)	((x) & ~((__typeof__(x))((y) - 1)))
#define round_up(x, y)		((((x) - 1) | ((__typeof__(x))((y) - 1))) + 1)
#define rounddown(x, y)		({ __typeof__(x) __x = (x); __x - (__x % (y)); })
#define roundup(x, y)		((((x) + ((y) - 1)) / (y)) * (y))
#define sizeof_field(t, m)	sizeof(((t *)0)->m)
#define min(a, b) ({ __typeof__(a) __a = (a); __typeof__(b) __b = (b); \
		     __a < __b ? __a : __b; })
#define max(a, b) ({ __typeof__(a) __a = (a); __typeof__(b) __b = (b); \
		     __a > __b ? __a : __b; })
#define min_t(t, a, b) ({ t __a = (a); t __b = (b); __a < __b ? __a : __b; })
#define max_t(t, a, b) ({ t __a = (a); t __b = (b); __a > __b ? __a : __b; })
#define PAGE_SHIFT		12
#define PAGE_SIZE		(1UL << PAGE_SHIFT)

static inline u32 rol32(u32 w, unsigned int s)
{
	return (w << (s & 31)) | (w >> ((-s) & 31));
}

static inline u32 ror32(u32 w, unsigned int s)
{
	return (w >> (s & 31)) | (w << ((-s) & 31));
}

/* Byte order: x86_64 is little endian. */
#define cpu_to_le16(x)	((__le16)(x))
#define cpu_to_le32(x)	((__le32)(x))
#define cpu_to_le64(x)	((__le64)(x))
#define le16_to_cpu(x)	((u16)(x))
#define le32_to_cpu(x)	((u32)(x))
#define le64_to_cpu(x)	((u64)(x))
#define cpu_to_be32(x)	__builtin_bswap32(x)
#define be32_to_cpu(x)	__builtin_bswap32(x)

static inline void cpu_to_le32_array(u32 *buf, unsigned int words)
{
	(void)buf;
	(void)words;
}

static inline void le32_to_cpu_array(u32 *buf, unsigned int words)
{
	(void)buf;
	(void)words;
}

/* Unaligned access */
static inline u32 get_unaligned_le32(const void *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline u64 get_unaligned_le64(const void *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline void put_unaligned_le32(u32 v, void *p)
{
	memcpy(p, &v, sizeof(v));
}

static inline void put_unaligned_le64(u64 v, void *p)
{
	memcpy(p, &v, sizeof(v));
}

/* Diagnostics */
extern unsigned long zn_warnings;
void zn_printk(const char *level, const char *fmt, ...)
	__attribute__((__format__(__printf__, 2, 3)));
/* Counts a WARN and prints where it is (and what, unless @cond is NULL). */
void zn_warn(const char *file, int line, const char *cond);

#ifndef pr_fmt
#define pr_fmt(fmt) fmt
#endif
#define pr_err(fmt, ...)	zn_printk("err", pr_fmt(fmt), ##__VA_ARGS__)
#define pr_warn(fmt, ...)	zn_printk("warn", pr_fmt(fmt), ##__VA_ARGS__)
#define pr_info(fmt, ...)	zn_printk("info", pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...)	zn_printk("debug", pr_fmt(fmt), ##__VA_ARGS__)

#define WARN_ON(cond) ({						\
	bool __zn_c = !!(cond);						\
	if (unlikely(__zn_c))						\
		zn_warn(__FILE__, __LINE__, #cond);			\
	__zn_c;								\
})
#define WARN_ON_ONCE(cond) WARN_ON(cond)
#define WARN(cond, fmt, ...) ({						\
	bool __zn_c = !!(cond);						\
	if (unlikely(__zn_c)) {						\
		zn_printk("warn", fmt, ##__VA_ARGS__);			\
		zn_warn(__FILE__, __LINE__, NULL);			\
	}								\
	__zn_c;								\
})
/* As the kernel's: printed and counted the first time only. */
#define WARN_ONCE(cond, fmt, ...) ({					\
	static bool __zn_warned;					\
	bool __zn_c = !!(cond);						\
	if (unlikely(__zn_c) && !__zn_warned) {				\
		__zn_warned = true;					\
		WARN(1, fmt, ##__VA_ARGS__);				\
	}								\
	__zn_c;								\
})
#define BUG_ON(cond) do { if (unlikely(cond)) abort(); } while (0)
#define BUILD_BUG_ON(cond) \
	do { _Static_assert(!(cond), "BUILD_BUG_ON(" #cond ")"); } while (0)

/* Modules: each unit's module_init becomes zn_init_<ZINC_NATIVE_UNIT>(). */
#define __ZN_CAT(a, b) a##b
#define __ZN_NAME(a, b) __ZN_CAT(a, b)
#define EXPORT_SYMBOL(sym)	extern __typeof__(sym) sym
#define EXPORT_SYMBOL_GPL(sym)	extern __typeof__(sym) sym
#define MODULE_LICENSE(x)	extern int zn_module_info
#define MODULE_DESCRIPTION(x)	extern int zn_module_info
#define MODULE_AUTHOR(x)	extern int zn_module_info
#define MODULE_ALIAS_CRYPTO(x)	extern int zn_module_info
#define THIS_MODULE		((void *)0)
#define module_param(name, type, perm) \
	extern int zn_module_info
#define module_param_named(name, var, type, perm) \
	extern int zn_module_info
#define MODULE_PARM_DESC(name, desc) \
	extern int zn_module_info
#define MODULE_PARAM_PREFIX	""
#define module_init(fn)							\
	int __ZN_NAME(zn_init_, ZINC_NATIVE_UNIT)(void);		\
	int __ZN_NAME(zn_init_, ZINC_NATIVE_UNIT)(void) { return fn(); } \
	extern int zn_module_info
#define module_exit(fn)							\
	static void (*const __ZN_NAME(zn_exit_, ZINC_NATIVE_UNIT))(void) \
		__attribute__((__unused__)) = fn

/* Memory */
#define GFP_KERNEL 0
static inline void *kmalloc(size_t len, gfp_t gfp)
{
	(void)gfp;
	return malloc(len);
}

static inline void *kzalloc(size_t len, gfp_t gfp)
{
	(void)gfp;
	return calloc(1, len);
}

static inline void *kmalloc_array(size_t n, size_t size, gfp_t gfp)
{
	(void)gfp;
	if (size && n > SIZE_MAX / size)
		return NULL;
	return malloc(n * size);
}

static inline void *kmemdup(const void *src, size_t len, gfp_t gfp)
{
	void *p = kmalloc(len, gfp);

	if (p)
		memcpy(p, src, len);
	return p;
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

/* lib/crypto pads from the zero page. */
extern const u8 zn_zero_page[];
#define ZERO_PAGE(vaddr)	((void *)zn_zero_page)
#define page_address(page)	((void *)(page))

/* Clearing that the compiler may not elide, as the kernel's. */
static inline void memzero_explicit(void *s, size_t count)
{
	memset(s, 0, count);
	barrier_data(s);
}

static inline void *memchr_inv(const void *start, int c, size_t bytes)
{
	const u8 *p = start;

	for (; bytes; --bytes, ++p)
		if (*p != (u8)c)
			return (void *)p;
	return NULL;
}

/* lib/hexdump.c's contract: 0, or -EINVAL on a character that is not hex. */
static inline int zn_hex_val(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static inline int hex2bin(u8 *dst, const char *src, size_t count)
{
	int hi, lo;

	while (count--) {
		hi = zn_hex_val(*src++);
		if (hi < 0)
			return -EINVAL;
		lo = zn_hex_val(*src++);
		if (lo < 0)
			return -EINVAL;
		*dst++ = (hi << 4) | lo;
	}
	return 0;
}

/* Constant time: nonzero if the buffers differ. */
static inline unsigned long crypto_memneq(const void *a, const void *b,
					  size_t size)
{
	const volatile u8 *x = a, *y = b;
	unsigned long neq = 0;

	while (size--)
		neq |= *x++ ^ *y++;
	return neq;
}

static inline void crypto_xor(u8 *dst, const u8 *src, unsigned int size)
{
	while (size--)
		*dst++ ^= *src++;
}

static inline void crypto_xor_cpy(u8 *dst, const u8 *src1, const u8 *src2,
				  unsigned int size)
{
	while (size--)
		*dst++ = *src1++ ^ *src2++;
}

int scnprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((__format__(__printf__, 3, 4)));
ssize_t strscpy(char *dest, const char *src, size_t count);

void get_random_bytes(void *buf, size_t len);
static inline int get_random_bytes_wait(void *buf, size_t len)
{
	get_random_bytes(buf, len);
	return 0;
}

/* CPU features */
enum zn_cpu_feature {
	X86_FEATURE_SSSE3,
	X86_FEATURE_AVX,
	X86_FEATURE_AVX2,
	X86_FEATURE_BMI2,
	X86_FEATURE_ADX,
	X86_FEATURE_AVX512F,
	X86_FEATURE_AVX512VL,
	X86_FEATURE_AVX512BW,
	ZN_CPU_FEATURES
};
extern const char *const zn_cpu_feature_names[ZN_CPU_FEATURES];

#define XFEATURE_MASK_SSE	(1ULL << 1)
#define XFEATURE_MASK_YMM	(1ULL << 2)
/* Opmask, upper halves of zmm0-15, zmm16-31. */
#define XFEATURE_MASK_AVX512	(7ULL << 5)

bool zn_cpu_has(enum zn_cpu_feature f);
/* What the CPU has (bits of enum zn_cpu_feature), before any mask. */
unsigned long zn_cpu_present(void);
/* Features turned off for the code under test; returns the old mask. */
unsigned long zn_cpu_mask(unsigned long off);
/* What the code under test sees: zn_cpu_present() minus the mask. */
unsigned long zn_cpu_features(void);
int zn_cpu_has_xfeatures(u64 mask);

#define boot_cpu_has(f)			zn_cpu_has(f)
#define cpu_has_xfeatures(mask, name)	zn_cpu_has_xfeatures(mask)

struct cpuinfo_x86 {
	u8 x86;
	u8 x86_model;
};
const struct cpuinfo_x86 *zn_boot_cpu_data(void);
#define boot_cpu_data (*zn_boot_cpu_data())
#define INTEL_FAM6_SKYLAKE_X 0x55

/*
 * SIMD: usable in userspace, except inside a kernel_fpu section, as in the
 * kernel (so that simd_held() sees the real state); the begin/end pairing
 * is checked.  The benchmark turns zn_simd_usable off to time lib/crypto's
 * non-SIMD paths.
 */
void kernel_fpu_begin(void);
void kernel_fpu_end(void);
/* How many kernel_fpu sections are open: 0, or 1 (a nested one WARNs). */
int zn_fpu_depth(void);
extern bool zn_simd_usable;
static inline bool may_use_simd(void)
{
	return zn_simd_usable && !zn_fpu_depth();
}

static inline bool crypto_simd_usable(void)
{
	return may_use_simd();
}

static inline bool irq_fpu_usable(void)
{
	return may_use_simd();
}

bool need_resched(void);

/* The crypto API's algorithm descriptions, for glue code that has them. */
struct crypto_alg {
	const char *cra_name, *cra_driver_name;
	int cra_priority;
	unsigned int cra_blocksize, cra_ctxsize;
	void *cra_module;
};

/*
 * Static keys, as plain flags.  Each key registers itself before main()
 * (the glue's keys are file-static), so that zn_static_keys_reset() can
 * turn them all off again: the kernel's are only ever enabled, once.
 */
struct static_key_false {
	bool enabled;
};
void zn_static_key_register(struct static_key_false *key);
void zn_static_keys_reset(void);
#define DEFINE_STATIC_KEY_FALSE(name)					\
	struct static_key_false name = { false };			\
	static void __attribute__((__constructor__))			\
	__zn_static_key_register_##name(void)				\
	{								\
		zn_static_key_register(&name);				\
	}								\
	extern int zn_module_info
#define static_branch_likely(k)		((k)->enabled)
#define static_branch_unlikely(k)	((k)->enabled)
#define static_branch_enable(k)		((k)->enabled = true)
#define static_branch_disable(k)	((k)->enabled = false)

/* Scatterlists: an array of buffers, the last one marked. */
struct scatterlist {
	u8 *buf;
	unsigned int length;
	bool end;
};

static inline struct scatterlist *sg_next(struct scatterlist *sg)
{
	return sg->end ? NULL : sg + 1;
}

static inline void sg_init_table(struct scatterlist *sgl, unsigned int nents)
{
	memset(sgl, 0, sizeof(*sgl) * nents);
	sgl[nents - 1].end = true;
}

static inline void sg_set_buf(struct scatterlist *sg, const void *buf,
			      unsigned int buflen)
{
	sg->buf = (u8 *)buf;
	sg->length = buflen;
}

static inline void sg_init_one(struct scatterlist *sg, const void *buf,
			       unsigned int buflen)
{
	sg_init_table(sg, 1);
	sg_set_buf(sg, buf, buflen);
}

static inline void sg_mark_end(struct scatterlist *sg)
{
	sg->end = true;
}

int sg_nents(struct scatterlist *sg);
int sg_nents_for_len(struct scatterlist *sg, u64 len);
size_t sg_copy_from_buffer(struct scatterlist *sgl, unsigned int nents,
			   const void *buf, size_t buflen);
size_t sg_copy_to_buffer(struct scatterlist *sgl, unsigned int nents,
			 void *buf, size_t buflen);

#define SG_MITER_ATOMIC		(1 << 0)
#define SG_MITER_TO_SG		(1 << 1)
#define SG_MITER_FROM_SG	(1 << 2)

/*
 * As the kernel's: each step maps at most the rest of the current page of
 * the current segment; a step that consumed less than it was given resumes
 * at that point.
 */
struct sg_mapping_iter {
	void *addr;
	size_t length;
	size_t consumed;
	/* private */
	struct scatterlist *__sg;
	unsigned int __nents;
	size_t __offset;
	size_t __remaining;
	bool __mapped;
};

void sg_miter_start(struct sg_mapping_iter *miter, struct scatterlist *sgl,
		    unsigned int nents, unsigned int flags);
bool sg_miter_next(struct sg_mapping_iter *miter);
void sg_miter_stop(struct sg_mapping_iter *miter);

/* lib/crypto's tag copy: @nbytes at @start of @sg to or from @buf. */
void scatterwalk_map_and_copy(void *buf, struct scatterlist *sg,
			      unsigned int start, unsigned int nbytes, int out);

/*
 * Seeded pseudo-random numbers for self-tests that draw their inputs: the
 * same seed gives the same numbers within this build. Not the kernel's
 * generator, so a layout drawn here differs from the kernel's for a seed.
 */
struct rnd_state {
	u64 s;
};

static inline void prandom_seed_state(struct rnd_state *state, u64 seed)
{
	state->s = seed;
}

/* SplitMix64's step and output mix, truncated to 32 bits. */
static inline u32 prandom_u32_state(struct rnd_state *state)
{
	u64 z = (state->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (z ^ (z >> 31)) >> 32;
}

/* Nothing to yield to in a single-threaded test. */
static inline int cond_resched(void)
{
	return 0;
}

#endif /* _ZN_KERNEL_H */
