// SPDX-License-Identifier: GPL-2.0
/*
 * omayexec: see the O_MAYEXEC policy, set it, and check files against it.
 *
 *   omayexec status [--json]
 *   omayexec set POLICY
 *   omayexec check [--restrict-file] [--strict] [--] PATH...
 *   omayexec run [--restrict-file] [--deny-interactive] [--lock] -- COMMAND [ARG]...
 *   omayexec help | --help | -h | --version
 *
 * See omayexec(1).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "omayexec.h"
#include "refusal.h"

/* From ../VERSION, by the Makefile: the version is written in one place. */
#ifndef OMAYEXEC_VERSION
#error "OMAYEXEC_VERSION is not defined: build with userspace/Makefile"
#endif

#define PROG		"omayexec"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: " PROG " status [--json]\n"
		"       " PROG " set POLICY     (0-3, off, mount, file, mount,file)\n"
		"       " PROG " check [--restrict-file] [--strict] [--] PATH...\n"
		"                       (--restrict-file: answer as an interpreter under\n"
		"                       SECBIT_EXEC_RESTRICT_FILE would; --strict: as one\n"
		"                       in strict mode would, omxsh -S)\n"
		"       " PROG " run [--restrict-file] [--deny-interactive] [--lock] -- COMMAND [ARG]...\n"
		"       " PROG " help | --version\n"
		"Exit status: 0 success; 1 refused (check: some PATH refused, the\n"
		"others allowed; status: nothing is checked here); 2 usage error or\n"
		"other error (check: some PATH could not be checked).  See omayexec(1).\n");
}

/*
 * A usage error: one line naming what was wrong (after "omayexec: CMD: "
 * when @cmd), then where the usage is; 2, the exit status of usage errors.
 * The whole usage is not printed: it would bury the one line that matters.
 */
static int __attribute__((format(printf, 2, 3)))
usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": ");
	if (cmd)
		fprintf(stderr, "%s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nSee '" PROG " --help'.\n");
	return 2;
}

/* Whether @arg is an option (anything beginning with '-' but "-"). */
static int is_option(const char *arg)
{
	return arg[0] == '-' && arg[1];
}

/* The usage error for @arg, an argument @cmd does not take. */
static int bad_argument(const char *cmd, const char *arg)
{
	if (is_option(arg))
		return usage_error(cmd, "unknown option '%s'", arg);
	return usage_error(cmd, "unexpected argument '%s'", arg);
}

/* ---- status ----------------------------------------------------------- */

static const char *policy_words(int policy)
{
	switch (policy) {
	case 0:
		return "O_MAYEXEC opens are not restricted";
	case 1:
		return "files on noexec mounts are refused, and non-regular files";
	case 2:
		return "files without exec permission are refused, and non-regular files";
	case 3:
		return "files on noexec mounts or without exec permission are refused, and non-regular files";
	}
	return "?";
}

static const char *source_name(int source)
{
	switch (source) {
	case OMAYEXEC_SOURCE_CONFIG:
		return omayexec_config_path();
	case OMAYEXEC_SOURCE_CALLER:
		return "the program";
	case OMAYEXEC_SOURCE_ENVIRONMENT:
		return "the environment";
	case OMAYEXEC_SOURCE_SECUREBITS:
		return "the exec securebits";
	}
	return "default";
}

static const char *exec_check_words(int support)
{
	switch (support) {
	case OMAYEXEC_EXEC_CHECK_NATIVE:
		return "execveat() answers AT_EXECVE_CHECK itself";
	case OMAYEXEC_EXEC_CHECK_MODULE:
		return "execveat() answers AT_EXECVE_CHECK through the module";
	}
	return "execveat() does not know AT_EXECVE_CHECK";
}

/*
 * Whether this is a kernel with mainline's interface alone (Linux 6.14 and
 * later, no module): it has AT_EXECVE_CHECK and the exec securebits of
 * its own, but no O_MAYEXEC and no policy to set.  Every message that
 * would name the missing module says that instead: loading the module is
 * no remedy there (none is built for such a kernel).
 */
static int native_only(const struct omayexec_state *st)
{
	return !st->module_loaded && st->exec_check == OMAYEXEC_EXEC_CHECK_NATIVE;
}

/* The exec securebits of @bits in words: "restrict-file (locked), ...". */
static void securebits_words(int bits, char *buf, size_t len)
{
	static const struct {
		unsigned int bit, lock;
		const char *name;
	} names[] = {
		{ SECBIT_EXEC_RESTRICT_FILE, SECBIT_EXEC_RESTRICT_FILE_LOCKED,
		  "restrict-file" },
		{ SECBIT_EXEC_DENY_INTERACTIVE, SECBIT_EXEC_DENY_INTERACTIVE_LOCKED,
		  "deny-interactive" },
	};
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]) && n < len; i++) {
		if (!(bits & (names[i].bit | names[i].lock)))
			continue;
		n += snprintf(buf + n, len - n, "%s%s%s%s", n ? ", " : "",
			      bits & names[i].bit ? "" : "no ", names[i].name,
			      bits & names[i].lock ? " (locked)" : "");
	}
	if (!buf[0])
		snprintf(buf, len, "none");
}

/* ---- status --json -------------------------------------------------- */

/*
 * @s as a JSON string: '"' and '\\' escaped, control characters as \u00XX,
 * other bytes as they are (the texts here are ASCII or the UTF-8 of a
 * path).  Every string of the JSON status goes through here, even the
 * fixed words, so that none can break the object.
 */
static void json_string(const char *s)
{
	const unsigned char *c = (const unsigned char *)s;

	putchar('"');
	for (; *c; c++) {
		if (*c == '"' || *c == '\\')
			printf("\\%c", *c);
		else if (*c < 0x20 || *c == 0x7f)
			printf("\\u%04x", *c);
		else
			putchar(*c);
	}
	putchar('"');
}

/*
 * One member of the object: @key, then the value printed by the caller.
 * The members are one a line, in the order omayexec(1) lists them.
 */
static void json_key(const char *key, int *first)
{
	printf("%s\n  ", *first ? "{" : ",");
	json_string(key);
	fputs(": ", stdout);
	*first = 0;
}

static void json_str(const char *key, const char *value, int *first)
{
	json_key(key, first);
	if (value)
		json_string(value);
	else
		fputs("null", stdout);
}

/* @value as true or false, or null when negative (unknown). */
static void json_bool(const char *key, int value, int *first)
{
	json_key(key, first);
	fputs(value < 0 ? "null" : value ? "true" : "false", stdout);
}

/* A counter, or null when @available is 0. */
static void json_count(const char *key, int available,
		       unsigned long long value, int *first)
{
	json_key(key, first);
	if (available)
		printf("%llu", value);
	else
		fputs("null", stdout);
}

/* OMAYEXEC_SOURCE_* as a fixed word (the human status names the file). */
static const char *source_key(int source)
{
	switch (source) {
	case OMAYEXEC_SOURCE_CONFIG:
		return "config";
	case OMAYEXEC_SOURCE_CALLER:
		return "program";
	case OMAYEXEC_SOURCE_ENVIRONMENT:
		return "environment";
	case OMAYEXEC_SOURCE_SECUREBITS:
		return "securebits";
	}
	return "default";
}

/* Whether @bit is set in @bits, or -1 when the securebits are unknown. */
static int secbit(int bits, unsigned int bit)
{
	return bits < 0 ? -1 : (bits & bit) != 0;
}

/*
 * The facts of the human status as one JSON object, for configuration
 * management and monitoring: keys that do not change with the situation
 * (null where the human status leaves a line out or says "unknown"),
 * values as words that do not depend on the language.  The keys are
 * documented in omayexec(1): adding one is fine, renaming one is not.
 */
static void print_status_json(const struct omayexec_state *st)
{
	static const char *const exec_check[] = {
		[OMAYEXEC_EXEC_CHECK_NONE] = "none",
		[OMAYEXEC_EXEC_CHECK_NATIVE] = "native",
		[OMAYEXEC_EXEC_CHECK_MODULE] = "module",
	};
	const char *policy_error = NULL, *config_error = NULL;
	int first = 1;

	if (st->policy < 0)
		policy_error = st->policy_errno == ENOENT ? "no-sysctl" :
			st->policy_errno == EACCES || st->policy_errno == EPERM ?
			"root-only" : strerror(st->policy_errno);
	if (st->config_errno)
		config_error = st->config_errno == EPERM ?
			"not a root-owned file writable by root only" :
			st->config_errno == EINVAL ? "syntax error" :
			strerror(st->config_errno);

	json_str("version", OMAYEXEC_VERSION, &first);
	json_bool("module_loaded", st->module_loaded, &first);
	json_bool("openat2_mayexec", st->kernel_support, &first);
	json_str("exec_check", st->exec_check >= 0 && st->exec_check <= 2 ?
		 exec_check[st->exec_check] : "none", &first);
	json_key("policy", &first);
	if (st->policy >= 0)
		printf("%d", st->policy);
	else
		fputs("null", stdout);
	json_str("policy_name", st->policy >= 0 ?
		 omayexec_policy_name(st->policy) : NULL, &first);
	json_str("policy_error", policy_error, &first);
	json_bool("locked", st->locked, &first);
	json_count("allowed", st->stats_available, st->allowed, &first);
	json_count("refused_not_regular", st->stats_available,
		   st->refused_not_regular, &first);
	json_count("refused_noexec_mount", st->stats_available,
		   st->refused_noexec_mount, &first);
	json_count("refused_no_exec_permission", st->stats_available,
		   st->refused_no_exec_permission, &first);
	json_bool("secbit_exec_restrict_file",
		  secbit(st->securebits, SECBIT_EXEC_RESTRICT_FILE), &first);
	json_bool("secbit_exec_restrict_file_locked",
		  secbit(st->securebits, SECBIT_EXEC_RESTRICT_FILE_LOCKED), &first);
	json_bool("secbit_exec_deny_interactive",
		  secbit(st->securebits, SECBIT_EXEC_DENY_INTERACTIVE), &first);
	json_bool("secbit_exec_deny_interactive_locked",
		  secbit(st->securebits, SECBIT_EXEC_DENY_INTERACTIVE_LOCKED),
		  &first);
	json_str("config_path", omayexec_config_path(), &first);
	json_str("config_error", config_error, &first);
	json_str("mode", st->mode == OMAYEXEC_STRICT ? "strict" : "best-effort",
		 &first);
	json_str("mode_source", source_key(st->mode_source), &first);
	json_bool("exec_check_enforced", st->restrict_file, &first);
	json_str("exec_check_enforced_source",
		 source_key(st->restrict_file_source), &first);
	json_bool("deny_interactive", st->deny_interactive, &first);
	json_str("deny_interactive_source",
		 source_key(st->deny_interactive_source), &first);
	fputs("\n}\n", stdout);
}

static int cmd_status(int argc, char *argv[])
{
	struct omayexec_state st;
	int i, json = 0;
	char bits[128];

	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--json"))
			return bad_argument("status", argv[i]);
		json = 1;
	}
	if (omayexec_get_state(&st, sizeof(st))) {
		fprintf(stderr, PROG ": status: %s\n", strerror(errno));
		return 2;
	}
	if (json) {
		print_status_json(&st);
		return st.kernel_support || st.exec_check ? 0 : 1;
	}
	printf("module: %s\n", st.module_loaded ? "loaded" : "not loaded");
	printf("kernel: %s\n", st.kernel_support ?
	       "openat2() honours O_MAYEXEC" :
	       st.exec_check ? "openat2() does not know O_MAYEXEC" :
	       "openat2() does not know O_MAYEXEC: nothing is checked");
	printf("exec check: %s\n", exec_check_words(st.exec_check));
	if (st.securebits >= 0) {
		securebits_words(st.securebits, bits, sizeof(bits));
		printf("exec securebits: %s\n", bits);
	}
	if (st.policy >= 0)
		printf("policy: %d (%s): %s\n", st.policy,
		       omayexec_policy_name(st.policy),
		       policy_words(st.policy));
	else if (st.policy_errno == ENOENT && native_only(&st))
		printf("policy: none (this kernel has no O_MAYEXEC policy: it checks with its own AT_EXECVE_CHECK, enforced by the exec securebits)\n");
	else if (st.policy_errno == ENOENT)
		printf("policy: none (no %s)\n", OMAYEXEC_SYSCTL_PATH);
	else if (st.policy_errno == EACCES || st.policy_errno == EPERM)
		printf("policy: unknown (%s is readable by root only)\n",
		       OMAYEXEC_SYSCTL_PATH);
	else
		printf("policy: unknown (%s: %s)\n", OMAYEXEC_SYSCTL_PATH,
		       strerror(st.policy_errno));
	if (st.locked >= 0)
		printf("locked: %s\n", st.locked ?
		       "yes (until reboot)" : "no");
	if (st.stats_available) {
		printf("allowed: %llu\n", st.allowed);
		printf("refused_not_regular: %llu\n", st.refused_not_regular);
		printf("refused_noexec_mount: %llu\n", st.refused_noexec_mount);
		printf("refused_no_exec_permission: %llu\n",
		       st.refused_no_exec_permission);
	}
	if (st.config_errno)
		printf("config: %s: %s: failing closed\n",
		       omayexec_config_path(),
		       st.config_errno == EPERM ?
		       "not a root-owned file writable by root only" :
		       st.config_errno == EINVAL ? "syntax error" :
		       strerror(st.config_errno));
	printf("library mode: %s (%s)\n",
	       st.mode == OMAYEXEC_STRICT ? "strict" : "best-effort",
	       source_name(st.mode_source));
	if (st.exec_check)
		printf("failed exec check: %s (%s)\n",
		       st.restrict_file ? "the file is refused" : "not enforced",
		       source_name(st.restrict_file_source));
	printf("interactive code: %s (%s)\n",
	       st.deny_interactive ? "refused" : "allowed",
	       source_name(st.deny_interactive_source));
	return st.kernel_support || st.exec_check ? 0 : 1;
}

/* ---- set ---------------------------------------------------------------- */

static int locked(void)
{
	struct omayexec_state st;

	return !omayexec_get_state(&st, sizeof(st)) && st.locked == 1;
}

static int cmd_set(const char *text)
{
	int policy = omayexec_parse_policy(text);
	struct omayexec_state st;

	if (policy < 0) {
		fprintf(stderr, PROG ": set: '%s' is not a policy: use 0-3, off, mount, file or mount,file\n",
			text);
		return 2;
	}
	if (!omayexec_set_policy(policy)) {
		if (!omayexec_get_state(&st, sizeof(st)) && st.policy >= 0)
			policy = st.policy;
		printf("policy: %d (%s)\n", policy,
		       omayexec_policy_name(policy));
		return 0;
	}
	switch (errno) {
	case ENOENT:
		if (!omayexec_get_state(&st, sizeof(st)) && native_only(&st))
			fprintf(stderr, PROG ": set: this kernel has no O_MAYEXEC policy (no %s): it checks with its own AT_EXECVE_CHECK, which the exec securebits enforce (see 'omayexec run')\n",
				OMAYEXEC_SYSCTL_PATH);
		else
			fprintf(stderr, PROG ": set: the omayexec module is not loaded (no %s)\n",
				OMAYEXEC_SYSCTL_PATH);
		break;
	case EACCES:
	case EPERM:
		if (locked())
			fprintf(stderr, PROG ": set: the policy is locked until reboot (module parameter locked=Y)\n");
		else
			fprintf(stderr, PROG ": set: not privileged: setting the policy needs root with CAP_MAC_ADMIN\n");
		break;
	default:
		fprintf(stderr, PROG ": set: writing %s: %s\n",
			OMAYEXEC_SYSCTL_PATH, strerror(errno));
	}
	return 1;
}

/* ---- check -------------------------------------------------------------- */

/* The reasons of refusal_reasons() for @path, looked at through O_PATH. */
static void path_reasons(const char *path, int policy, char *buf, size_t len)
{
	int fd = open(path, O_PATH | O_CLOEXEC);

	if (fd < 0) {
		snprintf(buf, len, "%s", strerror(errno));
		return;
	}
	refusal_reasons(fd, policy, buf, len);
	close(fd);
}

/*
 * What execveat(2)'s AT_EXECVE_CHECK says of @path, as libomayexec asks
 * it: 0, or the error execve() would get.  Asked through
 * omayexec_check_fd(), which also needs the O_MAYEXEC policy's consent:
 * only called where that is known, or does not matter.
 */
static int exec_check(const char *path)
{
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (omayexec_check_fd(fd))
		err = errno;
	close(fd);
	return err;
}

/* Why the exec check failed with @err: its reasons, as for a refusal. */
static void check_reasons(const char *path, int err, char *buf, size_t len)
{
	if (err == EACCES)
		path_reasons(path, -1, buf, len);
	else
		refusal_check_reasons(-1, err, buf, len);
}

/*
 * Why the interpreters' open of @path failed with @err, a refusal:
 * @check is the exec check's own verdict, @st the state it was made in.
 */
static void refused_reasons(const char *path, int err, int check,
			    const struct omayexec_state *st, char *buf, size_t len)
{
	struct stat sb;

	/* Refused by every check, and by the interpreters: no one decided. */
	if (err != EPERM && !stat(path, &sb) && !S_ISREG(sb.st_mode))
		path_reasons(path, -1, buf, len);
	else if (err == EOPNOTSUPP)
		snprintf(buf, len, "strict mode, and the kernel does not know O_MAYEXEC");
	else if (err == EPERM)
		snprintf(buf, len, REFUSAL_EPERM_WHY);
	else if (err == EACCES && (!check || !st->restrict_file))
		/* The O_MAYEXEC policy refused it. */
		path_reasons(path, st->policy, buf, len);
	else if (err == check)
		/* The check refused it, enforced. */
		check_reasons(path, check, buf, len);
	else
		snprintf(buf, len, "%s", strerror(err));
}

/*
 * One line per PATH.  Exits 0 when every PATH is allowed, 1 when some are
 * refused and the others allowed, 2 when some could not be checked (an
 * "error" line): then the answer is not known for all of them, and a
 * script must not take that for a refusal it could fix with chmod.
 *
 * The verdict is the interpreters' own: the file is opened as omxsh,
 * omayexec-python3 and the PHP extension open code (refusal_open_code():
 * libomayexec's decision, and nothing but a regular file), and a failure
 * is told from an ordinary error as they tell it.  So a FIFO or /dev/null
 * is refused here as there, whatever the policy, and what the library's
 * mode and this process's exec securebits enforce, this answer enforces.
 *
 * --restrict-file: a failed exec check refuses, as it does for an
 * interpreter under SECBIT_EXEC_RESTRICT_FILE (omayexec run
 * --restrict-file), whatever this process's own bits: the answer the user
 * gets from a shell without the bit is the one the refused program got.
 * The bit is not set here for that: under it the library's answer would
 * no longer tell the policy's refusal from the check's.
 * --strict: the library's strict mode, as omxsh -S or OMAYEXEC_MODE=strict
 * ask for it: every failed check refuses, and where the kernel can check
 * nothing, every file is refused: the answer a CI job wants.
 */
static int cmd_check(int argc, char *argv[])
{
	struct omayexec_state st;
	char why[8192];
	int i, fd, err, check, status = 0, as_restricted = 0;

	/* "--" lets a PATH begin with '-'. */
	for (i = 0; i < argc && is_option(argv[i]); i++) {
		if (!strcmp(argv[i], "--restrict-file")) {
			as_restricted = 1;
			continue;
		}
		if (!strcmp(argv[i], "--strict")) {
			/* Before the state is read: it shows the mode in force. */
			omayexec_set_mode(OMAYEXEC_STRICT);
			continue;
		}
		if (strcmp(argv[i], "--"))
			return usage_error("check", "unknown option '%s'", argv[i]);
		i++;
		break;
	}
	argc -= i;
	argv += i;
	if (!argc)
		return usage_error("check", "no PATH given");
	if (omayexec_get_state(&st, sizeof(st))) {
		fprintf(stderr, PROG ": check: %s\n", strerror(errno));
		return 2;
	}
	for (i = 0; i < argc; i++) {
		const char *path = argv[i];

		/* The check's own verdict, enforced or not: LSMs and IMA show. */
		check = st.exec_check ? exec_check(path) : 0;
		fd = refusal_open_code(AT_FDCWD, path, O_RDONLY | O_NOCTTY);
		if (fd >= 0) {
			close(fd);
			if (check && as_restricted) {
				/* Not refused here, but under the bit it is. */
				check_reasons(path, check, why, sizeof(why));
				printf("refused  %s  (%s; under SECBIT_EXEC_RESTRICT_FILE)\n",
				       path, why);
				if (!status)
					status = 1;
			} else if (check) {
				check_reasons(path, check, why, sizeof(why));
				printf("allowed  %s  (the exec check fails: %s; not enforced without SECBIT_EXEC_RESTRICT_FILE or strict mode)\n",
				       path, why);
			} else if (st.kernel_support || st.exec_check) {
				printf("allowed  %s\n", path);
			} else {
				printf("allowed  %s  (unchecked: the kernel does not know O_MAYEXEC; best-effort mode)\n",
				       path);
			}
			continue;
		}
		err = errno;
		/* Ordinary errors: the same open without the flag fails too. */
		if (!refusal_is_refusal(AT_FDCWD, path, err)) {
			printf("error    %s  (%s)\n", path, strerror(err));
			status = 2;
			continue;
		}
		refused_reasons(path, err, check, &st, why, sizeof(why));
		printf("refused  %s  (%s)\n", path, why);
		if (!status)
			status = 1;
	}
	return status;
}

/* ---- run ---------------------------------------------------------------- */

/*
 * Set the exec securebits asked for (with their locks for --lock) on top
 * of the caller's, then execute COMMAND: for a shell, a cron job or a
 * service's ExecStart=.  Exits 2 for a usage error, 1 when the bits
 * cannot be set (one line says why), 127 or 126 when COMMAND cannot be
 * executed, as shells do.
 */
static int cmd_run(int argc, char *argv[])
{
	unsigned int want = 0, lock = 0, bits;
	struct omayexec_state st;
	int i, cur, err, have_state;

	for (i = 0; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--restrict-file"))
			want |= SECBIT_EXEC_RESTRICT_FILE;
		else if (!strcmp(argv[i], "--deny-interactive"))
			want |= SECBIT_EXEC_DENY_INTERACTIVE;
		else if (!strcmp(argv[i], "--lock"))
			lock = 1;
		else if (is_option(argv[i]))
			return usage_error("run", "unknown option '%s'", argv[i]);
		else	/* "--" is required: COMMAND's options are its own. */
			return usage_error("run", "'--' must come before COMMAND '%s'",
					   argv[i]);
	}
	if (i >= argc)
		return usage_error("run", "no '-- COMMAND' given");
	if (i + 1 >= argc)
		return usage_error("run", "no COMMAND after '--'");
	if (!want)
		return usage_error("run", "no bit asked for: give --restrict-file and/or --deny-interactive");
	argv += i + 1;

	cur = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);
	if (cur < 0) {
		fprintf(stderr, PROG ": run: reading the securebits: %s\n", strerror(errno));
		return 1;
	}
	bits = (unsigned int)cur | want;
	if (lock)
		bits |= want << 1;	/* each bit's lock is the next one */
	if (bits != (unsigned int)cur && prctl(PR_SET_SECUREBITS, bits, 0, 0, 0)) {
		if (errno != EPERM)
			fprintf(stderr, PROG ": run: PR_SET_SECUREBITS: %s\n", strerror(errno));
		else if ((have_state = !omayexec_get_state(&st, sizeof(st))) &&
			 st.exec_check)
			fprintf(stderr, PROG ": run: a bit asked for is locked off: a locked exec securebit cannot change\n");
		else if (have_state && st.module_loaded)
			/* Loading it is no remedy: it is loaded, without them. */
			fprintf(stderr, PROG ": run: this kernel has no exec securebits: the omayexec module is loaded with exec_check=0; load it again with exec_check=1, its default\n");
		else
			fprintf(stderr, PROG ": run: this kernel has no exec securebits: load the omayexec module (exec_check=1, its default), or run Linux 6.14 or later\n");
		return 1;
	}
	execvp(argv[0], argv);
	err = errno;
	fprintf(stderr, PROG ": run: %s: %s\n", argv[0], strerror(err));
	return err == ENOENT ? 127 : 126;
}

int main(int argc, char *argv[])
{
	const char *cmd;
	int ret;

	/* No command at all: the whole usage is the answer. */
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		if (argc > 2)
			return bad_argument(cmd, argv[2]);
		usage(stdout);
		ret = 0;
	} else if (!strcmp(cmd, "--version")) {
		if (argc > 2)
			return bad_argument(cmd, argv[2]);
		printf(PROG " " OMAYEXEC_VERSION "\n");
		ret = 0;
	} else if (!strcmp(cmd, "status")) {
		ret = cmd_status(argc - 2, argv + 2);
	} else if (!strcmp(cmd, "set")) {
		/* A POLICY may begin with '-' ("-1"): it is not a policy. */
		if (argc < 3)
			return usage_error(cmd, "no POLICY given");
		if (argc > 3)
			return usage_error(cmd, "too many arguments: '%s' after POLICY '%s'",
					   argv[3], argv[2]);
		ret = cmd_set(argv[2]);
	} else if (!strcmp(cmd, "check")) {
		ret = cmd_check(argc - 2, argv + 2);
	} else if (!strcmp(cmd, "run")) {
		return cmd_run(argc - 2, argv + 2);
	} else if (is_option(cmd)) {
		return usage_error(NULL, "unknown option '%s'", cmd);
	} else {
		return usage_error(NULL, "unknown command '%s'", cmd);
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, PROG ": writing the output: %s\n",
			strerror(errno));
		return 2;
	}
	return ret;
}
