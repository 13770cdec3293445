/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fixture the suites of the enlightened interpreters share
 * (userspace_python_test, userspace_perl_test, userspace_php_test,
 * userspace_interp_compare_test): the workspace where their scripts live,
 * an exec and a noexec tmpfs, with the marker a refused piece of code
 * would write; the interpreter's library given the x bit its remedy gives
 * under a file policy, and its modes given back afterwards; the module's
 * policy and the exec securebits the variant asks for; which file a
 * variant lets run (the oracle); and the variants themselves.
 *
 * A suite's fixture embeds a struct interp_fx (named ix) and calls, from
 * its FIXTURE_SETUP, interp_setup() before it writes its files and
 * interp_enforce() after, and interp_teardown() from its teardown: what a
 * next interpreter needs of its own is the files and the cases.
 *
 * Header-only (static functions): each test file includes it once, after
 * omx_test.h.
 */
#ifndef OMX_INTERP_FIXTURE_H
#define OMX_INTERP_FIXTURE_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/prctl.h>

#include <linux/omayexec.h>

#include "omx.h"
#include "userspace_run.h"
#include "code_modes.h"

/*
 * The variants of fixture @f: each policy (0-3) with no securebit
 * (INTERP_POLICY_VARIANTS), and then policy 0 with each exec securebit set
 * on the test and what it runs (INTERP_VARIANTS).
 */
#define INTERP_VARIANT_STRUCT(f)					\
	FIXTURE_VARIANT(f) {						\
		int policy;						\
		int bits;	/* SECBIT_EXEC_* */			\
	}
#define INTERP_POLICY_VARIANTS(f)					\
	INTERP_VARIANT_STRUCT(f);					\
	FIXTURE_VARIANT_ADD(f, policy_0) { .policy = 0 };		\
	FIXTURE_VARIANT_ADD(f, policy_1) { .policy = 1 };		\
	FIXTURE_VARIANT_ADD(f, policy_2) { .policy = 2 };		\
	FIXTURE_VARIANT_ADD(f, policy_3) { .policy = 3 }
#define INTERP_VARIANTS(f)						\
	INTERP_POLICY_VARIANTS(f);					\
	FIXTURE_VARIANT_ADD(f, restrict_file_bit) {			\
		.policy = 0, .bits = SECBIT_EXEC_RESTRICT_FILE };	\
	FIXTURE_VARIANT_ADD(f, deny_interactive_bit) {			\
		.policy = 0, .bits = SECBIT_EXEC_DENY_INTERACTIVE }

/* What every interpreter suite's fixture holds. */
struct interp_fx {
	struct omx_ws ws;
	char marker[PATH_MAX];	/* exec/marker: written by every refused
				 * piece of code */
	char exec_dir[PATH_MAX], noexec_dir[PATH_MAX];
	bool check;		/* the module answers AT_EXECVE_CHECK */
	bool remedied;		/* the library's modes saved: give them back */
	int policy, bits;	/* the variant's */
};

/* A file of code in the workspace, what it prints, and where it lies. */
struct interp_file {
	const char *rel, *out;
	bool noexec_mount, exec_bit;
};

/*
 * Whether a file runs: the module's @policy, and the exec check that
 * SECBIT_EXEC_RESTRICT_FILE in @bits asks for (noexec mount or no x bit).
 */
static inline bool interp_allowed(int policy, int bits, bool noexec_mount,
				  bool exec_bit)
{
	if ((policy & OMAYEXEC_ENFORCE_MOUNT) && noexec_mount)
		return false;
	if ((policy & OMAYEXEC_ENFORCE_FILE) && !exec_bit)
		return false;
	if ((bits & SECBIT_EXEC_RESTRICT_FILE) && (noexec_mount || !exec_bit))
		return false;
	return true;
}

/* interp_allowed() in the fixture's variant. */
static inline bool interp_runs(const struct interp_fx *ix, bool noexec_mount,
			       bool exec_bit)
{
	return interp_allowed(ix->policy, ix->bits, noexec_mount, exec_bit);
}

/*
 * Whether standard input holding such a file passes with deny-interactive:
 * every check the kernel makes, enforced or not: the policy, and
 * execveat's AT_EXECVE_CHECK where the module answers it.
 */
static inline bool interp_stdin_passes(const struct interp_fx *ix,
				       bool noexec_mount, bool exec_bit)
{
	return interp_runs(ix, noexec_mount, exec_bit) &&
	       (!ix->check || (exec_bit && !noexec_mount));
}

/*
 * The end of the line of a refusal of such a file by the variant's policy
 * or exec check: the remedy of what the user can change of what the
 * variant enforces (../userspace/refusal.h).
 */
static inline const char *interp_remedy(const struct interp_fx *ix,
					bool noexec_mount, bool exec_bit)
{
	bool bit = ix->bits & SECBIT_EXEC_RESTRICT_FILE;
	bool move = noexec_mount &&
		    (bit || (ix->policy & OMAYEXEC_ENFORCE_MOUNT));
	bool chmod_x = !exec_bit &&
		       (bit || (ix->policy & OMAYEXEC_ENFORCE_FILE));

	if (move && chmod_x)
		return "; to run it, move it to a mount without noexec and give it the x bit (chmod +x)\n";
	if (move)
		return "; to run it, move it to a mount without noexec\n";
	return "; to run it, give it the x bit (chmod +x)\n";
}

/* The file policy, or the exec check under SECBIT_EXEC_RESTRICT_FILE. */
static inline bool interp_file_policy(const struct interp_fx *ix)
{
	return (ix->policy & OMAYEXEC_ENFORCE_FILE) ||
	       (ix->bits & SECBIT_EXEC_RESTRICT_FILE);
}

static inline bool interp_deny_bit(const struct interp_fx *ix)
{
	return ix->bits & SECBIT_EXEC_DENY_INTERACTIVE;
}

static inline bool interp_marker_written(const struct interp_fx *ix)
{
	return access(ix->marker, F_OK) == 0;
}

/*
 * The start of every setup, before the suite writes its files: no
 * configuration file but the tests' own, none of the library's variables
 * from the test's environment, policy 0, and the workspace @ix->ws with
 * its two mounts, exec/ a tmpfs and noexec/ a tmpfs mounted noexec.
 * @policy and @bits: the variant's, in force after interp_enforce().
 */
static inline void interp_setup(struct __test_metadata *_metadata,
				struct interp_fx *ix, int policy, int bits)
{
	struct omx_ws *ws = &ix->ws;

	ix->policy = policy;
	ix->bits = bits;
	ASSERT_FALSE(access(US_CONF, F_OK) == 0 && !us_conf_is_ours())
		TH_LOG("%s exists: not overwriting it", US_CONF);
	us_conf_remove();
	unsetenv("OMAYEXEC_MODE");
	unsetenv("OMAYEXEC_DENY_INTERACTIVE");
	ASSERT_TRUE(omx_module_loaded());
	ASSERT_EQ(0, omx_policy_set(0));
	ix->check = omx_exec_check_enabled();
	ASSERT_EQ(0, omx_ws_create(ws));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(ws, "exec", 0));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(ws, "noexec", MS_NOEXEC));
	snprintf(ix->marker, PATH_MAX, "%s", omx_ws_path(ws, "exec/marker"));
	snprintf(ix->exec_dir, PATH_MAX, "%s", omx_ws_path(ws, "exec"));
	snprintf(ix->noexec_dir, PATH_MAX, "%s", omx_ws_path(ws, "noexec"));
}

/*
 * The end of every setup, after the suite wrote its files: under a file
 * policy, the x bit on the library files @save_modes records (NULL: the
 * interpreter's library is not judged), as its remedy gives it
 * (cm_allow(): the *_stdlib fixtures run the remedy itself); then the
 * policy, then the securebits on this test's process and on what it
 * runs.  False when the securebits cannot be set here (the caller skips).
 */
static inline bool interp_enforce(struct __test_metadata *_metadata,
				  struct interp_fx *ix, long (*save_modes)(void))
{
	if (save_modes && interp_file_policy(ix)) {
		ASSERT_LE(0, save_modes());
		ix->remedied = true;
		ASSERT_EQ(0, cm_allow());
	}
	ASSERT_EQ(0, omx_policy_set(ix->policy));
	if (ix->bits &&
	    prctl(PR_SET_SECUREBITS,
		  prctl(PR_GET_SECUREBITS, 0, 0, 0, 0) | ix->bits, 0, 0, 0))
		return false;
	return true;
}

static inline void interp_teardown(struct __test_metadata *_metadata,
				   struct interp_fx *ix)
{
	EXPECT_EQ(0, omx_policy_set(0));
	if (ix->remedied)
		EXPECT_EQ(0, cm_restore());
	us_conf_remove();
	EXPECT_EQ(0, omx_ws_destroy(&ix->ws));
}

#endif
