// SPDX-License-Identifier: GPL-2.0
/*
 * An O_MAYEXEC open never grants more than the plain open of the same
 * access, on a filesystem with its own permission check too:
 *
 * - never_more_than_plain: as uid 1000 and as root without
 *   CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH, every mode 0000-0777 of a
 *   file owned by root and of one owned by uid 1000, opened O_RDONLY,
 *   O_WRONLY and O_RDWR, under policies 0-3: an O_MAYEXEC open succeeds
 *   only where the plain open of the same access succeeds, and its
 *   descriptor reads and writes only as that access allows.  Where the
 *   open carries no __FMODE_EXEC, at policy 0 both opens give the same
 *   result; under policy 2 or 3 a file without any x bit is refused.
 * - exec_only: the case that broke, asserted alone: uid 1000 may run but
 *   not read root's 0711 file, so O_RDONLY|O_MAYEXEC is EACCES; nor open
 *   for reading and writing root's 0733 file, which it may run and write.
 *
 * Each on tmpfs, on overlayfs (tmpfs below it), and on NFSv4 from the
 * guest's own nfsd, exported from a tmpfs and mounted over the loopback;
 * over NFS, never_more_than_plain opens the 64 modes whose group class is
 * their other class (in_sweep()).
 * On 6.1 an O_MAYEXEC open carries __FMODE_EXEC, and the NFSv4 client then
 * checks EXECUTE instead of READ at the open (nfs4_opendata_access(), and
 * nfs_may_open() under a delegation), while the server's OPEN lets anyone
 * who may run a file open it for reading alone (nfsd's READ_IF_EXEC; with
 * write access asked too, it checks both in full): without the module's
 * second check (may_open.c), O_RDONLY|O_MAYEXEC opened files the caller may
 * run but not read.  There NFS also refuses O_MAYEXEC opens of files the
 * caller may read but not run, even at policy 0: allowed (never more
 * granted), and counted.
 *
 * The NFS server is nfs-kernel-server's rpc.nfsd, rpc.mountd and exportfs,
 * with the kernel's nfsd, NFSv4 only, its grace period ended at once
 * (tests/run-check carries them in for the "nfs" need).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "omx_test.h"

#define NR_MODES	512
#define NR_OWNERS	2	/* root, OMX_USER_UID */
#define NR_ACCS		3
#define NR_POLICIES	4
#define NR_CALLERS	2

static const int accs[NR_ACCS] = { O_RDONLY, O_WRONLY, O_RDWR };
static const char *const acc_names[NR_ACCS] = {
	"O_RDONLY", "O_WRONLY", "O_RDWR"
};
static const enum omx_caller callers[NR_CALLERS] = {
	OMX_USER, OMX_ROOT_WITHOUT_DAC_OVERRIDE
};
static const uid_t owners[NR_OWNERS] = { 0, OMX_USER_UID };

/* What a descriptor did that its access mode does not allow (fd_bad). */
#define FD_ACCMODE	1	/* F_GETFL shows another access mode */
#define FD_READ		2	/* a read of a readable fd failed */
#define FD_NO_READ	4	/* a read of a write-only fd was not EBADF */
#define FD_WRITE	8	/* an empty write to a writable fd failed */
#define FD_NO_WRITE	16	/* a write to a read-only fd was not EBADF */

/* One open: -errno of the open, or 0 and what its descriptor did wrong. */
struct outcome {
	short err;
	short fd_bad;
};

struct results {
	struct outcome plain[NR_CALLERS][NR_OWNERS][NR_MODES][NR_ACCS];
	struct outcome mx[NR_POLICIES][NR_CALLERS][NR_OWNERS][NR_MODES][NR_ACCS];
};

enum fs_kind { FS_TMPFS, FS_OVERLAY, FS_NFS };

/*
 * Whether never_more_than_plain opens the files of @mode on @fs.  Over NFS
 * each open is a round trip to the guest's nfsd: all 512 modes took 97 s
 * of a 385 s boot under TCG.  There it opens the 64 modes whose group bits
 * are their other bits.  The group class never decides for these files
 * and callers: neither caller, nor nobody (to whom the export squashes
 * root), is in the group of a file it does not own.  So the owner class
 * and the other class, the two that decide, still take each pair of
 * values, and with them the x bits the policy reads (any of the three).
 * On tmpfs and overlayfs, every mode.
 */
static bool in_sweep(enum fs_kind fs, int mode)
{
	return fs != FS_NFS || ((mode >> 3) & 7) == (mode & 7);
}

/* "r0711": root's file of mode 0711; "u0711": uid 1000's. */
static void file_name(char *buf, size_t size, int owner, int mode)
{
	snprintf(buf, size, "%c%04o", owner ? 'u' : 'r', mode);
}

/* ---- Commands (the NFS server's tools) ------------------------------ */

/*
 * Run @argv with its output in @log (cut to its size): its exit status,
 * 128 + the signal that ended it, or -errno.
 */
static int run_cmd(char *log, size_t size, const char *const argv[])
{
	size_t len = 0;
	int pipefd[2], status;
	ssize_t n;
	pid_t pid;

	log[0] = '\0';
	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		dup2(pipefd[1], STDOUT_FILENO);
		dup2(pipefd[1], STDERR_FILENO);
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "exec %s: %m\n", argv[0]);
		_exit(127);
	}
	close(pipefd[1]);
	while ((n = read(pipefd[0], log + len, size - 1 - len)) > 0)
		len += n;
	log[len] = '\0';
	close(pipefd[0]);
	if (waitpid(pid, &status, 0) != pid)
		return -ECHILD;
	return WIFEXITED(status) ? WEXITSTATUS(status) :
				   128 + WTERMSIG(status);
}

/* Run a command, its output logged if it fails: its status. */
#define RUN(srv, ...) ({						\
	const char *const __argv[] = { __VA_ARGS__, NULL };		\
	int __rc = run_cmd((srv)->log, sizeof((srv)->log), __argv);	\
	if (__rc)							\
		TH_LOG("%s: status %d: %s", __argv[0], __rc, (srv)->log); \
	__rc;								\
})

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		ret = -errno;
	close(fd);
	return ret;
}

/* rpc.mountd's output, shown when a test failed. */
#define MOUNTD_LOG	"/tmp/omx-mountd.log"

static void dump_log(struct __test_metadata *_metadata, const char *path)
{
	char line[512];
	FILE *f = fopen(path, "re");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		TH_LOG("%s: %s", path, line);
	}
	fclose(f);
}

/* ---- The fixture --------------------------------------------------- */

/* The guest's NFS server, and what is to undo of it. */
struct nfs_server {
	char export[PATH_MAX];	/* the directory it serves */
	bool exported, nfsd_started, mounted;
	pid_t mountd;
	char log[4096];		/* the last command's output */
};

FIXTURE(fs) {
	struct omx_ws ws;
	int dirfd;		/* the directory the opens are made in */
	struct nfs_server srv;
};

FIXTURE_VARIANT(fs) {
	enum fs_kind fs;
	const char *name;
};

FIXTURE_VARIANT_ADD(fs, tmpfs) {
	.fs = FS_TMPFS, .name = "tmpfs",
};
FIXTURE_VARIANT_ADD(fs, overlayfs) {
	.fs = FS_OVERLAY, .name = "overlayfs",
};
FIXTURE_VARIANT_ADD(fs, nfs4) {
	.fs = FS_NFS, .name = "NFSv4",
};

/* Every file of the property, in @rel of the workspace (a tmpfs). */
static void populate(struct __test_metadata *_metadata, struct omx_ws *ws,
		     const char *rel)
{
	char name[PATH_MAX];
	int owner, mode;

	ASSERT_EQ(0, mkdirat(ws->dirfd, rel, 0755));
	ASSERT_EQ(0, mount("omx-files", omx_ws_path(ws, rel), "tmpfs", 0,
			   "mode=0755,size=16m"));
	for (owner = 0; owner < NR_OWNERS; owner++)
		for (mode = 0; mode < NR_MODES; mode++) {
			snprintf(name, sizeof(name), "%s/", rel);
			file_name(name + strlen(name),
				  sizeof(name) - strlen(name), owner, mode);
			ASSERT_EQ(0, omx_ws_file(ws, name, mode, owners[owner],
						 owners[owner]));
		}
}

#define MOUNTD_PID	"/run/omx-mountd.pid"

static void stop_leftovers(void)
{
	FILE *f = fopen(MOUNTD_PID, "re");
	int pid;

	write_text("/proc/fs/nfsd/threads", "0");
	if (!f)
		return;
	if (fscanf(f, "%d", &pid) == 1 && pid > 1)
		kill(pid, SIGKILL);
	fclose(f);
	unlink(MOUNTD_PID);
}

/*
 * The guest's nfsd serves @srv->export to 127.0.0.1, NFSv4 only, and the
 * grace period after its start is over.
 */
static void nfs_serve(struct __test_metadata *_metadata,
		      struct nfs_server *srv)
{
	char fsid[64], client[PATH_MAX + 16];
	int fd;

	ASSERT_EQ(0, RUN(srv, "modprobe", "nfsd"));
	ASSERT_EQ(0, RUN(srv, "modprobe", "nfsv4"));
	if (access("/proc/fs/nfsd/threads", F_OK))
		ASSERT_EQ(0, mount("nfsd", "/proc/fs/nfsd", "nfsd", 0, NULL));
	/* What a test whose set-up failed left (it had no teardown). */
	stop_leftovers();
	/*
	 * The shortest lease and grace period there are, before nfsd starts
	 * (later writes are EBUSY); the grace period is then ended at once.
	 */
	ASSERT_EQ(0, write_text("/proc/fs/nfsd/nfsv4leasetime", "10"));
	ASSERT_EQ(0, write_text("/proc/fs/nfsd/nfsv4gracetime", "10"));

	/*
	 * nfs-utils' state, and the legacy client tracking's directory:
	 * without a way to track clients, nfsd cannot end its grace period
	 * early (nor does it try nfsdcld or nfsdcltrack for long).
	 */
	mkdir("/var/lib", 0755);
	mkdir("/var/lib/nfs", 0755);
	mkdir("/var/lib/nfs/v4recovery", 0700);
	fd = open("/etc/exports", O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	ASSERT_LE(0, fd);
	close(fd);
	fd = open("/var/lib/nfs/etab", O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	ASSERT_LE(0, fd);
	close(fd);
	/*
	 * A tmpfs has no UUID for nfsd to name it by: fsid.  root_squash,
	 * the default, stays: the server sees root as nobody, so both
	 * callers are unprivileged there (with no_root_squash, nfsd would
	 * grant root what it has no capability for on the client).
	 */
	snprintf(fsid, sizeof(fsid), "rw,sync,insecure,no_subtree_check,fsid=%d",
		 getpid());
	snprintf(client, sizeof(client), "127.0.0.1:%s", srv->export);
	ASSERT_EQ(0, RUN(srv, "exportfs", "-i", "-o", fsid, client));
	srv->exported = true;

	/* mountd answers the kernel's export upcalls, in this namespace. */
	srv->mountd = fork();
	ASSERT_LE(0, srv->mountd);
	if (srv->mountd == 0) {
		int log = open(MOUNTD_LOG, O_WRONLY | O_CREAT | O_TRUNC,
			       0644);

		dup2(log, STDOUT_FILENO);
		dup2(log, STDERR_FILENO);
		execlp("rpc.mountd", "rpc.mountd", "-F", "-N", "2", "-N", "3",
		       "-u", NULL);
		_exit(127);
	}
	fd = open(MOUNTD_PID, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0) {
		dprintf(fd, "%d\n", srv->mountd);
		close(fd);
	}

	ASSERT_EQ(0, RUN(srv, "rpc.nfsd", "-N", "3", "-U", "-p", "2049", "2"));
	srv->nfsd_started = true;
	/* Else the first opens wait for the grace period to end. */
	EXPECT_EQ(0, write_text("/proc/fs/nfsd/v4_end_grace", "Y"));
}

/* Mount it on @rel of @ws, and see the files as they are. */
static void nfs_mount(struct __test_metadata *_metadata,
		      struct nfs_server *srv, struct omx_ws *ws,
		      const char *rel)
{
	const char *target = omx_ws_path(ws, rel);
	char source[PATH_MAX + 16];
	struct stat st;
	int tries;

	ASSERT_EQ(0, mkdirat(ws->dirfd, rel, 0755));
	snprintf(source, sizeof(source), "127.0.0.1:%s", srv->export);
	/* mountd may not listen to the kernel's upcalls yet. */
	for (tries = 0; tries < 50; tries++) {
		if (!mount(source, target, "nfs4", 0,
			   "vers=4.2,addr=127.0.0.1,clientaddr=127.0.0.1"))
			break;
		TH_LOG("mount %s: %m", source);
		usleep(200000);
	}
	ASSERT_GT(50, tries);
	srv->mounted = true;
	ASSERT_EQ(0, stat(omx_ws_path(ws, "nfs/r0711"), &st));
	ASSERT_EQ(S_IFREG | 0711, st.st_mode);
	ASSERT_EQ(0, st.st_uid);
	ASSERT_EQ(0, stat(omx_ws_path(ws, "nfs/u0640"), &st));
	ASSERT_EQ(S_IFREG | 0640, st.st_mode);
	ASSERT_EQ(OMX_USER_UID, st.st_uid);
}

FIXTURE_SETUP(fs)
{
	const char *dir = "files";
	char options[3 * PATH_MAX];

	self->dirfd = -1;
	self->srv.mountd = -1;
	ASSERT_EQ(0, omx_ws_create(&self->ws));
	populate(_metadata, &self->ws, "files");
	switch (variant->fs) {
	case FS_TMPFS:
		break;
	case FS_OVERLAY:
		ASSERT_EQ(0, RUN(&self->srv, "modprobe", "overlay"));
		/* Write opens copy files up: room for all of them. */
		ASSERT_EQ(0, mkdirat(self->ws.dirfd, "rw", 0755));
		ASSERT_EQ(0, mount("omx-upper", omx_ws_path(&self->ws, "rw"),
				   "tmpfs", 0, "mode=0755,size=16m"));
		ASSERT_EQ(0, mkdirat(self->ws.dirfd, "rw/upper", 0755));
		ASSERT_EQ(0, mkdirat(self->ws.dirfd, "rw/work", 0755));
		ASSERT_EQ(0, mkdirat(self->ws.dirfd, "ovl", 0755));
		snprintf(options, sizeof(options),
			 "lowerdir=%s,upperdir=%s,workdir=%s",
			 omx_ws_path(&self->ws, "files"),
			 omx_ws_path(&self->ws, "rw/upper"),
			 omx_ws_path(&self->ws, "rw/work"));
		ASSERT_EQ(0, mount("omx-ovl", omx_ws_path(&self->ws, "ovl"),
				   "overlay", 0, options));
		dir = "ovl";
		break;
	case FS_NFS:
		snprintf(self->srv.export, sizeof(self->srv.export), "%s",
			 omx_ws_path(&self->ws, "files"));
		nfs_serve(_metadata, &self->srv);
		nfs_mount(_metadata, &self->srv, &self->ws, "nfs");
		dir = "nfs";
		break;
	}
	self->dirfd = openat(self->ws.dirfd, dir,
			     O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, self->dirfd);
}

FIXTURE_TEARDOWN(fs)
{
	char client[PATH_MAX + 16];

	EXPECT_EQ(0, omx_policy_set(0));
	if (self->dirfd >= 0)
		close(self->dirfd);
	if (self->srv.mounted)
		EXPECT_EQ(0, umount(omx_ws_path(&self->ws, "nfs")));
	if (self->srv.nfsd_started)
		EXPECT_EQ(0, RUN(&self->srv, "rpc.nfsd", "0"));
	if (self->srv.exported) {
		snprintf(client, sizeof(client), "127.0.0.1:%s", self->srv.export);
		EXPECT_EQ(0, RUN(&self->srv, "exportfs", "-u", client));
	}
	if (self->srv.mountd > 0) {
		kill(self->srv.mountd, SIGTERM);
		waitpid(self->srv.mountd, NULL, 0);
		if (!_metadata->passed)
			dump_log(_metadata, MOUNTD_LOG);
		unlink(MOUNTD_PID);
	}
	EXPECT_EQ(0, omx_ws_destroy(&self->ws));
}

/* ---- The opens ----------------------------------------------------- */

static struct outcome try_open(int dirfd, const char *name, int acc,
			       __u64 extra)
{
	struct outcome o = {};
	char c;
	ssize_t n;
	int fd, flags;

	fd = omx_openat2(dirfd, name, acc | O_CLOEXEC | extra, 0);
	if (fd < 0) {
		o.err = fd;
		return o;
	}
	flags = omx_fd_flags(fd);
	if (flags < 0 || (flags & O_ACCMODE) != acc)
		o.fd_bad |= FD_ACCMODE;
	n = read(fd, &c, 1);
	if (acc == O_WRONLY) {
		if (n >= 0 || errno != EBADF)
			o.fd_bad |= FD_NO_READ;
	} else if (n < 0) {
		o.fd_bad |= FD_READ;
	}
	/* Empty: the files stay as they are. */
	n = write(fd, &c, 0);
	if (acc == O_RDONLY) {
		if (n >= 0 || errno != EBADF)
			o.fd_bad |= FD_NO_WRITE;
	} else if (n != 0) {
		o.fd_bad |= FD_WRITE;
	}
	close(fd);
	return o;
}

struct run {
	int dirfd;
	int caller;		/* index in callers[] */
	int policy;
	enum fs_kind fs;
	bool plain;		/* the plain opens too */
	struct results *res;
};

/* In a child: one caller's opens of every file, under the current policy. */
static int run_opens(void *arg)
{
	struct run *run = arg;
	int owner, mode, a, ret;
	char name[16];

	ret = omx_become(callers[run->caller]);
	if (ret)
		return ret;
	for (owner = 0; owner < NR_OWNERS; owner++)
		for (mode = 0; mode < NR_MODES; mode++) {
			if (!in_sweep(run->fs, mode))
				continue;
			for (a = 0; a < NR_ACCS; a++) {
				file_name(name, sizeof(name), owner, mode);
				if (run->plain)
					run->res->plain[run->caller][owner][mode][a] =
						try_open(run->dirfd, name,
							 accs[a], 0);
				run->res->mx[run->policy][run->caller][owner][mode][a] =
					try_open(run->dirfd, name, accs[a],
						 O_MAYEXEC);
			}
		}
	return 0;
}

static const char *err_name(int err)
{
	static char buf[4][32];
	static int next;
	char *b = buf[next++ % 4];

	if (!err)
		return "opens";
	snprintf(b, 32, "%s", strerrorname_np(-err) ?: "?");
	return b;
}

/* What the property found, over all the cases. */
struct tally {
	const char *fs;
	bool may_refuse_more;	/* O_MAYEXEC may refuse what a plain open may not */
	int failures;
	int opened[NR_POLICIES], granted_more[NR_POLICIES];
	int refused_more[NR_POLICIES];
};

#define CASE_FAILS(fmt, ...) do {					\
	if (t->failures++ < 40)						\
		TH_LOG("%s, %s, policy %d, %s %s: " fmt, t->fs,		\
		       omx_caller_name(callers[c]), policy, name,	\
		       acc_names[a], ##__VA_ARGS__);			\
} while (0)

/* One case: plain open @p and O_MAYEXEC open @m under @policy. */
static void check_case(struct __test_metadata *_metadata, struct tally *t,
		       int policy, int c, int owner, int mode, int a,
		       struct outcome p, struct outcome m)
{
	char name[16];

	file_name(name, sizeof(name), owner, mode);
	if (p.fd_bad && policy == 0)
		CASE_FAILS("the plain open's descriptor misbehaves (%#x)",
			   p.fd_bad);
	if (m.fd_bad)
		CASE_FAILS("the O_MAYEXEC descriptor misbehaves (%#x)",
			   m.fd_bad);
	if (!m.err) {
		t->opened[policy]++;
		if (p.err) {
			t->granted_more[policy]++;
			CASE_FAILS("O_MAYEXEC opens where the plain open is %s",
				   err_name(p.err));
		}
		if ((policy & OMAYEXEC_ENFORCE_FILE) && !(mode & 0111))
			CASE_FAILS("O_MAYEXEC opens a file without any x bit");
		return;
	}
	if (m.err != -EACCES && m.err != p.err)
		CASE_FAILS("O_MAYEXEC is %s, the plain open %s",
			   err_name(m.err), err_name(p.err));
	if (p.err)
		return;
	t->refused_more[policy]++;
	if (policy == 0 && !t->may_refuse_more)
		CASE_FAILS("O_MAYEXEC is %s at policy 0, the plain open opens",
			   err_name(m.err));
}

TEST_F_TIMEOUT(fs, never_more_than_plain, 900)
{
	struct tally t = {
		.fs = variant->name,
		.may_refuse_more = variant->fs == FS_NFS &&
				   omx_kernel_marks_fmode_exec(),
	};
	int policy, c, owner, mode, a, modes = 0;
	time_t start = time(NULL);
	struct results *res;

	res = mmap(NULL, sizeof(*res), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, res);
	for (policy = 0; policy < NR_POLICIES; policy++) {
		ASSERT_EQ(0, omx_policy_set(policy));
		for (c = 0; c < NR_CALLERS; c++) {
			struct run run = {
				.dirfd = self->dirfd, .caller = c,
				.policy = policy, .fs = variant->fs,
				.plain = policy == 0,
				.res = res,
			};

			ASSERT_EQ(0, omx_in_child(run_opens, &run));
		}
	}
	TH_LOG("%s: the opens took %ld s", variant->name,
	       (long)(time(NULL) - start));

	for (policy = 0; policy < NR_POLICIES; policy++)
		for (c = 0; c < NR_CALLERS; c++)
			for (owner = 0; owner < NR_OWNERS; owner++)
				for (mode = 0; mode < NR_MODES; mode++) {
					if (!in_sweep(variant->fs, mode))
						continue;
					for (a = 0; a < NR_ACCS; a++)
						check_case(_metadata, &t, policy,
							   c, owner, mode, a,
							   res->plain[c][owner][mode][a],
							   res->mx[policy][c][owner][mode][a]);
				}
	for (mode = 0; mode < NR_MODES; mode++)
		modes += in_sweep(variant->fs, mode);
	for (policy = 0; policy < NR_POLICIES; policy++)
		TH_LOG("%s, policy %d: %d O_MAYEXEC opens of %d allowed, %d of them where the plain open is refused; %d refused where it is allowed",
		       variant->name, policy, t.opened[policy],
		       NR_CALLERS * NR_OWNERS * modes * NR_ACCS,
		       t.granted_more[policy], t.refused_more[policy]);
	EXPECT_EQ(0, t.failures);
	munmap(res, sizeof(*res));
}

/* uid 1000 may run root's 0711 file and write its 0733 one: not read them. */
struct exec_only {
	int dirfd;
	int results[2][4];
};

static int exec_only_opens(void *arg)
{
	struct exec_only *e = arg;
	int ret = omx_become_user();

	if (ret)
		return ret;
	e->results[0][0] = omx_probe_openat2(e->dirfd, "r0711", O_RDONLY, 0);
	e->results[0][1] = omx_probe_openat2(e->dirfd, "r0711",
					     O_RDONLY | O_MAYEXEC, 0);
	e->results[0][2] = omx_probe_openat2(e->dirfd, "r0733", O_RDWR, 0);
	e->results[0][3] = omx_probe_openat2(e->dirfd, "r0733",
					     O_RDWR | O_MAYEXEC, 0);
	/* What it may read and run, it may open: the opens above can pass. */
	e->results[1][0] = omx_probe_openat2(e->dirfd, "r0755", O_RDONLY, 0);
	e->results[1][1] = omx_probe_openat2(e->dirfd, "r0755",
					     O_RDONLY | O_MAYEXEC, 0);
	e->results[1][2] = omx_probe_openat2(e->dirfd, "r0777", O_RDWR, 0);
	e->results[1][3] = omx_probe_openat2(e->dirfd, "r0777",
					     O_RDWR | O_MAYEXEC, 0);
	return 0;
}

TEST_F_TIMEOUT(fs, exec_only, 120)
{
	struct exec_only *e;
	int policy;

	e = mmap(NULL, sizeof(*e), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, e);
	e->dirfd = self->dirfd;
	for (policy = 0; policy < NR_POLICIES; policy++) {
		ASSERT_EQ(0, omx_policy_set(policy));
		ASSERT_EQ(0, omx_in_child(exec_only_opens, e));
		TH_LOG("%s, policy %d", variant->name, policy);
		EXPECT_EQ(-EACCES, e->results[0][0]);
		EXPECT_EQ(-EACCES, e->results[0][1])
			TH_LOG("O_RDONLY|O_MAYEXEC of root's 0711 file as uid 1000");
		EXPECT_EQ(-EACCES, e->results[0][2]);
		EXPECT_EQ(-EACCES, e->results[0][3])
			TH_LOG("O_RDWR|O_MAYEXEC of root's 0733 file as uid 1000");
		EXPECT_EQ(0, e->results[1][0]);
		EXPECT_EQ(0, e->results[1][1]);
		EXPECT_EQ(0, e->results[1][2]);
		EXPECT_EQ(0, e->results[1][3]);
	}
	munmap(e, sizeof(*e));
}

TEST_HARNESS_MAIN
