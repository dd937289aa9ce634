// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the ip2nets= module parameter (lnet/ip2nets.c) resolved against
 * a made-up node: stock's examples, ranges with lists and steps,
 * comments and separators, the first matching rule of a net winning,
 * interfaces down and lo never matching, malformed rules (refused
 * wherever they are) and nothing matching, and the extack messages.
 * The same cases as the host test nid_grammar runs on lnetctl's
 * "net add --ip2net" (utils/lnetctl/nidrange.c), which must agree.
 */
#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/netlink.h>
#include <linux/string.h>

#include <lnet/ip2nets.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/*
 * The node: eth0 192.168.0.5 and its alias eth0:1 192.168.0.77, ib0
 * 10.0.0.4, eth2 10.1.0.6 (down), lo.
 */
static const struct lnet_ip2nets_if node[] = {
	{ "lo", 0x7f000001, true },
	{ "eth0", 0xc0a80005, true },
	{ "eth0:1", 0xc0a8004d, true },
	{ "ib0", 0x0a000004, true },
	{ "eth2", 0x0a010006, false },
};

/* @rules on the node give @want (a networks= string, or "" on error). */
static int ip2(struct kunit *test, const char *rules, const char *want)
{
	char nets[256];
	int rc;

	rc = lnet_ip2nets_resolve(rules, node, ARRAY_SIZE(node), nets,
				  sizeof(nets), NULL);
	KUNIT_EXPECT_STREQ_MSG(test, nets, want, "ip2nets=\"%s\"", rules);
	return rc;
}

static void ip2nets_stock_examples(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ip2(test, "tcp(eth0) 192.168.0.*; o2ib 10.0.0.[2-10]",
				  "tcp(eth0),o2ib(ib0)"), 0);
	/* no interfaces listed: those whose addresses matched */
	KUNIT_EXPECT_EQ(test, ip2(test, "tcp 192.168.0.*", "tcp(eth0,eth0:1)"), 0);
	KUNIT_EXPECT_EQ(test, ip2(test, "tcp 192.168.0.77", "tcp(eth0:1)"), 0);
	KUNIT_EXPECT_EQ(test, ip2(test, "o2ib1(ib0) 10.0.0.4 192.168.0.*",
				  "o2ib1(ib0)"), 0);
	KUNIT_EXPECT_EQ(test, ip2(test, "tcp1(eth0,ib0) *.*.*.*",
				  "tcp1(eth0,ib0)"), 0);
	/* several ranges: any of them */
	KUNIT_EXPECT_EQ(test, ip2(test, "tcp 10.9.*.* 10.0.0.4 192.168.0.5",
				  "tcp(eth0,ib0)"), 0);
}

static void ip2nets_ranges(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ip2(test, "tcp 10.0.0.[0-8/2]", "tcp(ib0)"), 0);
	KUNIT_EXPECT_EQ(test, ip2(test, "tcp 10.0.0.[1-9/2]", ""), -ENODEV);
	KUNIT_EXPECT_EQ(test, ip2(test, "tcp 10.0.[0,2,7-9].4", "tcp(ib0)"), 0);
	KUNIT_EXPECT_EQ(test, ip2(test, "tcp 10.0.[1,2,7-9].4", ""), -ENODEV);
	KUNIT_EXPECT_EQ(test, ip2(test, "tcp [190-200/2].168.[0].[5,77]",
				  "tcp(eth0,eth0:1)"), 0);
	KUNIT_EXPECT_EQ(test, ip2(test, "tcp 192.168.0.[0-255/5]", "tcp(eth0)"), 0);
	/* "*" as an item of a list, as stock's cfs_expr_list takes it */
	KUNIT_EXPECT_EQ(test, ip2(test, "tcp 10.0.0.[*]", "tcp(ib0)"), 0);
}

static void ip2nets_comments(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ip2(test,
				  "# the cluster\ntcp(eth0) 192.168.0.*  # eth0\n; ;\to2ib1 10.*.*.* #\n#end",
				  "tcp(eth0),o2ib1(ib0)"), 0);
	KUNIT_EXPECT_EQ(test, ip2(test, "  tcp\t192.168.0.5 ;", "tcp(eth0)"), 0);
}

static void ip2nets_first_rule_wins(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ip2(test,
				  "tcp 10.9.*.*; tcp(ib0) 10.0.0.4; tcp(eth0) 192.168.0.5",
				  "tcp(ib0)"), 0);
	/* tcp and tcp0 are one net */
	KUNIT_EXPECT_EQ(test, ip2(test, "tcp 10.0.0.4; tcp0 192.168.0.5; tcp1 192.168.0.5",
				  "tcp(ib0),tcp1(eth0)"), 0);
	/* a rule that matches nothing is passed by */
	KUNIT_EXPECT_EQ(test, ip2(test, "o2ib 10.9.*.*; tcp 10.0.0.4", "tcp(ib0)"), 0);
}

static void ip2nets_down_and_lo(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ip2(test, "tcp 10.1.0.6", ""), -ENODEV);
	KUNIT_EXPECT_EQ(test, ip2(test, "tcp 127.0.0.1", ""), -ENODEV);
	/* listed interfaces come up once any address matches (stock) */
	KUNIT_EXPECT_EQ(test, ip2(test, "tcp(eth2) 192.168.0.5", "tcp(eth2)"), 0);
}

static void ip2nets_malformed(struct kunit *test)
{
	static const char * const bad[] = {
		"", ";", "# only a comment", "tcp", "tcp(eth0)",
		"tcp() 1.2.3.4", "tcp(eth0 1.2.3.4", "tcp)eth0 1.2.3.4",
		"tcp(eth0)x 1.2.3.4", "tcp(,) 1.2.3.4",
		"tcp(eth0123456789abc) 1.2.3.4", "tcp(:eth0) 1.2.3.4",
		"lo 127.0.0.1", "foo 1.2.3.4", "tcp 1.2.3", "tcp 1.2.3.4.5",
		"tcp 1.2.3.256", "tcp 1.2.3.[4-2]", "tcp 1.2.3.[1-4/0]",
		"tcp 1.2.3.[1,]", "tcp 1.2.3.1-4", "tcp 1.2..4", "tcp 1.2.3.4.",
		"tcp 1.2.3.[1-300]", "tcp *", "tcp 1.2.3.4@tcp",
		/* after a rule that matched, or in one passed by */
		"tcp 192.168.0.5; o2ib 1.2.3",
		"tcp 192.168.0.5; tcp 1.2.3",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, ip2(test, bad[i], ""), -EINVAL,
				    "\"%s\"", bad[i]);
}

static void ip2nets_too_big(struct kunit *test)
{
	char nets[12];

	KUNIT_EXPECT_EQ(test, ip2(test,
				  "tcp 1.1.1.1 1.1.1.2 1.1.1.3 1.1.1.4 1.1.1.5 1.1.1.6 1.1.1.7 1.1.1.8 1.1.1.9 1.1.1.10 1.1.1.11 1.1.1.12 1.1.1.13 1.1.1.14 1.1.1.15 1.1.1.16 1.1.1.17",
				  ""), -E2BIG);
	KUNIT_EXPECT_EQ(test, lnet_ip2nets_resolve("tcp 192.168.0.*", node,
						   ARRAY_SIZE(node), nets,
						   sizeof(nets), NULL), -E2BIG);
	KUNIT_EXPECT_STREQ(test, nets, "");
	KUNIT_EXPECT_EQ(test, lnet_ip2nets_resolve("tcp(eth0) *.*.*.*", node,
						   ARRAY_SIZE(node), nets,
						   sizeof(nets), NULL), 0);
	KUNIT_EXPECT_STREQ(test, nets, "tcp(eth0)");
}

static void ip2nets_messages(struct kunit *test)
{
	struct netlink_ext_ack ext = {};
	char nets[64];

	KUNIT_EXPECT_EQ(test, lnet_ip2nets_resolve("tcp 10.9.*.*", node,
						   ARRAY_SIZE(node), nets,
						   sizeof(nets), &ext), -ENODEV);
	KUNIT_EXPECT_STREQ(test, ext._msg, "no interfaces match ip2nets rules");
	memset(&ext, 0, sizeof(ext));
	KUNIT_EXPECT_EQ(test, lnet_ip2nets_resolve("tcp 1.2.3.[9-1]", node,
						   ARRAY_SIZE(node), nets,
						   sizeof(nets), &ext), -EINVAL);
	KUNIT_EXPECT_STREQ(test, ext._msg,
			   "bad ip2nets=: a bad IP range");
	memset(&ext, 0, sizeof(ext));
	KUNIT_EXPECT_EQ(test, lnet_ip2nets_resolve("tcpx 1.2.3.4", node,
						   ARRAY_SIZE(node), nets,
						   sizeof(nets), &ext), -EINVAL);
	KUNIT_EXPECT_STREQ(test, ext._msg,
			   "bad ip2nets=: a rule's net is not a network");
	/* no addresses at all */
	KUNIT_EXPECT_EQ(test, lnet_ip2nets_resolve("tcp *.*.*.*", NULL, 0, nets,
						   sizeof(nets), NULL), -ENODEV);
}

static struct kunit_case lnet_ip2nets_cases[] = {
	KUNIT_CASE(ip2nets_stock_examples),
	KUNIT_CASE(ip2nets_ranges),
	KUNIT_CASE(ip2nets_comments),
	KUNIT_CASE(ip2nets_first_rule_wins),
	KUNIT_CASE(ip2nets_down_and_lo),
	KUNIT_CASE(ip2nets_malformed),
	KUNIT_CASE(ip2nets_too_big),
	KUNIT_CASE(ip2nets_messages),
	{}
};

static struct kunit_suite lnet_ip2nets_suite = {
	.name = "lnet_ip2nets",
	.test_cases = lnet_ip2nets_cases,
};

kunit_test_suite(lnet_ip2nets_suite);

MODULE_DESCRIPTION("KUnit tests for the ip2nets= module parameter");
MODULE_LICENSE("GPL");
