/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fixture and the checks shared by lifecycle_test and lifecycle_race_test
 * (kselftest harness code: include it from a test file, after
 * kselftest_harness.h, in one file per binary).
 *
 * The fixture: a tmpfs workspace (lc_ws_populate()), the kernel log since
 * the test began, and neither omayexec nor omx_hog loaded at the start; the
 * teardown kills the test's children, unloads both modules, puts
 * kernel.ftrace_enabled back, and fails the test if the kernel logged a
 * BUG, WARNING, Oops, call trace, lockup or hung task meanwhile.
 */
#ifndef OMX_TESTS_LIFECYCLE_H
#define OMX_TESTS_LIFECYCLE_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "omx.h"
#include "omx_rand.h"
#include "module.h"

#define FTRACE_ENABLED	"/proc/sys/kernel/ftrace_enabled"

/* The functions omayexec hooks with its default parameters. */
static const char *const hooked[] = {
	"may_open", "do_sys_openat2", OMX_SYS(execveat),
	OMX_COMPAT_SYS(execveat), "cap_task_prctl", "create_user_ns",
};

/*
 * Fails the test if @log shows a BUG, WARNING, Oops, call trace, lockup or
 * hung task, and prints it: for a teardown.  Not EXPECT_EQ(): after a
 * failed ASSERT the harness still has its handler trigger set, and would
 * print the log even on success.
 */
static inline void lc_fail_on_kernel_trouble(struct __test_metadata *_metadata,
					     struct klog *log)
{
	const char *trouble = klog_trouble(log);

	if (trouble) {
		TH_LOG("the kernel reported a problem: %s", trouble);
		TH_LOG("kernel log during the test:\n%s", log->buf);
		_metadata->passed = 0;
	}
}

FIXTURE(lifecycle) {
	struct omx_ws ws;
	struct klog log;
	const char *ko;
	/* Children to kill in the teardown, should the test stop early. */
	pid_t children[16];
	int nchildren;
};

static inline pid_t fork_child(FIXTURE_DATA(lifecycle) *self)
{
	pid_t pid = fork();

	if (pid > 0 && self->nchildren < 16)
		self->children[self->nchildren++] = pid;
	return pid;
}

/*
 * How many loads a case makes: @fallback, the case's own number, unless
 * the environment's OMX_LIFECYCLE_CYCLES says (1 to 1000).  tests/suites
 * gives the boots that run a slice of the load and unload races (the arm64
 * kernels) a smaller one.
 */
static inline int lc_cycles(int fallback)
{
	uint64_t n = omx_env_number("OMX_LIFECYCLE_CYCLES", fallback);

	return n < 1 ? 1 : n > 1000 ? 1000 : (int)n;
}

static inline long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* waitpid() with a timeout: the exit status, 128 + signal, or -ETIMEDOUT. */
static inline int wait_exit(pid_t pid, int timeout_ms)
{
	long end = now_ms() + timeout_ms;
	int status;
	pid_t ret;

	for (;;) {
		ret = waitpid(pid, &status, WNOHANG);
		if (ret == pid)
			break;
		if (ret < 0)
			return -errno;
		if (now_ms() > end)
			return -ETIMEDOUT;
		usleep(20 * 1000);
	}
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

FIXTURE_SETUP(lifecycle)
{
	self->log.fd = -1;
	self->ws.dirfd = -1;
	self->ko = mod_omayexec_path();
	ASSERT_EQ(0, klog_open(&self->log));
	ASSERT_EQ(0, access(self->ko, R_OK)) {
		TH_LOG("no module file %s: %s", self->ko, strerror(errno));
	}
	ASSERT_EQ(0, omx_ws_create(&self->ws));
	ASSERT_EQ(0, lc_ws_populate(&self->ws));

	/* What the VM or an earlier (maybe killed) test left. */
	ASSERT_EQ(0, lc_write_file(FTRACE_ENABLED, "1"));
	ASSERT_EQ(0, mod_unload_retry(MOD_HOG, 10000));
	ASSERT_EQ(0, mod_unload_retry(MOD_OMAYEXEC, 10000)) {
		TH_LOG("cannot unload omayexec before the test");
	}
	klog_collect(&self->log);
}

FIXTURE_TEARDOWN(lifecycle)
{
	int i;

	/* A sleeping open left behind would hold the module (O_MAYEXEC). */
	for (i = 0; i < self->nchildren; i++) {
		if (kill(self->children[i], SIGKILL) == 0)
			waitpid(self->children[i], NULL, 0);
	}
	lc_write_file(FTRACE_ENABLED, "1");
	EXPECT_EQ(0, mod_unload_retry(MOD_HOG, 10000));
	EXPECT_EQ(0, mod_unload_retry(MOD_OMAYEXEC, 10000));
	lc_fail_on_kernel_trouble(_metadata, &self->log);
	klog_close(&self->log);
	omx_ws_destroy(&self->ws);
}

/* ---- Checks shared by the tests ------------------------------------------ */

#define POLICY_SEEN(expected) do { \
	char _why[256]; \
	int _seen = lc_policy_seen(self->ws.dirfd, _why, sizeof(_why)); \
	EXPECT_EQ((expected), _seen) { \
		TH_LOG("%s", _why); \
	} \
} while (0)

/* Loads omayexec with PARAMS and expects success. */
#define LOAD_OK(params) do { \
	int _ret = mod_load(self->ko, (params)); \
	ASSERT_EQ(0, _ret) { \
		klog_collect(&self->log); \
		TH_LOG("loading with \"%s\": %s; kernel log:\n%s", (params), \
		       strerror(-_ret), self->log.buf ?: ""); \
	} \
} while (0)

static inline void expect_param(struct __test_metadata *_metadata, const char *param,
			 const char *expected)
{
	char buf[64];

	ASSERT_EQ(0, mod_param(MOD_OMAYEXEC, param, buf, sizeof(buf)));
	EXPECT_STREQ(expected, buf);
}

/*
 * Nothing of omayexec is left: no module, no sysctl, openat2(O_MAYEXEC)
 * refused with EINVAL as by the stock kernel, plain opens fine, and neither
 * hooked function has an ftrace user (except HOGGED, taken by omx_hog).
 */
static inline void expect_absent(struct __test_metadata *_metadata,
			  FIXTURE_DATA(lifecycle) *self, const char *hogged)
{
	char line[512];
	size_t i;
	int ret;

	EXPECT_FALSE(mod_is_loaded(MOD_OMAYEXEC));
	EXPECT_EQ(-1, access(OMAYEXEC_SYSCTL_PATH, F_OK));
	EXPECT_EQ(ENOENT, errno);
	POLICY_SEEN(-EINVAL);
	EXPECT_EQ(0, omx_probe_openat2(self->ws.dirfd, "exec/nx",
				       O_RDONLY | O_CLOEXEC, 0));
	for (i = 0; i < sizeof(hooked) / sizeof(hooked[0]); i++) {
		if (hogged && !strcmp(hogged, hooked[i]))
			continue;
		ret = lc_ftrace_users(hooked[i], line, sizeof(line));
		EXPECT_EQ(0, ret) {
			TH_LOG("%s still has an ftrace user: %s", hooked[i],
			       ret > 0 ? line : strerror(-ret));
		}
	}
}

/* Loaded and working: the sysctl and the parameter show POLICY, opens too. */
static inline void expect_loaded(struct __test_metadata *_metadata,
			  FIXTURE_DATA(lifecycle) *self, int policy)
{
	char expected[16];

	snprintf(expected, sizeof(expected), "%d", policy);
	EXPECT_TRUE(mod_is_loaded(MOD_OMAYEXEC));
	EXPECT_EQ(policy, omx_policy_read());
	expect_param(_metadata, "enforce", expected);
	POLICY_SEEN(policy);
}

/* Loading with PARAMS fails with EINVAL, logs a line with NEEDLE, leaves nothing. */
static inline void expect_load_einval(struct __test_metadata *_metadata,
			       FIXTURE_DATA(lifecycle) *self,
			       const char *params, const char *needle)
{
	int ret = mod_load(self->ko, params);

	EXPECT_EQ(-EINVAL, ret) {
		TH_LOG("loading with \"%s\": %s", params,
		       ret ? strerror(-ret) : "loaded");
	}
	if (!ret)
		mod_unload_retry(MOD_OMAYEXEC, 5000);
	EXPECT_TRUE(klog_has(&self->log, "omayexec", needle)) {
		TH_LOG("no kernel log line with \"omayexec\" and \"%s\" after loading with \"%s\"; log:\n%s",
		       needle, params, self->log.buf ?: "");
	}
	expect_absent(_metadata, self, NULL);
	/* The next value's log lines only. */
	klog_close(&self->log);
	ASSERT_EQ(0, klog_open(&self->log));
}

#endif /* OMX_TESTS_LIFECYCLE_H */
