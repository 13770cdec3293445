// SPDX-License-Identifier: GPL-2.0
/*
 * The judgement of a file already open, and the one line of a refusal
 * (its reason from the refusal layer the interpreters share, refusal.c).
 *
 * libomayexec judges a file by opening it (O_MAYEXEC needs an open, and
 * execveat's AT_EXECVE_CHECK then asks about the new descriptor).  Perl
 * has opened the file itself: the launcher hands the library
 * /proc/self/fd/N, the magic link to that very file (no name is looked up
 * again), and makes sure the file judged is the one open as N (the same
 * device and inode, not something mounted over /proc).  Where /proc is
 * missing the file cannot be judged: it is refused, never run unchecked.
 */
/* perl.h first: it sets the feature macros (_GNU_SOURCE...). */
#include "omxpl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "omayexec.h"
#include "../refusal.h"

/* How omxpl_judge_fd() says that /proc/self/fd could not be used. */
#define ERR_NO_PROC	ENOENT

int omxpl_judge_fd(int fd)
{
	struct stat st, judged;
	char proc[64];
	int nfd, err = 0;

	if (fstat(fd, &st))
		return errno;
	/* The kernel refuses the rest; say it plainly. */
	if (!S_ISREG(st.st_mode))
		return EACCES;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	nfd = omayexec_open(AT_FDCWD, proc, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (nfd < 0)
		return errno == ENOENT ? ERR_NO_PROC : errno;
	if (fstat(nfd, &judged))
		err = errno;
	else if (judged.st_dev != st.st_dev || judged.st_ino != st.st_ino)
		err = ERR_NO_PROC;
	close(nfd);
	return err;
}

/*
 * Perl's own library directories (the default @INC, compiled in by
 * userspace/Makefile, colon-separated): Debian installs their modules
 * 0644, so that the file policy refuses them all until the administrator
 * gives them the x bit.
 */
#ifndef OMXPL_PERL_LIBS
#define OMXPL_PERL_LIBS ""
#endif

static int in_perl_library(const char *path)
{
	const char *dir = OMXPL_PERL_LIBS, *end;
	size_t len;

	while (*dir) {
		end = strchr(dir, ':');
		len = end ? (size_t)(end - dir) : strlen(dir);
		if (len && !strncmp(path, dir, len) && path[len] == '/')
			return 1;
		if (!end)
			break;
		dir = end + 1;
	}
	return 0;
}

int omxpl_in_perl_library(const char *path)
{
	return in_perl_library(path);
}

void omxpl_refusal(char *buf, size_t len, const char *what, int err, int fd)
{
	char why[8192];
	struct stat st;

	if (err == ERR_NO_PROC)
		snprintf(why, sizeof(why), "it cannot be checked without /proc/self/fd");
	else
		/* Perl's own modules: the remedy is the library's, not a chmod. */
		refusal_why_fd_remedy(fd, err,
			err == EACCES && in_perl_library(what) &&
			!fstat(fd, &st) && S_ISREG(st.st_mode) &&
			!(st.st_mode & 0111) ?
			"; Perl's own modules need the x bit: run omayexec-perl-allow-stdlib as root (see omayexec-perl(1))" :
			NULL, why, sizeof(why));
	refusal_line(buf, len, OMXPL_PROG, what, why);
}

void omxpl_refuse_die(pTHX_ const char *line)
{
	/*
	 * Uncaught, die exits with $! when it is set, else with $? >> 8:
	 * $! cleared and $? >> 8 at 126, the status of every refusal.
	 */
	errno = 0;
	STATUS_UNIX_SET(REFUSAL_STATUS << 8);
	Perl_croak(aTHX_ "%s\n", line);
}

void omxpl_refuse_exit(pTHX_ const char *line)
{
	PerlIO_flush(PerlIO_stdout());
	PerlIO_printf(PerlIO_stderr(), "%s\n", line);
	PerlIO_flush(PerlIO_stderr());
	my_exit(REFUSAL_STATUS);
}
