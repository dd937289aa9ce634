// SPDX-License-Identifier: GPL-2.0
/*
 * Console transactions (spec 7.2): one framework RPC per node, all posted
 * at once, waited for until each has finished or the timeout expired;
 * then every node's state follows its reply's sid, and a node whose RPC
 * timed out is DOWN.  The caller holds lst_con.lock throughout; the RPCs
 * complete into the transaction (a count and a completion), never into
 * the console.
 */
#include <linux/slab.h>

#include "console.h"

struct lst_con_trans;

/* One node's RPC. */
struct lst_con_call {
	struct lst_con_trans	*trans;
	struct lst_crpc		*rpc;
	struct lst_bulk		*bulk;
};

struct lst_con_trans {
	atomic_t		pending;
	struct completion	done;
	struct lst_con_call	calls[];
};

static void lst_con_call_done(struct lst_crpc *rpc)
{
	struct lst_con_call *c = rpc->priv;

	if (atomic_dec_and_test(&c->trans->pending))
		complete(&c->trans->done);
}

/**
 * lst_con_results_alloc() - room for @max nodes' results
 * @cmd: the command they answer (LST_CMD_*)
 * @max: results at most
 *
 * Return: the results (none yet), or NULL.
 */
struct lst_con_results *lst_con_results_alloc(unsigned int cmd,
					      unsigned int max)
{
	struct lst_con_results *r;

	r = kvzalloc(struct_size(r, res, max), GFP_KERNEL);
	if (r) {
		r->cmd = cmd;
		r->max = max;
	}
	return r;
}

/* After the RPC to @nd ended: its new state; the result in @r. */
static void lst_con_call_result(struct lst_con_node *nd, unsigned int svc,
				const struct lst_crpc *rpc, unsigned int timeout,
				bool pinger, struct lst_con_result *r)
{
	if (!rpc->status) {
		u64 nid = lst_get64(rpc->reply, LST_REP_SID + LST_SID_NID);
		u64 stamp = lst_get64(rpc->reply, LST_REP_SID + LST_SID_STAMP);

		nd->state = lst_node_state(&lst_con.sid, nid, (s64)stamp);
		nd->last_reply = jiffies;
		if (svc == LST_SVC_MAKE_SESSION)
			nd->timeout = lst_get32(rpc->reply,
						LST_MKSN_REP_TIMEOUT);
	} else if (rpc->status == -ETIMEDOUT && !pinger && timeout >= 6) {
		/* a short timeout says nothing of the node (spec 7.2) */
		nd->state = LST_NODE_DOWN;
	}
	if (!r)
		return;
	r->id = nd->id;
	r->state = nd->state;
	r->rpc_errno = rpc->status ? -rpc->status : 0;
	if (rpc->status == -ETIMEDOUT && timeout < 6)
		r->rpc_errno = EINTR;
	if (!rpc->status)
		memcpy(r->reply, rpc->reply, LST_MSG_SIZE);
}

static void lst_con_trans_free(struct lst_con_trans *t, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (t->calls[i].rpc)
			lst_crpc_free(t->calls[i].rpc);
		lst_bulk_free(t->calls[i].bulk);
	}
	kvfree(t);
}

/**
 * lst_con_trans() - one framework RPC to each of @nodes, and the outcome
 * @svc: the framework service (enum lst_service)
 * @nodes: the nodes, in order
 * @n: how many
 * @timeout: seconds to wait for them all
 * @fill: fills each request body past its sid (NULL: the sid only)
 * @arg: for @fill
 * @out: NULL, or where each node's result is appended
 * @pinger: the pinger's round: a timeout does not mark nodes DOWN
 *
 * Context: process context, lst_con.lock held; sleeps up to @timeout
 * (a fatal signal aborts the RPCs still out, with -EINTR).
 * Return: 0 when every RPC was posted (each may still have failed: see
 * the results), or -errno when the transaction could not be made.
 */
int lst_con_trans(unsigned int svc, struct lst_con_node **nodes,
		  unsigned int n, unsigned int timeout, lst_con_fill_t fill,
		  void *arg, struct lst_con_results *out, bool pinger)
{
	struct lst_con_trans *t;
	unsigned int i;
	int rc = 0;

	if (out && out->n + n > out->max)
		return -E2BIG;
	t = kvzalloc(struct_size(t, calls, n), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	init_completion(&t->done);
	atomic_set(&t->pending, 1);	/* ours, until all are posted */

	for (i = 0; i < n; i++) {
		struct lst_con_call *c = &t->calls[i];
		void *req;

		c->trans = t;
		c->rpc = lst_crpc_alloc(&nodes[i]->id, svc, lst_con.feats, NULL,
					lst_con_call_done, c);
		if (!c->rpc) {
			rc = -ENOMEM;
			goto out;
		}
		req = c->rpc->req;
		if (svc == LST_SVC_TEST) {
			lst_put64(req, LST_TSR_SID + LST_SID_NID, lst_con.sid.nid);
			lst_put64(req, LST_TSR_SID + LST_SID_STAMP,
				  (u64)lst_con.sid.stamp);
		} else {
			lst_put64(req, LST_REQ_SID + LST_SID_NID, lst_con.sid.nid);
			lst_put64(req, LST_REQ_SID + LST_SID_STAMP,
				  (u64)lst_con.sid.stamp);
		}
		if (fill) {
			rc = fill(i, req, &c->bulk, arg);
			if (rc)
				goto out;
			c->rpc->bulk = c->bulk;
		}
	}
	for (i = 0; i < n; i++) {
		atomic_inc(&t->pending);
		lst_crpc_post(t->calls[i].rpc, timeout);
	}
	if (!atomic_dec_and_test(&t->pending)) {
		if (wait_for_completion_killable(&t->done)) {
			for (i = 0; i < n; i++)
				lst_crpc_abort(t->calls[i].rpc, -EINTR);
			wait_for_completion(&t->done);
		}
	}
	for (i = 0; i < n; i++)
		lst_con_call_result(nodes[i], svc, t->calls[i].rpc, timeout,
				    pinger, out ? &out->res[out->n++] : NULL);
out:
	lst_con_trans_free(t, n);
	return rc;
}
