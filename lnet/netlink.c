// SPDX-License-Identifier: GPL-2.0
/*
 * The "lnet" generic netlink family: lnetctl's way into the core.  Every
 * request is validated strictly against a per-operation policy, every
 * rejection carries an extack message, and the handlers call only the
 * control API of <lnet/ctl.h>.  See Documentation/netlink.rst.
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include <lnet/ctl.h>
#include <lnet/hdr.h>
#include <lnet/lib-types.h>
#include <uapi/lnet/lnet_genl.h>

#include "netlink.h"

/*
 * The family runs with parallel_ops so that a ping waiting for its reply
 * does not hold the global genetlink mutex; this mutex serializes the
 * requests that change state.
 */
DEFINE_MUTEX(lnet_genl_mutex);

/* Give @extack a generic message if the core left it without one. */
static void lnet_genl_default_msg(struct netlink_ext_ack *extack,
				  const struct nlattr *attr, const char *msg)
{
	if (!extack || extack->_msg)
		return;
	extack->_msg = msg;
	if (attr && !extack->bad_attr)
		extack->bad_attr = attr;
}

/* A required attribute: report it by type when it is missing. */
static bool lnet_genl_missing(struct genl_info *info, int type,
			      const char *msg)
{
	if (info->attrs[type])
		return false;
	NL_SET_ERR_ATTR_MISS(info->extack, NULL, type);
	info->extack->_msg = msg;
	return true;
}

static int lnet_genl_parse_net(const struct nlattr *attr, u32 *net_id,
			       struct netlink_ext_ack *extack)
{
	if (lnet_net_from_str(nla_data(attr), net_id) < 0) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "invalid network");
		return -EINVAL;
	}
	if (*net_id == LNET_NET_ANY) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "a wildcard is not a network");
		return -EINVAL;
	}
	return 0;
}

/* Dump state in cb->args[]. */
enum {
	LNET_DUMP_IDX,		/* next NI index */
	LNET_DUMP_NET,		/* net filter, LNET_NET_ANY for all */
	LNET_DUMP_DETAIL,	/* detail level */
	LNET_DUMP_STARTED,	/* the request was checked */
};

int lnet_genl_parse_nid(const struct nlattr *attr, struct lnet_nid *nid,
			struct netlink_ext_ack *extack)
{
	if (lnet_nid_from_str(nla_data(attr), nid) < 0) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "invalid NID");
		return -EINVAL;
	}
	if (lnet_nid_is_any(nid)) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "a wildcard is not a NID");
		return -EINVAL;
	}
	return 0;
}

/* LNET_CMD_CONFIGURE / LNET_CMD_UNCONFIGURE */

static const struct nla_policy lnet_configure_policy[LNET_A_ALL + 1] = {
	[LNET_A_ALL]	= { .type = NLA_FLAG },
};

static int lnet_genl_configure(struct sk_buff *skb, struct genl_info *info)
{
	int rc;

	mutex_lock(&lnet_genl_mutex);
	rc = lnet_configure(nla_get_flag(info->attrs[LNET_A_ALL]),
			    info->extack);
	mutex_unlock(&lnet_genl_mutex);
	if (rc < 0)
		lnet_genl_default_msg(info->extack, NULL,
				      "cannot configure LNet");
	return rc;
}

static int lnet_genl_unconfigure(struct sk_buff *skb, struct genl_info *info)
{
	int rc;

	mutex_lock(&lnet_genl_mutex);
	rc = lnet_unconfigure(info->extack);
	mutex_unlock(&lnet_genl_mutex);
	if (rc == -EBUSY)
		lnet_genl_default_msg(info->extack, NULL,
				      "LNet is still in use");
	else if (rc < 0)
		lnet_genl_default_msg(info->extack, NULL,
				      "cannot unconfigure LNet");
	return rc;
}

/* LNET_CMD_NET_ADD / LNET_CMD_NET_DEL / LNET_CMD_NET_GET */

static struct netlink_range_validation_signed lnet_peer_timeout_range = {
	.min = 0,
	.max = LNET_GENL_PEER_TIMEOUT_MAX,
};

static struct netlink_range_validation_signed lnet_credits_range = {
	.min = 1,
	.max = LNET_GENL_CREDITS_MAX,
};

static struct netlink_range_validation_signed lnet_buf_credits_range = {
	.min = 0,
	.max = LNET_GENL_CREDITS_MAX,
};

static const struct nla_policy lnet_tunables_policy[LNET_TUN_A_MAX + 1] = {
	[LNET_TUN_A_PEER_TIMEOUT] =
		NLA_POLICY_FULL_RANGE_SIGNED(NLA_S32, &lnet_peer_timeout_range),
	[LNET_TUN_A_PEER_CREDITS] =
		NLA_POLICY_FULL_RANGE_SIGNED(NLA_S32, &lnet_credits_range),
	[LNET_TUN_A_PEER_BUFFER_CREDITS] =
		NLA_POLICY_FULL_RANGE_SIGNED(NLA_S32, &lnet_buf_credits_range),
	[LNET_TUN_A_CREDITS] =
		NLA_POLICY_FULL_RANGE_SIGNED(NLA_S32, &lnet_credits_range),
};

const struct nla_policy
lnet_lnd_tunables_policy[LNET_LND_TUN_A_MAX + 1] = {
	[LNET_LND_TUN_A_CONNS_PER_PEER] =
		NLA_POLICY_RANGE(NLA_S32, 0, LNET_GENL_CONNS_PER_PEER_MAX),
	[LNET_LND_TUN_A_PEERCREDITS_HIW] =
		NLA_POLICY_RANGE(NLA_S32, 0, LNET_GENL_PEERCREDITS_HIW_MAX),
	[LNET_LND_TUN_A_MAP_ON_DEMAND] =
		NLA_POLICY_RANGE(NLA_S32, 0, LNET_GENL_MAP_ON_DEMAND_MAX),
	[LNET_LND_TUN_A_CONCURRENT_SENDS] =
		NLA_POLICY_RANGE(NLA_S32, 0, LNET_GENL_CONCURRENT_SENDS_MAX),
	[LNET_LND_TUN_A_FMR_POOL_SIZE] =
		NLA_POLICY_RANGE(NLA_S32, 0, LNET_GENL_FMR_POOL_MAX),
	[LNET_LND_TUN_A_FMR_FLUSH_TRIGGER] =
		NLA_POLICY_RANGE(NLA_S32, 0, LNET_GENL_FMR_POOL_MAX),
	[LNET_LND_TUN_A_FMR_CACHE] = NLA_POLICY_RANGE(NLA_S32, 0, 1),
	[LNET_LND_TUN_A_NTX] = NLA_POLICY_RANGE(NLA_S32, 1, LNET_GENL_NTX_MAX),
	[LNET_LND_TUN_A_TIMEOUT] = {
		.type = NLA_REJECT,
		.reject_message = "timeout is the LND's module parameter",
	},
	[LNET_LND_TUN_A_TOS] =
		NLA_POLICY_RANGE(NLA_S32, LNET_GENL_TOS_MIN, LNET_GENL_TOS_MAX),
};

static const struct nla_policy lnet_net_add_policy[LNET_A_LND_TUNABLES + 1] = {
	[LNET_A_NET]		= { .type = NLA_NUL_STRING,
				    .len = LNET_GENL_NET_LEN - 1 },
	[LNET_A_IFNAME]		= { .type = NLA_NUL_STRING,
				    .len = IFNAMSIZ - 1 },
	[LNET_A_TUNABLES]	= NLA_POLICY_NESTED(lnet_tunables_policy),
	[LNET_A_LND_TUNABLES]	= NLA_POLICY_NESTED(lnet_lnd_tunables_policy),
};

static const struct nla_policy lnet_net_del_policy[LNET_A_NID + 1] = {
	[LNET_A_NET]		= { .type = NLA_NUL_STRING,
				    .len = LNET_GENL_NET_LEN - 1 },
	[LNET_A_IFNAME]		= { .type = NLA_NUL_STRING,
				    .len = IFNAMSIZ - 1 },
	[LNET_A_NID]		= { .type = NLA_NUL_STRING,
				    .len = LNET_GENL_NID_LEN - 1 },
};

static const struct nla_policy lnet_net_get_policy[LNET_A_DETAIL + 1] = {
	[LNET_A_NET]		= { .type = NLA_NUL_STRING,
				    .len = LNET_GENL_NET_LEN - 1 },
	[LNET_A_DETAIL]		= NLA_POLICY_MAX(NLA_U8, LNET_GENL_DETAIL_MAX),
};

static s32 lnet_genl_tunable(struct nlattr **tb, int type)
{
	return tb[type] ? nla_get_s32(tb[type]) : -1;
}

static int lnet_genl_net_add(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *ltb[LNET_LND_TUN_A_MAX + 1] = {};
	struct nlattr *tb[LNET_TUN_A_MAX + 1] = {};
	struct nlattr *attr = info->attrs[LNET_A_NET];
	struct lnet_ni_tunables tun;
	const char *ifname = "";
	u32 net_id;
	int rc;

	if (lnet_genl_missing(info, LNET_A_NET, "missing network"))
		return -EINVAL;
	rc = lnet_genl_parse_net(attr, &net_id, info->extack);
	if (rc < 0)
		return rc;
	if (lnet_net_type(net_id) == LNET_LND_LO) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "the lo network cannot be added");
		return -EINVAL;
	}
	if (info->attrs[LNET_A_IFNAME])
		ifname = nla_data(info->attrs[LNET_A_IFNAME]);
	if (info->attrs[LNET_A_TUNABLES]) {
		/* already validated against lnet_tunables_policy */
		rc = nla_parse_nested(tb, LNET_TUN_A_MAX,
				      info->attrs[LNET_A_TUNABLES],
				      lnet_tunables_policy, info->extack);
		if (rc < 0)
			return rc;
	}
	if (info->attrs[LNET_A_LND_TUNABLES]) {
		/* already validated against lnet_lnd_tunables_policy */
		rc = nla_parse_nested(ltb, LNET_LND_TUN_A_MAX,
				      info->attrs[LNET_A_LND_TUNABLES],
				      lnet_lnd_tunables_policy, info->extack);
		if (rc < 0)
			return rc;
	}
	tun.peer_timeout = lnet_genl_tunable(tb, LNET_TUN_A_PEER_TIMEOUT);
	tun.peer_credits = lnet_genl_tunable(tb, LNET_TUN_A_PEER_CREDITS);
	tun.peer_buffer_credits =
		lnet_genl_tunable(tb, LNET_TUN_A_PEER_BUFFER_CREDITS);
	tun.credits = lnet_genl_tunable(tb, LNET_TUN_A_CREDITS);
	tun.conns_per_peer =
		lnet_genl_tunable(ltb, LNET_LND_TUN_A_CONNS_PER_PEER);
	tun.peercredits_hiw =
		lnet_genl_tunable(ltb, LNET_LND_TUN_A_PEERCREDITS_HIW);
	tun.map_on_demand =
		lnet_genl_tunable(ltb, LNET_LND_TUN_A_MAP_ON_DEMAND);
	tun.concurrent_sends =
		lnet_genl_tunable(ltb, LNET_LND_TUN_A_CONCURRENT_SENDS);
	tun.fmr_pool_size =
		lnet_genl_tunable(ltb, LNET_LND_TUN_A_FMR_POOL_SIZE);
	tun.fmr_flush_trigger =
		lnet_genl_tunable(ltb, LNET_LND_TUN_A_FMR_FLUSH_TRIGGER);
	tun.fmr_cache = lnet_genl_tunable(ltb, LNET_LND_TUN_A_FMR_CACHE);
	tun.ntx = lnet_genl_tunable(ltb, LNET_LND_TUN_A_NTX);
	/* -1 is a value (no ToS), absent the LND's tos parameter */
	tun.tos = ltb[LNET_LND_TUN_A_TOS] ?
		  nla_get_s32(ltb[LNET_LND_TUN_A_TOS]) : LNET_NI_TOS_DEFAULT;

	mutex_lock(&lnet_genl_mutex);
	rc = lnet_net_add(net_id, ifname, &tun, info->extack);
	mutex_unlock(&lnet_genl_mutex);
	if (rc < 0)
		lnet_genl_default_msg(info->extack, attr,
				      "cannot add network");
	return rc;
}

static int lnet_genl_net_del(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *attr = info->attrs[LNET_A_NET];
	struct nlattr *nid_attr = info->attrs[LNET_A_NID];
	const char *ifname = NULL;
	u32 net_id = LNET_NET_ANY;
	struct lnet_nid nid;
	int rc;

	/* By net (and interface), or by the NI's NID. */
	if (!nid_attr &&
	    lnet_genl_missing(info, LNET_A_NET, "missing network"))
		return -EINVAL;
	if (nid_attr) {
		rc = lnet_genl_parse_nid(nid_attr, &nid, info->extack);
		if (rc < 0)
			return rc;
		net_id = lnet_nid_net(&nid);
	}
	if (attr) {
		u32 nid_net = net_id;

		rc = lnet_genl_parse_net(attr, &net_id, info->extack);
		if (rc < 0)
			return rc;
		if (nid_attr && net_id != nid_net) {
			NL_SET_ERR_MSG_ATTR(info->extack, nid_attr,
					    "the NID is not on that network");
			return -EINVAL;
		}
	} else {
		attr = nid_attr;
	}
	if (lnet_net_type(net_id) == LNET_LND_LO) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr,
				    "the lo network cannot be deleted");
		return -EINVAL;
	}
	if (info->attrs[LNET_A_IFNAME])
		ifname = nla_data(info->attrs[LNET_A_IFNAME]);

	mutex_lock(&lnet_genl_mutex);
	rc = lnet_net_del(net_id, ifname, nid_attr ? &nid : NULL,
			  info->extack);
	mutex_unlock(&lnet_genl_mutex);
	if (rc == -ENOENT)
		lnet_genl_default_msg(info->extack, attr,
				      "no such network or interface");
	else if (rc < 0)
		lnet_genl_default_msg(info->extack, attr,
				      "cannot delete network");
	return rc;
}

/*
 * Check the request on the first call of the dump rather than in .start:
 * only the dump callback has an extack to report a rejection with.
 */
static int lnet_genl_net_get_begin(struct netlink_callback *cb)
{
	struct nlattr **attrs = genl_dumpit_info(cb)->attrs;
	u32 net_id = LNET_NET_ANY;
	int rc;

	if (attrs[LNET_A_NET]) {
		rc = lnet_genl_parse_net(attrs[LNET_A_NET], &net_id,
					 cb->extack);
		if (rc < 0)
			return rc;
	}
	if (!lnet_is_configured()) {
		NL_SET_ERR_MSG(cb->extack, "LNet is not configured");
		return -ENETDOWN;
	}
	cb->args[LNET_DUMP_IDX] = 0;
	cb->args[LNET_DUMP_NET] = net_id;
	cb->args[LNET_DUMP_DETAIL] = attrs[LNET_A_DETAIL] ?
				     nla_get_u8(attrs[LNET_A_DETAIL]) : 0;
	cb->args[LNET_DUMP_STARTED] = 1;
	return 0;
}

/* The attribute of each enum lnet_msg_type, the index of the counts. */
static const u8 lnet_genl_msg_attr[LNET_CTL_MSG_TYPES] = {
	[LNET_MSG_ACK]		= LNET_MSG_A_ACK,
	[LNET_MSG_PUT]		= LNET_MSG_A_PUT,
	[LNET_MSG_GET]		= LNET_MSG_A_GET,
	[LNET_MSG_REPLY]	= LNET_MSG_A_REPLY,
	[LNET_MSG_HELLO]	= LNET_MSG_A_HELLO,
};

/**
 * lnet_genl_put_latency() - put an LNET_A_LATENCY nest
 * @skb: the message
 * @lat: the LNET_LAT_KINDS latencies of an NI or peer NI
 *
 * Return: 0 or -EMSGSIZE.
 */
int lnet_genl_put_latency(struct sk_buff *skb, const struct lnet_latency *lat)
{
	struct nlattr *nest = nla_nest_start(skb, LNET_A_LATENCY);
	int k, a;

	if (!nest)
		return -EMSGSIZE;
	for (k = 0; k < LNET_LAT_KINDS; k++) {
		const struct lnet_latency *l = &lat[k];

		/* SAMPLES, MIN, MAX, AVG of each kind, in kind order. */
		a = LNET_LAT_A_PUT_EGRESS_SAMPLES + 4 * k;
		if (nla_put_u32(skb, a, l->samples) ||
		    nla_put_u64_64bit(skb, a + 1, l->min_ns, LNET_LAT_A_PAD) ||
		    nla_put_u64_64bit(skb, a + 2, l->max_ns, LNET_LAT_A_PAD) ||
		    nla_put_u64_64bit(skb, a + 3, l->samples ?
				      div_u64(l->total_ns, l->samples) : 0,
				      LNET_LAT_A_PAD))
			return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* A NID as a string attribute: 0, or -EMSGSIZE. */
int lnet_genl_put_nid(struct sk_buff *skb, int type,
		      const struct lnet_nid *nid)
{
	char str[LNET_NIDSTR_SIZE];

	if (lnet_nid_to_str(nid, str, sizeof(str)) < 0 ||
	    nla_put_string(skb, type, str))
		return -EMSGSIZE;
	return 0;
}

int lnet_genl_put_msg_types(struct sk_buff *skb, int type, const u32 *count)
{
	struct nlattr *nest;
	int i;

	nest = nla_nest_start(skb, type);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < LNET_CTL_MSG_TYPES; i++)
		if (nla_put_u32(skb, lnet_genl_msg_attr[i], count[i]))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* ko2iblnd's LND tunables in force, into the open LNET_A_LND_TUNABLES. */
static int lnet_genl_put_o2ib_tunables(struct sk_buff *skb,
				       const struct lnet_ni_tunables *t)
{
	if (nla_put_s32(skb, LNET_LND_TUN_A_PEERCREDITS_HIW,
			t->peercredits_hiw) ||
	    nla_put_s32(skb, LNET_LND_TUN_A_MAP_ON_DEMAND, t->map_on_demand) ||
	    nla_put_s32(skb, LNET_LND_TUN_A_CONCURRENT_SENDS,
			t->concurrent_sends) ||
	    nla_put_s32(skb, LNET_LND_TUN_A_FMR_POOL_SIZE, t->fmr_pool_size) ||
	    nla_put_s32(skb, LNET_LND_TUN_A_FMR_FLUSH_TRIGGER,
			t->fmr_flush_trigger) ||
	    nla_put_s32(skb, LNET_LND_TUN_A_FMR_CACHE, t->fmr_cache) ||
	    nla_put_s32(skb, LNET_LND_TUN_A_NTX, t->ntx))
		return -EMSGSIZE;
	return 0;
}

static int lnet_genl_put_ni(struct sk_buff *skb,
			    const struct lnet_ni_info *ni,
			    unsigned int detail)
{
	char str[LNET_NIDSTR_SIZE];
	struct nlattr *nest;

	if (lnet_net_to_str(ni->net_id, str, sizeof(str)) < 0 ||
	    nla_put_string(skb, LNET_A_NET, str))
		return -EMSGSIZE;
	if (lnet_genl_put_nid(skb, LNET_A_NID, &ni->nid))
		return -EMSGSIZE;
	if (nla_put_u8(skb, LNET_A_NI_STATUS, ni->up))
		return -EMSGSIZE;
	if (ni->ifname[0] && nla_put_string(skb, LNET_A_IFNAME, ni->ifname))
		return -EMSGSIZE;
	if (detail < 1)
		return 0;

	nest = nla_nest_start(skb, LNET_A_NI_STATS);
	if (!nest ||
	    nla_put_u32(skb, LNET_NI_STATS_A_SEND_COUNT, ni->send_count) ||
	    nla_put_u32(skb, LNET_NI_STATS_A_RECV_COUNT, ni->recv_count) ||
	    nla_put_u32(skb, LNET_NI_STATS_A_DROP_COUNT, ni->drop_count))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	if (lnet_genl_put_latency(skb, ni->lat))
		return -EMSGSIZE;

	nest = nla_nest_start(skb, LNET_A_TUNABLES);
	if (!nest ||
	    nla_put_s32(skb, LNET_TUN_A_PEER_TIMEOUT,
			ni->tunables.peer_timeout) ||
	    nla_put_s32(skb, LNET_TUN_A_PEER_CREDITS,
			ni->tunables.peer_credits) ||
	    nla_put_s32(skb, LNET_TUN_A_PEER_BUFFER_CREDITS,
			ni->tunables.peer_buffer_credits) ||
	    nla_put_s32(skb, LNET_TUN_A_CREDITS, ni->tunables.credits))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);

	/* lo has no LND tunables */
	if (lnet_net_type(ni->net_id) != LNET_LND_LO) {
		nest = nla_nest_start(skb, LNET_A_LND_TUNABLES);
		if (!nest ||
		    nla_put_s32(skb, LNET_LND_TUN_A_CONNS_PER_PEER,
				ni->tunables.conns_per_peer))
			return -EMSGSIZE;
		if (lnet_net_type(ni->net_id) == LNET_LND_O2IB &&
		    lnet_genl_put_o2ib_tunables(skb, &ni->tunables))
			return -EMSGSIZE;
		if ((ni->lnd_timeout >= 0 &&
		     nla_put_s32(skb, LNET_LND_TUN_A_TIMEOUT,
				 ni->lnd_timeout)) ||
		    nla_put_s32(skb, LNET_LND_TUN_A_TOS, ni->tunables.tos))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	if (detail < 2)
		return 0;

	if (lnet_genl_put_msg_types(skb, LNET_A_NI_SENT, ni->sent) ||
	    lnet_genl_put_msg_types(skb, LNET_A_NI_RECEIVED, ni->received) ||
	    lnet_genl_put_msg_types(skb, LNET_A_NI_DROPPED, ni->dropped) ||
	    lnet_genl_put_ni_health(skb, ni))
		return -EMSGSIZE;
	if (detail < 4)
		return 0;
	return lnet_genl_put_udsp_info(skb, ni->udsp_net_prio,
				       ni->udsp_nid_prio, NULL, 0, NULL, 0);
}

static int lnet_genl_net_get_dump(struct sk_buff *skb,
				  struct netlink_callback *cb)
{
	struct lnet_ni_info *ni;
	unsigned int idx;
	int rc = 0;
	void *hdr;
	u32 net_id;

	rc = lnet_genl_netns_check(cb->skb, cb->extack);
	if (rc)
		return rc;
	if (!cb->args[LNET_DUMP_STARTED]) {
		rc = lnet_genl_net_get_begin(cb);
		if (rc < 0)
			return rc;
	}
	net_id = cb->args[LNET_DUMP_NET];
	ni = kmalloc(sizeof(*ni), GFP_KERNEL);
	if (!ni)
		return -ENOMEM;
	for (idx = cb->args[LNET_DUMP_IDX];
	     lnet_ni_info_get(idx, ni) == 0; idx++) {
		if (net_id != LNET_NET_ANY && ni->net_id != net_id)
			continue;
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &lnet_genl_family,
				  NLM_F_MULTI, LNET_CMD_NET_GET);
		if (!hdr) {
			rc = -EMSGSIZE;
			break;
		}
		rc = lnet_genl_put_ni(skb, ni, cb->args[LNET_DUMP_DETAIL]);
		if (rc < 0) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	kfree(ni);
	cb->args[LNET_DUMP_IDX] = idx;
	/* a full skb ends this part of the dump; the next one resumes */
	if (rc == -EMSGSIZE && skb->len)
		return skb->len;
	if (rc < 0) {
		NL_SET_ERR_MSG(cb->extack, "NI does not fit in a message");
		return rc;
	}
	return skb->len;
}

/* LNET_CMD_PING */

static struct netlink_range_validation lnet_ping_timeout_range = {
	.min = LNET_GENL_PING_TIMEOUT_MIN,
	.max = LNET_GENL_PING_TIMEOUT_MAX,
};

static const struct nla_policy lnet_ping_policy[LNET_A_TIMEOUT_MS + 1] = {
	[LNET_A_NID]		= { .type = NLA_NUL_STRING,
				    .len = LNET_GENL_NID_LEN - 1 },
	[LNET_A_SOURCE]		= { .type = NLA_NUL_STRING,
				    .len = LNET_GENL_NID_LEN - 1 },
	[LNET_A_TIMEOUT_MS]	=
		NLA_POLICY_FULL_RANGE(NLA_U32, &lnet_ping_timeout_range),
};

static int lnet_genl_ping_reply(struct genl_info *info, u8 cmd,
				const struct lnet_nid *prim, bool mr,
				const struct lnet_nid *nids, int count)
{
	unsigned int n = min_t(unsigned int, count, LNET_GENL_PING_NIDS_MAX);
	struct nlattr *nest;
	struct sk_buff *msg;
	unsigned int i;
	void *hdr;

	msg = genlmsg_new((n + 2) * nla_total_size(LNET_NIDSTR_SIZE) +
			  3 * nla_total_size(sizeof(u32)), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &lnet_genl_family, 0, cmd);
	if (!hdr)
		goto too_big;
	if (lnet_genl_put_nid(msg, LNET_A_NID, prim) ||
	    nla_put_u8(msg, LNET_A_MULTI_RAIL, mr) ||
	    nla_put_u32(msg, LNET_A_PEER_NID_COUNT, count))
		goto too_big;
	nest = nla_nest_start(msg, LNET_A_PEER_NIDS);
	if (!nest)
		goto too_big;
	for (i = 0; i < n; i++)
		if (lnet_genl_put_nid(msg, LNET_A_NID, &nids[i]))
			goto too_big;
	nla_nest_end(msg, nest);
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);

too_big:
	nlmsg_free(msg);
	NL_SET_ERR_MSG(info->extack, "reply does not fit in a message");
	return -EMSGSIZE;
}

/* Why a ping (of a ping or a discovery) failed, as an extack message. */
static void lnet_genl_ping_error(struct netlink_ext_ack *extack,
				 const struct nlattr *dst_attr, int rc,
				 const char *dflt)
{
	if (rc == -ETIMEDOUT)
		NL_SET_ERR_MSG_ATTR(extack, dst_attr,
				    "no ping reply within the timeout");
	else if (rc == -EHOSTUNREACH)
		NL_SET_ERR_MSG_ATTR(extack, dst_attr,
				    "no route to this NID: route table may be misconfigured");
	else if (rc == -EPROTO)
		NL_SET_ERR_MSG_ATTR(extack, dst_attr, "invalid ping reply");
	else
		lnet_genl_default_msg(extack, dst_attr, dflt);
}

static int lnet_genl_ping(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *dst_attr = info->attrs[LNET_A_NID];
	struct lnet_nid dst, src, *nids;
	unsigned int timeout_ms = 1000;
	bool has_src = false;
	u32 features = 0;
	int rc;

	if (lnet_genl_missing(info, LNET_A_NID, "missing NID to ping"))
		return -EINVAL;
	rc = lnet_genl_parse_nid(dst_attr, &dst, info->extack);
	if (rc < 0)
		return rc;
	if (info->attrs[LNET_A_SOURCE]) {
		rc = lnet_genl_parse_nid(info->attrs[LNET_A_SOURCE], &src,
					 info->extack);
		if (rc < 0)
			return rc;
		has_src = true;
	}
	if (info->attrs[LNET_A_TIMEOUT_MS])
		timeout_ms = nla_get_u32(info->attrs[LNET_A_TIMEOUT_MS]);

	nids = kcalloc(LNET_GENL_PING_NIDS_MAX, sizeof(*nids), GFP_KERNEL);
	if (!nids)
		return -ENOMEM;
	rc = lnet_ping(&dst, has_src ? &src : NULL, timeout_ms, nids,
		       LNET_GENL_PING_NIDS_MAX, &features);
	/* the primary NID is the first one the peer lists */
	if (rc >= 0)
		rc = lnet_genl_ping_reply(info, LNET_CMD_PING,
					  rc ? &nids[0] : &dst,
					  features & LNET_PING_FEAT_MULTI_RAIL,
					  nids, rc);
	else
		lnet_genl_ping_error(info->extack, dst_attr, rc, "ping failed");
	kfree(nids);
	return rc;
}

/* LNET_CMD_DISCOVER: ping a peer and merge its reply into the peer table */

static const struct nla_policy lnet_discover_policy[LNET_A_FORCE + 1] = {
	[LNET_A_NID]		= { .type = NLA_NUL_STRING,
				    .len = LNET_GENL_NID_LEN - 1 },
	[LNET_A_TIMEOUT_MS]	=
		NLA_POLICY_FULL_RANGE(NLA_U32, &lnet_ping_timeout_range),
	[LNET_A_FORCE]		= { .type = NLA_FLAG },
};

/* Is @nid the NID of one of our NIs (0@lo included)? */
static bool lnet_genl_nid_is_ours(const struct lnet_nid *nid)
{
	struct lnet_ni_info *ni = kmalloc(sizeof(*ni), GFP_KERNEL);
	unsigned int idx;
	bool ours = false;

	for (idx = 0; ni && !ours && !lnet_ni_info_get(idx, ni); idx++)
		ours = lnet_nid_equal(&ni->nid, nid);
	kfree(ni);
	return ours;
}

/*
 * The discovery of one of our own NIDs succeeds as stock's: 0@lo is a
 * peer of its own, any other of our NIDs answers with what its ping gives
 * (our NIs but 0@lo).  Our peer table holds no peer for our own NIDs.
 * Return: the number of NIDs in @nids, or -errno.
 */
static int lnet_genl_discover_self(const struct lnet_nid *dst,
				   unsigned int timeout_ms, bool *mr,
				   struct lnet_nid *nids)
{
	u32 features = 0;
	int rc, i, n = 0;

	*mr = false;
	if (lnet_net_type(lnet_nid_net(dst)) == LNET_LND_LO) {
		nids[0] = *dst;
		return 1;
	}
	rc = lnet_ping(dst, NULL, timeout_ms ?: 1000, nids,
		       LNET_GENL_PING_NIDS_MAX, &features);
	for (i = 0; i < min_t(int, rc, LNET_GENL_PING_NIDS_MAX); i++)
		if (lnet_net_type(lnet_nid_net(&nids[i])) != LNET_LND_LO)
			nids[n++] = nids[i];
	*mr = features & LNET_PING_FEAT_MULTI_RAIL;
	return rc < 0 ? rc : n;
}

/*
 * Discover a peer that is not up to date, or any with FORCE (ping and
 * push again), and wait for it to end: TIMEOUT_MS, by default as long as
 * a discovery may last (lnet_discover()).
 */
static int lnet_genl_discover(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *dst_attr = info->attrs[LNET_A_NID];
	struct lnet_peer_ni_info *peer;
	unsigned int timeout_ms = 0;
	struct lnet_nid dst, *nids;
	int rc;

	if (lnet_genl_missing(info, LNET_A_NID, "missing NID to discover"))
		return -EINVAL;
	rc = lnet_genl_parse_nid(dst_attr, &dst, info->extack);
	if (rc < 0)
		return rc;
	if (info->attrs[LNET_A_TIMEOUT_MS])
		timeout_ms = nla_get_u32(info->attrs[LNET_A_TIMEOUT_MS]);
	nids = kcalloc(LNET_GENL_PING_NIDS_MAX, sizeof(*nids), GFP_KERNEL);
	peer = kzalloc(sizeof(*peer), GFP_KERNEL);
	if (nids && peer && lnet_genl_nid_is_ours(&dst)) {
		peer->primary_nid = dst;
		rc = lnet_genl_discover_self(&dst, timeout_ms,
					     &peer->multi_rail, nids);
	} else {
		rc = nids && peer ?
			lnet_discover(&dst,
				      nla_get_flag(info->attrs[LNET_A_FORCE]),
				      timeout_ms, peer, nids,
				      LNET_GENL_PING_NIDS_MAX) : -ENOMEM;
	}
	if (rc >= 0)
		rc = lnet_genl_ping_reply(info, LNET_CMD_DISCOVER,
					  &peer->primary_nid, peer->multi_rail,
					  nids, rc);
	else
		lnet_genl_ping_error(info->extack, dst_attr, rc,
				     "discovery failed");
	kfree(peer);
	kfree(nids);
	return rc;
}

/* LNET_CMD_STATS_GET / LNET_CMD_STATS_RESET */

static int lnet_genl_put_stats(struct sk_buff *msg,
			       const struct lnet_counters_common *c)
{
	struct nlattr *nest = nla_nest_start(msg, LNET_A_STATS);

	if (!nest ||
	    nla_put_u32(msg, LNET_STATS_A_MSGS_ALLOC, c->msgs_alloc) ||
	    nla_put_u32(msg, LNET_STATS_A_MSGS_MAX, c->msgs_max) ||
	    nla_put_u32(msg, LNET_STATS_A_ERRORS, c->errors) ||
	    nla_put_u32(msg, LNET_STATS_A_SEND_COUNT, c->send_count) ||
	    nla_put_u32(msg, LNET_STATS_A_RECV_COUNT, c->recv_count) ||
	    nla_put_u32(msg, LNET_STATS_A_ROUTE_COUNT, c->route_count) ||
	    nla_put_u32(msg, LNET_STATS_A_DROP_COUNT, c->drop_count) ||
	    nla_put_u64_64bit(msg, LNET_STATS_A_SEND_LENGTH, c->send_length,
			      LNET_STATS_A_PAD) ||
	    nla_put_u64_64bit(msg, LNET_STATS_A_RECV_LENGTH, c->recv_length,
			      LNET_STATS_A_PAD) ||
	    nla_put_u64_64bit(msg, LNET_STATS_A_ROUTE_LENGTH, c->route_length,
			      LNET_STATS_A_PAD) ||
	    nla_put_u64_64bit(msg, LNET_STATS_A_DROP_LENGTH, c->drop_length,
			      LNET_STATS_A_PAD) ||
	    nla_put_u32(msg, LNET_STATS_A_RESPONSE_TIMEOUTS,
			c->response_timeouts) ||
	    lnet_genl_put_health_counters(msg, c))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

static int lnet_genl_stats_get(struct sk_buff *skb, struct genl_info *info)
{
	struct lnet_counters_common c;
	struct sk_buff *msg;
	void *hdr;

	lnet_counters_get(&c);
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &lnet_genl_family, 0,
				LNET_CMD_STATS_GET);
	if (!hdr || lnet_genl_put_stats(msg, &c)) {
		nlmsg_free(msg);
		NL_SET_ERR_MSG(info->extack, "statistics do not fit");
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static int lnet_genl_stats_reset(struct sk_buff *skb, struct genl_info *info)
{
	mutex_lock(&lnet_genl_mutex);
	lnet_counters_reset();
	mutex_unlock(&lnet_genl_mutex);
	return 0;
}

/* LNET_CMD_GLOBAL_GET / LNET_CMD_GLOBAL_SET */

static const struct nla_policy lnet_global_get_policy[LNET_A_PARAM_NAME + 1] = {
	[LNET_A_PARAM_NAME]	= { .type = NLA_NUL_STRING,
				    .len = LNET_GENL_PARAM_LEN - 1 },
};

static const struct nla_policy lnet_global_set_policy[LNET_A_PARAM_VALUE + 1] = {
	[LNET_A_PARAM_NAME]	= { .type = NLA_NUL_STRING,
				    .len = LNET_GENL_PARAM_LEN - 1 },
	[LNET_A_PARAM_VALUE]	= { .type = NLA_S64 },
};

static int lnet_genl_put_param(struct sk_buff *msg, const char *name)
{
	struct nlattr *nest;
	s64 value;

	if (lnet_global_get(name, &value) < 0)
		return 0;	/* listed by name but gone: skip */
	nest = nla_nest_start(msg, LNET_A_PARAM);
	if (!nest || nla_put_string(msg, LNET_A_PARAM_NAME, name) ||
	    nla_put_s64(msg, LNET_A_PARAM_VALUE, value, LNET_A_PAD))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

static int lnet_genl_global_get(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *attr = info->attrs[LNET_A_PARAM_NAME];
	const char *name;
	struct sk_buff *msg;
	unsigned int i;
	s64 value;
	void *hdr;
	int rc = 0;

	if (attr && lnet_global_get(nla_data(attr), &value) < 0) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr, "unknown parameter");
		return -ENOENT;
	}
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &lnet_genl_family, 0,
				LNET_CMD_GLOBAL_GET);
	if (!hdr) {
		rc = -EMSGSIZE;
	} else if (attr) {
		rc = lnet_genl_put_param(msg, nla_data(attr));
	} else {
		for (i = 0; (name = lnet_global_name(i)); i++) {
			rc = lnet_genl_put_param(msg, name);
			if (rc < 0)
				break;
		}
	}
	if (rc < 0) {
		nlmsg_free(msg);
		NL_SET_ERR_MSG(info->extack, "parameters do not fit");
		return rc;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static int lnet_genl_global_set(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *name = info->attrs[LNET_A_PARAM_NAME];
	struct nlattr *value = info->attrs[LNET_A_PARAM_VALUE];
	int rc;

	if (lnet_genl_missing(info, LNET_A_PARAM_NAME,
			      "missing parameter name") ||
	    lnet_genl_missing(info, LNET_A_PARAM_VALUE,
			      "missing parameter value"))
		return -EINVAL;

	mutex_lock(&lnet_genl_mutex);
	rc = lnet_global_set(nla_data(name), nla_get_s64(value),
			     info->extack);
	mutex_unlock(&lnet_genl_mutex);
	if (rc == -ENOENT)
		lnet_genl_default_msg(info->extack, name, "unknown parameter");
	else if (rc == -EPERM)
		lnet_genl_default_msg(info->extack, name,
				      "read-only parameter");
	else if (rc < 0)
		lnet_genl_default_msg(info->extack, value,
				      "invalid parameter value");
	return rc;
}

/**
 * lnet_genl_netns_check() - refuse a request from another network namespace.
 * @skb: the request.
 * @extack: where the reason goes.
 *
 * The modules hold one LNet (the_lnet is global) and it lives in the
 * initial network namespace.  The family is netnsok, so that a process in
 * another namespace finds it and is told why nothing works there, rather
 * than finding no family at all.  Every doit (pre_doit) and every dump
 * (its dumpit: .start has no extack on this kernel) calls this first;
 * so do the families of the modules on LNet (lnet_nidmap.ko).
 *
 * Return: 0 from the initial namespace, else -EOPNOTSUPP.
 */
int lnet_genl_netns_check(const struct sk_buff *skb,
			  struct netlink_ext_ack *extack)
{
	if (net_eq(sock_net(skb->sk), &init_net))
		return 0;
	NL_SET_ERR_MSG(extack,
		       "LNet runs only in the initial network namespace");
	return -EOPNOTSUPP;
}
EXPORT_SYMBOL_GPL(lnet_genl_netns_check);

/*
 * Changes need CAP_NET_ADMIN.  The check is ours rather than the genl
 * core's GENL_ADMIN_PERM so that the refusal carries an extack message
 * like every other one.
 */
#define LNET_GENL_ADMIN		0x01

static int lnet_genl_pre_doit(const struct genl_ops *ops, struct sk_buff *skb,
			      struct genl_info *info)
{
	int rc = lnet_genl_netns_check(skb, info->extack);

	if (rc)
		return rc;
	if ((ops->internal_flags & LNET_GENL_ADMIN) &&
	    !netlink_capable(skb, CAP_NET_ADMIN)) {
		NL_SET_ERR_MSG(info->extack,
			       "this request needs CAP_NET_ADMIN");
		return -EPERM;
	}
	return 0;
}

/* Ops that take no attributes have maxattr 0: any attribute is rejected. */
static const struct genl_ops lnet_genl_ops[] = {
	{
		.cmd		= LNET_CMD_CONFIGURE,
		.doit		= lnet_genl_configure,
		.policy		= lnet_configure_policy,
		.maxattr	= ARRAY_SIZE(lnet_configure_policy) - 1,
		.internal_flags	= LNET_GENL_ADMIN,
	},
	{
		.cmd		= LNET_CMD_UNCONFIGURE,
		.doit		= lnet_genl_unconfigure,
		.internal_flags	= LNET_GENL_ADMIN,
	},
	{
		.cmd		= LNET_CMD_NET_ADD,
		.doit		= lnet_genl_net_add,
		.policy		= lnet_net_add_policy,
		.maxattr	= ARRAY_SIZE(lnet_net_add_policy) - 1,
		.internal_flags	= LNET_GENL_ADMIN,
	},
	{
		.cmd		= LNET_CMD_NET_DEL,
		.doit		= lnet_genl_net_del,
		.policy		= lnet_net_del_policy,
		.maxattr	= ARRAY_SIZE(lnet_net_del_policy) - 1,
		.internal_flags	= LNET_GENL_ADMIN,
	},
	{
		.cmd		= LNET_CMD_NET_GET,
		.dumpit		= lnet_genl_net_get_dump,
		.policy		= lnet_net_get_policy,
		.maxattr	= ARRAY_SIZE(lnet_net_get_policy) - 1,
	},
	{
		.cmd		= LNET_CMD_PING,
		.doit		= lnet_genl_ping,
		.policy		= lnet_ping_policy,
		.maxattr	= ARRAY_SIZE(lnet_ping_policy) - 1,
		.internal_flags	= LNET_GENL_ADMIN,
	},
	{
		.cmd		= LNET_CMD_STATS_GET,
		.doit		= lnet_genl_stats_get,
	},
	{
		.cmd		= LNET_CMD_STATS_RESET,
		.doit		= lnet_genl_stats_reset,
		.internal_flags	= LNET_GENL_ADMIN,
	},
	{
		.cmd		= LNET_CMD_GLOBAL_GET,
		.doit		= lnet_genl_global_get,
		.policy		= lnet_global_get_policy,
		.maxattr	= ARRAY_SIZE(lnet_global_get_policy) - 1,
	},
	{
		.cmd		= LNET_CMD_GLOBAL_SET,
		.doit		= lnet_genl_global_set,
		.policy		= lnet_global_set_policy,
		.maxattr	= ARRAY_SIZE(lnet_global_set_policy) - 1,
		.internal_flags	= LNET_GENL_ADMIN,
	},
	{
		.cmd		= LNET_CMD_PEER_GET,
		.dumpit		= lnet_genl_peer_get_dump,
		.policy		= lnet_peer_get_policy,
		.maxattr	= LNET_PEER_POLICY_MAX,
	},
	{
		.cmd		= LNET_CMD_PEER_DEL,
		.doit		= lnet_genl_peer_del,
		.policy		= lnet_peer_del_policy,
		.maxattr	= LNET_PEER_POLICY_MAX,
		.internal_flags	= LNET_GENL_ADMIN,
	},
	{
		.cmd		= LNET_CMD_PEER_DEBUG,
		.doit		= lnet_genl_peer_debug,
		.policy		= lnet_peer_get_policy,
		.maxattr	= LNET_PEER_POLICY_MAX,
		.internal_flags	= LNET_GENL_ADMIN,
	},
	{
		.cmd		= LNET_CMD_DISCOVER,
		.doit		= lnet_genl_discover,
		.policy		= lnet_discover_policy,
		.maxattr	= ARRAY_SIZE(lnet_discover_policy) - 1,
		.internal_flags	= LNET_GENL_ADMIN,
	},
	{
		.cmd		= LNET_CMD_PEER_ADD,
		.doit		= lnet_genl_peer_add,
		.policy		= lnet_peer_add_policy,
		.maxattr	= LNET_PEER_POLICY_MAX,
		.internal_flags	= LNET_GENL_ADMIN,
	},
	{
		.cmd		= LNET_CMD_UDSP_ADD,
		.doit		= lnet_genl_udsp_add,
		.policy		= lnet_udsp_add_policy,
		.maxattr	= LNET_UDSP_POLICY_MAX,
		.internal_flags	= LNET_GENL_ADMIN,
	},
	{
		.cmd		= LNET_CMD_UDSP_DEL,
		.doit		= lnet_genl_udsp_del,
		.policy		= lnet_udsp_del_policy,
		.maxattr	= LNET_UDSP_POLICY_MAX,
		.internal_flags	= LNET_GENL_ADMIN,
	},
	{
		.cmd		= LNET_CMD_UDSP_GET,
		.dumpit		= lnet_genl_udsp_get_dump,
		.policy		= lnet_udsp_get_policy,
		.maxattr	= LNET_UDSP_POLICY_MAX,
	},
	{
		.cmd		= LNET_CMD_HEALTH_SET,
		.doit		= lnet_genl_health_set,
		.policy		= lnet_health_policy,
		.maxattr	= LNET_HEALTH_POLICY_MAX,
		.internal_flags	= LNET_GENL_ADMIN,
	},
	{
		.cmd		= LNET_CMD_RECOVERY_GET,
		.doit		= lnet_genl_recovery_get,
		.policy		= lnet_health_policy,
		.maxattr	= LNET_HEALTH_POLICY_MAX,
		.internal_flags	= LNET_GENL_ADMIN,
	},
	{
		.cmd		= LNET_CMD_FAULT_ADD,
		.doit		= lnet_genl_fault_add,
		.policy		= lnet_fault_policy,
		.maxattr	= LNET_FAULT_POLICY_MAX,
		.internal_flags	= LNET_GENL_ADMIN,
	},
	{
		.cmd		= LNET_CMD_FAULT_DEL,
		.doit		= lnet_genl_fault_del,
		.policy		= lnet_fault_policy,
		.maxattr	= LNET_FAULT_POLICY_MAX,
		.internal_flags	= LNET_GENL_ADMIN,
	},
	{
		.cmd		= LNET_CMD_FAULT_RESET,
		.doit		= lnet_genl_fault_reset,
		.policy		= lnet_fault_policy,
		.maxattr	= LNET_FAULT_POLICY_MAX,
		.internal_flags	= LNET_GENL_ADMIN,
	},
	{
		/* Rules are an admin's: as Lustre, reading them is too. */
		.cmd		= LNET_CMD_FAULT_GET,
		.dumpit		= lnet_genl_fault_get_dump,
		.policy		= lnet_fault_policy,
		.maxattr	= LNET_FAULT_POLICY_MAX,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= LNET_CMD_ROUTE_ADD,
		.doit		= lnet_genl_route_add,
		.policy		= lnet_route_policy,
		.maxattr	= LNET_ROUTE_POLICY_MAX,
		.internal_flags	= LNET_GENL_ADMIN,
	},
	{
		.cmd		= LNET_CMD_ROUTE_DEL,
		.doit		= lnet_genl_route_del,
		.policy		= lnet_route_policy,
		.maxattr	= LNET_ROUTE_POLICY_MAX,
		.internal_flags	= LNET_GENL_ADMIN,
	},
	{
		.cmd		= LNET_CMD_ROUTE_GET,
		.dumpit		= lnet_genl_route_get_dump,
		.policy		= lnet_route_policy,
		.maxattr	= LNET_ROUTE_POLICY_MAX,
	},
	{
		.cmd		= LNET_CMD_ROUTING_SET,
		.doit		= lnet_genl_routing_set,
		.policy		= lnet_routing_policy,
		.maxattr	= LNET_ROUTING_POLICY_MAX,
		.internal_flags	= LNET_GENL_ADMIN,
	},
	{
		.cmd		= LNET_CMD_BUFFERS_SET,
		.doit		= lnet_genl_buffers_set,
		.policy		= lnet_routing_policy,
		.maxattr	= LNET_ROUTING_POLICY_MAX,
		.internal_flags	= LNET_GENL_ADMIN,
	},
	{
		.cmd		= LNET_CMD_ROUTING_GET,
		.doit		= lnet_genl_routing_get,
	},
};

struct genl_family lnet_genl_family __ro_after_init = {
	.name		= LNET_GENL_NAME,
	.version	= LNET_GENL_VERSION,
	.module		= THIS_MODULE,
	.parallel_ops	= true,
	/* Found in every namespace, refused outside the initial one. */
	.netnsok	= true,
	.pre_doit	= lnet_genl_pre_doit,
	.ops		= lnet_genl_ops,
	.n_ops		= ARRAY_SIZE(lnet_genl_ops),
	.resv_start_op	= LNET_CMD_UNSPEC + 1,
};

/**
 * lnet_genl_init() - register the "lnet" generic netlink family.
 *
 * Called once from module init, after the core is ready to serve requests.
 *
 * Return: 0 or -errno.
 */
int lnet_genl_init(void)
{
	return genl_register_family(&lnet_genl_family);
}

/**
 * lnet_genl_exit() - unregister the "lnet" generic netlink family.
 *
 * Called from module exit; returns once no request is running.
 */
void lnet_genl_exit(void)
{
	genl_unregister_family(&lnet_genl_family);
}
