// SPDX-License-Identifier: GPL-2.0
/*
 * Discovery (wire spec 7): what a peer's ping buffer says about it,
 * merged into the peer table.  "lnetctl discover NID" pings the NID and
 * merges the reply (lnet_discover()); the automatic discovery before a
 * first message, and push, come next (Documentation/multirail.rst).
 *
 * The merge rules (spec 7, step 2):
 *
 * - DISCOVERY clear: the peer is NO_DISCOVERY and, unless configured,
 *   not multi-rail; its NIDs are not merged: a node that does not do
 *   multi-rail is one NID to us;
 * - MULTI_RAIL and DISCOVERY: the peer is multi-rail (a configured peer
 *   keeps what "peer add" said); every NID listed becomes one of its
 *   NIDs, taken from a peer that traffic made of it alone, while a NID
 *   of another configured or multi-NID peer stays there;
 * - its NIDs that are not listed are removed, unless configured, in use,
 *   or the one that answered;
 * - its primary NID becomes the buffer's first (pi_ni[1], or the first
 *   large NID with PRIMARY_LARGE), unless locked;
 * - the buffer's sequence number is recorded (lp_node_seqno).
 */
#include <linux/export.h>
#include <linux/slab.h>

#include <kunit/visibility.h>

#include <lnet/ctl.h>
#include <lnet/lib-lnet.h>

#include "peer.h"

/* A merge's peer NIs to remove: not listed, not kept for a reason. */
struct lnet_merge_drop {
	const struct lnet_nid	*nids;
	unsigned int		n;
	const struct lnet_nid	*answered;
};

static bool lnet_merge_dropped(const struct lnet_peer_ni *lpni,
			       const void *arg)
{
	const struct lnet_merge_drop *d = arg;
	unsigned int i;

	if (lpni->lpni_configured || lnet_peer_ni_busy(lpni) ||
	    lnet_nid_equal(&lpni->lpni_nid, d->answered))
		return false;
	for (i = 0; i < d->n; i++)
		if (lnet_nid_equal(&lpni->lpni_nid, &d->nids[i]))
			return false;
	return true;
}

/* The buffer's primary NID (spec 6.2), or NULL if it lists none. */
static const struct lnet_nid *lnet_merge_primary(const struct lnet_ping_data *pd,
						 const struct lnet_nid *nids,
						 unsigned int n)
{
	if ((pd->features & LNET_PING_FEAT_PRIMARY_LARGE) && pd->nnid4 < n)
		return &nids[pd->nnid4];
	return n ? &nids[0] : NULL;
}

/* lnet_peer_merge() with the lock held and @sp allocated. */
static void lnet_peer_merge_locked(const struct lnet_nid *answered,
				   const struct lnet_ping_data *pd,
				   const struct lnet_nid *nids, unsigned int n,
				   struct lnet_peer_spares *sp)
{
	struct lnet_merge_drop drop = { nids, n, answered };
	struct lnet_peer_ni *lpni = lnet_peer_ni_find_locked(answered);
	const struct lnet_nid *prim;
	struct lnet_peer *lp;
	bool configured;
	unsigned int i;

	if (!lpni) {
		lp = lnet_peer_new_locked(answered, sp);
		lnet_peer_take_nid_locked(lp, answered, sp);
	} else {
		lp = lnet_peer_of(lpni);
	}
	configured = lp->lp_state & LNET_PEER_CONFIGURED;
	lp->lp_node_seqno = pd->seq;
	if (!(pd->features & LNET_PING_FEAT_DISCOVERY) ||
	    !(pd->features & LNET_PING_FEAT_MULTI_RAIL)) {
		if (!(pd->features & LNET_PING_FEAT_DISCOVERY))
			lp->lp_state |= LNET_PEER_NO_DISCOVERY;
		if (!configured)
			lp->lp_state &= ~LNET_PEER_MULTI_RAIL;
		return;
	}
	lp->lp_state &= ~LNET_PEER_NO_DISCOVERY;
	if (!configured)
		lp->lp_state |= LNET_PEER_MULTI_RAIL;
	if (!(lp->lp_state & LNET_PEER_MULTI_RAIL))
		return;		/* configured --non_mr */

	for (i = 0; i < n; i++) {
		lpni = lnet_peer_ni_find_locked(&nids[i]);
		if (lnet_nid_is_local_locked(&nids[i]) ||
		    (lpni && !lnet_peer_ni_movable(lpni, lp)))
			continue;
		if (!lpni &&
		    atomic_read(&the_lnet.ln_peer_nis.nelems) >=
		    LNET_PEER_NIS_MAX)
			continue;
		lnet_peer_take_nid_locked(lp, &nids[i], sp);
	}
	/* @answered stays: the peer cannot be emptied (and freed) here. */
	lnet_peer_free_nis_locked(lp, lnet_merge_dropped, &drop);

	prim = lnet_merge_primary(pd, nids, n);
	if (prim && !(lp->lp_state & LNET_PEER_LOCK_PRIMARY)) {
		lpni = lnet_peer_ni_find_locked(prim);
		if (lpni && lnet_peer_of(lpni) == lp)
			lp->lp_primary_nid = *prim;
	}
}

/**
 * lnet_peer_merge() - merge a peer's ping buffer into the peer table
 * @answered: the NID that sent it (a NID of the peer; made if new)
 * @pd: the parsed buffer, not truncated
 * @nids: its NIDs, all @pd->nnids of them
 * @n: entries in @nids
 *
 * See the rules at the top of this file.
 *
 * Context: Process context; may sleep.
 * Return: 0 or -ENOMEM (then nothing changed).
 */
VISIBLE_IF_KUNIT int lnet_peer_merge(const struct lnet_nid *answered,
				     const struct lnet_ping_data *pd,
				     const struct lnet_nid *nids,
				     unsigned int n)
{
	struct lnet_peer_spares sp;
	int rc;

	rc = lnet_peer_spares_alloc(&sp, n + 1);
	if (!rc) {
		lnet_lock();
		lnet_peer_merge_locked(answered, pd, nids, n, &sp);
		lnet_unlock();
	}
	lnet_peer_spares_free(&sp);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_peer_merge);

/* The first ping asks for this much, as Lustre's discovery does. */
#define LNET_DISCOVER_SIZE	272

/*
 * Ping @dst into a buffer the reply fits in: once more, larger, when the
 * first was truncated.  Return: the buffer (kfree() it) and *@len, or an
 * ERR_PTR.
 */
static void *lnet_discover_ping(const struct lnet_nid *dst,
				unsigned int timeout_ms, unsigned int *len)
{
	unsigned int size = LNET_DISCOVER_SIZE, max;
	struct lnet_ping_data pd;
	int rc, tries;
	void *buf;

	max = lnet_ping_buf_size(lnet_max_interfaces()) + 24 * 256;
	for (tries = 0; tries < 2; tries++) {
		buf = kzalloc(size, GFP_KERNEL);
		if (!buf)
			return ERR_PTR(-ENOMEM);
		rc = lnet_ping_raw(dst, NULL, timeout_ms, buf, size);
		if (rc >= 0) {
			*len = rc;
			rc = lnet_ping_buf_parse(buf, *len, &pd, NULL, NULL, 0);
		}
		if (rc < 0) {
			kfree(buf);
			return ERR_PTR(rc);
		}
		if (!pd.truncated)
			return buf;
		kfree(buf);
		if (pd.size > max)
			return ERR_PTR(-EPROTO);
		size = pd.size;
	}
	return ERR_PTR(-EPROTO);	/* it grew again meanwhile */
}

/**
 * lnet_discover() - discover a peer: ping it, merge what it says
 * @dst: a NID of the peer
 * @timeout_ms: how long to wait for each ping reply
 * @info: out: the peer afterwards: its primary NID, multi-rail, state
 *	(only those fields)
 * @nids: out: its NIDs afterwards
 * @max: room in @nids
 *
 * Context: Process context; sleeps.
 * Return: the number of NIDs the peer has (may exceed @max), or -errno
 * (-ETIMEDOUT, -EPROTO for a reply that does not validate, ...).
 */
int lnet_discover(const struct lnet_nid *dst, unsigned int timeout_ms,
		  struct lnet_peer_ni_info *info, struct lnet_nid *nids,
		  unsigned int max)
{
	struct lnet_nid *listed = NULL;
	struct lnet_ping_data pd;
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	struct lnet_peer *lp;
	unsigned int len;
	int rc, count = 0;
	void *buf;

	rc = lnet_ni_init();
	if (rc)
		return rc;
	buf = lnet_discover_ping(dst, timeout_ms, &len);
	if (IS_ERR(buf)) {
		rc = PTR_ERR(buf);
		goto out;
	}
	lnet_ping_buf_parse(buf, len, &pd, NULL, NULL, 0);
	listed = kcalloc(max_t(unsigned int, pd.nnids, 1), sizeof(*listed),
			 GFP_KERNEL);
	rc = listed ? lnet_ping_buf_parse(buf, len, &pd, listed, NULL,
					  pd.nnids) : -ENOMEM;
	if (!rc)
		rc = lnet_peer_merge(dst, &pd, listed, pd.nnids);
	if (rc)
		goto out_free;

	lnet_lock();
	lpni = lnet_peer_ni_find_locked(dst);
	if (!lpni) {
		rc = -ENOENT;	/* deleted meanwhile */
	} else {
		lp = lnet_peer_of(lpni);
		info->primary_nid = lp->lp_primary_nid;
		info->peer_state = lp->lp_state;
		info->multi_rail = lp->lp_state & LNET_PEER_MULTI_RAIL;
		list_for_each_entry(lpn, &lp->lp_nets, lpn_list)
			list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list)
				if (count++ < max)
					nids[count - 1] = lpni->lpni_nid;
		rc = count;
	}
	lnet_unlock();
out_free:
	kfree(listed);
	kfree(buf);
out:
	lnet_ni_fini();
	return rc;
}
EXPORT_SYMBOL(lnet_discover);
