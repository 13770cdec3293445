// SPDX-License-Identifier: GPL-2.0
/*
 * The open-code hook (PEP 578, PyFile_SetOpenCodeHook): io.open_code(),
 * which CPython 3.11 uses to read the code of every import (the .py
 * source and its __pycache__ .pyc, through SourceFileLoader.get_data),
 * the modules run by -m and a directory's or zip's __main__.py (runpy),
 * zip archives on sys.path (zipimport) and .pth files (site), opens the
 * file through libomayexec.  The file object returned reads from that
 * descriptor, so what is checked is what is read.
 *
 * A refusal is an OSError (PermissionError for the policy) that names the
 * file: an import fails as it fails for a file that cannot be read, and a
 * program may catch it; uncaught, it ends in one line that says why.
 */
/* Python.h first: it sets the feature macros (_GNU_SOURCE...). */
#include "omxpy.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "omayexec.h"

/* For the hint when the interpreter cannot start (start.c). */
static char first_refused[4096];
static int first_refused_err;

const char *omxpy_first_refused(int *err)
{
	*err = first_refused_err;
	return first_refused[0] ? first_refused : NULL;
}

/* OSError(err, "refused by ...: WHY", path): PermissionError for EACCES. */
static void set_refusal(int err, const char *cpath, PyObject *path)
{
	PyObject *exc;
	char msg[8192 + 256];

	snprintf(msg, sizeof(msg), OMXPY_REFUSED_PREFIX "%s",
		 omxpy_reason(err, cpath));
	if (!first_refused[0]) {
		snprintf(first_refused, sizeof(first_refused), "%s", cpath);
		first_refused_err = err;
	}
	exc = PyObject_CallFunction(PyExc_OSError, "isO", err, msg, path);
	if (exc) {
		PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
		Py_DECREF(exc);
	}
}

/* A buffered binary file object on @fd, named @path as io.open() names it. */
static PyObject *file_on_fd(int fd, PyObject *path)
{
	PyObject *io, *file, *raw;

	io = PyImport_ImportModule("_io");
	if (!io) {
		close(fd);
		return NULL;
	}
	file = PyObject_CallMethod(io, "open", "is", fd, "rb");
	Py_DECREF(io);
	if (!file) {
		close(fd);
		return NULL;
	}
	/* FileIO.name would be the number: tracebacks and loaders show it. */
	raw = PyObject_GetAttrString(file, "raw");
	if (!raw || PyObject_SetAttrString(raw, "name", path)) {
		Py_XDECREF(raw);
		Py_DECREF(file);
		return NULL;
	}
	Py_DECREF(raw);
	return file;
}

static PyObject *open_code(PyObject *path, void *data)
{
	PyObject *bytes = NULL, *file = NULL;
	const char *cpath;
	int fd, err;

	(void)data;
	if (!PyUnicode_FSConverter(path, &bytes))
		return NULL;
	cpath = PyBytes_AS_STRING(bytes);
	fd = refusal_open_code(AT_FDCWD, cpath, O_RDONLY | O_NOCTTY);
	if (fd < 0) {
		err = errno;
		if (omxpy_is_refusal(err, cpath)) {
			set_refusal(err, cpath, path);
		} else {
			errno = err;
			PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path);
		}
	} else {
		file = file_on_fd(fd, path);
	}
	Py_DECREF(bytes);
	return file;
}

int omxpy_open_code_install(void)
{
	return PyFile_SetOpenCodeHook(open_code, NULL);
}
