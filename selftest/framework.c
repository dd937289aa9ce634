// SPDX-License-Identifier: GPL-2.0
/*
 * The test node's framework services (spec lnet-selftest.md 4): the
 * session a console makes on this node, kept alive by its requests and
 * ended by REMOVE_SESSION, by a forced MAKE_SESSION of another console or
 * by session_timeout seconds without a framework request; DEBUG and
 * QUERY_STAT answer about it.
 *
 * Framework requests are served one at a time (one ordered work queue,
 * spec 2.7) under lst_fw_mutex, which also guards the session against
 * its expiry.  The rules (which status, what happens to the session) are
 * rules.c's pure functions; this file applies them.
 */
#include <linux/highmem.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <kunit/visibility.h>

#include <lnet/ctl.h>

#include "selftest.h"

static DEFINE_MUTEX(lst_fw_mutex);
static struct lst_session *lst_session;	/* the current one, or NULL */
static u64 lst_session_started;		/* its creation, ktime ns */
static struct workqueue_struct *lst_fw_wq;
static struct delayed_work lst_fw_expiry;
static unsigned long lst_fw_touched;		/* jiffies of the last request */

static const struct lst_sid lst_sid_none = {
	.nid = LST_NID_ANY,
	.stamp = -1,
};

static struct lst_sid lst_req_sid(const void *msg)
{
	return (struct lst_sid) {
		.nid = lst_get64(msg, LST_REQ_SID + LST_SID_NID),
		.stamp = (s64)lst_get64(msg, LST_REQ_SID + LST_SID_STAMP),
	};
}

/* Reply status (positive errno) and the node's sid after the request. */
static void lst_fw_reply(struct lst_srpc *rpc, int status)
{
	const struct lst_sid *sid = lst_session ? &lst_session->sid :
						  &lst_sid_none;

	lst_put32(rpc->reply, LST_REP_STATUS, -status);
	lst_put64(rpc->reply, LST_REP_SID + LST_SID_NID, sid->nid);
	lst_put64(rpc->reply, LST_REP_SID + LST_SID_STAMP, (u64)sid->stamp);
	/* The session's features, or all we know (spec 3.7 rule 5). */
	put_unaligned_le32(lst_session && status != -EPROTO ?
			   lst_session->feats : LST_FEATS_MASK,
			   rpc->reply + LST_HDR_FEATS);
}

/*
 * End the current session (spec 4.9): its batches stop, forced, and go
 * once their units are idle (lst_batches_end()).
 */
static void lst_session_end(void)
{
	if (!lst_session)
		return;
	lst_batches_end(lst_session);
	kfree(lst_session);
	lst_session = NULL;
}

static bool lst_sid_is(const struct lst_sid *sid)
{
	return lst_session && lst_session->sid.nid == sid->nid &&
	       lst_session->sid.stamp == sid->stamp;
}

static void lst_fw_expire(struct work_struct *work)
{
	mutex_lock(&lst_fw_mutex);
	/* A request that came while this work was starting restarted it. */
	if (lst_session && lst_session->timeout &&
	    time_after_eq(jiffies, lst_fw_touched +
			  lst_session->timeout * HZ)) {
		pr_info("lnet_selftest: session '%s' expired after %u s without a request\n",
			lst_session->name, lst_session->timeout);
		lst_session_end();
	}
	mutex_unlock(&lst_fw_mutex);
}

/* Any framework request restarts the session's idle clock (spec 4.2). */
static void lst_fw_touch(void)
{
	lst_fw_touched = jiffies;
	if (lst_session && lst_session->timeout)
		mod_delayed_work(lst_fw_wq, &lst_fw_expiry,
				 lst_session->timeout * HZ);
	else
		cancel_delayed_work(&lst_fw_expiry);
}

static int lst_fw_mksn(struct lst_srpc *rpc)
{
	struct lst_sid sid = lst_req_sid(rpc->req);
	enum lst_sess_action act;
	struct lst_session *s;
	int rc;

	rc = lst_mksn_rule(lst_session, &sid,
			   lst_get32(rpc->req, LST_MKSN_FORCE), &act);
	if (act == LST_SESS_REF)
		lst_session->refs++;
	if (act == LST_SESS_CREATE || act == LST_SESS_REPLACE) {
		s = kzalloc(sizeof(*s), GFP_KERNEL);
		if (!s)
			return -ENOMEM;	/* no reply, as stock */
		s->sid = sid;
		memcpy(s->name, lst_body(rpc->req) + LST_MKSN_NAME,
		       LST_NAME_MAX);
		s->feats = rpc->info.feats;
		s->timeout = READ_ONCE(lst_session_timeout);
		s->refs = 1;
		INIT_LIST_HEAD(&s->batches);
		if (lst_session)
			pr_info("lnet_selftest: session '%s' replaced by '%s'\n",
				lst_session->name, s->name);
		lst_session_end();
		lst_session = s;
		lst_session_started = ktime_get_ns();
	}
	lst_fw_reply(rpc, rc);
	if (lst_session) {
		lst_put32(rpc->reply, LST_MKSN_REP_TIMEOUT, lst_session->timeout);
		if (rc == -EBUSY)
			memcpy(lst_body(rpc->reply) + LST_MKSN_REP_NAME,
			       lst_session->name, LST_NAME_MAX);
	}
	return 0;
}

static int lst_fw_rmsn(struct lst_srpc *rpc)
{
	struct lst_sid sid = lst_req_sid(rpc->req);
	enum lst_sess_action act;
	int rc;

	rc = lst_rmsn_rule(lst_session, &sid, &act);
	if (act == LST_SESS_UNREF && !--lst_session->refs)
		lst_session_end();
	lst_fw_reply(rpc, rc);
	return 0;
}

static int lst_fw_debug(struct lst_srpc *rpc)
{
	lst_fw_reply(rpc, lst_session ? 0 : -ESRCH);
	if (lst_session) {
		lst_put32(rpc->reply, LST_DBG_REP_TIMEOUT, lst_session->timeout);
		memcpy(lst_body(rpc->reply) + LST_DBG_REP_NAME,
		       lst_session->name, LST_NAME_MAX);
	}
	return 0;
}

/* QUERY_STAT's three counter blocks (spec 3.6). */
static void lst_fw_stat_fill(void *reply)
{
	u64 ms = div_u64(ktime_get_ns() - lst_session_started,
			 NSEC_PER_MSEC);
	struct lnet_counters_common c;
	struct lst_batch *b;
	u32 active = 0;

	list_for_each_entry(b, &lst_session->batches, link)
		active += !!atomic_read(&b->active);
	lst_put32(reply, LST_STR_REP_FW + 0, (u32)ms);
	lst_put32(reply, LST_STR_REP_FW + 4, active);
	lst_put32(reply, LST_STR_REP_FW + 8, 0);	/* zombie sessions */
	lst_put32(reply, LST_STR_REP_FW + 12,
		  atomic_read(&lst_session->brw_errors));
	lst_put32(reply, LST_STR_REP_FW + 16,
		  atomic_read(&lst_session->ping_errors));

	lst_put32(reply, LST_STR_REP_RPC + 0,
		  atomic_read(&lst_rpc_stats.errors));
	lst_put32(reply, LST_STR_REP_RPC + 4,
		  atomic_read(&lst_rpc_stats.rpcs_sent));
	lst_put32(reply, LST_STR_REP_RPC + 8,
		  atomic_read(&lst_rpc_stats.rpcs_rcvd));
	lst_put32(reply, LST_STR_REP_RPC + 12,
		  atomic_read(&lst_rpc_stats.rpcs_dropped));
	lst_put32(reply, LST_STR_REP_RPC + 16,
		  atomic_read(&lst_rpc_stats.rpcs_expired));
	lst_put64(reply, LST_STR_REP_RPC + 20,
		  atomic64_read(&lst_rpc_stats.bulk_get));
	lst_put64(reply, LST_STR_REP_RPC + 28,
		  atomic64_read(&lst_rpc_stats.bulk_put));

	lnet_counters_get(&c);
	lst_put32(reply, LST_STR_REP_LNET + 0, c.msgs_alloc);
	lst_put32(reply, LST_STR_REP_LNET + 4, c.msgs_max);
	lst_put32(reply, LST_STR_REP_LNET + 8, c.errors);
	lst_put32(reply, LST_STR_REP_LNET + 12, c.send_count);
	lst_put32(reply, LST_STR_REP_LNET + 16, c.recv_count);
	lst_put32(reply, LST_STR_REP_LNET + 20, c.route_count);
	lst_put32(reply, LST_STR_REP_LNET + 24, c.drop_count);
	lst_put64(reply, LST_STR_REP_LNET + 28, c.send_length);
	lst_put64(reply, LST_STR_REP_LNET + 36, c.recv_length);
	lst_put64(reply, LST_STR_REP_LNET + 44, c.route_length);
	lst_put64(reply, LST_STR_REP_LNET + 52, c.drop_length);
}

static int lst_fw_stat(struct lst_srpc *rpc)
{
	struct lst_sid sid = lst_req_sid(rpc->req);
	int rc = 0;

	if (sid.nid == LST_NID_ANY)
		rc = -EINVAL;
	else if (!lst_sid_is(&sid))
		rc = -ESRCH;
	lst_fw_reply(rpc, rc);
	if (!rc)
		lst_fw_stat_fill(rpc->reply);
	return 0;
}

static int lst_fw_batch(struct lst_srpc *rpc)
{
	struct lst_sid sid = lst_req_sid(rpc->req);
	int rc = -ESRCH;

	if (lst_sid_is(&sid))
		rc = lst_batch_request(lst_session, rpc->req, rpc->reply);
	if (rc == -EOPNOTSUPP)
		return rc;	/* an unknown opcode: no reply (spec 4.7) */
	lst_fw_reply(rpc, rc);
	return 0;
}

/*
 * The bytes of a client TEST's destination list: 12 per destination with
 * BULK_LEN, else whole pages of 341 (spec 3.7, 4.6).
 */
static unsigned int lst_dests_len(u32 ndest, u32 feats)
{
	if (feats & LST_FEAT_BULK_LEN)
		return ndest * LST_DEST_SIZE;
	return DIV_ROUND_UP(ndest, LST_DESTS_PER_PAGE) * PAGE_SIZE;
}

/* TEST (spec 4.6): a server instance now, a client's once its list came. */
static int lst_fw_test(struct lst_srpc *rpc)
{
	u32 ndest = lst_get32(rpc->req, LST_TSR_NDEST);
	int rc = lst_test_rule(rpc->req, lst_session);

	if (!rc && *(lst_body(rpc->req) + LST_TSR_IS_CLIENT)) {
		/* the list first: lst_fw_test_list() goes on from there */
		rpc->bulk = lst_bulk_alloc(lst_dests_len(ndest, rpc->info.feats),
					   0, true);
		return rpc->bulk ? 0 : -ENOMEM;
	}
	if (!rc)
		rc = lst_test_add(lst_session, rpc->req, NULL);
	lst_fw_reply(rpc, rc);
	return 0;
}

/* The destinations of a client TEST, from its bulk, little-endian. */
static int lst_dests_parse(struct lst_srpc *rpc, struct lnet_processid *d,
			   u32 ndest)
{
	u8 e[LST_DEST_SIZE];
	unsigned int i, off;

	for (i = 0; i < ndest; i++) {
		const struct bio_vec *bv;

		off = (i / LST_DESTS_PER_PAGE) * PAGE_SIZE +
		      (i % LST_DESTS_PER_PAGE) * LST_DEST_SIZE;
		/* a list shorter than its entries (a stock console's) */
		if (off + LST_DEST_SIZE > rpc->bulk->len)
			return -EINVAL;
		bv = &rpc->bulk->kiov[off / PAGE_SIZE];
		memcpy_from_page(e, bv->bv_page, off % PAGE_SIZE,
				 LST_DEST_SIZE);
		lst_dests_unpack(e, 1, rpc->info.swapped);
		lnet_nid4_to_nid(get_unaligned_le64(e), &d[i].nid);
		d[i].pid = get_unaligned_le32(e + 8);
	}
	return 0;
}

/* A client TEST's destination list arrived (or not: then no reply). */
static int lst_fw_test_list(struct lst_srpc *rpc)
{
	u32 ndest = lst_get32(rpc->req, LST_TSR_NDEST);
	struct lnet_processid *dests;
	int rc;

	if (rpc->bulk_status)
		return rpc->bulk_status;
	dests = kvcalloc(ndest, sizeof(*dests), GFP_KERNEL);
	if (!dests)
		return -ENOMEM;
	mutex_lock(&lst_fw_mutex);
	/* the session may have changed while the list came */
	rc = lst_test_rule(rpc->req, lst_session);
	if (!rc)
		rc = lst_dests_parse(rpc, dests, ndest);
	if (!rc)
		rc = lst_test_add(lst_session, rpc->req, dests);
	lst_fw_reply(rpc, rc);
	lst_fw_touch();
	mutex_unlock(&lst_fw_mutex);
	kvfree(dests);
	return 0;
}

/* Every framework request: features, then the service's own rules. */
static int lst_fw_handle(struct lst_srpc *rpc)
{
	int rc;

	mutex_lock(&lst_fw_mutex);
	rc = lst_feats_status(rpc->info.type, rpc->info.version,
			      rpc->info.feats, lst_session);
	if (rc) {
		lst_fw_reply(rpc, rc);
		rc = 0;
	} else {
		switch (rpc->svc->id) {
		case LST_SVC_MAKE_SESSION:
			rc = lst_fw_mksn(rpc);
			break;
		case LST_SVC_REMOVE_SESSION:
			rc = lst_fw_rmsn(rpc);
			break;
		case LST_SVC_DEBUG:
			rc = lst_fw_debug(rpc);
			break;
		case LST_SVC_QUERY_STAT:
			rc = lst_fw_stat(rpc);
			break;
		case LST_SVC_BATCH:
			rc = lst_fw_batch(rpc);
			break;
		case LST_SVC_TEST:
			rc = lst_fw_test(rpc);
			break;
		default:
			rc = -EOPNOTSUPP;
		}
	}
	lst_fw_touch();
	mutex_unlock(&lst_fw_mutex);
	return rc;
}

#define LST_FW_NBUF	256	/* request buffers per service, as stock */

static struct lst_svc lst_fw_services[] = {
	{ .name = "debug", .id = LST_SVC_DEBUG },
	{ .name = "make_session", .id = LST_SVC_MAKE_SESSION },
	{ .name = "remove_session", .id = LST_SVC_REMOVE_SESSION },
	{ .name = "query_stat", .id = LST_SVC_QUERY_STAT },
	{ .name = "batch", .id = LST_SVC_BATCH },
	{ .name = "test", .id = LST_SVC_TEST,
	  .bulk_done = lst_fw_test_list },
};

/**
 * lst_framework_start() - serve the framework services
 *
 * Return: 0 or -errno.
 */
int lst_framework_start(void)
{
	unsigned int i;
	int rc = 0;

	lst_fw_wq = alloc_ordered_workqueue("lst_fw", 0);
	if (!lst_fw_wq)
		return -ENOMEM;
	INIT_DELAYED_WORK(&lst_fw_expiry, lst_fw_expire);
	for (i = 0; i < ARRAY_SIZE(lst_fw_services) && !rc; i++) {
		lst_fw_services[i].nbuf = LST_FW_NBUF;
		lst_fw_services[i].handle = lst_fw_handle;
		lst_fw_services[i].wq = lst_fw_wq;
		rc = lst_service_start(&lst_fw_services[i]);
	}
	if (!rc)
		return 0;
	while (--i > 0)
		lst_service_stop(&lst_fw_services[i - 1]);
	destroy_workqueue(lst_fw_wq);
	return rc;
}

/**
 * lst_framework_stop() - stop serving; the session ends
 */
void lst_framework_stop(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lst_fw_services); i++)
		lst_service_stop(&lst_fw_services[i]);
	cancel_delayed_work_sync(&lst_fw_expiry);
	destroy_workqueue(lst_fw_wq);
	mutex_lock(&lst_fw_mutex);
	lst_session_end();
	mutex_unlock(&lst_fw_mutex);
}
