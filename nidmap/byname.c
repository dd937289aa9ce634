// SPDX-License-Identifier: GPL-2.0
/*
 * Sending by name, NID-amnesia (Documentation/nidmap.rst, "Sending by
 * name"): an upper layer names a target, nidmap finds its NIDs (the
 * subscriber's copy, or on the publisher its table) and tries them in
 * failover order, asynchronously: the caller's done() runs once, when a
 * NID took the PUT or GET or when none is left.  A NID on a net we have
 * neither an NI on nor a route to is skipped: lnet_put() says
 * -EHOSTUNREACH at once, nothing is sent.  When every NID failed, the
 * name is resolved again (the subscriber fetches first): if the entry
 * changed (another version: the target moved), its new NIDs are tried;
 * if not, the last error is the send's.
 *
 * The machine (nidmap_by_name_start()) runs over operations given to it
 * (KUnit drives it with fakes); nidmap_put_by_name() and
 * nidmap_get_by_name() give it the real ones.  It runs as a work item on
 * system_unbound_wq, one step at a time: a resolution (which may wait
 * for the subscriber's fetch), then one try; the try's last LNet event
 * (its MD unlinked) queues the next step.
 */
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <kunit/visibility.h>
#include <lnet/ctl.h>

#include "api.h"
#include "node.h"

/**
 * struct nidmap_by_name - one send by name
 * @ops: how to resolve, refresh and try
 * @arg: their argument
 * @done: the caller's, called once at the end
 * @done_arg: its argument
 * @work: runs the next step
 * @name: the target
 * @rec: its record as last resolved
 * @res: what was done so far
 * @round: resolutions made
 * @idx: the NID of @rec being tried
 * @rc: the send's status so far
 * @tried: the outcome nidmap_by_name_tried() gave
 * @pending: a try is in flight
 * @any_failed: a NID of this resolution failed (not only skipped)
 * @is_get: the real operations': a GET, not a PUT
 * @want_answer: the try ends with an ACK or a REPLY
 * @put: the PUT (or the GET: its @xfer)
 * @mdh: the try's MD
 * @status: the try's first error (LNet events)
 * @sent: its SEND event came
 * @answered: its ACK or REPLY came
 * @unlink_work: unlinks an MD whose send failed (no ACK or REPLY comes)
 */
struct nidmap_by_name {
	const struct nidmap_by_name_ops	*ops;
	void				*arg;
	nidmap_by_name_done_t		done;
	void				*done_arg;
	struct work_struct		work;
	char				name[NIDMAP_NAME_MAX];
	struct nidmap_rec		rec;
	struct nidmap_by_name_res	res;
	int				round;
	int				idx;
	int				rc;
	int				tried;
	bool				pending;
	bool				any_failed;
	bool				is_get;
	bool				want_answer;
	struct nidmap_put		put;
	struct lnet_handle_md		mdh;
	int				status;
	bool				sent;
	bool				answered;
	struct work_struct		unlink_work;
};

/**
 * nidmap_by_name_tried() - the outcome of a try that was in flight
 * @op: the send whose @ops->start returned NIDMAP_TRY_PENDING
 * @status: 0 the NID took it, NIDMAP_PUT_SKIPPED, or -errno
 *
 * Context: any (it queues the next step).
 */
void nidmap_by_name_tried(struct nidmap_by_name *op, int status)
{
	op->tried = status;
	queue_work(system_unbound_wq, &op->work);
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_by_name_tried);

/* A try's outcome counted; Return: true when it took the send. */
static bool nidmap_by_name_outcome(struct nidmap_by_name *op, int rc)
{
	if (!rc) {
		op->res.nid = op->rec.nids[op->idx];
		op->rc = 0;
		return true;
	}
	if (rc == NIDMAP_PUT_SKIPPED) {
		op->res.skipped++;
	} else {
		op->res.failed++;
		op->any_failed = true;
		op->rc = rc;
	}
	op->idx++;
	return false;
}

/*
 * The next resolution, once @op's NIDs are all tried; Return: false when
 * the send is over (@op->rc says how).
 */
static bool nidmap_by_name_resolve_next(struct nidmap_by_name *op)
{
	int rc;

	if (op->round && !op->any_failed)
		op->rc = -EHOSTUNREACH;
	if (op->round == NIDMAP_BY_NAME_ROUNDS)
		return false;
	if (op->round && op->ops->refresh)
		op->ops->refresh(op->arg);
	rc = op->ops->resolve(op->arg, op->name, &op->rec);
	if (rc) {
		op->rc = rc;
		return false;
	}
	if (op->round++ && op->rec.version == op->res.version)
		return false;		/* nothing new: keep the last error */
	op->res.version = op->rec.version;
	op->res.resolves++;
	op->any_failed = false;
	op->idx = 0;
	return true;
}

static void nidmap_by_name_work(struct work_struct *work)
{
	struct nidmap_by_name *op = container_of(work, struct nidmap_by_name,
						 work);
	bool took = false;
	int rc;

	if (op->pending) {
		op->pending = false;
		took = nidmap_by_name_outcome(op, op->tried);
	}
	while (!took) {
		if (op->idx == op->rec.nnids) {
			if (!nidmap_by_name_resolve_next(op))
				break;
			continue;
		}
		op->pending = true;
		rc = op->ops->start(op->arg, op, &op->rec.nids[op->idx]);
		if (rc == NIDMAP_TRY_PENDING)
			return;		/* @op may already be queued again */
		op->pending = false;
		took = nidmap_by_name_outcome(op, rc);
	}
	op->done(op->done_arg, op->rc, &op->res);
	if (op->ops->fini)
		op->ops->fini(op->arg);
	kfree(op);
	nidmap_live_put();
}

/* A send by name to @name, or ERR_PTR(-EINVAL) for a bad name. */
static struct nidmap_by_name *nidmap_by_name_alloc(const char *name)
{
	struct nidmap_by_name *op;

	if (nidmap_name_check(name, NIDMAP_NAME_MAX) < 0)
		return ERR_PTR(-EINVAL);
	op = kzalloc(sizeof(*op), GFP_KERNEL);
	if (!op)
		return ERR_PTR(-ENOMEM);
	strscpy(op->name, name, sizeof(op->name));
	INIT_WORK(&op->work, nidmap_by_name_work);
	return op;
}

static void nidmap_by_name_go(struct nidmap_by_name *op,
			      const struct nidmap_by_name_ops *ops, void *arg,
			      nidmap_by_name_done_t done, void *done_arg)
{
	op->ops = ops;
	op->arg = arg;
	op->done = done;
	op->done_arg = done_arg;
	nidmap_live_get();
	queue_work(system_unbound_wq, &op->work);
}

/**
 * nidmap_by_name_start() - start a send by name over given operations
 * @ops: how to resolve, refresh and try
 * @arg: their argument
 * @name: the target
 * @done: called exactly once, later, in process context, with the
 *	send's status and what it did
 * @done_arg: its argument
 *
 * The NIDs of @name's record are tried in failover order.  A NID
 * @ops->start skips (NIDMAP_PUT_SKIPPED) counts in skipped, a failed try
 * in failed (whatever its error, -EHOSTUNREACH from a failed connection
 * too).  At most NIDMAP_BY_NAME_ROUNDS resolutions; a resolution that
 * finds the entry at the version already tried ends the send.  The
 * status given to @done: 0 (res->nid took it); -ENOENT no such target
 * (or it was removed meanwhile); -EHOSTUNREACH no NID is reachable; the
 * last try's error; @ops->resolve's error.
 *
 * Return: 0 (@done will be called); -EINVAL not a target name, -ENOMEM
 * (@done will not be called).
 */
int nidmap_by_name_start(const struct nidmap_by_name_ops *ops, void *arg,
			 const char *name, nidmap_by_name_done_t done,
			 void *done_arg)
{
	struct nidmap_by_name *op = nidmap_by_name_alloc(name);

	if (IS_ERR(op))
		return PTR_ERR(op);
	nidmap_by_name_go(op, ops, arg, done, done_arg);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_by_name_start);

/**
 * nidmap_by_name_wake() - a done() that completes a struct
 *	nidmap_by_name_wait
 * @arg: the struct nidmap_by_name_wait, its @done initialised
 * @status: the send's status
 * @res: what it did
 */
void nidmap_by_name_wake(void *arg, int status,
			 const struct nidmap_by_name_res *res)
{
	struct nidmap_by_name_wait *w = arg;

	w->status = status;
	w->res = *res;
	complete(&w->done);
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_by_name_wake);

/**
 * nidmap_resolve() - a target's entry: the subscriber's copy, or on a
 *	publisher that does not subscribe its table, or else DNS
 * @name: the target
 * @rec: its record
 * @source: set to where it came from, NIDMAP_SOURCE_* (may be NULL)
 *
 * DNS (dns.c) is asked when its backend is configured and neither the
 * copy nor the table has the target, or this node has neither.
 *
 * Context: process context (takes nidmap_cfg_lock; DNS may wait for
 * its upcall).
 * Return: 0; -ENOENT no such target; -ENODEV this node neither
 * subscribes nor publishes, and has no DNS backend; another -errno from
 * DNS.
 */
int nidmap_resolve(const char *name, struct nidmap_rec *rec, u32 *source)
{
	u32 from = NIDMAP_SOURCE_PUBLISHER;
	struct nidmap_table *t;
	struct nidmap_copy *c;
	struct lnet_nid pub;
	bool subscribed;
	int rc = -ENODEV;

	mutex_lock(&nidmap_cfg_lock);
	c = nidmap_sub_copy(&pub, &subscribed);
	t = nidmap_pub_table();
	if (c) {
		rc = nidmap_copy_lookup(c, name, rec);
		from = NIDMAP_SOURCE_SUBSCRIBER;
	} else if (t) {
		rc = nidmap_table_lookup(t, name, rec);
	}
	mutex_unlock(&nidmap_cfg_lock);
	if (rc == -ENOENT || rc == -ENODEV) {
		int dns = nidmap_dns_resolve(name, rec);

		/* -ENODEV: no DNS domain, the table's answer stands. */
		if (dns != -ENODEV) {
			rc = dns;
			from = NIDMAP_SOURCE_DNS;
		}
	}
	if (source)
		*source = from;
	return rc;
}

/* --- the real operations: LNet PUTs and GETs --- */

static int nidmap_by_name_resolve(void *arg, const char *name,
				  struct nidmap_rec *rec)
{
	return nidmap_resolve(name, rec, NULL);
}

static void nidmap_by_name_refresh(void *arg)
{
	nidmap_sub_refresh(NIDMAP_REQ_TIMEOUT);
}

/* A try's outcome from its events: 0 when sent (and ACKed or replied). */
static int nidmap_by_name_verdict(const struct nidmap_by_name *op)
{
	if (op->status)
		return op->status;
	if (!op->sent || (op->want_answer && !op->answered))
		return -EIO;
	return 0;
}

/* Atomic context, LNet's lock held: no LNet call here. */
static void nidmap_by_name_event(struct lnet_event *ev)
{
	struct nidmap_by_name *op = ev->md_user_ptr;

	if (ev->status && !op->status)
		op->status = ev->status;
	if (ev->type == LNET_EVENT_SEND) {
		op->sent = true;
	} else if (ev->type == LNET_EVENT_ACK) {
		op->answered = true;
	} else if (ev->type == LNET_EVENT_REPLY) {
		op->answered = true;
		if (!ev->status)
			op->res.mlength = ev->mlength;
	}
	if (ev->unlinked)
		nidmap_by_name_tried(op, nidmap_by_name_verdict(op));
	else if (ev->status)
		/* The send failed: no ACK or REPLY comes, the MD stays. */
		queue_work(system_unbound_wq, &op->unlink_work);
}

static void nidmap_by_name_unlink(struct work_struct *work)
{
	struct nidmap_by_name *op = container_of(work, struct nidmap_by_name,
						 unlink_work);

	lnet_md_unlink(op->mdh);
}

/*
 * One PUT or GET to @nid, ended by its MD's unlinking (LNet ends every
 * operation; transaction_timeout bounds it).  When lnet_put() or
 * lnet_get() refuses at once, the MD is unlinked here and its UNLINK
 * event ends the try: NIDMAP_PUT_SKIPPED for -EHOSTUNREACH (no NI of ours
 * and no route on @nid's net: nothing was sent), else the error.
 */
static int nidmap_by_name_lnet_start(void *arg, struct nidmap_by_name *op,
				     const struct lnet_nid *nid)
{
	const struct nidmap_xfer *p = &op->put.xfer;
	struct lnet_processid dest = { .nid = *nid, .pid = p->pid };
	struct lnet_md md = {
		.start = p->start,
		.length = p->length,
		.options = p->options & LNET_MD_KIOV,
		.threshold = op->want_answer ? 2 : 1,
		.user_ptr = op,
		.handler = nidmap_by_name_event,
	};
	int rc;

	/* The last try's MD is gone: its unlink must not find this one. */
	cancel_work_sync(&op->unlink_work);
	op->status = 0;
	op->sent = false;
	op->answered = false;
	rc = lnet_md_bind(&md, LNET_UNLINK, &op->mdh);
	if (rc)
		return rc;
	if (op->is_get)
		rc = lnet_get(NULL, op->mdh, &dest, p->portal, p->match_bits,
			      p->offset);
	else
		rc = lnet_put(NULL, op->mdh, op->put.ack, &dest, p->portal,
			      p->match_bits, p->offset, op->put.hdr_data);
	if (rc) {
		op->status = rc == -EHOSTUNREACH ? NIDMAP_PUT_SKIPPED : rc;
		lnet_md_unlink(op->mdh);
	}
	return NIDMAP_TRY_PENDING;
}

static void nidmap_by_name_lnet_fini(void *arg)
{
	struct nidmap_by_name *op = arg;

	cancel_work_sync(&op->unlink_work);
	lnet_ni_fini();
}

static const struct nidmap_by_name_ops nidmap_by_name_lnet_ops = {
	.resolve	= nidmap_by_name_resolve,
	.refresh	= nidmap_by_name_refresh,
	.start		= nidmap_by_name_lnet_start,
	.fini		= nidmap_by_name_lnet_fini,
};

/* Start a real send by name of @put (a GET of @put->xfer if @is_get). */
static int nidmap_by_name_lnet(const char *name, const struct nidmap_put *put,
			       bool is_get, nidmap_by_name_done_t done,
			       void *arg)
{
	struct nidmap_by_name *op;
	int rc;

	if ((put->xfer.options & ~LNET_MD_KIOV) || !done)
		return -EINVAL;
	if (!lnet_is_configured())
		return -ENETDOWN;
	op = nidmap_by_name_alloc(name);
	if (IS_ERR(op))
		return PTR_ERR(op);
	rc = lnet_ni_init();
	if (rc) {
		kfree(op);
		return rc;
	}
	op->put = *put;
	op->is_get = is_get;
	op->want_answer = is_get || put->ack == LNET_ACK_REQ;
	INIT_WORK(&op->unlink_work, nidmap_by_name_unlink);
	nidmap_by_name_go(op, &nidmap_by_name_lnet_ops, op, done, arg);
	return 0;
}

/**
 * nidmap_put_by_name() - PUT to a target by its name (NID-amnesia),
 *	asynchronously
 * @name: the target, as registered in the nidmap table
 * @put: the PUT: in @put->xfer the data (start, length, LNET_MD_KIOV in
 *	options for a bio_vec array) and where it goes (pid, portal,
 *	match_bits, offset), and @put->hdr_data, as for lnet_md_bind()
 *	and lnet_put(); @put->ack LNET_ACK_REQ to
 *	wait for the target's ACK, else for the send only.  Copied: it
 *	need not outlive the call (the data does).
 * @done: called exactly once when the send is over (0 or -errno, and
 *	what was done: the NID that took the PUT, the entry's version,
 *	NIDs skipped and failed, resolutions), in process context, never
 *	from within this call
 * @arg: for @done
 *
 * The name is resolved through this node's copy of the table (or, on a
 * publisher that does not subscribe, its table); the target's NIDs are
 * tried in failover order, one PUT at a time.  A NID on a net we have no
 * NI on and no route to is skipped at once.  When all fail, the
 * subscriber fetches (up to its request timeout) and the name is
 * resolved again: a changed entry's NIDs are tried in turn.  The caller
 * never handles a NID.  nidmap binds its own MD over the data for each
 * try: the data must stay valid until @done runs, and the caller gets no
 * LNet event.
 *
 * Status given to @done: 0; -ENOENT no such target; -ENODEV this node
 * has no table (neither subscriber nor publisher); -EHOSTUNREACH none
 * of its NIDs is reachable from here; the last try's error (e.g.
 * -ETIMEDOUT, -ECONNREFUSED, -EIO no ACK).
 *
 * Context: process context.
 * Return: 0 (@done will be called); -EINVAL a bad name, options or no
 * @done; -ENETDOWN LNet is down; -ENOMEM (@done will not be called).
 */
int nidmap_put_by_name(const char *name, const struct nidmap_put *put,
		       nidmap_by_name_done_t done, void *arg)
{
	return nidmap_by_name_lnet(name, put, false, done, arg);
}
EXPORT_SYMBOL_GPL(nidmap_put_by_name);

/**
 * nidmap_get_by_name() - GET from a target by its name (NID-amnesia),
 *	asynchronously
 * @name: the target, as registered in the nidmap table
 * @get: the GET: the sink (@get->start, @get->length, LNET_MD_KIOV in
 *	@get->options for a bio_vec array) and what it asks for
 *	(@get->pid, @get->portal, @get->match_bits, @get->offset), as for
 *	lnet_md_bind() and lnet_get().  Copied: it need not outlive the
 *	call (the sink does).
 * @done: called exactly once when the GET is over, as for
 *	nidmap_put_by_name(); on success res->mlength is the bytes the
 *	REPLY brought
 * @arg: for @done
 *
 * As nidmap_put_by_name(): the NIDs tried in failover order, one GET at
 * a time, until one REPLY arrives; the sink must stay valid until @done
 * runs (a failed try may have written part of it).
 *
 * Context: process context.
 * Return: as nidmap_put_by_name().
 */
int nidmap_get_by_name(const char *name, const struct nidmap_xfer *get,
		       nidmap_by_name_done_t done, void *arg)
{
	struct nidmap_put put = { .xfer = *get };

	return nidmap_by_name_lnet(name, &put, true, done, arg);
}
EXPORT_SYMBOL_GPL(nidmap_get_by_name);
