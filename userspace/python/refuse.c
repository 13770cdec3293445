// SPDX-License-Identifier: GPL-2.0
/*
 * The refusals of omayexec-python3: one line on standard error that names
 * what is refused and why, then exit status 126, as omxsh and shells do.
 */
/* Python.h first: it sets the feature macros (_GNU_SOURCE...). */
#include "omxpy.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../refusal.h"


/* Flush sys.stdout and sys.stderr, so that the line comes after them. */
static void flush_python_streams(void)
{
	static const char *const names[] = { "stdout", "stderr" };
	PyObject *exc_type, *exc_value, *exc_tb, *stream, *res;
	size_t i;

	if (!Py_IsInitialized())
		return;
	PyErr_Fetch(&exc_type, &exc_value, &exc_tb);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		stream = PySys_GetObject(names[i]);	/* borrowed */
		if (!stream || stream == Py_None)
			continue;
		res = PyObject_CallMethod(stream, "flush", NULL);
		Py_XDECREF(res);
		PyErr_Clear();
	}
	PyErr_Restore(exc_type, exc_value, exc_tb);
}

void omxpy_refusal_line(const char *what, const char *why)
{
	flush_python_streams();
	fprintf(stderr, OMXPY_PROG ": %s: refused: %s\n", what, why);
	fflush(stderr);
}

/*
 * omayexec_open() fails with EACCES both for the policy and for an
 * ordinary permission problem (no read permission on the file or a
 * directory): only the first is a refusal of ours; CPython reports the
 * others as it always does.  The kernel refuses every non-regular file.
 */
int omxpy_is_refusal(int err, const char *path)
{
	struct stat st;

	/*
	 * EPERM: a security module or an exec-permission listener (fanotify:
	 * fapolicyd) denied the open as code.  The file may still be readable
	 * by a plain open: never let CPython read it.
	 */
	if (err == EOPNOTSUPP || err == EPERM)
		return 1;
	if (err != EACCES)
		return 0;
	if (stat(path, &st))
		return 0;
	if (!S_ISREG(st.st_mode))
		return 1;
	return faccessat(AT_FDCWD, path, R_OK, AT_EACCESS) == 0;
}

const char *omxpy_reason(int err, const char *path)
{
	static char buf[4096 + 128];

	if (err == EOPNOTSUPP)
		return "strict mode, and this kernel cannot check files (no O_MAYEXEC support)";
	if (err == EPERM)
		return OMAYEXEC_EPERM_WHY;
	snprintf(buf, sizeof(buf),
		 "the system's exec policy does not allow running it (see: omayexec check %s)",
		 path);
	return buf;
}

int omxpy_raise_exit(void)
{
	PyObject *code = PyLong_FromLong(OMXPY_STATUS_REFUSED);

	if (code) {
		PyErr_SetObject(PyExc_SystemExit, code);
		Py_DECREF(code);
	}
	return -1;
}
