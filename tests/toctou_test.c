// SPDX-License-Identifier: GPL-2.0
/*
 * O_MAYEXEC opens while another process changes what the path names.
 *
 * In each test an attacker process keeps switching a path between an
 * object that the policy allows (good/f: mode 0755 on an exec mount) and
 * one that it refuses, while the test opens the path with O_MAYEXEC for a
 * while.  Every open must either be refused (EACCES) or return the allowed
 * object itself (same device and inode): never the refused one, never
 * another error.  The policy is judged on the object that is opened, after
 * every symlink and magic link, so no interleaving can split the two.
 *
 *   symlink_swapped       a symlink replaced (rename(2)) by one to the other
 *   rename_exchanged      the two names swapped with RENAME_EXCHANGE
 *   fifo_swapped          the file replaced by a FIFO and back
 *   magic_link_switched   /proc/PID/fd/N while PID dup2()s the other over N
 *   own_fd_switched       /proc/self/fd/N while a thread of the same
 *                         process dup2()s the other over N
 *   proc_root_switched    /proc/PID/root/f while PID chroot()s between the dirs
 *   bind_remounted        a bind mount of good/ remounted noexec and back:
 *                         judged against the mount flags in force when the
 *                         open neither overlapped a remount
 *
 * Each test also counts both outcomes, so a run where the attacker never
 * got a turn does not pass for a test of the race.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "omx_test.h"

#define RACE_MS		1000
#define SWITCH_FD	100

FIXTURE(toctou) {
	struct omx_ws ws;
	struct stat good;	/* good/f */
	pid_t attacker;
	volatile unsigned long *seq;	/* bind_remounted: odd while remounting */
};

FIXTURE_VARIANT(toctou) {
	int policy;
	const char *bad;	/* the refused twin of good/: "bad" has f too */
	bool bad_is_noexec;	/* bad/ is a noexec mount (else bad/f is 0644) */
};

FIXTURE_VARIANT_ADD(toctou, policy_1_noexec_mount) {
	.policy = 1, .bad = "noexec/bad", .bad_is_noexec = true,
};
FIXTURE_VARIANT_ADD(toctou, policy_2_no_x_bit) {
	.policy = 2, .bad = "exec/bad", .bad_is_noexec = false,
};
FIXTURE_VARIANT_ADD(toctou, policy_3_noexec_mount) {
	.policy = 3, .bad = "noexec/bad", .bad_is_noexec = true,
};
FIXTURE_VARIANT_ADD(toctou, policy_3_no_x_bit) {
	.policy = 3, .bad = "exec/bad", .bad_is_noexec = false,
};

FIXTURE_SETUP(toctou)
{
	char rel[64];

	self->attacker = -1;
	self->seq = mmap(NULL, sizeof(*self->seq), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->seq);
	*self->seq = 0;
	ASSERT_EQ(0, omx_ws_create(&self->ws));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(&self->ws, "exec", 0));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(&self->ws, "noexec", MS_NOEXEC));
	ASSERT_EQ(0, mkdirat(self->ws.dirfd, "exec/good", 0755));
	ASSERT_EQ(0, mkdirat(self->ws.dirfd, variant->bad, 0755));
	ASSERT_EQ(0, omx_ws_file(&self->ws, "exec/good/f", 0755, 0, 0));
	snprintf(rel, sizeof(rel), "%s/f", variant->bad);
	ASSERT_EQ(0, omx_ws_file(&self->ws, rel,
				 variant->bad_is_noexec ? 0755 : 0644, 0, 0));
	ASSERT_EQ(0, fstatat(self->ws.dirfd, "exec/good/f", &self->good, 0));
	ASSERT_EQ(0, omx_policy_set(variant->policy));
}

FIXTURE_TEARDOWN(toctou)
{
	if (self->attacker > 0) {
		kill(self->attacker, SIGKILL);
		waitpid(self->attacker, NULL, 0);
	}
	EXPECT_EQ(0, omx_policy_set(0));
	munmap((void *)self->seq, sizeof(*self->seq));
	omx_ws_destroy(&self->ws);
}

/* ---- The attackers: each loops until killed --------------------------- */

typedef void (*attack_fn)(FIXTURE_DATA(toctou) *self,
			  const FIXTURE_VARIANT(toctou) *variant);

static pid_t start_attacker(FIXTURE_DATA(toctou) *self,
			    const FIXTURE_VARIANT(toctou) *variant,
			    attack_fn attack)
{
	pid_t pid = fork();

	if (pid == 0) {
		attack(self, variant);
		_exit(1);	/* an attack step failed */
	}
	self->attacker = pid;
	return pid;
}

/* Replace exec/link by a symlink to TARGET, atomically. */
static int point_link(int dirfd, const char *target)
{
	unlinkat(dirfd, "exec/link.new", 0);
	if (symlinkat(target, dirfd, "exec/link.new") ||
	    renameat(dirfd, "exec/link.new", dirfd, "exec/link"))
		return -1;
	return 0;
}

static void swap_symlink(FIXTURE_DATA(toctou) *self,
			 const FIXTURE_VARIANT(toctou) *variant)
{
	char bad[PATH_MAX], good[PATH_MAX];

	snprintf(good, sizeof(good), "%s", omx_ws_path(&self->ws, "exec/good/f"));
	snprintf(bad, sizeof(bad), "%s/%s/f", self->ws.root, variant->bad);
	for (;;)
		if (point_link(self->ws.dirfd, bad) ||
		    point_link(self->ws.dirfd, good))
			return;
}

/* exec/good/f and exec/good/twin (refused) trade names, again and again. */
static void exchange_names(FIXTURE_DATA(toctou) *self,
			   const FIXTURE_VARIANT(toctou) *variant)
{
	for (;;)
		if (renameat2(self->ws.dirfd, "exec/good/f", self->ws.dirfd,
			      "exec/good/twin", RENAME_EXCHANGE))
			return;
}

static void switch_fd(FIXTURE_DATA(toctou) *self,
		      const FIXTURE_VARIANT(toctou) *variant)
{
	char bad[64];
	int good_fd, bad_fd;

	snprintf(bad, sizeof(bad), "%s/f", variant->bad);
	good_fd = openat(self->ws.dirfd, "exec/good/f", O_PATH);
	bad_fd = openat(self->ws.dirfd, bad, O_PATH);
	if (good_fd < 0 || bad_fd < 0)
		return;
	for (;;)
		if (dup2(bad_fd, SWITCH_FD) < 0 || dup2(good_fd, SWITCH_FD) < 0)
			return;
}

static void switch_root(FIXTURE_DATA(toctou) *self,
			const FIXTURE_VARIANT(toctou) *variant)
{
	int good_fd = openat(self->ws.dirfd, "exec/good", O_PATH | O_DIRECTORY);
	int bad_fd = openat(self->ws.dirfd, variant->bad, O_PATH | O_DIRECTORY);

	if (good_fd < 0 || bad_fd < 0)
		return;
	/* Holding both directories, it can chroot() from one to the other. */
	for (;;)
		if (fchdir(bad_fd) || chroot(".") || fchdir(good_fd) ||
		    chroot("."))
			return;
}

static void remount_bind(FIXTURE_DATA(toctou) *self,
			 const FIXTURE_VARIANT(toctou) *variant)
{
	const char *bind = omx_ws_path(&self->ws, "bind");
	unsigned long noexec = MS_NOEXEC;

	for (;;) {
		__atomic_add_fetch(self->seq, 1, __ATOMIC_SEQ_CST);
		if (mount(NULL, bind, NULL, MS_REMOUNT | MS_BIND | noexec, NULL))
			return;
		__atomic_add_fetch(self->seq, 1, __ATOMIC_SEQ_CST);
		noexec ^= MS_NOEXEC;
		usleep(200);	/* stable windows, to judge opens against */
	}
}

/* ---- The victim ------------------------------------------------------------ */

struct tally {
	long allowed, refused, judged, bad;
	char bad_what[160];
};

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * One O_MAYEXEC open of PATH: refused, or the allowed object itself.
 * Returns 1 if it was allowed, 0 if refused, -1 (and a tally entry) if
 * it was neither.
 */
static int victim_open(FIXTURE_DATA(toctou) *self, int dirfd, const char *path,
		       struct tally *t)
{
	struct stat st;
	int fd, flags;

	fd = omx_openat2(dirfd, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK |
			 O_MAYEXEC, 0);
	if (fd == -EACCES) {
		t->refused++;
		return 0;
	}
	if (fd < 0) {
		snprintf(t->bad_what, sizeof(t->bad_what), "%s: %s", path,
			 strerror(-fd));
		t->bad++;
		return -1;
	}
	flags = omx_fd_flags(fd);
	if (fstat(fd, &st) || st.st_ino != self->good.st_ino ||
	    st.st_dev != self->good.st_dev ||
	    (flags & OMX_EXEC_OPEN_BITS) != omx_mayexec_open_bits()) {
		snprintf(t->bad_what, sizeof(t->bad_what),
			 "%s: opened inode %lu (mode %o), not good/f (inode %lu)",
			 path, (unsigned long)st.st_ino, st.st_mode,
			 (unsigned long)self->good.st_ino);
		t->bad++;
		close(fd);
		return -1;
	}
	close(fd);
	t->allowed++;
	return 1;
}

static void race(struct __test_metadata *_metadata,
		 FIXTURE_DATA(toctou) *self, int dirfd, const char *path)
{
	struct tally t = { 0 };
	long end = now_ms() + 5000;

	/* /proc/PID/... names something once the attacker has begun. */
	while (faccessat(dirfd, path, F_OK, 0) && now_ms() < end)
		usleep(1000);
	end = now_ms() + RACE_MS;

	while (now_ms() < end)
		victim_open(self, dirfd, path, &t);
	TH_LOG("%s: %ld allowed, %ld refused", path, t.allowed, t.refused);
	EXPECT_EQ(0, t.bad) {
		TH_LOG("%ld wrong results; the last: %s", t.bad, t.bad_what);
	}
	/* Both objects were seen: the path really was switched. */
	EXPECT_LT(0, t.allowed);
	EXPECT_LT(0, t.refused);
}

TEST_F(toctou, symlink_swapped)
{
	ASSERT_EQ(0, point_link(self->ws.dirfd, omx_ws_path(&self->ws, "exec/good/f")));
	ASSERT_LT(0, start_attacker(self, variant, swap_symlink));
	race(_metadata, self, self->ws.dirfd, "exec/link");
}

TEST_F(toctou, rename_exchanged)
{
	/* The refused twin, in the same directory: rename(2) stays on one mount. */
	if (variant->bad_is_noexec) {
		ASSERT_EQ(0, mkfifoat(self->ws.dirfd, "exec/good/twin", 0755));
	} else {
		ASSERT_EQ(0, omx_ws_file(&self->ws, "exec/good/twin", 0644, 0, 0));
	}
	ASSERT_LT(0, start_attacker(self, variant, exchange_names));
	race(_metadata, self, self->ws.dirfd, "exec/good/f");
}

TEST_F(toctou, fifo_swapped)
{
	/* exec/good/f becomes a FIFO, then the file again. */
	ASSERT_EQ(0, mkfifoat(self->ws.dirfd, "exec/good/twin", 0755));
	ASSERT_LT(0, start_attacker(self, variant, exchange_names));
	race(_metadata, self, self->ws.dirfd, "exec/good/f");
}

TEST_F(toctou, magic_link_switched)
{
	char path[64];
	pid_t pid = start_attacker(self, variant, switch_fd);

	ASSERT_LT(0, pid);
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, SWITCH_FD);
	race(_metadata, self, AT_FDCWD, path);
}

struct fd_switcher {
	int good, bad;
	volatile int stop;
};

static void *switch_own_fd(void *arg)
{
	struct fd_switcher *sw = arg;

	while (!sw->stop)
		if (dup2(sw->bad, SWITCH_FD) < 0 || dup2(sw->good, SWITCH_FD) < 0)
			break;
	return NULL;
}

TEST_F(toctou, own_fd_switched)
{
	struct fd_switcher sw = { .stop = 0 };
	char bad[64], path[64];
	pthread_t thread;

	snprintf(bad, sizeof(bad), "%s/f", variant->bad);
	sw.good = openat(self->ws.dirfd, "exec/good/f", O_PATH | O_CLOEXEC);
	sw.bad = openat(self->ws.dirfd, bad, O_PATH | O_CLOEXEC);
	ASSERT_LE(0, sw.good);
	ASSERT_LE(0, sw.bad);
	ASSERT_EQ(0, pthread_create(&thread, NULL, switch_own_fd, &sw));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", SWITCH_FD);
	race(_metadata, self, AT_FDCWD, path);
	sw.stop = 1;
	pthread_join(thread, NULL);
	close(SWITCH_FD);
	close(sw.good);
	close(sw.bad);
}

TEST_F(toctou, proc_root_switched)
{
	char path[64];
	pid_t pid = start_attacker(self, variant, switch_root);

	ASSERT_LT(0, pid);
	snprintf(path, sizeof(path), "/proc/%d/root/f", pid);
	race(_metadata, self, AT_FDCWD, path);
}

TEST_F(toctou, bind_remounted)
{
	struct tally t = { 0 };
	unsigned long before, after;
	bool noexec, refused;
	long end;
	int ret;

	ASSERT_EQ(0, omx_ws_bind(&self->ws, "exec/good", "bind", 0));
	ASSERT_LT(0, start_attacker(self, variant, remount_bind));
	end = now_ms() + RACE_MS;
	while (now_ms() < end) {
		before = __atomic_load_n(self->seq, __ATOMIC_SEQ_CST);
		ret = victim_open(self, self->ws.dirfd, "bind/f", &t);
		after = __atomic_load_n(self->seq, __ATOMIC_SEQ_CST);
		if (ret < 0 || before != after || (before & 1))
			continue;	/* overlapped a remount: either answer */
		/* Remount k (seq 2k-1 to 2k) made it noexec when k is odd. */
		noexec = (before / 2) & 1;
		refused = noexec && (variant->policy & OMAYEXEC_ENFORCE_MOUNT);
		t.judged++;
		if (refused != !ret) {
			snprintf(t.bad_what, sizeof(t.bad_what),
				 "bind/f %s while the bind was %s for the whole open",
				 ret ? "allowed" : "refused",
				 noexec ? "noexec" : "exec");
			t.bad++;
		}
	}
	TH_LOG("bind/f: %ld allowed, %ld refused, %ld judged against a stable mount",
	       t.allowed, t.refused, t.judged);
	EXPECT_EQ(0, t.bad) {
		TH_LOG("%ld wrong results; the last: %s", t.bad, t.bad_what);
	}
	EXPECT_LT(0, t.judged);
	EXPECT_LT(0, t.allowed);
	if (variant->policy & OMAYEXEC_ENFORCE_MOUNT)
		EXPECT_LT(0, t.refused);
}

TEST_HARNESS_MAIN
