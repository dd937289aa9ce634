// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the DNS backend's parser of a resolver answer (nidmap/dns.c):
 * the NID list lnet-nid-resolver(8) hands the kernel from a TXT record.
 * It came from the network, so every malformed list is refused whole.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../nidmap/node.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static int parse(struct kunit *test, const char *list, struct nidmap_rec *rec)
{
	return nidmap_dns_parse(list, strlen(list), "oss0", rec);
}

static void expect_nid(struct kunit *test, const struct nidmap_rec *rec,
		       unsigned int i, const char *str)
{
	struct lnet_nid nid;

	KUNIT_ASSERT_EQ(test, lnet_nid_from_str(str, &nid), 0);
	KUNIT_EXPECT_TRUE_MSG(test, lnet_nid_equal(&rec->nids[i], &nid),
			      "NID %u is not %s", i, str);
}

static void dns_parse_good(struct kunit *test)
{
	struct nidmap_rec *rec = kunit_kzalloc(test, sizeof(*rec), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, rec);
	/* Failover order kept; commas or spaces; other nets taken. */
	KUNIT_ASSERT_EQ(test, parse(test, "192.0.2.10@tcp,10.0.0.5@o2ib1 192.0.2.11@tcp2",
				    rec), 0);
	KUNIT_EXPECT_EQ(test, rec->nnids, 3);
	KUNIT_EXPECT_STREQ(test, rec->name, "oss0");
	KUNIT_EXPECT_EQ(test, rec->version, 0ULL);
	expect_nid(test, rec, 0, "192.0.2.10@tcp");
	expect_nid(test, rec, 1, "10.0.0.5@o2ib1");
	expect_nid(test, rec, 2, "192.0.2.11@tcp2");
	/* A NID listed twice counts once, in its first place. */
	KUNIT_ASSERT_EQ(test, parse(test, "192.0.2.10@tcp,192.0.2.11@tcp,192.0.2.10@tcp,",
				    rec), 0);
	KUNIT_EXPECT_EQ(test, rec->nnids, 2);
	expect_nid(test, rec, 1, "192.0.2.11@tcp");
	/* No net: tcp, as every NID string (Lustre's libcfs_str2nid()). */
	KUNIT_ASSERT_EQ(test, parse(test, "192.0.2.10", rec), 0);
	expect_nid(test, rec, 0, "192.0.2.10@tcp");
	/* IPv6 (large NIDs). */
	KUNIT_ASSERT_EQ(test, parse(test, "2001:db8::1@tcp", rec), 0);
	KUNIT_EXPECT_EQ(test, rec->nnids, 1);
}

static void dns_parse_bad(struct kunit *test)
{
	struct nidmap_rec *rec = kunit_kzalloc(test, sizeof(*rec), GFP_KERNEL);
	static const char * const bad[] = {
		"",
		",, ,",
		"192.0.2.10@tcp,bogus",
		"192.0.2.10@nosuchlnd",
		"0@lo",				/* loopback: no table entry */
		"192.0.2.10@tcp,192.0.2.300@tcp",
		"192.0.2.10@tcp;rm",
		/* a token longer than any NID */
		"192.0.2.10@tcp,1111111111111111111111111111111111111111111111111111111111111111@tcp",
	};
	char *many;
	unsigned int i;
	int n = 0;

	KUNIT_ASSERT_NOT_NULL(test, rec);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, parse(test, bad[i], rec), -EPROTO,
				    "'%s' taken", bad[i]);
	/* A NUL inside the answer. */
	KUNIT_EXPECT_EQ(test, nidmap_dns_parse("192.0.2.10@tcp\0x", 16, "oss0", rec),
			-EPROTO);
	/* NIDMAP_NIDS_MAX NIDs taken, one more refused. */
	many = kunit_kzalloc(test, 32 * (NIDMAP_NIDS_MAX + 1), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, many);
	for (i = 0; i < NIDMAP_NIDS_MAX; i++)
		n += sprintf(many + n, "192.0.2.%u@tcp,", i + 1);
	KUNIT_EXPECT_EQ(test, parse(test, many, rec), 0);
	KUNIT_EXPECT_EQ(test, rec->nnids, NIDMAP_NIDS_MAX);
	sprintf(many + n, "192.0.2.200@tcp");
	KUNIT_EXPECT_EQ(test, parse(test, many, rec), -EPROTO);
	/* A target name that does not fit a record. */
	KUNIT_EXPECT_EQ(test, nidmap_dns_parse("192.0.2.10@tcp", 14,
					       "a-name-longer-than-the-sixty-three-characters-a-record-holds-xyz",
					       rec), -EPROTO);
}

static struct kunit_case nidmap_dns_cases[] = {
	KUNIT_CASE(dns_parse_good),
	KUNIT_CASE(dns_parse_bad),
	{}
};

static struct kunit_suite nidmap_dns_suite = {
	.name = "nidmap_dns",
	.test_cases = nidmap_dns_cases,
};

kunit_test_suite(nidmap_dns_suite);
MODULE_DESCRIPTION("KUnit: nidmap's DNS backend");
MODULE_LICENSE("GPL");
