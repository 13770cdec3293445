// SPDX-License-Identifier: GPL-2.0
/*
 * O_MAYEXEC under a Landlock sandbox: a domain that handles
 * LANDLOCK_ACCESS_FS_EXECUTE refuses an O_MAYEXEC open of a file under no
 * rule that grants EXECUTE (EACCES), as it refuses execve() and
 * execveat(AT_EXECVE_CHECK) there, while a plain open of the same file,
 * which the domain lets the sandbox read, succeeds.  Under every policy:
 * Landlock's refusal is the sandbox's, not the module's.
 *
 * On 6.1 the kernel asks Landlock with the __FMODE_EXEC the module puts
 * on the open; on 6.12, where that flag would make AppArmor skip its open
 * check (apparmor_test), the module asks Landlock's hook itself
 * (module/compat.h).
 *
 * The module's counters record the open's outcome: allowed only when the
 * sandbox let it through too.
 *
 * Landlock must be active (Debian's kernels list it first in CONFIG_LSM):
 * the test fails, not skips, without it.  Each check runs in a child that
 * enters the sandbox, which cannot be left.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "omx_test.h"
#include "omx_stats.h"

/* What the sandbox handles: reading and executing files. */
#define HANDLED	(LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_EXECUTE)

FIXTURE(landlock) {
	struct omx_ws ws;
};

FIXTURE_VARIANT(landlock) {
	int policy;
};

FIXTURE_VARIANT_ADD(landlock, policy_0) { .policy = 0 };
FIXTURE_VARIANT_ADD(landlock, policy_3) { .policy = 3 };

FIXTURE_SETUP(landlock)
{
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0,
			   LANDLOCK_CREATE_RULESET_VERSION);

	ASSERT_LE(1, abi) TH_LOG("Landlock is not active: %s", strerror(errno));
	ASSERT_EQ(0, omx_ws_create(&self->ws));
	/* read/: the sandbox may read; run/: it may read and execute. */
	ASSERT_EQ(0, omx_ws_mount_tmpfs(&self->ws, "read", 0));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(&self->ws, "run", 0));
	ASSERT_EQ(0, omx_ws_file(&self->ws, "read/script", 0755, 0, 0));
	ASSERT_EQ(0, omx_ws_file(&self->ws, "run/script", 0755, 0, 0));
	ASSERT_EQ(0, omx_policy_set(variant->policy));
}

FIXTURE_TEARDOWN(landlock)
{
	EXPECT_EQ(0, omx_policy_set(0));
	EXPECT_EQ(0, omx_ws_destroy(&self->ws));
}

static int allow(int ruleset, const char *dir, __u64 access)
{
	struct landlock_path_beneath_attr rule = { .allowed_access = access };
	int ret;

	rule.parent_fd = open(dir, O_PATH | O_CLOEXEC);
	if (rule.parent_fd < 0)
		return -errno;
	ret = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH,
		      &rule, 0) ? -errno : 0;
	close(rule.parent_fd);
	return ret;
}

/* Enter the sandbox: read under read/ and run/, execute under run/ only. */
static int enter_sandbox(const struct omx_ws *ws)
{
	struct landlock_ruleset_attr attr = { .handled_access_fs = HANDLED };
	int ruleset, ret;

	ruleset = syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr), 0);
	if (ruleset < 0)
		return -errno;
	ret = allow(ruleset, omx_ws_path(ws, "read"),
		    LANDLOCK_ACCESS_FS_READ_FILE);
	if (!ret)
		ret = allow(ruleset, omx_ws_path(ws, "run"), HANDLED);
	if (!ret && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		ret = -errno;
	if (!ret && syscall(SYS_landlock_restrict_self, ruleset, 0))
		ret = -errno;
	close(ruleset);
	return ret;
}

struct sandboxed {
	const struct omx_ws *ws;
	const char *rel;
	enum { PLAIN, MAYEXEC, CHECK } how;
};

static int open_sandboxed(void *arg)
{
	const struct sandboxed *s = arg;
	const char *path = omx_ws_path(s->ws, s->rel);
	int ret = enter_sandbox(s->ws);

	if (ret)
		return 100;
	switch (s->how) {
	case PLAIN:
		return -omx_probe_openat2(AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0);
	case MAYEXEC:
		return -omx_probe_openat2(AT_FDCWD, path,
					  O_RDONLY | O_CLOEXEC | O_MAYEXEC, 0);
	case CHECK:
		return -omx_execveat_probe(AT_FDCWD, path, AT_EXECVE_CHECK);
	}
	return 101;
}

/* The errno of the open (or check) in a sandboxed child, 0 on success. */
static int sandboxed(const struct omx_ws *ws, const char *rel, int how)
{
	struct sandboxed s = { .ws = ws, .rel = rel, .how = how };

	return omx_in_child(open_sandboxed, &s);
}

TEST_F(landlock, o_mayexec_needs_the_execute_right)
{
	EXPECT_EQ(0, sandboxed(&self->ws, "read/script", PLAIN));
	EXPECT_EQ(EACCES, sandboxed(&self->ws, "read/script", MAYEXEC))
		TH_LOG("O_MAYEXEC at policy %d of a file the sandbox may read, not execute",
		       variant->policy);
	EXPECT_EQ(0, sandboxed(&self->ws, "run/script", MAYEXEC));
}

/*
 * The module records an open's outcome: one the policy allows and the
 * sandbox refuses is not counted as allowed (nor audited as such: both are
 * recorded in one place, once every check has let the open through).
 */
TEST_F(landlock, refused_by_the_sandbox_is_not_recorded_as_allowed)
{
	struct omx_stats before, delta;

	ASSERT_EQ(0, omx_stats_read(&before));
	EXPECT_EQ(EACCES, sandboxed(&self->ws, "read/script", MAYEXEC));
	ASSERT_EQ(0, omx_stats_delta(&before, &delta));
	EXPECT_EQ(0, delta.count[OMX_STAT_ALLOWED])
		TH_LOG("an open the sandbox refused, recorded: %s",
		       omx_stats_str(&delta));

	/* The control: the open the sandbox lets through is. */
	ASSERT_EQ(0, omx_stats_read(&before));
	EXPECT_EQ(0, sandboxed(&self->ws, "run/script", MAYEXEC));
	ASSERT_EQ(0, omx_stats_delta(&before, &delta));
	EXPECT_EQ(1, delta.count[OMX_STAT_ALLOWED])
		TH_LOG("an allowed open, recorded: %s", omx_stats_str(&delta));
}

/* The control: the exec check asks the same right, as execve() does. */
TEST_F(landlock, exec_check_needs_the_execute_right)
{
	if (!omx_exec_check_answered())
		SKIP(return, "no AT_EXECVE_CHECK (omayexec with exec_check=0?)");
	EXPECT_EQ(EACCES, sandboxed(&self->ws, "read/script", CHECK));
	EXPECT_EQ(0, sandboxed(&self->ws, "run/script", CHECK));
}

/* Outside the sandbox nothing is refused: it was the sandbox. */
TEST_F(landlock, unsandboxed_o_mayexec_opens)
{
	EXPECT_EQ(0, omx_probe_openat2(self->ws.dirfd, "read/script",
				       O_RDONLY | O_CLOEXEC | O_MAYEXEC, 0));
}

TEST_HARNESS_MAIN
