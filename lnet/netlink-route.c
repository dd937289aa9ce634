// SPDX-License-Identifier: GPL-2.0
/*
 * The route commands of the "lnet" generic netlink family: ROUTE_ADD
 * ("lnetctl route add"), ROUTE_DEL ("route del") and ROUTE_GET, a dump
 * ("route show").  See lnet/route.c, Documentation/routing.rst and
 * Documentation/netlink.rst.
 */
#include <lnet/route.h>

#include "netlink.h"

const struct nla_policy lnet_route_policy[LNET_ROUTE_POLICY_MAX + 1] = {
	[LNET_A_NET]		= { .type = NLA_NUL_STRING,
				    .len = LNET_GENL_NET_LEN - 1 },
	[LNET_A_GATEWAY]	= { .type = NLA_NUL_STRING,
				    .len = LNET_GENL_NID_LEN - 1 },
	/* 0 passes the policy to get the spec's message (lnet_genl_hop()) */
	[LNET_A_HOP]		= NLA_POLICY_RANGE(NLA_S32, -1,
						   LNET_ROUTE_HOPS_MAX),
	[LNET_A_PRIORITY]	= { .type = NLA_U32 },	/* all of it */
};

/*
 * The remote net of a request.  Stock's netlink refuses lo with -EACCES
 * and the wildcard with -ENXIO (spec lnet-routing.md 10.7).
 */
static int lnet_genl_route_net(const struct nlattr *attr, u32 *net,
			       struct netlink_ext_ack *extack)
{
	if (lnet_net_from_str(nla_data(attr), net) < 0) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "invalid network");
		return -ENODEV;
	}
	if (*net == LNET_NET_ANY) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "a wildcard is not a network");
		return -ENXIO;
	}
	if (lnet_net_type(*net) == LNET_LND_LO) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "the lo network cannot have routes");
		return -EACCES;
	}
	return 0;
}

static int lnet_genl_route_gw(const struct nlattr *attr,
			      struct lnet_nid *gw,
			      struct netlink_ext_ack *extack)
{
	if (lnet_nid_from_str(nla_data(attr), gw) < 0) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "invalid gateway NID");
		return -ENODEV;
	}
	return 0;
}

static int lnet_genl_hop(const struct nlattr *attr, u32 *hops,
			 struct netlink_ext_ack *extack)
{
	s32 hop = attr ? nla_get_s32(attr) : -1;

	if (!hop) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "hop must be 1..255, or -1 for unset");
		return -EINVAL;
	}
	*hops = hop < 0 ? LNET_ROUTE_HOPS_UNSET : hop;
	return 0;
}

/* NET and, if @need_gw, GATEWAY are required: report a missing one. */
static bool lnet_genl_route_missing(struct genl_info *info, bool need_gw)
{
	int type = !info->attrs[LNET_A_NET] ? LNET_A_NET :
		   need_gw && !info->attrs[LNET_A_GATEWAY] ? LNET_A_GATEWAY :
		   0;

	if (!type)
		return false;
	NL_SET_ERR_ATTR_MISS(info->extack, NULL, type);
	info->extack->_msg = type == LNET_A_NET ?
			     "missing mandatory parameter: network" :
			     "missing mandatory parameter: gateway";
	return true;
}

/**
 * lnet_genl_route_add() - LNET_CMD_ROUTE_ADD: add a route
 * @skb: the request
 * @info: its attributes: NET, GATEWAY, HOP, PRIORITY
 *
 * Return: 0 or -errno, with an extack message; on error nothing changed.
 */
int lnet_genl_route_add(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *prio = info->attrs[LNET_A_PRIORITY];
	struct lnet_nid gw;
	u32 net, hops;
	int rc;

	if (lnet_genl_route_missing(info, true))
		return -ENODEV;
	rc = lnet_genl_route_net(info->attrs[LNET_A_NET], &net, info->extack);
	if (!rc)
		rc = lnet_genl_route_gw(info->attrs[LNET_A_GATEWAY], &gw,
					info->extack);
	if (!rc)
		rc = lnet_genl_hop(info->attrs[LNET_A_HOP], &hops,
				   info->extack);
	if (rc)
		return rc;
	return lnet_route_add(net, &gw, hops, prio ? nla_get_u32(prio) : 0,
			      info->extack);
}

/**
 * lnet_genl_route_del() - LNET_CMD_ROUTE_DEL: delete routes
 * @skb: the request
 * @info: its attributes: NET, GATEWAY (any NID of the gateway's peer;
 *	absent: every route to NET)
 *
 * Return: 0 (even if no route through GATEWAY existed, as stock), or
 * -errno with an extack message: -ENOENT if NET has no route.
 */
int lnet_genl_route_del(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *gw_attr = info->attrs[LNET_A_GATEWAY];
	struct lnet_nid gw;
	u32 net;
	int rc;

	if (lnet_genl_route_missing(info, false))
		return -ENODEV;
	rc = lnet_genl_route_net(info->attrs[LNET_A_NET], &net, info->extack);
	if (!rc && gw_attr)
		rc = lnet_genl_route_gw(gw_attr, &gw, info->extack);
	if (rc)
		return rc;
	return lnet_route_del(net, gw_attr ? &gw : NULL, info->extack);
}

/* Dump state in cb->args[]. */
enum {
	LNET_ROUTE_DUMP_POS,	/* routes visited, the walk's cursor */
	LNET_ROUTE_DUMP_SENT,	/* routes sent */
	LNET_ROUTE_DUMP_STARTED,
};

struct lnet_route_dump {
	struct sk_buff		*skb;
	struct netlink_callback	*cb;
	u32			net;	/* filters: LNET_NET_ANY */
	struct lnet_nid		gw;	/* LNET_ANY_NID */
	s32			hop;	/* 0: any */
	bool			has_prio;
	u32			prio;
	unsigned int		sent;
};

static int lnet_genl_put_route(const struct lnet_route_info *ri, void *arg)
{
	struct lnet_route_dump *d = arg;
	char net[LNET_GENL_NET_LEN];
	s32 hop = ri->hops == LNET_ROUTE_HOPS_UNSET ? -1 : ri->hops;
	void *hdr;

	if ((d->net != LNET_NET_ANY && ri->net != d->net) ||
	    (!lnet_nid_is_any(&d->gw) &&
	     !lnet_nid_equal(&d->gw, &ri->gateway)) ||
	    (d->hop && hop != d->hop) ||
	    (d->has_prio && ri->priority != d->prio))
		return 0;	/* passed over */
	hdr = genlmsg_put(d->skb, NETLINK_CB(d->cb->skb).portid,
			  d->cb->nlh->nlmsg_seq, &lnet_genl_family,
			  NLM_F_MULTI, LNET_CMD_ROUTE_GET);
	if (!hdr)
		return -EMSGSIZE;
	lnet_net_to_str(ri->net, net, sizeof(net));
	if (nla_put_string(d->skb, LNET_A_NET, net) ||
	    lnet_genl_put_nid(d->skb, LNET_A_GATEWAY, &ri->gateway) ||
	    nla_put_s32(d->skb, LNET_A_HOP, hop) ||
	    nla_put_u32(d->skb, LNET_A_PRIORITY, ri->priority) ||
	    nla_put_u8(d->skb, LNET_A_ROUTE_ALIVE, ri->alive) ||
	    nla_put_u8(d->skb, LNET_A_ROUTE_SINGLE_HOP, ri->single_hop)) {
		genlmsg_cancel(d->skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(d->skb, hdr);
	d->sent++;
	return 0;
}

/**
 * lnet_genl_route_get_dump() - LNET_CMD_ROUTE_GET: one message per route
 * @skb: the reply
 * @cb: the dump; NET, GATEWAY (the NID given at add), HOP and PRIORITY
 *	select routes
 *
 * As stock (spec 10.7), a dump with a filter that matches no route ends
 * with -ENOENT "No routes found"; without one, an empty table is no
 * error.
 *
 * Return: the reply's length, 0 when done, or -errno.
 */
int lnet_genl_route_get_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr **attrs = genl_dumpit_info(cb)->attrs;
	struct lnet_route_dump d = {
		.skb = skb, .cb = cb, .net = LNET_NET_ANY, .gw = LNET_ANY_NID,
	};
	bool filtered = false;
	int rc, n;

	rc = lnet_genl_netns_check(cb->skb, cb->extack);
	if (rc)
		return rc;
	if (attrs[LNET_A_NET]) {
		rc = lnet_genl_route_net(attrs[LNET_A_NET], &d.net, cb->extack);
		if (rc)
			return rc;
		filtered = true;
	}
	if (attrs[LNET_A_GATEWAY]) {
		rc = lnet_genl_route_gw(attrs[LNET_A_GATEWAY], &d.gw,
					cb->extack);
		if (rc)
			return rc;
		filtered = true;
	}
	if (attrs[LNET_A_HOP]) {
		d.hop = nla_get_s32(attrs[LNET_A_HOP]);
		filtered = true;
	}
	if (attrs[LNET_A_PRIORITY]) {
		d.has_prio = true;
		d.prio = nla_get_u32(attrs[LNET_A_PRIORITY]);
		filtered = true;
	}
	if (!cb->args[LNET_ROUTE_DUMP_STARTED]) {
		if (!lnet_is_configured()) {
			NL_SET_ERR_MSG(cb->extack, "LNet is not configured");
			return -ENETDOWN;
		}
		cb->args[LNET_ROUTE_DUMP_STARTED] = 1;
	}
	n = lnet_routes_walk(cb->args[LNET_ROUTE_DUMP_POS],
			     lnet_genl_put_route, &d);
	cb->args[LNET_ROUTE_DUMP_POS] += n;
	cb->args[LNET_ROUTE_DUMP_SENT] += d.sent;
	if (skb->len)
		return skb->len;
	if (filtered && !cb->args[LNET_ROUTE_DUMP_SENT]) {
		NL_SET_ERR_MSG(cb->extack, "No routes found");
		return -ENOENT;
	}
	return 0;
}
