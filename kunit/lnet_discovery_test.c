// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: discovery's steps (lnet/discovery.c lnet_dc_next()) and its
 * merge rules (lnet/peer-merge.c, spec 7 step 2), these on the real peer
 * table of the loaded lnet.ko (LNet not configured: no NID is local).
 * Each case deletes the peers it made.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include <lnet/ctl.h>
#include <lnet/lib-lnet.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define MR_FEATURES	(LNET_PING_FEAT_NI_STATUS | \
			 LNET_PING_FEAT_MULTI_RAIL | LNET_PING_FEAT_DISCOVERY)

static struct lnet_nid disc_nid(struct kunit *test, const char *s)
{
	struct lnet_nid nid;

	KUNIT_EXPECT_EQ_MSG(test, lnet_nid_from_str(s, &nid), 0, "%s", s);
	return nid;
}

/*
 * Merge a buffer listing @strs (nid4 entries) with @statuses (NULL: not
 * passed) that @answered sent.
 */
static void disc_merge_st(struct kunit *test, u32 features,
			  const char *answered, const char * const *strs,
			  const u32 *statuses, unsigned int n)
{
	struct lnet_ping_data pd = {
		.features = features, .seq = 7, .nnis = n + 1, .nnids = n,
		.nnid4 = n,
	};
	struct lnet_nid nids[8], a = disc_nid(test, answered);
	unsigned int i;

	for (i = 0; i < n; i++)
		nids[i] = disc_nid(test, strs[i]);
	KUNIT_ASSERT_EQ(test, lnet_peer_merge(&a, &pd, nids, statuses, n), 0);
}

static void disc_merge(struct kunit *test, u32 features, const char *answered,
		       const char * const *strs, unsigned int n)
{
	disc_merge_st(test, features, answered, strs, NULL, n);
}

/* The health value and listed status of peer NI @nid. */
static void disc_ni_health(struct kunit *test, const char *nid, s32 *healthv,
			   u32 *status)
{
	struct lnet_peer_ni_info *info;
	struct lnet_nid n = disc_nid(test, nid);
	unsigned int i;

	info = kunit_kzalloc(test, sizeof(*info), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, info);
	*healthv = -1;
	*status = 0;
	for (i = 0; !lnet_peer_ni_info_get(i, info); i++) {
		if (lnet_nid_equal(&info->nid, &n)) {
			*healthv = info->healthv;
			*status = info->ns_status;
		}
	}
	KUNIT_EXPECT_GE_MSG(test, *healthv, 0, "%s not in the table", nid);
}

/*
 * The peer @nid belongs to: its primary NID, state and NIDs as one string
 * "prim|state|nid nid ...", in table order.
 */
static void disc_peer(struct kunit *test, const char *nid, char *out,
		      size_t size)
{
	struct lnet_peer_ni_info *info;
	struct lnet_nid n = disc_nid(test, nid), prim;
	char s[LNET_NIDSTR_SIZE];
	unsigned int i;
	size_t len;

	info = kunit_kzalloc(test, sizeof(*info), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, info);
	lnet_peer_primary_get(&n, &prim);
	out[0] = '\0';
	for (i = 0; !lnet_peer_ni_info_get(i, info); i++) {
		if (!lnet_nid_equal(&info->primary_nid, &prim))
			continue;
		len = strlen(out);
		if (!len) {
			lnet_nid_to_str(&prim, s, sizeof(s));
			len = scnprintf(out, size, "%s|%u|", s,
					info->peer_state);
		}
		lnet_nid_to_str(&info->nid, s, sizeof(s));
		scnprintf(out + len, size - len, "%s%s",
			  out[len - 1] == '|' ? "" : " ", s);
	}
}

static void disc_del(const char *prim)
{
	struct lnet_nid nid;

	if (!lnet_nid_from_str(prim, &nid))
		lnet_peer_del(&nid, NULL, true, NULL);
}

static void disc_mr_peer(struct kunit *test)
{
	static const char * const abc[] = {
		"192.0.2.101@tcp", "198.51.100.101@tcp1", "192.0.2.102@tcp",
	};
	static const char * const acd[] = {
		"192.0.2.101@tcp", "192.0.2.102@tcp", "192.0.2.103@tcp",
	};
	static const char * const dac[] = {
		"192.0.2.103@tcp", "192.0.2.101@tcp", "192.0.2.102@tcp",
	};
	char got[256];

	/* New: a multi-rail peer of all the NIDs listed. */
	disc_merge(test, MR_FEATURES, "192.0.2.101@tcp", abc, 3);
	disc_peer(test, "198.51.100.101@tcp1", got, sizeof(got));
	KUNIT_EXPECT_STREQ(test, got,
			   "192.0.2.101@tcp|1|192.0.2.101@tcp 192.0.2.102@tcp 198.51.100.101@tcp1");
	/* A NID no longer listed goes, a new one comes. */
	disc_merge(test, MR_FEATURES, "192.0.2.101@tcp", acd, 3);
	disc_peer(test, "192.0.2.101@tcp", got, sizeof(got));
	KUNIT_EXPECT_STREQ(test, got,
			   "192.0.2.101@tcp|1|192.0.2.101@tcp 192.0.2.102@tcp 192.0.2.103@tcp");
	/* The primary NID follows the buffer's first. */
	disc_merge(test, MR_FEATURES, "192.0.2.101@tcp", dac, 3);
	disc_peer(test, "192.0.2.101@tcp", got, sizeof(got));
	KUNIT_EXPECT_STREQ(test, got,
			   "192.0.2.103@tcp|1|192.0.2.101@tcp 192.0.2.102@tcp 192.0.2.103@tcp");
	disc_del("192.0.2.103@tcp");
	disc_peer(test, "192.0.2.101@tcp", got, sizeof(got));
	KUNIT_EXPECT_STREQ(test, got, "");
}

static void disc_configured(struct kunit *test)
{
	static const char * const yx[] = { "192.0.2.112@tcp", "192.0.2.111@tcp" };
	struct lnet_nid x = disc_nid(test, "192.0.2.111@tcp");
	struct lnet_nid z = disc_nid(test, "192.0.2.113@tcp");
	char got[256];

	/* Configured, locked primary X, and a configured NID Z. */
	KUNIT_ASSERT_EQ(test, lnet_peer_add(&x, &z, 1, true, true, NULL), 0);
	disc_merge(test, MR_FEATURES, "192.0.2.111@tcp", yx, 2);
	disc_peer(test, "192.0.2.112@tcp", got, sizeof(got));
	/* X stays primary (locked); Z stays (configured); Y joins. */
	KUNIT_EXPECT_STREQ(test, got,
			   "192.0.2.111@tcp|1048585|192.0.2.111@tcp 192.0.2.113@tcp 192.0.2.112@tcp");
	disc_del("192.0.2.111@tcp");
}

static void disc_no_discovery(struct kunit *test)
{
	static const char * const ef[] = { "192.0.2.121@tcp", "192.0.2.122@tcp" };
	char got[256];

	/* A node without DISCOVERY: one NID to us, NO_DISCOVERY. */
	disc_merge(test, LNET_PING_FEAT_NI_STATUS, "192.0.2.121@tcp", ef, 2);
	disc_peer(test, "192.0.2.121@tcp", got, sizeof(got));
	KUNIT_EXPECT_STREQ(test, got, "192.0.2.121@tcp|2|192.0.2.121@tcp");
	disc_peer(test, "192.0.2.122@tcp", got, sizeof(got));
	KUNIT_EXPECT_STREQ(test, got, "");
	disc_del("192.0.2.121@tcp");
}

static void disc_other_configured(struct kunit *test)
{
	static const char * const rq[] = { "192.0.2.133@tcp", "192.0.2.132@tcp" };
	struct lnet_nid p = disc_nid(test, "192.0.2.131@tcp");
	struct lnet_nid q = disc_nid(test, "192.0.2.132@tcp");
	char got[256];

	/* Q belongs to configured peer P: R's buffer cannot take it. */
	KUNIT_ASSERT_EQ(test, lnet_peer_add(&p, &q, 1, true, false, NULL), 0);
	disc_merge(test, MR_FEATURES, "192.0.2.133@tcp", rq, 2);
	disc_peer(test, "192.0.2.133@tcp", got, sizeof(got));
	KUNIT_EXPECT_STREQ(test, got, "192.0.2.133@tcp|1|192.0.2.133@tcp");
	disc_peer(test, "192.0.2.132@tcp", got, sizeof(got));
	KUNIT_EXPECT_STREQ(test, got,
			   "192.0.2.131@tcp|9|192.0.2.131@tcp 192.0.2.132@tcp");
	disc_del("192.0.2.133@tcp");
	disc_del("192.0.2.131@tcp");
}

static void disc_off_here(struct kunit *test)
{
	static const char * const gh[] = { "192.0.2.141@tcp", "192.0.2.142@tcp" };
	char got[256];

	/* Discovery off here: a multi-rail node is one NID, NO_DISCOVERY. */
	KUNIT_ASSERT_EQ(test, lnet_global_set("discovery", 0, NULL), 0);
	disc_merge(test, MR_FEATURES, "192.0.2.141@tcp", gh, 2);
	KUNIT_EXPECT_EQ(test, lnet_global_set("discovery", 1, NULL), 0);
	disc_peer(test, "192.0.2.141@tcp", got, sizeof(got));
	KUNIT_EXPECT_STREQ(test, got, "192.0.2.141@tcp|2|192.0.2.141@tcp");
	disc_del("192.0.2.141@tcp");
}

/*
 * A peer NI's status follows its peer's ping buffer; UP -> DOWN there is a
 * remote failure (spec 4c): its health drops by health_sensitivity (this
 * needs lnet_health.ko, which the KUnit run loads), other changes move
 * nothing.
 */
static void disc_ni_status(struct kunit *test)
{
	static const char * const st[] = { "192.0.2.151@tcp", "192.0.2.152@tcp" };
	static const u32 up_up[] = { LNET_NI_STATUS_UP, LNET_NI_STATUS_UP };
	static const u32 up_down[] = { LNET_NI_STATUS_UP, LNET_NI_STATUS_DOWN };
	int step = lnet_health_sensitivity();
	s32 h1, h2;
	u32 s1, s2;

	KUNIT_ASSERT_GT_MSG(test, step, 0, "health_sensitivity is 0");
	disc_merge_st(test, MR_FEATURES, "192.0.2.151@tcp", st, up_up, 2);
	disc_ni_health(test, "192.0.2.152@tcp", &h2, &s2);
	KUNIT_EXPECT_EQ(test, h2, LNET_MAX_HEALTH_VALUE);
	KUNIT_EXPECT_EQ(test, s2, LNET_NI_STATUS_UP);

	/* UP -> DOWN: that NI demerited, the other untouched. */
	disc_merge_st(test, MR_FEATURES, "192.0.2.151@tcp", st, up_down, 2);
	disc_ni_health(test, "192.0.2.151@tcp", &h1, &s1);
	disc_ni_health(test, "192.0.2.152@tcp", &h2, &s2);
	KUNIT_EXPECT_EQ(test, h1, LNET_MAX_HEALTH_VALUE);
	KUNIT_EXPECT_EQ(test, s1, LNET_NI_STATUS_UP);
	KUNIT_EXPECT_EQ(test, h2, LNET_MAX_HEALTH_VALUE - step);
	KUNIT_EXPECT_EQ(test, s2, LNET_NI_STATUS_DOWN);

	/* Still DOWN: no second failure; a merge without statuses: none. */
	disc_merge_st(test, MR_FEATURES, "192.0.2.151@tcp", st, up_down, 2);
	disc_merge(test, MR_FEATURES, "192.0.2.151@tcp", st, 2);
	disc_ni_health(test, "192.0.2.152@tcp", &h2, &s2);
	KUNIT_EXPECT_EQ(test, h2, LNET_MAX_HEALTH_VALUE - step);
	KUNIT_EXPECT_EQ(test, s2, LNET_NI_STATUS_DOWN);

	/* Back UP: recorded, health left to recovery; DOWN again: failure. */
	disc_merge_st(test, MR_FEATURES, "192.0.2.151@tcp", st, up_up, 2);
	disc_ni_health(test, "192.0.2.152@tcp", &h2, &s2);
	KUNIT_EXPECT_EQ(test, h2, LNET_MAX_HEALTH_VALUE - step);
	KUNIT_EXPECT_EQ(test, s2, LNET_NI_STATUS_UP);
	disc_merge_st(test, MR_FEATURES, "192.0.2.151@tcp", st, up_down, 2);
	disc_ni_health(test, "192.0.2.152@tcp", &h2, &s2);
	KUNIT_EXPECT_EQ(test, h2, LNET_MAX_HEALTH_VALUE - 2 * step);
	disc_del("192.0.2.151@tcp");
}

/* One row of the step table: a peer's state and what comes next. */
struct disc_step {
	u32			state;
	bool			needs_push;
	bool			running;
	enum lnet_dc_action	next;
};

#define DS(s)	LNET_PEER_##s

static const struct disc_step disc_steps[] = {
	/* Never discovered: ping first, even when it also needs a push. */
	{ DS(DISCOVERING), true, true, LNET_DC_PING },
	{ DS(DISCOVERING) | DS(MULTI_RAIL), false, true, LNET_DC_PING },
	/* An op in flight is waited for, whatever else is set. */
	{ DS(DISCOVERING) | DS(PING_SENT) | DS(DATA_PRESENT), true, true,
	  LNET_DC_WAIT },
	{ DS(DISCOVERING) | DS(PUSH_SENT), true, false, LNET_DC_WAIT },
	/* A reply or push present is merged before anything else. */
	{ DS(DISCOVERING) | DS(DATA_PRESENT) | DS(PING_FAILED), true, true,
	  LNET_DC_MERGE },
	{ DS(DISCOVERING) | DS(DATA_PRESENT), false, false, LNET_DC_FAIL },
	/* Failures end it. */
	{ DS(DISCOVERING) | DS(PING_FAILED), false, true, LNET_DC_FAIL },
	{ DS(DISCOVERING) | DS(NIDS_UPTODATE) | DS(PUSH_FAILED), true, true,
	  LNET_DC_FAIL },
	{ DS(DISCOVERING), false, false, LNET_DC_FAIL },
	/* Up to date: push if it needs one, else done. */
	{ DS(DISCOVERING) | DS(NIDS_UPTODATE) | DS(MULTI_RAIL), true, true,
	  LNET_DC_PUSH },
	{ DS(DISCOVERING) | DS(NIDS_UPTODATE), false, true, LNET_DC_DONE },
	/* "discover --force": ping again though up to date. */
	{ DS(DISCOVERING) | DS(NIDS_UPTODATE) | DS(FORCE_PING), false, true,
	  LNET_DC_PING },
	/* A truncated reply: ping again before the push. */
	{ DS(DISCOVERING) | DS(NIDS_UPTODATE) | DS(FORCE_PING), true, true,
	  LNET_DC_PING },
};

static void disc_next_steps(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(disc_steps); i++) {
		const struct disc_step *d = &disc_steps[i];

		KUNIT_EXPECT_EQ_MSG(test, lnet_dc_next(d->state, d->needs_push,
						       d->running), d->next,
				    "row %u: state %#x push %d running %d",
				    i, d->state, d->needs_push, d->running);
	}
}

static struct kunit_case lnet_discovery_cases[] = {
	KUNIT_CASE(disc_next_steps),
	KUNIT_CASE(disc_off_here),
	KUNIT_CASE(disc_mr_peer),
	KUNIT_CASE(disc_configured),
	KUNIT_CASE(disc_no_discovery),
	KUNIT_CASE(disc_other_configured),
	KUNIT_CASE(disc_ni_status),
	{}
};

static struct kunit_suite lnet_discovery_suite = {
	.name = "lnet_discovery",
	.test_cases = lnet_discovery_cases,
};

kunit_test_suite(lnet_discovery_suite);

MODULE_DESCRIPTION("KUnit tests for LNet discovery's steps and merge rules");
MODULE_LICENSE("GPL");
