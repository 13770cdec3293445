// SPDX-License-Identifier: GPL-2.0
/*
 * Uncaught refusals in one line.  A refused import or -m module raises the
 * OSError of opencode.c inside the import system; a program may catch it,
 * but when nothing does, the traceback (through importlib and runpy) would
 * bury the reason.  sys.excepthook is replaced by one that prints
 *   omayexec-python3: PATH: refused: WHY
 * for such an error, and hands every other exception to the hook that was
 * there before (sys.__excepthook__, normally).  A program that installs
 * its own sys.excepthook gets the plain exception.  The program then
 * exits 126, as for every refusal, rather than Python's 1 (start.c).
 */
/* Python.h first: it sets the feature macros (_GNU_SOURCE...). */
#include "omxpy.h"

#include <string.h>

static PyObject *previous_hook;
/* An uncaught refusal ended the program: its status is 126 (start.c). */
static int refusal_uncaught;

int omxpy_refusal_uncaught(void)
{
	return refusal_uncaught;
}

/* "refused: WHY" of our OSError: the part after OMXPY_REFUSED_PREFIX. */
static const char *refusal_reason(PyObject *value)
{
	PyObject *strerror;
	const char *s;

	if (!value || !PyObject_TypeCheck(value, (PyTypeObject *)PyExc_OSError))
		return NULL;
	strerror = PyObject_GetAttrString(value, "strerror");
	if (!strerror) {
		PyErr_Clear();
		return NULL;
	}
	/* The exception keeps strerror alive: the pointer stays valid. */
	s = PyUnicode_Check(strerror) ? PyUnicode_AsUTF8(strerror) : NULL;
	Py_DECREF(strerror);
	if (!s) {
		PyErr_Clear();
		return NULL;
	}
	if (strncmp(s, OMXPY_REFUSED_PREFIX, strlen(OMXPY_REFUSED_PREFIX)))
		return NULL;
	return s + strlen(OMXPY_REFUSED_PREFIX);
}

static PyObject *excepthook(PyObject *self, PyObject *args)
{
	PyObject *type, *value, *tb, *filename, *bytes = NULL;
	const char *why;

	(void)self;
	if (!PyArg_UnpackTuple(args, "excepthook", 3, 3, &type, &value, &tb))
		return NULL;
	why = refusal_reason(value);
	if (!why)
		return PyObject_CallObject(previous_hook, args);
	filename = PyObject_GetAttrString(value, "filename");
	if (filename && PyUnicode_Check(filename))
		PyUnicode_FSConverter(filename, &bytes);
	PyErr_Clear();
	omxpy_refusal_line(bytes ? PyBytes_AS_STRING(bytes) : "?", why);
	refusal_uncaught = 1;
	Py_XDECREF(bytes);
	Py_XDECREF(filename);
	Py_RETURN_NONE;
}

static PyMethodDef excepthook_def = {
	"excepthook", excepthook, METH_VARARGS,
	"Set by omayexec's hooks: a refused file in one line, else the previous hook.",
};

int omxpy_excepthook_install(void)
{
	PyObject *fn;
	int ret;

	previous_hook = PySys_GetObject("excepthook");	/* borrowed */
	if (!previous_hook) {
		PyErr_SetString(PyExc_RuntimeError, "no sys.excepthook");
		return -1;
	}
	Py_INCREF(previous_hook);
	fn = PyCFunction_New(&excepthook_def, NULL);
	if (!fn)
		return -1;
	ret = PySys_SetObject("excepthook", fn);
	Py_DECREF(fn);
	return ret;
}
