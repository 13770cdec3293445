/* SPDX-License-Identifier: GPL-2.0 */
/*
 * omayexec.so: an extension for Debian's PHP (8.2 on Debian 12, 8.4 on
 * Debian 13), unpatched, that asks the kernel, through libomayexec,
 * before PHP compiles any file.  See omayexec-php(7).
 *
 * The parts, one file each:
 *   extension.c  the module: its ini setting, and the engine's two
 *                compile hooks wrapped at the first request of each
 *                process, outside OPcache's
 *   files.c      every file PHP compiles (main script, include, require,
 *                auto_prepend_file...): the descriptor PHP would read is
 *                judged, and the judged descriptor is what PHP reads
 *   prompt.c     deny-interactive: code no file holds (-r, -a, eval(),
 *                -B/-R/-E) and the CLI's standard input
 *   refuse.c     the one line of a refusal (the refusal layer the
 *                interpreters share, ../refusal.c), then exit 126 (CLI)
 *                or a 500 (a request), nothing of the code run
 */
#ifndef OMXPHP_H
#define OMXPHP_H

#include <php.h>

#include "../refusal.h"

#define OMXPHP_PROG		"omayexec-php"
#define OMXPHP_DENY_INI		"omayexec.deny_interactive"

#ifdef ZTS
/*
 * The hooks are process-wide function pointers swapped at the first
 * request: with threads, two first requests would race.  Debian's PHP is
 * built without ZTS.
 */
#error "omayexec.so supports PHP built without ZTS only"
#endif

/* extension.c: the compile hooks that were in place before ours. */
extern zend_op_array *(*omxphp_next_compile_file)(zend_file_handle *h, int type);
extern zend_op_array *(*omxphp_next_compile_string)(zend_string *source,
						    const char *filename,
						    zend_compile_position pos);

/* files.c: the engine's zend_compile_file, judging the file first. */
zend_op_array *omxphp_compile_file(zend_file_handle *h, int type);

/* prompt.c: whether deny-interactive is on (the ini setting, or the
 * library: its configuration, the securebit, the environment), decided
 * once per process at its first request. */
void omxphp_prompt_init(bool ini_deny);
/* prompt.c: the engine's zend_compile_string: refused with deny-interactive. */
zend_op_array *omxphp_compile_string(zend_string *source, const char *filename,
				     zend_compile_position pos);
/* prompt.c: the CLI's standard input as main script: 0 to run it, else
 * refused (does not return). */
void omxphp_prompt_check_stdin(void);

/*
 * refuse.c: log "omayexec-php: WHAT: refused: WHY" (WHY from the refusal
 * layer for @err on the file open as @fd, -1 for none), then end the
 * script as a refusal: never returns.
 */
ZEND_NORETURN void omxphp_refuse_file(const char *what, int err, int fd);
/* refuse.c: the same with WHY given. */
ZEND_NORETURN void omxphp_refuse(const char *what, const char *why);

/* refuse.c: how omxphp_judge_fd() says /proc/self/fd could not be used. */
#define OMXPHP_ERR_NO_PROC	ENOENT

#endif /* OMXPHP_H */
