// SPDX-License-Identifier: GPL-2.0
/*
 * Sending by name, NID-amnesia (Documentation/nidmap.rst, "Sending by
 * name"): an upper layer names a target, nidmap finds its NIDs (the
 * subscriber's copy, or on the publisher its table) and tries them in
 * failover order.  A NID on a net we have neither an NI on nor a route
 * to is skipped: lnet_put() says -EHOSTUNREACH at once, nothing is sent.
 * When every NID failed, the name is resolved again (the subscriber
 * fetches first): if the entry changed (another version: the target
 * moved), its new NIDs are tried; if not, the last error is returned.
 *
 * nidmap_by_name_run() is the loop over operations given to it (KUnit
 * drives it with fakes); nidmap_put_by_name() gives it the real ones.
 */
#include <linux/slab.h>
#include <linux/wait.h>

#include <kunit/visibility.h>
#include <lnet/ctl.h>

#include "api.h"
#include "node.h"

/**
 * nidmap_by_name_run() - resolve a name and try its NIDs in failover
 *	order, resolving again when they all fail
 * @ops: how to resolve, refresh and send
 * @arg: their argument
 * @name: the target
 * @res: what was done (zeroed first)
 *
 * A NID @ops->put skips (NIDMAP_PUT_SKIPPED: no NI of ours and no route
 * on its net) counts in @res->skipped, a failed send in @res->failed
 * (whatever its error, -EHOSTUNREACH from a failed connection too).  At
 * most NIDMAP_BY_NAME_ROUNDS resolutions; a resolution that finds the
 * entry at the version already tried ends the loop (nothing new to try).
 *
 * Return: 0 (@res->nid took it); -ENOENT no such target (or it was
 * removed meanwhile); -EHOSTUNREACH no NID is reachable; the last send's
 * error; @ops->resolve's error.
 */
int nidmap_by_name_run(const struct nidmap_by_name_ops *ops, void *arg,
		       const char *name, struct nidmap_by_name_res *res)
{
	struct nidmap_rec *rec;
	int round, rc = 0, prc, i;
	bool any_failed;

	memset(res, 0, sizeof(*res));
	rec = kmalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return -ENOMEM;
	for (round = 0; round < NIDMAP_BY_NAME_ROUNDS; round++) {
		if (round && ops->refresh)
			ops->refresh(arg);
		prc = ops->resolve(arg, name, rec);
		if (prc) {
			rc = prc;
			break;
		}
		if (round && rec->version == res->version)
			break;		/* nothing new: keep the last error */
		res->version = rec->version;
		res->resolves++;
		any_failed = false;
		for (i = 0; i < rec->nnids; i++) {
			prc = ops->put(arg, &rec->nids[i]);
			if (!prc) {
				res->nid = rec->nids[i];
				kfree(rec);
				return 0;
			}
			if (prc == NIDMAP_PUT_SKIPPED) {
				res->skipped++;
			} else {
				res->failed++;
				any_failed = true;
				rc = prc;
			}
		}
		if (!any_failed)
			rc = -EHOSTUNREACH;
	}
	kfree(rec);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_by_name_run);

/* The real operations' state: one PUT's description and its events. */
struct nidmap_by_name {
	const struct nidmap_put	*put;
	spinlock_t		lock;		/* the event state below */
	wait_queue_head_t	waitq;
	int			status;
	bool			sent;
	bool			acked;
	bool			unlinked;
};

/**
 * nidmap_resolve() - a target's entry: the subscriber's copy, or on a
 *	publisher that does not subscribe its table
 * @name: the target
 * @rec: its record
 * @copy: set if it came from the copy (may be NULL)
 *
 * Context: process context (takes nidmap_cfg_lock).
 * Return: 0; -ENOENT no such target; -ENODEV this node neither
 * subscribes nor publishes.
 */
int nidmap_resolve(const char *name, struct nidmap_rec *rec, bool *copy)
{
	struct nidmap_table *t;
	struct nidmap_copy *c;
	struct lnet_nid pub;
	bool subscribed;
	int rc = -ENODEV;

	mutex_lock(&nidmap_cfg_lock);
	c = nidmap_sub_copy(&pub, &subscribed);
	t = nidmap_pub_table();
	if (c)
		rc = nidmap_copy_lookup(c, name, rec);
	else if (t)
		rc = nidmap_table_lookup(t, name, rec);
	mutex_unlock(&nidmap_cfg_lock);
	if (copy)
		*copy = c;
	return rc;
}

static int nidmap_by_name_resolve(void *arg, const char *name,
				  struct nidmap_rec *rec)
{
	return nidmap_resolve(name, rec, NULL);
}

static void nidmap_by_name_refresh(void *arg)
{
	nidmap_sub_refresh(NIDMAP_REQ_TIMEOUT);
}

static void nidmap_by_name_event(struct lnet_event *ev)
{
	struct nidmap_by_name *s = ev->md_user_ptr;

	spin_lock(&s->lock);
	if (ev->status && !s->status)
		s->status = ev->status;
	if (ev->type == LNET_EVENT_SEND)
		s->sent = true;
	if (ev->type == LNET_EVENT_ACK)
		s->acked = true;
	if (ev->unlinked)
		s->unlinked = true;
	spin_unlock(&s->lock);
	wake_up(&s->waitq);
}

/*
 * One PUT to @nid: 0 once sent (and ACKed if asked); NIDMAP_PUT_SKIPPED
 * when lnet_put() refuses at once with -EHOSTUNREACH (no NI of ours and
 * no route on @nid's net: nothing was sent); or the failure's -errno.
 */
static int nidmap_by_name_put(void *arg, const struct lnet_nid *nid)
{
	struct nidmap_by_name *s = arg;
	const struct nidmap_put *p = s->put;
	struct lnet_processid dest = { .nid = *nid, .pid = p->pid };
	bool ack = p->ack == LNET_ACK_REQ;
	struct lnet_handle_md mdh;
	struct lnet_md md = {
		.start = p->start,
		.length = p->length,
		.options = p->options & LNET_MD_KIOV,
		.threshold = ack ? 2 : 1,
		.user_ptr = s,
		.handler = nidmap_by_name_event,
	};
	bool done;
	int rc;

	s->status = 0;
	s->sent = false;
	s->acked = false;
	s->unlinked = false;
	rc = lnet_md_bind(&md, LNET_UNLINK, &mdh);
	if (rc)
		return rc;
	rc = lnet_put(NULL, mdh, p->ack, &dest, p->portal, p->match_bits,
		      p->offset, p->hdr_data);
	if (rc) {
		lnet_md_unlink(mdh);
		return rc == -EHOSTUNREACH ? NIDMAP_PUT_SKIPPED : rc;
	}
	/* LNet ends every operation (transaction_timeout bounds it). */
	wait_event_idle(s->waitq, READ_ONCE(s->unlinked) ||
			(READ_ONCE(s->sent) && READ_ONCE(s->status)));
	spin_lock_bh(&s->lock);
	done = s->unlinked;
	rc = s->status;
	if (!rc && (!s->sent || (ack && !s->acked)))
		rc = -EIO;
	spin_unlock_bh(&s->lock);
	if (!done) {
		/* The send failed: no ACK will come, the MD is still there. */
		lnet_md_unlink(mdh);
		wait_event_idle(s->waitq, READ_ONCE(s->unlinked));
	}
	return rc;
}

static const struct nidmap_by_name_ops nidmap_by_name_ops = {
	.resolve	= nidmap_by_name_resolve,
	.refresh	= nidmap_by_name_refresh,
	.put		= nidmap_by_name_put,
};

/**
 * nidmap_put_by_name() - PUT to a target by its name (NID-amnesia)
 * @name: the target, as registered in the nidmap table
 * @put: the PUT: the data (@put->start, @put->length, LNET_MD_KIOV in
 *	@put->options for a bio_vec array), where it goes (@put->pid,
 *	@put->portal, @put->match_bits, @put->offset) and @put->hdr_data,
 *	as for lnet_md_bind() and lnet_put(); @put->ack LNET_ACK_REQ to
 *	wait for the target's ACK, else for the send only
 * @res: set to what was done: the NID that took the PUT, the entry's
 *	version, NIDs skipped and failed, resolutions
 *
 * The name is resolved through this node's copy of the table (or, on a
 * publisher that does not subscribe, its table); the target's NIDs are
 * tried in failover order, one PUT at a time, each waited for.  A NID on
 * a net we have no NI on and no route to is skipped at once.  When all
 * fail, the subscriber fetches (up to its request timeout) and the name
 * is resolved again: a changed entry's NIDs are tried in turn.  The
 * caller never handles a NID.  nidmap binds its own MD over the data for
 * each try: the caller's buffer must stay valid until the call returns,
 * and gets no LNet event.
 *
 * Context: process context; sleeps (each try up to LNet's
 * transaction_timeout).
 * Return: 0; -ENOENT no such target; -ENODEV this node has no table
 * (neither subscriber nor publisher); -EHOSTUNREACH none of its NIDs is
 * reachable from here; -ENETDOWN LNet is down; the last try's error
 * (e.g. -ETIMEDOUT, -ECONNREFUSED).
 */
int nidmap_put_by_name(const char *name, const struct nidmap_put *put,
		       struct nidmap_by_name_res *res)
{
	struct nidmap_by_name s = { .put = put };
	int rc;

	if (!lnet_is_configured())
		return -ENETDOWN;
	rc = lnet_ni_init();
	if (rc)
		return rc;
	spin_lock_init(&s.lock);
	init_waitqueue_head(&s.waitq);
	rc = nidmap_by_name_run(&nidmap_by_name_ops, &s, name, res);
	lnet_ni_fini();
	return rc;
}
EXPORT_SYMBOL_GPL(nidmap_put_by_name);
