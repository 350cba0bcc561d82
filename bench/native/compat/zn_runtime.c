// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The out-of-line part of the userspace stand-ins of zn_kernel.h: printk,
 * WARN, CPU feature detection with a mask, the FPU section check, the
 * resched pulse, the static key registry, random bytes and scatterlist
 * walking.
 */

#include <zn_kernel.h>

#include <cpuid.h>
#include <stdio.h>
#include <sys/random.h>

unsigned long zn_warnings;
bool zn_simd_usable = true;
const u8 zn_zero_page[PAGE_SIZE];
void (*zn_log_hook)(const char *level, const char *line);

void zn_printk(const char *level, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (zn_log_hook)
		zn_log_hook(level, line);
	else
		fprintf(stderr, "%s", line);
}

void zn_warn(const char *file, int line, const char *cond)
{
	++zn_warnings;
	if (cond)
		zn_printk("warn", "WARNING: %s:%d: %s\n", file, line, cond);
	else
		zn_printk("warn", "WARNING: %s:%d\n", file, line);
}

int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!size)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	if (n < 0)
		return 0;
	return (size_t)n >= size ? (int)size - 1 : n;
}

ssize_t strscpy(char *dest, const char *src, size_t count)
{
	size_t len;

	if (!count)
		return -E2BIG;
	len = strnlen(src, count);
	if (len == count) {
		memcpy(dest, src, count - 1);
		dest[count - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dest, src, len + 1);
	return len;
}

void get_random_bytes(void *buf, size_t len)
{
	u8 *p = buf;
	ssize_t n;

	while (len) {
		n = getrandom(p, len, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			perror("getrandom");
			abort();
		}
		p += n;
		len -= n;
	}
}

/* CPU features */

const char *const zn_cpu_feature_names[ZN_CPU_FEATURES] = {
	[X86_FEATURE_SSSE3] = "ssse3",
	[X86_FEATURE_AVX] = "avx",
	[X86_FEATURE_AVX2] = "avx2",
	[X86_FEATURE_BMI2] = "bmi2",
	[X86_FEATURE_ADX] = "adx",
	[X86_FEATURE_AVX512F] = "avx512f",
	[X86_FEATURE_AVX512VL] = "avx512vl",
	[X86_FEATURE_AVX512BW] = "avx512bw",
};

static bool zn_cpu_probed;
static unsigned long zn_cpu_bits, zn_cpu_off;
static u64 zn_xcr0;
static struct cpuinfo_x86 zn_cpu_data;

static void zn_cpu_probe(void)
{
	unsigned int a, b, c, d, max_leaf, family, model;

	if (zn_cpu_probed)
		return;
	zn_cpu_probed = true;
	max_leaf = __get_cpuid_max(0, NULL);
	if (max_leaf < 1)
		return;
	__cpuid(1, a, b, c, d);
	family = (a >> 8) & 0xf;
	model = (a >> 4) & 0xf;
	if (family == 6 || family == 0xf)
		model |= ((a >> 16) & 0xf) << 4;
	if (family == 0xf)
		family += (a >> 20) & 0xff;
	zn_cpu_data.x86 = family;
	zn_cpu_data.x86_model = model;

	if (c & bit_SSSE3)
		zn_cpu_bits |= BIT(X86_FEATURE_SSSE3);
	/* AVX is only usable when the OS saves the registers (OSXSAVE). */
	if (c & bit_OSXSAVE) {
		unsigned int lo, hi;

		__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
		zn_xcr0 = ((u64)hi << 32) | lo;
		if (c & bit_AVX)
			zn_cpu_bits |= BIT(X86_FEATURE_AVX);
	}
	if (max_leaf < 7)
		return;
	__cpuid_count(7, 0, a, b, c, d);
	if (b & bit_AVX2)
		zn_cpu_bits |= BIT(X86_FEATURE_AVX2);
	if (b & bit_BMI2)
		zn_cpu_bits |= BIT(X86_FEATURE_BMI2);
	if (b & bit_ADX)
		zn_cpu_bits |= BIT(X86_FEATURE_ADX);
	if (b & bit_AVX512F)
		zn_cpu_bits |= BIT(X86_FEATURE_AVX512F);
	if (b & bit_AVX512VL)
		zn_cpu_bits |= BIT(X86_FEATURE_AVX512VL);
	if (b & bit_AVX512BW)
		zn_cpu_bits |= BIT(X86_FEATURE_AVX512BW);

	/* The environment can hide features: ZINC_NATIVE_CPU_OFF=avx512f,... */
	{
		const char *env = getenv("ZINC_NATIVE_CPU_OFF");
		char buf[256], *tok, *save;
		unsigned int i;

		if (!env)
			return;
		strscpy(buf, env, sizeof(buf));
		for (tok = strtok_r(buf, ", ", &save); tok;
		     tok = strtok_r(NULL, ", ", &save)) {
			if (!strcmp(tok, "all")) {
				zn_cpu_off = ~0UL;
				continue;
			}
			for (i = 0; i < ZN_CPU_FEATURES; ++i)
				if (!strcmp(tok, zn_cpu_feature_names[i]))
					zn_cpu_off |= BIT(i);
		}
	}
}

bool zn_cpu_has(enum zn_cpu_feature f)
{
	zn_cpu_probe();
	return (zn_cpu_bits & ~zn_cpu_off) & BIT(f);
}

unsigned long zn_cpu_present(void)
{
	zn_cpu_probe();
	return zn_cpu_bits;
}

unsigned long zn_cpu_features(void)
{
	zn_cpu_probe();
	return zn_cpu_bits & ~zn_cpu_off;
}

unsigned long zn_cpu_mask(unsigned long off)
{
	unsigned long old;

	zn_cpu_probe();
	old = zn_cpu_off;
	zn_cpu_off = off;
	return old;
}

int zn_cpu_has_xfeatures(u64 mask)
{
	zn_cpu_probe();
	return (zn_xcr0 & mask) == mask;
}

const struct cpuinfo_x86 *zn_boot_cpu_data(void)
{
	zn_cpu_probe();
	return &zn_cpu_data;
}

/* SIMD sections: a nested begin or an end without begin is a bug. */
static int zn_fpu_sections;

void kernel_fpu_begin(void)
{
	WARN_ON(zn_fpu_sections != 0);
	++zn_fpu_sections;
}

void kernel_fpu_end(void)
{
	WARN_ON(zn_fpu_sections != 1);
	--zn_fpu_sections;
}

int zn_fpu_depth(void)
{
	return zn_fpu_sections;
}

/* Static keys: every DEFINE_STATIC_KEY_FALSE registers itself. */
#define ZN_STATIC_KEYS_MAX 64
static struct static_key_false *zn_static_keys[ZN_STATIC_KEYS_MAX];
static unsigned int zn_static_keys_len;

void zn_static_key_register(struct static_key_false *key)
{
	if (zn_static_keys_len == ZN_STATIC_KEYS_MAX) {
		fprintf(stderr, "zn_static_key_register: more than %d keys\n",
			ZN_STATIC_KEYS_MAX);
		abort();
	}
	zn_static_keys[zn_static_keys_len++] = key;
}

void zn_static_keys_reset(void)
{
	unsigned int i;

	for (i = 0; i < zn_static_keys_len; ++i)
		static_branch_disable(zn_static_keys[i]);
}

bool need_resched(void)
{
	static unsigned int pulse;

	return ++pulse & 1;
}

/* Scatterlists */

int sg_nents(struct scatterlist *sg)
{
	int nents;

	for (nents = 0; sg; sg = sg_next(sg))
		++nents;
	return nents;
}

int sg_nents_for_len(struct scatterlist *sg, u64 len)
{
	u64 total;
	int nents;

	if (!len)
		return 0;
	for (nents = 0, total = 0; sg; sg = sg_next(sg)) {
		++nents;
		total += sg->length;
		if (total >= len)
			return nents;
	}
	return -EINVAL;
}

void sg_miter_start(struct sg_mapping_iter *miter, struct scatterlist *sgl,
		    unsigned int nents, unsigned int flags)
{
	(void)flags;
	memset(miter, 0, sizeof(*miter));
	miter->__sg = sgl;
	miter->__nents = nents;
}

void sg_miter_stop(struct sg_mapping_iter *miter)
{
	if (!miter->__mapped)
		return;
	WARN_ON(miter->consumed > miter->length);
	miter->__offset += miter->consumed;
	miter->__remaining -= miter->consumed;
	miter->__mapped = false;
	miter->addr = NULL;
	miter->length = 0;
	miter->consumed = 0;
}

bool sg_miter_next(struct sg_mapping_iter *miter)
{
	sg_miter_stop(miter);
	if (!miter->__remaining) {
		struct scatterlist *sg = miter->__sg;
		uintptr_t at;

		/* Past the end of this segment: on to the next non-empty one. */
		while (sg && miter->__nents && miter->__offset >= sg->length) {
			sg = sg_next(sg);
			--miter->__nents;
			miter->__offset = 0;
		}
		miter->__sg = sg;
		if (!sg || !miter->__nents)
			return false;
		at = (uintptr_t)sg->buf + miter->__offset;
		miter->__remaining = min_t(size_t, sg->length - miter->__offset,
					   PAGE_SIZE - (at & (PAGE_SIZE - 1)));
	}
	miter->addr = miter->__sg->buf + miter->__offset;
	miter->length = miter->consumed = miter->__remaining;
	miter->__mapped = true;
	return true;
}

static size_t sg_copy_buffer(struct scatterlist *sgl, unsigned int nents,
			     void *buf, size_t buflen, bool to_buffer)
{
	struct sg_mapping_iter miter;
	size_t offset = 0, len;

	sg_miter_start(&miter, sgl, nents, 0);
	while (offset < buflen && sg_miter_next(&miter)) {
		len = min(miter.length, buflen - offset);
		if (to_buffer)
			memcpy((u8 *)buf + offset, miter.addr, len);
		else
			memcpy(miter.addr, (u8 *)buf + offset, len);
		miter.consumed = len;
		offset += len;
	}
	sg_miter_stop(&miter);
	return offset;
}

size_t sg_copy_from_buffer(struct scatterlist *sgl, unsigned int nents,
			   const void *buf, size_t buflen)
{
	return sg_copy_buffer(sgl, nents, (void *)buf, buflen, false);
}

size_t sg_copy_to_buffer(struct scatterlist *sgl, unsigned int nents,
			 void *buf, size_t buflen)
{
	return sg_copy_buffer(sgl, nents, buf, buflen, true);
}

void scatterwalk_map_and_copy(void *buf, struct scatterlist *sg,
			      unsigned int start, unsigned int nbytes, int out)
{
	u8 *p = buf;
	size_t len;

	for (; sg && nbytes; sg = sg_next(sg)) {
		if (start >= sg->length) {
			start -= sg->length;
			continue;
		}
		len = min_t(size_t, sg->length - start, nbytes);
		if (out)
			memcpy(sg->buf + start, p, len);
		else
			memcpy(p, sg->buf + start, len);
		p += len;
		nbytes -= len;
		start = 0;
	}
}
