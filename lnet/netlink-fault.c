// SPDX-License-Identifier: GPL-2.0
/*
 * The fault injection commands of the "lnet" generic netlink family:
 * FAULT_ADD, FAULT_DEL, FAULT_RESET and FAULT_GET ("lnetctl fault drop|
 * delay add|del|reset|show").  The rules themselves: lnet/fault.c.  See
 * Documentation/netlink.rst.
 */
#include <net/genetlink.h>

#include <lnet/fault.h>

#include "netlink.h"

static struct netlink_range_validation lnet_fault_u32_range = {
	.max = U32_MAX,
};

static struct netlink_range_validation lnet_fault_latency_range = {
	.max = LNET_GENL_FAULT_LATENCY_MAX,
};

static const struct nla_policy lnet_fault_attr_policy[LNET_FAULT_A_MAX + 1] = {
	[LNET_FAULT_A_TYPE]	= NLA_POLICY_MAX(NLA_U8, LNET_FAULT_TYPE_DELAY),
	[LNET_FAULT_A_SRC]	= { .type = NLA_NUL_STRING,
				    .len = LNET_GENL_NID_LEN - 1 },
	[LNET_FAULT_A_DST]	= { .type = NLA_NUL_STRING,
				    .len = LNET_GENL_NID_LEN - 1 },
	[LNET_FAULT_A_LOCAL_NID] = { .type = NLA_NUL_STRING,
				     .len = LNET_GENL_NID_LEN - 1 },
	[LNET_FAULT_A_PTL_MASK]	= { .type = NLA_U64 },
	[LNET_FAULT_A_MSG_MASK]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&lnet_fault_u32_range),
	[LNET_FAULT_A_RATE]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&lnet_fault_u32_range),
	[LNET_FAULT_A_INTERVAL]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&lnet_fault_u32_range),
	[LNET_FAULT_A_HEALTH_MASK] = NLA_POLICY_FULL_RANGE(NLA_U32,
							   &lnet_fault_u32_range),
	[LNET_FAULT_A_RANDOM]	= { .type = NLA_FLAG },
	[LNET_FAULT_A_DROP_ALL]	= { .type = NLA_FLAG },
	[LNET_FAULT_A_LATENCY]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&lnet_fault_latency_range),
};

const struct nla_policy lnet_fault_policy[LNET_FAULT_POLICY_MAX + 1] = {
	[LNET_A_ALL]	= { .type = NLA_FLAG },
	[LNET_A_FAULT]	= NLA_POLICY_NESTED(lnet_fault_attr_policy),
};

/* "*" any, "*@net" every NID of the net, or a NID. */
static int lnet_fault_parse_nid(const struct nlattr *attr,
				struct lnet_fault_nid *f,
				struct netlink_ext_ack *extack)
{
	const char *s;
	u32 net;

	memset(f, 0, sizeof(*f));
	if (!attr) {
		f->any = true;
		return 0;
	}
	s = nla_data(attr);
	if (!strcmp(s, "*")) {
		f->any = true;
		return 0;
	}
	if (!strncmp(s, "*@", 2)) {
		if (lnet_net_from_str(s + 2, &net)) {
			NL_SET_ERR_MSG_ATTR(extack, attr, "bad net after *@");
			return -EINVAL;
		}
		f->net_any = true;
		f->nid.nid_type = lnet_net_type(net);
		f->nid.nid_num = cpu_to_be16(lnet_net_num(net));
		return 0;
	}
	return lnet_genl_parse_nid(attr, &f->nid, extack);
}

static int lnet_fault_put_nid(struct sk_buff *skb, int type,
			      const struct lnet_fault_nid *f)
{
	char buf[LNET_GENL_NID_LEN];

	if (f->any)
		return nla_put_string(skb, type, "*");
	if (f->net_any) {
		buf[0] = '*';
		buf[1] = '@';
		lnet_net_to_str(lnet_nid_net(&f->nid), buf + 2, sizeof(buf) - 2);
		return nla_put_string(skb, type, buf);
	}
	return lnet_genl_put_nid(skb, type, &f->nid);
}

static u32 lnet_fault_get_u32(struct nlattr **tb, int type)
{
	return tb[type] ? nla_get_u32(tb[type]) : 0;
}

/* The FAULT nest of @info, parsed; its TYPE is required. */
static int lnet_fault_parse(struct genl_info *info, struct nlattr **tb)
{
	struct nlattr *nest = info->attrs[LNET_A_FAULT];
	int rc;

	if (!nest) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, LNET_A_FAULT);
		NL_SET_ERR_MSG(info->extack, "missing fault rule");
		return -EINVAL;
	}
	rc = nla_parse_nested(tb, LNET_FAULT_A_MAX, nest,
			      lnet_fault_attr_policy, info->extack);
	if (rc)
		return rc;
	if (!tb[LNET_FAULT_A_TYPE]) {
		NL_SET_ERR_ATTR_MISS(info->extack, nest, LNET_FAULT_A_TYPE);
		NL_SET_ERR_MSG(info->extack, "missing rule type (drop, delay)");
		return -EINVAL;
	}
	return 0;
}

/**
 * lnet_genl_fault_add() - LNET_CMD_FAULT_ADD: add a drop or delay rule
 * @skb: the request
 * @info: its FAULT nest: TYPE, SRC, DST (required), the filters, RATE or
 *	INTERVAL, and the drop or delay options
 *
 * Return: 0 or -errno, with an extack message; on error nothing changed.
 */
int lnet_genl_fault_add(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[LNET_FAULT_A_MAX + 1];
	struct lnet_fault_attr attr = { };
	int rc;

	rc = lnet_fault_parse(info, tb);
	if (rc)
		return rc;
	if (!tb[LNET_FAULT_A_SRC] || !tb[LNET_FAULT_A_DST]) {
		NL_SET_ERR_MSG(info->extack,
			       "a rule needs a source and a destination");
		return -EINVAL;
	}
	attr.type = nla_get_u8(tb[LNET_FAULT_A_TYPE]);
	rc = lnet_fault_parse_nid(tb[LNET_FAULT_A_SRC], &attr.src,
				  info->extack) ?:
	     lnet_fault_parse_nid(tb[LNET_FAULT_A_DST], &attr.dst,
				  info->extack) ?:
	     lnet_fault_parse_nid(tb[LNET_FAULT_A_LOCAL_NID], &attr.local,
				  info->extack);
	if (rc)
		return rc;
	if (tb[LNET_FAULT_A_PTL_MASK])
		attr.ptl_mask = nla_get_u64(tb[LNET_FAULT_A_PTL_MASK]);
	attr.msg_mask = lnet_fault_get_u32(tb, LNET_FAULT_A_MSG_MASK);
	attr.rate = lnet_fault_get_u32(tb, LNET_FAULT_A_RATE);
	attr.interval = lnet_fault_get_u32(tb, LNET_FAULT_A_INTERVAL);
	attr.health_mask = lnet_fault_get_u32(tb, LNET_FAULT_A_HEALTH_MASK);
	attr.latency = lnet_fault_get_u32(tb, LNET_FAULT_A_LATENCY);
	attr.random = nla_get_flag(tb[LNET_FAULT_A_RANDOM]);
	attr.drop_all = nla_get_flag(tb[LNET_FAULT_A_DROP_ALL]);
	return lnet_fault_add(&attr, info->extack);
}

/**
 * lnet_genl_fault_del() - LNET_CMD_FAULT_DEL: delete rules
 * @skb: the request
 * @info: FAULT (TYPE, SRC and DST: the rules of exactly these), or
 *	FAULT (TYPE) and ALL
 *
 * Return: 0, -ENOENT if no rule matched, or -EINVAL.
 */
int lnet_genl_fault_del(struct sk_buff *skb, struct genl_info *info)
{
	bool all = nla_get_flag(info->attrs[LNET_A_ALL]);
	struct nlattr *tb[LNET_FAULT_A_MAX + 1];
	struct lnet_fault_nid src, dst;
	int rc;

	rc = lnet_fault_parse(info, tb);
	if (rc)
		return rc;
	if (all == (tb[LNET_FAULT_A_SRC] && tb[LNET_FAULT_A_DST])) {
		NL_SET_ERR_MSG(info->extack,
			       "give either a source and a destination or all");
		return -EINVAL;
	}
	if (!all) {
		rc = lnet_fault_parse_nid(tb[LNET_FAULT_A_SRC], &src,
					  info->extack) ?:
		     lnet_fault_parse_nid(tb[LNET_FAULT_A_DST], &dst,
					  info->extack);
		if (rc)
			return rc;
	}
	rc = lnet_fault_del(nla_get_u8(tb[LNET_FAULT_A_TYPE]),
			    all ? NULL : &src, all ? NULL : &dst);
	if (!rc && !all) {
		NL_SET_ERR_MSG(info->extack, "no such rule");
		return -ENOENT;
	}
	return 0;
}

/**
 * lnet_genl_fault_reset() - LNET_CMD_FAULT_RESET: zero rules' counters
 * @skb: the request
 * @info: FAULT (TYPE)
 *
 * Return: 0 or -EINVAL.
 */
int lnet_genl_fault_reset(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[LNET_FAULT_A_MAX + 1];
	int rc = lnet_fault_parse(info, tb);

	if (rc)
		return rc;
	lnet_fault_reset(nla_get_u8(tb[LNET_FAULT_A_TYPE]));
	return 0;
}

static int lnet_fault_put(struct sk_buff *skb, const struct lnet_fault_attr *a,
			  const struct lnet_fault_stats *st)
{
	struct nlattr *nest = nla_nest_start(skb, LNET_A_FAULT);

	if (!nest ||
	    nla_put_u8(skb, LNET_FAULT_A_TYPE, a->type) ||
	    lnet_fault_put_nid(skb, LNET_FAULT_A_SRC, &a->src) ||
	    lnet_fault_put_nid(skb, LNET_FAULT_A_DST, &a->dst) ||
	    lnet_fault_put_nid(skb, LNET_FAULT_A_LOCAL_NID, &a->local) ||
	    nla_put_u64_64bit(skb, LNET_FAULT_A_PTL_MASK, a->ptl_mask,
			      LNET_FAULT_A_PAD) ||
	    nla_put_u32(skb, LNET_FAULT_A_MSG_MASK, a->msg_mask) ||
	    nla_put_u32(skb, LNET_FAULT_A_RATE, a->rate) ||
	    nla_put_u32(skb, LNET_FAULT_A_INTERVAL, a->interval) ||
	    nla_put_u32(skb, LNET_FAULT_A_HEALTH_MASK, a->health_mask) ||
	    (a->random && nla_put_flag(skb, LNET_FAULT_A_RANDOM)) ||
	    (a->drop_all && nla_put_flag(skb, LNET_FAULT_A_DROP_ALL)) ||
	    nla_put_u32(skb, LNET_FAULT_A_LATENCY, a->latency) ||
	    nla_put_u64_64bit(skb, LNET_FAULT_A_COUNT, st->count,
			      LNET_FAULT_A_PAD) ||
	    nla_put_u64_64bit(skb, LNET_FAULT_A_PUT, st->put,
			      LNET_FAULT_A_PAD) ||
	    nla_put_u64_64bit(skb, LNET_FAULT_A_ACK, st->ack,
			      LNET_FAULT_A_PAD) ||
	    nla_put_u64_64bit(skb, LNET_FAULT_A_GET, st->get,
			      LNET_FAULT_A_PAD) ||
	    nla_put_u64_64bit(skb, LNET_FAULT_A_REPLY, st->reply,
			      LNET_FAULT_A_PAD) ||
	    nla_put_u64_64bit(skb, LNET_FAULT_A_ACTED, st->acted,
			      LNET_FAULT_A_PAD))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* Dump state in cb->args. */
enum {
	LNET_FAULT_DUMP_IDX,	/* the next rule */
	LNET_FAULT_DUMP_TYPE,	/* 1 + the rule type */
};

/**
 * lnet_genl_fault_get_dump() - LNET_CMD_FAULT_GET: one message per rule
 * @skb: the reply
 * @cb: the dump; its FAULT (TYPE) says which rules
 *
 * Return: the reply's length, 0 when done, or -errno.
 */
int lnet_genl_fault_get_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr **attrs = genl_dumpit_info(cb)->attrs;
	struct nlattr *tb[LNET_FAULT_A_MAX + 1];
	struct lnet_fault_stats st;
	struct lnet_fault_attr a;
	unsigned int idx;
	int rc = 0;
	void *hdr;

	rc = lnet_genl_netns_check(cb->skb, cb->extack);
	if (rc)
		return rc;
	if (!cb->args[LNET_FAULT_DUMP_TYPE]) {
		if (!attrs[LNET_A_FAULT]) {
			NL_SET_ERR_MSG(cb->extack, "missing fault rule type");
			return -EINVAL;
		}
		rc = nla_parse_nested(tb, LNET_FAULT_A_MAX, attrs[LNET_A_FAULT],
				      lnet_fault_attr_policy, cb->extack);
		if (rc)
			return rc;
		if (!tb[LNET_FAULT_A_TYPE]) {
			NL_SET_ERR_MSG(cb->extack, "missing fault rule type");
			return -EINVAL;
		}
		cb->args[LNET_FAULT_DUMP_TYPE] =
			1 + nla_get_u8(tb[LNET_FAULT_A_TYPE]);
	}
	for (idx = cb->args[LNET_FAULT_DUMP_IDX];
	     !lnet_fault_get(cb->args[LNET_FAULT_DUMP_TYPE] - 1, idx, &a, &st);
	     idx++) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &lnet_genl_family,
				  NLM_F_MULTI, LNET_CMD_FAULT_GET);
		if (!hdr) {
			rc = -EMSGSIZE;
			break;
		}
		rc = lnet_fault_put(skb, &a, &st);
		if (rc < 0) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
	}
	cb->args[LNET_FAULT_DUMP_IDX] = idx;
	if (rc == -EMSGSIZE && skb->len)
		return skb->len;
	return rc < 0 ? rc : skb->len;
}
