// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: forwarding's accounting (lnet/rtrbuf.c, router credits with
 * lnet/credits.c): which pool a payload takes, buffer counts from the
 * totals, pool credits with FIFO waiters, lazy shrinking and freeing when
 * routing is off, and the order in which messages held by a router
 * credit and then by a pool credit go, as lnet_fwd_release_locked()
 * hands them on (spec lnet-routing.md 4.2, 4.3).
 */
#include <kunit/test.h>

#include <lnet/lib-lnet.h>
#include <lnet/router.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define RT_BUFS		4
#define RT_MSGS		16

struct rt_env {
	struct lnet_rtrpool	pool;
	struct lnet_rtrbuf	buf[RT_BUFS];
	struct lnet_credits	peer;		/* a previous hop's credits */
	struct lnet_msg		msg[RT_MSGS];
	struct lnet_rtrbuf	*held[RT_MSGS];	/* the buffer each holds */
};

/* A pool of @n buffers, all idle, and a peer NI of @peer credits. */
static struct rt_env *rt_env(struct kunit *test, int n, int peer)
{
	struct rt_env *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	LIST_HEAD(freed);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, e);
	lnet_rtrpool_init(&e->pool, 1);
	e->pool.rp_req = n;
	for (i = 0; i < n; i++) {
		INIT_LIST_HEAD(&e->buf[i].rb_list);
		e->buf[i].rb_pool = &e->pool;
		e->pool.rp_nbuffers++;
		KUNIT_ASSERT_NULL(test, lnet_rtrpool_put(&e->pool, &e->buf[i],
							 true, &freed));
	}
	KUNIT_ASSERT_TRUE(test, list_empty(&freed));
	e->pool.rp_mincredits = e->pool.rp_credits;
	lnet_credits_init(&e->peer, peer);
	for (i = 0; i < RT_MSGS; i++)
		INIT_LIST_HEAD(&e->msg[i].msg_list);
	return e;
}

static int rt_idx(struct rt_env *e, struct list_head *w)
{
	return list_entry(w, struct lnet_msg, msg_list) - e->msg;
}

static int rt_count(struct list_head *head)
{
	struct list_head *pos;
	int n = 0;

	list_for_each(pos, head)
		n++;
	return n;
}

/* Credits are always the idle buffers less the messages waiting. */
static void rt_check_credits(struct kunit *test, struct rt_env *e)
{
	KUNIT_EXPECT_EQ(test, e->pool.rp_credits,
			rt_count(&e->pool.rp_idle) -
			rt_count(&e->pool.rp_waiters));
}

static void pool_choice_by_size(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, lnet_rtrpool_idx(0), LNET_RTRPOOL_TINY);
	KUNIT_EXPECT_EQ(test, lnet_rtrpool_idx(1), LNET_RTRPOOL_SMALL);
	KUNIT_EXPECT_EQ(test, lnet_rtrpool_idx(PAGE_SIZE), LNET_RTRPOOL_SMALL);
	KUNIT_EXPECT_EQ(test, lnet_rtrpool_idx(PAGE_SIZE + 1),
			LNET_RTRPOOL_LARGE);
	KUNIT_EXPECT_EQ(test, lnet_rtrpool_idx(LNET_MTU), LNET_RTRPOOL_LARGE);
	KUNIT_EXPECT_EQ(test, lnet_rtrpool_npages(LNET_RTRPOOL_TINY), 0U);
	KUNIT_EXPECT_EQ(test, lnet_rtrpool_npages(LNET_RTRPOOL_SMALL), 1U);
	/* 1 MiB fits a large buffer exactly: 256 pages of 4 KiB */
	KUNIT_EXPECT_EQ(test, lnet_rtrpool_npages(LNET_RTRPOOL_LARGE) *
			PAGE_SIZE, (unsigned long)LNET_MTU);
}

static void pool_counts(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, lnet_rtrpool_count(0, LNET_RTR_TINY_DEFAULT),
			2048);
	KUNIT_EXPECT_EQ(test, lnet_rtrpool_count(0, LNET_RTR_SMALL_DEFAULT),
			16384);
	KUNIT_EXPECT_EQ(test, lnet_rtrpool_count(0, LNET_RTR_LARGE_DEFAULT),
			1024);
	KUNIT_EXPECT_EQ(test, lnet_rtrpool_count(4, 1024), 4);
	KUNIT_EXPECT_EQ(test, lnet_rtrpool_count(1, 1024), 1);
	KUNIT_EXPECT_EQ(test, lnet_rtrpool_count(-1, 1024), -EINVAL);
}

/* Taken until empty, then FIFO waiters; buffers go to them in order. */
static void pool_credits_fifo(struct kunit *test)
{
	struct rt_env *e = rt_env(test, 2, 0);
	struct lnet_rtrbuf *rb[2];
	LIST_HEAD(freed);
	struct list_head *w;
	int i;

	for (i = 0; i < 2; i++) {
		KUNIT_ASSERT_TRUE(test, lnet_rtrpool_take(&e->pool,
							  &e->msg[i].msg_list));
		rb[i] = lnet_rtrpool_get_idle(&e->pool);
		KUNIT_ASSERT_NOT_NULL(test, rb[i]);
	}
	for (i = 2; i < 5; i++)
		KUNIT_EXPECT_FALSE(test, lnet_rtrpool_take(&e->pool,
							   &e->msg[i].msg_list));
	KUNIT_EXPECT_EQ(test, e->pool.rp_credits, -3);
	KUNIT_EXPECT_EQ(test, e->pool.rp_mincredits, -3);
	rt_check_credits(test, e);
	/* each returning buffer goes to the oldest waiter */
	w = lnet_rtrpool_put(&e->pool, rb[1], true, &freed);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, rt_idx(e, w), 2);
	w = lnet_rtrpool_put(&e->pool, rb[0], true, &freed);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, rt_idx(e, w), 3);
	w = lnet_rtrpool_put(&e->pool, rb[1], true, &freed);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, rt_idx(e, w), 4);
	rt_check_credits(test, e);
	/* nobody waits: back to idle, every credit back */
	KUNIT_EXPECT_NULL(test, lnet_rtrpool_put(&e->pool, rb[0], true,
						 &freed));
	KUNIT_EXPECT_NULL(test, lnet_rtrpool_put(&e->pool, rb[1], true,
						 &freed));
	KUNIT_EXPECT_EQ(test, e->pool.rp_credits, 2);
	KUNIT_EXPECT_EQ(test, e->pool.rp_nbuffers, 2);
	KUNIT_EXPECT_EQ(test, e->pool.rp_mincredits, -3);
	KUNIT_EXPECT_TRUE(test, list_empty(&freed));
	rt_check_credits(test, e);
}

/* Shrinking is lazy; routing off frees what comes back, waiters first. */
static void pool_shrink_and_disable(struct kunit *test)
{
	struct rt_env *e = rt_env(test, 3, 0);
	struct lnet_rtrbuf *rb[3];
	LIST_HEAD(freed);
	struct list_head *w;
	int i;

	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_TRUE(test, lnet_rtrpool_take(&e->pool,
							  &e->msg[i].msg_list));
		rb[i] = lnet_rtrpool_get_idle(&e->pool);
	}
	KUNIT_EXPECT_FALSE(test, lnet_rtrpool_take(&e->pool,
						   &e->msg[3].msg_list));
	e->pool.rp_req = 1;
	/* surplus, but a message waits: it gets the buffer */
	w = lnet_rtrpool_put(&e->pool, rb[0], true, &freed);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_EXPECT_EQ(test, rt_idx(e, w), 3);
	/* surplus and nobody waits: freed */
	KUNIT_EXPECT_NULL(test, lnet_rtrpool_put(&e->pool, rb[1], true,
						 &freed));
	KUNIT_EXPECT_EQ(test, rt_count(&freed), 1);
	KUNIT_EXPECT_EQ(test, e->pool.rp_nbuffers, 2);
	KUNIT_EXPECT_NULL(test, lnet_rtrpool_put(&e->pool, rb[2], true,
						 &freed));
	KUNIT_EXPECT_EQ(test, rt_count(&freed), 2);
	KUNIT_EXPECT_EQ(test, e->pool.rp_nbuffers, 1);
	/* the wanted one stays while routing is on ... */
	KUNIT_EXPECT_NULL(test, lnet_rtrpool_put(&e->pool, rb[0], true,
						 &freed));
	KUNIT_EXPECT_EQ(test, e->pool.rp_credits, 1);
	rt_check_credits(test, e);
	/* ... and goes when it comes back with routing off */
	KUNIT_ASSERT_TRUE(test, lnet_rtrpool_take(&e->pool,
						  &e->msg[4].msg_list));
	rb[0] = lnet_rtrpool_get_idle(&e->pool);
	KUNIT_EXPECT_NULL(test, lnet_rtrpool_put(&e->pool, rb[0], false,
						 &freed));
	KUNIT_EXPECT_EQ(test, e->pool.rp_nbuffers, 0);
	KUNIT_EXPECT_EQ(test, e->pool.rp_credits, 0);
	KUNIT_EXPECT_EQ(test, rt_count(&freed), 3);
}

/*
 * A previous hop with 2 router credits sends 5 messages, the pool has 1
 * buffer: as lnet_fwd_start() and lnet_fwd_release_locked() do, each
 * message takes a router credit (or waits on the peer), then a pool
 * credit (or waits on the pool); a finished message gives its buffer to
 * the pool's oldest waiter, then its router credit to the peer's, which
 * then takes a pool credit.  Every message must get a buffer exactly
 * once, in arrival order, and every credit must come back.
 */
static void router_credits_order(struct kunit *test)
{
	struct rt_env *e = rt_env(test, 1, 2);
	int order[RT_MSGS], n = 0, i, m;
	struct lnet_rtrbuf *rb;
	struct list_head *w;
	LIST_HEAD(ready);	/* hold a buffer: "received" */
	LIST_HEAD(freed);

	for (i = 0; i < 5; i++) {
		if (!lnet_credits_take(&e->peer, &e->msg[i].msg_list))
			continue;
		if (lnet_rtrpool_take(&e->pool, &e->msg[i].msg_list)) {
			e->held[i] = lnet_rtrpool_get_idle(&e->pool);
			list_add_tail(&e->msg[i].msg_list, &ready);
		}
	}
	KUNIT_EXPECT_EQ(test, e->peer.credits, -3);
	KUNIT_EXPECT_EQ(test, e->pool.rp_credits, -1);
	while ((w = ready.next) != &ready) {
		list_del_init(w);
		m = rt_idx(e, w);
		KUNIT_ASSERT_NOT_NULL(test, e->held[m]);
		order[n++] = m;
		/* the onward send completed: buffer, then router credit */
		rb = e->held[m];
		e->held[m] = NULL;
		w = lnet_rtrpool_put(&e->pool, rb, true, &freed);
		if (w) {
			e->held[rt_idx(e, w)] = rb;
			list_add_tail(w, &ready);
		}
		w = lnet_credits_return(&e->peer);
		if (w && lnet_rtrpool_take(&e->pool, w)) {
			e->held[rt_idx(e, w)] = lnet_rtrpool_get_idle(&e->pool);
			list_add_tail(w, &ready);
		}
		rt_check_credits(test, e);
	}
	KUNIT_ASSERT_EQ(test, n, 5);
	for (i = 0; i < 5; i++)
		KUNIT_EXPECT_EQ(test, order[i], i);
	KUNIT_EXPECT_EQ(test, e->peer.credits, 2);
	KUNIT_EXPECT_EQ(test, e->peer.min, -3);
	KUNIT_EXPECT_EQ(test, e->pool.rp_credits, 1);
	KUNIT_EXPECT_TRUE(test, list_empty(&freed));
}

/*
 * lnet_routing_next() @dt jiffies after a t0 just before the jiffies wrap.
 */
static enum lnet_routing_state rs_next(enum lnet_routing_state st, long dt,
				       s64 w, bool tiny_idle)
{
	unsigned long t0 = ULONG_MAX - 5 * HZ;

	return lnet_routing_next(st, t0 + dt, t0, w, tiny_idle);
}

/*
 * Spec 5.1: STARTING ends strictly after W; STOPPING after W with the
 * tiny pool idle, else strictly after 3 W; W <= 0 ends either at the
 * next pass; t0 "after" now (a pass racing the read) waits; a huge W
 * never wraps into an early end; the settled states stay.
 */
static void routing_state_windows(struct kunit *test)
{
	const enum lnet_routing_state on = LNET_ROUTING_ENABLED,
		off = LNET_ROUTING_DISABLED, start = LNET_ROUTING_STARTING,
		stop = LNET_ROUTING_STOPPING;

	KUNIT_EXPECT_EQ(test, rs_next(start, 10 * HZ, 10, true), start);
	KUNIT_EXPECT_EQ(test, rs_next(start, 10 * HZ + 1, 10, false), on);
	KUNIT_EXPECT_EQ(test, rs_next(stop, 10 * HZ + 1, 10, false), stop);
	KUNIT_EXPECT_EQ(test, rs_next(stop, 10 * HZ, 10, true), stop);
	KUNIT_EXPECT_EQ(test, rs_next(stop, 10 * HZ + 1, 10, true), off);
	KUNIT_EXPECT_EQ(test, rs_next(stop, 30 * HZ, 10, false), stop);
	KUNIT_EXPECT_EQ(test, rs_next(stop, 30 * HZ + 1, 10, false), off);
	KUNIT_EXPECT_EQ(test, rs_next(start, 1, 0, false), on);
	KUNIT_EXPECT_EQ(test, rs_next(stop, 1, -5, false), off);
	KUNIT_EXPECT_EQ(test, rs_next(start, -HZ, 0, false), start);
	KUNIT_EXPECT_EQ(test, rs_next(stop, LONG_MAX / 2, S64_MAX, false), stop);
	KUNIT_EXPECT_EQ(test, rs_next(start, INT_MAX, INT_MAX * 2LL, true), start);
	KUNIT_EXPECT_EQ(test, rs_next(on, 100 * HZ, 1, true), on);
	KUNIT_EXPECT_EQ(test, rs_next(off, 100 * HZ, 1, true), off);
}

/* The tiny pool is idle for STOPPING only with no buffer out, no waiter. */
static void pool_idle(struct kunit *test)
{
	struct rt_env *e = rt_env(test, 2, 4);
	LIST_HEAD(freed);

	KUNIT_EXPECT_TRUE(test, lnet_rtrpool_idle(&e->pool));
	KUNIT_ASSERT_TRUE(test, lnet_rtrpool_take(&e->pool, &e->msg[0].msg_list));
	e->held[0] = lnet_rtrpool_get_idle(&e->pool);
	KUNIT_EXPECT_FALSE(test, lnet_rtrpool_idle(&e->pool));
	KUNIT_ASSERT_TRUE(test, lnet_rtrpool_take(&e->pool, &e->msg[1].msg_list));
	e->held[1] = lnet_rtrpool_get_idle(&e->pool);
	KUNIT_EXPECT_FALSE(test, lnet_rtrpool_take(&e->pool, &e->msg[2].msg_list));
	KUNIT_EXPECT_PTR_EQ(test,
			    lnet_rtrpool_put(&e->pool, e->held[0], true, &freed),
			    &e->msg[2].msg_list);
	KUNIT_EXPECT_FALSE(test, lnet_rtrpool_idle(&e->pool));
	KUNIT_EXPECT_NULL(test,
			  lnet_rtrpool_put(&e->pool, e->held[0], true, &freed));
	KUNIT_EXPECT_NULL(test,
			  lnet_rtrpool_put(&e->pool, e->held[1], true, &freed));
	KUNIT_EXPECT_TRUE(test, lnet_rtrpool_idle(&e->pool));
	KUNIT_EXPECT_TRUE(test, list_empty(&freed));
}

static struct kunit_case lnet_router_cases[] = {
	KUNIT_CASE(routing_state_windows),
	KUNIT_CASE(pool_idle),
	KUNIT_CASE(pool_choice_by_size),
	KUNIT_CASE(pool_counts),
	KUNIT_CASE(pool_credits_fifo),
	KUNIT_CASE(pool_shrink_and_disable),
	KUNIT_CASE(router_credits_order),
	{}
};

static struct kunit_suite lnet_router_suite = {
	.name = "lnet_router",
	.test_cases = lnet_router_cases,
};

kunit_test_suite(lnet_router_suite);

MODULE_DESCRIPTION("KUnit tests for LNet forwarding: router buffers and credits");
MODULE_LICENSE("GPL");
