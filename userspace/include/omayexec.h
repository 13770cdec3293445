/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libomayexec: open the code an interpreter is about to run so that the
 * kernel judges it: with openat2(2) and O_MAYEXEC (the omayexec module's
 * policy, fs.open_mayexec_enforce) and with execveat(2)'s AT_EXECVE_CHECK
 * on the opened descriptor (Linux 6.14 and later, or the module), each
 * where the running kernel has it.  See omayexec_open(3) and omayexec(7),
 * which has the decision as one table.
 *
 * Every function returns -1 (or NULL) and sets errno on failure; none
 * prints anything.
 */
#ifndef OMAYEXEC_H
#define OMAYEXEC_H

#include <stddef.h>
#include <stdio.h>

#include <linux/omayexec.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The mode:
 *   OMAYEXEC_BEST_EFFORT  (the default) a failed AT_EXECVE_CHECK refuses
 *                         the file only under SECBIT_EXEC_RESTRICT_FILE;
 *                         on a kernel that can check in neither way the
 *                         file is opened unchecked;
 *   OMAYEXEC_STRICT       every failed check refuses the file (its
 *                         errno), and a kernel that can check in neither
 *                         way fails with EOPNOTSUPP.
 * The mode in force is the strictest of: the system configuration file
 * (/etc/omayexec.conf), the caller's omayexec_set_mode(), and the
 * OMAYEXEC_MODE environment variable.  None of them can lower another.
 */
#define OMAYEXEC_BEST_EFFORT	0
#define OMAYEXEC_STRICT		1

/* Who made a setting what it is (struct omayexec_state). */
#define OMAYEXEC_SOURCE_DEFAULT		0
#define OMAYEXEC_SOURCE_CONFIG		1	/* the system configuration file */
#define OMAYEXEC_SOURCE_CALLER		2	/* omayexec_set_mode(), the program */
#define OMAYEXEC_SOURCE_ENVIRONMENT	3	/* OMAYEXEC_MODE, OMAYEXEC_DENY_INTERACTIVE */
#define OMAYEXEC_SOURCE_SECUREBITS	4	/* the calling thread's SECBIT_EXEC_* */

/*
 * Open @path (relative to @dirfd, as openat(2)) for reading, as code to
 * run: with O_MAYEXEC where the kernel knows it, then AT_EXECVE_CHECK on
 * the new descriptor where the kernel answers it, enforced as the mode
 * and the securebits say.  @flags: O_RDONLY, optionally with O_NOFOLLOW,
 * O_NONBLOCK, O_NOCTTY, O_NOATIME, O_CLOEXEC (always added).  Returns the
 * new file descriptor, or -1 with errno: EACCES when the O_MAYEXEC policy
 * refuses the file, the check's error (EACCES, ETXTBSY, ...) when it is
 * enforced, EOPNOTSUPP when the kernel cannot check it in strict mode,
 * EINVAL for other @flags, or any error of openat2(2).
 */
int omayexec_open(int dirfd, const char *path, int flags);

/*
 * fopen(3) through omayexec_open(): @mode is "r", optionally with "b" and
 * "e".  Returns NULL with errno on failure.
 */
FILE *omayexec_fopen(const char *path, const char *mode);

/*
 * Whether the file open as @fd (e.g. standard input) may be run as code:
 * 0 when it is a regular file that passes every check the kernel can make
 * now (O_MAYEXEC, by reopening /proc/self/fd/@fd; AT_EXECVE_CHECK on @fd
 * itself, whatever the mode), -1 with errno otherwise (EACCES for
 * anything but a regular file, the refusal's errno, EOPNOTSUPP when no
 * check is possible in strict mode).
 */
int omayexec_check_fd(int fd);

/* The caller's mode (OMAYEXEC_BEST_EFFORT or OMAYEXEC_STRICT): 0, or -1 (EINVAL). */
int omayexec_set_mode(int mode);

/* The mode in force now, after the configuration file and the environment. */
int omayexec_mode(void);

/*
 * 1 when the configuration file, the calling thread's
 * SECBIT_EXEC_DENY_INTERACTIVE or OMAYEXEC_DENY_INTERACTIVE asks
 * interpreters to refuse code that is not a checked file (-c, stdin
 * unless it is a regular file that passes omayexec_check_fd()), else 0.
 */
int omayexec_deny_interactive(void);

/* How the running kernel answers execveat(2) with AT_EXECVE_CHECK. */
#define OMAYEXEC_EXEC_CHECK_NONE	0	/* EINVAL: it knows no such flag */
#define OMAYEXEC_EXEC_CHECK_NATIVE	1	/* itself: Linux 6.14 and later */
#define OMAYEXEC_EXEC_CHECK_MODULE	2	/* through the omayexec module */

/* The state of the system, as omayexec_get_state() reports it. */
struct omayexec_state {
	int kernel_support;	/* 1: openat2(2) honours O_MAYEXEC */
	int module_loaded;	/* 1: /sys/module/omayexec exists */
	int policy;		/* 0-3, or -1: see policy_errno */
	int policy_errno;	/* ENOENT: no module; EACCES: readable by root only */
	int locked;		/* 1, 0, or -1 when unknown */
	int stats_available;	/* 1: the four counters below were read */
	unsigned long long allowed;
	unsigned long long refused_not_regular;
	unsigned long long refused_noexec_mount;
	unsigned long long refused_no_exec_permission;
	int mode;		/* omayexec_mode() */
	int mode_source;	/* OMAYEXEC_SOURCE_* that set it */
	int deny_interactive;	/* omayexec_deny_interactive() */
	int deny_interactive_source;
	int config_errno;	/* 0, or why the configuration file could not be
				 * used: the library then fails closed (strict,
				 * deny interactive) */
	/* Added after 1.0.0 (a smaller @size leaves them out): */
	int exec_check;		/* OMAYEXEC_EXEC_CHECK_* */
	int securebits;		/* the calling thread's securebits
				 * (PR_GET_SECUREBITS; SECBIT_EXEC_* among
				 * them), or -1 when unknown */
	int restrict_file;	/* 1: a failed AT_EXECVE_CHECK refuses the
				 * file (SECBIT_EXEC_RESTRICT_FILE, or strict) */
	int restrict_file_source;
};

/*
 * Fill @state (@size is sizeof(*state), for later extensions: a program
 * built with an older, shorter struct gets the fields it knows).  Parts
 * that cannot be read are reported as unknown inside @state; returns 0,
 * or -1 with errno EINVAL for a NULL @state or a @size too small.
 */
int omayexec_get_state(struct omayexec_state *state, size_t size);

/*
 * Write @policy (0-3) to fs.open_mayexec_enforce: 0, or -1 with errno:
 * ENOENT when there is no such policy (the module is not loaded; a
 * kernel that answers AT_EXECVE_CHECK itself has none either: the state's
 * exec_check tells them apart), EACCES or EPERM when the caller
 * lacks the privilege (CAP_MAC_ADMIN) or the policy is locked, EINVAL for
 * a value out of range.
 */
int omayexec_set_policy(int policy);

/*
 * "0"-"3", "off", "mount", "file", "mount,file" (or "file,mount"): the
 * policy, or -1 with errno EINVAL.
 */
int omayexec_parse_policy(const char *text);

/* "off", "mount", "file", "mount,file"; NULL for a value out of range. */
const char *omayexec_policy_name(int policy);

/* The configuration file this library reads. */
const char *omayexec_config_path(void);

#ifdef __cplusplus
}
#endif

#endif /* OMAYEXEC_H */
