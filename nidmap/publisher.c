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
 * Relay (Documentation/nidmap.rst, "Relaying a notice"): the subscribers
 * that said RELAY are planned into a tree (nidmap_relay_plan(), k the
 * fanout tunable); the publisher notices itself those of level 1 and
 * those that did not say RELAY, and each of its notices to a relay
 * carries the relay's set (its children).  A change of the list re-plans
 * (plan_work, at most once per NIDMAP_PLAN_DELAY); a relay whose set
 * changed gets a notice at the current version with its new set.  Until
 * a new subscriber is planned it is noticed directly.
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
	bool			relay;		/* said RELAY: planned */
	bool			direct;		/* noticed by the publisher */
	bool			set_dirty;	/* @set not yet sent */
	u8			nset;
	u32			set_gen;	/* @set's changes */
	u32			sending_gen;	/* @set_gen in flight */
	struct lnet_nid		*set;		/* its children in the plan */
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
	struct delayed_work	plan_work;
	wait_queue_head_t	waitq;
	struct nidmap_pub_cfg	cfg;
	u32			nrelays;	/* in the last plan */
	u32			depth;		/* of the last plan */
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

static void nidmap_notice_kick(struct nidmap_pub *pub, unsigned long delay)
{
	if (!pub->stopping)
		queue_delayed_work(nidmap_wq, &pub->notice_work, delay);
}

/* The subscriber list changed: re-plan, batched; under pub->lock. */
static void nidmap_plan_kick(struct nidmap_pub *pub)
{
	if (!pub->stopping)
		queue_delayed_work(nidmap_wq, &pub->plan_work,
				   NIDMAP_PLAN_DELAY);
}

static void nidmap_sub_forget(struct nidmap_pub *pub,
			      struct nidmap_subscriber *s)
{
	if (s->relay && !s->gone)
		nidmap_plan_kick(pub);	/* its children want parents */
	if (s->inflight) {
		s->gone = true;		/* nidmap_notice_done() frees it */
		return;
	}
	list_del(&s->link);
	pub->nsubs--;
	kfree(s->set);
	kfree(s);
}

/* @s's set becomes @nids (@n of them); Return: 0 or -ENOMEM. */
static int nidmap_set_assign(struct nidmap_subscriber *s,
			     const struct lnet_nid *nids, u32 n)
{
	struct lnet_nid *set = NULL;

	if (n == s->nset && (!n || !memcmp(s->set, nids, n * sizeof(*nids))))
		return 0;
	if (n) {
		set = kmemdup(nids, n * sizeof(*nids), GFP_KERNEL);
		if (!set)
			return -ENOMEM;
	}
	kfree(s->set);
	s->set = set;
	s->nset = n;
	s->set_gen++;
	s->set_dirty = true;
	return 0;
}

/* No plan (none possible, or no memory): every subscriber noticed. */
static void nidmap_plan_flat(struct nidmap_pub *pub)
{
	struct nidmap_subscriber *s;

	list_for_each_entry(s, &pub->subs, link) {
		s->direct = true;
		nidmap_set_assign(s, NULL, 0);
	}
	pub->depth = 0;
}

/*
 * Lay the plan over the subscribers that said RELAY: each one's set is
 * its children, each of level 1 is noticed directly; the others (no
 * RELAY) are all noticed directly.  Relays whose set changed get a
 * notice with it (set_dirty).
 */
static void nidmap_plan_work(struct work_struct *work)
{
	struct nidmap_pub *pub = container_of(to_delayed_work(work),
					      struct nidmap_pub, plan_work);
	struct nidmap_subscriber *s, **v = NULL;
	struct lnet_nid *nids = NULL, *kids = NULL;
	u32 *parent = NULL, *first = NULL, *order = NULL;
	u8 *level = NULL;
	u32 n = 0, i, j, depth = 0;

	mutex_lock(&pub->lock);
	if (pub->stopping)
		goto out;
	list_for_each_entry(s, &pub->subs, link) {
		if (!s->relay || s->gone) {
			s->direct = true;
			continue;
		}
		n++;
	}
	pub->nrelays = n;
	if (!n)
		goto out;
	v = kvmalloc_array(n, sizeof(*v), GFP_KERNEL);
	nids = kvmalloc_array(n, sizeof(*nids), GFP_KERNEL);
	parent = kvmalloc_array(n, sizeof(*parent), GFP_KERNEL);
	level = kvmalloc_array(n, sizeof(*level), GFP_KERNEL);
	first = kvmalloc_array(n + 2, sizeof(*first), GFP_KERNEL);
	order = kvmalloc_array(n, sizeof(*order), GFP_KERNEL);
	kids = kmalloc_array(NIDMAP_RELAY_K_MAX, sizeof(*kids), GFP_KERNEL);
	if (!v || !nids || !parent || !level || !first || !order || !kids)
		goto flat;
	i = 0;
	list_for_each_entry(s, &pub->subs, link) {
		if (!s->relay || s->gone)
			continue;
		v[i] = s;
		nids[i++] = s->id.nid;
	}
	if (nidmap_relay_plan(nids, n, pub->cfg.fanout, parent, level) ||
	    nidmap_relay_sets(parent, n, first, order))
		goto flat;
	for (i = 0; i < n; i++) {
		u32 nk = first[i + 1] - first[i];

		if (WARN_ON(nk > NIDMAP_RELAY_K_MAX))
			goto flat;
		for (j = 0; j < nk; j++)
			kids[j] = nids[order[first[i] + j]];
		if (nidmap_set_assign(v[i], kids, nk))
			goto flat;
		v[i]->direct = parent[i] == NIDMAP_RELAY_ROOT;
		depth = max_t(u32, depth, level[i]);
	}
	pub->depth = depth;
	goto out;
flat:
	nidmap_plan_flat(pub);
out:
	nidmap_notice_kick(pub, 0);
	mutex_unlock(&pub->lock);
	kfree(kids);
	kvfree(order);
	kvfree(first);
	kvfree(level);
	kvfree(parent);
	kvfree(nids);
	kvfree(v);
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
		if (s->sending_gen == s->set_gen)
			s->set_dirty = false;
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
	size_t size;
	void *buf;
	int len;
	u32 i;

	mutex_lock(&pub->lock);
	list_for_each_entry(s, &pub->subs, link) {
		if (pub->stopping || pub->inflight >= NIDMAP_FANOUT)
			break;
		if (s->inflight || s->gone)
			continue;
		/* Relayed ones hear from their parent; a new set is sent. */
		if (!s->set_dirty && (!s->direct ||
				      (s->told_epoch == epoch &&
				       s->told >= version)))
			continue;
		size = NIDMAP_HDR_SIZE + s->nset * NIDMAP_NID_SIZE + 8;
		buf = kmalloc(size, GFP_KERNEL);
		if (!buf)
			break;
		nidmap_hdr_init(&h, NIDMAP_NOTICE);
		h.seq = nidmap_next_seq();
		h.epoch = epoch;
		h.version = version;
		h.base = nidmap_table_horizon(pub->table);
		len = nidmap_enc_init(&enc, buf, size, &h);
		for (i = 0; !len && i < s->nset; i++)
			len = nidmap_enc_nid(&enc, &s->set[i]);
		if (!len)
			len = nidmap_enc_finish(&enc, 0);
		if (len < 0) {
			kfree(buf);
			break;
		}
		s->inflight = true;
		s->sending = version;
		s->sending_gen = s->set_gen;
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
		s = pub->nsubs < pub->cfg.max_subs ?
		    kzalloc(sizeof(*s), GFP_KERNEL) : NULL;
		if (!s) {
			st = NIDMAP_ST_NOSPC;
			goto out;
		}
		s->id = *from;
		s->id.pid = LNET_PID_LUSTRE;
		s->direct = true;	/* until a plan places it */
		list_add_tail(&s->link, &pub->subs);
		pub->nsubs++;
		if (req->hdr.flags & NIDMAP_F_RELAY)
			nidmap_plan_kick(pub);
	} else if (s->relay != !!(req->hdr.flags & NIDMAP_F_RELAY)) {
		nidmap_plan_kick(pub);
	}
	s->relay = req->hdr.flags & NIDMAP_F_RELAY;
	if (s->relay) {
		/* A restarted relay forgot its set: send it again. */
		s->set_dirty = true;
		s->set_gen++;
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
 * @cfg: the subscriber cap and the relay plan's fan-out
 *
 * Context: process context, nidmap_cfg_lock held.
 * Return: 0; -EALREADY; -ENETDOWN LNet not running; -ENOMEM.
 */
int nidmap_pub_start(const struct nidmap_limits *lim,
		     const struct nidmap_pub_cfg *cfg)
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
	INIT_DELAYED_WORK(&pub->plan_work, nidmap_plan_work);
	pub->cfg = *cfg;
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
	cancel_delayed_work_sync(&pub->plan_work);
	cancel_delayed_work_sync(&pub->notice_work);
	wait_event_idle(pub->waitq, !READ_ONCE(pub->inflight) &&
			!READ_ONCE(pub->tx_bytes));
	/* The callbacks that woke us run on nidmap_wq: let them return. */
	flush_workqueue(nidmap_wq);
	list_for_each_entry_safe(s, n, &pub->subs, link) {
		kfree(s->set);
		kfree(s);
	}
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
 * nidmap_pub_info() - the publisher's subscribers and relay plan
 * @info: filled
 *
 * Context: nidmap_cfg_lock held, this node publishes.
 */
void nidmap_pub_info(struct nidmap_pub_info *info)
{
	struct nidmap_pub *pub = nidmap_pub;
	struct nidmap_subscriber *s;

	memset(info, 0, sizeof(*info));
	mutex_lock(&pub->lock);
	info->subs = pub->nsubs;
	info->relays = pub->nrelays;
	info->depth = pub->depth;
	info->max_subs = pub->cfg.max_subs;
	info->fanout = pub->cfg.fanout;
	list_for_each_entry(s, &pub->subs, link)
		if (!s->gone && s->direct)
			info->direct++;
	mutex_unlock(&pub->lock);
}
