// SPDX-License-Identifier: GPL-2.0
/*
 * execveat(2) with AT_EXECVE_CHECK: Linux 6.14's successor of O_MAYEXEC,
 * on kernels that reject the flag.
 *
 *   execveat(fd, "", argv, envp, AT_EMPTY_PATH | AT_EXECVE_CHECK)
 *
 * asks whether execve() would run the file: the exec open (file type,
 * noexec mount, exec permission, ETXTBSY for a file open for writing, the
 * open-time hooks of an exec open), the LSMs' bprm_creds_for_exec hooks
 * (AppArmor's and SELinux's exec rules) and IMA's BPRM_CHECK rules, and
 * returns 0 or their error.  It executes nothing, and the fs.open_mayexec_
 * enforce policy plays no part in it: as in mainline, the answer is what
 * execve() would decide, and interpreters enforce it or not (the exec
 * securebits tell them).
 *
 * The execveat(2) syscall entries are hooked (trampolines.S), and a call
 * that carries AT_EXECVE_CHECK never reaches them: omayexec_exec_check()
 * answers it and returns straight to the syscall's caller.  It follows
 * bprm_execve() step for step, with the kernel's own alloc_bprm(),
 * do_open_execat() and free_bprm(), up to security_bprm_creds_for_exec(),
 * as mainline does for a check, and then stops: no binary format handler,
 * no security_bprm_check() (IMA's own check is called, as mainline's IMA
 * does for a check), no point of no return, so the caller can never be
 * replaced by the file it asked about; nothing of it changes but what an
 * exec that fails in the same place changes.  An ordinary execve(2) or
 * execveat(2) pays one bit test.  Without the module the flag is EINVAL,
 * as on the stock kernel: stock do_open_execat() rejects it.
 *
 * Not done, unlike mainline: argv and envp are not copied (nothing reads
 * them before the point where the check stops, but an invalid argv
 * pointer is no EFAULT here), and the RLIMIT_NPROC recheck of execve() is
 * left out (it would clear the caller's PF_NPROC_EXCEEDED).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/binfmts.h>
#include <linux/compat.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/security.h>
#include <linux/static_call.h>
#include <uapi/linux/omayexec.h>

#include "common.h"

bool omayexec_exec_check __ro_after_init = true;
module_param_named(exec_check, omayexec_exec_check, bool, 0444);
MODULE_PARM_DESC(exec_check,
		 "Answer execveat(2) with AT_EXECVE_CHECK as Linux 6.14 does (default: Y)");

#define EXEC_CHECK_FLAGS (AT_EXECVE_CHECK | AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW)

/* check_unsafe_exec() of fs/exec.c (inlined there), as of 6.1 and 6.12. */
static void set_unsafe(struct linux_binprm *bprm)
{
	struct task_struct *p = current, *t;
	unsigned int n_fs = 1;

	if (p->ptrace)
		bprm->unsafe |= LSM_UNSAFE_PTRACE;
	if (task_no_new_privs(p))
		bprm->unsafe |= LSM_UNSAFE_NO_NEW_PRIVS;

	spin_lock(&p->fs->lock);
	rcu_read_lock();
	for_each_thread(p, t) {
		if (t != p && t->fs == p->fs)
			n_fs++;
	}
	rcu_read_unlock();
	if (p->fs->users > n_fs)
		bprm->unsafe |= LSM_UNSAFE_SHARE;
	else
		p->fs->in_exec = 1;
	spin_unlock(&p->fs->lock);
}

/*
 * What execve() decides about the file, up to the LSMs' and IMA's
 * verdicts, as bprm_execve() reaches them.
 */
static int judge(struct linux_binprm *bprm, int fd, struct filename *name,
		 int flags)
{
	int err;

	/* prepare_bprm_creds(); free_bprm() unlocks and drops them. */
	if (mutex_lock_interruptible(&current->signal->cred_guard_mutex))
		return -ERESTARTNOINTR;
	bprm->cred = static_call(stock_prepare_exec_creds)();
	if (!bprm->cred) {
		mutex_unlock(&current->signal->cred_guard_mutex);
		return -ENOMEM;
	}

	set_unsafe(bprm);
	current->in_execve = 1;
	err = omayexec_exec_open(bprm, fd, name, flags);
	if (!err)
		err = static_call(stock_security_bprm_creds_for_exec)(bprm);
	if (!err)
		err = static_call(stock_ima_bprm_check)(bprm);
	current->in_execve = 0;
	current->fs->in_exec = 0;
	return err;
}

static long exec_check(int fd, const char __user *filename, int flags)
{
	struct linux_binprm *bprm;
	struct filename *name;
	long err;

	/* As do_execveat(): the name first, then the flags (do_open_execat()). */
	name = static_call(stock_getname_uflags)(filename, flags);
	if (IS_ERR(name))
		return PTR_ERR(name);
	err = -EINVAL;
	if (flags & ~EXEC_CHECK_FLAGS)
		goto out_name;

	bprm = omayexec_alloc_bprm(fd, name, flags & ~AT_EXECVE_CHECK);
	if (IS_ERR(bprm)) {
		err = PTR_ERR(bprm);
		goto out_name;
	}
	err = judge(bprm, fd, name, flags & ~AT_EXECVE_CHECK);
	static_call(stock_free_bprm)(bprm);
out_name:
	putname(name);
	return err;
}

/* The entries' replacements, for calls that carry AT_EXECVE_CHECK. */
static long exec_check_pinned(int fd, const char __user *filename, int flags)
{
	long err;

	/* The module is going: the stock answer. */
	if (!try_module_get(THIS_MODULE))
		return -EINVAL;
	err = exec_check(fd, filename, flags);
	module_put(THIS_MODULE);
	return err;
}

/* The syscall wrappers' arguments, where arch.h says they are. */
long omayexec_sys_execveat(const struct pt_regs *regs)
{
	return exec_check_pinned((int)omayexec_sys_arg(regs, 0),
				 (const char __user *)omayexec_sys_arg(regs, 1),
				 (int)omayexec_sys_arg(regs, 4));
}

long omayexec_compat_sys_execveat(const struct pt_regs *regs)
{
	return exec_check_pinned((int)omayexec_compat_sys_arg(regs, 0),
				 compat_ptr(omayexec_compat_sys_arg(regs, 1)),
				 (int)omayexec_compat_sys_arg(regs, 4));
}
