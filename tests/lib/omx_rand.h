/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reproducible random numbers for the fuzz and soak tests: xorshift64*,
 * a sequence fixed by its seed, and the seed taken from an environment
 * variable (to rerun a failed sequence) or else from the clock.
 */
#ifndef OMX_TESTS_RAND_H
#define OMX_TESTS_RAND_H

#include <stdint.h>

uint64_t omx_rand_next(uint64_t *state);
/* 0 to N - 1 (N > 0). */
unsigned int omx_rand_below(uint64_t *state, unsigned int n);
/* $ENV_NAME if set and not 0, else one from the clock: never 0. */
uint64_t omx_rand_seed(const char *env_name);

/* $NAME as a number, or FALLBACK when unset or empty. */
uint64_t omx_env_number(const char *name, uint64_t fallback);

#endif /* OMX_TESTS_RAND_H */
