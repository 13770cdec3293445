// SPDX-License-Identifier: GPL-2.0
/*
 * omayexec-perl: run Debian's Perl exactly as perl runs, with the same
 * arguments, with every compilation unit read from a file judged by the
 * kernel before any of its code runs (see omxpl.h for the parts, and
 * omayexec-perl(1)).
 *
 * The interpreter's life is perl's own: PERL_SYS_INIT3, perl_construct,
 * perl_parse (switches, the script, compiling it and running its BEGIN
 * blocks), perl_run, perl_destruct (END blocks, the exit status).  What
 * the launcher adds: the op checkers are wrapped before perl_parse
 * (units.c), and xs_init, which perl_parse calls after it opened the
 * script and before it compiles anything, boots DynaLoader (as perl's
 * own xs_init does: XS modules are loaded through it) and refuses the
 * code that is no file when deny-interactive is on (prompt.c).
 *
 * Deny-interactive is on when /etc/omayexec.conf says deny_interactive =
 * yes, when the thread has SECBIT_EXEC_DENY_INTERACTIVE, when
 * OMAYEXEC_DENY_INTERACTIVE=1 is in the environment (all three read by
 * libomayexec), or with --omayexec-deny-interactive as the first
 * argument.  None of them can turn off another.
 */
/* perl.h first: it sets the feature macros (_GNU_SOURCE...). */
#include "omxpl.h"

#include <stdio.h>
#include <string.h>

#include "omayexec.h"

EXTERN_C void boot_DynaLoader(pTHX_ CV *cv);

static void xs_init(pTHX)
{
	newXS("DynaLoader::boot_DynaLoader", boot_DynaLoader, __FILE__);
	/* Perl has opened the script: other opens may wait as they like. */
	omxpl_script_open_guard(0);
	omxpl_prompt_check(aTHX);
	omxpl_judge_script(aTHX);
}

/* Takes the launcher's option out of argv: 1 when it was there. */
static int take_option(int *argc, char **argv)
{
	int i;

	if (*argc < 2 || strcmp(argv[1], OMXPL_DENY_OPTION))
		return 0;
	for (i = 1; i < *argc; i++)
		argv[i] = argv[i + 1];
	(*argc)--;
	return 1;
}

int main(int argc, char **argv, char **env)
{
	PerlInterpreter *my_perl;
	int status, option;

	option = take_option(&argc, argv);
	omxpl_prompt_set_deny(option || omayexec_deny_interactive(),
			      option ? OMXPL_DENY_OPTION : NULL);
	omxpl_prompt_save_env();

	PERL_SYS_INIT3(&argc, &argv, &env);
#ifdef USE_ITHREADS
	/* As perl's main(): a fork from another thread must not deadlock. */
	PTHREAD_ATFORK(Perl_atfork_lock, Perl_atfork_unlock, Perl_atfork_unlock);
#endif
	PERL_SYS_FPU_INIT;
	my_perl = perl_alloc();
	if (!my_perl) {
		fprintf(stderr, OMXPL_PROG ": cannot allocate the interpreter\n");
		return 1;
	}
	perl_construct(my_perl);
	PL_perl_destruct_level = 0;
	/* END blocks run in perl_destruct(), also after exit() in BEGIN. */
	PL_exit_flags |= PERL_EXIT_DESTRUCT_END;

	omxpl_units_install(aTHX);
	omxpl_nowait_install();
	omxpl_script_open_guard(1);
	if (!perl_parse(my_perl, xs_init, argc, argv, NULL))
		perl_run(my_perl);
	omxpl_script_open_guard(0);	/* perl_parse() failed before xs_init */
	status = perl_destruct(my_perl);
	perl_free(my_perl);
	PERL_SYS_TERM();
	return status;
}
