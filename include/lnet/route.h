/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The route table (lnet/route.c): remote net -> routes through gateways.
 * Documentation/routing.rst.
 */
#ifndef _LNET_ROUTE_H
#define _LNET_ROUTE_H

#include <linux/hashtable.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/prandom.h>
#include <linux/rculist.h>

#include <lnet/nid.h>

/* Hop count not given ("hop: -1"); ranked as 1. */
#define LNET_ROUTE_HOPS_UNSET	0xffffffffU
#define LNET_ROUTE_HOPS_MAX	255
/* Stock's rnet_htable_size: 128 remote-net buckets. */
#define LNET_ROUTE_HASH_BITS	7
/* Routes at most in one table (stock has no bound; 499 in its tests). */
#define LNET_ROUTES_MAX		65536

struct lnet_route;
struct lnet_gw_state;

/**
 * struct lnet_gw_rank - a gateway's best NI, for ties between routes
 * @healthv: its health (higher is better)
 * @txqnob: bytes queued to it (lpni_txqnob: fewer is better)
 * @credits: its tx credits now (more is better)
 *
 * Spec 3.2 step 4: of two routes equal in preference, priority and hops,
 * the one whose gateway NI is healthier, then less loaded, then has more
 * credits; only then the one used longest ago.
 */
struct lnet_gw_rank {
	int	healthv;
	u32	txqnob;
	int	credits;
};

/* > 0 if @a ranks better than @b, < 0 if worse, 0 if the same. */
static inline int lnet_gw_rank_cmp(const struct lnet_gw_rank *a,
				   const struct lnet_gw_rank *b)
{
	if (a->healthv != b->healthv)
		return a->healthv > b->healthv ? 1 : -1;
	if (a->txqnob != b->txqnob)
		return a->txqnob < b->txqnob ? 1 : -1;
	if (a->credits != b->credits)
		return a->credits > b->credits ? 1 : -1;
	return 0;
}

/*
 * What the table asks of the rest of the core, so that a KUnit test can
 * run a table of its own with a fake node.  Called under the table's
 * mutex (may sleep).  The node's take the LNet lock; the send path, which
 * holds it, gives lnet_route_table_select() and
 * lnet_route_table_is_gateway() variants that do not.
 */
struct lnet_route_env {
	bool (*net_local)(u32 net);
	bool (*nid_local)(const struct lnet_nid *nid);
	/* the two NIDs are one gateway peer (multi-rail: any of its NIDs) */
	bool (*same_gateway)(const struct lnet_nid *a,
			     const struct lnet_nid *b);
	/* the gateway peer has a NID on @net */
	bool (*gateway_on_net)(const struct lnet_nid *gw, u32 net);
	/*
	 * What spec 6.4 asks of @r's gateway (struct lnet_gw_state); NULL:
	 * the route's cached aliveness alone decides.  Called under RCU by
	 * lnet_route_table_select() and lnet_route_table_walk(); the
	 * node's needs the LNet lock held.
	 */
	void (*gw_state)(const struct lnet_route *r, struct lnet_gw_state *gs);
	/*
	 * The rank of @gw's best NI reached from @src_net (LNET_NET_ANY:
	 * any of ours), struct lnet_gw_rank; NULL: every gateway ranks the
	 * same.  Called as @gw_state.
	 */
	void (*gw_rank)(const struct lnet_nid *gw, u32 src_net,
			struct lnet_gw_rank *rank);
	/* routes start dead (check_routers_before_use); NULL: alive */
	bool (*start_dead)(void);
};

/**
 * struct lnet_route - one route: to @lr_net through @lr_gateway
 * @lr_list: in its remote net's list (RCU)
 * @lr_rcu: freed after a grace period
 * @lr_ref: the table holds one; a reader that keeps the route past its
 *	RCU section takes one with lnet_route_get(), unless it is zero
 * @lr_net: the remote net
 * @lr_gateway: the gateway NID given at add (shown by "route show")
 * @lr_hops: 1..255 or LNET_ROUTE_HOPS_UNSET
 * @lr_priority: 0 best
 * @lr_seq: round-robin sequence among equal routes
 * @lr_alive: cached aliveness (spec 6.3): starts !check_routers_before_use;
 *	set from each ping reply or push of the gateway, cleared by a failed
 *	check (lnet/router-checker.c)
 * @lr_single_hop: a gateway's ping showed an NI on @lr_net
 * @lr_remote_up: and one of those was UP (the peer table keeps no NI of
 *	the gateway on a net we have no NI on: spec 6.4 asks this)
 */
struct lnet_route {
	struct list_head	lr_list;
	struct rcu_head		lr_rcu;
	struct kref		lr_ref;
	u32			lr_net;
	struct lnet_nid		lr_gateway;
	u32			lr_hops;
	u32			lr_priority;
	u32			lr_seq;
	bool			lr_alive;
	bool			lr_single_hop;
	bool			lr_remote_up;
};

/* The routes to one remote net, in the order they are tried on a tie. */
struct lnet_remotenet {
	struct hlist_node	lrn_hash;
	struct list_head	lrn_routes;
	struct rcu_head		lrn_rcu;
	u32			lrn_net;
};

/**
 * struct lnet_route_table - remote nets and their routes
 * @rt_nets: remote nets by net id (RCU readers, @rt_mutex writers)
 * @rt_mutex: serialises changes
 * @rt_env: the node it serves
 * @rt_rnd: where an added route goes in its net's list
 * @rt_count: routes in the table
 */
struct lnet_route_table {
	DECLARE_HASHTABLE(rt_nets, LNET_ROUTE_HASH_BITS);
	struct mutex			rt_mutex;	/* writers */
	const struct lnet_route_env	*rt_env;
	struct rnd_state		rt_rnd;
	unsigned int			rt_count;
};

/* A route as "route show" gives it. */
struct lnet_route_info {
	u32		net;
	struct lnet_nid	gateway;
	u32		hops;
	u32		priority;
	bool		alive;
	bool		single_hop;
};

void lnet_route_table_init(struct lnet_route_table *t,
			   const struct lnet_route_env *env, u64 seed);
int lnet_route_table_add(struct lnet_route_table *t, u32 net,
			 const struct lnet_nid *gw, u32 hops, u32 priority,
			 struct netlink_ext_ack *extack);
int lnet_route_table_del(struct lnet_route_table *t, u32 net,
			 const struct lnet_nid *gw,
			 struct netlink_ext_ack *extack);
unsigned int lnet_route_table_del_gw_net(struct lnet_route_table *t,
					 u32 net);
void lnet_route_table_flush(struct lnet_route_table *t);
/**
 * struct lnet_route_pref - the gateways a routed send prefers (UDSP --rte)
 * @preferred: is the gateway of a route, reached from @src_net (or any
 *	local net: LNET_NET_ANY), one that @dst prefers?  Called under RCU
 *	by lnet_route_table_select(), with what locks its caller holds
 * @dst: the send's final destination
 */
struct lnet_route_pref {
	bool (*preferred)(const struct lnet_nid *dst, const struct lnet_nid *gw,
			  u32 src_net);
	const struct lnet_nid *dst;
};

int lnet_route_table_select(struct lnet_route_table *t, u32 net,
			    u32 src_net,
			    bool (*on_net)(const struct lnet_nid *gw, u32 net),
			    const struct lnet_route_pref *pref,
			    struct lnet_nid *gw);
bool lnet_route_table_is_gateway(struct lnet_route_table *t,
				 const struct lnet_nid *nid, u32 net,
				 bool (*same)(const struct lnet_nid *a,
					      const struct lnet_nid *b));
int lnet_route_table_walk(struct lnet_route_table *t, unsigned long skip,
			  int (*fn)(const struct lnet_route_info *ri,
				    void *arg),
			  void *arg);
void lnet_route_table_for_each(struct lnet_route_table *t,
			       void (*fn)(struct lnet_route *r, void *arg),
			       void *arg);

/**
 * struct lnet_gw_state - what spec 6.4 asks of a route's gateway
 * @known: the gateway has a peer (else only @lr_alive speaks for it)
 * @dead: its last check failed (or, with check_routers_before_use, it
 *	has not finished one yet)
 * @discovery_off: discovery is off here, the gateway is not multi-rail or
 *	it said discovery off: only the cached flag (@lr_alive) is known
 * @rtr_enabled: its last ping info had RTE_DISABLED clear
 * @local_up: it has an UP NI on the route's local net (the gateway NID's)
 * @remote_up: it has an UP NI on the route's remote net
 * @avoid_asym: the node's avoid_asym_router_failure
 */
struct lnet_gw_state {
	bool	known;
	bool	dead;
	bool	discovery_off;
	bool	rtr_enabled;
	bool	local_up;
	bool	remote_up;
	bool	avoid_asym;
};

/**
 * lnet_route_usable() - may a send go through @r now?
 * @r: the route
 * @gs: its gateway, or NULL (a table without gateways: the cached flag)
 *
 * The one place that decides (spec 3.2 step 1), stock's
 * lnet_is_route_alive() (spec 6.4): a dead gateway kills the route; with
 * discovery off for it, the cached flag (set from its ping replies,
 * spec 6.3) decides; with discovery on, the gateway needs an UP NI on
 * the route's local net, with avoid_asym_router_failure one on the
 * remote net too when the route is single-hop (hops 1, or detected), and
 * routing enabled.  Health values never kill a route.
 */
static inline bool lnet_route_usable(const struct lnet_route *r,
				     const struct lnet_gw_state *gs)
{
	if (!gs || !gs->known)
		return READ_ONCE(r->lr_alive);
	if (gs->dead)
		return false;
	if (gs->discovery_off)
		return READ_ONCE(r->lr_alive);
	if (!gs->local_up)
		return false;
	if (gs->avoid_asym &&
	    (r->lr_hops == 1 || READ_ONCE(r->lr_single_hop)) &&
	    !gs->remote_up)
		return false;
	return gs->rtr_enabled;
}

bool lnet_route_get(struct lnet_route *r);
void lnet_route_put(struct lnet_route *r);

/* The node's table: LNet must be running to change it. */
int lnet_route_add(u32 net, const struct lnet_nid *gw, u32 hops,
		   u32 priority, struct netlink_ext_ack *extack);
int lnet_route_del(u32 net, const struct lnet_nid *gw,
		   struct netlink_ext_ack *extack);
int lnet_routes_walk(unsigned long skip,
		     int (*fn)(const struct lnet_route_info *ri, void *arg),
		     void *arg);
struct lnet_route_table *lnet_node_routes(void);
int lnet_routes_param_start(bool *router);
void lnet_routes_net_deleted(u32 net);
void lnet_routes_flush(void);

/* The send path's questions, under the LNet lock. */
int lnet_route_select_locked(u32 net, u32 src_net,
			     const struct lnet_route_pref *pref,
			     struct lnet_nid *gw);
bool lnet_route_is_gateway_locked(const struct lnet_nid *nid);
bool lnet_route_asym_locked(const struct lnet_nid *from, u32 src_net);
bool lnet_route_net_known_locked(u32 net);

/* lnet/route-select.c: the send path's routing choice. */
bool lnet_gateway_on_net_locked(const struct lnet_nid *gw, u32 net);
bool lnet_same_gateway_locked(const struct lnet_nid *a,
			      const struct lnet_nid *b);
bool lnet_gateway_preferred_locked(const struct lnet_nid *dst,
				   const struct lnet_nid *gw, u32 src_net);
void lnet_gateway_rank_locked(const struct lnet_nid *gw, u32 src_net,
			      struct lnet_gw_rank *rank);
int lnet_route_next_hop_locked(const struct lnet_nid *dst,
			       const struct lnet_nid *self,
			       const struct lnet_nid *hop,
			       struct lnet_nid *gw);

/* lnet/router-checker.c: gateway liveness (spec 6). */
struct lnet_ni;
struct lnet_peer;
struct lnet_peer_ni;
struct lnet_peer_net;
struct lnet_ping_data;

bool lnet_check_routers_before_use(void);
bool lnet_avoid_asym_router_failure(void);
void lnet_gw_state_locked(const struct lnet_route *r, struct lnet_gw_state *gs);
void lnet_route_ping_update(struct lnet_route *r, bool rte_disabled,
			    bool local_up, const struct lnet_nid *nids,
			    const u32 *statuses, unsigned int n,
			    bool avoid_asym);
void lnet_gw_ping_info_locked(const struct lnet_nid *from,
			      const struct lnet_ping_data *pd,
			      const struct lnet_nid *nids, const u32 *statuses,
			      unsigned int n);
void lnet_rtrcheck_done_locked(struct lnet_peer *lp, int rc);
bool lnet_rtrcheck_ping_dst_locked(const struct lnet_peer *lp,
				   struct lnet_nid *dst);
void lnet_rtrcheck_route_added(const struct lnet_nid *gw);
void lnet_rtrcheck_routed_from_locked(const struct lnet_nid *from,
				      u32 src_net);
void lnet_rtrcheck_notify_locked(const struct lnet_ni *ni,
				 const struct lnet_peer_ni *lpni, bool alive);
void lnet_rtrcheck_start(void);
void lnet_rtrcheck_stop(void);
struct lnet_peer *lnet_route_gw_peer_locked(const struct lnet_route *r);
bool lnet_gw_alive_locked(const struct lnet_peer *lp);

/**
 * struct lnet_routes_param_ops - what applying routes= asks of the node
 * @nid_local: is @nid one of the node's own NIDs?
 * @add: add a route, as lnet_route_table_add()
 */
struct lnet_routes_param_ops {
	bool (*nid_local)(const struct lnet_nid *nid, void *arg);
	int (*add)(u32 net, const struct lnet_nid *gw, u32 hops, u32 priority,
		   void *arg);
};

int lnet_routes_param_apply(const char *str,
			    const struct lnet_routes_param_ops *ops, void *arg,
			    bool *router, char *why, size_t whysize);

/* lnet/router-checker.c: a router's NI liveness (spec 6.7). */
void lnet_rtr_ni_pinged_locked(struct lnet_ni *ni);

#if IS_ENABLED(CONFIG_KUNIT)
bool lnet_gw_net_up(const struct lnet_peer_net *lpn);
bool lnet_rtr_net_unpinged(unsigned long now, unsigned long last,
			   int interval, int timeout);
#endif

#endif /* _LNET_ROUTE_H */
