// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the choice of the local NI to send from (lnet_ni_better(), used
 * by lnet_ni_for_send_locked()).  An NI whose LND reported its link or
 * device down (lnet_ni_set_fatal()) loses to any working one, whatever
 * their credits; among equals the most credits win (an NI without a
 * credit limit counts as the most), then the least used.
 */
#include <kunit/test.h>
#include <kunit/visibility.h>

#include <lnet/lib-lnet.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* A started NI, allocated for the test (struct lnet_ni is large). */
static struct lnet_ni *nisel_ni(struct kunit *test, int max, int credits,
				unsigned int seq, bool fatal)
{
	struct lnet_ni *ni = kunit_kzalloc(test, sizeof(*ni), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ni);
	lnet_credits_init(&ni->ni_txc, max);
	ni->ni_txc.credits = credits;
	ni->ni_seq = seq;
	ni->ni_up = true;
	ni->ni_fatal = fatal;
	return ni;
}

static void nisel_fatal_loses(struct kunit *test)
{
	/* The failed NI has more credits and fewer uses: it still loses. */
	struct lnet_ni *ok = nisel_ni(test, 8, 1, 10, false);
	struct lnet_ni *bad = nisel_ni(test, 8, 8, 0, true);

	KUNIT_EXPECT_TRUE(test, lnet_ni_better(ok, bad));
	KUNIT_EXPECT_FALSE(test, lnet_ni_better(bad, ok));
	/* Once it works again, credits decide. */
	bad->ni_fatal = false;
	KUNIT_EXPECT_TRUE(test, lnet_ni_better(bad, ok));
	KUNIT_EXPECT_FALSE(test, lnet_ni_better(ok, bad));
}

static void nisel_credits_then_seq(struct kunit *test)
{
	struct lnet_ni *a = nisel_ni(test, 8, 3, 5, false);
	struct lnet_ni *b = nisel_ni(test, 8, 2, 0, false);

	KUNIT_EXPECT_TRUE(test, lnet_ni_better(a, b));
	KUNIT_EXPECT_FALSE(test, lnet_ni_better(b, a));
	b->ni_txc.credits = 3;		/* a tie: the least used wins */
	KUNIT_EXPECT_TRUE(test, lnet_ni_better(b, a));
	KUNIT_EXPECT_FALSE(test, lnet_ni_better(a, b));
	a->ni_seq = 0;			/* equal in everything: keep the first */
	KUNIT_EXPECT_FALSE(test, lnet_ni_better(a, b));
	KUNIT_EXPECT_FALSE(test, lnet_ni_better(b, a));
}

static void nisel_unlimited(struct kunit *test)
{
	struct lnet_ni *lim = nisel_ni(test, 8, 8, 0, false);
	/* no credit limit (0@lo) */
	struct lnet_ni *unl = nisel_ni(test, 0, 0, 9, false);

	KUNIT_EXPECT_TRUE(test, lnet_ni_better(unl, lim));
	KUNIT_EXPECT_FALSE(test, lnet_ni_better(lim, unl));
	/* ... but a failed one still loses. */
	unl->ni_fatal = true;
	KUNIT_EXPECT_TRUE(test, lnet_ni_better(lim, unl));
}

static struct kunit_case lnet_nisel_cases[] = {
	KUNIT_CASE(nisel_fatal_loses),
	KUNIT_CASE(nisel_credits_then_seq),
	KUNIT_CASE(nisel_unlimited),
	{}
};

static struct kunit_suite lnet_nisel_suite = {
	.name = "lnet_nisel",
	.test_cases = lnet_nisel_cases,
};

kunit_test_suite(lnet_nisel_suite);

MODULE_DESCRIPTION("KUnit tests for LNet local NI selection");
MODULE_LICENSE("GPL");
