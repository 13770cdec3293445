// SPDX-License-Identifier: GPL-2.0
/*
 * The opens of code never wait.
 *
 * Perl opens the files it compiles itself, with plain blocking opens,
 * before anything of the launcher's can judge them (units.c judges a unit
 * when it builds its first op): a FIFO named as the script, or found by
 * require, use or do FILE, would wait there for a writer, forever.  So
 * while Perl opens such a file this executable's open64() (libperl calls
 * it through its PLT, and the executable's definition comes first in
 * symbol lookup) adds O_NONBLOCK to an open for reading, and clears it
 * again on what it keeps:
 *   - the main script: from just before perl_parse() until xs_init, which
 *     Perl calls once the script is open; a FIFO is refused at once, in
 *     one line (exit 126);
 *   - require, use, do FILE: from the op's start until the first open
 *     that succeeds (the file found; whatever the unit's BEGIN blocks open
 *     later is the program's own); a FIFO is refused there: the op dies
 *     with the refusal line, as for a file units.c refuses (Perl would
 *     close an empty FIFO before units.c could see it).  PerlIO's unix
 *     layer opens before it allocates anything: nothing leaks.
 * The descriptor kept is the one Perl reads and units.c judges.  Outside
 * those windows, and in other threads, every open is the C library's.
 */
/* perl.h first: it sets the feature macros (_GNU_SOURCE...). */
#include "omxpl.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

enum guard {
	GUARD_OFF,
	GUARD_SCRIPT,	/* perl_parse() opens the main script */
	GUARD_UNIT,	/* require, use or do FILE looks for its file */
};

/* An int, for SAVEINT(); per thread, as Perl's interpreters are. */
static __thread int guard;
/* The regular file Perl opened as the main script, or -1. */
static int script_fd = -1;

static Perl_ppaddr_t next_require, next_dofile;

void omxpl_script_open_guard(int on)
{
	guard = on ? GUARD_SCRIPT : GUARD_OFF;
}

int omxpl_script_fd(void)
{
	return script_fd;
}

/*
 * Whether Perl reads the code of its switches through /dev/null as the
 * main script: -e and -E, or -V (its "use Config; Config::..." in the
 * preamble, which the lexer takes away before any op is built: asked
 * here, while Perl opens the script).
 */
static int switch_code(void)
{
	static const char config[] = "use Config; Config::";
	SSize_t i;
	SV **sv;
	dTHX;

	if (PL_e_script)
		return 1;
	if (!PL_preambleav)
		return 0;
	for (i = 0; i <= av_top_index(PL_preambleav); i++) {
		sv = av_fetch(PL_preambleav, i, 0);
		if (sv && SvPOK(*sv) &&
		    !strncmp(SvPVX(*sv), config, sizeof(config) - 1))
			return 1;
	}
	return 0;
}

/* Whether the file open as @fd, of status @st, is refused at once. */
static int refused_at_once(const struct stat *st)
{
	if (S_ISFIFO(st->st_mode))
		return 1;
	/*
	 * The main script: anything that is not regular, as every
	 * interpreter refuses it (Perl itself would read a device, and end a
	 * directory with its own "Can't open perl script", status 2).
	 */
	if (guard != GUARD_SCRIPT || S_ISREG(st->st_mode))
		return 0;
	return !(S_ISCHR(st->st_mode) && st->st_rdev == makedev(1, 3) &&
		 switch_code());
}

/*
 * The op's own work, in the window.  SAVEINT() puts the guard back when
 * the caller's scope unwinds, so that a require that dies before any
 * open (no such module) leaves no window open behind it.
 */
static OP *guarded(pTHX_ Perl_ppaddr_t next)
{
	int was = guard;
	OP *o;

	SAVEINT(guard);
	guard = GUARD_UNIT;
	o = next(aTHX);
	guard = was;
	return o;
}

static OP *guarded_require(pTHX)
{
	return guarded(aTHX_ next_require);
}

static OP *guarded_dofile(pTHX)
{
	return guarded(aTHX_ next_dofile);
}

void omxpl_nowait_install(void)
{
	next_require = PL_ppaddr[OP_REQUIRE];
	PL_ppaddr[OP_REQUIRE] = guarded_require;
	next_dofile = PL_ppaddr[OP_DOFILE];
	PL_ppaddr[OP_DOFILE] = guarded_dofile;
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
	char why[256], line[4096 + 512];
	struct stat st;
	int fd, fl;

	fd = next_open(path, flags | O_NONBLOCK, mode);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st))
		st.st_mode = 0;
	if (st.st_mode && refused_at_once(&st)) {
		int unit = guard == GUARD_UNIT;

		guard = GUARD_OFF;
		refusal_reasons(fd, -1, why, sizeof(why));
		close(fd);
		refusal_line(line, sizeof(line), OMXPL_PROG, path, why);
		if (unit) {
			dTHX;

			omxpl_refuse_die(aTHX_ line);
		}
		fprintf(stderr, "%s\n", line);
		exit(REFUSAL_STATUS);
	}
	if (guard == GUARD_UNIT)
		guard = GUARD_OFF;
	else if (S_ISREG(st.st_mode))
		script_fd = fd;
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
