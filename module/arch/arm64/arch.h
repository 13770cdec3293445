/* SPDX-License-Identifier: GPL-2.0 */
/*
 * omayexec on arm64: the syscall entries it hooks, and where their
 * arguments are.  The other architecture's twin is arch/x86/arch.h;
 * trampolines.S beside this file reads the same registers.
 */
#ifndef _OMAYEXEC_ARCH_H
#define _OMAYEXEC_ARCH_H

#include <linux/compat.h>
#include <linux/types.h>
#include <asm/ptrace.h>
#include <asm/unistd.h>

/*
 * The syscall wrappers, given the caller's registers (struct pt_regs *):
 * __arm64_sys_NAME for 64-bit callers, __arm64_compat_sys_NAME for 32-bit
 * (arm32) ones.  arm64 has no open(2) of its own: __arm64_sys_open exists
 * but no syscall number reaches it; its hook costs nothing.
 */
#define OMAYEXEC_SYS(name)		"__arm64_sys_" #name
#define OMAYEXEC_COMPAT_SYS(name)	"__arm64_compat_sys_" #name

/*
 * Argument @n of a syscall, 64-bit or 32-bit caller alike: x0 to x5 (r0
 * to r5 of an arm32 task), as the wrappers read them.  trampolines.S
 * reads regs[n] at byte offset 8 * n: the layout it relies on is checked
 * here.
 */
static __always_inline unsigned long
omayexec_sys_arg(const struct pt_regs *regs, unsigned int n)
{
	BUILD_BUG_ON(offsetof(struct pt_regs, regs[4]) != 8 * 4);
	return regs->regs[n];
}

static __always_inline unsigned long
omayexec_compat_sys_arg(const struct pt_regs *regs, unsigned int n)
{
	return regs->regs[n];
}

/*
 * Whether @nr, the current syscall's number (syscall_get_nr()), is
 * openat2(2)'s: 437 for 64-bit and 32-bit (arm32) callers alike.
 */
static inline bool omayexec_nr_is_openat2(int nr)
{
	return nr == __NR_openat2;
}

/*
 * The numbers of init_module(2) and finit_module(2) for the current
 * syscall: an arm32 loader has arm32's (arch/arm/tools/syscall.tbl),
 * which arm64's headers do not name.
 */
static inline void omayexec_module_syscall_nrs(int *init_nr, int *finit_nr)
{
	*init_nr = __NR_init_module;
	*finit_nr = __NR_finit_module;
	if (is_compat_task()) {
		*init_nr = 128;
		*finit_nr = 379;
	}
}

/*
 * Kernels without ftrace direct calls (6.1 arm64; compat.h): the
 * callback's @regs are what ftrace_regs_caller restores, x0-x8 and x30,
 * before it branches to regs->pc with x9 clobbered.  Go to the
 * trampoline's entry 4 bytes before it ("mov x9, x8", trampolines.S) with
 * x8 = the caller's return address (regs[30] holds x9 of the call site)
 * and x30 = the hooked function past its ftrace call site (regs->pc): the
 * trampoline then runs as under a direct call.  x8 is free at the entry
 * of every hooked function: none returns a structure in memory.
 */
static inline void omayexec_arch_enter_trampoline(struct pt_regs *regs,
						  unsigned long trampoline)
{
	regs->regs[8] = regs->regs[30];
	regs->regs[30] = regs->pc;
	regs->pc = trampoline - 4;
}

#endif /* _OMAYEXEC_ARCH_H */
