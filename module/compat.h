/* SPDX-License-Identifier: GPL-2.0 */
/*
 * omayexec: what differs between the kernels the module is built for.
 *
 * The module is built and tested on Debian 12's 6.1 and Debian 13's 6.12
 * (each with its generic, cloud and rt flavours).  Every difference between
 * them that the module's code meets is settled here, and only here, so
 * that the other files read as one program.  The version given for each
 * difference is the upstream release that made it.
 */
#ifndef _OMAYEXEC_COMPAT_H
#define _OMAYEXEC_COMPAT_H

#include <linux/binfmts.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/fsnotify.h>
#include <linux/ftrace.h>
#include <linux/ima.h>
#include <linux/security.h>
#include <linux/static_call.h>
#include <linux/sysctl.h>
#include <linux/version.h>

#include "arch.h"

/*
 * 6.3: permission checks take the mount's idmapping, struct mnt_idmap,
 * where they took its user namespace.  Argument order and registers are
 * the same, which the may_open trampoline relies on.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
typedef struct mnt_idmap omayexec_idmap_t;
#else
typedef struct user_namespace omayexec_idmap_t;
#endif

/*
 * 6.6: register_sysctl() became a macro that counts the table with
 * ARRAY_SIZE(), and 6.11 refuses an empty entry in it ("procname is
 * null"); before, the table ended at an empty entry.  6.11 also made the
 * handlers take a const table.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
#define OMAYEXEC_SYSCTL_TABLE_END
#else
#define OMAYEXEC_SYSCTL_TABLE_END {}
#endif

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
#define omayexec_ctl_table const struct ctl_table
#else
#define omayexec_ctl_table struct ctl_table
#endif

/*
 * A hook sends every call of @func to @trampoline.  Where ftrace has
 * direct calls, each hook is one (@ops, of the hook's own, filtered on
 * @func; 6.6 renamed the ops-based "multi" API of 6.1 to the plain names,
 * and its unregister frees the filter on request).
 *
 * 6.1 arm64 has no direct calls (register_ftrace_direct_multi() is a stub
 * there): every hook is a function in the filter of one IPMODIFY
 * ftrace_ops of redirect.c, whose callback, run from ftrace_regs_caller
 * with the registers saved, makes ftrace return into the hook's
 * trampoline in the state a direct call would have left
 * (omayexec_arch_enter_trampoline(), arch/arm64/arch.h).  IPMODIFY, as a
 * direct call, keeps every other redirecting ftrace user off the
 * function.  Every call of a hooked function then pays for the saved
 * registers, the callback, and ftrace's walk over the list of ftrace_ops
 * (each tested against the function): one ops for all the hooks and the
 * guard keeps that walk short.
 *
 * A kernel with neither (dkms.conf's BUILD_EXCLUSIVE_CONFIG keeps DKMS
 * off it) stops here rather than failing on a missing symbol.
 */
#if !defined(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS) && \
	!(defined(CONFIG_ARM64) && defined(CONFIG_DYNAMIC_FTRACE_WITH_REGS))
#error "omayexec hooks through ftrace direct calls, or on arm64 an IPMODIFY ftrace_ops with saved registers: this kernel has neither"
#endif

#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
static inline int omayexec_register_direct(struct ftrace_ops *ops,
					   unsigned long trampoline)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
	return register_ftrace_direct(ops, trampoline);
#else
	return register_ftrace_direct_multi(ops, trampoline);
#endif
}

static inline int omayexec_unregister_direct(struct ftrace_ops *ops,
					     unsigned long trampoline)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
	return unregister_ftrace_direct(ops, trampoline, true);
#else
	int err = unregister_ftrace_direct_multi(ops, trampoline);

	ftrace_free_filter(ops);
	return err;
#endif
}
#else
int omayexec_redirect_start(unsigned long guard);
int omayexec_redirect_stop(void);
int omayexec_redirect_add(unsigned long func, unsigned long trampoline);
int omayexec_redirect_remove(unsigned long func);
int omayexec_redirect_watch(unsigned long func, bool watch);

/* No direct call to make (tests/kmod/omx_hog.c's direct mode). */
static inline int omayexec_register_direct(struct ftrace_ops *ops,
					   unsigned long trampoline)
{
	return -ENODEV;
}

static inline int omayexec_unregister_direct(struct ftrace_ops *ops,
					     unsigned long trampoline)
{
	return -ENODEV;
}
#endif

/*
 * The guard (hooks.c): a PERMANENT ftrace_ops on @func, a function that
 * never runs.  Without direct calls it is redirect.c's ftrace_ops itself,
 * to which the hooks then add their functions: the guard costs the walk
 * over the list of ftrace_ops nothing more.
 */
static inline int omayexec_guard_register(struct ftrace_ops *guard,
				     unsigned long func)
{
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
	int err = ftrace_set_filter_ip(guard, func, 0, 0);

	if (!err)
		err = register_ftrace_function(guard);
	if (err)
		ftrace_free_filter(guard);
	return err;
#else
	return omayexec_redirect_start(func);
#endif
}

static inline int omayexec_guard_unregister(struct ftrace_ops *guard)
{
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
	int err = unregister_ftrace_function(guard);

	ftrace_free_filter(guard);
	return err;
#else
	return omayexec_redirect_stop();
#endif
}

/*
 * Have the guard's callback (omayexec_guard_hit()) watch @func too, or no
 * longer (@watch false): hooks.c's self-test.  The guard's filter grows
 * and shrinks; the guard stays registered.
 */
static inline int omayexec_guard_watch(struct ftrace_ops *guard,
				       unsigned long func, bool watch)
{
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
	return ftrace_set_filter_ip(guard, func, !watch, 0);
#else
	return omayexec_redirect_watch(func, watch);
#endif
}

static inline int omayexec_hook_add(struct ftrace_ops *ops, unsigned long func,
				    unsigned long trampoline)
{
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
	int err = ftrace_set_filter_ip(ops, func, 0, 0);

	if (!err)
		err = omayexec_register_direct(ops, trampoline);
	if (err)
		ftrace_free_filter(ops);
	return err;
#else
	return omayexec_redirect_add(func, trampoline);
#endif
}

static inline int omayexec_hook_remove(struct ftrace_ops *ops,
				       unsigned long func,
				       unsigned long trampoline)
{
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
	return omayexec_unregister_direct(ops, trampoline);
#else
	return omayexec_redirect_remove(func);
#endif
}

/*
 * The first argument of a function watched by an ftrace_ops callback
 * (securebits.c), 0 if it cannot be read.  Where ftrace can save all the
 * registers (DYNAMIC_FTRACE_WITH_REGS: x86, and 6.1 arm64) it is read
 * from them, as it always was; 6.12 arm64 only has the argument registers
 * (DYNAMIC_FTRACE_WITH_ARGS) and refuses FTRACE_OPS_FL_SAVE_REGS
 * (-EINVAL): ftrace_regs_get_argument() reads them there.
 */
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_REGS
#define OMAYEXEC_WATCH_FLAGS	FTRACE_OPS_FL_SAVE_REGS

static inline unsigned long omayexec_watched_arg0(struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);

	return regs ? regs_get_kernel_argument(regs, 0) : 0;
}
#else
#define OMAYEXEC_WATCH_FLAGS	0

static inline unsigned long omayexec_watched_arg0(struct ftrace_regs *fregs)
{
	return ftrace_regs_get_argument(fregs, 0);
}
#endif

/*
 * The mark an O_MAYEXEC open leaves on its file, the fsnotify events it
 * raises, and Landlock's EXECUTE right.
 *
 * An exec open carries __FMODE_EXEC in f_flags.  Up to 6.7 that only told
 * fsnotify (FS_OPEN_EXEC_PERM, FS_OPEN_EXEC) and Landlock (its EXECUTE
 * right) that the file is opened to be run, and the module gives it to
 * O_MAYEXEC opens.  Since 6.8 AppArmor and TOMOYO read it as "opened by
 * execve()": AppArmor then skips its open check and grants the file read
 * and exec, leaving the decision to the bprm hooks that an open never
 * reaches.  On those kernels the flag would let an O_MAYEXEC open read
 * what the caller's profile forbids, so it is not set, and the module does
 * what the flag did:
 *
 * omayexec_notify_exec_perm() runs where the policy has allowed the open
 * and nothing is opened or truncated yet (may_open.c), as FS_OPEN_EXEC_PERM
 * runs for execve(): 0, or the error a fanotify listener answered, which
 * fails the open.  omayexec_notify_open() runs once the file is open, where
 * the open syscalls send FS_OPEN.  Between 6.1 and 6.12, vfs_open() took
 * FS_OPEN over from the open syscalls, which omayexec_do_open() stands in
 * for.
 *
 * omayexec_landlock_exec() runs once the file is open (openat2.c): it asks
 * Landlock's file_open hook again, with the flag set on the file for that
 * call only, before the file reaches the caller's descriptor table (no
 * other task can see it) and without AppArmor or TOMOYO ever seeing it; a
 * domain that handles LANDLOCK_ACCESS_FS_EXECUTE then refuses a file under
 * no rule that grants it, as for execve().  symbols.c resolves the hook
 * where the open carries no __FMODE_EXEC and Landlock is active.  A caller
 * outside any Landlock domain is not asked about: the hook answers 0 for
 * it before it looks at anything, and asking cost an O_MAYEXEC open 35
 * instructions on 6.12 (tests/bench/run-profile).  The domain is the first
 * member of Landlock's blob in the credentials (struct
 * landlock_cred_security, security/landlock/cred.h, not in the headers
 * package), at the offset Landlock's lsm_blob_sizes.lbs_cred holds once
 * the LSMs are set up; symbols.c reads it at load, and leaves -1 (always
 * ask) where it cannot.
 *
 * The module is built for 6.1 and 6.12 only: the 6.8 line tells the
 * changes apart.
 */
typedef int stock_landlock_file_open_t(struct file *file);
DECLARE_STATIC_CALL(stock_landlock_file_open, stock_landlock_file_open_t);
extern bool omayexec_landlock_asked;	/* symbols.c */
extern int omayexec_landlock_cred_offset;	/* symbols.c; -1: unknown */

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
#define OMAYEXEC_FMODE_EXEC	0

static inline int omayexec_landlock_exec(struct file *file)
{
	int offset = omayexec_landlock_cred_offset;
	int err;

	if (!omayexec_landlock_asked)
		return 0;
	/* The opener's Landlock domain: none, nothing to ask. */
	if (offset >= 0 &&
	    !*(void * const *)(file->f_cred->security + offset))
		return 0;
	file->f_flags |= __FMODE_EXEC;
	err = static_call(stock_landlock_file_open)(file);
	file->f_flags &= ~__FMODE_EXEC;
	return err;
}

static inline int omayexec_notify_exec_perm(const struct path *path)
{
	return fsnotify_path(path, FS_OPEN_EXEC_PERM);
}

static inline void omayexec_notify_open(struct file *file)
{
	fsnotify_file(file, FS_OPEN_EXEC);
}
#else
#define OMAYEXEC_FMODE_EXEC	__FMODE_EXEC

static inline int omayexec_landlock_exec(struct file *file)
{
	return 0;
}

static inline int omayexec_notify_exec_perm(const struct path *path)
{
	return 0;
}

static inline void omayexec_notify_open(struct file *file)
{
	fsnotify_open(file);
}
#endif

/*
 * IMA's FILE_CHECK on an open file, with @mask: 6.9 made IMA an LSM whose
 * ima_file_check() is reached through security_file_post_open(), which
 * only IMA hooks; before, the open path called ima_file_check() itself.
 */
static inline int omayexec_ima_file_check(struct file *file, int mask)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
	return security_file_post_open(file, mask);
#else
	return ima_file_check(file, mask);
#endif
}

/*
 * The exec open of execveat(AT_EXECVE_CHECK) (exec_check.c), done by the
 * kernel's own do_open_execat().  6.8 moved it into alloc_bprm(), which
 * has taken the flags since, before the credentials are prepared.  Up to
 * 6.7 bprm_execve() opens the file later, with current->in_execve set
 * (AppArmor and TOMOYO then read that flag, as they read __FMODE_EXEC
 * since, to leave the decision to the bprm hooks): exec_check.c calls
 * omayexec_exec_open() where bprm_execve() opened the file, and it only
 * opens on those kernels.  Either way free_bprm() releases the file.
 */
struct linux_binprm;

typedef struct file *stock_do_open_execat_t(int fd, struct filename *name,
					    int flags);
DECLARE_STATIC_CALL(stock_do_open_execat, stock_do_open_execat_t);

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
typedef struct linux_binprm *stock_alloc_bprm_t(int fd, struct filename *name,
						int flags);
DECLARE_STATIC_CALL(stock_alloc_bprm, stock_alloc_bprm_t);

static inline struct linux_binprm *omayexec_alloc_bprm(int fd,
						       struct filename *name,
						       int flags)
{
	return static_call(stock_alloc_bprm)(fd, name, flags);
}

static inline int omayexec_exec_open(struct linux_binprm *bprm, int fd,
				     struct filename *name, int flags)
{
	return 0;
}
#else
typedef struct linux_binprm *stock_alloc_bprm_t(int fd, struct filename *name);
DECLARE_STATIC_CALL(stock_alloc_bprm, stock_alloc_bprm_t);

static inline struct linux_binprm *omayexec_alloc_bprm(int fd,
						       struct filename *name,
						       int flags)
{
	return static_call(stock_alloc_bprm)(fd, name);
}

static inline int omayexec_exec_open(struct linux_binprm *bprm, int fd,
				     struct filename *name, int flags)
{
	struct file *file = static_call(stock_do_open_execat)(fd, name, flags);

	if (IS_ERR(file))
		return PTR_ERR(file);
	bprm->file = file;
	return 0;
}
#endif

/*
 * pin.c pins the module under module_mutex.  Where kallsyms has no data
 * symbols (6.1 arm64: no KALLSYMS_ALL) the mutex cannot be found, but
 * module_kallsyms_on_each_symbol() takes it and calls back with it held,
 * at least once (for the module's own symbols, which are there from
 * COMING on): the pin then runs in that callback.  Its 6.1 signature; 6.2
 * changed it, and the 6.12 kernels have the mutex in kallsyms.
 */
void omayexec_pin_locked(void);	/* pin.c */

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
typedef int stock_module_kallsyms_on_each_symbol_t(
	int (*fn)(void *data, const char *name, struct module *mod,
		  unsigned long addr), void *data);
DECLARE_STATIC_CALL(stock_module_kallsyms_on_each_symbol,
		    stock_module_kallsyms_on_each_symbol_t);
#define OMAYEXEC_MODULE_MUTEX_HOLDER	"module_kallsyms_on_each_symbol"
/* symbols.c defines the static call, and sets it. */
#define OMAYEXEC_DEFINE_MODULE_MUTEX_HOLDER				\
	DEFINE_STATIC_CALL_NULL(stock_module_kallsyms_on_each_symbol,	\
				stock_module_kallsyms_on_each_symbol_t)

static inline void omayexec_set_module_mutex_holder(unsigned long addr)
{
	static_call_update(stock_module_kallsyms_on_each_symbol,
			   (stock_module_kallsyms_on_each_symbol_t *)addr);
}

static inline int omayexec_pin_callback(void *data, const char *name,
					struct module *mod,
					unsigned long addr)
{
	omayexec_pin_locked();
	return 1;	/* once is enough */
}

static inline void omayexec_pin_in_module_mutex_holder(void)
{
	static_call(stock_module_kallsyms_on_each_symbol)(omayexec_pin_callback,
							  NULL);
}
#else
#define OMAYEXEC_MODULE_MUTEX_HOLDER	NULL
/* Nothing to define; a declaration, so that its use takes a semicolon. */
#define OMAYEXEC_DEFINE_MODULE_MUTEX_HOLDER	static_assert(1)

static inline void omayexec_set_module_mutex_holder(unsigned long addr)
{
}

static inline void omayexec_pin_in_module_mutex_holder(void)
{
}
#endif

#endif /* _OMAYEXEC_COMPAT_H */
