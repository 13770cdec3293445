/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kernel holds, before and after a stress run: slab caches
 * (/proc/slabinfo), module count (/proc/modules) and a few /proc/meminfo
 * lines.  A module that leaks something per load, per open or per policy
 * change shows up as a cache that grew by about as many objects as there
 * were loads, opens or changes.
 *
 * kstate_take() drops the dentry and inode caches first (the run creates
 * and opens files), so that what remains is what is really held.  Run as
 * root.  SLUB counts the objects of each CPU's current slab as active, so
 * a cache can seem to grow by a few slabs' worth of objects (per_slab)
 * without holding anything more.
 *
 * A struct file's memory goes back to the filp cache only after an RCU
 * grace period on Linux 6.1 (file_free(): call_rcu()), and the measure's
 * own opens of every /sys/kernel/slab/CACHE/shrink put hundreds on the
 * way; the kernel's count of files (nr_files, /proc/sys/fs/file-nr) drops
 * as soon as the file is freed, so it is what says whether files are
 * held.  That count is a per-CPU counter read without summing: each CPU
 * may hold back up to its batch (kstate_counter_batch()).
 */
#ifndef OMX_TESTS_KSTATE_H
#define OMX_TESTS_KSTATE_H

#include <stddef.h>

#define KSTATE_MAX_CACHES	512

struct kstate_cache {
	char name[64];
	long active;		/* active objects */
	long objsize;		/* bytes */
	long per_slab;		/* objects per slab */
};

struct kstate {
	struct kstate_cache caches[KSTATE_MAX_CACHES];
	int ncaches;
	int modules;		/* lines of /proc/modules */
	long files;		/* open files: /proc/sys/fs/file-nr's first field */
	long slab_kb, percpu_kb, vmalloc_kb;	/* /proc/meminfo */
};

/* The batch of the kernel's per-CPU counters (percpu_counter_batch). */
static inline long kstate_counter_batch(long ncpus)
{
	return ncpus * 2 > 32 ? ncpus * 2 : 32;
}

/* 0 or -errno. */
int kstate_take(struct kstate *ks);

/* Growth of one cache from BEFORE to AFTER (a cache gone counts 0). */
struct kstate_growth {
	const char *name;
	long objects, bytes;
	long per_slab;
};

/*
 * The N caches that grew most (in objects) from BEFORE to AFTER, largest
 * first, into TOP; returns how many were written.
 */
int kstate_top_growth(const struct kstate *before, const struct kstate *after,
		      struct kstate_growth *top, int n);

#endif /* OMX_TESTS_KSTATE_H */
