// SPDX-License-Identifier: GPL-2.0
/*
 * omayexec.so, the extension for Debian's PHP, end to end in the VM with
 * Debian's php8.X CLI (started with -n, so that only the -d settings of a
 * test apply), under each policy (0-3), and with SECBIT_EXEC_RESTRICT_FILE
 * or SECBIT_EXEC_DENY_INTERACTIVE on the test:
 * - the main script on an exec mount runs; the same on a noexec mount, or
 *   without the x bit under the file policy, is refused before any of it
 *   runs (one line on stderr that names the remedy, exit 126, the marker
 *   never written); PHP without the extension runs it anyway (the threat);
 * - every way PHP compiles a file, each on a file on the noexec mount
 *   (with the x bit): include, require, include_once, require_once with
 *   an absolute path, include with a relative one and through
 *   include_path, auto_prepend_file: the script runs up to it, then ends
 *   126 with the line, or the file runs;
 * - OPcache on for the CLI: a file cached while it was allowed, then made
 *   0644, is refused when it is included again from the cache;
 * - a file in a phar archive on the noexec mount is judged as the archive;
 * - an include of a FIFO is refused at once, not waited on; an include of
 *   data:// has no file to judge and is refused;
 * - -r, -R, -a (the readline shell), eval() and standard input (a pipe, a file) with and without
 *   deny-interactive (the ini setting omayexec.deny_interactive,
 *   OMAYEXEC_DENY_INTERACTIVE=1, the securebit).
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

#include "omx_test.h"
#include "interp_fixture.h"

#define PHP_REFUSED	126
/* Debian's PHP CLI: the real binary (/usr/bin/php is an alternative). */
#define REAL_PHP_GLOB	"/usr/bin/php"
#define POLICY_WHY	(variant->bits & SECBIT_EXEC_RESTRICT_FILE ?	\
	"(decided by the exec securebit SECBIT_EXEC_RESTRICT_FILE)" :	\
	"(decided by the module's policy, fs.open_mayexec_enforce = ")
#define INI_TAG		"(deny-interactive, asked for by omayexec.deny_interactive)\n"
#define ENV_TAG		"(deny-interactive, asked for by OMAYEXEC_DENY_INTERACTIVE)\n"
#define BIT_TAG		"(deny-interactive, asked for by the exec securebit SECBIT_EXEC_DENY_INTERACTIVE)\n"
#define STRING_WHY	"refused: code given as a string cannot be checked "

#define EXPECT_PHP_REFUSED(r, what, out_before, why) \
	US_EXPECT_REFUSED(r, PHP_REFUSED, "omayexec-php", what, out_before, why)
#define EXPECT_PHP_RAN(r, out_want)	US_EXPECT_RAN(r, out_want)

FIXTURE(php) {
	struct interp_fx ix;	/* the shared workspace, policy, oracle */
	char php[PATH_MAX];
	char ext[PATH_MAX + 16];	/* "extension=/.../omayexec.so" */
};

INTERP_VARIANTS(php);

/* The files, relative to the workspace. */
#define GOOD		"exec/good.php"		/* 0755, exec mount */
#define NX		"exec/nx.php"		/* 0644, exec mount */
#define EVIL		"noexec/evil.php"	/* 0755, noexec mount */

/* The CLI of Debian's PHP: /usr/bin/php8.X, the newest there is. */
static int find_php(char *buf, size_t len)
{
	char name[32];
	int minor;

	for (minor = 9; minor >= 0; minor--) {
		snprintf(name, sizeof(name), REAL_PHP_GLOB "8.%d", minor);
		if (!access(name, X_OK)) {
			snprintf(buf, len, "%s", name);
			return 0;
		}
	}
	return -1;
}

/* PHP code that writes the marker first, then prints "ran NAME". */
static void evil_code(char *buf, size_t len, const char *marker,
		      const char *name)
{
	snprintf(buf, len,
		 "<?php\nfile_put_contents('%s', 'x');\necho \"ran %s\\n\";\n",
		 marker, name);
}

FIXTURE_SETUP(php)
{
	struct omx_ws *ws = &self->ix.ws;
	char text[PATH_MAX * 2];
	const char *ext;

	if (find_php(self->php, sizeof(self->php)))
		SKIP(return, "no " REAL_PHP_GLOB "8.X here");
	ext = us_bin("php/omayexec.so");
	ASSERT_EQ(0, access(ext, R_OK)) TH_LOG("%s", ext);
	snprintf(self->ext, sizeof(self->ext), "extension=%s", ext);
	interp_setup(_metadata, &self->ix, variant->policy, variant->bits);

	ASSERT_EQ(0, us_write_file(omx_ws_path(ws, GOOD),
		"<?php\necho 'ran good ', floor(2.5), \"\\n\";\n", 0755));
	ASSERT_EQ(0, us_write_file(omx_ws_path(ws, NX),
		"<?php\necho \"ran nx\\n\";\n", 0644));
	evil_code(text, sizeof(text), self->ix.marker, "evil");
	ASSERT_EQ(0, us_write_file(omx_ws_path(ws, EVIL), text, 0755));

	/* PHP's own code is not judged: no library to give the x bit. */
	if (!interp_enforce(_metadata, &self->ix, NULL))
		SKIP(return, "no exec securebits here: %s", strerror(errno));
}

FIXTURE_TEARDOWN(php)
{
	interp_teardown(_metadata, &self->ix);
}

/*
 * Run PHP with the extension: "php -n -d extension=... ARGS...", @args
 * NULL-terminated (at most 12).
 */
static int run_php(struct us_result *r, const struct us_opts *opts,
		   const char *php, const char *ext, const char *const *args)
{
	const char *argv[20] = { php, "-n", "-d", ext };
	int n = 4, i;

	for (i = 0; args[i] && i < 12; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	return us_run(r, opts, argv);
}

TEST_F(php, script)
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
		const char *args[] = { path, "arg", NULL };

		unlink(self->ix.marker);
		run_php(&r, NULL, self->php, self->ext, args);
		TH_LOG("%s: exit %d", scripts[i].rel, r.status);
		if (interp_runs(&self->ix, scripts[i].noexec_mount, scripts[i].exec_bit)) {
			EXPECT_PHP_RAN(r, scripts[i].out);
		} else {
			EXPECT_PHP_REFUSED(r, path, "", POLICY_WHY);
			/* The user's own script: what to do, in the line. */
			EXPECT_PHP_REFUSED(r, path, "",
					   interp_remedy(&self->ix, scripts[i].noexec_mount,
							 scripts[i].exec_bit));
			EXPECT_FALSE(interp_marker_written(&self->ix));
		}
	}
}

/* PHP without the extension: the file on the noexec mount runs. */
TEST_F(php, plain_php_runs_it_anyway)
{
	const char *argv[] = { self->php, "-n", omx_ws_path(&self->ix.ws, EVIL), NULL };
	struct us_result r;

	if (!(variant->policy & OMAYEXEC_ENFORCE_MOUNT))
		return;
	us_run(&r, NULL, argv);
	EXPECT_PHP_RAN(r, "ran evil\n");
	EXPECT_TRUE(interp_marker_written(&self->ix));
}

/*
 * Every way a script makes PHP compile a file, each on the file on the
 * noexec mount (with the x bit).
 */
struct compile_way {
	const char *name;
	const char *code;	/* %1$s: the noexec mount */
	const char *ini;	/* a -d setting (%1$s as above), or NULL */
	bool in_noexec;		/* run with the noexec mount as cwd */
	bool first;		/* the file runs before the script */
};

static const struct compile_way compile_ways[] = {
	{ .name = "include /abs", .code = "include '%1$s/evil.php';\n" },
	{ .name = "require /abs", .code = "require '%1$s/evil.php';\n" },
	{ .name = "include_once /abs", .code = "include_once '%1$s/evil.php';\n" },
	{ .name = "require_once /abs", .code = "require_once '%1$s/evil.php';\n" },
	{ .name = "include relative", .code = "include 'evil.php';\n",
	  .in_noexec = true },
	{ .name = "include_path", .code = "include 'evil.php';\n",
	  .ini = "include_path=.:%1$s" },
	{ .name = "auto_prepend_file", .code = "",
	  .ini = "auto_prepend_file=%1$s/evil.php", .first = true },
};

TEST_F(php, every_way_to_compile_a_file)
{
	char code[PATH_MAX * 2], text[PATH_MAX * 3], ini[PATH_MAX * 2];
	char what[PATH_MAX + 16], want[256];
	const char *script = omx_ws_path(&self->ix.ws, "exec/way.php");
	struct us_opts opts = { .stdin_fd = -1 };
	bool runs = interp_runs(&self->ix, true, true);
	const struct compile_way *w;
	struct us_result r;
	size_t i;

	snprintf(what, sizeof(what), "%s/evil.php", self->ix.noexec_dir);
	for (i = 0; i < sizeof(compile_ways) / sizeof(compile_ways[0]); i++) {
		const char *with_ini[] = { "-d", ini, script, NULL };
		const char *plain[] = { script, NULL };

		w = &compile_ways[i];
		snprintf(code, sizeof(code), w->code, self->ix.noexec_dir);
		snprintf(text, sizeof(text),
			 "<?php\necho \"before\\n\";\n%secho \"after\\n\";\n", code);
		ASSERT_EQ(0, us_write_file(script, text, 0755));
		if (w->ini)
			snprintf(ini, sizeof(ini), w->ini, self->ix.noexec_dir);
		opts.cwd = w->in_noexec ? self->ix.noexec_dir : NULL;
		unlink(self->ix.marker);
		run_php(&r, &opts, self->php, self->ext, w->ini ? with_ini : plain);
		TH_LOG("%s: exit %d", w->name, r.status);
		if (runs) {
			snprintf(want, sizeof(want), w->first ?
				 "ran evil\nbefore\nafter\n" :
				 "before\nran evil\nafter\n");
			EXPECT_PHP_RAN(r, want);
			continue;
		}
		EXPECT_FALSE(interp_marker_written(&self->ix)) TH_LOG("%s", w->name);
		EXPECT_PHP_REFUSED(r, what, w->first ? "" : "before\n", POLICY_WHY);
	}
}

/*
 * OPcache on for the CLI: the file is included while it is allowed (and
 * cached), then loses its x bit and is included again.  OPcache would
 * serve it from its cache without reading it; the extension's hook is
 * outside OPcache's, so the file is judged again: refused under the file
 * policy.  The script says whether the file was in the cache (OPcache
 * caches no file changed in the last file_update_protection seconds: 0).
 */
TEST_F(php, opcache_hit_is_judged)
{
	const char *cached = omx_ws_path(&self->ix.ws, "exec/cached.php");
	const char *script = omx_ws_path(&self->ix.ws, "exec/opcache.php");
	const char *args[] = { "-d", "zend_extension=opcache.so", "-d",
			       "opcache.enable_cli=1", "-d",
			       "opcache.file_update_protection=0", script, NULL };
	bool file_policy = interp_file_policy(&self->ix);
	char text[PATH_MAX * 4];
	struct us_result r;

	ASSERT_EQ(0, us_write_file(cached, "<?php\necho \"ran cached\\n\";\n", 0755));
	snprintf(text, sizeof(text),
		 "<?php\ninclude '%1$s';\nchmod('%1$s', 0644);\nclearstatcache();\n"
		 "$s = opcache_get_status(true);\n"
		 "echo isset($s['scripts']['%1$s']) ? \"cached\\n\" : \"not cached\\n\";\n"
		 "include '%1$s';\necho \"after\\n\";\n", cached);
	ASSERT_EQ(0, us_write_file(script, text, 0755));
	run_php(&r, NULL, self->php, self->ext, args);
	if (!file_policy) {
		EXPECT_PHP_RAN(r, "ran cached\ncached\nran cached\nafter\n");
		return;
	}
	EXPECT_PHP_REFUSED(r, cached, "ran cached\ncached\n", POLICY_WHY);
	EXPECT_NE(NULL, strstr(r.err, "no exec permission")) TH_LOG("%s", r.err);
}

/*
 * A phar archive on the noexec mount (with the x bit), made by PHP
 * without the extension: an include of a file in it through phar:// is
 * judged as the archive (by its name), refused or run as the policy says.
 */
TEST_F(php, phar_is_judged_as_its_archive)
{
	const char *maker = omx_ws_path(&self->ix.ws, "exec/mkphar.php");
	const char *script = omx_ws_path(&self->ix.ws, "exec/phar.php");
	const char *make[] = { self->php, "-n", "-d", "extension=phar.so", "-d",
			       "phar.readonly=0", maker, NULL };
	const char *args[] = { "-d", "extension=phar.so", script, NULL };
	char text[PATH_MAX * 4], what[PATH_MAX + 32];
	struct us_result r;

	snprintf(text, sizeof(text),
		 "<?php\n$p = new Phar('%1$s/app.phar');\n"
		 "$p['lib.php'] = '<?php file_put_contents(\\'%2$s\\', \\'x\\'); echo \"ran lib\\\\n\";';\n"
		 "$p->setStub('<?php __HALT_COMPILER();');\n", self->ix.noexec_dir,
		 self->ix.marker);
	ASSERT_EQ(0, us_write_file(maker, text, 0755));
	us_run(&r, NULL, make);
	ASSERT_EQ(0, r.status) TH_LOG("%s%s", r.out, r.err);
	ASSERT_EQ(0, chmod(omx_ws_path(&self->ix.ws, "noexec/app.phar"), 0755));
	snprintf(what, sizeof(what), "phar://%s/app.phar/lib.php", self->ix.noexec_dir);
	snprintf(text, sizeof(text),
		 "<?php\necho \"before\\n\";\ninclude '%s';\necho \"after\\n\";\n", what);
	ASSERT_EQ(0, us_write_file(script, text, 0755));
	unlink(self->ix.marker);
	run_php(&r, NULL, self->php, self->ext, args);
	if (interp_runs(&self->ix, true, true)) {
		EXPECT_PHP_RAN(r, "before\nran lib\nafter\n");
		return;
	}
	EXPECT_PHP_REFUSED(r, what, "before\n", "noexec mount: ");
	EXPECT_FALSE(interp_marker_written(&self->ix));
}

/* A FIFO found by include: refused at once in every variant. */
TEST_F(php, fifo_answers_at_once)
{
	struct us_opts opts = { .stdin_fd = -1, .alarm = 10 };
	const char *fifo = omx_ws_path(&self->ix.ws, "exec/fifo.php");
	const char *script = omx_ws_path(&self->ix.ws, "exec/include-fifo.php");
	const char *args[] = { script, NULL };
	char text[PATH_MAX * 2];
	struct us_result r;

	ASSERT_EQ(0, mkfifo(fifo, 0755));
	snprintf(text, sizeof(text),
		 "<?php\necho \"before\\n\";\ninclude '%s';\necho \"after\\n\";\n", fifo);
	ASSERT_EQ(0, us_write_file(script, text, 0755));
	run_php(&r, &opts, self->php, self->ext, args);
	EXPECT_PHP_REFUSED(r, fifo, "before\n", "refused: not a regular file: FIFO\n");
}

/* data:// (with allow_url_include) ends in no file: refused in every variant. */
TEST_F(php, no_local_file_is_refused)
{
	const char *script = omx_ws_path(&self->ix.ws, "exec/data.php");
	const char *args[] = { "-d", "allow_url_include=1", "-d",
			       "error_reporting=0", script, NULL };
	struct us_result r;

	ASSERT_EQ(0, us_write_file(script,
		"<?php\necho \"before\\n\";\n"
		"include 'data://text/plain;base64,PD9waHAgZWNobyAicmFuIGRhdGFcbiI7';\n"
		"echo \"after\\n\";\n", 0755));
	run_php(&r, NULL, self->php, self->ext, args);
	EXPECT_PHP_REFUSED(r, "data://", "before\n",
			   "refused: not a local file: no file the kernel could check\n");
}

/* Code given as a string: -r, -R, eval(); the interactive shell. */
TEST_F(php, strings_of_code)
{
	const char *eval_script = omx_ws_path(&self->ix.ws, "exec/eval.php");
	const char *dash_r[] = { "-r", "echo \"ran r\\n\";", NULL };
	const char *dash_r_ini[] = { "-d", "omayexec.deny_interactive=1", "-r",
				     "echo \"ran r\\n\";", NULL };
	const char *dash_big_r[] = { "-d", "omayexec.deny_interactive=1", "-R",
				     "echo \"ran R\\n\";", NULL };
	const char *eval_ini[] = { "-d", "omayexec.deny_interactive=1",
				   eval_script, NULL };
	const char *eval_plain[] = { eval_script, NULL };
	const char *dash_a[] = { "-d", "extension=readline.so", "-a", NULL };
	const char *dash_a_ini[] = { "-d", "extension=readline.so", "-d",
				     "omayexec.deny_interactive=1", "-a", NULL };
	const char *env[] = { "OMAYEXEC_DENY_INTERACTIVE=1", NULL };
	struct us_opts by_env = { .stdin_fd = -1, .env = env };
	int in = us_pipe_with("line\n");
	struct us_opts piped = { .stdin_fd = in };
	struct us_result r;

	ASSERT_LE(0, in);
	ASSERT_EQ(0, us_write_file(eval_script,
		"<?php\necho \"before\\n\";\neval('echo \"ran eval\\n\";');\n"
		"echo \"after\\n\";\n", 0755));

	run_php(&r, NULL, self->php, self->ext, dash_r);
	if (interp_deny_bit(&self->ix))
		EXPECT_PHP_REFUSED(r, "Command line code", "", STRING_WHY BIT_TAG);
	else
		EXPECT_PHP_RAN(r, "ran r\n");
	run_php(&r, &by_env, self->php, self->ext, dash_r);
	EXPECT_PHP_REFUSED(r, "Command line code", "", STRING_WHY);
	run_php(&r, NULL, self->php, self->ext, dash_r_ini);
	EXPECT_PHP_REFUSED(r, "Command line code", "", STRING_WHY INI_TAG);
	run_php(&r, &piped, self->php, self->ext, dash_big_r);
	EXPECT_PHP_REFUSED(r, "Command line run code", "", STRING_WHY INI_TAG);
	close(in);

	/* The interactive shell (readline's): refused before it prompts. */
	in = us_pipe_with("echo \"ran a\\n\";\n");
	ASSERT_LE(0, in);
	piped.stdin_fd = in;
	run_php(&r, &piped, self->php, self->ext, dash_a);
	close(in);
	if (interp_deny_bit(&self->ix)) {
		EXPECT_PHP_REFUSED(r, "interactive shell", "Interactive shell\n\n",
				   "refused: code typed at a prompt cannot be checked " BIT_TAG);
	} else {
		/* libedit may say on stderr that the guest has no termcap. */
		EXPECT_EQ(0, r.status) TH_LOG("stderr: %s", r.err);
		EXPECT_STREQ("Interactive shell\n\nran a\n", r.out);
	}
	in = us_pipe_with("echo \"ran a\\n\";\n");
	ASSERT_LE(0, in);
	piped.stdin_fd = in;
	run_php(&r, &piped, self->php, self->ext, dash_a_ini);
	close(in);
	EXPECT_PHP_REFUSED(r, "interactive shell", "Interactive shell\n\n",
			   "refused: code typed at a prompt cannot be checked " INI_TAG);

	run_php(&r, NULL, self->php, self->ext, eval_plain);
	if (interp_deny_bit(&self->ix))
		EXPECT_PHP_REFUSED(r, "eval()'d code", "before\n", STRING_WHY BIT_TAG);
	else
		EXPECT_PHP_RAN(r, "before\nran eval\nafter\n");
	run_php(&r, NULL, self->php, self->ext, eval_ini);
	EXPECT_PHP_REFUSED(r, "eval()'d code", "before\n", STRING_WHY INI_TAG);
}

/*
 * Standard input as the main script: a pipe runs without deny-interactive
 * and is refused with it; a file runs with it only when it passes every
 * check the kernel makes, enforced or not: the policy, and execveat's
 * AT_EXECVE_CHECK where the module answers it.
 */
TEST_F(php, standard_input)
{
	const char *deny[] = { "-d", "omayexec.deny_interactive=1", NULL };
	const char *none[] = { NULL };
	static const struct interp_file files[] = {
		{ GOOD, "ran good 2\n", false, true },
		{ NX, "ran nx\n", false, false },
		{ EVIL, "ran evil\n", true, true },
	};
	struct us_opts opts = { .stdin_fd = -1 };
	struct us_result r;
	size_t i;

	opts.stdin_fd = us_pipe_with("<?php echo \"ran stdin\\n\";\n");
	ASSERT_LE(0, opts.stdin_fd);
	run_php(&r, &opts, self->php, self->ext, none);
	close(opts.stdin_fd);
	if (interp_deny_bit(&self->ix))
		EXPECT_PHP_REFUSED(r, "standard input", "", "not a regular file: FIFO " BIT_TAG);
	else
		EXPECT_PHP_RAN(r, "ran stdin\n");

	opts.stdin_fd = us_pipe_with("<?php echo \"ran stdin\\n\";\n");
	ASSERT_LE(0, opts.stdin_fd);
	run_php(&r, &opts, self->php, self->ext, deny);
	close(opts.stdin_fd);
	EXPECT_PHP_REFUSED(r, "standard input", "", "not a regular file: FIFO " INI_TAG);

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		bool passes = interp_runs(&self->ix, files[i].noexec_mount, files[i].exec_bit) &&
			      (!self->ix.check ||
			       (files[i].exec_bit && !files[i].noexec_mount));

		opts.stdin_fd = openat(self->ix.ws.dirfd, files[i].rel,
				       O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, opts.stdin_fd);
		unlink(self->ix.marker);
		run_php(&r, &opts, self->php, self->ext, deny);
		close(opts.stdin_fd);
		TH_LOG("< %s: exit %d", files[i].rel, r.status);
		if (passes) {
			EXPECT_PHP_RAN(r, files[i].out);
		} else {
			EXPECT_PHP_REFUSED(r, "standard input", "", INI_TAG);
			EXPECT_FALSE(interp_marker_written(&self->ix));
		}
	}
}

TEST_HARNESS_MAIN
