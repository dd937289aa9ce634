// SPDX-License-Identifier: GPL-2.0
/*
 * ko2iblnd: module parameters (Lustre's names and defaults), the LND
 * operations, and starting and stopping an NI: its NID is the IPv4
 * address of its interface, on which it listens with rdma_cm at port
 * "service" (987).
 */
#include <kunit/visibility.h>
#include <linux/inetdevice.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/wait_bit.h>
#include <net/net_namespace.h>

#include "o2iblnd.h"

struct kib_tunables kib_tun = {
	.service		= IBLND_SERVICE_PORT,
	.cksum			= 0,
	.timeout		= 50,
	.nscheds		= 0,
	.ntx			= 512,
	.credits		= 256,
	.peer_credits		= 8,
	.peer_credits_hiw	= 0,
	.peer_buffer_credits	= 0,
	.peer_timeout		= 180,
	.retry_count		= 5,
	.rnr_retry_count	= 6,
	.keepalive		= 100,
	.concurrent_sends	= 0,
	.map_on_demand		= 1,
	.fmr_pool_size		= 512,
	.fmr_flush_trigger	= 384,
	.fmr_cache		= 1,
	.require_privileged_port = 0,
	.use_privileged_port	= 1,
	.conns_per_peer		= 1,
	.tos			= -1,
	.ib_mtu			= 0,
	.wrq_sge		= 2,
	.msg_version		= IBLND_MSG_VERSION,
};
EXPORT_SYMBOL_IF_KUNIT(kib_tun);

module_param_named(service, kib_tun.service, int, 0444);
MODULE_PARM_DESC(service, "rdma_cm port to listen on and connect to");
module_param_named(cksum, kib_tun.cksum, int, 0644);
MODULE_PARM_DESC(cksum, "checksum messages (not RDMA data)");
module_param_named(timeout, kib_tun.timeout, int, 0644);
MODULE_PARM_DESC(timeout, "seconds a message may wait before its connection is closed (0: LNet's lnd_timeout)");
module_param_named(nscheds, kib_tun.nscheds, int, 0444);
MODULE_PARM_DESC(nscheds, "accepted for compatibility; completions run on ib_comp_wq");
module_param_named(ntx, kib_tun.ntx, int, 0444);
MODULE_PARM_DESC(ntx, "accepted for compatibility; tx descriptors are allocated on demand");
module_param_named(credits, kib_tun.credits, int, 0444);
MODULE_PARM_DESC(credits, "NI send credits");
module_param_named(peer_credits, kib_tun.peer_credits, int, 0444);
MODULE_PARM_DESC(peer_credits, "send credits per peer NI: the queue depth proposed");
module_param_named(peer_credits_hiw, kib_tun.peer_credits_hiw, int, 0444);
MODULE_PARM_DESC(peer_credits_hiw, "default of NIs: credits owed that make a NOOP return them (0: peer_credits/2)");
module_param_named(peer_buffer_credits, kib_tun.peer_buffer_credits, int, 0444);
MODULE_PARM_DESC(peer_buffer_credits, "router buffer credits per peer NI on a router (0: lnet's peer_buffer_credits, else peer_credits)");
module_param_named(peer_timeout, kib_tun.peer_timeout, int, 0444);
MODULE_PARM_DESC(peer_timeout, "seconds a silent peer stays alive (routers)");
module_param_named(retry_count, kib_tun.retry_count, int, 0644);
MODULE_PARM_DESC(retry_count, "transport retries (IB CM retry_count)");
module_param_named(rnr_retry_count, kib_tun.rnr_retry_count, int, 0644);
MODULE_PARM_DESC(rnr_retry_count, "RNR retries (IB CM rnr_retry_count)");
module_param_named(keepalive, kib_tun.keepalive, int, 0644);
MODULE_PARM_DESC(keepalive, "seconds without sending before a NOOP (0: none)");
module_param_named(concurrent_sends, kib_tun.concurrent_sends, int, 0444);
MODULE_PARM_DESC(concurrent_sends, "default of NIs: messages posted at once per connection (0: queue depth)");
module_param_named(map_on_demand, kib_tun.map_on_demand, int, 0444);
MODULE_PARM_DESC(map_on_demand, "accepted for compatibility; no effect");
module_param_named(fmr_pool_size, kib_tun.fmr_pool_size, int, 0444);
MODULE_PARM_DESC(fmr_pool_size, "default of NIs: MRs per chunk of the FastReg pool");
module_param_named(fmr_flush_trigger, kib_tun.fmr_flush_trigger, int, 0444);
MODULE_PARM_DESC(fmr_flush_trigger, "default of NIs: grow the MR pool when fewer than fmr_pool_size - this are free");
module_param_named(fmr_cache, kib_tun.fmr_cache, int, 0444);
MODULE_PARM_DESC(fmr_cache, "accepted for compatibility; no effect");
module_param_named(fmr_pool_max, kib_tun.fmr_pool_max, int, 0444);
MODULE_PARM_DESC(fmr_pool_max, "not Lustre's: most MRs in an NI's pool (0: no limit but memory); for tests of an exhausted pool");
module_param_named(require_privileged_port, kib_tun.require_privileged_port, int, 0644);
MODULE_PARM_DESC(require_privileged_port, "reject connections from ports above 1023");
module_param_named(use_privileged_port, kib_tun.use_privileged_port, int, 0644);
MODULE_PARM_DESC(use_privileged_port, "connect from a port below 1024 (falls back if none is free)");
module_param_named(conns_per_peer, kib_tun.conns_per_peer, int, 0444);
MODULE_PARM_DESC(conns_per_peer, "default of NIs: connections to open to each peer (1..127)");
module_param_named(msg_version, kib_tun.msg_version, int, 0444);
MODULE_PARM_DESC(msg_version, "not Lustre's: 18 (0x12, V2) or, to test interoperability, 17 (0x11): propose V1 and refuse V2, as Lustre 1.8 did");
module_param_named(tos, kib_tun.tos, int, 0444);
MODULE_PARM_DESC(tos, "type of service of connections (-1: unset)");
module_param_named(ib_mtu, kib_tun.ib_mtu, int, 0444);
MODULE_PARM_DESC(ib_mtu, "accepted for compatibility; no effect");
module_param_named(wrq_sge, kib_tun.wrq_sge, int, 0444);
MODULE_PARM_DESC(wrq_sge, "accepted for compatibility; no effect");

struct workqueue_struct *kib_wq;

/**
 * kib_timeout() - the timeout tunable in seconds, never 0
 *
 * Return: seconds; 0 in the tunable: LNet's lnd_timeout (spec 3d).
 */
int kib_timeout(void)
{
	int t = READ_ONCE(kib_tun.timeout);

	return t > 0 ? t : lnet_get_lnd_timeout();
}
EXPORT_SYMBOL_IF_KUNIT(kib_timeout);

/**
 * kib_peer_tx_timeout() - how long a message may wait for a connection
 *
 * Spec 5.12: the connect-request timeout, max(5 s, timeout / 4), + 10 s.
 *
 * Return: jiffies.
 */
unsigned long kib_peer_tx_timeout(void)
{
	return msecs_to_jiffies(max(5000, kib_timeout() * 1000 / 4) + 10000);
}

/* The named interface must be up with an IPv4 address. */
static int kib_ni_address(struct lnet_ni *ni, struct kib_net *net)
{
	struct net_device *dev;
	__be32 ip;

	if (!ni->ni_ifname[0]) {
		pr_err("ko2iblnd: an o2ib NI needs an interface\n");
		return -EINVAL;
	}
	rtnl_lock();
	/* a device or an alias label ("ib0:1"): its address */
	dev = lnet_if_lookup_rtnl(ni->ni_ifname, &ip);
	if (dev && (dev->flags & IFF_UP))
		net->kn_ip = ip;
	rtnl_unlock();
	if (!net->kn_ip) {
		pr_err("ko2iblnd: %s: not up with an IPv4 address\n",
		       ni->ni_ifname);
		return -ENETDOWN;
	}
	return 0;
}

/* Listen on addr:service; the bound id gives the NI's device. */
static int kib_listen(struct kib_net *net)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = net->kn_ip,
		.sin_port = htons(kib_tun.service),
	};
	struct rdma_cm_id *id;
	int rc;

	id = rdma_create_id(&init_net, kib_cm_handler, net, RDMA_PS_TCP,
			    IB_QPT_RC);
	if (IS_ERR(id))
		return PTR_ERR(id);
	rc = rdma_bind_addr(id, (struct sockaddr *)&sin);
	if (!rc && !id->device)
		rc = -ENODEV;	/* the address is not on an RDMA device */
	if (!rc)
		rc = rdma_listen(id, 256);
	if (rc) {
		pr_err("ko2iblnd: cannot listen on %pI4:%d: %d\n",
		       &net->kn_ip, kib_tun.service, rc);
		rdma_destroy_id(id);
		return rc;
	}
	net->kn_listener = id;
	net->kn_dev = id->device;
	net->kn_port = id->port_num;
	return 0;
}

/*
 * The device's port events: LNet stops using an NI whose port went down
 * (for soft-RoCE: its Ethernet link) or whose device failed, and reports
 * it down to peers, until the port is active again.
 */
static void kib_port_event(struct ib_event_handler *handler,
			   struct ib_event *event)
{
	struct kib_net *net = container_of(handler, struct kib_net,
					   kn_event_handler);

	switch (event->event) {
	case IB_EVENT_DEVICE_FATAL:
		lnet_ni_set_fatal(net->kn_ni, true);
		break;
	case IB_EVENT_PORT_ERR:
	case IB_EVENT_PORT_ACTIVE:
		if (event->element.port_num == net->kn_port)
			lnet_ni_set_fatal(net->kn_ni,
					  event->event == IB_EVENT_PORT_ERR);
		break;
	default:
		break;
	}
}

/*
 * The PD and the MR pool of the NI's device.  Sinks are registered with
 * FastReg MRs (one fragment, as Lustre sends).  A device without fast
 * registration is refused: the only other way to let a peer write our
 * sinks, a PD with IB_PD_UNSAFE_GLOBAL_RKEY, lets every peer read and
 * write all of our memory.  kib_test_no_fastreg (debugfs) makes a test
 * see that refusal on a device that has it.
 */
static int kib_pd_setup(struct kib_net *net)
{
	const struct lnet_ni_tunables *t = &net->kn_ni->ni_tunables;
	struct kib_mr_pool_params params = {
		.pool_size	= t->fmr_pool_size,
		.flush_trigger	= t->fmr_flush_trigger,
		.max_mrs	= max(kib_tun.fmr_pool_max, 0),
		.wake		= kib_mr_wake,
		.wake_arg	= net,
	};
	int rc;

	net->kn_pd = ib_alloc_pd(net->kn_dev, 0);
	if (IS_ERR(net->kn_pd))
		return PTR_ERR(net->kn_pd);
	net->kn_mr_pool = READ_ONCE(kib_test_no_fastreg) ?
			  ERR_PTR(-EOPNOTSUPP) :
			  kib_mr_pool_create(net->kn_pd, &params);
	if (!IS_ERR(net->kn_mr_pool))
		return 0;
	rc = PTR_ERR(net->kn_mr_pool);
	net->kn_mr_pool = NULL;
	cancel_work_sync(&net->kn_mr_work);	/* no wake any more */
	ib_dealloc_pd(net->kn_pd);
	net->kn_pd = NULL;
	if (rc == -EOPNOTSUPP)
		pr_err("ko2iblnd: %s: no fast memory registration, which ko2iblnd needs\n",
		       dev_name(&net->kn_dev->dev));
	return rc;
}

/**
 * kib_ni_tunables() - normalise an NI's ko2iblnd tunables
 * @t: what net add gave, else the module parameters (their values at
 *	load); changed into the values in force, as Lustre's o2iblnd does
 *
 * Context: any.
 */
void kib_ni_tunables(struct lnet_ni_tunables *t)
{
	int pc = clamp(t->peer_credits, 1, IBLND_MAX_QUEUE_DEPTH);

	/* clamped to [peer_credits / 2, peer_credits - 1] */
	t->peercredits_hiw = clamp(t->peercredits_hiw, pc / 2, pc - 1);
	/* 0: peer_credits; clamped to [peer_credits / 2, 2 * peer_credits] */
	if (t->concurrent_sends <= 0)
		t->concurrent_sends = pc;
	t->concurrent_sends = clamp(t->concurrent_sends, max(pc / 2, 1),
				    2 * pc);
	if (t->map_on_demand <= 0)
		t->map_on_demand = 1;
	if (t->fmr_pool_size <= 0)
		t->fmr_pool_size = KIB_MR_POOL_SIZE;
	t->fmr_flush_trigger = max(t->fmr_flush_trigger, 0);
	t->fmr_cache = !!t->fmr_cache;
	if (t->ntx <= 0)
		t->ntx = 512;
	/* 0 (ksocklnd's "auto"): the module parameter, as Lustre's does */
	if (t->conns_per_peer <= 0)
		t->conns_per_peer = kib_tun.conns_per_peer;
	t->conns_per_peer = clamp(t->conns_per_peer, 1,
				  LNET_GENL_CONNS_PER_PEER_MAX);
	if (t->tos == LNET_NI_TOS_DEFAULT)
		t->tos = kib_tun.tos;
}
EXPORT_SYMBOL_IF_KUNIT(kib_ni_tunables);

/*
 * Every started NI, so that the removal of an RDMA device finds those on
 * it.  The mutex also orders an NI's start, stop and device removal.
 */
static LIST_HEAD(kib_nets);
static DEFINE_MUTEX(kib_nets_mutex);

static int kib_startup(struct lnet_ni *ni)
{
	struct kib_net *net;
	int rc;

	net = kzalloc(sizeof(*net), GFP_KERNEL);
	if (!net)
		return -ENOMEM;
	rc = kib_ni_address(ni, net);
	if (rc)
		goto free;
	kib_ni_tunables(&ni->ni_tunables);
	net->kn_kind = KIB_CTX_NET;
	net->kn_ni = ni;
	spin_lock_init(&net->kn_lock);
	rc = kib_peer_table_init(net);
	if (rc)
		goto free;
	atomic_set(&net->kn_nconns, 0);
	INIT_DELAYED_WORK(&net->kn_reaper, kib_reaper);
	INIT_LIST_HEAD(&net->kn_mr_waiters);
	INIT_WORK(&net->kn_mr_work, kib_mr_work);
	/* Lustre's: wall-clock microseconds at NI start. */
	net->kn_incarnation = div_u64(ktime_get_real_ns(), NSEC_PER_USEC);
	atomic64_set(&net->kn_cookie, net->kn_incarnation);
	net->kn_nid = lnet_mknid4(ni->ni_net->net_id, ntohl(net->kn_ip));
	lnet_nid4_to_nid(net->kn_nid, &ni->ni_nid);
	ni->ni_data = net;
	/* A removal of the device we bind to waits until we are listed. */
	mutex_lock(&kib_nets_mutex);
	rc = kib_listen(net);
	if (rc)
		goto unlock;
	net->kn_max_send_sge = min_t(int, net->kn_dev->attrs.max_send_sge,
				     KIB_MAX_SEND_SGE);
	net->kn_max_qp_wr = net->kn_dev->attrs.max_qp_wr;
	rc = kib_pd_setup(net);
	if (rc) {
		rdma_destroy_id(net->kn_listener);
		goto unlock;
	}
	list_add_tail(&net->kn_list, &kib_nets);
	INIT_IB_EVENT_HANDLER(&net->kn_event_handler, net->kn_dev,
			      kib_port_event);
	ib_register_event_handler(&net->kn_event_handler);
	mutex_unlock(&kib_nets_mutex);
	queue_delayed_work(kib_wq, &net->kn_reaper, HZ);
	return 0;
unlock:
	mutex_unlock(&kib_nets_mutex);
	/* Empty: a CONNREQ is refused (EARLY) until the NI is up. */
	kib_peer_table_destroy(net);
free:
	ni->ni_data = NULL;
	kfree(net);
	return rc;
}

/*
 * Stop an NI's use of its device, once: stop listening, refuse new
 * sends (and wait for those running), close every connection, failing
 * what they hold and what waits for them with @error, wait until all are
 * freed, then free the MRs and the PD.  The NI's peers stay, without
 * connections, until kib_shutdown().
 */
static void kib_net_stop(struct kib_net *net, int error)
{
	struct kib_peer *peer;

	lockdep_assert_held(&kib_nets_mutex);
	if (net->kn_stopped)
		return;
	net->kn_stopped = true;
	ib_unregister_event_handler(&net->kn_event_handler);
	/* No more CONNREQ can arrive once the listener is gone. */
	rdma_destroy_id(net->kn_listener);
	spin_lock_bh(&net->kn_lock);
	net->kn_down = error;
	spin_unlock_bh(&net->kn_lock);
	synchronize_rcu();	/* see kib_send() */

	cancel_delayed_work_sync(&net->kn_reaper);
	list_for_each_entry(peer, &net->kn_peers, ibp_list)
		cancel_delayed_work_sync(&peer->ibp_connect_work);
	kib_net_close_all(net);
	/* A device removed: LNet's NI stays, its delayed messages go now. */
	lnet_fault_delay_flush_ni(net->kn_ni);
	wait_var_event(&net->kn_nconns, !atomic_read(&net->kn_nconns));

	if (net->kn_mr_pool)
		kib_mr_pool_destroy(net->kn_mr_pool);
	net->kn_mr_pool = NULL;
	cancel_work_sync(&net->kn_mr_work);	/* no wake any more */
	ib_dealloc_pd(net->kn_pd);
	net->kn_pd = NULL;
}

static void kib_shutdown(struct lnet_ni *ni)
{
	struct kib_net *net = ni->ni_data;

	mutex_lock(&kib_nets_mutex);
	list_del(&net->kn_list);
	kib_net_stop(net, -ESHUTDOWN);
	mutex_unlock(&kib_nets_mutex);

	kib_peer_table_destroy(net);
	ni->ni_data = NULL;
	kfree(net);
}

static const char *const kib_conn_state_names[] = {
	[KIB_CONN_CONNECTING]	= "connecting",
	[KIB_CONN_ACCEPTED]	= "accepted",
	[KIB_CONN_ESTABLISHED]	= "established",
	[KIB_CONN_CLOSING]	= "closing",
	[KIB_CONN_DEAD]		= "dead",
};

/**
 * kib_conns_print() - one line per connection of every NI
 * @m: the debugfs file (debugfs.c)
 *
 * Connections being closed have left their peer's list: not shown.  The
 * flow-control state follows the counts, so that a stall shows where it
 * is: credits, reserved, sends posted of the limit, NOOPs in flight, and
 * the length of each queue (credited, waiting for a reservation,
 * uncredited, NOOPs, waiting for an MR, posted or waiting for an answer).
 *
 * Context: process.
 */
void kib_conns_print(struct seq_file *m)
{
	struct kib_conn *conn;
	struct kib_peer *peer;
	struct kib_net *net;

	mutex_lock(&kib_nets_mutex);
	list_for_each_entry(net, &kib_nets, kn_list) {
		spin_lock_bh(&net->kn_lock);
		list_for_each_entry(peer, &net->kn_peers, ibp_list) {
			list_for_each_entry(conn, &peer->ibp_conns, ibc_list)
				seq_printf(m, "%pI4h %pI4h %s %s v%#x qd %u credits %d outstanding %d sent %lld received %lld reserved %d posted %d/%d noops %d q %zu rsrvd %zu nocred %zu noopq %zu mr %zu active %zu\n",
					   &(u32){ lnet_nid4_addr(net->kn_nid) },
					   &(u32){ lnet_nid4_addr(peer->ibp_nid) },
					   kib_conn_state_names[conn->ibc_state],
					   conn->ibc_active ? "active" : "passive",
					   conn->ibc_version,
					   conn->ibc_queue_depth,
					   conn->ibc_credits,
					   conn->ibc_outstanding,
					   (long long)atomic64_read(&conn->ibc_nsent),
					   (long long)atomic64_read(&conn->ibc_nrcvd),
					   conn->ibc_reserved,
					   conn->ibc_nsends_posted,
					   conn->ibc_concurrent_sends,
					   conn->ibc_noops_posted,
					   list_count_nodes(&conn->ibc_tx_queue),
					   list_count_nodes(&conn->ibc_tx_queue_rsrvd),
					   list_count_nodes(&conn->ibc_tx_queue_nocred),
					   list_count_nodes(&conn->ibc_tx_noops),
					   list_count_nodes(&conn->ibc_tx_queue_mr),
					   list_count_nodes(&conn->ibc_active_txs));
		}
		spin_unlock_bh(&net->kn_lock);
	}
	mutex_unlock(&kib_nets_mutex);
}

/*
 * An RDMA device is going (rdma link delete, driver unload, hot unplug).
 * Clients are removed in the reverse order of registration, so rdma_cm
 * still works here; it waits for every id on the device to be destroyed
 * after us.  Each NI on the device stops using it, failing its messages
 * with -ENODEV; the NI stays configured but sends nothing until it is
 * deleted and added again (lnetctl net del / net add) on a new device.
 */
static void kib_remove_one(struct ib_device *dev, void *client_data)
{
	struct kib_net *net;

	mutex_lock(&kib_nets_mutex);
	list_for_each_entry(net, &kib_nets, kn_list) {
		if (net->kn_dev != dev || net->kn_stopped)
			continue;
		pr_warn("ko2iblnd: %s removed: NI %pI4 is down until deleted and added again\n",
			dev_name(&dev->dev), &net->kn_ip);
		kib_net_stop(net, -ENODEV);
		lnet_ni_set_fatal(net->kn_ni, true);
	}
	mutex_unlock(&kib_nets_mutex);
}

static struct ib_client kib_ib_client = {
	.name	= "ko2iblnd",
	.remove	= kib_remove_one,
};

/* LNet derives a message's deadline from it (lnet/resend.c). */
static unsigned int kib_get_timeout(void)
{
	return kib_timeout();
}

static struct lnet_lnd kib_lnd = {
	.lnd_type	= LNET_LND_O2IB,
	.lnd_owner	= THIS_MODULE,
	.lnd_startup	= kib_startup,
	.lnd_shutdown	= kib_shutdown,
	.lnd_send	= kib_send,
	.lnd_recv	= kib_recv,
	.lnd_get_timeout = kib_get_timeout,
};

static int __init kib_init(void)
{
	int rc;

	if (kib_tun.conns_per_peer < 1 ||
	    kib_tun.conns_per_peer > LNET_GENL_CONNS_PER_PEER_MAX) {
		pr_err("ko2iblnd: conns_per_peer must be 1..%d\n",
		       LNET_GENL_CONNS_PER_PEER_MAX);
		return -EINVAL;
	}
	if (kib_tun.msg_version != IBLND_MSG_VERSION_1 &&
	    kib_tun.msg_version != IBLND_MSG_VERSION_2) {
		pr_err("ko2iblnd: msg_version must be %d or %d\n",
		       IBLND_MSG_VERSION_1, IBLND_MSG_VERSION_2);
		return -EINVAL;
	}
	if (kib_tun.tos < LNET_GENL_TOS_MIN || kib_tun.tos > LNET_GENL_TOS_MAX) {
		pr_err("ko2iblnd: tos must be %d..%d\n", LNET_GENL_TOS_MIN,
		       LNET_GENL_TOS_MAX);
		return -EINVAL;
	}
	if (kib_tun.peer_credits < 1 ||
	    kib_tun.peer_credits > IBLND_MAX_QUEUE_DEPTH) {
		pr_err("ko2iblnd: peer_credits must be 1..%d\n",
		       IBLND_MAX_QUEUE_DEPTH);
		return -EINVAL;
	}
	kib_lnd.lnd_tunables = (struct lnet_ni_tunables) {
		.peer_timeout		= kib_tun.peer_timeout,
		.peer_credits		= kib_tun.peer_credits,
		.peer_buffer_credits	= kib_tun.peer_buffer_credits,
		.credits		= kib_tun.credits,
		.conns_per_peer		= kib_tun.conns_per_peer,
		.peercredits_hiw	= kib_tun.peer_credits_hiw,
		.map_on_demand		= kib_tun.map_on_demand,
		.concurrent_sends	= kib_tun.concurrent_sends,
		.fmr_pool_size		= kib_tun.fmr_pool_size,
		.fmr_flush_trigger	= kib_tun.fmr_flush_trigger,
		.fmr_cache		= kib_tun.fmr_cache,
		.ntx			= kib_tun.ntx,
		.tos			= LNET_NI_TOS_DEFAULT,
	};
	kib_wq = alloc_workqueue("ko2iblnd", WQ_UNBOUND | WQ_MEM_RECLAIM, 0);
	if (!kib_wq)
		return -ENOMEM;
	rc = ib_register_client(&kib_ib_client);
	if (rc)
		goto wq;
	kib_debugfs_init();
	rc = lnet_register_lnd(&kib_lnd);
	if (!rc)
		return 0;
	kib_debugfs_fini();
	ib_unregister_client(&kib_ib_client);
wq:
	destroy_workqueue(kib_wq);
	return rc;
}

static void __exit kib_exit(void)
{
	/* No NI uses us: each holds a reference on this module. */
	lnet_unregister_lnd(&kib_lnd);
	kib_debugfs_fini();
	ib_unregister_client(&kib_ib_client);
	destroy_workqueue(kib_wq);
}

module_init(kib_init);
module_exit(kib_exit);

MODULE_DESCRIPTION("LNet RDMA LND (ko2iblnd)");
MODULE_LICENSE("GPL");
