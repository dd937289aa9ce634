// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the health module's pure parts (health/treat.c) and the core's
 * deadline arithmetic (lnet/resend.c).  The treatment table of spec
 * features 3b, class by class, with each of Lustre's guards; health
 * values' bounds and steps; a local NI reported down at 0 and up at the
 * maximum (health/values.c, lnet/healthv.c); the recovery ping backoff
 * of spec 3c; the message deadline of spec 3d.
 */
#include <kunit/test.h>
#include <kunit/visibility.h>

#include "../health/health.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* What each class calls for on a send with every guard off. */
static const struct {
	enum lnet_msg_hstatus hs;
	bool local, remote, resend;
} health_table[] = {
	{ LNET_MSG_STATUS_LOCAL_INTERRUPT,	true,  false, true  },
	{ LNET_MSG_STATUS_LOCAL_DROPPED,	true,  false, true  },
	{ LNET_MSG_STATUS_LOCAL_ABORTED,	true,  false, true  },
	{ LNET_MSG_STATUS_LOCAL_NO_ROUTE,	true,  false, true  },
	{ LNET_MSG_STATUS_LOCAL_ERROR,		true,  false, false },
	{ LNET_MSG_STATUS_LOCAL_TIMEOUT,	true,  false, true  },
	{ LNET_MSG_STATUS_REMOTE_ERROR,		false, true,  false },
	{ LNET_MSG_STATUS_REMOTE_DROPPED,	false, true,  true  },
	{ LNET_MSG_STATUS_REMOTE_TIMEOUT,	false, true,  false },
	{ LNET_MSG_STATUS_NETWORK_TIMEOUT,	true,  true,  false },
};

static const struct lnet_health_facts health_send = { .send = true };

static void health_classes(struct kunit *test)
{
	struct lnet_health_action a;
	unsigned int i;

	/* Lustre's numbering, which fault injection masks rely on. */
	KUNIT_EXPECT_EQ(test, LNET_MSG_STATUS_OK, 0);
	KUNIT_EXPECT_EQ(test, LNET_MSG_STATUS_LOCAL_INTERRUPT, 1);
	KUNIT_EXPECT_EQ(test, LNET_MSG_STATUS_LOCAL_ERROR, 5);
	KUNIT_EXPECT_EQ(test, LNET_MSG_STATUS_REMOTE_ERROR, 7);
	KUNIT_EXPECT_EQ(test, LNET_MSG_STATUS_NETWORK_TIMEOUT, 10);
	KUNIT_EXPECT_EQ(test, ARRAY_SIZE(health_table),
			(size_t)LNET_MSG_STATUS_END - 1);
	for (i = 0; i < ARRAY_SIZE(health_table); i++) {
		a = lnet_health_treat(health_table[i].hs, &health_send);
		KUNIT_EXPECT_EQ_MSG(test, a.local, health_table[i].local,
				    "class %d", health_table[i].hs);
		KUNIT_EXPECT_EQ_MSG(test, a.remote, health_table[i].remote,
				    "class %d", health_table[i].hs);
		KUNIT_EXPECT_EQ_MSG(test, a.resend, health_table[i].resend,
				    "class %d", health_table[i].hs);
	}
	a = lnet_health_treat(LNET_MSG_STATUS_OK, &health_send);
	KUNIT_EXPECT_FALSE(test, a.local || a.remote || a.resend);
}

/* A receive is never resent; its values move as a send's. */
static void health_receive(struct kunit *test)
{
	struct lnet_health_facts f = { .send = false };
	struct lnet_health_action a;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(health_table); i++) {
		a = lnet_health_treat(health_table[i].hs, &f);
		KUNIT_EXPECT_FALSE(test, a.resend);
		KUNIT_EXPECT_EQ(test, a.local, health_table[i].local);
		KUNIT_EXPECT_EQ(test, a.remote, health_table[i].remote);
	}
}

/* A recovery ping's failure moves nothing, and it is never resent. */
static void health_recovery_ping(struct kunit *test)
{
	struct lnet_health_facts f = { .send = true, .recovery = true };
	struct lnet_health_action a;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(health_table); i++) {
		a = lnet_health_treat(health_table[i].hs, &f);
		KUNIT_EXPECT_FALSE(test, a.local);
		KUNIT_EXPECT_FALSE(test, a.remote);
		/* The core never resends one (msg_no_resend) either way. */
		KUNIT_EXPECT_EQ(test, a.resend, health_table[i].resend);
	}
}

/* One local NI: local failures are demerited but not resent. */
static void health_single_local_ni(struct kunit *test)
{
	struct lnet_health_facts f = { .send = true, .single_local_ni = true };
	struct lnet_health_action a;

	a = lnet_health_treat(LNET_MSG_STATUS_LOCAL_DROPPED, &f);
	KUNIT_EXPECT_TRUE(test, a.local);
	KUNIT_EXPECT_FALSE(test, a.resend);
	/* A remote failure may still go to another peer NI. */
	a = lnet_health_treat(LNET_MSG_STATUS_REMOTE_DROPPED, &f);
	KUNIT_EXPECT_TRUE(test, a.remote);
	KUNIT_EXPECT_TRUE(test, a.resend);
}

/*
 * A peer with one NI: no remote resend, and its health is not touched
 * unless it is a router (or we route).
 */
static void health_single_peer_ni(struct kunit *test)
{
	struct lnet_health_facts f = { .send = true, .single_peer_ni = true };
	struct lnet_health_action a;

	a = lnet_health_treat(LNET_MSG_STATUS_REMOTE_DROPPED, &f);
	KUNIT_EXPECT_FALSE(test, a.remote);
	KUNIT_EXPECT_FALSE(test, a.resend);
	a = lnet_health_treat(LNET_MSG_STATUS_NETWORK_TIMEOUT, &f);
	KUNIT_EXPECT_TRUE(test, a.local);
	KUNIT_EXPECT_FALSE(test, a.remote);
	/* A local failure to it may still leave by another local NI. */
	a = lnet_health_treat(LNET_MSG_STATUS_LOCAL_TIMEOUT, &f);
	KUNIT_EXPECT_TRUE(test, a.resend);
	f.router = true;
	a = lnet_health_treat(LNET_MSG_STATUS_REMOTE_DROPPED, &f);
	KUNIT_EXPECT_TRUE(test, a.remote);
	KUNIT_EXPECT_FALSE(test, a.resend);
}

/* One of our own NIDs as the peer NI: never demerited as a peer. */
static void health_peer_is_local(struct kunit *test)
{
	struct lnet_health_facts f = { .send = true, .peer_is_local = true };
	struct lnet_health_action a;

	a = lnet_health_treat(LNET_MSG_STATUS_REMOTE_TIMEOUT, &f);
	KUNIT_EXPECT_FALSE(test, a.remote);
	a = lnet_health_treat(LNET_MSG_STATUS_NETWORK_TIMEOUT, &f);
	KUNIT_EXPECT_TRUE(test, a.local);
	KUNIT_EXPECT_FALSE(test, a.remote);
}

static void health_values(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, lnet_health_dec(1000, 100), 900);
	KUNIT_EXPECT_EQ(test, lnet_health_dec(50, 100), 0);
	KUNIT_EXPECT_EQ(test, lnet_health_dec(0, 100), 0);
	KUNIT_EXPECT_EQ(test, lnet_health_dec(1000, 1000), 0);
	KUNIT_EXPECT_EQ(test, lnet_health_dec(700, 0), 700);
	KUNIT_EXPECT_EQ(test, lnet_health_inc(900, 100), 1000);
	KUNIT_EXPECT_EQ(test, lnet_health_inc(950, 100), 1000);
	KUNIT_EXPECT_EQ(test, lnet_health_inc(0, 1), 1);
	KUNIT_EXPECT_EQ(test, lnet_health_inc(0, UINT_MAX), 1000);
	KUNIT_EXPECT_EQ(test, lnet_health_inc(1000, 100), 1000);
	/* Ten failures at the default sensitivity take it to 0. */
	{
		int v = LNET_MAX_HEALTH_VALUE, i;

		for (i = 0; i < 10; i++)
			v = lnet_health_dec(v, 100);
		KUNIT_EXPECT_EQ(test, v, 0);
	}
}

static void health_backoff(struct kunit *test)
{
	static const unsigned int want[] = {
		1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900,
	};
	unsigned int i;

	/* The default 900 s: 2^n up to n = floor(log2(900)) = 9. */
	for (i = 0; i < ARRAY_SIZE(want); i++)
		KUNIT_EXPECT_EQ_MSG(test, lnet_recovery_ping_delay(i, 900),
				    want[i], "ping %u", i);
	KUNIT_EXPECT_EQ(test, lnet_recovery_ping_delay(UINT_MAX, 900), 900U);
	/* Small maxima: 1 s is 2^0, then the maximum. */
	KUNIT_EXPECT_EQ(test, lnet_recovery_ping_delay(0, 1), 1U);
	KUNIT_EXPECT_EQ(test, lnet_recovery_ping_delay(1, 1), 1U);
	KUNIT_EXPECT_EQ(test, lnet_recovery_ping_delay(1, 3), 2U);
	KUNIT_EXPECT_EQ(test, lnet_recovery_ping_delay(2, 3), 3U);
	KUNIT_EXPECT_EQ(test, lnet_recovery_ping_delay(2, 4), 4U);
	KUNIT_EXPECT_EQ(test, lnet_recovery_ping_delay(3, 4), 4U);
}

static unsigned int health_lnd_timeout(void)
{
	return 50;
}

/*
 * The deadline (spec 3d): the LND's timeout x (retry_count + 1) + 1 s,
 * 151 s with the defaults; transaction_timeout for an LND with none.
 */
static void health_deadline(struct kunit *test)
{
	struct lnet_lnd lnd = { .lnd_get_timeout = health_lnd_timeout };
	struct lnet_net net = { .net_lnd = &lnd };
	struct lnet_ni ni = { .ni_net = &net };
	unsigned long before = jiffies, d;
	long want;

	want = 50L * (lnet_retry_count() + 1) + 1;
	d = lnet_msg_deadline(&ni);
	KUNIT_EXPECT_GE(test, (long)(d - before), want * HZ);
	KUNIT_EXPECT_LE(test, (long)(d - jiffies), want * HZ);
	lnd.lnd_get_timeout = NULL;
	before = jiffies;
	d = lnet_msg_deadline(&ni);
	KUNIT_EXPECT_GE(test, (long)(d - before),
			(long)lnet_transaction_timeout() * HZ);
	KUNIT_EXPECT_LE(test, (long)(d - jiffies),
			(long)lnet_transaction_timeout() * HZ);
}

static void health_late(struct kunit *test)
{
	struct lnet_msg msg = { };

	KUNIT_EXPECT_FALSE(test, lnet_msg_late(&msg));	/* no deadline */
	msg.msg_deadline = jiffies + HZ;
	KUNIT_EXPECT_FALSE(test, lnet_msg_late(&msg));
	msg.msg_deadline = jiffies - 1;
	KUNIT_EXPECT_TRUE(test, lnet_msg_late(&msg));
}

/*
 * A recovery ping that cannot start (here LNet is not configured, as
 * when it is being unconfigured or the NI is deleted during a round):
 * its MD's unlink frees the ping in the handler, and nothing may touch
 * it after (KASAN reports a use after free on the debug kernel, which
 * fails this case).  It fails as a ping whose reply never came.
 */
static void health_recovery_start_fails(struct kunit *test)
{
	struct lnet_recovery_target t = { .local = true };

	KUNIT_ASSERT_FALSE_MSG(test, lnet_is_configured(),
			       "the suite runs with LNet loaded, not configured");
	KUNIT_ASSERT_EQ(test, lnet_nid_from_str("192.168.0.1@tcp", &t.nid), 0);
	t.src = t.nid;
	lnet_recovery_ping_start(&t);
	t.local = false;
	lnet_recovery_ping_start(&t);
}

/*
 * Spec features 3a, "NI status coupling": a local NI whose health falls
 * to 0 by failures is reported down (net show, our ping buffer), and up
 * again only once successes (a recovery ping's GET and REPLY are two)
 * bring it back to the maximum; on the way it stays down.  Through the
 * health module's entry for finished messages, with a started NI not in
 * any configured LNet (the suite runs with LNet unconfigured: the
 * recovery queue it joins is never worked on, and it leaves it at 1000).
 */
struct health_zero {
	struct lnet_net		net;
	struct lnet_ni		ni;
	struct lnet_peer	lp;
	struct lnet_peer_net	lpn;
	struct lnet_peer_ni	lpni;
	struct lnet_msg		msg;
};

static void health_zero_down(struct kunit *test)
{
	struct health_zero *z = kunit_kzalloc(test, sizeof(*z), GFP_KERNEL);
	struct lnet_ni *ni = &z->ni;
	struct lnet_peer_ni *lpni = &z->lpni;
	struct lnet_msg *msg = &z->msg;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, z);
	KUNIT_ASSERT_FALSE_MSG(test, lnet_is_configured(),
			       "the suite runs with LNet loaded, not configured");
	KUNIT_ASSERT_EQ_MSG(test, lnet_health_sensitivity(), 100U,
			    "health_sensitivity is not its default");
	KUNIT_ASSERT_EQ(test, 0,
			lnet_nid_from_str("192.168.0.2@tcp", &ni->ni_nid));
	KUNIT_ASSERT_EQ(test, 0,
			lnet_nid_from_str("192.168.0.3@tcp", &lpni->lpni_nid));
	z->net.net_id = lnet_nid_net(&ni->ni_nid);
	ni->ni_net = &z->net;
	ni->ni_up = true;
	ni->ni_healthv = LNET_MAX_HEALTH_VALUE;
	INIT_LIST_HEAD(&ni->ni_recovery);
	INIT_LIST_HEAD(&z->lp.lp_nets);
	z->lpn.lpn_peer = &z->lp;
	INIT_LIST_HEAD(&z->lpn.lpn_peer_nis);
	list_add(&z->lpn.lpn_list, &z->lp.lp_nets);
	lpni->lpni_peer_net = &z->lpn;
	lpni->lpni_healthv = LNET_MAX_HEALTH_VALUE;
	INIT_LIST_HEAD(&lpni->lpni_recovery);
	list_add(&lpni->lpni_list, &z->lpn.lpn_peer_nis);
	msg->msg_send = true;
	msg->msg_txni = ni;
	KUNIT_EXPECT_TRUE(test, lnet_ni_status_up(ni));

	/* LOCAL_ERROR: blamed on the NI, never resent. */
	msg->msg_health_status = LNET_MSG_STATUS_LOCAL_ERROR;
	for (i = 1; i <= 10; i++) {
		lnet_lock();
		KUNIT_EXPECT_FALSE(test, lnet_health_msg_done(msg, lpni,
							      -EIO));
		lnet_unlock();
		KUNIT_EXPECT_EQ(test, ni->ni_healthv,
				LNET_MAX_HEALTH_VALUE - 100 * i);
		KUNIT_EXPECT_EQ_MSG(test, lnet_ni_status_up(ni), i < 10,
				    "after %d failures", i);
	}
	KUNIT_EXPECT_FALSE(test, list_empty(&ni->ni_recovery));
	/* Peers are not blamed for a local failure. */
	KUNIT_EXPECT_EQ(test, lpni->lpni_healthv, LNET_MAX_HEALTH_VALUE);

	/* Successes: down until the maximum, then up and out of recovery. */
	msg->msg_health_status = LNET_MSG_STATUS_OK;
	for (i = 1; i <= 10; i++) {
		lnet_lock();
		lnet_health_msg_done(msg, lpni, 0);
		lnet_unlock();
		KUNIT_EXPECT_EQ(test, ni->ni_healthv, 100 * i);
		KUNIT_EXPECT_EQ_MSG(test, lnet_ni_status_up(ni), i == 10,
				    "after %d successes", i);
	}
	/* Whatever failed above, the NI leaves the global queue. */
	lnet_lock();
	lnet_ni_healthv_set_locked(ni, LNET_MAX_HEALTH_VALUE);
	lnet_unlock();
	KUNIT_EXPECT_TRUE(test, list_empty(&ni->ni_recovery));
	KUNIT_EXPECT_TRUE(test, lnet_ni_status_up(ni));
}

static struct kunit_case lnet_health_cases[] = {
	KUNIT_CASE(health_classes),
	KUNIT_CASE(health_receive),
	KUNIT_CASE(health_recovery_ping),
	KUNIT_CASE(health_single_local_ni),
	KUNIT_CASE(health_single_peer_ni),
	KUNIT_CASE(health_peer_is_local),
	KUNIT_CASE(health_values),
	KUNIT_CASE(health_zero_down),
	KUNIT_CASE(health_backoff),
	KUNIT_CASE(health_recovery_start_fails),
	KUNIT_CASE(health_deadline),
	KUNIT_CASE(health_late),
	{}
};

static struct kunit_suite lnet_health_suite = {
	.name = "lnet_health",
	.test_cases = lnet_health_cases,
};

kunit_test_suite(lnet_health_suite);

MODULE_DESCRIPTION("KUnit tests for LNet health: treatment, values, backoff, deadlines");
MODULE_LICENSE("GPL");
