// SPDX-License-Identifier: GPL-2.0
/*
 * nidmap's LNet transport on NIDMAP_PORTAL (Documentation/nidmap.rst,
 * "Transport"): request buffers for an endpoint, requests answered into
 * a reply MD of ours, one-way sends.
 *
 * Every message received lands in one of an endpoint's @nbuf posted
 * buffers of @size bytes (a longer PUT finds no buffer: LNet drops it);
 * a buffer that received is handed to the endpoint's handler on
 * nidmap_wq (ordered: the roles' handlers never run concurrently) and a
 * new buffer is posted in its place, so a remote host can make us hold
 * at most @nbuf messages per endpoint.
 *
 * Completion: every MD ends with an event that has @unlinked set; a
 * request's ->done() runs once both of its MDs (and its poster) are
 * done, and a send's callback once its MD is: exactly once each, in
 * process context, whether the operation succeeded, failed, timed out
 * or was aborted.  nidmap_transport_fini() waits for the last of them.
 */
#include <linux/random.h>
#include <linux/slab.h>

#include <kunit/visibility.h>

#include "node.h"

atomic64_t nidmap_ctr[NIDMAP_A_CTR_MAX + 1];
EXPORT_SYMBOL_IF_KUNIT(nidmap_ctr);
struct workqueue_struct *nidmap_wq;

static u64 nidmap_inc;
static atomic64_t nidmap_seq;
/* Sends and requests not yet done. */
static atomic_t nidmap_live;
static DECLARE_WAIT_QUEUE_HEAD(nidmap_live_waitq);

/**
 * nidmap_incarnation() - this module load's incarnation
 *
 * Return: a random non-zero value, fixed until the module unloads.
 */
u64 nidmap_incarnation(void)
{
	return nidmap_inc;
}

/**
 * nidmap_next_seq() - a new message number within the incarnation
 *
 * Return: 1, 2, ...: below 2^63, so that NIDMAP_MB_REPLY | seq is unique.
 */
u64 nidmap_next_seq(void)
{
	return atomic64_inc_return(&nidmap_seq);
}

/**
 * nidmap_hdr_init() - a header of ours, seq to be set by the caller
 * @hdr: the header
 * @type: enum nidmap_type
 */
void nidmap_hdr_init(struct nidmap_hdr *hdr, u16 type)
{
	memset(hdr, 0, sizeof(*hdr));
	hdr->type = type;
	hdr->incarnation = nidmap_inc;
}

/**
 * nidmap_live_get() - one more operation that nidmap_transport_fini()
 *	waits for (a send by name)
 */
void nidmap_live_get(void)
{
	atomic_inc(&nidmap_live);
}

/**
 * nidmap_live_put() - an operation counted by nidmap_live_get() (or a
 *	send or request) is over
 */
void nidmap_live_put(void)
{
	if (atomic_dec_and_test(&nidmap_live))
		wake_up(&nidmap_live_waitq);
}

/* --- endpoints: posted request buffers --- */

struct nidmap_rx {
	struct list_head	link;		/* ep->bufs while posted */
	struct nidmap_ep	*ep;
	struct lnet_handle_md	mdh;
	struct work_struct	work;
	bool			attached;	/* mdh is valid */
	bool			unlinking;	/* nidmap_ep_stop() has it */
	bool			received;
	unsigned int		refs;		/* under ep->lock */
	int			status;
	unsigned int		mlength;
	struct lnet_processid	from;
	u8			*data;
};

static void nidmap_rx_free(struct nidmap_rx *rx)
{
	kvfree(rx->data);
	kfree(rx);
}

static void nidmap_rx_done(struct nidmap_rx *rx)
{
	if (rx->received)
		queue_work(nidmap_wq, &rx->work);
	else
		nidmap_rx_free(rx);
}

static void nidmap_rx_event(struct lnet_event *ev)
{
	struct nidmap_rx *rx = ev->md_user_ptr;
	struct nidmap_ep *ep = rx->ep;
	unsigned long flags;
	bool last;

	if (ev->type == LNET_EVENT_PUT) {
		rx->status = ev->status;
		rx->mlength = ev->mlength;
		rx->from = ev->initiator;
	}
	if (!ev->unlinked)
		return;
	spin_lock_irqsave(&ep->lock, flags);
	list_del(&rx->link);
	ep->posted--;
	rx->received = ev->type == LNET_EVENT_PUT;
	if (rx->received)
		ep->busy++;
	last = !--rx->refs;
	/* Under the lock: nidmap_ep_stop() frees @ep once it is taken. */
	wake_up(&ep->waitq);
	spin_unlock_irqrestore(&ep->lock, flags);
	if (last)
		nidmap_rx_done(rx);
}

static void nidmap_rx_work(struct work_struct *work);

static int nidmap_rx_post(struct nidmap_ep *ep)
{
	static const struct lnet_processid any = {
		.nid = LNET_ANY_NID,
		.pid = LNET_PID_ANY,
	};
	struct lnet_md md = {
		.length = ep->size,
		.threshold = 1,
		.options = LNET_MD_OP_PUT | LNET_MD_ACK_DISABLE,
		.handler = nidmap_rx_event,
	};
	struct lnet_handle_md mdh;
	struct nidmap_rx *rx;
	struct lnet_me *me;
	bool stopping, last;
	int rc;

	rx = kzalloc(sizeof(*rx), GFP_KERNEL);
	if (!rx)
		return -ENOMEM;
	rx->data = kvmalloc(ep->size, GFP_KERNEL);
	if (!rx->data) {
		kfree(rx);
		return -ENOMEM;
	}
	rx->ep = ep;
	rx->refs = 2;	/* the MD's, and ours until attached */
	INIT_WORK(&rx->work, nidmap_rx_work);
	md.start = rx->data;
	md.user_ptr = rx;
	me = lnet_me_attach(NIDMAP_PORTAL, &any, ep->match, 0, LNET_INS_AFTER);
	if (IS_ERR(me)) {
		nidmap_rx_free(rx);
		return PTR_ERR(me);
	}
	spin_lock_irq(&ep->lock);
	list_add_tail(&rx->link, &ep->bufs);
	ep->posted++;
	spin_unlock_irq(&ep->lock);
	rc = lnet_md_attach(me, &md, LNET_UNLINK, &mdh);
	spin_lock_irq(&ep->lock);
	if (rc) {
		list_del(&rx->link);
		ep->posted--;
		wake_up(&ep->waitq);
		spin_unlock_irq(&ep->lock);
		nidmap_rx_free(rx);
		return rc;
	}
	rx->mdh = mdh;
	rx->attached = true;
	stopping = ep->stopping;
	last = !--rx->refs;
	spin_unlock_irq(&ep->lock);
	if (last)
		nidmap_rx_done(rx);
	else if (stopping)
		lnet_md_unlink(mdh);
	return 0;
}

static void nidmap_ep_refill(struct nidmap_ep *ep)
{
	bool more;

	do {
		spin_lock_irq(&ep->lock);
		more = !ep->stopping && ep->posted < ep->nbuf;
		spin_unlock_irq(&ep->lock);
	} while (more && !nidmap_rx_post(ep));
}

static void nidmap_rx_work(struct work_struct *work)
{
	struct nidmap_rx *rx = container_of(work, struct nidmap_rx, work);
	struct nidmap_ep *ep = rx->ep;

	nidmap_ep_refill(ep);
	if (rx->status) {
		nidmap_count(NIDMAP_A_CTR_RX_DROPPED);
	} else {
		nidmap_count(NIDMAP_A_CTR_RX);
		ep->handle(ep, rx->data, rx->mlength, &rx->from);
	}
	nidmap_rx_free(rx);
	spin_lock_irq(&ep->lock);
	ep->busy--;
	wake_up(&ep->waitq);
	spin_unlock_irq(&ep->lock);
}

/**
 * nidmap_ep_start() - post an endpoint's request buffers
 * @ep: its @match, @size, @nbuf, @handle and @priv set
 *
 * Context: process context, not on nidmap_wq.
 * Return: 0, or -errno (nothing left posted).
 */
int nidmap_ep_start(struct nidmap_ep *ep)
{
	spin_lock_init(&ep->lock);
	INIT_LIST_HEAD(&ep->bufs);
	init_waitqueue_head(&ep->waitq);
	ep->posted = 0;
	ep->busy = 0;
	ep->stopping = false;
	nidmap_ep_refill(ep);
	if (ep->posted == ep->nbuf)
		return 0;
	nidmap_ep_stop(ep);
	return -ENOMEM;
}

static bool nidmap_ep_next(struct nidmap_ep *ep, struct lnet_handle_md *mdh)
{
	struct nidmap_rx *rx;
	bool found = false;

	spin_lock_irq(&ep->lock);
	list_for_each_entry(rx, &ep->bufs, link) {
		if (rx->attached && !rx->unlinking) {
			rx->unlinking = true;
			*mdh = rx->mdh;
			found = true;
			break;
		}
	}
	spin_unlock_irq(&ep->lock);
	return found;
}

/**
 * nidmap_ep_stop() - unlink an endpoint's buffers and wait until no
 *	message is being handled
 * @ep: a started endpoint
 *
 * Context: process context, not on nidmap_wq (its handlers run there).
 * Once it returns, nothing uses @ep: its wakers wake under its lock,
 * which it takes last.
 */
void nidmap_ep_stop(struct nidmap_ep *ep)
{
	struct lnet_handle_md mdh;

	spin_lock_irq(&ep->lock);
	ep->stopping = true;
	spin_unlock_irq(&ep->lock);
	while (nidmap_ep_next(ep, &mdh))
		lnet_md_unlink(mdh);
	wait_event_idle(ep->waitq, !READ_ONCE(ep->posted) &&
			!READ_ONCE(ep->busy));
	spin_lock_irq(&ep->lock);
	spin_unlock_irq(&ep->lock);
}

/* --- requests --- */

static void nidmap_req_event(struct lnet_event *ev)
{
	struct nidmap_req *req = ev->md_user_ptr;
	unsigned long flags;
	bool last;

	spin_lock_irqsave(&req->lock, flags);
	if (ev->md_start == req->msg) {
		if (ev->status && !req->status)
			req->status = ev->status;
	} else if (ev->type == LNET_EVENT_PUT && !ev->status) {
		req->reply_len = ev->mlength;
	}
	last = ev->unlinked && !--req->live;
	spin_unlock_irqrestore(&req->lock, flags);
	if (last)
		queue_work(nidmap_wq, &req->work);
}

static void nidmap_req_work(struct work_struct *work)
{
	struct nidmap_req *req = container_of(work, struct nidmap_req, work);

	/* No MD is left: nothing queues the expiry again. */
	cancel_delayed_work_sync(&req->expiry);
	/* A reply the node cannot verify is no reply (counted there). */
	if (req->reply_len) {
		req->status = nidmap_trust_check(req->reply, req->reply_len);
		if (req->status)
			req->reply_len = 0;
	}
	if (req->reply_len)
		req->status = 0;
	else if (!req->status)
		req->status = -EIO;
	if (req->status == -ETIMEDOUT)
		nidmap_count(NIDMAP_A_CTR_TIMEOUTS);
	req->done(req);
	nidmap_live_put();
}

static void nidmap_req_expire(struct work_struct *work)
{
	struct nidmap_req *req = container_of(to_delayed_work(work),
					      struct nidmap_req, expiry);

	spin_lock_irq(&req->lock);
	if (!req->status)
		req->status = -ETIMEDOUT;
	spin_unlock_irq(&req->lock);
	nidmap_req_abort(req);
}

/**
 * nidmap_req_alloc() - a request to a publisher, to encode and post
 * @dest: the publisher
 * @room: the reply buffer's size
 * @done: called once, in process context, when the request is over
 * @priv: for @done
 *
 * The caller encodes the request into @msg (@msg_len bytes, its seq
 * @seq) and posts it.
 *
 * Return: the request, or NULL.
 */
struct nidmap_req *nidmap_req_alloc(const struct lnet_processid *dest,
				    unsigned int room, nidmap_req_done_t done,
				    void *priv)
{
	struct nidmap_req *req = kzalloc(sizeof(*req), GFP_KERNEL);

	if (!req)
		return NULL;
	req->reply = kvmalloc(room, GFP_KERNEL);
	if (!req->reply) {
		kfree(req);
		return NULL;
	}
	req->dest = *dest;
	req->room = room;
	req->seq = nidmap_next_seq();
	req->done = done;
	req->priv = priv;
	req->req_mdh = LNET_MD_HANDLE_NONE;
	req->reply_mdh = LNET_MD_HANDLE_NONE;
	spin_lock_init(&req->lock);
	INIT_DELAYED_WORK(&req->expiry, nidmap_req_expire);
	INIT_WORK(&req->work, nidmap_req_work);
	return req;
}

static void nidmap_req_release(struct nidmap_req *req)
{
	bool last;

	spin_lock_irq(&req->lock);
	last = !--req->live;
	spin_unlock_irq(&req->lock);
	if (last)
		queue_work(nidmap_wq, &req->work);
}

/**
 * nidmap_req_post() - send a request, its reply MD attached first
 * @req: from nidmap_req_alloc(), @msg encoded
 *
 * Whatever happens, ->done() runs exactly once, later: with status 0
 * and @reply_len bytes in @reply, or with -errno (-ETIMEDOUT after
 * NIDMAP_REQ_TIMEOUT, -EINTR if aborted).
 */
void nidmap_req_post(struct nidmap_req *req)
{
	static const struct lnet_processid any = {
		.nid = LNET_ANY_NID,
		.pid = LNET_PID_ANY,
	};
	struct lnet_md reply = {
		.start = req->reply,
		.length = req->room,
		.threshold = 1,
		.options = LNET_MD_OP_PUT | LNET_MD_ACK_DISABLE,
		.user_ptr = req,
		.handler = nidmap_req_event,
	};
	struct lnet_md msg = {
		.start = req->msg,
		.length = req->msg_len,
		.threshold = 1,
		.user_ptr = req,
		.handler = nidmap_req_event,
	};
	struct lnet_me *me;
	int rc;

	atomic_inc(&nidmap_live);
	req->live = 1;	/* the poster's, until all is posted */
	rc = nidmap_seal(&req->msg, &req->msg_len);
	msg.start = req->msg;
	msg.length = req->msg_len;
	me = rc ? ERR_PTR(rc) :
	     lnet_me_attach(NIDMAP_PORTAL, &any, NIDMAP_MB_REPLY | req->seq,
			    0, LNET_INS_AFTER);
	rc = PTR_ERR_OR_ZERO(me);
	if (!rc) {
		req->live++;
		rc = lnet_md_attach(me, &reply, LNET_UNLINK, &req->reply_mdh);
		if (rc)
			req->live--;
	}
	if (!rc) {
		req->live++;
		rc = lnet_md_bind(&msg, LNET_UNLINK, &req->req_mdh);
		if (rc) {
			req->live--;
		} else {
			nidmap_count(NIDMAP_A_CTR_TX);
			rc = lnet_put(NULL, req->req_mdh, LNET_NOACK_REQ,
				      &req->dest, NIDMAP_PORTAL,
				      NIDMAP_MB_PUBLISHER, 0, 0);
			if (rc)
				lnet_md_unlink(req->req_mdh);
		}
	}
	if (rc) {
		nidmap_count(NIDMAP_A_CTR_TX_ERRORS);
		spin_lock_irq(&req->lock);
		if (!req->status)
			req->status = rc;
		spin_unlock_irq(&req->lock);
		if (!lnet_md_handle_is_none(req->reply_mdh))
			lnet_md_unlink(req->reply_mdh);
	} else {
		queue_delayed_work(system_wq, &req->expiry,
				   NIDMAP_REQ_TIMEOUT);
	}
	nidmap_req_release(req);
}

/**
 * nidmap_req_abort() - end a posted request early (its ->done() not run)
 * @req: the request
 *
 * Its MDs are unlinked: the request ends with -EINTR unless it ended
 * otherwise meanwhile.  An MD already gone is -ENOENT, harmlessly.
 */
void nidmap_req_abort(struct nidmap_req *req)
{
	spin_lock_irq(&req->lock);
	if (!req->status)
		req->status = -EINTR;
	spin_unlock_irq(&req->lock);
	if (!lnet_md_handle_is_none(req->req_mdh))
		lnet_md_unlink(req->req_mdh);
	if (!lnet_md_handle_is_none(req->reply_mdh))
		lnet_md_unlink(req->reply_mdh);
}

/**
 * nidmap_req_free() - free a request whose ->done() ran
 * @req: the request, or NULL
 */
void nidmap_req_free(struct nidmap_req *req)
{
	if (!req)
		return;
	kvfree(req->msg);
	kvfree(req->reply);
	kfree(req);
}

/* --- one-way sends --- */

struct nidmap_tx {
	struct work_struct	work;
	void			*buf;
	int			status;
	void			(*done)(void *arg, int status);
	void			*arg;
};

static void nidmap_tx_event(struct lnet_event *ev)
{
	struct nidmap_tx *tx = ev->md_user_ptr;

	if (ev->status && !tx->status)
		tx->status = ev->status;
	if (ev->unlinked)
		queue_work(nidmap_wq, &tx->work);
}

static void nidmap_tx_work(struct work_struct *work)
{
	struct nidmap_tx *tx = container_of(work, struct nidmap_tx, work);

	if (tx->status)
		nidmap_count(NIDMAP_A_CTR_TX_ERRORS);
	if (tx->done)
		tx->done(tx->arg, tx->status);
	kvfree(tx->buf);
	kfree(tx);
	nidmap_live_put();
}

/**
 * nidmap_send() - PUT a message, no answer expected
 * @dest: the peer
 * @match: match bits (NIDMAP_MB_SUBSCRIBER, NIDMAP_MB_REPLY | seq, ...)
 * @buf: the message (kvmalloc()ed; the send owns it from now on)
 * @len: its length
 * @done: NULL, or called once in process context with the send's status
 * @arg: for @done
 *
 * Signed if the node holds a key (nidmap_seal()), then sent as
 * nidmap_send_raw() sends.
 *
 * Return: 0, or -ENOMEM or nidmap_seal()'s error (@buf freed, @done not
 * called).  A failure of LNet comes to @done.
 */
int nidmap_send(const struct lnet_processid *dest, u64 match, void *buf,
		unsigned int len, void (*done)(void *arg, int status),
		void *arg)
{
	int rc = nidmap_seal(&buf, &len);

	if (rc) {
		kvfree(buf);
		return rc;
	}
	return nidmap_send_raw(dest, match, buf, len, done, arg);
}

/**
 * nidmap_send_raw() - PUT bytes as they are (nidmap_send() without the
 *	signing; the test hook's, debugfs.c)
 * @dest: the peer
 * @match: match bits
 * @buf: the bytes (kvmalloc()ed; the send owns them from now on)
 * @len: their length
 * @done: NULL, or called once in process context with the send's status
 * @arg: for @done
 *
 * Return: 0, or -ENOMEM (@buf freed, @done not called).
 */
int nidmap_send_raw(const struct lnet_processid *dest, u64 match, void *buf,
		    unsigned int len, void (*done)(void *arg, int status),
		    void *arg)
{
	struct lnet_md md = {
		.start = buf,
		.length = len,
		.threshold = 1,
		.handler = nidmap_tx_event,
	};
	struct lnet_handle_md mdh;
	struct nidmap_tx *tx;
	int rc;

	tx = kzalloc(sizeof(*tx), GFP_KERNEL);
	if (!tx) {
		kvfree(buf);
		return -ENOMEM;
	}
	tx->buf = buf;
	tx->done = done;
	tx->arg = arg;
	INIT_WORK(&tx->work, nidmap_tx_work);
	md.user_ptr = tx;
	atomic_inc(&nidmap_live);
	nidmap_count(NIDMAP_A_CTR_TX);
	rc = lnet_md_bind(&md, LNET_UNLINK, &mdh);
	if (rc) {
		tx->status = rc;
		queue_work(nidmap_wq, &tx->work);
		return 0;
	}
	rc = lnet_put(NULL, mdh, LNET_NOACK_REQ, dest, NIDMAP_PORTAL, match,
		      0, 0);
	if (rc) {
		tx->status = rc;
		lnet_md_unlink(mdh);
	}
	return 0;
}

/**
 * nidmap_transport_init() - the incarnation and the work queue
 *
 * Return: 0 or -ENOMEM.
 */
int nidmap_transport_init(void)
{
	do {
		nidmap_inc = get_random_u64();
	} while (!nidmap_inc);
	nidmap_wq = alloc_ordered_workqueue("nidmap", 0);
	return nidmap_wq ? 0 : -ENOMEM;
}

/**
 * nidmap_transport_fini() - wait for every send and request to be done
 *
 * After every role stopped: what is still in flight ends by LNet's
 * deadline at most.
 */
void nidmap_transport_fini(void)
{
	wait_event_idle(nidmap_live_waitq, !atomic_read(&nidmap_live));
	destroy_workqueue(nidmap_wq);
}
