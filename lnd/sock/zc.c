// SPDX-License-Identifier: GPL-2.0
/*
 * Zero-copy requests and their ACKs (spec 4.9).
 *
 * Sending.  Payload pages handed to TCP by reference (sendpage) stay in
 * use after the socket took them: TCP reads them when it transmits and
 * again when it retransmits, until the peer acknowledged the bytes.  A
 * message sent that way therefore carries a zero-copy request (a cookie)
 * and completes only when the peer acknowledges that cookie, which it
 * does once it has received all of the message, or fails when the
 * connection that carried it closes first (as Lustre does).  A message
 * below zc_min_payload, or to a peer that cannot acknowledge on this
 * connection, has its payload copied into the socket instead and is done
 * once all of it is there.  A stock peer sends its ACKs on its BULK_IN
 * ("ACK") connection, the other end of our BULK_OUT, and closes the
 * connection that carried a request it cannot acknowledge: so requests
 * go only on V3/V4 BULK_OUT connections and on V2 ones (ANY).
 *
 * Receiving.  Each connection owes the ACKs for the requests it received,
 * kept in the connection as cookie ranges, and pays them on the same
 * connection: piggy-backed on the next LNET message it starts
 * (zc_cookies[1]), or in its own NOOP, ksc_ack_tx, which is part of the
 * connection: so no ACK waits for memory or is lost to an allocation
 * failure.  The sender aborts the requests of a connection that closes;
 * the ACKs owed for them die with it.
 *
 * Everything here runs under the NI's ksn_lock, except the pure cookie
 * set functions at the top (KUnit-tested) and what says it takes it.
 */
#include <kunit/visibility.h>
#include <linux/string.h>

#include "socklnd.h"

/**
 * ksock_zc_acks_add() - owe an ACK for @cookie
 * @acks: the connection's set
 * @cookie: a zero-copy request received whole
 *
 * Return: 0; -EPROTO for a reserved cookie (0, 1) or one already owed;
 * -ENOBUFS when it would need more ranges than the set holds.
 */
int ksock_zc_acks_add(struct ksock_zc_acks *acks, u64 cookie)
{
	struct ksock_zc_range *r = acks->r;
	unsigned int i;

	if (cookie < KSOCK_ZC_FIRST_COOKIE)
		return -EPROTO;
	/* The first range that ends at cookie - 1 or later. */
	for (i = 0; i < acks->n && r[i].hi < cookie - 1; i++)
		;
	if (i < acks->n && r[i].lo <= cookie && cookie <= r[i].hi)
		return -EPROTO;
	if (i < acks->n && r[i].hi == cookie - 1) {
		r[i].hi = cookie;
		if (i + 1 < acks->n && r[i + 1].lo == cookie + 1) {
			r[i].hi = r[i + 1].hi;
			memmove(&r[i + 1], &r[i + 2],
				(acks->n - i - 2) * sizeof(*r));
			acks->n--;
		}
		return 0;
	}
	if (i < acks->n && r[i].lo == cookie + 1) {
		r[i].lo = cookie;
		return 0;
	}
	if (acks->n == KSOCK_ZC_ACK_RANGES)
		return -ENOBUFS;
	memmove(&r[i + 1], &r[i], (acks->n - i) * sizeof(*r));
	r[i].lo = cookie;
	r[i].hi = cookie;
	acks->n++;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ksock_zc_acks_add);

static void ksock_zc_acks_drop(struct ksock_zc_acks *acks, unsigned int i)
{
	memmove(&acks->r[i], &acks->r[i + 1],
		(acks->n - i - 1) * sizeof(acks->r[0]));
	acks->n--;
}

/**
 * ksock_zc_acks_take_one() - one owed cookie, for an LNET message
 * @acks: the set
 *
 * Return: the lowest cookie owed, now paid; 0 if none.
 */
u64 ksock_zc_acks_take_one(struct ksock_zc_acks *acks)
{
	u64 cookie;

	if (!acks->n)
		return 0;
	cookie = acks->r[0].lo;
	if (acks->r[0].lo == acks->r[0].hi)
		ksock_zc_acks_drop(acks, 0);
	else
		acks->r[0].lo++;
	return cookie;
}
EXPORT_SYMBOL_IF_KUNIT(ksock_zc_acks_take_one);

/**
 * ksock_zc_acks_take_noop() - as many owed cookies as a NOOP carries
 * @acks: the set
 * @c0: first cookie of the NOOP
 * @c1: second cookie of the NOOP
 *
 * A NOOP carries a range (c0 < c1), two single cookies (c0 > c1) or one
 * (c0 = 0).
 *
 * Return: false when nothing is owed.
 */
bool ksock_zc_acks_take_noop(struct ksock_zc_acks *acks, u64 *c0, u64 *c1)
{
	struct ksock_zc_range *r = acks->r;

	if (!acks->n)
		return false;
	if (r[0].lo < r[0].hi) {
		*c0 = r[0].lo;
		*c1 = r[0].hi;
		ksock_zc_acks_drop(acks, 0);
	} else if (acks->n > 1 && r[1].lo == r[1].hi) {
		*c0 = r[1].lo;
		*c1 = r[0].lo;
		ksock_zc_acks_drop(acks, 1);
		ksock_zc_acks_drop(acks, 0);
	} else {
		*c0 = 0;
		*c1 = r[0].lo;
		ksock_zc_acks_drop(acks, 0);
	}
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(ksock_zc_acks_take_noop);

/**
 * ksock_zc_ack_count() - how many cookies an ACK acknowledges
 * @c0: first cookie (0 in an LNET message)
 * @c1: second cookie, not 0
 *
 * Return: the count, saturated at INT_MAX (a hostile range).
 */
int ksock_zc_ack_count(u64 c0, u64 c1)
{
	if (!c0 || c0 == c1)
		return 1;
	if (c0 > c1)
		return 2;
	return c1 - c0 >= INT_MAX ? INT_MAX : (int)(c1 - c0) + 1;
}
EXPORT_SYMBOL_IF_KUNIT(ksock_zc_ack_count);

/**
 * ksock_zc_ack_covers() - does an ACK acknowledge @cookie?
 * @c0: first cookie (0 in an LNET message)
 * @c1: second cookie
 * @cookie: a request
 *
 * Return: true if it does.
 */
bool ksock_zc_ack_covers(u64 c0, u64 c1, u64 cookie)
{
	if (!c0)
		return cookie == c1;
	return cookie == c0 || cookie == c1 || (c0 < cookie && cookie < c1);
}
EXPORT_SYMBOL_IF_KUNIT(ksock_zc_ack_covers);

/**
 * ksock_zc_min_payload() - the smallest payload sent by reference
 *
 * Return: zc_min_payload, at least KSOCK_ZC_MIN_PAYLOAD (as Lustre).
 */
int ksock_zc_min_payload(void)
{
	return max(READ_ONCE(ksock_tun.zc_min_payload), KSOCK_ZC_MIN_PAYLOAD);
}

/* Does the peer acknowledge requests sent on @conn? */
static bool ksock_conn_acks_zc(const struct ksock_conn *conn)
{
	if (conn->ksc_version == KSOCK_PROTO_V2)
		return true;
	return conn->ksc_version >= KSOCK_PROTO_V3 &&
	       conn->ksc_type == KSOCK_CONN_BULK_OUT;
}

/**
 * ksock_zc_tx_begin_locked() - send @tx's pages by reference or copy them
 * @conn: the connection @tx starts on
 * @tx: an LNET message, nothing of it sent yet
 *
 * Makes the zero-copy request when @tx may have one and the peer can
 * acknowledge it; else (no cookie) @tx's payload is copied.
 */
void ksock_zc_tx_begin_locked(struct ksock_conn *conn, struct ksock_tx *tx)
{
	struct ksock_peer *peer = conn->ksc_peer;

	if (!tx->tx_zc_capable || !ksock_conn_acks_zc(conn))
		return;
	tx->tx_zc_cookie = peer->ksp_zc_next_cookie++;
	if (peer->ksp_zc_next_cookie < KSOCK_ZC_FIRST_COOKIE)
		peer->ksp_zc_next_cookie = KSOCK_ZC_FIRST_COOKIE;
	tx->tx_conn = conn;
	list_add_tail(&tx->tx_zc_list, &peer->ksp_zc_reqs);
	ksock_stat_inc(KSOCK_STAT_ZC_REQUESTS);
}

/**
 * ksock_zc_tx_sent_locked() - all of @tx is in the socket: is it done?
 * @tx: the send, off its connection's queue
 *
 * Return: true to complete @tx now; false while its ACK is awaited (the
 * ACK or the connection's teardown completes it then).
 */
bool ksock_zc_tx_sent_locked(struct ksock_tx *tx)
{
	if (list_empty(&tx->tx_zc_list))
		return true;	/* no request, or acknowledged already */
	tx->tx_sent = true;
	tx->tx_deadline = jiffies + lnet_secs_to_jiffies(ksock_timeout());
	return false;
}

/**
 * ksock_zc_handle_ack() - the peer acknowledged requests (c0, c1)
 * @conn: the connection the ACK came on (any of the peer's)
 * @c0: first cookie (0 in an LNET message)
 * @c1: second cookie, not 0
 *
 * Takes the NI's lock.  Completes the acknowledged sends.
 *
 * Return: 0; -EPROTO when not exactly the cookies it names are awaited
 * (a keepalive, c1 = 1, counts as nothing).
 */
int ksock_zc_handle_ack(struct ksock_conn *conn, u64 c0, u64 c1)
{
	struct ksock_peer *peer = conn->ksc_peer;
	struct ksock_net *net = peer->ksp_net;
	int count = ksock_zc_ack_count(c0, c1);
	struct ksock_tx *tx, *tmp;
	LIST_HEAD(done);

	if (c1 == KSOCK_KEEPALIVE_COOKIE && count == 1)
		return 0;
	spin_lock_bh(&net->ksn_lock);
	list_for_each_entry_safe(tx, tmp, &peer->ksp_zc_reqs, tx_zc_list) {
		if (!ksock_zc_ack_covers(c0, c1, tx->tx_zc_cookie))
			continue;
		list_del_init(&tx->tx_zc_list);
		if (tx->tx_sent)
			list_add_tail(&tx->tx_list, &done);
		ksock_stat_inc(KSOCK_STAT_ZC_ACKS_RX);
		if (!--count)
			break;
	}
	spin_unlock_bh(&net->ksn_lock);
	ksock_txlist_done(&done, 0);
	if (count) {
		ksock_stat_inc(KSOCK_STAT_RX_ZC_BAD_COOKIE);
		return -EPROTO;
	}
	return 0;
}

/**
 * ksock_zc_owe_ack() - a request came in whole on @conn: acknowledge it
 * @conn: the connection
 * @cookie: the request
 *
 * Takes the NI's lock.  The ACK leaves on @conn with its next LNET
 * message or in its ACK NOOP, queued here.
 *
 * Return: 0, or -EPROTO (counted) for a cookie that is reserved, already
 * owed, or one too many: the caller closes @conn.
 */
int ksock_zc_owe_ack(struct ksock_conn *conn, u64 cookie)
{
	struct ksock_net *net = conn->ksc_peer->ksp_net;
	int rc = 0;

	spin_lock_bh(&net->ksn_lock);
	if (!conn->ksc_closing) {
		rc = ksock_zc_acks_add(&conn->ksc_zc_acks, cookie);
		if (!rc && list_empty(&conn->ksc_ack_tx.tx_list))
			ksock_tx_queue_locked(conn, &conn->ksc_ack_tx);
	}
	spin_unlock_bh(&net->ksn_lock);
	if (rc == -ENOBUFS)
		ksock_stat_inc(KSOCK_STAT_ZC_ACK_OVERFLOW);
	else if (rc)
		ksock_stat_inc(KSOCK_STAT_RX_ZC_BAD_COOKIE);
	return rc ? -EPROTO : 0;
}

/**
 * ksock_zc_conn_abort_locked() - @conn closed: its requests are lost
 * @conn: the connection, being torn down
 * @failed: gets the sends that were waiting for their ACK
 *
 * Those still on @conn's queue are failed with the queue.
 */
void ksock_zc_conn_abort_locked(struct ksock_conn *conn,
				struct list_head *failed)
{
	struct ksock_tx *tx, *tmp;

	list_for_each_entry_safe(tx, tmp, &conn->ksc_peer->ksp_zc_reqs,
				 tx_zc_list) {
		if (tx->tx_conn != conn)
			continue;
		list_del_init(&tx->tx_zc_list);
		if (tx->tx_sent) {
			list_add_tail(&tx->tx_list, failed);
			ksock_stat_inc(KSOCK_STAT_ZC_ABORTED);
		}
	}
}

/**
 * ksock_zc_reap_locked() - close connections whose ACKs are overdue
 * @peer: the peer
 *
 * A request unacknowledged for sock_timeout closes the connection that
 * carried it (spec 4.12), which fails it.
 */
void ksock_zc_reap_locked(struct ksock_peer *peer)
{
	struct ksock_tx *tx;

	list_for_each_entry(tx, &peer->ksp_zc_reqs, tx_zc_list) {
		if (!tx->tx_sent || tx->tx_conn->ksc_closing ||
		    time_before(jiffies, tx->tx_deadline))
			continue;
		ksock_stat_inc(KSOCK_STAT_ZC_TIMEOUT);
		ksock_conn_close_locked(tx->tx_conn, -ETIMEDOUT);
	}
}
