// SPDX-License-Identifier: GPL-2.0
/*
 * omayexec-python3, the launcher: CPython's own main(), linked with
 * libpython3.X and with the hooks, which its constructor put in place
 * before this runs (start.c).  The same hooks run in Debian's own
 * /usr/bin/python3.X when it is given their library as a dependency:
 * nothing here is the launcher's alone but this file.
 */
/* Python.h first: it sets the feature macros (_GNU_SOURCE...). */
#include "omxpy.h"

int main(int argc, char *argv[])
{
	return Py_BytesMain(argc, argv);
}
