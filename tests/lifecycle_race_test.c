// SPDX-License-Identifier: GPL-2.0
/*
 * omayexec.ko loaded and unloaded again and again while other tasks open
 * files: every O_MAYEXEC open is either refused as by the stock kernel
 * (EINVAL) or judged by the policy in force, never let through unjudged;
 * plain opens never fail; rmmod either succeeds or is refused as "in use",
 * and plain opens alone never hold the module.
 *
 * Like lifecycle_test, it loads and unloads the module itself and leaves it
 * unloaded.
 *
 * Run it in a VM with single-threaded TCG (qemu/run-vm's default): under
 * QEMU 7.2's multi-threaded TCG, a vCPU that keeps calling a function
 * while another vCPU patches that function's ftrace call site can loop
 * forever on the int3 that text_poke_bp() has already removed (a stale
 * translation; soft lockup at do_sys_openat2+0x0 in kprobe_int3_handler's
 * "int3 gone, retry" path).  It happens with the test-only module
 * tests/kmod/omx_hog.ko too, so it is the emulator, not omayexec.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "omx.h"
#include "module.h"
#include "kselftest_harness.h"
#include "lifecycle.h"

#define CYCLES	8
#define WORKERS	2

/* Counts a result that must not happen, and keeps the last one's description. */
#define RACE_BAD(fmt, ...) do { \
	__atomic_add_fetch(&c->bad, 1, __ATOMIC_SEQ_CST); \
	snprintf(c->bad_what, sizeof(c->bad_what), fmt, ##__VA_ARGS__); \
} while (0)

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
}

typedef void (*worker_fn)(FIXTURE_DATA(lifecycle) *self,
			  struct race_counts *c);

/* WORKERS children running @work until stop_workers(), counting in shared memory. */
static struct race_counts *start_workers(struct __test_metadata *_metadata,
					 FIXTURE_DATA(lifecycle) *self,
					 pid_t workers[WORKERS], worker_fn work)
{
	struct race_counts *c;
	int i;

	c = mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (c == MAP_FAILED)
		return NULL;
	memset(c, 0, sizeof(*c));
	for (i = 0; i < WORKERS; i++) {
		workers[i] = fork_child(self);
		if (!workers[i]) {
			work(self, c);
			_exit(0);
		}
		EXPECT_LE(0, workers[i]);
	}
	return c;
}

static void stop_workers(struct __test_metadata *_metadata,
			 struct race_counts *c, pid_t workers[WORKERS])
{
	int i;

	c->stop = 1;
	for (i = 0; i < WORKERS; i++)
		if (workers[i] > 0)
			EXPECT_EQ(0, wait_exit(workers[i], 20000));
}

TEST_F_TIMEOUT(lifecycle, load_unload_while_opening, 180)
{
	struct race_counts *c;
	pid_t workers[WORKERS];
	int i, ret, refused = 0;

	c = start_workers(_metadata, self, workers, race_worker);
	ASSERT_NE(NULL, c);
	for (i = 0; i < CYCLES; i++) {
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
	TH_LOG("%d loads and unloads; %d unloads refused as in use", CYCLES,
	       refused);
	stop_workers(_metadata, c, workers);
	TH_LOG("O_MAYEXEC opens of a non-executable file: %ld EINVAL, %ld EACCES, %ld allowed",
	       c->einval, c->eacces, c->allowed);
	EXPECT_EQ(0, c->allowed);
	EXPECT_EQ(0, c->bad) {
		TH_LOG("unexpected: %s", c->bad_what);
	}
	expect_absent(_metadata, self, NULL);
	munmap(c, sizeof(*c));
}

/* Plain opens only: they never hold the module, so every unload succeeds at once. */
static void plain_worker(FIXTURE_DATA(lifecycle) *self, struct race_counts *c)
{
	const char *nx = omx_ws_path(&self->ws, "exec/nx");
	long opens = 0;
	int ret, fd;

	while (!c->stop) {
		ret = omx_probe_open(nx, O_RDONLY | O_CLOEXEC);
		if (ret)
			RACE_BAD("open exec/nx: %s", strerror(-ret));
		fd = openat(self->ws.dirfd, "noexec/x", O_RDONLY | O_CLOEXEC | O_MAYEXEC);
		if (fd < 0)
			RACE_BAD("openat(O_MAYEXEC, ignored) noexec/x: %m");
		else
			close(fd);
		ret = omx_probe_openat2(self->ws.dirfd, "exec/nx",
					O_RDONLY | O_CLOEXEC, 0);
		if (ret)
			RACE_BAD("openat2 exec/nx: %s", strerror(-ret));
		ret = omx_probe_openat2(self->ws.dirfd, "missing",
					O_RDONLY | O_CLOEXEC, 0);
		if (ret != -ENOENT)
			RACE_BAD("openat2 missing: %s", strerror(-ret));
		opens += 4;
	}
	__atomic_add_fetch(&c->allowed, opens, __ATOMIC_SEQ_CST);
}

TEST_F_TIMEOUT(lifecycle, unload_while_plain_opening, 180)
{
	struct race_counts *c;
	pid_t workers[WORKERS];
	int i, ret;

	c = start_workers(_metadata, self, workers, plain_worker);
	ASSERT_NE(NULL, c);
	for (i = 0; i < CYCLES; i++) {
		LOAD_OK("enforce=3");
		usleep(50 * 1000);
		ret = mod_unload(MOD_OMAYEXEC);
		EXPECT_EQ(0, ret) {
			TH_LOG("unload %d while plain opens run: %s", i,
			       strerror(-ret));
		}
		if (ret && mod_unload_retry(MOD_OMAYEXEC, 10000))
			break;
		usleep(50 * 1000);
	}
	stop_workers(_metadata, c, workers);
	TH_LOG("%d loads and unloads during %ld plain opens", CYCLES,
	       c->allowed);
	EXPECT_EQ(0, c->bad) {
		TH_LOG("unexpected: %s", c->bad_what);
	}
	expect_absent(_metadata, self, NULL);
	munmap(c, sizeof(*c));
}

TEST_HARNESS_MAIN
