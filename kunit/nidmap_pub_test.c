// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the publisher's subscribers and notices (nidmap/publisher.c)
 * through its real code paths, without LNet: a publisher made by
 * nidmap_pub_create() with a fake send that keeps each message until the
 * test completes it.  Subscribers are NIDs 10.0.0.0 + i @tcp sending
 * encoded SUBSCRIBE messages into nidmap_pub_receive(); a change is an
 * encoded REGISTER; the test runs the notice rounds and the plan
 * (nidmap_pub_notice_round(), nidmap_pub_plan()) and completes the
 * notices, decoding each (its destination, version and relay set).
 *
 * pub_scale_* measure, at 1,000, 10,000 and 100,000 subscribers, the
 * cost of one SUBSCRIBE, one UNSUB, a plan and the notice rounds of one
 * change (Documentation/nidmap.rst, "Publisher at scale").  The
 * notices' acceptance by a subscriber (nidmap_notice_verdict()) and the
 * netlink policy's bounds of PUBLISH are checked here too.
 */
#include <kunit/test.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/netlink.h>

#include "../nidmap/node.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define NID_BASE	0x0a000000U	/* subscriber i: 10.0.0.0 + i @tcp */
#define F_RELAY		0x00020000U	/* SUBSCRIBE hint: can relay */
#define F_UNSUB		0x00000008U
#define FK_MAX		64		/* messages the fake holds */
#define SCALE_MAX	100000		/* subscribers pub_scale reaches */
/*
 * A grow case stops after SCALE_BUDGET: the three of them reach
 * SCALE_FLOOR under CI's load (a SUBSCRIBE ~0.5 ms on the debug kernel)
 * and each subscriber costs about 1 ms with the plan and its free.
 */
#define SCALE_BUDGET	(5ULL * NSEC_PER_SEC / 2)
#define MEASURE		1000		/* SUBSCRIBEs timed at a checkpoint */
#define SCALE_FLOOR	20000		/* pub_scale_100k's n: at least */

/* A message the publisher sent, held until the test completes it. */
struct fk_msg {
	struct lnet_processid	dest;
	u64			match;
	void			*buf;
	unsigned int		len;
	void			(*done)(void *arg, int status);
	void			*arg;
};

static struct {
	struct fk_msg	msg[FK_MAX];
	unsigned int	n;
	unsigned int	overflow;
} fk;

static int fk_send(const struct lnet_processid *dest, u64 match, void *buf,
		   unsigned int len, void (*done)(void *arg, int status),
		   void *arg)
{
	struct fk_msg *m;

	if (fk.n == FK_MAX) {
		fk.overflow++;
		kvfree(buf);
		return -ENOMEM;
	}
	m = &fk.msg[fk.n++];
	m->dest = *dest;
	m->match = match;
	m->buf = buf;
	m->len = len;
	m->done = done;
	m->arg = arg;
	return 0;
}

static u64 req_seq;		/* the requests' seq */

static const struct nidmap_limits pub_lim = {
	.max_entries = 64, .max_tombstones = 64,
};

/* What the notices completed so far told each subscriber. */
struct told {
	u32	notices;	/* received */
	u64	version;	/* the last one's */
	u32	nset;		/* its relay set's size */
	u32	set[NIDMAP_RELAY_K_MAX];
};

struct ctx {
	struct kunit		*test;
	struct nidmap_pub	*pub;
	struct told		*told;	/* per subscriber, or NULL */
	u32			nsubs;	/* indexes @told covers */
	u32			notices;	/* completed */
	u16			last_status;	/* of the last STATUS */
	u64			epoch;		/* the table's, from STATUS */
	u64			version;
};

static void sub_id(u32 i, struct lnet_processid *id)
{
	memset(id, 0, sizeof(*id));
	id->nid.nid_type = LNET_LND_SOCK;
	id->nid.nid_addr[0] = cpu_to_be32(NID_BASE + i);
	id->pid = LNET_PID_LUSTRE;
}

static u32 nid_index(const struct lnet_nid *nid)
{
	return be32_to_cpu(nid->nid_addr[0]) - NID_BASE;
}

/* Complete every message held, with @status; decode what they carry. */
static void fk_complete(struct ctx *c, int status)
{
	struct kunit *test = c->test;
	struct nidmap_msg msg;
	struct nidmap_iter it;
	struct lnet_nid nid;

	KUNIT_ASSERT_EQ(test, fk.overflow, 0);
	/* A completion may send (a notice round runs from it): take all. */
	while (fk.n) {
		struct fk_msg m = fk.msg[0];

		memmove(&fk.msg[0], &fk.msg[1], --fk.n * sizeof(fk.msg[0]));
		KUNIT_ASSERT_EQ(test, nidmap_msg_decode(m.buf, m.len, &msg), 0);
		if (msg.hdr.type == NIDMAP_STATUS) {
			c->last_status = msg.hdr.status;
			c->epoch = msg.hdr.epoch;
			c->version = msg.hdr.version;
		} else {
			u32 who = nid_index(&m.dest.nid);
			struct told *t;

			KUNIT_ASSERT_EQ(test, msg.hdr.type, NIDMAP_NOTICE);
			KUNIT_ASSERT_EQ(test, m.match, NIDMAP_MB_SUBSCRIBER);
			KUNIT_ASSERT_LT(test, who, c->nsubs);
			c->notices++;
			if (c->told && !status) {
				t = &c->told[who];
				t->notices++;
				t->version = msg.hdr.version;
				KUNIT_ASSERT_LE(test, msg.hdr.count,
						NIDMAP_RELAY_K_MAX);
				t->nset = 0;
				nidmap_iter_init(&it, &msg);
				while (nidmap_iter_nid(&it, &nid))
					t->set[t->nset++] = nid_index(&nid);
				KUNIT_ASSERT_EQ(test, t->nset, msg.hdr.count);
			}
		}
		if (m.done)
			m.done(m.arg, status);
		kvfree(m.buf);
	}
}

/* A request from subscriber @i through the publisher's receive path. */
static void send_req_at(struct ctx *c, u32 i, u16 type, u32 flags,
			const struct nidmap_rec *rec, u64 epoch, u64 version)
{
	struct nidmap_hdr h = { .type = type, .incarnation = 7 + i,
				.flags = flags, .epoch = epoch,
				.version = version };
	struct lnet_processid from;
	struct nidmap_enc enc;
	u8 buf[512];
	int len;

	h.seq = ++req_seq;
	KUNIT_ASSERT_EQ(c->test, nidmap_enc_init(&enc, buf, sizeof(buf), &h), 0);
	if (rec)
		KUNIT_ASSERT_EQ(c->test, nidmap_enc_rec(&enc, rec), 0);
	len = nidmap_enc_finish(&enc, 0);
	KUNIT_ASSERT_GT(c->test, len, 0);
	sub_id(i, &from);
	c->last_status = U16_MAX;
	nidmap_pub_receive(c->pub, buf, len, &from, 0);
	fk_complete(c, 0);	/* the answer */
	KUNIT_ASSERT_NE(c->test, c->last_status, U16_MAX);
}

static void send_req(struct ctx *c, u32 i, u16 type, u32 flags,
		     const struct nidmap_rec *rec)
{
	send_req_at(c, i, type, flags, rec, 0, 0);
}

static void subscribe(struct ctx *c, u32 i, u32 flags)
{
	send_req(c, i, NIDMAP_SUBSCRIBE, flags, NULL);
}

/* A change: target @n registered at subscriber 0's NID. */
static void change(struct ctx *c, u32 n)
{
	struct nidmap_rec rec = { .nnids = 1 };

	snprintf(rec.name, sizeof(rec.name), "fs-OST%04x", n);
	rec.nids[0].nid_type = LNET_LND_SOCK;
	rec.nids[0].nid_addr[0] = cpu_to_be32(NID_BASE);
	send_req(c, 0, NIDMAP_REGISTER, 0, &rec);
	KUNIT_ASSERT_EQ(c->test, c->last_status, NIDMAP_ST_OK);
}

/* Notice rounds until none is due; Return: the notices sent. */
static u32 drain(struct ctx *c, int status)
{
	u32 before = c->notices;

	for (;;) {
		nidmap_pub_notice_round(c->pub);
		if (!fk.n)
			break;
		fk_complete(c, status);
	}
	return c->notices - before;
}

/* @told: keep what each of @nsubs subscribers was told. */
static void ctx_init(struct kunit *test, struct ctx *c, u32 nsubs,
		     bool told, u32 max_subs, u32 fanout)
{
	struct nidmap_pub_cfg cfg = { .max_subs = max_subs, .fanout = fanout };

	memset(c, 0, sizeof(*c));
	memset(&fk, 0, sizeof(fk));
	c->test = test;
	c->nsubs = nsubs;
	if (told) {
		c->told = kvcalloc(nsubs, sizeof(*c->told), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, c->told);
	}
	c->pub = nidmap_pub_create(&pub_lim, &cfg, fk_send, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(c->pub));
}

static void ctx_fini(struct ctx *c)
{
	fk_complete(c, -EINTR);
	nidmap_pub_destroy(c->pub);
	kvfree(c->told);
}

static struct nidmap_pub_info info_of(struct ctx *c)
{
	struct nidmap_pub_info info;

	nidmap_pub_get_info(c->pub, &info);
	return info;
}

/*
 * The list: a SUBSCRIBE adds once, an UNSUB removes (an unknown one is
 * harmless), the cap answers NOSPC, every subscriber is noticed once per
 * change; notices that fail NIDMAP_NOTICE_FAILS times drop the
 * subscriber; an UNSUB while its notice is in flight frees it at the
 * notice's completion (KASAN sees a use after free).
 */
static void pub_subscribers(struct kunit *test)
{
	struct ctx c;
	u32 i;

	ctx_init(test, &c, 8, true, 4, NIDMAP_FANOUT);
	for (i = 0; i < 4; i++) {
		subscribe(&c, i, 0);
		KUNIT_EXPECT_EQ(test, c.last_status, NIDMAP_ST_OK);
	}
	subscribe(&c, 2, 0);		/* again: the same one */
	KUNIT_EXPECT_EQ(test, c.last_status, NIDMAP_ST_OK);
	KUNIT_EXPECT_EQ(test, info_of(&c).subs, 4);
	subscribe(&c, 4, 0);		/* beyond the cap */
	KUNIT_EXPECT_EQ(test, c.last_status, NIDMAP_ST_NOSPC);
	KUNIT_EXPECT_EQ(test, info_of(&c).subs, 4);
	/* Each noticed at once (it has no epoch yet), then at a change. */
	KUNIT_EXPECT_EQ(test, drain(&c, 0), 4);
	change(&c, 1);
	KUNIT_EXPECT_EQ(test, drain(&c, 0), 4);
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, c.told[i].notices, 2);
		KUNIT_EXPECT_EQ(test, c.told[i].version, c.version);
		KUNIT_EXPECT_EQ(test, c.told[i].nset, 0);
	}
	KUNIT_EXPECT_EQ(test, drain(&c, 0), 0);

	send_req(&c, 6, NIDMAP_SUBSCRIBE, F_UNSUB, NULL);	/* unknown */
	send_req(&c, 3, NIDMAP_SUBSCRIBE, F_UNSUB, NULL);
	KUNIT_EXPECT_EQ(test, info_of(&c).subs, 3);
	subscribe(&c, 4, 0);		/* room again */
	KUNIT_EXPECT_EQ(test, c.last_status, NIDMAP_ST_OK);
	KUNIT_EXPECT_EQ(test, drain(&c, 0), 1);

	/* UNSUB while its notice is in flight: freed at the completion. */
	change(&c, 2);
	nidmap_pub_notice_round(c.pub);
	KUNIT_EXPECT_EQ(test, fk.n, 4);
	{
		static struct fk_msg held[FK_MAX];
		unsigned int n = fk.n;

		memcpy(held, fk.msg, n * sizeof(held[0]));
		fk.n = 0;
		send_req(&c, 1, NIDMAP_SUBSCRIBE, F_UNSUB, NULL);
		KUNIT_EXPECT_EQ(test, info_of(&c).direct, 3);
		memcpy(fk.msg, held, n * sizeof(held[0]));
		fk.n = n;
	}
	fk_complete(&c, 0);
	KUNIT_EXPECT_EQ(test, info_of(&c).subs, 3);
	KUNIT_EXPECT_EQ(test, drain(&c, 0), 0);

	/* Failing notices: retried, then the subscriber dropped. */
	change(&c, 3);
	drain(&c, -EHOSTUNREACH);
	KUNIT_EXPECT_EQ(test, info_of(&c).subs, 0);
	ctx_fini(&c);
}

/* The plan at fan-out @k over relays 0..n-1; every set checked. */
static void plan_and_send(struct ctx *c)
{
	nidmap_pub_plan(c->pub);
	drain(c, 0);
}

/*
 * A relay that subscribes again without RELAY loses its set: the
 * publisher's notices to it carry none (the defect: the set of its last
 * plan stayed, and went out with every notice).
 */
static void pub_stale_set(struct kunit *test)
{
	struct nidmap_pub_info info;
	struct ctx c;
	u32 i, r = U32_MAX;

	ctx_init(test, &c, 8, true, 64, 2);
	for (i = 0; i < 7; i++)
		subscribe(&c, i, F_RELAY);
	plan_and_send(&c);
	info = info_of(&c);
	KUNIT_EXPECT_EQ(test, info.relays, 7);
	KUNIT_EXPECT_EQ(test, info.direct, 2);
	KUNIT_EXPECT_EQ(test, info.depth, 3);	/* 2 + 4 slots < 7 */
	for (i = 0; i < 7; i++)
		if (c.told[i].nset)
			r = i;
	KUNIT_ASSERT_NE(test, r, U32_MAX);

	subscribe(&c, r, 0);			/* no longer a relay */
	plan_and_send(&c);
	info = info_of(&c);
	KUNIT_EXPECT_EQ(test, info.relays, 6);
	change(&c, 1);
	drain(&c, 0);
	KUNIT_EXPECT_EQ(test, c.told[r].version, c.version);
	KUNIT_EXPECT_EQ(test, c.told[r].nset, 0);
	/* Its former children have another parent: each relay is in one set. */
	{
		u32 seen[8] = { 0 }, j;

		for (i = 0; i < 7; i++) {
			if (i == r)
				continue;
			for (j = 0; j < c.told[i].nset; j++)
				seen[c.told[i].set[j]]++;
		}
		for (i = 0; i < 7; i++)
			if (i != r)
				KUNIT_EXPECT_LE(test, seen[i], 1);
		KUNIT_EXPECT_EQ(test, seen[r], 0);
	}
	ctx_fini(&c);
}

/*
 * The scale: one publisher across the pub_scale_* cases (each well
 * under 30 s on the debug kernel), freed by the suite's exit.
 * Subscribers 0..n-1 are relays subscribing through the real path at
 * the table's epoch and version (so no notice is owed them: a relay
 * with no set yet is not noticed for its set).  At 1,000, 10,000 and
 * 100,000: the cost of the last MEASURE SUBSCRIBEs, a plan and the
 * notices that hand out the sets that changed, one change (only level 1
 * noticed directly: k notices whatever n) and a notice round with
 * nothing due (each completion runs one); at the end MEASURE UNSUBs.
 */
static struct ctx scale;
static bool scale_on;
static u64 scale_sub_ns;	/* the last MEASURE SUBSCRIBEs */
static u32 scale_n;		/* subscribers so far */
static u32 scale_target;	/* the next change's target */

static void scale_get(struct kunit *test)
{
	if (!scale_on) {
		ctx_init(test, &scale, NIDMAP_SUBS_MAX, false, NIDMAP_SUBS_MAX,
			 NIDMAP_FANOUT);
		scale_on = true;
	}
	scale.test = test;
}

/* Subscribe up to @upto within @budget ns; Return: whether reached. */
static bool scale_grow(u32 upto, u64 budget)
{
	u64 t0 = ktime_get_ns(), t = t0;

	while (scale_n < upto) {
		if (scale_n % MEASURE == 0) {
			if (ktime_get_ns() - t0 > budget)
				return false;
			t = ktime_get_ns();
		}
		send_req_at(&scale, scale_n++, NIDMAP_SUBSCRIBE, F_RELAY, NULL,
			    scale.epoch, scale.version);
		KUNIT_ASSERT_EQ(scale.test, scale.last_status, NIDMAP_ST_OK);
		if (scale_n % MEASURE == 0) {
			scale_sub_ns = ktime_get_ns() - t;
			/* Only the first, before it knew the epoch. */
			KUNIT_ASSERT_LE(scale.test, drain(&scale, 0), 1);
		}
	}
	return true;
}

static void scale_measure(struct kunit *test)
{
	struct nidmap_pub_info info;
	u64 plan_ns, sets_ns, t;
	u32 sets, sent;

	kunit_info(test, "n=%u: SUBSCRIBE %llu us\n", scale_n,
		   scale_sub_ns / MEASURE / NSEC_PER_USEC);
	t = ktime_get_ns();
	nidmap_pub_plan(scale.pub);
	plan_ns = ktime_get_ns() - t;
	info = info_of(&scale);
	KUNIT_EXPECT_EQ(test, info.subs, scale_n);
	KUNIT_EXPECT_EQ(test, info.relays, scale_n);
	KUNIT_EXPECT_EQ(test, info.direct, NIDMAP_FANOUT);
	t = ktime_get_ns();
	sets = drain(&scale, 0);
	sets_ns = ktime_get_ns() - t;
	kunit_info(test, "n=%u: plan %llu ms (depth %u), %u set notices %llu ms\n",
		   scale_n, plan_ns / NSEC_PER_MSEC, info.depth, sets,
		   sets_ns / NSEC_PER_MSEC);
	change(&scale, ++scale_target);
	t = ktime_get_ns();
	sent = drain(&scale, 0);
	t = ktime_get_ns() - t;
	KUNIT_EXPECT_EQ(test, sent, NIDMAP_FANOUT);
	kunit_info(test, "n=%u: one change: %u notices, its rounds %llu us\n",
		   scale_n, sent, t / NSEC_PER_USEC);
	t = ktime_get_ns();
	for (sent = 0; sent < 100; sent++)
		nidmap_pub_notice_round(scale.pub);
	t = ktime_get_ns() - t;
	KUNIT_EXPECT_EQ(test, fk.n, 0);
	kunit_info(test, "n=%u: a round with nothing due %llu ns\n", scale_n,
		   t / 100);
}

static void pub_scale_1k(struct kunit *test)
{
	scale_get(test);
	KUNIT_ASSERT_TRUE(test, scale_grow(1000, U64_MAX));
	scale_measure(test);
}

static void pub_scale_10k(struct kunit *test)
{
	scale_get(test);
	KUNIT_ASSERT_TRUE(test, scale_grow(10000, U64_MAX));
	scale_measure(test);
}

/* Towards 100,000 - MEASURE, SCALE_BUDGET at a time. */
static void scale_grow_case(struct kunit *test)
{
	u32 from = scale_n;
	u64 t = ktime_get_ns();

	scale_get(test);
	scale_grow(SCALE_MAX - MEASURE, SCALE_BUDGET);
	kunit_info(test, "%u to %u subscribers in %llu ms\n", from, scale_n,
		   (ktime_get_ns() - t) / NSEC_PER_MSEC);
}

static void pub_scale_grow1(struct kunit *test)
{
	scale_grow_case(test);
}

static void pub_scale_grow2(struct kunit *test)
{
	scale_grow_case(test);
}

/*
 * The figures at the largest n the grow cases reached within their
 * budgets (100,000 on a quiet machine).  How far they get is the
 * machine's speed, not a property of the code: that is for make bench,
 * so only the floor is asserted here.
 */
static void pub_scale_100k(struct kunit *test)
{
	scale_get(test);
	scale_grow(SCALE_MAX, SCALE_BUDGET);
	KUNIT_ASSERT_GE_MSG(test, scale_n, SCALE_FLOOR,
			    "only %u subscribers within the budgets", scale_n);
	scale_measure(test);
}

static void pub_scale_unsub(struct kunit *test)
{
	u64 t;
	u32 i;

	scale_get(test);
	KUNIT_ASSERT_GE(test, scale_n, MEASURE);
	t = ktime_get_ns();
	for (i = 0; i < MEASURE; i++)
		send_req(&scale, --scale_n, NIDMAP_SUBSCRIBE, F_UNSUB, NULL);
	t = ktime_get_ns() - t;
	KUNIT_EXPECT_EQ(test, info_of(&scale).subs, scale_n);
	kunit_info(test, "n=%u: UNSUB %llu us\n", scale_n + MEASURE,
		   t / MEASURE / NSEC_PER_USEC);
}

static void nidmap_pub_suite_exit(struct kunit_suite *suite)
{
	u64 t = ktime_get_ns();

	if (!scale_on)
		return;
	/* Nothing is held unless a case stopped halfway. */
	while (fk.n) {
		struct fk_msg *m = &fk.msg[--fk.n];

		if (m->done)
			m->done(m->arg, -EINTR);
		kvfree(m->buf);
	}
	nidmap_pub_destroy(scale.pub);
	scale_on = false;
	pr_info("nidmap_pub: %u subscribers freed in %llu ms\n", scale_n,
		(ktime_get_ns() - t) / NSEC_PER_MSEC);
}

/* A NOTICE of @n NIDs (10.0.1.0 + i), @flags, encoded and decoded. */
static void notice_of(struct kunit *test, u32 n, u32 flags, u8 *buf,
		      struct nidmap_msg *msg)
{
	struct nidmap_hdr h = { .type = NIDMAP_NOTICE, .incarnation = 9,
				.seq = 1, .epoch = 5, .version = 3,
				.flags = flags };
	struct nidmap_enc enc;
	struct lnet_nid nid;
	u32 i;
	int len;

	KUNIT_ASSERT_EQ(test, nidmap_enc_init(&enc, buf, 2048, &h), 0);
	for (i = 0; i < n; i++) {
		memset(&nid, 0, sizeof(nid));
		nid.nid_type = LNET_LND_SOCK;
		nid.nid_addr[0] = cpu_to_be32(NID_BASE + 256 + i);
		KUNIT_ASSERT_EQ(test, nidmap_enc_nid(&enc, &nid), 0);
	}
	len = nidmap_enc_finish(&enc, 0);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_ASSERT_EQ(test, nidmap_msg_decode(buf, len, msg), 0);
	KUNIT_ASSERT_EQ(test, msg->hdr.count, n);
}

/*
 * What a subscriber takes (nidmap_notice_verdict()), from decoded
 * messages: a RELAYED notice from anyone but only without a body; the
 * publisher's own only from the publisher, and by a relay only with a
 * set of at most NIDMAP_RELAY_K_MAX NIDs (the decoder takes 64).
 */
static void sub_notice_verdict(struct kunit *test)
{
	struct nidmap_msg msg;
	u8 *buf = kunit_kzalloc(test, 2048, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	notice_of(test, 0, NIDMAP_F_RELAYED, buf, &msg);
	KUNIT_EXPECT_EQ(test, nidmap_notice_verdict(&msg.hdr, false, false),
			NIDMAP_NOTICE_RELAYED);
	KUNIT_EXPECT_EQ(test, nidmap_notice_verdict(&msg.hdr, false, true),
			NIDMAP_NOTICE_RELAYED);
	KUNIT_EXPECT_EQ(test, nidmap_notice_verdict(&msg.hdr, true, true),
			NIDMAP_NOTICE_RELAYED);
	/* RELAYED with a body: dropped, whoever sent it. */
	notice_of(test, 1, NIDMAP_F_RELAYED, buf, &msg);
	KUNIT_EXPECT_EQ(test, nidmap_notice_verdict(&msg.hdr, false, true),
			NIDMAP_NOTICE_DROP);
	KUNIT_EXPECT_EQ(test, nidmap_notice_verdict(&msg.hdr, true, false),
			NIDMAP_NOTICE_DROP);
	/* The publisher's: only from it. */
	notice_of(test, 0, 0, buf, &msg);
	KUNIT_EXPECT_EQ(test, nidmap_notice_verdict(&msg.hdr, true, false),
			NIDMAP_NOTICE_PUB);
	KUNIT_EXPECT_EQ(test, nidmap_notice_verdict(&msg.hdr, false, false),
			NIDMAP_NOTICE_DROP);
	KUNIT_EXPECT_EQ(test, nidmap_notice_verdict(&msg.hdr, false, true),
			NIDMAP_NOTICE_DROP);
	/* A set of 16 a relay takes; of 17 it drops (it holds 16). */
	notice_of(test, NIDMAP_RELAY_K_MAX, 0, buf, &msg);
	KUNIT_EXPECT_EQ(test, nidmap_notice_verdict(&msg.hdr, true, true),
			NIDMAP_NOTICE_PUB);
	notice_of(test, NIDMAP_RELAY_K_MAX + 1, 0, buf, &msg);
	KUNIT_EXPECT_EQ(test, nidmap_notice_verdict(&msg.hdr, true, true),
			NIDMAP_NOTICE_DROP);
	/* A subscriber that did not say RELAY ignores the set. */
	KUNIT_EXPECT_EQ(test, nidmap_notice_verdict(&msg.hdr, true, false),
			NIDMAP_NOTICE_PUB);
	notice_of(test, 64, 0, buf, &msg);
	KUNIT_EXPECT_EQ(test, nidmap_notice_verdict(&msg.hdr, true, true),
			NIDMAP_NOTICE_DROP);
	/* Not a notice. */
	msg.hdr.type = NIDMAP_STATUS;
	KUNIT_EXPECT_EQ(test, nidmap_notice_verdict(&msg.hdr, true, false),
			NIDMAP_NOTICE_DROP);
}

/* One u32 attribute @type = @v through the family's policy. */
static int policy_u32(struct kunit *test, int type, u32 v, const char **why)
{
	struct {
		struct nlattr	nla;
		u32		v;
	} a = { .nla = { .nla_len = NLA_HDRLEN + sizeof(u32),
			 .nla_type = type }, .v = v };
	struct netlink_ext_ack ext = {};
	int rc;

	rc = nla_validate(&a.nla, sizeof(a), NIDMAP_A_MAX, nidmap_genl_policy,
			  &ext);
	*why = ext._msg;
	if (rc)
		KUNIT_EXPECT_PTR_EQ(test, ext.bad_attr, &a.nla);
	return rc;
}

/*
 * PUBLISH's relay-fanout and max-subscribers: 0 and beyond the top are
 * refused by the policy with an extended-ack message naming the
 * attribute; 1 (a chain, one subscriber) and the tops are taken.
 */
static void pub_netlink_bounds(struct kunit *test)
{
	static const struct {
		int	type;
		u32	v;
		bool	ok;
	} cases[] = {
		{ NIDMAP_A_RELAY_FANOUT, 0, false },
		{ NIDMAP_A_RELAY_FANOUT, 1, true },
		{ NIDMAP_A_RELAY_FANOUT, NIDMAP_RELAY_K_MAX, true },
		{ NIDMAP_A_RELAY_FANOUT, NIDMAP_RELAY_K_MAX + 1, false },
		{ NIDMAP_A_MAX_SUBS, 0, false },
		{ NIDMAP_A_MAX_SUBS, 1, true },
		{ NIDMAP_A_MAX_SUBS, NIDMAP_SUBS_MAX, true },
		{ NIDMAP_A_MAX_SUBS, NIDMAP_SUBS_MAX + 1, false },
		{ NIDMAP_A_MAX_SUBS, U32_MAX, false },
	};
	const char *why;
	unsigned int i;
	int rc;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		rc = policy_u32(test, cases[i].type, cases[i].v, &why);
		if (cases[i].ok) {
			KUNIT_EXPECT_EQ_MSG(test, rc, 0, "attr %d = %u",
					    cases[i].type, cases[i].v);
			continue;
		}
		KUNIT_EXPECT_EQ_MSG(test, rc, -ERANGE, "attr %d = %u",
				    cases[i].type, cases[i].v);
		KUNIT_EXPECT_NOT_NULL(test, why);
		if (why)
			kunit_info(test, "attr %d = %u refused: %s\n",
				   cases[i].type, cases[i].v, why);
	}
}

static struct kunit_case nidmap_pub_cases[] = {
	KUNIT_CASE(pub_subscribers),
	KUNIT_CASE(pub_stale_set),
	KUNIT_CASE(pub_scale_1k),
	KUNIT_CASE(pub_scale_10k),
	KUNIT_CASE(pub_scale_grow1),
	KUNIT_CASE(pub_scale_grow2),
	KUNIT_CASE(pub_scale_100k),
	KUNIT_CASE(pub_scale_unsub),
	KUNIT_CASE(sub_notice_verdict),
	KUNIT_CASE(pub_netlink_bounds),
	{}
};

static struct kunit_suite nidmap_pub_suite = {
	.name = "nidmap_pub",
	.suite_exit = nidmap_pub_suite_exit,
	.test_cases = nidmap_pub_cases,
};

kunit_test_suite(nidmap_pub_suite);

MODULE_DESCRIPTION("KUnit: nidmap's publisher, its subscribers at scale");
MODULE_LICENSE("GPL");
