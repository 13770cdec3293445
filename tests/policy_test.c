// SPDX-License-Identifier: GPL-2.0
/*
 * O_MAYEXEC policy matrix: which openat2(O_RDONLY | O_MAYEXEC) opens of a
 * regular file or a directory each value of fs.open_mayexec_enforce refuses.
 *
 * - mayexec_policy: the seeds' v5 selftest matrix (4 mount/file fixtures x
 *   policies, directory and file, with and without DAC override), here with
 *   policy 0 added; the expected results are the variant table.
 * - exec_permission: policy bit 2 (file) for root, root without DAC
 *   override and an unprivileged user, on owner/group/other x bits and ACLs.
 * - noexec_superblock: policy bit 1 (mount) on /proc and /sys, whose
 *   superblocks are SB_I_NOEXEC without any MNT_NOEXEC on the mount.
 *
 * Every test also checks that the same path opens without O_MAYEXEC, and
 * with O_MAYEXEC through open(2) and openat(2), which ignore the bit.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "omx_test.h"

#define ALLOWED		0
#define DENIED		(-EACCES)

/*
 * Open @path (relative to @dfd) three ways with O_MAYEXEC and once without:
 * only openat2(2) honours the bit, and only it may give @mayexec_result.
 */
static void check_mayexec_open(struct __test_metadata *_metadata, int dfd,
			       const char *path, int mayexec_result)
{
	EXPECT_EQ(0, omx_probe_openat2(dfd, path, O_RDONLY | O_CLOEXEC, 0))
		TH_LOG("plain openat2(%s)", path);
	EXPECT_EQ(0, omx_probe_openat(dfd, path,
				      O_RDONLY | O_CLOEXEC | O_MAYEXEC))
		TH_LOG("openat(%s, O_MAYEXEC) must ignore the bit", path);
	EXPECT_EQ(mayexec_result,
		  omx_probe_openat2(dfd, path,
				    O_RDONLY | O_CLOEXEC | O_MAYEXEC, 0))
		TH_LOG("openat2(%s, O_MAYEXEC) under policy %d", path,
		       omx_policy_read());
}

/* ---- The seeds' v5 matrix -------------------------------------------- */

FIXTURE(mayexec_policy) {
	struct omx_ws ws;
};

FIXTURE_VARIANT(mayexec_policy) {
	int policy;
	bool noexec_mount;	/* the tmpfs holding "mnt/file" and "mnt/directory" */
	mode_t mode;		/* of both: 0500 (x) or 0400 (no x), owned by root */
	int file_result;	/* openat2(file, O_MAYEXEC) */
	int directory_result;	/* openat2(directory, O_MAYEXEC) */
};

/* Policy 0: nothing is refused, not even a directory. */
FIXTURE_VARIANT_ADD(mayexec_policy, exec_mount__mode_0500__policy_0) {
	.policy = 0, .noexec_mount = false, .mode = 0500,
	.file_result = ALLOWED, .directory_result = ALLOWED,
};
FIXTURE_VARIANT_ADD(mayexec_policy, exec_mount__mode_0400__policy_0) {
	.policy = 0, .noexec_mount = false, .mode = 0400,
	.file_result = ALLOWED, .directory_result = ALLOWED,
};
FIXTURE_VARIANT_ADD(mayexec_policy, noexec_mount__mode_0500__policy_0) {
	.policy = 0, .noexec_mount = true, .mode = 0500,
	.file_result = ALLOWED, .directory_result = ALLOWED,
};
FIXTURE_VARIANT_ADD(mayexec_policy, noexec_mount__mode_0400__policy_0) {
	.policy = 0, .noexec_mount = true, .mode = 0400,
	.file_result = ALLOWED, .directory_result = ALLOWED,
};

/* Policy 1 (mount): only the noexec mount matters for files. */
FIXTURE_VARIANT_ADD(mayexec_policy, exec_mount__mode_0500__policy_1) {
	.policy = 1, .noexec_mount = false, .mode = 0500,
	.file_result = ALLOWED, .directory_result = DENIED,
};
FIXTURE_VARIANT_ADD(mayexec_policy, exec_mount__mode_0400__policy_1) {
	.policy = 1, .noexec_mount = false, .mode = 0400,
	.file_result = ALLOWED, .directory_result = DENIED,
};
FIXTURE_VARIANT_ADD(mayexec_policy, noexec_mount__mode_0500__policy_1) {
	.policy = 1, .noexec_mount = true, .mode = 0500,
	.file_result = DENIED, .directory_result = DENIED,
};
FIXTURE_VARIANT_ADD(mayexec_policy, noexec_mount__mode_0400__policy_1) {
	.policy = 1, .noexec_mount = true, .mode = 0400,
	.file_result = DENIED, .directory_result = DENIED,
};

/* Policy 2 (file): only the x bit matters for files. */
FIXTURE_VARIANT_ADD(mayexec_policy, exec_mount__mode_0500__policy_2) {
	.policy = 2, .noexec_mount = false, .mode = 0500,
	.file_result = ALLOWED, .directory_result = DENIED,
};
FIXTURE_VARIANT_ADD(mayexec_policy, exec_mount__mode_0400__policy_2) {
	.policy = 2, .noexec_mount = false, .mode = 0400,
	.file_result = DENIED, .directory_result = DENIED,
};
FIXTURE_VARIANT_ADD(mayexec_policy, noexec_mount__mode_0500__policy_2) {
	.policy = 2, .noexec_mount = true, .mode = 0500,
	.file_result = ALLOWED, .directory_result = DENIED,
};
FIXTURE_VARIANT_ADD(mayexec_policy, noexec_mount__mode_0400__policy_2) {
	.policy = 2, .noexec_mount = true, .mode = 0400,
	.file_result = DENIED, .directory_result = DENIED,
};

/* Policy 3 (mount and file): either one refuses. */
FIXTURE_VARIANT_ADD(mayexec_policy, exec_mount__mode_0500__policy_3) {
	.policy = 3, .noexec_mount = false, .mode = 0500,
	.file_result = ALLOWED, .directory_result = DENIED,
};
FIXTURE_VARIANT_ADD(mayexec_policy, exec_mount__mode_0400__policy_3) {
	.policy = 3, .noexec_mount = false, .mode = 0400,
	.file_result = DENIED, .directory_result = DENIED,
};
FIXTURE_VARIANT_ADD(mayexec_policy, noexec_mount__mode_0500__policy_3) {
	.policy = 3, .noexec_mount = true, .mode = 0500,
	.file_result = DENIED, .directory_result = DENIED,
};
FIXTURE_VARIANT_ADD(mayexec_policy, noexec_mount__mode_0400__policy_3) {
	.policy = 3, .noexec_mount = true, .mode = 0400,
	.file_result = DENIED, .directory_result = DENIED,
};

FIXTURE_SETUP(mayexec_policy)
{
	ASSERT_EQ(0, omx_ws_create(&self->ws));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(&self->ws, "mnt",
					variant->noexec_mount ? MS_NOEXEC : 0));
	ASSERT_EQ(0, omx_ws_file(&self->ws, "mnt/file", variant->mode, 0, 0));
	ASSERT_EQ(0, mkdirat(self->ws.dirfd, "mnt/directory", variant->mode));
	ASSERT_EQ(0, omx_policy_set(variant->policy));
}

FIXTURE_TEARDOWN(mayexec_policy)
{
	EXPECT_EQ(0, omx_policy_set(0));
	EXPECT_EQ(0, omx_ws_destroy(&self->ws));
}

TEST_F(mayexec_policy, file_as_root)
{
	ASSERT_EQ(0, omx_dac_override(true));
	check_mayexec_open(_metadata, self->ws.dirfd, "mnt/file",
			   variant->file_result);
}

TEST_F(mayexec_policy, file_as_root_without_dac_override)
{
	ASSERT_EQ(0, omx_dac_override(false));
	check_mayexec_open(_metadata, self->ws.dirfd, "mnt/file",
			   variant->file_result);
	ASSERT_EQ(0, omx_dac_override(true));
}

TEST_F(mayexec_policy, directory_as_root)
{
	ASSERT_EQ(0, omx_dac_override(true));
	check_mayexec_open(_metadata, self->ws.dirfd, "mnt/directory",
			   variant->directory_result);
}

TEST_F(mayexec_policy, directory_as_root_without_dac_override)
{
	ASSERT_EQ(0, omx_dac_override(false));
	check_mayexec_open(_metadata, self->ws.dirfd, "mnt/directory",
			   variant->directory_result);
	ASSERT_EQ(0, omx_dac_override(true));
}

/* ---- Policy bit 2: the kernel's exec permission, per caller ----------- */

FIXTURE(exec_permission) {
	struct omx_ws ws;
};

FIXTURE_VARIANT(exec_permission) {
	enum omx_caller caller;
	uid_t owner;		/* of "exec/file", on an exec mount */
	mode_t mode;
	int acl_user_perm;	/* rwx of an ACL entry for uid 1000, or -1 */
	int plain_result;	/* openat2(file, O_RDONLY) by caller */
	int exec_check_result;	/* openat2(file, O_MAYEXEC) by caller, policy 2 */
};

/* Root, even with CAP_DAC_OVERRIDE, needs at least one x bit. */
FIXTURE_VARIANT_ADD(exec_permission, root__mode_0600) {
	.caller = OMX_ROOT, .owner = 0, .mode = 0600, .acl_user_perm = -1,
	.plain_result = ALLOWED, .exec_check_result = DENIED,
};
FIXTURE_VARIANT_ADD(exec_permission, root__mode_0000) {
	.caller = OMX_ROOT, .owner = 0, .mode = 0000, .acl_user_perm = -1,
	.plain_result = ALLOWED, .exec_check_result = DENIED,
};
FIXTURE_VARIANT_ADD(exec_permission, root__mode_0100_owned_by_user) {
	.caller = OMX_ROOT, .owner = OMX_USER_UID, .mode = 0100,
	.acl_user_perm = -1,
	.plain_result = ALLOWED, .exec_check_result = ALLOWED,
};
FIXTURE_VARIANT_ADD(exec_permission, root__mode_0010_owned_by_user) {
	.caller = OMX_ROOT, .owner = OMX_USER_UID, .mode = 0010,
	.acl_user_perm = -1,
	.plain_result = ALLOWED, .exec_check_result = ALLOWED,
};
FIXTURE_VARIANT_ADD(exec_permission, root__mode_0001_owned_by_user) {
	.caller = OMX_ROOT, .owner = OMX_USER_UID, .mode = 0001,
	.acl_user_perm = -1,
	.plain_result = ALLOWED, .exec_check_result = ALLOWED,
};

/* Root without DAC override is judged by the mode bits of its class. */
FIXTURE_VARIANT_ADD(exec_permission, root_without_dac_override__mode_0500_owned) {
	.caller = OMX_ROOT_WITHOUT_DAC_OVERRIDE, .owner = 0, .mode = 0500,
	.acl_user_perm = -1,
	.plain_result = ALLOWED, .exec_check_result = ALLOWED,
};
FIXTURE_VARIANT_ADD(exec_permission, root_without_dac_override__mode_0744_owned_by_user) {
	.caller = OMX_ROOT_WITHOUT_DAC_OVERRIDE, .owner = OMX_USER_UID,
	.mode = 0744, .acl_user_perm = -1,
	.plain_result = ALLOWED, .exec_check_result = DENIED,
};
FIXTURE_VARIANT_ADD(exec_permission, root_without_dac_override__mode_0745_owned_by_user) {
	.caller = OMX_ROOT_WITHOUT_DAC_OVERRIDE, .owner = OMX_USER_UID,
	.mode = 0745, .acl_user_perm = -1,
	.plain_result = ALLOWED, .exec_check_result = ALLOWED,
};
/* An ordinary read refusal stays what it is. */
FIXTURE_VARIANT_ADD(exec_permission, root_without_dac_override__mode_0100_owned_by_user) {
	.caller = OMX_ROOT_WITHOUT_DAC_OVERRIDE, .owner = OMX_USER_UID,
	.mode = 0100, .acl_user_perm = -1,
	.plain_result = DENIED, .exec_check_result = DENIED,
};

/* An unprivileged user needs the x bit of its own class. */
FIXTURE_VARIANT_ADD(exec_permission, user__mode_0500_owned) {
	.caller = OMX_USER, .owner = OMX_USER_UID, .mode = 0500,
	.acl_user_perm = -1,
	.plain_result = ALLOWED, .exec_check_result = ALLOWED,
};
FIXTURE_VARIANT_ADD(exec_permission, user__mode_0400_owned) {
	.caller = OMX_USER, .owner = OMX_USER_UID, .mode = 0400,
	.acl_user_perm = -1,
	.plain_result = ALLOWED, .exec_check_result = DENIED,
};
/* The owner class has no x: the x bits of group and others do not help. */
FIXTURE_VARIANT_ADD(exec_permission, user__mode_0455_owned) {
	.caller = OMX_USER, .owner = OMX_USER_UID, .mode = 0455,
	.acl_user_perm = -1,
	.plain_result = ALLOWED, .exec_check_result = DENIED,
};
FIXTURE_VARIANT_ADD(exec_permission, user__mode_0755_owned_by_root) {
	.caller = OMX_USER, .owner = 0, .mode = 0755, .acl_user_perm = -1,
	.plain_result = ALLOWED, .exec_check_result = ALLOWED,
};
FIXTURE_VARIANT_ADD(exec_permission, user__mode_0754_owned_by_root) {
	.caller = OMX_USER, .owner = 0, .mode = 0754, .acl_user_perm = -1,
	.plain_result = ALLOWED, .exec_check_result = DENIED,
};
FIXTURE_VARIANT_ADD(exec_permission, user__mode_0711_owned_by_root) {
	.caller = OMX_USER, .owner = 0, .mode = 0711, .acl_user_perm = -1,
	.plain_result = DENIED, .exec_check_result = DENIED,
};

/* ACLs: the full permission check, not the mode bits alone. */
FIXTURE_VARIANT_ADD(exec_permission, user__mode_0644_owned_by_root__acl_grants_rx) {
	.caller = OMX_USER, .owner = 0, .mode = 0644, .acl_user_perm = 05,
	.plain_result = ALLOWED, .exec_check_result = ALLOWED,
};
FIXTURE_VARIANT_ADD(exec_permission, user__mode_0755_owned_by_root__acl_grants_r_only) {
	.caller = OMX_USER, .owner = 0, .mode = 0755, .acl_user_perm = 04,
	.plain_result = ALLOWED, .exec_check_result = DENIED,
};

FIXTURE_SETUP(exec_permission)
{
	int fd, ret;

	ASSERT_EQ(0, omx_ws_create(&self->ws));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(&self->ws, "exec", 0));
	ASSERT_EQ(0, omx_ws_file(&self->ws, "exec/file", variant->mode,
				 variant->owner, variant->owner));
	if (variant->acl_user_perm >= 0) {
		fd = openat(self->ws.dirfd, "exec/file", O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, fd);
		ret = omx_set_acl_user(fd, OMX_USER_UID, variant->acl_user_perm);
		close(fd);
		if (ret == -EOPNOTSUPP)
			SKIP(return, "no POSIX ACLs on tmpfs");
		ASSERT_EQ(0, ret);
	}
}

FIXTURE_TEARDOWN(exec_permission)
{
	EXPECT_EQ(0, omx_policy_set(0));
	EXPECT_EQ(0, omx_ws_destroy(&self->ws));
}

struct caller_open {
	enum omx_caller caller;
	int dirfd;
	__u64 flags;
};

static int open_as_caller(void *arg)
{
	const struct caller_open *op = arg;
	int ret = omx_become(op->caller);

	if (ret)
		return 1000 + ret;	/* not an open result: fails the test */
	return omx_probe_openat2(op->dirfd, "exec/file", op->flags, 0);
}

static void check_exec_permission(struct __test_metadata *_metadata,
				  FIXTURE_DATA(exec_permission) *self,
				  const FIXTURE_VARIANT(exec_permission) *variant,
				  int policy, int mayexec_result)
{
	struct caller_open op = {
		.caller = variant->caller,
		.dirfd = self->ws.dirfd,
	};

	ASSERT_EQ(0, omx_policy_set(policy));
	op.flags = O_RDONLY | O_CLOEXEC;
	EXPECT_EQ(variant->plain_result, omx_in_child(open_as_caller, &op))
		TH_LOG("plain openat2 as %s", omx_caller_name(variant->caller));
	op.flags |= O_MAYEXEC;
	EXPECT_EQ(mayexec_result, omx_in_child(open_as_caller, &op))
		TH_LOG("openat2(O_MAYEXEC) as %s under policy %d",
		       omx_caller_name(variant->caller), policy);
}

TEST_F(exec_permission, policy_0_changes_nothing)
{
	check_exec_permission(_metadata, self, variant, 0,
			      variant->plain_result);
}

TEST_F(exec_permission, policy_1_changes_nothing_on_exec_mount)
{
	check_exec_permission(_metadata, self, variant, 1,
			      variant->plain_result);
}

TEST_F(exec_permission, policy_2_requires_exec_permission)
{
	check_exec_permission(_metadata, self, variant, 2,
			      variant->exec_check_result);
}

TEST_F(exec_permission, policy_3_requires_exec_permission)
{
	check_exec_permission(_metadata, self, variant, 3,
			      variant->exec_check_result);
}

/* ---- Policy bit 1 on SB_I_NOEXEC superblocks ------------------------- */

FIXTURE(noexec_superblock) {
	struct omx_ws ws;
};

FIXTURE_VARIANT(noexec_superblock) {
	const char *fstype;
	const char *file;	/* a readable regular file in it */
};

FIXTURE_VARIANT_ADD(noexec_superblock, proc) {
	.fstype = "proc", .file = "fs/self/status",
};
FIXTURE_VARIANT_ADD(noexec_superblock, sysfs) {
	.fstype = "sysfs", .file = "fs/kernel/uevent_seqnum",
};

FIXTURE_SETUP(noexec_superblock)
{
	struct statvfs st;

	ASSERT_EQ(0, omx_ws_create(&self->ws));
	ASSERT_EQ(0, mkdirat(self->ws.dirfd, "fs", 0755));
	/* A fresh mount without MS_NOEXEC: only the superblock says noexec. */
	ASSERT_EQ(0, mount(variant->fstype, omx_ws_path(&self->ws, "fs"),
			   variant->fstype, 0, NULL));
	ASSERT_EQ(0, statvfs(omx_ws_path(&self->ws, "fs"), &st));
	ASSERT_EQ(0, (int)(st.f_flag & ST_NOEXEC));
}

FIXTURE_TEARDOWN(noexec_superblock)
{
	EXPECT_EQ(0, omx_policy_set(0));
	EXPECT_EQ(0, omx_ws_destroy(&self->ws));
}

TEST_F(noexec_superblock, policy_0_allows)
{
	ASSERT_EQ(0, omx_policy_set(0));
	check_mayexec_open(_metadata, self->ws.dirfd, variant->file, ALLOWED);
}

TEST_F(noexec_superblock, policy_1_refuses)
{
	ASSERT_EQ(0, omx_policy_set(1));
	check_mayexec_open(_metadata, self->ws.dirfd, variant->file, DENIED);
}

TEST_F(noexec_superblock, policy_1_refuses_the_usual_mount_too)
{
	char path[64];

	ASSERT_EQ(0, omx_policy_set(1));
	snprintf(path, sizeof(path), "/%s/%s",
		 strcmp(variant->fstype, "proc") ? "sys" : "proc",
		 strchr(variant->file, '/') + 1);
	check_mayexec_open(_metadata, AT_FDCWD, path, DENIED);
}

TEST_HARNESS_MAIN
