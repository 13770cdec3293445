// SPDX-License-Identifier: GPL-2.0
/*
 * The O_MAYEXEC policies in force, and the sysctls where they are read and
 * set at run time:
 *
 *   fs.open_mayexec_enforce            openat2(2), mode 0600 (the v5 patches)
 *   kernel.yama.open_mayexec_enforce   open(2) and openat(2), mode 0644,
 *                                      with the rfc_v1 parameter only (the
 *                                      2018 RFC)
 *
 * Both start at the enforce parameter's value and are fixed by the locked
 * parameter (params.c).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/sysctl.h>
#include <uapi/linux/omayexec.h>

#include "common.h"

/* Read once per O_MAYEXEC open (READ_ONCE), never on other opens. */
int omayexec_policy __read_mostly = OMAYEXEC_ENFORCE_NONE;
int omayexec_rfc_v1_policy __read_mostly = OMAYEXEC_ENFORCE_NONE;
bool omayexec_locked __ro_after_init;

/*
 * The one spelling of a policy, in the sysctl and in enforce=: a single
 * digit from 0 to 3, and a newline after it at most (what "echo 3 >" writes).
 * No sign, no leading zero, no base prefix, no space, no NUL: kstrtoint()
 * would take "+1", "-0", "01" and "1\0junk", and a security setting should
 * not have several spellings that a filter or an audit rule could miss.
 * Returns the policy or -EINVAL.
 */
int omayexec_parse_policy(const char *text, size_t len)
{
	if (len == 2 && text[1] == '\n')
		len = 1;
	if (len != 1 || text[0] < '0' || text[0] > '0' + OMAYEXEC_ENFORCE_MASK)
		return -EINVAL;
	return text[0] - '0';
}

/*
 * Short and strict, as Yama's: the writer must have CAP_MAC_ADMIN in the
 * initial user namespace at write time, the policy must not be locked, and
 * the write must be one policy (omayexec_parse_policy()) in one write at
 * offset 0.  Anything else is EINVAL and leaves the policy as it was.
 */
static int policy_sysctl_handler(omayexec_ctl_table *table, int write,
				 void *buffer, size_t *lenp, loff_t *ppos)
{
	int policy;

	if (!write)
		return proc_dointvec(table, write, buffer, lenp, ppos);

	if (!capable(CAP_MAC_ADMIN) || omayexec_locked)
		return -EPERM;

	/* *lenp is the length of the write, NULs included. */
	policy = *ppos ? -EINVAL : omayexec_parse_policy(buffer, *lenp);
	if (policy < 0)
		return policy;

	WRITE_ONCE(*(int *)table->data, policy);
	*ppos += *lenp;
	return 0;
}

static struct ctl_table policy_sysctl_table[] = {
	{
		.procname = "open_mayexec_enforce",
		.data = &omayexec_policy,
		.maxlen = sizeof(int),
		.mode = 0600,
		.proc_handler = policy_sysctl_handler,
	},
	OMAYEXEC_SYSCTL_TABLE_END
};

static struct ctl_table rfc_v1_sysctl_table[] = {
	{
		.procname = "open_mayexec_enforce",
		.data = &omayexec_rfc_v1_policy,
		.maxlen = sizeof(int),
		.mode = 0644,
		.proc_handler = policy_sysctl_handler,
	},
	OMAYEXEC_SYSCTL_TABLE_END
};

static struct ctl_table_header *policy_sysctl_header;
static struct ctl_table_header *rfc_v1_sysctl_header;

int omayexec_sysctl_register(void)
{
	BUILD_BUG_ON(OMAYEXEC_ENFORCE_MASK != 3);

	policy_sysctl_header = register_sysctl("fs", policy_sysctl_table);
	if (!policy_sysctl_header) {
		pr_err("cannot register fs.open_mayexec_enforce\n");
		return -ENOMEM;
	}
	if (!omayexec_rfc_v1)
		return 0;

	omayexec_rfc_v1_policy = omayexec_policy;
	rfc_v1_sysctl_header = register_sysctl("kernel/yama",
					       rfc_v1_sysctl_table);
	if (!rfc_v1_sysctl_header) {
		pr_err("cannot register kernel.yama.open_mayexec_enforce\n");
		unregister_sysctl_table(policy_sysctl_header);
		return -ENOMEM;
	}
	return 0;
}

void omayexec_sysctl_unregister(void)
{
	if (rfc_v1_sysctl_header)
		unregister_sysctl_table(rfc_v1_sysctl_header);
	unregister_sysctl_table(policy_sysctl_header);
}
