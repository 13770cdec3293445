/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The refusal layer that omxsh, omayexec-python3, omayexec-perl and the
 * PHP extension share (refusal.c, compiled into each of them and into the
 * omayexec tool): how
 * a file of code is opened, whether a failure is a refusal or an ordinary
 * error, the one line's reason (what the kernel saw, and what decided:
 * the module's policy, the exec securebit, the strict mode and where it
 * was asked for), and the exit status of every refusal.
 *
 * The line every interpreter prints is "PROG: WHAT: refused: WHY", one
 * line, made by refusal_line(), WHY from refusal_why_*() below.  The same
 * rules in every interpreter (userspace_interp_compare_test runs the same
 * cases through each and compares):
 *  - WHAT, for a file named on the command line, is the name as it was
 *    given there (not made absolute, not resolved); for a file the
 *    interpreter found itself (an import, a require, an include), the
 *    path it opened; for code that is no file, the option that gave it
 *    (-c, -e, -E...) or "standard input";
 *  - WHY says what the kernel saw, what decided, and then what to do
 *    about it ("; to run it, give it the x bit (chmod +x)", "move it to a
 *    mount without noexec", the administrator's part for what a user
 *    cannot change): the remedy that fits the reason;
 *  - a file that is not regular (/dev/null, a FIFO, a directory) named
 *    as code is refused whatever the policy and the mode: no kernel
 *    check ever lets one run (Python runs a directory's __main__.py,
 *    a file judged as any other: that is no exception);
 *  - every refusal exits REFUSAL_STATUS, with nothing of the refused
 *    code run and nothing of the interpreter's own printed before (no
 *    banner, no traceback).
 */
#ifndef OMAYEXEC_REFUSAL_H
#define OMAYEXEC_REFUSAL_H

#include <stddef.h>

/* As shells: a file that exists but may not be run.  Every refusal. */
#define REFUSAL_STATUS	126

/*
 * The open as code failed with EPERM: a listener of fanotify's
 * FAN_OPEN_EXEC_PERM (fapolicyd) answered FAN_DENY, or a security module
 * refused it.  The file may still open for reading: it is refused.
 */
#define REFUSAL_EPERM_WHY \
	"denied by a fanotify listener (fapolicyd) or an LSM: EPERM"

/* The remedy of a refusal that only the administrator's policy can lift. */
#define REFUSAL_ADMIN_REMEDY \
	"only the administrator's security policy can allow it"

/*
 * "PROG: WHAT: refused: WHY" (no newline) into @buf; returns @buf.  WHAT
 * as the rules above say.
 */
const char *refusal_line(char *buf, size_t len, const char *prog,
			 const char *what, const char *why);

/*
 * Open @path (relative to @dirfd) as code to run: omayexec_open() with
 * O_NONBLOCK, so that the open never waits (a FIFO waits for a writer, a
 * terminal for its carrier), and only a regular file is kept: the file
 * judged is the file open as the descriptor returned, with O_NONBLOCK
 * cleared again.  -1 with errno: the library's, or EACCES for a file that
 * is not regular (which no kernel check ever lets run either).
 */
int refusal_open_code(int dirfd, const char *path, int flags);

/*
 * Whether @err, from refusal_open_code(@path) or omayexec_open(), is a
 * refusal (the policy, the exec check, a listener, the strict mode, a
 * non-regular file) rather than an error the plain open of @path gets as
 * well (ENOENT, no read permission): 1 or 0.
 */
int refusal_is_refusal(int dirfd, const char *path, int err);

/*
 * The reason of a refusal with @err of the file open as @fd (any
 * descriptor, O_PATH included; -1 when none could be opened): what the
 * kernel saw, in parentheses what decided, then the remedy that fits
 * (none for a file that is not regular).  Into @buf; returns @buf.
 */
const char *refusal_why_fd(int fd, int err, char *buf, size_t len);
/*
 * The same with the caller's @remedy ("; ..." or "") in place of the one
 * that fits: an interpreter's own library, which its -allow-stdlib
 * command remedies.
 */
const char *refusal_why_fd_remedy(int fd, int err, const char *remedy,
				  char *buf, size_t len);
/* refusal_why_fd() for @path (relative to @dirfd), looked at without
 * opening it. */
const char *refusal_why_path(int dirfd, const char *path, int err,
			     char *buf, size_t len);

/*
 * Deny-interactive: why omayexec_check_fd(@fd) failed with @err for code
 * read from @fd (standard input), and who asked (@option, the
 * interpreter's option when it was given, else the library's source).
 */
const char *refusal_why_stdin(int fd, int err, const char *option,
			      char *buf, size_t len);
/* "(deny-interactive: WHO)", for code that is no file at all (-c, -e). */
const char *refusal_deny_tag(const char *option, char *buf, size_t len);

/*
 * What the kernel sees in the file open as @fd that an exec policy
 * refuses: "noexec mount: M", "no exec permission for uid N", "not a
 * regular file: TYPE"...; only those @policy enforces (the module's
 * fs.open_mayexec_enforce bits; -1: every one, as the exec check).
 * Returns how many were found (0: @buf says none could be seen).
 */
int refusal_reasons(int fd, int policy, char *buf, size_t len);
/* Why the exec check failed with @err on the file open as @fd. */
void refusal_check_reasons(int fd, int err, char *buf, size_t len);

#endif /* OMAYEXEC_REFUSAL_H */
