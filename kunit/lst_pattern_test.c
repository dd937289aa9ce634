// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: selftest BRW data patterns and check modes (selftest/pattern.c,
 * spec lnet-selftest.md 5.4) and the console's destination distribution
 * (spec 7.5).
 */
#include <kunit/test.h>
#include <linux/string.h>
#include <linux/swab.h>
#include <asm/unaligned.h>

#include "../selftest/selftest.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define FRAG	64

/* The spec's bytes: MAGIC and POISON stored little-endian. */
static void pattern_bytes(struct kunit *test)
{
	static const u8 magic[8] = { 0xB3, 0xEE, 0xB2, 0xEE, 0xB1, 0xEE, 0xB0, 0xEE };
	static const u8 poison[8] = { 0xEF, 0xBE, 0xEF, 0xBE, 0xEF, 0xBE, 0xEF, 0xBE };
	u8 buf[FRAG];

	memset(buf, 0, sizeof(buf));
	lst_brw_fill(buf, sizeof(buf), LST_BRW_CHECK_FULL);
	KUNIT_EXPECT_EQ(test, memcmp(buf, magic, 8), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf + FRAG - 8, magic, 8), 0);
	lst_brw_poison(buf, sizeof(buf), LST_BRW_CHECK_SIMPLE);
	KUNIT_EXPECT_EQ(test, memcmp(buf + 24, poison, 8), 0);
}

/* SIMPLE fills and checks the first and last word of a fragment only. */
static void pattern_simple(struct kunit *test)
{
	u8 buf[FRAG];

	memset(buf, 0x5a, sizeof(buf));
	lst_brw_fill(buf, sizeof(buf), LST_BRW_CHECK_SIMPLE);
	KUNIT_EXPECT_EQ(test, buf[8], 0x5a);
	KUNIT_EXPECT_EQ(test, buf[FRAG - 9], 0x5a);
	KUNIT_EXPECT_EQ(test, lst_brw_check(buf, sizeof(buf), LST_BRW_CHECK_SIMPLE,
					    false), 0);
	/* The middle is not checked... */
	buf[20] ^= 0xff;
	KUNIT_EXPECT_EQ(test, lst_brw_check(buf, sizeof(buf), LST_BRW_CHECK_SIMPLE,
					    false), 0);
	/* ...the last word is, and FULL checks everything. */
	KUNIT_EXPECT_EQ(test, lst_brw_check(buf, sizeof(buf), LST_BRW_CHECK_FULL,
					    false), -EBADMSG);
	buf[FRAG - 1] ^= 1;
	KUNIT_EXPECT_EQ(test, lst_brw_check(buf, sizeof(buf), LST_BRW_CHECK_SIMPLE,
					    false), -EBADMSG);
}

/* FULL: any one byte wrong, or never delivered (poison), is caught. */
static void pattern_full(struct kunit *test)
{
	u8 buf[FRAG];
	unsigned int i;

	for (i = 0; i < FRAG; i++) {
		lst_brw_fill(buf, sizeof(buf), LST_BRW_CHECK_FULL);
		buf[i] ^= 0x10;
		KUNIT_EXPECT_EQ_MSG(test, lst_brw_check(buf, sizeof(buf),
							LST_BRW_CHECK_FULL,
							false), -EBADMSG,
				    "byte %u", i);
	}
	lst_brw_poison(buf, sizeof(buf), LST_BRW_CHECK_FULL);
	KUNIT_EXPECT_EQ(test, lst_brw_check(buf, sizeof(buf), LST_BRW_CHECK_FULL,
					    false), -EBADMSG);
	/* NONE and DISCARD neither fill nor check. */
	memset(buf, 0, sizeof(buf));
	lst_brw_fill(buf, sizeof(buf), LST_BRW_CHECK_NONE);
	lst_brw_poison(buf, sizeof(buf), LST_BRW_CHECK_DISCARD);
	KUNIT_EXPECT_NULL(test, memchr_inv(buf, 0, sizeof(buf)));
	KUNIT_EXPECT_EQ(test, lst_brw_check(buf, sizeof(buf), LST_BRW_CHECK_NONE,
					    false), 0);
	KUNIT_EXPECT_EQ(test, lst_brw_check(buf, sizeof(buf), LST_BRW_CHECK_DISCARD,
					    false), 0);
}

/* A big-endian writer's MAGIC arrives swapped: accepted only as such. */
static void pattern_swapped(struct kunit *test)
{
	u8 buf[FRAG];
	unsigned int i;

	for (i = 0; i < FRAG; i += 8)
		put_unaligned_le64(swab64(LST_BRW_MAGIC), buf + i);
	KUNIT_EXPECT_EQ(test, lst_brw_check(buf, sizeof(buf), LST_BRW_CHECK_FULL,
					    true), 0);
	KUNIT_EXPECT_EQ(test, lst_brw_check(buf, sizeof(buf), LST_BRW_CHECK_FULL,
					    false), -EBADMSG);
}

/* Spec 7.5: client i gets S nodes from ((i / D) * S) mod N, wrapping. */
static void pattern_distribution(struct kunit *test)
{
	/* 1:1 over 4 servers: clients 0..5 start at 0, 1, 2, 3, 0, 1. */
	static const int one_one[] = { 0, 1, 2, 3, 0, 1 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(one_one); i++)
		KUNIT_EXPECT_EQ(test, lst_dest_first(i, 1, 1, 4), one_one[i]);
	/* 2:3 over 4: clients 0,1 at 0; 2,3 at 3; 4,5 at 2 (6 mod 4). */
	KUNIT_EXPECT_EQ(test, lst_dest_first(1, 2, 3, 4), 0);
	KUNIT_EXPECT_EQ(test, lst_dest_first(2, 2, 3, 4), 3);
	KUNIT_EXPECT_EQ(test, lst_dest_first(5, 2, 3, 4), 2);
	/* S = N: everyone gets every node, from 0. */
	KUNIT_EXPECT_EQ(test, lst_dest_first(7, 1, 4, 4), 0);
	/* S > N, D or S zero: refused. */
	KUNIT_EXPECT_EQ(test, lst_dest_first(0, 1, 5, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, lst_dest_first(0, 0, 1, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, lst_dest_first(0, 1, 0, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, lst_dest_first(0, 1, 1, 0), -EINVAL);
}

/* Spec 7.3: ceil(ceil(n_s / D) / ceil(n_d / S)) * D * concur. */
static void pattern_server_loop(struct kunit *test)
{
	/* 1 client, 1 server, 1:1, concurrency 8: 8 RPCs at once */
	KUNIT_EXPECT_EQ(test, lst_server_loop(1, 1, 1, 1, 8), 8);
	/* 10 clients onto 2 servers 1:1: ceil(10 / 2) = 5 per server */
	KUNIT_EXPECT_EQ(test, lst_server_loop(10, 2, 1, 1, 1), 5);
	/* 10 clients, D=4: ceil(10/4)=3 groups; 5 servers, S=2: ceil(5/2)=3;
	 * ceil(3/3) = 1, times D * concur = 4 * 2
	 */
	KUNIT_EXPECT_EQ(test, lst_server_loop(10, 5, 4, 2, 2), 8);
	/* 3 clients, 4 servers S=1: ceil(3 / 4) = 1 */
	KUNIT_EXPECT_EQ(test, lst_server_loop(3, 4, 1, 1, 1), 1);
	/* the console's largest: 4096 clients D=4096, concurrency 1024 */
	KUNIT_EXPECT_EQ(test, lst_server_loop(4096, 1, 4096, 1, 1024),
			4096 * 1024);
	/* no overflow whatever the caller gives: capped at S32_MAX */
	KUNIT_EXPECT_EQ(test, lst_server_loop(UINT_MAX, 1, 1, 1, 1024),
			(s32)S32_MAX);
}

static struct kunit_case lst_pattern_cases[] = {
	KUNIT_CASE(pattern_bytes),
	KUNIT_CASE(pattern_simple),
	KUNIT_CASE(pattern_full),
	KUNIT_CASE(pattern_swapped),
	KUNIT_CASE(pattern_distribution),
	KUNIT_CASE(pattern_server_loop),
	{}
};

static struct kunit_suite lst_pattern_suite = {
	.name = "lst_pattern",
	.test_cases = lst_pattern_cases,
};

kunit_test_suite(lst_pattern_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit: LNet selftest BRW patterns and distribution");
