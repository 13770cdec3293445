// SPDX-License-Identifier: GPL-2.0
/*
 * A fapolicyd-style fanotify permission listener judging O_MAYEXEC opens
 * (what flags_test does not already cover: that a FAN_DENY answer is
 * EPERM, and that plain opens raise no FAN_OPEN_EXEC_PERM event):
 * - FAN_ALLOW lets the open through, and the event names the opening
 *   process and the file;
 * - the policy is asked first: a refused open (EACCES) never reaches the
 *   listener; an allowed one does, and a FAN_DENY answer leaves no fd and
 *   truncates nothing;
 * - a listener of both FAN_OPEN_PERM and FAN_OPEN_EXEC_PERM tells exec
 *   opens from reads: an O_MAYEXEC open raises both events, a plain one
 *   only FAN_OPEN_PERM, so denying exec events alone refuses O_MAYEXEC
 *   opens and nothing else.
 * Before 6.8 the kernel raises the exec events, from the __FMODE_EXEC the
 * module puts in f_flags; from 6.8 on the module raises them itself
 * (omx_kernel_marks_fmode_exec() in omx.h says why), the permission event
 * before the file is opened, as execve() does: the listener sees the same
 * events in the same order on every kernel.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/fanotify.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "omx_test.h"

#define MAX_EVENTS	64

struct event {
	__u64 mask;
	pid_t pid;
	char path[PATH_MAX];
};

/* A permission listener on a thread of the test process. */
struct listener {
	int fan;
	__u64 deny;			/* answer FAN_DENY to these events */
	pthread_t thread;
	atomic_bool stop;
	pthread_mutex_t lock;
	struct event events[MAX_EVENTS];	/* this process's, in order */
	int nr;
};

static void *listen_loop(void *arg)
{
	char buf[4096] __attribute__((aligned(8)));
	struct listener *l = arg;
	struct pollfd pfd = { .fd = l->fan, .events = POLLIN };
	struct fanotify_event_metadata *ev;
	ssize_t len;

	while (!atomic_load(&l->stop)) {
		if (poll(&pfd, 1, 50) <= 0)
			continue;
		len = read(l->fan, buf, sizeof(buf));
		for (ev = (void *)buf; len > 0 && FAN_EVENT_OK(ev, len);
		     ev = FAN_EVENT_NEXT(ev, len)) {
			struct fanotify_response resp = {
				.fd = ev->fd,
				.response = ev->mask & l->deny ? FAN_DENY :
								 FAN_ALLOW,
			};
			char link[64];

			pthread_mutex_lock(&l->lock);
			if (ev->pid == getpid() && l->nr < MAX_EVENTS) {
				struct event *e = &l->events[l->nr++];

				e->mask = ev->mask;
				e->pid = ev->pid;
				snprintf(link, sizeof(link), "/proc/self/fd/%d",
					 ev->fd);
				len = readlink(link, e->path, sizeof(e->path) - 1);
				e->path[len < 0 ? 0 : len] = '\0';
			}
			pthread_mutex_unlock(&l->lock);
			/*
			 * The response names the event by its fd number only:
			 * close the fd first, so that the opener, once
			 * answered, finds its fd table as it was.
			 */
			close(ev->fd);
			if (write(l->fan, &resp, sizeof(resp)) != sizeof(resp))
				break;
		}
	}
	return NULL;
}

static int listener_start(struct listener *l, struct omx_ws *ws, __u64 mask,
			  __u64 deny)
{
	static const char *const mounts[] = { "exec", "noexec" };
	unsigned int i;

	l->fan = fanotify_init(FAN_CLASS_CONTENT | FAN_CLOEXEC,
			       O_RDONLY | O_CLOEXEC);
	if (l->fan < 0)
		return -errno;
	for (i = 0; i < ARRAY_LEN(mounts); i++)
		if (fanotify_mark(l->fan, FAN_MARK_ADD | FAN_MARK_MOUNT, mask,
				  AT_FDCWD, omx_ws_path(ws, mounts[i])))
			return -errno;
	l->deny = deny;
	pthread_mutex_init(&l->lock, NULL);
	return -pthread_create(&l->thread, NULL, listen_loop, l);
}

static void listener_stop(struct listener *l)
{
	if (l->fan <= 0)
		return;
	atomic_store(&l->stop, true);
	pthread_join(l->thread, NULL);
	close(l->fan);
	l->fan = -1;
}

/* The events of this process so far, forgotten once taken. */
static int listener_take(struct listener *l, struct event *events)
{
	int nr;

	pthread_mutex_lock(&l->lock);
	nr = l->nr;
	memcpy(events, l->events, nr * sizeof(*events));
	l->nr = 0;
	pthread_mutex_unlock(&l->lock);
	return nr;
}

FIXTURE(fanotify) {
	struct omx_ws ws;
	struct listener listener;
};

FIXTURE_VARIANT(fanotify) {
	int policy;
};

FIXTURE_VARIANT_ADD(fanotify, policy_0) { .policy = 0 };
FIXTURE_VARIANT_ADD(fanotify, policy_1) { .policy = 1 };
FIXTURE_VARIANT_ADD(fanotify, policy_2) { .policy = 2 };
FIXTURE_VARIANT_ADD(fanotify, policy_3) { .policy = 3 };

FIXTURE_SETUP(fanotify)
{
	struct omx_ws *ws = &self->ws;

	self->listener.fan = -1;
	ASSERT_EQ(0, omx_ws_create(ws));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(ws, "exec", 0));
	ASSERT_EQ(0, omx_ws_file(ws, "exec/script", 0755, 0, 0));
	ASSERT_EQ(0, omx_ws_file(ws, "exec/data", 0644, 0, 0));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(ws, "noexec", MS_NOEXEC));
	ASSERT_EQ(0, omx_ws_file(ws, "noexec/script", 0755, 0, 0));
	ASSERT_EQ(0, omx_policy_set(variant->policy));
}

FIXTURE_TEARDOWN(fanotify)
{
	listener_stop(&self->listener);
	EXPECT_EQ(0, omx_policy_set(0));
	EXPECT_EQ(0, omx_ws_destroy(&self->ws));
}

static const struct {
	const char *path;
	int refused_by;		/* policy bits that refuse it */
} files[] = {
	{ "exec/script", 0 },
	{ "exec/data", OMAYEXEC_ENFORCE_FILE },
	{ "noexec/script", OMAYEXEC_ENFORCE_MOUNT },
};

static int mayexec(struct omx_ws *ws, const char *path, int flags)
{
	return omx_openat2(ws->dirfd, path, flags | O_CLOEXEC | O_MAYEXEC, 0);
}

TEST_F(fanotify, allow_lets_the_open_through)
{
	struct event events[MAX_EVENTS];
	char buf[10] = {};
	unsigned int i;
	int fd, nr;

	ASSERT_EQ(0, listener_start(&self->listener, &self->ws,
				    FAN_OPEN_EXEC_PERM, 0));
	for (i = 0; i < ARRAY_LEN(files); i++) {
		if (variant->policy & files[i].refused_by)
			continue;
		fd = mayexec(&self->ws, files[i].path, O_RDONLY);
		ASSERT_LE(0, fd) TH_LOG("%s: %s", files[i].path, strerror(-fd));
		EXPECT_EQ(9, read(fd, buf, 9));
		EXPECT_STREQ("#!/bin/sh", buf);
		close(fd);
		nr = listener_take(&self->listener, events);
		ASSERT_EQ(1, nr) TH_LOG("%s", files[i].path);
		EXPECT_EQ((__u64)FAN_OPEN_EXEC_PERM, events[0].mask);
		EXPECT_EQ(getpid(), events[0].pid);
		EXPECT_STREQ(omx_ws_path(&self->ws, files[i].path),
			     events[0].path);
	}
}

static int open_fds(void)
{
	struct dirent *de;
	DIR *dir = opendir("/proc/self/fd");
	int n = 0;

	if (!dir)
		return -errno;
	while ((de = readdir(dir)))
		n += de->d_name[0] != '.';
	closedir(dir);
	return n;
}

static long file_size(int dirfd, const char *path)
{
	struct stat st;

	return fstatat(dirfd, path, &st, 0) ? -errno : st.st_size;
}

TEST_F(fanotify, policy_is_asked_before_the_listener)
{
	struct event events[MAX_EVENTS];
	unsigned int i;
	int fds, nr;

	ASSERT_EQ(0, listener_start(&self->listener, &self->ws,
				    FAN_OPEN_EXEC_PERM, FAN_OPEN_EXEC_PERM));
	for (i = 0; i < ARRAY_LEN(files); i++) {
		bool refused = variant->policy & files[i].refused_by;
		long size = file_size(self->ws.dirfd, files[i].path);

		fds = open_fds();
		EXPECT_EQ(refused ? -EACCES : -EPERM,
			  mayexec(&self->ws, files[i].path, O_RDONLY))
			TH_LOG("%s", files[i].path);
		/* Denied with O_TRUNC: no side effect either. */
		EXPECT_EQ(refused ? -EACCES : -EPERM,
			  mayexec(&self->ws, files[i].path, O_WRONLY | O_TRUNC))
			TH_LOG("%s with O_TRUNC", files[i].path);
		EXPECT_EQ(size, file_size(self->ws.dirfd, files[i].path));
		EXPECT_EQ(fds, open_fds());
		nr = listener_take(&self->listener, events);
		EXPECT_EQ(refused ? 0 : 2, nr)
			TH_LOG("%s: the listener was asked %d times",
			       files[i].path, nr);
	}
}

/* fapolicyd's way: judge exec opens, let every other open through. */
TEST_F(fanotify, exec_events_tell_mayexec_opens_from_reads)
{
	struct event events[MAX_EVENTS];
	int nr;

	ASSERT_EQ(0, listener_start(&self->listener, &self->ws,
				    FAN_OPEN_PERM | FAN_OPEN_EXEC_PERM,
				    FAN_OPEN_EXEC_PERM));

	EXPECT_EQ(0, omx_probe_openat2(self->ws.dirfd, "exec/script",
				       O_RDONLY | O_CLOEXEC, 0));
	nr = listener_take(&self->listener, events);
	ASSERT_EQ(1, nr);
	EXPECT_EQ((__u64)FAN_OPEN_PERM, events[0].mask);

	/* The exec event comes first, and a denial stops there. */
	EXPECT_EQ(-EPERM, mayexec(&self->ws, "exec/script", O_RDONLY));
	nr = listener_take(&self->listener, events);
	ASSERT_EQ(1, nr) TH_LOG("denied at its exec event, no open event");
	EXPECT_EQ((__u64)FAN_OPEN_EXEC_PERM, events[0].mask);

	/* Exec events allowed too: both events, once each. */
	self->listener.deny = 0;
	EXPECT_EQ(0, omx_probe_openat2(self->ws.dirfd, "exec/script",
				       O_RDONLY | O_CLOEXEC | O_MAYEXEC, 0));
	nr = listener_take(&self->listener, events);
	ASSERT_EQ(2, nr);
	EXPECT_EQ((__u64)FAN_OPEN_EXEC_PERM, events[0].mask);
	EXPECT_EQ((__u64)FAN_OPEN_PERM, events[1].mask);
}

TEST_HARNESS_MAIN
