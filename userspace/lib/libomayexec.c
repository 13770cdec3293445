// SPDX-License-Identifier: GPL-2.0
/*
 * libomayexec: see omayexec.h, omayexec_open(3) and omayexec(7).
 *
 * Two kernel interfaces judge a file: O_MAYEXEC (the module's policy,
 * enforced by the kernel at the open) and execveat(2) with
 * AT_EXECVE_CHECK (Linux 6.14, natively or through the module: what
 * execve() would decide, enforced here when the caller's
 * SECBIT_EXEC_RESTRICT_FILE or the strict mode says so).  omayexec_open()
 * uses both where the kernel has them, on the one descriptor it returns,
 * so that the file judged is the file read; decide() is the whole
 * decision, and omayexec(7) has it as a table.
 *
 * Nothing here prints: every failure is returned (-1 or NULL, and errno).
 * Nothing is cached either (the module may come and go): the
 * configuration file is read each time the mode matters, which is only
 * when a check failed or none could be made.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../include/omayexec.h"

#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif

/* Set by the Makefile (SYSCONFDIR); fixed at build time on purpose. */
#ifndef OMAYEXEC_CONF
#define OMAYEXEC_CONF "/etc/omayexec.conf"
#endif

#define MODULE_DIR	"/sys/module/omayexec"
#define CONFIG_MAX	4096

/* The open(2) flags omayexec_open() accepts besides O_RDONLY. */
#define ALLOWED_FLAGS	(O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | \
			 O_NOATIME | O_LARGEFILE | O_MAYEXEC)

/* The caller's mode: OMAYEXEC_BEST_EFFORT or OMAYEXEC_STRICT. */
static int caller_mode = OMAYEXEC_BEST_EFFORT;

/*
 * struct open_how of <linux/openat2.h>, a fixed ABI: spelled out here so
 * that the library builds with any kernel headers (and with the openat2
 * selftest helpers, which define their own, in userspace_lib_test).
 */
struct omayexec_open_how {
	uint64_t flags;
	uint64_t mode;
	uint64_t resolve;
};

static long openat2_flags(int dirfd, const char *path, int flags)
{
	struct omayexec_open_how how = {
		.flags = (unsigned int)flags,
	};

	return syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
}

/*
 * Whether openat2(2) honours O_MAYEXEC.  An empty path fails with ENOENT
 * once the flags are accepted, and with EINVAL before that when the flag
 * is unknown: the probe opens nothing, and no policy decision is made.
 */
static int kernel_knows_mayexec(void)
{
	int saved = errno;
	long fd = openat2_flags(AT_FDCWD, "", O_RDONLY | O_CLOEXEC | O_MAYEXEC);
	int known;

	if (fd >= 0) {
		close((int)fd);
		known = 1;
	} else {
		known = errno != EINVAL && errno != ENOSYS;
	}
	errno = saved;
	return known;
}

/*
 * Whether this process runs under Valgrind, which emulates execve(2) and
 * execveat(2) itself: it resolves the file and executes it, whatever the
 * flags (3.19, Debian 12's, knows no AT_EXECVE_CHECK), so that under it a
 * check would replace the process with the file it asked about.  Its
 * preload libraries in LD_PRELOAD give it away; there the check is not
 * asked, as on a kernel without it.
 */
static int under_exec_emulator(void)
{
	const char *preload = getenv("LD_PRELOAD");

	return preload && strstr(preload, "/vgpreload_");
}

/*
 * execveat(@dirfd, @path, argv, envp, @flags | AT_EXECVE_CHECK): 0, the
 * error execve() would get, or EINVAL where the kernel knows no such
 * check (every kernel since execveat(2) came, 3.19, refuses unknown
 * flags, so a kernel without it never executes anything here).  argv and
 * envp are minimal: mainline copies them for the check.
 */
static int exec_check_at(int dirfd, const char *path, int flags)
{
	static char *const argv[] = { "omayexec-check", NULL };
	static char *const envp[] = { NULL };
	int saved = errno, err = 0;

	if (under_exec_emulator())
		return EINVAL;
	if (syscall(SYS_execveat, dirfd, path, argv, envp, flags | AT_EXECVE_CHECK))
		err = errno;
	errno = saved;
	return err;
}

/* The check of the file open as @fd, as an interpreter asks it. */
static int exec_check_fd(int fd)
{
	return exec_check_at(fd, "", AT_EMPTY_PATH);
}

/*
 * How the kernel answers AT_EXECVE_CHECK (OMAYEXEC_EXEC_CHECK_*): a check
 * of the root directory, which no kernel executes, is EACCES where the
 * check is answered, EINVAL where it is not.  Answered while the module
 * is loaded with exec_check=Y: the module's; else the kernel's own.
 */
static int exec_check_support(void)
{
	int saved = errno, support = OMAYEXEC_EXEC_CHECK_NONE;
	char buf[4];
	int fd;

	if (exec_check_at(AT_FDCWD, "/", 0) != EINVAL) {
		support = OMAYEXEC_EXEC_CHECK_NATIVE;
		fd = open(MODULE_DIR "/parameters/exec_check", O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			if (read(fd, buf, 1) == 1 && buf[0] == 'Y')
				support = OMAYEXEC_EXEC_CHECK_MODULE;
			close(fd);
		}
	}
	errno = saved;
	return support;
}

/* The calling thread's securebits, or 0 when they cannot be read. */
static int securebits(void)
{
	int saved = errno, bits = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);

	errno = saved;
	return bits < 0 ? 0 : bits;
}

/* ---- The configuration ------------------------------------------------ */

struct config {
	int mode;
	int deny_interactive;
	int err;	/* 0, or why the file could not be used */
};

static char *trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' ||
			   end[-1] == '\r'))
		*--end = '\0';
	return s;
}

static int parse_bool(const char *v)
{
	if (!strcmp(v, "yes") || !strcmp(v, "1") || !strcmp(v, "true"))
		return 1;
	if (!strcmp(v, "no") || !strcmp(v, "0") || !strcmp(v, "false"))
		return 0;
	return -1;
}

/* One "key = value" line: 0, or -EINVAL. */
static int parse_config_line(struct config *c, char *line)
{
	char *eq, *key, *value;
	int b;

	line = trim(line);
	if (!*line || *line == '#')
		return 0;
	eq = strchr(line, '=');
	if (!eq)
		return -EINVAL;
	*eq = '\0';
	key = trim(line);
	value = trim(eq + 1);
	if (!strcmp(key, "mode")) {
		if (!strcmp(value, "strict"))
			c->mode = OMAYEXEC_STRICT;
		else if (!strcmp(value, "best-effort"))
			c->mode = OMAYEXEC_BEST_EFFORT;
		else
			return -EINVAL;
		return 0;
	}
	if (!strcmp(key, "deny_interactive")) {
		b = parse_bool(value);
		if (b < 0)
			return -EINVAL;
		c->deny_interactive = b;
		return 0;
	}
	return -EINVAL;
}

/*
 * Read the configuration file.  No file: the defaults.  A file that cannot
 * be trusted (not a regular file owned by root, or writable by group or
 * others), read or parsed: fail closed (strict, deny interactive), with
 * the reason in c->err.
 */
static void read_config(struct config *c)
{
	char buf[CONFIG_MAX + 1], *line, *next;
	struct stat st;
	ssize_t len;
	int fd, saved = errno;

	c->mode = OMAYEXEC_BEST_EFFORT;
	c->deny_interactive = 0;
	c->err = 0;

	fd = open(OMAYEXEC_CONF, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		if (errno != ENOENT)
			c->err = errno;
		goto out;
	}
	if (fstat(fd, &st))
		c->err = errno;
	else if (!S_ISREG(st.st_mode) || st.st_uid != 0 ||
		 (st.st_mode & (S_IWGRP | S_IWOTH)))
		c->err = EPERM;
	if (!c->err) {
		len = read(fd, buf, sizeof(buf));
		if (len < 0)
			c->err = errno;
		else if (len > CONFIG_MAX)
			c->err = EFBIG;
		else
			buf[len] = '\0';
	}
	close(fd);
	for (line = buf; !c->err && line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (parse_config_line(c, line))
			c->err = EINVAL;
	}
out:
	if (c->err) {
		c->mode = OMAYEXEC_STRICT;
		c->deny_interactive = 1;
	}
	errno = saved;
}

/* ---- The mode ------------------------------------------------------------ */

static int env_mode(void)
{
	const char *v = getenv("OMAYEXEC_MODE");

	/* Anything but "best-effort" or nothing is strict: it fails closed. */
	if (!v || !*v || !strcmp(v, "best-effort"))
		return OMAYEXEC_BEST_EFFORT;
	return OMAYEXEC_STRICT;
}

static int env_deny_interactive(void)
{
	const char *v = getenv("OMAYEXEC_DENY_INTERACTIVE");

	if (!v || !*v)
		return 0;
	return parse_bool(v) != 0;
}

/* The strictest wins; the first source that asked for it is named. */
static int resolve_mode(const struct config *c, int *source)
{
	int src = OMAYEXEC_SOURCE_DEFAULT, mode = OMAYEXEC_BEST_EFFORT;

	if (c->mode == OMAYEXEC_STRICT)
		src = OMAYEXEC_SOURCE_CONFIG;
	else if (__atomic_load_n(&caller_mode, __ATOMIC_RELAXED) ==
		 OMAYEXEC_STRICT)
		src = OMAYEXEC_SOURCE_CALLER;
	else if (env_mode() == OMAYEXEC_STRICT)
		src = OMAYEXEC_SOURCE_ENVIRONMENT;
	if (src != OMAYEXEC_SOURCE_DEFAULT)
		mode = OMAYEXEC_STRICT;
	if (source)
		*source = src;
	return mode;
}

static int resolve_deny_interactive(const struct config *c, int *source)
{
	int src = OMAYEXEC_SOURCE_DEFAULT;

	if (c->deny_interactive)
		src = OMAYEXEC_SOURCE_CONFIG;
	else if (securebits() & SECBIT_EXEC_DENY_INTERACTIVE)
		src = OMAYEXEC_SOURCE_SECUREBITS;
	else if (env_deny_interactive())
		src = OMAYEXEC_SOURCE_ENVIRONMENT;
	if (source)
		*source = src;
	return src != OMAYEXEC_SOURCE_DEFAULT;
}

/*
 * Whether a failed AT_EXECVE_CHECK refuses the file: the calling thread's
 * SECBIT_EXEC_RESTRICT_FILE, or the strict mode from wherever it came.
 */
static int resolve_restrict_file(const struct config *c, int *source)
{
	int src = OMAYEXEC_SOURCE_DEFAULT;

	if (securebits() & SECBIT_EXEC_RESTRICT_FILE)
		src = OMAYEXEC_SOURCE_SECUREBITS;
	else if (resolve_mode(c, &src) != OMAYEXEC_STRICT)
		src = OMAYEXEC_SOURCE_DEFAULT;
	if (source)
		*source = src;
	return src != OMAYEXEC_SOURCE_DEFAULT;
}

int omayexec_set_mode(int mode)
{
	if (mode != OMAYEXEC_BEST_EFFORT && mode != OMAYEXEC_STRICT) {
		errno = EINVAL;
		return -1;
	}
	__atomic_store_n(&caller_mode, mode, __ATOMIC_RELAXED);
	return 0;
}

int omayexec_mode(void)
{
	struct config c;

	read_config(&c);
	return resolve_mode(&c, NULL);
}

int omayexec_deny_interactive(void)
{
	struct config c;

	read_config(&c);
	return resolve_deny_interactive(&c, NULL);
}

const char *omayexec_config_path(void)
{
	return OMAYEXEC_CONF;
}

/* ---- Opening ------------------------------------------------------------- */

/*
 * Open @path with O_MAYEXEC where the kernel knows the flag (its policy
 * may refuse: that answer stands), without it elsewhere; *@mayexec says
 * which.  The file descriptor, or -1 with errno.
 */
static int open_code(int dirfd, const char *path, int flags, int *mayexec)
{
	long fd;
	int err;

	fd = openat2_flags(dirfd, path, flags | O_MAYEXEC);
	*mayexec = fd >= 0;
	if (fd >= 0)
		return (int)fd;
	err = errno;
	/*
	 * EINVAL or ENOSYS may be the kernel's answer to the flag, or (EINVAL)
	 * to something else about this open: only the probe tells.  A kernel
	 * that knows the flag has decided; its answer stands.
	 */
	if ((err != EINVAL && err != ENOSYS) || kernel_knows_mayexec()) {
		errno = err;
		return -1;
	}
	fd = openat(dirfd, path, flags);
	return fd < 0 ? -1 : (int)fd;
}

/*
 * The decision, once the file is open as @fd (with O_MAYEXEC when
 * @mayexec, so the module's policy allowed it): 0 to hand @fd over, or
 * the errno to fail with.  @always_enforce: the caller asks whether the
 * file passes (omayexec_check_fd()), not whether to run it.
 *   - The check is asked wherever the kernel answers it, enforced or not
 *     (as mainline's sample interpreter does: the LSMs and IMA see it).
 *   - Its failure is enforced under SECBIT_EXEC_RESTRICT_FILE, in strict
 *     mode, or when @always_enforce.
 *   - No check at all: O_MAYEXEC's answer, if there was one; else the
 *     mode: best effort goes on unchecked, strict is EOPNOTSUPP.
 */
static int decide(int fd, int mayexec, int always_enforce)
{
	int check = exec_check_fd(fd);
	struct config c;

	if (check == EINVAL) {
		if (mayexec || omayexec_mode() != OMAYEXEC_STRICT)
			return 0;
		return EOPNOTSUPP;
	}
	if (!check || always_enforce)
		return check;
	read_config(&c);
	return resolve_restrict_file(&c, NULL) ? check : 0;
}

int omayexec_open(int dirfd, const char *path, int flags)
{
	int fd, mayexec, err;

	if (!path || (flags & O_ACCMODE) != O_RDONLY ||
	    (flags & ~(O_ACCMODE | ALLOWED_FLAGS))) {
		errno = EINVAL;
		return -1;
	}
	fd = open_code(dirfd, path, (flags & ~O_MAYEXEC) | O_CLOEXEC, &mayexec);
	if (fd < 0)
		return -1;
	err = decide(fd, mayexec, 0);
	if (err) {
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

FILE *omayexec_fopen(const char *path, const char *mode)
{
	const char *m;
	FILE *f;
	int fd, err;

	if (!mode || mode[0] != 'r') {
		errno = EINVAL;
		return NULL;
	}
	for (m = mode + 1; *m; m++) {
		if (*m != 'b' && *m != 'e') {
			errno = EINVAL;
			return NULL;
		}
	}
	fd = omayexec_open(AT_FDCWD, path, O_RDONLY);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "r");
	if (!f) {
		err = errno;
		close(fd);
		errno = err;
	}
	return f;
}

int omayexec_check_fd(int fd)
{
	struct stat st, st2;
	char proc[64];
	int nfd, mayexec, err = 0;

	if (fstat(fd, &st))
		return -1;
	if (!S_ISREG(st.st_mode)) {
		errno = EACCES;
		return -1;
	}
	/* O_MAYEXEC's answer needs an open: of the same file, through /proc. */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	nfd = open_code(AT_FDCWD, proc, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
			&mayexec);
	if (nfd < 0)
		return -1;
	/* The file judged must be @fd's (not something mounted over /proc). */
	if (fstat(nfd, &st2))
		err = errno;
	else if (st.st_dev != st2.st_dev || st.st_ino != st2.st_ino)
		err = EXDEV;
	close(nfd);
	/* The check asks about @fd itself, as mainline's interpreters do. */
	if (!err)
		err = decide(fd, mayexec, 1);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

/* ---- The state and the policy ------------------------------------------- */

/* Read a small file into @buf without its trailing newline: 0 or -errno. */
static int read_small(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	err = errno;
	close(fd);
	if (n < 0)
		return -err;
	buf[n] = '\0';
	if (n > 0 && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

static int read_ull(const char *path, unsigned long long *val)
{
	char buf[32], *end;
	int ret = read_small(path, buf, sizeof(buf));

	if (ret)
		return ret;
	errno = 0;
	*val = strtoull(buf, &end, 10);
	if (errno || end == buf || *end)
		return -EIO;
	return 0;
}

int omayexec_get_state(struct omayexec_state *state, size_t size)
{
	static const struct {
		const char *name;
		size_t offset;
	} counters[] = {
		{ "allowed", offsetof(struct omayexec_state, allowed) },
		{ "refused_not_regular",
		  offsetof(struct omayexec_state, refused_not_regular) },
		{ "refused_noexec_mount",
		  offsetof(struct omayexec_state, refused_noexec_mount) },
		{ "refused_no_exec_permission",
		  offsetof(struct omayexec_state, refused_no_exec_permission) },
	};
	struct omayexec_state st = { 0 };
	int saved = errno, ret;
	struct config c;
	char buf[64];
	size_t i;

	/* The struct as 1.0.0 had it is the least accepted. */
	if (!state || size < offsetof(struct omayexec_state, exec_check)) {
		errno = EINVAL;
		return -1;
	}

	st.kernel_support = kernel_knows_mayexec();
	st.module_loaded = access(MODULE_DIR, F_OK) == 0;

	st.policy = -1;
	ret = read_small(OMAYEXEC_SYSCTL_PATH, buf, sizeof(buf));
	if (!ret) {
		ret = omayexec_parse_policy(buf);
		if (ret >= 0)
			st.policy = ret;
		else
			st.policy_errno = EIO;
	} else {
		st.policy_errno = -ret;
	}

	st.locked = -1;
	if (!read_small(MODULE_DIR "/parameters/locked", buf, sizeof(buf))) {
		if (!strcmp(buf, "Y"))
			st.locked = 1;
		else if (!strcmp(buf, "N"))
			st.locked = 0;
	}

	st.stats_available = 1;
	for (i = 0; i < sizeof(counters) / sizeof(counters[0]); i++) {
		snprintf(buf, sizeof(buf), MODULE_DIR "/stats/%s",
			 counters[i].name);
		if (read_ull(buf, (unsigned long long *)
			     ((char *)&st + counters[i].offset)))
			st.stats_available = 0;
	}
	if (!st.stats_available) {
		st.allowed = st.refused_not_regular = 0;
		st.refused_noexec_mount = st.refused_no_exec_permission = 0;
	}

	read_config(&c);
	st.config_errno = c.err;
	st.mode = resolve_mode(&c, &st.mode_source);
	st.deny_interactive = resolve_deny_interactive(&c,
				&st.deny_interactive_source);
	st.exec_check = exec_check_support();
	st.securebits = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
	st.restrict_file = resolve_restrict_file(&c, &st.restrict_file_source);

	memset(state, 0, size);
	memcpy(state, &st, size < sizeof(st) ? size : sizeof(st));
	errno = saved;
	return 0;
}

int omayexec_set_policy(int policy)
{
	char text[8];
	ssize_t n;
	int fd, err = 0;

	if (policy < 0 || policy > OMAYEXEC_ENFORCE_MASK) {
		errno = EINVAL;
		return -1;
	}
	fd = open(OMAYEXEC_SYSCTL_PATH, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	snprintf(text, sizeof(text), "%d\n", policy);
	n = write(fd, text, strlen(text));
	if (n < 0)
		err = errno;
	else if ((size_t)n != strlen(text))
		err = EIO;
	close(fd);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

static const char *const policy_names[] = {
	"off", "mount", "file", "mount,file",
};

int omayexec_parse_policy(const char *text)
{
	int i;

	if (text) {
		if (text[0] >= '0' && text[0] <= '3' && !text[1])
			return text[0] - '0';
		for (i = 0; i <= OMAYEXEC_ENFORCE_MASK; i++)
			if (!strcmp(text, policy_names[i]))
				return i;
		if (!strcmp(text, "file,mount"))
			return OMAYEXEC_ENFORCE_MASK;
	}
	errno = EINVAL;
	return -1;
}

const char *omayexec_policy_name(int policy)
{
	if (policy < 0 || policy > OMAYEXEC_ENFORCE_MASK)
		return NULL;
	return policy_names[policy];
}
