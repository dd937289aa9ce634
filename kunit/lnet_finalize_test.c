// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: lnet_finalize() completes iteratively.  Messages queued on an
 * NI's credits are started by the finalization of the message before
 * them; when the LND refuses each one at once (a device just removed, an
 * NI stopping), finalizing the next must not nest inside finalizing the
 * previous: that took one stack frame per queued message and overflowed
 * the stack with a backlog.  Every message is still finalized exactly
 * once, with the LND's status, and every credit comes back.
 */
#include <kunit/test.h>

#include <lnet/lib-lnet.h>

#define FT_MSGS		16
/* Stack spread allowed between the LND calls of one drain. */
#define FT_SPREAD	256

static int ft_sends;
static unsigned long ft_sp_min, ft_sp_max;

/* An LND that refuses every message at once, noting its stack depth. */
static int ft_lnd_send(struct lnet_ni *ni, void *private, struct lnet_msg *msg)
{
	unsigned long sp = (unsigned long)&sp;

	ft_sends++;
	ft_sp_min = min(ft_sp_min, sp);
	ft_sp_max = max(ft_sp_max, sp);
	return -EIO;
}

static void finalize_iterative(struct kunit *test)
{
	struct lnet_lnd *lnd = kunit_kzalloc(test, sizeof(*lnd), GFP_KERNEL);
	struct lnet_net *net = kunit_kzalloc(test, sizeof(*net), GFP_KERNEL);
	struct lnet_ni *ni = kunit_kzalloc(test, sizeof(*ni), GFP_KERNEL);
	struct lnet_msg *first = NULL, *m;
	int i, went = 0;

	KUNIT_ASSERT_NOT_NULL(test, lnd);
	KUNIT_ASSERT_NOT_NULL(test, net);
	KUNIT_ASSERT_NOT_NULL(test, ni);
	lnd->lnd_send = ft_lnd_send;
	net->net_lnd = lnd;
	ni->ni_net = net;
	lnet_credits_init(&ni->ni_txc, 1);
	ni->ni_refcount = 1;		/* the test's own: never reaches 0 */

	/* One message holds the NI's only credit, the others wait for it. */
	for (i = 0; i < FT_MSGS; i++) {
		m = lnet_msg_alloc(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, m);
		m->msg_send = true;
		m->msg_type = LNET_MSG_PUT;
		m->msg_txni = ni;
		lnet_lock();
		ni->ni_refcount++;	/* the message's, put when it is freed */
		if (lnet_msg_credits_acquire(m)) {
			went++;
			first = m;
		}
		lnet_unlock();
	}
	KUNIT_ASSERT_EQ(test, went, 1);
	KUNIT_ASSERT_EQ(test, ni->ni_txc.credits, 1 - FT_MSGS);

	/* It completes: each waiter in turn gets the credit and is refused. */
	ft_sends = 0;
	ft_sp_min = ULONG_MAX;
	ft_sp_max = 0;
	lnet_finalize(first, 0);

	KUNIT_EXPECT_EQ(test, ft_sends, FT_MSGS - 1);
	KUNIT_EXPECT_EQ(test, ni->ni_txc.credits, 1);
	KUNIT_EXPECT_TRUE(test, list_empty(&ni->ni_txc.queue));
	KUNIT_EXPECT_EQ(test, ni->ni_refcount, 1);
	KUNIT_EXPECT_EQ(test, ni->ni_stats.send_count, 1);
	KUNIT_EXPECT_LT_MSG(test, ft_sp_max - ft_sp_min, FT_SPREAD,
			    "the LND was called %lu bytes deeper for later messages: finalization nests",
			    ft_sp_max - ft_sp_min);
}

static struct kunit_case lnet_finalize_cases[] = {
	KUNIT_CASE(finalize_iterative),
	{}
};

static struct kunit_suite lnet_finalize_suite = {
	.name = "lnet_finalize",
	.test_cases = lnet_finalize_cases,
};

kunit_test_suite(lnet_finalize_suite);

MODULE_DESCRIPTION("KUnit: iterative message finalization");
MODULE_LICENSE("GPL");
