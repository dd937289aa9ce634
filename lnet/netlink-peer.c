// SPDX-License-Identifier: GPL-2.0
/*
 * The peer commands of the "lnet" generic netlink family: PEER_GET dumps
 * the peer NIs ("lnetctl peer show|list"), PEER_ADD makes or extends a
 * configured peer ("lnetctl peer add"), PEER_DEL deletes a peer or one
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
	[LNET_A_FORCE]		= { .type = NLA_FLAG },
};

/* PEER_NIDS: LNET_A_NID strings, repeated. */
static const struct nla_policy lnet_nid_list_policy[LNET_A_NID + 1] = {
	[LNET_A_NID]		= { .type = NLA_NUL_STRING,
				    .len = LNET_GENL_NID_LEN - 1 },
};

const struct nla_policy lnet_peer_add_policy[LNET_PEER_POLICY_MAX + 1] = {
	[LNET_A_PRIMARY_NID]	= { .type = NLA_NUL_STRING,
				    .len = LNET_GENL_NID_LEN - 1 },
	[LNET_A_PEER_NIDS]	= NLA_POLICY_NESTED(lnet_nid_list_policy),
	[LNET_A_MULTI_RAIL]	= NLA_POLICY_MAX(NLA_U8, 1),
	[LNET_A_LOCK_PRIMARY]	= { .type = NLA_FLAG },
};

static int lnet_genl_put_peer_ni(struct sk_buff *skb,
				 const struct lnet_peer_ni_info *p,
				 unsigned int detail)
{
	struct nlattr *nest;

	if (lnet_genl_put_nid(skb, LNET_A_PRIMARY_NID, &p->primary_nid) ||
	    lnet_genl_put_nid(skb, LNET_A_NID, &p->nid) ||
	    nla_put_u8(skb, LNET_A_MULTI_RAIL, p->multi_rail) ||
	    nla_put_u32(skb, LNET_A_PEER_STATE, p->peer_state))
		return -EMSGSIZE;
	/* its aliveness, where a router or a gateway's user tracks it */
	if (p->alive_state >= 0 &&
	    nla_put_u8(skb, LNET_A_NI_STATUS, p->alive_state))
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
	    nla_put_u32(skb, LNET_PEER_CR_A_TXQ_BYTES, p->txq_bytes) ||
	    nla_put_s32(skb, LNET_PEER_CR_A_RTR_AVAIL, p->rtr_credits) ||
	    nla_put_s32(skb, LNET_PEER_CR_A_RTR_MIN, p->rtr_credits_min))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	nest = nla_nest_start(skb, LNET_A_NI_STATS);
	if (!nest ||
	    nla_put_u32(skb, LNET_NI_STATS_A_SEND_COUNT, p->send_count) ||
	    nla_put_u32(skb, LNET_NI_STATS_A_RECV_COUNT, p->recv_count) ||
	    nla_put_u32(skb, LNET_NI_STATS_A_DROP_COUNT, p->drop_count))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	if (lnet_genl_put_latency(skb, p->lat))
		return -EMSGSIZE;
	if (detail < 2)
		return 0;
	if (lnet_genl_put_msg_types(skb, LNET_A_NI_SENT, p->sent) ||
	    lnet_genl_put_msg_types(skb, LNET_A_NI_RECEIVED, p->received) ||
	    lnet_genl_put_msg_types(skb, LNET_A_NI_DROPPED, p->dropped) ||
	    lnet_genl_put_peer_ni_health(skb, p))
		return -EMSGSIZE;
	if (detail < 4)
		return 0;
	return lnet_genl_put_udsp_info(skb, p->udsp_net_prio, p->udsp_nid_prio,
				       p->udsp_pref, p->udsp_npref,
				       p->udsp_rtr, p->udsp_nrtr);
}

/*
 * Peer dump state in cb->ctx: where the walk of the peer NIs is (a
 * cursor, so that each part of the dump resumes where the last ended
 * instead of counting from the first peer NI) and the detail level.
 */
struct lnet_peer_dump {
	struct lnet_peer_ni_cursor	cur;
	u8				detail;
	bool				started;
};

static_assert(sizeof(struct lnet_peer_dump) <=
	      sizeof_field(struct netlink_callback, ctx));

static int lnet_genl_peer_get_begin(struct netlink_callback *cb,
				    struct lnet_peer_dump *d)
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
	memset(d, 0, sizeof(*d));
	/* Any NID of a peer shows the whole peer; none: nothing. */
	if (!lnet_nid_is_any(&nid))
		lnet_peer_ni_cursor_peer(&d->cur, &nid);
	d->detail = attrs[LNET_A_DETAIL] ? nla_get_u8(attrs[LNET_A_DETAIL]) : 0;
	d->started = true;
	return 0;
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
	struct lnet_peer_dump *d = (struct lnet_peer_dump *)cb->ctx;
	struct lnet_peer_ni_cursor at;
	struct lnet_peer_ni_info *p;
	int rc = 0;
	void *hdr;

	rc = lnet_genl_netns_check(cb->skb, cb->extack);
	if (rc)
		return rc;
	if (!d->started) {
		rc = lnet_genl_peer_get_begin(cb, d);
		if (rc < 0)
			return rc;
	}
	p = kmalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	for (;;) {
		at = d->cur;
		if (lnet_peer_ni_info_next(&d->cur, p))
			break;
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &lnet_genl_family,
				  NLM_F_MULTI, LNET_CMD_PEER_GET);
		if (!hdr) {
			rc = -EMSGSIZE;
			break;
		}
		rc = lnet_genl_put_peer_ni(skb, p, d->detail);
		if (rc < 0) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	kfree(p);
	/* a full skb ends this part of the dump; the next one resumes at it */
	if (rc == -EMSGSIZE)
		d->cur = at;
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
			   nla_get_flag(info->attrs[LNET_A_FORCE]),
			   info->extack);
	mutex_unlock(&lnet_genl_mutex);
	return rc;
}

/*
 * The NIDs of PEER_NIDS, which the policy checked to be NID-sized strings,
 * into @nids (room for LNET_GENL_PEER_NIDS_MAX).  Return: how many.
 */
static int lnet_genl_parse_nid_list(const struct nlattr *list,
				    struct lnet_nid *nids,
				    struct netlink_ext_ack *extack)
{
	const struct nlattr *a;
	int rem, n = 0, rc;

	nla_for_each_nested(a, list, rem) {
		if (n == LNET_GENL_PEER_NIDS_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, a, "too many NIDs");
			return -E2BIG;
		}
		rc = lnet_genl_parse_nid(a, &nids[n], extack);
		if (rc < 0)
			return rc;
		n++;
	}
	return n;
}

/**
 * lnet_genl_peer_add() - LNET_CMD_PEER_ADD: make or extend a peer
 * @skb: the request
 * @info: its attributes: PRIMARY_NID; PEER_NIDS, a nest of NID strings;
 *	MULTI_RAIL (default 1; 0 is --non_mr); LOCK_PRIMARY
 *
 * Return: 0 or -errno, with an extack message; on error nothing changed.
 */
int lnet_genl_peer_add(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *mr = info->attrs[LNET_A_MULTI_RAIL];
	struct lnet_nid prim, *nids;
	int n = 0, rc;

	if (!info->attrs[LNET_A_PRIMARY_NID]) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, LNET_A_PRIMARY_NID);
		NL_SET_ERR_MSG(info->extack, "the peer's primary NID is missing");
		return -EINVAL;
	}
	rc = lnet_genl_parse_nid(info->attrs[LNET_A_PRIMARY_NID], &prim,
				 info->extack);
	if (rc < 0)
		return rc;
	nids = kmalloc_array(LNET_GENL_PEER_NIDS_MAX, sizeof(*nids),
			     GFP_KERNEL);
	if (!nids)
		return -ENOMEM;
	if (info->attrs[LNET_A_PEER_NIDS])
		n = lnet_genl_parse_nid_list(info->attrs[LNET_A_PEER_NIDS],
					     nids, info->extack);
	if (n < 0) {
		rc = n;
		goto out;
	}
	if (!lnet_is_configured()) {
		NL_SET_ERR_MSG(info->extack, "LNet is not configured");
		rc = -ENETDOWN;
		goto out;
	}
	mutex_lock(&lnet_genl_mutex);
	rc = lnet_peer_add(&prim, nids, n, !mr || nla_get_u8(mr),
			   nla_get_flag(info->attrs[LNET_A_LOCK_PRIMARY]),
			   info->extack);
	mutex_unlock(&lnet_genl_mutex);
out:
	kfree(nids);
	return rc;
}

/**
 * lnet_genl_peer_debug() - LNET_CMD_PEER_DEBUG: "lnetctl debug peer"
 * @skb: the request
 * @info: its attributes: NID, any NID of the peer
 *
 * As stock's "debug peer" has its LND dump a peer to the debug log, this
 * writes the peer of NID to the kernel log: its primary NID, state and,
 * per peer NI, status, health, credits, queued bytes and messages in use.
 *
 * Return: 0, or -errno with an extack message (-ENOENT: no such peer).
 */
int lnet_genl_peer_debug(struct sk_buff *skb, struct genl_info *info)
{
	char prim[LNET_NIDSTR_SIZE], ni[LNET_NIDSTR_SIZE];
	struct lnet_peer_ni_cursor c = { 0 };
	struct lnet_peer_ni_info *p;
	struct lnet_nid nid;
	bool first = true;
	int rc;

	if (!info->attrs[LNET_A_NID]) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, LNET_A_NID);
		NL_SET_ERR_MSG(info->extack, "the peer's NID is missing");
		return -EINVAL;
	}
	rc = lnet_genl_parse_nid(info->attrs[LNET_A_NID], &nid, info->extack);
	if (rc < 0)
		return rc;
	if (!lnet_is_configured()) {
		NL_SET_ERR_MSG(info->extack, "LNet is not configured");
		return -ENETDOWN;
	}
	if (lnet_peer_ni_cursor_peer(&c, &nid)) {
		NL_SET_ERR_MSG(info->extack, "no peer has this NID");
		return -ENOENT;
	}
	p = kmalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	while (!lnet_peer_ni_info_next(&c, p)) {
		lnet_nid_to_str(&p->primary_nid, prim, sizeof(prim));
		lnet_nid_to_str(&p->nid, ni, sizeof(ni));
		if (first)
			pr_info("LNet: peer %s: %s, state 0x%x\n", prim,
				p->multi_rail ? "multi-rail" : "not multi-rail",
				p->peer_state);
		first = false;
		pr_info("LNet: peer %s: ni %s: status %s%s, health %d, tx credits %d max %d min %d, queued %u bytes, refcount %d\n",
			prim, ni,
			p->ns_status == LNET_NI_STATUS_DOWN ? "down" : "up",
			p->lnd_down ? " (LND: unreachable)" : "",
			p->healthv, p->tx_credits, p->tx_credits_max,
			p->tx_credits_min, p->txq_bytes, p->refcount);
	}
	kfree(p);
	return 0;
}
