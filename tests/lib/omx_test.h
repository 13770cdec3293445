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

/*
 * The harness arms alarm(t->timeout) around every test (TEST_F_TIMEOUT's,
 * or its 30 s default).  On a debug kernel (KASAN, lockdep) everything runs
 * several times slower, so tests/run-check sets OMX_TIMEOUT_SCALE to the
 * slowdown it allows the suites: scale the harness's timeouts with it, the
 * one alarm() the harness calls, and nothing else.
 */
#include <stdlib.h>
#include <unistd.h>

static inline unsigned int omx_scaled_alarm(unsigned int seconds)
{
	const char *scale = getenv("OMX_TIMEOUT_SCALE");
	unsigned long n = scale ? strtoul(scale, NULL, 10) : 1;

	return alarm(seconds && n > 1 && n <= 100 ? seconds * n : seconds);
}

#define alarm(seconds) omx_scaled_alarm(seconds)
#include "kselftest_harness.h"
#undef alarm

/* Every test restores policy 0; this also covers a test killed midway. */
static void __attribute__((constructor)) omx_test_restore_policy(void)
{
	omx_restore_policy_at_exit = true;
}

#endif /* OMX_TEST_H */
