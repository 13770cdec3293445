// SPDX-License-Identifier: GPL-2.0
/*
 * The omayexec command against a locked module (locked=Y): status says
 * so, and set refuses in one line, as root and as uid 1000, leaving the
 * policy as it was.  Locking pins the module until reboot, so this suite
 * only means something in a boot whose module was loaded with locked=1
 * (run-check's last one, "enforce=3 locked=1"); anywhere else every test
 * is skipped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "omx_test.h"
#include "userspace_run.h"

static bool module_locked(void)
{
	char buf[8];

	return !mod_param(MOD_OMAYEXEC, "locked", buf, sizeof(buf)) &&
	       !strcmp(buf, "Y");
}

FIXTURE(locked) {
	char omayexec[PATH_MAX];
	int policy;
};

/* The 6.1 harness runs the test after a SKIP in the setup: skip in each. */
#define SKIP_UNLESS_LOCKED() do {					\
	if (!module_locked())						\
		SKIP(return, "the module is not loaded with locked=1");	\
} while (0)

FIXTURE_SETUP(locked)
{
	if (!module_locked())
		return;
	snprintf(self->omayexec, PATH_MAX, "%s", us_bin("omayexec"));
	ASSERT_EQ(0, access(self->omayexec, X_OK)) TH_LOG("%s", self->omayexec);
	self->policy = omx_policy_read();
	ASSERT_LE(0, self->policy);
}

FIXTURE_TEARDOWN(locked)
{
}

TEST_F(locked, status_says_locked)
{
	const char *argv[] = { self->omayexec, "status", NULL };
	char want[128];
	struct us_result r;

	SKIP_UNLESS_LOCKED();
	us_run(&r, NULL, argv);
	EXPECT_EQ(0, r.status);
	EXPECT_NE(NULL, strstr(r.out, "locked: yes (until reboot)\n"))
		TH_LOG("%s", r.out);
	snprintf(want, sizeof(want), "policy: %d (%s)", self->policy,
		 self->policy == 3 ? "mount,file" : self->policy == 2 ? "file" :
		 self->policy == 1 ? "mount" : "off");
	EXPECT_NE(NULL, strstr(r.out, want)) TH_LOG("%s", r.out);
}

TEST_F(locked, set_is_refused)
{
	const char *argv[] = { self->omayexec, "set", NULL, NULL };
	struct us_opts user = { .stdin_fd = -1, .as_user = true };
	struct us_result r;

	SKIP_UNLESS_LOCKED();
	argv[2] = self->policy ? "0" : "3";
	us_run(&r, NULL, argv);
	EXPECT_EQ(1, r.status);
	EXPECT_STREQ("", r.out);
	EXPECT_EQ(1, us_lines(r.err)) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "locked until reboot")) TH_LOG("%s", r.err);
	EXPECT_EQ(self->policy, omx_policy_read());

	/* Setting the value it already has is refused all the same. */
	argv[2] = self->policy == 3 ? "3" : self->policy == 2 ? "2" :
		  self->policy == 1 ? "1" : "0";
	us_run(&r, NULL, argv);
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, "locked")) TH_LOG("%s", r.err);

	us_run(&r, &user, argv);
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.err, "locked until reboot")) TH_LOG("%s", r.err);
	EXPECT_EQ(self->policy, omx_policy_read());
}

TEST_HARNESS_MAIN
