// SPDX-License-Identifier: GPL-2.0
/*
 * The module's decision counters: see omx_stats.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "omx_stats.h"

const char *const omx_stat_names[OMX_NR_STATS] = {
	[OMX_STAT_ALLOWED] = "allowed",
	[OMX_STAT_NOT_REGULAR] = "refused_not_regular",
	[OMX_STAT_NOEXEC_MOUNT] = "refused_noexec_mount",
	[OMX_STAT_NO_EXEC_PERMISSION] = "refused_no_exec_permission",
};

static int read_count(const char *name, unsigned long *count)
{
	char path[128], buf[32];
	ssize_t len;
	char *end;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", OMX_STATS_DIR, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno ? -errno : -EIO;
	len = read(fd, buf, sizeof(buf) - 1);
	if (len < 0) {
		len = errno ? -errno : -EIO;
		close(fd);
		return len;
	}
	close(fd);
	buf[len] = '\0';
	errno = 0;
	*count = strtoul(buf, &end, 10);
	if (errno || end == buf || strcmp(end, "\n"))
		return -EIO;
	return 0;
}

int omx_stats_read(struct omx_stats *stats)
{
	int i, ret;

	for (i = 0; i < OMX_NR_STATS; i++) {
		ret = read_count(omx_stat_names[i], &stats->count[i]);
		if (ret)
			return ret;
	}
	return 0;
}

int omx_stats_delta(const struct omx_stats *before, struct omx_stats *delta)
{
	struct omx_stats now;
	int i, ret;

	ret = omx_stats_read(&now);
	if (ret)
		return ret;
	for (i = 0; i < OMX_NR_STATS; i++)
		delta->count[i] = now.count[i] - before->count[i];
	return 0;
}

const char *omx_stats_str(const struct omx_stats *delta)
{
	static char buf[256];
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < OMX_NR_STATS; i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s %+ld",
				i ? ", " : "", omx_stat_names[i],
				(long)delta->count[i]);
	return buf;
}
