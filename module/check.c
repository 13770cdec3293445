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

/*
 * The v5 semantics, for openat2(2) and fs.open_mayexec_enforce.
 * A refusal is EACCES, or the permission check's own error in *@err.
 */
static enum omayexec_verdict check_openat2(struct user_namespace *mnt_userns,
					   const struct path *path,
					   int policy, int *err)
{
	struct inode *inode = d_backing_inode(path->dentry);

	if (!policy)
		return OMAYEXEC_ALLOWED;

	/* As for execve(): only regular files hold code to run. */
	if (!S_ISREG(inode->i_mode))
		return OMAYEXEC_NOT_REGULAR;

	if ((policy & OMAYEXEC_ENFORCE_MOUNT) && path_is_noexec(path))
		return OMAYEXEC_NOEXEC_MOUNT;

	/*
	 * The full permission check, as for execve(): mode bits, ACLs, the
	 * filesystem's own ->permission() and the LSMs.  Even with
	 * CAP_DAC_OVERRIDE it fails for a file that has no x bit at all.
	 */
	if (policy & OMAYEXEC_ENFORCE_FILE) {
		*err = inode_permission(mnt_userns, inode, MAY_EXEC);
		if (*err)
			return OMAYEXEC_NO_EXEC_PERMISSION;
	}
	return OMAYEXEC_ALLOWED;
}

/*
 * The 2018 RFC's semantics, for open(2) and openat(2) and
 * kernel.yama.open_mayexec_enforce: regular files and directories are
 * checked, other types are not; the file check is the DAC one, so that
 * root may still "execute" (search) a directory.
 */
static enum omayexec_verdict check_rfc_v1(struct user_namespace *mnt_userns,
					  const struct path *path,
					  int policy, int *err)
{
	struct inode *inode = d_backing_inode(path->dentry);

	if (!policy || (!S_ISREG(inode->i_mode) && !S_ISDIR(inode->i_mode)))
		return OMAYEXEC_ALLOWED;

	if ((policy & OMAYEXEC_ENFORCE_MOUNT) && path_is_noexec(path))
		return OMAYEXEC_NOEXEC_MOUNT;

	if (policy & OMAYEXEC_ENFORCE_FILE) {
		*err = generic_permission(mnt_userns, inode, MAY_EXEC);
		if (*err)
			return OMAYEXEC_NO_EXEC_PERMISSION;
	}
	return OMAYEXEC_ALLOWED;
}

/*
 * Reached from the may_open trampoline when @flag carries O_MAYEXEC, which
 * only omayexec_do_open() puts there: the module is pinned for the whole
 * call.  omayexec_do_open() also gave @acc_mode MAY_EXEC in place of
 * MAY_READ, for IMA, and marked RFC v1 opens.
 */
int omayexec_may_open(struct user_namespace *mnt_userns,
		      const struct path *path, int acc_mode, int flag)
{
	int stock_acc_mode = (acc_mode & ~(MAY_EXEC | OMAYEXEC_MAY_RFC_V1)) |
			     (ACC_MODE(flag) & MAY_READ);
	enum omayexec_verdict verdict;
	enum omayexec_interface interface;
	int policy, err;

	/* Without the mark, the trampoline lets the stock may_open() run. */
	err = omayexec_sym.may_open(mnt_userns, path, stock_acc_mode,
				    flag & ~O_MAYEXEC);
	if (err)
		return err;

	err = -EACCES;
	if (acc_mode & OMAYEXEC_MAY_RFC_V1) {
		interface = OMAYEXEC_RFC_V1;
		policy = READ_ONCE(omayexec_rfc_v1_policy);
		verdict = check_rfc_v1(mnt_userns, path, policy, &err);
	} else {
		interface = OMAYEXEC_OPENAT2;
		policy = READ_ONCE(omayexec_policy);
		verdict = check_openat2(mnt_userns, path, policy, &err);
	}

	omayexec_count(verdict);
	omayexec_audit(verdict, path, interface, policy);
	return verdict == OMAYEXEC_ALLOWED ? 0 : err;
}
