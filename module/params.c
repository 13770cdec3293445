// SPDX-License-Identifier: GPL-2.0
/*
 * The module parameters: the load-time counterpart of the v5 patches'
 * CONFIG_OMAYEXEC_STATIC, _ENFORCE_MOUNT and _ENFORCE_FILE.
 *
 *   enforce=N   initial policy, same bits as fs.open_mayexec_enforce (0-3)
 *   locked=Y    the policy cannot change and the module cannot be unloaded
 *               until reboot
 *
 * (audit_allowed is in audit.c, rfc_v1 in rfc_v1.c, exec_check in
 * exec_check.c.)
 *
 * A bad value fails the load with EINVAL before init runs.  So does an
 * unknown parameter name, which the module loader itself would only warn
 * about: for a security policy, "enforse=3" must not quietly mean "off".
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/syscall.h>
#include <asm/unistd.h>
#include <uapi/linux/omayexec.h>

#include "common.h"

static int enforce_set(const char *val, const struct kernel_param *kp)
{
	int policy = val ? omayexec_parse_policy(val, strlen(val)) : -EINVAL;

	if (policy < 0) {
		pr_err("invalid enforce=%s: expected 0 to %d (1: refuse noexec mounts, 2: refuse files without exec permission, 3: both)\n",
		       val ?: "", OMAYEXEC_ENFORCE_MASK);
		return -EINVAL;
	}
	*(int *)kp->arg = policy;
	return 0;
}

static const struct kernel_param_ops enforce_ops = {
	.set = enforce_set,
	.get = param_get_int,
};

/*
 * In sysfs, read-only (the sysctl is the one place where the policy is set)
 * and for root only, as the 0600 sysctl: the policy in force is not every
 * user's business.
 */
module_param_cb(enforce, &enforce_ops, &omayexec_policy, 0400);
MODULE_PARM_DESC(enforce,
		 "Initial policy: 0 off, 1 noexec mounts, 2 file exec permission, 3 both");
module_param_named(locked, omayexec_locked, bool, 0444);
MODULE_PARM_DESC(locked,
		 "Fix the policy and pin the module until reboot (default: N)");

/* Ours, and those the module loader takes for every module. */
static const char * const known_params[] = {
	"enforce", "locked", "audit_allowed", "rfc_v1", "exec_check",
	"async_probe", "dyndbg",
};

static char dash_to_underscore(char c)
{
	return c == '-' ? '_' : c;
}

/* As the loader compares names: '-' and '_' are the same. */
static bool param_name_eq(const char *a, const char *b)
{
	while (*a && dash_to_underscore(*a) == dash_to_underscore(*b)) {
		a++;
		b++;
	}
	return dash_to_underscore(*a) == dash_to_underscore(*b);
}

static bool param_is_known(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(known_params); i++)
		if (param_name_eq(name, known_params[i]))
			return true;
	return false;
}

/*
 * The parameter string as the loading task passed it.  The loader's own
 * copy (THIS_MODULE->args) has been cut up in place by parse_args(), but
 * init runs inside the loader's init_module(2) or finit_module(2), so the
 * original is still in its memory.
 */
static const char __user *loader_param_string(void)
{
	struct pt_regs *regs = task_pt_regs(current);
	unsigned long args[6];
	int nr = syscall_get_nr(current, regs);
	int init_module_nr, finit_module_nr;

	omayexec_module_syscall_nrs(&init_module_nr, &finit_module_nr);
	syscall_get_arguments(current, regs, args);
	if (nr == init_module_nr)
		return (const char __user *)args[2];
	if (nr == finit_module_nr)
		return (const char __user *)args[1];
	return NULL;
}

int omayexec_params_check(void)
{
	const char __user *uargs = loader_param_string();
	char *copy, *next, *name, *value;
	int err = 0;

	if (WARN_ON_ONCE(!uargs))
		return 0;

	copy = strndup_user(uargs, ~0UL >> 1);	/* the loader's own limit */
	if (IS_ERR(copy))
		return PTR_ERR(copy);

	next = skip_spaces(copy);
	while (*next) {
		next = next_arg(next, &name, &value);
		if (!param_is_known(name)) {
			pr_err("unknown parameter '%s' (known: enforce=0-3, locked, audit_allowed, rfc_v1, exec_check)\n",
			       name);
			err = -EINVAL;
		}
	}
	kfree(copy);
	return err;
}
