// SPDX-License-Identifier: GPL-2.0
/*
 * What a peer's ping buffer (a ping reply or a push) says about it,
 * merged into the peer table: step 2 of discovery (wire spec 7;
 * lnet/discovery.c runs the steps).
 *
 * The merge rules:
 *
 * - DISCOVERY clear, or discovery off here ("lnetctl set discovery 0"):
 *   the peer is NO_DISCOVERY and, unless configured,
 *   not multi-rail; its NIDs are not merged: a node that does not do
 *   multi-rail is one NID to us;
 * - a push older than the buffer merged last (by sequence number) is not
 *   merged: the peer is pinged to learn which is current (it may have
 *   restarted; a ping reply always merges, spec 7);
 * - MULTI_RAIL and DISCOVERY: the peer is multi-rail (a configured peer
 *   keeps what "peer add" said); each NID listed becomes one of its
 *   NIDs, taken from a peer that traffic made of it alone, while a NID
 *   of another configured or multi-NID peer stays there; but only
 *   NIDs on a net we have an NI on, at most LNET_PEER_MERGE_NIDS_MAX of
 *   them (the first listed), and new ones only while the table has more
 *   than LNET_PEER_NIS_RESERVE entries left (for our own traffic): a
 *   hostile buffer listing max_interfaces NIDs fills nothing;
 * - its NIDs that are not listed are removed, unless configured, in use,
 *   or the one that answered;
 * - its primary NID becomes the buffer's first (pi_ni[1], or the first
 *   large NID with PRIMARY_LARGE), unless locked;
 * - the buffer's sequence number is recorded (lp_peer_seqno);
 * - each of its peer NIs takes the status the buffer lists for it
 *   (lpni_ns_status); one that goes from UP to DOWN there is a remote
 *   failure, as if a message to it had failed (spec 4c): the peer says
 *   that NI cannot be used, so traffic moves to its others at once, and
 *   our LND connections to it close (lnet/peer-down.c).
 */
#include <linux/export.h>
#include <linux/slab.h>

#include <kunit/visibility.h>

#include <lnet/ctl.h>
#include <lnet/lib-lnet.h>
#include <lnet/route.h>

#include "peer.h"

/* The buffer's primary NID (spec 6.2), or NULL if it lists none. */
static const struct lnet_nid *lnet_merge_primary(const struct lnet_ping_data *pd,
						 const struct lnet_nid *nids,
						 unsigned int n)
{
	if ((pd->features & LNET_PING_FEAT_PRIMARY_LARGE) && pd->nnid4 < n)
		return &nids[pd->nnid4];
	return n ? &nids[0] : NULL;
}

/* The statuses @lp's NIs have in the buffer (spec 4c). */
static void lnet_merge_status(struct lnet_peer *lp,
			      const struct lnet_nid *nids, const u32 *statuses,
			      unsigned int n)
{
	struct lnet_peer_ni *lpni;
	unsigned int i;
	u32 was;

	for (i = 0; i < n; i++) {
		lpni = lnet_peer_ni_find_locked(&nids[i]);
		if (!lpni || lnet_peer_of(lpni) != lp)
			continue;
		was = lpni->lpni_ns_status;
		lpni->lpni_ns_status = statuses[i];
		if (statuses[i] == LNET_NI_STATUS_UP)
			lpni->lpni_lnd_down = false;	/* routing spec 4.7 */
		if (was != LNET_NI_STATUS_DOWN &&
		    statuses[i] == LNET_NI_STATUS_DOWN) {
			lnet_remote_failure_locked(&nids[i]);
			lnet_peer_down_later_locked(&nids[i]);
		}
	}
}

/*
 * Could we send to @nid?  Only through an NI on its net or through a
 * route to its net (routing spec 3.5); a NID nothing reaches is no use to
 * us, and a peer listing many of them could fill the table.
 */
static bool lnet_merge_reachable_locked(const struct lnet_nid *nid)
{
	return lnet_net_find_in(&the_lnet.ln_nets, lnet_nid_net(nid)) ||
	       lnet_route_net_known_locked(lnet_nid_net(nid));
}

/*
 * May the merge make a new peer NI?  Discovered NIDs stay below the
 * table's bound by LNET_PEER_NIS_RESERVE: what they fill, our own
 * traffic (the NIDs we send to, lnet_peer_ni_get_locked()) still has.
 */
static bool lnet_merge_room_locked(void)
{
	return atomic_read(&the_lnet.ln_peer_nis.nelems) <
	       LNET_PEER_NIS_MAX - LNET_PEER_NIS_RESERVE;
}

/* Take @nids[0..@n) for multi-rail @lp; return how many were looked at. */
static unsigned int lnet_merge_take_locked(struct lnet_peer *lp,
					   const struct lnet_nid *nids,
					   unsigned int n,
					   struct lnet_peer_spares *sp)
{
	struct lnet_peer_ni *lpni;
	unsigned int i, taken = 0;

	for (i = 0; i < n && taken < LNET_PEER_MERGE_NIDS_MAX; i++) {
		lpni = lnet_peer_ni_find_locked(&nids[i]);
		if (lnet_nid_is_local_locked(&nids[i]) ||
		    !lnet_merge_reachable_locked(&nids[i]) ||
		    (lpni && !lnet_peer_ni_movable(lpni, lp)) ||
		    (!lpni && !lnet_merge_room_locked()))
			continue;
		lnet_peer_take_nid_locked(lp, &nids[i], sp);
		taken++;
	}
	return i;
}

/* lnet_peer_merge() with the lock held and @sp allocated. */
static int lnet_peer_merge_locked(const struct lnet_nid *answered,
				  const struct lnet_ping_data *pd,
				  const struct lnet_nid *nids,
				  const u32 *statuses, unsigned int n,
				  bool pushed, struct lnet_peer_spares *sp)
{
	struct lnet_peer_ni *lpni = lnet_peer_ni_find_locked(answered);
	struct lnet_peer_keep keep = { nids, n, answered };
	const struct lnet_nid *prim;
	struct lnet_peer *lp;
	bool configured, discovers;

	if (!lpni) {
		lp = lnet_peer_new_locked(answered, sp);
		lnet_peer_take_nid_locked(lp, answered, sp);
	} else {
		lp = lnet_peer_of(lpni);
		if (pushed && lp->lp_peer_seqno &&
		    (s32)(pd->seq - lp->lp_peer_seqno) < 0)
			return -ESTALE;
	}
	configured = lp->lp_state & LNET_PEER_CONFIGURED;
	lp->lp_peer_seqno = pd->seq;
	discovers = lnet_discovery_enabled() &&
		    (pd->features & LNET_PING_FEAT_DISCOVERY);
	if (!discovers || !(pd->features & LNET_PING_FEAT_MULTI_RAIL)) {
		if (!discovers)
			lp->lp_state |= LNET_PEER_NO_DISCOVERY;
		if (!configured)
			lp->lp_state &= ~LNET_PEER_MULTI_RAIL;
		return 0;
	}
	lp->lp_state &= ~LNET_PEER_NO_DISCOVERY;
	if (!configured)
		lp->lp_state |= LNET_PEER_MULTI_RAIL;
	if (!(lp->lp_state & LNET_PEER_MULTI_RAIL))
		return 0;	/* configured --non_mr */

	/* Those past the bound are not kept either. */
	keep.n = lnet_merge_take_locked(lp, nids, n, sp);
	/* @answered stays: the peer cannot be emptied (and freed) here. */
	lnet_peer_free_nis_locked(lp, lnet_peer_ni_unkept, &keep);

	prim = lnet_merge_primary(pd, nids, n);
	if (prim && !(lp->lp_state & LNET_PEER_LOCK_PRIMARY)) {
		lpni = lnet_peer_ni_find_locked(prim);
		if (lpni && lnet_peer_of(lpni) == lp)
			lp->lp_primary_nid = *prim;
	}
	if (statuses)
		lnet_merge_status(lp, nids, statuses, n);
	return 0;
}

/**
 * lnet_peer_merge() - merge a peer's ping buffer into the peer table
 * @answered: the NID that sent it (a NID of the peer; made if new)
 * @pd: the parsed buffer, not truncated
 * @nids: its NIDs, all @pd->nnids of them
 * @statuses: the status of each of @nids, or NULL (left as they are)
 * @n: entries in @nids (and @statuses)
 * @pushed: it is a push, not a ping reply
 *
 * See the rules at the top of this file.
 *
 * Context: Process context; may sleep.
 * Return: 0; -ENOMEM, or -ESTALE for a push older than the buffer
 * merged last (then nothing changed).
 */
int lnet_peer_merge(const struct lnet_nid *answered,
		    const struct lnet_ping_data *pd, const struct lnet_nid *nids,
		    const u32 *statuses, unsigned int n, bool pushed)
{
	struct lnet_peer_spares sp;
	int rc;

	rc = lnet_peer_spares_alloc(&sp, min(n, LNET_PEER_MERGE_NIDS_MAX) + 1);
	if (!rc) {
		lnet_lock();
		rc = lnet_peer_merge_locked(answered, pd, nids, statuses, n,
					    pushed, &sp);
		lnet_unlock();
	}
	lnet_peer_spares_free(&sp);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_peer_merge);
