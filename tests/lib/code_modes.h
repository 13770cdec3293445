/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The modes of an interpreter's library, changed by its remedy
 * (omayexec-python3-allow-stdlib, omayexec-perl-allow-stdlib: the x bit
 * on every code file) and given back after the test: the suites that run
 * under the file policy record them first.
 *
 * cm_save(dirs, ends) records every regular file without any x bit under
 * the existing directories @dirs (NULL-terminated; links among them are
 * resolved, and a file is recorded once) whose name ends with one of
 * @ends (NULL-terminated); cm_allow() gives them the x bit as the remedy
 * does (for all when all may read the file, else for its owner: the
 * remedy's two find passes); cm_restore() gives them their modes back.
 * A fixture that needs the library runnable under the file policy calls
 * cm_allow(), not the remedy: the remedy's four walks of the library in a
 * shell cost each test about three seconds under emulation, and the
 * suites' *_stdlib fixtures show the remedy itself.
 *
 * Header-only (static functions): included once, after userspace_run.h.
 */
#ifndef OMX_USERSPACE_CODE_MODES_H
#define OMX_USERSPACE_CODE_MODES_H

#include <ftw.h>

struct cm_saved {
	char *path;
	mode_t mode;
};

static struct cm_saved *cm_files;
static size_t cm_nfiles, cm_capfiles;
/* nftw() passes no context: the suffixes of the cm_save() under way. */
static const char *const *cm_ends;

static inline bool cm_is_code(const char *path)
{
	size_t len = strlen(path), i, n;

	for (i = 0; cm_ends[i]; i++) {
		n = strlen(cm_ends[i]);
		if (len > n && !strcmp(path + len - n, cm_ends[i]))
			return true;
	}
	return false;
}

static inline int cm_by_path(const void *a, const void *b)
{
	return strcmp(((const struct cm_saved *)a)->path,
		      ((const struct cm_saved *)b)->path);
}

/*
 * A file met twice (two of the directories are one, or one is under
 * another) is recorded once: sorted, then the repeats dropped.  A linear
 * search for each file instead took seconds under emulation, for each
 * test, with Perl's 2,800 modules.
 */
static inline void cm_drop_repeats(void)
{
	size_t i, kept = 0;

	qsort(cm_files, cm_nfiles, sizeof(*cm_files), cm_by_path);
	for (i = 0; i < cm_nfiles; i++) {
		if (kept && !strcmp(cm_files[kept - 1].path, cm_files[i].path)) {
			free(cm_files[i].path);
			continue;
		}
		cm_files[kept++] = cm_files[i];
	}
	cm_nfiles = kept;
}

/* nftw callback: record each code file without an x bit. */
static inline int cm_save_one(const char *path, const struct stat *st,
			      int type, struct FTW *ftw)
{
	struct cm_saved *p;

	(void)ftw;
	if (type != FTW_F || !S_ISREG(st->st_mode) || (st->st_mode & 0111) ||
	    !cm_is_code(path))
		return 0;
	if (cm_nfiles == cm_capfiles) {
		cm_capfiles = cm_capfiles ? cm_capfiles * 2 : 1024;
		p = realloc(cm_files, cm_capfiles * sizeof(*cm_files));
		if (!p)
			return -1;
		cm_files = p;
	}
	cm_files[cm_nfiles].path = strdup(path);
	if (!cm_files[cm_nfiles].path)
		return -1;
	cm_files[cm_nfiles++].mode = st->st_mode & 07777;
	return 0;
}

/* How many files were recorded, or -1. */
static inline long cm_save(const char *const dirs[], const char *const ends[])
{
	char real[PATH_MAX];
	size_t i;

	cm_nfiles = 0;
	cm_ends = ends;
	for (i = 0; dirs[i]; i++) {
		if (!realpath(dirs[i], real))
			continue;	/* not in this system */
		if (nftw(real, cm_save_one, 32, FTW_PHYS))
			return -1;
	}
	cm_drop_repeats();
	return (long)cm_nfiles;
}

/* The x bit on every recorded file, as the remedy gives it: 0 or -errno. */
static inline int cm_allow(void)
{
	mode_t mode, bits;
	size_t i;

	for (i = 0; i < cm_nfiles; i++) {
		mode = cm_files[i].mode;
		bits = (mode & 0444) == 0444 ? 0111 : 0100;
		if (chmod(cm_files[i].path, mode | bits))
			return -errno;
	}
	return 0;
}

/* Give the recorded files their modes back: 0 or -errno. */
static inline int cm_restore(void)
{
	int ret = 0;
	size_t i;

	for (i = 0; i < cm_nfiles; i++) {
		if (chmod(cm_files[i].path, cm_files[i].mode) && !ret)
			ret = -errno;
		free(cm_files[i].path);
	}
	cm_nfiles = 0;
	return ret;
}

#endif /* OMX_USERSPACE_CODE_MODES_H */
