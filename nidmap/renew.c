// SPDX-License-Identifier: GPL-2.0
/*
 * A registrant's registrations follow its NIDs (Documentation/nidmap.rst,
 * "NIDs that follow the address"): each registration a publisher took
 * through this node's netlink family is remembered (publisher, record);
 * when LNet moves one of this node's NIs to a new NID (its interface's
 * address changed), every remembered record naming the old NID is sent
 * again with the new one in its place, to its publisher, from a work
 * item: the table's version moves and the subscribers learn the new NIDs
 * by the usual notice and delta.  A subscriber subscribes again, from
 * its new NID (nidmap_sub_moved()), so notices find it.
 *
 * The publisher takes the change from the new NID because the REGISTER
 * is authenticated and carries this module's incarnation, the one the
 * target was registered with (table.c, nidmap_may_change()); without a
 * key it refuses (PERM): counted, logged, not retried.  A renewal that
 * found no answer, or BUSY, is retried with a backoff (1 s doubling to
 * 64 s) until it is taken, refused, or forgotten.
 *
 * Bounded by configuration, not by the wire: at most NIDMAP_RENEW_MAX
 * records (an admin's registrations; beyond, not remembered, logged).
 * Shutdown: nidmap_renew_fini() unregisters from LNet (no new move), then
 * cancels the work (waiting for a renewal in flight), then frees.
 */
#include <linux/notifier.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <kunit/visibility.h>

#include <lnet/api.h>

#include "node.h"

#define NIDMAP_RENEW_MAX	1024
#define NIDMAP_RENEW_BACKOFF_MAX 64	/* seconds */

/**
 * struct nidmap_renewal - one registration remembered
 * @link: on nidmap_renewals
 * @publisher: where it was registered
 * @gen: bumped by each move; a renewal sent at @gen done only if unchanged
 * @due: to be sent again (a NID of it moved since it was last taken)
 * @rec: the record as last registered, or as moved
 */
struct nidmap_renewal {
	struct list_head	link;
	struct lnet_nid		publisher;
	u64			gen;
	bool			due;
	struct nidmap_rec	rec;
};

static LIST_HEAD(nidmap_renewals);
static DEFINE_MUTEX(nidmap_renew_lock);	/* the list, its entries, count */
static unsigned int nidmap_renew_count;
static unsigned int nidmap_renew_backoff;	/* seconds: the work's own */
static bool nidmap_renew_resub;		/* a NID moved: subscribe again */
static void nidmap_renew_work_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(nidmap_renew_work, nidmap_renew_work_fn);

/**
 * nidmap_rec_move_nid() - put @new_nid in @old_nid's place in a record
 * @rec: the record (failover order kept)
 * @old_nid: the NID that moved
 * @new_nid: where it went
 *
 * If @new_nid is already listed, @old_nid is dropped instead, so the
 * record keeps no NID twice (nidmap_rec_check()); a record whose only
 * NID would go is left as it is.
 *
 * Return: true if @rec changed.
 */
bool nidmap_rec_move_nid(struct nidmap_rec *rec, const struct lnet_nid *old_nid,
			 const struct lnet_nid *new_nid)
{
	int at = -1, dup = -1;
	unsigned int i;

	if (lnet_nid_equal(old_nid, new_nid))
		return false;
	for (i = 0; i < rec->nnids; i++) {
		if (lnet_nid_equal(&rec->nids[i], old_nid))
			at = i;
		else if (lnet_nid_equal(&rec->nids[i], new_nid))
			dup = i;
	}
	if (at < 0)
		return false;
	if (dup < 0) {
		rec->nids[at] = *new_nid;
		return true;
	}
	if (rec->nnids == 1)
		return false;
	memmove(&rec->nids[at], &rec->nids[at + 1],
		(rec->nnids - at - 1) * sizeof(rec->nids[0]));
	rec->nnids--;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_rec_move_nid);

static struct nidmap_renewal *nidmap_renewal_find(const struct lnet_nid *pub,
						  const char *name)
{
	struct nidmap_renewal *r;

	list_for_each_entry(r, &nidmap_renewals, link)
		if (lnet_nid_equal(&r->publisher, pub) &&
		    !strcmp(r->rec.name, name))
			return r;
	return NULL;
}

/**
 * nidmap_renew_note() - remember registrations a publisher took
 * @pub: the publisher
 * @recs: the records, as sent (NIDMAP_R_DELETED: the target removed,
 *	forgotten here)
 * @n: how many
 *
 * Context: process context; takes nidmap_renew_lock.
 */
void nidmap_renew_note(const struct lnet_nid *pub,
		       const struct nidmap_rec *recs, unsigned int n)
{
	struct nidmap_renewal *r;
	unsigned int i;

	mutex_lock(&nidmap_renew_lock);
	for (i = 0; i < n; i++) {
		r = nidmap_renewal_find(pub, recs[i].name);
		if (recs[i].flags & NIDMAP_R_DELETED) {
			if (r) {
				list_del(&r->link);
				nidmap_renew_count--;
				kfree(r);
			}
			continue;
		}
		if (!r) {
			if (nidmap_renew_count >= NIDMAP_RENEW_MAX) {
				pr_warn_ratelimited("nidmap: %u registrations remembered: %s will not follow its NIDs\n",
						    nidmap_renew_count,
						    recs[i].name);
				continue;
			}
			r = kzalloc(sizeof(*r), GFP_KERNEL);
			if (!r)
				continue;
			r->publisher = *pub;
			list_add_tail(&r->link, &nidmap_renewals);
			nidmap_renew_count++;
		}
		r->rec = recs[i];
		r->rec.version = 0;
		r->gen++;
		r->due = false;
	}
	mutex_unlock(&nidmap_renew_lock);
}

/**
 * nidmap_renew_get() - the @idx-th registration remembered
 * @idx: from 0, in the order they were first taken
 * @pub: set to its publisher
 * @rec: set to its record as last registered, or as moved (version 0)
 *
 * For NIDMAP_CMD_REGISTRATIONS (lnetctl export): a dump walks the list
 * by index, one lookup per entry (at most NIDMAP_RENEW_MAX of them).
 *
 * Context: process context; takes nidmap_renew_lock.
 * Return: false if there are @idx registrations or fewer.
 */
bool nidmap_renew_get(unsigned int idx, struct lnet_nid *pub,
		      struct nidmap_rec *rec)
{
	struct nidmap_renewal *r;
	bool found = false;

	mutex_lock(&nidmap_renew_lock);
	list_for_each_entry(r, &nidmap_renewals, link) {
		if (idx--)
			continue;
		*pub = r->publisher;
		*rec = r->rec;
		found = true;
		break;
	}
	mutex_unlock(&nidmap_renew_lock);
	return found;
}

/* LNet moved one of our NIs: the registrations naming it are due. */
static int nidmap_renew_nid_changed(struct notifier_block *nb,
				    unsigned long event, void *data)
{
	const struct lnet_nid_change *ch = data;
	struct nidmap_renewal *r;

	mutex_lock(&nidmap_renew_lock);
	nidmap_renew_resub = true;
	list_for_each_entry(r, &nidmap_renewals, link) {
		bool moved = nidmap_rec_move_nid(&r->rec, &ch->old_nid,
						 &ch->new_nid);

		/* The publisher was this node, at its old NID. */
		if (lnet_nid_equal(&r->publisher, &ch->old_nid)) {
			r->publisher = ch->new_nid;
			moved = true;
		}
		if (moved) {
			r->gen++;
			r->due = true;
		}
	}
	mutex_unlock(&nidmap_renew_lock);
	mod_delayed_work(system_unbound_wq, &nidmap_renew_work, 0);
	return NOTIFY_OK;
}

static struct notifier_block nidmap_renew_nb = {
	.notifier_call = nidmap_renew_nid_changed,
};

/* Take the first due renewal: its publisher, record and generation. */
static bool nidmap_renew_next(struct lnet_nid *pub, struct nidmap_rec *rec,
			      u64 *gen)
{
	struct nidmap_renewal *r;
	bool found = false;

	mutex_lock(&nidmap_renew_lock);
	list_for_each_entry(r, &nidmap_renewals, link) {
		if (!r->due)
			continue;
		*pub = r->publisher;
		*rec = r->rec;
		*gen = r->gen;
		found = true;
		break;
	}
	mutex_unlock(&nidmap_renew_lock);
	return found;
}

/* Sent at @gen: done, unless it moved again meanwhile. */
static void nidmap_renew_done(const struct lnet_nid *pub, const char *name,
			      u64 gen)
{
	struct nidmap_renewal *r;

	mutex_lock(&nidmap_renew_lock);
	r = nidmap_renewal_find(pub, name);
	if (r && r->gen == gen)
		r->due = false;
	mutex_unlock(&nidmap_renew_lock);
}

/*
 * Send the due renewals one by one (nidmap_register() waits for each
 * answer: not on nidmap_wq).  No answer: all wait for the next try.
 */
static void nidmap_renew_work_fn(struct work_struct *work)
{
	char pubstr[LNET_NIDSTR_SIZE];
	struct nidmap_rec *rec;
	struct lnet_nid pub;
	u64 gen, version;
	u32 index;
	bool resub;
	u16 st;
	int rc;

	mutex_lock(&nidmap_renew_lock);
	resub = nidmap_renew_resub;
	nidmap_renew_resub = false;
	mutex_unlock(&nidmap_renew_lock);
	if (resub)
		nidmap_sub_moved();
	rec = kmalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		goto retry;
	while (nidmap_renew_next(&pub, rec, &gen)) {
		rc = nidmap_register(&pub, rec, 1, &st, &version, &index);
		if (rc || st == NIDMAP_ST_BUSY)
			goto retry;
		if (st == NIDMAP_ST_OK) {
			nidmap_count(NIDMAP_A_CTR_RENEWED);
		} else {
			nidmap_count(NIDMAP_A_CTR_RENEW_REFUSED);
			lnet_nid_to_str(&pub, pubstr, sizeof(pubstr));
			pr_warn_ratelimited("nidmap: %s: its publisher %s refused the registration of its new NIDs (status %u)\n",
					    rec->name, pubstr, st);
		}
		nidmap_renew_done(&pub, rec->name, gen);
	}
	kfree(rec);
	nidmap_renew_backoff = 0;
	return;
retry:
	kfree(rec);
	nidmap_renew_backoff = clamp(nidmap_renew_backoff * 2, 1U,
				     (unsigned int)NIDMAP_RENEW_BACKOFF_MAX);
	queue_delayed_work(system_unbound_wq, &nidmap_renew_work,
			   nidmap_renew_backoff * HZ);
}

/**
 * nidmap_renew_init() - follow this node's NIDs (LNet's NID changes)
 *
 * Return: 0 or the notifier chain's error.
 */
int nidmap_renew_init(void)
{
	return lnet_nid_change_notifier_register(&nidmap_renew_nb);
}

/**
 * nidmap_renew_fini() - stop following, wait for a renewal, forget all
 */
void nidmap_renew_fini(void)
{
	struct nidmap_renewal *r, *n;

	lnet_nid_change_notifier_unregister(&nidmap_renew_nb);
	cancel_delayed_work_sync(&nidmap_renew_work);
	list_for_each_entry_safe(r, n, &nidmap_renewals, link) {
		list_del(&r->link);
		kfree(r);
	}
	nidmap_renew_count = 0;
}
