// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the test node's framework rules (selftest/rules.c) against the
 * spec (lnet-selftest.md 3.7, 4.3-4.6): features and version, MAKE and
 * REMOVE_SESSION, a TEST request's checks.
 */
#include <kunit/test.h>

#include "../selftest/selftest.h"
#include "../selftest/wire.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static const struct lst_sid sid_a = { 0x00020000c000020aULL, 1000 };
static const struct lst_sid sid_b = { 0x00020000c000020bULL, 2000 };
static const struct lst_sid sid_none = { LST_NID_ANY, -1 };

static void rules_feats(struct kunit *test)
{
	struct lst_session s = { .sid = sid_a, .feats = LST_FEAT_BULK_LEN };

	/* Version 1 only, whatever the type. */
	KUNIT_EXPECT_EQ(test, lst_feats_status(LST_MSG_DEBUG_REQST, 2, 1, NULL),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, lst_feats_status(LST_MSG_STAT_REQST, 0, 1, &s),
			-EPROTO);
	/* MAKE_SESSION and DEBUG: unknown bits refused, any known mask ok. */
	KUNIT_EXPECT_EQ(test, lst_feats_status(LST_MSG_MKSN_REQST, 1, 3, NULL),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, lst_feats_status(LST_MSG_MKSN_REQST, 1, 0, &s), 0);
	KUNIT_EXPECT_EQ(test, lst_feats_status(LST_MSG_DEBUG_REQST, 1, 2, &s),
			-EPROTO);
	/* The others: the session's mask exactly, or no session. */
	KUNIT_EXPECT_EQ(test, lst_feats_status(LST_MSG_BATCH_REQST, 1, 0, &s),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, lst_feats_status(LST_MSG_BATCH_REQST, 1, 1, &s), 0);
	KUNIT_EXPECT_EQ(test, lst_feats_status(LST_MSG_RMSN_REQST, 1, 0, NULL), 0);
}

static void rules_mksn(struct kunit *test)
{
	struct lst_session s = { .sid = sid_a, .refs = 1 };
	enum lst_sess_action act;

	KUNIT_EXPECT_EQ(test, lst_mksn_rule(NULL, &sid_none, true, &act),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, act, LST_SESS_NONE);
	KUNIT_EXPECT_EQ(test, lst_mksn_rule(NULL, &sid_a, false, &act), 0);
	KUNIT_EXPECT_EQ(test, act, LST_SESS_CREATE);
	/* The same console again: one more reference, force or not. */
	KUNIT_EXPECT_EQ(test, lst_mksn_rule(&s, &sid_a, false, &act), 0);
	KUNIT_EXPECT_EQ(test, act, LST_SESS_REF);
	KUNIT_EXPECT_EQ(test, lst_mksn_rule(&s, &sid_a, true, &act), 0);
	KUNIT_EXPECT_EQ(test, act, LST_SESS_REF);
	/* Another: busy, unless forced (then it takes the node over). */
	KUNIT_EXPECT_EQ(test, lst_mksn_rule(&s, &sid_b, false, &act), -EBUSY);
	KUNIT_EXPECT_EQ(test, act, LST_SESS_NONE);
	KUNIT_EXPECT_EQ(test, lst_mksn_rule(&s, &sid_b, true, &act), 0);
	KUNIT_EXPECT_EQ(test, act, LST_SESS_REPLACE);
	/* Same nid, another stamp: another session. */
	s.sid.stamp++;
	KUNIT_EXPECT_EQ(test, lst_mksn_rule(&s, &sid_a, false, &act), -EBUSY);
}

static void rules_rmsn(struct kunit *test)
{
	struct lst_session s = { .sid = sid_a, .refs = 2 };
	enum lst_sess_action act;

	KUNIT_EXPECT_EQ(test, lst_rmsn_rule(&s, &sid_none, &act), -EINVAL);
	KUNIT_EXPECT_EQ(test, lst_rmsn_rule(NULL, &sid_a, &act), -ESRCH);
	/* Not its session: a node cannot be taken away by another console. */
	KUNIT_EXPECT_EQ(test, lst_rmsn_rule(&s, &sid_b, &act), -EBUSY);
	KUNIT_EXPECT_EQ(test, act, LST_SESS_NONE);
	KUNIT_EXPECT_EQ(test, lst_rmsn_rule(&s, &sid_a, &act), 0);
	KUNIT_EXPECT_EQ(test, act, LST_SESS_UNREF);
}

/* A valid client TEST request of session @sid. */
static void test_req(u8 *msg, const struct lst_sid *sid)
{
	lst_msg_init(msg, LST_MSG_TEST_REQST, LST_FEAT_BULK_LEN);
	lst_put64(msg, LST_TSR_SID + LST_SID_NID, sid->nid);
	lst_put64(msg, LST_TSR_SID + LST_SID_STAMP, sid->stamp);
	lst_put32(msg, LST_TSR_SERVICE, LST_SVC_BRW);
	lst_put32(msg, LST_TSR_LOOP, 0xffffffff);
	lst_put32(msg, LST_TSR_CONCUR, 8);
	lst_body(msg)[LST_TSR_IS_CLIENT] = 1;
	lst_put32(msg, LST_TSR_NDEST, 2);
}

static void rules_test(struct kunit *test)
{
	struct lst_session s = { .sid = sid_a, .refs = 1 };
	u8 msg[LST_MSG_SIZE];

	test_req(msg, &sid_a);
	KUNIT_EXPECT_EQ(test, lst_test_rule(msg, &s), 0);
	/* Step 1, EINVAL, before the session is looked at. */
	lst_put32(msg, LST_TSR_LOOP, 0);
	KUNIT_EXPECT_EQ(test, lst_test_rule(msg, NULL), -EINVAL);
	test_req(msg, &sid_a);
	lst_put32(msg, LST_TSR_CONCUR, 0);
	KUNIT_EXPECT_EQ(test, lst_test_rule(msg, &s), -EINVAL);
	lst_put32(msg, LST_TSR_CONCUR, LST_CONCUR_MAX + 1);
	KUNIT_EXPECT_EQ(test, lst_test_rule(msg, &s), -EINVAL);
	lst_put32(msg, LST_TSR_CONCUR, LST_CONCUR_MAX);
	KUNIT_EXPECT_EQ(test, lst_test_rule(msg, &s), 0);
	lst_put32(msg, LST_TSR_NDEST, LST_NDEST_MAX + 1);
	KUNIT_EXPECT_EQ(test, lst_test_rule(msg, &s), -EINVAL);
	lst_put32(msg, LST_TSR_NDEST, 0);		/* a client with none */
	KUNIT_EXPECT_EQ(test, lst_test_rule(msg, &s), -EINVAL);
	lst_body(msg)[LST_TSR_IS_CLIENT] = 0;		/* a server needs none */
	KUNIT_EXPECT_EQ(test, lst_test_rule(msg, &s), 0);
	lst_put32(msg, LST_TSR_SERVICE, LST_SVC_DEBUG);
	KUNIT_EXPECT_EQ(test, lst_test_rule(msg, &s), -EINVAL);
	test_req(msg, &sid_none);
	KUNIT_EXPECT_EQ(test, lst_test_rule(msg, &s), -EINVAL);
	/* Step 2: no session, or another's: ENOENT. */
	test_req(msg, &sid_b);
	KUNIT_EXPECT_EQ(test, lst_test_rule(msg, &s), -ENOENT);
	KUNIT_EXPECT_EQ(test, lst_test_rule(msg, NULL), -ENOENT);
}

/* Spec 7.2: the reply's sid decides the node's state on the console. */
static void rules_node_state(struct kunit *test)
{
	struct lst_sid mine = { .nid = 0x2000000c0000201ULL, .stamp = 77 };

	KUNIT_EXPECT_EQ(test, lst_node_state(&mine, LST_NID_ANY, -1),
			(u32)LST_NODE_UNKNOWN);
	KUNIT_EXPECT_EQ(test, lst_node_state(&mine, mine.nid, 77),
			(u32)LST_NODE_ACTIVE);
	/* same console NID, another session (stamp): someone else's */
	KUNIT_EXPECT_EQ(test, lst_node_state(&mine, mine.nid, 78),
			(u32)LST_NODE_BUSY);
	KUNIT_EXPECT_EQ(test, lst_node_state(&mine, mine.nid + 1, 77),
			(u32)LST_NODE_BUSY);
}

/* Spec 8.3: what a stock node would assert on is never sent. */
static void rules_brw_params(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, lst_brw_params_check(SZ_1M, 0), 0);
	KUNIT_EXPECT_EQ(test, lst_brw_params_check(8, 0), 0);
	KUNIT_EXPECT_EQ(test, lst_brw_params_check(4000, 8), 0);
	KUNIT_EXPECT_EQ(test, lst_brw_params_check(4088, 8), 0);
	/* lengths not of whole words, 0, over 1 MiB */
	KUNIT_EXPECT_EQ(test, lst_brw_params_check(1, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, lst_brw_params_check(4097, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, lst_brw_params_check(0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, lst_brw_params_check(SZ_1M + 8, 0), -EINVAL);
	/* an offset that adds a page, or not of whole words */
	KUNIT_EXPECT_EQ(test, lst_brw_params_check(4096, 8), -ERANGE);
	KUNIT_EXPECT_EQ(test, lst_brw_params_check(SZ_1M, 8), -ERANGE);
	KUNIT_EXPECT_EQ(test, lst_brw_params_check(4000, 100), -ERANGE);
	KUNIT_EXPECT_EQ(test, lst_brw_params_check(8, 4), -ERANGE);
	KUNIT_EXPECT_EQ(test, lst_brw_params_check(8, 4096), -ERANGE);
}

static struct kunit_case lst_rules_cases[] = {
	KUNIT_CASE(rules_feats),
	KUNIT_CASE(rules_mksn),
	KUNIT_CASE(rules_rmsn),
	KUNIT_CASE(rules_test),
	KUNIT_CASE(rules_node_state),
	KUNIT_CASE(rules_brw_params),
	{}
};

static struct kunit_suite lst_rules_suite = {
	.name = "lst_rules",
	.test_cases = lst_rules_cases,
};

kunit_test_suite(lst_rules_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit: LNet selftest framework rules");
