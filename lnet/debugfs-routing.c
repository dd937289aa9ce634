// SPDX-License-Identifier: GPL-2.0
/*
 * Routing's files in /sys/kernel/debug/lnet/, in stock Lustre's shapes
 * (routing spec 9):
 *  - "routes": "Routing disabled|enabled|stopping|starting", then one
 *    line per route: net, hops (signed: unset is -1), priority, state
 *    (up/down, as "route show") and gateway;
 *  - "routers": one line per gateway: ref (its peer's holders), rtr_ref
 *    (routes through it), alive (its last check did not fail and each
 *    of its nets has an UP NI) and its primary NID;
 *  - "buffers": pages, count, credits and min per router buffer pool
 *    (one CPT: tiny, small, large); only the header on a node whose
 *    pools were never made.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include <lnet/lib-lnet.h>
#include <lnet/route.h>
#include <lnet/router.h>

#include "peer.h"

static const char *const lnet_routing_names[] = {
	[LNET_ROUTING_DISABLED]	= "disabled",
	[LNET_ROUTING_ENABLED]	= "enabled",
	[LNET_ROUTING_STOPPING]	= "stopping",
	[LNET_ROUTING_STARTING]	= "starting",
};

static int lnet_debugfs_route(const struct lnet_route_info *ri, void *arg)
{
	char net[LNET_NIDSTR_SIZE], gw[LNET_NIDSTR_SIZE];

	lnet_net_to_str(ri->net, net, sizeof(net));
	lnet_nid_to_str(&ri->gateway, gw, sizeof(gw));
	seq_printf(arg, "%-8s %4d %8u %7s %s\n", net, (int)ri->hops,
		   ri->priority, ri->alive ? "up" : "down", gw);
	return 0;
}

static int lnet_routes_show(struct seq_file *m, void *v)
{
	seq_printf(m, "Routing %s\n", lnet_routing_names[lnet_routing_state()]);
	seq_printf(m, "%-8s %4s %8s %7s %s\n",
		   "net", "hops", "priority", "state", "router");
	lnet_routes_walk(0, lnet_debugfs_route, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lnet_routes);

/* The gateways seen so far in a walk of the routes, with their counts. */
#define LNET_DEBUGFS_GWS	64

struct lnet_debugfs_gws {
	struct lnet_peer	*lp[LNET_DEBUGFS_GWS];
	unsigned int		routes[LNET_DEBUGFS_GWS];
	unsigned int		n;
	bool			more;
};

static void lnet_debugfs_gw(struct lnet_route *r, void *arg)
{
	struct lnet_debugfs_gws *g = arg;
	struct lnet_peer *lp = lnet_route_gw_peer_locked(r);
	unsigned int i;

	if (!lp)
		return;
	for (i = 0; i < g->n; i++) {
		if (g->lp[i] == lp) {
			g->routes[i]++;
			return;
		}
	}
	if (g->n == LNET_DEBUGFS_GWS) {
		g->more = true;
		return;
	}
	g->lp[g->n] = lp;
	g->routes[g->n++] = 1;
}

static int lnet_routers_show(struct seq_file *m, void *v)
{
	struct lnet_debugfs_gws *g = kzalloc(sizeof(*g), GFP_KERNEL);
	char nid[LNET_NIDSTR_SIZE];
	unsigned int i;

	if (!g)
		return -ENOMEM;
	seq_printf(m, "%-4s %7s %5s %s\n", "ref", "rtr_ref", "alive", "router");
	lnet_lock();
	lnet_route_table_for_each(lnet_node_routes(), lnet_debugfs_gw, g);
	for (i = 0; i < g->n; i++) {
		lnet_nid_to_str(&g->lp[i]->lp_primary_nid, nid, sizeof(nid));
		seq_printf(m, "%-4d %7u %5s %s\n", g->lp[i]->lp_refcount,
			   g->routes[i],
			   lnet_gw_alive_locked(g->lp[i]) ? "up" : "down", nid);
	}
	lnet_unlock();
	if (g->more)
		seq_printf(m, "(more than %d gateways: the others not shown)\n",
			   LNET_DEBUGFS_GWS);
	kfree(g);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lnet_routers);

static int lnet_buffers_show(struct seq_file *m, void *v)
{
	struct lnet_rtrpool_info info[LNET_RTRPOOL_COUNT];
	int i;

	seq_printf(m, "%5s %5s %7s %7s\n", "pages", "count", "credits", "min");
	if (!lnet_rtrpools_allocated())
		return 0;
	lnet_rtrpools_info(info);
	for (i = 0; i < LNET_RTRPOOL_COUNT; i++)
		seq_printf(m, "%5u %5d %7d %7d\n", info[i].npages,
			   info[i].nbuffers, info[i].credits, info[i].mincredits);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lnet_buffers);

/**
 * lnet_debugfs_routing_init() - routing's debugfs files
 * @root: the lnet directory (its removal removes them)
 */
void lnet_debugfs_routing_init(struct dentry *root)
{
	debugfs_create_file("routes", 0400, root, NULL, &lnet_routes_fops);
	debugfs_create_file("routers", 0400, root, NULL, &lnet_routers_fops);
	debugfs_create_file("buffers", 0400, root, NULL, &lnet_buffers_fops);
}
