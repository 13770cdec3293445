// SPDX-License-Identifier: GPL-2.0
/*
 * The hooks on a kernel without ftrace direct calls (6.1 arm64; compat.h):
 * one IPMODIFY ftrace_ops whose filter holds every hooked function, and
 * whose callback sends the call on to that function's trampoline.
 *
 * ftrace calls the ftrace_ops of such a kernel through one list, testing
 * each against the function on every call of a traced function, so that
 * the cost of a plain open grows with their number.  So the hooks share
 * one, and it is the guard too (hooks.c: PERMANENT, on a function of ours
 * that never runs, which keeps its filter from ever being empty: an ops
 * with an empty filter would trace every function).
 *
 * A hook is added by adding its function to the filter: ftrace then
 * checks it against the other IPMODIFY users of the function (-EBUSY) and
 * patches its call site alone, so that the hooks still come and go one at
 * a time, in hooks.c's order.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/kernel.h>
#include <asm/insn-def.h>

#include "common.h"

/* More than hooks.c has: omayexec_redirect_add() refuses a hook more. */
#define MAX_REDIRECTS	16

/*
 * The functions and their trampolines, in the order they were added.
 * Written before the function joins the filter, and left after it has
 * left it: the callback only ever runs for a function of the filter, and
 * ftrace's code patching (stop_machine()) orders the two.
 */
static struct {
	unsigned long func;
	unsigned long trampoline;
} redirects[MAX_REDIRECTS];
static unsigned int nr_redirects;	/* of them, in the filter */

/*
 * The call site ftrace reports (@ip) is the function's second instruction
 * (-fpatchable-function-entry=2 and ftrace_call_adjust()), or its third
 * after a BTI landing pad.
 */
#define CALL_SITE_SPAN	(3 * AARCH64_INSN_SIZE)

static void notrace redirect_func(unsigned long ip, unsigned long parent_ip,
				  struct ftrace_ops *op,
				  struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);
	unsigned int i;

	if (!regs)
		return;
	for (i = 0; i < MAX_REDIRECTS; i++) {
		if (ip - redirects[i].func < CALL_SITE_SPAN) {
			omayexec_arch_enter_trampoline(regs,
						       redirects[i].trampoline);
			return;
		}
	}
	/* The guard's own function, or one its self-test watches. */
	omayexec_guard_hit();
}

static struct ftrace_ops redirect_ops = {
	.func = redirect_func,
	.flags = FTRACE_OPS_FL_PERMANENT | FTRACE_OPS_FL_SAVE_REGS |
		 FTRACE_OPS_FL_IPMODIFY,
};

/* The guard: registers the ops, filtered on @guard alone. */
int omayexec_redirect_start(unsigned long guard)
{
	int err = ftrace_set_filter_ip(&redirect_ops, guard, 0, 0);

	if (!err)
		err = register_ftrace_function(&redirect_ops);
	if (err)
		ftrace_free_filter(&redirect_ops);
	return err;
}

int omayexec_redirect_stop(void)
{
	int err = unregister_ftrace_function(&redirect_ops);

	ftrace_free_filter(&redirect_ops);
	return err;
}

int omayexec_redirect_add(unsigned long func, unsigned long trampoline)
{
	unsigned int n = nr_redirects;
	int err;

	if (n == MAX_REDIRECTS)
		return -ENOSPC;
	redirects[n].trampoline = trampoline;
	redirects[n].func = func;
	/* Refused (another IPMODIFY user: -EBUSY), the filter is as it was. */
	err = ftrace_set_filter_ip(&redirect_ops, func, 0, 0);
	if (err) {
		redirects[n].func = 0;
		return err;
	}
	nr_redirects = n + 1;
	return 0;
}

/*
 * Removes @func from the filter.  hooks.c removes in reverse order, so its
 * slot is the last one, freed for the next hook; but once a removal has
 * failed (ftrace refused: the module then stays for good, hooks.c) the
 * ones before it are still removed, each where it is.
 */
int omayexec_redirect_remove(unsigned long func)
{
	unsigned int i;
	int err;

	for (i = 0; i < nr_redirects && redirects[i].func != func; i++)
		;
	if (WARN_ON(i == nr_redirects))
		return -EINVAL;
	err = ftrace_set_filter_ip(&redirect_ops, func, 1, 0);
	if (!err && i == nr_redirects - 1)
		nr_redirects--;
	return err;
}

/* hooks.c's self-test: @func in the filter, without a redirect. */
int omayexec_redirect_watch(unsigned long func, bool watch)
{
	return ftrace_set_filter_ip(&redirect_ops, func, !watch, 0);
}
