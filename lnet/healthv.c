// SPDX-License-Identifier: GPL-2.0
/*
 * Health values of local NIs and peer NIs (spec features 3a, 3c): the
 * one place they change, for the health module's treatment of messages
 * and for an administrator's "net set --health" / "peer set --health".
 *
 * A value below the maximum puts its NI or peer NI on a recovery queue
 * (the health module pings what is on it and raises the value on each
 * answer); back at the maximum it leaves.  A local NI whose value falls
 * to 0 is reported down (net show, our ping replies, so multi-rail peers
 * stop using it) until it is back at the maximum.  A peer NI only joins
 * its queue if it was ever heard from, and, with recovery_limit set, only
 * while its last sign of life is more recent than that.
 */
#include <linux/export.h>
#include <linux/log2.h>

#include <lnet/lib-lnet.h>
#include <lnet/trace.h>

#include "peer.h"

/**
 * lnet_recovery_ping_delay() - seconds until the next recovery ping
 * @ping_count: recovery pings sent since it was last heard to work
 * @max_interval: max_recovery_ping_interval, seconds (> 0)
 *
 * 2^@ping_count while @ping_count <= log2(@max_interval), else
 * @max_interval: 1, 2, 4 ... 512, then 900 with the defaults (spec 3c).
 *
 * Return: seconds.
 */
unsigned int lnet_recovery_ping_delay(unsigned int ping_count,
				      unsigned int max_interval)
{
	if (ping_count <= (unsigned int)ilog2(max_interval))
		return 1U << ping_count;
	return max_interval;
}
EXPORT_SYMBOL_GPL(lnet_recovery_ping_delay);

/**
 * lnet_recovery_next_ping() - when the next recovery ping is due
 * @ping_count: recovery pings sent since it was last heard to work
 *
 * Also when an NI or peer NI joins its recovery queue: as Lustre's, its
 * first ping comes 2^ping_count seconds later (at least 1 s), so that a
 * failure's demerit holds for a while before a ping can undo it.
 *
 * Return: jiffies.
 */
unsigned long lnet_recovery_next_ping(unsigned int ping_count)
{
	return jiffies +
	       lnet_secs_to_jiffies(lnet_recovery_ping_delay(ping_count,
							     lnet_max_recovery_ping_interval()));
}
EXPORT_SYMBOL_GPL(lnet_recovery_next_ping);

/**
 * lnet_ni_healthv_set_locked() - set a local NI's health value
 * @ni: the NI
 * @value: clamped to 0..%LNET_MAX_HEALTH_VALUE
 */
void lnet_ni_healthv_set_locked(struct lnet_ni *ni, int value)
{
	value = clamp(value, 0, LNET_MAX_HEALTH_VALUE);
	if (value != ni->ni_healthv)
		trace_lnet_health(&ni->ni_nid, true, ni->ni_healthv, value);
	ni->ni_healthv = value;
	if (value < LNET_MAX_HEALTH_VALUE) {
		if (list_empty(&ni->ni_recovery) && ni->ni_up &&
		    ni != the_lnet.ln_loni) {
			ni->ni_next_ping =
				lnet_recovery_next_ping(ni->ni_ping_count);
			list_add_tail(&ni->ni_recovery,
				      &the_lnet.ln_ni_recoveryq);
		}
	} else {
		list_del_init(&ni->ni_recovery);
		ni->ni_ping_count = 0;
	}
	if ((!value && !ni->ni_health_down) ||
	    (value == LNET_MAX_HEALTH_VALUE && ni->ni_health_down)) {
		WRITE_ONCE(ni->ni_health_down, !value);
		lnet_ping_target_status_locked();
	}
}
EXPORT_SYMBOL_GPL(lnet_ni_healthv_set_locked);

/* May @lpni be recovered: heard from, and recently enough? */
static bool lnet_peer_ni_recoverable(const struct lnet_peer_ni *lpni)
{
	unsigned int limit = lnet_recovery_limit();

	if (!lpni->lpni_last_alive)
		return false;
	return !limit || time_before(jiffies, lpni->lpni_last_alive +
				     lnet_secs_to_jiffies(limit));
}

/**
 * lnet_peer_ni_healthv_set_locked() - set a peer NI's health value
 * @lpni: the peer NI
 * @value: clamped to 0..%LNET_MAX_HEALTH_VALUE
 */
void lnet_peer_ni_healthv_set_locked(struct lnet_peer_ni *lpni, int value)
{
	value = clamp(value, 0, LNET_MAX_HEALTH_VALUE);
	if (value != lpni->lpni_healthv)
		trace_lnet_health(&lpni->lpni_nid, false, lpni->lpni_healthv,
				  value);
	lpni->lpni_healthv = value;
	if (value == LNET_MAX_HEALTH_VALUE) {
		list_del_init(&lpni->lpni_recovery);
		lpni->lpni_ping_count = 0;
	} else if (list_empty(&lpni->lpni_recovery) &&
		   lnet_peer_ni_recoverable(lpni)) {
		lpni->lpni_next_ping =
			lnet_recovery_next_ping(lpni->lpni_ping_count);
		list_add_tail(&lpni->lpni_recovery,
			      &the_lnet.ln_peer_ni_recoveryq);
	}
}
EXPORT_SYMBOL_GPL(lnet_peer_ni_healthv_set_locked);

/* lnet_peer_ni_visit_locked() callback: set every peer NI's value. */
static bool lnet_peer_ni_healthv_set_each(struct lnet_peer_ni *lpni,
					  void *value)
{
	lnet_peer_ni_healthv_set_locked(lpni, *(int *)value);
	return false;
}

/**
 * lnet_health_set() - "net set --health" / "peer set --health"
 * @peer: a peer NI's (else a local NI's)
 * @nid: its NID, or NULL for every one
 * @value: 0..%LNET_MAX_HEALTH_VALUE
 * @extack: where to say what is wrong
 *
 * Context: Process context.
 * Return: 0; -ENOENT for an unknown NID; -EINVAL for a bad value or
 * 0@lo; -ENETDOWN if LNet is down.
 */
int lnet_health_set(bool peer, const struct lnet_nid *nid, int value,
		    struct netlink_ext_ack *extack)
{
	struct lnet_peer_ni *lpni;
	struct lnet_net *net;
	struct lnet_ni *ni;
	bool found = false;

	if (value < 0 || value > LNET_MAX_HEALTH_VALUE) {
		NL_SET_ERR_MSG(extack, "health value out of range 0..1000");
		return -EINVAL;
	}
	lnet_lock();
	if (the_lnet.ln_state != LNET_STATE_RUNNING) {
		lnet_unlock();
		NL_SET_ERR_MSG(extack, "LNet is not configured");
		return -ENETDOWN;
	}
	if (peer && nid) {
		lpni = lnet_peer_ni_find_locked(nid);
		if (lpni) {
			lnet_peer_ni_healthv_set_locked(lpni, value);
			found = true;
		}
	} else if (peer) {
		/* "--all" with no peers is no error. */
		lnet_peer_ni_visit_locked(lnet_peer_ni_healthv_set_each,
					  &value);
		found = true;
	} else {
		list_for_each_entry(net, &the_lnet.ln_nets, net_list)
			list_for_each_entry(ni, &net->net_nis, ni_list) {
				if (ni == the_lnet.ln_loni || !ni->ni_up ||
				    (nid && !lnet_nid_equal(nid, &ni->ni_nid)))
					continue;
				lnet_ni_healthv_set_locked(ni, value);
				found = true;
			}
		if (!nid)
			found = true;
	}
	lnet_unlock();
	if (!found) {
		if (peer)
			NL_SET_ERR_MSG(extack, "no such peer NI");
		else
			NL_SET_ERR_MSG(extack, "no such local NI");
		return -ENOENT;
	}
	return 0;
}

/**
 * lnet_recovery_nids() - what "lnetctl debug recovery" lists
 * @peer: the peer NI queue (else the local NI queue)
 * @nids: filled with the NIDs on it, in queue order
 * @max: room in @nids
 *
 * Return: how many are on it (may exceed @max).
 */
int lnet_recovery_nids(bool peer, struct lnet_nid *nids, unsigned int max)
{
	struct lnet_peer_ni *lpni;
	struct lnet_ni *ni;
	unsigned int n = 0;

	lnet_lock();
	if (peer) {
		list_for_each_entry(lpni, &the_lnet.ln_peer_ni_recoveryq,
				    lpni_recovery)
			if (n++ < max)
				nids[n - 1] = lpni->lpni_nid;
	} else {
		list_for_each_entry(ni, &the_lnet.ln_ni_recoveryq, ni_recovery)
			if (n++ < max)
				nids[n - 1] = ni->ni_nid;
	}
	lnet_unlock();
	return n;
}
