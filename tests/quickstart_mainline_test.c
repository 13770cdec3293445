// SPDX-License-Identifier: GPL-2.0
/*
 * README.md's quick start for a kernel 6.14 or later, word for word: the
 * block after "<!-- quickstart:mainline -->", which tests/Makefile takes
 * from README.md with tests/system/quickstart when it builds this test
 * (quickstart_mainline.h), so that the README cannot drift from what is
 * tested.  Run on a kernel with AT_EXECVE_CHECK and the exec securebits of
 * its own and no module (the "native" boot of tests/suites), as root and as
 * a plain user:
 * - omayexec status says the kernel answers the check itself;
 * - omayexec check says that the check of the script without an x bit
 *   fails, and why, and that nothing enforces it yet (exit 0);
 * - plain omxsh runs it (nothing asked it to enforce the check);
 * - under "omayexec run --restrict-file" omxsh refuses it, under
 *   "--deny-interactive" it refuses -c: exit 126 each, one line.
 *
 * Each line of the block runs as it is, in one shell, followed by a line
 * that reports its exit status; the tools are the userspace build's
 * (make -C userspace, as the quick start builds them), first in PATH, in
 * place of "make -C userspace install": the VM has no compiler, and what
 * is installed is the same build.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "omx_test.h"
#include "userspace_run.h"
#include "quickstart_mainline.h"	/* QUICKSTART_MAINLINE: the block */

#define EXPECT_HAS(haystack, needle) \
	EXPECT_NE(NULL, strstr(haystack, needle)) \
		TH_LOG("no '%s' in:\n%s", needle, haystack)

FIXTURE(quickstart) {
	struct us_result r;
	char script[16384];
	int status[16];		/* each line's exit status, -1 if none */
	int lines;
};

FIXTURE_VARIANT(quickstart) {
	bool as_user;
};

FIXTURE_VARIANT_ADD(quickstart, root) {
	.as_user = false,
};

FIXTURE_VARIANT_ADD(quickstart, user) {
	.as_user = true,
};

/* The block, each line followed by the report of its status. */
static int build_script(char *buf, size_t len, const char *bindir)
{
	const char *line = QUICKSTART_MAINLINE, *nl;
	size_t used;
	int n = 0;

	used = snprintf(buf, len, "PATH=%s:$PATH\n", bindir);
	for (; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl || used >= len)
			break;
		used += snprintf(buf + used, len - used,
				 "%.*s\necho \"#omx-status %d $?\"\n",
				 (int)(nl - line), line, n++);
	}
	return used < len ? n : -1;
}

FIXTURE_SETUP(quickstart)
{
	struct us_opts opts = { .stdin_fd = -1, .as_user = variant->as_user };
	const char *argv[] = { "/bin/sh", "-c", self->script, NULL };
	char bindir[PATH_MAX], *p;
	int i, n, rc;

	snprintf(bindir, sizeof(bindir), "%s", us_bin("omayexec"));
	p = strrchr(bindir, '/');
	ASSERT_NE(NULL, p);
	*p = '\0';
	self->lines = build_script(self->script, sizeof(self->script), bindir);
	ASSERT_EQ(7, self->lines)
		TH_LOG("README.md's mainline block has %d lines: this test knows 7", self->lines);
	us_run(&self->r, &opts, argv);
	for (i = 0; i < 16; i++)
		self->status[i] = -1;
	for (p = self->r.out; (p = strstr(p, "#omx-status ")); p++)
		if (sscanf(p, "#omx-status %d %d", &n, &rc) == 2 && n >= 0 && n < 16)
			self->status[n] = rc;
	TH_LOG("the block's output:\n%s%s", self->r.out, self->r.err);
}

FIXTURE_TEARDOWN(quickstart)
{
}

/* omayexec status: the kernel's own check. */
TEST_F(quickstart, status_says_the_kernel_checks)
{
	EXPECT_EQ(0, self->status[0]);
	EXPECT_HAS(self->r.out, "exec check: execveat() answers AT_EXECVE_CHECK itself\n");
	EXPECT_HAS(self->r.out, "module: not loaded\n");
}

/* The setup lines: a directory of one's own, a script without an x bit. */
TEST_F(quickstart, setup_lines_succeed)
{
	EXPECT_EQ(0, self->status[1]);
	EXPECT_EQ(0, self->status[2]);
}

/* omayexec check: the check fails, why, and that nothing enforces it. */
TEST_F(quickstart, check_says_why_the_check_fails)
{
	EXPECT_EQ(0, self->status[3]);
	EXPECT_HAS(self->r.out, "hello.omx  (the exec check fails: no exec permission for uid");
	EXPECT_HAS(self->r.out, "not enforced without SECBIT_EXEC_RESTRICT_FILE");
}

/* Nothing asked omxsh to enforce: it runs the script. */
TEST_F(quickstart, plain_omxsh_runs_it)
{
	EXPECT_EQ(0, self->status[4]);
	EXPECT_HAS(self->r.out, "hello\n#omx-status 4 0\n");
}

/* Under the securebits: the script, then -c, refused in one line each. */
TEST_F(quickstart, restrict_file_refuses_the_script)
{
	EXPECT_EQ(126, self->status[5]);
	EXPECT_HAS(self->r.err, "hello.omx: refused: no exec permission for uid");
	EXPECT_HAS(self->r.err, "(decided by the exec securebit SECBIT_EXEC_RESTRICT_FILE)");
}

TEST_F(quickstart, deny_interactive_refuses_c)
{
	EXPECT_EQ(126, self->status[6]);
	EXPECT_HAS(self->r.err, "(deny-interactive, asked for by the exec securebit SECBIT_EXEC_DENY_INTERACTIVE)");
	EXPECT_EQ(NULL, strstr(self->r.out, "#omx-status 5 126\nhello"));
}

TEST_HARNESS_MAIN
