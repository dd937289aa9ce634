// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: administrators' timeouts become jiffies without wrapping
 * (lnet_secs_to_jiffies()).  transaction_timeout, ksocklnd's and
 * ko2iblnd's timeout and keepalive were multiplied by HZ in 32 bits: an
 * admin-set 17179870 s became 204 jiffies, under a second.
 */
#include <kunit/test.h>

#include <lnet/lib-lnet.h>

static void secs_small(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, lnet_secs_to_jiffies(0), 0UL);
	KUNIT_EXPECT_EQ(test, lnet_secs_to_jiffies(-5), 0UL);
	KUNIT_EXPECT_EQ(test, lnet_secs_to_jiffies(1), (unsigned long)HZ);
	KUNIT_EXPECT_EQ(test, lnet_secs_to_jiffies(150), 150UL * HZ);
}

/* Large values saturate, and a deadline made from one is in the future. */
static void secs_large(struct kunit *test)
{
	static const long secs[] = { 17179870, INT_MAX, UINT_MAX, LONG_MAX };
	unsigned long now = jiffies;
	int i;

	for (i = 0; i < ARRAY_SIZE(secs); i++) {
		unsigned long j = lnet_secs_to_jiffies(secs[i]);

		KUNIT_EXPECT_GE(test, j, min_t(unsigned long, 17179870UL * HZ,
					       MAX_JIFFY_OFFSET));
		KUNIT_EXPECT_LE(test, j, MAX_JIFFY_OFFSET);
		KUNIT_EXPECT_TRUE(test, time_after(now + j, now));
	}
	KUNIT_EXPECT_EQ(test, lnet_secs_to_jiffies(LONG_MAX), MAX_JIFFY_OFFSET);
}

static struct kunit_case lnet_time_cases[] = {
	KUNIT_CASE(secs_small),
	KUNIT_CASE(secs_large),
	{}
};

static struct kunit_suite lnet_time_suite = {
	.name = "lnet_time",
	.test_cases = lnet_time_cases,
};

kunit_test_suite(lnet_time_suite);

MODULE_DESCRIPTION("KUnit: timeouts in jiffies");
MODULE_LICENSE("GPL");
