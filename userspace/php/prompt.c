// SPDX-License-Identifier: GPL-2.0
/*
 * Deny-interactive: code that no file holds.
 *
 * Every piece of PHP code given as a string reaches the engine through
 * zend_compile_string: the CLI's -r, -B, -R and -E, the interactive shell
 * (-a, through the readline extension), eval(), and phpdbg's standard
 * input (PHP 8 has neither create_function() nor assert() with a
 * string).  With deny-interactive they are refused, whatever wrote the
 * string.  The CLI's standard input as main script ("php < file", "php
 * -") is a file handle, not a string: it runs only when it is a regular
 * file that passes omayexec_check_fd(), as for omxsh and omayexec-python3.
 *
 * What stays possible is code PHP builds in memory without compiling
 * source text: closures and callables the scripts already hold, and
 * whatever the judged files themselves do (include a file they wrote
 * elsewhere is judged as any file; unserialize() builds no code).
 *
 * Deny-interactive is on when the ini setting omayexec.deny_interactive
 * is on, or when libomayexec says so (/etc/omayexec.conf, the thread's
 * SECBIT_EXEC_DENY_INTERACTIVE, OMAYEXEC_DENY_INTERACTIVE=1 in the
 * environment).  None of them can turn off another.
 */
#include "omxphp.h"

#include <errno.h>
#include <unistd.h>

#include "omayexec.h"

static bool deny_interactive;
/* The ini setting when it asked, else NULL: the library's source. */
static const char *deny_option;

void omxphp_prompt_init(bool ini_deny)
{
	deny_option = ini_deny ? OMXPHP_DENY_INI : NULL;
	deny_interactive = ini_deny || omayexec_deny_interactive() == 1;
}

zend_op_array *omxphp_compile_string(zend_string *source, const char *filename,
				     zend_compile_position pos)
{
	char tag[256], why[512];

	if (!deny_interactive)
		return omxphp_next_compile_string(source, filename, pos);
	snprintf(why, sizeof(why), "code given as a string cannot be checked %s",
		 refusal_deny_tag(deny_option, tag, sizeof(tag)));
	omxphp_refuse(filename && *filename ? filename : "string code", why);
}

void omxphp_prompt_check_stdin(void)
{
	char why[8192];

	if (!deny_interactive || !omayexec_check_fd(STDIN_FILENO))
		return;
	omxphp_refuse("standard input",
		      refusal_why_stdin(STDIN_FILENO, errno, deny_option, why,
					sizeof(why)));
}
