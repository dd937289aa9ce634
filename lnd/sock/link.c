// SPDX-License-Identifier: GPL-2.0
/*
 * Link state: an NI follows its interface (spec features 10, "Link
 * state").  When the interface goes down or loses its carrier, LNet is
 * told at once (lnet_ni_set_fatal(): selection stops using the NI, our
 * ping buffer reports it down to multi-rail peers) and its connections
 * close with -ENETDOWN, so the messages queued on them are sent again by
 * another NI right away rather than after sock_timeout; once the link is
 * back the NI is usable again and health recovery brings it back to full
 * use.  Only the interface an NI was configured on counts.  When an NI's
 * address is deleted, its connections close at once (they are bound to
 * it); LNet moves the NI to the interface's new address
 * (lnet/ni-addr.c).
 */
#include <linux/inetdevice.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/string.h>

#include "socklnd.h"

static LIST_HEAD(ksock_link_nets);	/* under ksock_link_mutex */
static DEFINE_MUTEX(ksock_link_mutex);

/* Is @dev able to carry traffic? */
static bool ksock_link_up(const struct net_device *dev)
{
	return netif_running(dev) && netif_carrier_ok(dev);
}

/* Is @ifname (a device, or an alias label "eth0:1") on @dev? */
static bool ksock_link_ifname_on(const char *ifname,
				 const struct net_device *dev)
{
	size_t n = strcspn(ifname, ":");

	return strlen(dev->name) == n && !strncmp(ifname, dev->name, n);
}

/* Close every connection of @net: they cannot carry traffic any more. */
static void ksock_link_close_all(struct ksock_net *net)
{
	struct ksock_peer *peer;

	spin_lock_bh(&net->ksn_lock);
	list_for_each_entry(peer, &net->ksn_peers, ksp_list)
		ksock_peer_close_conns_locked(peer, -ENETDOWN);
	spin_unlock_bh(&net->ksn_lock);
}

static void ksock_link_changed(struct ksock_net *net, bool up)
{
	lnet_ni_set_fatal(net->ksn_ni, !up);
	if (!up)
		ksock_link_close_all(net);
}

static int ksock_link_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct ksock_net *net;

	if (event != NETDEV_UP && event != NETDEV_DOWN &&
	    event != NETDEV_CHANGE)
		return NOTIFY_DONE;
	mutex_lock(&ksock_link_mutex);
	list_for_each_entry(net, &ksock_link_nets, ksn_link_list)
		if (ksock_link_ifname_on(net->ksn_ni->ni_ifname, dev))
			ksock_link_changed(net, ksock_link_up(dev));
	mutex_unlock(&ksock_link_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block ksock_link_notifier = {
	.notifier_call = ksock_link_event,
};

/*
 * An NI's address was deleted (a DHCP renew to another one): its
 * connections, bound to it, close at once (what they held is resent by
 * health or fails with a status); LNet moves the NI to the new address
 * or holds it down until one returns (lnet/ni-addr.c).
 */
static int ksock_addr_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	const struct in_ifaddr *ifa = ptr;
	struct net_device *dev = ifa->ifa_dev->dev;
	struct ksock_net *net;

	if (event != NETDEV_DOWN)
		return NOTIFY_DONE;
	mutex_lock(&ksock_link_mutex);
	list_for_each_entry(net, &ksock_link_nets, ksn_link_list)
		if (net->ksn_ip == ifa->ifa_local &&
		    ksock_link_ifname_on(net->ksn_ni->ni_ifname, dev))
			ksock_link_close_all(net);
	mutex_unlock(&ksock_link_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block ksock_addr_notifier = {
	.notifier_call = ksock_addr_event,
};

/**
 * ksock_link_watch() - follow the link of a started NI
 * @net: the NI, started (its interface known)
 */
void ksock_link_watch(struct ksock_net *net)
{
	mutex_lock(&ksock_link_mutex);
	list_add_tail(&net->ksn_link_list, &ksock_link_nets);
	mutex_unlock(&ksock_link_mutex);
}

/**
 * ksock_link_unwatch() - an NI stops: its link no longer matters
 * @net: the NI; no event refers to it once this returns
 */
void ksock_link_unwatch(struct ksock_net *net)
{
	mutex_lock(&ksock_link_mutex);
	list_del(&net->ksn_link_list);
	mutex_unlock(&ksock_link_mutex);
}

int ksock_link_init(void)
{
	int rc = register_netdevice_notifier(&ksock_link_notifier);

	if (rc)
		return rc;
	rc = register_inetaddr_notifier(&ksock_addr_notifier);
	if (rc)
		unregister_netdevice_notifier(&ksock_link_notifier);
	return rc;
}

void ksock_link_fini(void)
{
	unregister_inetaddr_notifier(&ksock_addr_notifier);
	unregister_netdevice_notifier(&ksock_link_notifier);
}
