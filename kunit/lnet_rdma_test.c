// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: what the core gives LNDs that move payloads by RDMA (o2iblnd's
 * GET_REQ, wire spec 5.8): lnet_parse_rdma() handing a matched GET to the
 * LND as its REPLY with the data to write, and a dropped one as NULL;
 * lnet_create_reply_msg() and lnet_set_reply_msg_len() making the REPLY
 * of a GET on the initiator, where no REPLY header crosses the wire.  A
 * fake LND on a ptlf net records what the core hands it.  Also: a GET
 * whose MD it used up is not left on the response tracker's list (it was,
 * and the freed MD corrupted the list).  And a received message a fault
 * injection delay rule holds (lnet/fault.c): it reaches lnd_recv() only
 * once released, matched then; dropped if its NI stops first.
 */
#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/uio.h>

#include <lnet/fault.h>
#include <lnet/lib-lnet.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define RT_PORTAL	62
#define RT_BITS		0x1234ULL
#define RT_LEN		64

static struct {
	struct lnet_ni		*ni;
	struct lnet_msg		*sent;
	struct lnet_msg		*recv_msg;
	void			*recv_private;
	int			recv_calls;
	unsigned int		mlen, rlen;
	bool			to_null;
	u8			data[RT_LEN];
	int			nev;
	struct lnet_event	ev[4];
	bool			up;	/* init registered and configured */
} rt;

static u8 rt_src[RT_LEN], rt_sink[RT_LEN];

static void rt_handler(struct lnet_event *ev)
{
	if (rt.nev < ARRAY_SIZE(rt.ev))
		rt.ev[rt.nev] = *ev;
	rt.nev++;
}

static int rt_startup(struct lnet_ni *ni)
{
	rt.ni = ni;
	return lnet_nid_from_str("1@ptlf", &ni->ni_nid);
}

static void rt_shutdown(struct lnet_ni *ni)
{
	rt.ni = NULL;
}

static int rt_send(struct lnet_ni *ni, void *private, struct lnet_msg *msg)
{
	rt.sent = msg;
	return 0;
}

static int rt_recv(struct lnet_ni *ni, void *private, struct lnet_msg *msg,
		   struct iov_iter *to, unsigned int mlen, unsigned int rlen)
{
	size_t n;

	rt.recv_calls++;
	rt.recv_msg = msg;
	rt.recv_private = private;
	rt.mlen = mlen;
	rt.rlen = rlen;
	rt.to_null = !to;
	memset(rt.data, 0, sizeof(rt.data));
	if (!to)
		return 0;
	n = min_t(size_t, iov_iter_count(to), sizeof(rt.data));
	return copy_from_iter(rt.data, n, to) == mlen ? 0 : -EFAULT;
}

static struct lnet_lnd rt_lnd = {
	.lnd_type	= LNET_LND_PTL4,
	.lnd_owner	= THIS_MODULE,
	.lnd_startup	= rt_startup,
	.lnd_shutdown	= rt_shutdown,
	.lnd_send	= rt_send,
	.lnd_recv	= rt_recv,
};

static struct lnet_processid rt_peer(struct kunit *test)
{
	struct lnet_processid id = { .pid = LNET_PID_LUSTRE };

	KUNIT_ASSERT_EQ(test, lnet_nid_from_str("2@ptlf", &id.nid), 0);
	return id;
}

static int rt_init(struct kunit *test)
{
	u32 net;

	memset(&rt, 0, sizeof(rt));
	if (lnet_is_configured())
		kunit_skip(test, "LNet already configured");
	KUNIT_ASSERT_EQ(test, lnet_register_lnd(&rt_lnd), 0);
	rt.up = true;
	/*
	 * 2@ptlf is the wire of a peer, not its LNet: no discovery ping may
	 * go first (nothing would answer it).
	 */
	KUNIT_ASSERT_EQ(test, lnet_global_set("discovery", 0, NULL), 0);
	KUNIT_ASSERT_EQ(test, lnet_configure(false, NULL), 0);
	KUNIT_ASSERT_EQ(test, lnet_net_from_str("ptlf", &net), 0);
	KUNIT_ASSERT_EQ(test, lnet_net_add(net, "", NULL, NULL), 0);
	KUNIT_ASSERT_NOT_NULL(test, rt.ni);
	return 0;
}

static void rt_exit(struct kunit *test)
{
	if (!rt.up)
		return;
	KUNIT_EXPECT_EQ(test, lnet_unconfigure(NULL), 0);
	lnet_unregister_lnd(&rt_lnd);
	lnet_global_set("discovery", 1, NULL);
}

/* A GET header from 2@ptlf for @sink bytes, as it comes in. */
static void rt_get_wire(struct kunit *test, u64 bits, u32 sink, u8 *wire)
{
	struct lnet_hdr hdr = {
		.dest_nid = rt.ni->ni_nid,
		.src_nid = rt_peer(test).nid,
		.dest_pid = LNET_PID_LUSTRE,
		.src_pid = LNET_PID_LUSTRE,
		.type = LNET_MSG_GET,
		.msg.get = {
			.return_wmd = { .wh_interface_cookie = 0x11,
					.wh_object_cookie = 0x22 },
			.match_bits = bits,
			.ptl_index = RT_PORTAL,
			.sink_length = sink,
		},
	};

	KUNIT_ASSERT_EQ(test, lnet_hdr_to_nid4(&hdr, wire), 0);
}

/* The target of an RDMA GET: the LND gets the REPLY and its data. */
static void rdma_get_target(struct kunit *test)
{
	struct lnet_processid peer = rt_peer(test);
	struct lnet_processid any = { .nid = LNET_ANY_NID,
				      .pid = LNET_PID_ANY };
	struct lnet_md umd = {
		.start = rt_src, .length = RT_LEN, .threshold = 1,
		.options = LNET_MD_OP_GET, .handler = rt_handler,
	};
	u8 wire[LNET_HDR_NID4_SIZE];
	struct lnet_handle_md mdh;
	struct lnet_msg *msg;
	struct lnet_me *me;
	unsigned int i;

	for (i = 0; i < RT_LEN; i++)
		rt_src[i] = i * 7 + 1;
	me = lnet_me_attach(RT_PORTAL, &any, RT_BITS, 0, LNET_INS_AFTER);
	KUNIT_ASSERT_FALSE(test, IS_ERR(me));
	KUNIT_ASSERT_EQ(test, lnet_md_attach(me, &umd, LNET_UNLINK, &mdh), 0);

	/* Matches nothing: the LND is told to drop it (GET_DONE -ENODATA). */
	rt_get_wire(test, RT_BITS + 1, 40, wire);
	KUNIT_EXPECT_EQ(test, lnet_parse_rdma(rt.ni, wire, sizeof(wire),
					      &peer.nid, &rt), 0);
	KUNIT_EXPECT_EQ(test, rt.recv_calls, 1);
	KUNIT_EXPECT_NULL(test, rt.recv_msg);
	KUNIT_EXPECT_EQ(test, rt.nev, 0);

	/* Matches: the REPLY comes to lnd_recv with 40 bytes to write. */
	rt_get_wire(test, RT_BITS, 40, wire);
	KUNIT_EXPECT_EQ(test, lnet_parse_rdma(rt.ni, wire, sizeof(wire),
					      &peer.nid, &rt), 0);
	KUNIT_ASSERT_EQ(test, rt.recv_calls, 2);
	msg = rt.recv_msg;
	KUNIT_ASSERT_NOT_NULL(test, msg);
	KUNIT_EXPECT_PTR_EQ(test, rt.recv_private, (void *)&rt);
	KUNIT_EXPECT_EQ(test, msg->msg_type, LNET_MSG_REPLY);
	KUNIT_EXPECT_TRUE(test, msg->msg_send);
	KUNIT_EXPECT_FALSE(test, rt.to_null);
	KUNIT_EXPECT_EQ(test, rt.mlen, 40);
	KUNIT_EXPECT_EQ(test, rt.rlen, 40);
	KUNIT_EXPECT_EQ(test, memcmp(rt.data, rt_src, 40), 0);
	KUNIT_EXPECT_EQ(test, rt.data[40], 0);
	KUNIT_EXPECT_EQ(test, msg->msg_hdr.msg.reply.dst_wmd.wh_object_cookie,
			0x22);
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&msg->msg_hdr.dest_nid,
					       &peer.nid));
	KUNIT_EXPECT_PTR_EQ(test, rt.sent, NULL);	/* not sent by LNet */
	KUNIT_EXPECT_EQ(test, rt.nev, 0);

	/* The LND wrote it: the target's MD sees its GET event. */
	lnet_finalize(msg, 0);
	KUNIT_ASSERT_EQ(test, rt.nev, 1);
	KUNIT_EXPECT_EQ(test, rt.ev[0].type, LNET_EVENT_GET);
	KUNIT_EXPECT_EQ(test, rt.ev[0].status, 0);
	KUNIT_EXPECT_EQ(test, rt.ev[0].mlength, 40);
	KUNIT_EXPECT_TRUE(test, rt.ev[0].unlinked);
}

/* The initiator of an RDMA GET: the REPLY is made locally. */
static void rdma_get_initiator(struct kunit *test)
{
	struct lnet_processid peer = rt_peer(test);
	struct lnet_md umd = {
		.start = rt_sink, .length = RT_LEN, .threshold = 2,
		.handler = rt_handler,
	};
	struct lnet_msg *get, *reply;
	struct lnet_handle_md mdh;

	KUNIT_ASSERT_EQ(test, lnet_md_bind(&umd, LNET_UNLINK, &mdh), 0);
	KUNIT_ASSERT_EQ(test, lnet_get(NULL, mdh, &peer, RT_PORTAL, RT_BITS,
				       0), 0);
	get = rt.sent;
	KUNIT_ASSERT_NOT_NULL(test, get);
	KUNIT_EXPECT_EQ(test, get->msg_type, LNET_MSG_GET);
	KUNIT_EXPECT_EQ(test, get->msg_hdr.msg.get.sink_length, RT_LEN);

	reply = lnet_create_reply_msg(rt.ni, get);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	KUNIT_EXPECT_EQ(test, reply->msg_type, LNET_MSG_REPLY);
	KUNIT_EXPECT_FALSE(test, reply->msg_send);
	KUNIT_EXPECT_PTR_EQ(test, reply->msg_md, get->msg_md);
	/* The target reports more than the MD holds: capped. */
	lnet_set_reply_msg_len(reply, RT_LEN + 10);
	KUNIT_EXPECT_EQ(test, reply->msg_len, RT_LEN);
	lnet_set_reply_msg_len(reply, 30);
	KUNIT_EXPECT_EQ(test, reply->msg_len, 30);

	lnet_finalize(get, 0);
	lnet_finalize(reply, 0);
	KUNIT_ASSERT_EQ(test, rt.nev, 2);
	KUNIT_EXPECT_EQ(test, rt.ev[0].type, LNET_EVENT_SEND);
	KUNIT_EXPECT_FALSE(test, rt.ev[0].unlinked);
	KUNIT_EXPECT_EQ(test, rt.ev[1].type, LNET_EVENT_REPLY);
	KUNIT_EXPECT_EQ(test, rt.ev[1].status, 0);
	KUNIT_EXPECT_EQ(test, rt.ev[1].mlength, 30);
	KUNIT_EXPECT_EQ(test, rt.ev[1].rlength, 30);
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&rt.ev[1].initiator.nid,
					       &peer.nid));
	KUNIT_EXPECT_TRUE(test, rt.ev[1].unlinked);
}

/* An MD whose threshold the GET used up takes no REPLY. */
static void rdma_get_no_reply_md(struct kunit *test)
{
	struct lnet_processid peer = rt_peer(test);
	struct lnet_md umd = {
		.start = rt_sink, .length = RT_LEN, .threshold = 1,
		.handler = rt_handler,
	};
	struct lnet_handle_md mdh;
	struct lnet_msg *get;

	KUNIT_ASSERT_EQ(test, lnet_md_bind(&umd, LNET_UNLINK, &mdh), 0);
	KUNIT_ASSERT_EQ(test, lnet_get(NULL, mdh, &peer, RT_PORTAL, RT_BITS,
				       0), 0);
	get = rt.sent;
	KUNIT_ASSERT_NOT_NULL(test, get);
	KUNIT_EXPECT_NULL(test, lnet_create_reply_msg(rt.ni, get));
	lnet_finalize(get, -EIO);
	KUNIT_ASSERT_EQ(test, rt.nev, 1);
	KUNIT_EXPECT_EQ(test, rt.ev[0].type, LNET_EVENT_SEND);
	KUNIT_EXPECT_EQ(test, rt.ev[0].status, -EIO);
	KUNIT_EXPECT_TRUE(test, rt.ev[0].unlinked);
}

/*
 * A delay rule holds a received GET before it is matched: the LND's
 * lnd_recv() comes when the rule goes (matched then, the data to write
 * given), or with NULL when its NI stops.  As in Lustre, a delay rule
 * naming a local NID never matches.
 */
static void rdma_get_delayed(struct kunit *test)
{
	struct lnet_processid peer = rt_peer(test);
	struct lnet_processid any = { .nid = LNET_ANY_NID,
				      .pid = LNET_PID_ANY };
	struct lnet_md umd = {
		.start = rt_src, .length = RT_LEN, .threshold = 1,
		.options = LNET_MD_OP_GET, .handler = rt_handler,
	};
	struct lnet_fault_attr delay = {
		.type = LNET_FAULT_DELAY, .rate = 1, .latency = 3600,
		.src.any = true, .dst.any = true, .local.any = true,
		.msg_mask = BIT(LNET_MSG_GET),
	};
	u8 wire[LNET_HDR_NID4_SIZE];
	struct lnet_handle_md mdh;
	struct lnet_me *me;
	unsigned int i;

	for (i = 0; i < RT_LEN; i++)
		rt_src[i] = i * 5 + 3;
	me = lnet_me_attach(RT_PORTAL, &any, RT_BITS, 0, LNET_INS_AFTER);
	KUNIT_ASSERT_FALSE(test, IS_ERR(me));
	KUNIT_ASSERT_EQ(test, lnet_md_attach(me, &umd, LNET_UNLINK, &mdh), 0);
	KUNIT_ASSERT_EQ(test, lnet_fault_add(&delay, NULL), 0);

	rt_get_wire(test, RT_BITS, 40, wire);
	KUNIT_EXPECT_EQ(test, lnet_parse_rdma(rt.ni, wire, sizeof(wire),
					      &peer.nid, &rt), 0);
	KUNIT_EXPECT_EQ(test, rt.recv_calls, 0);
	KUNIT_EXPECT_EQ(test, rt.nev, 0);

	/* The rule goes: matched and handed to the LND at once. */
	KUNIT_EXPECT_EQ(test, lnet_fault_del(LNET_FAULT_DELAY, NULL, NULL), 1);
	KUNIT_ASSERT_EQ(test, rt.recv_calls, 1);
	KUNIT_ASSERT_NOT_NULL(test, rt.recv_msg);
	KUNIT_EXPECT_PTR_EQ(test, rt.recv_private, (void *)&rt);
	KUNIT_EXPECT_EQ(test, rt.recv_msg->msg_type, LNET_MSG_REPLY);
	KUNIT_EXPECT_EQ(test, rt.mlen, 40);
	KUNIT_EXPECT_EQ(test, memcmp(rt.data, rt_src, 40), 0);
	lnet_finalize(rt.recv_msg, 0);
	KUNIT_ASSERT_EQ(test, rt.nev, 1);
	KUNIT_EXPECT_EQ(test, rt.ev[0].type, LNET_EVENT_GET);
	KUNIT_EXPECT_EQ(test, rt.ev[0].status, 0);

	/* Held again; its NI stops: the LND is told to drop it. */
	KUNIT_ASSERT_EQ(test, lnet_fault_add(&delay, NULL), 0);
	rt.recv_msg = (void *)&rt;
	KUNIT_EXPECT_EQ(test, lnet_parse_rdma(rt.ni, wire, sizeof(wire),
					      &peer.nid, &rt), 0);
	KUNIT_EXPECT_EQ(test, rt.recv_calls, 1);
	lnet_fault_delay_flush_ni(rt.ni);
	KUNIT_EXPECT_EQ(test, rt.recv_calls, 2);
	KUNIT_EXPECT_NULL(test, rt.recv_msg);
	KUNIT_EXPECT_EQ(test, rt.nev, 1);
	KUNIT_EXPECT_EQ(test, lnet_fault_del(LNET_FAULT_DELAY, NULL, NULL), 1);

	/* A delay rule with a local NID: never matches, handled at once. */
	delay.local.any = false;
	delay.local.nid = rt.ni->ni_nid;
	KUNIT_ASSERT_EQ(test, lnet_fault_add(&delay, NULL), 0);
	KUNIT_EXPECT_EQ(test, lnet_parse_rdma(rt.ni, wire, sizeof(wire),
					      &peer.nid, &rt), 0);
	KUNIT_EXPECT_EQ(test, rt.recv_calls, 3);
	KUNIT_EXPECT_EQ(test, lnet_fault_del(LNET_FAULT_DELAY, NULL, NULL), 1);
}

static struct kunit_case lnet_rdma_cases[] = {
	KUNIT_CASE(rdma_get_target),
	KUNIT_CASE(rdma_get_delayed),
	KUNIT_CASE(rdma_get_initiator),
	KUNIT_CASE(rdma_get_no_reply_md),
	{}
};

static struct kunit_suite lnet_rdma_suite = {
	.name = "lnet_rdma",
	.init = rt_init,
	.exit = rt_exit,
	.test_cases = lnet_rdma_cases,
};

kunit_test_suite(lnet_rdma_suite);

MODULE_DESCRIPTION("KUnit tests for the LNet core's RDMA LND support");
MODULE_LICENSE("GPL");
