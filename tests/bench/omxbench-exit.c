// SPDX-License-Identifier: GPL-2.0
/*
 * omxbench-exit: the smallest static executable, for omxbench's execve
 * workload: no libc, no dynamic loader, no start-up code; it calls
 * exit(0) at once.  What an execve of it costs is the kernel's exec path
 * (open, ELF load, mm set-up and tear-down), not a program's.
 */
void _start(void);

void _start(void)
{
	__asm__ volatile("mov $60, %eax\n\t"	/* __NR_exit */
			 "xor %edi, %edi\n\t"
			 "syscall");
	__builtin_unreachable();
}
