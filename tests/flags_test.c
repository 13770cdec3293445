// SPDX-License-Identifier: GPL-2.0
/*
 * The O_MAYEXEC flag itself, under each policy:
 * - openat2(2) accepts it when (and only when) the module is loaded;
 *   open(2) and openat(2) drop it, as on the stock kernel;
 * - it is EINVAL with O_PATH, O_CREAT and O_TMPFILE, and nothing is
 *   created; other invalid openat2 arguments stay EINVAL/E2BIG;
 * - a file opened with it carries O_MAYEXEC in f_flags, and before 6.8
 *   __FMODE_EXEC too (omx_kernel_marks_fmode_exec()), seen in
 *   /proc/self/fdinfo and F_GETFL; on every kernel fanotify reports
 *   FAN_OPEN_EXEC and asks FAN_OPEN_EXEC_PERM listeners.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/fanotify.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "omx_test.h"

FIXTURE(flags) {
	struct omx_ws ws;
};

FIXTURE_VARIANT(flags) {
	int policy;
};

FIXTURE_VARIANT_ADD(flags, policy_0) { .policy = 0 };
FIXTURE_VARIANT_ADD(flags, policy_1) { .policy = 1 };
FIXTURE_VARIANT_ADD(flags, policy_2) { .policy = 2 };
FIXTURE_VARIANT_ADD(flags, policy_3) { .policy = 3 };

FIXTURE_SETUP(flags)
{
	struct omx_ws *ws = &self->ws;

	ASSERT_EQ(0, omx_ws_create(ws));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(ws, "exec", 0));
	ASSERT_EQ(0, omx_ws_file(ws, "exec/script", 0755, 0, 0));
	ASSERT_EQ(0, omx_ws_file(ws, "exec/data", 0644, 0, 0));
	ASSERT_EQ(0, mkdirat(ws->dirfd, "exec/directory", 0755));
	ASSERT_EQ(0, mkfifoat(ws->dirfd, "exec/fifo", 0644));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(ws, "noexec", MS_NOEXEC));
	ASSERT_EQ(0, omx_ws_file(ws, "noexec/script", 0755, 0, 0));
	ASSERT_EQ(0, omx_policy_set(variant->policy));
}

FIXTURE_TEARDOWN(flags)
{
	EXPECT_EQ(0, omx_policy_set(0));
	EXPECT_EQ(0, omx_ws_destroy(&self->ws));
}

/* Objects every policy refuses to O_MAYEXEC (but 0), and how to open them. */
static const struct {
	const char *path;
	int flags;
} refused_objects[] = {
	{ "noexec/script", O_RDONLY },
	{ "exec/data", O_RDONLY },
	{ "exec/directory", O_RDONLY },
	{ "exec/directory", O_RDONLY | O_DIRECTORY },
	{ "exec/fifo", O_RDONLY | O_NONBLOCK },
};

/*
 * @open_fn(path, flags | O_MAYEXEC) opens each object exactly like
 * @open_fn(path, flags): same success, same f_flags.
 */
static void check_bit_ignored(struct __test_metadata *_metadata, int dirfd,
			      int (*open_fn)(int dirfd, const char *path,
					     int flags))
{
	unsigned int i;
	int plain, with_bit;

	for (i = 0; i < ARRAY_LEN(refused_objects); i++) {
		const char *path = refused_objects[i].path;
		int flags = refused_objects[i].flags | O_CLOEXEC;

		plain = open_fn(dirfd, path, flags);
		ASSERT_LE(0, plain) TH_LOG("%s", path);
		with_bit = open_fn(dirfd, path, flags | O_MAYEXEC);
		ASSERT_LE(0, with_bit)
			TH_LOG("%s with O_MAYEXEC: %s", path, strerror(errno));
		EXPECT_EQ(omx_fd_flags(plain), omx_fd_flags(with_bit))
			TH_LOG("%s: f_flags differ", path);
		EXPECT_EQ(0, omx_fd_flags(with_bit) & OMX_EXEC_OPEN_BITS);
		EXPECT_EQ(0, omx_fdinfo_flags(with_bit) & OMX_EXEC_OPEN_BITS);
		close(plain);
		close(with_bit);
	}
}

static int open_relative(int dirfd, const char *path, int flags)
{
	char abs[PATH_MAX];

	/* open(2) takes no dirfd: go through the dirfd's magic link. */
	snprintf(abs, sizeof(abs), "/proc/self/fd/%d/%s", dirfd, path);
	return open(abs, flags);
}

static int openat_relative(int dirfd, const char *path, int flags)
{
	return openat(dirfd, path, flags);
}

TEST_F(flags, open_ignores_o_mayexec)
{
	check_bit_ignored(_metadata, self->ws.dirfd, open_relative);
}

TEST_F(flags, openat_ignores_o_mayexec)
{
	check_bit_ignored(_metadata, self->ws.dirfd, openat_relative);
}

TEST_F(flags, o_path_with_o_mayexec_is_einval)
{
	static const char *const paths[] = {
		"exec/script", "noexec/script", "exec/directory", "exec/fifo",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(paths); i++) {
		EXPECT_EQ(0, omx_probe_openat2(self->ws.dirfd, paths[i],
					       O_PATH | O_CLOEXEC, 0));
		EXPECT_EQ(-EINVAL, omx_probe_openat2(self->ws.dirfd, paths[i],
					O_PATH | O_CLOEXEC | O_MAYEXEC, 0))
			TH_LOG("O_PATH | O_MAYEXEC on %s", paths[i]);
	}
}

static int openat2_mode(int dfd, const char *path, __u64 flags, __u64 mode)
{
	struct open_how how = { .flags = flags, .mode = mode };

	return sys_openat2(dfd, path, &how);
}

TEST_F(flags, o_creat_with_o_mayexec_is_einval_and_creates_nothing)
{
	static const char *const dirs[] = { "exec", "noexec" };
	char path[64];
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(dirs); i++) {
		snprintf(path, sizeof(path), "%s/new", dirs[i]);
		EXPECT_EQ(-EINVAL, openat2_mode(self->ws.dirfd, path,
				O_WRONLY | O_CREAT | O_MAYEXEC, 0755));
		EXPECT_EQ(-EINVAL, openat2_mode(self->ws.dirfd, path,
				O_RDONLY | O_CREAT | O_EXCL | O_MAYEXEC, 0755));
		EXPECT_EQ(-1, faccessat(self->ws.dirfd, path, F_OK, 0))
			TH_LOG("%s was created", path);
		/* An existing file too: no silent "open without create". */
		snprintf(path, sizeof(path), "%s/script", dirs[i]);
		EXPECT_EQ(-EINVAL, openat2_mode(self->ws.dirfd, path,
				O_RDONLY | O_CREAT | O_MAYEXEC, 0755));
	}
	/* The control: the same creation without O_MAYEXEC works. */
	EXPECT_LE(0, openat2_mode(self->ws.dirfd, "exec/new",
				  O_WRONLY | O_CREAT | O_CLOEXEC, 0755));
}

static long inodes_in_use(struct __test_metadata *_metadata, int dirfd,
			  const char *path)
{
	struct statfs st;
	int fd = openat(dirfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0 || fstatfs(fd, &st)) {
		EXPECT_TRUE(false) TH_LOG("statfs %s: %s", path, strerror(errno));
		return -1;
	}
	close(fd);
	return st.f_files - st.f_ffree;
}

TEST_F(flags, o_tmpfile_with_o_mayexec_is_einval_and_creates_nothing)
{
	long before = inodes_in_use(_metadata, self->ws.dirfd, "exec");
	int fd;

	EXPECT_EQ(-EINVAL, openat2_mode(self->ws.dirfd, "exec",
				O_RDWR | O_TMPFILE | O_MAYEXEC, 0755));
	EXPECT_EQ(-EINVAL, openat2_mode(self->ws.dirfd, "noexec",
				O_RDWR | O_TMPFILE | O_MAYEXEC, 0755));
	EXPECT_EQ(before, inodes_in_use(_metadata, self->ws.dirfd, "exec"));

	/* The control: without O_MAYEXEC an inode is created. */
	fd = openat2_mode(self->ws.dirfd, "exec", O_RDWR | O_TMPFILE | O_CLOEXEC,
			  0755);
	ASSERT_LE(0, fd);
	EXPECT_EQ(before + 1, inodes_in_use(_metadata, self->ws.dirfd, "exec"));
	close(fd);
}

/* The stock kernel's argument checks still apply with O_MAYEXEC. */
TEST_F(flags, invalid_arguments_stay_invalid)
{
	int dfd = self->ws.dirfd;
	struct {
		struct open_how how;
		__u64 extra;
	} big = {
		.how.flags = O_RDONLY | O_MAYEXEC,
		.extra = 1,
	};
	struct open_how how = { .flags = O_RDONLY | O_MAYEXEC };

	EXPECT_EQ(-EINVAL, omx_probe_openat2(dfd, "exec/script",
			O_RDONLY | O_MAYEXEC | (1ULL << 40), 0));
	EXPECT_EQ(-EINVAL, omx_probe_openat2(dfd, "exec/script",
			O_RDONLY | O_MAYEXEC | 0x80000000ULL, 0));
	EXPECT_EQ(-EINVAL, omx_probe_openat2(dfd, "exec/script",
			O_RDONLY | O_MAYEXEC, 0x80));
	EXPECT_EQ(-EINVAL, omx_probe_openat2(dfd, "exec/script",
			O_RDONLY | O_MAYEXEC, RESOLVE_BENEATH | RESOLVE_IN_ROOT));
	EXPECT_EQ(-EINVAL, openat2_mode(dfd, "exec/script",
			O_RDONLY | O_MAYEXEC, 0755))
		TH_LOG("a mode without O_CREAT");
	EXPECT_EQ(-EINVAL, raw_openat2(dfd, "exec/script", &how,
				       OPEN_HOW_SIZE_VER0 - 1));
	EXPECT_EQ(-E2BIG, raw_openat2(dfd, "exec/script", &big, sizeof(big)));
	/* The same valid flags with a zeroed extension open fine. */
	big.extra = 0;
	EXPECT_LE(0, raw_openat2(dfd, "exec/script", &big, sizeof(big)));
}

/* __FMODE_EXEC only where AppArmor does not take it for execve(): < 6.8. */
TEST_F(flags, o_mayexec_marks_f_flags)
{
	static const int accmodes[] = { O_RDONLY, O_RDWR };
	const int bits = omx_mayexec_open_bits();
	unsigned int i;
	int fd;

	for (i = 0; i < ARRAY_LEN(accmodes); i++) {
		fd = omx_openat2(self->ws.dirfd, "exec/script",
				 accmodes[i] | O_CLOEXEC | O_MAYEXEC, 0);
		ASSERT_LE(0, fd);
		EXPECT_EQ(bits, omx_fdinfo_flags(fd) & OMX_EXEC_OPEN_BITS)
			TH_LOG("fdinfo flags: 0%lo", omx_fdinfo_flags(fd));
		EXPECT_EQ(bits, omx_fd_flags(fd) & OMX_EXEC_OPEN_BITS);
		close(fd);

		fd = omx_openat2(self->ws.dirfd, "exec/script",
				 accmodes[i] | O_CLOEXEC, 0);
		ASSERT_LE(0, fd);
		EXPECT_EQ(0, omx_fdinfo_flags(fd) & OMX_EXEC_OPEN_BITS)
			TH_LOG("plain openat2: fdinfo flags 0%lo",
			       omx_fdinfo_flags(fd));
		EXPECT_EQ(0, omx_fd_flags(fd) & OMX_EXEC_OPEN_BITS);
		close(fd);
	}
}

static long file_size(int dirfd, const char *path)
{
	struct stat st;

	return fstatat(dirfd, path, &st, 0) ? -errno : st.st_size;
}

/*
 * A refused O_MAYEXEC open has no side effect: O_TRUNC truncates nothing.
 * (do_open() truncates after may_open(); the refusal must come first.)
 */
TEST_F(flags, refused_open_does_not_truncate)
{
	static const struct {
		const char *path;
		int refused_by;		/* policy bits that refuse it */
	} files[] = {
		{ "noexec/script", OMAYEXEC_ENFORCE_MOUNT },
		{ "exec/data", OMAYEXEC_ENFORCE_FILE },
		{ "exec/script", 0 },
	};
	unsigned int i;
	long size;

	for (i = 0; i < ARRAY_LEN(files); i++) {
		bool refused = variant->policy & files[i].refused_by;

		size = file_size(self->ws.dirfd, files[i].path);
		ASSERT_LT(0, size);
		EXPECT_EQ(refused ? -EACCES : 0,
			  omx_probe_openat2(self->ws.dirfd, files[i].path,
				O_WRONLY | O_TRUNC | O_CLOEXEC | O_MAYEXEC, 0))
			TH_LOG("O_TRUNC | O_MAYEXEC on %s", files[i].path);
		EXPECT_EQ(refused ? size : 0,
			  file_size(self->ws.dirfd, files[i].path))
			TH_LOG("size of %s", files[i].path);
	}
}

/* Masks of the events of this process waiting on @fan (fds closed). */
static __u64 fanotify_events(int fan)
{
	char buf[4096] __attribute__((aligned(8)));
	struct fanotify_event_metadata *ev;
	__u64 mask = 0;
	ssize_t len;

	while ((len = read(fan, buf, sizeof(buf))) > 0) {
		for (ev = (void *)buf; FAN_EVENT_OK(ev, len);
		     ev = FAN_EVENT_NEXT(ev, len)) {
			if (ev->pid == getpid())
				mask |= ev->mask;
			if (ev->fd >= 0)
				close(ev->fd);
		}
	}
	return mask;
}

TEST_F(flags, fanotify_reports_open_exec)
{
	int fan, fd;
	__u64 mask;

	fan = fanotify_init(FAN_CLASS_NOTIF | FAN_CLOEXEC | FAN_NONBLOCK,
			    O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fan);
	ASSERT_EQ(0, fanotify_mark(fan, FAN_MARK_ADD | FAN_MARK_MOUNT,
				   FAN_OPEN | FAN_OPEN_EXEC, AT_FDCWD,
				   omx_ws_path(&self->ws, "exec")));
	EXPECT_EQ((__u64)0, fanotify_events(fan));

	EXPECT_EQ(0, omx_probe_openat2(self->ws.dirfd, "exec/script",
				       O_RDONLY | O_CLOEXEC, 0));
	mask = fanotify_events(fan);
	EXPECT_EQ((__u64)FAN_OPEN, mask) TH_LOG("plain openat2: mask 0x%llx", mask);

	EXPECT_EQ(0, omx_probe_openat2(self->ws.dirfd, "exec/script",
				       O_RDONLY | O_CLOEXEC | O_MAYEXEC, 0));
	mask = fanotify_events(fan);
	EXPECT_EQ((__u64)(FAN_OPEN | FAN_OPEN_EXEC), mask)
		TH_LOG("O_MAYEXEC openat2: mask 0x%llx", mask);

	fd = openat(self->ws.dirfd, "exec/script",
		    O_RDONLY | O_CLOEXEC | O_MAYEXEC);
	ASSERT_LE(0, fd);
	close(fd);
	mask = fanotify_events(fan);
	EXPECT_EQ((__u64)FAN_OPEN, mask) TH_LOG("openat(O_MAYEXEC): mask 0x%llx", mask);

	/* A refused open is no open at all. */
	if (variant->policy & OMAYEXEC_ENFORCE_FILE) {
		EXPECT_EQ(-EACCES, omx_probe_openat2(self->ws.dirfd, "exec/data",
				O_RDONLY | O_CLOEXEC | O_MAYEXEC, 0));
		EXPECT_EQ((__u64)0, fanotify_events(fan));
	}
	close(fan);
}

/* A fanotify permission listener that denies every event it is asked. */
struct exec_perm_denier {
	int fan;
	atomic_int asked;
	atomic_bool stop;
};

static void *deny_exec_opens(void *arg)
{
	struct exec_perm_denier *d = arg;
	char buf[4096] __attribute__((aligned(8)));
	struct fanotify_event_metadata *ev;
	struct pollfd pfd = { .fd = d->fan, .events = POLLIN };
	ssize_t len;

	while (!atomic_load(&d->stop)) {
		if (poll(&pfd, 1, 50) <= 0)
			continue;
		len = read(d->fan, buf, sizeof(buf));
		for (ev = (void *)buf; len > 0 && FAN_EVENT_OK(ev, len);
		     ev = FAN_EVENT_NEXT(ev, len)) {
			struct fanotify_response resp = {
				.fd = ev->fd,
				.response = FAN_DENY,
			};

			if (ev->mask & FAN_OPEN_EXEC_PERM)
				atomic_fetch_add(&d->asked, 1);
			if (write(d->fan, &resp, sizeof(resp)) != sizeof(resp))
				break;
			close(ev->fd);
		}
	}
	return NULL;
}

/* What fapolicyd does with exec opens works for O_MAYEXEC opens. */
TEST_F(flags, fanotify_open_exec_perm_can_deny)
{
	struct exec_perm_denier d = {};
	pthread_t thread;

	d.fan = fanotify_init(FAN_CLASS_CONTENT | FAN_CLOEXEC,
			      O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, d.fan);
	ASSERT_EQ(0, fanotify_mark(d.fan, FAN_MARK_ADD | FAN_MARK_MOUNT,
				   FAN_OPEN_EXEC_PERM, AT_FDCWD,
				   omx_ws_path(&self->ws, "exec")));
	ASSERT_EQ(0, pthread_create(&thread, NULL, deny_exec_opens, &d));

	EXPECT_EQ(-EPERM, omx_probe_openat2(self->ws.dirfd, "exec/script",
				O_RDONLY | O_CLOEXEC | O_MAYEXEC, 0));
	EXPECT_EQ(1, atomic_load(&d.asked));
	/* Opens without the bit are not exec opens: nobody is asked. */
	EXPECT_EQ(0, omx_probe_openat2(self->ws.dirfd, "exec/script",
				       O_RDONLY | O_CLOEXEC, 0));
	EXPECT_EQ(0, omx_probe_openat(self->ws.dirfd, "exec/script",
				      O_RDONLY | O_CLOEXEC | O_MAYEXEC));
	EXPECT_EQ(1, atomic_load(&d.asked));

	atomic_store(&d.stop, true);
	pthread_join(thread, NULL);
	close(d.fan);
}

/* Accepted with the module loaded, EINVAL (stock) without it. */
TEST(o_mayexec_is_accepted_only_with_the_module)
{
	int expected = omx_module_loaded() ? 0 : -EINVAL;

	TH_LOG("module %s", omx_module_loaded() ? "loaded" : "not loaded");
	if (omx_module_loaded())
		ASSERT_EQ(0, omx_policy_set(0));
	EXPECT_EQ(expected, omx_probe_openat2(AT_FDCWD, "/proc/self/exe",
					      O_RDONLY | O_MAYEXEC, 0));
	EXPECT_EQ(0, omx_probe_openat2(AT_FDCWD, "/proc/self/exe", O_RDONLY, 0));
	EXPECT_EQ(0, omx_probe_openat(AT_FDCWD, "/proc/self/exe",
				      O_RDONLY | O_MAYEXEC));
}

TEST_HARNESS_MAIN
