// SPDX-License-Identifier: GPL-2.0
/*
 * The subscriber role (Documentation/nidmap.rst, "Roles at run time"):
 * a copy of one publisher's table, kept up to date by FETCHes.
 *
 * One request at a time: SUBSCRIBE until it is answered, then FETCHes
 * while there is something to fetch (a notice of a version newer than
 * the copy's or of another epoch, a page with MORE, the periodic tick).
 * A notice only sets "fetch wanted", so a flood of notices costs one
 * decode each and at most one FETCH in flight.  A failed or refused
 * request is not retried at once: the tick (NIDMAP_SUB_PERIOD, a fifth
 * of it while not subscribed) tries again.  A notice or reply from a
 * new publisher incarnation means the publisher restarted and forgot
 * us: we subscribe again (its new epoch makes the next FETCH a resync).
 *
 * Everything runs on the ordered nidmap_wq but start and stop (netlink,
 * nidmap_cfg_lock).  Stop: no more requests, the one in flight aborted
 * and waited for, the notice endpoint stopped, the works cancelled; an
 * UNSUB is sent without waiting for its answer.
 */
#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include <lnet/ctl.h>

#include "node.h"

struct nidmap_sub {
	struct lnet_processid	pub;
	struct nidmap_copy	*copy;
	struct nidmap_ep	ep;
	struct mutex		lock;		/* below */
	struct nidmap_req	*req;		/* in flight */
	bool			subscribed;
	bool			want_fetch;
	bool			stopping;
	u64			pub_inc;	/* the publisher's incarnation */
	struct work_struct	kick;
	struct delayed_work	tick;
	wait_queue_head_t	waitq;
};

/* Under nidmap_cfg_lock. */
static struct nidmap_sub *nidmap_sub;

static void nidmap_sub_done(struct nidmap_req *req);

/* The next request, if one is due and none is in flight; under lock. */
static void nidmap_sub_next_locked(struct nidmap_sub *sub)
{
	struct nidmap_req *req;
	struct nidmap_enc enc;
	struct nidmap_hdr h;
	bool resync, fetch;
	u64 base;
	int len;

	if (sub->stopping || sub->req)
		return;
	fetch = sub->subscribed;
	if (fetch && !sub->want_fetch)
		return;
	req = nidmap_req_alloc(&sub->pub, fetch ? NIDMAP_FETCH_ROOM :
				NIDMAP_STATUS_ROOM, nidmap_sub_done, sub);
	if (!req)
		return;
	req->msg = kmalloc(NIDMAP_HDR_SIZE + NIDMAP_FETCH_BODY, GFP_KERNEL);
	if (!req->msg) {
		nidmap_req_free(req);
		return;
	}
	nidmap_hdr_init(&h, fetch ? NIDMAP_FETCH : NIDMAP_SUBSCRIBE);
	h.seq = req->seq;
	nidmap_copy_position(sub->copy, &h.epoch, &h.version, &base, &resync);
	if (fetch && resync) {
		h.flags = NIDMAP_F_FULL;
		h.base = base;
	}
	len = nidmap_enc_init(&enc, req->msg, NIDMAP_HDR_SIZE +
			      NIDMAP_FETCH_BODY, &h);
	if (!len && fetch)
		len = nidmap_enc_fetch(&enc, NIDMAP_FETCH_ROOM);
	if (!len)
		len = nidmap_enc_finish(&enc, 0);
	if (len < 0) {
		nidmap_req_free(req);
		return;
	}
	req->msg_len = len;
	if (fetch)
		sub->want_fetch = false;
	sub->req = req;
	nidmap_req_post(req);
}

/* The publisher's incarnation in a message from it; under lock. */
static void nidmap_sub_seen(struct nidmap_sub *sub, u64 inc)
{
	if (sub->pub_inc && sub->pub_inc != inc)
		sub->subscribed = false;	/* it restarted: forgot us */
	sub->pub_inc = inc;
}

/* An answer to our request (or its failure). */
static void nidmap_sub_done(struct nidmap_req *req)
{
	struct nidmap_sub *sub = req->priv;
	struct nidmap_msg msg;
	int rc = req->status;
	bool bad = false;

	mutex_lock(&sub->lock);
	sub->req = NULL;
	if (!rc) {
		rc = nidmap_msg_decode(req->reply, req->reply_len, &msg);
		if (!rc && (msg.hdr.reply_to != req->seq ||
			    (msg.hdr.type != NIDMAP_STATUS &&
			     msg.hdr.type != NIDMAP_FETCH_REPLY)))
			rc = -EPROTO;
		bad = rc != 0;
	}
	if (!rc) {
		nidmap_sub_seen(sub, msg.hdr.incarnation);
		if (msg.hdr.type == NIDMAP_STATUS && msg.hdr.status) {
			rc = -EREMOTEIO;	/* refused, BUSY: the tick retries */
		} else if (msg.hdr.type == NIDMAP_STATUS) {
			sub->subscribed = true;
			sub->want_fetch = true;
		} else {
			rc = nidmap_copy_apply(sub->copy, &msg);
			bad = rc != 0;
			if (!rc)
				nidmap_count(NIDMAP_A_CTR_PAGES);
			if (!rc && msg.hdr.flags & NIDMAP_F_MORE)
				sub->want_fetch = true;
		}
	}
	if (bad)
		nidmap_count(NIDMAP_A_CTR_RX_DROPPED);
	if (!rc)
		nidmap_sub_next_locked(sub);
	mutex_unlock(&sub->lock);
	nidmap_req_free(req);
	wake_up(&sub->waitq);
}

static void nidmap_sub_rx(struct nidmap_ep *ep, const void *buf,
			  unsigned int len, const struct lnet_processid *from)
{
	struct nidmap_sub *sub = ep->priv;
	struct nidmap_msg msg;
	u64 epoch, version, base;
	bool resync;

	if (nidmap_msg_decode(buf, len, &msg) ||
	    msg.hdr.type != NIDMAP_NOTICE ||
	    !lnet_nid_equal(&from->nid, &sub->pub.nid)) {
		nidmap_count(NIDMAP_A_CTR_RX_DROPPED);
		return;
	}
	nidmap_count(NIDMAP_A_CTR_NOTICES_RCVD);
	nidmap_copy_position(sub->copy, &epoch, &version, &base, &resync);
	mutex_lock(&sub->lock);
	nidmap_sub_seen(sub, msg.hdr.incarnation);
	if (msg.hdr.epoch != epoch || msg.hdr.version > version || resync)
		sub->want_fetch = true;
	nidmap_sub_next_locked(sub);
	mutex_unlock(&sub->lock);
}

static void nidmap_sub_kick(struct work_struct *work)
{
	struct nidmap_sub *sub = container_of(work, struct nidmap_sub, kick);

	mutex_lock(&sub->lock);
	nidmap_sub_next_locked(sub);
	mutex_unlock(&sub->lock);
}

static void nidmap_sub_tick(struct work_struct *work)
{
	struct nidmap_sub *sub = container_of(to_delayed_work(work),
					      struct nidmap_sub, tick);
	unsigned long next;

	mutex_lock(&sub->lock);
	sub->want_fetch = true;
	nidmap_sub_next_locked(sub);
	next = sub->subscribed ? NIDMAP_SUB_PERIOD : NIDMAP_SUB_PERIOD / 5;
	if (!sub->stopping)
		queue_delayed_work(nidmap_wq, &sub->tick, next);
	mutex_unlock(&sub->lock);
}

/**
 * nidmap_sub_start() - subscribe to a publisher
 * @publisher: its NID
 *
 * Context: process context, nidmap_cfg_lock held.
 * Return: 0; -EALREADY; -ENETDOWN LNet not running; -ENOMEM.
 */
int nidmap_sub_start(const struct lnet_nid *publisher)
{
	struct nidmap_sub *sub;
	int rc;

	if (nidmap_sub)
		return -EALREADY;
	if (!lnet_is_configured())
		return -ENETDOWN;
	sub = kzalloc(sizeof(*sub), GFP_KERNEL);
	if (!sub)
		return -ENOMEM;
	sub->copy = nidmap_copy_create(NIDMAP_COPY_MAX);
	if (!sub->copy) {
		kfree(sub);
		return -ENOMEM;
	}
	sub->pub.nid = *publisher;
	sub->pub.pid = LNET_PID_LUSTRE;
	mutex_init(&sub->lock);
	init_waitqueue_head(&sub->waitq);
	INIT_WORK(&sub->kick, nidmap_sub_kick);
	INIT_DELAYED_WORK(&sub->tick, nidmap_sub_tick);
	rc = lnet_ni_init();
	if (rc)
		goto fail;
	sub->ep.match = NIDMAP_MB_SUBSCRIBER;
	sub->ep.size = NIDMAP_SUB_RX_SIZE;
	sub->ep.nbuf = NIDMAP_SUB_RX_NBUF;
	sub->ep.handle = nidmap_sub_rx;
	sub->ep.priv = sub;
	rc = nidmap_ep_start(&sub->ep);
	if (rc) {
		lnet_ni_fini();
		goto fail;
	}
	nidmap_sub = sub;
	queue_work(nidmap_wq, &sub->kick);
	queue_delayed_work(nidmap_wq, &sub->tick, NIDMAP_SUB_PERIOD / 5);
	return 0;
fail:
	nidmap_copy_destroy(sub->copy);
	kfree(sub);
	return rc;
}

static void nidmap_sub_unsub_sent(void *arg, int status)
{
	complete(arg);
}

/*
 * Tell the publisher to stop its notices: the send is waited for (LNet
 * must not lose its user under it), the answer is not.
 */
static void nidmap_sub_unsubscribe(struct nidmap_sub *sub)
{
	DECLARE_COMPLETION_ONSTACK(sent);
	struct nidmap_enc enc;
	struct nidmap_hdr h;
	void *buf;
	int len;

	buf = kmalloc(NIDMAP_HDR_SIZE, GFP_KERNEL);
	if (!buf)
		return;
	nidmap_hdr_init(&h, NIDMAP_SUBSCRIBE);
	h.seq = nidmap_next_seq();
	h.flags = NIDMAP_F_UNSUB;
	len = nidmap_enc_init(&enc, buf, NIDMAP_HDR_SIZE, &h) ?:
	      nidmap_enc_finish(&enc, 0);
	if (len < 0) {
		kfree(buf);
		return;
	}
	if (!nidmap_send(&sub->pub, NIDMAP_MB_PUBLISHER, buf, len,
			 nidmap_sub_unsub_sent, &sent))
		wait_for_completion_state(&sent, TASK_IDLE);
}

/**
 * nidmap_sub_stop() - stop subscribing; the copy is gone
 *
 * Context: process context, nidmap_cfg_lock held, not on nidmap_wq.
 */
void nidmap_sub_stop(void)
{
	struct nidmap_sub *sub = nidmap_sub;
	struct nidmap_req *req;

	if (!sub)
		return;
	nidmap_ep_stop(&sub->ep);
	mutex_lock(&sub->lock);
	sub->stopping = true;
	req = sub->req;
	if (req)
		nidmap_req_abort(req);
	mutex_unlock(&sub->lock);
	wait_event_idle(sub->waitq, !READ_ONCE(sub->req));
	cancel_work_sync(&sub->kick);
	/* nidmap_sub_done() woke us on nidmap_wq: let it return. */
	flush_workqueue(nidmap_wq);
	cancel_delayed_work_sync(&sub->tick);
	if (sub->subscribed)
		nidmap_sub_unsubscribe(sub);
	nidmap_sub = NULL;
	lnet_ni_fini();
	nidmap_copy_destroy(sub->copy);
	kfree(sub);
}

/**
 * nidmap_sub_copy() - the subscriber's copy
 * @publisher: set to the publisher's NID
 * @subscribed: set if the publisher answered our SUBSCRIBE
 *
 * Context: nidmap_cfg_lock held (the copy lives until it is dropped).
 * Return: the copy, or NULL if this node does not subscribe.
 */
struct nidmap_copy *nidmap_sub_copy(struct lnet_nid *publisher,
				    bool *subscribed)
{
	if (!nidmap_sub)
		return NULL;
	*publisher = nidmap_sub->pub.nid;
	*subscribed = READ_ONCE(nidmap_sub->subscribed);
	return nidmap_sub->copy;
}

/**
 * nidmap_sub_refresh() - fetch now and wait for the copy to be current
 * @timeout: the most to wait, in jiffies
 *
 * A send by name whose NIDs all failed asks this before resolving
 * again: the target may have moved and the notice not yet come.  Does
 * nothing on a node that does not subscribe.
 *
 * Context: process context, not on nidmap_wq (takes nidmap_cfg_lock).
 */
void nidmap_sub_refresh(unsigned long timeout)
{
	struct nidmap_sub *sub;

	mutex_lock(&nidmap_cfg_lock);
	sub = nidmap_sub;
	if (sub) {
		mutex_lock(&sub->lock);
		sub->want_fetch = true;
		nidmap_sub_next_locked(sub);
		mutex_unlock(&sub->lock);
		/* Done when no fetch is in flight or wanted (MORE pages). */
		wait_event_idle_timeout(sub->waitq, !READ_ONCE(sub->req) &&
					!READ_ONCE(sub->want_fetch), timeout);
	}
	mutex_unlock(&nidmap_cfg_lock);
}
