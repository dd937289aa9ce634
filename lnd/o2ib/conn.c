// SPDX-License-Identifier: GPL-2.0
/*
 * Connections: a connection's QP, CQ and receive buffers, its
 * establishment (queued messages move onto it), its closing and
 * teardown, and the once-a-second reaper (timeouts, keepalive,
 * reconnects).
 *
 * Teardown runs on kib_wq: disconnect, ib_drain_qp() (every posted WR
 * completes, flushed, so no completion runs afterwards), then fail what
 * is queued or waiting, free the QP, CQ, buffers and the rdma_cm id.  The
 * id is destroyed only there, never from its own event handler.
 */
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>

#include <lnet/trace.h>

#include "o2iblnd.h"

/* Tracepoint lnet_conn (Documentation/tracepoints.rst). */
static void kib_conn_trace(const struct kib_conn *conn, bool up, int error)
{
	struct lnet_nid peer;

	if (!trace_lnet_conn_enabled())
		return;
	lnet_nid4_to_nid(conn->ibc_peer->ibp_nid, &peer);
	trace_lnet_conn("o2ib", &conn->ibc_net->kn_ni->ni_nid, &peer, up,
			error);
}

/**
 * kib_peer_conns_wanted() - connections to keep to a peer
 * @peer: the peer
 *
 * Return: its NI's conns_per_peer (1..127): we connect until the peer
 *	has that many, its connections to us included.
 */
int kib_peer_conns_wanted(const struct kib_peer *peer)
{
	/* "net set --conns-per-peer" changes it under us */
	int n = READ_ONCE(peer->ibp_net->kn_ni->ni_tunables.conns_per_peer);

	return clamp(n, 1, LNET_GENL_CONNS_PER_PEER_MAX);
}

/**
 * kib_peer_nconns_locked() - connections of a peer not closing
 * @peer: the peer
 *
 * Return: its connections established or being set up, either way.
 */
int kib_peer_nconns_locked(const struct kib_peer *peer)
{
	const struct kib_conn *conn;
	int n = 0;

	list_for_each_entry(conn, &peer->ibp_conns, ibc_list)
		n++;
	return n;
}

/**
 * kib_peer_conn_locked() - the established connection to send on
 * @peer: the peer
 *
 * With several connections (conns_per_peer), each message takes the
 * next one, as Lustre's o2iblnd does: the chosen one moves to the end
 * of the list.  All of a transaction's messages then go on the
 * connection its request went on (responses go where the request came
 * from), so nothing relies on order across connections.
 *
 * Return: the connection or NULL.
 */
struct kib_conn *kib_peer_conn_locked(struct kib_peer *peer)
{
	struct kib_conn *conn;

	list_for_each_entry(conn, &peer->ibp_conns, ibc_list) {
		if (conn->ibc_state != KIB_CONN_ESTABLISHED)
			continue;
		if (!list_is_last(&conn->ibc_list, &peer->ibp_conns))
			list_move_tail(&conn->ibc_list, &peer->ibp_conns);
		return conn;
	}
	return NULL;
}

/**
 * kib_peer_connect_locked() - start an active connection after @delay
 * @peer: the peer; nothing happens if an attempt runs or it has all the
 *	connections it should (kib_peer_conns_wanted())
 * @delay: jiffies; 0 also brings forward an attempt still waiting (an
 *	extra connection's back-off, when the peer lost its others)
 */
void kib_peer_connect_locked(struct kib_peer *peer, unsigned long delay)
{
	if (peer->ibp_net->kn_down ||
	    kib_peer_nconns_locked(peer) >= kib_peer_conns_wanted(peer))
		return;
	if (peer->ibp_connecting) {
		if (!delay && delayed_work_pending(&peer->ibp_connect_work))
			mod_delayed_work(kib_wq, &peer->ibp_connect_work, 0);
		return;
	}
	peer->ibp_connecting = true;
	mod_delayed_work(kib_wq, &peer->ibp_connect_work, delay);
}

/**
 * kib_peer_connect_more_locked() - top a peer up to conns_per_peer
 * @peer: the peer, which has a connection
 *
 * An extra connection is opened only when there is traffic (a message
 * sent, or a connection of ours just established), one at a time, and
 * not before the backoff of a failed extra attempt has passed.
 */
void kib_peer_connect_more_locked(struct kib_peer *peer)
{
	if (kib_peer_conns_wanted(peer) > 1 && !peer->ibp_accepting)
		kib_peer_connect_locked(peer, kib_peer_reconnect_delay(peer));
}

/**
 * kib_conn_alloc() - a connection without QP yet, on @peer's list
 * @peer: the peer; the caller holds kn_lock
 * @active: we connect (else we accept)
 *
 * Return: the connection (one reference, the peer list's) or NULL.
 */
struct kib_conn *kib_conn_alloc(struct kib_peer *peer, bool active)
{
	struct kib_conn *conn = kzalloc(sizeof(*conn), GFP_ATOMIC);

	if (!conn)
		return NULL;
	conn->ibc_kind = KIB_CTX_CONN;
	kref_init(&conn->ibc_ref);
	kref_get(&peer->ibp_ref);
	conn->ibc_peer = peer;
	conn->ibc_net = peer->ibp_net;
	conn->ibc_active = active;
	conn->ibc_state = active ? KIB_CONN_CONNECTING : KIB_CONN_ACCEPTED;
	mutex_init(&conn->ibc_cm_mutex);
	conn->ibc_version = peer->ibp_version;
	conn->ibc_queue_depth = peer->ibp_version == IBLND_MSG_VERSION_1 ?
				IBLND_MSG_QUEUE_SIZE_V1 : peer->ibp_queue_depth;
	conn->ibc_max_frags = peer->ibp_max_frags;
	INIT_LIST_HEAD(&conn->ibc_tx_noops);
	INIT_LIST_HEAD(&conn->ibc_tx_queue);
	INIT_LIST_HEAD(&conn->ibc_tx_queue_rsrvd);
	INIT_LIST_HEAD(&conn->ibc_tx_queue_nocred);
	INIT_LIST_HEAD(&conn->ibc_tx_queue_mr);
	INIT_LIST_HEAD(&conn->ibc_active_txs);
	INIT_LIST_HEAD(&conn->ibc_early_rxs);
	INIT_LIST_HEAD(&conn->ibc_mr_wait);
	list_add_tail(&conn->ibc_list, &peer->ibp_conns);
	atomic_inc(&conn->ibc_net->kn_nconns);
	return conn;
}

/*
 * The receive buffers go with the last reference, not at teardown: a
 * message LNet holds for a delay rule (lnet/fault.c) keeps its buffer
 * and a reference until kib_recv().  The device outlives every
 * connection (kib_net_stop() waits for kn_nconns).
 */
static void kib_conn_free_rxs(struct kib_conn *conn)
{
	struct ib_device *dev = conn->ibc_net->kn_dev;
	int i;

	for (i = 0; conn->ibc_rxs && i < conn->ibc_nrx; i++) {
		struct kib_rx *rx = &conn->ibc_rxs[i];

		if (!rx->rx_msg)
			continue;
		ib_dma_unmap_single(dev, rx->rx_dma, IBLND_MSG_SIZE,
				    DMA_FROM_DEVICE);
		kfree(rx->rx_msg);
	}
	kfree(conn->ibc_rxs);
	conn->ibc_rxs = NULL;
}

static void kib_conn_release(struct kref *ref)
{
	struct kib_conn *conn = container_of(ref, struct kib_conn, ibc_ref);
	struct kib_net *net = conn->ibc_net;

	kib_conn_free_rxs(conn);
	kib_peer_put(conn->ibc_peer);
	kfree(conn);
	/*
	 * wake_up_var(), not a wait queue in @net: kib_net_stop() may see
	 * the count at 0 on another CPU and @net be freed before we wake.
	 */
	if (atomic_dec_and_test(&net->kn_nconns))
		wake_up_var(&net->kn_nconns);
}

/**
 * kib_conn_put() - drop a reference
 * @conn: the connection
 */
void kib_conn_put(struct kib_conn *conn)
{
	kref_put(&conn->ibc_ref, kib_conn_release);
}

static void kib_qp_event(struct ib_event *event, void *context)
{
	struct kib_conn *conn = context;

	if (event->event == IB_EVENT_COMM_EST)
		rdma_notify(conn->ibc_cmid, IB_EVENT_COMM_EST);
	else
		pr_debug("ko2iblnd: QP event %d\n", event->event);
}

/*
 * Create the CQ and QP for queue depth @qd.  Send queue: concurrent_sends
 * messages, each with up to max_frags RDMA WRITEs or an MR registration
 * before it, within the device's limit (concurrent_sends shrinks to
 * fit), plus the NOOPs V2 sends out of band.  Receive queue: 2 x queue
 * depth + 2 for V2, 2 x queue depth for V1 (spec 5.1).  One spare WR each
 * for ib_drain_qp().  On failure no QP is left; the CQ stays, for the next
 * try or the teardown.
 */
static int kib_conn_create_qp(struct kib_conn *conn, struct rdma_cm_id *cmid,
			      int qd)
{
	struct kib_net *net = conn->ibc_net;
	struct ib_qp_init_attr attr = {};
	int per_tx = 1 + conn->ibc_max_frags + KIB_MR_MAX_WRS;
	int sends, sq, nrx, rc;

	sends = net->kn_ni->ni_tunables.concurrent_sends;
	if (sends <= 0 || sends > qd)
		sends = qd;
	if (kib_oob_capable(conn->ibc_version))
		sends += KIB_OOB_MSGS;
	while (sends > 1 && sends * per_tx + 1 > net->kn_max_qp_wr)
		sends--;
	if (sends * per_tx + 1 > net->kn_max_qp_wr)
		return -ENOMEM;
	sq = sends * per_tx;
	nrx = 2 * qd;
	if (kib_oob_capable(conn->ibc_version))
		nrx += KIB_OOB_MSGS;
	if (nrx + 1 > net->kn_max_qp_wr)
		return -ENOMEM;

	/*
	 * The CQ of the first depth tried serves the smaller ones: it is
	 * never freed here, as an rdma_cm handler must not flush CQ work.
	 */
	if (!conn->ibc_cq) {
		conn->ibc_cq = ib_alloc_cq(net->kn_dev, conn, sq + nrx + 2, 0,
					   IB_POLL_WORKQUEUE);
		if (IS_ERR(conn->ibc_cq)) {
			rc = PTR_ERR(conn->ibc_cq);
			conn->ibc_cq = NULL;
			return rc;
		}
	}
	attr.event_handler = kib_qp_event;
	attr.qp_context = conn;
	attr.send_cq = conn->ibc_cq;
	attr.recv_cq = conn->ibc_cq;
	attr.cap.max_send_wr = sq + 1;
	attr.cap.max_recv_wr = nrx + 1;
	attr.cap.max_send_sge = net->kn_max_send_sge;
	attr.cap.max_recv_sge = 1;
	attr.sq_sig_type = IB_SIGNAL_REQ_WR;
	attr.qp_type = IB_QPT_RC;
	if (READ_ONCE(kib_test_max_recv_wr) &&
	    attr.cap.max_recv_wr > READ_ONCE(kib_test_max_recv_wr))
		rc = -ENOMEM;
	else
		rc = rdma_create_qp(cmid, net->kn_pd, &attr);
	if (rc)
		return rc;
	conn->ibc_qp_created = true;
	conn->ibc_concurrent_sends = sends;
	conn->ibc_nrx = nrx;
	return 0;
}

/**
 * kib_conn_setup() - create the QP and CQ and post the receive buffers
 * @conn: the connection, queue depth proposed (active side: ours; passive
 *	side: the CONNREQ's)
 * @cmid: its rdma_cm id, with its device resolved
 *
 * A V2 connection whose QP the device cannot make at that queue depth
 * takes a quarter less, again, down to KIB_QD_MIN, as Lustre does: the
 * active side then proposes the smaller depth in its CONNREQ, the passive
 * side accepts with it in its CONNACK (spec 5.6: "unless its QP creation
 * forced a smaller queue depth"); the peer adopts it.  V1's is fixed.
 *
 * Context: process (rdma_cm handler).
 * Return: 0 or -errno; what was created is freed by the teardown.
 */
int kib_conn_setup(struct kib_conn *conn, struct rdma_cm_id *cmid)
{
	struct kib_net *net = conn->ibc_net;
	struct ib_device *dev = net->kn_dev;
	int qd = conn->ibc_queue_depth;
	int i, rc;

	if (cmid->device != dev)
		return -ENODEV;
	for (;;) {
		rc = kib_conn_create_qp(conn, cmid, qd);
		if (!rc || !kib_oob_capable(conn->ibc_version) ||
		    qd <= KIB_QD_MIN)
			break;
		qd = max(qd - max(qd / 4, 1), KIB_QD_MIN);
	}
	if (rc)
		return rc;
	if (qd != conn->ibc_queue_depth) {
		char nid[LNET_NIDSTR_SIZE];

		lnet_nid4_to_str(conn->ibc_peer->ibp_nid, nid, sizeof(nid));
		kib_stat_inc(KIB_STAT_QD_SHRUNK);
		pr_info_ratelimited("ko2iblnd: %s: queue depth %d shrunk to %d: the device cannot make a larger QP\n",
				    nid, conn->ibc_queue_depth, qd);
		conn->ibc_queue_depth = qd;
	}

	conn->ibc_rxs = kcalloc(conn->ibc_nrx, sizeof(*conn->ibc_rxs),
				GFP_KERNEL);
	if (!conn->ibc_rxs)
		return -ENOMEM;
	for (i = 0; i < conn->ibc_nrx; i++) {
		struct kib_rx *rx = &conn->ibc_rxs[i];

		rx->rx_conn = conn;
		rx->rx_cqe.done = kib_rx_done;
		INIT_LIST_HEAD(&rx->rx_list);
		rx->rx_msg = kmalloc(IBLND_MSG_SIZE, GFP_KERNEL);
		if (!rx->rx_msg)
			return -ENOMEM;
		rx->rx_dma = ib_dma_map_single(dev, rx->rx_msg, IBLND_MSG_SIZE,
					       DMA_FROM_DEVICE);
		if (ib_dma_mapping_error(dev, rx->rx_dma)) {
			kfree(rx->rx_msg);
			rx->rx_msg = NULL;
			return -ENOMEM;
		}
		rc = kib_post_rx(rx);
		if (rc)
			return rc;
	}
	conn->ibc_credits = qd;
	conn->ibc_reserved = qd;
	return 0;
}

/* Release the QP and CQ kib_conn_setup() created (the id goes after). */
/* A QP whose destruction took longer than this is reported. */
#define KIB_QP_DESTROY_SLOW	(5 * HZ)

static void kib_conn_free_resources(struct kib_conn *conn)
{
	unsigned long start = jiffies;

	if (conn->ibc_qp_created) {
		rdma_destroy_qp(conn->ibc_cmid);
		/*
		 * A driver waits here for its own references to the QP (rxe:
		 * packets it sent or queued, up to 50 s, then a WARN); a
		 * stalled device shows up as this line, with the peer named.
		 */
		if (time_after(jiffies, start + KIB_QP_DESTROY_SLOW))
			pr_warn("ko2iblnd: destroying the QP of a connection to %pI4h on %s took %u ms\n",
				&(u32){ lnet_nid4_addr(conn->ibc_peer->ibp_nid) },
				dev_name(&conn->ibc_cmid->device->dev),
				jiffies_to_msecs(jiffies - start));
	}
	if (conn->ibc_cq)
		ib_free_cq(conn->ibc_cq);
}

/*
 * What to do with a peer once its connection attempt failed, as Lustre's
 * o2iblnd (kiblnd_peer_connect_failed()): retry at once if the peer asked
 * for it (spec 5.7: race, stale, V1, smaller parameters), at most
 * KIB_RETRY_MAX times in a row; wait for its own connection to us if one
 * is being accepted; else fail what waits for a connection (into
 * @zombies) with the attempt's error, so that LNet can resend through
 * another NI or gateway at once instead of seeing a timeout.  No
 * back-off: the next message starts the next attempt at once.  Only an
 * extra connection (conns_per_peer; the peer has others) backs off, the
 * others carrying the traffic meanwhile.
 * Return: true if the peer is unreachable (no connection, none coming):
 * the caller tells LNet (lnet_notify(), routing spec 4.7).
 */
static bool kib_peer_connect_failed_locked(struct kib_peer *peer, int error,
					   struct list_head *zombies)
{
	bool retry = peer->ibp_retry_now;
	struct kib_tx *tx;
	int n = 0;

	peer->ibp_connecting = false;
	peer->ibp_retry_now = false;
	peer->ibp_error = error;
	if (list_empty(&peer->ibp_txq) && list_empty(&peer->ibp_conns)) {
		peer->ibp_retries = 0;
		return false;
	}
	if (retry && peer->ibp_retries < KIB_RETRY_MAX) {
		peer->ibp_retries++;
		kib_peer_connect_locked(peer, 0);
		return false;
	}
	peer->ibp_retries = 0;
	/* An extra connection failed: the others carry the traffic. */
	if (!list_empty(&peer->ibp_conns)) {
		peer->ibp_reconnect_at = jiffies +
					 msecs_to_jiffies(peer->ibp_backoff_ms);
		peer->ibp_backoff_ms = min(peer->ibp_backoff_ms * 2,
					   KIB_RECONNECT_MAX_MS);
		return false;
	}
	if (peer->ibp_accepting)
		return false;
	/* Lustre's classes for a failed connect (spec 3b). */
	list_for_each_entry(tx, &peer->ibp_txq, tx_list) {
		tx->tx_hstatus = error == -ECONNREFUSED ?
			LNET_MSG_STATUS_REMOTE_DROPPED :
			error == -ETIMEDOUT || error == -EHOSTUNREACH ?
			LNET_MSG_STATUS_NETWORK_TIMEOUT :
			LNET_MSG_STATUS_LOCAL_DROPPED;
		n++;
	}
	kib_stat_add(KIB_STAT_TX_CONNECT_FAILED, n);
	list_splice_tail_init(&peer->ibp_txq, zombies);
	return true;
}

/**
 * kib_peer_reconnect_delay() - how long the next attempt must wait
 * @peer: the peer, whose last attempt may have failed
 *
 * Only an extra connection (conns_per_peer) waits after a failed one.
 *
 * Return: jiffies until the end of its reconnect backoff, or 0.
 */
unsigned long kib_peer_reconnect_delay(struct kib_peer *peer)
{
	long left = (long)(peer->ibp_reconnect_at - jiffies);

	return left > 0 ? left : 0;
}

static void kib_conn_teardown(struct work_struct *work)
{
	struct kib_conn *conn = container_of(work, struct kib_conn,
					     ibc_teardown);
	struct kib_net *net = conn->ibc_net;
	struct kib_peer *peer = conn->ibc_peer;
	struct kib_tx *tx, *tmp;
	bool mr_waiting, unreachable = false;
	LIST_HEAD(txs);

	/*
	 * Wait for an rdma_cm handler still building it or replaying its
	 * receives; any later one finds it closing and does nothing.  Not
	 * held below: freeing the CQ flushes CQ work, which (for the MAD
	 * CQ) takes rdma_cm's handler mutex, held around our handler.
	 */
	mutex_lock(&conn->ibc_cm_mutex);
	mutex_unlock(&conn->ibc_cm_mutex);
	if (conn->ibc_qp_created) {
		rdma_disconnect(conn->ibc_cmid);
		/* Every completion, flushed ones included, has run after this. */
		ib_drain_qp(conn->ibc_cmid->qp);
	}

	spin_lock_bh(&net->kn_lock);
	kib_conn_set_state_locked(conn, KIB_CONN_DEAD);
	list_splice_init(&conn->ibc_tx_noops, &txs);
	list_splice_init(&conn->ibc_tx_queue, &txs);
	list_splice_init(&conn->ibc_tx_queue_rsrvd, &txs);
	list_splice_init(&conn->ibc_tx_queue_nocred, &txs);
	list_splice_init(&conn->ibc_tx_queue_mr, &txs);
	list_splice_init(&conn->ibc_active_txs, &txs);
	INIT_LIST_HEAD(&conn->ibc_early_rxs);
	mr_waiting = !list_empty(&conn->ibc_mr_wait);
	list_del_init(&conn->ibc_mr_wait);
	if (!conn->ibc_established) {
		if (conn->ibc_active)
			unreachable =
				kib_peer_connect_failed_locked(peer,
							       conn->ibc_error,
							       &txs);
		else
			peer->ibp_accepting--;
	} else if (list_empty(&peer->ibp_conns) &&
		   !list_empty(&peer->ibp_txq)) {
		kib_peer_connect_locked(peer, 0);
	}
	/* Accepted while we were connecting: our attempt may go now. */
	if (!peer->ibp_accepting && list_empty(&peer->ibp_conns) &&
	    !list_empty(&peer->ibp_txq))
		kib_peer_connect_locked(peer, HZ);
	spin_unlock_bh(&net->kn_lock);
	if (unreachable) {
		struct lnet_nid nid;

		lnet_nid4_to_nid(peer->ibp_nid, &nid);
		lnet_notify(net->kn_ni, &nid, false);
	}

	list_for_each_entry_safe(tx, tmp, &txs, tx_list) {
		list_del(&tx->tx_list);
		tx->tx_queued = false;
		tx->tx_waiting = false;
		if (!tx->tx_status)
			tx->tx_status = conn->ibc_error ?: -ECONNABORTED;
		kib_tx_done(tx);
	}
	if (mr_waiting)
		kib_conn_put(conn);	/* kn_mr_waiters' reference */
	kib_conn_free_resources(conn);
	/* Waits for a handler of the id that is still running. */
	if (conn->ibc_cmid)
		rdma_destroy_id(conn->ibc_cmid);
	kib_stat_inc(KIB_STAT_CONNS_CLOSED);
	kib_conn_put(conn);
}

/**
 * kib_conn_set_state_locked() - the one place a connection changes state
 * @conn: the connection
 * @state: its next state; see struct kib_conn for the legal moves
 */
void kib_conn_set_state_locked(struct kib_conn *conn,
			       enum kib_conn_state state)
{
	static const u8 legal[] = {
		[KIB_CONN_CONNECTING]	= BIT(KIB_CONN_ESTABLISHED) |
					  BIT(KIB_CONN_CLOSING),
		[KIB_CONN_ACCEPTED]	= BIT(KIB_CONN_ESTABLISHED) |
					  BIT(KIB_CONN_CLOSING),
		[KIB_CONN_ESTABLISHED]	= BIT(KIB_CONN_CLOSING),
		[KIB_CONN_CLOSING]	= BIT(KIB_CONN_DEAD),
		[KIB_CONN_DEAD]		= 0,
	};

	lockdep_assert_held(&conn->ibc_net->kn_lock);
	WARN_ONCE(!(legal[conn->ibc_state] & BIT(state)),
		  "ko2iblnd: connection state %d -> %d\n", conn->ibc_state,
		  state);
	WRITE_ONCE(conn->ibc_state, state);
}

/**
 * kib_conn_closing() - is the connection closing or closed?
 * @conn: the connection
 *
 * Return: true once kib_conn_close*() ran: the teardown owns it.
 */
bool kib_conn_closing(const struct kib_conn *conn)
{
	return READ_ONCE(conn->ibc_state) >= KIB_CONN_CLOSING;
}

/**
 * kib_conn_close_locked() - close a connection (once), queue its teardown
 * @conn: the connection
 * @error: why; its messages fail with it
 */
void kib_conn_close_locked(struct kib_conn *conn, int error)
{
	if (conn->ibc_state >= KIB_CONN_CLOSING)
		return;
	if (conn->ibc_state == KIB_CONN_ESTABLISHED) {
		kib_stat_add(KIB_STAT_CONNS_ACTIVE, -1);
		kib_conn_trace(conn, false, error);
		pr_debug("ko2iblnd: closing conn to %llx: %d\n",
			 conn->ibc_peer->ibp_nid, error);
	}
	kib_conn_set_state_locked(conn, KIB_CONN_CLOSING);
	conn->ibc_error = error;
	list_del_init(&conn->ibc_list);
	/* The peer list's reference passes to the teardown. */
	INIT_WORK(&conn->ibc_teardown, kib_conn_teardown);
	queue_work(kib_wq, &conn->ibc_teardown);
}

/**
 * kib_conn_close() - kib_conn_close_locked() taking the lock
 * @conn: the connection
 * @error: why
 */
void kib_conn_close(struct kib_conn *conn, int error)
{
	struct kib_net *net = conn->ibc_net;

	spin_lock_bh(&net->kn_lock);
	kib_conn_close_locked(conn, error);
	spin_unlock_bh(&net->kn_lock);
}

/**
 * kib_peer_close_conns_locked() - close every connection of a peer
 * @peer: the peer
 * @error: why
 */
void kib_peer_close_conns_locked(struct kib_peer *peer, int error)
{
	struct kib_conn *conn, *tmp;

	list_for_each_entry_safe(conn, tmp, &peer->ibp_conns, ibc_list)
		kib_conn_close_locked(conn, error);
}

/**
 * kib_peer_close_conns_old_locked() - close the connections of a peer's
 *	previous incarnation
 * @peer: the peer, which restarted
 * @keep: its new connection
 */
void kib_peer_close_conns_old_locked(struct kib_peer *peer,
				     struct kib_conn *keep)
{
	struct kib_conn *conn, *tmp;

	list_for_each_entry_safe(conn, tmp, &peer->ibp_conns, ibc_list)
		if (conn != keep)
			kib_conn_close_locked(conn, -ESTALE);
}

/**
 * kib_conn_established() - the connection is up: send what waits
 * @conn: the connection, ESTABLISHED event processed (CONNACK checked)
 *
 * Context: process (rdma_cm handler, holding ibc_cm_mutex).
 */
void kib_conn_established(struct kib_conn *conn)
{
	struct kib_net *net = conn->ibc_net;
	struct kib_peer *peer = conn->ibc_peer;
	unsigned long deadline = jiffies + lnet_secs_to_jiffies(kib_timeout());
	struct kib_rx *rx, *rtmp;
	struct kib_tx *tx, *tmp;
	unsigned int delay;
	LIST_HEAD(rxs);
	LIST_HEAD(txs);

	delay = xchg(&kib_test_established_delay_ms, 0);
	if (delay)
		msleep(delay);
	spin_lock_bh(&net->kn_lock);
	if (conn->ibc_state >= KIB_CONN_CLOSING) {
		spin_unlock_bh(&net->kn_lock);
		return;
	}
	if (conn->ibc_active)
		peer->ibp_connecting = false;
	else
		peer->ibp_accepting--;
	kib_conn_set_state_locked(conn, KIB_CONN_ESTABLISHED);
	conn->ibc_established = true;
	conn->ibc_last_send = jiffies;
	peer->ibp_backoff_ms = KIB_RECONNECT_MIN_MS;
	peer->ibp_reconnect_at = jiffies;
	peer->ibp_error = 0;
	peer->ibp_races = 0;
	peer->ibp_retries = 0;
	if (conn->ibc_active)
		kib_peer_connect_more_locked(peer);
	kib_stat_inc(KIB_STAT_CONNS_ACTIVE);
	kib_stat_inc(KIB_STAT_CONNS_CREATED);
	kib_conn_trace(conn, true, 0);
	list_splice_init(&peer->ibp_txq, &txs);
	list_splice_init(&conn->ibc_early_rxs, &rxs);
	kref_get(&conn->ibc_ref);
	spin_unlock_bh(&net->kn_lock);

	list_for_each_entry_safe(tx, tmp, &txs, tx_list) {
		list_del(&tx->tx_list);
		tx->tx_deadline = deadline;
		kib_queue_tx(conn, tx);
	}
	/*
	 * Under the handler's ibc_cm_mutex, which the teardown waits for: a
	 * replayed receive that closes the connection does not free the
	 * ones after it, which are dropped.
	 */
	list_for_each_entry_safe(rx, rtmp, &rxs, rx_list) {
		list_del_init(&rx->rx_list);
		if (kib_conn_closing(conn))
			continue;
		kib_handle_rx(rx);
		if (delay)
			msleep(delay / 10);
	}
	kib_check_sends(conn);
	kib_conn_put(conn);
}

/**
 * kib_net_close_all() - close every connection of an NI, fail what waits
 *	for one
 * @net: the NI, kn_down set: no peer, connection or queued message can
 *	be added any more
 */
void kib_net_close_all(struct kib_net *net)
{
	struct kib_peer *peer;
	LIST_HEAD(txs);

	spin_lock_bh(&net->kn_lock);
	list_for_each_entry(peer, &net->kn_peers, ibp_list) {
		kib_peer_close_conns_locked(peer, net->kn_down);
		list_splice_tail_init(&peer->ibp_txq, &txs);
	}
	spin_unlock_bh(&net->kn_lock);
	kib_txlist_done(&txs, net->kn_down);
}

static struct kib_tx *kib_txlist_late(struct list_head *txs,
				      bool waiting_too)
{
	struct kib_tx *tx;

	list_for_each_entry(tx, txs, tx_list)
		if ((tx->tx_queued || (waiting_too && tx->tx_waiting)) &&
		    time_after_eq(jiffies, tx->tx_deadline))
			return tx;
	return NULL;
}

/*
 * A message queued or a transaction waiting too long closes @conn.
 * Return: the late tx, and in @where the list it is on.
 */
static struct kib_tx *kib_conn_late_tx_locked(struct kib_conn *conn,
					      const char **where)
{
	static const char * const names[] = {
		"queued", "queued for a reserved credit", "queued (no credit)",
		"waiting for an MR", "posted or waiting for the peer",
	};
	struct list_head *lists[] = {
		&conn->ibc_tx_queue, &conn->ibc_tx_queue_rsrvd,
		&conn->ibc_tx_queue_nocred, &conn->ibc_tx_queue_mr,
		&conn->ibc_active_txs,
	};
	struct kib_tx *tx;
	int i;

	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		tx = kib_txlist_late(lists[i], i == ARRAY_SIZE(lists) - 1);
		if (tx) {
			*where = names[i];
			return tx;
		}
	}
	return NULL;
}

/*
 * Say what timed out and the connection's flow-control state: a stall
 * is a lost credit, a send never completed or an MR never freed, and
 * which one shows only here.
 */
static void kib_report_late_tx_locked(struct kib_conn *conn,
				      const struct kib_tx *tx,
				      const char *where)
{
	struct kib_mr_pool_stats mr = {};

	if (conn->ibc_net->kn_mr_pool)
		kib_mr_pool_stats(conn->ibc_net->kn_mr_pool, &mr);
	pr_warn("ko2iblnd: timed out tx to %pI4h, closing: type 0x%x %s (sending %d waiting %d); conn credits %d outstanding %d reserved %d sends posted %d/%d noops posted %d; MR pool %u of %u in use\n",
		&(u32){ lnet_nid4_addr(conn->ibc_peer->ibp_nid) },
		tx->tx_type, where, tx->tx_sending, tx->tx_waiting,
		conn->ibc_credits, conn->ibc_outstanding, conn->ibc_reserved,
		conn->ibc_nsends_posted, conn->ibc_concurrent_sends,
		conn->ibc_noops_posted, mr.in_use, mr.total);
}

/**
 * kib_reaper() - once a second: timeouts, keepalive, idle peers
 * @work: kn_reaper
 */
void kib_reaper(struct work_struct *work)
{
	struct kib_net *net = container_of(to_delayed_work(work),
					   struct kib_net, kn_reaper);
	unsigned long ka = lnet_secs_to_jiffies(READ_ONCE(kib_tun.keepalive));
	struct kib_conn *conn, *keep[16];
	struct kib_peer *peer, *ptmp;
	struct kib_tx *tx, *tmp;
	const char *where;
	int nkeep = 0, i;
	LIST_HEAD(late);

	spin_lock_bh(&net->kn_lock);
	list_for_each_entry_safe(peer, ptmp, &net->kn_peers, ibp_list) {
		if (kib_peer_forget_idle_locked(peer))
			continue;
		list_for_each_entry_safe(tx, tmp, &peer->ibp_txq, tx_list) {
			if (time_before(jiffies, tx->tx_deadline))
				continue;
			tx->tx_status = peer->ibp_error ?: -ETIMEDOUT;
			/* Waited past its deadline for a connection (3b). */
			tx->tx_hstatus = LNET_MSG_STATUS_NETWORK_TIMEOUT;
			list_move_tail(&tx->tx_list, &late);
		}
		list_for_each_entry(conn, &peer->ibp_conns, ibc_list) {
			if (conn->ibc_state != KIB_CONN_ESTABLISHED)
				continue;
			tx = kib_conn_late_tx_locked(conn, &where);
			if (tx) {
				kib_stat_inc(KIB_STAT_TX_TIMEOUT);
				kib_report_late_tx_locked(conn, tx, where);
				kib_conn_close_locked(conn, -ETIMEDOUT);
				break;	/* the list changed */
			}
			if (ka && time_after_eq(jiffies,
						conn->ibc_last_send + ka) &&
			    nkeep < ARRAY_SIZE(keep)) {
				kref_get(&conn->ibc_ref);
				keep[nkeep++] = conn;
			}
		}
	}
	spin_unlock_bh(&net->kn_lock);

	kib_txlist_done(&late, -ETIMEDOUT);
	for (i = 0; i < nkeep; i++) {
		kib_check_sends(keep[i]);
		kib_conn_put(keep[i]);
	}
	if (!READ_ONCE(net->kn_down))
		queue_delayed_work(kib_wq, &net->kn_reaper, HZ);
}
