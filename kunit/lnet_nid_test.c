// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: NID and network strings, nid4 <-> large NID conversion, and the
 * byte layouts given in the wire protocol specification, section 1.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include <lnet/nid.h>

#include "lnet_nid_vectors.h"

static void nid_parse_valid(struct kunit *test)
{
	char buf[LNET_NIDSTR_SIZE];
	int i;

	for (i = 0; i < ARRAY_SIZE(valid_nids); i++) {
		const struct nid_vector *c = &valid_nids[i];
		struct lnet_nid nid;
		u64 nid4 = 0;

		KUNIT_EXPECT_EQ_MSG(test, lnet_nid_from_str(c->str, &nid), 0,
				    "parse %s", c->str);
		KUNIT_EXPECT_EQ_MSG(test, lnet_nid4_from_str(c->str, &nid4), 0,
				    "parse4 %s", c->str);
		KUNIT_EXPECT_EQ_MSG(test, nid4, c->nid4, "value of %s", c->str);
		lnet_nid_to_str(&nid, buf, sizeof(buf));
		KUNIT_EXPECT_STREQ_MSG(test, buf, c->canon, "format %s", c->str);
		lnet_nid4_to_str(nid4, buf, sizeof(buf));
		KUNIT_EXPECT_STREQ_MSG(test, buf, c->canon, "format4 %s",
				       c->str);
	}
}

static void nid_parse_invalid(struct kunit *test)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(invalid_nids); i++) {
		struct lnet_nid nid = {};
		struct lnet_nid untouched = {};
		u64 nid4 = 0x1234;

		KUNIT_EXPECT_EQ_MSG(test, lnet_nid_from_str(invalid_nids[i],
							    &nid),
				    -EINVAL, "accepted \"%s\"", invalid_nids[i]);
		KUNIT_EXPECT_EQ_MSG(test, lnet_nid4_from_str(invalid_nids[i],
							     &nid4),
				    -EINVAL, "accepted4 \"%s\"",
				    invalid_nids[i]);
		/* A rejected string changes nothing. */
		KUNIT_EXPECT_EQ(test, memcmp(&nid, &untouched, sizeof(nid)), 0);
		KUNIT_EXPECT_EQ(test, nid4, 0x1234ULL);
	}
}

static void nid_ipv6(struct kunit *test)
{
	static const u8 want[20] = {
		12, LNET_LND_SOCK, 0x00, 0x05,
		0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
	};
	char buf[LNET_NIDSTR_SIZE];
	struct lnet_nid nid;
	u64 nid4 = 7;
	int i;

	KUNIT_ASSERT_EQ(test, lnet_nid_from_str("2001:db8::1@tcp5", &nid), 0);
	KUNIT_EXPECT_EQ(test, memcmp(&nid, want, sizeof(want)), 0);
	KUNIT_EXPECT_EQ(test, lnet_nid_addr_len(&nid), 16U);
	KUNIT_EXPECT_FALSE(test, lnet_nid_is_nid4(&nid));
	lnet_nid_to_str(&nid, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "2001:db8::1@tcp5");
	/* A 16-byte address has no 64-bit form. */
	KUNIT_EXPECT_EQ(test, lnet_nid4_from_str("2001:db8::1@tcp5", &nid4),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, nid4, 7ULL);

	for (i = 0; i < ARRAY_SIZE(valid_ipv6_nids); i++) {
		const struct nid_vector *c = &valid_ipv6_nids[i];

		KUNIT_EXPECT_EQ_MSG(test, lnet_nid_from_str(c->str, &nid), 0,
				    "parse %s", c->str);
		KUNIT_EXPECT_EQ(test, nid.nid_size, 12);
		lnet_nid_to_str(&nid, buf, sizeof(buf));
		KUNIT_EXPECT_STREQ_MSG(test, buf, c->canon, "format %s", c->str);
	}
}

/* Spec 1.4: a nid4-compatible large NID is the nid4 written big-endian. */
static void nid_large_layout(struct kunit *test)
{
	static const u8 want[20] = {
		0x00, 0x02, 0x00, 0x00, 0xC0, 0xA8, 0x01, 0x02,
	};
	struct lnet_nid nid, any = LNET_ANY_NID;
	u8 ones[20];

	lnet_nid4_to_nid(0x00020000C0A80102ULL, &nid);
	KUNIT_EXPECT_EQ(test, memcmp(&nid, want, sizeof(want)), 0);
	KUNIT_EXPECT_EQ(test, lnet_nid_to_nid4(&nid), 0x00020000C0A80102ULL);
	KUNIT_EXPECT_EQ(test, lnet_nid_net(&nid), 0x00020000U);

	memset(ones, 0xff, sizeof(ones));
	KUNIT_EXPECT_EQ(test, memcmp(&any, ones, sizeof(ones)), 0);
	lnet_nid4_to_nid(LNET_NID_ANY, &nid);
	KUNIT_EXPECT_TRUE(test, lnet_nid_is_any(&nid));
	KUNIT_EXPECT_EQ(test, lnet_nid_to_nid4(&nid), LNET_NID_ANY);
	KUNIT_EXPECT_EQ(test, lnet_nid_net(&nid), LNET_NET_ANY);
}

static void nid_equal(struct kunit *test)
{
	struct lnet_nid a, b, any = LNET_ANY_NID;

	KUNIT_ASSERT_EQ(test, lnet_nid_from_str("192.0.2.1@tcp", &a), 0);
	KUNIT_ASSERT_EQ(test, lnet_nid_from_str("192.0.2.1@tcp0", &b), 0);
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&a, &b));
	KUNIT_ASSERT_EQ(test, lnet_nid_from_str("192.0.2.1@tcp1", &b), 0);
	KUNIT_EXPECT_FALSE(test, lnet_nid_equal(&a, &b));
	KUNIT_ASSERT_EQ(test, lnet_nid_from_str("192.0.2.2@tcp", &b), 0);
	KUNIT_EXPECT_FALSE(test, lnet_nid_equal(&a, &b));
	KUNIT_EXPECT_FALSE(test, lnet_nid_equal(&a, &any));
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&any, &any));
}

/*
 * Equal NIDs hash equal, whatever their unused address bytes hold (a
 * header from the wire may set them): the peer table is keyed by both.
 */
static void nid_hash_follows_equal(struct kunit *test)
{
	struct lnet_nid a, b, any = LNET_ANY_NID, any2 = LNET_ANY_NID;

	KUNIT_ASSERT_EQ(test, lnet_nid_from_str("192.0.2.1@tcp", &a), 0);
	b = a;
	b.nid_addr[1] = cpu_to_be32(0xdeadbeef);
	b.nid_addr[3] = cpu_to_be32(7);
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&a, &b));
	KUNIT_EXPECT_EQ(test, lnet_nid_hash(&a, 0), lnet_nid_hash(&b, 0));
	KUNIT_EXPECT_EQ(test, lnet_nid_hash(&a, 42), lnet_nid_hash(&b, 42));
	b.nid_addr[0] = cpu_to_be32(0xc0000202);
	KUNIT_EXPECT_FALSE(test, lnet_nid_equal(&a, &b));
	KUNIT_EXPECT_NE(test, lnet_nid_hash(&a, 0), lnet_nid_hash(&b, 0));
	any2.nid_addr[2] = 0;
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&any, &any2));
	KUNIT_EXPECT_EQ(test, lnet_nid_hash(&any, 0), lnet_nid_hash(&any2, 0));
}

static void net_strings(struct kunit *test)
{
	char buf[16];
	u32 net;
	int i;

	for (i = 0; i < ARRAY_SIZE(valid_nets); i++) {
		const struct net_vector *c = &valid_nets[i];

		net = 0;
		KUNIT_EXPECT_EQ_MSG(test, lnet_net_from_str(c->str, &net), 0,
				    "parse %s", c->str);
		KUNIT_EXPECT_EQ_MSG(test, net, c->net, "value %s", c->str);
		lnet_net_to_str(net, buf, sizeof(buf));
		KUNIT_EXPECT_STREQ(test, buf, c->canon);
	}
	for (i = 0; i < ARRAY_SIZE(invalid_nets); i++) {
		net = 0x55;
		KUNIT_EXPECT_EQ_MSG(test, lnet_net_from_str(invalid_nets[i],
							    &net),
				    -EINVAL, "accepted \"%s\"",
				    invalid_nets[i]);
		KUNIT_EXPECT_EQ(test, net, 0x55U);
	}

	/* Unknown and wildcard networks still print something useful. */
	lnet_net_to_str(lnet_mknet(LNET_LND_TOFU, 2), buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "<17:2>");
	lnet_net_to_str(LNET_NET_ANY, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "<?>");
}

/* Formatting is snprintf-like: it reports the full length, never overflows. */
static void nid_format_truncates(struct kunit *test)
{
	char buf[8];
	int n;

	memset(buf, 'x', sizeof(buf));
	n = lnet_nid4_to_str(0x00020000C0A80102ULL, buf, 5);
	KUNIT_EXPECT_EQ(test, n, (int)strlen("192.168.1.2@tcp"));
	KUNIT_EXPECT_STREQ(test, buf, "192.");
	KUNIT_EXPECT_EQ(test, buf[5], 'x');

	n = lnet_nid4_to_str(0x00020000C0A80102ULL, buf, 0);
	KUNIT_EXPECT_EQ(test, n, (int)strlen("192.168.1.2@tcp"));
}

static struct kunit_case lnet_nid_cases[] = {
	KUNIT_CASE(nid_parse_valid),
	KUNIT_CASE(nid_parse_invalid),
	KUNIT_CASE(nid_ipv6),
	KUNIT_CASE(nid_large_layout),
	KUNIT_CASE(nid_equal),
	KUNIT_CASE(nid_hash_follows_equal),
	KUNIT_CASE(net_strings),
	KUNIT_CASE(nid_format_truncates),
	{}
};

static struct kunit_suite lnet_nid_suite = {
	.name = "lnet_nid",
	.test_cases = lnet_nid_cases,
};

kunit_test_suite(lnet_nid_suite);

MODULE_DESCRIPTION("KUnit tests for LNet NID strings");
MODULE_LICENSE("GPL");
