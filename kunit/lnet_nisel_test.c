// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: multi-rail selection (lnet/select.c).  The local NI: one whose
 * LND reported its link or device down (lnet_ni_set_fatal()) loses to any
 * working one, whatever their credits; among equals the most credits win
 * (an NI without a credit limit counts as the most), then the least used.
 * The peer NI: one its peer does not list DOWN, then the healthiest,
 * then the most credits, then the one chosen longest ago.  The
 * peer net of a multi-rail peer: one with a working local NI, then the
 * one chosen longest ago; a net we have no NI on is never chosen.  UDSP
 * priorities (lower is better) come first among working NIs, and first
 * of all between peer nets (spec features 4b).  A send to one of our own
 * NIDs takes 0@lo unless its source is given or it is a recovery ping
 * (spec features 4a).  A multi-rail peer behind routers: its final NID
 * on a net with a route, in turn (routing spec 3.1 rule 3).
 */
#include <kunit/test.h>
#include <kunit/visibility.h>

#include <lnet/lib-lnet.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* A started NI, allocated for the test (struct lnet_ni is large). */
static struct lnet_ni *nisel_ni(struct kunit *test, int max, int credits,
				unsigned int seq, bool fatal)
{
	struct lnet_ni *ni = kunit_kzalloc(test, sizeof(*ni), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ni);
	lnet_credits_init(&ni->ni_txc, max);
	ni->ni_txc.credits = credits;
	ni->ni_seq = seq;
	ni->ni_up = true;
	ni->ni_fatal = fatal;
	return ni;
}

static void nisel_fatal_loses(struct kunit *test)
{
	/* The failed NI has more credits and fewer uses: it still loses. */
	struct lnet_ni *ok = nisel_ni(test, 8, 1, 10, false);
	struct lnet_ni *bad = nisel_ni(test, 8, 8, 0, true);

	KUNIT_EXPECT_TRUE(test, lnet_ni_better(ok, bad));
	KUNIT_EXPECT_FALSE(test, lnet_ni_better(bad, ok));
	/* Once it works again, credits decide. */
	bad->ni_fatal = false;
	KUNIT_EXPECT_TRUE(test, lnet_ni_better(bad, ok));
	KUNIT_EXPECT_FALSE(test, lnet_ni_better(ok, bad));
}

static void nisel_credits_then_seq(struct kunit *test)
{
	struct lnet_ni *a = nisel_ni(test, 8, 3, 5, false);
	struct lnet_ni *b = nisel_ni(test, 8, 2, 0, false);

	KUNIT_EXPECT_TRUE(test, lnet_ni_better(a, b));
	KUNIT_EXPECT_FALSE(test, lnet_ni_better(b, a));
	b->ni_txc.credits = 3;		/* a tie: the least used wins */
	KUNIT_EXPECT_TRUE(test, lnet_ni_better(b, a));
	KUNIT_EXPECT_FALSE(test, lnet_ni_better(a, b));
	a->ni_seq = 0;			/* equal in everything: keep the first */
	KUNIT_EXPECT_FALSE(test, lnet_ni_better(a, b));
	KUNIT_EXPECT_FALSE(test, lnet_ni_better(b, a));
}

static void nisel_unlimited(struct kunit *test)
{
	struct lnet_ni *lim = nisel_ni(test, 8, 8, 0, false);
	/* no credit limit (0@lo) */
	struct lnet_ni *unl = nisel_ni(test, 0, 0, 9, false);

	KUNIT_EXPECT_TRUE(test, lnet_ni_better(unl, lim));
	KUNIT_EXPECT_FALSE(test, lnet_ni_better(lim, unl));
	/* ... but a failed one still loses. */
	unl->ni_fatal = true;
	KUNIT_EXPECT_TRUE(test, lnet_ni_better(lim, unl));
}

static struct lnet_peer_ni *nisel_lpni(struct kunit *test, int credits,
				       unsigned int seq)
{
	struct lnet_peer_ni *lpni = kunit_kzalloc(test, sizeof(*lpni),
						  GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, lpni);
	lnet_credits_init(&lpni->lpni_txc, 8);
	lpni->lpni_txc.credits = credits;
	lpni->lpni_seq = seq;
	return lpni;
}

static void nisel_peer_ni_order(struct kunit *test)
{
	struct lnet_peer_ni *a = nisel_lpni(test, 5, 9);
	struct lnet_peer_ni *b = nisel_lpni(test, 4, 0);
	struct lnet_ni *ni = nisel_ni(test, 8, 8, 0, false);

	KUNIT_EXPECT_TRUE(test, lnet_peer_ni_better(a, b, ni));
	KUNIT_EXPECT_FALSE(test, lnet_peer_ni_better(b, a, ni));
	b->lpni_txc.credits = 5;	/* a tie: the one chosen longest ago */
	KUNIT_EXPECT_TRUE(test, lnet_peer_ni_better(b, a, ni));
	KUNIT_EXPECT_FALSE(test, lnet_peer_ni_better(a, b, ni));
	/* Queued messages (negative credits) lose to any free credit. */
	a->lpni_txc.credits = -3;
	b->lpni_txc.credits = 0;
	KUNIT_EXPECT_TRUE(test, lnet_peer_ni_better(b, a, ni));
}

/* Give @c the UDSP priority @prio, as a rule would (lnet/udsp.c). */
static void nisel_prio(struct lnet_sel_prio *c, u32 prio)
{
	c->gen = the_lnet.ln_udsp_gen;
	c->prio = prio;
}

static void nisel_ni_priority(struct kunit *test)
{
	/* Fewer credits and more uses: its priority still wins. */
	struct lnet_ni *a = nisel_ni(test, 8, 1, 10, false);
	struct lnet_ni *b = nisel_ni(test, 8, 8, 0, false);

	nisel_prio(&a->ni_prio, 0);
	nisel_prio(&b->ni_prio, 1);
	KUNIT_EXPECT_TRUE(test, lnet_ni_better(a, b));
	KUNIT_EXPECT_FALSE(test, lnet_ni_better(b, a));
	/* No priority is the worst of all. */
	nisel_prio(&a->ni_prio, LNET_UDSP_PRIO_NONE);
	KUNIT_EXPECT_TRUE(test, lnet_ni_better(b, a));
	/* Equal priorities: credits decide. */
	nisel_prio(&b->ni_prio, LNET_UDSP_PRIO_NONE);
	KUNIT_EXPECT_TRUE(test, lnet_ni_better(b, a));
	a->ni_txc.credits = 8;
	KUNIT_EXPECT_TRUE(test, lnet_ni_better(b, a));	/* then uses */
	/* A failed NI loses whatever its priority. */
	nisel_prio(&a->ni_prio, 0);
	a->ni_fatal = true;
	KUNIT_EXPECT_TRUE(test, lnet_ni_better(b, a));
}

static void nisel_peer_ni_priority(struct kunit *test)
{
	struct lnet_peer_ni *a = nisel_lpni(test, -2, 9);
	struct lnet_peer_ni *b = nisel_lpni(test, 8, 0);
	struct lnet_ni *ni = nisel_ni(test, 8, 8, 0, false);

	/* Priority before credits and the round robin. */
	nisel_prio(&a->lpni_prio, 3);
	nisel_prio(&b->lpni_prio, 4);
	KUNIT_EXPECT_TRUE(test, lnet_peer_ni_better(a, b, ni));
	KUNIT_EXPECT_FALSE(test, lnet_peer_ni_better(b, a, ni));
	nisel_prio(&b->lpni_prio, 3);
	KUNIT_EXPECT_TRUE(test, lnet_peer_ni_better(b, a, ni));
}

/* Two local nets (one NI each) and a peer with NIs on both and on a third. */
struct nisel_world {
	struct list_head	nets;
	struct lnet_net		net[2];
	struct lnet_ni		*ni[2];
	struct lnet_peer	lp;
	struct lnet_peer_net	lpn[3];
	struct lnet_peer_ni	*lpni[4];	/* 0,1 on net 0; 2 on 1; 3 on 2 */
};

static struct nisel_world *nisel_world(struct kunit *test)
{
	static const int lpni_net[4] = { 0, 0, 1, 2 };
	struct nisel_world *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, w);
	INIT_LIST_HEAD(&w->nets);
	INIT_LIST_HEAD(&w->lp.lp_nets);
	for (i = 0; i < 3; i++) {
		w->lpn[i].lpn_net_id = lnet_mknet(LNET_LND_SOCK, i);
		w->lpn[i].lpn_peer = &w->lp;
		INIT_LIST_HEAD(&w->lpn[i].lpn_peer_nis);
		list_add_tail(&w->lpn[i].lpn_list, &w->lp.lp_nets);
	}
	for (i = 0; i < 2; i++) {
		w->net[i].net_id = lnet_mknet(LNET_LND_SOCK, i);
		INIT_LIST_HEAD(&w->net[i].net_nis);
		list_add_tail(&w->net[i].net_list, &w->nets);
		w->ni[i] = nisel_ni(test, 8, 8, 0, false);
		w->ni[i]->ni_net = &w->net[i];
		list_add_tail(&w->ni[i]->ni_list, &w->net[i].net_nis);
	}
	for (i = 0; i < 4; i++) {
		struct lnet_peer_net *lpn = &w->lpn[lpni_net[i]];

		w->lpni[i] = nisel_lpni(test, 8, 0);
		w->lpni[i]->lpni_peer_net = lpn;
		list_add_tail(&w->lpni[i]->lpni_list, &lpn->lpn_peer_nis);
	}
	return w;
}

/* What lnet_select_pathway_locked() does after a choice. */
static void nisel_used(struct nisel_world *w, struct lnet_ni *ni,
		       struct lnet_peer_ni *lpni)
{
	ni->ni_seq++;
	w->lp.lp_send_seq++;
	lpni->lpni_peer_net->lpn_seq = w->lp.lp_send_seq;
	lpni->lpni_seq = w->lp.lp_send_seq;
}

static void nisel_mr_round_robin(struct kunit *test)
{
	struct nisel_world *w = nisel_world(test);
	unsigned int used[4] = { 0 };
	struct lnet_peer_ni *lpni;
	struct lnet_ni *ni;
	int i;

	/* 8 sends: both rails, and both peer NIs of net 0, in turn. */
	for (i = 0; i < 8; i++) {
		lpni = lnet_select_mr(&w->lp, &w->nets, &ni);
		KUNIT_ASSERT_NOT_NULL(test, lpni);
		KUNIT_EXPECT_EQ(test, ni->ni_net->net_id,
				lpni->lpni_peer_net->lpn_net_id);
		KUNIT_EXPECT_PTR_NE(test, lpni, w->lpni[3]);	/* no NI there */
		if (lpni == w->lpni[0])
			used[0]++;
		else if (lpni == w->lpni[1])
			used[1]++;
		else if (lpni == w->lpni[2])
			used[2]++;
		nisel_used(w, ni, lpni);
	}
	KUNIT_EXPECT_EQ(test, used[0] + used[1], 4U);
	KUNIT_EXPECT_EQ(test, used[2], 4U);
	KUNIT_EXPECT_EQ(test, used[0], 2U);
	KUNIT_EXPECT_EQ(test, w->ni[0]->ni_seq, 4U);
	KUNIT_EXPECT_EQ(test, w->ni[1]->ni_seq, 4U);
}

static void nisel_mr_sick_rail(struct kunit *test)
{
	struct nisel_world *w = nisel_world(test);
	struct lnet_peer_ni *lpni;
	struct lnet_ni *ni;
	int i;

	/* The rail of net 0 failed: everything goes to net 1. */
	w->ni[0]->ni_fatal = true;
	for (i = 0; i < 4; i++) {
		lpni = lnet_select_mr(&w->lp, &w->nets, &ni);
		KUNIT_ASSERT_PTR_EQ(test, lpni, w->lpni[2]);
		KUNIT_EXPECT_PTR_EQ(test, ni, w->ni[1]);
		nisel_used(w, ni, lpni);
	}
	/* Its peer NI out of credits does not move it to the failed rail. */
	w->lpni[2]->lpni_txc.credits = -5;
	KUNIT_EXPECT_PTR_EQ(test, lnet_select_mr(&w->lp, &w->nets, &ni),
			    w->lpni[2]);
	/* Both failed: still a choice (its LND then fails the message). */
	w->ni[1]->ni_fatal = true;
	KUNIT_EXPECT_NOT_NULL(test, lnet_select_mr(&w->lp, &w->nets, &ni));
	/* A peer only on a net we have no NI on: none. */
	list_del(&w->lpn[0].lpn_list);
	list_del(&w->lpn[1].lpn_list);
	KUNIT_EXPECT_NULL(test, lnet_select_mr(&w->lp, &w->nets, &ni));
}

static void nisel_mr_credits(struct kunit *test)
{
	struct nisel_world *w = nisel_world(test);
	struct lnet_ni *ni;

	/* On net 0 (chosen longest ago), the peer NI with more credits. */
	w->lpn[1].lpn_seq = 5;
	w->lpni[0]->lpni_txc.credits = 2;
	w->lpni[0]->lpni_seq = 0;
	w->lpni[1]->lpni_txc.credits = 7;
	w->lpni[1]->lpni_seq = 4;
	KUNIT_EXPECT_PTR_EQ(test, lnet_select_mr(&w->lp, &w->nets, &ni),
			    w->lpni[1]);
	KUNIT_EXPECT_PTR_EQ(test, ni, w->ni[0]);
}

static void nisel_mr_priority(struct kunit *test)
{
	struct nisel_world *w = nisel_world(test);
	struct lnet_peer_ni *lpni;
	struct lnet_ni *ni;
	int i;

	/* Peer net 1 has the better priority: every send goes there. */
	nisel_prio(&w->lpn[0].lpn_prio, 5);
	nisel_prio(&w->lpn[1].lpn_prio, 2);
	for (i = 0; i < 4; i++) {
		lpni = lnet_select_mr(&w->lp, &w->nets, &ni);
		KUNIT_ASSERT_PTR_EQ(test, lpni, w->lpni[2]);
		KUNIT_EXPECT_PTR_EQ(test, ni, w->ni[1]);
		nisel_used(w, ni, lpni);
	}
	/* ... even when its local NI failed (health comes before it). */
	w->ni[1]->ni_fatal = true;
	KUNIT_EXPECT_PTR_EQ(test, lnet_select_mr(&w->lp, &w->nets, &ni),
			    w->lpni[2]);
	w->ni[1]->ni_fatal = false;
	/* Equal peer nets: the local net priority decides. */
	nisel_prio(&w->lpn[0].lpn_prio, 2);
	nisel_prio(&w->net[0].net_prio, 1);
	nisel_prio(&w->net[1].net_prio, 7);
	for (i = 0; i < 4; i++) {
		lpni = lnet_select_mr(&w->lp, &w->nets, &ni);
		KUNIT_ASSERT_NOT_NULL(test, lpni);
		KUNIT_EXPECT_PTR_EQ(test, ni, w->ni[0]);
		nisel_used(w, ni, lpni);
	}
	/* ... then its peer NIs by their priorities. */
	nisel_prio(&w->lpni[1]->lpni_prio, 0);
	for (i = 0; i < 3; i++) {
		lpni = lnet_select_mr(&w->lp, &w->nets, &ni);
		KUNIT_EXPECT_PTR_EQ(test, lpni, w->lpni[1]);
		nisel_used(w, ni, lpni);
	}
}

/* Health first (spec 4b): before UDSP priority, credits and turns. */
static void nisel_ni_health(struct kunit *test)
{
	struct lnet_ni *a = nisel_ni(test, 8, 8, 0, false);
	struct lnet_ni *b = nisel_ni(test, 8, 1, 9, false);

	a->ni_healthv = 900;
	b->ni_healthv = LNET_MAX_HEALTH_VALUE;
	nisel_prio(&a->ni_prio, 0);
	nisel_prio(&b->ni_prio, 5);
	KUNIT_EXPECT_TRUE(test, lnet_ni_better(b, a));
	KUNIT_EXPECT_FALSE(test, lnet_ni_better(a, b));
	/* Healthy again: the priority decides. */
	a->ni_healthv = LNET_MAX_HEALTH_VALUE;
	KUNIT_EXPECT_TRUE(test, lnet_ni_better(a, b));
	/* A failed NI loses even to one whose health is 0. */
	b->ni_healthv = 0;
	a->ni_fatal = true;
	KUNIT_EXPECT_TRUE(test, lnet_ni_better(b, a));
}

static void nisel_peer_ni_health(struct kunit *test)
{
	struct lnet_peer_ni *a = nisel_lpni(test, 8, 0);
	struct lnet_peer_ni *b = nisel_lpni(test, 1, 9);
	struct lnet_ni *ni = nisel_ni(test, 8, 8, 0, false);

	a->lpni_healthv = 999;
	b->lpni_healthv = LNET_MAX_HEALTH_VALUE;
	nisel_prio(&a->lpni_prio, 0);
	nisel_prio(&b->lpni_prio, 3);
	KUNIT_EXPECT_TRUE(test, lnet_peer_ni_better(b, a, ni));
	KUNIT_EXPECT_FALSE(test, lnet_peer_ni_better(a, b, ni));
	a->lpni_healthv = LNET_MAX_HEALTH_VALUE;
	KUNIT_EXPECT_TRUE(test, lnet_peer_ni_better(a, b, ni));
}

static void nisel_mr_health(struct kunit *test)
{
	struct nisel_world *w = nisel_world(test);
	struct lnet_peer_ni *lpni;
	struct lnet_ni *ni;
	int i;

	for (i = 0; i < 4; i++) {
		w->lpni[i]->lpni_healthv = LNET_MAX_HEALTH_VALUE;
		if (i < 2)
			w->ni[i]->ni_healthv = LNET_MAX_HEALTH_VALUE;
	}
	/* The peer NI of net 1 was demerited: net 0, by both its NIs. */
	w->lpni[2]->lpni_healthv = 900;
	nisel_prio(&w->lpn[1].lpn_prio, 0);	/* its priority does not help */
	for (i = 0; i < 4; i++) {
		lpni = lnet_select_mr(&w->lp, &w->nets, &ni);
		KUNIT_ASSERT_NOT_NULL(test, lpni);
		KUNIT_EXPECT_PTR_EQ(test, ni, w->ni[0]);
		KUNIT_EXPECT_PTR_EQ(test, lpni, w->lpni[i % 2]);
		nisel_used(w, ni, lpni);
	}
	/* One of net 0's peer NIs demerited too: the other one. */
	w->lpni[0]->lpni_healthv = 800;
	for (i = 0; i < 3; i++) {
		lpni = lnet_select_mr(&w->lp, &w->nets, &ni);
		KUNIT_EXPECT_PTR_EQ(test, lpni, w->lpni[1]);
		nisel_used(w, ni, lpni);
	}
	/* Our NI of net 0 demerited, the peer nets equal: net 1. */
	w->lpni[0]->lpni_healthv = LNET_MAX_HEALTH_VALUE;
	w->lpni[2]->lpni_healthv = LNET_MAX_HEALTH_VALUE;
	nisel_prio(&w->lpn[1].lpn_prio, LNET_UDSP_PRIO_NONE);
	w->ni[0]->ni_healthv = 100;
	for (i = 0; i < 3; i++) {
		lpni = lnet_select_mr(&w->lp, &w->nets, &ni);
		KUNIT_EXPECT_PTR_EQ(test, ni, w->ni[1]);
		nisel_used(w, ni, lpni);
	}
}

static void nisel_nid(struct lnet_nid *nid, int net, u32 addr)
{
	lnet_nid4_to_nid(lnet_mknid4(lnet_mknet(LNET_LND_SOCK, net), addr),
			 nid);
}

/*
 * A send to one of our own NIDs (spec features 4a): 0@lo, unless the
 * caller gave the source or it is a recovery ping, which then leave by
 * the NI named (the one recovered), not the healthiest of its net.
 */
static void nisel_local_dst(struct kunit *test)
{
	struct nisel_world *w = nisel_world(test);
	struct lnet_ni *lo = nisel_ni(test, 0, 0, 0, false);
	struct lnet_ni *twin = nisel_ni(test, 8, 8, 0, false);
	struct lnet_nid a0, a1, twin_nid, remote;

	nisel_nid(&w->ni[0]->ni_nid, 0, 0x0a000001);
	nisel_nid(&w->ni[1]->ni_nid, 1, 0x0a010001);
	/* A second NI on net 0, healthier than the first. */
	nisel_nid(&twin->ni_nid, 0, 0x0a000002);
	twin->ni_net = &w->net[0];
	list_add_tail(&twin->ni_list, &w->net[0].net_nis);
	w->ni[0]->ni_healthv = 500;
	twin->ni_healthv = LNET_MAX_HEALTH_VALUE;
	a0 = w->ni[0]->ni_nid;
	a1 = w->ni[1]->ni_nid;
	twin_nid = twin->ni_nid;
	nisel_nid(&remote, 0, 0x0a000009);

	/* Not ours: ordinary selection. */
	KUNIT_EXPECT_NULL(test, lnet_select_local(&w->nets, lo, &remote,
						  &LNET_ANY_NID, true));
	/* Ours, no source, not a recovery ping: the loopback shortcut. */
	KUNIT_EXPECT_PTR_EQ(test, lnet_select_local(&w->nets, lo, &a0,
						    &LNET_ANY_NID, false), lo);
	/* A recovery ping: through the NI it recovers, sick as it is. */
	KUNIT_EXPECT_PTR_EQ(test, lnet_select_local(&w->nets, lo, &a0,
						    &LNET_ANY_NID, true),
			    w->ni[0]);
	KUNIT_EXPECT_PTR_EQ(test, lnet_select_local(&w->nets, lo, &a0, &a0,
						    true), w->ni[0]);
	/* A source given: that NI, to the NID given. */
	KUNIT_EXPECT_PTR_EQ(test, lnet_select_local(&w->nets, lo, &a0, &a0,
						    false), w->ni[0]);
	KUNIT_EXPECT_PTR_EQ(test, lnet_select_local(&w->nets, lo, &a0,
						    &twin_nid, false), twin);
	/* A source on another net reaches it only by 0@lo. */
	KUNIT_EXPECT_PTR_EQ(test, lnet_select_local(&w->nets, lo, &a0, &a1,
						    true), lo);
	/* Its link down: still that NI (its LND fails the ping). */
	w->ni[0]->ni_fatal = true;
	KUNIT_EXPECT_PTR_EQ(test, lnet_select_local(&w->nets, lo, &a0,
						    &LNET_ANY_NID, true),
			    w->ni[0]);
	/* Stopped: no longer one of ours. */
	w->ni[0]->ni_up = false;
	KUNIT_EXPECT_NULL(test, lnet_select_local(&w->nets, lo, &a0,
						  &LNET_ANY_NID, true));
}

/* The nets (by number, a bit each) the remote selection may route to. */
static unsigned int nisel_routable_mask;

static bool nisel_routable(u32 net)
{
	int i;

	for (i = 0; i < 3; i++)
		if (net == lnet_mknet(LNET_LND_SOCK, i))
			return nisel_routable_mask & BIT(i);
	return false;
}

/* What lnet_select_pathway_locked() does to a routed send's final NI. */
static void nisel_final_used(struct nisel_world *w, struct lnet_peer_ni *lpni)
{
	w->lp.lp_send_seq++;
	lpni->lpni_peer_net->lpn_seq = w->lp.lp_send_seq;
	lpni->lpni_seq = w->lp.lp_send_seq;
}

/*
 * A multi-rail peer behind routers (routing spec 3.1 rule 3): the final
 * destination is its best NID on a net with a route, whatever our own
 * nets: the routable nets in turn, the healthier one first, and on a net
 * its NIDs in turn; no routable net, none.
 */
static void nisel_remote_mr(struct kunit *test)
{
	struct nisel_world *w = nisel_world(test);
	unsigned int used[4] = { 0 };
	struct lnet_peer_ni *lpni;
	int i;

	nisel_routable_mask = 0;
	KUNIT_EXPECT_NULL(test, lnet_select_remote_mr(&w->lp, nisel_routable));
	/* Only net 2 has routes: its one NID. */
	nisel_routable_mask = BIT(2);
	KUNIT_EXPECT_PTR_EQ(test, lnet_select_remote_mr(&w->lp, nisel_routable),
			    w->lpni[3]);
	/* Nets 1 and 2: both in turn. */
	nisel_routable_mask = BIT(1) | BIT(2);
	for (i = 0; i < 6; i++) {
		lpni = lnet_select_remote_mr(&w->lp, nisel_routable);
		KUNIT_ASSERT_NOT_NULL(test, lpni);
		KUNIT_EXPECT_TRUE(test, lpni == w->lpni[2] || lpni == w->lpni[3]);
		used[lpni == w->lpni[2] ? 2 : 3]++;
		nisel_final_used(w, lpni);
	}
	KUNIT_EXPECT_EQ(test, used[2], 3U);
	KUNIT_EXPECT_EQ(test, used[3], 3U);
	/* Net 2's NID demerited: net 1 only. */
	w->lpni[2]->lpni_healthv = LNET_MAX_HEALTH_VALUE;
	w->lpni[3]->lpni_healthv = 500;
	for (i = 0; i < 3; i++) {
		lpni = lnet_select_remote_mr(&w->lp, nisel_routable);
		KUNIT_EXPECT_PTR_EQ(test, lpni, w->lpni[2]);
		nisel_final_used(w, lpni);
	}
	/* Net 0 (two NIDs) alone: both NIDs in turn. */
	nisel_routable_mask = BIT(0);
	used[0] = 0;
	used[1] = 0;
	for (i = 0; i < 4; i++) {
		lpni = lnet_select_remote_mr(&w->lp, nisel_routable);
		KUNIT_ASSERT_TRUE(test, lpni == w->lpni[0] || lpni == w->lpni[1]);
		used[lpni == w->lpni[0] ? 0 : 1]++;
		nisel_final_used(w, lpni);
	}
	KUNIT_EXPECT_EQ(test, used[0], 2U);
	KUNIT_EXPECT_EQ(test, used[1], 2U);
}

/*
 * MR forwarding (routing spec 4.4): a router sends a PUT or GET between
 * multi-rail peers to another NI of the destination on the same net
 * when the one named is DOWN or not fully healthy; never otherwise.
 */
static void nisel_fwd_final(struct kunit *test)
{
	struct nisel_world *w = nisel_world(test);
	struct lnet_peer_ni *named = w->lpni[0], *other = w->lpni[1];
	int i;

	for (i = 0; i < 4; i++) {
		w->lpni[i]->lpni_healthv = LNET_MAX_HEALTH_VALUE;
		w->lpni[i]->lpni_ns_status = LNET_NI_STATUS_UP;
	}
	w->lp.lp_state = LNET_PEER_MULTI_RAIL;
	/* Healthy and up: exactly as addressed. */
	KUNIT_EXPECT_NULL(test, lnet_fwd_final_choice(named, true));
	/* Not fully healthy: the other NI of its net, never net 1's. */
	named->lpni_healthv = 999;
	w->lpni[2]->lpni_healthv = LNET_MAX_HEALTH_VALUE;
	KUNIT_EXPECT_PTR_EQ(test, lnet_fwd_final_choice(named, true), other);
	/* ... only from a multi-rail originator, to a multi-rail peer. */
	KUNIT_EXPECT_NULL(test, lnet_fwd_final_choice(named, false));
	w->lp.lp_state = 0;
	KUNIT_EXPECT_NULL(test, lnet_fwd_final_choice(named, true));
	w->lp.lp_state = LNET_PEER_MULTI_RAIL;
	/* The other one sicker still: the named one is the best. */
	other->lpni_healthv = 500;
	KUNIT_EXPECT_NULL(test, lnet_fwd_final_choice(named, true));
	/* DOWN (its LND, or its peer's ping data), however healthy. */
	named->lpni_healthv = LNET_MAX_HEALTH_VALUE;
	named->lpni_lnd_down = true;
	KUNIT_EXPECT_PTR_EQ(test, lnet_fwd_final_choice(named, true), other);
	named->lpni_lnd_down = false;
	named->lpni_ns_status = LNET_NI_STATUS_DOWN;
	KUNIT_EXPECT_PTR_EQ(test, lnet_fwd_final_choice(named, true), other);
	/* Every NI of its net DOWN: none to take instead. */
	other->lpni_ns_status = LNET_NI_STATUS_DOWN;
	KUNIT_EXPECT_NULL(test, lnet_fwd_final_choice(named, true));
}

/*
 * A peer NI its peer lists DOWN (ping buffer or push) loses to one it
 * lists UP, whatever their health and priority: issue 37's NID that
 * moved back, UP again but demerited while it was gone, against the one
 * it had moved to, DOWN now and demerited once.  Between two DOWN ones,
 * health again.  A status never listed (0) counts as not DOWN.
 */
static void nisel_peer_ni_listed_down(struct kunit *test)
{
	struct lnet_peer_ni *back = nisel_lpni(test, 1, 9);
	struct lnet_peer_ni *gone = nisel_lpni(test, 8, 0);
	struct lnet_ni *ni = nisel_ni(test, 8, 8, 0, false);

	back->lpni_ns_status = LNET_NI_STATUS_UP;
	back->lpni_healthv = 100;
	gone->lpni_ns_status = LNET_NI_STATUS_DOWN;
	gone->lpni_healthv = 900;
	nisel_prio(&gone->lpni_prio, 0);
	KUNIT_EXPECT_TRUE(test, lnet_peer_ni_better(back, gone, ni));
	KUNIT_EXPECT_FALSE(test, lnet_peer_ni_better(gone, back, ni));
	back->lpni_ns_status = 0;
	KUNIT_EXPECT_TRUE(test, lnet_peer_ni_better(back, gone, ni));
	back->lpni_ns_status = LNET_NI_STATUS_DOWN;
	KUNIT_EXPECT_TRUE(test, lnet_peer_ni_better(gone, back, ni));
	KUNIT_EXPECT_FALSE(test, lnet_peer_ni_better(back, gone, ni));
}

/*
 * The same through lnet_select_mr(): of net 0's two peer NIs the one
 * listed UP, every time; a peer net all of whose peer NIs are listed
 * DOWN loses to one with a peer NI listed UP, however healthy; all
 * listed DOWN: still chosen (by health), the send fails or not as the
 * LND finds.  Behind routers (routing spec 3.1 rule 3) the same.
 */
static void nisel_mr_listed_down(struct kunit *test)
{
	struct nisel_world *w = nisel_world(test);
	struct lnet_peer_ni *lpni;
	struct lnet_ni *ni;
	int i;

	for (i = 0; i < 4; i++) {
		w->lpni[i]->lpni_healthv = LNET_MAX_HEALTH_VALUE;
		w->lpni[i]->lpni_ns_status = LNET_NI_STATUS_UP;
		if (i < 2)
			w->ni[i]->ni_healthv = LNET_MAX_HEALTH_VALUE;
	}
	/* Net 1 less healthy: net 0, its NID back UP, not the DOWN one. */
	w->lpni[2]->lpni_healthv = 500;
	w->lpni[0]->lpni_healthv = 300;
	w->lpni[1]->lpni_healthv = 900;
	w->lpni[1]->lpni_ns_status = LNET_NI_STATUS_DOWN;
	for (i = 0; i < 4; i++) {
		lpni = lnet_select_mr(&w->lp, &w->nets, &ni);
		KUNIT_ASSERT_NOT_NULL(test, lpni);
		KUNIT_EXPECT_PTR_EQ(test, lpni, w->lpni[0]);
		KUNIT_EXPECT_PTR_EQ(test, ni, w->ni[0]);
		nisel_used(w, ni, lpni);
	}
	/* Both of net 0 listed DOWN: net 1, less healthy but UP. */
	w->lpni[0]->lpni_ns_status = LNET_NI_STATUS_DOWN;
	w->lpni[0]->lpni_healthv = LNET_MAX_HEALTH_VALUE;
	for (i = 0; i < 3; i++) {
		lpni = lnet_select_mr(&w->lp, &w->nets, &ni);
		KUNIT_EXPECT_PTR_EQ(test, lpni, w->lpni[2]);
		KUNIT_EXPECT_PTR_EQ(test, ni, w->ni[1]);
		nisel_used(w, ni, lpni);
	}
	/* All listed DOWN: by health, as before. */
	w->lpni[2]->lpni_ns_status = LNET_NI_STATUS_DOWN;
	lpni = lnet_select_mr(&w->lp, &w->nets, &ni);
	KUNIT_EXPECT_PTR_EQ(test, lpni, w->lpni[0]);
	/* Behind routers too: net 2's NID, listed UP, less healthy. */
	w->lpni[3]->lpni_healthv = 100;
	nisel_routable_mask = BIT(1) | BIT(2);
	for (i = 0; i < 3; i++) {
		lpni = lnet_select_remote_mr(&w->lp, nisel_routable);
		KUNIT_EXPECT_PTR_EQ(test, lpni, w->lpni[3]);
		nisel_final_used(w, lpni);
	}
}

static struct kunit_case lnet_nisel_cases[] = {
	KUNIT_CASE(nisel_fatal_loses),
	KUNIT_CASE(nisel_credits_then_seq),
	KUNIT_CASE(nisel_unlimited),
	KUNIT_CASE(nisel_peer_ni_order),
	KUNIT_CASE(nisel_mr_round_robin),
	KUNIT_CASE(nisel_mr_sick_rail),
	KUNIT_CASE(nisel_mr_credits),
	KUNIT_CASE(nisel_ni_priority),
	KUNIT_CASE(nisel_peer_ni_priority),
	KUNIT_CASE(nisel_mr_priority),
	KUNIT_CASE(nisel_ni_health),
	KUNIT_CASE(nisel_peer_ni_health),
	KUNIT_CASE(nisel_mr_health),
	KUNIT_CASE(nisel_peer_ni_listed_down),
	KUNIT_CASE(nisel_mr_listed_down),
	KUNIT_CASE(nisel_local_dst),
	KUNIT_CASE(nisel_remote_mr),
	KUNIT_CASE(nisel_fwd_final),
	{}
};

static struct kunit_suite lnet_nisel_suite = {
	.name = "lnet_nisel",
	.test_cases = lnet_nisel_cases,
};

kunit_test_suite(lnet_nisel_suite);

MODULE_DESCRIPTION("KUnit tests for LNet multi-rail selection");
MODULE_LICENSE("GPL");
