// SPDX-License-Identifier: GPL-2.0
/*
 * The route table: for each remote net, the routes to it through
 * gateways on our local nets (spec: lnet-routing.md section 2).
 *
 * Ownership: the table owns its remote nets and holds one reference on
 * each route (kref).  Readers walk it under rcu_read_lock() and take a
 * reference (lnet_route_get()) to keep a route past their RCU section;
 * writers hold rt_mutex.  A route leaves its list with list_del_rcu()
 * and the table's reference is dropped; the last put frees it after a
 * grace period.  A remote net goes with its last route.
 *
 * A route names its gateway by NID, not by a held peer: whether two
 * NIDs are one gateway is asked of the peer table at each change
 * (multi-rail gateways, spec 2.2 "same gateway peer"), so that the peer
 * table's own teardown (lnet_peers_free()) owes nothing to routes.  The
 * node's table is emptied when LNet stops (lnet_routes_flush(), before
 * the peers go) and loses the routes through a gateway with a NID on a
 * local net that is deleted (lnet_routes_net_deleted()).
 *
 * The send path asks the node's table for a gateway under the LNet lock
 * (lnet_route_select_locked(), lnet_route_is_gateway_locked(); the
 * routing choice as a whole is lnet/route-select.c).
 */
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include <lnet/lib-lnet.h>
#include <lnet/route.h>

#include "peer.h"

/* Stock's text for both: the remote net is local, or the route exists. */
#define LNET_ROUTE_EEXIST_MSG \
	"Route already exists or the specified network is local"

/**
 * lnet_route_table_init() - an empty table
 * @t: the table
 * @env: the node it serves
 * @seed: of the generator that places added routes (spec 2.2: spreads
 *	nodes of one configuration over the gateways)
 */
void lnet_route_table_init(struct lnet_route_table *t,
			   const struct lnet_route_env *env, u64 seed)
{
	hash_init(t->rt_nets);
	mutex_init(&t->rt_mutex);
	t->rt_env = env;
	prandom_seed_state(&t->rt_rnd, seed);
	t->rt_count = 0;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_route_table_init);

/**
 * lnet_route_get() - hold a route found under rcu_read_lock()
 * @r: the route
 *
 * A reader may meet a route a writer has just removed and put for the
 * last time (it is freed only after the grace period): that one cannot
 * be held.
 *
 * Context: under rcu_read_lock().
 * Return: true if @r is now held, false if it is going.
 */
bool lnet_route_get(struct lnet_route *r)
{
	return kref_get_unless_zero(&r->lr_ref);
}

static void lnet_route_release(struct kref *ref)
{
	struct lnet_route *r = container_of(ref, struct lnet_route, lr_ref);

	kfree_rcu(r, lr_rcu);
}

/**
 * lnet_route_put() - drop a reference to a route
 * @r: the route
 */
void lnet_route_put(struct lnet_route *r)
{
	kref_put(&r->lr_ref, lnet_route_release);
}

static struct lnet_remotenet *lnet_rnet_find(struct lnet_route_table *t,
					     u32 net)
{
	struct lnet_remotenet *rnet;

	hash_for_each_possible_rcu(t->rt_nets, rnet, lrn_hash, net,
				   lockdep_is_held(&t->rt_mutex))
		if (rnet->lrn_net == net)
			return rnet;
	return NULL;
}

static u32 lnet_route_hops_rank(u32 hops)
{
	return hops == LNET_ROUTE_HOPS_UNSET ? 1 : hops;
}

/* Can a route to @net through @gw be?  If not, why in @extack. */
static int lnet_route_check(struct lnet_route_table *t, u32 net,
			    const struct lnet_nid *gw, u32 hops,
			    struct netlink_ext_ack *extack)
{
	u32 gw_net = lnet_nid_net(gw);

	if (lnet_nid_is_any(gw) || lnet_net_type(gw_net) == LNET_LND_LO) {
		NL_SET_ERR_MSG(extack, "the gateway must be a NID other than 0@lo");
		return -EINVAL;
	}
	if (net == LNET_NET_ANY || lnet_net_type(net) == LNET_LND_LO) {
		NL_SET_ERR_MSG(extack, "the remote network must be a network other than lo");
		return -EINVAL;
	}
	if (gw_net == net) {
		NL_SET_ERR_MSG(extack, "the gateway is on the remote network itself");
		return -EINVAL;
	}
	if (hops != LNET_ROUTE_HOPS_UNSET &&
	    (hops < 1 || hops > LNET_ROUTE_HOPS_MAX)) {
		NL_SET_ERR_MSG(extack, "hop must be 1..255, or -1 for unset");
		return -EINVAL;
	}
	if (t->rt_env->net_local(net)) {
		NL_SET_ERR_MSG(extack, "Route already exists or the specified network is local");
		return -EEXIST;
	}
	if (!t->rt_env->net_local(gw_net)) {
		NL_SET_ERR_MSG(extack, "No interface configured on the same net as gateway");
		return -EHOSTUNREACH;
	}
	return 0;
}

/**
 * lnet_route_table_add() - add a route to @net through @gw
 * @t: the table
 * @net: the remote net
 * @gw: the gateway NID, on a local net
 * @hops: 1..255 or LNET_ROUTE_HOPS_UNSET
 * @priority: 0 best
 * @extack: where to say why not
 *
 * The checks and errors of stock's lnet_add_route() (spec 2.2), in its
 * order.  The route goes at a random place in its net's list.
 *
 * Context: Process context.
 * Return: 0, -EINVAL, -EEXIST (the net is local, or a route to it
 * through the same gateway peer exists), -EHOSTUNREACH (the gateway is
 * on no local net), -ENOSPC or -ENOMEM; on error nothing changed.
 */
int lnet_route_table_add(struct lnet_route_table *t, u32 net,
			 const struct lnet_nid *gw, u32 hops, u32 priority,
			 struct netlink_ext_ack *extack)
{
	struct lnet_remotenet *rnet, *new_rnet;
	struct lnet_route *r, *route;
	struct list_head *at;
	unsigned int len, pos;
	int rc;

	route = kzalloc(sizeof(*route), GFP_KERNEL);
	new_rnet = kzalloc(sizeof(*new_rnet), GFP_KERNEL);
	if (!route || !new_rnet) {
		kfree(route);
		kfree(new_rnet);
		return -ENOMEM;
	}
	kref_init(&route->lr_ref);
	route->lr_net = net;
	route->lr_gateway = *gw;
	route->lr_hops = hops;
	route->lr_priority = priority;
	route->lr_alive = !(t->rt_env->start_dead && t->rt_env->start_dead());

	mutex_lock(&t->rt_mutex);
	rc = lnet_route_check(t, net, gw, hops, extack);
	if (rc)
		goto out;
	rnet = lnet_rnet_find(t, net);
	len = 0;
	if (rnet) {
		list_for_each_entry(r, &rnet->lrn_routes, lr_list) {
			if (t->rt_env->same_gateway(&r->lr_gateway, gw)) {
				NL_SET_ERR_MSG(extack, LNET_ROUTE_EEXIST_MSG);
				rc = -EEXIST;
				goto out;
			}
			len++;
		}
	}
	if (t->rt_count >= LNET_ROUTES_MAX) {
		NL_SET_ERR_MSG(extack, "too many routes");
		rc = -ENOSPC;
		goto out;
	}
	if (!rnet) {
		rnet = new_rnet;
		new_rnet = NULL;
		rnet->lrn_net = net;
		INIT_LIST_HEAD(&rnet->lrn_routes);
		hash_add_rcu(t->rt_nets, &rnet->lrn_hash, net);
	}
	/* after the first @pos routes: uniform over 0..len (spec 2.2) */
	pos = reciprocal_scale(prandom_u32_state(&t->rt_rnd), len + 1);
	at = &rnet->lrn_routes;
	list_for_each_entry(r, &rnet->lrn_routes, lr_list) {
		if (!pos--)
			break;
		at = &r->lr_list;
	}
	list_add_rcu(&route->lr_list, at);
	route = NULL;
	t->rt_count++;
out:
	mutex_unlock(&t->rt_mutex);
	kfree(route);
	kfree(new_rnet);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_route_table_add);

/* Unlink @r (and its net if it was the last); the caller holds rt_mutex. */
static void lnet_route_unlink(struct lnet_route_table *t,
			      struct lnet_remotenet *rnet,
			      struct lnet_route *r)
{
	list_del_rcu(&r->lr_list);
	t->rt_count--;
	lnet_route_put(r);
	if (list_empty(&rnet->lrn_routes)) {
		hash_del_rcu(&rnet->lrn_hash);
		kfree_rcu(rnet, lrn_rcu);
	}
}

/* Unlink the routes of @rnet that @gw (NULL: any) matches; how many. */
static unsigned int lnet_rnet_del(struct lnet_route_table *t,
				  struct lnet_remotenet *rnet,
				  const struct lnet_nid *gw)
{
	struct lnet_route *r, *tmp;
	unsigned int n = 0, left = 0;

	list_for_each_entry(r, &rnet->lrn_routes, lr_list)
		left++;
	list_for_each_entry_safe(r, tmp, &rnet->lrn_routes, lr_list) {
		if (gw && !t->rt_env->same_gateway(&r->lr_gateway, gw))
			continue;
		n++;
		/* the last unlink frees rnet: stop before touching it */
		if (!--left) {
			lnet_route_unlink(t, rnet, r);
			break;
		}
		lnet_route_unlink(t, rnet, r);
	}
	return n;
}

/**
 * lnet_route_table_del() - delete routes
 * @t: the table
 * @net: the remote net, or LNET_NET_ANY for every one
 * @gw: the gateway (any NID of its peer), or NULL for every one
 * @extack: where to say why not
 *
 * As stock's lnet_del_route() (spec 2.3): -ENOENT only when @net is a
 * net without routes; otherwise 0, even if no route matched.
 *
 * Context: Process context.
 * Return: 0 or -ENOENT.
 */
int lnet_route_table_del(struct lnet_route_table *t, u32 net,
			 const struct lnet_nid *gw,
			 struct netlink_ext_ack *extack)
{
	struct lnet_remotenet *rnet;
	struct hlist_node *tmp;
	int rc = 0;
	int bkt;

	mutex_lock(&t->rt_mutex);
	if (net != LNET_NET_ANY) {
		rnet = lnet_rnet_find(t, net);
		if (rnet) {
			lnet_rnet_del(t, rnet, gw);
		} else {
			NL_SET_ERR_MSG(extack, "no route to that network");
			rc = -ENOENT;
		}
	} else {
		hash_for_each_safe(t->rt_nets, bkt, tmp, rnet, lrn_hash)
			lnet_rnet_del(t, rnet, gw);
	}
	mutex_unlock(&t->rt_mutex);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_route_table_del);

/**
 * lnet_route_table_del_gw_net() - a local net is gone: its gateways' routes
 * @t: the table
 * @net: the local net deleted
 *
 * Deletes every route, to any net, through a gateway with a NID on @net
 * (stock's lnet_peer_net_del_routes(), spec 2.4).
 *
 * Context: Process context.
 * Return: how many routes went.
 */
unsigned int lnet_route_table_del_gw_net(struct lnet_route_table *t,
					 u32 net)
{
	struct lnet_remotenet *rnet;
	struct lnet_route *r, *rtmp;
	struct hlist_node *tmp;
	unsigned int n = 0;
	int bkt;

	mutex_lock(&t->rt_mutex);
	hash_for_each_safe(t->rt_nets, bkt, tmp, rnet, lrn_hash) {
		list_for_each_entry_safe(r, rtmp, &rnet->lrn_routes, lr_list) {
			bool last = list_is_last(&r->lr_list,
						 &rnet->lrn_routes);

			if (t->rt_env->gateway_on_net(&r->lr_gateway, net)) {
				n++;
				lnet_route_unlink(t, rnet, r);
			}
			if (last)
				break;	/* rnet may be freed */
		}
	}
	mutex_unlock(&t->rt_mutex);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_route_table_del_gw_net);

/**
 * lnet_route_table_flush() - delete every route
 * @t: the table
 *
 * Context: Process context.
 */
void lnet_route_table_flush(struct lnet_route_table *t)
{
	lnet_route_table_del(t, LNET_NET_ANY, NULL, NULL);
}
EXPORT_SYMBOL_IF_KUNIT(lnet_route_table_flush);

/* Is @r better than @best (NULL: none yet)?  Spec 3.2 steps 2b-2c, 4. */
static bool lnet_route_better(const struct lnet_route *r,
			      const struct lnet_gw_rank *rk,
			      const struct lnet_route *best,
			      const struct lnet_gw_rank *bk)
{
	u32 rh, bh;
	int c;

	if (!best)
		return true;
	if (r->lr_priority != best->lr_priority)
		return r->lr_priority < best->lr_priority;
	rh = lnet_route_hops_rank(r->lr_hops);
	bh = lnet_route_hops_rank(best->lr_hops);
	if (rh != bh)
		return rh < bh;
	c = lnet_gw_rank_cmp(rk, bk);
	if (c)
		return c > 0;
	/* lower sequence: the one used longest ago (round-robin) */
	return (s32)(READ_ONCE(r->lr_seq) - READ_ONCE(best->lr_seq)) < 0;
}

/* @r's gateway's rank from @src_net (all equal without env->gw_rank). */
static void lnet_route_table_rank(struct lnet_route_table *t,
				  const struct lnet_route *r, u32 src_net,
				  struct lnet_gw_rank *rank)
{
	*rank = (struct lnet_gw_rank){};
	if (t->rt_env->gw_rank)
		t->rt_env->gw_rank(&r->lr_gateway, src_net, rank);
}

/* Spec 6.4 for @r, its gateway's state asked of the table's node. */
static bool lnet_route_table_usable(struct lnet_route_table *t,
				    const struct lnet_route *r)
{
	struct lnet_gw_state gs = {};

	if (!t->rt_env->gw_state)
		return lnet_route_usable(r, NULL);
	t->rt_env->gw_state(r, &gs);
	return lnet_route_usable(r, &gs);
}

/**
 * lnet_route_table_select() - the gateway for a send to a remote net
 * @t: the table
 * @net: the destination's (remote) net
 * @src_net: the net to reach the gateway from, or LNET_NET_ANY
 * @on_net: does the gateway peer of a NID have a NID on a net?  The
 *	table's env->gateway_on_net, or a variant for a caller that holds
 *	a lock it takes (the send path: lnet_gateway_on_net_locked())
 * @pref: the gateways the destination prefers, or NULL: none
 * @gw: out: the chosen route's gateway NID
 *
 * Stock's lnet_find_route_locked() (spec 3.2): of the usable routes
 * (lnet_route_usable()) whose gateway has a NID on @src_net, one whose
 * gateway @pref prefers (UDSP --rte) over one it does not, then the
 * lowest priority, then the fewest hops (unset counts as 1), then the
 * gateway whose best NI from @src_net is healthier, then has fewer bytes
 * queued, then more credits (env->gw_rank, struct lnet_gw_rank), then the
 * one chosen longest ago; its sequence then becomes one more than the
 * highest seen, so equal routes take turns.  With no usable preferred
 * gateway, the others are chosen among as if no rule were there.
 *
 * Context: Any; takes rcu_read_lock().
 * Return: 0, or -EHOSTUNREACH if no route fits.
 */
int lnet_route_table_select(struct lnet_route_table *t, u32 net,
			    u32 src_net,
			    bool (*on_net)(const struct lnet_nid *gw, u32 net),
			    const struct lnet_route_pref *pref,
			    struct lnet_nid *gw)
{
	struct lnet_route *r, *best = NULL;
	struct lnet_gw_rank rk, bk = {};
	struct lnet_remotenet *rnet;
	bool p, best_p = false;
	u32 seq = 0;

	rcu_read_lock();
	rnet = lnet_rnet_find(t, net);
	if (rnet) {
		list_for_each_entry_rcu(r, &rnet->lrn_routes, lr_list) {
			if (!lnet_route_table_usable(t, r))
				continue;
			if (src_net != LNET_NET_ANY &&
			    !on_net(&r->lr_gateway, src_net))
				continue;
			if (!best ||
			    (s32)(READ_ONCE(r->lr_seq) - seq) > 0)
				seq = READ_ONCE(r->lr_seq);
			p = pref && pref->preferred(pref->dst, &r->lr_gateway,
						    src_net);
			lnet_route_table_rank(t, r, src_net, &rk);
			if (best && p != best_p) {
				if (!p)
					continue;
			} else if (!lnet_route_better(r, &rk, best, &bk)) {
				continue;
			}
			best = r;
			best_p = p;
			bk = rk;
		}
	}
	if (best) {
		WRITE_ONCE(best->lr_seq, seq + 1);
		*gw = best->lr_gateway;
	}
	rcu_read_unlock();
	return best ? 0 : -EHOSTUNREACH;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_route_table_select);

/**
 * lnet_route_table_is_gateway() - is a NID a gateway of a route?
 * @t: the table
 * @nid: the NID (a response's previous hop, spec 3.4; a routed
 *	message's, spec 7)
 * @net: the routes' remote net, or LNET_NET_ANY for any
 * @same: are two NIDs one gateway peer?  As @on_net of
 *	lnet_route_table_select()
 *
 * Any route counts, usable or not (stock does not check).
 *
 * Context: Any; takes rcu_read_lock().
 */
bool lnet_route_table_is_gateway(struct lnet_route_table *t,
				 const struct lnet_nid *nid, u32 net,
				 bool (*same)(const struct lnet_nid *a,
					      const struct lnet_nid *b))
{
	struct lnet_remotenet *rnet;
	struct lnet_route *r;
	bool is = false;
	int bkt;

	rcu_read_lock();
	hash_for_each_rcu(t->rt_nets, bkt, rnet, lrn_hash) {
		if (net != LNET_NET_ANY && rnet->lrn_net != net)
			continue;
		list_for_each_entry_rcu(r, &rnet->lrn_routes, lr_list) {
			if (same(&r->lr_gateway, nid)) {
				is = true;
				goto out;
			}
		}
	}
out:
	rcu_read_unlock();
	return is;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_route_table_is_gateway);

/**
 * lnet_route_table_walk() - every route, from the (@skip + 1)th on
 * @t: the table
 * @skip: routes to pass over first (a dump's cursor)
 * @fn: called for each, under rcu_read_lock(); a non-zero return stops
 * @arg: for @fn
 *
 * Each route's state (ri->alive) is lnet_route_usable()'s answer now.
 * The order is the table's: remote nets by hash bucket, then each net's
 * routes in list order.  Routes added or deleted between two walks may
 * shift the cursor, as in any netlink dump.
 *
 * Return: how many routes @fn took (returned 0 for).
 */
int lnet_route_table_walk(struct lnet_route_table *t, unsigned long skip,
			  int (*fn)(const struct lnet_route_info *ri,
				    void *arg),
			  void *arg)
{
	struct lnet_remotenet *rnet;
	struct lnet_route_info ri;
	struct lnet_route *r;
	int done = 0;
	int bkt;

	rcu_read_lock();
	hash_for_each_rcu(t->rt_nets, bkt, rnet, lrn_hash) {
		list_for_each_entry_rcu(r, &rnet->lrn_routes, lr_list) {
			if (skip) {
				skip--;
				continue;
			}
			ri.net = r->lr_net;
			ri.gateway = r->lr_gateway;
			ri.hops = r->lr_hops;
			ri.priority = r->lr_priority;
			ri.alive = lnet_route_table_usable(t, r);
			ri.single_hop = READ_ONCE(r->lr_single_hop);
			if (fn(&ri, arg))
				goto out;
			done++;
		}
	}
out:
	rcu_read_unlock();
	return done;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_route_table_walk);

/**
 * lnet_route_table_for_each() - call @fn for every route
 * @t: the table
 * @fn: called under rcu_read_lock(); may change the route's lr_alive and
 *	lr_single_hop (WRITE_ONCE)
 * @arg: for @fn
 */
void lnet_route_table_for_each(struct lnet_route_table *t,
			       void (*fn)(struct lnet_route *r, void *arg),
			       void *arg)
{
	struct lnet_remotenet *rnet;
	struct lnet_route *r;
	int bkt;

	rcu_read_lock();
	hash_for_each_rcu(t->rt_nets, bkt, rnet, lrn_hash)
		list_for_each_entry_rcu(r, &rnet->lrn_routes, lr_list)
			fn(r, arg);
	rcu_read_unlock();
}
EXPORT_SYMBOL_IF_KUNIT(lnet_route_table_for_each);

/* --- the node's table --- */

static bool lnet_node_net_local(u32 net)
{
	bool local;

	lnet_lock();
	local = lnet_net_find_in(&the_lnet.ln_nets, net);
	lnet_unlock();
	return local;
}

static bool lnet_node_nid_local(const struct lnet_nid *nid)
{
	bool local;

	lnet_lock();
	local = lnet_nid_is_local_locked(nid);
	lnet_unlock();
	return local;
}

static bool lnet_node_same_gateway(const struct lnet_nid *a,
				   const struct lnet_nid *b)
{
	bool same;

	if (lnet_nid_equal(a, b))
		return true;
	lnet_lock();
	same = lnet_same_gateway_locked(a, b);
	lnet_unlock();
	return same;
}

static bool lnet_node_gateway_on_net(const struct lnet_nid *gw, u32 net)
{
	bool on;

	if (lnet_nid_net(gw) == net)
		return true;
	lnet_lock();
	on = lnet_gateway_on_net_locked(gw, net);
	lnet_unlock();
	return on;
}

static const struct lnet_route_env lnet_node_route_env = {
	.net_local	= lnet_node_net_local,
	.nid_local	= lnet_node_nid_local,
	.same_gateway	= lnet_node_same_gateway,
	.gateway_on_net	= lnet_node_gateway_on_net,
	.gw_state	= lnet_gw_state_locked,
	.gw_rank	= lnet_gateway_rank_locked,
	.start_dead	= lnet_check_routers_before_use,
};

static struct lnet_route_table lnet_routes = {
	.rt_mutex	= __MUTEX_INITIALIZER(lnet_routes.rt_mutex),
	.rt_env		= &lnet_node_route_env,
};

/* lnet_routes.rt_rnd is seeded at the first add, where random is ready */
static bool lnet_routes_seeded;

/* "route add" under ln_api_mutex, LNet running. */
static int lnet_route_add_locked(u32 net, const struct lnet_nid *gw, u32 hops,
				 u32 priority, struct netlink_ext_ack *extack)
{
	int rc;

	if (!lnet_routes_seeded) {
		prandom_seed_state(&lnet_routes.rt_rnd, get_random_u64());
		lnet_routes_seeded = true;
	}
	rc = lnet_route_table_add(&lnet_routes, net, gw, hops, priority,
				  extack);
	if (!rc)
		lnet_rtrcheck_route_added(gw);
	return rc;
}

/**
 * lnet_route_add() - "route add": a route in the node's table
 * @net: the remote net
 * @gw: the gateway NID
 * @hops: 1..255 or LNET_ROUTE_HOPS_UNSET
 * @priority: 0 best
 * @extack: where to say why not (may be NULL)
 *
 * Also lnet_nidmap.ko's, for the routes a subscriber installs from the
 * table (Documentation/nidmap.rst, "Routes from the table").
 *
 * Context: Process context; takes ln_api_mutex.
 * Return: 0, -ENETDOWN if LNet is not running, or as
 * lnet_route_table_add().
 */
int lnet_route_add(u32 net, const struct lnet_nid *gw, u32 hops,
		   u32 priority, struct netlink_ext_ack *extack)
{
	int rc;

	mutex_lock(&the_lnet.ln_api_mutex);
	if (the_lnet.ln_state != LNET_STATE_RUNNING) {
		NL_SET_ERR_MSG(extack, "Network is down");
		rc = -ENETDOWN;
	} else {
		rc = lnet_route_add_locked(net, gw, hops, priority, extack);
	}
	mutex_unlock(&the_lnet.ln_api_mutex);
	return rc;
}
EXPORT_SYMBOL_GPL(lnet_route_add);

static char *routes = "";
module_param(routes, charp, 0444);
MODULE_PARM_DESC(routes, "Routes to non-local networks, added when LNet starts its networks= (deprecated: lnetctl route add)");

static bool lnet_routes_param_nid_local(const struct lnet_nid *nid, void *arg)
{
	return lnet_node_nid_local(nid);
}

static int lnet_routes_param_add(u32 net, const struct lnet_nid *gw, u32 hops,
				 u32 priority, void *arg)
{
	return lnet_route_add_locked(net, gw, hops, priority, NULL);
}

static const struct lnet_routes_param_ops lnet_routes_param_ops = {
	.nid_local	= lnet_routes_param_nid_local,
	.add		= lnet_routes_param_add,
};

/**
 * lnet_routes_param_start() - the routes= module parameter (spec 10.2)
 * @router: set to true if a gateway is one of the node's NIDs (spec 5.2)
 *
 * The whole string is checked before any route is added, so that a
 * syntax error adds none.  -EEXIST and -EHOSTUNREACH are ignored (a
 * gateway on a net that is not local is skipped); any other error is
 * said on the console and returned, and LNet start fails.
 *
 * Context: Process context, under ln_api_mutex, LNet running with the
 * NIs of networks= started.
 * Return: 0, -EINVAL for a bad string, or the route table's error.
 */
int lnet_routes_param_start(bool *router)
{
	char why[256];
	int rc;

	if (!*routes)
		return 0;
	rc = lnet_routes_param_apply(routes, NULL, NULL, router, why,
				     sizeof(why));
	if (!rc)
		rc = lnet_routes_param_apply(routes, &lnet_routes_param_ops,
					     NULL, router, why, sizeof(why));
	if (rc)
		pr_err("LNet: routes=\"%s\": %s (%d)\n",
		       routes, *why ? why : "error", rc);
	return rc;
}

/**
 * lnet_route_del() - "route del": routes out of the node's table
 * @net: the remote net, or LNET_NET_ANY
 * @gw: the gateway, or NULL for every one
 * @extack: where to say why not (may be NULL)
 *
 * Context: Process context; takes ln_api_mutex.
 * Return: 0, -ENETDOWN, or as lnet_route_table_del().
 */
int lnet_route_del(u32 net, const struct lnet_nid *gw,
		   struct netlink_ext_ack *extack)
{
	int rc;

	mutex_lock(&the_lnet.ln_api_mutex);
	if (the_lnet.ln_state != LNET_STATE_RUNNING) {
		NL_SET_ERR_MSG(extack, "Network is down");
		rc = -ENETDOWN;
	} else {
		rc = lnet_route_table_del(&lnet_routes, net, gw, extack);
	}
	mutex_unlock(&the_lnet.ln_api_mutex);
	return rc;
}
EXPORT_SYMBOL_GPL(lnet_route_del);

/**
 * lnet_routes_walk() - the node's routes, for "route show"
 * @skip: routes to pass over first
 * @fn: called for each under rcu_read_lock() and the LNet lock (it must
 *	not sleep); non-zero stops
 * @arg: for @fn
 *
 * Return: how many routes @fn took.
 */
int lnet_routes_walk(unsigned long skip,
		     int (*fn)(const struct lnet_route_info *ri, void *arg),
		     void *arg)
{
	int n;

	lnet_lock();	/* the routes' state asks the peer table */
	n = lnet_route_table_walk(&lnet_routes, skip, fn, arg);
	lnet_unlock();
	return n;
}

/**
 * lnet_node_routes() - the node's table, for the router checker
 *
 * Its routes are walked with lnet_route_table_for_each() under the LNet
 * lock (the gateways' state is the peer table's).
 *
 * Return: the table.
 */
struct lnet_route_table *lnet_node_routes(void)
{
	return &lnet_routes;
}

/**
 * lnet_route_select_locked() - the gateway for a send to a remote net
 * @net: the destination's net
 * @src_net: the net to reach the gateway from, or LNET_NET_ANY
 * @pref: the gateways the destination prefers, or NULL
 * @gw: out: the chosen route's gateway NID (maybe not on @src_net: see
 *	lnet_route_next_hop_locked())
 *
 * Context: under the LNet lock.
 * Return: as lnet_route_table_select().
 */
int lnet_route_select_locked(u32 net, u32 src_net,
			     const struct lnet_route_pref *pref,
			     struct lnet_nid *gw)
{
	return lnet_route_table_select(&lnet_routes, net, src_net,
				       lnet_gateway_on_net_locked, pref, gw);
}

/**
 * lnet_route_net_known_locked() - has the route table an entry for @net?
 * @net: a (remote) net
 *
 * Any route counts, usable or not: stock's test for a remote multi-rail
 * peer's routable nets (routing spec 3.1 rule 3) and for the NIDs
 * discovery keeps.
 *
 * Context: under the LNet lock.
 */
bool lnet_route_net_known_locked(u32 net)
{
	bool known;

	rcu_read_lock();
	known = lnet_rnet_find(&lnet_routes, net);
	rcu_read_unlock();
	return known;
}

/**
 * lnet_route_is_gateway_locked() - is @nid a gateway of any route?
 * @nid: the NID
 *
 * By any NID of its peer, to any net, usable or not (spec 3.4, 8).
 *
 * Context: under the LNet lock.
 * Return: true if it is.
 */
bool lnet_route_is_gateway_locked(const struct lnet_nid *nid)
{
	return lnet_route_table_is_gateway(&lnet_routes, nid, LNET_NET_ANY,
					   lnet_same_gateway_locked);
}
EXPORT_SYMBOL_GPL(lnet_route_is_gateway_locked);

/**
 * lnet_route_asym_locked() - would we not route back through @from?
 * @from: a message's previous hop, a gateway that routed it to us
 * @src_net: the net of its source (not @from's)
 *
 * Spec 7 (drop_asym_route): no route of ours to @src_net goes through
 * @from's peer (by any of its NIDs), so a reply would not go back the
 * way the message came.
 *
 * Context: under the LNet lock.
 */
bool lnet_route_asym_locked(const struct lnet_nid *from, u32 src_net)
{
	return !lnet_route_table_is_gateway(&lnet_routes, from, src_net,
					    lnet_same_gateway_locked);
}

/**
 * lnet_routes_net_deleted() - a local net is gone
 * @net: the net
 *
 * Routes through gateways with a NID on @net go (spec 2.4).
 *
 * Context: Process context, under ln_api_mutex, after the net's NIs
 * stopped.
 */
void lnet_routes_net_deleted(u32 net)
{
	lnet_route_table_del_gw_net(&lnet_routes, net);
}

/**
 * lnet_routes_flush() - LNet stops: every route goes
 *
 * Called by the shutdown sequence before the peers are freed, and at
 * module exit.
 *
 * Context: Process context.
 */
void lnet_routes_flush(void)
{
	lnet_route_table_flush(&lnet_routes);
}
