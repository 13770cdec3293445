/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ftrace direct-call trampolines.
 *
 * ftrace patches the first instruction of each hooked function into a call
 * to its trampoline here.  A trampoline runs before the hooked function's
 * prologue, so the arguments are still in the registers of the calling
 * convention and the return address into the hooked function is on top of
 * the stack.
 *
 * Every open(2), openat(2), openat2(2), execve(2), execveat(2) and prctl(2)
 * on the machine comes through here, so the common case is three
 * instructions: test the O_MAYEXEC (or AT_EXECVE_CHECK) bit, or compare the
 * prctl option, and return into the hooked function's body.  Only a call
 * that carries the bit (or the option) takes the other branch: the
 * return address into the hooked function is dropped and control goes to
 * the module's C replacement, which then returns straight to the hooked
 * function's caller as if that caller had called the replacement itself.
 *
 * Nothing here sleeps, so a task is inside a trampoline only briefly; the
 * module's exit, and a load that fails, wait for such tasks with
 * synchronize_rcu_tasks().
 */
#include <linux/linkage.h>
#include <asm/ptrace-abi.h>
#include <asm/unwind_hints.h>
#include <uapi/linux/omayexec.h>

/*
 * Become a call of \replacement, with the hooked function's arguments and
 * caller: drop the return address into the hooked function.  Until the
 * module is live (main.c), let the hooked function run instead, as if the
 * hook were not there: a load that fails half-way has then let no task
 * into the module's C code.
 */
.macro OMAYEXEC_DIVERT replacement
	cmpb	$0, omayexec_live(%rip)
	je	2f
	addq	$8, %rsp
	UNWIND_HINT_FUNC
	jmp	\replacement
2:	RET
.endm

/*
 * \name: if the 32-bit operand \flags has \bit (O_MAYEXEC unless said
 * otherwise), become a call of \replacement (same arguments, same caller);
 * otherwise let the hooked function run.
 */
.macro OMAYEXEC_TRAMPOLINE name, flags, replacement, bit=O_MAYEXEC
SYM_FUNC_START(\name)
	testl	$\bit, \flags
	jnz	1f
	RET
1:	OMAYEXEC_DIVERT \replacement
SYM_FUNC_END(\name)
.endm

/*
 * \name: if the 32-bit operand \value equals \expected, become a call of
 * \replacement; otherwise let the hooked function run.
 */
.macro OMAYEXEC_TRAMPOLINE_IF_EQUAL name, value, expected, replacement
SYM_FUNC_START(\name)
	cmpl	$\expected, \value
	je	1f
	RET
1:	OMAYEXEC_DIVERT \replacement
SYM_FUNC_END(\name)
.endm

	.text

/*
 * long do_sys_openat2(int dfd, const char __user *filename,
 *		       struct open_how *how);
 * %rdx is @how, a kernel copy made by the openat2 syscall or by do_sys_open().
 * O_MAYEXEC lies in the low 32 bits of how->flags.
 */
OMAYEXEC_TRAMPOLINE omayexec_do_sys_openat2_tramp, (%rdx), omayexec_openat2

/*
 * int may_open(struct user_namespace *mnt_userns, const struct path *path,
 *		int acc_mode, int flag);
 * %ecx is @flag, the open flags; only omayexec_do_open() puts O_MAYEXEC there.
 */
OMAYEXEC_TRAMPOLINE omayexec_may_open_tramp, %ecx, omayexec_may_open

/*
 * Hooked only with the rfc_v1 parameter, the syscall entries, whose
 * argument is the caller's registers (struct pt_regs *, in %rdi):
 * long __x64_sys_open(regs), flags in regs->si;
 * long __x64_sys_openat(regs), flags in regs->dx;
 * long __ia32_compat_sys_open(regs), flags in regs->cx;
 * long __ia32_compat_sys_openat(regs), flags in regs->dx.
 */
OMAYEXEC_TRAMPOLINE omayexec_sys_open_tramp, RSI(%rdi), omayexec_sys_open
OMAYEXEC_TRAMPOLINE omayexec_sys_openat_tramp, RDX(%rdi), omayexec_sys_openat
OMAYEXEC_TRAMPOLINE omayexec_compat_sys_open_tramp, RCX(%rdi), \
	omayexec_compat_sys_open
OMAYEXEC_TRAMPOLINE omayexec_compat_sys_openat_tramp, RDX(%rdi), \
	omayexec_compat_sys_openat

/*
 * With the exec_check parameter (the default), the execveat(2) syscall
 * entries: long __x64_sys_execveat(regs), flags (the fifth argument) in
 * regs->r8; long __ia32_compat_sys_execveat(regs), flags in regs->di.  A
 * call without AT_EXECVE_CHECK is an ordinary exec and runs as ever.
 */
OMAYEXEC_TRAMPOLINE omayexec_sys_execveat_tramp, R8(%rdi), \
	omayexec_sys_execveat, AT_EXECVE_CHECK
OMAYEXEC_TRAMPOLINE omayexec_compat_sys_execveat_tramp, RDI(%rdi), \
	omayexec_compat_sys_execveat, AT_EXECVE_CHECK

/*
 * With exec_check, cap_task_prctl(int option, unsigned long arg2, ...),
 * the capability LSM's prctl hook: PR_SET_SECUREBITS (28, asserted in
 * securebits.c) in %edi goes to omayexec_cap_task_prctl(), every other
 * option to the stock function.
 */
OMAYEXEC_TRAMPOLINE_IF_EQUAL omayexec_cap_task_prctl_tramp, %edi, 28, \
	omayexec_cap_task_prctl

/*
 * With exec_check, int create_user_ns(struct cred *new): always replaced by
 * omayexec_create_user_ns(), which runs the stock body itself.
 */
SYM_FUNC_START(omayexec_create_user_ns_tramp)
	OMAYEXEC_DIVERT omayexec_create_user_ns
SYM_FUNC_END(omayexec_create_user_ns_tramp)
