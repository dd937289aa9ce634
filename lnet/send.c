// SPDX-License-Identifier: GPL-2.0
/*
 * The send path: lnet_put()/lnet_get() and the internal sends (ACK,
 * REPLY), down to the LND's lnd_send().  The receive path is recv.c.
 *
 * Resolve the destination to a local NI and a peer NI (select.c), take
 * the credits (credits.c, or queue), hand the message to the LND.
 * Nothing that can fail happens after the MD is committed to the
 * operation except in the LND, whose failures come back through
 * lnet_finalize() (finalize.c) as the event's status; so
 * lnet_put()/lnet_get() either start the operation (and events follow)
 * or return an error (and none does).  Exchanges follow wire spec 2.6.
 */
#include <linux/delay.h>
#include <linux/export.h>
#include <linux/ktime.h>
#include <linux/slab.h>

#include <lnet/lib-lnet.h>
#include <lnet/router.h>
#include <lnet/trace.h>

/**
 * lnet_ni_send() - hand a message that holds its credits to its LND
 * @msg: the message
 *
 * A message the LND refuses at once is finalized with its error.
 */
void lnet_ni_send(struct lnet_msg *msg)
{
	int rc = lnet_ni_send_rc(msg);

	if (rc < 0)
		lnet_finalize(msg, rc);
}

/*
 * The one way into an LND's lnd_send().  The sender enters the NI's
 * ni_senders, so that an NI being stopped refuses it (-ESHUTDOWN) or
 * waits for it to leave before the LND shuts down (lnet_ni_stop()).
 * @may_sleep: the caller is in process context and holds no lock (the
 * test hook may then hold it).
 */
static int lnet_ni_send_gated(struct lnet_msg *msg, bool may_sleep,
			      bool may_delay)
{
	struct lnet_ni *ni = msg->msg_txni;
	unsigned int hold;
	int rc;

	if (!percpu_ref_tryget_live(&ni->ni_senders))
		return -ESHUTDOWN;
	/*
	 * Not sent late (spec 3d): it waited for credits past its deadline.
	 * A router sends late (routing spec 8, sanity-lnet test 256).
	 */
	if (unlikely(lnet_msg_late(msg) && !msg->msg_routing)) {
		percpu_ref_put(&ni->ni_senders);
		msg->msg_health_status = LNET_MSG_STATUS_NETWORK_TIMEOUT;
		return -ETIMEDOUT;
	}
	/* A fault injection delay rule may hold it (lnet/fault.c). */
	if (may_delay && unlikely(lnet_fault_delay_tx(msg))) {
		percpu_ref_put(&ni->ni_senders);
		return 0;
	}
	if (may_sleep && unlikely(READ_ONCE(lnet_test_hold_send_ms))) {
		hold = xchg(&lnet_test_hold_send_ms, 0);
		msleep(hold);
	}
	trace_lnet_send(msg);
	rc = ni->ni_net->net_lnd->lnd_send(ni, NULL, msg);
	percpu_ref_put(&ni->ni_senders);
	return rc < 0 ? rc : 0;
}

/**
 * lnet_ni_send_rc() - hand a message that holds its credits to its LND
 * @msg: the message
 *
 * Return: 0, or -errno (the LND's, or -ESHUTDOWN when the NI stops): the
 * caller must finalize @msg with it.
 */
int lnet_ni_send_rc(struct lnet_msg *msg)
{
	return lnet_ni_send_gated(msg, false, true);
}

/**
 * lnet_ni_send_delayed() - send a message a delay rule held
 * @msg: the message, holding its credits
 *
 * Context: process context, no lock held.
 * Return: as lnet_ni_send_rc().
 */
int lnet_ni_send_delayed(struct lnet_msg *msg)
{
	return lnet_ni_send_gated(msg, true, false);
}

/* Address @msg's header: to @dst, from msg_self or else @ni. */
void lnet_msg_address(struct lnet_msg *msg, struct lnet_ni *ni,
		      const struct lnet_nid *dst)
{
	struct lnet_hdr *hdr = &msg->msg_hdr;

	hdr->dest_nid = *dst;
	hdr->dest_pid = msg->msg_target.pid;
	if (!lnet_nid_is_any(&msg->msg_self))
		hdr->src_nid = msg->msg_self;
	else
		hdr->src_nid = ni->ni_nid;
	hdr->src_pid = LNET_PID_LUSTRE;
	hdr->payload_length = msg->msg_len;
}

/*
 * Choose the NI and peer NI for @msg (select.c) and complete its header.
 * A response goes to the NID its request came from (msg_from), addressed
 * to the request's source: the same NID but for a message a router
 * forwarded (wire spec 2.6, Lustre's lnet_send() with msg_from as the
 * next hop; routing spec 3.4).  Any other message to a multi-rail peer
 * is addressed to the peer NI chosen.  A message to a remote net goes to
 * a gateway, addressed to its final destination (for a multi-rail one,
 * maybe another of its NIDs, routing spec 3.1 rule 3), from our NI on the
 * gateway's net (routing spec 3.3); it fails at once if no route fits,
 * REMOTE_ERROR and not sent again (routing spec 3.2 step 6, 8).
 */
static int lnet_select_path_locked(struct lnet_msg *msg)
{
	const struct lnet_nid *dst = &msg->msg_target.nid;
	struct lnet_peer_ni *lpni;
	struct lnet_nid final;
	struct lnet_ni *ni;
	bool routed;
	int rc;

	if (the_lnet.ln_state != LNET_STATE_RUNNING)
		return -ESHUTDOWN;
	if (lnet_nid_is_any(dst))
		return -EINVAL;
	rc = lnet_select_pathway_locked(dst, &msg->msg_self, &msg->msg_from,
					msg->msg_recovery, &ni, &lpni,
					&final);
	if (rc == -EHOSTUNREACH) {
		msg->msg_health_status = LNET_MSG_STATUS_REMOTE_ERROR;
		msg->msg_no_resend = true;
	}
	if (rc)
		return rc;
	routed = !lnet_nid_is_any(&final);
	if (routed)
		dst = &final;
	if (lpni) {
		lpni->lpni_refcount++;	/* lnet_msg_free() drops it */
		if (lnet_nid_is_any(&msg->msg_from) && !routed)
			dst = &lpni->lpni_nid;
	}
	ni->ni_refcount++;
	msg->msg_txni = ni;
	msg->msg_txpeer = lpni;
	msg->msg_target_is_router = routed;
	lnet_msg_address(msg, ni, dst);
	return 0;
}

/**
 * lnet_send_msg() - send an internal message (ACK or REPLY)
 * @msg: the message, header filled but for NIDs, PIDs and length
 *
 * Failures finalize @msg with the error.
 */
void lnet_send_msg(struct lnet_msg *msg)
{
	bool go = false;
	int rc;

	lnet_lock();
	rc = lnet_select_path_locked(msg);
	if (!rc)
		go = lnet_msg_credits_acquire(msg);
	lnet_unlock();
	if (rc)
		lnet_finalize(msg, rc);
	else if (go)
		lnet_ni_send(msg);
}

/*
 * The last steps of starting a PUT or GET whose path is chosen and MD
 * attached: its response clock starts (LNet's own pings and pushes are
 * always timed, whatever response_tracking says), its credits are taken.
 * Return: true if it holds them all: hand it to the LND.
 */
static bool lnet_msg_launch_locked(struct lnet_msg *msg)
{
	struct lnet_libmd *md = msg->msg_md;
	bool is_put = msg->msg_type == LNET_MSG_PUT;

	if (is_put)	/* for its egress latency sample */
		msg->msg_start_ns = ktime_get_ns();
	msg->msg_deadline = lnet_msg_deadline(msg->msg_txni);
	/*
	 * An MD this operation used up is unlinked already: it can take no
	 * response, and tracking it would leave it on the list once freed.
	 */
	if (!md->md_zombie &&
	    (!is_put ||
	     !lnet_wire_handle_is_none(&msg->msg_hdr.msg.put.ack_wmd)))
		lnet_rsp_track_locked(md, msg, is_put,
				      msg->msg_ev.pt_index ==
				      LNET_RESERVED_PORTAL);
	msg->msg_ev.initiator.nid = msg->msg_hdr.src_nid;
	return lnet_msg_credits_acquire(msg);
}

/**
 * lnet_msg_resume() - send a PUT or GET held for its peer's discovery
 * @msg: the message (lnet/discovery.c held it)
 *
 * Its path is chosen now, by the peer table as discovery left it.  A
 * failure finalizes @msg with the error.
 *
 * Context: Process context.
 */
void lnet_msg_resume(struct lnet_msg *msg)
{
	bool go = false;
	int rc;

	lnet_lock();
	rc = lnet_select_path_locked(msg);
	if (!rc)
		go = lnet_msg_launch_locked(msg);
	lnet_unlock();
	if (!rc && go)
		rc = lnet_ni_send_gated(msg, true, true);
	if (rc)
		lnet_finalize(msg, rc);
}

/**
 * lnet_msg_resend() - send a PUT or GET again, by the path chosen now
 * @msg: the message, decommitted (lnet/resend.c)
 *
 * As lnet_msg_resume(), but its deadline and response clock run on from
 * its first try.  A failure finalizes @msg with the error.
 *
 * Context: Process context.
 */
void lnet_msg_resend(struct lnet_msg *msg)
{
	bool go = false;
	int rc;

	if (msg->msg_routing) {		/* a router's onward send */
		lnet_fwd_resume(msg);
		return;
	}
	lnet_lock();
	/* Late, or its MD given up on by the response tracker meanwhile. */
	if (lnet_msg_late(msg) || (msg->msg_md && msg->msg_md->md_aborted))
		rc = -ETIMEDOUT;
	else
		rc = lnet_select_path_locked(msg);
	if (!rc) {
		msg->msg_ev.initiator.nid = msg->msg_hdr.src_nid;
		if (msg->msg_txpeer && msg->msg_md &&
		    !list_empty(&msg->msg_md->md_rsp_list))
			msg->msg_md->md_rsp_nid = msg->msg_txpeer->lpni_nid;
		go = lnet_msg_credits_acquire(msg);
	}
	lnet_unlock();
	if (!rc && go)
		rc = lnet_ni_send_gated(msg, true, true);
	if (rc)
		lnet_finalize(msg, rc);
}

/*
 * Common part of lnet_put() and lnet_get().  A message to a peer that is
 * not discovered yet is held on it, its MD attached, and sent when the
 * discovery ends (lnet_msg_resume()); any other is sent now.
 */
static int lnet_start_op(struct lnet_msg *msg, struct lnet_handle_md mdh,
			 const struct lnet_nid *self,
			 const struct lnet_processid *target,
			 unsigned int portal, u64 match_bits,
			 unsigned int offset, bool is_put)
{
	struct lnet_handle_wire wh;
	struct lnet_libmd *md;
	struct lnet_peer *lp;
	bool go;
	int rc;

	msg->msg_send = true;
	msg->msg_target = *target;
	if (self)
		msg->msg_self = *self;

	lnet_lock();
	wh.wh_interface_cookie = the_lnet.ln_interface_cookie;
	wh.wh_object_cookie = mdh.cookie;
	md = lnet_md_lookup_locked(&wh);
	if (!md || lnet_md_exhausted(md) || md->md_me) {
		lnet_unlock();
		return -ENOENT;
	}
	/* A PUT sends the whole MD; a GET's reply may fill all of it. */
	msg->msg_len = is_put ? md->md_length : 0;
	lp = lnet_dc_hold_locked(msg, portal);
	rc = IS_ERR(lp) ? PTR_ERR(lp) : lp ? 0 : lnet_select_path_locked(msg);
	if (rc) {
		lnet_unlock();
		return rc;
	}
	lnet_msg_attach_md(msg, md, 0, msg->msg_len);
	wh.wh_object_cookie = md->md_handle;
	if (is_put) {
		msg->msg_hdr.msg.put.match_bits = match_bits;
		msg->msg_hdr.msg.put.ptl_index = portal;
		msg->msg_hdr.msg.put.offset = offset;
	} else {
		msg->msg_hdr.msg.get.return_wmd = wh;
		msg->msg_hdr.msg.get.match_bits = match_bits;
		msg->msg_hdr.msg.get.ptl_index = portal;
		msg->msg_hdr.msg.get.src_offset = offset;
		msg->msg_hdr.msg.get.sink_length = md->md_length;
	}
	msg->msg_ev.type = LNET_EVENT_SEND;
	msg->msg_ev.initiator.pid = LNET_PID_LUSTRE;
	msg->msg_ev.target = *target;
	msg->msg_ev.pt_index = portal;
	msg->msg_ev.match_bits = match_bits;
	msg->msg_ev.rlength = md->md_length;
	msg->msg_ev.mlength = msg->msg_len;
	msg->msg_ev.offset = offset;
	if (lp) {
		lnet_dc_hold_msg_locked(lp, msg);
		lnet_unlock();
		return 0;
	}
	go = lnet_msg_launch_locked(msg);
	lnet_unlock();
	if (go) {
		rc = lnet_ni_send_gated(msg, true, true);
		if (rc)
			lnet_finalize(msg, rc);
	}
	return 0;
}

/**
 * lnet_put() - send the contents of a bound MD to a portal of a peer
 * @self: local NID to send from, or NULL to let LNet choose
 * @mdh: a bound MD (lnet_md_bind()); all of it is sent
 * @ack: %LNET_ACK_REQ to ask the target for an ACK
 * @target: the peer
 * @portal: its portal
 * @match_bits: matched against its MEs
 * @offset: the offset asked for in the target's MD (MANAGE_REMOTE MDs)
 * @hdr_data: 64 bits delivered with the PUT event
 *
 * The MD gets %LNET_EVENT_SEND when the data has left, and
 * %LNET_EVENT_ACK when the ACK arrives; give it a threshold of 2 for both.
 *
 * Context: Process context.
 * Return: 0 if started (events follow); -ENETDOWN if LNet is down;
 * -EINVAL for a bad argument; -ENOENT for an MD that is unknown,
 * attached to an ME or used up; -EHOSTUNREACH if no NI reaches @target;
 * -EAGAIN if too many messages wait for @target's discovery already;
 * -ENOMEM.  No event follows an error.  A message on a portal other than
 * 0 to a peer not yet discovered waits for its discovery first (wire
 * spec 7; lnet/discovery.c), then fails with the discovery's error if it
 * failed.
 */
int lnet_put(const struct lnet_nid *self, struct lnet_handle_md mdh,
	     enum lnet_ack_req ack, const struct lnet_processid *target,
	     unsigned int portal, u64 match_bits, unsigned int offset,
	     u64 hdr_data)
{
	struct lnet_msg *msg;
	int rc;

	if (!lnet_is_configured())
		return -ENETDOWN;
	if (portal >= LNET_MAX_PORTALS || !target)
		return -EINVAL;
	msg = lnet_msg_alloc(GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	msg->msg_type = LNET_MSG_PUT;
	msg->msg_hdr.type = LNET_MSG_PUT;
	msg->msg_hdr.msg.put.hdr_data = hdr_data;
	msg->msg_ev.hdr_data = hdr_data;
	if (ack == LNET_ACK_REQ) {
		msg->msg_hdr.msg.put.ack_wmd.wh_interface_cookie =
			the_lnet.ln_interface_cookie;
		msg->msg_hdr.msg.put.ack_wmd.wh_object_cookie = mdh.cookie;
	} else {
		msg->msg_hdr.msg.put.ack_wmd = LNET_WIRE_HANDLE_NONE;
	}
	rc = lnet_start_op(msg, mdh, self, target, portal, match_bits, offset,
			   true);
	if (rc)
		lnet_msg_free(msg);
	return rc;
}
EXPORT_SYMBOL(lnet_put);

static int lnet_get_common(const struct lnet_nid *self,
			   struct lnet_handle_md mdh,
			   const struct lnet_processid *target,
			   unsigned int portal, u64 match_bits,
			   unsigned int offset, bool recovery)
{
	struct lnet_msg *msg;
	int rc;

	if (!lnet_is_configured())
		return -ENETDOWN;
	if (portal >= LNET_MAX_PORTALS || !target)
		return -EINVAL;
	msg = lnet_msg_alloc(GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	msg->msg_type = LNET_MSG_GET;
	msg->msg_hdr.type = LNET_MSG_GET;
	msg->msg_recovery = recovery;
	msg->msg_no_resend = recovery;
	rc = lnet_start_op(msg, mdh, self, target, portal, match_bits, offset,
			   false);
	if (rc)
		lnet_msg_free(msg);
	return rc;
}

/**
 * lnet_get() - fetch data from a portal of a peer into a bound MD
 * @self: local NID to send from, or NULL to let LNet choose
 * @mdh: a bound MD; its length is the most the reply may carry
 * @target: the peer
 * @portal: its portal
 * @match_bits: matched against its MEs
 * @offset: the offset asked for in the target's MD (MANAGE_REMOTE MDs)
 *
 * The MD gets %LNET_EVENT_SEND when the request has left and
 * %LNET_EVENT_REPLY when the data arrived; give it a threshold of 2.
 *
 * Context: Process context.
 * Return: as lnet_put().
 */
int lnet_get(const struct lnet_nid *self, struct lnet_handle_md mdh,
	     const struct lnet_processid *target, unsigned int portal,
	     u64 match_bits, unsigned int offset)
{
	return lnet_get_common(self, mdh, target, portal, match_bits, offset,
			       false);
}
EXPORT_SYMBOL(lnet_get);

/**
 * lnet_get_recovery() - a recovery ping of the health module
 * @self: the local NID to send from
 * @mdh: a bound MD, the reply's sink
 * @target: the exact NID to ping (no multi-rail choice: @self is given)
 *
 * A GET of the target's ping buffer (portal 0, the ping match bits)
 * marked as a recovery ping: never resent, and its failure moves no
 * health value (spec features 3b, 3c).
 *
 * Context: Process context.
 * Return: as lnet_get().
 */
int lnet_get_recovery(const struct lnet_nid *self, struct lnet_handle_md mdh,
		      const struct lnet_processid *target)
{
	return lnet_get_common(self, mdh, target, LNET_RESERVED_PORTAL,
			       LNET_PROTO_PING_MATCHBITS, 0, true);
}
EXPORT_SYMBOL_GPL(lnet_get_recovery);
