/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hooks that make Debian's CPython 3 (3.11 on Debian 12, 3.13 on
 * Debian 13) open every file of code it runs through libomayexec, in
 * Debian's own /usr/bin/python3.X given their library as a dependency
 * (omayexec-python3 is that copy).  See omayexec-python3(1) for what is
 * checked and how.
 *
 * The parts, one file each:
 *   start.c     when each part goes in: the constructor, before CPython's
 *               main(), then the first audit events that find the import
 *               system and the initialised interpreter
 *   opencode.c  the open-code hook (PEP 578): imports, -m, zipimport
 *   runfile.c   the main script and PYTHONSTARTUP: checked, and run from
 *               the checked descriptor
 *   audit.c     the audit hook: the code that does not come from a
 *               checked file (-c, standard input, the interactive prompt)
 *   loaders.c   bare .pyc imports, which do not use the open-code hook
 *   excepthook.c  an uncaught refusal in one line
 *   refuse.c    the one line that says why, and the exit, through the
 *               refusal layer the interpreters share (../refusal.c)
 */
#ifndef OMXPY_H
#define OMXPY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "../refusal.h"

#define OMXPY_PROG		"omayexec-python3"
/* start.c: the name the program was started by (argv[0]'s last part). */
extern const char *omxpy_prog;

/* How the strerror of a refused file's OSError begins (opencode.c). */
#define OMXPY_REFUSED_PREFIX	"refused by " OMXPY_PROG ": "

/* The -X option that turns deny-interactive on (sys._xoptions). */
#define OMXPY_XOPTION		"omayexec-deny-interactive"

/*
 * start.c: from the audit hook, every event until the hooks are all in
 * place: 0, or -1 with a Python error (a part could not go in).
 */
int omxpy_start_event(const char *event);

/* opencode.c: install the hook; call before Py_Initialize*(). */
int omxpy_open_code_install(void);

/* runfile.c: check @path (the main script or PYTHONSTARTUP) through
 * libomayexec and make the interpreter's own fopen() of @path read the
 * checked file.  0: checked (or an ordinary error CPython will report);
 * -1 with errno EACCES or EOPNOTSUPP: refused. */
int omxpy_run_file_check(const char *path);

/* audit.c: install the audit hook; call before Py_Initialize*(). */
int omxpy_audit_install(void);
/* audit.c: refuse code that is not a checked file (from now on);
 * @option: the option that asked for it, or NULL. */
void omxpy_audit_deny_interactive(int on, const char *option);
/* audit.c: whether it does. */
int omxpy_audit_denying(void);
/*
 * audit.c: while the interpreter starts, with deny-interactive and a
 * terminal on standard input: the refusal of the prompt (or of
 * PYTHONSTARTUP, which comes first), as the events would say it; exits.
 */
void omxpy_audit_refuse_prompt(void) __attribute__((noreturn));

/*
 * loaders.c: make SourcelessFileLoader read bare .pyc files through
 * io.open_code(), once the import system has the class: 0, 1 when it
 * has not yet, or -1 with a Python error.
 */
int omxpy_patch_loaders(void);

/* audit.c: after initialisation, with deny-interactive, make sure every
 * way into the interactive prompt raises an audit event.  0 or -1. */
int omxpy_interactive_guard(void);

/* excepthook.c: after initialisation.  0, or -1 with a Python error. */
int omxpy_excepthook_install(void);
/* opencode.c: the first file the hook refused, or NULL; its errno in
 * *@err. */
const char *omxpy_first_refused(int *err);
/* excepthook.c: whether an uncaught refusal ended the program. */
int omxpy_refusal_uncaught(void);

/*
 * refuse.c: print "omayexec-python3: WHAT: refused: WHY" (one line,
 * refusal_line()) on standard error, after flushing Python's own streams.
 */
void omxpy_refusal_line(const char *what, const char *why);
/* The reason for errno @err from refusal_open_code() on @path. */
const char *omxpy_reason(int err, const char *path);
/* The same with @remedy in place of the one that fits (refusal.h). */
const char *omxpy_reason_remedy(int err, const char *path, const char *remedy);
/* Whether @err from refusal_open_code() is a refusal (not ENOENT...). */
int omxpy_is_refusal(int err, const char *path);
/* Set SystemExit(126) as the current Python error: returns -1. */
int omxpy_raise_exit(void);

#endif /* OMXPY_H */
