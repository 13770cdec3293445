/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ftrace direct-call trampolines.
 *
 * ftrace patches the first instruction of do_sys_openat2() and may_open()
 * into a call to these trampolines.  They run before the hooked function's
 * prologue, so the arguments are still in the registers of the calling
 * convention and the return address into the hooked function is on top of
 * the stack.
 *
 * Every open(2), openat(2), openat2(2) and execve(2) on the machine comes
 * through here, so the common case is three instructions: test the
 * O_MAYEXEC bit, and return into the hooked function's body.  Only an open
 * that carries O_MAYEXEC takes the other branch: the return address into
 * the hooked function is dropped and control goes to the module's C
 * replacement, which then returns straight to the hooked function's caller
 * as if that caller had called the replacement itself.
 *
 * Nothing here sleeps, so a task is inside a trampoline only briefly; the
 * module's exit waits for such tasks with synchronize_rcu_tasks().
 */
#include <linux/linkage.h>
#include <asm/unwind_hints.h>
#include <uapi/linux/omayexec.h>

	.text

/*
 * long do_sys_openat2(int dfd, const char __user *filename,
 *		       struct open_how *how);
 * %rdx is @how, a kernel copy made by the openat2 syscall or by do_sys_open().
 * O_MAYEXEC lies in the low 32 bits of how->flags.
 */
SYM_FUNC_START(omayexec_do_sys_openat2_tramp)
	testl	$O_MAYEXEC, (%rdx)
	jnz	1f
	RET
1:	addq	$8, %rsp
	UNWIND_HINT_FUNC
	jmp	omayexec_openat2
SYM_FUNC_END(omayexec_do_sys_openat2_tramp)

/*
 * int may_open(struct user_namespace *mnt_userns, const struct path *path,
 *		int acc_mode, int flag);
 * %ecx is @flag, the open flags; only omayexec_openat2() puts O_MAYEXEC there.
 */
SYM_FUNC_START(omayexec_may_open_tramp)
	testl	$O_MAYEXEC, %ecx
	jnz	1f
	RET
1:	addq	$8, %rsp
	UNWIND_HINT_FUNC
	jmp	omayexec_may_open
SYM_FUNC_END(omayexec_may_open_tramp)
