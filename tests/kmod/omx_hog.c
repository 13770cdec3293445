// SPDX-License-Identifier: GPL-2.0
/*
 * omx_hog: a test-only module that takes a kernel function with ftrace
 * before omayexec can, the way a livepatch or another tracer would.
 *
 * The lifecycle tests load it to check that omayexec refuses to load, and
 * cleans up after itself, when one of its hooks is already owned, and that
 * nobody else can take a hooked function while omayexec holds it.
 *
 * Parameters:
 *   func=NAME      the function to take (default may_open)
 *   mode=ipmodify  an ftrace_ops with FTRACE_OPS_FL_IPMODIFY and a no-op
 *                  callback: what a livepatch registers (default)
 *   mode=direct    an ftrace direct call to a trampoline that only returns:
 *                  what a BPF trampoline or another direct-call user does
 *
 * In 6.1 and 6.12 (kernel/trace/ftrace.c) only one IPMODIFY ops may own a
 * function, and a direct call on a function that an IPMODIFY ops owns (or
 * the other way round) is refused with -EBUSY unless the direct ops
 * implements ops_func, which omayexec's do not.  Two direct calls on one
 * function are refused with -EBUSY too.  Whatever ftrace answers is this
 * module's init result, so finit_module() returns it.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/string.h>

/* omayexec's own kernel differences (module/compat.h), copied beside us. */
#include "compat.h"

static char *func = "may_open";
module_param(func, charp, 0444);
MODULE_PARM_DESC(func, "kernel function to take (default may_open)");

static char *mode = "ipmodify";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "ipmodify (like a livepatch) or direct (a direct call)");

/*
 * The direct-call trampoline.  On x86 ftrace makes the function's fentry
 * call jump here, with the function's arguments in their registers and its
 * return address on the stack: returning at once leaves both untouched.
 * On arm64 (module/arch/arm64/trampolines.S) x30 points into the function
 * and x9 holds its caller's return address: go on into the function with
 * x30 back to what it was.
 */
#ifdef CONFIG_ARM64
#define OMX_HOG_TRAMP_BODY	"	bti	c\n"		\
				"	mov	x10, x30\n"	\
				"	mov	x30, x9\n"	\
				"	ret	x10\n"
#else
#define OMX_HOG_TRAMP_BODY	ASM_ENDBR ASM_RET
#endif

void omx_hog_tramp(void);
asm(
"	.pushsection	.text, \"ax\", %progbits\n"
"	.type		omx_hog_tramp, %function\n"
"	.globl		omx_hog_tramp\n"
"omx_hog_tramp:\n"
	OMX_HOG_TRAMP_BODY
"	.size		omx_hog_tramp, .-omx_hog_tramp\n"
"	.popsection\n"
);

static void notrace omx_hog_nop(unsigned long ip, unsigned long parent_ip,
				struct ftrace_ops *op,
				struct ftrace_regs *fregs)
{
}

static struct ftrace_ops omx_hog_ops;
static bool direct;

static int __init omx_hog_init(void)
{
	int err;

	if (!strcmp(mode, "direct")) {
		direct = true;
	} else if (strcmp(mode, "ipmodify")) {
		pr_err("mode must be ipmodify or direct, not '%s'\n", mode);
		return -EINVAL;
	}

	if (!direct) {
		omx_hog_ops.func = omx_hog_nop;
		/* SAVE_REGS where the kernel has it (module/compat.h). */
		omx_hog_ops.flags = FTRACE_OPS_FL_IPMODIFY |
				    OMAYEXEC_WATCH_FLAGS;
	}

	/* Resolves the name through available_filter_functions' records. */
	err = ftrace_set_filter(&omx_hog_ops, (unsigned char *)func,
				strlen(func), 1);
	if (err) {
		pr_err("cannot select %s: %d\n", func, err);
		return err;
	}

	/*
	 * Without direct calls (6.1 arm64) omayexec's stand-in would enter
	 * omx_hog_tramp as one of its own trampolines, which it is not: the
	 * kernel's own answer there.
	 */
	if (direct && !IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS))
		err = -ENODEV;
	else if (direct)
		err = omayexec_register_direct(&omx_hog_ops,
					       (unsigned long)omx_hog_tramp);
	else
		err = register_ftrace_function(&omx_hog_ops);
	if (err) {
		pr_err("cannot take %s (%s): %d\n", func, mode, err);
		ftrace_free_filter(&omx_hog_ops);
		return err;
	}

	pr_info("took %s (%s)\n", func, mode);
	return 0;
}

static void __exit omx_hog_exit(void)
{
	int err;

	if (direct)
		err = omayexec_unregister_direct(&omx_hog_ops,
						 (unsigned long)omx_hog_tramp);
	else
		err = unregister_ftrace_function(&omx_hog_ops);
	WARN(err, "cannot release %s: %d\n", func, err);
	if (!direct)
		ftrace_free_filter(&omx_hog_ops);
	pr_info("released %s\n", func);
}

module_init(omx_hog_init);
module_exit(omx_hog_exit);

MODULE_DESCRIPTION("Test only: take a kernel function with ftrace, as a livepatch would");
MODULE_LICENSE("GPL");
