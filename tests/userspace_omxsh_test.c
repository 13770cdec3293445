// SPDX-License-Identifier: GPL-2.0
/*
 * omxsh, the sample interpreter of userspace/, end to end under each
 * policy (0-3) with the module loaded:
 * - a script on an exec mount with and without the x bit, on a noexec
 *   mount: run, or refused with one line on stderr naming the file, exit
 *   126, and none of the file run;
 * - the same files included from an allowed script: the includer runs up
 *   to the include, then stops with the refusal;
 * - code from -c and from standard input, with and without -D
 *   (--deny-interactive): without -D both run whatever the policy (the
 *   gap the option closes); with -D, -c is refused and standard input runs
 *   only when it is a regular file that passes the kernel's checks: the
 *   O_MAYEXEC policy and, where the kernel answers it (the module's
 *   exec_check, its default), execveat(AT_EXECVE_CHECK), whatever the mode;
 * - -S (strict) enforces a failed AT_EXECVE_CHECK too: a script runs only
 *   where execve() would run it (x bit, exec mount) and the policy allows;
 * - the x bit is judged for the user who runs the interpreter;
 * - every refusal line gives what the kernel saw and what decided (the
 *   module's policy, the strict mode; the exec securebit, which pins the
 *   module, in userspace_decision_test);
 * - a FIFO or a directory named as a script (or included) is refused at
 *   once, in every mode, the FIFO without waiting for a writer;
 * - a file the user cannot read is not a refusal: "cannot read";
 * - --version: the version, as omayexec --version's; --help: the usage,
 *   both exit 0; an unknown option: the usage on stderr, exit 2.
 * The library's fallbacks without the module are in userspace_lib_test.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "omx_test.h"
#include "userspace_run.h"

FIXTURE(omxsh) {
	struct omx_ws ws;
	char omxsh[PATH_MAX];
};

FIXTURE_VARIANT(omxsh) {
	int policy;
};

FIXTURE_VARIANT_ADD(omxsh, policy_0) { .policy = 0 };
FIXTURE_VARIANT_ADD(omxsh, policy_1) { .policy = 1 };
FIXTURE_VARIANT_ADD(omxsh, policy_2) { .policy = 2 };
FIXTURE_VARIANT_ADD(omxsh, policy_3) { .policy = 3 };

/* The scripts: each prints "ran NAME" first. */
enum script { EXEC_X, EXEC_NX, NOEXEC_X, NR_SCRIPTS };

static const struct {
	const char *rel;	/* in the workspace */
	mode_t mode;
	bool noexec_mount, exec_bit;
} scripts[NR_SCRIPTS] = {
	[EXEC_X] = { "exec/x.omx", 0755, false, true },
	[EXEC_NX] = { "exec/nx.omx", 0644, false, false },
	[NOEXEC_X] = { "noexec/x.omx", 0755, true, true },
};

/* What the policy does to script @s: true when it may run. */
static bool allowed(int policy, enum script s)
{
	if ((policy & OMAYEXEC_ENFORCE_MOUNT) && scripts[s].noexec_mount)
		return false;
	if ((policy & OMAYEXEC_ENFORCE_FILE) && !scripts[s].exec_bit)
		return false;
	return true;
}

/*
 * What execveat(AT_EXECVE_CHECK) says of script @s (as root): execve()
 * runs a regular file with an x bit on an exec mount; or nothing answers
 * (the module loaded with exec_check=0): passes.
 */
static bool check_passes(enum script s)
{
	if (!omx_exec_check_enabled())
		return true;
	return scripts[s].exec_bit && !scripts[s].noexec_mount;
}

/* The script that includes script @s, in the workspace's root. */
static const char *includer(enum script s)
{
	return s == EXEC_X ? "inc-x.omx" : s == EXEC_NX ? "inc-nx.omx" :
	       "inc-noexec.omx";
}

FIXTURE_SETUP(omxsh)
{
	struct omx_ws *ws = &self->ws;
	char text[256];
	int s;

	snprintf(self->omxsh, sizeof(self->omxsh), "%s", us_bin("omxsh"));
	ASSERT_EQ(0, access(self->omxsh, X_OK)) TH_LOG("%s", self->omxsh);
	ASSERT_EQ(0, omx_ws_create(ws));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(ws, "exec", 0));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(ws, "noexec", MS_NOEXEC));
	for (s = 0; s < NR_SCRIPTS; s++) {
		snprintf(text, sizeof(text),
			 "echo ran %s\nset v value\necho v is $v\n",
			 scripts[s].rel);
		ASSERT_EQ(0, us_write_file(omx_ws_path(ws, scripts[s].rel),
					   text, scripts[s].mode));
		/* The includer, on the exec mount with its x bit. */
		snprintf(text, sizeof(text),
			 "echo before\ninclude %s\necho after $?\n",
			 scripts[s].rel);
		ASSERT_EQ(0, us_write_file(omx_ws_path(ws, includer(s)),
					   text, 0755));
	}
	ASSERT_EQ(0, omx_policy_set(variant->policy));
}

FIXTURE_TEARDOWN(omxsh)
{
	EXPECT_EQ(0, omx_policy_set(0));
	EXPECT_EQ(0, omx_ws_destroy(&self->ws));
}

/* "ran REL\nv is value\n": what script @s prints when it runs. */
static const char *ran(enum script s)
{
	static char buf[128];

	snprintf(buf, sizeof(buf), "ran %s\nv is value\n", scripts[s].rel);
	return buf;
}

/*
 * The refusal: exit 126, nothing on stdout (beyond @out_before), one
 * line on stderr that names @path, says "refused" and gives reason @why.
 */
#define EXPECT_REFUSED_WHY(r, path, out_before, why) do {		\
	EXPECT_EQ(126, (r).status);					\
	EXPECT_STREQ(out_before, (r).out);				\
	EXPECT_EQ(1, us_lines((r).err)) TH_LOG("stderr: %s", (r).err);	\
	EXPECT_NE(NULL, strstr((r).err, path)) TH_LOG("stderr: %s", (r).err); \
	EXPECT_NE(NULL, strstr((r).err, why)) TH_LOG("stderr: %s", (r).err); \
} while (0)

/*
 * The reason of the refusal of script @s by the module's policy (@strict
 * false) or by the exec check under -S: what the kernel saw, and what
 * decided.  The one reason of each script is both the policy's and the
 * check's.  A static buffer.
 */
static const char *why(const struct omx_ws *ws, int policy, enum script s,
		       bool strict)
{
	static const char *const names[] = { "off", "mount", "file", "mount,file" };
	static char buf[PATH_MAX + 256];
	char reason[PATH_MAX + 64];

	if (scripts[s].noexec_mount)
		snprintf(reason, sizeof(reason), "noexec mount: %s",
			 omx_ws_path(ws, "noexec"));
	else
		snprintf(reason, sizeof(reason), "no exec permission for uid 0");
	/* Whatever follows (the remedy) is the refusal layer's to test. */
	if (strict)
		snprintf(buf, sizeof(buf),
			 "refused: %s (decided by the strict mode the interpreter was started in)",
			 reason);
	else
		snprintf(buf, sizeof(buf),
			 "refused: %s (decided by the module's policy, fs.open_mayexec_enforce = %s)",
			 reason, names[policy]);
	return buf;
}

TEST_F(omxsh, script_file)
{
	struct us_result r;
	int s, strict;

	for (s = 0; s < NR_SCRIPTS; s++) {
		const char *path = omx_ws_path(&self->ws, scripts[s].rel);

		/* -S: a failed exec check refuses the script too. */
		for (strict = 0; strict < 2; strict++) {
			const char *argv[] = { self->omxsh,
				strict ? "-S" : path, strict ? path : NULL, NULL };

			us_run(&r, NULL, argv);
			TH_LOG("policy %d, %s%s: exit %d", variant->policy,
			       scripts[s].rel, strict ? " -S" : "", r.status);
			if (allowed(variant->policy, s) && (!strict || check_passes(s))) {
				EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
				EXPECT_STREQ(ran(s), r.out);
				EXPECT_STREQ("", r.err);
			} else {
				EXPECT_REFUSED_WHY(r, path, "",
					why(&self->ws, variant->policy, s,
					    allowed(variant->policy, s)));
			}
		}
	}
}

TEST_F(omxsh, included_from_an_allowed_script)
{
	struct us_result r;
	char want[256];
	int s;

	for (s = 0; s < NR_SCRIPTS; s++) {
		const char *path = omx_ws_path(&self->ws, includer(s));
		const char *argv[] = { self->omxsh, path, NULL };

		us_run(&r, NULL, argv);
		if (allowed(variant->policy, s)) {
			snprintf(want, sizeof(want), "before\n%safter 0\n", ran(s));
			EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
			EXPECT_STREQ(want, r.out);
			EXPECT_STREQ("", r.err);
		} else {
			/* The includer stops at the include; the file runs not at all. */
			EXPECT_REFUSED_WHY(r, scripts[s].rel, "before\n",
					   why(&self->ws, variant->policy, s, false));
		}
	}
}

TEST_F(omxsh, dash_c)
{
	const char *plain[] = { self->omxsh, "-c", "set a 1\necho c $a $0 $1",
				"name", "arg", NULL };
	const char *denied[] = { self->omxsh, "-D", "-c", "echo c", NULL };
	struct us_result r;

	/* Without the option, -c runs whatever the policy: nothing checks it. */
	us_run(&r, NULL, plain);
	EXPECT_EQ(0, r.status);
	EXPECT_STREQ("c 1 name arg\n", r.out);
	EXPECT_STREQ("", r.err);

	us_run(&r, NULL, denied);
	EXPECT_REFUSED_WHY(r, "-c", "", "refused: code given on the command line cannot be checked (deny-interactive, asked for by -D)\n");
}

TEST_F(omxsh, stdin)
{
	const char *plain[] = { self->omxsh, NULL };
	const char *denied[] = { self->omxsh, "-D", NULL };
	const char *denied_strict[] = { self->omxsh, "-S", "-D", NULL };
	struct us_opts opts = { .stdin_fd = -1 };
	struct us_result r;
	int s, pipefd[2];

	for (s = 0; s < NR_SCRIPTS; s++) {
		opts.stdin_fd = openat(self->ws.dirfd, scripts[s].rel,
				       O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, opts.stdin_fd);

		/* Without the option, any file on stdin runs. */
		us_run(&r, &opts, plain);
		EXPECT_EQ(0, r.status) TH_LOG("%s: %s", scripts[s].rel, r.err);
		EXPECT_STREQ(ran(s), r.out);

		/* With it, stdin must pass every check, enforced or not. */
		ASSERT_EQ(0, lseek(opts.stdin_fd, 0, SEEK_SET));
		us_run(&r, &opts, s == NOEXEC_X ? denied_strict : denied);
		TH_LOG("policy %d, -D < %s: exit %d", variant->policy,
		       scripts[s].rel, r.status);
		if (allowed(variant->policy, s) && check_passes(s)) {
			EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
			EXPECT_STREQ(ran(s), r.out);
		} else {
			/* Every check is asked: every reason is given. */
			EXPECT_REFUSED_WHY(r, "standard input", "",
					   s == EXEC_NX ? "refused: no exec permission for uid 0 (deny-interactive, asked for by -D)\n" :
					   "refused: noexec mount: ");
		}
		close(opts.stdin_fd);
	}

	/* A pipe is never a checked file: refused with -D, run without. */
	ASSERT_EQ(0, pipe2(pipefd, O_CLOEXEC));
	ASSERT_EQ(8, write(pipefd[1], "echo p\n\n", 8));
	close(pipefd[1]);
	opts.stdin_fd = pipefd[0];
	us_run(&r, &opts, denied);
	EXPECT_REFUSED_WHY(r, "standard input", "", "refused: not a regular file: FIFO (deny-interactive, asked for by -D)\n");
	close(pipefd[0]);

	ASSERT_EQ(0, pipe2(pipefd, O_CLOEXEC));
	ASSERT_EQ(8, write(pipefd[1], "echo p\n\n", 8));
	close(pipefd[1]);
	opts.stdin_fd = pipefd[0];
	us_run(&r, &opts, plain);
	EXPECT_EQ(0, r.status);
	EXPECT_STREQ("p\n", r.out);
	close(pipefd[0]);
}

/* The x bit is the running user's: root has it through any x bit. */
TEST_F(omxsh, exec_permission_is_the_users)
{
	struct us_opts user = { .stdin_fd = -1, .as_user = true };
	const char *path = omx_ws_path(&self->ws, "exec/owner-x.omx");
	const char *argv[] = { self->omxsh, path, NULL };
	struct us_result r;

	ASSERT_EQ(0, us_write_file(path, "echo owner\n", 0744));

	us_run(&r, NULL, argv);
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_STREQ("owner\n", r.out);

	us_run(&r, &user, argv);
	if (variant->policy & OMAYEXEC_ENFORCE_FILE) {
		EXPECT_REFUSED_WHY(r, path, "",
				   "refused: no exec permission for uid 1000 (decided by the module's policy");
	} else {
		EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
		EXPECT_STREQ("owner\n", r.out);
	}
}

/*
 * A FIFO (no writer ever comes) or a directory named as code: refused at
 * once, in one line, whatever the policy and the mode, as a script and
 * as an include.  The alarm ends a run that waits.  (Under the exec
 * securebits, which pin the module until reboot, in
 * userspace_decision_test.)
 */
TEST_F(omxsh, non_regular_files_answer_at_once)
{
	static const char *const modes[] = { NULL, "-S", "-D" };
	struct us_opts opts = { .stdin_fd = -1, .alarm = 10 };
	const char *fifo = omx_ws_path(&self->ws, "exec/fifo.omx");
	const char *dir = omx_ws_path(&self->ws, "exec/dir.omx");
	const char *inc = omx_ws_path(&self->ws, "inc-fifo.omx");
	const char *const files[][2] = {
		{ fifo, "refused: not a regular file: FIFO\n" },
		{ dir, "refused: not a regular file: directory\n" },
		{ inc, "refused: not a regular file: FIFO\n" },
	};
	struct us_result r;
	size_t m, f;

	ASSERT_EQ(0, mkfifo(fifo, 0755));
	ASSERT_EQ(0, mkdir(dir, 0755));
	ASSERT_EQ(0, us_write_file(inc, "echo before\ninclude exec/fifo.omx\necho after\n",
				   0755));
	for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
			const char *argv[4] = { self->omxsh };
			int n = 1;

			if (modes[m])
				argv[n++] = modes[m];
			argv[n++] = files[f][0];
			argv[n] = NULL;
			us_run(&r, &opts, argv);
			TH_LOG("policy %d, %s %s: exit %d", variant->policy,
			       modes[m] ? modes[m] : "", files[f][0], r.status);
			EXPECT_REFUSED_WHY(r, f == 2 ? "exec/fifo.omx" : files[f][0],
					   f == 2 ? "before\n" : "", files[f][1]);
		}
	}
}

/*
 * A file this user may not read is not refused by any exec policy: it
 * cannot be read, and the line says so (exit 126, as shells).
 */
TEST_F(omxsh, cannot_read_is_no_refusal)
{
	struct us_opts user = { .stdin_fd = -1, .as_user = true };
	const char *path = omx_ws_path(&self->ws, "exec/private.omx");
	const char *argv[] = { self->omxsh, path, NULL };
	struct us_result r;
	char want[PATH_MAX + 64];

	ASSERT_EQ(0, us_write_file(path, "echo private\n", 0700));
	us_run(&r, &user, argv);
	snprintf(want, sizeof(want), "omxsh: %s: cannot read: Permission denied\n", path);
	EXPECT_EQ(126, r.status);
	EXPECT_STREQ("", r.out);
	EXPECT_STREQ(want, r.err);
}

/* Errors that are not the policy's keep their own message and status. */
TEST_F(omxsh, other_errors)
{
	const char *missing[] = { self->omxsh, "/nonexistent/x.omx", NULL };
	const char *bad[] = { self->omxsh, "-c", "echo a\nfrobnicate\necho b",
			      NULL };
	const char *exit7[] = { self->omxsh, "-c", "echo a\nexit 7\necho b",
				NULL };
	struct us_result r;

	us_run(&r, NULL, missing);
	EXPECT_EQ(127, r.status);
	EXPECT_NE(NULL, strstr(r.err, "No such file")) TH_LOG("%s", r.err);

	us_run(&r, NULL, bad);
	EXPECT_EQ(2, r.status);
	EXPECT_STREQ("a\n", r.out);
	EXPECT_NE(NULL, strstr(r.err, "-c:2: unknown command 'frobnicate'"))
		TH_LOG("%s", r.err);

	us_run(&r, NULL, exit7);
	EXPECT_EQ(7, r.status);
	EXPECT_STREQ("a\n", r.out);
}

/*
 * --version prints the project's version (the one omayexec --version
 * prints, from VERSION), --help the usage, both on stdout with exit 0;
 * an unknown option is a usage error.  No policy plays a part.
 */
TEST(omxsh_version_and_help)
{
	char omxsh[PATH_MAX], omayexec[PATH_MAX], want[128];
	const char *tool[] = { omayexec, "--version", NULL };
	const char *version[] = { omxsh, "--version", NULL };
	const char *help[] = { omxsh, "--help", NULL };
	const char *bad[] = { omxsh, "--versions", NULL };
	struct us_result r;

	snprintf(omxsh, sizeof(omxsh), "%s", us_bin("omxsh"));
	snprintf(omayexec, sizeof(omayexec), "%s", us_bin("omayexec"));
	ASSERT_EQ(0, us_run(&r, NULL, tool));
	ASSERT_EQ(0, strncmp(r.out, "omayexec ", 9)) TH_LOG("%s", r.out);
	snprintf(want, sizeof(want), "omxsh %.100s", r.out + 9);

	us_run(&r, NULL, version);
	EXPECT_EQ(0, r.status);
	EXPECT_STREQ(want, r.out);
	EXPECT_STREQ("", r.err);

	us_run(&r, NULL, help);
	EXPECT_EQ(0, r.status);
	EXPECT_NE(NULL, strstr(r.out, "usage: omxsh ")) TH_LOG("%s", r.out);
	EXPECT_NE(NULL, strstr(r.out, "omxsh --help | --version\n"))
		TH_LOG("%s", r.out);
	EXPECT_STREQ("", r.err);

	us_run(&r, NULL, bad);
	EXPECT_EQ(2, r.status);
	EXPECT_STREQ("", r.out);
	EXPECT_NE(NULL, strstr(r.err, "usage: omxsh ")) TH_LOG("%s", r.err);
}

TEST_HARNESS_MAIN
