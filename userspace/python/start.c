// SPDX-License-Identifier: GPL-2.0
/*
 * The hooks go in from a constructor, before CPython's own main() runs,
 * in Debian's /usr/bin/python3.X given the hooks' library as its first
 * dependency (DT_NEEDED; ../enforcing-copy makes that copy, which is
 * omayexec-python3).  The interpreter's life is CPython's own: this file
 * only says when each part of the hooks comes in.
 *
 *   before main(): the open-code and audit hooks (PEP 578 allows both
 *     before initialisation, and the runtime keeps them across it);
 *     standard error captured, so that a start that fails for a refused
 *     file ends in one line (the rest of this file);
 *   at the first "import" audit event (sys exists, nothing of site ran
 *     yet): deny-interactive known, -X omayexec-deny-interactive
 *     included, and a prompt on a terminal refused there, before CPython
 *     prints its banner;
 *   at the first "import" event after the import system is installed:
 *     bare .pyc files read through the open-code hook (loaders.c), before
 *     site, .pth files and sitecustomize import anything;
 *   at the first audit event after initialisation (at the latest the
 *     cpython.run_* event before the script, -c, -m or standard input):
 *     standard error released, sys.excepthook, the interactive guard,
 *     and the exit status of an uncaught refusal (126, at exit).
 *
 * A part that cannot be put in place fails the event that asked for it
 * (the audit hook returns -1 with the error): the interpreter stops with
 * the error rather than run unchecked.
 */
/* Python.h first: it sets the feature macros (_GNU_SOURCE...). */
#include "omxpy.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "omayexec.h"

/* The program's name in every refusal line: argv[0]'s last part. */
const char *omxpy_prog = OMXPY_PROG;

/* The parts already in place. */
static int deny_known, loaders_patched, initialised;
/* Standard error while the interpreter starts: the memory file, or -1. */
static int captured = -1, saved_stderr = -1;
/* The process that captured it (a child forked by sitecustomize has it too). */
static pid_t capturer;

/*
 * Standard error goes to a memory file until the interpreter is
 * initialised: when the start fails because the open-code hook refused a
 * file (the standard library without the x bit, under the exec securebit
 * or the module's file policy), CPython's path configuration dump and
 * fatal error would bury the one line that says what to do.  Otherwise
 * what was written is passed on, unchanged.  Both descriptors above 2:
 * a closed standard stream stays closed.
 */
static void capture_stderr(void)
{
	int mem, saved;

	mem = memfd_create("python-start", MFD_CLOEXEC);
	if (mem < 0)
		return;
	if (mem <= STDERR_FILENO) {
		saved = fcntl(mem, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
		close(mem);
		if (saved < 0)
			return;
		mem = saved;
	}
	saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
	if (saved < 0 || dup2(mem, STDERR_FILENO) < 0) {
		if (saved >= 0)
			close(saved);
		close(mem);
		return;
	}
	captured = mem;
	saved_stderr = saved;
	capturer = getpid();
}

/* Standard error back; what was captured written to it when @pass_on. */
static void release_stderr(int pass_on)
{
	char buf[4096];
	ssize_t n;
	off_t off = 0;

	if (captured < 0)
		return;
	fflush(stderr);
	dup2(saved_stderr, STDERR_FILENO);
	close(saved_stderr);
	/* What was captured is the starting interpreter's, said once. */
	pass_on = pass_on && getpid() == capturer;
	while (pass_on && (n = pread(captured, buf, sizeof(buf), off)) > 0) {
		if (write(STDERR_FILENO, buf, (size_t)n) != n)
			break;
		off += n;
	}
	close(captured);
	captured = saved_stderr = -1;
}

/*
 * The interpreter could not start because a file was refused: the one
 * line, with the remedy when the x bit is what is missing (Debian's 0644
 * library files, refused by a check; not where nothing can check).
 */
static void refused_start(const char *path, int err)
{
	char what[4096 + 32], line[8192 + 4096 + 64];
	struct stat st;

	snprintf(what, sizeof(what), "cannot start: %s", path);
	/* The remedy is the library's, not a chmod of one of its files. */
	fprintf(stderr, "%s\n",
		refusal_line(line, sizeof(line), omxpy_prog, what,
			     omxpy_reason_remedy(err, path,
				err == EACCES && !stat(path, &st) &&
				S_ISREG(st.st_mode) && !(st.st_mode & 0111) ?
				"; the standard library needs the x bit: run omayexec-python3-allow-stdlib as root (see omayexec-python3(1))" :
				NULL)));
}

/*
 * At exit, with standard error still captured: the interpreter never
 * finished starting (an error, or -h and -V, which exit while the
 * command line is read).  A refused file makes it the one line and the
 * status of a refusal; anything else is passed on as it was written.
 */
static void exit_while_starting(void)
{
	const char *refused;
	int err;

	if (captured < 0)
		return;
	refused = omxpy_first_refused(&err);
	release_stderr(!refused);
	if (refused) {
		refused_start(refused, err);
		fflush(NULL);
		_exit(REFUSAL_STATUS);
	}
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

/* Py_AtExit: the end of finalisation; an uncaught refusal's status. */
static void exit_after_refusal(void)
{
	if (omxpy_refusal_uncaught())
		exit(REFUSAL_STATUS);
}

/* Whether -X omayexec-deny-interactive is on the command line. */
static int has_deny_option(void)
{
	PyObject *xoptions = PySys_GetObject("_xoptions");	/* borrowed */

	return xoptions && PyDict_Check(xoptions) &&
	       PyDict_GetItemString(xoptions, OMXPY_XOPTION);
}

/*
 * The main target as the command line gave it, from sys.argv[0] while the
 * interpreter starts: "" (no argument: the prompt, or standard input) or
 * "-" (standard input) have none; "-c", "-m" and a script have one.
 */
static int reads_stdin(void)
{
	PyObject *argv = PySys_GetObject("argv"), *first;	/* borrowed */
	const char *s;

	if (!argv || !PyList_Check(argv) || PyList_GET_SIZE(argv) < 1)
		return 0;
	first = PyList_GET_ITEM(argv, 0);
	s = PyUnicode_Check(first) ? PyUnicode_AsUTF8(first) : NULL;
	if (!s) {
		PyErr_Clear();
		return 0;
	}
	return !strcmp(s, "") || !strcmp(s, "-");
}

/*
 * Deny-interactive, from the library (/etc/omayexec.conf, the securebit,
 * OMAYEXEC_DENY_INTERACTIVE=1) or the option.  With it, a terminal on
 * standard input and nothing else to run is the prompt, which CPython
 * greets with its banner before any event of its own: refused here, as
 * its events would refuse it (PYTHONSTARTUP first, then the prompt).
 */
static void know_deny(void)
{
	const char *option = has_deny_option() ? "-X " OMXPY_XOPTION : NULL;
	int deny = option || omayexec_deny_interactive();

	omxpy_audit_deny_interactive(deny, option);
	deny_known = 1;
	if (deny && reads_stdin() && isatty(STDIN_FILENO)) {
		release_stderr(1);
		omxpy_audit_refuse_prompt();	/* does not return */
	}
}

/* Bare .pyc files, as soon as the import system has their loader. */
static int patch_loaders_when_ready(void)
{
	int ret = omxpy_patch_loaders();

	loaders_patched = !ret;
	return ret < 0 ? -1 : 0;
}

static int after_initialisation(void)
{
	flush_sys_stderr();
	release_stderr(1);
	initialised = 1;
	/* Initialised without one import event (none seen yet): not unknown. */
	if (!deny_known)
		know_deny();
	/* Initialised without the import system's loaders: fail closed. */
	if (!loaders_patched && omxpy_patch_loaders()) {
		if (!PyErr_Occurred())
			PyErr_SetString(PyExc_SystemError,
					"no SourcelessFileLoader to check bare .pyc imports");
		return -1;
	}
	loaders_patched = 1;
	if (omxpy_excepthook_install())
		return -1;
	if (omxpy_audit_denying() && omxpy_interactive_guard())
		return -1;
	return Py_AtExit(exit_after_refusal) ? -1 : 0;
}

int omxpy_start_event(const char *event)
{
	static int busy;
	int ret = 0;

	/* The parts below import modules: their own events come back here. */
	if (initialised || busy)
		return 0;
	busy = 1;
	if (Py_IsInitialized())
		ret = after_initialisation();
	else if (!strcmp(event, "import") && !deny_known)
		know_deny();
	else if (!strcmp(event, "import") && !loaders_patched)
		ret = patch_loaders_when_ready();
	busy = 0;
	return ret;
}

__attribute__((constructor))
static void omxpy_start(int argc, char **argv)
{
	const char *slash;

	if (argc > 0 && argv && argv[0]) {
		slash = strrchr(argv[0], '/');
		omxpy_prog = slash ? slash + 1 : argv[0];
	}
	/* Nothing can be judged without these: the interpreter must not run. */
	if (omxpy_open_code_install() || omxpy_audit_install()) {
		fprintf(stderr, "%s: cannot install the hooks that check the code it runs\n",
			omxpy_prog);
		_exit(1);
	}
	capture_stderr();
	if (captured >= 0 && atexit(exit_while_starting))
		release_stderr(1);
}
