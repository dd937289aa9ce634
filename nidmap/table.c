// SPDX-License-Identifier: GPL-2.0
/*
 * nidmap's table (Documentation/nidmap.rst, "Versioning"): target name ->
 * NIDs in failover order (and, for a router, the nets it routes to).
 * Every change takes the table's next version and stamps the entry with
 * it, so entry versions are unique and "what changed since V" is the
 * entries whose version is above V, found in version order through an
 * xarray indexed by version.  A deletion leaves a tombstone, so that a
 * delta carries it; tombstones are bounded, and forgetting one moves the
 * horizon: a subscriber below the horizon must take the whole table.
 *
 * Entries are immutable once published: a change replaces the entry
 * (readers under RCU see the old or the new one whole); writers and
 * extraction hold the table's mutex.
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/xarray.h>
#include <kunit/visibility.h>

#include "nidmap.h"

/**
 * struct nidmap_entry - one target, or a tombstone
 * @node: in the table's name hash
 * @tomb: in the table's tombstone list, oldest first (tombstones only)
 * @rcu: freeing after readers
 * @version: the version of the last change
 * @stamp: a tombstone's deletion time (the table's clock, seconds)
 * @owner: the NID that registered it (ANY: set locally)
 * @owner_inc: its registrant's incarnation, when the registration was
 *	authenticated (0: not, or set locally)
 * @flags: NIDMAP_R_* (DELETED for a tombstone)
 * @nnids: NIDs
 * @nnets: routed nets
 * @name: the key, zero-padded
 * @nets: the routed nets
 * @nids: the NIDs, in failover order
 */
struct nidmap_entry {
	struct rhash_head	node;
	struct list_head	tomb;
	struct rcu_head		rcu;
	u64			version;
	u64			stamp;
	struct lnet_nid		owner;
	u64			owner_inc;
	u16			flags;
	u8			nnids;
	u8			nnets;
	char			name[NIDMAP_NAME_MAX];
	u32			nets[NIDMAP_NETS_MAX];
	struct lnet_nid		nids[];
};

/**
 * struct nidmap_table - the table
 * @lock: serialises changes and extraction
 * @names: entries and tombstones by name
 * @versions: entries and tombstones by version
 * @tombs: tombstones, oldest first
 * @lim: bounds
 * @epoch: the table's history
 * @version: the last change's version
 * @horizon: the newest version of a forgotten tombstone
 * @nlive: entries
 * @ntomb: tombstones
 * @clock: seconds, for tombstone ages (boot time; KUnit sets its own)
 */
struct nidmap_table {
	struct mutex		lock;	/* changes and extraction */
	struct rhashtable	names;
	struct xarray		versions;
	struct list_head	tombs;
	struct nidmap_limits	lim;
	u64			epoch;
	u64			version;
	u64			horizon;
	u32			nlive;
	u32			ntomb;
	u64			(*clock)(void);
};

static const struct rhashtable_params nidmap_names_params = {
	.key_len	= NIDMAP_NAME_MAX,
	.key_offset	= offsetof(struct nidmap_entry, name),
	.head_offset	= offsetof(struct nidmap_entry, node),
	.automatic_shrinking = true,
};

/* Seconds, for tombstone ages: boot time (suspend included). */
static u64 nidmap_clock_boottime(void)
{
	return ktime_get_boottime_seconds();
}

/**
 * nidmap_table_create() - an empty table at version 0
 * @lim: its bounds (max_entries at most NIDMAP_TARGETS_MAX)
 * @epoch: its history's identifier, not 0
 *
 * Return: the table, or an ERR_PTR() (-EINVAL, -ENOMEM).
 */
struct nidmap_table *nidmap_table_create(const struct nidmap_limits *lim,
					 u64 epoch)
{
	struct nidmap_table *t;
	int rc;

	if (!epoch || !lim->max_entries ||
	    lim->max_entries > NIDMAP_TARGETS_MAX)
		return ERR_PTR(-EINVAL);
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return ERR_PTR(-ENOMEM);
	rc = rhashtable_init(&t->names, &nidmap_names_params);
	if (rc) {
		kfree(t);
		return ERR_PTR(rc);
	}
	mutex_init(&t->lock);
	xa_init(&t->versions);
	INIT_LIST_HEAD(&t->tombs);
	t->lim = *lim;
	t->epoch = epoch;
	t->clock = nidmap_clock_boottime;
	return t;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_table_create);

/**
 * nidmap_table_set_clock() - the clock tombstone ages are read on
 * @t: a table with no tombstone yet
 * @clock: seconds, never going back (KUnit's fake time)
 */
void nidmap_table_set_clock(struct nidmap_table *t, u64 (*clock)(void))
{
	t->clock = clock;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_table_set_clock);

static void nidmap_entry_free(void *ptr, void *arg)
{
	kfree(ptr);
}

/**
 * nidmap_table_destroy() - free a table and its entries
 * @t: the table; nobody may use it any more
 */
void nidmap_table_destroy(struct nidmap_table *t)
{
	xa_destroy(&t->versions);
	rhashtable_free_and_destroy(&t->names, nidmap_entry_free, NULL);
	mutex_destroy(&t->lock);
	kfree(t);
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_table_destroy);

static struct nidmap_entry *nidmap_find(struct nidmap_table *t,
					const char *name)
{
	char key[NIDMAP_NAME_MAX] = { };

	strscpy(key, name, sizeof(key));
	return rhashtable_lookup_fast(&t->names, key, nidmap_names_params);
}

static void nidmap_entry_to_rec(const struct nidmap_entry *e,
				struct nidmap_rec *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->version = e->version;
	rec->flags = e->flags;
	rec->nnids = e->nnids;
	rec->nnets = e->nnets;
	memcpy(rec->name, e->name, sizeof(rec->name));
	memcpy(rec->nids, e->nids, e->nnids * sizeof(e->nids[0]));
	memcpy(rec->nets, e->nets, e->nnets * sizeof(e->nets[0]));
}

/*
 * May @by change @e?  Its owner, one of its NIDs (a failover partner),
 * or, authenticated (@inc not 0), the owner's own incarnation from a new
 * NID: a registrant whose address moved (Documentation/nidmap.rst,
 * "Ownership").
 */
static bool nidmap_may_change(const struct nidmap_entry *e,
			      const struct lnet_nid *by, u64 inc)
{
	unsigned int i;

	if (!by || e->flags & NIDMAP_R_DELETED || lnet_nid_is_any(&e->owner))
		return true;
	if (lnet_nid_equal(by, &e->owner) || (inc && inc == e->owner_inc))
		return true;
	for (i = 0; i < e->nnids; i++)
		if (lnet_nid_equal(by, &e->nids[i]))
			return true;
	return false;
}

/**
 * struct nidmap_undo - one change of a batch (nidmap_table_apply())
 * @old: the entry replaced, kept (in the version xarray too) until the
 *	batch ends; NULL if there was none
 * @new: the entry put in its place
 */
struct nidmap_undo {
	struct nidmap_entry	*old;
	struct nidmap_entry	*new;
};

/**
 * struct nidmap_batch - the changes of a batch so far, to undo them all
 *	if a later record is refused
 * @undo: NIDMAP_REGISTER_MAX of them
 * @n: changes made
 * @version: the table's version before the batch
 */
struct nidmap_batch {
	struct nidmap_undo	*undo;
	unsigned int		n;
	u64			version;
};

/*
 * Put @new (version t->version + 1) in place of @old (NULL: none), or fail
 * with nothing changed.  In a batch @old stays allocated and at its
 * version until the batch ends (nidmap_batch_end()).
 */
static int nidmap_commit(struct nidmap_table *t, struct nidmap_entry *old,
			 struct nidmap_entry *new, struct nidmap_batch *b)
{
	int rc;

	new->version = t->version + 1;
	rc = xa_err(xa_store(&t->versions, new->version, new, GFP_KERNEL));
	if (rc)
		return rc;
	if (old) {
		rc = rhashtable_replace_fast(&t->names, &old->node, &new->node,
					     nidmap_names_params);
	} else {
		rc = rhashtable_insert_fast(&t->names, &new->node,
					    nidmap_names_params);
	}
	if (rc) {
		xa_erase(&t->versions, new->version);
		return rc;
	}
	if (old) {
		if (old->flags & NIDMAP_R_DELETED) {
			list_del(&old->tomb);
			t->ntomb--;
		} else {
			t->nlive--;
		}
		if (!b) {
			xa_erase(&t->versions, old->version);
			kfree_rcu(old, rcu);
		}
	}
	if (new->flags & NIDMAP_R_DELETED) {
		new->stamp = t->clock();
		list_add_tail(&new->tomb, &t->tombs);
		t->ntomb++;
	} else {
		t->nlive++;
	}
	t->version = new->version;
	if (b) {
		b->undo[b->n].old = old;
		b->undo[b->n].new = new;
		b->n++;
	}
	return 0;
}

/* A tombstone back in the list, which is in version order. */
static void nidmap_tomb_restore(struct nidmap_table *t, struct nidmap_entry *e)
{
	struct nidmap_entry *p;

	list_for_each_entry_reverse(p, &t->tombs, tomb) {
		if (p->version < e->version) {
			list_add(&e->tomb, &p->tomb);
			t->ntomb++;
			return;
		}
	}
	list_add(&e->tomb, &t->tombs);
	t->ntomb++;
}

/*
 * End a batch: keep its changes (@undo false: the entries they replaced
 * go) or undo them, newest first (nothing allocates: every entry an undo
 * puts back is still at its version in the xarray).
 */
static void nidmap_batch_end(struct nidmap_table *t, struct nidmap_batch *b,
			     bool undo)
{
	struct nidmap_undo *u;

	while (b->n) {
		u = &b->undo[--b->n];
		if (!undo) {
			if (u->old) {
				xa_erase(&t->versions, u->old->version);
				kfree_rcu(u->old, rcu);
			}
			continue;
		}
		if (u->old)
			rhashtable_replace_fast(&t->names, &u->new->node,
						&u->old->node,
						nidmap_names_params);
		else
			rhashtable_remove_fast(&t->names, &u->new->node,
					       nidmap_names_params);
		xa_erase(&t->versions, u->new->version);
		if (u->new->flags & NIDMAP_R_DELETED) {
			list_del(&u->new->tomb);
			t->ntomb--;
		} else {
			t->nlive--;
		}
		if (u->old) {
			if (u->old->flags & NIDMAP_R_DELETED)
				nidmap_tomb_restore(t, u->old);
			else
				t->nlive++;
		}
		kfree_rcu(u->new, rcu);
	}
	if (undo)
		t->version = b->version;
}

/* Forget a tombstone: a delta can no longer say it; the horizon follows. */
static void nidmap_forget(struct nidmap_table *t, struct nidmap_entry *e)
{
	list_del(&e->tomb);
	t->ntomb--;
	xa_erase(&t->versions, e->version);
	rhashtable_remove_fast(&t->names, &e->node, nidmap_names_params);
	t->horizon = e->version;
	kfree_rcu(e, rcu);
}

/*
 * Forget the oldest tombstones beyond the bound, and those older than
 * max_tomb_age seconds; the horizon follows.
 */
static void nidmap_purge(struct nidmap_table *t)
{
	struct nidmap_entry *e, *n;
	u64 now;

	while (t->ntomb > t->lim.max_tombstones)
		nidmap_forget(t, list_first_entry(&t->tombs,
						  struct nidmap_entry, tomb));
	if (!t->lim.max_tomb_age)
		return;
	now = t->clock();
	list_for_each_entry_safe(e, n, &t->tombs, tomb) {
		if (now - e->stamp < t->lim.max_tomb_age)
			break;
		nidmap_forget(t, e);
	}
}

/* nidmap_table_set()'s change, the table locked; @b: in a batch, or NULL. */
static int nidmap_set_locked(struct nidmap_table *t,
			     const struct nidmap_rec *rec,
			     const struct lnet_nid *by, u64 inc,
			     u64 *version, struct nidmap_batch *b)
{
	struct nidmap_entry *old, *new;
	int rc;

	rc = nidmap_rec_check(rec, true);
	if (rc)
		return rc;
	if (rec->flags & NIDMAP_R_DELETED)
		return -EPROTO;
	old = nidmap_find(t, rec->name);
	if (old && !nidmap_may_change(old, by, inc))
		return -EPERM;
	if (old && !(old->flags & NIDMAP_R_DELETED) &&
	    old->flags == rec->flags && old->nnids == rec->nnids &&
	    old->nnets == rec->nnets &&
	    !memcmp(old->nids, rec->nids, rec->nnids * sizeof(rec->nids[0])) &&
	    !memcmp(old->nets, rec->nets, rec->nnets * sizeof(rec->nets[0]))) {
		*version = old->version;
		return 0;
	}
	if ((!old || old->flags & NIDMAP_R_DELETED) &&
	    t->nlive >= t->lim.max_entries)
		return -ENOSPC;
	new = kzalloc(struct_size(new, nids, rec->nnids), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	strscpy(new->name, rec->name, sizeof(new->name));
	new->owner = by ? *by : LNET_ANY_NID;
	new->owner_inc = by ? inc : 0;
	new->flags = rec->flags;
	new->nnids = rec->nnids;
	new->nnets = rec->nnets;
	memcpy(new->nids, rec->nids, rec->nnids * sizeof(rec->nids[0]));
	memcpy(new->nets, rec->nets, rec->nnets * sizeof(rec->nets[0]));
	rc = nidmap_commit(t, old, new, b);
	if (rc)
		kfree(new);
	else
		*version = new->version;
	return rc;
}

/* nidmap_table_delete()'s change, the table locked; @b as above. */
static int nidmap_delete_locked(struct nidmap_table *t, const char *name,
				const struct lnet_nid *by, u64 inc,
				u64 *version, struct nidmap_batch *b)
{
	struct nidmap_entry *old, *new;
	int rc;

	if (nidmap_name_check(name, NIDMAP_NAME_MAX) < 0)
		return -ENOENT;
	old = nidmap_find(t, name);
	if (!old || old->flags & NIDMAP_R_DELETED)
		return -ENOENT;
	if (!nidmap_may_change(old, by, inc))
		return -EPERM;
	new = kzalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	memcpy(new->name, old->name, sizeof(new->name));
	new->owner = LNET_ANY_NID;
	new->flags = NIDMAP_R_DELETED;
	rc = nidmap_commit(t, old, new, b);
	if (rc) {
		kfree(new);
		return rc;
	}
	*version = new->version;
	return 0;
}

/**
 * nidmap_table_set() - add or change a target
 * @t: the table
 * @rec: its name, flags (not DELETED), NIDs in failover order and routed
 *	nets; @rec->version must be 0
 * @by: the registrant's NID, or NULL for a local change: a target that
 *	has an owner may be changed only by it or one of its NIDs
 * @version: set to the entry's version (unchanged if @rec is what the
 *	entry already says: no new version for no change)
 *
 * Return: 0; -EPROTO, -E2BIG a bad record; -EPERM not the owner;
 * -ENOSPC the table has max_entries; -ENOMEM.
 */
int nidmap_table_set(struct nidmap_table *t, const struct nidmap_rec *rec,
		     const struct lnet_nid *by, u64 *version)
{
	int rc;

	mutex_lock(&t->lock);
	rc = nidmap_set_locked(t, rec, by, 0, version, NULL);
	nidmap_purge(t);
	mutex_unlock(&t->lock);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_table_set);

/**
 * nidmap_table_delete() - remove a target, leaving a tombstone
 * @t: the table
 * @name: the target
 * @by: as for nidmap_table_set()
 * @version: set to the deletion's version
 *
 * Return: 0; -ENOENT no such target; -EPERM; -ENOMEM.
 */
int nidmap_table_delete(struct nidmap_table *t, const char *name,
			const struct lnet_nid *by, u64 *version)
{
	int rc;

	mutex_lock(&t->lock);
	rc = nidmap_delete_locked(t, name, by, 0, version, NULL);
	nidmap_purge(t);
	mutex_unlock(&t->lock);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_table_delete);

/**
 * nidmap_table_apply() - apply a batch of records, all or none
 * @t: the table
 * @next: gives the next record (false: no more); a record with
 *	NIDMAP_R_DELETED removes its target, any other adds or changes it
 * @arg: @next's argument
 * @by: as for nidmap_table_set()
 * @by_inc: @by's incarnation if the batch was authenticated, else 0: the
 *	owner's incarnation may change its targets from a new NID
 * @index: set to the index of the record refused, or to the number of
 *	records applied
 *
 * The records are applied in order, each seeing the ones before it (a
 * target added then changed, or removed, in one batch), under the
 * table's lock: nobody sees a part of the batch.  If one is refused,
 * those before it are undone: the table, its version and its
 * tombstones are as before the call, and no version is spent.
 *
 * Return: 0; the refused record's error (as nidmap_table_set() and
 * nidmap_table_delete()); -E2BIG more than NIDMAP_REGISTER_MAX records.
 */
int nidmap_table_apply(struct nidmap_table *t, nidmap_next_t next, void *arg,
		       const struct lnet_nid *by, u64 by_inc, u32 *index)
{
	struct nidmap_batch b = { };
	struct nidmap_rec *rec;
	u64 v;
	int rc = 0;

	rec = kmalloc(sizeof(*rec), GFP_KERNEL);
	b.undo = kmalloc_array(NIDMAP_REGISTER_MAX, sizeof(*b.undo),
			       GFP_KERNEL);
	if (!rec || !b.undo) {
		kfree(rec);
		kfree(b.undo);
		*index = 0;
		return -ENOMEM;
	}
	mutex_lock(&t->lock);
	b.version = t->version;
	for (*index = 0; next(arg, rec); ++*index) {
		if (*index >= NIDMAP_REGISTER_MAX)
			rc = -E2BIG;
		else if (rec->flags & NIDMAP_R_DELETED)
			rc = nidmap_delete_locked(t, rec->name, by, by_inc,
						  &v, &b);
		else
			rc = nidmap_set_locked(t, rec, by, by_inc, &v, &b);
		if (rc)
			break;
	}
	nidmap_batch_end(t, &b, rc);
	nidmap_purge(t);
	mutex_unlock(&t->lock);
	kfree(b.undo);
	kfree(rec);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_table_apply);

/**
 * nidmap_table_lookup() - a target's entry
 * @t: the table
 * @name: the target
 * @rec: its record
 *
 * Return: 0, or -ENOENT (no such target, or deleted).
 */
int nidmap_table_lookup(struct nidmap_table *t, const char *name,
			struct nidmap_rec *rec)
{
	struct nidmap_entry *e;
	int rc = -ENOENT;

	if (nidmap_name_check(name, NIDMAP_NAME_MAX) < 0)
		return -ENOENT;
	mutex_lock(&t->lock);
	e = nidmap_find(t, name);
	if (e && !(e->flags & NIDMAP_R_DELETED)) {
		nidmap_entry_to_rec(e, rec);
		rc = 0;
	}
	mutex_unlock(&t->lock);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_table_lookup);

/**
 * nidmap_table_extract() - the records changed since a version
 * @t: the table
 * @since: the receiver's version
 * @resync: NIDMAP_NO_RESYNC, or in a full resync the horizon its first
 *	page gave (@res->horizon)
 * @emit: called for each record, in version order
 * @arg: its argument
 * @res: what was found
 *
 * A delta from @since is exact if no tombstone above @since was
 * forgotten (the horizon is at most @since); a resync page is exact if no
 * tombstone above @since was forgotten since the resync started (the
 * horizon is still @resync, or at most @since).  Otherwise, or if @since
 * is beyond the table's version, a full resync starts: every entry and
 * tombstone from version 0, @res->full set.  Records go to @emit until it
 * says -ENOSPC: then @res->more is set and @res->upto is the last record
 * emitted; else @res->upto is the table's version.
 *
 * Return: 0; -EMSGSIZE if @emit took no record at all; @emit's error.
 */
int nidmap_table_extract(struct nidmap_table *t, u64 since, u64 resync,
			 nidmap_emit_t emit, void *arg,
			 struct nidmap_extract *res)
{
	struct nidmap_entry *e;
	struct nidmap_rec *rec;
	unsigned long idx;
	bool exact;
	int rc = 0;

	rec = kmalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return -ENOMEM;
	memset(res, 0, sizeof(*res));
	mutex_lock(&t->lock);
	nidmap_purge(t);		/* tombstones past their age */
	if (resync == NIDMAP_NO_RESYNC)
		exact = t->horizon <= since;
	else
		exact = t->horizon == resync || t->horizon <= since;
	if (since > t->version || !exact) {
		res->full = true;
		since = 0;
		resync = t->horizon;
	}
	res->horizon = resync == NIDMAP_NO_RESYNC ? 0 : resync;
	res->upto = t->version;
	if (since == t->version)
		goto out;
	xa_for_each_start(&t->versions, idx, e, since + 1) {
		nidmap_entry_to_rec(e, rec);
		rc = emit(arg, rec);
		if (rc == -ENOSPC) {
			rc = res->nrecs ? 0 : -EMSGSIZE;
			res->more = true;
			res->upto = since;
			break;
		}
		if (rc)
			break;
		res->nrecs++;
		since = e->version;
	}
out:
	mutex_unlock(&t->lock);
	kfree(rec);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_table_extract);

/**
 * nidmap_table_version() - the version of the table's last change
 * @t: the table
 *
 * Return: the version (0: never changed).
 */
u64 nidmap_table_version(struct nidmap_table *t)
{
	u64 v;

	mutex_lock(&t->lock);
	v = t->version;
	mutex_unlock(&t->lock);
	return v;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_table_version);

/**
 * nidmap_table_horizon() - the newest version of a forgotten tombstone
 * @t: the table
 *
 * Return: the horizon: deltas are served from it up.
 */
u64 nidmap_table_horizon(struct nidmap_table *t)
{
	u64 v;

	mutex_lock(&t->lock);
	v = t->horizon;
	mutex_unlock(&t->lock);
	return v;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_table_horizon);

/**
 * nidmap_table_epoch() - the table's epoch
 * @t: the table
 *
 * Return: the epoch it was created with.
 */
u64 nidmap_table_epoch(struct nidmap_table *t)
{
	return t->epoch;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_table_epoch);

/**
 * nidmap_table_count() - entries and tombstones
 * @t: the table
 * @tombstones: set to the tombstones, if not NULL
 *
 * Return: the live entries.
 */
u32 nidmap_table_count(struct nidmap_table *t, u32 *tombstones)
{
	u32 n;

	mutex_lock(&t->lock);
	nidmap_purge(t);
	n = t->nlive;
	if (tombstones)
		*tombstones = t->ntomb;
	mutex_unlock(&t->lock);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_table_count);
