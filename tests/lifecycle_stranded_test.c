// SPDX-License-Identifier: GPL-2.0
/*
 * An unload that cannot remove a hook never frees the module's code.
 *
 * A module's exit cannot refuse: once it returns, the kernel frees the
 * module's memory.  If ftrace would not remove one of omayexec's hooks,
 * every call of the hooked function would still jump to a trampoline in
 * that memory, a use after free on the next open.  Here the test-only
 * module omx_hog.ko (mode=kill) calls ftrace_kill(), as an ftrace bug does,
 * so that every unregistration fails with -ENODEV;
 * then omayexec is unloaded.  The unload must never return (it waits for
 * good, and says so), the module must stay in memory, going away, and the
 * machine must go on as the stock kernel: plain opens and execs work,
 * openat2(O_MAYEXEC) is EINVAL again, and nothing is logged as a BUG or
 * WARNING.
 *
 * ftrace stays off and omayexec stays half-unloaded until the guest powers
 * off: tests/suites runs this suite last in its boots.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "omx.h"
#include "module.h"
#include "kselftest_harness.h"
#include "lifecycle.h"

#define INITSTATE	"/sys/module/omayexec/initstate"

/*
 * Not lib/lifecycle.h's teardown, which unloads omayexec: here nothing can
 * unload it any more.  The same setup, its fixture's data.
 */
FIXTURE(stranded) {
	struct omx_ws ws;
	struct klog log;
	const char *ko;
};

FIXTURE_SETUP(stranded)
{
	self->log.fd = -1;
	self->ws.dirfd = -1;
	self->ko = mod_omayexec_path();
	ASSERT_EQ(0, klog_open(&self->log));
	ASSERT_EQ(0, omx_ws_create(&self->ws));
	ASSERT_EQ(0, lc_ws_populate(&self->ws));
	ASSERT_EQ(0, omx_ws_copy_self(&self->ws, "exec/prog", 0755));
	ASSERT_EQ(0, mod_unload_retry(MOD_HOG, 10000));
	ASSERT_EQ(0, mod_unload_retry(MOD_OMAYEXEC, 10000));
}

FIXTURE_TEARDOWN(stranded)
{
	lc_fail_on_kernel_trouble(_metadata, &self->log);
	klog_close(&self->log);
	omx_ws_destroy(&self->ws);
}

TEST_F_TIMEOUT(stranded, unhook_refused_module_never_freed, 120)
{
	char why[256], state[32] = "";
	int ret, i, stays = 0;
	pid_t unloader;

	ret = mod_load(self->ko, "enforce=3");
	ASSERT_EQ(0, ret) {
		TH_LOG("loading omayexec: %s", strerror(-ret));
	}
	ASSERT_EQ(3, lc_policy_seen(self->ws.dirfd, why, sizeof(why))) {
		TH_LOG("%s", why);
	}
	ret = mod_load(mod_hog_path(), "mode=kill");
	ASSERT_EQ(0, ret) {
		klog_collect(&self->log);
		TH_LOG("loading omx_hog mode=kill: %s; kernel log:\n%s",
		       strerror(-ret), self->log.buf ?: "");
	}

	/* Off the console: the unloader may never close it. */
	unloader = fork();
	ASSERT_LE(0, unloader);
	if (!unloader) {
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);

		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		_exit(mod_unload(MOD_OMAYEXEC) ? 1 : 0);
	}

	/* The module says why it stays. */
	for (i = 0; i < 200 && !klog_has(&self->log, "omayexec", "waits for good"); i++)
		usleep(100 * 1000);
	EXPECT_TRUE(klog_has(&self->log, "omayexec", "cannot unhook may_open")) {
		TH_LOG("kernel log:\n%s", self->log.buf ?: "");
	}
	EXPECT_TRUE(klog_has(&self->log, "omayexec", "waits for good"));

	/* The unload does not return, the module stays, going away. */
	ret = wait_exit(unloader, 3000);
	EXPECT_EQ(-ETIMEDOUT, ret) {
		TH_LOG("the unload returned (%d): its code was freed under its hooks",
		       ret);
	}
	if (lc_read_file(INITSTATE, state, sizeof(state)) == 0)
		stays = !strncmp(state, "going", 5);
	EXPECT_TRUE(stays) {
		TH_LOG("%s: '%s'", INITSTATE, state);
	}

	/* Meanwhile, the stock kernel's answers, through the hooks left. */
	EXPECT_EQ(0, omx_probe_openat2(self->ws.dirfd, "exec/nx",
				       O_RDONLY | O_CLOEXEC, 0));
	EXPECT_EQ(-EINVAL, lc_policy_seen(self->ws.dirfd, why, sizeof(why))) {
		TH_LOG("%s", why);
	}
	EXPECT_EQ(OMX_EXEC_PROBE_STATUS,
		  omx_run_exec_probe(omx_ws_path(&self->ws, "exec/prog")));
	EXPECT_EQ(-EACCES,
		  omx_run_exec_probe(omx_ws_path(&self->ws, "noexec/x")));
	klog_collect(&self->log);
}

TEST_HARNESS_MAIN
