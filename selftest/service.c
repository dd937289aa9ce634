// SPDX-License-Identifier: GPL-2.0
/*
 * Selftest services (spec lnet-selftest.md 2.2, 2.4, 2.6 server side,
 * 2.7): request buffers posted on a request portal, each request served
 * in process context on the service's work queue: checked, handled,
 * its bulk moved, and answered.
 *
 * A request buffer is one ME and one 160-byte MD that takes one PUT.
 * When a request lands in it, its work item serves it and posts a new
 * buffer in its place at once, so a node keeps svc->nbuf buffers posted
 * and holds at most that many requests waiting: what a remote node sends
 * cannot grow our memory beyond that.  (Stock LNet makes the request
 * portals lazy: a request that finds no buffer waits in LNet.  Ours drops
 * it, counted by LNet; Documentation/selftest.rst.)
 *
 * Stop (spec 4.9 step 2): no more buffers posted, the posted ones
 * unlinked, and every request in progress aborted: the MD of its LNet
 * operation in flight is unlinked (a bulk GET whose REPLY will never
 * come ends at once, with response tracking off too), it starts no
 * other and sends no reply; then the service is idle.  Nothing waits on
 * the remote node, but for an operation an LND still holds, which ends
 * by the LND's timeout.
 */
#include <linux/errno.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/wait.h>

#include <kunit/visibility.h>

#include "selftest.h"

/* A posted request buffer, and then the request it received. */
struct lst_rqbuf {
	struct list_head	link;		/* svc->bufs while posted */
	struct lst_svc	*svc;
	struct lnet_handle_md	mdh;
	struct work_struct	work;
	bool			attached;	/* mdh is valid */
	bool			unlinking;	/* lst_service_stop() has it */
	bool			received;	/* a request, to serve */
	unsigned int		refs;		/* under svc->lock */
	int			status;
	unsigned int		mlength;
	struct lnet_processid	peer;
	struct lnet_nid		self;
	u8			msg[LST_MSG_SIZE];
};

static void lst_rqbuf_work(struct work_struct *work);

static void lst_service_put(struct lst_svc *svc)
{
	spin_lock_irq(&svc->lock);
	svc->busy--;
	spin_unlock_irq(&svc->lock);
	wake_up(&svc->waitq);
}

/* Serve a buffer that received a request, or free it. */
static void lst_rqbuf_done(struct lst_rqbuf *buf, bool received)
{
	if (received)
		queue_work(buf->svc->wq, &buf->work);
	else
		kfree(buf);
}

static void lst_rqbuf_event(struct lnet_event *ev)
{
	struct lst_rqbuf *buf = ev->md_user_ptr;
	struct lst_svc *svc = buf->svc;
	unsigned long flags;
	bool last;

	if (ev->type == LNET_EVENT_PUT) {
		atomic_inc(&lst_rpc_stats.rpcs_rcvd);
		if (ev->status && ev->status != -ECANCELED)
			atomic_inc(&lst_rpc_stats.errors);
		buf->status = ev->status;
		buf->mlength = ev->mlength;
		buf->peer = ev->initiator;
		buf->self = ev->target.nid;
	}
	if (!ev->unlinked)
		return;
	spin_lock_irqsave(&svc->lock, flags);
	list_del(&buf->link);
	svc->posted--;
	buf->received = ev->type == LNET_EVENT_PUT;
	if (buf->received)
		svc->busy++;	/* until lst_rqbuf_work() is done with it */
	last = !--buf->refs;
	spin_unlock_irqrestore(&svc->lock, flags);
	if (last)
		lst_rqbuf_done(buf, buf->received);
	wake_up(&svc->waitq);
}

/*
 * Post one more request buffer.  The buffer has two references: its MD's
 * (dropped by the last event) and ours (dropped once attached): the last
 * one serves or frees it, as a request may land before
 * lnet_md_attach() returns.
 */
static int lst_rqbuf_post(struct lst_svc *svc)
{
	static const struct lnet_processid any = {
		.nid = LNET_ANY_NID,
		.pid = LNET_PID_ANY,
	};
	struct lnet_md md = {
		.length = LST_MSG_SIZE,
		.threshold = 1,
		.options = LNET_MD_OP_PUT,
		.handler = lst_rqbuf_event,
	};
	struct lnet_handle_md mdh;
	struct lst_rqbuf *buf;
	struct lnet_me *me;
	bool stopping, last;
	int rc;

	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	buf->svc = svc;
	buf->refs = 2;
	/*
	 * Two lockdep classes: a framework request's work holds
	 * lst_fw_mutex while it stops a test service (flushing that
	 * service's works, which never take the mutex).
	 */
	if (svc->test)
		INIT_WORK(&buf->work, lst_rqbuf_work);
	else
		INIT_WORK(&buf->work, lst_rqbuf_work);
	md.start = buf->msg;
	md.user_ptr = buf;
	me = lnet_me_attach(lst_service_portal(svc->id), &any, svc->id, 0,
			    LNET_INS_AFTER);
	if (IS_ERR(me)) {
		kfree(buf);
		return PTR_ERR(me);
	}
	spin_lock_irq(&svc->lock);
	list_add_tail(&buf->link, &svc->bufs);
	svc->posted++;
	spin_unlock_irq(&svc->lock);
	rc = lnet_md_attach(me, &md, LNET_UNLINK, &mdh);
	spin_lock_irq(&svc->lock);
	if (rc) {
		list_del(&buf->link);
		svc->posted--;
		spin_unlock_irq(&svc->lock);
		kfree(buf);
		wake_up(&svc->waitq);
		return rc;
	}
	/*
	 * A stop that began meanwhile may have missed this buffer: either it
	 * sees it attached, or we see it stopping (both may unlink it: the
	 * second finds it gone).
	 */
	buf->mdh = mdh;
	buf->attached = true;
	stopping = svc->stopping;
	last = !--buf->refs;
	spin_unlock_irq(&svc->lock);
	if (last)
		lst_rqbuf_done(buf, buf->received);
	else if (stopping)
		lnet_md_unlink(mdh);
	return 0;
}

/* Post buffers until svc->nbuf are (unless the service stops). */
static void lst_service_refill(struct lst_svc *svc)
{
	bool more;

	do {
		spin_lock_irq(&svc->lock);
		more = !svc->stopping && svc->posted < svc->nbuf;
		spin_unlock_irq(&svc->lock);
	} while (more && !lst_rqbuf_post(svc));
}

static void lst_srpc_event(struct lnet_event *ev)
{
	struct lst_srpc *rpc = ev->md_user_ptr;

	if (ev->status && ev->status != -ECANCELED)
		atomic_inc(&lst_rpc_stats.errors);
	if (ev->status && !rpc->ev_status)
		rpc->ev_status = ev->status;
	if (ev->type == LNET_EVENT_REPLY || ev->type == LNET_EVENT_SEND)
		rpc->ev_mlength = ev->mlength;
	if (ev->unlinked)
		complete(&rpc->event);
}

/*
 * PUT or GET from a bound MD to the requester on the RDMA portal and wait
 * for its last event: LNet ends every operation (by its deadline at most,
 * or never for a GET whose REPLY is lost with response tracking off), or
 * lst_service_stop() unlinks its MD.  Return: the operation's status,
 * -EINTR if the service stops.
 */
static int lst_srpc_op(struct lst_srpc *rpc, struct lnet_md *md, bool get,
		       u64 match)
{
	struct lst_svc *svc = rpc->svc;
	struct lnet_handle_md mdh;
	bool aborted;
	int rc;

	md->user_ptr = rpc;
	md->handler = lst_srpc_event;
	rpc->ev_status = 0;
	rpc->ev_mlength = 0;
	reinit_completion(&rpc->event);
	rc = lnet_md_bind(md, LNET_UNLINK, &mdh);
	if (rc)
		return rc;
	spin_lock_irq(&svc->lock);
	aborted = rpc->aborted;
	if (!aborted)
		rpc->op_mdh = mdh;	/* a stop from now on unlinks it */
	spin_unlock_irq(&svc->lock);
	if (aborted)
		rc = -EINTR;
	else if (get)
		rc = lnet_get(&rpc->self, mdh, &rpc->peer, LST_PORTAL_RDMA,
			      match, 0);
	else
		rc = lnet_put(&rpc->self, mdh, LNET_NOACK_REQ, &rpc->peer,
			      LST_PORTAL_RDMA, match, 0, 0);
	if (rc)
		lnet_md_unlink(mdh);
	/* Idle, not hung: an operation to a dead peer lasts its deadline. */
	wait_for_completion_state(&rpc->event, TASK_IDLE);
	spin_lock_irq(&svc->lock);
	rpc->op_mdh = LNET_MD_HANDLE_NONE;
	aborted = rpc->aborted;
	spin_unlock_irq(&svc->lock);
	if (aborted)
		return -EINTR;
	return rc ?: rpc->ev_status;
}

/* Move the handler's bulk (spec 2.4): a sink is filled by our GET. */
static int lst_srpc_bulk(struct lst_srpc *rpc)
{
	struct lst_bulk *bk = rpc->bulk;
	struct lnet_md md = {
		.start = bk->kiov,
		.length = bk->npages,
		.options = LNET_MD_KIOV,
		/* a GET: its SEND and its REPLY; a PUT without ACK: SEND */
		.threshold = bk->sink ? 2 : 1,
	};
	int rc;

	rc = lst_srpc_op(rpc, &md, bk->sink, rpc->bulkid);
	if (!rc && rpc->ev_mlength != bk->len)
		rc = -EBADMSG;
	if (!rc)
		atomic64_add(bk->len, bk->sink ? &lst_rpc_stats.bulk_get :
						 &lst_rpc_stats.bulk_put);
	return rc;
}

/* Serve one request (spec 2.6 server); true if a reply went out. */
static bool lst_srpc_serve(struct lst_srpc *rpc)
{
	struct lst_svc *svc = rpc->svc;
	struct lnet_md md = {
		.start = rpc->reply,
		.length = LST_MSG_SIZE,
		.threshold = 1,
	};
	u64 rpyid = lst_get64(rpc->req, LST_REQ_RPYID);
	int rc;

	/* The handler checks msg_version: a reply of its own says EPROTO. */
	lst_msg_init(rpc->reply, rpc->info.type + 1, rpc->info.feats);
	rc = svc->handle(rpc);
	if (rc)
		return false;
	if (rpc->bulk) {
		rpc->bulk_status = lst_srpc_bulk(rpc);
		rc = svc->bulk_done ? svc->bulk_done(rpc) : rpc->bulk_status;
		if (rc)
			return false;
	}
	return !lst_srpc_op(rpc, &md, false, rpyid);
}

static void lst_rqbuf_work(struct work_struct *work)
{
	struct lst_rqbuf *buf = container_of(work, struct lst_rqbuf, work);
	struct lst_svc *svc = buf->svc;
	struct lst_srpc *rpc;
	bool replied = false;

	/* Another buffer in this one's place first (spec 2.6 step 3). */
	lst_service_refill(svc);
	rpc = kzalloc(sizeof(*rpc), GFP_KERNEL);
	/* Only a whole 160-byte request of the service's type (spec 2.2). */
	if (rpc && !buf->status && buf->mlength == LST_MSG_SIZE &&
	    !lst_msg_unpack(buf->msg, LST_MSG_SIZE, &rpc->info) &&
	    rpc->info.type == lst_service_req_type(svc->id)) {
		rpc->svc = svc;
		memcpy(rpc->req, buf->msg, LST_MSG_SIZE);
		rpc->peer = buf->peer;
		rpc->self = buf->self;
		rpc->bulkid = lst_get64(rpc->req, LST_REQ_BULKID);
		rpc->op_mdh = LNET_MD_HANDLE_NONE;
		init_completion(&rpc->event);
		spin_lock_irq(&svc->lock);
		rpc->aborted = svc->stopping;
		list_add_tail(&rpc->link, &svc->rpcs);
		spin_unlock_irq(&svc->lock);
		replied = lst_srpc_serve(rpc);
		spin_lock_irq(&svc->lock);
		list_del(&rpc->link);
		spin_unlock_irq(&svc->lock);
		lst_bulk_free(rpc->bulk);
	}
	if (!replied)
		atomic_inc(&lst_rpc_stats.rpcs_dropped);
	kfree(rpc);
	kfree(buf);
	lst_service_put(svc);
}

/**
 * lst_service_start() - post a service's request buffers
 * @svc: the service, its @name, @id, @nbuf, @handle and @wq set
 *
 * Return: 0, or -errno (nothing left posted).
 */
int lst_service_start(struct lst_svc *svc)
{
	spin_lock_init(&svc->lock);
	INIT_LIST_HEAD(&svc->bufs);
	INIT_LIST_HEAD(&svc->rpcs);
	init_waitqueue_head(&svc->waitq);
	svc->posted = 0;
	svc->busy = 0;
	svc->stopping = false;
	lst_service_refill(svc);
	if (svc->posted == svc->nbuf)
		return 0;
	pr_err("lnet_selftest: cannot post the %s service's request buffers\n",
	       svc->name);
	lst_service_stop(svc);
	return -ENOMEM;
}
EXPORT_SYMBOL_IF_KUNIT(lst_service_start);

/* Take a posted buffer no stop has unlinked yet: false if none is left. */
static bool lst_service_next(struct lst_svc *svc,
			     struct lnet_handle_md *mdh)
{
	struct lst_rqbuf *buf;
	bool found = false;

	spin_lock_irq(&svc->lock);
	list_for_each_entry(buf, &svc->bufs, link) {
		if (buf->attached && !buf->unlinking) {
			buf->unlinking = true;
			*mdh = buf->mdh;
			found = true;
			break;
		}
	}
	spin_unlock_irq(&svc->lock);
	return found;
}

/*
 * Abort the requests being served that no stop has aborted yet; false
 * once none is left with an operation in flight (whose MD is in @mdh).
 */
static bool lst_service_abort_next(struct lst_svc *svc,
				   struct lnet_handle_md *mdh)
{
	struct lst_srpc *rpc;
	bool found = false;

	spin_lock_irq(&svc->lock);
	list_for_each_entry(rpc, &svc->rpcs, link) {
		if (rpc->aborted)
			continue;
		rpc->aborted = true;
		if (!lnet_md_handle_is_none(rpc->op_mdh)) {
			*mdh = rpc->op_mdh;
			found = true;
			break;
		}
	}
	spin_unlock_irq(&svc->lock);
	return found;
}

/**
 * lst_service_stop() - unlink a service's buffers, abort its requests,
 *	wait until it is idle
 * @svc: a started service
 *
 * Each request in progress ends once, aborted, without a reply (spec
 * 4.9 step 2): its operation in flight is unlinked rather than waited
 * for (an MD already gone, its operation just ended, is -ENOENT: MD
 * handles are allocated cyclically over 32 bits).
 */
void lst_service_stop(struct lst_svc *svc)
{
	struct lnet_handle_md mdh;

	spin_lock_irq(&svc->lock);
	svc->stopping = true;
	spin_unlock_irq(&svc->lock);
	while (lst_service_next(svc, &mdh))
		lnet_md_unlink(mdh);
	while (lst_service_abort_next(svc, &mdh))
		lnet_md_unlink(mdh);
	wait_event_idle(svc->waitq, !READ_ONCE(svc->posted) &&
			!READ_ONCE(svc->busy));
}
EXPORT_SYMBOL_IF_KUNIT(lst_service_stop);
