// SPDX-License-Identifier: GPL-2.0
/*
 * The policy interface, /proc/sys/fs/open_mayexec_enforce:
 * - a root-owned regular file of mode 0600: uid 1000 can neither read
 *   nor write it;
 * - reading gives the policy last written (0-3, newline-terminated);
 * - writing needs CAP_MAC_ADMIN in the initial user namespace at the time
 *   of the write (not of the open): EPERM otherwise, also for root in a
 *   new user namespace;
 * - any value outside 0-3, negative or not a decimal number is EINVAL and
 *   leaves the policy unchanged.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "omx_test.h"

TEST(file_is_root_owned_with_mode_0600)
{
	struct stat st;

	ASSERT_EQ(0, stat(OMAYEXEC_SYSCTL_PATH, &st));
	EXPECT_TRUE(S_ISREG(st.st_mode));
	EXPECT_EQ((mode_t)0600, st.st_mode & 07777);
	EXPECT_EQ((uid_t)0, st.st_uid);
	EXPECT_EQ((gid_t)0, st.st_gid);
}

static int open_as_user(void *arg)
{
	int ret = omx_become_user();

	if (ret)
		return 1000 + ret;
	return omx_probe_open(OMAYEXEC_SYSCTL_PATH, *(int *)arg);
}

TEST(unprivileged_user_can_neither_read_nor_write)
{
	int flags = O_RDONLY;

	EXPECT_EQ(-EACCES, omx_in_child(open_as_user, &flags));
	flags = O_WRONLY;
	EXPECT_EQ(-EACCES, omx_in_child(open_as_user, &flags));
}

FIXTURE(sysctl) {
	int unused;
};

FIXTURE_SETUP(sysctl)
{
	ASSERT_EQ(0, omx_policy_set(0));
}

FIXTURE_TEARDOWN(sysctl)
{
	EXPECT_EQ(0, omx_policy_set(0));
}

TEST_F(sysctl, reading_gives_the_policy_written)
{
	static const int sequence[] = { 0, 1, 2, 3, 2, 0, 3, 1, 0 };
	char buf[16], text[16];
	unsigned int i;
	ssize_t len;
	int fd;

	for (i = 0; i < ARRAY_LEN(sequence); i++) {
		snprintf(text, sizeof(text), "%d", sequence[i]);
		ASSERT_EQ(0, omx_policy_write(text));
		fd = open(OMAYEXEC_SYSCTL_PATH, O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, fd);
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		ASSERT_LT(0, len);
		buf[len] = '\0';
		strcat(text, "\n");
		EXPECT_STREQ(text, buf);
	}
}

/* What "echo 2 > .../open_mayexec_enforce" writes. */
TEST_F(sysctl, trailing_newline_is_accepted)
{
	EXPECT_EQ(0, omx_policy_write("2\n"));
	EXPECT_EQ(2, omx_policy_read());
}

/* Reading needs no capability beyond the file's mode. */
TEST_F(sysctl, reading_needs_no_cap_mac_admin)
{
	ASSERT_EQ(0, omx_policy_set(3));
	ASSERT_EQ(0, omx_mac_admin(false));
	EXPECT_EQ(3, omx_policy_read());
	ASSERT_EQ(0, omx_mac_admin(true));
}

TEST_F(sysctl, write_without_cap_mac_admin_is_eperm)
{
	ASSERT_EQ(0, omx_policy_set(1));
	ASSERT_EQ(0, omx_mac_admin(false));
	EXPECT_EQ(-EPERM, omx_policy_write("2"));
	EXPECT_EQ(-EPERM, omx_policy_write("0"));
	EXPECT_EQ(1, omx_policy_read());
	ASSERT_EQ(0, omx_mac_admin(true));
	EXPECT_EQ(1, omx_policy_read());
}

/* The capability that counts is the writer's when it writes. */
TEST_F(sysctl, cap_mac_admin_is_checked_at_write_time)
{
	int fd;

	/* Opened with the capability, written without it. */
	ASSERT_EQ(0, omx_policy_set(1));
	fd = open(OMAYEXEC_SYSCTL_PATH, O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, omx_mac_admin(false));
	EXPECT_EQ(-1, write(fd, "3", 1));
	EXPECT_EQ(EPERM, errno);
	close(fd);
	EXPECT_EQ(1, omx_policy_read());

	/* Opened without the capability, written with it. */
	fd = open(OMAYEXEC_SYSCTL_PATH, O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, omx_mac_admin(true));
	EXPECT_EQ(1, write(fd, "3", 1));
	close(fd);
	EXPECT_EQ(3, omx_policy_read());
}

static int write_in_user_namespace(void *arg)
{
	int ret = omx_enter_user_namespace();

	(void)arg;
	if (ret)
		return 1000 + ret;
	/* Full capabilities, CAP_MAC_ADMIN included, in the new namespace. */
	return omx_policy_write("3");
}

TEST_F(sysctl, root_in_new_user_namespace_cannot_write)
{
	ASSERT_EQ(0, omx_policy_set(1));
	EXPECT_EQ(-EPERM, omx_in_child(write_in_user_namespace, NULL));
	EXPECT_EQ(1, omx_policy_read());
}

static int write_fd_from_user_namespace(void *arg)
{
	int fd = *(int *)arg, ret;

	ret = omx_enter_user_namespace();
	if (ret)
		return 1000 + ret;
	return write(fd, "3", 1) == 1 ? 0 : -errno;
}

/* An fd opened by a privileged root does not carry its privilege. */
TEST_F(sysctl, fd_passed_into_user_namespace_cannot_write)
{
	int fd;

	ASSERT_EQ(0, omx_policy_set(1));
	fd = open(OMAYEXEC_SYSCTL_PATH, O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-EPERM, omx_in_child(write_fd_from_user_namespace, &fd));
	close(fd);
	EXPECT_EQ(1, omx_policy_read());
}

/* ---- Invalid values ---------------------------------------------------- */

FIXTURE(invalid_value) {
	int unused;
};

FIXTURE_VARIANT(invalid_value) {
	const char *text;
	size_t len;	/* bytes written, when not strlen(text): NULs inside */
};

FIXTURE_VARIANT_ADD(invalid_value, above_3) { .text = "4" };
FIXTURE_VARIANT_ADD(invalid_value, far_above_3) { .text = "256" };
FIXTURE_VARIANT_ADD(invalid_value, negative) { .text = "-1" };
FIXTURE_VARIANT_ADD(invalid_value, not_a_number) { .text = "abc" };
FIXTURE_VARIANT_ADD(invalid_value, empty) { .text = "" };
FIXTURE_VARIANT_ADD(invalid_value, newline_only) { .text = "\n" };
FIXTURE_VARIANT_ADD(invalid_value, hexadecimal) { .text = "0x1" };
FIXTURE_VARIANT_ADD(invalid_value, trailing_garbage) { .text = "1a" };
FIXTURE_VARIANT_ADD(invalid_value, decimal_point) { .text = "1.0" };
FIXTURE_VARIANT_ADD(invalid_value, wraps_to_1_in_32_bits) { .text = "4294967297" };
FIXTURE_VARIANT_ADD(invalid_value, overflows_64_bits) { .text = "99999999999999999999" };
/* One spelling per policy: kstrtoint() would take each of these. */
FIXTURE_VARIANT_ADD(invalid_value, plus_sign) { .text = "+1" };
FIXTURE_VARIANT_ADD(invalid_value, minus_zero) { .text = "-0" };
FIXTURE_VARIANT_ADD(invalid_value, leading_zero) { .text = "01" };
FIXTURE_VARIANT_ADD(invalid_value, nul_after_digit) { .text = "1\0", .len = 2 };
FIXTURE_VARIANT_ADD(invalid_value, nul_then_garbage) { .text = "2\0junk", .len = 6 };
FIXTURE_VARIANT_ADD(invalid_value, leading_space) { .text = " 1" };
FIXTURE_VARIANT_ADD(invalid_value, trailing_space) { .text = "1 " };
FIXTURE_VARIANT_ADD(invalid_value, two_newlines) { .text = "1\n\n" };
FIXTURE_VARIANT_ADD(invalid_value, carriage_return) { .text = "1\r\n" };

FIXTURE_SETUP(invalid_value)
{
	ASSERT_EQ(0, omx_mac_admin(true));
}

FIXTURE_TEARDOWN(invalid_value)
{
	EXPECT_EQ(0, omx_policy_set(0));
}

TEST_F(invalid_value, is_einval_and_leaves_policy_unchanged)
{
	static const int start[] = { 0, 2, 3 };
	size_t len = variant->len ?: strlen(variant->text);
	unsigned int i;

	for (i = 0; i < ARRAY_LEN(start); i++) {
		ASSERT_EQ(0, omx_policy_set(start[i]));
		EXPECT_EQ(-EINVAL, omx_policy_write_bytes(variant->text, len))
			TH_LOG("writing \"%s\" under policy %d", variant->text,
			       start[i]);
		EXPECT_EQ(start[i], omx_policy_read());
	}
}

TEST_HARNESS_MAIN
