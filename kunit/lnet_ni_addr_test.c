// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: what an NI does when its interface's IPv4 address changes
 * (lnet_ni_addr_decide(), lnet/ni-addr.c): keep its NID, move to the new
 * address's NID on the same net, go down when the address is gone, come
 * back up when its own returns; and how long a former NID is listed.
 */
#include <kunit/test.h>
#include <linux/jiffies.h>

#include <lnet/lib-lnet.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static struct lnet_nid nid_of(struct kunit *test, const char *s)
{
	struct lnet_nid nid;

	KUNIT_ASSERT_EQ(test, lnet_nid_from_str(s, &nid), 0);
	return nid;
}

static void ni_addr_keep_and_move(struct kunit *test)
{
	struct lnet_nid nid = nid_of(test, "192.0.2.10@tcp1");
	struct lnet_nid want = nid_of(test, "192.0.2.77@tcp1");
	struct lnet_nid got = LNET_ANY_NID;

	KUNIT_EXPECT_EQ(test, lnet_ni_addr_decide(&nid, false, true,
						  htonl(0xc000020a), &got),
			LNET_NI_ADDR_KEEP);
	KUNIT_EXPECT_TRUE(test, lnet_nid_is_any(&got));
	KUNIT_EXPECT_EQ(test, lnet_ni_addr_decide(&nid, false, true,
						  htonl(0xc000024d), &got),
			LNET_NI_ADDR_MOVE);
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&got, &want));
	/* A new address after one was lost: a move too (it comes up). */
	got = LNET_ANY_NID;
	KUNIT_EXPECT_EQ(test, lnet_ni_addr_decide(&nid, true, true,
						  htonl(0xc000024d), &got),
			LNET_NI_ADDR_MOVE);
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&got, &want));
}

static void ni_addr_lost_and_back(struct kunit *test)
{
	struct lnet_nid nid = nid_of(test, "10.1.2.3@tcp");
	struct lnet_nid got = LNET_ANY_NID;

	/* No address, or no interface: down once, then nothing more. */
	KUNIT_EXPECT_EQ(test, lnet_ni_addr_decide(&nid, false, true, 0, &got),
			LNET_NI_ADDR_LOST);
	KUNIT_EXPECT_EQ(test, lnet_ni_addr_decide(&nid, false, false, 0, &got),
			LNET_NI_ADDR_LOST);
	KUNIT_EXPECT_EQ(test, lnet_ni_addr_decide(&nid, true, true, 0, &got),
			LNET_NI_ADDR_KEEP);
	KUNIT_EXPECT_EQ(test, lnet_ni_addr_decide(&nid, true, false,
						  htonl(0x0a010203), &got),
			LNET_NI_ADDR_KEEP);
	/* Its own address back. */
	KUNIT_EXPECT_EQ(test, lnet_ni_addr_decide(&nid, true, true,
						  htonl(0x0a010203), &got),
			LNET_NI_ADDR_BACK);
	KUNIT_EXPECT_TRUE(test, lnet_nid_is_any(&got));
}

static void ni_addr_former_listed(struct kunit *test)
{
	struct lnet_ni ni = {};
	unsigned long now = jiffies;

	KUNIT_EXPECT_FALSE(test, lnet_ni_former_listed(&ni, now));
	ni.ni_former_until = now + LNET_NI_FORMER_NID_SECS * HZ;
	KUNIT_EXPECT_TRUE(test, lnet_ni_former_listed(&ni, now));
	KUNIT_EXPECT_TRUE(test, lnet_ni_former_listed(&ni, ni.ni_former_until - 1));
	KUNIT_EXPECT_FALSE(test, lnet_ni_former_listed(&ni, ni.ni_former_until));
	/* Across the jiffies wrap. */
	ni.ni_former_until = 5;
	KUNIT_EXPECT_TRUE(test, lnet_ni_former_listed(&ni, (unsigned long)-10));
	KUNIT_EXPECT_FALSE(test, lnet_ni_former_listed(&ni, 6));
}

static struct kunit_case lnet_ni_addr_cases[] = {
	KUNIT_CASE(ni_addr_keep_and_move),
	KUNIT_CASE(ni_addr_lost_and_back),
	KUNIT_CASE(ni_addr_former_listed),
	{}
};

static struct kunit_suite lnet_ni_addr_suite = {
	.name = "lnet_ni_addr",
	.test_cases = lnet_ni_addr_cases,
};

kunit_test_suite(lnet_ni_addr_suite);

MODULE_DESCRIPTION("KUnit tests for LNet NIDs that follow the address");
MODULE_LICENSE("GPL");
