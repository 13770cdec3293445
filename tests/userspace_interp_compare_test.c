// SPDX-License-Identifier: GPL-2.0
/*
 * The same cases through every interpreter: omxsh, omayexec-python3,
 * omayexec-perl and Debian's PHP CLI with omayexec.so (when this system
 * has PHP), under each policy (0-3) and with each exec securebit.  Each
 * case is a file of code that prints "ran", named on the command line, or
 * code on standard input; every interpreter must answer it alike:
 * - the same exit status: 0 and "ran" when the variant lets the file run
 *   (the shared oracle, interp_fixture.h), else 126 with nothing run;
 * - the same refusal line, but for the program's name: "PROG: NAME:
 *   refused: WHY", NAME the file's name as given on the command line
 *   (a relative name stays relative), WHY with the remedy that fits the
 *   reason ("give it the x bit (chmod +x)", "move it to a mount without
 *   noexec");
 * - /dev/null and a FIFO named as the script: refused in every variant,
 *   at once, as not a regular file (PHP's CLI opens its script before any
 *   extension can see it, and would wait on a FIFO: not asked of PHP);
 * - standard input (a pipe) with deny-interactive: refused alike.
 * A next interpreter is one more line of the interpreters' table.
 *
 * Setting a securebit pins the module until reboot (securebits_test): run
 * this suite where that does not matter.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "omx_test.h"
#include "interp_fixture.h"

#define REFUSED		126
#define MAX_INTERPS	4
#define MAX_ARGS	8

/* ---- The interpreters ---------------------------------------------------- */

struct interp {
	const char *prog;	/* how its refusal line begins */
	const char *bin;	/* in the userspace build; NULL: see find() */
	const char *suffix;	/* of its scripts */
	const char *code;	/* prints "ran" */
	bool opens_first;	/* opens its script before anything is asked:
				 * a FIFO would wait */
};

static const struct interp interps[MAX_INTERPS] = {
	{ "omxsh", "omxsh", ".omx", "echo ran\n", false },
	{ "omayexec-python3", "omayexec-python3", ".py", "print('ran')\n", false },
	{ "omayexec-perl", "omayexec-perl", ".pl", "print \"ran\\n\";\n", false },
	{ "omayexec-php", NULL, ".php", "<?php echo \"ran\\n\";\n", true },
};

/* Python's standard library, which the file policy judges too. */
static long python_save_modes(void)
{
	static const char *const dirs[] = {
		"/usr/lib/python3.11", "/usr/lib/python3/dist-packages",
		"/usr/local/lib/python3.11/dist-packages", "/etc/python3.11",
		NULL,
	};
	static const char *const ends[] = { ".py", ".pyc", ".pth", NULL };

	return cm_save(dirs, ends);
}

FIXTURE(compare) {
	struct interp_fx ix;	/* the shared workspace, policy, oracle */
	char bin[MAX_INTERPS][PATH_MAX];	/* "": not on this system */
	char php_ext[PATH_MAX + 16];		/* "extension=.../omayexec.so" */
};

INTERP_VARIANTS(compare);

/* Debian's PHP CLI, /usr/bin/php8.X, the newest there is. */
static int find_php(char *buf, size_t len)
{
	char name[32];
	int minor;

	for (minor = 9; minor >= 0; minor--) {
		snprintf(name, sizeof(name), "/usr/bin/php8.%d", minor);
		if (!access(name, X_OK)) {
			snprintf(buf, len, "%s", name);
			return 0;
		}
	}
	return -1;
}

/* The files, relative to the workspace, each in every interpreter's suffix. */
static const struct interp_file files[] = {
	{ "exec/x", "ran\n", false, true },
	{ "exec/nx", "ran\n", false, false },
	{ "noexec/x", "ran\n", true, true },
	{ "noexec/nx", "ran\n", true, false },
};

FIXTURE_SETUP(compare)
{
	char path[PATH_MAX];
	const char *ext;
	size_t i, f;

	interp_setup(_metadata, &self->ix, variant->policy, variant->bits);
	for (i = 0; i < MAX_INTERPS; i++) {
		if (interps[i].bin) {
			snprintf(self->bin[i], PATH_MAX, "%s", us_bin(interps[i].bin));
			ASSERT_EQ(0, access(self->bin[i], X_OK)) TH_LOG("%s", self->bin[i]);
		} else if (!find_php(self->bin[i], PATH_MAX)) {
			ext = us_bin("php/omayexec.so");
			ASSERT_EQ(0, access(ext, R_OK)) TH_LOG("%s", ext);
			snprintf(self->php_ext, sizeof(self->php_ext),
				 "extension=%s", ext);
		}
		for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
			snprintf(path, sizeof(path), "%s%s", files[f].rel,
				 interps[i].suffix);
			ASSERT_EQ(0, us_write_file(omx_ws_path(&self->ix.ws, path),
						   interps[i].code,
						   files[f].exec_bit ? 0755 : 0644));
		}
		snprintf(path, sizeof(path), "exec/fifo%s", interps[i].suffix);
		ASSERT_EQ(0, mkfifo(omx_ws_path(&self->ix.ws, path), 0755));
	}
	if (!interp_enforce(_metadata, &self->ix, python_save_modes))
		SKIP(return, "no exec securebits here: %s", strerror(errno));
}

FIXTURE_TEARDOWN(compare)
{
	interp_teardown(_metadata, &self->ix);
}

/* ---- Running one case through one interpreter --------------------------- */

/* Run interpreter @i with the one argument @arg (NULL: none). */
static void run(FIXTURE_DATA(compare) *self, size_t i, const char *arg,
		const struct us_opts *opts, struct us_result *r)
{
	const char *argv[MAX_ARGS];
	int n = 0;

	argv[n++] = self->bin[i];
	if (!interps[i].bin) {
		/* Only the extension's setting: no php.ini of the system. */
		argv[n++] = "-n";
		argv[n++] = "-d";
		argv[n++] = self->php_ext;
	}
	if (arg)
		argv[n++] = arg;
	argv[n] = NULL;
	us_run(r, opts, argv);
}

/* The refusal line without "PROG: ", in @buf; NULL when there is none. */
static const char *line_after_prog(const char *err, const char *prog,
				   char *buf, size_t len)
{
	size_t n = strlen(prog);

	if (strncmp(err, prog, n) || strncmp(err + n, ": ", 2))
		return NULL;
	snprintf(buf, len, "%s", err + n + 2);
	return buf;
}

/*
 * One case, run through every interpreter: what it is given (a file in
 * each one's suffix, an argument, standard input), and what is expected:
 * it runs, or it is refused in one line that names what was given and
 * has @why in it, every interpreter's line, but for "PROG: " and the
 * suffix, the first one's.
 */
struct one_case {
	const char *name;
	const char *rel;	/* the file, without its suffix; NULL: @arg */
	const char *arg;	/* the argument when no file: NULL for none */
	bool relative;		/* named relatively to the workspace */
	bool runs;		/* else refused */
	const char *why;	/* a part of the refusal's WHY */
	const char *stdin_text;	/* standard input, a pipe, or NULL */
	bool deny_env;		/* OMAYEXEC_DENY_INTERACTIVE=1 */
	bool fifo;		/* not asked of an interpreter that opens first */
};

static void check_case(struct __test_metadata *_metadata,
		       FIXTURE_DATA(compare) *self, const struct one_case *c)
{
	const char *env[] = { "OMAYEXEC_DENY_INTERACTIVE=1", NULL };
	char arg[PATH_MAX], want[PATH_MAX + 32], line[US_OUT_MAX];
	char first[US_OUT_MAX] = "", first_prog[64] = "";
	struct us_opts opts = { .stdin_fd = -1, .alarm = 20 };
	struct us_result r;
	const char *rest;
	size_t i;

	if (c->deny_env)
		opts.env = env;
	if (c->relative)
		opts.cwd = self->ix.ws.root;
	for (i = 0; i < MAX_INTERPS; i++) {
		if (!self->bin[i][0] || (c->fifo && interps[i].opens_first))
			continue;
		if (c->rel)
			snprintf(arg, sizeof(arg), "%s%s",
				 c->relative ? c->rel :
				 omx_ws_path(&self->ix.ws, c->rel),
				 interps[i].suffix);
		else if (c->arg)
			snprintf(arg, sizeof(arg), "%s", c->arg);
		if (c->stdin_text) {
			opts.stdin_fd = us_pipe_with(c->stdin_text);
			ASSERT_LE(0, opts.stdin_fd);
		}
		unlink(self->ix.marker);
		run(self, i, c->rel || c->arg ? arg : NULL, &opts, &r);
		if (c->stdin_text)
			close(opts.stdin_fd);
		TH_LOG("%s, %s: exit %d", c->name, interps[i].prog, r.status);
		if (c->runs) {
			US_EXPECT_RAN(r, "ran\n");
			continue;
		}
		/* One line, nothing run, the status of a refusal. */
		EXPECT_EQ(REFUSED, r.status) TH_LOG("stderr: %s", r.err);
		EXPECT_STREQ("", r.out);
		EXPECT_EQ(1, us_lines(r.err)) TH_LOG("stderr: %s", r.err);
		EXPECT_NE(NULL, strstr(r.err, c->why)) TH_LOG("stderr: %s", r.err);
		rest = line_after_prog(r.err, interps[i].prog, line, sizeof(line));
		EXPECT_NE(NULL, rest) TH_LOG("%s: %s", interps[i].prog, r.err);
		if (!rest)
			continue;
		/* The name as given, then "refused". */
		snprintf(want, sizeof(want), "%s: refused: ",
			 c->rel || c->arg ? arg : "standard input");
		EXPECT_EQ(0, strncmp(rest, want, strlen(want)))
			TH_LOG("%s: %s", interps[i].prog, r.err);
		if (!first[0]) {
			snprintf(first, sizeof(first), "%s", rest);
			snprintf(first_prog, sizeof(first_prog), "%s",
				 interps[i].prog);
			continue;
		}
		/* The name differs by suffix only: compare after it. */
		if (strstr(first, ": refused: ") && strstr(rest, ": refused: "))
			EXPECT_STREQ(strstr(first, ": refused: "),
				     strstr(rest, ": refused: "))
				TH_LOG("%s and %s differ", first_prog,
				       interps[i].prog);
	}
}

/* Each file on each mount, named by its absolute path, then relatively. */
TEST_F(compare, files_by_name)
{
	char name[64];
	size_t f;
	int rel;

	for (rel = 0; rel < 2; rel++) {
		for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
			bool runs = interp_runs(&self->ix, files[f].noexec_mount,
						files[f].exec_bit);
			struct one_case c = {
				.name = name, .rel = files[f].rel,
				.relative = rel, .runs = runs,
				.why = runs ? NULL :
				       interp_remedy(&self->ix,
						     files[f].noexec_mount,
						     files[f].exec_bit),
			};

			snprintf(name, sizeof(name), "%s%s", files[f].rel,
				 rel ? " (relative)" : "");
			check_case(_metadata, self, &c);
		}
	}
}

/* Not a regular file: refused whatever the policy, the bits, the mode. */
TEST_F(compare, not_regular_files)
{
	const struct one_case dev_null = {
		.name = "/dev/null", .arg = "/dev/null",
		.why = "refused: not a regular file: character device\n",
	};
	const struct one_case fifo = {
		.name = "FIFO", .rel = "exec/fifo", .fifo = true,
		.why = "refused: not a regular file: FIFO\n",
	};

	check_case(_metadata, self, &dev_null);
	check_case(_metadata, self, &fifo);
}

/*
 * Standard input, a pipe, with deny-interactive: never a checked file,
 * refused before any of it is read (so one text for every language).
 */
TEST_F(compare, piped_standard_input_denied)
{
	const struct one_case c = {
		.name = "stdin", .stdin_text = "\n", .deny_env = true,
		.why = "refused: not a regular file: FIFO (deny-interactive, asked for by ",
	};

	check_case(_metadata, self, &c);
}

TEST_HARNESS_MAIN
