// SPDX-License-Identifier: GPL-2.0
/*
 * The peer table.  A remote NID LNet sends to that no peer has becomes a
 * peer of its own (one behind a router too: the final destination of a
 * routed send, routing spec 3.5), with one peer net holding one peer NI; "peer add"
 * (peer-config.c) and discovery make peers of several NIDs, with the
 * helpers at the end of this file.  Peer NIs carry the per-peer tx
 * credits and counters.
 *
 * Lifetime (Documentation/lifetimes.rst): a peer lives while it has peer
 * NIs or a holder (lp_refcount: its discovery, a "discover" waiting for
 * it).  A peer NI is made by the first
 * send to its NID: one we start, or a response to a message that came
 * from it (the NID its LND authenticated, never a header's claim), so a
 * remote host makes us hold state only for the NIDs it really sends from.
 * Each message going to it holds a reference.  The reaper frees a peer NI
 * that nothing references or waits on once it has been idle for
 * peer_idle_timeout seconds, unless configured, and at most
 * LNET_PEER_NIS_MAX exist, so what remote hosts make us create stays
 * bounded.  "lnetctl peer del" frees an idle one at once; unconfigure
 * frees them all.
 *
 * Everything here runs under the LNet lock; the table is an rhashtable
 * keyed by the NID bytes lnet_nid_equal() compares.
 */
#include <linux/export.h>
#include <linux/moduleparam.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>

#include <lnet/ctl.h>
#include <lnet/lib-lnet.h>
#include <lnet/route.h>
#include <lnet/router.h>

#include "peer.h"

/* How often the reaper looks for idle peer NIs, at most. */
#define LNET_PEER_REAP_INTERVAL	(10 * HZ)

static unsigned int peer_idle_timeout = 300;
module_param(peer_idle_timeout, uint, 0644);
MODULE_PARM_DESC(peer_idle_timeout,
		 "Seconds after which a peer NI that is not used is freed (0: never)");

static const struct rhashtable_params lnet_peer_ni_params = {
	.key_len		= sizeof(struct lnet_nid),
	.key_offset		= offsetof(struct lnet_peer_ni, lpni_nid),
	.head_offset		= offsetof(struct lnet_peer_ni, lpni_node),
	.hashfn			= lnet_nid_rht_hashfn,
	.obj_cmpfn		= lnet_nid_rht_cmpfn,
	.automatic_shrinking	= true,
};

/**
 * lnet_peer_ni_find_locked() - the peer NI of a NID, if there is one
 * @nid: the remote NID
 *
 * Return: the peer NI or NULL.
 */
struct lnet_peer_ni *lnet_peer_ni_find_locked(const struct lnet_nid *nid)
{
	return rhashtable_lookup_fast(&the_lnet.ln_peer_nis, nid,
				      lnet_peer_ni_params);
}
EXPORT_SYMBOL_GPL(lnet_peer_ni_find_locked);

static void lnet_peer_init(struct lnet_peer *lp, const struct lnet_nid *prim)
{
	static u64 lnet_peer_last_id;

	lp->lp_id = ++lnet_peer_last_id;
	lp->lp_primary_nid = *prim;
	INIT_LIST_HEAD(&lp->lp_nets);
	lnet_peer_dc_init(lp);
	list_add_tail(&lp->lp_list, &the_lnet.ln_peers);
}

/* Free @lp if it has no NIs left and no holder. */
static void lnet_peer_free_unused_locked(struct lnet_peer *lp)
{
	if (!list_empty(&lp->lp_nets) || lp->lp_refcount)
		return;
	list_del(&lp->lp_list);
	kfree(lp->lp_dc_data);
	kfree(lp);
}

/**
 * lnet_peer_put_locked() - drop a hold on a peer (lp_refcount)
 * @lp: the peer; freed if it has no NIs left and no other holder
 */
void lnet_peer_put_locked(struct lnet_peer *lp)
{
	WARN_ON(lp->lp_refcount <= 0);
	lp->lp_refcount--;
	lnet_peer_free_unused_locked(lp);
}

static void lnet_peer_net_init(struct lnet_peer_net *lpn, struct lnet_peer *lp,
			       u32 net_id)
{
	lpn->lpn_peer = lp;
	lpn->lpn_net_id = net_id;
	INIT_LIST_HEAD(&lpn->lpn_peer_nis);
	list_add_tail(&lpn->lpn_list, &lp->lp_nets);
}

static void lnet_peer_ni_init(struct lnet_peer_ni *lpni,
			      const struct lnet_nid *nid, int credits)
{
	lpni->lpni_nid = *nid;
	lpni->lpni_last_used = jiffies;
	lpni->lpni_pref_nid = LNET_ANY_NID;
	lpni->lpni_healthv = LNET_MAX_HEALTH_VALUE;
	lpni->lpni_ns_status = LNET_NI_STATUS_UP;
	/* Routing spec 4.7: DOWN to a router until heard from, if asked. */
	lpni->lpni_lnd_down = lnet_check_routers_before_use();
	INIT_LIST_HEAD(&lpni->lpni_recovery);
	lnet_credits_init(&lpni->lpni_txc, credits);
}

static void lnet_peer_ni_attach(struct lnet_peer_ni *lpni,
				struct lnet_peer_net *lpn)
{
	lpni->lpni_peer_net = lpn;
	list_add_tail(&lpni->lpni_list, &lpn->lpn_peer_nis);
}

/* A peer's net of @net_id, if it has one. */
struct lnet_peer_net *lnet_peer_net_find(const struct lnet_peer *lp,
					 u32 net_id)
{
	struct lnet_peer_net *lpn;

	list_for_each_entry(lpn, &lp->lp_nets, lpn_list)
		if (lpn->lpn_net_id == net_id)
			return lpn;
	return NULL;
}

/**
 * lnet_peer_primary_nid_locked() - the primary NID of @nid's peer
 * @nid: a remote NID
 *
 * Return: the primary NID of the peer @nid belongs to, or @nid itself
 * if it is no known peer's.
 */
const struct lnet_nid *lnet_peer_primary_nid_locked(const struct lnet_nid *nid)
{
	struct lnet_peer_ni *lpni = lnet_peer_ni_find_locked(nid);

	return lpni ? &lnet_peer_of(lpni)->lp_primary_nid : nid;
}

/**
 * lnet_peer_primary_get() - the primary NID of the peer a NID belongs to
 * @nid: a remote NID
 * @prim: out: the primary NID; @nid if no peer has it
 *
 * Context: Process context or softirq.
 */
void lnet_peer_primary_get(const struct lnet_nid *nid, struct lnet_nid *prim)
{
	lnet_lock();
	*prim = *lnet_peer_primary_nid_locked(nid);
	lnet_unlock();
}
EXPORT_SYMBOL(lnet_peer_primary_get);

/*
 * Free the NIs of @lp that @pick chooses, then its peer nets left empty,
 * then @lp if it has none left and no holder: a peer net lives while it
 * has NIs, a peer while it has NIs or holders.  The caller iterates over
 * peers with a _safe loop.
 */
void lnet_peer_free_nis_locked(struct lnet_peer *lp,
			       bool (*pick)(const struct lnet_peer_ni *,
					    const void *),
			       const void *arg)
{
	struct lnet_peer_net *lpn, *tmp_lpn;
	struct lnet_peer_ni *lpni, *tmp;

	list_for_each_entry_safe(lpn, tmp_lpn, &lp->lp_nets, lpn_list) {
		list_for_each_entry_safe(lpni, tmp, &lpn->lpn_peer_nis,
					 lpni_list) {
			if (!pick(lpni, arg))
				continue;
			WARN_ON(lnet_peer_ni_busy(lpni));
			rhashtable_remove_fast(&the_lnet.ln_peer_nis,
					       &lpni->lpni_node,
					       lnet_peer_ni_params);
			list_del(&lpni->lpni_list);
			list_del(&lpni->lpni_recovery);
			kfree(lpni);
		}
		if (list_empty(&lpn->lpn_peer_nis)) {
			list_del(&lpn->lpn_list);
			kfree(lpn);
		}
	}
	lnet_peer_free_unused_locked(lp);
}

/**
 * lnet_peer_ni_get_locked() - the peer NI of a NID, created on first use
 * @nid: the remote NID
 * @ni: the local NI used to reach it, whose peer_credits size a new peer
 *	NI; NULL for a NID behind a router (lnet_net_peer_credits_locked())
 *
 * The caller takes a reference (lpni_refcount) for the message that
 * will use it.
 *
 * Return: the peer NI, or NULL when out of memory or at the table's
 * bound.
 */
struct lnet_peer_ni *lnet_peer_ni_get_locked(const struct lnet_nid *nid,
					     const struct lnet_ni *ni)
{
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	struct lnet_peer *lp;

	lpni = lnet_peer_ni_find_locked(nid);
	if (lpni)
		return lpni;
	if (atomic_read(&the_lnet.ln_peer_nis.nelems) >= LNET_PEER_NIS_MAX) {
		pr_warn_ratelimited("LNet: %d peer NIs, no more\n",
				    LNET_PEER_NIS_MAX);
		return NULL;
	}

	lp = kzalloc(sizeof(*lp), GFP_ATOMIC);
	lpn = kzalloc(sizeof(*lpn), GFP_ATOMIC);
	lpni = kzalloc(sizeof(*lpni), GFP_ATOMIC);
	if (!lp || !lpn || !lpni)
		goto fail;
	lnet_peer_ni_init(lpni, nid, ni ? ni->ni_tunables.peer_credits :
				     lnet_net_peer_credits_locked(lnet_nid_net(nid)));
	if (rhashtable_insert_fast(&the_lnet.ln_peer_nis, &lpni->lpni_node,
				   lnet_peer_ni_params))
		goto fail;

	lnet_peer_init(lp, nid);
	lnet_peer_net_init(lpn, lp, lnet_nid_net(nid));
	lnet_peer_ni_attach(lpni, lpn);
	return lpni;

fail:
	kfree(lp);
	kfree(lpn);
	kfree(lpni);
	return NULL;
}

/**
 * lnet_peer_ni_put_locked() - a message is done with its peer NI
 * @lpni: the peer NI
 */
void lnet_peer_ni_put_locked(struct lnet_peer_ni *lpni)
{
	WARN_ON(lpni->lpni_refcount <= 0);
	lpni->lpni_refcount--;
	lpni->lpni_last_used = jiffies;
}

/* Nothing uses @lpni and nothing has for *@arg jiffies. */
static bool lnet_peer_ni_idle(const struct lnet_peer_ni *lpni,
			      const void *arg)
{
	unsigned long idle = *(const unsigned long *)arg;

	return !lpni->lpni_configured && !lpni->lpni_refcount &&
	       list_empty(&lpni->lpni_txc.queue) &&
	       time_after(jiffies, lpni->lpni_last_used + idle);
}

bool lnet_peer_ni_any(const struct lnet_peer_ni *lpni, const void *arg)
{
	return true;
}

bool lnet_peer_ni_is(const struct lnet_peer_ni *lpni, const void *arg)
{
	return lnet_nid_equal(&lpni->lpni_nid, arg);
}

/*
 * For lnet_peer_free_nis_locked(): a NID not kept by *@arg (a struct
 * lnet_peer_keep), unless configured or in use.
 */
bool lnet_peer_ni_unkept(const struct lnet_peer_ni *lpni, const void *arg)
{
	const struct lnet_peer_keep *k = arg;
	unsigned int i;

	if (lpni->lpni_configured || lnet_peer_ni_busy(lpni) ||
	    (k->also && lnet_nid_equal(&lpni->lpni_nid, k->also)))
		return false;
	for (i = 0; i < k->n; i++)
		if (lnet_nid_equal(&lpni->lpni_nid, &k->nids[i]))
			return false;
	return true;
}

/*
 * Call @fn on each peer NI, in peer order, until it returns true; @fn
 * frees none.  Return: the peer NI it returned true for, or NULL.
 */
struct lnet_peer_ni *
lnet_peer_ni_visit_locked(bool (*fn)(struct lnet_peer_ni *, void *),
			  void *arg)
{
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	struct lnet_peer *lp;

	list_for_each_entry(lp, &the_lnet.ln_peers, lp_list)
		list_for_each_entry(lpn, &lp->lp_nets, lpn_list)
			list_for_each_entry(lpni, &lpn->lpn_peer_nis,
					    lpni_list)
				if (fn(lpni, arg))
					return lpni;
	return NULL;
}

static void lnet_peer_reaper(struct work_struct *work)
{
	unsigned long idle = lnet_secs_to_jiffies(READ_ONCE(peer_idle_timeout));
	struct lnet_peer *lp, *tmp;
	bool running;

	lnet_lock();
	if (idle)
		list_for_each_entry_safe(lp, tmp, &the_lnet.ln_peers, lp_list)
			lnet_peer_free_nis_locked(lp, lnet_peer_ni_idle, &idle);
	running = the_lnet.ln_state == LNET_STATE_RUNNING;
	lnet_unlock();
	if (running)
		lnet_peers_start();
}

/**
 * lnet_peers_init() - set up the empty peer table (module load)
 *
 * Return: 0 or -ENOMEM.
 */
int lnet_peers_init(void)
{
	INIT_DELAYED_WORK(&the_lnet.ln_peer_reaper, lnet_peer_reaper);
	return rhashtable_init(&the_lnet.ln_peer_nis, &lnet_peer_ni_params);
}

/* The peer table of the module, empty (module unload). */
void lnet_peers_fini(void)
{
	rhashtable_destroy(&the_lnet.ln_peer_nis);
}

/* LNet runs: the reaper's next round, within the idle timeout. */
void lnet_peers_start(void)
{
	unsigned long idle = lnet_secs_to_jiffies(READ_ONCE(peer_idle_timeout));

	schedule_delayed_work(&the_lnet.ln_peer_reaper,
			      clamp(idle, (unsigned long)HZ,
				    (unsigned long)LNET_PEER_REAP_INTERVAL));
}

static bool lnet_peer_ni_reset_stats(struct lnet_peer_ni *lpni, void *arg)
{
	memset(&lpni->lpni_stats, 0, sizeof(lpni->lpni_stats));
	memset(&lpni->lpni_hstats, 0, sizeof(lpni->lpni_hstats));
	lnet_credits_reset_min(&lpni->lpni_txc);
	return false;
}

/* Clear every peer NI's counters and latency, restart its credit minimum. */
void lnet_peers_reset_stats_locked(void)
{
	lnet_peer_ni_visit_locked(lnet_peer_ni_reset_stats, NULL);
}

struct lnet_peer_drain {
	const struct lnet_ni	*ni;
	struct list_head	*out;
};

static bool lnet_peer_ni_drain(struct lnet_peer_ni *lpni, void *arg)
{
	struct lnet_peer_drain *d = arg;
	struct lnet_msg *msg, *tmp;

	list_for_each_entry_safe(msg, tmp, &lpni->lpni_txc.queue, msg_list) {
		if (msg->msg_txni != d->ni)
			continue;
		lnet_credits_unqueue(&lpni->lpni_txc, &msg->msg_list);
		msg->msg_peertxcredit = false;
		lpni->lpni_txqnob -= lnet_msg_txqnob(msg);
		list_add_tail(&msg->msg_list, d->out);
	}
	return false;
}

/**
 * lnet_peers_drain_ni_locked() - take off the peer NIs what would leave by @ni
 * @ni: a local NI being stopped, which no send can choose any more
 * @out: the messages that waited for a peer NI credit to leave by @ni are
 *	moved here, holding no peer credit, in each peer NI's queue order
 *
 * A peer NI is keyed by its NID and can be reached through several local
 * NIs, so its queue mixes messages of several; only @ni's go.
 */
void lnet_peers_drain_ni_locked(const struct lnet_ni *ni,
				struct list_head *out)
{
	struct lnet_peer_drain d = { .ni = ni, .out = out };

	lnet_peer_ni_visit_locked(lnet_peer_ni_drain, &d);
}

/* Free every peer (unconfigure); no message may refer to one. */
void lnet_peers_free(void)
{
	struct lnet_peer *lp, *tmp;

	cancel_delayed_work_sync(&the_lnet.ln_peer_reaper);
	lnet_lock();
	list_for_each_entry_safe(lp, tmp, &the_lnet.ln_peers, lp_list)
		lnet_peer_free_nis_locked(lp, lnet_peer_ni_any, NULL);
	/* Discoveries ended before (lnet_discovery_stop()): no holder. */
	WARN_ON(!list_empty(&the_lnet.ln_peers));
	lnet_unlock();
}

struct lnet_peer_ni_rtr_walk {
	const struct lnet_peer_ni	*lpni;
	struct lnet_peer_ni_info	*info;
};

/* Add @nid to the preferred gateways of the walk's peer NI if a rule says. */
static void lnet_peer_ni_rtr_add(struct lnet_peer_ni_rtr_walk *w,
				 const struct lnet_nid *nid)
{
	struct lnet_peer_ni_info *info = w->info;
	unsigned int i;

	if (!lnet_udsp_rte_find(&the_lnet.ln_udsp, &w->lpni->lpni_nid, nid))
		return;
	for (i = 0; i < info->udsp_nrtr; i++)
		if (lnet_nid_equal(&info->udsp_rtr[i], nid))
			return;
	if (info->udsp_nrtr < LNET_CTL_PREF_MAX)
		info->udsp_rtr[info->udsp_nrtr++] = *nid;
}

/*
 * A route's gateway: its NIDs (the one it was added with while the peer
 * table does not know it) that a router preference gives the peer NI,
 * stock's lpni_rtr_pref_nids.  Under the LNet lock.
 */
static void lnet_peer_ni_rtr_one(struct lnet_route *r, void *arg)
{
	struct lnet_peer_ni_rtr_walk *w = arg;
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *gw;
	struct lnet_peer *lp;

	gw = lnet_peer_ni_find_locked(&r->lr_gateway);
	if (!gw) {
		lnet_peer_ni_rtr_add(w, &r->lr_gateway);
		return;
	}
	lp = lnet_peer_of(gw);
	list_for_each_entry(lpn, &lp->lp_nets, lpn_list)
		list_for_each_entry(gw, &lpn->lpn_peer_nis, lpni_list)
			lnet_peer_ni_rtr_add(w, &gw->lpni_nid);
}

/* What the UDSP rules give @lpni ("peer show -v 4"). */
static void lnet_peer_ni_fill_udsp(const struct lnet_peer_ni *lpni,
				   struct lnet_peer_ni_info *info)
{
	const struct lnet_net *net;
	const struct lnet_ni *ni;

	info->udsp_net_prio = lnet_udsp_prio_find(&the_lnet.ln_udsp,
						  LNET_UDSP_DST, true,
						  &lpni->lpni_nid,
						  lnet_nid_net(&lpni->lpni_nid));
	info->udsp_nid_prio = lnet_udsp_prio_find(&the_lnet.ln_udsp,
						  LNET_UDSP_DST, false,
						  &lpni->lpni_nid, LNET_NET_ANY);
	info->udsp_npref = 0;
	list_for_each_entry(net, &the_lnet.ln_nets, net_list)
		list_for_each_entry(ni, &net->net_nis, ni_list)
			if (info->udsp_npref < LNET_CTL_PREF_MAX &&
			    lnet_udsp_preferred(lpni, ni))
				info->udsp_pref[info->udsp_npref++] = ni->ni_nid;
	info->udsp_nrtr = 0;
	if (lnet_udsp_rte_find(&the_lnet.ln_udsp, &lpni->lpni_nid,
			       &LNET_ANY_NID)) {
		struct lnet_peer_ni_rtr_walk w = { .lpni = lpni, .info = info };

		lnet_route_table_for_each(lnet_node_routes(),
					  lnet_peer_ni_rtr_one, &w);
	}
}

static void lnet_peer_ni_fill_info(const struct lnet_peer_ni *lpni,
				   struct lnet_peer_ni_info *info)
{
	const struct lnet_ni_stats *s = &lpni->lpni_stats;
	const struct lnet_msg *msg;

	info->txq_bytes = 0;
	list_for_each_entry(msg, &lpni->lpni_txc.queue, msg_list)
		info->txq_bytes += msg->msg_len;
	info->primary_nid = lnet_peer_of(lpni)->lp_primary_nid;
	info->peer_state = lnet_peer_of(lpni)->lp_state;
	info->multi_rail = info->peer_state & LNET_PEER_MULTI_RAIL;
	info->nid = lpni->lpni_nid;
	info->refcount = lpni->lpni_refcount;
	info->tx_credits_max = lpni->lpni_txc.max;
	info->tx_credits = lpni->lpni_txc.credits;
	info->tx_credits_min = lpni->lpni_txc.min;
	lnet_rtr_credits_info_locked(lpni, &info->rtr_credits,
				     &info->rtr_credits_min);
	info->send_count = s->send_count;
	info->recv_count = s->recv_count;
	info->drop_count = s->drop_count;
	memcpy(info->sent, s->sent, sizeof(info->sent));
	memcpy(info->received, s->received, sizeof(info->received));
	memcpy(info->dropped, s->dropped, sizeof(info->dropped));
	memcpy(info->lat, s->lat, sizeof(info->lat));
	lnet_peer_ni_fill_udsp(lpni, info);
	info->healthv = lpni->lpni_healthv;
	info->ns_status = lpni->lpni_ns_status;
	info->lnd_down = lpni->lpni_lnd_down;
	info->alive_state = lnet_peer_ni_alive_state_locked(lpni);
	info->hstats = lpni->lpni_hstats;
	info->ping_count = lpni->lpni_ping_count;
	info->next_ping = list_empty(&lpni->lpni_recovery) ? 0 :
			  lnet_jiffies_to_mono_secs(lpni->lpni_next_ping);
}

/* The first NI of the first peer from @lp on that has one, or NULL. */
static struct lnet_peer_ni *lnet_peer_ni_first_from(struct lnet_peer *lp,
						    struct lnet_peer_ni_cursor *c)
{
	struct lnet_peer_net *lpn;

	list_for_each_entry_from(lp, &the_lnet.ln_peers, lp_list) {
		c->steps++;
		lpn = list_first_entry_or_null(&lp->lp_nets,
					       struct lnet_peer_net, lpn_list);
		if (lpn)	/* a peer net is never empty */
			return list_first_entry(&lpn->lpn_peer_nis,
						struct lnet_peer_ni,
						lpni_list);
	}
	return NULL;
}

/* The NI after @lpni in its peer, or NULL. */
static struct lnet_peer_ni *lnet_peer_ni_after(struct lnet_peer_ni *lpni)
{
	struct lnet_peer_net *lpn = lpni->lpni_peer_net;

	if (!list_is_last(&lpni->lpni_list, &lpn->lpn_peer_nis))
		return list_next_entry(lpni, lpni_list);
	if (list_is_last(&lpn->lpn_list, &lpn->lpn_peer->lp_nets))
		return NULL;
	lpn = list_next_entry(lpn, lpn_list);
	return list_first_entry(&lpn->lpn_peer_nis, struct lnet_peer_ni,
				lpni_list);
}

/*
 * The cursor's peer NI when it is gone or moved to another peer: its
 * peer's @idx-th NI, or the first NI of the peers after (ids increase
 * along ln_peers).  A walk from the first peer, taken only then.
 */
static struct lnet_peer_ni *
lnet_peer_ni_resume(struct lnet_peer_ni_cursor *c, u32 *idx)
{
	struct lnet_peer_ni *lpni;
	struct lnet_peer *lp;
	u32 i;

	*idx = 0;
	list_for_each_entry(lp, &the_lnet.ln_peers, lp_list) {
		c->steps++;
		if (lp->lp_id < c->peer_id)
			continue;
		if (lp->lp_id > c->peer_id)
			return c->one_peer ? NULL : lnet_peer_ni_first_from(lp, c);
		lpni = lnet_peer_ni_first_from(lp, c);
		for (i = 0; lpni && lnet_peer_of(lpni) == lp && i < c->idx; i++)
			lpni = lnet_peer_ni_after(lpni);
		if (lpni && lnet_peer_of(lpni) == lp) {
			*idx = i;
			return lpni;
		}
		if (c->one_peer || list_is_last(&lp->lp_list,
						&the_lnet.ln_peers))
			return NULL;
		return lnet_peer_ni_first_from(list_next_entry(lp, lp_list), c);
	}
	return NULL;
}

/* Point @c at @lpni, or at the end if NULL. */
static void lnet_peer_ni_cursor_set(struct lnet_peer_ni_cursor *c,
				    const struct lnet_peer_ni *lpni, u32 idx)
{
	if (!lpni) {
		c->done = true;
		return;
	}
	c->peer_id = lnet_peer_of(lpni)->lp_id;
	c->nid = lpni->lpni_nid;
	c->idx = idx;
}

/**
 * lnet_peer_ni_cursor_peer() - walk only the NIs of one peer
 * @c: a zeroed cursor
 * @nid: a NID of the peer
 *
 * Context: Process context or softirq.
 * Return: 0, or -ENOENT if no peer has @nid (@c is then at the end).
 */
int lnet_peer_ni_cursor_peer(struct lnet_peer_ni_cursor *c,
			     const struct lnet_nid *nid)
{
	struct lnet_peer_ni *lpni;

	c->one_peer = true;
	lnet_lock();
	lpni = lnet_peer_ni_find_locked(nid);
	if (lpni)
		lpni = lnet_peer_ni_first_from(lnet_peer_of(lpni), c);
	lnet_peer_ni_cursor_set(c, lpni, 0);
	lnet_unlock();
	return lpni ? 0 : -ENOENT;
}
EXPORT_SYMBOL(lnet_peer_ni_cursor_peer);

/**
 * lnet_peer_ni_info_next() - a snapshot of the peer NI at @c, and move on
 * @c: the cursor: zeroed to start (peer order, then each peer's NIs)
 * @info: filled in
 *
 * Each call costs the same whatever the cursor's place ("peer show" of
 * n peer NIs is O(n), under the LNet lock only one NI at a time).
 *
 * Context: Process context or softirq.
 * Return: 0, or -ENOENT past the last one.
 */
int lnet_peer_ni_info_next(struct lnet_peer_ni_cursor *c,
			   struct lnet_peer_ni_info *info)
{
	struct lnet_peer_ni *lpni, *next;
	u32 idx;

	if (c->done)
		return -ENOENT;
	lnet_lock();
	if (!c->peer_id) {
		lpni = list_empty(&the_lnet.ln_peers) ? NULL :
		       lnet_peer_ni_first_from(list_first_entry(&the_lnet.ln_peers,
								struct lnet_peer,
								lp_list), c);
		idx = 0;
	} else {
		c->steps++;
		lpni = lnet_peer_ni_find_locked(&c->nid);
		idx = c->idx;
		if (!lpni || lnet_peer_of(lpni)->lp_id != c->peer_id)
			lpni = lnet_peer_ni_resume(c, &idx);
	}
	if (!lpni) {
		c->done = true;
		lnet_unlock();
		return -ENOENT;
	}
	lnet_peer_ni_fill_info(lpni, info);
	next = lnet_peer_ni_after(lpni);
	if (next) {
		lnet_peer_ni_cursor_set(c, next, idx + 1);
	} else {
		struct lnet_peer *lp = lnet_peer_of(lpni);

		next = c->one_peer || list_is_last(&lp->lp_list,
						   &the_lnet.ln_peers) ? NULL :
		       lnet_peer_ni_first_from(list_next_entry(lp, lp_list), c);
		lnet_peer_ni_cursor_set(c, next, 0);
	}
	lnet_unlock();
	return 0;
}
EXPORT_SYMBOL(lnet_peer_ni_info_next);

/**
 * lnet_peer_ni_reset_mins() - every peer NI's low-water marks to now
 *
 * Its tx credits' and router credits' minimums become their values now
 * (a write to debugfs "peers", as stock's: routing spec 9).
 *
 * Context: Process context.
 */
void lnet_peer_ni_reset_mins(void)
{
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	struct lnet_peer *lp;

	lnet_lock();
	list_for_each_entry(lp, &the_lnet.ln_peers, lp_list)
		list_for_each_entry(lpn, &lp->lp_nets, lpn_list)
			list_for_each_entry(lpni, &lpn->lpn_peer_nis,
					    lpni_list) {
				lpni->lpni_txc.min = lpni->lpni_txc.credits;
				lpni->lpni_rtrc.min = lpni->lpni_rtrc.credits;
			}
	lnet_unlock();
}

static unsigned int lnet_peer_nnis(const struct lnet_peer *lp)
{
	const struct lnet_peer_net *lpn;
	const struct lnet_peer_ni *lpni;
	unsigned int n = 0;

	list_for_each_entry(lpn, &lp->lp_nets, lpn_list)
		list_for_each_entry(lpni, &lpn->lpn_peer_nis, lpni_list)
			n++;
	return n;
}

/*
 * May @lpni join peer @to (NULL: a new one)?  If it is @to's already, or
 * the only NID of a peer that traffic made: that peer was just this NID
 * seen on the wire, and discovery would merge it the same way.
 */
bool lnet_peer_ni_movable(const struct lnet_peer_ni *lpni,
			  const struct lnet_peer *to)
{
	const struct lnet_peer *lp = lnet_peer_of(lpni);

	return lp == to || (!(lp->lp_state & LNET_PEER_CONFIGURED) &&
			    lnet_peer_nnis(lp) == 1);
}

void lnet_peer_spares_free(struct lnet_peer_spares *sp)
{
	struct lnet_peer_net *lpn, *tmp_lpn;
	struct lnet_peer_ni *lpni, *tmp;

	kfree(sp->lp);
	list_for_each_entry_safe(lpn, tmp_lpn, &sp->lpns, lpn_list)
		kfree(lpn);
	list_for_each_entry_safe(lpni, tmp, &sp->lpnis, lpni_list)
		kfree(lpni);
}

int lnet_peer_spares_alloc(struct lnet_peer_spares *sp, unsigned int n)
{
	unsigned int i;

	INIT_LIST_HEAD(&sp->lpns);
	INIT_LIST_HEAD(&sp->lpnis);
	sp->lp = kzalloc(sizeof(*sp->lp), GFP_KERNEL);
	if (!sp->lp)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct lnet_peer_net *lpn = kzalloc(sizeof(*lpn), GFP_KERNEL);
		struct lnet_peer_ni *lpni = kzalloc(sizeof(*lpni), GFP_KERNEL);

		if (lpn)
			list_add(&lpn->lpn_list, &sp->lpns);
		if (lpni)
			list_add(&lpni->lpni_list, &sp->lpnis);
		if (!lpn || !lpni)
			return -ENOMEM;
	}
	return 0;
}

/* @lp's net of @net_id, made from a spare if it has none. */
static struct lnet_peer_net *lnet_peer_net_get(struct lnet_peer *lp,
					       u32 net_id,
					       struct lnet_peer_spares *sp)
{
	struct lnet_peer_net *lpn = lnet_peer_net_find(lp, net_id);

	if (lpn)
		return lpn;
	lpn = list_first_entry(&sp->lpns, struct lnet_peer_net, lpn_list);
	list_del(&lpn->lpn_list);
	lnet_peer_net_init(lpn, lp, net_id);
	return lpn;
}

/*
 * Take @lpni off its peer net, freeing the net it leaves empty, and the
 * peer if it has no holder either.
 */
void lnet_peer_ni_detach(struct lnet_peer_ni *lpni)
{
	struct lnet_peer_net *lpn = lpni->lpni_peer_net;
	struct lnet_peer *lp = lpn->lpn_peer;

	list_del(&lpni->lpni_list);
	if (list_empty(&lpn->lpn_peer_nis)) {
		list_del(&lpn->lpn_list);
		kfree(lpn);
	}
	lnet_peer_free_unused_locked(lp);
}

/**
 * lnet_peer_take_nid_locked() - make @nid a NID of @lp
 * @lp: the peer
 * @nid: a NID: of @lp already, of a peer lnet_peer_ni_movable() allows
 *	to take it from, or new (made from @sp)
 * @sp: spares with at least one peer NI and one peer net left
 *
 * Return: its peer NI.
 */
struct lnet_peer_ni *lnet_peer_take_nid_locked(struct lnet_peer *lp,
					       const struct lnet_nid *nid,
					       struct lnet_peer_spares *sp)
{
	struct lnet_peer_ni *lpni = lnet_peer_ni_find_locked(nid);
	u32 net_id = lnet_nid_net(nid);

	if (lpni && lnet_peer_of(lpni) != lp) {
		lnet_peer_ni_detach(lpni);
		lnet_peer_ni_attach(lpni, lnet_peer_net_get(lp, net_id, sp));
	} else if (!lpni) {
		lpni = list_first_entry(&sp->lpnis, struct lnet_peer_ni,
					lpni_list);
		list_del(&lpni->lpni_list);
		lnet_peer_ni_init(lpni, nid, lnet_net_peer_credits_locked(net_id));
		/* Cannot fail: the key is new and the table grows lazily. */
		WARN_ON(rhashtable_insert_fast(&the_lnet.ln_peer_nis,
					       &lpni->lpni_node,
					       lnet_peer_ni_params));
		lnet_peer_ni_attach(lpni, lnet_peer_net_get(lp, net_id, sp));
	}
	return lpni;
}

/**
 * lnet_peer_new_locked() - a new peer, from @sp, in the table
 * @prim: its primary NID (the caller makes it one of its NIDs)
 * @sp: spares with the peer left
 *
 * Return: the peer, with no NI yet.
 */
struct lnet_peer *lnet_peer_new_locked(const struct lnet_nid *prim,
				       struct lnet_peer_spares *sp)
{
	struct lnet_peer *lp = sp->lp;

	sp->lp = NULL;
	lnet_peer_init(lp, prim);
	return lp;
}
