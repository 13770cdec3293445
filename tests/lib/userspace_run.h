/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the userspace_*_test binaries share: finding the userspace build
 * (the omayexec tool, the omxsh interpreter) and running one of its
 * programs with a given standard input, environment and user, capturing
 * its exit status, standard output and standard error.
 *
 * The userspace build is found at $OMAYEXEC_USERSPACE when set, else at
 * <directory of this test binary>/../userspace: $BUILD/tests/X_test finds
 * $BUILD/userspace, from any working directory, on the host or in the VM
 * (qemu/run-vm --add puts the build directory at the same absolute path).
 *
 * Header-only (static functions): each test file includes it once, after
 * omx_test.h.
 */
#ifndef OMX_USERSPACE_RUN_H
#define OMX_USERSPACE_RUN_H

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "omx.h"
#include "module.h"

#define US_OUT_MAX	8192

/* Path of program @name of the userspace build (static buffer, 4 slots). */
static inline const char *us_bin(const char *name)
{
	static char bufs[4][PATH_MAX];
	static int next;
	char *buf = bufs[next++ % 4], exe[PATH_MAX];
	const char *env = getenv("OMAYEXEC_USERSPACE");
	ssize_t len;

	if (env && *env) {
		snprintf(buf, PATH_MAX, "%s/%s", env, name);
		return buf;
	}
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len < 0)
		len = 0;
	exe[len] = '\0';
	snprintf(buf, PATH_MAX, "%s/../userspace/%s", dirname(exe), name);
	return buf;
}

/*
 * The standard library of the Python this system carries, the one
 * /usr/lib/python3.N that holds os.py ("/usr/lib/python3.11"), into @buf:
 * its version is the release's (3.11 on Debian 12, 3.13 on Debian 13),
 * and a test VM's guest carries one.  0, or -1 when there is none or more
 * than one (which would omayexec-python3 run?).
 */
static inline int us_python_stdlib(char *buf, size_t len)
{
	glob_t g;
	int ret = -1;

	if (glob("/usr/lib/python3.*/os.py", 0, NULL, &g))
		return -1;
	if (g.gl_pathc == 1 && strlen(g.gl_pathv[0]) < len) {
		snprintf(buf, len, "%s", dirname(g.gl_pathv[0]));
		ret = 0;
	}
	globfree(&g);
	return ret;
}

struct us_opts {
	int stdin_fd;		/* -1: /dev/null */
	bool as_user;		/* run as OMX_USER_UID, without capabilities */
	bool drop_mac_admin;	/* root without CAP_MAC_ADMIN (bounding set) */
	const char *const *env;	/* extra "NAME=value" entries, NULL-terminated */
	const char *cwd;	/* working directory, or NULL */
	unsigned int alarm;	/* 0, or seconds until SIGALRM kills the
				 * program (status 128 + 14): a test that it
				 * answers at once rather than waits */
};

struct us_result {
	int status;		/* exit status, 128 + signal, or -errno */
	char out[US_OUT_MAX];	/* standard output, NUL-terminated */
	char err[US_OUT_MAX];	/* standard error, NUL-terminated */
};

static inline void us_slurp(int fd, char *buf, size_t len)
{
	ssize_t n, total = 0;

	lseek(fd, 0, SEEK_SET);
	while ((size_t)total < len - 1 &&
	       (n = read(fd, buf + total, len - 1 - total)) > 0)
		total += n;
	buf[total] = '\0';
}

/*
 * Run @argv (argv[0] a path) as @opts say, with the environment
 * PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C plus @opts->env, and nothing
 * else (no OMAYEXEC_* of the test's own).  Returns r->status.
 */
static inline int us_run(struct us_result *r, const struct us_opts *opts,
		  const char *const argv[])
{
	const char *envp[16] = { "PATH=/usr/sbin:/usr/bin:/sbin:/bin",
				 "LANG=C" };
	int out, err, in, status, n = 2, i;
	pid_t pid;

	r->out[0] = r->err[0] = '\0';
	for (i = 0; opts && opts->env && opts->env[i] && n < 15; i++)
		envp[n++] = opts->env[i];
	envp[n] = NULL;
	out = memfd_create("us-out", MFD_CLOEXEC);
	err = memfd_create("us-err", MFD_CLOEXEC);
	if (out < 0 || err < 0) {
		r->status = -errno;
		goto close;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		r->status = -errno;
		goto close;
	}
	if (pid == 0) {
		in = opts && opts->stdin_fd >= 0 ? opts->stdin_fd :
		     open("/dev/null", O_RDONLY);
		if (in < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 ||
		    dup2(err, 2) < 0)
			_exit(120);
		if (opts && opts->cwd && chdir(opts->cwd))
			_exit(121);
		if (opts && opts->drop_mac_admin &&
		    prctl(PR_CAPBSET_DROP, CAP_MAC_ADMIN, 0, 0, 0))
			_exit(122);
		if (opts && opts->as_user && omx_become_user())
			_exit(123);
		/* The timer survives execve(2), and nothing here catches it. */
		if (opts && opts->alarm)
			alarm(opts->alarm);
		execve(argv[0], (char *const *)argv, (char *const *)envp);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		r->status = -errno;
	else if (WIFEXITED(status))
		r->status = WEXITSTATUS(status);
	else
		r->status = 128 + WTERMSIG(status);
	us_slurp(out, r->out, sizeof(r->out));
	us_slurp(err, r->err, sizeof(r->err));
close:
	if (out >= 0)
		close(out);
	if (err >= 0)
		close(err);
	return r->status;
}

/*
 * The read end of a pipe that holds @text and whose write end is closed
 * (standard input for a run), or -errno.
 */
static inline int us_pipe_with(const char *text)
{
	size_t len = strlen(text);
	int fds[2], err;

	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	if (write(fds[1], text, len) != (ssize_t)len) {
		err = errno ? -errno : -EIO;
		close(fds[0]);
		close(fds[1]);
		return err;
	}
	close(fds[1]);
	return fds[0];
}

/* Number of lines in @s (a last line without '\n' counts). */
static inline int us_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		if (*s == '\n' || !s[1])
			n++;
	return n;
}

/* Write @text to a new file @path with @mode: 0 or -errno. */
static inline int us_write_file(const char *path, const char *text, mode_t mode)
{
	size_t len = strlen(text);
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != (ssize_t)len || fchmod(fd, mode))
		ret = errno ? -errno : -EIO;
	close(fd);
	return ret;
}

/*
 * The omayexec module, unloaded for a test and loaded again (without
 * parameters, as run-vm and run-check load it) afterwards.
 */
static inline int us_module_unload(void)
{
	return mod_unload_retry(MOD_OMAYEXEC, 5000);
}

static inline int us_module_reload(void)
{
	if (mod_is_loaded(MOD_OMAYEXEC))
		return 0;
	return mod_load(mod_omayexec_path(), "");
}

/*
 * The library's configuration file, as the tests write it in the guest:
 * always with a first line that marks it as a test's, so that no test
 * removes or overwrites one it did not write.
 */
#define US_CONF		"/etc/omayexec.conf"
#define US_CONF_MARK	"# written by a userspace test\n"

/* Write the configuration file: @text after the mark, @mode, @uid. */
static inline int us_conf_write(const char *text, mode_t mode, uid_t uid)
{
	char buf[8192];
	int ret;

	snprintf(buf, sizeof(buf), "%s%s", US_CONF_MARK, text);
	ret = us_write_file(US_CONF, buf, mode);
	if (!ret && chown(US_CONF, uid, 0))
		ret = -errno;
	return ret;
}

static inline bool us_conf_is_ours(void)
{
	char buf[64] = "";
	int fd = open(US_CONF, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	if (read(fd, buf, sizeof(buf) - 1) < 0)
		buf[0] = '\0';
	close(fd);
	return !strncmp(buf, US_CONF_MARK, strlen(US_CONF_MARK));
}

static inline void us_conf_remove(void)
{
	struct stat st;

	if (lstat(US_CONF, &st))
		return;
	if (S_ISDIR(st.st_mode))
		rmdir(US_CONF);	/* only a test makes one: untrusted_config_fails_closed */
	else if (us_conf_is_ours())
		unlink(US_CONF);
}

/*
 * A refusal by an interpreter @prog, before any of the refused code ran:
 * exit @status_, @out_before on stdout, one line on stderr, "PROG: ",
 * naming @what, with @why.
 */
#define US_EXPECT_REFUSED(r, status_, prog, what, out_before, why) do {	\
	EXPECT_EQ(status_, (r).status) TH_LOG("stderr: %s", (r).err);	\
	EXPECT_STREQ(out_before, (r).out);				\
	EXPECT_EQ(1, us_lines((r).err)) TH_LOG("stderr: %s", (r).err);	\
	EXPECT_NE(NULL, strstr((r).err, prog ": ")) TH_LOG("stderr: %s", (r).err); \
	EXPECT_NE(NULL, strstr((r).err, what)) TH_LOG("stderr: %s", (r).err); \
	EXPECT_NE(NULL, strstr((r).err, why)) TH_LOG("stderr: %s", (r).err); \
} while (0)

/* A run that went as planned: exit 0, @out_want, nothing on stderr. */
#define US_EXPECT_RAN(r, out_want) do {					\
	EXPECT_EQ(0, (r).status) TH_LOG("stderr: %s", (r).err);		\
	EXPECT_STREQ(out_want, (r).out);				\
	EXPECT_STREQ("", (r).err);					\
} while (0)

#endif /* OMX_USERSPACE_RUN_H */
