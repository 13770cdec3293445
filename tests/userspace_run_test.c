// SPDX-License-Identifier: GPL-2.0
/*
 * "omayexec run" and what "omayexec status" says of the upstream interface:
 * - run sets the exec securebits asked for (--restrict-file,
 *   --deny-interactive, each with its lock under --lock) on top of the
 *   caller's, and executes the command, which inherits them (through a
 *   shell too); status shows them in words;
 * - status names how execveat(AT_EXECVE_CHECK) is answered: through the
 *   module, by the kernel itself, or not at all (status --json too, and
 *   the bits each as a boolean);
 * - usage errors exit 2 with one line naming what was wrong and a hint
 *   to --help; a command that is not there 127, with one line;
 * - on a kernel without the exec securebits (no module, before 6.14) run
 *   refuses in one line, exit 1, and executes nothing.
 *
 * Setting a bit pins the module until reboot (securebits_test): run this
 * suite where that does not matter (after securebits_test, or with no
 * module, or on a native kernel).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <linux/omayexec.h>

#include "omx_test.h"
#include "userspace_run.h"

#define EXPECT_HAS(haystack, needle) \
	EXPECT_NE(NULL, strstr(haystack, needle)) \
		TH_LOG("no '%s' in:\n%s", needle, haystack)

FIXTURE(run) {
	char omayexec[PATH_MAX];
	bool bits_settable;
};

FIXTURE_VARIANT(run) {
	const char *opts[4];	/* NULL-terminated */
	const char *expect;	/* the "exec securebits:" line's words */
	unsigned int bits;	/* the SECBIT_EXEC_* bits and locks it sets */
};

FIXTURE_VARIANT_ADD(run, restrict_file) {
	.opts = { "--restrict-file" },
	.expect = "exec securebits: restrict-file\n",
	.bits = SECBIT_EXEC_RESTRICT_FILE,
};

FIXTURE_VARIANT_ADD(run, deny_interactive) {
	.opts = { "--deny-interactive" },
	.expect = "exec securebits: deny-interactive\n",
	.bits = SECBIT_EXEC_DENY_INTERACTIVE,
};

FIXTURE_VARIANT_ADD(run, both_locked) {
	.opts = { "--restrict-file", "--deny-interactive", "--lock" },
	.expect = "exec securebits: restrict-file (locked), deny-interactive (locked)\n",
	.bits = SECBIT_EXEC_RESTRICT_FILE | SECBIT_EXEC_RESTRICT_FILE_LOCKED |
		SECBIT_EXEC_DENY_INTERACTIVE | SECBIT_EXEC_DENY_INTERACTIVE_LOCKED,
};

FIXTURE_SETUP(run)
{
	snprintf(self->omayexec, PATH_MAX, "%s", us_bin("omayexec"));
	ASSERT_EQ(0, access(self->omayexec, X_OK)) TH_LOG("%s", self->omayexec);
	/* The bits exist where the check does: the module's, or the kernel's. */
	self->bits_settable = omx_module_loaded() ? omx_exec_check_enabled()
						  : omx_exec_check_answered();
}

FIXTURE_TEARDOWN(run)
{
}

/* argv: omayexec run OPTS... -- TAIL... */
static void run_argv(const char **argv, const char *omayexec,
		     const char *const *opts, const char *const *tail)
{
	int n = 0;

	argv[n++] = omayexec;
	argv[n++] = "run";
	while (opts && *opts)
		argv[n++] = *opts++;
	argv[n++] = "--";
	while (*tail)
		argv[n++] = *tail++;
	argv[n] = NULL;
}

TEST_F(run, sets_the_bits_and_executes)
{
	const char *tail[] = { self->omayexec, "status", NULL };
	const char *argv[12];
	struct us_result r;

	run_argv(argv, self->omayexec, variant->opts, tail);
	us_run(&r, NULL, argv);
	if (!self->bits_settable) {
		EXPECT_EQ(1, r.status);
		EXPECT_STREQ("", r.out);
		EXPECT_HAS(r.err, "omayexec: run: this kernel has no exec securebits");
		return;
	}
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_HAS(r.out, variant->expect);
	EXPECT_STREQ("", r.err);
}

/* status --json: each bit (and lock) a boolean of its own. */
TEST_F(run, status_json_shows_the_bits)
{
	static const struct {
		const char *key;
		unsigned int bit;
	} keys[] = {
		{ "secbit_exec_restrict_file", SECBIT_EXEC_RESTRICT_FILE },
		{ "secbit_exec_restrict_file_locked",
		  SECBIT_EXEC_RESTRICT_FILE_LOCKED },
		{ "secbit_exec_deny_interactive", SECBIT_EXEC_DENY_INTERACTIVE },
		{ "secbit_exec_deny_interactive_locked",
		  SECBIT_EXEC_DENY_INTERACTIVE_LOCKED },
	};
	const char *tail[] = { self->omayexec, "status", "--json", NULL };
	const char *argv[12];
	struct us_result r;
	char want[80];
	unsigned int i;

	if (!self->bits_settable)
		return;
	run_argv(argv, self->omayexec, variant->opts, tail);
	us_run(&r, NULL, argv);
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	for (i = 0; i < ARRAY_LEN(keys); i++) {
		snprintf(want, sizeof(want), "\n  \"%s\": %s,\n", keys[i].key,
			 variant->bits & keys[i].bit ? "true" : "false");
		EXPECT_HAS(r.out, want);
	}
}

/* A shell started by run passes them on to what it runs. */
TEST_F(run, inherited_through_a_shell)
{
	char cmd[PATH_MAX + 16];
	const char *tail[] = { "/bin/sh", "-c", cmd, NULL };
	const char *argv[12];
	struct us_result r;

	if (!self->bits_settable)
		return;
	snprintf(cmd, sizeof(cmd), "%s status", self->omayexec);
	run_argv(argv, self->omayexec, variant->opts, tail);
	us_run(&r, NULL, argv);
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_HAS(r.out, variant->expect);
}

/* A user without any privilege may set them, as in mainline. */
TEST_F(run, as_user)
{
	const char *tail[] = { self->omayexec, "status", NULL };
	struct us_opts opts = { .stdin_fd = -1, .as_user = true };
	const char *argv[12];
	struct us_result r;

	if (!self->bits_settable)
		return;
	run_argv(argv, self->omayexec, variant->opts, tail);
	us_run(&r, &opts, argv);
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_HAS(r.out, variant->expect);
}

TEST_F(run, command_not_found)
{
	const char *tail[] = { "/nonexistent/command", NULL };
	const char *argv[12];
	struct us_result r;

	if (!self->bits_settable)
		return;
	run_argv(argv, self->omayexec, variant->opts, tail);
	us_run(&r, NULL, argv);
	EXPECT_EQ(127, r.status);
	EXPECT_STREQ("omayexec: run: /nonexistent/command: No such file or directory\n", r.err);
}

TEST(run_usage_errors)
{
	static const struct {
		const char *args[4];
		const char *line;
	} cases[] = {
		{ { "--", "true" }, "no bit asked for: give --restrict-file and/or --deny-interactive" },
		{ { "--lock", "--", "true" }, "no bit asked for: give --restrict-file and/or --deny-interactive" },
		{ { NULL }, "no '-- COMMAND' given" },
		{ { "--restrict-file" }, "no '-- COMMAND' given" },
		{ { "--restrict-file", "--" }, "no COMMAND after '--'" },
		{ { "--restrict-file", "true" }, "'--' must come before COMMAND 'true'" },
		{ { "--frob", "--", "true" }, "unknown option '--frob'" },
		{ { "--restrict-file", "-x", "--", "true" }, "unknown option '-x'" },
	};
	const char *argv[8];
	char want[256];
	struct us_result r;
	unsigned int i, j;

	for (i = 0; i < ARRAY_LEN(cases); i++) {
		argv[0] = us_bin("omayexec");
		argv[1] = "run";
		for (j = 0; j < 4 && cases[i].args[j]; j++)
			argv[j + 2] = cases[i].args[j];
		argv[j + 2] = NULL;
		snprintf(want, sizeof(want),
			 "omayexec: run: %s\nSee 'omayexec --help'.\n",
			 cases[i].line);
		us_run(&r, NULL, argv);
		EXPECT_EQ(2, r.status) TH_LOG("case %u", i);
		EXPECT_STREQ("", r.out);
		EXPECT_STREQ(want, r.err) TH_LOG("case %u", i);
	}
}

/* How the check is answered here, in status's words. */
TEST(status_names_the_exec_check)
{
	const char *argv[] = { us_bin("omayexec"), "status", NULL };
	const char *json[] = { us_bin("omayexec"), "status", "--json", NULL };
	struct us_result r, j;

	us_run(&r, NULL, argv);
	us_run(&j, NULL, json);
	EXPECT_EQ(r.status, j.status);
	if (omx_module_loaded() && omx_exec_check_enabled()) {
		EXPECT_HAS(r.out, "exec check: execveat() answers AT_EXECVE_CHECK through the module\n");
		EXPECT_HAS(j.out, "\n  \"exec_check\": \"module\",\n");
	} else if (omx_exec_check_answered()) {
		EXPECT_HAS(r.out, "exec check: execveat() answers AT_EXECVE_CHECK itself\n");
		EXPECT_HAS(r.out, "kernel: openat2() does not know O_MAYEXEC\n");
		EXPECT_EQ(0, r.status);
		EXPECT_HAS(j.out, "\n  \"exec_check\": \"native\",\n");
		EXPECT_HAS(j.out, "\n  \"openat2_mayexec\": false,\n");
	} else {
		EXPECT_HAS(r.out, "exec check: execveat() does not know AT_EXECVE_CHECK\n");
		EXPECT_EQ(omx_module_loaded() ? 0 : 1, r.status);
		EXPECT_HAS(j.out, "\n  \"exec_check\": \"none\",\n");
	}
	EXPECT_HAS(r.out, "exec securebits: none\n");
	EXPECT_HAS(j.out, "\n  \"secbit_exec_restrict_file\": false,\n");
}

TEST_HARNESS_MAIN
