// SPDX-License-Identifier: GPL-2.0
/*
 * Connection set-up (spec 4.6, 4.7): the HELLO exchange, passive (a
 * socket the acceptor hands us) and active (the connect work of a peer
 * that lacks connections).  Both block on the socket with timeouts, on
 * the connd workqueue, never on the data path.
 *
 * While a socket is in a handshake it is in the NI's handshake list, so
 * that stopping the NI can shut it down and end any wait at once.
 */
#include <linux/in.h>
#include <linux/slab.h>

#include "socklnd.h"

#define KSOCK_USERSPACE_PID_FLAG	0x80000000U	/* LNET_PID_USERFLAG */

struct ksock_hs {
	struct list_head	hs_list;
	struct ksock_net	*hs_net;
	struct socket		*hs_sock;
	bool			hs_listed;
};

static int ksock_hs_register(struct ksock_net *net, struct ksock_hs *hs,
			     struct socket *sock)
{
	int rc = 0;

	hs->hs_sock = sock;
	mutex_lock(&net->ksn_hs_mutex);
	spin_lock_bh(&net->ksn_lock);
	if (net->ksn_shutdown)
		rc = -ESHUTDOWN;
	spin_unlock_bh(&net->ksn_lock);
	if (!rc)
		list_add_tail(&hs->hs_list, &net->ksn_handshakes);
	hs->hs_listed = !rc;
	mutex_unlock(&net->ksn_hs_mutex);
	return rc;
}

/* Before a connection owns the socket, or it is released. */
static void ksock_hs_unregister(struct ksock_net *net, struct ksock_hs *hs)
{
	if (!hs->hs_listed)
		return;
	mutex_lock(&net->ksn_hs_mutex);
	list_del(&hs->hs_list);
	hs->hs_listed = false;
	mutex_unlock(&net->ksn_hs_mutex);
}

/*
 * lnet_connect()'s watch: a connecting socket is aborted as a handshake;
 * it gets the NI's ToS before it connects.
 */
static int ksock_hs_watch(void *arg, struct socket *sock)
{
	struct ksock_hs *hs = arg;

	if (sock) {
		ksock_sock_set_tos(hs->hs_net, sock);
		return ksock_hs_register(hs->hs_net, hs, sock);
	}
	ksock_hs_unregister(hs->hs_net, hs);
	return 0;
}

/**
 * ksock_handshakes_abort() - end every handshake's wait on its socket
 * @net: the NI, marked as shutting down
 */
void ksock_handshakes_abort(struct ksock_net *net)
{
	struct ksock_hs *hs;

	mutex_lock(&net->ksn_hs_mutex);
	list_for_each_entry(hs, &net->ksn_handshakes, hs_list)
		kernel_sock_shutdown(hs->hs_sock, SHUT_RDWR);
	mutex_unlock(&net->ksn_hs_mutex);
}

/* Read a whole HELLO; errors are counted. */
static int ksock_hello_recv(struct socket *sock, struct ksock_hello *h,
			    bool *flip, int timeout)
{
	u8 buf[KSOCK_HELLO_MAX_SIZE];
	int version, n, rc;

	rc = lnet_sock_read(sock, buf, KSOCK_HELLO_PEEK_SIZE, timeout);
	if (rc)
		goto read_error;
	version = ksock_hello_peek(buf, flip);
	if (version == -EPROTO) {
		ksock_stat_inc(KSOCK_STAT_HELLO_BAD_MAGIC);
		return -EPROTO;
	}
	if (version < 0) {
		ksock_stat_inc(KSOCK_STAT_HELLO_BAD_VERSION);
		return version;
	}
	rc = lnet_sock_read(sock, buf + KSOCK_HELLO_PEEK_SIZE,
			    ksock_hello_size(version) - KSOCK_HELLO_PEEK_SIZE,
			    timeout);
	if (rc)
		goto read_error;
	n = ksock_hello_decode(h, buf, version, *flip);
	if (n == -EPROTO) {
		ksock_stat_inc(KSOCK_STAT_HELLO_BAD_VERSION);
		return -EPROTO;
	}
	if (n == -EADDRNOTAVAIL) {
		ksock_stat_inc(KSOCK_STAT_HELLO_BAD_NID);
		return -EPROTO;
	}
	if (n < 0)
		goto bad_nips;
	if (n) {
		rc = lnet_sock_read(sock, buf, 4 * n, timeout);
		if (rc)
			goto read_error;
		if (ksock_hello_decode_ips(h, buf, *flip))
			goto bad_nips;
	}
	return 0;

bad_nips:
	ksock_stat_inc(KSOCK_STAT_HELLO_BAD_NIPS);
	return -EPROTO;
read_error:
	if (rc == -ETIMEDOUT)
		ksock_stat_inc(KSOCK_STAT_HELLO_TIMEOUT);
	return rc;
}

/*
 * Our HELLO to @peer_nid.  @dst_pid and @dst_incarnation: 0 when we
 * connect; the values the peer's HELLO carried in those fields when we
 * reply, as stock echoes them (wire spec 4.3: never checked).
 */
static int ksock_hello_send(struct ksock_net *net, struct socket *sock,
			    u32 version, const struct lnet_nid *peer_nid,
			    u32 dst_pid, u64 dst_incarnation, u32 ctype,
			    int timeout)
{
	struct ksock_hello h = {
		.version	= version,
		.src_nid	= net->ksn_ni->ni_nid,
		.dst_nid	= *peer_nid,
		.src_pid	= LNET_PID_LUSTRE,
		.dst_pid	= dst_pid,
		.src_incarnation = net->ksn_incarnation,
		.dst_incarnation = dst_incarnation,
		.ctype		= ctype,
	};
	u8 buf[KSOCK_HELLO_MAX_SIZE];
	size_t len = ksock_hello_encode(&h, buf);

	return lnet_sock_write(sock, buf, len, timeout);
}

struct ksock_acceptee {
	struct work_struct	ka_work;
	struct ksock_hs		ka_hs;
	struct ksock_net	*ka_net;
};

/* Who the peer is: its HELLO, or its address for a userspace process. */
static int ksock_passive_peer_id(struct ksock_net *net, struct socket *sock,
				 const struct ksock_hello *h,
				 struct lnet_nid *nid, u32 *pid,
				 bool *userspace)
{
	struct sockaddr_in sin;
	u32 our_net = lnet_nid_net(&net->ksn_ni->ni_nid);

	if (kernel_getpeername(sock, (struct sockaddr *)&sin) < 0)
		return -ENOTCONN;
	*userspace = ntohs(sin.sin_port) > 1023;
	if (*userspace) {
		/* Spec 3.4 step 6: ignore its NID and PID. */
		lnet_nid4_to_nid(lnet_mknid4(our_net, ntohl(sin.sin_addr.s_addr)),
				 nid);
		*pid = ntohs(sin.sin_port) | KSOCK_USERSPACE_PID_FLAG;
		return 0;
	}
	if (lnet_nid_is_any(&h->src_nid) ||
	    lnet_nid_net(&h->src_nid) != our_net ||
	    !lnet_nid_is_nid4(&h->src_nid)) {
		ksock_stat_inc(KSOCK_STAT_HELLO_BAD_NID);
		return -EPROTO;
	}
	*nid = h->src_nid;
	*pid = h->src_pid;
	return 0;
}

/* Spec 4.6, passive side; returns the socket if no connection took it. */
static struct socket *ksock_passive(struct ksock_net *net,
				    struct ksock_hs *hs)
{
	struct socket *sock = hs->hs_sock;
	int timeout = lnet_acceptor_timeout();
	struct ksock_conn *conn;
	struct ksock_peer *peer;
	struct ksock_hello h;
	struct lnet_nid nid;
	bool flip, userspace, self;
	u32 type, pid;
	int rc;

	rc = ksock_hello_recv(sock, &h, &flip, timeout);
	if (rc == -EPROTONOSUPPORT) {
		/* Tell it the version we speak (spec 4.7). */
		ksock_hello_send(net, sock, KSOCK_PROTO_V3, &LNET_ANY_NID, 0, 0,
				 KSOCK_CONN_NONE, timeout);
		return sock;
	}
	if (rc)
		return sock;
	rc = ksock_passive_peer_id(net, sock, &h, &nid, &pid, &userspace);
	if (rc)
		return sock;
	type = ksock_ctype_invert(h.ctype);
	if (type == KSOCK_CONN_NONE) {
		ksock_stat_inc(KSOCK_STAT_HELLO_BAD_CTYPE);
		return sock;
	}
	/* The other end of a connection we are opening to ourselves. */
	self = lnet_nid_equal(&nid, &net->ksn_ni->ni_nid) &&
	       ksock_sock_is_self(sock);
	ksock_test_delay(&ksock_test_hello_delay_ms);

	spin_lock_bh(&net->ksn_lock);
	peer = ksock_peer_get_locked(net, &nid, pid);
	rc = peer ? ksock_conn_accept_locked(peer, &h, type, self) : -ENOMEM;
	spin_unlock_bh(&net->ksn_lock);
	if (rc == -EALREADY) {
		ksock_stat_inc(KSOCK_STAT_CONNS_REFUSED);
		ksock_hello_send(net, sock, h.version, &nid, h.dst_pid,
				 h.dst_incarnation, KSOCK_CONN_NONE, timeout);
	}
	if (rc)
		return sock;
	conn = NULL;
	if (!ksock_hello_send(net, sock, h.version, &nid, h.dst_pid,
			      h.dst_incarnation, type, timeout))
		conn = ksock_conn_alloc(sock, type, h.version, flip);
	if (conn) {
		conn->ksc_userspace = userspace;
		ksock_hs_unregister(net, hs);
		ksock_sock_setup(sock);
	}
	ksock_test_delay(&ksock_test_reply_delay_ms);

	spin_lock_bh(&net->ksn_lock);
	rc = ksock_conn_accepted_locked(peer, &h, type, conn);
	spin_unlock_bh(&net->ksn_lock);
	if (rc) {
		if (conn) {
			ksock_stat_inc(KSOCK_STAT_CONNS_REFUSED);
			kfree(conn);
		}
		return sock;
	}
	ksock_test_delay(&ksock_test_admit_delay_ms);
	return NULL;
}

static void ksock_acceptee_work(struct work_struct *work)
{
	struct ksock_acceptee *ka = container_of(work, struct ksock_acceptee,
						 ka_work);
	struct ksock_net *net = ka->ka_net;
	struct socket *sock;

	sock = ksock_passive(net, &ka->ka_hs);
	ksock_hs_unregister(net, &ka->ka_hs);
	if (sock)
		sock_release(sock);
	kfree(ka);
	ksock_connd_work_done(net);
}

/**
 * ksock_accept() - lnd_accept: the acceptor hands over a connection
 * @ni: the NI it asked for
 * @sock: the socket, connection request read; ours from now on
 *
 * Context: Process context (the acceptor's work).
 * Return: 0, or -errno (the socket is released either way).
 */
int ksock_accept(struct lnet_ni *ni, struct socket *sock)
{
	struct ksock_net *net = ni->ni_data;
	struct ksock_acceptee *ka;
	int rc;

	ka = kzalloc(sizeof(*ka), GFP_KERNEL);
	if (!ka) {
		sock_release(sock);
		return -ENOMEM;
	}
	ka->ka_net = net;
	INIT_WORK(&ka->ka_work, ksock_acceptee_work);
	ksock_sock_set_tos(net, sock);
	rc = ksock_hs_register(net, &ka->ka_hs, sock);
	if (rc) {
		sock_release(sock);
		kfree(ka);
		return rc;
	}
	ksock_connd_queue(net, &ka->ka_work);
	return 0;
}

/* The HELLO reply, checked against what we asked (spec 4.6 active 4-6). */
static int ksock_reply_check(struct ksock_peer *peer,
			     const struct ksock_hello *reply, u32 version,
			     u32 type)
{
	if (lnet_nid_is_any(&reply->src_nid) ||
	    !lnet_nid_equal(&reply->src_nid, &peer->ksp_nid) ||
	    reply->src_pid != peer->ksp_pid) {
		ksock_stat_inc(KSOCK_STAT_HELLO_BAD_NID);
		return -EPROTO;
	}
	if (reply->ctype == KSOCK_CONN_NONE)
		return reply->version == version ? -EALREADY : -EAGAIN;
	if (reply->version != version) {
		ksock_stat_inc(KSOCK_STAT_HELLO_BAD_VERSION);
		return -EPROTO;
	}
	if (ksock_ctype_invert(reply->ctype) != type) {
		ksock_stat_inc(KSOCK_STAT_HELLO_BAD_CTYPE);
		return -EPROTO;
	}
	return 0;
}

/* Open one connection of @type to @peer. */
static int ksock_connect_one(struct ksock_peer *peer, u32 type)
{
	struct ksock_net *net = peer->ksp_net;
	int timeout = ksock_timeout();
	struct ksock_hello reply;
	struct ksock_conn *conn;
	struct socket *sock;
	struct ksock_hs hs;
	struct lnet_connect_watch watch = { ksock_hs_watch, &hs };
	u32 version;
	bool flip, self;
	int tries, port, rc;

	/*
	 * To ourselves the kernel connects over lo whatever the NI's link:
	 * with that link down, fail as a connection by it would.
	 */
	if (READ_ONCE(net->ksn_ni->ni_fatal) &&
	    lnet_nid_equal(&peer->ksp_nid, &net->ksn_ni->ni_nid))
		return -ENETDOWN;
	version = READ_ONCE(peer->ksp_version);
	if (!version)
		version = ksock_tun.typed_conns ? KSOCK_PROTO_V3 :
						  KSOCK_PROTO_V2;
	hs.hs_net = net;
	/* Spec 3.3: CONTROL to accept_port, the others to accept_port_bulk. */
	port = type == KSOCK_CONN_CONTROL ? lnet_acceptor_port() :
					    lnet_acceptor_port_bulk();
	for (tries = 0; tries < 2; tries++) {
		/* Shutting the NI down aborts the connect and the HELLOs. */
		rc = lnet_connect(&sock, &peer->ksp_nid, net->ksn_ip,
				  peer->ksp_ip, port, timeout, &watch);
		if (rc)
			return rc;
		rc = ksock_hello_send(net, sock, version, &peer->ksp_nid, 0, 0,
				      type, timeout);
		if (!rc)
			rc = ksock_hello_recv(sock, &reply, &flip, timeout);
		if (!rc)
			rc = ksock_reply_check(peer, &reply, version, type);
		ksock_hs_unregister(net, &hs);
		if (!rc)
			break;
		sock_release(sock);
		if (rc != -EAGAIN)
			return rc;
		/* The peer speaks another version: use it (spec 4.7). */
		if (reply.version < KSOCK_PROTO_V2)
			return -EPROTO;
		version = reply.version;
	}
	if (rc)
		return rc;

	conn = ksock_conn_alloc(sock, type, version, flip);
	if (!conn) {
		sock_release(sock);
		return -ENOMEM;
	}
	ksock_sock_setup(sock);
	/* getsockname() takes the socket's lock, which sleeps: not under ours. */
	self = ksock_sock_is_self(sock);
	spin_lock_bh(&net->ksn_lock);
	rc = ksock_conn_admit_locked(peer, &reply, type, false, self);
	if (!rc) {
		if (!peer->ksp_version) {
			peer->ksp_version = version;
			peer->ksp_incarnation = reply.src_incarnation;
		}
		ksock_conn_start_locked(peer, conn);
	}
	spin_unlock_bh(&net->ksn_lock);
	if (rc) {
		ksock_conn_free(conn);
		return rc;
	}
	ksock_test_delay(&ksock_test_admit_delay_ms);
	return 0;
}

/* The first type @peer lacks a connection of, or NONE. */
static u32 ksock_missing_type_locked(struct ksock_peer *peer)
{
	static const u32 order[] = { KSOCK_CONN_ANY, KSOCK_CONN_CONTROL,
				     KSOCK_CONN_BULK_OUT, KSOCK_CONN_BULK_IN };
	struct ksock_net *net = peer->ksp_net;
	unsigned int i;

	/* An accepted passive handshake counts: it brings its connection. */
	for (i = 0; i < ARRAY_SIZE(order); i++)
		if (ksock_peer_nconns_locked(peer, order[i]) <
		    ksock_conns_wanted(net, order[i]))
			return order[i];
	return KSOCK_CONN_NONE;
}

/* Map a connect failure to the status its messages get. */
static int ksock_connect_status(int rc)
{
	switch (rc) {
	case -ETIMEDOUT:
	case -ENETUNREACH:
	case -ENETDOWN:
		return rc;
	default:
		return -EHOSTUNREACH;
	}
}

/**
 * ksock_connect_work() - open the connections a peer lacks
 * @work: the peer's ksp_connect_work
 *
 * On failure the messages waiting for a connection fail, LNet hears
 * that the peer NI is unreachable if it has no connection left
 * (lnet_notify()), and the next attempt waits for the back-off
 * (min_reconnectms doubling up to max_reconnectms); after a lost race it
 * waits min_reconnectms and keeps them.
 */
void ksock_connect_work(struct work_struct *work)
{
	struct ksock_peer *peer = container_of(to_delayed_work(work),
					       struct ksock_peer,
					       ksp_connect_work);
	struct ksock_net *net = peer->ksp_net;
	struct lnet_nid nid = peer->ksp_nid;
	bool unreachable = false;
	LIST_HEAD(failed);
	int rc = 0;
	u32 type;

	spin_lock_bh(&net->ksn_lock);
	if (net->ksn_shutdown || peer->ksp_dead) {
		spin_unlock_bh(&net->ksn_lock);
		return;
	}
	peer->ksp_connecting = true;
	for (;;) {
		type = ksock_missing_type_locked(peer);
		if (type == KSOCK_CONN_NONE || net->ksn_shutdown)
			break;
		spin_unlock_bh(&net->ksn_lock);
		rc = ksock_connect_one(peer, type);
		spin_lock_bh(&net->ksn_lock);
		/* An abort by the NI's shutdown: it fails what waits. */
		if (rc && net->ksn_shutdown)
			rc = -ESHUTDOWN;
		if (rc)
			break;
	}
	peer->ksp_connecting = false;
	if (rc == -EALREADY) {
		peer->ksp_reconnect_at = jiffies +
			msecs_to_jiffies(ksock_tun.min_reconnectms);
		if (!list_empty(&peer->ksp_txq))
			ksock_peer_connect_locked(peer);
	} else if (rc && rc != -ESHUTDOWN) {
		ksock_stat_inc(KSOCK_STAT_CONNECT_FAILED);
		pr_debug("ksocklnd: connecting to %pI4: %d\n", &peer->ksp_ip,
			 rc);
		peer->ksp_reconnect_at = jiffies +
			msecs_to_jiffies(peer->ksp_backoff_ms);
		peer->ksp_connect_failed = true;
		peer->ksp_backoff_ms = min(peer->ksp_backoff_ms * 2,
					   (unsigned int)ksock_tun.max_reconnectms);
		if (list_empty(&peer->ksp_conns)) {
			list_splice_init(&peer->ksp_txq, &failed);
			unreachable = true;
		}
	}
	spin_unlock_bh(&net->ksn_lock);
	/* no connection left and none made: LNet's peer NI is down (4.7) */
	if (unreachable)
		lnet_notify(net->ksn_ni, &nid, false);
	ksock_txlist_done(&failed, ksock_connect_status(rc));
}
