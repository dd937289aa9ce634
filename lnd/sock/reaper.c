// SPDX-License-Identifier: GPL-2.0
/*
 * Once a second per NI: close connections that made no progress for
 * sock_timeout (spec 4.12) -- a message partly received, data queued but
 * not taken by the socket, data in the socket not acknowledged by TCP, a
 * zero-copy request not acknowledged by the peer --, fail messages that
 * waited that long for a connection, send keepalive NOOPs to peers
 * silent for keepalive seconds (spec 4.9), and free the peers idle for
 * sock_timeout.
 */
#include <linux/tcp.h>
#include <net/sock.h>

#include "socklnd.h"

#define KSOCK_KEEPALIVE_RETRY	(10 * HZ)

/* Timed out?  Returns the status to close with, or 0. */
static int ksock_conn_timed_out(struct ksock_conn *conn, unsigned long limit)
{
	struct sock *sk = conn->ksc_sock->sk;
	u32 snd_una = READ_ONCE(tcp_sk(sk)->snd_una);
	enum ksock_rx_state rx = READ_ONCE(conn->ksc_rx_state);

	/* A message LNet holds for a delay rule is not the peer's stall. */
	if (rx != KSOCK_RX_PARSE_WAIT &&
	    (conn->ksc_rx_got || rx > KSOCK_RX_LNET_HDR ||
	     (rx == KSOCK_RX_LNET_HDR &&
	      conn->ksc_version >= KSOCK_PROTO_V2))) {
		if (time_after(jiffies, READ_ONCE(conn->ksc_rx_last) + limit)) {
			ksock_stat_inc(KSOCK_STAT_RX_TIMEOUT);
			return -ETIMEDOUT;
		}
	}
	if (snd_una != conn->ksc_snd_una) {
		conn->ksc_snd_una = snd_una;
		conn->ksc_tx_last = jiffies;	/* TCP made progress */
	}
	if ((!list_empty(&conn->ksc_txq) || READ_ONCE(sk->sk_wmem_queued)) &&
	    time_after(jiffies, conn->ksc_tx_last + limit)) {
		ksock_stat_inc(KSOCK_STAT_TX_TIMEOUT);
		return -ETIMEDOUT;
	}
	return 0;
}

static void ksock_peer_keepalive_locked(struct ksock_peer *peer)
{
	unsigned long idle =
		lnet_secs_to_jiffies(READ_ONCE(ksock_tun.keepalive));
	struct ksock_conn *conn;
	struct ksock_tx *tx;

	if (!idle || peer->ksp_version < KSOCK_PROTO_V3 ||
	    time_before(jiffies, READ_ONCE(peer->ksp_last_alive) + idle) ||
	    time_before(jiffies, peer->ksp_last_keepalive +
				 KSOCK_KEEPALIVE_RETRY))
		return;
	list_for_each_entry(conn, &peer->ksp_conns, ksc_list) {
		if (conn->ksc_type != KSOCK_CONN_BULK_IN ||
		    !list_empty(&conn->ksc_txq))
			continue;
		tx = ksock_noop_alloc(0, KSOCK_KEEPALIVE_COOKIE);
		if (!tx)
			return;
		ksock_tx_queue_locked(conn, tx);
		peer->ksp_last_keepalive = jiffies;
		ksock_stat_inc(KSOCK_STAT_KEEPALIVE_SENT);
		return;
	}
}

/**
 * ksock_reaper() - the NI's once-a-second check
 * @work: the NI's ksn_reaper
 */
void ksock_reaper(struct work_struct *work)
{
	struct ksock_net *net = container_of(to_delayed_work(work),
					     struct ksock_net, ksn_reaper);
	unsigned long limit = lnet_secs_to_jiffies(ksock_timeout());
	struct ksock_conn *conn, *ctmp;
	struct ksock_tx *tx, *ttmp;
	struct ksock_peer *peer;
	LIST_HEAD(expired);
	LIST_HEAD(dead);
	int rc;

	spin_lock_bh(&net->ksn_lock);
	list_for_each_entry(peer, &net->ksn_peers, ksp_list) {
		list_for_each_entry_safe(conn, ctmp, &peer->ksp_conns,
					 ksc_list) {
			rc = ksock_conn_timed_out(conn, limit);
			if (rc)
				ksock_conn_close_locked(conn, rc);
		}
		list_for_each_entry_safe(tx, ttmp, &peer->ksp_txq, tx_list)
			if (time_after(jiffies, tx->tx_deadline)) {
				/* Queued past its deadline (spec 3b). */
				tx->tx_hstatus =
					LNET_MSG_STATUS_NETWORK_TIMEOUT;
				list_move_tail(&tx->tx_list, &expired);
			}
		ksock_zc_reap_locked(peer);
		ksock_peer_keepalive_locked(peer);
	}
	ksock_peers_reap_locked(net, &dead);
	spin_unlock_bh(&net->ksn_lock);
	ksock_peers_free(&dead);
	ksock_txlist_done(&expired, -ETIMEDOUT);
	queue_delayed_work(ksock_connd_wq, &net->ksn_reaper, HZ);
}
