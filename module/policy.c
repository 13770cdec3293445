// SPDX-License-Identifier: GPL-2.0
/*
 * The O_MAYEXEC policy in force, and fs.open_mayexec_enforce, where it is
 * read and set at run time.  Its initial value and the lock come from the
 * module parameters (params.c).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/sysctl.h>
#include <uapi/linux/omayexec.h>

#include "omayexec.h"

/* Read once per O_MAYEXEC open (READ_ONCE), never on other opens. */
int omayexec_policy __read_mostly = OMAYEXEC_ENFORCE_NONE;
bool omayexec_locked __ro_after_init;

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
