/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading the module's audit records (audit.c) from a test.
 *
 * The records are read from the kernel's read-only audit log multicast
 * group (NETLINK_AUDIT, AUDIT_NLGRP_READLOG, CAP_AUDIT_READ): every record
 * the kernel emits is copied there, whether or not an audit daemon runs
 * and whatever the printk rate limit lets through to the kernel log.  The
 * reader changes nothing in the audit configuration.
 *
 * Records travel through one kernel queue, in order.  omx_audit_sync()
 * sends a user message (AUDIT_USER_AVC, accepted even with auditing
 * disabled) and reads until that message comes back: every record logged
 * before the call has then been read.  No timing guess is involved.
 *
 * The module rate-limits its records (20 refusals and 100 allowed opens
 * per 5 s): a test that counts records first waits for a fresh window with
 * omx_audit_fresh_window().
 */
#ifndef OMX_TEST_AUDIT_H
#define OMX_TEST_AUDIT_H

#include <stdbool.h>
#include <stddef.h>

#define OMX_AUDIT_TYPE		1316	/* AUDIT_KERNEL_OTHER */
#define OMX_AUDIT_PARAM		"/sys/module/omayexec/parameters/audit_allowed"

/* The module's rate limits (audit.c). */
#define OMX_AUDIT_REFUSED_BURST	20
#define OMX_AUDIT_ALLOWED_BURST	100
#define OMX_AUDIT_INTERVAL_MS	5000

struct omx_audit {
	int fd;
	unsigned int syncs;
	/* The op=open_mayexec records read so far, without "audit(...): ". */
	char **records;
	size_t nr;
};

/* Join the read-only log group: 0 or -errno. */
int omx_audit_open(struct omx_audit *audit);
void omx_audit_close(struct omx_audit *audit);
/* Read every record logged before this call: 0 or -errno (-ETIMEDOUT). */
int omx_audit_sync(struct omx_audit *audit);
/* Forget the records read so far. */
void omx_audit_clear(struct omx_audit *audit);

/*
 * The value of field @key in @record, without its quotes, in @buf:
 * 0, or -ENOENT if the record has no such field.
 */
int omx_audit_field(const char *record, const char *key, char *buf,
		    size_t len);
/*
 * The same for a field the kernel logs as an untrusted string: in quotes,
 * or in hexadecimal when it holds a quote, a space or a control or non-ASCII
 * byte.  The hexadecimal form is decoded.  -EINVAL for anything else.
 */
int omx_audit_string(const char *record, const char *key, char *buf,
		     size_t len);

/* The records read whose untrusted field path= is @path (NULL: all). */
size_t omx_audit_count_path(const struct omx_audit *audit, const char *path);
/* The first such record, or NULL. */
const char *omx_audit_find_path(const struct omx_audit *audit,
				const char *path);

/*
 * Sleep until both rate-limit windows of the module have expired, so that
 * the next OMX_AUDIT_REFUSED_BURST refusals and OMX_AUDIT_ALLOWED_BURST
 * allowed opens are all recorded.  (A window starts with the first record
 * after the previous one expired, and lasts 5 s.)
 */
void omx_audit_fresh_window(void);

/* Set the audit_allowed module parameter: 0 or -errno. */
int omx_audit_allowed_set(bool on);
/* Its value (0 or 1), or -errno. */
int omx_audit_allowed_get(void);

/* The pid of the registered audit daemon (0: none), or -errno. */
int omx_audit_daemon_pid(void);

/* A user message (AUDIT_USER_AVC) sent on @fd, not waited for: 0 or -errno. */
int omx_audit_user_message(int fd, const char *text);

struct audit_status;
/* The audit subsystem's status (AUDIT_GET): 0 or -errno. */
int omx_audit_get_status(struct audit_status *status);
/*
 * Change what @status->mask names (AUDIT_SET), sent on @fd, a NETLINK_AUDIT
 * socket (-1: a new one): the socket that sets a daemon's pid is the one
 * the kernel then sends the records to.  0 or -errno.
 */
int omx_audit_set_status(int fd, const struct audit_status *status);

#endif /* OMX_TEST_AUDIT_H */
