// SPDX-License-Identifier: GPL-2.0
/*
 * The refusals: one line on standard error that names what is refused
 * and why, after the program's name as it was started (python3,
 * omayexec-python3...), then exit status 126, as omxsh and shells do.
 * The reasons and the status are the shared refusal layer's (refusal.c).
 */
/* Python.h first: it sets the feature macros (_GNU_SOURCE...). */
#include "omxpy.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
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
	char line[8192 + 4096 + 64];

	flush_python_streams();
	fprintf(stderr, "%s\n",
		refusal_line(line, sizeof(line), omxpy_prog, what, why));
	fflush(stderr);
}

int omxpy_is_refusal(int err, const char *path)
{
	return refusal_is_refusal(AT_FDCWD, path, err);
}

const char *omxpy_reason(int err, const char *path)
{
	static char buf[8192];

	return refusal_why_path(AT_FDCWD, path, err, buf, sizeof(buf));
}

const char *omxpy_reason_remedy(int err, const char *path, const char *remedy)
{
	static char buf[8192];
	int fd = open(path, O_PATH | O_CLOEXEC);

	refusal_why_fd_remedy(fd, err, remedy, buf, sizeof(buf));
	if (fd >= 0)
		close(fd);
	return buf;
}

int omxpy_raise_exit(void)
{
	PyObject *code = PyLong_FromLong(REFUSAL_STATUS);

	if (code) {
		PyErr_SetObject(PyExc_SystemExit, code);
		Py_DECREF(code);
	}
	return -1;
}
