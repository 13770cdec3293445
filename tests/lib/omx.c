// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the O_MAYEXEC behaviour tests: see omx.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "module.h"
#include "omx.h"

#define OMX_LOG(fmt, ...) fprintf(stderr, "# omx: " fmt "\n", ##__VA_ARGS__)

static int neg_errno(void)
{
	return errno ? -errno : -EIO;
}

static int write_file(const char *path, const char *text, int flags);

/* ---- The policy ----------------------------------------------------- */

bool omx_module_loaded(void)
{
	return access(OMAYEXEC_SYSCTL_PATH, F_OK) == 0;
}

int omx_policy_read(void)
{
	char buf[32] = {};
	ssize_t len;
	char *end;
	long val;
	int fd;

	fd = open(OMAYEXEC_SYSCTL_PATH, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return neg_errno();
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len < 0)
		return neg_errno();
	errno = 0;
	val = strtol(buf, &end, 10);
	if (errno || end == buf || (*end != '\n' && *end != '\0'))
		return -EIO;
	return (int)val;
}

bool omx_rfc_v1_enabled(void)
{
	char buf[8];

	return !lc_read_file(OMX_RFC_V1_PARAM, buf, sizeof(buf)) &&
	       !strcmp(buf, "Y");
}

bool omx_exec_check_enabled(void)
{
	char buf[8];

	return !lc_read_file(OMX_EXEC_CHECK_PARAM, buf, sizeof(buf)) &&
	       !strcmp(buf, "Y");
}

bool omx_exec_check_answered(void)
{
	return omx_execveat_probe(AT_FDCWD, "/", AT_EXECVE_CHECK) != -EINVAL;
}

int omx_policy_write(const char *text)
{
	return omx_policy_write_bytes(text, strlen(text));
}

int omx_policy_write_bytes(const void *buf, size_t len)
{
	int fd = open(OMAYEXEC_SYSCTL_PATH, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return neg_errno();
	if (write(fd, buf, len) != (ssize_t)len)
		ret = neg_errno();
	close(fd);
	return ret;
}

int omx_policy_set(int policy)
{
	char text[16];
	int ret;

	ret = omx_mac_admin(true);
	if (ret)
		return ret;
	snprintf(text, sizeof(text), "%d", policy);
	ret = omx_policy_write(text);
	if (ret) {
		OMX_LOG("writing %d to %s: %s", policy, OMAYEXEC_SYSCTL_PATH,
			strerror(-ret));
		return ret;
	}
	ret = omx_policy_read();
	if (ret != policy) {
		OMX_LOG("policy reads %d after writing %d", ret, policy);
		return ret < 0 ? ret : -EIO;
	}
	return 0;
}

/*
 * Safety net: a test killed by its timeout cannot run its teardown, so the
 * harness process (the one that started main) puts policy 0 back when it
 * exits, in the binaries that ask for it (omx_test.h does).  Forked test
 * processes never do: they have another pid.
 */
bool omx_restore_policy_at_exit;
static pid_t omx_main_pid;

static void __attribute__((constructor)) omx_startup(void)
{
	/* See OMX_EXEC_PROBE_ENV in omx.h. */
	const char *probe = getenv("OMX_EXEC_PROBE");

	if (probe && !strcmp(probe, "1"))
		_exit(OMX_EXEC_PROBE_STATUS);
	omx_main_pid = getpid();
}

static void __attribute__((destructor)) omx_shutdown(void)
{
	if (omx_restore_policy_at_exit && getpid() == omx_main_pid &&
	    omx_module_loaded() &&
	    omx_policy_read() != 0)
		omx_policy_set(0);
}

/* ---- Capabilities and credentials ----------------------------------- */

int omx_caps_effective(const cap_value_t *caps, int ncaps, bool on)
{
	cap_t cap;
	int ret = 0;

	cap = cap_get_proc();
	if (!cap)
		return neg_errno();
	if (cap_set_flag(cap, CAP_EFFECTIVE, ncaps, caps,
			 on ? CAP_SET : CAP_CLEAR) ||
	    cap_set_proc(cap))
		ret = neg_errno();
	cap_free(cap);
	return ret;
}

int omx_dac_override(bool on)
{
	static const cap_value_t dac[] = {
		CAP_DAC_OVERRIDE,
		CAP_DAC_READ_SEARCH,
	};

	return omx_caps_effective(dac, 2, on);
}

int omx_mac_admin(bool on)
{
	static const cap_value_t mac[] = { CAP_MAC_ADMIN };

	return omx_caps_effective(mac, 1, on);
}

int omx_become_user(void)
{
	gid_t gid = OMX_USER_GID;

	if (setgroups(1, &gid) || setresgid(gid, gid, gid) ||
	    setresuid(OMX_USER_UID, OMX_USER_UID, OMX_USER_UID))
		return neg_errno();
	/* A uid change from 0 clears the effective, permitted sets. */
	if (geteuid() != OMX_USER_UID)
		return -EIO;
	return 0;
}

int omx_enter_user_namespace(void)
{
	if (unshare(CLONE_NEWUSER))
		return neg_errno();
	if (write_file("/proc/self/setgroups", "deny", 0) ||
	    write_file("/proc/self/uid_map", "0 0 1", 0) ||
	    write_file("/proc/self/gid_map", "0 0 1", 0))
		return neg_errno();
	return 0;
}

int omx_become(enum omx_caller caller)
{
	switch (caller) {
	case OMX_ROOT:
		return omx_dac_override(true);
	case OMX_ROOT_WITHOUT_DAC_OVERRIDE:
		return omx_dac_override(false);
	case OMX_USER:
		return omx_become_user();
	}
	return -EINVAL;
}

const char *omx_caller_name(enum omx_caller caller)
{
	switch (caller) {
	case OMX_ROOT:
		return "root";
	case OMX_ROOT_WITHOUT_DAC_OVERRIDE:
		return "root without DAC override";
	case OMX_USER:
		return "uid 1000";
	}
	return "?";
}

int omx_in_child(int (*fn)(void *arg), void *arg)
{
	int pipefd[2], status, result = INT_MIN;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC))
		return INT_MIN;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return INT_MIN;
	}
	if (pid == 0) {
		close(pipefd[0]);
		result = fn(arg);
		if (write(pipefd[1], &result, sizeof(result)) != sizeof(result))
			_exit(2);
		_exit(0);
	}
	close(pipefd[1]);
	if (read(pipefd[0], &result, sizeof(result)) != sizeof(result))
		result = INT_MIN;
	close(pipefd[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		result = INT_MIN;
	return result;
}

/* ---- Opening ---------------------------------------------------------- */

int omx_openat2(int dfd, const char *path, __u64 flags, __u64 resolve)
{
	struct open_how how = {
		.flags = flags,
		.resolve = resolve,
	};

	return sys_openat2(dfd, path, &how);
}

static int close_probe(int fd)
{
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return fd;
}

int omx_probe_openat2(int dfd, const char *path, __u64 flags, __u64 resolve)
{
	return close_probe(omx_openat2(dfd, path, flags, resolve));
}

int omx_probe_openat(int dfd, const char *path, int flags)
{
	int fd = openat(dfd, path, flags);

	return close_probe(fd < 0 ? neg_errno() : fd);
}

int omx_probe_open(const char *path, int flags)
{
	int fd = open(path, flags);

	return close_probe(fd < 0 ? neg_errno() : fd);
}

int omx_fd_flags(int fd)
{
	int flags = fcntl(fd, F_GETFL);

	return flags < 0 ? neg_errno() : flags;
}

long omx_fdinfo_flags(int fd)
{
	char path[64], line[256];
	long flags = -ENOENT;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (!f)
		return neg_errno();
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "flags:", 6)) {
			flags = strtol(line + 6, NULL, 8);
			break;
		}
	}
	fclose(f);
	return flags;
}

bool omx_kernel_marks_fmode_exec(void)
{
	unsigned int major = 0, minor = 0;
	struct utsname u;

	if (uname(&u) || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return false;	/* not "N.M...": no Debian kernel, take the newer */
	return major < 6 || (major == 6 && minor < 8);
}

int omx_mayexec_open_bits(void)
{
	/* Asked in the loops of threaded tests: ask uname() once. */
	static int bits;
	int b = __atomic_load_n(&bits, __ATOMIC_RELAXED);

	if (!b) {
		b = O_MAYEXEC |
		    (omx_kernel_marks_fmode_exec() ? OMX_FMODE_EXEC : 0);
		__atomic_store_n(&bits, b, __ATOMIC_RELAXED);
	}
	return b;
}

/* ---- Workspace -------------------------------------------------------- */

int omx_ws_create(struct omx_ws *ws)
{
	char cwd[sizeof(ws->root) - 32];

	ws->dirfd = -1;
	umask(0);
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		OMX_LOG("private mount namespace: %m");
		return neg_errno();
	}
	if (!getcwd(cwd, sizeof(cwd)))
		return neg_errno();
	snprintf(ws->root, sizeof(ws->root), "%s/omx-ws.%d",
		 strcmp(cwd, "/") ? cwd : "", getpid());
	/* Left over by a test that was killed: its mounts died with it. */
	rmdir(ws->root);
	if (mkdir(ws->root, 0755)) {
		OMX_LOG("mkdir %s: %m", ws->root);
		return neg_errno();
	}
	if (mount("omx-ws", ws->root, "tmpfs", 0, "mode=0755,size=8m")) {
		OMX_LOG("mount tmpfs on %s: %m", ws->root);
		rmdir(ws->root);
		return neg_errno();
	}
	ws->dirfd = open(ws->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (ws->dirfd < 0)
		return neg_errno();
	return 0;
}

int omx_ws_destroy(struct omx_ws *ws)
{
	if (ws->dirfd >= 0)
		close(ws->dirfd);
	ws->dirfd = -1;
	if (!ws->root[0])
		return 0;
	/* Lazy: also takes whatever the test mounted below the root. */
	if (umount2(ws->root, MNT_DETACH))
		return neg_errno();
	if (rmdir(ws->root))
		return neg_errno();
	return 0;
}

const char *omx_ws_path(const struct omx_ws *ws, const char *rel)
{
	static char bufs[4][PATH_MAX];
	static int next;
	char *buf = bufs[next++ % 4];

	snprintf(buf, PATH_MAX, "%s/%s", ws->root, rel);
	return buf;
}

int omx_ws_mount_tmpfs(struct omx_ws *ws, const char *rel, unsigned long flags)
{
	const char *path = omx_ws_path(ws, rel);

	if (mkdir(path, 0755) && errno != EEXIST)
		return neg_errno();
	if (mount("omx", path, "tmpfs", flags, "mode=0755,size=4m")) {
		OMX_LOG("mount tmpfs on %s: %m", path);
		return neg_errno();
	}
	return 0;
}

int omx_ws_bind(struct omx_ws *ws, const char *from, const char *to,
		unsigned long flags)
{
	const char *src = omx_ws_path(ws, from);
	const char *dst = omx_ws_path(ws, to);

	if (mkdir(dst, 0755) && errno != EEXIST)
		return neg_errno();
	if (mount(src, dst, NULL, MS_BIND, NULL) ||
	    mount(NULL, dst, NULL, MS_REMOUNT | MS_BIND | flags, NULL)) {
		OMX_LOG("bind %s on %s: %m", src, dst);
		return neg_errno();
	}
	return 0;
}

int omx_ws_file(struct omx_ws *ws, const char *rel, mode_t mode, uid_t uid,
		gid_t gid)
{
	static const char content[] = "#!/bin/sh\necho omayexec test file\n";
	int fd, ret = 0;

	fd = openat(ws->dirfd, rel, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		    0600);
	if (fd < 0)
		return neg_errno();
	if (write(fd, content, sizeof(content) - 1) != sizeof(content) - 1 ||
	    fchown(fd, uid, gid) || fchmod(fd, mode))
		ret = neg_errno();
	close(fd);
	return ret;
}

int omx_ws_copy_self(struct omx_ws *ws, const char *rel, mode_t mode)
{
	char buf[65536];
	int in, out, ret = 0;
	ssize_t len;

	in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return neg_errno();
	out = openat(ws->dirfd, rel, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		     0600);
	if (out < 0) {
		ret = neg_errno();
		close(in);
		return ret;
	}
	while ((len = read(in, buf, sizeof(buf))) > 0) {
		if (write(out, buf, len) != len) {
			ret = neg_errno();
			break;
		}
	}
	if (len < 0)
		ret = neg_errno();
	if (!ret && fchmod(out, mode))
		ret = neg_errno();
	close(in);
	close(out);
	return ret;
}

/* The xattr layout of include/uapi/linux/posix_acl_xattr.h. */
struct omx_acl_entry {
	uint16_t tag;
	uint16_t perm;
	uint32_t id;
};

int omx_set_acl_user(int fd, uid_t uid, unsigned int perm)
{
	struct {
		uint32_t version;
		struct omx_acl_entry e[5];
	} __attribute__((packed)) acl;
	struct stat st;

	if (fstat(fd, &st))
		return neg_errno();
	acl.version = 2;
	/* Sorted by tag; the mask lets every group-class entry through. */
	acl.e[0] = (struct omx_acl_entry){ 0x01, (st.st_mode >> 6) & 7, -1 };
	acl.e[1] = (struct omx_acl_entry){ 0x02, perm & 7, uid };
	acl.e[2] = (struct omx_acl_entry){ 0x04, (st.st_mode >> 3) & 7, -1 };
	acl.e[3] = (struct omx_acl_entry){ 0x10, (perm | (st.st_mode >> 3)) & 7,
					   -1 };
	acl.e[4] = (struct omx_acl_entry){ 0x20, st.st_mode & 7, -1 };
	if (fsetxattr(fd, "system.posix_acl_access", &acl, sizeof(acl), 0))
		return neg_errno();
	return 0;
}

/* ---- execve probe ----------------------------------------------------- */

int omx_execveat_probe(int dfd, const char *path, int flags)
{
	char *const argv[] = { "checked", NULL };
	char *const envp[] = { OMX_EXEC_PROBE_ENV, NULL };

	if (syscall(SYS_execveat, dfd, path, argv, envp, flags))
		return neg_errno();
	return 0;
}

/* fork + execve(@path), or with @at execveat(@dfd, @path, ..., 0). */
static int run_exec_probe(int dfd, const char *path, bool at)
{
	char *const argv[] = { (char *)path, NULL };
	char *const envp[] = { OMX_EXEC_PROBE_ENV, NULL };
	int pipefd[2], err = 0, status;
	pid_t pid;

	/* The child reports execve's errno through a close-on-exec pipe. */
	if (pipe2(pipefd, O_CLOEXEC))
		return neg_errno();
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return neg_errno();
	if (pid == 0) {
		close(pipefd[0]);
		if (at)
			syscall(SYS_execveat, dfd, path, argv, envp, 0);
		else
			execve(path, argv, envp);
		err = errno;
		if (write(pipefd[1], &err, sizeof(err)) != sizeof(err))
			_exit(3);
		_exit(4);
	}
	close(pipefd[1]);
	if (read(pipefd[0], &err, sizeof(err)) != sizeof(err))
		err = 0;
	close(pipefd[0]);
	if (waitpid(pid, &status, 0) != pid)
		return neg_errno();
	if (err)
		return -err;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int omx_run_exec_probe(const char *path)
{
	return run_exec_probe(AT_FDCWD, path, false);
}

int omx_run_execveat_probe(int dfd, const char *path)
{
	return run_exec_probe(dfd, path, true);
}

/* ---- kprobe hit counters ---------------------------------------------- */

static int write_file(const char *path, const char *text, int flags)
{
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC | flags);
	if (fd < 0)
		return neg_errno();
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		ret = neg_errno();
	close(fd);
	return ret;
}

static int tracefs_find(struct omx_kprobe *kp)
{
	static const char *const candidates[] = {
		"/sys/kernel/tracing",
		"/sys/kernel/debug/tracing",
	};
	char path[PATH_MAX + 32];
	unsigned int i;

	for (i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++) {
		snprintf(path, sizeof(path), "%s/kprobe_events", candidates[i]);
		if (!access(path, W_OK)) {
			snprintf(kp->tracefs, sizeof(kp->tracefs), "%s",
				 candidates[i]);
			return 0;
		}
	}
	/* Not mounted: mount it (the test is in its own mount namespace). */
	if (!access("/sys/kernel/tracing", F_OK) &&
	    !mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL) &&
	    !access("/sys/kernel/tracing/kprobe_events", W_OK)) {
		snprintf(kp->tracefs, sizeof(kp->tracefs), "/sys/kernel/tracing");
		return 0;
	}
	return -ENOENT;
}

int omx_kprobe_add(struct omx_kprobe *kp, const char *func)
{
	return omx_kprobe_add_args(kp, func, "");
}

int omx_kprobe_add_args(struct omx_kprobe *kp, const char *func,
			const char *args)
{
	char path[PATH_MAX + 128], def[512];
	int ret;

	ret = tracefs_find(kp);
	if (ret)
		return ret;
	snprintf(kp->event, sizeof(kp->event), "omx_%s_%d", func, getpid());
	/* A previous run may have left it: remove, ignoring errors. */
	snprintf(path, sizeof(path), "%s/kprobe_events", kp->tracefs);
	snprintf(def, sizeof(def), "-:omx/%s", kp->event);
	write_file(path, def, O_APPEND);
	snprintf(def, sizeof(def), "p:omx/%s %s %s", kp->event, func, args);
	ret = write_file(path, def, O_APPEND);
	if (ret) {
		OMX_LOG("kprobe on %s: %s", func, strerror(-ret));
		return ret == -EINVAL || ret == -ENOENT ? -EOPNOTSUPP : ret;
	}
	snprintf(path, sizeof(path), "%s/events/omx/%s/enable", kp->tracefs,
		 kp->event);
	ret = write_file(path, "1", 0);
	if (ret)
		omx_kprobe_remove(kp);
	return ret;
}

long omx_kprobe_hits(const struct omx_kprobe *kp)
{
	char path[PATH_MAX + 32], name[128];
	unsigned long hits, misses;
	long ret = -ENOENT;
	FILE *f;

	snprintf(path, sizeof(path), "%s/kprobe_profile", kp->tracefs);
	f = fopen(path, "re");
	if (!f)
		return neg_errno();
	while (fscanf(f, "%127s %lu %lu", name, &hits, &misses) == 3) {
		if (!strcmp(name, kp->event)) {
			ret = hits;
			break;
		}
	}
	fclose(f);
	return ret;
}

int omx_kprobe_values(const struct omx_kprobe *kp, const char *arg,
		      pid_t pid, unsigned long *values, int max)
{
	char path[PATH_MAX + 32], event[80], key[80], task[32], line[1024];
	const char *at;
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/trace", kp->tracefs);
	snprintf(event, sizeof(event), " %s: ", kp->event);
	snprintf(key, sizeof(key), " %s=", arg);
	snprintf(task, sizeof(task), "-%d ", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return neg_errno();
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || !strstr(line, event) ||
		    !strstr(line, task))
			continue;
		at = strstr(line, key);
		if (!at)
			continue;
		if (n < max)
			values[n] = strtoul(at + strlen(key), NULL, 0);
		n++;
	}
	fclose(f);
	return n;
}

int omx_kprobe_remove(struct omx_kprobe *kp)
{
	char path[PATH_MAX + 128], def[256];

	if (!kp->event[0])
		return 0;
	snprintf(path, sizeof(path), "%s/events/omx/%s/enable", kp->tracefs,
		 kp->event);
	write_file(path, "0", 0);
	snprintf(path, sizeof(path), "%s/kprobe_events", kp->tracefs);
	snprintf(def, sizeof(def), "-:omx/%s", kp->event);
	kp->event[0] = '\0';
	return write_file(path, def, O_APPEND);
}
