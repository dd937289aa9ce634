// SPDX-License-Identifier: GPL-2.0
/*
 * The peers an administrator configures: "lnetctl peer add" (a configured
 * peer, multi-rail or not, with the NIDs given; NIDs that traffic made a
 * peer of alone join it) and "lnetctl peer del" (a peer or one of its
 * NIDs; a locked primary needs force).  The table itself is peer.c.
 */
#include <linux/err.h>
#include <linux/export.h>

#include <lnet/ctl.h>
#include <lnet/lib-lnet.h>
#include <uapi/lnet/lnet_genl.h>

#include "peer.h"

/*
 * The checks of lnet_peer_add(), before anything changes.  Return: the
 * peer @prim is the primary NID of, NULL for a new one, or an ERR_PTR.
 */
static struct lnet_peer *lnet_peer_add_check(const struct lnet_nid *prim,
					     const struct lnet_nid *nids,
					     unsigned int n, bool mr,
					     struct netlink_ext_ack *extack)
{
	struct lnet_peer_ni *lpni = lnet_peer_ni_find_locked(prim);
	struct lnet_peer *lp = NULL;
	unsigned int i, new = !lpni;

	if (lpni) {
		lp = lnet_peer_of(lpni);
		if (!lnet_nid_equal(&lp->lp_primary_nid, prim) &&
		    !lnet_peer_ni_movable(lpni, NULL)) {
			NL_SET_ERR_MSG(extack,
				       "the primary NID is a NID of another peer");
			return ERR_PTR(-EEXIST);
		}
		if (!lnet_nid_equal(&lp->lp_primary_nid, prim))
			lp = NULL;	/* its own peer: one made by traffic */
	}
	if (lp && (lp->lp_state & LNET_PEER_CONFIGURED) &&
	    !!(lp->lp_state & LNET_PEER_MULTI_RAIL) != mr) {
		if (mr)
			NL_SET_ERR_MSG(extack,
				       "the peer exists and is not multi-rail");
		else
			NL_SET_ERR_MSG(extack,
				       "the peer exists and is multi-rail");
		return ERR_PTR(-EINVAL);
	}
	for (i = 0; i < n; i++) {
		/* our own NIDs: only in a peer of our own primary NID */
		if (lnet_nid_is_local_locked(&nids[i]) &&
		    !lnet_nid_is_local_locked(prim)) {
			NL_SET_ERR_MSG(extack, "a NID is one of this node's");
			return ERR_PTR(-EINVAL);
		}
		lpni = lnet_peer_ni_find_locked(&nids[i]);
		if (!lpni) {
			new++;
			continue;
		}
		if (!lnet_peer_ni_movable(lpni, lp) &&
		    !lnet_nid_equal(&nids[i], prim)) {
			NL_SET_ERR_MSG(extack, "a NID belongs to another peer");
			return ERR_PTR(-EEXIST);
		}
	}
	if (atomic_read(&the_lnet.ln_peer_nis.nelems) + new > LNET_PEER_NIS_MAX) {
		NL_SET_ERR_MSG(extack, "too many peer NIs");
		return ERR_PTR(-ENOMEM);
	}
	return lp;
}

/**
 * lnet_peer_add() - "lnetctl peer add": a configured peer and its NIDs
 * @prim: the primary NID; the peer it is the primary of, or a new one
 * @nids: more NIDs for the peer (may repeat @prim or NIDs it has)
 * @n: entries in @nids, at most %LNET_GENL_PEER_NIDS_MAX
 * @mr: a multi-rail peer (uses all its NIDs), else pinned as Lustre's
 *	--non_mr
 * @lock_prim: its primary NID is kept: deleting the peer needs force
 * @extack: where to say why not
 *
 * A NID that traffic made a peer of alone joins; a NID of another
 * configured or multi-NID peer is refused.  Configured NIDs are not
 * reaped.  Our own NID may be a peer's primary NID, as Lustre's (its
 * NIDs then may be ours too; sends to it still go through 0@lo and it
 * is never discovered or pushed to); another peer may not have one of
 * our NIDs.  On error nothing changes.
 *
 * Context: Process context, may sleep.
 * Return: 0, -EEXIST, -EINVAL (a local NID in a peer whose primary NID
 * is not ours, or a peer that exists with the other multi-rail
 * setting), -ENOMEM.
 */
int lnet_peer_add(const struct lnet_nid *prim, const struct lnet_nid *nids,
		  unsigned int n, bool mr, bool lock_prim,
		  struct netlink_ext_ack *extack)
{
	struct lnet_peer_spares sp;
	struct lnet_peer *lp;
	unsigned int i;
	int rc;

	if (n > LNET_GENL_PEER_NIDS_MAX)
		return -E2BIG;
	rc = lnet_peer_spares_alloc(&sp, n + 1);
	if (rc)
		goto out;
	lnet_lock();
	lp = lnet_peer_add_check(prim, nids, n, mr, extack);
	if (IS_ERR(lp)) {
		rc = PTR_ERR(lp);
		goto unlock;
	}
	if (!lp) {
		lp = lnet_peer_new_locked(prim, &sp);
	} else if (!(lp->lp_state & LNET_PEER_CONFIGURED) && !mr) {
		struct lnet_peer_keep keep = { nids, n, prim };

		/*
		 * A peer traffic or discovery made becomes the one
		 * configured, as Lustre (which deletes it and makes that
		 * one): not multi-rail, of the NIDs given; a NID in use
		 * stays until the reaper takes it.
		 */
		lp->lp_state &= ~LNET_PEER_MULTI_RAIL;
		lnet_peer_free_nis_locked(lp, lnet_peer_ni_unkept, &keep);
	}
	lp->lp_state |= LNET_PEER_CONFIGURED;
	if (mr)
		lp->lp_state |= LNET_PEER_MULTI_RAIL;
	if (lock_prim)
		lp->lp_state |= LNET_PEER_LOCK_PRIMARY;
	lnet_peer_take_nid_locked(lp, prim, &sp)->lpni_configured = true;
	for (i = 0; i < n; i++)
		lnet_peer_take_nid_locked(lp, &nids[i], &sp)->lpni_configured =
			true;
unlock:
	lnet_unlock();
out:
	lnet_peer_spares_free(&sp);
	return rc;
}
EXPORT_SYMBOL(lnet_peer_add);

/* For lnet_peer_free_nis_locked(): every NI but the NID *@arg. */
static bool lnet_peer_ni_other(const struct lnet_peer_ni *lpni,
			       const void *arg)
{
	return !lnet_peer_ni_is(lpni, arg);
}

/**
 * lnet_peer_del() - delete a peer, or one NI of it
 * @prim: the peer's primary NID
 * @nid: the NI to delete, or NULL (or @prim) for the whole peer
 * @force: delete a peer whose primary NID is locked
 * @extack: where to say why not
 *
 * A peer NI that a message is using or waiting on stays (-EBUSY): LNet
 * makes it again for the next send anyway; nothing changes then.  Of a
 * peer whose primary NID is locked, without @force, the NIs other than
 * the primary go and the peer stays, as Lustre's lnet_del_peer_ni().
 *
 * Context: Process context.
 * Return: 0, -ENOENT for no such peer or NI of it, -EBUSY, -EINVAL for
 * @force with one NI.
 */
int lnet_peer_del(const struct lnet_nid *prim, const struct lnet_nid *nid,
		  bool force, struct netlink_ext_ack *extack)
{
	bool (*pick)(const struct lnet_peer_ni *, const void *) =
		lnet_peer_ni_any;
	const void *arg = NULL;
	struct lnet_peer *lp = NULL, *p;
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	int rc = 0;

	if (nid && lnet_nid_equal(nid, prim))
		nid = NULL;
	if (nid && force) {
		NL_SET_ERR_MSG(extack,
			       "force deletes a whole peer, not one of its NIDs");
		return -EINVAL;
	}
	lnet_lock();
	list_for_each_entry(p, &the_lnet.ln_peers, lp_list)
		if (lnet_nid_equal(&p->lp_primary_nid, prim))
			lp = p;
	if (!lp) {
		NL_SET_ERR_MSG(extack, "no peer has this primary NID");
		rc = -ENOENT;
		goto out;
	}
	lpni = nid ? lnet_peer_ni_find_locked(nid) : NULL;
	if (nid && (!lpni || lnet_peer_of(lpni) != lp)) {
		NL_SET_ERR_MSG(extack, "the peer has no such NID");
		rc = -ENOENT;
		goto out;
	}
	if (nid) {
		pick = lnet_peer_ni_is;
		arg = nid;
	} else if ((lp->lp_state & LNET_PEER_LOCK_PRIMARY) && !force) {
		/* as Lustre: the locked primary NID stays, the others go */
		pick = lnet_peer_ni_other;
		arg = &lp->lp_primary_nid;
	}
	/* All or nothing: first check that none is in use. */
	list_for_each_entry(lpn, &lp->lp_nets, lpn_list)
		list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list)
			if (pick(lpni, arg) && lnet_peer_ni_busy(lpni)) {
				NL_SET_ERR_MSG(extack,
					       "the peer has messages in flight");
				rc = -EBUSY;
				goto out;
			}
	lnet_peer_free_nis_locked(lp, pick, arg);
out:
	lnet_unlock();
	return rc;
}
EXPORT_SYMBOL(lnet_peer_del);
