// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: nidmap's table (nidmap/table.c) against a simple model under
 * seeded random operation sequences: versions, lookups, and subscriber
 * copies brought up to date from every older version through the real
 * message code (pages encoded as FETCH_REPLY in either byte order,
 * decoded, applied), with changes made between pages, tombstones
 * forgotten and full resyncs; the copy must equal the model each time.
 * Failover order is kept from registration to the subscriber's copy.
 */
#include <kunit/test.h>
#include <linux/kstrtox.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "../nidmap/nidmap.h"
#include "xorshift.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define NAMES	16
#define NIDS	4
#define OPS	400

struct m_ent {
	bool		live;
	u8		nnids;
	struct lnet_nid	nids[NIDS];
	u64		version;	/* last change, deletions too */
};

struct model {
	u64		version;
	struct m_ent	e[NAMES];
};

/* run_model()'s history: hist[v] is the model at version v. */
static struct model *hist;

static void name_of(int i, char *buf)
{
	snprintf(buf, NIDMAP_NAME_MAX, "lustre-OST%04x", i);
}

static void mk_nid(u32 i, struct lnet_nid *nid)
{
	memset(nid, 0, sizeof(*nid));
	nid->nid_type = LNET_LND_SOCK;
	nid->nid_num = cpu_to_be16(i % 3);
	if (i % 5 == 0) {	/* IPv6 */
		nid->nid_size = 12;
		nid->nid_addr[0] = cpu_to_be32(0x20010db8);
		nid->nid_addr[3] = cpu_to_be32(i);
	} else {
		nid->nid_addr[0] = cpu_to_be32(0xc0000200 + i);
	}
}

static void rand_rec(struct rng *r, int i, struct nidmap_rec *rec)
{
	u32 base = rnd(r, 64);
	unsigned int k;

	memset(rec, 0, sizeof(*rec));
	name_of(i, rec->name);
	rec->nnids = 1 + rnd(r, NIDS);
	/* Distinct NIDs in a random order (the failover order). */
	for (k = 0; k < rec->nnids; k++)
		mk_nid(base + k * 7 + (k ? rnd(r, 3) * 100 : 0), &rec->nids[k]);
	if (rnd(r, 2))
		swap(rec->nids[0], rec->nids[rec->nnids - 1]);
}

static void check_model(struct kunit *test, struct nidmap_table *t,
			const struct model *m)
{
	struct nidmap_rec rec;
	char name[NIDMAP_NAME_MAX];
	int i, rc;

	KUNIT_ASSERT_EQ(test, nidmap_table_version(t), m->version);
	for (i = 0; i < NAMES; i++) {
		name_of(i, name);
		rc = nidmap_table_lookup(t, name, &rec);
		KUNIT_ASSERT_EQ(test, rc, m->e[i].live ? 0 : -ENOENT);
		if (rc)
			continue;
		KUNIT_EXPECT_EQ(test, rec.version, m->e[i].version);
		KUNIT_ASSERT_EQ(test, rec.nnids, m->e[i].nnids);
		KUNIT_EXPECT_EQ(test, memcmp(rec.nids, m->e[i].nids,
					     rec.nnids * sizeof(rec.nids[0])), 0);
	}
}

/* One random operation on the table and the model. */
static void step(struct kunit *test, struct nidmap_table *t, struct model *m,
		 struct rng *r, u32 max_entries)
{
	struct nidmap_rec rec;
	int i = rnd(r, NAMES);
	u32 live = 0, k;
	u64 v = 0;
	int rc;

	for (k = 0; k < NAMES; k++)
		live += m->e[k].live;
	if (rnd(r, 10) < 3) {
		name_of(i, rec.name);
		rc = nidmap_table_delete(t, rec.name, NULL, &v);
		KUNIT_ASSERT_EQ(test, rc, m->e[i].live ? 0 : -ENOENT);
		if (rc)
			return;
		m->e[i].live = false;
		m->e[i].version = ++m->version;
		KUNIT_ASSERT_EQ(test, v, m->version);
		hist[m->version] = *m;
		return;
	}
	rand_rec(r, i, &rec);
	if (m->e[i].live && rnd(r, 8) == 0) {	/* the same: no new version */
		rec.nnids = m->e[i].nnids;
		memcpy(rec.nids, m->e[i].nids, sizeof(m->e[i].nids));
	}
	rc = nidmap_table_set(t, &rec, NULL, &v);
	if (!m->e[i].live && live >= max_entries) {
		KUNIT_ASSERT_EQ(test, rc, -ENOSPC);
		return;
	}
	KUNIT_ASSERT_EQ(test, rc, 0);
	if (m->e[i].live && m->e[i].nnids == rec.nnids &&
	    !memcmp(m->e[i].nids, rec.nids, rec.nnids * sizeof(rec.nids[0]))) {
		KUNIT_ASSERT_EQ(test, v, m->e[i].version);
		return;
	}
	m->e[i].live = true;
	m->e[i].nnids = rec.nnids;
	memset(m->e[i].nids, 0, sizeof(m->e[i].nids));
	memcpy(m->e[i].nids, rec.nids, rec.nnids * sizeof(rec.nids[0]));
	m->e[i].version = ++m->version;
	KUNIT_ASSERT_EQ(test, v, m->version);
	hist[m->version] = *m;
}

/* A page being encoded: nidmap_table_extract()'s emit. */
static int emit_enc(void *arg, const struct nidmap_rec *rec)
{
	return nidmap_enc_rec(arg, rec);
}

/*
 * Bring @copy (at @since) up to date as a subscriber does, one FETCH_REPLY
 * page at a time; between pages, maybe change the table.  Return how many
 * records a first, single, non-full page carried, else -1.
 */
static int sync_copy(struct kunit *test, struct nidmap_table *t,
		     struct model *m, struct model *copy, u64 since,
		     struct rng *r, u32 max_entries, bool interleave)
{
	u64 resync = NIDMAP_NO_RESYNC;
	bool seen[NAMES] = { }, in_resync = false;
	struct nidmap_extract res;
	struct nidmap_hdr hdr = { .type = NIDMAP_FETCH_REPLY,
				  .incarnation = 1, .seq = 1, .reply_to = 1,
				  .epoch = 1 };
	struct nidmap_enc enc;
	struct nidmap_iter it;
	struct nidmap_msg msg;
	struct nidmap_rec rec;
	int pages = 0, first = -1, i, rc, len;
	u32 room;
	u8 *buf;

	buf = kunit_kmalloc(test, NIDMAP_ROOM_MIN + 600, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	do {
		room = NIDMAP_ROOM_MIN + rnd(r, 600);
		KUNIT_ASSERT_EQ(test, nidmap_enc_init(&enc, buf, room, &hdr), 0);
		rc = nidmap_table_extract(t, since, resync, emit_enc, &enc,
					  &res);
		KUNIT_ASSERT_EQ(test, rc, 0);
		/* A delta is served exactly when nothing above was forgotten. */
		if (resync == NIDMAP_NO_RESYNC && !res.full)
			KUNIT_EXPECT_LE(test, nidmap_table_horizon(t), since);
		enc.hdr.flags = (res.full ? NIDMAP_F_FULL : 0) |
				(res.more ? NIDMAP_F_MORE : 0);
		enc.hdr.version = res.upto;
		enc.hdr.base = res.full ? res.horizon : since;
		len = nidmap_enc_finish(&enc, 0);
		KUNIT_ASSERT_GT(test, len, 0);
		if (rnd(r, 2))
			KUNIT_ASSERT_EQ(test, nidmap_msg_swab(buf, len), 0);
		KUNIT_ASSERT_EQ(test, nidmap_msg_decode(buf, len, &msg), 0);
		KUNIT_ASSERT_EQ(test, msg.hdr.count, res.nrecs);
		if (!pages && !res.full && !res.more)
			first = res.nrecs;
		if (msg.hdr.flags & NIDMAP_F_FULL) {
			memset(seen, 0, sizeof(seen));
			in_resync = true;
		}
		nidmap_iter_init(&it, &msg);
		while (nidmap_iter_rec(&it, &rec)) {
			KUNIT_ASSERT_EQ(test, strncmp(rec.name, "lustre-OST", 10),
					0);
			KUNIT_ASSERT_EQ(test, kstrtoint(rec.name + 10, 16, &i), 0);
			KUNIT_ASSERT_LT(test, i, NAMES);
			seen[i] = true;
			copy->e[i].live = !(rec.flags & NIDMAP_R_DELETED);
			copy->e[i].nnids = rec.nnids;
			memset(copy->e[i].nids, 0, sizeof(copy->e[i].nids));
			memcpy(copy->e[i].nids, rec.nids,
			       rec.nnids * sizeof(rec.nids[0]));
			copy->e[i].version = rec.version;
		}
		KUNIT_ASSERT_EQ(test, it.index, msg.hdr.count);
		since = msg.hdr.version;
		if (msg.hdr.flags & NIDMAP_F_FULL)
			resync = msg.hdr.base;
		if (interleave && res.more && rnd(r, 2))
			step(test, t, m, r, max_entries);
		KUNIT_ASSERT_LT(test, ++pages, 1000);
	} while (res.more);
	if (in_resync)
		for (i = 0; i < NAMES; i++)
			if (!seen[i])
				copy->e[i].live = false;
	copy->version = since;
	return first;
}

static bool models_equal(const struct model *a, const struct model *b)
{
	int i;

	if (a->version != b->version)
		return false;
	for (i = 0; i < NAMES; i++) {
		if (a->e[i].live != b->e[i].live)
			return false;
		if (!a->e[i].live)
			continue;
		if (a->e[i].nnids != b->e[i].nnids ||
		    a->e[i].version != b->e[i].version ||
		    memcmp(a->e[i].nids, b->e[i].nids, sizeof(a->e[i].nids)))
			return false;
	}
	return true;
}

static void run_model(struct kunit *test, u64 seed, u32 max_entries,
		      u32 max_tombstones)
{
	struct nidmap_limits lim = { .max_entries = max_entries,
				     .max_tombstones = max_tombstones };
	struct rng r = { .s = seed };
	struct model *m, *copy;
	struct nidmap_table *t;
	u64 since, changed;
	int op, k, i, n;
	u32 ntomb;

	/* Each op and each step between pages: at most one version. */
	hist = vzalloc(sizeof(*hist) * OPS * 8);
	KUNIT_ASSERT_NOT_NULL(test, hist);
	m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	copy = kunit_kzalloc(test, sizeof(*copy), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m);
	KUNIT_ASSERT_NOT_NULL(test, copy);
	t = nidmap_table_create(&lim, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));

	for (op = 0; op < OPS; op++) {
		step(test, t, m, &r, max_entries);
		check_model(test, t, m);
		if (op % 8)
			continue;
		for (k = 0; k < 4; k++) {
			since = rnd(&r, m->version + 2);	/* one beyond too */
			if (since <= m->version)
				*copy = hist[since];
			else
				memset(copy, 0, sizeof(*copy));
			n = sync_copy(test, t, m, copy, since, &r, max_entries,
				      k & 1);
			KUNIT_ASSERT_TRUE_MSG(test, models_equal(copy, m),
					      "seed %llu op %d since %llu",
					      seed, op, since);
			KUNIT_ASSERT_LT(test, m->version, (u64)OPS * 8 - 1);
			/* A single-page delta is minimal: the names changed. */
			if (n >= 0) {
				for (i = 0, changed = 0; i < NAMES; i++)
					changed += m->e[i].version > since;
				KUNIT_EXPECT_EQ(test, (u64)n, changed);
			}
		}
	}
	nidmap_table_count(t, &ntomb);
	KUNIT_EXPECT_LE(test, ntomb, max_tombstones);
	nidmap_table_destroy(t);
	vfree(hist);
}

static void table_model_random(struct kunit *test)
{
	static const struct { u32 entries, tombs; } cfg[] = {
		{ NAMES, 64 }, { NAMES, 3 }, { 10, 1 }, { 12, 0 },
	};
	u64 seed;
	int c;

	for (c = 0; c < ARRAY_SIZE(cfg); c++)
		for (seed = 1; seed <= 3; seed++)
			run_model(test, seed * 0x9e3779b97f4a7c15ULL + c,
				  cfg[c].entries, cfg[c].tombs);
}

static void table_failover_order(struct kunit *test)
{
	struct nidmap_limits lim = { .max_entries = 4, .max_tombstones = 4 };
	struct nidmap_rec rec = { .name = "lustre-MDT0000", .nnids = 3 };
	struct nidmap_rec got;
	struct lnet_nid owner, other;
	struct nidmap_table *t;
	u64 v, v2;

	t = nidmap_table_create(&lim, 7);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	mk_nid(9, &rec.nids[0]);
	mk_nid(5, &rec.nids[1]);	/* IPv6 */
	mk_nid(1, &rec.nids[2]);
	mk_nid(40, &owner);
	mk_nid(41, &other);
	KUNIT_ASSERT_EQ(test, nidmap_table_set(t, &rec, &owner, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 1ULL);
	KUNIT_ASSERT_EQ(test, nidmap_table_lookup(t, rec.name, &got), 0);
	KUNIT_EXPECT_EQ(test, memcmp(got.nids, rec.nids, sizeof(rec.nids)), 0);
	/* Another node may not take it; a failover partner (a NID) may. */
	KUNIT_EXPECT_EQ(test, nidmap_table_set(t, &rec, &other, &v2), -EPERM);
	KUNIT_EXPECT_EQ(test, nidmap_table_delete(t, rec.name, &other, &v2),
			-EPERM);
	swap(rec.nids[0], rec.nids[2]);
	KUNIT_EXPECT_EQ(test, nidmap_table_set(t, &rec, &rec.nids[0], &v2), 0);
	KUNIT_EXPECT_EQ(test, v2, 2ULL);
	KUNIT_ASSERT_EQ(test, nidmap_table_lookup(t, rec.name, &got), 0);
	KUNIT_EXPECT_EQ(test, memcmp(got.nids, rec.nids, sizeof(rec.nids)), 0);
	/* Bad records refused, the table unchanged. */
	rec.nids[1] = rec.nids[0];
	KUNIT_EXPECT_EQ(test, nidmap_table_set(t, &rec, NULL, &v2), -EPROTO);
	rec.nnids = 0;
	KUNIT_EXPECT_EQ(test, nidmap_table_set(t, &rec, NULL, &v2), -EPROTO);
	rec.nnids = NIDMAP_NIDS_MAX + 1;
	KUNIT_EXPECT_EQ(test, nidmap_table_set(t, &rec, NULL, &v2), -E2BIG);
	KUNIT_EXPECT_EQ(test, nidmap_table_version(t), 2ULL);
	KUNIT_EXPECT_EQ(test, nidmap_table_delete(t, "no-such", NULL, &v2),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, nidmap_table_delete(t, rec.name, NULL, &v2), 0);
	KUNIT_EXPECT_EQ(test, nidmap_table_lookup(t, rec.name, &got), -ENOENT);
	KUNIT_EXPECT_EQ(test, nidmap_table_epoch(t), 7ULL);
	nidmap_table_destroy(t);
}

/* A batch for nidmap_table_apply(): records from an array. */
struct batch {
	const struct nidmap_rec	*recs;
	int			n;
	int			i;
};

static bool next_rec(void *arg, struct nidmap_rec *rec)
{
	struct batch *b = arg;

	if (b->i >= b->n)
		return false;
	*rec = b->recs[b->i++];
	return true;
}

/* Every record of a table, tombstones too, in version order. */
struct snap {
	struct nidmap_rec	r[NAMES * 2];
	int			n;
	u64			version;
	u64			horizon;
	u32			nlive;
	u32			ntomb;
};

static int snap_emit(void *arg, const struct nidmap_rec *rec)
{
	struct snap *s = arg;

	if (s->n >= ARRAY_SIZE(s->r))
		return -E2BIG;
	s->r[s->n++] = *rec;
	return 0;
}

static void snapshot(struct kunit *test, struct nidmap_table *t,
		     struct snap *s)
{
	struct nidmap_extract res;

	s->n = 0;
	KUNIT_ASSERT_EQ(test, nidmap_table_extract(t, 0, NIDMAP_NO_RESYNC,
						   snap_emit, s, &res), 0);
	s->version = nidmap_table_version(t);
	s->horizon = nidmap_table_horizon(t);
	s->nlive = nidmap_table_count(t, &s->ntomb);
}

static void expect_same(struct kunit *test, const struct snap *a,
			const struct snap *b)
{
	int i;

	KUNIT_EXPECT_EQ(test, a->version, b->version);
	KUNIT_EXPECT_EQ(test, a->horizon, b->horizon);
	KUNIT_EXPECT_EQ(test, a->nlive, b->nlive);
	KUNIT_EXPECT_EQ(test, a->ntomb, b->ntomb);
	KUNIT_ASSERT_EQ(test, a->n, b->n);
	for (i = 0; i < a->n; i++)
		KUNIT_EXPECT_EQ(test, memcmp(&a->r[i], &b->r[i],
					     sizeof(a->r[i])), 0);
}

/* @rec: target @i with NID @nid (by @owner) or removed (DELETED). */
static void simple_rec(int i, u32 nid, struct nidmap_rec *rec)
{
	memset(rec, 0, sizeof(*rec));
	name_of(i, rec->name);
	if (!nid) {
		rec->flags = NIDMAP_R_DELETED;
		return;
	}
	rec->nnids = 1;
	mk_nid(nid, &rec->nids[0]);
}

/*
 * A batch is applied all or none: a refusal anywhere (not the owner, no
 * room, no such target) undoes the records before it, whatever they did
 * (added, changed, removed, revived a tombstone, changed a target twice):
 * every record, tombstone, count, the version and the horizon as before;
 * the tombstones restored keep their order (the next one forgotten is
 * the oldest).  A batch without a refusal takes consecutive versions.
 */
static void table_apply_all_or_none(struct kunit *test)
{
	struct nidmap_limits lim = { .max_entries = 8, .max_tombstones = 2 };
	struct nidmap_rec *recs = kunit_kcalloc(test, 10, sizeof(*recs),
						GFP_KERNEL);
	struct snap *s0 = kunit_kzalloc(test, sizeof(*s0), GFP_KERNEL);
	struct snap *s1 = kunit_kzalloc(test, sizeof(*s1), GFP_KERNEL);
	struct lnet_nid owner, other;
	struct nidmap_table *t;
	struct nidmap_rec got;
	struct batch b;
	u32 index;
	u64 v;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, recs);
	KUNIT_ASSERT_NOT_NULL(test, s0);
	KUNIT_ASSERT_NOT_NULL(test, s1);
	t = nidmap_table_create(&lim, 9);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	mk_nid(40, &owner);
	mk_nid(41, &other);
	for (i = 0; i < 5; i++) {
		simple_rec(i, 100 + i, &recs[0]);
		KUNIT_ASSERT_EQ(test, nidmap_table_set(t, &recs[0],
						       i < 4 ? &owner : &other,
						       &v), 0);
	}
	KUNIT_ASSERT_EQ(test, nidmap_table_delete(t, recs[0].name, &other,
						  &v), 0);
	name_of(3, recs[0].name);
	KUNIT_ASSERT_EQ(test, nidmap_table_delete(t, recs[0].name, &owner,
						  &v), 0);	/* 7 */
	simple_rec(4, 104, &recs[0]);
	KUNIT_ASSERT_EQ(test, nidmap_table_set(t, &recs[0], &other, &v), 0);
	snapshot(test, t, s0);
	KUNIT_ASSERT_EQ(test, s0->version, 8ULL);
	KUNIT_ASSERT_EQ(test, s0->ntomb, 1U);

	/* Every kind of change, then a record of another owner's target. */
	simple_rec(5, 105, &recs[0]);		/* added */
	simple_rec(0, 200, &recs[1]);		/* changed */
	simple_rec(1, 0, &recs[2]);		/* removed */
	simple_rec(3, 103, &recs[3]);		/* a tombstone revived */
	simple_rec(5, 205, &recs[4]);		/* changed in the batch */
	simple_rec(5, 0, &recs[5]);		/* and removed */
	simple_rec(2, 0, &recs[6]);		/* removed: 3 tombstones */
	simple_rec(4, 204, &recs[7]);		/* other's: refused */
	b = (struct batch){ .recs = recs, .n = 8 };
	KUNIT_EXPECT_EQ(test, nidmap_table_apply(t, next_rec, &b, &owner, 0,
						 &index), -EPERM);
	KUNIT_EXPECT_EQ(test, index, 7U);
	snapshot(test, t, s1);
	expect_same(test, s0, s1);
	name_of(3, got.name);
	KUNIT_EXPECT_EQ(test, nidmap_table_lookup(t, got.name, &got), -ENOENT);

	/* No such target at the end: the same. */
	simple_rec(6, 0, &recs[7]);
	b = (struct batch){ .recs = recs, .n = 8 };
	KUNIT_EXPECT_EQ(test, nidmap_table_apply(t, next_rec, &b, &owner, 0,
						 &index), -ENOENT);
	KUNIT_EXPECT_EQ(test, index, 7U);
	snapshot(test, t, s1);
	expect_same(test, s0, s1);

	/* No room (8 entries): the 5th new target is refused. */
	for (i = 0; i < 5; i++)
		simple_rec(8 + i, 108 + i, &recs[i]);
	b = (struct batch){ .recs = recs, .n = 5 };
	KUNIT_EXPECT_EQ(test, nidmap_table_apply(t, next_rec, &b, &owner, 0,
						 &index), -ENOSPC);
	KUNIT_EXPECT_EQ(test, index, 4U);
	snapshot(test, t, s1);
	expect_same(test, s0, s1);

	/* Target 3's tombstone is still the oldest: forgotten first. */
	simple_rec(1, 0, &recs[0]);
	simple_rec(2, 0, &recs[1]);
	b = (struct batch){ .recs = recs, .n = 2 };
	KUNIT_EXPECT_EQ(test, nidmap_table_apply(t, next_rec, &b, &owner, 0,
						 &index), 0);
	KUNIT_EXPECT_EQ(test, index, 2U);
	KUNIT_EXPECT_EQ(test, nidmap_table_version(t), 10ULL);
	KUNIT_EXPECT_EQ(test, nidmap_table_horizon(t), 7ULL);

	/* Applied: consecutive versions, each record seeing the last. */
	simple_rec(5, 105, &recs[0]);
	simple_rec(5, 205, &recs[1]);
	simple_rec(0, 200, &recs[2]);
	b = (struct batch){ .recs = recs, .n = 3 };
	KUNIT_EXPECT_EQ(test, nidmap_table_apply(t, next_rec, &b, &owner, 0,
						 &index), 0);
	KUNIT_EXPECT_EQ(test, nidmap_table_version(t), 13ULL);
	KUNIT_ASSERT_EQ(test, nidmap_table_lookup(t, recs[1].name, &got), 0);
	KUNIT_EXPECT_EQ(test, got.version, 12ULL);
	KUNIT_EXPECT_EQ(test, memcmp(&got.nids[0], &recs[1].nids[0],
				     sizeof(got.nids[0])), 0);
	/* The version 11 entry went with the batch: not in a delta. */
	snapshot(test, t, s1);
	for (i = 0; i < s1->n; i++)
		KUNIT_EXPECT_NE(test, s1->r[i].version, 11ULL);
	KUNIT_EXPECT_EQ(test, s1->nlive, 3U);	/* 0, 4, 5 */
	nidmap_table_destroy(t);
}

/*
 * A registrant whose address moved (Documentation/nidmap.rst,
 * "Ownership"): from its new NID it may change its target only when the
 * REGISTER was authenticated and carries the incarnation the target was
 * registered with; an unauthenticated one (incarnation 0), another
 * incarnation (another node, or the owner restarted) may not; the new
 * NID owns the target after, with the same incarnation.
 */
static void table_owner_moved(struct kunit *test)
{
	struct nidmap_limits lim = { .max_entries = 4, .max_tombstones = 4 };
	struct nidmap_rec *recs = kunit_kcalloc(test, 2, sizeof(*recs),
						GFP_KERNEL);
	struct lnet_nid old_nid, new_nid, newer_nid;
	const u64 inc = 0x1234567890abcdefULL;
	struct nidmap_table *t;
	struct nidmap_rec got;
	struct batch b;
	u32 index;

	KUNIT_ASSERT_NOT_NULL(test, recs);
	t = nidmap_table_create(&lim, 3);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	mk_nid(50, &old_nid);
	mk_nid(51, &new_nid);
	mk_nid(52, &newer_nid);
	simple_rec(0, 50, &recs[0]);
	b = (struct batch){ .recs = recs, .n = 1 };
	KUNIT_ASSERT_EQ(test, nidmap_table_apply(t, next_rec, &b, &old_nid, inc,
						 &index), 0);

	simple_rec(0, 51, &recs[0]);
	b = (struct batch){ .recs = recs, .n = 1 };
	KUNIT_EXPECT_EQ(test, nidmap_table_apply(t, next_rec, &b, &new_nid, 0,
						 &index), -EPERM);
	b = (struct batch){ .recs = recs, .n = 1 };
	KUNIT_EXPECT_EQ(test, nidmap_table_apply(t, next_rec, &b, &new_nid,
						 inc + 1, &index), -EPERM);
	KUNIT_EXPECT_EQ(test, nidmap_table_version(t), 1ULL);
	b = (struct batch){ .recs = recs, .n = 1 };
	KUNIT_EXPECT_EQ(test, nidmap_table_apply(t, next_rec, &b, &new_nid, inc,
						 &index), 0);
	KUNIT_EXPECT_EQ(test, nidmap_table_version(t), 2ULL);
	KUNIT_ASSERT_EQ(test, nidmap_table_lookup(t, recs[0].name, &got), 0);
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&got.nids[0], &new_nid));

	/* Owned by the new NID now: its old NID, unauthenticated, may not. */
	simple_rec(0, 50, &recs[0]);
	b = (struct batch){ .recs = recs, .n = 1 };
	KUNIT_EXPECT_EQ(test, nidmap_table_apply(t, next_rec, &b, &old_nid, 0,
						 &index), -EPERM);
	/* It moves again, and then removes its target. */
	simple_rec(0, 52, &recs[0]);
	b = (struct batch){ .recs = recs, .n = 1 };
	KUNIT_EXPECT_EQ(test, nidmap_table_apply(t, next_rec, &b, &newer_nid,
						 inc, &index), 0);
	simple_rec(0, 0, &recs[0]);
	b = (struct batch){ .recs = recs, .n = 1 };
	KUNIT_EXPECT_EQ(test, nidmap_table_apply(t, next_rec, &b, &new_nid, 0,
						 &index), -EPERM);
	b = (struct batch){ .recs = recs, .n = 1 };
	KUNIT_EXPECT_EQ(test, nidmap_table_apply(t, next_rec, &b, &newer_nid, 0,
						 &index), 0);
	KUNIT_EXPECT_EQ(test, nidmap_table_lookup(t, recs[0].name, &got),
			-ENOENT);
	nidmap_table_destroy(t);
}

/*
 * A registration follows a NID that moved (renew.c): the new NID takes
 * the old one's place in failover order; one already listed is not
 * listed twice (the old one goes); a record without the old NID, or
 * whose only NID it is and the new one is listed, is left alone.
 */
static void table_rec_move_nid(struct kunit *test)
{
	struct nidmap_rec rec = { .name = "lustre-OST0001", .nnids = 3 };
	struct lnet_nid a, b, c, d;

	mk_nid(1, &a);
	mk_nid(2, &b);
	mk_nid(3, &c);
	mk_nid(4, &d);
	rec.nids[0] = a;
	rec.nids[1] = b;
	rec.nids[2] = c;
	KUNIT_EXPECT_FALSE(test, nidmap_rec_move_nid(&rec, &d, &a));
	KUNIT_EXPECT_EQ(test, rec.nnids, 3);
	KUNIT_EXPECT_TRUE(test, nidmap_rec_move_nid(&rec, &b, &d));
	KUNIT_EXPECT_EQ(test, rec.nnids, 3);
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&rec.nids[0], &a));
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&rec.nids[1], &d));
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&rec.nids[2], &c));
	KUNIT_EXPECT_EQ(test, nidmap_rec_check(&rec, true), 0);
	/* a moves to c, already listed: a goes, c stays where it was. */
	KUNIT_EXPECT_TRUE(test, nidmap_rec_move_nid(&rec, &a, &c));
	KUNIT_EXPECT_EQ(test, rec.nnids, 2);
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&rec.nids[0], &d));
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&rec.nids[1], &c));
	KUNIT_EXPECT_EQ(test, nidmap_rec_check(&rec, true), 0);
	rec.nnids = 1;
	KUNIT_EXPECT_TRUE(test, nidmap_rec_move_nid(&rec, &d, &b));
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&rec.nids[0], &b));
	KUNIT_EXPECT_FALSE(test, nidmap_rec_move_nid(&rec, &b, &b));
	KUNIT_EXPECT_EQ(test, rec.nnids, 1);
}

static u64 fake_now;

static u64 fake_clock(void)
{
	return fake_now;
}

/*
 * Tombstones expire by age: one kept max_tomb_age seconds is forgotten
 * (at the next change, fetch or count) and the horizon moves to it; a
 * subscriber below the horizon gets the whole table, one at or above it
 * a delta that still says what was removed since.
 */
static void table_tomb_age(struct kunit *test)
{
	struct nidmap_limits lim = { .max_entries = 8, .max_tombstones = 8,
				     .max_tomb_age = 100 };
	struct nidmap_extract res;
	struct nidmap_table *t;
	struct nidmap_rec rec;
	struct snap *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	u32 ntomb;
	u64 v;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, s);
	t = nidmap_table_create(&lim, 11);
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	nidmap_table_set_clock(t, fake_clock);
	fake_now = 1000;
	for (i = 0; i < 4; i++) {
		simple_rec(i, 100 + i, &rec);
		KUNIT_ASSERT_EQ(test, nidmap_table_set(t, &rec, NULL, &v), 0);
	}
	name_of(0, rec.name);
	KUNIT_ASSERT_EQ(test, nidmap_table_delete(t, rec.name, NULL, &v), 0);
	KUNIT_ASSERT_EQ(test, v, 5ULL);
	fake_now = 1050;
	name_of(1, rec.name);
	KUNIT_ASSERT_EQ(test, nidmap_table_delete(t, rec.name, NULL, &v), 0);
	fake_now = 1099;
	KUNIT_EXPECT_EQ(test, nidmap_table_count(t, &ntomb), 2U);
	KUNIT_EXPECT_EQ(test, ntomb, 2U);
	KUNIT_EXPECT_EQ(test, nidmap_table_horizon(t), 0ULL);

	fake_now = 1100;		/* the first is 100 s old */
	KUNIT_EXPECT_EQ(test, nidmap_table_count(t, &ntomb), 2U);
	KUNIT_EXPECT_EQ(test, ntomb, 1U);
	KUNIT_EXPECT_EQ(test, nidmap_table_horizon(t), 5ULL);
	s->n = 0;
	KUNIT_ASSERT_EQ(test, nidmap_table_extract(t, 4, NIDMAP_NO_RESYNC,
						   snap_emit, s, &res), 0);
	KUNIT_EXPECT_TRUE(test, res.full);
	KUNIT_EXPECT_EQ(test, s->n, 3);		/* 2, 3 and 1's tombstone */
	s->n = 0;
	KUNIT_ASSERT_EQ(test, nidmap_table_extract(t, 5, NIDMAP_NO_RESYNC,
						   snap_emit, s, &res), 0);
	KUNIT_EXPECT_FALSE(test, res.full);
	KUNIT_ASSERT_EQ(test, s->n, 1);
	KUNIT_EXPECT_EQ(test, s->r[0].version, 6ULL);
	KUNIT_EXPECT_TRUE(test, s->r[0].flags & NIDMAP_R_DELETED);

	fake_now = 1150;		/* the second too: a fetch forgets it */
	s->n = 0;
	KUNIT_ASSERT_EQ(test, nidmap_table_extract(t, 5, NIDMAP_NO_RESYNC,
						   snap_emit, s, &res), 0);
	KUNIT_EXPECT_TRUE(test, res.full);
	KUNIT_EXPECT_EQ(test, s->n, 2);
	KUNIT_EXPECT_EQ(test, nidmap_table_horizon(t), 6ULL);
	KUNIT_EXPECT_EQ(test, nidmap_table_count(t, &ntomb), 2U);
	KUNIT_EXPECT_EQ(test, ntomb, 0U);
	nidmap_table_destroy(t);
}

static struct kunit_case nidmap_table_cases[] = {
	KUNIT_CASE(table_model_random),
	KUNIT_CASE(table_failover_order),
	KUNIT_CASE(table_apply_all_or_none),
	KUNIT_CASE(table_owner_moved),
	KUNIT_CASE(table_rec_move_nid),
	KUNIT_CASE(table_tomb_age),
	{}
};

static struct kunit_suite nidmap_table_suite = {
	.name = "nidmap_table",
	.test_cases = nidmap_table_cases,
};

kunit_test_suite(nidmap_table_suite);

MODULE_DESCRIPTION("KUnit tests for nidmap's table: versions, deltas, resync");
MODULE_LICENSE("GPL");
