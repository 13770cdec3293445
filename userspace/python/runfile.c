// SPDX-License-Identifier: GPL-2.0
/*
 * The main script (and PYTHONSTARTUP): checked, and read from the checked
 * descriptor.
 *
 * CPython 3.11 does not open these through io.open_code(): Modules/main.c
 * raises the audit event "cpython.run_file" (or "cpython.run_startup"),
 * then opens the path again with _Py_fopen_obj(), a plain fopen(); a .pyc
 * given as the script is closed and opened a second time the same way
 * (Python/pythonrun.c).  Checking the path in the audit hook alone would
 * leave a window between the check and that fopen() in which the file
 * could be swapped for another (a rename over it).
 *
 * So the audit hook opens the file through libomayexec and keeps the
 * descriptor, and this file defines fopen64(): Debian's python3.X calls it
 * through its PLT (with _FILE_OFFSET_BITS=64 every fopen() is fopen64()),
 * and the hooks' library is its first dependency: its definition comes
 * before the C library's in symbol lookup (the only symbol it exports).  An fopen of
 * exactly the checked path returns a new stream on a duplicate of the
 * checked descriptor (rewound); every other fopen goes to the C
 * library's.  The code CPython compiles is the
 * code of the file the kernel judged, with CPython's own handling of -x,
 * .pyc scripts, __file__, tracebacks and sys.argv unchanged.
 */
/* Python.h first: it sets the feature macros (_GNU_SOURCE...). */
#include "omxpy.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "omayexec.h"

/* The file checked last, and the path CPython is about to open it by. */
static int checked_fd = -1;
static char *checked_path;

int omxpy_run_file_check(const char *path)
{
	char *copy;
	int fd, err;

	/* Never waits: a FIFO is refused at once, as any non-regular file. */
	fd = refusal_open_code(AT_FDCWD, path, O_RDONLY | O_NOCTTY);
	if (fd < 0) {
		err = errno;
		if (omxpy_is_refusal(err, path)) {
			errno = err;
			return -1;
		}
		/* Not ours to report: CPython's fopen fails and says why. */
		return 0;
	}
	copy = strdup(path);
	if (!copy) {
		close(fd);
		errno = ENOMEM;
		return -1;
	}
	if (checked_fd >= 0)
		close(checked_fd);
	free(checked_path);
	checked_fd = fd;
	checked_path = copy;
	return 0;
}

/* A stream on the checked file, from its start, whatever @mode says. */
static FILE *open_checked(const char *mode)
{
	FILE *f;
	int fd, err;

	fd = fcntl(checked_fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		return NULL;
	/* The duplicate shares the offset: an earlier reader moved it. */
	if (lseek(fd, 0, SEEK_SET) < 0) {
		err = errno;
		close(fd);
		errno = err;
		return NULL;
	}
	f = fdopen(fd, mode);
	if (!f) {
		err = errno;
		close(fd);
		errno = err;
	}
	return f;
}

static int is_checked(const char *path)
{
	return checked_fd >= 0 && path && !strcmp(path, checked_path);
}

typedef FILE *fopen_fn(const char *, const char *);

__attribute__((visibility("default")))
FILE *fopen64(const char *path, const char *mode)
{
	static fopen_fn *next;

	if (is_checked(path))
		return open_checked(mode);
	if (!next)
		next = (fopen_fn *)dlsym(RTLD_NEXT, "fopen64");
	if (!next) {
		errno = ENOSYS;
		return NULL;
	}
	return next(path, mode);
}
