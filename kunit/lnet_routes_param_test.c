// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the routes= module parameter's grammar (lnet/routes-param.c,
 * routing spec 10.2) against a fake node whose own NID is 192.0.2.10@tcp
 * and whose add records each route: separators and comments, the hop
 * token, priorities, bracketed expansions and their errors, the invalid
 * nets and gateways, the cross product of nets and gateways, a gateway
 * of our own (the node becomes "a router", spec 5.2), and which add
 * errors are ignored (-EEXIST, -EHOSTUNREACH) and which stop the parse.
 */
#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/string.h>

#include <lnet/nid.h>
#include <lnet/route.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define RP_MAX	64

/* The fake node: the routes it was asked to add, as text. */
struct rp_node {
	char	added[RP_MAX][96];
	int	nadded;
	int	rc;		/* what add returns, unless rc_nid matches */
	const char *rc_nid;	/* gateway for which add returns rc_nid_rc */
	int	rc_nid_rc;
};

static bool rp_nid_local(const struct lnet_nid *nid, void *arg)
{
	struct lnet_nid me;

	return !lnet_nid_from_str("192.0.2.10@tcp", &me) &&
	       lnet_nid_equal(&me, nid);
}

static int rp_add(u32 net, const struct lnet_nid *gw, u32 hops, u32 priority,
		  void *arg)
{
	struct rp_node *n = arg;
	char netstr[32], nidstr[64], line[96];
	int i;

	lnet_net_to_str(net, netstr, sizeof(netstr));
	lnet_nid_to_str(gw, nidstr, sizeof(nidstr));
	if (n->rc_nid && !strcmp(nidstr, n->rc_nid))
		return n->rc_nid_rc;
	if (n->rc)
		return n->rc;
	if (hops == LNET_ROUTE_HOPS_UNSET)
		snprintf(line, sizeof(line), "%s %s - %u", netstr, nidstr,
			 priority);
	else
		snprintf(line, sizeof(line), "%s %s %u %u", netstr, nidstr,
			 hops, priority);
	/* the same net through the same gateway, whatever else */
	for (i = 0; i < n->nadded; i++)
		if (!strncmp(n->added[i], line,
			     strlen(netstr) + strlen(nidstr) + 2))
			return -EEXIST;
	if (n->nadded < RP_MAX)
		strscpy(n->added[n->nadded++], line, sizeof(line));
	return 0;
}

static const struct lnet_routes_param_ops rp_ops = {
	.nid_local	= rp_nid_local,
	.add		= rp_add,
};

/*
 * Apply @str to a fresh node (after checking the syntax alone gives the
 * same answer); the routes added, joined by "|", in @out.
 */
static int rp_run(struct kunit *test, struct rp_node *n, const char *str,
		  bool *router, char *out, size_t size)
{
	char why[256];
	bool r = false;
	int rc, rc0, i;

	rc0 = lnet_routes_param_apply(str, NULL, NULL, &r, why, sizeof(why));
	KUNIT_EXPECT_FALSE(test, r);
	rc = lnet_routes_param_apply(str, &rp_ops, n, &r, why, sizeof(why));
	if (rc0)
		KUNIT_EXPECT_EQ_MSG(test, rc, rc0, "%s", str);
	if (rc)
		KUNIT_EXPECT_NE_MSG(test, (int)strlen(why), 0,
				    "no reason for %s", str);
	out[0] = '\0';
	for (i = 0; i < n->nadded; i++) {
		if (i)
			strlcat(out, "|", size);
		strlcat(out, n->added[i], size);
	}
	if (router)
		*router = r;
	return rc;
}

static void rp_expect(struct kunit *test, const char *str, const char *want)
{
	struct rp_node *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	char *out = kunit_kzalloc(test, 2048, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, n);
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_EXPECT_EQ_MSG(test, rp_run(test, n, str, NULL, out, 2048), 0,
			    "%s", str);
	KUNIT_EXPECT_STREQ_MSG(test, out, want, "%s", str);
}

static void rp_expect_err(struct kunit *test, const char *str)
{
	struct rp_node *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	char why[256];
	bool r = false;

	KUNIT_ASSERT_NOT_NULL(test, n);
	/* the syntax check alone refuses it, so nothing is ever added */
	KUNIT_EXPECT_EQ_MSG(test, lnet_routes_param_apply(str, NULL, NULL, &r,
							  why, sizeof(why)),
			    -EINVAL, "%s", str);
	KUNIT_EXPECT_NE_MSG(test, (int)strlen(why), 0, "no reason for %s",
			    str);
	KUNIT_EXPECT_EQ_MSG(test, lnet_routes_param_apply(str, &rp_ops, n, &r,
							  why, sizeof(why)),
			    -EINVAL, "%s", str);
}

static void rp_separators(struct kunit *test)
{
	rp_expect(test, "", "");
	rp_expect(test, "  ;\n;\r ", "");
	rp_expect(test, "o2ib 192.0.2.1@tcp",
		  "o2ib 192.0.2.1@tcp - 0");
	rp_expect(test,
		  "o2ib 192.0.2.1@tcp;o2ib1 192.0.2.1@tcp\no2ib2 192.0.2.1@tcp\ro2ib3 192.0.2.1@tcp",
		  "o2ib 192.0.2.1@tcp - 0|o2ib1 192.0.2.1@tcp - 0|o2ib2 192.0.2.1@tcp - 0|o2ib3 192.0.2.1@tcp - 0");
	rp_expect(test, " \t o2ib \t 192.0.2.1@tcp \t ; ",
		  "o2ib 192.0.2.1@tcp - 0");
	/* a comment runs to the next separator, not to the end */
	rp_expect(test, "# all of this; o2ib 192.0.2.1@tcp",
		  "o2ib 192.0.2.1@tcp - 0");
	rp_expect(test, "o2ib 192.0.2.1@tcp # o2ib9 192.0.2.2@tcp\no2ib1 192.0.2.2@tcp #",
		  "o2ib 192.0.2.1@tcp - 0|o2ib1 192.0.2.2@tcp - 0");
	rp_expect(test, "#o2ib 192.0.2.1@tcp", "");
}

static void rp_hops(struct kunit *test)
{
	rp_expect(test, "o2ib 1 192.0.2.1@tcp", "o2ib 192.0.2.1@tcp 1 0");
	rp_expect(test, "o2ib 255 192.0.2.1@tcp", "o2ib 192.0.2.1@tcp 255 0");
	rp_expect(test, "o2ib 7 192.0.2.1@tcp 192.0.2.2@tcp:3",
		  "o2ib 192.0.2.1@tcp 7 0|o2ib 192.0.2.2@tcp 7 3");
	/* unset stays unset, not 1 */
	rp_expect(test, "o2ib 192.0.2.1@tcp", "o2ib 192.0.2.1@tcp - 0");
	/* not 1..255, or not plain decimal: a gateway, and a bad one */
	rp_expect_err(test, "o2ib 0 192.0.2.1@tcp");
	rp_expect_err(test, "o2ib 256 192.0.2.1@tcp");
	rp_expect_err(test, "o2ib +3 192.0.2.1@tcp");
	rp_expect_err(test, "o2ib 0x3 192.0.2.1@tcp");
	/* only the second token can be hops */
	rp_expect_err(test, "o2ib 192.0.2.1@tcp 3");
	/* hops but no gateway */
	rp_expect_err(test, "o2ib 3");
}

static void rp_priority(struct kunit *test)
{
	rp_expect(test, "o2ib 192.0.2.1@tcp:0", "o2ib 192.0.2.1@tcp - 0");
	rp_expect(test, "o2ib 192.0.2.1@tcp:4294967295",
		  "o2ib 192.0.2.1@tcp - 4294967295");
	/* an address without "@" is on tcp */
	rp_expect(test, "o2ib 192.0.2.1:2", "o2ib 192.0.2.1@tcp - 2");
	/* an IPv6 gateway: the priority follows the net */
	rp_expect(test, "o2ib 2001:db8::1@tcp:5",
		  "o2ib 2001:db8::1@tcp - 5");
	rp_expect_err(test, "o2ib 192.0.2.1@tcp:");
	rp_expect_err(test, "o2ib 192.0.2.1@tcp:x");
	rp_expect_err(test, "o2ib 192.0.2.1@tcp:-1");
	rp_expect_err(test, "o2ib 192.0.2.1@tcp:4294967296");
	rp_expect_err(test, "o2ib 192.0.2.1@tcp:1:2");
}

static void rp_expansion(struct kunit *test)
{
	rp_expect(test, "o2ib[1-3] 192.0.2.1@tcp",
		  "o2ib1 192.0.2.1@tcp - 0|o2ib2 192.0.2.1@tcp - 0|o2ib3 192.0.2.1@tcp - 0");
	rp_expect(test, "o2ib 10.0.0.[1-9/2,20]@tcp",
		  "o2ib 10.0.0.1@tcp - 0|o2ib 10.0.0.3@tcp - 0|o2ib 10.0.0.5@tcp - 0|o2ib 10.0.0.7@tcp - 0|o2ib 10.0.0.9@tcp - 0|o2ib 10.0.0.20@tcp - 0");
	/* literal items, a single number, a range of one */
	rp_expect(test, "[o2ib,tcp3] 192.0.2.1@tcp",
		  "o2ib 192.0.2.1@tcp - 0|tcp3 192.0.2.1@tcp - 0");
	rp_expect(test, "o2ib[4,7-7] 192.0.2.1@tcp",
		  "o2ib4 192.0.2.1@tcp - 0|o2ib7 192.0.2.1@tcp - 0");
	/*
	 * The priority is part of what is expanded; two brackets.  The
	 * second priority of a gateway is the same route (-EEXIST).
	 */
	rp_expect(test, "o2ib 192.0.2.1@tcp:[7]", "o2ib 192.0.2.1@tcp - 7");
	rp_expect(test, "o2ib 192.0.2.[1-2]@tcp:[5,6]",
		  "o2ib 192.0.2.1@tcp - 5|o2ib 192.0.2.2@tcp - 5");
	rp_expect(test, "o2ib 10.[1-2].0.[3,4]@tcp",
		  "o2ib 10.1.0.3@tcp - 0|o2ib 10.1.0.4@tcp - 0|o2ib 10.2.0.3@tcp - 0|o2ib 10.2.0.4@tcp - 0");
	/* leading zeros are numbers */
	rp_expect(test, "o2ib[08-09] 192.0.2.1@tcp",
		  "o2ib8 192.0.2.1@tcp - 0|o2ib9 192.0.2.1@tcp - 0");
	/* nets outer, gateways inner; hops for all */
	rp_expect(test, "o2ib[1-2] 2 192.0.2.[1-2]@tcp:1",
		  "o2ib1 192.0.2.1@tcp 2 1|o2ib1 192.0.2.2@tcp 2 1|o2ib2 192.0.2.1@tcp 2 1|o2ib2 192.0.2.2@tcp 2 1");

	rp_expect_err(test, "o2ib[3-1] 192.0.2.1@tcp");
	rp_expect_err(test, "o2ib 10.0.0.[1-10/4]@tcp");	/* 9 % 4 */
	/* the spec's own example: 9 is not a multiple of 2, as stock */
	rp_expect_err(test, "o2ib 10.0.0.[1-10/2,20]@tcp");
	rp_expect_err(test, "o2ib [1-2].[1-2].[1-2].[1-2]@tcp[1-2]");	/* 5 */
	rp_expect_err(test, "o2ib 10.0.0.[1-3/0]@tcp");
	rp_expect_err(test, "o2ib 10.0.0.[1-3x]@tcp");
	rp_expect_err(test, "o2ib 10.0.0.[1-3/x]@tcp");
	rp_expect_err(test, "o2ib[1-3 192.0.2.1@tcp");
	rp_expect_err(test, "o2ib[] 192.0.2.1@tcp");
	/* an expansion that gives a bad NID */
	rp_expect_err(test, "o2ib 10.0.0.[250-256]@tcp");
	rp_expect_err(test, "o2ib 10.0.0.1]@tcp");
	rp_expect_err(test, "o2ib[1-5000] 192.0.2.1@tcp");	/* > 4096 */
}

static void rp_invalid(struct kunit *test)
{
	rp_expect_err(test, "lo 192.0.2.1@tcp");
	rp_expect_err(test, "lo[0-1] 192.0.2.1@tcp");
	rp_expect_err(test, "<?> 192.0.2.1@tcp");
	rp_expect_err(test, "bogus 192.0.2.1@tcp");
	rp_expect_err(test, "o2ib 0@lo");
	rp_expect_err(test, "o2ib <?>");
	rp_expect_err(test, "o2ib 192.0.2.300@tcp");
	rp_expect_err(test, "o2ib 192.0.2.1@bogus");
	rp_expect_err(test, "o2ib");
	/* a bad entry after good ones: the syntax check adds nothing */
	rp_expect_err(test, "o2ib 192.0.2.1@tcp; o2ib1 192.0.2.1@");
}

static void rp_router(struct kunit *test)
{
	struct rp_node *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	char out[256];
	bool router;

	KUNIT_ASSERT_NOT_NULL(test, n);
	KUNIT_EXPECT_EQ(test, rp_run(test, n, "o2ib 192.0.2.10@tcp 192.0.2.1@tcp",
				     &router, out, sizeof(out)), 0);
	KUNIT_EXPECT_TRUE(test, router);
	KUNIT_EXPECT_STREQ(test, out, "o2ib 192.0.2.1@tcp - 0");

	memset(n, 0, sizeof(*n));
	KUNIT_EXPECT_EQ(test, rp_run(test, n, "o2ib 192.0.2.1@tcp", &router,
				     out, sizeof(out)), 0);
	KUNIT_EXPECT_FALSE(test, router);
}

static void rp_add_errors(struct kunit *test)
{
	struct rp_node *n = kunit_kzalloc(test, sizeof(*n), GFP_KERNEL);
	char out[256];

	KUNIT_ASSERT_NOT_NULL(test, n);
	/* duplicates: -EEXIST, ignored */
	KUNIT_EXPECT_EQ(test, rp_run(test, n, "o2ib 192.0.2.1@tcp; o2ib 192.0.2.1@tcp:4",
				     NULL, out, sizeof(out)), 0);
	KUNIT_EXPECT_STREQ(test, out, "o2ib 192.0.2.1@tcp - 0");

	/* a gateway on a net that is not local: skipped */
	memset(n, 0, sizeof(*n));
	n->rc_nid = "10.0.0.1@tcp5";
	n->rc_nid_rc = -EHOSTUNREACH;
	KUNIT_EXPECT_EQ(test, rp_run(test, n, "o2ib 10.0.0.1@tcp5 192.0.2.1@tcp",
				     NULL, out, sizeof(out)), 0);
	KUNIT_EXPECT_STREQ(test, out, "o2ib 192.0.2.1@tcp - 0");

	/* any other error stops at once */
	memset(n, 0, sizeof(*n));
	n->rc_nid = "192.0.2.2@tcp";
	n->rc_nid_rc = -ENOMEM;
	KUNIT_EXPECT_EQ(test,
			rp_run(test, n,
			       "o2ib 192.0.2.1@tcp 192.0.2.2@tcp 192.0.2.3@tcp; o2ib1 192.0.2.1@tcp",
			       NULL, out, sizeof(out)), -ENOMEM);
	KUNIT_EXPECT_STREQ(test, out, "o2ib 192.0.2.1@tcp - 0");

	/* the table's -EINVAL (the gateway on the remote net) too */
	memset(n, 0, sizeof(*n));
	n->rc = -EINVAL;
	KUNIT_EXPECT_EQ(test, rp_run(test, n, "tcp 192.0.2.1@tcp", NULL, out,
				     sizeof(out)), -EINVAL);
}

static void rp_message(struct kunit *test)
{
	char why[256];
	bool r = false;

	KUNIT_EXPECT_EQ(test, lnet_routes_param_apply("o2ib 1.2.3.4@tcp; o2ib[3-1] 192.0.2.1@tcp",
						      NULL, NULL, &r, why,
						      sizeof(why)), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "\"o2ib[3-1]\""));
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "3-1"));
	KUNIT_EXPECT_EQ(test, lnet_routes_param_apply("o2ib 0@lo", NULL, NULL,
						      &r, why, sizeof(why)),
			-EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "0@lo"));
	/* no buffer for the reason is fine */
	KUNIT_EXPECT_EQ(test, lnet_routes_param_apply("o2ib", NULL, NULL, &r,
						      NULL, 0), -EINVAL);
}

static struct kunit_case lnet_routes_param_cases[] = {
	KUNIT_CASE(rp_separators),
	KUNIT_CASE(rp_hops),
	KUNIT_CASE(rp_priority),
	KUNIT_CASE(rp_expansion),
	KUNIT_CASE(rp_invalid),
	KUNIT_CASE(rp_router),
	KUNIT_CASE(rp_add_errors),
	KUNIT_CASE(rp_message),
	{}
};

static struct kunit_suite lnet_routes_param_suite = {
	.name = "lnet_routes_param",
	.test_cases = lnet_routes_param_cases,
};

kunit_test_suite(lnet_routes_param_suite);

MODULE_DESCRIPTION("KUnit tests for the routes= module parameter");
MODULE_LICENSE("GPL");
