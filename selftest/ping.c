// SPDX-License-Identifier: GPL-2.0
/*
 * The PING test (spec lnet-selftest.md 6): a client unit's requests carry
 * the magic and a sequence number, the server echoes them; and the test
 * services' life: a service takes requests only while a server instance
 * of its test exists on this node (spec 2.7).
 */
#include <linux/ktime.h>
#include <linux/mutex.h>

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

#define LST_TEST_NBUF	256	/* request buffers of a test service */

static struct lst_svc lst_ping_svc = {
	.name = "ping",
	.id = LST_SVC_PING,
	.nbuf = LST_TEST_NBUF,
	.handle = lst_ping_handle,
	.test = true,
};

/* Server instances per test service; under the framework's mutex. */
static unsigned int lst_ping_users;

static struct lst_svc *lst_test_svc(unsigned int service, unsigned int **users)
{
	if (service == LST_SVC_PING) {
		*users = &lst_ping_users;
		return &lst_ping_svc;
	}
	return NULL;
}

/**
 * lst_test_service_get() - a server instance of @service is made: the
 *	service takes requests (the first one starts it)
 * @service: LST_SVC_PING
 *
 * Return: 0 or -errno.
 */
int lst_test_service_get(unsigned int service)
{
	unsigned int *users;
	struct lst_svc *svc = lst_test_svc(service, &users);
	int rc;

	if (!svc)
		return -ENOENT;
	if ((*users)++)
		return 0;
	svc->wq = alloc_workqueue("lst_%s", WQ_UNBOUND, 0, svc->name);
	rc = svc->wq ? lst_service_start(svc) : -ENOMEM;
	if (rc) {
		if (svc->wq)
			destroy_workqueue(svc->wq);
		(*users)--;
	}
	return rc;
}

/**
 * lst_test_service_put() - a server instance of @service goes (the last
 *	one stops the service: its requests in progress are served first)
 * @service: as given to lst_test_service_get()
 */
void lst_test_service_put(unsigned int service)
{
	unsigned int *users;
	struct lst_svc *svc = lst_test_svc(service, &users);

	if (!svc || --(*users))
		return;
	lst_service_stop(svc);
	destroy_workqueue(svc->wq);
}
