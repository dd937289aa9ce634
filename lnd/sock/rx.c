// SPDX-License-Identifier: GPL-2.0
/*
 * Receiving: a state machine per connection, run by its rx work when
 * data_ready says bytes arrived, reading with non-blocking recvmsg:
 *
 *   MSG_HDR (24 B, V2+) -> LNET_HDR (72 or 96 B) -> lnet_parse()
 *     -> PAYLOAD (straight into the MD LNet matched, via lnd_recv)
 *     -> DISCARD (what the MD does not take) -> MSG_HDR ...
 *
 * lnet_parse() calls lnd_recv before it returns (PARSE), but for a message
 * a fault injection delay rule holds: the rx work then stops reading
 * (PARSE_WAIT) until ksock_recv() comes from LNet and queues it again.
 * lnd_recv only records where the payload goes.  The message is
 * finalized when all of it is in, and a zero-copy request is
 * acknowledged then (spec 4.9, zc.c);
 * ZC ACKs that come in (NOOPs, or in an LNET message's header) complete
 * our own sends.
 * Anything malformed closes the connection and is counted.
 */
#include <linux/net.h>
#include <linux/slab.h>
#include <net/sock.h>

#include "socklnd.h"

/* Where discarded payload goes; its content is never read. */
static u8 ksock_discard_buf[PAGE_SIZE];

/**
 * ksock_rx_reset() - wait for the next message
 * @conn: the connection
 */
void ksock_rx_reset(struct ksock_conn *conn)
{
	conn->ksc_rx_state = conn->ksc_version >= KSOCK_PROTO_V2 ?
			     KSOCK_RX_MSG_HDR : KSOCK_RX_LNET_HDR;
	conn->ksc_rx_got = 0;
	conn->ksc_rx_msg = NULL;
	conn->ksc_rx_left = 0;
	conn->ksc_rx_zc_cookie = 0;
}

/* Non-blocking read into @it: bytes read, -EAGAIN, or an error. */
static int ksock_recv_iter(struct ksock_conn *conn, struct iov_iter *it)
{
	struct msghdr mh = { .msg_flags = 0 };
	int rc;

	mh.msg_iter = *it;
	rc = sock_recvmsg(conn->ksc_sock, &mh, MSG_DONTWAIT | MSG_NOSIGNAL);
	if (rc > 0) {
		iov_iter_advance(it, rc);
		conn->ksc_rx_last = jiffies;
		WRITE_ONCE(conn->ksc_peer->ksp_last_alive, jiffies);
	} else if (!rc) {
		rc = -ECONNRESET;	/* end of stream */
	}
	return rc;
}

static int ksock_recv_buf(struct ksock_conn *conn, void *buf, size_t len)
{
	struct kvec iov = { .iov_base = buf, .iov_len = len };
	struct iov_iter it;

	iov_iter_kvec(&it, ITER_DEST, &iov, 1, len);
	return ksock_recv_iter(conn, &it);
}

/* Read into ksc_rx_buf until @len bytes of the current header are in. */
static int ksock_rx_fill(struct ksock_conn *conn, unsigned int base,
			 unsigned int len)
{
	int rc;

	while (conn->ksc_rx_got < len) {
		rc = ksock_recv_buf(conn, conn->ksc_rx_buf + base +
				    conn->ksc_rx_got, len - conn->ksc_rx_got);
		if (rc < 0)
			return rc;
		conn->ksc_rx_got += rc;
	}
	return 0;
}

/* A NOOP: a keepalive, or ZC ACKs. */
static int ksock_rx_noop(struct ksock_conn *conn, u64 c0, u64 c1)
{
	ksock_stat_inc(KSOCK_STAT_NOOP_RX);
	if (!c1) {
		if (!c0)
			return 0;
		ksock_stat_inc(KSOCK_STAT_RX_ZC_BAD_COOKIE);
		return -EPROTO;
	}
	return ksock_zc_handle_ack(conn, c0, c1);
}

static int ksock_rx_msg_hdr(struct ksock_conn *conn)
{
	u64 c0, c1;
	u32 type;
	int rc;

	rc = ksock_rx_fill(conn, 0, KSOCK_MSG_HDR_SIZE);
	if (rc)
		return rc;
	ksock_msg_hdr_decode(conn->ksc_rx_buf, conn->ksc_flip, &type, &c0,
			     &c1);
	conn->ksc_rx_got = 0;
	if (type == KSOCK_MSG_NOOP)
		return ksock_rx_noop(conn, c0, c1);	/* stays in MSG_HDR */
	if (type != KSOCK_MSG_LNET) {
		ksock_stat_inc(KSOCK_STAT_RX_BAD_TYPE);
		return -EPROTO;
	}
	if (c1) {
		rc = ksock_zc_handle_ack(conn, 0, c1);
		if (rc)
			return rc;
	}
	conn->ksc_rx_zc_cookie = c0;
	conn->ksc_rx_state = KSOCK_RX_LNET_HDR;
	return 0;
}

/* Spec 3.4 step 6: a userspace peer's headers name it by address. */
static void ksock_rx_userspace_src(struct ksock_conn *conn, u8 *hdr,
				   bool nid16)
{
	struct ksock_peer *peer = conn->ksc_peer;
	__le32 pid = cpu_to_le32(peer->ksp_pid);

	if (nid16) {
		memcpy(hdr + 20, &peer->ksp_nid, sizeof(peer->ksp_nid));
		memcpy(hdr + 44, &pid, 4);
	} else {
		__le64 nid = cpu_to_le64(lnet_nid_to_nid4(&peer->ksp_nid));

		memcpy(hdr + 8, &nid, 8);
		memcpy(hdr + 20, &pid, 4);
	}
}

static int ksock_rx_lnet_hdr(struct ksock_conn *conn)
{
	bool nid16 = conn->ksc_version == KSOCK_PROTO_V4;
	unsigned int size = nid16 ? LNET_HDR_NID16_SIZE : LNET_HDR_NID4_SIZE;
	u8 *hdr = conn->ksc_rx_buf + KSOCK_MSG_HDR_SIZE;
	struct lnet_ni *ni = conn->ksc_peer->ksp_net->ksn_ni;
	__le32 plen;
	bool held;
	int rc;

	rc = ksock_rx_fill(conn, KSOCK_MSG_HDR_SIZE, size);
	if (rc)
		return rc;
	memcpy(&plen, hdr + (nid16 ? 52 : 28), 4);
	if (le32_to_cpu(plen) > LNET_MTU) {
		ksock_stat_inc(KSOCK_STAT_RX_TOO_LONG);
		return -EPROTO;
	}
	if (conn->ksc_userspace)
		ksock_rx_userspace_src(conn, hdr, nid16);
	conn->ksc_rx_left = le32_to_cpu(plen);
	WRITE_ONCE(conn->ksc_rx_state, KSOCK_RX_PARSE);
	rc = lnet_parse(ni, hdr, size, &conn->ksc_peer->ksp_nid, conn);
	if (rc) {
		ksock_stat_inc(KSOCK_STAT_RX_BAD_HDR);
		return -EPROTO;
	}
	/*
	 * Only ksock_recv() moves it on from PARSE.  Under the lock: one
	 * from another task (a held message released at once) may still
	 * be in its own lock section, which teardown must not overtake.
	 */
	spin_lock_bh(&conn->ksc_rx_lock);
	held = conn->ksc_rx_state == KSOCK_RX_PARSE;
	if (held) {
		/*
		 * Dropped by ksock_recv() once it sees PARSE_WAIT; until
		 * then this work runs, so teardown has not freed it.
		 */
		refcount_inc(&conn->ksc_refs);
		WRITE_ONCE(conn->ksc_rx_state, KSOCK_RX_PARSE_WAIT);
	}
	spin_unlock_bh(&conn->ksc_rx_lock);
	return held ? -EAGAIN : 0;	/* held: ksock_recv() resumes us */
}

/**
 * ksock_recv() - lnd_recv: where the current message's payload goes
 * @ni: the NI
 * @private: the connection
 * @msg: the message, or NULL to discard @rlen bytes
 * @to: @mlen bytes of the MD; NULL when @mlen is 0
 * @mlen: bytes to receive
 * @rlen: bytes on the wire
 *
 * Called by lnet_parse() from our rx work, which then reads the payload;
 * or later, from LNet's fault injection, for a message a delay rule held
 * (PARSE_WAIT): the rx work is queued again, or, if the connection closed
 * meanwhile, the message fails.
 *
 * Return: 0, or the connection's error for a held message it lost.
 */
int ksock_recv(struct lnet_ni *ni, void *private, struct lnet_msg *msg,
	       struct iov_iter *to, unsigned int mlen, unsigned int rlen)
{
	struct ksock_conn *conn = private;
	enum ksock_rx_state next = KSOCK_RX_DISCARD;
	bool held;
	int rc;

	spin_lock_bh(&conn->ksc_rx_lock);
	held = conn->ksc_rx_state == KSOCK_RX_PARSE_WAIT;
	if (held && conn->ksc_rx_closed) {
		spin_unlock_bh(&conn->ksc_rx_lock);
		rc = conn->ksc_error ?: -ECONNABORTED;
		ksock_conn_put(conn);
		return rc;
	}
	conn->ksc_rx_msg = msg;
	conn->ksc_rx_left = rlen;
	if (to && mlen) {
		conn->ksc_rx_iter = *to;
		iov_iter_truncate(&conn->ksc_rx_iter, min(mlen, rlen));
		next = KSOCK_RX_PAYLOAD;
	}
	/* Published after where the payload goes: see ksock_rx_step(). */
	smp_store_release(&conn->ksc_rx_state, next);
	if (held) {
		conn->ksc_rx_last = jiffies;
		queue_work(ksock_sched_wq, &conn->ksc_rx_work);
	}
	spin_unlock_bh(&conn->ksc_rx_lock);
	if (held)
		ksock_conn_put(conn);	/* ksock_rx_lnet_hdr()'s */
	return 0;
}

/*
 * The whole message is in: finalize it, owe the ACK of its ZC request.
 * Return: 0, or -EPROTO for a request we cannot acknowledge.
 */
static int ksock_rx_done(struct ksock_conn *conn)
{
	struct lnet_msg *msg = conn->ksc_rx_msg;
	u64 cookie = conn->ksc_rx_zc_cookie;

	ksock_rx_reset(conn);
	if (msg)
		lnet_finalize(msg, 0);
	return cookie ? ksock_zc_owe_ack(conn, cookie) : 0;
}

static int ksock_rx_payload(struct ksock_conn *conn)
{
	unsigned int want = iov_iter_count(&conn->ksc_rx_iter);
	int rc;

	while (iov_iter_count(&conn->ksc_rx_iter)) {
		rc = ksock_recv_iter(conn, &conn->ksc_rx_iter);
		if (rc < 0) {
			conn->ksc_rx_left -= want -
					     iov_iter_count(&conn->ksc_rx_iter);
			return rc;
		}
	}
	conn->ksc_rx_left -= want;
	conn->ksc_rx_state = KSOCK_RX_DISCARD;
	return 0;
}

static int ksock_rx_discard(struct ksock_conn *conn)
{
	int rc;

	while (conn->ksc_rx_left) {
		rc = ksock_recv_buf(conn, ksock_discard_buf,
				    min_t(unsigned int, conn->ksc_rx_left,
					  sizeof(ksock_discard_buf)));
		if (rc < 0)
			return rc;
		conn->ksc_rx_left -= rc;
	}
	return ksock_rx_done(conn);
}

/* One step of the state machine: 0 to go on, -EAGAIN, or an error. */
static int ksock_rx_step(struct ksock_conn *conn)
{
	/* A ksock_recv() from elsewhere may have just resumed us. */
	switch (smp_load_acquire(&conn->ksc_rx_state)) {
	case KSOCK_RX_MSG_HDR:
		return ksock_rx_msg_hdr(conn);
	case KSOCK_RX_LNET_HDR:
		return ksock_rx_lnet_hdr(conn);
	case KSOCK_RX_PAYLOAD:
		return ksock_rx_payload(conn);
	case KSOCK_RX_DISCARD:
		return ksock_rx_discard(conn);
	default:
		return -EAGAIN;	/* PARSE_WAIT: ksock_recv() queues us */
	}
}

/* Between messages with nothing of the next one read? */
static bool ksock_rx_idle(const struct ksock_conn *conn)
{
	return !conn->ksc_rx_got &&
	       conn->ksc_rx_state == (conn->ksc_version >= KSOCK_PROTO_V2 ?
				      KSOCK_RX_MSG_HDR : KSOCK_RX_LNET_HDR);
}

/**
 * ksock_rx_work() - receive what arrived on a connection
 * @work: the connection's ksc_rx_work
 */
void ksock_rx_work(struct work_struct *work)
{
	struct ksock_conn *conn = container_of(work, struct ksock_conn,
					       ksc_rx_work);
	int budget = 256;
	int rc = 0;

	while (budget-- && !READ_ONCE(conn->ksc_closing)) {
		rc = ksock_rx_step(conn);
		if (rc)
			break;
	}
	if (rc == -EAGAIN || READ_ONCE(conn->ksc_closing))
		return;
	if (!rc) {
		queue_work(ksock_sched_wq, &conn->ksc_rx_work);
		return;
	}
	if (rc == -ECONNRESET && !ksock_rx_idle(conn))
		ksock_stat_inc(KSOCK_STAT_RX_TRUNCATED);
	ksock_conn_close(conn, rc == -EPROTO ? -EPROTO : -ECONNRESET);
}
