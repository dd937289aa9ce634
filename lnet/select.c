// SPDX-License-Identifier: GPL-2.0
/*
 * Multi-rail selection: which local NI and which peer NI a message uses
 * (spec features 4a-4b).
 *
 * The send cases, in the order they are tried:
 *
 * - to one of our own NIDs: 0@lo, unless the caller gave the source NID
 *   or it is a recovery ping: then it leaves by that NI (a recovery ping
 *   without a source by the NI it recovers) and crosses its LND, so that
 *   a local NI's recovery ping tests the NI (spec features 3c, 4a:
 *   Lustre shortcuts only these sends); the peer NI of the NID is found
 *   or made either way, as Lustre's is;
 * - a response (ACK, REPLY) goes back by the NID its request came from
 *   (msg_from), and a message given a source NID leaves by it, to exactly
 *   the NID given;
 * - to a peer that is not multi-rail: the NID given, from the local NI
 *   the peer NI is pinned to (the first one used, as Lustre keeps one
 *   preferred NI per non-MR peer NI, so that a non-MR node always sees us
 *   as one NID); re-pinned only when that NI no longer works;
 * - to a multi-rail peer: any of its NIDs on a net we have an NI on;
 * - to a remote net (none of ours, and, for a multi-rail peer, none of
 *   its nets ours either): through a gateway (lnet/route-select.c),
 *   itself chosen by the cases above, the gateway taking the
 *   destination's place (routing spec 3.1-3.2).
 *
 * The criteria, first difference wins (spec features 4b; lower UDSP
 * priorities are better, see lnet/udsp.c; health values, higher better,
 * are moved by the health module, see include/lnet/health.h):
 *
 * - peer net: one with a peer NI its peer does not list DOWN (in its
 *   ping buffer or push), its health (its best peer NI's), its UDSP
 *   priority, then one with a working local NI, then the local net's
 *   health (its best NI's), then its UDSP priority, then the least
 *   recently used (lpn_seq): lnet_peer_net_better();
 * - local NI on that net: lnet_ni_better();
 * - peer NI on that net: lnet_peer_ni_better(), one not listed DOWN
 *   first.
 *
 * The peer's listed status comes before health, unlike stock's order
 * (there health alone, which a DOWN listed demerits once): the peer's
 * word that an NI is gone or back holds at once, whatever the health
 * the NI was left with.
 *
 * The round-robin clock is the peer's send count (lp_send_seq): a chosen
 * peer net and peer NI take its value, so the ones chosen longest ago go
 * next.  Everything here runs under the LNet lock.
 */
#include <linux/export.h>

#include <kunit/visibility.h>

#include <lnet/lib-lnet.h>
#include <lnet/route.h>

/* Credits an NI can give now; unlimited NIs count as the most. */
static int lnet_ni_avail(const struct lnet_ni *ni)
{
	return ni->ni_txc.max ? ni->ni_txc.credits : INT_MAX;
}

/*
 * Is @ni a better NI to send from than @best?  One whose LND reports no
 * failure first (a failed one is taken only when the net has no other,
 * and its LND then fails the message), then the healthiest, then the
 * best UDSP priority, then the most credits, then the least used.
 */
VISIBLE_IF_KUNIT bool lnet_ni_better(struct lnet_ni *ni, struct lnet_ni *best)
{
	if (lnet_ni_usable(ni) != lnet_ni_usable(best))
		return lnet_ni_usable(ni);
	if (ni->ni_healthv != best->ni_healthv)
		return ni->ni_healthv > best->ni_healthv;
	if (lnet_udsp_ni_prio(ni) != lnet_udsp_ni_prio(best))
		return lnet_udsp_ni_prio(ni) < lnet_udsp_ni_prio(best);
	if (lnet_ni_avail(ni) != lnet_ni_avail(best))
		return lnet_ni_avail(ni) > lnet_ni_avail(best);
	return ni->ni_seq < best->ni_seq;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_ni_better);

/*
 * Does @lpni's peer list it DOWN (its last ping reply or push merged,
 * lnet/peer-merge.c; a gateway's, lnet/router-checker.c)?  The peer's
 * own word that the NI cannot be reached: an NI whose health fell to 0
 * or whose LND failed (spec features 3a), a NID its node left
 * (Documentation/multirail.rst, "NIDs that follow the address").
 */
static bool lnet_peer_ni_listed_down(const struct lnet_peer_ni *lpni)
{
	return lpni->lpni_ns_status == LNET_NI_STATUS_DOWN;
}

/*
 * Is @lpni a better peer NI to send to from @ni than @best?  One its
 * peer does not list DOWN, then the healthiest, then the best UDSP
 * priority, then one that prefers @ni (a UDSP NID pair; no @ni: a final
 * destination behind a router), then the most credits, then the one
 * chosen longest ago.
 *
 * The status comes first: health alone keeps a peer NI whose NID moved
 * away and came back (DOWN, then UP again in its peer's pushes) behind
 * the one it left for, whose health only the first DOWN demerited (its
 * own was demerited as long as it was gone, spec features 4c).
 */
VISIBLE_IF_KUNIT bool lnet_peer_ni_better(struct lnet_peer_ni *lpni,
					  struct lnet_peer_ni *best,
					  const struct lnet_ni *ni)
{
	if (lnet_peer_ni_listed_down(lpni) != lnet_peer_ni_listed_down(best))
		return !lnet_peer_ni_listed_down(lpni);
	if (lpni->lpni_healthv != best->lpni_healthv)
		return lpni->lpni_healthv > best->lpni_healthv;
	if (lnet_udsp_lpni_prio(lpni) != lnet_udsp_lpni_prio(best))
		return lnet_udsp_lpni_prio(lpni) < lnet_udsp_lpni_prio(best);
	if (ni && lnet_udsp_preferred(lpni, ni) !=
		  lnet_udsp_preferred(best, ni))
		return lnet_udsp_preferred(lpni, ni);
	if (lpni->lpni_txc.credits != best->lpni_txc.credits)
		return lpni->lpni_txc.credits > best->lpni_txc.credits;
	return lpni->lpni_seq < best->lpni_seq;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_peer_ni_better);

/* The best NI of @net to send from, equal to @self unless that is ANY. */
static struct lnet_ni *lnet_net_best_ni(struct lnet_net *net,
					const struct lnet_nid *self)
{
	bool any = lnet_nid_is_any(self);
	struct lnet_ni *ni, *best = NULL;

	list_for_each_entry(ni, &net->net_nis, ni_list) {
		if (!ni->ni_up || (!any && !lnet_nid_equal(self, &ni->ni_nid)))
			continue;
		if (!best || lnet_ni_better(ni, best))
			best = ni;
	}
	return best;
}

/* The NI of @dst's net to send from, @self if given: NULL if none. */
static struct lnet_ni *lnet_ni_for_send(const struct lnet_nid *dst,
					const struct lnet_nid *self)
{
	struct lnet_net *net;

	net = lnet_net_find_in(&the_lnet.ln_nets, lnet_nid_net(dst));
	return net ? lnet_net_best_ni(net, self) : NULL;
}

/* A peer net's health: its healthiest peer NI's (spec features 3a). */
static int lnet_peer_net_healthv(const struct lnet_peer_net *lpn)
{
	const struct lnet_peer_ni *lpni;
	int best = 0;

	list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list)
		best = max(best, lpni->lpni_healthv);
	return best;
}

/* Does @lpn have a peer NI its peer does not list DOWN? */
static bool lnet_peer_net_listed_up(const struct lnet_peer_net *lpn)
{
	const struct lnet_peer_ni *lpni;

	list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list)
		if (!lnet_peer_ni_listed_down(lpni))
			return true;
	return false;
}

/*
 * Is @lpn, reached from @ni, a better peer net than @best, reached from
 * @best_ni?  One with a peer NI not listed DOWN (the peer NI chosen
 * there would be one, lnet_peer_ni_better()), then the healthier peer
 * net, then the best peer net priority,
 * then a working local NI, then the healthier local NI (the best of its
 * net), then the best local net priority, then the one chosen longest
 * ago.
 */
static bool lnet_peer_net_better(struct lnet_peer_net *lpn,
				 struct lnet_ni *ni,
				 struct lnet_peer_net *best,
				 struct lnet_ni *best_ni)
{
	int h = lnet_peer_net_healthv(lpn), best_h = lnet_peer_net_healthv(best);
	bool up = lnet_peer_net_listed_up(lpn);

	if (up != lnet_peer_net_listed_up(best))
		return up;
	if (h != best_h)
		return h > best_h;
	if (lnet_udsp_lpn_prio(lpn) != lnet_udsp_lpn_prio(best))
		return lnet_udsp_lpn_prio(lpn) < lnet_udsp_lpn_prio(best);
	if (lnet_ni_usable(ni) != lnet_ni_usable(best_ni))
		return lnet_ni_usable(ni);
	if (ni->ni_healthv != best_ni->ni_healthv)
		return ni->ni_healthv > best_ni->ni_healthv;
	if (lnet_udsp_net_prio(ni->ni_net) != lnet_udsp_net_prio(best_ni->ni_net))
		return lnet_udsp_net_prio(ni->ni_net) <
		       lnet_udsp_net_prio(best_ni->ni_net);
	return lpn->lpn_seq < best->lpn_seq;
}

/**
 * lnet_select_mr() - the peer NI and local NI for a send to a multi-rail peer
 * @lp: the peer
 * @nets: our nets (the_lnet.ln_nets, or a test's)
 * @nip: out: the local NI
 *
 * Return: the peer NI, or NULL if no net of @lp has a started local NI.
 */
VISIBLE_IF_KUNIT struct lnet_peer_ni *
lnet_select_mr(struct lnet_peer *lp, struct list_head *nets,
	       struct lnet_ni **nip)
{
	struct lnet_peer_ni *lpni, *best_lpni = NULL;
	struct lnet_peer_net *lpn, *best_lpn = NULL;
	struct lnet_ni *ni, *best_ni = NULL;
	struct lnet_net *net;

	list_for_each_entry(lpn, &lp->lp_nets, lpn_list) {
		net = lnet_net_find_in(nets, lpn->lpn_net_id);
		ni = net ? lnet_net_best_ni(net, &LNET_ANY_NID) : NULL;
		if (!ni || list_empty(&lpn->lpn_peer_nis))
			continue;
		if (best_lpn && !lnet_peer_net_better(lpn, ni, best_lpn, best_ni))
			continue;
		best_lpn = lpn;
		best_ni = ni;
	}
	if (!best_lpn)
		return NULL;
	list_for_each_entry(lpni, &best_lpn->lpn_peer_nis, lpni_list)
		if (!best_lpni || lnet_peer_ni_better(lpni, best_lpni, best_ni))
			best_lpni = lpni;
	*nip = best_ni;
	return best_lpni;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_select_mr);

/*
 * Is @lpn, behind a router, a better peer net than @best?  As
 * lnet_peer_net_better() without local NIs.
 */
static bool lnet_peer_net_better_remote(struct lnet_peer_net *lpn,
					struct lnet_peer_net *best)
{
	int h = lnet_peer_net_healthv(lpn), best_h = lnet_peer_net_healthv(best);
	bool up = lnet_peer_net_listed_up(lpn);

	if (up != lnet_peer_net_listed_up(best))
		return up;
	if (h != best_h)
		return h > best_h;
	if (lnet_udsp_lpn_prio(lpn) != lnet_udsp_lpn_prio(best))
		return lnet_udsp_lpn_prio(lpn) < lnet_udsp_lpn_prio(best);
	return lpn->lpn_seq < best->lpn_seq;
}

/**
 * lnet_select_remote_mr() - the final destination of a routed send to a
 *	multi-rail peer none of whose nets is ours
 * @lp: the peer
 * @routable: has the route table an entry for a net?
 *
 * Routing spec 3.1 rule 3: of the peer's nets with a route-table entry,
 * the healthiest (its best peer NI's health), then the best UDSP
 * priority, then the one chosen longest ago; on it, the best peer NI by
 * lnet_peer_ni_better() without a local NI.  So sends spread over all of
 * a remote multi-rail peer's routable NIDs.
 *
 * Return: the peer NI, or NULL if no net of @lp has a route.
 */
VISIBLE_IF_KUNIT struct lnet_peer_ni *
lnet_select_remote_mr(struct lnet_peer *lp, bool (*routable)(u32 net))
{
	struct lnet_peer_net *lpn, *best_lpn = NULL;
	struct lnet_peer_ni *lpni, *best_lpni = NULL;

	list_for_each_entry(lpn, &lp->lp_nets, lpn_list) {
		if (list_empty(&lpn->lpn_peer_nis) || !routable(lpn->lpn_net_id))
			continue;
		if (!best_lpn || lnet_peer_net_better_remote(lpn, best_lpn))
			best_lpn = lpn;
	}
	if (!best_lpn)
		return NULL;
	list_for_each_entry(lpni, &best_lpn->lpn_peer_nis, lpni_list)
		if (!best_lpni || lnet_peer_ni_better(lpni, best_lpni, NULL))
			best_lpni = lpni;
	return best_lpni;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_select_remote_mr);

/*
 * A non-MR peer NI: its pinned local NI while that works, else the best
 * one of its net, which it is pinned to from now on.
 */
static struct lnet_ni *lnet_select_pinned(struct lnet_peer_ni *lpni)
{
	struct lnet_net *net;
	struct lnet_ni *ni;

	net = lnet_net_find_in(&the_lnet.ln_nets,
			       lnet_nid_net(&lpni->lpni_nid));
	if (!net)
		return NULL;
	/* The pinned NI is on the peer NI's net: it was chosen there. */
	if (!lnet_nid_is_any(&lpni->lpni_pref_nid)) {
		ni = lnet_net_best_ni(net, &lpni->lpni_pref_nid);
		if (ni && lnet_ni_usable(ni))
			return ni;
	}
	ni = lnet_net_best_ni(net, &LNET_ANY_NID);
	if (ni)
		lpni->lpni_pref_nid = ni->ni_nid;
	return ni;
}

/* The started NI of @nets whose NID is @nid, or NULL. */
static struct lnet_ni *lnet_local_ni_in(struct list_head *nets,
					const struct lnet_nid *nid)
{
	struct lnet_net *net = lnet_net_find_in(nets, lnet_nid_net(nid));

	return net ? lnet_net_best_ni(net, nid) : NULL;
}

/**
 * lnet_select_local() - the NI of a send to one of our own NIDs
 * @nets: our nets (the_lnet.ln_nets, or a test's)
 * @loni: 0@lo
 * @to: the destination
 * @self: the source NID asked for, or ANY
 * @recovery: the message is a recovery ping
 *
 * Lustre's rule (lnet_select_pathway()): 0@lo, unless the caller gave
 * the source or it is a recovery ping; then the NI given (a recovery
 * ping without a source: the NI @to names), which sends to its own NID
 * through its LND.  A source on another net than @to cannot reach it
 * but by 0@lo, which takes it as before.
 *
 * Return: NULL if @to is not one of our NIDs, else the NI to send by.
 */
VISIBLE_IF_KUNIT struct lnet_ni *
lnet_select_local(struct list_head *nets, struct lnet_ni *loni,
		  const struct lnet_nid *to, const struct lnet_nid *self,
		  bool recovery)
{
	struct lnet_ni *ni = lnet_local_ni_in(nets, to);

	if (!ni)
		return NULL;
	if (!lnet_nid_is_any(self))
		ni = lnet_local_ni_in(nets, self);
	else if (!recovery)
		ni = NULL;
	return ni && ni->ni_net->net_id == lnet_nid_net(to) ? ni : loni;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_select_local);

/* The peer's round-robin clock moves: @lpni, just chosen, goes last. */
static void lnet_peer_ni_used(struct lnet_peer_ni *lpni)
{
	struct lnet_peer_net *lpn = lpni->lpni_peer_net;
	struct lnet_peer *lp = lpn->lpn_peer;

	lp->lp_send_seq++;
	lpn->lpn_seq = lp->lp_send_seq;
	lpni->lpni_seq = lp->lp_send_seq;
}

/* The round-robin clocks move: what was just chosen goes last. */
static void lnet_select_used(struct lnet_ni *ni, struct lnet_peer_ni *lpni)
{
	ni->ni_seq++;
	lnet_peer_ni_used(lpni);
}

/* Is @lpni of a multi-rail peer? */
static bool lnet_peer_ni_mr(const struct lnet_peer_ni *lpni)
{
	return lpni->lpni_peer_net->lpn_peer->lp_state & LNET_PEER_MULTI_RAIL;
}

/**
 * lnet_fwd_final_choice() - MR forwarding's choice (routing spec 4.4)
 * @dst: the peer NI a forwarded PUT or GET names, on one of our nets
 * @src_mr: its originator is a multi-rail peer, as this router knows it
 *
 * A multi-rail destination's NI that is DOWN or not fully healthy gives
 * way to the best NI of its peer on the same net that is not DOWN
 * (lnet_peer_ni_better(): healthiest first), when the originator is
 * multi-rail too.
 *
 * Return: the peer NI to send to instead, or NULL to keep @dst.
 */
VISIBLE_IF_KUNIT struct lnet_peer_ni *
lnet_fwd_final_choice(struct lnet_peer_ni *dst, bool src_mr)
{
	struct lnet_peer_ni *lpni, *best = NULL;

	if (!src_mr || !lnet_peer_ni_mr(dst) ||
	    (!lnet_peer_ni_down_locked(dst) &&
	     dst->lpni_healthv >= LNET_MAX_HEALTH_VALUE))
		return NULL;
	list_for_each_entry(lpni, &dst->lpni_peer_net->lpn_peer_nis,
			    lpni_list)
		if (!lnet_peer_ni_down_locked(lpni) &&
		    (!best || lnet_peer_ni_better(lpni, best, NULL)))
			best = lpni;
	return best != dst ? best : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_fwd_final_choice);

/**
 * lnet_select_fwd_final() - a router's final hop to a multi-rail peer
 * @hdr: a forwarded message's header; its destination is on one of our
 *	nets
 *
 * Routing spec 4.4, MR forwarding (lnet_fwd_final_choice()), for a PUT
 * or GET from a multi-rail originator (its source's peer here); an ACK
 * or REPLY goes exactly where it is addressed.
 *
 * Context: the LNet lock held.
 * Return: the peer NI to send to instead, or NULL to keep the header's.
 */
struct lnet_peer_ni *lnet_select_fwd_final(const struct lnet_hdr *hdr)
{
	struct lnet_peer_ni *dst, *src;

	if (hdr->type != LNET_MSG_PUT && hdr->type != LNET_MSG_GET)
		return NULL;
	dst = lnet_peer_ni_find_locked(&hdr->dest_nid);
	if (!dst || !lnet_peer_ni_mr(dst) ||
	    (!lnet_peer_ni_down_locked(dst) &&
	     dst->lpni_healthv >= LNET_MAX_HEALTH_VALUE))
		return NULL;	/* the common case: no second lookup */
	src = lnet_peer_ni_find_locked(&hdr->src_nid);
	return lnet_fwd_final_choice(dst, src && lnet_peer_ni_mr(src));
}

/*
 * The final destination of a routed send (routing spec 3.1): its peer
 * NI, made for a new NID of a send we start (@make), as stock makes the
 * peer of every destination (so that it can be discovered and shown);
 * for a multi-rail peer we choose freely, its best NID on a net with a
 * route (rule 3).  NULL when there is none: a response's destination
 * that is no peer (its source is a header's claim that a gateway
 * relayed: a remote host must not make us hold state for NIDs it only
 * claims; stock makes one), @dst's net without a route (the send
 * fails), the peer table at its bound or out of memory (the send goes
 * on to @dst without a peer).
 */
static struct lnet_peer_ni *lnet_select_final(const struct lnet_nid *dst,
					      bool free_choice, bool make)
{
	struct lnet_peer_ni *lpni = lnet_peer_ni_find_locked(dst), *mr;

	if (!lpni)
		return make && lnet_route_net_known_locked(lnet_nid_net(dst)) ?
		       lnet_peer_ni_get_locked(dst, NULL) : NULL;
	if (!free_choice || !lnet_peer_ni_mr(lpni))
		return lpni;
	mr = lnet_select_remote_mr(lpni->lpni_peer_net->lpn_peer,
				   lnet_route_net_known_locked);
	return mr ?: lpni;
}

/**
 * lnet_select_pathway_locked() - the local NI and peer NI of a send
 * @dst: the destination NID
 * @self: the source NID asked for, or ANY
 * @hop: for a response, the NID its request came from; else ANY
 * @recovery: a recovery ping (lnet_select_local())
 * @nip: out: the local NI (0@lo for a local @dst, but see
 *	lnet_select_local())
 * @lpnip: out: the peer NI, NULL for 0@lo; created for a new NID (one
 *	of ours too: then not given for a send by 0@lo)
 * @finalp: out: ANY, or for a routed send (the peer NI a gateway's) the
 *	final destination, @dst or, for a multi-rail destination we choose
 *	for, another of its NIDs (NULL: not asked; a router's onward send
 *	gives @dst as @hop)
 *
 * No reference is taken on either.  A routed send also finds (one we
 * start: or makes) the final destination's peer NI (its peer is
 * discovered like any, routing spec 3.5) and moves its round-robin clock.
 *
 * Return: 0, -EINVAL if @self is not local, -EHOSTUNREACH if no NI
 * reaches @dst and no route does, -ENOMEM if a peer NI cannot be made.
 */
int lnet_select_pathway_locked(const struct lnet_nid *dst,
			       const struct lnet_nid *self,
			       const struct lnet_nid *hop, bool recovery,
			       struct lnet_ni **nip,
			       struct lnet_peer_ni **lpnip,
			       struct lnet_nid *finalp)
{
	const struct lnet_nid *to = lnet_nid_is_any(hop) ? dst : hop;
	struct lnet_peer_ni *lpni, *final = NULL;
	bool remote, free_choice;
	struct lnet_nid gw;
	struct lnet_ni *ni;
	int rc;

	if (finalp)
		*finalp = LNET_ANY_NID;
	if (!lnet_nid_is_any(self) && !lnet_nid_is_local_locked(self))
		return -EINVAL;
	ni = lnet_select_local(&the_lnet.ln_nets, the_lnet.ln_loni, to, self,
			       recovery);
	if (ni == the_lnet.ln_loni) {
		/*
		 * Lustre finds or makes the peer NI of any NID but 0@lo
		 * before it shortcuts a send to one of ours (spec features
		 * 4a): after a ping of our NID its peer exists, as there.
		 */
		*nip = ni;
		*lpnip = NULL;
		if (lnet_nid_net(to) != ni->ni_net->net_id) {
			ni = lnet_local_ni_in(&the_lnet.ln_nets, to);
			lpni = lnet_peer_ni_get_locked(to, ni);
			if (lpni)
				lpni->lpni_last_used = jiffies;
		}
		return 0;
	}
	if (ni)		/* through that NI, to exactly @to */
		self = &ni->ni_nid;
	remote = !lnet_net_find_in(&the_lnet.ln_nets, lnet_nid_net(dst));
	free_choice = lnet_nid_is_any(hop) && lnet_nid_is_any(self);
	lpni = lnet_peer_ni_find_locked(to);
	/* A multi-rail peer with a NID on a net of ours: directly. */
	if (lpni && free_choice && lnet_peer_ni_mr(lpni)) {
		lpni = lnet_select_mr(lpni->lpni_peer_net->lpn_peer,
				      &the_lnet.ln_nets, &ni);
		if (lpni)
			goto chosen;
		if (!remote)
			return -EHOSTUNREACH;
	}
	if (remote) {	/* the gateway takes the destination's place */
		final = lnet_select_final(dst, free_choice,
					  lnet_nid_is_any(hop));
		if (final)
			dst = &final->lpni_nid;
		rc = lnet_route_next_hop_locked(dst, self, hop, &gw);
		if (rc)
			return rc;
		if (finalp)
			*finalp = *dst;
		to = &gw;
		lpni = lnet_peer_ni_find_locked(to);
		if (lpni && free_choice && lnet_peer_ni_mr(lpni)) {
			lpni = lnet_select_mr(lpni->lpni_peer_net->lpn_peer,
					      &the_lnet.ln_nets, &ni);
			if (!lpni)
				return -EHOSTUNREACH;
			goto chosen;
		}
	}
	if (lpni && free_choice) {
		ni = lnet_select_pinned(lpni);
		if (!ni)
			return -EHOSTUNREACH;
	} else {
		ni = lnet_ni_for_send(to, self);
		if (!ni)
			return -EHOSTUNREACH;
		if (!lpni) {
			lpni = lnet_peer_ni_get_locked(to, ni);
			if (!lpni)
				return -ENOMEM;
			lpni->lpni_pref_nid = ni->ni_nid;
		}
	}
chosen:
	lnet_select_used(ni, lpni);
	if (final) {
		lnet_peer_ni_used(final);
		final->lpni_last_used = jiffies;	/* for the reaper */
	}
	*nip = ni;
	*lpnip = lpni;
	return 0;
}
