// SPDX-License-Identifier: GPL-2.0
/* Slab caches, modules and memory counters of the running kernel: kstate.h. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kstate.h"

static void write_value(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (write(fd, value, strlen(value)) != (ssize_t)strlen(value))
			perror(path);
		close(fd);
	}
}

/*
 * Free what the caches hold and nothing uses, let RCU frees land, and
 * have SLUB give back its per-CPU slabs (/sys/kernel/slab/CACHE/shrink),
 * whose free objects slabinfo would count as active.
 */
static void settle(void)
{
	char path[PATH_MAX];
	struct dirent *d;
	DIR *dir;

	sync();
	write_value("/proc/sys/vm/drop_caches", "3");
	usleep(500 * 1000);
	dir = opendir("/sys/kernel/slab");
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/shrink",
			 d->d_name);
		write_value(path, "1");
	}
	closedir(dir);
}

static int read_slabinfo(struct kstate *ks)
{
	FILE *f = fopen("/proc/slabinfo", "re");
	char line[512];
	long active, total, size, per_slab;
	char name[64];

	if (!f)
		return -errno;
	ks->ncaches = 0;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || !strncmp(line, "slabinfo", 8))
			continue;
		if (sscanf(line, "%63s %ld %ld %ld %ld", name, &active, &total,
			   &size, &per_slab) != 5 || ks->ncaches == KSTATE_MAX_CACHES)
			continue;
		snprintf(ks->caches[ks->ncaches].name,
			 sizeof(ks->caches[0].name), "%s", name);
		ks->caches[ks->ncaches].active = active;
		ks->caches[ks->ncaches].objsize = size;
		ks->caches[ks->ncaches].per_slab = per_slab;
		ks->ncaches++;
	}
	fclose(f);
	return ks->ncaches ? 0 : -ENODATA;
}

static int count_modules(void)
{
	FILE *f = fopen("/proc/modules", "re");
	char line[512];
	int n = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		n++;
	fclose(f);
	return n;
}

static void read_meminfo(struct kstate *ks)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[128];
	long kb;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Slab: %ld", &kb) == 1)
			ks->slab_kb = kb;
		else if (sscanf(line, "Percpu: %ld", &kb) == 1)
			ks->percpu_kb = kb;
		else if (sscanf(line, "VmallocUsed: %ld", &kb) == 1)
			ks->vmalloc_kb = kb;
	}
	fclose(f);
}

static long read_files(void)
{
	FILE *f = fopen("/proc/sys/fs/file-nr", "re");
	long n = -1;

	if (!f)
		return -errno;
	if (fscanf(f, "%ld", &n) != 1)
		n = -ENODATA;
	fclose(f);
	return n;
}

int kstate_take(struct kstate *ks)
{
	int ret;

	memset(ks, 0, sizeof(*ks));
	settle();
	settle();
	ret = read_slabinfo(ks);
	if (ret)
		return ret;
	ks->modules = count_modules();
	if (ks->modules < 0)
		return ks->modules;
	ks->files = read_files();
	if (ks->files < 0)
		return ks->files;
	read_meminfo(ks);
	return 0;
}

static const struct kstate_cache *find_cache(const struct kstate *ks,
					     const char *name)
{
	int i;

	for (i = 0; i < ks->ncaches; i++)
		if (!strcmp(ks->caches[i].name, name))
			return &ks->caches[i];
	return NULL;
}

int kstate_top_growth(const struct kstate *before, const struct kstate *after,
		      struct kstate_growth *top, int n)
{
	struct kstate_growth g;
	const struct kstate_cache *b;
	int i, j, used = 0;

	for (i = 0; i < after->ncaches; i++) {
		b = find_cache(before, after->caches[i].name);
		g.name = after->caches[i].name;
		g.objects = after->caches[i].active - (b ? b->active : 0);
		g.bytes = g.objects * after->caches[i].objsize;
		g.per_slab = after->caches[i].per_slab;
		/* Insertion into TOP, kept sorted by objects, largest first. */
		for (j = used; j > 0 && top[j - 1].objects < g.objects; j--)
			if (j < n)
				top[j] = top[j - 1];
		if (j < n) {
			top[j] = g;
			if (used < n)
				used++;
		}
	}
	return used;
}
