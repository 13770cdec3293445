// SPDX-License-Identifier: GPL-2.0
/*
 * omxbench-exit: the smallest static executable, for omxbench's execve
 * workload: no libc, no dynamic loader, no start-up code; it calls
 * exit(0) at once.  What an execve of it costs is the kernel's exec path
 * (open, ELF load, mm set-up and tear-down), not a program's.  The exit
 * system call is the guest architecture's (x86-64, or arm64 for Debian's
 * arm64 kernels: "make TESTS_ARCH=arm64").
 */
void _start(void);

void _start(void)
{
#if defined(__x86_64__)
	__asm__ volatile("mov $60, %eax\n\t"	/* __NR_exit */
			 "xor %edi, %edi\n\t"
			 "syscall");
#elif defined(__aarch64__)
	__asm__ volatile("mov x8, #93\n\t"	/* __NR_exit (generic table) */
			 "mov x0, #0\n\t"
			 "svc #0");
#else
#error "omxbench-exit: no exit system call for this architecture"
#endif
	__builtin_unreachable();
}
