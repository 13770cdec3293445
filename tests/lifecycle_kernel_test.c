// SPDX-License-Identifier: GPL-2.0
/*
 * omayexec refuses to load on a kernel built otherwise than the ones it
 * knows, where it would load and enforce nothing, rather than say "policy
 * 3" and let everything through.
 *
 * The test-only module omx_hog.ko (tests/kmod) stands in for such a
 * kernel: it makes kallsyms_lookup_name() answer otherwise for one name,
 * before omayexec looks it up.
 *
 *  - landlock_initialized hidden: a kernel whose kallsyms lists functions
 *    alone (no CONFIG_KALLSYMS_ALL).  Where the module asks Landlock for
 *    the EXECUTE right itself (6.12: the open carries no __FMODE_EXEC), it
 *    cannot tell whether a Landlock sandbox is active, and must not take
 *    it for absent.  Where the open carries __FMODE_EXEC (6.1), Landlock
 *    reads the right by itself and the module never asks: it loads.
 *  - hook_file_open hidden: Landlock's hook itself, the same way.
 *  - may_open elsewhere: may_open() out of line, but not the one the open
 *    path calls (as if do_open() had been given an inlined copy): the hook
 *    would never be reached.  Every kernel must refuse it.
 *
 * Each load that must fail fails with the variant's error and a log line
 * naming what is missing, and leaves nothing behind; once omx_hog is gone
 * the same load succeeds.  lib/lifecycle.h's fixture: no module at the
 * start and the end, a clean kernel log.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "omx.h"
#include "module.h"
#include "kselftest_harness.h"
#include "lifecycle.h"

FIXTURE_VARIANT(lifecycle) {
	const char *mode;	/* omx_hog's: hide or elsewhere */
	const char *symbol;	/* the name it answers otherwise for */
	/* Only where the module asks Landlock itself (no __FMODE_EXEC). */
	bool landlock_only;
	int err;		/* the refused load's error */
	const char *needle;	/* in the refusal's log line */
};

FIXTURE_VARIANT_ADD(lifecycle, landlock_initialized_hidden) {
	.mode = "hide", .symbol = "landlock_initialized", .landlock_only = true,
	.err = -ENOENT, .needle = "landlock_initialized",
};

FIXTURE_VARIANT_ADD(lifecycle, hook_file_open_hidden) {
	.mode = "hide", .symbol = "hook_file_open", .landlock_only = true,
	.err = -ENOENT, .needle = "hook_file_open",
};

FIXTURE_VARIANT_ADD(lifecycle, may_open_elsewhere) {
	.mode = "elsewhere", .symbol = "may_open",
	.err = -ENOEXEC, .needle = "not on the open path",
};

TEST_F_TIMEOUT(lifecycle, refused_where_it_would_enforce_nothing, 120)
{
	bool needed = !variant->landlock_only || !omx_kernel_marks_fmode_exec();
	char line[128];
	int ret;

	snprintf(line, sizeof(line), "func=%s mode=%s", variant->symbol,
		 variant->mode);
	ret = mod_load(mod_hog_path(), line);
	ASSERT_EQ(0, ret) {
		klog_collect(&self->log);
		TH_LOG("loading omx_hog %s: %s; kernel log:\n%s", line,
		       strerror(-ret), self->log.buf ?: "");
	}

	ret = mod_load(self->ko, "enforce=3");
	if (!needed) {
		/* 6.1: Landlock reads __FMODE_EXEC; the module needs neither. */
		EXPECT_EQ(0, ret) {
			TH_LOG("loading with %s %s: %s", variant->symbol,
			       variant->mode, strerror(-ret));
		}
		expect_loaded(_metadata, self, 3);
		return;
	}
	EXPECT_EQ(variant->err, ret) {
		TH_LOG("loading with %s %s: %s", variant->symbol, variant->mode,
		       ret ? strerror(-ret) : "loaded");
	}
	if (!ret)
		mod_unload_retry(MOD_OMAYEXEC, 10000);
	EXPECT_TRUE(klog_has(&self->log, "omayexec", variant->needle)) {
		TH_LOG("no log line naming \"%s\":\n%s", variant->needle,
		       self->log.buf ?: "");
	}
	expect_absent(_metadata, self, NULL);

	/* The kernel as built again: the same load succeeds. */
	EXPECT_EQ(0, mod_unload(MOD_HOG));
	LOAD_OK("enforce=3");
	expect_loaded(_metadata, self, 3);
}

TEST_HARNESS_MAIN
