// SPDX-License-Identifier: GPL-2.0
/*
 * The loopback LND: the one NI 0@lo, which also carries messages a node
 * sends to its own NIDs.  A send is queued and delivered by a work item,
 * not in the sender's context: a GET's REPLY and a PUT's ACK are sent from
 * inside delivery, and a queue keeps that from recursing.  The header
 * still goes through the nid16 wire codec, so loopback traffic is checked
 * like any other.  Data moves MD to MD, without an intermediate copy.
 */
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <lnet/lib-lnet.h>

struct lnet_lo {
	spinlock_t		lo_lock;	/* protects lo_txq */
	struct list_head	lo_txq;		/* messages to deliver */
	struct work_struct	lo_work;
	struct lnet_ni		*lo_ni;
};

static void lnet_lo_work(struct work_struct *work)
{
	struct lnet_lo *lo = container_of(work, struct lnet_lo, lo_work);
	u8 wire[LNET_HDR_NID16_SIZE];
	struct lnet_msg *msg;
	int rc;

	for (;;) {
		spin_lock_bh(&lo->lo_lock);
		msg = list_first_entry_or_null(&lo->lo_txq, struct lnet_msg,
					       msg_list);
		if (msg)
			list_del_init(&msg->msg_list);
		spin_unlock_bh(&lo->lo_lock);
		if (!msg)
			return;
		lnet_hdr_to_nid16(&msg->msg_hdr, wire);
		rc = lnet_parse(lo->lo_ni, wire, sizeof(wire),
				&msg->msg_hdr.src_nid, msg);
		/* Else lnet_lo_recv() finalizes it, maybe later (a delay). */
		if (rc)
			lnet_finalize(msg, rc);
		cond_resched();
	}
}

static int lnet_lo_startup(struct lnet_ni *ni)
{
	struct lnet_lo *lo;

	lo = kzalloc(sizeof(*lo), GFP_KERNEL);
	if (!lo)
		return -ENOMEM;
	spin_lock_init(&lo->lo_lock);
	INIT_LIST_HEAD(&lo->lo_txq);
	INIT_WORK(&lo->lo_work, lnet_lo_work);
	lo->lo_ni = ni;
	lnet_nid4_to_nid(LNET_NID_LO_0, &ni->ni_nid);
	ni->ni_data = lo;
	return 0;
}

static void lnet_lo_shutdown(struct lnet_ni *ni)
{
	struct lnet_lo *lo = ni->ni_data;

	/* LNet is stopping: nothing new is sent, so this drains the queue. */
	flush_work(&lo->lo_work);
	WARN_ON(!list_empty(&lo->lo_txq));
	kfree(lo);
	ni->ni_data = NULL;
}

static int lnet_lo_send(struct lnet_ni *ni, void *private,
			struct lnet_msg *msg)
{
	struct lnet_lo *lo = ni->ni_data;

	spin_lock_bh(&lo->lo_lock);
	list_add_tail(&msg->msg_list, &lo->lo_txq);
	spin_unlock_bh(&lo->lo_lock);
	queue_work(system_unbound_wq, &lo->lo_work);
	return 0;
}

/*
 * @private is the sending message: copy straight from its MD, then both
 * are done (the sending one also when the receiver dropped it).
 */
static int lnet_lo_recv(struct lnet_ni *ni, void *private,
			struct lnet_msg *msg, struct iov_iter *to,
			unsigned int mlen, unsigned int rlen)
{
	struct lnet_msg *tx = private;
	int rc = 0;

	if (msg) {
		if (mlen)
			rc = lnet_md_copy_to_iter(tx->msg_md, tx->msg_offset,
						  mlen, to);
		lnet_finalize(msg, rc);
	}
	lnet_finalize(tx, 0);
	return 0;
}

struct lnet_lnd lnet_lolnd = {
	.lnd_type	= LNET_LND_LO,
	.lnd_owner	= NULL,	/* part of lnet.ko: no reference on itself */
	.lnd_tunables	= { 0, 0, 0, 0 },
	.lnd_startup	= lnet_lo_startup,
	.lnd_shutdown	= lnet_lo_shutdown,
	.lnd_send	= lnet_lo_send,
	.lnd_recv	= lnet_lo_recv,
};
