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
#include <linux/sched/task_stack.h>
#include <linux/static_call.h>
#include <asm/syscall.h>
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
		/*
		 * A regular file with no x bit, where generic_permission()
		 * decides: refused, for every caller (no ACL entry grants
		 * what the mode's group bits, the ACL mask, deny, and
		 * CAP_DAC_OVERRIDE needs an x bit), with the EACCES that
		 * inode_permission() would return before it asks an LSM.
		 * Known without a call, so that a refusal costs less than
		 * an allowed open.
		 */
		if (S_ISREG(inode->i_mode) && !(inode->i_mode & 0111) &&
		    !inode->i_op->permission)
			return OMAYEXEC_NO_EXEC_PERMISSION;
		*err = rfc_v1 ? generic_permission(idmap, inode, MAY_EXEC) :
				inode_permission(idmap, inode, MAY_EXEC);
		if (*err)
			return OMAYEXEC_NO_EXEC_PERMISSION;
	}
	return OMAYEXEC_ALLOWED;
}

/*
 * Whether the policy's exec check on @inode can ride on the stock
 * may_open(), as MAY_EXEC in its access mask, so that an allowed open pays
 * for one permission check, not two.  Stock may_open() with MAY_EXEC on a
 * regular file refuses a noexec mount (path_noexec(), 6.1 and 6.12 alike)
 * and asks inode_permission() for the access and MAY_EXEC at once, which
 * only grants what both separate checks grant.  A failure says neither
 * which check failed nor whether the plain open would fail anyway, so it
 * is redone the long way (omayexec_may_open()).
 *
 * Only for openat2(2)'s semantics (the RFC's differ: generic_permission()
 * alone), and only where the filesystem has no ->permission() of its own:
 * NFS, for one, answers an atomic open's MAY_OPEN check with success
 * whatever else the mask asks (nfs_permission()), so MAY_EXEC must reach
 * it without MAY_OPEN, in its own call.  A file with no x bit is refused
 * anyway (decide()): folding would only make it pay twice.
 */
static bool exec_check_folds(const struct inode *inode, int policy,
			     enum omayexec_interface interface)
{
	return (policy & OMAYEXEC_ENFORCE_FILE) &&
	       interface == OMAYEXEC_OPENAT2 && inode &&
	       S_ISREG(inode->i_mode) && (inode->i_mode & 0111) &&
	       !inode->i_op->permission;
}

/* The interface of the O_MAYEXEC open under way: its syscall's. */
static enum omayexec_interface current_interface(void)
{
	int nr = syscall_get_nr(current, task_pt_regs(current));

	return omayexec_nr_is_openat2(nr) ? OMAYEXEC_OPENAT2 : OMAYEXEC_RFC_V1;
}

/*
 * Reached from the may_open trampoline when @flag carries O_MAYEXEC, which
 * only omayexec_do_open() puts there: the module is kept for the whole
 * call.  Which interface the open came through is the syscall's: openat2(2)
 * or, with rfc_v1, open(2) and openat(2).  The open carries no mark of its
 * own for it: a private bit in @acc_mode would reach IMA and, from 6.12 on,
 * every LSM's file_post_open hook (BPF programs included), which do_open()
 * calls with the open's acc_mode.
 */
int omayexec_may_open(omayexec_idmap_t *idmap, const struct path *path,
		      int acc_mode, int flag)
{
	struct inode *inode = d_backing_inode(path->dentry);
	enum omayexec_verdict verdict;
	enum omayexec_interface interface;
	int policy, err;

	interface = current_interface();
	policy = omayexec_policy_of(interface);

	/*
	 * The common case, an allowed open of a regular file: the stock
	 * checks and the policy's in one stock may_open() (its body, past
	 * the hook: symbols.c).
	 */
	if (exec_check_folds(inode, policy, interface) &&
	    !static_call(stock_may_open)(idmap, path, acc_mode | MAY_EXEC,
					 flag & ~O_MAYEXEC))
		goto allowed;

	err = static_call(stock_may_open)(idmap, path, acc_mode,
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
		err = inode_permission(idmap, inode, acc_mode &
				       (MAY_READ | MAY_WRITE | MAY_APPEND));
		if (err)
			return err;
	}

	err = -EACCES;
	verdict = decide(idmap, path, policy, interface, &err);
	if (verdict != OMAYEXEC_ALLOWED) {
		/* The open's outcome: nothing after this can undo a refusal. */
		omayexec_record(verdict, path, interface, policy);
		return err;
	}
allowed:
	/*
	 * Not recorded yet: fanotify, Landlock and IMA may still refuse the
	 * open.  open_marked() records it once it has succeeded.  Where the
	 * file carries no __FMODE_EXEC, fanotify is asked here.
	 */
	return omayexec_notify_exec_perm(path);
}
