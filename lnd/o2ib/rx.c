// SPDX-License-Identifier: GPL-2.0
/*
 * Receiving (wire spec 5.8-5.10): a receive completion is checked by
 * wire.c, then against the connection (NIDs, stamps), its credits are
 * taken, and it is dispatched.  LNet messages go to lnet_parse() (or
 * lnet_parse_rdma() for PUT_REQ and GET_REQ), which calls kib_recv()
 * before returning; kib_recv() copies an IMMEDIATE payload, answers a
 * PUT_REQ with PUT_ACK or PUT_NAK, answers a GET_REQ with RDMA WRITEs
 * and GET_DONE, and reposts the buffer with the credit the spec says.
 *
 * Completions run on ib_comp_wq (process context).  Every protocol
 * error bumps a named counter and closes the connection.
 */
#include <linux/slab.h>
#include <linux/uio.h>

#include "o2iblnd.h"

enum kib_post_credit {
	KIB_POST_NO_CREDIT,	/* NOOP, PUT_REQ answered with PUT_ACK */
	KIB_POST_PEER_CREDIT,	/* the peer may send one more */
	KIB_POST_RSRVD_CREDIT,	/* a response: we may request again */
};

/**
 * kib_post_rx() - post a receive buffer
 * @rx: the buffer
 *
 * Return: 0 or ib_post_recv()'s error.
 */
int kib_post_rx(struct kib_rx *rx)
{
	struct kib_conn *conn = rx->rx_conn;
	struct kib_net *net = conn->ibc_net;
	struct ib_recv_wr wr = {};
	struct ib_sge sge;

	sge.addr = rx->rx_dma;
	sge.length = IBLND_MSG_SIZE;
	sge.lkey = net->kn_pd->local_dma_lkey;
	wr.wr_cqe = &rx->rx_cqe;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	ib_dma_sync_single_for_device(net->kn_dev, rx->rx_dma, IBLND_MSG_SIZE,
				      DMA_FROM_DEVICE);
	return ib_post_recv(conn->ibc_cmid->qp, &wr, NULL);
}

/*
 * Post a buffer kib_recv() got after LNet held it: outside the completion
 * handler, which teardown's ib_drain_qp() waits for, so under kn_lock,
 * which a connection's closing takes before its QP can go.
 * Return: as kib_post_rx(), 1 if the connection closed meanwhile.
 */
static int kib_post_rx_held(struct kib_rx *rx)
{
	struct kib_conn *conn = rx->rx_conn;
	struct kib_net *net = conn->ibc_net;
	int rc = 1;

	spin_lock_bh(&net->kn_lock);
	if (conn->ibc_state < KIB_CONN_CLOSING)
		rc = kib_post_rx(rx);
	spin_unlock_bh(&net->kn_lock);
	return rc;
}

/* Repost @rx once done with it, and account the credit it returns. */
static void kib_repost_rx(struct kib_rx *rx, enum kib_post_credit credit)
{
	struct kib_conn *conn = rx->rx_conn;
	struct kib_net *net = conn->ibc_net;
	int rc;

	if (READ_ONCE(conn->ibc_state) >= KIB_CONN_CLOSING)
		return;
	rc = unlikely(rx->rx_held) ? kib_post_rx_held(rx) : kib_post_rx(rx);
	if (rc > 0)
		return;
	if (rc) {
		kib_conn_close(conn, rc);
		return;
	}
	if (credit == KIB_POST_NO_CREDIT)
		return;
	spin_lock_bh(&net->kn_lock);
	if (credit == KIB_POST_PEER_CREDIT)
		conn->ibc_outstanding++;
	else
		conn->ibc_reserved++;
	spin_unlock_bh(&net->kn_lock);
	kib_check_sends(conn);
}

static void kib_rx_protocol_error(struct kib_rx *rx, enum kib_stat stat,
				  int error)
{
	kib_stat_inc(stat);
	kib_conn_close(rx->rx_conn, error);
}

/*
 * A response to our transaction @cookie of @txtype: the tx is no longer
 * waiting; done if not posted or queued either.  NULL for an unknown
 * cookie, which is a protocol error.
 */
static struct kib_tx *kib_find_waiting_tx_locked(struct kib_conn *conn,
						 u8 txtype, u64 cookie)
{
	struct kib_tx *tx;

	list_for_each_entry(tx, &conn->ibc_active_txs, tx_list)
		if (tx->tx_waiting && tx->tx_type == txtype &&
		    tx->tx_cookie == cookie)
			return tx;
	return NULL;
}

static void kib_handle_completion(struct kib_rx *rx, u8 txtype)
{
	struct kib_conn *conn = rx->rx_conn;
	struct kib_net *net = conn->ibc_net;
	const struct kib_completion_msg *cm = &rx->rx_msg->ibm_u.completion;
	struct kib_tx *tx;
	bool idle;

	spin_lock_bh(&net->kn_lock);
	tx = kib_find_waiting_tx_locked(conn, txtype, cm->ibcm_cookie);
	if (!tx) {
		spin_unlock_bh(&net->kn_lock);
		kib_rx_protocol_error(rx, KIB_STAT_UNKNOWN_COOKIE, -EPROTO);
		return;
	}
	if (!tx->tx_status) {
		if (cm->ibcm_status < 0) {
			tx->tx_status = cm->ibcm_status;
			tx->tx_hstatus = LNET_MSG_STATUS_REMOTE_ERROR;
		} else if (txtype == IBLND_MSG_GET_REQ) {
			/* The data is in place: its REPLY completes the GET. */
			tx->tx_lntmsg[1] = lnet_create_reply_msg(net->kn_ni,
								 tx->tx_lntmsg[0]);
			if (tx->tx_lntmsg[1])
				lnet_set_reply_msg_len(tx->tx_lntmsg[1],
						       cm->ibcm_status);
			else
				tx->tx_status = -ENOMEM;
		}
	}
	tx->tx_waiting = false;
	idle = !tx->tx_sending && !tx->tx_queued;
	if (idle)
		list_del(&tx->tx_list);
	spin_unlock_bh(&net->kn_lock);
	if (idle)
		kib_tx_done(tx);
}

/* PUT_ACK at the source: RDMA WRITE into the sink, then PUT_DONE. */
static void kib_handle_put_ack(struct kib_rx *rx)
{
	struct kib_conn *conn = rx->rx_conn;
	struct kib_net *net = conn->ibc_net;
	const struct kib_putack_msg *pa = &rx->rx_msg->ibm_u.putack;
	struct kib_tx *tx;
	int rc;

	spin_lock_bh(&net->kn_lock);
	tx = kib_find_waiting_tx_locked(conn, IBLND_MSG_PUT_REQ,
					pa->ibpam_src_cookie);
	if (tx) {
		/* Off the active list; the PUT_REQ's completion may be late. */
		list_del_init(&tx->tx_list);
		tx->tx_waiting = false;
		tx->tx_queued = true;
	}
	spin_unlock_bh(&net->kn_lock);
	if (!tx) {
		kib_rx_protocol_error(rx, KIB_STAT_UNKNOWN_COOKIE, -EPROTO);
		return;
	}
	/* The peer has the PUT_REQ: its buffer may be rewritten. */
	rc = kib_init_rdma(conn, tx, &pa->ibpam_rd,
			   tx->tx_lntmsg[0]->msg_len);
	if (rc < 0) {
		tx->tx_nwrs = 0;
		tx->tx_status = rc;
	}
	tx->tx_type = IBLND_MSG_PUT_DONE;
	tx->tx_msg->ibm_u.completion.ibcm_cookie = pa->ibpam_dst_cookie;
	tx->tx_msg->ibm_u.completion.ibcm_status = rc;
	tx->tx_nob = offsetof(struct kib_msg, ibm_u.completion) +
		     sizeof(struct kib_completion_msg);
	/* tx_queued stays set: a late PUT_REQ completion leaves it alone. */
	tx->tx_deadline = 0;
	kib_queue_tx(conn, tx);
}

/*
 * Hand an LNet message to LNet, which calls kib_recv() before returning,
 * unless a delay rule holds it (lnet/fault.c): kib_recv() then comes
 * later, from another context, and the buffer keeps a reference to its
 * connection until then.  Return: as lnet_parse().
 */
static int kib_parse(struct kib_rx *rx, const struct lnet_nid *from,
		     void *hdr, bool rdma_req)
{
	struct kib_conn *conn = rx->rx_conn;
	struct lnet_ni *ni = conn->ibc_net->kn_ni;
	int rc;

	WRITE_ONCE(rx->rx_parser, current);
	WRITE_ONCE(rx->rx_parse, KIB_RX_PARSING);
	if (rdma_req)
		rc = lnet_parse_rdma(ni, hdr, LNET_HDR_NID4_SIZE, from, rx);
	else
		rc = lnet_parse(ni, hdr, LNET_HDR_NID4_SIZE, from, rx);
	WRITE_ONCE(rx->rx_parser, NULL);
	if (rc < 0)
		return rc;	/* kib_recv() was not called */
	/* Only kib_recv() sets it back: it ran, the usual case. */
	if (READ_ONCE(rx->rx_parse) == KIB_RX_IDLE)
		return 0;
	/* The completion handler's own hold on @conn lasts until here. */
	kref_get(&conn->ibc_ref);
	if (cmpxchg(&rx->rx_parse, KIB_RX_PARSING, KIB_RX_HELD) !=
	    KIB_RX_PARSING)
		kib_conn_put(conn);	/* kib_recv() has its own: not the last */
	return 0;
}

/**
 * kib_handle_rx() - dispatch a received message of an established
 *	connection
 * @rx: the buffer, checked by wire.c
 *
 * Context: process (completion or rdma_cm handler).
 */
void kib_handle_rx(struct kib_rx *rx)
{
	struct kib_conn *conn = rx->rx_conn;
	struct kib_net *net = conn->ibc_net;
	struct kib_msg *msg = rx->rx_msg;
	/*
	 * Read once: once kib_parse() handed the buffer to LNet, kib_recv()
	 * may have reposted it already and a new message be landing in it.
	 */
	const u8 type = msg->ibm_type;
	enum kib_post_credit credit = KIB_POST_NO_CREDIT;
	struct lnet_nid from;
	int rc = 0;

	atomic64_inc(&conn->ibc_nrcvd);
	if (msg->ibm_srcnid != conn->ibc_peer->ibp_nid ||
	    msg->ibm_dstnid != net->kn_nid ||
	    msg->ibm_srcstamp != conn->ibc_incarnation ||
	    msg->ibm_dststamp != net->kn_incarnation) {
		kib_rx_protocol_error(rx, KIB_STAT_RX_STALE, -ESTALE);
		return;
	}
	if (msg->ibm_credits) {
		spin_lock_bh(&net->kn_lock);
		if (conn->ibc_credits + msg->ibm_credits >
		    conn->ibc_queue_depth) {
			spin_unlock_bh(&net->kn_lock);
			kib_rx_protocol_error(rx, KIB_STAT_CREDIT_OVERFLOW,
					      -EPROTO);
			return;
		}
		conn->ibc_credits += msg->ibm_credits;
		/* V1: the credit the NOOP took goes back with the next message. */
		if (type == IBLND_MSG_NOOP &&
		    !kib_oob_capable(conn->ibc_version))
			conn->ibc_outstanding++;
		spin_unlock_bh(&net->kn_lock);
		kib_check_sends(conn);
	}

	/* LNet answers through the connection's peer, whatever the header. */
	lnet_nid4_to_nid(conn->ibc_peer->ibp_nid, &from);
	switch (type) {
	case IBLND_MSG_NOOP:
		kib_stat_inc(KIB_STAT_NOOPS_RCVD);
		/*
		 * V2: sent without credit.  V1: a keepalive NOOP (no credits
		 * carried) returns its credit when the buffer is reposted; one
		 * carrying credits already did, above.
		 */
		if (!kib_oob_capable(conn->ibc_version) && !msg->ibm_credits)
			credit = KIB_POST_PEER_CREDIT;
		else
			credit = KIB_POST_NO_CREDIT;
		break;
	case IBLND_MSG_IMMEDIATE:
		if (msg->ibm_nob < IBLND_IMMEDIATE_HDR_SIZE) {
			kib_rx_protocol_error(rx, KIB_STAT_WIRE_BAD_NOB,
					      -EPROTO);
			return;
		}
		rc = kib_parse(rx, &from, msg->ibm_u.immediate.ibim_hdr,
			       false);
		break;
	case IBLND_MSG_PUT_REQ:
		rc = kib_parse(rx, &from, msg->ibm_u.putreq.ibprm_hdr, true);
		break;
	case IBLND_MSG_GET_REQ:
		rc = kib_parse(rx, &from, msg->ibm_u.get.ibgm_hdr, true);
		break;
	case IBLND_MSG_PUT_NAK:
		kib_stat_inc(KIB_STAT_PUT_NAKS);
		kib_handle_completion(rx, IBLND_MSG_PUT_REQ);
		credit = KIB_POST_RSRVD_CREDIT;
		break;
	case IBLND_MSG_PUT_ACK:
		kib_handle_put_ack(rx);
		credit = KIB_POST_RSRVD_CREDIT;
		break;
	case IBLND_MSG_PUT_DONE:
		kib_handle_completion(rx, IBLND_MSG_PUT_ACK);
		credit = KIB_POST_PEER_CREDIT;	/* the PUT_REQ's */
		break;
	case IBLND_MSG_GET_DONE:
		kib_handle_completion(rx, IBLND_MSG_GET_REQ);
		credit = KIB_POST_RSRVD_CREDIT;
		break;
	default:
		kib_rx_protocol_error(rx, KIB_STAT_WIRE_BAD_TYPE, -EPROTO);
		return;
	}
	if (rc < 0) {
		/* A bad LNet header: kib_recv() was not called. */
		kib_rx_protocol_error(rx, KIB_STAT_RX_BAD_LNET_HDR, rc);
		return;
	}
	switch (type) {	/* not msg->ibm_type: the buffer may be reused */
	case IBLND_MSG_IMMEDIATE:
	case IBLND_MSG_PUT_REQ:
	case IBLND_MSG_GET_REQ:
		return;		/* kib_recv() reposted it */
	default:
		kib_repost_rx(rx, credit);
	}
}

/**
 * kib_rx_done() - receive completion
 * @cq: the connection's CQ
 * @wc: the work completion
 *
 * Context: ib_comp_wq.
 */
void kib_rx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct kib_rx *rx = container_of(wc->wr_cqe, struct kib_rx, rx_cqe);
	struct kib_conn *conn = rx->rx_conn;
	struct kib_net *net = conn->ibc_net;
	enum kib_wire_err err;

	if (wc->status != IB_WC_SUCCESS) {
		if (wc->status != IB_WC_WR_FLUSH_ERR) {
			kib_stat_inc(KIB_STAT_WC_ERRORS);
			kib_conn_close(conn, -EIO);
		}
		return;		/* flushed: the connection is closing */
	}
	ib_dma_sync_single_for_cpu(net->kn_dev, rx->rx_dma, IBLND_MSG_SIZE,
				   DMA_FROM_DEVICE);
	rx->rx_nob = wc->byte_len;
	err = kib_msg_unpack(rx->rx_msg, rx->rx_nob);
	if (err != KIB_WIRE_OK) {
		kib_rx_protocol_error(rx, KIB_STAT_WIRE_SHORT + err -
					  KIB_WIRE_SHORT, -EPROTO);
		return;
	}
	spin_lock_bh(&net->kn_lock);
	if (conn->ibc_state < KIB_CONN_ESTABLISHED) {
		/* Before our ESTABLISHED event: handled there. */
		list_add_tail(&rx->rx_list, &conn->ibc_early_rxs);
		spin_unlock_bh(&net->kn_lock);
		return;
	}
	spin_unlock_bh(&net->kn_lock);
	if (conn->ibc_state >= KIB_CONN_CLOSING)
		return;
	kib_handle_rx(rx);
}

/* PUT_REQ matched: map the sink and send PUT_ACK (or PUT_NAK). */
static int kib_recv_put_req(struct kib_rx *rx, struct lnet_msg *msg,
			    struct iov_iter *to, unsigned int mlen)
{
	struct kib_conn *conn = rx->rx_conn;
	struct kib_net *net = conn->ibc_net;
	u64 cookie = rx->rx_msg->ibm_u.putreq.ibprm_cookie;
	struct kib_putack_msg *pa;
	struct kib_tx *tx;
	int rc;

	if (!msg || !mlen) {
		/* Nothing to receive: the credit comes back at once. */
		kib_send_completion(conn, IBLND_MSG_PUT_NAK, 0, cookie);
		kib_repost_rx(rx, KIB_POST_PEER_CREDIT);
		if (msg)
			lnet_finalize(msg, 0);
		return 0;
	}
	tx = kib_tx_alloc(net, IBLND_MSG_PUT_ACK);
	if (!tx) {
		rc = -ENOMEM;
		goto nak;
	}
	pa = &tx->tx_msg->ibm_u.putack;
	rc = kib_map_iter(tx, to, DMA_FROM_DEVICE);
	if (!rc)
		rc = kib_tx_map_rd(tx, &pa->ibpam_rd);
	if (rc < 0) {
		kib_tx_done(tx);
		goto nak;
	}
	tx->tx_cookie = kib_next_cookie(net);
	pa->ibpam_src_cookie = cookie;
	pa->ibpam_dst_cookie = tx->tx_cookie;
	tx->tx_nob = offsetof(struct kib_msg, ibm_u.putack.ibpam_rd) +
		     kib_rdma_desc_size(rc);
	tx->tx_lntmsg[0] = msg;
	tx->tx_waiting = true;	/* for PUT_DONE */
	tx->tx_deadline = 0;
	kib_queue_tx(conn, tx);
	/* The credit comes back with PUT_DONE's buffer. */
	kib_repost_rx(rx, KIB_POST_NO_CREDIT);
	return 0;
nak:
	kib_send_completion(conn, IBLND_MSG_PUT_NAK, rc, cookie);
	kib_repost_rx(rx, KIB_POST_PEER_CREDIT);
	return rc;	/* LNet finalizes @msg */
}

/* GET_REQ: @msg is the REPLY to write, NULL if the GET was dropped. */
static int kib_recv_get_req(struct kib_rx *rx, struct lnet_msg *msg,
			    struct iov_iter *to, unsigned int mlen)
{
	struct kib_conn *conn = rx->rx_conn;
	struct kib_net *net = conn->ibc_net;
	const struct kib_get_msg *get = &rx->rx_msg->ibm_u.get;
	u64 cookie = get->ibgm_cookie;
	struct kib_tx *tx;
	int rc;

	if (!msg) {
		kib_send_completion(conn, IBLND_MSG_GET_DONE, -ENODATA,
				    cookie);
		kib_repost_rx(rx, KIB_POST_PEER_CREDIT);
		return 0;
	}
	tx = kib_tx_alloc(net, IBLND_MSG_GET_DONE);
	if (!tx) {
		rc = -ENOMEM;
		goto fail;
	}
	rc = 0;
	if (mlen)
		rc = kib_map_iter(tx, to, DMA_TO_DEVICE);
	if (!rc)
		rc = kib_init_rdma(conn, tx, &get->ibgm_rd, mlen);
	if (rc < 0) {
		kib_tx_done(tx);
		goto fail;
	}
	tx->tx_msg->ibm_u.completion.ibcm_cookie = cookie;
	tx->tx_msg->ibm_u.completion.ibcm_status = rc;
	tx->tx_nob = offsetof(struct kib_msg, ibm_u.completion) +
		     sizeof(struct kib_completion_msg);
	tx->tx_lntmsg[0] = msg;
	tx->tx_deadline = 0;
	kib_queue_tx(conn, tx);
	kib_repost_rx(rx, KIB_POST_PEER_CREDIT);
	return 0;
fail:
	kib_send_completion(conn, IBLND_MSG_GET_DONE, rc, cookie);
	kib_repost_rx(rx, KIB_POST_PEER_CREDIT);
	return rc;	/* LNet finalizes the REPLY */
}

static int kib_recv_rx(struct kib_rx *rx, struct lnet_msg *msg,
		       struct iov_iter *to, unsigned int mlen,
		       unsigned int rlen)
{
	struct kib_msg *rxmsg = rx->rx_msg;
	int rc = 0;

	switch (rxmsg->ibm_type) {
	case IBLND_MSG_IMMEDIATE:
		if (rxmsg->ibm_nob < IBLND_IMMEDIATE_HDR_SIZE + rlen) {
			kib_rx_protocol_error(rx, KIB_STAT_RX_TRUNCATED,
					      -EPROTO);
			return -EPROTO;
		}
		if (msg && mlen &&
		    copy_to_iter(rxmsg->ibm_u.immediate.ibim_payload, mlen,
				 to) != mlen)
			rc = -EFAULT;
		kib_repost_rx(rx, KIB_POST_PEER_CREDIT);
		if (msg && !rc)
			lnet_finalize(msg, 0);
		return rc;
	case IBLND_MSG_PUT_REQ:
		return kib_recv_put_req(rx, msg, to, mlen);
	case IBLND_MSG_GET_REQ:
		return kib_recv_get_req(rx, msg, to, mlen);
	default:
		WARN_ON_ONCE(1);
		return -EPROTO;
	}
}

/**
 * kib_recv() - lnd_recv: receive the payload of a parsed message
 * @ni: the NI
 * @private: the struct kib_rx it arrived in
 * @msg: the LNet message, NULL if dropped; for a GET_REQ the REPLY
 * @to: where the payload goes (for a GET_REQ: the reply data)
 * @mlen: bytes to receive
 * @rlen: bytes sent
 *
 * Context: process: called by lnet_parse() from kib_handle_rx(), or
 * later by LNet's fault injection for a message a delay rule held (its
 * connection may have closed since: what is sent fails then).
 * Return: 0, or -errno (LNet then finalizes @msg with it).
 */
int kib_recv(struct lnet_ni *ni, void *private, struct lnet_msg *msg,
	     struct iov_iter *to, unsigned int mlen, unsigned int rlen)
{
	struct kib_rx *rx = private;
	struct kib_conn *conn = rx->rx_conn;
	int rc;

	/* Called by lnet_parse() in kib_parse(): the usual case. */
	if (READ_ONCE(rx->rx_parser) == current) {
		WRITE_ONCE(rx->rx_parse, KIB_RX_IDLE);
		rx->rx_held = false;
		return kib_recv_rx(rx, msg, to, mlen, rlen);
	}
	/*
	 * A held message, from another task.  @conn is alive: by
	 * kib_parse()'s reference, or by the completion handler still in
	 * kib_parse() before it takes one (the state is still PARSING: it
	 * will see ours and drop its own).  Ours first, then theirs.
	 */
	kref_get(&conn->ibc_ref);
	if (xchg(&rx->rx_parse, KIB_RX_IDLE) == KIB_RX_HELD)
		kib_conn_put(conn);	/* kib_parse()'s: not the last one */
	rx->rx_held = true;
	rc = kib_recv_rx(rx, msg, to, mlen, rlen);
	kib_conn_put(conn);
	return rc;
}
