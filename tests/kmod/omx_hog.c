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
 * It also stands in for kernels that are built otherwise than Debian's,
 * which omayexec must refuse (lifecycle_kernel_test):
 *   mode=hide      kallsyms_lookup_name(NAME) answers 0, as on a kernel
 *                  whose kallsyms lacks NAME (a data symbol without
 *                  CONFIG_KALLSYMS_ALL)
 *   mode=elsewhere kallsyms_lookup_name(NAME) answers the address of a
 *                  function of this module that nothing calls: NAME out of
 *                  line, but not on the path that used to call it (as if
 *                  its caller had been given an inlined copy)
 *   mode=kill      ftrace_kill(), what an ftrace bug calls: every later
 *                  unregistration fails (-ENODEV) and every call site stays
 *                  as it is, until reboot
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
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/static_call.h>
#include <linux/string.h>

/* omayexec's own kernel differences (module/compat.h), copied beside us. */
#include "compat.h"

static char *func = "may_open";
module_param(func, charp, 0444);
MODULE_PARM_DESC(func, "kernel function to take (default may_open)");

static char *mode = "ipmodify";
module_param(mode, charp, 0444);
MODULE_PARM_DESC(mode, "ipmodify (like a livepatch), direct (a direct call), hide, elsewhere or kill");

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

/* ---- hide, elsewhere: what kallsyms_lookup_name() answers for func ---- */

/* Traceable, out of line, called by nobody: mode=elsewhere's answer. */
static noinline void omx_hog_elsewhere(void)
{
	barrier();
}

static unsigned long lookup_answer;	/* for func: 0 or omx_hog_elsewhere */

static int lookup_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	const char *name = (const char *)regs_get_kernel_argument(regs, 0);

	*(bool *)ri->data = name && !strcmp(name, func);
	return 0;
}

static int lookup_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	if (*(bool *)ri->data)
		regs_set_return_value(regs, lookup_answer);
	return 0;
}

static struct kretprobe lookup_probe = {
	.kp.symbol_name = "kallsyms_lookup_name",
	.entry_handler = lookup_entry,
	.handler = lookup_return,
	.data_size = sizeof(bool),
	.maxactive = 8,
};

static int lookup_start(bool hide)
{
	int err;

	lookup_answer = hide ? 0 : (unsigned long)omx_hog_elsewhere;
	err = register_kretprobe(&lookup_probe);
	if (err)
		pr_err("cannot probe kallsyms_lookup_name: %d\n", err);
	else
		pr_info("kallsyms_lookup_name(\"%s\") answers %s\n", func,
			hide ? "0" : "omx_hog_elsewhere");
	return err;
}

/* ---- kill: ftrace_kill() --------------------------------------------- */

typedef unsigned long lookup_t(const char *name);
DEFINE_STATIC_CALL_NULL(omx_hog_lookup, lookup_t);
typedef void ftrace_kill_t(void);
DEFINE_STATIC_CALL_NULL(omx_hog_ftrace_kill, ftrace_kill_t);

static int kill_ftrace(void)
{
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	unsigned long kill;
	int err;

	/*
	 * Neither is exported: kallsyms_lookup_name() found as omayexec finds
	 * it, and both called as omayexec calls what it finds, directly
	 * (module/symbols.c: no ENDBR there).  A function, not the flag it
	 * sets: 6.1 arm64 has no data symbols in kallsyms.
	 */
	err = register_kprobe(&kp);
	if (err) {
		pr_err("cannot find kallsyms_lookup_name: %d\n", err);
		return err;
	}
	static_call_update(omx_hog_lookup, (lookup_t *)kp.addr);
	unregister_kprobe(&kp);
	kill = static_call(omx_hog_lookup)("ftrace_kill");
	if (!kill) {
		pr_err("ftrace_kill not found\n");
		return -ENOENT;
	}
	static_call_update(omx_hog_ftrace_kill, (ftrace_kill_t *)kill);
	static_call(omx_hog_ftrace_kill)();
	pr_info("ftrace killed, as after an ftrace bug\n");
	return 0;
}

static enum { TAKE, LOOKUP, KILLED } what = TAKE;

static int __init omx_hog_init(void)
{
	int err;

	if (!strcmp(mode, "hide") || !strcmp(mode, "elsewhere")) {
		err = lookup_start(!strcmp(mode, "hide"));
		if (!err)
			what = LOOKUP;
		return err;
	}
	if (!strcmp(mode, "kill")) {
		err = kill_ftrace();
		if (!err)
			what = KILLED;
		return err;
	}
	if (!strcmp(mode, "direct")) {
		direct = true;
	} else if (strcmp(mode, "ipmodify")) {
		pr_err("mode must be ipmodify, direct, hide, elsewhere or kill, not '%s'\n",
		       mode);
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

	if (what == LOOKUP) {
		unregister_kretprobe(&lookup_probe);
		pr_info("kallsyms_lookup_name answers as ever\n");
		return;
	}
	if (what == KILLED)
		return;		/* ftrace stays off: nothing to release */
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
