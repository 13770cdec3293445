// SPDX-License-Identifier: GPL-2.0
/*
 * libomayexec's decision, the table of omayexec(7) and omayexec_open(3),
 * row by row, on whatever kernel this runs: with the module (O_MAYEXEC at
 * policy 0, and execveat(AT_EXECVE_CHECK) through it), without it on a
 * stock kernel (neither), or on a kernel that answers the check itself.
 *
 * Variants: the calling thread's exec securebits unset, set
 * (SECBIT_EXEC_RESTRICT_FILE and SECBIT_EXEC_DENY_INTERACTIVE) and set
 * and locked, times /etc/omayexec.conf absent, "mode = strict" and
 * "deny_interactive = yes"; and each bit alone.  Files: executable on an exec mount (execve()
 * would run it), without its x bit, and executable on a noexec mount.
 *
 *   omayexec_open(): the file is opened, except
 *     - where the check is answered and fails: refused (its errno,
 *       EACCES here) under SECBIT_EXEC_RESTRICT_FILE or strict mode;
 *     - where nothing can check: EOPNOTSUPP in strict mode.
 *   omayexec_check_fd(): a file passes when every check the kernel can
 *     make passes, enforced whatever the mode; nothing can check: strict
 *     EOPNOTSUPP, best effort passes.
 *   omayexec_deny_interactive(): the configuration or
 *     SECBIT_EXEC_DENY_INTERACTIVE.
 *   omxsh, end to end: a script runs or is refused (exit 126) as
 *     omayexec_open() decides, in one line that gives what the kernel saw
 *     and what decided (the exec securebit, the strict mode of the
 *     configuration file); -c is refused under deny-interactive.
 *   omayexec-python3, end to end: Debian's standard library is mode 0644,
 *     so wherever a failed check is enforced (or strict mode meets a
 *     kernel that cannot check) the interpreter cannot start, and says
 *     so in one line that names the remedy and what decided, exit 126;
 *     elsewhere every script runs, and -c as omxsh's.  Whichever Python
 *     the guest carries: its release's (us_python_stdlib()).
 *   A FIFO named as the script: both answer at once (no writer ever
 *     comes), refused as not a regular file, in every variant.
 *   omayexec check, on each of those files, a FIFO and /dev/null: the
 *     verdict of omxsh on the same file, now (allowed: exit 0, omxsh runs
 *     it; refused: 1, omxsh 126); check --strict omxsh -S's, and check
 *     --restrict-file that of omxsh under "omayexec run --restrict-file",
 *     where the kernel has the bit.
 *   omayexec set names what the kernel has: the module's policy, the
 *     module missing, or (6.14 and later) no O_MAYEXEC policy at all.
 *
 * Setting a bit pins the module until reboot (securebits_test): run this
 * suite where that does not matter.  On a kernel without the bits those
 * variants check that prctl() refuses them, and stop.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "omx_test.h"
#include "userspace_run.h"
#include "../userspace/lib/libomayexec.c"

#define BOTH_BITS	(SECBIT_EXEC_RESTRICT_FILE | SECBIT_EXEC_DENY_INTERACTIVE)
#define BOTH_LOCKS	(SECBIT_EXEC_RESTRICT_FILE_LOCKED | SECBIT_EXEC_DENY_INTERACTIVE_LOCKED)

enum file { EXEC_X, EXEC_NX, NOEXEC_X, NR_FILES };

static const struct {
	const char *rel;
	mode_t mode;
	bool runs;	/* what execve() would decide: x bit on an exec mount */
} files[NR_FILES] = {
	[EXEC_X] = { "exec/x.omx", 0755, true },
	[EXEC_NX] = { "exec/nx.omx", 0644, false },
	[NOEXEC_X] = { "noexec/x.omx", 0755, false },
};

FIXTURE(decision) {
	struct omx_ws ws;
	char omxsh[PATH_MAX];
	char python[PATH_MAX];
	char stdlib[PATH_MAX];	/* "/usr/lib/python3.N" */
	bool bits_set;		/* the variant's bits are in force */
	bool mayexec;		/* the kernel knows O_MAYEXEC (policy 0 here) */
	bool check;		/* the kernel answers AT_EXECVE_CHECK */
};

FIXTURE_VARIANT(decision) {
	unsigned int bits;
	const char *conf;	/* NULL: no configuration file */
};

FIXTURE_VARIANT_ADD(decision, bits_unset) { .bits = 0 };
FIXTURE_VARIANT_ADD(decision, bits_set) { .bits = BOTH_BITS };
FIXTURE_VARIANT_ADD(decision, bits_locked) { .bits = BOTH_BITS | BOTH_LOCKS };
FIXTURE_VARIANT_ADD(decision, restrict_file_bit) { .bits = SECBIT_EXEC_RESTRICT_FILE };
FIXTURE_VARIANT_ADD(decision, deny_interactive_bit) { .bits = SECBIT_EXEC_DENY_INTERACTIVE };
FIXTURE_VARIANT_ADD(decision, strict_bits_unset) {
	.bits = 0, .conf = "mode = strict\n" };
FIXTURE_VARIANT_ADD(decision, strict_bits_set) {
	.bits = BOTH_BITS, .conf = "mode = strict\n" };
FIXTURE_VARIANT_ADD(decision, strict_bits_locked) {
	.bits = BOTH_BITS | BOTH_LOCKS, .conf = "mode = strict\n" };
FIXTURE_VARIANT_ADD(decision, deny_bits_unset) {
	.bits = 0, .conf = "deny_interactive = yes\n" };
FIXTURE_VARIANT_ADD(decision, deny_bits_set) {
	.bits = BOTH_BITS, .conf = "deny_interactive = yes\n" };
FIXTURE_VARIANT_ADD(decision, deny_bits_locked) {
	.bits = BOTH_BITS | BOTH_LOCKS, .conf = "deny_interactive = yes\n" };

FIXTURE_SETUP(decision)
{
	struct omx_ws *ws = &self->ws;
	char text[128];
	int f;

	ASSERT_FALSE(access(US_CONF, F_OK) == 0 && !us_conf_is_ours())
		TH_LOG("%s exists: not overwriting it", US_CONF);
	us_conf_remove();
	unsetenv("OMAYEXEC_MODE");
	unsetenv("OMAYEXEC_DENY_INTERACTIVE");
	snprintf(self->omxsh, sizeof(self->omxsh), "%s", us_bin("omxsh"));
	ASSERT_EQ(0, access(self->omxsh, X_OK)) TH_LOG("%s", self->omxsh);
	snprintf(self->python, sizeof(self->python), "%s", us_bin("omayexec-python3"));
	ASSERT_EQ(0, access(self->python, X_OK)) TH_LOG("%s", self->python);
	ASSERT_EQ(0, us_python_stdlib(self->stdlib, sizeof(self->stdlib)))
		TH_LOG("not one /usr/lib/python3.N/os.py");

	self->mayexec = omx_module_loaded();
	self->check = omx_module_loaded() ? omx_exec_check_enabled()
					  : omx_exec_check_answered();
	if (self->mayexec)
		ASSERT_EQ(0, omx_policy_set(0));

	ASSERT_EQ(0, omx_ws_create(ws));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(ws, "exec", 0));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(ws, "noexec", MS_NOEXEC));
	for (f = 0; f < NR_FILES; f++) {
		char py[PATH_MAX];

		snprintf(text, sizeof(text), "echo ran %s\n", files[f].rel);
		ASSERT_EQ(0, us_write_file(omx_ws_path(ws, files[f].rel), text,
					   files[f].mode));
		/* The same script for Python: NAME.py beside NAME.omx. */
		snprintf(py, sizeof(py), "%.*s.py",
			 (int)(strlen(files[f].rel) - 4), files[f].rel);
		snprintf(text, sizeof(text), "print('ran %s')\n", files[f].rel);
		ASSERT_EQ(0, us_write_file(omx_ws_path(ws, py), text, files[f].mode));
	}
	if (variant->conf)
		ASSERT_EQ(0, us_conf_write(variant->conf, 0644, 0));

	/* The bits go on this test's process, and on what it runs. */
	self->bits_set = !variant->bits;
	if (variant->bits) {
		int ret = prctl(PR_SET_SECUREBITS,
				prctl(PR_GET_SECUREBITS, 0, 0, 0, 0) | variant->bits, 0, 0, 0);

		if (self->check) {
			ASSERT_EQ(0, ret) TH_LOG("PR_SET_SECUREBITS: %s", strerror(errno));
			self->bits_set = true;
		} else {
			/* No exec securebits in this kernel. */
			ASSERT_EQ(-1, ret);
			ASSERT_EQ(EPERM, errno);
		}
	}
}

FIXTURE_TEARDOWN(decision)
{
	us_conf_remove();
	if (self->mayexec)
		omx_policy_set(0);
	omx_ws_destroy(&self->ws);
}

static bool strict(const FIXTURE_VARIANT(decision) *v)
{
	return v->conf && !strcmp(v->conf, "mode = strict\n");
}

/* What omayexec_open() of file @f must give: 0 (opened) or the errno. */
static int open_expected(const FIXTURE_DATA(decision) *self,
			 const FIXTURE_VARIANT(decision) *v, enum file f)
{
	bool enforce = strict(v) || (v->bits & SECBIT_EXEC_RESTRICT_FILE);

	if (self->check)
		return !files[f].runs && enforce ? EACCES : 0;
	if (!self->mayexec && strict(v))
		return EOPNOTSUPP;
	return 0;
}

/* Whether deny-interactive is asked: by the configuration or the bit. */
static bool deny_expected(const FIXTURE_VARIANT(decision) *v)
{
	return (v->conf && strstr(v->conf, "deny_interactive")) ||
	       (v->bits & SECBIT_EXEC_DENY_INTERACTIVE);
}

/* What omayexec_check_fd() must give for file @f: 0 or the errno. */
static int check_fd_expected(const FIXTURE_DATA(decision) *self,
			     const FIXTURE_VARIANT(decision) *v, enum file f)
{
	if (self->check)
		return files[f].runs ? 0 : EACCES;
	if (!self->mayexec && strict(v))
		return EOPNOTSUPP;
	return 0;
}

TEST_F(decision, open)
{
	int f, fd, want;

	if (!self->bits_set)
		return;
	for (f = 0; f < NR_FILES; f++) {
		want = open_expected(self, variant, f);
		errno = 0;
		fd = omayexec_open(self->ws.dirfd, files[f].rel, O_RDONLY);
		EXPECT_EQ(want ? -1 : 0, fd < 0 ? -1 : 0) TH_LOG("%s", files[f].rel);
		EXPECT_EQ(want, fd < 0 ? errno : 0) TH_LOG("%s", files[f].rel);
		if (fd >= 0)
			close(fd);
	}
}

TEST_F(decision, check_fd)
{
	int f, fd, want;

	if (!self->bits_set)
		return;
	for (f = 0; f < NR_FILES; f++) {
		want = check_fd_expected(self, variant, f);
		fd = openat(self->ws.dirfd, files[f].rel, O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, fd);
		errno = 0;
		EXPECT_EQ(want ? -1 : 0, omayexec_check_fd(fd)) TH_LOG("%s", files[f].rel);
		if (want)
			EXPECT_EQ(want, errno) TH_LOG("%s", files[f].rel);
		close(fd);
	}
}

TEST_F(decision, deny_interactive)
{
	struct omayexec_state st;
	bool by_conf = variant->conf && strstr(variant->conf, "deny_interactive");
	bool by_bits = variant->bits & SECBIT_EXEC_DENY_INTERACTIVE;

	if (!self->bits_set)
		return;
	EXPECT_EQ(by_conf || by_bits, omayexec_deny_interactive());
	ASSERT_EQ(0, omayexec_get_state(&st, sizeof(st)));
	EXPECT_EQ(by_conf ? OMAYEXEC_SOURCE_CONFIG :
		  by_bits ? OMAYEXEC_SOURCE_SECUREBITS : OMAYEXEC_SOURCE_DEFAULT,
		  st.deny_interactive_source);
	EXPECT_EQ(strict(variant) || (variant->bits & SECBIT_EXEC_RESTRICT_FILE),
		  st.restrict_file);
	EXPECT_EQ(variant->bits, (unsigned int)st.securebits & (BOTH_BITS | BOTH_LOCKS));
}

/*
 * The refusal's reason for file @f, refused with @err in variant @v: what
 * the kernel saw, and what decided (the end of omxsh's line; Python's
 * goes on with the remedy).  A static buffer.
 */
static const char *why_expected(const FIXTURE_DATA(decision) *self,
				const FIXTURE_VARIANT(decision) *v, enum file f,
				int err)
{
	static char buf[PATH_MAX + 256];
	const char *who = v->bits & SECBIT_EXEC_RESTRICT_FILE ?
		"the exec securebit SECBIT_EXEC_RESTRICT_FILE" :
		"the strict mode of " US_CONF;

	if (err == EOPNOTSUPP)
		snprintf(buf, sizeof(buf), "refused: this kernel can check no file, neither with O_MAYEXEC nor with AT_EXECVE_CHECK (decided by the strict mode of " US_CONF ")");
	else if (f == NOEXEC_X)
		snprintf(buf, sizeof(buf), "refused: noexec mount: %s (decided by %s)",
			 omx_ws_path(&self->ws, "noexec"), who);
	else
		snprintf(buf, sizeof(buf), "refused: no exec permission for uid 0 (decided by %s)",
			 who);
	return buf;
}

/* omxsh decides as the library does, and refuses in one line. */
TEST_F(decision, omxsh)
{
	const char *dash_c[] = { self->omxsh, "-c", "echo c", NULL };
	struct us_result r;
	char out[128];
	int f, want;

	if (!self->bits_set)
		return;
	for (f = 0; f < NR_FILES; f++) {
		const char *argv[] = { self->omxsh, omx_ws_path(&self->ws, files[f].rel), NULL };

		want = open_expected(self, variant, f);
		us_run(&r, NULL, argv);
		if (!want) {
			snprintf(out, sizeof(out), "ran %s\n", files[f].rel);
			EXPECT_EQ(0, r.status) TH_LOG("%s: %s", files[f].rel, r.err);
			EXPECT_STREQ(out, r.out);
		} else {
			EXPECT_EQ(126, r.status) TH_LOG("%s", files[f].rel);
			EXPECT_STREQ("", r.out);
			EXPECT_EQ(1, us_lines(r.err)) TH_LOG("%s", r.err);
			EXPECT_NE(NULL, strstr(r.err, why_expected(self, variant, f, want)))
				TH_LOG("%s", r.err);
		}
	}
	us_run(&r, NULL, dash_c);
	if (deny_expected(variant)) {
		EXPECT_EQ(126, r.status);
		EXPECT_NE(NULL, strstr(r.err, "-c: refused")) TH_LOG("%s", r.err);
	} else {
		EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
		EXPECT_STREQ("c\n", r.out);
	}
}

/* omayexec-python3 decides as the library does, its standard library too. */
TEST_F(decision, python)
{
	const char *dash_c[] = { self->python, "-c", "print('c')", NULL };
	struct us_result r;
	char py[PATH_MAX], out[128], start[PATH_MAX + 64];
	bool starts;
	int f;

	if (!self->bits_set)
		return;
	/* Debian's standard library: mode 0644 on an exec mount, as EXEC_NX. */
	starts = open_expected(self, variant, EXEC_NX) == 0;
	snprintf(start, sizeof(start), "omayexec-python3: cannot start: %s/", self->stdlib);
	for (f = 0; f < NR_FILES; f++) {
		const char *argv[] = { self->python, py, NULL };

		snprintf(py, sizeof(py), "%s", omx_ws_path(&self->ws, files[f].rel));
		strcpy(py + strlen(py) - 4, ".py");
		us_run(&r, NULL, argv);
		if (starts) {
			snprintf(out, sizeof(out), "ran %s\n", files[f].rel);
			EXPECT_EQ(0, r.status) TH_LOG("%s: %s", py, r.err);
			EXPECT_STREQ(out, r.out);
		} else {
			/* One line, not CPython's dump: the remedy, what decided. */
			EXPECT_EQ(126, r.status);
			EXPECT_STREQ("", r.out);
			EXPECT_EQ(1, us_lines(r.err)) TH_LOG("%s", r.err);
			EXPECT_NE(NULL, strstr(r.err, start)) TH_LOG("%s", r.err);
			EXPECT_NE(NULL, strstr(r.err, strchr(why_expected(self, variant, EXEC_NX,
				open_expected(self, variant, EXEC_NX)), '(')))
				TH_LOG("%s", r.err);
			/* The x bit is no remedy where nothing can check. */
			if (open_expected(self, variant, EXEC_NX) == EACCES) {
				EXPECT_NE(NULL, strstr(r.err, "; the standard library needs the x bit: run omayexec-python3-allow-stdlib as root (see omayexec-python3(1))\n"))
					TH_LOG("%s", r.err);
			} else {
				EXPECT_EQ(NULL, strstr(r.err, "allow-stdlib"))
					TH_LOG("%s", r.err);
			}
		}
	}
	if (!starts)
		return;
	us_run(&r, NULL, dash_c);
	if (deny_expected(variant)) {
		EXPECT_EQ(126, r.status);
		EXPECT_NE(NULL, strstr(r.err, "-c: refused")) TH_LOG("%s", r.err);
	} else {
		EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
		EXPECT_STREQ("c\n", r.out);
	}
}

/*
 * A FIFO named as the script: no writer ever comes, and the interpreters
 * answer at once, whatever the variant: no kernel check lets anything
 * but a regular file run.  Standard input (a pipe) is another matter:
 * deny-interactive's.
 */
TEST_F(decision, fifo_answers_at_once)
{
	struct us_opts opts = { .stdin_fd = -1, .alarm = 10 };
	const char *fifo = omx_ws_path(&self->ws, "exec/fifo.omx");
	const char *omxsh[] = { self->omxsh, fifo, NULL };
	const char *python[] = { self->python, fifo, NULL };
	struct us_result r;

	if (!self->bits_set)
		return;
	ASSERT_EQ(0, mkfifo(fifo, 0755));

	us_run(&r, &opts, omxsh);
	EXPECT_EQ(126, r.status) TH_LOG("%s", r.err);
	EXPECT_STREQ("", r.out);
	EXPECT_EQ(1, us_lines(r.err)) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, ": refused: not a regular file: FIFO\n"))
		TH_LOG("%s", r.err);

	us_run(&r, &opts, python);
	EXPECT_EQ(126, r.status) TH_LOG("%s", r.err);
	EXPECT_STREQ("", r.out);
	EXPECT_EQ(1, us_lines(r.err)) TH_LOG("%s", r.err);
	/* Where the standard library is refused, the start already fails. */
	if (open_expected(self, variant, EXEC_NX) == 0)
		EXPECT_NE(NULL, strstr(r.err, ": refused: not a regular file: FIFO\n"))
			TH_LOG("%s", r.err);
}

/*
 * omxsh's verdict on @path, and "omayexec check"'s, with @opt for check
 * (NULL, "--strict", "--restrict-file"): the same, and @refused.  omxsh
 * is run with -S for --strict, and under "omayexec run --restrict-file"
 * for --restrict-file.
 */
static void expect_tool_verdict(struct __test_metadata *_metadata,
				const FIXTURE_DATA(decision) *self,
				const char *path, const char *opt, bool refused)
{
	struct us_opts opts = { .stdin_fd = -1, .alarm = 10 };
	const char *check[5] = { NULL, "check" }, *omxsh[7] = { NULL };
	char tool[PATH_MAX];
	struct us_result r;
	int n = 0;

	snprintf(tool, sizeof(tool), "%s", us_bin("omayexec"));
	check[0] = tool;
	check[2] = opt ? opt : path;
	check[3] = opt ? path : NULL;
	if (opt && !strcmp(opt, "--restrict-file")) {
		omxsh[n++] = tool;
		omxsh[n++] = "run";
		omxsh[n++] = "--restrict-file";
		omxsh[n++] = "--";
	}
	omxsh[n++] = self->omxsh;
	if (opt && !strcmp(opt, "--strict"))
		omxsh[n++] = "-S";
	omxsh[n] = path;

	us_run(&r, &opts, omxsh);
	EXPECT_EQ(refused ? 126 : 0, r.status)
		TH_LOG("omxsh %s (%s): %s", path, opt ? opt : "-", r.err);
	us_run(&r, &opts, check);
	EXPECT_EQ(refused ? 1 : 0, r.status)
		TH_LOG("check %s %s: %s%s", opt ? opt : "", path, r.out, r.err);
	EXPECT_EQ(0, strncmp(r.out, refused ? "refused  " : "allowed  ", 9))
		TH_LOG("check %s %s: %s", opt ? opt : "", path, r.out);
}

/*
 * omayexec check answers what omxsh does with the file now: in each
 * variant (the exec securebits and the configuration file, which both
 * inherit), on each kind of kernel.
 */
TEST_F(decision, tool_check_agrees_with_omxsh)
{
	const char *fifo = omx_ws_path(&self->ws, "exec/fifo.omx");
	bool refused, strict_refused;
	char path[PATH_MAX];
	int f;

	if (!self->bits_set)
		return;
	ASSERT_EQ(0, mkfifo(fifo, 0755));
	for (f = 0; f < NR_FILES; f++) {
		snprintf(path, sizeof(path), "%s", omx_ws_path(&self->ws, files[f].rel));
		refused = open_expected(self, variant, f) != 0;
		/* -S: every failed check refuses; nothing can check: all. */
		strict_refused = self->check ? !files[f].runs : !self->mayexec;
		expect_tool_verdict(_metadata, self, path, NULL, refused);
		expect_tool_verdict(_metadata, self, path, "--strict",
				    refused || strict_refused);
		if (self->check)
			expect_tool_verdict(_metadata, self, path, "--restrict-file",
					    refused || !files[f].runs);
	}
	/* Never a regular file: refused in every mode, on every kernel. */
	snprintf(path, sizeof(path), "%s", fifo);
	expect_tool_verdict(_metadata, self, path, NULL, true);
	expect_tool_verdict(_metadata, self, path, "--strict", true);
	expect_tool_verdict(_metadata, self, "/dev/null", NULL, true);
	expect_tool_verdict(_metadata, self, "/dev/null", "--strict", true);
	if (self->check) {
		expect_tool_verdict(_metadata, self, path, "--restrict-file", true);
		expect_tool_verdict(_metadata, self, "/dev/null", "--restrict-file", true);
	}
}

/*
 * omayexec set names what this kernel has, once (no bit, no
 * configuration): the module's policy (set, and read back), no module on
 * a kernel that has neither interface (load it), or, on a kernel with the
 * check of its own, no O_MAYEXEC policy at all: a module to load is no
 * remedy there, and the message does not name one.
 */
TEST_F(decision, set_names_what_the_kernel_has)
{
	const char *set0[] = { NULL, "set", "0", NULL };
	const char *set3[] = { NULL, "set", "3", NULL };
	const char *status[] = { NULL, "status", NULL };
	char tool[PATH_MAX];
	struct us_result r;

	if (variant->bits || variant->conf)
		return;
	snprintf(tool, sizeof(tool), "%s", us_bin("omayexec"));
	set0[0] = set3[0] = status[0] = tool;
	if (self->mayexec) {
		us_run(&r, NULL, set0);
		EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
		EXPECT_STREQ("policy: 0 (off)\n", r.out);
		return;
	}
	us_run(&r, NULL, set3);
	EXPECT_EQ(1, r.status);
	EXPECT_STREQ("", r.out);
	EXPECT_EQ(1, us_lines(r.err)) TH_LOG("%s", r.err);
	if (self->check) {
		EXPECT_NE(NULL, strstr(r.err, "omayexec: set: this kernel has no O_MAYEXEC policy"))
			TH_LOG("%s", r.err);
		EXPECT_EQ(NULL, strstr(r.err, "module")) TH_LOG("%s", r.err);
	} else {
		EXPECT_NE(NULL, strstr(r.err, "omayexec: set: the omayexec module is not loaded"))
			TH_LOG("%s", r.err);
	}

	us_run(&r, NULL, status);
	if (self->check) {
		EXPECT_NE(NULL, strstr(r.out, "\npolicy: none (this kernel has no O_MAYEXEC policy: it checks with its own AT_EXECVE_CHECK"))
			TH_LOG("%s", r.out);
	} else {
		EXPECT_NE(NULL, strstr(r.out, "\npolicy: none (no /proc/sys/fs/open_mayexec_enforce)\n"))
			TH_LOG("%s", r.out);
	}
}

TEST_HARNESS_MAIN
