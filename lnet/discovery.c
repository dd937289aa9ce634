// SPDX-License-Identifier: GPL-2.0
/*
 * Discovery (wire spec 7): learn a peer's NIDs and features from its ping
 * buffer and tell it ours by a push, as Lustre does.
 *
 * When: the first PUT or GET on a portal other than 0, sent by us or
 * forwarded by us as a router (routing spec 4.4), to a peer that is not
 * up to date (never discovered, or our ping buffer changed since it
 * acknowledged ours) while discovery is on; a push from the peer; a
 * change of our NIs (a push to every multi-rail peer); "lnetctl
 * discover".  Meanwhile messages to the peer are held on it (at most
 * LNET_DC_HELD_MAX) and sent when discovery ends, or failed with its
 * error: a discovery lasts at most a ping and a push, each bounded by
 * transaction_timeout through the response tracker.
 *
 * How: a peer's discovery is its work item (lp_dc_work on ln_dc_wq)
 * stepping through lnet_dc_next() until done, one ping or push in flight
 * at a time (lp_dc_op).  Nothing waits: the op's MD events record its
 * outcome and queue the work again, or the op's deadline does
 * (transaction_timeout: an LND may hold a message to a dead peer longer
 * than that); the work then acts on the outcome and detaches the op,
 * which its MD's last event frees.  The steps, in Lustre's
 * order: merge data present (a ping reply or push, peer-merge.c), fail
 * on a failed ping or push, ping if its NIDs are not up to date (again
 * larger if the reply was truncated), push if it is multi-rail and has
 * an older buffer of ours, else discovered.
 *
 * Lifetime: a running discovery holds its peer (lp_refcount), so a peer
 * whose NIs are all reaped, deleted or merged into another one meanwhile
 * stays until its discovery has ended; its held messages then go by the
 * peer table as it is.  Shutdown: lnet_discovery_stop() fails the held
 * messages, lnet_discovery_flush() waits for every discovery to end once
 * the NIs are gone (Documentation/lifetimes.rst).
 */
#include <linux/export.h>
#include <linux/slab.h>
#include <linux/wait.h>

#include <kunit/visibility.h>

#include <lnet/ctl.h>
#include <lnet/lib-lnet.h>
#include <lnet/route.h>
#include <lnet/router.h>
#include <lnet/trace.h>

#include "peer.h"

/* Messages held on a peer under discovery, at most; more: -EAGAIN. */
#define LNET_DC_HELD_MAX	1024

/* The first ping asks for this much, as Lustre's discovery does. */
#define LNET_DISCOVER_SIZE	272

/* A ping buffer larger than this is refused (-EPROTO). */
static unsigned int lnet_dc_size_max(void)
{
	return lnet_ping_buf_size(lnet_max_interfaces()) + 24 * 256;
}

/*
 * Does @lp want a push?  Only a multi-rail peer does: forced, or with
 * discovery on both sides and an older ping buffer of ours than the one
 * published (Lustre's lnet_peer_needs_push()).
 */
static bool lnet_peer_needs_push_locked(const struct lnet_peer *lp)
{
	/* a peer of our own NID ("peer add" of it) is never pushed to */
	if (!(lp->lp_state & LNET_PEER_MULTI_RAIL) ||
	    lnet_nid_is_local_locked(&lp->lp_primary_nid))
		return false;
	if (lp->lp_state & LNET_PEER_FORCE_PUSH)
		return true;
	if ((lp->lp_state & LNET_PEER_NO_DISCOVERY) ||
	    !lnet_discovery_enabled())
		return false;
	return (s32)(lp->lp_node_seqno - the_lnet.ln_ping_seq) < 0;
}

/* Can a message go to @lp without a discovery first? */
static bool lnet_peer_uptodate_locked(const struct lnet_peer *lp)
{
	const u32 want = LNET_PEER_DISCOVERED | LNET_PEER_NIDS_UPTODATE;

	if (lp->lp_state & (LNET_PEER_DISCOVERING | LNET_PEER_FORCE_PING |
			    LNET_PEER_FORCE_PUSH))
		return false;
	return (lp->lp_state & want) == want &&
	       !lnet_peer_needs_push_locked(lp);
}

/**
 * lnet_dc_next() - the next step of a discovery
 * @state: the peer's LNET_PEER_* bits
 * @needs_push: it is multi-rail and has an older ping buffer of ours
 * @running: LNet is running
 *
 * Lustre's order (spec features 4c): an op in flight is waited for, data
 * present is merged, a failure ends the discovery, then ping, then push.
 *
 * Return: what to do.
 */
VISIBLE_IF_KUNIT enum lnet_dc_action lnet_dc_next(u32 state, bool needs_push,
						  bool running)
{
	if (state & (LNET_PEER_PING_SENT | LNET_PEER_PUSH_SENT))
		return LNET_DC_WAIT;
	if (state & LNET_PEER_DATA_PRESENT)
		return running ? LNET_DC_MERGE : LNET_DC_FAIL;
	if ((state & (LNET_PEER_PING_FAILED | LNET_PEER_PUSH_FAILED)) ||
	    !running)
		return LNET_DC_FAIL;
	if (!(state & LNET_PEER_NIDS_UPTODATE) ||
	    (state & LNET_PEER_FORCE_PING))
		return LNET_DC_PING;
	if (needs_push)
		return LNET_DC_PUSH;
	return LNET_DC_DONE;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_dc_next);

/*
 * Run @lp's work item now.  A queued work item holds its peer, so that
 * the peer outlives it even if the run before it ends the discovery and
 * frees the peer; the work drops that hold when done.
 */
static void lnet_peer_dc_kick_locked(struct lnet_peer *lp)
{
	if (!mod_delayed_work(the_lnet.ln_dc_wq, &lp->lp_dc_work, 0))
		lp->lp_refcount++;	/* it was idle */
}

/* Run @lp's work item at @when at the latest (an op's deadline). */
static void lnet_peer_dc_kick_at_locked(struct lnet_peer *lp,
					unsigned long when)
{
	long delay = (long)(when - jiffies);

	if (queue_delayed_work(the_lnet.ln_dc_wq, &lp->lp_dc_work,
			       delay > 0 ? delay : 0))
		lp->lp_refcount++;
}

/* Start @lp's discovery, or make the running one look at @lp again. */
static void lnet_peer_dc_queue_locked(struct lnet_peer *lp)
{
	if (!(lp->lp_state & LNET_PEER_DISCOVERING)) {
		lp->lp_state |= LNET_PEER_DISCOVERING;
		lp->lp_refcount++;	/* lnet_peer_dc_end_locked() */
	}
	lnet_peer_dc_kick_locked(lp);
}

/**
 * lnet_peer_dc_start_locked() - start @lp's discovery (or look again)
 * @lp: the peer (the router checker's gateway)
 *
 * Non-blocking: the discovery runs on its work item.
 */
void lnet_peer_dc_start_locked(struct lnet_peer *lp)
{
	lnet_peer_dc_queue_locked(lp);
}

/*
 * The peer of @nid, which is made one (a peer of its own) if it has none
 * and a local net reaches it, or a route to its net (routing spec 3.5:
 * a remote peer is discovered like any, through the gateway).
 * Return: the peer or NULL.
 */
static struct lnet_peer *lnet_dc_peer_get_locked(const struct lnet_nid *nid)
{
	struct lnet_peer_ni *lpni = lnet_peer_ni_find_locked(nid);
	u32 net_id = lnet_nid_net(nid);
	struct lnet_net *net;

	if (!lpni) {
		net = lnet_net_find_in(&the_lnet.ln_nets, net_id);
		if (net && !list_empty(&net->net_nis))
			lpni = lnet_peer_ni_get_locked(nid,
						       list_first_entry(&net->net_nis,
									struct lnet_ni,
									ni_list));
		else if (!net && lnet_route_net_known_locked(net_id))
			lpni = lnet_peer_ni_get_locked(nid, NULL);
	}
	return lpni ? lnet_peer_of(lpni) : NULL;
}

/**
 * lnet_dc_hold_locked() - hold a message until its peer is discovered?
 * @msg: a PUT or GET being started, its MD not attached yet, or one
 *	being forwarded (in its router buffer; lnet_fwd_resume() sends it)
 * @portal: its portal
 *
 * Return: the peer to hold it on (lnet_dc_hold_msg_locked() once the MD
 * is attached), NULL to send it now, or ERR_PTR(-EAGAIN) when the peer
 * holds too many already.
 */
struct lnet_peer *lnet_dc_hold_locked(const struct lnet_msg *msg,
				      unsigned int portal)
{
	const struct lnet_nid *dst = &msg->msg_target.nid;
	struct lnet_peer *lp;

	if (portal == LNET_RESERVED_PORTAL || !lnet_discovery_enabled() ||
	    the_lnet.ln_state != LNET_STATE_RUNNING ||
	    lnet_nid_is_any(dst) || lnet_nid_is_local_locked(dst))
		return NULL;
	lp = lnet_dc_peer_get_locked(dst);
	if (!lp || lnet_peer_uptodate_locked(lp))
		return NULL;
	if (lp->lp_dc_nheld >= LNET_DC_HELD_MAX) {
		pr_warn_ratelimited("LNet: %u messages wait for a peer's discovery already\n",
				    lp->lp_dc_nheld);
		return ERR_PTR(-EAGAIN);
	}
	return lp;
}

/**
 * lnet_dc_hold_msg_locked() - hold @msg until @lp's discovery ends
 * @lp: from lnet_dc_hold_locked()
 * @msg: the message, MD attached; lnet_msg_resume() sends it later
 */
void lnet_dc_hold_msg_locked(struct lnet_peer *lp, struct lnet_msg *msg)
{
	list_add_tail(&msg->msg_list, &lp->lp_dc_held);
	lp->lp_dc_nheld++;
	lnet_peer_dc_queue_locked(lp);
}

/* A detached op whose MD is gone: free it, drop its hold on the peer. */
static void lnet_peer_dc_op_free_locked(struct lnet_peer_dc_op *op)
{
	struct lnet_peer *lp = op->lp;

	kfree(op->buf);
	kfree(op);
	lnet_peer_put_locked(lp);
}

/*
 * Events of an op's MD (under the LNet lock): record the outcome and let
 * the discovery act on it; free a detached op once its MD is gone.
 */
static void lnet_peer_dc_op_event(struct lnet_event *ev)
{
	struct lnet_peer_dc_op *op = ev->md_user_ptr;

	if (!op->done && ev->status) {
		op->status = ev->status;
		op->done = true;
	} else if (!op->done && ev->type == LNET_EVENT_REPLY) {
		op->mlength = ev->mlength;
		op->answered = ev->source;
		op->local = ev->target.nid;
		op->done = true;
	} else if (!op->done && ev->type == LNET_EVENT_ACK) {
		op->done = true;
	}
	if (ev->unlinked) {
		op->unlinked = true;
		if (!op->done) {
			op->status = -ETIMEDOUT;
			op->done = true;
		}
	}
	if (op->detached) {
		if (op->unlinked)
			lnet_peer_dc_op_free_locked(op);
	} else if (op->done) {
		lnet_peer_dc_kick_locked(op->lp);
	}
}

/*
 * The sequence number of ping buffer @data, @len bytes; 0 for one that
 * does not validate (its merge fails on that).
 */
static u32 lnet_dc_data_seq(const void *data, unsigned int len)
{
	struct lnet_ping_data pd;

	return lnet_ping_buf_parse(data, len, &pd, NULL, NULL, 0) ? 0 : pd.seq;
}

/**
 * lnet_dc_data_offer_locked() - a ping reply or push for @lp to merge
 * @lp: the peer
 * @data: the buffer, ours to keep or the caller's to free
 * @len: its bytes
 * @seq: its sequence number (entry 0's status)
 * @pushed: a push, not a ping reply
 * @from: the NID that sent it
 * @local: our NID it came to
 *
 * One buffer waits per peer: of two, the newer by sequence number, as
 * Lustre keeps (spec 7), whatever their order of arrival; of two with
 * the same number, the later (a status written in place, spec 6.2).
 *
 * Return: true if @lp keeps it (DATA_PRESENT) for its discovery to merge;
 * false if the one waiting is newer.
 */
VISIBLE_IF_KUNIT bool lnet_dc_data_offer_locked(struct lnet_peer *lp,
						void *data, unsigned int len,
						u32 seq, bool pushed,
						const struct lnet_nid *from,
						const struct lnet_nid *local)
{
	if (lp->lp_dc_data && (s32)(seq - lp->lp_dc_data_seq) < 0)
		return false;
	kfree(lp->lp_dc_data);
	lp->lp_dc_data = data;
	lp->lp_dc_data_len = len;
	lp->lp_dc_data_seq = seq;
	lp->lp_dc_data_from = *from;
	lp->lp_dc_data_pushed = pushed;
	lp->lp_dc_push_dst = *from;
	lp->lp_dc_push_src = *local;
	lp->lp_state |= LNET_PEER_DATA_PRESENT;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_dc_data_offer_locked);

/* Act on the outcome of @lp's op (known now) and detach it. */
static void lnet_peer_dc_op_end_locked(struct lnet_peer *lp,
				       struct lnet_peer_dc_op *op)
{
	void *data = NULL;

	if (op->is_ping && !op->status) {
		/* The reply is all there: its MD took its last write. */
		data = kmemdup(op->buf, op->mlength, GFP_ATOMIC);
		if (!data)
			op->status = -ENOMEM;
	}
	if (op->is_ping) {
		lp->lp_state &= ~LNET_PEER_PING_SENT;
		if (op->status) {
			lp->lp_state |= LNET_PEER_PING_FAILED;
			lp->lp_dc_error = op->status;
		} else if (!lnet_dc_data_offer_locked(lp, data, op->mlength,
						      lnet_dc_data_seq(data,
								       op->mlength),
						      false, &op->answered,
						      &op->local)) {
			kfree(data);	/* a newer push came meanwhile */
		}
	} else {
		lp->lp_state &= ~LNET_PEER_PUSH_SENT;
		if (op->status) {
			/* Ping first next time: its NIDs may have changed. */
			lp->lp_state |= LNET_PEER_PUSH_FAILED;
			lp->lp_state &= ~LNET_PEER_NIDS_UPTODATE;
			lp->lp_dc_error = op->status;
		} else if ((s32)(op->seq - lp->lp_node_seqno) > 0) {
			lp->lp_node_seqno = op->seq;
		}
	}
	lp->lp_dc_op = NULL;
	op->detached = true;
}

/*
 * Start the op @md describes (a ping if @is_ping, else a push of ping
 * buffer @seq) to @dst, from @src (NULL: LNet's choice); @op is its
 * zeroed descriptor, @md->start its buffer, both freed here on failure.
 * Drops and retakes the lock.
 */
static void lnet_peer_dc_op_start(struct lnet_peer *lp,
				  struct lnet_peer_dc_op *op,
				  struct lnet_md *md, bool is_ping, u32 seq,
				  const struct lnet_nid *src,
				  const struct lnet_nid *dst)
	__must_hold(&the_lnet.ln_lock)
{
	struct lnet_processid target = { .nid = *dst, .pid = LNET_PID_LUSTRE };
	struct lnet_handle_md mdh;
	int rc;

	lnet_unlock();
	md->threshold = 2;		/* SEND, and REPLY or ACK */
	md->user_ptr = op;
	md->handler = lnet_peer_dc_op_event;
	rc = lnet_md_bind(md, LNET_UNLINK, &mdh);
	lnet_lock();
	if (rc) {
		kfree(md->start);
		kfree(op);
		lp->lp_state |= is_ping ? LNET_PEER_PING_FAILED :
					  LNET_PEER_PUSH_FAILED;
		lp->lp_dc_error = rc;
		return;
	}
	op->lp = lp;
	lp->lp_refcount++;		/* lnet_peer_dc_op_free_locked() */
	op->mdh = mdh;
	op->buf = md->start;
	op->size = md->length;
	op->seq = seq;
	op->is_ping = is_ping;
	op->deadline = jiffies +
		lnet_secs_to_jiffies(lnet_transaction_timeout());
	lp->lp_dc_op = op;
	lp->lp_state |= is_ping ? LNET_PEER_PING_SENT : LNET_PEER_PUSH_SENT;
	lnet_unlock();
	if (is_ping)
		rc = lnet_get(src, mdh, &target, LNET_RESERVED_PORTAL,
			      LNET_PROTO_PING_MATCHBITS, 0);
	else	/* wire spec 7: offset 0, hdr_data 0, ACK requested */
		rc = lnet_put(src, mdh, LNET_ACK_REQ, &target,
			      LNET_RESERVED_PORTAL, LNET_PROTO_PING_MATCHBITS,
			      0, 0);
	lnet_lock();
	if (rc && !op->done) {	/* only this work detaches @op */
		op->status = rc;
		op->done = true;
	}
}

/*
 * Where to ping @lp: its primary NID (spec 7 step 1), or, if no local
 * net reaches that, its first NID one reaches (a configured peer whose
 * primary NID is on a net we have no NI on); else, for a peer behind
 * routers, its primary NID if a route reaches it, or its first NID one
 * does (routing spec 3.5: the ping goes through a gateway).
 */
static struct lnet_nid lnet_peer_dc_ping_dst_locked(const struct lnet_peer *lp)
{
	const struct lnet_peer_net *lpn;
	struct lnet_nid dst;

	if (lnet_rtrcheck_ping_dst_locked(lp, &dst))
		return dst;	/* a router check: its NI on that net */
	if (lnet_net_find_in(&the_lnet.ln_nets,
			     lnet_nid_net(&lp->lp_primary_nid)))
		return lp->lp_primary_nid;
	list_for_each_entry(lpn, &lp->lp_nets, lpn_list)
		if (lnet_net_find_in(&the_lnet.ln_nets, lpn->lpn_net_id))
			return list_first_entry(&lpn->lpn_peer_nis,
						struct lnet_peer_ni,
						lpni_list)->lpni_nid;
	if (lnet_route_net_known_locked(lnet_nid_net(&lp->lp_primary_nid)))
		return lp->lp_primary_nid;
	list_for_each_entry(lpn, &lp->lp_nets, lpn_list)
		if (lnet_route_net_known_locked(lpn->lpn_net_id))
			return list_first_entry(&lpn->lpn_peer_nis,
						struct lnet_peer_ni,
						lpni_list)->lpni_nid;
	return lp->lp_primary_nid;
}

/* Ping @lp (spec 7 step 1). */
static void lnet_peer_dc_ping(struct lnet_peer *lp)
	__must_hold(&the_lnet.ln_lock)
{
	unsigned int size = lp->lp_dc_ping_size ?: LNET_DISCOVER_SIZE;
	struct lnet_nid dst = lnet_peer_dc_ping_dst_locked(lp);
	struct lnet_md md = { .length = size, .options = LNET_MD_TRUNCATE };

	struct lnet_peer_dc_op *op;

	lp->lp_state &= ~LNET_PEER_FORCE_PING;
	lnet_unlock();
	md.start = kzalloc(size, GFP_KERNEL);
	op = kzalloc(sizeof(*op), GFP_KERNEL);
	lnet_lock();
	if (!md.start || !op) {
		kfree(md.start);
		kfree(op);
		lp->lp_state |= LNET_PEER_PING_FAILED;
		lp->lp_dc_error = -ENOMEM;
		return;
	}
	lnet_peer_dc_op_start(lp, op, &md, true, 0, NULL, &dst);
}

/*
 * Push our ping buffer to the NID that answered @lp's ping (or pushed to
 * us), from the NI its reply (or push) came in on (spec 7 step 3): the
 * NIDs the peer knows of us already, so that it finds our peer.  If that
 * NID is no longer the peer's, to its primary NID; if that NI is gone,
 * LNet chooses.
 */
static void lnet_peer_dc_push(struct lnet_peer *lp)
	__must_hold(&the_lnet.ln_lock)
{
	unsigned int size = the_lnet.ln_ping_size;
	struct lnet_nid dst, src;
	struct lnet_peer_ni *lpni;
	struct lnet_md md = { .length = size };
	struct lnet_peer_dc_op *op;
	u32 seq;

	lnet_unlock();
	md.start = kmalloc(size, GFP_KERNEL);
	op = kzalloc(sizeof(*op), GFP_KERNEL);
	lnet_lock();
	if (!md.start || !op || !the_lnet.ln_ping_info ||
	    the_lnet.ln_ping_size != size) {
		/* Out of memory, or the buffer changed: the next step sees. */
		if (!md.start || !op) {
			lp->lp_state |= LNET_PEER_PUSH_FAILED;
			lp->lp_dc_error = -ENOMEM;
		}
		kfree(md.start);
		kfree(op);
		return;
	}
	memcpy(md.start, the_lnet.ln_ping_info, size);
	seq = the_lnet.ln_ping_seq;
	lp->lp_state &= ~LNET_PEER_FORCE_PUSH;
	/* Looked up now: the lock was dropped to allocate. */
	dst = lp->lp_dc_push_dst;
	src = lp->lp_dc_push_src;
	lpni = lnet_peer_ni_find_locked(&dst);
	if (!lpni || lnet_peer_of(lpni) != lp) {
		dst = lp->lp_primary_nid;	/* no longer its NID */
		src = LNET_ANY_NID;
	}
	if (lnet_nid_is_any(&src) || !lnet_nid_is_local_locked(&src))
		src = LNET_ANY_NID;
	lnet_peer_dc_op_start(lp, op, &md, false, seq,
			      lnet_nid_is_any(&src) ? NULL : &src, &dst);
}

/* Parse and merge the data present (spec 7 step 2, or a push). */
static void lnet_peer_dc_merge(struct lnet_peer *lp)
	__must_hold(&the_lnet.ln_lock)
{
	bool pushed = lp->lp_dc_data_pushed;
	unsigned int len = lp->lp_dc_data_len;
	struct lnet_nid from = lp->lp_dc_data_from;
	void *data = lp->lp_dc_data;
	struct lnet_nid *nids = NULL;
	struct lnet_ping_data pd;
	u32 *statuses = NULL;
	int rc;

	lp->lp_dc_data = NULL;
	lp->lp_state &= ~LNET_PEER_DATA_PRESENT;
	lnet_unlock();
	rc = lnet_ping_buf_parse(data, len, &pd, NULL, NULL, 0);
	if (!rc && pushed && !(pd.features & LNET_PING_FEAT_MULTI_RAIL)) {
		pr_info_ratelimited("LNet: a push without MULTI_RAIL ignored\n");
		rc = -EPROTO;
	}
	if (!rc && pd.truncated) {
		/* Ping again with room for all of it. */
		lnet_lock();
		if (pd.size > lnet_dc_size_max() ||
		    pd.size <= lp->lp_dc_ping_size) {
			lp->lp_state |= LNET_PEER_PING_FAILED;
			lp->lp_dc_error = -EPROTO;
		} else {
			lp->lp_dc_ping_size = pd.size;
			lp->lp_state |= LNET_PEER_FORCE_PING;
		}
		goto out;
	}
	if (!rc) {
		unsigned int n = max_t(unsigned int, pd.nnids, 1);

		nids = kcalloc(n, sizeof(*nids), GFP_KERNEL);
		statuses = kcalloc(n, sizeof(*statuses), GFP_KERNEL);
		rc = nids && statuses ?
		     lnet_ping_buf_parse(data, len, &pd, nids, statuses,
					 pd.nnids) : -ENOMEM;
	}
	if (!rc)
		rc = lnet_peer_merge(&from, &pd, nids, statuses, pd.nnids,
				     pushed);
	lnet_lock();
	if (rc == -ESTALE) {
		/* An older push than merged: which is current?  Ask. */
		lp->lp_state |= LNET_PEER_FORCE_PING;
		goto out;
	}
	if (pushed && rc && rc != -ENOMEM)
		the_lnet.ln_dc_stats.pushes_bad++;
	if (!rc) {
		lp->lp_state |= LNET_PEER_NIDS_UPTODATE;
		lnet_gw_ping_info_locked(&from, &pd, nids, statuses, pd.nnids);
	} else if (!pushed || rc == -ENOMEM) {	/* a bad push is dropped */
		lp->lp_state |= LNET_PEER_PING_FAILED;
		lp->lp_dc_error = rc;
	}
out:
	kfree(statuses);
	kfree(nids);
	kfree(data);
}

/*
 * End @lp's discovery with @rc: hand its held messages to @out and drop
 * the discovery's hold (which may free @lp).
 */
static void lnet_peer_dc_end_locked(struct lnet_peer *lp, int rc,
				    struct list_head *out)
{
	lp->lp_state &= ~(LNET_PEER_DISCOVERING | LNET_PEER_PING_FAILED |
			  LNET_PEER_PUSH_FAILED | LNET_PEER_FORCE_PING |
			  LNET_PEER_FORCE_PUSH);
	if (rc) {
		the_lnet.ln_dc_stats.failed++;
		lp->lp_state &= ~LNET_PEER_DISCOVERED;
	} else {
		the_lnet.ln_dc_stats.discovered++;
		lp->lp_state |= LNET_PEER_DISCOVERED;
		lp->lp_dc_ping_size = 0;
	}
	lp->lp_dc_error = rc;
	trace_lnet_discovery(&lp->lp_primary_nid, rc);
	lnet_rtrcheck_done_locked(lp, rc);
	/* An op deadline's timer: no run is needed any more. */
	if (cancel_delayed_work(&lp->lp_dc_work))
		lp->lp_refcount--;	/* the running work holds it too */
	list_splice_init(&lp->lp_dc_held, out);
	lp->lp_dc_nheld = 0;
	wake_up_all(&the_lnet.ln_dc_waitq);
	lnet_peer_put_locked(lp);
}

/* Send or fail what a discovery held. */
static void lnet_dc_release(struct list_head *held, int rc)
{
	struct lnet_msg *msg, *tmp;

	list_for_each_entry_safe(msg, tmp, held, msg_list) {
		list_del_init(&msg->msg_list);
		if (rc)
			lnet_finalize(msg, rc);
		else if (msg->msg_routing)
			lnet_fwd_resume(msg);	/* a router's, spec 4.4 */
		else
			lnet_msg_resume(msg);
	}
}

/* lp_dc_work: step @lp's discovery as far as it goes now. */
static void lnet_peer_dc_work(struct work_struct *work)
{
	struct lnet_peer *lp = container_of(to_delayed_work(work),
					    struct lnet_peer, lp_dc_work);
	struct lnet_peer_dc_op *op;
	struct lnet_handle_md mdh;
	LIST_HEAD(held);
	bool running;
	int rc = 0;

	lnet_lock();
	for (;;) {
		if (!(lp->lp_state & LNET_PEER_DISCOVERING))
			break;	/* queued again after it ended: nothing */
		running = the_lnet.ln_state == LNET_STATE_RUNNING;
		op = lp->lp_dc_op;
		if (op) {
			if (!op->done && running &&
			    time_before(jiffies, op->deadline)) {
				/* Its event or its deadline runs us. */
				lnet_peer_dc_kick_at_locked(lp, op->deadline);
				break;
			}
			if (!op->done) {
				op->status = running ? -ETIMEDOUT : -ESHUTDOWN;
				op->done = true;
			}
			lnet_peer_dc_op_end_locked(lp, op);
			if (op->unlinked) {
				lnet_peer_dc_op_free_locked(op);
				continue;
			}
			/* Its events free it once the MD is gone. */
			mdh = op->mdh;
			lnet_unlock();
			lnet_md_unlink(mdh);
			lnet_lock();
			continue;
		}
		switch (lnet_dc_next(lp->lp_state,
				     lnet_peer_needs_push_locked(lp), running)) {
		case LNET_DC_WAIT:
			break;
		case LNET_DC_MERGE:
			lnet_peer_dc_merge(lp);
			continue;
		case LNET_DC_PING:
			lnet_peer_dc_ping(lp);
			continue;
		case LNET_DC_PUSH:
			lnet_peer_dc_push(lp);
			continue;
		case LNET_DC_DONE:
			lnet_peer_dc_end_locked(lp, 0, &held);
			break;
		case LNET_DC_FAIL:
			rc = lp->lp_dc_error ? lp->lp_dc_error : -EIO;
			if (!running)
				rc = -ESHUTDOWN;
			lnet_peer_dc_end_locked(lp, rc, &held);
			break;
		}
		break;
	}
	lnet_peer_put_locked(lp);	/* the queued work's hold */
	lnet_unlock();
	lnet_dc_release(&held, rc);
}

/**
 * lnet_peer_dc_init() - a new peer's discovery fields
 * @lp: the peer
 */
void lnet_peer_dc_init(struct lnet_peer *lp)
{
	INIT_DELAYED_WORK(&lp->lp_dc_work, lnet_peer_dc_work);
	INIT_LIST_HEAD(&lp->lp_dc_held);
	lp->lp_dc_push_dst = LNET_ANY_NID;
	lp->lp_dc_push_src = LNET_ANY_NID;
}

/**
 * lnet_dc_push_arrived_locked() - a push landed in the push target
 * @ev: its PUT event
 * @data: a copy of the push, @ev->mlength bytes, ours to keep or free
 *
 * The sender's peer keeps it (one per peer at most: of it and one not
 * yet merged, the newer, lnet_dc_data_offer_locked()) and runs a
 * discovery to merge it.  A push from a NID on one of our nets that is
 * no peer's makes its peer; one from elsewhere that is no peer's, or
 * that is not a valid ping buffer with MULTI_RAIL, is dropped and
 * counted (its ACK went already, spec 7).
 */
void lnet_dc_push_arrived_locked(const struct lnet_event *ev, void *data)
{
	struct lnet_peer_ni *lpni = lnet_peer_ni_find_locked(&ev->source);
	struct lnet_ping_data pd;
	struct lnet_peer *lp;

	if (the_lnet.ln_state != LNET_STATE_RUNNING) {
		the_lnet.ln_dc_stats.pushes_unknown++;
		kfree(data);
		return;
	}
	/* Its header only (cheap): a bad push starts no discovery. */
	if (lnet_ping_buf_parse(data, ev->mlength, &pd, NULL, NULL, 0) ||
	    !(pd.features & LNET_PING_FEAT_MULTI_RAIL)) {
		the_lnet.ln_dc_stats.pushes_bad++;
		kfree(data);
		return;
	}
	/*
	 * A node whose NID changed (its address did, lnet/ni-addr.c) pushes
	 * from its new NID, which we do not know yet: as stock, which makes
	 * the peer NI of every source it receives from, its peer is made
	 * (the merge then takes its former NIDs, listed DOWN, from the peer
	 * they were of).  Only for a valid push from a NID on one of our
	 * nets, not ours, as the peers that our own sends make.
	 */
	if (!lpni &&
	    lnet_nid_net(&ev->source) != lnet_mknet(LNET_LND_LO, 0) &&
	    lnet_net_find_in(&the_lnet.ln_nets, lnet_nid_net(&ev->source)) &&
	    !lnet_nid_is_local_locked(&ev->source)) {
		lpni = lnet_peer_ni_get_locked(&ev->source, NULL);
		if (lpni)
			the_lnet.ln_dc_stats.pushes_new_peer++;
	}
	if (!lpni) {
		the_lnet.ln_dc_stats.pushes_unknown++;
		kfree(data);
		return;
	}
	lp = lnet_peer_of(lpni);
	if (lp->lp_dc_data && lp->lp_dc_data_pushed)
		the_lnet.ln_dc_stats.pushes_replaced++;
	if (!lnet_dc_data_offer_locked(lp, data, ev->mlength, pd.seq, true,
				       &ev->source, &ev->target.nid)) {
		kfree(data);	/* older than the one waiting */
		return;
	}
	lnet_peer_dc_queue_locked(lp);
}

/**
 * lnet_dc_push_update_locked() - our ping buffer changed: push it
 * @force: to every multi-rail peer, even one that has it (or with
 *	discovery off)
 *
 * Multi-rail peers whose copy is older get a push (spec 7, "also
 * pushed").
 */
void lnet_dc_push_update_locked(bool force)
{
	struct lnet_peer *lp;

	if (the_lnet.ln_state != LNET_STATE_RUNNING)
		return;
	list_for_each_entry(lp, &the_lnet.ln_peers, lp_list) {
		if (!(lp->lp_state & LNET_PEER_MULTI_RAIL))
			continue;
		if (force)
			lp->lp_state |= LNET_PEER_FORCE_PUSH;
		if (lnet_peer_needs_push_locked(lp))
			lnet_peer_dc_queue_locked(lp);
	}
}

/**
 * lnet_discovery_stop() - LNet stops: fail every held message
 *
 * Called once ln_state is STOPPING (no discovery starts any more), before
 * the NIs stop, which wait for every message to be freed.  Each running
 * discovery is queued to unlink its op; lnet_discovery_flush() waits for
 * them to end.
 */
void lnet_discovery_stop(void)
{
	struct lnet_peer *lp;
	LIST_HEAD(held);

	lnet_lock();
	list_for_each_entry(lp, &the_lnet.ln_peers, lp_list) {
		list_splice_tail_init(&lp->lp_dc_held, &held);
		lp->lp_dc_nheld = 0;
		if (lp->lp_state & LNET_PEER_DISCOVERING)
			lnet_peer_dc_kick_locked(lp);
	}
	lnet_unlock();
	lnet_dc_release(&held, -ESHUTDOWN);
}

static bool lnet_dc_any_running(void)
{
	struct lnet_peer *lp;
	bool any = false;

	lnet_lock();
	list_for_each_entry(lp, &the_lnet.ln_peers, lp_list)
		any |= !!(lp->lp_state & LNET_PEER_DISCOVERING);
	lnet_unlock();
	return any;
}

/**
 * lnet_discovery_flush() - wait until no discovery runs
 *
 * After lnet_discovery_stop() and once the NIs are stopped and every
 * response expired: each discovery's op then ends at once.
 */
void lnet_discovery_flush(void)
{
	do
		flush_workqueue(the_lnet.ln_dc_wq);
	while (lnet_dc_any_running());
}

/**
 * lnet_discovery_init() - module load
 *
 * Return: 0 or -ENOMEM.
 */
int lnet_discovery_init(void)
{
	init_waitqueue_head(&the_lnet.ln_dc_waitq);
	/* A send may wait for discovery under memory pressure: a rescuer. */
	the_lnet.ln_dc_wq = alloc_workqueue("lnet_discovery",
					    WQ_UNBOUND | WQ_MEM_RECLAIM, 0);
	return the_lnet.ln_dc_wq ? 0 : -ENOMEM;
}

/* Module unload, LNet down. */
void lnet_discovery_fini(void)
{
	destroy_workqueue(the_lnet.ln_dc_wq);
}

/* Is @lp's discovery over (or was @lp never under one)? */
static bool lnet_dc_ended(struct lnet_peer *lp)
{
	bool ended;

	lnet_lock();
	ended = !(lp->lp_state & LNET_PEER_DISCOVERING);
	lnet_unlock();
	return ended;
}

/**
 * lnet_discover() - discover a peer now: "lnetctl discover"
 * @dst: a NID of the peer
 * @force: ping and push even if it is up to date
 * @timeout_ms: how long to wait for the discovery to end; 0: as long as
 *	it may last (a ping and a push, transaction_timeout each)
 * @info: out: the peer afterwards: its primary NID, multi-rail, state
 *	(only those fields)
 * @nids: out: its NIDs afterwards
 * @max: room in @nids
 *
 * Context: Process context; sleeps.
 * Return: the number of NIDs the peer has (may exceed @max), or -errno:
 * the discovery's (-ETIMEDOUT, -EPROTO for a reply that does not
 * validate, ...), -EHOSTUNREACH if neither a local net nor a route
 * reaches @dst,
 * -ETIMEDOUT if it did not end in @timeout_ms (it goes on),
 * -ERESTARTSYS if interrupted.
 */
int lnet_discover(const struct lnet_nid *dst, bool force,
		  unsigned int timeout_ms, struct lnet_peer_ni_info *info,
		  struct lnet_nid *nids, unsigned int max)
{
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	struct lnet_peer *lp;
	bool waited = false;
	int rc, count = 0;
	long left;

	rc = lnet_ref_running();
	if (rc)
		return rc;
	lnet_lock();
	lp = lnet_nid_is_local_locked(dst) ? NULL : lnet_dc_peer_get_locked(dst);
	if (!lp) {
		lnet_unlock();
		rc = -EHOSTUNREACH;
		goto out;
	}
	lp->lp_refcount++;
	if (force)
		lp->lp_state |= LNET_PEER_FORCE_PING | LNET_PEER_FORCE_PUSH;
	if (!lnet_peer_uptodate_locked(lp)) {
		lnet_peer_dc_queue_locked(lp);
		waited = true;
	}
	lnet_unlock();

	if (!timeout_ms)
		timeout_ms = 2 * 1000 * lnet_transaction_timeout();
	if (waited) {
		left = wait_event_interruptible_timeout(the_lnet.ln_dc_waitq,
							lnet_dc_ended(lp),
							msecs_to_jiffies(timeout_ms));
		rc = left < 0 ? (int)left : left ? 0 : -ETIMEDOUT;
	}
	lnet_lock();
	if (!rc && waited)
		rc = lp->lp_dc_error;
	lnet_peer_put_locked(lp);
	lpni = rc ? NULL : lnet_peer_ni_find_locked(dst);
	if (!rc && !lpni)
		rc = -ENOENT;	/* deleted meanwhile */
	if (lpni) {
		lp = lnet_peer_of(lpni);
		info->primary_nid = lp->lp_primary_nid;
		info->peer_state = lp->lp_state;
		info->multi_rail = lp->lp_state & LNET_PEER_MULTI_RAIL;
		list_for_each_entry(lpn, &lp->lp_nets, lpn_list)
			list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list)
				if (count++ < max)
					nids[count - 1] = lpni->lpni_nid;
		rc = count;
	}
	lnet_unlock();
out:
	lnet_ni_fini();
	return rc;
}
EXPORT_SYMBOL(lnet_discover);
