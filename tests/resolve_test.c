// SPDX-License-Identifier: GPL-2.0
/*
 * O_MAYEXEC judges the object actually opened, after path resolution:
 * a symlink at its target, a path through a bind mount by that bind
 * mount's flags, a /proc/self/fd/N magic link by the file and mount the
 * fd holds, a memfd by its mode.  Errors of the resolution itself (ENOENT,
 * ELOOP, ENOTDIR, EXDEV) stay what they are under every policy.
 *
 * The workspace (an exec tmpfs) holds:
 *   exec/                  exec tmpfs
 *     script (0755), data (0644)
 *     link-to-noexec-script -> ../noexec/script
 *     link-to-exec-script   -> script
 *     link-to-data          -> data
 *     dangling              -> ../noexec/missing
 *   noexec/                noexec tmpfs
 *     script (0755)
 *     link-to-exec-script   -> ../exec/script
 *     submount/             exec tmpfs, with script (0755)
 *   exec-bound-noexec/     bind mount of exec/, remounted noexec
 *   noexec-bound-exec/     bind mount of noexec/, remounted exec
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "omx_test.h"

FIXTURE(resolve) {
	struct omx_ws ws;
};

FIXTURE_VARIANT(resolve) {
	const char *path;	/* relative to the workspace */
	bool via_magic_link;	/* open /proc/self/fd/N of an O_PATH fd of path */
	__u64 flags;		/* besides O_RDONLY */
	__u64 resolve;		/* RESOLVE_* */
	int plain_result;	/* openat2 without O_MAYEXEC */
	bool on_noexec_mount;	/* what is opened: refused by policy bit 1 */
	bool without_exec_perm;	/* refused by policy bit 2 */
};

FIXTURE_VARIANT_ADD(resolve, file_on_exec_mount) {
	.path = "exec/script",
};
FIXTURE_VARIANT_ADD(resolve, file_on_noexec_mount) {
	.path = "noexec/script", .on_noexec_mount = true,
};
FIXTURE_VARIANT_ADD(resolve, file_without_x) {
	.path = "exec/data", .without_exec_perm = true,
};

/* Symlinks: judged at the target, whatever mount the link is on. */
FIXTURE_VARIANT_ADD(resolve, symlink_on_exec_mount_to_noexec_mount) {
	.path = "exec/link-to-noexec-script", .on_noexec_mount = true,
};
FIXTURE_VARIANT_ADD(resolve, symlink_on_noexec_mount_to_exec_mount) {
	.path = "noexec/link-to-exec-script",
};
FIXTURE_VARIANT_ADD(resolve, symlink_to_file_without_x) {
	.path = "exec/link-to-data", .without_exec_perm = true,
};
FIXTURE_VARIANT_ADD(resolve, symlink_with_o_nofollow_is_eloop) {
	.path = "exec/link-to-exec-script", .flags = O_NOFOLLOW,
	.plain_result = -ELOOP,
};
FIXTURE_VARIANT_ADD(resolve, symlink_with_resolve_no_symlinks_is_eloop) {
	.path = "exec/link-to-exec-script", .resolve = RESOLVE_NO_SYMLINKS,
	.plain_result = -ELOOP,
};
FIXTURE_VARIANT_ADD(resolve, dangling_symlink_is_enoent) {
	.path = "exec/dangling", .plain_result = -ENOENT,
};

/* Mounts: the mount the path goes through, not the filesystem. */
FIXTURE_VARIANT_ADD(resolve, noexec_bind_mount_of_exec_mount) {
	.path = "exec-bound-noexec/script", .on_noexec_mount = true,
};
FIXTURE_VARIANT_ADD(resolve, exec_bind_mount_of_noexec_mount) {
	.path = "noexec-bound-exec/script",
};
FIXTURE_VARIANT_ADD(resolve, exec_mount_below_noexec_mount) {
	.path = "noexec/submount/script",
};
FIXTURE_VARIANT_ADD(resolve, resolve_no_xdev_is_exdev) {
	.path = "exec/script", .resolve = RESOLVE_NO_XDEV,
	.plain_result = -EXDEV,
};
FIXTURE_VARIANT_ADD(resolve, resolve_beneath_escape_is_exdev) {
	.path = "exec/../../", .resolve = RESOLVE_BENEATH,
	.plain_result = -EXDEV,
};

/* Magic links (on SB_I_NOEXEC /proc): what the fd points to. */
FIXTURE_VARIANT_ADD(resolve, magic_link_to_file_on_exec_mount) {
	.path = "exec/script", .via_magic_link = true,
};
FIXTURE_VARIANT_ADD(resolve, magic_link_to_file_on_noexec_mount) {
	.path = "noexec/script", .via_magic_link = true,
	.on_noexec_mount = true,
};
FIXTURE_VARIANT_ADD(resolve, magic_link_to_noexec_bind_mount_of_exec_mount) {
	.path = "exec-bound-noexec/script", .via_magic_link = true,
	.on_noexec_mount = true,
};
FIXTURE_VARIANT_ADD(resolve, magic_link_to_exec_bind_mount_of_noexec_mount) {
	.path = "noexec-bound-exec/script", .via_magic_link = true,
};
FIXTURE_VARIANT_ADD(resolve, magic_link_to_file_without_x) {
	.path = "exec/data", .via_magic_link = true,
	.without_exec_perm = true,
};
FIXTURE_VARIANT_ADD(resolve, magic_link_to_symlink_target_on_noexec_mount) {
	.path = "exec/link-to-noexec-script", .via_magic_link = true,
	.on_noexec_mount = true,
};
FIXTURE_VARIANT_ADD(resolve, magic_link_with_resolve_no_magiclinks_is_eloop) {
	.path = "exec/script", .via_magic_link = true,
	.resolve = RESOLVE_NO_MAGICLINKS, .plain_result = -ELOOP,
};

/* Lookup errors. */
FIXTURE_VARIANT_ADD(resolve, missing_file_is_enoent) {
	.path = "exec/missing", .plain_result = -ENOENT,
};
FIXTURE_VARIANT_ADD(resolve, missing_directory_is_enoent) {
	.path = "noexec/missing/script", .plain_result = -ENOENT,
};
FIXTURE_VARIANT_ADD(resolve, file_used_as_directory_is_enotdir) {
	.path = "exec/script/", .plain_result = -ENOTDIR,
};

FIXTURE_SETUP(resolve)
{
	struct omx_ws *ws = &self->ws;

	ASSERT_EQ(0, omx_ws_create(ws));

	ASSERT_EQ(0, omx_ws_mount_tmpfs(ws, "exec", 0));
	ASSERT_EQ(0, omx_ws_file(ws, "exec/script", 0755, 0, 0));
	ASSERT_EQ(0, omx_ws_file(ws, "exec/data", 0644, 0, 0));
	ASSERT_EQ(0, symlinkat("../noexec/script", ws->dirfd,
			       "exec/link-to-noexec-script"));
	ASSERT_EQ(0, symlinkat("script", ws->dirfd, "exec/link-to-exec-script"));
	ASSERT_EQ(0, symlinkat("data", ws->dirfd, "exec/link-to-data"));
	ASSERT_EQ(0, symlinkat("../noexec/missing", ws->dirfd, "exec/dangling"));

	ASSERT_EQ(0, omx_ws_mount_tmpfs(ws, "noexec", MS_NOEXEC));
	ASSERT_EQ(0, omx_ws_file(ws, "noexec/script", 0755, 0, 0));
	ASSERT_EQ(0, symlinkat("../exec/script", ws->dirfd,
			       "noexec/link-to-exec-script"));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(ws, "noexec/submount", 0));
	ASSERT_EQ(0, omx_ws_file(ws, "noexec/submount/script", 0755, 0, 0));

	ASSERT_EQ(0, omx_ws_bind(ws, "exec", "exec-bound-noexec", MS_NOEXEC));
	ASSERT_EQ(0, omx_ws_bind(ws, "noexec", "noexec-bound-exec", 0));
}

FIXTURE_TEARDOWN(resolve)
{
	EXPECT_EQ(0, omx_policy_set(0));
	EXPECT_EQ(0, omx_ws_destroy(&self->ws));
}

static void check_resolve(struct __test_metadata *_metadata,
			  FIXTURE_DATA(resolve) *self,
			  const FIXTURE_VARIANT(resolve) *variant, int policy)
{
	__u64 flags = O_RDONLY | O_CLOEXEC | variant->flags;
	int expected, dfd = self->ws.dirfd, pathfd = -1;
	const char *path = variant->path;
	char magic[64];

	if (variant->plain_result)
		expected = variant->plain_result;
	else if (((policy & OMAYEXEC_ENFORCE_MOUNT) && variant->on_noexec_mount) ||
		 ((policy & OMAYEXEC_ENFORCE_FILE) && variant->without_exec_perm))
		expected = -EACCES;
	else
		expected = 0;

	if (variant->via_magic_link) {
		pathfd = openat(dfd, path, O_PATH | O_CLOEXEC);
		ASSERT_LE(0, pathfd);
		snprintf(magic, sizeof(magic), "/proc/self/fd/%d", pathfd);
		path = magic;
		dfd = AT_FDCWD;
	}

	ASSERT_EQ(0, omx_policy_set(policy));
	EXPECT_EQ(variant->plain_result,
		  omx_probe_openat2(dfd, path, flags, variant->resolve))
		TH_LOG("plain openat2(%s%s%s)", path,
		       variant->via_magic_link ? " -> " : "",
		       variant->via_magic_link ? variant->path : "");
	EXPECT_EQ(expected, omx_probe_openat2(dfd, path, flags | O_MAYEXEC,
					      variant->resolve))
		TH_LOG("openat2(%s%s%s, O_MAYEXEC) under policy %d", path,
		       variant->via_magic_link ? " -> " : "",
		       variant->via_magic_link ? variant->path : "", policy);
	if (pathfd >= 0)
		close(pathfd);
}

TEST_F(resolve, policy_0)
{
	check_resolve(_metadata, self, variant, 0);
}

TEST_F(resolve, policy_1_mount)
{
	check_resolve(_metadata, self, variant, 1);
}

TEST_F(resolve, policy_2_file)
{
	check_resolve(_metadata, self, variant, 2);
}

TEST_F(resolve, policy_3_mount_and_file)
{
	check_resolve(_metadata, self, variant, 3);
}

/* ---- memfd: a regular file on the kernel's internal shmem mount ------ */

FIXTURE(memfd) {
	int fd;
	char magic[64];
};

FIXTURE_VARIANT(memfd) {
	int policy;
};

FIXTURE_VARIANT_ADD(memfd, policy_0) { .policy = 0 };
FIXTURE_VARIANT_ADD(memfd, policy_1) { .policy = 1 };
FIXTURE_VARIANT_ADD(memfd, policy_2) { .policy = 2 };
FIXTURE_VARIANT_ADD(memfd, policy_3) { .policy = 3 };

FIXTURE_SETUP(memfd)
{
	self->fd = memfd_create("omx-memfd", MFD_CLOEXEC);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(4, write(self->fd, "data", 4));
	snprintf(self->magic, sizeof(self->magic), "/proc/self/fd/%d",
		 self->fd);
	ASSERT_EQ(0, omx_policy_set(variant->policy));
}

FIXTURE_TEARDOWN(memfd)
{
	EXPECT_EQ(0, omx_policy_set(0));
	close(self->fd);
}

/* memfd_create() gives mode 0777; its mount is not noexec. */
TEST_F(memfd, with_x_bits_is_allowed)
{
	EXPECT_EQ(0, omx_probe_openat2(AT_FDCWD, self->magic,
				       O_RDONLY | O_MAYEXEC, 0));
}

TEST_F(memfd, without_x_bits_is_refused_by_the_file_policy)
{
	ASSERT_EQ(0, fchmod(self->fd, 0644));
	EXPECT_EQ(0, omx_probe_openat2(AT_FDCWD, self->magic, O_RDONLY, 0));
	EXPECT_EQ(variant->policy & OMAYEXEC_ENFORCE_FILE ? -EACCES : 0,
		  omx_probe_openat2(AT_FDCWD, self->magic,
				    O_RDONLY | O_MAYEXEC, 0));
}

TEST_HARNESS_MAIN
