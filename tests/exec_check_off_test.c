// SPDX-License-Identifier: GPL-2.0
/*
 * With exec_check=0 the module leaves execveat(2) and the securebits alone
 * (exec_check_test and securebits_test cover it on): the parameter reads
 * N, AT_EXECVE_CHECK is EINVAL and the exec securebits EPERM as on the
 * stock kernel, and an execveat(2) without the flag still executes.
 *
 * tests/run-check loads the module with exec_check=0 for this suite; every
 * test skips when the module is absent or loaded with exec_check=1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/omayexec.h>

#include "omx_test.h"
#include "module.h"

FIXTURE(off) {
	struct omx_ws ws;
};

FIXTURE_SETUP(off)
{
	self->ws.dirfd = -1;
	if (!omx_module_loaded())
		SKIP(return, "omayexec not loaded");
	if (omx_exec_check_enabled())
		SKIP(return, "module loaded with exec_check=1");
	ASSERT_EQ(0, omx_ws_create(&self->ws));
	ASSERT_EQ(0, omx_ws_copy_self(&self->ws, "prog", 0755));
}

FIXTURE_TEARDOWN(off)
{
	if (self->ws.dirfd >= 0)
		omx_ws_destroy(&self->ws);
}

TEST_F(off, parameter_is_read_only)
{
	char buf[8];
	struct stat st;

	ASSERT_EQ(0, stat(OMX_EXEC_CHECK_PARAM, &st));
	EXPECT_EQ((mode_t)0444, st.st_mode & 07777);
	EXPECT_EQ(-EACCES, lc_write_file(OMX_EXEC_CHECK_PARAM, "Y"));
	ASSERT_EQ(0, lc_read_file(OMX_EXEC_CHECK_PARAM, buf, sizeof(buf)));
	EXPECT_STREQ("N", buf);
}

TEST_F(off, check_is_einval)
{
	EXPECT_EQ(-EINVAL, omx_execveat_probe(self->ws.dirfd, "prog", AT_EXECVE_CHECK));
	EXPECT_EQ(-EINVAL, omx_execveat_probe(self->ws.dirfd, "",
					  AT_EMPTY_PATH | AT_EXECVE_CHECK));
}

TEST_F(off, plain_execveat_executes)
{
	EXPECT_EQ(OMX_EXEC_PROBE_STATUS,
		  omx_run_execveat_probe(self->ws.dirfd, "prog"));
}

TEST_F(off, exec_securebits_are_eperm)
{
	int bits = prctl(PR_GET_SECUREBITS);

	ASSERT_LE(0, bits);
	EXPECT_EQ(-1, prctl(PR_SET_SECUREBITS, bits | SECBIT_EXEC_RESTRICT_FILE));
	EXPECT_EQ(EPERM, errno);
	EXPECT_EQ(bits, prctl(PR_GET_SECUREBITS));
}

TEST_HARNESS_MAIN
