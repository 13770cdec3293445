// SPDX-License-Identifier: GPL-2.0
/*
 * may_open() for the opens that carry O_MAYEXEC: the policy check.
 *
 * may_open() is where the 6.1 open path has resolved the object that will be
 * opened (after symlinks, magic links and mount crossings, so a symlink is
 * judged at its target and a bind mount by the mount the path went through)
 * and has not opened it yet (no FIFO wait, no device open routine).  The
 * stock checks run first, so an O_MAYEXEC open fails exactly as a plain one
 * would for any ordinary reason; the policy can only add EACCES.
 */

#include <linux/fs.h>
#include <linux/mount.h>
#include <linux/path.h>
#include <uapi/linux/omayexec.h>

#include "omayexec.h"

/* path_noexec() of fs/exec.c, which is not exported. */
static bool path_is_noexec(const struct path *path)
{
	return (path->mnt->mnt_flags & MNT_NOEXEC) ||
	       (path->mnt->mnt_sb->s_iflags & SB_I_NOEXEC);
}

static int check_policy(struct user_namespace *mnt_userns,
			const struct path *path, int policy)
{
	struct inode *inode = d_backing_inode(path->dentry);

	if (!policy)
		return 0;

	/* As for execve(): only regular files hold code to run. */
	if (!S_ISREG(inode->i_mode))
		return -EACCES;

	if ((policy & OMAYEXEC_ENFORCE_MOUNT) && path_is_noexec(path))
		return -EACCES;

	/*
	 * The full permission check, as for execve(): mode bits, ACLs, the
	 * filesystem's own ->permission() and the LSMs.  Even with
	 * CAP_DAC_OVERRIDE it fails for a file that has no x bit at all.
	 */
	if (policy & OMAYEXEC_ENFORCE_FILE)
		return inode_permission(mnt_userns, inode, MAY_EXEC);

	return 0;
}

/*
 * Reached from the may_open trampoline when @flag carries O_MAYEXEC, which
 * only omayexec_openat2() puts there: the module is pinned for the whole
 * call.
 */
int omayexec_may_open(struct user_namespace *mnt_userns,
		      const struct path *path, int acc_mode, int flag)
{
	int err;

	/* Without the mark, the trampoline lets the stock may_open() run. */
	err = omayexec_sym.may_open(mnt_userns, path, acc_mode,
				    flag & ~O_MAYEXEC);
	if (err)
		return err;

	return check_policy(mnt_userns, path, READ_ONCE(omayexec_policy));
}
