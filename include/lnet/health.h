/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Network health (spec features section 3): what an LND reports about a
 * failed message, and the interface between the core and the health
 * module (health/, lnet_health.ko).
 *
 * An LND that fails a message sets msg_health_status to one of the
 * classes below before it calls lnet_finalize() (lnet_msg_set_hstatus());
 * a message that failed with no class is not health-checked (Lustre's
 * "inconsistent state" rule).  The core hands every finished message to
 * the health module, which moves the health values of the local NI and
 * the peer NI it used and says whether it is worth sending again; the
 * core then resends it (lnet/resend.c) or completes it.  The values
 * live in struct lnet_ni and struct lnet_peer_ni, where selection
 * (lnet/select.c) reads them first.
 *
 * Without the health module loaded, values stay at their maximum and
 * nothing is resent: LNet behaves as with health_sensitivity 0.
 */
#ifndef _LNET_HEALTH_H
#define _LNET_HEALTH_H

#include <linux/types.h>

/* Health values: 0 (dead) .. LNET_MAX_HEALTH_VALUE (fully healthy). */
#define LNET_MAX_HEALTH_VALUE	1000

/**
 * enum lnet_msg_hstatus - why a message failed, Lustre's values
 * @LNET_MSG_STATUS_OK: it did not
 * @LNET_MSG_STATUS_LOCAL_INTERRUPT: the local side was interrupted
 * @LNET_MSG_STATUS_LOCAL_DROPPED: dropped locally before it left (its
 *	connection failed or went away): another path may work
 * @LNET_MSG_STATUS_LOCAL_ABORTED: the local side aborted it
 * @LNET_MSG_STATUS_LOCAL_NO_ROUTE: no local way to the peer
 * @LNET_MSG_STATUS_LOCAL_ERROR: a local error another try would repeat
 * @LNET_MSG_STATUS_LOCAL_TIMEOUT: it waited too long locally (queued,
 *	never sent)
 * @LNET_MSG_STATUS_REMOTE_ERROR: the peer reported an error
 * @LNET_MSG_STATUS_REMOTE_DROPPED: the peer refused or reset the
 *	connection before it took the message
 * @LNET_MSG_STATUS_REMOTE_TIMEOUT: sent, but the peer never confirmed it:
 *	it may have acted on it
 * @LNET_MSG_STATUS_NETWORK_TIMEOUT: the network lost it or its deadline
 *	passed
 * @LNET_MSG_STATUS_END: number of classes
 */
enum lnet_msg_hstatus {
	LNET_MSG_STATUS_OK = 0,
	LNET_MSG_STATUS_LOCAL_INTERRUPT,
	LNET_MSG_STATUS_LOCAL_DROPPED,
	LNET_MSG_STATUS_LOCAL_ABORTED,
	LNET_MSG_STATUS_LOCAL_NO_ROUTE,
	LNET_MSG_STATUS_LOCAL_ERROR,
	LNET_MSG_STATUS_LOCAL_TIMEOUT,
	LNET_MSG_STATUS_REMOTE_ERROR,
	LNET_MSG_STATUS_REMOTE_DROPPED,
	LNET_MSG_STATUS_REMOTE_TIMEOUT,
	LNET_MSG_STATUS_NETWORK_TIMEOUT,
	LNET_MSG_STATUS_END
};

struct lnet_msg;
struct lnet_nid;
struct lnet_ni;
struct lnet_peer_ni;

/**
 * struct lnet_health_ops - what the health module does for the core
 * @msg_done: a send or receive committed to an NI finished with @status
 *	(0 or -errno) and msg_health_status; @lpni is the peer NI it went
 *	to or came from (msg_txni or msg_rxni is the local NI); apply the
 *	treatment of its
 *	class to the health values and counters.  Return: true if it is
 *	worth sending again by another path (the core checks the retry
 *	budget and the deadline).  Called under the LNet lock.
 * @remote_failure: a remote failure of the peer NI @nid seen outside a
 *	message's completion: the ACK or REPLY of an operation sent to it
 *	did not come within transaction_timeout, or the peer's ping reply or
 *	push reports it DOWN where it was UP (spec 4c).  Called under the
 *	LNet lock.
 *
 * Registered by lnet_health.ko (lnet_health_register()); the core calls
 * them under RCU, so an unregistered module is never entered again once
 * lnet_health_unregister() returned.
 */
struct lnet_health_ops {
	bool (*msg_done)(struct lnet_msg *msg, struct lnet_peer_ni *lpni,
			 int status);
	void (*remote_failure)(const struct lnet_nid *nid);
};

unsigned int lnet_recovery_ping_delay(unsigned int ping_count,
				      unsigned int max_interval);
unsigned long lnet_recovery_next_ping(unsigned int ping_count);
int lnet_health_register(const struct lnet_health_ops *ops);
void lnet_health_unregister(const struct lnet_health_ops *ops);

#endif /* _LNET_HEALTH_H */
