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
 * The CLI's interactive shell (-a with the readline extension) evaluates
 * each line in a zend_try of its own, which would go on prompting after a
 * refusal: with deny-interactive the shell itself is replaced by a
 * refusal (exit 126) before it prompts.  Without the readline extension,
 * -a reads standard input as a script, judged as above.
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

#include <dlfcn.h>
#include <errno.h>
#include <syslog.h>
#include <unistd.h>

#include <SAPI.h>
#include <sapi/cli/cli.h>

#include "omayexec.h"

static bool deny_interactive;
/* The ini setting when it asked, else NULL: the library's source. */
static const char *deny_option;

/* The CLI's interactive shell, replaced: one line, and the status of a refusal. */
static int refuse_shell(void)
{
	char line[512], tag[256], why[384];

	snprintf(why, sizeof(why), "code typed at a prompt cannot be checked %s",
		 refusal_deny_tag(deny_option, tag, sizeof(tag)));
	php_log_err_with_severity(refusal_line(line, sizeof(line), OMXPHP_PROG,
					       "interactive shell", why),
				  LOG_ERR);
	return REFUSAL_STATUS;
}

/*
 * The CLI exports its shell's callbacks (the readline extension fills
 * them in at its startup, and looks them up the same way): other SAPIs
 * have none.
 */
static void replace_cli_shell(void)
{
	cli_shell_callbacks_t *(*get_callbacks)(void);
	cli_shell_callbacks_t *cb;

	if (strcmp(sapi_module.name, "cli"))
		return;
	*(void **)&get_callbacks = dlsym(RTLD_DEFAULT, "php_cli_get_shell_callbacks");
	cb = get_callbacks ? get_callbacks() : NULL;
	if (cb)
		cb->cli_shell_run = refuse_shell;
}

void omxphp_prompt_init(bool ini_deny)
{
	deny_option = ini_deny ? OMXPHP_DENY_INI : NULL;
	deny_interactive = ini_deny || omayexec_deny_interactive() == 1;
	if (deny_interactive)
		replace_cli_shell();
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
