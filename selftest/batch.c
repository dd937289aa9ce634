// SPDX-License-Identifier: GPL-2.0
/*
 * A session's batches and test instances (spec lnet-selftest.md 4.6,
 * 4.7, 4.10): TEST adds an instance to a batch (a server instance lets
 * the test service take requests, a client instance has units: one per
 * destination and concurrency slot), BATCH runs, stops and queries them.
 *
 * A running unit has at most one RPC in flight: its ->done() checks the
 * RPC (the test's ops) and starts the next one until the loop count is
 * spent, the instance stops, or an error stops it (stop_onerr).  Units
 * run on the RPC layer's work queue; test->lock guards a unit's RPC
 * pointer and the stopping flag, so that a forced stop can abort what is
 * in flight.  Everything else is the framework's, under lst_fw_mutex.
 *
 * A session that ends stops its batches, forced, and waits until every
 * unit is idle (aborted RPCs end promptly by their events) before its
 * batches and instances are freed: there are no zombie sessions.
 */
#include <linux/slab.h>
#include <linux/wait.h>

#include "selftest.h"

static DECLARE_WAIT_QUEUE_HEAD(lst_units_waitq);

static const struct lst_test_ops *lst_test_ops(unsigned int service)
{
	switch (service) {
	case LST_SVC_PING:
		return &lst_ping_ops;
	case LST_SVC_BRW:
		return &lst_brw_ops;
	default:
		return NULL;
	}
}

/*
 * Units of every client instance of the node (LST_NODE_UNITS_MAX at
 * most), whichever session and test they belong to.
 */
static atomic_t lst_node_units;

/* Charge @n units to the node's budget; false (nothing charged) past it. */
static bool lst_units_charge(unsigned int n)
{
	if (atomic_add_return(n, &lst_node_units) <= LST_NODE_UNITS_MAX)
		return true;
	atomic_sub(n, &lst_node_units);
	return false;
}

/* Server instances of each test service; under the framework's mutex. */
static unsigned int lst_ping_users, lst_brw_users;

static struct lst_svc *lst_test_svc(unsigned int service, unsigned int **users,
				    unsigned int *workitems)
{
	if (service == LST_SVC_PING) {
		*users = &lst_ping_users;
		*workitems = READ_ONCE(lst_ping_srv_workitems);
		return &lst_ping_svc;
	}
	if (service == LST_SVC_BRW) {
		*users = &lst_brw_users;
		*workitems = READ_ONCE(lst_brw_srv_workitems);
		return &lst_brw_svc;
	}
	return NULL;
}

#define LST_TEST_NBUF	256	/* request buffers of a test service */

/*
 * A server instance of @service is made: the service takes requests (the
 * first one starts it, spec 2.7), as many at once as its work items.
 */
static int lst_test_service_get(unsigned int service)
{
	unsigned int *users, workitems;
	struct lst_svc *svc = lst_test_svc(service, &users, &workitems);
	int rc;

	if (!svc)
		return -ENOENT;
	if ((*users)++)
		return 0;
	svc->nbuf = max(LST_TEST_NBUF, workitems);
	svc->wq = alloc_workqueue("lst_%s", WQ_UNBOUND,
				  clamp(workitems, 1U, WQ_MAX_ACTIVE),
				  svc->name);
	rc = svc->wq ? lst_service_start(svc) : -ENOMEM;
	if (rc) {
		if (svc->wq)
			destroy_workqueue(svc->wq);
		(*users)--;
	}
	return rc;
}

/* The last server instance of @service goes: the service stops. */
static void lst_test_service_put(unsigned int service)
{
	unsigned int *users, workitems;
	struct lst_svc *svc = lst_test_svc(service, &users, &workitems);

	if (!svc || --(*users))
		return;
	lst_service_stop(svc);
	destroy_workqueue(svc->wq);
}

static struct lst_batch *lst_batch_find(struct lst_session *sn, u64 bid)
{
	struct lst_batch *b;

	list_for_each_entry(b, &sn->batches, link)
		if (b->bid == bid)
			return b;
	return NULL;
}

/* A unit is over: the last one of a test makes it inactive. */
static void lst_unit_finish(struct lst_unit *u)
{
	struct lst_test *t = u->test;

	if (atomic_dec_and_test(&t->active_units) &&
	    atomic_dec_and_test(&t->batch->active))
		wake_up(&lst_units_waitq);
}

static void lst_unit_done(struct lst_crpc *rpc);

/* Start the unit's next RPC, or finish it. */
static void lst_unit_next(struct lst_unit *u)
{
	struct lst_test *t = u->test;
	struct lst_crpc *rpc;
	bool go;

	spin_lock(&t->lock);
	go = !t->stopping && u->loop;
	if (go && u->loop > 0)
		u->loop--;
	spin_unlock(&t->lock);
	if (!go) {
		lst_unit_finish(u);
		return;
	}
	rpc = lst_crpc_alloc(&u->dest, t->service, t->feats, u->bulk,
			     lst_unit_done, u);
	if (!rpc || t->ops->prep(u, rpc)) {
		lst_crpc_free(rpc);
		t->ops->error(u);
		lst_unit_finish(u);
		return;
	}
	spin_lock(&t->lock);
	u->rpc = rpc;
	spin_unlock(&t->lock);
	lst_crpc_post(rpc, READ_ONCE(lst_rpc_timeout));
}

static void lst_unit_done(struct lst_crpc *rpc)
{
	struct lst_unit *u = rpc->priv;
	struct lst_test *t = u->test;
	bool stopping;
	int rc;

	spin_lock(&t->lock);
	u->rpc = NULL;
	stopping = t->stopping;
	spin_unlock(&t->lock);
	rc = t->ops->check(u, rpc);
	if (rc && !stopping)
		t->ops->error(u);
	lst_crpc_free(rpc);
	if (rc && t->stop_onerr)
		lst_unit_finish(u);
	else
		lst_unit_next(u);
}

/* Stop a batch's client instances; @force aborts their RPCs too. */
static void lst_batch_stop(struct lst_batch *b, bool force)
{
	struct lst_test *t;
	unsigned int i;

	list_for_each_entry(t, &b->tests, link) {
		spin_lock(&t->lock);
		t->stopping = true;
		/* the units' ->done() frees an RPC only after clearing it */
		for (i = 0; force && i < t->nunits; i++)
			if (t->units[i].rpc)
				lst_crpc_abort(t->units[i].rpc, -EINTR);
		spin_unlock(&t->lock);
	}
}

static void lst_batch_run(struct lst_batch *b)
{
	struct lst_test *t;
	unsigned int i;

	if (atomic_read(&b->active))
		return;
	list_for_each_entry(t, &b->tests, link) {
		if (!t->client)
			continue;
		t->stopping = false;
		atomic_set(&t->active_units, t->nunits);
		atomic_inc(&b->active);
		for (i = 0; i < t->nunits; i++)
			t->units[i].loop = t->loop;
	}
	list_for_each_entry(t, &b->tests, link)
		for (i = 0; t->client && i < t->nunits; i++)
			lst_unit_next(&t->units[i]);
}

static void lst_test_free(struct lst_test *t)
{
	unsigned int i;

	if (t->ops && t->ops->fini)
		for (i = 0; i < t->nunits; i++)
			t->ops->fini(&t->units[i]);
	if (!t->client && t->ops)
		lst_test_service_put(t->service);
	kvfree(t->units);
	atomic_sub(t->charged, &lst_node_units);
	kfree(t);
}

/**
 * lst_batches_end() - a session ends: stop its batches, forced, wait for
 *	their units, free them
 * @sn: the session, no longer current
 */
void lst_batches_end(struct lst_session *sn)
{
	struct lst_batch *b, *nb;
	struct lst_test *t, *nt;

	list_for_each_entry(b, &sn->batches, link)
		lst_batch_stop(b, true);
	list_for_each_entry(b, &sn->batches, link)
		wait_event_idle(lst_units_waitq, !atomic_read(&b->active));
	list_for_each_entry_safe(b, nb, &sn->batches, link) {
		list_for_each_entry_safe(t, nt, &b->tests, link)
			lst_test_free(t);
		kfree(b);
	}
	INIT_LIST_HEAD(&sn->batches);
}

/**
 * lst_batch_request() - BATCH (spec 4.7)
 * @sn: the current session (the sid matched)
 * @req: the request, little-endian
 * @reply: the reply: bar_active set for QUERY
 *
 * Return: 0 or -errno for the reply's status; -EOPNOTSUPP (an unknown
 * opcode): no reply at all.
 */
int lst_batch_request(struct lst_session *sn, const void *req, void *reply)
{
	struct lst_batch *b = lst_batch_find(sn, lst_get64(req, LST_BAR_BID));
	u32 idx = lst_get32(req, LST_BAR_TESTIDX), n = 0;
	struct lst_test *t;

	if (!b)
		return -ENOENT;
	switch (lst_get32(req, LST_BAR_OPC)) {
	case 1:
		lst_batch_run(b);
		return 0;
	case 2:
		lst_batch_stop(b, lst_get32(req, LST_BAR_ARG));
		return 0;
	case 3:
		if (idx >= BIT(31))
			return -EINVAL;
		if (!idx) {
			lst_put32(reply, LST_BAR_REP_ACTIVE,
				  atomic_read(&b->active));
			return 0;
		}
		list_for_each_entry(t, &b->tests, link) {
			if (++n == idx) {
				lst_put32(reply, LST_BAR_REP_ACTIVE,
					  t->client ?
					  atomic_read(&t->active_units) : 0);
				return 0;
			}
		}
		return -ENOENT;
	default:
		return -EOPNOTSUPP;
	}
}

/* Find the TEST's batch, or make it; -EBUSY while it runs (spec 4.6). */
static int lst_batch_get(struct lst_session *sn, u64 bid,
			 struct lst_batch **out)
{
	struct lst_batch *b = lst_batch_find(sn, bid);

	if (!b) {
		if (sn->nbatches >= LST_BATCHES_MAX)
			return -ENOSPC;
		b = kzalloc(sizeof(*b), GFP_KERNEL);
		if (!b)
			return -ENOMEM;
		b->bid = bid;
		INIT_LIST_HEAD(&b->tests);
		list_add_tail(&b->link, &sn->batches);
		sn->nbatches++;
	}
	*out = b;
	return atomic_read(&b->active) ? -EBUSY : 0;
}

/**
 * lst_test_add() - TEST, once its checks passed (spec 4.6 steps 3-5)
 * @sn: the current session
 * @req: the request, little-endian (lst_msg_unpack())
 * @dests: a client's destinations (tsr_ndest), little-endian; NULL for a
 *	server
 *
 * Return: 0 or -errno for the reply's status.
 */
int lst_test_add(struct lst_session *sn, const void *req,
		 const struct lnet_processid *dests)
{
	unsigned int ndest = lst_get32(req, LST_TSR_NDEST), i, j;
	bool client = *(lst_body((void *)req) + LST_TSR_IS_CLIENT);
	unsigned int service = lst_get32(req, LST_TSR_SERVICE);
	const struct lst_test_ops *ops = lst_test_ops(service);
	struct lst_batch *b;
	struct lst_test *t;
	int rc;

	if (!ops)
		return -ENOENT;	/* a service we do not serve (yet) */
	rc = lst_batch_get(sn, lst_get64(req, LST_TSR_BID), &b);
	if (rc)
		return rc;
	if (b->ntests >= LST_TESTS_MAX)
		return -ENOSPC;
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->batch = b;
	t->session = sn;
	t->ops = ops;
	t->service = service;
	t->client = client;
	t->loop = (s32)lst_get32(req, LST_TSR_LOOP);
	t->concur = lst_get32(req, LST_TSR_CONCUR);
	t->stop_onerr = *(lst_body((void *)req) + LST_TSR_STOP_ONERR);
	t->feats = get_unaligned_le32((const u8 *)req + LST_HDR_FEATS);
	memcpy(t->params, lst_body((void *)req) + LST_TSR_U,
	       sizeof(t->params));
	spin_lock_init(&t->lock);
	if (!client) {
		rc = lst_test_service_get(service);
		if (rc) {
			t->ops = NULL;
			lst_test_free(t);
			return rc;
		}
		goto add;
	}
	/* a bound per instance, and one for the node (4 GiB of units else) */
	if ((u64)ndest * t->concur > LST_UNITS_MAX ||
	    !lst_units_charge(ndest * t->concur)) {
		lst_test_free(t);
		return -ENOMEM;
	}
	t->charged = ndest * t->concur;
	t->nunits = t->charged;
	t->units = kvcalloc(t->nunits, sizeof(*t->units), GFP_KERNEL);
	if (!t->units) {
		t->nunits = 0;
		lst_test_free(t);
		return -ENOMEM;
	}
	for (i = 0; i < ndest; i++) {
		for (j = 0; j < t->concur; j++) {
			struct lst_unit *u = &t->units[i * t->concur + j];

			u->test = t;
			u->dest = dests[i];
		}
	}
	for (i = 0; i < t->nunits && !rc; i++)
		rc = ops->init ? ops->init(&t->units[i]) : 0;
	if (rc) {
		t->nunits = i - 1;	/* ->fini() those ->init() did */
		lst_test_free(t);
		return rc;
	}
add:
	list_add_tail(&t->link, &b->tests);
	b->ntests++;
	return 0;
}
