// SPDX-License-Identifier: GPL-2.0
/*
 * IMA sees an O_MAYEXEC open as a plain open for reading and, on top, as
 * an execution: IMA's FILE_CHECK is asked once with the open's own mask
 * (MAY_READ), as for any open, and once more with MAY_EXEC, as for a file
 * execve() opens.  So:
 *   - every rule a plain open for reading meets applies to it: the tcb
 *     policy's "measure func=FILE_CHECK mask=^MAY_READ euid=0" measures
 *     what root's interpreters open with the flag, and an "appraise
 *     func=FILE_CHECK mask=MAY_READ" rule refuses it an unsigned file;
 *   - "measure func=FILE_CHECK mask=MAY_EXEC" also measures the files
 *     interpreters open with O_MAYEXEC, and not the files opened without
 *     it, and the matching appraise rule refuses an unsigned file to
 *     O_MAYEXEC opens while plain opens of it still work.
 *
 * The IMA policy can be written once per boot (CONFIG_IMA_WRITE_POLICY is
 * off in Debian's kernel), so this binary needs a boot of its own: its
 * first test writes the policy below (one open, the rules written one line
 * per write(2) as the kernel consumes them) and leaves a note in
 * /run/omx-ima-policy for the tests after it.  If the policy was written
 * by anyone else in this boot, every test skips.
 *
 * Each rule is limited to the files of one owner (fowner=), which nothing
 * but this test creates, so that the rules do not overlap and the boot's
 * other programs run as before.  The tcb policy has no fowner, and
 * excludes tmpfs by its magic number (dont_measure fsmagic=0x1021994):
 * these rules have neither, so they apply on the workspace's tmpfs, where
 * IMA keeps its xattrs.
 *
 * With the module loaded with rfc_v1=1, open(2) with O_MAYEXEC is checked
 * too; without it, open(2) ignores the flag and IMA sees a plain read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "omx_test.h"
#include "module.h"

#define IMA_DIR		"/sys/kernel/security/ima"
#define IMA_POLICY	IMA_DIR "/policy"
#define IMA_LIST	IMA_DIR "/ascii_runtime_measurements"
#define POLICY_NOTE	"/run/omx-ima-policy"

/* The owners of the files each rule covers. */
#define EXEC_MEASURED_OWNER	0
#define EXEC_APPRAISED_OWNER	4242
#define READ_MEASURED_OWNER	4243
#define READ_APPRAISED_OWNER	4244

static const char measure_rule[] =
	"measure func=FILE_CHECK mask=MAY_EXEC fowner=0\n"
	/* The tcb policy's rule. */
	"measure func=FILE_CHECK mask=^MAY_READ euid=0 fowner=4243\n";
static const char appraise_rule[] =
	"appraise func=FILE_CHECK mask=MAY_EXEC fowner=4242 appraise_type=imasig\n"
	"appraise func=FILE_CHECK mask=MAY_READ fowner=4244 appraise_type=imasig\n";

/*
 * Write @rules to the IMA policy file: the kernel takes one rule per
 * write(2) and applies the list when the file is closed.  0 or -errno.
 */
static int write_policy(const char *rules)
{
	size_t len = strlen(rules), done = 0;
	ssize_t n;
	int fd, ret = 0;

	fd = open(IMA_POLICY, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (done < len) {
		n = write(fd, rules + done, len - done);
		if (n <= 0) {
			ret = n < 0 ? -errno : -EIO;
			break;
		}
		done += n;
	}
	/* The list is applied (or, after an error, dropped) on close. */
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

enum ima_state {
	IMA_ABSENT,		/* no IMA in this kernel */
	IMA_TAKEN,		/* someone else wrote the policy */
	IMA_MEASURE,		/* our rules: the measure rule only */
	IMA_MEASURE_APPRAISE,	/* our rules: both */
};

/* Leave the note for the next tests of this binary. */
static void write_note(const char *text)
{
	int fd = open(POLICY_NOTE, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		      0644);

	if (fd < 0)
		return;
	if (write(fd, text, strlen(text)) < 0)
		unlink(POLICY_NOTE);
	close(fd);
}

/* Write our policy unless done already in this boot, and say what holds. */
static enum ima_state ima_policy_load(struct __test_metadata *_metadata)
{
	char rules[512], note[16] = "";
	int ret;

	if (access(IMA_DIR, F_OK))
		return IMA_ABSENT;
	if (!lc_read_file(POLICY_NOTE, note, sizeof(note)))
		return strcmp(note, "both") ? IMA_MEASURE : IMA_MEASURE_APPRAISE;
	if (access(IMA_POLICY, F_OK))
		return IMA_TAKEN;

	snprintf(rules, sizeof(rules), "%s%s", measure_rule, appraise_rule);
	ret = write_policy(rules);
	if (ret) {
		/* Without the appraise rule, at least measure. */
		TH_LOG("IMA refused the rules (%s): %s", strerror(-ret), rules);
		ret = write_policy(measure_rule);
		if (ret) {
			TH_LOG("IMA refused the measure rule: %s", strerror(-ret));
			return IMA_TAKEN;
		}
		write_note("measure");
		return IMA_MEASURE;
	}
	write_note("both");
	return IMA_MEASURE_APPRAISE;
}

/* Times @path is the file name of an entry of the measurement list. */
static int measured(const char *path)
{
	char line[8192], name[PATH_MAX];
	FILE *f = fopen(IMA_LIST, "re");
	int n = 0;

	if (!f)
		return -errno;
	/* "PCR template-hash template-name file-hash file-name [signature]" */
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %*s %*s %*s %4095s", name) == 1 &&
		    !strcmp(name, path))
			n++;
	fclose(f);
	return n;
}

FIXTURE(ima) {
	struct omx_ws ws;
	enum ima_state state;
};

FIXTURE_SETUP(ima)
{
	struct omx_ws *ws = &self->ws;

	/* Before the workspace: the policy is written from the boot's root. */
	self->state = ima_policy_load(_metadata);
	ASSERT_EQ(0, omx_ws_create(ws));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(ws, "exec", 0));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(ws, "noexec", MS_NOEXEC));
	ASSERT_EQ(0, omx_policy_set(0));
}

FIXTURE_TEARDOWN(ima)
{
	EXPECT_EQ(0, omx_policy_set(0));
	EXPECT_EQ(0, omx_ws_destroy(&self->ws));
}

#define REQUIRE_POLICY(self) do {					\
	if ((self)->state == IMA_ABSENT)				\
		SKIP(return, "no IMA in this kernel");			\
	if ((self)->state == IMA_TAKEN)					\
		SKIP(return, "the IMA policy of this boot is not ours: run ima_test in a boot of its own"); \
} while (0)

/* A file whose content is its own name, so that no two hashes are equal. */
static void new_file(struct __test_metadata *_metadata, struct omx_ws *ws,
		     const char *rel, uid_t owner)
{
	int fd = openat(ws->dirfd, rel, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			0755);

	ASSERT_LE(0, fd);
	ASSERT_EQ((ssize_t)strlen(rel), write(fd, rel, strlen(rel)));
	ASSERT_EQ(0, fchown(fd, owner, owner));
	ASSERT_EQ(0, fchmod(fd, 0755));
	close(fd);
}

/* Read the first byte of an fd: 0, or -errno. */
static int read_and_close(int fd)
{
	char c;
	int ret;

	if (fd < 0)
		return fd;
	ret = read(fd, &c, 1) == 1 ? 0 : -errno;
	close(fd);
	return ret;
}

static int mayexec_openat2(struct omx_ws *ws, const char *rel)
{
	return read_and_close(omx_openat2(ws->dirfd, rel,
					  O_RDONLY | O_CLOEXEC | O_MAYEXEC, 0));
}

static int plain_openat2(struct omx_ws *ws, const char *rel)
{
	return read_and_close(omx_openat2(ws->dirfd, rel,
					  O_RDONLY | O_CLOEXEC, 0));
}

static int mayexec_open(struct omx_ws *ws, const char *rel)
{
	int fd = open(omx_ws_path(ws, rel), O_RDONLY | O_CLOEXEC | O_MAYEXEC);

	return read_and_close(fd < 0 ? -errno : fd);
}

TEST_F(ima, measure_rule_matches_o_mayexec_opens_only)
{
	struct {
		const char *rel;
		int (*open_fn)(struct omx_ws *ws, const char *rel);
		bool measured;
	} files[] = {
		{ "exec/with_o_mayexec", mayexec_openat2, true },
		{ "exec/without_o_mayexec", plain_openat2, false },
		/* RFC v1: open(2) honours the flag only with rfc_v1. */
		{ "exec/open_with_o_mayexec", mayexec_open, omx_rfc_v1_enabled() },
	};
	unsigned int i;

	REQUIRE_POLICY(self);
	for (i = 0; i < ARRAY_LEN(files); i++) {
		const char *path = omx_ws_path(&self->ws, files[i].rel);

		new_file(_metadata, &self->ws, files[i].rel,
			 EXEC_MEASURED_OWNER);
		ASSERT_EQ(0, measured(path));
		EXPECT_EQ(0, files[i].open_fn(&self->ws, files[i].rel));
		EXPECT_EQ(files[i].measured ? 1 : 0, measured(path))
			TH_LOG("%s", path);
	}
}

/* IMA runs after the open; a refused open never reaches it. */
TEST_F(ima, refused_open_is_not_measured)
{
	const char *path = omx_ws_path(&self->ws, "noexec/refused");

	REQUIRE_POLICY(self);
	new_file(_metadata, &self->ws, "noexec/refused",
		 EXEC_MEASURED_OWNER);
	ASSERT_EQ(0, omx_policy_set(OMAYEXEC_ENFORCE_MOUNT));
	EXPECT_EQ(-EACCES, mayexec_openat2(&self->ws, "noexec/refused"));
	EXPECT_EQ(0, measured(path));
	/* Allowed again, it is. */
	ASSERT_EQ(0, omx_policy_set(0));
	EXPECT_EQ(0, mayexec_openat2(&self->ws, "noexec/refused"));
	EXPECT_EQ(1, measured(path));
}

TEST_F(ima, appraise_rule_refuses_unsigned_files_to_o_mayexec_opens)
{
	REQUIRE_POLICY(self);
	if (self->state != IMA_MEASURE_APPRAISE)
		SKIP(return, "IMA did not take the appraise rule");
	new_file(_metadata, &self->ws, "exec/unsigned", EXEC_APPRAISED_OWNER);
	new_file(_metadata, &self->ws, "exec/not_appraised",
		 EXEC_MEASURED_OWNER);

	EXPECT_EQ(-EACCES, mayexec_openat2(&self->ws, "exec/unsigned"));
	EXPECT_EQ(0, plain_openat2(&self->ws, "exec/unsigned"));
	EXPECT_EQ(omx_rfc_v1_enabled() ? -EACCES : 0,
		  mayexec_open(&self->ws, "exec/unsigned"));
	/* Still refused after a plain open. */
	EXPECT_EQ(-EACCES, mayexec_openat2(&self->ws, "exec/unsigned"));
	/* The control: a file the rule does not cover (fowner). */
	EXPECT_EQ(0, mayexec_openat2(&self->ws, "exec/not_appraised"));
}

/*
 * The tcb policy's read rule measures what root opens with O_MAYEXEC, as
 * what it opens without: no exec rule covers these files.
 */
TEST_F(ima, read_measure_rule_matches_o_mayexec_opens)
{
	static const char *const rels[] = {
		"exec/read_with_o_mayexec", "exec/read_without_o_mayexec",
	};
	unsigned int i;

	REQUIRE_POLICY(self);
	for (i = 0; i < ARRAY_LEN(rels); i++) {
		const char *path = omx_ws_path(&self->ws, rels[i]);

		new_file(_metadata, &self->ws, rels[i], READ_MEASURED_OWNER);
		ASSERT_EQ(0, measured(path));
		EXPECT_EQ(0, i ? plain_openat2(&self->ws, rels[i]) :
				 mayexec_openat2(&self->ws, rels[i]));
		EXPECT_EQ(1, measured(path)) TH_LOG("%s", path);
	}
}

/* Adding O_MAYEXEC does not escape a rule that appraises reads. */
TEST_F(ima, read_appraise_rule_refuses_unsigned_files_to_o_mayexec_opens)
{
	REQUIRE_POLICY(self);
	if (self->state != IMA_MEASURE_APPRAISE)
		SKIP(return, "IMA did not take the appraise rules");
	new_file(_metadata, &self->ws, "exec/read_unsigned",
		 READ_APPRAISED_OWNER);

	EXPECT_EQ(-EACCES, plain_openat2(&self->ws, "exec/read_unsigned"));
	EXPECT_EQ(-EACCES, mayexec_openat2(&self->ws, "exec/read_unsigned"));
	EXPECT_EQ(-EACCES, mayexec_open(&self->ws, "exec/read_unsigned"));
}

TEST_HARNESS_MAIN
