// SPDX-License-Identifier: GPL-2.0
/*
 * Addresses of the kernel functions omayexec needs but that the kernel does
 * not export to modules.
 *
 * kallsyms_lookup_name() is not exported either; registering a kprobe on it
 * and reading the probe's address is the one way left to find it.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/printk.h>

#include "omayexec.h"

struct omayexec_symbols omayexec_sym;

typedef unsigned long (*lookup_name_t)(const char *name);

static lookup_name_t find_kallsyms_lookup_name(void)
{
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	lookup_name_t lookup;
	int err;

	err = register_kprobe(&kp);
	if (err) {
		pr_err("cannot find kallsyms_lookup_name: register_kprobe() failed: %d\n",
		       err);
		return NULL;
	}
	lookup = (lookup_name_t)kp.addr;
	unregister_kprobe(&kp);
	return lookup;
}

static int resolve(lookup_name_t lookup, const char *name, void **addr)
{
	*addr = (void *)lookup(name);
	if (!*addr) {
		pr_err("kernel symbol %s not found\n", name);
		return -ENOENT;
	}
	return 0;
}

#define RESOLVE(field) resolve(lookup, #field, (void **)&omayexec_sym.field)
#define RESOLVE_AS(field, name) resolve(lookup, name, (void **)&omayexec_sym.field)

int omayexec_resolve_symbols(void)
{
	lookup_name_t lookup = find_kallsyms_lookup_name();

	if (!lookup)
		return -ENOENT;

	if (omayexec_locked && RESOLVE(module_mutex))
		return -ENOENT;

	return RESOLVE(do_sys_openat2) ?: RESOLVE(may_open) ?:
	       RESOLVE(build_open_flags) ?: RESOLVE(getname) ?:
	       RESOLVE(do_filp_open) ?:
	       RESOLVE_AS(sys_open, "__x64_sys_open") ?:
	       RESOLVE_AS(sys_openat, "__x64_sys_openat") ?:
	       RESOLVE_AS(compat_sys_open, "__ia32_compat_sys_open") ?:
	       RESOLVE_AS(compat_sys_openat, "__ia32_compat_sys_openat");
}
