// SPDX-License-Identifier: GPL-2.0
/*
 * The receive path: lnet_parse() (and lnet_parse_rdma()) from the LND,
 * down to the LND's lnd_recv().  The send path is send.c.
 *
 * The header is decoded and checked by hdr.c; then a message addressed
 * to another node is forwarded (router.c) or refused, one to us is
 * matched on its portal (PUT, GET: portal.c) or resolved by handle
 * (ACK, REPLY: md.c); every drop is counted by reason.  A matched GET is
 * answered here with its REPLY (sent by send.c); a delivered PUT's ACK is
 * made at finalization (finalize.c).  Exchanges follow wire spec 2.6.
 */
#include <linux/export.h>
#include <linux/minmax.h>

#include <lnet/lib-lnet.h>
#include <lnet/route.h>
#include <lnet/router.h>
#include <lnet/trace.h>

static const char * const lnet_drop_names[] = {
	[LNET_DROP_NOT_FOR_ME - LNET_HDR_DROP_COUNT]	= "not_for_me",
	[LNET_DROP_BAD_PID - LNET_HDR_DROP_COUNT]	= "bad_pid",
	[LNET_DROP_NO_MATCH - LNET_HDR_DROP_COUNT]	= "no_match",
	[LNET_DROP_BAD_WMD - LNET_HDR_DROP_COUNT]	= "bad_wmd",
	[LNET_DROP_TOO_LONG - LNET_HDR_DROP_COUNT]	= "too_long",
	[LNET_DROP_SHUTDOWN - LNET_HDR_DROP_COUNT]	= "shutdown",
	[LNET_DROP_NOMEM - LNET_HDR_DROP_COUNT]		= "nomem",
	[LNET_DROP_BAD_SRC - LNET_HDR_DROP_COUNT]	= "bad_src",
	[LNET_DROP_FAULT - LNET_HDR_DROP_COUNT]		= "fault",
	[LNET_DROP_NO_ROUTING - LNET_HDR_DROP_COUNT]	= "no_routing",
	[LNET_DROP_ROUTED_LOCAL - LNET_HDR_DROP_COUNT]	= "routed_local",
	[LNET_DROP_ROUTED_GET_REQ - LNET_HDR_DROP_COUNT] = "routed_get_req",
	[LNET_DROP_NO_ROUTE - LNET_HDR_DROP_COUNT]	= "no_route",
	[LNET_DROP_PEER_DOWN - LNET_HDR_DROP_COUNT]	= "peer_down",
	[LNET_DROP_ASYM_ROUTE - LNET_HDR_DROP_COUNT]	= "asym_route",
};

static_assert(ARRAY_SIZE(lnet_drop_names) ==
	      LNET_DROP_COUNT - LNET_HDR_DROP_COUNT);

/**
 * lnet_drop_reason_str() - name of a drop reason, as debugfs "drops" has it
 * @reason: enum lnet_hdr_drop_reason or enum lnet_drop_reason
 *
 * Return: the name; "lnd" for %LNET_DROP_COUNT or more (the LND failed it).
 */
const char *lnet_drop_reason_str(unsigned int reason)
{
	if (reason < LNET_HDR_DROP_COUNT)
		return lnet_hdr_drop_reason_str(reason);
	if (reason < LNET_DROP_COUNT)
		return lnet_drop_names[reason - LNET_HDR_DROP_COUNT];
	return "lnd";
}

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

	/* the name is looked up only while someone traces drops */
	if (trace_lnet_drop_enabled())
		trace_lnet_drop(ni, lnet_drop_reason_str(reason), type, len);
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
	/*
	 * Its sender, as stock (hdr->src_nid): the NID it came from but for
	 * a routed message, whose previous hop is a gateway (msg_from).
	 */
	ev->source = msg->msg_hdr.src_nid;
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

/*
 * For us, routed (its source's net is not its previous hop's; 0@lo
 * carries only our own messages), by a gateway that none of our routes
 * back to the source's net goes through, while drop_asym_route is on:
 * dropped silently (routing spec 7; every type, pings too).  Messages we
 * forward are not checked.
 */
static bool lnet_routed_asym_locked(const struct lnet_ni *ni,
				    const struct lnet_hdr *hdr,
				    const struct lnet_nid *from)
{
	u32 src_net = lnet_nid_net(&hdr->src_nid);

	return lnet_drop_asym_route() && ni != the_lnet.ln_loni &&
	       src_net != lnet_nid_net(from) &&
	       lnet_route_asym_locked(from, src_net);
}

/* Why a well-formed message we may take is dropped silently, or 0. */
static unsigned int lnet_parse_drop_reason(const struct lnet_hdr *hdr,
					   bool fault_drop,
					   const struct lnet_msg *msg)
{
	if (hdr->dest_pid != LNET_PID_LUSTRE)
		return LNET_DROP_BAD_PID;
	if (unlikely(fault_drop))
		return LNET_DROP_FAULT;
	if (the_lnet.ln_state != LNET_STATE_RUNNING)
		return LNET_DROP_SHUTDOWN;
	if (!msg)
		return LNET_DROP_NOMEM;
	return 0;
}

static int lnet_parse_common(struct lnet_ni *ni, const void *wire,
			     size_t size, const struct lnet_nid *from,
			     void *private, bool rdma_req)
{
	enum lnet_hdr_drop_reason why;
	bool eproto = true, fwd;
	struct lnet_msg *msg;
	struct lnet_hdr hdr;
	bool fault_drop;
	unsigned int reason = 0;
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
	trace_lnet_recv(ni, &hdr, from);

	/* A fault injection drop rule (lnet/fault.c) may lose it. */
	fault_drop = lnet_fault_drop_rx(&hdr, &ni->ni_nid);
	msg = lnet_msg_alloc(GFP_ATOMIC | __GFP_NOWARN);
	lnet_lock();
	/*
	 * Not for us: forwarded, dropped if routing is disabled, or an
	 * error (routing spec 4.1), as a spoof is.
	 */
	fwd = !lnet_for_me_locked(ni, &hdr.dest_nid);
	if (fwd)
		reason = lnet_fwd_check_locked(ni, &hdr, rdma_req, &eproto);
	if (!reason && lnet_src_spoofed(&hdr.src_nid, from)) {
		reason = LNET_DROP_BAD_SRC;
		eproto = true;
	}
	if (!fwd && !reason && lnet_routed_asym_locked(ni, &hdr, from))
		reason = LNET_DROP_ASYM_ROUTE;
	if (reason && eproto) {
		lnet_drop_count_locked(ni, reason, hdr.type,
				       hdr.payload_length);
		lnet_unlock();
		if (msg)
			lnet_msg_free(msg);
		return -EPROTO;
	}
	if (!reason)	/* else not forwarded: routing is disabled */
		reason = lnet_parse_drop_reason(&hdr, fault_drop, msg);
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
	/* Routed to us (or through us) by a gateway marked dead: alive. */
	if (lnet_nid_net(&hdr.src_nid) != lnet_nid_net(from))
		lnet_rtrcheck_routed_from_locked(from,
						 lnet_nid_net(&hdr.src_nid));
	/*
	 * Matching and events see the peer's primary NID (spec 8); 0@lo
	 * carries only our own NIDs, which are no peer's.
	 */
	msg->msg_initiator.nid = ni == the_lnet.ln_loni ? hdr.src_nid :
		*lnet_peer_primary_nid_locked(&hdr.src_nid);
	msg->msg_initiator.pid = hdr.src_pid;
	msg->msg_rlength = hdr.payload_length;
	if (fwd) {
		lnet_unlock();
		lnet_fwd_start(msg);	/* marks msg_from UP too (spec 4.7) */
		return 0;
	}
	lnet_peer_ni_heard_locked(from);
	/* A ping from another node: its net is pinged (routing spec 6.7). */
	if (hdr.type == LNET_MSG_GET &&
	    hdr.msg.get.ptl_index == LNET_RESERVED_PORTAL &&
	    ni != the_lnet.ln_loni && !lnet_nid_is_local_locked(&hdr.src_nid))
		lnet_rtr_ni_pinged_locked(ni);
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
