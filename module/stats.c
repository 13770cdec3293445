// SPDX-License-Identifier: GPL-2.0
/*
 * Counts of O_MAYEXEC decisions, read-only in /sys/module/omayexec/stats/:
 *
 *   allowed                     opens the policy let through
 *   refused_not_regular         a directory, FIFO, socket or device
 *   refused_noexec_mount        a file on a noexec mount
 *   refused_no_exec_permission  a file the caller may not execute
 *
 * Only O_MAYEXEC opens are counted, in per-CPU counters, so that no cache
 * line bounces between CPUs on any open.
 */

#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sysfs.h>

#include "common.h"

/* Counted by omayexec_count() (common.h). */
DEFINE_PER_CPU(unsigned long, omayexec_counts[OMAYEXEC_NR_VERDICTS]);

static unsigned long sum(enum omayexec_verdict verdict)
{
	unsigned long total = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		total += per_cpu(omayexec_counts[verdict], cpu);
	return total;
}

/* The module's kobject shows struct module_attribute, not kobj_attribute. */
struct count_attribute {
	struct module_attribute attr;
	enum omayexec_verdict verdict;
};

static ssize_t count_show(struct module_attribute *attr,
			  struct module_kobject *mk, char *buf)
{
	struct count_attribute *count =
		container_of(attr, struct count_attribute, attr);

	return sysfs_emit(buf, "%lu\n", sum(count->verdict));
}

#define COUNT_ATTR(_name, _verdict)					\
	static struct count_attribute count_##_name = {			\
		.attr = __ATTR(_name, 0444, count_show, NULL),		\
		.verdict = _verdict,					\
	}

COUNT_ATTR(allowed, OMAYEXEC_ALLOWED);
COUNT_ATTR(refused_not_regular, OMAYEXEC_NOT_REGULAR);
COUNT_ATTR(refused_noexec_mount, OMAYEXEC_NOEXEC_MOUNT);
COUNT_ATTR(refused_no_exec_permission, OMAYEXEC_NO_EXEC_PERMISSION);

static struct attribute *stats_attrs[] = {
	&count_allowed.attr.attr,
	&count_refused_not_regular.attr.attr,
	&count_refused_noexec_mount.attr.attr,
	&count_refused_no_exec_permission.attr.attr,
	NULL
};

static const struct attribute_group stats_group = {
	.name = "stats",
	.attrs = stats_attrs,
};

int omayexec_stats_register(void)
{
	return sysfs_create_group(&THIS_MODULE->mkobj.kobj, &stats_group);
}

void omayexec_stats_unregister(void)
{
	sysfs_remove_group(&THIS_MODULE->mkobj.kobj, &stats_group);
}
