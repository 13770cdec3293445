// SPDX-License-Identifier: GPL-2.0
/*
 * Bare .pyc imports.  CPython 3.11's FileLoader.get_data() reads through
 * io.open_code() only for SourceLoader (and extension) loaders:
 * SourcelessFileLoader, which imports a .pyc that has no .py beside it,
 * reads it with a plain _io.FileIO, which the open-code hook never sees.
 * Once the import system is there (start.c), SourcelessFileLoader gets a get_data
 * that reads .pyc files through io.open_code(), and other files (package
 * data read with get_data) as before.
 *
 * The import system's classes are those of _frozen_importlib_external
 * (importlib._bootstrap_external is the same module).  A builtin function
 * set on a class is not bound to the instance: it receives the path only.
 */
/* Python.h first: it sets the feature macros (_GNU_SOURCE...). */
#include "omxpy.h"

/* Read all of @path, opened by @opener (io.open_code or _io.FileIO). */
static PyObject *read_all(PyObject *file)
{
	PyObject *data, *res;

	if (!file)
		return NULL;
	data = PyObject_CallMethod(file, "read", NULL);
	res = PyObject_CallMethod(file, "close", NULL);
	Py_DECREF(file);
	if (!res) {
		Py_XDECREF(data);
		return NULL;
	}
	Py_DECREF(res);
	return data;
}

/* FileIO(path, 'r'): what FileLoader.get_data() does for this loader. */
static PyObject *open_fileio(PyObject *path)
{
	PyObject *io, *file;

	io = PyImport_ImportModule("_io");
	if (!io)
		return NULL;
	file = PyObject_CallMethod(io, "FileIO", "Os", path, "r");
	Py_DECREF(io);
	return file;
}

/* get_data(path): the file's bytes, through io.open_code() for a .pyc. */
static PyObject *sourceless_get_data(PyObject *self, PyObject *arg)
{
	PyObject *path, *suffix, *data;
	Py_ssize_t is_pyc;

	(void)self;
	path = PyObject_Str(arg);	/* FileLoader.get_data() does str(path) */
	if (!path)
		return NULL;
	suffix = PyUnicode_FromString(".pyc");
	is_pyc = suffix ? PyUnicode_Tailmatch(path, suffix, 0, PY_SSIZE_T_MAX, 1) : -1;
	Py_XDECREF(suffix);
	if (is_pyc < 0)
		data = NULL;
	else if (is_pyc)
		data = read_all(PyFile_OpenCodeObject(path));
	else
		data = read_all(open_fileio(path));
	Py_DECREF(path);
	return data;
}

static PyMethodDef get_data_def = {
	"get_data", sourceless_get_data, METH_O,
	"Return the data from path as raw bytes (a .pyc through io.open_code).",
};

int omxpy_patch_loaders(void)
{
	PyObject *modules = PySys_GetObject("modules"), *ext, *loader, *fn;
	int ret;

	/*
	 * Taken from sys.modules, not imported: while the interpreter starts,
	 * the module is there before its body has run to the end (its own
	 * imports raise the events that call this), and the class is ready
	 * once it is defined.
	 */
	ext = modules && PyDict_Check(modules) ?
		PyDict_GetItemString(modules, "_frozen_importlib_external") : NULL;
	loader = ext ? PyObject_GetAttrString(ext, "SourcelessFileLoader") : NULL;
	if (!loader) {
		PyErr_Clear();
		return 1;
	}
	fn = PyCFunction_New(&get_data_def, NULL);
	ret = fn ? PyObject_SetAttrString(loader, "get_data", fn) : -1;
	Py_XDECREF(fn);
	Py_DECREF(loader);
	return ret;
}
