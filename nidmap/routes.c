// SPDX-License-Identifier: GPL-2.0
/*
 * Routes from the table (Documentation/nidmap.rst, "Routes from the
 * table"): a subscriber started with ROUTES installs, for each router
 * entry of its copy (flag ROUTER), a route to each net the router
 * routes to, through the first of the router's NIDs (failover order)
 * that the core takes as a gateway (not on that net itself, on a net
 * of ours).
 *
 * Only routes this code added are ever removed: a route the core
 * refuses with -EEXIST (the net is local, or a route to it through the
 * same gateway exists: the admin's) is not ours and is left alone.  A
 * router's routes are reconsidered only when its entry changes (its
 * NIDs or nets): a route still valid (its net still routed, its gateway
 * still one of the router's NIDs) is kept, the others are removed, the
 * nets not covered are added.  A router whose entry is deleted, or no
 * longer says ROUTER, loses all its routes.  A net that cannot be routed
 * (no NID of the router on a net of ours, or the core refuses the
 * route) is skipped and counted, never an error.
 *
 * The caller walks its copy: nidmap_routes_begin(), nidmap_routes_entry()
 * for each entry, nidmap_routes_end().  No locking here: the caller
 * serialises.  The route operations are the caller's (KUnit fakes them).
 */
#include <linux/slab.h>
#include <linux/string.h>

#include <kunit/visibility.h>

#include "node.h"

/**
 * struct nidmap_rtr - one router's routes
 * @list: in nidmap_routes.rtrs
 * @seen: in the walk in progress
 * @nroutes: routes in @routes
 * @last: the entry the routes were computed from
 * @routes: the routes installed (ours)
 */
struct nidmap_rtr {
	struct list_head	list;
	bool			seen;
	u8			nroutes;
	struct nidmap_rec	last;
	struct nidmap_route	routes[NIDMAP_NETS_MAX];
};

/**
 * nidmap_routes_init() - no router, no route
 * @rs: the state
 * @ops: how routes are added and deleted
 * @arg: for @ops
 */
void nidmap_routes_init(struct nidmap_routes *rs,
			const struct nidmap_routes_ops *ops, void *arg)
{
	memset(rs, 0, sizeof(*rs));
	INIT_LIST_HEAD(&rs->rtrs);
	rs->ops = ops;
	rs->arg = arg;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_routes_init);

/**
 * nidmap_routes_begin() - a walk of the copy starts
 * @rs: the state
 */
void nidmap_routes_begin(struct nidmap_routes *rs)
{
	struct nidmap_rtr *r;

	list_for_each_entry(r, &rs->rtrs, list)
		r->seen = false;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_routes_begin);

static struct nidmap_rtr *nidmap_rtr_find(struct nidmap_routes *rs,
					  const char *name)
{
	struct nidmap_rtr *r;

	list_for_each_entry(r, &rs->rtrs, list)
		if (!strcmp(r->last.name, name))
			return r;
	return NULL;
}

/* The same NIDs in the same order and the same nets: nothing to do. */
static bool nidmap_rtr_same(const struct nidmap_rec *a,
			    const struct nidmap_rec *b)
{
	unsigned int i;

	if (a->nnids != b->nnids || a->nnets != b->nnets ||
	    memcmp(a->nets, b->nets, a->nnets * sizeof(a->nets[0])))
		return false;
	for (i = 0; i < a->nnids; i++)
		if (!lnet_nid_equal(&a->nids[i], &b->nids[i]))
			return false;
	return true;
}

static bool nidmap_rec_has_net(const struct nidmap_rec *rec, u32 net)
{
	unsigned int i;

	for (i = 0; i < rec->nnets; i++)
		if (rec->nets[i] == net)
			return true;
	return false;
}

static bool nidmap_rec_has_nid(const struct nidmap_rec *rec,
			       const struct lnet_nid *nid)
{
	unsigned int i;

	for (i = 0; i < rec->nnids; i++)
		if (lnet_nid_equal(&rec->nids[i], nid))
			return true;
	return false;
}

static bool nidmap_rtr_routes_net(const struct nidmap_rtr *r, u32 net)
{
	unsigned int i;

	for (i = 0; i < r->nroutes; i++)
		if (r->routes[i].net == net)
			return true;
	return false;
}

/* @r's routes that @rec (NULL: none) no longer gives go. */
static void nidmap_rtr_prune(struct nidmap_routes *rs, struct nidmap_rtr *r,
			     const struct nidmap_rec *rec)
{
	unsigned int i, n = 0;

	for (i = 0; i < r->nroutes; i++) {
		struct nidmap_route *rt = &r->routes[i];

		if (rec && nidmap_rec_has_net(rec, rt->net) &&
		    nidmap_rec_has_nid(rec, &rt->gw)) {
			r->routes[n++] = *rt;
			continue;
		}
		rs->ops->del(rs->arg, rt->net, &rt->gw);
		rs->ctr.removed++;
		rs->ctr.installed--;
	}
	r->nroutes = n;
}

/* A route to each of @rec's nets @r has none to, through its first NID. */
static void nidmap_rtr_add(struct nidmap_routes *rs, struct nidmap_rtr *r,
			   const struct nidmap_rec *rec)
{
	unsigned int i, j;
	int rc;

	for (i = 0; i < rec->nnets; i++) {
		u32 net = rec->nets[i];

		if (nidmap_rtr_routes_net(r, net))
			continue;
		rc = -EHOSTUNREACH;
		for (j = 0; j < rec->nnids; j++) {
			/* Its NID on @net itself is no gateway to it. */
			if (lnet_nid_net(&rec->nids[j]) == net)
				continue;
			rc = rs->ops->add(rs->arg, net, &rec->nids[j]);
			if (rc != -EHOSTUNREACH)
				break;
		}
		if (!rc) {
			r->routes[r->nroutes].net = net;
			r->routes[r->nroutes].gw = rec->nids[j];
			r->nroutes++;
			rs->ctr.added++;
			rs->ctr.installed++;
		} else if (rc != -EEXIST) {
			rs->ctr.skipped++;	/* not the admin's: none at all */
		}
	}
}

/**
 * nidmap_routes_entry() - an entry of the copy, in the walk
 * @rs: the state
 * @rec: the entry (live); entries without ROUTER are passed over
 *
 * A router's entry seen for the first time, or changed since its routes
 * were installed, has them brought in line (pruned, then added).
 */
void nidmap_routes_entry(struct nidmap_routes *rs,
			 const struct nidmap_rec *rec)
{
	struct nidmap_rtr *r;

	if (!(rec->flags & NIDMAP_R_ROUTER) ||
	    rec->flags & NIDMAP_R_DELETED)
		return;
	r = nidmap_rtr_find(rs, rec->name);
	if (r && nidmap_rtr_same(&r->last, rec)) {
		r->seen = true;
		return;
	}
	if (!r) {
		if (rs->nrtrs >= NIDMAP_ROUTERS_MAX) {
			rs->ctr.skipped += rec->nnets;
			return;
		}
		r = kzalloc(sizeof(*r), GFP_KERNEL);
		if (!r) {
			rs->ctr.skipped += rec->nnets;
			return;
		}
		list_add_tail(&r->list, &rs->rtrs);
		rs->nrtrs++;
	}
	r->seen = true;
	nidmap_rtr_prune(rs, r, rec);
	nidmap_rtr_add(rs, r, rec);
	r->last = *rec;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_routes_entry);

/**
 * nidmap_routes_end() - the walk is over
 * @rs: the state
 *
 * Routers the walk did not see (deleted, or no longer ROUTER) lose the
 * routes installed through them.
 */
void nidmap_routes_end(struct nidmap_routes *rs)
{
	struct nidmap_rtr *r, *tmp;

	list_for_each_entry_safe(r, tmp, &rs->rtrs, list) {
		if (r->seen)
			continue;
		nidmap_rtr_prune(rs, r, NULL);
		list_del(&r->list);
		rs->nrtrs--;
		kfree(r);
	}
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_routes_end);

/**
 * nidmap_routes_fini() - every route installed is removed
 * @rs: the state
 */
void nidmap_routes_fini(struct nidmap_routes *rs)
{
	nidmap_routes_begin(rs);
	nidmap_routes_end(rs);
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_routes_fini);
