// SPDX-License-Identifier: GPL-2.0
/*
 * The 2018 RFC (v1) interface is off unless the module is loaded with
 * rfc_v1=1 (rfc_v1_test covers it on):
 * - the rfc_v1 parameter reads N and cannot be changed at run time;
 * - kernel.yama.open_mayexec_enforce does not exist (Yama's own sysctls do);
 * - open(2) and openat(2) ignore O_MAYEXEC: whatever openat2(2) would
 *   refuse opens, as a plain open, and no decision is counted.
 *
 * Every test skips when the module is loaded with rfc_v1=1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "omx_test.h"
#include "omx_stats.h"
#include "module.h"

#define REQUIRE_RFC_V1_OFF() do {					\
	if (omx_rfc_v1_enabled())						\
		SKIP(return, "module loaded with rfc_v1=1");		\
} while (0)

TEST(rfc_v1_parameter_reads_n)
{
	char buf[8];
	struct stat st;

	REQUIRE_RFC_V1_OFF();
	ASSERT_EQ(0, stat(OMX_RFC_V1_PARAM, &st));
	EXPECT_EQ((mode_t)0444, st.st_mode & 07777);
	ASSERT_EQ(0, lc_read_file(OMX_RFC_V1_PARAM, buf, sizeof(buf)));
	EXPECT_STREQ("N", buf);
	EXPECT_EQ(-EACCES, lc_write_file(OMX_RFC_V1_PARAM, "Y"));
	ASSERT_EQ(0, lc_read_file(OMX_RFC_V1_PARAM, buf, sizeof(buf)));
	EXPECT_STREQ("N", buf);
}

TEST(no_yama_sysctl)
{
	REQUIRE_RFC_V1_OFF();
	/* Yama is built in: its directory is there all the same. */
	ASSERT_EQ(0, access("/proc/sys/kernel/yama/ptrace_scope", F_OK));
	EXPECT_EQ(-1, access(OMX_RFC_V1_SYSCTL, F_OK));
	EXPECT_EQ(ENOENT, errno);
}

FIXTURE(off) {
	struct omx_ws ws;
};

FIXTURE_SETUP(off)
{
	struct omx_ws *ws = &self->ws;

	ASSERT_EQ(0, omx_ws_create(ws));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(ws, "exec", 0));
	ASSERT_EQ(0, omx_ws_file(ws, "exec/data", 0644, 0, 0));
	ASSERT_EQ(0, mkdirat(ws->dirfd, "exec/directory", 0644));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(ws, "noexec", MS_NOEXEC));
	ASSERT_EQ(0, omx_ws_file(ws, "noexec/script", 0755, 0, 0));
	ASSERT_EQ(0, omx_policy_set(3));
}

FIXTURE_TEARDOWN(off)
{
	EXPECT_EQ(0, omx_policy_set(0));
	EXPECT_EQ(0, omx_ws_destroy(&self->ws));
}

/* What the RFC would refuse, and openat2(2) does refuse, under policy 3. */
TEST_F(off, open_and_openat_ignore_o_mayexec)
{
	static const char *const paths[] = {
		"noexec/script", "exec/data", "exec/directory",
	};
	struct omx_stats before, delta;
	unsigned int i;
	int fd, s;

	REQUIRE_RFC_V1_OFF();
	ASSERT_EQ(0, omx_stats_read(&before));
	for (i = 0; i < ARRAY_LEN(paths); i++) {
		fd = open(omx_ws_path(&self->ws, paths[i]),
			  O_RDONLY | O_CLOEXEC | O_MAYEXEC);
		ASSERT_LE(0, fd) TH_LOG("open(%s, O_MAYEXEC)", paths[i]);
		EXPECT_EQ(0, omx_fdinfo_flags(fd) & OMX_EXEC_OPEN_BITS);
		close(fd);
		fd = openat(self->ws.dirfd, paths[i],
			    O_RDONLY | O_CLOEXEC | O_MAYEXEC);
		ASSERT_LE(0, fd) TH_LOG("openat(%s, O_MAYEXEC)", paths[i]);
		EXPECT_EQ(0, omx_fdinfo_flags(fd) & OMX_EXEC_OPEN_BITS);
		close(fd);
	}
	ASSERT_EQ(0, omx_stats_delta(&before, &delta));
	for (s = 0; s < OMX_NR_STATS; s++)
		EXPECT_EQ(0, delta.count[s]) TH_LOG("%s", omx_stats_str(&delta));
	/* The control: openat2(2) refuses them. */
	for (i = 0; i < ARRAY_LEN(paths); i++)
		EXPECT_EQ(-EACCES, omx_probe_openat2(self->ws.dirfd, paths[i],
				O_RDONLY | O_CLOEXEC | O_MAYEXEC, 0));
}

TEST_HARNESS_MAIN
