// SPDX-License-Identifier: GPL-2.0
/*
 * libomayexec (userspace/lib/libomayexec.c), its API called directly, and its
 * fallbacks seen through omxsh, with and without the module:
 * - omayexec_open() rejects flags that make no sense for code (EINVAL),
 *   opens with O_MAYEXEC (in f_flags; __FMODE_EXEC too before 6.8;
 *   close-on-exec), and never falls back on a refusal: EACCES stands in
 *   best-effort mode too;
 * - omayexec_fopen(), omayexec_check_fd(), the state, the policy calls;
 * - no file descriptor is left behind by a failing call;
 * - with the module unloaded: best effort opens without the flag; strict
 *   (asked by the caller, the environment or /etc/omayexec.conf) fails
 *   with EOPNOTSUPP; the configuration file wins over the environment and
 *   the caller; a configuration file that cannot be trusted or parsed
 *   fails closed.  omxsh shows the same end to end.
 *
 * The library is compiled into this test (tests/Makefile does not link
 * userspace/): it is the same source as libomayexec.a, with the default
 * configuration path, /etc/omayexec.conf.  The test writes that file in
 * the guest and removes it; it refuses to run over one it did not write.
 * Tests that unload the module load it again (without parameters).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "omx_test.h"
#include "userspace_run.h"
#include "../userspace/lib/libomayexec.c"

/* ---- Helpers ------------------------------------------------------------- */

static int count_fds(void)
{
	struct dirent *de;
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1;	/* the DIR's own */
}

/* Whatever a test killed midway left: our config, the module unloaded. */
static pid_t main_pid;

static void __attribute__((constructor)) lib_test_start(void)
{
	main_pid = getpid();
}

static void __attribute__((destructor)) lib_test_end(void)
{
	if (getpid() != main_pid)
		return;
	us_conf_remove();
	us_module_reload();
}

/* The workspace: exec/x (0755), exec/nx (0644), noexec/x (0755). */
static int populate(struct omx_ws *ws)
{
	int ret;

	ret = omx_ws_mount_tmpfs(ws, "exec", 0);
	if (!ret)
		ret = omx_ws_mount_tmpfs(ws, "noexec", MS_NOEXEC);
	if (!ret)
		ret = us_write_file(omx_ws_path(ws, "exec/x"), "echo x\n", 0755);
	if (!ret)
		ret = us_write_file(omx_ws_path(ws, "exec/nx"), "echo nx\n", 0644);
	if (!ret)
		ret = us_write_file(omx_ws_path(ws, "noexec/x"),
				    "echo noexec x\n", 0755);
	return ret;
}

/* omayexec_open() of @rel in the workspace: 0, or -errno; closes the fd. */
static int probe(const struct omx_ws *ws, const char *rel)
{
	int fd = omayexec_open(ws->dirfd, rel, O_RDONLY);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* ---- With the module ---------------------------------------------------- */

FIXTURE(lib) {
	struct omx_ws ws;
	int fds;
};

FIXTURE_SETUP(lib)
{
	ASSERT_FALSE(access(US_CONF, F_OK) == 0 && !us_conf_is_ours())
		TH_LOG("%s exists: not overwriting it", US_CONF);
	us_conf_remove();
	ASSERT_TRUE(omx_module_loaded());
	ASSERT_EQ(0, omx_ws_create(&self->ws));
	ASSERT_EQ(0, populate(&self->ws));
	unsetenv("OMAYEXEC_MODE");
	unsetenv("OMAYEXEC_DENY_INTERACTIVE");
	self->fds = count_fds();
}

FIXTURE_TEARDOWN(lib)
{
	/* No call of the test left a descriptor open. */
	EXPECT_EQ(self->fds, count_fds());
	us_conf_remove();
	EXPECT_EQ(0, omx_policy_set(0));
	EXPECT_EQ(0, omx_ws_destroy(&self->ws));
}

TEST_F(lib, open_rejects_flags_that_are_not_for_reading_code)
{
	static const int bad[] = {
		O_WRONLY, O_RDWR, O_RDONLY | O_CREAT, O_RDONLY | O_TRUNC,
		O_PATH, O_RDONLY | O_TMPFILE, O_RDONLY | O_APPEND,
		O_RDONLY | O_DIRECTORY, O_RDONLY | O_EXCL, O_RDONLY | O_SYNC,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(bad); i++) {
		errno = 0;
		EXPECT_EQ(-1, omayexec_open(self->ws.dirfd, "exec/x", bad[i]))
			TH_LOG("flags %#o", bad[i]);
		EXPECT_EQ(EINVAL, errno) TH_LOG("flags %#o", bad[i]);
	}
	errno = 0;
	EXPECT_EQ(-1, omayexec_open(AT_FDCWD, NULL, O_RDONLY));
	EXPECT_EQ(EINVAL, errno);
	/* Nothing was created or truncated. */
	EXPECT_EQ(-ENOENT, omx_probe_openat(self->ws.dirfd, "exec/new", O_RDONLY));
}

TEST_F(lib, open_is_an_exec_open_and_close_on_exec)
{
	int fd, flags;

	fd = omayexec_open(self->ws.dirfd, "exec/x",
			   O_RDONLY | O_NOFOLLOW | O_NOCTTY);
	ASSERT_LE(0, fd);
	/* O_MAYEXEC: the open's mark (omx.h) on every kernel. */
	EXPECT_EQ(omx_mayexec_open_bits(),
		  omx_fdinfo_flags(fd) & OMX_EXEC_OPEN_BITS);
	flags = fcntl(fd, F_GETFD);
	EXPECT_EQ(FD_CLOEXEC, flags & FD_CLOEXEC);
	close(fd);
}

TEST_F(lib, refusals_stand_in_best_effort_mode)
{
	int policy;

	ASSERT_EQ(OMAYEXEC_BEST_EFFORT, omayexec_mode());
	for (policy = 0; policy <= 3; policy++) {
		ASSERT_EQ(0, omx_policy_set(policy));
		EXPECT_EQ(0, probe(&self->ws, "exec/x"));
		EXPECT_EQ(policy & 2 ? -EACCES : 0, probe(&self->ws, "exec/nx"))
			TH_LOG("policy %d", policy);
		EXPECT_EQ(policy & 1 ? -EACCES : 0, probe(&self->ws, "noexec/x"))
			TH_LOG("policy %d", policy);
	}
	/* Ordinary errors are the kernel's own. */
	ASSERT_EQ(0, symlinkat("x", self->ws.dirfd, "exec/link"));
	errno = 0;
	EXPECT_EQ(-1, omayexec_open(self->ws.dirfd, "exec/link",
				    O_RDONLY | O_NOFOLLOW));
	EXPECT_EQ(ELOOP, errno);
	EXPECT_EQ(-ENOENT, probe(&self->ws, "exec/missing"));
}

TEST_F(lib, fopen)
{
	static const char *const bad[] = { "w", "r+", "a", "", "rw", "rx" };
	char line[32] = "";
	unsigned int i;
	FILE *f;

	for (i = 0; i < ARRAY_LEN(bad); i++) {
		errno = 0;
		EXPECT_EQ(NULL, omayexec_fopen(omx_ws_path(&self->ws, "exec/x"),
					       bad[i])) TH_LOG("'%s'", bad[i]);
		EXPECT_EQ(EINVAL, errno) TH_LOG("'%s'", bad[i]);
	}
	errno = 0;
	EXPECT_EQ(NULL, omayexec_fopen(omx_ws_path(&self->ws, "exec/x"), NULL));
	EXPECT_EQ(EINVAL, errno);

	f = omayexec_fopen(omx_ws_path(&self->ws, "exec/x"), "rbe");
	ASSERT_NE(NULL, f);
	EXPECT_NE(NULL, fgets(line, sizeof(line), f));
	EXPECT_STREQ("echo x\n", line);
	EXPECT_EQ(omx_mayexec_open_bits(),
		  omx_fdinfo_flags(fileno(f)) & OMX_EXEC_OPEN_BITS);
	fclose(f);

	ASSERT_EQ(0, omx_policy_set(1));
	errno = 0;
	EXPECT_EQ(NULL, omayexec_fopen(omx_ws_path(&self->ws, "noexec/x"), "r"));
	EXPECT_EQ(EACCES, errno);
}

TEST_F(lib, check_fd)
{
	int fd, pipefd[2], policy;
	bool refused;

	ASSERT_EQ(0, pipe2(pipefd, O_CLOEXEC));
	for (policy = 0; policy <= 3; policy++) {
		ASSERT_EQ(0, omx_policy_set(policy));
		fd = openat(self->ws.dirfd, "exec/x", O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, fd);
		EXPECT_EQ(0, omayexec_check_fd(fd));
		close(fd);
		/*
		 * On a noexec mount: refused by the policy, and by the exec
		 * check wherever the module answers it (check_fd enforces it
		 * whatever the mode).
		 */
		refused = (policy & 1) || omx_exec_check_enabled();
		fd = openat(self->ws.dirfd, "noexec/x", O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, fd);
		errno = 0;
		EXPECT_EQ(refused ? -1 : 0, omayexec_check_fd(fd));
		EXPECT_EQ(refused ? EACCES : 0, errno);
		close(fd);
		/* Not regular files, whatever the policy. */
		errno = 0;
		EXPECT_EQ(-1, omayexec_check_fd(pipefd[0]));
		EXPECT_EQ(EACCES, errno);
		errno = 0;
		EXPECT_EQ(-1, omayexec_check_fd(self->ws.dirfd));
		EXPECT_EQ(EACCES, errno);
	}
	errno = 0;
	EXPECT_EQ(-1, omayexec_check_fd(1000));
	EXPECT_EQ(EBADF, errno);
	close(pipefd[0]);
	close(pipefd[1]);
}

TEST_F(lib, state_as_root)
{
	struct omayexec_state st, st2;
	int policy;

	errno = 0;
	EXPECT_EQ(-1, omayexec_get_state(NULL, sizeof(st)));
	EXPECT_EQ(EINVAL, errno);
	/* A struct shorter than 1.0.0's is refused; 1.0.0's gets its fields. */
	EXPECT_EQ(-1, omayexec_get_state(&st, offsetof(struct omayexec_state, exec_check) - 1));
	memset(&st, 0x5a, sizeof(st));
	ASSERT_EQ(0, omayexec_get_state(&st, offsetof(struct omayexec_state, exec_check)));
	EXPECT_EQ(1, st.module_loaded);
	EXPECT_EQ(0x5a5a5a5a, st.exec_check);
	ASSERT_EQ(0, omayexec_get_state(&st, sizeof(st)));
	EXPECT_EQ(omx_exec_check_enabled() ? OMAYEXEC_EXEC_CHECK_MODULE : OMAYEXEC_EXEC_CHECK_NONE,
		  st.exec_check);
	EXPECT_EQ(0, st.securebits & (SECBIT_EXEC_RESTRICT_FILE | SECBIT_EXEC_DENY_INTERACTIVE));
	EXPECT_EQ(0, st.restrict_file);

	for (policy = 0; policy <= 3; policy++) {
		ASSERT_EQ(0, omx_policy_set(policy));
		ASSERT_EQ(0, omayexec_get_state(&st, sizeof(st)));
		EXPECT_EQ(1, st.kernel_support);
		EXPECT_EQ(1, st.module_loaded);
		EXPECT_EQ(policy, st.policy);
		EXPECT_EQ(0, st.policy_errno);
		EXPECT_EQ(0, st.locked);
		EXPECT_EQ(1, st.stats_available);
		EXPECT_EQ(OMAYEXEC_BEST_EFFORT, st.mode);
		EXPECT_EQ(OMAYEXEC_SOURCE_DEFAULT, st.mode_source);
		EXPECT_EQ(0, st.deny_interactive);
		EXPECT_EQ(0, st.config_errno);
	}
	/* The counters move with the opens (policy 3 now). */
	EXPECT_EQ(0, probe(&self->ws, "exec/x"));
	EXPECT_EQ(-EACCES, probe(&self->ws, "noexec/x"));
	EXPECT_EQ(-EACCES, probe(&self->ws, "exec/nx"));
	ASSERT_EQ(0, omayexec_get_state(&st2, sizeof(st2)));
	EXPECT_EQ(st.allowed + 1, st2.allowed);
	EXPECT_EQ(st.refused_noexec_mount + 1, st2.refused_noexec_mount);
	EXPECT_EQ(st.refused_no_exec_permission + 1,
		  st2.refused_no_exec_permission);
	EXPECT_EQ(st.refused_not_regular, st2.refused_not_regular);
}

static int state_as_user(void *arg)
{
	struct omayexec_state st;
	int ret = omx_become_user();

	(void)arg;
	if (ret)
		return 1000 + ret;
	if (omayexec_get_state(&st, sizeof(st)))
		return 2000;
	/* The policy is the one thing a user cannot read. */
	if (st.policy != -1 || st.policy_errno != EACCES)
		return 3000 + st.policy_errno;
	if (st.kernel_support != 1 || st.module_loaded != 1 ||
	    st.locked != 0 || st.stats_available != 1)
		return 4000;
	/* Nor set. */
	if (omayexec_set_policy(1) != -1)
		return 5000;
	return errno;
}

TEST_F(lib, state_and_set_as_user)
{
	ASSERT_EQ(0, omx_policy_set(2));
	EXPECT_EQ(EACCES, omx_in_child(state_as_user, NULL));
	EXPECT_EQ(2, omx_policy_read());
}

TEST_F(lib, set_and_parse_policy)
{
	static const struct {
		const char *text;
		int policy;
	} names[] = {
		{ "0", 0 }, { "1", 1 }, { "2", 2 }, { "3", 3 },
		{ "off", 0 }, { "mount", 1 }, { "file", 2 },
		{ "mount,file", 3 }, { "file,mount", 3 },
		{ "4", -1 }, { "-1", -1 }, { "", -1 }, { "03", -1 },
		{ "mount,", -1 }, { "Mount", -1 }, { "3 ", -1 },
		{ "none", -1 }, { "both", -1 },
	};
	unsigned int i;
	int p;

	for (i = 0; i < ARRAY_LEN(names); i++) {
		errno = 0;
		EXPECT_EQ(names[i].policy, omayexec_parse_policy(names[i].text))
			TH_LOG("'%s'", names[i].text);
		if (names[i].policy < 0)
			EXPECT_EQ(EINVAL, errno);
	}
	EXPECT_EQ(-1, omayexec_parse_policy(NULL));
	for (p = 0; p <= 3; p++) {
		EXPECT_EQ(p, omayexec_parse_policy(omayexec_policy_name(p)));
		ASSERT_EQ(0, omayexec_set_policy(p));
		EXPECT_EQ(p, omx_policy_read());
	}
	EXPECT_EQ(NULL, omayexec_policy_name(4));
	EXPECT_EQ(NULL, omayexec_policy_name(-1));
	errno = 0;
	EXPECT_EQ(-1, omayexec_set_policy(4));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(3, omx_policy_read());
	/* Root without CAP_MAC_ADMIN: the kernel's EPERM. */
	ASSERT_EQ(0, omx_mac_admin(false));
	errno = 0;
	EXPECT_EQ(-1, omayexec_set_policy(0));
	EXPECT_EQ(EPERM, errno);
	ASSERT_EQ(0, omx_mac_admin(true));
	EXPECT_EQ(3, omx_policy_read());
}

/* Where the mode and the interactive setting come from. */
TEST_F(lib, mode_sources_strictest_wins)
{
	struct omayexec_state st;

	ASSERT_EQ(0, omayexec_get_state(&st, sizeof(st)));
	EXPECT_EQ(OMAYEXEC_BEST_EFFORT, st.mode);
	EXPECT_EQ(OMAYEXEC_SOURCE_DEFAULT, st.mode_source);

	/* The environment raises; "best-effort" lowers nothing. */
	setenv("OMAYEXEC_MODE", "strict", 1);
	ASSERT_EQ(0, omayexec_get_state(&st, sizeof(st)));
	EXPECT_EQ(OMAYEXEC_STRICT, st.mode);
	EXPECT_EQ(OMAYEXEC_SOURCE_ENVIRONMENT, st.mode_source);
	setenv("OMAYEXEC_MODE", "strcit", 1);
	EXPECT_EQ(OMAYEXEC_STRICT, omayexec_mode());
	setenv("OMAYEXEC_MODE", "best-effort", 1);
	EXPECT_EQ(OMAYEXEC_BEST_EFFORT, omayexec_mode());

	/* The caller raises; the environment cannot lower it. */
	EXPECT_EQ(-1, omayexec_set_mode(2));
	ASSERT_EQ(0, omayexec_set_mode(OMAYEXEC_STRICT));
	ASSERT_EQ(0, omayexec_get_state(&st, sizeof(st)));
	EXPECT_EQ(OMAYEXEC_STRICT, st.mode);
	EXPECT_EQ(OMAYEXEC_SOURCE_CALLER, st.mode_source);

	/* The configuration file wins over both. */
	ASSERT_EQ(0, omayexec_set_mode(OMAYEXEC_BEST_EFFORT));
	ASSERT_EQ(0, us_conf_write("mode = strict\n", 0644, 0));
	ASSERT_EQ(0, omayexec_get_state(&st, sizeof(st)));
	EXPECT_EQ(OMAYEXEC_STRICT, st.mode);
	EXPECT_EQ(OMAYEXEC_SOURCE_CONFIG, st.mode_source);
	EXPECT_EQ(0, st.config_errno);
	EXPECT_EQ(0, st.deny_interactive);

	/* A best-effort file still lets the environment raise. */
	ASSERT_EQ(0, us_conf_write("# comment\n\n  mode=best-effort  \n", 0644, 0));
	EXPECT_EQ(OMAYEXEC_BEST_EFFORT, omayexec_mode());
	setenv("OMAYEXEC_MODE", "strict", 1);
	EXPECT_EQ(OMAYEXEC_STRICT, omayexec_mode());
	unsetenv("OMAYEXEC_MODE");

	/* Interactive code: the file, or the environment, refuse it. */
	EXPECT_EQ(0, omayexec_deny_interactive());
	setenv("OMAYEXEC_DENY_INTERACTIVE", "1", 1);
	ASSERT_EQ(0, omayexec_get_state(&st, sizeof(st)));
	EXPECT_EQ(1, st.deny_interactive);
	EXPECT_EQ(OMAYEXEC_SOURCE_ENVIRONMENT, st.deny_interactive_source);
	setenv("OMAYEXEC_DENY_INTERACTIVE", "0", 1);
	EXPECT_EQ(0, omayexec_deny_interactive());
	ASSERT_EQ(0, us_conf_write("deny_interactive = yes\n", 0644, 0));
	ASSERT_EQ(0, omayexec_get_state(&st, sizeof(st)));
	EXPECT_EQ(1, st.deny_interactive);
	EXPECT_EQ(OMAYEXEC_SOURCE_CONFIG, st.deny_interactive_source);
	EXPECT_EQ(OMAYEXEC_BEST_EFFORT, st.mode);
}

/* A configuration file that cannot be trusted or read fails closed. */
TEST_F(lib, untrusted_config_fails_closed)
{
	static char big[5000];
	static const struct {
		const char *text;
		mode_t mode;
		uid_t uid;
		int err;
	} confs[] = {
		{ "mode = best-effort\n", 0666, 0, EPERM },	/* world-writable */
		{ "mode = best-effort\n", 0664, 0, EPERM },	/* group-writable */
		{ "mode = best-effort\n", 0644, 1000, EPERM },	/* not root's */
		{ "mode = lax\n", 0644, 0, EINVAL },
		{ "mode best-effort\n", 0644, 0, EINVAL },
		{ "colour = blue\n", 0644, 0, EINVAL },
		{ "deny_interactive = maybe\n", 0644, 0, EINVAL },
		{ big, 0644, 0, EFBIG },
	};
	struct omayexec_state st;
	unsigned int i;

	memset(big, '#', sizeof(big) - 1);
	for (i = 0; i < ARRAY_LEN(confs); i++) {
		ASSERT_EQ(0, us_conf_write(confs[i].text, confs[i].mode,
					confs[i].uid));
		ASSERT_EQ(0, omayexec_get_state(&st, sizeof(st)));
		EXPECT_EQ(confs[i].err, st.config_errno) TH_LOG("conf %u", i);
		EXPECT_EQ(OMAYEXEC_STRICT, st.mode) TH_LOG("conf %u", i);
		EXPECT_EQ(OMAYEXEC_SOURCE_CONFIG, st.mode_source);
		EXPECT_EQ(1, st.deny_interactive) TH_LOG("conf %u", i);
		ASSERT_EQ(0, unlink(US_CONF));
	}
	/* Not a regular file. */
	ASSERT_EQ(0, mkdir(US_CONF, 0755));
	ASSERT_EQ(0, omayexec_get_state(&st, sizeof(st)));
	EXPECT_NE(0, st.config_errno);
	EXPECT_EQ(OMAYEXEC_STRICT, st.mode);
	ASSERT_EQ(0, rmdir(US_CONF));
	/* Gone: the defaults again. */
	EXPECT_EQ(OMAYEXEC_BEST_EFFORT, omayexec_mode());
}

/* ---- Without the module ------------------------------------------------ */

FIXTURE(unloaded) {
	struct omx_ws ws;
	int fds;
	char omxsh[PATH_MAX];
};

FIXTURE_SETUP(unloaded)
{
	ASSERT_FALSE(access(US_CONF, F_OK) == 0 && !us_conf_is_ours());
	us_conf_remove();
	unsetenv("OMAYEXEC_MODE");
	unsetenv("OMAYEXEC_DENY_INTERACTIVE");
	snprintf(self->omxsh, sizeof(self->omxsh), "%s", us_bin("omxsh"));
	ASSERT_EQ(0, omx_ws_create(&self->ws));
	ASSERT_EQ(0, populate(&self->ws));
	ASSERT_EQ(0, us_module_unload());
	self->fds = count_fds();
}

FIXTURE_TEARDOWN(unloaded)
{
	EXPECT_EQ(self->fds, count_fds());
	us_conf_remove();
	EXPECT_EQ(0, us_module_reload());
	EXPECT_EQ(0, omx_policy_read());
	EXPECT_EQ(0, omx_ws_destroy(&self->ws));
}

TEST_F(unloaded, best_effort_opens_without_the_flag)
{
	struct omayexec_state st;
	int fd;

	ASSERT_EQ(0, omayexec_get_state(&st, sizeof(st)));
	EXPECT_EQ(0, st.kernel_support);
	EXPECT_EQ(0, st.module_loaded);
	EXPECT_EQ(-1, st.policy);
	EXPECT_EQ(ENOENT, st.policy_errno);
	EXPECT_EQ(-1, st.locked);
	EXPECT_EQ(0, st.stats_available);
	EXPECT_EQ(OMAYEXEC_BEST_EFFORT, st.mode);

	/* Nothing checks: even the noexec file opens, as a plain open. */
	fd = omayexec_open(self->ws.dirfd, "noexec/x", O_RDONLY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, omx_fdinfo_flags(fd) & OMX_FMODE_EXEC);
	EXPECT_EQ(FD_CLOEXEC, fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
	/* Genuine errors are still errors. */
	EXPECT_EQ(-ENOENT, probe(&self->ws, "exec/missing"));
	errno = 0;
	EXPECT_EQ(-1, omayexec_open(self->ws.dirfd, "exec/x", O_RDWR));
	EXPECT_EQ(EINVAL, errno);
	fd = openat(self->ws.dirfd, "noexec/x", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	EXPECT_EQ(0, omayexec_check_fd(fd));
	close(fd);
}

TEST_F(unloaded, strict_fails_whoever_asks)
{
	FILE *f;
	int fd;

	/* The caller. */
	ASSERT_EQ(0, omayexec_set_mode(OMAYEXEC_STRICT));
	EXPECT_EQ(-EOPNOTSUPP, probe(&self->ws, "exec/x"));
	errno = 0;
	EXPECT_EQ(NULL, omayexec_fopen(omx_ws_path(&self->ws, "exec/x"), "r"));
	EXPECT_EQ(EOPNOTSUPP, errno);
	fd = openat(self->ws.dirfd, "exec/x", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	errno = 0;
	EXPECT_EQ(-1, omayexec_check_fd(fd));
	EXPECT_EQ(EOPNOTSUPP, errno);
	close(fd);
	ASSERT_EQ(0, omayexec_set_mode(OMAYEXEC_BEST_EFFORT));
	EXPECT_EQ(0, probe(&self->ws, "exec/x"));

	/* The environment. */
	setenv("OMAYEXEC_MODE", "strict", 1);
	EXPECT_EQ(-EOPNOTSUPP, probe(&self->ws, "exec/x"));
	unsetenv("OMAYEXEC_MODE");

	/* The configuration file, over the environment and the caller. */
	ASSERT_EQ(0, us_conf_write("mode = strict\n", 0644, 0));
	setenv("OMAYEXEC_MODE", "best-effort", 1);
	EXPECT_EQ(-EOPNOTSUPP, probe(&self->ws, "exec/x"));
	f = omayexec_fopen(omx_ws_path(&self->ws, "exec/x"), "r");
	EXPECT_EQ(NULL, f);
	if (f)
		fclose(f);
	/* A broken one fails closed. */
	ASSERT_EQ(0, us_conf_write("mode = best-effort\n", 0666, 0));
	EXPECT_EQ(-EOPNOTSUPP, probe(&self->ws, "exec/x"));
	ASSERT_EQ(0, us_conf_write("mode = best-effort\n", 0644, 0));
	EXPECT_EQ(0, probe(&self->ws, "exec/x"));
}

/* The same, through the interpreter. */
TEST_F(unloaded, omxsh_best_effort_and_strict)
{
	const char *path = omx_ws_path(&self->ws, "noexec/x");
	const char *plain[] = { self->omxsh, path, NULL };
	const char *strict[] = { self->omxsh, "-S", path, NULL };
	const char *dash_c[] = { self->omxsh, "-c", "echo c", NULL };
	const char *stdin_deny[] = { self->omxsh, "-D", NULL };
	const char *stdin_deny_strict[] = { self->omxsh, "-D", "-S", NULL };
	const char *env_strict[] = { "OMAYEXEC_MODE=strict", NULL };
	const char *env_lax[] = { "OMAYEXEC_MODE=best-effort", NULL };
	struct us_opts env = { .stdin_fd = -1, .env = env_strict };
	struct us_opts input = { .stdin_fd = -1 };
	struct us_result r;

	us_run(&r, NULL, plain);
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_STREQ("noexec x\n", r.out);

	us_run(&r, NULL, strict);
	EXPECT_EQ(126, r.status);
	EXPECT_STREQ("", r.out);
	EXPECT_EQ(1, us_lines(r.err));
	EXPECT_NE(NULL, strstr(r.err, path)) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "refused: this kernel can check no file, neither with O_MAYEXEC nor with AT_EXECVE_CHECK (decided by the strict mode the interpreter was started in); to check it, the kernel needs the omayexec module (modprobe omayexec, as root)\n"))
		TH_LOG("%s", r.err);

	us_run(&r, &env, plain);
	EXPECT_EQ(126, r.status);
	EXPECT_STREQ("", r.out);

	/* The administrator's file, whatever the environment says. */
	ASSERT_EQ(0, us_conf_write("mode = strict\n", 0644, 0));
	env.env = env_lax;
	us_run(&r, &env, plain);
	EXPECT_EQ(126, r.status);
	EXPECT_STREQ("", r.out);
	EXPECT_NE(NULL, strstr(r.err, "refused: this kernel can check no file, neither with O_MAYEXEC nor with AT_EXECVE_CHECK (decided by the strict mode of " US_CONF "); to check it, the kernel needs the omayexec module (modprobe omayexec, as root)\n"))
		TH_LOG("%s", r.err);

	/* deny_interactive = yes: omxsh acts as with -D. */
	ASSERT_EQ(0, us_conf_write("deny_interactive = yes\n", 0644, 0));
	us_run(&r, NULL, dash_c);
	EXPECT_EQ(126, r.status);
	EXPECT_STREQ("", r.out);
	EXPECT_NE(NULL, strstr(r.err, "-c: refused")) TH_LOG("%s", r.err);
	ASSERT_EQ(0, unlink(US_CONF));
	us_run(&r, NULL, dash_c);
	EXPECT_EQ(0, r.status);
	EXPECT_STREQ("c\n", r.out);

	/* -D with a regular file on stdin: best effort runs it, strict not. */
	input.stdin_fd = openat(self->ws.dirfd, "noexec/x", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, input.stdin_fd);
	us_run(&r, &input, stdin_deny);
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_STREQ("noexec x\n", r.out);
	ASSERT_EQ(0, lseek(input.stdin_fd, 0, SEEK_SET));
	us_run(&r, &input, stdin_deny_strict);
	EXPECT_EQ(126, r.status);
	EXPECT_STREQ("", r.out);
	EXPECT_NE(NULL, strstr(r.err, "standard input: refused")) TH_LOG("%s", r.err);
	close(input.stdin_fd);
}

TEST_HARNESS_MAIN
