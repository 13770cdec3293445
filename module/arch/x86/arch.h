/* SPDX-License-Identifier: GPL-2.0 */
/*
 * omayexec on x86-64: the syscall entries it hooks, and where their
 * arguments are.  The other architecture's twin is arch/arm64/arch.h;
 * trampolines.S beside this file reads the same registers.
 */
#ifndef _OMAYEXEC_ARCH_H
#define _OMAYEXEC_ARCH_H

#include <linux/types.h>
#include <asm/ptrace.h>
#include <asm/syscall.h>
#include <asm/unistd.h>

/*
 * The syscall wrappers, given the caller's registers (struct pt_regs *):
 * __x64_sys_NAME for 64-bit callers, __ia32_compat_sys_NAME for 32-bit ones.
 */
#define OMAYEXEC_SYS(name)		"__x64_sys_" #name
#define OMAYEXEC_COMPAT_SYS(name)	"__ia32_compat_sys_" #name

/* Argument @n of a 64-bit caller's syscall: di, si, dx, r10, r8, r9. */
static __always_inline unsigned long
omayexec_sys_arg(const struct pt_regs *regs, unsigned int n)
{
	switch (n) {
	case 0:
		return regs->di;
	case 1:
		return regs->si;
	case 2:
		return regs->dx;
	case 3:
		return regs->r10;
	case 4:
		return regs->r8;
	default:
		return regs->r9;
	}
}

/* Argument @n of a 32-bit caller's syscall: bx, cx, dx, si, di, bp. */
static __always_inline unsigned long
omayexec_compat_sys_arg(const struct pt_regs *regs, unsigned int n)
{
	switch (n) {
	case 0:
		return regs->bx;
	case 1:
		return regs->cx;
	case 2:
		return regs->dx;
	case 3:
		return regs->si;
	case 4:
		return regs->di;
	default:
		return regs->bp;
	}
}

/*
 * Whether @nr, the current syscall's number (syscall_get_nr()), is
 * openat2(2)'s: 437 for 64-bit and 32-bit callers alike, with
 * __X32_SYSCALL_BIT for an x32 one.
 */
static inline bool omayexec_nr_is_openat2(int nr)
{
	return (nr & ~__X32_SYSCALL_BIT) == __NR_openat2;
}

/*
 * The numbers of init_module(2) and finit_module(2) for the current
 * syscall: a 32-bit loader has the i386 ones.
 */
static inline void omayexec_module_syscall_nrs(int *init_nr, int *finit_nr)
{
	*init_nr = __NR_init_module;
	*finit_nr = __NR_finit_module;
#ifdef CONFIG_IA32_EMULATION
	if (in_ia32_syscall()) {
		*init_nr = __NR_ia32_init_module;
		*finit_nr = __NR_ia32_finit_module;
	}
#endif
}

#endif /* _OMAYEXEC_ARCH_H */
