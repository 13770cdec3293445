// SPDX-License-Identifier: GPL-2.0
/*
 * The hooks, as ftrace direct calls: do_sys_openat2() and may_open(), and
 * with the rfc_v1 parameter the open(2) and openat(2) syscall entries.
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
 * and refuses such users once ours is in place.  Its direct_ops is
 * FTRACE_OPS_FL_PERMANENT: while the hooks are installed, writing 0 to
 * kernel.ftrace_enabled fails with EBUSY instead of switching them off.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/kernel.h>
#include <linux/printk.h>

#include "omayexec.h"

struct hook {
	const char *name;
	void **target;		/* in omayexec_sym, resolved before install */
	void (*trampoline)(void);
	const bool *wanted;	/* installed only if set; NULL: always */
	bool installed;
};

/*
 * Installed in this order, removed in the reverse one.  The may_open hook
 * judges O_MAYEXEC opens and the others let the flag through, so at every
 * moment the flag is either refused (EINVAL from openat2(2), ignored by
 * open(2)), as by the stock kernel, or checked.
 */
static struct hook hooks[] = {
	{ "may_open", (void **)&omayexec_sym.may_open,
	  omayexec_may_open_tramp },
	{ "do_sys_openat2", (void **)&omayexec_sym.do_sys_openat2,
	  omayexec_do_sys_openat2_tramp },
	{ "__x64_sys_open", (void **)&omayexec_sym.sys_open,
	  omayexec_sys_open_tramp, &omayexec_rfc_v1 },
	{ "__x64_sys_openat", (void **)&omayexec_sym.sys_openat,
	  omayexec_sys_openat_tramp, &omayexec_rfc_v1 },
	{ "__ia32_compat_sys_open", (void **)&omayexec_sym.compat_sys_open,
	  omayexec_compat_sys_open_tramp, &omayexec_rfc_v1 },
	{ "__ia32_compat_sys_openat", (void **)&omayexec_sym.compat_sys_openat,
	  omayexec_compat_sys_openat_tramp, &omayexec_rfc_v1 },
};

static const char *reason(int err)
{
	switch (err) {
	case -EBUSY:
		return "another ftrace user redirects it already (a livepatch, a BPF trampoline or another module)";
	case -ENODEV:
		return "it cannot be traced";
	case -ENOMEM:
		return "out of memory";
	default:
		return "ftrace refused";
	}
}

void omayexec_hooks_remove(void)
{
	int i, err;

	for (i = ARRAY_SIZE(hooks) - 1; i >= 0; i--) {
		if (!hooks[i].installed)
			continue;
		err = unregister_ftrace_direct((unsigned long)*hooks[i].target,
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
		err = register_ftrace_direct((unsigned long)*hooks[i].target,
					     (unsigned long)hooks[i].trampoline);
		if (err) {
			pr_err("cannot hook %s: error %d: %s\n", hooks[i].name,
			       err, reason(err));
			omayexec_hooks_remove();
			return err;
		}
		hooks[i].installed = true;
	}
	return 0;
}
