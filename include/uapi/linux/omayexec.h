/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * O_MAYEXEC: open a file because its content is going to be executed.
 *
 * An interpreter passes O_MAYEXEC to openat2(2) when it opens a script, a
 * module or anything else whose content it will run.  With the omayexec
 * module loaded, the kernel then checks the open against the system policy
 * set in /proc/sys/fs/open_mayexec_enforce.  Without the module, openat2(2)
 * rejects the flag with EINVAL; open(2) and openat(2) always ignore it.
 */
#ifndef _UAPI_LINUX_OMAYEXEC_H
#define _UAPI_LINUX_OMAYEXEC_H

#ifndef O_MAYEXEC
#define O_MAYEXEC		040000000
#endif

/* Bits of fs.open_mayexec_enforce. */
#define OMAYEXEC_ENFORCE_NONE	0
/* Refuse files on a noexec mount (MNT_NOEXEC or SB_I_NOEXEC). */
#define OMAYEXEC_ENFORCE_MOUNT	(1 << 0)
/* Refuse files the caller may not execute (inode_permission(MAY_EXEC)). */
#define OMAYEXEC_ENFORCE_FILE	(1 << 1)
#define OMAYEXEC_ENFORCE_MASK	(OMAYEXEC_ENFORCE_MOUNT | OMAYEXEC_ENFORCE_FILE)

#define OMAYEXEC_SYSCTL_PATH	"/proc/sys/fs/open_mayexec_enforce"

/*
 * Linux 6.14's interface, which the module also gives Debian's 6.1 and
 * 6.12 (its exec_check parameter): execveat(fd, "", argv, envp,
 * AT_EMPTY_PATH | AT_EXECVE_CHECK) runs the checks execve() would run on
 * the file, and returns 0 or their error without executing anything.
 * Defined here with mainline's value for headers that predate it.
 */
#ifndef AT_EXECVE_CHECK
#define AT_EXECVE_CHECK		0x10000
#endif

/*
 * Linux 6.14's exec securebits (prctl(PR_SET_SECUREBITS), <linux/securebits.h>),
 * which the module also gives 6.1 and 6.12: whether an interpreter must
 * refuse a script file whose AT_EXECVE_CHECK failed, and code that comes
 * from no file (-c, standard input); each with a lock that makes it
 * permanent.  Any task may set them; they are inherited across fork and
 * execve, and kept across user namespaces.
 */
#ifndef SECBIT_EXEC_RESTRICT_FILE
#define SECBIT_EXEC_RESTRICT_FILE		(1U << 8)
#define SECBIT_EXEC_RESTRICT_FILE_LOCKED	(1U << 9)
#define SECBIT_EXEC_DENY_INTERACTIVE		(1U << 10)
#define SECBIT_EXEC_DENY_INTERACTIVE_LOCKED	(1U << 11)
#endif
#define OMAYEXEC_SECURE_EXEC_BITS \
	(SECBIT_EXEC_RESTRICT_FILE | SECBIT_EXEC_DENY_INTERACTIVE)

#endif /* _UAPI_LINUX_OMAYEXEC_H */
