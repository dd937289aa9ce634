// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: matching of incoming PUTs and GETs against MEs and MDs
 * (lnet/portal.c, lnet/md.c, lnet/finalize.c), without a network:
 * MEs and MDs are posted with the public API, messages are matched with
 * lnet_ptl_match_md_locked() and finished with lnet_msg_detach_md(), as
 * the receive path does.  Covers match and ignore bits (wire spec 8),
 * the source filter, ME order, operation mismatch, offsets and
 * truncation, thresholds with auto-unlink, and explicit unlink of idle
 * and busy MDs with the events they produce.
 */
#include <kunit/test.h>

#include <lnet/lib-lnet.h>

#define MT_PORTAL	63

static struct {
	int			n;
	struct lnet_event	ev[8];
} lm_events;

static void lm_handler(struct lnet_event *ev)
{
	if (lm_events.n < ARRAY_SIZE(lm_events.ev))
		lm_events.ev[lm_events.n] = *ev;
	lm_events.n++;
}

static u8 lm_buf[4][128];

static const struct lnet_processid lm_any = {
	.nid = LNET_ANY_NID, .pid = LNET_PID_ANY
};

static struct lnet_processid lm_src(struct kunit *test, const char *nid,
				    u32 pid)
{
	struct lnet_processid id = { .pid = pid };

	KUNIT_ASSERT_EQ(test, lnet_nid_from_str(nid, &id.nid), 0);
	return id;
}

/* Post an ME + MD on MT_PORTAL; the MD's user_ptr is @tag. */
static struct lnet_handle_md lm_post(struct kunit *test,
				     const struct lnet_processid *id,
				     u64 bits, u64 ignore, unsigned int opts,
				     unsigned int len, int threshold,
				     enum lnet_unlink unlink,
				     enum lnet_ins_pos pos, long tag)
{
	struct lnet_md md = {
		.start = lm_buf[tag & 3],
		.length = len,
		.threshold = threshold,
		.options = opts,
		.user_ptr = (void *)tag,
		.handler = lm_handler,
	};
	struct lnet_handle_md h;
	struct lnet_me *me;

	me = lnet_me_attach(MT_PORTAL, id, bits, ignore, pos);
	KUNIT_ASSERT_FALSE(test, IS_ERR(me));
	KUNIT_ASSERT_EQ(test, lnet_md_attach(me, &md, unlink, &h), 0);
	return h;
}

/* Match a PUT (or GET); on success the message holds the MD. */
static enum lnet_match_result lm_match(struct kunit *test,
				       const struct lnet_processid *src,
				       u64 bits, u32 rlen, u32 roff, u32 opc,
				       struct lnet_msg **msgp)
{
	struct lnet_match_info info = {
		.mi_id = *src,
		.mi_portal = MT_PORTAL,
		.mi_mbits = bits,
		.mi_roffset = roff,
		.mi_rlength = rlen,
		.mi_opc = opc,
	};
	enum lnet_match_result rc;
	struct lnet_msg *msg;

	msg = lnet_msg_alloc(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	lnet_lock();
	rc = lnet_ptl_match_md_locked(&info, msg);
	lnet_unlock();
	if (rc != LNET_MATCHMD_OK) {
		KUNIT_EXPECT_NULL(test, msg->msg_md);
		lnet_msg_free(msg);
		msg = NULL;
	} else {
		msg->msg_ev.type = opc == LNET_MD_OP_PUT ? LNET_EVENT_PUT :
							   LNET_EVENT_GET;
		msg->msg_ev.mlength = msg->msg_len;
		msg->msg_ev.offset = msg->msg_offset;
	}
	if (msgp)
		*msgp = msg;
	else if (msg)
		KUNIT_FAIL(test, "unexpected match");
	return rc;
}

/* The operation is over: event, and unlink if due. */
static void lm_finish(struct lnet_msg *msg, int status)
{
	lnet_lock();
	lnet_msg_detach_md(msg, status);
	lnet_unlock();
	lnet_msg_free(msg);
}

/* Matched and finished at once; returns the tag of the MD. */
static long lm_put(struct kunit *test, const struct lnet_processid *src,
		   u64 bits, u32 rlen)
{
	struct lnet_msg *msg;
	long tag;

	if (lm_match(test, src, bits, rlen, 0, LNET_MD_OP_PUT, &msg) !=
	    LNET_MATCHMD_OK)
		return -1;
	tag = (long)msg->msg_md->md_user_ptr;
	lm_finish(msg, 0);
	return tag;
}

static int lm_init(struct kunit *test)
{
	memset(&lm_events, 0, sizeof(lm_events));
	KUNIT_ASSERT_TRUE(test,
			  list_empty(&the_lnet.ln_portals[MT_PORTAL].ptl_mes));
	return 0;
}

static void lm_exit(struct kunit *test)
{
	struct lnet_portal *ptl = &the_lnet.ln_portals[MT_PORTAL];
	struct lnet_handle_md h;
	struct lnet_me *me;

	/* Unlink what a test left posted. */
	for (;;) {
		lnet_lock();
		me = list_first_entry_or_null(&ptl->ptl_mes, struct lnet_me,
					      me_list);
		if (me)
			h.cookie = me->me_md->md_handle;
		lnet_unlock();
		if (!me)
			break;
		KUNIT_EXPECT_EQ(test, lnet_md_unlink(h), 0);
	}
}

static void match_bits_and_ignore(struct kunit *test)
{
	struct lnet_me me = {
		.me_match_id = lm_any,
		.me_match_bits = 0x1234,
		.me_ignore_bits = 0xff00,
	};
	struct lnet_match_info info = { .mi_id = lm_src(test, "0@lo", 1) };

	info.mi_mbits = 0x1234;
	KUNIT_EXPECT_TRUE(test, lnet_me_match(&me, &info));
	info.mi_mbits = 0xab34;		/* ignored bits differ */
	KUNIT_EXPECT_TRUE(test, lnet_me_match(&me, &info));
	info.mi_mbits = 0x1235;
	KUNIT_EXPECT_FALSE(test, lnet_me_match(&me, &info));
	info.mi_mbits = 0x10000 | 0x1234;
	KUNIT_EXPECT_FALSE(test, lnet_me_match(&me, &info));
	info.mi_mbits = 0x8000000000001234ULL;
	KUNIT_EXPECT_FALSE(test, lnet_me_match(&me, &info));
	me.me_ignore_bits = ~0ULL;
	KUNIT_EXPECT_TRUE(test, lnet_me_match(&me, &info));

	/* Through a portal: only the matching bits find the MD. */
	lm_post(test, &lm_any, 0x8000000000000000ULL, 0, LNET_MD_OP_PUT, 64,
		LNET_MD_THRESH_INF, LNET_RETAIN, LNET_INS_AFTER, 1);
	KUNIT_EXPECT_EQ(test, lm_put(test, &info.mi_id, 0x8000000000000000ULL,
				     8), 1);
	KUNIT_EXPECT_EQ(test, lm_match(test, &info.mi_id, 0, 8, 0,
				       LNET_MD_OP_PUT, NULL),
			LNET_MATCHMD_NONE);
	KUNIT_EXPECT_EQ(test, lm_events.n, 1);
	KUNIT_EXPECT_EQ(test, lm_events.ev[0].type, LNET_EVENT_PUT);
	KUNIT_EXPECT_EQ(test, lm_events.ev[0].mlength, 8);
	KUNIT_EXPECT_FALSE(test, lm_events.ev[0].unlinked);
}

static void match_source_filter(struct kunit *test)
{
	struct lnet_processid a = lm_src(test, "192.0.2.1@tcp", 12345);
	struct lnet_processid b = lm_src(test, "192.0.2.2@tcp", 12345);
	struct lnet_processid a_pid = lm_src(test, "192.0.2.1@tcp", 7);
	struct lnet_processid any_pid = a;
	struct lnet_processid any_nid = { .nid = LNET_ANY_NID, .pid = 7 };

	any_pid.pid = LNET_PID_ANY;
	lm_post(test, &a, 1, 0, LNET_MD_OP_PUT, 64, LNET_MD_THRESH_INF,
		LNET_RETAIN, LNET_INS_AFTER, 1);
	lm_post(test, &any_pid, 2, 0, LNET_MD_OP_PUT, 64, LNET_MD_THRESH_INF,
		LNET_RETAIN, LNET_INS_AFTER, 2);
	lm_post(test, &any_nid, 3, 0, LNET_MD_OP_PUT, 64, LNET_MD_THRESH_INF,
		LNET_RETAIN, LNET_INS_AFTER, 3);

	KUNIT_EXPECT_EQ(test, lm_put(test, &a, 1, 1), 1);
	KUNIT_EXPECT_EQ(test, lm_put(test, &b, 1, 1), -1);	/* NID */
	KUNIT_EXPECT_EQ(test, lm_put(test, &a_pid, 1, 1), -1);	/* PID */
	KUNIT_EXPECT_EQ(test, lm_put(test, &a_pid, 2, 1), 2);
	KUNIT_EXPECT_EQ(test, lm_put(test, &b, 2, 1), -1);
	KUNIT_EXPECT_EQ(test, lm_put(test, &a_pid, 3, 1), 3);
	KUNIT_EXPECT_EQ(test, lm_put(test, &a, 3, 1), -1);
	KUNIT_EXPECT_EQ(test, lm_events.n, 3);
	KUNIT_EXPECT_PTR_EQ(test, lm_events.ev[1].md_user_ptr, (void *)2);
}

/* First matching ME wins; INS_BEFORE goes first; wrong op is skipped. */
static void match_order_and_op(struct kunit *test)
{
	struct lnet_processid a = lm_src(test, "0@lo", 12345);

	lm_post(test, &lm_any, 5, 0, LNET_MD_OP_GET, 64, LNET_MD_THRESH_INF,
		LNET_RETAIN, LNET_INS_AFTER, 1);
	lm_post(test, &lm_any, 5, 0, LNET_MD_OP_PUT, 64, LNET_MD_THRESH_INF,
		LNET_RETAIN, LNET_INS_AFTER, 2);
	KUNIT_EXPECT_EQ(test, lm_put(test, &a, 5, 4), 2);
	lm_post(test, &lm_any, 5, 0, LNET_MD_OP_PUT, 64, LNET_MD_THRESH_INF,
		LNET_RETAIN, LNET_INS_BEFORE, 3);
	KUNIT_EXPECT_EQ(test, lm_put(test, &a, 5, 4), 3);
}

static void match_offsets_and_truncation(struct kunit *test)
{
	struct lnet_processid a = lm_src(test, "0@lo", 12345);
	struct lnet_msg *msg;

	/* Local offset advances by what each PUT moved. */
	lm_post(test, &lm_any, 1, 0, LNET_MD_OP_PUT, 100, LNET_MD_THRESH_INF,
		LNET_RETAIN, LNET_INS_AFTER, 1);
	KUNIT_EXPECT_EQ(test, lm_put(test, &a, 1, 30), 1);
	KUNIT_EXPECT_EQ(test, lm_put(test, &a, 1, 30), 1);
	KUNIT_EXPECT_EQ(test, lm_events.ev[0].offset, 0);
	KUNIT_EXPECT_EQ(test, lm_events.ev[1].offset, 30);
	/* 40 left: 50 bytes do not fit and the MD does not truncate. */
	KUNIT_EXPECT_EQ(test, lm_match(test, &a, 1, 50, 0, LNET_MD_OP_PUT,
				       NULL), LNET_MATCHMD_DROP);
	KUNIT_EXPECT_EQ(test, lm_put(test, &a, 1, 40), 1);
	KUNIT_EXPECT_EQ(test, lm_events.ev[2].offset, 60);

	/* Remote offset, truncated to what is left after it. */
	lm_post(test, &lm_any, 2, 0, LNET_MD_OP_PUT | LNET_MD_MANAGE_REMOTE |
		LNET_MD_TRUNCATE, 100, LNET_MD_THRESH_INF, LNET_RETAIN,
		LNET_INS_AFTER, 2);
	KUNIT_ASSERT_EQ(test, lm_match(test, &a, 2, 50, 60, LNET_MD_OP_PUT,
				       &msg), LNET_MATCHMD_OK);
	KUNIT_EXPECT_EQ(test, msg->msg_offset, 60);
	KUNIT_EXPECT_EQ(test, msg->msg_len, 40);
	lm_finish(msg, 0);
	KUNIT_EXPECT_EQ(test, lm_match(test, &a, 2, 1, 101, LNET_MD_OP_PUT,
				       NULL), LNET_MATCHMD_DROP);
	/* A GET of the same MD is not its operation. */
	KUNIT_EXPECT_EQ(test, lm_match(test, &a, 2, 1, 0, LNET_MD_OP_GET,
				       NULL), LNET_MATCHMD_NONE);
}

/*
 * LNET_MD_MAX_SIZE: PUTs land one after another (local offsets); the MD
 * is used up, and with LNET_UNLINK gone, once less than max_size is left.
 */
static void match_max_size(struct kunit *test)
{
	struct lnet_processid a = lm_src(test, "0@lo", 12345);
	struct lnet_md md = {
		.start = lm_buf[1], .length = 100,
		.threshold = LNET_MD_THRESH_INF,
		.options = LNET_MD_OP_PUT | LNET_MD_TRUNCATE | LNET_MD_MAX_SIZE,
		.user_ptr = (void *)1, .handler = lm_handler, .max_size = 40,
	};
	struct lnet_msg *m1, *m2;
	struct lnet_handle_md h;
	struct lnet_me *me;

	me = lnet_me_attach(MT_PORTAL, &lm_any, 7, 0, LNET_INS_AFTER);
	KUNIT_ASSERT_FALSE(test, IS_ERR(me));
	KUNIT_ASSERT_EQ(test, lnet_md_attach(me, &md, LNET_UNLINK, &h), 0);
	/* Two at once, each in its own bytes. */
	KUNIT_ASSERT_EQ(test, lm_match(test, &a, 7, 30, 0, LNET_MD_OP_PUT, &m1),
			LNET_MATCHMD_OK);
	KUNIT_ASSERT_EQ(test, lm_match(test, &a, 7, 20, 0, LNET_MD_OP_PUT, &m2),
			LNET_MATCHMD_OK);
	KUNIT_EXPECT_EQ(test, m1->msg_offset, 0);
	KUNIT_EXPECT_EQ(test, m2->msg_offset, 30);
	/*
	 * 50 left, at least 40: it takes another, truncated to max_size
	 * (as Lustre's lnet_try_match_md()): one operation never takes
	 * more, so one sender cannot fill the MD.
	 */
	lm_finish(m1, 0);
	KUNIT_ASSERT_EQ(test, lm_match(test, &a, 7, 60, 0, LNET_MD_OP_PUT, &m1),
			LNET_MATCHMD_OK);
	KUNIT_EXPECT_EQ(test, m1->msg_offset, 50);
	KUNIT_EXPECT_EQ(test, m1->msg_len, 40);
	/* 10 left: full; it left the portal, and goes when both are done. */
	KUNIT_EXPECT_EQ(test, lm_match(test, &a, 7, 1, 0, LNET_MD_OP_PUT, NULL),
			LNET_MATCHMD_NONE);
	KUNIT_EXPECT_TRUE(test,
			  list_empty(&the_lnet.ln_portals[MT_PORTAL].ptl_mes));
	lm_finish(m2, 0);
	lm_finish(m1, 0);
	KUNIT_EXPECT_EQ(test, lm_events.n, 3);
	KUNIT_EXPECT_TRUE(test, lm_events.ev[2].unlinked);
	KUNIT_EXPECT_EQ(test, lnet_md_unlink(h), -ENOENT);
	/* A limit needs local offsets and a size. */
	md.options |= LNET_MD_MANAGE_REMOTE;
	KUNIT_EXPECT_EQ(test, lnet_md_bind(&md, LNET_RETAIN, &h), -EINVAL);
	md.options &= ~LNET_MD_MANAGE_REMOTE;
	md.max_size = 0;
	KUNIT_EXPECT_EQ(test, lnet_md_bind(&md, LNET_RETAIN, &h), -EINVAL);

	/* Without LNET_MD_TRUNCATE, more than max_size is dropped. */
	md.options &= ~LNET_MD_TRUNCATE;
	md.max_size = 40;
	me = lnet_me_attach(MT_PORTAL, &lm_any, 7, 0, LNET_INS_AFTER);
	KUNIT_ASSERT_FALSE(test, IS_ERR(me));
	KUNIT_ASSERT_EQ(test, lnet_md_attach(me, &md, LNET_UNLINK, &h), 0);
	KUNIT_EXPECT_EQ(test, lm_match(test, &a, 7, 41, 0, LNET_MD_OP_PUT, NULL),
			LNET_MATCHMD_DROP);
	KUNIT_ASSERT_EQ(test, lm_match(test, &a, 7, 40, 0, LNET_MD_OP_PUT, &m1),
			LNET_MATCHMD_OK);
	KUNIT_EXPECT_EQ(test, m1->msg_offset, 0);
	KUNIT_EXPECT_EQ(test, m1->msg_len, 40);
	lm_finish(m1, 0);
}

/* Threshold 2 with LNET_UNLINK: two operations, then gone. */
static void match_threshold_unlink(struct kunit *test)
{
	struct lnet_processid a = lm_src(test, "0@lo", 12345);
	struct lnet_handle_md h;
	struct lnet_msg *m1, *m2;

	h = lm_post(test, &lm_any, 9, 0, LNET_MD_OP_PUT, 64, 2, LNET_UNLINK,
		    LNET_INS_AFTER, 1);
	KUNIT_ASSERT_EQ(test, lm_match(test, &a, 9, 8, 0, LNET_MD_OP_PUT, &m1),
			LNET_MATCHMD_OK);
	KUNIT_ASSERT_EQ(test, lm_match(test, &a, 9, 8, 0, LNET_MD_OP_PUT, &m2),
			LNET_MATCHMD_OK);
	/* Used up: it left the portal at once, though still busy. */
	KUNIT_EXPECT_EQ(test, lm_match(test, &a, 9, 8, 0, LNET_MD_OP_PUT,
				       NULL), LNET_MATCHMD_NONE);
	KUNIT_EXPECT_TRUE(test,
			  list_empty(&the_lnet.ln_portals[MT_PORTAL].ptl_mes));
	KUNIT_EXPECT_EQ(test, lnet_md_unlink(h), -ENOENT);
	lm_finish(m1, 0);
	KUNIT_EXPECT_EQ(test, lm_events.n, 1);
	KUNIT_EXPECT_FALSE(test, lm_events.ev[0].unlinked);
	lm_finish(m2, -EIO);
	KUNIT_EXPECT_EQ(test, lm_events.n, 2);
	KUNIT_EXPECT_TRUE(test, lm_events.ev[1].unlinked);
	KUNIT_EXPECT_EQ(test, lm_events.ev[1].status, -EIO);
	KUNIT_EXPECT_EQ(test, lm_events.ev[1].md_handle.cookie, h.cookie);

	/* LNET_RETAIN: used up but kept, matching nothing. */
	h = lm_post(test, &lm_any, 9, 0, LNET_MD_OP_PUT, 64, 1, LNET_RETAIN,
		    LNET_INS_AFTER, 2);
	KUNIT_EXPECT_EQ(test, lm_put(test, &a, 9, 8), 2);
	KUNIT_EXPECT_EQ(test, lm_put(test, &a, 9, 8), -1);
	KUNIT_EXPECT_FALSE(test, lm_events.ev[2].unlinked);
	KUNIT_EXPECT_EQ(test, lnet_md_unlink(h), 0);
	KUNIT_EXPECT_EQ(test, lm_events.ev[3].type, LNET_EVENT_UNLINK);
}

/* Explicit unlink: idle MD at once, busy MD after its last operation. */
static void match_unlink(struct kunit *test)
{
	struct lnet_processid a = lm_src(test, "0@lo", 12345);
	struct lnet_handle_md h;
	struct lnet_msg *msg;

	h = lm_post(test, &lm_any, 4, 0, LNET_MD_OP_PUT, 64,
		    LNET_MD_THRESH_INF, LNET_RETAIN, LNET_INS_AFTER, 1);
	KUNIT_EXPECT_EQ(test, lnet_md_unlink(h), 0);
	KUNIT_EXPECT_EQ(test, lm_events.n, 1);
	KUNIT_EXPECT_EQ(test, lm_events.ev[0].type, LNET_EVENT_UNLINK);
	KUNIT_EXPECT_TRUE(test, lm_events.ev[0].unlinked);
	KUNIT_EXPECT_EQ(test, lnet_md_unlink(h), -ENOENT);
	KUNIT_EXPECT_EQ(test, lm_put(test, &a, 4, 1), -1);

	h = lm_post(test, &lm_any, 4, 0, LNET_MD_OP_PUT, 64,
		    LNET_MD_THRESH_INF, LNET_RETAIN, LNET_INS_AFTER, 2);
	KUNIT_ASSERT_EQ(test, lm_match(test, &a, 4, 8, 0, LNET_MD_OP_PUT, &msg),
			LNET_MATCHMD_OK);
	KUNIT_EXPECT_EQ(test, lnet_md_unlink(h), 0);
	KUNIT_EXPECT_EQ(test, lm_events.n, 1);		/* busy: no event */
	KUNIT_EXPECT_EQ(test, lm_put(test, &a, 4, 1), -1);
	lm_finish(msg, 0);
	KUNIT_EXPECT_EQ(test, lm_events.n, 2);
	KUNIT_EXPECT_EQ(test, lm_events.ev[1].type, LNET_EVENT_PUT);
	KUNIT_EXPECT_TRUE(test, lm_events.ev[1].unlinked);
	KUNIT_EXPECT_PTR_EQ(test, lm_events.ev[1].md_user_ptr, (void *)2);
}

/* Bad descriptions are refused and consume the ME. */
static void match_md_validation(struct kunit *test)
{
	struct lnet_md md = { .start = lm_buf[0], .length = 8, .threshold = 1 };
	struct lnet_handle_md h;
	struct lnet_me *me;

	KUNIT_EXPECT_TRUE(test, IS_ERR(lnet_me_attach(LNET_MAX_PORTALS,
						      &lm_any, 0, 0,
						      LNET_INS_AFTER)));
	me = lnet_me_attach(MT_PORTAL, &lm_any, 0, 0, LNET_INS_AFTER);
	KUNIT_ASSERT_FALSE(test, IS_ERR(me));
	md.options = 0x80000000;
	KUNIT_EXPECT_EQ(test, lnet_md_attach(me, &md, LNET_RETAIN, &h),
			-EINVAL);
	md.options = 0;
	md.threshold = 0;
	KUNIT_EXPECT_EQ(test, lnet_md_bind(&md, LNET_UNLINK, &h), -EINVAL);
	md.threshold = -2;
	KUNIT_EXPECT_EQ(test, lnet_md_bind(&md, LNET_RETAIN, &h), -EINVAL);
	md.threshold = 1;
	md.options = LNET_MD_KIOV;
	md.length = LNET_MAX_IOV + 1;
	KUNIT_EXPECT_EQ(test, lnet_md_bind(&md, LNET_RETAIN, &h), -EINVAL);
	KUNIT_EXPECT_TRUE(test,
			  list_empty(&the_lnet.ln_portals[MT_PORTAL].ptl_mes));
}

static struct kunit_case lnet_match_cases[] = {
	KUNIT_CASE(match_bits_and_ignore),
	KUNIT_CASE(match_source_filter),
	KUNIT_CASE(match_order_and_op),
	KUNIT_CASE(match_offsets_and_truncation),
	KUNIT_CASE(match_threshold_unlink),
	KUNIT_CASE(match_max_size),
	KUNIT_CASE(match_unlink),
	KUNIT_CASE(match_md_validation),
	{}
};

static struct kunit_suite lnet_match_suite = {
	.name = "lnet_match",
	.init = lm_init,
	.exit = lm_exit,
	.test_cases = lnet_match_cases,
};

kunit_test_suite(lnet_match_suite);

MODULE_DESCRIPTION("KUnit tests for LNet ME/MD matching");
MODULE_LICENSE("GPL");
