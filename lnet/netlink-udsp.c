// SPDX-License-Identifier: GPL-2.0
/*
 * The UDSP commands of the "lnet" generic netlink family: UDSP_ADD adds
 * a selection rule ("lnetctl udsp add"), UDSP_DEL deletes one or all
 * ("udsp del"), UDSP_GET dumps them ("udsp show"); and the UDSP_INFO
 * nest of the NI and peer NI dumps (detail 4).  See lnet/udsp.c and
 * Documentation/netlink.rst.
 */
#include <lnet/udsp.h>

#include "netlink.h"

/* The policy's own bounds are 16 bits: these ranges are full ones. */
static struct netlink_range_validation lnet_udsp_prio_range = {
	.max = LNET_UDSP_PRIO_NONE - 1,
};

static struct netlink_range_validation lnet_udsp_idx_range = {
	.max = INT_MAX,
};

const struct nla_policy lnet_udsp_add_policy[LNET_UDSP_POLICY_MAX + 1] = {
	[LNET_A_UDSP_SRC]	= { .type = NLA_NUL_STRING,
				    .len = LNET_GENL_UDSP_LEN - 1 },
	[LNET_A_UDSP_DST]	= { .type = NLA_NUL_STRING,
				    .len = LNET_GENL_UDSP_LEN - 1 },
	[LNET_A_UDSP_RTE]	= { .type = NLA_NUL_STRING,
				    .len = LNET_GENL_UDSP_LEN - 1 },
	[LNET_A_PRIORITY]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&lnet_udsp_prio_range),
	[LNET_A_IDX]		= NLA_POLICY_FULL_RANGE(NLA_U32,
							&lnet_udsp_idx_range),
};

const struct nla_policy lnet_udsp_del_policy[LNET_UDSP_POLICY_MAX + 1] = {
	[LNET_A_ALL]		= { .type = NLA_FLAG },
	[LNET_A_IDX]		= NLA_POLICY_FULL_RANGE(NLA_U32,
							&lnet_udsp_idx_range),
};

const struct nla_policy lnet_udsp_get_policy[LNET_UDSP_POLICY_MAX + 1] = {
	[LNET_A_IDX]		= NLA_POLICY_FULL_RANGE(NLA_U32,
							&lnet_udsp_idx_range),
};

static const char *lnet_udsp_attr_str(struct genl_info *info, int type)
{
	return info->attrs[type] ? nla_data(info->attrs[type]) : NULL;
}

/**
 * lnet_genl_udsp_add() - LNET_CMD_UDSP_ADD: add a selection rule
 * @skb: the request
 * @info: its attributes: UDSP_SRC, UDSP_DST, UDSP_RTE, PRIORITY, IDX
 *
 * Return: 0 or -errno, with an extack message; on error nothing changed.
 */
int lnet_genl_udsp_add(struct sk_buff *skb, struct genl_info *info)
{
	const char *text[LNET_UDSP_TERMS] = {
		[LNET_UDSP_SRC] = lnet_udsp_attr_str(info, LNET_A_UDSP_SRC),
		[LNET_UDSP_DST] = lnet_udsp_attr_str(info, LNET_A_UDSP_DST),
		[LNET_UDSP_RTE] = lnet_udsp_attr_str(info, LNET_A_UDSP_RTE),
	};
	struct nlattr *prio = info->attrs[LNET_A_PRIORITY];
	struct nlattr *idx = info->attrs[LNET_A_IDX];

	return lnet_udsp_add(text, prio, prio ? nla_get_u32(prio) : 0,
			     idx ? nla_get_u32(idx) : -1, info->extack);
}

/**
 * lnet_genl_udsp_del() - LNET_CMD_UDSP_DEL: delete a rule, or every one
 * @skb: the request
 * @info: its attributes: IDX, or ALL
 *
 * Return: 0 or -errno, with an extack message.
 */
int lnet_genl_udsp_del(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *idx = info->attrs[LNET_A_IDX];
	bool all = nla_get_flag(info->attrs[LNET_A_ALL]);

	if (!idx == !all) {
		NL_SET_ERR_MSG(info->extack,
			       "give either a rule's index or all");
		return -EINVAL;
	}
	return lnet_udsp_del(all ? -1 : nla_get_u32(idx), info->extack);
}

static int lnet_genl_put_udsp(struct sk_buff *skb, unsigned int idx,
			      const struct lnet_udsp_info *r)
{
	if (nla_put_u32(skb, LNET_A_IDX, idx) ||
	    nla_put_string(skb, LNET_A_UDSP_SRC, r->text[LNET_UDSP_SRC]) ||
	    nla_put_string(skb, LNET_A_UDSP_DST, r->text[LNET_UDSP_DST]) ||
	    nla_put_string(skb, LNET_A_UDSP_RTE, r->text[LNET_UDSP_RTE]))
		return -EMSGSIZE;
	if (r->prio != LNET_UDSP_PRIO_NONE &&
	    nla_put_u32(skb, LNET_A_PRIORITY, r->prio))
		return -EMSGSIZE;
	return 0;
}

/* Dump state in cb->args. */
enum {
	LNET_UDSP_DUMP_IDX,	/* the next rule */
	LNET_UDSP_DUMP_ONLY,	/* 1 + the one rule asked for, or 0 */
	LNET_UDSP_DUMP_STARTED,
};

/**
 * lnet_genl_udsp_get_dump() - LNET_CMD_UDSP_GET: one message per rule
 * @skb: the reply
 * @cb: the dump; IDX asks for one rule
 *
 * Return: the reply's length, 0 when done, or -errno.
 */
int lnet_genl_udsp_get_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr **attrs = genl_dumpit_info(cb)->attrs;
	struct lnet_udsp_info *r;
	unsigned int idx;
	int rc = 0;
	void *hdr;

	rc = lnet_genl_netns_check(cb->skb, cb->extack);
	if (rc)
		return rc;
	if (!cb->args[LNET_UDSP_DUMP_STARTED]) {
		if (attrs[LNET_A_IDX]) {
			idx = nla_get_u32(attrs[LNET_A_IDX]);
			cb->args[LNET_UDSP_DUMP_IDX] = idx;
			cb->args[LNET_UDSP_DUMP_ONLY] = idx + 1UL;
		}
		cb->args[LNET_UDSP_DUMP_STARTED] = 1;
	}
	r = kmalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	for (idx = cb->args[LNET_UDSP_DUMP_IDX];
	     lnet_udsp_info_get(idx, r) == 0; idx++) {
		if (cb->args[LNET_UDSP_DUMP_ONLY] &&
		    idx + 1UL != cb->args[LNET_UDSP_DUMP_ONLY])
			break;
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &lnet_genl_family,
				  NLM_F_MULTI, LNET_CMD_UDSP_GET);
		if (!hdr) {
			rc = -EMSGSIZE;
			break;
		}
		rc = lnet_genl_put_udsp(skb, idx, r);
		if (rc < 0) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	kfree(r);
	cb->args[LNET_UDSP_DUMP_IDX] = idx;
	if (rc == -EMSGSIZE && skb->len)
		return skb->len;
	return rc < 0 ? rc : skb->len;
}

/**
 * lnet_genl_put_udsp_info() - the LNET_A_UDSP_INFO nest of a NI or peer NI
 * @skb: the message
 * @net_prio: its net's priority (LNET_UDSP_PRIO_NONE: left out)
 * @nid_prio: its own
 * @pref: preferred local NIDs (peer NIs), or NULL
 * @npref: how many
 * @rtr: preferred gateway NIDs (peer NIs), or NULL
 * @nrtr: how many
 *
 * Return: 0 or -EMSGSIZE.
 */
int lnet_genl_put_udsp_info(struct sk_buff *skb, u32 net_prio, u32 nid_prio,
			    const struct lnet_nid *pref, unsigned int npref,
			    const struct lnet_nid *rtr, unsigned int nrtr)
{
	struct nlattr *nest, *list;
	unsigned int i;

	nest = nla_nest_start(skb, LNET_A_UDSP_INFO);
	if (!nest)
		return -EMSGSIZE;
	if ((net_prio != LNET_UDSP_PRIO_NONE &&
	     nla_put_u32(skb, LNET_UDSP_A_NET_PRIO, net_prio)) ||
	    (nid_prio != LNET_UDSP_PRIO_NONE &&
	     nla_put_u32(skb, LNET_UDSP_A_NID_PRIO, nid_prio)))
		return -EMSGSIZE;
	if (pref) {
		list = nla_nest_start(skb, LNET_UDSP_A_PREF_SRC);
		if (!list)
			return -EMSGSIZE;
		for (i = 0; i < npref; i++)
			if (lnet_genl_put_nid(skb, LNET_A_NID, &pref[i]))
				return -EMSGSIZE;
		nla_nest_end(skb, list);
	}
	if (rtr) {
		list = nla_nest_start(skb, LNET_UDSP_A_PREF_RTR);
		if (!list)
			return -EMSGSIZE;
		for (i = 0; i < nrtr; i++)
			if (lnet_genl_put_nid(skb, LNET_A_NID, &rtr[i]))
				return -EMSGSIZE;
		nla_nest_end(skb, list);
	}
	nla_nest_end(skb, nest);
	return 0;
}
