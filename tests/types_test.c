// SPDX-License-Identifier: GPL-2.0
/*
 * O_MAYEXEC on objects that are not regular files.
 *
 * Under any non-zero policy, a directory, FIFO, socket, character device
 * or block device opened with openat2(O_MAYEXEC) gets EACCES, and the
 * decision comes before the object is opened: a FIFO without a writer
 * does not block, a blocked FIFO writer is not woken, a device's open
 * routine does not run (counted with kprobes on chrdev_open, blkdev_open
 * and fifo_open).  Under policy 0, an O_MAYEXEC open of these objects
 * gives exactly what the plain open gives.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "omx_test.h"

FIXTURE(object_types) {
	struct omx_ws ws;
};

FIXTURE_VARIANT(object_types) {
	int policy;
};

FIXTURE_VARIANT_ADD(object_types, policy_0) { .policy = 0 };
FIXTURE_VARIANT_ADD(object_types, policy_1) { .policy = 1 };
FIXTURE_VARIANT_ADD(object_types, policy_2) { .policy = 2 };
FIXTURE_VARIANT_ADD(object_types, policy_3) { .policy = 3 };

/* An unregistered block major: the plain open fails in the driver lookup. */
#define NO_SUCH_BLOCK_DEV	makedev(254, 254)

FIXTURE_SETUP(object_types)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int sock;

	ASSERT_EQ(0, omx_ws_create(&self->ws));
	/* An exec tmpfs without nodev: the devices in it may be opened. */
	ASSERT_EQ(0, omx_ws_mount_tmpfs(&self->ws, "objs", 0));
	ASSERT_EQ(0, omx_ws_file(&self->ws, "objs/script", 0755, 0, 0));
	ASSERT_EQ(0, mkdirat(self->ws.dirfd, "objs/directory", 0755));
	ASSERT_EQ(0, mkfifoat(self->ws.dirfd, "objs/fifo", 0777));
	ASSERT_EQ(0, mknodat(self->ws.dirfd, "objs/null", S_IFCHR | 0777,
			     makedev(1, 3)));
	ASSERT_EQ(0, mknodat(self->ws.dirfd, "objs/block", S_IFBLK | 0777,
			     NO_SUCH_BLOCK_DEV));
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s",
		 omx_ws_path(&self->ws, "objs/socket"));
	sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ASSERT_LE(0, sock);
	ASSERT_EQ(0, bind(sock, (struct sockaddr *)&addr, sizeof(addr)));
	ASSERT_EQ(0, fchmodat(self->ws.dirfd, "objs/socket", 0777, 0));
	close(sock);
	ASSERT_EQ(0, omx_policy_set(variant->policy));
}

FIXTURE_TEARDOWN(object_types)
{
	EXPECT_EQ(0, omx_policy_set(0));
	EXPECT_EQ(0, omx_ws_destroy(&self->ws));
}

/*
 * What openat2(path, @flags | O_MAYEXEC) must give: EACCES under any
 * non-zero policy, else the result of the same open without O_MAYEXEC.
 */
static void check_type(struct __test_metadata *_metadata,
		       const FIXTURE_VARIANT(object_types) *variant,
		       int dfd, const char *path, int flags, int plain_result)
{
	int expected = variant->policy ? -EACCES : plain_result;

	ASSERT_EQ(plain_result,
		  omx_probe_openat2(dfd, path, flags | O_CLOEXEC, 0))
		TH_LOG("plain openat2(%s, 0%o)", path, flags);
	EXPECT_EQ(expected, omx_probe_openat2(dfd, path,
					      flags | O_CLOEXEC | O_MAYEXEC, 0))
		TH_LOG("openat2(%s, 0%o | O_MAYEXEC) under policy %d", path,
		       flags, variant->policy);
}

TEST_F(object_types, regular_file_is_allowed)
{
	EXPECT_EQ(0, omx_probe_openat2(self->ws.dirfd, "objs/script",
				       O_RDONLY | O_MAYEXEC, 0));
}

TEST_F(object_types, directory)
{
	check_type(_metadata, variant, self->ws.dirfd, "objs/directory",
		   O_RDONLY, 0);
	check_type(_metadata, variant, self->ws.dirfd, "objs/directory",
		   O_RDONLY | O_DIRECTORY, 0);
}

/* may_open() order: writing a directory is EISDIR before any exec check. */
TEST_F(object_types, directory_opened_for_writing_stays_eisdir)
{
	EXPECT_EQ(-EISDIR, omx_probe_openat2(self->ws.dirfd, "objs/directory",
					     O_WRONLY, 0));
	EXPECT_EQ(-EISDIR, omx_probe_openat2(self->ws.dirfd, "objs/directory",
					     O_WRONLY | O_MAYEXEC, 0));
}

TEST_F(object_types, fifo_nonblocking)
{
	check_type(_metadata, variant, self->ws.dirfd, "objs/fifo",
		   O_RDONLY | O_NONBLOCK, 0);
	/* Writing with no reader: ENXIO from the FIFO itself. */
	check_type(_metadata, variant, self->ws.dirfd, "objs/fifo",
		   O_WRONLY | O_NONBLOCK, -ENXIO);
}

static void on_alarm(int sig)
{
	(void)sig;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * A blocking open of a FIFO with nobody at the other end: refused at once
 * under a policy, a real (blocking) FIFO open under policy 0.  SIGALRM
 * without SA_RESTART turns a block into EINTR.
 */
static void check_fifo_open_alone(struct __test_metadata *_metadata,
				  const FIXTURE_VARIANT(object_types) *variant,
				  int dfd, int flags)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	double start, elapsed;
	int ret;

	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	alarm(2);
	start = now();
	ret = omx_probe_openat2(dfd, "objs/fifo",
				flags | O_CLOEXEC | O_MAYEXEC, 0);
	elapsed = now() - start;
	alarm(0);
	if (variant->policy) {
		EXPECT_EQ(-EACCES, ret);
		EXPECT_GT(1.0, elapsed)
			TH_LOG("took %.3f s", elapsed);
	} else {
		EXPECT_EQ(-EINTR, ret)
			TH_LOG("policy 0: the FIFO open must block like a plain one");
	}
}

TEST_F(object_types, fifo_without_writer_does_not_block)
{
	check_fifo_open_alone(_metadata, variant, self->ws.dirfd, O_RDONLY);
}

TEST_F(object_types, fifo_without_reader_does_not_block)
{
	check_fifo_open_alone(_metadata, variant, self->ws.dirfd, O_WRONLY);
}

static int blocked_writer(const char *path)
{
	pid_t pid = fork();

	if (pid == 0) {
		int fd;

		/* Do not outlive a test that fails before releasing it. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		fd = open(path, O_WRONLY | O_CLOEXEC);

		_exit(fd < 0 ? 1 : 0);
	}
	return pid;
}

/* Whether @pid is asleep (state S) in the kernel. */
static bool task_sleeping(pid_t pid)
{
	char path[64], buf[256], *p;
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return false;
	buf[len] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'S';
}

/*
 * A writer sleeps in open(O_WRONLY) until a reader comes.  Had the FIFO's
 * open routine run for the refused O_MAYEXEC reader, it would have woken
 * the writer (fifo_open bumps r_counter), whose open would then succeed.
 */
TEST_F(object_types, fifo_blocked_writer_is_not_woken)
{
	const char *fifo = omx_ws_path(&self->ws, "objs/fifo");
	int status, i, ret, reader;
	pid_t writer;

	writer = blocked_writer(fifo);
	ASSERT_LT(0, writer);
	for (i = 0; i < 200 && !task_sleeping(writer); i++)
		usleep(10000);
	ASSERT_TRUE(task_sleeping(writer));
	usleep(100000);

	ret = omx_openat2(self->ws.dirfd, "objs/fifo",
			  O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_MAYEXEC, 0);
	if (variant->policy) {
		EXPECT_EQ(-EACCES, ret);
		usleep(300000);
		EXPECT_EQ(0, waitpid(writer, &status, WNOHANG))
			TH_LOG("the writer was woken: fifo_open ran");
		/* Release the writer with a real reader. */
		reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		ASSERT_LE(0, reader);
	} else {
		ASSERT_LE(0, ret);
		reader = ret;
	}
	ASSERT_EQ(writer, waitpid(writer, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(reader);
}

TEST_F(object_types, unix_socket)
{
	/* A socket inode cannot be opened: ENXIO, unless refused first. */
	check_type(_metadata, variant, self->ws.dirfd, "objs/socket",
		   O_RDONLY, -ENXIO);
}

TEST_F(object_types, char_device)
{
	check_type(_metadata, variant, self->ws.dirfd, "objs/null", O_RDONLY, 0);
	check_type(_metadata, variant, self->ws.dirfd, "objs/null", O_RDWR, 0);
	check_type(_metadata, variant, AT_FDCWD, "/dev/null", O_RDONLY, 0);
}

/* /dev/tty: tty_open() gives ENXIO without a controlling terminal. */
TEST_F(object_types, tty)
{
	int plain = omx_probe_openat2(AT_FDCWD, "/dev/tty",
				      O_RDONLY | O_NOCTTY | O_NONBLOCK, 0);

	check_type(_metadata, variant, AT_FDCWD, "/dev/tty",
		   O_RDONLY | O_NOCTTY | O_NONBLOCK, plain);
}

TEST_F(object_types, block_device)
{
	int plain = omx_probe_openat2(self->ws.dirfd, "objs/block",
				      O_RDONLY, 0);

	check_type(_metadata, variant, self->ws.dirfd, "objs/block",
		   O_RDONLY, plain);
}

/* Both ends of a pipe(2) through their /proc/self/fd magic links. */
TEST_F(object_types, anonymous_pipe_through_magic_link)
{
	char path[64];
	int pipefd[2];

	ASSERT_EQ(0, pipe2(pipefd, O_CLOEXEC));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", pipefd[0]);
	check_type(_metadata, variant, AT_FDCWD, path, O_RDONLY, 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", pipefd[1]);
	check_type(_metadata, variant, AT_FDCWD, path, O_WRONLY, 0);
	close(pipefd[0]);
	close(pipefd[1]);
}

TEST_F(object_types, socket_through_magic_link)
{
	char path[64];
	int sock;

	sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	ASSERT_LE(0, sock);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", sock);
	check_type(_metadata, variant, AT_FDCWD, path, O_RDONLY, -ENXIO);
	close(sock);
}

/*
 * Count calls of the object's open routine around one O_MAYEXEC open:
 * none under a policy, at least one under policy 0 (which proves the
 * probe counts).
 */
static void check_open_routine(struct __test_metadata *_metadata,
			       const FIXTURE_VARIANT(object_types) *variant,
			       int dfd, const char *path, int flags,
			       const char *routine)
{
	struct omx_kprobe kp = {};
	long before, after;
	int ret;

	ret = omx_kprobe_add(&kp, routine);
	if (ret == -ENOENT || ret == -EOPNOTSUPP)
		SKIP(return, "no kprobe events for %s", routine);
	ASSERT_EQ(0, ret);
	before = omx_kprobe_hits(&kp);
	ret = omx_probe_openat2(dfd, path, flags | O_CLOEXEC | O_MAYEXEC, 0);
	after = omx_kprobe_hits(&kp);
	EXPECT_EQ(0, omx_kprobe_remove(&kp));
	ASSERT_LE(0, before);
	ASSERT_LE(0, after);
	if (variant->policy) {
		EXPECT_EQ(-EACCES, ret);
		EXPECT_EQ(before, after)
			TH_LOG("%s ran for a refused O_MAYEXEC open of %s",
			       routine, path);
	} else {
		EXPECT_LT(before, after)
			TH_LOG("%s did not run under policy 0: probe broken?",
			       routine);
	}
}

TEST_F(object_types, char_device_open_routine_does_not_run)
{
	check_open_routine(_metadata, variant, self->ws.dirfd, "objs/null",
			   O_RDONLY, "chrdev_open");
}

TEST_F(object_types, block_device_open_routine_does_not_run)
{
	check_open_routine(_metadata, variant, self->ws.dirfd, "objs/block",
			   O_RDONLY, "blkdev_open");
}

TEST_F(object_types, fifo_open_routine_does_not_run)
{
	check_open_routine(_metadata, variant, self->ws.dirfd, "objs/fifo",
			   O_RDONLY | O_NONBLOCK, "fifo_open");
}

TEST_HARNESS_MAIN
