// SPDX-License-Identifier: GPL-2.0
/*
 * omayexec loaded with "enforce=3 locked=1": the policy is static.
 *
 * A locked module cannot be removed, so this binary runs last in its boot,
 * started with the module already loaded that way: tests/run-check has
 * tests/guest/run-tests reload it ("--module 'enforce=3 locked=1'") after
 * the other suites; by hand:
 *
 *   qemu/run-vm --module-args "enforce=3 locked=1" -- build/tests/lifecycle_locked_test
 *
 * It checks that policy 3 is in force, that no write to the sysctl changes
 * it (EPERM, even with CAP_MAC_ADMIN), that delete_module() is refused
 * (EAGAIN: in use), and that none of this dents enforcement.  It never
 * forces an unload.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "omx.h"
#include "module.h"
#include "kselftest_harness.h"

#define FTRACE_ENABLED	"/proc/sys/kernel/ftrace_enabled"

FIXTURE(locked) {
	struct omx_ws ws;
	struct klog log;
};

FIXTURE_SETUP(locked)
{
	char buf[16];

	self->ws.dirfd = -1;
	ASSERT_EQ(0, klog_open(&self->log));
	ASSERT_TRUE(mod_is_loaded(MOD_OMAYEXEC)) {
		TH_LOG("start this test with omayexec loaded with \"enforce=3 locked=1\"");
	}
	ASSERT_EQ(0, mod_param(MOD_OMAYEXEC, "locked", buf, sizeof(buf)));
	ASSERT_STREQ("Y", buf) {
		TH_LOG("start this test with omayexec loaded with \"enforce=3 locked=1\"");
	}
	ASSERT_EQ(0, omx_ws_create(&self->ws));
	ASSERT_EQ(0, lc_ws_populate(&self->ws));
}

FIXTURE_TEARDOWN(locked)
{
	const char *trouble = klog_trouble(&self->log);

	/*
	 * Not EXPECT_EQ(): after a failed ASSERT the harness still has its
	 * handler trigger set, and would print the log even on success.
	 */
	if (trouble) {
		TH_LOG("the kernel reported a problem: %s", trouble);
		TH_LOG("kernel log during the test:\n%s", self->log.buf);
		_metadata->passed = 0;
	}
	klog_close(&self->log);
	lc_write_file(FTRACE_ENABLED, "1");
	omx_ws_destroy(&self->ws);
}

/* Policy 3 everywhere: sysctl, parameter, and the opens themselves. */
static void expect_policy3(struct __test_metadata *_metadata,
			   FIXTURE_DATA(locked) *self)
{
	char buf[16], why[256];
	int seen;

	EXPECT_EQ(3, omx_policy_read());
	ASSERT_EQ(0, mod_param(MOD_OMAYEXEC, "enforce", buf, sizeof(buf)));
	EXPECT_STREQ("3", buf);
	seen = lc_policy_seen(self->ws.dirfd, why, sizeof(why));
	EXPECT_EQ(3, seen) {
		TH_LOG("%s", why);
	}
	EXPECT_TRUE(mod_is_loaded(MOD_OMAYEXEC));
}

TEST_F(locked, policy3_in_force)
{
	char buf[16];

	expect_policy3(_metadata, self);
	ASSERT_EQ(0, mod_param(MOD_OMAYEXEC, "locked", buf, sizeof(buf)));
	EXPECT_STREQ("Y", buf);
	/* Reading the sysctl still works. */
	ASSERT_EQ(0, lc_read_file(OMAYEXEC_SYSCTL_PATH, buf, sizeof(buf)));
	EXPECT_STREQ("3", buf);
}

TEST_F(locked, sysctl_write_eperm_with_cap_mac_admin)
{
	static const char *const values[] = { "0", "1", "2", "3", "0\n" };
	cap_flag_value_t flag = CAP_CLEAR;
	cap_t caps;
	size_t i;

	/* Root with CAP_MAC_ADMIN raised: what may write an unlocked policy. */
	ASSERT_EQ(0, omx_mac_admin(true));
	caps = cap_get_proc();
	ASSERT_NE(NULL, caps);
	ASSERT_EQ(0, cap_get_flag(caps, CAP_MAC_ADMIN, CAP_EFFECTIVE, &flag));
	cap_free(caps);
	ASSERT_EQ((int)CAP_SET, (int)flag);

	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		EXPECT_EQ(-EPERM, omx_policy_write(values[i])) {
			TH_LOG("writing \"%s\"", values[i]);
		}
	}
	EXPECT_NE(0, omx_policy_set(0));
	expect_policy3(_metadata, self);
}

TEST_F(locked, unload_refused)
{
	int ret;

	/* As rmmod does (O_NONBLOCK), then without flags: never forced. */
	ret = mod_unload(MOD_OMAYEXEC);
	EXPECT_EQ(-EAGAIN, ret) {
		TH_LOG("delete_module(O_NONBLOCK): %s",
		       ret ? strerror(-ret) : "unloaded");
	}
	ret = syscall(SYS_delete_module, MOD_OMAYEXEC, 0) ? -errno : 0;
	EXPECT_EQ(-EAGAIN, ret) {
		TH_LOG("delete_module(0): %s", ret ? strerror(-ret) : "unloaded");
	}
	expect_policy3(_metadata, self);
}

TEST_F(locked, ftrace_disable_refused)
{
	char buf[16];

	EXPECT_EQ(-EBUSY, lc_write_file(FTRACE_ENABLED, "0"));
	ASSERT_EQ(0, lc_read_file(FTRACE_ENABLED, buf, sizeof(buf)));
	EXPECT_STREQ("1", buf);
	expect_policy3(_metadata, self);
}

TEST_F(locked, second_load_refused)
{
	EXPECT_EQ(-EEXIST, mod_load(mod_omayexec_path(), "enforce=0"));
	expect_policy3(_metadata, self);
}

TEST_HARNESS_MAIN
