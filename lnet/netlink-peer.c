// SPDX-License-Identifier: GPL-2.0
/*
 * The peer commands of the "lnet" generic netlink family: PEER_GET dumps
 * the peer NIs ("lnetctl peer show|list"), PEER_DEL deletes a peer or one
 * NI of it ("lnetctl peer del").  See Documentation/netlink.rst.
 */
#include <linux/slab.h>

#include <lnet/ctl.h>
#include <lnet/lib-types.h>

#include "netlink.h"

const struct nla_policy lnet_peer_get_policy[LNET_PEER_POLICY_MAX + 1] = {
	[LNET_A_DETAIL]		= NLA_POLICY_MAX(NLA_U8, LNET_GENL_DETAIL_MAX),
	[LNET_A_NID]		= { .type = NLA_NUL_STRING,
				    .len = LNET_GENL_NID_LEN - 1 },
};

const struct nla_policy lnet_peer_del_policy[LNET_PEER_POLICY_MAX + 1] = {
	[LNET_A_NID]		= { .type = NLA_NUL_STRING,
				    .len = LNET_GENL_NID_LEN - 1 },
	[LNET_A_PRIMARY_NID]	= { .type = NLA_NUL_STRING,
				    .len = LNET_GENL_NID_LEN - 1 },
};

static int lnet_genl_put_peer_ni(struct sk_buff *skb,
				 const struct lnet_peer_ni_info *p,
				 unsigned int detail)
{
	struct nlattr *nest;

	if (lnet_genl_put_nid(skb, LNET_A_PRIMARY_NID, &p->primary_nid) ||
	    lnet_genl_put_nid(skb, LNET_A_NID, &p->nid))
		return -EMSGSIZE;
	if (detail < 1)
		return 0;
	if (nla_put_u32(skb, LNET_A_PEER_REFCOUNT, p->refcount))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, LNET_A_PEER_CREDITS);
	if (!nest ||
	    nla_put_s32(skb, LNET_PEER_CR_A_TX_MAX, p->tx_credits_max) ||
	    nla_put_s32(skb, LNET_PEER_CR_A_TX_AVAIL, p->tx_credits) ||
	    nla_put_s32(skb, LNET_PEER_CR_A_TX_MIN, p->tx_credits_min) ||
	    nla_put_u32(skb, LNET_PEER_CR_A_TXQ_BYTES, p->txq_bytes))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	nest = nla_nest_start(skb, LNET_A_NI_STATS);
	if (!nest ||
	    nla_put_u32(skb, LNET_NI_STATS_A_SEND_COUNT, p->send_count) ||
	    nla_put_u32(skb, LNET_NI_STATS_A_RECV_COUNT, p->recv_count) ||
	    nla_put_u32(skb, LNET_NI_STATS_A_DROP_COUNT, p->drop_count))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	if (detail < 2)
		return 0;
	if (lnet_genl_put_msg_types(skb, LNET_A_NI_SENT, p->sent) ||
	    lnet_genl_put_msg_types(skb, LNET_A_NI_RECEIVED, p->received) ||
	    lnet_genl_put_msg_types(skb, LNET_A_NI_DROPPED, p->dropped))
		return -EMSGSIZE;
	return 0;
}

/*
 * Peer dump state in cb->args: the index and detail level as for the NI
 * dump, and the NID filter (a peer's primary NID or one of its NIDs) as
 * a copy of struct lnet_nid over the last three longs.
 */
enum {
	LNET_PEER_DUMP_IDX,
	LNET_PEER_DUMP_DETAIL,
	LNET_PEER_DUMP_STARTED,
	LNET_PEER_DUMP_NID,
};

static_assert(sizeof(struct lnet_nid) <=
	      sizeof(((struct netlink_callback *)0)->args) -
	      LNET_PEER_DUMP_NID * sizeof(long));

static struct lnet_nid *lnet_dump_nid(struct netlink_callback *cb)
{
	return (struct lnet_nid *)&cb->args[LNET_PEER_DUMP_NID];
}

static int lnet_genl_peer_get_begin(struct netlink_callback *cb)
{
	struct nlattr **attrs = genl_dumpit_info(cb)->attrs;
	struct lnet_nid nid = LNET_ANY_NID;
	int rc;

	if (attrs[LNET_A_NID]) {
		rc = lnet_genl_parse_nid(attrs[LNET_A_NID], &nid, cb->extack);
		if (rc < 0)
			return rc;
	}
	if (!lnet_is_configured()) {
		NL_SET_ERR_MSG(cb->extack, "LNet is not configured");
		return -ENETDOWN;
	}
	cb->args[LNET_PEER_DUMP_IDX] = 0;
	cb->args[LNET_PEER_DUMP_DETAIL] = attrs[LNET_A_DETAIL] ?
				     nla_get_u8(attrs[LNET_A_DETAIL]) : 0;
	memcpy(lnet_dump_nid(cb), &nid, sizeof(nid));
	cb->args[LNET_PEER_DUMP_STARTED] = 1;
	return 0;
}

/* The filter matches the peer's primary NID or the NI's own. */
static bool lnet_peer_ni_selected(const struct lnet_peer_ni_info *p,
				  const struct lnet_nid *nid)
{
	return lnet_nid_is_any(nid) || lnet_nid_equal(nid, &p->nid) ||
	       lnet_nid_equal(nid, &p->primary_nid);
}

/**
 * lnet_genl_peer_get_dump() - LNET_CMD_PEER_GET: one message per peer NI
 * @skb: the reply
 * @cb: the dump; its first call checks the request
 *
 * Return: the reply's length, 0 when done, or -errno.
 */
int lnet_genl_peer_get_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct lnet_peer_ni_info *p;
	struct lnet_nid nid;
	unsigned int idx;
	int rc = 0;
	void *hdr;

	if (!cb->args[LNET_PEER_DUMP_STARTED]) {
		rc = lnet_genl_peer_get_begin(cb);
		if (rc < 0)
			return rc;
	}
	memcpy(&nid, lnet_dump_nid(cb), sizeof(nid));
	p = kmalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	for (idx = cb->args[LNET_PEER_DUMP_IDX];
	     lnet_peer_ni_info_get(idx, p) == 0; idx++) {
		if (!lnet_peer_ni_selected(p, &nid))
			continue;
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &lnet_genl_family,
				  NLM_F_MULTI, LNET_CMD_PEER_GET);
		if (!hdr) {
			rc = -EMSGSIZE;
			break;
		}
		rc = lnet_genl_put_peer_ni(skb, p, cb->args[LNET_PEER_DUMP_DETAIL]);
		if (rc < 0) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	kfree(p);
	cb->args[LNET_PEER_DUMP_IDX] = idx;
	/* a full skb ends this part of the dump; the next one resumes */
	if (rc == -EMSGSIZE && skb->len)
		return skb->len;
	if (rc < 0) {
		NL_SET_ERR_MSG(cb->extack, "peer NI does not fit in a message");
		return rc;
	}
	return skb->len;
}

/**
 * lnet_genl_peer_del() - LNET_CMD_PEER_DEL: delete a peer or one NI of it
 * @skb: the request
 * @info: its attributes: PRIMARY_NID, and NID for one NI
 *
 * Return: 0 or -errno, with an extack message.
 */
int lnet_genl_peer_del(struct sk_buff *skb, struct genl_info *info)
{
	struct lnet_nid prim, nid;
	int rc;

	if (!info->attrs[LNET_A_PRIMARY_NID]) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, LNET_A_PRIMARY_NID);
		NL_SET_ERR_MSG(info->extack, "the peer's primary NID is missing");
		return -EINVAL;
	}
	rc = lnet_genl_parse_nid(info->attrs[LNET_A_PRIMARY_NID], &prim,
				 info->extack);
	if (!rc && info->attrs[LNET_A_NID])
		rc = lnet_genl_parse_nid(info->attrs[LNET_A_NID], &nid,
					 info->extack);
	if (rc < 0)
		return rc;
	if (!lnet_is_configured()) {
		NL_SET_ERR_MSG(info->extack, "LNet is not configured");
		return -ENETDOWN;
	}
	mutex_lock(&lnet_genl_mutex);
	rc = lnet_peer_del(&prim, info->attrs[LNET_A_NID] ? &nid : NULL,
			   info->extack);
	mutex_unlock(&lnet_genl_mutex);
	return rc;
}
