/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the O_MAYEXEC behaviour tests.
 *
 * Nothing here uses the kselftest harness (it defines global symbols, so
 * only the test file itself may include it).  Every helper returns 0 or a
 * file descriptor on success and -errno on failure, so a test reads as
 * ASSERT_EQ(0, omx_policy_set(2)) or ASSERT_EQ(-EACCES, omx_probe_openat2(...)).
 *
 * The tests run as root in a guest.  Each test runs in its own process
 * (the harness forks), and omx_ws_create() moves that process into a
 * private mount namespace: the tmpfs mounts a test makes disappear with it.
 */
#ifndef OMX_TEST_LIB_H
#define OMX_TEST_LIB_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <sys/capability.h>
#include <sys/types.h>

/* struct open_how and the openat2 selftest helpers (sys_openat2(), ...). */
#include "helpers.h"

#include <linux/omayexec.h>

/* f_flags bit set by the kernel for exec opens (include/linux/fs.h). */
#define OMX_FMODE_EXEC		040
/* Bits a plain open never puts in f_flags. */
#define OMX_EXEC_OPEN_BITS	(OMX_FMODE_EXEC | O_MAYEXEC)

/*
 * Whether the running kernel is one where an O_MAYEXEC open carries
 * __FMODE_EXEC in f_flags: before 6.8 (Debian 12's 6.1) it does, so that
 * fsnotify reports it as an exec open.  From 6.8 on (Debian 13's 6.12)
 * AppArmor and TOMOYO read __FMODE_EXEC as "opened by execve()" and skip
 * their open check (apparmor_file_open()), so the module must not set it
 * there: it raises fanotify's exec events itself.  Read from uname(2).
 */
bool omx_kernel_marks_fmode_exec(void);
/* The OMX_EXEC_OPEN_BITS an O_MAYEXEC open carries on the running kernel. */
int omx_mayexec_open_bits(void);

/* The 2018 RFC's interface, with the module parameter rfc_v1=1. */
#define OMX_RFC_V1_SYSCTL	"/proc/sys/kernel/yama/open_mayexec_enforce"
#define OMX_RFC_V1_PARAM	"/sys/module/omayexec/parameters/rfc_v1"
bool omx_rfc_v1_enabled(void);

/* An unprivileged user for the tests that drop root. */
#define OMX_USER_UID		1000
#define OMX_USER_GID		1000

/* ---- The policy: /proc/sys/fs/open_mayexec_enforce ---------------- */

/* Whether the module is loaded (its sysctl exists). */
bool omx_module_loaded(void);
/* The current policy (0-3), or -errno. */
int omx_policy_read(void);
/* One write(2) of @text to the sysctl: 0 if all of it was taken, or -errno. */
int omx_policy_write(const char *text);
/* The same with LEN bytes from BUF, NULs and all. */
int omx_policy_write_bytes(const void *buf, size_t len);
/* Raise CAP_MAC_ADMIN, write @policy, read it back: 0 or -errno (-EIO on mismatch). */
int omx_policy_set(int policy);
/*
 * When set (before main returns), the harness process writes policy 0 at
 * exit if it finds another policy: what a test killed by its timeout left.
 */
extern bool omx_restore_policy_at_exit;

/* ---- Capabilities and credentials ------------------------------------ */

/* Set or clear @caps in the effective set of the calling thread. */
int omx_caps_effective(const cap_value_t *caps, int ncaps, bool on);
/* CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH, as in the seeds' v5 test. */
int omx_dac_override(bool on);
int omx_mac_admin(bool on);
/* Become OMX_USER_UID/GID for good (setgroups, setresgid, setresuid). */
int omx_become_user(void);

/*
 * Become root of a new user namespace (uid and gid 0 mapped to 0): full
 * capabilities there, none in the initial namespace.
 */
int omx_enter_user_namespace(void);

/* Who performs an open: the three callers the policy tests distinguish. */
enum omx_caller {
	OMX_ROOT,			/* uid 0, full capabilities */
	OMX_ROOT_WITHOUT_DAC_OVERRIDE,	/* uid 0, no CAP_DAC_{OVERRIDE,READ_SEARCH} */
	OMX_USER,			/* uid OMX_USER_UID, no capabilities */
};
int omx_become(enum omx_caller caller);
const char *omx_caller_name(enum omx_caller caller);

/*
 * Run @fn(@arg) in a forked child and return what it returned (any int,
 * -errno included).  The child can change its credentials without
 * affecting the test process.  Returns INT_MIN if the child died.
 */
int omx_in_child(int (*fn)(void *arg), void *arg);

/* ---- Opening ------------------------------------------------------ */

/* openat2(2) with flags and resolve: the new fd, or -errno. */
int omx_openat2(int dfd, const char *path, __u64 flags, __u64 resolve);
/* Open and close at once: 0 if the open succeeded, -errno otherwise. */
int omx_probe_openat2(int dfd, const char *path, __u64 flags, __u64 resolve);
int omx_probe_openat(int dfd, const char *path, int flags);
int omx_probe_open(const char *path, int flags);
/* f_flags of @fd as fcntl(F_GETFL) returns them (all bits), or -errno. */
int omx_fd_flags(int fd);
/* The octal "flags:" line of /proc/self/fdinfo/@fd, or -errno. */
long omx_fdinfo_flags(int fd);

/* ---- A workspace of tmpfs mounts ---------------------------------- */

struct omx_ws {
	char root[PATH_MAX / 2];	/* absolute path of the workspace tmpfs */
	int dirfd;		/* open directory fd of root */
};

/*
 * Unshare the mount namespace (private propagation), create a directory
 * in the working directory and mount an exec tmpfs on it.  Sets umask 0.
 */
int omx_ws_create(struct omx_ws *ws);
/* Unmount everything below and remove the directory. */
int omx_ws_destroy(struct omx_ws *ws);
/* Absolute path of @rel inside the workspace (static buffer, 4 slots). */
const char *omx_ws_path(const struct omx_ws *ws, const char *rel);
/* Make directory @rel and mount a tmpfs there with MS_* @flags (e.g. MS_NOEXEC). */
int omx_ws_mount_tmpfs(struct omx_ws *ws, const char *rel, unsigned long flags);
/* Bind mount @from on @to (created), then remount the bind with @flags. */
int omx_ws_bind(struct omx_ws *ws, const char *from, const char *to,
		unsigned long flags);
/* Create regular file @rel with exactly @mode, owned by @uid:@gid. */
int omx_ws_file(struct omx_ws *ws, const char *rel, mode_t mode, uid_t uid,
		gid_t gid);
/* Copy /proc/self/exe to @rel with @mode (for execve tests). */
int omx_ws_copy_self(struct omx_ws *ws, const char *rel, mode_t mode);

/*
 * Give named user @uid the permissions @perm (rwx bits, 0-7) through a
 * POSIX access ACL, keeping the mode's owner/group/other classes.
 */
int omx_set_acl_user(int fd, uid_t uid, unsigned int perm);

/* ---- execve probe --------------------------------------------------- */

/*
 * Every test binary exits at once with OMX_EXEC_PROBE_STATUS when started
 * with OMX_EXEC_PROBE_ENV in its environment (a constructor does it): a
 * copy of the binary is then a program that execve(2) can run.
 */
#define OMX_EXEC_PROBE_ENV	"OMX_EXEC_PROBE=1"
#define OMX_EXEC_PROBE_STATUS	42
/* fork + execve(@path) with the probe environment: exit status, or -errno. */
int omx_run_exec_probe(const char *path);
/* The same with execveat(@dfd, @path, ..., 0). */
int omx_run_execveat_probe(int dfd, const char *path);
/*
 * execveat(@dfd, @path, argv, envp, @flags) in this process, with the probe
 * environment: 0 or -errno.  With AT_EXECVE_CHECK it must run nothing; a
 * check that ran a copy of a test binary would end this process with
 * OMX_EXEC_PROBE_STATUS.
 */
int omx_execveat_probe(int dfd, const char *path, int flags);

#define OMX_EXEC_CHECK_PARAM	"/sys/module/omayexec/parameters/exec_check"
/* Whether the module is loaded with exec_check=Y (AT_EXECVE_CHECK, securebits). */
bool omx_exec_check_enabled(void);
/*
 * Whether execveat(2) answers AT_EXECVE_CHECK (the kernel itself, or the
 * module): a check of "/", which no kernel executes, is EACCES there and
 * EINVAL where the flag is unknown.
 */
bool omx_exec_check_answered(void);

/* ---- kprobe hit counters (tracefs) ---------------------------------- */

/*
 * Count calls of a kernel function with a kprobe event: tells whether an
 * object's open routine (chrdev_open, fifo_open, ...) ran at all.
 */
struct omx_kprobe {
	char tracefs[PATH_MAX];
	char event[64];
};
/* -ENOENT/-EOPNOTSUPP when tracefs or kprobe events are not available. */
int omx_kprobe_add(struct omx_kprobe *kp, const char *func);
/*
 * The same, each hit recording @args (kprobe_events' fetch arguments,
 * "mask=$arg2:x32") in the trace buffer, which omx_kprobe_values() reads.
 */
int omx_kprobe_add_args(struct omx_kprobe *kp, const char *func,
			const char *args);
/*
 * The values of fetch argument @arg in this event's hits by process @pid
 * in the trace buffer, oldest first, up to @max of them: how many hits
 * there were, or -errno.
 */
int omx_kprobe_values(const struct omx_kprobe *kp, const char *arg,
		      pid_t pid, unsigned long *values, int max);
/* Hits so far, or -errno. */
long omx_kprobe_hits(const struct omx_kprobe *kp);
int omx_kprobe_remove(struct omx_kprobe *kp);

#endif /* OMX_TEST_LIB_H */
