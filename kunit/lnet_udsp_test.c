// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: UDSP rules (lnet/udsp.c) on a private list.  What a rule may be
 * (a term and a priority, a NID pair, or a router preference: --dst with
 * --rte, never with --src, each refusal saying why), what each form
 * gives (a local net, local NI, peer net or peer NI priority, a
 * preferred local NID, or a preferred gateway NID), and that the first
 * matching rule wins.  That route selection follows the preferred
 * gateways is lnet_route_test.c's route_udsp_* cases.
 */
#include <kunit/test.h>
#include <kunit/visibility.h>

#include <lnet/lib-lnet.h>
#include <lnet/udsp.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

struct udsp_case {
	const char *src, *dst, *rte;
	bool has_prio;
	u32 prio;
	int rc;			/* 0 or what lnet_udsp_parse() fails with */
};

static const struct udsp_case udsp_cases[] = {
	{ "tcp", NULL, NULL, true, 0, 0 },
	{ "tcp1", NULL, NULL, true, 7, 0 },
	{ "192.0.2.[1-4]@tcp", NULL, NULL, true, 1, 0 },
	{ "*@o2ib", NULL, NULL, true, 1, 0 },
	{ NULL, "o2ib1", NULL, true, 2, 0 },
	{ NULL, "192.0.2.[10-20/2]@tcp 10.0.0.1@o2ib", NULL, true, 2, 0 },
	{ "*@tcp", "192.0.2.10@tcp", NULL, false, 0, 0 },
	{ "tcp", "tcp1", NULL, false, 0, 0 },
	/* router preferences: --dst with --rte, a net or NIDs each */
	{ NULL, "192.0.2.1@tcp", "10.0.0.1@o2ib", false, 0, 0 },
	{ NULL, "tcp1", "o2ib", false, 0, 0 },
	{ NULL, "*@tcp1", "10.0.0.[1-4]@o2ib 192.0.2.1@tcp", false, 0, 0 },
	/* refused */
	{ NULL, NULL, NULL, true, 1, -EINVAL },		/* no term */
	{ "", "", NULL, true, 1, -EINVAL },
	{ "tcp", NULL, NULL, false, 0, -EINVAL },	/* no priority */
	{ NULL, "tcp", NULL, false, 0, -EINVAL },
	{ "tcp", "tcp", NULL, true, 1, -EINVAL },	/* pair + priority */
	{ "tcp", NULL, NULL, true, LNET_UDSP_PRIO_NONE, -EINVAL },
	{ "nonsense", NULL, NULL, true, 1, -EINVAL },
	{ "192.0.2.1@", NULL, NULL, true, 1, -EINVAL },
	{ NULL, "1.2.3.[9-2]@tcp", NULL, true, 1, -EINVAL },
	{ NULL, "192.0.2.1@tcp", "10.0.0.1@o2ib", true, 0, -EINVAL },
	{ "tcp", NULL, "10.0.0.1@o2ib", false, 0, -EINVAL },	/* src+rte */
	{ "tcp", "tcp1", "10.0.0.1@o2ib", false, 0, -EINVAL },
	{ NULL, NULL, "10.0.0.1@o2ib", false, 0, -EINVAL },	/* rte alone */
	{ NULL, "tcp1", "10.0.0.[4-1]@o2ib", false, 0, -EINVAL },
};

/* What the refusals of the router-preference forms say. */
static const struct {
	const char *src, *dst, *rte;
	bool has_prio;
	const char *msg;
} udsp_rte_refusals[] = {
	{ "tcp", NULL, "10.0.0.1@o2ib", false,
	  "--rte goes with --dst only, not with --src" },
	{ "tcp", "tcp1", "10.0.0.1@o2ib", false,
	  "--rte goes with --dst only, not with --src" },
	{ NULL, NULL, "10.0.0.1@o2ib", false,
	  "--rte needs --dst: the peers that prefer the gateways" },
	{ NULL, "tcp1", "10.0.0.1@o2ib", true,
	  "a router preference (--dst with --rte) takes no --priority" },
	{ NULL, "tcp1", "10.0.0.[4-1]@o2ib", false,
	  "--rte: not a net or NID range" },
};

static void udsp_rte_refused(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(udsp_rte_refusals); i++) {
		const char *text[LNET_UDSP_TERMS] = {
			udsp_rte_refusals[i].src, udsp_rte_refusals[i].dst,
			udsp_rte_refusals[i].rte,
		};
		struct netlink_ext_ack extack = {};
		struct lnet_udsp *u;

		u = lnet_udsp_parse(text, udsp_rte_refusals[i].has_prio, 1,
				    &extack);
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(u), -EINVAL,
				    "case %u", i);
		if (!IS_ERR(u))
			lnet_udsp_free(u);
		KUNIT_EXPECT_STREQ_MSG(test, extack._msg ?: "",
				       udsp_rte_refusals[i].msg, "case %u", i);
	}
}

static void udsp_parse_cases(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(udsp_cases); i++) {
		const struct udsp_case *c = &udsp_cases[i];
		const char *text[LNET_UDSP_TERMS] = { c->src, c->dst, c->rte };
		struct netlink_ext_ack extack = {};
		struct lnet_udsp *u;

		u = lnet_udsp_parse(text, c->has_prio, c->prio, &extack);
		if (c->rc) {
			KUNIT_EXPECT_TRUE_MSG(test, IS_ERR(u), "case %u", i);
			if (IS_ERR(u))
				KUNIT_EXPECT_EQ_MSG(test, PTR_ERR(u),
						    (long)c->rc, "case %u", i);
			else
				lnet_udsp_free(u);
			/* every refusal says why */
			KUNIT_EXPECT_NOT_NULL_MSG(test, extack._msg,
						  "case %u", i);
			continue;
		}
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(u), "case %u: %ld", i,
				       PTR_ERR(u));
		KUNIT_EXPECT_EQ(test, u->udsp_prio,
				c->has_prio ? c->prio : LNET_UDSP_PRIO_NONE);
		lnet_udsp_free(u);
	}
}

static void udsp_canonical_text(struct kunit *test)
{
	const char *text[LNET_UDSP_TERMS] = { "tcp0", "192.0.2.[1-4]@tcp",
					      NULL };
	struct lnet_udsp *u = lnet_udsp_parse(text, false, 0, NULL);

	KUNIT_ASSERT_FALSE(test, IS_ERR(u));
	KUNIT_EXPECT_STREQ(test, u->udsp_term[LNET_UDSP_SRC].text, "tcp");
	KUNIT_EXPECT_STREQ(test, u->udsp_term[LNET_UDSP_DST].text,
			   "192.0.2.[1-4]@tcp");
	KUNIT_EXPECT_STREQ(test, u->udsp_term[LNET_UDSP_RTE].text, "");
	lnet_udsp_free(u);
}

/* Append the rule (@src, @dst, @rte, priority @prio or none) to @rules. */
static void udsp_rule3(struct kunit *test, struct list_head *rules,
		       const char *src, const char *dst, const char *rte,
		       s64 prio)
{
	const char *text[LNET_UDSP_TERMS] = { src, dst, rte };
	struct lnet_udsp *u = lnet_udsp_parse(text, prio >= 0,
					      prio >= 0 ? prio : 0, NULL);

	KUNIT_ASSERT_FALSE(test, IS_ERR(u));
	list_add_tail(&u->udsp_list, rules);
}

/* Append the rule (@src, @dst, priority @prio or a pair) to @rules. */
static void udsp_rule(struct kunit *test, struct list_head *rules,
		      const char *src, const char *dst, s64 prio)
{
	udsp_rule3(test, rules, src, dst, NULL, prio);
}

static void udsp_rules_free(struct list_head *rules)
{
	struct lnet_udsp *u, *tmp;

	list_for_each_entry_safe(u, tmp, rules, udsp_list) {
		list_del(&u->udsp_list);
		lnet_udsp_free(u);
	}
}

static struct lnet_nid udsp_nid(struct kunit *test, const char *s)
{
	struct lnet_nid nid;

	KUNIT_ASSERT_EQ(test, lnet_nid_from_str(s, &nid), 0);
	return nid;
}

static void udsp_priorities(struct kunit *test)
{
	struct lnet_nid a = udsp_nid(test, "192.0.2.1@tcp");
	struct lnet_nid b = udsp_nid(test, "192.0.2.9@tcp");
	struct lnet_nid c = udsp_nid(test, "10.0.0.1@o2ib1");
	u32 tcp = lnet_mknet(LNET_LND_SOCK, 0);
	u32 o2ib1 = lnet_mknet(LNET_LND_O2IB, 1);
	LIST_HEAD(rules);

	udsp_rule(test, &rules, "192.0.2.[1-4]@tcp", NULL, 3);
	udsp_rule(test, &rules, "*@tcp", NULL, 5);	/* after: loses for a */
	udsp_rule(test, &rules, "tcp", NULL, 1);
	udsp_rule(test, &rules, NULL, "o2ib1", 4);
	udsp_rule(test, &rules, NULL, "10.0.0.[1-2]@o2ib1", 6);
	udsp_rule(test, &rules, "*@o2ib1", "192.0.2.9@tcp", -1);  /* pair */

	/* local NIs: the first rule that matches */
	KUNIT_EXPECT_EQ(test, lnet_udsp_prio_find(&rules, LNET_UDSP_SRC, false,
						  &a, LNET_NET_ANY), 3U);
	KUNIT_EXPECT_EQ(test, lnet_udsp_prio_find(&rules, LNET_UDSP_SRC, false,
						  &b, LNET_NET_ANY), 5U);
	KUNIT_EXPECT_EQ(test, lnet_udsp_prio_find(&rules, LNET_UDSP_SRC, false,
						  &c, LNET_NET_ANY),
			LNET_UDSP_PRIO_NONE);
	/* local nets: only net rules */
	KUNIT_EXPECT_EQ(test, lnet_udsp_prio_find(&rules, LNET_UDSP_SRC, true,
						  &LNET_ANY_NID, tcp), 1U);
	KUNIT_EXPECT_EQ(test, lnet_udsp_prio_find(&rules, LNET_UDSP_SRC, true,
						  &LNET_ANY_NID, o2ib1),
			LNET_UDSP_PRIO_NONE);
	/* peer nets and peer NIs: --dst rules only, not the local ones */
	KUNIT_EXPECT_EQ(test, lnet_udsp_prio_find(&rules, LNET_UDSP_DST, true,
						  &LNET_ANY_NID, o2ib1), 4U);
	KUNIT_EXPECT_EQ(test, lnet_udsp_prio_find(&rules, LNET_UDSP_DST, true,
						  &LNET_ANY_NID, tcp),
			LNET_UDSP_PRIO_NONE);
	KUNIT_EXPECT_EQ(test, lnet_udsp_prio_find(&rules, LNET_UDSP_DST, false,
						  &c, LNET_NET_ANY), 6U);
	KUNIT_EXPECT_EQ(test, lnet_udsp_prio_find(&rules, LNET_UDSP_DST, false,
						  &a, LNET_NET_ANY),
			LNET_UDSP_PRIO_NONE);
	/* the pair: b prefers any o2ib1 NI, and nothing else pairs */
	KUNIT_EXPECT_TRUE(test, lnet_udsp_pair_find(&rules, &b, &c));
	KUNIT_EXPECT_FALSE(test, lnet_udsp_pair_find(&rules, &a, &c));
	KUNIT_EXPECT_FALSE(test, lnet_udsp_pair_find(&rules, &b, &a));
	udsp_rules_free(&rules);
	/* no rules: no priority */
	KUNIT_EXPECT_EQ(test, lnet_udsp_prio_find(&rules, LNET_UDSP_SRC, false,
						  &a, LNET_NET_ANY),
			LNET_UDSP_PRIO_NONE);
}

static void udsp_router_preferences(struct kunit *test)
{
	struct lnet_nid d1 = udsp_nid(test, "192.0.2.10@tcp1");
	struct lnet_nid d2 = udsp_nid(test, "192.0.2.20@tcp1");
	struct lnet_nid d3 = udsp_nid(test, "10.0.0.9@o2ib1");
	struct lnet_nid g1 = udsp_nid(test, "192.0.2.1@tcp");
	struct lnet_nid g2 = udsp_nid(test, "192.0.2.2@tcp");
	struct lnet_nid g3 = udsp_nid(test, "10.0.0.1@o2ib");
	LIST_HEAD(rules);

	udsp_rule3(test, &rules, NULL, "192.0.2.10@tcp1", "192.0.2.1@tcp", -1);
	udsp_rule3(test, &rules, NULL, "o2ib1", "o2ib", -1);
	udsp_rule(test, &rules, "tcp", "192.0.2.20@tcp1", -1);	/* a pair */
	udsp_rule(test, &rules, NULL, "tcp1", 2);	/* a priority */

	/* the gateways each destination prefers, and whether it has any */
	KUNIT_EXPECT_TRUE(test, lnet_udsp_rte_find(&rules, &d1, &g1));
	KUNIT_EXPECT_FALSE(test, lnet_udsp_rte_find(&rules, &d1, &g2));
	KUNIT_EXPECT_FALSE(test, lnet_udsp_rte_find(&rules, &d1, &g3));
	KUNIT_EXPECT_TRUE(test, lnet_udsp_rte_find(&rules, &d1,
						   &LNET_ANY_NID));
	KUNIT_EXPECT_FALSE(test, lnet_udsp_rte_find(&rules, &d2, &g1));
	KUNIT_EXPECT_FALSE(test, lnet_udsp_rte_find(&rules, &d2,
						    &LNET_ANY_NID));
	KUNIT_EXPECT_TRUE(test, lnet_udsp_rte_find(&rules, &d3, &g3));
	KUNIT_EXPECT_FALSE(test, lnet_udsp_rte_find(&rules, &d3, &g1));
	/* the forms do not mix: a router preference is no NID pair, ... */
	KUNIT_EXPECT_FALSE(test, lnet_udsp_pair_find(&rules, &d1, &g1));
	KUNIT_EXPECT_TRUE(test, lnet_udsp_pair_find(&rules, &d2, &g2));
	/* ... the pair prefers no gateway, and neither gives a priority */
	KUNIT_EXPECT_FALSE(test, lnet_udsp_rte_find(&rules, &d2, &g2));
	KUNIT_EXPECT_EQ(test, lnet_udsp_prio_find(&rules, LNET_UDSP_DST, true,
						  &LNET_ANY_NID,
						  lnet_nid_net(&d1)), 2U);
	KUNIT_EXPECT_EQ(test, lnet_udsp_prio_find(&rules, LNET_UDSP_DST, true,
						  &LNET_ANY_NID,
						  lnet_nid_net(&d3)),
			LNET_UDSP_PRIO_NONE);
	udsp_rules_free(&rules);
	KUNIT_EXPECT_FALSE(test, lnet_udsp_rte_find(&rules, &d1, &g1));
}

static struct kunit_case lnet_udsp_cases[] = {
	KUNIT_CASE(udsp_parse_cases),
	KUNIT_CASE(udsp_rte_refused),
	KUNIT_CASE(udsp_router_preferences),
	KUNIT_CASE(udsp_canonical_text),
	KUNIT_CASE(udsp_priorities),
	{}
};

static struct kunit_suite lnet_udsp_suite = {
	.name = "lnet_udsp",
	.test_cases = lnet_udsp_cases,
};

kunit_test_suite(lnet_udsp_suite);

MODULE_DESCRIPTION("KUnit tests for LNet UDSP rules");
MODULE_LICENSE("GPL");
