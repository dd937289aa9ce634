// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: NID lists in Lustre's syntax (lnet/nidlist.c): parsing, matching,
 * the canonical format, rejection of malformed lists and expansion.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/string.h>

#include <lnet/nid.h>
#include <lnet/nidlist.h>

struct match_case {
	const char *list;
	const char *yes[7];	/* NIDs that must match; NULL ends */
	const char *no[9];	/* NIDs that must not match; NULL ends */
};

static const struct match_case match_cases[] = {
	{ "192.0.2.[1-10/2]@tcp",
	  { "192.0.2.1@tcp", "192.0.2.3@tcp", "192.0.2.9@tcp0" },
	  { "192.0.2.2@tcp", "192.0.2.10@tcp", "192.0.2.11@tcp",
	    "192.0.2.1@tcp1", "192.0.2.1@o2ib", "192.0.3.1@tcp" } },
	{ "10.[0-1].*.[5,7,9-11]@o2ib1",
	  { "10.0.0.5@o2ib1", "10.1.255.11@o2ib1", "10.0.7.9@o2ib1",
	    "10.1.3.10@o2ib1", "10.0.128.7@o2ib1" },
	  { "10.2.0.5@o2ib1", "10.0.0.6@o2ib1", "10.0.0.12@o2ib1",
	    "10.0.0.8@o2ib1", "10.0.0.5@o2ib", "10.0.0.5@tcp1",
	    "11.0.0.5@o2ib1" } },
	{ "*@tcp",
	  { "192.168.1.2@tcp", "0.0.0.0@tcp", "2001:db8::1@tcp" },
	  { "192.168.1.2@tcp1", "42@gni", "0@lo", "<?>" } },
	{ "0@lo", { "0@lo" }, { "0.0.0.0@tcp", "0@gni", "<?>" } },
	{ "*@lo", { "0@lo" }, { "0@gni", "0.0.0.0@tcp" } },
	{ "[0]@lo", { "0@lo" }, { "0@kfi" } },
	{ "[1-100]@gni",
	  { "1@gni", "100@gni", "0x32@gni" },
	  { "0@gni", "101@gni", "50@gni1", "50@kfi", "0.0.0.50@tcp" } },
	{ "[4294967290-4294967295/2]@kfi",
	  { "4294967290@kfi", "4294967292@kfi", "4294967294@kfi" },
	  { "4294967291@kfi", "4294967295@kfi", "4294967288@kfi",
	    "0@kfi" } },
	{ "*@gni", { "0@gni", "4294967295@gni" }, { "0@gni1", "0@kfi" } },
	{ "2001:db8::1@tcp",
	  { "2001:db8:0::1@tcp" },
	  /* 32.1.13.184 is the first address word of 2001:db8:: */
	  { "2001:db8::2@tcp", "2001:db8::1@tcp1", "0.0.0.1@tcp",
	    "32.1.13.184@tcp" } },
	{ "0x2a@gni", { "42@gni" }, { "43@gni", "42@gni1" } },
	{ "192.168.0.1@tcp 10.0.0.[1-2]@o2ib *@gni1",
	  { "192.168.0.1@tcp", "10.0.0.2@o2ib", "7@gni1" },
	  { "192.168.0.2@tcp", "10.0.0.3@o2ib", "7@gni" } },
	{ " \t1.2.3.4@tcp\n5.6.7.8@tcp  ",
	  { "1.2.3.4@tcp", "5.6.7.8@tcp" }, { "1.2.3.5@tcp" } },
	{ "[*,5].0.0.1@tcp",
	  { "9.0.0.1@tcp", "255.0.0.1@tcp" }, { "9.0.0.2@tcp" } },
	{ "1.2.3.[5-5/7]@efa",
	  { "1.2.3.5@efa" }, { "1.2.3.12@efa", "1.2.3.5@tcp" } },
	{ "010.001.0.[0-255/255]@gip2",
	  { "10.1.0.0@gip2", "10.1.0.255@gip2" },
	  { "10.1.0.1@gip2", "10.1.0.254@gip2" } },
	{ "1.2.3.4@tcp0", { "1.2.3.4@tcp" }, { "1.2.3.4@tcp1" } },
	{ "[5,1-3,100-200/50]@bxi3f",
	  { "5@bxi3f", "2@bxi3f", "150@bxi3f", "200@bxi3f" },
	  { "4@bxi3f", "175@bxi3f", "0@bxi3f", "5@bxi3f1" } },
	/* The range form covers only four-byte addresses. */
	{ "*.*.*.*@tcp", { "1.2.3.4@tcp" }, { "2001:db8::1@tcp" } },
};

/* Each must give -EINVAL and leave the result NULL. */
static const char * const invalid_lists[] = {
	"", " ", "\t\n ", "@", "@tcp", "*", "*@", "1.2.3.4@", "1.2.3.4",
	"1.2.3.4@tcp@tcp", "1.2.3.4@@tcp", "1.2.3.4@foo", "1.2.3.4@TCP",
	"1.2.3.4@tcp65536", "1.2.3.4@tcp-1", "1.2.3.4@tcp\xa0",
	"1.2.3.4@lo", "1.2.3.4@gni", "5@tcp", "[1-3]@tcp",
	"0@lo1", "0@lo0", "1@lo", "[0-1]@lo", "[*]@lo", "0.0.0.0@lo",
	"*.*@tcp", "1.2.3@tcp", "1.2.3.4.5@tcp", "1.2.3.256@tcp",
	"1.2.3.[1-256]@tcp", "1.2.3.[5-1]@tcp", "1.2.3.[1-5/0]@tcp",
	"1.2.3.[5-5/0]@tcp", "1.2.3.[1-5/256]@tcp", "1.2.3.[]@tcp",
	"1.2.3.[1,]@tcp", "1.2.3.[,1]@tcp", "1.2.3.[1,,2]@tcp",
	"1.2.3.[1@tcp", "1.2.3.1]@tcp", "1.2.3.[[1]]@tcp", "1.2.3.[1-]@tcp",
	"1.2.3.[-1]@tcp", "1.2.3.[1-2-3]@tcp", "1.2.3.[1/2]@tcp",
	"1.2.3.[1-5/2/2]@tcp", "1.2.3.1-5@tcp", "1.2.3.[1-5]/2@tcp",
	"1.2.3.[*-5]@tcp", "1.2.3.[1-*]@tcp", "1.2.3.**@tcp",
	"1.2.3.*5@tcp", "1.2.3.4x@tcp", "1.2..4@tcp", ".1.2.3.4@tcp",
	"1.2.3.4.@tcp", "1.2.3.+4@tcp", "1.2.3.[+4]@tcp", "1.2.3.[1 - 5]@tcp",
	"-1@gni", "+1@gni", "4294967296@gni", "[0-4294967296]@gni",
	"99999999999@gni", "[1-5/4294967296]@gni", "[1-5/0]@gni",
	"[5-1]@gni", "[1-100]@gni1x", "1,2@gni", "[1,2]]@gni", "**@tcp",
	"*.*.*.*@gni", "0x@gni", "0x1g@gni", "0x[1-2]@gni", "[0x1-0x2]@gni",
	"1.2.3.0x4@tcp", "<?>", "<?>@tcp", "*@<?>", "*@*",
	"2001:db8::[1-5]@tcp", "2001:db8::1@gni", "[2001:db8::1]@tcp",
	/* One bad expression spoils the list (and must free the rest). */
	"[1-100]@gni 1.2.3.4", "1.2.3.4@tcp junk", "1.2.3.4@tcp 5@tcp",
	"1.2.3.4@tcp,5.6.7.8@tcp", "0@lo 1@lo", "*@tcp7 *@tcp65536",
};

struct format_case {
	const char *in;
	const char *canon;
};

static const struct format_case format_cases[] = {
	{ "192.0.2.[1-10/2]@tcp", "192.0.2.[1-10/2]@tcp" },
	{ "10.[0-1].*.[5,7,9-11]@o2ib1", "10.[0-1].*.[5,7,9-11]@o2ib1" },
	{ "  1.2.3.4@tcp0\t[0-255].0.0.[1-1]@o2ib\n",
	  "1.2.3.4@tcp *.0.0.1@o2ib" },
	{ "[5].[0-255/1].[3-3/9].[1-7/1]@tcp", "5.*.3.[1-7]@tcp" },
	{ "[*,5].1.2.3@tcp", "[*,5].1.2.3@tcp" },
	{ "*@tcp", "*@tcp" },
	{ "*@lo", "*@lo" },
	{ "0@lo", "0@lo" },
	{ "[0]@lo", "0@lo" },
	{ "00@lo", "0@lo" },
	{ "[1-100]@gni", "[1-100]@gni" },
	{ "[0-4294967295]@kfi", "*@kfi" },
	{ "[*]@gni", "*@gni" },
	{ "0x2a@gni2", "42@gni2" },
	{ "2001:db8:0::1@tcp", "2001:db8::1@tcp" },
	{ "010.001.0.1@tcp", "10.1.0.1@tcp" },
	{ "7@gni 7@gni", "7@gni 7@gni" },
	{ "1.2.3.[1-5/2,9,0-255]@efa", "1.2.3.[1-5/2,9,*]@efa" },
	{ "[4294967290-4294967295/2]@kfi65535",
	  "[4294967290-4294967295/2]@kfi65535" },
	{ "*.*.*.*@tcp", "*.*.*.*@tcp" },
	{ "[1-3/5]@gni", "[1-3/5]@gni" },
	{ "[3,1]@ptlf2 1.2.3.4@gip", "[3,1]@ptlf2 1.2.3.4@gip" },
};

struct expand_case {
	const char *list;
	unsigned int max;
	int want;		/* NID count, or -E2BIG */
};

static const struct expand_case expand_cases[] = {
	{ "192.0.2.[1-4]@tcp", 4, 4 },
	{ "192.0.2.[1-4]@tcp", 3, -E2BIG },
	{ "10.[0-1].*.[5,7,9-11]@o2ib1", 2560, 2560 },
	{ "10.[0-1].*.[5,7,9-11]@o2ib1", 2559, -E2BIG },
	{ "1.2.3.[1-5,3-4,5]@tcp", 8, 5 },
	{ "1.2.3.[1-4]@tcp 1.2.3.[3-6]@tcp", 8, 6 },
	{ "1.2.3.[1-4]@tcp 1.2.3.[3-6]@tcp", 5, -E2BIG },
	{ "1.2.3.[1-4]@tcp 1.2.3.[3-6]@tcp1", 8, 8 },
	{ "1.2.3.[1-4]@tcp 1.2.3.[3-6]@tcp1", 7, -E2BIG },
	{ "*@tcp", 1000, -E2BIG },
	{ "*@gni", UINT_MAX, -E2BIG },
	{ "1.2.3.4@tcp *@tcp", 10, -E2BIG },
	{ "7@gni1 *@gni1", 10, -E2BIG },
	{ "*@lo", 1, 1 },
	{ "0@lo *@lo [0]@lo", 1, 1 },
	{ "[4294967290-4294967295/2]@kfi", 8, 3 },
	{ "[1-100]@gni", 100, 100 },
	{ "[1-100]@gni", 99, -E2BIG },
	{ "[1-100/10,*]@gni", 1000, -E2BIG },
	{ "2001:db8::1@tcp 1.2.3.4@tcp 2001:db8:0::1@tcp", 8, 2 },
	{ "0x2a@gni 42@gni [40-44]@gni", 8, 5 },
	{ "1.2.3.4@tcp", 0, -E2BIG },
	{ "1.2.3.4@tcp", 1, 1 },
	{ "1.2.3.[0-255/255]@tcp", 2, 2 },
	{ "*.*.*.*@tcp", 65536, -E2BIG },
};

static bool nid_of(struct kunit *test, const char *str, struct lnet_nid *nid)
{
	int rc = lnet_nid_from_str(str, nid);

	KUNIT_EXPECT_EQ_MSG(test, rc, 0, "bad test NID \"%s\"", str);
	return !rc;
}

static void nidlist_match(struct kunit *test)
{
	struct lnet_nidlist *nl;
	struct lnet_nid nid;
	int i, j, rc;

	for (i = 0; i < ARRAY_SIZE(match_cases); i++) {
		const struct match_case *c = &match_cases[i];

		rc = lnet_nidlist_parse(c->list, &nl);
		KUNIT_EXPECT_EQ_MSG(test, rc, 0, "parse \"%s\"", c->list);
		if (rc)
			continue;
		for (j = 0; j < ARRAY_SIZE(c->yes) && c->yes[j]; j++)
			if (nid_of(test, c->yes[j], &nid))
				KUNIT_EXPECT_TRUE_MSG(test,
						      lnet_nidlist_match(nl, &nid),
						      "%s not in \"%s\"",
						      c->yes[j], c->list);
		for (j = 0; j < ARRAY_SIZE(c->no) && c->no[j]; j++)
			if (nid_of(test, c->no[j], &nid))
				KUNIT_EXPECT_FALSE_MSG(test,
						       lnet_nidlist_match(nl, &nid),
						       "%s in \"%s\"",
						       c->no[j], c->list);
		lnet_nidlist_free(nl);
	}
}

static void nidlist_invalid(struct kunit *test)
{
	struct lnet_nidlist *nl;
	int i, rc;

	for (i = 0; i < ARRAY_SIZE(invalid_lists); i++) {
		nl = ERR_PTR(-ESRCH);
		rc = lnet_nidlist_parse(invalid_lists[i], &nl);
		KUNIT_EXPECT_EQ_MSG(test, rc, -EINVAL, "accepted \"%s\"",
				    invalid_lists[i]);
		KUNIT_EXPECT_PTR_EQ_MSG(test, nl, (struct lnet_nidlist *)NULL,
					"result of \"%s\"", invalid_lists[i]);
		if (!IS_ERR_OR_NULL(nl))
			lnet_nidlist_free(nl);
	}
	lnet_nidlist_free(NULL);
}

static void nidlist_format(struct kunit *test)
{
	struct lnet_nidlist *nl, *again;
	char buf[128], buf2[128];
	int i, n, rc;

	for (i = 0; i < ARRAY_SIZE(format_cases); i++) {
		const struct format_case *c = &format_cases[i];

		rc = lnet_nidlist_parse(c->in, &nl);
		KUNIT_EXPECT_EQ_MSG(test, rc, 0, "parse \"%s\"", c->in);
		if (rc)
			continue;
		n = lnet_nidlist_to_str(nl, buf, sizeof(buf));
		KUNIT_EXPECT_STREQ_MSG(test, buf, c->canon, "format \"%s\"",
				       c->in);
		KUNIT_EXPECT_EQ(test, n, (int)strlen(c->canon));
		lnet_nidlist_free(nl);

		/* The canonical form parses and formats to itself. */
		rc = lnet_nidlist_parse(buf, &again);
		KUNIT_EXPECT_EQ_MSG(test, rc, 0, "reparse \"%s\"", buf);
		if (rc)
			continue;
		lnet_nidlist_to_str(again, buf2, sizeof(buf2));
		KUNIT_EXPECT_STREQ(test, buf2, buf);
		lnet_nidlist_free(again);
	}
}

/* snprintf() semantics at every buffer size, including 0. */
static void nidlist_format_truncates(struct kunit *test)
{
	static const char canon[] =
		"192.0.2.[1-10/2]@tcp 2001:db8::1@o2ib3 0@lo *@gni7";
	const int len = sizeof(canon) - 1;
	struct lnet_nidlist *nl;
	char buf[sizeof(canon) + 8];
	size_t size;
	int n;

	KUNIT_ASSERT_EQ(test, lnet_nidlist_parse(canon, &nl), 0);
	KUNIT_EXPECT_EQ(test, lnet_nidlist_to_str(nl, NULL, 0), len);
	for (size = 1; size <= sizeof(canon) + 1; size++) {
		size_t want = min_t(size_t, size - 1, len);

		memset(buf, 'x', sizeof(buf));
		n = lnet_nidlist_to_str(nl, buf, size);
		KUNIT_EXPECT_EQ_MSG(test, n, len, "size %zu", size);
		KUNIT_EXPECT_EQ_MSG(test, strlen(buf), want, "size %zu", size);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(buf, canon, want), 0,
				    "size %zu", size);
		KUNIT_EXPECT_EQ_MSG(test, buf[size], 'x', "size %zu", size);
	}
	lnet_nidlist_free(nl);
}

static void nidlist_expand_counts(struct kunit *test)
{
	struct lnet_nidlist *nl;
	struct lnet_nid *nids;
	int i, j, k, n, dups, rc;

	for (i = 0; i < ARRAY_SIZE(expand_cases); i++) {
		const struct expand_case *c = &expand_cases[i];

		rc = lnet_nidlist_parse(c->list, &nl);
		KUNIT_EXPECT_EQ_MSG(test, rc, 0, "parse \"%s\"", c->list);
		if (rc)
			continue;
		n = lnet_nidlist_expand(nl, NULL, c->max);
		KUNIT_EXPECT_EQ_MSG(test, n, c->want, "count \"%s\" max %u",
				    c->list, c->max);
		if (c->want <= 0) {
			lnet_nidlist_free(nl);
			continue;
		}

		nids = kunit_kcalloc(test, c->want, sizeof(*nids), GFP_KERNEL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, nids);
		n = lnet_nidlist_expand(nl, nids, c->want);
		KUNIT_EXPECT_EQ_MSG(test, n, c->want, "expand \"%s\"", c->list);
		KUNIT_EXPECT_EQ_MSG(test, lnet_nidlist_expand(nl, nids,
							      c->want - 1),
				    -E2BIG, "expand \"%s\" short", c->list);
		/* Refill: the short expansion overwrote the array. */
		lnet_nidlist_expand(nl, nids, c->want);

		/* Every NID is covered by the list, and none twice. */
		dups = 0;
		for (j = 0; j < c->want; j++) {
			KUNIT_EXPECT_TRUE(test, lnet_nidlist_match(nl, &nids[j]));
			for (k = 0; k < j; k++)
				if (lnet_nid_equal(&nids[j], &nids[k]))
					dups++;
		}
		KUNIT_EXPECT_EQ_MSG(test, dups, 0, "duplicates in \"%s\"",
				    c->list);
		kunit_kfree(test, nids);
		lnet_nidlist_free(nl);
	}
}

/* Input order of expressions, ascending addresses in each, no repeats. */
static void nidlist_expand_order(struct kunit *test)
{
	static const char list[] =
		"1.2.[1-2].[7,5]@tcp 9.9.9.9@tcp 1.2.1.7@tcp [3,1]@gni 2001:db8::1@tcp *@lo";
	static const char * const want[] = {
		"1.2.1.5@tcp", "1.2.1.7@tcp", "1.2.2.5@tcp", "1.2.2.7@tcp",
		"9.9.9.9@tcp", "1@gni", "3@gni", "2001:db8::1@tcp", "0@lo",
	};
	struct lnet_nid nids[ARRAY_SIZE(want)], nid;
	char buf[LNET_NIDSTR_SIZE];
	struct lnet_nidlist *nl;
	int i;

	KUNIT_ASSERT_EQ(test, lnet_nidlist_parse(list, &nl), 0);
	KUNIT_EXPECT_EQ(test, lnet_nidlist_expand(nl, nids, ARRAY_SIZE(nids)),
			(int)ARRAY_SIZE(want));
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		lnet_nid_to_str(&nids[i], buf, sizeof(buf));
		KUNIT_EXPECT_STREQ(test, buf, want[i]);
		/* Byte for byte what the NID parser gives. */
		if (nid_of(test, want[i], &nid))
			KUNIT_EXPECT_EQ_MSG(test,
					    memcmp(&nids[i], &nid, sizeof(nid)),
					    0, "layout of %s", want[i]);
	}
	lnet_nidlist_free(nl);
}

struct walk_state {
	unsigned int calls;
	unsigned int stop_at;	/* return @ret on this call; 0: never */
	int ret;
};

static int walk_cb(const struct lnet_nid *nid, void *data)
{
	struct walk_state *st = data;

	if (++st->calls == st->stop_at)
		return st->ret;
	return 0;
}

static void nidlist_for_each(struct kunit *test)
{
	struct walk_state st = {};
	struct lnet_nidlist *nl;

	KUNIT_ASSERT_EQ(test, lnet_nidlist_parse("192.0.2.[1-4]@tcp", &nl), 0);

	KUNIT_EXPECT_EQ(test, lnet_nidlist_for_each(nl, 4, walk_cb, &st), 0);
	KUNIT_EXPECT_EQ(test, st.calls, 4U);

	/* Over the limit: refused before any call. */
	st = (struct walk_state){};
	KUNIT_EXPECT_EQ(test, lnet_nidlist_for_each(nl, 3, walk_cb, &st),
			-E2BIG);
	KUNIT_EXPECT_EQ(test, st.calls, 0U);

	/* The callback stops the walk; its value is returned. */
	st = (struct walk_state){ .stop_at = 2, .ret = -EINTR };
	KUNIT_EXPECT_EQ(test, lnet_nidlist_for_each(nl, 4, walk_cb, &st),
			-EINTR);
	KUNIT_EXPECT_EQ(test, st.calls, 2U);

	st = (struct walk_state){ .stop_at = 4, .ret = 7 };
	KUNIT_EXPECT_EQ(test, lnet_nidlist_for_each(nl, 100, walk_cb, &st), 7);
	KUNIT_EXPECT_EQ(test, st.calls, 4U);
	lnet_nidlist_free(nl);
}

static struct kunit_case lnet_nidlist_cases[] = {
	KUNIT_CASE(nidlist_match),
	KUNIT_CASE(nidlist_invalid),
	KUNIT_CASE(nidlist_format),
	KUNIT_CASE(nidlist_format_truncates),
	KUNIT_CASE(nidlist_expand_counts),
	KUNIT_CASE(nidlist_expand_order),
	KUNIT_CASE(nidlist_for_each),
	{}
};

static struct kunit_suite lnet_nidlist_suite = {
	.name = "lnet_nidlist",
	.test_cases = lnet_nidlist_cases,
};

kunit_test_suite(lnet_nidlist_suite);

MODULE_DESCRIPTION("KUnit tests for LNet NID lists");
MODULE_LICENSE("GPL");
