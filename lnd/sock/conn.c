// SPDX-License-Identifier: GPL-2.0
/*
 * Peers and connections: which connections a peer gets (spec 4.2), the
 * admission rules for a new one (race, duplicate, incarnation and version,
 * spec 4.6), starting it (socket options and callbacks), closing it and
 * tearing it down.
 *
 * A connection to our own NID (a recovery ping of this NI, spec features
 * 3c) is one socket pair whose two ends are both ours: the one we opened
 * and the one we accepted join the same peer, each with the other's
 * inverse type, as in Lustre's socklnd (which lets such a loopback
 * connection duplicate any).  Each end is an ordinary connection: closed
 * and torn down on its own, the other end then seeing the close.
 *
 * A connection lives in its peer's list from admission to close, and is
 * started (callbacks installed, works queued) in the same critical
 * section that admits it: nobody ever finds a connection half started.
 * Close only marks it and queues the teardown, which runs on the connd
 * workqueue: it takes the socket callbacks back, waits for the rx and tx
 * work, fails what was queued or being received, and frees it.  So the
 * rx and tx work never race with the free, and close can be called from
 * anywhere, the rx and tx work included.
 */
#include <linux/slab.h>
#include <linux/tcp.h>
#include <net/ip.h>
#include <net/sock.h>
#include <net/tcp.h>

#include <lnet/trace.h>

#include "socklnd.h"

/**
 * ksock_peer_find_locked() - the peer with NID @nid
 * @net: our NI
 * @nid: its NID
 *
 * Return: the peer, or NULL.
 */
struct ksock_peer *ksock_peer_find_locked(struct ksock_net *net,
					  const struct lnet_nid *nid)
{
	return rhashtable_lookup_fast(&net->ksn_peer_table, nid,
				      ksock_peer_params);
}

const struct rhashtable_params ksock_peer_params = {
	.key_len		= sizeof(struct lnet_nid),
	.key_offset		= offsetof(struct ksock_peer, ksp_nid),
	.head_offset		= offsetof(struct ksock_peer, ksp_node),
	.hashfn			= lnet_nid_rht_hashfn,
	.obj_cmpfn		= lnet_nid_rht_cmpfn,
	.automatic_shrinking	= true,
};

/**
 * ksock_peer_put_locked() - drop a reference to @peer
 * @peer: the peer; the reaper may free it once this was the last
 */
void ksock_peer_put_locked(struct ksock_peer *peer)
{
	WARN_ON(peer->ksp_refs <= 0);
	peer->ksp_refs--;
	peer->ksp_last_used = jiffies;
}

/* Nothing refers to @peer or waits on it, for @idle jiffies. */
static bool ksock_peer_idle_locked(const struct ksock_peer *peer,
				   unsigned long idle)
{
	/* Its connections hold references until their teardown ends. */
	return !peer->ksp_refs &&
	       list_empty(&peer->ksp_txq) && list_empty(&peer->ksp_zc_reqs) &&
	       !peer->ksp_connecting &&
	       !delayed_work_pending(&peer->ksp_connect_work) &&
	       time_after(jiffies, peer->ksp_reconnect_at) &&
	       time_after(jiffies, peer->ksp_last_used + idle);
}

/**
 * ksock_peers_reap_locked() - unlink the peers idle for sock_timeout
 * @net: the NI
 * @dead: they are moved here, marked dead, for ksock_peers_free()
 *
 * Nobody can find them any more; a connect work that was about to run
 * sees ksp_dead and does nothing.
 */
void ksock_peers_reap_locked(struct ksock_net *net, struct list_head *dead)
{
	unsigned long idle = lnet_secs_to_jiffies(ksock_timeout());
	struct ksock_peer *peer, *tmp;

	list_for_each_entry_safe(peer, tmp, &net->ksn_peers, ksp_list) {
		if (!ksock_peer_idle_locked(peer, idle))
			continue;
		peer->ksp_dead = true;
		rhashtable_remove_fast(&net->ksn_peer_table, &peer->ksp_node,
				       ksock_peer_params);
		list_move_tail(&peer->ksp_list, dead);
	}
}

/**
 * ksock_peers_free() - free peers that ksock_peers_reap_locked() unlinked
 * @dead: the list it filled
 *
 * Context: Process context, no lock held (waits for their connect work).
 */
void ksock_peers_free(struct list_head *dead)
{
	struct ksock_peer *peer, *tmp;

	list_for_each_entry_safe(peer, tmp, dead, ksp_list) {
		cancel_delayed_work_sync(&peer->ksp_connect_work);
		list_del(&peer->ksp_list);
		atomic64_dec(&ksock_stats[KSOCK_STAT_PEERS]);
		kfree(peer);
	}
}

/**
 * ksock_peer_get_locked() - find or create the peer with NID @nid
 * @net: our NI, not shutting down
 * @nid: its NID; its address is the peer's IPv4 address
 * @pid: its PID
 *
 * Return: the peer, or NULL without memory or when @net is stopping.
 */
struct ksock_peer *ksock_peer_get_locked(struct ksock_net *net,
					 const struct lnet_nid *nid, u32 pid)
{
	struct ksock_peer *peer = ksock_peer_find_locked(net, nid);

	if (peer || net->ksn_shutdown)
		return peer;
	peer = kzalloc(sizeof(*peer), GFP_ATOMIC);
	if (!peer)
		return NULL;
	peer->ksp_net = net;
	peer->ksp_nid = *nid;
	peer->ksp_pid = pid;
	peer->ksp_ip = nid->nid_addr[0];
	INIT_LIST_HEAD(&peer->ksp_conns);
	INIT_LIST_HEAD(&peer->ksp_txq);
	peer->ksp_backoff_ms = ksock_tun.min_reconnectms;
	peer->ksp_reconnect_at = jiffies;
	peer->ksp_last_alive = jiffies;
	peer->ksp_last_keepalive = jiffies;
	INIT_DELAYED_WORK(&peer->ksp_connect_work, ksock_connect_work);
	INIT_LIST_HEAD(&peer->ksp_zc_reqs);
	peer->ksp_zc_next_cookie = KSOCK_ZC_FIRST_COOKIE;
	peer->ksp_last_used = jiffies;
	if (rhashtable_insert_fast(&net->ksn_peer_table, &peer->ksp_node,
				   ksock_peer_params)) {
		kfree(peer);
		return NULL;
	}
	list_add_tail(&peer->ksp_list, &net->ksn_peers);
	atomic64_inc(&ksock_stats[KSOCK_STAT_PEERS]);
	return peer;
}

/**
 * ksock_conns_wanted() - how many connections of @type a peer gets
 * @net: our NI
 * @type: from our side
 *
 * Return: 1 CONTROL and conns_per_peer of each bulk type with typed
 * connections; one ANY without.
 */
unsigned int ksock_conns_wanted(const struct ksock_net *net, u32 type)
{
	if (!ksock_tun.typed_conns)
		return type == KSOCK_CONN_ANY;
	switch (type) {
	case KSOCK_CONN_CONTROL:
		return 1;
	case KSOCK_CONN_BULK_IN:
	case KSOCK_CONN_BULK_OUT:
		/* "net set --conns-per-peer" changes it under us */
		return READ_ONCE(net->ksn_ni->ni_tunables.conns_per_peer);
	default:
		return 0;
	}
}

/**
 * ksock_peer_nconns_locked() - @peer's connections of @type, and the
 *	accepted passive handshakes that will start one
 * @peer: the peer
 * @type: KSOCK_CONN_*
 *
 * Return: their number.
 */
unsigned int ksock_peer_nconns_locked(const struct ksock_peer *peer, u32 type)
{
	const struct ksock_conn *conn;
	unsigned int n = peer->ksp_accepting[type];

	list_for_each_entry(conn, &peer->ksp_conns, ksc_list)
		n += conn->ksc_type == type;
	return n;
}

/* A changed incarnation or version: the peer restarted. */
static bool ksock_peer_restarted_locked(struct ksock_peer *peer,
					const struct ksock_hello *hello)
{
	if (!peer->ksp_version ||
	    (peer->ksp_incarnation == hello->src_incarnation &&
	     peer->ksp_version == hello->version))
		return false;
	ksock_peer_close_conns_locked(peer, -ECONNRESET);
	peer->ksp_version = 0;
	return true;
}

/**
 * ksock_conn_admit_locked() - may a connection join @peer? (spec 4.6)
 * @peer: the peer
 * @hello: the peer's HELLO
 * @type: the connection's type from our side
 * @passive: we accepted it (else we opened it)
 * @self: a connection to ourselves (ksock_sock_is_self())
 *
 * A changed incarnation or version means the peer restarted: its old
 * connections are closed.  Passive side: refused then, and refused when
 * the peer's NID is lower than ours while we are connecting to it (the
 * higher NID's connection wins the race), or as a duplicate.  A
 * connection to ourselves is in the peer's list twice, as opened and as
 * accepted: its other end is no duplicate, so twice the number of each
 * type is allowed there.
 *
 * Return: 0 to accept, -EALREADY to refuse (a NONE reply), -ESHUTDOWN.
 */
int ksock_conn_admit_locked(struct ksock_peer *peer,
			    const struct ksock_hello *hello, u32 type,
			    bool passive, bool self)
{
	struct ksock_net *net = peer->ksp_net;
	unsigned int limit = max(ksock_conns_wanted(net, type), 1U);

	if (net->ksn_shutdown)
		return -ESHUTDOWN;
	if (ksock_peer_restarted_locked(peer, hello) && passive)
		return -EALREADY;
	if (passive && peer->ksp_connecting &&
	    memcmp(&peer->ksp_nid, &net->ksn_ni->ni_nid,
		   sizeof(struct lnet_nid)) < 0)
		return -EALREADY;
	if (ksock_peer_nconns_locked(peer, type) >= (self ? 2 * limit : limit))
		return -EALREADY;
	return 0;
}

/**
 * ksock_conn_accept_locked() - a passive connection's place is taken
 * @peer: the peer
 * @hello: the peer's HELLO
 * @type: the connection's type from our side
 * @self: a connection to ourselves (ksock_sock_is_self())
 *
 * Admits it (ksock_conn_admit_locked()) and, if admitted, counts it in
 * @peer->ksp_accepting until ksock_conn_accepted_locked(): the "accepted"
 * reply commits us, as Lustre's socklnd, which adds the connection to
 * its peer before replying.  Our own connect work then opens no
 * connection of that type (ksock_peer_nconns_locked() counts it), so
 * neither side refuses, as a duplicate or a lost race, a connection the
 * other side took and may already send on.
 *
 * Return: 0, -EALREADY (refuse with a NONE reply) or -ESHUTDOWN.
 */
int ksock_conn_accept_locked(struct ksock_peer *peer,
			     const struct ksock_hello *hello, u32 type,
			     bool self)
{
	int rc = ksock_conn_admit_locked(peer, hello, type, true, self);

	if (!rc) {
		peer->ksp_accepting[type]++;
		peer->ksp_refs++;
	}
	return rc;
}

/**
 * ksock_conn_accepted_locked() - the end of an accepted passive handshake
 * @peer: the peer (ksock_conn_accept_locked() took its place)
 * @hello: the peer's HELLO
 * @type: the connection's type from our side
 * @conn: the connection, NULL if the reply or the allocation failed
 *
 * Starts @conn unless the NI is shutting down or the peer restarted in
 * the meantime (the reply's race and duplicate checks are not made
 * again: they were decided before the reply).  Gives the place back; if
 * no connection starts and messages wait, another attempt is made.
 *
 * Return: 0 if @conn started (the caller must not touch it), -errno.
 */
int ksock_conn_accepted_locked(struct ksock_peer *peer,
			       const struct ksock_hello *hello, u32 type,
			       struct ksock_conn *conn)
{
	int rc = -EIO;

	peer->ksp_accepting[type]--;
	if (peer->ksp_net->ksn_shutdown)
		rc = -ESHUTDOWN;
	else if (conn && !ksock_peer_restarted_locked(peer, hello))
		rc = 0;
	if (!rc) {
		if (!peer->ksp_version) {
			peer->ksp_version = hello->version;
			peer->ksp_incarnation = hello->src_incarnation;
		}
		ksock_conn_start_locked(peer, conn);
	} else if (!list_empty(&peer->ksp_txq)) {
		ksock_peer_connect_locked(peer);
	}
	ksock_peer_put_locked(peer);
	return rc;
}

/**
 * ksock_sock_is_self() - does @sock connect this node to itself?
 * @sock: a connected IPv4 socket
 *
 * Both ends on one address: a connection to one of our own NIDs.  The
 * addresses say so, not a HELLO, which a remote peer could fill with
 * our NID.
 *
 * Context: Process context, no spinlock held: it takes the socket's lock.
 * Return: true if its local and remote addresses are the same.
 */
bool ksock_sock_is_self(struct socket *sock)
{
	struct sockaddr_in me, them;

	might_sleep();
	if (kernel_getsockname(sock, (struct sockaddr *)&me) < 0 ||
	    kernel_getpeername(sock, (struct sockaddr *)&them) < 0)
		return false;
	return me.sin_addr.s_addr == them.sin_addr.s_addr;
}

/**
 * ksock_conn_alloc() - a connection for a socket that finished its HELLO
 * @sock: the socket; owned by the connection from now on
 * @type: its type from our side
 * @version: protocol version
 * @flip: the peer's byte order is not ours
 *
 * Return: the connection, or NULL without memory.
 */
struct ksock_conn *ksock_conn_alloc(struct socket *sock, u32 type,
				    u32 version, bool flip)
{
	struct ksock_conn *conn = kzalloc(sizeof(*conn), GFP_KERNEL);

	if (!conn)
		return NULL;
	conn->ksc_sock = sock;
	conn->ksc_type = type;
	conn->ksc_version = version;
	conn->ksc_flip = flip;
	INIT_LIST_HEAD(&conn->ksc_list);
	INIT_LIST_HEAD(&conn->ksc_txq);
	INIT_WORK(&conn->ksc_tx_work, ksock_tx_work);
	INIT_WORK(&conn->ksc_rx_work, ksock_rx_work);
	INIT_LIST_HEAD(&conn->ksc_ack_tx.tx_list);
	INIT_LIST_HEAD(&conn->ksc_ack_tx.tx_zc_list);
	conn->ksc_ack_tx.tx_ack_noop = true;
	conn->ksc_ack_tx.tx_nob = KSOCK_MSG_HDR_SIZE;
	iov_iter_kvec(&conn->ksc_ack_tx.tx_payload, ITER_SOURCE, NULL, 0, 0);
	ksock_rx_reset(conn);
	spin_lock_init(&conn->ksc_rx_lock);
	refcount_set(&conn->ksc_refs, 1);
	conn->ksc_rx_last = jiffies;
	conn->ksc_tx_last = jiffies;
	return conn;
}

/**
 * ksock_conn_put() - drop a reference; the last one frees it
 * @conn: a connection whose teardown ran, or that LNet still holds a
 *	message of (its socket already released)
 */
void ksock_conn_put(struct ksock_conn *conn)
{
	if (refcount_dec_and_test(&conn->ksc_refs))
		kfree(conn);
}

/* Free a connection that never started (no callbacks, not listed). */
void ksock_conn_free(struct ksock_conn *conn)
{
	sock_release(conn->ksc_sock);
	kfree(conn);
}

/**
 * ksock_sock_setup() - socket options Lustre uses (spec 4.6, end)
 * @sock: a connected socket
 */
void ksock_sock_setup(struct socket *sock)
{
	struct sock *sk = sock->sk;

	if (!ksock_tun.nagle)
		tcp_sock_set_nodelay(sk);
	sock_no_linger(sk);
	if (ksock_tun.keepalive_idle > 0 && ksock_tun.keepalive_count > 0 &&
	    ksock_tun.keepalive_intvl > 0) {
		sock_set_keepalive(sk);
		tcp_sock_set_keepidle(sk, ksock_tun.keepalive_idle);
		tcp_sock_set_keepintvl(sk, ksock_tun.keepalive_intvl);
		tcp_sock_set_keepcnt(sk, ksock_tun.keepalive_count);
	}
	if (ksock_tun.tx_buffer_size > 0) {
		lock_sock(sk);
		sk->sk_sndbuf = ksock_tun.tx_buffer_size;
		sk->sk_userlocks |= SOCK_SNDBUF_LOCK;
		release_sock(sk);
	}
	if (ksock_tun.rx_buffer_size > 0)
		sock_set_rcvbuf(sk, ksock_tun.rx_buffer_size);
}

/**
 * ksock_sock_set_tos() - the NI's IP ToS byte on one of its sockets
 * @net: the NI
 * @sock: a socket it is about to connect, or one the acceptor handed over
 *
 * Set before the handshake, so that all of a connection's packets carry
 * it (IPv4 only: ksocklnd has no IPv6 connections).  tos -1: none.
 */
void ksock_sock_set_tos(struct ksock_net *net, struct socket *sock)
{
	int tos = net->ksn_ni->ni_tunables.tos;

	if (tos >= 0)
		ip_sock_set_tos(sock->sk, tos);
}

/*
 * Data arrived, or (as sk_state_change) the peer closed or reset the
 * connection: either way the rx work reads what there is, the end too.
 */
static void ksock_data_ready(struct sock *sk)
{
	struct ksock_conn *conn;

	read_lock_bh(&sk->sk_callback_lock);
	conn = sk->sk_user_data;
	if (conn)
		queue_work(ksock_sched_wq, &conn->ksc_rx_work);
	read_unlock_bh(&sk->sk_callback_lock);
}

static void ksock_write_space(struct sock *sk)
{
	struct ksock_conn *conn;

	read_lock_bh(&sk->sk_callback_lock);
	conn = sk->sk_user_data;
	if (conn && sk_stream_is_writeable(sk)) {
		clear_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
		queue_work(ksock_sched_wq, &conn->ksc_tx_work);
	}
	read_unlock_bh(&sk->sk_callback_lock);
}

static void ksock_callbacks_set(struct ksock_conn *conn)
{
	struct sock *sk = conn->ksc_sock->sk;

	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_user_data = conn;
	conn->ksc_saved_data_ready = sk->sk_data_ready;
	conn->ksc_saved_write_space = sk->sk_write_space;
	conn->ksc_saved_state_change = sk->sk_state_change;
	sk->sk_data_ready = ksock_data_ready;
	sk->sk_write_space = ksock_write_space;
	sk->sk_state_change = ksock_data_ready;
	write_unlock_bh(&sk->sk_callback_lock);
}

static void ksock_callbacks_reset(struct ksock_conn *conn)
{
	struct sock *sk = conn->ksc_sock->sk;

	write_lock_bh(&sk->sk_callback_lock);
	sk->sk_user_data = NULL;
	sk->sk_data_ready = conn->ksc_saved_data_ready;
	sk->sk_write_space = conn->ksc_saved_write_space;
	sk->sk_state_change = conn->ksc_saved_state_change;
	write_unlock_bh(&sk->sk_callback_lock);
}

/**
 * ksock_conn_start_locked() - an admitted connection joins @peer, started
 * @peer: its peer
 * @conn: the connection, its socket set up (ksock_sock_setup())
 *
 * The connection is complete before it becomes visible: callbacks
 * installed, ready, in @peer's list, its works queued, all under the
 * NI's lock.  So whoever finds it (a sender, a close by a restarting
 * peer) finds a started connection, and its teardown undoes all of it;
 * the caller must not touch @conn after unlocking.
 */
void ksock_conn_start_locked(struct ksock_peer *peer, struct ksock_conn *conn)
{
	conn->ksc_peer = peer;
	peer->ksp_refs++;	/* until the end of its teardown */
	ksock_callbacks_set(conn);
	atomic64_inc(&ksock_stats[KSOCK_STAT_CONNS_ACTIVE]);
	ksock_stat_inc(KSOCK_STAT_CONNS_CREATED);
	trace_lnet_conn("socklnd", &peer->ksp_net->ksn_ni->ni_nid,
			&peer->ksp_nid, true, 0);
	list_add_tail(&conn->ksc_list, &peer->ksp_conns);
	peer->ksp_backoff_ms = ksock_tun.min_reconnectms;
	peer->ksp_connect_failed = false;
	peer->ksp_last_alive = jiffies;
	ksock_peer_send_queued_locked(peer);
	queue_work(ksock_sched_wq, &conn->ksc_rx_work);
	queue_work(ksock_sched_wq, &conn->ksc_tx_work);
}

static void ksock_conn_teardown(struct work_struct *work)
{
	struct ksock_conn *conn = container_of(work, struct ksock_conn,
					       ksc_teardown);
	struct ksock_peer *peer = conn->ksc_peer;
	struct ksock_net *net = peer->ksp_net;
	struct lnet_msg *rx_msg;
	LIST_HEAD(txs);

	ksock_callbacks_reset(conn);
	kernel_sock_shutdown(conn->ksc_sock, SHUT_RDWR);
	/*
	 * From now on a message LNet held (rx.c) is failed by its own
	 * ksock_recv(); one resumed before is in ksc_rx_msg below.
	 */
	spin_lock_bh(&conn->ksc_rx_lock);
	conn->ksc_rx_closed = true;
	spin_unlock_bh(&conn->ksc_rx_lock);
	cancel_work_sync(&conn->ksc_rx_work);
	cancel_work_sync(&conn->ksc_tx_work);

	spin_lock_bh(&net->ksn_lock);
	list_splice_init(&conn->ksc_txq, &txs);
	ksock_zc_conn_abort_locked(conn, &txs);
	rx_msg = conn->ksc_rx_msg;
	conn->ksc_rx_msg = NULL;
	/* Messages still waiting for a connection get a new one. */
	if (!list_empty(&peer->ksp_txq))
		ksock_peer_connect_locked(peer);
	ksock_peer_put_locked(peer);	/* not used below */
	spin_unlock_bh(&net->ksn_lock);

	if (rx_msg)
		lnet_finalize(rx_msg, conn->ksc_error);
	ksock_txlist_done(&txs, conn->ksc_error);
	atomic64_dec(&ksock_stats[KSOCK_STAT_CONNS_ACTIVE]);
	ksock_stat_inc(KSOCK_STAT_CONNS_CLOSED);
	sock_release(conn->ksc_sock);
	ksock_conn_put(conn);
	ksock_connd_work_done(net);
}

/**
 * ksock_conn_close_locked() - close a connection
 * @conn: a connection in its peer's list
 * @error: status for the messages it carried: -ETIMEDOUT for a network
 *	timeout, -ECONNRESET for the peer, -ENETDOWN/-ESHUTDOWN for us
 *
 * Idempotent.  The teardown runs later, on the connd workqueue.
 */
void ksock_conn_close_locked(struct ksock_conn *conn, int error)
{
	if (conn->ksc_closing)
		return;
	conn->ksc_closing = true;
	conn->ksc_error = error;
	trace_lnet_conn("socklnd", &conn->ksc_peer->ksp_net->ksn_ni->ni_nid,
			&conn->ksc_peer->ksp_nid, false, error);
	list_del_init(&conn->ksc_list);
	/*
	 * No connection left: the next one renegotiates the version and
	 * brings the incarnation, as in Lustre (a peer that restarted after
	 * all its connections closed is not refused as stale).
	 */
	if (list_empty(&conn->ksc_peer->ksp_conns))
		conn->ksc_peer->ksp_version = 0;
	INIT_WORK(&conn->ksc_teardown, ksock_conn_teardown);
	ksock_connd_queue(conn->ksc_peer->ksp_net, &conn->ksc_teardown);
}

/**
 * ksock_conn_close() - close a connection, taking the NI's lock
 * @conn: the connection
 * @error: as for ksock_conn_close_locked()
 */
void ksock_conn_close(struct ksock_conn *conn, int error)
{
	struct ksock_net *net = conn->ksc_peer->ksp_net;

	spin_lock_bh(&net->ksn_lock);
	ksock_conn_close_locked(conn, error);
	spin_unlock_bh(&net->ksn_lock);
}

/**
 * ksock_peer_close_conns_locked() - close every connection of @peer
 * @peer: the peer
 * @error: as for ksock_conn_close_locked()
 */
void ksock_peer_close_conns_locked(struct ksock_peer *peer, int error)
{
	struct ksock_conn *conn, *tmp;

	list_for_each_entry_safe(conn, tmp, &peer->ksp_conns, ksc_list)
		ksock_conn_close_locked(conn, error);
}

/**
 * ksock_net_close_all() - close every connection of the NI
 * @net: the NI, shutting down
 */
void ksock_net_close_all(struct ksock_net *net)
{
	struct ksock_peer *peer;

	spin_lock_bh(&net->ksn_lock);
	list_for_each_entry(peer, &net->ksn_peers, ksp_list)
		ksock_peer_close_conns_locked(peer, -ESHUTDOWN);
	spin_unlock_bh(&net->ksn_lock);
}
