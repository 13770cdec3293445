// SPDX-License-Identifier: GPL-2.0
/*
 * The refusal layer of the interpreters and the omayexec tool: see
 * refusal.h.
 *
 * The decision is libomayexec's, made on the descriptor it opens; what is
 * here only opens code so that the open never waits, and explains a
 * refusal afterwards.  The explanation looks at the file again (through
 * an O_PATH descriptor when the refused open left none): it may describe
 * a file renamed in between, never run one.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "omayexec.h"
#include "refusal.h"

#define PROC_MAGIC	0x9fa0
#define SYSFS_MAGIC	0x62656572

const char *refusal_line(char *buf, size_t len, const char *prog,
			 const char *what, const char *why)
{
	snprintf(buf, len, "%s: %s: refused: %s", prog, what, why);
	return buf;
}

int refusal_open_code(int dirfd, const char *path, int flags)
{
	struct stat st;
	int fd, fl, err;

	fd = omayexec_open(dirfd, path, flags | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st)) {
		err = errno;
		goto fail;
	}
	/*
	 * Every kernel check refuses anything but a regular file; where none
	 * is enforced, reading a FIFO, a terminal or /dev/zero as code would
	 * wait or never end.
	 */
	if (!S_ISREG(st.st_mode)) {
		err = EACCES;
		goto fail;
	}
	if (!(flags & O_NONBLOCK)) {
		fl = fcntl(fd, F_GETFL);
		if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK)) {
			err = errno;
			goto fail;
		}
	}
	return fd;
fail:
	close(fd);
	errno = err;
	return -1;
}

int refusal_is_refusal(int dirfd, const char *path, int err)
{
	int fd;

	if (err == EOPNOTSUPP || err == EPERM)
		return 1;
	/* The plain open, without waiting: when it works, the check refused. */
	fd = openat(dirfd, path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

/* ---- What the kernel sees --------------------------------------------- */

/* Copy a mountinfo field, undoing its octal escapes (\040 for a space). */
static void unescape(char *dst, size_t len, const char *src)
{
	size_t n = 0;

	while (*src && n + 1 < len) {
		if (src[0] == '\\' && src[1] >= '0' && src[1] <= '3' &&
		    src[2] >= '0' && src[2] <= '7' &&
		    src[3] >= '0' && src[3] <= '7') {
			dst[n++] = (char)((src[1] - '0') * 64 +
					  (src[2] - '0') * 8 + (src[3] - '0'));
			src += 4;
		} else {
			dst[n++] = *src++;
		}
	}
	dst[n] = '\0';
}

/*
 * The mount of @fd: its mount point in @point and whether its per-mount
 * options have noexec.  0, or -1 when it cannot be found.
 */
static int mount_of(int fd, char *point, size_t len, int *noexec)
{
	char path[64], *line = NULL, *field[6], *save, *opt;
	size_t cap = 0;
	long mnt_id = -1;
	int i, ret = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (getline(&line, &cap, f) > 0)
		if (!strncmp(line, "mnt_id:", 7))
			mnt_id = strtol(line + 7, NULL, 10);
	fclose(f);
	f = mnt_id < 0 ? NULL : fopen("/proc/self/mountinfo", "re");
	while (f && ret && getline(&line, &cap, f) > 0) {
		field[0] = strtok_r(line, " ", &save);
		for (i = 1; i < 6 && field[i - 1]; i++)
			field[i] = strtok_r(NULL, " ", &save);
		if (i < 6 || !field[5] || strtol(field[0], NULL, 10) != mnt_id)
			continue;
		unescape(point, len, field[4]);
		*noexec = 0;
		for (opt = strtok_r(field[5], ",", &save); opt;
		     opt = strtok_r(NULL, ",", &save))
			if (!strcmp(opt, "noexec"))
				*noexec = 1;
		ret = 0;
	}
	if (f)
		fclose(f);
	free(line);
	return ret;
}

static const char *type_name(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR:
		return "directory";
	case S_IFIFO:
		return "FIFO";
	case S_IFSOCK:
		return "socket";
	case S_IFCHR:
		return "character device";
	case S_IFBLK:
		return "block device";
	}
	return "not a regular file";
}

/*
 * Whether the mode bits of @st let this process execute the file, as the
 * kernel's generic permission check does (owner, group or other class;
 * root needs one x bit).  Used where faccessat(2) cannot tell: it refuses
 * X_OK on every noexec mount.  ACLs and LSMs are not seen here.
 */
static int mode_allows_exec(const struct stat *st)
{
	gid_t groups[256];
	int i, n;

	if (geteuid() == 0)
		return (st->st_mode & 0111) != 0;
	if (st->st_uid == geteuid())
		return (st->st_mode & S_IXUSR) != 0;
	if (st->st_gid == getegid())
		return (st->st_mode & S_IXGRP) != 0;
	n = getgroups(256, groups);
	for (i = 0; i < n; i++)
		if (groups[i] == st->st_gid)
			return (st->st_mode & S_IXGRP) != 0;
	return (st->st_mode & S_IXOTH) != 0;
}

static void add_reason(char *buf, size_t len, const char *reason)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, "%s%s", n ? "; " : "", reason);
}

/*
 * What the kernel sees in the file open as @fd that an exec policy
 * refuses, only those @policy enforces (-1: every one), as refusal_reasons()
 * says it; and, when @remedy is not NULL, the remedy that fits them:
 * "; to run it, ..." (nothing for a file that is not regular: no remedy
 * makes a FIFO or a directory code).
 */
static int reasons_remedy(int fd, int policy, char *buf, size_t len,
			  char *remedy, size_t rlen)
{
	char point[4096], reason[4200];
	const char *never_exec = NULL, *move = NULL;
	struct statfs sfs;
	struct stat st;
	int noexec = 0, no_x = 0, found = 0;

	buf[0] = '\0';
	if (remedy)
		remedy[0] = '\0';
	if (fstat(fd, &st)) {
		snprintf(buf, len, "%s", strerror(errno));
		return 0;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(buf, len, "not a regular file: %s",
			 type_name(st.st_mode));
		return 1;
	}
	if (mount_of(fd, point, sizeof(point), &noexec))
		snprintf(point, sizeof(point), "?");
	if (!fstatfs(fd, &sfs) && (sfs.f_type == PROC_MAGIC ||
				   sfs.f_type == SYSFS_MAGIC))
		never_exec = sfs.f_type == PROC_MAGIC ? "proc" : "sysfs";

	if (policy < 0 || (policy & OMAYEXEC_ENFORCE_MOUNT)) {
		if (never_exec) {
			snprintf(reason, sizeof(reason),
				 "never-executable file system (%s): %s",
				 never_exec, point);
			add_reason(buf, len, reason);
			move = "copy it to a file system mounted without noexec";
			found++;
		} else if (noexec) {
			snprintf(reason, sizeof(reason), "noexec mount: %s",
				 point);
			add_reason(buf, len, reason);
			move = "move it to a mount without noexec";
			found++;
		}
	}
	/*
	 * faccessat(X_OK) is the kernel's own permission check (ACLs and LSMs
	 * included), but it fails on any noexec mount whatever the mode: there
	 * only the mode bits can tell.
	 */
	if (policy < 0 || (policy & OMAYEXEC_ENFORCE_FILE)) {
		if (noexec || never_exec)
			no_x = !mode_allows_exec(&st);
		else
			no_x = faccessat(fd, "", X_OK, AT_EACCESS | AT_EMPTY_PATH) != 0;
		if (no_x) {
			snprintf(reason, sizeof(reason),
				 "no exec permission for uid %u",
				 (unsigned int)geteuid());
			add_reason(buf, len, reason);
			found++;
		}
	}
	if (!found)
		snprintf(buf, len,
			 "refused by the kernel for a reason this tool cannot see (an LSM?)");
	if (!remedy)
		return found;
	/* What the user can do, in the order the kernel judges. */
	if (move || no_x)
		snprintf(remedy, rlen, "; to run it, %s%s%s", move ? move : "",
			 move && no_x ? " and " : "",
			 no_x ? "give it the x bit (chmod +x)" : "");
	else
		snprintf(remedy, rlen, "; " REFUSAL_ADMIN_REMEDY);
	return found;
}

int refusal_reasons(int fd, int policy, char *buf, size_t len)
{
	return reasons_remedy(fd, policy, buf, len, NULL, 0);
}

/* refusal_check_reasons(), and the remedy that fits into @remedy. */
static void check_reasons_remedy(int fd, int err, char *buf, size_t len,
				 char *remedy, size_t rlen)
{
	remedy[0] = '\0';
	if (err == ETXTBSY) {
		snprintf(buf, len, "open for writing");
		snprintf(remedy, rlen,
			 "; to run it, close what has it open for writing");
	} else if (err == EACCES) {
		reasons_remedy(fd, -1, buf, len, remedy, rlen);
	} else {
		snprintf(buf, len, "%s", strerror(err));
	}
}

void refusal_check_reasons(int fd, int err, char *buf, size_t len)
{
	char remedy[256];

	check_reasons_remedy(fd, err, buf, len, remedy, sizeof(remedy));
}

/* ---- What decided --------------------------------------------------------- */

/* Where the strict mode came from (OMAYEXEC_SOURCE_*), in words. */
static void strict_source(int source, char *buf, size_t len)
{
	switch (source) {
	case OMAYEXEC_SOURCE_CONFIG:
		snprintf(buf, len, "the strict mode of %s",
			 omayexec_config_path());
		return;
	case OMAYEXEC_SOURCE_ENVIRONMENT:
		snprintf(buf, len, "the strict mode of OMAYEXEC_MODE");
		return;
	}
	snprintf(buf, len, "the strict mode the interpreter was started in");
}

/* What makes a failed exec check refuse the file, in words. */
static void restrict_source(const struct omayexec_state *st, char *buf, size_t len)
{
	if (st->restrict_file_source == OMAYEXEC_SOURCE_SECUREBITS)
		snprintf(buf, len, "the exec securebit SECBIT_EXEC_RESTRICT_FILE");
	else
		strict_source(st->restrict_file_source, buf, len);
}

/*
 * @remedy: NULL for the one that fits the reason (reasons_remedy()), else
 * the caller's own, "; ..." or "".
 */
const char *refusal_why_fd_remedy(int fd, int err, const char *remedy,
				  char *buf, size_t len)
{
	char reasons[8192], who[4200], fits[256];
	struct omayexec_state st;
	struct stat sb;

	if (err == EPERM) {
		snprintf(buf, len, REFUSAL_EPERM_WHY "%s",
			 remedy ? remedy : "; " REFUSAL_ADMIN_REMEDY);
		return buf;
	}
	if (omayexec_get_state(&st, sizeof(st))) {
		snprintf(buf, len, "%s", strerror(err));
		return buf;
	}
	/* Refused here, or by every check: no one policy decided. */
	if (fd >= 0 && !fstat(fd, &sb) && !S_ISREG(sb.st_mode)) {
		refusal_reasons(fd, -1, buf, len);
		return buf;
	}
	if (err == EOPNOTSUPP) {
		strict_source(st.mode_source, who, sizeof(who));
		snprintf(buf, len, "this kernel can check no file, neither with O_MAYEXEC nor with AT_EXECVE_CHECK (decided by %s)%s",
			 who, remedy ? remedy :
			 "; to check it, the kernel needs the omayexec module (modprobe omayexec, as root)");
		return buf;
	}
	if (fd < 0) {
		snprintf(buf, len, "%s", strerror(err));
		return buf;
	}
	/* The O_MAYEXEC open comes first: when its policy refuses, it decided. */
	if (err == EACCES && st.kernel_support && st.policy > 0 &&
	    reasons_remedy(fd, st.policy, reasons, sizeof(reasons), fits,
			   sizeof(fits))) {
		snprintf(buf, len, "%s (decided by the module's policy, fs.open_mayexec_enforce = %s)%s",
			 reasons, omayexec_policy_name(st.policy),
			 remedy ? remedy : fits);
		return buf;
	}
	if (st.restrict_file) {
		check_reasons_remedy(fd, err, reasons, sizeof(reasons), fits,
				     sizeof(fits));
		restrict_source(&st, who, sizeof(who));
		snprintf(buf, len, "%s (decided by %s)%s", reasons, who,
			 remedy ? remedy : fits);
		return buf;
	}
	/* Not the exec check: the O_MAYEXEC open, whose policy is unknown. */
	if (err == EACCES) {
		reasons_remedy(fd, -1, reasons, sizeof(reasons), fits,
			       sizeof(fits));
		snprintf(buf, len, "%s (decided by the module's policy)%s",
			 reasons, remedy ? remedy : fits);
	} else {
		snprintf(buf, len, "%s", strerror(err));
	}
	return buf;
}

const char *refusal_why_fd(int fd, int err, char *buf, size_t len)
{
	return refusal_why_fd_remedy(fd, err, NULL, buf, len);
}

const char *refusal_why_path(int dirfd, const char *path, int err,
			     char *buf, size_t len)
{
	int fd = openat(dirfd, path, O_PATH | O_CLOEXEC);

	refusal_why_fd(fd, err, buf, len);
	if (fd >= 0)
		close(fd);
	return buf;
}

const char *refusal_deny_tag(const char *option, char *buf, size_t len)
{
	struct omayexec_state st;
	const char *who = option;

	if (!who) {
		who = "the program";
		if (!omayexec_get_state(&st, sizeof(st))) {
			switch (st.deny_interactive_source) {
			case OMAYEXEC_SOURCE_CONFIG:
				who = omayexec_config_path();
				break;
			case OMAYEXEC_SOURCE_SECUREBITS:
				who = "the exec securebit SECBIT_EXEC_DENY_INTERACTIVE";
				break;
			case OMAYEXEC_SOURCE_ENVIRONMENT:
				who = "OMAYEXEC_DENY_INTERACTIVE";
				break;
			}
		}
	}
	snprintf(buf, len, "(deny-interactive, asked for by %s)", who);
	return buf;
}

const char *refusal_why_stdin(int fd, int err, const char *option,
			      char *buf, size_t len)
{
	char reasons[8192], tag[256];
	struct stat st;

	refusal_deny_tag(option, tag, sizeof(tag));
	if (err == EOPNOTSUPP)
		snprintf(reasons, sizeof(reasons),
			 "strict mode, and this kernel can check no file");
	else if (err == EPERM)
		snprintf(reasons, sizeof(reasons), REFUSAL_EPERM_WHY);
	else if (!fstat(fd, &st) && S_ISREG(st.st_mode) && err != EACCES)
		refusal_check_reasons(fd, err, reasons, sizeof(reasons));
	else	/* Every check is asked, enforced or not: every reason counts. */
		refusal_reasons(fd, -1, reasons, sizeof(reasons));
	snprintf(buf, len, "%s %s", reasons, tag);
	return buf;
}
