// SPDX-License-Identifier: GPL-2.0
/*
 * profile-plugin: a QEMU TCG plugin that counts the guest kernel's executed
 * instructions per translation block, only inside windows the guest
 * program opens and closes (tests/bench/run-profile loads it).
 *
 *   qemu-system-x86_64 ... -plugin profile-plugin.so,out=FILE,marker=ADDR
 *   qemu-system-aarch64 ... (the same: the plugin API is the guest
 *   architecture's alike)
 *
 * The windows: the guest program (omxbench -p ID) maps a page at the user
 * address ADDR holding a "ret" (its architecture's) every 64 bytes, and
 * calls ADDR + 64 * ID
 * (ID 1 to MAX_WINDOWS) to open window ID, ADDR to close it.  Nothing else
 * runs code at that address, so a translation block starting there can only
 * be one of those calls.  Windows with the same ID add up (omxbench -o opens
 * one per batch of opens).
 *
 * How it counts: every translation block of the kernel (an address in the
 * upper half, bit 63 set, on x86-64 and arm64 alike) gets an inline counter of its executions, cheap enough to run
 * from boot; opening a window notes every counter, closing it adds what
 * each counter moved to the window's sum.  A block the CPU left early (an
 * exception in its middle) still counts whole: a small overcount, where the
 * kernel takes a fault.  The user's instructions are counted together, as one
 * line.  At exit, FILE gets, per window:
 *   W ID
 *   K ADDRESS INSTRUCTIONS   (per block start address, kernel only)
 *   U INSTRUCTIONS           (user space, all blocks together)
 * tests/bench/profile.py maps the addresses to functions.
 *
 * QEMU ships no qemu-plugin.h in Debian 12: the few types and functions of
 * its plugin API (version 1, QEMU 7.2) used here are declared below, from
 * the API's documentation.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- The plugin API, as documented (version 1) --- */
typedef uint64_t qemu_plugin_id_t;
struct qemu_info_t;		/* only passed to us, never read */
struct qemu_plugin_tb;		/* opaque */
enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};
enum qemu_plugin_op {
	QEMU_PLUGIN_INLINE_ADD_U64,
};
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index,
					    void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags,
					  void *userdata);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum qemu_plugin_op op,
					      void *ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    qemu_plugin_udata_cb_t cb, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_outs(const char *string);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/* --- The profile --- */
#define MAX_WINDOWS	15
#define MARKER_STRIDE	64
/*
 * The kernel's half of the address space: x86-64's starts at
 * 0xffff800000000000 (4-level paging), arm64's at 0xfff0000000000000 with
 * 52-bit addresses (Debian 13's kernels) or 0xffff000000000000 with 48-bit
 * ones (Debian 12's); user addresses never have bit 63 set.
 */
#define KERNEL_START	(1ull << 63)
#define CHUNK		65536

struct block {
	uint64_t vaddr;
	uint64_t insns;			/* in the block */
	uint64_t execs;			/* the inline counter */
	uint64_t noted;			/* execs when the window opened */
	uint64_t sum[MAX_WINDOWS + 1];	/* executions inside each window */
};

static struct block **chunks;	/* chunks of CHUNK blocks: never move */
static size_t nblocks, nchunks;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t marker;
static const char *out_path;
static int window;		/* the open window, 0: none */
static uint64_t user_insns, user_noted, user_sum[MAX_WINDOWS + 1];
static bool failed;

static struct block *block_at(size_t i)
{
	return &chunks[i / CHUNK][i % CHUNK];
}

static struct block *new_block(uint64_t vaddr, uint64_t insns)
{
	struct block *b = NULL;

	pthread_mutex_lock(&lock);
	if (nblocks == nchunks * CHUNK) {
		struct block **c = realloc(chunks, (nchunks + 1) * sizeof(*c));

		if (c) {
			chunks = c;
			chunks[nchunks] = calloc(CHUNK, sizeof(struct block));
			if (chunks[nchunks])
				nchunks++;
		}
	}
	if (nblocks < nchunks * CHUNK) {
		b = block_at(nblocks++);
		b->vaddr = vaddr;
		b->insns = insns;
	} else {
		failed = true;
	}
	pthread_mutex_unlock(&lock);
	return b;
}

/* A call to a marker: ID 0 closes the open window, 1 to MAX_WINDOWS open one. */
static void on_marker(unsigned int vcpu_index, void *userdata)
{
	int id = (int)(uintptr_t)userdata;
	size_t i;

	(void)vcpu_index;
	pthread_mutex_lock(&lock);
	if (id && !window) {
		for (i = 0; i < nblocks; i++)
			block_at(i)->noted = block_at(i)->execs;
		user_noted = user_insns;
		window = id;
	} else if (!id && window) {
		for (i = 0; i < nblocks; i++) {
			struct block *b = block_at(i);

			b->sum[window] += b->execs - b->noted;
		}
		user_sum[window] += user_insns - user_noted;
		window = 0;
	}
	pthread_mutex_unlock(&lock);
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
	uint64_t insns = qemu_plugin_tb_n_insns(tb);
	struct block *b;

	(void)id;
	if (vaddr >= KERNEL_START) {
		b = new_block(vaddr, insns);
		if (b)
			qemu_plugin_register_vcpu_tb_exec_inline(tb,
				QEMU_PLUGIN_INLINE_ADD_U64, &b->execs, 1);
		return;
	}
	if (vaddr >= marker && vaddr <= marker + MAX_WINDOWS * MARKER_STRIDE &&
	    (vaddr - marker) % MARKER_STRIDE == 0) {
		qemu_plugin_register_vcpu_tb_exec_cb(tb, on_marker,
			QEMU_PLUGIN_CB_NO_REGS,
			(void *)(uintptr_t)((vaddr - marker) / MARKER_STRIDE));
		return;
	}
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &user_insns, insns);
}

static void on_qemu_exit(qemu_plugin_id_t id, void *userdata)
{
	FILE *f;
	size_t i;
	int w;

	(void)id;
	(void)userdata;
	f = fopen(out_path, "w");
	if (!f) {
		qemu_plugin_outs("profile-plugin: cannot write the profile\n");
		return;
	}
	if (failed)
		fprintf(f, "# out of memory: blocks left uncounted\n");
	for (w = 1; w <= MAX_WINDOWS; w++) {
		bool any = user_sum[w] != 0;

		for (i = 0; i < nblocks && !any; i++)
			any = block_at(i)->sum[w] != 0;
		if (!any)
			continue;
		fprintf(f, "W %d\n", w);
		for (i = 0; i < nblocks; i++) {
			struct block *b = block_at(i);

			if (b->sum[w])
				fprintf(f, "K %" PRIx64 " %" PRIu64 "\n",
					b->vaddr, b->sum[w] * b->insns);
		}
		fprintf(f, "U %" PRIu64 "\n", user_sum[w]);
	}
	fclose(f);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info_t *info,
			int argc, char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			out_path = argv[i] + 4;
		else if (!strncmp(argv[i], "marker=", 7))
			marker = strtoull(argv[i] + 7, NULL, 0);
	}
	if (!out_path || !marker || marker >= KERNEL_START) {
		fprintf(stderr, "profile-plugin: give out=FILE,marker=ADDR (a user address)\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, on_qemu_exit, NULL);
	return 0;
}
