// SPDX-License-Identifier: GPL-2.0
/*
 * NIDs that follow the address (Documentation/multirail.rst, "NIDs that
 * follow the address"): when the IPv4 address of an NI's interface
 * changes (a DHCP renew), the NI takes the NID of the new address,
 * without a restart of LNet, and in-kernel users are told
 * (lnet_nid_change_notifier_register()).
 *
 * The inetaddr notifier runs under RTNL, and LNet's configuration path
 * takes RTNL under ln_api_mutex (lnet_ni_start()): the notifier only
 * queues a work item, which under ln_api_mutex compares each NI's NID
 * with its interface's first address (lnet_if_lookup_rtnl(), as the LND
 * chose it) and acts (lnet_ni_addr_decide()):
 *
 * - a new address: the NI is stopped (its connections close, what it
 *   holds finishes with a status, lnet_ni_stop()) and started again on
 *   the same interface with the same tunables, in the same place among
 *   the NIs; its former NID is listed DOWN in our ping buffer for
 *   LNET_NI_FORMER_NID_SECS, which is pushed to our multi-rail peers: they
 *   keep the former NID as one of ours, send to the new one, and close
 *   their connections to the old address (a NID gone DOWN);
 * - no address any more: the NI stays, with its NID, reported down
 *   (fatal) until an address returns;
 * - its own address back: up again.
 *
 * Only ksocklnd's NIs follow: o2iblnd's NIs sit on an IPv4 netdev too,
 * but an RDMA device's move to a new address (rdma_cm's rebinding, the
 * GID table) is not tested yet.  No inet6addr notifier: our NIDs are
 * IPv4 only (ksocklnd's NID is its interface's first IPv4 address).
 */
#include <linux/export.h>
#include <linux/inetdevice.h>
#include <linux/netdevice.h>
#include <linux/notifier.h>
#include <linux/rtnetlink.h>
#include <linux/workqueue.h>

#include <kunit/visibility.h>

#include <lnet/api.h>
#include <lnet/lib-lnet.h>

static BLOCKING_NOTIFIER_HEAD(lnet_nid_change_chain);

struct lnet_ni_addr_stats lnet_ni_addr_stats;

/**
 * lnet_nid_change_notifier_register() - be told when an NI's NID changes
 * @nb: its notifier_call is called with event 0 and a
 *	&struct lnet_nid_change (the NI's old and new NID), after the NI
 *	moved to its new NID and the ping buffer announcing it was rebuilt
 *
 * The callbacks run in process context, one change at a time, with no
 * LNet lock held (LNet's configuration mutex included): they may call
 * LNet, send and sleep.  The data is valid during the call only.
 *
 * Context: Process context.
 * Return: 0, or -EEXIST if @nb is registered already.
 */
int lnet_nid_change_notifier_register(struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&lnet_nid_change_chain, nb);
}
EXPORT_SYMBOL(lnet_nid_change_notifier_register);

/**
 * lnet_nid_change_notifier_unregister() - stop being told of NID changes
 * @nb: a block registered with lnet_nid_change_notifier_register()
 *
 * Once this returns no callback of @nb runs (a call in progress has
 * ended), so its module may go.
 *
 * Context: Process context; not from the callback itself.
 * Return: 0, or -ENOENT if @nb is not registered.
 */
int lnet_nid_change_notifier_unregister(struct notifier_block *nb)
{
	return blocking_notifier_chain_unregister(&lnet_nid_change_chain, nb);
}
EXPORT_SYMBOL(lnet_nid_change_notifier_unregister);

/**
 * lnet_ni_addr_decide() - what an NI does about its interface's address
 * @nid: the NI's NID (an IPv4 one, nid4)
 * @lost: the NI is down for want of an address (ni_addr_lost)
 * @have_dev: its interface exists
 * @addr: the interface's address for the NI (lnet_if_lookup_rtnl()), 0
 *	if none
 * @new_nid: out, for LNET_NI_ADDR_MOVE: the NID of @addr on @nid's net
 *
 * Return: what to do (enum lnet_ni_addr_action).
 */
enum lnet_ni_addr_action lnet_ni_addr_decide(const struct lnet_nid *nid,
					     bool lost, bool have_dev,
					     __be32 addr,
					     struct lnet_nid *new_nid)
{
	u64 nid4 = lnet_nid_to_nid4(nid);

	if (!have_dev || !addr)
		return lost ? LNET_NI_ADDR_KEEP : LNET_NI_ADDR_LOST;
	if (lnet_nid4_addr(nid4) == ntohl(addr))
		return lost ? LNET_NI_ADDR_BACK : LNET_NI_ADDR_KEEP;
	lnet_nid4_to_nid(lnet_mknid4(lnet_nid4_net(nid4), ntohl(addr)),
			 new_nid);
	return LNET_NI_ADDR_MOVE;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_ni_addr_decide);

/**
 * lnet_ni_former_listed() - is an NI's former NID in our ping buffer?
 * @ni: the NI
 * @now: jiffies
 *
 * Return: true while the NID it had before its address changed is listed
 * (DOWN), LNET_NI_FORMER_NID_SECS after the change.
 */
bool lnet_ni_former_listed(const struct lnet_ni *ni, unsigned long now)
{
	return ni->ni_former_until && time_before(now, ni->ni_former_until);
}
EXPORT_SYMBOL_IF_KUNIT(lnet_ni_former_listed);

static void lnet_ni_addr_expire_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(lnet_ni_addr_expire_work, lnet_ni_addr_expire_fn);

/* Former NIDs past their time leave the ping buffer (pushed). */
static void lnet_ni_addr_expire_fn(struct work_struct *work)
{
	unsigned long now = jiffies, next = 0;
	bool expired = false;
	struct lnet_net *net;
	struct lnet_ni *ni;

	mutex_lock(&the_lnet.ln_api_mutex);
	if (the_lnet.ln_state != LNET_STATE_RUNNING)
		goto out;
	lnet_lock();
	list_for_each_entry(net, &the_lnet.ln_nets, net_list)
		list_for_each_entry(ni, &net->net_nis, ni_list) {
			if (!ni->ni_former_until)
				continue;
			if (!lnet_ni_former_listed(ni, now)) {
				ni->ni_former_until = 0;
				expired = true;
			} else if (!next ||
				   time_before(ni->ni_former_until, next)) {
				next = ni->ni_former_until;
			}
		}
	lnet_unlock();
	if (expired && lnet_ping_target_update())
		pr_warn("LNet: ping buffer not updated: out of memory\n");
	if (next)
		mod_delayed_work(system_wq, &lnet_ni_addr_expire_work,
				 next - now + 1);
out:
	mutex_unlock(&the_lnet.ln_api_mutex);
}

/*
 * Move @old to the NID of its interface's new address: stop it, start it
 * again with the same interface and tunables, in its place among the
 * NIs (the first NI's NID is our primary NID).  Caller holds
 * ln_api_mutex.  On success *@chg says the NIDs.
 */
static int lnet_ni_addr_move(struct lnet_ni *old, struct lnet_nid_change *chg)
{
	struct lnet_ni_tunables tun = old->ni_tunables;
	struct lnet_net *net = old->ni_net;
	struct list_head *ni_next = old->ni_list.next;
	struct list_head *net_next = net->net_list.next;
	u32 net_id = net->net_id;
	char ifname[IFNAMSIZ];
	struct lnet_ni *ni;
	bool net_kept;
	int rc;

	strscpy(ifname, old->ni_ifname, sizeof(ifname));
	chg->old_nid = old->ni_nid;
	lnet_ni_stop(old);
	net_kept = lnet_net_find_in(&the_lnet.ln_nets, net_id);
	rc = lnet_ni_start(net_id, ifname, &tun, NULL, &ni);
	if (rc)
		return rc;
	lnet_lock();
	if (net_kept)
		list_move_tail(&ni->ni_list, ni_next);
	else
		list_move_tail(&ni->ni_net->net_list, net_next);
	if (!lnet_nid_equal(&ni->ni_nid, &chg->old_nid)) {
		ni->ni_former_nid = chg->old_nid;
		ni->ni_former_until = (jiffies + LNET_NI_FORMER_NID_SECS * HZ) ?: 1;
	}
	lnet_unlock();
	chg->new_nid = ni->ni_nid;
	return 0;
}

/*
 * One pass over the NIs: the lost and returned ones are marked; the
 * first that must move moves, and true is returned with *@chg (another
 * pass follows).  Caller holds ln_api_mutex; LNet runs.
 */
static bool lnet_ni_addr_pass(struct lnet_nid_change *chg)
{
	char old[LNET_NIDSTR_SIZE], new[LNET_NIDSTR_SIZE];
	struct lnet_nid new_nid;
	struct net_device *dev;
	struct lnet_net *net;
	struct lnet_ni *ni;
	__be32 addr;
	int rc;

	list_for_each_entry(net, &the_lnet.ln_nets, net_list) {
		if (lnet_net_type(net->net_id) != LNET_LND_SOCK)
			continue;
		list_for_each_entry(ni, &net->net_nis, ni_list) {
			if (!ni->ni_ifname[0] || !lnet_nid_is_nid4(&ni->ni_nid))
				continue;
			rtnl_lock();
			dev = lnet_if_lookup_rtnl(ni->ni_ifname, &addr);
			rtnl_unlock();
			lnet_nid_to_str(&ni->ni_nid, old, sizeof(old));
			switch (lnet_ni_addr_decide(&ni->ni_nid, ni->ni_addr_lost,
						    dev, addr, &new_nid)) {
			case LNET_NI_ADDR_KEEP:
				break;
			case LNET_NI_ADDR_LOST:
				pr_info("LNet: NI %s: %s has no IPv4 address: down until one returns\n",
					old, ni->ni_ifname);
				ni->ni_addr_lost = true;
				lnet_ni_set_fatal(ni, true);
				lnet_ni_addr_stats.lost++;
				break;
			case LNET_NI_ADDR_BACK:
				ni->ni_addr_lost = false;
				lnet_ni_set_fatal(ni, false);
				break;
			case LNET_NI_ADDR_MOVE:
				lnet_nid_to_str(&new_nid, new, sizeof(new));
				pr_info("LNet: NI %s on %s moves to %s: its address changed\n",
					old, ni->ni_ifname, new);
				rc = lnet_ni_addr_move(ni, chg);
				if (rc) {
					pr_err("LNet: NI %s could not be started on its new address: %d; it is gone\n",
					       old, rc);
					lnet_ni_addr_stats.failed++;
					if (lnet_ping_target_update())
						pr_warn("LNet: ping buffer not updated: out of memory\n");
					return true;	/* the lists changed */
				}
				lnet_ni_addr_stats.moves++;
				if (lnet_ping_target_update())
					pr_warn("LNet: ping buffer not updated: out of memory\n");
				mod_delayed_work(system_wq, &lnet_ni_addr_expire_work,
						 LNET_NI_FORMER_NID_SECS * HZ + 1);
				return true;
			}
		}
	}
	return false;
}

static void lnet_ni_addr_work_fn(struct work_struct *work)
{
	struct lnet_nid_change chg;
	bool moved;

	do {
		chg.old_nid = LNET_ANY_NID;
		chg.new_nid = LNET_ANY_NID;
		mutex_lock(&the_lnet.ln_api_mutex);
		moved = the_lnet.ln_state == LNET_STATE_RUNNING &&
			lnet_ni_addr_pass(&chg);
		mutex_unlock(&the_lnet.ln_api_mutex);
		if (moved && !lnet_nid_is_any(&chg.new_nid))
			blocking_notifier_call_chain(&lnet_nid_change_chain, 0,
						     &chg);
	} while (moved);
}

static DECLARE_WORK(lnet_ni_addr_work, lnet_ni_addr_work_fn);

/* Under RTNL: only a work item, which takes ln_api_mutex (see above). */
static int lnet_inetaddr_event(struct notifier_block *nb, unsigned long event,
			       void *ptr)
{
	const struct in_ifaddr *ifa = ptr;

	if ((event != NETDEV_UP && event != NETDEV_DOWN) ||
	    !net_eq(dev_net(ifa->ifa_dev->dev), &init_net))
		return NOTIFY_DONE;
	if (READ_ONCE(the_lnet.ln_state) == LNET_STATE_RUNNING)
		schedule_work(&lnet_ni_addr_work);
	return NOTIFY_DONE;
}

static struct notifier_block lnet_inetaddr_notifier = {
	.notifier_call = lnet_inetaddr_event,
};

/* Module init: follow the interfaces' addresses. */
int lnet_ni_addr_init(void)
{
	return register_inetaddr_notifier(&lnet_inetaddr_notifier);
}

/* Module exit: no event, no work item after this. */
void lnet_ni_addr_fini(void)
{
	unregister_inetaddr_notifier(&lnet_inetaddr_notifier);
	cancel_work_sync(&lnet_ni_addr_work);
	cancel_delayed_work_sync(&lnet_ni_addr_expire_work);
}
