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
 * (EAGAIN: in use), forced or not ("rmmod -f": Debian's kernels have
 * CONFIG_MODULE_FORCE_UNLOAD), whoever asks, and that none of this dents
 * enforcement.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
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

/* kmod's own tools, as an administrator would type them. */
TEST_F(locked, rmmod_tools_fail)
{
	char *rmmod_force[] = { "rmmod", "-f", MOD_OMAYEXEC, NULL };
	char *modprobe_r[] = { "modprobe", "-r", MOD_OMAYEXEC, NULL };

	EXPECT_NE(0, lc_run(rmmod_force));
	EXPECT_NE(0, lc_run(modprobe_r));
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

/* ---- Whoever tries ------------------------------------------------------ */

/* /proc/sys/kernel/tainted: TAINT_FORCED_RMMOD, set by a forced delete_module(). */
#define TAINT_FORCED_RMMOD	(1UL << 8)

enum attacker {
	ROOT,				/* all capabilities */
	ROOT_WITHOUT_CAP_MAC_ADMIN,	/* dropped from the effective set */
	ROOT_WITHOUT_CAP_SYS_MODULE,	/* dropped from the effective set */
	ROOT_IN_USER_NAMESPACE,		/* all capabilities, in a new userns */
	USER,				/* uid 1000, no capabilities */
};

static int become(enum attacker who)
{
	static const cap_value_t sys_module[] = { CAP_SYS_MODULE };

	switch (who) {
	case ROOT:
		return 0;
	case ROOT_WITHOUT_CAP_MAC_ADMIN:
		return omx_mac_admin(false);
	case ROOT_WITHOUT_CAP_SYS_MODULE:
		return omx_caps_effective(sys_module, 1, false);
	case ROOT_IN_USER_NAMESPACE:
		return omx_enter_user_namespace();
	case USER:
		return omx_become_user();
	}
	return -EINVAL;
}

FIXTURE(attacker) {
	struct omx_ws ws;
	unsigned long tainted;
};

FIXTURE_VARIANT(attacker) {
	enum attacker who;
	int unload_errno;	/* what delete_module() fails with, forced or not */
	int sysctl_errno;	/* what writing "0" to the sysctl fails with */
};

/* A locked module is in use by itself: EAGAIN (EWOULDBLOCK), even forced. */
FIXTURE_VARIANT_ADD(attacker, root) {
	.who = ROOT, .unload_errno = EAGAIN, .sysctl_errno = EPERM,
};
FIXTURE_VARIANT_ADD(attacker, root_without_cap_mac_admin) {
	.who = ROOT_WITHOUT_CAP_MAC_ADMIN, .unload_errno = EAGAIN,
	.sysctl_errno = EPERM,
};
/* delete_module() needs CAP_SYS_MODULE: EPERM before the module is looked at. */
FIXTURE_VARIANT_ADD(attacker, root_without_cap_sys_module) {
	.who = ROOT_WITHOUT_CAP_SYS_MODULE, .unload_errno = EPERM,
	.sysctl_errno = EPERM,
};
FIXTURE_VARIANT_ADD(attacker, root_in_user_namespace) {
	.who = ROOT_IN_USER_NAMESPACE, .unload_errno = EPERM,
	.sysctl_errno = EPERM,
};
/* The sysctl is 0600: a user cannot even open it for writing. */
FIXTURE_VARIANT_ADD(attacker, user) {
	.who = USER, .unload_errno = EPERM, .sysctl_errno = EACCES,
};

static unsigned long read_tainted(void)
{
	char buf[32];

	if (lc_read_file("/proc/sys/kernel/tainted", buf, sizeof(buf)))
		return ~0UL;
	return strtoul(buf, NULL, 10);
}

FIXTURE_SETUP(attacker)
{
	char buf[16];

	self->ws.dirfd = -1;
	ASSERT_EQ(0, mod_param(MOD_OMAYEXEC, "locked", buf, sizeof(buf))) {
		TH_LOG("start this test with omayexec loaded with \"enforce=3 locked=1\"");
	}
	ASSERT_STREQ("Y", buf);
	ASSERT_EQ(0, omx_ws_create(&self->ws));
	ASSERT_EQ(0, lc_ws_populate(&self->ws));
	self->tainted = read_tainted();
	ASSERT_NE(~0UL, self->tainted);
}

/* Still there, still locked, still policy 3, and nothing was forced out. */
FIXTURE_TEARDOWN(attacker)
{
	char buf[16], why[256];

	EXPECT_TRUE(mod_is_loaded(MOD_OMAYEXEC));
	EXPECT_EQ(0, mod_param(MOD_OMAYEXEC, "locked", buf, sizeof(buf)));
	EXPECT_STREQ("Y", buf);
	EXPECT_EQ(3, omx_policy_read());
	EXPECT_EQ(3, lc_policy_seen(self->ws.dirfd, why, sizeof(why))) {
		TH_LOG("%s", why);
	}
	EXPECT_EQ(0, read_tainted() & TAINT_FORCED_RMMOD);
	EXPECT_EQ(self->tainted, read_tainted());
	omx_ws_destroy(&self->ws);
}

struct attempt {
	enum attacker who;
	unsigned int flags;	/* delete_module() flags */
};

static int try_unload(void *arg)
{
	const struct attempt *a = arg;
	int ret = become(a->who);

	if (ret)
		return 1000 + ret;
	return syscall(SYS_delete_module, MOD_OMAYEXEC, a->flags) ? -errno : 0;
}

static int try_sysctl_write(void *arg)
{
	const struct attempt *a = arg;
	int ret = become(a->who);

	if (ret)
		return 1000 + ret;
	return omx_policy_write("0");
}

TEST_F(attacker, rmmod_refused)
{
	struct attempt a = { variant->who, O_NONBLOCK };

	EXPECT_EQ(-variant->unload_errno, omx_in_child(try_unload, &a));
	a.flags = 0;
	EXPECT_EQ(-variant->unload_errno, omx_in_child(try_unload, &a));
}

/* "rmmod -f": O_TRUNC asks delete_module() to ignore references. */
TEST_F(attacker, forced_rmmod_refused)
{
	struct attempt a = { variant->who, O_NONBLOCK | O_TRUNC };

	EXPECT_EQ(-variant->unload_errno, omx_in_child(try_unload, &a));
	a.flags = O_TRUNC;
	EXPECT_EQ(-variant->unload_errno, omx_in_child(try_unload, &a));
}

TEST_F(attacker, sysctl_write_refused)
{
	struct attempt a = { variant->who, 0 };

	EXPECT_EQ(-variant->sysctl_errno, omx_in_child(try_sysctl_write, &a));
}

TEST_HARNESS_MAIN
