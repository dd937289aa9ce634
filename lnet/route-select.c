// SPDX-License-Identifier: GPL-2.0
/*
 * The send path's routing choice (routing spec 3.1-3.4): the gateway a
 * message to a remote net goes through.  select.c calls it when the
 * destination's net is none of ours (and, for a message to a multi-rail
 * peer, none of the peer's nets is ours either); the gateway is then
 * chosen as a peer like any other (multi-rail, pinned NI), and the
 * header keeps the final destination (send.c).
 *
 * - A message we start: the usable route (lnet_route_usable()) of the
 *   lowest priority, then the fewest hops, then the one used longest
 *   ago, whose gateway has a NID on the source's net (any net when no
 *   source is given): lnet_route_table_select().
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
	char d[LNET_NIDSTR_SIZE], s[LNET_NIDSTR_SIZE];

	if (!lnet_nid_is_any(hop) && lnet_route_is_gateway_locked(hop)) {
		*gw = *hop;		/* spec 3.4: straight back */
		trace_lnet_route(dst, gw, true);
		return 0;
	}
	if (!lnet_route_select_locked(lnet_nid_net(dst), src_net, gw)) {
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
