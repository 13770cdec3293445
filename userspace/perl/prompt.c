// SPDX-License-Identifier: GPL-2.0
/*
 * Deny-interactive: the code of the main program that no file holds.
 *
 * perl_parse() calls xs_init after it has read every switch (the command
 * line, the #! line is read later and cannot add these) and opened the
 * script, and before it compiles anything: what Perl is about to compile
 * as the main program is known there, and refused there:
 *   -e, -E          PL_e_script holds the code (Perl compiles /dev/null
 *                   through a filter that returns it);
 *   standard input  the script "-", or none: runs only when standard
 *                   input is a regular file that passes
 *                   omayexec_check_fd(), as for omayexec-python3;
 *   the debugger    -d (and -dt, and -d in PERL5OPT) loads the debugger
 *                   that PERL5DB names, perl5db.pl unless set, which then
 *                   prompts for code to run: refused.  -d:Module loads
 *                   Devel::Module, a file like any other (units.c): Perl
 *                   says so by rewriting PERL5DB, which is how it is told
 *                   apart.
 * Without deny-interactive, all three run as in perl.
 */
/* perl.h first: it sets the feature macros (_GNU_SOURCE...). */
#include "omxpl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "omayexec.h"

static int deny_interactive;
/* The launcher's option that asked for it, or NULL: the library's source. */
static const char *deny_option;
/* PERL5DB before perl_parse(): NULL when unset. */
static char *perl5db_before;

void omxpl_prompt_set_deny(int on, const char *option)
{
	deny_interactive = on;
	deny_option = option;
}

void omxpl_prompt_save_env(void)
{
	const char *v = getenv("PERL5DB");

	perl5db_before = v ? strdup(v) : NULL;
}

static void refuse(pTHX_ const char *what, const char *why)
{
	char line[1024], tag[256], full[768];

	snprintf(full, sizeof(full), "%s %s", why,
		 refusal_deny_tag(deny_option, tag, sizeof(tag)));
	omxpl_refuse_exit(aTHX_ refusal_line(line, sizeof(line), OMXPL_PROG,
					     what, full));
}

static void check_stdin(pTHX)
{
	char line[8192 + 64], why[8192];

	if (!omayexec_check_fd(STDIN_FILENO))
		return;
	refusal_why_stdin(STDIN_FILENO, errno, deny_option, why, sizeof(why));
	omxpl_refuse_exit(aTHX_ refusal_line(line, sizeof(line), OMXPL_PROG,
					     "standard input", why));
}

/* Plain -d: PERL5DB is what it was (Perl rewrites it for -d:Module). */
static int debugger_prompt(void)
{
	const char *now = getenv("PERL5DB");

	if (!now || !perl5db_before)
		return now == perl5db_before;
	return !strcmp(now, perl5db_before);
}

void omxpl_prompt_check(pTHX)
{
	if (!deny_interactive)
		return;
	/* Named as given: -E is -e with the features of the running Perl. */
	if (PL_e_script)
		refuse(aTHX_ PL_minus_E ? "-E" : "-e",
		       "code given on the command line cannot be checked");
	if (PL_perldb && debugger_prompt())
		refuse(aTHX_ "-d",
		       "the debugger prompts for code that cannot be checked");
	if (PL_origfilename && !strcmp(PL_origfilename, "-"))
		check_stdin(aTHX);
}
