/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a test file includes: the helpers and the kernel's kselftest
 * harness (from linux-source-6.1, see tests/Makefile).  Include it once,
 * from the test's .c file only: the harness defines global symbols.
 */
#ifndef OMX_TEST_H
#define OMX_TEST_H

#include "omx.h"

/*
 * The 6.1 harness does not build warning-free with -Wextra: its
 * __timeout_handler() and the functions its TEST() macro expands to have
 * unused parameters, so that warning stays off in the test files.
 */
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"

/* Every test restores policy 0; this also covers a test killed midway. */
static void __attribute__((constructor)) omx_test_restore_policy(void)
{
	omx_restore_policy_at_exit = true;
}

#endif /* OMX_TEST_H */
