// SPDX-License-Identifier: GPL-2.0
/*
 * execveat(2) with AT_EXECVE_CHECK, as the module gives it to Debian's 6.1
 * and 6.12 (exec_check parameter, on by default), against mainline's
 * results (../shared/notes/exec-check.md, measured on 6.18):
 *
 * - every kind of object, by path and through a descriptor, answers as
 *   execve() would decide: an executable regular file 0; no exec
 *   permission, a noexec mount, a directory, FIFO, socket, device or pipe
 *   EACCES; a symlink with AT_SYMLINK_NOFOLLOW ELOOP; a file open for
 *   writing ETXTBSY; memfds and O_PATH descriptors by their mode;
 * - any other flag is EINVAL, "" needs AT_EMPTY_PATH;
 * - the answer does not depend on fs.open_mayexec_enforce;
 * - the check never executes anything: the file checked is a copy of this
 *   program, which exits at once with OMX_EXEC_PROBE_STATUS when its
 *   environment says so, and that environment is passed; a check that
 *   turned into an exec would end the test with that status;
 * - after checks, allowed and refused, the caller is what it was: program,
 *   pid, credentials, securebits, signal dispositions and mask, open
 *   descriptors and their close-on-exec flags, its memory map and its
 *   other threads (everything an exec would change), and a tracer sees no
 *   exec event;
 * - an execveat(2) without the flag still executes.
 *
 * The variants run with fs.open_mayexec_enforce at 0 and at 3.  Without
 * the module, on a kernel that answers the check itself (mainline 6.14
 * and later), the same tests run as the reference (both variants alike:
 * there is no policy there).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/omayexec.h>

#include "omx_test.h"

/* execveat(2) with the probe's environment: 0 or -errno. */
static int check_at(int dfd, const char *path, int flags)
{
	return omx_execveat_probe(dfd, path, flags);
}

static int check_fd(int fd)
{
	return check_at(fd, "", AT_EMPTY_PATH | AT_EXECVE_CHECK);
}

static int check_path(int dfd, const char *path)
{
	return check_at(dfd, path, AT_EXECVE_CHECK);
}

/* The check through a descriptor opened with @flags: 0, -errno, or the open's error. */
static int check_opened(int dfd, const char *path, int flags)
{
	int fd = openat(dfd, path, flags | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -1000 - errno;
	ret = check_fd(fd);
	close(fd);
	return ret;
}

FIXTURE(exec_check) {
	struct omx_ws ws;
};

FIXTURE_VARIANT(exec_check) {
	int policy;
};

FIXTURE_VARIANT_ADD(exec_check, policy_0) { .policy = 0 };
FIXTURE_VARIANT_ADD(exec_check, policy_3) { .policy = 3 };

FIXTURE_SETUP(exec_check)
{
	struct omx_ws *ws = &self->ws;
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int sock;

	ws->dirfd = -1;
	if (omx_module_loaded() ? !omx_exec_check_enabled() : !omx_exec_check_answered())
		SKIP(return, "omayexec loaded with exec_check=0, or neither it nor the kernel answers AT_EXECVE_CHECK");
	ASSERT_EQ(0, omx_ws_create(ws));
	/* A real program: a check that executed it would end the test. */
	ASSERT_EQ(0, omx_ws_copy_self(ws, "prog", 0755));
	ASSERT_EQ(0, omx_ws_file(ws, "nx", 0644, 0, 0));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(ws, "noexec", MS_NOEXEC));
	ASSERT_EQ(0, omx_ws_copy_self(ws, "noexec/prog", 0755));
	ASSERT_EQ(0, mkdirat(ws->dirfd, "dir", 0755));
	ASSERT_EQ(0, mkfifoat(ws->dirfd, "fifo", 0777));
	ASSERT_EQ(0, symlinkat("prog", ws->dirfd, "link"));
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", omx_ws_path(ws, "sock"));
	sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ASSERT_LE(0, sock);
	ASSERT_EQ(0, bind(sock, (struct sockaddr *)&addr, sizeof(addr)));
	close(sock);
	ASSERT_EQ(0, fchmodat(ws->dirfd, "sock", 0777, 0));
	ASSERT_EQ(0, omx_ws_file(ws, "root-only", 0700, 0, 0));
	ASSERT_EQ(0, fchmodat(ws->dirfd, ".", 0755, 0));
	/* The policy plays no part: the same answers at each. */
	if (omx_module_loaded())
		ASSERT_EQ(0, omx_policy_set(variant->policy));
}

FIXTURE_TEARDOWN(exec_check)
{
	if (self->ws.dirfd < 0)
		return;
	if (omx_module_loaded())
		omx_policy_set(0);
	omx_ws_destroy(&self->ws);
}

/* By path: what execve() would decide for each kind of object. */
TEST_F(exec_check, by_path)
{
	int dfd = self->ws.dirfd;

	EXPECT_EQ(0, check_path(dfd, "prog"));
	EXPECT_EQ(0, check_path(dfd, "root-only"));
	EXPECT_EQ(-EACCES, check_path(dfd, "nx"));
	EXPECT_EQ(-EACCES, check_path(dfd, "noexec/prog"));
	EXPECT_EQ(-EACCES, check_path(dfd, "dir"));
	EXPECT_EQ(-EACCES, check_path(dfd, "fifo"));
	EXPECT_EQ(-EACCES, check_path(dfd, "sock"));
	EXPECT_EQ(-EACCES, check_path(AT_FDCWD, "/dev/null"));
	EXPECT_EQ(0, check_path(dfd, "link"));
	EXPECT_EQ(-ELOOP, check_at(dfd, "link",
				   AT_EXECVE_CHECK | AT_SYMLINK_NOFOLLOW));
	EXPECT_EQ(-ENOENT, check_path(dfd, "missing"));
	EXPECT_EQ(-ENOENT, check_path(dfd, ""));
}

struct as_user {
	int dfd;
	const char *path;
};

static int check_as_user(void *arg)
{
	const struct as_user *a = arg;
	int err = omx_become_user();

	return err ? -1000 + err : check_path(a->dfd, a->path);
}

/* An unprivileged caller: the permission check is its own. */
TEST_F(exec_check, as_user)
{
	struct as_user a = { .dfd = self->ws.dirfd };

	a.path = "prog";
	EXPECT_EQ(0, omx_in_child(check_as_user, &a));
	a.path = "root-only";
	EXPECT_EQ(-EACCES, omx_in_child(check_as_user, &a));
	a.path = "nx";
	EXPECT_EQ(-EACCES, omx_in_child(check_as_user, &a));
	a.path = "noexec/prog";
	EXPECT_EQ(-EACCES, omx_in_child(check_as_user, &a));
}

/* Through a descriptor (AT_EMPTY_PATH), as interpreters ask. */
TEST_F(exec_check, by_descriptor)
{
	int dfd = self->ws.dirfd;
	int fd;

	EXPECT_EQ(0, check_opened(dfd, "prog", O_RDONLY));
	EXPECT_EQ(-EACCES, check_opened(dfd, "nx", O_RDONLY));
	EXPECT_EQ(-EACCES, check_opened(dfd, "noexec/prog", O_RDONLY));
	EXPECT_EQ(-EACCES, check_opened(dfd, "dir", O_RDONLY | O_DIRECTORY));
	EXPECT_EQ(-EACCES, check_opened(dfd, "fifo", O_RDONLY | O_NONBLOCK));
	EXPECT_EQ(-EACCES, check_opened(AT_FDCWD, "/dev/null", O_RDONLY));
	/* O_PATH: by the file's mode. */
	EXPECT_EQ(0, check_opened(dfd, "prog", O_PATH));
	EXPECT_EQ(-EACCES, check_opened(dfd, "nx", O_PATH));
	EXPECT_EQ(-ELOOP, check_opened(dfd, "link", O_PATH | O_NOFOLLOW));
	/* A file open for writing, by this very caller: ETXTBSY. */
	fd = openat(dfd, "prog", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-ETXTBSY, check_fd(fd));
	EXPECT_EQ(-ETXTBSY, check_path(dfd, "prog"));
	close(fd);
	EXPECT_EQ(0, check_path(dfd, "prog"));
}

/* memfds by their mode; pipes and sockets are no files to run. */
TEST_F(exec_check, memfd_pipe_socket)
{
	char path[64];
	int fds[2], fd;

	fd = memfd_create("omx", MFD_CLOEXEC);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, check_fd(fd));
	ASSERT_EQ(0, fchmod(fd, 0600));
	EXPECT_EQ(-EACCES, check_fd(fd));
	close(fd);

	ASSERT_EQ(0, pipe2(fds, O_CLOEXEC));
	EXPECT_EQ(-EACCES, check_fd(fds[0]));
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fds[0]);
	EXPECT_EQ(-EACCES, check_path(AT_FDCWD, path));
	close(fds[0]);
	close(fds[1]);

	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds));
	EXPECT_EQ(-EACCES, check_fd(fds[0]));
	close(fds[0]);
	close(fds[1]);
}

/* Only AT_EMPTY_PATH and AT_SYMLINK_NOFOLLOW go with the flag. */
TEST_F(exec_check, other_flags_are_einval)
{
	int dfd = self->ws.dirfd;

	EXPECT_EQ(-EINVAL, check_at(dfd, "prog", AT_EXECVE_CHECK | AT_REMOVEDIR));
	EXPECT_EQ(-EINVAL, check_at(dfd, "prog", AT_EXECVE_CHECK | AT_NO_AUTOMOUNT));
	EXPECT_EQ(-EINVAL, check_at(dfd, "prog", AT_EXECVE_CHECK | 0x40000000));
	EXPECT_EQ(0, check_at(dfd, "prog", AT_EXECVE_CHECK | AT_EMPTY_PATH));
	EXPECT_EQ(0, check_at(dfd, "prog", AT_EXECVE_CHECK | AT_SYMLINK_NOFOLLOW));
}

/* The caller is what it was: same program, pid and credentials. */
TEST_F(exec_check, never_executes)
{
	char before[PATH_MAX], after[PATH_MAX];
	pid_t pid = getpid();
	uid_t uid = geteuid();
	ssize_t n;
	int i;

	n = readlink("/proc/self/exe", before, sizeof(before) - 1);
	ASSERT_LT(0, n);
	before[n] = '\0';
	for (i = 0; i < 100; i++)
		ASSERT_EQ(0, check_path(self->ws.dirfd, "prog"));
	n = readlink("/proc/self/exe", after, sizeof(after) - 1);
	ASSERT_LT(0, n);
	after[n] = '\0';
	EXPECT_STREQ(before, after);
	EXPECT_EQ(pid, getpid());
	EXPECT_EQ(uid, geteuid());
}

/*
 * @rounds checks of files that pass and files that do not, by path and by
 * descriptor: 0 when each answered as expected, else -1 after saying
 * which did not (usable in a forked child, where the harness's ASSERTs
 * are not).
 */
static int check_many(int dfd, int rounds)
{
	static const char *const refused[] = { "nx", "noexec/prog", "dir", "fifo" };
	unsigned int i;
	int fd, ret = 0;

	fd = openat(dfd, "prog", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (rounds-- && !ret) {
		if (check_path(dfd, "prog") || check_fd(fd)) {
			printf("# a check of prog was refused\n");
			ret = -1;
		}
		for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
			if (check_path(dfd, refused[i]) != -EACCES) {
				printf("# a check of %s was not EACCES\n", refused[i]);
				ret = -1;
			}
		}
	}
	close(fd);
	return ret;
}

/* What an exec would change of the calling process. */
struct caller {
	char exe[PATH_MAX];
	pid_t pid;
	uid_t uid[3];
	gid_t gid[3];
	int securebits;
	int fd_flags[256];		/* F_GETFD, or -1: closed */
	struct sigaction act[_NSIG];
	sigset_t mask;
	char maps[16384];
	char status_threads[64];
};

/* One read(2) loop into @buf, NUL-terminated: no allocation in between. */
static void read_proc(const char *path, char *buf, size_t size)
{
	ssize_t n, len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	buf[0] = '\0';
	if (fd < 0)
		return;
	while ((size_t)len < size - 1 &&
	       (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	buf[len] = '\0';
	close(fd);
}

static void snapshot(struct caller *c)
{
	char status[4096], *threads;
	ssize_t n;
	int i;

	memset(c, 0, sizeof(*c));
	n = readlink("/proc/self/exe", c->exe, sizeof(c->exe) - 1);
	if (n > 0)
		c->exe[n] = '\0';
	c->pid = getpid();
	getresuid(&c->uid[0], &c->uid[1], &c->uid[2]);
	getresgid(&c->gid[0], &c->gid[1], &c->gid[2]);
	c->securebits = prctl(PR_GET_SECUREBITS);
	for (i = 0; i < 256; i++)
		c->fd_flags[i] = fcntl(i, F_GETFD);
	for (i = 1; i < _NSIG; i++)
		sigaction(i, NULL, &c->act[i]);
	sigprocmask(SIG_BLOCK, NULL, &c->mask);
	read_proc("/proc/self/maps", c->maps, sizeof(c->maps));
	read_proc("/proc/self/status", status, sizeof(status));
	threads = strstr(status, "Threads:");
	if (threads)
		snprintf(c->status_threads, sizeof(c->status_threads), "%.*s",
			 (int)strcspn(threads, "\n"), threads);
}

static void on_usr1(int sig)
{
	(void)sig;
}

static void *sleeper(void *arg)
{
	char c;

	/* Until the pipe's write end closes: alive across the checks. */
	return read(*(int *)arg, &c, 1) < 0 ? NULL : arg;
}

TEST_F(exec_check, leaves_the_caller_as_it_was)
{
	struct sigaction usr1 = { .sa_handler = on_usr1, .sa_flags = SA_RESTART };
	struct sigaction ign = { .sa_handler = SIG_IGN };
	static struct caller before, after;
	int keep, cloexec, pipefd[2], i;
	char *page;
	sigset_t block;
	pthread_t thread;

	/* State that execve() resets, closes, unmaps or kills. */
	ASSERT_EQ(0, sigaction(SIGUSR1, &usr1, NULL));
	ASSERT_EQ(0, sigaction(SIGUSR2, &ign, NULL));
	sigemptyset(&block);
	sigaddset(&block, SIGHUP);
	ASSERT_EQ(0, sigprocmask(SIG_BLOCK, &block, NULL));
	keep = open("/dev/null", O_RDONLY);
	cloexec = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, keep);
	ASSERT_LE(0, cloexec);
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, page);
	strcpy(page, "still here");
	ASSERT_EQ(0, pipe2(pipefd, O_CLOEXEC));
	ASSERT_EQ(0, pthread_create(&thread, NULL, sleeper, &pipefd[0]));

	/* A first round, so that whatever libc allocates is allocated. */
	ASSERT_EQ(0, check_many(self->ws.dirfd, 1));
	snapshot(&before);
	ASSERT_EQ(0, check_many(self->ws.dirfd, 50));
	snapshot(&after);

	EXPECT_STREQ(before.exe, after.exe);
	EXPECT_EQ(before.pid, after.pid);
	EXPECT_EQ(0, memcmp(before.uid, after.uid, sizeof(before.uid)));
	EXPECT_EQ(0, memcmp(before.gid, after.gid, sizeof(before.gid)));
	EXPECT_EQ(before.securebits, after.securebits);
	for (i = 0; i < 256; i++)
		EXPECT_EQ(before.fd_flags[i], after.fd_flags[i]) TH_LOG("fd %d", i);
	EXPECT_EQ(FD_CLOEXEC, after.fd_flags[cloexec]);
	for (i = 1; i < _NSIG; i++) {
		EXPECT_EQ(before.act[i].sa_handler, after.act[i].sa_handler) TH_LOG("signal %d", i);
		EXPECT_EQ(before.act[i].sa_flags, after.act[i].sa_flags) TH_LOG("signal %d", i);
	}
	EXPECT_EQ((uintptr_t)on_usr1, (uintptr_t)after.act[SIGUSR1].sa_handler);
	EXPECT_EQ(0, memcmp(&before.mask, &after.mask, sizeof(before.mask)));
	EXPECT_STREQ(before.maps, after.maps);
	EXPECT_STREQ("still here", page);
	EXPECT_STREQ(before.status_threads, after.status_threads);
	EXPECT_STREQ("Threads:\t2", after.status_threads);

	close(pipefd[1]);
	pthread_join(thread, NULL);
	close(pipefd[0]);
	munmap(page, 4096);
	close(keep);
	close(cloexec);
	sigprocmask(SIG_UNBLOCK, &block, NULL);
	signal(SIGUSR1, SIG_DFL);
	signal(SIGUSR2, SIG_DFL);
}

/*
 * Under a tracer that asked for exec events (PTRACE_O_TRACEEXEC), the
 * checks of a traced child raise none: the child only ever stops for the
 * SIGSTOP it sends itself, and exits 0.
 */
TEST_F(exec_check, no_exec_event_for_a_tracer)
{
	int status, stops = 0, exec_events = 0;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(100);
		raise(SIGSTOP);
		_exit(check_many(self->ws.dirfd, 20) ? 101 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFSTOPPED(status));
	ASSERT_EQ(0, ptrace(PTRACE_SETOPTIONS, pid, NULL,
			    (void *)(PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL)));
	ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
	for (;;) {
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		if (!WIFSTOPPED(status))
			break;
		stops++;
		if (status >> 8 == (SIGTRAP | (PTRACE_EVENT_EXEC << 8))) {
			exec_events++;
			ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL, NULL));
		} else {
			/* Any other stop: deliver its signal, as a tracer does. */
			ASSERT_EQ(0, ptrace(PTRACE_CONT, pid, NULL,
					    (void *)(long)WSTOPSIG(status)));
		}
	}
	EXPECT_EQ(0, exec_events);
	EXPECT_EQ(0, stops);
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* Without the flag, execveat(2) executes, as ever. */
TEST_F(exec_check, plain_execveat_executes)
{
	EXPECT_EQ(OMX_EXEC_PROBE_STATUS,
		  omx_run_execveat_probe(self->ws.dirfd, "prog"));
}

TEST_HARNESS_MAIN
