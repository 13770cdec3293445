// SPDX-License-Identifier: GPL-2.0
/*
 * may_open() for the opens that carry O_MAYEXEC: the policy check.
 *
 * may_open() is where the open path has resolved the object that will be
 * opened (after symlinks, magic links and mount crossings, so a symlink is
 * judged at its target and a bind mount by the mount the path went through)
 * and has not opened it yet (no FIFO wait, no device open routine).  The
 * stock checks run first, so an O_MAYEXEC open fails exactly as a plain one
 * would for any ordinary reason; the policy can only add EACCES.
 */

#include <linux/fs.h>
#include <linux/mount.h>
#include <linux/path.h>
#include <linux/static_call.h>
#include <uapi/linux/omayexec.h>

#include "common.h"

/* path_noexec() of fs/exec.c, which is not exported. */
static bool path_is_noexec(const struct path *path)
{
	return (path->mnt->mnt_flags & MNT_NOEXEC) ||
	       (path->mnt->mnt_sb->s_iflags & SB_I_NOEXEC);
}

/*
 * The policy's decision on @path.  Two semantics share it:
 *
 *  - openat2(2), fs.open_mayexec_enforce: those of the v5 patches, "open as
 *    for execve()";
 *  - open(2) and openat(2) with rfc_v1, kernel.yama.open_mayexec_enforce:
 *    those of the 2018 RFC.
 *
 * A refusal is EACCES, or the permission check's own error in *@err.
 */
static enum omayexec_verdict decide(omayexec_idmap_t *idmap,
				    const struct path *path, int policy,
				    enum omayexec_interface interface, int *err)
{
	struct inode *inode = d_backing_inode(path->dentry);
	bool rfc_v1 = interface == OMAYEXEC_RFC_V1;

	if (!policy)
		return OMAYEXEC_ALLOWED;

	/*
	 * v5, as execve(): only regular files hold code to run.  The RFC
	 * checked directories as well, and let other types through.
	 */
	if (!S_ISREG(inode->i_mode)) {
		if (!rfc_v1)
			return OMAYEXEC_NOT_REGULAR;
		if (!S_ISDIR(inode->i_mode))
			return OMAYEXEC_ALLOWED;
	}

	if ((policy & OMAYEXEC_ENFORCE_MOUNT) && path_is_noexec(path))
		return OMAYEXEC_NOEXEC_MOUNT;

	/*
	 * v5, as execve(): the full permission check (mode bits, ACLs, the
	 * filesystem's own ->permission() and the LSMs); even with
	 * CAP_DAC_OVERRIDE it fails for a file that has no x bit at all.
	 * The RFC: the DAC check alone, so that root may still "execute"
	 * (search) a directory.
	 */
	if (policy & OMAYEXEC_ENFORCE_FILE) {
		*err = rfc_v1 ? generic_permission(idmap, inode, MAY_EXEC) :
				inode_permission(idmap, inode, MAY_EXEC);
		if (*err)
			return OMAYEXEC_NO_EXEC_PERMISSION;
	}
	return OMAYEXEC_ALLOWED;
}

/*
 * Reached from the may_open trampoline when @flag carries O_MAYEXEC, which
 * only omayexec_do_open() puts there: the module is pinned for the whole
 * call.  omayexec_do_open() also marked RFC v1 opens in @acc_mode.
 */
int omayexec_may_open(omayexec_idmap_t *idmap, const struct path *path,
		      int acc_mode, int flag)
{
	int stock_acc_mode = acc_mode & ~OMAYEXEC_MAY_RFC_V1;
	struct inode *inode = d_backing_inode(path->dentry);
	enum omayexec_verdict verdict;
	enum omayexec_interface interface;
	int policy, err;

	/* Without the mark, the trampoline lets the stock may_open() run. */
	err = static_call(stock_may_open)(idmap, path, stock_acc_mode,
					  flag & ~O_MAYEXEC);
	if (err)
		return err;

	/*
	 * Where the open carries __FMODE_EXEC (compat.h), a filesystem may
	 * check execution instead of the access asked for: NFSv4 skips the
	 * MAY_OPEN check of a regular file when its server opens atomically,
	 * and its open then asks the server for EXECUTE alone, which lets
	 * anyone who may run a file read it (nfs4_opendata_access(),
	 * nfs_may_open()).  Ask the filesystem's own ->permission() for the
	 * plain access again, without MAY_OPEN; without one,
	 * generic_permission() has already checked it in full.
	 */
	if (OMAYEXEC_FMODE_EXEC && inode->i_op->permission) {
		err = inode_permission(idmap, inode, stock_acc_mode &
				       (MAY_READ | MAY_WRITE | MAY_APPEND));
		if (err)
			return err;
	}

	if (acc_mode & OMAYEXEC_MAY_RFC_V1) {
		interface = OMAYEXEC_RFC_V1;
		policy = READ_ONCE(omayexec_rfc_v1_policy);
	} else {
		interface = OMAYEXEC_OPENAT2;
		policy = READ_ONCE(omayexec_policy);
	}

	err = -EACCES;
	verdict = decide(idmap, path, policy, interface, &err);

	omayexec_count(verdict);
	omayexec_audit(verdict, path, interface, policy);
	if (verdict != OMAYEXEC_ALLOWED)
		return err;

	/* Where the file carries no __FMODE_EXEC, fanotify is asked here. */
	return omayexec_notify_exec_perm(path);
}
