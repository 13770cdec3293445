// SPDX-License-Identifier: GPL-2.0
/*
 * Addresses of the kernel functions omayexec needs but that the kernel does
 * not export to modules.
 *
 * kallsyms_lookup_name() is not exported either; registering a kprobe on it
 * and reading the probe's address is the one way left to find it.
 *
 * The functions the module calls are reached through static calls, never
 * through a function pointer: on a kernel built with IBT (Debian's 6.12)
 * none of them keeps a live ENDBR, since nothing in the kernel calls them
 * indirectly, and an indirect call to them is a #CP fault and a BUG() on
 * every CPU that enforces IBT.  static_call_update() patches each call
 * site into a direct call, which IBT does not check.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/lsm_hooks.h>
#include <linux/printk.h>
#include <linux/static_call.h>

#include "common.h"

struct omayexec_symbols omayexec_sym;

DEFINE_STATIC_CALL_NULL(stock_may_open, stock_may_open_t);
DEFINE_STATIC_CALL_NULL(stock_build_open_flags, stock_build_open_flags_t);
DEFINE_STATIC_CALL_NULL(stock_getname, stock_getname_t);
DEFINE_STATIC_CALL_NULL(stock_do_filp_open, stock_do_filp_open_t);
DEFINE_STATIC_CALL_NULL(stock_getname_uflags, stock_getname_uflags_t);
DEFINE_STATIC_CALL_NULL(stock_alloc_bprm, stock_alloc_bprm_t);
DEFINE_STATIC_CALL_NULL(stock_do_open_execat, stock_do_open_execat_t);
DEFINE_STATIC_CALL_NULL(stock_free_bprm, stock_free_bprm_t);
DEFINE_STATIC_CALL_NULL(stock_prepare_exec_creds, stock_prepare_exec_creds_t);
DEFINE_STATIC_CALL_NULL(stock_security_bprm_creds_for_exec,
			stock_security_bprm_creds_for_exec_t);
DEFINE_STATIC_CALL_NULL(stock_ima_bprm_check, stock_ima_bprm_check_t);
DEFINE_STATIC_CALL_NULL(stock_cap_capable, stock_cap_capable_t);
DEFINE_STATIC_CALL_NULL(stock_create_user_ns_body, stock_create_user_ns_t);

OMAYEXEC_DEFINE_MODULE_MUTEX_HOLDER;

typedef unsigned long ftrace_location_t(unsigned long ip);
DEFINE_STATIC_CALL_NULL(stock_ftrace_location, ftrace_location_t);

typedef unsigned long lookup_name_t(const char *name);
DEFINE_STATIC_CALL_NULL(stock_kallsyms_lookup_name, lookup_name_t);

/* kp.addr is past the ENDBR where there is one: a direct call skips it. */
static int find_kallsyms_lookup_name(void)
{
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	int err;

	err = register_kprobe(&kp);
	if (err) {
		pr_err("cannot find kallsyms_lookup_name: register_kprobe() failed: %d\n",
		       err);
		return -ENOENT;
	}
	static_call_update(stock_kallsyms_lookup_name, (lookup_name_t *)kp.addr);
	unregister_kprobe(&kp);
	return 0;
}

static int resolve(const char *name, unsigned long *addr)
{
	*addr = static_call(stock_kallsyms_lookup_name)(name);
	if (!*addr) {
		pr_err("kernel symbol %s not found\n", name);
		return -ENOENT;
	}
	return 0;
}

/*
 * The body of hooked function @name, past its ftrace call site (after the
 * ENDBR where there is one): calling it runs the stock function without
 * going through the hook again.
 */
static int resolve_body(const char *name, unsigned long *addr,
			unsigned long *body)
{
	unsigned long site, lookup;
	int err;

	err = resolve(name, addr) ?: resolve("ftrace_location", &lookup);
	if (err)
		return err;
	static_call_update(stock_ftrace_location, (ftrace_location_t *)lookup);
	site = static_call(stock_ftrace_location)(*addr);
	if (!site || site - *addr > 16) {
		pr_err("%s has no ftrace call site at its entry\n", name);
		return -ENOENT;
	}
	*body = site + MCOUNT_INSN_SIZE;
	return 0;
}

#define RESOLVE(field) resolve(#field, &omayexec_sym.field)
#define RESOLVE_AS(field, name) resolve(name, &omayexec_sym.field)

/* A function the O_MAYEXEC path calls, as the static call stock_NAME. */
#define RESOLVE_CALL(name) ({						\
	unsigned long addr;						\
	int err = resolve(#name, &addr);				\
									\
	if (!err)							\
		static_call_update(stock_##name, (stock_##name##_t *)addr); \
	err;								\
})

DEFINE_STATIC_CALL_NULL(stock_landlock_file_open, stock_landlock_file_open_t);
bool omayexec_landlock_asked;
int omayexec_landlock_cred_offset = -1;

/*
 * Landlock's file_open hook, where the module asks it for the EXECUTE
 * right itself (compat.h): only if Landlock is active, for its hook reads
 * the credentials' Landlock blob, which only an active Landlock has.
 * Active and without the hook, the module would let sandboxed interpreters
 * run what their sandbox forbids: the load fails.
 *
 * Whether it is active is landlock_initialized, a data symbol.  A kernel
 * whose kallsyms lists functions alone (no CONFIG_KALLSYMS_ALL) hides it
 * while its Landlock may well be active: with Landlock built in (its hook
 * is there) and the flag unknown, the load fails too, rather than take
 * every sandbox for absent.
 */
static int resolve_landlock(void)
{
	unsigned long initialized, hook, sizes;

	initialized = static_call(stock_kallsyms_lookup_name)("landlock_initialized");
	hook = static_call(stock_kallsyms_lookup_name)("hook_file_open");
	if (!initialized && hook) {
		pr_err("kernel symbol landlock_initialized not found: whether Landlock is active is unknown (a kallsyms without data symbols?)\n");
		return -ENOENT;
	}
	if (!initialized || !*(bool *)initialized)
		return 0;
	if (!hook) {
		pr_err("kernel symbol hook_file_open not found\n");
		return -ENOENT;
	}
	static_call_update(stock_landlock_file_open,
			   (stock_landlock_file_open_t *)hook);
	omayexec_landlock_asked = true;

	/*
	 * Where its domain lies in the credentials (compat.h): set at boot,
	 * read-only since.  Not found: Landlock is always asked.
	 */
	sizes = static_call(stock_kallsyms_lookup_name)("landlock_blob_sizes");
	if (sizes)
		omayexec_landlock_cred_offset =
			((const struct lsm_blob_sizes *)sizes)->lbs_cred;
	return 0;
}

/*
 * may_open(), hooked, and its body, which the policy check calls
 * (may_open.c): past the hook, since a call there would only come back
 * through the trampoline (without the mark) to the body.
 */
static int resolve_may_open(void)
{
	unsigned long body;
	int err = resolve_body("may_open", &omayexec_sym.may_open, &body);

	if (!err)
		static_call_update(stock_may_open, (stock_may_open_t *)body);
	return err;
}

static int resolve_create_user_ns(void)
{
	unsigned long body;
	int err = resolve_body("create_user_ns", &omayexec_sym.create_user_ns,
			       &body);

	if (!err)
		static_call_update(stock_create_user_ns_body,
				   (stock_create_user_ns_t *)body);
	return err;
}

/*
 * IMA's ima_policy_flag, which its process_measurement() tests first.
 * Not found (a kernel without IMA, or without data symbols in kallsyms):
 * IMA is then always asked, and answers for itself.
 */
static void resolve_ima_policy_flag(void)
{
	static const int always = 1;
	unsigned long flag;

	flag = static_call(stock_kallsyms_lookup_name)("ima_policy_flag");
	omayexec_sym.ima_policy_flag = flag ? (const int *)flag : &always;
}

int omayexec_resolve_symbols(void)
{
	unsigned long module_mutex, holder;
	int err;

	err = find_kallsyms_lookup_name();
	if (err)
		return err;
	resolve_ima_policy_flag();

	/*
	 * locked=Y pins at init, the exec securebits at their first use,
	 * under module_mutex, or else in a function that holds it
	 * (compat.h).
	 */
	if (omayexec_locked || omayexec_exec_check) {
		module_mutex = static_call(stock_kallsyms_lookup_name)("module_mutex");
		omayexec_sym.module_mutex = (struct mutex *)module_mutex;
		if (!module_mutex && !OMAYEXEC_MODULE_MUTEX_HOLDER) {
			pr_err("kernel symbol module_mutex not found\n");
			return -ENOENT;
		}
		if (!module_mutex) {
			err = resolve(OMAYEXEC_MODULE_MUTEX_HOLDER, &holder);
			if (err)
				return err;
			omayexec_set_module_mutex_holder(holder);
		}
	}

	err = RESOLVE(do_sys_openat2) ?: resolve_may_open() ?:
	      RESOLVE_AS(sys_open, OMAYEXEC_SYS(open)) ?:
	      RESOLVE_AS(sys_openat, OMAYEXEC_SYS(openat)) ?:
	      RESOLVE_AS(compat_sys_open, OMAYEXEC_COMPAT_SYS(open)) ?:
	      RESOLVE_AS(compat_sys_openat, OMAYEXEC_COMPAT_SYS(openat)) ?:
	      RESOLVE_CALL(build_open_flags) ?:
	      RESOLVE_CALL(getname) ?: RESOLVE_CALL(do_filp_open);
	/* Landlock reads the exec right from __FMODE_EXEC (compat.h). */
	if (!err && !OMAYEXEC_FMODE_EXEC)
		err = resolve_landlock();
	if (err || !omayexec_exec_check)
		return err;

	/*
	 * fs/exec.c's own steps for execveat(AT_EXECVE_CHECK) (exec_check.c):
	 * static functions of fs/exec.c, and IMA's bprm check, all out of
	 * line in Debian's 6.1 and 6.12 builds and with their source
	 * signatures (no .isra or .constprop clone); then what the exec
	 * securebits need (securebits.c).
	 */
	return RESOLVE_AS(sys_execveat, OMAYEXEC_SYS(execveat)) ?:
	       RESOLVE_AS(compat_sys_execveat, OMAYEXEC_COMPAT_SYS(execveat)) ?:
	       RESOLVE_CALL(getname_uflags) ?: RESOLVE_CALL(alloc_bprm) ?:
	       RESOLVE_CALL(do_open_execat) ?: RESOLVE_CALL(free_bprm) ?:
	       RESOLVE_CALL(prepare_exec_creds) ?:
	       RESOLVE_CALL(security_bprm_creds_for_exec) ?:
	       RESOLVE_CALL(ima_bprm_check) ?:
	       RESOLVE(cap_task_prctl) ?: RESOLVE(set_cred_ucounts) ?:
	       RESOLVE_CALL(cap_capable) ?: resolve_create_user_ns();
}
