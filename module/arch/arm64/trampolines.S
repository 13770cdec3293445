/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ftrace direct-call trampolines, arm64 (arch/x86/trampolines.S tells
 * what they are for; this file does the same with arm64's entry rules).
 *
 * A hooked function starts with the two instructions ftrace patched in,
 * "mov x9, x30; bl <trampoline>", before its own prologue.  A trampoline
 * farther than 128 MB from the function is reached through ftrace_caller
 * instead, with "br x17" and the same registers.  Either way, on entry:
 *   x0-x7  the hooked function's arguments, untouched;
 *   x9     the return address into the hooked function's caller;
 *   x30    the address in the hooked function just past that "bl";
 *   sp     the caller's, as the hooked function would find it;
 *   x10-x17 free (the AAPCS lets a callee clobber them).
 * This is ftrace_stub_direct_tramp's contract (entry-ftrace.S).
 *
 * Pointer authentication: the hooked function signs its return address
 * with PACIASP, after the patched instructions, against the entry sp.  So a
 * trampoline never moves sp, never stores x30, and never enters a function
 * past its PACIASP: it either goes on into the hooked function's body with
 * x30 = x9 (the function then signs x9, as if never diverted), or branches
 * to the start of a C replacement with x30 = x9, which signs that same
 * return address itself and returns straight to the caller.
 *
 * BTI: "br x17" from ftrace_caller needs a landing pad, hence "bti c"
 * first.  Everything else here is direct branches, and the way on into the
 * hooked function is a "ret", which BTI does not check.
 *
 * Nothing here sleeps: the module's exit waits for tasks inside a
 * trampoline with synchronize_rcu_tasks(), as on x86.
 */
#include <linux/linkage.h>
#include <uapi/linux/omayexec.h>

/*
 * A trampoline's start.  Where the kernel has no direct calls (6.1), the
 * instruction just before it is its entry from ftrace_regs_caller
 * (arch.h: x8 holds the caller's return address): no padding between.
 */
.macro OMAYEXEC_TRAMPOLINE_START name
#ifndef CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS
	.balign	8
	mov	x9, x8
SYM_CODE_START_NOALIGN(\name)
#else
SYM_CODE_START(\name)
#endif
	bti	c
.endm

/* Let the hooked function run, as if the hook were not there. */
.macro OMAYEXEC_RESUME
	mov	x10, x30
	mov	x30, x9
	ret	x10
.endm

/*
 * Become a call of \replacement, with the hooked function's arguments and
 * caller; until the module is live (main.c), resume the hooked function
 * instead.
 */
.macro OMAYEXEC_DIVERT replacement
	adrp	x10, omayexec_live
	ldrb	w10, [x10, :lo12:omayexec_live]
	cbz	w10, 2f
	mov	x30, x9
	b	\replacement
2:	OMAYEXEC_RESUME
.endm

/*
 * \name: if the 32-bit word at [\base, #\offset] has \bit (O_MAYEXEC
 * unless said otherwise), become a call of \replacement; otherwise let
 * the hooked function run.
 */
.macro OMAYEXEC_TRAMPOLINE_MEM name, base, offset, replacement, bit=O_MAYEXEC
OMAYEXEC_TRAMPOLINE_START \name
	ldr	w10, [\base, #\offset]
	tst	w10, #\bit
	b.ne	1f
	OMAYEXEC_RESUME
1:	OMAYEXEC_DIVERT \replacement
SYM_CODE_END(\name)
.endm

/* The same with the flags in register \reg (a w register). */
.macro OMAYEXEC_TRAMPOLINE_REG name, reg, replacement, bit=O_MAYEXEC
OMAYEXEC_TRAMPOLINE_START \name
	tst	\reg, #\bit
	b.ne	1f
	OMAYEXEC_RESUME
1:	OMAYEXEC_DIVERT \replacement
SYM_CODE_END(\name)
.endm

/* \name: if \reg equals \expected, become a call of \replacement. */
.macro OMAYEXEC_TRAMPOLINE_IF_EQUAL name, reg, expected, replacement
OMAYEXEC_TRAMPOLINE_START \name
	cmp	\reg, #\expected
	b.eq	1f
	OMAYEXEC_RESUME
1:	OMAYEXEC_DIVERT \replacement
SYM_CODE_END(\name)
.endm

	.text

/*
 * long do_sys_openat2(int dfd, const char __user *filename,
 *		       struct open_how *how);
 * x2 is @how; O_MAYEXEC lies in the low 32 bits of how->flags, at offset 0
 * (little-endian).
 */
OMAYEXEC_TRAMPOLINE_MEM omayexec_do_sys_openat2_tramp, x2, 0, omayexec_openat2

/* may_open(idmap, path, acc_mode, flag): w3 is @flag. */
OMAYEXEC_TRAMPOLINE_REG omayexec_may_open_tramp, w3, omayexec_may_open

/*
 * The syscall entries, whose argument is the caller's registers (struct
 * pt_regs *, in x0): argument n is regs->regs[n], at offset 8 * n
 * (arch.h checks the layout).  __arm64_sys_open(regs) and
 * __arm64_compat_sys_open(regs): flags in regs[1]; the openat ones:
 * regs[2]; the execveat ones: regs[4].
 */
OMAYEXEC_TRAMPOLINE_MEM omayexec_sys_open_tramp, x0, 8, omayexec_sys_open
OMAYEXEC_TRAMPOLINE_MEM omayexec_sys_openat_tramp, x0, 16, omayexec_sys_openat
OMAYEXEC_TRAMPOLINE_MEM omayexec_compat_sys_open_tramp, x0, 8, \
	omayexec_compat_sys_open
OMAYEXEC_TRAMPOLINE_MEM omayexec_compat_sys_openat_tramp, x0, 16, \
	omayexec_compat_sys_openat
OMAYEXEC_TRAMPOLINE_MEM omayexec_sys_execveat_tramp, x0, 32, \
	omayexec_sys_execveat, AT_EXECVE_CHECK
OMAYEXEC_TRAMPOLINE_MEM omayexec_compat_sys_execveat_tramp, x0, 32, \
	omayexec_compat_sys_execveat, AT_EXECVE_CHECK

/* cap_task_prctl(int option, ...): PR_SET_SECUREBITS (28) in w0. */
OMAYEXEC_TRAMPOLINE_IF_EQUAL omayexec_cap_task_prctl_tramp, w0, 28, \
	omayexec_cap_task_prctl

/* create_user_ns(struct cred *new): always omayexec_create_user_ns(). */
OMAYEXEC_TRAMPOLINE_START omayexec_create_user_ns_tramp
	OMAYEXEC_DIVERT omayexec_create_user_ns
SYM_CODE_END(omayexec_create_user_ns_tramp)
