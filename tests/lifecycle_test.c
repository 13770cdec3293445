// SPDX-License-Identifier: GPL-2.0
/*
 * Lifecycle of omayexec.ko: loading, parameters, hook conflicts, unloading.
 *
 * Every test loads and unloads the module itself with finit_module(2) and
 * delete_module(2) (the module file: $OMAYEXEC_KO, or
 * /lib/modules/<uname -r>/extra/omayexec.ko where the test VM puts it), so
 * the setup first unloads whatever is loaded, and the binary leaves the
 * module unloaded: run it after the tests that need the module.
 *
 * The hook-conflict tests use the test-only module omx_hog.ko
 * (tests/kmod: $OMX_HOG_KO, or ../kmod/omx_hog.ko next to this binary),
 * which takes a function with ftrace the way a livepatch does.
 *
 * Never loads omayexec with locked=1: a locked module cannot be removed.
 * lifecycle_locked_test covers that, in a boot of its own.
 *
 * Every test also fails if the kernel logged a BUG, WARNING, Oops, call
 * trace, lockup or hung task while it ran.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "omx.h"
#include "module.h"
#include "kselftest_harness.h"

#define FTRACE_ENABLED	"/proc/sys/kernel/ftrace_enabled"

/* The functions omayexec hooks. */
static const char *const hooked[] = { "may_open", "do_sys_openat2" };

FIXTURE(lifecycle) {
	struct omx_ws ws;
	struct klog log;
	const char *ko;
	/* Children to kill in the teardown, should the test stop early. */
	pid_t children[16];
	int nchildren;
};

static pid_t fork_child(FIXTURE_DATA(lifecycle) *self)
{
	pid_t pid = fork();

	if (pid > 0 && self->nchildren < 16)
		self->children[self->nchildren++] = pid;
	return pid;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* waitpid() with a timeout: the exit status, 128 + signal, or -ETIMEDOUT. */
static int wait_exit(pid_t pid, int timeout_ms)
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
	const char *trouble;
	int i;

	/* A sleeping open left behind would hold the module (O_MAYEXEC). */
	for (i = 0; i < self->nchildren; i++) {
		if (kill(self->children[i], SIGKILL) == 0)
			waitpid(self->children[i], NULL, 0);
	}
	lc_write_file(FTRACE_ENABLED, "1");
	EXPECT_EQ(0, mod_unload_retry(MOD_HOG, 10000));
	EXPECT_EQ(0, mod_unload_retry(MOD_OMAYEXEC, 10000));
	trouble = klog_trouble(&self->log);
	EXPECT_EQ(NULL, trouble) {
		TH_LOG("kernel log during the test:\n%s", self->log.buf);
	}
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

static void expect_param(struct __test_metadata *_metadata, const char *param,
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
static void expect_absent(struct __test_metadata *_metadata,
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
static void expect_loaded(struct __test_metadata *_metadata,
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
static void expect_load_einval(struct __test_metadata *_metadata,
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

/* ---- Without the module ------------------------------------------------- */

TEST_F(lifecycle, absent_is_stock)
{
	int fd;

	expect_absent(_metadata, self, NULL);
	EXPECT_FALSE(omx_module_loaded());
	/* open() and openat() drop unknown bits, with or without the module. */
	fd = open(omx_ws_path(&self->ws, "exec/nx"), O_RDONLY | O_MAYEXEC);
	EXPECT_LE(0, fd);
	close(fd);
	fd = openat(self->ws.dirfd, "noexec/x", O_RDONLY | O_MAYEXEC);
	EXPECT_LE(0, fd);
	close(fd);
	EXPECT_EQ(-EINVAL, omx_probe_openat2(self->ws.dirfd, "exec/x",
					     O_RDONLY | O_PATH | O_MAYEXEC, 0));
}

/* ---- Parameters ------------------------------------------------------------ */

TEST_F_TIMEOUT(lifecycle, load_default, 60)
{
	struct stat st;

	LOAD_OK("");
	expect_loaded(_metadata, self, 0);
	expect_param(_metadata, "locked", "N");
	ASSERT_EQ(0, stat("/sys/module/omayexec/parameters/enforce", &st));
	EXPECT_EQ(0444U, st.st_mode & 07777);
	ASSERT_EQ(0, stat(OMAYEXEC_SYSCTL_PATH, &st));
	EXPECT_EQ(0600U, st.st_mode & 07777);
	EXPECT_EQ(0, omx_probe_openat2(self->ws.dirfd, "exec/nx",
				       O_RDONLY | O_MAYEXEC, 0));

	EXPECT_EQ(0, mod_unload(MOD_OMAYEXEC));
	expect_absent(_metadata, self, NULL);
}

TEST_F_TIMEOUT(lifecycle, load_enforce_each, 120)
{
	char params[32];
	int policy;

	for (policy = 0; policy <= 3; policy++) {
		snprintf(params, sizeof(params), "enforce=%d", policy);
		LOAD_OK(params);
		expect_loaded(_metadata, self, policy);
		expect_param(_metadata, "locked", "N");
		EXPECT_EQ(0, mod_unload(MOD_OMAYEXEC));
		expect_absent(_metadata, self, NULL);
	}
	/* Nothing survives an unload: the default is back. */
	LOAD_OK("");
	expect_loaded(_metadata, self, 0);
}

TEST_F_TIMEOUT(lifecycle, load_unlocked_sysctl_writable, 90)
{
	static const char *const params[] = {
		"enforce=1 locked=0", "enforce=1 locked=n", "locked=N enforce=1",
	};
	size_t i;

	for (i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
		LOAD_OK(params[i]);
		expect_loaded(_metadata, self, 1);
		expect_param(_metadata, "locked", "N");
		/* The parameter shows the policy in force, not the initial one. */
		EXPECT_EQ(0, omx_policy_set(2));
		expect_loaded(_metadata, self, 2);
		EXPECT_EQ(0, omx_policy_set(0));
		expect_loaded(_metadata, self, 0);
		EXPECT_EQ(0, mod_unload(MOD_OMAYEXEC));
		expect_absent(_metadata, self, NULL);
	}
}

TEST_F_TIMEOUT(lifecycle, bad_enforce_values, 120)
{
	static const char *const params[] = {
		"enforce=4", "enforce=-1", "enforce=abc", "enforce=", "enforce",
		"enforce=1x", "enforce=4294967297", "enforce=8",
		"enforce=2 enforce=7",
	};
	size_t i;

	for (i = 0; i < sizeof(params) / sizeof(params[0]); i++)
		expect_load_einval(_metadata, self, params[i], "enforce");
	LOAD_OK("enforce=2");
	expect_loaded(_metadata, self, 2);
}

TEST_F_TIMEOUT(lifecycle, unknown_parameter, 90)
{
	expect_load_einval(_metadata, self, "foo=1", "unknown parameter 'foo'");
	expect_load_einval(_metadata, self, "enforce=1 foo=1",
			   "unknown parameter 'foo'");
	expect_load_einval(_metadata, self, "bar", "unknown parameter 'bar'");
	LOAD_OK("enforce=1");
	expect_loaded(_metadata, self, 1);
}

TEST_F_TIMEOUT(lifecycle, double_load_and_reload, 90)
{
	int i;

	LOAD_OK("enforce=3");
	EXPECT_EQ(-EEXIST, mod_load(self->ko, "enforce=1"));
	expect_loaded(_metadata, self, 3);
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(0, mod_unload(MOD_OMAYEXEC));
		expect_absent(_metadata, self, NULL);
		EXPECT_EQ(-ENOENT, mod_unload(MOD_OMAYEXEC));
		LOAD_OK(i == 1 ? "enforce=2" : "");
		expect_loaded(_metadata, self, i == 1 ? 2 : 0);
	}
}

/* ---- Hook conflicts ------------------------------------------------------ */

static void load_hog(struct __test_metadata *_metadata,
		     FIXTURE_DATA(lifecycle) *self, const char *func,
		     const char *mode)
{
	char params[128];
	int ret;

	snprintf(params, sizeof(params), "func=%s mode=%s", func, mode);
	ret = mod_load(mod_hog_path(), params);
	ASSERT_EQ(0, ret) {
		klog_collect(&self->log);
		TH_LOG("loading %s %s: %s; kernel log:\n%s", mod_hog_path(),
		       params, strerror(-ret), self->log.buf ?: "");
	}
}

/*
 * FUNC is taken (MODE: like a livepatch, or by a direct call): omayexec
 * must refuse to load with EBUSY, name FUNC in the log, and leave no hook;
 * once FUNC is free again, it loads.
 */
static void hook_conflict(struct __test_metadata *_metadata,
			  FIXTURE_DATA(lifecycle) *self, const char *func,
			  const char *mode)
{
	char line[512];
	int ret;

	load_hog(_metadata, self, func, mode);
	ASSERT_EQ(1, lc_ftrace_users(func, line, sizeof(line)));
	TH_LOG("%s taken: %s", func, line);

	ret = mod_load(self->ko, "enforce=3");
	EXPECT_EQ(-EBUSY, ret) {
		TH_LOG("loading omayexec while %s is taken (%s): %s", func,
		       mode, ret ? strerror(-ret) : "loaded");
	}
	if (!ret)
		mod_unload_retry(MOD_OMAYEXEC, 5000);
	EXPECT_TRUE(klog_has(&self->log, "omayexec", func)) {
		TH_LOG("no log line naming %s:\n%s", func, self->log.buf ?: "");
	}
	expect_absent(_metadata, self, func);
	/* The hog still owns FUNC, alone. */
	EXPECT_EQ(1, lc_ftrace_users(func, line, sizeof(line)));
	EXPECT_EQ(NULL, strstr(line, "omayexec"));

	EXPECT_EQ(0, mod_unload(MOD_HOG));
	EXPECT_EQ(0, lc_ftrace_users(func, line, sizeof(line)));
	LOAD_OK("enforce=3");
	expect_loaded(_metadata, self, 3);
	EXPECT_EQ(0, omx_policy_set(0));
	EXPECT_EQ(0, omx_probe_openat2(self->ws.dirfd, "exec/nx",
				       O_RDONLY | O_MAYEXEC, 0));
}

TEST_F_TIMEOUT(lifecycle, hook_taken_ipmodify_may_open, 60)
{
	hook_conflict(_metadata, self, "may_open", "ipmodify");
}

TEST_F_TIMEOUT(lifecycle, hook_taken_ipmodify_do_sys_openat2, 60)
{
	hook_conflict(_metadata, self, "do_sys_openat2", "ipmodify");
}

TEST_F_TIMEOUT(lifecycle, hook_taken_direct_may_open, 60)
{
	hook_conflict(_metadata, self, "may_open", "direct");
}

TEST_F_TIMEOUT(lifecycle, hook_taken_direct_do_sys_openat2, 60)
{
	hook_conflict(_metadata, self, "do_sys_openat2", "direct");
}

/* The other way round: with omayexec loaded, nobody else takes its functions. */
TEST_F_TIMEOUT(lifecycle, hooks_kept_while_loaded, 90)
{
	static const char *const modes[] = { "ipmodify", "direct" };
	char params[128];
	size_t f, m;
	int ret;

	LOAD_OK("enforce=0");
	for (f = 0; f < sizeof(hooked) / sizeof(hooked[0]); f++) {
		for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
			snprintf(params, sizeof(params), "func=%s mode=%s",
				 hooked[f], modes[m]);
			ret = mod_load(mod_hog_path(), params);
			EXPECT_EQ(-EBUSY, ret) {
				TH_LOG("omx_hog %s: %s", params,
				       ret ? strerror(-ret) : "loaded");
			}
			if (!ret)
				mod_unload_retry(MOD_HOG, 5000);
		}
	}
	EXPECT_EQ(0, omx_policy_set(3));
	expect_loaded(_metadata, self, 3);
}

/* ---- Unloading while opens sleep in the hooked functions ----------------- */

enum sleeper {
	SLEEP_OPENAT2_MAYEXEC,	/* openat2(O_RDONLY | O_MAYEXEC) */
	SLEEP_OPENAT2,		/* openat2(O_RDONLY) */
	SLEEP_OPEN,		/* open(O_RDONLY) */
};

static const char *const sleeper_name[] = {
	"openat2(O_MAYEXEC)", "openat2", "open",
};

/*
 * A child that opens FIFO for reading: without a writer it sleeps in
 * fifo_open(), below do_sys_openat2() and (for O_MAYEXEC) the module's
 * code.  It exits 0 once the open returned a FIFO descriptor.
 */
static pid_t start_sleeper(FIXTURE_DATA(lifecycle) *self, const char *fifo,
			   enum sleeper kind)
{
	struct stat st;
	pid_t pid;
	int fd;

	pid = fork_child(self);
	if (pid)
		return pid;
	switch (kind) {
	case SLEEP_OPENAT2_MAYEXEC:
		fd = omx_openat2(AT_FDCWD, fifo, O_RDONLY | O_MAYEXEC, 0);
		break;
	case SLEEP_OPENAT2:
		fd = omx_openat2(AT_FDCWD, fifo, O_RDONLY, 0);
		break;
	default:
		fd = open(fifo, O_RDONLY);
		if (fd < 0)
			fd = -errno;
		break;
	}
	if (fd < 0) {
		fprintf(stderr, "# sleeper %d (%s): open: %s\n", getpid(),
			sleeper_name[kind], strerror(-fd));
		_exit(1);
	}
	if (fstat(fd, &st) || !S_ISFIFO(st.st_mode)) {
		fprintf(stderr, "# sleeper %d: not a FIFO descriptor\n",
			getpid());
		_exit(2);
	}
	_exit(0);
}

/*
 * Waits until PID sleeps in fifo_open() (its wchan: wait_for_partner(),
 * called by fifo_open(), or fifo_open() itself): 0, or -ETIMEDOUT.
 */
static int wait_in_fifo_open(pid_t pid, char *wchan, size_t len)
{
	char path[64];
	long end = now_ms() + 20000;

	snprintf(path, sizeof(path), "/proc/%d/wchan", pid);
	do {
		if (!lc_read_file(path, wchan, len) &&
		    (!strcmp(wchan, "wait_for_partner") ||
		     !strcmp(wchan, "fifo_open")))
			return 0;
		usleep(20 * 1000);
	} while (now_ms() < end);
	return -ETIMEDOUT;
}

#define SLEEPERS 3

/*
 * Starts SLEEPERS opens of each kind in KINDS on a FIFO without a writer,
 * unloads omayexec meanwhile, then lets the opens complete.  The unload
 * must return at once, with success or EAGAIN (in use), or with success
 * only when MUST_UNLOAD; the opens must all complete normally; if
 * RELOAD, the module is loaded again before the writer comes.
 */
static void unload_with_sleepers(struct __test_metadata *_metadata,
				 FIXTURE_DATA(lifecycle) *self,
				 const enum sleeper *kinds, int nkinds,
				 bool must_unload, bool reload)
{
	const char *fifo = omx_ws_path(&self->ws, "exec/fifo");
	pid_t pids[SLEEPERS * 3], unloader;
	int n = 0, i, k, ret, status, writer;
	char wchan[64];

	ASSERT_LE(nkinds, 3);
	ASSERT_EQ(0, mkfifo(fifo, 0666));
	LOAD_OK("enforce=0");

	for (k = 0; k < nkinds; k++) {
		for (i = 0; i < SLEEPERS; i++) {
			pids[n] = start_sleeper(self, fifo, kinds[k]);
			ASSERT_LT(0, pids[n]);
			ret = wait_in_fifo_open(pids[n], wchan, sizeof(wchan));
			ASSERT_EQ(0, ret) {
				TH_LOG("%s of the FIFO not sleeping in fifo_open (wchan %s)",
				       sleeper_name[kinds[k]], wchan);
			}
			n++;
		}
	}
	TH_LOG("%d opens sleep in fifo_open", n);

	/* delete_module() in a child: it must not hang. */
	unloader = fork_child(self);
	ASSERT_LE(0, unloader);
	if (!unloader)
		_exit(-mod_unload(MOD_OMAYEXEC));
	status = wait_exit(unloader, 15000);
	EXPECT_NE(-ETIMEDOUT, status) {
		TH_LOG("delete_module() still blocked after 15 s while opens sleep");
	}
	if (must_unload) {
		EXPECT_EQ(0, status) {
			TH_LOG("delete_module(): %s", strerror(status));
		}
	} else {
		EXPECT_TRUE(status == 0 || status == EAGAIN) {
			TH_LOG("delete_module(): %s", strerror(status));
		}
	}
	TH_LOG("delete_module() while opens sleep: %s",
	       status == 0 ? "unloaded" :
	       status > 0 ? strerror(status) : "hung");
	if (status == 0) {
		expect_absent(_metadata, self, NULL);
		if (reload) {
			LOAD_OK("enforce=0");
			expect_loaded(_metadata, self, 0);
		}
	} else if (status > 0) {
		/* Refused: still fully there. */
		expect_loaded(_metadata, self, 0);
	}

	/* The writer arrives: every sleeping open completes normally. */
	writer = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	EXPECT_LE(0, writer) {
		TH_LOG("opening the FIFO for writing: %m");
	}
	for (i = 0; i < n; i++) {
		ret = wait_exit(pids[i], 20000);
		EXPECT_EQ(0, ret) {
			TH_LOG("sleeping open %d: %s", i,
			       ret == -ETIMEDOUT ? "still blocked after 20 s" :
			       "failed");
		}
	}
	if (writer >= 0)
		close(writer);
	if (status == -ETIMEDOUT) {
		status = wait_exit(unloader, 15000);
		TH_LOG("delete_module() after the writer came: %s",
		       status == 0 ? "unloaded" :
		       status > 0 ? strerror(status) : "still blocked");
	}

	/* Nothing sleeps any more: the module (still there or back) goes. */
	if (mod_is_loaded(MOD_OMAYEXEC)) {
		if (!reload || status != 0)
			expect_loaded(_metadata, self, 0);
		EXPECT_EQ(0, mod_unload(MOD_OMAYEXEC));
	}
	expect_absent(_metadata, self, NULL);
}

TEST_F_TIMEOUT(lifecycle, unload_sleeping_mayexec_open, 150)
{
	static const enum sleeper kinds[] = { SLEEP_OPENAT2_MAYEXEC };

	unload_with_sleepers(_metadata, self, kinds, 1, false, false);
}

TEST_F_TIMEOUT(lifecycle, unload_sleeping_plain_open, 150)
{
	static const enum sleeper kinds[] = { SLEEP_OPEN };

	unload_with_sleepers(_metadata, self, kinds, 1, true, false);
}

TEST_F_TIMEOUT(lifecycle, unload_sleeping_plain_openat2, 150)
{
	static const enum sleeper kinds[] = { SLEEP_OPENAT2 };

	unload_with_sleepers(_metadata, self, kinds, 1, true, false);
}

TEST_F_TIMEOUT(lifecycle, unload_sleeping_mixed_opens, 150)
{
	static const enum sleeper kinds[] = {
		SLEEP_OPEN, SLEEP_OPENAT2_MAYEXEC, SLEEP_OPENAT2,
	};

	unload_with_sleepers(_metadata, self, kinds, 3, false, false);
}

TEST_F_TIMEOUT(lifecycle, reload_with_sleeping_plain_opens, 150)
{
	static const enum sleeper kinds[] = { SLEEP_OPEN, SLEEP_OPENAT2 };

	unload_with_sleepers(_metadata, self, kinds, 2, true, true);
}

/* ---- Loading and unloading while opens run --------------------------------- */

struct race_counts {
	volatile int stop;
	long einval, eacces, allowed;	/* O_MAYEXEC opens of exec/nx */
	long bad;			/* any result not allowed */
	char bad_what[256];
};

static void race_worker(FIXTURE_DATA(lifecycle) *self, struct race_counts *c)
{
	const __u64 mx = O_RDONLY | O_CLOEXEC | O_MAYEXEC;
	const char *nx = omx_ws_path(&self->ws, "exec/nx");
	long einval = 0, eacces = 0, allowed = 0;
	int ret;

#define RACE_BAD(fmt, ...) do { \
	__atomic_add_fetch(&c->bad, 1, __ATOMIC_SEQ_CST); \
	snprintf(c->bad_what, sizeof(c->bad_what), fmt, ##__VA_ARGS__); \
} while (0)

	while (!c->stop) {
		/*
		 * Loaded with enforce=2, or not there: refused (EACCES) or
		 * unknown flag (EINVAL), never let through.
		 */
		ret = omx_probe_openat2(self->ws.dirfd, "exec/nx", mx, 0);
		if (ret == -EINVAL)
			einval++;
		else if (ret == -EACCES)
			eacces++;
		else if (ret == 0)
			allowed++;
		else
			RACE_BAD("O_MAYEXEC exec/nx: %s", strerror(-ret));
		ret = omx_probe_openat2(self->ws.dirfd, "exec/x", mx, 0);
		if (ret && ret != -EINVAL)
			RACE_BAD("O_MAYEXEC exec/x: %s", strerror(-ret));
		/* Plain opens never notice. */
		ret = omx_probe_open(nx, O_RDONLY | O_CLOEXEC);
		if (ret)
			RACE_BAD("open exec/nx: %s", strerror(-ret));
		ret = omx_probe_openat2(self->ws.dirfd, "noexec/x",
					O_RDONLY | O_CLOEXEC, 0);
		if (ret)
			RACE_BAD("openat2 noexec/x: %s", strerror(-ret));
		ret = omx_probe_openat2(self->ws.dirfd, "missing",
					O_RDONLY | O_CLOEXEC | O_MAYEXEC, 0);
		if (ret != -ENOENT && ret != -EINVAL)
			RACE_BAD("O_MAYEXEC missing: %s", strerror(-ret));
	}
	__atomic_add_fetch(&c->einval, einval, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&c->eacces, eacces, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&c->allowed, allowed, __ATOMIC_SEQ_CST);
#undef RACE_BAD
}

TEST_F_TIMEOUT(lifecycle, load_unload_while_opening, 180)
{
	struct race_counts *c;
	pid_t workers[2];
	int i, ret, refused = 0;

	c = mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, c);
	memset(c, 0, sizeof(*c));
	for (i = 0; i < 2; i++) {
		workers[i] = fork_child(self);
		ASSERT_LE(0, workers[i]);
		if (!workers[i]) {
			race_worker(self, c);
			_exit(0);
		}
	}
	for (i = 0; i < 8; i++) {
		LOAD_OK("enforce=2");
		usleep(50 * 1000);
		/*
		 * An O_MAYEXEC open in flight may hold the module: rmmod is
		 * then refused (EAGAIN), as it may be; it must succeed soon.
		 */
		while ((ret = mod_unload(MOD_OMAYEXEC)) == -EAGAIN &&
		       refused < 2000) {
			refused++;
			usleep(5 * 1000);
		}
		EXPECT_EQ(0, ret) {
			TH_LOG("unload %d: %s", i, strerror(-ret));
		}
		if (ret)
			break;
		usleep(50 * 1000);
	}
	TH_LOG("8 loads and unloads; %d unloads refused as in use", refused);
	c->stop = 1;
	for (i = 0; i < 2; i++)
		EXPECT_EQ(0, wait_exit(workers[i], 20000));
	TH_LOG("O_MAYEXEC opens of a non-executable file: %ld EINVAL, %ld EACCES, %ld allowed",
	       c->einval, c->eacces, c->allowed);
	EXPECT_EQ(0, c->allowed);
	EXPECT_EQ(0, c->bad) {
		TH_LOG("unexpected: %s", c->bad_what);
	}
	expect_absent(_metadata, self, NULL);
	munmap(c, sizeof(*c));
}

/* ---- kernel.ftrace_enabled ----------------------------------------------- */

TEST_F_TIMEOUT(lifecycle, ftrace_disable_refused_while_loaded, 60)
{
	char buf[16];

	LOAD_OK("enforce=3");
	EXPECT_EQ(-EBUSY, lc_write_file(FTRACE_ENABLED, "0"));
	ASSERT_EQ(0, lc_read_file(FTRACE_ENABLED, buf, sizeof(buf)));
	EXPECT_STREQ("1", buf);
	expect_loaded(_metadata, self, 3);
	EXPECT_EQ(0, omx_policy_set(1));
	expect_loaded(_metadata, self, 1);
	EXPECT_EQ(0, mod_unload(MOD_OMAYEXEC));
	/* Nothing holds ftrace any more. */
	EXPECT_EQ(0, lc_write_file(FTRACE_ENABLED, "0"));
	EXPECT_EQ(0, lc_write_file(FTRACE_ENABLED, "1"));
}

/* With ftrace off, loading either fails cleanly or enforces for real. */
TEST_F_TIMEOUT(lifecycle, load_while_ftrace_disabled, 60)
{
	int ret;

	ASSERT_EQ(0, lc_write_file(FTRACE_ENABLED, "0"));
	ret = mod_load(self->ko, "enforce=3");
	TH_LOG("loading with kernel.ftrace_enabled=0: %s",
	       ret ? strerror(-ret) : "loaded");
	if (ret) {
		expect_absent(_metadata, self, NULL);
	} else {
		expect_loaded(_metadata, self, 3);
		EXPECT_EQ(0, mod_unload(MOD_OMAYEXEC));
	}
	ASSERT_EQ(0, lc_write_file(FTRACE_ENABLED, "1"));
	LOAD_OK("enforce=3");
	expect_loaded(_metadata, self, 3);
}

/* ---- modprobe --------------------------------------------------------------- */

static bool in_modules_dep(void)
{
	char path[PATH_MAX], line[1024];
	struct utsname u;
	bool found = false;
	FILE *f;

	uname(&u);
	snprintf(path, sizeof(path), "/lib/modules/%s/modules.dep", u.release);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, "/omayexec.ko:") || !strncmp(line, "omayexec.ko:", 12);
	fclose(f);
	return found;
}

TEST_F_TIMEOUT(lifecycle, modprobe, 90)
{
	const char *prog = lc_find_prog("modprobe");
	char modprobe[PATH_MAX];
	int ret;

	if (!prog)
		SKIP(return, "no modprobe in this system");
	snprintf(modprobe, sizeof(modprobe), "%s", prog);
	if (!in_modules_dep()) {
		char *depmod_argv[] = { "depmod", "-a", NULL };

		/* What installing a module does (make install, DKMS). */
		TH_LOG("omayexec.ko not in modules.dep: running depmod -a");
		ASSERT_EQ(0, lc_run(depmod_argv));
		ASSERT_TRUE(in_modules_dep());
	}

	{
		char *argv[] = { modprobe, "omayexec", "enforce=2", NULL };

		ret = lc_run(argv);
		ASSERT_EQ(0, ret) {
			klog_collect(&self->log);
			TH_LOG("modprobe omayexec enforce=2: exit %d; log:\n%s",
			       ret, self->log.buf ?: "");
		}
	}
	expect_loaded(_metadata, self, 2);
	{
		char *argv[] = { modprobe, "-r", "omayexec", NULL };

		EXPECT_EQ(0, lc_run(argv));
	}
	expect_absent(_metadata, self, NULL);
	{
		char *argv[] = { modprobe, "omayexec", "enforce=5", NULL };

		EXPECT_NE(0, lc_run(argv));
	}
	EXPECT_TRUE(klog_has(&self->log, "omayexec", "enforce"));
	expect_absent(_metadata, self, NULL);
	{
		char *argv[] = { modprobe, "omayexec", NULL };

		EXPECT_EQ(0, lc_run(argv));
	}
	expect_loaded(_metadata, self, 0);
}

/*
 * Last, as a wrong answer here would leave a locked module behind and fail
 * every later test: bad values of locked.
 */
TEST_F_TIMEOUT(lifecycle, bad_locked_values, 90)
{
	static const char *const params[] = {
		"locked=maybe", "locked=2", "locked=", "enforce=1 locked=maybe",
	};
	size_t i;

	for (i = 0; i < sizeof(params) / sizeof(params[0]); i++)
		expect_load_einval(_metadata, self, params[i], "locked");
	LOAD_OK("locked=0");
	expect_loaded(_metadata, self, 0);
	expect_param(_metadata, "locked", "N");
}

TEST_HARNESS_MAIN
