// SPDX-License-Identifier: GPL-2.0
/*
 * A peer's ping buffer (a push or a ping reply) reports one of its NIs
 * DOWN where it was UP (lnet/peer-merge.c): besides the remote failure
 * that demerits that peer NI, each of our NIs on its net closes its LND
 * connections to it (lnd_notify_peer_down).  What they hold then fails
 * at once, and what never left may go by another rail, instead of
 * waiting the LND's timeout on a link the peer already said is gone.
 * Stock Lustre closes connections on an LND's peer-down hook only for
 * lnet_notify() (routing spec 4.8); the wire is the same either way.
 *
 * The merge holds the LNet lock, and an LND takes its own locks to close
 * connections: the NIDs wait in a short list for a work item.  The list
 * is bounded (LNET_PEER_DOWN_MAX): a peer flapping its statuses fills no
 * memory, and a NID not queued only keeps its connections until they
 * time out, as before.
 *
 * An LND's own news goes the other way: lnet_notify() (routing spec 4.8)
 * marks a peer NI it failed to reach DOWN (with auto_down), and a router
 * then drops forwarded messages to that next hop until it hears from it
 * again (spec 4.7: lnet_fwd_path_locked(), lnet_peer_ni_heard_locked()).
 */
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <lnet/lib-lnet.h>
#include <lnet/route.h>
#include <lnet/router.h>

#include "peer.h"

static int auto_down = 1;
module_param(auto_down, int, 0444);
MODULE_PARM_DESC(auto_down,
		 "An LND's report that it failed to reach a peer NI marks that NI down (0: ignored)");

#define LNET_PEER_DOWN_MAX	64

struct lnet_peer_down {
	struct list_head	pd_list;
	struct lnet_nid		pd_nid;
};

static void lnet_peer_down_work(struct work_struct *work);

/* Under the_lnet.ln_lock. */
static LIST_HEAD(lnet_peer_down_list);
static unsigned int lnet_peer_down_count;
static DECLARE_WORK(lnet_peer_down_work_item, lnet_peer_down_work);

/**
 * lnet_peer_down_later_locked() - close the connections to @nid soon
 * @nid: a peer NI its peer now reports DOWN
 *
 * Context: the_lnet.ln_lock held.
 */
void lnet_peer_down_later_locked(const struct lnet_nid *nid)
{
	struct lnet_peer_down *pd;

	if (lnet_peer_down_count >= LNET_PEER_DOWN_MAX)
		return;
	pd = kmalloc(sizeof(*pd), GFP_ATOMIC);
	if (!pd)
		return;
	pd->pd_nid = *nid;
	list_add_tail(&pd->pd_list, &lnet_peer_down_list);
	lnet_peer_down_count++;
	schedule_work(&lnet_peer_down_work_item);
}

/*
 * Each NI of @nid's net closes its connections to @nid.  The lock is
 * dropped around the LND's call; the NI's ni_senders, held meanwhile,
 * keeps it (and so its net) from being stopped (lnet_ni_stop()).
 */
static void lnet_peer_down_nis_locked(const struct lnet_nid *nid)
{
	struct lnet_net *net;
	struct lnet_ni *ni;

	net = lnet_net_find_in(&the_lnet.ln_nets, lnet_nid_net(nid));
	if (!net || !net->net_lnd->lnd_notify_peer_down)
		return;
	list_for_each_entry(ni, &net->net_nis, ni_list) {
		if (!ni->ni_up || !percpu_ref_tryget_live(&ni->ni_senders))
			continue;
		lnet_unlock();
		net->net_lnd->lnd_notify_peer_down(ni, nid);
		lnet_lock();
		percpu_ref_put(&ni->ni_senders);
	}
}

static void lnet_peer_down_work(struct work_struct *work)
{
	struct lnet_peer_down *pd;

	lnet_lock();
	while ((pd = list_first_entry_or_null(&lnet_peer_down_list,
					      struct lnet_peer_down,
					      pd_list))) {
		list_del(&pd->pd_list);
		lnet_peer_down_count--;
		if (the_lnet.ln_state == LNET_STATE_RUNNING)
			lnet_peer_down_nis_locked(&pd->pd_nid);
		kfree(pd);
	}
	lnet_unlock();
}

/**
 * lnet_peer_down_flush() - LNet stops: drop what waits
 *
 * Called once the state is STOPPING and no merge runs any more: the work
 * then only frees the list.
 *
 * Context: process.
 */
void lnet_peer_down_flush(void)
{
	flush_work(&lnet_peer_down_work_item);
	lnet_peer_down_work(&lnet_peer_down_work_item);
}

/**
 * lnet_notify() - an LND's news of a peer NI
 * @ni: the NI the LND reports for
 * @nid: the peer NI, on @ni's net
 * @alive: false: the LND failed to reach it (no connection is left and
 *	making one failed); true: it is reachable again
 *
 * Routing spec 4.8 for an LND's notice: the peer NI becomes DOWN,
 * unless auto_down is 0, or UP.  On a router a DOWN next hop takes no
 * forwarded message until it is heard from again (spec 4.7).  Stock keeps
 * one status for this and for what the peer's ping data says; here the
 * LND's word is a flag of its own (lpni_lnd_down), so that it does not
 * hide a DOWN the peer pushes later (lnet/peer-merge.c).  The LND's
 * peer-down hook is not called back: the LND reported it.  A gateway
 * with discovery off has its routes through @nid follow the notice
 * (spec 4.8 step 6, lnet_rtrcheck_notify_locked()).
 *
 * Context: process context or softirq; no LNet lock held.
 * Return: 0 (an unknown NID is ignored), -EINVAL if @nid is not on @ni's
 * net, -ESHUTDOWN if LNet is not running.
 */
int lnet_notify(struct lnet_ni *ni, const struct lnet_nid *nid, bool alive)
{
	struct lnet_peer_ni *lpni;
	int rc = 0;

	if (lnet_nid_net(nid) != lnet_nid_net(&ni->ni_nid))
		return -EINVAL;
	if (!alive && !READ_ONCE(auto_down))
		return 0;
	lnet_lock();
	if (the_lnet.ln_state != LNET_STATE_RUNNING) {
		rc = -ESHUTDOWN;
	} else {
		lpni = lnet_peer_ni_find_locked(nid);
		if (lpni) {
			lpni->lpni_lnd_down = !alive;
			lnet_rtrcheck_notify_locked(ni, lpni, alive);
		}
	}
	lnet_unlock();
	return rc;
}
EXPORT_SYMBOL(lnet_notify);

/**
 * lnet_peer_ni_heard_locked() - a router received a message from @from
 * @from: the peer NI it came from (the LND's connection)
 *
 * Spec 4.7: any message from a peer NI makes it UP on a router, so a next
 * hop an LND reported down takes forwarded messages again once it is
 * heard from (its own ping of us, say).  Only while routing: elsewhere a
 * peer NI's status is its peer's own word (ping, push).
 *
 * Context: the LNet lock held.
 */
void lnet_peer_ni_heard_locked(const struct lnet_nid *from)
{
	struct lnet_peer_ni *lpni;

	if (!lnet_routing_forwards())
		return;
	lpni = lnet_peer_ni_find_locked(from);
	if (lpni)
		lpni->lpni_lnd_down = false;
}

/**
 * lnet_peer_ni_down_locked() - is @lpni down, as a router sees it?
 * @lpni: a peer NI
 *
 * Routing spec 4.7: down if its LND reported it unreachable and nothing
 * was heard from it since, or if its peer's ping data lists it DOWN.
 *
 * Context: the LNet lock held.
 */
bool lnet_peer_ni_down_locked(const struct lnet_peer_ni *lpni)
{
	return lpni->lpni_lnd_down ||
	       lpni->lpni_ns_status != LNET_NI_STATUS_UP;
}

/**
 * lnet_ni_tracks_aliveness() - does a router track its peer NIs on @ni's net?
 * @ni: a local NI
 *
 * Routing spec 4.7 ("aliveness enabled"): routing is on and the net has a
 * peer_timeout above 0 (only "> 0" matters, as stock's).
 *
 * Return: true if so.
 */
bool lnet_ni_tracks_aliveness(const struct lnet_ni *ni)
{
	return lnet_routing_forwards() && ni->ni_tunables.peer_timeout > 0;
}

/**
 * lnet_peer_ni_alive_state_locked() - the "state" peer show prints
 * @lpni: a peer NI
 *
 * Routing spec 9: up or down for a gateway's NI, and for a peer NI whose
 * aliveness a router tracks (routing on, its net's peer_timeout above 0,
 * spec 4.7); otherwise not tracked ("NA").
 *
 * Context: the LNet lock held.
 * Return: 1 up, 0 down, -1 not tracked.
 */
int lnet_peer_ni_alive_state_locked(const struct lnet_peer_ni *lpni)
{
	struct lnet_net *net;
	struct lnet_ni *ni;
	bool tracked = lnet_route_is_gateway_locked(&lpni->lpni_nid);

	if (!tracked) {
		net = lnet_net_find_in(&the_lnet.ln_nets,
				       lnet_nid_net(&lpni->lpni_nid));
		ni = net ? list_first_entry_or_null(&net->net_nis,
						    struct lnet_ni, ni_list) :
			   NULL;
		tracked = ni && lnet_ni_tracks_aliveness(ni);
	}
	if (!tracked)
		return -1;
	return !lnet_peer_ni_down_locked(lpni);
}
