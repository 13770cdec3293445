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

#include <linux/ftrace.h>
#include <linux/kernel.h>
#include <linux/printk.h>

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

static void guard_func(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
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

void omayexec_hooks_remove(void)
{
	int i, err;

	for (i = ARRAY_SIZE(hooks) - 1; i >= 0; i--) {
		if (!hooks[i].installed)
			continue;
		err = omayexec_hook_remove(&hooks[i].ops, *hooks[i].target,
					   (unsigned long)hooks[i].trampoline);
		if (WARN(err, "cannot unhook %s: %d\n", hooks[i].name, err))
			continue;
		hooks[i].installed = false;
	}
}

int omayexec_hooks_install(void)
{
	size_t i;
	int err;

	for (i = 0; i < ARRAY_SIZE(hooks); i++) {
		if (hooks[i].wanted && !*hooks[i].wanted)
			continue;
		err = hook_install(&hooks[i]);
		if (err) {
			omayexec_hooks_remove();
			return err;
		}
		hooks[i].installed = true;
	}
	return 0;
}
