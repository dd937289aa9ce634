// SPDX-License-Identifier: GPL-2.0
/*
 * The health part of the "lnet" generic netlink family: "net set
 * --health" / "peer set --health" (LNET_CMD_HEALTH_SET), "debug recovery"
 * (LNET_CMD_RECOVERY_GET), and the health attributes of NI and peer NI
 * dumps and of the global statistics.  See Documentation/netlink.rst.
 */
#include <linux/slab.h>
#include <net/genetlink.h>

#include "netlink.h"

/* Most NIDs one RECOVERY_GET reply lists (lnetctl prints them all). */
#define LNET_GENL_RECOVERY_NIDS_MAX	1024

static struct netlink_range_validation lnet_health_value_range = {
	.min = 0,
	.max = LNET_GENL_HEALTH_MAX,
};

const struct nla_policy lnet_health_policy[LNET_HEALTH_POLICY_MAX + 1] = {
	[LNET_A_NID]		= { .type = NLA_NUL_STRING,
				    .len = LNET_GENL_NID_LEN - 1 },
	[LNET_A_HEALTH_VALUE]	=
		NLA_POLICY_FULL_RANGE(NLA_U32, &lnet_health_value_range),
	[LNET_A_PEER]		= { .type = NLA_FLAG },
	[LNET_A_LND_TUNABLES]	= NLA_POLICY_NESTED(lnet_lnd_tunables_policy),
};

/* "net set --conns-per-peer": the only LND tunable that can be set. */
static int lnet_genl_lnd_tunables_set(struct genl_info *info,
				      const struct lnet_nid *nid)
{
	struct nlattr *tb[LNET_LND_TUN_A_MAX + 1];
	struct nlattr *nest = info->attrs[LNET_A_LND_TUNABLES];
	int i, rc;

	if (nla_get_flag(info->attrs[LNET_A_PEER])) {
		NL_SET_ERR_MSG_ATTR(info->extack, nest,
				    "a peer NI has no LND tunables");
		return -EINVAL;
	}
	/* already validated against lnet_lnd_tunables_policy */
	rc = nla_parse_nested(tb, LNET_LND_TUN_A_MAX, nest,
			      lnet_lnd_tunables_policy, info->extack);
	if (rc < 0)
		return rc;
	for (i = 1; i <= LNET_LND_TUN_A_MAX; i++)
		if (tb[i] && i != LNET_LND_TUN_A_CONNS_PER_PEER) {
			NL_SET_ERR_MSG_ATTR(info->extack, tb[i],
					    "only conns_per_peer can be set");
			return -EOPNOTSUPP;
		}
	if (!tb[LNET_LND_TUN_A_CONNS_PER_PEER]) {
		NL_SET_ERR_MSG_ATTR(info->extack, nest, "nothing to set");
		return -EINVAL;
	}
	return lnet_ni_conns_per_peer_set(nid,
			nla_get_s32(tb[LNET_LND_TUN_A_CONNS_PER_PEER]),
			info->extack);
}

int lnet_genl_health_set(struct sk_buff *skb, struct genl_info *info)
{
	bool peer = nla_get_flag(info->attrs[LNET_A_PEER]);
	struct nlattr *nid_attr = info->attrs[LNET_A_NID];
	struct lnet_nid nid;
	int rc;

	if (!info->attrs[LNET_A_HEALTH_VALUE] &&
	    !info->attrs[LNET_A_LND_TUNABLES]) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, LNET_A_HEALTH_VALUE);
		NL_SET_ERR_MSG(info->extack, "missing health value");
		return -EINVAL;
	}
	if (nid_attr) {
		rc = lnet_genl_parse_nid(nid_attr, &nid, info->extack);
		if (rc < 0)
			return rc;
	}
	mutex_lock(&lnet_genl_mutex);
	rc = 0;
	if (info->attrs[LNET_A_LND_TUNABLES])
		rc = lnet_genl_lnd_tunables_set(info, nid_attr ? &nid : NULL);
	if (!rc && info->attrs[LNET_A_HEALTH_VALUE])
		rc = lnet_health_set(peer, nid_attr ? &nid : NULL,
				     nla_get_u32(info->attrs[LNET_A_HEALTH_VALUE]),
				     info->extack);
	mutex_unlock(&lnet_genl_mutex);
	if (rc < 0 && nid_attr && !info->extack->bad_attr)
		info->extack->bad_attr = nid_attr;
	return rc;
}

int lnet_genl_recovery_get(struct sk_buff *skb, struct genl_info *info)
{
	bool peer = nla_get_flag(info->attrs[LNET_A_PEER]);
	struct lnet_nid *nids;
	struct sk_buff *msg;
	struct nlattr *nest;
	int n, i, rc = -EMSGSIZE;
	void *hdr;

	if (info->attrs[LNET_A_NID] || info->attrs[LNET_A_HEALTH_VALUE] ||
	    info->attrs[LNET_A_LND_TUNABLES]) {
		NL_SET_ERR_MSG(info->extack,
			       "recovery queues take no NID or value");
		return -EINVAL;
	}
	nids = kcalloc(LNET_GENL_RECOVERY_NIDS_MAX, sizeof(*nids), GFP_KERNEL);
	msg = genlmsg_new(GENLMSG_DEFAULT_SIZE * 4, GFP_KERNEL);
	if (!nids || !msg) {
		rc = -ENOMEM;
		goto out;
	}
	n = lnet_recovery_nids(peer, nids, LNET_GENL_RECOVERY_NIDS_MAX);
	hdr = genlmsg_put_reply(msg, info, &lnet_genl_family, 0,
				LNET_CMD_RECOVERY_GET);
	if (!hdr || nla_put_u32(msg, LNET_A_PEER_NID_COUNT, n))
		goto out;
	nest = nla_nest_start(msg, LNET_A_PEER_NIDS);
	if (!nest)
		goto out;
	for (i = 0; i < min(n, LNET_GENL_RECOVERY_NIDS_MAX); i++)
		if (lnet_genl_put_nid(msg, LNET_A_NID, &nids[i]))
			goto out;
	nla_nest_end(msg, nest);
	genlmsg_end(msg, hdr);
	kfree(nids);
	return genlmsg_reply(msg, info);
out:
	if (rc == -EMSGSIZE)
		NL_SET_ERR_MSG(info->extack, "recovery queue does not fit");
	nlmsg_free(msg);
	kfree(nids);
	return rc;
}

static int lnet_genl_put_ping(struct sk_buff *skb, u32 ping_count,
			      s64 next_ping)
{
	if (nla_put_u32(skb, LNET_HEALTH_A_PING_COUNT, ping_count) ||
	    nla_put_s64(skb, LNET_HEALTH_A_NEXT_PING, next_ping,
			LNET_HEALTH_A_PAD))
		return -EMSGSIZE;
	return 0;
}

int lnet_genl_put_ni_health(struct sk_buff *skb, const struct lnet_ni_info *ni)
{
	const struct lnet_ni_hstats *h = &ni->hstats;
	struct nlattr *nest = nla_nest_start(skb, LNET_A_HEALTH);

	if (!nest ||
	    nla_put_u8(skb, LNET_HEALTH_A_FATAL, ni->fatal) ||
	    nla_put_u32(skb, LNET_HEALTH_A_VALUE, ni->healthv) ||
	    nla_put_u32(skb, LNET_HEALTH_A_INTERRUPTS, h->interrupts) ||
	    nla_put_u32(skb, LNET_HEALTH_A_DROPPED, h->dropped) ||
	    nla_put_u32(skb, LNET_HEALTH_A_ABORTED, h->aborted) ||
	    nla_put_u32(skb, LNET_HEALTH_A_NO_ROUTE, h->no_route) ||
	    nla_put_u32(skb, LNET_HEALTH_A_TIMEOUTS, h->timeouts) ||
	    nla_put_u32(skb, LNET_HEALTH_A_ERROR, h->error) ||
	    lnet_genl_put_ping(skb, ni->ping_count, ni->next_ping))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

int lnet_genl_put_peer_ni_health(struct sk_buff *skb,
				 const struct lnet_peer_ni_info *p)
{
	const struct lnet_peer_ni_hstats *h = &p->hstats;
	struct nlattr *nest = nla_nest_start(skb, LNET_A_HEALTH);

	if (!nest ||
	    nla_put_u32(skb, LNET_HEALTH_A_VALUE, p->healthv) ||
	    nla_put_u32(skb, LNET_HEALTH_A_DROPPED, h->dropped) ||
	    nla_put_u32(skb, LNET_HEALTH_A_TIMEOUTS, h->timeout) ||
	    nla_put_u32(skb, LNET_HEALTH_A_ERROR, h->error) ||
	    nla_put_u32(skb, LNET_HEALTH_A_NETWORK_TIMEOUT,
			h->network_timeout) ||
	    lnet_genl_put_ping(skb, p->ping_count, p->next_ping))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* The health counters of "stats show", in the open LNET_A_STATS. */
int lnet_genl_put_health_counters(struct sk_buff *skb,
				  const struct lnet_counters_common *c)
{
	const struct {
		int attr;
		u32 v;
	} h[] = {
		{ LNET_STATS_A_RESEND_COUNT, c->resend_count },
		{ LNET_STATS_A_LOCAL_INTERRUPT, c->local_interrupt_count },
		{ LNET_STATS_A_LOCAL_DROPPED, c->local_dropped_count },
		{ LNET_STATS_A_LOCAL_ABORTED, c->local_aborted_count },
		{ LNET_STATS_A_LOCAL_NO_ROUTE, c->local_no_route_count },
		{ LNET_STATS_A_LOCAL_TIMEOUT, c->local_timeout_count },
		{ LNET_STATS_A_LOCAL_ERROR, c->local_error_count },
		{ LNET_STATS_A_REMOTE_DROPPED, c->remote_dropped_count },
		{ LNET_STATS_A_REMOTE_ERROR, c->remote_error_count },
		{ LNET_STATS_A_REMOTE_TIMEOUT, c->remote_timeout_count },
		{ LNET_STATS_A_NETWORK_TIMEOUT, c->network_timeout_count },
		{ LNET_STATS_A_FAILED_RESENDS, c->failed_resends },
		{ LNET_STATS_A_SUCCESSFUL_RESENDS, c->successful_resends },
		{ LNET_STATS_A_LATE_MSGS, c->late_msgs },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(h); i++)
		if (nla_put_u32(skb, h[i].attr, h[i].v))
			return -EMSGSIZE;
	return 0;
}
