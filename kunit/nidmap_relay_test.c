// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the relay plan (nidmap/relay.c) and a simulation of one change
 * reaching 1, 10 and 10,000 subscribers (Documentation/nidmap.rst,
 * "Relay").
 *
 * The plan: every subscriber reached exactly once, depth at most
 * ceil(log_k n), at most k children per node (the publisher too), the
 * same plan whatever the order of the list, and most subscribers keeping
 * their parent when one joins or leaves.
 *
 * The simulation: in-memory subscribers, each with its own copy
 * (nidmap/copy.c), exchanging the real encoded messages: NOTICEs
 * encoded and decoded (relay sets read back from the bytes, half of the
 * messages byte-swapped), FETCHes encoded from each copy's position and
 * answered by nidmap_pub_answer(), the FETCH_REPLY decoded and applied by
 * nidmap_copy_apply().  Time is simulated: each message takes LAT to
 * arrive, a sender has at most NIDMAP_FANOUT messages in flight (each
 * holds its slot until it arrives), the publisher answers one request
 * at a time, ANSWER each, in the order they arrive.  Three ways of
 * spreading one change: today's (the publisher notices every subscriber,
 * "flat"), the notice tree (relays forward the notice, every subscriber
 * fetches from the publisher) and the delta tree (relays forward the
 * publisher's page itself, part 2's authentication making that safe).
 * Each copy must end equal to the table; the bounds are asserted.
 */
#include <kunit/test.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <linux/vmstat.h>

#include "../nidmap/node.h"
#include "xorshift.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define SIM_N		10000
#define SIM_K		8
#define SIM_TARGETS	16
#define LAT		50000ULL	/* ns a message takes to arrive */
#define ANSWER		10000ULL	/* ns to answer or apply a page */
#define NID_BASE	0x0a000000U	/* subscriber i: 10.0.0.0 + i @tcp */
#define F_RELAYED	0x00010000U	/* hint: a relay forwarded it */

static const struct nidmap_limits sim_lim = {
	.max_entries = 64, .max_tombstones = 64,
};

static void sub_nid(u32 i, struct lnet_nid *nid)
{
	memset(nid, 0, sizeof(*nid));
	nid->nid_type = LNET_LND_SOCK;
	nid->nid_addr[0] = cpu_to_be32(NID_BASE + i);
}

static u32 nid_index(const struct lnet_nid *nid)
{
	return be32_to_cpu(nid->nid_addr[0]) - NID_BASE;
}

/* --- the plan --- */

static u32 ceil_log(u32 n, u32 k)
{
	u64 c = 1;
	u32 d = 0;

	while (c < n) {
		c *= k;
		d++;
	}
	return d;
}

/* Every subscriber once, depth, fan-out, order independence. */
static void check_plan(struct kunit *test, u32 n, u32 k, struct rng *r)
{
	struct lnet_nid *nids = vmalloc(array_size(n, sizeof(*nids)));
	u32 *parent = vmalloc(array_size(n, sizeof(u32)));
	u32 *parent2 = vmalloc(array_size(n, sizeof(u32)));
	u32 *kids = vzalloc(array_size(n + 1, sizeof(u32)));
	u32 *perm = vmalloc(array_size(n, sizeof(u32)));
	u8 *level = vmalloc(n);
	u32 i, j, d, p, max = k == 1 ? n : n > 1 ? ceil_log(n, k) : 1;

	KUNIT_ASSERT_TRUE(test, nids && parent && parent2 && kids && perm &&
			  level);
	for (i = 0; i < n; i++) {
		sub_nid(i * 7 + 3, &nids[i]);
		perm[i] = i;
	}
	KUNIT_ASSERT_EQ(test, nidmap_relay_plan(nids, n, k, parent, level), 0);
	KUNIT_ASSERT_EQ(test, nidmap_relay_depth(n, k), max);
	for (i = 0; i < n; i++) {
		/* Walk up: the publisher within the level's steps. */
		p = parent[i];
		for (d = 1; p != NIDMAP_RELAY_ROOT; d++) {
			KUNIT_ASSERT_LT(test, p, n);
			KUNIT_ASSERT_NE(test, p, i);
			KUNIT_ASSERT_LE(test, d, max);
			KUNIT_ASSERT_EQ(test, (u32)level[p] + d, (u32)level[i]);
			p = parent[p];
		}
		KUNIT_ASSERT_EQ_MSG(test, d, (u32)level[i], "n=%u k=%u i=%u",
				    n, k, i);
		KUNIT_ASSERT_LE(test, d, max);
		kids[parent[i] == NIDMAP_RELAY_ROOT ? n : parent[i]]++;
	}
	for (i = 0; i <= n; i++)
		KUNIT_ASSERT_LE_MSG(test, kids[i], k, "n=%u k=%u node %u", n,
				    k, i);

	/* The same plan from the list in another order. */
	for (i = n; i > 1; i--) {
		j = rnd(r, i);
		swap(perm[i - 1], perm[j]);
	}
	for (i = 0; i < n; i++)
		sub_nid(perm[i] * 7 + 3, &nids[i]);
	KUNIT_ASSERT_EQ(test, nidmap_relay_plan(nids, n, k, parent2, NULL), 0);
	for (i = 0; i < n; i++) {
		u32 a = parent[perm[i]], b = parent2[i];

		if (a == NIDMAP_RELAY_ROOT || b == NIDMAP_RELAY_ROOT)
			KUNIT_ASSERT_EQ(test, a, b);
		else
			KUNIT_ASSERT_EQ(test, a, perm[b]);
	}
	vfree(level);
	vfree(perm);
	vfree(kids);
	vfree(parent2);
	vfree(parent);
	vfree(nids);
}

static void relay_plan_shape(struct kunit *test)
{
	static const u32 ns[] = { 1, 2, 7, 8, 9, 63, 64, 65, 100, 511, 512,
				  513, 1000, 4096, 4097, 10000 };
	static const u32 ks[] = { 2, 3, 8, 16 };
	struct rng r = { .s = 0x2545f4914f6cdd1dULL };
	unsigned int a, b;

	for (a = 0; a < ARRAY_SIZE(ns); a++)
		for (b = 0; b < ARRAY_SIZE(ks); b++)
			check_plan(test, ns[a], ks[b], &r);

	/* Bounds refused. */
	KUNIT_EXPECT_EQ(test, nidmap_relay_plan(NULL, 4, 0, NULL, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, nidmap_relay_plan(NULL, 4, NIDMAP_RELAY_K_MAX + 1,
						NULL, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, nidmap_relay_plan(NULL, NIDMAP_RELAY_SUBS_MAX + 1,
						8, NULL, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, nidmap_relay_plan(NULL, 0, 8, NULL, NULL), 0);
}

/*
 * One join or leave: how many of those in both lists change parent.
 * Subscriber ids are NID addresses; parents compared by id.
 */
static u32 plan_churn(struct kunit *test, u32 *ids, u32 n, u32 *ids2, u32 n2,
		      u32 k)
{
	struct lnet_nid *nids = vmalloc(array_size(n + 1, sizeof(*nids)));
	u32 *p1 = vmalloc(array_size(n + 1, sizeof(u32)));
	u32 *p2 = vmalloc(array_size(n + 1, sizeof(u32)));
	u32 *pos = vmalloc(array_size(SIM_N * 4, sizeof(u32)));
	u32 i, moved = 0, a, b;

	KUNIT_ASSERT_TRUE(test, nids && p1 && p2 && pos);
	for (i = 0; i < n; i++)
		sub_nid(ids[i], &nids[i]);
	KUNIT_ASSERT_EQ(test, nidmap_relay_plan(nids, n, k, p1, NULL), 0);
	for (i = 0; i < n2; i++)
		sub_nid(ids2[i], &nids[i]);
	KUNIT_ASSERT_EQ(test, nidmap_relay_plan(nids, n2, k, p2, NULL), 0);
	memset(pos, 0xff, SIM_N * 4 * sizeof(u32));
	for (i = 0; i < n2; i++)
		pos[ids2[i]] = i;
	for (i = 0; i < n; i++) {
		u32 j = pos[ids[i]];

		if (j == U32_MAX)
			continue;
		a = p1[i] == NIDMAP_RELAY_ROOT ? U32_MAX : ids[p1[i]];
		b = p2[j] == NIDMAP_RELAY_ROOT ? U32_MAX : ids2[p2[j]];
		moved += a != b;
	}
	vfree(pos);
	vfree(p2);
	vfree(p1);
	vfree(nids);
	return moved;
}

static void relay_plan_stable(struct kunit *test)
{
	/* n, k, most moved by one join or leave (the run's own bound). */
	static const struct { u32 n, k, bound; } runs[] = {
		{ 100, 8, 15 }, { 1000, 8, 40 }, { 10000, 8, 40 },
		{ 10000, 16, 40 }, { 30000, 8, 300 },
		/* 98% of the leaves: paths full, the next leaves' taken */
		{ 4000, 8, 400 }, { 1000, 4, 100 },
	};
	struct rng r = { .s = 0x9e3779b97f4a7c15ULL };
	u32 *ids, *ids2, i, t, n, moved, sum, max;
	unsigned int a;

	ids = vmalloc(array_size(SIM_N * 4, sizeof(u32)));
	ids2 = vmalloc(array_size(SIM_N * 4, sizeof(u32)));
	KUNIT_ASSERT_TRUE(test, ids && ids2);
	for (a = 0; a < ARRAY_SIZE(runs); a++) {
		n = runs[a].n;
		sum = 0;
		max = 0;
		for (i = 0; i < n; i++)
			ids[i] = i;
		for (t = 0; t < 8; t++) {
			memcpy(ids2, ids, n * sizeof(u32));
			if (t % 2) {		/* a leave */
				ids2[rnd(&r, n)] = ids2[n - 1];
				moved = plan_churn(test, ids, n, ids2, n - 1,
						   runs[a].k);
			} else {		/* a join */
				ids2[n] = n + 1 + t;
				moved = plan_churn(test, ids, n, ids2, n + 1,
						   runs[a].k);
			}
			sum += moved;
			max = max(max, moved);
		}
		kunit_info(test, "plan n=%u k=%u depth %u: one join or leave moves %u.%u on average, at most %u (%u.%u%%)\n",
			   n, runs[a].k, nidmap_relay_depth(n, runs[a].k),
			   sum / 8, sum % 8 * 10 / 8, max, max * 100 / n,
			   max * 1000 / n % 10);
		KUNIT_EXPECT_LE_MSG(test, max, runs[a].bound, "n=%u k=%u", n,
				    runs[a].k);
		/* Most keep their parent, always. */
		KUNIT_EXPECT_LT(test, max, n / 2);
	}
	vfree(ids2);
	vfree(ids);
}

/* --- the simulation --- */

enum sim_mode { SIM_FLAT, SIM_NOTICE_TREE, SIM_DELTA_TREE };

static const char * const sim_mode_name[] = {
	"flat (today)", "notice tree", "delta tree",
};

struct sim_sub {
	struct nidmap_copy	*copy;
	u64			t_notice;	/* its notice arrived */
	u64			t_fetch;	/* its FETCH reaches the publisher */
	u64			t_done;		/* its copy is up to date */
	u32			relay[NIDMAP_RELAY_K_MAX];
	u8			nrelay;		/* from the publisher's NOTICE */
	u8			notices;	/* received for this change */
	u8			level;
};

struct sim {
	struct kunit		*test;
	struct nidmap_table	*table;
	struct sim_sub		*subs;
	u32			n;		/* subscribers in this run */
	u32			*parent;
	u32			*kid_off;	/* children of i: kids[kid_off[i]..] */
	u32			*kids;		/* ... n: the publisher's */
	u32			*order;		/* notice arrivals, BFS */
	u8			*buf;		/* a message */
	u8			*out;		/* an answer */
	struct rng		r;
	u64			seq;
	/* counted per change */
	u64			msgs;
	u64			bytes;
	u64			pub_msgs;	/* sent or answered by it */
	u64			fetches;
	u32			depth;
	u64			t_end;
	u64			t_notices;
	u64			cpu_fetch;	/* ns of this CPU per fetch */
};

static const struct lnet_nid sim_pub_nid = {
	.nid_type = LNET_LND_SOCK, .nid_addr = { cpu_to_be32(0x0afffffe) },
};

/*
 * Bytes on the wire, decoded at the receiver; half of them (@swab) as a
 * sender of the other byte order sends them.
 */
static void sim_xfer(struct sim *s, u8 *buf, int len, struct nidmap_msg *msg,
		     bool swab)
{
	struct kunit *test = s->test;

	KUNIT_ASSERT_GT(test, len, 0);
	s->msgs++;
	s->bytes += len;
	if (swab && rnd(&s->r, 2))
		KUNIT_ASSERT_EQ(test, nidmap_msg_swab(buf, len), 0);
	KUNIT_ASSERT_EQ(test, nidmap_msg_decode(buf, len, msg), 0);
}

/* A NOTICE from the publisher (with @to's relay set) or a relay. */
static void sim_notice(struct sim *s, u32 from, u32 to, const u32 *set,
		       u32 nset)
{
	struct kunit *test = s->test;
	struct nidmap_hdr h = { .type = NIDMAP_NOTICE, .seq = ++s->seq,
				.incarnation = from == NIDMAP_RELAY_ROOT ?
					1 : 1000 + from };
	struct sim_sub *sub = &s->subs[to];
	struct nidmap_enc enc;
	struct nidmap_msg msg;
	struct nidmap_iter it;
	struct lnet_nid nid;
	u32 i;

	h.epoch = nidmap_table_epoch(s->table);
	h.version = nidmap_table_version(s->table);
	h.base = nidmap_table_horizon(s->table);
	if (from != NIDMAP_RELAY_ROOT)
		h.flags = F_RELAYED;
	KUNIT_ASSERT_EQ(test, nidmap_enc_init(&enc, s->buf, 4096, &h), 0);
	for (i = 0; i < nset; i++) {
		sub_nid(set[i], &nid);
		KUNIT_ASSERT_EQ(test, nidmap_enc_nid(&enc, &nid), 0);
	}
	sim_xfer(s, s->buf, nidmap_enc_finish(&enc, 0), &msg, true);
	KUNIT_ASSERT_EQ(test, msg.hdr.type, NIDMAP_NOTICE);
	sub->notices++;
	if (from == NIDMAP_RELAY_ROOT) {
		s->pub_msgs++;
		/* The publisher's notice sets the relay set. */
		sub->nrelay = 0;
		nidmap_iter_init(&it, &msg);
		while (nidmap_iter_nid(&it, &nid)) {
			KUNIT_ASSERT_LT(test, sub->nrelay, SIM_K);
			KUNIT_ASSERT_LT(test, nid_index(&nid), s->n);
			sub->relay[sub->nrelay++] = nid_index(&nid);
		}
	} else {
		KUNIT_ASSERT_TRUE(test, msg.hdr.flags & F_RELAYED);
		KUNIT_ASSERT_EQ(test, msg.hdr.count, 0U);
	}
}

/* FETCH from @i's copy, answered, decoded; Return: the answer's length. */
static int sim_fetch(struct sim *s, u32 i, struct nidmap_msg *rep)
{
	struct kunit *test = s->test;
	struct nidmap_hdr h = { .type = NIDMAP_FETCH, .incarnation = 1000 + i,
				.seq = ++s->seq };
	struct nidmap_enc enc;
	struct nidmap_msg req;
	bool resync;
	u64 base;
	int len;

	nidmap_copy_position(s->subs[i].copy, &h.epoch, &h.version, &base,
			     &resync);
	KUNIT_ASSERT_FALSE(test, resync);
	KUNIT_ASSERT_EQ(test, nidmap_enc_init(&enc, s->buf, 128, &h), 0);
	KUNIT_ASSERT_EQ(test, nidmap_enc_fetch(&enc, NIDMAP_FETCH_ROOM), 0);
	sim_xfer(s, s->buf, nidmap_enc_finish(&enc, 0), &req, true);
	len = nidmap_pub_answer(s->table, &req, &sim_pub_nid, s->out,
				NIDMAP_FETCH_ROOM);
	s->pub_msgs += 2;
	s->fetches++;
	sim_xfer(s, s->out, len, rep, true);
	KUNIT_ASSERT_EQ(test, rep->hdr.type, NIDMAP_FETCH_REPLY);
	KUNIT_ASSERT_EQ(test, rep->hdr.reply_to, h.seq);
	KUNIT_ASSERT_FALSE(test, rep->hdr.flags & NIDMAP_F_MORE);
	return len;
}

/* The plan's children of each node, as the publisher lists them. */
static void sim_index_kids(struct sim *s)
{
	u32 i, p;

	memset(s->kid_off, 0, (s->n + 2) * sizeof(u32));
	for (i = 0; i < s->n; i++) {
		p = s->parent[i] == NIDMAP_RELAY_ROOT ? s->n : s->parent[i];
		s->kid_off[p + 1]++;
	}
	for (i = 1; i <= s->n + 1; i++)
		s->kid_off[i] += s->kid_off[i - 1];
	/* kid_off[p] counts up while filling, then moves back. */
	for (i = 0; i < s->n; i++) {
		p = s->parent[i] == NIDMAP_RELAY_ROOT ? s->n : s->parent[i];
		s->kids[s->kid_off[p]++] = i;
	}
	for (i = s->n + 1; i > 0; i--)
		s->kid_off[i] = s->kid_off[i - 1];
	s->kid_off[0] = 0;
}

static u32 sim_kids(struct sim *s, u32 who, const u32 **kids)
{
	u32 p = who == NIDMAP_RELAY_ROOT ? s->n : who;

	*kids = &s->kids[s->kid_off[p]];
	return s->kid_off[p + 1] - s->kid_off[p];
}

static int sim_cmp_fetch(const void *a, const void *b, const void *priv)
{
	const struct sim_sub *subs = priv;
	u64 x = subs[*(const u32 *)a].t_fetch, y = subs[*(const u32 *)b].t_fetch;

	return x < y ? -1 : x > y;
}

/* Arrival of the j-th of a sender's messages sent from @t. */
static u64 sim_arrive(u64 t, u32 j)
{
	return t + (j / NIDMAP_FANOUT + 1) * LAT;
}

/*
 * One change reaching s->n subscribers in @mode; the plan is s->parent
 * (all NIDMAP_RELAY_ROOT: flat).  Relay sets are handed out first (the
 * plan's distribution, counted apart), then the change is made at t = 0.
 */
static void sim_change(struct sim *s, enum sim_mode mode, u32 *plan_msgs)
{
	struct kunit *test = s->test;
	struct nidmap_rec rec;
	struct nidmap_msg rep;
	const u32 *kids;
	u32 nk, i, j, head = 0, tail = 0, w, page_len = 0;
	u64 busy = 0, v;
	u8 *page;

	page = kunit_kmalloc(test, NIDMAP_FETCH_ROOM, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, page);
	sim_index_kids(s);

	/* The plan's distribution: a NOTICE to each relay with its set. */
	s->msgs = 0;
	s->bytes = 0;
	s->pub_msgs = 0;
	for (i = 0; i < s->n; i++) {
		nk = mode == SIM_FLAT ? 0 : sim_kids(s, i, &kids);
		s->subs[i].nrelay = 0;
		if (nk)
			sim_notice(s, NIDMAP_RELAY_ROOT, i, kids, nk);
		KUNIT_ASSERT_EQ(test, s->subs[i].nrelay, nk);
		s->subs[i].notices = 0;
	}
	*plan_msgs = s->msgs;

	/* The change. */
	memset(&rec, 0, sizeof(rec));
	snprintf(rec.name, sizeof(rec.name), "fs-OST%04x",
		 rnd(&s->r, SIM_TARGETS));
	rec.nnids = 2;
	sub_nid(50000 + rnd(&s->r, 1000), &rec.nids[0]);
	sub_nid(60000 + rnd(&s->r, 1000), &rec.nids[1]);
	KUNIT_ASSERT_EQ(test, nidmap_table_set(s->table, &rec, NULL, &v), 0);

	s->msgs = 0;
	s->bytes = 0;
	s->pub_msgs = 0;
	s->fetches = 0;
	s->depth = 0;
	s->t_end = 0;
	s->t_notices = 0;
	for (i = 0; i < s->n; i++) {
		s->subs[i].t_notice = U64_MAX;
		s->subs[i].t_fetch = U64_MAX;
		s->subs[i].t_done = U64_MAX;
	}

	/* The publisher's notices, each with the child's relay set. */
	nk = sim_kids(s, NIDMAP_RELAY_ROOT, &kids);
	for (j = 0; j < nk; j++) {
		struct sim_sub *c = &s->subs[kids[j]];
		u32 set[NIDMAP_RELAY_K_MAX];

		memcpy(set, c->relay, c->nrelay * sizeof(u32));
		sim_notice(s, NIDMAP_RELAY_ROOT, kids[j], set, c->nrelay);
		c->t_notice = sim_arrive(0, j);
		c->level = 1;
		s->order[tail++] = kids[j];
	}

	/*
	 * Down the tree, in the order reached.  Notice tree: a relay
	 * forwards the notice at once and fetches.  Delta tree: the
	 * publisher's children fetch, a relay forwards the page it applied.
	 */
	while (head < tail) {
		struct sim_sub *sub;

		i = s->order[head++];
		sub = &s->subs[i];
		s->depth = max_t(u32, s->depth, sub->level);
		if (mode != SIM_DELTA_TREE) {
			s->t_notices = max(s->t_notices, sub->t_notice);
			sub->t_fetch = sub->t_notice + LAT;
		} else if (sub->level == 1) {
			s->t_notices = max(s->t_notices, sub->t_notice);
			sub->t_fetch = sub->t_notice + LAT;
			busy = max(busy, sub->t_fetch) + ANSWER;
			page_len = sim_fetch(s, i, &rep);
			KUNIT_ASSERT_EQ(test, nidmap_copy_apply(sub->copy, &rep),
					0);
			/* The bytes as the publisher sent them, to forward. */
			memcpy(page, s->out, page_len);
			sub->t_done = busy + LAT + ANSWER;
		} else {
			/* The parent's page, forwarded byte for byte. */
			memcpy(s->buf, page, page_len);
			sim_xfer(s, s->buf, page_len, &rep, false);
			KUNIT_ASSERT_EQ(test, nidmap_copy_apply(sub->copy, &rep),
					0);
			sub->t_done = sub->t_notice + ANSWER;
			sub->notices++;
		}
		for (w = 0; w < sub->nrelay; w++) {
			struct sim_sub *c = &s->subs[sub->relay[w]];

			if (mode == SIM_DELTA_TREE) {
				c->t_notice = sim_arrive(sub->t_done, w);
			} else {
				sim_notice(s, i, sub->relay[w], NULL, 0);
				c->t_notice = sim_arrive(sub->t_notice, w);
			}
			c->level = sub->level + 1;
			s->order[tail++] = sub->relay[w];
		}
	}
	KUNIT_ASSERT_EQ(test, tail, s->n);

	/* The fetches, answered one at a time in the order they arrive. */
	if (mode != SIM_DELTA_TREE) {
		u64 t0 = ktime_get_ns();

		for (i = 0; i < s->n; i++)
			s->order[i] = i;
		sort_r(s->order, s->n, sizeof(u32), sim_cmp_fetch, NULL,
		       s->subs);
		for (j = 0; j < s->n; j++) {
			struct sim_sub *sub = &s->subs[s->order[j]];

			busy = max(busy, sub->t_fetch) + ANSWER;
			sim_fetch(s, s->order[j], &rep);
			KUNIT_ASSERT_EQ(test, nidmap_copy_apply(sub->copy, &rep),
					0);
			sub->t_done = busy + LAT + ANSWER;
		}
		s->cpu_fetch = (ktime_get_ns() - t0) / s->n;
	}

	/* Every copy equal to the table; each told exactly once. */
	for (i = 0; i < s->n; i++) {
		struct sim_sub *sub = &s->subs[i];
		struct nidmap_rec got;
		u64 epoch, version, base;
		bool resync;

		KUNIT_ASSERT_EQ_MSG(test, sub->notices, 1, "subscriber %u", i);
		nidmap_copy_position(sub->copy, &epoch, &version, &base,
				     &resync);
		KUNIT_ASSERT_EQ(test, version, v);
		KUNIT_ASSERT_EQ(test, nidmap_copy_lookup(sub->copy, rec.name,
							 &got), 0);
		KUNIT_ASSERT_EQ(test, got.version, v);
		KUNIT_ASSERT_EQ(test, got.nnids, 2);
		KUNIT_ASSERT_EQ(test, memcmp(got.nids, rec.nids,
					     2 * sizeof(got.nids[0])), 0);
		s->t_end = max(s->t_end, sub->t_done);
		sub->notices = 0;
	}
	kunit_kfree(test, page);
}

static unsigned long slab_bytes(void)
{
	return (global_node_page_state_pages(NR_SLAB_UNRECLAIMABLE_B) +
		global_node_page_state_pages(NR_SLAB_RECLAIMABLE_B)) *
	       PAGE_SIZE;
}

static void sim_report(struct sim *s, enum sim_mode mode, u32 plan_msgs)
{
	kunit_info(s->test, "sim n=%u %s: %llu.%03llu ms (%llu latencies; notices done at %llu.%03llu ms, depth %u), %llu messages, %llu bytes, publisher %llu messages and %llu fetches; plan handed out in %u notices; real CPU per fetch (encode, answer, decode, apply) %llu us\n",
		   s->n, sim_mode_name[mode], s->t_end / 1000000,
		   s->t_end / 1000 % 1000, s->t_end / LAT,
		   s->t_notices / 1000000, s->t_notices / 1000 % 1000,
		   s->depth, s->msgs, s->bytes, s->pub_msgs, s->fetches,
		   plan_msgs, mode == SIM_DELTA_TREE ? 0 : s->cpu_fetch / 1000);
}

/*
 * The simulation's state lives across its cases, one case per step, so
 * that no case keeps insmod waiting long enough to look hung under the
 * debug kernel (10,000 real syncs take tens of seconds there).
 * nidmap_relay_suite_exit() frees it whatever case failed.
 */
static struct sim sim_state;
static struct lnet_nid *sim_nids;
static u64 sim_flat_end;

/* 10,000 copies, each synced once through the real messages. */
static void relay_sim_copies(struct kunit *test)
{
	struct sim *s = &sim_state;
	struct nidmap_msg rep;
	unsigned long slab0, slab1;
	u64 v, t0;
	u32 i;

	s->test = test;
	s->r.s = 0x5851f42d4c957f2dULL;
	s->table = nidmap_table_create(&sim_lim, 77);
	s->subs = vzalloc(array_size(SIM_N, sizeof(*s->subs)));
	s->parent = vmalloc(array_size(SIM_N, sizeof(u32)));
	s->order = vmalloc(array_size(SIM_N, sizeof(u32)));
	s->kids = vmalloc(array_size(SIM_N, sizeof(u32)));
	s->kid_off = vmalloc(array_size(SIM_N + 2, sizeof(u32)));
	sim_nids = vmalloc(array_size(SIM_N, sizeof(*sim_nids)));
	s->buf = kmalloc(4096, GFP_KERNEL);
	s->out = kmalloc(NIDMAP_FETCH_ROOM, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s->table));
	KUNIT_ASSERT_TRUE(test, s->subs && s->parent && s->order && sim_nids &&
			  s->kids && s->kid_off && s->buf && s->out);
	for (i = 0; i < SIM_TARGETS; i++) {
		struct nidmap_rec rec = { .nnids = 2 };

		snprintf(rec.name, sizeof(rec.name), "fs-OST%04x", i);
		sub_nid(40000 + i, &rec.nids[0]);
		sub_nid(45000 + i, &rec.nids[1]);
		KUNIT_ASSERT_EQ(test, nidmap_table_set(s->table, &rec, NULL, &v),
				0);
	}

	slab0 = slab_bytes();
	t0 = ktime_get_ns();
	s->n = SIM_N;
	for (i = 0; i < SIM_N; i++) {
		s->subs[i].copy = nidmap_copy_create(sim_lim.max_entries);
		KUNIT_ASSERT_NOT_NULL(test, s->subs[i].copy);
		sim_fetch(s, i, &rep);
		KUNIT_ASSERT_EQ(test, nidmap_copy_apply(s->subs[i].copy, &rep),
				0);
		KUNIT_ASSERT_EQ(test, nidmap_copy_count(s->subs[i].copy),
				SIM_TARGETS);
		cond_resched();
	}
	t0 = ktime_get_ns() - t0;
	slab1 = slab_bytes();
	kunit_info(test, "sim: %u copies of a %u-target table: %lu bytes of slab each (the relay set adds 20 bytes per child, at most %u); a copy created and synced (FETCH encoded, answered, page decoded and applied) in %llu us of this CPU\n",
		   SIM_N, SIM_TARGETS, (slab1 - slab0) / SIM_N, SIM_K,
		   t0 / SIM_N / 1000);
	/* Loose: a copy of 16 targets is a few KiB. */
	KUNIT_EXPECT_LT(test, (slab1 - slab0) / SIM_N, 65536UL);
}

/* One change to @n subscribers spread the way @mode spreads it. */
static void sim_run(struct kunit *test, u32 n, enum sim_mode mode)
{
	struct sim *s = &sim_state;
	u32 d = nidmap_relay_depth(n, SIM_K);
	u32 plan_msgs, i;

	/* The copies exist (relay_sim_copies passed) and n fits them. */
	KUNIT_ASSERT_TRUE(test, s->subs && s->subs[SIM_N - 1].copy);
	KUNIT_ASSERT_LE(test, n, (u32)SIM_N);
	s->test = test;
	s->n = n;
	for (i = 0; i < n; i++)
		sub_nid(i, &sim_nids[i]);
	if (mode == SIM_FLAT)
		memset(s->parent, 0xff, n * sizeof(u32));
	else
		KUNIT_ASSERT_EQ(test,
				nidmap_relay_plan(sim_nids, n, SIM_K, s->parent,
						  NULL), 0);
	sim_change(s, mode, &plan_msgs);
	sim_report(s, mode, plan_msgs);
	if (mode == SIM_FLAT) {
		sim_flat_end = s->t_end;
		KUNIT_EXPECT_EQ(test, s->depth, 1U);
		KUNIT_EXPECT_EQ(test, s->msgs, 3ULL * n);
		return;
	}
	/* The trees are held against the flat run of the same size. */
	KUNIT_ASSERT_NE(test, sim_flat_end, 0ULL);
	KUNIT_EXPECT_LE(test, s->depth, d);
	if (mode == SIM_NOTICE_TREE) {
		/* the notices: a relay's k in one round each */
		KUNIT_EXPECT_LE(test, s->t_notices, d * LAT);
		/* one notice each, every fetch at the publisher */
		KUNIT_EXPECT_EQ(test, s->msgs, 3ULL * n);
		/* never slower than flat (a gap: one latency) */
		KUNIT_EXPECT_LE(test, s->t_end, sim_flat_end + LAT);
		KUNIT_EXPECT_LE(test, s->t_end,
				d * LAT + n * ANSWER + 2 * LAT + ANSWER);
		return;
	}
	/* the publisher: k notices, k fetches */
	KUNIT_EXPECT_LE(test, s->fetches, (u64)SIM_K);
	KUNIT_EXPECT_LE(test, s->pub_msgs, 3ULL * SIM_K);
	KUNIT_EXPECT_EQ(test, s->msgs, n + 2 * s->fetches);
	KUNIT_EXPECT_LE(test, s->t_end,
			d * (LAT + ANSWER) + SIM_K * ANSWER + 2 * LAT + ANSWER);
	if (n == SIM_N)
		KUNIT_EXPECT_LT(test, s->t_end * 10, sim_flat_end);
}

/* The largest first: the smaller runs' copies are then all up to date. */
static void relay_sim_flat(struct kunit *test)
{
	sim_run(test, SIM_N, SIM_FLAT);
}

static void relay_sim_notice_tree(struct kunit *test)
{
	sim_run(test, SIM_N, SIM_NOTICE_TREE);
}

static void relay_sim_delta_tree(struct kunit *test)
{
	sim_run(test, SIM_N, SIM_DELTA_TREE);
}

static void relay_sim_small(struct kunit *test)
{
	static const u32 sizes[] = { 10, 1 };
	u32 a;
	int mode;

	for (a = 0; a < ARRAY_SIZE(sizes); a++)
		for (mode = SIM_FLAT; mode <= SIM_DELTA_TREE; mode++)
			sim_run(test, sizes[a], mode);
}

static void nidmap_relay_suite_exit(struct kunit_suite *suite)
{
	struct sim *s = &sim_state;
	u32 i;

	for (i = 0; s->subs && i < SIM_N; i++) {
		if (s->subs[i].copy)
			nidmap_copy_destroy(s->subs[i].copy);
		cond_resched();
	}
	if (!IS_ERR_OR_NULL(s->table))
		nidmap_table_destroy(s->table);
	vfree(sim_nids);
	vfree(s->order);
	vfree(s->kid_off);
	vfree(s->kids);
	vfree(s->parent);
	vfree(s->subs);
	kfree(s->buf);
	kfree(s->out);
	memset(s, 0, sizeof(*s));
	sim_nids = NULL;
	sim_flat_end = 0;
}

/* k = 1: a chain in key order, each subscriber the next one's parent. */
static void relay_plan_chain(struct kunit *test)
{
	static const u32 ns[] = { 1, 2, 3, NIDMAP_RELAY_CHAIN_MAX };
	struct rng r = { .s = 0x9e3779b97f4a7c15ULL };
	unsigned int a;

	for (a = 0; a < ARRAY_SIZE(ns); a++)
		check_plan(test, ns[a], 1, &r);
	KUNIT_EXPECT_EQ(test, nidmap_relay_depth(5, 1), 5U);
	KUNIT_EXPECT_EQ(test, nidmap_relay_plan(NULL, NIDMAP_RELAY_CHAIN_MAX + 1,
						1, NULL, NULL), -EINVAL);
}

/* A plan's children grouped by parent: each group exactly its children. */
static void check_sets(struct kunit *test, u32 n, u32 k)
{
	struct lnet_nid *nids = vmalloc(n * sizeof(*nids));
	u32 *parent = vmalloc(n * sizeof(u32));
	u32 *first = vmalloc((n + 2) * sizeof(u32));
	u32 *order = vmalloc(n * sizeof(u32));
	u32 i, j, p, seen = 0;

	KUNIT_ASSERT_TRUE(test, nids && parent && first && order);
	for (i = 0; i < n; i++)
		sub_nid(i * 5 + 1, &nids[i]);
	KUNIT_ASSERT_EQ(test, nidmap_relay_plan(nids, n, k, parent, NULL), 0);
	KUNIT_ASSERT_EQ(test, nidmap_relay_sets(parent, n, first, order), 0);
	KUNIT_ASSERT_EQ(test, first[0], 0U);
	KUNIT_ASSERT_EQ(test, first[n + 1], n);
	for (p = 0; p <= n; p++) {
		KUNIT_ASSERT_LE(test, first[p], first[p + 1]);
		KUNIT_ASSERT_LE(test, first[p + 1] - first[p], k);
		for (j = first[p]; j < first[p + 1]; j++) {
			i = order[j];
			KUNIT_ASSERT_LT(test, i, n);
			KUNIT_ASSERT_EQ_MSG(test, parent[i] == NIDMAP_RELAY_ROOT ?
					    n : parent[i], p, "n=%u k=%u", n, k);
			if (j > first[p])
				KUNIT_ASSERT_LT(test, order[j - 1], i);
			seen++;
		}
	}
	KUNIT_ASSERT_EQ(test, seen, n);
	/* A parent outside the list is refused. */
	if (n) {
		parent[0] = n;
		KUNIT_EXPECT_EQ(test, nidmap_relay_sets(parent, n, first, order),
				-EINVAL);
	}
	vfree(order);
	vfree(first);
	vfree(parent);
	vfree(nids);
}

static void relay_plan_sets(struct kunit *test)
{
	check_sets(test, 1, 8);
	check_sets(test, 2, 1);
	check_sets(test, 16, 1);
	check_sets(test, 100, 8);
	check_sets(test, 1000, 3);
	check_sets(test, 4097, 16);
}

/* A relay's verdict: newer than its copy, not forwarded, rate-bounded. */
static void relay_forward_rules(struct kunit *test)
{
	struct nidmap_fwd f = { 0 };
	unsigned long now = 100000;

	/* Not newer than the copy: never. */
	KUNIT_EXPECT_EQ(test, nidmap_relay_forward(&f, 7, 5, 7, 5, now),
			NIDMAP_FWD_NO);
	KUNIT_EXPECT_EQ(test, nidmap_relay_forward(&f, 7, 4, 7, 5, now),
			NIDMAP_FWD_NO);
	/* Newer, or another epoch: the first round goes at once. */
	KUNIT_EXPECT_EQ(test, nidmap_relay_forward(&f, 7, 6, 7, 5, now),
			NIDMAP_FWD_NOW);
	KUNIT_EXPECT_EQ(test, nidmap_relay_forward(&f, 8, 1, 7, 5, now),
			NIDMAP_FWD_NOW);
	f.epoch = 7;
	f.version = 6;
	f.last = now;
	f.rounds = 1;
	/* The same version again: deduplicated, whenever it comes. */
	KUNIT_EXPECT_EQ(test, nidmap_relay_forward(&f, 7, 6, 7, 5, now + 1),
			NIDMAP_FWD_NO);
	KUNIT_EXPECT_EQ(test, nidmap_relay_forward(&f, 7, 6, 7, 5,
						   now + 10 * HZ),
			NIDMAP_FWD_NO);
	/* A newer one within NIDMAP_NOTICE_DELAY: later; after: now. */
	KUNIT_EXPECT_EQ(test, nidmap_relay_forward(&f, 7, 7, 7, 5, now + 1),
			NIDMAP_FWD_LATER);
	KUNIT_EXPECT_EQ(test, nidmap_relay_forward(&f, 7, 7, 7, 5,
						   now + NIDMAP_NOTICE_DELAY),
			NIDMAP_FWD_NOW);
	/*
	 * A forged huge version forwarded once does not stop the true
	 * next one: the copy, not the last forwarded, is the reference.
	 */
	f.version = U64_MAX;
	KUNIT_EXPECT_EQ(test, nidmap_relay_forward(&f, 7, 6, 7, 5,
						   now + NIDMAP_NOTICE_DELAY),
			NIDMAP_FWD_NOW);
	/* Across jiffies wrapping. */
	f.last = ULONG_MAX - 1;
	KUNIT_EXPECT_EQ(test, nidmap_relay_forward(&f, 7, 8, 7, 5, 2),
			NIDMAP_FWD_LATER);
}

static struct kunit_case nidmap_relay_cases[] = {
	KUNIT_CASE(relay_plan_shape),
	KUNIT_CASE(relay_plan_chain),
	KUNIT_CASE(relay_plan_sets),
	KUNIT_CASE(relay_forward_rules),
	KUNIT_CASE(relay_plan_stable),
	KUNIT_CASE(relay_sim_copies),
	KUNIT_CASE(relay_sim_flat),
	KUNIT_CASE(relay_sim_notice_tree),
	KUNIT_CASE(relay_sim_delta_tree),
	KUNIT_CASE(relay_sim_small),
	{}
};

static struct kunit_suite nidmap_relay_suite = {
	.name = "nidmap_relay",
	.suite_exit = nidmap_relay_suite_exit,
	.test_cases = nidmap_relay_cases,
};

kunit_test_suite(nidmap_relay_suite);
MODULE_DESCRIPTION("KUnit: nidmap's relay plan and a 10,000-subscriber simulation");
MODULE_LICENSE("GPL");
