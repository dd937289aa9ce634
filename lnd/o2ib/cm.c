// SPDX-License-Identifier: GPL-2.0
/*
 * Connection management on rdma_cm (wire spec 5.1, 5.6, 5.7).
 *
 * Active: kib_connect_work() creates the id (source port privileged if
 * use_privileged_port and one is free) and resolves the address; the
 * handler resolves the route, creates the QP with its receive buffers
 * posted and connects with a CONNREQ; ESTABLISHED checks the CONNACK;
 * REJECTED reads the kib_rej and decides whether to retry at once.
 *
 * Passive: CONNECT_REQUEST on the listener is checked in the spec's
 * order (5.6 items 1-12) and answered with rdma_accept (CONNACK) or
 * rdma_reject (kib_rej, IB reason CONSUMER_DEFINED); a rejected id is
 * destroyed by rdma_cm (the handler returns non-zero).
 *
 * Every other failure closes the connection, whose teardown (on kib_wq)
 * destroys the id.  Handlers run in process context and may sleep; a
 * connection's handler and its teardown exclude each other (ibc_cm_mutex),
 * and a handler that finds its connection closing does nothing.
 */
#include <linux/in.h>
#include <rdma/ib_cm.h>

#include "o2iblnd.h"

static void kib_connparams(struct kib_msg *msg, u16 qd, u16 frags)
{
	msg->ibm_u.connparams.ibcp_queue_depth = qd;
	msg->ibm_u.connparams.ibcp_max_frags = frags;
	msg->ibm_u.connparams.ibcp_max_msg_size = IBLND_MSG_SIZE;
}

static void kib_conn_param(struct rdma_conn_param *cp, const void *priv,
			   u8 len)
{
	memset(cp, 0, sizeof(*cp));
	cp->private_data = priv;
	cp->private_data_len = len;
	cp->responder_resources = 0;	/* no RDMA READ, ever */
	cp->initiator_depth = 0;
	cp->flow_control = 1;
	cp->retry_count = clamp(READ_ONCE(kib_tun.retry_count), 0, 7);
	cp->rnr_retry_count = clamp(READ_ONCE(kib_tun.rnr_retry_count), 0, 7);
}

/* Bind @cmid to our address and a free port below 1024, if any. */
static bool kib_bind_privileged(struct kib_net *net, struct rdma_cm_id *cmid)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = net->kn_ip,
	};
	int port;

	for (port = 1023; port >= 512; port--) {
		sin.sin_port = htons(port);
		if (!rdma_bind_addr(cmid, (struct sockaddr *)&sin))
			return true;
	}
	pr_debug("ko2iblnd: no privileged port free, using any\n");
	return false;
}

/**
 * kib_connect_work() - start an active connection to a peer
 * @work: the peer's ibp_connect_work
 */
void kib_connect_work(struct work_struct *work)
{
	struct kib_peer *peer = container_of(to_delayed_work(work),
					     struct kib_peer,
					     ibp_connect_work);
	struct kib_net *net = peer->ibp_net;
	struct sockaddr_in src = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = net->kn_ip,
	};
	struct sockaddr_in dst = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(lnet_nid4_addr(peer->ibp_nid)),
		.sin_port = htons(kib_tun.service),
	};
	struct rdma_cm_id *cmid;
	struct kib_conn *conn;
	bool bound = false;
	int rc;

	spin_lock_bh(&net->kn_lock);
	/* The first connection is for what waits, the others for more. */
	if (net->kn_down ||
	    (list_empty(&peer->ibp_conns) ? list_empty(&peer->ibp_txq) :
	     kib_peer_nconns_locked(peer) >= kib_peer_conns_wanted(peer))) {
		peer->ibp_connecting = false;
		spin_unlock_bh(&net->kn_lock);
		return;
	}
	conn = kib_conn_alloc(peer, true);
	if (!conn) {
		peer->ibp_connecting = false;
		kib_peer_connect_locked(peer, HZ);
		spin_unlock_bh(&net->kn_lock);
		return;
	}
	spin_unlock_bh(&net->kn_lock);

	cmid = rdma_create_id(&init_net, kib_cm_handler, conn, RDMA_PS_TCP,
			      IB_QPT_RC);
	if (IS_ERR(cmid)) {
		kib_conn_close(conn, PTR_ERR(cmid));
		return;
	}
	conn->ibc_cmid = cmid;
	if (net->kn_ni->ni_tunables.tos >= 0)
		rdma_set_service_type(cmid, net->kn_ni->ni_tunables.tos);
	if (READ_ONCE(kib_tun.use_privileged_port))
		bound = kib_bind_privileged(net, cmid);
	rc = rdma_resolve_addr(cmid, bound ? NULL : (struct sockaddr *)&src,
			       (struct sockaddr *)&dst,
			       KIB_RESOLVE_TIMEOUT_MS);
	if (rc) {
		kib_stat_inc(KIB_STAT_CONNECT_FAILED);
		kib_conn_close(conn, rc);
	}
}

/* Route resolved: QP, receive buffers, CONNREQ. */
static int kib_active_connect(struct kib_conn *conn, struct rdma_cm_id *cmid)
{
	struct kib_net *net = conn->ibc_net;
	struct kib_peer *peer = conn->ibc_peer;
	struct rdma_conn_param cp;
	struct kib_msg msg;
	u64 dststamp;
	int rc;

	rc = kib_conn_setup(conn, cmid);
	if (rc)
		return rc;
	spin_lock_bh(&net->kn_lock);
	dststamp = peer->ibp_incarnation;
	spin_unlock_bh(&net->kn_lock);
	memset(&msg, 0, sizeof(msg));
	kib_connparams(&msg, conn->ibc_queue_depth, conn->ibc_max_frags);
	kib_msg_pack(&msg, conn->ibc_version, IBLND_MSG_CONNREQ, 0,
		     IBLND_CONNPARAMS_SIZE, net->kn_nid, net->kn_incarnation,
		     peer->ibp_nid, dststamp, READ_ONCE(kib_tun.cksum));
	kib_conn_param(&cp, &msg, IBLND_CONNPARAMS_SIZE);
	return rdma_connect_locked(cmid, &cp);
}

/* The CONNACK in @event's private data (spec 5.6, active side). */
static int kib_check_connack(struct kib_conn *conn,
			     struct rdma_cm_event *event)
{
	const struct rdma_conn_param *p = &event->param.conn;
	struct kib_net *net = conn->ibc_net;
	struct kib_peer *peer = conn->ibc_peer;
	enum kib_wire_err err;
	struct kib_msg msg;
	const struct kib_connparams *cp = &msg.ibm_u.connparams;

	memset(&msg, 0, sizeof(msg));
	if (!p->private_data || p->private_data_len < IBLND_MSG_HDR_SIZE)
		goto bad;
	memcpy(&msg, p->private_data,
	       min_t(size_t, p->private_data_len, sizeof(msg)));
	err = kib_msg_unpack(&msg, min_t(u32, p->private_data_len,
					 sizeof(msg)));
	if (err != KIB_WIRE_OK) {
		kib_stat_inc(KIB_STAT_WIRE_SHORT + err - KIB_WIRE_SHORT);
		return -EPROTO;
	}
	if (msg.ibm_type != IBLND_MSG_CONNACK ||
	    msg.ibm_version != conn->ibc_version ||
	    cp->ibcp_queue_depth > conn->ibc_queue_depth ||
	    !cp->ibcp_queue_depth ||
	    cp->ibcp_max_frags > conn->ibc_max_frags ||
	    !cp->ibcp_max_frags ||
	    cp->ibcp_max_msg_size > IBLND_MSG_SIZE ||
	    msg.ibm_srcnid != peer->ibp_nid)
		goto bad;
	if (msg.ibm_dstnid != net->kn_nid ||
	    msg.ibm_dststamp != net->kn_incarnation) {
		kib_stat_inc(KIB_STAT_RX_STALE);
		return -ESTALE;
	}
	spin_lock_bh(&net->kn_lock);
	conn->ibc_queue_depth = cp->ibcp_queue_depth;
	conn->ibc_credits = cp->ibcp_queue_depth;
	conn->ibc_reserved = cp->ibcp_queue_depth;
	conn->ibc_max_frags = cp->ibcp_max_frags;
	conn->ibc_incarnation = msg.ibm_srcstamp;
	if (peer->ibp_incarnation &&
	    peer->ibp_incarnation != msg.ibm_srcstamp)
		kib_peer_close_conns_old_locked(peer, conn);
	peer->ibp_incarnation = msg.ibm_srcstamp;
	spin_unlock_bh(&net->kn_lock);
	return 0;
bad:
	kib_stat_inc(KIB_STAT_CONNACK_BAD);
	return -EPROTO;
}

/* The active side was rejected: retry at once, later, or not (5.7). */
static int kib_rejected(struct kib_conn *conn, struct rdma_cm_event *event)
{
	struct kib_net *net = conn->ibc_net;
	struct kib_peer *peer = conn->ibc_peer;
	bool full = false, retry = false;
	struct kib_rej rej = {};
	const void *priv;
	u8 len = 0;
	int rc = -ECONNREFUSED;

	if (event->status == IB_CM_REJ_INVALID_SERVICE_ID) {
		kib_stat_inc(KIB_STAT_REJ_RCVD_IB);
		return -EHOSTUNREACH;
	}
	if (event->status == IB_CM_REJ_STALE_CONN) {
		kib_stat_inc(KIB_STAT_REJ_RCVD_IB);
		spin_lock_bh(&net->kn_lock);
		peer->ibp_retry_now = true;
		spin_unlock_bh(&net->kn_lock);
		return -ESTALE;
	}
	if (event->status != IB_CM_REJ_CONSUMER_DEFINED) {
		kib_stat_inc(KIB_STAT_REJ_RCVD_IB);
		return -ECONNREFUSED;
	}
	priv = rdma_consumer_reject_data(conn->ibc_cmid, event, &len);
	if (!priv || kib_rej_unpack(priv, len, &rej) < 0) {
		kib_stat_inc(KIB_STAT_REJ_RCVD);
		return -EPROTO;
	}
	full = len >= IBLND_REJ_SIZE && rej.ibr_version > IBLND_MSG_VERSION_1;
	if (rej.ibr_why <= IBLND_REJECT_EARLY)
		kib_stat_inc(KIB_STAT_REJ_RCVD + rej.ibr_why);
	else
		kib_stat_inc(KIB_STAT_REJ_RCVD);

	spin_lock_bh(&net->kn_lock);
	switch (rej.ibr_why) {
	case IBLND_REJECT_CONN_RACE:
		/* Its connection to us wins; retry only if none is coming. */
		retry = !peer->ibp_accepting;
		rc = -EALREADY;
		break;
	case IBLND_REJECT_CONN_STALE:
		/*
		 * It restarted.  A V1 reject does not say its incarnation:
		 * ask again as one who does not know it (dststamp 0), or
		 * the same stale CONNREQ would be refused for ever.
		 */
		peer->ibp_incarnation = full ? rej.ibr_incarnation : 0;
		retry = true;
		rc = -ESTALE;
		break;
	case IBLND_REJECT_MSG_QUEUE_SIZE:
		if (full && rej.ibr_cp.ibcp_queue_depth &&
		    rej.ibr_cp.ibcp_queue_depth < conn->ibc_queue_depth) {
			peer->ibp_queue_depth = rej.ibr_cp.ibcp_queue_depth;
			retry = true;
		}
		rc = -EPROTO;
		break;
	case IBLND_REJECT_RDMA_FRAGS:
		if (full && rej.ibr_cp.ibcp_max_frags &&
		    rej.ibr_cp.ibcp_max_frags < conn->ibc_max_frags) {
			peer->ibp_max_frags = rej.ibr_cp.ibcp_max_frags;
			retry = true;
		}
		rc = -EPROTO;
		break;
	case IBLND_REJECT_EARLY:
		/* Its NI is not up yet: fail now, the next message retries. */
		break;
	case IBLND_REJECT_CONN_UNCOMPAT:
	case IBLND_REJECT_FATAL:
		/* A V1 peer: as it. (A V1-only one says FATAL.) */
		if (rej.ibr_version == IBLND_MSG_VERSION_1 &&
		    conn->ibc_version != IBLND_MSG_VERSION_1) {
			peer->ibp_version = IBLND_MSG_VERSION_1;
			retry = true;
			rc = -EPROTO;
		}
		break;
	default:
		/* NO_RESOURCES, UNCOMPAT from a V2 peer */
		break;
	}
	peer->ibp_retry_now = retry;
	spin_unlock_bh(&net->kn_lock);
	return rc;
}

/* Refuse a CONNREQ; rdma_cm destroys @cmid when we return non-zero. */
static int kib_reject(struct rdma_cm_id *cmid, struct kib_net *net,
		      u16 version, u8 why, u16 qd)
{
	struct kib_rej rej;

	kib_rej_pack(&rej, version, why, net ? net->kn_incarnation : 0, qd);
	rdma_reject(cmid, &rej, sizeof(rej), IB_CM_REJ_CONSUMER_DEFINED);
	kib_stat_inc(KIB_STAT_REJ_SENT + why);
	return -ECONNREFUSED;
}

/* CONNECT_REQUEST on our listener (spec 5.6, passive side). */
static int kib_passive_connect(struct kib_net *net, struct rdma_cm_id *cmid,
			       struct rdma_cm_event *event)
{
	const struct rdma_conn_param *p = &event->param.conn;
	struct kib_msg msg;
	const struct kib_connparams *cp = &msg.ibm_u.connparams;
	u16 qd_max;
	u16 version = IBLND_MSG_VERSION;
	struct rdma_conn_param acc;
	struct kib_peer *peer;
	struct kib_conn *conn;
	enum kib_wire_err err;
	u32 len = p->private_data_len;
	u32 magic;
	int rc;

	/* 1. */
	if (!p->private_data || len < 6)
		return kib_reject(cmid, NULL, version, IBLND_REJECT_FATAL, 0);
	/* 2. */
	memset(&msg, 0, sizeof(msg));
	memcpy(&msg, p->private_data, min_t(size_t, len, sizeof(msg)));
	magic = msg.ibm_magic;
	if (magic == swab32(IBLND_MSG_MAGIC))
		version = swab16(msg.ibm_version);
	else if (magic == IBLND_MSG_MAGIC)
		version = msg.ibm_version;
	else
		return kib_reject(cmid, NULL, IBLND_MSG_VERSION,
				  IBLND_REJECT_FATAL, 0);
	if (version != IBLND_MSG_VERSION && version != IBLND_MSG_VERSION_1)
		return kib_reject(cmid, NULL, IBLND_MSG_VERSION,
				  IBLND_REJECT_FATAL, 0);
	/* 3. */
	err = kib_msg_unpack(&msg, min_t(u32, len, sizeof(msg)));
	if (err != KIB_WIRE_OK) {
		kib_stat_inc(KIB_STAT_WIRE_SHORT + err - KIB_WIRE_SHORT);
		return kib_reject(cmid, NULL, version, IBLND_REJECT_FATAL, 0);
	}
	qd_max = version == IBLND_MSG_VERSION_1 ? IBLND_MSG_QUEUE_SIZE_V1 :
		 clamp(net->kn_ni->ni_tunables.peer_credits, 1,
		       IBLND_MAX_QUEUE_DEPTH);
	/* 4. */
	if (msg.ibm_dstnid != net->kn_nid || cmid->device != net->kn_dev)
		return kib_reject(cmid, NULL, version, IBLND_REJECT_FATAL, 0);
	if (!READ_ONCE(net->kn_ni->ni_up))
		return kib_reject(cmid, NULL, version, IBLND_REJECT_EARLY, 0);
	/* 5. */
	if (msg.ibm_dststamp && msg.ibm_dststamp != net->kn_incarnation)
		return kib_reject(cmid, net, version, IBLND_REJECT_CONN_STALE,
				  qd_max);
	/* 6. */
	if (msg.ibm_type != IBLND_MSG_CONNREQ)
		return kib_reject(cmid, net, version, IBLND_REJECT_FATAL,
				  qd_max);
	/* msg_version=0x11 plays a node that knows V1 only (Lustre 1.8). */
	if (version != IBLND_MSG_VERSION_1 &&
	    kib_tun.msg_version == IBLND_MSG_VERSION_1)
		return kib_reject(cmid, NULL, IBLND_MSG_VERSION_1,
				  IBLND_REJECT_FATAL, 0);
	/* 7. */
	if (cp->ibcp_queue_depth > qd_max || !cp->ibcp_queue_depth)
		return kib_reject(cmid, net, version,
				  IBLND_REJECT_MSG_QUEUE_SIZE, qd_max);
	/* 8. */
	if (cp->ibcp_max_frags > IBLND_MAX_RDMA_FRAGS || !cp->ibcp_max_frags)
		return kib_reject(cmid, net, version, IBLND_REJECT_RDMA_FRAGS,
				  qd_max);
	/* 9. */
	if (cp->ibcp_max_msg_size > IBLND_MSG_SIZE)
		return kib_reject(cmid, net, version, IBLND_REJECT_FATAL,
				  qd_max);
	if (kib_tun.require_privileged_port &&
	    ntohs(((struct sockaddr_in *)&cmid->route.addr.dst_addr)->sin_port) >=
	    1024)
		return kib_reject(cmid, net, version, IBLND_REJECT_FATAL,
				  qd_max);

	spin_lock_bh(&net->kn_lock);
	peer = net->kn_down ? NULL :
	       kib_peer_get_locked(net, msg.ibm_srcnid);
	if (!peer) {
		spin_unlock_bh(&net->kn_lock);
		return kib_reject(cmid, net, version,
				  IBLND_REJECT_NO_RESOURCES, qd_max);
	}
	/* 10.  An unknown incarnation (0) is not a different one. */
	if (peer->ibp_incarnation &&
	    (peer->ibp_incarnation != msg.ibm_srcstamp ||
	     peer->ibp_version != version)) {
		kib_peer_close_conns_locked(peer, -ESTALE);
		peer->ibp_incarnation = msg.ibm_srcstamp;
		peer->ibp_version = version;
		spin_unlock_bh(&net->kn_lock);
		return kib_reject(cmid, net, version, IBLND_REJECT_CONN_STALE,
				  qd_max);
	}
	/* 11. */
	if (peer->ibp_connecting &&
	    kib_nidhash(msg.ibm_srcnid) < kib_nidhash(net->kn_nid) &&
	    peer->ibp_races < KIB_RACE_MAX) {
		peer->ibp_races++;
		spin_unlock_bh(&net->kn_lock);
		return kib_reject(cmid, net, version, IBLND_REJECT_CONN_RACE,
				  qd_max);
	}
	peer->ibp_incarnation = msg.ibm_srcstamp;
	peer->ibp_version = version;
	conn = kib_conn_alloc(peer, false);
	if (conn) {
		peer->ibp_accepting++;
		conn->ibc_queue_depth = cp->ibcp_queue_depth;
		conn->ibc_max_frags = cp->ibcp_max_frags;
		conn->ibc_version = version;
		conn->ibc_incarnation = msg.ibm_srcstamp;
		conn->ibc_cmid = cmid;
	}
	spin_unlock_bh(&net->kn_lock);
	/* 12. */
	if (!conn)
		return kib_reject(cmid, net, version,
				  IBLND_REJECT_NO_RESOURCES, qd_max);
	/*
	 * The teardown destroys the id from now on.  It may be queued
	 * already (the NI stopping, the peer restarting): then it waits for
	 * this handler and destroys the id once it returned.
	 */
	mutex_lock(&conn->ibc_cm_mutex);
	cmid->context = conn;
	if (kib_conn_closing(conn)) {
		mutex_unlock(&conn->ibc_cm_mutex);
		return 0;
	}
	rc = kib_conn_setup(conn, cmid);
	if (rc) {
		kib_reject(cmid, net, version, IBLND_REJECT_NO_RESOURCES,
			   qd_max);
		kib_conn_close(conn, rc);
		mutex_unlock(&conn->ibc_cm_mutex);
		return 0;
	}

	memset(&msg, 0, sizeof(msg));
	kib_connparams(&msg, conn->ibc_queue_depth, conn->ibc_max_frags);
	kib_msg_pack(&msg, version, IBLND_MSG_CONNACK, 0,
		     IBLND_CONNPARAMS_SIZE, net->kn_nid, net->kn_incarnation,
		     peer->ibp_nid, conn->ibc_incarnation,
		     READ_ONCE(kib_tun.cksum));
	kib_conn_param(&acc, &msg, IBLND_CONNPARAMS_SIZE);
	rc = rdma_accept(cmid, &acc);
	if (rc)
		kib_conn_close(conn, rc);
	mutex_unlock(&conn->ibc_cm_mutex);
	return 0;
}

/*
 * A connection attempt failed.  One the peer asked us to repeat at once
 * (a restarted peer's CONN_STALE, a smaller queue, its V1 version, a
 * race) is part of connecting, not worth a warning.
 */
static void kib_connect_failed(struct kib_conn *conn,
			       struct rdma_cm_event *event, int rc)
{
	struct kib_peer *peer = conn->ibc_peer;
	u32 addr = lnet_nid4_addr(peer->ibp_nid);

	kib_stat_inc(KIB_STAT_CONNECT_FAILED);
	if (conn->ibc_active && READ_ONCE(peer->ibp_retry_now)) {
		pr_debug("ko2iblnd: connecting to %pI4h: %s (status %d): %d, retrying\n",
			 &addr, rdma_event_msg(event->event), event->status,
			 rc);
		return;
	}
	pr_warn_ratelimited("ko2iblnd: %s %pI4h failed: %s (status %d): %d\n",
			    conn->ibc_active ? "connecting to" :
					       "accepting from",
			    &addr, rdma_event_msg(event->event),
			    event->status, rc);
}

/**
 * kib_cm_handler() - rdma_cm events of the listener and of connections
 * @cmid: the id: the listener (context: struct kib_net), a new passive
 *	id (CONNECT_REQUEST, context inherited from the listener), or a
 *	connection's (context: struct kib_conn)
 * @event: the event
 *
 * Context: process; serialised per id by rdma_cm.
 * Return: non-zero only to have rdma_cm destroy a rejected new id.
 */
int kib_cm_handler(struct rdma_cm_id *cmid, struct rdma_cm_event *event)
{
	struct kib_conn *conn;
	int rc;

	if (event->event == RDMA_CM_EVENT_CONNECT_REQUEST)
		return kib_passive_connect(cmid->context, cmid, event);

	if (*(enum kib_ctx_kind *)cmid->context == KIB_CTX_NET) {
		/* The listener itself: nothing to do until shutdown. */
		pr_debug("ko2iblnd: listener event %d\n", event->event);
		return 0;
	}

	conn = cmid->context;
	/* Not while the teardown runs; nothing once it is queued. */
	mutex_lock(&conn->ibc_cm_mutex);
	if (kib_conn_closing(conn)) {
		mutex_unlock(&conn->ibc_cm_mutex);
		return 0;
	}
	switch (event->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
		rc = rdma_resolve_route(cmid, KIB_RESOLVE_TIMEOUT_MS);
		break;
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		rc = kib_active_connect(conn, cmid);
		break;
	case RDMA_CM_EVENT_ESTABLISHED:
		rc = conn->ibc_active ? kib_check_connack(conn, event) : 0;
		if (!rc)
			kib_conn_established(conn);
		break;
	case RDMA_CM_EVENT_REJECTED:
		rc = kib_rejected(conn, event);
		break;
	case RDMA_CM_EVENT_ADDR_ERROR:
	case RDMA_CM_EVENT_ROUTE_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
		rc = -EHOSTUNREACH;
		break;
	case RDMA_CM_EVENT_CONNECT_ERROR:
		rc = -ETIMEDOUT;
		break;
	case RDMA_CM_EVENT_DISCONNECTED:
		rc = -ECONNRESET;
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
	case RDMA_CM_EVENT_ADDR_CHANGE:
		rc = -ENODEV;
		break;
	case RDMA_CM_EVENT_TIMEWAIT_EXIT:
	default:
		rc = 0;
		break;
	}
	if (rc) {
		if (!conn->ibc_established)
			kib_connect_failed(conn, event, rc);
		kib_conn_close(conn, rc);
	}
	mutex_unlock(&conn->ibc_cm_mutex);
	return 0;
}
