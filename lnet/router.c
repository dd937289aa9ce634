// SPDX-License-Identifier: GPL-2.0
/*
 * Forwarding (routing spec 4): a message whose dest_nid is not ours,
 * received while routing is enabled, is stored in a router buffer and
 * sent on, its header unchanged, to the next hop: the destination itself
 * when its net is one of ours, else the gateway the route table chooses.
 *
 * One forwarded message's way, all of it under the LNet lock but the LND
 * calls:
 *
 *   lnet_parse() -> lnet_fwd_check_locked() (spec 4.1 rows 3-6)
 *   -> lnet_fwd_start(): a router credit of the previous hop's peer NI,
 *      or wait on it (FIFO) -> a pool credit and buffer (rtrbuf.c), or
 *      wait on the pool (FIFO)
 *   -> the LND's lnd_recv() into the buffer's pages (lnet_fwd_recv_rc())
 *   -> lnet_finalize() of the receive: lnet_fwd_send(): a PUT or GET
 *      on a portal other than 0 may first wait for its destination's
 *      discovery (spec 4.4, lnet_fwd_resume() then), then the usual tx
 *      credits (credits.c)
 *   -> lnet_finalize() of the send: tx credits, then the buffer (to the
 *      pool's oldest waiter), then the router credit (to the peer NI's
 *      oldest waiter): lnet_fwd_release_locked().
 *
 * Until its lnd_recv() comes, a waiting message holds its LND's receive
 * context: socklnd stops reading that connection, o2iblnd keeps the
 * receive buffer and so the sender's credit.  What waits is therefore
 * bounded by the LNDs' own flow control, not by what a peer sends.
 *
 * Routing states (spec 5.1; lnet_routing_next() decides the moves):
 * "set routing 1" makes or refills the pools and STARTs: forwarding at
 * once, while the ping buffer still says RTE_DISABLED, so that a peer
 * learns that we route only once our NIs had a window W to be pinged
 * (spec 6.7); the router checker ENABLEs after W and pushes the news.
 * "set routing 0" STOPs: RTE_DISABLED is advertised at once (no push:
 * peers see it at their next check) while forwarding goes on for at
 * least W, so that what they send meanwhile is not lost; the checker
 * then DISABLEs (once the tiny pool is idle, or after 3 W at the latest):
 * the pools' buffers are freed and messages still waiting are dropped.
 * W is the router checker's window, alive_router_check_interval +
 * router_ping_timeout (lnet_rtr_window()).  LNet started with
 * forwarding= enables directly (spec 5.2); LNet's stop disables at once.
 */
#include <linux/export.h>
#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

#include <net/netlink.h>

#include <kunit/visibility.h>

#include <lnet/lib-lnet.h>
#include <lnet/route.h>
#include <lnet/router.h>

static char *forwarding = "";
module_param(forwarding, charp, 0444);
MODULE_PARM_DESC(forwarding, "Explicitly enable/disable forwarding between networks");

static int peer_buffer_credits;
module_param(peer_buffer_credits, int, 0444);
MODULE_PARM_DESC(peer_buffer_credits,
		 "# router buffer credits per peer (0: the net's peer_credits)");

static enum lnet_routing_state lnet_routing = LNET_ROUTING_DISABLED;
/* When the router checker first saw the STARTING or STOPPING state. */
static unsigned long lnet_routing_t0;
static bool lnet_routing_t0_set;

/**
 * lnet_routing_state() - the routing state, for "routing show"
 *
 * Return: enum lnet_routing_state.
 */
enum lnet_routing_state lnet_routing_state(void)
{
	return READ_ONCE(lnet_routing);
}

/**
 * lnet_routing_forwards() - are messages not for us forwarded?
 *
 * STARTING and STOPPING forward too (spec 5.1).
 *
 * Return: true unless routing is DISABLED.
 */
bool lnet_routing_forwards(void)
{
	return READ_ONCE(lnet_routing) != LNET_ROUTING_DISABLED;
}
EXPORT_SYMBOL_GPL(lnet_routing_forwards);

/**
 * lnet_rtr_peer_credits() - router credits of a peer NI on @ni's net
 * @ni: the NI its messages arrive on
 *
 * Spec 4.3: the net's peer_buffer_credits, else lnet.ko's, else the
 * net's peer_credits; the first that is positive.
 *
 * Return: the credits.
 */
int lnet_rtr_peer_credits(const struct lnet_ni *ni)
{
	int n = READ_ONCE(peer_buffer_credits);

	if (ni->ni_tunables.peer_buffer_credits > 0)
		return ni->ni_tunables.peer_buffer_credits;
	return n > 0 ? n : ni->ni_tunables.peer_credits;
}

/**
 * lnet_rtr_credits_info_locked() - a peer NI's router credits, for show
 * @lpni: the peer NI
 * @avail: out: its credits now (all of them until it sends us a message
 *	to forward)
 * @min: out: their low-water mark
 */
void lnet_rtr_credits_info_locked(const struct lnet_peer_ni *lpni,
				  s32 *avail, s32 *min)
{
	struct lnet_net *net;
	struct lnet_ni *ni;

	if (lpni->lpni_rtrc_set) {
		*avail = lpni->lpni_rtrc.credits;
		*min = lpni->lpni_rtrc.min;
		return;
	}
	net = lnet_net_find_in(&the_lnet.ln_nets, lnet_nid_net(&lpni->lpni_nid));
	ni = net ? list_first_entry_or_null(&net->net_nis, struct lnet_ni,
					    ni_list) : NULL;
	*avail = ni ? lnet_rtr_peer_credits(ni) : 0;
	*min = *avail;
}

/**
 * lnet_fwd_check_locked() - may a message not for us be forwarded?
 * @ni: the NI it arrived on
 * @hdr: its header
 * @rdma_req: it arrived as an RDMA request (o2iblnd GET_REQ, PUT_REQ)
 * @eproto: out: the reason is a protocol error (the LND closes the
 *	connection), not a silent drop
 *
 * Spec 4.1 rows 3-6, in order.
 *
 * Return: 0 to forward it, or the drop reason (enum lnet_drop_reason).
 */
unsigned int lnet_fwd_check_locked(struct lnet_ni *ni,
				   const struct lnet_hdr *hdr, bool rdma_req,
				   bool *eproto)
{
	*eproto = true;
	/* 0@lo carries only our own NIDs; a peer on our net sends direct. */
	if (ni == the_lnet.ln_loni)
		return LNET_DROP_NOT_FOR_ME;
	if (lnet_nid_net(&hdr->dest_nid) == ni->ni_net->net_id)
		return LNET_DROP_NOT_FOR_ME;
	if (lnet_nid_is_local_locked(&hdr->dest_nid))
		return LNET_DROP_ROUTED_LOCAL;
	/* An RDMA GET's reply is written by its final destination only. */
	if (rdma_req && hdr->type == LNET_MSG_GET)
		return LNET_DROP_ROUTED_GET_REQ;
	*eproto = false;
	if (!lnet_routing_forwards())
		return LNET_DROP_NO_ROUTING;
	return 0;
}

/* Tell the LND to discard a message's payload: it is not received. */
static void lnet_fwd_discard(struct lnet_msg *msg)
{
	struct lnet_ni *ni = msg->msg_rxni;

	ni->ni_net->net_lnd->lnd_recv(ni, msg->msg_private, NULL, NULL, 0,
				      msg->msg_hdr.payload_length);
	msg->msg_private = NULL;
}

/*
 * @msg holds its router credit: take a pool credit and a buffer.  It
 * joins @rx when it holds one (or when it must be dropped: no buffer
 * left at all, routing now disabled, LNet stopping), or waits on the
 * pool.
 */
static void lnet_fwd_got_credit_locked(struct lnet_msg *msg,
				       struct list_head *rx)
{
	enum lnet_rtrpool_idx idx;
	struct lnet_rtrpool *rp;

	idx = lnet_rtrpool_idx(msg->msg_hdr.payload_length);
	rp = lnet_rtrpool_of(idx);
	if (!rp->rp_nbuffers || !lnet_routing_forwards() ||
	    the_lnet.ln_state != LNET_STATE_RUNNING) {
		list_add_tail(&msg->msg_list, rx);	/* to be dropped */
		return;
	}
	if (!lnet_rtrpool_take(rp, &msg->msg_list))
		return;
	lnet_rtrbuf_attach(msg, lnet_rtrpool_get_idle(rp));
	list_add_tail(&msg->msg_list, rx);
}

/**
 * lnet_fwd_start() - forward a message not for us
 * @msg: from lnet_parse(), holding its receiving NI, msg_from its
 *	previous hop; lnet_fwd_check_locked() said yes
 *
 * It takes a router credit of its previous hop's peer NI and a buffer,
 * or waits for them; its LND's lnd_recv() comes once it has both.
 *
 * Context: Process context or softirq; no LNet lock held.
 */
void lnet_fwd_start(struct lnet_msg *msg)
{
	struct lnet_ni *ni = msg->msg_rxni;
	struct lnet_peer_ni *lpni;
	LIST_HEAD(rx);

	msg->msg_routing = true;
	msg->msg_len = msg->msg_hdr.payload_length;
	lnet_lock();
	lpni = lnet_peer_ni_find_locked(&msg->msg_from);
	if (!lpni)
		lpni = lnet_peer_ni_get_locked(&msg->msg_from, ni);
	if (!lpni) {
		lnet_drop_count_locked(ni, LNET_DROP_NOMEM, msg->msg_type,
				       msg->msg_len);
		lnet_unlock();
		lnet_fwd_discard(msg);
		lnet_msg_free(msg);
		return;
	}
	lpni->lpni_lnd_down = false;	/* heard from (spec 4.7) */
	lpni->lpni_refcount++;		/* lnet_msg_free() drops it */
	msg->msg_rtrpeer = lpni;
	if (!lpni->lpni_rtrc_set) {
		lnet_credits_init(&lpni->lpni_rtrc, lnet_rtr_peer_credits(ni));
		lpni->lpni_rtrc_set = true;
	}
	msg->msg_rtrcredit = true;
	if (lnet_credits_take(&lpni->lpni_rtrc, &msg->msg_list))
		lnet_fwd_got_credit_locked(msg, &rx);
	lnet_unlock();
	lnet_fwd_rx_run(&rx);
}

/**
 * lnet_fwd_recv_rc() - hand a forwarded message's buffer to its LND
 * @msg: holding its router credit and buffer (msg_rtrbuf), or none to
 *	be dropped
 *
 * Return: 0 if the LND took it (it finalizes @msg when the payload is
 * in); else -errno: the caller finalizes @msg with it.
 */
int lnet_fwd_recv_rc(struct lnet_msg *msg)
{
	struct lnet_ni *ni = msg->msg_rxni;
	struct iov_iter it;
	int rc;

	if (!msg->msg_rtrbuf) {
		lnet_fwd_discard(msg);
		return -ECANCELED;
	}
	lnet_md_iter(msg->msg_md, ITER_DEST, 0, msg->msg_len, &it);
	rc = ni->ni_net->net_lnd->lnd_recv(ni, msg->msg_private, msg, &it,
					   msg->msg_len, msg->msg_len);
	return rc < 0 ? rc : 0;
}

/*
 * The next hop of a forwarded message (spec 4.4): its destination on one
 * of our nets (or another NI of it, MR forwarding, which the header then
 * names), else the route table's gateway, reached from any NI.
 * Spec 4.7: a next hop its LND reported down (lnet_notify()) takes none
 * until it is heard from again, nor one whose peer's ping data lists it
 * DOWN, when its net has a peer_timeout: the
 * message is dropped (-EHOSTDOWN here, counted as peer_down and on that
 * peer NI; the caller fails it with -EHOSTUNREACH, which counts the drop).
 */
static int lnet_fwd_path_locked(struct lnet_msg *msg)
{
	const struct lnet_nid *dst = &msg->msg_hdr.dest_nid;
	u32 net = lnet_nid_net(dst);
	struct lnet_peer_ni *lpni;
	struct lnet_nid next = *dst;
	struct lnet_ni *ni;
	int rc;

	if (the_lnet.ln_state != LNET_STATE_RUNNING)
		return -ESHUTDOWN;
	if (!lnet_net_find_in(&the_lnet.ln_nets, net)) {
		/* the originator's choice, from any of our nets (spec 4.4) */
		rc = lnet_route_next_hop_locked(dst, &LNET_ANY_NID,
						&LNET_ANY_NID, &next);
		if (rc)
			return rc;
	} else {
		/* MR forwarding (spec 4.4): the header names the NI chosen */
		lpni = lnet_select_fwd_final(&msg->msg_hdr);
		if (lpni) {
			msg->msg_hdr.dest_nid = lpni->lpni_nid;
			next = lpni->lpni_nid;
		}
	}
	/* Exactly @next (given as the hop), chosen above. */
	rc = lnet_select_pathway_locked(&next, &LNET_ANY_NID, &next, false,
					&ni, &lpni, NULL);
	if (rc)
		return rc;
	if (!lpni)		/* only our own NIDs go by 0@lo */
		return -EHOSTUNREACH;
	if (lnet_peer_ni_down_locked(lpni) && lnet_ni_tracks_aliveness(ni)) {
		the_lnet.ln_drops[LNET_DROP_PEER_DOWN]++;
		lpni->lpni_stats.drop_count++;
		lpni->lpni_stats.dropped[msg->msg_type]++;
		msg->msg_health_status = LNET_MSG_STATUS_REMOTE_DROPPED;
		return -EHOSTDOWN;
	}
	lpni->lpni_refcount++;	/* lnet_msg_free() drops both */
	ni->ni_refcount++;
	msg->msg_txni = ni;
	msg->msg_txpeer = lpni;
	msg->msg_target.nid = *dst;
	msg->msg_target.pid = msg->msg_hdr.dest_pid;
	return 0;
}

/*
 * Spec 4.4, discovery by the router: a PUT or GET on a portal other than
 * 0 waits, in its router buffer, for the discovery of its destination
 * (dest_nid's peer, however far) when that is not up to date and
 * discovery is on, as an originator's would (lnet_dc_hold_locked()).
 * ACK, REPLY and portal-0 traffic never wait.
 */
static struct lnet_peer *lnet_fwd_dc_hold_locked(struct lnet_msg *msg)
{
	const struct lnet_hdr *hdr = &msg->msg_hdr;
	unsigned int portal;

	if (hdr->type == LNET_MSG_PUT)
		portal = hdr->msg.put.ptl_index;
	else if (hdr->type == LNET_MSG_GET)
		portal = hdr->msg.get.ptl_index;
	else
		return NULL;
	msg->msg_target.nid = hdr->dest_nid;
	return lnet_dc_hold_locked(msg, portal);
}

/*
 * Send a forwarded message on, after its destination's discovery if it
 * needs one (@may_hold) and that is not up to date.  A failure finalizes
 * @msg with the error, which counts it as dropped.
 */
static void lnet_fwd_send_on(struct lnet_msg *msg, bool may_hold)
{
	struct lnet_peer *lp = NULL;
	bool go = false;
	int rc;

	lnet_lock();
	if (may_hold)
		lp = lnet_fwd_dc_hold_locked(msg);
	if (lp && !IS_ERR(lp)) {
		lnet_dc_hold_msg_locked(lp, msg);
		lnet_unlock();
		return;
	}
	rc = IS_ERR(lp) ? PTR_ERR(lp) : lnet_fwd_path_locked(msg);
	if (!rc) {
		/*
		 * Spec 8: the deadline restarts with each onward send; it
		 * only bounds resends (routers send late, spec 4.7).
		 */
		msg->msg_deadline = lnet_msg_deadline(msg->msg_txni);
		go = lnet_msg_credits_acquire(msg);
	} else if (rc == -EHOSTDOWN) {
		rc = -EHOSTUNREACH;	/* counted as peer_down */
	} else {	/* no route, or too many wait for that peer */
		the_lnet.ln_drops[LNET_DROP_NO_ROUTE]++;
	}
	lnet_unlock();
	if (rc)
		lnet_finalize(msg, rc);
	else if (go)
		lnet_ni_send(msg);
}

/**
 * lnet_fwd_send() - send a forwarded message on
 * @msg: its payload received into its router buffer
 *
 * The header goes unchanged (src_nid kept, and dest_nid but for MR
 * forwarding's choice).  A PUT or GET on a portal other than 0 may first
 * wait for its destination's discovery (spec 4.4); that discovery's
 * failure drops it.  A failure
 * finalizes @msg with the error, which counts it as dropped.
 *
 * Context: Process context or softirq; no LNet lock held.
 */
void lnet_fwd_send(struct lnet_msg *msg)
{
	msg->msg_send = true;
	msg->msg_finalized = false;
	lnet_fwd_send_on(msg, true);
}

/**
 * lnet_fwd_resume() - send on a forwarded message its discovery held
 * @msg: from lnet_fwd_send(), held on its destination's peer; or, from
 *	lnet_msg_resend(), one whose onward send failed in a way another
 *	path may not (spec 8): decommitted, its router buffer and credit
 *	kept
 *
 * Its next hop is chosen now, by the peer table as discovery (or the
 * failure's health demerit) left it; the header is unchanged.
 *
 * Context: Process context; no LNet lock held.
 */
void lnet_fwd_resume(struct lnet_msg *msg)
{
	lnet_fwd_send_on(msg, false);
}

/**
 * lnet_fwd_release_locked() - a forwarded message is done
 * @msg: finalized, its MD detached
 * @rx: messages that waited and now hold what they need (or are to be
 *	dropped) join it, for lnet_fwd_rx_run()
 *
 * Its buffer goes back to its pool (to the oldest waiter, else idle or
 * freed), then its router credit to its previous hop (spec 4.3 step 7).
 *
 * Context: the LNet lock held.
 */
void lnet_fwd_release_locked(struct lnet_msg *msg, struct list_head *rx)
{
	struct lnet_rtrbuf *rb = msg->msg_rtrbuf;
	struct list_head *w;
	struct lnet_msg *m;
	LIST_HEAD(freed);

	if (rb) {
		msg->msg_rtrbuf = NULL;
		w = lnet_rtrpool_put(rb->rb_pool, rb, lnet_routing_forwards(),
				     &freed);
		if (w) {
			m = list_entry(w, struct lnet_msg, msg_list);
			lnet_rtrbuf_attach(m, rb);
			list_add_tail(&m->msg_list, rx);
		}
		lnet_rtrbufs_free(&freed);
	}
	if (msg->msg_rtrcredit) {
		msg->msg_rtrcredit = false;
		w = lnet_credits_return(&msg->msg_rtrpeer->lpni_rtrc);
		if (w)
			lnet_fwd_got_credit_locked(list_entry(w, struct lnet_msg,
							      msg_list), rx);
	}
}

/* Hand the messages of @rx to their LNDs (lnet/finalize.c runs them). */
static void lnet_fwd_run_ready(struct list_head *rx)
{
	if (!list_empty(rx))
		lnet_fwd_rx_run(rx);
}

/*
 * Every message waiting for a buffer joins @rx, without one: it is
 * dropped (-ECANCELED) when @rx runs.
 */
static void lnet_rtrpools_cancel_waiters_locked(struct list_head *rx)
{
	struct lnet_rtrpool *rp;
	struct list_head *w;
	int i;

	if (!lnet_rtrpools_allocated())
		return;
	for (i = 0; i < LNET_RTRPOOL_COUNT; i++) {
		rp = lnet_rtrpool_of(i);
		while ((w = rp->rp_waiters.next) != &rp->rp_waiters) {
			list_del_init(w);
			rp->rp_credits++;
			list_add_tail(w, rx);
		}
	}
}

/* The module parameters' totals (0: default). */
static void lnet_rtrpool_params(int *totals)
{
	int i;

	for (i = 0; i < LNET_RTRPOOL_COUNT; i++)
		totals[i] = lnet_rtrpool_param(i);
}

/* Set the routing state; a transitional one waits for a checker pass. */
static void lnet_routing_set_state_locked(enum lnet_routing_state st)
{
	WRITE_ONCE(lnet_routing, st);
	lnet_routing_t0_set = false;
}

/* Set or clear RTE_DISABLED in the published ping buffer, in place. */
static void lnet_routing_advertise_locked(bool rte_disabled)
{
	struct lnet_ping_info *pi = the_lnet.ln_ping_info;

	if (!pi)
		return;
	if (rte_disabled)
		pi->pi_features |= LNET_PING_FEAT_RTE_DISABLED;
	else
		pi->pi_features &= ~LNET_PING_FEAT_RTE_DISABLED;
}

/*
 * Enable, ln_api_mutex held: make or refill the pools, then STARTING,
 * or ENABLED at once when @direct (LNet's start, spec 5.2).
 */
static int lnet_routing_enable_locked(bool direct,
				      struct netlink_ext_ack *extack)
{
	int totals[LNET_RTRPOOL_COUNT];
	LIST_HEAD(rx);
	int rc;

	switch (lnet_routing_state()) {
	case LNET_ROUTING_ENABLED:
	case LNET_ROUTING_STARTING:
		return 0;
	case LNET_ROUTING_STOPPING:
		NL_SET_ERR_MSG(extack,
			       "routing is stopping: enable it once it is disabled");
		return -EBUSY;
	case LNET_ROUTING_DISABLED:
		break;
	}
	lnet_rtrpool_params(totals);
	rc = lnet_rtrpools_resize(totals, &rx);
	if (rc) {
		if (rc == -EINVAL)
			NL_SET_ERR_MSG(extack, "router buffer counts must not be negative");
		else
			NL_SET_ERR_MSG(extack, "cannot allocate the router buffers");
		/* What was allocated goes again. */
		lnet_lock();
		lnet_rtrpools_shrink_idle_locked(true);
		lnet_unlock();
	} else if (direct) {
		lnet_lock();
		lnet_routing_set_state_locked(LNET_ROUTING_ENABLED);
		lnet_unlock();
		/* RTE_DISABLED clear, pushed to every multi-rail peer */
		lnet_ping_target_update_later(true);
		pr_info("LNet: message forwarding enabled\n");
	} else {
		lnet_lock();
		lnet_routing_set_state_locked(LNET_ROUTING_STARTING);
		lnet_unlock();
		pr_info("LNet: Message forwarding will be enabled in %llds\n",
			max_t(s64, lnet_rtr_window(), 0));
	}
	lnet_fwd_run_ready(&rx);
	return rc;
}

/* Disable, ln_api_mutex held: STOPPING; the router checker ends it. */
static void lnet_routing_disable_locked(void)
{
	s64 w = max_t(s64, lnet_rtr_window(), 0);
	enum lnet_routing_state st = lnet_routing_state();

	if (st == LNET_ROUTING_DISABLED || st == LNET_ROUTING_STOPPING)
		return;
	lnet_lock();
	lnet_routing_set_state_locked(LNET_ROUTING_STOPPING);
	/* no push: peers see it at their next check (spec 5.1) */
	lnet_routing_advertise_locked(true);
	lnet_unlock();
	pr_info("LNet: Message forwarding will stop in %llds to %llds\n",
		w, 3 * w);
}

/*
 * DISABLED now (under the LNet lock): idle buffers are freed, the others
 * as they come back; messages waiting for a buffer join @rx to be
 * dropped, those waiting for a router credit are as they get one.
 */
static void lnet_routing_disabled_locked(struct list_head *rx)
{
	lnet_routing_set_state_locked(LNET_ROUTING_DISABLED);
	lnet_routing_advertise_locked(true);
	lnet_rtrpools_shrink_idle_locked(true);
	lnet_rtrpools_cancel_waiters_locked(rx);
}

/**
 * lnet_routing_next() - where a transitional routing state goes
 * @st: the state
 * @now: the time (jiffies)
 * @t0: when the router checker first saw @st (jiffies)
 * @w: the window W, alive_router_check_interval + router_ping_timeout
 *	(seconds; <= 0: none)
 * @tiny_idle: every tiny buffer is idle and nobody waits for one
 *
 * Spec 5.1: STARTING is ENABLED once now > t0 + W; STOPPING is DISABLED
 * once now > t0 + W with the tiny pool idle, or once now > t0 + 3 W.
 * W in jiffies saturates (at LONG_MAX / 3: 3 W still compares right).
 *
 * Return: the state to go to (@st: stay).
 */
VISIBLE_IF_KUNIT enum lnet_routing_state
lnet_routing_next(enum lnet_routing_state st, unsigned long now,
		  unsigned long t0, s64 w, bool tiny_idle)
{
	unsigned long since = now - t0, wj;

	if ((long)since < 0)
		since = 0;
	if (w <= 0)
		wj = 0;
	else if (w >= LONG_MAX / 3 / HZ)
		wj = LONG_MAX / 3;
	else
		wj = (unsigned long)w * HZ;
	switch (st) {
	case LNET_ROUTING_STARTING:
		return since > wj ? LNET_ROUTING_ENABLED : st;
	case LNET_ROUTING_STOPPING:
		if ((since > wj && tiny_idle) || since > 3 * wj)
			return LNET_ROUTING_DISABLED;
		return st;
	default:
		return st;
	}
}
EXPORT_SYMBOL_IF_KUNIT(lnet_routing_next);

/* The move lnet_routing_next() decided, under the LNet lock. */
static void lnet_routing_move_locked(enum lnet_routing_state to,
				     struct list_head *rx)
{
	if (to == LNET_ROUTING_ENABLED) {
		lnet_routing_set_state_locked(to);
		lnet_routing_advertise_locked(false);
		/* MR peers learn it now, the others at their next check */
		lnet_dc_push_update_locked(true);
		pr_info("LNet: message forwarding enabled\n");
	} else if (to == LNET_ROUTING_DISABLED) {
		lnet_routing_disabled_locked(rx);
		pr_info("LNet: message forwarding disabled\n");
	}
}

/**
 * lnet_routing_tick() - the router checker's pass: end STARTING or STOPPING
 *
 * The first pass that sees a transitional state sets its t0 (spec 5.1).
 * Tried with ln_api_mutex, which the state's other changes hold: if it
 * is busy (or LNet is stopping, which cancels the checker under it),
 * the next pass, a second later, tries again.
 *
 * Context: Process context (the router checker's work), no lock held.
 */
void lnet_routing_tick(void)
{
	enum lnet_routing_state st, to;
	LIST_HEAD(rx);

	st = lnet_routing_state();
	if (st != LNET_ROUTING_STARTING && st != LNET_ROUTING_STOPPING)
		return;
	if (!mutex_trylock(&the_lnet.ln_api_mutex))
		return;
	lnet_lock();
	st = lnet_routing_state();
	if (the_lnet.ln_state != LNET_STATE_RUNNING ||
	    (st != LNET_ROUTING_STARTING && st != LNET_ROUTING_STOPPING)) {
		to = st;
	} else if (!lnet_routing_t0_set) {
		lnet_routing_t0 = jiffies;
		lnet_routing_t0_set = true;
		to = st;
	} else {
		to = lnet_routing_next(st, jiffies, lnet_routing_t0,
				       lnet_rtr_window(),
				       lnet_rtrpool_idle(lnet_rtrpool_of(LNET_RTRPOOL_TINY)));
	}
	if (to != st)
		lnet_routing_move_locked(to, &rx);
	lnet_unlock();
	mutex_unlock(&the_lnet.ln_api_mutex);
	lnet_fwd_run_ready(&rx);
}

/**
 * lnet_routing_set() - "set routing 0|1"
 * @enable: enable forwarding (else disable)
 * @extack: where to say why not
 *
 * Spec 5.1: enabling makes the pools and STARTs, disabling STOPs; the
 * router checker ends either.  Enabling while ENABLED or STARTING, or
 * disabling while DISABLED or STOPPING, is a no-op.
 *
 * Context: Process context; takes ln_api_mutex.
 * Return: 0, -ENETDOWN if LNet is down, -EBUSY to enable while STOPPING,
 * -ENOMEM or -EINVAL if the pools cannot be made (routing stays
 * disabled).
 */
int lnet_routing_set(bool enable, struct netlink_ext_ack *extack)
{
	int rc = 0;

	mutex_lock(&the_lnet.ln_api_mutex);
	if (the_lnet.ln_state != LNET_STATE_RUNNING) {
		NL_SET_ERR_MSG(extack, "Network is down");
		rc = -ENETDOWN;
	} else if (enable) {
		rc = lnet_routing_enable_locked(false, extack);
	} else {
		lnet_routing_disable_locked();
	}
	mutex_unlock(&the_lnet.ln_api_mutex);
	return rc;
}

/**
 * lnet_routing_buffers_set() - "set tiny_buffers|small_buffers|large_buffers"
 * @totals: per pool, the new total: 0 for the default, -1 to leave it
 * @extack: where to say why not
 *
 * The values are stored (they are the module parameters' values from
 * now on, kept across disable and enable); the pools are resized when
 * routing is enabled, else this is a no-op, as stock (spec 4.2).
 *
 * Context: Process context; takes ln_api_mutex.
 * Return: 0, -EINVAL for a value below -1, -ENOMEM (pools already
 * resized stay so).
 */
int lnet_routing_buffers_set(const int *totals,
			     struct netlink_ext_ack *extack)
{
	int want[LNET_RTRPOOL_COUNT];
	LIST_HEAD(rx);
	int i, rc = 0;

	for (i = 0; i < LNET_RTRPOOL_COUNT; i++) {
		if (totals[i] < -1) {
			NL_SET_ERR_MSG(extack, "buffer count must be -1 or more");
			return -EINVAL;
		}
	}
	mutex_lock(&the_lnet.ln_api_mutex);
	if (!lnet_routing_forwards())
		goto out;
	for (i = 0; i < LNET_RTRPOOL_COUNT; i++)
		if (totals[i] >= 0)
			lnet_rtrpool_param_set(i, totals[i]);
	lnet_rtrpool_params(want);
	rc = lnet_rtrpools_resize(want, &rx);
	if (rc)
		NL_SET_ERR_MSG(extack, "cannot allocate the router buffers");
out:
	mutex_unlock(&the_lnet.ln_api_mutex);
	lnet_fwd_run_ready(&rx);
	return rc;
}

/**
 * lnet_routing_start() - routing at LNet start, by forwarding= (spec 5.2)
 * @router: routes= named one of the node's own NIDs as a gateway
 *
 * "enabled", or "" on a node that routes= made "a router", makes the
 * pools and enables forwarding at once; "disabled", or "" otherwise,
 * leaves it disabled.
 *
 * Context: Process context, under ln_api_mutex, LNet running.
 * Return: 0, -EINVAL for another value, or as the pools' allocation.
 */
int lnet_routing_start(bool router)
{
	if (!strcmp(forwarding, "disabled") ||
	    (!strcmp(forwarding, "") && !router))
		return 0;
	if (strcmp(forwarding, "enabled") && strcmp(forwarding, "")) {
		pr_err("lnet: forwarding='%s' is neither 'enabled' nor 'disabled'\n",
		       forwarding);
		return -EINVAL;
	}
	return lnet_routing_enable_locked(true, NULL);
}

/**
 * lnet_routing_stop() - LNet stops: forwarding ends at once (DISABLED)
 *
 * New messages not for us are dropped, those waiting for a buffer are
 * dropped; the buffers in use are freed as their messages complete
 * (the NIs' stop completes them all).
 *
 * Context: Process context, under ln_api_mutex, LNet stopping.
 */
void lnet_routing_stop(void)
{
	LIST_HEAD(rx);

	lnet_lock();
	if (lnet_routing_state() != LNET_ROUTING_DISABLED)
		lnet_routing_disabled_locked(&rx);
	lnet_unlock();
	lnet_fwd_run_ready(&rx);
}
