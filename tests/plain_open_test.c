// SPDX-License-Identifier: GPL-2.0
/*
 * No open without O_MAYEXEC ever fails or changes result because the
 * module is loaded and enforcing:
 * - plain_open: open(2), openat(2) and openat2(2) of every kind of object
 *   give the same result and the same f_flags under policies 1-3 as under
 *   policy 0, as root and as an unprivileged user;
 * - concurrent: while other threads of the same process are refused
 *   O_MAYEXEC opens in a loop, plain opens keep succeeding without
 *   FMODE_EXEC, and the other way round refusals and allowed O_MAYEXEC
 *   opens keep their results while plain opens run next to them;
 * - after_early_failure: after an O_MAYEXEC open that failed before the
 *   file was reached (ENOENT, EINVAL, EFAULT, EMFILE, ...), the same
 *   thread's next plain open, next O_MAYEXEC open and next execve behave
 *   normally.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "omx_test.h"

/* Files every test has; all refused to O_MAYEXEC under policy 3 but script. */
static void populate(struct __test_metadata *_metadata, struct omx_ws *ws)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int sock;

	ASSERT_EQ(0, omx_ws_create(ws));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(ws, "exec", 0));
	ASSERT_EQ(0, omx_ws_file(ws, "exec/script", 0755, 0, 0));
	ASSERT_EQ(0, omx_ws_file(ws, "exec/data", 0644, 0, 0));
	ASSERT_EQ(0, omx_ws_file(ws, "exec/secret", 0600, 0, 0));
	ASSERT_EQ(0, omx_ws_copy_self(ws, "exec/probe", 0755));
	ASSERT_EQ(0, mkdirat(ws->dirfd, "exec/directory", 0755));
	ASSERT_EQ(0, mkdirat(ws->dirfd, "exec/shared", 0777));
	ASSERT_EQ(0, mkfifoat(ws->dirfd, "exec/fifo", 0666));
	ASSERT_EQ(0, mknodat(ws->dirfd, "exec/null", S_IFCHR | 0666,
			     makedev(1, 3)));
	ASSERT_EQ(0, symlinkat("script", ws->dirfd, "exec/link"));
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s",
		 omx_ws_path(ws, "exec/socket"));
	sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ASSERT_LE(0, sock);
	ASSERT_EQ(0, bind(sock, (struct sockaddr *)&addr, sizeof(addr)));
	close(sock);
	ASSERT_EQ(0, omx_ws_mount_tmpfs(ws, "noexec", MS_NOEXEC));
	ASSERT_EQ(0, omx_ws_file(ws, "noexec/script", 0755, 0, 0));
	ASSERT_EQ(0, omx_ws_copy_self(ws, "noexec/probe", 0755));
}

/* ---- Same results as under policy 0 ----------------------------------- */

enum syscall_kind { SYS_OPEN, SYS_OPENAT, SYS_OPENAT2 };

static const struct plain_case {
	const char *path;	/* relative to the workspace */
	int flags;
	bool opens;		/* succeeds for every caller */
} plain_cases[] = {
	{ "exec/script", O_RDONLY, true },
	{ "exec/data", O_RDONLY, true },
	{ "exec/data", O_RDWR, false },
	{ "exec/data", O_WRONLY | O_APPEND, false },
	{ "exec/secret", O_RDONLY, false },
	{ "exec/shared/created", O_WRONLY | O_CREAT, true },
	{ "noexec/script", O_RDONLY, true },
	{ "noexec/script", O_RDWR, false },
	{ "noexec/script", O_PATH, true },
	{ "exec/directory", O_RDONLY, true },
	{ "exec/directory", O_RDONLY | O_DIRECTORY, true },
	{ "exec/directory", O_PATH, true },
	{ "exec/directory", O_WRONLY, false },
	{ "exec/script", O_RDONLY | O_DIRECTORY, false },
	{ "exec/fifo", O_RDONLY | O_NONBLOCK, true },
	{ "exec/fifo", O_WRONLY | O_NONBLOCK, false },
	{ "exec/null", O_RDWR, true },
	{ "exec/socket", O_RDONLY, false },
	{ "exec/socket", O_PATH, true },
	{ "exec/link", O_RDONLY, true },
	{ "exec/link", O_RDONLY | O_NOFOLLOW, false },
	{ "exec/link", O_PATH | O_NOFOLLOW, true },
	{ "exec/missing", O_RDONLY, false },
	{ "noexec/missing/x", O_RDONLY, false },
};

#define NR_RESULTS (ARRAY_LEN(plain_cases) * 3)

struct plain_results {
	/* Per case and syscall: -errno, or the fd's f_flags. */
	int result[NR_RESULTS];
};

struct plain_run {
	enum omx_caller caller;
	int dirfd;
	struct plain_results *out;	/* shared with the parent */
};

static int run_plain_cases(void *arg)
{
	struct plain_run *run = arg;
	unsigned int i, sys;
	char path[PATH_MAX];
	int ret, fd;

	ret = omx_become(run->caller);
	if (ret)
		return ret;
	for (i = 0; i < ARRAY_LEN(plain_cases); i++) {
		const struct plain_case *c = &plain_cases[i];
		int flags = c->flags | O_CLOEXEC;

		for (sys = SYS_OPEN; sys <= SYS_OPENAT2; sys++) {
			switch (sys) {
			case SYS_OPEN:
				snprintf(path, sizeof(path), "/proc/self/fd/%d/%s",
					 run->dirfd, c->path);
				fd = open(path, flags, 0644);
				fd = fd < 0 ? -errno : fd;
				break;
			case SYS_OPENAT:
				fd = openat(run->dirfd, c->path, flags, 0644);
				fd = fd < 0 ? -errno : fd;
				break;
			default: {
				struct open_how how = {
					.flags = flags,
					.mode = c->flags & O_CREAT ? 0644 : 0,
				};

				fd = sys_openat2(run->dirfd, c->path, &how);
			}
			}
			if (fd >= 0) {
				ret = omx_fd_flags(fd);
				close(fd);
			} else {
				ret = fd;
			}
			run->out->result[i * 3 + sys] = ret;
		}
	}
	return 0;
}

FIXTURE(plain_open) {
	struct omx_ws ws;
	struct plain_results *baseline, *enforced;
};

FIXTURE_VARIANT(plain_open) {
	int policy;
	enum omx_caller caller;
};

FIXTURE_VARIANT_ADD(plain_open, policy_1_as_root) {
	.policy = 1, .caller = OMX_ROOT,
};
FIXTURE_VARIANT_ADD(plain_open, policy_2_as_root) {
	.policy = 2, .caller = OMX_ROOT,
};
FIXTURE_VARIANT_ADD(plain_open, policy_3_as_root) {
	.policy = 3, .caller = OMX_ROOT,
};
FIXTURE_VARIANT_ADD(plain_open, policy_3_as_root_without_dac_override) {
	.policy = 3, .caller = OMX_ROOT_WITHOUT_DAC_OVERRIDE,
};
FIXTURE_VARIANT_ADD(plain_open, policy_3_as_user) {
	.policy = 3, .caller = OMX_USER,
};

FIXTURE_SETUP(plain_open)
{
	populate(_metadata, &self->ws);
	self->baseline = mmap(NULL, 2 * sizeof(struct plain_results),
			      PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->baseline);
	self->enforced = self->baseline + 1;
}

FIXTURE_TEARDOWN(plain_open)
{
	EXPECT_EQ(0, omx_policy_set(0));
	EXPECT_EQ(0, omx_ws_destroy(&self->ws));
}

static const char *const syscall_names[] = { "open", "openat", "openat2" };

TEST_F(plain_open, same_results_as_policy_0)
{
	struct plain_run run = {
		.caller = variant->caller,
		.dirfd = self->ws.dirfd,
	};
	unsigned int i;

	ASSERT_EQ(0, omx_policy_set(0));
	run.out = self->baseline;
	ASSERT_EQ(0, omx_in_child(run_plain_cases, &run));

	ASSERT_EQ(0, omx_policy_set(variant->policy));
	run.out = self->enforced;
	ASSERT_EQ(0, omx_in_child(run_plain_cases, &run));

	for (i = 0; i < NR_RESULTS; i++) {
		const struct plain_case *c = &plain_cases[i / 3];

		EXPECT_EQ(self->baseline->result[i], self->enforced->result[i])
			TH_LOG("%s(%s, 0%o) as %s: policy 0 gave %d, policy %d gave %d",
			       syscall_names[i % 3], c->path, c->flags,
			       omx_caller_name(variant->caller),
			       self->baseline->result[i], variant->policy,
			       self->enforced->result[i]);
		if (self->enforced->result[i] >= 0)
			EXPECT_EQ(0, self->enforced->result[i] & OMX_EXEC_OPEN_BITS);
	}
	/* What the module refuses to O_MAYEXEC really opens without it. */
	for (i = 0; i < NR_RESULTS; i++) {
		const struct plain_case *c = &plain_cases[i / 3];

		if (c->opens)
			EXPECT_LE(0, self->enforced->result[i])
				TH_LOG("%s(%s, 0%o)", syscall_names[i % 3],
				       c->path, c->flags);
	}
}

/* ---- Concurrency -------------------------------------------------------- */

#define ITERATIONS	3000

enum worker_kind {
	DENIED_MAYEXEC,		/* O_MAYEXEC opens that policy 3 refuses */
	ALLOWED_MAYEXEC,	/* O_MAYEXEC opens that policy 3 allows */
	PLAIN,			/* the same objects, without O_MAYEXEC */
};

struct worker {
	pthread_t thread;
	enum worker_kind kind;
	int dirfd;
	atomic_int *start;
	int wrong;		/* iterations with an unexpected result */
	char first_wrong[160];
};

static const char *const denied_paths[] = {
	"noexec/script", "exec/data", "exec/directory",
};

static void note_wrong(struct worker *w, const char *what, const char *path,
		       int got)
{
	if (!w->wrong++)
		snprintf(w->first_wrong, sizeof(w->first_wrong),
			 "%s %s gave %d", what, path, got);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	int i, fd, flags;

	while (!atomic_load(w->start))
		;
	for (i = 0; i < ITERATIONS; i++) {
		const char *path = denied_paths[i % ARRAY_LEN(denied_paths)];

		switch (w->kind) {
		case DENIED_MAYEXEC:
			fd = omx_openat2(w->dirfd, path,
					 O_RDONLY | O_CLOEXEC | O_MAYEXEC, 0);
			if (fd >= 0)
				close(fd);
			if (fd != -EACCES)
				note_wrong(w, "O_MAYEXEC openat2", path, fd);
			break;
		case ALLOWED_MAYEXEC:
			fd = omx_openat2(w->dirfd, "exec/script",
					 O_RDONLY | O_CLOEXEC | O_MAYEXEC, 0);
			flags = fd >= 0 ? omx_fd_flags(fd) : 0;
			if (fd >= 0)
				close(fd);
			if (fd < 0 || (flags & OMX_EXEC_OPEN_BITS) != omx_mayexec_open_bits())
				note_wrong(w, "O_MAYEXEC openat2", "exec/script",
					   fd < 0 ? fd : flags);
			break;
		case PLAIN:
			switch (i % 3) {
			case 0:
				fd = omx_openat2(w->dirfd, path,
						 O_RDONLY | O_CLOEXEC, 0);
				break;
			case 1:
				fd = openat(w->dirfd, path, O_RDONLY | O_CLOEXEC);
				fd = fd < 0 ? -errno : fd;
				break;
			default:
				fd = openat(w->dirfd, path,
					    O_RDONLY | O_CLOEXEC | O_MAYEXEC);
				fd = fd < 0 ? -errno : fd;
			}
			flags = fd >= 0 ? omx_fd_flags(fd) : 0;
			if (fd >= 0)
				close(fd);
			if (fd < 0 || (flags & OMX_EXEC_OPEN_BITS))
				note_wrong(w, "plain open", path,
					   fd < 0 ? fd : flags);
			break;
		}
	}
	return NULL;
}

FIXTURE(concurrent) {
	struct omx_ws ws;
};

FIXTURE_VARIANT(concurrent) {
	/* How many threads of each kind run at the same time. */
	int denied_mayexec, allowed_mayexec, plain;
};

/* Plain opens, mostly, next to a thread being refused. */
FIXTURE_VARIANT_ADD(concurrent, plain_opens_next_to_refusals) {
	.denied_mayexec = 1, .allowed_mayexec = 0, .plain = 3,
};
/* Refusals, mostly, next to a thread opening plainly. */
FIXTURE_VARIANT_ADD(concurrent, refusals_next_to_plain_opens) {
	.denied_mayexec = 3, .allowed_mayexec = 0, .plain = 1,
};
/* All three kinds at once. */
FIXTURE_VARIANT_ADD(concurrent, refusals_allowed_exec_opens_and_plain_opens) {
	.denied_mayexec = 2, .allowed_mayexec = 1, .plain = 2,
};

FIXTURE_SETUP(concurrent)
{
	populate(_metadata, &self->ws);
	ASSERT_EQ(0, omx_policy_set(3));
}

FIXTURE_TEARDOWN(concurrent)
{
	EXPECT_EQ(0, omx_policy_set(0));
	EXPECT_EQ(0, omx_ws_destroy(&self->ws));
}

TEST_F_TIMEOUT(concurrent, threads_of_one_process, 300)
{
	static const char *const kind_names[] = {
		"refused O_MAYEXEC", "allowed O_MAYEXEC", "plain",
	};
	struct worker workers[16] = {};
	atomic_int start = 0;
	int i, n = 0;

	for (i = 0; i < variant->denied_mayexec; i++)
		workers[n++].kind = DENIED_MAYEXEC;
	for (i = 0; i < variant->allowed_mayexec; i++)
		workers[n++].kind = ALLOWED_MAYEXEC;
	for (i = 0; i < variant->plain; i++)
		workers[n++].kind = PLAIN;
	for (i = 0; i < n; i++) {
		workers[i].dirfd = self->ws.dirfd;
		workers[i].start = &start;
		ASSERT_EQ(0, pthread_create(&workers[i].thread, NULL, work,
					    &workers[i]));
	}
	atomic_store(&start, 1);
	for (i = 0; i < n; i++) {
		pthread_join(workers[i].thread, NULL);
		EXPECT_EQ(0, workers[i].wrong)
			TH_LOG("%s thread %d: %d of %d wrong, first: %s",
			       kind_names[workers[i].kind], i, workers[i].wrong,
			       ITERATIONS, workers[i].first_wrong);
	}
}

/* ---- After an O_MAYEXEC open that failed early ------------------------- */

static int fail_enoent(int dirfd)
{
	return omx_openat2(dirfd, "exec/missing", O_RDONLY | O_MAYEXEC, 0);
}

static int fail_enoent_directory(int dirfd)
{
	return omx_openat2(dirfd, "noexec/missing/script",
			   O_RDONLY | O_MAYEXEC, 0);
}

static int fail_enotdir(int dirfd)
{
	return omx_openat2(dirfd, "exec/script/x", O_RDONLY | O_MAYEXEC, 0);
}

static int fail_eloop(int dirfd)
{
	return omx_openat2(dirfd, "exec/link", O_RDONLY | O_NOFOLLOW | O_MAYEXEC,
			   0);
}

static int fail_einval_o_path(int dirfd)
{
	return omx_openat2(dirfd, "exec/script", O_PATH | O_MAYEXEC, 0);
}

static int fail_einval_o_creat(int dirfd)
{
	return omx_openat2(dirfd, "exec/new", O_WRONLY | O_CREAT | O_MAYEXEC, 0);
}

static int fail_einval_unknown_flag(int dirfd)
{
	return omx_openat2(dirfd, "exec/script",
			   O_RDONLY | O_MAYEXEC | (1ULL << 40), 0);
}

static int fail_einval_struct_size(int dirfd)
{
	struct open_how how = { .flags = O_RDONLY | O_MAYEXEC };

	return raw_openat2(dirfd, "exec/script", &how, 8);
}

static int fail_efault_path(int dirfd)
{
	return omx_openat2(dirfd, (const char *)1, O_RDONLY | O_MAYEXEC, 0);
}

static int fail_efault_how(int dirfd)
{
	return raw_openat2(dirfd, "exec/script", (void *)1,
			   sizeof(struct open_how));
}

static int fail_enametoolong(int dirfd)
{
	static char path[PATH_MAX + 16];

	memset(path, 'x', sizeof(path) - 1);
	return omx_openat2(dirfd, path, O_RDONLY | O_MAYEXEC, 0);
}

/* No free fd under RLIMIT_NOFILE: fails before any lookup. */
static int fail_emfile(int dirfd)
{
	struct rlimit saved, lim;
	int lowest, ret;

	if (getrlimit(RLIMIT_NOFILE, &saved))
		return INT_MIN;
	lowest = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (lowest < 0)
		return INT_MIN;
	close(lowest);
	lim = saved;
	lim.rlim_cur = lowest;
	if (setrlimit(RLIMIT_NOFILE, &lim))
		return INT_MIN;
	ret = omx_openat2(dirfd, "exec/script", O_RDONLY | O_MAYEXEC, 0);
	if (setrlimit(RLIMIT_NOFILE, &saved))
		return INT_MIN;
	return ret;
}

/* Not early, but a refusal: the next opens must not inherit it either. */
static int fail_refused(int dirfd)
{
	return omx_openat2(dirfd, "noexec/script", O_RDONLY | O_MAYEXEC, 0);
}

FIXTURE(after_early_failure) {
	struct omx_ws ws;
};

FIXTURE_VARIANT(after_early_failure) {
	int (*fail)(int dirfd);	/* an O_MAYEXEC open that fails */
	int result;		/* with this */
};

FIXTURE_VARIANT_ADD(after_early_failure, enoent) {
	.fail = fail_enoent, .result = -ENOENT,
};
FIXTURE_VARIANT_ADD(after_early_failure, enoent_in_directory) {
	.fail = fail_enoent_directory, .result = -ENOENT,
};
FIXTURE_VARIANT_ADD(after_early_failure, enotdir) {
	.fail = fail_enotdir, .result = -ENOTDIR,
};
FIXTURE_VARIANT_ADD(after_early_failure, eloop) {
	.fail = fail_eloop, .result = -ELOOP,
};
FIXTURE_VARIANT_ADD(after_early_failure, einval_o_path) {
	.fail = fail_einval_o_path, .result = -EINVAL,
};
FIXTURE_VARIANT_ADD(after_early_failure, einval_o_creat) {
	.fail = fail_einval_o_creat, .result = -EINVAL,
};
FIXTURE_VARIANT_ADD(after_early_failure, einval_unknown_flag) {
	.fail = fail_einval_unknown_flag, .result = -EINVAL,
};
FIXTURE_VARIANT_ADD(after_early_failure, einval_struct_size) {
	.fail = fail_einval_struct_size, .result = -EINVAL,
};
FIXTURE_VARIANT_ADD(after_early_failure, efault_path) {
	.fail = fail_efault_path, .result = -EFAULT,
};
FIXTURE_VARIANT_ADD(after_early_failure, efault_open_how) {
	.fail = fail_efault_how, .result = -EFAULT,
};
FIXTURE_VARIANT_ADD(after_early_failure, enametoolong) {
	.fail = fail_enametoolong, .result = -ENAMETOOLONG,
};
FIXTURE_VARIANT_ADD(after_early_failure, emfile) {
	.fail = fail_emfile, .result = -EMFILE,
};
FIXTURE_VARIANT_ADD(after_early_failure, eacces_refused) {
	.fail = fail_refused, .result = -EACCES,
};

FIXTURE_SETUP(after_early_failure)
{
	populate(_metadata, &self->ws);
	ASSERT_EQ(0, omx_policy_set(3));
}

FIXTURE_TEARDOWN(after_early_failure)
{
	EXPECT_EQ(0, omx_policy_set(0));
	EXPECT_EQ(0, omx_ws_destroy(&self->ws));
}

TEST_F(after_early_failure, next_plain_open_is_normal)
{
	unsigned int i;
	int fd;

	for (i = 0; i < ARRAY_LEN(denied_paths); i++) {
		ASSERT_EQ(variant->result, variant->fail(self->ws.dirfd));
		fd = omx_openat2(self->ws.dirfd, denied_paths[i],
				 O_RDONLY | O_CLOEXEC, 0);
		ASSERT_LE(0, fd) TH_LOG("plain openat2(%s)", denied_paths[i]);
		EXPECT_EQ(0, omx_fd_flags(fd) & OMX_EXEC_OPEN_BITS);
		close(fd);

		ASSERT_EQ(variant->result, variant->fail(self->ws.dirfd));
		EXPECT_EQ(0, omx_probe_openat(self->ws.dirfd, denied_paths[i],
					      O_RDONLY | O_CLOEXEC))
			TH_LOG("openat(%s)", denied_paths[i]);
	}
	ASSERT_EQ(variant->result, variant->fail(self->ws.dirfd));
	EXPECT_EQ(0, omx_probe_openat2(self->ws.dirfd, "exec/fifo",
				       O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0));
}

TEST_F(after_early_failure, next_mayexec_open_is_judged_normally)
{
	int fd;

	ASSERT_EQ(variant->result, variant->fail(self->ws.dirfd));
	fd = omx_openat2(self->ws.dirfd, "exec/script",
			 O_RDONLY | O_CLOEXEC | O_MAYEXEC, 0);
	ASSERT_LE(0, fd);
	EXPECT_EQ(omx_mayexec_open_bits(), omx_fd_flags(fd) & OMX_EXEC_OPEN_BITS);
	close(fd);

	ASSERT_EQ(variant->result, variant->fail(self->ws.dirfd));
	EXPECT_EQ(-EACCES, omx_probe_openat2(self->ws.dirfd, "noexec/script",
					     O_RDONLY | O_MAYEXEC, 0));
	ASSERT_EQ(variant->result, variant->fail(self->ws.dirfd));
	EXPECT_EQ(-EACCES, omx_probe_openat2(self->ws.dirfd, "exec/data",
					     O_RDONLY | O_MAYEXEC, 0));
}

/*
 * In one task: the failed O_MAYEXEC open, then execve().  Exit status of
 * the probe (OMX_EXEC_PROBE_STATUS) or 100 + execve's errno.
 */
static int fail_then_execve(const FIXTURE_VARIANT(after_early_failure) *variant,
			    int dirfd, const char *path)
{
	char *const argv[] = { (char *)path, NULL };
	char *const envp[] = { OMX_EXEC_PROBE_ENV, NULL };
	int status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		if (variant->fail(dirfd) != variant->result)
			_exit(99);
		execve(path, argv, envp);
		_exit(100 + errno);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

TEST_F(after_early_failure, next_execve_is_normal)
{
	EXPECT_EQ(OMX_EXEC_PROBE_STATUS,
		  fail_then_execve(variant, self->ws.dirfd,
				   omx_ws_path(&self->ws, "exec/probe")));
	EXPECT_EQ(100 + EACCES,
		  fail_then_execve(variant, self->ws.dirfd,
				   omx_ws_path(&self->ws, "noexec/probe")));
	/* And without any failure before, for comparison. */
	EXPECT_EQ(OMX_EXEC_PROBE_STATUS,
		  omx_run_exec_probe(omx_ws_path(&self->ws, "exec/probe")));
}

TEST_HARNESS_MAIN
