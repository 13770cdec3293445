// SPDX-License-Identifier: GPL-2.0
/*
 * The O_MAYEXEC policy: fs.open_mayexec_enforce and the load-time
 * parameters that set it and may lock it.
 *
 *   enforce=N   initial policy, same bits as the sysctl (0 to 3)
 *   locked=Y    the policy cannot change and the module cannot be unloaded
 *               until reboot (the counterpart of the v5 patches'
 *               CONFIG_OMAYEXEC_STATIC)
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/sysctl.h>
#include <uapi/linux/omayexec.h>

#include "omayexec.h"

/* Read once per O_MAYEXEC open (READ_ONCE), never on other opens. */
int omayexec_policy __read_mostly = OMAYEXEC_ENFORCE_NONE;
bool omayexec_locked __ro_after_init;

static int enforce_set(const char *val, const struct kernel_param *kp)
{
	int policy;

	if (!val || kstrtoint(val, 0, &policy) ||
	    policy & ~OMAYEXEC_ENFORCE_MASK) {
		pr_err("invalid enforce=%s: expected 0 to %d (bit 1: noexec mounts, bit 2: file permission)\n",
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

/* Read-only in sysfs: the sysctl is the one place where the policy is set. */
module_param_cb(enforce, &enforce_ops, &omayexec_policy, 0444);
MODULE_PARM_DESC(enforce,
		 "Initial policy: 0 off, 1 noexec mounts, 2 file exec permission, 3 both");
module_param_named(locked, omayexec_locked, bool, 0444);
MODULE_PARM_DESC(locked,
		 "Fix the policy and pin the module until reboot (default: N)");

/*
 * Short and strict, as Yama's: the caller must have CAP_MAC_ADMIN in the
 * initial user namespace at write time, the policy must not be locked, and
 * proc_dointvec_minmax() leaves the policy untouched on anything but a
 * number from 0 to 3.
 */
static int policy_sysctl_handler(struct ctl_table *table, int write,
				 void *buffer, size_t *lenp, loff_t *ppos)
{
	if (write && (!capable(CAP_MAC_ADMIN) || omayexec_locked))
		return -EPERM;

	return proc_dointvec_minmax(table, write, buffer, lenp, ppos);
}

static struct ctl_table policy_sysctl_table[] = {
	{
		.procname = "open_mayexec_enforce",
		.data = &omayexec_policy,
		.maxlen = sizeof(int),
		.mode = 0600,
		.proc_handler = policy_sysctl_handler,
		.extra1 = SYSCTL_ZERO,
		.extra2 = SYSCTL_THREE,
	},
	{}
};

static struct ctl_table_header *policy_sysctl_header;

int omayexec_sysctl_register(void)
{
	BUILD_BUG_ON(OMAYEXEC_ENFORCE_MASK != 3);

	policy_sysctl_header = register_sysctl("fs", policy_sysctl_table);
	if (!policy_sysctl_header) {
		pr_err("cannot register fs.open_mayexec_enforce\n");
		return -ENOMEM;
	}
	return 0;
}

void omayexec_sysctl_unregister(void)
{
	unregister_sysctl_table(policy_sysctl_header);
}
