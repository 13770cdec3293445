// SPDX-License-Identifier: GPL-2.0
/*
 * omayexec-python3, Debian's CPython 3.11 with libomayexec, end to end in
 * the VM with Debian's standard library, under each policy (0-3):
 * - a script on an exec mount runs (it imports the standard library); the
 *   same on a noexec mount, or without the x bit under the file policy,
 *   is refused before any of it runs (one line on stderr that names the
 *   remedy, exit 126, its
 *   marker file never written); Debian's own python3.11 runs it anyway
 *   (the gap the launcher closes); a .pyc given as the script too;
 * - import of a module (.py, and a bare .pyc) from a noexec directory on
 *   sys.path fails with one line, after the importing script ran up to
 *   the import; from the exec mount it works;
 * - -m of an allowed and of a refused module;
 * - -c and standard input (a file, a pipe) with and without
 *   deny-interactive (standard input then runs only when it is a file
 *   that passes the policy and execveat's AT_EXECVE_CHECK), asked by
 *   -X omayexec-deny-interactive, by
 *   OMAYEXEC_DENY_INTERACTIVE=1, or by /etc/omayexec.conf (which the
 *   environment cannot turn off).
 * Under the file policy (2, 3) the fixture first gives the standard
 * library the x bit as the documented remedy
 * (omayexec-python3-allow-stdlib) does, and takes it back afterwards: the
 * python_stdlib fixture shows the standard library refused without it,
 * as omayexec check reports, and the remedy itself working.  The interactive
 * prompt (a terminal on standard input; -i, PYTHONINSPECT, PYTHONSTARTUP)
 * is in the python_prompt fixture: it runs what is typed without the
 * option, and is refused with it, after the script when there is one,
 * and without CPython's banner before the one line.  The fixture is the
 * interpreters' shared one (lib/interp_fixture.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "omx_test.h"
#include "interp_fixture.h"

#define PY_REFUSED	126
/* Every refusal here is the module's policy's (no securebit, best effort). */
#define POLICY_WHY	"(decided by the module's policy, fs.open_mayexec_enforce = "
#define OPTION_TAG	"(deny-interactive, asked for by -X omayexec-deny-interactive)\n"
#define DENY_OPTION	"-X", "omayexec-deny-interactive"
#define NO_PYC		"PYTHONDONTWRITEBYTECODE=1"

/* ---- The standard library's modes, changed by the remedy and restored -- */

/* The directories omayexec-python3-allow-stdlib works on by default. */
static const char *const stdlib_dirs[] = {
	"/usr/lib/python3.11", "/usr/lib/python3/dist-packages",
	"/usr/local/lib/python3.11/dist-packages", "/etc/python3.11", NULL,
};
static const char *const code_ends[] = { ".py", ".pyc", ".pth", NULL };

static long stdlib_save_modes(void)
{
	return cm_save(stdlib_dirs, code_ends);
}

static int stdlib_restore_modes(void)
{
	return cm_restore();
}

/* The documented remedy, as the administrator runs it. */
static int run_remedy(struct us_result *r)
{
	const char *argv[] = { us_bin("omayexec-python3-allow-stdlib"),
			       "--quiet", NULL };

	return us_run(r, NULL, argv);
}

/* ---- Results ---------------------------------------------------------- */

/*
 * A refusal by the launcher: exit @status, @out_before on stdout, one line
 * on stderr naming @what, with "refused" and @why.
 */
#define EXPECT_PY_REFUSED(r, status_, what, out_before, why) \
	US_EXPECT_REFUSED(r, status_, "omayexec-python3", what, out_before, why)

#define EXPECT_PY_RAN(r, out_want)	US_EXPECT_RAN(r, out_want)

/* ---- The fixture --------------------------------------------------------- */

FIXTURE(python) {
	struct interp_fx ix;	/* the shared workspace, policy, oracle */
	char py[PATH_MAX];
	char path_env[PATH_MAX + 16], noexec_path_env[PATH_MAX + 16];
};

INTERP_POLICY_VARIANTS(python);

/* The files, relative to the workspace. */
#define GOOD		"exec/good.py"		/* 0755, exec mount */
#define NX		"exec/nx.py"		/* 0644, exec mount */
#define EVIL		"noexec/evil.py"	/* 0755, noexec mount */
#define EVIL_PYC	"noexec/evilpyc.pyc"	/* a .pyc script, noexec */
#define IMPORTER	"exec/importer.py"	/* imports evilmod from noexec */
#define PYC_IMPORTER	"exec/pyc-importer.py"	/* imports the bare evilc.pyc */

/* Code that writes the marker, then prints "ran NAME". */
static void evil_code(char *buf, size_t len, const char *marker,
		      const char *name)
{
	snprintf(buf, len, "open(%s%s%s, 'w').write('x')\nprint('ran %s')\n",
		 "'", marker, "'", name);
}

FIXTURE_SETUP(python)
{
	struct omx_ws *ws = &self->ix.ws;
	struct us_result r;
	char text[PATH_MAX * 5];

	snprintf(self->py, sizeof(self->py), "%s", us_bin("omayexec-python3"));
	ASSERT_EQ(0, access(self->py, X_OK)) TH_LOG("%s", self->py);
	interp_setup(_metadata, &self->ix, variant->policy, variant->bits);
	snprintf(self->path_env, sizeof(self->path_env), "PYTHONPATH=%s",
		 self->ix.exec_dir);
	snprintf(self->noexec_path_env, sizeof(self->noexec_path_env),
		 "PYTHONPATH=%s", self->ix.noexec_dir);

	/* The standard library is imported by every script. */
	ASSERT_EQ(0, us_write_file(omx_ws_path(ws, GOOD),
		"import json, os\nprint('ran good', json.dumps([os.sep]))\n", 0755));
	ASSERT_EQ(0, us_write_file(omx_ws_path(ws, NX), "print('ran nx')\n", 0644));
	evil_code(text, sizeof(text), self->ix.marker, "evil");
	ASSERT_EQ(0, us_write_file(omx_ws_path(ws, EVIL), text, 0755));
	evil_code(text, sizeof(text), self->ix.marker, "evilmod");
	ASSERT_EQ(0, us_write_file(omx_ws_path(ws, "noexec/evilmod.py"), text, 0755));
	ASSERT_EQ(0, us_write_file(omx_ws_path(ws, "exec/goodmod.py"),
				   "print('ran goodmod')\n", 0755));
	snprintf(text, sizeof(text),
		 "import sys\nsys.path.insert(0, '%s')\nprint('before')\n"
		 "import evilmod\nprint('after')\n", self->ix.noexec_dir);
	ASSERT_EQ(0, us_write_file(omx_ws_path(ws, IMPORTER), text, 0755));
	snprintf(text, sizeof(text),
		 "import sys\nsys.path.insert(0, '%s')\nprint('before')\n"
		 "import evilc\nprint('after')\n", self->ix.noexec_dir);
	ASSERT_EQ(0, us_write_file(omx_ws_path(ws, PYC_IMPORTER), text, 0755));

	/*
	 * The .pyc files, compiled by the launcher itself at policy 0: a
	 * script (evilpyc.pyc) and a module without its source (evilc.pyc,
	 * imported by SourcelessFileLoader).
	 */
	evil_code(text, sizeof(text), self->ix.marker, "evilc");
	ASSERT_EQ(0, us_write_file(omx_ws_path(ws, "exec/evilc.py"), text, 0644));
	snprintf(text, sizeof(text),
		 "import py_compile\n"
		 "py_compile.compile('%s/evilc.py', cfile='%s/evilc.pyc', doraise=True)\n"
		 "py_compile.compile('%s/evil.py', cfile='%s/evilpyc.pyc', doraise=True)\n",
		 self->ix.exec_dir, self->ix.noexec_dir, self->ix.noexec_dir, self->ix.noexec_dir);
	{
		const char *argv[] = { self->py, "-c", text, NULL };

		us_run(&r, NULL, argv);
		ASSERT_EQ(0, r.status) TH_LOG("py_compile: %s", r.err);
	}
	ASSERT_EQ(0, chmod(omx_ws_path(ws, "noexec/evilc.pyc"), 0755));
	ASSERT_EQ(0, chmod(omx_ws_path(ws, EVIL_PYC), 0755));
	ASSERT_EQ(0, unlink(omx_ws_path(ws, "exec/evilc.py")));

	/*
	 * The file policy needs the remedy's x bits, or nothing of Python
	 * runs (python_stdlib runs the remedy itself).
	 */
	ASSERT_TRUE(interp_enforce(_metadata, &self->ix, stdlib_save_modes));
}

FIXTURE_TEARDOWN(python)
{
	interp_teardown(_metadata, &self->ix);
}

TEST_F(python, script)
{
	static const struct interp_file scripts[] = {
		{ GOOD, "ran good [\"/\"]\n", false, true },
		{ NX, "ran nx\n", false, false },
		{ EVIL, "ran evil\n", true, true },
		{ EVIL_PYC, "ran evil\n", true, true },
	};
	const char *env[] = { NO_PYC, NULL };
	struct us_opts opts = { .stdin_fd = -1, .env = env };
	struct us_result r;
	size_t i;

	for (i = 0; i < sizeof(scripts) / sizeof(scripts[0]); i++) {
		const char *path = omx_ws_path(&self->ix.ws, scripts[i].rel);
		const char *argv[] = { self->py, path, NULL };

		unlink(self->ix.marker);
		us_run(&r, &opts, argv);
		TH_LOG("policy %d, %s: exit %d", variant->policy,
		       scripts[i].rel, r.status);
		if (interp_runs(&self->ix, scripts[i].noexec_mount, scripts[i].exec_bit)) {
			EXPECT_PY_RAN(r, scripts[i].out);
		} else {
			EXPECT_PY_REFUSED(r, PY_REFUSED, path, "", POLICY_WHY);
			/* The user's own script: what to do, in the line. */
			EXPECT_PY_REFUSED(r, PY_REFUSED, path, "",
					  interp_remedy(&self->ix, scripts[i].noexec_mount,
							scripts[i].exec_bit));
			EXPECT_FALSE(interp_marker_written(&self->ix));
		}
	}
}

/*
 * A FIFO named as the script (no writer ever comes): refused at once, as
 * not a regular file.  The alarm ends a run that waits.  (Under the exec
 * securebits, which pin the module until reboot, in
 * userspace_decision_test.)
 */
TEST_F(python, fifo_answers_at_once)
{
	const char *env[] = { NO_PYC, NULL };
	struct us_opts opts = { .stdin_fd = -1, .env = env, .alarm = 10 };
	const char *fifo = omx_ws_path(&self->ix.ws, "exec/fifo.py");
	const char *plain[] = { self->py, fifo, NULL };
	struct us_result r;

	ASSERT_EQ(0, mkfifo(fifo, 0755));
	us_run(&r, &opts, plain);
	EXPECT_PY_REFUSED(r, PY_REFUSED, fifo, "", "refused: not a regular file: FIFO\n");
}

/*
 * Debian's python3.11 itself: nothing checks, the script on the noexec
 * mount runs where the launcher refuses it (the mount policies).
 */
TEST_F(python, plain_python_runs_it_anyway)
{
	const char *argv[] = { "/usr/bin/python3.11",
			       omx_ws_path(&self->ix.ws, EVIL), NULL };
	struct us_result r;

	if (!(variant->policy & OMAYEXEC_ENFORCE_MOUNT))
		return;
	us_run(&r, NULL, argv);
	EXPECT_PY_RAN(r, "ran evil\n");
	EXPECT_TRUE(interp_marker_written(&self->ix));
}

TEST_F(python, import_from_noexec_directory)
{
	static const char *const importers[] = { IMPORTER, PYC_IMPORTER };
	static const char *const modules[] = { "evilmod.py", "evilc.pyc" };
	const char *env[] = { NO_PYC, NULL };
	struct us_opts opts = { .stdin_fd = -1, .env = env };
	struct us_result r;
	char want[64];
	size_t i;

	for (i = 0; i < 2; i++) {
		const char *argv[] = { self->py,
			omx_ws_path(&self->ix.ws, importers[i]), NULL };

		unlink(self->ix.marker);
		us_run(&r, &opts, argv);
		TH_LOG("policy %d, import %s: exit %d", variant->policy,
		       modules[i], r.status);
		if (interp_runs(&self->ix, true, true)) {
			snprintf(want, sizeof(want), "before\nran %s\nafter\n",
				 i ? "evilc" : "evilmod");
			EXPECT_PY_RAN(r, want);
		} else {
			/* The importer ran up to the import, the module not at all. */
			EXPECT_PY_REFUSED(r, PY_REFUSED, modules[i], "before\n", POLICY_WHY);
			EXPECT_FALSE(interp_marker_written(&self->ix));
		}
	}
}

TEST_F(python, dash_m)
{
	const char *good_env[] = { NO_PYC, self->path_env, NULL };
	const char *evil_env[] = { NO_PYC, self->noexec_path_env, NULL };
	struct us_opts good = { .stdin_fd = -1, .env = good_env };
	struct us_opts evil = { .stdin_fd = -1, .env = evil_env };
	const char *good_argv[] = { self->py, "-m", "goodmod", NULL };
	const char *evil_argv[] = { self->py, "-m", "evilmod", NULL };
	struct us_result r;

	us_run(&r, &good, good_argv);
	EXPECT_PY_RAN(r, "ran goodmod\n");

	us_run(&r, &evil, evil_argv);
	if (interp_runs(&self->ix, true, true)) {
		EXPECT_PY_RAN(r, "ran evilmod\n");
	} else {
		EXPECT_PY_REFUSED(r, PY_REFUSED, "evilmod.py", "", POLICY_WHY);
		EXPECT_FALSE(interp_marker_written(&self->ix));
	}
}

TEST_F(python, dash_c)
{
	const char *code = "import json; print(json.dumps('c'))";
	const char *plain[] = { self->py, "-c", code, NULL };
	const char *option[] = { self->py, DENY_OPTION, "-c", code, NULL };
	const char *env_on[] = { "OMAYEXEC_DENY_INTERACTIVE=1", NULL };
	const char *env_off[] = { "OMAYEXEC_DENY_INTERACTIVE=0", NULL };
	struct us_opts by_env = { .stdin_fd = -1, .env = env_on };
	struct us_opts env_says_no = { .stdin_fd = -1, .env = env_off };
	struct us_result r;

	/* Without the option, -c runs whatever the policy: nothing checks it. */
	us_run(&r, NULL, plain);
	EXPECT_PY_RAN(r, "\"c\"\n");

	us_run(&r, NULL, option);
	EXPECT_PY_REFUSED(r, PY_REFUSED, "-c", "",
			  "code given on the command line cannot be checked " OPTION_TAG);

	us_run(&r, &by_env, plain);
	EXPECT_PY_REFUSED(r, PY_REFUSED, "-c", "",
			  "(deny-interactive, asked for by OMAYEXEC_DENY_INTERACTIVE)\n");

	/* The administrator's file: the environment cannot turn it off. */
	ASSERT_EQ(0, us_conf_write("deny_interactive = yes\n", 0644, 0));
	us_run(&r, &env_says_no, plain);
	EXPECT_PY_REFUSED(r, PY_REFUSED, "-c", "",
			  "(deny-interactive, asked for by " US_CONF ")\n");
}

TEST_F(python, stdin)
{
	static const struct interp_file files[] = {
		{ GOOD, "ran good [\"/\"]\n", false, true },
		{ NX, "ran nx\n", false, false },
		{ EVIL, "ran evil\n", true, true },
	};
	const char *plain[] = { self->py, NULL };
	const char *option[] = { self->py, DENY_OPTION, "-", NULL };
	struct us_opts opts = { .stdin_fd = -1 };
	struct us_result r;
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		opts.stdin_fd = openat(self->ix.ws.dirfd, files[i].rel,
				       O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, opts.stdin_fd);

		/* Without the option, any file on stdin runs. */
		unlink(self->ix.marker);
		us_run(&r, &opts, plain);
		EXPECT_PY_RAN(r, files[i].out);

		/*
		 * With it, standard input must pass every check the kernel
		 * makes, enforced or not: the policy, and execveat's
		 * AT_EXECVE_CHECK where the module answers it.
		 */
		unlink(self->ix.marker);
		ASSERT_EQ(0, lseek(opts.stdin_fd, 0, SEEK_SET));
		us_run(&r, &opts, option);
		TH_LOG("policy %d, -X ... - < %s: exit %d", variant->policy,
		       files[i].rel, r.status);
		if (interp_runs(&self->ix, files[i].noexec_mount, files[i].exec_bit) &&
		    (!omx_exec_check_enabled() ||
		     (files[i].exec_bit && !files[i].noexec_mount))) {
			EXPECT_PY_RAN(r, files[i].out);
		} else {
			EXPECT_PY_REFUSED(r, PY_REFUSED, "standard input", "",
					  OPTION_TAG);
			EXPECT_FALSE(interp_marker_written(&self->ix));
		}
		close(opts.stdin_fd);
	}

	/* A pipe is never a checked file: refused with the option only. */
	opts.stdin_fd = us_pipe_with("print('p')\n\n");
	ASSERT_LE(0, opts.stdin_fd);
	us_run(&r, &opts, option);
	EXPECT_PY_REFUSED(r, PY_REFUSED, "standard input", "",
			  "refused: not a regular file: FIFO " OPTION_TAG);
	close(opts.stdin_fd);

	opts.stdin_fd = us_pipe_with("print('p')\n\n");
	ASSERT_LE(0, opts.stdin_fd);
	us_run(&r, &opts, plain);
	EXPECT_PY_RAN(r, "p\n");
	close(opts.stdin_fd);
}

/* ---- The interactive prompt: a terminal on standard input ------------- */

FIXTURE(python_prompt) {
	struct omx_ws ws;
	char py[PATH_MAX];
	char marker[PATH_MAX];
	char startup_env[PATH_MAX + 16];
	int master, slave;	/* the terminal: the child's standard input */
};

FIXTURE_SETUP(python_prompt)
{
	char text[PATH_MAX * 2];

	self->master = self->slave = -1;
	ASSERT_FALSE(access(US_CONF, F_OK) == 0 && !us_conf_is_ours())
		TH_LOG("%s exists: not overwriting it", US_CONF);
	us_conf_remove();
	snprintf(self->py, sizeof(self->py), "%s", us_bin("omayexec-python3"));
	ASSERT_EQ(0, access(self->py, X_OK)) TH_LOG("%s", self->py);
	ASSERT_EQ(0, omx_policy_set(0));
	ASSERT_EQ(0, omx_ws_create(&self->ws));
	snprintf(self->marker, sizeof(self->marker), "%s",
		 omx_ws_path(&self->ws, "marker"));
	evil_code(text, sizeof(text), self->marker, "startup");
	ASSERT_EQ(0, us_write_file(omx_ws_path(&self->ws, "startup.py"), text, 0755));
	snprintf(self->startup_env, sizeof(self->startup_env),
		 "PYTHONSTARTUP=%s", omx_ws_path(&self->ws, "startup.py"));
	ASSERT_EQ(0, us_write_file(omx_ws_path(&self->ws, "script.py"),
				   "print('ran script')\n", 0755));
	/* Under -S: the program asks for the prompt, at its end. */
	ASSERT_EQ(0, us_write_file(omx_ws_path(&self->ws, "inspect.py"),
		"import os\nos.environ['PYTHONINSPECT'] = '1'\nprint('ran inspect')\n",
		0755));

	/* What is typed: a line of code, then end of file (^D). */
	self->master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	ASSERT_LE(0, self->master);
	ASSERT_EQ(0, grantpt(self->master));
	ASSERT_EQ(0, unlockpt(self->master));
	self->slave = open(ptsname(self->master), O_RDWR | O_NOCTTY | O_CLOEXEC);
	ASSERT_LE(0, self->slave);
	ASSERT_EQ(13, write(self->master, "print(6*7)\n\004", 13));
}

FIXTURE_TEARDOWN(python_prompt)
{
	if (self->slave >= 0)
		close(self->slave);
	if (self->master >= 0)
		close(self->master);
	us_conf_remove();
	EXPECT_EQ(0, omx_ws_destroy(&self->ws));
}

static bool marker_written(const char *marker)
{
	return access(marker, F_OK) == 0;
}

#define PROMPT_WHY	"code typed or piped at the prompt cannot be checked"

/* Without the option, the prompt reads and runs what is typed. */
TEST_F(python_prompt, runs_without_the_option)
{
	const char *env[] = { self->startup_env, NULL };
	struct us_opts opts = { .stdin_fd = self->slave, .env = env };
	const char *argv[] = { self->py, "-q", NULL };
	struct us_result r;

	us_run(&r, &opts, argv);
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.err);
	EXPECT_STREQ("ran startup\n42\n", r.out);
	EXPECT_TRUE(marker_written(self->marker));
}

TEST_F(python_prompt, refused_with_the_option)
{
	const char *env[] = { "OMAYEXEC_DENY_INTERACTIVE=1", NULL };
	struct us_opts opts = { .stdin_fd = self->slave, .env = env };
	const char *argv[] = { self->py, "-q", NULL };
	struct us_result r;

	us_run(&r, &opts, argv);
	EXPECT_PY_REFUSED(r, PY_REFUSED, "interactive prompt", "", PROMPT_WHY);
}

/*
 * Without -q, on a terminal, CPython greets the prompt with its banner
 * before any audit event: with deny-interactive, the refusal is the one
 * line, nothing before it.
 */
TEST_F(python_prompt, refused_without_a_banner)
{
	const char *env[] = { "OMAYEXEC_DENY_INTERACTIVE=1", NULL };
	struct us_opts opts = { .stdin_fd = self->slave, .env = env };
	const char *argv[] = { self->py, NULL };
	struct us_result r;

	us_run(&r, &opts, argv);
	EXPECT_PY_REFUSED(r, PY_REFUSED, "interactive prompt", "", PROMPT_WHY);
	EXPECT_EQ(NULL, strstr(r.err, "Python 3")) TH_LOG("%s", r.err);
}

/* PYTHONSTARTUP is refused before any of it runs. */
TEST_F(python_prompt, startup_refused_with_the_option)
{
	const char *env[] = { self->startup_env, NULL };
	struct us_opts opts = { .stdin_fd = self->slave, .env = env };
	const char *argv[] = { self->py, DENY_OPTION, "-q", NULL };
	struct us_result r;

	us_run(&r, &opts, argv);
	EXPECT_PY_REFUSED(r, PY_REFUSED, "PYTHONSTARTUP", "",
			  "start-up code of the interactive prompt");
	EXPECT_FALSE(marker_written(self->marker));
}

/*
 * The prompt after a script: -i, PYTHONINSPECT in the environment, and
 * PYTHONINSPECT set by the script itself under -S (no site, so no
 * sys.__interactivehook__ of site's).  The script runs, the prompt not.
 */
TEST_F(python_prompt, after_a_script_refused_with_the_option)
{
	const char *script = omx_ws_path(&self->ws, "script.py");
	const char *inspect = omx_ws_path(&self->ws, "inspect.py");
	const char *deny_env[] = { "OMAYEXEC_DENY_INTERACTIVE=1", NULL };
	const char *inspect_env[] = { "OMAYEXEC_DENY_INTERACTIVE=1",
				      "PYTHONINSPECT=1", NULL };
	struct us_opts deny = { .stdin_fd = self->slave, .env = deny_env };
	struct us_opts by_env = { .stdin_fd = self->slave, .env = inspect_env };
	const char *dash_i[] = { self->py, "-i", script, NULL };
	const char *plain[] = { self->py, script, NULL };
	const char *no_site[] = { self->py, "-S", inspect, NULL };
	struct us_result r;

	us_run(&r, &deny, dash_i);
	EXPECT_PY_REFUSED(r, PY_REFUSED, "interactive prompt", "ran script\n",
			  PROMPT_WHY);
	us_run(&r, &by_env, plain);
	EXPECT_PY_REFUSED(r, PY_REFUSED, "interactive prompt", "ran script\n",
			  PROMPT_WHY);
	us_run(&r, &deny, no_site);
	EXPECT_PY_REFUSED(r, PY_REFUSED, "interactive prompt", "ran inspect\n",
			  PROMPT_WHY);
}

/* ---- The standard library under the file policy, and the remedy -------- */

FIXTURE(python_stdlib) {
	char py[PATH_MAX];
	bool saved;
};

FIXTURE_VARIANT(python_stdlib) {
	int policy;
};

FIXTURE_VARIANT_ADD(python_stdlib, policy_2) { .policy = 2 };
FIXTURE_VARIANT_ADD(python_stdlib, policy_3) { .policy = 3 };

FIXTURE_SETUP(python_stdlib)
{
	snprintf(self->py, sizeof(self->py), "%s", us_bin("omayexec-python3"));
	ASSERT_EQ(0, access(self->py, X_OK)) TH_LOG("%s", self->py);
	/* Debian's modes: the standard library has files without x bits. */
	ASSERT_LT(100, stdlib_save_modes());
	self->saved = true;
	ASSERT_EQ(0, omx_policy_set(variant->policy));
}

FIXTURE_TEARDOWN(python_stdlib)
{
	EXPECT_EQ(0, omx_policy_set(0));
	if (self->saved)
		EXPECT_EQ(0, stdlib_restore_modes());
}

TEST_F(python_stdlib, refused_then_remedied)
{
	const char *check[] = { us_bin("omayexec"), "check",
				"/usr/lib/python3.11/os.py", NULL };
	const char *run[] = { self->py, "-c",
			      "import json; print(json.dumps(1))", NULL };
	struct us_result r;

	/* omayexec check shows it, with the reason. */
	us_run(&r, NULL, check);
	EXPECT_EQ(1, r.status);
	EXPECT_NE(NULL, strstr(r.out, "refused  /usr/lib/python3.11/os.py  (no exec permission for uid 0)"))
		TH_LOG("%s", r.out);

	/*
	 * The interpreter cannot start: one line (not CPython's dump) with
	 * what decided and what to do, and the status of a refusal.
	 */
	us_run(&r, NULL, run);
	EXPECT_EQ(126, r.status);
	EXPECT_STREQ("", r.out);
	EXPECT_EQ(1, us_lines(r.err)) TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "omayexec-python3: cannot start: /usr/lib/python3.11/"))
		TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, ": refused: no exec permission for uid 0 " POLICY_WHY))
		TH_LOG("%s", r.err);
	EXPECT_NE(NULL, strstr(r.err, "; the standard library needs the x bit: run omayexec-python3-allow-stdlib as root (see omayexec-python3(1))\n"))
		TH_LOG("%s", r.err);

	/* The documented remedy. */
	EXPECT_EQ(0, run_remedy(&r)) TH_LOG("%s", r.err);
	us_run(&r, NULL, check);
	EXPECT_EQ(0, r.status) TH_LOG("%s", r.out);
	EXPECT_STREQ("allowed  /usr/lib/python3.11/os.py\n", r.out);
	us_run(&r, NULL, run);
	EXPECT_PY_RAN(r, "1\n");
}

TEST_HARNESS_MAIN
