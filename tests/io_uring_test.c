// SPDX-License-Identifier: GPL-2.0
/*
 * O_MAYEXEC through io_uring, which builds its open flags itself and never
 * calls do_sys_openat2(), so the module's hooks do not see the flag:
 * - IORING_OP_OPENAT2 with O_MAYEXEC fails closed: EINVAL from the stock
 *   build_open_flags(), under every policy, inline or in an io-wq worker
 *   (IOSQE_ASYNC), while the same request without the flag opens, and the
 *   openat2(2) syscall with the flag gets the policy's answer;
 * - IORING_OP_OPENAT drops the bit as openat(2) does: the open works and
 *   is not an exec open (no FMODE_EXEC);
 * - neither is counted as an O_MAYEXEC decision.
 *
 * The ring is driven with the raw io_uring_setup(2) and io_uring_enter(2)
 * syscalls, one request at a time (no liburing needed).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "omx_test.h"
#include "omx_stats.h"

/* ---- A minimal io_uring ------------------------------------------- */

struct ring {
	int fd;
	void *sq_ring, *cq_ring;
	size_t sq_ring_len, cq_ring_len, sqes_len;
	unsigned int *sq_tail, *sq_mask, *sq_array;
	unsigned int *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

static int ring_init(struct ring *r)
{
	struct io_uring_params p = {};
	int ret;

	memset(r, 0, sizeof(*r));
	r->fd = syscall(__NR_io_uring_setup, 4, &p);
	if (r->fd < 0)
		return -errno;
	r->sq_ring_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	r->cq_ring_len = p.cq_off.cqes +
			 p.cq_entries * sizeof(struct io_uring_cqe);
	if (p.features & IORING_FEAT_SINGLE_MMAP) {
		if (r->cq_ring_len > r->sq_ring_len)
			r->sq_ring_len = r->cq_ring_len;
		r->cq_ring_len = 0;
	}
	r->sq_ring = mmap(NULL, r->sq_ring_len, PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQ_RING);
	if (r->sq_ring == MAP_FAILED)
		goto fail;
	r->cq_ring = r->sq_ring;
	if (r->cq_ring_len) {
		r->cq_ring = mmap(NULL, r->cq_ring_len, PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_POPULATE, r->fd,
				  IORING_OFF_CQ_RING);
		if (r->cq_ring == MAP_FAILED)
			goto fail;
	}
	r->sqes_len = p.sq_entries * sizeof(struct io_uring_sqe);
	r->sqes = mmap(NULL, r->sqes_len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQES);
	if (r->sqes == MAP_FAILED)
		goto fail;
	r->sq_tail = (void *)((char *)r->sq_ring + p.sq_off.tail);
	r->sq_mask = (void *)((char *)r->sq_ring + p.sq_off.ring_mask);
	r->sq_array = (void *)((char *)r->sq_ring + p.sq_off.array);
	r->cq_head = (void *)((char *)r->cq_ring + p.cq_off.head);
	r->cq_tail = (void *)((char *)r->cq_ring + p.cq_off.tail);
	r->cq_mask = (void *)((char *)r->cq_ring + p.cq_off.ring_mask);
	r->cqes = (void *)((char *)r->cq_ring + p.cq_off.cqes);
	return 0;
fail:
	ret = -errno;
	close(r->fd);
	r->fd = -1;
	return ret;
}

static void ring_exit(struct ring *r)
{
	if (r->fd < 0)
		return;
	munmap(r->sqes, r->sqes_len);
	if (r->cq_ring_len)
		munmap(r->cq_ring, r->cq_ring_len);
	munmap(r->sq_ring, r->sq_ring_len);
	close(r->fd);
	r->fd = -1;
}

/* Submit @sqe, wait for its completion: the CQE's res, or -errno of enter. */
static int ring_run(struct ring *r, const struct io_uring_sqe *sqe)
{
	unsigned int tail = *r->sq_tail, idx = tail & *r->sq_mask, head;
	int res;

	r->sqes[idx] = *sqe;
	r->sq_array[idx] = idx;
	__atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
	if (syscall(__NR_io_uring_enter, r->fd, 1, 1, IORING_ENTER_GETEVENTS,
		    NULL, 0) < 0)
		return -errno;
	head = __atomic_load_n(r->cq_head, __ATOMIC_ACQUIRE);
	if (head == __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE))
		return -ENODATA;
	res = r->cqes[head & *r->cq_mask].res;
	__atomic_store_n(r->cq_head, head + 1, __ATOMIC_RELEASE);
	return res;
}

/* IORING_OP_OPENAT2: the new fd, or -errno. */
static int uring_openat2(struct ring *r, int dfd, const char *path,
			 __u64 flags, __u8 sqe_flags)
{
	struct open_how how = { .flags = flags };
	struct io_uring_sqe sqe = {
		.opcode = IORING_OP_OPENAT2,
		.flags = sqe_flags,
		.fd = dfd,
		.addr = (__u64)(unsigned long)path,
		.len = sizeof(how),
		.addr2 = (__u64)(unsigned long)&how,
	};

	return ring_run(r, &sqe);
}

/* IORING_OP_OPENAT: the new fd, or -errno. */
static int uring_openat(struct ring *r, int dfd, const char *path, int flags,
			__u8 sqe_flags)
{
	struct io_uring_sqe sqe = {
		.opcode = IORING_OP_OPENAT,
		.flags = sqe_flags,
		.fd = dfd,
		.addr = (__u64)(unsigned long)path,
		.open_flags = flags,
	};

	return ring_run(r, &sqe);
}

/* ---- Tests ------------------------------------------------------------ */

FIXTURE(io_uring) {
	struct omx_ws ws;
	struct ring ring;
	int ring_err;
};

FIXTURE_VARIANT(io_uring) {
	int policy;
};

FIXTURE_VARIANT_ADD(io_uring, policy_0) { .policy = 0 };
FIXTURE_VARIANT_ADD(io_uring, policy_1) { .policy = 1 };
FIXTURE_VARIANT_ADD(io_uring, policy_2) { .policy = 2 };
FIXTURE_VARIANT_ADD(io_uring, policy_3) { .policy = 3 };

FIXTURE_SETUP(io_uring)
{
	struct omx_ws *ws = &self->ws;

	self->ring.fd = -1;
	ASSERT_EQ(0, omx_ws_create(ws));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(ws, "exec", 0));
	ASSERT_EQ(0, omx_ws_file(ws, "exec/script", 0755, 0, 0));
	ASSERT_EQ(0, omx_ws_file(ws, "exec/data", 0644, 0, 0));
	ASSERT_EQ(0, mkdirat(ws->dirfd, "exec/directory", 0755));
	ASSERT_EQ(0, mkfifoat(ws->dirfd, "exec/fifo", 0644));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(ws, "noexec", MS_NOEXEC));
	ASSERT_EQ(0, omx_ws_file(ws, "noexec/script", 0755, 0, 0));
	ASSERT_EQ(0, omx_policy_set(variant->policy));
	self->ring_err = ring_init(&self->ring);
}

FIXTURE_TEARDOWN(io_uring)
{
	ring_exit(&self->ring);
	EXPECT_EQ(0, omx_policy_set(0));
	EXPECT_EQ(0, omx_ws_destroy(&self->ws));
}

static const struct {
	const char *path;
	int flags;
	int refused_by;		/* the policy bits that refuse it to openat2(2) */
} objects[] = {
	{ "exec/script", O_RDONLY, 0 },
	{ "exec/data", O_RDONLY, OMAYEXEC_ENFORCE_FILE },
	{ "noexec/script", O_RDONLY, OMAYEXEC_ENFORCE_MOUNT },
	{ "exec/directory", O_RDONLY | O_DIRECTORY, OMAYEXEC_ENFORCE_MASK },
	{ "exec/fifo", O_RDONLY | O_NONBLOCK, OMAYEXEC_ENFORCE_MASK },
};

/* Inline first, then forced into an io-wq worker. */
static const __u8 sqe_flags[] = { 0, IOSQE_ASYNC };

TEST_F(io_uring, openat2_with_o_mayexec_fails_closed)
{
	struct omx_stats before, delta;
	unsigned long decisions = 0;
	unsigned int i, j;
	int fd, s;

	ASSERT_EQ(0, self->ring_err) TH_LOG("io_uring_setup: %s",
					    strerror(-self->ring_err));
	ASSERT_EQ(0, omx_stats_read(&before));
	for (i = 0; i < ARRAY_LEN(objects); i++) {
		const char *path = objects[i].path;
		int flags = objects[i].flags | O_CLOEXEC;

		for (j = 0; j < ARRAY_LEN(sqe_flags); j++) {
			EXPECT_EQ(-EINVAL, uring_openat2(&self->ring,
					self->ws.dirfd, path, flags | O_MAYEXEC,
					sqe_flags[j]))
				TH_LOG("IORING_OP_OPENAT2(%s, O_MAYEXEC), sqe flags %#x",
				       path, sqe_flags[j]);
			/* The same request without the flag opens. */
			fd = uring_openat2(&self->ring, self->ws.dirfd, path,
					   flags, sqe_flags[j]);
			EXPECT_LE(0, fd) TH_LOG("IORING_OP_OPENAT2(%s): %s",
						path, strerror(-fd));
			if (fd >= 0)
				close(fd);
		}
		/* The syscall with the flag: the policy's answer. */
		EXPECT_EQ(variant->policy & objects[i].refused_by ? -EACCES : 0,
			  omx_probe_openat2(self->ws.dirfd, path,
					    flags | O_MAYEXEC, 0))
			TH_LOG("openat2(%s, O_MAYEXEC)", path);
		decisions++;
	}
	/* Only the syscalls reached the policy. */
	ASSERT_EQ(0, omx_stats_delta(&before, &delta));
	for (s = 0, i = 0; s < OMX_NR_STATS; s++)
		i += delta.count[s];
	EXPECT_EQ(decisions, i) TH_LOG("%s", omx_stats_str(&delta));
}

TEST_F(io_uring, openat_drops_o_mayexec)
{
	struct omx_stats before, delta;
	unsigned int i, j;
	int fd, s;

	ASSERT_EQ(0, self->ring_err) TH_LOG("io_uring_setup: %s",
					    strerror(-self->ring_err));
	ASSERT_EQ(0, omx_stats_read(&before));
	for (i = 0; i < ARRAY_LEN(objects); i++) {
		for (j = 0; j < ARRAY_LEN(sqe_flags); j++) {
			fd = uring_openat(&self->ring, self->ws.dirfd,
					  objects[i].path,
					  objects[i].flags | O_CLOEXEC | O_MAYEXEC,
					  sqe_flags[j]);
			ASSERT_LE(0, fd) TH_LOG("IORING_OP_OPENAT(%s, O_MAYEXEC): %s",
						objects[i].path, strerror(-fd));
			/* Opened as without the bit: not an exec open. */
			EXPECT_EQ(0, omx_fdinfo_flags(fd) & OMX_EXEC_OPEN_BITS)
				TH_LOG("%s: fdinfo flags 0%lo", objects[i].path,
				       omx_fdinfo_flags(fd));
			close(fd);
		}
	}
	ASSERT_EQ(0, omx_stats_delta(&before, &delta));
	for (s = 0; s < OMX_NR_STATS; s++)
		EXPECT_EQ(0, delta.count[s]) TH_LOG("%s", omx_stats_str(&delta));
}

TEST_HARNESS_MAIN
