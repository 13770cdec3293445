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
 * lifecycle_locked_test covers that, started last with the module loaded
 * that way.  Loading and unloading while other tasks open files is in
 * lifecycle_race_test (it needs a VM without multi-threaded TCG).
 *
 * Every test also fails if the kernel logged a BUG, WARNING, Oops, call
 * trace, lockup or hung task while it ran (see lib/lifecycle.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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
#include "lifecycle.h"

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

/*
 * ---- Loading with parameters ---------------------------------------------
 *
 * What each value of each parameter does is the same C on every kernel:
 * lifecycle_params_test, on the generic kernels alone.  Here, once, that
 * the module loads on this kernel with its defaults.
 */

TEST_F_TIMEOUT(lifecycle, load_default, 60)
{
	struct stat st;

	LOAD_OK("");
	expect_loaded(_metadata, self, 0);
	expect_param(_metadata, "locked", "N");
	/* The policy is for root's eyes only, there as in the sysctl. */
	ASSERT_EQ(0, stat("/sys/module/omayexec/parameters/enforce", &st));
	EXPECT_EQ(0400U, st.st_mode & 07777);
	ASSERT_EQ(0, stat(OMAYEXEC_SYSCTL_PATH, &st));
	EXPECT_EQ(0600U, st.st_mode & 07777);
	EXPECT_EQ(0, omx_probe_openat2(self->ws.dirfd, "exec/nx",
				       O_RDONLY | O_MAYEXEC, 0));

	EXPECT_EQ(0, mod_unload(MOD_OMAYEXEC));
	expect_absent(_metadata, self, NULL);
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
	/* A kernel without direct calls (6.1 arm64) has no such user. */
	if (ret == -ENODEV && !strcmp(mode, "direct"))
		SKIP(return, "no ftrace direct calls on this kernel");
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
	if (_metadata->skip)
		return;
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
			/* No direct calls (6.1 arm64): none to keep off. */
			if (ret == -ENODEV && !strcmp(modes[m], "direct"))
				continue;
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

/*
 * With ftrace off the hooks cannot run, so the load must fail, leave
 * nothing behind and leave ftrace off.  On 6.1 ftrace refuses the module's
 * PERMANENT direct calls with EBUSY; on 6.12 direct calls are no longer
 * PERMANENT and would be registered without patching anything (a module
 * that "loads" and enforces nothing), so the module must refuse by itself.
 */
TEST_F_TIMEOUT(lifecycle, load_while_ftrace_disabled, 60)
{
	char buf[16];
	int ret;

	ASSERT_EQ(0, lc_write_file(FTRACE_ENABLED, "0"));
	ret = mod_load(self->ko, "enforce=3");
	TH_LOG("loading with kernel.ftrace_enabled=0: %s",
	       ret ? strerror(-ret) : "loaded");
	EXPECT_NE(0, ret);
	if (!ret)
		EXPECT_EQ(0, mod_unload(MOD_OMAYEXEC));
	expect_absent(_metadata, self, NULL);
	ASSERT_EQ(0, lc_read_file(FTRACE_ENABLED, buf, sizeof(buf)));
	EXPECT_STREQ("0", buf);

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

TEST_HARNESS_MAIN
