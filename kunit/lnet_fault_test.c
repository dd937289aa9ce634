// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: fault injection rules (lnet/fault.c, spec features 6): what a
 * rule accepts, what it matches, Lustre's rate and interval schedules,
 * the health failure it reports, and a rule's life (add, drop, count,
 * delete).
 */
#include <kunit/test.h>
#include <kunit/visibility.h>

#include <lnet/fault.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* A "random" number: the value the test set, below the ceiling. */
static u32 fault_rnd_val;
static u32 fault_rnd(u32 ceil)
{
	return fault_rnd_val % ceil;
}

static struct lnet_fault_attr fault_drop_rate(u32 rate)
{
	return (struct lnet_fault_attr) {
		.type = LNET_FAULT_DROP, .rate = rate,
		.src.any = true, .dst.any = true, .local.any = true,
	};
}

static void fault_nid(struct kunit *test, const char *s, struct lnet_nid *nid)
{
	KUNIT_ASSERT_EQ(test, lnet_nid_from_str(s, nid), 0);
}

static void fault_check(struct kunit *test)
{
	struct lnet_fault_attr a = fault_drop_rate(1);

	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, NULL), 0);
	KUNIT_EXPECT_EQ(test, a.msg_mask, (u32)LNET_FAULT_MSG_ALL);
	/* A portal filter keeps PUT and GET only, and needs one of them. */
	a = fault_drop_rate(1);
	a.ptl_mask = BIT_ULL(4);
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, NULL), 0);
	KUNIT_EXPECT_EQ(test, a.msg_mask,
			(u32)(BIT(LNET_MSG_PUT) | BIT(LNET_MSG_GET)));
	a = fault_drop_rate(1);
	a.ptl_mask = BIT_ULL(4);
	a.msg_mask = BIT(LNET_MSG_ACK);
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, NULL), -EINVAL);
	a = fault_drop_rate(1);
	a.msg_mask = BIT(LNET_MSG_HELLO);
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, NULL), -EINVAL);
	/* Rate xor interval; drop_all needs neither. */
	a = fault_drop_rate(0);
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, NULL), -EINVAL);
	a = fault_drop_rate(2);
	a.interval = 3;
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, NULL), -EINVAL);
	a = fault_drop_rate(0);
	a.drop_all = true;
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, NULL), 0);
	/* random needs an interval. */
	a = fault_drop_rate(2);
	a.random = true;
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, NULL), -EINVAL);
	/* Health errors: bits 1..10, or random; at send: no local NID. */
	a = fault_drop_rate(1);
	a.health_mask = BIT(LNET_MSG_STATUS_NETWORK_TIMEOUT);
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, NULL), 0);
	a.health_mask = BIT(0);
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, NULL), -EINVAL);
	a.health_mask = BIT(11);
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, NULL), -EINVAL);
	a.health_mask = LNET_FAULT_HEALTH_RANDOM;
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, NULL), 0);
	a.local.any = false;
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, NULL), -EINVAL);
	/* Delay rules: a latency, and none of the drop options. */
	a = fault_drop_rate(1);
	a.type = LNET_FAULT_DELAY;
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, NULL), -EINVAL);
	a.latency = 2;
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, NULL), 0);
	a.drop_all = true;
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, NULL), -EINVAL);
	a = fault_drop_rate(1);
	a.latency = 2;
	KUNIT_EXPECT_EQ(test, lnet_fault_attr_check(&a, NULL), -EINVAL);
}

static void fault_match(struct kunit *test)
{
	struct lnet_fault_attr a = fault_drop_rate(1);
	struct lnet_hdr h = { .type = LNET_MSG_PUT };
	struct lnet_nid local, other;

	fault_nid(test, "192.0.2.1@tcp", &h.src_nid);
	fault_nid(test, "192.0.2.2@tcp", &h.dest_nid);
	fault_nid(test, "192.0.2.2@tcp", &local);
	fault_nid(test, "192.0.2.9@tcp", &other);
	h.msg.put.ptl_index = 4;
	KUNIT_ASSERT_EQ(test, lnet_fault_attr_check(&a, NULL), 0);
	KUNIT_EXPECT_TRUE(test, lnet_fault_attr_match(&a, &h, NULL));

	/* Exact source; a NID of another net; every NID of the net. */
	a.src.any = false;
	a.src.nid = h.src_nid;
	KUNIT_EXPECT_TRUE(test, lnet_fault_attr_match(&a, &h, NULL));
	a.src.nid = other;
	KUNIT_EXPECT_FALSE(test, lnet_fault_attr_match(&a, &h, NULL));
	a.src.net_any = true;
	KUNIT_EXPECT_TRUE(test, lnet_fault_attr_match(&a, &h, NULL));
	fault_nid(test, "192.0.2.9@tcp1", &a.src.nid);
	KUNIT_EXPECT_FALSE(test, lnet_fault_attr_match(&a, &h, NULL));
	a.src.any = true;

	/* Destination and local NI. */
	a.dst.any = false;
	a.dst.nid = other;
	KUNIT_EXPECT_FALSE(test, lnet_fault_attr_match(&a, &h, NULL));
	a.dst.any = true;
	a.local.any = false;
	a.local.nid = local;
	KUNIT_EXPECT_FALSE(test, lnet_fault_attr_match(&a, &h, NULL));
	KUNIT_EXPECT_TRUE(test, lnet_fault_attr_match(&a, &h, &local));
	KUNIT_EXPECT_FALSE(test, lnet_fault_attr_match(&a, &h, &other));
	a.local.any = true;

	/* Message types. */
	a.msg_mask = BIT(LNET_MSG_GET) | BIT(LNET_MSG_ACK);
	KUNIT_EXPECT_FALSE(test, lnet_fault_attr_match(&a, &h, NULL));
	h.type = LNET_MSG_ACK;
	KUNIT_EXPECT_TRUE(test, lnet_fault_attr_match(&a, &h, NULL));
	h.type = LNET_MSG_HELLO;
	KUNIT_EXPECT_FALSE(test, lnet_fault_attr_match(&a, &h, NULL));

	/* Portals: of a PUT's or a GET's header. */
	a.msg_mask = LNET_FAULT_MSG_ALL;
	a.ptl_mask = BIT_ULL(5);
	KUNIT_ASSERT_EQ(test, lnet_fault_attr_check(&a, NULL), 0);
	h.type = LNET_MSG_PUT;
	KUNIT_EXPECT_FALSE(test, lnet_fault_attr_match(&a, &h, NULL));
	h.msg.put.ptl_index = 5;
	KUNIT_EXPECT_TRUE(test, lnet_fault_attr_match(&a, &h, NULL));
	h.type = LNET_MSG_GET;
	h.msg.get.ptl_index = 63;
	KUNIT_EXPECT_FALSE(test, lnet_fault_attr_match(&a, &h, NULL));
	h.msg.get.ptl_index = 5;
	KUNIT_EXPECT_TRUE(test, lnet_fault_attr_match(&a, &h, NULL));
	h.type = LNET_MSG_REPLY;	/* filtered out by the type */
	KUNIT_EXPECT_FALSE(test, lnet_fault_attr_match(&a, &h, NULL));
}

/* Rate R: exactly one hit in each run of R matches, where rnd says. */
static void fault_rate(struct kunit *test)
{
	struct lnet_fault_attr a = fault_drop_rate(4);
	struct lnet_fault_sched s;
	unsigned int hits = 0;
	u64 i;

	fault_rnd_val = 2;
	lnet_fault_sched_init(&a, &s, 0, fault_rnd);
	for (i = 0; i < 40; i++) {
		bool hit = lnet_fault_sched_hit(&a, &s, i, 0, fault_rnd);

		KUNIT_EXPECT_EQ(test, hit, i % 4 == 2);
		hits += hit;
	}
	KUNIT_EXPECT_EQ(test, hits, 10U);

	/* Rate 1: every message. */
	a = fault_drop_rate(1);
	lnet_fault_sched_init(&a, &s, 0, fault_rnd);
	for (i = 0; i < 5; i++)
		KUNIT_EXPECT_TRUE(test,
				  lnet_fault_sched_hit(&a, &s, i, 0, fault_rnd));

	/* drop_all: every message, whatever the schedule. */
	a = fault_drop_rate(0);
	a.drop_all = true;
	KUNIT_EXPECT_TRUE(test, lnet_fault_sched_hit(&a, &s, 7, 0, fault_rnd));
}

/* Interval S: the first match at or after a random second of each window. */
static void fault_interval(struct kunit *test)
{
	struct lnet_fault_attr a = fault_drop_rate(0);
	struct lnet_fault_sched s;

	a.interval = 10;
	fault_rnd_val = 3;
	lnet_fault_sched_init(&a, &s, 100, fault_rnd);	/* hit at 103 */
	KUNIT_EXPECT_FALSE(test, lnet_fault_sched_hit(&a, &s, 0, 100, fault_rnd));
	KUNIT_EXPECT_FALSE(test, lnet_fault_sched_hit(&a, &s, 1, 102, fault_rnd));
	KUNIT_EXPECT_TRUE(test, lnet_fault_sched_hit(&a, &s, 2, 103, fault_rnd));
	/* Once per window: the next at 110 + 3. */
	KUNIT_EXPECT_FALSE(test, lnet_fault_sched_hit(&a, &s, 3, 104, fault_rnd));
	KUNIT_EXPECT_FALSE(test, lnet_fault_sched_hit(&a, &s, 4, 112, fault_rnd));
	KUNIT_EXPECT_TRUE(test, lnet_fault_sched_hit(&a, &s, 5, 113, fault_rnd));
	/* Idle for long: the window restarts from now, no burst of hits. */
	KUNIT_EXPECT_TRUE(test, lnet_fault_sched_hit(&a, &s, 6, 500, fault_rnd));
	KUNIT_EXPECT_FALSE(test, lnet_fault_sched_hit(&a, &s, 7, 501, fault_rnd));

	/* random: half of the values below the interval hit. */
	a.random = true;
	fault_rnd_val = 4;
	KUNIT_EXPECT_FALSE(test, lnet_fault_sched_hit(&a, &s, 0, 0, fault_rnd));
	fault_rnd_val = 5;
	KUNIT_EXPECT_TRUE(test, lnet_fault_sched_hit(&a, &s, 0, 0, fault_rnd));
}

static void fault_hstatus(struct kunit *test)
{
	u32 v;

	KUNIT_EXPECT_EQ(test, lnet_fault_hstatus(BIT(LNET_MSG_STATUS_REMOTE_DROPPED),
						 fault_rnd),
			LNET_MSG_STATUS_REMOTE_DROPPED);
	KUNIT_EXPECT_EQ(test,
			lnet_fault_hstatus(BIT(LNET_MSG_STATUS_LOCAL_TIMEOUT) |
					   BIT(LNET_MSG_STATUS_REMOTE_ERROR),
					   fault_rnd),
			LNET_MSG_STATUS_LOCAL_TIMEOUT);
	/* random: every failure 1..10, never OK. */
	for (v = 0; v < 12; v++) {
		enum lnet_msg_hstatus hs;

		fault_rnd_val = v;
		hs = lnet_fault_hstatus(LNET_FAULT_HEALTH_RANDOM, fault_rnd);
		KUNIT_EXPECT_GE(test, hs, LNET_MSG_STATUS_LOCAL_INTERRUPT);
		KUNIT_EXPECT_LE(test, hs, LNET_MSG_STATUS_NETWORK_TIMEOUT);
	}
}

/* A rule's life: added, drops what it matches, counted, deleted. */
static void fault_rule_life(struct kunit *test)
{
	struct lnet_fault_attr a = fault_drop_rate(1), got;
	struct lnet_hdr h = { .type = LNET_MSG_GET };
	struct lnet_fault_stats st;
	struct lnet_fault_nid src = { }, dst = { .any = true };

	fault_nid(test, "192.0.2.1@tcp", &h.src_nid);
	fault_nid(test, "192.0.2.2@tcp", &h.dest_nid);
	a.src.any = false;
	a.src.nid = h.src_nid;
	src = a.src;
	a.msg_mask = BIT(LNET_MSG_GET);
	KUNIT_ASSERT_EQ(test, lnet_fault_add(&a, NULL), 0);

	KUNIT_EXPECT_TRUE(test, lnet_fault_drop_rx(&h, &h.dest_nid));
	h.type = LNET_MSG_PUT;	/* not its type */
	KUNIT_EXPECT_FALSE(test, lnet_fault_drop_rx(&h, &h.dest_nid));
	h.type = LNET_MSG_GET;
	KUNIT_EXPECT_TRUE(test, lnet_fault_drop_rx(&h, &h.dest_nid));

	KUNIT_ASSERT_EQ(test, lnet_fault_get(LNET_FAULT_DROP, 0, &got, &st), 0);
	KUNIT_EXPECT_EQ(test, st.count, 2ULL);
	KUNIT_EXPECT_EQ(test, st.get, 2ULL);
	KUNIT_EXPECT_EQ(test, st.acted, 2ULL);
	KUNIT_EXPECT_EQ(test, lnet_fault_get(LNET_FAULT_DROP, 1, &got, &st),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, lnet_fault_get(LNET_FAULT_DELAY, 0, &got, &st),
			-ENOENT);

	/* A health error rule applies at send only, a plain one at receive. */
	KUNIT_EXPECT_EQ(test, lnet_fault_del(LNET_FAULT_DROP, &src, &dst), 1);
	KUNIT_EXPECT_FALSE(test, lnet_fault_drop_rx(&h, &h.dest_nid));
	a.health_mask = BIT(LNET_MSG_STATUS_LOCAL_DROPPED);
	KUNIT_ASSERT_EQ(test, lnet_fault_add(&a, NULL), 0);
	KUNIT_EXPECT_FALSE(test, lnet_fault_drop_rx(&h, &h.dest_nid));
	KUNIT_EXPECT_EQ(test, lnet_fault_del(LNET_FAULT_DROP, NULL, NULL), 1);
	KUNIT_EXPECT_EQ(test, lnet_fault_del(LNET_FAULT_DROP, NULL, NULL), 0);
}

static struct kunit_case lnet_fault_cases[] = {
	KUNIT_CASE(fault_check),
	KUNIT_CASE(fault_match),
	KUNIT_CASE(fault_rate),
	KUNIT_CASE(fault_interval),
	KUNIT_CASE(fault_hstatus),
	KUNIT_CASE(fault_rule_life),
	{}
};

static struct kunit_suite lnet_fault_suite = {
	.name = "lnet_fault",
	.test_cases = lnet_fault_cases,
};

kunit_test_suite(lnet_fault_suite);

MODULE_DESCRIPTION("KUnit tests for LNet fault injection rules");
MODULE_LICENSE("GPL");
