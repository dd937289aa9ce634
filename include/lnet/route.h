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
 * @lr_alive: cached aliveness; starts true (check_routers_before_use 0),
 *	set by the router checker (not built yet)
 * @lr_single_hop: a gateway's ping showed an NI on @lr_net (not built yet)
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
int lnet_route_table_select(struct lnet_route_table *t, u32 net,
			    u32 src_net,
			    bool (*on_net)(const struct lnet_nid *gw, u32 net),
			    struct lnet_nid *gw);
bool lnet_route_table_is_gateway(struct lnet_route_table *t,
				 const struct lnet_nid *nid,
				 bool (*same)(const struct lnet_nid *a,
					      const struct lnet_nid *b));
int lnet_route_table_walk(struct lnet_route_table *t, unsigned long skip,
			  int (*fn)(const struct lnet_route_info *ri,
				    void *arg),
			  void *arg);

/**
 * lnet_route_usable() - may a send go through @r now?
 * @r: the route
 *
 * The one place that decides (spec 3.2 step 1, 6.4).  Today it honours
 * the route's cached aliveness (lr_alive), which starts true and which
 * nothing clears yet; the router checker (spec 6) will set it from each
 * gateway's ping (NI status, RTE_DISABLED, avoid_asym_router_failure)
 * and from lnet_notify(), and a gateway marked down will clear it.
 */
static inline bool lnet_route_usable(const struct lnet_route *r)
{
	return READ_ONCE(r->lr_alive);
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
int lnet_route_next_hop(u32 net, struct lnet_nid *gw);
void lnet_routes_net_deleted(u32 net);
void lnet_routes_flush(void);

/* The send path's questions, under the LNet lock. */
int lnet_route_select_locked(u32 net, u32 src_net, struct lnet_nid *gw);
bool lnet_route_is_gateway_locked(const struct lnet_nid *nid);

/* lnet/route-select.c: the send path's routing choice. */
bool lnet_gateway_on_net_locked(const struct lnet_nid *gw, u32 net);
bool lnet_same_gateway_locked(const struct lnet_nid *a,
			      const struct lnet_nid *b);
int lnet_route_next_hop_locked(const struct lnet_nid *dst,
			       const struct lnet_nid *self,
			       const struct lnet_nid *hop,
			       struct lnet_nid *gw);

#endif /* _LNET_ROUTE_H */
