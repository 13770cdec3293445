// SPDX-License-Identifier: GPL-2.0
/*
 * do_sys_openat2() for the opens that carry O_MAYEXEC.
 *
 * The stock build_open_flags() rejects O_MAYEXEC, an unknown flag, with
 * EINVAL.  The do_sys_openat2 trampoline therefore sends every open whose
 * open_how carries the flag to omayexec_openat2() instead (and rfc_v1.c
 * sends open(2) and openat(2) with the flag).  omayexec_do_open() does what
 * do_sys_openat2() does (fs/open.c, the same in 6.1 and 6.12), step for
 * step, with one difference: it builds struct open_flags from the open_how
 * without O_MAYEXEC and then marks the result, so that the rest of the open
 * path knows the caller means to execute what it opens:
 *
 *  - O_MAYEXEC in op.open_flag reaches may_open() as its @flag argument,
 *    where the may_open trampoline picks it out (may_open.c);
 *  - where it is safe (compat.h), __FMODE_EXEC in op.open_flag ends up in
 *    file->f_flags, where fsnotify turns the open into FS_OPEN_EXEC (and
 *    FS_OPEN_EXEC_PERM) events and Landlock asks for its EXECUTE right, as
 *    for a file opened by execve(); elsewhere the module raises those
 *    events and asks Landlock itself (compat.h);
 *  - once the file is open, IMA's FILE_CHECK is asked a second time, with
 *    MAY_EXEC, as for a file execve() opens (compat.h): the open's own
 *    check has seen the plain open's MAY_READ, so every rule a plain open
 *    for reading meets is met too ("mask=MAY_READ", the tcb policy's
 *    "mask=^MAY_READ"), and the exec rules ("mask=MAY_EXEC") on top.
 *
 * The mark lives in the open's own struct open_flags, on this function's
 * stack: no other open, of this task or any other, can see it, and nothing
 * is left behind when the open fails early.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/fcntl.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/fsnotify.h>
#include <linux/module.h>
#include <linux/namei.h>
#include <linux/openat2.h>
#include <linux/static_call.h>
#include <uapi/linux/omayexec.h>

#include "common.h"

/*
 * The layout of struct open_flags (fs/internal.h, which the headers package
 * does not ship), the same in 6.1 and 6.12.  omayexec_openat2_selftest()
 * checks it against the running kernel before any hook is installed.
 */
struct open_flags {
	int open_flag;
	umode_t mode;
	int acc_mode;
	int intent;
	int lookup_flags;
};

/*
 * Flags that make no sense with O_MAYEXEC.  O_PATH opens nothing that could
 * be read, as in the v5 patches.  O_CREAT and O_TMPFILE would create the
 * file before the policy could refuse it, leaving a file behind an open
 * that failed; an interpreter has no reason to create the code it runs.
 */
#define OMAYEXEC_INVALID_FLAGS (O_PATH | O_CREAT | __O_TMPFILE)

/*
 * What an exec open asks about the file that the open path has not asked
 * an O_MAYEXEC open: Landlock's EXECUTE right where the file carries no
 * __FMODE_EXEC (compat.h), and IMA's FILE_CHECK with MAY_EXEC.  @file, or
 * an error (@file is then released).  Nothing else refers to @file yet,
 * so releasing it undoes the open.  A refusal here comes after the
 * file's open routine ran, which a plain open of it runs too (and at a
 * non-zero policy only regular files get this far).
 */
static struct file *exec_file_check(struct file *file)
{
	int err = omayexec_landlock_exec(file);

	/*
	 * IMA's own first test, ahead of the LSM call it makes before it
	 * (the caller's secid): with no rule loaded, IMA does nothing.
	 */
	if (!err && READ_ONCE(*omayexec_sym.ima_policy_flag))
		err = omayexec_ima_file_check(file, MAY_EXEC);

	if (err) {
		fput(file);
		return ERR_PTR(err);
	}
	return file;
}

/*
 * do_sys_openat2() for an open_how that carries O_MAYEXEC, on behalf of
 * @interface, with the module kept (omayexec_do_open()).  @how is the
 * kernel's own copy, which the open syscalls drop once do_sys_openat2()
 * returns: the flag is taken out of it in place, not out of a copy.
 */
static __always_inline long open_marked(int dfd,
					const char __user *filename,
					struct open_how *how,
					enum omayexec_interface interface)
{
	struct open_flags op;
	struct filename *name;
	struct file *file;
	long fd;

	if (how->flags & OMAYEXEC_INVALID_FLAGS)
		return -EINVAL;

	how->flags &= ~O_MAYEXEC;
	fd = static_call(stock_build_open_flags)(how, &op);
	if (fd)
		return fd;
	op.open_flag |= O_MAYEXEC | OMAYEXEC_FMODE_EXEC;

	name = static_call(stock_getname)(filename);
	if (IS_ERR(name))
		return PTR_ERR(name);

	fd = get_unused_fd_flags(how->flags);
	if (fd >= 0) {
		file = static_call(stock_do_filp_open)(dfd, name, &op);
		if (!IS_ERR(file))
			file = exec_file_check(file);
		if (IS_ERR(file)) {
			put_unused_fd(fd);
			fd = PTR_ERR(file);
		} else {
			/*
			 * Allowed by every check: the outcome (may_open.c),
			 * with the policy in force now.
			 */
			omayexec_record(OMAYEXEC_ALLOWED, &file->f_path,
					interface, omayexec_policy_of(interface));
			omayexec_notify_open(file);
			fd_install(fd, file);
		}
	}
	putname(name);
	return fd;
}

long omayexec_do_open(int dfd, const char __user *filename,
		      struct open_how *how, enum omayexec_interface interface)
{
	bool got;
	long fd;

	/*
	 * Keep the module while the open runs: it may sleep for a long time
	 * (a FIFO without a writer) with this function on its stack.  If the
	 * module is already going away, answer as the stock kernel does.
	 * Here rather than in each caller: one frame less on every O_MAYEXEC
	 * open (its callers jump here).
	 */
	if (!omayexec_get(&got))
		return -EINVAL;

	fd = open_marked(dfd, filename, how, interface);

	/*
	 * After this, only the return is left to run in the module; exit
	 * waits for it with synchronize_rcu_tasks().
	 */
	omayexec_put(got);
	return fd;
}

long omayexec_openat2(int dfd, const char __user *filename,
		      struct open_how *how)
{
	return omayexec_do_open(dfd, filename, how, OMAYEXEC_OPENAT2);
}

/*
 * Check the struct open_flags mirror above against the running kernel's
 * build_open_flags(): a mismatch would make the O_MAYEXEC path corrupt
 * its stack, so the module refuses to load instead.
 */
int omayexec_openat2_selftest(void)
{
	const struct open_how how = {
		.flags = O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW,
		.mode = 0640,
		.resolve = RESOLVE_NO_MAGICLINKS,
	};
	const struct open_flags want = {
		.open_flag = O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW,
		.mode = 0640 | S_IFREG,
		.acc_mode = MAY_WRITE,
		.intent = LOOKUP_OPEN | LOOKUP_CREATE,
		.lookup_flags = LOOKUP_NO_MAGICLINKS,
	};
	struct open_flags got;
	int err;

	memset(&got, 0xa5, sizeof(got));
	err = static_call(stock_build_open_flags)(&how, &got);
	if (err || got.open_flag != want.open_flag || got.mode != want.mode ||
	    got.acc_mode != want.acc_mode || got.intent != want.intent ||
	    got.lookup_flags != want.lookup_flags) {
		pr_err("build_open_flags() does not fill struct open_flags as in Linux 6.1 and 6.12 (err %d, open_flag %#x, mode %#o, acc_mode %#x, intent %#x, lookup_flags %#x)\n",
		       err, got.open_flag, got.mode, got.acc_mode, got.intent,
		       got.lookup_flags);
		return -ENOEXEC;
	}
	return 0;
}
