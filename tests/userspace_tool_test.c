// SPDX-License-Identifier: GPL-2.0
/*
 * The omayexec command of userspace/, every subcommand and its refusals:
 * - usage errors: one line naming what was wrong and a hint to --help,
 *   exit 2; help, --help, -h: the usage, exit 0; --version: VERSION's;
 * - status: module, kernel support, the policy in words under each
 *   policy, locked, the counters (the module's own numbers), the library
 *   mode and where it comes from; as uid 1000 the policy is "unknown"
 *   (the sysctl is root's) and the rest still shows;
 * - set: every number and name, refusals in one line with a non-zero exit:
 *   not a policy (2), not privileged as uid 1000 and as root without
 *   CAP_MAC_ADMIN (1), module absent (1); the policy stays as it was;
 * - check: one line per path, allowed or refused with the reason (noexec
 *   mount and its mount point, no exec permission for this uid, not a
 *   regular file), ordinary errors as errors; exit 0 only when all are
 *   allowed, 1 when some are refused, 2 when one is an error; as uid
 *   1000; with the module unloaded, best effort and strict;
 * - check's verdict is omxsh's on the same file, now: a FIFO, /dev/null,
 *   a script without and with the x bit on an exec mount, with it on a
 *   noexec mount; check --strict's is omxsh -S's (each policy, and with
 *   the module unloaded; the other kernels, the exec securebits and the
 *   configuration file in userspace_decision_test);
 * - status --json: one JSON object, its documented keys in their order,
 *   the human status's facts (as root, as uid 1000, without the module).
 * The locked module's refusal is in userspace_locked_test.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "omx_test.h"
#include "omx_stats.h"
#include "userspace_run.h"

struct tool_files {
	char x[PATH_MAX], nx[PATH_MAX], noexec_x[PATH_MAX], noexec_nx[PATH_MAX];
	char dir[PATH_MAX], fifo[PATH_MAX], missing[PATH_MAX], secret[PATH_MAX];
	char owner_x[PATH_MAX], noexec_mount[PATH_MAX];
};

static int make_files(struct omx_ws *ws, struct tool_files *f)
{
	int ret;

	ret = omx_ws_mount_tmpfs(ws, "exec", 0);
	if (!ret)
		ret = omx_ws_mount_tmpfs(ws, "noexec", MS_NOEXEC);
	if (ret)
		return ret;
	snprintf(f->x, PATH_MAX, "%s", omx_ws_path(ws, "exec/x"));
	snprintf(f->nx, PATH_MAX, "%s", omx_ws_path(ws, "exec/nx"));
	snprintf(f->owner_x, PATH_MAX, "%s", omx_ws_path(ws, "exec/owner-x"));
	snprintf(f->secret, PATH_MAX, "%s", omx_ws_path(ws, "exec/secret"));
	snprintf(f->noexec_x, PATH_MAX, "%s", omx_ws_path(ws, "noexec/x"));
	snprintf(f->noexec_nx, PATH_MAX, "%s", omx_ws_path(ws, "noexec/nx"));
	snprintf(f->noexec_mount, PATH_MAX, "%s", omx_ws_path(ws, "noexec"));
	snprintf(f->dir, PATH_MAX, "%s", omx_ws_path(ws, "exec/dir"));
	snprintf(f->fifo, PATH_MAX, "%s", omx_ws_path(ws, "exec/fifo"));
	snprintf(f->missing, PATH_MAX, "%s", omx_ws_path(ws, "exec/missing"));
	if ((ret = us_write_file(f->x, "echo x\n", 0755)) ||
	    (ret = us_write_file(f->nx, "echo nx\n", 0644)) ||
	    (ret = us_write_file(f->owner_x, "echo owner\n", 0744)) ||
	    (ret = us_write_file(f->secret, "echo secret\n", 0700)) ||
	    (ret = us_write_file(f->noexec_x, "echo x\n", 0755)) ||
	    (ret = us_write_file(f->noexec_nx, "echo nx\n", 0644)))
		return ret;
	if (mkdir(f->dir, 0755) || mkfifo(f->fifo, 0644))
		return -errno;
	return 0;
}

FIXTURE(tool) {
	struct omx_ws ws;
	struct tool_files f;
	char omayexec[PATH_MAX];
};

FIXTURE_SETUP(tool)
{
	ASSERT_FALSE(access(US_CONF, F_OK) == 0 && !us_conf_is_ours())
		TH_LOG("%s exists: not overwriting it", US_CONF);
	us_conf_remove();
	snprintf(self->omayexec, PATH_MAX, "%s", us_bin("omayexec"));
	ASSERT_EQ(0, access(self->omayexec, X_OK)) TH_LOG("%s", self->omayexec);
	ASSERT_TRUE(omx_module_loaded());
	ASSERT_EQ(0, omx_ws_create(&self->ws));
	ASSERT_EQ(0, make_files(&self->ws, &self->f));
}

FIXTURE_TEARDOWN(tool)
{
	us_conf_remove();
	EXPECT_EQ(0, omx_policy_set(0));
	EXPECT_EQ(0, omx_ws_destroy(&self->ws));
}

#define EXPECT_HAS(haystack, needle) \
	EXPECT_NE(NULL, strstr(haystack, needle)) \
		TH_LOG("no '%s' in:\n%s", needle, haystack)
#define EXPECT_HASNT(haystack, needle) \
	EXPECT_EQ(NULL, strstr(haystack, needle)) \
		TH_LOG("'%s' in:\n%s", needle, haystack)

/*
 * Each usage error in one line that names what was wrong, then the hint,
 * exit 2, nothing done (set's policy stays); without a command, the usage.
 */
TEST_F(tool, usage_errors)
{
	static const struct {
		const char *args[5];
		const char *line;
	} cases[] = {
		{ { "frob" }, "omayexec: unknown command 'frob'" },
		{ { "--status" }, "omayexec: unknown option '--status'" },
		{ { "status", "now" }, "omayexec: status: unexpected argument 'now'" },
		{ { "status", "--jsn" }, "omayexec: status: unknown option '--jsn'" },
		{ { "status", "--json", "now" },
		  "omayexec: status: unexpected argument 'now'" },
		{ { "set" }, "omayexec: set: no POLICY given" },
		{ { "set", "2", "3" },
		  "omayexec: set: too many arguments: '3' after POLICY '2'" },
		{ { "check" }, "omayexec: check: no PATH given" },
		{ { "check", "--" }, "omayexec: check: no PATH given" },
		{ { "check", "--bogus", "/" }, "omayexec: check: unknown option '--bogus'" },
		{ { "run", "--bogus", "--", "true" },
		  "omayexec: run: unknown option '--bogus'" },
		{ { "help", "status" }, "omayexec: help: unexpected argument 'status'" },
		{ { "--help", "-v" }, "omayexec: --help: unknown option '-v'" },
		{ { "--version", "now" },
		  "omayexec: --version: unexpected argument 'now'" },
	};
	const char *argv[7] = { self->omayexec, NULL };
	char want[256];
	struct us_result r;
	unsigned int i, j;

	ASSERT_EQ(0, omx_policy_set(1));
	for (i = 0; i < ARRAY_LEN(cases); i++) {
		for (j = 0; j < 5 && cases[i].args[j]; j++)
			argv[j + 1] = cases[i].args[j];
		argv[j + 1] = NULL;
		snprintf(want, sizeof(want), "%s\nSee 'omayexec --help'.\n",
			 cases[i].line);
		us_run(&r, NULL, argv);
		EXPECT_EQ(2, r.status) TH_LOG("case %u", i);
		EXPECT_STREQ("", r.out) TH_LOG("case %u", i);
		EXPECT_STREQ(want, r.err) TH_LOG("case %u", i);
	}
	EXPECT_EQ(1, omx_policy_read());

	argv[1] = NULL;
	us_run(&r, NULL, argv);
	EXPECT_EQ(2, r.status);
	EXPECT_STREQ("", r.out);
	EXPECT_HAS(r.err, "usage: omayexec status [--json]\n");
}

/* help, --help and -h: the usage on standard output; --version: VERSION. */
TEST_F(tool, help_and_version)
{
	static const char *const helps[] = { "help", "--help", "-h" };
	const char *argv[] = { self->omayexec, NULL, NULL };
	char version[64], want[128];
	struct us_result r;
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(helps); i++) {
		argv[1] = helps[i];
		us_run(&r, NULL, argv);
		EXPECT_EQ(0, r.status) TH_LOG("%s", helps[i]);
		EXPECT_STREQ("", r.err) TH_LOG("%s", helps[i]);
		EXPECT_HAS(r.out, "usage: omayexec status [--json]\n");
		EXPECT_HAS(r.out, "omayexec check [--restrict-file] [--strict] [--] PATH...\n");
		EXPECT_HAS(r.out, "See omayexec(1).\n");
	}

	/* The module's version comes from the same VERSION file. */
	ASSERT_EQ(0, lc_read_file("/sys/module/omayexec/version", version,
				  sizeof(version)));
	snprintf(want, sizeof(want), "omayexec %s\n", version);
	argv[1] = "--version";
	us_run(&r, NULL, argv);
	EXPECT_EQ(0, r.status);
	EXPECT_STREQ("", r.err);
	EXPECT_STREQ(want, r.out);
}

/* Some decisions, so that the status's counters are not all 0. */
static void decide_twice(int dirfd)
{
	omx_probe_openat2(dirfd, "noexec/x", O_RDONLY | O_CLOEXEC | O_MAYEXEC, 0);
	omx_probe_openat2(dirfd, "exec/nx", O_RDONLY | O_CLOEXEC | O_MAYEXEC, 0);
}

TEST_F(tool, status_under_each_policy)
{
	static const char *const words[] = {
		"policy: 0 (off): O_MAYEXEC opens are not restricted\n",
		"policy: 1 (mount): files on noexec mounts are refused, and non-regular files\n",
		"policy: 2 (file): files without exec permission are refused, and non-regular files\n",
		"policy: 3 (mount,file): files on noexec mounts or without exec permission are refused, and non-regular files\n",
	};
	const char *argv[] = { self->omayexec, "status", NULL };
	struct omx_stats stats;
	struct us_result r;
	char line[128];
	int p, s;

	for (p = 0; p <= 3; p++) {
		ASSERT_EQ(0, omx_policy_set(p));
		decide_twice(self->ws.dirfd);
		ASSERT_EQ(0, omx_stats_read(&stats));
		us_run(&r, NULL, argv);
		EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
		EXPECT_STREQ("", r.err);
		EXPECT_HAS(r.out, "module: loaded\n");
		EXPECT_HAS(r.out, "kernel: openat2() honours O_MAYEXEC\n");
		EXPECT_HAS(r.out, words[p]);
		EXPECT_HAS(r.out, "locked: no\n");
		/* The module's numbers (status itself decides nothing). */
		for (s = 0; s < OMX_NR_STATS; s++) {
			snprintf(line, sizeof(line), "\n%s: %lu\n",
				 omx_stat_names[s], stats.count[s]);
			EXPECT_HAS(r.out, line);
		}
		EXPECT_HAS(r.out, "library mode: best-effort (default)\n");
		EXPECT_HAS(r.out, "interactive code: allowed (default)\n");
	}
}

TEST_F(tool, status_as_user)
{
	const char *argv[] = { self->omayexec, "status", NULL };
	struct us_opts user = { .stdin_fd = -1, .as_user = true };
	struct us_result r;

	ASSERT_EQ(0, omx_policy_set(2));
	us_run(&r, &user, argv);
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_HAS(r.out, "module: loaded\n");
	EXPECT_HAS(r.out, "policy: unknown (/proc/sys/fs/open_mayexec_enforce is readable by root only)\n");
	EXPECT_HASNT(r.out, "policy: 2");
	EXPECT_HAS(r.out, "locked: no\n");
	EXPECT_HAS(r.out, "\nallowed: ");
}

TEST_F(tool, status_shows_the_library_mode)
{
	const char *argv[] = { self->omayexec, "status", NULL };
	const char *strict[] = { "OMAYEXEC_MODE=strict",
				 "OMAYEXEC_DENY_INTERACTIVE=yes", NULL };
	struct us_opts env = { .stdin_fd = -1, .env = strict };
	struct us_result r;

	us_run(&r, &env, argv);
	EXPECT_HAS(r.out, "library mode: strict (the environment)\n");
	EXPECT_HAS(r.out, "interactive code: refused (the environment)\n");

	ASSERT_EQ(0, us_conf_write("mode = strict\ndeny_interactive = yes\n",
				   0644, 0));
	us_run(&r, NULL, argv);
	EXPECT_HAS(r.out, "library mode: strict (/etc/omayexec.conf)\n");
	EXPECT_HAS(r.out, "interactive code: refused (/etc/omayexec.conf)\n");
	EXPECT_HASNT(r.out, "config:");

	ASSERT_EQ(0, us_conf_write("mode = best-effort\n", 0666, 0));
	us_run(&r, NULL, argv);
	EXPECT_HAS(r.out, "config: /etc/omayexec.conf: not a root-owned file writable by root only: failing closed\n");
	EXPECT_HAS(r.out, "library mode: strict (/etc/omayexec.conf)\n");
}

/* ---- status --json ---------------------------------------------------- */

/* Its keys, in their order: omayexec(1) documents them, they stay. */
static const char *const json_keys[] = {
	"version", "module_loaded", "openat2_mayexec", "exec_check",
	"policy", "policy_name", "policy_error", "locked",
	"allowed", "refused_not_regular", "refused_noexec_mount",
	"refused_no_exec_permission",
	"secbit_exec_restrict_file", "secbit_exec_restrict_file_locked",
	"secbit_exec_deny_interactive", "secbit_exec_deny_interactive_locked",
	"config_path", "config_error", "mode", "mode_source",
	"exec_check_enforced", "exec_check_enforced_source",
	"deny_interactive", "deny_interactive_source",
};

#define JSON_MAX	64

/* A flat JSON object: each member's key (unescaped) and its value's text. */
struct json_object {
	int n;
	char key[JSON_MAX][64];
	char value[JSON_MAX][256];
};

static const char *json_space(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/*
 * A JSON string at @p, as RFC 8259 has it (no raw control character, only
 * its escapes); its text unescaped into @buf when @buf (a \u escape
 * below 0x80 as that byte, others as '?').  After it, or NULL.
 */
static const char *json_read_string(const char *p, char *buf, size_t len)
{
	size_t n = 0;
	unsigned int u;
	char c;

	if (*p++ != '"')
		return NULL;
	for (; *p != '"'; p++) {
		c = *p;
		if ((unsigned char)c < 0x20)
			return NULL;	/* the end too */
		if (c == '\\') {
			c = *++p;
			if (c == 'u') {
				if (sscanf(p + 1, "%4x", &u) != 1 ||
				    !isxdigit(p[1]) || !isxdigit(p[2]) ||
				    !isxdigit(p[3]) || !isxdigit(p[4]))
					return NULL;
				c = u < 0x80 ? (char)u : '?';
				p += 4;
			} else if (c == 'n') {
				c = '\n';
			} else if (c == 't') {
				c = '\t';
			} else if (c == 'r') {
				c = '\r';
			} else if (c == 'b') {
				c = '\b';
			} else if (c == 'f') {
				c = '\f';
			} else if (c != '"' && c != '\\' && c != '/') {
				return NULL;
			}
		}
		if (buf && n + 1 < len)
			buf[n++] = c;
	}
	if (buf)
		buf[n] = '\0';
	return p + 1;
}

/* A number, true, false, null or a string at @p: after it, or NULL. */
static const char *json_read_scalar(const char *p)
{
	static const char *const words[] = { "true", "false", "null" };
	const char *start = p;
	unsigned int i;

	if (*p == '"')
		return json_read_string(p, NULL, 0);
	for (i = 0; i < ARRAY_LEN(words); i++)
		if (!strncmp(p, words[i], strlen(words[i])))
			return p + strlen(words[i]);
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else
		while (isdigit(*p))
			p++;
	if (p == start || p[-1] == '-')
		return NULL;
	return p;	/* integers only: status prints no other number */
}

/*
 * Parse @text, which must be one flat JSON object (scalar values) and
 * nothing else but white space: 0, or -1 when it is not.
 */
static int json_parse(const char *text, struct json_object *o)
{
	const char *p = json_space(text), *end;

	o->n = 0;
	if (*p++ != '{')
		return -1;
	p = json_space(p);
	if (*p == '}')
		return *json_space(p + 1) ? -1 : 0;
	for (;;) {
		if (o->n == JSON_MAX)
			return -1;
		p = json_read_string(p, o->key[o->n], sizeof(o->key[0]));
		if (!p)
			return -1;
		p = json_space(p);
		if (*p++ != ':')
			return -1;
		p = json_space(p);
		end = json_read_scalar(p);
		if (!end || (size_t)(end - p) >= sizeof(o->value[0]))
			return -1;
		snprintf(o->value[o->n], sizeof(o->value[0]), "%.*s",
			 (int)(end - p), p);
		o->n++;
		p = json_space(end);
		if (*p == '}')
			return *json_space(p + 1) ? -1 : 0;
		if (*p++ != ',')
			return -1;
		p = json_space(p);
	}
}

/* The text of @key's value, or "(absent)". */
static const char *json_get(const struct json_object *o, const char *key)
{
	int i;

	for (i = 0; i < o->n; i++)
		if (!strcmp(o->key[i], key))
			return o->value[i];
	return "(absent)";
}

/*
 * Run "omayexec status --json" as @opts say, and check what every run
 * must show: exit status as the human status's, one valid JSON object of
 * the documented keys in their order, the version.
 */
static void status_json(struct __test_metadata *_metadata, const char *omayexec,
			const struct us_opts *opts, struct json_object *o)
{
	const char *json[] = { omayexec, "status", "--json", NULL };
	const char *human[] = { omayexec, "status", NULL };
	char version[64], want[80];
	struct us_result r;
	int i, status;

	us_run(&r, opts, human);
	status = r.status;
	us_run(&r, opts, json);
	EXPECT_EQ(status, r.status) TH_LOG("%s", r.err);
	EXPECT_STREQ("", r.err);
	ASSERT_EQ(0, json_parse(r.out, o)) TH_LOG("not a JSON object:\n%s", r.out);
	EXPECT_EQ((int)ARRAY_LEN(json_keys), o->n) TH_LOG("%s", r.out);
	for (i = 0; i < o->n && i < (int)ARRAY_LEN(json_keys); i++)
		EXPECT_STREQ(json_keys[i], o->key[i]);
	if (!lc_read_file("/sys/module/omayexec/version", version,
			  sizeof(version))) {
		snprintf(want, sizeof(want), "\"%s\"", version);
		EXPECT_STREQ(want, json_get(o, "version"));
	}
}

#define EXPECT_JSON(o, key, text) \
	EXPECT_STREQ(text, json_get(o, key)) TH_LOG("%s", key)

/* The human status's facts, under each policy, with the module's numbers. */
TEST_F(tool, status_json_under_each_policy)
{
	static const char *const names[] = {
		"\"off\"", "\"mount\"", "\"file\"", "\"mount,file\"",
	};
	struct json_object o;
	struct omx_stats stats;
	char want[32];
	int p, s;

	for (p = 0; p <= 3; p++) {
		ASSERT_EQ(0, omx_policy_set(p));
		decide_twice(self->ws.dirfd);
		ASSERT_EQ(0, omx_stats_read(&stats));
		status_json(_metadata, self->omayexec, NULL, &o);
		EXPECT_JSON(&o, "module_loaded", "true");
		EXPECT_JSON(&o, "openat2_mayexec", "true");
		EXPECT_JSON(&o, "exec_check", omx_exec_check_enabled() ?
			    "\"module\"" : "\"none\"");
		snprintf(want, sizeof(want), "%d", p);
		EXPECT_JSON(&o, "policy", want);
		EXPECT_JSON(&o, "policy_name", names[p]);
		EXPECT_JSON(&o, "policy_error", "null");
		EXPECT_JSON(&o, "locked", "false");
		for (s = 0; s < OMX_NR_STATS; s++) {
			snprintf(want, sizeof(want), "%lu", stats.count[s]);
			EXPECT_JSON(&o, omx_stat_names[s], want);
		}
		EXPECT_JSON(&o, "secbit_exec_restrict_file", "false");
		EXPECT_JSON(&o, "secbit_exec_restrict_file_locked", "false");
		EXPECT_JSON(&o, "secbit_exec_deny_interactive", "false");
		EXPECT_JSON(&o, "secbit_exec_deny_interactive_locked", "false");
		EXPECT_JSON(&o, "config_path", "\"/etc/omayexec.conf\"");
		EXPECT_JSON(&o, "config_error", "null");
		EXPECT_JSON(&o, "mode", "\"best-effort\"");
		EXPECT_JSON(&o, "mode_source", "\"default\"");
		EXPECT_JSON(&o, "exec_check_enforced", "false");
		EXPECT_JSON(&o, "exec_check_enforced_source", "\"default\"");
		EXPECT_JSON(&o, "deny_interactive", "false");
		EXPECT_JSON(&o, "deny_interactive_source", "\"default\"");
	}
}

/* As uid 1000: the policy null, and why; the rest as for root. */
TEST_F(tool, status_json_as_user)
{
	struct us_opts user = { .stdin_fd = -1, .as_user = true };
	struct json_object o;

	ASSERT_EQ(0, omx_policy_set(2));
	status_json(_metadata, self->omayexec, &user, &o);
	EXPECT_JSON(&o, "module_loaded", "true");
	EXPECT_JSON(&o, "policy", "null");
	EXPECT_JSON(&o, "policy_name", "null");
	EXPECT_JSON(&o, "policy_error", "\"root-only\"");
	EXPECT_JSON(&o, "locked", "false");
}

/* The library's settings and where they come from; a bad configuration. */
TEST_F(tool, status_json_shows_the_library_mode)
{
	const char *strict[] = { "OMAYEXEC_MODE=strict",
				 "OMAYEXEC_DENY_INTERACTIVE=yes", NULL };
	struct us_opts env = { .stdin_fd = -1, .env = strict };
	struct json_object o;

	status_json(_metadata, self->omayexec, &env, &o);
	EXPECT_JSON(&o, "mode", "\"strict\"");
	EXPECT_JSON(&o, "mode_source", "\"environment\"");
	EXPECT_JSON(&o, "exec_check_enforced", "true");
	EXPECT_JSON(&o, "exec_check_enforced_source", "\"environment\"");
	EXPECT_JSON(&o, "deny_interactive", "true");
	EXPECT_JSON(&o, "deny_interactive_source", "\"environment\"");

	ASSERT_EQ(0, us_conf_write("mode = best-effort\n", 0666, 0));
	status_json(_metadata, self->omayexec, NULL, &o);
	EXPECT_JSON(&o, "config_error",
		    "\"not a root-owned file writable by root only\"");
	EXPECT_JSON(&o, "mode", "\"strict\"");
	EXPECT_JSON(&o, "mode_source", "\"config\"");
}

TEST_F(tool, set_every_value)
{
	static const struct {
		const char *text;
		int policy;
		const char *out;
	} values[] = {
		{ "3", 3, "policy: 3 (mount,file)\n" },
		{ "0", 0, "policy: 0 (off)\n" },
		{ "1", 1, "policy: 1 (mount)\n" },
		{ "2", 2, "policy: 2 (file)\n" },
		{ "off", 0, "policy: 0 (off)\n" },
		{ "mount", 1, "policy: 1 (mount)\n" },
		{ "file", 2, "policy: 2 (file)\n" },
		{ "mount,file", 3, "policy: 3 (mount,file)\n" },
		{ "off", 0, "policy: 0 (off)\n" },
		{ "file,mount", 3, "policy: 3 (mount,file)\n" },
	};
	const char *argv[] = { self->omayexec, "set", NULL, NULL };
	struct us_result r;
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(values); i++) {
		argv[2] = values[i].text;
		us_run(&r, NULL, argv);
		EXPECT_EQ(0, r.status) TH_LOG("set %s: %s", values[i].text, r.err);
		EXPECT_STREQ(values[i].out, r.out);
		EXPECT_STREQ("", r.err);
		EXPECT_EQ(values[i].policy, omx_policy_read())
			TH_LOG("set %s", values[i].text);
	}
}

TEST_F(tool, set_refuses_what_is_not_a_policy)
{
	static const char *const bad[] = {
		"4", "-1", "", "mount,", "Mount", "3x", "1 ", "0x1", "both",
		"none", "mount,file,mount",
	};
	const char *argv[] = { self->omayexec, "set", NULL, NULL };
	struct us_result r;
	unsigned int i;

	ASSERT_EQ(0, omx_policy_set(2));
	for (i = 0; i < ARRAY_LEN(bad); i++) {
		argv[2] = bad[i];
		us_run(&r, NULL, argv);
		EXPECT_EQ(2, r.status) TH_LOG("set '%s'", bad[i]);
		EXPECT_EQ(1, us_lines(r.err)) TH_LOG("%s", r.err);
		EXPECT_HAS(r.err, "is not a policy");
		EXPECT_EQ(2, omx_policy_read()) TH_LOG("set '%s'", bad[i]);
	}
}

TEST_F(tool, set_refuses_the_unprivileged)
{
	const char *argv[] = { self->omayexec, "set", "0", NULL };
	struct us_opts user = { .stdin_fd = -1, .as_user = true };
	struct us_opts nocap = { .stdin_fd = -1, .drop_mac_admin = true };
	struct us_result r;

	ASSERT_EQ(0, omx_policy_set(3));
	us_run(&r, &user, argv);
	EXPECT_EQ(1, r.status);
	EXPECT_STREQ("", r.out);
	EXPECT_EQ(1, us_lines(r.err)) TH_LOG("%s", r.err);
	EXPECT_HAS(r.err, "not privileged");
	EXPECT_EQ(3, omx_policy_read());

	/* Root without CAP_MAC_ADMIN: the kernel's EPERM, same words. */
	us_run(&r, &nocap, argv);
	EXPECT_EQ(1, r.status);
	EXPECT_EQ(1, us_lines(r.err)) TH_LOG("%s", r.err);
	EXPECT_HAS(r.err, "not privileged");
	EXPECT_HAS(r.err, "CAP_MAC_ADMIN");
	EXPECT_EQ(3, omx_policy_read());
}

/*
 * "refused  PATH  (WHY)\n" when @why, else "allowed  PATH\n", or, when
 * @check_why says why execveat(AT_EXECVE_CHECK) fails (not enforced
 * here: best-effort mode, no securebits) and the module answers it,
 * "allowed  PATH  (the exec check fails: CHECK_WHY; not enforced ...)\n";
 * appended to @buf.
 */
static void add_line(char *buf, size_t len, const char *path, const char *why,
		     const char *check_why)
{
	size_t n = strlen(buf);

	if (why)
		snprintf(buf + n, len - n, "refused  %s  (%s)\n", path, why);
	else if (check_why && omx_exec_check_enabled())
		snprintf(buf + n, len - n,
			 "allowed  %s  (the exec check fails: %s; not enforced without SECBIT_EXEC_RESTRICT_FILE or strict mode)\n",
			 path, check_why);
	else
		snprintf(buf + n, len - n, "allowed  %s\n", path);
}

TEST_F(tool, check_under_each_policy)
{
	const struct tool_files *f = &self->f;
	const char *argv[] = { self->omayexec, "check", f->x, f->nx,
			       f->noexec_x, f->noexec_nx, f->dir, f->fifo,
			       f->missing, NULL };
	const char *only_x[] = { self->omayexec, "check", f->x, NULL };
	char want[8192], mount[PATH_MAX + 32], both[2 * PATH_MAX];
	const char *file = "no exec permission for uid 0";
	struct us_result r;
	int p;

	snprintf(mount, sizeof(mount), "noexec mount: %s", f->noexec_mount);
	snprintf(both, sizeof(both), "%s; %s", mount, file);
	for (p = 0; p <= 3; p++) {
		ASSERT_EQ(0, omx_policy_set(p));
		want[0] = '\0';
		add_line(want, sizeof(want), f->x, NULL, NULL);
		add_line(want, sizeof(want), f->nx, p & 2 ? file : NULL, file);
		add_line(want, sizeof(want), f->noexec_x, p & 1 ? mount : NULL, mount);
		add_line(want, sizeof(want), f->noexec_nx, p == 3 ? both :
			 p == 1 ? mount : p == 2 ? file : NULL, both);
		/* Refused at every policy, as the interpreters refuse them. */
		add_line(want, sizeof(want), f->dir,
			 "not a regular file: directory", NULL);
		add_line(want, sizeof(want), f->fifo,
			 "not a regular file: FIFO", NULL);
		snprintf(want + strlen(want), sizeof(want) - strlen(want),
			 "error    %s  (No such file or directory)\n", f->missing);
		us_run(&r, NULL, argv);
		/* The missing file could not be checked: 2, not 1. */
		EXPECT_EQ(2, r.status) TH_LOG("policy %d", p);
		EXPECT_STREQ(want, r.out) TH_LOG("policy %d", p);
		EXPECT_STREQ("", r.err);

		us_run(&r, NULL, only_x);
		EXPECT_EQ(0, r.status);
	}
}

/*
 * check --restrict-file answers as an interpreter under
 * SECBIT_EXEC_RESTRICT_FILE would, from a shell without the bit: a
 * failed exec check refuses, with its reasons; what the policy refuses
 * keeps the policy's reasons, and a FIFO is refused as not a regular
 * file in any case.  Without the check (exec_check=0), the option changes
 * nothing.
 */
TEST_F(tool, check_restrict_file)
{
	const struct tool_files *f = &self->f;
	const char *argv[] = { self->omayexec, "check", "--restrict-file",
			       f->x, f->nx, f->noexec_x, f->fifo, NULL };
	char want[8 * PATH_MAX], mount[PATH_MAX + 32];
	const char *file = "no exec permission for uid 0";
	bool check = omx_exec_check_enabled();
	struct us_result r;
	int p;

	snprintf(mount, sizeof(mount), "noexec mount: %s", f->noexec_mount);
	for (p = 0; p <= 3; p++) {
		ASSERT_EQ(0, omx_policy_set(p));
		want[0] = '\0';
		add_line(want, sizeof(want), f->x, NULL, NULL);
		if (p & 2 || !check)
			add_line(want, sizeof(want), f->nx, p & 2 ? file : NULL, file);
		else
			snprintf(want + strlen(want), sizeof(want) - strlen(want),
				 "refused  %s  (%s; under SECBIT_EXEC_RESTRICT_FILE)\n",
				 f->nx, file);
		if (p & 1 || !check)
			add_line(want, sizeof(want), f->noexec_x, p & 1 ? mount : NULL, mount);
		else
			snprintf(want + strlen(want), sizeof(want) - strlen(want),
				 "refused  %s  (%s; under SECBIT_EXEC_RESTRICT_FILE)\n",
				 f->noexec_x, mount);
		add_line(want, sizeof(want), f->fifo, "not a regular file: FIFO",
			 NULL);
		us_run(&r, NULL, argv);
		EXPECT_EQ(1, r.status) TH_LOG("policy %d", p);
		EXPECT_STREQ(want, r.out) TH_LOG("policy %d", p);
		EXPECT_STREQ("", r.err);
	}
}

/*
 * What omxsh does with @path now (with -S when @strict) and what
 * "omayexec check" (--strict) says of it: the same answer, and the one
 * expected.  omxsh runs it (exit 0) and check says "allowed" (0), or
 * omxsh refuses it (126) and check says "refused" (1).  Neither may wait
 * for a FIFO's writer.
 */
static void expect_omxsh_verdict(struct __test_metadata *_metadata,
				 const char *ctx, const char *omayexec,
				 const char *path, bool strict, bool refused)
{
	struct us_opts opts = { .stdin_fd = -1, .alarm = 10 };
	const char *omxsh[4] = { NULL }, *check[5] = { omayexec, "check" };
	char prog[PATH_MAX];
	struct us_result r;
	int n = 0;

	snprintf(prog, sizeof(prog), "%s", us_bin("omxsh"));
	omxsh[n++] = prog;
	if (strict) {
		omxsh[n++] = "-S";
		check[2] = "--strict";
	}
	omxsh[n] = path;
	check[strict ? 3 : 2] = path;

	us_run(&r, &opts, omxsh);
	EXPECT_EQ(refused ? 126 : 0, r.status)
		TH_LOG("%s: omxsh%s %s: %s", ctx, strict ? " -S" : "", path, r.err);
	us_run(&r, &opts, check);
	EXPECT_EQ(refused ? 1 : 0, r.status)
		TH_LOG("%s: check%s %s: %s%s", ctx, strict ? " --strict" : "",
		       path, r.out, r.err);
	EXPECT_EQ(0, strncmp(r.out, refused ? "refused  " : "allowed  ", 9))
		TH_LOG("%s: check%s %s: %s", ctx, strict ? " --strict" : "",
		       path, r.out);
	EXPECT_STREQ("", r.err);
}

/*
 * check answers what omxsh does now, under each policy: a FIFO and
 * /dev/null are refused whatever the policy (every interpreter refuses
 * what is not a regular file), the scripts as the policy says; with
 * --strict (omxsh -S), as the exec check says too, where it is answered.
 */
TEST_F(tool, check_agrees_with_omxsh)
{
	const struct tool_files *f = &self->f;
	bool check = omx_exec_check_enabled();
	const struct {
		const char *path;
		bool noexec, no_x, not_regular;
	} files[] = {
		{ f->fifo, false, false, true },
		{ "/dev/null", false, false, true },
		{ f->nx, false, true, false },
		{ f->x, false, false, false },
		{ f->noexec_x, true, false, false },
		{ f->noexec_nx, true, true, false },
	};
	bool refused, fails;
	unsigned int i;
	char ctx[16];
	int p;

	for (p = 0; p <= 3; p++) {
		ASSERT_EQ(0, omx_policy_set(p));
		snprintf(ctx, sizeof(ctx), "policy %d", p);
		for (i = 0; i < ARRAY_LEN(files); i++) {
			refused = files[i].not_regular ||
				  (p & OMAYEXEC_ENFORCE_MOUNT && files[i].noexec) ||
				  (p & OMAYEXEC_ENFORCE_FILE && files[i].no_x);
			fails = files[i].noexec || files[i].no_x;
			expect_omxsh_verdict(_metadata, ctx, self->omayexec,
					     files[i].path, false, refused);
			expect_omxsh_verdict(_metadata, ctx, self->omayexec,
					     files[i].path, true,
					     refused || (check && fails));
		}
	}
}

/*
 * The manual's CI example, "omayexec check --strict SCRIPT... || exit 1",
 * fails for a script without the x bit, and passes when every script has
 * it, whatever the policy in force (here none: 0).
 */
TEST_F(tool, check_strict_for_ci)
{
	const struct tool_files *f = &self->f;
	const char *all[] = { self->omayexec, "check", "--strict", f->x,
			      f->owner_x, f->nx, NULL };
	const char *good[] = { self->omayexec, "check", "--strict", f->x,
			       f->owner_x, NULL };
	char want[PATH_MAX + 64];
	struct us_result r;

	if (!omx_exec_check_enabled())
		SKIP(return, "exec_check=0: at policy 0 nothing refuses a 0644 file");
	ASSERT_EQ(0, omx_policy_set(0));
	us_run(&r, NULL, all);
	EXPECT_EQ(1, r.status) TH_LOG("%s", r.out);
	snprintf(want, sizeof(want), "refused  %s  (no exec permission for uid 0)\n",
		 f->nx);
	EXPECT_HAS(r.out, want);
	us_run(&r, NULL, good);
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.out);
}

/*
 * The exit status: 0 when every PATH is allowed, 1 when some are refused
 * and none is an error, 2 as soon as one could not be checked, wherever
 * it is in the list; "--" ends the options, a PATH may follow it.
 */
TEST_F(tool, check_exit_status)
{
	const struct tool_files *f = &self->f;
	const char *const allowed[] = { f->x, f->owner_x, NULL };
	const char *const refused[] = { f->x, f->nx, f->noexec_x, NULL };
	const char *const error_last[] = { f->x, f->nx, f->missing, NULL };
	const char *const error_first[] = { f->missing, f->nx, f->x, NULL };
	const char *const error_only[] = { f->missing, NULL };
	const char *const dashes[] = { "--", f->x, NULL };
	const struct {
		const char *const *paths;
		int status, lines;
	} cases[] = {
		{ allowed, 0, 2 }, { refused, 1, 3 }, { error_last, 2, 3 },
		{ error_first, 2, 3 }, { error_only, 2, 1 }, { dashes, 0, 1 },
	};
	const char *argv[8] = { self->omayexec, "check" };
	struct us_result r;
	unsigned int i, j;

	ASSERT_EQ(0, omx_policy_set(3));
	for (i = 0; i < ARRAY_LEN(cases); i++) {
		for (j = 0; cases[i].paths[j]; j++)
			argv[j + 2] = cases[i].paths[j];
		argv[j + 2] = NULL;
		us_run(&r, NULL, argv);
		EXPECT_EQ(cases[i].status, r.status) TH_LOG("case %u:\n%s", i, r.out);
		EXPECT_STREQ("", r.err) TH_LOG("case %u", i);
		EXPECT_EQ(cases[i].lines, us_lines(r.out)) TH_LOG("case %u:\n%s", i, r.out);
	}
}

/* As uid 1000 the policy cannot be read: every reason that applies. */
TEST_F(tool, check_as_user)
{
	const struct tool_files *f = &self->f;
	const char *argv[] = { self->omayexec, "check", f->x, f->owner_x,
			       f->noexec_x, f->noexec_nx, f->secret, NULL };
	struct us_opts user = { .stdin_fd = -1, .as_user = true };
	const char *file = "no exec permission for uid 1000";
	char want[8192], mount[PATH_MAX + 32], both[2 * PATH_MAX];
	struct us_result r;
	int p;

	snprintf(mount, sizeof(mount), "noexec mount: %s", f->noexec_mount);
	snprintf(both, sizeof(both), "%s; %s", mount, file);
	for (p = 0; p <= 3; p += 3) {
		ASSERT_EQ(0, omx_policy_set(p));
		want[0] = '\0';
		add_line(want, sizeof(want), f->x, NULL, NULL);
		add_line(want, sizeof(want), f->owner_x, p ? file : NULL, file);
		add_line(want, sizeof(want), f->noexec_x, p ? mount : NULL, mount);
		add_line(want, sizeof(want), f->noexec_nx, p ? both : NULL, both);
		/* Not readable by the user: an ordinary error. */
		snprintf(want + strlen(want), sizeof(want) - strlen(want),
			 "error    %s  (Permission denied)\n", f->secret);
		us_run(&r, &user, argv);
		EXPECT_EQ(2, r.status);
		EXPECT_STREQ(want, r.out) TH_LOG("policy %d", p);
	}
}

/* ---- Without the module ------------------------------------------------ */

FIXTURE(tool_unloaded) {
	struct omx_ws ws;
	struct tool_files f;
	char omayexec[PATH_MAX];
};

FIXTURE_SETUP(tool_unloaded)
{
	ASSERT_FALSE(access(US_CONF, F_OK) == 0 && !us_conf_is_ours());
	us_conf_remove();
	snprintf(self->omayexec, PATH_MAX, "%s", us_bin("omayexec"));
	ASSERT_EQ(0, omx_ws_create(&self->ws));
	ASSERT_EQ(0, make_files(&self->ws, &self->f));
	ASSERT_EQ(0, us_module_unload());
}

FIXTURE_TEARDOWN(tool_unloaded)
{
	us_conf_remove();
	EXPECT_EQ(0, us_module_reload());
	EXPECT_EQ(0, omx_policy_read());
	EXPECT_EQ(0, omx_ws_destroy(&self->ws));
}

TEST_F(tool_unloaded, status_and_set)
{
	const char *status[] = { self->omayexec, "status", NULL };
	const char *set[] = { self->omayexec, "set", "mount", NULL };
	struct us_result r;

	us_run(&r, NULL, status);
	EXPECT_EQ(1, r.status);
	EXPECT_HAS(r.out, "module: not loaded\n");
	EXPECT_HAS(r.out, "kernel: openat2() does not know O_MAYEXEC: nothing is checked\n");
	EXPECT_HAS(r.out, "policy: none (no /proc/sys/fs/open_mayexec_enforce)\n");
	EXPECT_HASNT(r.out, "locked:");
	EXPECT_HASNT(r.out, "allowed:");

	us_run(&r, NULL, set);
	EXPECT_EQ(1, r.status);
	EXPECT_STREQ("", r.out);
	EXPECT_EQ(1, us_lines(r.err));
	EXPECT_HAS(r.err, "the omayexec module is not loaded");
}

/* No module: nulls where the human status leaves lines out. */
TEST_F(tool_unloaded, status_json)
{
	struct json_object o;

	status_json(_metadata, self->omayexec, NULL, &o);
	EXPECT_JSON(&o, "module_loaded", "false");
	EXPECT_JSON(&o, "openat2_mayexec", "false");
	/* As the human status says: "nothing is checked". */
	EXPECT_JSON(&o, "exec_check", "\"none\"");
	EXPECT_JSON(&o, "policy", "null");
	EXPECT_JSON(&o, "policy_name", "null");
	EXPECT_JSON(&o, "policy_error", "\"no-sysctl\"");
	EXPECT_JSON(&o, "locked", "null");
	EXPECT_JSON(&o, "allowed", "null");
	EXPECT_JSON(&o, "refused_no_exec_permission", "null");
	EXPECT_JSON(&o, "secbit_exec_restrict_file", "false");
}

TEST_F(tool_unloaded, check_best_effort_and_strict)
{
	const char *argv[] = { self->omayexec, "check", self->f.noexec_nx, NULL };
	const char *strict[] = { "OMAYEXEC_MODE=strict", NULL };
	struct us_opts env = { .stdin_fd = -1, .env = strict };
	struct us_result r;
	char want[PATH_MAX + 128];

	snprintf(want, sizeof(want),
		 "allowed  %s  (unchecked: the kernel does not know O_MAYEXEC; best-effort mode)\n",
		 self->f.noexec_nx);
	us_run(&r, NULL, argv);
	EXPECT_EQ(0, r.status);
	EXPECT_STREQ(want, r.out);

	snprintf(want, sizeof(want),
		 "refused  %s  (strict mode, and the kernel does not know O_MAYEXEC)\n",
		 self->f.noexec_nx);
	us_run(&r, &env, argv);
	EXPECT_EQ(1, r.status);
	EXPECT_STREQ(want, r.out);

	ASSERT_EQ(0, us_conf_write("mode = strict\n", 0644, 0));
	us_run(&r, NULL, argv);
	EXPECT_EQ(1, r.status);
	EXPECT_STREQ(want, r.out);
}

/*
 * Neither O_MAYEXEC nor the exec check: omxsh runs every regular file and
 * refuses the rest; under -S it refuses every file, as check --strict.
 */
TEST_F(tool_unloaded, check_agrees_with_omxsh)
{
	const struct tool_files *f = &self->f;
	const struct {
		const char *path;
		bool not_regular;
	} files[] = {
		{ f->fifo, true }, { "/dev/null", true }, { f->nx, false },
		{ f->x, false }, { f->noexec_x, false }, { f->noexec_nx, false },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(files); i++) {
		expect_omxsh_verdict(_metadata, "no module", self->omayexec,
				     files[i].path, false, files[i].not_regular);
		expect_omxsh_verdict(_metadata, "no module", self->omayexec,
				     files[i].path, true, true);
	}
}

TEST_HARNESS_MAIN
