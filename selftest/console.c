// SPDX-License-Identifier: GPL-2.0
/*
 * The console's session (spec 7.1, 7.3-7.5): nodes, groups, batches and
 * tests as lst makes them, and what each command sends to the nodes.
 * netlink.c parses and checks the commands, takes lst_con.lock, checks
 * the session and its key, and calls these.
 *
 * Ownership: the session owns its groups and batches; a group holds a
 * use of each of its nodes (the node is freed with its last group); a
 * test holds a use of its two groups (a group used by a test cannot be
 * deleted).  Shutdown (session end, module unload): the pinger stops,
 * REMOVE_SESSION goes to the ACTIVE nodes, then batches, groups and
 * nodes are freed in that order.
 */
#include <linux/slab.h>
#include <linux/string.h>

#include <lnet/ctl.h>

#include "console.h"

struct lst_console lst_con = {
	.lock		= __MUTEX_INITIALIZER(lst_con.lock),
	.nodes		= LIST_HEAD_INIT(lst_con.nodes),
	.groups		= LIST_HEAD_INIT(lst_con.groups),
	.batches	= LIST_HEAD_INIT(lst_con.batches),
};

/* Batch ids are never reused, not even across sessions (spec 3.3). */
static u64 lst_con_bid;

struct lst_con_node *lst_con_node_find(const struct lnet_processid *id)
{
	struct lst_con_node *nd;

	list_for_each_entry(nd, &lst_con.nodes, link)
		if (nd->id.pid == id->pid && lnet_nid_equal(&nd->id.nid, &id->nid))
			return nd;
	return NULL;
}

struct lst_con_group *lst_con_group_find(const char *name)
{
	struct lst_con_group *grp;

	list_for_each_entry(grp, &lst_con.groups, link)
		if (!strcmp(grp->name, name))
			return grp;
	return NULL;
}

struct lst_con_batch *lst_con_batch_find(const char *name)
{
	struct lst_con_batch *bat;

	list_for_each_entry(bat, &lst_con.batches, link)
		if (!strcmp(bat->name, name))
			return bat;
	return NULL;
}

static void lst_con_node_put(struct lst_con_node *nd)
{
	if (--nd->uses)
		return;
	list_del(&nd->link);
	lst_con.nnodes--;
	kfree(nd);
}

/* The node @id, made UNKNOWN if new; a use taken. */
static struct lst_con_node *lst_con_node_get(const struct lnet_processid *id)
{
	struct lst_con_node *nd = lst_con_node_find(id);

	if (nd) {
		nd->uses++;
		return nd;
	}
	if (lst_con.nnodes >= LST_GENL_NODES_MAX)
		return ERR_PTR(-ENOSPC);
	nd = kzalloc(sizeof(*nd), GFP_KERNEL);
	if (!nd)
		return ERR_PTR(-ENOMEM);
	nd->id = *id;
	nd->state = LST_NODE_UNKNOWN;
	nd->uses = 1;
	list_add_tail(&nd->link, &lst_con.nodes);
	lst_con.nnodes++;
	return nd;
}

static bool lst_con_group_has(const struct lst_con_group *grp,
			      const struct lst_con_node *nd)
{
	unsigned int i;

	for (i = 0; i < grp->nnodes; i++)
		if (grp->nodes[i] == nd)
			return true;
	return false;
}

/* Nodes of @nodes[0..n) in state @states, compacted in place. */
static unsigned int lst_con_nodes_in(struct lst_con_node **nodes,
				     unsigned int n, u32 states)
{
	unsigned int i, k = 0;

	for (i = 0; i < n; i++)
		if (nodes[i]->state & states)
			nodes[k++] = nodes[i];
	return k;
}

/* MAKE_SESSION body: force, name (spec 3.4). */
static int lst_con_fill_mksn(unsigned int i, void *req, struct lst_bulk **bk,
			     void *arg)
{
	lst_put32(req, LST_MKSN_FORCE, lst_con.force);
	strscpy(lst_body(req) + LST_MKSN_NAME, lst_con.name, LST_NAME_SIZE);
	return 0;
}

/**
 * lst_con_vec() - room for @n node pointers (a transaction's targets)
 * @n: how many at most
 *
 * Return: the array (kvfree() it), or NULL.
 */
struct lst_con_node **lst_con_vec(unsigned int n)
{
	return kvmalloc_array(max(n, 1U), sizeof(struct lst_con_node *),
			      GFP_KERNEL);
}

/* MAKE_SESSION to the ones of @nodes not ACTIVE (results to @out). */
static int lst_con_mksn(struct lst_con_node **nodes, unsigned int n,
			struct lst_con_results *out)
{
	n = lst_con_nodes_in(nodes, n, ~LST_NODE_ACTIVE);
	if (!n)
		return 0;
	return lst_con_trans(LST_SVC_MAKE_SESSION, nodes, n,
			     LST_CON_RPC_TIMEOUT, lst_con_fill_mksn, NULL, out,
			     false);
}

/* REMOVE_SESSION to the ACTIVE ones of @nodes (results to @out). */
static int lst_con_rmsn(struct lst_con_node **nodes, unsigned int n,
			struct lst_con_results *out)
{
	n = lst_con_nodes_in(nodes, n, LST_NODE_ACTIVE);
	if (!n)
		return 0;
	return lst_con_trans(LST_SVC_REMOVE_SESSION, nodes, n,
			     LST_CON_RPC_TIMEOUT, NULL, NULL, out, false);
}

/*
 * The session's nodes of @ids, each once, into @v (room for @n): how
 * many.
 */
static unsigned int lst_con_nodes_of(const struct lnet_processid *ids,
				     unsigned int n, struct lst_con_node **v)
{
	unsigned int i, j, k = 0;

	for (i = 0; i < n; i++) {
		struct lst_con_node *nd = lst_con_node_find(&ids[i]);

		for (j = 0; nd && j < k && v[j] != nd; j++)
			;
		if (nd && j == k)
			v[k++] = nd;
	}
	return k;
}

static void lst_con_pinger_arm(void)
{
	queue_delayed_work(system_long_wq, &lst_con.pinger,
			   LST_CON_PING_INTERVAL * HZ);
}

int lst_con_session_new(u32 key, const char *name, u32 timeout, bool force,
			struct netlink_ext_ack *extack)
{
	struct lnet_ni_info *ni;
	int rc;

	if (lst_con.live) {
		if (!force) {
			NL_SET_ERR_MSG(extack,
				       "a session exists (--force ends it)");
			return -EEXIST;
		}
		lst_con_session_end();
	}
	/* the sid names the console by its first non-loopback NID */
	ni = kzalloc(sizeof(*ni), GFP_KERNEL);
	if (!ni)
		return -ENOMEM;
	rc = lnet_ni_info_get(1, ni);
	if (!rc)
		lst_con.sid.nid = lnet_nid_to_nid4(&ni->nid);
	kfree(ni);
	if (rc) {
		NL_SET_ERR_MSG(extack, "LNet has no network but 0@lo");
		return -ENETDOWN;
	}
	lst_con.sid.stamp = ktime_to_ms(ktime_get());
	lst_con.key = key;
	strscpy(lst_con.name, name, sizeof(lst_con.name));
	lst_con.feats = LST_FEATS_MASK;
	lst_con.timeout = timeout;
	lst_con.force = force;
	lst_con.last_used = jiffies;
	lst_con.live = true;
	rc = lst_con_batch_add("batch", extack);	/* the default batch */
	if (rc) {
		lst_con.live = false;
		return rc;
	}
	lst_con_pinger_arm();
	return 0;
}

static void lst_con_group_free(struct lst_con_group *grp)
{
	unsigned int i;

	for (i = 0; i < grp->nnodes; i++)
		lst_con_node_put(grp->nodes[i]);
	list_del(&grp->link);
	lst_con.ngroups--;
	kvfree(grp->nodes);
	kfree(grp);
}

static void lst_con_batch_free(struct lst_con_batch *bat)
{
	struct lst_con_test *t, *tmp;

	list_for_each_entry_safe(t, tmp, &bat->tests, link) {
		t->from->tests--;
		t->to->tests--;
		list_del(&t->link);
		kfree(t);
	}
	list_del(&bat->link);
	lst_con.nbatches--;
	kfree(bat);
}

/**
 * lst_con_session_end() - REMOVE_SESSION to every ACTIVE node, then free
 *	the session
 *
 * Context: lst_con.lock held, a session live.  The pinger is stopped
 * first: cancel_delayed_work() (it may be waiting for our lock: it finds
 * no session when it gets it).
 */
void lst_con_session_end(void)
{
	struct lst_con_batch *bat, *btmp;
	struct lst_con_group *grp, *gtmp;
	struct lst_con_node **v, *nd;
	unsigned int n = 0;

	cancel_delayed_work(&lst_con.pinger);
	v = lst_con_vec(lst_con.nnodes);
	if (v) {
		list_for_each_entry(nd, &lst_con.nodes, link)
			v[n++] = nd;
		lst_con_rmsn(v, n, NULL);
		kvfree(v);
	}
	list_for_each_entry_safe(bat, btmp, &lst_con.batches, link)
		lst_con_batch_free(bat);
	list_for_each_entry_safe(grp, gtmp, &lst_con.groups, link)
		lst_con_group_free(grp);
	WARN_ON(lst_con.nnodes);
	lst_con.live = false;
}

/* Add @id to @grp (no-op if there). */
static int lst_con_group_link(struct lst_con_group *grp,
			      const struct lnet_processid *id)
{
	struct lst_con_node *nd = lst_con_node_find(id);
	struct lst_con_node **v;

	if (nd && lst_con_group_has(grp, nd))
		return 0;
	v = kvrealloc(grp->nodes, grp->nnodes * sizeof(*v),
		      (grp->nnodes + 1) * sizeof(*v), GFP_KERNEL);
	if (!v)
		return -ENOMEM;
	grp->nodes = v;
	nd = lst_con_node_get(id);
	if (IS_ERR(nd))
		return PTR_ERR(nd);
	grp->nodes[grp->nnodes++] = nd;
	return 0;
}

int lst_con_group_add(const char *name, const struct lnet_processid *ids,
		      unsigned int n, struct lst_con_results *out,
		      struct netlink_ext_ack *extack)
{
	struct lst_con_group *grp = lst_con_group_find(name);
	bool created = !grp;
	struct lst_con_node **v;
	unsigned int i;
	int rc = 0;

	if (!grp) {
		if (lst_con.ngroups >= LST_GENL_GROUPS_MAX) {
			NL_SET_ERR_MSG(extack, "too many groups");
			return -ENOSPC;
		}
		grp = kzalloc(sizeof(*grp), GFP_KERNEL);
		if (!grp)
			return -ENOMEM;
		strscpy(grp->name, name, sizeof(grp->name));
		list_add_tail(&grp->link, &lst_con.groups);
		lst_con.ngroups++;
	}
	for (i = 0; i < n && !rc; i++)
		rc = lst_con_group_link(grp, &ids[i]);
	if (rc) {
		NL_SET_ERR_MSG(extack, "too many nodes in the session");
		if (created)
			lst_con_group_free(grp);
		return rc;
	}
	/* MAKE_SESSION to the listed nodes not ACTIVE (spec 7.3) */
	v = lst_con_vec(n);
	if (!v)
		return -ENOMEM;
	rc = lst_con_mksn(v, lst_con_nodes_of(ids, n, v), out);
	kvfree(v);
	return rc;
}

/* MAKE_SESSION to the nodes of @grp not ACTIVE (spec 7.3). */
int lst_con_group_refresh(struct lst_con_group *grp,
			  struct lst_con_results *out)
{
	struct lst_con_node **v = lst_con_vec(grp->nnodes);
	int rc;

	if (!v)
		return -ENOMEM;
	memcpy(v, grp->nodes, grp->nnodes * sizeof(*v));
	rc = lst_con_mksn(v, grp->nnodes, out);
	kvfree(v);
	return rc;
}

/* Drop @grp's @i-th node. */
static void lst_con_group_unlink(struct lst_con_group *grp, unsigned int i)
{
	lst_con_node_put(grp->nodes[i]);
	memmove(&grp->nodes[i], &grp->nodes[i + 1],
		(grp->nnodes - i - 1) * sizeof(grp->nodes[0]));
	grp->nnodes--;
}

int lst_con_group_clean(struct lst_con_group *grp, u32 states)
{
	unsigned int i = 0;

	if (grp->tests)
		return -EBUSY;
	while (i < grp->nnodes) {
		if (grp->nodes[i]->state & states)
			lst_con_group_unlink(grp, i);
		else
			i++;
	}
	return 0;
}

int lst_con_group_remove(struct lst_con_group *grp,
			 const struct lnet_processid *ids, unsigned int n,
			 struct lst_con_results *out,
			 struct netlink_ext_ack *extack)
{
	struct lst_con_node **v;
	unsigned int i, j, k = 0, listed;
	int rc;

	if (grp->tests) {
		NL_SET_ERR_MSG(extack, "the group is used by a test");
		return -EBUSY;
	}
	v = lst_con_vec(n);
	if (!v)
		return -ENOMEM;
	/* REMOVE_SESSION to those of @grp in no other group (spec 7.3) */
	listed = lst_con_nodes_of(ids, n, v);
	for (i = 0; i < listed; i++)
		if (lst_con_group_has(grp, v[i]) && v[i]->uses == 1)
			v[k++] = v[i];
	rc = lst_con_rmsn(v, k, out);
	kvfree(v);
	for (i = 0; i < n; i++) {
		struct lst_con_node *nd = lst_con_node_find(&ids[i]);

		for (j = 0; nd && j < grp->nnodes; j++) {
			if (grp->nodes[j] == nd) {
				lst_con_group_unlink(grp, j);
				break;
			}
		}
	}
	return rc;
}

int lst_con_group_del(struct lst_con_group *grp, struct lst_con_results *out,
		      struct netlink_ext_ack *extack)
{
	struct lst_con_node **v;
	unsigned int i, k = 0;
	int rc;

	if (grp->tests) {
		NL_SET_ERR_MSG(extack, "the group is used by a test");
		return -EBUSY;
	}
	v = lst_con_vec(grp->nnodes);
	if (!v)
		return -ENOMEM;
	for (i = 0; i < grp->nnodes; i++)
		if (grp->nodes[i]->uses == 1)
			v[k++] = grp->nodes[i];
	rc = lst_con_rmsn(v, k, out);
	kvfree(v);
	lst_con_group_free(grp);
	return rc;
}

int lst_con_batch_add(const char *name, struct netlink_ext_ack *extack)
{
	struct lst_con_batch *bat;

	if (lst_con_batch_find(name)) {
		NL_SET_ERR_MSG(extack, "the batch exists");
		return -EEXIST;
	}
	if (lst_con.nbatches >= LST_GENL_BATCHES_MAX) {
		NL_SET_ERR_MSG(extack, "too many batches");
		return -ENOSPC;
	}
	bat = kzalloc(sizeof(*bat), GFP_KERNEL);
	if (!bat)
		return -ENOMEM;
	strscpy(bat->name, name, sizeof(bat->name));
	bat->bid = ++lst_con_bid;
	INIT_LIST_HEAD(&bat->tests);
	list_add_tail(&bat->link, &lst_con.batches);
	lst_con.nbatches++;
	return 0;
}

/* What TEST requests of one round carry. */
struct lst_con_test_req {
	struct lst_con_batch	*bat;
	struct lst_con_test	*t;
	bool			client;
	s32			loop;
};

/* tsr_u of a BRW test (bulk v1, the session has BULK_LEN). */
static void lst_con_brw_params(u8 *u, const struct lst_con_test *t,
			       bool client)
{
	put_unaligned_le16(t->brw_opc, u);
	put_unaligned_le16(t->brw_check, u + 2);
	put_unaligned_le32(t->brw_size, u + 4);
	put_unaligned_le32(client ? t->brw_off : 0, u + 8);
}

/*
 * A TEST request (spec 3.4); a client's also gets its destination list
 * as the bulk: @span nodes of the servers' group from where the D:S
 * distribution says (spec 7.5).
 */
static int lst_con_fill_test(unsigned int i, void *req, struct lst_bulk **bk,
			     void *arg)
{
	struct lst_con_test_req *tr = arg;
	struct lst_con_test *t = tr->t;
	u8 *body = lst_body(req);
	unsigned int k;
	int first;
	u8 *e;

	lst_put64(req, LST_TSR_BID, tr->bat->bid);
	lst_put32(req, LST_TSR_SERVICE,
		  t->type == LST_TEST_BRW ? LST_SVC_BRW : LST_SVC_PING);
	lst_put32(req, LST_TSR_LOOP, (u32)tr->loop);
	lst_put32(req, LST_TSR_CONCUR, t->concur);
	body[LST_TSR_IS_CLIENT] = tr->client;
	body[LST_TSR_STOP_ONERR] = 1;
	if (t->type == LST_TEST_BRW)
		lst_con_brw_params(body + LST_TSR_U, t, tr->client);
	if (!tr->client)
		return 0;

	first = lst_dest_first(i, t->dist, t->span, t->to->nnodes);
	if (first < 0)
		return first;
	lst_put32(req, LST_TSR_NDEST, t->span);
	*bk = lst_bulk_alloc(t->span * LST_DEST_SIZE, 0, false);
	if (!*bk)
		return -ENOMEM;
	/* span <= 341: one page, the stock layout (spec 4.6, 8.3) */
	e = page_address((*bk)->kiov[0].bv_page);
	for (k = 0; k < t->span; k++, e += LST_DEST_SIZE) {
		struct lst_con_node *nd =
			t->to->nodes[(first + k) % t->to->nnodes];

		put_unaligned_le64(lnet_nid_to_nid4(&nd->id.nid), e);
		put_unaligned_le32(nd->id.pid, e + 8);
	}
	return 0;
}

/* Did every RPC of @out from @from on succeed, reply status 0? */
static bool lst_con_results_ok(const struct lst_con_results *out,
			       unsigned int from)
{
	unsigned int i;

	for (i = from; i < out->n; i++)
		if (out->res[i].rpc_errno ||
		    lst_get32(out->res[i].reply, LST_REP_STATUS))
			return false;
	return true;
}

static bool lst_con_all_active(const struct lst_con_group *grp)
{
	unsigned int i;

	for (i = 0; i < grp->nnodes; i++)
		if (grp->nodes[i]->state != LST_NODE_ACTIVE)
			return false;
	return true;
}

/**
 * lst_con_test_add() - add test @t (filled by the caller) to @bat
 * @bat: the batch
 * @t: the test; on success the batch owns it
 * @out: every node's result
 * @extack: why it was refused
 *
 * TEST to every server, then, if they all took it, to every client with
 * its destination list (spec 7.3).  Every node of both groups must be
 * ACTIVE.
 *
 * Return: 0 with @out->test_idx set (@t taken), 0 without (a node
 * refused it: see @out; @t not taken), or -errno (@t not taken).
 */
int lst_con_test_add(struct lst_con_batch *bat, struct lst_con_test *t,
		     struct lst_con_results *out,
		     struct netlink_ext_ack *extack)
{
	struct lst_con_test_req tr = { .bat = bat, .t = t };
	unsigned int first = out->n;
	int rc;

	if (bat->running) {
		NL_SET_ERR_MSG(extack, "the batch is running");
		return -EBUSY;
	}
	if (bat->ntests >= LST_GENL_TESTS_MAX) {
		NL_SET_ERR_MSG(extack, "too many tests in the batch");
		return -ENOSPC;
	}
	if (!t->from->nnodes || !t->to->nnodes) {
		NL_SET_ERR_MSG(extack, "a group is empty");
		return -EINVAL;
	}
	if (t->span > t->to->nnodes) {
		NL_SET_ERR_MSG(extack, "span is larger than the servers' group");
		return -EINVAL;
	}
	if (!lst_con_all_active(t->from) || !lst_con_all_active(t->to)) {
		NL_SET_ERR_MSG(extack, "a node of the groups is not active");
		return -ENETDOWN;
	}
	tr.loop = lst_server_loop(t->from->nnodes, t->to->nnodes, t->dist,
				  t->span, t->concur);
	rc = lst_con_trans(LST_SVC_TEST, t->to->nodes, t->to->nnodes,
			   LST_CON_RPC_TIMEOUT, lst_con_fill_test, &tr, out,
			   false);
	if (rc || !lst_con_results_ok(out, first))
		goto refused;
	tr.client = true;
	tr.loop = t->loop;
	rc = lst_con_trans(LST_SVC_TEST, t->from->nodes, t->from->nnodes,
			   LST_CON_RPC_TIMEOUT, lst_con_fill_test, &tr, out,
			   false);
	if (rc || !lst_con_results_ok(out, first))
		goto refused;
	t->idx = ++bat->ntests;
	t->from->tests++;
	t->to->tests++;
	list_add_tail(&t->link, &bat->tests);
	out->test_idx = t->idx;
	return 0;
refused:
	/* nodes that took it keep an instance until their session ends */
	return rc;
}

/*
 * The batch's clients (or servers) of test @idx (0: of every test), each
 * once, into @nodes (room for lst_con.nnodes): how many.
 */
unsigned int lst_con_batch_nodes(struct lst_con_batch *bat, bool server,
				 unsigned int idx, struct lst_con_node **nodes)
{
	struct lst_con_test *t;
	unsigned int n = 0, i, k;

	list_for_each_entry(t, &bat->tests, link) {
		struct lst_con_group *grp = server ? t->to : t->from;

		if (idx && t->idx != idx)
			continue;
		for (i = 0; i < grp->nnodes; i++) {
			for (k = 0; k < n && nodes[k] != grp->nodes[i]; k++)
				;
			if (k == n)
				nodes[n++] = grp->nodes[i];
		}
	}
	return n;
}

struct lst_con_bar {
	u64	bid;
	u32	opc;
	u32	idx;
	u32	arg;
};

static int lst_con_fill_bar(unsigned int i, void *req, struct lst_bulk **bk,
			    void *arg)
{
	struct lst_con_bar *b = arg;

	lst_put64(req, LST_BAR_BID, b->bid);
	lst_put32(req, LST_BAR_OPC, b->opc);
	lst_put32(req, LST_BAR_TESTIDX, b->idx);
	lst_put32(req, LST_BAR_ARG, b->arg);
	return 0;
}

/* BATCH @b to the batch's clients in @states (test @idx's, 0 all). */
static int lst_con_bar_trans(struct lst_con_batch *bat, struct lst_con_bar *b,
			     bool server, u32 states, u32 timeout,
			     struct lst_con_results *out,
			     struct netlink_ext_ack *extack)
{
	struct lst_con_node **v;
	unsigned int n, all;
	int rc = 0;

	v = lst_con_vec(lst_con.nnodes);
	if (!v)
		return -ENOMEM;
	all = lst_con_batch_nodes(bat, server, b->idx, v);
	n = lst_con_nodes_in(v, all, states);
	if (states == LST_NODE_ACTIVE && b->opc == 1 && n != all) {
		NL_SET_ERR_MSG(extack, "a client node is not active");
		rc = -ENETDOWN;
	} else if (n) {
		rc = lst_con_trans(LST_SVC_BATCH, v, n, timeout,
				   lst_con_fill_bar, b, out, false);
	}
	kvfree(v);
	return rc;
}

int lst_con_batch_run(struct lst_con_batch *bat, u32 timeout,
		      struct lst_con_results *out,
		      struct netlink_ext_ack *extack)
{
	struct lst_con_bar b = { .bid = bat->bid, .opc = 1, .arg = timeout };
	int rc;

	if (!bat->ntests) {
		NL_SET_ERR_MSG(extack, "the batch has no test");
		return -EINVAL;
	}
	rc = lst_con_bar_trans(bat, &b, false, LST_NODE_ACTIVE,
			       LST_CON_RPC_TIMEOUT, out, extack);
	if (!rc)
		bat->running = true;
	return rc;
}

int lst_con_batch_stop(struct lst_con_batch *bat, bool force,
		       struct lst_con_results *out)
{
	struct lst_con_bar b = { .bid = bat->bid, .opc = 2, .arg = force };
	int rc;

	rc = lst_con_bar_trans(bat, &b, false, LST_NODE_ACTIVE,
			       LST_CON_RPC_TIMEOUT, out, NULL);
	if (!rc)
		bat->running = false;
	return rc;
}

int lst_con_batch_query(struct lst_con_batch *bat, u32 idx, bool server,
			u32 timeout, struct lst_con_results *out,
			struct netlink_ext_ack *extack)
{
	struct lst_con_bar b = { .bid = bat->bid, .opc = 3, .idx = idx };

	if (idx > bat->ntests) {
		NL_SET_ERR_MSG(extack, "no such test in the batch");
		return -ENOENT;
	}
	return lst_con_bar_trans(bat, &b, server, ~0U, timeout, out, extack);
}

int lst_con_stat(struct lst_con_node **nodes, unsigned int n, u32 timeout,
		 struct lst_con_results *out)
{
	return lst_con_trans(LST_SVC_QUERY_STAT, nodes, n, timeout, NULL,
			     NULL, out, false);
}

int lst_con_debug(struct lst_con_node **nodes, unsigned int n, u32 timeout,
		  struct lst_con_results *out)
{
	return lst_con_trans(LST_SVC_DEBUG, nodes, n, timeout, NULL, NULL,
			     out, false);
}

/*
 * The pinger (spec 7.4): a console idle longer than its timeout ends its
 * session; otherwise DEBUG keeps alive the sessions of ACTIVE nodes that
 * have not replied for half their timeout (or never expire: every tick).
 */
static void lst_con_pinger(struct work_struct *work)
{
	struct lst_con_node **v, *nd;
	unsigned int n = 0;

	mutex_lock(&lst_con.lock);
	if (!lst_con.live)
		goto out;
	if (time_after(jiffies, lst_con.last_used + lst_con.timeout * HZ)) {
		pr_info("lnet_selftest: console session \"%s\" idle for %u s: ended\n",
			lst_con.name, lst_con.timeout);
		lst_con_session_end();
		goto out;
	}
	v = lst_con_vec(lst_con.nnodes);
	if (v) {
		list_for_each_entry(nd, &lst_con.nodes, link) {
			unsigned long half = nd->timeout * HZ / 2;

			if (nd->state == LST_NODE_ACTIVE &&
			    (!nd->timeout ||
			     time_after_eq(jiffies, nd->last_reply + half)))
				v[n++] = nd;
		}
		if (n)
			lst_con_trans(LST_SVC_DEBUG, v, n,
				      LST_CON_PING_INTERVAL - 2, NULL, NULL,
				      NULL, true);
		kvfree(v);
	}
	lst_con_pinger_arm();
out:
	mutex_unlock(&lst_con.lock);
}

int lst_console_start(void)
{
	INIT_DELAYED_WORK(&lst_con.pinger, lst_con_pinger);
	return lst_netlink_init();
}

/* Netlink first: no command can come after; then the session ends. */
void lst_console_stop(void)
{
	lst_netlink_fini();
	mutex_lock(&lst_con.lock);
	if (lst_con.live)
		lst_con_session_end();
	mutex_unlock(&lst_con.lock);
	cancel_delayed_work_sync(&lst_con.pinger);
}
