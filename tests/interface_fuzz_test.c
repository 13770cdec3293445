// SPDX-License-Identifier: GPL-2.0
/*
 * The module's system-call interface against random structured input, with
 * a differential oracle.
 *
 * Each round builds a random openat2(2) call: a directory descriptor of
 * every kind (AT_FDCWD, a directory, an O_PATH one, a file, a bad number),
 * a path to an object of every kind (regular files with and without x bits,
 * on an exec and a noexec tmpfs, a directory, a FIFO, a socket, symlinks to
 * each and in a loop, /dev/null, /proc files, the magic links of a memfd and
 * of a pipe, a missing name, an empty and an overlong path), any of the
 * open flags with O_MAYEXEC, now and then an unknown bit, a mode, any
 * RESOLVE_ bits, and a struct size that is short, exact, or long with a
 * zero or non-zero tail.  The call is made with O_MAYEXEC and again
 * without it, and the two results must agree as the module promises
 * (module/may_open.c, openat2.c):
 *
 *  - with O_CREAT, O_TMPFILE or O_PATH, the flag gets EINVAL (after the
 *    struct's own size errors, which both calls share);
 *  - where the plain open fails, the flagged one fails the same way: the
 *    stock checks run first and the policy can only add EACCES; it may be
 *    EACCES instead where the plain open failed only after may_open() (the
 *    object's own open: ENXIO, EINVAL, ETXTBSY...) and the policy refuses
 *    the object;
 *  - where the plain open succeeds, the flagged one succeeds, on the same
 *    inode, exactly when the policy allows the object: any object at
 *    policy 0; otherwise a regular file, not on a noexec mount or file
 *    system (bit 1), that the caller may execute as its mode bits say
 *    (bit 2); else EACCES.
 *
 * The object is what an O_PATH open with the same path, descriptor and
 * resolve bits (and O_NOFOLLOW, O_DIRECTORY) finds.  Each round also asks
 * execveat(AT_EXECVE_CHECK) with random extra flags about a random path: it
 * must never run anything (a check that ran a copy of this program would
 * end it with OMX_EXEC_PROBE_STATUS), unknown flags are EINVAL, and the
 * exact flag on a regular file answers 0 exactly when the caller may
 * execute it, else EACCES.
 *
 * With the module reloaded with rfc_v1=1 (the rfc_v1_* variants), half the
 * rounds are open(2) or openat(2) calls instead, judged the same way by the
 * 2018 RFC's rules (kernel.yama.open_mayexec_enforce): directories are
 * checked too (the DAC check, so root may search any), FIFOs, devices and
 * sockets are not, and unknown flags are dropped, not refused.
 *
 * Variants: each policy as root, and the file policies as a user without
 * capabilities; the RFC's with policies 1 and 3, and 3 as a user.  The policy stays fixed during a variant, so every
 * disagreement is a bug, not a race (soak_test changes policies under
 * load; trinity_fuzz_test hammers everything).  OMX_FUZZ_SECONDS (default
 * 3) sets each variant's time, OMX_FUZZ_SEED reruns one (the test prints
 * its seed, and each disagreement its round).  The module is loaded with
 * its defaults, and left so (an rfc_v1 variant loads it again).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "omx.h"
#include "omx_rand.h"
#include "module.h"
#include "kselftest_harness.h"

#define KEPT	8	/* disagreements described in full */
/*
 * The kernel's __O_TMPFILE bit: glibc's __O_TMPFILE carries O_DIRECTORY
 * too (O_TMPFILE is both), and O_DIRECTORY alone is no invalid flag.
 */
#define TMPFILE_BIT	(O_TMPFILE & ~O_DIRECTORY)
#ifndef RESOLVE_CACHED
#define RESOLVE_CACHED	0x20	/* Linux 5.12: the openat2 selftests' header predates it */
#endif

struct tally {
	long rounds, allowed, refused, einval, checks, checks_ok;
	long disagreements;
};

FIXTURE(fuzz) {
	struct omx_ws ws;
	int dirs[6];		/* dirfds to choose from */
	char paths[32][PATH_MAX];
	int npaths;
	int exec_paths;		/* the first ones, regular files for the check */
	int memfd, pipefd[2];
	int policy_before;
	uint64_t rng;
	struct tally *tally;	/* shared with the child that fuzzes */
};

FIXTURE_VARIANT(fuzz) {
	int policy;
	bool user;
	bool rfc_v1;	/* the module reloaded with rfc_v1=1, the RFC's opens too */
};

FIXTURE_VARIANT_ADD(fuzz, policy_0) { .policy = 0 };
FIXTURE_VARIANT_ADD(fuzz, policy_1) { .policy = 1 };
FIXTURE_VARIANT_ADD(fuzz, policy_2) { .policy = 2 };
FIXTURE_VARIANT_ADD(fuzz, policy_3) { .policy = 3 };
FIXTURE_VARIANT_ADD(fuzz, policy_2_user) { .policy = 2, .user = true };
FIXTURE_VARIANT_ADD(fuzz, policy_3_user) { .policy = 3, .user = true };
FIXTURE_VARIANT_ADD(fuzz, rfc_v1_policy_1) { .policy = 1, .rfc_v1 = true };
FIXTURE_VARIANT_ADD(fuzz, rfc_v1_policy_3) { .policy = 3, .rfc_v1 = true };
FIXTURE_VARIANT_ADD(fuzz, rfc_v1_policy_3_user) {
	.policy = 3, .user = true, .rfc_v1 = true,
};

static void add_path(FIXTURE_DATA(fuzz) *self, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void add_path(FIXTURE_DATA(fuzz) *self, const char *fmt, ...)
{
	va_list ap;

	if (self->npaths == 32)
		return;
	va_start(ap, fmt);
	vsnprintf(self->paths[self->npaths++], PATH_MAX, fmt, ap);
	va_end(ap);
}

FIXTURE_SETUP(fuzz)
{
	static const struct { const char *rel; mode_t mode; } files[] = {
		{ "exec/x", 0755 }, { "exec/nx", 0644 }, { "exec/ux", 0700 },
		{ "exec/ox", 0601 }, { "noexec/x", 0755 }, { "noexec/nx", 0644 },
	};
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	const char *ws;
	size_t i;
	int s;

	self->ws.dirfd = -1;
	self->memfd = -1;
	self->tally = mmap(NULL, sizeof(*self->tally), PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->tally);
	self->pipefd[0] = self->pipefd[1] = -1;
	ASSERT_TRUE(omx_module_loaded()) {
		TH_LOG("omayexec is not loaded");
	}
	self->policy_before = omx_policy_read();
	ASSERT_EQ(0, omx_ws_create(&self->ws));
	ws = self->ws.root;
	ASSERT_EQ(0, omx_ws_mount_tmpfs(&self->ws, "exec", 0));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(&self->ws, "noexec", MS_NOEXEC));
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		ASSERT_EQ(0, omx_ws_file(&self->ws, files[i].rel, files[i].mode,
					 0, 0));
	ASSERT_EQ(0, omx_ws_copy_self(&self->ws, "exec/prog", 0755));
	ASSERT_EQ(0, mkdir(omx_ws_path(&self->ws, "exec/dir"), 0755));
	ASSERT_EQ(0, mkfifo(omx_ws_path(&self->ws, "exec/fifo"), 0666));
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ASSERT_LE(0, s);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/exec/sock", ws);
	ASSERT_EQ(0, bind(s, (struct sockaddr *)&sun, sizeof(sun)));
	close(s);
	ASSERT_EQ(0, symlink("x", omx_ws_path(&self->ws, "exec/l_x")));
	ASSERT_EQ(0, symlink("nx", omx_ws_path(&self->ws, "exec/l_nx")));
	ASSERT_EQ(0, symlink("../noexec/x", omx_ws_path(&self->ws, "exec/l_noexec")));
	ASSERT_EQ(0, symlink("dir", omx_ws_path(&self->ws, "exec/l_dir")));
	ASSERT_EQ(0, symlink("l_loop", omx_ws_path(&self->ws, "exec/l_loop")));
	ASSERT_EQ(0, symlink("/dev/null", omx_ws_path(&self->ws, "exec/l_null")));
	self->memfd = memfd_create("omx-fuzz", MFD_CLOEXEC);
	ASSERT_LE(0, self->memfd);
	ASSERT_EQ(0, pipe2(self->pipefd, O_CLOEXEC));

	/* Regular files first: the exec check's exact rule needs them. */
	add_path(self, "%s/exec/x", ws);
	add_path(self, "%s/exec/nx", ws);
	add_path(self, "%s/exec/ux", ws);
	add_path(self, "%s/exec/ox", ws);
	add_path(self, "%s/noexec/x", ws);
	add_path(self, "%s/noexec/nx", ws);
	self->exec_paths = self->npaths;
	add_path(self, "exec/x");		/* relative to a dirfd */
	add_path(self, "x");
	add_path(self, "nx");
	add_path(self, "exec/l_x");
	add_path(self, "l_nx");
	add_path(self, "exec/l_noexec");
	add_path(self, "l_dir");
	add_path(self, "l_loop");
	add_path(self, "l_null");
	add_path(self, "exec/dir");
	add_path(self, "fifo");
	add_path(self, "exec/sock");
	add_path(self, "missing");
	add_path(self, "%s", "");
	add_path(self, "..");
	add_path(self, "/dev/null");
	add_path(self, "/proc/self/exe");
	add_path(self, "/proc/self/status");
	add_path(self, "/proc/self/fd/%d", self->memfd);
	add_path(self, "/proc/self/fd/%d", self->pipefd[0]);
	add_path(self, "/proc/self/fd/%d", self->pipefd[1]);
	add_path(self, "%s/exec/%0*d", ws, 300, 0);	/* a name too long */

	self->dirs[0] = AT_FDCWD;
	self->dirs[1] = self->ws.dirfd;
	self->dirs[2] = open(omx_ws_path(&self->ws, "exec"),
			     O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	self->dirs[3] = open(omx_ws_path(&self->ws, "exec"),
			     O_PATH | O_CLOEXEC);
	self->dirs[4] = open(omx_ws_path(&self->ws, "exec/x"),
			     O_RDONLY | O_CLOEXEC);
	self->dirs[5] = 999;	/* not open */
	ASSERT_LE(0, self->dirs[2]);
	ASSERT_LE(0, self->dirs[3]);
	ASSERT_LE(0, self->dirs[4]);

	if (variant->rfc_v1) {
		ASSERT_EQ(0, mod_unload_retry(MOD_OMAYEXEC, 10000));
		ASSERT_EQ(0, mod_load(mod_omayexec_path(), "rfc_v1=1"));
		ASSERT_EQ(0, lc_write_file(OMX_RFC_V1_SYSCTL,
					   variant->policy == 1 ? "1" : "3"));
	}
	ASSERT_EQ(0, omx_policy_set(variant->policy));
	ASSERT_EQ(0, chdir(omx_ws_path(&self->ws, "exec")));
}

FIXTURE_TEARDOWN(fuzz)
{
	int i;

	for (i = 2; i < 5; i++)
		if (self->dirs[i] >= 0)
			close(self->dirs[i]);
	if (self->memfd >= 0)
		close(self->memfd);
	if (self->pipefd[0] >= 0) {
		close(self->pipefd[0]);
		close(self->pipefd[1]);
	}
	/* As the boot loaded it. */
	if (variant->rfc_v1 && !mod_unload_retry(MOD_OMAYEXEC, 10000))
		mod_load(mod_omayexec_path(), "");
	if (chdir("/") == 0 && self->policy_before >= 0)
		omx_policy_set(self->policy_before);
	omx_ws_destroy(&self->ws);
	munmap(self->tally, sizeof(*self->tally));
}

/* ---- The call -------------------------------------------------------------- */

/* openat2(2), v5 semantics; open(2) and openat(2), the RFC's (rfc_v1). */
enum interface { OPENAT2, OPEN, OPENAT };
static const char *const interface_names[] = { "openat2", "open", "openat" };

struct call {
	enum interface iface;
	int dfd;
	const char *path;
	struct open_how how;
	size_t size;		/* the size given to openat2(2) */
	bool tail;		/* a non-zero byte past struct open_how */
};

static const uint64_t open_flags[] = {
	O_WRONLY, O_RDWR, O_EXCL, O_NOCTTY, O_TRUNC, O_APPEND, O_NONBLOCK,
	O_DSYNC, O_DIRECT, O_LARGEFILE, O_DIRECTORY, O_NOFOLLOW, O_NOATIME,
	O_CLOEXEC, O_SYNC,
};
/* Refused with O_MAYEXEC whatever else: rarer, so that most rounds judge. */
static const uint64_t mayexec_invalid[] = { O_CREAT, O_PATH, O_TMPFILE };

static uint64_t some_bits(uint64_t *rng, const uint64_t *bits, size_t n,
			  unsigned int per_16)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (omx_rand_below(rng, 16) < per_16)
			v |= bits[i];
	return v;
}

static void make_call(FIXTURE_DATA(fuzz) *self, struct call *c, bool rfc_v1)
{
	static const uint64_t resolve_bits[] = {
		RESOLVE_NO_XDEV, RESOLVE_NO_MAGICLINKS, RESOLVE_NO_SYMLINKS,
		RESOLVE_BENEATH, RESOLVE_IN_ROOT, RESOLVE_CACHED,
	};
	uint64_t *rng = &self->rng;

	memset(c, 0, sizeof(*c));
	c->dfd = self->dirs[omx_rand_below(rng, 6)];
	c->path = self->paths[omx_rand_below(rng, self->npaths)];
	c->how.flags = some_bits(rng, open_flags, sizeof(open_flags) / 8, 2);
	if (!omx_rand_below(rng, 4))
		c->how.flags |= some_bits(rng, mayexec_invalid, 3, 4);
	if (!omx_rand_below(rng, 32))
		c->how.flags |= 1ULL << omx_rand_below(rng, 64);
	if (c->how.flags & (O_CREAT | TMPFILE_BIT) || !omx_rand_below(rng, 32))
		c->how.mode = omx_rand_below(rng, 8) ? omx_rand_below(rng, 010000)
						     : omx_rand_next(rng);
	c->how.resolve = some_bits(rng, resolve_bits, 6, 2);
	if (!omx_rand_below(rng, 32))
		c->how.resolve |= 1ULL << omx_rand_below(rng, 64);
	switch (omx_rand_below(rng, 32)) {
	case 0:
		c->size = omx_rand_below(rng, OPEN_HOW_SIZE_VER0);
		break;
	case 1:
		c->size = sizeof(c->how) + 8 * (1 + omx_rand_below(rng, 4));
		c->tail = omx_rand_below(rng, 2);
		break;
	default:
		c->size = sizeof(c->how);
	}
	/* Half the rounds through the RFC's calls, when the module has them. */
	if (rfc_v1 && omx_rand_below(rng, 2)) {
#ifdef SYS_open
		c->iface = omx_rand_below(rng, 2) ? OPEN : OPENAT;
#else
		c->iface = OPENAT;	/* arm64 has no open(2) */
#endif
		c->size = sizeof(c->how);
		c->tail = false;
		c->how.resolve = 0;
		if (c->iface == OPEN)
			c->dfd = AT_FDCWD;
	}
}

/* The call with @flags for its own; an fd or -errno. */
static int do_call(const struct call *c, uint64_t flags)
{
	char buf[sizeof(struct open_how) + 64] = { 0 };
	struct open_how *how = (struct open_how *)buf;
	long fd;

	switch (c->iface) {
#ifdef SYS_open
	case OPEN:
		fd = syscall(SYS_open, c->path, (int)flags, (int)c->how.mode);
		break;
#endif
	case OPENAT:
		fd = syscall(SYS_openat, c->dfd, c->path, (int)flags,
			     (int)c->how.mode);
		break;
	default:
		*how = c->how;
		how->flags = flags;
		if (c->tail)
			buf[c->size - 1] = 1;
		fd = syscall(SYS_openat2, c->dfd, c->path, how, c->size);
	}
	return fd < 0 ? -errno : (int)fd;
}

/* The struct's own errors, which come before anything looks at the flags. */
static int size_error(const struct call *c)
{
	if (c->size < OPEN_HOW_SIZE_VER0)
		return -EINVAL;
	return c->tail ? -E2BIG : 0;
}

/* Opened later than may_open(), where the policy may answer first. */
static bool after_may_open(int err)
{
	return err == -ENXIO || err == -EINVAL || err == -ETXTBSY ||
	       err == -EAGAIN || err == -EOPNOTSUPP || err == -ENODEV;
}

/*
 * Whether the caller may execute @st as far as its mode bits go, as
 * inode_permission(MAY_EXEC) decides on tmpfs and procfs (no ACL, no LSM
 * rule here): root needs an x bit anywhere, a user the bit of its class.
 */
static bool mode_lets_execute(const struct stat *st)
{
	uid_t uid = geteuid();

	if (!uid)
		return st->st_mode & 0111;
	if (st->st_uid == uid)
		return st->st_mode & 0100;
	if (st->st_gid == getegid())
		return st->st_mode & 0010;
	return st->st_mode & 0001;
}

/*
 * Whether @obj lies where nothing may be executed: a noexec mount, or a
 * file system that says so of itself (SB_I_NOEXEC: procfs, sysfs), which
 * statvfs() does not show.
 */
static bool on_noexec(int obj)
{
	struct statvfs vfs;
	struct statfs fs;

	if (fstatvfs(obj, &vfs) || (vfs.f_flag & ST_NOEXEC))
		return true;
	return fstatfs(obj, &fs) || fs.f_type == PROC_SUPER_MAGIC ||
	       fs.f_type == SYSFS_MAGIC;
}

/*
 * Whether policy @policy lets the caller execute what @obj is: v5's rules
 * (openat2), or with @rfc_v1 the RFC's, which check directories too (the
 * DAC check: root may search any) and let other types through.
 */
static bool policy_allows(int obj, int policy, bool rfc_v1)
{
	struct stat st;

	if (!policy)
		return true;
	if (fstat(obj, &st))
		return false;
	if (rfc_v1 && S_ISDIR(st.st_mode)) {
		if ((policy & OMAYEXEC_ENFORCE_MOUNT) && on_noexec(obj))
			return false;
		return !(policy & OMAYEXEC_ENFORCE_FILE) || !geteuid() ||
		       mode_lets_execute(&st);
	}
	if (!S_ISREG(st.st_mode))
		return rfc_v1;
	if ((policy & OMAYEXEC_ENFORCE_MOUNT) && on_noexec(obj))
		return false;
	if (policy & OMAYEXEC_ENFORCE_FILE)
		return mode_lets_execute(&st);
	return true;
}

static bool same_inode(int a, int b)
{
	struct stat sa, sb;

	return !fstat(a, &sa) && !fstat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

static void describe(char *buf, size_t len, const struct call *c,
		     const char *why, int flagged, int plain)
{
	snprintf(buf, len,
		 "%s: %s(dfd %d, \"%.60s\", flags %#llx, mode %#llo, resolve %#llx, size %zu%s): O_MAYEXEC %s, plain %s",
		 why, interface_names[c->iface], c->dfd, c->path,
		 (unsigned long long)c->how.flags,
		 (unsigned long long)c->how.mode,
		 (unsigned long long)c->how.resolve, c->size,
		 c->tail ? " with a tail" : "",
		 flagged >= 0 ? "opened" : strerror(-flagged),
		 plain >= 0 ? "opened" : strerror(-plain));
}

/* One round's openat2 pair: NULL, or what went wrong. */
static const char *judge_open(FIXTURE_DATA(fuzz) *self, int policy,
			      const struct call *c, char *buf, size_t len)
{
	uint64_t invalid = O_CREAT | TMPFILE_BIT | O_PATH, flags = c->how.flags;
	int flagged, plain, obj, err;
	const char *why = NULL;
	bool allowed;

	/* The object, found as the open would find it. */
	obj = syscall(SYS_openat2, c->iface == OPEN ? AT_FDCWD : c->dfd, c->path,
		      &(struct open_how){
			      .flags = O_PATH | O_CLOEXEC |
				       (flags & (O_NOFOLLOW | O_DIRECTORY)),
			      .resolve = c->how.resolve,
		      }, sizeof(struct open_how));
	if (obj >= 0) {
		struct stat st;

		/* A FIFO's open would wait for the other end. */
		if (!fstat(obj, &st) && S_ISFIFO(st.st_mode))
			flags |= O_NONBLOCK;
	}
	allowed = obj >= 0 && policy_allows(obj, policy, c->iface != OPENAT2);

	flagged = do_call(c, flags | O_MAYEXEC);
	plain = do_call(c, flags);
	/* What O_CREAT made, in either directory. */
	unlink("missing");
	unlinkat(self->dirs[1], "missing", 0);

	err = size_error(c);
	/* open(2) and openat(2) take an int, and drop what they do not know. */
	if (c->iface != OPENAT2)
		invalid &= 0xffffffff;
	if (flags & invalid) {
		if (flagged != (err ?: -EINVAL))
			why = "an invalid flag with O_MAYEXEC not refused first";
	} else if (plain < 0) {
		if (flagged != plain &&
		    !(flagged == -EACCES && !allowed && after_may_open(plain)))
			why = "the flag changed how a failing open fails";
	} else if (flagged >= 0) {
		if (!allowed)
			why = "the policy's refusal was let through";
		else if (!same_inode(flagged, plain))
			why = "the flag opened another inode";
	} else if (flagged != -EACCES || allowed) {
		why = "an open the policy allows was refused";
	}

	if (flagged >= 0) {
		self->tally->allowed++;
		close(flagged);
	} else if (flagged == -EACCES) {
		self->tally->refused++;
	} else if (flagged == -EINVAL) {
		self->tally->einval++;
	}
	if (plain >= 0)
		close(plain);
	if (obj >= 0)
		close(obj);
	if (why)
		describe(buf, len, c, why, flagged, plain);
	return why ? buf : NULL;
}

/* One round's exec check: NULL, or what went wrong. */
static const char *judge_check(FIXTURE_DATA(fuzz) *self, char *buf, size_t len)
{
	static const uint64_t extra[] = {
		AT_SYMLINK_NOFOLLOW, AT_EMPTY_PATH, AT_NO_AUTOMOUNT,
		AT_REMOVEDIR, AT_EACCESS,
	};
	uint64_t *rng = &self->rng;
	int pick = omx_rand_below(rng, self->npaths);
	const char *path = self->paths[pick];
	int dfd = self->dirs[omx_rand_below(rng, 6)];
	int flags = AT_EXECVE_CHECK, ret, obj;
	bool exact;

	if (omx_rand_below(rng, 2))
		flags |= some_bits(rng, extra, 5, 3);
	if (!omx_rand_below(rng, 16))
		flags |= 1U << omx_rand_below(rng, 32);
	exact = flags == AT_EXECVE_CHECK && pick < self->exec_paths;

	ret = omx_execveat_probe(dfd, path, flags);
	self->tally->checks++;
	if (!ret)
		self->tally->checks_ok++;
	if (!exact)
		return NULL;
	obj = open(path, O_PATH | O_CLOEXEC);
	if (obj < 0)
		return NULL;
	if (ret != (policy_allows(obj, OMAYEXEC_ENFORCE_MOUNT |
					    OMAYEXEC_ENFORCE_FILE, false) ?
		    0 : -EACCES)) {
		snprintf(buf, len, "execveat(\"%s\", AT_EXECVE_CHECK): %s",
			 path, ret ? strerror(-ret) : "allowed");
		close(obj);
		return buf;
	}
	close(obj);
	return NULL;
}

/* The rounds, in a child (a user variant drops root there for good). */
static int fuzz_child(FIXTURE_DATA(fuzz) *self, int policy, bool user,
		      bool rfc_v1, uint64_t seconds)
{
	struct tally *t = self->tally;
	char buf[512];
	time_t end;

	if (user && omx_become_user())
		return 1;
	end = time(NULL) + seconds;
	while (time(NULL) < end) {
		const char *why;
		struct call c;

		make_call(self, &c, rfc_v1);
		why = judge_open(self, policy, &c, buf, sizeof(buf));
		if (!why)
			why = judge_check(self, buf, sizeof(buf));
		if (why && t->disagreements++ < KEPT)
			fprintf(stderr, "# round %ld: %s\n", t->rounds, why);
		t->rounds++;
	}
	return 0;
}

TEST_F_TIMEOUT(fuzz, opens_and_exec_checks_agree_with_the_stock_kernel, 3600)
{
	uint64_t seconds = omx_env_number("OMX_FUZZ_SECONDS", 3);
	uint64_t seed = omx_rand_seed("OMX_FUZZ_SEED");
	struct tally *t = self->tally;
	int status;
	pid_t pid;

	TH_LOG("policy %d%s as %s, seed %llu (OMX_FUZZ_SEED=%llu reruns it), %llu s",
	       variant->policy,
	       variant->rfc_v1 ? ", open(2) and openat(2) by the RFC's" : "",
	       variant->user ? "a user" : "root",
	       (unsigned long long)seed, (unsigned long long)seed,
	       (unsigned long long)seconds);
	self->rng = seed;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(fuzz_child(self, variant->policy, variant->user,
				 variant->rfc_v1, seconds));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	/* A check that ran this program ends the child with its status. */
	ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status)) {
		TH_LOG("the fuzzing child ended with status %#x%s", status,
		       WIFEXITED(status) && WEXITSTATUS(status) == OMX_EXEC_PROBE_STATUS ?
		       ": an exec check ran the program" : "");
	}

	TH_LOG("%ld rounds: O_MAYEXEC opens %ld allowed, %ld refused, %ld EINVAL; %ld exec checks, %ld allowed; %ld disagreements",
	       t->rounds, t->allowed, t->refused, t->einval, t->checks,
	       t->checks_ok, t->disagreements);
	EXPECT_EQ(0, t->disagreements);
	/* Both answers came up, or the oracle judged nothing. */
	EXPECT_LT(0, t->allowed);
	if (variant->policy)
		EXPECT_LT(0, t->refused);
}

TEST_HARNESS_MAIN
