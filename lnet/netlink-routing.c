// SPDX-License-Identifier: GPL-2.0
/*
 * The forwarding commands of the "lnet" generic netlink family:
 * ROUTING_SET ("lnetctl set routing 0|1"), BUFFERS_SET ("set
 * tiny_buffers|small_buffers|large_buffers N") and ROUTING_GET ("routing
 * show").  See lnet/router.c, Documentation/routing.rst and
 * Documentation/netlink.rst.
 */
#include <lnet/router.h>

#include "netlink.h"

const struct nla_policy lnet_routing_policy[LNET_ROUTING_POLICY_MAX + 1] = {
	[LNET_A_ROUTING_ENABLE]	= NLA_POLICY_RANGE(NLA_U8, 0, 1),
	[LNET_A_RTR_TINY]	= NLA_POLICY_MIN(NLA_S32, -1),
	[LNET_A_RTR_SMALL]	= NLA_POLICY_MIN(NLA_S32, -1),
	[LNET_A_RTR_LARGE]	= NLA_POLICY_MIN(NLA_S32, -1),
};

/**
 * lnet_genl_routing_set() - LNET_CMD_ROUTING_SET: forwarding on or off
 * @skb: the request
 * @info: its attributes: ROUTING_ENABLE (required)
 *
 * Return: 0 or -errno, with an extack message.
 */
int lnet_genl_routing_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *attr = info->attrs[LNET_A_ROUTING_ENABLE];

	if (!attr) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, LNET_A_ROUTING_ENABLE);
		info->extack->_msg = "missing mandatory parameter: enable";
		return -EINVAL;
	}
	return lnet_routing_set(nla_get_u8(attr), info->extack);
}

/**
 * lnet_genl_buffers_set() - LNET_CMD_BUFFERS_SET: router buffer totals
 * @skb: the request
 * @info: its attributes: RTR_TINY, RTR_SMALL, RTR_LARGE; an absent one
 *	is left as it is (-1)
 *
 * Return: 0 (a no-op while routing is disabled, as stock) or -errno,
 * with an extack message.
 */
int lnet_genl_buffers_set(struct sk_buff *skb, struct genl_info *info)
{
	static const int attrs[LNET_RTRPOOL_COUNT] = {
		LNET_A_RTR_TINY, LNET_A_RTR_SMALL, LNET_A_RTR_LARGE,
	};
	int totals[LNET_RTRPOOL_COUNT];
	bool any = false;
	int i;

	for (i = 0; i < LNET_RTRPOOL_COUNT; i++) {
		struct nlattr *a = info->attrs[attrs[i]];

		totals[i] = a ? nla_get_s32(a) : -1;
		any |= !!a;
	}
	if (!any) {
		NL_SET_ERR_MSG(info->extack,
			       "missing parameter: tiny, small or large");
		return -EINVAL;
	}
	return lnet_routing_buffers_set(totals, info->extack);
}

static int lnet_genl_put_pool(struct sk_buff *msg,
			      const struct lnet_rtrpool_info *p, int wanted)
{
	struct nlattr *nest = nla_nest_start(msg, LNET_A_RTR_POOL);

	if (!nest ||
	    nla_put_u32(msg, LNET_RTRPOOL_A_NPAGES, p->npages) ||
	    nla_put_s32(msg, LNET_RTRPOOL_A_NBUFFERS, p->nbuffers) ||
	    nla_put_s32(msg, LNET_RTRPOOL_A_CREDITS, p->credits) ||
	    nla_put_s32(msg, LNET_RTRPOOL_A_MINCREDITS, p->mincredits) ||
	    nla_put_s32(msg, LNET_RTRPOOL_A_WANTED, wanted))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

/**
 * lnet_genl_routing_get() - LNET_CMD_ROUTING_GET: "routing show"
 * @skb: the request
 * @info: no attributes
 *
 * The reply has ROUTING_STATE and, once routing was ever enabled (stock
 * prints nothing before), one RTR_POOL per pool: tiny, small, large.
 *
 * Return: 0 or -errno, with an extack message.
 */
int lnet_genl_routing_get(struct sk_buff *skb, struct genl_info *info)
{
	struct lnet_rtrpool_info pools[LNET_RTRPOOL_COUNT];
	bool made = lnet_rtrpools_allocated();
	struct sk_buff *msg;
	void *hdr;
	int i, rc;

	if (made)
		lnet_rtrpools_info(pools);
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &lnet_genl_family, 0,
				LNET_CMD_ROUTING_GET);
	rc = !hdr || nla_put_u32(msg, LNET_A_ROUTING_STATE,
				 lnet_routing_state()) ? -EMSGSIZE : 0;
	for (i = 0; made && !rc && i < LNET_RTRPOOL_COUNT; i++)
		rc = lnet_genl_put_pool(msg, &pools[i], lnet_rtrpool_param(i));
	if (rc) {
		nlmsg_free(msg);
		NL_SET_ERR_MSG(info->extack, "routing figures do not fit");
		return rc;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}
