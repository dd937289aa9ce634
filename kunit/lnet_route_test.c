// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the route table (lnet/route.c) on a table of its own, with a
 * fake node: local nets tcp and o2ib; gateway peers, one of them with
 * two NIDs (multi-rail).  Insertion, the add checks and their errors
 * (spec lnet-routing.md 2.2), delete (2.3, 2.4), and the choice of a
 * route (3.2: priority, then hops, then round-robin; unusable routes
 * skipped; none: -EHOSTUNREACH), the spreading of added routes over the
 * list, UDSP router preferences (3.2 (a): a preferred gateway first, the
 * others when it is down or unreachable, spreading again without the
 * rule), and the router hint of a response (3.4).  Route aliveness (6.3,
 * 6.4): lnet_route_usable() against every gateway state, the flag and
 * single-hop detection a gateway's ping info gives
 * (lnet_route_ping_update()), health never counted, and
 * check_routers_before_use's initial state.  A router's net liveness
 * (6.7): when a net no ping reached is down (lnet_rtr_net_unpinged()).
 */
#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/netlink.h>

#include <lnet/lib-lnet.h>
#include <lnet/lib-types.h>
#include <lnet/route.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* Gateway NIDs and the fake peer each belongs to (0: none). */
static const struct {
	const char *nid;
	int peer;
} fake_peers[] = {
	{ "192.0.2.1@tcp", 1 },
	{ "10.0.0.1@o2ib", 1 },		/* peer 1 is multi-rail */
	{ "192.0.2.2@tcp", 2 },
	{ "192.0.2.3@tcp", 3 },
};

static const char * const fake_local_nets[] = { "tcp", "o2ib" };

static int fake_peer_of(const struct lnet_nid *nid)
{
	struct lnet_nid n;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fake_peers); i++)
		if (!lnet_nid_from_str(fake_peers[i].nid, &n) &&
		    lnet_nid_equal(&n, nid))
			return fake_peers[i].peer;
	return 0;
}

static bool fake_net_local(u32 net)
{
	unsigned int i;
	u32 n;

	for (i = 0; i < ARRAY_SIZE(fake_local_nets); i++)
		if (!lnet_net_from_str(fake_local_nets[i], &n) && n == net)
			return true;
	return false;
}

static bool fake_nid_local(const struct lnet_nid *nid)
{
	return false;
}

static bool fake_same_gateway(const struct lnet_nid *a,
			      const struct lnet_nid *b)
{
	int pa = fake_peer_of(a);

	return lnet_nid_equal(a, b) || (pa && pa == fake_peer_of(b));
}

static bool fake_gateway_on_net(const struct lnet_nid *gw, u32 net)
{
	int peer = fake_peer_of(gw);
	struct lnet_nid n;
	unsigned int i;

	if (lnet_nid_net(gw) == net)
		return true;
	for (i = 0; peer && i < ARRAY_SIZE(fake_peers); i++)
		if (fake_peers[i].peer == peer &&
		    !lnet_nid_from_str(fake_peers[i].nid, &n) &&
		    lnet_nid_net(&n) == net)
			return true;
	return false;
}

static const struct lnet_route_env fake_env = {
	.net_local	= fake_net_local,
	.nid_local	= fake_nid_local,
	.same_gateway	= fake_same_gateway,
	.gateway_on_net	= fake_gateway_on_net,
};

static struct lnet_route_table *table_new(struct kunit *test, u64 seed)
{
	struct lnet_route_table *t = kunit_kzalloc(test, sizeof(*t),
						   GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	lnet_route_table_init(t, &fake_env, seed);
	return t;
}

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

static int add(struct kunit *test, struct lnet_route_table *t,
	       const char *net, const char *gw, u32 hops, u32 prio,
	       struct netlink_ext_ack *extack)
{
	struct lnet_nid g = nid_of(test, gw);

	return lnet_route_table_add(t, net_of(test, net), &g, hops, prio,
				    extack);
}

/* The routes, in walk order, as "net gw hops prio;" */
struct dump {
	char buf[512];
	unsigned int n;
};

static int dump_one(const struct lnet_route_info *ri, void *arg)
{
	struct dump *d = arg;
	char net[LNET_NIDSTR_SIZE], gw[LNET_NIDSTR_SIZE];
	size_t len = strlen(d->buf);

	lnet_net_to_str(ri->net, net, sizeof(net));
	lnet_nid_to_str(&ri->gateway, gw, sizeof(gw));
	snprintf(d->buf + len, sizeof(d->buf) - len, "%s %s %d %u%s;", net,
		 gw, (int)ri->hops, ri->priority, ri->alive ? "" : " dead");
	d->n++;
	return 0;
}

static const char *dump(struct lnet_route_table *t, struct dump *d)
{
	memset(d, 0, sizeof(*d));
	lnet_route_table_walk(t, 0, dump_one, d);
	return d->buf;
}

static void route_insert(struct kunit *test)
{
	struct lnet_route_table *t = table_new(test, 1);
	struct dump d;

	KUNIT_EXPECT_EQ(test, add(test, t, "tcp1", "192.0.2.1@tcp",
				  LNET_ROUTE_HOPS_UNSET, 0, NULL), 0);
	KUNIT_EXPECT_STREQ(test, dump(t, &d), "tcp1 192.0.2.1@tcp -1 0;");
	KUNIT_EXPECT_EQ(test, add(test, t, "o2ib3", "192.0.2.2@tcp", 3, 7,
				  NULL), 0);
	dump(t, &d);
	KUNIT_EXPECT_EQ(test, d.n, 2U);
	KUNIT_EXPECT_NOT_NULL(test, strstr(d.buf, "o2ib3 192.0.2.2@tcp 3 7;"));
	KUNIT_EXPECT_EQ(test, t->rt_count, 2U);
	/* a walk resumed after the first route gives the second only */
	memset(&d, 0, sizeof(d));
	KUNIT_EXPECT_EQ(test, lnet_route_table_walk(t, 1, dump_one, &d), 1);
	KUNIT_EXPECT_EQ(test, d.n, 1U);
	lnet_route_table_flush(t);
	KUNIT_EXPECT_STREQ(test, dump(t, &d), "");
	KUNIT_EXPECT_EQ(test, t->rt_count, 0U);
}

struct add_case {
	const char *net, *gw;
	u32 hops;
	int rc;
	const char *msg;
};

static const struct add_case add_cases[] = {
	{ "tcp1", "0@lo", 1, -EINVAL,
	  "the gateway must be a NID other than 0@lo" },
	{ "lo", "192.0.2.2@tcp", 1, -EINVAL,
	  "the remote network must be a network other than lo" },
	{ "tcp", "192.0.2.2@tcp", 1, -EINVAL,
	  "the gateway is on the remote network itself" },
	{ "tcp1", "192.0.2.2@tcp", 0, -EINVAL,
	  "hop must be 1..255, or -1 for unset" },
	{ "tcp1", "192.0.2.2@tcp", 256, -EINVAL,
	  "hop must be 1..255, or -1 for unset" },
	{ "o2ib", "192.0.2.2@tcp", 1, -EEXIST,
	  "Route already exists or the specified network is local" },
	{ "tcp1", "192.0.2.9@tcp5", 1, -EHOSTUNREACH,
	  "No interface configured on the same net as gateway" },
	/* the route of the setup, by the same NID or another of its peer */
	{ "tcp1", "192.0.2.1@tcp", 2, -EEXIST,
	  "Route already exists or the specified network is local" },
	{ "tcp1", "10.0.0.1@o2ib", 1, -EEXIST,
	  "Route already exists or the specified network is local" },
};

static void route_add_checks(struct kunit *test)
{
	struct lnet_route_table *t = table_new(test, 1);
	struct netlink_ext_ack extack;
	struct lnet_nid any = LNET_ANY_NID;
	char before[sizeof(((struct dump *)0)->buf)];
	struct dump d;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.1@tcp", 1, 0,
				  NULL), 0);
	strscpy(before, dump(t, &d), sizeof(before));
	for (i = 0; i < ARRAY_SIZE(add_cases); i++) {
		const struct add_case *c = &add_cases[i];

		memset(&extack, 0, sizeof(extack));
		KUNIT_EXPECT_EQ_MSG(test, add(test, t, c->net, c->gw, c->hops,
					      5, &extack), c->rc,
				    "case %u: %s via %s", i, c->net, c->gw);
		KUNIT_EXPECT_STREQ_MSG(test, extack._msg ?: "", c->msg,
				       "case %u", i);
		KUNIT_EXPECT_STREQ(test, dump(t, &d), before);
	}
	/* no gateway at all, or any remote net */
	memset(&extack, 0, sizeof(extack));
	KUNIT_EXPECT_EQ(test, lnet_route_table_add(t, net_of(test, "tcp2"),
						   &any, 1, 0, &extack),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, lnet_route_table_add(t, LNET_NET_ANY,
						   &any, 1, 0, &extack),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, dump(t, &d), before);
	/* the same gateway to another net, another one to the same net */
	KUNIT_EXPECT_EQ(test, add(test, t, "tcp2", "192.0.2.1@tcp", 255, 0,
				  NULL), 0);
	KUNIT_EXPECT_EQ(test, add(test, t, "tcp1", "192.0.2.2@tcp",
				  LNET_ROUTE_HOPS_UNSET, 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, t->rt_count, 3U);
	lnet_route_table_flush(t);
}

/*
 * The gateway chosen @n times in a row for a send preferring what @pref
 * says (NULL: nothing), as a string of peer digits.
 */
static char *choices_pref(struct kunit *test, struct lnet_route_table *t,
			  const char *net, u32 src_net,
			  const struct lnet_route_pref *pref, unsigned int n)
{
	char *s = kunit_kzalloc(test, n + 1, GFP_KERNEL);
	struct lnet_nid gw;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, s);
	for (i = 0; i < n; i++) {
		if (lnet_route_table_select(t, net_of(test, net), src_net,
					    fake_gateway_on_net, pref, &gw)) {
			s[i] = '-';
			continue;
		}
		s[i] = '0' + fake_peer_of(&gw);
	}
	return s;
}

static char *choices(struct kunit *test, struct lnet_route_table *t,
		     const char *net, u32 src_net, unsigned int n)
{
	return choices_pref(test, t, net, src_net, NULL, n);
}

static void route_priority_order(struct kunit *test)
{
	u64 seed;

	/* whatever the list order (seed), priority 0 wins, then fewer hops */
	for (seed = 1; seed <= 8; seed++) {
		struct lnet_route_table *t = table_new(test, seed);
		struct lnet_nid gw2 = nid_of(test, "192.0.2.2@tcp");
		struct lnet_nid gw3 = nid_of(test, "192.0.2.3@tcp");
		u32 tcp1 = net_of(test, "tcp1");

		KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.1@tcp", 1,
					  1, NULL), 0);
		KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.2@tcp", 9,
					  0, NULL), 0);
		KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.3@tcp", 3,
					  0, NULL), 0);
		KUNIT_EXPECT_STREQ(test, choices(test, t, "tcp1",
						 LNET_NET_ANY, 4), "3333");
		KUNIT_EXPECT_EQ(test, lnet_route_table_del(t, tcp1, &gw3, NULL),
				0);
		KUNIT_EXPECT_STREQ(test, choices(test, t, "tcp1",
						 LNET_NET_ANY, 3), "222");
		KUNIT_EXPECT_EQ(test, lnet_route_table_del(t, tcp1, &gw2, NULL),
				0);
		KUNIT_EXPECT_STREQ(test, choices(test, t, "tcp1",
						 LNET_NET_ANY, 2), "11");
		lnet_route_table_flush(t);
		KUNIT_EXPECT_STREQ(test, choices(test, t, "tcp1",
						 LNET_NET_ANY, 1), "-");
	}
}

static void route_hops_unset_is_one(struct kunit *test)
{
	struct lnet_route_table *t = table_new(test, 3);
	const char *s;

	/* unset ranks as 1: it ties with 1 and beats 2 */
	KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.1@tcp", 2, 0,
				  NULL), 0);
	KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.2@tcp",
				  LNET_ROUTE_HOPS_UNSET, 0, NULL), 0);
	KUNIT_EXPECT_STREQ(test, choices(test, t, "tcp1", LNET_NET_ANY, 3),
			   "222");
	KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.3@tcp", 1, 0,
				  NULL), 0);
	s = choices(test, t, "tcp1", LNET_NET_ANY, 6);
	KUNIT_EXPECT_TRUE_MSG(test, !strcmp(s, "232323") ||
			      !strcmp(s, "323232"), "got %s", s);
	lnet_route_table_flush(t);
}

static void route_spreading(struct kunit *test)
{
	unsigned int first[4] = { 0 };
	struct lnet_route_table *t;
	const char *s;
	u64 seed;

	/* equal routes take turns */
	t = table_new(test, 5);
	KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.1@tcp", 1, 0,
				  NULL), 0);
	KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.2@tcp", 1, 0,
				  NULL), 0);
	KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.3@tcp", 1, 0,
				  NULL), 0);
	s = choices(test, t, "tcp1", LNET_NET_ANY, 9);
	KUNIT_EXPECT_EQ(test, s[0] != s[1] && s[1] != s[2] && s[0] != s[2],
			true);
	KUNIT_EXPECT_EQ(test, strncmp(s, s + 3, 3), 0);
	KUNIT_EXPECT_EQ(test, strncmp(s, s + 6, 3), 0);
	lnet_route_table_flush(t);

	/*
	 * Added routes go at a random place: over tables of other seeds,
	 * each of three gateways added in the same order comes first.
	 */
	for (seed = 1; seed <= 48; seed++) {
		u32 tcp1 = net_of(test, "tcp1");
		struct lnet_nid gw;

		/* seeds far apart, as get_random_u64() gives the node's */
		t = table_new(test, seed * 0x9e3779b97f4a7c15ULL);
		KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.1@tcp", 1,
					  0, NULL), 0);
		KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.2@tcp", 1,
					  0, NULL), 0);
		KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.3@tcp", 1,
					  0, NULL), 0);
		/* the first choice of a fresh table is its list's head */
		KUNIT_ASSERT_EQ(test, lnet_route_table_select(t, tcp1,
							      LNET_NET_ANY,
							      fake_gateway_on_net,
							      NULL, &gw), 0);
		first[fake_peer_of(&gw)]++;
		lnet_route_table_flush(t);
	}
	KUNIT_EXPECT_GT(test, first[1], 0U);
	KUNIT_EXPECT_GT(test, first[2], 0U);
	KUNIT_EXPECT_GT(test, first[3], 0U);
}

static void route_source_net(struct kunit *test)
{
	struct lnet_route_table *t = table_new(test, 7);

	/* peer 1 is reachable on o2ib too (multi-rail), peer 2 on tcp only */
	KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.1@tcp", 1, 1,
				  NULL), 0);
	KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.2@tcp", 1, 0,
				  NULL), 0);
	KUNIT_EXPECT_STREQ(test, choices(test, t, "tcp1",
					 net_of(test, "o2ib"), 2), "11");
	KUNIT_EXPECT_STREQ(test, choices(test, t, "tcp1",
					 net_of(test, "tcp"), 2), "22");
	KUNIT_EXPECT_STREQ(test, choices(test, t, "tcp1",
					 net_of(test, "o2ib1"), 1), "-");
	lnet_route_table_flush(t);
}

static void route_delete(struct kunit *test)
{
	struct lnet_route_table *t = table_new(test, 11);
	struct netlink_ext_ack extack = {};
	struct lnet_nid gw;
	struct dump d;

	KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.1@tcp", 1, 0,
				  NULL), 0);
	KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.2@tcp", 1, 0,
				  NULL), 0);
	KUNIT_ASSERT_EQ(test, add(test, t, "tcp2", "192.0.2.2@tcp", 1, 0,
				  NULL), 0);
	KUNIT_ASSERT_EQ(test, add(test, t, "tcp3", "192.0.2.3@tcp", 1, 0,
				  NULL), 0);
	/* no route to the net: -ENOENT; a gateway matching none: 0 */
	KUNIT_EXPECT_EQ(test, lnet_route_table_del(t, net_of(test, "tcp9"),
						   NULL, &extack), -ENOENT);
	KUNIT_EXPECT_STREQ(test, extack._msg, "no route to that network");
	gw = nid_of(test, "192.0.2.3@tcp");
	KUNIT_EXPECT_EQ(test, lnet_route_table_del(t, net_of(test, "tcp1"),
						   &gw, NULL), 0);
	KUNIT_EXPECT_EQ(test, t->rt_count, 4U);
	/* another NID of the gateway's peer deletes its route */
	gw = nid_of(test, "10.0.0.1@o2ib");
	KUNIT_EXPECT_EQ(test, lnet_route_table_del(t, net_of(test, "tcp1"),
						   &gw, NULL), 0);
	KUNIT_EXPECT_EQ(test, t->rt_count, 3U);
	KUNIT_EXPECT_STREQ(test, choices(test, t, "tcp1", LNET_NET_ANY, 2),
			   "22");
	/* the net's last route: the net goes, a second delete is -ENOENT */
	KUNIT_EXPECT_EQ(test, lnet_route_table_del(t, net_of(test, "tcp1"),
						   NULL, NULL), 0);
	KUNIT_EXPECT_EQ(test, lnet_route_table_del(t, net_of(test, "tcp1"),
						   NULL, NULL), -ENOENT);
	/* any net through one gateway */
	gw = nid_of(test, "192.0.2.2@tcp");
	KUNIT_EXPECT_EQ(test, lnet_route_table_del(t, LNET_NET_ANY, &gw,
						   NULL), 0);
	KUNIT_EXPECT_STREQ(test, dump(t, &d), "tcp3 192.0.2.3@tcp 1 0;");
	lnet_route_table_flush(t);
}

static void route_gateway_net_deleted(struct kunit *test)
{
	struct lnet_route_table *t = table_new(test, 13);
	u32 o2ib = net_of(test, "o2ib"), tcp = net_of(test, "tcp");
	struct dump d;

	KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.1@tcp", 1, 0,
				  NULL), 0);
	KUNIT_ASSERT_EQ(test, add(test, t, "tcp2", "192.0.2.2@tcp", 1, 0,
				  NULL), 0);
	KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.3@tcp", 1, 0,
				  NULL), 0);
	/* o2ib goes: peer 1 has a NID there (its route went by tcp) */
	KUNIT_EXPECT_EQ(test, lnet_route_table_del_gw_net(t, o2ib), 1U);
	KUNIT_EXPECT_EQ(test, t->rt_count, 2U);
	KUNIT_EXPECT_EQ(test, lnet_route_table_del_gw_net(t, o2ib), 0U);
	/* tcp goes: every gateway was on it */
	KUNIT_EXPECT_EQ(test, lnet_route_table_del_gw_net(t, tcp), 2U);
	KUNIT_EXPECT_STREQ(test, dump(t, &d), "");
	KUNIT_EXPECT_EQ(test, t->rt_count, 0U);
}

/* Mark the route through @gw to @net (un)usable, as the router checker will. */
static void set_alive(struct kunit *test, struct lnet_route_table *t,
		      const char *net, const char *gw, bool alive)
{
	struct lnet_nid g = nid_of(test, gw);
	struct lnet_remotenet *rnet;
	struct lnet_route *r;
	bool found = false;
	int bkt;

	hash_for_each(t->rt_nets, bkt, rnet, lrn_hash)
		list_for_each_entry(r, &rnet->lrn_routes, lr_list)
			if (r->lr_net == net_of(test, net) &&
			    lnet_nid_equal(&r->lr_gateway, &g)) {
				WRITE_ONCE(r->lr_alive, alive);
				found = true;
			}
	KUNIT_ASSERT_TRUE(test, found);
}

static void route_unusable_skipped(struct kunit *test)
{
	struct lnet_route_table *t = table_new(test, 17);
	const char *s;

	/* 3 is the best (priority 0); 1 and 2 tie behind it */
	KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.1@tcp", 1, 1,
				  NULL), 0);
	KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.2@tcp", 1, 1,
				  NULL), 0);
	KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.3@tcp", 1, 0,
				  NULL), 0);
	KUNIT_EXPECT_STREQ(test, choices(test, t, "tcp1", LNET_NET_ANY, 2),
			   "33");
	/* the best one down: the next ones take turns, never it */
	set_alive(test, t, "tcp1", "192.0.2.3@tcp", false);
	s = choices(test, t, "tcp1", LNET_NET_ANY, 4);
	KUNIT_EXPECT_TRUE_MSG(test, !strcmp(s, "1212") || !strcmp(s, "2121"),
			      "got %s", s);
	set_alive(test, t, "tcp1", "192.0.2.1@tcp", false);
	KUNIT_EXPECT_STREQ(test, choices(test, t, "tcp1", LNET_NET_ANY, 2),
			   "22");
	/* none usable: no route, though the table has three */
	set_alive(test, t, "tcp1", "192.0.2.2@tcp", false);
	KUNIT_EXPECT_STREQ(test, choices(test, t, "tcp1", LNET_NET_ANY, 1),
			   "-");
	KUNIT_EXPECT_EQ(test, t->rt_count, 3U);
	/* back up: used again, priority first */
	set_alive(test, t, "tcp1", "192.0.2.3@tcp", true);
	KUNIT_EXPECT_STREQ(test, choices(test, t, "tcp1", LNET_NET_ANY, 2),
			   "33");
	/* a net with no route at all */
	KUNIT_EXPECT_STREQ(test, choices(test, t, "tcp7", LNET_NET_ANY, 1),
			   "-");
	lnet_route_table_flush(t);
}

static bool is_gw(struct kunit *test, struct lnet_route_table *t,
		  const char *nid)
{
	struct lnet_nid n = nid_of(test, nid);

	return lnet_route_table_is_gateway(t, &n, LNET_NET_ANY,
					   fake_same_gateway);
}

static void route_response_hint(struct kunit *test)
{
	struct lnet_route_table *t = table_new(test, 19);

	/*
	 * Spec 3.4: a response goes back through its previous hop when that
	 * is a gateway of any route, to any net, usable or not, by any NID
	 * of the gateway's peer; otherwise (a plain peer, an unknown NID)
	 * by a route lookup.
	 */
	KUNIT_EXPECT_FALSE(test, is_gw(test, t, "192.0.2.1@tcp"));
	KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.1@tcp", 1, 0,
				  NULL), 0);
	KUNIT_ASSERT_EQ(test, add(test, t, "tcp2", "192.0.2.2@tcp", 1, 0,
				  NULL), 0);
	set_alive(test, t, "tcp2", "192.0.2.2@tcp", false);
	KUNIT_EXPECT_TRUE(test, is_gw(test, t, "192.0.2.1@tcp"));
	KUNIT_EXPECT_TRUE(test, is_gw(test, t, "10.0.0.1@o2ib"));
	KUNIT_EXPECT_TRUE(test, is_gw(test, t, "192.0.2.2@tcp"));
	KUNIT_EXPECT_FALSE(test, is_gw(test, t, "192.0.2.3@tcp"));
	KUNIT_EXPECT_FALSE(test, is_gw(test, t, "192.0.2.9@tcp"));
	lnet_route_table_flush(t);
	KUNIT_EXPECT_FALSE(test, is_gw(test, t, "192.0.2.1@tcp"));
}

static bool gw_to(struct kunit *test, struct lnet_route_table *t,
		  const char *nid, const char *net)
{
	struct lnet_nid n = nid_of(test, nid);

	return lnet_route_table_is_gateway(t, &n, net_of(test, net),
					   fake_same_gateway);
}

static void route_asym_check(struct kunit *test)
{
	struct lnet_route_table *t = table_new(test, 23);
	struct lnet_nid gw;

	/*
	 * Spec 7 (drop_asym_route): a message routed to us is kept only if
	 * one of our routes to its source's net goes through the gateway
	 * that sent it, by any NID of that gateway's peer, alive or not.
	 */
	KUNIT_EXPECT_FALSE(test, gw_to(test, t, "192.0.2.1@tcp", "tcp1"));
	KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.1@tcp", 1, 0,
				  NULL), 0);
	KUNIT_ASSERT_EQ(test, add(test, t, "tcp2", "192.0.2.2@tcp", 1, 0,
				  NULL), 0);
	set_alive(test, t, "tcp1", "192.0.2.1@tcp", false);
	KUNIT_EXPECT_TRUE(test, gw_to(test, t, "192.0.2.1@tcp", "tcp1"));
	/* another NID of the same gateway peer */
	KUNIT_EXPECT_TRUE(test, gw_to(test, t, "10.0.0.1@o2ib", "tcp1"));
	/* a gateway, but of a route to another net */
	KUNIT_EXPECT_FALSE(test, gw_to(test, t, "192.0.2.2@tcp", "tcp1"));
	KUNIT_EXPECT_TRUE(test, gw_to(test, t, "192.0.2.2@tcp", "tcp2"));
	/* no gateway at all, and a net with no route */
	KUNIT_EXPECT_FALSE(test, gw_to(test, t, "192.0.2.9@tcp", "tcp1"));
	KUNIT_EXPECT_FALSE(test, gw_to(test, t, "192.0.2.1@tcp", "tcp7"));
	/* the route deleted: that gateway no longer leads back */
	gw = nid_of(test, "192.0.2.1@tcp");
	KUNIT_ASSERT_EQ(test, lnet_route_table_del(t, net_of(test, "tcp1"),
						   &gw, NULL), 0);
	KUNIT_EXPECT_FALSE(test, gw_to(test, t, "192.0.2.1@tcp", "tcp1"));
	lnet_route_table_flush(t);
}

/* A route to @net through @gw, outside any table. */
static struct lnet_route route_of(struct kunit *test, const char *net,
				  const char *gw, u32 hops)
{
	struct lnet_route r = {
		.lr_net = net_of(test, net), .lr_gateway = nid_of(test, gw),
		.lr_hops = hops, .lr_alive = true,
	};

	return r;
}

/* A gateway that passes every rule of spec 6.4 with discovery on. */
static const struct lnet_gw_state gw_ok = {
	.known = true, .rtr_enabled = true, .local_up = true,
	.remote_up = true, .avoid_asym = true,
};

static void route_alive_rules(struct kunit *test)
{
	struct lnet_route r = route_of(test, "tcp1", "192.0.2.1@tcp",
				       LNET_ROUTE_HOPS_UNSET);
	struct lnet_gw_state gs = gw_ok;

	KUNIT_EXPECT_TRUE(test, lnet_route_usable(&r, &gs));
	/* no gateway known (or none asked): the cached flag */
	KUNIT_EXPECT_TRUE(test, lnet_route_usable(&r, NULL));
	r.lr_alive = false;
	KUNIT_EXPECT_FALSE(test, lnet_route_usable(&r, NULL));
	gs.known = false;
	KUNIT_EXPECT_FALSE(test, lnet_route_usable(&r, &gs));
	/* rule 3 does not read the cached flag */
	KUNIT_EXPECT_TRUE(test, lnet_route_usable(&r, &gw_ok));
	/* rule 2: discovery off for the gateway: the cached flag alone */
	gs = gw_ok;
	gs.discovery_off = true;
	gs.local_up = false;
	gs.rtr_enabled = false;
	KUNIT_EXPECT_FALSE(test, lnet_route_usable(&r, &gs));
	r.lr_alive = true;
	KUNIT_EXPECT_TRUE(test, lnet_route_usable(&r, &gs));
	/* rule 1: a dead gateway kills it, whatever else */
	gs = gw_ok;
	gs.dead = true;
	KUNIT_EXPECT_FALSE(test, lnet_route_usable(&r, &gs));
	gs.discovery_off = true;
	KUNIT_EXPECT_FALSE(test, lnet_route_usable(&r, &gs));
	/* rule 3: an UP NI on the local net */
	gs = gw_ok;
	gs.local_up = false;
	KUNIT_EXPECT_FALSE(test, lnet_route_usable(&r, &gs));
	/* rule 3: routing enabled (RTE_DISABLED clear) */
	gs = gw_ok;
	gs.rtr_enabled = false;
	KUNIT_EXPECT_FALSE(test, lnet_route_usable(&r, &gs));
	/* rule 3, avoid_asym: a multi-hop route needs no remote NI ... */
	gs = gw_ok;
	gs.remote_up = false;
	KUNIT_EXPECT_TRUE(test, lnet_route_usable(&r, &gs));
	/* ... a detected single-hop one does, */
	r.lr_single_hop = true;
	KUNIT_EXPECT_FALSE(test, lnet_route_usable(&r, &gs));
	/* and one of hops 1 does before any detection */
	r.lr_single_hop = false;
	r.lr_hops = 1;
	KUNIT_EXPECT_FALSE(test, lnet_route_usable(&r, &gs));
	r.lr_hops = 2;
	KUNIT_EXPECT_TRUE(test, lnet_route_usable(&r, &gs));
	/* without avoid_asym_router_failure, never */
	r.lr_hops = 1;
	gs.avoid_asym = false;
	KUNIT_EXPECT_TRUE(test, lnet_route_usable(&r, &gs));
}

static void route_ping_update_rules(struct kunit *test)
{
	struct lnet_route r = route_of(test, "o2ib1", "192.0.2.1@tcp",
				       LNET_ROUTE_HOPS_UNSET);
	const u32 up = LNET_NI_STATUS_UP, down = LNET_NI_STATUS_DOWN;
	struct lnet_nid nids[3] = {
		nid_of(test, "192.0.2.1@tcp"),
		nid_of(test, "10.0.0.1@o2ib1"),
		nid_of(test, "10.0.1.1@o2ib1"),
	};
	u32 st[3] = { up, up, down };

	/* the gateway lists an NI on the remote net: single-hop, alive */
	lnet_route_ping_update(&r, false, true, nids, st, 3, true);
	KUNIT_EXPECT_TRUE(test, r.lr_single_hop);
	KUNIT_EXPECT_TRUE(test, r.lr_alive);
	/* all of those DOWN: dead with avoid_asym ... */
	st[1] = down;
	lnet_route_ping_update(&r, false, true, nids, st, 3, true);
	KUNIT_EXPECT_TRUE(test, r.lr_single_hop);
	KUNIT_EXPECT_FALSE(test, r.lr_alive);
	/* ... alive without it */
	lnet_route_ping_update(&r, false, true, nids, st, 3, false);
	KUNIT_EXPECT_TRUE(test, r.lr_alive);
	/* none listed: multi-hop, alive (nothing to ask of it) */
	lnet_route_ping_update(&r, false, true, nids, st, 1, true);
	KUNIT_EXPECT_FALSE(test, r.lr_single_hop);
	KUNIT_EXPECT_TRUE(test, r.lr_alive);
	/* but hops 1 says single-hop: dead with avoid_asym */
	r.lr_hops = 1;
	lnet_route_ping_update(&r, false, true, nids, st, 1, true);
	KUNIT_EXPECT_FALSE(test, r.lr_alive);
	r.lr_hops = LNET_ROUTE_HOPS_UNSET;
	/* RTE_DISABLED: dead, whatever the NIs say */
	st[1] = up;
	lnet_route_ping_update(&r, true, true, nids, st, 3, true);
	KUNIT_EXPECT_FALSE(test, r.lr_alive);
	lnet_route_ping_update(&r, false, true, nids, st, 3, true);
	KUNIT_EXPECT_TRUE(test, r.lr_alive);
	/* no UP NI on the local net: dead, single-hop left as it was */
	lnet_route_ping_update(&r, false, false, nids, st, 1, true);
	KUNIT_EXPECT_FALSE(test, r.lr_alive);
	KUNIT_EXPECT_TRUE(test, r.lr_single_hop);
}

/*
 * Spec 6.7: a router's net no ping reached for W = interval + timeout
 * seconds has its NIs down (lnet_rtr_net_unpinged()).
 */
static void route_router_net_unpinged(struct kunit *test)
{
	bool (*down)(unsigned long now, unsigned long last, int interval,
		     int timeout) = lnet_rtr_net_unpinged;
	const unsigned long t = 1000000;	/* any time */
#if BITS_PER_LONG == 64
	const unsigned long big = 2UL * INT_MAX * HZ;	/* W exact */
#else
	const unsigned long big = LONG_MAX;		/* W saturated */
#endif

	/* W = 60 + 50: up to just below W, then down (from W on) */
	KUNIT_EXPECT_FALSE(test, down(t, t, 60, 50));
	KUNIT_EXPECT_FALSE(test, down(t + 110 * HZ - 1, t, 60, 50));
	KUNIT_EXPECT_TRUE(test, down(t + 110 * HZ, t, 60, 50));
	KUNIT_EXPECT_TRUE(test, down(t + 3600 * HZ, t, 60, 50));
	/* the sum decides: a negative part is added as it is */
	KUNIT_EXPECT_FALSE(test, down(t + 4 * HZ - 1, t, -1, 5));
	KUNIT_EXPECT_TRUE(test, down(t + 4 * HZ, t, -1, 5));
	/* W <= 0: no grace, even pinged this very jiffy */
	KUNIT_EXPECT_TRUE(test, down(t, t, 0, 0));
	KUNIT_EXPECT_TRUE(test, down(t, t, 60, -60));
	KUNIT_EXPECT_TRUE(test, down(t, t, -5, 3));
	KUNIT_EXPECT_TRUE(test, down(t, t, INT_MIN, INT_MIN));
	/* jiffies wrap between the ping and now (5 s and a jiffy) */
	KUNIT_EXPECT_TRUE(test, down(4 * HZ, ULONG_MAX - HZ, 2, 2));
	KUNIT_EXPECT_FALSE(test, down(4 * HZ, ULONG_MAX - HZ, 3, 3));
	/* a ping seen after now was read (across a wrap too): fresh */
	KUNIT_EXPECT_FALSE(test, down(t, t + 1, 2, 2));
	KUNIT_EXPECT_FALSE(test, down(ULONG_MAX, 0, 2, 2));
	/* two large ints do not wrap to a negative W (no grace) */
	KUNIT_EXPECT_FALSE(test, down(t + 3600 * HZ, t, INT_MAX, INT_MAX));
	KUNIT_EXPECT_FALSE(test, down(t + 3600 * HZ, t, INT_MAX, 1));
	/* W in jiffies saturates at LONG_MAX, on 32-bit only */
	KUNIT_EXPECT_FALSE(test, down(t + big - 1, t, INT_MAX, INT_MAX));
	KUNIT_EXPECT_TRUE(test, down(t + big, t, INT_MAX, INT_MAX));
}

static void route_health_not_counted(struct kunit *test)
{
	struct lnet_peer_ni a = {}, b = {};
	struct lnet_peer_net lpn = {};

	INIT_LIST_HEAD(&lpn.lpn_peer_nis);
	list_add_tail(&a.lpni_list, &lpn.lpn_peer_nis);
	list_add_tail(&b.lpni_list, &lpn.lpn_peer_nis);
	/* spec 6.4 rule 4: health 0 everywhere, one NI UP: the net is up */
	a.lpni_healthv = 0;
	b.lpni_healthv = 0;
	a.lpni_ns_status = LNET_NI_STATUS_DOWN;
	b.lpni_ns_status = LNET_NI_STATUS_UP;
	KUNIT_EXPECT_TRUE(test, lnet_gw_net_up(&lpn));
	/* full health, all DOWN: down */
	a.lpni_healthv = 1000;
	b.lpni_healthv = 1000;
	b.lpni_ns_status = LNET_NI_STATUS_DOWN;
	KUNIT_EXPECT_FALSE(test, lnet_gw_net_up(&lpn));
	KUNIT_EXPECT_FALSE(test, lnet_gw_net_up(NULL));
}

static bool fake_start_dead(void)
{
	return true;
}

/* Gateway 192.0.2.2@tcp reported RTE_DISABLED; the others are fine. */
static void fake_gw_state(const struct lnet_route *r, struct lnet_gw_state *gs)
{
	*gs = gw_ok;
	if (fake_peer_of(&r->lr_gateway) == 2)
		gs->rtr_enabled = false;
}

static const struct lnet_route_env fake_env_checked = {
	.net_local	= fake_net_local,
	.nid_local	= fake_nid_local,
	.same_gateway	= fake_same_gateway,
	.gateway_on_net	= fake_gateway_on_net,
	.start_dead	= fake_start_dead,
	.gw_state	= fake_gw_state,
};

static const struct lnet_route_env fake_env_before_use = {
	.net_local	= fake_net_local,
	.nid_local	= fake_nid_local,
	.same_gateway	= fake_same_gateway,
	.gateway_on_net	= fake_gateway_on_net,
	.start_dead	= fake_start_dead,
};

static void route_check_before_use(struct kunit *test)
{
	struct lnet_route_table *t = table_new(test, 23);
	struct dump d;

	/* check_routers_before_use=0: a new route is up */
	KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.1@tcp",
				  LNET_ROUTE_HOPS_UNSET, 0, NULL), 0);
	KUNIT_EXPECT_STREQ(test, dump(t, &d), "tcp1 192.0.2.1@tcp -1 0;");
	lnet_route_table_flush(t);
	/* =1: down, and not chosen, until its gateway is checked */
	lnet_route_table_init(t, &fake_env_before_use, 23);
	KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.1@tcp",
				  LNET_ROUTE_HOPS_UNSET, 0, NULL), 0);
	KUNIT_EXPECT_STREQ(test, dump(t, &d),
			   "tcp1 192.0.2.1@tcp -1 0 dead;");
	KUNIT_EXPECT_STREQ(test, choices(test, t, "tcp1", LNET_NET_ANY, 1),
			   "-");
	lnet_route_table_flush(t);
}

static void route_gateway_state_decides(struct kunit *test)
{
	struct lnet_route_table *t = kunit_kzalloc(test, sizeof(*t),
						   GFP_KERNEL);
	struct dump d;

	KUNIT_ASSERT_NOT_NULL(test, t);
	lnet_route_table_init(t, &fake_env_checked, 29);
	/*
	 * The gateways are known, with discovery on: the cached flag
	 * (dead from the start here) does not decide, the gateway does;
	 * RTE_DISABLED on gateway 2 kills its route in the choice and in
	 * what "route show" says.
	 */
	KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.2@tcp", 1, 0,
				  NULL), 0);
	KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.3@tcp", 1, 1,
				  NULL), 0);
	KUNIT_EXPECT_STREQ(test, choices(test, t, "tcp1", LNET_NET_ANY, 2),
			   "33");
	dump(t, &d);
	KUNIT_EXPECT_NOT_NULL(test, strstr(d.buf, "tcp1 192.0.2.2@tcp 1 0 dead;"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(d.buf, "tcp1 192.0.2.3@tcp 1 1;"));
	lnet_route_table_flush(t);
}

/* The UDSP rules the fake node's router preferences come from. */
static struct list_head *fake_rules;

/*
 * The node's lnet_gateway_preferred_locked() on the fake peers: a NID of
 * the gateway's peer on @src_net (any net for ANY), or @gw itself for a
 * gateway no peer has, matches a rule's --rte whose --dst matches @dst.
 */
static bool fake_gateway_preferred(const struct lnet_nid *dst,
				   const struct lnet_nid *gw, u32 src_net)
{
	int peer = fake_peer_of(gw);
	struct lnet_nid n;
	unsigned int i;

	if (!peer)
		return (src_net == LNET_NET_ANY ||
			lnet_nid_net(gw) == src_net) &&
		       lnet_udsp_rte_find(fake_rules, dst, gw);
	for (i = 0; i < ARRAY_SIZE(fake_peers); i++) {
		if (fake_peers[i].peer != peer ||
		    lnet_nid_from_str(fake_peers[i].nid, &n))
			continue;
		if (src_net != LNET_NET_ANY && lnet_nid_net(&n) != src_net)
			continue;
		if (lnet_udsp_rte_find(fake_rules, dst, &n))
			return true;
	}
	return false;
}

/* "udsp add --dst @dst --rte @rte" on the fake node's rules. */
static void rte_rule(struct kunit *test, struct list_head *rules,
		     const char *dst, const char *rte)
{
	const char *text[LNET_UDSP_TERMS] = { NULL, dst, rte };
	struct lnet_udsp *u = lnet_udsp_parse(text, false, 0, NULL);

	KUNIT_ASSERT_FALSE(test, IS_ERR(u));
	list_add_tail(&u->udsp_list, rules);
}

static void rte_rules_free(struct list_head *rules)
{
	struct lnet_udsp *u, *tmp;

	list_for_each_entry_safe(u, tmp, rules, udsp_list) {
		list_del(&u->udsp_list);
		lnet_udsp_free(u);
	}
}

/* Three equal routes to tcp1; gateway 2 preferred for what rules say. */
static struct lnet_route_table *rte_table(struct kunit *test, u64 seed,
					  u32 prio2)
{
	struct lnet_route_table *t = table_new(test, seed);

	KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.1@tcp", 1, 0,
				  NULL), 0);
	KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.2@tcp", 1, prio2,
				  NULL), 0);
	KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", "192.0.2.3@tcp", 1, 0,
				  NULL), 0);
	return t;
}

/* @s alternates between two different gateways, neither of them @not. */
static void expect_alternating(struct kunit *test, const char *s, char not)
{
	size_t i, len = strlen(s);

	KUNIT_EXPECT_NE_MSG(test, s[0], s[1], "got %s", s);
	for (i = 0; i < len; i++) {
		KUNIT_EXPECT_NE_MSG(test, s[i], not, "got %s", s);
		KUNIT_EXPECT_NE_MSG(test, s[i], '-', "got %s", s);
		if (i >= 2)
			KUNIT_EXPECT_EQ_MSG(test, s[i], s[i - 2], "got %s", s);
	}
}

static void route_udsp_preferred(struct kunit *test)
{
	struct lnet_nid dst = nid_of(test, "192.0.2.77@tcp1");
	struct lnet_route_pref pref = {
		.preferred = fake_gateway_preferred,
		.dst = &dst,
	};
	struct lnet_route_table *t;
	LIST_HEAD(rules);
	const char *s;
	u64 seed;

	fake_rules = &rules;
	/* without a rule: the three equal routes take turns */
	t = rte_table(test, 3, 0);
	s = choices_pref(test, t, "tcp1", LNET_NET_ANY, &pref, 6);
	KUNIT_EXPECT_TRUE_MSG(test, s[0] != s[1] && s[1] != s[2] &&
			      s[0] != s[2] && !strncmp(s, s + 3, 3),
			      "got %s", s);
	lnet_route_table_flush(t);

	/*
	 * "--dst tcp1 --rte 192.0.2.2@tcp": gateway 2 alone, wherever it is
	 * in the list (seed), even with a worse route priority (spec 3.2:
	 * the preference is ranked first), from any net or from tcp.
	 */
	rte_rule(test, &rules, "tcp1", "192.0.2.2@tcp");
	for (seed = 1; seed <= 6; seed++) {
		t = rte_table(test, seed * 0x9e3779b97f4a7c15ULL, seed & 1);
		KUNIT_EXPECT_STREQ(test, choices_pref(test, t, "tcp1",
						      LNET_NET_ANY, &pref, 4),
				   "2222");
		KUNIT_EXPECT_STREQ(test, choices_pref(test, t, "tcp1",
						      net_of(test, "tcp"),
						      &pref, 2), "22");
		/* a destination no rule names is spread as before */
		dst = nid_of(test, "10.1.1.1@tcp2");
		KUNIT_ASSERT_EQ(test, add(test, t, "tcp2", "192.0.2.1@tcp", 1,
					  0, NULL), 0);
		KUNIT_ASSERT_EQ(test, add(test, t, "tcp2", "192.0.2.2@tcp", 1,
					  0, NULL), 0);
		s = choices_pref(test, t, "tcp2", LNET_NET_ANY, &pref, 4);
		KUNIT_EXPECT_TRUE_MSG(test, !strcmp(s, "1212") ||
				      !strcmp(s, "2121"), "got %s", s);
		dst = nid_of(test, "192.0.2.77@tcp1");
		lnet_route_table_flush(t);
	}
	rte_rules_free(&rules);

	/* two preferred gateways of three: they take turns, 3 never */
	rte_rule(test, &rules, "192.0.2.[70-80]@tcp1", "192.0.2.[1-2]@tcp");
	t = rte_table(test, 5, 0);
	expect_alternating(test, choices_pref(test, t, "tcp1", LNET_NET_ANY,
					      &pref, 6), '3');
	lnet_route_table_flush(t);
	rte_rules_free(&rules);
	fake_rules = NULL;
}

static void route_udsp_multirail_gateway(struct kunit *test)
{
	struct lnet_nid dst = nid_of(test, "192.0.2.77@tcp1");
	struct lnet_route_pref pref = {
		.preferred = fake_gateway_preferred,
		.dst = &dst,
	};
	struct lnet_route_table *t;
	LIST_HEAD(rules);

	/*
	 * "--rte 10.0.0.1@o2ib" names gateway 1 by its o2ib NID: preferred
	 * reached from o2ib or any net (stock asks the gateway NI it would
	 * use), not from tcp, where its NI is 192.0.2.1@tcp.
	 */
	fake_rules = &rules;
	rte_rule(test, &rules, "tcp1", "10.0.0.1@o2ib");
	t = rte_table(test, 9, 0);
	KUNIT_EXPECT_STREQ(test, choices_pref(test, t, "tcp1", LNET_NET_ANY,
					      &pref, 3), "111");
	KUNIT_EXPECT_STREQ(test, choices_pref(test, t, "tcp1",
					      net_of(test, "o2ib"), &pref, 3),
			   "111");
	KUNIT_EXPECT_STRNEQ(test, choices_pref(test, t, "tcp1",
					       net_of(test, "tcp"), &pref, 3),
			    "111");
	lnet_route_table_flush(t);
	rte_rules_free(&rules);
	fake_rules = NULL;
}

static void route_udsp_fallback(struct kunit *test)
{
	struct lnet_nid dst = nid_of(test, "192.0.2.77@tcp1");
	struct lnet_route_pref pref = {
		.preferred = fake_gateway_preferred,
		.dst = &dst,
	};
	struct lnet_route_table *t;
	LIST_HEAD(rules);
	const char *s;

	fake_rules = &rules;
	rte_rule(test, &rules, "192.0.2.77@tcp1", "192.0.2.2@tcp");
	t = rte_table(test, 13, 0);
	KUNIT_EXPECT_STREQ(test, choices_pref(test, t, "tcp1", LNET_NET_ANY,
					      &pref, 3), "222");
	/* the preferred gateway down: the others take turns */
	set_alive(test, t, "tcp1", "192.0.2.2@tcp", false);
	expect_alternating(test, choices_pref(test, t, "tcp1", LNET_NET_ANY,
					      &pref, 6), '2');
	/* back: preferred again */
	set_alive(test, t, "tcp1", "192.0.2.2@tcp", true);
	KUNIT_EXPECT_STREQ(test, choices_pref(test, t, "tcp1", LNET_NET_ANY,
					      &pref, 3), "222");
	/* not reachable from the source's net: as if down */
	KUNIT_EXPECT_STREQ(test, choices_pref(test, t, "tcp1",
					      net_of(test, "o2ib"), &pref, 2),
			   "11");
	/* every route down: none, preferred or not */
	set_alive(test, t, "tcp1", "192.0.2.1@tcp", false);
	set_alive(test, t, "tcp1", "192.0.2.2@tcp", false);
	set_alive(test, t, "tcp1", "192.0.2.3@tcp", false);
	KUNIT_EXPECT_STREQ(test, choices_pref(test, t, "tcp1", LNET_NET_ANY,
					      &pref, 1), "-");
	set_alive(test, t, "tcp1", "192.0.2.1@tcp", true);
	set_alive(test, t, "tcp1", "192.0.2.2@tcp", true);
	set_alive(test, t, "tcp1", "192.0.2.3@tcp", true);

	/* the rule deleted: the three take turns again */
	rte_rules_free(&rules);
	s = choices_pref(test, t, "tcp1", LNET_NET_ANY, &pref, 6);
	KUNIT_EXPECT_TRUE_MSG(test, s[0] != s[1] && s[1] != s[2] &&
			      s[0] != s[2] && !strncmp(s, s + 3, 3),
			      "got %s", s);
	lnet_route_table_flush(t);
	fake_rules = NULL;
}

/* @s, a choices() string, with its digits in order (sorted in place). */
static char *sorted(char *s)
{
	size_t i, j, n = strlen(s);

	for (i = 1; i < n; i++)
		for (j = i; j > 0 && s[j - 1] > s[j]; j--)
			swap(s[j - 1], s[j]);
	return s;
}

/* Each fake gateway peer's best NI (index: fake_peer_of()). */
static struct lnet_gw_rank fake_rank[4];

static void fake_gw_rank(const struct lnet_nid *gw, u32 src_net,
			 struct lnet_gw_rank *rank)
{
	*rank = fake_rank[fake_peer_of(gw)];
}

static const struct lnet_route_env fake_env_ranked = {
	.net_local	= fake_net_local,
	.nid_local	= fake_nid_local,
	.same_gateway	= fake_same_gateway,
	.gateway_on_net	= fake_gateway_on_net,
	.gw_rank	= fake_gw_rank,
};

static void route_gateway_rank(struct kunit *test)
{
	struct lnet_route_table *t = kunit_kzalloc(test, sizeof(*t),
						   GFP_KERNEL);
	const struct lnet_gw_rank idle = {
		.healthv = LNET_MAX_HEALTH_VALUE, .credits = 8,
	};
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	lnet_route_table_init(t, &fake_env_ranked, 31);
	for (i = 0; i < ARRAY_SIZE(fake_rank); i++)
		fake_rank[i] = idle;
	for (i = 1; i <= 3; i++) {
		char gw[24];

		snprintf(gw, sizeof(gw), "192.0.2.%u@tcp", i);
		KUNIT_ASSERT_EQ(test, add(test, t, "tcp1", gw,
					  LNET_ROUTE_HOPS_UNSET, 0, NULL), 0);
	}
	/*
	 * Spec 3.2 step 4: between routes equal in priority and hops, the
	 * healthier gateway NI, then the one with fewer bytes queued, then
	 * the one with more credits; equal: they take turns.
	 */
	KUNIT_EXPECT_STREQ(test, sorted(choices(test, t, "tcp1", LNET_NET_ANY,
						3)), "123");
	fake_rank[2].healthv = 900;	/* 2 failed once */
	KUNIT_EXPECT_STREQ(test, sorted(choices(test, t, "tcp1", LNET_NET_ANY,
						4)), "1133");
	fake_rank[1].txqnob = 1 << 20;	/* 1 has 1 MiB queued */
	KUNIT_EXPECT_STREQ(test, choices(test, t, "tcp1", LNET_NET_ANY, 3),
			   "333");
	fake_rank[1].txqnob = 0;
	fake_rank[3].credits = 2;	/* 3 has fewer credits left */
	KUNIT_EXPECT_STREQ(test, choices(test, t, "tcp1", LNET_NET_ANY, 3),
			   "111");
	/*
	 * Health ranks before load: 2, idle but less healthy, is not
	 * chosen while 1 and 3 have 1 MiB queued each (1 wins by credits).
	 */
	fake_rank[1].txqnob = 1 << 20;
	fake_rank[3].txqnob = 1 << 20;
	KUNIT_EXPECT_STREQ(test, choices(test, t, "tcp1", LNET_NET_ANY, 2),
			   "11");
	/* all equal again: turns */
	for (i = 0; i < ARRAY_SIZE(fake_rank); i++)
		fake_rank[i] = idle;
	KUNIT_EXPECT_STREQ(test, sorted(choices(test, t, "tcp1", LNET_NET_ANY,
						3)), "123");
	lnet_route_table_flush(t);
}

static struct kunit_case lnet_route_cases[] = {
	KUNIT_CASE(route_insert),
	KUNIT_CASE(route_add_checks),
	KUNIT_CASE(route_priority_order),
	KUNIT_CASE(route_hops_unset_is_one),
	KUNIT_CASE(route_spreading),
	KUNIT_CASE(route_source_net),
	KUNIT_CASE(route_udsp_preferred),
	KUNIT_CASE(route_udsp_multirail_gateway),
	KUNIT_CASE(route_udsp_fallback),
	KUNIT_CASE(route_gateway_rank),
	KUNIT_CASE(route_delete),
	KUNIT_CASE(route_gateway_net_deleted),
	KUNIT_CASE(route_unusable_skipped),
	KUNIT_CASE(route_response_hint),
	KUNIT_CASE(route_asym_check),
	KUNIT_CASE(route_alive_rules),
	KUNIT_CASE(route_ping_update_rules),
	KUNIT_CASE(route_health_not_counted),
	KUNIT_CASE(route_check_before_use),
	KUNIT_CASE(route_gateway_state_decides),
	KUNIT_CASE(route_router_net_unpinged),
	{}
};

static struct kunit_suite lnet_route_suite = {
	.name = "lnet_route",
	.test_cases = lnet_route_cases,
};

kunit_test_suite(lnet_route_suite);

MODULE_DESCRIPTION("KUnit tests for the LNet route table");
MODULE_LICENSE("GPL");
