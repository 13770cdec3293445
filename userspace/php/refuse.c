// SPDX-License-Identifier: GPL-2.0
/*
 * The end of a refused script: one line in PHP's error log, worded by the
 * refusal layer the interpreters share (../refusal.c), then the script
 * ends as exit() would end it, before any of the refused code runs.
 *
 * The line goes through php_log_err(): error_log when it is set, else the
 * SAPI's own log (the CLI's standard error, PHP-FPM's log), whatever
 * display_errors and log_errors say: a refusal is not a PHP error that a
 * script could silence.
 *
 * The CLI exits 126, as every interpreter of the project does on a
 * refusal (PHP's own fatal errors exit 255); a request ends with a 500
 * when its headers are not sent yet.
 */
#include "omxphp.h"

#include <SAPI.h>
#include <syslog.h>

void omxphp_refuse(const char *what, const char *why)
{
	char line[8192 + 4096 + 64];

	php_log_err_with_severity(refusal_line(line, sizeof(line), OMXPHP_PROG,
					       what, why), LOG_ERR);
	/*
	 * zend_bailout() leaves EG(exit_status) as it is: the CLI returns it,
	 * PHP-FPM reads 255 as "fatal error" only.
	 */
	EG(exit_status) = REFUSAL_STATUS;
	if (strcmp(sapi_module.name, "cli") && !SG(headers_sent))
		sapi_header_op(SAPI_HEADER_SET_STATUS, (void *)(intptr_t)500);
	zend_bailout();
}

void omxphp_refuse_file(const char *what, int err, int fd)
{
	char why[8192];

	if (err == OMXPHP_ERR_NO_PROC)
		snprintf(why, sizeof(why),
			 "it cannot be checked without /proc/self/fd");
	else
		refusal_why_fd(fd, err, why, sizeof(why));
	omxphp_refuse(what, why);
}
