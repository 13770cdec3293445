// SPDX-License-Identifier: GPL-2.0
/*
 * The exec securebits of Linux 6.14 (bits 8-11), as the module gives them
 * to Debian's 6.1 and 6.12 (exec_check parameter, on by default):
 *
 * - prctl(PR_SET_SECUREBITS) takes them with mainline's rules: any task
 *   may set, clear and lock them; a lock is permanent, even for root; an
 *   unknown bit is EPERM; without CAP_SETPCAP no other bit may change, and
 *   writing the bits unchanged is EPERM; PR_GET_SECUREBITS shows them;
 * - they are inherited across fork and execve, and kept when the task
 *   enters a user namespace (clone, unshare, setns), locks included;
 * - once a task has set one, the module cannot be unloaded any more, not
 *   even by rmmod -f.
 *
 * Each test runs in its own process (the harness forks), so the bits it
 * sets go with it.  The variants run as root and as uid 1000 without
 * capabilities.  The module stays loaded for good after this suite:
 * tests/run-check runs it last in its boot.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/omayexec.h>

#include "omx_test.h"

#define EXEC_BITS	(SECBIT_EXEC_RESTRICT_FILE | SECBIT_EXEC_DENY_INTERACTIVE)
#define EXEC_LOCKS	(SECBIT_EXEC_RESTRICT_FILE_LOCKED | SECBIT_EXEC_DENY_INTERACTIVE_LOCKED)
#define SECBIT_KEEP_CAPS_BIT	(1 << 4)	/* a stock, privileged bit */

#define PROBE_ENV	"OMX_SECUREBITS_PROBE"

/* Started with PROBE_ENV: exit with the exec bits and locks (>> 8). */
static void __attribute__((constructor)) securebits_probe(void)
{
	if (getenv(PROBE_ENV))
		_exit((prctl(PR_GET_SECUREBITS) >> 8) & 0xf);
}

static int get_bits(void)
{
	return prctl(PR_GET_SECUREBITS);
}

static int set_bits(unsigned long bits)
{
	return prctl(PR_SET_SECUREBITS, bits) ? -errno : 0;
}

/* The exit status of child PID, or -1 (fork() failed, or it did not exit). */
static int exit_status(pid_t pid)
{
	int status;

	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* The probe's view of the bits after an execve() (>> 8), or -1. */
static int bits_after_exec(void)
{
	char *const argv[] = { "securebits_probe", NULL };
	char *const envp[] = { PROBE_ENV "=1", NULL };
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execve("/proc/self/exe", argv, envp);
		_exit(255);
	}
	return exit_status(pid);
}

/* The bits a child made by clone(FLAGS) sees (>> 8), or -1. */
static int bits_in_clone(unsigned long flags)
{
	pid_t pid;

	fflush(stdout);
	pid = syscall(SYS_clone, flags | SIGCHLD, NULL, NULL, NULL, 0);
	if (pid == 0)
		_exit((get_bits() >> 8) & 0xf);
	return exit_status(pid);
}

/* The bits (>> 8) of a child after setns(FD, CLONE_NEWUSER), or -1. */
static int in_child_setns(int fd)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (setns(fd, CLONE_NEWUSER))
			_exit(100 + errno);
		_exit((get_bits() >> 8) & 0xf);
	}
	return exit_status(pid);
}

FIXTURE(securebits) {
	int dummy;
};

FIXTURE_VARIANT(securebits) {
	bool user;
};

FIXTURE_VARIANT_ADD(securebits, root) { .user = false };
FIXTURE_VARIANT_ADD(securebits, user) { .user = true };

FIXTURE_SETUP(securebits)
{
	if (!omx_module_loaded())
		SKIP(return, "omayexec not loaded");
	ASSERT_EQ(0, get_bits() & (EXEC_BITS | EXEC_LOCKS));
	if (variant->user)
		ASSERT_EQ(0, omx_become_user());
}

FIXTURE_TEARDOWN(securebits)
{
}

TEST_F(securebits, set_get_clear)
{
	int base = get_bits();

	ASSERT_EQ(0, set_bits(base | SECBIT_EXEC_RESTRICT_FILE));
	EXPECT_EQ(base | SECBIT_EXEC_RESTRICT_FILE, get_bits());
	ASSERT_EQ(0, set_bits(base | EXEC_BITS));
	EXPECT_EQ(base | EXEC_BITS, get_bits());
	ASSERT_EQ(0, set_bits(base));
	EXPECT_EQ(base, get_bits());
}

TEST_F(securebits, locks_are_permanent)
{
	int base = get_bits();
	int locked = base | SECBIT_EXEC_RESTRICT_FILE | SECBIT_EXEC_RESTRICT_FILE_LOCKED;

	ASSERT_EQ(0, set_bits(locked));
	EXPECT_EQ(-EPERM, set_bits(locked & ~SECBIT_EXEC_RESTRICT_FILE));
	EXPECT_EQ(-EPERM, set_bits(locked & ~SECBIT_EXEC_RESTRICT_FILE_LOCKED));
	EXPECT_EQ(-EPERM, set_bits(base));
	/* The other bit is still free. */
	EXPECT_EQ(0, set_bits(locked | SECBIT_EXEC_DENY_INTERACTIVE));
	EXPECT_EQ(0, set_bits(locked));
	/* A lock alone, on a cleared bit, keeps it cleared. */
	ASSERT_EQ(0, set_bits(locked | SECBIT_EXEC_DENY_INTERACTIVE_LOCKED));
	EXPECT_EQ(-EPERM, set_bits(locked | SECBIT_EXEC_DENY_INTERACTIVE |
				   SECBIT_EXEC_DENY_INTERACTIVE_LOCKED));
	EXPECT_EQ(locked | SECBIT_EXEC_DENY_INTERACTIVE_LOCKED, get_bits());
}

TEST_F(securebits, unknown_bits_are_eperm)
{
	int base = get_bits();

	EXPECT_EQ(-EPERM, set_bits(base | (1 << 12)));
	EXPECT_EQ(-EPERM, set_bits(base | SECBIT_EXEC_RESTRICT_FILE | (1 << 13)));
	EXPECT_EQ(-EPERM, set_bits(base | (1UL << 31)));
	EXPECT_EQ(base, get_bits());
}

/* The stock bits keep their rules: CAP_SETPCAP, and no empty change. */
TEST_F(securebits, stock_bits_need_cap_setpcap)
{
	int base = get_bits();

	if (variant->user) {
		EXPECT_EQ(-EPERM, set_bits(base | SECBIT_KEEP_CAPS_BIT));
		EXPECT_EQ(-EPERM, set_bits(base));
		ASSERT_EQ(0, set_bits(base | SECBIT_EXEC_RESTRICT_FILE));
		EXPECT_EQ(-EPERM, set_bits(base | SECBIT_EXEC_RESTRICT_FILE));
		EXPECT_EQ(-EPERM, set_bits(base | SECBIT_EXEC_RESTRICT_FILE |
					   SECBIT_KEEP_CAPS_BIT));
	} else {
		EXPECT_EQ(0, set_bits(base | SECBIT_KEEP_CAPS_BIT));
		EXPECT_EQ(0, set_bits(base | SECBIT_KEEP_CAPS_BIT));
		EXPECT_EQ(0, set_bits(base | SECBIT_KEEP_CAPS_BIT | SECBIT_EXEC_RESTRICT_FILE));
		EXPECT_EQ(0, set_bits(base));
	}
	EXPECT_EQ(base, get_bits() & ~SECBIT_EXEC_RESTRICT_FILE);
}

TEST_F(securebits, inherited_across_fork_and_execve)
{
	int bits = get_bits() | SECBIT_EXEC_DENY_INTERACTIVE |
		   SECBIT_EXEC_DENY_INTERACTIVE_LOCKED;

	ASSERT_EQ(0, set_bits(bits));
	EXPECT_EQ((bits >> 8) & 0xf, bits_in_clone(0));
	EXPECT_EQ((bits >> 8) & 0xf, bits_after_exec());
}

/* A user namespace does not shed them: clone, unshare, setns. */
TEST_F(securebits, kept_in_user_namespaces)
{
	int bits = get_bits() | EXEC_BITS | EXEC_LOCKS;
	int want = (bits >> 8) & 0xf;
	int status, fd, pipefd[2], tries;
	char path[64], c;
	pid_t owner;

	ASSERT_EQ(0, set_bits(bits));
	EXPECT_EQ(want, bits_in_clone(CLONE_NEWUSER));

	/* setns(): into a user namespace a child made and holds. */
	ASSERT_EQ(0, pipe2(pipefd, O_CLOEXEC));
	fflush(stdout);
	owner = fork();
	ASSERT_LE(0, owner);
	if (owner == 0) {
		/* Its /proc/PID/ns/user readable by the parent, as uid 1000 too. */
		if (prctl(PR_SET_DUMPABLE, 1) || unshare(CLONE_NEWUSER))
			_exit(1);
		close(pipefd[1]);
		/* Until the parent closes its end. */
		if (read(pipefd[0], &c, 1) < 0)
			_exit(2);
		_exit(0);
	}
	close(pipefd[0]);
	snprintf(path, sizeof(path), "/proc/%d/ns/user", owner);
	/* The child unshares before the parent opens: wait for it (5 s). */
	for (fd = -1, tries = 0; fd < 0 && tries < 5000; tries++) {
		char link[64] = "", self_link[64] = "";

		if (readlink(path, link, sizeof(link) - 1) > 0 &&
		    readlink("/proc/self/ns/user", self_link, sizeof(self_link) - 1) > 0 &&
		    strcmp(link, self_link))
			fd = open(path, O_RDONLY | O_CLOEXEC);
		else
			usleep(1000);
	}
	ASSERT_LE(0, fd) TH_LOG("%s: no user namespace of its own", path);
	EXPECT_EQ(want, in_child_setns(fd));
	close(fd);
	close(pipefd[1]);
	ASSERT_EQ(owner, waitpid(owner, &status, 0));

	/* unshare(), last: it changes this process for good. */
	ASSERT_EQ(0, unshare(CLONE_NEWUSER));
	EXPECT_EQ(bits, get_bits());
	/* And still locked there, with every capability of the namespace. */
	EXPECT_EQ(-EPERM, set_bits(bits & ~SECBIT_EXEC_RESTRICT_FILE));
}

/* Once a task used them the module stays: rmmod, even forced, fails. */
TEST_F(securebits, module_stays_once_used)
{
	ASSERT_EQ(0, set_bits(get_bits() | SECBIT_EXEC_RESTRICT_FILE));
	if (variant->user)
		return;
	EXPECT_NE(0, syscall(SYS_delete_module, "omayexec", O_NONBLOCK));
	EXPECT_NE(0, syscall(SYS_delete_module, "omayexec", O_NONBLOCK | O_TRUNC));
	EXPECT_TRUE(omx_module_loaded());
}

TEST_HARNESS_MAIN
