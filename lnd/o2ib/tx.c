// SPDX-License-Identifier: GPL-2.0
/*
 * Sending (wire spec 5.8, 5.9): lnd_send chooses IMMEDIATE, PUT_REQ or
 * GET_REQ and queues the message on its peer's established connection,
 * or on the peer (connecting) until there is one.  kib_check_sends()
 * posts what the credits allow, in Lustre's order: responses (no
 * credit), NOOPs (V2: no credit, at most two in flight), then credited
 * messages; PUT_REQ and GET_REQ first wait for a reserved credit.  Every
 * message carries ibm_credits = the credits we owe, then zeroed.
 *
 * RDMA: the local buffer of a transfer is mapped as a scatterlist; a
 * sink is registered in one FastReg MR of the pool (mr.h) when its
 * message is posted, and advertised as one fragment.  A sink that finds
 * the pool empty waits aside for an MR while the messages that need none
 * go on.  RDMA WRITEs are posted unsignalled, chained before the
 * signalled message that completes the transfer: RC ordering lands the
 * data first.
 *
 * A tx lives on exactly one list: the peer's queue, one of the
 * connection's send queues (tx_queued), or ibc_active_txs while posted
 * (tx_sending) or waiting for the peer's response (tx_waiting).  It is
 * done when none of the three holds.
 */
#include <kunit/visibility.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "o2iblnd.h"

static void kib_tx_send_done(struct ib_cq *cq, struct ib_wc *wc);
static void kib_tx_rdma_done(struct ib_cq *cq, struct ib_wc *wc);

/**
 * kib_next_cookie() - a transaction cookie, unique on this NI
 * @net: the NI
 *
 * Return: the cookie (never 0).
 */
u64 kib_next_cookie(struct kib_net *net)
{
	return atomic64_inc_return(&net->kn_cookie) ?: 1;
}

/**
 * kib_tx_alloc() - a tx with its DMA-mapped message buffer
 * @net: the NI
 * @type: ibm_type it will send
 *
 * Context: any (GFP_ATOMIC).
 * Return: the tx or NULL.
 */
struct kib_tx *kib_tx_alloc(struct kib_net *net, u8 type)
{
	struct kib_tx *tx = kzalloc(sizeof(*tx), GFP_ATOMIC | __GFP_NOWARN);

	if (!tx)
		return NULL;
	tx->tx_msg = kmalloc(IBLND_MSG_SIZE, GFP_ATOMIC | __GFP_NOWARN);
	if (!tx->tx_msg)
		goto free;
	tx->tx_msgdma = ib_dma_map_single(net->kn_dev, tx->tx_msg,
					  IBLND_MSG_SIZE, DMA_TO_DEVICE);
	if (ib_dma_mapping_error(net->kn_dev, tx->tx_msgdma))
		goto free_msg;
	INIT_LIST_HEAD(&tx->tx_list);
	tx->tx_net = net;
	tx->tx_type = type;
	tx->tx_cqe.done = kib_tx_send_done;
	tx->tx_rdma_cqe.done = kib_tx_rdma_done;
	tx->tx_deadline = jiffies + kib_peer_tx_timeout();
	return tx;
free_msg:
	kfree(tx->tx_msg);
free:
	kfree(tx);
	return NULL;
}

static void kib_tx_unmap(struct kib_tx *tx)
{
	/*
	 * The registration ran on the device only if its work requests were
	 * posted and none failed; otherwise the MR's key and state on the
	 * device are unknown, and the pool retires it.
	 */
	if (tx->tx_mapped_mr) {
		int status = tx->tx_posted && !tx->tx_wc_err ? 0 : -EIO;

		if (status)
			kib_stat_inc(KIB_STAT_MR_RETIRED);
		kib_mr_unmap(&tx->tx_map, status);
	}
	tx->tx_mapped_mr = false;
	if (tx->tx_nmapped)
		ib_dma_unmap_sg(tx->tx_net->kn_dev, tx->tx_sgl, tx->tx_nsg,
				tx->tx_dir);
	tx->tx_nmapped = 0;
	kfree(tx->tx_sgl);
	tx->tx_sgl = NULL;
	kfree(tx->tx_wrs);
	tx->tx_wrs = NULL;
	kfree(tx->tx_sges);
	tx->tx_sges = NULL;
	tx->tx_nwrs = 0;
}

/*
 * Why @tx failed, for LNet's health (spec features 3b), unless its
 * failure point said.  A request the peer received (its send completed,
 * or the peer answered it: a PUT in its RDMA phase) may have been acted
 * on: a remote failure, never resent.  One that never left depends on
 * the error: a refused connection is the peer's, a timeout or a
 * connection that went away is local, and another path may work.
 */
static enum lnet_msg_hstatus kib_tx_hstatus(const struct kib_tx *tx)
{
	int status = tx->tx_status;

	/* A GET whose data is in place (its REPLY made), a PUT matched. */
	if (tx->tx_lntmsg[1] || tx->tx_type == IBLND_MSG_PUT_DONE)
		return status == -ETIMEDOUT ? LNET_MSG_STATUS_REMOTE_TIMEOUT :
					      LNET_MSG_STATUS_REMOTE_ERROR;
	if (tx->tx_hstatus != LNET_MSG_STATUS_OK)
		return tx->tx_hstatus;
	if (tx->tx_posted && !tx->tx_wc_err)
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
	case -ECONNABORTED:
		return LNET_MSG_STATUS_LOCAL_DROPPED;
	default:
		return LNET_MSG_STATUS_LOCAL_ERROR;
	}
}

/**
 * kib_tx_done() - finalize a tx's LNet messages with its status, free it
 * @tx: the tx, on no list, neither posted nor waiting
 */
void kib_tx_done(struct kib_tx *tx)
{
	struct kib_net *net = tx->tx_net;
	int i;

	if (tx->tx_status)
		kib_stat_inc(KIB_STAT_TX_ERRORS);
	kib_tx_unmap(tx);
	for (i = 0; i < ARRAY_SIZE(tx->tx_lntmsg); i++)
		if (tx->tx_lntmsg[i]) {
			if (tx->tx_status)
				tx->tx_lntmsg[i]->msg_health_status =
					kib_tx_hstatus(tx);
			lnet_finalize(tx->tx_lntmsg[i], tx->tx_status);
		}
	ib_dma_unmap_single(net->kn_dev, tx->tx_msgdma, IBLND_MSG_SIZE,
			    DMA_TO_DEVICE);
	kfree(tx->tx_msg);
	kfree(tx);
}

/**
 * kib_txlist_done() - kib_tx_done() for every tx of a list
 * @txs: the list, emptied
 * @status: the status of those that have none yet
 */
void kib_txlist_done(struct list_head *txs, int status)
{
	struct kib_tx *tx, *tmp;

	list_for_each_entry_safe(tx, tmp, txs, tx_list) {
		list_del(&tx->tx_list);
		if (!tx->tx_status)
			tx->tx_status = status;
		kib_tx_done(tx);
	}
}

/* One page (or less) of an iterator's current segment. */
static struct page *kib_iter_page(struct iov_iter *it, size_t *off,
				  size_t *len)
{
	size_t left = iov_iter_count(it);

	if (iov_iter_is_bvec(it)) {
		const struct bio_vec *bv = it->bvec;
		size_t o = bv->bv_offset + it->iov_offset;

		*off = offset_in_page(o);
		*len = min3(left, (size_t)bv->bv_len - it->iov_offset,
			    PAGE_SIZE - *off);
		return bv->bv_page + (o >> PAGE_SHIFT);
	}
	if (iov_iter_is_kvec(it)) {
		void *addr = it->kvec->iov_base + it->iov_offset;

		*off = offset_in_page(addr);
		*len = min3(left, it->kvec->iov_len - it->iov_offset,
			    PAGE_SIZE - *off);
		return is_vmalloc_addr(addr) ? vmalloc_to_page(addr) :
					       virt_to_page(addr);
	}
	return NULL;
}

/**
 * kib_map_iter() - map the buffer an iterator covers for RDMA
 * @tx: the tx that owns the mapping until done
 * @it: kvec or bvec iterator (not advanced)
 * @dir: DMA_TO_DEVICE for a source, DMA_FROM_DEVICE for a sink
 *
 * Return: 0 (nothing mapped for an empty iterator) or -errno.
 */
int kib_map_iter(struct kib_tx *tx, struct iov_iter *it,
		 enum dma_data_direction dir)
{
	struct iov_iter cur = *it;
	size_t bound, off, len;
	struct page *page;
	int n = 0;

	if (!iov_iter_count(&cur))
		return 0;
	bound = DIV_ROUND_UP(iov_iter_count(&cur), PAGE_SIZE) +
		cur.nr_segs + 1;
	tx->tx_sgl = kmalloc_array(bound, sizeof(*tx->tx_sgl),
				   GFP_ATOMIC | __GFP_NOWARN);
	if (!tx->tx_sgl)
		return -ENOMEM;
	sg_init_table(tx->tx_sgl, bound);
	while (iov_iter_count(&cur)) {
		page = kib_iter_page(&cur, &off, &len);
		if (!page || n == bound)
			return -EFAULT;
		if (!len) {	/* an empty segment: skip it */
			iov_iter_advance(&cur, 0);
			if (iov_iter_is_bvec(&cur)) {
				cur.bvec++;
				cur.nr_segs--;
				cur.iov_offset = 0;
			} else {
				return -EFAULT;
			}
			continue;
		}
		sg_set_page(&tx->tx_sgl[n++], page, len, off);
		iov_iter_advance(&cur, len);
	}
	sg_mark_end(&tx->tx_sgl[n - 1]);
	tx->tx_nsg = n;
	tx->tx_dir = dir;
	tx->tx_nmapped = ib_dma_map_sg(tx->tx_net->kn_dev, tx->tx_sgl, n, dir);
	return tx->tx_nmapped ? 0 : -EIO;
}

/**
 * kib_tx_map_rd() - describe a mapped sink to the peer
 * @tx: the tx, mapped by kib_map_iter()
 * @rd: where the descriptor goes (in @tx's message)
 *
 * One fragment in one FastReg MR, registered only when the message is
 * posted (kib_post_tx_locked()), so that a message finding the pool
 * exhausted waits for an MR instead of failing; here only whether one
 * MR can map the list is checked.
 *
 * Return: the descriptor's fragments (1), or -EINVAL.
 */
int kib_tx_map_rd(struct kib_tx *tx, struct kib_rdma_desc *rd)
{
	if (!tx->tx_nmapped)
		return -EINVAL;
	if (kib_mr_sg_pages(tx->tx_sgl, tx->tx_nmapped,
			    kib_mr_pool_max_pages(tx->tx_net->kn_mr_pool)) < 0) {
		kib_stat_inc(KIB_STAT_MR_MAP_FAILED);
		return -EINVAL;
	}
	tx->tx_rd = rd;
	rd->rd_nfrags = 1;
	return 1;
}

/**
 * kib_init_rdma() - RDMA WRITEs of @tx's mapped source into @rd
 * @conn: the connection
 * @tx: mapped by kib_map_iter(), or not mapped for 0 bytes
 * @rd: the sink, as the peer described it (checked by wire.c)
 * @nob: bytes to write at most
 *
 * Writes min(@nob, capacity of @rd) bytes.
 *
 * Return: the bytes the WRs write, or -errno.
 */
int kib_init_rdma(struct kib_conn *conn, struct kib_tx *tx,
		  const struct kib_rdma_desc *rd, u32 nob)
{
	u32 lkey = conn->ibc_net->kn_pd->local_dma_lkey;
	int max_sge = conn->ibc_net->kn_max_send_sge;
	struct scatterlist *sg = tx->tx_sgl;
	u32 resid, total, fi = 0, foff = 0, soff = 0;
	int nwr = 0, nsge = 0, bound;

	total = min_t(u64, nob, kib_rdma_desc_nob(rd));
	if (!total)
		return 0;
	if (rd->rd_nfrags > conn->ibc_max_frags || !tx->tx_nmapped)
		return -EMSGSIZE;
	bound = rd->rd_nfrags + tx->tx_nmapped;
	tx->tx_wrs = kcalloc(bound, sizeof(*tx->tx_wrs),
			     GFP_ATOMIC | __GFP_NOWARN);
	tx->tx_sges = kcalloc(bound, sizeof(*tx->tx_sges),
			      GFP_ATOMIC | __GFP_NOWARN);
	if (!tx->tx_wrs || !tx->tx_sges)
		return -ENOMEM;
	resid = total;
	while (resid) {
		const struct kib_rdma_frag *frag = &rd->rd_frags[fi];
		struct ib_rdma_wr *wr = &tx->tx_wrs[nwr];

		if (nwr == conn->ibc_max_frags || nwr == bound || !sg)
			return -EMSGSIZE;
		wr->wr.opcode = IB_WR_RDMA_WRITE;
		wr->wr.wr_cqe = &tx->tx_rdma_cqe;
		wr->wr.sg_list = &tx->tx_sges[nsge];
		wr->remote_addr = frag->rf_addr + foff;
		wr->rkey = rd->rd_key;
		while (resid && foff < frag->rf_nob && sg &&
		       wr->wr.num_sge < max_sge && nsge < bound) {
			u32 n = min3(sg_dma_len(sg) - soff,
				     frag->rf_nob - foff, resid);
			struct ib_sge *sge = &tx->tx_sges[nsge++];

			sge->addr = sg_dma_address(sg) + soff;
			sge->length = n;
			sge->lkey = lkey;
			wr->wr.num_sge++;
			soff += n;
			foff += n;
			resid -= n;
			if (soff == sg_dma_len(sg)) {
				sg = sg_next(sg);
				soff = 0;
			}
		}
		if (!wr->wr.num_sge)
			return -EMSGSIZE;
		if (nwr)
			tx->tx_wrs[nwr - 1].wr.next = &wr->wr;
		nwr++;
		if (foff == frag->rf_nob) {
			fi++;
			foff = 0;
			if (fi == rd->rd_nfrags && resid)
				return -EMSGSIZE;
		}
	}
	tx->tx_nwrs = nwr;
	kib_stat_add(KIB_STAT_RDMA_WRITES, nwr);
	kib_stat_add(KIB_STAT_RDMA_BYTES, total);
	return total;
}

/* Queue @tx on @conn by its type (spec 5.9). */
static bool kib_queue_tx_locked(struct kib_conn *conn, struct kib_tx *tx)
{
	struct list_head *q;

	if (conn->ibc_state >= KIB_CONN_DEAD)
		return false;
	switch (tx->tx_type) {
	case IBLND_MSG_PUT_REQ:
	case IBLND_MSG_GET_REQ:
		q = &conn->ibc_tx_queue_rsrvd;
		break;
	case IBLND_MSG_PUT_NAK:
	case IBLND_MSG_PUT_ACK:
	case IBLND_MSG_PUT_DONE:
	case IBLND_MSG_GET_DONE:
		q = &conn->ibc_tx_queue_nocred;
		break;
	case IBLND_MSG_NOOP:
		q = &conn->ibc_tx_noops;
		break;
	default:
		q = &conn->ibc_tx_queue;
		break;
	}
	tx->tx_conn = conn;
	tx->tx_queued = true;
	list_add_tail(&tx->tx_list, q);
	return true;
}

/**
 * kib_queue_tx() - queue a tx on a connection and send what can go
 * @conn: the connection (the caller holds a reference)
 * @tx: the tx, on no list; failed if @conn is already torn down
 */
void kib_queue_tx(struct kib_conn *conn, struct kib_tx *tx)
{
	struct kib_net *net = conn->ibc_net;
	bool ok;

	spin_lock_bh(&net->kn_lock);
	if (!tx->tx_deadline || time_before(tx->tx_deadline, jiffies))
		tx->tx_deadline = jiffies + lnet_secs_to_jiffies(kib_timeout());
	ok = kib_queue_tx_locked(conn, tx);
	spin_unlock_bh(&net->kn_lock);
	if (!ok) {
		tx->tx_waiting = false;
		tx->tx_status = conn->ibc_error ?: -ECONNABORTED;
		kib_tx_done(tx);
		return;
	}
	kib_check_sends(conn);
}

/**
 * kib_send_completion() - send PUT_NAK, PUT_DONE (without RDMA) or
 *	GET_DONE
 * @conn: the connection
 * @type: the message type
 * @status: bytes or -errno
 * @cookie: the peer's cookie
 */
void kib_send_completion(struct kib_conn *conn, u8 type, int status,
			 u64 cookie)
{
	struct kib_tx *tx = kib_tx_alloc(conn->ibc_net, type);

	if (!tx) {
		/* The peer would wait for it forever: give up the link. */
		kib_conn_close(conn, -ENOMEM);
		return;
	}
	tx->tx_msg->ibm_u.completion.ibcm_cookie = cookie;
	tx->tx_msg->ibm_u.completion.ibcm_status = status;
	tx->tx_nob = offsetof(struct kib_msg, ibm_u.completion) +
		     sizeof(struct kib_completion_msg);
	kib_queue_tx(conn, tx);
}

static int kib_hiw(const struct kib_conn *conn)
{
	const struct lnet_ni_tunables *t = &conn->ibc_net->kn_ni->ni_tunables;
	int hiw = t->peercredits_hiw;	/* [pc / 2, pc - 1] by kib_startup */
	int pc = clamp(t->peer_credits, 1, IBLND_MAX_QUEUE_DEPTH);

	if (!kib_oob_capable(conn->ibc_version))
		return IBLND_CREDITS_HIGHWATER_V1;
	/* Scaled to the negotiated depth (spec 5.3), at least 1. */
	return max(1, conn->ibc_queue_depth * hiw / pc);
}

static bool kib_keepalive_due(const struct kib_conn *conn)
{
	int ka = READ_ONCE(kib_tun.keepalive);

	return ka > 0 && time_after_eq(jiffies, conn->ibc_last_send +
				       lnet_secs_to_jiffies(ka));
}

/**
 * kib_need_noop_locked() - should a NOOP go now?
 * @conn: the connection
 *
 * Spec 5.9 rules (A), (B), (C); V2: at most KIB_OOB_MSGS in flight.  V1
 * (Lustre's rules for it): a NOOP takes a credit, and the last credit is
 * kept for a NOOP that returns credits, so it needs a credit to go and
 * is useless while a queued message can take the credits with it.
 *
 * Return: true if a NOOP is needed.
 */
bool kib_need_noop_locked(const struct kib_conn *conn)
{
	if (conn->ibc_state != KIB_CONN_ESTABLISHED)
		return false;
	if (conn->ibc_outstanding < kib_hiw(conn) && !kib_keepalive_due(conn))
		return false;
	if (!list_empty(&conn->ibc_tx_queue_nocred))
		return false;
	if (kib_oob_capable(conn->ibc_version)) {
		if (conn->ibc_noops_posted >= KIB_OOB_MSGS)
			return false;
		return list_empty(&conn->ibc_tx_queue) || !conn->ibc_credits;
	}
	if (!conn->ibc_credits)
		return false;
	if (conn->ibc_credits == 1 && !conn->ibc_outstanding)
		return false;
	return list_empty(&conn->ibc_tx_queue) || conn->ibc_credits == 1;
}
EXPORT_SYMBOL_IF_KUNIT(kib_need_noop_locked);

/**
 * kib_credit_ok_locked() - may a credited message of @type go now?
 * @conn: the connection
 * @type: its ibm_type
 *
 * Return: true if a credit is free for it (V1: not the last one, which
 *	only a NOOP may take).
 */
bool kib_credit_ok_locked(const struct kib_conn *conn, u8 type)
{
	if (!conn->ibc_credits)
		return false;
	return conn->ibc_credits > 1 || type == IBLND_MSG_NOOP ||
	       kib_oob_capable(conn->ibc_version);
}
EXPORT_SYMBOL_IF_KUNIT(kib_credit_ok_locked);

/* Register @tx's sink in an MR of the pool and describe it (tx_rd). */
static int kib_tx_register(struct kib_tx *tx)
{
	struct kib_rdma_desc *rd = tx->tx_rd;
	int rc;

	rc = kib_mr_map(tx->tx_net->kn_mr_pool, tx->tx_sgl, tx->tx_nmapped,
			IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE,
			&tx->tx_map);
	if (rc)
		return rc;
	tx->tx_rd = NULL;
	tx->tx_mapped_mr = true;
	rd->rd_key = tx->tx_map.key;
	rd->rd_nfrags = 1;
	rd->rd_frags[0].rf_nob = tx->tx_map.nob;
	rd->rd_frags[0].rf_addr = tx->tx_map.iova;
	return 0;
}

/*
 * @tx's sink cannot be registered (error @rc, not exhaustion): a PUT_ACK
 * becomes the PUT_NAK that tells the peer, a GET_REQ fails here.
 * Return: true if @tx was taken off its queue and finalized.
 */
static bool kib_tx_register_failed_locked(struct kib_conn *conn,
					  struct kib_tx *tx, int rc)
{
	struct kib_net *net = conn->ibc_net;
	struct kib_msg *msg = tx->tx_msg;

	kib_stat_inc(KIB_STAT_MR_MAP_FAILED);
	tx->tx_rd = NULL;
	tx->tx_waiting = false;
	tx->tx_status = rc;
	if (tx->tx_type == IBLND_MSG_PUT_ACK) {
		u64 cookie = msg->ibm_u.putack.ibpam_src_cookie;

		tx->tx_type = IBLND_MSG_PUT_NAK;
		msg->ibm_u.completion.ibcm_cookie = cookie;
		msg->ibm_u.completion.ibcm_status = rc;
		tx->tx_nob = offsetof(struct kib_msg, ibm_u.completion) +
			     sizeof(struct kib_completion_msg);
		/* No PUT_DONE will return the PUT_REQ's credit: we do. */
		conn->ibc_outstanding++;
		return false;
	}
	/* The GET_REQ never went: its reservation comes back. */
	conn->ibc_reserved++;
	list_del_init(&tx->tx_list);
	tx->tx_queued = false;
	spin_unlock_bh(&net->kn_lock);
	kib_tx_done(tx);
	spin_lock_bh(&net->kn_lock);
	return true;
}

/* The pool's wake callback: MRs are free again (any context). */
void kib_mr_wake(void *arg)
{
	struct kib_net *net = arg;

	queue_work(kib_wq, &net->kn_mr_work);
}

/**
 * kib_mr_work() - send on the connections that waited for an MR
 * @work: kn_mr_work
 *
 * Only those waiting when it starts: one that finds the pool empty again
 * waits for the next wake (each -EAGAIN asks the pool for one).
 */
void kib_mr_work(struct work_struct *work)
{
	struct kib_net *net = container_of(work, struct kib_net, kn_mr_work);
	struct kib_conn *conn;
	LIST_HEAD(conns);

	spin_lock_bh(&net->kn_lock);
	list_splice_init(&net->kn_mr_waiters, &conns);
	while ((conn = list_first_entry_or_null(&conns, struct kib_conn,
						ibc_mr_wait))) {
		list_del_init(&conn->ibc_mr_wait);
		spin_unlock_bh(&net->kn_lock);
		kib_check_sends(conn);	/* may wait again */
		kib_conn_put(conn);
		spin_lock_bh(&net->kn_lock);
	}
	spin_unlock_bh(&net->kn_lock);
}

/* kib_post_tx_locked(): @tx's sink waits for an MR of the exhausted pool. */
#define KIB_POST_MR_WAIT	1

/*
 * Post @tx if the limits allow: 0 posted (or dropped), -EAGAIN not now
 * (credits, send queue), KIB_POST_MR_WAIT not before an MR is free.
 */
static int kib_post_tx_locked(struct kib_conn *conn, struct kib_tx *tx,
			      int credit)
{
	struct kib_net *net = conn->ibc_net;
	struct kib_peer *peer = conn->ibc_peer;
	const struct ib_send_wr *bad;
	struct ib_send_wr *first;
	bool simulated;
	int rc;

	if (conn->ibc_nsends_posted >= conn->ibc_concurrent_sends)
		return -EAGAIN;
	if (credit && !kib_credit_ok_locked(conn, tx->tx_type))
		return -EAGAIN;
	if (tx->tx_rd) {
		rc = kib_tx_register(tx);
		if (rc == -EAGAIN) {
			/* Pool exhausted: the connection waits for its wake. */
			kib_stat_inc(KIB_STAT_MR_WAITS);
			if (list_empty(&conn->ibc_mr_wait)) {
				kref_get(&conn->ibc_ref);
				list_add_tail(&conn->ibc_mr_wait,
					      &net->kn_mr_waiters);
			}
			return KIB_POST_MR_WAIT;
		}
		if (rc && kib_tx_register_failed_locked(conn, tx, rc))
			return 0;
	}
	list_del_init(&tx->tx_list);
	tx->tx_queued = false;
	if (tx->tx_type == IBLND_MSG_NOOP && !kib_need_noop_locked(conn)) {
		/* Another message carried the credits meanwhile. */
		spin_unlock_bh(&net->kn_lock);
		kib_tx_done(tx);
		spin_lock_bh(&net->kn_lock);
		return 0;
	}

	conn->ibc_credits -= credit;
	if (tx->tx_type == IBLND_MSG_NOOP) {
		conn->ibc_noops_posted++;
		kib_stat_inc(KIB_STAT_NOOPS_SENT);
	}
	kib_msg_pack(tx->tx_msg, conn->ibc_version, tx->tx_type,
		     conn->ibc_outstanding, tx->tx_nob, net->kn_nid,
		     net->kn_incarnation, peer->ibp_nid,
		     conn->ibc_incarnation, READ_ONCE(kib_tun.cksum));
	conn->ibc_outstanding = 0;
	conn->ibc_nsends_posted++;
	conn->ibc_last_send = jiffies;
	atomic64_inc(&conn->ibc_nsent);
	tx->tx_sending++;
	list_add_tail(&tx->tx_list, &conn->ibc_active_txs);

	ib_dma_sync_single_for_device(net->kn_dev, tx->tx_msgdma, tx->tx_nob,
				      DMA_TO_DEVICE);
	tx->tx_sge.addr = tx->tx_msgdma;
	tx->tx_sge.length = tx->tx_nob;
	tx->tx_sge.lkey = net->kn_pd->local_dma_lkey;
	memset(&tx->tx_send_wr, 0, sizeof(tx->tx_send_wr));
	tx->tx_send_wr.wr_cqe = &tx->tx_cqe;
	tx->tx_send_wr.sg_list = &tx->tx_sge;
	tx->tx_send_wr.num_sge = 1;
	tx->tx_send_wr.opcode = IB_WR_SEND;
	tx->tx_send_wr.send_flags = IB_SEND_SIGNALED;
	first = &tx->tx_send_wr;
	if (tx->tx_mapped_mr && !tx->tx_posted)
		first = kib_mr_map_chain(&tx->tx_map, first);
	/* Fault injection (lnet/fault.c) fails a message, once, instead. */
	simulated = !tx->tx_posted &&
		    lnet_send_error_simulation(tx->tx_lntmsg[0], &tx->tx_hstatus);
	tx->tx_posted = true;
	if (tx->tx_nwrs) {
		tx->tx_wrs[tx->tx_nwrs - 1].wr.next = &tx->tx_send_wr;
		first = &tx->tx_wrs[0].wr;
	}
	if (simulated) {
		rc = -EIO;
	} else if (tx->tx_mapped_mr && READ_ONCE(kib_test_fail_post)) {
		WRITE_ONCE(kib_test_fail_post, kib_test_fail_post - 1);
		rc = -ENOMEM;
	} else {
		rc = ib_post_send(conn->ibc_cmid->qp, first, &bad);
	}
	if (rc) {
		/*
		 * The message was not posted (the WRs before @bad were, and
		 * run or are flushed by the teardown): undo, fail the
		 * connection, and have the MR retired, as its registration
		 * may not have reached the device while its key moved on.
		 */
		if (!simulated)
			pr_err("ko2iblnd: ib_post_send: %d\n", rc);
		tx->tx_posted = false;
		conn->ibc_nsends_posted--;
		tx->tx_sending--;
		if (tx->tx_type == IBLND_MSG_NOOP)
			conn->ibc_noops_posted--;
		tx->tx_status = rc;
		kib_conn_close_locked(conn, rc);
		return -EAGAIN;	/* the teardown fails it with the rest */
	}
	return 0;
}

/* Whether @tx is the sink at the head of @conn's MR waiters. */
static bool kib_tx_waits_mr(struct kib_conn *conn, struct kib_tx *tx)
{
	return tx == list_first_entry_or_null(&conn->ibc_tx_queue_mr,
					      struct kib_tx, tx_list);
}

/*
 * The next message to post on @conn, and whether it takes a credit: the
 * responses (no credit), NOOPs, the first sink waiting for an MR unless
 * @mr_free is false (the pool was found empty in this pass), then the
 * credited messages.  A credited message stuck for credits stops the
 * pass, as everything after it would.
 */
static struct kib_tx *kib_next_tx_locked(struct kib_conn *conn, bool mr_free,
					 int *credit)
{
	struct kib_tx *tx;

	tx = list_first_entry_or_null(&conn->ibc_tx_queue_nocred,
				      struct kib_tx, tx_list);
	if (tx) {
		*credit = 0;
		return tx;
	}
	tx = list_first_entry_or_null(&conn->ibc_tx_noops, struct kib_tx,
				      tx_list);
	if (tx) {
		/* V2: out of band; V1: credited */
		*credit = !kib_oob_capable(conn->ibc_version);
		return tx;
	}
	tx = mr_free ? list_first_entry_or_null(&conn->ibc_tx_queue_mr,
						struct kib_tx, tx_list) : NULL;
	if (tx) {
		*credit = tx->tx_type == IBLND_MSG_GET_REQ;
		return tx;
	}
	tx = list_first_entry_or_null(&conn->ibc_tx_queue, struct kib_tx,
				      tx_list);
	*credit = 1;
	return tx;
}

/**
 * kib_check_sends() - post what the credits and limits allow
 * @conn: the connection
 *
 * A sink that finds the MR pool empty waits aside (ibc_tx_queue_mr) for
 * the pool's wake, and the messages after it that need no MR (credit
 * returns, completions, small messages) go on.
 *
 * Context: any; takes kn_lock.
 */
void kib_check_sends(struct kib_conn *conn)
{
	struct kib_net *net = conn->ibc_net;
	struct kib_tx *tx, *noop = NULL;
	bool mr_free = true;
	int credit, rc;

	spin_lock_bh(&net->kn_lock);
	if (conn->ibc_state != KIB_CONN_ESTABLISHED) {
		spin_unlock_bh(&net->kn_lock);
		return;
	}
	while (conn->ibc_reserved > 0 &&
	       !list_empty(&conn->ibc_tx_queue_rsrvd)) {
		tx = list_first_entry(&conn->ibc_tx_queue_rsrvd, struct kib_tx,
				      tx_list);
		list_move_tail(&tx->tx_list, &conn->ibc_tx_queue);
		conn->ibc_reserved--;
	}
	if (kib_need_noop_locked(conn) && list_empty(&conn->ibc_tx_noops)) {
		spin_unlock_bh(&net->kn_lock);
		noop = kib_tx_alloc(net, IBLND_MSG_NOOP);
		spin_lock_bh(&net->kn_lock);
		if (noop) {
			noop->tx_nob = IBLND_MSG_HDR_SIZE;
			if (kib_keepalive_due(conn))
				kib_stat_inc(KIB_STAT_KEEPALIVES);
			noop->tx_deadline = jiffies +
					    lnet_secs_to_jiffies(kib_timeout());
			if (!kib_queue_tx_locked(conn, noop)) {
				spin_unlock_bh(&net->kn_lock);
				kib_tx_done(noop);
				return;
			}
		}
	}
	while (conn->ibc_state == KIB_CONN_ESTABLISHED) {
		tx = kib_next_tx_locked(conn, mr_free, &credit);
		if (!tx)
			break;
		/* Sinks get MRs in arrival order: no overtaking a waiter. */
		if (tx->tx_rd && !kib_tx_waits_mr(conn, tx) &&
		    !list_empty(&conn->ibc_tx_queue_mr)) {
			list_move_tail(&tx->tx_list, &conn->ibc_tx_queue_mr);
			continue;
		}
		rc = kib_post_tx_locked(conn, tx, credit);
		if (rc == KIB_POST_MR_WAIT) {
			/* It waits aside; what needs no MR goes on. */
			if (!kib_tx_waits_mr(conn, tx))
				list_move_tail(&tx->tx_list,
					       &conn->ibc_tx_queue_mr);
			mr_free = false;
			continue;
		}
		if (rc)
			break;
	}
	spin_unlock_bh(&net->kn_lock);
}

/* Error completion of an unsignalled RDMA WRITE: the message follows. */
static void kib_tx_rdma_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct kib_tx *tx = container_of(wc->wr_cqe, struct kib_tx,
					 tx_rdma_cqe);

	if (wc->status != IB_WC_WR_FLUSH_ERR)
		kib_stat_inc(KIB_STAT_WC_ERRORS);
	if (wc->status == IB_WC_RNR_RETRY_EXC_ERR)
		kib_stat_inc(KIB_STAT_RNR);
	tx->tx_wc_err = true;
	tx->tx_status = -EIO;
}

static void kib_tx_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct kib_tx *tx = container_of(wc->wr_cqe, struct kib_tx, tx_cqe);
	struct kib_conn *conn = tx->tx_conn;
	struct kib_net *net = conn->ibc_net;
	bool failed = wc->status != IB_WC_SUCCESS;
	bool idle;

	if (failed && wc->status != IB_WC_WR_FLUSH_ERR) {
		kib_stat_inc(KIB_STAT_WC_ERRORS);
		if (wc->status == IB_WC_RNR_RETRY_EXC_ERR)
			kib_stat_inc(KIB_STAT_RNR);
		pr_debug("ko2iblnd: send completion status %d\n", wc->status);
	}
	spin_lock_bh(&net->kn_lock);
	tx->tx_sending--;
	conn->ibc_nsends_posted--;
	if (tx->tx_type == IBLND_MSG_NOOP)
		conn->ibc_noops_posted--;
	if (failed) {
		/*
		 * A flushed send never ran; another failed without the
		 * peer's acknowledgment: it dropped it (spec 3b).  A PUT
		 * whose data phase failed was matched by the peer already.
		 */
		if (tx->tx_type == IBLND_MSG_PUT_DONE)
			tx->tx_hstatus = LNET_MSG_STATUS_REMOTE_ERROR;
		else if (!tx->tx_hstatus)
			tx->tx_hstatus = wc->status == IB_WC_WR_FLUSH_ERR ?
					 LNET_MSG_STATUS_LOCAL_DROPPED :
					 LNET_MSG_STATUS_REMOTE_DROPPED;
		tx->tx_wc_err = true;
		tx->tx_waiting = false;
		tx->tx_status = -EIO;
		kib_conn_close_locked(conn, -EIO);
	}
	idle = !tx->tx_sending && !tx->tx_waiting && !tx->tx_queued;
	if (idle)
		list_del(&tx->tx_list);
	spin_unlock_bh(&net->kn_lock);
	if (idle)
		kib_tx_done(tx);
	kib_check_sends(conn);
}

/* Queue @tx for @nid: on its connection, or on the peer (connecting). */
static void kib_launch_tx(struct kib_net *net, struct kib_tx *tx, u64 nid)
{
	struct kib_peer *peer;
	struct kib_conn *conn = NULL;

	spin_lock_bh(&net->kn_lock);
	peer = net->kn_down ? NULL : kib_peer_get_locked(net, nid);
	if (!peer) {
		tx->tx_status = net->kn_down ?: -ENOMEM;
		spin_unlock_bh(&net->kn_lock);
		kib_tx_done(tx);
		return;
	}
	conn = kib_peer_conn_locked(peer);
	if (conn) {
		kref_get(&conn->ibc_ref);
		kib_peer_connect_more_locked(peer);
	} else {
		tx->tx_deadline = jiffies + kib_peer_tx_timeout();
		list_add_tail(&tx->tx_list, &peer->ibp_txq);
		/* No back-off for a first connection, as stock's o2iblnd. */
		if (!peer->ibp_accepting)
			kib_peer_connect_locked(peer, 0);
	}
	spin_unlock_bh(&net->kn_lock);
	if (conn) {
		tx->tx_deadline = 0;
		kib_queue_tx(conn, tx);
		kib_conn_put(conn);
	}
}

/* kib_send() within its RCU read section: @ni's device is there. */
static int kib_send_msg(struct lnet_ni *ni, struct lnet_msg *msg)
{
	struct kib_net *net = ni->ni_data;
	struct lnet_libmd *md = msg->msg_md;
	/* The peer NI LNet chose (multi-rail): not the final destination. */
	u64 nid = lnet_nid_to_nid4(&msg->msg_txpeer->lpni_nid);
	unsigned int len = msg->msg_len;
	struct kib_msg *ibmsg;
	struct iov_iter it;
	struct kib_tx *tx;
	u8 type;
	int rc;

	/*
	 * To our own NID (a recovery ping of this NI) the device may loop
	 * the packets back whatever its port's state (soft-RoCE does):
	 * with the port down it fails here, as any send by the port would.
	 */
	if (READ_ONCE(ni->ni_fatal) && nid == lnet_nid_to_nid4(&ni->ni_nid)) {
		msg->msg_health_status = LNET_MSG_STATUS_LOCAL_DROPPED;
		return -ENETDOWN;
	}
	switch (msg->msg_type) {
	case LNET_MSG_GET:
		/*
		 * A GET forwarded, or whose next hop is a router, always goes
		 * IMMEDIATE (routing spec 4.6): a router RDMAs no sink for
		 * another node; the REPLY comes back as a message of its own.
		 */
		if (md && !msg->msg_routing && !msg->msg_target_is_router &&
		    IBLND_IMMEDIATE_HDR_SIZE + md->md_length > IBLND_MSG_SIZE) {
			type = IBLND_MSG_GET_REQ;
			break;
		}
		len = 0;	/* the GET header alone */
		type = IBLND_MSG_IMMEDIATE;
		break;
	case LNET_MSG_PUT:
	case LNET_MSG_REPLY:
		type = len <= IBLND_IMMEDIATE_MAX ? IBLND_MSG_IMMEDIATE :
						    IBLND_MSG_PUT_REQ;
		break;
	default:
		len = 0;
		type = IBLND_MSG_IMMEDIATE;
		break;
	}
	tx = kib_tx_alloc(net, type);
	if (!tx)
		return -ENOMEM;
	ibmsg = tx->tx_msg;
	/* The LNet header sits at 48 in all three (spec 5.5). */
	rc = lnet_hdr_to_nid4(&msg->msg_hdr, ibmsg->ibm_u.immediate.ibim_hdr);
	if (rc)
		goto fail;
	tx->tx_lntmsg[0] = msg;

	switch (type) {
	case IBLND_MSG_IMMEDIATE:
		if (len) {
			lnet_md_iter(md, ITER_SOURCE, msg->msg_offset, len, &it);
			if (copy_from_iter(ibmsg->ibm_u.immediate.ibim_payload,
					   len, &it) != len) {
				rc = -EFAULT;
				goto fail;
			}
		}
		tx->tx_nob = IBLND_IMMEDIATE_HDR_SIZE + len;
		break;
	case IBLND_MSG_PUT_REQ:
		lnet_md_iter(md, ITER_SOURCE, msg->msg_offset, len, &it);
		rc = kib_map_iter(tx, &it, DMA_TO_DEVICE);
		if (rc)
			goto fail;
		tx->tx_cookie = kib_next_cookie(net);
		ibmsg->ibm_u.putreq.ibprm_cookie = tx->tx_cookie;
		tx->tx_nob = offsetof(struct kib_msg, ibm_u.putreq) +
			     sizeof(struct kib_putreq_msg);
		tx->tx_waiting = true;	/* for PUT_ACK or PUT_NAK */
		break;
	case IBLND_MSG_GET_REQ:
		lnet_md_iter(md, ITER_DEST, 0, md->md_length, &it);
		rc = kib_map_iter(tx, &it, DMA_FROM_DEVICE);
		if (rc)
			goto fail;
		rc = kib_tx_map_rd(tx, &ibmsg->ibm_u.get.ibgm_rd);
		if (rc < 0)
			goto fail;
		/*
		 * Its REPLY is made when GET_DONE arrives (rx.c), so that
		 * a GET that fails before may be sent again by another
		 * path with no REPLY already delivered.
		 */
		tx->tx_cookie = kib_next_cookie(net);
		ibmsg->ibm_u.get.ibgm_cookie = tx->tx_cookie;
		tx->tx_nob = offsetof(struct kib_msg, ibm_u.get.ibgm_rd) +
			     kib_rdma_desc_size(rc);
		tx->tx_waiting = true;	/* for GET_DONE */
		break;
	}
	kib_launch_tx(net, tx, nid);
	return 0;
fail:
	/* LNet finalizes @msg with rc; the tx must not. */
	tx->tx_lntmsg[0] = NULL;
	tx->tx_status = rc;
	kib_tx_done(tx);
	return rc;
}

/**
 * kib_send() - lnd_send: send an LNet message (spec 5.8)
 * @ni: the NI
 * @private: unused (no routing)
 * @msg: the message
 *
 * LNet never shuts an NI down while a sender is in here (its ni_senders
 * gate), so ni_data is there.  A sender maps buffers on the NI's device,
 * which may go away under a running NI: kib_net_stop() waits with
 * synchronize_rcu() for those that did not see kn_down set before it
 * fails their messages and lets the device go.
 *
 * Context: any; never sleeps.
 * Return: 0 (the message is finalized later), or -errno.
 */
int kib_send(struct lnet_ni *ni, void *private, struct lnet_msg *msg)
{
	struct kib_net *net = ni->ni_data;
	int rc;

	rcu_read_lock();
	rc = READ_ONCE(net->kn_down) ?: kib_send_msg(ni, msg);
	rcu_read_unlock();
	return rc;
}
