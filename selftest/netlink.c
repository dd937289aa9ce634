// SPDX-License-Identifier: GPL-2.0
/*
 * The "lnet_selftest" generic netlink family (include/uapi/lnet/
 * lnet_selftest_genl.h): lst's commands, checked (strict policies,
 * extack messages, CAP_NET_ADMIN for all), then done by console.c under
 * lst_con.lock.
 *
 * A command that sends RPCs is a dump: its first dumpit call runs it
 * (the dump's callback is where extack reaches the caller: an error
 * comes back in the dump's DONE message, with its message); the results
 * are then emitted one node per message, and freed when the dump ends.
 * The family runs with parallel_ops: a transaction sleeps up to its
 * timeout and must not hold genl_mutex (and every other family) that
 * long.
 */
#include <linux/module.h>
#include <net/genetlink.h>

#include <lnet/genl.h>
#include <lnet/nid.h>

#include "console.h"

static struct genl_family lst_genl_family;

#define LST_NAME_POLICY	{ .type = NLA_NUL_STRING, .len = LST_GENL_NAME_LEN - 1 }

static const struct nla_policy lst_nid_list_policy[LST_A_NID + 1] = {
	[LST_A_NID]	= { .type = NLA_NUL_STRING, .len = LST_GENL_NID_LEN - 1 },
};

/* One policy for the family: each command checks what it needs. */
static const struct nla_policy lst_genl_policy[LST_A_MAX + 1] = {
	[LST_A_KEY]		= { .type = NLA_U32 },
	[LST_A_NAME]		= LST_NAME_POLICY,
	[LST_A_TIMEOUT]		= NLA_POLICY_RANGE(NLA_U32, 1,
						   LST_GENL_TIMEOUT_MAX),
	[LST_A_FORCE]		= { .type = NLA_FLAG },
	[LST_A_GROUP]		= LST_NAME_POLICY,
	[LST_A_NODES]		= NLA_POLICY_NESTED(lst_nid_list_policy),
	[LST_A_STATE]		= NLA_POLICY_RANGE(NLA_U32, 1, 15),
	[LST_A_UPDATE_OPC]	= NLA_POLICY_RANGE(NLA_U32, LST_GROUP_CLEAN,
						   LST_GROUP_REMOVE),
	[LST_A_BATCH]		= LST_NAME_POLICY,
	[LST_A_TEST_IDX]	= NLA_POLICY_MAX(NLA_U32, LST_GENL_TESTS_MAX),
	[LST_A_TEST_TYPE]	= NLA_POLICY_RANGE(NLA_U32, LST_TEST_BRW,
						   LST_TEST_PING),
	[LST_A_FROM]		= LST_NAME_POLICY,
	[LST_A_TO]		= LST_NAME_POLICY,
	[LST_A_LOOP]		= NLA_POLICY_MIN(NLA_S32, -1),
	[LST_A_CONCUR]		= NLA_POLICY_RANGE(NLA_U32, 1,
						   LST_GENL_CONCUR_MAX),
	[LST_A_DIST]		= NLA_POLICY_RANGE(NLA_U32, 1,
						   LST_GENL_NODES_MAX),
	[LST_A_SPAN]		= NLA_POLICY_RANGE(NLA_U32, 1,
						   LST_GENL_SPAN_MAX),
	[LST_A_BRW_OPC]		= NLA_POLICY_RANGE(NLA_U32, LST_BRW_OPC_READ,
						   LST_BRW_OPC_WRITE),
	[LST_A_BRW_SIZE]	= { .type = NLA_U32 },
	[LST_A_BRW_CHECK]	= NLA_POLICY_RANGE(NLA_U32, LST_BRW_CHK_NONE,
						   LST_BRW_CHK_DISCARD),
	[LST_A_BRW_OFF]		= { .type = NLA_U32 },
	[LST_A_SERVER]		= { .type = NLA_FLAG },
};

static u32 lst_attr_u32(struct nlattr **tb, int type, u32 dflt)
{
	return tb[type] ? nla_get_u32(tb[type]) : dflt;
}

/*
 * @type must be there: else the extack names it and says @msg (a string
 * literal: extack keeps the pointer).
 */
static bool lst_need(struct nlattr **tb, int type, const char *msg,
		     struct netlink_ext_ack *extack)
{
	if (tb[type])
		return true;
	if (extack)
		extack->_msg = msg;
	NL_SET_ERR_ATTR_MISS(extack, NULL, type);
	return false;
}

/*
 * The session exists and @tb's key is its key; marks the console used
 * (its idle timer restarts).
 */
static int lst_check_session(struct nlattr **tb, bool key,
			     struct netlink_ext_ack *extack)
{
	if (!lst_con.live) {
		NL_SET_ERR_MSG(extack, "no session (lst new_session first)");
		return -ESRCH;
	}
	if (key && (!tb[LST_A_KEY] || nla_get_u32(tb[LST_A_KEY]) != lst_con.key)) {
		NL_SET_ERR_MSG(extack,
			       "not this session's key ($LST_SESSION)");
		return -EACCES;
	}
	lst_con.last_used = jiffies;
	return 0;
}

/*
 * Every request: from the initial network namespace (the modules hold one
 * LNet, which lives there; the family is netnsok so that another
 * namespace is told so: lnet_genl_netns_check(), as lnet's family), with
 * CAP_NET_ADMIN.
 */
static int lst_need_admin(struct sk_buff *skb, struct netlink_ext_ack *extack)
{
	int rc = lnet_genl_netns_check(skb, extack);

	if (rc)
		return rc;
	if (netlink_capable(skb, CAP_NET_ADMIN))
		return 0;
	NL_SET_ERR_MSG(extack, "this request needs CAP_NET_ADMIN");
	return -EPERM;
}

static int lst_genl_pre_doit(const struct genl_ops *ops, struct sk_buff *skb,
			     struct genl_info *info)
{
	return lst_need_admin(skb, info->extack);
}

/* --- doit commands --- */

static int lst_genl_session_new(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	int rc;

	if (!lst_need(tb, LST_A_KEY, "the session key is missing", info->extack) ||
	    !lst_need(tb, LST_A_NAME, "the session name is missing", info->extack))
		return -EINVAL;
	if (!nla_len(tb[LST_A_NAME]) || !*(char *)nla_data(tb[LST_A_NAME])) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[LST_A_NAME],
				    "empty session name");
		return -EINVAL;
	}
	mutex_lock(&lst_con.lock);
	rc = lst_con_session_new(nla_get_u32(tb[LST_A_KEY]),
				 nla_data(tb[LST_A_NAME]),
				 lst_attr_u32(tb, LST_A_TIMEOUT,
					      LST_CON_IDLE_DEFAULT),
				 nla_get_flag(tb[LST_A_FORCE]), info->extack);
	mutex_unlock(&lst_con.lock);
	return rc;
}

static int lst_genl_session_end(struct sk_buff *skb, struct genl_info *info)
{
	int rc;

	mutex_lock(&lst_con.lock);
	rc = lst_check_session(info->attrs, true, info->extack);
	if (!rc)
		lst_con_session_end();
	mutex_unlock(&lst_con.lock);
	return rc;
}

static int lst_genl_session_get(struct sk_buff *skb, struct genl_info *info)
{
	char nid[LST_GENL_NID_LEN];
	struct sk_buff *msg;
	void *hdr;
	int rc;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &lst_genl_family, 0,
				LST_CMD_SESSION_GET);
	mutex_lock(&lst_con.lock);
	rc = lst_check_session(info->attrs, false, info->extack);
	if (rc)
		goto fail;
	lnet_nid4_to_str(lst_con.sid.nid, nid, sizeof(nid));
	rc = -EMSGSIZE;
	if (!hdr || nla_put_string(msg, LST_A_NAME, lst_con.name) ||
	    nla_put_u32(msg, LST_A_KEY, lst_con.key) ||
	    nla_put_string(msg, LST_A_SID_NID, nid) ||
	    nla_put_u64_64bit(msg, LST_A_SID_STAMP, lst_con.sid.stamp,
			      LST_A_PAD) ||
	    nla_put_u32(msg, LST_A_TIMEOUT, lst_con.timeout) ||
	    (lst_con.force && nla_put_flag(msg, LST_A_FORCE)) ||
	    nla_put_u32(msg, LST_A_NODE_COUNT, lst_con.nnodes))
		goto fail;
	mutex_unlock(&lst_con.lock);
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
fail:
	mutex_unlock(&lst_con.lock);
	nlmsg_free(msg);
	return rc;
}

static int lst_genl_batch_add(struct sk_buff *skb, struct genl_info *info)
{
	int rc;

	if (!lst_need(info->attrs, LST_A_BATCH, "the batch name is missing", info->extack))
		return -EINVAL;
	mutex_lock(&lst_con.lock);
	rc = lst_check_session(info->attrs, true, info->extack);
	if (!rc)
		rc = lst_con_batch_add(nla_data(info->attrs[LST_A_BATCH]),
				       info->extack);
	mutex_unlock(&lst_con.lock);
	return rc;
}

/* --- transactions: dumps of per-node results --- */

/* The NIDs of @list (checked strings), PID 12345, into a new array. */
static int lst_parse_nodes(const struct nlattr *list,
			   struct lnet_processid **out,
			   struct netlink_ext_ack *extack)
{
	struct lnet_processid *ids;
	const struct nlattr *a;
	int rem, n = 0;

	nla_for_each_nested(a, list, rem)
		n++;
	if (!n || n > LST_GENL_REQ_NODES_MAX) {
		if (n)
			NL_SET_ERR_MSG_ATTR(extack, list, "too many nodes");
		else
			NL_SET_ERR_MSG_ATTR(extack, list, "no node");
		return -EINVAL;
	}
	ids = kvcalloc(n, sizeof(*ids), GFP_KERNEL);
	if (!ids)
		return -ENOMEM;
	n = 0;
	nla_for_each_nested(a, list, rem) {
		struct lnet_processid *id = &ids[n++];

		if (lnet_nid_from_str(nla_data(a), &id->nid) ||
		    lnet_nid_is_any(&id->nid) || !lnet_nid_is_nid4(&id->nid)) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "not a NID (selftest takes 64-bit NIDs)");
			kvfree(ids);
			return -EINVAL;
		}
		id->pid = LNET_PID_LUSTRE;
	}
	*out = ids;
	return n;
}

static struct lst_con_group *lst_need_group(struct nlattr **tb, int type,
					    struct netlink_ext_ack *extack)
{
	struct lst_con_group *grp;

	if (!lst_need(tb, type, "a group name is missing", extack))
		return ERR_PTR(-EINVAL);
	grp = lst_con_group_find(nla_data(tb[type]));
	if (!grp) {
		NL_SET_ERR_MSG_ATTR(extack, tb[type], "no such group");
		return ERR_PTR(-ENOENT);
	}
	return grp;
}

static struct lst_con_batch *lst_need_batch(struct nlattr **tb,
					    struct netlink_ext_ack *extack)
{
	struct lst_con_batch *bat;

	if (!lst_need(tb, LST_A_BATCH, "a batch name is missing", extack))
		return ERR_PTR(-EINVAL);
	bat = lst_con_batch_find(nla_data(tb[LST_A_BATCH]));
	if (!bat) {
		NL_SET_ERR_MSG_ATTR(extack, tb[LST_A_BATCH], "no such batch");
		return ERR_PTR(-ENOENT);
	}
	return bat;
}

static int lst_cmd_group_add(struct nlattr **tb, struct lst_con_results **rp,
			     struct netlink_ext_ack *extack)
{
	struct lnet_processid *ids;
	int n, rc;

	if (!lst_need(tb, LST_A_GROUP, "the group name is missing", extack) ||
	    !lst_need(tb, LST_A_NODES, "the nodes are missing", extack))
		return -EINVAL;
	n = lst_parse_nodes(tb[LST_A_NODES], &ids, extack);
	if (n < 0)
		return n;
	*rp = lst_con_results_alloc(LST_CMD_GROUP_ADD, n);
	rc = *rp ? lst_con_group_add(nla_data(tb[LST_A_GROUP]), ids, n, *rp,
				     extack) : -ENOMEM;
	kvfree(ids);
	return rc;
}

static int lst_cmd_group_update(struct nlattr **tb,
				struct lst_con_results **rp,
				struct netlink_ext_ack *extack)
{
	struct lst_con_group *grp = lst_need_group(tb, LST_A_GROUP, extack);
	struct lnet_processid *ids;
	int n, rc;

	if (IS_ERR(grp))
		return PTR_ERR(grp);
	if (!lst_need(tb, LST_A_UPDATE_OPC, "the update is missing", extack))
		return -EINVAL;
	*rp = lst_con_results_alloc(LST_CMD_GROUP_UPDATE, grp->nnodes);
	if (!*rp)
		return -ENOMEM;
	switch (nla_get_u32(tb[LST_A_UPDATE_OPC])) {
	case LST_GROUP_CLEAN:
		rc = lst_con_group_clean(grp, lst_attr_u32(tb, LST_A_STATE,
							   ~LST_NODE_ACTIVE));
		if (rc)
			NL_SET_ERR_MSG(extack, "the group is used by a test");
		return rc;
	case LST_GROUP_REFRESH:
		return lst_con_group_refresh(grp, *rp);
	default:
		if (!lst_need(tb, LST_A_NODES, "the nodes are missing", extack))
			return -EINVAL;
		n = lst_parse_nodes(tb[LST_A_NODES], &ids, extack);
		if (n < 0)
			return n;
		rc = lst_con_group_remove(grp, ids, n, *rp, extack);
		kvfree(ids);
		return rc;
	}
}

static int lst_cmd_group_del(struct nlattr **tb, struct lst_con_results **rp,
			     struct netlink_ext_ack *extack)
{
	struct lst_con_group *grp = lst_need_group(tb, LST_A_GROUP, extack);

	if (IS_ERR(grp))
		return PTR_ERR(grp);
	*rp = lst_con_results_alloc(LST_CMD_GROUP_DEL, grp->nnodes);
	return *rp ? lst_con_group_del(grp, *rp, extack) : -ENOMEM;
}

/*
 * The test of TEST_ADD's attributes.  Good neighbour (spec 8.3): sizes
 * and offsets are whole words and an offset never adds a page to the
 * client's buffer: a stock node asserts on either.
 */
static int lst_parse_test(struct nlattr **tb, struct lst_con_test *t,
			  struct netlink_ext_ack *extack)
{
	if (!lst_need(tb, LST_A_TEST_TYPE, "the test type is missing", extack))
		return -EINVAL;
	t->type = nla_get_u32(tb[LST_A_TEST_TYPE]);
	t->loop = tb[LST_A_LOOP] ? nla_get_s32(tb[LST_A_LOOP]) : -1;
	t->concur = lst_attr_u32(tb, LST_A_CONCUR, 1);
	t->dist = lst_attr_u32(tb, LST_A_DIST, 1);
	t->span = lst_attr_u32(tb, LST_A_SPAN, 1);
	if (t->type == LST_TEST_PING)
		return 0;
	if (!lst_need(tb, LST_A_BRW_OPC, "read or write is missing", extack))
		return -EINVAL;
	t->brw_opc = nla_get_u32(tb[LST_A_BRW_OPC]);
	t->brw_size = lst_attr_u32(tb, LST_A_BRW_SIZE, 4096);
	t->brw_check = lst_attr_u32(tb, LST_A_BRW_CHECK, LST_BRW_CHK_NONE);
	t->brw_off = lst_attr_u32(tb, LST_A_BRW_OFF, 0);
	switch (lst_brw_params_check(t->brw_size, t->brw_off)) {
	case 0:
		return 0;
	case -EINVAL:
		NL_SET_ERR_MSG(extack,
			       "size must be a multiple of 8 bytes, at most 1M (stock nodes assert on others)");
		return -EINVAL;
	default:
		NL_SET_ERR_MSG(extack,
			       "off must be a multiple of 8 that adds no page to the buffer (stock nodes overrun)");
		return -EINVAL;
	}
}

static int lst_cmd_test_add(struct nlattr **tb, struct lst_con_results **rp,
			    struct netlink_ext_ack *extack)
{
	struct lst_con_batch *bat = lst_need_batch(tb, extack);
	struct lst_con_test *t;
	int rc;

	if (IS_ERR(bat))
		return PTR_ERR(bat);
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	rc = lst_parse_test(tb, t, extack);
	if (rc)
		goto out;
	t->from = lst_need_group(tb, LST_A_FROM, extack);
	t->to = lst_need_group(tb, LST_A_TO, extack);
	if (IS_ERR(t->from) || IS_ERR(t->to)) {
		rc = IS_ERR(t->from) ? PTR_ERR(t->from) : PTR_ERR(t->to);
		goto out;
	}
	*rp = lst_con_results_alloc(LST_CMD_TEST_ADD,
				    t->from->nnodes + t->to->nnodes);
	rc = *rp ? lst_con_test_add(bat, t, *rp, extack) : -ENOMEM;
	if (!rc && (*rp)->test_idx)
		return 0;	/* the batch owns it */
out:
	kfree(t);
	return rc;
}

static int lst_cmd_batch(struct nlattr **tb, unsigned int cmd,
			 struct lst_con_results **rp,
			 struct netlink_ext_ack *extack)
{
	struct lst_con_batch *bat = lst_need_batch(tb, extack);
	bool server = nla_get_flag(tb[LST_A_SERVER]);

	if (IS_ERR(bat))
		return PTR_ERR(bat);
	*rp = lst_con_results_alloc(cmd, lst_con.nnodes);
	if (!*rp)
		return -ENOMEM;
	switch (cmd) {
	case LST_CMD_BATCH_RUN:
		return lst_con_batch_run(bat, lst_attr_u32(tb, LST_A_TIMEOUT, 0),
					 *rp, extack);
	case LST_CMD_BATCH_STOP:
		return lst_con_batch_stop(bat, nla_get_flag(tb[LST_A_FORCE]),
					  *rp);
	default:
		return lst_con_batch_query(bat, lst_attr_u32(tb, LST_A_TEST_IDX, 0),
					   server,
					   clamp(lst_attr_u32(tb, LST_A_TIMEOUT, 5),
						 3U, 30U), *rp, extack);
	}
}

/*
 * STAT and DEBUG: the nodes of GROUP, of NODES (each in the session), of
 * BATCH (its clients, or servers with SERVER) or of the session.
 */
static int lst_cmd_nodes(struct nlattr **tb, unsigned int cmd,
			 struct lst_con_results **rp,
			 struct netlink_ext_ack *extack)
{
	u32 timeout = clamp(lst_attr_u32(tb, LST_A_TIMEOUT,
					 cmd == LST_CMD_STAT ? 5 : 30), 3U, 30U);
	struct lst_con_node **v, *nd;
	struct lnet_processid *ids;
	unsigned int n = 0;
	int i, k, rc = 0;

	v = lst_con_vec(lst_con.nnodes);
	if (!v)
		return -ENOMEM;
	if (tb[LST_A_GROUP]) {
		struct lst_con_group *grp = lst_need_group(tb, LST_A_GROUP,
							   extack);

		if (IS_ERR(grp)) {
			rc = PTR_ERR(grp);
			goto out;
		}
		memcpy(v, grp->nodes, grp->nnodes * sizeof(*v));
		n = grp->nnodes;
	} else if (tb[LST_A_NODES]) {
		k = lst_parse_nodes(tb[LST_A_NODES], &ids, extack);
		if (k < 0) {
			rc = k;
			goto out;
		}
		for (i = 0; i < k && !rc; i++) {
			nd = lst_con_node_find(&ids[i]);
			if (!nd) {
				NL_SET_ERR_MSG(extack,
					       "a node is not in the session");
				rc = -ENOENT;
			} else if (n < lst_con.nnodes) {
				v[n++] = nd;
			}
		}
		kvfree(ids);
	} else if (tb[LST_A_BATCH]) {
		struct lst_con_batch *bat = lst_need_batch(tb, extack);

		if (IS_ERR(bat)) {
			rc = PTR_ERR(bat);
			goto out;
		}
		n = lst_con_batch_nodes(bat, nla_get_flag(tb[LST_A_SERVER]), 0,
					v);
	} else {
		list_for_each_entry(nd, &lst_con.nodes, link)
			v[n++] = nd;
	}
	if (rc)
		goto out;
	*rp = lst_con_results_alloc(cmd, n);
	if (!*rp)
		rc = -ENOMEM;
	else if (n && cmd == LST_CMD_STAT)
		rc = lst_con_stat(v, n, timeout, *rp);
	else if (n)
		rc = lst_con_debug(v, n, timeout, *rp);
out:
	kvfree(v);
	return rc;
}

/* Run the command of @cb's request: its results into *@rp. */
static int lst_run_cmd(struct netlink_callback *cb,
		       struct lst_con_results **rp)
{
	struct nlattr **tb = genl_dumpit_info(cb)->attrs;
	unsigned int cmd = genl_dumpit_info(cb)->op.cmd;
	struct netlink_ext_ack *extack = cb->extack;
	int rc;

	rc = lst_need_admin(cb->skb, extack);
	if (rc)
		return rc;
	mutex_lock(&lst_con.lock);
	rc = lst_check_session(tb, true, extack);
	if (rc)
		goto out;
	switch (cmd) {
	case LST_CMD_GROUP_ADD:
		rc = lst_cmd_group_add(tb, rp, extack);
		break;
	case LST_CMD_GROUP_UPDATE:
		rc = lst_cmd_group_update(tb, rp, extack);
		break;
	case LST_CMD_GROUP_DEL:
		rc = lst_cmd_group_del(tb, rp, extack);
		break;
	case LST_CMD_TEST_ADD:
		rc = lst_cmd_test_add(tb, rp, extack);
		break;
	case LST_CMD_BATCH_RUN:
	case LST_CMD_BATCH_STOP:
	case LST_CMD_BATCH_QUERY:
		rc = lst_cmd_batch(tb, cmd, rp, extack);
		break;
	default:
		rc = lst_cmd_nodes(tb, cmd, rp, extack);
		break;
	}
out:
	mutex_unlock(&lst_con.lock);
	return rc;
}

static int lst_put_stats(struct sk_buff *skb, const void *reply)
{
	static const struct { u8 attr, off, wide; } f[] = {
		{ LST_STAT_A_RUNNING_MS,	LST_STR_REP_FW + 0,	0 },
		{ LST_STAT_A_ACTIVE_BATCHES,	LST_STR_REP_FW + 4,	0 },
		{ LST_STAT_A_ZOMBIE_SESSIONS,	LST_STR_REP_FW + 8,	0 },
		{ LST_STAT_A_BRW_ERRORS,	LST_STR_REP_FW + 12,	0 },
		{ LST_STAT_A_PING_ERRORS,	LST_STR_REP_FW + 16,	0 },
		{ LST_STAT_A_RPC_ERRORS,	LST_STR_REP_RPC + 0,	0 },
		{ LST_STAT_A_RPCS_SENT,		LST_STR_REP_RPC + 4,	0 },
		{ LST_STAT_A_RPCS_RCVD,		LST_STR_REP_RPC + 8,	0 },
		{ LST_STAT_A_RPCS_DROPPED,	LST_STR_REP_RPC + 12,	0 },
		{ LST_STAT_A_RPCS_EXPIRED,	LST_STR_REP_RPC + 16,	0 },
		{ LST_STAT_A_BULK_GET,		LST_STR_REP_RPC + 20,	1 },
		{ LST_STAT_A_BULK_PUT,		LST_STR_REP_RPC + 28,	1 },
		{ LST_STAT_A_LNET_ERRORS,	LST_STR_REP_LNET + 8,	0 },
		{ LST_STAT_A_SEND_COUNT,	LST_STR_REP_LNET + 12,	0 },
		{ LST_STAT_A_RECV_COUNT,	LST_STR_REP_LNET + 16,	0 },
		{ LST_STAT_A_DROP_COUNT,	LST_STR_REP_LNET + 24,	0 },
		{ LST_STAT_A_SEND_LENGTH,	LST_STR_REP_LNET + 28,	1 },
		{ LST_STAT_A_RECV_LENGTH,	LST_STR_REP_LNET + 36,	1 },
		{ LST_STAT_A_DROP_LENGTH,	LST_STR_REP_LNET + 52,	1 },
	};
	struct nlattr *nest = nla_nest_start(skb, LST_A_STATS);
	unsigned int i;

	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < ARRAY_SIZE(f); i++) {
		int rc = f[i].wide ?
			 nla_put_u64_64bit(skb, f[i].attr,
					   lst_get64(reply, f[i].off),
					   LST_STAT_A_PAD) :
			 nla_put_u32(skb, f[i].attr, lst_get32(reply, f[i].off));

		if (rc)
			return rc;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* One node's result as one message. */
static int lst_put_result(struct sk_buff *skb, unsigned int cmd,
			  const struct lst_con_result *r)
{
	const void *rp = r->reply;
	char buf[LST_GENL_NID_LEN];
	char name[LST_NAME_SIZE];

	lnet_nid_to_str(&r->id.nid, buf, sizeof(buf));
	if (nla_put_string(skb, LST_A_NID, buf) ||
	    nla_put_u32(skb, LST_A_STATE, r->state) ||
	    nla_put_u32(skb, LST_A_RPC_ERRNO, r->rpc_errno))
		return -EMSGSIZE;
	if (r->rpc_errno)
		return 0;
	lnet_nid4_to_str(lst_get64(rp, LST_REP_SID + LST_SID_NID), buf,
			 sizeof(buf));
	if (nla_put_u32(skb, LST_A_FWK_ERRNO, lst_get32(rp, LST_REP_STATUS)) ||
	    nla_put_string(skb, LST_A_SID_NID, buf) ||
	    nla_put_u64_64bit(skb, LST_A_SID_STAMP,
			      lst_get64(rp, LST_REP_SID + LST_SID_STAMP),
			      LST_A_PAD))
		return -EMSGSIZE;
	switch (cmd) {
	case LST_CMD_DEBUG:
		strscpy(name, lst_body((void *)rp) + LST_DBG_REP_NAME,
			sizeof(name));
		if (nla_put_string(skb, LST_A_NAME, name) ||
		    nla_put_u32(skb, LST_A_TIMEOUT,
				lst_get32(rp, LST_DBG_REP_TIMEOUT)))
			return -EMSGSIZE;
		break;
	case LST_CMD_BATCH_QUERY:
		if (nla_put_u32(skb, LST_A_ACTIVE,
				lst_get32(rp, LST_BAR_REP_ACTIVE)))
			return -EMSGSIZE;
		break;
	case LST_CMD_STAT:
		return lst_put_stats(skb, rp);
	}
	return 0;
}

/*
 * cb->args[0]: the results (0: the command has not run), [1]: the next
 * to emit, [2]: TEST_ADD's index message sent.
 */
static int lst_genl_trans_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct lst_con_results *r = (void *)cb->args[0];
	unsigned int cmd = genl_dumpit_info(cb)->op.cmd;
	void *hdr;
	int rc;

	if (!r) {
		rc = lst_run_cmd(cb, &r);
		if (!rc && !r)
			r = lst_con_results_alloc(cmd, 0);
		if (!rc && !r)
			rc = -ENOMEM;
		if (rc) {
			kvfree(r);
			return rc;
		}
		cb->args[0] = (long)r;
	}
	while (cb->args[1] < r->n || (r->test_idx && !cb->args[2])) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &lst_genl_family,
				  NLM_F_MULTI, cmd);
		if (!hdr)
			break;
		if (cb->args[1] < r->n)
			rc = lst_put_result(skb, cmd, &r->res[cb->args[1]]);
		else
			rc = nla_put_u32(skb, LST_A_TEST_IDX, r->test_idx);
		if (rc) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		if (cb->args[1] < r->n)
			cb->args[1]++;
		else
			cb->args[2] = 1;
	}
	return skb->len;
}

static int lst_genl_trans_done(struct netlink_callback *cb)
{
	kvfree((void *)cb->args[0]);
	return 0;
}

/* --- listings --- */

static int lst_put_group(struct sk_buff *skb, const struct lst_con_group *g)
{
	unsigned int cnt[4] = { 0 }, i;

	for (i = 0; i < g->nnodes; i++)
		cnt[ilog2(g->nodes[i]->state)]++;
	if (nla_put_string(skb, LST_A_GROUP, g->name) ||
	    nla_put_u32(skb, LST_A_NODE_COUNT, g->nnodes) ||
	    nla_put_u32(skb, LST_A_COUNT_ACTIVE, cnt[0]) ||
	    nla_put_u32(skb, LST_A_COUNT_BUSY, cnt[1]) ||
	    nla_put_u32(skb, LST_A_COUNT_DOWN, cnt[2]) ||
	    nla_put_u32(skb, LST_A_COUNT_UNKNOWN, cnt[3]))
		return -EMSGSIZE;
	return 0;
}

static int lst_put_node(struct sk_buff *skb, const struct lst_con_group *g,
			const struct lst_con_node *nd)
{
	char nid[LST_GENL_NID_LEN];

	lnet_nid_to_str(&nd->id.nid, nid, sizeof(nid));
	if (nla_put_string(skb, LST_A_GROUP, g->name) ||
	    nla_put_string(skb, LST_A_NID, nid) ||
	    nla_put_u32(skb, LST_A_STATE, nd->state))
		return -EMSGSIZE;
	return 0;
}

static int lst_put_test(struct sk_buff *skb, const struct lst_con_batch *b,
			const struct lst_con_test *t)
{
	if (nla_put_string(skb, LST_A_BATCH, b->name) ||
	    nla_put_u32(skb, LST_A_TEST_IDX, t->idx) ||
	    nla_put_u32(skb, LST_A_TEST_TYPE, t->type) ||
	    nla_put_string(skb, LST_A_FROM, t->from->name) ||
	    nla_put_string(skb, LST_A_TO, t->to->name) ||
	    nla_put_s32(skb, LST_A_LOOP, t->loop) ||
	    nla_put_u32(skb, LST_A_CONCUR, t->concur) ||
	    nla_put_u32(skb, LST_A_DIST, t->dist) ||
	    nla_put_u32(skb, LST_A_SPAN, t->span))
		return -EMSGSIZE;
	if (t->type != LST_TEST_BRW)
		return 0;
	if (nla_put_u32(skb, LST_A_BRW_OPC, t->brw_opc) ||
	    nla_put_u32(skb, LST_A_BRW_SIZE, t->brw_size) ||
	    nla_put_u32(skb, LST_A_BRW_CHECK, t->brw_check) ||
	    nla_put_u32(skb, LST_A_BRW_OFF, t->brw_off))
		return -EMSGSIZE;
	return 0;
}

static int lst_put_batch(struct sk_buff *skb, const struct lst_con_batch *b)
{
	if (nla_put_string(skb, LST_A_BATCH, b->name) ||
	    nla_put_u32(skb, LST_A_TEST_COUNT, b->ntests) ||
	    nla_put_u32(skb, LST_A_ACTIVE, b->running))
		return -EMSGSIZE;
	return 0;
}

/* A message of @cb's dump, or NULL when @skb is full. */
static void *lst_list_msg(struct sk_buff *skb, struct netlink_callback *cb)
{
	return genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			   &lst_genl_family, NLM_F_MULTI,
			   genl_dumpit_info(cb)->op.cmd);
}

/* Close @hdr after a put that returned @rc: false if it did not fit. */
static bool lst_list_end(struct sk_buff *skb, void *hdr, int rc)
{
	if (rc) {
		genlmsg_cancel(skb, hdr);
		return false;
	}
	genlmsg_end(skb, hdr);
	return true;
}

/*
 * GROUP_GET: a message per group, or per node of group @name.  A dump
 * resumes after the cb->args[0] messages it sent already.
 */
static void lst_dump_groups(struct sk_buff *skb, struct netlink_callback *cb,
			    const char *name)
{
	struct lst_con_group *g;
	long k = 0;

	list_for_each_entry(g, &lst_con.groups, link) {
		unsigned int i, n = name ? g->nnodes : 1;

		if (name && strcmp(name, g->name))
			continue;
		for (i = 0; i < n; i++) {
			void *hdr;

			if (k++ < cb->args[0])
				continue;
			hdr = lst_list_msg(skb, cb);
			if (!hdr || !lst_list_end(skb, hdr, name ?
					lst_put_node(skb, g, g->nodes[i]) :
					lst_put_group(skb, g)))
				return;
			cb->args[0]++;
		}
	}
}

/* BATCH_GET: a message per batch, or per test of batch @name. */
static void lst_dump_batches(struct sk_buff *skb,
			     struct netlink_callback *cb, const char *name)
{
	struct lst_con_batch *b;
	struct lst_con_test *t;
	long k = 0;
	void *hdr;

	list_for_each_entry(b, &lst_con.batches, link) {
		if (!name) {
			if (k++ < cb->args[0])
				continue;
			hdr = lst_list_msg(skb, cb);
			if (!hdr || !lst_list_end(skb, hdr, lst_put_batch(skb, b)))
				return;
			cb->args[0]++;
			continue;
		}
		if (strcmp(name, b->name))
			continue;
		list_for_each_entry(t, &b->tests, link) {
			if (k++ < cb->args[0])
				continue;
			hdr = lst_list_msg(skb, cb);
			if (!hdr || !lst_list_end(skb, hdr, lst_put_test(skb, b, t)))
				return;
			cb->args[0]++;
		}
	}
}

/* GROUP_GET and BATCH_GET: checked, then walked under the console lock. */
static int lst_genl_list_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr **tb = genl_dumpit_info(cb)->attrs;
	bool groups = genl_dumpit_info(cb)->op.cmd == LST_CMD_GROUP_GET;
	struct nlattr *na = tb[groups ? LST_A_GROUP : LST_A_BATCH];
	const char *name = na ? nla_data(na) : NULL;
	int rc;

	rc = lst_need_admin(cb->skb, cb->extack);
	if (rc)
		return rc;
	mutex_lock(&lst_con.lock);
	rc = lst_check_session(tb, false, cb->extack);
	if (rc)
		goto out;
	if (name && groups && !lst_con_group_find(name)) {
		NL_SET_ERR_MSG(cb->extack, "no such group");
		rc = -ENOENT;
	} else if (name && !groups && !lst_con_batch_find(name)) {
		NL_SET_ERR_MSG(cb->extack, "no such batch");
		rc = -ENOENT;
	} else if (groups) {
		lst_dump_groups(skb, cb, name);
		rc = skb->len;
	} else {
		lst_dump_batches(skb, cb, name);
		rc = skb->len;
	}
out:
	mutex_unlock(&lst_con.lock);
	return rc;
}

static const struct genl_ops lst_genl_ops[] = {
	{ .cmd = LST_CMD_SESSION_NEW,	.doit = lst_genl_session_new },
	{ .cmd = LST_CMD_SESSION_END,	.doit = lst_genl_session_end },
	{ .cmd = LST_CMD_SESSION_GET,	.doit = lst_genl_session_get },
	{ .cmd = LST_CMD_BATCH_ADD,	.doit = lst_genl_batch_add },
	{ .cmd = LST_CMD_GROUP_ADD,	.dumpit = lst_genl_trans_dump,
	  .done = lst_genl_trans_done },
	{ .cmd = LST_CMD_GROUP_UPDATE,	.dumpit = lst_genl_trans_dump,
	  .done = lst_genl_trans_done },
	{ .cmd = LST_CMD_GROUP_DEL,	.dumpit = lst_genl_trans_dump,
	  .done = lst_genl_trans_done },
	{ .cmd = LST_CMD_GROUP_GET,	.dumpit = lst_genl_list_dump },
	{ .cmd = LST_CMD_BATCH_GET,	.dumpit = lst_genl_list_dump },
	{ .cmd = LST_CMD_TEST_ADD,	.dumpit = lst_genl_trans_dump,
	  .done = lst_genl_trans_done },
	{ .cmd = LST_CMD_BATCH_RUN,	.dumpit = lst_genl_trans_dump,
	  .done = lst_genl_trans_done },
	{ .cmd = LST_CMD_BATCH_STOP,	.dumpit = lst_genl_trans_dump,
	  .done = lst_genl_trans_done },
	{ .cmd = LST_CMD_BATCH_QUERY,	.dumpit = lst_genl_trans_dump,
	  .done = lst_genl_trans_done },
	{ .cmd = LST_CMD_STAT,		.dumpit = lst_genl_trans_dump,
	  .done = lst_genl_trans_done },
	{ .cmd = LST_CMD_DEBUG,		.dumpit = lst_genl_trans_dump,
	  .done = lst_genl_trans_done },
};

static struct genl_family lst_genl_family __ro_after_init = {
	.name		= LST_GENL_NAME,
	.version	= LST_GENL_VERSION,
	.maxattr	= LST_A_MAX,
	.policy		= lst_genl_policy,
	.module		= THIS_MODULE,
	.parallel_ops	= true,
	.netnsok	= true,
	.pre_doit	= lst_genl_pre_doit,
	.ops		= lst_genl_ops,
	.n_ops		= ARRAY_SIZE(lst_genl_ops),
	.resv_start_op	= LST_CMD_UNSPEC + 1,
};

int lst_netlink_init(void)
{
	return genl_register_family(&lst_genl_family);
}

void lst_netlink_fini(void)
{
	genl_unregister_family(&lst_genl_family);
}
