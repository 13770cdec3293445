// SPDX-License-Identifier: GPL-2.0
/*
 * The interpreters under an exec-permission listener, as fapolicyd is one:
 * a fanotify FAN_OPEN_EXEC_PERM listener answering FAN_DENY for every
 * file of one mount (an exec mount; the policy is 0, so the module itself
 * refuses nothing).  The module raises the event for O_MAYEXEC opens
 * (fanotify_test), so the opens fail with EPERM, and:
 * - omxsh, omayexec-python3 and omayexec-perl refuse the script there,
 *   with one line that says who denied it, exit 126, before any of it ran
 *   (its marker never written);
 * - a plain open still reads the file (the listener is asked about exec
 *   opens only), and Debian's python3 and perl still run it: the listener
 *   judges what interpreters open as code, not reads.
 * An EPERM is never taken for "not ours to report": CPython would then
 * read the script with a plain fopen(), which the listener allows.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "omx_test.h"
#include "userspace_run.h"

#define DENIED_WHY	"refused: denied by a fanotify listener (fapolicyd) or an LSM: EPERM; only the administrator's security policy can allow it\n"

/*
 * The listener, in a child process: FAN_DENY to every FAN_OPEN_EXEC_PERM
 * event of the mount at @path.  Writes one byte to @ready once marked.
 */
static void listen_and_deny(const char *path, int ready)
{
	char buf[4096] __attribute__((aligned(8)));
	struct fanotify_event_metadata *ev;
	ssize_t len;
	int fan;

	fan = fanotify_init(FAN_CLASS_CONTENT | FAN_CLOEXEC, O_RDONLY | O_CLOEXEC);
	if (fan < 0 || fanotify_mark(fan, FAN_MARK_ADD | FAN_MARK_MOUNT,
				     FAN_OPEN_EXEC_PERM, AT_FDCWD, path))
		_exit(1);
	if (write(ready, "r", 1) != 1)
		_exit(1);
	close(ready);
	for (;;) {
		len = read(fan, buf, sizeof(buf));
		if (len <= 0)
			_exit(len < 0 ? 1 : 0);
		for (ev = (void *)buf; FAN_EVENT_OK(ev, len);
		     ev = FAN_EVENT_NEXT(ev, len)) {
			struct fanotify_response resp = {
				.fd = ev->fd, .response = FAN_DENY,
			};

			close(ev->fd);
			if (write(fan, &resp, sizeof(resp)) != sizeof(resp))
				_exit(1);
		}
	}
}

FIXTURE(listener) {
	struct omx_ws ws;
	char marker[PATH_MAX];
	pid_t pid;
};

FIXTURE_SETUP(listener)
{
	struct omx_ws *ws = &self->ws;
	char text[PATH_MAX * 2];
	int pipefd[2];
	char c;

	self->pid = -1;
	ASSERT_TRUE(omx_module_loaded());
	ASSERT_EQ(0, omx_policy_set(0));
	ASSERT_EQ(0, omx_ws_create(ws));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(ws, "denied", 0));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(ws, "out", 0));
	snprintf(self->marker, sizeof(self->marker), "%s",
		 omx_ws_path(ws, "out/marker"));

	ASSERT_EQ(0, us_write_file(omx_ws_path(ws, "denied/x.omx"),
				   "echo ran x.omx\n", 0755));
	snprintf(text, sizeof(text),
		 "open('%s', 'w').write('x')\nprint('ran x.py')\n", self->marker);
	ASSERT_EQ(0, us_write_file(omx_ws_path(ws, "denied/x.py"), text, 0755));
	snprintf(text, sizeof(text),
		 "BEGIN { open(my $m, '>', '%s') or die }\nprint \"ran x.pl\\n\";\n",
		 self->marker);
	ASSERT_EQ(0, us_write_file(omx_ws_path(ws, "denied/x.pl"), text, 0755));

	ASSERT_EQ(0, pipe2(pipefd, O_CLOEXEC));
	self->pid = fork();
	ASSERT_LE(0, self->pid);
	if (!self->pid) {
		close(pipefd[0]);
		listen_and_deny(omx_ws_path(ws, "denied"), pipefd[1]);
	}
	close(pipefd[1]);
	ASSERT_EQ(1, read(pipefd[0], &c, 1)) TH_LOG("the listener did not start");
	close(pipefd[0]);
}

FIXTURE_TEARDOWN(listener)
{
	if (self->pid > 0) {
		kill(self->pid, SIGKILL);
		waitpid(self->pid, NULL, 0);
	}
	EXPECT_EQ(0, omx_ws_destroy(&self->ws));
}

static void expect_denied(struct __test_metadata *_metadata,
			  FIXTURE_DATA(listener) *self, const char *prog,
			  const char *name, const char *rel)
{
	const char *path = omx_ws_path(&self->ws, rel);
	const char *argv[] = { us_bin(prog), path, NULL };
	char who[64];
	struct us_result r;

	snprintf(who, sizeof(who), "%s: ", name);
	unlink(self->marker);
	us_run(&r, NULL, argv);
	EXPECT_EQ(126, r.status) TH_LOG("%s: %s", prog, r.err);
	EXPECT_STREQ("", r.out);
	EXPECT_EQ(1, us_lines(r.err)) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, who)) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, path)) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, DENIED_WHY)) TH_LOG("%s", r.err);
	EXPECT_NE(0, access(self->marker, F_OK)) TH_LOG("%s ran", rel);
}

TEST_F(listener, omxsh_refuses)
{
	expect_denied(_metadata, self, "omxsh", "omxsh", "denied/x.omx");
}

TEST_F(listener, python_refuses)
{
	expect_denied(_metadata, self, "omayexec-python3", "omayexec-python3",
		      "denied/x.py");
}

TEST_F(listener, perl_refuses)
{
	expect_denied(_metadata, self, "omayexec-perl", "omayexec-perl",
		      "denied/x.pl");
}

/* Reads are not the listener's: a plain open, and plain interpreters. */
TEST_F(listener, reads_and_plain_interpreters_pass)
{
	const char *py[] = { "/usr/bin/python3.11",
			     omx_ws_path(&self->ws, "denied/x.py"), NULL };
	const char *pl[] = { "/usr/bin/perl",
			     omx_ws_path(&self->ws, "denied/x.pl"), NULL };
	struct us_result r;
	int fd;

	fd = open(omx_ws_path(&self->ws, "denied/x.omx"), O_RDONLY | O_CLOEXEC);
	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);
	us_run(&r, NULL, py);
	US_EXPECT_RAN(r, "ran x.py\n");
	us_run(&r, NULL, pl);
	US_EXPECT_RAN(r, "ran x.pl\n");
}

TEST_HARNESS_MAIN
