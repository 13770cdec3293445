// SPDX-License-Identifier: GPL-2.0
/*
 * The exec securebits of Linux 6.14, on kernels that refuse them.
 *
 * SECBIT_EXEC_RESTRICT_FILE (bit 8) and SECBIT_EXEC_DENY_INTERACTIVE
 * (bit 10), with their locks (bits 9 and 11), tell interpreters whether to
 * enforce the answers of execveat(AT_EXECVE_CHECK) (exec_check.c): the
 * kernel only stores them, in cred->securebits, where execve() and fork()
 * already carry every securebit along.  Two things stand in the way on 6.1
 * and 6.12, and are changed here while the exec_check parameter is on:
 *
 *  - prctl(PR_SET_SECUREBITS) refuses the bits (cap_task_prctl(): unknown
 *    bits, and any change needs CAP_SETPCAP).  The cap_task_prctl()
 *    trampoline sends PR_SET_SECUREBITS here, where it follows mainline's
 *    rules: locked bits cannot change and locks cannot be removed, even by
 *    root; unknown bits are EPERM; without CAP_SETPCAP only bits 8-11 may
 *    change, and writing the bits unchanged is EPERM, as it always was.
 *    PR_GET_SECUREBITS already reports every bit.
 *
 *  - A user namespace sheds every securebit (set_cred_user_ns()), locks
 *    included, as mainline did up to 7.2.12: anyone allowed to create one
 *    could drop the bits an administrator set.  The module gives the new
 *    credentials back the exec bits and locks they had, as mainline now
 *    keeps them, on every way into a user namespace:
 *    - unshare(CLONE_NEWUSER) and setns() reset the new credentials and
 *      then call set_cred_ucounts() on them, and nothing else calls it
 *      with credentials of another user namespace than the caller's: an
 *      ftrace callback there puts the caller's bits back;
 *    - clone(CLONE_NEWUSER) calls create_user_ns() from copy_creds(), where
 *      set_cred_ucounts() is inlined: create_user_ns() is replaced by
 *      omayexec_create_user_ns(), which runs the stock function's body
 *      (past its ftrace call site, so as not to come back here) and puts
 *      the bits back when it succeeded.
 *
 * Once a task holds any of the bits, a stock PR_SET_SECUREBITS of its
 * would fail (the bits are unknown to it), and the user namespace fix
 * would be gone: so the first change that sets one pins the module until
 * reboot, as locked=Y does (pin.c).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/ftrace.h>
#include <linux/module.h>
#include <linux/prctl.h>
#include <linux/securebits.h>
#include <linux/security.h>
#include <linux/static_call.h>
#include <linux/user_namespace.h>
#include <uapi/linux/omayexec.h>

#include "common.h"

/* The stock kernel's bits, and mainline's exec bits and their locks. */
#define STOCK_BITS	SECURE_ALL_BITS
#define ALL_BITS	(STOCK_BITS | OMAYEXEC_SECURE_EXEC_BITS)
#define ALL_LOCKS	(ALL_BITS << 1)
#define UNPRIVILEGED	(OMAYEXEC_SECURE_EXEC_BITS | OMAYEXEC_SECURE_EXEC_BITS << 1)

static_assert(!(STOCK_BITS & OMAYEXEC_SECURE_EXEC_BITS));
/* trampolines.S compares the option with 28 (it cannot read prctl.h). */
static_assert(PR_SET_SECUREBITS == 28);

/* PR_SET_SECUREBITS with mainline's rules (security/commoncap.c). */
static int set_securebits(unsigned long bits)
{
	const struct cred *old = current_cred();
	unsigned long changed = old->securebits ^ bits;
	struct cred *new;

	if ((((old->securebits & ALL_LOCKS) >> 1) & changed) ||	/* locked */
	    (old->securebits & ALL_LOCKS & ~bits) ||		/* unlocking */
	    (bits & ~(ALL_LOCKS | ALL_BITS)))			/* unknown */
		return -EPERM;
	if (static_call(stock_cap_capable)(old, old->user_ns, CAP_SETPCAP,
					   CAP_OPT_NONE) &&
	    (!changed || (changed & ~UNPRIVILEGED)))
		return -EPERM;

	/* Before the bits reach any task: the module must stay from now. */
	if (bits & UNPRIVILEGED)
		omayexec_pin();

	new = prepare_creds();
	if (!new)
		return -ENOMEM;
	new->securebits = bits;
	return commit_creds(new);
}

/*
 * Reached from the cap_task_prctl() trampoline for PR_SET_SECUREBITS (the
 * other options run the stock function).
 */
int omayexec_cap_task_prctl(int option, unsigned long arg2, unsigned long arg3,
			    unsigned long arg4, unsigned long arg5)
{
	int err;

	/* The module is going (and no task holds the bits): try again. */
	if (!try_module_get(THIS_MODULE))
		return -EAGAIN;
	err = set_securebits(arg2);
	module_put(THIS_MODULE);
	return err;
}

/*
 * Reached from the create_user_ns() trampoline: the stock create_user_ns()
 * (its body), which resets new->securebits on success.
 */
int omayexec_create_user_ns(struct cred *new)
{
	unsigned int bits = new->securebits & UNPRIVILEGED;
	int err;

	/*
	 * The body may sleep, and returns here: the module must stay.  It
	 * cannot be going once a task holds the bits (it is pinned), so
	 * failing here touches no task that has them, and only while the
	 * module is being unloaded.
	 */
	if (!try_module_get(THIS_MODULE))
		return -EAGAIN;
	err = static_call(stock_create_user_ns_body)(new);
	if (!err)
		new->securebits |= bits;
	module_put(THIS_MODULE);
	return err;
}

/* set_cred_ucounts(new), entered with new->securebits just reset. */
static void keep_exec_bits(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct cred *new = (struct cred *)omayexec_watched_arg0(fregs);
	const struct cred *old = current_cred();

	/* No task holds the bits before the module is live. */
	if (!new || !READ_ONCE(omayexec_live))
		return;
	if (new->user_ns != old->user_ns)
		new->securebits |= old->securebits & UNPRIVILEGED;
}

static struct ftrace_ops keep_exec_bits_ops = {
	.func = keep_exec_bits,
	.flags = OMAYEXEC_WATCH_FLAGS,
};

int omayexec_securebits_install(void)
{
	int err;

	if (!omayexec_exec_check)
		return 0;
	err = ftrace_set_filter_ip(&keep_exec_bits_ops,
				   omayexec_sym.set_cred_ucounts, 0, 0);
	if (!err)
		err = register_ftrace_function(&keep_exec_bits_ops);
	if (err) {
		pr_err("cannot watch set_cred_ucounts: error %d\n", err);
		ftrace_free_filter(&keep_exec_bits_ops);
	}
	return err;
}

void omayexec_securebits_remove(void)
{
	if (!omayexec_exec_check)
		return;
	WARN_ON(unregister_ftrace_function(&keep_exec_bits_ops));
	ftrace_free_filter(&keep_exec_bits_ops);
}
