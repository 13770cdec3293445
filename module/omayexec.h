/* SPDX-License-Identifier: GPL-2.0 */
/*
 * omayexec: declarations shared by the module's files.
 */
#ifndef _OMAYEXEC_H
#define _OMAYEXEC_H

#include <linux/compiler.h>
#include <linux/types.h>

struct filename;
struct open_flags;
struct open_how;
struct path;
struct user_namespace;

/* policy.c: the policy in force and its sysctl. */
extern int omayexec_policy;
extern bool omayexec_locked;
int omayexec_sysctl_register(void);
void omayexec_sysctl_unregister(void);

/* params.c: the module parameters that set the policy at load time. */
int omayexec_params_check(void);

/*
 * symbols.c: kernel functions that are neither exported nor in headers,
 * with their 6.1 signatures (fs/open.c, fs/namei.c).
 */
struct omayexec_symbols {
	/* Hooked: the trampolines run at their entry. */
	long (*do_sys_openat2)(int dfd, const char __user *filename,
			       struct open_how *how);
	int (*may_open)(struct user_namespace *mnt_userns,
			const struct path *path, int acc_mode, int flag);
	/* Called on the O_MAYEXEC path. */
	int (*build_open_flags)(const struct open_how *how,
				struct open_flags *op);
	struct filename *(*getname)(const char __user *filename);
	struct file *(*do_filp_open)(int dfd, struct filename *pathname,
				     const struct open_flags *op);
};
extern struct omayexec_symbols omayexec_sym;
int omayexec_resolve_symbols(void);

/* hooks.c: install and remove the ftrace direct calls. */
int omayexec_hooks_install(void);
void omayexec_hooks_remove(void);

/* openat2.c: do_sys_openat2() for the opens that carry O_MAYEXEC. */
int omayexec_openat2_selftest(void);
long omayexec_openat2(int dfd, const char __user *filename,
		      struct open_how *how);

/* check.c: may_open() for the opens that carry O_MAYEXEC. */
int omayexec_may_open(struct user_namespace *mnt_userns,
		      const struct path *path, int acc_mode, int flag);

/* trampolines.S: the code that ftrace calls at the hooked functions' entry. */
void omayexec_do_sys_openat2_tramp(void);
void omayexec_may_open_tramp(void);

#endif /* _OMAYEXEC_H */
