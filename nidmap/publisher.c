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
 * Scale (Documentation/nidmap.rst, "Publisher at scale"): subscribers are
 * found by NID in an rhashtable (SUBSCRIBE, UNSUB); a plan walks the
 * relays list; a notice round takes the subscribers owed a notice from
 * the due list (a new version moves the idle ones, noticed directly and
 * told, onto it in one splice), so it costs what it sends, not n.
 *
 * Everything but start/stop/show runs on the ordered nidmap_wq; the
 * mutex orders those against it.  Stop: the endpoint first (no handler
 * runs after), then the notices are stopped and every send of ours
 * waited for (their callbacks use the publisher; a gone subscriber is
 * freed by its notice's completion), then the hash frees the
 * subscribers, then the table goes.  nidmap_pub_create() makes the
 * state without LNet, for KUnit (kunit/nidmap_pub_test.c).
 */
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include <kunit/visibility.h>
#include <lnet/ctl.h>

#include "node.h"

#define NIDMAP_PUB_TX_MAX	(8U << 20)	/* reply bytes in flight */

/*
 * A subscriber: in pub->hash (by NID) while subscribed, which owns it;
 * once gone (UNSUB, dropped) only its notice in flight holds it, and its
 * completion frees it.  On pub->relays if it said RELAY; on pub->due or
 * pub->idle if the publisher notices it (directly, or to give it a new
 * set) and no notice of it is in flight.  In pub->inc_hash too when its
 * SUBSCRIBE was authenticated (@inc not 0): the same subscriber from
 * another NID (it moved, renew.c) replaces it.
 */
struct nidmap_subscriber {
	struct rhash_head	node;		/* pub->hash */
	struct rhash_head	inc_node;	/* pub->inc_hash, if @inc */
	u64			inc;		/* its incarnation, authenticated */
	struct list_head	relay_link;	/* pub->relays */
	struct list_head	notice_link;	/* pub->due, pub->idle */
	struct nidmap_pub	*pub;
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
	struct rhashtable	hash;		/* subscribers, by NID */
	struct rhashtable	inc_hash;	/* and by incarnation */
	struct list_head	relays;		/* those that said RELAY */
	struct list_head	due;		/* to notice now */
	struct list_head	idle;		/* noticed directly, told */
	u64			round_epoch;	/* what due/idle are about */
	u64			round_version;
	unsigned int		nsubs;		/* in hash, or gone in flight */
	unsigned int		nrelay;		/* on relays */
	unsigned int		ndirect;	/* noticed directly */
	unsigned int		inflight;	/* notices */
	unsigned int		tx_bytes;	/* replies */
	bool			stopping;
	struct delayed_work	notice_work;
	struct delayed_work	plan_work;
	wait_queue_head_t	waitq;
	struct nidmap_pub_cfg	cfg;
	u32			nrelays;	/* in the last plan */
	u32			depth;		/* of the last plan */
	nidmap_send_fn		send;		/* nidmap_send(), or KUnit's */
	struct workqueue_struct	*wq;		/* NULL: KUnit runs the works */
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
	/* The page leaves room for the trailer nidmap_seal() adds. */
	rc = nidmap_enc_init(&enc, buf, min_t(size_t, size, req->room) -
			     nidmap_seal_room(), &h);
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
				  const struct lnet_nid *from, bool authed,
				  void *buf, size_t size)
{
	struct nidmap_iter it;
	u32 index;
	int rc;

	nidmap_iter_init(&it, req);
	rc = nidmap_table_apply(t, nidmap_next_rec, &it, from,
				authed ? req->hdr.incarnation : 0, &index);
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
 * @authed: @req's AUTH trailer was verified, so its incarnation is its
 *	sender's (REGISTER's owner check: a registrant that moved)
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
		      const struct lnet_nid *from, bool authed, void *buf,
		      size_t size)
{
	switch (req->hdr.type) {
	case NIDMAP_FETCH:
		return nidmap_answer_fetch(t, req, buf, size);
	case NIDMAP_REGISTER:
		return nidmap_answer_register(t, req, from, authed, buf,
					      size);
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

static const struct rhashtable_params nidmap_sub_params = {
	.key_len		= sizeof(struct lnet_nid),
	.key_offset		= offsetof(struct nidmap_subscriber, id.nid),
	.head_offset		= offsetof(struct nidmap_subscriber, node),
	.hashfn			= lnet_nid_rht_hashfn,
	.obj_cmpfn		= lnet_nid_rht_cmpfn,
	.automatic_shrinking	= true,
};

static const struct rhashtable_params nidmap_sub_inc_params = {
	.key_len		= sizeof(u64),
	.key_offset		= offsetof(struct nidmap_subscriber, inc),
	.head_offset		= offsetof(struct nidmap_subscriber, inc_node),
	.automatic_shrinking	= true,
};

static void nidmap_notice_kick(struct nidmap_pub *pub, unsigned long delay)
{
	if (!pub->stopping && pub->wq)
		queue_delayed_work(pub->wq, &pub->notice_work, delay);
}

/* The subscriber list changed: re-plan, batched; under pub->lock. */
static void nidmap_plan_kick(struct nidmap_pub *pub)
{
	if (!pub->stopping && pub->wq)
		queue_delayed_work(pub->wq, &pub->plan_work,
				   NIDMAP_PLAN_DELAY);
}

/* @s wants a notice from us: a new set, or (noticed directly) behind. */
static bool nidmap_sub_due(const struct nidmap_pub *pub,
			   const struct nidmap_subscriber *s)
{
	return s->set_dirty ||
	       (s->direct && (s->told_epoch != pub->round_epoch ||
			      s->told < pub->round_version));
}

/* @s on the list its state says (none in flight); under pub->lock. */
static void nidmap_sub_place(struct nidmap_pub *pub,
			     struct nidmap_subscriber *s)
{
	list_del_init(&s->notice_link);
	if (s->inflight || s->gone)
		return;
	if (nidmap_sub_due(pub, s))
		list_add_tail(&s->notice_link, &pub->due);
	else if (s->direct)
		list_add_tail(&s->notice_link, &pub->idle);
}

static void nidmap_sub_set_direct(struct nidmap_pub *pub,
				  struct nidmap_subscriber *s, bool direct)
{
	if (s->direct == direct)
		return;
	s->direct = direct;
	if (direct)
		pub->ndirect++;
	else
		pub->ndirect--;
}

/*
 * @s leaves: off the hash and the lists at once (a SUBSCRIBE from its
 * NID is a new subscriber); freed now, or by its notice's completion.
 */
static void nidmap_sub_forget(struct nidmap_pub *pub,
			      struct nidmap_subscriber *s)
{
	if (!s->gone) {
		s->gone = true;
		rhashtable_remove_fast(&pub->hash, &s->node,
				       nidmap_sub_params);
		if (s->inc)
			rhashtable_remove_fast(&pub->inc_hash, &s->inc_node,
					       nidmap_sub_inc_params);
		list_del_init(&s->notice_link);
		if (s->relay) {
			list_del_init(&s->relay_link);
			pub->nrelay--;
			nidmap_plan_kick(pub);	/* its children want parents */
		}
		nidmap_sub_set_direct(pub, s, false);
	}
	if (s->inflight)
		return;			/* nidmap_notice_done() frees it */
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

/* No plan (none possible, or no memory): every relay noticed directly. */
static void nidmap_plan_flat(struct nidmap_pub *pub)
{
	struct nidmap_subscriber *s;

	list_for_each_entry(s, &pub->relays, relay_link) {
		nidmap_sub_set_direct(pub, s, true);
		nidmap_set_assign(s, NULL, 0);
		nidmap_sub_place(pub, s);
	}
	pub->depth = 0;
}

/**
 * nidmap_pub_plan() - lay the relay plan over a publisher's relays
 * @pub: the publisher
 *
 * Over the subscribers that said RELAY (its relays list): each one's set
 * is its children, those of level 1 are noticed directly, the others by
 * their parent; relays whose set changed get a notice with it
 * (set_dirty).  The others (no RELAY) are noticed directly, always.
 * The plan work's body: it costs the relays, not the subscribers.
 */
void nidmap_pub_plan(struct nidmap_pub *pub)
{
	struct nidmap_subscriber *s, **v = NULL;
	struct lnet_nid *nids = NULL, *kids = NULL;
	u32 *parent = NULL, *first = NULL, *order = NULL;
	u8 *level = NULL;
	u32 n, i, j, depth = 0;

	mutex_lock(&pub->lock);
	if (pub->stopping)
		goto out;
	n = pub->nrelay;
	pub->nrelays = n;
	pub->depth = 0;
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
	list_for_each_entry(s, &pub->relays, relay_link) {
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
		nidmap_sub_set_direct(pub, v[i],
				      parent[i] == NIDMAP_RELAY_ROOT);
		nidmap_sub_place(pub, v[i]);
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
EXPORT_SYMBOL_IF_KUNIT(nidmap_pub_plan);

static void nidmap_plan_work(struct work_struct *work)
{
	nidmap_pub_plan(container_of(to_delayed_work(work), struct nidmap_pub,
				     plan_work));
}

static void nidmap_notice_done(void *arg, int status)
{
	struct nidmap_subscriber *s = arg;
	struct nidmap_pub *pub = s->pub;

	/* Stop waits for this: the publisher is still ours. */
	mutex_lock(&pub->lock);
	s->inflight = false;
	pub->inflight--;
	if (s->gone) {
		nidmap_sub_forget(pub, s);
	} else if (status) {
		if (++s->fails >= NIDMAP_NOTICE_FAILS) {
			nidmap_count(NIDMAP_A_CTR_SUBS_DROPPED);
			nidmap_sub_forget(pub, s);
		} else {
			nidmap_sub_place(pub, s);	/* due again */
		}
	} else {
		s->fails = 0;
		s->told = s->sending;
		s->told_epoch = nidmap_table_epoch(pub->table);
		if (s->sending_gen == s->set_gen)
			s->set_dirty = false;
		nidmap_sub_place(pub, s);
	}
	if (!list_empty(&pub->due))
		nidmap_notice_kick(pub, 0);
	mutex_unlock(&pub->lock);
	wake_up(&pub->waitq);
}

/**
 * nidmap_pub_notice_round() - send the notices due, NIDMAP_FANOUT in flight
 * @pub: the publisher
 *
 * A new table version moves every subscriber noticed directly (idle) to
 * the due list; the round takes them from its head.  It walks only the
 * subscribers it sends to: the notice work's body, run again by each
 * completion.
 */
void nidmap_pub_notice_round(struct nidmap_pub *pub)
{
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
	if (epoch != pub->round_epoch || version != pub->round_version) {
		pub->round_epoch = epoch;
		pub->round_version = version;
		list_splice_tail_init(&pub->idle, &pub->due);
	}
	while (!pub->stopping && pub->inflight < NIDMAP_FANOUT &&
	       !list_empty(&pub->due)) {
		s = list_first_entry(&pub->due, struct nidmap_subscriber,
				     notice_link);
		if (!nidmap_sub_due(pub, s)) {
			nidmap_sub_place(pub, s);	/* told meanwhile */
			continue;
		}
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
		list_del_init(&s->notice_link);
		s->inflight = true;
		s->sending = version;
		s->sending_gen = s->set_gen;
		pub->inflight++;
		nidmap_count(NIDMAP_A_CTR_NOTICES_SENT);
		if (pub->send(&s->id, NIDMAP_MB_SUBSCRIBER, buf, len,
			      nidmap_notice_done, s)) {
			s->inflight = false;
			pub->inflight--;
			nidmap_sub_place(pub, s);
			break;
		}
	}
	mutex_unlock(&pub->lock);
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_pub_notice_round);

static void nidmap_notice_work(struct work_struct *work)
{
	nidmap_pub_notice_round(container_of(to_delayed_work(work),
					     struct nidmap_pub, notice_work));
}

/*
 * A SUBSCRIBE: the list changes; Return: the status to answer.
 * @authed: its incarnation is its sender's (nidmap_pub_answer()).
 */
static u16 nidmap_pub_subscribe(struct nidmap_pub *pub,
				const struct nidmap_msg *req,
				const struct lnet_processid *from, bool authed)
{
	bool relay = req->hdr.flags & NIDMAP_F_RELAY;
	u64 inc = authed ? req->hdr.incarnation : 0;
	struct nidmap_subscriber *s, *was;
	u16 st = NIDMAP_ST_OK;

	mutex_lock(&pub->lock);
	s = rhashtable_lookup_fast(&pub->hash, &from->nid, nidmap_sub_params);
	/*
	 * The same subscriber under another NID: it moved, or its LNet
	 * peer's primary NID (@from) changed here since; that entry goes.
	 */
	was = inc ? rhashtable_lookup_fast(&pub->inc_hash, &inc,
					   nidmap_sub_inc_params) : NULL;
	if (was && was != s)
		nidmap_sub_forget(pub, was);
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
		s->pub = pub;
		s->id = *from;
		s->id.pid = LNET_PID_LUSTRE;
		INIT_LIST_HEAD(&s->relay_link);
		INIT_LIST_HEAD(&s->notice_link);
		if (rhashtable_insert_fast(&pub->hash, &s->node,
					   nidmap_sub_params)) {
			kfree(s);
			st = NIDMAP_ST_BUSY;	/* the table could not grow */
			goto out;
		}
		pub->nsubs++;
		nidmap_sub_set_direct(pub, s, true);	/* until a plan */
	}
	if (relay && !s->relay) {
		list_add_tail(&s->relay_link, &pub->relays);
		pub->nrelay++;
		nidmap_plan_kick(pub);
	} else if (!relay && s->relay) {
		list_del_init(&s->relay_link);
		pub->nrelay--;
		/* A subscriber that did not say RELAY is given no set. */
		nidmap_set_assign(s, NULL, 0);
		nidmap_sub_set_direct(pub, s, true);
		nidmap_plan_kick(pub);
	}
	if (s->inc != inc) {
		if (s->inc)
			rhashtable_remove_fast(&pub->inc_hash, &s->inc_node,
					       nidmap_sub_inc_params);
		s->inc = inc;
		/* Not hashed (no room): only its moves are not followed. */
		if (inc && rhashtable_insert_fast(&pub->inc_hash, &s->inc_node,
						  nidmap_sub_inc_params))
			s->inc = 0;
	}
	s->relay = relay;
	if (relay && s->nset) {
		/* A restarted relay forgot its set: send it again. */
		s->set_dirty = true;
		s->set_gen++;
	}
	s->fails = 0;
	s->told_epoch = req->hdr.epoch;
	s->told = req->hdr.version;
	nidmap_sub_place(pub, s);
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

/**
 * nidmap_pub_receive() - handle a message to the publisher's endpoint
 * @pub: the publisher
 * @buf: the message as received
 * @len: its length
 * @from: its sender
 * @trust: nidmap_trust_check()'s verdict on it (KUnit's simulations: 0)
 *
 * Decodes it, answers (nidmap_pub_answer(), or a refusal) and keeps the
 * subscriber list; a malformed message or one not ours to answer is
 * counted and dropped.
 */
void nidmap_pub_receive(struct nidmap_pub *pub, const void *buf,
			unsigned int len, const struct lnet_processid *from,
			int trust)
{
	struct nidmap_msg msg;
	size_t size = NIDMAP_STATUS_ROOM;
	u16 st = NIDMAP_ST_OK;
	bool authed;
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
	/* Refused unverified: answered, so a registrant is told why. */
	if (!rc && trust) {
		size = NIDMAP_STATUS_ROOM;
		st = NIDMAP_ST_AUTH;
	}
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
	/* Verified: trust took it while holding a key (trust.c). */
	authed = !rc && !trust && nidmap_holds_key() &&
		 msg.hdr.flags & NIDMAP_F_AUTH;
	if (rc)
		st = nidmap_errno_to_status(rc);
	else if (!st && msg.hdr.type == NIDMAP_SUBSCRIBE)
		st = nidmap_pub_subscribe(pub, &msg, from, authed);
	if (st) {
		nidmap_count(NIDMAP_A_CTR_REFUSED);
		rc = nidmap_answer_status(&msg.hdr, nidmap_table_epoch(pub->table),
					  nidmap_table_version(pub->table), 0,
					  st, out, size);
	} else {
		rc = nidmap_pub_answer(pub->table, &msg, &from->nid, authed,
				       out, size);
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
	if (pub->send(from, NIDMAP_MB_REPLY | msg.hdr.seq, out, rc,
		      nidmap_reply_done, pub))
		nidmap_reply_done(pub, -ENOMEM);
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_pub_receive);

static void nidmap_pub_rx(struct nidmap_ep *ep, const void *buf,
			  unsigned int len, const struct lnet_processid *from)
{
	nidmap_pub_receive(ep->priv, buf, len, from,
			   nidmap_trust_check(buf, len));
}

/* The hash's free function: a subscriber with no notice in flight. */
static void nidmap_sub_free(void *ptr, void *arg)
{
	struct nidmap_subscriber *s = ptr;

	kfree(s->set);
	kfree(s);
}

/**
 * nidmap_pub_create() - a publisher's state: a new table (a new epoch),
 *	no subscriber, no endpoint
 * @lim: the table's bounds
 * @cfg: the subscriber cap and the relay plan's fan-out
 * @send: how its replies and notices are sent (nidmap_send())
 * @wq: where its notice and plan works run; NULL: nowhere (KUnit calls
 *	nidmap_pub_notice_round() and nidmap_pub_plan() itself)
 *
 * Return: the publisher, or an ERR_PTR().
 */
struct nidmap_pub *nidmap_pub_create(const struct nidmap_limits *lim,
				     const struct nidmap_pub_cfg *cfg,
				     nidmap_send_fn send,
				     struct workqueue_struct *wq)
{
	struct nidmap_pub *pub;
	u64 epoch;
	int rc;

	pub = kzalloc(sizeof(*pub), GFP_KERNEL);
	if (!pub)
		return ERR_PTR(-ENOMEM);
	/* Epoch: the clock and random bits, never 0. */
	epoch = (u64)ktime_get_real_seconds() << 32 | get_random_u32() | 1;
	pub->table = nidmap_table_create(lim, epoch);
	if (IS_ERR(pub->table)) {
		rc = PTR_ERR(pub->table);
		kfree(pub);
		return ERR_PTR(rc);
	}
	rc = rhashtable_init(&pub->hash, &nidmap_sub_params);
	if (!rc) {
		rc = rhashtable_init(&pub->inc_hash, &nidmap_sub_inc_params);
		if (rc)
			rhashtable_destroy(&pub->hash);
	}
	if (rc) {
		nidmap_table_destroy(pub->table);
		kfree(pub);
		return ERR_PTR(rc);
	}
	mutex_init(&pub->lock);
	INIT_LIST_HEAD(&pub->relays);
	INIT_LIST_HEAD(&pub->due);
	INIT_LIST_HEAD(&pub->idle);
	init_waitqueue_head(&pub->waitq);
	INIT_DELAYED_WORK(&pub->notice_work, nidmap_notice_work);
	INIT_DELAYED_WORK(&pub->plan_work, nidmap_plan_work);
	pub->cfg = *cfg;
	pub->send = send;
	pub->wq = wq;
	return pub;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_pub_create);

/**
 * nidmap_pub_destroy() - free a publisher nidmap_pub_create() made
 * @pub: the publisher: no work queued, no send in flight (so no
 *	subscriber gone but held by its notice: the hash has them all)
 */
void nidmap_pub_destroy(struct nidmap_pub *pub)
{
	rhashtable_destroy(&pub->inc_hash);	/* the same objects */
	rhashtable_free_and_destroy(&pub->hash, nidmap_sub_free, NULL);
	nidmap_table_destroy(pub->table);
	kfree(pub);
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_pub_destroy);

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
	int rc;

	if (nidmap_pub)
		return -EALREADY;
	if (!lnet_is_configured())
		return -ENETDOWN;
	pub = nidmap_pub_create(lim, cfg, nidmap_send, nidmap_wq);
	if (IS_ERR(pub))
		return PTR_ERR(pub);
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
	nidmap_pub_destroy(pub);
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
	nidmap_pub = NULL;
	lnet_ni_fini();
	nidmap_pub_destroy(pub);
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
 * nidmap_pub_get_info() - a publisher's subscribers and relay plan
 * @pub: the publisher
 * @info: filled
 */
void nidmap_pub_get_info(struct nidmap_pub *pub, struct nidmap_pub_info *info)
{
	memset(info, 0, sizeof(*info));
	mutex_lock(&pub->lock);
	info->subs = pub->nsubs;
	info->relays = pub->nrelays;
	info->direct = pub->ndirect;
	info->depth = pub->depth;
	info->max_subs = pub->cfg.max_subs;
	info->fanout = pub->cfg.fanout;
	mutex_unlock(&pub->lock);
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_pub_get_info);

/**
 * nidmap_pub_info() - this node's publisher's subscribers and relay plan
 * @info: filled
 *
 * Context: nidmap_cfg_lock held, this node publishes.
 */
void nidmap_pub_info(struct nidmap_pub_info *info)
{
	nidmap_pub_get_info(nidmap_pub, info);
}
