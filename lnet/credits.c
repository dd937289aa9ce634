// SPDX-License-Identifier: GPL-2.0
/*
 * Send credits.  A message needs one credit of the peer NI it goes to and
 * then one of the local NI it leaves by (Lustre's lnet_post_send_locked()
 * order).  When a pool is empty the message waits in that pool's FIFO; a
 * returned credit goes straight to the oldest waiter, so a message is
 * never overtaken and never lost.  The pools know nothing about the
 * network, so this is all testable in KUnit (kunit/lnet_credit_test.c).
 *
 * Everything here runs under the_lnet.ln_lock.
 */
#include <linux/export.h>
#include <linux/list.h>

#include <lnet/lib-lnet.h>

/**
 * lnet_credits_init() - set up a credit pool
 * @c: the pool
 * @max: credits; 0 for a pool that never runs out (e.g. 0@lo)
 */
void lnet_credits_init(struct lnet_credits *c, int max)
{
	c->max = max;
	c->credits = max;
	c->min = max;
	INIT_LIST_HEAD(&c->queue);
}
EXPORT_SYMBOL_GPL(lnet_credits_init);

/**
 * lnet_credits_take() - take a credit, or queue for one
 * @c: the pool
 * @waiter: list entry of the message, queued at the tail if no credit
 *
 * The credit is counted as taken either way; a queued message owns the
 * next credit lnet_credits_return() gives back.
 *
 * Return: true if the credit is available now.
 */
bool lnet_credits_take(struct lnet_credits *c, struct list_head *waiter)
{
	if (!c->max)
		return true;
	c->credits--;
	if (c->credits < c->min)
		c->min = c->credits;
	if (c->credits >= 0)
		return true;
	list_add_tail(waiter, &c->queue);
	return false;
}
EXPORT_SYMBOL_GPL(lnet_credits_take);

/**
 * lnet_credits_return() - give a credit back
 * @c: the pool
 *
 * Return: the list entry of the oldest waiter, now dequeued and holding
 * the credit, or NULL if nobody waited.
 */
struct list_head *lnet_credits_return(struct lnet_credits *c)
{
	struct list_head *w;

	if (!c->max)
		return NULL;
	c->credits++;
	if (list_empty(&c->queue))
		return NULL;
	w = c->queue.next;
	list_del_init(w);
	return w;
}
EXPORT_SYMBOL_GPL(lnet_credits_return);

/**
 * lnet_credits_drain() - take every waiter off the pool
 * @c: the pool
 * @out: the waiters are moved here, oldest first
 *
 * Used when an NI goes away: the waiters no longer hold a credit.
 */
void lnet_credits_drain(struct lnet_credits *c, struct list_head *out)
{
	struct list_head *pos;

	list_for_each(pos, &c->queue)
		c->credits++;
	list_splice_tail_init(&c->queue, out);
}
EXPORT_SYMBOL_GPL(lnet_credits_drain);

/**
 * lnet_credits_unqueue() - take one waiter off the pool
 * @c: the pool
 * @waiter: a list entry queued on @c by lnet_credits_take()
 *
 * Used when that waiter's message can no longer be sent (its NI stops):
 * the credit it was counted for is given back, to nobody.
 */
void lnet_credits_unqueue(struct lnet_credits *c, struct list_head *waiter)
{
	list_del_init(waiter);
	c->credits++;
}
EXPORT_SYMBOL_GPL(lnet_credits_unqueue);

/**
 * lnet_credits_reset_min() - restart the low-water mark from now
 * @c: the pool
 */
void lnet_credits_reset_min(struct lnet_credits *c)
{
	c->min = c->credits;
}
EXPORT_SYMBOL_GPL(lnet_credits_reset_min);

/**
 * lnet_msg_credits_acquire() - get the credits a send needs
 * @msg: a message with msg_txni (and msg_txpeer unless loopback) set
 *
 * Takes the peer NI credit, then the NI credit, skipping one the message
 * already holds (it is called again for a message a credit was handed
 * to).  While it holds or waits for the peer NI credit, the message's
 * bytes count in the peer NI's lpni_txqnob.
 *
 * Return: true if @msg holds both and may go to the LND; false if it is
 * queued on one of the pools.
 */
bool lnet_msg_credits_acquire(struct lnet_msg *msg)
{
	if (msg->msg_txpeer && !msg->msg_peertxcredit) {
		msg->msg_peertxcredit = true;
		msg->msg_txpeer->lpni_txqnob += lnet_msg_txqnob(msg);
		if (!lnet_credits_take(&msg->msg_txpeer->lpni_txc,
				       &msg->msg_list))
			return false;
	}
	if (!msg->msg_txcredit) {
		msg->msg_txcredit = true;
		if (!lnet_credits_take(&msg->msg_txni->ni_txc, &msg->msg_list))
			return false;
	}
	return true;
}
EXPORT_SYMBOL_GPL(lnet_msg_credits_acquire);

/**
 * lnet_msg_credits_release() - return a finished send's credits
 * @msg: the message; it must not be queued
 * @ready: messages that now hold all their credits are added here, in
 *	the order they became ready; the caller sends them after dropping
 *	the lock
 */
void lnet_msg_credits_release(struct lnet_msg *msg, struct list_head *ready)
{
	struct list_head *w;
	struct lnet_msg *m;

	if (msg->msg_txcredit) {
		msg->msg_txcredit = false;
		w = lnet_credits_return(&msg->msg_txni->ni_txc);
		if (w) {
			/* It queued on the NI, so it holds its peer credit. */
			m = list_entry(w, struct lnet_msg, msg_list);
			list_add_tail(&m->msg_list, ready);
		}
	}
	if (msg->msg_txpeer && msg->msg_peertxcredit) {
		msg->msg_peertxcredit = false;
		msg->msg_txpeer->lpni_txqnob -= lnet_msg_txqnob(msg);
		w = lnet_credits_return(&msg->msg_txpeer->lpni_txc);
		if (w) {
			m = list_entry(w, struct lnet_msg, msg_list);
			if (lnet_msg_credits_acquire(m))
				list_add_tail(&m->msg_list, ready);
		}
	}
}
EXPORT_SYMBOL_GPL(lnet_msg_credits_release);
