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
	long slab_kb, percpu_kb, vmalloc_kb;	/* /proc/meminfo */
};

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
