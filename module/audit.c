// SPDX-License-Identifier: GPL-2.0
/*
 * Audit records for O_MAYEXEC decisions.
 *
 * Every refusal produces one AUDIT_KERNEL_OTHER record (auditd and
 * "ausearch -m KERNEL_OTHER" see it; without auditd it reaches the kernel
 * log, as audit records do):
 *
 *   op=open_mayexec res=0 reason=noexec_mount policy=3 interface=openat2
 *   path="/mnt/x.py" dev="tmpfs" ino=3 ppid=... pid=... uid=... comm=...
 *   exe=...
 *
 * With the audit_allowed parameter set, allowed O_MAYEXEC opens are
 * recorded as well (res=1 reason=none), so that an administrator can learn
 * what the interpreters run before enforcing a policy.
 *
 * Records are rate-limited, refusals and allowed opens separately, so that
 * a loop of opens cannot flood the log and allowed opens cannot crowd out
 * refusals.
 *
 * A refusal's record never sleeps (GFP_ATOMIC, as SELinux's AVC records):
 * it is made inside may_open(), where an O_TRUNC open holds the
 * superblock's freeze protection, and audit_log_start() with GFP_KERNEL
 * waits up to audit_backlog_wait_time (60 s) for a full backlog to drain,
 * which any user could make stall a freeze or a remount.  When the backlog
 * is full or memory is short, that record is lost and audit counts it
 * ("lost" in auditctl -s), as for every other record that cannot wait.
 * An allowed open is recorded once it has succeeded (openat2.c), where
 * nothing is held: its record waits for room as audit's records do, so
 * that learning what the interpreters run loses nothing to a burst.
 */

#include <linux/audit.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/moduleparam.h>
#include <linux/path.h>
#include <linux/ratelimit.h>
#include <linux/slab.h>

#include "common.h"

#define REFUSAL_GFP	(GFP_ATOMIC | __GFP_NOWARN)

bool omayexec_audit_allowed;
module_param_named(audit_allowed, omayexec_audit_allowed, bool, 0644);
MODULE_PARM_DESC(audit_allowed,
		 "Also audit O_MAYEXEC opens that the policy allows (default: N)");

static DEFINE_RATELIMIT_STATE(refused_ratelimit, 5 * HZ, 20);
static DEFINE_RATELIMIT_STATE(allowed_ratelimit, 5 * HZ, 100);

static const char *const reasons[OMAYEXEC_NR_VERDICTS] = {
	[OMAYEXEC_ALLOWED] = "none",
	[OMAYEXEC_NOT_REGULAR] = "not_regular_file",
	[OMAYEXEC_NOEXEC_MOUNT] = "noexec_mount",
	[OMAYEXEC_NO_EXEC_PERMISSION] = "no_exec_permission",
};

static const char *const interfaces[] = {
	[OMAYEXEC_OPENAT2] = "openat2",
	[OMAYEXEC_RFC_V1] = "open",
};

/*
 * audit_log_untrustedstring() is not exported: quote the string, or write
 * it in hexadecimal if it holds anything auditd would not parse in quotes.
 */
static void log_untrusted(struct audit_buffer *ab, const char *key,
			  const char *value)
{
	const unsigned char *c;

	for (c = value; *c; c++)
		if (*c == '"' || *c < 0x21 || *c > 0x7e)
			break;

	if (!*c) {
		audit_log_format(ab, " %s=\"%s\"", key, value);
		return;
	}
	audit_log_format(ab, " %s=", key);
	for (c = value; *c; c++)
		audit_log_format(ab, "%02X", *c);
}

static void log_path(struct audit_buffer *ab, const struct path *path,
		     gfp_t gfp)
{
	char *buf = kmalloc(PATH_MAX, gfp);
	char *name = buf ? d_path(path, buf, PATH_MAX) : ERR_PTR(-ENOMEM);

	if (IS_ERR(name))
		audit_log_format(ab, " path=?");
	else
		log_untrusted(ab, "path", name);
	kfree(buf);
}

/* omayexec_audit() (common.h) has let allowed opens through on request. */
void omayexec_audit_record(enum omayexec_verdict verdict,
			   const struct path *path,
			   enum omayexec_interface interface, int policy)
{
	struct inode *inode = d_backing_inode(path->dentry);
	bool allowed = verdict == OMAYEXEC_ALLOWED;
	gfp_t gfp = allowed ? GFP_KERNEL : REFUSAL_GFP;
	struct audit_buffer *ab;

	if (!__ratelimit(allowed ? &allowed_ratelimit : &refused_ratelimit))
		return;

	ab = audit_log_start(audit_context(), gfp, AUDIT_KERNEL_OTHER);
	if (!ab)
		return;
	audit_log_format(ab, "op=open_mayexec res=%d reason=%s policy=%d interface=%s",
			 allowed, reasons[verdict], policy,
			 interfaces[interface]);
	log_path(ab, path, gfp);
	log_untrusted(ab, "dev", inode->i_sb->s_id);
	audit_log_format(ab, " ino=%lu", inode->i_ino);
	audit_log_task_info(ab);
	audit_log_end(ab);
}
