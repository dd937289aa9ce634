// SPDX-License-Identifier: GPL-2.0
/*
 * Selftest client RPCs (spec lnet-selftest.md 2.3-2.6, 2.8): a request PUT
 * to a service of a peer, its reply PUT back into a buffer we posted, and
 * maybe a bulk the server PUTs into or GETs from a buffer we posted.
 *
 * Life of an RPC: lst_crpc_alloc() by its user, who fills the request
 * body; lst_crpc_post() takes the ids, posts the reply (and bulk) MD,
 * sends the request and arms the expiry; each MD ends with an event that
 * has @unlinked set, and when the last one has, ->done() runs once, in
 * process context, with the status; the user then lst_crpc_free()s it.
 * An abort (expiry, or the user's) unlinks whatever is still posted: the
 * events still come, so ->done() is still the end.
 *
 * LNet calls the event handler under its lock and may call it from
 * lnet_md_unlink(): nothing here calls LNet holding rpc->lock.
 */
#include <linux/delay.h>
#include <linux/errno.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include <kunit/visibility.h>

#include "selftest.h"

struct lst_rpc_stats lst_rpc_stats;
EXPORT_SYMBOL_IF_KUNIT(lst_rpc_stats);
struct workqueue_struct *lst_wq;

/* Match bits of replies and bulks: seconds at load << 48, then +1 each. */
static atomic64_t lst_ids;

/**
 * lst_next_id() - a new reply or bulk id (spec 2.5)
 *
 * Return: an id unique on this node across module loads.
 */
u64 lst_next_id(void)
{
	return atomic64_inc_return(&lst_ids);
}

/**
 * lst_bulk_alloc() - pages for a bulk
 * @len: bytes, 1..1 MiB
 * @off: where the data starts in the first page
 * @sink: the data comes in
 *
 * Return: the bulk, or NULL.
 */
struct lst_bulk *lst_bulk_alloc(unsigned int len, unsigned int off, bool sink)
{
	unsigned int n = DIV_ROUND_UP(off + len, PAGE_SIZE), i, left = len;
	struct lst_bulk *bk;

	if (!len || len > LST_BRW_MAX_LEN || off >= PAGE_SIZE)
		return NULL;
	bk = kzalloc(struct_size(bk, kiov, n), GFP_KERNEL);
	if (!bk)
		return NULL;
	bk->len = len;
	bk->off = off;
	bk->sink = sink;
	for (i = 0; i < n; i++) {
		struct page *pg = alloc_page(GFP_KERNEL);
		unsigned int pofs = i ? 0 : off;

		if (!pg) {
			lst_bulk_free(bk);
			return NULL;
		}
		bk->kiov[i].bv_page = pg;
		bk->kiov[i].bv_offset = pofs;
		bk->kiov[i].bv_len = min_t(unsigned int, left, PAGE_SIZE - pofs);
		left -= bk->kiov[i].bv_len;
		bk->npages++;
	}
	return bk;
}
EXPORT_SYMBOL_IF_KUNIT(lst_bulk_alloc);

/**
 * lst_bulk_free() - free a bulk and its pages
 * @bk: the bulk, or NULL
 */
void lst_bulk_free(struct lst_bulk *bk)
{
	unsigned int i;

	if (!bk)
		return;
	for (i = 0; i < bk->npages; i++)
		__free_page(bk->kiov[i].bv_page);
	kfree(bk);
}
EXPORT_SYMBOL_IF_KUNIT(lst_bulk_free);

/* The status an RPC ends with: the first failure, in protocol order. */
static int lst_crpc_status(const struct lst_crpc *rpc)
{
	bool whole = rpc->sent && rpc->replied &&
		     (!rpc->bulk || rpc->bulk_done || rpc->unlink_bulk);

	if (rpc->abort_status && !whole)
		return rpc->abort_status;
	if (rpc->req_status)
		return rpc->req_status;
	if (!rpc->sent)
		return -EIO;
	if (rpc->reply_status)
		return rpc->reply_status;
	if (!rpc->replied)
		return -EIO;
	/* A non-zero reply status ends the RPC, the bulk unlinked unused. */
	if (rpc->bulk && !rpc->unlink_bulk)
		return rpc->bulk_status ?: (rpc->bulk_done ? 0 : -EIO);
	return 0;
}

/* A reply arrived in rpc->reply: check it (spec 2.3); under rpc->lock. */
static void lst_crpc_reply(struct lst_crpc *rpc, unsigned int mlength)
{
	struct lst_msg_info *mi = &rpc->reply_info;
	u32 want = lst_service_req_type(rpc->service) + 1;

	if (lst_msg_unpack(rpc->reply, mlength, mi) || mi->type != want) {
		rpc->reply_status = -EBADMSG;
		return;
	}
	rpc->replied = true;
	if (rpc->bulk && lst_get32(rpc->reply, LST_REP_STATUS))
		rpc->unlink_bulk = true;
}

static void lst_crpc_event(struct lnet_event *ev)
{
	struct lst_crpc *rpc = ev->md_user_ptr;
	bool kick = false;
	unsigned long flags;

	if (ev->status && ev->status != -ECANCELED)
		atomic_inc(&lst_rpc_stats.errors);
	spin_lock_irqsave(&rpc->lock, flags);
	if (ev->md_start == rpc->req) {
		if (ev->type == LNET_EVENT_SEND && !ev->status) {
			rpc->sent = true;
			atomic_inc(&lst_rpc_stats.rpcs_sent);
		} else if (!rpc->req_status) {
			rpc->req_status = ev->status ?: -EINTR;
		}
	} else if (ev->md_start == rpc->reply) {
		if (ev->type == LNET_EVENT_PUT && !ev->status)
			lst_crpc_reply(rpc, ev->mlength);
		else if (ev->type == LNET_EVENT_PUT)
			rpc->reply_status = ev->status;
		kick = rpc->unlink_bulk;
	} else if (ev->type == LNET_EVENT_PUT || ev->type == LNET_EVENT_GET) {
		if (!ev->status && ev->mlength == rpc->bulk->len)
			rpc->bulk_done = true;
		else if (!rpc->bulk_status)
			rpc->bulk_status = ev->status ?: -EBADMSG;
	}
	if (ev->unlinked && !--rpc->live)
		kick = true;
	spin_unlock_irqrestore(&rpc->lock, flags);
	if (kick)
		queue_work(lst_wq, &rpc->work);
}

/* Unlink the MDs still posted; the events finish the RPC. */
static void lst_crpc_unlink(struct lst_crpc *rpc, bool req, bool reply,
			    bool bulk)
{
	if (req)
		lnet_md_unlink(rpc->req_mdh);
	if (reply)
		lnet_md_unlink(rpc->reply_mdh);
	if (bulk && rpc->bulk)
		lnet_md_unlink(rpc->bulk_mdh);
}

static void lst_crpc_work(struct work_struct *work)
{
	struct lst_crpc *rpc = container_of(work, struct lst_crpc, work);
	bool unlink, done;

	spin_lock_irq(&rpc->lock);
	done = !rpc->live && !rpc->finished;
	unlink = rpc->unlink_bulk && rpc->live;
	if (done)
		rpc->finished = true;
	spin_unlock_irq(&rpc->lock);
	if (unlink && !done)
		lst_crpc_unlink(rpc, false, false, true);
	if (!done)
		return;
	/* No MD is left: nothing can queue this work or the expiry again. */
	cancel_delayed_work_sync(&rpc->expiry);
	rpc->status = lst_crpc_status(rpc);
	rpc->done(rpc);
}

static void lst_crpc_expire(struct work_struct *work)
{
	struct lst_crpc *rpc = container_of(to_delayed_work(work),
					    struct lst_crpc, expiry);

	atomic_inc(&lst_rpc_stats.rpcs_expired);
	lst_crpc_abort(rpc, -ETIMEDOUT);
}

/**
 * lst_crpc_alloc() - a client RPC to fill and post
 * @dest: the peer
 * @service: the service (enum lst_service)
 * @feats: the session features the request carries
 * @bulk: NULL, or the bulk (the RPC does not own it)
 * @done: called when the RPC is over
 * @priv: for @done
 *
 * The request's header is set; its body is zero but for what
 * lst_crpc_post() writes (the reply and bulk ids).
 *
 * Return: the RPC, or NULL.
 */
struct lst_crpc *lst_crpc_alloc(const struct lnet_processid *dest,
				unsigned int service, u32 feats,
				struct lst_bulk *bulk, lst_crpc_done_t done,
				void *priv)
{
	struct lst_crpc *rpc = kzalloc(sizeof(*rpc), GFP_KERNEL);

	if (!rpc)
		return NULL;
	rpc->dest = *dest;
	rpc->service = service;
	rpc->bulk = bulk;
	rpc->done = done;
	rpc->priv = priv;
	rpc->req_mdh = LNET_MD_HANDLE_NONE;
	rpc->reply_mdh = LNET_MD_HANDLE_NONE;
	rpc->bulk_mdh = LNET_MD_HANDLE_NONE;
	lst_msg_init(rpc->req, lst_service_req_type(service), feats);
	spin_lock_init(&rpc->lock);
	INIT_DELAYED_WORK(&rpc->expiry, lst_crpc_expire);
	INIT_WORK(&rpc->work, lst_crpc_work);
	return rpc;
}
EXPORT_SYMBOL_IF_KUNIT(lst_crpc_alloc);

/* One more MD (or the poster) to wait for. */
static void lst_crpc_hold(struct lst_crpc *rpc)
{
	spin_lock_irq(&rpc->lock);
	rpc->live++;
	spin_unlock_irq(&rpc->lock);
}

/* One fewer; the last finishes the RPC. */
static void lst_crpc_release(struct lst_crpc *rpc)
{
	bool last;

	spin_lock_irq(&rpc->lock);
	last = !--rpc->live;
	spin_unlock_irq(&rpc->lock);
	if (last)
		queue_work(lst_wq, &rpc->work);
}

/* Attach a passive MD on the RDMA portal for @rpc: the reply or the bulk. */
static int lst_crpc_attach(struct lst_crpc *rpc, u64 id, void *start,
			   unsigned int length, unsigned int options,
			   struct lnet_handle_md *mdh)
{
	struct lnet_md md = {
		.start = start,
		.length = length,
		.threshold = 1,
		.options = options,
		.user_ptr = rpc,
		.handler = lst_crpc_event,
	};
	struct lnet_me *me;
	int rc;

	me = lnet_me_attach(LST_PORTAL_RDMA, &rpc->dest, id, 0, LNET_INS_AFTER);
	if (IS_ERR(me))
		return PTR_ERR(me);
	/* Its events may come as soon as it is attached: count it first. */
	lst_crpc_hold(rpc);
	rc = lnet_md_attach(me, &md, LNET_UNLINK, mdh);
	if (rc)
		lst_crpc_release(rpc);
	return rc;
}

/* PUT the request to the service (spec 2.2). */
static int lst_crpc_send(struct lst_crpc *rpc)
{
	struct lnet_md md = {
		.start = rpc->req,
		.length = LST_MSG_SIZE,
		.threshold = 1,
		.user_ptr = rpc,
		.handler = lst_crpc_event,
	};
	int rc;

	lst_crpc_hold(rpc);
	rc = lnet_md_bind(&md, LNET_UNLINK, &rpc->req_mdh);
	if (rc) {
		lst_crpc_release(rpc);
		return rc;
	}
	rc = lnet_put(NULL, rpc->req_mdh, LNET_NOACK_REQ, &rpc->dest,
		      lst_service_portal(rpc->service), rpc->service, 0, 0);
	if (rc) {
		spin_lock_irq(&rpc->lock);
		rpc->req_status = rc;
		spin_unlock_irq(&rpc->lock);
		lnet_md_unlink(rpc->req_mdh);
	}
	return rc;
}

/**
 * lst_crpc_post() - start an RPC (spec 2.6 client step 1)
 * @rpc: from lst_crpc_alloc(), its request body filled
 * @timeout: seconds before it is aborted with -ETIMEDOUT, 0 never
 *
 * Whatever happens, rpc->done() runs exactly once, later.
 */
void lst_crpc_post(struct lst_crpc *rpc, unsigned int timeout)
{
	u64 rpyid = lst_next_id();
	int rc;

	/*
	 * The poster holds the RPC until it is all posted: a reply (even a
	 * forged one) or a failure must not finish it under our feet.
	 */
	rpc->live = 1;
	lst_put64(rpc->req, LST_REQ_RPYID, rpyid);
	rc = lst_crpc_attach(rpc, rpyid, rpc->reply, LST_MSG_SIZE,
			     LNET_MD_OP_PUT, &rpc->reply_mdh);
	if (!rc && rpc->bulk) {
		u64 bulkid = lst_next_id();

		lst_put64(rpc->req, LST_REQ_BULKID, bulkid);
		rc = lst_crpc_attach(rpc, bulkid, rpc->bulk->kiov,
				     rpc->bulk->npages, LNET_MD_KIOV |
				     (rpc->bulk->sink ? LNET_MD_OP_PUT :
						       LNET_MD_OP_GET),
				     &rpc->bulk_mdh);
	}
	if (!rc)
		rc = lst_crpc_send(rpc);
	if (rc) {
		spin_lock_irq(&rpc->lock);
		if (!rpc->req_status)
			rpc->req_status = rc;
		spin_unlock_irq(&rpc->lock);
		lst_crpc_unlink(rpc, false, true, true);
	} else if (timeout) {
		queue_delayed_work(lst_wq, &rpc->expiry, timeout * HZ);
	}
	lst_crpc_release(rpc);
}
EXPORT_SYMBOL_IF_KUNIT(lst_crpc_post);

/**
 * lst_crpc_abort() - end an RPC early
 * @rpc: a posted RPC whose ->done() has not run
 * @why: its status, if it was not complete (-EINTR, -ETIMEDOUT)
 */
void lst_crpc_abort(struct lst_crpc *rpc, int why)
{
	spin_lock_irq(&rpc->lock);
	if (!rpc->abort_status)
		rpc->abort_status = why;
	spin_unlock_irq(&rpc->lock);
	lst_crpc_unlink(rpc, true, true, true);
}
EXPORT_SYMBOL_IF_KUNIT(lst_crpc_abort);

/**
 * lst_crpc_free() - free an RPC whose ->done() ran (or that was never
 *	posted)
 * @rpc: the RPC, or NULL
 */
void lst_crpc_free(struct lst_crpc *rpc)
{
	kfree(rpc);
}
EXPORT_SYMBOL_IF_KUNIT(lst_crpc_free);

/**
 * lst_rpc_init() - start the RPC layer: ids, work queue
 *
 * Return: 0 or -ENOMEM.
 */
int lst_rpc_init(void)
{
	/*
	 * Ids start at the wall clock's seconds << 48; a second's pause
	 * makes sure a quick reload never reuses the stamp (spec 2.5).
	 */
	ssleep(1);
	atomic64_set(&lst_ids, (u64)ktime_get_real_seconds() << 48);
	lst_wq = alloc_workqueue("lst_rpc", WQ_UNBOUND, 0);
	return lst_wq ? 0 : -ENOMEM;
}

/* After every RPC and service is gone. */
void lst_rpc_fini(void)
{
	destroy_workqueue(lst_wq);
}
