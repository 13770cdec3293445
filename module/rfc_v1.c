// SPDX-License-Identifier: GPL-2.0
/*
 * The interface of the 2018 O_MAYEXEC RFC (v1), on request.
 *
 * With the rfc_v1 parameter, open(2) and openat(2) also honour O_MAYEXEC,
 * which the stock kernel and the v5 interface silently ignore there, and
 * kernel.yama.open_mayexec_enforce sets their policy with the RFC's
 * semantics (may_open.c).  openat2(2) keeps the v5 semantics and
 * fs.open_mayexec_enforce.
 *
 * The stock open(2) and openat(2) drop unknown flags before
 * do_sys_openat2(), so the flag can only be seen at the syscall entries,
 * which are hooked only when asked for: __x64_sys_open() and
 * __x64_sys_openat() for 64-bit callers, __ia32_compat_sys_open() and
 * __ia32_compat_sys_openat() for 32-bit ones (their arm64 names in
 * arch/arm64/arch.h).
 */

#include <linux/compat.h>
#include <linux/fcntl.h>
#include <linux/module.h>
#include <linux/openat2.h>
#include <linux/ptrace.h>
#include <uapi/linux/omayexec.h>

#include "common.h"

bool omayexec_rfc_v1 __ro_after_init;
module_param_named(rfc_v1, omayexec_rfc_v1, bool, 0444);
MODULE_PARM_DESC(rfc_v1,
		 "Also honour O_MAYEXEC on open(2) and openat(2), with the 2018 RFC's kernel.yama.open_mayexec_enforce (default: N)");

/*
 * What SYSCALL_DEFINE(open) and (openat) do, with the flag kept; their
 * compat versions do not force O_LARGEFILE.
 */
static long rfc_v1_open(int dfd, const char __user *filename, int flags,
			bool largefile)
{
	struct open_how how = {
		/* O_MAYEXEC excludes O_CREAT and O_TMPFILE: no mode. */
		.flags = (flags & VALID_OPEN_FLAGS) | O_MAYEXEC,
	};

	if (largefile)
		how.flags |= O_LARGEFILE;

	/* It keeps the module while the open runs. */
	return omayexec_do_open(dfd, filename, &how, OMAYEXEC_RFC_V1);
}

/* The syscall wrappers' arguments, where arch.h says they are. */
long omayexec_sys_open(const struct pt_regs *regs)
{
	return rfc_v1_open(AT_FDCWD,
			   (const char __user *)omayexec_sys_arg(regs, 0),
			   (int)omayexec_sys_arg(regs, 1), force_o_largefile());
}

long omayexec_sys_openat(const struct pt_regs *regs)
{
	return rfc_v1_open((int)omayexec_sys_arg(regs, 0),
			   (const char __user *)omayexec_sys_arg(regs, 1),
			   (int)omayexec_sys_arg(regs, 2), force_o_largefile());
}

long omayexec_compat_sys_open(const struct pt_regs *regs)
{
	return rfc_v1_open(AT_FDCWD,
			   compat_ptr(omayexec_compat_sys_arg(regs, 0)),
			   (int)omayexec_compat_sys_arg(regs, 1), false);
}

long omayexec_compat_sys_openat(const struct pt_regs *regs)
{
	return rfc_v1_open((int)omayexec_compat_sys_arg(regs, 0),
			   compat_ptr(omayexec_compat_sys_arg(regs, 1)),
			   (int)omayexec_compat_sys_arg(regs, 2), false);
}
