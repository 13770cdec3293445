// SPDX-License-Identifier: GPL-2.0
/*
 * The open notifications of an O_MAYEXEC open, as of a plain one (the
 * permission events are fanotify_test's):
 * - fanotify (FAN_CLASS_NOTIF, a mount mark or a mark on the file): an
 *   O_MAYEXEC open raises FAN_OPEN once and FAN_OPEN_EXEC once; a plain
 *   openat2(2) or open(2) raises FAN_OPEN once and no FAN_OPEN_EXEC;
 * - inotify: every open raises IN_OPEN exactly once.
 *
 * Why both: since 6.8 vfs_open() raises FS_OPEN itself, where 6.1 left it to
 * do_sys_openat2(), which the module stands in for; a module doing both
 * would notify every O_MAYEXEC open twice.  fanotify cannot show that: it
 * merges a notification event into any identical one still queued (same
 * file, same process), so two FS_OPENs read as one FAN_OPEN.  inotify only
 * merges an event into the LAST one queued: with one watch on the file and
 * one on its directory, each FS_OPEN queues two events (directory, then
 * file) and a second FS_OPEN shows as a second pair.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sys/fanotify.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <unistd.h>

#include "omx_test.h"

FIXTURE(open_events) {
	struct omx_ws ws;
};

FIXTURE_VARIANT(open_events) {
	int policy;
	unsigned int fan_mark;	/* FAN_MARK_MOUNT, or 0: a mark on the file */
};

FIXTURE_VARIANT_ADD(open_events, policy_0_mount_mark) { 0, FAN_MARK_MOUNT };
FIXTURE_VARIANT_ADD(open_events, policy_3_mount_mark) { 3, FAN_MARK_MOUNT };
FIXTURE_VARIANT_ADD(open_events, policy_0_file_mark) { 0, 0 };
FIXTURE_VARIANT_ADD(open_events, policy_3_file_mark) { 3, 0 };

FIXTURE_SETUP(open_events)
{
	ASSERT_EQ(0, omx_ws_create(&self->ws));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(&self->ws, "exec", 0));
	ASSERT_EQ(0, omx_ws_file(&self->ws, "exec/script", 0755, 0, 0));
	/* The file every policy lets through. */
	ASSERT_EQ(0, omx_policy_set(variant->policy));
}

FIXTURE_TEARDOWN(open_events)
{
	EXPECT_EQ(0, omx_policy_set(0));
	EXPECT_EQ(0, omx_ws_destroy(&self->ws));
}

enum open_kind { PLAIN_OPENAT2, PLAIN_OPEN, MAYEXEC_OPENAT2 };

static const char *const kind_name[] = {
	[PLAIN_OPENAT2] = "plain openat2",
	[PLAIN_OPEN] = "open(2)",
	[MAYEXEC_OPENAT2] = "O_MAYEXEC openat2",
};

/* Opens exec/script once the @kind way and closes it: 0 or -errno. */
static int open_once(struct omx_ws *ws, enum open_kind kind)
{
	switch (kind) {
	case PLAIN_OPENAT2:
		return omx_probe_openat2(ws->dirfd, "exec/script",
					 O_RDONLY | O_CLOEXEC, 0);
	case PLAIN_OPEN:
		return omx_probe_open(omx_ws_path(ws, "exec/script"),
				      O_RDONLY | O_CLOEXEC);
	case MAYEXEC_OPENAT2:
		return omx_probe_openat2(ws->dirfd, "exec/script",
					 O_RDONLY | O_CLOEXEC | O_MAYEXEC, 0);
	}
	return -EINVAL;
}

/*
 * Reads what @fan has queued: how many of this process's events carry
 * FAN_OPEN and how many FAN_OPEN_EXEC (one event may carry both).
 */
static int fanotify_count(int fan, int *open, int *open_exec)
{
	char buf[4096] __attribute__((aligned(8)));
	struct fanotify_event_metadata *ev;
	ssize_t len;

	*open = *open_exec = 0;
	while ((len = read(fan, buf, sizeof(buf))) > 0) {
		for (ev = (void *)buf; FAN_EVENT_OK(ev, len);
		     ev = FAN_EVENT_NEXT(ev, len)) {
			if (ev->fd >= 0)
				close(ev->fd);
			if (ev->vers != FANOTIFY_METADATA_VERSION)
				return -EPROTO;
			if (ev->pid != getpid())
				continue;
			*open += !!(ev->mask & FAN_OPEN);
			*open_exec += !!(ev->mask & FAN_OPEN_EXEC);
		}
	}
	return len < 0 && errno != EAGAIN ? -errno : 0;
}

TEST_F(open_events, fanotify_one_open_event_and_exec_only_with_o_mayexec)
{
	enum open_kind kind;
	int fan, open, open_exec;

	fan = fanotify_init(FAN_CLASS_NOTIF | FAN_CLOEXEC | FAN_NONBLOCK,
			    O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fan);
	ASSERT_EQ(0, fanotify_mark(fan, FAN_MARK_ADD | variant->fan_mark,
				   FAN_OPEN | FAN_OPEN_EXEC, self->ws.dirfd,
				   variant->fan_mark ? "exec" : "exec/script"));
	ASSERT_EQ(0, fanotify_count(fan, &open, &open_exec));
	ASSERT_EQ(0, open + open_exec);

	for (kind = PLAIN_OPENAT2; kind <= MAYEXEC_OPENAT2; kind++) {
		ASSERT_EQ(0, open_once(&self->ws, kind)) TH_LOG("%s", kind_name[kind]);
		ASSERT_EQ(0, fanotify_count(fan, &open, &open_exec));
		EXPECT_EQ(1, open) TH_LOG("%s: %d FAN_OPEN", kind_name[kind], open);
		EXPECT_EQ(kind == MAYEXEC_OPENAT2, open_exec)
			TH_LOG("%s: %d FAN_OPEN_EXEC", kind_name[kind], open_exec);
	}
	close(fan);
}

/*
 * Reads what @ino has queued: the IN_OPEN events of watch @dir_wd named
 * "script", and those of watch @file_wd (no name); any other is -EPROTO.
 */
static int inotify_count(int ino, int dir_wd, int file_wd, int *on_dir,
			 int *on_file)
{
	char buf[4096] __attribute__((aligned(8)));
	struct inotify_event *ev;
	ssize_t len, off;

	*on_dir = *on_file = 0;
	while ((len = read(ino, buf, sizeof(buf))) > 0) {
		for (off = 0; off < len; off += sizeof(*ev) + ev->len) {
			ev = (void *)(buf + off);
			if (ev->mask != IN_OPEN)
				return -EPROTO;
			if (ev->wd == dir_wd && ev->len && !strcmp(ev->name, "script"))
				(*on_dir)++;
			else if (ev->wd == file_wd && !ev->len)
				(*on_file)++;
			else
				return -EPROTO;
		}
	}
	return len < 0 && errno != EAGAIN ? -errno : 0;
}

TEST_F(open_events, inotify_one_in_open_per_open)
{
	int ino, dir_wd, file_wd, on_dir, on_file;
	enum open_kind kind;

	ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	ASSERT_LE(0, ino);
	dir_wd = inotify_add_watch(ino, omx_ws_path(&self->ws, "exec"), IN_OPEN);
	ASSERT_LE(0, dir_wd);
	file_wd = inotify_add_watch(ino, omx_ws_path(&self->ws, "exec/script"),
				    IN_OPEN);
	ASSERT_LE(0, file_wd);
	ASSERT_EQ(0, inotify_count(ino, dir_wd, file_wd, &on_dir, &on_file));
	ASSERT_EQ(0, on_dir + on_file);

	for (kind = PLAIN_OPENAT2; kind <= MAYEXEC_OPENAT2; kind++) {
		ASSERT_EQ(0, open_once(&self->ws, kind)) TH_LOG("%s", kind_name[kind]);
		ASSERT_EQ(0, inotify_count(ino, dir_wd, file_wd, &on_dir, &on_file));
		EXPECT_EQ(1, on_dir) TH_LOG("%s: %d IN_OPEN on the directory",
					    kind_name[kind], on_dir);
		EXPECT_EQ(1, on_file) TH_LOG("%s: %d IN_OPEN on the file",
					     kind_name[kind], on_file);
	}
	/* Two opens are two pairs: nothing merges them. */
	ASSERT_EQ(0, open_once(&self->ws, PLAIN_OPENAT2));
	ASSERT_EQ(0, open_once(&self->ws, PLAIN_OPENAT2));
	ASSERT_EQ(0, inotify_count(ino, dir_wd, file_wd, &on_dir, &on_file));
	EXPECT_EQ(2, on_dir);
	EXPECT_EQ(2, on_file);
	close(ino);
}

TEST_HARNESS_MAIN
