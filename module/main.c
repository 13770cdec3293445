// SPDX-License-Identifier: GPL-2.0
/*
 * omayexec: O_MAYEXEC for openat2(2) on a stock kernel (Debian's 6.1, 6.12).
 *
 * An interpreter opens the code it is about to run with
 * openat2(..., O_MAYEXEC); the open is then refused with EACCES when the
 * policy in fs.open_mayexec_enforce says the file must not be executed.
 *
 * Two functions of the open path are hooked (hooks.c):
 *
 *  - do_sys_openat2(), where open(2), openat(2) and openat2(2), native and
 *    compat, all arrive with their flags in a struct open_how, and before
 *    build_open_flags() would reject the flag.  open(2) and openat(2) have
 *    dropped unknown flags already, so only openat2(2) can bring O_MAYEXEC
 *    here: those opens are diverted to omayexec_openat2() (openat2.c).
 *
 *  - may_open(), where the path has been resolved and the object is about
 *    to be opened: omayexec_do_open() marks its opens so that the may_open
 *    hook sends them to the policy check (may_open.c).
 *
 * With the rfc_v1 parameter, the open(2) and openat(2) syscall entries are
 * hooked too, to honour the flag there (rfc_v1.c).  With the exec_check
 * parameter (the default) the module also gives Linux 6.14's interface:
 * execveat(2) with AT_EXECVE_CHECK (exec_check.c) and the exec securebits
 * (securebits.c).
 *
 * Opens without the flag only pay the bit test in each trampoline
 * (trampolines.S).  Decisions are counted (stats.c) and audited (audit.c).
 * With the locked parameter, the module stays until reboot (pin.c).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/rcupdate.h>

#include "common.h"

/*
 * Set once everything is installed, never cleared: until then the
 * trampolines let every hooked function run as if they were not there
 * (trampolines.S), so a load is all or nothing.  A load that fails after
 * some hooks were in place has let no task into the module's C code, and
 * no task has taken the exec securebits or a reference on the module.
 */
bool omayexec_live __read_mostly;

static int __init omayexec_init(void)
{
	int err;

	err = omayexec_params_check();
	if (err)
		return err;

	err = omayexec_resolve_symbols();
	if (err)
		return err;

	err = omayexec_openat2_selftest();
	if (err)
		return err;

	err = omayexec_pin_prepare();
	if (err)
		return err;

	/* Before any other ftrace user: refuses a load at ftrace_enabled=0. */
	err = omayexec_guard_install();
	if (err)
		goto out_pin;

	err = omayexec_securebits_install();
	if (err)
		goto out_guard;

	err = omayexec_hooks_install();
	if (err)
		goto out_securebits;

	err = omayexec_stats_register();
	if (err)
		goto out_hooks;

	err = omayexec_sysctl_register();
	if (err)
		goto out_stats;

	/*
	 * Nothing can fail from here.  Once pinned, the module must be
	 * working, for good; delete_module() refuses a module that is still
	 * COMING, so it cannot go between the two.
	 */
	if (omayexec_locked)
		omayexec_pin();
	WRITE_ONCE(omayexec_live, true);

	pr_info("O_MAYEXEC enabled: policy %d%s%s%s\n", omayexec_policy,
		omayexec_locked ? ", locked" : "",
		omayexec_rfc_v1 ? ", also on open(2) and openat(2) (RFC v1)" : "",
		omayexec_exec_check ? "; AT_EXECVE_CHECK and exec securebits" : "");
	return 0;

out_stats:
	omayexec_stats_unregister();
out_hooks:
	if (!omayexec_hooks_remove())
		omayexec_hooks_stranded();
out_securebits:
	/*
	 * The hooks are gone, but a task may still be on a trampoline's few
	 * instructions, which the module's memory holds: wait for it.
	 */
	synchronize_rcu_tasks();
	omayexec_securebits_remove();
out_guard:
	omayexec_guard_remove();
out_pin:
	omayexec_pin_cancel();
	return err;
}

static void __exit omayexec_exit(void)
{
	if (!omayexec_hooks_remove())
		omayexec_hooks_stranded();
	/*
	 * No task can enter the module through the hooks any more.  A task
	 * may still be on the few instructions that run without a reference
	 * on the module: inside a trampoline, between a trampoline and
	 * try_module_get() (omayexec_get()), or between module_put() and the
	 * return.  None of them sleeps, so one RCU-tasks grace period sees
	 * them all out.  (A pinned module, whose calls take no reference,
	 * never gets here.)
	 */
	synchronize_rcu_tasks();
	omayexec_securebits_remove();
	omayexec_guard_remove();
	omayexec_pin_release();
	omayexec_stats_unregister();
	omayexec_sysctl_unregister();
	pr_info("O_MAYEXEC disabled\n");
}

module_init(omayexec_init);
module_exit(omayexec_exit);

MODULE_DESCRIPTION("O_MAYEXEC for openat2(2): refuse to open for execution what policy says must not run");
MODULE_LICENSE("GPL");
MODULE_VERSION(OMAYEXEC_VERSION);
