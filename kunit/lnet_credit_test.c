// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: send credit accounting (lnet/credits.c).  Pools are exhausted,
 * waiters must be served strictly in FIFO order, the low-water mark must
 * follow, and with two levels (peer NI, then NI) every message must be
 * released to the LND exactly once and every credit come back.
 */
#include <kunit/test.h>

#include <lnet/lib-lnet.h>

#define CT_MSGS		64

struct ct_env {
	struct lnet_ni		ni;
	struct lnet_peer_ni	peer[3];
	struct lnet_msg		msg[CT_MSGS];
	int			sent[CT_MSGS];	/* times handed to the "LND" */
};

static struct ct_env *ct_env(struct kunit *test, int ni_max, int peer_max)
{
	struct ct_env *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, e);
	lnet_credits_init(&e->ni.ni_txc, ni_max);
	for (i = 0; i < ARRAY_SIZE(e->peer); i++)
		lnet_credits_init(&e->peer[i].lpni_txc, peer_max);
	for (i = 0; i < CT_MSGS; i++) {
		INIT_LIST_HEAD(&e->msg[i].msg_list);
		e->msg[i].msg_txni = &e->ni;
		e->msg[i].msg_txpeer = &e->peer[i % ARRAY_SIZE(e->peer)];
	}
	return e;
}

static int ct_idx(struct ct_env *e, struct lnet_msg *m)
{
	return m - e->msg;
}

/* A pool: take until empty, queue, return, low-water mark. */
static void credit_pool_exhaust(struct kunit *test)
{
	struct lnet_credits c;
	struct list_head w[5];
	int i;

	lnet_credits_init(&c, 3);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_TRUE(test, lnet_credits_take(&c, &w[i]));
	KUNIT_EXPECT_EQ(test, c.credits, 0);
	KUNIT_EXPECT_EQ(test, c.min, 0);
	KUNIT_EXPECT_FALSE(test, lnet_credits_take(&c, &w[3]));
	KUNIT_EXPECT_FALSE(test, lnet_credits_take(&c, &w[4]));
	KUNIT_EXPECT_EQ(test, c.credits, -2);
	KUNIT_EXPECT_EQ(test, c.min, -2);

	/* Returned credits go to the waiters, oldest first. */
	KUNIT_EXPECT_PTR_EQ(test, lnet_credits_return(&c), &w[3]);
	KUNIT_EXPECT_PTR_EQ(test, lnet_credits_return(&c), &w[4]);
	KUNIT_EXPECT_EQ(test, c.credits, 0);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_NULL(test, lnet_credits_return(&c));
	KUNIT_EXPECT_EQ(test, c.credits, 3);
	KUNIT_EXPECT_TRUE(test, list_empty(&c.queue));
	KUNIT_EXPECT_EQ(test, c.min, -2);
	lnet_credits_reset_min(&c);
	KUNIT_EXPECT_EQ(test, c.min, 3);
}

/* max 0 never runs out and never counts (0@lo). */
static void credit_pool_unlimited(struct kunit *test)
{
	struct lnet_credits c;
	struct list_head w;
	int i;

	lnet_credits_init(&c, 0);
	for (i = 0; i < 1000; i++)
		KUNIT_EXPECT_TRUE(test, lnet_credits_take(&c, &w));
	KUNIT_EXPECT_EQ(test, c.credits, 0);
	KUNIT_EXPECT_NULL(test, lnet_credits_return(&c));
	KUNIT_EXPECT_EQ(test, c.credits, 0);
}

/* Waiters drained on shutdown leave the accounting consistent. */
static void credit_pool_drain(struct kunit *test)
{
	struct lnet_credits c;
	struct list_head w[3];
	LIST_HEAD(out);

	lnet_credits_init(&c, 1);
	KUNIT_EXPECT_TRUE(test, lnet_credits_take(&c, &w[0]));
	KUNIT_EXPECT_FALSE(test, lnet_credits_take(&c, &w[1]));
	KUNIT_EXPECT_FALSE(test, lnet_credits_take(&c, &w[2]));
	lnet_credits_drain(&c, &out);
	KUNIT_EXPECT_EQ(test, c.credits, 0);	/* w[0] still holds one */
	KUNIT_EXPECT_PTR_EQ(test, out.next, &w[1]);
	KUNIT_EXPECT_PTR_EQ(test, out.next->next, &w[2]);
	KUNIT_EXPECT_TRUE(test, list_empty(&c.queue));
	KUNIT_EXPECT_NULL(test, lnet_credits_return(&c));
	KUNIT_EXPECT_EQ(test, c.credits, 1);
}

/* Acquire for message @i; record it as sent if it may go now. */
static void ct_submit(struct kunit *test, struct ct_env *e, int i,
		      struct list_head *lnd)
{
	if (lnet_msg_credits_acquire(&e->msg[i])) {
		e->sent[i]++;
		list_add_tail(&e->msg[i].msg_list, lnd);
	}
}

/* Release @m; whatever becomes ready is "sent" in order. */
static void ct_complete(struct kunit *test, struct ct_env *e,
			struct lnet_msg *m, struct list_head *lnd)
{
	struct lnet_msg *r, *tmp;
	LIST_HEAD(ready);

	list_del_init(&m->msg_list);
	lnet_msg_credits_release(m, &ready);
	KUNIT_EXPECT_FALSE(test, m->msg_txcredit);
	KUNIT_EXPECT_FALSE(test, m->msg_peertxcredit);
	list_for_each_entry_safe(r, tmp, &ready, msg_list) {
		KUNIT_EXPECT_TRUE(test, r->msg_txcredit);
		KUNIT_EXPECT_TRUE(test, !r->msg_txpeer || r->msg_peertxcredit);
		e->sent[ct_idx(e, r)]++;
		list_move_tail(&r->msg_list, lnd);
	}
}

/* Two levels, by hand: peer queue, then NI queue. */
static void credit_two_level(struct kunit *test)
{
	struct ct_env *e = ct_env(test, 1, 1);
	LIST_HEAD(lnd);

	/* msg 0 and 3 go to peer 0, msg 1 to peer 1. */
	ct_submit(test, e, 0, &lnd);
	KUNIT_EXPECT_EQ(test, e->sent[0], 1);
	ct_submit(test, e, 1, &lnd);		/* peer 1 ok, NI empty */
	KUNIT_EXPECT_EQ(test, e->sent[1], 0);
	KUNIT_EXPECT_PTR_EQ(test, e->ni.ni_txc.queue.next, &e->msg[1].msg_list);
	ct_submit(test, e, 3, &lnd);		/* peer 0 empty */
	KUNIT_EXPECT_EQ(test, e->sent[3], 0);
	KUNIT_EXPECT_PTR_EQ(test, e->peer[0].lpni_txc.queue.next,
			    &e->msg[3].msg_list);
	KUNIT_EXPECT_EQ(test, e->ni.ni_txc.credits, -1);
	KUNIT_EXPECT_EQ(test, e->peer[0].lpni_txc.credits, -1);

	/* 0 done: the NI credit goes to 1; 3 gets peer 0, waits on the NI. */
	ct_complete(test, e, &e->msg[0], &lnd);
	KUNIT_EXPECT_EQ(test, e->sent[1], 1);
	KUNIT_EXPECT_EQ(test, e->sent[3], 0);
	KUNIT_EXPECT_PTR_EQ(test, e->ni.ni_txc.queue.next, &e->msg[3].msg_list);
	KUNIT_EXPECT_EQ(test, e->ni.ni_txc.credits, -1);
	KUNIT_EXPECT_EQ(test, e->peer[0].lpni_txc.credits, 0);

	ct_complete(test, e, &e->msg[1], &lnd);
	KUNIT_EXPECT_EQ(test, e->sent[3], 1);
	ct_complete(test, e, &e->msg[3], &lnd);
	KUNIT_EXPECT_TRUE(test, list_empty(&lnd));
	KUNIT_EXPECT_EQ(test, e->ni.ni_txc.credits, 1);
	KUNIT_EXPECT_EQ(test, e->ni.ni_txc.min, -1);
	KUNIT_EXPECT_EQ(test, e->peer[0].lpni_txc.credits, 1);
	KUNIT_EXPECT_EQ(test, e->peer[0].lpni_txc.min, -1);
	KUNIT_EXPECT_EQ(test, e->peer[1].lpni_txc.credits, 1);
	KUNIT_EXPECT_EQ(test, e->peer[1].lpni_txc.min, 0);
}

/*
 * Many messages, few credits: submit all, then complete the oldest sent
 * until none is left.  Each message is sent exactly once, those of one
 * peer in submission order, and every credit comes back.
 */
static void credit_stress_fifo(struct kunit *test)
{
	struct ct_env *e = ct_env(test, 4, 2);
	int last[3] = { -1, -1, -1 };
	int i, n = 0, idx, p;
	LIST_HEAD(lnd);

	for (i = 0; i < CT_MSGS; i++)
		ct_submit(test, e, i, &lnd);
	/* Only the 3 x 2 messages with a peer credit reach the NI. */
	KUNIT_EXPECT_EQ(test, e->ni.ni_txc.credits, 4 - 6);
	KUNIT_EXPECT_EQ(test, e->ni.ni_txc.min, 4 - 6);
	KUNIT_EXPECT_EQ(test, e->peer[0].lpni_txc.credits,
			2 - (CT_MSGS + 2) / 3);

	while (!list_empty(&lnd)) {
		struct lnet_msg *m = list_first_entry(&lnd, struct lnet_msg,
						      msg_list);

		idx = ct_idx(e, m);
		p = idx % 3;
		KUNIT_EXPECT_GT(test, idx, last[p]);
		last[p] = idx;
		ct_complete(test, e, m, &lnd);
		n++;
		if (n > CT_MSGS)
			break;
	}
	KUNIT_EXPECT_EQ(test, n, CT_MSGS);
	for (i = 0; i < CT_MSGS; i++)
		KUNIT_EXPECT_EQ_MSG(test, e->sent[i], 1, "message %d", i);
	KUNIT_EXPECT_EQ(test, e->ni.ni_txc.credits, 4);
	KUNIT_EXPECT_TRUE(test, list_empty(&e->ni.ni_txc.queue));
	for (p = 0; p < 3; p++) {
		KUNIT_EXPECT_EQ(test, e->peer[p].lpni_txc.credits, 2);
		KUNIT_EXPECT_TRUE(test, list_empty(&e->peer[p].lpni_txc.queue));
	}
}

/* A loopback message (no peer NI) only needs the NI credit. */
static void credit_no_peer(struct kunit *test)
{
	struct ct_env *e = ct_env(test, 1, 1);
	LIST_HEAD(lnd);

	e->msg[0].msg_txpeer = NULL;
	e->msg[1].msg_txpeer = NULL;
	ct_submit(test, e, 0, &lnd);
	ct_submit(test, e, 1, &lnd);
	KUNIT_EXPECT_EQ(test, e->sent[0], 1);
	KUNIT_EXPECT_EQ(test, e->sent[1], 0);
	KUNIT_EXPECT_FALSE(test, e->msg[1].msg_peertxcredit);
	ct_complete(test, e, &e->msg[0], &lnd);
	KUNIT_EXPECT_EQ(test, e->sent[1], 1);
	ct_complete(test, e, &e->msg[1], &lnd);
	KUNIT_EXPECT_EQ(test, e->ni.ni_txc.credits, 1);
}

/*
 * A peer NI reached through two local NIs: when NI B stops, its waiters
 * leave the peer queue (lnet_peers_drain_ni_locked() does this for every
 * peer NI) without a credit; NI A's keep their order, and returned
 * credits go only to them.
 */
static void credit_unqueue_stopped_ni(struct kunit *test)
{
	struct ct_env *e = ct_env(test, 8, 1);
	struct lnet_ni ni_b = {};
	struct lnet_msg *m, *tmp;
	LIST_HEAD(lnd);
	LIST_HEAD(out);
	int i;

	lnet_credits_init(&ni_b.ni_txc, 8);
	for (i = 0; i < 4; i++) {
		e->msg[i].msg_txpeer = &e->peer[0];
		if (i & 1)
			e->msg[i].msg_txni = &ni_b;
		ct_submit(test, e, i, &lnd);
	}
	KUNIT_EXPECT_EQ(test, e->sent[0], 1);
	KUNIT_EXPECT_EQ(test, e->peer[0].lpni_txc.credits, -3);

	list_for_each_entry_safe(m, tmp, &e->peer[0].lpni_txc.queue, msg_list) {
		if (m->msg_txni != &ni_b)
			continue;
		lnet_credits_unqueue(&e->peer[0].lpni_txc, &m->msg_list);
		m->msg_peertxcredit = false;
		list_add_tail(&m->msg_list, &out);
	}
	KUNIT_EXPECT_PTR_EQ(test, out.next, &e->msg[1].msg_list);
	KUNIT_EXPECT_PTR_EQ(test, out.next->next, &e->msg[3].msg_list);
	KUNIT_EXPECT_EQ(test, e->peer[0].lpni_txc.credits, -1);
	KUNIT_EXPECT_PTR_EQ(test, e->peer[0].lpni_txc.queue.next,
			    &e->msg[2].msg_list);

	/* The failed ones hold nothing to give back. */
	list_for_each_entry_safe(m, tmp, &out, msg_list) {
		list_del_init(&m->msg_list);
		ct_complete(test, e, m, &lnd);
		KUNIT_EXPECT_EQ(test, e->sent[ct_idx(e, m)], 0);
	}
	KUNIT_EXPECT_EQ(test, e->peer[0].lpni_txc.credits, -1);

	ct_complete(test, e, &e->msg[0], &lnd);
	KUNIT_EXPECT_EQ(test, e->sent[2], 1);
	ct_complete(test, e, &e->msg[2], &lnd);
	KUNIT_EXPECT_TRUE(test, list_empty(&lnd));
	KUNIT_EXPECT_EQ(test, e->peer[0].lpni_txc.credits, 1);
	KUNIT_EXPECT_EQ(test, e->ni.ni_txc.credits, 8);
	KUNIT_EXPECT_EQ(test, ni_b.ni_txc.credits, 8);
}

static struct kunit_case lnet_credit_cases[] = {
	KUNIT_CASE(credit_pool_exhaust),
	KUNIT_CASE(credit_pool_unlimited),
	KUNIT_CASE(credit_pool_drain),
	KUNIT_CASE(credit_two_level),
	KUNIT_CASE(credit_stress_fifo),
	KUNIT_CASE(credit_no_peer),
	KUNIT_CASE(credit_unqueue_stopped_ni),
	{}
};

static struct kunit_suite lnet_credit_suite = {
	.name = "lnet_credit",
	.test_cases = lnet_credit_cases,
};

kunit_test_suite(lnet_credit_suite);

MODULE_DESCRIPTION("KUnit tests for LNet send credits");
MODULE_LICENSE("GPL");
