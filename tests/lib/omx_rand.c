// SPDX-License-Identifier: GPL-2.0
/* Reproducible random numbers for the fuzz and soak tests: omx_rand.h. */
#include <stdlib.h>
#include <time.h>

#include "omx_rand.h"

uint64_t omx_rand_next(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 2685821657736338717ULL;
}

unsigned int omx_rand_below(uint64_t *state, unsigned int n)
{
	return omx_rand_next(state) % n;
}

uint64_t omx_env_number(const char *name, uint64_t fallback)
{
	const char *v = getenv(name);

	return v && *v ? strtoull(v, NULL, 0) : fallback;
}

uint64_t omx_rand_seed(const char *env_name)
{
	struct timespec ts;
	uint64_t clock_seed;

	clock_gettime(CLOCK_REALTIME, &ts);
	/* Small enough to type back in, never 0 (xorshift would stay 0). */
	clock_seed = (ts.tv_sec * 1000003ULL + ts.tv_nsec) % 2147483647 + 1;
	return omx_env_number(env_name, clock_seed) ?: clock_seed;
}
