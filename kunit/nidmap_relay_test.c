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
 * Flat and the notice tree send the same fetches: one change is noticed
 * both ways and fetched once, each way timed by its own arrivals.  Each
 * copy must end equal to the table; the bounds are asserted.
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

enum sim_mode { SIM_FLAT, SIM_NOTICE_TREE, SIM_DELTA_TREE, SIM_MODES };

static const char * const sim_mode_name[] = {
	"flat (today)", "notice tree", "delta tree",
};

struct sim_sub {
	struct nidmap_copy	*copy;
	u64			t_notice;	/* its notice arrived */
	u64			t_done;		/* its copy is up to date */
	u32			relay[NIDMAP_RELAY_K_MAX];
	u8			nrelay;		/* from the publisher's NOTICE */
	u8			notices;	/* received for this change */
	u8			level;
};

/* One change spread one way, as counted. */
struct sim_run {
	u64			msgs;
	u64			bytes;
	u64			pub_msgs;	/* sent or answered by it */
	u64			fetches;
	u64			t_end;
	u64			t_notices;
	u64			cpu_fetch;	/* ns of this CPU per fetch */
	u32			depth;
	u32			plan_msgs;	/* the plan's distribution */
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
	u64			*t_fetch[2];	/* flat's, the notice tree's */
	u8			*buf;		/* a message */
	u8			*out;		/* an answer */
	u8			*page;		/* the page a relay forwards */
	struct rng		r;
	u64			seq;
	/* counted per change */
	u64			msgs;
	u64			bytes;
	u64			pub_msgs;	/* sent or answered by it */
	u64			fetches;
	struct sim_run		run[SIM_MODES];
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
	len = nidmap_pub_answer(s->table, &req, &sim_pub_nid, false, s->out,
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
	const u64 *t_fetch = priv;
	u64 x = t_fetch[*(const u32 *)a], y = t_fetch[*(const u32 *)b];

	return x < y ? -1 : x > y;
}

/* Arrival of the j-th of a sender's messages sent from @t. */
static u64 sim_arrive(u64 t, u32 j)
{
	return t + (j / NIDMAP_FANOUT + 1) * LAT;
}

/* The plan (s->parent) handed out: a NOTICE to each relay with its set. */
static void sim_plan(struct sim *s, enum sim_mode mode)
{
	struct kunit *test = s->test;
	const u32 *kids;
	u32 nk, i;

	sim_index_kids(s);
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
	s->run[mode].plan_msgs = s->msgs;
}

/* The change: a target's NIDs; Return: the table's version after it. */
static u64 sim_change(struct sim *s, struct nidmap_rec *rec)
{
	u64 v;

	memset(rec, 0, sizeof(*rec));
	snprintf(rec->name, sizeof(rec->name), "fs-OST%04x",
		 rnd(&s->r, SIM_TARGETS));
	rec->nnids = 2;
	sub_nid(50000 + rnd(&s->r, 1000), &rec->nids[0]);
	sub_nid(60000 + rnd(&s->r, 1000), &rec->nids[1]);
	KUNIT_ASSERT_EQ(s->test, nidmap_table_set(s->table, rec, NULL, &v), 0);
	return v;
}

/*
 * The change (made) spread down the plan sim_plan() handed out, in
 * @mode, from t = 0.  Flat and notice tree: the notices, each
 * subscriber's FETCH reaching the publisher at t_fetch[mode] (the
 * fetches are sim_fetch_all()'s).  Delta tree: the publisher's children
 * fetch, a relay forwards the page it applied.
 */
static void sim_spread(struct sim *s, enum sim_mode mode)
{
	struct kunit *test = s->test;
	struct sim_run *run = &s->run[mode];
	struct nidmap_msg rep;
	const u32 *kids;
	u32 nk, i, j, head = 0, tail = 0, w, page_len = 0;
	u64 busy = 0;

	s->msgs = 0;
	s->bytes = 0;
	s->pub_msgs = 0;
	s->fetches = 0;
	memset(run, 0, offsetof(struct sim_run, plan_msgs));
	for (i = 0; i < s->n; i++) {
		s->subs[i].t_notice = U64_MAX;
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

	/* Down the tree, in the order reached. */
	while (head < tail) {
		struct sim_sub *sub;

		i = s->order[head++];
		sub = &s->subs[i];
		run->depth = max_t(u32, run->depth, sub->level);
		if (mode != SIM_DELTA_TREE) {
			run->t_notices = max(run->t_notices, sub->t_notice);
			s->t_fetch[mode][i] = sub->t_notice + LAT;
		} else if (sub->level == 1) {
			run->t_notices = max(run->t_notices, sub->t_notice);
			busy = max(busy, sub->t_notice + LAT) + ANSWER;
			page_len = sim_fetch(s, i, &rep);
			KUNIT_ASSERT_EQ(test, nidmap_copy_apply(sub->copy, &rep),
					0);
			/* The bytes as the publisher sent them, to forward. */
			memcpy(s->page, s->out, page_len);
			sub->t_done = busy + LAT + ANSWER;
		} else {
			/* The parent's page, forwarded byte for byte. */
			memcpy(s->buf, s->page, page_len);
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

	/* Each told exactly once. */
	for (i = 0; i < s->n; i++) {
		KUNIT_ASSERT_EQ_MSG(test, s->subs[i].notices, 1,
				    "subscriber %u", i);
		s->subs[i].notices = 0;
		if (mode == SIM_DELTA_TREE)
			run->t_end = max(run->t_end, s->subs[i].t_done);
	}
	run->msgs = s->msgs;
	run->bytes = s->bytes;
	run->pub_msgs = s->pub_msgs;
	run->fetches = s->fetches;
}

/*
 * Flat and the notice tree differ only in who sends the notices: in
 * both, every subscriber then sends the same FETCH to the publisher and
 * applies the same answer.  The fetches are made once, for real, and
 * counted in both; each way's time is its own order of arrival at the
 * publisher (t_fetch), answered one at a time, ANSWER each.
 */
static void sim_fetch_all(struct sim *s)
{
	struct kunit *test = s->test;
	struct nidmap_msg rep;
	u64 busy, t0, cpu, t_end;
	u32 i, j;
	int mode;

	s->msgs = 0;
	s->bytes = 0;
	s->pub_msgs = 0;
	s->fetches = 0;
	t0 = ktime_get_ns();
	for (i = 0; i < s->n; i++) {
		sim_fetch(s, i, &rep);
		KUNIT_ASSERT_EQ(test, nidmap_copy_apply(s->subs[i].copy, &rep),
				0);
	}
	cpu = (ktime_get_ns() - t0) / s->n;
	for (mode = SIM_FLAT; mode <= SIM_NOTICE_TREE; mode++) {
		struct sim_run *run = &s->run[mode];
		const u64 *t_fetch = s->t_fetch[mode];

		for (i = 0; i < s->n; i++)
			s->order[i] = i;
		sort_r(s->order, s->n, sizeof(u32), sim_cmp_fetch, NULL,
		       t_fetch);
		busy = 0;
		t_end = 0;
		for (j = 0; j < s->n; j++) {
			busy = max(busy, t_fetch[s->order[j]]) + ANSWER;
			t_end = max(t_end, busy + LAT + ANSWER);
		}
		run->t_end = t_end;
		run->msgs += s->msgs;
		run->bytes += s->bytes;
		run->pub_msgs += s->pub_msgs;
		run->fetches += s->fetches;
		run->cpu_fetch = cpu;
	}
}

/* Every copy at version @v with @rec. */
static void sim_check(struct sim *s, const struct nidmap_rec *rec, u64 v)
{
	struct kunit *test = s->test;
	struct nidmap_rec *got;
	u64 epoch, version, base;
	bool resync;
	u32 i;

	got = kunit_kmalloc(test, sizeof(*got), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, got);
	for (i = 0; i < s->n; i++) {
		struct sim_sub *sub = &s->subs[i];

		nidmap_copy_position(sub->copy, &epoch, &version, &base,
				     &resync);
		KUNIT_ASSERT_EQ(test, version, v);
		KUNIT_ASSERT_EQ(test, nidmap_copy_lookup(sub->copy, rec->name,
							 got), 0);
		KUNIT_ASSERT_EQ(test, got->version, v);
		KUNIT_ASSERT_EQ(test, got->nnids, 2);
		KUNIT_ASSERT_EQ(test, memcmp(got->nids, rec->nids,
					     2 * sizeof(got->nids[0])), 0);
	}
	kunit_kfree(test, got);
}

static unsigned long slab_bytes(void)
{
	return (global_node_page_state_pages(NR_SLAB_UNRECLAIMABLE_B) +
		global_node_page_state_pages(NR_SLAB_RECLAIMABLE_B)) *
	       PAGE_SIZE;
}

static void sim_report(struct sim *s, enum sim_mode mode)
{
	const struct sim_run *run = &s->run[mode];

	kunit_info(s->test, "sim n=%u %s: %llu.%03llu ms (%llu latencies; notices done at %llu.%03llu ms, depth %u), %llu messages, %llu bytes, publisher %llu messages and %llu fetches; plan handed out in %u notices; real CPU per fetch (encode, answer, decode, apply) %llu us\n",
		   s->n, sim_mode_name[mode], run->t_end / 1000000,
		   run->t_end / 1000 % 1000, run->t_end / LAT,
		   run->t_notices / 1000000, run->t_notices / 1000 % 1000,
		   run->depth, run->msgs, run->bytes, run->pub_msgs,
		   run->fetches, run->plan_msgs, run->cpu_fetch / 1000);
}

/*
 * The simulation's state lives across its cases, one case per step, so
 * that no case keeps insmod waiting long enough to look hung under the
 * debug kernel (10,000 real syncs take tens of seconds there).
 * nidmap_relay_suite_exit() frees it whatever case failed.
 */
static struct sim sim_state;
static struct lnet_nid *sim_nids;

static unsigned long sim_slab0;	/* slab before the first copy */
static u64 sim_sync_ns;		/* creating and syncing them */

/* Copies up to @upto, each synced once through the real messages. */
static void sim_copies(struct kunit *test, u32 upto)
{
	struct sim *s = &sim_state;
	struct nidmap_msg rep;
	u64 t0 = ktime_get_ns();
	u32 i;

	s->test = test;
	for (i = s->n; i < upto; i++) {
		s->subs[i].copy = nidmap_copy_create(sim_lim.max_entries);
		KUNIT_ASSERT_NOT_NULL(test, s->subs[i].copy);
		s->n = i + 1;
		sim_fetch(s, i, &rep);
		KUNIT_ASSERT_EQ(test, nidmap_copy_apply(s->subs[i].copy, &rep),
				0);
		KUNIT_ASSERT_EQ(test, nidmap_copy_count(s->subs[i].copy),
				SIM_TARGETS);
		cond_resched();
	}
	sim_sync_ns += ktime_get_ns() - t0;
}

/* The table and the first half of the 10,000 copies (a case each). */
static void relay_sim_copies(struct kunit *test)
{
	struct sim *s = &sim_state;
	u64 v;
	u32 i;

	s->test = test;
	s->r.s = 0x5851f42d4c957f2dULL;
	s->table = nidmap_table_create(&sim_lim, 77);
	s->subs = vzalloc(array_size(SIM_N, sizeof(*s->subs)));
	s->parent = vmalloc(array_size(SIM_N, sizeof(u32)));
	s->order = vmalloc(array_size(SIM_N, sizeof(u32)));
	s->kids = vmalloc(array_size(SIM_N, sizeof(u32)));
	s->kid_off = vmalloc(array_size(SIM_N + 2, sizeof(u32)));
	s->t_fetch[0] = vmalloc(array_size(SIM_N, sizeof(u64)));
	s->t_fetch[1] = vmalloc(array_size(SIM_N, sizeof(u64)));
	sim_nids = vmalloc(array_size(SIM_N, sizeof(*sim_nids)));
	s->buf = kmalloc(4096, GFP_KERNEL);
	s->out = kmalloc(NIDMAP_FETCH_ROOM, GFP_KERNEL);
	s->page = kmalloc(NIDMAP_FETCH_ROOM, GFP_KERNEL);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(s->table));
	KUNIT_ASSERT_TRUE(test, s->subs && s->parent && s->order && sim_nids &&
			  s->kids && s->kid_off && s->t_fetch[0] &&
			  s->t_fetch[1] && s->buf && s->out && s->page);
	for (i = 0; i < SIM_TARGETS; i++) {
		struct nidmap_rec rec = { .nnids = 2 };

		snprintf(rec.name, sizeof(rec.name), "fs-OST%04x", i);
		sub_nid(40000 + i, &rec.nids[0]);
		sub_nid(45000 + i, &rec.nids[1]);
		KUNIT_ASSERT_EQ(test, nidmap_table_set(s->table, &rec, NULL, &v),
				0);
	}
	sim_slab0 = slab_bytes();
	sim_sync_ns = 0;
	sim_copies(test, SIM_N / 2);
}

/* The other half, and what they cost. */
static void relay_sim_copies2(struct kunit *test)
{
	struct sim *s = &sim_state;
	unsigned long slab;

	KUNIT_ASSERT_TRUE(test, s->subs && s->n == SIM_N / 2);
	sim_copies(test, SIM_N);
	slab = slab_bytes() - sim_slab0;
	kunit_info(test, "sim: %u copies of a %u-target table: %lu bytes of slab each (the relay set adds 20 bytes per child, at most %u); a copy created and synced (FETCH encoded, answered, page decoded and applied) in %llu us of this CPU\n",
		   SIM_N, SIM_TARGETS, slab / SIM_N, SIM_K,
		   sim_sync_ns / SIM_N / 1000);
	/* Loose: a copy of 16 targets is a few KiB. */
	KUNIT_EXPECT_LT(test, slab / SIM_N, 65536UL);
}

/* Subscribers 0..@n-1 of the copies; Return: the plan's depth bound. */
static u32 sim_begin(struct kunit *test, u32 n)
{
	struct sim *s = &sim_state;
	u32 i;

	/* The copies exist (relay_sim_copies2 passed) and n fits them. */
	KUNIT_ASSERT_TRUE(test, s->subs && s->subs[SIM_N - 1].copy);
	KUNIT_ASSERT_LE(test, n, (u32)SIM_N);
	s->test = test;
	s->n = n;
	for (i = 0; i < n; i++)
		sub_nid(i, &sim_nids[i]);
	return nidmap_relay_depth(n, SIM_K);
}

static void sim_tree_plan(struct kunit *test, struct sim *s)
{
	KUNIT_ASSERT_EQ(test, nidmap_relay_plan(sim_nids, s->n, SIM_K,
						s->parent, NULL), 0);
}

/*
 * One change to @n subscribers, flat and by the notice tree: each way's
 * notices (the tree's plan handed out first, counted apart), then the
 * fetches both make (sim_fetch_all()).
 */
static void sim_run_fetch(struct kunit *test, u32 n)
{
	struct sim *s = &sim_state;
	u32 d = sim_begin(test, n);
	struct sim_run *flat = &s->run[SIM_FLAT], *tree;
	struct nidmap_rec rec;
	u64 v;

	memset(s->parent, 0xff, n * sizeof(u32));
	sim_plan(s, SIM_FLAT);
	v = sim_change(s, &rec);
	sim_spread(s, SIM_FLAT);
	/* Its sets handed out after the change: nothing reads the version. */
	sim_tree_plan(test, s);
	sim_plan(s, SIM_NOTICE_TREE);
	sim_spread(s, SIM_NOTICE_TREE);
	sim_fetch_all(s);
	sim_check(s, &rec, v);
	sim_report(s, SIM_FLAT);
	sim_report(s, SIM_NOTICE_TREE);

	KUNIT_EXPECT_EQ(test, flat->depth, 1U);
	KUNIT_EXPECT_EQ(test, flat->msgs, 3ULL * n);
	/* The tree held against the flat run of the same size. */
	tree = &s->run[SIM_NOTICE_TREE];
	KUNIT_EXPECT_LE(test, tree->depth, d);
	/* the notices: a relay's k in one round each */
	KUNIT_EXPECT_LE(test, tree->t_notices, d * LAT);
	/* one notice each, every fetch at the publisher */
	KUNIT_EXPECT_EQ(test, tree->msgs, 3ULL * n);
	/* never slower than flat (a gap: one latency) */
	KUNIT_EXPECT_LE(test, tree->t_end, flat->t_end + LAT);
	KUNIT_EXPECT_LE(test, tree->t_end,
			d * LAT + n * ANSWER + 2 * LAT + ANSWER);
}

/* One change to @n subscribers by the delta tree, held against flat's. */
static void sim_run_delta(struct kunit *test, u32 n)
{
	struct sim *s = &sim_state;
	u32 d = sim_begin(test, n);
	struct sim_run *run = &s->run[SIM_DELTA_TREE];
	struct nidmap_rec rec;
	u64 v;

	/* The flat run of the same size came first. */
	KUNIT_ASSERT_NE(test, s->run[SIM_FLAT].t_end, 0ULL);
	sim_tree_plan(test, s);
	sim_plan(s, SIM_DELTA_TREE);
	v = sim_change(s, &rec);
	sim_spread(s, SIM_DELTA_TREE);
	sim_check(s, &rec, v);
	sim_report(s, SIM_DELTA_TREE);

	KUNIT_EXPECT_LE(test, run->depth, d);
	/* the publisher: k notices, k fetches */
	KUNIT_EXPECT_LE(test, run->fetches, (u64)SIM_K);
	KUNIT_EXPECT_LE(test, run->pub_msgs, 3ULL * SIM_K);
	KUNIT_EXPECT_EQ(test, run->msgs, n + 2 * run->fetches);
	KUNIT_EXPECT_LE(test, run->t_end,
			d * (LAT + ANSWER) + SIM_K * ANSWER + 2 * LAT + ANSWER);
	if (n == SIM_N)
		KUNIT_EXPECT_LT(test, run->t_end * 10, s->run[SIM_FLAT].t_end);
}

/* The largest first: the smaller runs' copies are then all up to date. */
static void relay_sim_flat_and_notice_tree(struct kunit *test)
{
	sim_run_fetch(test, SIM_N);
}

static void relay_sim_delta_tree(struct kunit *test)
{
	sim_run_delta(test, SIM_N);
}

static void relay_sim_small(struct kunit *test)
{
	static const u32 sizes[] = { 10, 1 };
	u32 a;

	for (a = 0; a < ARRAY_SIZE(sizes); a++) {
		sim_run_fetch(test, sizes[a]);
		sim_run_delta(test, sizes[a]);
	}
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
	vfree(s->t_fetch[1]);
	vfree(s->t_fetch[0]);
	vfree(s->order);
	vfree(s->kid_off);
	vfree(s->kids);
	vfree(s->parent);
	vfree(s->subs);
	kfree(s->buf);
	kfree(s->out);
	kfree(s->page);
	memset(s, 0, sizeof(*s));
	sim_nids = NULL;
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
	KUNIT_CASE(relay_sim_copies2),
	KUNIT_CASE(relay_sim_flat_and_notice_tree),
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
