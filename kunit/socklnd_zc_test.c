// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: ksocklnd's zero-copy ACK bookkeeping (lnd/sock/zc.c) against the
 * encoding of wire spec 4.9: the cookies a connection owes kept as
 * ranges, paid one at a time in an LNET message or as a range, a pair or
 * one cookie in a NOOP, never lost or paid twice, and bounded; and which
 * requests a received ACK covers.
 */
#include <kunit/test.h>
#include <kunit/visibility.h>

#include "../lnd/sock/socklnd.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* Pay everything owed in NOOPs; each cookie must come out once. */
static void drain(struct kunit *test, struct ksock_zc_acks *acks,
		  const u64 *want, unsigned int nwant)
{
	DECLARE_BITMAP(seen, 64) = { 0 };
	unsigned int paid = 0, i;
	u64 c0, c1, c;

	while (ksock_zc_acks_take_noop(acks, &c0, &c1)) {
		for (i = 0; i < nwant; i++) {
			c = want[i];
			if (!ksock_zc_ack_covers(c0, c1, c))
				continue;
			KUNIT_EXPECT_FALSE(test, test_bit(i, seen));
			__set_bit(i, seen);
			paid++;
		}
		KUNIT_EXPECT_LE(test, ksock_zc_ack_count(c0, c1), (int)nwant);
	}
	KUNIT_EXPECT_EQ(test, paid, nwant);
	KUNIT_EXPECT_EQ(test, acks->n, 0U);
}

static void zc_acks_ranges(struct kunit *test)
{
	static const u64 cookies[] = { 5, 7, 6, 2, 3, 10, 9 };
	struct ksock_zc_acks acks = { .n = 0 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cookies); i++)
		KUNIT_EXPECT_EQ(test, ksock_zc_acks_add(&acks, cookies[i]), 0);
	/* [2,3] [5,7] [9,10]: 6 joined 5 and 7, 9 extended 10 down. */
	KUNIT_ASSERT_EQ(test, acks.n, 3U);
	KUNIT_EXPECT_EQ(test, acks.r[0].lo, 2ULL);
	KUNIT_EXPECT_EQ(test, acks.r[0].hi, 3ULL);
	KUNIT_EXPECT_EQ(test, acks.r[1].lo, 5ULL);
	KUNIT_EXPECT_EQ(test, acks.r[1].hi, 7ULL);
	KUNIT_EXPECT_EQ(test, acks.r[2].lo, 9ULL);
	KUNIT_EXPECT_EQ(test, acks.r[2].hi, 10ULL);
	/* Filling the gap at 4 merges the first two ranges. */
	KUNIT_EXPECT_EQ(test, ksock_zc_acks_add(&acks, 4), 0);
	KUNIT_EXPECT_EQ(test, acks.n, 2U);
	KUNIT_EXPECT_EQ(test, acks.r[0].hi, 7ULL);
	drain(test, &acks, (const u64[]){ 2, 3, 4, 5, 6, 7, 9, 10 }, 8);
}

static void zc_acks_reject(struct kunit *test)
{
	struct ksock_zc_acks acks = { .n = 0 };
	unsigned int i;

	/* 0 and 1 (keepalive) are never requests; twice is an error. */
	KUNIT_EXPECT_EQ(test, ksock_zc_acks_add(&acks, 0), -EPROTO);
	KUNIT_EXPECT_EQ(test, ksock_zc_acks_add(&acks, 1), -EPROTO);
	KUNIT_EXPECT_EQ(test, ksock_zc_acks_add(&acks, 8), 0);
	KUNIT_EXPECT_EQ(test, ksock_zc_acks_add(&acks, 8), -EPROTO);
	KUNIT_EXPECT_EQ(test, ksock_zc_acks_add(&acks, 9), 0);
	KUNIT_EXPECT_EQ(test, ksock_zc_acks_add(&acks, 9), -EPROTO);
	KUNIT_EXPECT_EQ(test, acks.n, 1U);
	/* Every other cookie: one range each, up to the bound. */
	for (i = 1; i < KSOCK_ZC_ACK_RANGES; i++)
		KUNIT_EXPECT_EQ(test, ksock_zc_acks_add(&acks, 100 + 2 * i), 0);
	KUNIT_EXPECT_EQ(test, acks.n, (unsigned int)KSOCK_ZC_ACK_RANGES);
	KUNIT_EXPECT_EQ(test, ksock_zc_acks_add(&acks, 1000), -ENOBUFS);
	/* One that extends a range still fits. */
	KUNIT_EXPECT_EQ(test, ksock_zc_acks_add(&acks, 10), 0);
	KUNIT_EXPECT_EQ(test, acks.n, (unsigned int)KSOCK_ZC_ACK_RANGES);
	/* The highest cookie does not wrap into the reserved ones. */
	acks.n = 0;
	KUNIT_EXPECT_EQ(test, ksock_zc_acks_add(&acks, U64_MAX), 0);
	KUNIT_EXPECT_EQ(test, ksock_zc_acks_add(&acks, 2), 0);
	KUNIT_EXPECT_EQ(test, acks.n, 2U);
	KUNIT_EXPECT_EQ(test, ksock_zc_acks_add(&acks, U64_MAX), -EPROTO);
}

static void zc_acks_noop_forms(struct kunit *test)
{
	struct ksock_zc_acks acks = { .n = 0 };
	u64 c0, c1;

	KUNIT_EXPECT_FALSE(test, ksock_zc_acks_take_noop(&acks, &c0, &c1));
	/* A range: c0 < c1. */
	ksock_zc_acks_add(&acks, 4);
	ksock_zc_acks_add(&acks, 5);
	ksock_zc_acks_add(&acks, 6);
	KUNIT_ASSERT_TRUE(test, ksock_zc_acks_take_noop(&acks, &c0, &c1));
	KUNIT_EXPECT_EQ(test, c0, 4ULL);
	KUNIT_EXPECT_EQ(test, c1, 6ULL);
	KUNIT_EXPECT_EQ(test, ksock_zc_ack_count(c0, c1), 3);
	/* Two singles: c0 > c1, exactly those two. */
	ksock_zc_acks_add(&acks, 20);
	ksock_zc_acks_add(&acks, 11);
	KUNIT_ASSERT_TRUE(test, ksock_zc_acks_take_noop(&acks, &c0, &c1));
	KUNIT_EXPECT_EQ(test, c0, 20ULL);
	KUNIT_EXPECT_EQ(test, c1, 11ULL);
	KUNIT_EXPECT_EQ(test, ksock_zc_ack_count(c0, c1), 2);
	KUNIT_EXPECT_FALSE(test, ksock_zc_ack_covers(c0, c1, 15));
	/* One: c0 = 0. */
	ksock_zc_acks_add(&acks, 30);
	KUNIT_ASSERT_TRUE(test, ksock_zc_acks_take_noop(&acks, &c0, &c1));
	KUNIT_EXPECT_EQ(test, c0, 0ULL);
	KUNIT_EXPECT_EQ(test, c1, 30ULL);
	KUNIT_EXPECT_EQ(test, ksock_zc_ack_count(c0, c1), 1);
	KUNIT_EXPECT_EQ(test, acks.n, 0U);
}

static void zc_acks_take_one(struct kunit *test)
{
	struct ksock_zc_acks acks = { .n = 0 };

	KUNIT_EXPECT_EQ(test, ksock_zc_acks_take_one(&acks), 0ULL);
	ksock_zc_acks_add(&acks, 3);
	ksock_zc_acks_add(&acks, 4);
	ksock_zc_acks_add(&acks, 9);
	KUNIT_EXPECT_EQ(test, ksock_zc_acks_take_one(&acks), 3ULL);
	KUNIT_EXPECT_EQ(test, ksock_zc_acks_take_one(&acks), 4ULL);
	KUNIT_EXPECT_EQ(test, ksock_zc_acks_take_one(&acks), 9ULL);
	KUNIT_EXPECT_EQ(test, ksock_zc_acks_take_one(&acks), 0ULL);
	/* Paid cookies may be owed again (a new request, same cookie). */
	KUNIT_EXPECT_EQ(test, ksock_zc_acks_add(&acks, 3), 0);
}

static void zc_ack_received(struct kunit *test)
{
	/* Spec 4.9: c0 = 0 acknowledges c1 alone. */
	KUNIT_EXPECT_TRUE(test, ksock_zc_ack_covers(0, 7, 7));
	KUNIT_EXPECT_FALSE(test, ksock_zc_ack_covers(0, 7, 6));
	/* c0 < c1: the range, both ends included. */
	KUNIT_EXPECT_TRUE(test, ksock_zc_ack_covers(5, 8, 5));
	KUNIT_EXPECT_TRUE(test, ksock_zc_ack_covers(5, 8, 6));
	KUNIT_EXPECT_TRUE(test, ksock_zc_ack_covers(5, 8, 8));
	KUNIT_EXPECT_FALSE(test, ksock_zc_ack_covers(5, 8, 9));
	KUNIT_EXPECT_EQ(test, ksock_zc_ack_count(5, 8), 4);
	/* c0 > c1: exactly two. */
	KUNIT_EXPECT_TRUE(test, ksock_zc_ack_covers(9, 5, 9));
	KUNIT_EXPECT_TRUE(test, ksock_zc_ack_covers(9, 5, 5));
	KUNIT_EXPECT_FALSE(test, ksock_zc_ack_covers(9, 5, 7));
	/* c0 = c1: that one. */
	KUNIT_EXPECT_EQ(test, ksock_zc_ack_count(6, 6), 1);
	/* A hostile range saturates instead of overflowing. */
	KUNIT_EXPECT_EQ(test, ksock_zc_ack_count(2, U64_MAX), INT_MAX);
}

static struct kunit_case socklnd_zc_cases[] = {
	KUNIT_CASE(zc_acks_ranges),
	KUNIT_CASE(zc_acks_reject),
	KUNIT_CASE(zc_acks_noop_forms),
	KUNIT_CASE(zc_acks_take_one),
	KUNIT_CASE(zc_ack_received),
	{}
};

static struct kunit_suite socklnd_zc_suite = {
	.name = "socklnd_zc",
	.test_cases = socklnd_zc_cases,
};

kunit_test_suite(socklnd_zc_suite);

MODULE_DESCRIPTION("KUnit tests for ksocklnd's zero-copy ACK bookkeeping");
MODULE_LICENSE("GPL");
