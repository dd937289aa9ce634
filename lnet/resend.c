// SPDX-License-Identifier: GPL-2.0
/*
 * Health checks of finished messages, and resends (spec features 3b, 3d).
 *
 * Every message committed to an NI passes lnet_msg_health_locked() when
 * it is finalized.  The health module (include/lnet/health.h) moves the
 * health values its class calls for and says whether the failure is one
 * another path may not have: then, while retry_count and the message's
 * deadline allow, the message is decommitted (its credits and its NI and
 * peer NI references go back) and queued here, and a work item chooses a
 * path for it again, as for a new message: the health values just
 * lowered steer it away from the NI or peer NI that failed.  Its MD stays
 * attached throughout, so the caller sees one outcome: the event of its
 * last try.
 *
 * Only PUTs and GETs we start are resent (an ACK or REPLY must go back by
 * the NID its request came from, so there is no other path to try), and
 * any message a router forwards (routing spec 8: its next hop is chosen
 * again from its unchanged header; it keeps its router buffer and
 * credit, only its tx credits go back).  Nothing is
 * resent once LNet stops, after the deadline, or for a message marked
 * msg_no_resend.  A message is never resent for a class that says the
 * peer may have acted on it: the health module decides by class, and the
 * LNDs report a message that left as REMOTE_TIMEOUT/NETWORK_TIMEOUT.
 *
 * The deadline of a PUT or GET is set when it is first sent: the LND's
 * timeout times (retry_count + 1), plus a second (Lustre's, spec 3d), or
 * transaction_timeout for an LND that has none.  A message still waiting
 * for credits at its deadline is not sent late: it fails.  A forwarded
 * message's deadline restarts with each onward send and bounds only its
 * resends: a router sends late (routing spec 8).
 */
#include <linux/export.h>
#include <linux/rcupdate.h>
#include <linux/workqueue.h>

#include <kunit/visibility.h>

#include <lnet/lib-lnet.h>
#include <lnet/trace.h>

static DEFINE_MUTEX(lnet_health_ops_mutex);

/**
 * lnet_health_register() - the health module takes over health checks
 * @ops: its operations; live until lnet_health_unregister()
 *
 * Context: Process context.
 * Return: 0, or -EBUSY if another is registered.
 */
int lnet_health_register(const struct lnet_health_ops *ops)
{
	int rc = 0;

	mutex_lock(&lnet_health_ops_mutex);
	if (rcu_access_pointer(the_lnet.ln_health_ops))
		rc = -EBUSY;
	else
		rcu_assign_pointer(the_lnet.ln_health_ops, ops);
	mutex_unlock(&lnet_health_ops_mutex);
	return rc;
}
EXPORT_SYMBOL_GPL(lnet_health_register);

/**
 * lnet_health_unregister() - the health module goes
 * @ops: as registered
 *
 * Once this returns no health check is in @ops any more, and none starts.
 *
 * Context: Process context.
 */
void lnet_health_unregister(const struct lnet_health_ops *ops)
{
	mutex_lock(&lnet_health_ops_mutex);
	if (rcu_access_pointer(the_lnet.ln_health_ops) == ops)
		RCU_INIT_POINTER(the_lnet.ln_health_ops, NULL);
	mutex_unlock(&lnet_health_ops_mutex);
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(lnet_health_unregister);

/**
 * lnet_msg_deadline() - when a PUT or GET sent now must be done
 * @ni: the NI it leaves by first
 *
 * Return: jiffies.
 */
unsigned long lnet_msg_deadline(const struct lnet_ni *ni)
{
	const struct lnet_lnd *lnd = ni->ni_net->net_lnd;
	long secs;

	if (lnd->lnd_get_timeout)
		secs = (long)lnd->lnd_get_timeout() *
		       (lnet_retry_count() + 1) + 1;
	else
		secs = lnet_transaction_timeout();
	return jiffies + lnet_secs_to_jiffies(secs);
}
EXPORT_SYMBOL_IF_KUNIT(lnet_msg_deadline);

/**
 * lnet_msg_late() - is a message past its deadline?
 * @msg: the message
 *
 * Return: true if it has one and it passed.
 */
bool lnet_msg_late(const struct lnet_msg *msg)
{
	return msg->msg_deadline && time_after_eq(jiffies, msg->msg_deadline);
}
EXPORT_SYMBOL_IF_KUNIT(lnet_msg_late);

/*
 * May @msg, which failed in a resendable way, be sent again at all?  A
 * forwarded message of any type may (routing spec 8: its next hop is
 * chosen from its header's destination again, an ACK or REPLY's too).
 */
static bool lnet_msg_may_resend(const struct lnet_msg *msg)
{
	return msg->msg_send && msg->msg_deadline && !msg->msg_no_resend &&
	       !msg->msg_recovery &&
	       (msg->msg_routing || msg->msg_type == LNET_MSG_PUT ||
		msg->msg_type == LNET_MSG_GET) &&
	       msg->msg_md && !msg->msg_md->md_aborted &&
	       the_lnet.ln_state == LNET_STATE_RUNNING;
}

/*
 * Give @msg's credits and references back (waiters that now hold all
 * theirs join @ready) and queue it for the resend work.
 */
static void lnet_msg_requeue_locked(struct lnet_msg *msg,
				    struct list_head *ready)
{
	trace_lnet_resend(msg, msg->msg_health_status);
	lnet_msg_credits_release(msg, ready);
	lnet_peer_ni_put_locked(msg->msg_txpeer);
	msg->msg_txpeer = NULL;
	lnet_ni_put_locked(msg->msg_txni);
	msg->msg_txni = NULL;
	msg->msg_health_status = LNET_MSG_STATUS_OK;
	msg->msg_retry_count++;
	the_lnet.ln_counters.resend_count++;
	list_add_tail(&msg->msg_list, &the_lnet.ln_resendq);
	queue_work(system_wq, &the_lnet.ln_resend_work);
}

/**
 * lnet_msg_health_locked() - the health check of a finished message
 * @msg: a message being finalized
 * @lpni: the peer NI it went to or came from; NULL for loopback
 * @status: 0, or -errno
 * @ready: where messages that the credits of a resent @msg let go are
 *	put, to be sent by the caller
 *
 * Return: true if @msg was queued to be sent again: it is not finalized.
 */
bool lnet_msg_health_locked(struct lnet_msg *msg, struct lnet_peer_ni *lpni,
			    int status, struct list_head *ready)
{
	const struct lnet_health_ops *ops;
	bool resend = false;

	/* Loopback and messages that never reached an NI: nothing to learn. */
	if (!lpni || !(msg->msg_send ? msg->msg_txni : msg->msg_rxni))
		return false;
	/* A failure nobody classified, or a class with no failure. */
	if (!status != !msg->msg_health_status)
		return false;
	if (status && lnet_msg_late(msg)) {
		/* Too late to learn anything from it (spec 3b). */
		the_lnet.ln_counters.late_msgs++;
		return false;
	}
	rcu_read_lock();
	ops = rcu_dereference(the_lnet.ln_health_ops);
	if (ops)
		resend = ops->msg_done(msg, lpni, status);
	rcu_read_unlock();
	if (!status) {
		if (msg->msg_send && msg->msg_retry_count)
			the_lnet.ln_counters.successful_resends++;
		return false;
	}
	if (!resend || !lnet_msg_may_resend(msg))
		return false;
	if (msg->msg_retry_count >= lnet_retry_count()) {
		the_lnet.ln_counters.failed_resends++;
		return false;
	}
	lnet_msg_requeue_locked(msg, ready);
	return true;
}

/**
 * lnet_remote_failure_locked() - a remote failure seen outside a message
 * @nid: the peer NI: a tracked response from it did not come in time, or
 *	its peer's ping buffer reports it DOWN where it was UP
 */
void lnet_remote_failure_locked(const struct lnet_nid *nid)
{
	const struct lnet_health_ops *ops;

	rcu_read_lock();
	ops = rcu_dereference(the_lnet.ln_health_ops);
	if (ops && ops->remote_failure)
		ops->remote_failure(nid);
	rcu_read_unlock();
}

/**
 * lnet_resend_work() - the_lnet.ln_resend_work: send the queued again
 * @work: the_lnet.ln_resend_work
 *
 * Each goes through path selection again (lnet_msg_resend()); once LNet
 * stops, selection fails it with -ESHUTDOWN.
 */
void lnet_resend_work(struct work_struct *work)
{
	struct lnet_msg *msg;
	LIST_HEAD(q);

	lnet_lock();
	list_splice_init(&the_lnet.ln_resendq, &q);
	lnet_unlock();
	while ((msg = list_first_entry_or_null(&q, struct lnet_msg,
					       msg_list))) {
		list_del_init(&msg->msg_list);
		lnet_msg_resend(msg);
	}
}

/**
 * lnet_resend_flush() - LNet stops: fail what waits to be sent again
 *
 * Called once the state is STOPPING, so nothing joins the queue any
 * more; the work finds LNet stopping and fails each message.
 *
 * Context: Process context.
 */
void lnet_resend_flush(void)
{
	flush_work(&the_lnet.ln_resend_work);
	/* Queued after the work last looked, before STOPPING was seen. */
	lnet_resend_work(&the_lnet.ln_resend_work);
}
