// SPDX-License-Identifier: GPL-2.0
/*
 * O_MAYEXEC under AppArmor, Debian's active LSM: an O_MAYEXEC open is
 * checked by the caller's AppArmor profile as a plain open is, under every
 * policy (0-3):
 * - a file the profile denies reading is refused to a plain open and to an
 *   O_MAYEXEC openat2(2) alike, with EACCES;
 * - a file the profile allows opens with O_MAYEXEC;
 * - execveat(AT_EXECVE_CHECK) answers with the profile's exec rules (the
 *   LSM's bprm_creds_for_exec hook): a file the profile forbids executing
 *   is EACCES to the check, while it still opens for reading;
 * - the profile's exec rules are not asked by O_MAYEXEC, at any policy:
 *   its exec permission check is inode_permission(MAY_EXEC), which
 *   AppArmor does not hook.
 *
 * The bypass it guards against: since 6.8 AppArmor (and TOMOYO) take
 * __FMODE_EXEC in f_flags for "opened by execve()", skip their open check
 * and grant read and exec (security/apparmor/lsm.c, apparmor_file_open()).
 * An O_MAYEXEC open carrying __FMODE_EXEC on such a kernel would open, and
 * read, what the profile forbids.
 *
 * The profile, omx_mayexec_test, allows every file access and capability
 * but reading the workspace's exec/denied and executing exec/no_x; it is loaded with Debian's
 * apparmor_parser (which the guest must have) and removed afterwards.
 * Each check runs in a child that asks for the profile at its next exec
 * (/proc/self/attr/apparmor/exec, "exec omx_mayexec_test") and re-executes
 * this binary as a helper, which does one open and exits with 0 or the
 * open's errno.  AppArmor must be active: the test fails, not skips,
 * without it, for a skip would hide the very kernel where it matters.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "omx_test.h"

#define PROFILE		"omx_mayexec_test"
#define HELPER_ENV	"OMX_APPARMOR_HELPER"
#define PARSER_LOG	"/tmp/omx-apparmor-parser.log"

/* Exit statuses of the helper that are not an errno. */
#define HELPER_NO_CHANGE_ONEXEC	200	/* writing attr/exec failed */
#define HELPER_NO_EXEC		201	/* execve() failed */
#define HELPER_WRONG_LABEL	202	/* not confined by PROFILE */
#define HELPER_USAGE		203

/* ---- The helper: this binary, re-executed under the profile ---------- */

/* execveat(AT_EXECVE_CHECK) of PATH: 0 or -errno. */
static int exec_check(const char *path)
{
	return omx_execveat_probe(AT_FDCWD, path, AT_EXECVE_CHECK);
}

/*
 * argv: "label" (exit 0 when confined by PROFILE in enforce mode), or
 * "plain PATH" (open(2) O_RDONLY), or "mayexec PATH" (openat2(2) O_RDONLY |
 * O_MAYEXEC), or "check PATH" (execveat(2) AT_EXECVE_CHECK): exit 0 when
 * the call succeeded, its errno otherwise.
 */
static int helper(int argc, char **argv)
{
	char label[256] = "";
	ssize_t len;
	int fd;

	if (argc == 2 && !strcmp(argv[1], "label")) {
		fd = open("/proc/self/attr/apparmor/current", O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			fd = open("/proc/self/attr/current", O_RDONLY | O_CLOEXEC);
		len = fd < 0 ? -1 : read(fd, label, sizeof(label) - 1);
		label[len < 0 ? 0 : len] = '\0';
		if (strcmp(label, PROFILE " (enforce)\n")) {
			fprintf(stderr, "helper: confined by \"%s\"\n", label);
			return HELPER_WRONG_LABEL;
		}
		return 0;
	}
	if (argc != 3)
		return HELPER_USAGE;
	if (!strcmp(argv[1], "plain"))
		fd = open(argv[2], O_RDONLY | O_CLOEXEC) < 0 ? -errno : 0;
	else if (!strcmp(argv[1], "mayexec"))
		fd = omx_probe_openat2(AT_FDCWD, argv[2],
				       O_RDONLY | O_CLOEXEC | O_MAYEXEC, 0);
	else if (!strcmp(argv[1], "check"))
		fd = exec_check(argv[2]);
	else
		return HELPER_USAGE;
	return fd < 0 ? -fd : 0;
}

/* glibc passes argc and argv to constructors. */
static void __attribute__((constructor)) helper_main(int argc, char **argv)
{
	if (getenv(HELPER_ENV))
		exit(helper(argc, argv));
}

/*
 * Run the helper with @what and @path confined by PROFILE: its exit
 * status (0, an errno, or one of HELPER_*), or -1 if it did not exit.
 */
static int run_confined(const char *what, const char *path)
{
	static const char onexec[] = "exec " PROFILE;
	char *argv[] = { "apparmor_test", (char *)what, (char *)path, NULL };
	int fd, status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		fd = open("/proc/self/attr/apparmor/exec", O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			fd = open("/proc/self/attr/exec", O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, onexec, strlen(onexec)) != (ssize_t)strlen(onexec)) {
			perror("change_onexec");
			_exit(HELPER_NO_CHANGE_ONEXEC);
		}
		setenv(HELPER_ENV, "1", 1);
		execv("/proc/self/exe", argv);
		_exit(HELPER_NO_EXEC);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* ---- AppArmor itself -------------------------------------------------- */

/* Whether @word is one of the comma-separated names in @list. */
static bool in_list(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\n' || !p[n]))
			return true;
	return false;
}

static int read_text(const char *path, char *buf, size_t size)
{
	ssize_t len;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	len = read(fd, buf, size - 1);
	close(fd);
	if (len < 0)
		return -errno;
	buf[len] = '\0';
	return 0;
}

static const char *find_parser(void)
{
	static const char *const paths[] = {
		"/usr/sbin/apparmor_parser", "/sbin/apparmor_parser",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(paths); i++)
		if (!access(paths[i], X_OK))
			return paths[i];
	return NULL;
}

/* Load (or replace) @text with apparmor_parser: its exit status, or -errno. */
static int parser_load(const char *parser, const char *text)
{
	char cmd[256];
	FILE *p;

	/* -r: replace, -K: no cache (nothing written outside /tmp). */
	snprintf(cmd, sizeof(cmd), "%s -r -K >" PARSER_LOG " 2>&1", parser);
	p = popen(cmd, "w");
	if (!p)
		return -errno;
	fputs(text, p);
	return pclose(p);
}

/* ---- The tests ---------------------------------------------------------- */

FIXTURE(apparmor) {
	struct omx_ws ws;
	bool loaded;
};

FIXTURE_VARIANT(apparmor) {
	int policy;
};

FIXTURE_VARIANT_ADD(apparmor, policy_0) { .policy = 0 };
FIXTURE_VARIANT_ADD(apparmor, policy_1) { .policy = 1 };
FIXTURE_VARIANT_ADD(apparmor, policy_2) { .policy = 2 };
FIXTURE_VARIANT_ADD(apparmor, policy_3) { .policy = 3 };

FIXTURE_SETUP(apparmor)
{
	char lsm[512] = "", enabled[8] = "", profile[PATH_MAX + 256];
	char log[2048] = "";
	const char *parser = find_parser();
	int ret;

	self->loaded = false;
	/* Active: in the LSM list and enabled (not apparmor=0). */
	ASSERT_EQ(0, read_text("/sys/kernel/security/lsm", lsm, sizeof(lsm)));
	ASSERT_TRUE(in_list(lsm, "apparmor"))
		TH_LOG("AppArmor is not an active LSM: \"%s\"", lsm);
	ASSERT_EQ(0, read_text("/sys/module/apparmor/parameters/enabled",
			       enabled, sizeof(enabled)));
	ASSERT_STREQ("Y\n", enabled);
	ASSERT_NE(NULL, parser)
		TH_LOG("no apparmor_parser (Debian's apparmor package) in the guest");

	ASSERT_EQ(0, omx_ws_create(&self->ws));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(&self->ws, "exec", 0));
	ASSERT_EQ(0, omx_ws_file(&self->ws, "exec/allowed", 0755, 0, 0));
	ASSERT_EQ(0, omx_ws_file(&self->ws, "exec/denied", 0755, 0, 0));
	ASSERT_EQ(0, omx_ws_file(&self->ws, "exec/no_x", 0755, 0, 0));

	snprintf(profile, sizeof(profile),
		 "profile " PROFILE " {\n"
		 "  file,\n"
		 "  capability,\n"
		 "  deny \"%s\" r,\n"
		 "  deny \"%s\" x,\n"
		 "}\n", omx_ws_path(&self->ws, "exec/denied"),
		 omx_ws_path(&self->ws, "exec/no_x"));
	ret = parser_load(parser, profile);
	read_text(PARSER_LOG, log, sizeof(log));
	ASSERT_EQ(0, ret) TH_LOG("%s: status %d:\n%s\nprofile:\n%s", parser,
				 ret, log, profile);
	self->loaded = true;
	ASSERT_EQ(0, omx_policy_set(variant->policy));
}

FIXTURE_TEARDOWN(apparmor)
{
	int fd;

	EXPECT_EQ(0, omx_policy_set(0));
	if (self->loaded) {
		fd = open("/sys/kernel/security/apparmor/.remove", O_WRONLY | O_CLOEXEC);
		EXPECT_LE(0, fd);
		EXPECT_EQ((ssize_t)strlen(PROFILE), write(fd, PROFILE, strlen(PROFILE)));
		close(fd);
	}
	EXPECT_EQ(0, omx_ws_destroy(&self->ws));
}

/* The control: the helper does run confined by the profile. */
TEST_F(apparmor, helper_runs_confined)
{
	EXPECT_EQ(0, run_confined("label", NULL));
}

TEST_F(apparmor, denied_file_is_refused_to_o_mayexec_as_to_a_plain_open)
{
	const char *denied = omx_ws_path(&self->ws, "exec/denied");

	EXPECT_EQ(EACCES, run_confined("plain", denied));
	EXPECT_EQ(EACCES, run_confined("mayexec", denied))
		TH_LOG("O_MAYEXEC open of a file the profile denies");
	/* Unconfined, the same opens work: the profile refused them. */
	EXPECT_EQ(0, omx_probe_open(denied, O_RDONLY | O_CLOEXEC));
	EXPECT_EQ(0, omx_probe_openat2(AT_FDCWD, denied,
				       O_RDONLY | O_CLOEXEC | O_MAYEXEC, 0));
}

TEST_F(apparmor, allowed_file_opens_with_o_mayexec)
{
	const char *allowed = omx_ws_path(&self->ws, "exec/allowed");

	EXPECT_EQ(0, run_confined("plain", allowed));
	EXPECT_EQ(0, run_confined("mayexec", allowed));
}

/* The check asks the profile's exec rules, as execve() would. */
TEST_F(apparmor, exec_denied_file_fails_the_exec_check)
{
	const char *no_x = omx_ws_path(&self->ws, "exec/no_x");
	const char *allowed = omx_ws_path(&self->ws, "exec/allowed");

	if (access("/sys/module/omayexec/parameters/exec_check", F_OK))
		SKIP(return, "omayexec not loaded");
	EXPECT_EQ(EACCES, run_confined("check", no_x))
		TH_LOG("AT_EXECVE_CHECK of a file the profile forbids executing");
	EXPECT_EQ(0, run_confined("plain", no_x));
	EXPECT_EQ(0, run_confined("check", allowed));
	/* Unconfined, the same check passes: the profile refused it. */
	EXPECT_EQ(0, exec_check(no_x));
}

/*
 * What the policy's exec permission check (policies 2 and 3) consults is
 * inode_permission(MAY_EXEC), which AppArmor does not hook: a file the
 * profile forbids executing, but lets the caller read, opens with
 * O_MAYEXEC under every policy (its mode has x bits).  Only execve() and
 * AT_EXECVE_CHECK ask the profile's exec rules.  The policy table of
 * docs/design.md and omayexec(7) say so.
 */
TEST_F(apparmor, o_mayexec_does_not_ask_the_profile_exec_rules)
{
	const char *no_x = omx_ws_path(&self->ws, "exec/no_x");

	EXPECT_EQ(0, run_confined("mayexec", no_x))
		TH_LOG("O_MAYEXEC at policy %d of a file the profile forbids executing",
		       variant->policy);
}

TEST_HARNESS_MAIN
