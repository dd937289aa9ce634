// SPDX-License-Identifier: GPL-2.0
/*
 * A subscriber's copy of the table (Documentation/nidmap.rst, "Deltas
 * and full resyncs"): the entries by name (an rhashtable) and by version
 * (an xarray: the publisher's versions are unique within an epoch), the
 * epoch and version it is at, and the resync in progress.
 *
 * nidmap_copy_apply() takes one decoded FETCH_REPLY page.  A FULL page
 * starts a resync: in the same epoch every entry is marked stale (a new
 * generation) and unmarked by the records that bring it, and the last
 * page drops what is still stale; in another epoch the copy is emptied
 * first (versions of two epochs may collide).  A page that does not
 * follow the copy's position is refused, the copy unchanged.
 */
#include <linux/mutex.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include <kunit/visibility.h>

#include "node.h"

struct nidmap_centry {
	struct rhash_head	node;
	u32			gen;
	struct nidmap_rec	rec;	/* rec.name zero-padded: the key */
};

/**
 * struct nidmap_copy - a subscriber's copy
 * @lock: serialises everything below
 * @names: entries by name
 * @versions: entries by version
 * @count: entries
 * @max: most entries kept
 * @epoch: the publisher's epoch the copy is in (0: none yet)
 * @version: the version applied up to (the next FETCH's)
 * @resync: a full resync is in progress
 * @rbase: its horizon (the next FETCH's base)
 * @gen: the current generation; older entries are stale in a resync
 */
struct nidmap_copy {
	struct mutex		lock;		/* everything below */
	struct rhashtable	names;
	struct xarray		versions;
	u32			count;
	u32			max;
	u64			epoch;
	u64			version;
	bool			resync;
	u64			rbase;
	u32			gen;
};

static const struct rhashtable_params nidmap_copy_params = {
	.key_len	= NIDMAP_NAME_MAX,
	.key_offset	= offsetof(struct nidmap_centry, rec.name),
	.head_offset	= offsetof(struct nidmap_centry, node),
	/*
	 * Never below the size it starts with (64 buckets): a copy of a few
	 * targets would otherwise shrink (a new table, a rehash in a work)
	 * at its first change, when a record replacing one is removed.
	 */
	.min_size	= 64,
	.automatic_shrinking = true,
};

/**
 * nidmap_copy_create() - an empty copy
 * @max_entries: most entries it keeps (beyond: the page is refused)
 *
 * Return: the copy, or NULL.
 */
struct nidmap_copy *nidmap_copy_create(u32 max_entries)
{
	struct nidmap_copy *c = kzalloc(sizeof(*c), GFP_KERNEL);

	if (!c)
		return NULL;
	if (rhashtable_init(&c->names, &nidmap_copy_params)) {
		kfree(c);
		return NULL;
	}
	mutex_init(&c->lock);
	xa_init(&c->versions);
	c->max = max_entries;
	return c;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_copy_create);

static void nidmap_centry_del(struct nidmap_copy *c, struct nidmap_centry *e)
{
	rhashtable_remove_fast(&c->names, &e->node, nidmap_copy_params);
	xa_erase(&c->versions, e->rec.version);
	c->count--;
	kfree(e);
}

static void nidmap_copy_clear(struct nidmap_copy *c)
{
	struct nidmap_centry *e;
	unsigned long idx;

	xa_for_each(&c->versions, idx, e)
		nidmap_centry_del(c, e);
}

/* The hash's free function: an entry of a copy being destroyed. */
static void nidmap_centry_free(void *ptr, void *arg)
{
	kfree(ptr);
}

/**
 * nidmap_copy_destroy() - free a copy and its entries
 * @c: the copy, or NULL
 */
void nidmap_copy_destroy(struct nidmap_copy *c)
{
	if (!c)
		return;
	/*
	 * The entries freed with the hash, not removed one by one: each
	 * removal could start the hash's shrinking (a new bucket table and
	 * a rehash) for a table about to be freed.
	 */
	rhashtable_free_and_destroy(&c->names, nidmap_centry_free, NULL);
	xa_destroy(&c->versions);
	kfree(c);
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_copy_destroy);

static struct nidmap_centry *nidmap_copy_find(struct nidmap_copy *c,
					      const char *name)
{
	char key[NIDMAP_NAME_MAX] = { };

	strscpy(key, name, sizeof(key));
	return rhashtable_lookup_fast(&c->names, key, nidmap_copy_params);
}

/* One record of a page: a tombstone deletes, else the entry is replaced. */
static int nidmap_copy_rec(struct nidmap_copy *c, const struct nidmap_rec *rec)
{
	struct nidmap_centry *old = nidmap_copy_find(c, rec->name), *e;
	size_t nlen = strnlen(rec->name, NIDMAP_NAME_MAX);
	int rc;

	if (rec->flags & NIDMAP_R_DELETED) {
		if (old)
			nidmap_centry_del(c, old);
		return 0;
	}
	if (!old && c->count >= c->max)
		return -ENOSPC;
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	e->rec = *rec;
	memset(e->rec.name + nlen, 0, NIDMAP_NAME_MAX - nlen);
	e->gen = c->gen;
	if (old)
		nidmap_centry_del(c, old);
	rc = xa_insert(&c->versions, rec->version, e, GFP_KERNEL);
	if (rc) {
		kfree(e);
		return rc == -EBUSY ? -EPROTO : rc;
	}
	rc = rhashtable_insert_fast(&c->names, &e->node, nidmap_copy_params);
	if (rc) {
		xa_erase(&c->versions, rec->version);
		kfree(e);
		return rc;
	}
	c->count++;
	return 0;
}

/* The end of a resync: what it did not bring is gone. */
static void nidmap_copy_drop_stale(struct nidmap_copy *c)
{
	struct nidmap_centry *e;
	unsigned long idx;

	xa_for_each(&c->versions, idx, e)
		if (e->gen != c->gen)
			nidmap_centry_del(c, e);
}

/**
 * nidmap_copy_apply() - apply one FETCH_REPLY page
 * @c: the copy
 * @msg: the page, decoded by nidmap_msg_decode()
 *
 * Return: 0 (the copy's position moved to the page's version; when the
 * page had no MORE, the copy is the publisher's table at that version);
 * -EPROTO not a FETCH_REPLY, or not following the copy's position (its
 * base); -ESTALE a page of another epoch outside a resync's start; or an
 * error applying a record (-ENOSPC: the copy is full), the copy's
 * position unchanged so that the page is fetched again.
 */
int nidmap_copy_apply(struct nidmap_copy *c, const struct nidmap_msg *msg)
{
	const struct nidmap_hdr *h = &msg->hdr;
	struct nidmap_rec *rec;
	struct nidmap_iter it;
	int rc = 0;

	if (h->type != NIDMAP_FETCH_REPLY || !h->epoch)
		return -EPROTO;
	rec = kmalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return -ENOMEM;
	mutex_lock(&c->lock);
	if (h->flags & NIDMAP_F_FULL) {
		if (h->epoch != c->epoch)
			nidmap_copy_clear(c);
		c->gen++;
		c->epoch = h->epoch;
		c->version = 0;
		c->resync = true;
		c->rbase = h->base;
		nidmap_count(NIDMAP_A_CTR_RESYNCS);
	} else if (h->epoch != c->epoch) {
		rc = -ESTALE;
	} else if (h->base != c->version) {
		rc = -EPROTO;
	}
	nidmap_iter_init(&it, msg);
	while (!rc && nidmap_iter_rec(&it, rec))
		rc = nidmap_copy_rec(c, rec);
	if (!rc && it.index != h->count)
		rc = -EPROTO;
	if (!rc) {
		c->version = h->version;
		if (!(h->flags & NIDMAP_F_MORE) && c->resync) {
			nidmap_copy_drop_stale(c);
			c->resync = false;
		}
	}
	mutex_unlock(&c->lock);
	kfree(rec);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_copy_apply);

/**
 * nidmap_copy_position() - what the next FETCH asks
 * @c: the copy
 * @epoch: its epoch (0: none yet)
 * @version: its version, or its position in a resync
 * @base: in a resync its horizon, else 0
 * @resync: a resync is in progress (the FETCH has FULL)
 */
void nidmap_copy_position(struct nidmap_copy *c, u64 *epoch, u64 *version,
			  u64 *base, bool *resync)
{
	mutex_lock(&c->lock);
	*epoch = c->epoch;
	*version = c->version;
	*resync = c->resync;
	*base = c->resync ? c->rbase : 0;
	mutex_unlock(&c->lock);
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_copy_position);

/**
 * nidmap_copy_lookup() - a target's entry in the copy
 * @c: the copy
 * @name: the target
 * @rec: its record
 *
 * Return: 0 or -ENOENT.
 */
int nidmap_copy_lookup(struct nidmap_copy *c, const char *name,
		       struct nidmap_rec *rec)
{
	struct nidmap_centry *e;
	int rc = -ENOENT;

	mutex_lock(&c->lock);
	e = nidmap_copy_find(c, name);
	if (e) {
		*rec = e->rec;
		rc = 0;
	}
	mutex_unlock(&c->lock);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_copy_lookup);

/**
 * nidmap_copy_walk() - the entries in version order
 * @c: the copy
 * @after: from the first entry above this version
 * @fn: called for each; a non-zero return stops the walk
 * @arg: for @fn
 *
 * Return: 0, or what @fn returned.
 */
int nidmap_copy_walk(struct nidmap_copy *c, u64 after,
		     int (*fn)(void *arg, const struct nidmap_rec *rec),
		     void *arg)
{
	struct nidmap_centry *e;
	unsigned long idx;
	int rc = 0;

	mutex_lock(&c->lock);
	xa_for_each_start(&c->versions, idx, e, after + 1) {
		rc = fn(arg, &e->rec);
		if (rc)
			break;
	}
	mutex_unlock(&c->lock);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_copy_walk);

/**
 * nidmap_copy_count() - entries in the copy
 * @c: the copy
 *
 * Return: their number.
 */
u32 nidmap_copy_count(struct nidmap_copy *c)
{
	u32 n;

	mutex_lock(&c->lock);
	n = c->count;
	mutex_unlock(&c->lock);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_copy_count);
