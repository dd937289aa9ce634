// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: routes from the table (nidmap/routes.c).  A fake node (one
 * local net, tcp; a route table of its own; a route the admin added by
 * hand) answers as lnet_route_add() does: -EEXIST for a local net or a
 * route that exists, -EHOSTUNREACH for a gateway on no local net, and
 * -ENOSPC for a net it is told to refuse.  A sequence of copies (router
 * entries added, unchanged, their nets and NIDs changed, the ROUTER flag
 * dropped, deleted) is walked as the subscriber does after each fetch;
 * after each step the route table must be exactly what the step asks,
 * the admin's route untouched, and the counts right.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "../nidmap/node.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define FAKE_ROUTES	32

struct fake_node {
	struct kunit		*test;
	u32			local;		/* the one local net */
	u32			refuse;		/* add refused: -ENOSPC */
	unsigned int		n;
	struct nidmap_route	rt[FAKE_ROUTES];
	bool			admin[FAKE_ROUTES];
	unsigned int		adds;		/* calls to add */
	unsigned int		dels;
	unsigned int		einval;	/* a gateway on the net itself */
};

static int fake_find(struct fake_node *f, u32 net, const struct lnet_nid *gw)
{
	unsigned int i;

	for (i = 0; i < f->n; i++)
		if (f->rt[i].net == net && lnet_nid_equal(&f->rt[i].gw, gw))
			return i;
	return -1;
}

static int fake_add(void *arg, u32 net, const struct lnet_nid *gw)
{
	struct fake_node *f = arg;

	f->adds++;
	if (lnet_nid_net(gw) == net) {
		f->einval++;	/* routes.c never asks this */
		return -EINVAL;
	}
	if (net == f->local)
		return -EEXIST;
	if (lnet_nid_net(gw) != f->local)
		return -EHOSTUNREACH;
	if (net == f->refuse)
		return -ENOSPC;
	if (fake_find(f, net, gw) >= 0)
		return -EEXIST;
	KUNIT_ASSERT_LT(f->test, f->n, FAKE_ROUTES);
	f->rt[f->n].net = net;
	f->rt[f->n].gw = *gw;
	f->admin[f->n] = false;
	f->n++;
	return 0;
}

static void fake_del(void *arg, u32 net, const struct lnet_nid *gw)
{
	struct fake_node *f = arg;
	int i = fake_find(f, net, gw);

	f->dels++;
	/* Only routes it added, never the admin's. */
	KUNIT_ASSERT_GE(f->test, i, 0);
	KUNIT_ASSERT_FALSE(f->test, f->admin[i]);
	f->n--;
	f->rt[i] = f->rt[f->n];
	f->admin[i] = f->admin[f->n];
}

static const struct nidmap_routes_ops fake_ops = {
	.add	= fake_add,
	.del	= fake_del,
};

static u32 net_of(struct kunit *test, const char *s)
{
	u32 net;

	KUNIT_ASSERT_EQ(test, lnet_net_from_str(s, &net), 0);
	return net;
}

static struct lnet_nid nid_of(struct kunit *test, const char *s)
{
	struct lnet_nid nid;

	KUNIT_ASSERT_EQ(test, lnet_nid_from_str(s, &nid), 0);
	return nid;
}

/* @name's entry: @nids and @nets comma-separated ("" none), @router. */
static void mk_rec(struct kunit *test, struct nidmap_rec *rec,
		   const char *name, bool router, const char *nids,
		   const char *nets)
{
	char buf[256], *p, *s;

	memset(rec, 0, sizeof(*rec));
	strscpy(rec->name, name, sizeof(rec->name));
	rec->flags = router ? NIDMAP_R_ROUTER : 0;
	strscpy(buf, nids, sizeof(buf));
	for (p = buf; (s = strsep(&p, ",")) && *s;)
		rec->nids[rec->nnids++] = nid_of(test, s);
	strscpy(buf, nets, sizeof(buf));
	for (p = buf; (s = strsep(&p, ",")) && *s;)
		rec->nets[rec->nnets++] = net_of(test, s);
}

/* The subscriber's walk of a copy of @n entries. */
static void walk(struct nidmap_routes *rs, const struct nidmap_rec *recs,
		 unsigned int n)
{
	unsigned int i;

	nidmap_routes_begin(rs);
	for (i = 0; i < n; i++)
		nidmap_routes_entry(rs, &recs[i]);
	nidmap_routes_end(rs);
}

/* The fake table is exactly @want ("net>gw;..."), the admin's included. */
static void expect_routes(struct kunit *test, struct fake_node *f,
			  const char *want)
{
	char buf[512], *p, *s, *gw;
	struct lnet_nid nid;
	unsigned int n = 0;

	strscpy(buf, want, sizeof(buf));
	for (p = buf; (s = strsep(&p, ";")) && *s; n++) {
		gw = strchr(s, '>');
		KUNIT_ASSERT_NOT_NULL(test, gw);
		*gw++ = '\0';
		nid = nid_of(test, gw);
		KUNIT_EXPECT_GE_MSG(test, fake_find(f, net_of(test, s), &nid),
				    0, "no route to %s via %s", s, gw);
	}
	KUNIT_EXPECT_EQ(test, f->n, n);
}

static void expect_counts(struct kunit *test, const struct nidmap_routes *rs,
			  u32 installed, u32 added, u32 removed, u32 skipped)
{
	KUNIT_EXPECT_EQ(test, rs->ctr.installed, installed);
	KUNIT_EXPECT_EQ(test, rs->ctr.added, added);
	KUNIT_EXPECT_EQ(test, rs->ctr.removed, removed);
	KUNIT_EXPECT_EQ(test, rs->ctr.skipped, skipped);
}

#define R_TCP	"192.0.2.1@tcp"
#define R_IB	"10.0.2.1@o2ib"
#define R_NEW	"192.0.2.9@tcp"
#define R_3	"192.0.2.3@tcp"
#define ADMIN	"o2ib5>" R_TCP

static void routes_sequence(struct kunit *test)
{
	struct fake_node *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	struct nidmap_rec *recs = kunit_kcalloc(test, 3, sizeof(*recs),
						GFP_KERNEL);
	struct nidmap_routes rs;
	unsigned int adds;

	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_ASSERT_NOT_NULL(test, recs);
	f->test = test;
	f->local = net_of(test, "tcp");
	f->refuse = net_of(test, "o2ib9");
	/* The admin's route by hand, through the router's tcp NID. */
	f->rt[0].net = net_of(test, "o2ib5");
	f->rt[0].gw = nid_of(test, R_TCP);
	f->admin[0] = true;
	f->n = 1;
	nidmap_routes_init(&rs, &fake_ops, f);

	/*
	 * r routes to o2ib, o2ib5 and tcp; its first NID is on o2ib, not
	 * ours: o2ib through its second; o2ib5 is the admin's (-EEXIST:
	 * not ours); tcp is local.  A target that is no router: nothing.
	 */
	mk_rec(test, &recs[0], "r", true, R_IB "," R_TCP, "o2ib,o2ib5,tcp");
	mk_rec(test, &recs[1], "fs-OST0000", false, "192.0.2.7@tcp", "");
	walk(&rs, recs, 2);
	expect_routes(test, f, ADMIN ";o2ib>" R_TCP);
	expect_counts(test, &rs, 1, 1, 0, 0);

	/* The same copy again (another fetch): nothing asked of the node. */
	adds = f->adds;
	walk(&rs, recs, 2);
	KUNIT_EXPECT_EQ(test, f->adds, adds);
	KUNIT_EXPECT_EQ(test, f->dels, 0U);

	/* r's nets change: o2ib kept as it is, o2ib2 added, o2ib5 still the admin's. */
	mk_rec(test, &recs[0], "r", true, R_IB "," R_TCP, "o2ib,o2ib2,o2ib5");
	walk(&rs, recs, 2);
	expect_routes(test, f, ADMIN ";o2ib>" R_TCP ";o2ib2>" R_TCP);
	expect_counts(test, &rs, 2, 2, 0, 0);
	KUNIT_EXPECT_EQ(test, f->dels, 0U);

	/*
	 * Bad input, skipped and counted: r2's only NID is on a net of no
	 * NI of ours; r3's net o2ib9 the node refuses.  r3's first NID is
	 * on o2ib4 itself: o2ib4 through its second.  r's routes stay.
	 */
	mk_rec(test, &recs[1], "r2", true, "10.0.2.2@o2ib", "o2ib3");
	mk_rec(test, &recs[2], "r3", true, "10.0.4.1@o2ib4,192.0.2.3@tcp",
	       "o2ib9,o2ib4");
	walk(&rs, recs, 3);
	expect_routes(test, f, ADMIN ";o2ib>" R_TCP ";o2ib2>" R_TCP
		      ";o2ib4>192.0.2.3@tcp");
	expect_counts(test, &rs, 3, 3, 0, 2);

	KUNIT_EXPECT_EQ(test, f->einval, 0U);

	/* r moves to another tcp address: its routes follow. */
	mk_rec(test, &recs[0], "r", true, "192.0.2.9@tcp", "o2ib,o2ib2,o2ib5");
	walk(&rs, recs, 3);
	expect_routes(test, f, ADMIN ";o2ib>" R_NEW ";o2ib2>" R_NEW
		      ";o2ib4>" R_3 ";o2ib5>" R_NEW);
	expect_counts(test, &rs, 4, 6, 2, 2);

	/* r is no router any more: its routes go, the admin's stays. */
	mk_rec(test, &recs[0], "r", false, "192.0.2.9@tcp", "");
	walk(&rs, recs, 3);
	expect_routes(test, f, ADMIN ";o2ib4>192.0.2.3@tcp");
	expect_counts(test, &rs, 1, 6, 5, 2);

	/* r3 deleted (not in the copy): its route goes. */
	walk(&rs, recs, 2);
	expect_routes(test, f, ADMIN);
	expect_counts(test, &rs, 0, 6, 6, 2);
	KUNIT_EXPECT_EQ(test, rs.nrtrs, 1U);	/* r2, tried, routes none */

	/* r back; the subscriber stops: every route of ours goes. */
	mk_rec(test, &recs[0], "r", true, R_TCP, "o2ib");
	walk(&rs, recs, 2);
	expect_routes(test, f, ADMIN ";o2ib>" R_TCP);
	nidmap_routes_fini(&rs);
	expect_routes(test, f, ADMIN);
	expect_counts(test, &rs, 0, 7, 7, 2);
	KUNIT_EXPECT_EQ(test, rs.nrtrs, 0U);
}

/* More routers than NIDMAP_ROUTERS_MAX: the rest skipped, counted. */
static void routes_bounded(struct kunit *test)
{
	struct fake_node *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	struct nidmap_rec *rec = kunit_kzalloc(test, sizeof(*rec), GFP_KERNEL);
	struct nidmap_routes rs;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	f->test = test;
	f->local = net_of(test, "tcp");
	nidmap_routes_init(&rs, &fake_ops, f);
	nidmap_routes_begin(&rs);
	/* Each router's only net is local: no route, but it is tracked. */
	mk_rec(test, rec, "r", true, R_IB "," R_TCP, "tcp");
	for (i = 0; i < NIDMAP_ROUTERS_MAX + 3; i++) {
		snprintf(rec->name, sizeof(rec->name), "r%u", i);
		nidmap_routes_entry(&rs, rec);
	}
	nidmap_routes_end(&rs);
	KUNIT_EXPECT_EQ(test, rs.nrtrs, (unsigned int)NIDMAP_ROUTERS_MAX);
	expect_counts(test, &rs, 0, 0, 0, 3);
	nidmap_routes_fini(&rs);
	KUNIT_EXPECT_EQ(test, rs.nrtrs, 0U);
}

static struct kunit_case nidmap_routes_cases[] = {
	KUNIT_CASE(routes_sequence),
	KUNIT_CASE(routes_bounded),
	{}
};

static struct kunit_suite nidmap_routes_suite = {
	.name = "nidmap_routes",
	.test_cases = nidmap_routes_cases,
};

kunit_test_suite(nidmap_routes_suite);
MODULE_DESCRIPTION("KUnit: nidmap's routes from the table");
MODULE_LICENSE("GPL");
