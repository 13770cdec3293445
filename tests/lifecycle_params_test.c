// SPDX-License-Identifier: GPL-2.0
/*
 * Lifecycle of omayexec.ko: its parameters at load time.  Each value of
 * enforce and locked, good or bad, and unknown parameters: a good one
 * loads the module with that policy, a bad one fails the load with EINVAL
 * and leaves nothing behind.  (params_fuzz_test throws random strings at
 * the same parser.)
 *
 * The module's parser is the same C on every kernel, so this runs on the
 * generic kernels alone; lifecycle_test, which loads and unloads the
 * module on every kernel, keeps the load with the defaults.  As there,
 * every test loads and unloads the module itself (lib/lifecycle.h), fails
 * if the kernel logged a BUG, WARNING, Oops, call trace, lockup or hung
 * task, and the binary leaves the module unloaded.  Never locked=1: a
 * locked module cannot be removed.
 */
#define _GNU_SOURCE
#include <stdio.h>

#include "omx.h"
#include "module.h"
#include "kselftest_harness.h"
#include "lifecycle.h"

TEST_F_TIMEOUT(lifecycle, load_enforce_each, 120)
{
	char params[32];
	int policy;

	for (policy = 0; policy <= 3; policy++) {
		snprintf(params, sizeof(params), "enforce=%d", policy);
		LOAD_OK(params);
		expect_loaded(_metadata, self, policy);
		expect_param(_metadata, "locked", "N");
		EXPECT_EQ(0, mod_unload(MOD_OMAYEXEC));
		expect_absent(_metadata, self, NULL);
	}
	/* Nothing survives an unload: the default is back. */
	LOAD_OK("");
	expect_loaded(_metadata, self, 0);
}

TEST_F_TIMEOUT(lifecycle, load_unlocked_sysctl_writable, 90)
{
	static const char *const params[] = {
		"enforce=1 locked=0", "enforce=1 locked=n", "locked=N enforce=1",
	};
	size_t i;

	for (i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
		LOAD_OK(params[i]);
		expect_loaded(_metadata, self, 1);
		expect_param(_metadata, "locked", "N");
		/* The parameter shows the policy in force, not the initial one. */
		EXPECT_EQ(0, omx_policy_set(2));
		expect_loaded(_metadata, self, 2);
		EXPECT_EQ(0, omx_policy_set(0));
		expect_loaded(_metadata, self, 0);
		EXPECT_EQ(0, mod_unload(MOD_OMAYEXEC));
		expect_absent(_metadata, self, NULL);
	}
}

TEST_F_TIMEOUT(lifecycle, bad_enforce_values, 120)
{
	static const char *const params[] = {
		"enforce=4", "enforce=-1", "enforce=abc", "enforce=", "enforce",
		"enforce=1x", "enforce=4294967297", "enforce=8",
		"enforce=2 enforce=7", "enforce=0x1", "enforce=01", "enforce=+1",
		"enforce=-0",
	};
	size_t i;

	for (i = 0; i < sizeof(params) / sizeof(params[0]); i++)
		expect_load_einval(_metadata, self, params[i], "enforce");
	LOAD_OK("enforce=2");
	expect_loaded(_metadata, self, 2);
}

TEST_F_TIMEOUT(lifecycle, unknown_parameter, 90)
{
	expect_load_einval(_metadata, self, "foo=1", "unknown parameter 'foo'");
	expect_load_einval(_metadata, self, "enforce=1 foo=1",
			   "unknown parameter 'foo'");
	expect_load_einval(_metadata, self, "bar", "unknown parameter 'bar'");
	LOAD_OK("enforce=1");
	expect_loaded(_metadata, self, 1);
}

/*
 * Last, as a wrong answer here would leave a locked module behind and fail
 * every later test: bad values of locked.
 */
TEST_F_TIMEOUT(lifecycle, bad_locked_values, 90)
{
	static const char *const params[] = {
		"locked=maybe", "locked=2", "locked=", "enforce=1 locked=maybe",
	};
	size_t i;

	for (i = 0; i < sizeof(params) / sizeof(params[0]); i++)
		expect_load_einval(_metadata, self, params[i], "locked");
	LOAD_OK("locked=0");
	expect_loaded(_metadata, self, 0);
	expect_param(_metadata, "locked", "N");
}

TEST_HARNESS_MAIN
