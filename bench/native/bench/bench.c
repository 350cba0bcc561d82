// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Cycles per byte of ChaCha20Poly1305 and BLAKE2s, and X25519 operations
 * per second: Zinc and the kernel's lib/crypto (with its x86_64 glue),
 * both from the same tree, per implementation path (no SIMD, AVX2,
 * AVX-512; for X25519 generic and BMI2+ADX), OpenSSL and libsodium (each
 * with the code it picks for this CPU).  Zinc runs on lib/crypto's code:
 * what differs is how each holds the vector unit (Zinc: once per message,
 * lib/crypto: per call of each primitive); Zinc's BLAKE2s is lib/crypto's,
 * so it has no column of its own.  Every AEAD call is one whole
 * message (key, nonce, data, tag), as a tunnel does it; "openssl
 * update-only" is the streaming figure 'openssl speed' prints.
 *
 * Pinned to one CPU (BENCH_CPU, default the last one this process may
 * use); every figure is the median of BENCH_RUNS runs (default 9, at most
 * 63) of at least BENCH_MS milliseconds each (default 20), or with
 * BENCH_STAT=min the fastest run (on a machine with other load, many short
 * runs and the fastest say more about the code than the median).  Cycles are TSC ticks
 * (rdtsc), which on current x86 count at a constant rate, not the core's
 * actual clock.
 *
 *	zinc-bench JSON DAT	writes the table on stdout, the results as
 *				JSON, and gnuplot data (GB/s by size)
 */

#define _GNU_SOURCE
#include <zinc/blake2s.h>
#include <zinc/chacha20poly1305.h>
#include <zinc/curve25519.h>

#include <openssl/evp.h>
#include <sched.h>
#include <sodium.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

/* The x86_64 glue's module_init (arch/x86/crypto), built by build.sh. */
int zn_init_chacha_x86(void);
int zn_init_poly1305_x86(void);
int zn_init_blake2s_x86(void);
int zn_init_curve25519_x86(void);

enum op { AEAD_ENC, AEAD_DEC, BLAKE2S, X25519, OPS };
static const char *const op_names[OPS] = {
	"chacha20poly1305-encrypt", "chacha20poly1305-decrypt", "blake2s-256",
	"x25519"
};

static const size_t aead_sizes[] = { 64, 1420, 4096, 16384, 65536 };
static const size_t blake2s_sizes[] = { 64, 1420 };

#define MAX_LEN 65536
static u8 *src, *dst, *ct;
static u8 key[32] = { 1, 2, 3 }, scalar[32] = { 7 }, point[32] = { 9 };
static u64 nonce = 42;
static u8 iv[12];
static size_t cur_len;
static EVP_CIPHER_CTX *ossl;

/* One implementation: a name, a path, and a function per operation. */
enum kind { ZINC, LIBCRYPTO, OTHER };
struct impl {
	const char *name, *path;
	unsigned long hides;	/* CPU features hidden for this path */
	enum kind kind;
	void (*fn[OPS])(void);
};

static void fail(const char *what)
{
	fprintf(stderr, "zinc-bench: %s\n", what);
	exit(1);
}

static void zinc_enc(void)
{
	zinc_chacha20poly1305_encrypt(dst, src, cur_len, NULL, 0, nonce, key);
}

static void zinc_dec(void)
{
	if (!zinc_chacha20poly1305_decrypt(dst, ct, cur_len + 16, NULL, 0,
					   nonce, key))
		fail("zinc: decrypt failed");
}

static void zinc_x25519(void)
{
	if (!zinc_curve25519(dst, scalar, point))
		fail("zinc: x25519 failed");
}

static void lc_enc(void)
{
	chacha20poly1305_encrypt(dst, src, cur_len, NULL, 0, nonce, key);
}

static void lc_dec(void)
{
	if (!chacha20poly1305_decrypt(dst, ct, cur_len + 16, NULL, 0, nonce,
				      key))
		fail("lib/crypto: decrypt failed");
}

static void lc_b2s(void)
{
	blake2s(dst, src, NULL, BLAKE2S_HASH_SIZE, cur_len, 0);
}

static void lc_x25519_g(void)
{
	curve25519_generic(dst, scalar, point);
}

static void lc_x25519_a(void)
{
	curve25519_arch(dst, scalar, point);
}

static void ossl_enc(void)
{
	int n;

	if (!EVP_EncryptInit_ex(ossl, NULL, NULL, key, iv) ||
	    !EVP_EncryptUpdate(ossl, dst, &n, src, cur_len) ||
	    !EVP_EncryptFinal_ex(ossl, dst + cur_len, &n) ||
	    !EVP_CIPHER_CTX_ctrl(ossl, EVP_CTRL_AEAD_GET_TAG, 16, dst + cur_len))
		fail("OpenSSL: encrypt failed");
}

static void ossl_dec(void)
{
	int n;

	if (!EVP_DecryptInit_ex(ossl, NULL, NULL, key, iv) ||
	    !EVP_CIPHER_CTX_ctrl(ossl, EVP_CTRL_AEAD_SET_TAG, 16, ct + cur_len) ||
	    !EVP_DecryptUpdate(ossl, dst, &n, ct, cur_len) ||
	    EVP_DecryptFinal_ex(ossl, dst + cur_len, &n) <= 0)
		fail("OpenSSL: decrypt failed");
}

static void ossl_blake2s(void)
{
	unsigned int n;

	if (!EVP_Digest(src, cur_len, dst, &n, EVP_blake2s256(), NULL))
		fail("OpenSSL: BLAKE2s failed");
}

/*
 * What 'openssl speed -evp chacha20-poly1305' times: EVP_EncryptUpdate on
 * a context set up once, without the per-message nonce, tag and
 * finalisation that a tunnel pays; a lower bound of OpenSSL's cost.
 */
static EVP_CIPHER_CTX *ossl_stream;
static void ossl_update(void)
{
	int n;

	if (!EVP_EncryptUpdate(ossl_stream, dst, &n, src, cur_len))
		fail("OpenSSL: update failed");
}

static EVP_PKEY_CTX *ossl_x25519_ctx;
static void ossl_x25519(void)
{
	size_t len = 32;

	if (EVP_PKEY_derive(ossl_x25519_ctx, dst, &len) <= 0)
		fail("OpenSSL: X25519 failed");
}

static void sodium_enc(void)
{
	crypto_aead_chacha20poly1305_ietf_encrypt(dst, NULL, src, cur_len, NULL,
						  0, NULL, iv, key);
}

static void sodium_dec(void)
{
	if (crypto_aead_chacha20poly1305_ietf_decrypt(dst, NULL, NULL, ct,
						      cur_len + 16, NULL, 0,
						      iv, key))
		fail("libsodium: decrypt failed");
}

static void sodium_x25519(void)
{
	if (crypto_scalarmult(dst, scalar, point))
		fail("libsodium: X25519 failed");
}

#define F(x) BIT(X86_FEATURE_##x)
#define HIDE_AVX512 (F(AVX512F) | F(AVX512VL) | F(AVX512BW))
/*
 * "no-simd": every CPU feature hidden and SIMD not usable (generic ChaCha20,
 * BLAKE2s and X25519, the scalar Poly1305 assembly).  X25519 has one x86_64
 * path (BMI2+ADX), listed under avx2.
 */
static struct impl impls[] = {
	{ "zinc", "no-simd", ~0UL, ZINC,
	  { zinc_enc, zinc_dec, NULL, zinc_x25519 } },
	{ "zinc", "avx2", HIDE_AVX512, ZINC,
	  { zinc_enc, zinc_dec, NULL, zinc_x25519 } },
	{ "zinc", "avx512", 0, ZINC,
	  { zinc_enc, zinc_dec, NULL, NULL } },
	{ "lib/crypto", "no-simd", ~0UL, LIBCRYPTO,
	  { lc_enc, lc_dec, lc_b2s, lc_x25519_g } },
	{ "lib/crypto", "avx2", HIDE_AVX512, LIBCRYPTO,
	  { lc_enc, lc_dec, lc_b2s, lc_x25519_a } },
	{ "lib/crypto", "avx512", 0, LIBCRYPTO,
	  { lc_enc, lc_dec, lc_b2s, NULL } },
	{ "openssl", "auto", 0, OTHER,
	  { ossl_enc, ossl_dec, ossl_blake2s, ossl_x25519 } },
	{ "openssl", "update-only", 0, OTHER,
	  { ossl_update, NULL, NULL, NULL } },
	{ "libsodium", "auto", 0, OTHER,
	  { sodium_enc, sodium_dec, NULL, sodium_x25519 } },
};
#undef F

static unsigned int runs = 9;
static bool use_min;	/* BENCH_STAT=min: the fastest run, not the median */
static double min_ns = 20e6;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median cycles and nanoseconds per call of fn. */
static void measure(void (*fn)(void), double *cycles, double *ns)
{
	double c[64], t[64], t0;
	unsigned long iters = 1, i;
	unsigned int r;
	u64 c0;

	fn(); /* warm up, and find an iteration count worth timing */
	for (;;) {
		t0 = now_ns();
		for (i = 0; i < iters; ++i)
			fn();
		if (now_ns() - t0 >= min_ns / 4)
			break;
		iters *= 2;
	}
	iters *= 4;
	for (r = 0; r < runs; ++r) {
		t0 = now_ns();
		c0 = __rdtsc();
		for (i = 0; i < iters; ++i)
			fn();
		c[r] = (double)(__rdtsc() - c0) / iters;
		t[r] = (now_ns() - t0) / iters;
	}
	qsort(c, runs, sizeof(c[0]), cmp_double);
	qsort(t, runs, sizeof(t[0]), cmp_double);
	*cycles = use_min ? c[0] : c[runs / 2];
	*ns = use_min ? t[0] : t[runs / 2];
}

struct result {
	const struct impl *impl;
	enum op op;
	size_t len;
	double cycles, ns;
};
static struct result results[256];
static unsigned int nresults;

/*
 * The x86_64 glue, which both run on, picks its code again under the path's
 * mask, its static keys turned off first; the no-SIMD path also finds SIMD
 * unusable, as in a context where the kernel may not use it.
 */
static void select_impl(const struct impl *im)
{
	if (im->kind == OTHER)
		return;
	zn_cpu_mask(im->hides);
	zn_static_keys_reset();
	if (zn_init_chacha_x86() || zn_init_poly1305_x86() ||
	    zn_init_blake2s_x86() || zn_init_curve25519_x86())
		fail("the x86_64 glue's module_init failed");
	zn_cpu_mask(0);
	zn_simd_usable = im->hides != ~0UL;
}

static bool impl_available(const struct impl *im)
{
	unsigned long avx512 = BIT(X86_FEATURE_AVX512F) |
			       BIT(X86_FEATURE_AVX512VL) |
			       BIT(X86_FEATURE_AVX512BW);

	if (im->kind != OTHER && !strcmp(im->path, "avx512"))
		return (zn_cpu_present() & avx512) == avx512;
	if (im->kind != OTHER && !strcmp(im->path, "avx2"))
		return zn_cpu_present() & BIT(X86_FEATURE_AVX2);
	return true;
}

static void run(struct impl *im, enum op op, size_t len)
{
	struct result *res = &results[nresults++];

	cur_len = len;
	/* A valid ciphertext for the decrypt runs. */
	zinc_chacha20poly1305_encrypt(ct, src, len, NULL, 0, nonce, key);
	measure(im->fn[op], &res->cycles, &res->ns);
	res->impl = im;
	res->op = op;
	res->len = len;
}

static void pin(void)
{
	const char *env = getenv("BENCH_CPU");
	cpu_set_t set;
	int cpu = -1, i;

	if (sched_getaffinity(0, sizeof(set), &set))
		fail("sched_getaffinity failed");
	if (env) {
		cpu = atoi(env);
	} else {
		for (i = 0; i < CPU_SETSIZE; ++i)
			if (CPU_ISSET(i, &set))
				cpu = i;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fail("cannot pin to BENCH_CPU");
	printf("# pinned to CPU %d; %s of %u runs of >= %.0f ms; cycles are TSC ticks\n",
	       cpu, use_min ? "fastest" : "median", runs, min_ns / 1e6);
}

static void print_tables(FILE *json, FILE *dat)
{
	unsigned int i, j;
	enum op op;

	printf("\n%-26s %6s", "operation", "bytes");
	for (j = 0; j < ARRAY_SIZE(impls); ++j)
		if (impl_available(&impls[j]))
			printf(" %17.17s", impls[j].name);
	printf("\n%-26s %6s", "", "");
	for (j = 0; j < ARRAY_SIZE(impls); ++j)
		if (impl_available(&impls[j]))
			printf(" %17.17s", impls[j].path);
	printf("\n");
	for (op = 0; op < OPS; ++op) {
		const size_t *sizes = op == BLAKE2S ? blake2s_sizes : aead_sizes;
		size_t nsizes = op == BLAKE2S ? ARRAY_SIZE(blake2s_sizes) :
			       op == X25519 ? 1 : ARRAY_SIZE(aead_sizes);
		size_t s;

		for (s = 0; s < nsizes; ++s) {
			size_t len = op == X25519 ? 32 : sizes[s];

			printf("%-26s %6zu", op_names[op], len);
			for (j = 0; j < ARRAY_SIZE(impls); ++j) {
				struct result *r = NULL;
				char cell[32] = "-";

				if (!impl_available(&impls[j]))
					continue;
				for (i = 0; i < nresults; ++i)
					if (results[i].impl == &impls[j] &&
					    results[i].op == op &&
					    results[i].len == len)
						r = &results[i];
				if (r && op == X25519)
					snprintf(cell, sizeof(cell), "%.1fk/s %.0fkc",
						 1e6 / r->ns, r->cycles / 1e3);
				else if (r)
					snprintf(cell, sizeof(cell), "%.2fc/B %.2fGB/s",
						 r->cycles / len, len / r->ns);
				printf(" %17s", cell);
			}
			printf("\n");
		}
	}

	fprintf(json, "{\n  \"unit\": {\"cycles\": \"TSC ticks\", \"gbps\": \"1e9 bytes/s\"},\n");
	fprintf(json, "  \"runs\": %u, \"statistic\": \"%s\",\n  \"results\": [\n",
		runs, use_min ? "min" : "median");
	for (i = 0; i < nresults; ++i) {
		struct result *r = &results[i];

		fprintf(json, "    {\"impl\": \"%s\", \"path\": \"%s\", \"op\": \"%s\", \"bytes\": %zu, ",
			r->impl->name, r->impl->path, op_names[r->op], r->len);
		if (r->op == X25519)
			fprintf(json, "\"ops_per_s\": %.1f, \"cycles_per_op\": %.0f}",
				1e9 / r->ns, r->cycles);
		else
			fprintf(json, "\"cycles_per_byte\": %.3f, \"gbps\": %.3f}",
				r->cycles / r->len, r->len / r->ns);
		fprintf(json, "%s\n", i + 1 < nresults ? "," : "");
		if (r->op == AEAD_ENC)
			fprintf(dat, "\"%s %s\" %zu %.4f\n", r->impl->name,
				r->impl->path, r->len, r->len / r->ns);
	}
	fprintf(json, "  ]\n}\n");
}

int main(int argc, char *argv[])
{
	FILE *json, *dat;
	unsigned int i;
	EVP_PKEY *priv, *peer;
	size_t s;

	if (argc != 3)
		fail("usage: zinc-bench OUT.json OUT.dat");
	if (getenv("BENCH_RUNS"))
		runs = min(max(atoi(getenv("BENCH_RUNS")), 1), 63);
	use_min = getenv("BENCH_STAT") && !strcmp(getenv("BENCH_STAT"), "min");
	if (getenv("BENCH_MS"))
		min_ns = atof(getenv("BENCH_MS")) * 1e6;
	if (sodium_init() < 0)
		fail("sodium_init failed");
	pin();

	src = calloc(1, MAX_LEN + 16);
	dst = calloc(1, MAX_LEN + 16);
	ct = calloc(1, MAX_LEN + 16);
	for (s = 0; s < MAX_LEN; ++s)
		src[s] = s * 7;
	put_unaligned_le64(nonce, iv + 4);
	ossl = EVP_CIPHER_CTX_new();
	if (!ossl || !EVP_EncryptInit_ex(ossl, EVP_chacha20_poly1305(), NULL,
					 key, iv))
		fail("OpenSSL: no ChaCha20-Poly1305");
	ossl_stream = EVP_CIPHER_CTX_new();
	if (!ossl_stream || !EVP_EncryptInit_ex(ossl_stream,
						EVP_chacha20_poly1305(), NULL,
						key, iv))
		fail("OpenSSL: no ChaCha20-Poly1305");
	priv = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, scalar, 32);
	peer = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, point, 32);
	ossl_x25519_ctx = priv ? EVP_PKEY_CTX_new(priv, NULL) : NULL;
	if (!ossl_x25519_ctx || EVP_PKEY_derive_init(ossl_x25519_ctx) <= 0 ||
	    EVP_PKEY_derive_set_peer(ossl_x25519_ctx, peer) <= 0)
		fail("OpenSSL: no X25519");

	for (i = 0; i < ARRAY_SIZE(impls); ++i) {
		struct impl *im = &impls[i];

		if (!impl_available(im)) {
			printf("# %s %s: not available on this CPU, skipped\n",
			       im->name, im->path);
			continue;
		}
		select_impl(im);
		fprintf(stderr, "[bench-native] %s %s\n", im->name, im->path);
		for (s = 0; s < ARRAY_SIZE(aead_sizes); ++s) {
			if (im->fn[AEAD_ENC])
				run(im, AEAD_ENC, aead_sizes[s]);
			if (im->fn[AEAD_DEC])
				run(im, AEAD_DEC, aead_sizes[s]);
		}
		for (s = 0; s < ARRAY_SIZE(blake2s_sizes); ++s)
			if (im->fn[BLAKE2S])
				run(im, BLAKE2S, blake2s_sizes[s]);
		if (im->fn[X25519])
			run(im, X25519, 32);
		zn_simd_usable = true;
	}

	json = fopen(argv[1], "w");
	dat = fopen(argv[2], "w");
	if (!json || !dat)
		fail("cannot write the results");
	print_tables(json, dat);
	fclose(json);
	fclose(dat);
	return 0;
}
