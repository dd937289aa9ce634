// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the subscriber's copy (nidmap/copy.c) kept up to date through
 * the publisher's answers (nidmap_pub_answer() in nidmap/publisher.c),
 * message by message as on the wire: a FETCH encoded from the copy's
 * position and decoded, answered, the FETCH_REPLY (half of them
 * byte-swapped) decoded and applied.  Seeded random changes, deletions
 * and tombstones forgotten (so resyncs), changes between pages, a
 * publisher restarted with a new epoch; after each sync the copy must
 * equal the table entry by entry.  Then REGISTER and SUBSCRIBE answers,
 * pages the copy must refuse unchanged, and sending by name (the
 * machine of nidmap_put_by_name(), nidmap_by_name_start()) over fake
 * resolutions and tries, ending at once, in flight and ended before
 * start() returned, or in flight and ended later: failover order, NIDs
 * without a route skipped, resolving again after failures, done() run
 * exactly once and never by the caller's thread.
 */
#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/unaligned.h>
#include <net/genetlink.h>

#include "../nidmap/api.h"
#include "../nidmap/node.h"
#include "xorshift.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define NAMES	24
#define COPIES	3
#define STEPS	600

static void name_of(int i, char *buf)
{
	snprintf(buf, NIDMAP_NAME_MAX, "fs-OST%04x", i);
}

static void mk_nid(u32 i, struct lnet_nid *nid)
{
	memset(nid, 0, sizeof(*nid));
	nid->nid_type = LNET_LND_SOCK;
	nid->nid_addr[0] = cpu_to_be32(0xc0000200 + i);
}

static void rand_rec(struct rng *r, int i, struct nidmap_rec *rec)
{
	u32 base = rnd(r, 100);
	unsigned int k;

	memset(rec, 0, sizeof(*rec));
	name_of(i, rec->name);
	rec->nnids = 1 + rnd(r, 3);
	for (k = 0; k < rec->nnids; k++)
		mk_nid(base + k * 101, &rec->nids[k]);
}

static void change(struct kunit *test, struct nidmap_table *t, struct rng *r)
{
	struct nidmap_rec rec;
	int i = rnd(r, NAMES), rc;
	u64 v;

	if (rnd(r, 3) == 0) {
		name_of(i, rec.name);
		rc = nidmap_table_delete(t, rec.name, NULL, &v);
		KUNIT_ASSERT_TRUE(test, rc == 0 || rc == -ENOENT);
		return;
	}
	rand_rec(r, i, &rec);
	rc = nidmap_table_set(t, &rec, NULL, &v);
	KUNIT_ASSERT_TRUE(test, rc == 0 || rc == -ENOSPC);
}

/* A FETCH as a subscriber at the copy's position sends it, decoded. */
static void make_fetch(struct kunit *test, struct nidmap_copy *c, u64 seq,
		       u32 room, u8 *buf, struct nidmap_msg *msg)
{
	struct nidmap_hdr h = { .type = NIDMAP_FETCH, .incarnation = 7,
				.seq = seq };
	struct nidmap_enc enc;
	bool resync;
	u64 base;
	int len;

	nidmap_copy_position(c, &h.epoch, &h.version, &base, &resync);
	if (resync) {
		h.flags = NIDMAP_F_FULL;
		h.base = base;
	}
	KUNIT_ASSERT_EQ(test, nidmap_enc_init(&enc, buf, 128, &h), 0);
	KUNIT_ASSERT_EQ(test, nidmap_enc_fetch(&enc, room), 0);
	len = nidmap_enc_finish(&enc, 0);
	KUNIT_ASSERT_EQ(test, len, NIDMAP_HDR_SIZE + NIDMAP_FETCH_BODY);
	KUNIT_ASSERT_EQ(test, nidmap_msg_decode(buf, len, msg), 0);
}

/* Bring @c up to date page by page; maybe change the table between. */
static void sync_copy(struct kunit *test, struct nidmap_table *t,
		      struct nidmap_copy *c, struct rng *r, bool interleave)
{
	static const struct lnet_nid from = { .nid_type = LNET_LND_SOCK };
	struct nidmap_msg req, rep;
	u8 *rbuf, *out;
	bool more;
	int pages = 0, len;
	u32 room;

	rbuf = kunit_kmalloc(test, 128, GFP_KERNEL);
	out = kunit_kmalloc(test, NIDMAP_ROOM_MIN + 1024, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rbuf);
	KUNIT_ASSERT_NOT_NULL(test, out);
	do {
		room = NIDMAP_ROOM_MIN + rnd(r, 1024);
		make_fetch(test, c, ++pages, room, rbuf, &req);
		len = nidmap_pub_answer(t, &req, &from, false, out,
					NIDMAP_ROOM_MIN + 1024);
		KUNIT_ASSERT_GT(test, len, 0);
		KUNIT_ASSERT_LE(test, len, room);
		if (rnd(r, 2))
			KUNIT_ASSERT_EQ(test, nidmap_msg_swab(out, len), 0);
		KUNIT_ASSERT_EQ(test, nidmap_msg_decode(out, len, &rep), 0);
		KUNIT_ASSERT_EQ(test, rep.hdr.type, NIDMAP_FETCH_REPLY);
		KUNIT_ASSERT_EQ(test, rep.hdr.reply_to, (u64)pages);
		KUNIT_ASSERT_EQ(test, nidmap_copy_apply(c, &rep), 0);
		more = rep.hdr.flags & NIDMAP_F_MORE;
		if (interleave && more && rnd(r, 2))
			change(test, t, r);
		KUNIT_ASSERT_LT(test, pages, 2000);
	} while (more);
}

/* The copy equals the table, entry by entry. */
static void check_equal(struct kunit *test, struct nidmap_table *t,
			struct nidmap_copy *c)
{
	struct nidmap_rec a, b;
	char name[NIDMAP_NAME_MAX];
	u64 epoch, version, base;
	bool resync;
	u32 live = 0;
	int i, ra, rb;

	nidmap_copy_position(c, &epoch, &version, &base, &resync);
	KUNIT_ASSERT_FALSE(test, resync);
	KUNIT_ASSERT_EQ(test, epoch, nidmap_table_epoch(t));
	KUNIT_ASSERT_EQ(test, version, nidmap_table_version(t));
	for (i = 0; i < NAMES; i++) {
		name_of(i, name);
		ra = nidmap_table_lookup(t, name, &a);
		rb = nidmap_copy_lookup(c, name, &b);
		KUNIT_ASSERT_EQ_MSG(test, ra, rb, "%s", name);
		if (ra)
			continue;
		live++;
		KUNIT_EXPECT_EQ(test, a.version, b.version);
		KUNIT_EXPECT_EQ(test, a.flags, b.flags);
		KUNIT_ASSERT_EQ(test, a.nnids, b.nnids);
		KUNIT_EXPECT_EQ(test, memcmp(a.nids, b.nids,
					     a.nnids * sizeof(a.nids[0])), 0);
	}
	KUNIT_EXPECT_EQ(test, nidmap_copy_count(c), live);
}

static void nidmap_copy_random(struct kunit *test)
{
	struct nidmap_copy *c[COPIES];
	struct nidmap_table *t;
	struct rng r;
	int seed, s, k;

	for (seed = 1; seed <= 6; seed++) {
		struct nidmap_limits lim = { .max_entries = NAMES - 4,
					     .max_tombstones = seed - 1 };

		r.s = 0x9e3779b97f4a7c15ULL * seed;
		t = nidmap_table_create(&lim, 100 + seed);
		KUNIT_ASSERT_NOT_NULL(test, t);
		for (k = 0; k < COPIES; k++) {
			c[k] = nidmap_copy_create(NAMES);
			KUNIT_ASSERT_NOT_NULL(test, c[k]);
		}
		for (s = 0; s < STEPS; s++) {
			change(test, t, &r);
			if (s == STEPS / 2) {
				/* The publisher restarted: a new epoch. */
				nidmap_table_destroy(t);
				t = nidmap_table_create(&lim, 200 + seed);
				KUNIT_ASSERT_NOT_NULL(test, t);
			}
			if (rnd(&r, 8))
				continue;
			k = rnd(&r, COPIES);
			sync_copy(test, t, c[k], &r, rnd(&r, 2));
			/* Changes between pages: one more sync settles. */
			sync_copy(test, t, c[k], &r, false);
			check_equal(test, t, c[k]);
		}
		for (k = 0; k < COPIES; k++)
			nidmap_copy_destroy(c[k]);
		nidmap_table_destroy(t);
	}
}

/* Pages the copy refuses leave it as it was. */
static void nidmap_copy_refuses(struct kunit *test)
{
	struct nidmap_limits lim = { .max_entries = 8, .max_tombstones = 8 };
	struct nidmap_table *t = nidmap_table_create(&lim, 5);
	struct nidmap_copy *c = nidmap_copy_create(8);
	struct nidmap_hdr h = { .type = NIDMAP_FETCH_REPLY, .incarnation = 1,
				.seq = 1, .reply_to = 1, .epoch = 5 };
	struct nidmap_rec rec;
	struct nidmap_enc enc;
	struct nidmap_msg msg;
	struct rng r = { .s = 42 };
	u8 *buf = kunit_kmalloc(test, 4096, GFP_KERNEL);
	int len;

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	change(test, t, &r);
	change(test, t, &r);
	sync_copy(test, t, c, &r, false);
	check_equal(test, t, c);

	/* A delta from a version the copy is not at. */
	rand_rec(&r, 1, &rec);
	rec.version = 9;
	h.base = 7;
	h.version = 9;
	KUNIT_ASSERT_EQ(test, nidmap_enc_init(&enc, buf, 4096, &h), 0);
	KUNIT_ASSERT_EQ(test, nidmap_enc_rec(&enc, &rec), 0);
	len = nidmap_enc_finish(&enc, 0);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_ASSERT_EQ(test, nidmap_msg_decode(buf, len, &msg), 0);
	KUNIT_EXPECT_EQ(test, nidmap_copy_apply(c, &msg), -EPROTO);
	check_equal(test, t, c);

	/* A delta of another epoch (not a resync's start). */
	h.epoch = 6;
	h.base = nidmap_table_version(t);
	h.version = h.base + 1;
	rec.version = h.version;
	KUNIT_ASSERT_EQ(test, nidmap_enc_init(&enc, buf, 4096, &h), 0);
	KUNIT_ASSERT_EQ(test, nidmap_enc_rec(&enc, &rec), 0);
	len = nidmap_enc_finish(&enc, 0);
	KUNIT_ASSERT_EQ(test, nidmap_msg_decode(buf, len, &msg), 0);
	KUNIT_EXPECT_EQ(test, nidmap_copy_apply(c, &msg), -ESTALE);
	check_equal(test, t, c);

	/* Not a FETCH_REPLY. */
	msg.hdr.type = NIDMAP_NOTICE;
	KUNIT_EXPECT_EQ(test, nidmap_copy_apply(c, &msg), -EPROTO);
	check_equal(test, t, c);
	nidmap_copy_destroy(c);
	nidmap_table_destroy(t);
}

/* Answer @req (encoded in @buf, @len bytes) from @from; decode the answer. */
static void answer(struct kunit *test, struct nidmap_table *t, u8 *buf,
		   int len, const struct lnet_nid *from, struct nidmap_msg *rep)
{
	struct nidmap_msg req;
	u8 *out = kunit_kmalloc(test, NIDMAP_STATUS_ROOM, GFP_KERNEL);
	int n;

	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_ASSERT_EQ(test, nidmap_msg_decode(buf, len, &req), 0);
	n = nidmap_pub_answer(t, &req, from, false, out,
			      NIDMAP_STATUS_ROOM);
	KUNIT_ASSERT_GT(test, n, 0);
	KUNIT_ASSERT_EQ(test, nidmap_msg_decode(out, n, rep), 0);
	KUNIT_ASSERT_EQ(test, rep->hdr.type, NIDMAP_STATUS);
	KUNIT_ASSERT_EQ(test, rep->hdr.reply_to, req.hdr.seq);
}

static int make_register(struct kunit *test, u8 *buf, u64 seq,
			 const struct nidmap_rec *recs, int n)
{
	struct nidmap_hdr h = { .type = NIDMAP_REGISTER, .incarnation = 3,
				.seq = seq, .count = 0 };
	struct nidmap_enc enc;
	int i;

	KUNIT_ASSERT_EQ(test, nidmap_enc_init(&enc, buf, 4096, &h), 0);
	for (i = 0; i < n; i++)
		KUNIT_ASSERT_EQ(test, nidmap_enc_rec(&enc, &recs[i]), 0);
	return nidmap_enc_finish(&enc, 0);
}

/* REGISTER: applied in order, all or none, owner checked, status, index. */
static void nidmap_pub_register(struct kunit *test)
{
	struct nidmap_limits lim = { .max_entries = 8, .max_tombstones = 8 };
	struct nidmap_table *t = nidmap_table_create(&lim, 5);
	struct nidmap_rec *recs = kunit_kzalloc(test, 3 * sizeof(*recs),
						GFP_KERNEL);
	struct lnet_nid a, b;
	struct nidmap_msg rep;
	struct rng r = { .s = 7 };
	u8 *buf = kunit_kmalloc(test, 4096, GFP_KERNEL);
	int len;

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, recs);
	rand_rec(&r, 1, &recs[0]);
	rand_rec(&r, 2, &recs[1]);
	a = recs[0].nids[0];
	mk_nid(5000, &b);	/* owns neither */
	len = make_register(test, buf, 11, recs, 2);
	answer(test, t, buf, len, &a, &rep);
	KUNIT_EXPECT_EQ(test, rep.hdr.status, NIDMAP_ST_OK);
	KUNIT_EXPECT_EQ(test, rep.hdr.version, 2ULL);
	KUNIT_EXPECT_EQ(test, rep.hdr.epoch, 5ULL);
	KUNIT_ASSERT_EQ(test, nidmap_table_lookup(t, recs[1].name, &recs[2]), 0);
	KUNIT_EXPECT_EQ(test, memcmp(recs[2].nids, recs[1].nids,
				     recs[2].nnids * sizeof(recs[2].nids[0])), 0);

	/* A stranger: refused at record 0, nothing changes. */
	rand_rec(&r, 1, &recs[0]);
	len = make_register(test, buf, 12, recs, 1);
	answer(test, t, buf, len, &b, &rep);
	KUNIT_EXPECT_EQ(test, rep.hdr.status, NIDMAP_ST_PERM);
	KUNIT_EXPECT_EQ(test, rep.hdr.base, 0ULL);
	KUNIT_EXPECT_EQ(test, rep.hdr.version, 2ULL);

	/*
	 * A change, then the removal of a target it does not have: NOENT
	 * at record 1, and record 0 undone (all or none).
	 */
	recs[0] = recs[2];
	recs[0].version = 0;
	swap(recs[0].nids[0], recs[0].nids[recs[0].nnids - 1]);
	recs[0].nids[0].nid_addr[0] ^= cpu_to_be32(0x100);
	memset(&recs[1], 0, sizeof(recs[1]));
	strscpy(recs[1].name, "fs-MDT0000", sizeof(recs[1].name));
	recs[1].flags = NIDMAP_R_DELETED;
	len = make_register(test, buf, 13, recs, 2);
	answer(test, t, buf, len, &a, &rep);
	KUNIT_EXPECT_EQ(test, rep.hdr.status, NIDMAP_ST_NOENT);
	KUNIT_EXPECT_EQ(test, rep.hdr.base, 1ULL);
	KUNIT_EXPECT_EQ(test, rep.hdr.version, 2ULL);
	KUNIT_EXPECT_EQ(test, nidmap_table_version(t), 2ULL);
	KUNIT_ASSERT_EQ(test, nidmap_table_lookup(t, recs[0].name, &recs[1]),
			0);
	KUNIT_EXPECT_EQ(test, recs[1].version, 2ULL);
	KUNIT_EXPECT_EQ(test, memcmp(recs[1].nids, recs[2].nids,
				     recs[2].nnids * sizeof(recs[2].nids[0])),
			0);

	/* SUBSCRIBE: OK with the table's epoch and version. */
	{
		struct nidmap_hdr h = { .type = NIDMAP_SUBSCRIBE,
					.incarnation = 3, .seq = 14 };
		struct nidmap_enc enc;

		KUNIT_ASSERT_EQ(test, nidmap_enc_init(&enc, buf, 4096, &h), 0);
		len = nidmap_enc_finish(&enc, 0);
		answer(test, t, buf, len, &a, &rep);
		KUNIT_EXPECT_EQ(test, rep.hdr.status, NIDMAP_ST_OK);
		KUNIT_EXPECT_EQ(test, rep.hdr.version, 2ULL);
	}
	nidmap_table_destroy(t);
}

/* Record @i of the largest size: 63-byte name, 16 NIDs, a router's 16 nets. */
static void big_rec(int i, struct nidmap_rec *rec)
{
	int k;

	memset(rec, 0, sizeof(*rec));
	memset(rec->name, 'r', NIDMAP_NAME_MAX - 1);
	snprintf(rec->name + NIDMAP_NAME_MAX - 5, 5, "%04x", i);
	rec->flags = NIDMAP_R_ROUTER;
	rec->nnids = NIDMAP_NIDS_MAX;
	rec->nnets = NIDMAP_NETS_MAX;
	for (k = 0; k < NIDMAP_NIDS_MAX; k++) {
		rec->nids[k].nid_size = 12;
		rec->nids[k].nid_type = LNET_LND_SOCK;
		rec->nids[k].nid_num = cpu_to_be16(k);
		rec->nids[k].nid_addr[0] = cpu_to_be32(0x20010db8);
		rec->nids[k].nid_addr[3] = cpu_to_be32(i << 8 | k);
		rec->nets[k] = LNET_LND_SOCK << 16 | (k + 1);
	}
}

/*
 * A batch REGISTER (nidmap_register_encode(), the registrant's): 256
 * records of the largest size fit a publisher's request buffer, decode
 * back in both byte orders record for record, and the publisher applies
 * them in one version step each; 0 or 257 records are refused by the
 * encoder, and a count of 257 or 0, or more records than the body
 * holds, by the decoder.  A batch refused at its last record changes nothing.
 */
static void nidmap_register_batch(struct kunit *test)
{
	struct nidmap_limits lim = { .max_entries = 512,
				     .max_tombstones = 8 };
	struct nidmap_table *t = nidmap_table_create(&lim, 5);
	size_t size = NIDMAP_HDR_SIZE + (NIDMAP_REGISTER_MAX + 1) *
		      NIDMAP_REC_MAX;
	int n = NIDMAP_REGISTER_MAX, len, i, pass;
	struct nidmap_rec *recs, *got;
	struct nidmap_msg msg, rep;
	struct nidmap_iter it;
	struct lnet_nid a;
	u8 *buf, *p;

	recs = kunit_kcalloc(test, n + 1, sizeof(*recs), GFP_KERNEL);
	got = kunit_kzalloc(test, sizeof(*got), GFP_KERNEL);
	buf = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, recs);
	KUNIT_ASSERT_NOT_NULL(test, got);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i <= n; i++)
		big_rec(i, &recs[i]);
	KUNIT_EXPECT_EQ(test, nidmap_register_encode(recs, 0, 1, buf, size),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, nidmap_register_encode(recs, n + 1, 1, buf,
						     size), -EINVAL);
	len = nidmap_register_encode(recs, n, 21, buf, NIDMAP_HDR_SIZE +
				     n * NIDMAP_REC_MAX - 8);
	KUNIT_EXPECT_EQ(test, len, -ENOSPC);
	len = nidmap_register_encode(recs, n, 21, buf, size);
	KUNIT_ASSERT_EQ(test, len, NIDMAP_HDR_SIZE + n * NIDMAP_REC_MAX);
	KUNIT_EXPECT_LE(test, len, NIDMAP_PUB_RX_SIZE);
	for (pass = 0; pass < 2; pass++) {
		p = kunit_kmalloc(test, len, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, p);
		memcpy(p, buf, len);
		if (pass)
			KUNIT_ASSERT_EQ(test, nidmap_msg_swab(p, len), 0);
		KUNIT_ASSERT_EQ(test, nidmap_msg_decode(p, len, &msg), 0);
		KUNIT_EXPECT_EQ(test, msg.hdr.type, NIDMAP_REGISTER);
		KUNIT_EXPECT_EQ(test, msg.hdr.count, (u32)n);
		nidmap_iter_init(&it, &msg);
		for (i = 0; i < n; i++) {
			KUNIT_ASSERT_TRUE(test, nidmap_iter_rec(&it, got));
			KUNIT_EXPECT_EQ(test, memcmp(got, &recs[i],
						     sizeof(*got)), 0);
		}
		KUNIT_EXPECT_FALSE(test, nidmap_iter_rec(&it, got));
		kunit_kfree(test, p);
	}

	/* Hostile counts: 257, and one more than the body holds. */
	p = kunit_kmalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	memcpy(p, buf, len);
	put_unaligned_le32(n + 1, p + 64);
	KUNIT_EXPECT_EQ(test, nidmap_msg_decode(p, len, &msg), -E2BIG);
	put_unaligned_le32(2, p + 64);
	put_unaligned_le32(NIDMAP_HDR_SIZE + NIDMAP_REC_MAX, p + 12);
	KUNIT_EXPECT_EQ(test, nidmap_msg_decode(p, NIDMAP_HDR_SIZE +
						NIDMAP_REC_MAX, &msg),
			-EPROTO);
	/* And none at all. */
	put_unaligned_le32(0, p + 64);
	put_unaligned_le32(NIDMAP_HDR_SIZE, p + 12);
	KUNIT_EXPECT_EQ(test, nidmap_msg_decode(p, NIDMAP_HDR_SIZE, &msg),
			-EPROTO);

	/* The publisher takes the 256 in order, one version each. */
	a = recs[0].nids[0];
	answer(test, t, buf, len, &a, &rep);
	KUNIT_EXPECT_EQ(test, rep.hdr.status, NIDMAP_ST_OK);
	KUNIT_EXPECT_EQ(test, rep.hdr.version, (u64)n);
	KUNIT_EXPECT_EQ(test, nidmap_table_count(t, NULL), (u32)n);
	KUNIT_ASSERT_EQ(test, nidmap_table_lookup(t, recs[n - 1].name, got),
			0);
	KUNIT_EXPECT_EQ(test, got->version, (u64)n);
	KUNIT_EXPECT_EQ(test, memcmp(got->nids, recs[n - 1].nids,
				     sizeof(got->nids)), 0);

	/* 255 changes and a removal of an unknown target: all undone. */
	for (i = 0; i < n - 1; i++)
		swap(recs[i].nids[0], recs[i].nids[1]);
	memset(&recs[n - 1], 0, sizeof(recs[n - 1]));
	strscpy(recs[n - 1].name, "fs-MDT0000", sizeof(recs[n - 1].name));
	recs[n - 1].flags = NIDMAP_R_DELETED;
	len = nidmap_register_encode(recs, n, 22, buf, size);
	KUNIT_ASSERT_GT(test, len, 0);
	answer(test, t, buf, len, &a, &rep);
	KUNIT_EXPECT_EQ(test, rep.hdr.status, NIDMAP_ST_NOENT);
	KUNIT_EXPECT_EQ(test, rep.hdr.base, (u64)(n - 1));
	KUNIT_EXPECT_EQ(test, nidmap_table_version(t), (u64)n);
	KUNIT_ASSERT_EQ(test, nidmap_table_lookup(t, recs[0].name, got), 0);
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&got->nids[0], &recs[0].nids[1]));
	nidmap_table_destroy(t);
}

/* @skb's attributes parsed as the family parses REGISTER (liberal). */
static int parse_register(struct kunit *test, struct sk_buff *skb,
			  struct nlattr **tb, struct netlink_ext_ack *ext,
			  struct nidmap_rec *recs, const struct nlattr **names)
{
	struct genl_info info = { .attrs = tb, .extack = ext };

	memset(ext, 0, sizeof(*ext));
	KUNIT_ASSERT_EQ(test, nla_parse_deprecated(tb, NIDMAP_A_MAX,
						   (struct nlattr *)skb->data,
						   skb->len, nidmap_genl_policy,
						   ext), 0);
	return nidmap_genl_recs(&info, recs, names);
}

/* A target nest: @name, and @nnids NIDs 10.0.0.k@tcp, or DELETE. */
static void put_target(struct sk_buff *skb, int type, const char *name,
		       int nnids)
{
	struct nlattr *el = nla_nest_start(skb, type), *nids;
	char s[32];
	int k;

	nla_put_string(skb, NIDMAP_A_NAME, name);
	if (nnids < 0) {
		nla_put_flag(skb, NIDMAP_A_DELETE);
	} else if (nnids) {
		nids = nla_nest_start(skb, NIDMAP_A_NIDS);
		for (k = 0; k < nnids; k++) {
			snprintf(s, sizeof(s), "10.0.%d.%d@tcp", k / 250,
				 k % 250 + 1);
			nla_put_string(skb, NIDMAP_A_NID, s);
		}
		nla_nest_end(skb, nids);
	}
	nla_nest_end(skb, el);
}

/*
 * REGISTER's netlink form: one target (NAME, NIDS), or TARGETS of 1 to
 * 256 (each NAME and NIDS or DELETE), in order; refused with an extack
 * message: 257 targets, none, TARGETS beside NAME, a target without
 * NIDS, one of 17 NIDs, an attribute a target does not take.
 */
static void nidmap_register_netlink(struct kunit *test)
{
	struct nidmap_rec *recs = kunit_kcalloc(test, NIDMAP_REGISTER_MAX,
						sizeof(*recs), GFP_KERNEL);
	const struct nlattr **names = kunit_kcalloc(test, NIDMAP_REGISTER_MAX,
						    sizeof(*names),
						    GFP_KERNEL);
	struct nlattr **tb = kunit_kcalloc(test, NIDMAP_A_MAX + 1,
					   sizeof(*tb), GFP_KERNEL);
	struct netlink_ext_ack ext;
	struct nlattr *targets, *el;
	struct sk_buff *skb;
	char name[16];
	int i, rc;

	KUNIT_ASSERT_NOT_NULL(test, recs);
	KUNIT_ASSERT_NOT_NULL(test, names);
	KUNIT_ASSERT_NOT_NULL(test, tb);
	skb = alloc_skb(256 * 1024, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);

	/* One target. */
	nla_put_string(skb, NIDMAP_A_NAME, "fs-MDT0000");
	targets = nla_nest_start(skb, NIDMAP_A_NIDS);
	nla_put_string(skb, NIDMAP_A_NID, "10.0.0.1@tcp");
	nla_nest_end(skb, targets);
	KUNIT_EXPECT_EQ(test, parse_register(test, skb, tb, &ext, recs, names),
			1);
	KUNIT_EXPECT_STREQ(test, recs[0].name, "fs-MDT0000");
	KUNIT_EXPECT_EQ(test, recs[0].nnids, 1);

	/* 256: additions and removals in turn, in order. */
	skb_trim(skb, 0);
	targets = nla_nest_start(skb, NIDMAP_A_TARGETS);
	for (i = 0; i < NIDMAP_REGISTER_MAX; i++) {
		snprintf(name, sizeof(name), "fs-OST%04x", i);
		put_target(skb, i + 1, name, i & 1 ? -1 : 1 + i % 16);
	}
	nla_nest_end(skb, targets);
	KUNIT_ASSERT_EQ(test, parse_register(test, skb, tb, &ext, recs, names),
			NIDMAP_REGISTER_MAX);
	for (i = 0; i < NIDMAP_REGISTER_MAX; i++) {
		snprintf(name, sizeof(name), "fs-OST%04x", i);
		KUNIT_EXPECT_STREQ(test, recs[i].name, name);
		KUNIT_EXPECT_STREQ(test, (const char *)nla_data(names[i]),
				   name);
		KUNIT_EXPECT_EQ(test, recs[i].flags,
				i & 1 ? NIDMAP_R_DELETED : 0);
		KUNIT_EXPECT_EQ(test, recs[i].nnids, i & 1 ? 0 : 1 + i % 16);
	}

	/* 257. */
	skb_trim(skb, 0);
	targets = nla_nest_start(skb, NIDMAP_A_TARGETS);
	for (i = 0; i <= NIDMAP_REGISTER_MAX; i++)
		put_target(skb, 1, "fs-MDT0000", -1);
	nla_nest_end(skb, targets);
	KUNIT_EXPECT_EQ(test, parse_register(test, skb, tb, &ext, recs, names),
			-E2BIG);
	KUNIT_EXPECT_STREQ(test, ext._msg,
			   "at most 256 targets in one registration");

	/* None. */
	skb_trim(skb, 0);
	nla_nest_end(skb, nla_nest_start(skb, NIDMAP_A_TARGETS));
	KUNIT_EXPECT_EQ(test, parse_register(test, skb, tb, &ext, recs, names),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, ext._msg, "no target");

	/* TARGETS and NAME. */
	nla_put_string(skb, NIDMAP_A_NAME, "fs-MDT0000");
	KUNIT_EXPECT_EQ(test, parse_register(test, skb, tb, &ext, recs, names),
			-EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, ext._msg);

	/* A target without NIDs, then one of 17 NIDs. */
	for (i = 0; i < 2; i++) {
		skb_trim(skb, 0);
		targets = nla_nest_start(skb, NIDMAP_A_TARGETS);
		put_target(skb, 1, "fs-MDT0000", 1);
		put_target(skb, 2, "fs-MDT0001", i ? NIDMAP_NIDS_MAX + 1 : 0);
		nla_nest_end(skb, targets);
		rc = parse_register(test, skb, tb, &ext, recs, names);
		KUNIT_EXPECT_EQ(test, rc, i ? -E2BIG : -EINVAL);
		KUNIT_EXPECT_NOT_NULL(test, ext._msg);
	}

	/* An attribute a target does not take (strict within TARGETS). */
	skb_trim(skb, 0);
	targets = nla_nest_start(skb, NIDMAP_A_TARGETS);
	el = nla_nest_start(skb, 1);
	nla_put_string(skb, NIDMAP_A_NAME, "fs-MDT0000");
	nla_put_flag(skb, NIDMAP_A_DELETE);
	nla_put_string(skb, NIDMAP_A_PUBLISHER, "10.0.0.9@tcp");
	nla_nest_end(skb, el);
	nla_nest_end(skb, targets);
	KUNIT_EXPECT_LT(test, parse_register(test, skb, tb, &ext, recs,
					     names), 0);
	kfree_skb(skb);
}

/* Sending by name over fakes: how the fake tries end. */
enum fake_mode {
	FAKE_AT_ONCE,		/* start() gives the outcome */
	FAKE_INLINE,		/* tried() before start() returns PENDING */
	FAKE_LATER,		/* tried() from a delayed work */
	FAKE_MODES
};

struct fake {
	struct nidmap_rec	recs[2];	/* resolution k gets recs[k] */
	int			nrecs;		/* then -ENOENT */
	int			resolves;
	int			refreshes;
	u16			dead_net;	/* nid_num with no NI, no route */
	struct lnet_nid		failing[4];	/* sends to these fail */
	int			nfailing;
	struct lnet_nid		tried[16];
	int			ntried;
	enum fake_mode		mode;
	struct delayed_work	later;		/* FAKE_LATER's tried() */
	struct nidmap_by_name	*op;
	int			op_rc;
	/* done() */
	struct completion	done;
	int			calls;
	int			status;
	struct nidmap_by_name_res res;
	struct task_struct	*done_task;
};

static void tnid(u16 net, u32 host, struct lnet_nid *nid)
{
	memset(nid, 0, sizeof(*nid));
	nid->nid_type = LNET_LND_SOCK;
	nid->nid_num = cpu_to_be16(net);
	nid->nid_addr[0] = cpu_to_be32(0xc0000200 + host);
}

static int fake_resolve(void *arg, const char *name, struct nidmap_rec *rec)
{
	struct fake *f = arg;

	if (f->resolves >= f->nrecs || strcmp(name, f->recs[0].name))
		return -ENOENT;
	*rec = f->recs[f->resolves++];
	return 0;
}

static void fake_refresh(void *arg)
{
	((struct fake *)arg)->refreshes++;
}

static int fake_try(struct fake *f, const struct lnet_nid *nid)
{
	int i;

	if (f->ntried < ARRAY_SIZE(f->tried))
		f->tried[f->ntried++] = *nid;
	if (be16_to_cpu(nid->nid_num) == f->dead_net)
		return NIDMAP_PUT_SKIPPED;
	/* A failed connection's -EHOSTUNREACH is a failure, not a skip. */
	for (i = 0; i < f->nfailing; i++)
		if (lnet_nid_equal(nid, &f->failing[i]))
			return i ? -EHOSTUNREACH : -ETIMEDOUT;
	return 0;
}

static int fake_start(void *arg, struct nidmap_by_name *op,
		      const struct lnet_nid *nid)
{
	struct fake *f = arg;
	int rc = fake_try(f, nid);

	switch (f->mode) {
	case FAKE_AT_ONCE:
		return rc;
	case FAKE_INLINE:
		nidmap_by_name_tried(op, rc);
		return NIDMAP_TRY_PENDING;
	default:
		f->op = op;
		f->op_rc = rc;
		schedule_delayed_work(&f->later, 1);
		return NIDMAP_TRY_PENDING;
	}
}

static void fake_later(struct work_struct *work)
{
	struct fake *f = container_of(to_delayed_work(work), struct fake,
				      later);

	nidmap_by_name_tried(f->op, f->op_rc);
}

static const struct nidmap_by_name_ops fake_ops = {
	.resolve	= fake_resolve,
	.refresh	= fake_refresh,
	.start		= fake_start,
};

static void fake_done(void *arg, int status,
		      const struct nidmap_by_name_res *res)
{
	struct fake *f = arg;

	f->calls++;
	f->status = status;
	f->res = *res;
	f->done_task = current;
	complete(&f->done);
}

/* @f emptied, its mode kept. */
static void fake_reset(struct fake *f)
{
	enum fake_mode mode = f->mode;

	cancel_delayed_work_sync(&f->later);
	memset(f, 0, sizeof(*f));
	f->mode = mode;
	INIT_DELAYED_WORK(&f->later, fake_later);
}

/*
 * A send by name over the fakes, waited for: done() runs exactly once,
 * in a work item (not the caller's thread).
 */
static int fake_run(struct kunit *test, struct fake *f, const char *name,
		    struct nidmap_by_name_res *res)
{
	init_completion(&f->done);
	f->calls = 0;
	KUNIT_ASSERT_EQ(test, nidmap_by_name_start(&fake_ops, f, name,
						   fake_done, f), 0);
	wait_for_completion(&f->done);
	/* A second done() would come from the same work: give it time. */
	cancel_delayed_work_sync(&f->later);
	usleep_range(1000, 2000);
	KUNIT_EXPECT_EQ(test, f->calls, 1);
	KUNIT_EXPECT_PTR_NE(test, f->done_task, current);
	*res = f->res;
	return f->status;
}

/* @f's resolution @k: "fs-MDT0000" at @version, NIDs (net, host) pairs. */
static void fake_rec(struct fake *f, int k, u64 version, int n,
		     const u16 (*nids)[2])
{
	struct nidmap_rec *rec = &f->recs[k];
	int i;

	memset(rec, 0, sizeof(*rec));
	strscpy(rec->name, "fs-MDT0000", sizeof(rec->name));
	rec->version = version;
	rec->nnids = n;
	for (i = 0; i < n; i++)
		tnid(nids[i][0], nids[i][1], &rec->nids[i]);
	f->nrecs = k + 1;
}

static void expect_tried(struct kunit *test, const struct fake *f, int n,
			 const struct lnet_nid *want)
{
	int i;

	KUNIT_ASSERT_EQ(test, f->ntried, n);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&f->tried[i], &want[i]));
}

/*
 * The NIDs are tried in failover order: one on a net with no NI and no
 * route is skipped (counted, not a failure), one whose send fails is
 * passed, the first that takes the PUT ends it.  When all fail the name
 * is resolved again after a refresh: a new version's NIDs are tried, the
 * same version ends it with the last error; a target removed meanwhile
 * gives -ENOENT; no reachable NID at all gives -EHOSTUNREACH.  Each
 * with tries that end in each of @f's modes.
 */
static void by_name_cases(struct kunit *test, struct fake *f)
{
	static const u16 v3[][2] = { { 9, 1 }, { 0, 2 }, { 0, 3 }, { 0, 4 } };
	static const u16 v4[][2] = { { 0, 5 } };
	struct nidmap_by_name_res res;
	struct lnet_nid want[4];

	fake_reset(f);
	/* tcp9: no route; the 2nd fails; the 3rd takes it, the 4th unused. */
	fake_rec(f, 0, 3, 4, v3);
	f->dead_net = 9;
	f->failing[f->nfailing++] = f->recs[0].nids[1];
	KUNIT_EXPECT_EQ(test, fake_run(test, f, "fs-MDT0000", &res), 0);
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&res.nid, &f->recs[0].nids[2]));
	KUNIT_EXPECT_EQ(test, res.version, 3ULL);
	KUNIT_EXPECT_EQ(test, res.resolves, 1U);
	KUNIT_EXPECT_EQ(test, res.skipped, 1U);
	KUNIT_EXPECT_EQ(test, res.failed, 1U);
	KUNIT_EXPECT_EQ(test, f->refreshes, 0);
	expect_tried(test, f, 3, f->recs[0].nids);

	/* All fail; the entry did not change: the last error, tried once. */
	fake_reset(f);
	fake_rec(f, 0, 3, 3, v3);
	fake_rec(f, 1, 3, 3, v3);
	f->dead_net = 9;
	f->failing[f->nfailing++] = f->recs[0].nids[1];
	f->failing[f->nfailing++] = f->recs[0].nids[2];
	KUNIT_EXPECT_EQ(test, fake_run(test, f, "fs-MDT0000", &res), -EHOSTUNREACH);
	KUNIT_EXPECT_EQ(test, res.resolves, 1U);
	KUNIT_EXPECT_EQ(test, res.skipped, 1U);
	KUNIT_EXPECT_EQ(test, res.failed, 2U);
	KUNIT_EXPECT_EQ(test, f->refreshes, 1);
	expect_tried(test, f, 3, f->recs[0].nids);

	/* All fail; the target moved (version 4): its new NID takes it. */
	fake_reset(f);
	fake_rec(f, 0, 3, 2, v3);
	fake_rec(f, 1, 4, 1, v4);
	f->dead_net = 9;
	f->failing[f->nfailing++] = f->recs[0].nids[1];
	KUNIT_EXPECT_EQ(test, fake_run(test, f, "fs-MDT0000", &res), 0);
	KUNIT_EXPECT_EQ(test, res.version, 4ULL);
	KUNIT_EXPECT_EQ(test, res.resolves, 2U);
	KUNIT_EXPECT_EQ(test, res.skipped, 1U);
	KUNIT_EXPECT_EQ(test, res.failed, 1U);
	want[0] = f->recs[0].nids[0];
	want[1] = f->recs[0].nids[1];
	want[2] = f->recs[1].nids[0];
	expect_tried(test, f, 3, want);

	/* Removed while its NIDs failed: -ENOENT. */
	fake_reset(f);
	fake_rec(f, 0, 3, 2, v3);
	f->dead_net = 9;
	f->failing[f->nfailing++] = f->recs[0].nids[1];
	KUNIT_EXPECT_EQ(test, fake_run(test, f, "fs-MDT0000", &res), -ENOENT);

	/* Only a net we cannot reach: -EHOSTUNREACH, nothing failed. */
	fake_reset(f);
	fake_rec(f, 0, 3, 1, v3);
	fake_rec(f, 1, 3, 1, v3);
	f->dead_net = 9;
	KUNIT_EXPECT_EQ(test, fake_run(test, f, "fs-MDT0000", &res), -EHOSTUNREACH);
	KUNIT_EXPECT_EQ(test, res.skipped, 1U);
	KUNIT_EXPECT_EQ(test, res.failed, 0U);

	/* No such name. */
	fake_reset(f);
	fake_rec(f, 0, 3, 1, v3);
	KUNIT_EXPECT_EQ(test, fake_run(test, f, "fs-OST0009", &res), -ENOENT);
	KUNIT_EXPECT_EQ(test, f->ntried, 0);
}

static void nidmap_by_name_failover(struct kunit *test)
{
	struct fake *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	INIT_DELAYED_WORK(&f->later, fake_later);
	for (f->mode = 0; f->mode < FAKE_MODES; f->mode++)
		by_name_cases(test, f);
	/* Not a target name: refused at once, done() never called. */
	fake_reset(f);
	KUNIT_EXPECT_EQ(test, nidmap_by_name_start(&fake_ops, f, "a b",
						   fake_done, f), -EINVAL);
	KUNIT_EXPECT_EQ(test, nidmap_by_name_start(&fake_ops, f, "",
						   fake_done, f), -EINVAL);
	usleep_range(1000, 2000);
	KUNIT_EXPECT_EQ(test, f->calls, 0);
	KUNIT_EXPECT_EQ(test, f->resolves, 0);
}

static struct kunit_case nidmap_copy_cases[] = {
	KUNIT_CASE(nidmap_copy_random),
	KUNIT_CASE(nidmap_copy_refuses),
	KUNIT_CASE(nidmap_pub_register),
	KUNIT_CASE(nidmap_register_batch),
	KUNIT_CASE(nidmap_register_netlink),
	KUNIT_CASE(nidmap_by_name_failover),
	{}
};

static struct kunit_suite nidmap_copy_suite = {
	.name = "nidmap_copy",
	.test_cases = nidmap_copy_cases,
};

kunit_test_suite(nidmap_copy_suite);
MODULE_DESCRIPTION("KUnit: nidmap's subscriber copy and publisher answers");
MODULE_LICENSE("GPL");
