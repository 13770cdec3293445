// SPDX-License-Identifier: GPL-2.0
/*
 * A load of omayexec that fails half-way leaves nothing behind, even while
 * other tasks use every interface it would have given.
 *
 * omayexec installs its hooks one after the other (module/hooks.c).  Here
 * the test-only module omx_hog.ko takes one hooked function first, with
 * an IPMODIFY ftrace_ops as a livepatch would, so the load fails at that
 * hook (EBUSY), after the hooks before it were in place, while:
 *
 *  - sleepers loop on openat2(FIFO, O_RDONLY | O_MAYEXEC): one that the
 *    module let in sleeps in the FIFO's open, inside the module's code,
 *    until the test opens the FIFO for writing, after the failed load;
 *  - setters loop on prctl(PR_SET_SECUREBITS, SECBIT_EXEC_RESTRICT_FILE),
 *    which only the module allows;
 *  - unsharers loop on unshare(CLONE_NEWUSER) and clone(CLONE_NEWUSER);
 *  - checkers loop on execveat(AT_EXECVE_CHECK).
 *
 * A load is all or nothing: every one of them must get the stock kernel's
 * answer (EINVAL, EPERM) while the load runs, none may keep an exec bit,
 * the sleepers wake into the kernel's code, not a freed module's, the
 * console stays clean (the fixture's teardown), and once the function is
 * free the next load succeeds.  Each variant takes another function; the
 * later in the install order, the more hooks were live before the failure.
 * One load is refused in each (attempts()): with the other tasks at work,
 * a refused load takes 8 to 9 s under TCG (the ftrace_ops it had
 * registered are removed, an RCU-tasks grace period each, which the busy
 * tasks stretch), all on the boot's one host CPU.  What a refused load
 * could leave behind for the next ftrace user, the load that follows the
 * refusal meets; a second refusal in a row asserted nothing more.
 *
 * Started with no module loaded; leaves none (lifecycle.h's fixture).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "omx.h"
#include "module.h"
#include "kselftest_harness.h"
#include "lifecycle.h"

/*
 * Loads refused per case: a quarter of the load races' cycles
 * (lc_cycles(), four by default), at least one.  So one by default and in
 * the arm64 slice (OMX_LIFECYCLE_CYCLES=2), 25 in a hunt of 100.
 */
static int attempts(void)
{
	int n = lc_cycles(4) / 4;

	return n < 1 ? 1 : n;
}

#define SLEEPERS	2

FIXTURE_VARIANT(lifecycle) {
	const char *func;	/* what omx_hog takes */
	/*
	 * omayexec's, so that it hooks func; policy 0, the default, where an
	 * O_MAYEXEC open of a FIFO is allowed, and sleeps.
	 */
	const char *params;
};

/* In install order (module/hooks.c); the one taken is where the load stops. */
FIXTURE_VARIANT_ADD(lifecycle, may_open) {
	.func = "may_open", .params = "",
};

FIXTURE_VARIANT_ADD(lifecycle, do_sys_openat2) {
	.func = "do_sys_openat2", .params = "",
};

FIXTURE_VARIANT_ADD(lifecycle, sys_openat_rfc_v1) {
	.func = OMX_SYS(openat), .params = "rfc_v1=1",
};

FIXTURE_VARIANT_ADD(lifecycle, sys_execveat) {
	.func = OMX_SYS(execveat), .params = "",
};

FIXTURE_VARIANT_ADD(lifecycle, cap_task_prctl) {
	.func = "cap_task_prctl", .params = "",
};

FIXTURE_VARIANT_ADD(lifecycle, create_user_ns) {
	.func = "create_user_ns", .params = "",
};

/* What the busy tasks saw, in memory shared with the test. */
struct busy {
	volatile int stop;
	long entered;		/* O_MAYEXEC FIFO opens that returned a descriptor */
	long bits_taken;	/* PR_SET_SECUREBITS with an exec bit that succeeded */
	long bits_kept;		/* tasks that ended with an exec bit */
	long checks_answered;	/* execveat(AT_EXECVE_CHECK) that was not EINVAL */
	long bad;		/* answers neither the stock kernel nor the module gives */
	char bad_what[160];
};

static void busy_bad(struct busy *b, const char *what, int err)
{
	__atomic_add_fetch(&b->bad, 1, __ATOMIC_SEQ_CST);
	snprintf(b->bad_what, sizeof(b->bad_what), "%s: %s", what,
		 strerror(err));
}

/* O_MAYEXEC opens of @fifo: each one the module lets in sleeps until a writer comes. */
static void sleeper(struct busy *b, const char *fifo)
{
	int fd;

	while (!b->stop) {
		fd = omx_openat2(AT_FDCWD, fifo, O_RDONLY | O_CLOEXEC | O_MAYEXEC,
				 0);
		if (fd >= 0) {
			__atomic_add_fetch(&b->entered, 1, __ATOMIC_SEQ_CST);
			close(fd);
		} else if (errno != EINVAL) {
			busy_bad(b, "openat2(FIFO, O_MAYEXEC)", errno);
		}
	}
}

static void bits_setter(struct busy *b)
{
	while (!b->stop) {
		if (!prctl(PR_SET_SECUREBITS, SECBIT_EXEC_RESTRICT_FILE, 0, 0, 0))
			__atomic_add_fetch(&b->bits_taken, 1, __ATOMIC_SEQ_CST);
		else if (errno != EPERM)
			busy_bad(b, "PR_SET_SECUREBITS", errno);
	}
	if (prctl(PR_GET_SECUREBITS, 0, 0, 0, 0) & OMAYEXEC_SECURE_EXEC_BITS)
		__atomic_add_fetch(&b->bits_kept, 1, __ATOMIC_SEQ_CST);
}

static int child_exit(void *arg)
{
	(void)arg;
	return 0;
}

/* unshare(CLONE_NEWUSER) in a child, and clone(CLONE_NEWUSER), in turn. */
static void unsharer(struct busy *b)
{
	static char stack[16384] __attribute__((aligned(16)));
	pid_t pid;

	while (!b->stop) {
		pid = fork();
		if (!pid)
			_exit(unshare(CLONE_NEWUSER) ? 1 : 0);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		pid = clone(child_exit, stack + sizeof(stack),
			    CLONE_NEWUSER | SIGCHLD, NULL);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		else
			busy_bad(b, "clone(CLONE_NEWUSER)", errno);
	}
}

static void checker(struct busy *b)
{
	int ret;

	while (!b->stop) {
		ret = omx_execveat_probe(AT_FDCWD, "/proc/self/exe",
					 AT_EXECVE_CHECK);
		if (ret != -EINVAL)
			__atomic_add_fetch(&b->checks_answered, 1,
					   __ATOMIC_SEQ_CST);
	}
}

static pid_t start(FIXTURE_DATA(lifecycle) *self, struct busy *b,
		   void (*fn)(struct busy *b))
{
	pid_t pid = fork_child(self);

	if (!pid) {
		fn(b);
		_exit(0);
	}
	return pid;
}

TEST_F_TIMEOUT(lifecycle, failed_load_leaves_nothing, 240)
{
	char fifo[PATH_MAX], line[512];
	pid_t sleepers[SLEEPERS], others[3];
	int i, ret, fd, refused = 0;
	struct busy *b;

	snprintf(fifo, sizeof(fifo), "%s", omx_ws_path(&self->ws, "exec/fifo"));
	ASSERT_EQ(0, mkfifo(fifo, 0644));
	b = mmap(NULL, sizeof(*b), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, b);

	snprintf(line, sizeof(line), "func=%s mode=ipmodify", variant->func);
	ret = mod_load(mod_hog_path(), line);
	ASSERT_EQ(0, ret) {
		klog_collect(&self->log);
		TH_LOG("loading omx_hog %s: %s; kernel log:\n%s", line,
		       strerror(-ret), self->log.buf ?: "");
	}

	for (i = 0; i < SLEEPERS; i++) {
		sleepers[i] = fork_child(self);
		if (!sleepers[i]) {
			sleeper(b, fifo);
			_exit(0);
		}
	}
	others[0] = start(self, b, bits_setter);
	others[1] = start(self, b, unsharer);
	others[2] = start(self, b, checker);

	for (i = 0; i < attempts(); i++) {
		ret = mod_load(self->ko, variant->params);
		EXPECT_EQ(-EBUSY, ret) {
			TH_LOG("load %d with %s taken: %s", i, variant->func,
			       ret ? strerror(-ret) : "loaded");
		}
		if (!ret)
			break;
		refused++;
	}

	/*
	 * Wake whoever sleeps in the FIFO's open (a writer that does not
	 * wait), then stop everyone; the sleepers may need a few rounds.
	 */
	b->stop = 1;
	for (i = 0; i < 50; i++) {
		fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0)
			close(fd);
		usleep(20 * 1000);
	}
	for (i = 0; i < SLEEPERS; i++)
		EXPECT_EQ(0, wait_exit(sleepers[i], 20000));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(0, wait_exit(others[i], 20000));

	EXPECT_TRUE(klog_has(&self->log, "omayexec", variant->func)) {
		TH_LOG("no log line naming %s:\n%s", variant->func,
		       self->log.buf ?: "");
	}
	TH_LOG("%s taken: %d loads refused; %ld O_MAYEXEC FIFO opens, %ld exec bits set, %ld checks answered",
	       variant->func, refused, b->entered, b->bits_taken,
	       b->checks_answered);
	EXPECT_EQ(0, b->bad) {
		TH_LOG("%ld unexpected answers, the last: %s", b->bad,
		       b->bad_what);
	}
	/* Nothing of the module was visible: the stock kernel answered. */
	EXPECT_EQ(0, b->entered);
	EXPECT_EQ(0, b->bits_taken);
	EXPECT_EQ(0, b->bits_kept);
	EXPECT_EQ(0, b->checks_answered);
	expect_absent(_metadata, self, variant->func);

	/* Once the function is free, the next load succeeds. */
	EXPECT_EQ(0, mod_unload(MOD_HOG));
	EXPECT_EQ(0, lc_ftrace_users(variant->func, line, sizeof(line)));
	LOAD_OK(variant->params);
	expect_loaded(_metadata, self, 0);
	munmap(b, sizeof(*b));
}

TEST_HARNESS_MAIN
