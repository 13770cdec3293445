// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers for the lifecycle tests: see module.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "module.h"
#include "omx.h"

static int neg_errno(void)
{
	return errno ? -errno : -EIO;
}

/* ---- Modules ------------------------------------------------------------ */

const char *mod_omayexec_path(void)
{
	static char path[PATH_MAX];
	const char *env = getenv("OMAYEXEC_KO");
	struct utsname u;

	if (env && *env)
		return env;
	if (!path[0]) {
		uname(&u);
		snprintf(path, sizeof(path),
			 "/lib/modules/%s/extra/omayexec.ko", u.release);
	}
	return path;
}

const char *mod_hog_path(void)
{
	static char path[PATH_MAX];
	const char *env = getenv("OMX_HOG_KO");
	char exe[PATH_MAX];
	ssize_t len;

	if (env && *env)
		return env;
	if (!path[0]) {
		len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (len < 0)
			return "omx_hog.ko";
		exe[len] = '\0';
		snprintf(path, sizeof(path), "%s/../kmod/omx_hog.ko",
			 dirname(exe));
	}
	return path;
}

int mod_load(const char *path, const char *params)
{
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return neg_errno();
	if (syscall(SYS_finit_module, fd, params ? params : "", 0))
		ret = neg_errno();
	close(fd);
	return ret;
}

int mod_unload_flags(const char *name, unsigned int flags)
{
	if (syscall(SYS_delete_module, name, O_NONBLOCK | flags))
		return neg_errno();
	return 0;
}

int mod_unload(const char *name)
{
	return mod_unload_flags(name, 0);
}

int mod_unload_retry(const char *name, int timeout_ms)
{
	int ret, waited = 0;

	for (;;) {
		ret = mod_unload(name);
		if (ret == -ENOENT)
			return 0;
		if (ret != -EBUSY && ret != -EAGAIN)
			return ret;
		if (waited >= timeout_ms)
			return ret;
		usleep(50 * 1000);
		waited += 50;
	}
}

bool mod_is_loaded(const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/module/%s/initstate", name);
	return access(path, F_OK) == 0;
}

int mod_param(const char *name, const char *param, char *buf, size_t len)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s", name,
		 param);
	return lc_read_file(path, buf, len);
}

/* ---- Files and programs ------------------------------------------------- */

int lc_read_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	if (!len)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return neg_errno();
	n = read(fd, buf, len - 1);
	if (n < 0) {
		n = neg_errno();
		close(fd);
		return n;
	}
	close(fd);
	buf[n] = '\0';
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

int lc_write_file(const char *path, const char *str)
{
	size_t len = strlen(str);
	ssize_t n;
	int fd;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return neg_errno();
	n = write(fd, str, len);
	if (n < 0)
		n = neg_errno();
	else if ((size_t)n != len)
		n = -EIO;
	else
		n = 0;
	close(fd);
	return n;
}

const char *lc_find_prog(const char *name)
{
	static const char *const dirs[] = {
		"/usr/sbin", "/sbin", "/usr/bin", "/bin",
	};
	static char path[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dirs[i], name);
		if (access(path, X_OK) == 0)
			return path;
	}
	return NULL;
}

int lc_run(char *const argv[])
{
	int status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return neg_errno();
	if (pid == 0) {
		/* Keep the TAP stream clean: the program's output goes to stderr. */
		dup2(STDERR_FILENO, STDOUT_FILENO);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return neg_errno();
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

/* ---- The kernel log ----------------------------------------------------- */

int klog_open(struct klog *log)
{
	log->buf = NULL;
	log->len = 0;
	log->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (log->fd < 0)
		return neg_errno();
	/* Only what is logged from now on. */
	if (lseek(log->fd, 0, SEEK_END) < 0) {
		int ret = neg_errno();

		close(log->fd);
		log->fd = -1;
		return ret;
	}
	return 0;
}

static void klog_append(struct klog *log, const char *msg, size_t len)
{
	char *buf = realloc(log->buf, log->len + len + 2);

	if (!buf)
		return;
	log->buf = buf;
	memcpy(log->buf + log->len, msg, len);
	log->len += len;
	log->buf[log->len++] = '\n';
	log->buf[log->len] = '\0';
}

void klog_collect(struct klog *log)
{
	char rec[8192];
	ssize_t n;

	if (log->fd < 0)
		return;
	for (;;) {
		char *msg, *end;

		n = read(log->fd, rec, sizeof(rec) - 1);
		if (n < 0) {
			/* EPIPE: records were overwritten; go on with the next. */
			if (errno == EPIPE || errno == EINTR)
				continue;
			break;	/* EAGAIN: nothing more */
		}
		if (n == 0)
			break;
		rec[n] = '\0';
		/* "prio,seq,usec,flags;message\n" then " KEY=value\n" lines. */
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		msg++;
		end = strchr(msg, '\n');
		klog_append(log, msg, end ? (size_t)(end - msg) : strlen(msg));
	}
}

bool klog_has(struct klog *log, const char *needle, const char *needle2)
{
	const char *line;

	klog_collect(log);
	if (!log->buf)
		return false;
	for (line = log->buf; *line; ) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		char *one = strndup(line, len);
		bool hit = one && strstr(one, needle) &&
			   (!needle2 || strstr(one, needle2));

		free(one);
		if (hit)
			return true;
		if (!eol)
			break;
		line = eol + 1;
	}
	return false;
}

const char *klog_trouble(struct klog *log)
{
	static const char *const signs[] = {
		"BUG:", "WARNING:", "Oops", "Call Trace", "general protection",
		"soft lockup", "hard LOCKUP", "blocked for more than",
		"rcu_sched detected stall", "rcu: INFO:", "list_del corruption",
		"unable to handle", "Kernel panic",
	};
	static char found[512];
	const char *line;
	size_t i;

	klog_collect(log);
	if (!log->buf)
		return NULL;
	for (line = log->buf; *line; ) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);

		if (len >= sizeof(found))
			len = sizeof(found) - 1;
		memcpy(found, line, len);
		found[len] = '\0';
		for (i = 0; i < sizeof(signs) / sizeof(signs[0]); i++)
			if (strstr(found, signs[i]))
				return found;
		if (!eol)
			break;
		line = eol + 1;
	}
	return NULL;
}

void klog_close(struct klog *log)
{
	if (log->fd >= 0)
		close(log->fd);
	log->fd = -1;
	free(log->buf);
	log->buf = NULL;
	log->len = 0;
}

/* ---- ftrace --------------------------------------------------------------- */

static const char *tracefs_dir(void)
{
	static const char *const dirs[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	static char file[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(file, sizeof(file), "%s/enabled_functions", dirs[i]);
		if (access(file, R_OK) == 0)
			return dirs[i];
	}
	/* Not mounted yet: mount it (in the test's own mount namespace, if any). */
	if (mount("tracefs", dirs[0], "tracefs", 0, NULL) == 0)
		return dirs[0];
	return NULL;
}

int lc_ftrace_users(const char *func, char *buf, size_t len)
{
	char path[PATH_MAX], line[1024];
	const char *dir = tracefs_dir();
	size_t flen = strlen(func);
	int found = 0;
	FILE *f;

	if (!dir)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/enabled_functions", dir);
	f = fopen(path, "re");
	if (!f)
		return neg_errno();
	if (len)
		buf[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		/* "may_open (1) R I  \ttramp: ..." then tab-indented details. */
		if (found) {
			if (line[0] != '\t')
				break;
		} else if (strncmp(line, func, flen) ||
			   (line[flen] != ' ' && line[flen] != '\t')) {
			continue;
		}
		found = 1;
		line[strcspn(line, "\n")] = ' ';
		if (len && strlen(buf) + strlen(line) < len)
			strcat(buf, line);
	}
	fclose(f);
	return found;
}

/* ---- The policy seen through opens --------------------------------------- */

int lc_ws_populate(struct omx_ws *ws)
{
	int ret;

	ret = omx_ws_mount_tmpfs(ws, "exec", 0);
	if (!ret)
		ret = omx_ws_mount_tmpfs(ws, "noexec", MS_NOEXEC);
	if (!ret)
		ret = omx_ws_file(ws, "exec/x", 0755, 0, 0);
	if (!ret)
		ret = omx_ws_file(ws, "exec/nx", 0644, 0, 0);
	if (!ret)
		ret = omx_ws_file(ws, "noexec/x", 0755, 0, 0);
	return ret;
}

int lc_policy_seen(int dirfd, char *why, size_t len)
{
	const __u64 flags = O_RDONLY | O_CLOEXEC | O_MAYEXEC;
	int x = omx_probe_openat2(dirfd, "exec/x", flags, 0);
	int nx = omx_probe_openat2(dirfd, "exec/nx", flags, 0);
	int nox = omx_probe_openat2(dirfd, "noexec/x", flags, 0);

	snprintf(why, len, "O_MAYEXEC opens: exec/x %s, exec/nx %s, noexec/x %s",
		 x ? strerror(-x) : "ok", nx ? strerror(-nx) : "ok",
		 nox ? strerror(-nox) : "ok");
	if (x == -EINVAL && nx == -EINVAL && nox == -EINVAL)
		return -EINVAL;
	if (x || (nx && nx != -EACCES) || (nox && nox != -EACCES))
		return -EPROTO;
	return (nox ? OMAYEXEC_ENFORCE_MOUNT : 0) |
	       (nx ? OMAYEXEC_ENFORCE_FILE : 0);
}
