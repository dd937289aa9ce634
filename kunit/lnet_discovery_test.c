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
 * Merge buffer number @seq listing @strs (nid4 entries) with @statuses
 * (NULL: not passed) that @answered sent, a push if @pushed.  Return:
 * lnet_peer_merge()'s.
 */
static int disc_merge_seq(struct kunit *test, u32 features,
			  const char *answered, const char * const *strs,
			  const u32 *statuses, unsigned int n, u32 seq,
			  bool pushed)
{
	struct lnet_ping_data pd = {
		.features = features, .seq = seq, .nnis = n + 1, .nnids = n,
		.nnid4 = n,
	};
	struct lnet_nid *nids, a = disc_nid(test, answered);
	unsigned int i;

	nids = kunit_kcalloc(test, n + 1, sizeof(*nids), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, nids);
	for (i = 0; i < n; i++)
		nids[i] = disc_nid(test, strs[i]);
	return lnet_peer_merge(&a, &pd, nids, statuses, n, pushed);
}

static void disc_merge_st(struct kunit *test, u32 features,
			  const char *answered, const char * const *strs,
			  const u32 *statuses, unsigned int n)
{
	KUNIT_ASSERT_EQ(test, disc_merge_seq(test, features, answered, strs,
					     statuses, n, 7, false), 0);
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
	struct lnet_peer_ni_cursor cur = {};
	struct lnet_peer_ni_info *info;
	struct lnet_nid n = disc_nid(test, nid);

	info = kunit_kzalloc(test, sizeof(*info), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, info);
	*healthv = -1;
	*status = 0;
	while (!lnet_peer_ni_info_next(&cur, info)) {
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
	struct lnet_peer_ni_cursor cur = {};
	struct lnet_peer_ni_info *info;
	struct lnet_nid n = disc_nid(test, nid), prim;
	char s[LNET_NIDSTR_SIZE];
	size_t len;

	info = kunit_kzalloc(test, sizeof(*info), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, info);
	lnet_peer_primary_get(&n, &prim);
	out[0] = '\0';
	while (!lnet_peer_ni_info_next(&cur, info)) {
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

/*
 * The peer NI lnet_select_mr() takes for a send to the peer of @nid, if
 * we had one NI on tcp: its NID, or "" if none.
 */
static void disc_select(struct kunit *test, const char *nid, char *out)
{
	struct lnet_nid n = disc_nid(test, nid);
	struct lnet_peer_ni *lpni;
	struct lnet_net *net;
	struct lnet_ni *ni;
	LIST_HEAD(nets);

	net = kunit_kzalloc(test, sizeof(*net), GFP_KERNEL);
	ni = kunit_kzalloc(test, sizeof(*ni), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, net);
	KUNIT_ASSERT_NOT_NULL(test, ni);
	net->net_id = lnet_mknet(LNET_LND_SOCK, 0);
	INIT_LIST_HEAD(&net->net_nis);
	list_add_tail(&net->net_list, &nets);
	lnet_credits_init(&ni->ni_txc, 8);
	ni->ni_healthv = LNET_MAX_HEALTH_VALUE;
	ni->ni_up = true;
	ni->ni_net = net;
	list_add_tail(&ni->ni_list, &net->net_nis);
	out[0] = '\0';
	lnet_lock();
	lpni = lnet_peer_ni_find_locked(&n);
	if (lpni) {
		lpni = lnet_select_mr(lpni->lpni_peer_net->lpn_peer, &nets,
				      &ni);
		if (lpni)
			lnet_nid_to_str(&lpni->lpni_nid, out,
					LNET_NIDSTR_SIZE);
	}
	lnet_unlock();
}

/*
 * Issue 37: a's NID moves to a new address and back (lnet/ni-addr.c);
 * its pushes list the NID it left DOWN.  Merged here: [OLD UP], then
 * from NEW [NEW UP, OLD DOWN] (OLD demerited once), then OLD's failed
 * recovery pings while it was gone (each a remote failure), then from
 * OLD [OLD UP, NEW DOWN] (NEW demerited once).  OLD is healthy less
 * than NEW now, but NEW is gone: sends go to OLD, the one listed UP,
 * at once (Documentation/multirail.rst, "NIDs that follow the
 * address"), not after OLD's recovery caught up.
 */
static void disc_moved_back(struct kunit *test)
{
	static const char * const first[] = { "192.0.2.171@tcp" };
	static const char * const moved[] = {
		"192.0.2.172@tcp", "192.0.2.171@tcp",
	};
	static const char * const back[] = {
		"192.0.2.171@tcp", "192.0.2.172@tcp",
	};
	static const u32 up_down[] = { LNET_NI_STATUS_UP, LNET_NI_STATUS_DOWN };
	struct lnet_nid old = disc_nid(test, "192.0.2.171@tcp");
	int step = lnet_health_sensitivity();
	struct lnet_peer_ni *lpni;
	char got[LNET_NIDSTR_SIZE];
	s32 h_old, h_new;
	u32 s_old, s_new;
	int i;

	KUNIT_ASSERT_GT_MSG(test, step, 0, "health_sensitivity is 0");
	KUNIT_ASSERT_EQ(test, disc_merge_seq(test, MR_FEATURES,
					     "192.0.2.171@tcp", first, up_down,
					     1, 1, false), 0);
	disc_select(test, "192.0.2.171@tcp", got);
	KUNIT_EXPECT_STREQ(test, got, "192.0.2.171@tcp");

	KUNIT_ASSERT_EQ(test, disc_merge_seq(test, MR_FEATURES,
					     "192.0.2.172@tcp", moved, up_down,
					     2, 2, true), 0);
	disc_ni_health(test, "192.0.2.171@tcp", &h_old, &s_old);
	KUNIT_EXPECT_EQ(test, s_old, LNET_NI_STATUS_DOWN);
	KUNIT_EXPECT_EQ(test, h_old, LNET_MAX_HEALTH_VALUE - step);
	disc_select(test, "192.0.2.171@tcp", got);
	KUNIT_EXPECT_STREQ(test, got, "192.0.2.172@tcp");

	/* OLD's recovery pings fail while it is gone. */
	lnet_lock();
	lpni = lnet_peer_ni_find_locked(&old);
	if (lpni)
		lnet_peer_ni_healthv_set_locked(lpni, step);
	lnet_unlock();
	KUNIT_ASSERT_NOT_NULL(test, lpni);

	KUNIT_ASSERT_EQ(test, disc_merge_seq(test, MR_FEATURES,
					     "192.0.2.171@tcp", back, up_down,
					     2, 3, true), 0);
	disc_ni_health(test, "192.0.2.171@tcp", &h_old, &s_old);
	disc_ni_health(test, "192.0.2.172@tcp", &h_new, &s_new);
	KUNIT_EXPECT_EQ(test, s_old, LNET_NI_STATUS_UP);
	KUNIT_EXPECT_EQ(test, s_new, LNET_NI_STATUS_DOWN);
	KUNIT_EXPECT_LT(test, h_old, h_new);
	for (i = 0; i < 4; i++) {
		disc_select(test, "192.0.2.172@tcp", got);
		KUNIT_EXPECT_STREQ(test, got, "192.0.2.171@tcp");
	}
	disc_del("192.0.2.171@tcp");
}

/* The peer of @nid (which must have one); the LNet lock is not held. */
static struct lnet_peer *disc_lp(struct kunit *test, const char *nid)
{
	struct lnet_nid n = disc_nid(test, nid);
	struct lnet_peer_ni *lpni;

	lnet_lock();
	lpni = lnet_peer_ni_find_locked(&n);
	lnet_unlock();
	KUNIT_ASSERT_NOT_NULL_MSG(test, lpni, "%s has no peer", nid);
	return lpni->lpni_peer_net->lpn_peer;
}

/*
 * Issue 33 item 8: a buffer is merged by sequence number, not arrival
 * (spec 7, as Lustre): a push older than what was merged does not
 * replace it (the peer is pinged instead: it may have restarted); a ping
 * reply, which answers the question asked now, always merges.
 */
static void disc_seq_merged(struct kunit *test)
{
	static const char * const ab[] = { "192.0.2.161@tcp", "192.0.2.162@tcp" };
	static const char * const ac[] = { "192.0.2.161@tcp", "192.0.2.163@tcp" };
	char got[256];

	KUNIT_ASSERT_EQ(test, disc_merge_seq(test, MR_FEATURES,
					     "192.0.2.161@tcp", ab, NULL, 2, 9,
					     true), 0);
	KUNIT_EXPECT_EQ(test, disc_lp(test, "192.0.2.161@tcp")->lp_peer_seqno,
			9U);
	/* An older push: refused, nothing changed. */
	KUNIT_EXPECT_EQ(test, disc_merge_seq(test, MR_FEATURES,
					     "192.0.2.161@tcp", ac, NULL, 2, 8,
					     true), -ESTALE);
	KUNIT_EXPECT_EQ(test, disc_lp(test, "192.0.2.161@tcp")->lp_peer_seqno,
			9U);
	disc_peer(test, "192.0.2.161@tcp", got, sizeof(got));
	KUNIT_EXPECT_STREQ(test, got,
			   "192.0.2.161@tcp|1|192.0.2.161@tcp 192.0.2.162@tcp");
	/* The same number (a status written in place): merged. */
	KUNIT_EXPECT_EQ(test, disc_merge_seq(test, MR_FEATURES,
					     "192.0.2.161@tcp", ab, NULL, 2, 9,
					     true), 0);
	/* A ping reply is the peer's buffer now (restarted): merged. */
	KUNIT_EXPECT_EQ(test, disc_merge_seq(test, MR_FEATURES,
					     "192.0.2.161@tcp", ac, NULL, 2, 2,
					     false), 0);
	KUNIT_EXPECT_EQ(test, disc_lp(test, "192.0.2.161@tcp")->lp_peer_seqno,
			2U);
	disc_peer(test, "192.0.2.161@tcp", got, sizeof(got));
	KUNIT_EXPECT_STREQ(test, got,
			   "192.0.2.161@tcp|1|192.0.2.161@tcp 192.0.2.163@tcp");
	disc_del("192.0.2.161@tcp");
}

/*
 * Issue 33 item 8: of the buffers waiting to be merged (one per peer),
 * the newer stays: a ping reply older than a push that came meanwhile
 * does not replace it; a newer push replaces an older one.
 */
static void disc_seq_pending(struct kunit *test)
{
	static const char * const a[] = { "192.0.2.171@tcp" };
	struct lnet_nid from = disc_nid(test, "192.0.2.171@tcp");
	struct lnet_peer *lp;
	void *push9, *reply8, *push10;
	bool took;

	disc_merge(test, MR_FEATURES, "192.0.2.171@tcp", a, 1);
	lp = disc_lp(test, "192.0.2.171@tcp");
	push9 = kzalloc(64, GFP_KERNEL);
	reply8 = kzalloc(64, GFP_KERNEL);
	push10 = kzalloc(64, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, push9 && reply8 && push10);

	lnet_lock();
	took = lnet_dc_data_offer_locked(lp, push9, 64, 9, true, &from, &from);
	lnet_unlock();
	KUNIT_EXPECT_TRUE(test, took);
	lnet_lock();
	took = lnet_dc_data_offer_locked(lp, reply8, 64, 8, false, &from, &from);
	lnet_unlock();
	KUNIT_EXPECT_FALSE(test, took);
	if (!took)
		kfree(reply8);
	KUNIT_EXPECT_PTR_EQ(test, lp->lp_dc_data, push9);
	KUNIT_EXPECT_TRUE(test, lp->lp_dc_data_pushed);
	KUNIT_EXPECT_EQ(test, lp->lp_dc_data_seq, 9U);

	lnet_lock();
	took = lnet_dc_data_offer_locked(lp, push10, 64, 10, true, &from, &from);
	lnet_unlock();
	KUNIT_EXPECT_TRUE(test, took);
	KUNIT_EXPECT_PTR_EQ(test, lp->lp_dc_data, push10);
	KUNIT_EXPECT_EQ(test, lp->lp_dc_data_seq, 10U);
	/* The peer's deletion frees what waits. */
	disc_del("192.0.2.171@tcp");
}

/*
 * Issue 33 item 9: "peer add --non_mr" on a peer that discovery made
 * multi-rail makes it a configured non-multi-rail peer of the NIDs given,
 * as Lustre (which deletes the peer and makes the configured one); later
 * discovery keeps it so.
 */
static void disc_add_non_mr(struct kunit *test)
{
	static const char * const ab[] = { "192.0.2.181@tcp", "192.0.2.182@tcp" };
	struct lnet_nid a = disc_nid(test, "192.0.2.181@tcp");
	char got[256];

	disc_merge(test, MR_FEATURES, "192.0.2.181@tcp", ab, 2);
	disc_peer(test, "192.0.2.181@tcp", got, sizeof(got));
	KUNIT_EXPECT_STREQ(test, got,
			   "192.0.2.181@tcp|1|192.0.2.181@tcp 192.0.2.182@tcp");
	KUNIT_EXPECT_EQ(test, lnet_peer_add(&a, NULL, 0, false, false, NULL), 0);
	disc_peer(test, "192.0.2.181@tcp", got, sizeof(got));
	KUNIT_EXPECT_STREQ(test, got, "192.0.2.181@tcp|8|192.0.2.181@tcp");
	disc_merge(test, MR_FEATURES, "192.0.2.181@tcp", ab, 2);
	disc_peer(test, "192.0.2.181@tcp", got, sizeof(got));
	KUNIT_EXPECT_STREQ(test, got, "192.0.2.181@tcp|8|192.0.2.181@tcp");
	disc_del("192.0.2.181@tcp");
	disc_del("192.0.2.182@tcp");
}

/* Peer NIs in the table. */
static unsigned int disc_nelems(void)
{
	return atomic_read(&the_lnet.ln_peer_nis.nelems);
}

/*
 * Issue 33 item 5: what one peer's buffer may add is bounded
 * (LNET_PEER_MERGE_NIDS_MAX, far below max_interfaces), and NIDs on a
 * net we have no NI on are not taken (nothing could reach them).
 */
static void disc_bounded(struct kunit *test)
{
	static const char * const unreachable[] = {
		"192.0.2.191@tcp", "192.0.2.192@tcp9", "192.0.2.193@tcp",
	};
	const unsigned int n = 64;
	const char **strs;
	unsigned int i, before = disc_nelems();
	char *names, got[256];

	strs = kunit_kcalloc(test, n, sizeof(*strs), GFP_KERNEL);
	names = kunit_kzalloc(test, n * LNET_NIDSTR_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, strs && names);
	for (i = 0; i < n; i++) {
		strs[i] = names + i * LNET_NIDSTR_SIZE;
		snprintf(names + i * LNET_NIDSTR_SIZE, LNET_NIDSTR_SIZE,
			 "10.1.%u.%u@tcp", i / 200, i % 200 + 1);
	}
	/* 64 listed: the first LNET_PEER_MERGE_NIDS_MAX are taken. */
	KUNIT_ASSERT_EQ(test, disc_merge_seq(test, MR_FEATURES, strs[0],
					     (const char * const *)strs, NULL,
					     n, 7, true), 0);
	KUNIT_EXPECT_EQ(test, disc_nelems() - before, LNET_PEER_MERGE_NIDS_MAX);
	disc_del(strs[0]);
	KUNIT_EXPECT_EQ(test, disc_nelems(), before);

	/* A NID on tcp9, where we have no NI: not taken. */
	disc_merge(test, MR_FEATURES, "192.0.2.191@tcp", unreachable, 3);
	disc_peer(test, "192.0.2.191@tcp", got, sizeof(got));
	KUNIT_EXPECT_STREQ(test, got,
			   "192.0.2.191@tcp|1|192.0.2.191@tcp 192.0.2.193@tcp");
	disc_del("192.0.2.191@tcp");
}

/*
 * Issue 33 item 9: a walk of the peer NIs ("peer show", debugfs "peers")
 * by a cursor is linear: each NI once, in a few steps each, also when
 * peers come and go meanwhile (counting from the first NI on every call
 * took n^2 / 2 steps).
 */
static void disc_cursor_linear(struct kunit *test)
{
	const unsigned int n = 300;
	struct lnet_peer_ni_cursor cur = {}, one = {};
	struct lnet_peer_ni_info *info;
	struct lnet_nid nid, base;
	unsigned long *seen;
	unsigned int i, k, shown = 0, before = disc_nelems();
	u32 ip;

	info = kunit_kzalloc(test, sizeof(*info), GFP_KERNEL);
	seen = kunit_kcalloc(test, BITS_TO_LONGS(n), sizeof(long), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, info && seen);
	base = disc_nid(test, "10.2.0.0@tcp");
	ip = be32_to_cpu(base.nid_addr[0]);
	for (i = 0; i < n; i++) {
		nid = base;
		nid.nid_addr[0] = cpu_to_be32(ip + i + 1);
		KUNIT_ASSERT_EQ(test, lnet_peer_add(&nid, NULL, 0, false, false,
						    NULL), 0);
	}
	/* Walk, deleting peer 150 when at peer 100 (not yet shown). */
	while (!lnet_peer_ni_info_next(&cur, info)) {
		k = be32_to_cpu(info->nid.nid_addr[0]) - ip - 1;
		if (info->nid.nid_type != base.nid_type || k >= n)
			continue;	/* another suite's peer */
		KUNIT_EXPECT_FALSE_MSG(test, test_bit(k, seen),
				       "peer NI %u shown twice", k);
		__set_bit(k, seen);
		shown++;
		if (k == 100) {
			nid = base;
			nid.nid_addr[0] = cpu_to_be32(ip + 151);
			KUNIT_EXPECT_EQ(test, lnet_peer_del(&nid, NULL, true,
							    NULL), 0);
		}
	}
	KUNIT_EXPECT_EQ(test, shown, n - 1);
	KUNIT_EXPECT_FALSE(test, test_bit(150, seen));
	KUNIT_EXPECT_LE_MSG(test, cur.steps, 3 * (n + before),
			    "%u steps for %u peer NIs", cur.steps, n + before);
	kunit_info(test, "%u peer NIs walked in %u steps\n", n + before - 1,
		   cur.steps);

	/* One peer's walk: its NIs only. */
	nid = base;
	nid.nid_addr[0] = cpu_to_be32(ip + 8);
	KUNIT_ASSERT_EQ(test, lnet_peer_ni_cursor_peer(&one, &nid), 0);
	KUNIT_ASSERT_EQ(test, lnet_peer_ni_info_next(&one, info), 0);
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&info->nid, &nid));
	KUNIT_EXPECT_EQ(test, lnet_peer_ni_info_next(&one, info), -ENOENT);

	for (i = 0; i < n; i++) {
		nid = base;
		nid.nid_addr[0] = cpu_to_be32(ip + i + 1);
		lnet_peer_del(&nid, NULL, true, NULL);
	}
	KUNIT_EXPECT_EQ(test, disc_nelems(), before);
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
	KUNIT_CASE(disc_moved_back),
	KUNIT_CASE(disc_seq_merged),
	KUNIT_CASE(disc_seq_pending),
	KUNIT_CASE(disc_add_non_mr),
	KUNIT_CASE(disc_bounded),
	KUNIT_CASE(disc_cursor_linear),
	{}
};

/*
 * The nets the cases' NIDs are on (tcp, tcp1), as if we had NIs there:
 * discovery takes no NID on a net we have none on.  LNet is not
 * configured, so nothing else looks at these (no NI, no LND).
 */
static struct lnet_net disc_nets[2];

static int disc_init(struct kunit *test)
{
	unsigned int i;

	if (lnet_is_configured())
		kunit_skip(test, "LNet configured: its nets would mix with ours");
	for (i = 0; i < ARRAY_SIZE(disc_nets); i++) {
		disc_nets[i].net_id = lnet_mknet(LNET_LND_SOCK, i);
		INIT_LIST_HEAD(&disc_nets[i].net_nis);
	}
	mutex_lock(&the_lnet.ln_api_mutex);
	lnet_lock();
	for (i = 0; i < ARRAY_SIZE(disc_nets); i++)
		list_add_tail(&disc_nets[i].net_list, &the_lnet.ln_nets);
	lnet_unlock();
	mutex_unlock(&the_lnet.ln_api_mutex);
	return 0;
}

static void disc_exit(struct kunit *test)
{
	unsigned int i;

	mutex_lock(&the_lnet.ln_api_mutex);
	lnet_lock();
	for (i = 0; i < ARRAY_SIZE(disc_nets); i++)
		if (disc_nets[i].net_list.next)
			list_del_init(&disc_nets[i].net_list);
	lnet_unlock();
	mutex_unlock(&the_lnet.ln_api_mutex);
}

static struct kunit_suite lnet_discovery_suite = {
	.name = "lnet_discovery",
	.init = disc_init,
	.exit = disc_exit,
	.test_cases = lnet_discovery_cases,
};

kunit_test_suite(lnet_discovery_suite);

MODULE_DESCRIPTION("KUnit tests for LNet discovery's steps and merge rules");
MODULE_LICENSE("GPL");
