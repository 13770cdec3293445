/* SPDX-License-Identifier: GPL-2.0 */
/*
 * omayexec-perl: Debian's Perl (libperl 5.36 on Debian 12, 5.40 on
 * Debian 13), unpatched, started so that no code of a file runs unless
 * libomayexec lets the file run.  See omayexec-perl(1).
 *
 * The parts, one file each:
 *   main.c      the interpreter's life, as perl's own main() has it, and
 *               the launcher's one option
 *   units.c     the judge of every compilation unit read from a file (the
 *               main script, require, use, do FILE, -M, PERL5OPT, the
 *               debugger), on the descriptor Perl reads it from
 *   prompt.c    deny-interactive: -e and -E, standard input, the
 *               debugger's prompt
 *   refuse.c    the one line that says why, through the refusal layer
 *               the interpreters share (../refusal.c)
 *   nowait.c    the opens of code (the main script, require, use, do
 *               FILE), which never wait
 */
#ifndef OMXPL_H
#define OMXPL_H

#include <EXTERN.h>
#include <perl.h>

#include "../refusal.h"

#define OMXPL_PROG		"omayexec-perl"
/* The launcher's own option, accepted as the first argument only. */
#define OMXPL_DENY_OPTION	"--omayexec-deny-interactive"

/* units.c: wrap every op checker; once, before perl_parse(). */
void omxpl_units_install(pTHX);
/*
 * units.c: from xs_init, judge the main script Perl opened (nowait.c),
 * before anything is compiled: a script that compiles to no op at all (an
 * empty file) is refused as any other.  Exits 126 when refused; its unit
 * is not judged again.
 */
void omxpl_judge_script(pTHX);

/* prompt.c: whether to refuse code that is no checked file; @option:
 * the launcher's option that asked for it, or NULL. */
void omxpl_prompt_set_deny(int on, const char *option);
/* prompt.c: before perl_parse(): remember what PERL5DB says now. */
void omxpl_prompt_save_env(void);
/*
 * prompt.c: from xs_init, once Perl has read its switches and opened the
 * script but before it compiles anything: refuse -e, standard input and
 * the debugger's prompt with deny-interactive (exits 126).
 */
void omxpl_prompt_check(pTHX);

/*
 * refuse.c: whether the file open as @fd may be run, judged by the
 * kernel through libomayexec: 0, or the errno of the refusal.
 */
int omxpl_judge_fd(int fd);
/* refuse.c: "omayexec-perl: WHAT: refused: WHY" in @buf (no newline). */
void omxpl_refusal(char *buf, size_t len, const char *what, int err, int fd);
/* refuse.c: whether @path is in Perl's own library directories. */
int omxpl_in_perl_library(const char *path);
/*
 * refuse.c: die with @line and a newline (eval catches it; uncaught, the
 * program exits 126).
 */
void omxpl_refuse_die(pTHX_ const char *line) __attribute__((noreturn));
/* refuse.c: print @line and a newline on Perl's STDERR, exit 126. */
void omxpl_refuse_exit(pTHX_ const char *line) __attribute__((noreturn));

/*
 * nowait.c: from before perl_parse() until xs_init, while Perl opens the
 * main script: an open never waits, and a file that is not regular is
 * refused at once (/dev/null only when named as the script: -e and -V
 * read their code through it).
 */
void omxpl_script_open_guard(int on);
/* nowait.c: the descriptor of the main script Perl opened, or -1. */
int omxpl_script_fd(void);
/* nowait.c: the same for require, use and do FILE; once, before
 * perl_parse(). */
void omxpl_nowait_install(void);

#endif /* OMXPL_H */
