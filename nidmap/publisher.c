// SPDX-License-Identifier: GPL-2.0
/*
 * The publisher role (Documentation/nidmap.rst, "Roles at run time"):
 * the table, its request endpoint (match bits NIDMAP_MB_PUBLISHER), the
 * answers (nidmap_pub_answer(): pure, KUnit-tested), the subscribers
 * and their notices.
 *
 * Notices: a change arms notice_work NIDMAP_NOTICE_DELAY later (changes
 * meanwhile share the round: batched, at most 1/NIDMAP_NOTICE_DELAY
 * rounds a second); a round sends a NOTICE to each subscriber that has
 * not been told the table's version, at most NIDMAP_FANOUT in flight,
 * the next ones as those complete.  A subscriber whose notices failed
 * NIDMAP_NOTICE_FAILS times in a row is dropped (it subscribes again by
 * its own timer).  Replies in flight are bounded in bytes: beyond
 * NIDMAP_PUB_TX_MAX a FETCH is answered BUSY.
 *
 * Everything but start/stop/show runs on the ordered nidmap_wq; the
 * mutex orders those against it.  Stop: the endpoint first (no handler
 * runs after), then the notices are stopped and every send of ours
 * waited for (their callbacks use the publisher), then the table goes.
 */
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include <kunit/visibility.h>
#include <lnet/ctl.h>

#include "node.h"

#define NIDMAP_PUB_TX_MAX	(8U << 20)	/* reply bytes in flight */

struct nidmap_subscriber {
	struct list_head	link;
	struct lnet_processid	id;
	u64			told_epoch;
	u64			told;		/* version last noticed */
	u64			sending;	/* version of the notice in flight */
	unsigned int		fails;
	bool			inflight;
	bool			gone;		/* unsubscribed while in flight */
};

struct nidmap_pub {
	struct nidmap_table	*table;
	struct nidmap_ep	ep;
	struct mutex		lock;		/* below */
	struct list_head	subs;
	unsigned int		nsubs;
	unsigned int		inflight;	/* notices */
	unsigned int		tx_bytes;	/* replies */
	bool			stopping;
	struct delayed_work	notice_work;
	wait_queue_head_t	waitq;
};

/* Under nidmap_cfg_lock (netlink.c). */
static struct nidmap_pub *nidmap_pub;

static int nidmap_emit_enc(void *arg, const struct nidmap_rec *rec)
{
	return nidmap_enc_rec(arg, rec);
}

static int nidmap_answer_status(const struct nidmap_hdr *req, u64 epoch,
				u64 version, u64 base, u16 status, void *buf,
				size_t size)
{
	struct nidmap_enc enc;
	struct nidmap_hdr h;
	int rc;

	nidmap_hdr_init(&h, NIDMAP_STATUS);
	h.seq = nidmap_next_seq();
	h.reply_to = req->seq;
	h.epoch = epoch;
	h.version = version;
	h.base = base;
	h.status = status;
	rc = nidmap_enc_init(&enc, buf, size, &h);
	return rc ?: nidmap_enc_finish(&enc, 0);
}

static int nidmap_answer_fetch(struct nidmap_table *t,
			       const struct nidmap_msg *req, void *buf,
			       size_t size)
{
	u64 epoch = nidmap_table_epoch(t), since = req->hdr.version;
	u64 resync = NIDMAP_NO_RESYNC;
	struct nidmap_extract res;
	struct nidmap_enc enc;
	struct nidmap_hdr h;
	int rc;

	if (req->hdr.epoch != epoch)
		since = U64_MAX;	/* another history: a full resync */
	else if (req->hdr.flags & NIDMAP_F_FULL)
		resync = req->hdr.base;
	nidmap_hdr_init(&h, NIDMAP_FETCH_REPLY);
	h.seq = nidmap_next_seq();
	h.reply_to = req->hdr.seq;
	h.epoch = epoch;
	rc = nidmap_enc_init(&enc, buf, min_t(size_t, size, req->room), &h);
	if (rc)
		return rc;
	rc = nidmap_table_extract(t, since, resync, nidmap_emit_enc, &enc,
				  &res);
	if (rc)
		return rc;
	enc.hdr.flags = (res.full ? NIDMAP_F_FULL : 0) |
			(res.more ? NIDMAP_F_MORE : 0);
	enc.hdr.version = res.upto;
	enc.hdr.base = res.full ? res.horizon : since;
	return nidmap_enc_finish(&enc, 0);
}

static bool nidmap_next_rec(void *arg, struct nidmap_rec *rec)
{
	return nidmap_iter_rec(arg, rec);
}

static int nidmap_answer_register(struct nidmap_table *t,
				  const struct nidmap_msg *req,
				  const struct lnet_nid *from, void *buf,
				  size_t size)
{
	struct nidmap_iter it;
	u32 index;
	int rc;

	nidmap_iter_init(&it, req);
	rc = nidmap_table_apply(t, nidmap_next_rec, &it, from, &index);
	if (rc)
		nidmap_count(NIDMAP_A_CTR_REFUSED);
	return nidmap_answer_status(&req->hdr, nidmap_table_epoch(t),
				    nidmap_table_version(t), rc ? index : 0,
				    nidmap_errno_to_status(rc), buf, size);
}

/**
 * nidmap_pub_answer() - a publisher's answer to a decoded request
 * @t: the table
 * @req: a FETCH, REGISTER or SUBSCRIBE, decoded by nidmap_msg_decode()
 * @from: the requester's NID (REGISTER's owner check)
 * @buf: where the answer is encoded
 * @size: its size (a FETCH_REPLY takes at most the request's room)
 *
 * FETCH: a FETCH_REPLY page, a delta from the request's version or a
 * full resync (another epoch, a version beyond the table's, tombstones
 * forgotten), continuing a resync with FULL.  REGISTER: its records
 * applied in order, all or none (nidmap_table_apply()), a STATUS with
 * the table's version after, or the refusal's status and the refused
 * record's index (in @base), the table unchanged.  SUBSCRIBE: a STATUS
 * OK with the table's epoch and version (the caller keeps the subscriber
 * list).
 *
 * Return: the answer's length, or -errno (-EOPNOTSUPP not a request).
 */
int nidmap_pub_answer(struct nidmap_table *t, const struct nidmap_msg *req,
		      const struct lnet_nid *from, void *buf, size_t size)
{
	switch (req->hdr.type) {
	case NIDMAP_FETCH:
		return nidmap_answer_fetch(t, req, buf, size);
	case NIDMAP_REGISTER:
		return nidmap_answer_register(t, req, from, buf, size);
	case NIDMAP_SUBSCRIBE:
		return nidmap_answer_status(&req->hdr, nidmap_table_epoch(t),
					    nidmap_table_version(t), 0,
					    NIDMAP_ST_OK, buf, size);
	default:
		return -EOPNOTSUPP;
	}
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_pub_answer);

/* --- subscribers and notices --- */

static struct nidmap_subscriber *nidmap_sub_find(struct nidmap_pub *pub,
						 const struct lnet_nid *nid)
{
	struct nidmap_subscriber *s;

	list_for_each_entry(s, &pub->subs, link)
		if (!s->gone && lnet_nid_equal(&s->id.nid, nid))
			return s;
	return NULL;
}

static void nidmap_sub_forget(struct nidmap_pub *pub,
			      struct nidmap_subscriber *s)
{
	if (s->inflight) {
		s->gone = true;		/* nidmap_notice_done() frees it */
		return;
	}
	list_del(&s->link);
	pub->nsubs--;
	kfree(s);
}

static void nidmap_notice_kick(struct nidmap_pub *pub, unsigned long delay)
{
	if (!pub->stopping)
		queue_delayed_work(nidmap_wq, &pub->notice_work, delay);
}

static void nidmap_notice_done(void *arg, int status)
{
	struct nidmap_subscriber *s = arg;
	struct nidmap_pub *pub = nidmap_pub;

	/* Stop waits for this: nidmap_pub is still ours. */
	mutex_lock(&pub->lock);
	s->inflight = false;
	pub->inflight--;
	if (s->gone) {
		nidmap_sub_forget(pub, s);
	} else if (status) {
		if (++s->fails >= NIDMAP_NOTICE_FAILS) {
			nidmap_count(NIDMAP_A_CTR_SUBS_DROPPED);
			nidmap_sub_forget(pub, s);
		}
	} else {
		s->fails = 0;
		s->told = s->sending;
		s->told_epoch = nidmap_table_epoch(pub->table);
	}
	nidmap_notice_kick(pub, 0);
	mutex_unlock(&pub->lock);
	wake_up(&pub->waitq);
}

static void nidmap_notice_work(struct work_struct *work)
{
	struct nidmap_pub *pub = container_of(to_delayed_work(work),
					      struct nidmap_pub, notice_work);
	u64 epoch = nidmap_table_epoch(pub->table);
	u64 version = nidmap_table_version(pub->table);
	struct nidmap_subscriber *s;
	struct nidmap_enc enc;
	struct nidmap_hdr h;
	void *buf;
	int len;

	mutex_lock(&pub->lock);
	list_for_each_entry(s, &pub->subs, link) {
		if (pub->stopping || pub->inflight >= NIDMAP_FANOUT)
			break;
		if (s->inflight || s->gone ||
		    (s->told_epoch == epoch && s->told >= version))
			continue;
		buf = kmalloc(NIDMAP_HDR_SIZE, GFP_KERNEL);
		if (!buf)
			break;
		nidmap_hdr_init(&h, NIDMAP_NOTICE);
		h.seq = nidmap_next_seq();
		h.epoch = epoch;
		h.version = version;
		h.base = nidmap_table_horizon(pub->table);
		len = nidmap_enc_init(&enc, buf, NIDMAP_HDR_SIZE, &h) ?:
		      nidmap_enc_finish(&enc, 0);
		if (len < 0) {
			kfree(buf);
			break;
		}
		s->inflight = true;
		s->sending = version;
		pub->inflight++;
		nidmap_count(NIDMAP_A_CTR_NOTICES_SENT);
		if (nidmap_send(&s->id, NIDMAP_MB_SUBSCRIBER, buf, len,
				nidmap_notice_done, s)) {
			s->inflight = false;
			pub->inflight--;
			break;
		}
	}
	mutex_unlock(&pub->lock);
}

/* A SUBSCRIBE: the list changes; Return: the status to answer. */
static u16 nidmap_pub_subscribe(struct nidmap_pub *pub,
				const struct nidmap_msg *req,
				const struct lnet_processid *from)
{
	struct nidmap_subscriber *s;
	u16 st = NIDMAP_ST_OK;

	mutex_lock(&pub->lock);
	s = nidmap_sub_find(pub, &from->nid);
	if (req->hdr.flags & NIDMAP_F_UNSUB) {
		if (s)
			nidmap_sub_forget(pub, s);
		goto out;
	}
	if (!s) {
		s = pub->nsubs < NIDMAP_SUBS_MAX ?
		    kzalloc(sizeof(*s), GFP_KERNEL) : NULL;
		if (!s) {
			st = NIDMAP_ST_NOSPC;
			goto out;
		}
		s->id = *from;
		s->id.pid = LNET_PID_LUSTRE;
		list_add_tail(&s->link, &pub->subs);
		pub->nsubs++;
	}
	s->fails = 0;
	s->told_epoch = req->hdr.epoch;
	s->told = req->hdr.version;
	nidmap_notice_kick(pub, 0);
out:
	mutex_unlock(&pub->lock);
	return st;
}

/* --- requests --- */

/* A reply's send is over: its bytes are free again. */
static void nidmap_reply_done(void *arg, int status)
{
	struct nidmap_pub *pub = arg;

	mutex_lock(&pub->lock);
	pub->tx_bytes -= NIDMAP_FETCH_ROOM;
	mutex_unlock(&pub->lock);
	wake_up(&pub->waitq);
}

static void nidmap_pub_rx(struct nidmap_ep *ep, const void *buf,
			  unsigned int len, const struct lnet_processid *from)
{
	struct nidmap_pub *pub = ep->priv;
	struct nidmap_msg msg;
	size_t size = NIDMAP_STATUS_ROOM;
	u16 st = NIDMAP_ST_OK;
	u64 before;
	void *out;
	int rc;

	rc = nidmap_msg_decode(buf, len, &msg);
	if (rc && rc != -EOPNOTSUPP && rc != -EPROTONOSUPPORT) {
		nidmap_count(NIDMAP_A_CTR_RX_DROPPED);
		return;
	}
	/* Notices, replies: not ours to answer (no ping-pong). */
	if (!rc && msg.hdr.type != NIDMAP_FETCH &&
	    msg.hdr.type != NIDMAP_REGISTER &&
	    msg.hdr.type != NIDMAP_SUBSCRIBE) {
		nidmap_count(NIDMAP_A_CTR_RX_DROPPED);
		return;
	}
	if (!rc && msg.hdr.type == NIDMAP_FETCH)
		size = min_t(u32, msg.room, NIDMAP_FETCH_ROOM);
	mutex_lock(&pub->lock);
	if (pub->tx_bytes + NIDMAP_FETCH_ROOM > NIDMAP_PUB_TX_MAX) {
		size = NIDMAP_STATUS_ROOM;
		st = NIDMAP_ST_BUSY;
	}
	pub->tx_bytes += NIDMAP_FETCH_ROOM;
	mutex_unlock(&pub->lock);
	out = kvmalloc(size, GFP_KERNEL);
	if (!out) {
		nidmap_reply_done(pub, -ENOMEM);
		return;
	}
	before = nidmap_table_version(pub->table);
	if (rc)
		st = nidmap_errno_to_status(rc);
	else if (!st && msg.hdr.type == NIDMAP_SUBSCRIBE)
		st = nidmap_pub_subscribe(pub, &msg, from);
	if (st) {
		nidmap_count(NIDMAP_A_CTR_REFUSED);
		rc = nidmap_answer_status(&msg.hdr, nidmap_table_epoch(pub->table),
					  nidmap_table_version(pub->table), 0,
					  st, out, size);
	} else {
		rc = nidmap_pub_answer(pub->table, &msg, &from->nid, out, size);
		if (msg.hdr.type == NIDMAP_FETCH)
			nidmap_count(NIDMAP_A_CTR_FETCHES);
		else if (msg.hdr.type == NIDMAP_REGISTER)
			nidmap_count(NIDMAP_A_CTR_REGISTERS);
	}
	if (nidmap_table_version(pub->table) != before) {
		mutex_lock(&pub->lock);
		nidmap_notice_kick(pub, NIDMAP_NOTICE_DELAY);
		mutex_unlock(&pub->lock);
	}
	if (rc < 0) {
		kvfree(out);
		nidmap_reply_done(pub, rc);
		return;
	}
	if (nidmap_send(from, NIDMAP_MB_REPLY | msg.hdr.seq, out, rc,
			nidmap_reply_done, pub))
		nidmap_reply_done(pub, -ENOMEM);
}

/**
 * nidmap_pub_start() - become a publisher: a new table (a new epoch) and
 *	the request endpoint
 * @lim: the table's bounds
 *
 * Context: process context, nidmap_cfg_lock held.
 * Return: 0; -EALREADY; -ENETDOWN LNet not running; -ENOMEM.
 */
int nidmap_pub_start(const struct nidmap_limits *lim)
{
	struct nidmap_pub *pub;
	u64 epoch;
	int rc;

	if (nidmap_pub)
		return -EALREADY;
	if (!lnet_is_configured())
		return -ENETDOWN;
	pub = kzalloc(sizeof(*pub), GFP_KERNEL);
	if (!pub)
		return -ENOMEM;
	/* Epoch: the clock and random bits, never 0. */
	epoch = (u64)ktime_get_real_seconds() << 32 | get_random_u32() | 1;
	pub->table = nidmap_table_create(lim, epoch);
	if (IS_ERR(pub->table)) {
		rc = PTR_ERR(pub->table);
		kfree(pub);
		return rc;
	}
	mutex_init(&pub->lock);
	INIT_LIST_HEAD(&pub->subs);
	init_waitqueue_head(&pub->waitq);
	INIT_DELAYED_WORK(&pub->notice_work, nidmap_notice_work);
	rc = lnet_ni_init();
	if (rc)
		goto fail;
	pub->ep.match = NIDMAP_MB_PUBLISHER;
	pub->ep.size = NIDMAP_PUB_RX_SIZE;
	pub->ep.nbuf = NIDMAP_PUB_RX_NBUF;
	pub->ep.handle = nidmap_pub_rx;
	pub->ep.priv = pub;
	nidmap_pub = pub;
	rc = nidmap_ep_start(&pub->ep);
	if (!rc)
		return 0;
	nidmap_pub = NULL;
	lnet_ni_fini();
fail:
	nidmap_table_destroy(pub->table);
	kfree(pub);
	return rc;
}

/**
 * nidmap_pub_stop() - stop publishing; the table is gone
 *
 * Context: process context, nidmap_cfg_lock held, not on nidmap_wq.
 */
void nidmap_pub_stop(void)
{
	struct nidmap_pub *pub = nidmap_pub;
	struct nidmap_subscriber *s, *n;

	if (!pub)
		return;
	nidmap_ep_stop(&pub->ep);
	mutex_lock(&pub->lock);
	pub->stopping = true;
	mutex_unlock(&pub->lock);
	cancel_delayed_work_sync(&pub->notice_work);
	wait_event_idle(pub->waitq, !READ_ONCE(pub->inflight) &&
			!READ_ONCE(pub->tx_bytes));
	/* The callbacks that woke us run on nidmap_wq: let them return. */
	flush_workqueue(nidmap_wq);
	list_for_each_entry_safe(s, n, &pub->subs, link)
		kfree(s);
	nidmap_pub = NULL;
	lnet_ni_fini();
	nidmap_table_destroy(pub->table);
	kfree(pub);
}

/**
 * nidmap_pub_table() - the published table
 *
 * Context: nidmap_cfg_lock held (the table lives until it is dropped).
 * Return: the table, or NULL if this node does not publish.
 */
struct nidmap_table *nidmap_pub_table(void)
{
	return nidmap_pub ? nidmap_pub->table : NULL;
}

/**
 * nidmap_pub_subscribers() - how many subscribers the publisher has
 *
 * Context: nidmap_cfg_lock held, this node publishes.
 * Return: their number.
 */
u32 nidmap_pub_subscribers(void)
{
	u32 n;

	mutex_lock(&nidmap_pub->lock);
	n = nidmap_pub->nsubs;
	mutex_unlock(&nidmap_pub->lock);
	return n;
}
