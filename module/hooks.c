// SPDX-License-Identifier: GPL-2.0
/*
 * The hooks, as ftrace direct calls: do_sys_openat2() and may_open(), with
 * the rfc_v1 parameter the open(2) and openat(2) syscall entries, and with
 * the exec_check parameter (the default) the execveat(2) ones,
 * cap_task_prctl() and create_user_ns().
 *
 * Every open on the machine goes through the hooked functions, so the hook
 * mechanism is chosen for its cost on opens that do not carry O_MAYEXEC.  A
 * direct call makes the function's first instruction call a trampoline of
 * ours (trampolines.S) that tests one bit and returns: a handful of
 * instructions, where an ftrace_ops callback would first save and restore
 * the registers in ftrace's own trampoline on every call.
 *
 * ftrace refuses a direct call on a function that another ftrace user
 * already redirects (a livepatch, a BPF trampoline, another direct call),
 * and refuses such users once ours is in place.
 *
 * kernel.ftrace_enabled=0 would switch every direct call off, silently, and
 * a load while it is 0 would hook nothing.  ftrace refuses both as long as
 * a PERMANENT ftrace_ops is registered, and the direct-call API overwrites
 * the flags of the ops it is given, so the module registers one more ops
 * for that alone, before any other ftrace user of its (main.c): the guard,
 * on a function of its own that never runs, so that it costs nothing.  (A
 * load that registered, then removed, an ordinary ftrace_ops while
 * ftrace_enabled is 0 left a record flag behind on 6.1, which the next
 * ftrace user's removal met as a WARNING.)
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/ftrace.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/sched.h>

#include "common.h"

struct hook {
	const char *name;
	unsigned long *target;	/* in omayexec_sym, resolved before install */
	void (*trampoline)(void);
	const bool *wanted;	/* installed only if set; NULL: always */
	struct ftrace_ops ops;
	bool installed;
};

/*
 * Installed in this order, removed in the reverse one.  The may_open hook
 * judges O_MAYEXEC opens and the others let the flag through, so at every
 * moment the flag is either refused (EINVAL from openat2(2), ignored by
 * open(2)), as by the stock kernel, or checked.
 */
static struct hook hooks[] = {
	{ "may_open", &omayexec_sym.may_open,
	  omayexec_may_open_tramp },
	{ "do_sys_openat2", &omayexec_sym.do_sys_openat2,
	  omayexec_do_sys_openat2_tramp },
	{ OMAYEXEC_SYS(open), &omayexec_sym.sys_open,
	  omayexec_sys_open_tramp, &omayexec_rfc_v1 },
	{ OMAYEXEC_SYS(openat), &omayexec_sym.sys_openat,
	  omayexec_sys_openat_tramp, &omayexec_rfc_v1 },
	{ OMAYEXEC_COMPAT_SYS(open), &omayexec_sym.compat_sys_open,
	  omayexec_compat_sys_open_tramp, &omayexec_rfc_v1 },
	{ OMAYEXEC_COMPAT_SYS(openat), &omayexec_sym.compat_sys_openat,
	  omayexec_compat_sys_openat_tramp, &omayexec_rfc_v1 },
	{ OMAYEXEC_SYS(execveat), &omayexec_sym.sys_execveat,
	  omayexec_sys_execveat_tramp, &omayexec_exec_check },
	{ OMAYEXEC_COMPAT_SYS(execveat), &omayexec_sym.compat_sys_execveat,
	  omayexec_compat_sys_execveat_tramp, &omayexec_exec_check },
	{ "cap_task_prctl", &omayexec_sym.cap_task_prctl,
	  omayexec_cap_task_prctl_tramp, &omayexec_exec_check },
	{ "create_user_ns", &omayexec_sym.create_user_ns,
	  omayexec_create_user_ns_tramp, &omayexec_exec_check },
};

static const char *reason(int err)
{
	switch (err) {
	case -EBUSY:
		return "another ftrace user redirects it already (a livepatch, a BPF trampoline or another module), or kernel.ftrace_enabled is 0";
	case -ENODEV:
	case -EINVAL:
		return "it cannot be traced";
	case -ENOMEM:
		return "out of memory";
	default:
		return "ftrace refused";
	}
}

/* ---- The guard: keeps kernel.ftrace_enabled at 1 ------------------------ */

/* Never called: the guard's filter needs a function, and this one is ours. */
static noinline void __used guard_target(void)
{
	barrier();
}

/* The task whose open the self-test watches for, while it runs. */
static struct task_struct *probe_task;
static bool probe_reached;

/*
 * The guard's callback, for the functions the self-test adds to its filter
 * (guard_target itself never runs); redirect.c's, for the functions that
 * are not its hooks.
 */
void notrace omayexec_guard_hit(void)
{
	if (READ_ONCE(probe_task) == current)
		WRITE_ONCE(probe_reached, true);
}

static void guard_func(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	omayexec_guard_hit();
}

static struct ftrace_ops guard_ops = {
	.func = guard_func,
	.flags = FTRACE_OPS_FL_PERMANENT,
};

int omayexec_guard_install(void)
{
	int err;

	err = omayexec_guard_register(&guard_ops, (unsigned long)guard_target);
	if (err)
		pr_err("cannot hold kernel.ftrace_enabled: error %d: %s\n",
		       err, err == -EBUSY ? "it is 0" : "ftrace refused");
	return err;
}

void omayexec_guard_remove(void)
{
	WARN_ON(omayexec_guard_unregister(&guard_ops));
}

/* ---- The hooks ------------------------------------------------------------ */

static int hook_install(struct hook *hook)
{
	int err;

	err = omayexec_hook_add(&hook->ops, *hook->target,
				(unsigned long)hook->trampoline);
	if (err)
		pr_err("cannot hook %s: error %d: %s\n", hook->name, err,
		       reason(err));
	return err;
}

/*
 * Removes every hook it can; false if one stays, its function still
 * calling into the module (ftrace refused: -ENODEV once an ftrace bug has
 * disabled it).  The caller must then never free the module's text:
 * omayexec_hooks_stranded().
 */
bool omayexec_hooks_remove(void)
{
	bool all = true;
	int i, err;

	for (i = ARRAY_SIZE(hooks) - 1; i >= 0; i--) {
		if (!hooks[i].installed)
			continue;
		err = omayexec_hook_remove(&hooks[i].ops, *hooks[i].target,
					   (unsigned long)hooks[i].trampoline);
		if (err) {
			pr_crit("cannot unhook %s: error %d\n", hooks[i].name,
				err);
			all = false;
			continue;
		}
		hooks[i].installed = false;
	}
	return all;
}

/*
 * A hook ftrace would not remove still calls the module's trampoline on
 * every call of its function, and a module's exit (or failed init) cannot
 * refuse to have its memory freed once it returns.  So it never returns:
 * the task that unloads (or loads) the module waits here for good, in
 * TASK_IDLE (not a hung task, no load), and the module's memory stays.
 * Meanwhile the trampolines send calls on as if the module were going
 * away (omayexec_get() fails for a module that is not live): plain opens
 * and execs as stock, the module's interfaces refused as the stock kernel
 * refuses them.  Only a reboot ends it, which the message says.
 */
void __noreturn omayexec_hooks_stranded(void)
{
	pr_crit("hooks left in place: the module cannot be freed; %s waits for good, reboot to end it\n",
		current->comm);
	for (;;) {
		set_current_state(TASK_IDLE);
		schedule();
	}
}

/*
 * The policy is only as good as the may_open() it hooks being the one the
 * open path calls.  A kernel built so that do_open() has its own inlined
 * copy, with an out-of-line may_open() kept for another caller, would let
 * the module load, say "policy 3" and judge nothing.  So before the hooks
 * go in, the guard watches may_open() while this task opens "/" through
 * the stock open path: the open must come through it, whatever its
 * result (an LSM may refuse it, in may_open() itself).  Watching costs
 * no RCU-tasks grace period: the guard stays registered, and only its
 * filter grows and shrinks.
 */
static int hooks_selftest(void)
{
	unsigned long func = omayexec_sym.may_open;
	struct file *file;
	int err;

	err = omayexec_guard_watch(&guard_ops, func, true);
	if (err) {
		pr_err("cannot hook may_open: error %d: %s\n", err, reason(err));
		return err;
	}
	WRITE_ONCE(probe_reached, false);
	WRITE_ONCE(probe_task, current);
	file = filp_open("/", O_RDONLY | O_DIRECTORY, 0);
	WRITE_ONCE(probe_task, NULL);
	if (!IS_ERR(file))
		filp_close(file, NULL);
	err = omayexec_guard_watch(&guard_ops, func, false);
	if (WARN_ON(err))
		return err;

	if (!READ_ONCE(probe_reached)) {
		pr_err("may_open at %pS is not on the open path (an open of / did not call it): nothing would be checked\n",
		       (void *)func);
		return -ENOEXEC;
	}
	return 0;
}

int omayexec_hooks_install(void)
{
	size_t i;
	int err;

	err = hooks_selftest();
	if (err)
		return err;

	for (i = 0; i < ARRAY_SIZE(hooks); i++) {
		if (hooks[i].wanted && !*hooks[i].wanted)
			continue;
		err = hook_install(&hooks[i]);
		if (err) {
			if (!omayexec_hooks_remove())
				omayexec_hooks_stranded();
			return err;
		}
		hooks[i].installed = true;
	}
	return 0;
}
