// SPDX-License-Identifier: GPL-2.0
/*
 * The main script's open never waits.
 *
 * perl_parse() opens the script itself (PerlIO_open, a plain blocking
 * open) before anything of the launcher's can see it: a FIFO named as the
 * script would wait there for a writer, forever, before the judge of
 * units.c is ever asked.  So, from just before perl_parse() until xs_init
 * (which Perl calls once the script is open), this executable's open64()
 * (libperl calls it through its PLT, and the executable's definition
 * comes first in symbol lookup) adds O_NONBLOCK to an open for reading,
 * refuses a FIFO at once, and clears O_NONBLOCK again on what it keeps.
 * The descriptor kept is the one Perl reads and units.c judges (a
 * character device, a directory: refused there, as every non-regular
 * file is).  Outside that window every open goes to the C library as is.
 */
/* perl.h first: it sets the feature macros (_GNU_SOURCE...). */
#include "omxpl.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static int guard;

void omxpl_script_open_guard(int on)
{
	guard = on;
}

typedef int open_fn(const char *, int, ...);

static int next_open(const char *path, int flags, mode_t mode)
{
	static open_fn *next;

	if (!next)
		next = (open_fn *)dlsym(RTLD_NEXT, "open64");
	if (!next) {
		errno = ENOSYS;
		return -1;
	}
	return next(path, flags, mode);
}

static int guarded_open(const char *path, int flags, mode_t mode)
{
	char why[256];
	struct stat st;
	int fd, fl;

	fd = next_open(path, flags | O_NONBLOCK, mode);
	if (fd < 0)
		return fd;
	if (!fstat(fd, &st) && S_ISFIFO(st.st_mode)) {
		guard = 0;
		refusal_reasons(fd, -1, why, sizeof(why));
		fprintf(stderr, OMXPL_PROG ": %s: refused: %s\n", path, why);
		exit(REFUSAL_STATUS);
	}
	if (!(flags & O_NONBLOCK)) {
		fl = fcntl(fd, F_GETFL);
		if (fl >= 0)
			fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	}
	return fd;
}

int open64(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (flags & (O_CREAT | __O_TMPFILE)) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	if (guard && (flags & O_ACCMODE) == O_RDONLY && !(flags & O_CREAT))
		return guarded_open(path, flags, mode);
	return next_open(path, flags, mode);
}

/* The fortified open64() (_FORTIFY_SOURCE): without a mode. */
int __open64_2(const char *path, int flags)
{
	return open64(path, flags);
}
