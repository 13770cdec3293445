// SPDX-License-Identifier: GPL-2.0
/*
 * The audit hook (PEP 578, PySys_AddAuditHook): the events CPython 3.11's
 * Modules/main.c raises just before it runs code of each kind.
 *
 *   cpython.run_file             the script named on the command line:
 *                                checked (runfile.c), refused or run from
 *                                the checked descriptor
 *   cpython.run_startup          PYTHONSTARTUP (only for an interactive
 *                                prompt): refused with deny-interactive,
 *                                else checked as a script
 *   cpython.run_command          -c: refused with deny-interactive
 *   cpython.run_stdin            code from standard input (also "-", and
 *                                python -m asyncio): with deny-interactive,
 *                                run only when standard input is a regular
 *                                file that passes omayexec_check_fd()
 *   cpython.run_interactivehook  the interactive prompt: a terminal on
 *                                standard input, -i, or PYTHONINSPECT (set
 *                                in the environment or by the program)
 *                                after a script, -c or -m: refused with
 *                                deny-interactive
 *   cpython.run_module           -m, and a directory or zip given as the
 *                                script: nothing here, runpy reads the code
 *                                through io.open_code() (opencode.c)
 *
 * A refusal prints its one line and raises SystemExit(126), which
 * Modules/main.c turns into the exit status without a traceback.  The
 * prompt's case differs: main.c prints "Failed calling
 * sys.__interactivehook__" before handling the error, so that refusal
 * exits the process itself, after Python's streams are flushed.  A prompt
 * on a terminal with nothing else to run is refused earlier still, while
 * the interpreter starts (start.c), before CPython's banner.
 *
 * Every event passes through start.c first: the hooks that need the
 * interpreter (or its import system) go in at the first event that finds
 * it there.
 */
/* Python.h first: it sets the feature macros (_GNU_SOURCE...). */
#include "omxpy.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "omayexec.h"

static int deny_interactive;
/* The option that asked for it, or NULL: the library's source. */
static const char *deny_option;

/*
 * How a refusal names the main script: as the command line gave it
 * (sys.argv[0] when cpython.run_file is raised; the event's path is
 * absolute), as every interpreter does (../refusal.h).  Else @path.
 */
static const char *script_name(const char *path)
{
	PyObject *argv = PySys_GetObject("argv"), *first;	/* borrowed */
	const char *given;

	if (!argv || !PyList_Check(argv) || PyList_GET_SIZE(argv) < 1)
		return path;
	first = PyList_GET_ITEM(argv, 0);
	given = PyUnicode_Check(first) ? PyUnicode_AsUTF8(first) : NULL;
	if (!given || !*given) {
		PyErr_Clear();
		return path;
	}
	return given;
}

#define STARTUP_WHY	"start-up code of the interactive prompt"
#define PROMPT_WHY	"code typed or piped at the prompt cannot be checked"

/* Refuse @what, code that is no checked file: @why, and who asked. */
static int refuse_interactive(const char *what, const char *why)
{
	char tag[256], line[512];

	snprintf(line, sizeof(line), "%s %s", why,
		 refusal_deny_tag(deny_option, tag, sizeof(tag)));
	omxpy_refusal_line(what, line);
	return omxpy_raise_exit();
}

/* The first argument of the event as a file system path (a new bytes). */
static PyObject *path_arg(PyObject *args)
{
	PyObject *path, *bytes;

	if (!PyTuple_Check(args) || PyTuple_GET_SIZE(args) < 1)
		return NULL;
	path = PyTuple_GET_ITEM(args, 0);
	if (!PyUnicode_FSConverter(path, &bytes))
		return NULL;
	return bytes;
}

/*
 * cpython.run_file, and PYTHONSTARTUP without deny-interactive; @prefix
 * goes before the path in the refusal line ("" for the main script).
 */
static int check_file(PyObject *args, const char *prefix)
{
	PyObject *bytes = path_arg(args);
	char what[4096 + 64];
	const char *path;
	int ret = 0;

	if (!bytes)
		return -1;
	path = PyBytes_AS_STRING(bytes);
	if (omxpy_run_file_check(path)) {
		snprintf(what, sizeof(what), "%s%s", prefix,
			 *prefix ? path : script_name(path));
		omxpy_refusal_line(what, omxpy_reason(errno, path));
		ret = omxpy_raise_exit();
	}
	Py_DECREF(bytes);
	return ret;
}

static int check_stdin(void)
{
	char why[8192];

	if (!omayexec_check_fd(STDIN_FILENO))
		return 0;
	omxpy_refusal_line("standard input",
			   refusal_why_stdin(STDIN_FILENO, errno, deny_option,
					     why, sizeof(why)));
	return omxpy_raise_exit();
}

static int hook(const char *event, PyObject *args, void *data)
{
	(void)data;
	if (omxpy_start_event(event))
		return -1;
	if (strncmp(event, "cpython.run_", 12))
		return 0;
	event += 12;
	if (!strcmp(event, "file"))
		return check_file(args, "");
	if (!strcmp(event, "startup")) {
		if (!deny_interactive)
			return check_file(args, "PYTHONSTARTUP=");
		return refuse_interactive("PYTHONSTARTUP",
					  STARTUP_WHY);
	}
	if (!deny_interactive)
		return 0;
	if (!strcmp(event, "command")) {
		return refuse_interactive("-c",
					  "code given on the command line cannot be checked");
	}
	if (!strcmp(event, "stdin"))
		return check_stdin();
	if (!strcmp(event, "interactivehook")) {
		refuse_interactive("interactive prompt",
				   PROMPT_WHY);
		/* main.c would add a line of its own: see the top of this file. */
		PyErr_Clear();
		exit(REFUSAL_STATUS);
	}
	return 0;
}

int omxpy_audit_install(void)
{
	return PySys_AddAuditHook(hook, NULL);
}

void omxpy_audit_deny_interactive(int on, const char *option)
{
	deny_interactive = on;
	deny_option = option;
}

int omxpy_audit_denying(void)
{
	return deny_interactive;
}

/* Whether CPython reads PYTHONSTARTUP: not under -E or -I. */
static int uses_environment(void)
{
	PyObject *flags = PySys_GetObject("flags"), *ignore;	/* borrowed */
	int ret = 1;

	ignore = flags ? PyObject_GetAttrString(flags, "ignore_environment") : NULL;
	if (ignore)
		ret = !PyObject_IsTrue(ignore);
	Py_XDECREF(ignore);
	PyErr_Clear();
	return ret;
}

void omxpy_audit_refuse_prompt(void)
{
	const char *startup = uses_environment() ? getenv("PYTHONSTARTUP") : NULL;

	if (startup && *startup)
		refuse_interactive("PYTHONSTARTUP", STARTUP_WHY);
	else
		refuse_interactive("interactive prompt", PROMPT_WHY);
	PyErr_Clear();
	exit(REFUSAL_STATUS);
}

/* sys.__interactivehook__ when site did not set one: does nothing. */
static PyObject *no_hook(PyObject *self, PyObject *unused)
{
	(void)self;
	(void)unused;
	Py_RETURN_NONE;
}

static PyMethodDef no_hook_def = {
	"__interactivehook__", no_hook, METH_NOARGS,
	"Set by omayexec's hooks: the prompt raises cpython.run_interactivehook.",
};

/*
 * Without site (python -S), sys has no __interactivehook__, and main.c
 * then enters the prompt without any audit event: give it one.
 */
int omxpy_interactive_guard(void)
{
	PyObject *fn;
	int ret;

	if (PySys_GetObject("__interactivehook__"))
		return 0;
	fn = PyCFunction_New(&no_hook_def, NULL);
	if (!fn)
		return -1;
	ret = PySys_SetObject("__interactivehook__", fn);
	Py_DECREF(fn);
	return ret;
}
