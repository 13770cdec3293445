// SPDX-License-Identifier: GPL-2.0
/*
 * The 2018 RFC (v1) interface, with the module parameter rfc_v1=1
 * (module/rfc_v1.c), beyond what the seeds' RFC v1 selftest covers:
 * - kernel.yama.open_mayexec_enforce exists only with rfc_v1; it is 0644,
 *   readable by anyone, writable only with CAP_MAC_ADMIN, and takes one
 *   number from 0 to 3 (EINVAL otherwise, the policy unchanged);
 * - open(2) and openat(2) honour O_MAYEXEC with the RFC's semantics:
 *   regular files and directories are checked (directories through the
 *   DAC check, so root may search one), FIFOs, devices and sockets are not
 *   matched; openat(2) with a dirfd as open(2); 32-bit callers (int $0x80,
 *   compat_sys_open and compat_sys_openat) as 64-bit ones;
 * - openat2(2) keeps the v5 semantics and fs.open_mayexec_enforce: the two
 *   sysctls are independent;
 * - O_CREAT, O_TMPFILE and O_PATH with O_MAYEXEC are EINVAL and create
 *   nothing, as with openat2(2);
 * - IMA and the LSMs see an RFC v1 open's access mask as a plain open's
 *   (no private bit of the module's);
 * - an RFC v1 open with the flag is an exec open (fanotify's FAN_OPEN_EXEC;
 *   __FMODE_EXEC in f_flags before 6.8 only, see omx.h), counted in the
 *   stats and audited with interface=open.
 *
 * Needs the module loaded with rfc_v1=1: without it, every test skips
 * (rfc_v1_off_test checks that the interface is then absent).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/fanotify.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "omx_test.h"
#include "omx_audit.h"
#include "omx_stats.h"
#include "module.h"

#define REQUIRE_RFC_V1() do {						\
	if (!omx_rfc_v1_enabled())						\
		SKIP(return, "module loaded without rfc_v1=1");		\
} while (0)

static int yama_write(const char *text)
{
	return lc_write_file(OMX_RFC_V1_SYSCTL, text);
}

static int yama_read(void)
{
	char buf[16];
	int ret = lc_read_file(OMX_RFC_V1_SYSCTL, buf, sizeof(buf));

	return ret ? ret : atoi(buf);
}

static int yama_set(int policy)
{
	char text[16];
	int ret = omx_mac_admin(true);

	if (ret)
		return ret;
	snprintf(text, sizeof(text), "%d", policy);
	ret = yama_write(text);
	if (ret)
		return ret;
	return yama_read() == policy ? 0 : -EIO;
}

/* Both policies, openat2's and open's. */
static int policies_set(int v5, int v1)
{
	return omx_policy_set(v5) ?: yama_set(v1);
}

/* ---- The sysctl and the parameter ----------------------------------- */

TEST(rfc_v1_parameter_is_read_only)
{
	struct stat st;

	REQUIRE_RFC_V1();
	ASSERT_EQ(0, stat(OMX_RFC_V1_PARAM, &st));
	EXPECT_EQ((mode_t)0444, st.st_mode & 07777);
	EXPECT_EQ(-EACCES, lc_write_file(OMX_RFC_V1_PARAM, "N"));
	EXPECT_TRUE(omx_rfc_v1_enabled());
}

static int yama_as_user(void *arg)
{
	int ret = omx_become_user();

	if (ret)
		return 1000 + ret;
	if (arg)
		return yama_write(arg);
	return yama_read();
}

TEST(yama_sysctl_is_0644_and_needs_cap_mac_admin_to_write)
{
	struct stat st;

	REQUIRE_RFC_V1();
	/* Next to Yama's own. */
	ASSERT_EQ(0, access("/proc/sys/kernel/yama/ptrace_scope", F_OK));
	ASSERT_EQ(0, stat(OMX_RFC_V1_SYSCTL, &st));
	EXPECT_TRUE(S_ISREG(st.st_mode));
	EXPECT_EQ((mode_t)0644, st.st_mode & 07777);
	EXPECT_EQ((uid_t)0, st.st_uid);

	ASSERT_EQ(0, yama_set(2));
	/* Anyone reads it, which the v5 sysctl (0600) does not allow. */
	EXPECT_EQ(2, omx_in_child(yama_as_user, NULL));
	EXPECT_EQ(-EACCES, omx_in_child(yama_as_user, "0"));
	/* Root without CAP_MAC_ADMIN opens it but cannot write. */
	ASSERT_EQ(0, omx_mac_admin(false));
	EXPECT_EQ(-EPERM, yama_write("0"));
	EXPECT_EQ(2, yama_read());
	ASSERT_EQ(0, omx_mac_admin(true));
	EXPECT_EQ(0, yama_write("3\n"));
	EXPECT_EQ(3, yama_read());
	EXPECT_EQ(0, yama_set(0));
}

TEST(yama_sysctl_takes_one_number_from_0_to_3)
{
	static const char *const invalid[] = {
		"4", "256", "-1", "abc", "", "\n", "0x1", "1a", "1.0", " 1",
		"4294967297", "99999999999999999999",
	};
	unsigned int i;

	REQUIRE_RFC_V1();
	for (i = 0; i < ARRAY_LEN(invalid); i++) {
		ASSERT_EQ(0, yama_set(i % 4));
		EXPECT_EQ(-EINVAL, yama_write(invalid[i]))
			TH_LOG("writing \"%s\"", invalid[i]);
		EXPECT_EQ((int)i % 4, yama_read());
	}
	EXPECT_EQ(0, yama_set(0));
}

/* ---- Opens -------------------------------------------------------- */

FIXTURE(rfc_v1) {
	struct omx_ws ws;
	int sock;
};

FIXTURE_VARIANT(rfc_v1) {
	int policy;		/* of both sysctls */
};

FIXTURE_VARIANT_ADD(rfc_v1, policy_0) { .policy = 0 };
FIXTURE_VARIANT_ADD(rfc_v1, policy_1) { .policy = 1 };
FIXTURE_VARIANT_ADD(rfc_v1, policy_2) { .policy = 2 };
FIXTURE_VARIANT_ADD(rfc_v1, policy_3) { .policy = 3 };

static int bind_socket(struct omx_ws *ws, const char *rel)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -errno;
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s",
		 omx_ws_path(ws, rel));
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		close(fd);
		return -errno;
	}
	return fd;
}

/*
 * In an exec and a noexec tmpfs: files with and without x bits, directories
 * with and without x bits, a FIFO and a null device; a bound socket in the
 * noexec one.
 */
static void populate(struct __test_metadata *_metadata, struct omx_ws *ws,
		     int *sock)
{
	static const char *const mounts[] = { "exec", "noexec" };
	char path[64];
	unsigned int i;

	*sock = -1;
	ASSERT_EQ(0, omx_ws_create(ws));
	for (i = 0; i < ARRAY_LEN(mounts); i++) {
		const char *m = mounts[i];

#define AT(name) (snprintf(path, sizeof(path), "%s/%s", m, name), path)
		ASSERT_EQ(0, omx_ws_mount_tmpfs(ws, m, i ? MS_NOEXEC : 0));
		ASSERT_EQ(0, omx_ws_file(ws, AT("script"), 0755, 0, 0));
		ASSERT_EQ(0, omx_ws_file(ws, AT("data"), 0644, 0, 0));
		/* x for its owner only, who is not the test user. */
		ASSERT_EQ(0, omx_ws_file(ws, AT("owner_x"), 0744, 2000, 2000));
		ASSERT_EQ(0, mkdirat(ws->dirfd, AT("directory"), 0755));
		ASSERT_EQ(0, mkdirat(ws->dirfd, AT("directory_no_x"), 0644));
		ASSERT_EQ(0, mkfifoat(ws->dirfd, AT("fifo"), 0666));
		ASSERT_EQ(0, mknodat(ws->dirfd, AT("null"), S_IFCHR | 0666,
				     makedev(1, 3)));
#undef AT
	}
	*sock = bind_socket(ws, "noexec/socket");
	ASSERT_LE(0, *sock);
}

static void set_policies(struct __test_metadata *_metadata, int policy)
{
	if (omx_rfc_v1_enabled()) {
		ASSERT_EQ(0, policies_set(policy, policy));
	} else {
		ASSERT_EQ(0, omx_policy_set(policy));
	}
}

static void cleanup(struct __test_metadata *_metadata, struct omx_ws *ws,
		    int sock)
{
	if (sock >= 0)
		close(sock);
	if (omx_rfc_v1_enabled()) {
		EXPECT_EQ(0, yama_set(0));
	}
	EXPECT_EQ(0, omx_policy_set(0));
	EXPECT_EQ(0, omx_ws_destroy(ws));
}

FIXTURE_SETUP(rfc_v1)
{
	populate(_metadata, &self->ws, &self->sock);
	set_policies(_metadata, variant->policy);
}

FIXTURE_TEARDOWN(rfc_v1)
{
	cleanup(_metadata, &self->ws, self->sock);
}

/* The same objects, for the tests that set the policies themselves. */
FIXTURE(interface) {
	struct omx_ws ws;
	int sock;
};

FIXTURE_SETUP(interface)
{
	populate(_metadata, &self->ws, &self->sock);
	set_policies(_metadata, 0);
}

FIXTURE_TEARDOWN(interface)
{
	cleanup(_metadata, &self->ws, self->sock);
}

/* open(2) has no dirfd: through the workspace's absolute path. */
static int v1_open(struct omx_ws *ws, const char *path, int flags)
{
	return omx_probe_open(omx_ws_path(ws, path), flags | O_CLOEXEC);
}

static int v1_openat(struct omx_ws *ws, const char *path, int flags)
{
	return omx_probe_openat(ws->dirfd, path, flags | O_CLOEXEC);
}

#ifdef __x86_64__
/*
 * The same calls by a 32-bit caller: int $0x80 enters the ia32 syscall
 * table (compat_sys_open, compat_sys_openat), whose pointer arguments are
 * 32 bits wide.  The static test binary's .bss lies below 4 GiB.  (An
 * arm64 test binary cannot make arm32 syscalls: those calls are not made
 * there.)
 */
#define IA32_NR_OPEN	5
#define IA32_NR_OPENAT	295

static char ia32_path[PATH_MAX];

static int ia32_syscall(int nr, long arg1, long arg2, long arg3)
{
	long ret;

	asm volatile ("int $0x80"
		      : "=a" (ret)
		      : "a" (nr), "b" (arg1), "c" (arg2), "d" (arg3)
		      : "memory");
	return ret;
}

static int ia32_probe(int fd)
{
	if (fd >= 0)
		close(fd);
	return fd < 0 ? fd : 0;
}

static int v1_ia32_open(struct omx_ws *ws, const char *path, int flags)
{
	snprintf(ia32_path, sizeof(ia32_path), "%s", omx_ws_path(ws, path));
	return ia32_probe(ia32_syscall(IA32_NR_OPEN, (long)ia32_path,
				       flags | O_CLOEXEC, 0));
}

static int v1_ia32_openat(struct omx_ws *ws, const char *path, int flags)
{
	snprintf(ia32_path, sizeof(ia32_path), "%s", path);
	return ia32_probe(ia32_syscall(IA32_NR_OPENAT, ws->dirfd,
				       (long)ia32_path, flags | O_CLOEXEC));
}
#endif

static int v5_openat2(struct omx_ws *ws, const char *path, int flags)
{
	return omx_probe_openat2(ws->dirfd, path, flags | O_CLOEXEC, 0);
}

/*
 * FIFOs, devices and sockets: not matched by the RFC, whatever the mount;
 * the v5 interface refuses them all.
 */
TEST_F(rfc_v1, other_file_types_are_not_matched)
{
	static const struct {
		const char *path;
		int flags;
		int plain;	/* result without O_MAYEXEC */
	} others[] = {
		{ "exec/fifo", O_RDONLY | O_NONBLOCK, 0 },
		{ "noexec/fifo", O_RDONLY | O_NONBLOCK, 0 },
		{ "exec/null", O_RDWR, 0 },
		{ "noexec/null", O_RDWR, 0 },
		{ "noexec/socket", O_RDONLY, -ENXIO },
	};
	unsigned int i;

	REQUIRE_RFC_V1();
	for (i = 0; i < ARRAY_LEN(others); i++) {
		const char *path = others[i].path;
		int flags = others[i].flags;

		EXPECT_EQ(others[i].plain, v1_open(&self->ws, path, flags));
		EXPECT_EQ(others[i].plain,
			  v1_open(&self->ws, path, flags | O_MAYEXEC))
			TH_LOG("open(%s, O_MAYEXEC)", path);
		EXPECT_EQ(others[i].plain,
			  v1_openat(&self->ws, path, flags | O_MAYEXEC))
			TH_LOG("openat(%s, O_MAYEXEC)", path);
		EXPECT_EQ(variant->policy ? -EACCES : others[i].plain,
			  v5_openat2(&self->ws, path, flags | O_MAYEXEC))
			TH_LOG("openat2(%s, O_MAYEXEC)", path);
	}
}

struct object {
	const char *path;
	bool directory, noexec_mount;
	mode_t mode;
	uid_t owner;
};

static const struct object objects[] = {
	{ "exec/script", false, false, 0755, 0 },
	{ "exec/data", false, false, 0644, 0 },
	{ "exec/owner_x", false, false, 0744, 2000 },
	{ "noexec/script", false, true, 0755, 0 },
	{ "noexec/data", false, true, 0644, 0 },
	{ "exec/directory", true, false, 0755, 0 },
	{ "exec/directory_no_x", true, false, 0644, 0 },
	{ "noexec/directory", true, true, 0755, 0 },
};

/*
 * MAY_EXEC as the DAC check gives it (no ACLs here): root with
 * CAP_DAC_OVERRIDE may search any directory and run any file that has an
 * x bit; the others need the x bit of their class (none is in a group of
 * the objects).
 */
static bool dac_may_exec(const struct object *o, enum omx_caller caller)
{
	uid_t uid = caller == OMX_USER ? OMX_USER_UID : 0;

	if (caller == OMX_ROOT)
		return o->directory || (o->mode & 0111);
	return o->mode & (o->owner == uid ? 0100 : 0001);
}

/* The RFC: regular files and directories, the DAC check for the file bit. */
static int v1_expected(int policy, const struct object *o,
		       enum omx_caller caller)
{
	if ((policy & OMAYEXEC_ENFORCE_MOUNT) && o->noexec_mount)
		return -EACCES;
	if ((policy & OMAYEXEC_ENFORCE_FILE) && !dac_may_exec(o, caller))
		return -EACCES;
	return 0;
}

/*
 * v5: regular files only.  For them, inode_permission() gives what the DAC
 * check gives when no LSM says otherwise.
 */
static int v5_expected(int policy, const struct object *o,
		       enum omx_caller caller)
{
	if (policy && o->directory)
		return -EACCES;
	return v1_expected(policy, o, caller);
}

struct probe {
	struct omx_ws *ws;
	enum omx_caller caller;
	const char *path;
	int flags;
	int (*open_fn)(struct omx_ws *ws, const char *path, int flags);
};

static int probe_as(void *arg)
{
	struct probe *p = arg;
	int ret = omx_become(p->caller);

	if (ret)
		return 1000 + ret;
	return p->open_fn(p->ws, p->path, p->flags);
}

TEST_F(rfc_v1, files_and_directories_are_checked)
{
	static const enum omx_caller callers[] = {
		OMX_ROOT, OMX_ROOT_WITHOUT_DAC_OVERRIDE, OMX_USER,
	};
	unsigned int i, c;

	REQUIRE_RFC_V1();
	for (c = 0; c < ARRAY_LEN(callers); c++) {
		for (i = 0; i < ARRAY_LEN(objects); i++) {
			const struct object *o = &objects[i];
			struct probe p = {
				.ws = &self->ws,
				.caller = callers[c],
				.path = o->path,
				.flags = O_RDONLY | O_MAYEXEC |
					 (o->directory ? O_DIRECTORY : 0),
			};
			int v1 = v1_expected(variant->policy, o, callers[c]);

			/* The object opens without the flag. */
			p.open_fn = v1_open;
			p.flags &= ~O_MAYEXEC;
			ASSERT_EQ(0, omx_in_child(probe_as, &p))
				TH_LOG("%s", o->path);
			p.flags |= O_MAYEXEC;
			EXPECT_EQ(v1, omx_in_child(probe_as, &p))
				TH_LOG("open(%s, O_MAYEXEC) by %s", o->path,
				       omx_caller_name(callers[c]));
			p.open_fn = v1_openat;
			EXPECT_EQ(v1, omx_in_child(probe_as, &p))
				TH_LOG("openat(%s, O_MAYEXEC) by %s", o->path,
				       omx_caller_name(callers[c]));
#ifdef __x86_64__
			p.open_fn = v1_ia32_open;
			EXPECT_EQ(v1, omx_in_child(probe_as, &p))
				TH_LOG("32-bit open(%s, O_MAYEXEC) by %s",
				       o->path, omx_caller_name(callers[c]));
			p.open_fn = v1_ia32_openat;
			EXPECT_EQ(v1, omx_in_child(probe_as, &p))
				TH_LOG("32-bit openat(%s, O_MAYEXEC) by %s",
				       o->path, omx_caller_name(callers[c]));
#endif
			p.open_fn = v5_openat2;
			EXPECT_EQ(v5_expected(variant->policy, o, callers[c]),
				  omx_in_child(probe_as, &p))
				TH_LOG("openat2(%s, O_MAYEXEC) by %s", o->path,
				       omx_caller_name(callers[c]));
		}
	}
}

/* Each interface follows its own sysctl only. */
TEST_F(interface, the_two_sysctls_are_independent)
{
	static const struct {
		int v5, v1;
	} pairs[] = { { 3, 0 }, { 0, 3 }, { 1, 2 }, { 2, 1 } };
	unsigned int i;

	REQUIRE_RFC_V1();
	for (i = 0; i < ARRAY_LEN(pairs); i++) {
		int v5 = pairs[i].v5, v1 = pairs[i].v1;

		ASSERT_EQ(0, policies_set(v5, v1));
		EXPECT_EQ(v5, omx_policy_read());
		EXPECT_EQ(v1, yama_read());
		EXPECT_EQ(v1 & OMAYEXEC_ENFORCE_MOUNT ? -EACCES : 0,
			  v1_open(&self->ws, "noexec/script", O_RDONLY | O_MAYEXEC))
			TH_LOG("fs %d, yama %d", v5, v1);
		EXPECT_EQ(v1 & OMAYEXEC_ENFORCE_FILE ? -EACCES : 0,
			  v1_openat(&self->ws, "exec/data", O_RDONLY | O_MAYEXEC))
			TH_LOG("fs %d, yama %d", v5, v1);
		EXPECT_EQ(v5 & OMAYEXEC_ENFORCE_MOUNT ? -EACCES : 0,
			  v5_openat2(&self->ws, "noexec/script", O_RDONLY | O_MAYEXEC))
			TH_LOG("fs %d, yama %d", v5, v1);
		EXPECT_EQ(v5 & OMAYEXEC_ENFORCE_FILE ? -EACCES : 0,
			  v5_openat2(&self->ws, "exec/data", O_RDONLY | O_MAYEXEC))
			TH_LOG("fs %d, yama %d", v5, v1);
	}
}

/* Even under policy 0: the flag is honoured, so it is checked. */
TEST_F(interface, invalid_flags_are_einval_and_create_nothing)
{
	int fd;

	REQUIRE_RFC_V1();
	EXPECT_EQ(-EINVAL, omx_probe_open(omx_ws_path(&self->ws, "exec/new"),
			O_WRONLY | O_CREAT | O_CLOEXEC | O_MAYEXEC));
	fd = openat(self->ws.dirfd, "exec/new2",
		    O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_MAYEXEC, 0755);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, faccessat(self->ws.dirfd, "exec/new", F_OK, 0));
	EXPECT_EQ(-1, faccessat(self->ws.dirfd, "exec/new2", F_OK, 0));
	/* An existing file too: no silent "open without create". */
	EXPECT_EQ(-EINVAL, v1_open(&self->ws, "exec/script",
				   O_RDONLY | O_CREAT | O_MAYEXEC));
	EXPECT_EQ(-EINVAL, v1_openat(&self->ws, "exec",
				     O_RDWR | O_TMPFILE | O_MAYEXEC));
	EXPECT_EQ(-EINVAL, v1_open(&self->ws, "exec/script",
				   O_PATH | O_MAYEXEC));
	EXPECT_EQ(-EINVAL, v1_openat(&self->ws, "exec/directory",
				     O_PATH | O_MAYEXEC));
	/* The controls. */
	EXPECT_EQ(0, v1_open(&self->ws, "exec/new", O_WRONLY | O_CREAT));
	EXPECT_EQ(0, v1_open(&self->ws, "exec/script", O_PATH));
}

TEST_F(interface, mayexec_open_is_an_exec_open)
{
	__u64 mask = 0;
	char buf[4096] __attribute__((aligned(8)));
	struct fanotify_event_metadata *ev;
	ssize_t len;
	int fan, fd;

	REQUIRE_RFC_V1();
	fan = fanotify_init(FAN_CLASS_NOTIF | FAN_CLOEXEC | FAN_NONBLOCK,
			    O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fan);
	ASSERT_EQ(0, fanotify_mark(fan, FAN_MARK_ADD | FAN_MARK_MOUNT,
				   FAN_OPEN_EXEC, AT_FDCWD,
				   omx_ws_path(&self->ws, "exec")));

	fd = open(omx_ws_path(&self->ws, "exec/script"),
		  O_RDONLY | O_CLOEXEC | O_MAYEXEC);
	ASSERT_LE(0, fd);
	EXPECT_EQ(omx_mayexec_open_bits(),
		  omx_fdinfo_flags(fd) & OMX_EXEC_OPEN_BITS)
		TH_LOG("fdinfo flags 0%lo", omx_fdinfo_flags(fd));
	close(fd);
	fd = open(omx_ws_path(&self->ws, "exec/script"), O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, omx_fdinfo_flags(fd) & OMX_EXEC_OPEN_BITS);
	close(fd);

	/* One FAN_OPEN_EXEC: the O_MAYEXEC open's. */
	while ((len = read(fan, buf, sizeof(buf))) > 0) {
		for (ev = (void *)buf; FAN_EVENT_OK(ev, len);
		     ev = FAN_EVENT_NEXT(ev, len)) {
			if (ev->pid == getpid()) {
				EXPECT_EQ(0, mask & ev->mask) TH_LOG("twice");
				mask |= ev->mask;
			}
			close(ev->fd);
		}
	}
	EXPECT_EQ((__u64)FAN_OPEN_EXEC, mask);
	close(fan);
}

#define KERNEL_MAY_EXEC	0x1	/* include/linux/fs.h's MAY_EXEC */

/*
 * An RFC open hands IMA and the LSMs the access mask that a plain open of
 * the same file hands them: do_open() passes the open's acc_mode to IMA's
 * FILE_CHECK (6.1: ima_file_check()) and, from 6.12 on, to every LSM's
 * file_post_open hook, BPF programs included.  The module tells an RFC open
 * from an openat2(2) one by its syscall: no private bit rides in the mask.
 * A kprobe event records the function's mask argument for both opens.
 */
TEST_F(interface, lsms_see_the_mask_of_a_plain_open)
{
	static const char *const funcs[] = {
		"security_file_post_open", "ima_file_check",
	};
	const char *path = omx_ws_path(&self->ws, "exec/script");
	struct omx_kprobe kp = {};
	unsigned long masks[4];
	unsigned int i;
	int ret = -ENOENT, fd, n, status;
	pid_t child;

	REQUIRE_RFC_V1();
	for (i = 0; i < ARRAY_LEN(funcs) && ret; i++)
		ret = omx_kprobe_add_args(&kp, funcs[i], "mask=$arg2:x32");
	if (ret == -ENOENT)
		SKIP(return, "no tracefs with kprobe events");
	ASSERT_EQ(0, ret) TH_LOG("no kprobe on %s or %s", funcs[0], funcs[1]);

	/* The two opens alone, in a child: the probe sees every open. */
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			_exit(1);
		close(fd);
		fd = open(path, O_RDONLY | O_CLOEXEC | O_MAYEXEC);
		_exit(fd < 0 ? 2 : 0);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(0, status) TH_LOG("the opens failed (%d)", status);
	n = omx_kprobe_values(&kp, "mask", child, masks, ARRAY_LEN(masks));
	EXPECT_EQ(0, omx_kprobe_remove(&kp));
	/*
	 * The plain open's hit, then the RFC one's; where the kernel has no
	 * ima_policy_flag the module can read (6.1 arm64), a third: the
	 * module's own second IMA check of the open file, with MAY_EXEC alone
	 * (module/openat2.c), as for a file execve() opens.
	 */
	if (n == 3)
		EXPECT_EQ(KERNEL_MAY_EXEC, masks[2])
			TH_LOG("third hit: mask %#lx", masks[2]);
	ASSERT_TRUE(n == 2 || n == 3)
		TH_LOG("%d hits of %s: the plain open's and the RFC one's",
		       n, funcs[i - 1]);
	EXPECT_EQ(masks[0], masks[1])
		TH_LOG("%s: mask %#lx for a plain open, %#lx with O_MAYEXEC",
		       funcs[i - 1], masks[0], masks[1]);
}

TEST_F(interface, decisions_are_counted_and_audited_as_open)
{
	struct omx_stats before, delta;
	struct omx_audit log;
	char value[PATH_MAX];
	const char *record;

	REQUIRE_RFC_V1();
	ASSERT_EQ(0, omx_audit_open(&log));
	/* The records name the open(2) policy, not openat2's. */
	ASSERT_EQ(0, policies_set(0, 3));
	omx_audit_fresh_window();
	ASSERT_EQ(0, omx_stats_read(&before));

	EXPECT_EQ(0, v1_open(&self->ws, "exec/script", O_RDONLY | O_MAYEXEC));
	EXPECT_EQ(-EACCES, v1_open(&self->ws, "noexec/script",
				   O_RDONLY | O_MAYEXEC));
	EXPECT_EQ(-EACCES, v1_openat(&self->ws, "exec/data",
				     O_RDONLY | O_MAYEXEC));
	/* Not matched: allowed, and counted as such. */
	EXPECT_EQ(0, v1_open(&self->ws, "noexec/fifo",
			     O_RDONLY | O_NONBLOCK | O_MAYEXEC));

	ASSERT_EQ(0, omx_stats_delta(&before, &delta));
	EXPECT_EQ(2, delta.count[OMX_STAT_ALLOWED]) TH_LOG("%s", omx_stats_str(&delta));
	EXPECT_EQ(1, delta.count[OMX_STAT_NOEXEC_MOUNT]);
	EXPECT_EQ(1, delta.count[OMX_STAT_NO_EXEC_PERMISSION]);
	EXPECT_EQ(0, delta.count[OMX_STAT_NOT_REGULAR]);

	ASSERT_EQ(0, omx_audit_sync(&log));
	EXPECT_EQ(2, log.nr);
	record = omx_audit_find_path(&log, omx_ws_path(&self->ws, "noexec/script"));
	ASSERT_NE(NULL, record);
	EXPECT_NE(NULL, strstr(record, "op=open_mayexec res=0 reason=noexec_mount policy=3 interface=open "))
		TH_LOG("%s", record);
	record = omx_audit_find_path(&log, omx_ws_path(&self->ws, "exec/data"));
	ASSERT_NE(NULL, record);
	EXPECT_NE(NULL, strstr(record, "op=open_mayexec res=0 reason=no_exec_permission policy=3 interface=open "))
		TH_LOG("%s", record);
	ASSERT_EQ(0, omx_audit_string(record, "path", value, sizeof(value)));
	omx_audit_close(&log);
}

TEST_HARNESS_MAIN
