/* SPDX-License-Identifier: GPL-2.0 */
/*
 * omayexec: declarations shared by the module's files.
 */
#ifndef _OMAYEXEC_COMMON_H
#define _OMAYEXEC_COMMON_H

#include <linux/compiler.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/static_call_types.h>
#include <linux/types.h>

#include "arch.h"
#include "compat.h"

struct cred;
struct filename;
struct linux_binprm;
struct mutex;
struct open_flags;
struct open_how;
struct path;
struct pt_regs;
struct user_namespace;

/* main.c: set once the load has installed everything (trampolines.S). */
extern bool omayexec_live;

/*
 * policy.c: the policies in force and their sysctls: fs.open_mayexec_enforce
 * for openat2(2), and kernel.yama.open_mayexec_enforce for open(2) and
 * openat(2) with the rfc_v1 parameter.
 */
extern int omayexec_policy;
extern int omayexec_rfc_v1_policy;
extern bool omayexec_locked;
int omayexec_parse_policy(const char *text, size_t len);
int omayexec_sysctl_register(void);
void omayexec_sysctl_unregister(void);

/* params.c: the module parameters that set the policy at load time. */
int omayexec_params_check(void);

/*
 * symbols.c: kernel functions that are neither exported nor in headers.
 *
 * The hooked functions' addresses, for ftrace; the ones the O_MAYEXEC path
 * calls, as static calls (their 6.1 and 6.12 signatures agree): a static
 * call is a direct call patched in place, where a call through a function
 * pointer would be an indirect branch to a function that has no live ENDBR
 * on a kernel with IBT (6.12), a #CP fault.
 */
struct omayexec_symbols {
	/* Hooked: the trampolines run at their entry. */
	unsigned long do_sys_openat2;
	unsigned long may_open;
	/* The syscall entries (arch.h: OMAYEXEC_SYS, OMAYEXEC_COMPAT_SYS). */
	unsigned long sys_open;
	unsigned long sys_openat;
	unsigned long compat_sys_open;
	unsigned long compat_sys_openat;
	unsigned long sys_execveat;
	unsigned long compat_sys_execveat;
	unsigned long cap_task_prctl;
	unsigned long create_user_ns;
	/* Watched, not hooked (securebits.c). */
	unsigned long set_cred_ucounts;
	/* With locked=Y only (pin.c): kernel/module/main.c's lock. */
	struct mutex *module_mutex;
	/*
	 * IMA's ima_policy_flag, 0 while no rule can act (openat2.c): or,
	 * where the kernel has none, a non-zero int of the module's own.
	 */
	const int *ima_policy_flag;
};
extern struct omayexec_symbols omayexec_sym;
int omayexec_resolve_symbols(void);

typedef int stock_may_open_t(omayexec_idmap_t *idmap, const struct path *path,
			     int acc_mode, int flag);
typedef int stock_build_open_flags_t(const struct open_how *how,
				     struct open_flags *op);
typedef struct filename *stock_getname_t(const char __user *filename);
typedef struct file *stock_do_filp_open_t(int dfd, struct filename *pathname,
					  const struct open_flags *op);
/* stock_may_open: may_open()'s body, past its hook (symbols.c). */
DECLARE_STATIC_CALL(stock_may_open, stock_may_open_t);
DECLARE_STATIC_CALL(stock_build_open_flags, stock_build_open_flags_t);
DECLARE_STATIC_CALL(stock_getname, stock_getname_t);
DECLARE_STATIC_CALL(stock_do_filp_open, stock_do_filp_open_t);
/* What execveat(AT_EXECVE_CHECK) calls (and compat.h's stock_alloc_bprm). */
typedef struct filename *stock_getname_uflags_t(const char __user *filename,
						int uflags);
typedef void stock_free_bprm_t(struct linux_binprm *bprm);
typedef struct cred *stock_prepare_exec_creds_t(void);
typedef int stock_security_bprm_creds_for_exec_t(struct linux_binprm *bprm);
typedef int stock_ima_bprm_check_t(struct linux_binprm *bprm);
DECLARE_STATIC_CALL(stock_getname_uflags, stock_getname_uflags_t);
DECLARE_STATIC_CALL(stock_free_bprm, stock_free_bprm_t);
DECLARE_STATIC_CALL(stock_prepare_exec_creds, stock_prepare_exec_creds_t);
DECLARE_STATIC_CALL(stock_security_bprm_creds_for_exec,
		    stock_security_bprm_creds_for_exec_t);
DECLARE_STATIC_CALL(stock_ima_bprm_check, stock_ima_bprm_check_t);
/* What PR_SET_SECUREBITS calls (securebits.c). */
typedef int stock_cap_capable_t(const struct cred *cred,
				struct user_namespace *targ_ns, int cap,
				unsigned int opts);
DECLARE_STATIC_CALL(stock_cap_capable, stock_cap_capable_t);
/* create_user_ns() past its ftrace call site: the body of the hooked function. */
typedef int stock_create_user_ns_t(struct cred *new);
DECLARE_STATIC_CALL(stock_create_user_ns_body, stock_create_user_ns_t);

/*
 * pin.c: the module stays until reboot, even against rmmod -f: from init
 * with locked=Y, and from the first use of the exec securebits.
 */
int omayexec_pin_prepare(void);
void omayexec_pin_cancel(void);
void omayexec_pin(void);
void omayexec_pin_release(void);
extern bool omayexec_pinned;

/*
 * Take a reference on the module for a call that may sleep in its code
 * (an open: a FIFO without a writer), unless it is pinned: then it can
 * never be unloaded, and the reference, an atomic on a line every CPU
 * shares, buys nothing.  False if the module is going away.  Once true,
 * omayexec_pinned stays true: a call that saw it needs no put.
 *
 * The reference is try_module_get()'s and module_put()'s, the same atomics
 * on THIS_MODULE->refcnt (kernel/module/main.c, alike in 6.1 and 6.12 but
 * for a preempt_disable() in 6.1 that guards nothing delete_module() does
 * there), inline: the two calls cost an O_MAYEXEC open 29 instructions on
 * 6.12 (tests/bench/run-profile), inline 8.  What they leave out is their
 * module_get and module_put tracepoints.
 */
static inline bool omayexec_get(bool *got)
{
	*got = !READ_ONCE(omayexec_pinned);
	return !*got || (module_is_live(THIS_MODULE) &&
			 atomic_inc_not_zero(&THIS_MODULE->refcnt));
}

static inline void omayexec_put(bool got)
{
	if (got)
		WARN_ON(atomic_dec_if_positive(&THIS_MODULE->refcnt) < 0);
}

/*
 * hooks.c: install and remove the ftrace direct calls, and the guard that
 * keeps kernel.ftrace_enabled at 1 meanwhile.
 */
int omayexec_guard_install(void);
void omayexec_guard_remove(void);
void omayexec_guard_hit(void);
int omayexec_hooks_install(void);
bool omayexec_hooks_remove(void);
void __noreturn omayexec_hooks_stranded(void);

/*
 * The two interfaces: openat2(2) with the v5 semantics, and, when the
 * rfc_v1 parameter is set, open(2) and openat(2) with the semantics of the
 * 2018 RFC (rfc_v1.c).
 */
enum omayexec_interface {
	OMAYEXEC_OPENAT2,
	OMAYEXEC_RFC_V1,
};

/* The policy in force for an interface's opens. */
static inline int omayexec_policy_of(enum omayexec_interface interface)
{
	return interface == OMAYEXEC_RFC_V1 ? READ_ONCE(omayexec_rfc_v1_policy) :
					      READ_ONCE(omayexec_policy);
}

/*
 * openat2.c: do_sys_openat2() for the opens that carry O_MAYEXEC;
 * omayexec_do_open() keeps the module (omayexec_get()) while it runs.
 */
int omayexec_openat2_selftest(void);
long omayexec_do_open(int dfd, const char __user *filename,
		      struct open_how *how, enum omayexec_interface interface);
long omayexec_openat2(int dfd, const char __user *filename,
		      struct open_how *how);

/* may_open.c: may_open() for the opens that carry O_MAYEXEC. */
int omayexec_may_open(omayexec_idmap_t *idmap, const struct path *path,
		      int acc_mode, int flag);

/* What the policy decided about one O_MAYEXEC open, and why. */
enum omayexec_verdict {
	OMAYEXEC_ALLOWED,
	OMAYEXEC_NOT_REGULAR,
	OMAYEXEC_NOEXEC_MOUNT,
	OMAYEXEC_NO_EXEC_PERMISSION,
	OMAYEXEC_NR_VERDICTS
};

/* rfc_v1.c: the 2018 RFC's interface, on request. */
extern bool omayexec_rfc_v1;
long omayexec_sys_open(const struct pt_regs *regs);
long omayexec_sys_openat(const struct pt_regs *regs);
long omayexec_compat_sys_open(const struct pt_regs *regs);
long omayexec_compat_sys_openat(const struct pt_regs *regs);

/*
 * exec_check.c: execveat(AT_EXECVE_CHECK), Linux 6.14's interface, with the
 * exec_check parameter (on by default).
 */
extern bool omayexec_exec_check;
long omayexec_sys_execveat(const struct pt_regs *regs);
long omayexec_compat_sys_execveat(const struct pt_regs *regs);

/*
 * securebits.c: the exec securebits of Linux 6.14 (with exec_check):
 * PR_SET_SECUREBITS takes them, user namespaces keep them.
 */
int omayexec_cap_task_prctl(int option, unsigned long arg2, unsigned long arg3,
			    unsigned long arg4, unsigned long arg5);
int omayexec_create_user_ns(struct cred *new);
int omayexec_securebits_install(void);
void omayexec_securebits_remove(void);

/*
 * stats.c: counts of O_MAYEXEC decisions, in /sys/module/omayexec/stats/.
 * Counted inline: every O_MAYEXEC open counts, and the increment of a
 * per-CPU counter is one instruction where a call to it was a dozen.
 */
DECLARE_PER_CPU(unsigned long, omayexec_counts[OMAYEXEC_NR_VERDICTS]);

static inline void omayexec_count(enum omayexec_verdict verdict)
{
	this_cpu_inc(omayexec_counts[verdict]);
}

int omayexec_stats_register(void);
void omayexec_stats_unregister(void);

/*
 * audit.c: one audit record per refusal, and per allowed open on request.
 * An allowed open, the common case, is not recorded unless audit_allowed
 * says so: that test is inline, so that it costs a load, not a call.
 */
extern bool omayexec_audit_allowed;
void omayexec_audit_record(enum omayexec_verdict verdict,
			   const struct path *path,
			   enum omayexec_interface interface, int policy);

static inline void omayexec_audit(enum omayexec_verdict verdict,
				  const struct path *path,
				  enum omayexec_interface interface, int policy)
{
	if (verdict == OMAYEXEC_ALLOWED && !READ_ONCE(omayexec_audit_allowed))
		return;
	omayexec_audit_record(verdict, path, interface, policy);
}

/*
 * The outcome of an O_MAYEXEC open, counted and audited once: a refusal
 * where the policy makes it (may_open.c), an allowed open once every other
 * check (fanotify, Landlock, IMA) has let it through (openat2.c), so that
 * neither the counters nor the audit log call allowed an open that failed.
 */
static inline void omayexec_record(enum omayexec_verdict verdict,
				   const struct path *path,
				   enum omayexec_interface interface, int policy)
{
	omayexec_count(verdict);
	omayexec_audit(verdict, path, interface, policy);
}

/* arch/ARCH/trampolines.S: what ftrace calls at the hooked functions' entry. */
void omayexec_do_sys_openat2_tramp(void);
void omayexec_may_open_tramp(void);
void omayexec_sys_open_tramp(void);
void omayexec_sys_openat_tramp(void);
void omayexec_compat_sys_open_tramp(void);
void omayexec_compat_sys_openat_tramp(void);
void omayexec_sys_execveat_tramp(void);
void omayexec_compat_sys_execveat_tramp(void);
void omayexec_cap_task_prctl_tramp(void);
void omayexec_create_user_ns_tramp(void);

#endif /* _OMAYEXEC_COMMON_H */
