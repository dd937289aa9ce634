// SPDX-License-Identifier: GPL-2.0
/*
 * ksocklnd: module parameters (Lustre's names and defaults), the LND
 * operations, and starting and stopping an NI.  An NI's NID is its
 * interface's first IPv4 address; with no interface given, the first
 * non-loopback interface that is up and has one.
 */
#include <linux/ethtool.h>
#include <linux/inetdevice.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/wait_bit.h>
#include <net/net_namespace.h>

#include "socklnd.h"

struct ksock_tunables ksock_tun = {
	.sock_timeout		= 50,
	.credits		= 256,
	.peer_credits		= 8,
	.peer_buffer_credits	= 0,
	.peer_timeout		= 180,
	.nscheds		= 0,
	.nconnds		= 4,
	.nconnds_max		= 64,
	.min_reconnectms	= 1000,
	.max_reconnectms	= 60000,
	.eager_ack		= 0,
	.typed_conns		= 1,
	.min_bulk		= 1024,
	.tx_buffer_size		= 0,
	.rx_buffer_size		= 0,
	.nagle			= 0,
	.round_robin		= 1,
	.keepalive		= 30,
	.keepalive_idle		= 30,
	.keepalive_count	= 5,
	.keepalive_intvl	= 5,
	.enable_csum		= 0,
	.inject_csum_error	= 0,
	.nonblk_zcack		= 1,
	.zc_min_payload		= 16384,
	.zc_recv		= 0,
	.zc_recv_min_nfrags	= 16,
	.conns_per_peer		= 0,
	.skip_mr_route_setup	= 0,
	.tos			= -1,
	.protocol		= 3,
};

module_param_named(sock_timeout, ksock_tun.sock_timeout, int, 0644);
MODULE_PARM_DESC(sock_timeout, "seconds without progress before a connection is closed (0: LNet's lnd_timeout)");
module_param_named(credits, ksock_tun.credits, int, 0444);
MODULE_PARM_DESC(credits, "NI send credits");
module_param_named(peer_credits, ksock_tun.peer_credits, int, 0444);
MODULE_PARM_DESC(peer_credits, "send credits per peer NI");
module_param_named(peer_buffer_credits, ksock_tun.peer_buffer_credits, int, 0444);
MODULE_PARM_DESC(peer_buffer_credits, "router buffer credits per peer NI on a router (0: lnet's peer_buffer_credits, else peer_credits)");
module_param_named(peer_timeout, ksock_tun.peer_timeout, int, 0444);
MODULE_PARM_DESC(peer_timeout, "seconds a silent peer stays alive (routers)");
module_param_named(nscheds, ksock_tun.nscheds, int, 0444);
MODULE_PARM_DESC(nscheds, "concurrent rx/tx work items per CPU (0: default)");
module_param_named(nconnds, ksock_tun.nconnds, int, 0444);
MODULE_PARM_DESC(nconnds, "connection workers to start with (they grow on demand up to nconnds_max)");
module_param_named(nconnds_max, ksock_tun.nconnds_max, int, 0444);
MODULE_PARM_DESC(nconnds_max, "most concurrent connects, handshakes and teardowns");
module_param_named(min_reconnectms, ksock_tun.min_reconnectms, int, 0644);
MODULE_PARM_DESC(min_reconnectms, "first reconnect delay (ms)");
module_param_named(max_reconnectms, ksock_tun.max_reconnectms, int, 0644);
MODULE_PARM_DESC(max_reconnectms, "longest reconnect delay (ms)");
module_param_named(eager_ack, ksock_tun.eager_ack, int, 0444);
MODULE_PARM_DESC(eager_ack, "accepted for compatibility; no effect");
module_param_named(typed_conns, ksock_tun.typed_conns, int, 0444);
MODULE_PARM_DESC(typed_conns, "separate CONTROL and bulk connections (0: one V2 ANY connection)");
module_param_named(min_bulk, ksock_tun.min_bulk, int, 0644);
MODULE_PARM_DESC(min_bulk, "messages from this size (headers included) go on bulk connections");
module_param_named(tx_buffer_size, ksock_tun.tx_buffer_size, int, 0644);
MODULE_PARM_DESC(tx_buffer_size, "socket send buffer (0: system default)");
module_param_named(rx_buffer_size, ksock_tun.rx_buffer_size, int, 0644);
MODULE_PARM_DESC(rx_buffer_size, "socket receive buffer (0: system default)");
module_param_named(nagle, ksock_tun.nagle, int, 0644);
MODULE_PARM_DESC(nagle, "enable Nagle's algorithm");
module_param_named(round_robin, ksock_tun.round_robin, int, 0644);
MODULE_PARM_DESC(round_robin, "accepted for compatibility; the least loaded connection is used");
module_param_named(keepalive, ksock_tun.keepalive, int, 0644);
MODULE_PARM_DESC(keepalive, "seconds of silence before a keepalive NOOP (0: none)");
module_param_named(keepalive_idle, ksock_tun.keepalive_idle, int, 0644);
MODULE_PARM_DESC(keepalive_idle, "TCP keepalive idle seconds");
module_param_named(keepalive_count, ksock_tun.keepalive_count, int, 0644);
MODULE_PARM_DESC(keepalive_count, "TCP keepalive probes");
module_param_named(keepalive_intvl, ksock_tun.keepalive_intvl, int, 0644);
MODULE_PARM_DESC(keepalive_intvl, "TCP keepalive probe interval seconds");
module_param_named(enable_csum, ksock_tun.enable_csum, int, 0644);
MODULE_PARM_DESC(enable_csum, "accepted for compatibility; V3 sends no checksum");
module_param_named(inject_csum_error, ksock_tun.inject_csum_error, int, 0644);
MODULE_PARM_DESC(inject_csum_error, "accepted for compatibility; no effect");
module_param_named(nonblk_zcack, ksock_tun.nonblk_zcack, int, 0644);
MODULE_PARM_DESC(nonblk_zcack, "accepted for compatibility; ZC ACKs always go first");
module_param_named(zc_min_payload, ksock_tun.zc_min_payload, int, 0644);
MODULE_PARM_DESC(zc_min_payload, "smallest payload sent by reference with a zero-copy ACK request (min 2048); smaller ones are copied");
module_param_named(zc_recv, ksock_tun.zc_recv, int, 0644);
MODULE_PARM_DESC(zc_recv, "accepted for compatibility; no effect");
module_param_named(zc_recv_min_nfrags, ksock_tun.zc_recv_min_nfrags, int, 0644);
MODULE_PARM_DESC(zc_recv_min_nfrags, "accepted for compatibility; no effect");
module_param_named(conns_per_peer, ksock_tun.conns_per_peer, int, 0644);
MODULE_PARM_DESC(conns_per_peer, "default bulk connections per direction and peer of NIs (0: from link speed)");
module_param_named(skip_mr_route_setup, ksock_tun.skip_mr_route_setup, int, 0444);
MODULE_PARM_DESC(skip_mr_route_setup, "accepted for compatibility (lnetctl's job)");

/* tos: -1 (none) or a ToS byte; other values are refused when written */
static int ksock_tos_set(const char *val, const struct kernel_param *kp)
{
	int tos, rc;

	rc = kstrtoint(val, 0, &tos);
	if (rc)
		return rc;
	if (tos < LNET_GENL_TOS_MIN || tos > LNET_GENL_TOS_MAX)
		return -EINVAL;
	WRITE_ONCE(*(int *)kp->arg, tos);
	return 0;
}

static const struct kernel_param_ops ksock_tos_ops = {
	.set = ksock_tos_set,
	.get = param_get_int,
};

module_param_cb(tos, &ksock_tos_ops, &ksock_tun.tos, 0644);
MODULE_PARM_DESC(tos, "IP ToS byte of the connections of NIs started from then on (-1: none)");
module_param_named(protocol, ksock_tun.protocol, int, 0444);
MODULE_PARM_DESC(protocol, "protocol version initiated (3; 2 with typed_conns=0)");

struct workqueue_struct *ksock_sched_wq;
struct workqueue_struct *ksock_connd_wq;

/* sock_timeout in seconds; 0: LNet's lnd_timeout (spec 3d). */
int ksock_timeout(void)
{
	int t = READ_ONCE(ksock_tun.sock_timeout);

	return t > 0 ? t : lnet_get_lnd_timeout();
}

/* Spec 4.2: floor(log2(Gbps)) / 2 + 1, 1 when the speed is unknown. */
static int ksock_auto_conns_per_peer(struct net_device *dev)
{
	struct ethtool_link_ksettings cmd;
	u32 gbps;

	if (__ethtool_get_link_ksettings(dev, &cmd) ||
	    cmd.base.speed == SPEED_UNKNOWN || cmd.base.speed < 1000)
		return 1;
	gbps = cmd.base.speed / 1000;
	return ilog2(gbps) / 2 + 1;
}

static __be32 ksock_dev_ipv4(struct net_device *dev)
{
	struct in_device *in_dev = __in_dev_get_rtnl(dev);
	const struct in_ifaddr *ifa;

	if (!in_dev)
		return 0;
	in_dev_for_each_ifa_rtnl(ifa, in_dev)
		return ifa->ifa_local;
	return 0;
}

/* The NI's interface and address: the named one, or the first usable. */
static int ksock_ni_address(struct lnet_ni *ni, struct ksock_net *net)
{
	struct net_device *dev;
	int rc = -ENETDOWN;

	rtnl_lock();
	if (ni->ni_ifname[0]) {
		__be32 ip;

		/* a device or an alias label ("eth0:1"): its address */
		dev = lnet_if_lookup_rtnl(ni->ni_ifname, &ip);
		if (dev && (dev->flags & IFF_UP))
			net->ksn_ip = ip;
		if (!dev || !net->ksn_ip)
			dev = NULL;
	} else {
		for_each_netdev(&init_net, dev) {
			if ((dev->flags & IFF_LOOPBACK) ||
			    !(dev->flags & IFF_UP))
				continue;
			net->ksn_ip = ksock_dev_ipv4(dev);
			if (net->ksn_ip)
				break;
		}
		if (net->ksn_ip)
			strscpy(ni->ni_ifname, dev->name, sizeof(ni->ni_ifname));
		else
			dev = NULL;
	}
	if (dev) {
		if (ni->ni_tunables.tos == LNET_NI_TOS_DEFAULT)
			ni->ni_tunables.tos = READ_ONCE(ksock_tun.tos);
		/* 0 (or a negative module parameter): from the link speed */
		if (ni->ni_tunables.conns_per_peer <= 0)
			ni->ni_tunables.conns_per_peer =
				ksock_auto_conns_per_peer(dev);
		rc = 0;
	}
	rtnl_unlock();
	if (rc)
		pr_err("ksocklnd: %s: no interface up with an IPv4 address\n",
		       ni->ni_ifname[0] ? ni->ni_ifname : "(any)");
	return rc;
}

static int ksock_startup(struct lnet_ni *ni)
{
	struct ksock_net *net;
	int rc;

	net = kzalloc(sizeof(*net), GFP_KERNEL);
	if (!net)
		return -ENOMEM;
	rc = ksock_ni_address(ni, net);
	if (rc) {
		kfree(net);
		return rc;
	}
	rc = rhashtable_init(&net->ksn_peer_table, &ksock_peer_params);
	if (rc) {
		kfree(net);
		return rc;
	}
	net->ksn_ni = ni;
	spin_lock_init(&net->ksn_lock);
	INIT_LIST_HEAD(&net->ksn_peers);
	mutex_init(&net->ksn_hs_mutex);
	INIT_LIST_HEAD(&net->ksn_handshakes);
	INIT_DELAYED_WORK(&net->ksn_reaper, ksock_reaper);
	/* Lustre's: wall-clock ns at NI start, constant for its life. */
	net->ksn_incarnation = ktime_get_real_ns();
	lnet_nid4_to_nid(lnet_mknid4(ni->ni_net->net_id, ntohl(net->ksn_ip)),
			 &ni->ni_nid);
	ni->ni_data = net;
	queue_delayed_work(ksock_connd_wq, &net->ksn_reaper, HZ);
	ksock_link_watch(net);
	return 0;
}

/*
 * Stop accepting and connecting, close every connection, fail every
 * queued message, free the peers.  The acceptor no longer hands us
 * sockets for @ni (lnet_acceptor_stop() ran).
 */
/**
 * ksock_connd_queue() - queue one of an NI's handshakes or teardowns
 * @net: the NI
 * @work: the work; it calls ksock_connd_work_done() as its last step
 */
void ksock_connd_queue(struct ksock_net *net, struct work_struct *work)
{
	atomic_inc(&net->ksn_connd_works);
	queue_work(ksock_connd_wq, work);
}

/**
 * ksock_connd_work_done() - the last step of a ksock_connd_queue() work
 * @net: its NI, which may be freed as soon as this returns
 */
void ksock_connd_work_done(struct ksock_net *net)
{
	if (atomic_dec_and_test(&net->ksn_connd_works))
		wake_up_var(&net->ksn_connd_works);
}

/* Wait for the NI's own works on the shared connd workqueue. */
static void ksock_connd_wait(struct ksock_net *net)
{
	wait_var_event(&net->ksn_connd_works,
		       !atomic_read(&net->ksn_connd_works));
}

static void ksock_shutdown(struct lnet_ni *ni)
{
	struct ksock_net *net = ni->ni_data;
	struct ksock_peer *peer, *tmp;

	ksock_link_unwatch(net);
	spin_lock_bh(&net->ksn_lock);
	net->ksn_shutdown = true;
	spin_unlock_bh(&net->ksn_lock);

	cancel_delayed_work_sync(&net->ksn_reaper);
	ksock_handshakes_abort(net);
	list_for_each_entry(peer, &net->ksn_peers, ksp_list)
		cancel_delayed_work_sync(&peer->ksp_connect_work);
	/* Handshakes in progress see ksn_shutdown and give up. */
	ksock_connd_wait(net);
	ksock_net_close_all(net);
	ksock_connd_wait(net);			/* the teardowns */

	list_for_each_entry_safe(peer, tmp, &net->ksn_peers, ksp_list) {
		LIST_HEAD(txs);

		WARN_ON(!list_empty(&peer->ksp_conns));
		spin_lock_bh(&net->ksn_lock);
		list_splice_init(&peer->ksp_txq, &txs);
		list_del(&peer->ksp_list);
		spin_unlock_bh(&net->ksn_lock);
		ksock_txlist_done(&txs, -ESHUTDOWN);
		rhashtable_remove_fast(&net->ksn_peer_table, &peer->ksp_node,
				       ksock_peer_params);
		atomic64_dec(&ksock_stats[KSOCK_STAT_PEERS]);
		kfree(peer);
	}
	rhashtable_destroy(&net->ksn_peer_table);
	ni->ni_data = NULL;
	kfree(net);
}

/* LNet derives a message's deadline from it (lnet/resend.c). */
static unsigned int ksock_get_timeout(void)
{
	return ksock_timeout();
}

/*
 * Its peer reports @nid DOWN (lnet/peer-down.c): its connections go now,
 * their messages fail as if the peer had reset them (what was never
 * written may be sent again by another rail), rather than after
 * sock_timeout of silence.
 */
static void ksock_notify_peer_down(struct lnet_ni *ni,
				   const struct lnet_nid *nid)
{
	struct ksock_net *net = ni->ni_data;
	struct ksock_peer *peer;

	spin_lock_bh(&net->ksn_lock);
	peer = ksock_peer_find_locked(net, nid);
	if (peer)
		ksock_peer_close_conns_locked(peer, -EHOSTUNREACH);
	spin_unlock_bh(&net->ksn_lock);
}

static struct lnet_lnd ksock_lnd = {
	.lnd_type	= LNET_LND_SOCK,
	.lnd_owner	= THIS_MODULE,
	.lnd_startup	= ksock_startup,
	.lnd_shutdown	= ksock_shutdown,
	.lnd_send	= ksock_send,
	.lnd_recv	= ksock_recv,
	.lnd_accept	= ksock_accept,
	.lnd_get_timeout = ksock_get_timeout,
	.lnd_notify_peer_down = ksock_notify_peer_down,
};

static int __init ksock_init(void)
{
	int rc = -ENOMEM;

	if (ksock_tun.typed_conns && ksock_tun.protocol != KSOCK_PROTO_V3)
		pr_warn("ksocklnd: protocol=%d ignored: V3 is initiated\n",
			ksock_tun.protocol);
	ksock_lnd.lnd_tunables = (struct lnet_ni_tunables) {
		.peer_timeout		= ksock_tun.peer_timeout,
		.peer_credits		= ksock_tun.peer_credits,
		.peer_buffer_credits	= ksock_tun.peer_buffer_credits,
		.credits		= ksock_tun.credits,
		.conns_per_peer		= ksock_tun.conns_per_peer,
		.tos			= LNET_NI_TOS_DEFAULT,
	};
	ksock_sched_wq = alloc_workqueue("ksocklnd_sched", WQ_HIGHPRI,
					 max(ksock_tun.nscheds, 0));
	if (!ksock_sched_wq)
		return rc;
	/*
	 * Connects and handshakes block (up to sock_timeout): as Lustre's
	 * connds grow from nconnds to nconnds_max when all are busy, the
	 * workqueue starts workers on demand up to that many, so that a few
	 * unreachable peers do not hold up the connects to all the others.
	 */
	ksock_connd_wq = alloc_workqueue("ksocklnd_connd", WQ_UNBOUND,
					 clamp(max(ksock_tun.nconnds,
						   ksock_tun.nconnds_max), 1,
					       512));
	if (!ksock_connd_wq)
		goto fail_sched;
	ksock_debugfs_init();
	rc = ksock_link_init();
	if (rc)
		goto fail;
	rc = lnet_register_lnd(&ksock_lnd);
	if (rc)
		goto fail_link;
	return 0;
fail_link:
	ksock_link_fini();
fail:
	ksock_debugfs_fini();
	destroy_workqueue(ksock_connd_wq);
fail_sched:
	destroy_workqueue(ksock_sched_wq);
	return rc;
}

static void __exit ksock_exit(void)
{
	/* No NI uses us: each holds a reference on this module. */
	lnet_unregister_lnd(&ksock_lnd);
	ksock_link_fini();
	ksock_debugfs_fini();
	destroy_workqueue(ksock_connd_wq);
	destroy_workqueue(ksock_sched_wq);
}

module_init(ksock_init);
module_exit(ksock_exit);

MODULE_DESCRIPTION("LNet TCP socket LND (ksocklnd)");
MODULE_LICENSE("GPL");
