// SPDX-License-Identifier: GPL-2.0
/*
 * Response tracking: a PUT that asked for an ACK, or a GET, whose answer
 * has not arrived lnet_transaction_timeout seconds after it was started
 * is given up.  Its MD is unlinked: an idle MD gets an %LNET_EVENT_UNLINK
 * event with status -ETIMEDOUT, a busy one (its request still in an LND)
 * reports -ETIMEDOUT in the event of the operation that ends last.  The
 * answer, should it still come, then matches no MD and is dropped.
 *
 * Without this a peer that takes a request (the LND's send succeeded)
 * and then dies or loses its link would leave the initiator waiting
 * forever.  lnet_response_tracking chooses what is tracked: bit 0 GETs,
 * bit 1 PUTs (Lustre's values; default 3, both).
 *
 * Tracked MDs are kept on one list in deadline order, and the expiry
 * work, run every second while the list is not empty, stops at the first
 * MD that is not late.  The timeout is normally the same for all, so an
 * MD goes at the tail; when it has been lowered, an MD goes before those
 * tracked with the old, longer value (a ping lost while a gateway
 * restarted must not hold a later PUT's shorter deadline back).
 */
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/workqueue.h>

#include <lnet/lib-lnet.h>

#define LNET_RSP_TRACK_GET	BIT(0)
#define LNET_RSP_TRACK_PUT	BIT(1)

/* Put @md on the list behind the last MD due no later than it. */
static void lnet_rsp_insert_locked(struct lnet_libmd *md)
{
	struct list_head *pos = &the_lnet.ln_rsp_list;
	struct lnet_libmd *t;

	list_for_each_entry_reverse(t, &the_lnet.ln_rsp_list, md_rsp_list) {
		if (!time_after(t->md_rsp_deadline, md->md_rsp_deadline))
			break;
		pos = &t->md_rsp_list;
	}
	/* Before @pos: the first later one, or the head (the tail). */
	list_add_tail(&md->md_rsp_list, pos);
}

/**
 * lnet_rsp_track_locked() - start the clock on an operation's response
 * @md: the MD the operation uses, which the ACK or REPLY will name
 * @msg: the operation, its path chosen
 * @is_put: a PUT that asked for an ACK; else a GET
 * @always: LNet's own ping or push (portal 0): tracked whatever
 *	response_tracking says ("0: only LNet pings and pushes"), so that a
 *	discovery always ends
 */
void lnet_rsp_track_locked(struct lnet_libmd *md, const struct lnet_msg *msg,
			   bool is_put, bool always)
{
	unsigned int what = is_put ? LNET_RSP_TRACK_PUT : LNET_RSP_TRACK_GET;
	bool first;

	if (!always && !(lnet_response_tracking() & what))
		return;
	md->md_rsp_deadline = jiffies +
		lnet_secs_to_jiffies(lnet_transaction_timeout());
	md->md_rsp_start_ns = ktime_get_ns();
	/* A recovery ping's loss moves no health value (spec 3b). */
	md->md_rsp_nid = msg->msg_txpeer && !msg->msg_recovery ?
			 msg->msg_txpeer->lpni_nid : LNET_ANY_NID;
	/* An MD reused by its next operation: the clock restarts. */
	list_del_init(&md->md_rsp_list);
	first = list_empty(&the_lnet.ln_rsp_list);
	lnet_rsp_insert_locked(md);
	if (first)
		schedule_delayed_work(&the_lnet.ln_rsp_work, HZ);
}

/**
 * lnet_rsp_untrack_locked() - the response arrived, or the MD is unlinked
 * @md: the MD; it may not be tracked
 */
void lnet_rsp_untrack_locked(struct lnet_libmd *md)
{
	list_del_init(&md->md_rsp_list);
}

/* Give up on the late responses (all of them if @all); true if any left. */
static bool lnet_rsp_expire(bool all)
{
	struct lnet_libmd *md;
	unsigned int n = 0;
	bool left;

	lnet_lock();
	while ((md = list_first_entry_or_null(&the_lnet.ln_rsp_list,
					      struct lnet_libmd,
					      md_rsp_list))) {
		if (!all && time_before(jiffies, md->md_rsp_deadline))
			break;
		md->md_aborted = true;
		/* A remote failure of the peer NI it went to (spec 3b). */
		if (!lnet_nid_is_any(&md->md_rsp_nid))
			lnet_remote_failure_locked(&md->md_rsp_nid);
		/* Takes it off the list. */
		lnet_md_unlink_event_locked(md, -ETIMEDOUT);
		n++;
	}
	the_lnet.ln_counters.response_timeouts += n;
	left = !list_empty(&the_lnet.ln_rsp_list);
	lnet_unlock();
	if (n)
		pr_debug("LNet: %u responses timed out\n", n);
	return left;
}

/**
 * lnet_rsp_expire_work() - the_lnet.ln_rsp_work: expire late responses
 * @work: the_lnet.ln_rsp_work.work
 */
void lnet_rsp_expire_work(struct work_struct *work)
{
	if (lnet_rsp_expire(false))
		schedule_delayed_work(&the_lnet.ln_rsp_work, HZ);
}

/**
 * lnet_rsp_expire_all() - LNet stops: no response will come any more
 *
 * Context: Process context, after the last NI has stopped.
 */
void lnet_rsp_expire_all(void)
{
	lnet_rsp_expire(true);
	cancel_delayed_work_sync(&the_lnet.ln_rsp_work);
	/* The work may have run and found MDs tracked since. */
	lnet_rsp_expire(true);
}
