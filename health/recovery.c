// SPDX-License-Identifier: GPL-2.0
/*
 * Recovery (spec features 3c): the local NIs and peer NIs whose health is
 * below the maximum are on the_lnet's recovery queues (lnet/healthv.c);
 * a work item pings each when its next ping is due, with exponential
 * backoff (1, 2, 4 ... seconds up to max_recovery_ping_interval) that
 * restarts whenever a message arrives from it.
 *
 * The work runs once a second (and at once when a failure queues
 * something, though a new entry's first ping is due a second or more
 * later: lnet_recovery_next_ping()).  A peer NI is pinged from one of
 * our NIs on its net, at exactly its NID; the REPLY raises its value by
 * the ordinary success path.  A local NI pings its own NID from itself
 * (as Lustre's do): the ping crosses the NI's LND, not 0@lo
 * (lnet/select.c), so it fails while the NI's link is down, and once it
 * works its GET and REPLY raise the value as any traffic of the NI does;
 * the answer raises it once more if its LND reports it working.  A
 * recovery ping's failure moves no value (treat.c) and it is never
 * resent; one ping at a time per NI.  A peer
 * NI not heard from within recovery_limit seconds (when set) leaves its
 * queue until a message from it arrives.
 *
 * While anything is in recovery, one line every 60 s (backing off to
 * 300 s) names up to 20 of them; never a line per failure.
 *
 * Each ping is a struct lnet_recovery_ping, freed on its MD's unlink
 * event; module exit unlinks those in flight and waits for them.
 */
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <kunit/visibility.h>

#include "health.h"

/* Pings started per round and queue: bounds one round's work. */
#define LNET_RECOVERY_BATCH		64
#define LNET_RECOVERY_SUMMARY_MIN	(60 * HZ)
#define LNET_RECOVERY_SUMMARY_MAX	(300 * HZ)
#define LNET_RECOVERY_SUMMARY_NIDS	20
/* Entries of the ping buffer a recovery ping asks for (Lustre's 16). */
#define LNET_RECOVERY_PING_NIS		16

/**
 * struct lnet_recovery_ping - one recovery ping in flight
 * @list: in lnet_recovery_pings
 * @nid: the NI or peer NI it recovers
 * @local: a local NI (else a peer NI)
 * @mdh: its MD
 * @done: its outcome was acted on
 * @buf: the reply's sink
 */
struct lnet_recovery_ping {
	struct list_head	list;
	struct lnet_nid		nid;
	bool			local;
	struct lnet_handle_md	mdh;
	bool			done;
	u8			buf[];
};

static LIST_HEAD(lnet_recovery_pings);		/* under the LNet lock */
static DECLARE_WAIT_QUEUE_HEAD(lnet_recovery_waitq);
static bool lnet_recovery_stopping;		/* under the LNet lock */
static unsigned long lnet_recovery_next_summary;
static unsigned long lnet_recovery_summary_gap = LNET_RECOVERY_SUMMARY_MIN;

static void lnet_recovery_work_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(lnet_recovery_work, lnet_recovery_work_fn);

/**
 * lnet_recovery_kick() - something joined a recovery queue: look soon
 *
 * Context: any; the LNet lock may be held.
 */
void lnet_recovery_kick(void)
{
	if (!READ_ONCE(lnet_recovery_stopping))
		mod_delayed_work(system_wq, &lnet_recovery_work, 0);
}

/*
 * The outcome of the ping of @nid (a local NI's if @local): @ok if the
 * REPLY came.  Looked up by NID: the NI or peer NI may be gone.
 */
static void lnet_recovery_outcome_locked(const struct lnet_nid *nid,
					 bool local, bool ok)
{
	struct lnet_peer_ni *lpni;
	struct lnet_net *net;
	unsigned int step;
	struct lnet_ni *ni;

	if (!local) {
		/* The REPLY raised its value already (values.c). */
		lpni = lnet_peer_ni_find_locked(nid);
		if (lpni)
			lpni->lpni_recovery_pending = false;
		return;
	}
	step = lnet_health_sensitivity();
	list_for_each_entry(net, &the_lnet.ln_nets, net_list)
		list_for_each_entry(ni, &net->net_nis, ni_list) {
			if (!lnet_nid_equal(&ni->ni_nid, nid))
				continue;
			ni->ni_recovery_pending = false;
			if (!ok || !lnet_ni_usable(ni))
				return;
			/* It works: the next ping is soon (as for a peer NI). */
			ni->ni_ping_count = 0;
			if (step)
				lnet_ni_healthv_set_locked(ni,
							   lnet_health_inc(ni->ni_healthv,
									   step));
			return;
		}
}

/* The MD's handler; the LNet lock is held. */
static void lnet_recovery_ping_event(struct lnet_event *ev)
{
	struct lnet_recovery_ping *rp = ev->md_user_ptr;

	if (!rp->done && (ev->type == LNET_EVENT_REPLY || ev->status ||
			  ev->type == LNET_EVENT_UNLINK)) {
		rp->done = true;
		lnet_recovery_outcome_locked(&rp->nid, rp->local,
					     ev->type == LNET_EVENT_REPLY &&
					     !ev->status);
	}
	if (ev->unlinked) {
		list_del(&rp->list);
		kfree(rp);
		wake_up_all(&lnet_recovery_waitq);
	}
}

/*
 * Start one ping; its failure to start clears the pending mark.  Shown
 * to KUnit: a ping that cannot start (LNet down) is its test.
 */
VISIBLE_IF_KUNIT void
lnet_recovery_ping_start(const struct lnet_recovery_target *t)
{
	size_t size = lnet_ping_buf_size(LNET_RECOVERY_PING_NIS);
	struct lnet_processid target = { .nid = t->nid, .pid = LNET_PID_LUSTRE };
	struct lnet_recovery_ping *rp;
	struct lnet_md md = { };
	int rc = -ENOMEM;

	rp = kzalloc(sizeof(*rp) + size, GFP_KERNEL);
	if (rp) {
		rp->nid = t->nid;
		rp->local = t->local;
		md.start = rp->buf;
		md.length = size;
		md.threshold = 2;		/* SEND, REPLY */
		md.options = LNET_MD_TRUNCATE;
		md.user_ptr = rp;
		md.handler = lnet_recovery_ping_event;
		lnet_lock();
		list_add_tail(&rp->list, &lnet_recovery_pings);
		lnet_unlock();
		rc = lnet_md_bind(&md, LNET_UNLINK, &rp->mdh);
		if (rc) {
			lnet_lock();
			list_del(&rp->list);
			lnet_unlock();
			kfree(rp);
			rp = NULL;
		}
	}
	if (rp) {
		rc = lnet_get_recovery(&t->src, rp->mdh, &target);
		/*
		 * No event follows: the unlink's event acts on the failure
		 * and frees rp (the MD is idle, its handler runs now).
		 */
		if (rc)
			lnet_md_unlink(rp->mdh);
		return;
	}
	lnet_lock();
	lnet_recovery_outcome_locked(&t->nid, t->local, false);
	lnet_unlock();
}
EXPORT_SYMBOL_IF_KUNIT(lnet_recovery_ping_start);

/* Schedule the next ping after one more sent. */
static unsigned long lnet_recovery_next(unsigned int *ping_count)
{
	unsigned long next = lnet_recovery_next_ping(*ping_count);

	if (*ping_count < UINT_MAX)
		(*ping_count)++;
	return next;
}

/* The healthiest usable NI of @net_id to ping from, or NULL. */
static struct lnet_ni *lnet_recovery_src(u32 net_id)
{
	struct lnet_ni *ni, *best = NULL;
	struct lnet_net *net;

	list_for_each_entry(net, &the_lnet.ln_nets, net_list) {
		if (net->net_id != net_id)
			continue;
		list_for_each_entry(ni, &net->net_nis, ni_list)
			if (lnet_ni_usable(ni) &&
			    (!best || ni->ni_healthv > best->ni_healthv))
				best = ni;
	}
	return best;
}

/* Pick what is due from both queues; true if either is not empty. */
static bool lnet_recovery_due_locked(struct lnet_recovery_target *t,
				     unsigned int *n)
{
	unsigned int limit = lnet_recovery_limit();
	struct lnet_peer_ni *lpni, *ltmp;
	struct lnet_ni *ni;

	list_for_each_entry(ni, &the_lnet.ln_ni_recoveryq, ni_recovery) {
		if (*n >= LNET_RECOVERY_BATCH)
			break;
		if (ni->ni_recovery_pending ||
		    time_before(jiffies, ni->ni_next_ping))
			continue;
		ni->ni_recovery_pending = true;
		ni->ni_next_ping = lnet_recovery_next(&ni->ni_ping_count);
		t[*n].nid = ni->ni_nid;
		t[*n].src = ni->ni_nid;
		t[(*n)++].local = true;
	}
	list_for_each_entry_safe(lpni, ltmp, &the_lnet.ln_peer_ni_recoveryq,
				 lpni_recovery) {
		if (*n >= 2 * LNET_RECOVERY_BATCH)
			break;
		if (limit && time_after(jiffies, lpni->lpni_last_alive +
					lnet_secs_to_jiffies(limit))) {
			/* Given up on, until it is heard from again. */
			list_del_init(&lpni->lpni_recovery);
			continue;
		}
		if (lpni->lpni_recovery_pending ||
		    time_before(jiffies, lpni->lpni_next_ping))
			continue;
		ni = lnet_recovery_src(lnet_nid_net(&lpni->lpni_nid));
		if (!ni)
			continue;
		lpni->lpni_recovery_pending = true;
		lpni->lpni_next_ping = lnet_recovery_next(&lpni->lpni_ping_count);
		t[*n].nid = lpni->lpni_nid;
		t[*n].src = ni->ni_nid;
		t[(*n)++].local = false;
	}
	return !list_empty(&the_lnet.ln_ni_recoveryq) ||
	       !list_empty(&the_lnet.ln_peer_ni_recoveryq);
}

/* One line naming up to 20 NIDs in recovery, at a backed-off interval. */
static void lnet_recovery_summary_locked(void)
{
	char line[LNET_RECOVERY_SUMMARY_NIDS * 24], nid[LNET_NIDSTR_SIZE];
	struct lnet_peer_ni *lpni;
	unsigned int n = 0, len = 0;
	struct lnet_ni *ni;

	if (time_before(jiffies, lnet_recovery_next_summary))
		return;
	line[0] = '\0';
	list_for_each_entry(ni, &the_lnet.ln_ni_recoveryq, ni_recovery) {
		if (n++ >= LNET_RECOVERY_SUMMARY_NIDS)
			break;
		lnet_nid_to_str(&ni->ni_nid, nid, sizeof(nid));
		len += scnprintf(line + len, sizeof(line) - len, " %s", nid);
	}
	list_for_each_entry(lpni, &the_lnet.ln_peer_ni_recoveryq,
			    lpni_recovery) {
		if (n++ >= LNET_RECOVERY_SUMMARY_NIDS)
			break;
		lnet_nid_to_str(&lpni->lpni_nid, nid, sizeof(nid));
		len += scnprintf(line + len, sizeof(line) - len, " %s", nid);
	}
	pr_warn("LNet: NIs in recovery:%s%s (lnetctl debug recovery --local|--peer)\n",
		line, n > LNET_RECOVERY_SUMMARY_NIDS ? " ..." : "");
	lnet_recovery_next_summary = jiffies + lnet_recovery_summary_gap;
	lnet_recovery_summary_gap = min(2 * lnet_recovery_summary_gap,
					(unsigned long)LNET_RECOVERY_SUMMARY_MAX);
}

static void lnet_recovery_work_fn(struct work_struct *work)
{
	struct lnet_recovery_target *t;
	unsigned int i, n = 0;
	bool busy;

	t = kcalloc(2 * LNET_RECOVERY_BATCH, sizeof(*t), GFP_KERNEL);
	if (!t) {
		lnet_recovery_kick();
		return;
	}
	lnet_lock();
	busy = the_lnet.ln_state == LNET_STATE_RUNNING &&
	       !lnet_recovery_stopping && lnet_recovery_due_locked(t, &n);
	/*
	 * At most one line per gap, however often NIs come and go; the
	 * gap starts again at its minimum once nothing is in recovery.
	 */
	if (busy)
		lnet_recovery_summary_locked();
	else
		lnet_recovery_summary_gap = LNET_RECOVERY_SUMMARY_MIN;
	lnet_unlock();
	for (i = 0; i < n; i++)
		lnet_recovery_ping_start(&t[i]);
	kfree(t);
	/*
	 * Every second, as Lustre's monitor thread: an administrator's
	 * "net set --health" queues an NI without telling us.
	 */
	if (!READ_ONCE(lnet_recovery_stopping))
		mod_delayed_work(system_wq, &lnet_recovery_work, HZ);
}

int lnet_recovery_init(void)
{
	WRITE_ONCE(lnet_recovery_stopping, false);
	lnet_recovery_next_summary = jiffies;
	lnet_recovery_kick();
	return 0;
}

/*
 * Module exit, after the core stopped calling us: no more rounds, then
 * every ping in flight is unlinked and its unlink event (our handler)
 * has run before the module's code goes.
 */
void lnet_recovery_fini(void)
{
	struct lnet_recovery_ping *rp;
	struct lnet_handle_md mdh;

	WRITE_ONCE(lnet_recovery_stopping, true);
	cancel_delayed_work_sync(&lnet_recovery_work);
	for (;;) {
		lnet_lock();
		mdh = LNET_MD_HANDLE_NONE;
		list_for_each_entry(rp, &lnet_recovery_pings, list)
			if (!rp->done) {
				rp->done = true;
				mdh = rp->mdh;
				break;
			}
		lnet_unlock();
		if (lnet_md_handle_is_none(mdh))
			break;
		lnet_md_unlink(mdh);
	}
	wait_event(lnet_recovery_waitq, ({
		bool empty;

		lnet_lock();
		empty = list_empty(&lnet_recovery_pings);
		lnet_unlock();
		empty;
	}));
	/* The last handler ran under the LNet lock: let it return. */
	synchronize_rcu();
}
