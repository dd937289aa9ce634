// SPDX-License-Identifier: GPL-2.0
/*
 * The send path's routing choice (routing spec 3.1-3.4): the gateway a
 * message to a remote net goes through.  select.c calls it when the
 * destination's net is none of ours (and, for a message to a multi-rail
 * peer, none of the peer's nets is ours either); the gateway is then
 * chosen as a peer like any other (multi-rail, pinned NI), and the
 * header keeps the final destination (send.c).
 *
 * - A message we start: of the usable routes (lnet_route_usable())
 *   whose gateway has a NID on the source's net (any net when no source
 *   is given), one through a gateway the destination prefers (UDSP
 *   "--dst D --rte G": a NID of the gateway on that net matches G), then
 *   the lowest priority, then the fewest hops, then the healthiest
 *   gateway NI, the least loaded (bytes queued), the one with most
 *   credits (lnet_gateway_rank_locked()), then the one used longest ago:
 *   lnet_route_table_select().
 * - A response (ACK, REPLY): back through the previous hop that
 *   delivered its request (the "router hint", msg_from) if that is a
 *   gateway of any route, usable or not; otherwise a route lookup as
 *   above, restricted to the receiving NI's net (its source).
 *
 * No route: -EHOSTUNREACH at once (the caller fails the message with
 * REMOTE_ERROR and does not resend it).  Everything here runs under the
 * LNet lock.
 */
#include <lnet/lib-lnet.h>
#include <lnet/route.h>
#include <lnet/trace.h>

#include "peer.h"

/**
 * lnet_gateway_on_net_locked() - has the gateway peer of @gw a NID on @net?
 * @gw: a gateway NID
 * @net: a net
 *
 * A gateway the peer table does not know yet has the NID it was added
 * with only.
 */
bool lnet_gateway_on_net_locked(const struct lnet_nid *gw, u32 net)
{
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;

	if (lnet_nid_net(gw) == net)
		return true;
	lpni = lnet_peer_ni_find_locked(gw);
	if (!lpni)
		return false;
	list_for_each_entry(lpn, &lnet_peer_of(lpni)->lp_nets, lpn_list)
		if (lpn->lpn_net_id == net)
			return true;
	return false;
}

/**
 * lnet_same_gateway_locked() - are two NIDs one (gateway) peer?
 * @a: a NID
 * @b: another
 */
bool lnet_same_gateway_locked(const struct lnet_nid *a,
			      const struct lnet_nid *b)
{
	struct lnet_peer_ni *pa, *pb;

	if (lnet_nid_equal(a, b))
		return true;
	pa = lnet_peer_ni_find_locked(a);
	pb = lnet_peer_ni_find_locked(b);
	return pa && pb && lnet_peer_of(pa) == lnet_peer_of(pb);
}

/**
 * lnet_gateway_preferred_locked() - does @dst prefer the gateway of @gw?
 * @dst: a routed send's final destination
 * @gw: a route's gateway NID
 * @src_net: the net the gateway is reached from, or LNET_NET_ANY
 *
 * Stock's lnet_peer_is_pref_rtr_locked() of the gateway NI it would use:
 * a NID of the gateway's peer on @src_net (on any of our nets for ANY;
 * the peer table keeps no other), or @gw itself while the peer table
 * does not know the gateway, matches the --rte of a rule whose --dst
 * matches @dst.
 *
 * Context: under the LNet lock.
 * Return: true if so.
 */
bool lnet_gateway_preferred_locked(const struct lnet_nid *dst,
				   const struct lnet_nid *gw, u32 src_net)
{
	const struct list_head *rules = &the_lnet.ln_udsp;
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	struct lnet_peer *lp;

	lpni = lnet_peer_ni_find_locked(gw);
	if (!lpni)
		return (src_net == LNET_NET_ANY ||
			lnet_nid_net(gw) == src_net) &&
		       lnet_udsp_rte_find(rules, dst, gw);
	lp = lnet_peer_of(lpni);
	list_for_each_entry(lpn, &lp->lp_nets, lpn_list) {
		if (src_net != LNET_NET_ANY && lpn->lpn_net_id != src_net)
			continue;
		list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list)
			if (lnet_udsp_rte_find(rules, dst, &lpni->lpni_nid))
				return true;
	}
	return false;
}

/**
 * lnet_gateway_rank_locked() - the rank of a gateway's best NI
 * @gw: a route's gateway NID
 * @src_net: the net it is reached from, or LNET_NET_ANY: any of ours
 * @rank: out: of its peer's NIs on that net (those nets), the healthiest,
 *	then least loaded, then with most credits (spec 3.2 step 4); a
 *	gateway the peer table does not know yet ranks as an idle healthy
 *	NI with no credits counted
 *
 * The node's route table's gw_rank (route.c).
 *
 * Context: under the LNet lock.
 */
void lnet_gateway_rank_locked(const struct lnet_nid *gw, u32 src_net,
			      struct lnet_gw_rank *rank)
{
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	struct lnet_gw_rank r;
	struct lnet_peer *lp;
	bool any = false;

	*rank = (struct lnet_gw_rank){ .healthv = LNET_MAX_HEALTH_VALUE };
	lpni = lnet_peer_ni_find_locked(gw);
	if (!lpni)
		return;
	lp = lnet_peer_of(lpni);	/* before lpni walks its NIs */
	list_for_each_entry(lpn, &lp->lp_nets, lpn_list) {
		if (src_net != LNET_NET_ANY ? lpn->lpn_net_id != src_net :
		    !lnet_net_find_in(&the_lnet.ln_nets, lpn->lpn_net_id))
			continue;
		list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list) {
			r = (struct lnet_gw_rank){
				.healthv = lpni->lpni_healthv,
				.txqnob = lpni->lpni_txqnob,
				.credits = lpni->lpni_txc.credits,
			};
			if (!any || lnet_gw_rank_cmp(&r, rank) > 0)
				*rank = r;
			any = true;
		}
	}
}

/* @gw becomes its peer's NID on @net (lnet_gateway_on_net_locked() held). */
static void lnet_gateway_nid_on_net_locked(struct lnet_nid *gw, u32 net)
{
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;

	lpni = lnet_peer_ni_find_locked(gw);
	if (!lpni)
		return;
	list_for_each_entry(lpn, &lnet_peer_of(lpni)->lp_nets, lpn_list) {
		if (lpn->lpn_net_id != net || list_empty(&lpn->lpn_peer_nis))
			continue;
		*gw = list_first_entry(&lpn->lpn_peer_nis, struct lnet_peer_ni,
				       lpni_list)->lpni_nid;
		return;
	}
}

/**
 * lnet_route_next_hop_locked() - the gateway of a send to a remote net
 * @dst: the final destination (its net is none of ours)
 * @self: the source NID given (a response's: the receiving NI), or ANY
 * @hop: a response's router hint (the NID its request came from), or ANY
 * @gw: out: the gateway NID to hand the message to; on @self's net when
 *	@self is given
 *
 * Return: 0, or -EHOSTUNREACH if no route fits (said on the console,
 * ratelimited, as stock's "no route to X from Y").
 */
int lnet_route_next_hop_locked(const struct lnet_nid *dst,
			       const struct lnet_nid *self,
			       const struct lnet_nid *hop,
			       struct lnet_nid *gw)
{
	u32 src_net = lnet_nid_is_any(self) ? LNET_NET_ANY : lnet_nid_net(self);
	struct lnet_route_pref pref = {
		.preferred = lnet_gateway_preferred_locked,
		.dst = dst,
	};
	char d[LNET_NIDSTR_SIZE], s[LNET_NIDSTR_SIZE];
	bool any_pref;

	if (!lnet_nid_is_any(hop) && lnet_route_is_gateway_locked(hop)) {
		*gw = *hop;		/* spec 3.4: straight back */
		trace_lnet_route(dst, gw, true);
		return 0;
	}
	/* no rule prefers gateways for @dst: no gateway's NIDs to ask */
	any_pref = lnet_udsp_rte_find(&the_lnet.ln_udsp, dst, &LNET_ANY_NID);
	if (!lnet_route_select_locked(lnet_nid_net(dst), src_net,
				      any_pref ? &pref : NULL, gw)) {
		if (src_net != LNET_NET_ANY && lnet_nid_net(gw) != src_net)
			lnet_gateway_nid_on_net_locked(gw, src_net);
		trace_lnet_route(dst, gw, false);
		return 0;
	}
	lnet_nid_to_str(dst, d, sizeof(d));
	if (lnet_nid_is_any(self))
		strscpy(s, "any local NI", sizeof(s));
	else
		lnet_nid_to_str(self, s, sizeof(s));
	pr_warn_ratelimited("LNet: no route to %s from %s: route table may be misconfigured\n",
			    d, s);
	return -EHOSTUNREACH;
}
