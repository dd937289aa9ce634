// SPDX-License-Identifier: GPL-2.0
/*
 * The router checker and route aliveness (routing spec 6): each gateway
 * of a route is pinged on each local net it shares with us once per
 * alive_router_check_interval, by a discovery round (ping, and a push if
 * it is multi-rail: lnet/discovery.c does both); what its ping replies
 * and pushes say, and whether the round failed, decide which routes
 * through it a send may use (lnet_route_usable() in route.h).
 *
 * - Scheduling (spec 6.1): a delayed work item runs every second while
 *   LNet runs.  Each pass walks the gateways (the peers of the routes'
 *   gateway NIDs, made if the peer table has none yet); a gateway whose
 *   check is not running gets one on the next of its nets, round-robin,
 *   that is one of ours and whose next check time has passed: the check
 *   is pinned to that net (the ping goes to its NI there), and that
 *   net's next check is an interval away.  Adding a route makes its
 *   gateway due at once.
 * - Completion (spec 6.2 step 3): the gateway is alive iff the round
 *   had no error; on error every NI of it is DOWN and every route
 *   through it dead (cached flag).
 * - Ping replies and pushes (spec 6.3): RTE_DISABLED is recorded; each
 *   route through the gateway gets its cached flag and single-hop
 *   detection from the NIs the buffer lists (lnet_route_ping_update()).
 * - A routed message from a gateway marked dead revives it (spec 6.5,
 *   lnet_rtrcheck_routed_from_locked(), called by lnet_parse()).
 * - Each pass ends routing's STARTING or STOPPING state once its time
 *   came (spec 5.1, lnet_routing_tick() in router.c).
 * - On a router (routing not DISABLED), each pass reports down every NI
 *   of a local net that no other node pinged for W =
 *   alive_router_check_interval + router_ping_timeout seconds; a ping
 *   sets the NI it came to up again (spec 6.7, lnet_rtr_nets_check_locked()
 *   and lnet_rtr_ni_pinged_locked(), called by lnet_parse()).
 *
 * Everything runs under the LNet lock but the work item's scheduling.
 * The gateway state lives in its struct lnet_peer (lp_gw_*, lp_rtrcheck_*)
 * and struct lnet_peer_net (lpn_rtrcheck_*); a route holds no peer: its
 * gateway's peer is looked up by NID each time (route.c).
 */
#include <linux/moduleparam.h>
#include <linux/workqueue.h>
#include <linux/wait.h>

#include <kunit/visibility.h>

#include <lnet/lib-lnet.h>
#include <lnet/route.h>
#include <lnet/router.h>

#include "peer.h"

static int alive_router_check_interval = 60;
module_param(alive_router_check_interval, int, 0644);
MODULE_PARM_DESC(alive_router_check_interval,
		 "Seconds between checks (a discovery ping) of each gateway on each shared net (<= 0: none)");

static int router_ping_timeout = 50;
module_param(router_ping_timeout, int, 0644);
MODULE_PARM_DESC(router_ping_timeout,
		 "Seconds added to alive_router_check_interval: a router's net no ping reached for their sum has its NIs down");

static int avoid_asym_router_failure = 1;
module_param(avoid_asym_router_failure, int, 0644);
MODULE_PARM_DESC(avoid_asym_router_failure,
		 "A single-hop route needs its gateway's NI on the remote net up (1) or not (0)");

static int check_routers_before_use;
module_param(check_routers_before_use, int, 0444);
MODULE_PARM_DESC(check_routers_before_use,
		 "Gateways are dead until checked once; LNet start waits for their first check");

/**
 * lnet_check_routers_before_use() - do gateways start dead?
 *
 * Return: the check_routers_before_use parameter is set.
 */
bool lnet_check_routers_before_use(void)
{
	return READ_ONCE(check_routers_before_use) != 0;
}

/**
 * lnet_avoid_asym_router_failure() - the avoid_asym_router_failure parameter
 *
 * Return: it is set.
 */
bool lnet_avoid_asym_router_failure(void)
{
	return READ_ONCE(avoid_asym_router_failure) != 0;
}

static void lnet_rtrcheck_run(struct work_struct *work);

/* @fn for every route of the node's table (under the LNet lock). */
static void lnet_routes_each(void (*fn)(struct lnet_route *, void *),
			     void *arg)
{
	lnet_route_table_for_each(lnet_node_routes(), fn, arg);
}

static DECLARE_DELAYED_WORK(lnet_rtrcheck_work, lnet_rtrcheck_run);
static unsigned int lnet_rtrcheck_pass;
static DECLARE_WAIT_QUEUE_HEAD(lnet_rtrcheck_waitq);

/**
 * lnet_gw_net_up() - has a gateway an UP NI on a net?
 * @lpn: its peer net there, or NULL (none: no)
 *
 * UP is the status its last ping info listed (or UP until one did); a
 * peer NI's health is not looked at: health never kills a route
 * (spec 6.4 rule 4).
 *
 * Return: at least one of @lpn's peer NIs is UP.
 */
VISIBLE_IF_KUNIT bool lnet_gw_net_up(const struct lnet_peer_net *lpn)
{
	const struct lnet_peer_ni *lpni;

	if (!lpn)
		return false;
	list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list)
		if (lpni->lpni_ns_status == LNET_NI_STATUS_UP)
			return true;
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_gw_net_up);

/**
 * lnet_route_ping_update() - a route's flag from its gateway's ping info
 * @r: a route through the gateway
 * @rte_disabled: the buffer has RTE_DISABLED
 * @local_up: the gateway has an UP NI on @r's local net (the gateway
 *	NID's), after the buffer was merged
 * @nids: the NIDs the buffer lists (0@lo not)
 * @statuses: their statuses
 * @n: how many
 * @avoid_asym: avoid_asym_router_failure
 *
 * Spec 6.3: RTE_DISABLED kills the route; so does no UP NI on its local
 * net.  Otherwise the route is single-hop when the buffer lists an NI on
 * its remote net, and with @avoid_asym a single-hop route (or hops 1) is
 * alive only if one of those is UP; any other route is alive.
 */
void lnet_route_ping_update(struct lnet_route *r, bool rte_disabled,
			    bool local_up, const struct lnet_nid *nids,
			    const u32 *statuses, unsigned int n,
			    bool avoid_asym)
{
	bool single = false, net_up = false;
	char gw[LNET_NIDSTR_SIZE], net[LNET_NIDSTR_SIZE];
	unsigned int i;

	if (rte_disabled || !local_up) {
		WRITE_ONCE(r->lr_alive, false);
		return;
	}
	for (i = 0; i < n; i++) {
		if (lnet_nid_net(&nids[i]) != r->lr_net)
			continue;
		single = true;
		if (statuses[i] == LNET_NI_STATUS_UP)
			net_up = true;
	}
	WRITE_ONCE(r->lr_single_hop, single);
	WRITE_ONCE(r->lr_remote_up, net_up);
	if (avoid_asym && (r->lr_hops == 1 || single))
		WRITE_ONCE(r->lr_alive, net_up);
	else
		WRITE_ONCE(r->lr_alive, true);
	if (r->lr_hops == 1 && !single) {
		lnet_nid_to_str(&r->lr_gateway, gw, sizeof(gw));
		lnet_net_to_str(r->lr_net, net, sizeof(net));
		pr_warn_ratelimited("LNet: route to %s through %s has hop 1 but the gateway has no NI there: multi-hop?\n",
				    net, gw);
	}
}
EXPORT_SYMBOL_IF_KUNIT(lnet_route_ping_update);

/* The peer of gateway NID @gw, or NULL. */
static struct lnet_peer *lnet_gw_peer_locked(const struct lnet_nid *gw)
{
	struct lnet_peer_ni *lpni = lnet_peer_ni_find_locked(gw);

	return lpni ? lnet_peer_of(lpni) : NULL;
}

/**
 * lnet_route_gw_peer_locked() - the peer of a route's gateway
 * @r: the route
 *
 * Context: under the LNet lock.
 * Return: the peer, or NULL (the peer table has none yet).
 */
struct lnet_peer *lnet_route_gw_peer_locked(const struct lnet_route *r)
{
	return lnet_gw_peer_locked(&r->lr_gateway);
}

/**
 * lnet_gw_alive_locked() - is a gateway alive, as debugfs "routers" says?
 * @lp: the gateway
 *
 * Spec 9: its last check did not fail and each of its nets has an UP NI.
 *
 * Context: under the LNet lock.
 * Return: alive.
 */
bool lnet_gw_alive_locked(const struct lnet_peer *lp)
{
	const struct lnet_peer_net *lpn;

	if (lp->lp_gw_dead)
		return false;
	list_for_each_entry(lpn, &lp->lp_nets, lpn_list)
		if (!lnet_gw_net_up(lpn))
			return false;
	return true;
}

/*
 * Spec 6.4: discovery is "off" for gateway @lp when it is off here, the
 * gateway is not multi-rail or it said discovery off; then only the
 * routes' cached flags (lr_alive) speak for it.
 */
static bool lnet_gw_discovery_off(const struct lnet_peer *lp)
{
	return !lnet_discovery_enabled() ||
	       !(lp->lp_state & LNET_PEER_MULTI_RAIL) ||
	       (lp->lp_state & LNET_PEER_NO_DISCOVERY);
}

/**
 * lnet_gw_state_locked() - what spec 6.4 asks of a route's gateway
 * @r: the route
 * @gs: out: its gateway's state (zeroed by the caller)
 *
 * The node table's gw_state (route.c).  Discovery is "off" for the
 * gateway when it is off here, or the gateway is not multi-rail, or it
 * said discovery off.
 *
 * Context: under the LNet lock.
 */
void lnet_gw_state_locked(const struct lnet_route *r, struct lnet_gw_state *gs)
{
	struct lnet_peer *lp = lnet_gw_peer_locked(&r->lr_gateway);
	struct lnet_peer_net *lpn;

	if (!lp)
		return;
	gs->known = true;
	gs->dead = lp->lp_gw_dead ||
		   (lnet_check_routers_before_use() && !lp->lp_gw_checked);
	gs->discovery_off = lnet_gw_discovery_off(lp);
	gs->rtr_enabled = lp->lp_rtr_enabled;
	lpn = lnet_peer_net_find(lp, lnet_nid_net(&r->lr_gateway));
	gs->local_up = lnet_gw_net_up(lpn);
	/* its NIs on a net we have none on are only in its ping info */
	lpn = lnet_peer_net_find(lp, r->lr_net);
	gs->remote_up = lpn ? lnet_gw_net_up(lpn) : READ_ONCE(r->lr_remote_up);
	gs->avoid_asym = lnet_avoid_asym_router_failure();
}

/* A ping reply or push of gateway @lp, for lnet_gw_ping_route(). */
struct lnet_gw_ping {
	struct lnet_peer		*lp;
	const struct lnet_ping_data	*pd;
	const struct lnet_nid		*nids;
	const u32			*statuses;
	unsigned int			n;
	unsigned int			routes;
};

static void lnet_gw_ping_route(struct lnet_route *r, void *arg)
{
	struct lnet_gw_ping *p = arg;
	struct lnet_peer_net *lpn;

	if (lnet_gw_peer_locked(&r->lr_gateway) != p->lp)
		return;
	p->routes++;
	lpn = lnet_peer_net_find(p->lp, lnet_nid_net(&r->lr_gateway));
	lnet_route_ping_update(r, p->pd->features & LNET_PING_FEAT_RTE_DISABLED,
			       lnet_gw_net_up(lpn), p->nids, p->statuses,
			       p->n, lnet_avoid_asym_router_failure());
}

/* Does a ping buffer list @nid DOWN? */
static bool lnet_gw_lists_down(const struct lnet_nid *nid,
			       const struct lnet_nid *nids,
			       const u32 *statuses, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (lnet_nid_equal(&nids[i], nid))
			return statuses[i] == LNET_NI_STATUS_DOWN;
	return false;
}

/**
 * lnet_gw_ping_info_locked() - a peer's ping reply or push was merged
 * @from: the NID that sent it
 * @pd: the parsed buffer
 * @nids: the NIDs it lists
 * @statuses: their statuses
 * @n: how many
 *
 * Spec 6.3 for a gateway: the NI that answered is UP (it was just heard
 * from, spec 4.7) unless the buffer lists it DOWN, "router enabled" is
 * recorded, and each route through it takes its flag and single-hop
 * detection from the buffer.  A peer that is no gateway is left as it
 * is.
 *
 * Context: under the LNet lock (discovery's merge step).
 */
void lnet_gw_ping_info_locked(const struct lnet_nid *from,
			      const struct lnet_ping_data *pd,
			      const struct lnet_nid *nids, const u32 *statuses,
			      unsigned int n)
{
	struct lnet_peer_ni *lpni = lnet_peer_ni_find_locked(from);
	struct lnet_gw_ping p = {
		.pd = pd, .nids = nids, .statuses = statuses, .n = n,
	};
	char s[LNET_NIDSTR_SIZE];

	if (!lpni)
		return;
	p.lp = lnet_peer_of(lpni);
	p.lp->lp_rtr_enabled = !(pd->features & LNET_PING_FEAT_RTE_DISABLED);
	lnet_routes_each(lnet_gw_ping_route, &p);
	if (!p.routes)
		return;
	/*
	 * Heard from, so UP (spec 4.7), before the data: a buffer that
	 * lists the sender DOWN (a router's push of its unpinged NI, spec
	 * 6.7) leaves it DOWN, as the merge set it.
	 */
	lpni->lpni_lnd_down = false;
	if (!lnet_gw_lists_down(from, nids, statuses, n))
		lpni->lpni_ns_status = LNET_NI_STATUS_UP;
	if (!p.lp->lp_rtr_enabled) {
		lnet_nid_to_str(&p.lp->lp_primary_nid, s, sizeof(s));
		pr_warn_ratelimited("LNet: peer %s is used as a gateway but its routing feature is not turned on\n",
				    s);
	}
}

static void lnet_gw_kill_route(struct lnet_route *r, void *arg)
{
	if (lnet_gw_peer_locked(&r->lr_gateway) == arg)
		WRITE_ONCE(r->lr_alive, false);
}

/**
 * lnet_rtrcheck_done_locked() - a peer's discovery ended
 * @lp: the peer
 * @rc: how: 0, or the error of its ping or push
 *
 * If it was a router check (spec 6.2 step 3): the gateway is alive iff
 * @rc is 0; else every NI of it is DOWN and every route through it dead.
 *
 * Context: under the LNet lock.
 */
void lnet_rtrcheck_done_locked(struct lnet_peer *lp, int rc)
{
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	char s[LNET_NIDSTR_SIZE];

	if (!lp->lp_rtrcheck_running)
		return;
	lp->lp_rtrcheck_running = false;
	lp->lp_gw_checked = true;
	if (!rc) {
		lp->lp_gw_dead = false;
	} else {
		if (!lp->lp_gw_dead) {
			lnet_nid_to_str(&lp->lp_primary_nid, s, sizeof(s));
			pr_info_ratelimited("LNet: gateway %s is down: its check failed (%d)\n",
					    s, rc);
		}
		lp->lp_gw_dead = true;
		list_for_each_entry(lpn, &lp->lp_nets, lpn_list)
			list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list)
				lpni->lpni_ns_status = LNET_NI_STATUS_DOWN;
		lnet_routes_each(lnet_gw_kill_route, lp);
	}
	wake_up_all(&lnet_rtrcheck_waitq);
}

/**
 * lnet_rtrcheck_ping_dst_locked() - where a router check pings
 * @lp: the gateway under discovery
 * @dst: out: its NI on the net the check is pinned to
 *
 * Return: true if @lp is being checked and has an NI on that net
 * (spec 6.2 step 1); false: the discovery's own choice.
 */
bool lnet_rtrcheck_ping_dst_locked(const struct lnet_peer *lp,
				   struct lnet_nid *dst)
{
	struct lnet_peer_net *lpn;

	if (!lp->lp_rtrcheck_running)
		return false;
	lpn = lnet_peer_net_find(lp, lp->lp_rtrcheck_net);
	if (!lpn || list_empty(&lpn->lpn_peer_nis))
		return false;
	*dst = list_first_entry(&lpn->lpn_peer_nis, struct lnet_peer_ni,
				lpni_list)->lpni_nid;
	return true;
}

/* Is @lpn due for a check, on one of our nets? */
static bool lnet_rtrcheck_due(const struct lnet_peer_net *lpn)
{
	if (!lnet_net_find_in(&the_lnet.ln_nets, lpn->lpn_net_id))
		return false;
	return !lpn->lpn_rtrcheck_sched ||
	       time_after_eq(jiffies, lpn->lpn_rtrcheck_next);
}

/*
 * Start a check of gateway @lp if one of its nets is due (spec 6.1):
 * the first due after the last checked, round-robin.
 */
static void lnet_rtrcheck_gateway_locked(struct lnet_peer *lp, int interval)
{
	struct lnet_peer_net *lpn, *pick = NULL;
	bool after = false;

	list_for_each_entry(lpn, &lp->lp_nets, lpn_list) {
		if (after && lnet_rtrcheck_due(lpn)) {
			pick = lpn;
			break;
		}
		if (lpn->lpn_net_id == lp->lp_rtrcheck_last)
			after = true;
	}
	if (!pick) {
		list_for_each_entry(lpn, &lp->lp_nets, lpn_list) {
			if (lnet_rtrcheck_due(lpn)) {
				pick = lpn;
				break;
			}
		}
	}
	if (!pick)
		return;
	lp->lp_state |= LNET_PEER_FORCE_PING;
	if (lnet_discovery_enabled())
		lp->lp_state |= LNET_PEER_FORCE_PUSH;	/* if multi-rail */
	lp->lp_state &= ~LNET_PEER_NIDS_UPTODATE;
	lp->lp_rtrcheck_running = true;
	lp->lp_rtrcheck_net = pick->lpn_net_id;
	lp->lp_rtrcheck_last = pick->lpn_net_id;
	pick->lpn_rtrcheck_sched = true;
	pick->lpn_rtrcheck_next = jiffies + lnet_secs_to_jiffies(interval);
	lnet_peer_dc_start_locked(lp);
}

struct lnet_rtrcheck_walk {
	unsigned int	pass;
	int		interval;
};

/* The gateway of @r: made a peer if it has none yet (spec 2.2 step 1). */
static void lnet_rtrcheck_route(struct lnet_route *r, void *arg)
{
	struct lnet_rtrcheck_walk *w = arg;
	struct lnet_peer_ni *lpni;
	struct lnet_peer *lp;
	struct lnet_net *net;

	lpni = lnet_peer_ni_find_locked(&r->lr_gateway);
	if (!lpni) {
		net = lnet_net_find_in(&the_lnet.ln_nets,
				       lnet_nid_net(&r->lr_gateway));
		if (!net || list_empty(&net->net_nis))
			return;
		lpni = lnet_peer_ni_get_locked(&r->lr_gateway,
					       list_first_entry(&net->net_nis,
								struct lnet_ni,
								ni_list));
		if (!lpni)
			return;
	}
	lp = lnet_peer_of(lpni);
	if (lp->lp_rtrcheck_pass == w->pass)
		return;		/* seen in this pass: a route before */
	lp->lp_rtrcheck_pass = w->pass;
	if (!lp->lp_rtrcheck_running)
		lnet_rtrcheck_gateway_locked(lp, w->interval);
}

/**
 * lnet_rtr_window() - W: alive_router_check_interval + router_ping_timeout
 *
 * The window a router's net may go without a ping (spec 6.7), and that
 * its routing takes to start or stop (spec 5.1): stock's 110 s.
 *
 * Return: W in seconds, summed in 64 bits (may be <= 0: no window).
 */
s64 lnet_rtr_window(void)
{
	return (s64)READ_ONCE(alive_router_check_interval) +
	       READ_ONCE(router_ping_timeout);
}

/**
 * lnet_rtr_net_unpinged() - has a router's net gone without a ping too long?
 * @now: the time (jiffies)
 * @last: when the net was last pinged (jiffies)
 * @interval: alive_router_check_interval (seconds)
 * @timeout: router_ping_timeout (seconds)
 *
 * Spec 6.7: W = @interval + @timeout, summed in 64 bits (two large ints
 * do not wrap to a negative W); a net that no ping reached for W seconds
 * or more is unpinged, and W <= 0 gives no grace at all (stock's
 * "now >= last + W").  The time since @last is taken modulo the jiffies
 * wrap, so a @last before a wrap counts right; a @last after @now (a ping
 * seen after @now was read) is fresh.  W in jiffies saturates at
 * LONG_MAX, the range time_after() compares (reached on 32-bit only):
 * the checker looks every second, so a net is marked long before its
 * time since @last could leave that range.
 *
 * Return: true if the net's NIs are to be reported down.
 */
VISIBLE_IF_KUNIT bool lnet_rtr_net_unpinged(unsigned long now,
					    unsigned long last,
					    int interval, int timeout)
{
	s64 w = (s64)interval + timeout;
	unsigned long since = now - last, wj;

	if (w <= 0)
		return true;
	if ((long)since < 0)
		return false;
	wj = w >= LONG_MAX / HZ ? LONG_MAX : (unsigned long)w * HZ;
	return since >= wj;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_rtr_net_unpinged);

/**
 * lnet_rtr_ni_pinged_locked() - another node pinged one of our NIs
 * @ni: the NI the ping GET came to (not 0@lo)
 *
 * Spec 6.7 step 2: its net was pinged now, and @ni is up again if the
 * router checker reported it down; that change is written into our ping
 * buffer at once (the REPLY to this ping says UP) and pushed to every
 * multi-rail peer.  The time is kept whether or not we route
 * (Documentation/routing.rst).
 *
 * Context: under the LNet lock (lnet_parse(): process context or softirq).
 */
void lnet_rtr_ni_pinged_locked(struct lnet_ni *ni)
{
	char s[LNET_NIDSTR_SIZE];

	ni->ni_net->net_last_ping = jiffies;
	if (!ni->ni_rtr_down)
		return;
	WRITE_ONCE(ni->ni_rtr_down, false);
	lnet_nid_to_str(&ni->ni_nid, s, sizeof(s));
	pr_info_ratelimited("LNet: NI %s is up: pinged\n", s);
	/* now: the REPLY to this very ping says UP, as stock's */
	lnet_ping_target_status_locked();
}

/* Routing was on at the last pass: spec 6.7 applied. */
static bool lnet_rtr_liveness_on;

/* Mark every NI of @net down (true) or clear that; return: any changed. */
static bool lnet_rtr_net_mark_locked(struct lnet_net *net, bool down)
{
	struct lnet_ni *ni;
	bool changed = false;

	list_for_each_entry(ni, &net->net_nis, ni_list) {
		if (ni == the_lnet.ln_loni || ni->ni_rtr_down == down)
			continue;
		WRITE_ONCE(ni->ni_rtr_down, down);
		changed = true;
	}
	return changed;
}

/*
 * Spec 6.7 step 3, once per pass: while we route, a net no ping reached
 * for W has its NIs down.  When routing turns on, each net starts with a
 * full W (the STARTING window gives peers that time to ping us before
 * we advertise that we route); when it turns off, the NIs this rule took down are up again.
 * A change is written into the ping buffer and pushed to every
 * multi-rail peer.
 */
static void lnet_rtr_nets_check_locked(void)
{
	int interval = READ_ONCE(alive_router_check_interval);
	int timeout = READ_ONCE(router_ping_timeout);
	bool routing = lnet_routing_forwards();
	unsigned long now = jiffies;
	char s[LNET_NIDSTR_SIZE];
	struct lnet_net *net;
	bool changed = false;

	if (!routing && !lnet_rtr_liveness_on)
		return;
	list_for_each_entry(net, &the_lnet.ln_nets, net_list) {
		if (!routing) {
			changed |= lnet_rtr_net_mark_locked(net, false);
		} else if (!lnet_rtr_liveness_on) {
			net->net_last_ping = now;
		} else if (lnet_rtr_net_unpinged(now, net->net_last_ping,
						 interval, timeout) &&
			   lnet_rtr_net_mark_locked(net, true)) {
			changed = true;
			lnet_net_to_str(net->net_id, s, sizeof(s));
			pr_info("LNet: net %s: no ping for %lld s: its NIs are down\n",
				s, (s64)interval + timeout);
		}
	}
	lnet_rtr_liveness_on = routing;
	if (changed)
		lnet_ping_target_status_locked();
}

/* lnet_rtrcheck_work: one pass, then the next a second later. */
static void lnet_rtrcheck_run(struct work_struct *work)
{
	struct lnet_rtrcheck_walk w = {
		.interval = READ_ONCE(alive_router_check_interval),
	};

	lnet_routing_tick();	/* STARTING or STOPPING ends (spec 5.1) */
	lnet_lock();
	if (the_lnet.ln_state != LNET_STATE_RUNNING) {
		lnet_unlock();
		return;
	}
	if (w.interval > 0) {
		w.pass = ++lnet_rtrcheck_pass;
		lnet_routes_each(lnet_rtrcheck_route, &w);
	}
	lnet_rtr_nets_check_locked();
	lnet_unlock();
	queue_delayed_work(system_wq, &lnet_rtrcheck_work, HZ);
}

/**
 * lnet_rtrcheck_route_added() - a route through @gw was added
 * @gw: its gateway NID
 *
 * Every net of the gateway is due now: it is checked within a second
 * (spec 2.2 effect 3).
 *
 * Context: Process context.
 */
void lnet_rtrcheck_route_added(const struct lnet_nid *gw)
{
	struct lnet_peer_net *lpn;
	struct lnet_peer *lp;

	lnet_lock();
	lp = lnet_gw_peer_locked(gw);
	if (lp)
		list_for_each_entry(lpn, &lp->lp_nets, lpn_list)
			lpn->lpn_rtrcheck_sched = false;
	if (the_lnet.ln_state == LNET_STATE_RUNNING)
		mod_delayed_work(system_wq, &lnet_rtrcheck_work, 0);
	lnet_unlock();
}

struct lnet_gw_revive {
	struct lnet_peer	*lp;
	u32			net;
};

static void lnet_gw_revive_route(struct lnet_route *r, void *arg)
{
	struct lnet_gw_revive *v = arg;

	if (r->lr_net == v->net && lnet_gw_peer_locked(&r->lr_gateway) == v->lp)
		WRITE_ONCE(r->lr_alive, true);
}

/**
 * lnet_rtrcheck_routed_from_locked() - a routed message came to us
 * @from: its previous hop
 * @src_net: the net of its source (not @from's: it was routed)
 *
 * Spec 6.5: a gateway marked dead is alive again, its NI @from UP, and,
 * with discovery off for it, its routes to @src_net are alive.
 *
 * Context: under the LNet lock.
 */
void lnet_rtrcheck_routed_from_locked(const struct lnet_nid *from,
				      u32 src_net)
{
	struct lnet_peer_ni *lpni = lnet_peer_ni_find_locked(from);
	struct lnet_gw_revive v = { .net = src_net };
	char s[LNET_NIDSTR_SIZE];

	if (!lpni || !lnet_peer_of(lpni)->lp_gw_dead)
		return;
	v.lp = lnet_peer_of(lpni);
	v.lp->lp_gw_dead = false;
	lpni->lpni_ns_status = LNET_NI_STATUS_UP;
	lpni->lpni_lnd_down = false;
	if (lnet_gw_discovery_off(v.lp))
		lnet_routes_each(lnet_gw_revive_route, &v);
	lnet_nid_to_str(from, s, sizeof(s));
	pr_info_ratelimited("LNet: gateway %s is alive: it routed a message to us\n",
			    s);
}

struct lnet_gw_notice {
	const struct lnet_nid	*nid;
	bool			alive;
};

static void lnet_gw_notify_route(struct lnet_route *r, void *arg)
{
	struct lnet_gw_notice *g = arg;

	if (lnet_nid_equal(&r->lr_gateway, g->nid))
		WRITE_ONCE(r->lr_alive, g->alive);
}

/*
 * Would a send to @ni's net rather take another of our NIs there?  One
 * whose LND reports no failure beats a failed one, then the healthier
 * wins (lnet_ni_better()'s first two rules).
 */
static bool lnet_ni_outranked_locked(const struct lnet_ni *ni)
{
	const struct lnet_ni *o;

	list_for_each_entry(o, &ni->ni_net->net_nis, ni_list) {
		if (o == ni || !o->ni_up)
			continue;
		if (lnet_ni_usable(o) != lnet_ni_usable(ni)) {
			if (lnet_ni_usable(o))
				return true;
			continue;
		}
		if (o->ni_healthv > ni->ni_healthv)
			return true;
	}
	return false;
}

/**
 * lnet_rtrcheck_notify_locked() - an LND's news of a gateway NI
 * @ni: the NI the LND reports for
 * @lpni: the peer NI it reports on
 * @alive: reachable again (true) or not (false)
 *
 * Spec 4.8 step 6: when @lpni's peer is a gateway with discovery off,
 * the routes added through @lpni's NID take @alive as their cached flag
 * (with discovery on, its ping data and the router checker decide).  A
 * "down" is ignored when a send would take another of our NIs on that
 * net rather than @ni: the route stays up when only one local rail
 * failed (sanity-lnet test 550).
 *
 * Context: under the LNet lock.
 */
void lnet_rtrcheck_notify_locked(const struct lnet_ni *ni,
				 const struct lnet_peer_ni *lpni, bool alive)
{
	struct lnet_gw_notice g = { .nid = &lpni->lpni_nid, .alive = alive };
	struct lnet_peer *lp = lnet_peer_of(lpni);

	/* routes whose gateway is not @lpni's NID stay as they are */
	if (!lnet_gw_discovery_off(lp) ||
	    (!alive && lnet_ni_outranked_locked(ni)))
		return;
	lnet_routes_each(lnet_gw_notify_route, &g);
}

static void lnet_gw_unchecked(struct lnet_route *r, void *arg)
{
	struct lnet_peer *lp = lnet_gw_peer_locked(&r->lr_gateway);

	if (!lp || !lp->lp_gw_checked)
		*(bool *)arg = true;
}

static bool lnet_rtrcheck_all_checked(void)
{
	bool unchecked = false;

	lnet_lock();
	lnet_routes_each(lnet_gw_unchecked, &unchecked);
	lnet_unlock();
	return !unchecked;
}

/**
 * lnet_rtrcheck_start() - LNet runs: the checker's passes begin
 *
 * With check_routers_before_use, this waits (polling each second, as
 * stock) until every gateway finished one check (spec 6.5).  Routes come
 * only once LNet runs (there is no routes= parameter), so at start there
 * is none to wait for yet.
 *
 * Context: Process context, LNet running.
 */
void lnet_rtrcheck_start(void)
{
	lnet_rtr_liveness_on = false;
	mod_delayed_work(system_wq, &lnet_rtrcheck_work, 0);
	if (!lnet_check_routers_before_use() ||
	    READ_ONCE(alive_router_check_interval) <= 0)
		return;
	while (!wait_event_timeout(lnet_rtrcheck_waitq,
				   lnet_rtrcheck_all_checked(), HZ) &&
	       READ_ONCE(alive_router_check_interval) > 0)
		;
}

/**
 * lnet_rtrcheck_stop() - LNet stops: no pass any more
 *
 * Checks in flight are discoveries: the shutdown ends them.
 *
 * Context: Process context, ln_state STOPPING.
 */
void lnet_rtrcheck_stop(void)
{
	cancel_delayed_work_sync(&lnet_rtrcheck_work);
}

