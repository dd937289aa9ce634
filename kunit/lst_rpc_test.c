// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: selftest RPCs over LNet's loopback (selftest/rpc.c, service.c,
 * framework.c), this node as both the console's RPC client and the test
 * node: sessions made, shared, refused, forced and removed (spec 4.3-4.5),
 * QUERY_STAT's counters (4.8), the version and feature checks (3.7),
 * big-endian requests, and what the transport does with requests it must
 * drop (2.2) and RPCs that expire or are aborted (2.8).
 *
 * Needs lnet_selftest loaded, so LNet configured (tests/vm/kunit.sh runs
 * the lst_rpc suite after "lnetctl lnet configure").
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/swab.h>

#include <lnet/ctl.h>

#include "../selftest/selftest.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

struct rpc_wait {
	struct completion	done;
};

static void rpc_test_done(struct lst_crpc *rpc)
{
	struct rpc_wait *w = rpc->priv;

	complete(&w->done);
}

static struct lnet_processid rpc_test_self(void)
{
	struct lnet_processid self = { .pid = LNET_PID_LUSTRE };

	lnet_nid4_to_nid(LNET_NID_LO_0, &self.nid);
	return self;
}

/* A framework request to ourselves, not yet posted. */
static struct lst_crpc *rpc_new(struct kunit *test, unsigned int svc,
				struct rpc_wait *w)
{
	struct lnet_processid self = rpc_test_self();
	struct lst_crpc *rpc;

	init_completion(&w->done);
	rpc = lst_crpc_alloc(&self, svc, LST_FEAT_BULK_LEN, NULL,
			     rpc_test_done, w);
	KUNIT_ASSERT_NOT_NULL(test, rpc);
	return rpc;
}

/* Post @rpc, wait for it: its status. */
static int rpc_run(struct lst_crpc *rpc, unsigned int timeout)
{
	struct rpc_wait *w = rpc->priv;

	lst_crpc_post(rpc, timeout);
	wait_for_completion(&w->done);
	return rpc->status;
}

static void put_sid(void *msg, u64 nid, s64 stamp)
{
	lst_put64(msg, LST_REQ_SID + LST_SID_NID, nid);
	lst_put64(msg, LST_REQ_SID + LST_SID_STAMP, (u64)stamp);
}

static u64 reply_sid_nid(const struct lst_crpc *rpc)
{
	return lst_get64(rpc->reply, LST_REP_SID + LST_SID_NID);
}

static u32 reply_status(const struct lst_crpc *rpc)
{
	return lst_get32(rpc->reply, LST_REP_STATUS);
}

static u32 reply_feats(const struct lst_crpc *rpc)
{
	return get_unaligned_le32(rpc->reply + LST_HDR_FEATS);
}

/* MAKE_SESSION sid (@nid, 7) named @name: the reply's status. */
static u32 mksn(struct kunit *test, u64 nid, bool force, const char *name,
		struct lst_crpc **out)
{
	struct rpc_wait w;
	struct lst_crpc *rpc = rpc_new(test, LST_SVC_MAKE_SESSION, &w);
	u32 status;

	put_sid(rpc->req, nid, 7);
	lst_put32(rpc->req, LST_MKSN_FORCE, force);
	strscpy(lst_body(rpc->req) + LST_MKSN_NAME, name, LST_NAME_MAX + 1);
	KUNIT_ASSERT_EQ(test, rpc_run(rpc, 10), 0);
	status = reply_status(rpc);
	if (out)
		*out = rpc;
	else
		lst_crpc_free(rpc);
	return status;
}

/* A framework request of @svc with sid (@nid, 7): the reply's status. */
static u32 simple(struct kunit *test, unsigned int svc, u64 nid,
		  struct lst_crpc **out)
{
	struct rpc_wait w;
	struct lst_crpc *rpc = rpc_new(test, svc, &w);
	u32 status;

	put_sid(rpc->req, nid, 7);
	KUNIT_ASSERT_EQ(test, rpc_run(rpc, 10), 0);
	status = reply_status(rpc);
	if (out)
		*out = rpc;
	else
		lst_crpc_free(rpc);
	return status;
}

#define NID_A	0x2000000c0000201ULL	/* any NIDs: the console's names */
#define NID_B	0x2000000c0000202ULL

static void rpc_debug_no_session(struct kunit *test)
{
	struct lst_crpc *rpc;

	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_DEBUG, NID_A, &rpc), ESRCH);
	KUNIT_EXPECT_EQ(test, reply_sid_nid(rpc), LST_NID_ANY);
	KUNIT_EXPECT_EQ(test, rpc->reply_info.type, LST_MSG_DEBUG_REPLY);
	KUNIT_EXPECT_EQ(test, reply_feats(rpc), LST_FEATS_MASK);
	lst_crpc_free(rpc);
	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_REMOVE_SESSION, NID_A, NULL),
			ESRCH);
	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_QUERY_STAT, NID_A, NULL),
			ESRCH);
}

static void rpc_session_life(struct kunit *test)
{
	struct lst_crpc *rpc;

	KUNIT_EXPECT_EQ(test, mksn(test, NID_A, false, "one", &rpc), 0);
	KUNIT_EXPECT_EQ(test, reply_sid_nid(rpc), NID_A);
	KUNIT_EXPECT_EQ(test, lst_get32(rpc->reply, LST_MKSN_REP_TIMEOUT),
			lst_session_timeout);
	KUNIT_EXPECT_EQ(test, reply_feats(rpc), LST_FEAT_BULK_LEN);
	lst_crpc_free(rpc);

	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_DEBUG, NID_B, &rpc), 0);
	KUNIT_EXPECT_STREQ(test,
			   (char *)lst_body(rpc->reply) + LST_DBG_REP_NAME,
			   "one");
	KUNIT_EXPECT_EQ(test, reply_sid_nid(rpc), NID_A);
	lst_crpc_free(rpc);

	/* another console, no force: refused, told who holds the node */
	KUNIT_EXPECT_EQ(test, mksn(test, NID_B, false, "two", &rpc), EBUSY);
	KUNIT_EXPECT_EQ(test, reply_sid_nid(rpc), NID_A);
	KUNIT_EXPECT_STREQ(test,
			   (char *)lst_body(rpc->reply) + LST_MKSN_REP_NAME,
			   "one");
	lst_crpc_free(rpc);
	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_REMOVE_SESSION, NID_B,
				     NULL), EBUSY);

	/* the same session twice: two removes to end it */
	KUNIT_EXPECT_EQ(test, mksn(test, NID_A, false, "one", NULL), 0);
	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_REMOVE_SESSION, NID_A,
				     &rpc), 0);
	KUNIT_EXPECT_EQ(test, reply_sid_nid(rpc), NID_A);
	lst_crpc_free(rpc);
	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_REMOVE_SESSION, NID_A,
				     &rpc), 0);
	KUNIT_EXPECT_EQ(test, reply_sid_nid(rpc), LST_NID_ANY);
	lst_crpc_free(rpc);
	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_DEBUG, NID_A, NULL), ESRCH);

	/* the sid "any" is nobody's */
	KUNIT_EXPECT_EQ(test, mksn(test, LST_NID_ANY, false, "x", NULL), EINVAL);
}

static void rpc_session_force(struct kunit *test)
{
	struct lst_crpc *rpc;

	KUNIT_EXPECT_EQ(test, mksn(test, NID_A, false, "one", NULL), 0);
	KUNIT_EXPECT_EQ(test, mksn(test, NID_B, true, "two", &rpc), 0);
	KUNIT_EXPECT_EQ(test, reply_sid_nid(rpc), NID_B);
	lst_crpc_free(rpc);
	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_DEBUG, NID_A, &rpc), 0);
	KUNIT_EXPECT_EQ(test, reply_sid_nid(rpc), NID_B);
	KUNIT_EXPECT_STREQ(test,
			   (char *)lst_body(rpc->reply) + LST_DBG_REP_NAME,
			   "two");
	lst_crpc_free(rpc);
	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_REMOVE_SESSION, NID_A,
				     NULL), EBUSY);
	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_REMOVE_SESSION, NID_B,
				     NULL), 0);
}

static void rpc_query_stat(struct kunit *test)
{
	struct lnet_counters_common c;
	struct lst_crpc *rpc;
	u32 rcvd;

	KUNIT_EXPECT_EQ(test, mksn(test, NID_A, false, "stat", NULL), 0);
	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_QUERY_STAT, NID_B, NULL),
			ESRCH);
	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_QUERY_STAT, LST_NID_ANY,
				     NULL), EINVAL);
	rcvd = atomic_read(&lst_rpc_stats.rpcs_rcvd);
	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_QUERY_STAT, NID_A, &rpc),
			0);
	KUNIT_EXPECT_EQ(test, rpc->reply_info.type, LST_MSG_STAT_REPLY);
	/* running_ms: the session is seconds old at most */
	KUNIT_EXPECT_LT(test, lst_get32(rpc->reply, LST_STR_REP_FW), 60000U);
	/* this request counted before its reply was made */
	KUNIT_EXPECT_EQ(test, lst_get32(rpc->reply, LST_STR_REP_RPC + 8),
			rcvd + 1);
	KUNIT_EXPECT_GT(test, lst_get32(rpc->reply, LST_STR_REP_RPC + 4), 0U);
	lnet_counters_get(&c);
	KUNIT_EXPECT_GT(test, lst_get32(rpc->reply, LST_STR_REP_LNET + 12), 0U);
	KUNIT_EXPECT_LE(test, lst_get32(rpc->reply, LST_STR_REP_LNET + 12),
			c.send_count);
	KUNIT_EXPECT_GT(test, lst_get64(rpc->reply, LST_STR_REP_LNET + 36),
			0ULL);
	lst_crpc_free(rpc);
	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_REMOVE_SESSION, NID_A,
				     NULL), 0);
}

/* Version and features (spec 2.2, 3.7). */
static void rpc_version_feats(struct kunit *test)
{
	struct rpc_wait w;
	struct lst_crpc *rpc;

	rpc = rpc_new(test, LST_SVC_MAKE_SESSION, &w);
	put_sid(rpc->req, NID_A, 7);
	put_unaligned_le32(2, rpc->req + LST_HDR_VERSION);
	KUNIT_ASSERT_EQ(test, rpc_run(rpc, 10), 0);
	KUNIT_EXPECT_EQ(test, reply_status(rpc), EPROTO);
	KUNIT_EXPECT_EQ(test, reply_sid_nid(rpc), LST_NID_ANY);
	lst_crpc_free(rpc);

	rpc = rpc_new(test, LST_SVC_MAKE_SESSION, &w);
	put_sid(rpc->req, NID_A, 7);
	put_unaligned_le32(0x3, rpc->req + LST_HDR_FEATS);
	KUNIT_ASSERT_EQ(test, rpc_run(rpc, 10), 0);
	KUNIT_EXPECT_EQ(test, reply_status(rpc), EPROTO);
	KUNIT_EXPECT_EQ(test, reply_feats(rpc), LST_FEATS_MASK);
	lst_crpc_free(rpc);
	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_DEBUG, NID_A, NULL), ESRCH);

	/* a session without BULK_LEN: a request with it does not match */
	rpc = rpc_new(test, LST_SVC_MAKE_SESSION, &w);
	put_sid(rpc->req, NID_A, 7);
	put_unaligned_le32(0, rpc->req + LST_HDR_FEATS);
	KUNIT_ASSERT_EQ(test, rpc_run(rpc, 10), 0);
	KUNIT_EXPECT_EQ(test, reply_status(rpc), 0);
	KUNIT_EXPECT_EQ(test, reply_feats(rpc), 0);
	lst_crpc_free(rpc);
	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_QUERY_STAT, NID_A, &rpc),
			EPROTO);
	KUNIT_EXPECT_EQ(test, reply_sid_nid(rpc), NID_A);
	lst_crpc_free(rpc);
	rpc = rpc_new(test, LST_SVC_REMOVE_SESSION, &w);
	put_sid(rpc->req, NID_A, 7);
	put_unaligned_le32(0, rpc->req + LST_HDR_FEATS);
	KUNIT_ASSERT_EQ(test, rpc_run(rpc, 10), 0);
	KUNIT_EXPECT_EQ(test, reply_status(rpc), 0);
	lst_crpc_free(rpc);
}

/* A console of the other byte order: its MAKE_SESSION works. */
static void rpc_big_endian(struct kunit *test)
{
	struct rpc_wait w;
	struct lst_crpc *rpc = rpc_new(test, LST_SVC_MAKE_SESSION, &w);
	u8 *b = lst_body(rpc->req);

	/* The header and the sid big-endian; rpyid is ours (LE) ... */
	put_unaligned_be32(LST_MSG_MAGIC, rpc->req + LST_HDR_MAGIC);
	put_unaligned_be32(LST_MSG_VERSION, rpc->req + LST_HDR_VERSION);
	put_unaligned_be32(LST_MSG_MKSN_REQST, rpc->req + LST_HDR_TYPE);
	put_unaligned_be32(LST_FEAT_BULK_LEN, rpc->req + LST_HDR_FEATS);
	put_unaligned_be64(NID_A, b + LST_REQ_SID + LST_SID_NID);
	put_unaligned_be64(7, b + LST_REQ_SID + LST_SID_STAMP);
	strscpy(b + LST_MKSN_NAME, "be", LST_NAME_MAX + 1);
	/*
	 * ... and lst_crpc_post() writes it little-endian: the server swaps
	 * it, so our reply buffer's match bits are the swapped id.  Send it
	 * with no wait for a reply: the session is what we look at.
	 */
	lst_crpc_post(rpc, 1);
	wait_for_completion(&w.done);
	lst_crpc_free(rpc);
	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_DEBUG, NID_B, &rpc), 0);
	KUNIT_EXPECT_EQ(test, reply_sid_nid(rpc), NID_A);
	KUNIT_EXPECT_STREQ(test,
			   (char *)lst_body(rpc->reply) + LST_DBG_REP_NAME,
			   "be");
	lst_crpc_free(rpc);
	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_REMOVE_SESSION, NID_A,
				     NULL), 0);
}

/*
 * What the transport drops (spec 2.2): a request of another service's
 * type; a request to a service nobody serves (no buffer); the client
 * expires (rpcs_expired) or is aborted (-EINTR), and nothing changed.
 */
static void rpc_dropped(struct kunit *test)
{
	u32 dropped = atomic_read(&lst_rpc_stats.rpcs_dropped);
	u32 expired = atomic_read(&lst_rpc_stats.rpcs_expired);
	struct rpc_wait w;
	struct lst_crpc *rpc;

	/* a DEBUG request sent to MAKE_SESSION */
	rpc = rpc_new(test, LST_SVC_MAKE_SESSION, &w);
	put_unaligned_le32(LST_MSG_DEBUG_REQST, rpc->req + LST_HDR_TYPE);
	put_sid(rpc->req, NID_A, 7);
	KUNIT_EXPECT_EQ(test, rpc_run(rpc, 1), -ETIMEDOUT);
	lst_crpc_free(rpc);
	KUNIT_EXPECT_EQ(test, atomic_read(&lst_rpc_stats.rpcs_dropped),
			dropped + 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&lst_rpc_stats.rpcs_expired),
			expired + 1);

	/* a bad magic */
	rpc = rpc_new(test, LST_SVC_DEBUG, &w);
	put_unaligned_le32(0x12345678, rpc->req + LST_HDR_MAGIC);
	KUNIT_EXPECT_EQ(test, rpc_run(rpc, 1), -ETIMEDOUT);
	lst_crpc_free(rpc);
	KUNIT_EXPECT_EQ(test, atomic_read(&lst_rpc_stats.rpcs_dropped),
			dropped + 2);

	/* BATCH is not served: aborted by its user */
	rpc = rpc_new(test, LST_SVC_BATCH, &w);
	lst_crpc_post(rpc, 0);
	lst_crpc_abort(rpc, -EINTR);
	wait_for_completion(&w.done);
	KUNIT_EXPECT_EQ(test, rpc->status, -EINTR);
	lst_crpc_free(rpc);

	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_DEBUG, NID_A, NULL), ESRCH);
}

/*
 * TEST: an instance of @svc in batch @bid, a client of ourselves @ndest
 * times over or (@ndest 0) a server; @params: its 12 bytes of tsr_u (v1:
 * the session has BULK_LEN).
 */
static u32 add_test_dests(struct kunit *test, u64 bid, unsigned int svc,
			  u32 ndest, s32 loop, u32 concur, const u8 *params)
{
	struct lnet_processid self = rpc_test_self();
	struct lst_bulk *list = NULL;
	struct rpc_wait w;
	struct lst_crpc *rpc;
	u32 status, i;
	u8 *e;

	if (ndest) {	/* one 4096-byte chunk: 341 entries */
		KUNIT_ASSERT_LE(test, ndest, 341U);
		list = lst_bulk_alloc(ndest * LST_DEST_SIZE, 0, false);
		KUNIT_ASSERT_NOT_NULL(test, list);
		e = page_address(list->kiov[0].bv_page);
		for (i = 0; i < ndest; i++, e += LST_DEST_SIZE) {
			put_unaligned_le64(LNET_NID_LO_0, e);
			put_unaligned_le32(LNET_PID_LUSTRE, e + 8);
		}
	}
	init_completion(&w.done);
	rpc = lst_crpc_alloc(&self, LST_SVC_TEST, LST_FEAT_BULK_LEN, list,
			     rpc_test_done, &w);
	KUNIT_ASSERT_NOT_NULL(test, rpc);
	lst_put64(rpc->req, LST_TSR_SID + LST_SID_NID, NID_A);
	lst_put64(rpc->req, LST_TSR_SID + LST_SID_STAMP, 7);
	lst_put64(rpc->req, LST_TSR_BID, bid);
	lst_put32(rpc->req, LST_TSR_SERVICE, svc);
	if (params)
		memcpy(lst_body(rpc->req) + LST_TSR_U, params, 12);
	lst_put32(rpc->req, LST_TSR_LOOP, (u32)loop);
	lst_put32(rpc->req, LST_TSR_CONCUR, concur);
	lst_body(rpc->req)[LST_TSR_IS_CLIENT] = !!ndest;
	lst_body(rpc->req)[LST_TSR_STOP_ONERR] = 1;
	lst_put32(rpc->req, LST_TSR_NDEST, ndest);
	KUNIT_EXPECT_EQ(test, rpc_run(rpc, 10), 0);
	status = reply_status(rpc);
	lst_crpc_free(rpc);
	lst_bulk_free(list);
	return status;
}

static u32 add_test(struct kunit *test, u64 bid, unsigned int svc,
		    bool client, s32 loop, u32 concur, const u8 *params)
{
	return add_test_dests(test, bid, svc, client, loop, concur, params);
}

static u32 add_ping_test(struct kunit *test, u64 bid, bool client, s32 loop,
			 u32 concur)
{
	return add_test(test, bid, LST_SVC_PING, client, loop, concur, NULL);
}

/* A BRW instance: tsr_u v1 (opc u16, flags u16, len u32, offset u32). */
static u32 add_brw_test(struct kunit *test, u64 bid, bool client, s32 loop,
			u32 concur, u16 opc, u16 flags, u32 len, u32 off)
{
	u8 u[12];

	put_unaligned_le16(opc, u);
	put_unaligned_le16(flags, u + 2);
	put_unaligned_le32(len, u + 4);
	put_unaligned_le32(off, u + 8);
	return add_test(test, bid, LST_SVC_BRW, client, loop, concur, u);
}

/* BATCH @opc on @bid: the reply's status; *@active: bar_active. */
static u32 batch(struct kunit *test, u64 bid, u32 opc, u32 idx, u32 arg,
		 u32 *active)
{
	struct rpc_wait w;
	struct lst_crpc *rpc = rpc_new(test, LST_SVC_BATCH, &w);
	u32 status;

	put_sid(rpc->req, NID_A, 7);
	lst_put64(rpc->req, LST_BAR_BID, bid);
	lst_put32(rpc->req, LST_BAR_OPC, opc);
	lst_put32(rpc->req, LST_BAR_TESTIDX, idx);
	lst_put32(rpc->req, LST_BAR_ARG, arg);
	KUNIT_EXPECT_EQ(test, rpc_run(rpc, 10), 0);
	status = reply_status(rpc);
	if (active)
		*active = lst_get32(rpc->reply, LST_BAR_REP_ACTIVE);
	lst_crpc_free(rpc);
	return status;
}

/* Wait (10 s at most) until batch @bid has no active test. */
static void batch_wait_idle(struct kunit *test, u64 bid)
{
	u32 active = 1;
	int i;

	for (i = 0; i < 100 && active; i++) {
		KUNIT_ASSERT_EQ(test, batch(test, bid, 3, 0, 0, &active), 0);
		if (active)
			msleep(100);
	}
	KUNIT_EXPECT_EQ(test, active, 0U);
}

/*
 * A PING test of this node against itself, as a console would set it up
 * (spec 7.3): a server instance, a client one whose destination list the
 * node GETs from the console, run, queried, stopped; every ping answered.
 */
static void rpc_ping_batch(struct kunit *test)
{
	struct lst_crpc *rpc;
	u32 rcvd, active;

	KUNIT_ASSERT_EQ(test, mksn(test, NID_A, false, "ping", NULL), 0);
	KUNIT_EXPECT_EQ(test, add_ping_test(test, 1, false, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, add_ping_test(test, 1, true, 5, 2), 0);
	/* a batch nobody made, an opcode nobody knows */
	KUNIT_EXPECT_EQ(test, batch(test, 9, 1, 0, 0, NULL), ENOENT);

	rcvd = atomic_read(&lst_rpc_stats.rpcs_rcvd);
	KUNIT_EXPECT_EQ(test, batch(test, 1, 1, 0, 0, NULL), 0);
	batch_wait_idle(test, 1);
	/* 2 units x 5 pings, and the RUN and QUERYs */
	KUNIT_EXPECT_GE(test, atomic_read(&lst_rpc_stats.rpcs_rcvd),
			rcvd + 10 + 2);
	KUNIT_EXPECT_EQ(test, batch(test, 1, 3, 2, 0, &active), 0);
	KUNIT_EXPECT_EQ(test, active, 0U);
	KUNIT_EXPECT_EQ(test, batch(test, 1, 3, 3, 0, NULL), ENOENT);
	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_QUERY_STAT, NID_A, &rpc),
			0);
	KUNIT_EXPECT_EQ(test, lst_get32(rpc->reply, LST_STR_REP_FW + 16), 0U);
	lst_crpc_free(rpc);

	/* forever, until a forced stop; nothing counted as an error */
	KUNIT_EXPECT_EQ(test, add_ping_test(test, 2, false, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, add_ping_test(test, 2, true, -1, 1), 0);
	KUNIT_EXPECT_EQ(test, batch(test, 2, 1, 0, 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, batch(test, 2, 3, 0, 0, &active), 0);
	KUNIT_EXPECT_EQ(test, active, 1U);
	/* a running batch takes no test */
	KUNIT_EXPECT_EQ(test, add_ping_test(test, 2, true, 1, 1), EBUSY);
	KUNIT_EXPECT_EQ(test, batch(test, 2, 2, 0, 1, NULL), 0);
	batch_wait_idle(test, 2);
	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_QUERY_STAT, NID_A, &rpc),
			0);
	KUNIT_EXPECT_EQ(test, lst_get32(rpc->reply, LST_STR_REP_FW + 16), 0U);
	lst_crpc_free(rpc);

	/* the session ends with a batch running: it stops, and goes */
	KUNIT_EXPECT_EQ(test, batch(test, 2, 1, 0, 0, NULL), 0);
	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_REMOVE_SESSION, NID_A,
				     NULL), 0);
}

/* A ping of a bad magic gets no reply; without a server, no buffer. */
static void rpc_ping_refused(struct kunit *test)
{
	struct rpc_wait w;
	struct lst_crpc *rpc;

	KUNIT_ASSERT_EQ(test, mksn(test, NID_A, false, "ping", NULL), 0);
	KUNIT_EXPECT_EQ(test, add_ping_test(test, 1, false, 1, 1), 0);
	rpc = rpc_new(test, LST_SVC_PING, &w);
	lst_put32(rpc->req, LST_PNR_MAGIC, 0xdeadbeef);
	KUNIT_EXPECT_EQ(test, rpc_run(rpc, 1), -ETIMEDOUT);
	lst_crpc_free(rpc);
	rpc = rpc_new(test, LST_SVC_PING, &w);
	lst_put32(rpc->req, LST_PNR_MAGIC, LST_PING_MAGIC);
	lst_put32(rpc->req, LST_PNR_SEQ, 42);
	KUNIT_EXPECT_EQ(test, rpc_run(rpc, 10), 0);
	KUNIT_EXPECT_EQ(test, lst_get32(rpc->reply, LST_PNR_REP_SEQ), 42U);
	KUNIT_EXPECT_EQ(test, lst_get32(rpc->reply, LST_PNR_REP_MAGIC),
			LST_PING_MAGIC);
	lst_crpc_free(rpc);
	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_REMOVE_SESSION, NID_A,
				     NULL), 0);
	/* the session gone, so is the server instance and its buffers */
	rpc = rpc_new(test, LST_SVC_PING, &w);
	lst_put32(rpc->req, LST_PNR_MAGIC, LST_PING_MAGIC);
	KUNIT_EXPECT_EQ(test, rpc_run(rpc, 1), -ETIMEDOUT);
	lst_crpc_free(rpc);
}

/*
 * The node's budget of client units (issue: PING units were charged to
 * none, so a console could make 256 x 256 instances of 65,536): the
 * instances that fill it exactly are taken, one unit more is refused
 * with ENOMEM in the TEST reply, the node goes on serving, and the
 * budget comes back with the session.  All destinations are this node.
 */
static void rpc_unit_budget(struct kunit *test)
{
	unsigned int i, n = LST_NODE_UNITS_MAX / LST_UNITS_MAX;
	struct rpc_wait w;
	struct lst_crpc *rpc;

	KUNIT_ASSERT_EQ(test, n, 4U);
	KUNIT_ASSERT_EQ(test, mksn(test, NID_A, false, "units", NULL), 0);
	KUNIT_ASSERT_EQ(test, add_ping_test(test, 1, false, 1, 1), 0);
	KUNIT_ASSERT_EQ(test, add_ping_test(test, 1, true, 3, 1), 0);
	/* 1 + 3 x 64 x 1024 + 255 x 257 = 4 x 65,536 units */
	for (i = 0; i < n - 1; i++)
		KUNIT_EXPECT_EQ_MSG(test, add_test_dests(test, 10 + i,
							 LST_SVC_PING, 64, 1,
							 1024, NULL), 0,
				    "instance %u", i + 1);
	KUNIT_EXPECT_EQ(test, add_test_dests(test, 9, LST_SVC_PING, 255, 1,
					     257, NULL), 0);
	KUNIT_EXPECT_EQ(test, add_ping_test(test, 99, true, 1, 1), ENOMEM);
	KUNIT_EXPECT_EQ(test, add_ping_test(test, 10, true, 1, 1), ENOMEM);
	/* still serving: a ping is answered, a batch runs */
	rpc = rpc_new(test, LST_SVC_PING, &w);
	lst_put32(rpc->req, LST_PNR_MAGIC, LST_PING_MAGIC);
	lst_put32(rpc->req, LST_PNR_SEQ, 7);
	KUNIT_EXPECT_EQ(test, rpc_run(rpc, 10), 0);
	KUNIT_EXPECT_EQ(test, lst_get32(rpc->reply, LST_PNR_REP_SEQ), 7U);
	lst_crpc_free(rpc);
	KUNIT_EXPECT_EQ(test, batch(test, 1, 1, 0, 0, NULL), 0);
	batch_wait_idle(test, 1);
	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_REMOVE_SESSION, NID_A,
				     NULL), 0);
	/* the session gone, its units' budget is free again */
	KUNIT_ASSERT_EQ(test, mksn(test, NID_A, false, "units", NULL), 0);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, add_test_dests(test, 10 + i,
						     LST_SVC_PING, 64, 1,
						     1024, NULL), 0);
	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_REMOVE_SESSION, NID_A,
				     NULL), 0);
}

/* brw_errors of the session (QUERY_STAT). */
static u32 brw_errors(struct kunit *test)
{
	struct lst_crpc *rpc;
	u32 n;

	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_QUERY_STAT, NID_A, &rpc),
			0);
	n = lst_get32(rpc->reply, LST_STR_REP_FW + 12);
	lst_crpc_free(rpc);
	return n;
}

/*
 * BRW against ourselves (spec 5): WRITE and READ, check=full and simple,
 * 1 MiB and an unaligned client buffer, every word checked at the
 * reader; what a stock node would choke on, refused with EINVAL.
 */
static void rpc_brw_batch(struct kunit *test)
{
	s64 got = atomic64_read(&lst_rpc_stats.bulk_get);
	s64 put = atomic64_read(&lst_rpc_stats.bulk_put);
	struct rpc_wait w;
	struct lst_crpc *rpc;

	KUNIT_ASSERT_EQ(test, mksn(test, NID_A, false, "brw", NULL), 0);
	KUNIT_EXPECT_EQ(test, add_brw_test(test, 1, false, 1, 1, 0, 0, 0, 0),
			0);
	KUNIT_EXPECT_EQ(test, add_brw_test(test, 1, true, 3, 2, LST_BRW_WRITE,
					   LST_BRW_CHECK_FULL, SZ_1M, 0), 0);
	KUNIT_EXPECT_EQ(test, add_brw_test(test, 1, true, 2, 1, LST_BRW_READ,
					   LST_BRW_CHECK_FULL, 4096 + 8, 8),
			0);
	KUNIT_EXPECT_EQ(test, add_brw_test(test, 1, true, 2, 1, LST_BRW_READ,
					   LST_BRW_CHECK_SIMPLE, 8, 0), 0);
	KUNIT_EXPECT_EQ(test, batch(test, 1, 1, 0, 0, NULL), 0);
	batch_wait_idle(test, 1);
	KUNIT_EXPECT_EQ(test, brw_errors(test), 0U);
	/*
	 * The server GETs what is written, PUTs what is read; the node GOT
	 * the three client TESTs' destination lists too (12 bytes each).
	 */
	KUNIT_EXPECT_EQ(test, atomic64_read(&lst_rpc_stats.bulk_get) - got,
			6LL * SZ_1M + 3 * LST_DEST_SIZE);
	KUNIT_EXPECT_EQ(test, atomic64_read(&lst_rpc_stats.bulk_put) - put,
			2LL * (4096 + 8) + 2 * 8);

	/* refused at the client: lengths and offsets of whole words only */
	KUNIT_EXPECT_EQ(test, add_brw_test(test, 2, true, 1, 1, LST_BRW_WRITE,
					   LST_BRW_CHECK_FULL, 12, 0), EINVAL);
	KUNIT_EXPECT_EQ(test, add_brw_test(test, 2, true, 1, 1, LST_BRW_WRITE,
					   LST_BRW_CHECK_FULL, 16, 4), EINVAL);
	KUNIT_EXPECT_EQ(test, add_brw_test(test, 2, true, 1, 1, 3,
					   LST_BRW_CHECK_FULL, 16, 0), EINVAL);
	KUNIT_EXPECT_EQ(test, add_brw_test(test, 2, true, 1, 1, LST_BRW_READ,
					   LST_BRW_CHECK_FULL, SZ_1M + 8, 0),
			EINVAL);
	/* 1024 units of 1 MiB: beyond what a node gives a console's BRWs */
	KUNIT_EXPECT_EQ(test, add_brw_test(test, 2, true, 1, 1024,
					   LST_BRW_WRITE, LST_BRW_CHECK_FULL,
					   SZ_1M, 0), ENOMEM);
	/* ... which took nothing: 64 of them fit */
	KUNIT_EXPECT_EQ(test, add_brw_test(test, 2, true, 1, 64,
					   LST_BRW_WRITE, LST_BRW_CHECK_NONE,
					   SZ_1M, 0), 0);

	/* ... and at the server, with no bulk */
	rpc = rpc_new(test, LST_SVC_BRW, &w);
	lst_put32(rpc->req, LST_BRW_RW, LST_BRW_READ);
	lst_put32(rpc->req, LST_BRW_LEN, 12);
	lst_put32(rpc->req, LST_BRW_FLAGS, LST_BRW_CHECK_NONE);
	KUNIT_EXPECT_EQ(test, rpc_run(rpc, 10), 0);
	KUNIT_EXPECT_EQ(test, reply_status(rpc), EINVAL);
	lst_crpc_free(rpc);
	KUNIT_EXPECT_EQ(test, simple(test, LST_SVC_REMOVE_SESSION, NID_A,
				     NULL), 0);
}

static struct kunit_case lst_rpc_cases[] = {
	KUNIT_CASE(rpc_debug_no_session),
	KUNIT_CASE(rpc_session_life),
	KUNIT_CASE(rpc_session_force),
	KUNIT_CASE(rpc_query_stat),
	KUNIT_CASE(rpc_version_feats),
	KUNIT_CASE(rpc_big_endian),
	KUNIT_CASE(rpc_dropped),
	KUNIT_CASE(rpc_ping_batch),
	KUNIT_CASE(rpc_ping_refused),
	KUNIT_CASE(rpc_brw_batch),
	KUNIT_CASE(rpc_unit_budget),
	{}
};

static struct kunit_suite lst_rpc_suite = {
	.name = "lst_rpc",
	.test_cases = lst_rpc_cases,
};

kunit_test_suite(lst_rpc_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit: selftest RPCs over LNet's loopback");
