// SPDX-License-Identifier: GPL-2.0
/*
 * The treatment of a failed message (spec features 3b): which health
 * values its class lowers and whether it is worth sending again, with
 * Lustre's guards.  A pure function of the class and a few facts about
 * the message, so that KUnit checks the whole table.
 *
 *   class              local NI  peer NI  resend
 *   LOCAL_INTERRUPT      -step      .      yes
 *   LOCAL_DROPPED        -step      .      yes
 *   LOCAL_ABORTED        -step      .      yes
 *   LOCAL_NO_ROUTE       -step      .      yes
 *   LOCAL_TIMEOUT        -step      .      yes
 *   LOCAL_ERROR          -step      .      no
 *   REMOTE_DROPPED         .      -step    yes
 *   REMOTE_ERROR           .      -step    no
 *   REMOTE_TIMEOUT         .      -step    no
 *   NETWORK_TIMEOUT      -step    -step    no
 *
 * Guards: a recovery ping moves no value; only a send is resent; a
 * local failure is not resent when this node has a single NI (there is
 * no other to try); a remote failure is not resent when the peer has a
 * single NI, and then its health is not touched either, unless it is a
 * router or this node routes (route aliveness rests on it); a peer NI
 * that is one of our own NIDs is never demerited as a peer.
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/minmax.h>

#include "health.h"

/**
 * lnet_health_treat() - what a failure of class @hs calls for
 * @hs: the message's class, not OK
 * @f: facts about the message and its path
 *
 * Return: the health values to lower and whether to resend.
 */
struct lnet_health_action
lnet_health_treat(enum lnet_msg_hstatus hs, const struct lnet_health_facts *f)
{
	bool handle_local = !f->recovery, handle_remote = !f->recovery;
	bool local_resend = f->send, remote_resend = f->send;
	struct lnet_health_action a = { };

	if (f->single_local_ni)
		local_resend = false;
	if (f->single_peer_ni) {
		remote_resend = false;
		if (!f->router)
			handle_remote = false;
	}
	if (f->peer_is_local)
		handle_remote = false;

	switch (hs) {
	case LNET_MSG_STATUS_LOCAL_INTERRUPT:
	case LNET_MSG_STATUS_LOCAL_DROPPED:
	case LNET_MSG_STATUS_LOCAL_ABORTED:
	case LNET_MSG_STATUS_LOCAL_NO_ROUTE:
	case LNET_MSG_STATUS_LOCAL_TIMEOUT:
		a.local = handle_local;
		a.resend = local_resend;
		break;
	case LNET_MSG_STATUS_LOCAL_ERROR:
		a.local = handle_local;
		break;
	case LNET_MSG_STATUS_REMOTE_DROPPED:
		a.remote = handle_remote;
		a.resend = remote_resend;
		break;
	case LNET_MSG_STATUS_REMOTE_ERROR:
	case LNET_MSG_STATUS_REMOTE_TIMEOUT:
		a.remote = handle_remote;
		break;
	case LNET_MSG_STATUS_NETWORK_TIMEOUT:
		a.local = handle_local;
		a.remote = handle_remote;
		break;
	default:	/* OK, or not a class: nothing to do */
		break;
	}
	return a;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_health_treat);

/**
 * lnet_health_dec() - a health value after a failure
 * @v: the value
 * @step: health_sensitivity
 *
 * Return: @v - @step, at least 0.
 */
int lnet_health_dec(int v, unsigned int step)
{
	return v > (int)step ? v - (int)step : 0;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_health_dec);

/**
 * lnet_health_inc() - a health value after a success
 * @v: the value
 * @step: health_sensitivity (the same step as a failure, as Lustre)
 *
 * Return: @v + @step, at most %LNET_MAX_HEALTH_VALUE.
 */
int lnet_health_inc(int v, unsigned int step)
{
	return min_t(int, v + min_t(unsigned int, step, LNET_MAX_HEALTH_VALUE),
		     LNET_MAX_HEALTH_VALUE);
}
EXPORT_SYMBOL_IF_KUNIT(lnet_health_inc);
