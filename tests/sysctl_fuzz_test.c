// SPDX-License-Identifier: GPL-2.0
/*
 * fs.open_mayexec_enforce against hostile writers.
 *
 * Thousands of writes of random bytes and lengths (up to a page), of near
 * misses ("+1", "01", "1\0", " 3"...), at offsets other than 0, split in
 * several write(2) calls on one fd or in several iovecs of one writev(2),
 * and from buffers that run into an unmapped page.  Each one is checked
 * against the one spelling the sysctl takes: a single digit 0-3, a newline
 * after it at most, in one write at offset 0.  A valid write sets the
 * policy; anything else fails (EINVAL, or EFAULT for the unmapped buffer)
 * and leaves the policy as it was.
 *
 * Then the same with readers and other writers at the same time: while
 * one writer switches between the policies 1 and 2 only, garbage writers
 * full of 0s and 3s never get a write accepted, and readers never see a
 * policy other than 1 or 2.
 *
 * Environment: OMX_FUZZ_SEED reruns a sequence (each test prints its
 * seed), OMX_FUZZ_WRITES (default 20000) and OMX_FUZZ_SECONDS (default 5)
 * make a run longer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "omx_rand.h"
#include "omx_test.h"

#define PAGE		4096
#define MAX_PIECES	4

/* ---- What the sysctl must take -------------------------------------------- */

/* The specification, not the kernel's code: "[0-3]\n?" at offset 0. */
static int policy_of(const char *text, size_t len)
{
	if (len == 2 && text[1] == '\n')
		len = 1;
	if (len != 1 || text[0] < '0' || text[0] > '3')
		return -1;
	return text[0] - '0';
}

/* ---- Writes ---------------------------------------------------------------- */

enum write_kind {
	RANDOM_BYTES,		/* any bytes, 0 to PAGE of them */
	NEAR_MISS,		/* digits, signs, spaces, NULs: short */
	VALID,			/* "N" or "N\n" */
	AT_OFFSET,		/* pwrite() of anything at an offset > 0 */
	SPLIT_WRITES,		/* several write(2) calls on one fd */
	WRITEV_PIECES,		/* one writev(2) of several iovecs */
	FAULTING_BUFFER,	/* runs into an unmapped page: EFAULT */
	NR_KINDS
};

static const char *const kind_names[NR_KINDS] = {
	"random bytes", "near misses", "valid", "at an offset",
	"split writes", "writev pieces", "faulting buffer",
};

static size_t fill_any(uint64_t *s, enum write_kind kind, char *buf);

static size_t random_length(uint64_t *s)
{
	switch (omx_rand_below(s, 10)) {
	case 0 ... 4:
		return omx_rand_below(s, 9);
	case 5 ... 7:
		return omx_rand_below(s, 65);
	default:
		return omx_rand_below(s, PAGE + 1);
	}
}

/*
 * Writers that must never change the policy ask for garbage only: a text
 * that happens to be valid gets one more byte.
 */
static bool garbage_only;

static size_t fill(uint64_t *s, enum write_kind kind, char *buf)
{
	size_t len = fill_any(s, kind, buf);

	if (garbage_only && policy_of(buf, len) >= 0)
		buf[len++] = 'x';
	return len;
}

static size_t fill_any(uint64_t *s, enum write_kind kind, char *buf)
{
	static const char near[] = "0123456789+-\n \t\r\0xXab";
	size_t len, i;

	switch (kind) {
	case VALID:
		buf[0] = '0' + omx_rand_below(s, 4);
		buf[1] = '\n';
		return 1 + omx_rand_below(s, 2);
	case NEAR_MISS:
		len = omx_rand_below(s, 6);
		for (i = 0; i < len; i++)
			buf[i] = near[omx_rand_below(s, sizeof(near) - 1)];
		return len;
	default:
		len = random_length(s);
		for (i = 0; i < len; i++)
			buf[i] = omx_rand_next(s) >> 56;
		return len;
	}
}

/*
 * A page followed by an inaccessible one: writes from its end fault.
 * PROT_NONE, not munmap(): a later mmap() could fill the hole.
 */
static char *faulting_page(void)
{
	char *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (mprotect(p + PAGE, PAGE, PROT_NONE)) {
		munmap(p, 2 * PAGE);
		return NULL;
	}
	return p;
}

struct outcome {
	int ret[MAX_PIECES];	/* each call: 0 or -errno */
	int calls;
	int policy;		/* afterwards */
};

/* Carry out one write of @kind, as @expected says the kernel must answer. */
static int one_write(uint64_t *s, enum write_kind kind, char *fault_page,
		     struct outcome *seen, struct outcome *expected,
		     char *what, size_t what_len)
{
	char buf[PAGE + 2], *p;
	struct iovec iov[MAX_PIECES];
	size_t len, off, cut;
	int fd, n, i, parsed;
	ssize_t r;

	fd = open(OMAYEXEC_SYSCTL_PATH, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	memset(seen, 0, sizeof(*seen));
	*expected = *seen;
	expected->policy = omx_policy_read();

	switch (kind) {
	case AT_OFFSET:
		len = fill(s, omx_rand_below(s, 2) ? VALID : NEAR_MISS, buf);
		off = 1 + omx_rand_below(s, PAGE);
		r = pwrite(fd, buf, len, off);
		seen->ret[seen->calls++] = r < 0 ? -errno : 0;
		expected->ret[expected->calls++] = -EINVAL;
		snprintf(what, what_len, "pwrite(%zu bytes, offset %zu)", len, off);
		break;
	case SPLIT_WRITES:
		/* A valid text cut in pieces, or near misses one after another. */
		n = 2 + omx_rand_below(s, MAX_PIECES - 1);
		off = 0;	/* the file offset: a failed write leaves it */
		for (i = 0; i < n; i++) {
			len = fill(s, omx_rand_below(s, 2) ? VALID : NEAR_MISS, buf);
			r = write(fd, buf, len);
			seen->ret[seen->calls++] = r < 0 ? -errno : 0;
			parsed = off ? -1 : policy_of(buf, len);
			if (parsed >= 0) {
				expected->policy = parsed;
				off += len;
			}
			expected->ret[expected->calls++] = parsed >= 0 ? 0 : -EINVAL;
		}
		snprintf(what, what_len, "%d write(2) calls on one fd", n);
		break;
	case WRITEV_PIECES:
		len = fill(s, omx_rand_below(s, 3) ? NEAR_MISS : VALID, buf);
		n = 1 + omx_rand_below(s, MAX_PIECES);
		for (i = 0, off = 0; i < n; i++) {
			cut = i == n - 1 ? len - off : omx_rand_below(s, len - off + 1);
			iov[i].iov_base = buf + off;
			iov[i].iov_len = cut;
			off += cut;
		}
		r = writev(fd, iov, n);
		seen->ret[seen->calls++] = r < 0 ? -errno : 0;
		parsed = policy_of(buf, len);
		/* The VFS does nothing for an empty writev(2), and says so. */
		expected->ret[expected->calls++] = parsed >= 0 || !len ? 0 : -EINVAL;
		if (parsed >= 0)
			expected->policy = parsed;
		snprintf(what, what_len, "writev(%zu bytes in %d iovecs)", len, n);
		break;
	case FAULTING_BUFFER:
		/* Up to 2 mapped bytes, then the unmapped page. */
		cut = omx_rand_below(s, 3);
		p = fault_page + PAGE - cut;
		fill(s, VALID, buf);
		memcpy(p, buf, cut);
		len = cut + 1 + omx_rand_below(s, 8);
		r = write(fd, p, len);
		seen->ret[seen->calls++] = r < 0 ? -errno : 0;
		expected->ret[expected->calls++] = -EFAULT;
		snprintf(what, what_len, "write(%zu bytes, %zu of them mapped)", len, cut);
		break;
	default:
		len = fill(s, kind, buf);
		r = write(fd, buf, len);
		seen->ret[seen->calls++] = r < 0 ? -errno : 0;
		parsed = policy_of(buf, len);
		expected->ret[expected->calls++] = parsed >= 0 ? 0 : -EINVAL;
		if (parsed >= 0)
			expected->policy = parsed;
		snprintf(what, what_len, "write(%zu bytes: %02x %02x %02x...)", len,
			 len > 0 ? (unsigned char)buf[0] : 0,
			 len > 1 ? (unsigned char)buf[1] : 0,
			 len > 2 ? (unsigned char)buf[2] : 0);
		break;
	}
	close(fd);
	seen->policy = omx_policy_read();
	return 0;
}

FIXTURE(fuzz) {
	uint64_t seed;
	char *fault_page;
};

FIXTURE_SETUP(fuzz)
{
	ASSERT_TRUE(omx_module_loaded());
	ASSERT_EQ(0, omx_policy_set(0));
	self->seed = omx_rand_seed("OMX_FUZZ_SEED");
	self->fault_page = faulting_page();
	ASSERT_NE(NULL, self->fault_page);
	TH_LOG("seed %llu (OMX_FUZZ_SEED=%llu reruns this sequence)",
	       (unsigned long long)self->seed, (unsigned long long)self->seed);
}

FIXTURE_TEARDOWN(fuzz)
{
	EXPECT_EQ(0, omx_policy_set(0));
	munmap(self->fault_page, 2 * PAGE);
}

TEST_F_TIMEOUT(fuzz, only_valid_writes_change_the_policy, 600)
{
	long writes = omx_env_number("OMX_FUZZ_WRITES", 20000), i, bad = 0;
	long done[NR_KINDS] = { 0 }, accepted = 0;
	struct outcome seen, expected;
	char what[128];
	uint64_t s = self->seed;
	enum write_kind kind;
	int c;

	for (i = 0; i < writes; i++) {
		kind = omx_rand_below(&s, NR_KINDS);
		ASSERT_EQ(0, one_write(&s, kind, self->fault_page, &seen,
				       &expected, what, sizeof(what)));
		done[kind]++;
		if (memcmp(&seen, &expected, sizeof(seen))) {
			if (bad++ < 10) {
				for (c = 0; c < seen.calls; c++)
					TH_LOG("write %ld, %s: call %d gave %s, expected %s",
					       i, what, c, strerror(-seen.ret[c]),
					       strerror(-expected.ret[c]));
				TH_LOG("write %ld, %s: policy %d, expected %d",
				       i, what, seen.policy, expected.policy);
			}
		}
		for (c = 0; c < seen.calls; c++)
			accepted += !seen.ret[c];
		ASSERT_GE(seen.policy, 0);
		ASSERT_LE(seen.policy, 3);
	}
	for (kind = 0; kind < NR_KINDS; kind++)
		TH_LOG("%6ld %s", done[kind], kind_names[kind]);
	TH_LOG("%ld writes, %ld calls accepted, %ld mismatches", writes,
	       accepted, bad);
	EXPECT_EQ(0, bad);
}

/* ---- At the same time -------------------------------------------------- */

#define GARBAGE_WRITERS	2
#define READERS		2

struct shared {
	volatile int stop;
	long valid_writes, garbage_writes, reads;
	long bad;
	char bad_what[200];
};

#define SHARED_BAD(sh, fmt, ...) do { \
	if (__atomic_add_fetch(&(sh)->bad, 1, __ATOMIC_SEQ_CST) == 1) \
		snprintf((sh)->bad_what, sizeof((sh)->bad_what), fmt, ##__VA_ARGS__); \
} while (0)

/* Writes that must all fail, many of them with a 0 or a 3 in front. */
static void garbage_writer(struct shared *sh, uint64_t s, char *fault_page)
{
	struct outcome seen, expected;
	char what[128];
	long n = 0;
	int c;

	garbage_only = true;
	while (!sh->stop) {
		one_write(&s, omx_rand_below(&s, NR_KINDS), fault_page, &seen,
			  &expected, what, sizeof(what));
		for (c = 0; c < seen.calls; c++)
			if (seen.ret[c] != expected.ret[c])
				SHARED_BAD(sh, "%s: call %d gave %s, expected %s",
					   what, c, strerror(-seen.ret[c]),
					   strerror(-expected.ret[c]));
		n++;
	}
	__atomic_add_fetch(&sh->garbage_writes, n, __ATOMIC_SEQ_CST);
}

static void reader(struct shared *sh, uint64_t s)
{
	char buf[32];
	long n = 0;
	ssize_t r;
	int fd;

	while (!sh->stop) {
		fd = open(OMAYEXEC_SYSCTL_PATH, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			SHARED_BAD(sh, "open for reading: %s", strerror(errno));
			break;
		}
		/* Whole, or one byte: the digit comes first either way. */
		r = read(fd, buf, omx_rand_below(&s, 2) ? sizeof(buf) - 1 : 1);
		close(fd);
		if (r < 1 || (buf[0] != '1' && buf[0] != '2')) {
			buf[r > 0 ? r : 0] = '\0';
			SHARED_BAD(sh, "read %zd bytes: \"%s\"", r, buf);
		}
		n++;
	}
	__atomic_add_fetch(&sh->reads, n, __ATOMIC_SEQ_CST);
}

TEST_F_TIMEOUT(fuzz, concurrent_readers_and_writers, 600)
{
	long seconds = omx_env_number("OMX_FUZZ_SECONDS", 5), valid = 0;
	pid_t pids[GARBAGE_WRITERS + READERS];
	uint64_t s = self->seed;
	struct shared *sh;
	time_t end;
	int i, n = 0, status;
	char text[2];

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, sh);
	ASSERT_EQ(0, omx_policy_set(1));
	for (i = 0; i < GARBAGE_WRITERS + READERS; i++) {
		uint64_t child_seed = omx_rand_next(&s) | 1;

		pids[i] = fork();
		ASSERT_LE(0, pids[i]);
		if (!pids[i]) {
			if (i < GARBAGE_WRITERS)
				garbage_writer(sh, child_seed, self->fault_page);
			else
				reader(sh, child_seed);
			_exit(0);
		}
		n++;
	}
	end = time(NULL) + seconds;
	while (time(NULL) < end) {
		text[0] = '1' + omx_rand_below(&s, 2);
		text[1] = '\n';
		if (omx_policy_write_bytes(text, 1 + omx_rand_below(&s, 2)))
			SHARED_BAD(sh, "valid write \"%c\" refused", text[0]);
		valid++;
	}
	sh->stop = 1;
	for (i = 0; i < n; i++) {
		EXPECT_EQ(pids[i], waitpid(pids[i], &status, 0));
		EXPECT_EQ(0, status);
	}
	TH_LOG("%ld s: %ld valid writes, %ld garbage writes, %ld reads",
	       seconds, valid, sh->garbage_writes, sh->reads);
	EXPECT_EQ(0, sh->bad) {
		TH_LOG("%ld bad results; the first: %s", sh->bad, sh->bad_what);
	}
	EXPECT_LT(0, sh->garbage_writes);
	EXPECT_LT(0, sh->reads);
	i = omx_policy_read();
	EXPECT_TRUE(i == 1 || i == 2);
	munmap(sh, sizeof(*sh));
}

TEST_HARNESS_MAIN
