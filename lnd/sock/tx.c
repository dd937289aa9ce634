// SPDX-License-Identifier: GPL-2.0
/*
 * Sending: lnd_send puts a message on the best connection of its peer,
 * or on the peer's queue (and connects) when it has none.  Each
 * connection's tx work writes its queue in order with non-blocking
 * sends; when the socket is full it stops until write_space requeues it.
 * When a message starts, zc.c decides how its payload goes: pages by
 * reference with a zero-copy request (the message completes on the
 * peer's ACK), or copied into the socket (it completes once all of it is
 * there); owed ZC ACKs ride along in its header.
 *
 * Where a message goes (spec 4.11): below min_bulk bytes on CONTROL,
 * else on BULK_OUT, each falling back to the other; NOOPs on BULK_IN
 * (the "ACK" connection); everything on ANY for V1/V2 peers.
 */
#include <linux/highmem.h>
#include <linux/net.h>
#include <linux/slab.h>
#include <net/sock.h>

#include "socklnd.h"

static struct ksock_tx *ksock_tx_alloc(void)
{
	struct ksock_tx *tx = kzalloc(sizeof(*tx), GFP_ATOMIC | __GFP_NOWARN);

	if (tx) {
		INIT_LIST_HEAD(&tx->tx_list);
		INIT_LIST_HEAD(&tx->tx_zc_list);
		tx->tx_deadline = jiffies +
				  lnet_secs_to_jiffies(ksock_timeout());
	}
	return tx;
}

/*
 * Why @tx failed with @status, for LNet's health (spec features 3b).  A
 * send that was all in the socket (a zero-copy one awaiting its ACK) may
 * have reached the peer, which may have acted on it: a remote failure,
 * never resent.  One that was queued, or partly written (the peer drops
 * a message its connection lost halfway), never reached LNet there: its
 * class says whether another path may work, as Lustre's socklnd does
 * (reset, refused, unreachable: the peer dropped it).
 */
static enum lnet_msg_hstatus ksock_tx_hstatus(const struct ksock_tx *tx,
					      int status)
{
	if (tx->tx_hstatus != LNET_MSG_STATUS_OK)
		return tx->tx_hstatus;
	if (tx->tx_sent)
		return status == -ETIMEDOUT ? LNET_MSG_STATUS_REMOTE_TIMEOUT :
					      LNET_MSG_STATUS_REMOTE_ERROR;
	switch (status) {
	case -ETIMEDOUT:
		return LNET_MSG_STATUS_LOCAL_TIMEOUT;
	case -ECONNREFUSED:
	case -ECONNRESET:
	case -EHOSTUNREACH:
		return LNET_MSG_STATUS_REMOTE_DROPPED;
	case -ENETDOWN:
	case -ENETUNREACH:
	case -ESHUTDOWN:
		return LNET_MSG_STATUS_LOCAL_DROPPED;
	default:
		return LNET_MSG_STATUS_LOCAL_ERROR;
	}
}

/**
 * ksock_tx_done() - a send finished: finalize its message, free it
 * @tx: the send, on no list
 * @status: 0 or the error its message gets
 *
 * A connection's ACK NOOP is part of it and is not freed here.  A failed
 * message gets its health class (ksock_tx_hstatus()).
 */
void ksock_tx_done(struct ksock_tx *tx, int status)
{
	if (tx->tx_ack_noop)
		return;
	if (status)
		ksock_stat_inc(KSOCK_STAT_TX_ERRORS);
	if (tx->tx_msg) {
		if (status)
			tx->tx_msg->msg_health_status =
				ksock_tx_hstatus(tx, status);
		lnet_finalize(tx->tx_msg, status);
	}
	kfree(tx);
}

/**
 * ksock_txlist_done() - ksock_tx_done() for each send of a list
 * @txs: the list, emptied
 * @status: the error
 */
void ksock_txlist_done(struct list_head *txs, int status)
{
	struct ksock_tx *tx, *tmp;

	list_for_each_entry_safe(tx, tmp, txs, tx_list) {
		list_del(&tx->tx_list);
		ksock_tx_done(tx, status);
	}
}

/**
 * ksock_noop_alloc() - a NOOP carrying two cookies (spec 4.9)
 * @cookie0: first cookie
 * @cookie1: second cookie
 *
 * Return: the send, or NULL without memory.
 */
struct ksock_tx *ksock_noop_alloc(u64 cookie0, u64 cookie1)
{
	struct ksock_tx *tx = ksock_tx_alloc();

	if (!tx)
		return NULL;
	tx->tx_cookie0 = cookie0;
	tx->tx_cookie1 = cookie1;
	tx->tx_nob = KSOCK_MSG_HDR_SIZE;
	return tx;
}

/* Headers as @conn's version frames them. */
static int ksock_tx_encode(struct ksock_conn *conn, struct ksock_tx *tx)
{
	u8 *lhdr = tx->tx_hdr;
	int rc;

	if (!tx->tx_msg) {
		ksock_msg_hdr_encode(tx->tx_hdr, KSOCK_MSG_NOOP,
				     tx->tx_cookie0, tx->tx_cookie1);
		tx->tx_hdr_len = KSOCK_MSG_HDR_SIZE;
		return 0;
	}
	tx->tx_hdr_len = 0;
	if (conn->ksc_version >= KSOCK_PROTO_V2) {
		ksock_msg_hdr_encode(tx->tx_hdr, KSOCK_MSG_LNET, 0, 0);
		lhdr += KSOCK_MSG_HDR_SIZE;
		tx->tx_hdr_len = KSOCK_MSG_HDR_SIZE;
	}
	if (conn->ksc_version == KSOCK_PROTO_V4) {
		lnet_hdr_to_nid16(&tx->tx_msg->msg_hdr, lhdr);
		tx->tx_hdr_len += LNET_HDR_NID16_SIZE;
		rc = 0;
	} else {
		rc = lnet_hdr_to_nid4(&tx->tx_msg->msg_hdr, lhdr);
		tx->tx_hdr_len += LNET_HDR_NID4_SIZE;
	}
	return rc;
}

/* May @conn carry @tx?  0: no; 2: preferred; 1: as a fallback. */
static int ksock_conn_fits(const struct ksock_conn *conn,
			   const struct ksock_tx *tx)
{
	bool bulk = tx->tx_nob >= READ_ONCE(ksock_tun.min_bulk);

	if (conn->ksc_closing)
		return 0;
	if (conn->ksc_version <= KSOCK_PROTO_V2)
		return tx->tx_msg ? 2 : conn->ksc_version == KSOCK_PROTO_V2;
	switch (conn->ksc_type) {
	case KSOCK_CONN_CONTROL:
		return tx->tx_msg ? (bulk ? 1 : 2) : 1;
	case KSOCK_CONN_BULK_OUT:
		return tx->tx_msg ? (bulk ? 2 : 1) : 1;
	case KSOCK_CONN_BULK_IN:
		return tx->tx_msg ? 0 : 2;
	default:
		return 0;	/* never send on a V3/V4 ANY connection */
	}
}

/* The best connection for @tx: preferred type, then least queued. */
static struct ksock_conn *ksock_conn_for_tx_locked(struct ksock_peer *peer,
						   const struct ksock_tx *tx)
{
	struct ksock_conn *conn, *best = NULL;
	int fit, best_fit = 0;

	list_for_each_entry(conn, &peer->ksp_conns, ksc_list) {
		fit = ksock_conn_fits(conn, tx);
		if (!fit)
			continue;
		if (fit > best_fit ||
		    (fit == best_fit && conn->ksc_tx_bytes < best->ksc_tx_bytes)) {
			best = conn;
			best_fit = fit;
		}
	}
	return best;
}

/**
 * ksock_tx_queue_locked() - queue @tx on @conn and start sending
 * @conn: a connection that fits @tx
 * @tx: the send
 *
 * Return: none; a header that cannot be encoded fails @tx later, in the
 * tx work, as an error.
 */
void ksock_tx_queue_locked(struct ksock_conn *conn, struct ksock_tx *tx)
{
	if (list_empty(&conn->ksc_txq))
		conn->ksc_tx_last = jiffies;
	if (ksock_tx_encode(conn, tx))
		tx->tx_hdr_len = 0;	/* the tx work fails it */
	/* NOOPs (ZC ACKs) go first: the peer keeps buffers until then. */
	if (!tx->tx_msg && !list_empty(&conn->ksc_txq)) {
		struct ksock_tx *head = list_first_entry(&conn->ksc_txq,
							 struct ksock_tx,
							 tx_list);

		/* The head may be partly sent: never cut into it. */
		list_add(&tx->tx_list, &head->tx_list);
	} else {
		list_add_tail(&tx->tx_list, &conn->ksc_txq);
	}
	conn->ksc_tx_bytes += tx->tx_nob;
	queue_work(ksock_sched_wq, &conn->ksc_tx_work);
}

/**
 * ksock_peer_connect_locked() - make sure a connection attempt is coming
 * @peer: a peer with messages waiting
 *
 * Not before the back-off allows; nothing when one runs already.
 */
void ksock_peer_connect_locked(struct ksock_peer *peer)
{
	long delay = (long)(peer->ksp_reconnect_at - jiffies);

	if (peer->ksp_connecting || peer->ksp_net->ksn_shutdown)
		return;
	queue_delayed_work(ksock_connd_wq, &peer->ksp_connect_work,
			   max(delay, 0L));
}

/**
 * ksock_peer_send_queued_locked() - move waiting sends to connections
 * @peer: a peer that just got a connection
 */
void ksock_peer_send_queued_locked(struct ksock_peer *peer)
{
	struct ksock_tx *tx, *tmp;
	struct ksock_conn *conn;

	list_for_each_entry_safe(tx, tmp, &peer->ksp_txq, tx_list) {
		conn = ksock_conn_for_tx_locked(peer, tx);
		if (!conn)
			continue;
		list_del(&tx->tx_list);
		ksock_tx_queue_locked(conn, tx);
	}
}

/*
 * Is @peer in the back-off after a failed connection attempt, with no
 * attempt coming or running and no handshake of its own under way?  A
 * send with no connection then fails at once, as stock's "No usable
 * routes" (features spec 3b: REMOTE_ERROR): it would only wait out the
 * back-off (up to max_reconnectms), holding its credit, while LNet
 * could choose another path.  The next send after the back-off tries
 * again.
 */
static bool ksock_peer_backing_off_locked(const struct ksock_peer *peer)
{
	int type;

	if (!peer->ksp_connect_failed || peer->ksp_connecting ||
	    delayed_work_pending(&peer->ksp_connect_work) ||
	    !time_before(jiffies, peer->ksp_reconnect_at))
		return false;
	for (type = 0; type < KSOCK_CONN_TYPES; type++)
		if (peer->ksp_accepting[type])
			return false;
	return true;
}

/*
 * Queue @tx for @peer: on a connection, or waiting for one; -EHOSTUNREACH
 * when there is none and the back-off forbids an attempt now.
 */
static int ksock_peer_queue_locked(struct ksock_peer *peer,
				   struct ksock_tx *tx)
{
	struct ksock_conn *conn = ksock_conn_for_tx_locked(peer, tx);

	peer->ksp_last_used = jiffies;
	if (conn) {
		ksock_tx_queue_locked(conn, tx);
		return 0;
	}
	if (ksock_peer_backing_off_locked(peer))
		return -EHOSTUNREACH;
	list_add_tail(&tx->tx_list, &peer->ksp_txq);
	ksock_peer_connect_locked(peer);
	return 0;
}

/**
 * ksock_send() - lnd_send: send an LNet message
 * @ni: the NI
 * @private: unused (no routing)
 * @msg: the message, credits taken
 *
 * Context: Any context but hard IRQ.
 * Return: 0 (the message is finalized later), or -errno.
 */
int ksock_send(struct lnet_ni *ni, void *private, struct lnet_msg *msg)
{
	struct ksock_net *net = ni->ni_data;
	struct lnet_nid *nid = &msg->msg_txpeer->lpni_nid;
	struct ksock_peer *peer;
	struct ksock_tx *tx;
	int rc = 0;

	if (!lnet_nid_is_nid4(nid))
		return -EHOSTUNREACH;	/* IPv4 only for now */
	/*
	 * To our own NID (a recovery ping of this NI): the kernel would
	 * carry it over lo whatever the NI's link, so with that link down
	 * it fails here, as any send by the link would.
	 */
	if (READ_ONCE(ni->ni_fatal) && lnet_nid_equal(nid, &ni->ni_nid)) {
		msg->msg_health_status = LNET_MSG_STATUS_LOCAL_DROPPED;
		return -ENETDOWN;
	}
	tx = ksock_tx_alloc();
	if (!tx)
		return -ENOMEM;
	tx->tx_msg = msg;
	tx->tx_nob = KSOCK_MSG_HDR_SIZE + LNET_HDR_NID4_SIZE + msg->msg_len;
	if (msg->msg_len)
		lnet_md_iter(msg->msg_md, ITER_SOURCE, msg->msg_offset,
			     msg->msg_len, &tx->tx_payload);
	else
		iov_iter_kvec(&tx->tx_payload, ITER_SOURCE, NULL, 0, 0);
	tx->tx_zc_capable = msg->msg_len >= ksock_zc_min_payload() &&
			    iov_iter_is_bvec(&tx->tx_payload);

	spin_lock_bh(&net->ksn_lock);
	peer = ksock_peer_get_locked(net, nid, LNET_PID_LUSTRE);
	if (peer)
		rc = ksock_peer_queue_locked(peer, tx);
	else
		rc = net->ksn_shutdown ? -ESHUTDOWN : -ENOMEM;
	spin_unlock_bh(&net->ksn_lock);
	if (rc == -EHOSTUNREACH) {
		ksock_stat_inc(KSOCK_STAT_TX_NO_ROUTE);
		msg->msg_health_status = LNET_MSG_STATUS_REMOTE_ERROR;
	}
	if (rc)
		kfree(tx);
	return rc;
}

/*
 * Send one page of @tx's payload by reference (pages under a ZC request,
 * which only pages get), or as much of it as the socket takes by copy.
 */
static int ksock_send_payload(struct socket *sock, struct ksock_tx *tx)
{
	int flags = MSG_DONTWAIT | MSG_NOSIGNAL;
	struct iov_iter *it = &tx->tx_payload;
	size_t count = iov_iter_count(it);
	const struct bio_vec *bv;
	struct page *page;
	size_t off, len;

	if (!tx->tx_zc_cookie) {
		struct msghdr mh = { .msg_flags = flags };

		mh.msg_iter = *it;
		return sock_sendmsg(sock, &mh);
	}
	bv = it->bvec;
	off = bv->bv_offset + it->iov_offset;
	page = nth_page(bv->bv_page, off >> PAGE_SHIFT);
	off &= ~PAGE_MASK;
	len = min3(count, (size_t)bv->bv_len - it->iov_offset, PAGE_SIZE - off);
	if (len < count)
		flags |= MSG_MORE | MSG_SENDPAGE_NOTLAST;
	if (sendpage_ok(page))
		return kernel_sendpage(sock, page, off, len, flags);
	return sock_no_sendpage(sock, page, off, len, flags);
}

/* Send what the socket takes of @tx: 0 when all of it went, -EAGAIN. */
static int ksock_tx_send(struct ksock_conn *conn, struct ksock_tx *tx)
{
	struct socket *sock = conn->ksc_sock;
	int rc;

	if (!tx->tx_hdr_len)
		return -EPROTO;		/* could not be encoded */
	while (tx->tx_hdr_sent < tx->tx_hdr_len) {
		struct kvec iov = {
			.iov_base = tx->tx_hdr + tx->tx_hdr_sent,
			.iov_len = tx->tx_hdr_len - tx->tx_hdr_sent,
		};
		struct msghdr mh = { .msg_flags = MSG_DONTWAIT | MSG_NOSIGNAL };

		if (iov_iter_count(&tx->tx_payload))
			mh.msg_flags |= MSG_MORE;
		rc = kernel_sendmsg(sock, &mh, &iov, 1, iov.iov_len);
		if (rc <= 0)
			return rc ? rc : -EAGAIN;
		tx->tx_hdr_sent += rc;
		conn->ksc_tx_last = jiffies;
	}
	while (iov_iter_count(&tx->tx_payload)) {
		rc = ksock_send_payload(sock, tx);
		if (rc <= 0)
			return rc ? rc : -EAGAIN;
		iov_iter_advance(&tx->tx_payload, rc);
		conn->ksc_tx_last = jiffies;
	}
	return 0;
}

/*
 * @tx heads @conn's queue and nothing of it is sent: fix what its header
 * carries.  A message: its zero-copy request or none, and one owed ZC
 * ACK; the ACK NOOP: the ACKs owed now.  Return: false for an ACK NOOP
 * with nothing left to carry (taken off the queue).
 */
static bool ksock_tx_begin_locked(struct ksock_conn *conn,
				  struct ksock_tx *tx)
{
	struct ksock_zc_acks *acks = &conn->ksc_zc_acks;
	u64 c0, c1;

	tx->tx_begun = true;
	if (tx->tx_ack_noop) {
		if (!ksock_zc_acks_take_noop(acks, &c0, &c1)) {
			list_del_init(&tx->tx_list);
			conn->ksc_tx_bytes -= tx->tx_nob;
			tx->tx_begun = false;
			return false;
		}
		ksock_msg_hdr_encode(tx->tx_hdr, KSOCK_MSG_NOOP, c0, c1);
		atomic64_add(ksock_zc_ack_count(c0, c1),
			     &ksock_stats[KSOCK_STAT_ZC_ACKS_SENT]);
		return true;
	}
	if (!tx->tx_msg)
		return true;	/* a keepalive */
	ksock_zc_tx_begin_locked(conn, tx);
	if (conn->ksc_version < KSOCK_PROTO_V2 || !tx->tx_hdr_len)
		return true;
	c1 = ksock_zc_acks_take_one(acks);
	if (c1)
		ksock_stat_inc(KSOCK_STAT_ZC_ACKS_SENT);
	ksock_msg_hdr_encode(tx->tx_hdr, KSOCK_MSG_LNET, tx->tx_zc_cookie, c1);
	return true;
}

/* The send to work on, begun; NULL when there is none. */
static struct ksock_tx *ksock_tx_next_locked(struct ksock_conn *conn)
{
	struct ksock_tx *tx;

	while (!conn->ksc_closing) {
		tx = list_first_entry_or_null(&conn->ksc_txq, struct ksock_tx,
					      tx_list);
		if (!tx || tx->tx_begun || ksock_tx_begin_locked(conn, tx))
			return tx;
	}
	return NULL;
}

/*
 * All of @tx is in the socket and off the queue: true to complete it
 * now.  The ACK NOOP is requeued if more ACKs became owed meanwhile.
 */
static bool ksock_tx_sent_locked(struct ksock_conn *conn,
				 struct ksock_tx *tx)
{
	if (tx->tx_ack_noop) {
		tx->tx_begun = false;
		tx->tx_hdr_sent = 0;
		if (conn->ksc_zc_acks.n)
			ksock_tx_queue_locked(conn, tx);
		return false;
	}
	return ksock_zc_tx_sent_locked(tx);
}

/**
 * ksock_tx_work() - send a connection's queue, in order
 * @work: the connection's ksc_tx_work
 */
void ksock_tx_work(struct work_struct *work)
{
	struct ksock_conn *conn = container_of(work, struct ksock_conn,
					       ksc_tx_work);
	struct ksock_net *net = conn->ksc_peer->ksp_net;
	struct ksock_tx *tx;
	int budget = 64;
	bool done;
	int rc;

	while (budget--) {
		spin_lock_bh(&net->ksn_lock);
		tx = ksock_tx_next_locked(conn);
		spin_unlock_bh(&net->ksn_lock);
		if (!tx)
			return;
		/*
		 * Fault injection (lnet/fault.c): the message fails with the
		 * rule's health status before any of it is written, and the
		 * connection closes as on a real error (as Lustre's).
		 */
		if (!tx->tx_hdr_sent && !tx->tx_sent &&
		    lnet_send_error_simulation(tx->tx_msg, &tx->tx_hstatus)) {
			ksock_conn_close(conn, -ECONNRESET);
			return;
		}
		rc = ksock_tx_send(conn, tx);
		if (rc == -EAGAIN)
			return;		/* write_space requeues us */
		if (rc) {
			ksock_conn_close(conn, rc == -EPROTO ? -EPROTO :
					 -ECONNRESET);
			return;
		}
		spin_lock_bh(&net->ksn_lock);
		list_del_init(&tx->tx_list);
		conn->ksc_tx_bytes -= tx->tx_nob;
		done = ksock_tx_sent_locked(conn, tx);
		spin_unlock_bh(&net->ksn_lock);
		if (done)
			ksock_tx_done(tx, 0);
	}
	queue_work(ksock_sched_wq, &conn->ksc_tx_work);
}
