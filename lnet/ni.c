// SPDX-License-Identifier: GPL-2.0
/*
 * Local nets and NIs: the LND registry, starting an NI (its LND, its
 * tunables, its net) and stopping it in phases (Documentation/
 * lifetimes.rst), "net add" and "net del", and NI snapshots for "net
 * show" (the control API of ctl.h).  LNet's own start and stop, which
 * start and stop the NIs, are startup.c.
 */
#include <linux/export.h>
#include <linux/kmod.h>
#include <linux/inetdevice.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/net_namespace.h>

#include <lnet/lib-lnet.h>
#include <lnet/route.h>
#include <uapi/lnet/lnet_genl.h>

/**
 * lnet_register_lnd() - make an LND available to "net add"
 * @lnd: the LND, with lnd_type and lnd_owner set
 *
 * Context: Process context, typically the LND's module init.
 * Return: 0, or -EEXIST if an LND of that type is registered.
 */
int lnet_register_lnd(struct lnet_lnd *lnd)
{
	struct lnet_lnd *l;
	int rc = 0;

	mutex_lock(&the_lnet.ln_api_mutex);
	list_for_each_entry(l, &the_lnet.ln_lnds, lnd_list)
		if (l->lnd_type == lnd->lnd_type)
			rc = -EEXIST;
	if (!rc) {
		lnd->lnd_refcount = 0;
		list_add_tail(&lnd->lnd_list, &the_lnet.ln_lnds);
	}
	mutex_unlock(&the_lnet.ln_api_mutex);
	return rc;
}
EXPORT_SYMBOL(lnet_register_lnd);

/**
 * lnet_unregister_lnd() - withdraw an LND
 * @lnd: a registered LND; no NI may use it (its module reference keeps
 *	its module loaded while one does)
 *
 * Context: Process context.
 */
void lnet_unregister_lnd(struct lnet_lnd *lnd)
{
	mutex_lock(&the_lnet.ln_api_mutex);
	WARN_ON(lnd->lnd_refcount);
	list_del(&lnd->lnd_list);
	mutex_unlock(&the_lnet.ln_api_mutex);
}
EXPORT_SYMBOL(lnet_unregister_lnd);

static struct lnet_lnd *lnet_find_lnd(u32 type)
{
	struct lnet_lnd *l;

	list_for_each_entry(l, &the_lnet.ln_lnds, lnd_list)
		if (l->lnd_type == type)
			return l;
	return NULL;
}

/* The module providing the LND of @type, loaded on demand by "net add". */
static const char *lnet_lnd_modname(u32 type)
{
	switch (type) {
	case LNET_LND_SOCK:
		return "ksocklnd";
	case LNET_LND_O2IB:
		return "ko2iblnd";
	default:
		return NULL;
	}
}

/**
 * lnet_net_find_in() - a net of a list by its id
 * @nets: the_lnet.ln_nets (under the LNet lock or ln_api_mutex), or a
 *	KUnit test's list
 * @net_id: the net
 *
 * Return: the net, or NULL.
 */
struct lnet_net *lnet_net_find_in(struct list_head *nets, u32 net_id)
{
	struct lnet_net *net;

	list_for_each_entry(net, nets, net_list)
		if (net->net_id == net_id)
			return net;
	return NULL;
}

static struct lnet_net *lnet_find_net(u32 net_id)
{
	return lnet_net_find_in(&the_lnet.ln_nets, net_id);
}

/* Lustre's peer_credits default, for a net we have no NI on. */
#define LNET_PEER_CREDITS_DEFAULT	8

/**
 * lnet_net_peer_credits_locked() - peer_credits of a new peer NI on a net
 * @net_id: the peer NI's network
 *
 * Return: the peer_credits of our first NI on @net_id, or Lustre's
 * default (8) when we have none there.
 */
int lnet_net_peer_credits_locked(u32 net_id)
{
	struct lnet_net *net = lnet_find_net(net_id);
	struct lnet_ni *ni;

	ni = net ? list_first_entry_or_null(&net->net_nis, struct lnet_ni,
					    ni_list) : NULL;
	return ni ? ni->ni_tunables.peer_credits : LNET_PEER_CREDITS_DEFAULT;
}

/* True if @nid is the NID of one of our NIs (0@lo included). */
bool lnet_nid_is_local_locked(const struct lnet_nid *nid)
{
	struct lnet_net *net;
	struct lnet_ni *ni;

	list_for_each_entry(net, &the_lnet.ln_nets, net_list)
		list_for_each_entry(ni, &net->net_nis, ni_list)
			if (ni->ni_up && lnet_nid_equal(&ni->ni_nid, nid))
				return true;
	return false;
}
EXPORT_SYMBOL_GPL(lnet_nid_is_local_locked);

/**
 * lnet_ni_set_fatal() - an LND reports an NI's link or device down or up
 * @ni: the NI, started (between the LND's startup and its shutdown)
 * @fatal: true when its link is down or its device gone, false when it
 *	works again
 *
 * A fatal NI is chosen to send from only when its net has no other
 * (lnet_ni_better()), is reported down by
 * ``lnetctl net show`` and in this node's ping replies (so multi-rail
 * peers stop using it), until the LND clears it or the NI is deleted.
 *
 * Context: any (the ping buffer is updated from a work item).
 */
void lnet_ni_set_fatal(struct lnet_ni *ni, bool fatal)
{
	char nid[LNET_NIDSTR_SIZE];

	if (READ_ONCE(ni->ni_fatal) == fatal)
		return;
	WRITE_ONCE(ni->ni_fatal, fatal);
	lnet_nid_to_str(&ni->ni_nid, nid, sizeof(nid));
	pr_info("LNet: NI %s %s\n", nid,
		fatal ? "down: its link or device failed" : "up again");
	lnet_ping_target_status_later();
}
EXPORT_SYMBOL(lnet_ni_set_fatal);

/* The last sender left the ni_senders of a stopping NI. */
static void lnet_ni_senders_gone(struct percpu_ref *ref)
{
	struct lnet_ni *ni = container_of(ref, struct lnet_ni, ni_senders);

	complete(&ni->ni_senders_gone);
}

void lnet_ni_put_locked(struct lnet_ni *ni)
{
	if (!--ni->ni_refcount)
		wake_up_all(&the_lnet.ln_msgs_wq);
}

/* Tunables: the LND's defaults where @tun is negative, then checked. */
static int lnet_ni_tunables(struct lnet_ni_tunables *out,
			    const struct lnet_ni_tunables *tun,
			    const struct lnet_lnd *lnd,
			    struct netlink_ext_ack *extack)
{
	const struct lnet_ni_tunables *d = &lnd->lnd_tunables;

	*out = *d;
	if (tun) {
		if (tun->peer_timeout >= 0)
			out->peer_timeout = tun->peer_timeout;
		if (tun->peer_credits >= 0)
			out->peer_credits = tun->peer_credits;
		if (tun->peer_buffer_credits >= 0)
			out->peer_buffer_credits = tun->peer_buffer_credits;
		if (tun->credits >= 0)
			out->credits = tun->credits;
		if (tun->conns_per_peer >= 0)
			out->conns_per_peer = tun->conns_per_peer;
		if (tun->peercredits_hiw >= 0)
			out->peercredits_hiw = tun->peercredits_hiw;
		if (tun->map_on_demand >= 0)
			out->map_on_demand = tun->map_on_demand;
		if (tun->concurrent_sends >= 0)
			out->concurrent_sends = tun->concurrent_sends;
		if (tun->fmr_pool_size >= 0)
			out->fmr_pool_size = tun->fmr_pool_size;
		if (tun->fmr_flush_trigger >= 0)
			out->fmr_flush_trigger = tun->fmr_flush_trigger;
		if (tun->fmr_cache >= 0)
			out->fmr_cache = tun->fmr_cache;
		if (tun->ntx >= 0)
			out->ntx = tun->ntx;
		if (tun->tos != LNET_NI_TOS_DEFAULT)
			out->tos = tun->tos;
	}
	if (out->credits && out->peer_credits > out->credits) {
		NL_SET_ERR_MSG(extack, "peer_credits exceeds credits");
		return -EINVAL;
	}
	/* Given ones only: an LND clamps its module parameter's value. */
	if (tun && tun->peercredits_hiw > 0 &&
	    tun->peercredits_hiw >= out->peer_credits) {
		NL_SET_ERR_MSG(extack,
			       "peercredits_hiw must be below peer_credits");
		return -EINVAL;
	}
	if (tun && tun->concurrent_sends > 2 * out->peer_credits) {
		NL_SET_ERR_MSG(extack,
			       "concurrent_sends exceeds twice peer_credits");
		return -EINVAL;
	}
	return 0;
}

/**
 * lnet_if_lookup_rtnl() - the device and IPv4 address an interface name gives
 * @name: a device name ("eth0") or an alias label ("eth0:1", the label of
 *	  one of eth0's IPv4 addresses, as "ip addr add ... label eth0:1")
 * @addr: out: the device's first IPv4 address, or for an alias the address
 *	  carrying that label; 0 if there is none
 *
 * As stock's interface enumeration, which lists every IPv4 address under
 * its label: an NI on an alias takes that address, on its device.  The
 * caller holds the RTNL lock; no reference is taken on the device.
 *
 * Return: the device, or NULL if there is no device of that name or no
 * address with that alias label.
 */
struct net_device *lnet_if_lookup_rtnl(const char *name, __be32 *addr)
{
	char devname[IFNAMSIZ];
	const struct in_ifaddr *ifa;
	struct in_device *in_dev;
	struct net_device *dev;
	const char *colon;

	ASSERT_RTNL();
	*addr = 0;
	colon = strchr(name, ':');
	strscpy(devname, name, sizeof(devname));
	if (colon && colon - name < sizeof(devname))
		devname[colon - name] = '\0';
	dev = __dev_get_by_name(&init_net, devname);
	if (!dev)
		return NULL;
	in_dev = __in_dev_get_rtnl(dev);
	if (!in_dev)
		return colon ? NULL : dev;
	in_dev_for_each_ifa_rtnl(ifa, in_dev) {
		if (!colon || !strcmp(ifa->ifa_label, name)) {
			*addr = ifa->ifa_local;
			return dev;
		}
	}
	return colon ? NULL : dev;
}
EXPORT_SYMBOL_GPL(lnet_if_lookup_rtnl);

/* Start one NI (in *@nip if not NULL); the caller holds ln_api_mutex. */
int lnet_ni_start(u32 net_id, const char *ifname,
		  const struct lnet_ni_tunables *tun,
		  struct netlink_ext_ack *extack, struct lnet_ni **nip)
{
	struct lnet_net *net, *newnet = NULL;
	struct lnet_lnd *lnd;
	struct lnet_ni *ni;
	int rc;

	lnd = lnet_find_lnd(lnet_net_type(net_id));
	if (!lnd && lnet_lnd_modname(lnet_net_type(net_id))) {
		/* Its init registers it, which takes ln_api_mutex. */
		mutex_unlock(&the_lnet.ln_api_mutex);
		request_module("%s", lnet_lnd_modname(lnet_net_type(net_id)));
		mutex_lock(&the_lnet.ln_api_mutex);
		if (the_lnet.ln_state != LNET_STATE_RUNNING) {
			NL_SET_ERR_MSG(extack, "LNet stopped meanwhile");
			return -ENETDOWN;
		}
		lnd = lnet_find_lnd(lnet_net_type(net_id));
	}
	if (!lnd) {
		NL_SET_ERR_MSG(extack, "no LND of this network type is loaded");
		return -EPROTONOSUPPORT;
	}
	ni = kzalloc(sizeof(*ni), GFP_KERNEL);
	if (!ni)
		return -ENOMEM;
	rc = lnet_ni_tunables(&ni->ni_tunables, tun, lnd, extack);
	if (rc)
		goto free_ni;
	if (ifname && *ifname) {
		struct net_device *dev;
		__be32 addr;

		rtnl_lock();
		dev = lnet_if_lookup_rtnl(ifname, &addr);
		rtnl_unlock();
		if (!dev) {
			if (strchr(ifname, ':'))
				NL_SET_ERR_MSG(extack, "no such interface alias");
			else
				NL_SET_ERR_MSG(extack, "no such interface");
			rc = -ENODEV;
			goto free_ni;
		}
		strscpy(ni->ni_ifname, ifname, sizeof(ni->ni_ifname));
	}
	net = lnet_find_net(net_id);
	if (net) {
		struct lnet_ni *o;

		list_for_each_entry(o, &net->net_nis, ni_list)
			if (!strcmp(o->ni_ifname, ni->ni_ifname)) {
				NL_SET_ERR_MSG(extack, "the NI exists");
				rc = -EEXIST;
				goto free_ni;
			}
	} else {
		newnet = kzalloc(sizeof(*newnet), GFP_KERNEL);
		if (!newnet) {
			rc = -ENOMEM;
			goto free_ni;
		}
		newnet->net_id = net_id;
		newnet->net_lnd = lnd;
		newnet->net_last_ping = jiffies;
		INIT_LIST_HEAD(&newnet->net_nis);
		net = newnet;
	}
	if (!try_module_get(lnd->lnd_owner)) {
		rc = -EPROTONOSUPPORT;
		goto free_net;
	}
	ni->ni_net = net;
	ni->ni_refcount = 1;
	INIT_LIST_HEAD(&ni->ni_list);
	ni->ni_healthv = LNET_MAX_HEALTH_VALUE;
	INIT_LIST_HEAD(&ni->ni_recovery);
	lnet_credits_init(&ni->ni_txc, ni->ni_tunables.credits);
	init_completion(&ni->ni_senders_gone);
	rc = percpu_ref_init(&ni->ni_senders, lnet_ni_senders_gone, 0,
			     GFP_KERNEL);
	if (rc)
		goto put_lnd;
	rc = lnd->lnd_startup(ni);
	if (rc) {
		NL_SET_ERR_MSG(extack, "the LND failed to start the NI");
		goto exit_senders;
	}
	if (lnd->lnd_accept) {
		rc = lnet_acceptor_start(ni);
		if (rc) {
			NL_SET_ERR_MSG(extack, "cannot listen on the acceptor port");
			lnd->lnd_shutdown(ni);
			goto exit_senders;
		}
	}
	lnd->lnd_refcount++;
	lnet_lock();
	if (newnet)
		list_add_tail(&newnet->net_list, &the_lnet.ln_nets);
	list_add_tail(&ni->ni_list, &net->net_nis);
	ni->ni_up = true;
	if (lnd == &lnet_lolnd)
		the_lnet.ln_loni = ni;
	lnet_unlock();
	if (nip)
		*nip = ni;
	return 0;

exit_senders:
	percpu_ref_exit(&ni->ni_senders);
put_lnd:
	module_put(lnd->lnd_owner);
free_net:
	kfree(newnet);
free_ni:
	kfree(ni);
	return rc;
}

/*
 * Stop one NI, in phases (Documentation/lifetimes.rst, "Stopping an NI"):
 *
 * 1. No new message chooses it (ni_up, under the lock selection takes).
 * 2. Senders in flight, which chose it before and are on their way into
 *    its LND's lnd_send(), get there while the LND still runs; any later
 *    one is refused (ni_senders).
 * 3. The acceptor stops handing it connections.
 * 4. Every message queued for it fails with -ESHUTDOWN: those waiting
 *    for its credits, and those waiting for a credit of a peer NI to
 *    leave by it (peer NIs are shared by the local NIs that reach them,
 *    so a waiter left there would later be handed a credit and sent
 *    through this NI after it is gone).
 * 5. Its LND shuts it down, finalizing whatever it still holds.
 * 6. Once the last message that refers to it is freed, it is freed.
 *
 * Caller holds ln_api_mutex.
 */
void lnet_ni_stop(struct lnet_ni *ni)
{
	struct lnet_net *net = ni->ni_net;
	struct lnet_lnd *lnd = net->net_lnd;
	struct lnet_msg *msg, *tmp;
	LIST_HEAD(failed);

	lnet_lock();
	ni->ni_up = false;
	list_del_init(&ni->ni_recovery);
	lnet_unlock();

	percpu_ref_kill(&ni->ni_senders);
	wait_for_completion(&ni->ni_senders_gone);

	if (lnd->lnd_accept)
		lnet_acceptor_stop(ni);
	/* Nothing held for a delay rule keeps the NI or its LND's buffers. */
	lnet_fault_delay_flush_ni(ni);

	lnet_lock();
	lnet_credits_drain(&ni->ni_txc, &failed);
	list_for_each_entry(msg, &failed, msg_list)
		msg->msg_txcredit = false;
	lnet_peers_drain_ni_locked(ni, &failed);
	lnet_unlock();
	list_for_each_entry_safe(msg, tmp, &failed, msg_list) {
		list_del_init(&msg->msg_list);
		/* They never left: another NI may take them (lnet/resend.c). */
		msg->msg_health_status = LNET_MSG_STATUS_LOCAL_DROPPED;
		lnet_finalize(msg, -ESHUTDOWN);
	}

	lnd->lnd_shutdown(ni);

	lnet_lock();
	list_del(&ni->ni_list);
	if (ni == the_lnet.ln_loni)
		the_lnet.ln_loni = NULL;
	lnet_ni_put_locked(ni);
	lnet_unlock();
	wait_event(the_lnet.ln_msgs_wq, !READ_ONCE(ni->ni_refcount));

	percpu_ref_exit(&ni->ni_senders);
	lnd->lnd_refcount--;
	module_put(lnd->lnd_owner);
	kfree(ni);
	if (list_empty(&net->net_nis)) {
		lnet_lock();
		list_del(&net->net_list);
		lnet_unlock();
		kfree(net);
	}
}

/* Stop every NI, lo last, as its queue may hold other NIs' messages. */
void lnet_stop_all_nis(void)
{
	struct lnet_net *net, *ntmp;
	struct lnet_ni *ni;
	bool last;

	list_for_each_entry_safe_reverse(net, ntmp, &the_lnet.ln_nets,
					 net_list) {
		if (net->net_lnd == &lnet_lolnd)
			continue;
		/* Stopping a net's last NI frees the net. */
		do {
			ni = list_first_entry(&net->net_nis, struct lnet_ni,
					      ni_list);
			last = list_is_singular(&net->net_nis);
			lnet_ni_stop(ni);
		} while (!last);
	}
	if (the_lnet.ln_loni) {
		/* Loopback delivers everything it has queued first. */
		wait_event(the_lnet.ln_msgs_wq,
			   !READ_ONCE(the_lnet.ln_counters.msgs_alloc));
		lnet_ni_stop(the_lnet.ln_loni);
	}
}

/**
 * lnet_net_add() - add a local NI
 * @net_id: the network, e.g. tcp1; must not be lo
 * @ifname: the interface the NI uses ("" where the LND picks one)
 * @tun: tunables; negative fields take the LND's default
 * @extack: where to report an error
 *
 * See include/lnet/ctl.h.
 *
 * Context: Process context.
 * Return: 0 or -errno.
 */
int lnet_net_add(u32 net_id, const char *ifname,
		 const struct lnet_ni_tunables *tun,
		 struct netlink_ext_ack *extack)
{
	struct lnet_ni *ni;
	int rc;

	if (lnet_net_type(net_id) == LNET_LND_LO) {
		NL_SET_ERR_MSG(extack, "lo is configured implicitly");
		return -EINVAL;
	}
	mutex_lock(&the_lnet.ln_api_mutex);
	if (the_lnet.ln_state != LNET_STATE_RUNNING) {
		NL_SET_ERR_MSG(extack, "LNet is not configured");
		rc = -ENETDOWN;
	} else {
		rc = lnet_ni_start(net_id, ifname, tun, extack, &ni);
		if (!rc) {
			/* Peers must learn of it: no NI they cannot see. */
			rc = lnet_ping_target_update();
			if (rc) {
				NL_SET_ERR_MSG(extack,
					       "cannot rebuild the ping buffer");
				lnet_ni_stop(ni);
			}
		}
	}
	mutex_unlock(&the_lnet.ln_api_mutex);
	return rc;
}
EXPORT_SYMBOL(lnet_net_add);

/**
 * lnet_net_del() - remove local NIs
 * @net_id: the network
 * @ifname: the NI's interface, or NULL for every NI of @net_id
 * @nid: the NI's NID, or NULL for any
 * @extack: where to report an error
 *
 * Context: Process context.
 * Return: 0, -ENOENT if nothing matches, -EINVAL for lo.
 */
int lnet_net_del(u32 net_id, const char *ifname, const struct lnet_nid *nid,
		 struct netlink_ext_ack *extack)
{
	struct lnet_ni *ni, *tmp;
	struct lnet_net *net;
	int rc = -ENOENT;

	if (lnet_net_type(net_id) == LNET_LND_LO) {
		NL_SET_ERR_MSG(extack, "lo cannot be removed");
		return -EINVAL;
	}
	mutex_lock(&the_lnet.ln_api_mutex);
	net = the_lnet.ln_state == LNET_STATE_RUNNING ?
	      lnet_find_net(net_id) : NULL;
	if (net) {
		list_for_each_entry_safe(ni, tmp, &net->net_nis, ni_list) {
			bool last = list_is_last(&ni->ni_list, &net->net_nis);

			if ((ifname && strcmp(ifname, ni->ni_ifname)) ||
			    (nid && !lnet_nid_equal(nid, &ni->ni_nid)))
				continue;
			rc = 0;
			lnet_ni_stop(ni);	/* may free net when last */
			if (last)
				break;
		}
	}
	if (rc) {
		NL_SET_ERR_MSG(extack, "no such NI");
	} else {
		lnet_ping_target_update();
		if (!lnet_find_net(net_id))
			lnet_routes_net_deleted(net_id);
	}
	mutex_unlock(&the_lnet.ln_api_mutex);
	return rc;
}
EXPORT_SYMBOL(lnet_net_del);

/**
 * lnet_ni_conns_per_peer_set() - "net set --conns-per-peer"
 * @nid: the local NI's NID, or NULL for every NI but 0@lo
 * @value: 1..%LNET_GENL_CONNS_PER_PEER_MAX
 * @extack: where to say what is wrong
 *
 * The LNDs read the NI's conns_per_peer when they connect, so the value
 * counts for the connections made from now on, as Lustre's; those up
 * stay.  0 (from the link speed) is taken by "net add" only.
 *
 * Context: Process context.
 * Return: 0; -ENOENT for an unknown NID; -EINVAL for a bad value or
 * 0@lo; -ENETDOWN if LNet is down.
 */
int lnet_ni_conns_per_peer_set(const struct lnet_nid *nid, int value,
			       struct netlink_ext_ack *extack)
{
	bool found = !nid, lo = false;
	struct lnet_net *net;
	struct lnet_ni *ni;

	if (value < 1 || value > LNET_GENL_CONNS_PER_PEER_MAX) {
		NL_SET_ERR_MSG(extack, "conns_per_peer out of range 1..127");
		return -EINVAL;
	}
	lnet_lock();
	if (the_lnet.ln_state != LNET_STATE_RUNNING) {
		lnet_unlock();
		NL_SET_ERR_MSG(extack, "LNet is not configured");
		return -ENETDOWN;
	}
	list_for_each_entry(net, &the_lnet.ln_nets, net_list)
		list_for_each_entry(ni, &net->net_nis, ni_list) {
			if (nid && !lnet_nid_equal(nid, &ni->ni_nid))
				continue;
			found = true;
			if (ni == the_lnet.ln_loni) {
				lo = !!nid;
				continue;
			}
			WRITE_ONCE(ni->ni_tunables.conns_per_peer, value);
		}
	lnet_unlock();
	if (!found) {
		NL_SET_ERR_MSG(extack, "no such local NI");
		return -ENOENT;
	}
	if (lo) {
		NL_SET_ERR_MSG(extack, "0@lo has no conns_per_peer");
		return -EINVAL;
	}
	return 0;
}

static void lnet_ni_fill_info(const struct lnet_ni *ni,
			      struct lnet_ni_info *info)
{
	const struct lnet_ni_stats *s = &ni->ni_stats;

	memset(info, 0, sizeof(*info));
	info->nid = ni->ni_nid;
	info->net_id = ni->ni_net->net_id;
	info->up = lnet_ni_status_up(ni);
	strscpy(info->ifname, ni->ni_ifname, sizeof(info->ifname));
	info->tunables = ni->ni_tunables;
	info->send_count = s->send_count;
	info->recv_count = s->recv_count;
	info->drop_count = s->drop_count;
	memcpy(info->sent, s->sent, sizeof(info->sent));
	memcpy(info->received, s->received, sizeof(info->received));
	memcpy(info->dropped, s->dropped, sizeof(info->dropped));
	info->send_length = s->send_length;
	info->recv_length = s->recv_length;
	info->drop_length = s->drop_length;
	info->tx_credits_max = ni->ni_txc.max;
	info->tx_credits = ni->ni_txc.credits;
	info->tx_credits_min = ni->ni_txc.min;
	memcpy(info->lat, s->lat, sizeof(info->lat));
	info->udsp_net_prio = lnet_udsp_prio_find(&the_lnet.ln_udsp,
						  LNET_UDSP_SRC, true,
						  &ni->ni_nid,
						  ni->ni_net->net_id);
	info->udsp_nid_prio = lnet_udsp_prio_find(&the_lnet.ln_udsp,
						  LNET_UDSP_SRC, false,
						  &ni->ni_nid, LNET_NET_ANY);
	info->fatal = READ_ONCE(ni->ni_fatal);
	info->healthv = ni->ni_healthv;
	info->hstats = ni->ni_hstats;
	info->ping_count = ni->ni_ping_count;
	info->next_ping = list_empty(&ni->ni_recovery) ? 0 :
			  lnet_jiffies_to_mono_secs(ni->ni_next_ping);
	info->lnd_timeout = ni->ni_net->net_lnd->lnd_get_timeout ?
			    ni->ni_net->net_lnd->lnd_get_timeout() : -1;
}

/**
 * lnet_ni_info_get() - snapshot the @idx-th local NI
 * @idx: position in configuration order; 0 is 0@lo
 * @info: filled on success
 *
 * Context: Process context.
 * Return: 0, or -ENOENT past the last NI (or when LNet is down).
 */
int lnet_ni_info_get(unsigned int idx, struct lnet_ni_info *info)
{
	struct lnet_net *net;
	struct lnet_ni *ni;
	int rc = -ENOENT;

	mutex_lock(&the_lnet.ln_api_mutex);
	lnet_lock();
	list_for_each_entry(net, &the_lnet.ln_nets, net_list) {
		list_for_each_entry(ni, &net->net_nis, ni_list) {
			if (idx--)
				continue;
			lnet_ni_fill_info(ni, info);
			rc = 0;
			goto out;
		}
	}
out:
	lnet_unlock();
	mutex_unlock(&the_lnet.ln_api_mutex);
	return rc;
}
EXPORT_SYMBOL(lnet_ni_info_get);
