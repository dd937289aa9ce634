// SPDX-License-Identifier: GPL-2.0
/*
 * The PING test (spec lnet-selftest.md 6): a client unit's requests carry
 * the magic and a sequence number, the server echoes them.
 */
#include <linux/ktime.h>

#include "selftest.h"

/* One sequence for all units of all ping tests (spec 6). */
static atomic_t lst_ping_seq;

static int lst_ping_init(struct lst_unit *u)
{
	/* reset whenever a ping client instance is made */
	if (u == &u->test->units[0])
		atomic_set(&lst_ping_seq, 0);
	return 0;
}

static int lst_ping_prep(struct lst_unit *u, struct lst_crpc *rpc)
{
	struct timespec64 ts;

	ktime_get_real_ts64(&ts);
	u->seq = atomic_inc_return(&lst_ping_seq) - 1;
	lst_put32(rpc->req, LST_PNR_MAGIC, LST_PING_MAGIC);
	lst_put32(rpc->req, LST_PNR_SEQ, u->seq);
	lst_put64(rpc->req, LST_PNR_TIME_SEC, ts.tv_sec);
	lst_put64(rpc->req, LST_PNR_TIME_NSEC, ts.tv_nsec);
	return 0;
}

/* The reply's status is not checked, as stock: its magic and seq are. */
static int lst_ping_check(struct lst_unit *u, struct lst_crpc *rpc)
{
	if (rpc->status)
		return rpc->status;
	if (lst_get32(rpc->reply, LST_PNR_REP_MAGIC) != LST_PING_MAGIC ||
	    lst_get32(rpc->reply, LST_PNR_REP_SEQ) != u->seq)
		return -EBADMSG;
	return 0;
}

static void lst_ping_error(struct lst_unit *u)
{
	atomic_inc(&u->test->session->ping_errors);
}

const struct lst_test_ops lst_ping_ops = {
	.init = lst_ping_init,
	.prep = lst_ping_prep,
	.check = lst_ping_check,
	.error = lst_ping_error,
};

/* The PING server (spec 6): a bad magic gets no reply at all. */
static int lst_ping_handle(struct lst_srpc *rpc)
{
	u32 status = 0;

	if (lst_get32(rpc->req, LST_PNR_MAGIC) != LST_PING_MAGIC)
		return -EBADMSG;
	if (rpc->info.version != LST_MSG_VERSION ||
	    rpc->info.feats & ~LST_FEATS_MASK) {
		status = EPROTO;
		put_unaligned_le32(LST_FEATS_MASK, rpc->reply + LST_HDR_FEATS);
	}
	lst_put32(rpc->reply, LST_REP_STATUS, status);
	lst_put32(rpc->reply, LST_PNR_REP_MAGIC, LST_PING_MAGIC);
	lst_put32(rpc->reply, LST_PNR_REP_SEQ,
		  lst_get32(rpc->req, LST_PNR_SEQ));
	return 0;
}

struct lst_svc lst_ping_svc = {
	.name = "ping",
	.id = LST_SVC_PING,
	.handle = lst_ping_handle,
	.test = true,
};
