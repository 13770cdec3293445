// SPDX-License-Identifier: GPL-2.0
/*
 * mayexec-open: open files the way an interpreter opens a script, and say
 * whether the kernel allows it.
 *
 *   mayexec-open PATH...
 *
 * Each PATH is opened with openat2(2) and O_RDONLY | O_CLOEXEC | O_MAYEXEC,
 * then closed.  One line per PATH:
 *
 *   allowed  PATH
 *   refused  PATH  (strerror)
 *
 * Exit status: 0 if every open was allowed, 1 if any was refused, 2 on a
 * usage error.  Without the omayexec module, openat2(2) rejects O_MAYEXEC
 * with EINVAL, so every path is "refused ... (Invalid argument)".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/openat2.h>
#include <linux/omayexec.h>

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

static int open_mayexec(const char *path)
{
	struct open_how how = {
		.flags = O_RDONLY | O_CLOEXEC | O_MAYEXEC,
	};

	return (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));
}

int main(int argc, char *argv[])
{
	int status = 0;
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s PATH...\n", argv[0]);
		return 2;
	}

	for (i = 1; i < argc; i++) {
		int fd = open_mayexec(argv[i]);

		if (fd >= 0) {
			printf("allowed  %s\n", argv[i]);
			close(fd);
		} else {
			printf("refused  %s  (%s)\n", argv[i], strerror(errno));
			status = 1;
		}
	}
	return status;
}
