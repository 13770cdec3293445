/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a test file includes: the helpers and the kernel's kselftest
 * harness (from linux-source-6.1, see tests/Makefile).  Include it once,
 * from the test's .c file only: the harness defines global symbols.
 */
#ifndef OMX_TEST_H
#define OMX_TEST_H

#include "omx.h"

/* The 6.1 harness itself does not build warning-free with -Wextra. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop

#endif /* OMX_TEST_H */
