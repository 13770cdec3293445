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

#include <stdio.h>
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
 * The interpreter could not start: CPython has printed its traceback.  If
 * the open-code hook refused a file, that is why (the standard library
 * under the file policy): say what to do, in one more line.
 */
static void stdlib_hint(void)
{
	const char *path = omxpy_first_refused();

	if (path)
		fprintf(stderr, OMXPY_PROG ": cannot start: %s was refused; under the file policy the standard library needs the x bit (omayexec-python3-allow-stdlib, see omayexec-python3(1))\n",
			path);
}

int main(int argc, char *argv[])
{
	PyConfig config;
	PyStatus status;
	int deny;

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

	deny = omayexec_deny_interactive() ||
	       has_xoption(&config, L"" OMXPY_XOPTION);
	omxpy_audit_deny_interactive(deny);

	status = Py_InitializeFromConfig(&config);
	if (PyStatus_Exception(status)) {
		stdlib_hint();
		goto exception;
	}
	PyConfig_Clear(&config);

	if (omxpy_patch_loaders())
		return fail("making bare .pyc imports use io.open_code()");
	if (omxpy_excepthook_install())
		return fail("installing sys.excepthook");
	if (deny && omxpy_interactive_guard())
		return fail("guarding the interactive prompt");
	return Py_RunMain();

exception:
	PyConfig_Clear(&config);
	if (PyStatus_IsExit(status))
		return status.exitcode;
	Py_ExitStatusException(status);
}
