// SPDX-License-Identifier: GPL-2.0
/*
 * The "nidmap" generic netlink family (include/uapi/lnet/nidmap_genl.h):
 * start and stop the roles, register a target, show the state and
 * counters, list a table with its versions, look a target up, add, use
 * and delete the keys messages are signed and checked with (auth.h; a
 * secret is never echoed, and wiped from the request).  Strict
 * policies, extack messages, CAP_NET_ADMIN for every command (a table
 * lists the cluster's addresses).  netnsok like lnet's family, and every
 * request from another network namespace refused as there
 * (lnet_genl_netns_check(): LNet is the initial namespace's).
 * parallel_ops: REGISTER waits for the publisher's answer and must not
 * hold genl_mutex meanwhile; nidmap_cfg_lock serialises the rest.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <kunit/visibility.h>
#include <lnet/genl.h>
#include <uapi/lnet/lnet_genl.h>

#include "auth.h"
#include "node.h"

/* The roles' start and stop, and readers of their state. */
DEFINE_MUTEX(nidmap_cfg_lock);

/* The publisher's bounds as PUBLISH set them (SHOW, lnetctl export). */
static struct nidmap_limits nidmap_pub_lim;

static struct genl_family nidmap_genl_family;

/* Defaults of a publisher's table. */
#define NIDMAP_DFLT_ENTRIES	65536
#define NIDMAP_DFLT_TOMBSTONES	4096
#define NIDMAP_DFLT_TOMB_AGE	3600		/* seconds */
#define NIDMAP_TOMB_AGE_MAX	(30 * 86400)

#define NIDMAP_STR_POLICY(n)	{ .type = NLA_NUL_STRING, .len = (n) - 1 }

static const struct nla_policy nidmap_nids_policy[NIDMAP_A_NID + 1] = {
	[NIDMAP_A_NID]		= NIDMAP_STR_POLICY(NIDMAP_GENL_NID_LEN),
};

static const struct nla_policy nidmap_nets_policy[NIDMAP_A_NET + 1] = {
	[NIDMAP_A_NET]		= NIDMAP_STR_POLICY(LNET_GENL_NET_LEN),
};

static struct netlink_range_validation nidmap_entries_range = {
	.min = 1,
	.max = NIDMAP_TARGETS_MAX,
};

static struct netlink_range_validation nidmap_tombstones_range = {
	.max = NIDMAP_TARGETS_MAX,
};

static struct netlink_range_validation nidmap_tomb_age_range = {
	.max = NIDMAP_TOMB_AGE_MAX,
};

static struct netlink_range_validation nidmap_subs_range = {
	.min = 1,
	.max = NIDMAP_SUBS_MAX,
};

static struct netlink_range_validation nidmap_fanout_range = {
	.min = 1,
	.max = NIDMAP_RELAY_K_MAX,
};

/* A key's secret: 16 to 64 bytes, or refused with a message. */
static int nidmap_secret_validate(const struct nlattr *attr,
				  struct netlink_ext_ack *extack)
{
	if (nla_len(attr) < NIDMAP_AUTH_KEY_MIN ||
	    nla_len(attr) > NIDMAP_AUTH_KEY_MAX) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "a key's secret is 16 to 64 bytes");
		return -EINVAL;
	}
	return 0;
}

/* One target of a batch REGISTER (NIDMAP_A_TARGETS). */
static const struct nla_policy nidmap_target_policy[NIDMAP_A_DELETE + 1] = {
	[NIDMAP_A_NAME]		= NIDMAP_STR_POLICY(NIDMAP_GENL_NAME_LEN),
	[NIDMAP_A_NIDS]		= NLA_POLICY_NESTED(nidmap_nids_policy),
	[NIDMAP_A_DELETE]	= { .type = NLA_FLAG },
};

/* The family's policy: KUnit checks its bounds (nidmap_pub_test.c). */
VISIBLE_IF_KUNIT const struct nla_policy nidmap_genl_policy[NIDMAP_A_MAX + 1] = {
	[NIDMAP_A_ENABLE]	= NLA_POLICY_MAX(NLA_U8, 1),
	[NIDMAP_A_MAX_ENTRIES]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&nidmap_entries_range),
	[NIDMAP_A_MAX_TOMBSTONES] = NLA_POLICY_FULL_RANGE(NLA_U32,
						&nidmap_tombstones_range),
	[NIDMAP_A_TOMB_AGE]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&nidmap_tomb_age_range),
	[NIDMAP_A_PUBLISHER]	= NIDMAP_STR_POLICY(NIDMAP_GENL_NID_LEN),
	[NIDMAP_A_NAME]		= NIDMAP_STR_POLICY(NIDMAP_GENL_NAME_LEN),
	[NIDMAP_A_NIDS]		= NLA_POLICY_NESTED(nidmap_nids_policy),
	[NIDMAP_A_DELETE]	= { .type = NLA_FLAG },
	[NIDMAP_A_SOURCE]	= NLA_POLICY_RANGE(NLA_U32,
						   NIDMAP_SOURCE_PUBLISHER,
						   NIDMAP_SOURCE_SUBSCRIBER),
	[NIDMAP_A_RELAY]	= { .type = NLA_FLAG },
	[NIDMAP_A_MAX_SUBS]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&nidmap_subs_range),
	[NIDMAP_A_RELAY_FANOUT]	= NLA_POLICY_FULL_RANGE(NLA_U32,
							&nidmap_fanout_range),
	[NIDMAP_A_TARGETS]	= NLA_POLICY_NESTED_ARRAY(nidmap_target_policy),
	[NIDMAP_A_ROUTER]	= { .type = NLA_FLAG },
	[NIDMAP_A_NETS]		= NLA_POLICY_NESTED(nidmap_nets_policy),
	[NIDMAP_A_ROUTES]	= { .type = NLA_FLAG },
	[NIDMAP_A_KEY_ID]	= NLA_POLICY_MIN(NLA_U32, 1),
	/* Both bounds in the function: one message for either. */
	[NIDMAP_A_KEY_SECRET]	= NLA_POLICY_VALIDATE_FN(NLA_BINARY,
						nidmap_secret_validate),
};
EXPORT_SYMBOL_IF_KUNIT(nidmap_genl_policy);

static int nidmap_genl_pre_doit(const struct genl_ops *ops,
				struct sk_buff *skb, struct genl_info *info)
{
	int rc = lnet_genl_netns_check(skb, info->extack);

	if (rc)
		return rc;
	if (netlink_capable(skb, CAP_NET_ADMIN))
		return 0;
	NL_SET_ERR_MSG(info->extack, "this request needs CAP_NET_ADMIN");
	return -EPERM;
}

/* @attr is a NID: parse it into @nid, or say why not. */
static int nidmap_genl_nid(const struct nlattr *attr, struct lnet_nid *nid,
			   struct netlink_ext_ack *extack)
{
	if (lnet_nid_from_str(nla_data(attr), nid) || nidmap_nid_check(nid)) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "not a usable NID");
		return -EINVAL;
	}
	return 0;
}

/* An extack message chosen at run time (@msg: a string literal). */
static void nidmap_extack(struct netlink_ext_ack *extack, const char *msg)
{
	if (extack)
		extack->_msg = msg;
}

static const char *nidmap_role_errmsg(int rc)
{
	switch (rc) {
	case -EALREADY:
		return "the role is already started (stop it first)";
	case -ENETDOWN:
		return "LNet is not configured";
	default:
		return "the role could not start";
	}
}

/*
 * Trust is on by default (trust.c): a role of a node without a key would
 * take no message, so it does not start.  Return: 0 or -ENOKEY.
 */
static int nidmap_genl_need_key(struct genl_info *info)
{
	if (!nidmap_auth_required || nidmap_holds_key())
		return 0;
	NL_SET_ERR_MSG(info->extack,
		       "this node holds no nidmap key: add one (lnetctl nidmap key add), or load lnet_nidmap with auth_required=0");
	return -ENOKEY;
}

static int nidmap_genl_publish(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct nidmap_limits lim = {
		.max_entries = NIDMAP_DFLT_ENTRIES,
		.max_tombstones = NIDMAP_DFLT_TOMBSTONES,
		.max_tomb_age = NIDMAP_DFLT_TOMB_AGE,
	};
	struct nidmap_pub_cfg cfg = {
		.max_subs = NIDMAP_SUBS_DFLT,
		.fanout = NIDMAP_FANOUT,
	};
	int rc = 0;

	if (GENL_REQ_ATTR_CHECK(info, NIDMAP_A_ENABLE))
		return -EINVAL;
	if (tb[NIDMAP_A_MAX_ENTRIES])
		lim.max_entries = nla_get_u32(tb[NIDMAP_A_MAX_ENTRIES]);
	if (tb[NIDMAP_A_MAX_TOMBSTONES])
		lim.max_tombstones = nla_get_u32(tb[NIDMAP_A_MAX_TOMBSTONES]);
	if (tb[NIDMAP_A_TOMB_AGE])
		lim.max_tomb_age = nla_get_u32(tb[NIDMAP_A_TOMB_AGE]);
	if (tb[NIDMAP_A_MAX_SUBS])
		cfg.max_subs = nla_get_u32(tb[NIDMAP_A_MAX_SUBS]);
	if (tb[NIDMAP_A_RELAY_FANOUT])
		cfg.fanout = nla_get_u32(tb[NIDMAP_A_RELAY_FANOUT]);
	if (nla_get_u8(tb[NIDMAP_A_ENABLE])) {
		rc = nidmap_genl_need_key(info);
		if (rc)
			return rc;
	}
	mutex_lock(&nidmap_cfg_lock);
	if (nla_get_u8(tb[NIDMAP_A_ENABLE]))
		rc = nidmap_pub_start(&lim, &cfg);
	else
		nidmap_pub_stop();
	if (!rc && nla_get_u8(tb[NIDMAP_A_ENABLE]))
		nidmap_pub_lim = lim;
	mutex_unlock(&nidmap_cfg_lock);
	if (rc)
		nidmap_extack(info->extack, nidmap_role_errmsg(rc));
	return rc;
}

static int nidmap_genl_subscribe(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	bool enable = !tb[NIDMAP_A_ENABLE] || nla_get_u8(tb[NIDMAP_A_ENABLE]);
	struct lnet_nid pub;
	int rc = 0;

	if (enable) {
		if (GENL_REQ_ATTR_CHECK(info, NIDMAP_A_PUBLISHER))
			return -EINVAL;
		rc = nidmap_genl_nid(tb[NIDMAP_A_PUBLISHER], &pub,
				     info->extack) ?: nidmap_genl_need_key(info);
		if (rc)
			return rc;
	}
	mutex_lock(&nidmap_cfg_lock);
	if (enable)
		rc = nidmap_sub_start(&pub, tb[NIDMAP_A_RELAY],
				      tb[NIDMAP_A_ROUTES]);
	else
		nidmap_sub_stop();
	mutex_unlock(&nidmap_cfg_lock);
	if (rc)
		nidmap_extack(info->extack, nidmap_role_errmsg(rc));
	return rc;
}

/*
 * A router's ROUTER and NETS (the nets it routes to) into @rec: a target
 * registered alone (not in NIDMAP_A_TARGETS).  Return: 0 or -errno.
 */
static int nidmap_genl_router(struct nlattr **tb,
			      struct netlink_ext_ack *extack,
			      struct nidmap_rec *rec)
{
	struct nlattr *a;
	int rem;
	u32 net;

	if (!tb[NIDMAP_A_ROUTER]) {
		if (tb[NIDMAP_A_NETS]) {
			NL_SET_ERR_MSG_ATTR(extack, tb[NIDMAP_A_NETS],
					    "only a router (ROUTER) has nets");
			return -EINVAL;
		}
		return 0;
	}
	rec->flags |= NIDMAP_R_ROUTER;
	if (!tb[NIDMAP_A_NETS]) {
		NL_SET_ERR_MSG(extack, "a router needs the nets it routes to");
		return -EINVAL;
	}
	nla_for_each_nested(a, tb[NIDMAP_A_NETS], rem) {
		if (nla_type(a) != NIDMAP_A_NET)
			continue;
		if (rec->nnets == NIDMAP_NETS_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "a router routes to at most 16 nets");
			return -E2BIG;
		}
		if (lnet_net_from_str(nla_data(a), &net) ||
		    net == LNET_NET_ANY) {
			NL_SET_ERR_MSG_ATTR(extack, a, "not a net");
			return -EINVAL;
		}
		rec->nets[rec->nnets++] = net;
	}
	if (!rec->nnets || nidmap_rec_check(rec, true)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[NIDMAP_A_NETS],
				    "1 to 16 distinct nets, none lo");
		return -EINVAL;
	}
	return 0;
}

/*
 * A REGISTER's record from @tb (the request's attributes, or a target of
 * NIDMAP_A_TARGETS: @nest); Return: 0 or -errno (extack).
 */
static int nidmap_genl_rec(struct nlattr **tb, const struct nlattr *nest,
			   struct netlink_ext_ack *extack,
			   struct nidmap_rec *rec)
{
	struct nlattr *a;
	int rem, rc;

	memset(rec, 0, sizeof(*rec));
	if (!tb[NIDMAP_A_NAME]) {
		NL_SET_ERR_ATTR_MISS(extack, nest, NIDMAP_A_NAME);
		NL_SET_ERR_MSG(extack, "a target needs its name");
		return -EINVAL;
	}
	nla_strscpy(rec->name, tb[NIDMAP_A_NAME], sizeof(rec->name));
	if (nidmap_name_check(rec->name, sizeof(rec->name)) < 0) {
		NL_SET_ERR_MSG_ATTR(extack, tb[NIDMAP_A_NAME],
				    "a target name is 1 to 63 of A-Z a-z 0-9 - _ . : @");
		return -EINVAL;
	}
	if (tb[NIDMAP_A_DELETE]) {
		rec->flags = NIDMAP_R_DELETED;
		return 0;
	}
	if (!tb[NIDMAP_A_NIDS]) {
		NL_SET_ERR_ATTR_MISS(extack, nest, NIDMAP_A_NIDS);
		NL_SET_ERR_MSG(extack, "a target needs its NIDs (or DELETE)");
		return -EINVAL;
	}
	nla_for_each_nested(a, tb[NIDMAP_A_NIDS], rem) {
		if (nla_type(a) != NIDMAP_A_NID)
			continue;
		if (rec->nnids == NIDMAP_NIDS_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "a target has at most 16 NIDs");
			return -E2BIG;
		}
		rc = nidmap_genl_nid(a, &rec->nids[rec->nnids], extack);
		if (rc)
			return rc;
		rec->nnids++;
	}
	if (!rec->nnids || nidmap_rec_check(rec, true)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[NIDMAP_A_NIDS],
				    "1 to 16 distinct NIDs, none on lo");
		return -EINVAL;
	}
	return nest ? 0 : nidmap_genl_router(tb, extack, rec);
}

/*
 * REGISTER's records: NAME and NIDS or DELETE, or NIDMAP_A_TARGETS (1 to
 * NIDMAP_REGISTER_MAX, each NAME and NIDS or DELETE).  @names[i] is
 * record i's NAME attribute (where a refusal points).  Return: the
 * number of records, or -errno (extack).
 */
VISIBLE_IF_KUNIT int nidmap_genl_recs(struct genl_info *info,
				      struct nidmap_rec *recs,
				      const struct nlattr **names)
{
	struct nlattr *ttb[NIDMAP_A_DELETE + 1];
	struct nlattr **tb = info->attrs;
	struct nlattr *el;
	int n = 0, rem, rc;

	if (!tb[NIDMAP_A_TARGETS]) {
		names[0] = tb[NIDMAP_A_NAME];
		return nidmap_genl_rec(tb, NULL, info->extack, recs) ?: 1;
	}
	if (tb[NIDMAP_A_NAME] || tb[NIDMAP_A_NIDS] || tb[NIDMAP_A_DELETE] ||
	    tb[NIDMAP_A_ROUTER] || tb[NIDMAP_A_NETS]) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[NIDMAP_A_TARGETS],
				    "either one target (NAME) or TARGETS, not both; a router registers alone");
		return -EINVAL;
	}
	nla_for_each_nested(el, tb[NIDMAP_A_TARGETS], rem) {
		if (n == NIDMAP_REGISTER_MAX) {
			NL_SET_ERR_MSG_ATTR(info->extack, el,
					    "at most 256 targets in one registration");
			return -E2BIG;
		}
		/* Validated by the policy (NLA_POLICY_NESTED_ARRAY). */
		rc = nla_parse_nested(ttb, NIDMAP_A_DELETE, el,
				      nidmap_target_policy, info->extack) ?:
		     nidmap_genl_rec(ttb, el, info->extack, &recs[n]);
		if (rc)
			return rc;
		names[n++] = ttb[NIDMAP_A_NAME];
	}
	if (!n) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[NIDMAP_A_TARGETS],
				    "no target");
		return -EINVAL;
	}
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_genl_recs);

/* A publisher's refusal as an errno and a message. */
static int nidmap_status_errno(u16 st, const char **msg)
{
	switch (st) {
	case NIDMAP_ST_OK:
		return 0;
	case NIDMAP_ST_PERM:
		*msg = "publisher refused: the target is registered by another NID";
		return -EPERM;
	case NIDMAP_ST_NOSPC:
		*msg = "publisher refused: its table is full";
		return -ENOSPC;
	case NIDMAP_ST_NOENT:
		*msg = "publisher refused: no such target";
		return -ENOENT;
	case NIDMAP_ST_BUSY:
		*msg = "publisher busy: try again later";
		return -EBUSY;
	case NIDMAP_ST_TOOBIG:
		*msg = "publisher refused: beyond a limit";
		return -E2BIG;
	default:
		*msg = "publisher refused the registration";
		return -EREMOTEIO;
	}
}

static int nidmap_genl_register(struct sk_buff *skb, struct genl_info *info)
{
	const struct nlattr **names;
	struct nidmap_rec *recs;
	struct lnet_nid pub;
	const char *msg = NULL;
	struct sk_buff *rep;
	u64 version = 0;
	u32 index = 0;
	u16 st = 0;
	void *hdr;
	int rc, n;

	if (GENL_REQ_ATTR_CHECK(info, NIDMAP_A_PUBLISHER))
		return -EINVAL;
	rc = nidmap_genl_nid(info->attrs[NIDMAP_A_PUBLISHER], &pub,
			     info->extack) ?: nidmap_genl_need_key(info);
	if (rc)
		return rc;
	recs = kvmalloc_array(NIDMAP_REGISTER_MAX, sizeof(*recs), GFP_KERNEL);
	names = kmalloc_array(NIDMAP_REGISTER_MAX, sizeof(*names), GFP_KERNEL);
	n = recs && names ? nidmap_genl_recs(info, recs, names) : -ENOMEM;
	rc = n < 0 ? n : nidmap_register(&pub, recs, n, &st, &version, &index);
	if (!rc && st == NIDMAP_ST_OK)
		nidmap_renew_note(&pub, recs, n);	/* to follow our NIDs */
	kvfree(recs);
	if (rc == -ETIMEDOUT || rc == -EIO)
		NL_SET_ERR_MSG(info->extack, "no answer from the publisher");
	else if (rc == -ENETDOWN)
		NL_SET_ERR_MSG(info->extack, "LNet is not configured");
	if (!rc)
		rc = nidmap_status_errno(st, &msg);
	if (rc && msg) {
		/* The refused target's NAME: which one of a batch. */
		nidmap_extack(info->extack, msg);
		if (info->extack && n > 0 && index < (u32)n)
			info->extack->bad_attr = names[index];
	}
	kfree(names);
	if (rc)
		return rc;
	rep = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!rep)
		return -ENOMEM;
	hdr = genlmsg_put_reply(rep, info, &nidmap_genl_family, 0,
				NIDMAP_CMD_REGISTER);
	if (!hdr || nla_put_u64_64bit(rep, NIDMAP_A_VERSION, version,
				      NIDMAP_A_PAD)) {
		nlmsg_free(rep);
		return -EMSGSIZE;
	}
	genlmsg_end(rep, hdr);
	return genlmsg_reply(rep, info);
}

static int nidmap_put_nid(struct sk_buff *skb, int type,
			  const struct lnet_nid *nid)
{
	char s[LNET_NIDSTR_SIZE];

	lnet_nid_to_str(nid, s, sizeof(s));
	return nla_put_string(skb, type, s);
}

static int nidmap_fill_pub(struct sk_buff *skb)
{
	struct nidmap_table *t = nidmap_pub_table();
	struct nidmap_pub_info info;
	struct nlattr *nest;
	u32 tomb, n;

	if (!t)
		return 0;
	nidmap_pub_info(&info);
	nest = nla_nest_start(skb, NIDMAP_A_PUB);
	if (!nest)
		return -EMSGSIZE;
	n = nidmap_table_count(t, &tomb);
	if (nla_put_u64_64bit(skb, NIDMAP_A_STATE_EPOCH, nidmap_table_epoch(t),
			      NIDMAP_A_STATE_PAD) ||
	    nla_put_u64_64bit(skb, NIDMAP_A_STATE_VERSION,
			      nidmap_table_version(t), NIDMAP_A_STATE_PAD) ||
	    nla_put_u64_64bit(skb, NIDMAP_A_STATE_HORIZON,
			      nidmap_table_horizon(t), NIDMAP_A_STATE_PAD) ||
	    nla_put_u32(skb, NIDMAP_A_STATE_ENTRIES, n) ||
	    nla_put_u32(skb, NIDMAP_A_STATE_TOMBSTONES, tomb) ||
	    nla_put_u32(skb, NIDMAP_A_STATE_SUBSCRIBERS, info.subs) ||
	    nla_put_u32(skb, NIDMAP_A_STATE_RELAYS, info.relays) ||
	    nla_put_u32(skb, NIDMAP_A_STATE_DIRECT, info.direct) ||
	    nla_put_u32(skb, NIDMAP_A_STATE_DEPTH, info.depth) ||
	    nla_put_u32(skb, NIDMAP_A_STATE_MAX_SUBS, info.max_subs) ||
	    nla_put_u32(skb, NIDMAP_A_STATE_FANOUT, info.fanout) ||
	    nla_put_u32(skb, NIDMAP_A_STATE_MAX_ENTRIES,
			nidmap_pub_lim.max_entries) ||
	    nla_put_u32(skb, NIDMAP_A_STATE_MAX_TOMBSTONES,
			nidmap_pub_lim.max_tombstones) ||
	    nla_put_u32(skb, NIDMAP_A_STATE_TOMB_AGE,
			nidmap_pub_lim.max_tomb_age))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int nidmap_fill_sub(struct sk_buff *skb)
{
	struct lnet_nid set[NIDMAP_RELAY_K_MAX];
	struct nlattr *nest, *nids;
	u64 epoch, version, base;
	bool subscribed, resync, relay, routes;
	struct nidmap_routes_ctr ri;
	struct nidmap_copy *c;
	struct lnet_nid pub;
	int i, nset;

	c = nidmap_sub_copy(&pub, &subscribed);
	if (!c)
		return 0;
	nset = nidmap_sub_relay_set(&relay, set);
	nidmap_sub_routes_info(&routes, &ri);
	nidmap_copy_position(c, &epoch, &version, &base, &resync);
	nest = nla_nest_start(skb, NIDMAP_A_SUB);
	if (!nest)
		return -EMSGSIZE;
	if (nidmap_put_nid(skb, NIDMAP_A_STATE_PUBLISHER, &pub) ||
	    nla_put_u8(skb, NIDMAP_A_STATE_SUBSCRIBED, subscribed) ||
	    nla_put_u64_64bit(skb, NIDMAP_A_STATE_EPOCH, epoch,
			      NIDMAP_A_STATE_PAD) ||
	    nla_put_u64_64bit(skb, NIDMAP_A_STATE_VERSION, version,
			      NIDMAP_A_STATE_PAD) ||
	    nla_put_u32(skb, NIDMAP_A_STATE_ENTRIES, nidmap_copy_count(c)) ||
	    nla_put_u8(skb, NIDMAP_A_STATE_RELAY, relay) ||
	    nla_put_u8(skb, NIDMAP_A_STATE_ROUTES, routes) ||
	    nla_put_u32(skb, NIDMAP_A_STATE_ROUTES_INSTALLED, ri.installed) ||
	    nla_put_u32(skb, NIDMAP_A_STATE_ROUTES_ADDED, ri.added) ||
	    nla_put_u32(skb, NIDMAP_A_STATE_ROUTES_REMOVED, ri.removed) ||
	    nla_put_u32(skb, NIDMAP_A_STATE_ROUTES_SKIPPED, ri.skipped))
		return -EMSGSIZE;
	nids = nla_nest_start(skb, NIDMAP_A_STATE_RELAY_SET);
	if (!nids)
		return -EMSGSIZE;
	for (i = 0; i < nset; i++)
		if (nidmap_put_nid(skb, NIDMAP_A_NID, &set[i]))
			return -EMSGSIZE;
	nla_nest_end(skb, nids);
	nla_nest_end(skb, nest);
	return 0;
}

static int nidmap_fill_counters(struct sk_buff *skb)
{
	struct nlattr *nest = nla_nest_start(skb, NIDMAP_A_COUNTERS);
	int i;

	if (!nest)
		return -EMSGSIZE;
	for (i = NIDMAP_A_CTR_RX; i <= NIDMAP_A_CTR_MAX; i++)
		if (i != NIDMAP_A_CTR_PAD &&
		    nla_put_u64_64bit(skb, i, atomic64_read(&nidmap_ctr[i]),
				      NIDMAP_A_CTR_PAD))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* The ids of the keys held (never their secrets) and the one signing. */
static int nidmap_fill_keys(struct sk_buff *skb)
{
	u32 ids[NIDMAP_AUTH_KEYS], signing;
	struct nlattr *nest;
	int i;

	nidmap_key_ids(nidmap_keys, ids, &signing);
	nest = nla_nest_start(skb, NIDMAP_A_KEYS);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < NIDMAP_AUTH_KEYS; i++)
		if (ids[i] && nla_put_u32(skb, NIDMAP_A_KEY_ID, ids[i]))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return nla_put_u32(skb, NIDMAP_A_KEY_SIGNING, signing);
}

static int nidmap_genl_show(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *rep;
	void *hdr;
	int rc;

	rep = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!rep)
		return -ENOMEM;
	hdr = genlmsg_put_reply(rep, info, &nidmap_genl_family, 0,
				NIDMAP_CMD_SHOW);
	if (!hdr) {
		nlmsg_free(rep);
		return -EMSGSIZE;
	}
	mutex_lock(&nidmap_cfg_lock);
	rc = nidmap_fill_pub(rep) ?: nidmap_fill_sub(rep) ?:
	     nidmap_fill_keys(rep) ?: nidmap_fill_counters(rep);
	mutex_unlock(&nidmap_cfg_lock);
	if (rc) {
		nlmsg_free(rep);
		return rc;
	}
	genlmsg_end(rep, hdr);
	return genlmsg_reply(rep, info);
}

/* A table dump: cb->args[0] is the version of the last entry emitted. */
struct nidmap_dump {
	struct sk_buff		*skb;
	struct netlink_callback	*cb;
};

/* @rec as a NIDMAP_A_ENTRY nest; Return: 0 or -EMSGSIZE. */
static int nidmap_fill_entry(struct sk_buff *skb, const struct nidmap_rec *rec)
{
	char net[LNET_GENL_NET_LEN];
	struct nlattr *ent, *nids;
	int i;

	ent = nla_nest_start(skb, NIDMAP_A_ENTRY);
	if (!ent ||
	    nla_put_string(skb, NIDMAP_A_ENT_NAME, rec->name) ||
	    nla_put_u64_64bit(skb, NIDMAP_A_ENT_VERSION, rec->version,
			      NIDMAP_A_ENT_PAD) ||
	    nla_put_u32(skb, NIDMAP_A_ENT_FLAGS, rec->flags))
		return -EMSGSIZE;
	nids = nla_nest_start(skb, NIDMAP_A_ENT_NIDS);
	if (!nids)
		return -EMSGSIZE;
	for (i = 0; i < rec->nnids; i++)
		if (nidmap_put_nid(skb, NIDMAP_A_NID, &rec->nids[i]))
			return -EMSGSIZE;
	nla_nest_end(skb, nids);
	if (rec->nnets) {
		nids = nla_nest_start(skb, NIDMAP_A_ENT_NETS);
		if (!nids)
			return -EMSGSIZE;
		for (i = 0; i < rec->nnets; i++) {
			lnet_net_to_str(rec->nets[i], net, sizeof(net));
			if (nla_put_string(skb, NIDMAP_A_NET, net))
				return -EMSGSIZE;
		}
		nla_nest_end(skb, nids);
	}
	nla_nest_end(skb, ent);
	return 0;
}

static int nidmap_put_entry(void *arg, const struct nidmap_rec *rec)
{
	struct nidmap_dump *d = arg;
	void *hdr;

	if (rec->flags & NIDMAP_R_DELETED) {
		d->cb->args[0] = rec->version;
		return 0;
	}
	hdr = genlmsg_put(d->skb, NETLINK_CB(d->cb->skb).portid,
			  d->cb->nlh->nlmsg_seq, &nidmap_genl_family,
			  NLM_F_MULTI, NIDMAP_CMD_TABLE);
	if (!hdr)
		return -ENOSPC;
	if (nidmap_fill_entry(d->skb, rec)) {
		genlmsg_cancel(d->skb, hdr);
		return -ENOSPC;
	}
	genlmsg_end(d->skb, hdr);
	d->cb->args[0] = rec->version;
	return 0;
}

/* A dump has no pre_doit: the namespace is checked here, first. */
static int nidmap_genl_table(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nidmap_dump d = { .skb = skb, .cb = cb };
	struct nidmap_extract res;
	struct nidmap_table *t;
	struct nidmap_copy *c;
	struct nlattr **tb;
	struct lnet_nid pub;
	bool subscribed;
	int rc;

	rc = lnet_genl_netns_check(cb->skb, cb->extack);
	if (rc)
		return rc;
	tb = genl_dumpit_info(cb)->attrs;
	if (!tb[NIDMAP_A_SOURCE]) {
		NL_SET_ERR_MSG(cb->extack, "which table (publisher or copy)");
		return -EINVAL;
	}
	mutex_lock(&nidmap_cfg_lock);
	if (nla_get_u32(tb[NIDMAP_A_SOURCE]) == NIDMAP_SOURCE_PUBLISHER) {
		t = nidmap_pub_table();
		if (!t) {
			NL_SET_ERR_MSG(cb->extack, "this node is no publisher");
			rc = -ENOENT;
		} else {
			/* The current horizon: never a resync from 0 again. */
			rc = nidmap_table_extract(t, cb->args[0],
						  nidmap_table_horizon(t),
						  nidmap_put_entry, &d, &res);
			if (rc == -EMSGSIZE)
				rc = 0;
		}
	} else {
		c = nidmap_sub_copy(&pub, &subscribed);
		if (!c) {
			NL_SET_ERR_MSG(cb->extack, "this node subscribes to no publisher");
			rc = -ENOENT;
		} else {
			rc = nidmap_copy_walk(c, cb->args[0], nidmap_put_entry,
					      &d);
			if (rc == -ENOSPC)
				rc = 0;
		}
	}
	mutex_unlock(&nidmap_cfg_lock);
	return rc ?: skb->len;
}

/*
 * REGISTRATIONS: the registrations this node made through this family
 * and a publisher took (renew.c remembers them, and moves their NIDs
 * with this node's), each a message of PUBLISHER and ENTRY (version 0,
 * not the table's: the record as registered): what lnetctl export
 * writes.  cb->args[0] is the index of the next one.
 */
static int nidmap_genl_registrations(struct sk_buff *skb,
				     struct netlink_callback *cb)
{
	struct nidmap_rec *rec;
	struct lnet_nid pub;
	void *hdr;
	int rc;

	rc = lnet_genl_netns_check(cb->skb, cb->extack);
	if (rc)
		return rc;
	rec = kmalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return -ENOMEM;
	while (nidmap_renew_get(cb->args[0], &pub, rec)) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &nidmap_genl_family,
				  NLM_F_MULTI, NIDMAP_CMD_REGISTRATIONS);
		if (!hdr)
			break;
		if (nidmap_put_nid(skb, NIDMAP_A_PUBLISHER, &pub) ||
		    nidmap_fill_entry(skb, rec)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		cb->args[0]++;
	}
	kfree(rec);
	return skb->len;
}

/*
 * LOOKUP: a target's entry as a send by name resolves it (the copy, or
 * on a publisher that does not subscribe its table): NIDs in failover
 * order and the entry's version, with NIDMAP_A_SOURCE saying which.
 */
static int nidmap_genl_lookup(struct sk_buff *skb, struct genl_info *info)
{
	u32 source = NIDMAP_SOURCE_PUBLISHER;
	struct nidmap_rec *rec;
	struct sk_buff *rep;
	void *hdr;
	int rc;

	if (GENL_REQ_ATTR_CHECK(info, NIDMAP_A_NAME))
		return -EINVAL;
	rec = kmalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return -ENOMEM;
	rc = nidmap_resolve(nla_data(info->attrs[NIDMAP_A_NAME]), rec,
			    &source);
	if (rc == -ENODEV) {
		NL_SET_ERR_MSG(info->extack,
			       "this node neither subscribes nor publishes, and has no DNS domain");
	} else if (rc == -ENOENT) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[NIDMAP_A_NAME],
				    "no such target");
	} else if (rc == -EACCES) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[NIDMAP_A_NAME],
				    "DNS answer not validated (dns_dnssec is on)");
	} else if (rc == -EPROTO) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[NIDMAP_A_NAME],
				    "malformed DNS record");
	} else if (rc < 0 && source == NIDMAP_SOURCE_DNS) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[NIDMAP_A_NAME],
				    "DNS lookup failed");
	}
	if (rc)
		goto out;
	rc = -ENOMEM;
	rep = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!rep)
		goto out;
	hdr = genlmsg_put_reply(rep, info, &nidmap_genl_family, 0,
				NIDMAP_CMD_LOOKUP);
	if (!hdr ||
	    nla_put_u32(rep, NIDMAP_A_SOURCE, source) ||
	    nidmap_fill_entry(rep, rec)) {
		nlmsg_free(rep);
		rc = -EMSGSIZE;
		goto out;
	}
	genlmsg_end(rep, hdr);
	rc = genlmsg_reply(rep, info);
out:
	kfree(rec);
	return rc;
}

/*
 * A key command's refusal: its message, the KEY_ID attribute pointed
 * at (extack messages are constant strings on this kernel: the id is the
 * attribute's, and lnetctl's message names it).
 */
static void nidmap_key_refused(struct genl_info *info, const char *msg)
{
	nidmap_extack(info->extack, msg);
	if (info->extack)
		info->extack->bad_attr = info->attrs[NIDMAP_A_KEY_ID];
}

/*
 * KEY_ADD: KEY_ID and KEY_SECRET, a key to sign and check with (the
 * first one held is signed with at once).  The secret is used in place
 * (nidmap_key_add() keys the HMAC with it) and wiped from the request
 * before it is freed, or echoed in an error's ack.
 */
static int nidmap_genl_key_add(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *secret = info->attrs[NIDMAP_A_KEY_SECRET];
	int rc;

	if (GENL_REQ_ATTR_CHECK(info, NIDMAP_A_KEY_ID) ||
	    GENL_REQ_ATTR_CHECK(info, NIDMAP_A_KEY_SECRET)) {
		NL_SET_ERR_MSG(info->extack, "a key needs its id and its secret");
		rc = -EINVAL;
		goto out;
	}
	mutex_lock(&nidmap_cfg_lock);
	rc = nidmap_key_add(nidmap_keys,
			    nla_get_u32(info->attrs[NIDMAP_A_KEY_ID]),
			    nla_data(secret), nla_len(secret));
	mutex_unlock(&nidmap_cfg_lock);
	switch (rc) {
	case 0:
		break;
	case -EEXIST:
		nidmap_key_refused(info, "a key of this id is held already: delete it first");
		break;
	case -ENOSPC:
		nidmap_key_refused(info, "two keys are held already: delete one first");
		break;
	case -ENOENT:
		nidmap_key_refused(info, "this kernel has no hmac(sha256)");
		break;
	default:
		nidmap_key_refused(info, "the key could not be added");
		break;
	}
out:
	if (secret)
		memzero_explicit(nla_data(secret), nla_len(secret));
	return rc;
}

/* KEY_USE: KEY_ID, signed with from now on. */
static int nidmap_genl_key_use(struct sk_buff *skb, struct genl_info *info)
{
	int rc;

	if (GENL_REQ_ATTR_CHECK(info, NIDMAP_A_KEY_ID)) {
		NL_SET_ERR_MSG(info->extack, "which key: KEY_ID is needed");
		return -EINVAL;
	}
	mutex_lock(&nidmap_cfg_lock);
	rc = nidmap_key_use(nidmap_keys,
			    nla_get_u32(info->attrs[NIDMAP_A_KEY_ID]));
	mutex_unlock(&nidmap_cfg_lock);
	if (rc == -ENOENT)
		nidmap_key_refused(info, "no key of this id is held: add it first");
	else if (rc)
		nidmap_key_refused(info, "the key could not be used");
	return rc;
}

/*
 * KEY_DEL: KEY_ID, forgotten: messages MACed with it are refused.  The
 * key signed with goes only when it is the last one (a rotation signs
 * with the new key first).
 */
static int nidmap_genl_key_del(struct sk_buff *skb, struct genl_info *info)
{
	int rc;

	if (GENL_REQ_ATTR_CHECK(info, NIDMAP_A_KEY_ID)) {
		NL_SET_ERR_MSG(info->extack, "which key: KEY_ID is needed");
		return -EINVAL;
	}
	mutex_lock(&nidmap_cfg_lock);
	rc = nidmap_key_del(nidmap_keys,
			    nla_get_u32(info->attrs[NIDMAP_A_KEY_ID]));
	mutex_unlock(&nidmap_cfg_lock);
	if (rc == -ENOENT)
		nidmap_key_refused(info, "no key of this id is held");
	else if (rc == -EBUSY)
		nidmap_key_refused(info,
				   "the key is the signing key and another key is held: use the other key first");
	else if (rc)
		nidmap_key_refused(info, "the key could not be deleted");
	return rc;
}

static const struct genl_ops nidmap_genl_ops[] = {
	{ .cmd = NIDMAP_CMD_PUBLISH,	.doit = nidmap_genl_publish },
	{ .cmd = NIDMAP_CMD_SUBSCRIBE,	.doit = nidmap_genl_subscribe },
	{ .cmd = NIDMAP_CMD_REGISTER,	.doit = nidmap_genl_register },
	{ .cmd = NIDMAP_CMD_SHOW,	.doit = nidmap_genl_show },
	{ .cmd = NIDMAP_CMD_TABLE,	.dumpit = nidmap_genl_table,
	  .flags = GENL_ADMIN_PERM },
	/* Strict: no attribute beyond the policy, no trailing data. */
	{ .cmd = NIDMAP_CMD_LOOKUP,	.doit = nidmap_genl_lookup },
	/* The keys: GENL_ADMIN_PERM too, checked before anything else. */
	{ .cmd = NIDMAP_CMD_KEY_ADD,	.doit = nidmap_genl_key_add,
	  .flags = GENL_ADMIN_PERM },
	{ .cmd = NIDMAP_CMD_KEY_USE,	.doit = nidmap_genl_key_use,
	  .flags = GENL_ADMIN_PERM },
	{ .cmd = NIDMAP_CMD_KEY_DEL,	.doit = nidmap_genl_key_del,
	  .flags = GENL_ADMIN_PERM },
	/* Lists publishers' NIDs and this node's targets, as TABLE. */
	{ .cmd = NIDMAP_CMD_REGISTRATIONS, .dumpit = nidmap_genl_registrations,
	  .flags = GENL_ADMIN_PERM },
};

static struct genl_family nidmap_genl_family __ro_after_init = {
	.name		= NIDMAP_GENL_NAME,
	.version	= NIDMAP_GENL_VERSION,
	.maxattr	= NIDMAP_A_MAX,
	.policy		= nidmap_genl_policy,
	.module		= THIS_MODULE,
	.parallel_ops	= true,
	.netnsok	= true,
	.pre_doit	= nidmap_genl_pre_doit,
	.ops		= nidmap_genl_ops,
	.n_ops		= ARRAY_SIZE(nidmap_genl_ops),
	.resv_start_op	= NIDMAP_CMD_TABLE + 1,
};

/**
 * nidmap_netlink_init() - register the "nidmap" family
 *
 * Return: 0 or -errno.
 */
int nidmap_netlink_init(void)
{
	return genl_register_family(&nidmap_genl_family);
}

/* Before the roles are stopped: no new command starts one. */
void nidmap_netlink_fini(void)
{
	genl_unregister_family(&nidmap_genl_family);
}
