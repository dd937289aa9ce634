// SPDX-License-Identifier: GPL-2.0
/*
 * What a finished message does to health values and counters (spec
 * features 3a, 3b, 3f, 9a), called by the core for every message
 * committed to an NI (include/lnet/health.h).
 *
 * A success raises the local NI's value by health_sensitivity; the peer
 * NI's only when a message arrives from it (the one sure sign that it
 * works; straight to the maximum from a gateway or on a router, routing
 * spec 8), which also restarts both recovery backoffs and records when
 * the peer NI was last heard from.  A failure is counted by class on its
 * NI or peer NI and globally, then treated as treat.c says.
 */
#include <kunit/visibility.h>
#include <lnet/route.h>
#include <lnet/router.h>

#include "health.h"

/* Does this node have a single NI besides 0@lo? */
static bool lnet_health_single_local_ni(void)
{
	struct lnet_net *net;
	struct lnet_ni *ni;
	unsigned int n = 0;

	list_for_each_entry(net, &the_lnet.ln_nets, net_list)
		list_for_each_entry(ni, &net->net_nis, ni_list)
			if (ni != the_lnet.ln_loni && ni->ni_up && ++n > 1)
				return false;
	return true;
}

/* Does @lpni's peer have it as its only NI? */
static bool lnet_health_single_peer_ni(const struct lnet_peer_ni *lpni)
{
	const struct lnet_peer_net *lpn = lpni->lpni_peer_net;

	return list_is_singular(&lpn->lpn_peer->lp_nets) &&
	       list_is_singular(&lpn->lpn_peer_nis);
}

/*
 * Is @lpni's peer a gateway of one of our routes, or do we route?  Then
 * its health is handled even when it is its peer's only NI (routing spec
 * 8): route aliveness and the choice of a gateway NI rest on it.
 */
static bool lnet_health_router(const struct lnet_peer_ni *lpni)
{
	return lnet_routing_forwards() ||
	       lnet_route_is_gateway_locked(&lpni->lpni_nid);
}

/* Count a failure of class @hs on @ni or @lpni and globally. */
static void lnet_health_count(enum lnet_msg_hstatus hs, struct lnet_ni *ni,
			      struct lnet_peer_ni *lpni)
{
	struct lnet_counters_common *c = &the_lnet.ln_counters;

	switch (hs) {
	case LNET_MSG_STATUS_LOCAL_INTERRUPT:
		ni->ni_hstats.interrupts++;
		c->local_interrupt_count++;
		break;
	case LNET_MSG_STATUS_LOCAL_DROPPED:
		ni->ni_hstats.dropped++;
		c->local_dropped_count++;
		break;
	case LNET_MSG_STATUS_LOCAL_ABORTED:
		ni->ni_hstats.aborted++;
		c->local_aborted_count++;
		break;
	case LNET_MSG_STATUS_LOCAL_NO_ROUTE:
		ni->ni_hstats.no_route++;
		c->local_no_route_count++;
		break;
	case LNET_MSG_STATUS_LOCAL_TIMEOUT:
		ni->ni_hstats.timeouts++;
		c->local_timeout_count++;
		break;
	case LNET_MSG_STATUS_LOCAL_ERROR:
		ni->ni_hstats.error++;
		c->local_error_count++;
		break;
	case LNET_MSG_STATUS_REMOTE_DROPPED:
		lpni->lpni_hstats.dropped++;
		c->remote_dropped_count++;
		break;
	case LNET_MSG_STATUS_REMOTE_ERROR:
		lpni->lpni_hstats.error++;
		c->remote_error_count++;
		break;
	case LNET_MSG_STATUS_REMOTE_TIMEOUT:
		lpni->lpni_hstats.timeout++;
		c->remote_timeout_count++;
		break;
	case LNET_MSG_STATUS_NETWORK_TIMEOUT:
		lpni->lpni_hstats.network_timeout++;
		c->network_timeout_count++;
		break;
	default:
		break;
	}
}

/*
 * Success: +step for the NI; a receive also vouches for its peer NI.
 * Every message comes here: at full health (the usual case) there is
 * nothing to raise.
 */
static void lnet_health_success(struct lnet_msg *msg, struct lnet_ni *ni,
				struct lnet_peer_ni *lpni, unsigned int step)
{
	if (step && ni->ni_healthv < LNET_MAX_HEALTH_VALUE)
		lnet_ni_healthv_set_locked(ni, lnet_health_inc(ni->ni_healthv,
							       step));
	if (msg->msg_send)
		return;
	lpni->lpni_last_alive = jiffies;
	lpni->lpni_ping_count = 0;
	ni->ni_ping_count = 0;
	if (!step || lpni->lpni_healthv >= LNET_MAX_HEALTH_VALUE)
		return;
	/* from a gateway, or to a router: healthy at once (routing spec 8) */
	lnet_peer_ni_healthv_set_locked(lpni, lnet_health_router(lpni) ?
					LNET_MAX_HEALTH_VALUE :
					lnet_health_inc(lpni->lpni_healthv,
							step));
}

/**
 * lnet_health_msg_done() - struct lnet_health_ops.msg_done
 * @msg: the message
 * @lpni: the peer NI it went to or came from
 * @status: 0 or -errno
 *
 * Return: true if it should be sent again.
 */
bool lnet_health_msg_done(struct lnet_msg *msg, struct lnet_peer_ni *lpni,
			  int status)
{
	struct lnet_ni *ni = msg->msg_send ? msg->msg_txni : msg->msg_rxni;
	enum lnet_msg_hstatus hs = msg->msg_health_status;
	unsigned int step = lnet_health_sensitivity();
	struct lnet_health_facts f;
	struct lnet_health_action a;

	if (!status) {
		lnet_health_success(msg, ni, lpni, step);
		return false;
	}
	lnet_health_count(hs, ni, lpni);
	f = (struct lnet_health_facts) {
		.send = msg->msg_send,
		.recovery = msg->msg_recovery,
		.single_local_ni = lnet_health_single_local_ni(),
		.single_peer_ni = lnet_health_single_peer_ni(lpni),
		.router = lnet_health_router(lpni),
		.peer_is_local = lnet_nid_is_local_locked(&lpni->lpni_nid),
	};
	a = lnet_health_treat(hs, &f);
	/* health_sensitivity 0: values frozen, and retry_count is 0. */
	if (a.local && step)
		lnet_ni_healthv_set_locked(ni, lnet_health_dec(ni->ni_healthv,
							       step));
	if (a.remote && step)
		lnet_peer_ni_healthv_set_locked(lpni,
						lnet_health_dec(lpni->lpni_healthv,
								step));
	if (a.local || a.remote)
		lnet_recovery_kick();
	return a.resend;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_health_msg_done);

/**
 * lnet_health_remote_failure() - struct lnet_health_ops.remote_failure
 * @nid: the peer NI whose response did not come, or that its peer
 *	reports down
 *
 * A remote failure of that peer NI (spec 3b response tracking, spec 4c
 * NI status), with the guards of any remote failure.
 */
void lnet_health_remote_failure(const struct lnet_nid *nid)
{
	unsigned int step = lnet_health_sensitivity();
	struct lnet_peer_ni *lpni = lnet_peer_ni_find_locked(nid);

	if (!lpni || !step || lnet_nid_is_local_locked(nid) ||
	    (lnet_health_single_peer_ni(lpni) && !lnet_health_router(lpni)))
		return;
	lnet_peer_ni_healthv_set_locked(lpni,
					lnet_health_dec(lpni->lpni_healthv,
							step));
	lnet_recovery_kick();
}
