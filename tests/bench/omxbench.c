// SPDX-License-Identifier: GPL-2.0
/*
 * omxbench: time one open workload, in the test VM (tests/bench/guest-bench).
 *
 *   omxbench [-n ITERS] [-r REPS] [-w WARMUP] [-t THREADS] [-s STATE] [-o] WORKLOAD
 *   omxbench [-n ITERS] [-r REPS] [-w WARMUP] [-s STATE] run LABEL COMMAND [ARG...]
 *
 * Runs in a directory that holds "prog" (a tiny static executable, mode
 * 0755) and "data" (a regular file, mode 0644).  WORKLOAD is one of:
 *
 *   open             open("prog", O_RDONLY) + close()
 *   openat           openat(dfd, "prog", O_RDONLY) + close()
 *   openat2          openat2(dfd, "prog", {O_RDONLY}) + close()
 *   mayexec_ok       openat2(dfd, "prog", {O_RDONLY|O_MAYEXEC}) + close()
 *                    (allowed at every policy: prog is executable)
 *   mayexec_refused  openat2(dfd, "data", {O_RDONLY|O_MAYEXEC}), + close()
 *                    if it succeeded (refused with EACCES at policy 2 or 3:
 *                    data has no x bit; allowed at policy 0)
 *   execve           vfork() + execve("./prog") + waitpid(); prog is
 *                    a static binary without libc that calls exit(0)
 *   check_ok         execveat(dfd, "prog", AT_EXECVE_CHECK): the upstream
 *                    interface's answer about the file mayexec_ok opens
 *                    (0 at every policy: it does not depend on it)
 *   check_refused    execveat(dfd, "data", AT_EXECVE_CHECK) (EACCES)
 *   run              vfork() + execve(COMMAND, ARGs, this environment) +
 *                    waitpid(): a whole program's run (an interpreter on a
 *                    script), its output to /dev/null; reported as
 *                    workload LABEL; "ok" when every run exited 0
 *
 * With -o (open only; one thread; not for execve), the opens are timed in
 * batches of 256 and the fds closed between batches, outside the timed
 * part: the cost of the open alone, so that an open the policy refuses
 * (which leaves nothing to close) compares with an allowed one.  The
 * workload is then reported as WORKLOAD:open.
 *
 * With -p ID -m ADDR (for tests/bench/run-profile; one thread), the timed
 * operations (with -o: the opens alone) run inside profile window ID of
 * tests/bench/profile-plugin.c: omxbench maps a page at the user address
 * ADDR with a "ret" every 64 bytes and calls ADDR + 64 * ID before them,
 * ADDR after them, which the plugin, told ADDR, sees.
 *
 * dfd is the current directory, opened once.  Each of THREADS threads
 * (pinned to CPU i modulo the CPU count) runs WARMUP untimed operations,
 * waits for the others at a barrier, then runs ITERS timed ones; a
 * repetition's elapsed time goes from the first thread's start to the last
 * thread's end, on CLOCK_MONOTONIC.  Under QEMU's -icount shift=0 that clock
 * counts guest instructions (of all vCPUs: TCG then runs them in turn).
 *
 * Output, one line per repetition:
 *   R STATE WORKLOAD THREADS REP OPS ELAPSED_NS OUTCOME
 * where OPS = THREADS * ITERS and OUTCOME is "ok" when every operation
 * succeeded, the errno name (e.g. EACCES, EINVAL) when every one failed
 * the same way (for run: exitN or sigN, the command's status), "mixed"
 * otherwise.  Exit status 0, or 1 on a usage or
 * set-up error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/omayexec.h>

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

enum workload { W_OPEN, W_OPENAT, W_OPENAT2, W_MAYEXEC_OK, W_MAYEXEC_REFUSED,
		W_EXECVE, W_CHECK_OK, W_CHECK_REFUSED, W_RUN };

/* run: a command's failure, apart from errno values (which are smaller). */
#define RUN_EXITED	0x10000
#define RUN_KILLED	0x20000

static const char *const names[] = {
	[W_OPEN] = "open",
	[W_OPENAT] = "openat",
	[W_OPENAT2] = "openat2",
	[W_MAYEXEC_OK] = "mayexec_ok",
	[W_MAYEXEC_REFUSED] = "mayexec_refused",
	[W_EXECVE] = "execve",
	[W_CHECK_OK] = "check_ok",
	[W_CHECK_REFUSED] = "check_refused",
	[W_RUN] = "run",
};

static enum workload workload;
static long iters = 20000, warmup = 1000;
static int nthreads = 1, dfd, open_only;
static pthread_barrier_t start_barrier, end_barrier;
static char *const exec_argv[] = { "prog", NULL };
static char *const exec_envp[] = { NULL };
static char **run_argv;		/* run: the command */
static int devnull;		/* run: its standard output and error */
static void (*window_open)(void), (*window_close)(void);	/* -p */

struct thread {
	pthread_t tid;
	int index;
	uint64_t start, end;
	int err;	/* 0: all ok; errno of every failure; -1: mixed */
};

static uint64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static long sys_openat2(int fd, const char *path, uint64_t flags)
{
	struct open_how how = { .flags = flags };

	return syscall(SYS_openat2, fd, path, &how, sizeof(how));
}

/*
 * -p ID -m ADDR: the page of profile-plugin.c's markers, a "ret" every
 * PROFILE_STRIDE bytes; the window opens at ADDR + ID * PROFILE_STRIDE.
 */
#define PROFILE_STRIDE	64
#define PROFILE_WINDOWS	15

/* A marker: a return, in the guest architecture's encoding. */
#if defined(__x86_64__)
static const unsigned char marker_ret[] = { 0xc3 };			/* ret */
#elif defined(__aarch64__)
static const unsigned char marker_ret[] = { 0xc0, 0x03, 0x5f, 0xd6 };	/* ret */
#else
#error "omxbench: no marker instruction for this architecture"
#endif

static int map_markers(unsigned long addr, int id)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *p;
	int i;

	p = mmap((void *)addr, page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p == MAP_FAILED || p != (void *)addr)
		return -1;
	for (i = 0; i <= PROFILE_WINDOWS; i++)
		memcpy(p + i * PROFILE_STRIDE, marker_ret, sizeof(marker_ret));
	/* arm64's instruction cache is not coherent with the stores above. */
	__builtin___clear_cache((char *)p, (char *)p + page);
	if (mprotect(p, page, PROT_READ | PROT_EXEC))
		return -1;
	window_open = (void (*)(void))(p + id * PROFILE_STRIDE);
	window_close = (void (*)(void))p;
	return 0;
}

static void profile_start(void)
{
	if (window_open)
		window_open();
}

static void profile_stop(void)
{
	if (window_close)
		window_close();
}

/* The open of an open workload: the fd, or -1 with errno set. */
static int do_open(void)
{
	switch (workload) {
	case W_OPEN:
		return open("prog", O_RDONLY);
	case W_OPENAT:
		return openat(dfd, "prog", O_RDONLY);
	case W_OPENAT2:
		return sys_openat2(dfd, "prog", O_RDONLY);
	case W_MAYEXEC_OK:
		return sys_openat2(dfd, "prog", O_RDONLY | O_MAYEXEC);
	case W_MAYEXEC_REFUSED:
		return sys_openat2(dfd, "data", O_RDONLY | O_MAYEXEC);
	default:
		abort();
	}
}

/* run: the command once; 0 when it exited 0, else why not. */
static int run_command(void)
{
	int status;
	pid_t pid;

	pid = vfork();
	if (pid == 0) {
		if (dup2(devnull, STDOUT_FILENO) < 0 ||
		    dup2(devnull, STDERR_FILENO) < 0)
			_exit(126);
		execv(run_argv[0], run_argv);
		_exit(127);
	}
	if (pid < 0)
		return errno;
	if (waitpid(pid, &status, 0) != pid)
		return errno;
	if (WIFEXITED(status))
		return WEXITSTATUS(status) ? RUN_EXITED | WEXITSTATUS(status) : 0;
	return RUN_KILLED | (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* One operation: 0 on success, else an errno value (or RUN_*). */
static int one(void)
{
	int fd, status;
	pid_t pid;

	switch (workload) {
	case W_RUN:
		return run_command();
	case W_EXECVE:
		pid = vfork();
		if (pid == 0) {
			execve("prog", exec_argv, exec_envp);
			_exit(127);
		}
		if (pid < 0)
			return errno;
		if (waitpid(pid, &status, 0) != pid)
			return errno;
		return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : ECHILD;
	case W_CHECK_OK:
	case W_CHECK_REFUSED:
		if (syscall(SYS_execveat, dfd,
			    workload == W_CHECK_OK ? "prog" : "data",
			    exec_argv, exec_envp, AT_EXECVE_CHECK))
			return errno;
		return 0;
	default:
		fd = do_open();
	}
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* The outcome so far: the first operation's, or -1 once two differ. */
static void note(struct thread *t, long i, int err)
{
	if (i == 0)
		t->err = err;
	else if (err != t->err)
		t->err = -1;
}

#define BATCH 256

/* -o: only the opens are timed; t->end - t->start is their total. */
static void run_open_only(struct thread *t)
{
	int fds[BATCH], errs[BATCH];
	uint64_t total = 0, t0;
	long i = 0, j, n;

	while (i < iters) {
		n = iters - i < BATCH ? iters - i : BATCH;
		t0 = now();
		profile_start();
		for (j = 0; j < n; j++) {
			fds[j] = do_open();
			errs[j] = fds[j] < 0 ? errno : 0;
		}
		profile_stop();
		total += now() - t0;
		for (j = 0; j < n; j++) {
			note(t, i + j, errs[j]);
			if (fds[j] >= 0)
				close(fds[j]);
		}
		i += n;
	}
	t->start = 0;
	t->end = total;
}

static void *run(void *arg)
{
	struct thread *t = arg;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;
	long i;

	if (ncpu > 0) {
		CPU_ZERO(&set);
		CPU_SET(t->index % ncpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	for (i = 0; i < warmup; i++)
		one();
	pthread_barrier_wait(&start_barrier);
	if (open_only) {
		run_open_only(t);
		pthread_barrier_wait(&end_barrier);
		return NULL;
	}
	t->start = now();
	profile_start();
	for (i = 0; i < iters; i++)
		note(t, i, one());
	profile_stop();
	t->end = now();
	pthread_barrier_wait(&end_barrier);
	return NULL;
}

static const char *outcome(const struct thread *t, int n)
{
	static char buf[32];
	int i, err = t[0].err;

	for (i = 1; i < n; i++)
		if (t[i].err != err)
			err = -1;
	if (err == 0)
		return "ok";
	if (err < 0)
		return "mixed";
	if (err & RUN_EXITED) {
		snprintf(buf, sizeof(buf), "exit%d", err & 0xff);
		return buf;
	}
	if (err & RUN_KILLED) {
		snprintf(buf, sizeof(buf), "sig%d", err & 0xff);
		return buf;
	}
	switch (err) {
	case EACCES: return "EACCES";
	case EINVAL: return "EINVAL";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case ECHILD: return "ECHILD";
	}
	snprintf(buf, sizeof(buf), "errno%d", err);
	return buf;
}

static void usage(void)
{
	fprintf(stderr, "usage: omxbench [-n ITERS] [-r REPS] [-w WARMUP] [-t THREADS] [-s STATE] [-o] [-p ID -m ADDR] WORKLOAD\n"
			"       omxbench [-n ITERS] [-r REPS] [-w WARMUP] [-s STATE] run LABEL COMMAND [ARG...]\n");
	exit(1);
}

int main(int argc, char **argv)
{
	const char *state = "-";
	struct thread *t;
	int reps = 5, opt, i, rep;
	uint64_t first, last;
	const char *label;
	unsigned long marker = 0;
	int profile_id = 0;

	/* "+": the options end at WORKLOAD; run's COMMAND has its own. */
	while ((opt = getopt(argc, argv, "+n:r:w:t:s:op:m:")) != -1) {
		switch (opt) {
		case 'n': iters = atol(optarg); break;
		case 'r': reps = atoi(optarg); break;
		case 'w': warmup = atol(optarg); break;
		case 't': nthreads = atoi(optarg); break;
		case 's': state = optarg; break;
		case 'o': open_only = 1; break;
		case 'p': profile_id = atoi(optarg); break;
		case 'm': marker = strtoul(optarg, NULL, 0); break;
		default: usage();
		}
	}
	if (optind >= argc || iters < 1 || reps < 1 || warmup < 0 ||
	    nthreads < 1 || nthreads > 64)
		usage();
	for (i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++)
		if (!strcmp(argv[optind], names[i]))
			break;
	if (i == (int)(sizeof(names) / sizeof(names[0])))
		usage();
	workload = i;
	label = names[workload];
	if (workload == W_RUN) {
		if (optind + 2 >= argc)
			usage();
		label = argv[optind + 1];
		run_argv = argv + optind + 2;
		devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (devnull < 0) {
			perror("omxbench: /dev/null");
			return 1;
		}
	} else if (optind != argc - 1) {
		usage();
	}
	if (workload >= W_EXECVE && (nthreads != 1 || open_only)) {
		fprintf(stderr, "omxbench: %s runs single-threaded, without -o\n",
			names[workload]);
		return 1;
	}
	if (open_only && nthreads != 1) {
		fprintf(stderr, "omxbench: -o runs single-threaded only\n");
		return 1;
	}

	if (profile_id || marker) {
		if (profile_id < 1 || profile_id > PROFILE_WINDOWS || !marker ||
		    nthreads != 1) {
			fprintf(stderr, "omxbench: -p ID (1 to %d) needs -m ADDR and one thread\n",
				PROFILE_WINDOWS);
			return 1;
		}
		if (map_markers(marker, profile_id)) {
			perror("omxbench: the profile markers' page");
			return 1;
		}
	}

	dfd = open(".", O_PATH | O_DIRECTORY);
	if (dfd < 0 || (workload != W_RUN &&
			(access("prog", X_OK) || access("data", R_OK)))) {
		perror("omxbench: the current directory needs ./prog and ./data");
		return 1;
	}
	t = calloc(nthreads, sizeof(*t));
	if (!t)
		return 1;

	for (rep = 0; rep < reps; rep++) {
		pthread_barrier_init(&start_barrier, NULL, nthreads);
		pthread_barrier_init(&end_barrier, NULL, nthreads);
		for (i = 0; i < nthreads; i++) {
			t[i].index = i;
			if (i && pthread_create(&t[i].tid, NULL, run, &t[i])) {
				perror("omxbench: pthread_create");
				return 1;
			}
		}
		run(&t[0]);
		for (i = 1; i < nthreads; i++)
			pthread_join(t[i].tid, NULL);
		pthread_barrier_destroy(&start_barrier);
		pthread_barrier_destroy(&end_barrier);
		first = t[0].start;
		last = t[0].end;
		for (i = 1; i < nthreads; i++) {
			if (t[i].start < first)
				first = t[i].start;
			if (t[i].end > last)
				last = t[i].end;
		}
		printf("R %s %s%s %d %d %ld %llu %s\n", state, label,
		       open_only ? ":open" : "", nthreads, rep + 1, iters * nthreads,
		       (unsigned long long)(last - first), outcome(t, nthreads));
		fflush(stdout);
	}
	return 0;
}
