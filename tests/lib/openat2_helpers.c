// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's openat2 selftest helpers (sys_openat2(), raw_openat2(), ...),
 * extracted by tests/Makefile from linux-source-6.1 into build/ksft/openat2/
 * and compiled into every test through tests/lib/.
 */
#include "helpers.c"
