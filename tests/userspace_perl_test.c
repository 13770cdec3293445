// SPDX-License-Identifier: GPL-2.0
/*
 * omayexec-perl, Debian's Perl with libomayexec, end to end in the VM with
 * Debian's perl and its modules, under each policy (0-3), and with
 * SECBIT_EXEC_RESTRICT_FILE or SECBIT_EXEC_DENY_INTERACTIVE on the test:
 * - the main script on an exec mount runs (it uses strict, warnings and the
 *   XS module POSIX); the same on a noexec mount, or without the x bit
 *   under the file policy, is refused before any of it runs, its BEGIN
 *   blocks included (one line on stderr that names the remedy, exit 126,
 *   the marker never written); Debian's own perl runs it anyway;
 * - /dev/null named as the script is refused in every variant, as every
 *   interpreter refuses it (-e and -V, which Perl reads through it, still
 *   run), and an empty script, which compiles to no op, is judged too;
 * - every way Perl compiles a file: use through "use lib", require of a
 *   module name, of an absolute and of a relative path, do FILE, require
 *   in eval, a file whose handle an @INC hook returns, -M, PERL5OPT and
 *   -d:Module; each is refused (require dies with the line, eval catches
 *   it, do returns undef with it in $@; uncaught, exit 126) or runs, as
 *   the policy says; every refusal line says what decided;
 * - a FIFO named as the script is refused at once, not waited on;
 * - -e, -E (named -E) and standard input (a file, a pipe) with and without
 *   deny-interactive (--omayexec-deny-interactive, OMAYEXEC_DENY_INTERACTIVE=1,
 *   /etc/omayexec.conf, the securebit), and the debugger: -d runs with a
 *   judged perl5db.pl, and is refused with deny-interactive.
 * Under the file policy and SECBIT_EXEC_RESTRICT_FILE the fixture first
 * gives Perl's modules the x bit as the documented remedy
 * (omayexec-perl-allow-stdlib) does, and takes it back afterwards;
 * perl_stdlib shows use strict refused without it, in one line with the
 * remedy, exit 126, and the remedy itself working.
 *
 * The fixture is the interpreters' shared one (lib/interp_fixture.h).
 *
 * Setting a securebit pins the module until reboot (securebits_test): run
 * this suite where that does not matter.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/omayexec.h>

#include "omx_stats.h"
#include "omx_test.h"
#include "interp_fixture.h"

#define PL_REFUSED	126
/*
 * What decided a refusal of a file, in the variant @variant of the test
 * that uses it: the module's policy, or (policy 0) the exec securebit.
 */
#define POLICY_WHY	(variant->bits & SECBIT_EXEC_RESTRICT_FILE ?	\
	"(decided by the exec securebit SECBIT_EXEC_RESTRICT_FILE)" :	\
	"(decided by the module's policy, fs.open_mayexec_enforce = ")
#define DENY_OPTION	"--omayexec-deny-interactive"
#define OPTION_TAG	"(deny-interactive, asked for by " DENY_OPTION ")\n"
#define BIT_TAG		"(deny-interactive, asked for by the exec securebit SECBIT_EXEC_DENY_INTERACTIVE)\n"
#define REAL_PERL	"/usr/bin/perl"

/* ---- Perl's modules' modes, changed by the remedy and restored -------- */

static const char *const code_ends[] = { ".pm", ".pl", ".pmc", ".al", ".ix", NULL };

/*
 * Record the modes the remedy will change, under the directories of
 * Debian's perl's default @INC (as the remedy has them): how many, or -1.
 */
static long stdlib_save_modes(void)
{
	const char *argv[] = { REAL_PERL, "-e",
		"print join qq(\\n), grep { !ref && m{^/} && -d } @INC", NULL };
	const char *dirs[32];
	struct us_result r;
	char *dir, *next;
	size_t n = 0;

	if (us_run(&r, NULL, argv))
		return -1;
	for (dir = r.out; dir && *dir && n < 31; dir = next) {
		next = strchr(dir, '\n');
		if (next)
			*next++ = '\0';
		dirs[n++] = dir;
	}
	dirs[n] = NULL;
	return cm_save(dirs, code_ends);
}

static int stdlib_restore_modes(void)
{
	return cm_restore();
}

/* The documented remedy, as the administrator runs it. */
static int run_remedy(struct us_result *r)
{
	const char *argv[] = { us_bin("omayexec-perl-allow-stdlib"),
			       "--quiet", NULL };

	return us_run(r, NULL, argv);
}

/* ---- Results ---------------------------------------------------------- */

/* The first line of @s, in @buf. */
static const char *first_line(const char *s, char *buf, size_t len)
{
	size_t n = strcspn(s, "\n");

	snprintf(buf, len, "%.*s", (int)n, s);
	return buf;
}

/*
 * A refusal by the launcher, before anything ran: exit @status_, @out_before
 * on stdout, one line on stderr naming @what, with "refused" and @why.
 */
#define EXPECT_PL_REFUSED(r, status_, what, out_before, why) \
	US_EXPECT_REFUSED(r, status_, "omayexec-perl", what, out_before, why)

/*
 * A require or use that died of the refusal: the status of a refusal,
 * what ran before on stdout, and the launcher's line first on stderr
 * (Perl's own "Compilation failed in require" lines follow it).
 */
#define EXPECT_PL_DIED(r, what, out_before) \
	EXPECT_PL_DIED_WHY(r, what, out_before, POLICY_WHY)
#define EXPECT_PL_DIED_WHY(r, what, out_before, why) do {		\
	char line_[US_OUT_MAX];						\
	const char *why_ = (why);					\
									\
	first_line((r).err, line_, sizeof(line_));			\
	EXPECT_EQ(PL_REFUSED, (r).status) TH_LOG("stderr: %s", (r).err); \
	EXPECT_STREQ(out_before, (r).out);				\
	EXPECT_EQ(0, strncmp(line_, "omayexec-perl: ", 15)) TH_LOG("stderr: %s", (r).err); \
	EXPECT_NE(NULL, strstr(line_, what)) TH_LOG("stderr: %s", (r).err); \
	EXPECT_NE(NULL, strstr(line_, why_)) TH_LOG("stderr: %s", (r).err); \
} while (0)

#define EXPECT_PL_RAN(r, out_want)	US_EXPECT_RAN(r, out_want)

/* ---- The fixture --------------------------------------------------------- */

FIXTURE(perl) {
	struct interp_fx ix;	/* the shared workspace, policy, oracle */
	char pl[PATH_MAX];
};

INTERP_VARIANTS(perl);

/* The files, relative to the workspace. */
#define GOOD		"exec/good.pl"		/* 0755, exec mount */
#define NX		"exec/nx.pl"		/* 0644, exec mount */
#define PLAIN		"exec/plain.pl"		/* 0755, exec mount, no module */
#define EVIL		"noexec/evil.pl"	/* 0755, noexec mount */

/* Code that writes the marker at compile time, then prints "ran NAME". */
static void evil_code(char *buf, size_t len, const char *marker,
		      const char *package, const char *name)
{
	snprintf(buf, len,
		 "%s%s%s"
		 "BEGIN { open(my $m, '>', '%s') or die; close $m }\n"
		 "print \"ran %s\\n\";\n1;\n",
		 package ? "package " : "", package ? package : "",
		 package ? ";\n" : "", marker, name);
}

FIXTURE_SETUP(perl)
{
	struct omx_ws *ws = &self->ix.ws;
	char text[PATH_MAX * 4];

	snprintf(self->pl, sizeof(self->pl), "%s", us_bin("omayexec-perl"));
	ASSERT_EQ(0, access(self->pl, X_OK)) TH_LOG("%s", self->pl);
	ASSERT_EQ(0, access(REAL_PERL, X_OK));
	interp_setup(_metadata, &self->ix, variant->policy, variant->bits);

	/* Debian's modules, a pure-Perl and an XS one, in every good script. */
	ASSERT_EQ(0, us_write_file(omx_ws_path(ws, GOOD),
		"use strict;\nuse warnings;\nuse POSIX ();\n"
		"print 'ran good ', POSIX::floor(2.5), \"\\n\";\n", 0755));
	ASSERT_EQ(0, us_write_file(omx_ws_path(ws, NX), "print \"ran nx\\n\";\n", 0644));
	ASSERT_EQ(0, us_write_file(omx_ws_path(ws, PLAIN), "print \"ran plain\\n\";\n", 0755));
	evil_code(text, sizeof(text), self->ix.marker, NULL, "evil");
	ASSERT_EQ(0, us_write_file(omx_ws_path(ws, EVIL), text, 0755));

	/* The modules on the noexec mount, with the x bit. */
	ASSERT_EQ(0, mkdirat(ws->dirfd, "noexec/lib", 0755));
	ASSERT_EQ(0, mkdirat(ws->dirfd, "noexec/lib/Devel", 0755));
	evil_code(text, sizeof(text), self->ix.marker, "Evil", "Evil");
	ASSERT_EQ(0, us_write_file(omx_ws_path(ws, "noexec/lib/Evil.pm"), text, 0755));
	evil_code(text, sizeof(text), self->ix.marker, NULL, "evil.pl");
	ASSERT_EQ(0, us_write_file(omx_ws_path(ws, "noexec/lib/evil.pl"), text, 0755));
	evil_code(text, sizeof(text), self->ix.marker, "Devel::Evil",
		  "Devel::Evil");
	strcat(text, "sub DB::DB {}\n");
	ASSERT_EQ(0, us_write_file(omx_ws_path(ws, "noexec/lib/Devel/Evil.pm"),
				   text, 0755));

	/*
	 * The remedy's effect first under the file policy: Debian's modules
	 * are 0644 (perl_stdlib runs the remedy itself).  The bits go on
	 * this test's process, and on what it runs.
	 */
	if (!interp_enforce(_metadata, &self->ix, stdlib_save_modes))
		SKIP(return, "no exec securebits here: %s", strerror(errno));
}

FIXTURE_TEARDOWN(perl)
{
	interp_teardown(_metadata, &self->ix);
}

TEST_F(perl, script)
{
	static const struct interp_file scripts[] = {
		{ GOOD, "ran good 2\n", false, true },
		{ NX, "ran nx\n", false, false },
		{ EVIL, "ran evil\n", true, true },
	};
	struct us_result r;
	size_t i;

	for (i = 0; i < sizeof(scripts) / sizeof(scripts[0]); i++) {
		const char *path = omx_ws_path(&self->ix.ws, scripts[i].rel);
		const char *argv[] = { self->pl, path, "arg", NULL };

		unlink(self->ix.marker);
		us_run(&r, NULL, argv);
		TH_LOG("%s: exit %d", scripts[i].rel, r.status);
		if (interp_runs(&self->ix, scripts[i].noexec_mount, scripts[i].exec_bit)) {
			EXPECT_PL_RAN(r, scripts[i].out);
		} else {
			EXPECT_PL_REFUSED(r, PL_REFUSED, path, "", POLICY_WHY);
			/* The user's own script: what to do, in the line. */
			EXPECT_PL_REFUSED(r, PL_REFUSED, path, "",
					  interp_remedy(&self->ix, scripts[i].noexec_mount,
							scripts[i].exec_bit));
			EXPECT_FALSE(interp_marker_written(&self->ix));
		}
	}
}

/*
 * A unit is judged once, however many strings and patterns it has (the
 * lexer reads each from another line buffer): one O_MAYEXEC open of the
 * script, counted by the module's policy (policies 1-3), not one more for
 * each of its six interpolations.  A module required from a BEGIN inside
 * a string is a unit of its own, and is judged: refused on the noexec
 * mount, before its code runs.
 */
TEST_F(perl, one_judgement_per_unit)
{
	const char *script = omx_ws_path(&self->ix.ws, "exec/strings.pl");
	const char *inner = omx_ws_path(&self->ix.ws, "exec/inner.pl");
	const char *argv[] = { self->pl, script, NULL };
	const char *argv_inner[] = { self->pl, inner, NULL };
	struct omx_stats before, delta;
	char text[PATH_MAX * 2];
	unsigned long total = 0;
	struct us_result r;
	int i;

	ASSERT_EQ(0, us_write_file(script,
		"my $x = 1;\nmy $a = \"a$x\";\nmy $b = \"b${x}b\";\n"
		"my $c = qq{c$x};\nmy $r = qr/r$x/;\n"
		"my $h = <<\"END\";\nh$x\nEND\n(my $s = \"s\") =~ s/s/t$x/;\n"
		"print \"ran strings $a $b $c\\n\";\n", 0755));
	ASSERT_EQ(0, omx_stats_read(&before));
	us_run(&r, NULL, argv);
	ASSERT_EQ(0, omx_stats_delta(&before, &delta));
	for (i = 0; i < OMX_NR_STATS; i++)
		total += delta.count[i];
	EXPECT_PL_RAN(r, "ran strings a1 b1b c1\n");
	if (variant->policy)
		EXPECT_EQ(1, total) TH_LOG("%s", omx_stats_str(&delta));

	snprintf(text, sizeof(text),
		 "BEGIN { unshift @INC, '%s/lib' }\nmy $x = 1;\n"
		 "my $s = \"a$x @{[ do { BEGIN { require Evil; } 1 } ]}\";\n"
		 "print \"ran inner\\n\";\n", self->ix.noexec_dir);
	ASSERT_EQ(0, us_write_file(inner, text, 0755));
	unlink(self->ix.marker);
	us_run(&r, NULL, argv_inner);
	if (interp_runs(&self->ix, true, true)) {
		EXPECT_EQ(0, r.status) TH_LOG("stderr: %s", r.err);
		EXPECT_TRUE(interp_marker_written(&self->ix));
	} else {
		EXPECT_PL_DIED(r, "Evil.pm", "");
		EXPECT_FALSE(interp_marker_written(&self->ix));
	}
}

/*
 * A FIFO (no writer ever comes) named as the script, or found by require:
 * Perl opens it itself, and the open must not wait: refused at once, as
 * not a regular file, in every variant; require dies of it (eval catches
 * it; uncaught, exit 126).  The alarm ends a run that waits.
 */
TEST_F(perl, fifo_answers_at_once)
{
	struct us_opts opts = { .stdin_fd = -1, .alarm = 10 };
	const char *fifo = omx_ws_path(&self->ix.ws, "exec/fifo.pl");
	const char *script = omx_ws_path(&self->ix.ws, "exec/require-fifo.pl");
	const char *argv[] = { self->pl, fifo, NULL };
	const char *req[] = { self->pl, script, NULL };
	char text[PATH_MAX * 3], line[US_OUT_MAX];
	struct us_result r;

	ASSERT_EQ(0, mkfifo(fifo, 0755));
	us_run(&r, &opts, argv);
	EXPECT_PL_REFUSED(r, PL_REFUSED, fifo, "", "refused: not a regular file: FIFO\n");

	snprintf(text, sizeof(text),
		 "$| = 1;\neval { require '%s' };\nprint \"caught: $@\";\n"
		 "require '%s';\nprint \"after\\n\";\n", fifo, fifo);
	ASSERT_EQ(0, us_write_file(script, text, 0755));
	us_run(&r, &opts, req);
	snprintf(line, sizeof(line),
		 "omayexec-perl: %s: refused: not a regular file: FIFO\n", fifo);
	EXPECT_EQ(PL_REFUSED, r.status) TH_LOG("stderr: %s", r.err);
	snprintf(text, sizeof(text), "caught: %s", line);
	EXPECT_STREQ(text, r.out);
	EXPECT_STREQ(line, r.err);
}

/*
 * What is no file of code, named as the script, is refused in every
 * variant, as every interpreter refuses it: /dev/null (Perl reads the
 * code of -e and -V through it: those still run).  An empty script
 * compiles to no op at all: it is judged all the same, when it is opened.
 */
TEST_F(perl, dev_null_and_empty_scripts)
{
	const char *empty = omx_ws_path(&self->ix.ws, "noexec/empty.pl");
	const char *dev_null[] = { self->pl, "/dev/null", NULL };
	const char *dash_v[] = { self->pl, "-V:osname", NULL };
	const char *dash_e[] = { self->pl, "-e", "print qq(e\n)", NULL };
	const char *argv[] = { self->pl, empty, NULL };
	struct us_result r;

	us_run(&r, NULL, dev_null);
	EXPECT_PL_REFUSED(r, PL_REFUSED, "omayexec-perl: /dev/null: refused: ", "",
			  "refused: not a regular file: character device\n");
	us_run(&r, NULL, dash_v);
	EXPECT_PL_RAN(r, "osname='linux';\n");
	us_run(&r, NULL, dash_e);
	if (interp_deny_bit(&self->ix))
		EXPECT_PL_REFUSED(r, PL_REFUSED, "-e", "", BIT_TAG);
	else
		EXPECT_PL_RAN(r, "e\n");

	ASSERT_EQ(0, us_write_file(empty, "", 0755));
	us_run(&r, NULL, argv);
	if (interp_runs(&self->ix, true, true))
		EXPECT_PL_RAN(r, "");
	else
		EXPECT_PL_REFUSED(r, PL_REFUSED, empty, "", POLICY_WHY);
}

/* Perl's own names are the file's: $0, __FILE__, caller, %INC, warnings. */
TEST_F(perl, names_are_the_files)
{
	const char *script = omx_ws_path(&self->ix.ws, "exec/names.pl");
	const char *argv[] = { self->pl, script, NULL };
	char text[PATH_MAX * 2], want[PATH_MAX * 6];
	struct us_result r;

	ASSERT_EQ(0, us_write_file(omx_ws_path(&self->ix.ws, "exec/Named.pm"),
		"package Named;\nsub where { return (caller(0))[1] }\n"
		"warn \"warned\";\n1;\n", 0755));
	snprintf(text, sizeof(text),
		 "use lib '%s';\nuse Named;\n"
		 "print \"$0|\", __FILE__, \"|\", Named::where(), \"|$INC{'Named.pm'}\\n\";\n",
		 self->ix.exec_dir);
	ASSERT_EQ(0, us_write_file(script, text, 0755));
	us_run(&r, NULL, argv);
	snprintf(want, sizeof(want), "%s|%s|%s|%s/Named.pm\n", script, script,
		 script, self->ix.exec_dir);
	EXPECT_EQ(0, r.status) TH_LOG("stderr: %s", r.err);
	EXPECT_STREQ(want, r.out);
	snprintf(want, sizeof(want), "warned at %s/Named.pm line 3.\n",
		 self->ix.exec_dir);
	EXPECT_STREQ(want, r.err);
}

/*
 * Debian's perl itself: nothing checks, the script on the noexec mount
 * runs where the launcher refuses it (the mount policies).
 */
TEST_F(perl, plain_perl_runs_it_anyway)
{
	const char *argv[] = { REAL_PERL, omx_ws_path(&self->ix.ws, EVIL), NULL };
	struct us_result r;

	if (!(variant->policy & OMAYEXEC_ENFORCE_MOUNT))
		return;
	us_run(&r, NULL, argv);
	EXPECT_PL_RAN(r, "ran evil\n");
	EXPECT_TRUE(interp_marker_written(&self->ix));
}

/*
 * Every way a script makes Perl compile a file, each on a file on the
 * noexec mount (with the x bit): the script runs up to it, then the file
 * is refused before any of its code ran, or runs.
 */
struct compile_way {
	const char *name;
	const char *code;	/* %1$s: the noexec mount */
	const char *what;	/* the file the refusal names (%1$s as above) */
	const char *ran;	/* stdout after "before\n" when it runs */
	const char *refused;	/* stdout after "before\n" when refused,
				 * NULL: the script dies of it */
	bool in_lib;		/* run in noexec/lib */
};

static const struct compile_way compile_ways[] = {
	{ "use lib", "use lib '%1$s/lib';\nuse Evil;\n", "%1$s/lib/Evil.pm",
	  "ran Evil\nafter\n", NULL, false },
	{ "require NAME", "unshift @INC, '%1$s/lib';\nrequire Evil;\n",
	  "%1$s/lib/Evil.pm", "ran Evil\nafter\n", NULL, false },
	{ "require /abs", "require '%1$s/lib/evil.pl';\n", "%1$s/lib/evil.pl",
	  "ran evil.pl\nafter\n", NULL, false },
	{ "require ./rel", "require './evil.pl';\n", "./evil.pl",
	  "ran evil.pl\nafter\n", NULL, true },
	{ "do FILE", "my $r = do '%1$s/lib/evil.pl';\n"
	  "print defined $r ? \"did\\n\" : \"undef: $@\";\n",
	  "%1$s/lib/evil.pl", "ran evil.pl\ndid\nafter\n", "undef: ", false },
	{ "eval require", "eval { require '%1$s/lib/evil.pl' };\n"
	  "print $@ =~ /^omayexec-perl: .*refused/ ? \"caught\\n\" : \"none\\n\";\n",
	  "%1$s/lib/evil.pl", "ran evil.pl\nnone\nafter\n", "caught\nafter\n", false },
	{ "@INC hook's handle",
	  "unshift @INC, sub { return unless $_[1] eq 'Hooked.pm';\n"
	  "  open(my $fh, '<', '%1$s/lib/Evil.pm') or die; return $fh };\n"
	  "require Hooked;\n", "%1$s/lib/Evil.pm", "ran Evil\nafter\n", NULL, false },
};

TEST_F(perl, every_way_to_compile_a_file)
{
	char code[PATH_MAX * 4], text[PATH_MAX * 5], what[PATH_MAX], want[256];
	const char *script = omx_ws_path(&self->ix.ws, "exec/way.pl");
	const char *argv[] = { self->pl, script, NULL };
	struct us_opts opts = { .stdin_fd = -1 };
	bool runs = interp_runs(&self->ix, true, true);
	const struct compile_way *w;
	struct us_result r;
	size_t i;

	for (i = 0; i < sizeof(compile_ways) / sizeof(compile_ways[0]); i++) {
		w = &compile_ways[i];
		snprintf(code, sizeof(code), w->code, self->ix.noexec_dir);
		snprintf(text, sizeof(text),
			 "BEGIN { $| = 1; print \"before\\n\" }\n%sprint \"after\\n\";\n",
			 code);
		ASSERT_EQ(0, us_write_file(script, text, 0755));
		snprintf(what, sizeof(what), w->what, self->ix.noexec_dir);
		opts.cwd = w->in_lib ? omx_ws_path(&self->ix.ws, "noexec/lib") : NULL;
		unlink(self->ix.marker);
		us_run(&r, &opts, argv);
		TH_LOG("%s: exit %d", w->name, r.status);
		if (runs) {
			snprintf(want, sizeof(want), "before\n%s", w->ran);
			EXPECT_PL_RAN(r, want);
			continue;
		}
		EXPECT_FALSE(interp_marker_written(&self->ix)) TH_LOG("%s", w->name);
		if (!w->refused) {
			EXPECT_PL_DIED(r, what, "before\n");
			continue;
		}
		/* Caught: the line went to $@, the script went on. */
		EXPECT_EQ(0, r.status) TH_LOG("%s: %s", w->name, r.err);
		EXPECT_EQ(0, strncmp(r.out, "before\n", 7)) TH_LOG("%s", r.out);
		EXPECT_NE(NULL, strstr(r.out, w->refused)) TH_LOG("%s", r.out);
		if (!strcmp(w->name, "do FILE"))
			EXPECT_NE(NULL, strstr(r.out, POLICY_WHY)) TH_LOG("%s", r.out);
	}
}

/* An @INC hook's code from memory is the hook's own doing, like eval. */
TEST_F(perl, inc_hook_from_memory_runs)
{
	const char *script = omx_ws_path(&self->ix.ws, "exec/memhook.pl");
	const char *argv[] = { self->pl, script, NULL };
	struct us_result r;

	ASSERT_EQ(0, us_write_file(script,
		"unshift @INC, sub { return unless $_[1] eq 'Mem.pm';\n"
		"  my $code = qq(print qq(ran Mem\\\\n); 1;);\n"
		"  open(my $fh, '<', \\$code) or die; return $fh };\n"
		"require Mem;\nprint \"after\\n\";\n", 0755));
	us_run(&r, NULL, argv);
	EXPECT_PL_RAN(r, "ran Mem\nafter\n");
}

/* -M, PERL5OPT and -d:Module, before a script that passes. */
TEST_F(perl, modules_from_switches)
{
	char inc[PATH_MAX + 8], lib_env[PATH_MAX + 16], what[PATH_MAX + 32];
	const char *plain = omx_ws_path(&self->ix.ws, PLAIN);
	const char *dash_m[] = { self->pl, inc, "-MEvil", plain, NULL };
	const char *dash_d[] = { self->pl, inc, "-d:Evil", plain, NULL };
	const char *opt_argv[] = { self->pl, plain, NULL };
	const char *opt_env[] = { "PERL5OPT=-MEvil", lib_env, NULL };
	struct us_opts by_env = { .stdin_fd = -1, .env = opt_env };
	bool runs = interp_runs(&self->ix, true, true);
	struct us_result r;

	snprintf(inc, sizeof(inc), "-I%s/lib", self->ix.noexec_dir);
	snprintf(lib_env, sizeof(lib_env), "PERL5LIB=%s/lib", self->ix.noexec_dir);

	us_run(&r, NULL, dash_m);
	snprintf(what, sizeof(what), "%s/lib/Evil.pm", self->ix.noexec_dir);
	if (runs)
		EXPECT_PL_RAN(r, "ran Evil\nran plain\n");
	else
		EXPECT_PL_DIED(r, what, "");

	unlink(self->ix.marker);
	us_run(&r, &by_env, opt_argv);
	if (runs)
		EXPECT_PL_RAN(r, "ran Evil\nran plain\n");
	else
		EXPECT_PL_DIED(r, what, "");

	unlink(self->ix.marker);
	us_run(&r, NULL, dash_d);
	snprintf(what, sizeof(what), "%s/lib/Devel/Evil.pm", self->ix.noexec_dir);
	if (runs) {
		EXPECT_PL_RAN(r, "ran Devel::Evil\nran plain\n");
	} else {
		EXPECT_PL_DIED(r, what, "");
		EXPECT_FALSE(interp_marker_written(&self->ix));
	}
}

TEST_F(perl, dash_e)
{
	const char *code = "use POSIX (); print POSIX::floor(1.5), qq(\\n)";
	const char *plain[] = { self->pl, "-e", code, NULL };
	const char *big_e[] = { self->pl, "-E", "say 'E'", NULL };
	const char *big_e_option[] = { self->pl, DENY_OPTION, "-E", "say 'E'", NULL };
	const char *option[] = { self->pl, DENY_OPTION, "-e", code, NULL };
	const char *env_on[] = { "OMAYEXEC_DENY_INTERACTIVE=1", NULL };
	const char *env_off[] = { "OMAYEXEC_DENY_INTERACTIVE=0", NULL };
	struct us_opts by_env = { .stdin_fd = -1, .env = env_on };
	struct us_opts env_says_no = { .stdin_fd = -1, .env = env_off };
	struct us_result r;

	/* Without deny-interactive, -e runs whatever the policy. */
	us_run(&r, NULL, plain);
	if (interp_deny_bit(&self->ix))
		EXPECT_PL_REFUSED(r, PL_REFUSED, "-e", "", BIT_TAG);
	else
		EXPECT_PL_RAN(r, "1\n");
	/* -E is named -E, as given. */
	us_run(&r, NULL, big_e);
	if (interp_deny_bit(&self->ix))
		EXPECT_PL_REFUSED(r, PL_REFUSED, "omayexec-perl: -E: refused: ", "", BIT_TAG);
	else
		EXPECT_PL_RAN(r, "E\n");
	us_run(&r, NULL, big_e_option);
	EXPECT_PL_REFUSED(r, PL_REFUSED, "omayexec-perl: -E: refused: ", "",
			  "code given on the command line cannot be checked " OPTION_TAG);

	us_run(&r, NULL, option);
	EXPECT_PL_REFUSED(r, PL_REFUSED, "-e", "",
			  "code given on the command line cannot be checked " OPTION_TAG);

	us_run(&r, &by_env, plain);
	EXPECT_PL_REFUSED(r, PL_REFUSED, "-e", "", interp_deny_bit(&self->ix) ? BIT_TAG :
			  "(deny-interactive, asked for by OMAYEXEC_DENY_INTERACTIVE)\n");

	/* The administrator's file: the environment cannot turn it off. */
	ASSERT_EQ(0, us_conf_write("deny_interactive = yes\n", 0644, 0));
	us_run(&r, &env_says_no, plain);
	EXPECT_PL_REFUSED(r, PL_REFUSED, "-e", "",
			  "(deny-interactive, asked for by " US_CONF ")\n");
}

TEST_F(perl, stdin)
{
	static const struct interp_file files[] = {
		{ PLAIN, "ran plain\n", false, true },
		{ NX, "ran nx\n", false, false },
		{ EVIL, "ran evil\n", true, true },
	};
	const char *plain[] = { self->pl, NULL };
	const char *option[] = { self->pl, DENY_OPTION, "-", NULL };
	struct us_opts opts = { .stdin_fd = -1 };
	struct us_result r;
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		bool passes = interp_runs(&self->ix, files[i].noexec_mount, files[i].exec_bit) &&
			      (!self->ix.check ||
			       (files[i].exec_bit && !files[i].noexec_mount));

		opts.stdin_fd = openat(self->ix.ws.dirfd, files[i].rel,
				       O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, opts.stdin_fd);

		/* Without deny-interactive, any file on stdin runs. */
		unlink(self->ix.marker);
		us_run(&r, &opts, plain);
		if (!interp_deny_bit(&self->ix) || passes)
			EXPECT_PL_RAN(r, files[i].out);
		else
			EXPECT_PL_REFUSED(r, PL_REFUSED, "standard input", "",
					  BIT_TAG);

		/*
		 * With it, standard input must pass every check the kernel
		 * makes, enforced or not: the policy, and execveat's
		 * AT_EXECVE_CHECK where the module answers it.
		 */
		unlink(self->ix.marker);
		ASSERT_EQ(0, lseek(opts.stdin_fd, 0, SEEK_SET));
		us_run(&r, &opts, option);
		TH_LOG("- < %s: exit %d", files[i].rel, r.status);
		if (passes) {
			EXPECT_PL_RAN(r, files[i].out);
		} else {
			EXPECT_PL_REFUSED(r, PL_REFUSED, "standard input", "",
					  OPTION_TAG);
			EXPECT_FALSE(interp_marker_written(&self->ix));
		}
		close(opts.stdin_fd);
	}

	/* A pipe is never a checked file: refused with deny-interactive only. */
	opts.stdin_fd = us_pipe_with("print 'p';\n\n");
	ASSERT_LE(0, opts.stdin_fd);
	us_run(&r, &opts, option);
	EXPECT_PL_REFUSED(r, PL_REFUSED, "standard input", "",
			  "refused: not a regular file: FIFO " OPTION_TAG);
	close(opts.stdin_fd);

	opts.stdin_fd = us_pipe_with("print 'p';\n\n");
	ASSERT_LE(0, opts.stdin_fd);
	us_run(&r, &opts, plain);
	if (interp_deny_bit(&self->ix))
		EXPECT_PL_REFUSED(r, PL_REFUSED, "standard input", "",
				  "refused: not a regular file: FIFO " BIT_TAG);
	else
		EXPECT_PL_RAN(r, "p");
	close(opts.stdin_fd);
}

/*
 * The debugger: perl5db.pl is a file like any other (judged; under the
 * file policy it has the remedy's x bit), and with NonStop it runs the
 * script without prompting; its prompt is refused with deny-interactive,
 * before anything is compiled.
 */
TEST_F(perl, debugger)
{
	const char *plain = omx_ws_path(&self->ix.ws, PLAIN);
	const char *argv[] = { self->pl, "-d", plain, NULL };
	const char *option[] = { self->pl, DENY_OPTION, "-d", plain, NULL };
	const char *env[] = { "PERLDB_OPTS=NonStop=1 noTTY=1", NULL };
	struct us_opts opts = { .stdin_fd = -1, .env = env };
	struct us_result r;

	us_run(&r, &opts, argv);
	if (interp_deny_bit(&self->ix)) {
		EXPECT_PL_REFUSED(r, PL_REFUSED, "-d", "", "debugger");
	} else {
		EXPECT_EQ(0, r.status) TH_LOG("stderr: %s", r.err);
		EXPECT_STREQ("ran plain\n", r.out);
	}
	us_run(&r, &opts, option);
	EXPECT_PL_REFUSED(r, PL_REFUSED, "-d", "", "debugger");
}

/* ---- Debian's modules under the file policy ------------------------------ */

FIXTURE(perl_stdlib) {
	struct omx_ws ws;
	char pl[PATH_MAX];
};

FIXTURE_SETUP(perl_stdlib)
{
	ASSERT_FALSE(access(US_CONF, F_OK) == 0 && !us_conf_is_ours())
		TH_LOG("%s exists: not overwriting it", US_CONF);
	us_conf_remove();
	snprintf(self->pl, sizeof(self->pl), "%s", us_bin("omayexec-perl"));
	ASSERT_EQ(0, access(self->pl, X_OK)) TH_LOG("%s", self->pl);
	ASSERT_EQ(0, omx_policy_set(0));
	ASSERT_EQ(0, omx_ws_create(&self->ws));
	ASSERT_EQ(0, us_write_file(omx_ws_path(&self->ws, "strict.pl"),
				   "use strict;\nprint \"ran strict\\n\";\n", 0755));
	ASSERT_LE(0, stdlib_save_modes());
}

FIXTURE_TEARDOWN(perl_stdlib)
{
	EXPECT_EQ(0, omx_policy_set(0));
	EXPECT_EQ(0, stdlib_restore_modes());
	EXPECT_EQ(0, omx_ws_destroy(&self->ws));
}

TEST_F(perl_stdlib, refused_then_remedied)
{
	const char *argv[] = { self->pl, omx_ws_path(&self->ws, "strict.pl"), NULL };
	const char *check[] = { us_bin("omayexec-perl-allow-stdlib"), "--check", NULL };
	struct us_result r;

	ASSERT_EQ(0, omx_policy_set(OMAYEXEC_ENFORCE_FILE));
	/*
	 * Perl's own strict.pm refused: one line with what decided and what
	 * to do (not Perl's "BEGIN failed" lines), the status of a refusal.
	 */
	us_run(&r, NULL, argv);
	EXPECT_PL_REFUSED(r, PL_REFUSED, "/strict.pm", "",
			  ": refused: no exec permission for uid 0 (decided by the module's policy, fs.open_mayexec_enforce = file); Perl's own modules need the x bit: run omayexec-perl-allow-stdlib as root (see omayexec-perl(1))\n");
	us_run(&r, NULL, check);
	EXPECT_EQ(1, r.status) TH_LOG("%s", r.out);

	ASSERT_EQ(0, run_remedy(&r)) TH_LOG("%s", r.err);
	us_run(&r, NULL, check);
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.out);
	us_run(&r, NULL, argv);
	EXPECT_PL_RAN(r, "ran strict\n");
}

TEST_HARNESS_MAIN
