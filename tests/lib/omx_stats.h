/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's decision counters, /sys/module/omayexec/stats/ (stats.c).
 *
 * Every O_MAYEXEC open that reaches the policy check adds one to exactly
 * one of them; a test reads all four before and after what it does and
 * compares the difference with what it expects.
 */
#ifndef OMX_TEST_STATS_H
#define OMX_TEST_STATS_H

#define OMX_STATS_DIR	"/sys/module/omayexec/stats"

enum omx_stat {
	OMX_STAT_ALLOWED,
	OMX_STAT_NOT_REGULAR,
	OMX_STAT_NOEXEC_MOUNT,
	OMX_STAT_NO_EXEC_PERMISSION,
	OMX_NR_STATS
};

/* The file names in OMX_STATS_DIR, by enum omx_stat. */
extern const char *const omx_stat_names[OMX_NR_STATS];

struct omx_stats {
	unsigned long count[OMX_NR_STATS];
};

/* Read all four counters: 0, or -errno (-EIO if one is not a number). */
int omx_stats_read(struct omx_stats *stats);

/*
 * What changed since @before: reads the counters again and stores
 * now - before in @delta.  0 or -errno.
 */
int omx_stats_delta(const struct omx_stats *before, struct omx_stats *delta);

/* "allowed +1, refused_noexec_mount +2" (static buffer), for TH_LOG. */
const char *omx_stats_str(const struct omx_stats *delta);

#endif /* OMX_TEST_STATS_H */
