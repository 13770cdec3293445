// SPDX-License-Identifier: GPL-2.0
/*
 * The decision counters, /sys/module/omayexec/stats/ (module/stats.c):
 * - four read-only files: allowed, refused_not_regular,
 *   refused_noexec_mount, refused_no_exec_permission;
 * - every openat2(O_MAYEXEC) open that reaches the policy adds exactly one
 *   to the counter of its verdict, under each policy;
 * - nothing else counts: plain opens, open(2)/openat(2) with the bit
 *   (without rfc_v1), execve(2), and O_MAYEXEC opens that fail before the
 *   policy is asked (ENOENT, ELOOP, EISDIR, EINVAL, read permission);
 * - the per-CPU counts add up exactly when several CPUs open at once.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "omx_test.h"
#include "omx_stats.h"
#include "module.h"

/* ---- The files ------------------------------------------------------ */

TEST(stats_are_four_read_only_files)
{
	struct omx_stats before, after;
	struct dirent *de;
	struct stat st;
	char path[256];
	int i, n = 0;
	DIR *dir;

	dir = opendir(OMX_STATS_DIR);
	ASSERT_NE(NULL, dir);
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		n++;
		for (i = 0; i < OMX_NR_STATS; i++)
			if (!strcmp(de->d_name, omx_stat_names[i]))
				break;
		EXPECT_LT(i, OMX_NR_STATS) TH_LOG("unexpected %s", de->d_name);
	}
	closedir(dir);
	EXPECT_EQ(OMX_NR_STATS, n);

	ASSERT_EQ(0, omx_stats_read(&before));
	for (i = 0; i < OMX_NR_STATS; i++) {
		snprintf(path, sizeof(path), "%s/%s", OMX_STATS_DIR,
			 omx_stat_names[i]);
		ASSERT_EQ(0, stat(path, &st));
		EXPECT_TRUE(S_ISREG(st.st_mode));
		EXPECT_EQ((mode_t)0444, st.st_mode & 07777) TH_LOG("%s", path);
		EXPECT_EQ((uid_t)0, st.st_uid);
		/* Not even root writes them. */
		EXPECT_EQ(-EACCES, lc_write_file(path, "0")) TH_LOG("%s", path);
		EXPECT_EQ(-EACCES, omx_probe_open(path, O_RDWR));
	}
	ASSERT_EQ(0, omx_stats_read(&after));
	EXPECT_EQ(0, memcmp(&before, &after, sizeof(before)));
}

/* ---- One count per decision ---------------------------------------- */

FIXTURE(stats) {
	struct omx_ws ws;
};

FIXTURE_VARIANT(stats) {
	int policy;
};

FIXTURE_VARIANT_ADD(stats, policy_0) { .policy = 0 };
FIXTURE_VARIANT_ADD(stats, policy_1) { .policy = 1 };
FIXTURE_VARIANT_ADD(stats, policy_2) { .policy = 2 };
FIXTURE_VARIANT_ADD(stats, policy_3) { .policy = 3 };

FIXTURE_SETUP(stats)
{
	struct omx_ws *ws = &self->ws;

	ASSERT_EQ(0, omx_ws_create(ws));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(ws, "exec", 0));
	ASSERT_EQ(0, omx_ws_file(ws, "exec/script", 0755, 0, 0));
	ASSERT_EQ(0, omx_ws_file(ws, "exec/data", 0644, 0, 0));
	ASSERT_EQ(0, omx_ws_file(ws, "exec/secret", 0700, 0, 0));
	ASSERT_EQ(0, mkdirat(ws->dirfd, "exec/directory", 0755));
	ASSERT_EQ(0, mkfifoat(ws->dirfd, "exec/fifo", 0644));
	ASSERT_EQ(0, mknodat(ws->dirfd, "exec/null", S_IFCHR | 0666,
			     makedev(1, 3)));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(ws, "noexec", MS_NOEXEC));
	ASSERT_EQ(0, omx_ws_file(ws, "noexec/script", 0755, 0, 0));
	ASSERT_EQ(0, omx_ws_file(ws, "noexec/data", 0644, 0, 0));
	ASSERT_EQ(0, symlinkat(omx_ws_path(ws, "noexec/script"), ws->dirfd,
			       "exec/link"));
	ASSERT_EQ(0, omx_policy_set(variant->policy));
}

FIXTURE_TEARDOWN(stats)
{
	EXPECT_EQ(0, omx_policy_set(0));
	EXPECT_EQ(0, omx_ws_destroy(&self->ws));
}

static const struct {
	const char *path;
	int flags;
	bool regular, noexec_mount, exec_bit;
} objects[] = {
	{ "exec/script", O_RDONLY, true, false, true },
	{ "exec/script", O_RDWR, true, false, true },
	{ "exec/data", O_RDONLY, true, false, false },
	{ "noexec/script", O_RDONLY, true, true, true },
	{ "noexec/data", O_RDONLY, true, true, false },
	{ "exec/link", O_RDONLY, true, true, true },
	{ "exec/directory", O_RDONLY | O_DIRECTORY, false, false, true },
	{ "exec/fifo", O_RDONLY | O_NONBLOCK, false, false, false },
	{ "exec/null", O_RDWR, false, false, false },
};

/* The verdict the policy gives @objects[i], as module/may_open.c decides. */
static enum omx_stat verdict(int policy, unsigned int i)
{
	if (!policy)
		return OMX_STAT_ALLOWED;
	if (!objects[i].regular)
		return OMX_STAT_NOT_REGULAR;
	if ((policy & OMAYEXEC_ENFORCE_MOUNT) && objects[i].noexec_mount)
		return OMX_STAT_NOEXEC_MOUNT;
	if ((policy & OMAYEXEC_ENFORCE_FILE) && !objects[i].exec_bit)
		return OMX_STAT_NO_EXEC_PERMISSION;
	return OMX_STAT_ALLOWED;
}

TEST_F(stats, each_decision_counts_once_under_its_verdict)
{
	struct omx_stats before, delta;
	unsigned int i;
	int s;

	for (i = 0; i < ARRAY_LEN(objects); i++) {
		enum omx_stat want = verdict(variant->policy, i);

		ASSERT_EQ(0, omx_stats_read(&before));
		EXPECT_EQ(want == OMX_STAT_ALLOWED ? 0 : -EACCES,
			  omx_probe_openat2(self->ws.dirfd, objects[i].path,
				objects[i].flags | O_CLOEXEC | O_MAYEXEC, 0))
			TH_LOG("%s", objects[i].path);
		ASSERT_EQ(0, omx_stats_delta(&before, &delta));
		for (s = 0; s < OMX_NR_STATS; s++)
			EXPECT_EQ(s == (int)want ? 1 : 0, delta.count[s])
				TH_LOG("%s: expected %s +1, got %s",
				       objects[i].path, omx_stat_names[want],
				       omx_stats_str(&delta));
	}
}

static int mayexec_as_user(void *arg)
{
	const struct omx_ws *ws = arg;
	int ret = omx_become_user();

	if (ret)
		return 1000 + ret;
	return omx_probe_openat2(ws->dirfd, "exec/secret",
				 O_RDONLY | O_CLOEXEC | O_MAYEXEC, 0);
}

static bool rfc_v1_enabled(void)
{
	char buf[8];

	return !mod_param("omayexec", "rfc_v1", buf, sizeof(buf)) &&
	       !strcmp(buf, "Y");
}

TEST_F(stats, opens_without_a_decision_are_not_counted)
{
	struct omx_stats before, delta;
	struct open_how how = { .mode = 0755 };
	unsigned int i;

	ASSERT_EQ(0, omx_ws_copy_self(&self->ws, "exec/program", 0755));
	ASSERT_EQ(0, omx_stats_read(&before));

	for (i = 0; i < ARRAY_LEN(objects); i++) {
		EXPECT_EQ(0, omx_probe_openat2(self->ws.dirfd, objects[i].path,
					       objects[i].flags | O_CLOEXEC, 0));
		/* Without rfc_v1, open(2) and openat(2) drop the bit. */
		if (!rfc_v1_enabled())
			EXPECT_EQ(0, omx_probe_openat(self->ws.dirfd,
					objects[i].path,
					objects[i].flags | O_CLOEXEC | O_MAYEXEC));
	}
	/* An exec open is not an O_MAYEXEC open. */
	EXPECT_EQ(OMX_EXEC_PROBE_STATUS,
		  omx_run_exec_probe(omx_ws_path(&self->ws, "exec/program")));

	/* O_MAYEXEC opens that fail before the policy is asked. */
	EXPECT_EQ(-ENOENT, omx_probe_openat2(self->ws.dirfd, "noexec/missing",
					     O_RDONLY | O_MAYEXEC, 0));
	EXPECT_EQ(-ELOOP, omx_probe_openat2(self->ws.dirfd, "exec/link",
				O_RDONLY | O_NOFOLLOW | O_MAYEXEC, 0));
	EXPECT_EQ(-EISDIR, omx_probe_openat2(self->ws.dirfd, "exec/directory",
					     O_WRONLY | O_MAYEXEC, 0));
	EXPECT_EQ(-EINVAL, omx_probe_openat2(self->ws.dirfd, "exec/script",
					     O_PATH | O_MAYEXEC, 0));
	how.flags = O_WRONLY | O_CREAT | O_MAYEXEC;
	EXPECT_EQ(-EINVAL, sys_openat2(self->ws.dirfd, "exec/new", &how));
	how.flags = O_RDWR | O_TMPFILE | O_MAYEXEC;
	EXPECT_EQ(-EINVAL, sys_openat2(self->ws.dirfd, "exec", &how));
	EXPECT_EQ(-EACCES, omx_in_child(mayexec_as_user, &self->ws));

	ASSERT_EQ(0, omx_stats_delta(&before, &delta));
	for (i = 0; i < OMX_NR_STATS; i++)
		EXPECT_EQ(0, delta.count[i]) TH_LOG("%s", omx_stats_str(&delta));
}

/* ---- Several CPUs at once --------------------------------------------- */

#define OPENS_PER_THREAD	500

struct opener {
	pthread_t thread;
	int cpu, dirfd, failures;
};

static void *open_loop(void *arg)
{
	struct opener *o = arg;
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	CPU_SET(o->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	for (i = 0; i < OPENS_PER_THREAD; i++) {
		if (omx_probe_openat2(o->dirfd, "exec/script",
				      O_RDONLY | O_CLOEXEC | O_MAYEXEC, 0))
			o->failures++;
		if (omx_probe_openat2(o->dirfd, "noexec/script",
				O_RDONLY | O_CLOEXEC | O_MAYEXEC, 0) != -EACCES)
			o->failures++;
	}
	return NULL;
}

FIXTURE(smp) {
	struct omx_ws ws;
};

FIXTURE_SETUP(smp)
{
	ASSERT_EQ(0, omx_ws_create(&self->ws));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(&self->ws, "exec", 0));
	ASSERT_EQ(0, omx_ws_file(&self->ws, "exec/script", 0755, 0, 0));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(&self->ws, "noexec", MS_NOEXEC));
	ASSERT_EQ(0, omx_ws_file(&self->ws, "noexec/script", 0755, 0, 0));
	ASSERT_EQ(0, omx_policy_set(OMAYEXEC_ENFORCE_MOUNT));
}

FIXTURE_TEARDOWN(smp)
{
	EXPECT_EQ(0, omx_policy_set(0));
	EXPECT_EQ(0, omx_ws_destroy(&self->ws));
}

/* Threads on every CPU, each with allowed and refused opens. */
TEST_F_TIMEOUT(smp, counts_add_up_across_cpus, 120)
{
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct opener openers[16] = {};
	struct omx_stats before, delta;
	int i, nthreads;

	ASSERT_LT(0, ncpus);
	nthreads = ncpus * 2 > 16 ? 16 : ncpus * 2;
	TH_LOG("%d threads on %ld CPUs", nthreads, ncpus);
	ASSERT_EQ(0, omx_stats_read(&before));
	for (i = 0; i < nthreads; i++) {
		openers[i].cpu = i % ncpus;
		openers[i].dirfd = self->ws.dirfd;
		ASSERT_EQ(0, pthread_create(&openers[i].thread, NULL,
					    open_loop, &openers[i]));
	}
	for (i = 0; i < nthreads; i++) {
		pthread_join(openers[i].thread, NULL);
		EXPECT_EQ(0, openers[i].failures);
	}
	ASSERT_EQ(0, omx_stats_delta(&before, &delta));
	EXPECT_EQ((unsigned long)nthreads * OPENS_PER_THREAD,
		  delta.count[OMX_STAT_ALLOWED]);
	EXPECT_EQ((unsigned long)nthreads * OPENS_PER_THREAD,
		  delta.count[OMX_STAT_NOEXEC_MOUNT]);
	EXPECT_EQ(0, delta.count[OMX_STAT_NOT_REGULAR]);
	EXPECT_EQ(0, delta.count[OMX_STAT_NO_EXEC_PERMISSION]);
}

TEST_HARNESS_MAIN
