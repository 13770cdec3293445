// SPDX-License-Identifier: GPL-2.0
/*
 * omayexec installed as an administrator installs it: built by DKMS, loaded
 * by "modprobe omayexec" with the options of /etc/modprobe.d/omayexec.conf.
 *
 * tests/run-check prepares this boot on the host (tests/packaging/host-test):
 * it installs the omayexec-dkms package, which has DKMS build the module
 * for the packaged kernel, keeps that omayexec.ko (omayexec.ko.xz on
 * Debian 13, whose DKMS compresses it as the kernel's modules are), and
 * takes the
 * /etc/modprobe.d/omayexec.conf of the omayexec package with its static
 * locked policy line uncommented, as the file tells the administrator to.
 * The VM (qemu/run-vm --no-module) gets both where they are on an installed
 * machine; by hand:
 *
 *   qemu/run-vm --no-module \
 *     --add-as build/packaging/omayexec.ko /usr/lib/modules/$KVER/updates/dkms/omayexec.ko \
 *     --add-as build/packaging/modprobe.conf /etc/modprobe.d/omayexec.conf \
 *     -- build/tests/dkms_modprobe_test
 *
 * (with OMAYEXEC_KO=/nonexistent, so that run-vm does not also install
 * module/omayexec.ko as extra/omayexec.ko).  The test reads the policy and
 * the lock it expects from the modprobe.d file itself, runs depmod and
 * "modprobe omayexec", and checks that the module came from DKMS's place,
 * that the policy in force and its lock are the file's, and that the
 * module cannot be unloaded.  A locked module stays: the cases run in
 * order, in one boot of their own.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "omx.h"
#include "module.h"
#include "kselftest_harness.h"

#define MODPROBE_CONF	"/etc/modprobe.d/omayexec.conf"
/* Debian's dkms installs every module there, whatever dkms.conf says. */
#define DKMS_SUBDIR	"updates/dkms"

/* What the modprobe.d file asks for. */
struct conf {
	char options[256];	/* the words after "options omayexec" */
	int enforce;		/* 0 when not given, as the module's default */
	bool locked;
};

/*
 * Reads the first "options omayexec ..." line of PATH that is not a
 * comment: 0, -ENOENT when there is none, -errno when PATH cannot be read,
 * -EINVAL for a value this test does not understand.
 */
static int conf_read(const char *path, struct conf *conf)
{
	char line[512], *word, *save;
	int ret = -ENOENT;
	FILE *f;

	memset(conf, 0, sizeof(*conf));
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (ret == -ENOENT && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "#\n")] = '\0';
		word = strtok_r(line, " \t", &save);
		if (!word || strcmp(word, "options"))
			continue;
		word = strtok_r(NULL, " \t", &save);
		if (!word || strcmp(word, "omayexec"))
			continue;
		ret = 0;
		while ((word = strtok_r(NULL, " \t", &save))) {
			if (conf->options[0])
				strncat(conf->options, " ",
					sizeof(conf->options) - strlen(conf->options) - 1);
			strncat(conf->options, word,
				sizeof(conf->options) - strlen(conf->options) - 1);
			if (!strncmp(word, "enforce=", 8)) {
				if (strlen(word) != 9 || word[8] < '0' || word[8] > '3')
					ret = -EINVAL;
				conf->enforce = word[8] - '0';
			} else if (!strncmp(word, "locked=", 7)) {
				conf->locked = strchr("1yY", word[7]) && word[7];
			}
		}
	}
	fclose(f);
	return ret;
}

/* The first line that COMMAND prints, without its newline, or -errno. */
static int first_line_of(const char *command, char *buf, size_t len)
{
	FILE *p;
	int status;

	buf[0] = '\0';
	fflush(stdout);
	p = popen(command, "re");
	if (!p)
		return -errno;
	if (fgets(buf, len, p))
		buf[strcspn(buf, "\n")] = '\0';
	while (fgetc(p) != EOF)
		;
	status = pclose(p);
	return status == 0 ? 0 : -EIO;
}

FIXTURE(dkms) {
	struct omx_ws ws;
	struct conf conf;
	char release[65];
};

FIXTURE_SETUP(dkms)
{
	struct utsname uts;

	self->ws.dirfd = -1;
	ASSERT_EQ(0, uname(&uts));
	snprintf(self->release, sizeof(self->release), "%s", uts.release);
	ASSERT_EQ(0, conf_read(MODPROBE_CONF, &self->conf)) {
		TH_LOG("%s: no usable \"options omayexec\" line", MODPROBE_CONF);
	}
	ASSERT_EQ(0, omx_ws_create(&self->ws));
	ASSERT_EQ(0, lc_ws_populate(&self->ws));
}

FIXTURE_TEARDOWN(dkms)
{
	omx_ws_destroy(&self->ws);
}

/* The policy in force, seen three ways, is the file's. */
static void expect_file_policy(struct __test_metadata *_metadata,
			       FIXTURE_DATA(dkms) *self)
{
	char buf[16], why[256];
	int seen;

	ASSERT_TRUE(mod_is_loaded(MOD_OMAYEXEC));
	EXPECT_EQ(self->conf.enforce, omx_policy_read());
	ASSERT_EQ(0, mod_param(MOD_OMAYEXEC, "enforce", buf, sizeof(buf)));
	EXPECT_EQ(self->conf.enforce, atoi(buf));
	seen = lc_policy_seen(self->ws.dirfd, why, sizeof(why));
	EXPECT_EQ(self->conf.enforce, seen) {
		TH_LOG("%s", why);
	}
}

/* The premise: the file sets a static, locked, enforcing policy. */
TEST_F(dkms, file_asks_for_a_locked_policy)
{
	TH_LOG("%s: options omayexec %s", MODPROBE_CONF, self->conf.options);
	EXPECT_NE(0, self->conf.enforce);
	EXPECT_TRUE(self->conf.locked);
}

/* modprobe finds the module where DKMS put it, with the file's options. */
TEST_F(dkms, modprobe_resolves_to_the_dkms_module)
{
	char want[512], line[512], extra[256];
	size_t n;
	char *depmod[] = { "depmod", "-a", self->release, NULL };

	ASSERT_FALSE(mod_is_loaded(MOD_OMAYEXEC)) {
		TH_LOG("omayexec was loaded before modprobe: boot with --no-module");
	}
	/* Only DKMS's copy: not the one run-vm installs for the other boots. */
	snprintf(extra, sizeof(extra), "/lib/modules/%s/extra/omayexec.ko",
		 self->release);
	EXPECT_NE(0, access(extra, F_OK));
	ASSERT_EQ(0, lc_run(depmod));
	/* Debian 13's DKMS compresses it, as that kernel's own modules are. */
	snprintf(want, sizeof(want), "/lib/modules/%s/" DKMS_SUBDIR "/omayexec.ko.xz",
		 self->release);
	snprintf(want, sizeof(want), "insmod /lib/modules/%s/" DKMS_SUBDIR "/omayexec.ko%s %s",
		 self->release, access(want, F_OK) ? "" : ".xz", self->conf.options);
	ASSERT_EQ(0, first_line_of("modprobe --show-depends omayexec", line, sizeof(line)));
	/* modprobe ends the line with a space after the options. */
	n = strlen(line);
	while (n && line[n - 1] == ' ')
		line[--n] = '\0';
	EXPECT_STREQ(want, line);
}

TEST_F(dkms, modprobe_loads_with_the_file_options)
{
	char *modprobe[] = { "modprobe", "omayexec", NULL };
	char buf[16];

	ASSERT_EQ(0, lc_run(modprobe));
	expect_file_policy(_metadata, self);
	ASSERT_EQ(0, mod_param(MOD_OMAYEXEC, "locked", buf, sizeof(buf)));
	EXPECT_STREQ(self->conf.locked ? "Y" : "N", buf);
}

/* Locked: no write changes the policy, even with CAP_MAC_ADMIN. */
TEST_F(dkms, policy_cannot_change)
{
	static const char *const values[] = { "0", "1", "2", "3" };
	size_t i;

	ASSERT_TRUE(self->conf.locked);
	ASSERT_EQ(0, omx_mac_admin(true));
	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		EXPECT_EQ(-EPERM, omx_policy_write(values[i])) {
			TH_LOG("writing \"%s\"", values[i]);
		}
	}
	expect_file_policy(_metadata, self);
}

/* Locked: neither rmmod nor modprobe -r removes it; nothing forces it. */
TEST_F(dkms, unload_refused)
{
	char *rmmod[] = { "rmmod", "omayexec", NULL };
	char *modprobe_r[] = { "modprobe", "-r", "omayexec", NULL };

	ASSERT_TRUE(self->conf.locked);
	EXPECT_NE(0, lc_run(rmmod));
	EXPECT_NE(0, lc_run(modprobe_r));
	EXPECT_EQ(-EAGAIN, mod_unload(MOD_OMAYEXEC));
	expect_file_policy(_metadata, self);
}

TEST_HARNESS_MAIN
