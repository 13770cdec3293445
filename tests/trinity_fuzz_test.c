// SPDX-License-Identifier: GPL-2.0
/*
 * trinity, Debian's system call fuzzer, against the module: something that
 * does not think like its authors.
 *
 * trinity runs as an unprivileged user (uid OMX_USER_UID, no capabilities),
 * its children restricted to the system calls that reach the module or the
 * state it keeps: open, openat, openat2 (random flags, the module's bit
 * among them, random resolve bits), execveat (AT_EXECVE_CHECK among its
 * random flags), prctl (PR_SET_SECUREBITS among its options), unshare and
 * setns (the exec securebits across user namespaces), memfd_create and
 * close; its victim files are of every type (regular files with and
 * without x bits on an exec and a noexec tmpfs, a directory, a FIFO, a
 * socket, a device, symlinks, one into /proc), beside its own descriptors of most kinds (pipes,
 * memfds, eventfds, epoll, timerfds, /proc and /sys files...).  Meanwhile, as root:
 *
 *  - policy_changes: the policy changes every few milliseconds (0 to 3);
 *  - module_reloads: the module is unloaded and loaded again, with a random
 *    policy, in a loop; trinity makes no prctl() there, so that nothing
 *    pins the module (an exec securebit would, for good: module/pin.c).
 *
 * The kernel is the oracle: any BUG, WARNING, Oops, KASAN, lockdep or UBSAN
 * report on the console fails the boot (tests/run-check), and this test
 * fails if the kernel log shows one, with the seed.  trinity must also
 * have run: its last report line gives the system calls it made.
 *
 * OMX_FUZZ_SECONDS (default 60: trinity takes about 10 s to set up under
 * TCG, more on a debug kernel) sets each variant's time, OMX_FUZZ_SEED
 * reruns one (trinity's -s).  Last in its boot: trinity may leave the
 * module pinned, and the policy as it was last set.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "omx.h"
#include "omx_rand.h"
#include "module.h"
#include "kselftest_harness.h"
#include "lifecycle.h"

#define TRINITY		"/usr/bin/trinity"

struct shared {
	volatile int stop;
	long changes, loads, unloads, refused_unloads;
};

FIXTURE(trinity) {
	struct omx_ws ws;
	struct klog log;
	struct shared *sh;
	char victims[PATH_MAX];
	char report[PATH_MAX];
};

FIXTURE_VARIANT(trinity) {
	bool reload;
};

/* Reloads first: trinity's prctl() in the other may pin the module. */
FIXTURE_VARIANT_ADD(trinity, module_reloads) { .reload = true };
FIXTURE_VARIANT_ADD(trinity, policy_changes) { .reload = false };

FIXTURE_SETUP(trinity)
{
	static const struct { const char *rel; mode_t mode; } files[] = {
		{ "exec/x", 0755 }, { "exec/nx", 0644 }, { "exec/ux", 0700 },
		{ "noexec/x", 0755 }, { "noexec/nx", 0644 },
	};
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	size_t i;
	int s;

	self->ws.dirfd = -1;
	self->log.fd = -1;
	self->sh = mmap(NULL, sizeof(*self->sh), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->sh);
	ASSERT_EQ(0, access(TRINITY, X_OK)) {
		TH_LOG("%s: %s (Debian's trinity package)", TRINITY,
		       strerror(errno));
	}
	ASSERT_EQ(0, klog_open(&self->log));
	/* As the boot loads it, whatever the variant before left. */
	if (!omx_module_loaded())
		ASSERT_EQ(0, mod_load(mod_omayexec_path(), ""));
	ASSERT_EQ(0, omx_ws_create(&self->ws));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(&self->ws, "exec", 0));
	ASSERT_EQ(0, omx_ws_mount_tmpfs(&self->ws, "noexec", MS_NOEXEC));
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		ASSERT_EQ(0, omx_ws_file(&self->ws, files[i].rel, files[i].mode,
					 OMX_USER_UID, OMX_USER_GID));
	ASSERT_EQ(0, mkdir(omx_ws_path(&self->ws, "exec/dir"), 0755));
	ASSERT_EQ(0, mkfifo(omx_ws_path(&self->ws, "exec/fifo"), 0666));
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ASSERT_LE(0, s);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s",
		 omx_ws_path(&self->ws, "exec/sock"));
	ASSERT_EQ(0, bind(s, (struct sockaddr *)&sun, sizeof(sun)));
	close(s);
	ASSERT_EQ(0, symlink("x", omx_ws_path(&self->ws, "exec/l_x")));
	ASSERT_EQ(0, symlink("../noexec/x", omx_ws_path(&self->ws, "exec/l_noexec")));
	ASSERT_EQ(0, symlink("/dev/null", omx_ws_path(&self->ws, "exec/l_null")));
	ASSERT_EQ(0, symlink("/proc/self/status", omx_ws_path(&self->ws, "exec/l_proc")));
	ASSERT_EQ(0, mknod(omx_ws_path(&self->ws, "exec/zero"), S_IFCHR | 0666,
			   makedev(1, 5)));
	/* trinity's own files (its testfile descriptors) go to its cwd. */
	ASSERT_EQ(0, mkdir(omx_ws_path(&self->ws, "exec/run"), 0777));
	ASSERT_EQ(0, chmod(omx_ws_path(&self->ws, "exec/run"), 0777));
	/* One file system: trinity's walk does not cross into noexec/. */
	snprintf(self->victims, sizeof(self->victims), "%s",
		 omx_ws_path(&self->ws, "exec"));
	snprintf(self->report, sizeof(self->report), "%s",
		 omx_ws_path(&self->ws, "trinity.out"));
	klog_collect(&self->log);
}

FIXTURE_TEARDOWN(trinity)
{
	lc_fail_on_kernel_trouble(_metadata, &self->log);
	klog_close(&self->log);
	if (chdir("/") == 0)
		omx_ws_destroy(&self->ws);
	munmap(self->sh, sizeof(*self->sh));
}

/* Root, beside trinity: the policy changes, or the module comes and goes. */
static void disturber(struct shared *sh, bool reload, uint64_t seed)
{
	const char *ko = mod_omayexec_path();
	char params[16];
	uint64_t rng = seed ^ 0x9e3779b97f4a7c15ULL;
	int ret;

	while (!sh->stop) {
		if (!reload) {
			if (!omx_policy_set(omx_rand_below(&rng, 4)))
				sh->changes++;
			usleep(1000 + omx_rand_below(&rng, 9000));
			continue;
		}
		ret = mod_unload(MOD_OMAYEXEC);
		if (!ret)
			sh->unloads++;
		else if (ret != -ENOENT)
			sh->refused_unloads++;	/* in use, or pinned */
		snprintf(params, sizeof(params), "enforce=%u",
			 omx_rand_below(&rng, 4));
		if (!mod_load(ko, params))
			sh->loads++;
		usleep(50 * 1000 + omx_rand_below(&rng, 100 * 1000));
	}
	_exit(0);
}

/* trinity as the user, its output in @report; never returns. */
static void run_trinity(const char *victims, const char *report,
			const char *run_dir, uint64_t seed, bool reload)
{
	static const char *const calls[] = {
		"open", "openat", "openat2", "execveat", "prctl", "unshare",
		"setns", "memfd_create", "close",
	};
	char seed_arg[32], *argv[64];
	int argc = 0, fd;
	size_t i;

	fd = open(report, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || fchown(fd, OMX_USER_UID, OMX_USER_GID) ||
	    dup2(fd, 1) < 0 || dup2(fd, 2) < 0 || chdir(run_dir) ||
	    omx_become_user())
		_exit(125);
	snprintf(seed_arg, sizeof(seed_arg), "%llu",
		 (unsigned long long)(seed & 0xffffffff));
	argv[argc++] = "trinity";
	argv[argc++] = "-q";
	argv[argc++] = "-l";
	argv[argc++] = "off";
	argv[argc++] = "-C";
	argv[argc++] = "2";
	argv[argc++] = "-s";
	argv[argc++] = seed_arg;
	argv[argc++] = "-V";
	argv[argc++] = (char *)victims;
	argv[argc++] = "--stats";
	/*
	 * Not its socket descriptors: in the guest, trinity 2023.01 died of a
	 * SIGSEGV while it made them (the socket victim file stays); nor
	 * perf's or DRM's, which the guest has not.
	 */
	argv[argc++] = "--disable-fds=sockets,perf,drm";
	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		if (reload && !strcmp(calls[i], "prctl"))
			continue;
		argv[argc++] = "-c";
		argv[argc++] = (char *)calls[i];
	}
	argv[argc] = NULL;
	setpgid(0, 0);
	execv(TRINITY, argv);
	_exit(127);
}

/* The last line of @path that holds @needle, in @buf. */
static bool last_line_with(const char *path, const char *needle, char *buf,
			   size_t len)
{
	char line[512];
	bool found = false;
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, needle)) {
			snprintf(buf, len, "%s", line);
			buf[strcspn(buf, "\n")] = '\0';
			found = true;
		}
	}
	fclose(f);
	return found;
}

/* @path's last 40 lines on stderr, as "# " lines. */
static void show_file(const char *path)
{
	char lines[40][256], *nl;
	FILE *f = fopen(path, "r");
	long n = 0, i;

	if (!f)
		return;
	while (fgets(lines[n % 40], sizeof(lines[0]), f))
		n++;
	fclose(f);
	for (i = n > 40 ? n - 40 : 0; i < n; i++) {
		nl = strchr(lines[i % 40], '\n');
		if (nl)
			*nl = '\0';
		fprintf(stderr, "#   %s\n", lines[i % 40]);
	}
}

TEST_F_TIMEOUT(trinity, the_kernel_stays_clean, 86400)
{
	uint64_t seconds = omx_env_number("OMX_FUZZ_SECONDS", 60);
	uint64_t seed = omx_rand_seed("OMX_FUZZ_SEED");
	char ran[512] = "", run_dir[PATH_MAX];
	long syscalls;
	struct shared *sh = self->sh;
	pid_t fuzzer, other;
	int i, status, ret;

	TH_LOG("%s: seed %llu (OMX_FUZZ_SEED=%llu reruns it, trinity -s %llu), %llu s",
	       variant->reload ? "module reloads" : "policy changes",
	       (unsigned long long)seed, (unsigned long long)seed,
	       (unsigned long long)(seed & 0xffffffff),
	       (unsigned long long)seconds);
	snprintf(run_dir, sizeof(run_dir), "%s", omx_ws_path(&self->ws, "exec/run"));
	fflush(stdout);
	fflush(stderr);
	other = fork();
	ASSERT_LE(0, other);
	if (!other)
		disturber(sh, variant->reload, seed);
	fuzzer = fork();
	ASSERT_LE(0, fuzzer);
	if (!fuzzer)
		run_trinity(self->victims, self->report, run_dir, seed,
			    variant->reload);

	for (i = 0; i < (int)seconds; i++) {
		if (waitpid(fuzzer, &status, WNOHANG) == fuzzer)
			break;
		sleep(1);
	}
	if (i == (int)seconds) {
		/* trinity reports on SIGINT; whatever is left is killed. */
		kill(-fuzzer, SIGINT);
		ret = 0;
		for (i = 0; i < 300 && !ret; i++) {
			ret = waitpid(fuzzer, &status, WNOHANG);
			usleep(100 * 1000);
		}
		kill(-fuzzer, SIGKILL);
		if (!ret)
			waitpid(fuzzer, &status, 0);
	}
	sh->stop = 1;
	EXPECT_EQ(other, waitpid(other, NULL, 0));

	last_line_with(self->report, "Ran ", ran, sizeof(ran));
	TH_LOG("trinity: %s", ran);
	syscalls = strstr(ran, "Ran ") ? strtol(strstr(ran, "Ran ") + 4, NULL, 10) : 0;
	EXPECT_LT(0, syscalls) {
		TH_LOG("trinity made no system call (status %#x); its output:",
		       status);
		show_file(self->report);
	}
	TH_LOG("meanwhile: %ld policy changes, %ld loads, %ld unloads, %ld unloads refused (in use or pinned)",
	       sh->changes, sh->loads, sh->unloads, sh->refused_unloads);
	if (variant->reload) {
		EXPECT_LT(0, sh->loads);
		EXPECT_LT(0, sh->unloads);
	} else {
		EXPECT_LT(0, sh->changes);
	}
	klog_collect(&self->log);
}

TEST_HARNESS_MAIN
