// SPDX-License-Identifier: GPL-2.0
/*
 * omayexec-python3: run Debian's CPython 3.11 exactly as python3 runs,
 * with the same arguments, after installing the hooks that open every
 * file of code through libomayexec (see omxpy.h for the parts, and
 * omayexec-python3(1)).
 *
 * The order matters: the open-code and audit hooks are installed before
 * the interpreter is initialised (site, its .pth files and the first
 * imports already go through them); the loader patch needs the import
 * system, so it comes after initialisation and before Py_RunMain() runs
 * the script, -c, -m or standard input.
 *
 * Deny-interactive is on when /etc/omayexec.conf says deny_interactive =
 * yes, when OMAYEXEC_DENY_INTERACTIVE=1 is in the environment (both read
 * by libomayexec: neither can turn off the other), or with the option
 * -X omayexec-deny-interactive.  The environment variable and the option
 * can only add the restriction, never remove what the file forces.
 */
/* Python.h first: it sets the feature macros (_GNU_SOURCE...). */
#include "omxpy.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wchar.h>

#include "omayexec.h"

static int has_xoption(const PyConfig *config, const wchar_t *name)
{
	Py_ssize_t i;

	for (i = 0; i < config->xoptions.length; i++)
		if (!wcscmp(config->xoptions.items[i], name))
			return 1;
	return 0;
}

/* A failure of the launcher itself (not a refusal): one line, status 1. */
static int fail(const char *what)
{
	if (PyErr_Occurred())
		PyErr_Print();
	fprintf(stderr, OMXPY_PROG ": %s failed\n", what);
	return 1;
}

/*
 * Standard error while the interpreter starts goes to a memory file: when
 * the start fails because the open-code hook refused a file (the standard
 * library without the x bit, under the exec securebit or the module's
 * file policy), CPython's path configuration dump and fatal error would
 * bury the one line that says what to do.  Otherwise what was written is
 * passed on, unchanged.  -1 when it cannot be captured: then it is not.
 */
static int capture_stderr(int *saved)
{
	int mem;

	fflush(stderr);
	mem = memfd_create(OMXPY_PROG "-start", MFD_CLOEXEC);
	if (mem < 0)
		return -1;
	*saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 0);
	if (*saved < 0 || dup2(mem, STDERR_FILENO) < 0) {
		if (*saved >= 0)
			close(*saved);
		close(mem);
		return -1;
	}
	return mem;
}

/* Standard error back; what was captured written to it when @pass_on. */
static void release_stderr(int mem, int saved, int pass_on)
{
	char buf[4096];
	ssize_t n;
	off_t off = 0;

	if (mem < 0)
		return;
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	while (pass_on && (n = pread(mem, buf, sizeof(buf), off)) > 0) {
		if (write(STDERR_FILENO, buf, (size_t)n) != n)
			break;
		off += n;
	}
	close(mem);
}

/* Flush sys.stderr into the capture before it ends. */
static void flush_sys_stderr(void)
{
	PyObject *stream = PySys_GetObject("stderr"), *res;	/* borrowed */

	if (!stream || stream == Py_None)
		return;
	res = PyObject_CallMethod(stream, "flush", NULL);
	Py_XDECREF(res);
	PyErr_Clear();
}

/*
 * The interpreter could not start because a file was refused: the one
 * line, with the remedy when the x bit is what is missing (Debian's 0644
 * library files, refused by a check; not where nothing can check): the
 * status of a refusal.
 */
static int refused_start(const char *path, int err)
{
	char what[4096 + 32], line[8192 + 4096 + 64];
	struct stat st;

	snprintf(what, sizeof(what), "cannot start: %s", path);
	/* The remedy is the library's, not a chmod of one of its files. */
	fprintf(stderr, "%s\n",
		refusal_line(line, sizeof(line), OMXPY_PROG, what,
			     omxpy_reason_remedy(err, path,
				err == EACCES && !stat(path, &st) &&
				S_ISREG(st.st_mode) && !(st.st_mode & 0111) ?
				"; the standard library needs the x bit: run omayexec-python3-allow-stdlib as root (see omayexec-python3(1))" :
				NULL)));
	return REFUSAL_STATUS;
}

/*
 * @w in the locale's encoding (as PyConfig_Read() set LC_CTYPE), in
 * malloc()ed memory, or NULL.  Not Py_EncodeLocale(): its memory is
 * PyMem_Malloc()'s, which from Python 3.12 on is the interpreter's and
 * must not be touched before Py_Initialize*() (3.13 crashed here).
 */
static char *encode_wide(const wchar_t *w)
{
	size_t n = wcstombs(NULL, w, 0);
	char *s;

	if (n == (size_t)-1)
		return NULL;
	s = malloc(n + 1);
	if (s)
		wcstombs(s, w, n + 1);
	return s;
}

/*
 * The main script's name as given (sys.argv[0]) beside the absolute path
 * PyConfig_Read() made of it, for the refusal line (audit.c).  A name the
 * locale cannot encode is printed as its absolute path.
 */
static void keep_script_name(const PyConfig *config)
{
	char *path, *given;

	if (!config->run_filename || config->argv.length < 1)
		return;
	path = encode_wide(config->run_filename);
	given = encode_wide(config->argv.items[0]);
	if (path && given)
		omxpy_audit_script_name(path, given);
	free(path);
	free(given);
}

int main(int argc, char *argv[])
{
	const char *refused, *option = NULL;
	int deny, mem, saved = -1, err, ret;
	PyConfig config;
	PyStatus status;

	if (omxpy_open_code_install())
		return fail("installing the open-code hook");
	if (omxpy_audit_install())
		return fail("installing the audit hook");

	PyConfig_InitPythonConfig(&config);
	status = PyConfig_SetBytesArgv(&config, argc, argv);
	if (PyStatus_Exception(status))
		goto exception;
	/* Parses the command line as python3 does (-h, -V exit here). */
	status = PyConfig_Read(&config);
	if (PyStatus_Exception(status))
		goto exception;

	if (has_xoption(&config, L"" OMXPY_XOPTION))
		option = "-X " OMXPY_XOPTION;
	deny = option || omayexec_deny_interactive();
	omxpy_audit_deny_interactive(deny, option);
	keep_script_name(&config);
	/*
	 * No script, -c or -m: the prompt or standard input, which CPython
	 * greets with its banner (on a terminal) before any audit event.
	 * With deny-interactive the prompt is refused: nothing before the
	 * one line.
	 */
	if (deny && !config.run_filename && !config.run_command &&
	    !config.run_module)
		config.quiet = 1;

	mem = capture_stderr(&saved);
	status = Py_InitializeFromConfig(&config);
	if (PyStatus_Exception(status)) {
		refused = omxpy_first_refused(&err);
		release_stderr(mem, saved, !refused);
		if (refused) {
			PyConfig_Clear(&config);
			return refused_start(refused, err);
		}
		goto exception;
	}
	flush_sys_stderr();
	release_stderr(mem, saved, 1);
	PyConfig_Clear(&config);

	if (omxpy_patch_loaders())
		return fail("making bare .pyc imports use io.open_code()");
	if (omxpy_excepthook_install())
		return fail("installing sys.excepthook");
	if (deny && omxpy_interactive_guard())
		return fail("guarding the interactive prompt");
	ret = Py_RunMain();
	/* Python's 1 for an uncaught exception: this one was a refusal. */
	if (ret == 1 && omxpy_refusal_uncaught())
		ret = REFUSAL_STATUS;
	return ret;

exception:
	PyConfig_Clear(&config);
	if (PyStatus_IsExit(status))
		return status.exitcode;
	Py_ExitStatusException(status);
}
