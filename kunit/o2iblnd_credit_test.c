// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: ko2iblnd's credit rules (wire spec 5.9, lnd/o2ib/tx.c): when a
 * NOOP must go, and whether a credited message may take a credit, for V2
 * (NOOPs out of band, at most two in flight) and V1 (NOOPs take a
 * credit, the last credit is kept for one).
 */
#include <kunit/test.h>
#include <kunit/visibility.h>

#include "../lnd/o2ib/o2iblnd.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

struct credit_fixture {
	struct lnet_ni		ni;
	struct kib_net		net;
	struct kib_conn		conn;
	struct kib_tx		queued;	/* a credited message, if queued */
	struct kib_tx		nocred;	/* a response, if queued */
};

/* An established connection of @version, queue depth 8, peer_credits 8
 * (NOOP threshold 4 for V2, 7 for V1), nothing owed, nothing queued.
 */
static struct kib_conn *conn_of(struct kunit *test, u16 version)
{
	struct credit_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	struct kib_conn *c;

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->ni.ni_tunables.peer_credits = 8;
	f->ni.ni_tunables.peercredits_hiw = 4;
	f->net.kn_ni = &f->ni;
	c = &f->conn;
	c->ibc_net = &f->net;
	c->ibc_state = KIB_CONN_ESTABLISHED;
	c->ibc_version = version;
	c->ibc_queue_depth = 8;
	c->ibc_credits = 8;
	c->ibc_last_send = jiffies;	/* no keepalive due */
	INIT_LIST_HEAD(&c->ibc_tx_queue);
	INIT_LIST_HEAD(&c->ibc_tx_queue_nocred);
	INIT_LIST_HEAD(&f->queued.tx_list);
	INIT_LIST_HEAD(&f->nocred.tx_list);
	return c;
}

static void queue_credited(struct kib_conn *c)
{
	struct credit_fixture *f = container_of(c, struct credit_fixture, conn);

	list_add_tail(&f->queued.tx_list, &c->ibc_tx_queue);
}

static void queue_response(struct kib_conn *c)
{
	struct credit_fixture *f = container_of(c, struct credit_fixture, conn);

	list_add_tail(&f->nocred.tx_list, &c->ibc_tx_queue_nocred);
}

static void v2_noop_threshold(struct kunit *test)
{
	struct kib_conn *c = conn_of(test, IBLND_MSG_VERSION_2);

	c->ibc_outstanding = 3;
	KUNIT_EXPECT_FALSE(test, kib_need_noop_locked(c));
	c->ibc_outstanding = 4;		/* the high-water mark */
	KUNIT_EXPECT_TRUE(test, kib_need_noop_locked(c));
	/* (B) a response carries the credits instead */
	queue_response(c);
	KUNIT_EXPECT_FALSE(test, kib_need_noop_locked(c));
}

static void v2_noop_vs_queued(struct kunit *test)
{
	struct kib_conn *c = conn_of(test, IBLND_MSG_VERSION_2);

	c->ibc_outstanding = 8;
	queue_credited(c);
	/* (C) the queued message can go and carry the credits */
	KUNIT_EXPECT_FALSE(test, kib_need_noop_locked(c));
	c->ibc_credits = 0;	/* it cannot: a NOOP, without credit */
	KUNIT_EXPECT_TRUE(test, kib_need_noop_locked(c));
	c->ibc_noops_posted = KIB_OOB_MSGS;	/* two in flight already */
	KUNIT_EXPECT_FALSE(test, kib_need_noop_locked(c));
}

static void v2_credits(struct kunit *test)
{
	struct kib_conn *c = conn_of(test, IBLND_MSG_VERSION_2);

	c->ibc_credits = 1;	/* V2: the last credit is anyone's */
	KUNIT_EXPECT_TRUE(test, kib_credit_ok_locked(c, IBLND_MSG_IMMEDIATE));
	c->ibc_credits = 0;
	KUNIT_EXPECT_FALSE(test, kib_credit_ok_locked(c, IBLND_MSG_IMMEDIATE));
}

static void v1_noop_threshold(struct kunit *test)
{
	struct kib_conn *c = conn_of(test, IBLND_MSG_VERSION_1);

	c->ibc_outstanding = 6;	/* below V1's fixed 7 */
	KUNIT_EXPECT_FALSE(test, kib_need_noop_locked(c));
	c->ibc_outstanding = 7;
	KUNIT_EXPECT_TRUE(test, kib_need_noop_locked(c));
	/* V1 NOOPs are not limited to two in flight, only by credits */
	c->ibc_noops_posted = 5;
	KUNIT_EXPECT_TRUE(test, kib_need_noop_locked(c));
	c->ibc_credits = 0;	/* a V1 NOOP needs a credit */
	KUNIT_EXPECT_FALSE(test, kib_need_noop_locked(c));
}

static void v1_last_credit(struct kunit *test)
{
	struct kib_conn *c = conn_of(test, IBLND_MSG_VERSION_1);

	c->ibc_credits = 2;
	KUNIT_EXPECT_TRUE(test, kib_credit_ok_locked(c, IBLND_MSG_IMMEDIATE));
	c->ibc_credits = 1;	/* kept for a NOOP */
	KUNIT_EXPECT_FALSE(test, kib_credit_ok_locked(c, IBLND_MSG_IMMEDIATE));
	KUNIT_EXPECT_FALSE(test, kib_credit_ok_locked(c, IBLND_MSG_PUT_REQ));
	KUNIT_EXPECT_TRUE(test, kib_credit_ok_locked(c, IBLND_MSG_NOOP));
	c->ibc_credits = 0;
	KUNIT_EXPECT_FALSE(test, kib_credit_ok_locked(c, IBLND_MSG_NOOP));
}

static void v1_noop_vs_queued(struct kunit *test)
{
	struct kib_conn *c = conn_of(test, IBLND_MSG_VERSION_1);

	c->ibc_outstanding = 7;
	queue_credited(c);
	/* the queued message takes the credits along */
	KUNIT_EXPECT_FALSE(test, kib_need_noop_locked(c));
	/* only the last credit left: the message may not have it, a NOOP may */
	c->ibc_credits = 1;
	KUNIT_EXPECT_TRUE(test, kib_need_noop_locked(c));
	/* ... but not a keepalive that returns nothing: nothing owed */
	c->ibc_outstanding = 0;
	c->ibc_last_send = jiffies - 200 * HZ;	/* keepalive due */
	KUNIT_EXPECT_FALSE(test, kib_need_noop_locked(c));
	c->ibc_credits = 2;	/* with two, the keepalive can go */
	list_del_init(&container_of(c, struct credit_fixture,
				    conn)->queued.tx_list);
	KUNIT_EXPECT_TRUE(test, kib_need_noop_locked(c));
}

static void not_established(struct kunit *test)
{
	struct kib_conn *c = conn_of(test, IBLND_MSG_VERSION_2);

	c->ibc_outstanding = 8;
	c->ibc_state = KIB_CONN_CLOSING;
	KUNIT_EXPECT_FALSE(test, kib_need_noop_locked(c));
}

static struct kunit_case o2iblnd_credit_cases[] = {
	KUNIT_CASE(v2_noop_threshold),
	KUNIT_CASE(v2_noop_vs_queued),
	KUNIT_CASE(v2_credits),
	KUNIT_CASE(v1_noop_threshold),
	KUNIT_CASE(v1_last_credit),
	KUNIT_CASE(v1_noop_vs_queued),
	KUNIT_CASE(not_established),
	{}
};

static struct kunit_suite o2iblnd_credit_suite = {
	.name = "o2iblnd_credit",
	.test_cases = o2iblnd_credit_cases,
};

kunit_test_suite(o2iblnd_credit_suite);

MODULE_DESCRIPTION("KUnit: ko2iblnd credit and NOOP rules, V1 and V2");
MODULE_LICENSE("GPL");
