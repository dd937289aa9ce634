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
 * A relay (started with RELAY, Documentation/nidmap.rst, "Relaying a
 * notice") keeps the set the publisher's last notice gave it and
 * forwards each newer notice (nidmap_relay_forward(): deduplicated by
 * version, one round per NIDMAP_NOTICE_DELAY) to it as a RELAYED
 * NOTICE with no body, at most NIDMAP_FANOUT in flight.  RELAYED notices
 * are taken from any NID; their incarnation is the relay's, not read as
 * the publisher's.  Data always comes from the publisher.
 *
 * Everything runs on the ordered nidmap_wq but start and stop (netlink,
 * nidmap_cfg_lock).  Stop: no more requests, the one in flight aborted
 * and waited for, the notice endpoint stopped, the works cancelled; an
 * UNSUB is sent without waiting for its answer.
 */
#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include <kunit/visibility.h>
#include <lnet/ctl.h>
#include <lnet/route.h>

#include "node.h"

struct nidmap_sub {
	struct lnet_processid	pub;
	struct nidmap_copy	*copy;
	struct nidmap_ep	ep;
	struct mutex		lock;		/* below */
	struct nidmap_req	*req;		/* in flight */
	bool			subscribed;
	bool			want_fetch;
	bool			resub_at_tick;	/* moved: subscribe again */
	bool			stopping;
	u64			pub_inc;	/* the publisher's incarnation */
	struct work_struct	kick;
	struct delayed_work	tick;
	wait_queue_head_t	waitq;
	bool			relay;		/* said RELAY */
	u8			nset;
	struct lnet_nid		set[NIDMAP_RELAY_K_MAX];
	struct nidmap_fwd	fwd;		/* the last round */
	bool			fwd_pending;	/* a round due at fwd_work */
	struct nidmap_hdr	fwd_hdr;	/* the notice to forward */
	u8			round_n;	/* the round's NIDs */
	u8			round_idx;	/* the next to send */
	unsigned int		fwd_inflight;
	struct lnet_nid		round[NIDMAP_RELAY_K_MAX];
	struct delayed_work	fwd_work;
	bool			routes_on;	/* said ROUTES */
	struct mutex		routes_lock;	/* routes */
	struct nidmap_routes	routes;
	struct work_struct	routes_work;
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
	if (!fetch && sub->relay)
		h.flags = NIDMAP_F_RELAY;
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
			else if (!rc && sub->routes_on && !sub->stopping)
				queue_work(nidmap_wq, &sub->routes_work);
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

static void nidmap_fwd_sent(void *arg, int status);

/* Send the round's next notices, NIDMAP_FANOUT in flight; under lock. */
static void nidmap_fwd_pump(struct nidmap_sub *sub)
{
	struct lnet_processid to = { .pid = LNET_PID_LUSTRE };
	struct nidmap_enc enc;
	struct nidmap_hdr h;
	void *buf;
	int len;

	while (!sub->stopping && sub->fwd_inflight < NIDMAP_FANOUT &&
	       sub->round_idx < sub->round_n) {
		buf = kmalloc(NIDMAP_HDR_SIZE, GFP_KERNEL);
		if (!buf)
			return;
		nidmap_hdr_init(&h, NIDMAP_NOTICE);
		h.seq = nidmap_next_seq();
		h.flags = NIDMAP_F_RELAYED;
		h.epoch = sub->fwd_hdr.epoch;
		h.version = sub->fwd_hdr.version;
		h.base = sub->fwd_hdr.base;
		len = nidmap_enc_init(&enc, buf, NIDMAP_HDR_SIZE, &h) ?:
		      nidmap_enc_finish(&enc, 0);
		if (len < 0) {
			kfree(buf);
			return;
		}
		to.nid = sub->round[sub->round_idx++];
		sub->fwd_inflight++;
		nidmap_count(NIDMAP_A_CTR_RELAYED);
		if (nidmap_send(&to, NIDMAP_MB_SUBSCRIBER, buf, len,
				nidmap_fwd_sent, sub)) {
			sub->fwd_inflight--;
			return;
		}
	}
}

static void nidmap_fwd_sent(void *arg, int status)
{
	struct nidmap_sub *sub = arg;

	/* Stop waits for this: sub is still ours. */
	mutex_lock(&sub->lock);
	sub->fwd_inflight--;
	nidmap_fwd_pump(sub);
	mutex_unlock(&sub->lock);
	wake_up(&sub->waitq);
}

/*
 * A relay's decision on the notice in fwd_hdr: a round now (the set as
 * it is), later (fwd_work), or none; under lock.
 */
static void nidmap_fwd_consider(struct nidmap_sub *sub)
{
	u64 epoch, version, base;
	unsigned long now = jiffies;
	bool resync;

	if (!sub->relay || !sub->nset || sub->stopping)
		return;
	nidmap_copy_position(sub->copy, &epoch, &version, &base, &resync);
	switch (nidmap_relay_forward(&sub->fwd, sub->fwd_hdr.epoch,
				     sub->fwd_hdr.version, epoch, version,
				     now)) {
	case NIDMAP_FWD_NO:
		sub->fwd_pending = false;
		return;
	case NIDMAP_FWD_LATER:
		sub->fwd_pending = true;
		queue_delayed_work(nidmap_wq, &sub->fwd_work,
				   sub->fwd.last + NIDMAP_NOTICE_DELAY - now);
		return;
	case NIDMAP_FWD_NOW:
		break;
	}
	sub->fwd_pending = false;
	sub->fwd.epoch = sub->fwd_hdr.epoch;
	sub->fwd.version = sub->fwd_hdr.version;
	sub->fwd.last = now;
	sub->fwd.rounds++;
	/* A round still going gives way: this version is newer. */
	memcpy(sub->round, sub->set, sub->nset * sizeof(sub->set[0]));
	sub->round_n = sub->nset;
	sub->round_idx = 0;
	nidmap_fwd_pump(sub);
}

static void nidmap_fwd_work(struct work_struct *work)
{
	struct nidmap_sub *sub = container_of(to_delayed_work(work),
					      struct nidmap_sub, fwd_work);

	mutex_lock(&sub->lock);
	if (sub->fwd_pending)
		nidmap_fwd_consider(sub);
	mutex_unlock(&sub->lock);
}

/**
 * nidmap_notice_verdict() - whether a subscriber takes a decoded notice
 * @hdr: the message's header (nidmap_msg_decode() accepted it)
 * @from_pub: it came from the publisher (any NID of its peer)
 * @relay: this subscriber said RELAY
 *
 * A RELAYED notice is taken from anyone, with an empty body; any other
 * only from the publisher, and by a relay only with a set it can hold
 * (at most NIDMAP_RELAY_K_MAX NIDs; a subscriber that did not say RELAY
 * ignores the body).
 *
 * Return: NIDMAP_NOTICE_DROP (drop it, count it rx_dropped),
 * NIDMAP_NOTICE_PUB (the publisher's own) or NIDMAP_NOTICE_RELAYED.
 */
enum nidmap_notice_verdict nidmap_notice_verdict(const struct nidmap_hdr *hdr,
						 bool from_pub, bool relay)
{
	if (hdr->type != NIDMAP_NOTICE)
		return NIDMAP_NOTICE_DROP;
	if (hdr->flags & NIDMAP_F_RELAYED)
		return hdr->count ? NIDMAP_NOTICE_DROP : NIDMAP_NOTICE_RELAYED;
	if (!from_pub || (relay && hdr->count > NIDMAP_RELAY_K_MAX))
		return NIDMAP_NOTICE_DROP;
	return NIDMAP_NOTICE_PUB;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_notice_verdict);

/*
 * @from is the publisher: its NID, or another NID of its peer (LNet
 * gives a message's source as the peer's primary NID, and the publisher
 * may have been named by another).
 */
static bool nidmap_sub_from_pub(struct nidmap_sub *sub,
				const struct lnet_processid *from)
{
	struct lnet_nid a, b;

	if (lnet_nid_equal(&from->nid, &sub->pub.nid))
		return true;
	lnet_peer_primary_get(&from->nid, &a);
	lnet_peer_primary_get(&sub->pub.nid, &b);
	return lnet_nid_equal(&a, &b);
}

static void nidmap_sub_rx(struct nidmap_ep *ep, const void *buf,
			  unsigned int len, const struct lnet_processid *from)
{
	struct nidmap_sub *sub = ep->priv;
	enum nidmap_notice_verdict v;
	struct nidmap_iter it;
	struct nidmap_msg msg;
	u64 epoch, version, base;
	bool resync, relayed;

	if (nidmap_msg_decode(buf, len, &msg)) {
		nidmap_count(NIDMAP_A_CTR_RX_DROPPED);
		return;
	}
	if (nidmap_trust_check(buf, len))
		return;		/* counted there */
	/* Who sent it matters only for the publisher's own notices. */
	v = nidmap_notice_verdict(&msg.hdr, !(msg.hdr.flags &
					      NIDMAP_F_RELAYED) &&
				  nidmap_sub_from_pub(sub, from), sub->relay);
	if (v == NIDMAP_NOTICE_DROP) {
		nidmap_count(NIDMAP_A_CTR_RX_DROPPED);
		return;
	}
	relayed = v == NIDMAP_NOTICE_RELAYED;
	nidmap_count(relayed ? NIDMAP_A_CTR_RELAYED_RCVD :
		     NIDMAP_A_CTR_NOTICES_RCVD);
	nidmap_copy_position(sub->copy, &epoch, &version, &base, &resync);
	mutex_lock(&sub->lock);
	/* A relay's incarnation is not the publisher's. */
	if (!relayed)
		nidmap_sub_seen(sub, msg.hdr.incarnation);
	if (!relayed && sub->relay) {
		/* The publisher's notice replaces the set we keep. */
		nidmap_iter_init(&it, &msg);
		sub->nset = 0;
		while (nidmap_iter_nid(&it, &sub->set[sub->nset]))
			sub->nset++;
	}
	if (msg.hdr.epoch != epoch || msg.hdr.version > version || resync)
		sub->want_fetch = true;
	if (sub->relay && sub->nset) {
		sub->fwd_hdr = msg.hdr;
		nidmap_fwd_consider(sub);
	}
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
	if (sub->resub_at_tick && !sub->req) {
		sub->resub_at_tick = false;
		sub->subscribed = false;
	}
	nidmap_sub_next_locked(sub);
	next = sub->subscribed ? NIDMAP_SUB_PERIOD : NIDMAP_SUB_PERIOD / 5;
	if (!sub->stopping)
		queue_delayed_work(nidmap_wq, &sub->tick, next);
	mutex_unlock(&sub->lock);
}

/* The node's route table, for routes from the table. */
static int nidmap_sub_route_add(void *arg, u32 net, const struct lnet_nid *gw)
{
	return lnet_route_add(net, gw, LNET_ROUTE_HOPS_UNSET, 0, NULL);
}

static void nidmap_sub_route_del(void *arg, u32 net,
				 const struct lnet_nid *gw)
{
	lnet_route_del(net, gw, NULL);
}

static const struct nidmap_routes_ops nidmap_sub_routes_ops = {
	.add	= nidmap_sub_route_add,
	.del	= nidmap_sub_route_del,
};

/* The router entries of a copy, gathered outside the route calls. */
struct nidmap_rtr_walk {
	struct nidmap_rec	*recs;
	unsigned int		n;
	unsigned int		over;	/* beyond NIDMAP_ROUTERS_MAX */
};

static int nidmap_rtr_gather(void *arg, const struct nidmap_rec *rec)
{
	struct nidmap_rtr_walk *w = arg;

	if (!(rec->flags & NIDMAP_R_ROUTER))
		return 0;
	if (w->n == NIDMAP_ROUTERS_MAX)
		w->over += rec->nnets;
	else
		w->recs[w->n++] = *rec;
	return 0;
}

/*
 * After a fetch: the copy's routers' routes brought in line (routes.c).
 * The copy's lock is not held while routes are added (the core's
 * ln_api_mutex).
 */
static void nidmap_sub_routes_work(struct work_struct *work)
{
	struct nidmap_sub *sub = container_of(work, struct nidmap_sub,
					      routes_work);
	struct nidmap_rtr_walk w = { };
	unsigned int i;

	w.recs = kvmalloc_array(NIDMAP_ROUTERS_MAX, sizeof(*w.recs),
				GFP_KERNEL);
	if (!w.recs)
		return;
	nidmap_copy_walk(sub->copy, 0, nidmap_rtr_gather, &w);
	mutex_lock(&sub->routes_lock);
	nidmap_routes_begin(&sub->routes);
	for (i = 0; i < w.n; i++)
		nidmap_routes_entry(&sub->routes, &w.recs[i]);
	nidmap_routes_end(&sub->routes);
	sub->routes.ctr.skipped += w.over;
	mutex_unlock(&sub->routes_lock);
	kvfree(w.recs);
}

/**
 * nidmap_sub_routes_info() - the routes from the table, for show
 * @on: set if this subscriber said ROUTES
 * @ctr: its counters
 *
 * Context: nidmap_cfg_lock held, this node subscribes.
 */
void nidmap_sub_routes_info(bool *on, struct nidmap_routes_ctr *ctr)
{
	struct nidmap_sub *sub = nidmap_sub;

	mutex_lock(&sub->routes_lock);
	*on = sub->routes_on;
	*ctr = sub->routes.ctr;
	mutex_unlock(&sub->routes_lock);
}

/**
 * nidmap_sub_start() - subscribe to a publisher
 * @publisher: its NID
 * @relay: say RELAY: this node relays notices to the set the publisher
 *	gives it
 * @routes: install the routes of the table's routers (and remove them
 *	when their entries change or go, or the subscriber stops)
 *
 * Context: process context, nidmap_cfg_lock held.
 * Return: 0; -EALREADY; -ENETDOWN LNet not running; -ENOMEM.
 */
int nidmap_sub_start(const struct lnet_nid *publisher, bool relay,
		     bool routes)
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
	sub->relay = relay;
	sub->routes_on = routes;
	mutex_init(&sub->lock);
	mutex_init(&sub->routes_lock);
	nidmap_routes_init(&sub->routes, &nidmap_sub_routes_ops, sub);
	INIT_WORK(&sub->routes_work, nidmap_sub_routes_work);
	init_waitqueue_head(&sub->waitq);
	INIT_WORK(&sub->kick, nidmap_sub_kick);
	INIT_DELAYED_WORK(&sub->tick, nidmap_sub_tick);
	INIT_DELAYED_WORK(&sub->fwd_work, nidmap_fwd_work);
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
	cancel_delayed_work_sync(&sub->fwd_work);
	/* Forwarded notices: their callbacks use sub. */
	wait_event_idle(sub->waitq, !READ_ONCE(sub->fwd_inflight));
	cancel_work_sync(&sub->kick);
	/* nidmap_sub_done() woke us on nidmap_wq: let it return. */
	flush_workqueue(nidmap_wq);
	cancel_delayed_work_sync(&sub->tick);
	cancel_work_sync(&sub->routes_work);
	/* The routes installed from the table go with the copy. */
	nidmap_routes_fini(&sub->routes);
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
 * nidmap_sub_moved() - subscribe again: one of this node's NIDs moved
 *
 * The publisher knows a subscriber by the NID its SUBSCRIBE came from
 * and sends its notices there; after a move they would go nowhere.  So
 * subscribe again, from where this node is now: the publisher replaces
 * the entry of the old NID by the new one when the SUBSCRIBE is
 * authenticated and of the same incarnation (publisher.c), else drops
 * the old NID when notices to it fail; and fetch what changed
 * meanwhile.  And once more at the next tick: the publisher names a
 * subscriber by its LNet peer's primary NID, which changes only when our
 * push of the new NID has been merged there, maybe after this SUBSCRIBE.
 * Nothing on a node that does not subscribe.
 *
 * Context: process context, not on nidmap_wq (takes nidmap_cfg_lock).
 */
void nidmap_sub_moved(void)
{
	struct nidmap_sub *sub;

	mutex_lock(&nidmap_cfg_lock);
	sub = nidmap_sub;
	if (sub) {
		mutex_lock(&sub->lock);
		sub->subscribed = false;
		sub->resub_at_tick = true;
		nidmap_sub_next_locked(sub);
		mutex_unlock(&sub->lock);
	}
	mutex_unlock(&nidmap_cfg_lock);
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

/**
 * nidmap_sub_relay_set() - a relay's set, for show
 * @relay: set if this subscriber said RELAY
 * @set: NIDMAP_RELAY_K_MAX entries: the NIDs it forwards notices to
 *
 * Context: nidmap_cfg_lock held, this node subscribes.
 * Return: the number of NIDs in @set.
 */
int nidmap_sub_relay_set(bool *relay, struct lnet_nid *set)
{
	struct nidmap_sub *sub = nidmap_sub;
	int n;

	mutex_lock(&sub->lock);
	*relay = sub->relay;
	n = sub->nset;
	memcpy(set, sub->set, n * sizeof(*set));
	mutex_unlock(&sub->lock);
	return n;
}
