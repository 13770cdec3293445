/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the lifecycle tests: load and unload kernel modules with
 * finit_module(2)/delete_module(2), read what the kernel logged meanwhile,
 * read and write small files (sysctls, module parameters), and see which
 * ftrace users a kernel function has.
 *
 * Every function returns 0 (or a file descriptor) on success and -errno on
 * failure, so that a test can compare the result with ASSERT_EQ(-EINVAL, ...).
 * (openat2(2), the policy sysctl and tmpfs workspaces come from omx.h.)
 */
#ifndef OMX_TESTS_MODULE_H
#define OMX_TESTS_MODULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The names of the syscall entries the module hooks, as kallsyms and
 * enabled_functions show them (module/arch/ARCH/arch.h).
 */
#ifdef __aarch64__
#define OMX_SYS(name)		"__arm64_sys_" #name
#define OMX_COMPAT_SYS(name)	"__arm64_compat_sys_" #name
#else
#define OMX_SYS(name)		"__x64_sys_" #name
#define OMX_COMPAT_SYS(name)	"__ia32_compat_sys_" #name
#endif

#define MOD_OMAYEXEC		"omayexec"
#define MOD_HOG			"omx_hog"

/* The module under test: $OMAYEXEC_KO, else /lib/modules/<uname -r>/extra/omayexec.ko. */
const char *mod_omayexec_path(void);
/* The test-only module of tests/kmod: $OMX_HOG_KO, else <this binary's dir>/../kmod/omx_hog.ko. */
const char *mod_hog_path(void);

/* finit_module(2) of PATH with the parameter string PARAMS (may be NULL). */
int mod_load(const char *path, const char *params);
/* delete_module(2) with O_NONBLOCK, as rmmod does; FLAGS are added to it. */
int mod_unload_flags(const char *name, unsigned int flags);
int mod_unload(const char *name);
/*
 * Unloads NAME if it is loaded, retrying for up to TIMEOUT_MS while the
 * module is busy (still initialising, or in use): 0 once it is gone
 * (or was not loaded), the last error otherwise.
 */
int mod_unload_retry(const char *name, int timeout_ms);
/* Whether /sys/module/NAME/initstate exists (a loaded, loadable module). */
bool mod_is_loaded(const char *name);
/* Reads /sys/module/NAME/parameters/PARAM into BUF, without the newline. */
int mod_param(const char *name, const char *param, char *buf, size_t len);

/* Reads PATH into BUF (NUL-terminated, one trailing newline removed). */
int lc_read_file(const char *path, char *buf, size_t len);
/* Opens PATH write-only and writes STR with one write(2). */
int lc_write_file(const char *path, const char *str);
/* Runs ARGV[0] (searched in PATH) and returns its exit status, or -errno. */
int lc_run(char *const argv[]);
/* Returns the first of the given names that is an executable file, or NULL. */
const char *lc_find_prog(const char *name);

/*
 * The kernel log from the moment klog_open() was called: klog_collect()
 * appends every record logged since to buf (one message per line, without
 * the /dev/kmsg prefix).
 */
struct klog {
	int fd;
	char *buf;
	size_t len;
};
int klog_open(struct klog *log);
void klog_collect(struct klog *log);
/* Collects, then tells whether a message contains every one of the needles. */
bool klog_has(struct klog *log, const char *needle, const char *needle2);
/*
 * Collects, then returns the first message that shows a kernel problem
 * (BUG, WARNING, Oops, a call trace, a lockup or hung task), or NULL.
 * The returned line is in a static buffer.
 */
const char *klog_trouble(struct klog *log);
void klog_close(struct klog *log);

/*
 * The ftrace users of kernel function FUNC, as listed in
 * /sys/kernel/tracing/enabled_functions (tracefs is mounted on demand):
 * the line of FUNC copied into BUF and 1, 0 if FUNC has no user, or -errno
 * when the list cannot be read.
 */
int lc_ftrace_users(const char *func, char *buf, size_t len);

/*
 * Observing the policy in force through opens alone.
 *
 * lc_ws_populate() mounts two tmpfs in workspace WS (omx.h): "exec" and
 * "noexec" (MS_NOEXEC), and creates exec/x (0755), exec/nx (0644) and
 * noexec/x (0755).  lc_policy_seen() then opens them with O_MAYEXEC:
 *   exec/x    allowed under every policy;
 *   exec/nx   refused (EACCES) exactly when bit 2 (file) is set;
 *   noexec/x  refused (EACCES) exactly when bit 1 (mount) is set;
 * and returns the policy (0-3) that these results show, -EINVAL when all
 * three opens fail with EINVAL (no module: the stock kernel), or -EPROTO
 * when the results fit nothing (WHY then says what was seen).
 * Run as root: root is refused a file without any x bit all the same.
 */
struct omx_ws;
int lc_ws_populate(struct omx_ws *ws);
int lc_policy_seen(int dirfd, char *why, size_t len);

#endif /* OMX_TESTS_MODULE_H */
