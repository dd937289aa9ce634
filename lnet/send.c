// SPDX-License-Identifier: GPL-2.0
/*
 * The message engine: lnet_put()/lnet_get() and the internal sends (ACK,
 * REPLY) on the way out, lnet_parse() on the way in.
 *
 * Send: resolve the destination to a local NI and a peer NI, take the
 * credits (or queue), hand the message to the LND.  Nothing that can fail
 * happens after the MD is committed to the operation except in the LND,
 * whose failures come back through lnet_finalize() as the event's status;
 * so lnet_put()/lnet_get() either start the operation (and events follow)
 * or return an error (and none does).
 *
 * Receive: the header is decoded and checked by lnet/hdr.c; then it must
 * be addressed to us, matched (PUT, GET) or resolved by handle (ACK,
 * REPLY); every drop is counted by reason.  Exchanges follow wire spec
 * 2.6.
 */
#include <linux/delay.h>
#include <linux/export.h>
#include <linux/ktime.h>
#include <linux/slab.h>

#include <lnet/lib-lnet.h>

/**
 * lnet_drop_count_locked() - count a dropped received message
 * @ni: the NI it arrived on
 * @reason: enum lnet_hdr_drop_reason or enum lnet_drop_reason; a value of
 *	%LNET_DROP_COUNT or more counts no reason (the LND failed it)
 * @type: its type, if known
 * @len: its payload length
 */
void lnet_drop_count_locked(struct lnet_ni *ni, unsigned int reason,
			    enum lnet_msg_type type, unsigned int len)
{
	struct lnet_counters_common *c = &the_lnet.ln_counters;

	if (reason < LNET_DROP_COUNT)
		the_lnet.ln_drops[reason]++;
	c->drop_count++;
	c->drop_length += len;
	if (!ni)
		return;
	ni->ni_stats.drop_count++;
	ni->ni_stats.drop_length += len;
	if ((unsigned int)type < LNET_CTL_MSG_TYPES)
		ni->ni_stats.dropped[type]++;
}

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
	/* Not sent late (spec 3d): it waited for credits past its deadline. */
	if (unlikely(lnet_msg_late(msg))) {
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
static void lnet_msg_address(struct lnet_msg *msg, struct lnet_ni *ni,
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
 * next hop).  Any other message to a multi-rail peer is addressed to the
 * peer NI chosen.
 */
static int lnet_select_path_locked(struct lnet_msg *msg)
{
	const struct lnet_nid *dst = &msg->msg_target.nid;
	struct lnet_peer_ni *lpni;
	struct lnet_ni *ni;
	int rc;

	if (the_lnet.ln_state != LNET_STATE_RUNNING)
		return -ESHUTDOWN;
	if (lnet_nid_is_any(dst))
		return -EINVAL;
	rc = lnet_select_pathway_locked(dst, &msg->msg_self, &msg->msg_from,
					msg->msg_recovery, &ni, &lpni);
	if (rc)
		return rc;
	if (lpni) {
		lpni->lpni_refcount++;	/* lnet_msg_free() drops it */
		if (lnet_nid_is_any(&msg->msg_from))
			dst = &lpni->lpni_nid;
	}
	ni->ni_refcount++;
	msg->msg_txni = ni;
	msg->msg_txpeer = lpni;
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

/* Hand the LND a message to receive, or to discard if @msg is NULL. */
static void lnet_ni_recv(struct lnet_ni *ni, void *private,
			 struct lnet_msg *msg, unsigned int rlen)
{
	struct iov_iter it, *to = NULL;
	unsigned int mlen = 0;
	int rc;

	if (msg && msg->msg_md && msg->msg_type != LNET_MSG_ACK) {
		mlen = msg->msg_len;
		lnet_md_iter(msg->msg_md, ITER_DEST, msg->msg_offset, mlen,
			     &it);
		to = &it;
	}
	rc = ni->ni_net->net_lnd->lnd_recv(ni, private, msg, to, mlen, rlen);
	if (rc < 0 && msg)
		lnet_finalize(msg, rc);
}

/* Fill the event of a message that arrived. */
static void lnet_recv_event(struct lnet_msg *msg, enum lnet_event_kind type,
			    u32 portal, u64 mbits, u32 rlength)
{
	struct lnet_event *ev = &msg->msg_ev;

	ev->type = type;
	ev->initiator = msg->msg_initiator;
	ev->target.nid = msg->msg_hdr.dest_nid;
	ev->target.pid = msg->msg_hdr.dest_pid;
	ev->source = msg->msg_from;
	ev->pt_index = portal;
	ev->match_bits = mbits;
	ev->rlength = rlength;
	ev->mlength = msg->msg_len;
	ev->offset = msg->msg_offset;
}

static int lnet_parse_put(struct lnet_msg *msg)
{
	struct lnet_hdr_put *put = &msg->msg_hdr.msg.put;
	struct lnet_match_info info = {
		.mi_id = msg->msg_initiator,
		.mi_portal = put->ptl_index,
		.mi_mbits = put->match_bits,
		.mi_roffset = put->offset,
		.mi_rlength = msg->msg_hdr.payload_length,
		.mi_opc = LNET_MD_OP_PUT,
	};

	if (lnet_ptl_match_md_locked(&info, msg) != LNET_MATCHMD_OK)
		return LNET_DROP_NO_MATCH;
	lnet_recv_event(msg, LNET_EVENT_PUT, put->ptl_index, put->match_bits,
			info.mi_rlength);
	msg->msg_ev.hdr_data = put->hdr_data;
	msg->msg_ack = !lnet_wire_handle_is_none(&put->ack_wmd) &&
		       !(msg->msg_md->md_options & LNET_MD_ACK_DISABLE);
	return 0;
}

static int lnet_parse_get(struct lnet_msg *msg)
{
	struct lnet_hdr_get *get = &msg->msg_hdr.msg.get;
	struct lnet_match_info info = {
		.mi_id = msg->msg_initiator,
		.mi_portal = get->ptl_index,
		.mi_mbits = get->match_bits,
		.mi_roffset = get->src_offset,
		.mi_rlength = get->sink_length,
		.mi_opc = LNET_MD_OP_GET,
	};

	if (lnet_ptl_match_md_locked(&info, msg) != LNET_MATCHMD_OK)
		return LNET_DROP_NO_MATCH;
	lnet_recv_event(msg, LNET_EVENT_GET, get->ptl_index, get->match_bits,
			info.mi_rlength);
	msg->msg_reply = true;
	return 0;
}

/*
 * The response to a tracked operation of @md arrived: its clock stops,
 * and its start goes with @msg to be counted as a round trip.
 */
static void lnet_msg_rsp_started(struct lnet_msg *msg, struct lnet_libmd *md)
{
	if (!list_empty(&md->md_rsp_list))
		msg->msg_start_ns = md->md_rsp_start_ns;
	lnet_rsp_untrack_locked(md);
}

static int lnet_parse_reply(struct lnet_msg *msg)
{
	u32 rlength = msg->msg_hdr.payload_length;
	struct lnet_libmd *md;
	u32 mlength;

	md = lnet_md_lookup_locked(&msg->msg_hdr.msg.reply.dst_wmd);
	if (!md || lnet_md_exhausted(md) || md->md_me)
		return LNET_DROP_BAD_WMD;
	mlength = min(rlength, md->md_length);
	if (mlength < rlength && !(md->md_options & LNET_MD_TRUNCATE))
		return LNET_DROP_TOO_LONG;
	lnet_msg_rsp_started(msg, md);
	lnet_msg_attach_md(msg, md, 0, mlength);
	lnet_recv_event(msg, LNET_EVENT_REPLY, 0, 0, rlength);
	return 0;
}

static int lnet_parse_ack(struct lnet_msg *msg)
{
	struct lnet_hdr_ack *ack = &msg->msg_hdr.msg.ack;
	struct lnet_libmd *md;

	md = lnet_md_lookup_locked(&ack->dst_wmd);
	if (!md || lnet_md_exhausted(md) || md->md_me)
		return LNET_DROP_BAD_WMD;
	lnet_msg_rsp_started(msg, md);
	lnet_msg_attach_md(msg, md, 0, 0);
	lnet_recv_event(msg, LNET_EVENT_ACK, 0, ack->match_bits, ack->mlength);
	msg->msg_ev.mlength = ack->mlength;
	return 0;
}

/* Is a message that arrived on @ni addressed to this node? */
static bool lnet_for_me_locked(struct lnet_ni *ni, const struct lnet_nid *dst)
{
	/* Loopback carries messages to any local NID (local_nid_dist_zero). */
	if (ni == the_lnet.ln_loni)
		return lnet_nid_is_local_locked(dst);
	return lnet_nid_equal(dst, &ni->ni_nid);
}

/*
 * The GET was matched: count it and send its REPLY, whose completion
 * delivers the GET event.  A GET that arrived as an RDMA request (o2iblnd
 * GET_REQ) is answered by the LND writing straight into the initiator's
 * buffer: that REPLY goes through no path selection and no credits, the
 * LND gets it in lnd_recv() with the data to write.
 */
static void lnet_get_respond(struct lnet_ni *ni, void *private,
			     struct lnet_msg *msg, bool rdma_req)
{
	struct iov_iter it;
	int rc;

	lnet_lock();
	ni->ni_stats.recv_count++;
	ni->ni_stats.received[LNET_MSG_GET]++;
	the_lnet.ln_counters.recv_count++;
	if (rdma_req) {
		ni->ni_refcount++;
		msg->msg_txni = ni;
	}
	lnet_unlock();

	lnet_msg_to_response(msg);
	if (!rdma_req) {
		lnet_ni_recv(ni, private, NULL, 0);
		lnet_send_msg(msg);
		return;
	}
	lnet_msg_address(msg, ni, &msg->msg_target.nid);
	lnet_md_iter(msg->msg_md, ITER_SOURCE, msg->msg_offset, msg->msg_len,
		     &it);
	rc = ni->ni_net->net_lnd->lnd_recv(ni, private, msg, &it, msg->msg_len,
					   msg->msg_len);
	if (rc < 0)
		lnet_finalize(msg, rc);
}

/*
 * A source NID that is not the NID the message came from is a spoof when
 * it is on the same net: a peer sends directly from its own NID, only a
 * router forwards other nets' sources.
 */
static bool lnet_src_spoofed(const struct lnet_nid *src,
			     const struct lnet_nid *from)
{
	return !lnet_nid_equal(src, from) &&
	       lnet_nid_net(src) == lnet_nid_net(from);
}

/* Match @msg, the LNet lock held: 0, or why it is dropped (counted). */
static int lnet_parse_match_locked(struct lnet_msg *msg, bool drop)
{
	u32 type = msg->msg_hdr.type;
	int reason;

	if (drop || the_lnet.ln_state != LNET_STATE_RUNNING)
		reason = LNET_DROP_SHUTDOWN;
	else if (type == LNET_MSG_PUT)
		reason = lnet_parse_put(msg);
	else if (type == LNET_MSG_GET)
		reason = lnet_parse_get(msg);
	else if (type == LNET_MSG_REPLY)
		reason = lnet_parse_reply(msg);
	else
		reason = lnet_parse_ack(msg);
	if (reason)
		lnet_drop_count_locked(msg->msg_rxni, reason, type,
				       msg->msg_hdr.payload_length);
	return reason;
}

/* Hand a matched message to its LND's lnd_recv(), or drop it (@reason). */
static void lnet_parse_deliver(struct lnet_msg *msg, int reason,
			       bool rdma_req)
{
	struct lnet_ni *ni = msg->msg_rxni;
	void *private = msg->msg_private;

	if (reason) {
		lnet_ni_recv(ni, private, NULL, msg->msg_hdr.payload_length);
		lnet_msg_free(msg);
	} else if (msg->msg_reply) {
		lnet_get_respond(ni, private, msg, rdma_req);
	} else {
		lnet_ni_recv(ni, private, msg, msg->msg_hdr.payload_length);
	}
}

/**
 * lnet_parse_local() - match a received message a delay rule held
 * @msg: from lnet_parse(), its header checked, holding its NI
 * @rdma_req: it arrived as an RDMA request (lnet_parse_rdma())
 * @drop: discard it (its NI stops)
 *
 * The second half of lnet_parse() for a message a delay rule held
 * (lnet/fault.c), run when its time comes: the LND's lnd_recv() is
 * called with the message, or with NULL when it is dropped.
 *
 * Context: process context, no LNet lock held.
 */
void lnet_parse_local(struct lnet_msg *msg, bool rdma_req, bool drop)
{
	int reason;

	lnet_lock();
	reason = lnet_parse_match_locked(msg, drop);
	lnet_unlock();
	lnet_parse_deliver(msg, reason, rdma_req);
}

static int lnet_parse_common(struct lnet_ni *ni, const void *wire,
			     size_t size, const struct lnet_nid *from,
			     void *private, bool rdma_req)
{
	enum lnet_hdr_drop_reason why;
	struct lnet_msg *msg;
	struct lnet_hdr hdr;
	bool fault_drop;
	int reason = 0;
	int rc;

	if (size == LNET_HDR_NID16_SIZE)
		rc = lnet_hdr_from_nid16(&hdr, wire, &why);
	else
		rc = lnet_hdr_from_nid4(&hdr, wire, &why);
	if (rc) {
		lnet_lock();
		lnet_drop_count_locked(ni, why, LNET_CTL_MSG_TYPES, 0);
		lnet_unlock();
		return -EPROTO;
	}

	/* A fault injection drop rule (lnet/fault.c) may lose it. */
	fault_drop = lnet_fault_drop_rx(&hdr, &ni->ni_nid);
	msg = lnet_msg_alloc(GFP_ATOMIC | __GFP_NOWARN);
	lnet_lock();
	/* No routing yet: a message not for us is an error, as a spoof. */
	if (!lnet_for_me_locked(ni, &hdr.dest_nid))
		reason = LNET_DROP_NOT_FOR_ME;
	else if (lnet_src_spoofed(&hdr.src_nid, from))
		reason = LNET_DROP_BAD_SRC;
	if (reason) {
		lnet_drop_count_locked(ni, reason, hdr.type,
				       hdr.payload_length);
		lnet_unlock();
		if (msg)
			lnet_msg_free(msg);
		return -EPROTO;
	}
	if (hdr.dest_pid != LNET_PID_LUSTRE)
		reason = LNET_DROP_BAD_PID;
	else if (unlikely(fault_drop))
		reason = LNET_DROP_FAULT;
	else if (the_lnet.ln_state != LNET_STATE_RUNNING)
		reason = LNET_DROP_SHUTDOWN;
	else if (!msg)
		reason = LNET_DROP_NOMEM;
	if (reason) {
		lnet_drop_count_locked(ni, reason, hdr.type,
				       hdr.payload_length);
		lnet_unlock();
		lnet_ni_recv(ni, private, NULL, hdr.payload_length);
		if (msg)
			lnet_msg_free(msg);
		return 0;
	}
	msg->msg_hdr = hdr;
	msg->msg_type = hdr.type;
	msg->msg_rxni = ni;
	ni->ni_refcount++;
	msg->msg_private = private;
	msg->msg_from = *from;
	/*
	 * Matching and events see the peer's primary NID (spec 8); 0@lo
	 * carries only our own NIDs, which are no peer's.
	 */
	msg->msg_initiator.nid = ni == the_lnet.ln_loni ? hdr.src_nid :
		*lnet_peer_primary_nid_locked(&hdr.src_nid);
	msg->msg_initiator.pid = hdr.src_pid;
	msg->msg_rlength = hdr.payload_length;
	/*
	 * A fault injection delay rule may hold it, to be matched later
	 * (lnet_parse_local()); else it is matched now, in the same lock.
	 */
	if (unlikely(lnet_fault_delay_rx(msg, rdma_req))) {
		lnet_unlock();
		return 0;
	}
	reason = lnet_parse_match_locked(msg, false);
	lnet_unlock();
	lnet_parse_deliver(msg, reason, rdma_req);
	return 0;
}

/**
 * lnet_parse() - an LND received a message header
 * @ni: the NI it arrived on
 * @wire: the header as received: %LNET_HDR_NID4_SIZE or
 *	%LNET_HDR_NID16_SIZE bytes
 * @size: which of the two
 * @from: the NID of the peer NI it came from, as the LND knows it (the
 *	connection's): responses go back through it.  A header whose
 *	source is another NID of @from's net is a spoof, refused
 * @private: the LND's context, passed back to its lnd_recv()
 *
 * Checks the header, matches it and calls the LND's lnd_recv() with the
 * message to receive, or with a NULL message when it is dropped.  A drop
 * is counted by reason.  lnd_recv() is called before this returns, but
 * for a message a fault injection delay rule holds: then it is called
 * later, from another context, once the delay is over (or, with a NULL
 * message, when LNet stops or the NI goes).  Until then the LND keeps
 * @private and what it refers to (its buffer, its connection) alive.
 *
 * Context: Process context or softirq.
 * Return: 0 if LNet took the message (lnd_recv() was or will be called),
 * -EPROTO if the header is malformed or misaddressed: the LND must then
 * discard the payload and should close the connection.
 */
int lnet_parse(struct lnet_ni *ni, const void *wire, size_t size,
	       const struct lnet_nid *from, void *private)
{
	return lnet_parse_common(ni, wire, size, from, private, false);
}
EXPORT_SYMBOL(lnet_parse);

/**
 * lnet_parse_rdma() - an LND received the header of an RDMA request
 * @ni: the NI it arrived on
 * @wire: the header, as for lnet_parse()
 * @size: its size, as for lnet_parse()
 * @from: as for lnet_parse()
 * @private: the LND's context, passed back to its lnd_recv()
 *
 * As lnet_parse(), for a message whose payload the LND moves by RDMA
 * (o2iblnd PUT_REQ and GET_REQ, wire spec 5.8).  A GET that matches is
 * not answered with a REPLY message: lnd_recv() gets the REPLY itself
 * (msg_type %LNET_MSG_REPLY, msg_send set), with @to iterating the data
 * to write into the initiator's buffer and mlen == rlen its length.  The
 * LND writes it, tells the initiator, and calls lnet_finalize() on the
 * REPLY; if lnd_recv() returns an error instead, it has told the
 * initiator and LNet finalizes the REPLY with that error.  A GET that is
 * dropped reaches lnd_recv() with a NULL message, as in lnet_parse().
 *
 * Context: Process context or softirq.
 * Return: as lnet_parse().
 */
int lnet_parse_rdma(struct lnet_ni *ni, const void *wire, size_t size,
		    const struct lnet_nid *from, void *private)
{
	return lnet_parse_common(ni, wire, size, from, private, true);
}
EXPORT_SYMBOL(lnet_parse_rdma);

/**
 * lnet_create_reply_msg() - the REPLY of a GET the LND did by RDMA
 * @ni: the NI the GET was sent from
 * @getmsg: the GET, being sent (not finalized yet)
 *
 * For an LND whose GET request makes the target write the reply straight
 * into the GET's MD (o2iblnd GET_REQ): no REPLY header crosses the wire,
 * so the LND makes the REPLY here, when it sends the GET, sets its length
 * with lnet_set_reply_msg_len() when the target reports it, and finalizes
 * it like any received message (which delivers %LNET_EVENT_REPLY).  The
 * MD is no longer watched by the response tracker: the LND's own timeout
 * covers the exchange.
 *
 * Context: Any; takes the LNet lock.
 * Return: the REPLY, or NULL if there is no memory or the MD can take no
 * reply (the LND then fails the GET).
 */
struct lnet_msg *lnet_create_reply_msg(struct lnet_ni *ni,
				       struct lnet_msg *getmsg)
{
	struct lnet_msg *msg = lnet_msg_alloc(GFP_ATOMIC | __GFP_NOWARN);
	struct lnet_libmd *md;

	if (!msg)
		return NULL;
	lnet_lock();
	md = getmsg->msg_md;
	if (!md || lnet_md_exhausted(md)) {
		lnet_drop_count_locked(ni, LNET_DROP_BAD_WMD, LNET_MSG_REPLY, 0);
		lnet_unlock();
		lnet_msg_free(msg);
		return NULL;
	}
	ni->ni_refcount++;
	msg->msg_rxni = ni;
	msg->msg_type = LNET_MSG_REPLY;
	/* It comes from the peer NI the GET went to (for its counters). */
	if (getmsg->msg_txpeer)
		msg->msg_from = getmsg->msg_txpeer->lpni_nid;
	msg->msg_initiator = getmsg->msg_target;
	msg->msg_hdr.type = LNET_MSG_REPLY;
	msg->msg_hdr.src_nid = getmsg->msg_target.nid;
	msg->msg_hdr.src_pid = getmsg->msg_target.pid;
	msg->msg_hdr.dest_nid = getmsg->msg_hdr.src_nid;
	msg->msg_hdr.dest_pid = getmsg->msg_hdr.src_pid;
	lnet_msg_rsp_started(msg, md);
	lnet_msg_attach_md(msg, md, 0, 0);
	lnet_recv_event(msg, LNET_EVENT_REPLY, 0, 0, 0);
	lnet_unlock();
	return msg;
}
EXPORT_SYMBOL(lnet_create_reply_msg);

/**
 * lnet_set_reply_msg_len() - how much an RDMA GET's target wrote
 * @reply: from lnet_create_reply_msg()
 * @len: bytes written into the MD (at most its length)
 *
 * Context: Any, before @reply is finalized.
 */
void lnet_set_reply_msg_len(struct lnet_msg *reply, unsigned int len)
{
	lnet_lock();
	if (reply->msg_md)
		len = min(len, reply->msg_md->md_length);
	reply->msg_len = len;
	reply->msg_rlength = len;
	reply->msg_hdr.payload_length = len;
	reply->msg_ev.mlength = len;
	reply->msg_ev.rlength = len;
	lnet_unlock();
}
EXPORT_SYMBOL(lnet_set_reply_msg_len);
