/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the suites of the enlightened interpreters (userspace_python_test,
 * userspace_perl_test, userspace_php_test) share in their fixtures: the
 * workspace where their scripts live, an exec and a noexec tmpfs, with
 * the marker a refused piece of code would write; which of those scripts
 * a policy and the exec securebits let run; and the variants that run a
 * suite under each policy and each securebit.
 *
 * Header-only (static functions): each test file includes it once, after
 * omx_test.h and omx.h.
 */
#ifndef OMX_INTERP_FIXTURE_H
#define OMX_INTERP_FIXTURE_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/mount.h>

#include <linux/omayexec.h>

#include "omx.h"

/*
 * The workspace @ws (omx_ws_create()) with its two mounts, exec/ a tmpfs
 * and noexec/ a tmpfs mounted noexec; @marker (exec/marker, written first
 * by every refused piece of code), @exec_dir and @noexec_dir, PATH_MAX
 * bytes each, get their paths.  0 or -errno.
 */
static inline int interp_ws_create(struct omx_ws *ws, char *marker,
				   char *exec_dir, char *noexec_dir)
{
	int ret;

	ret = omx_ws_create(ws);
	if (!ret)
		ret = omx_ws_mount_tmpfs(ws, "exec", 0);
	if (!ret)
		ret = omx_ws_mount_tmpfs(ws, "noexec", MS_NOEXEC);
	if (ret)
		return ret;
	snprintf(marker, PATH_MAX, "%s", omx_ws_path(ws, "exec/marker"));
	snprintf(exec_dir, PATH_MAX, "%s", omx_ws_path(ws, "exec"));
	snprintf(noexec_dir, PATH_MAX, "%s", omx_ws_path(ws, "noexec"));
	return 0;
}

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

/*
 * The variants of fixture @f: each policy (0-3) with no securebit, then
 * policy 0 with each exec securebit set on the test and what it runs.
 */
#define INTERP_VARIANTS(f)						\
	FIXTURE_VARIANT(f) {						\
		int policy;						\
		int bits;	/* SECBIT_EXEC_* */			\
	};								\
	FIXTURE_VARIANT_ADD(f, policy_0) { .policy = 0 };		\
	FIXTURE_VARIANT_ADD(f, policy_1) { .policy = 1 };		\
	FIXTURE_VARIANT_ADD(f, policy_2) { .policy = 2 };		\
	FIXTURE_VARIANT_ADD(f, policy_3) { .policy = 3 };		\
	FIXTURE_VARIANT_ADD(f, restrict_file_bit) {			\
		.policy = 0, .bits = SECBIT_EXEC_RESTRICT_FILE };	\
	FIXTURE_VARIANT_ADD(f, deny_interactive_bit) {			\
		.policy = 0, .bits = SECBIT_EXEC_DENY_INTERACTIVE }

#endif
