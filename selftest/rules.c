// SPDX-License-Identifier: GPL-2.0
/*
 * The test node's framework rules (spec lnet-selftest.md 3.7, 4.3-4.6):
 * what status a framework request gets and what it does to the session,
 * as pure functions of the request and the current session, so that
 * KUnit checks them whole.  The framework applies the action.  Also the
 * console's rules: a node's state from a reply's sid (spec 7.2) and the
 * BRW parameters it sends any node (spec 8.3).
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/math.h>
#include <linux/mm.h>

#include <kunit/visibility.h>

#include "selftest.h"
#include "wire.h"

static bool lst_sid_equal(const struct lst_sid *a, const struct lst_sid *b)
{
	return a->nid == b->nid && a->stamp == b->stamp;
}

/**
 * lst_feats_status() - the feature and version check of a framework
 *	request, before its service (spec 2.2, 3.7)
 * @type: its enum lst_msg_type
 * @version: its msg_version
 * @feats: its msg_ses_feats
 * @cur: the current session, or NULL
 *
 * Return: 0 or -EPROTO (the reply carries it positive).
 */
int lst_feats_status(u32 type, u32 version, u32 feats,
		     const struct lst_session *cur)
{
	if (version != LST_MSG_VERSION)
		return -EPROTO;
	if (type == LST_MSG_MKSN_REQST || type == LST_MSG_DEBUG_REQST)
		return feats & ~LST_FEATS_MASK ? -EPROTO : 0;
	return cur && feats != cur->feats ? -EPROTO : 0;
}
EXPORT_SYMBOL_IF_KUNIT(lst_feats_status);

/**
 * lst_mksn_rule() - MAKE_SESSION (spec 4.3)
 * @cur: the current session, or NULL
 * @sid: the request's session id
 * @force: mksn_force
 * @act: out: what to do
 *
 * Return: 0 or -errno: the reply status (positive on the wire).
 */
int lst_mksn_rule(const struct lst_session *cur, const struct lst_sid *sid,
		  bool force, enum lst_sess_action *act)
{
	*act = LST_SESS_NONE;
	if (sid->nid == LST_NID_ANY)
		return -EINVAL;
	if (cur && lst_sid_equal(&cur->sid, sid)) {
		*act = LST_SESS_REF;
		return 0;
	}
	if (cur && !force)
		return -EBUSY;
	*act = cur ? LST_SESS_REPLACE : LST_SESS_CREATE;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(lst_mksn_rule);

/**
 * lst_rmsn_rule() - REMOVE_SESSION (spec 4.4)
 * @cur: the current session, or NULL
 * @sid: the request's session id
 * @act: out: what to do (LST_SESS_UNREF: drop one reference, and
 *	deactivate the session if it was the last)
 *
 * Return: 0 or -errno: the reply status (positive on the wire).
 */
int lst_rmsn_rule(const struct lst_session *cur, const struct lst_sid *sid,
		  enum lst_sess_action *act)
{
	*act = LST_SESS_NONE;
	if (sid->nid == LST_NID_ANY)
		return -EINVAL;
	if (!cur)
		return -ESRCH;
	if (!lst_sid_equal(&cur->sid, sid))
		return -EBUSY;
	*act = LST_SESS_UNREF;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(lst_rmsn_rule);

/**
 * lst_test_rule() - the checks of a TEST request before its batch
 *	(spec 4.6 steps 1-2)
 * @msg: the request, little-endian (lst_msg_unpack())
 * @cur: the current session, or NULL
 *
 * Return: 0, -EINVAL or -ENOENT (positive on the wire).
 */
int lst_test_rule(const void *msg, const struct lst_session *cur)
{
	struct lst_sid sid = {
		.nid = lst_get64(msg, LST_TSR_SID + LST_SID_NID),
		.stamp = (s64)lst_get64(msg, LST_TSR_SID + LST_SID_STAMP),
	};
	u32 service = lst_get32(msg, LST_TSR_SERVICE);
	u32 ndest = lst_get32(msg, LST_TSR_NDEST);
	u32 concur = lst_get32(msg, LST_TSR_CONCUR);
	bool client = *(lst_body((void *)msg) + LST_TSR_IS_CLIENT);

	if (!lst_get32(msg, LST_TSR_LOOP) || !concur ||
	    sid.nid == LST_NID_ANY || ndest > LST_NDEST_MAX ||
	    (client && !ndest) || concur > LST_CONCUR_MAX ||
	    (service != LST_SVC_BRW && service != LST_SVC_PING))
		return -EINVAL;
	if (!cur || !lst_sid_equal(&cur->sid, &sid))
		return -ENOENT;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(lst_test_rule);

/**
 * lst_node_state() - a node's state after its reply (spec 7.2)
 * @mine: the console's session id
 * @nid: the reply's sid NID
 * @stamp: the reply's sid stamp
 *
 * Return: LST_NODE_UNKNOWN for no session, ACTIVE for ours, BUSY for
 * another console's.
 */
u32 lst_node_state(const struct lst_sid *mine, u64 nid, s64 stamp)
{
	struct lst_sid theirs = { .nid = nid, .stamp = stamp };

	if (nid == LST_NID_ANY)
		return LST_NODE_UNKNOWN;
	return lst_sid_equal(mine, &theirs) ? LST_NODE_ACTIVE : LST_NODE_BUSY;
}
EXPORT_SYMBOL_IF_KUNIT(lst_node_state);

/**
 * lst_brw_params_check() - may a console send these BRW parameters to
 *	any node, stock ones included (spec 8.3)?
 * @size: brw_len, bytes
 * @off: the client's page offset
 *
 * A stock node asserts on a length that is not a whole number of 8-byte
 * words, and a stock client overruns its buffer when the offset adds a
 * page to it (size=4k off=8, or size=1M with any offset).
 *
 * Return: 0, -EINVAL for the size, -ERANGE for the offset.
 */
int lst_brw_params_check(u32 size, u32 off)
{
	if (!size || size > LST_BRW_MAX_LEN || size % 8)
		return -EINVAL;
	if (off % 8 || off >= PAGE_SIZE ||
	    DIV_ROUND_UP(off + size, PAGE_SIZE) != DIV_ROUND_UP(size, PAGE_SIZE))
		return -ERANGE;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(lst_brw_params_check);
