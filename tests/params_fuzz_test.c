// SPDX-License-Identifier: GPL-2.0
/*
 * Module parameters against hostile input: omayexec.ko loaded again and
 * again with random parameter strings.
 *
 * Strings built from tokens whose validity is known (enforce=0-3 and
 * worse, audit_allowed and rfc_v1 with good and bad booleans, dashes for
 * underscores, quotes, unknown names, odd whitespace) must load exactly
 * when every token is valid, with the values of the last ones; otherwise
 * the load fails with EINVAL and leaves nothing behind.  Strings of random
 * bytes must either fail, leaving nothing, or load with a policy that the
 * opens show.  "locked" is only ever given false or invalid values: a
 * locked module would stay.
 *
 * Like lifecycle_test, it loads and unloads the module itself and leaves it
 * unloaded.  OMX_FUZZ_SEED reruns a sequence (the test prints its seed),
 * OMX_FUZZ_LOADS (default 120) sets the number of loads of each test.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "omx.h"
#include "omx_rand.h"
#include "module.h"
#include "kselftest_harness.h"
#include "lifecycle.h"

static uint64_t fuzz_seed(struct __test_metadata *_metadata)
{
	uint64_t seed = omx_rand_seed("OMX_FUZZ_SEED");

	TH_LOG("seed %llu (OMX_FUZZ_SEED=%llu reruns this sequence)",
	       (unsigned long long)seed, (unsigned long long)seed);
	return seed;
}

/* ---- Tokens of known validity ---------------------------------------------- */

struct value {
	const char *text;	/* after "name=", or NULL for a bare name */
	int parsed;		/* what it sets, or -1: invalid */
};

static const struct value enforce_values[] = {
	{ "0", 0 }, { "1", 1 }, { "2", 2 }, { "3", 3 }, { "\"2\"", 2 },
	{ "4", -1 }, { "-1", -1 }, { "+1", -1 }, { "01", -1 }, { "0x1", -1 },
	{ "", -1 }, { NULL, -1 }, { "1x", -1 }, { "3.0", -1 }, { "99999999999", -1 },
};

static const struct value bool_values[] = {
	{ "0", 0 }, { "1", 1 }, { "y", 1 }, { "n", 0 }, { "Y", 1 }, { "N", 0 },
	{ NULL, 1 }, { "2", -1 }, { "x", -1 }, { "", -1 }, { "-1", -1 },
	{ "maybe", -1 },
};

/* locked=: never true, or the module would stay loaded. */
static const struct value locked_values[] = {
	{ "0", 0 }, { "n", 0 }, { "N", 0 },
	{ "2", -1 }, { "x", -1 }, { "", -1 }, { "-1", -1 }, { "maybe", -1 },
};

static const char *const unknown_names[] = {
	"foo=1", "enforced=1", "enforce_=2", "Enforce=2", "lock=0",
	"rfc_v2=1", "audit=1", "enforce3",
};

static const char *const blanks[] = { " ", "  ", "\t", "\n", " \t " };

#define PICK(s, array) (&(array)[omx_rand_below((s), sizeof(array) / sizeof((array)[0]))])

struct expected {
	bool valid;
	int enforce, rfc_v1;
};

static void append(char *buf, size_t len, const char *name,
		   const struct value *v)
{
	size_t used = strlen(buf);

	if (v->text)
		snprintf(buf + used, len - used, "%s=%s", name, v->text);
	else
		snprintf(buf + used, len - used, "%s", name);
}

/* A parameter string of 0 to 4 tokens, and what loading with it must do. */
static void make_params(uint64_t *s, char *buf, size_t len, struct expected *e)
{
	const struct value *v;
	int i, n = omx_rand_below(s, 5);

	*e = (struct expected){ .valid = true, .enforce = 0, .rfc_v1 = 0 };
	buf[0] = '\0';
	if (omx_rand_below(s, 4) == 0)
		strncat(buf, *PICK(s, blanks), len - strlen(buf) - 1);
	for (i = 0; i < n; i++) {
		switch (omx_rand_below(s, 6)) {
		case 0:
		case 1:
			v = PICK(s, enforce_values);
			append(buf, len, "enforce", v);
			if (v->parsed < 0)
				e->valid = false;
			else
				e->enforce = v->parsed;
			break;
		case 2:
			v = PICK(s, bool_values);
			append(buf, len, omx_rand_below(s, 2) ? "audit_allowed" :
			       "audit-allowed", v);
			e->valid &= v->parsed >= 0;
			break;
		case 3:
			v = PICK(s, bool_values);
			append(buf, len, omx_rand_below(s, 2) ? "rfc_v1" : "rfc-v1", v);
			if (v->parsed < 0)
				e->valid = false;
			else
				e->rfc_v1 = v->parsed;
			break;
		case 4:
			v = PICK(s, locked_values);
			append(buf, len, "locked", v);
			e->valid &= v->parsed >= 0;
			break;
		default:
			strncat(buf, *PICK(s, unknown_names), len - strlen(buf) - 1);
			e->valid = false;
			break;
		}
		strncat(buf, *PICK(s, blanks), len - strlen(buf) - 1);
	}
}

/* Printable in a log line. */
static const char *shown(const char *params)
{
	static char out[256];
	size_t i, o = 0;

	for (i = 0; params[i] && o + 5 < sizeof(out); i++) {
		unsigned char c = params[i];

		if (c >= 0x20 && c < 0x7f && c != '\\')
			out[o++] = c;
		else
			o += snprintf(out + o, sizeof(out) - o, "\\x%02x", c);
	}
	out[o] = '\0';
	return out;
}

TEST_F_TIMEOUT(lifecycle, token_strings_load_exactly_when_valid, 900)
{
	long loads = omx_env_number("OMX_FUZZ_LOADS", 120), i, loaded = 0, refused = 0;
	uint64_t s = fuzz_seed(_metadata);
	struct expected e;
	char params[256], buf[16];
	int ret;

	for (i = 0; i < loads; i++) {
		make_params(&s, params, sizeof(params), &e);
		ret = mod_load(self->ko, params);
		if (!e.valid) {
			EXPECT_EQ(-EINVAL, ret) {
				TH_LOG("load %ld with \"%s\": %s, expected EINVAL",
				       i, shown(params), ret ? strerror(-ret) : "loaded");
			}
			if (!ret)
				ASSERT_EQ(0, mod_unload_retry(MOD_OMAYEXEC, 10000));
			expect_absent(_metadata, self, NULL);
			refused++;
			continue;
		}
		ASSERT_EQ(0, ret) {
			TH_LOG("load %ld with \"%s\": %s", i, shown(params),
			       strerror(-ret));
		}
		expect_loaded(_metadata, self, e.enforce);
		EXPECT_EQ(0, mod_param(MOD_OMAYEXEC, "rfc_v1", buf, sizeof(buf)));
		EXPECT_STREQ(e.rfc_v1 ? "Y" : "N", buf) {
			TH_LOG("load %ld with \"%s\"", i, shown(params));
		}
		EXPECT_EQ(0, mod_param(MOD_OMAYEXEC, "locked", buf, sizeof(buf)));
		EXPECT_STREQ("N", buf);
		ASSERT_EQ(0, mod_unload_retry(MOD_OMAYEXEC, 10000));
		expect_absent(_metadata, self, NULL);
		loaded++;
	}
	TH_LOG("%ld loads: %ld with valid parameters, %ld refused as invalid",
	       loads, loaded, refused);
}

TEST_F_TIMEOUT(lifecycle, random_bytes_fail_or_load_sanely, 900)
{
	long loads = omx_env_number("OMX_FUZZ_LOADS", 120), i, loaded = 0, refused = 0;
	uint64_t s = fuzz_seed(_metadata);
	char params[80], buf[16];
	size_t len, j;
	int ret, policy;

	for (i = 0; i < loads; i++) {
		len = 1 + omx_rand_below(&s, sizeof(params) - 1);
		for (j = 0; j < len - 1; j++)
			params[j] = 1 + omx_rand_below(&s, 255);	/* no NUL inside */
		params[len - 1] = '\0';
		if (strstr(params, "locked"))
			continue;	/* never by chance, but a locked module would stay */
		ret = mod_load(self->ko, params);
		if (ret) {
			/* Refused: unknown names, or the loader's own complaints. */
			EXPECT_TRUE(ret == -EINVAL || ret == -ENOENT || ret == -ENOSPC) {
				TH_LOG("load %ld with \"%s\": %s", i, shown(params),
				       strerror(-ret));
			}
			expect_absent(_metadata, self, NULL);
			refused++;
			continue;
		}
		/* Loaded: whatever the string said, it is a working policy. */
		policy = omx_policy_read();
		EXPECT_TRUE(policy >= 0 && policy <= 3);
		expect_loaded(_metadata, self, policy);
		EXPECT_EQ(0, mod_param(MOD_OMAYEXEC, "locked", buf, sizeof(buf)));
		EXPECT_STREQ("N", buf);
		ASSERT_EQ(0, mod_unload_retry(MOD_OMAYEXEC, 10000));
		expect_absent(_metadata, self, NULL);
		loaded++;
	}
	TH_LOG("%ld loads of random bytes: %ld loaded, %ld refused", loads,
	       loaded, refused);
}

TEST_HARNESS_MAIN
