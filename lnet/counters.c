// SPDX-License-Identifier: GPL-2.0
/*
 * The global counters' snapshot and reset (the control API of ctl.h:
 * "lnetctl stats show|reset", debugfs "stats").  The counters are kept
 * where messages are counted: finalize.c (sent, received, errors),
 * recv.c (drops).
 */
#include <linux/export.h>
#include <linux/string.h>

#include <lnet/lib-lnet.h>

/**
 * lnet_counters_get() - the global counters
 * @c: filled with a consistent snapshot
 *
 * Context: Any context.
 */
void lnet_counters_get(struct lnet_counters_common *c)
{
	lnet_lock();
	*c = the_lnet.ln_counters;
	lnet_unlock();
}
EXPORT_SYMBOL(lnet_counters_get);

/**
 * lnet_counters_reset() - zero the counters, restart the minima
 *
 * msgs_alloc counts live messages and is kept; msgs_max restarts from it.
 * Every NI's and peer NI's counters are zeroed and their credit
 * low-water marks set to the credits available now.  Any context.
 */
void lnet_counters_reset(void)
{
	struct lnet_counters_common *c = &the_lnet.ln_counters;
	struct lnet_net *net;
	struct lnet_ni *ni;
	u32 alloc;

	lnet_lock();
	alloc = c->msgs_alloc;
	memset(c, 0, sizeof(*c));
	c->msgs_alloc = alloc;
	c->msgs_max = alloc;
	memset(the_lnet.ln_drops, 0, sizeof(the_lnet.ln_drops));
	list_for_each_entry(net, &the_lnet.ln_nets, net_list)
		list_for_each_entry(ni, &net->net_nis, ni_list) {
			memset(&ni->ni_stats, 0, sizeof(ni->ni_stats));
			memset(&ni->ni_hstats, 0, sizeof(ni->ni_hstats));
			lnet_credits_reset_min(&ni->ni_txc);
		}
	lnet_peers_reset_stats_locked();
	lnet_unlock();
}
EXPORT_SYMBOL(lnet_counters_reset);
