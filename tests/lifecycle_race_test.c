// SPDX-License-Identifier: GPL-2.0
/*
 * omayexec.ko loaded and unloaded again and again while other tasks open
 * files: every O_MAYEXEC open is either refused as by the stock kernel
 * (EINVAL) or judged by the policy in force, never let through unjudged;
 * plain opens never fail; rmmod either succeeds or is refused as "in use",
 * and plain opens alone never hold the module.  The same for
 * execveat(AT_EXECVE_CHECK), from several threads of several processes,
 * of allowed and refused files, while the module comes and goes and the
 * policy changes: every call returns as a check (or EINVAL while the
 * module is absent), and none executes anything.
 *
 * Like lifecycle_test, it loads and unloads the module itself and leaves it
 * unloaded.  Each case loads it four or five times, or OMX_LIFECYCLE_CYCLES
 * times (lc_cycles()).  Each unload removes the hooks one by one, an
 * RCU-tasks grace period after each (ftrace's, 1.3 s in all under TCG),
 * and the other tasks race with every one of those states, thousands of
 * calls each: in make check, where the whole boot runs on one host CPU,
 * four or five cycles; for a longer hunt, OMX_LIFECYCLE_CYCLES=100.
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
#include <pthread.h>
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

#define CYCLES	4	/* loads and unloads, unless lc_cycles() says */
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

/*
 * @cycles loads of the module with @params and unloads, @pause_ms apart:
 * 0, or the first unload's error.  An O_MAYEXEC open or a check in flight
 * holds the module: rmmod is then refused (EAGAIN), as it may be, and
 * tried again every 5 ms, up to 4,000 times in all (*@refused counts
 * them); it must succeed soon.
 */
static int load_unload_cycles(struct __test_metadata *_metadata,
			      FIXTURE_DATA(lifecycle) *self, const char *params,
			      int cycles, int pause_ms, int *refused)
{
	int i, ret = 0;

	for (i = 0; i < cycles && !ret; i++) {
		ret = mod_load(self->ko, params);
		if (ret) {
			TH_LOG("load %d with \"%s\": %s", i, params, strerror(-ret));
			break;
		}
		usleep(pause_ms * 1000);
		while ((ret = mod_unload(MOD_OMAYEXEC)) == -EAGAIN && *refused < 4000) {
			(*refused)++;
			usleep(5 * 1000);
		}
		if (ret)
			TH_LOG("unload %d: %s", i, strerror(-ret));
		usleep(pause_ms * 1000);
	}
	return ret;
}

TEST_F_TIMEOUT(lifecycle, load_unload_while_opening, 180)
{
	struct race_counts *c;
	pid_t workers[WORKERS];
	int ret, refused = 0;

	c = start_workers(_metadata, self, workers, race_worker);
	ASSERT_NE(NULL, c);
	ret = load_unload_cycles(_metadata, self, "enforce=2", lc_cycles(CYCLES),
				 50, &refused);
	EXPECT_EQ(0, ret);
	TH_LOG("%d loads and unloads; %d unloads refused as in use",
	       lc_cycles(CYCLES), refused);
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
	for (i = 0; i < lc_cycles(CYCLES); i++) {
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
	TH_LOG("%d loads and unloads during %ld plain opens", lc_cycles(CYCLES),
	       c->allowed);
	EXPECT_EQ(0, c->bad) {
		TH_LOG("unexpected: %s", c->bad_what);
	}
	expect_absent(_metadata, self, NULL);
	munmap(c, sizeof(*c));
}

/* ---- Checks while the module comes and goes ------------------------------- */

#define CHECK_THREADS	2
#define CHECK_CYCLES	5

struct check_counts {
	volatile int stop;
	long allowed, refused, einval;	/* by the module, or without it */
	long bad;
	char bad_what[256];
};

struct check_thread {
	FIXTURE_DATA(lifecycle) *self;
	struct check_counts *c;
};

/*
 * Checks, until told to stop, of a copy of this program (a check that
 * executed it would end this process with OMX_EXEC_PROBE_STATUS), by path
 * and by descriptor, and of files execve() refuses: each answer is the
 * check's (0 or EACCES) or the stock kernel's EINVAL.  A pause of a
 * millisecond after each round: every check in flight holds the module,
 * and rmmod needs a moment when none is (with four threads checking
 * back to back, 4,000 tries over 20 s all found one, on 6.1 and 6.12).
 */
static void *check_thread(void *arg)
{
	struct check_thread *t = arg;
	struct check_counts *c = t->c;
	int dfd = t->self->ws.dirfd, fd, ret, i;
	long allowed = 0, refused = 0, einval = 0;
	static const char *const refused_rel[] = { "exec/nx", "noexec/prog", "exec" };

	fd = openat(dfd, "exec/prog", O_RDONLY | O_CLOEXEC);
	while (!c->stop) {
		ret = omx_execveat_probe(dfd, "exec/prog", AT_EXECVE_CHECK);
		if (!ret)
			allowed++;
		else if (ret == -EINVAL)
			einval++;
		else
			RACE_BAD("check of exec/prog: %s", strerror(-ret));
		ret = omx_execveat_probe(fd, "", AT_EMPTY_PATH | AT_EXECVE_CHECK);
		if (ret && ret != -EINVAL)
			RACE_BAD("check of exec/prog's fd: %s", strerror(-ret));
		for (i = 0; i < 3; i++) {
			ret = omx_execveat_probe(dfd, refused_rel[i], AT_EXECVE_CHECK);
			if (ret == -EACCES)
				refused++;
			else if (ret == -EINVAL)
				einval++;
			else
				RACE_BAD("check of %s: %s", refused_rel[i], strerror(-ret));
		}
		usleep(1000);
	}
	close(fd);
	__atomic_add_fetch(&c->allowed, allowed, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&c->refused, refused, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&c->einval, einval, __ATOMIC_SEQ_CST);
	return NULL;
}

/* A worker process: CHECK_THREADS checking threads; exits 0. */
static void check_worker(FIXTURE_DATA(lifecycle) *self, struct check_counts *c)
{
	struct check_thread t = { .self = self, .c = c };
	pthread_t threads[CHECK_THREADS];
	int i;

	for (i = 0; i < CHECK_THREADS; i++)
		if (pthread_create(&threads[i], NULL, check_thread, &t))
			_exit(3);
	for (i = 0; i < CHECK_THREADS; i++)
		pthread_join(threads[i], NULL);
	_exit(0);
}

/* The policy, 0 to 3 and again, while the module is there. */
static void policy_writer(struct check_counts *c)
{
	int p = 0;

	while (!c->stop) {
		omx_policy_set(p++ & 3);
		usleep(2 * 1000);
	}
	_exit(0);
}

TEST_F_TIMEOUT(lifecycle, load_unload_while_checking, 240)
{
	pid_t workers[WORKERS + 1];
	struct check_counts *c;
	int i, ret, refused = 0;

	ASSERT_EQ(0, omx_ws_copy_self(&self->ws, "exec/prog", 0755));
	ASSERT_EQ(0, omx_ws_copy_self(&self->ws, "noexec/prog", 0755));
	c = mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, c);
	memset(c, 0, sizeof(*c));
	for (i = 0; i <= WORKERS; i++) {
		workers[i] = fork_child(self);
		if (!workers[i]) {
			if (i == WORKERS)
				policy_writer(c);
			check_worker(self, c);
		}
		ASSERT_LE(0, workers[i]);
	}
	ret = load_unload_cycles(_metadata, self, "", lc_cycles(CHECK_CYCLES), 150,
				 &refused);
	EXPECT_EQ(0, ret);
	c->stop = 1;
	/* A check that executed the program would have ended with its status. */
	for (i = 0; i <= WORKERS; i++)
		EXPECT_EQ(0, wait_exit(workers[i], 20000)) TH_LOG("worker %d", i);
	TH_LOG("%d loads and unloads (%d unloads refused as in use); checks: %ld allowed, %ld refused, %ld EINVAL without the module",
	       lc_cycles(CHECK_CYCLES), refused, c->allowed, c->refused,
	       c->einval);
	EXPECT_EQ(0, c->bad) {
		TH_LOG("unexpected: %s", c->bad_what);
	}
	/* Thousands, and the module answered many of them. */
	EXPECT_LE(2000, c->allowed + c->refused + c->einval);
	EXPECT_LT(0, c->allowed);
	EXPECT_LT(0, c->refused);
	expect_absent(_metadata, self, NULL);
	munmap(c, sizeof(*c));
}

TEST_HARNESS_MAIN
