// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the module's audit records: see omx_audit.h.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "omx_audit.h"

#define SYNC_TIMEOUT_MS	10000

static int neg_errno(void)
{
	return errno ? -errno : -EIO;
}

int omx_audit_open(struct omx_audit *audit)
{
	struct sockaddr_nl addr = {
		.nl_family = AF_NETLINK,
		.nl_groups = 1 << (AUDIT_NLGRP_READLOG - 1),
	};
	int size = 16 << 20, ret;

	audit->records = NULL;
	audit->nr = 0;
	audit->syncs = 0;
	audit->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);
	if (audit->fd < 0)
		return neg_errno();
	/*
	 * Multicast records that do not fit are dropped (ENOBUFS): room for
	 * thousands, beyond what the module's rate limits let through.
	 */
	if (setsockopt(audit->fd, SOL_SOCKET, SO_RCVBUFFORCE, &size,
		       sizeof(size)) &&
	    setsockopt(audit->fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size)))
		goto fail;
	if (bind(audit->fd, (struct sockaddr *)&addr, sizeof(addr)))
		goto fail;
	return 0;
fail:
	ret = neg_errno();
	close(audit->fd);
	audit->fd = -1;
	return ret;
}

void omx_audit_clear(struct omx_audit *audit)
{
	size_t i;

	for (i = 0; i < audit->nr; i++)
		free(audit->records[i]);
	free(audit->records);
	audit->records = NULL;
	audit->nr = 0;
}

void omx_audit_close(struct omx_audit *audit)
{
	omx_audit_clear(audit);
	if (audit->fd >= 0)
		close(audit->fd);
	audit->fd = -1;
}

/* One netlink message of @type to the audit subsystem on @fd: 0 or -errno. */
static int audit_send(int fd, int type, int flags, unsigned int seq,
		      const void *data, size_t len)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct {
		struct nlmsghdr nlh;
		char data[256];
	} req = {};

	if (len > sizeof(req.data))
		return -EINVAL;
	memcpy(req.data, data, len);
	req.nlh.nlmsg_len = NLMSG_LENGTH(len);
	req.nlh.nlmsg_type = type;
	req.nlh.nlmsg_flags = NLM_F_REQUEST | flags;
	req.nlh.nlmsg_seq = seq;
	if (sendto(fd, &req, req.nlh.nlmsg_len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0)
		return neg_errno();
	return 0;
}

static int send_user_message(int fd, unsigned int seq, const char *text)
{
	/* The kernel wants the NUL. */
	return audit_send(fd, AUDIT_USER_AVC, 0, seq, text, strlen(text) + 1);
}

int omx_audit_user_message(int fd, const char *text)
{
	return send_user_message(fd, 0, text);
}

/* "audit(1700000000.123:45): op=..." -> "op=..." */
static const char *record_body(const char *payload)
{
	const char *body = strstr(payload, "): ");

	return body && !strncmp(payload, "audit(", 6) ? body + 3 : payload;
}

static int keep_record(struct omx_audit *audit, const char *body)
{
	char **records;

	records = realloc(audit->records,
			  (audit->nr + 1) * sizeof(*audit->records));
	if (!records)
		return -ENOMEM;
	audit->records = records;
	audit->records[audit->nr] = strdup(body);
	if (!audit->records[audit->nr])
		return -ENOMEM;
	audit->nr++;
	return 0;
}

int omx_audit_sync(struct omx_audit *audit)
{
	static char buf[1 << 16] __attribute__((aligned(8)));
	struct pollfd pfd = { .fd = audit->fd, .events = POLLIN };
	unsigned int seq = ++audit->syncs;
	char marker[128], text[96];
	struct timespec start, now;
	bool synced = false;
	int ret;

	snprintf(text, sizeof(text), "omx-audit-sync pid %d seq %u", getpid(),
		 seq);
	snprintf(marker, sizeof(marker), "msg='%s'", text);
	ret = send_user_message(audit->fd, seq, text);
	if (ret)
		return ret;

	clock_gettime(CLOCK_MONOTONIC, &start);
	while (!synced) {
		struct nlmsghdr *nlh;
		ssize_t len;
		long waited;

		clock_gettime(CLOCK_MONOTONIC, &now);
		waited = (now.tv_sec - start.tv_sec) * 1000 +
			 (now.tv_nsec - start.tv_nsec) / 1000000;
		if (waited >= SYNC_TIMEOUT_MS)
			return -ETIMEDOUT;
		ret = poll(&pfd, 1, SYNC_TIMEOUT_MS - waited);
		if (ret < 0 && errno != EINTR)
			return neg_errno();
		if (ret <= 0)
			continue;
		len = recv(audit->fd, buf, sizeof(buf) - 1, 0);
		if (len < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			/* ENOBUFS: records were dropped. */
			return neg_errno();
		}
		for (nlh = (void *)buf; NLMSG_OK(nlh, len);
		     nlh = NLMSG_NEXT(nlh, len)) {
			size_t plen = nlh->nlmsg_len - NLMSG_HDRLEN;
			char *payload = NLMSG_DATA(nlh);
			int kept = 0;
			char saved;

			if (nlh->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *err = NLMSG_DATA(nlh);

				if (err->error && err->msg.nlmsg_seq == seq)
					return err->error;
				continue;
			}
			/* NUL-terminate in place (restored below). */
			saved = payload[plen];
			payload[plen] = '\0';
			if (nlh->nlmsg_type == AUDIT_USER_AVC &&
			    strstr(payload, marker))
				synced = true;
			if (nlh->nlmsg_type == OMX_AUDIT_TYPE &&
			    !strncmp(record_body(payload), "op=open_mayexec ", 16))
				kept = keep_record(audit, record_body(payload));
			payload[plen] = saved;
			if (kept)
				return kept;
		}
	}
	return 0;
}

/* Where field @key starts in @record (at "key="), or NULL. */
static const char *find_field(const char *record, const char *key)
{
	size_t klen = strlen(key);
	const char *p = record;

	while ((p = strstr(p, key))) {
		if ((p == record || p[-1] == ' ') && p[klen] == '=')
			return p + klen + 1;
		p += klen;
	}
	return NULL;
}

static int field(const char *record, const char *key, char *buf, size_t len,
		 bool *quoted)
{
	const char *value = find_field(record, key), *end;
	size_t n;

	if (!value)
		return -ENOENT;
	*quoted = *value == '"';
	if (*quoted) {
		value++;
		end = strchr(value, '"');
		if (!end)
			return -EINVAL;
	} else {
		end = value + strcspn(value, " ");
	}
	n = end - value;
	if (n >= len)
		return -ENAMETOOLONG;
	memcpy(buf, value, n);
	buf[n] = '\0';
	return 0;
}

int omx_audit_field(const char *record, const char *key, char *buf, size_t len)
{
	bool quoted;

	return field(record, key, buf, len, &quoted);
}

int omx_audit_string(const char *record, const char *key, char *buf,
		     size_t len)
{
	bool quoted;
	size_t i, n;
	int ret;

	ret = field(record, key, buf, len, &quoted);
	if (ret || quoted)
		return ret;
	n = strlen(buf);
	if (!n || n % 2)
		return -EINVAL;
	for (i = 0; i < n; i += 2) {
		unsigned int byte;

		if (!isxdigit((unsigned char)buf[i]) ||
		    !isxdigit((unsigned char)buf[i + 1]) ||
		    islower((unsigned char)buf[i]) ||
		    islower((unsigned char)buf[i + 1]) ||
		    sscanf(buf + i, "%2X", &byte) != 1)
			return -EINVAL;
		buf[i / 2] = byte;
	}
	buf[n / 2] = '\0';
	return 0;
}

const char *omx_audit_find_path(const struct omx_audit *audit,
				const char *path)
{
	static char value[4096];
	size_t i;

	for (i = 0; i < audit->nr; i++) {
		if (!path)
			return audit->records[i];
		if (!omx_audit_string(audit->records[i], "path", value,
				      sizeof(value)) &&
		    !strcmp(value, path))
			return audit->records[i];
	}
	return NULL;
}

size_t omx_audit_count_path(const struct omx_audit *audit, const char *path)
{
	static char value[4096];
	size_t i, n = 0;

	for (i = 0; i < audit->nr; i++)
		if (!path ||
		    (!omx_audit_string(audit->records[i], "path", value,
				       sizeof(value)) &&
		     !strcmp(value, path)))
			n++;
	return n;
}

void omx_audit_fresh_window(void)
{
	/* 5 s and a few jiffies (HZ=250), with a margin. */
	struct timespec ts = {
		.tv_sec = OMX_AUDIT_INTERVAL_MS / 1000,
		.tv_nsec = (OMX_AUDIT_INTERVAL_MS % 1000) * 1000000L + 300000000L,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int omx_audit_allowed_set(bool on)
{
	int fd, ret = 0;

	fd = open(OMX_AUDIT_PARAM, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return neg_errno();
	if (write(fd, on ? "Y" : "N", 1) != 1)
		ret = neg_errno();
	close(fd);
	return ret;
}

int omx_audit_allowed_get(void)
{
	char buf[8] = {};
	int fd;

	fd = open(OMX_AUDIT_PARAM, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return neg_errno();
	if (read(fd, buf, sizeof(buf) - 1) < 0) {
		close(fd);
		return neg_errno();
	}
	close(fd);
	if (!strcmp(buf, "Y\n"))
		return 1;
	if (!strcmp(buf, "N\n"))
		return 0;
	return -EIO;
}

/*
 * One request of @type to the audit subsystem on @fd (a new socket when
 * @fd is -1), with @len bytes of @data: 0 once it is acknowledged, with
 * the reply of type @type in @reply (@reply_len bytes) when there is one;
 * or -errno.  Other messages on the socket (records, for a daemon's) are
 * read past.
 */
static int audit_request(int fd, int type, const void *data, size_t len,
			 void *reply, size_t reply_len)
{
	static char buf[8192] __attribute__((aligned(8)));
	static unsigned int seq;
	int own = -1, ret;
	bool replied = !reply, acked = false;
	struct pollfd pfd;

	if (fd < 0) {
		fd = own = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
				  NETLINK_AUDIT);
		if (fd < 0)
			return neg_errno();
	}
	ret = audit_send(fd, type, NLM_F_ACK, ++seq, data, len);
	if (ret)
		goto out;
	ret = -ETIMEDOUT;
	pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
	/*
	 * The kernel sends a reply from a thread of its own (audit_send_reply()):
	 * it may come after the acknowledgement.
	 */
	while (!(acked && replied) && poll(&pfd, 1, 5000) > 0) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *nlh;

		if (n < 0) {
			ret = neg_errno();
			goto out;
		}
		for (nlh = (void *)buf; NLMSG_OK(nlh, n);
		     nlh = NLMSG_NEXT(nlh, n)) {
			if (nlh->nlmsg_seq != seq)
				continue;
			if (nlh->nlmsg_type == type && reply) {
				memcpy(reply, NLMSG_DATA(nlh), reply_len);
				replied = true;
			} else if (nlh->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *err = NLMSG_DATA(nlh);

				if (err->error) {
					ret = err->error;
					goto out;
				}
				acked = true;
			}
		}
	}
	if (acked && replied)
		ret = 0;
out:
	if (own >= 0)
		close(own);
	return ret;
}

int omx_audit_get_status(struct audit_status *status)
{
	memset(status, 0, sizeof(*status));
	return audit_request(-1, AUDIT_GET, NULL, 0, status, sizeof(*status));
}

int omx_audit_set_status(int fd, const struct audit_status *status)
{
	return audit_request(fd, AUDIT_SET, status, sizeof(*status), NULL, 0);
}

int omx_audit_daemon_pid(void)
{
	struct audit_status status;
	int ret = omx_audit_get_status(&status);

	return ret ?: (int)status.pid;
}
