// SPDX-License-Identifier: GPL-2.0
/*
 * wgt-insns: a QEMU TCG plugin that counts the instructions a guest
 * executes, for a cost metric that the host's load cannot move.
 *
 *   qemu-system-x86_64 ... -plugin wgt-insns.so,out=FILE[,ranges=FILE]
 *
 * Every vCPU counts the instructions of each translation block it runs,
 * in its own counter (no atomics, no lost updates under MTTCG). When any
 * vCPU executes the marker instruction (x86: xchg %bx,%bx, 66 87 db, a
 * no-op that compilers do not emit; guest-image/tools/wgt-mark.c runs it),
 * the plugin appends one line to the out file:
 *
 *   mark SEQ vcpu=N insns=TOTAL g0=COUNT g1=COUNT ...
 *
 * TOTAL is the sum over all vCPUs since QEMU started; the host takes
 * differences between marks. gN counts the instructions of blocks that
 * start inside a range of group N of the ranges file (lines "START END N",
 * hex addresses, sorted, not overlapping; bench/cost/ranges.sh makes one
 * from System.map), so a kernel function's share can be told apart. A
 * range line with a fourth word, "entry" ("START END N entry"), also counts
 * how many times a block starting at START ran: the calls of the function
 * at START (execution reaches a function's first instruction only by a
 * jump to it, and every jump target starts a block). Those counts follow
 * the groups, as eN=COUNT for each group N that has an entry range. At
 * exit: "exit insns=TOTAL ...".
 *
 * The declarations below are QEMU's documented plugin API, version 1 (QEMU
 * 6.0 to 8.x; Debian 12 ships 7.2 without its header).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- QEMU plugin API, version 1 ---------------------------------------- */
#define EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;
typedef struct {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
void qemu_plugin_outs(const char *string);

EXPORT int qemu_plugin_version = 1;
/* ------------------------------------------------------------------------ */

#define MAX_GROUPS 8
#define MAX_RANGES 65536

static const unsigned char marker[] = { 0x66, 0x87, 0xdb };

struct vcpu_count {
	uint64_t insns;
	uint64_t group[MAX_GROUPS];
	uint64_t entries[MAX_GROUPS];
} __attribute__((aligned(64)));

struct range {
	uint64_t start, end;
	unsigned int group;
	bool entry;
};

static struct vcpu_count *counts;
static unsigned int nvcpus;
static struct range ranges[MAX_RANGES];
static unsigned int nranges, ngroups;
static bool has_entry[MAX_GROUPS];
static FILE *out;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long seq;

/*
 * udata of a block: its instruction count, its group + 1 (0: none), and
 * whether it starts at an entry range's first byte. The plugin API is
 * 64-bit only, so the pointer holds all three.
 */
#define UDATA(n, g, e) ((void *)(uintptr_t)(((uint64_t)(e) << 40) | ((uint64_t)(g) << 32) | (n)))
#define UDATA_N(u) ((uint64_t)((uintptr_t)(u) & 0xffffffffu))
#define UDATA_G(u) ((unsigned int)(((uintptr_t)(u) >> 32) & 0xffu))
#define UDATA_E(u) ((unsigned int)((uintptr_t)(u) >> 40))

static void tb_exec(unsigned int vcpu, void *udata)
{
	struct vcpu_count *c = &counts[vcpu < nvcpus ? vcpu : 0];
	unsigned int g = UDATA_G(udata);

	c->insns += UDATA_N(udata);
	if (g) {
		c->group[g - 1] += UDATA_N(udata);
		c->entries[g - 1] += UDATA_E(udata);
	}
}

static void report(const char *what, long vcpu)
{
	uint64_t total = 0, group[MAX_GROUPS] = { 0 }, entries[MAX_GROUPS] = { 0 };
	unsigned int i, g;

	for (i = 0; i < nvcpus; i++) {
		total += __atomic_load_n(&counts[i].insns, __ATOMIC_RELAXED);
		for (g = 0; g < ngroups; g++) {
			group[g] += __atomic_load_n(&counts[i].group[g], __ATOMIC_RELAXED);
			entries[g] += __atomic_load_n(&counts[i].entries[g], __ATOMIC_RELAXED);
		}
	}
	pthread_mutex_lock(&out_lock);
	if (vcpu >= 0)
		fprintf(out, "%s %lu vcpu=%ld insns=%" PRIu64, what, ++seq, vcpu, total);
	else
		fprintf(out, "%s insns=%" PRIu64, what, total);
	for (g = 0; g < ngroups; g++)
		fprintf(out, " g%u=%" PRIu64, g, group[g]);
	for (g = 0; g < ngroups; g++)
		if (has_entry[g])
			fprintf(out, " e%u=%" PRIu64, g, entries[g]);
	fputc('\n', out);
	fflush(out);
	pthread_mutex_unlock(&out_lock);
}

static void mark_exec(unsigned int vcpu, void *udata)
{
	(void)udata;
	report("mark", vcpu);
}

/* The range holding pc, or NULL. */
static const struct range *range_of(uint64_t pc)
{
	unsigned int lo = 0, hi = nranges;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (pc < ranges[mid].start)
			hi = mid;
		else if (pc >= ranges[mid].end)
			lo = mid + 1;
		else
			return &ranges[mid];
	}
	return NULL;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	uint64_t pc = qemu_plugin_tb_vaddr(tb);
	const struct range *r = range_of(pc);

	(void)id;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS,
					     UDATA(n, r ? r->group + 1 : 0,
						   r && r->entry && pc == r->start));
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);

		if (qemu_plugin_insn_size(insn) == sizeof(marker) &&
		    !memcmp(qemu_plugin_insn_data(insn), marker, sizeof(marker)))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, mark_exec,
							       QEMU_PLUGIN_CB_NO_REGS, NULL);
	}
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	report("exit", -1);
	fclose(out);
}

static int fail(const char *fmt, const char *arg)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "wgt-insns: ");
	snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), fmt, arg);
	strncat(buf, "\n", sizeof(buf) - strlen(buf) - 1);
	/* QEMU's plugin log is off unless -d plugin: say it on stderr too. */
	fputs(buf, stderr);
	qemu_plugin_outs(buf);
	return -1;
}

static int load_ranges(const char *path)
{
	FILE *f = fopen(path, "r");
	unsigned long long s, e;
	unsigned int g;
	char line[256], word[16];
	int r;

	if (!f)
		return fail("cannot open the ranges file %s", path);
	while (fgets(line, sizeof(line), f)) {
		r = sscanf(line, "%llx %llx %u %15s", &s, &e, &g, word);
		if (r < 3 || (r == 4 && strcmp(word, "entry"))) {
			fclose(f);
			return fail("%s: a line is not 'START END GROUP [entry]' (hex, hex, 0-7)", path);
		}
		if (nranges == MAX_RANGES || g >= MAX_GROUPS || e <= s ||
		    (nranges && s < ranges[nranges - 1].end)) {
			fclose(f);
			return fail("%s: too many, unsorted, overlapping or bad ranges", path);
		}
		ranges[nranges].start = s;
		ranges[nranges].end = e;
		ranges[nranges].group = g;
		ranges[nranges].entry = r == 4;
		if (r == 4)
			has_entry[g] = true;
		nranges++;
		if (g + 1 > ngroups)
			ngroups = g + 1;
	}
	fclose(f);
	return 0;
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
	const char *out_path = NULL;
	int i;

	if (!info->system_emulation)
		return fail("%s", "needs system emulation");
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			out_path = argv[i] + 4;
		else if (!strncmp(argv[i], "ranges=", 7)) {
			if (load_ranges(argv[i] + 7))
				return -1;
		} else
			return fail("unknown argument '%s' (out=FILE, ranges=FILE)", argv[i]);
	}
	if (!out_path)
		return fail("%s", "needs out=FILE");
	out = fopen(out_path, "w");
	if (!out)
		return fail("cannot create %s", out_path);
	nvcpus = info->system.max_vcpus > 0 ? info->system.max_vcpus : 1;
	counts = calloc(nvcpus, sizeof(*counts));
	if (!counts)
		return fail("%s", "out of memory");
	fprintf(out, "start target=%s vcpus=%u groups=%u ranges=%u\n", info->target_name, nvcpus,
		ngroups, nranges);
	fflush(out);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
