// SPDX-License-Identifier: GPL-2.0
/*
 * LNet's start and stop: lnet_configure()/lnet_unconfigure() (lnetctl),
 * the in-kernel users' lnet_ni_init()/lnet_ni_fini(), the "networks="
 * module parameter, and the shutdown order.  The NIs themselves are
 * ni.c.
 *
 * Who holds LNet up, as in stock Lustre (LNetNIInit(), lnet_configure()):
 * every in-kernel user (ln_users), and lnetctl's one reference
 * (ln_ctl_ref) from "lnet configure" to "lnet unconfigure".  The first
 * user that finds LNet down starts it from the module parameters
 * (networks=, or "tcp" on the first interface up when it is empty);
 * "lnet configure" alone starts only 0@lo, --all adds networks=.  LNet
 * stops when the last reference goes: "lnet unconfigure" drops lnetctl's
 * and says -EBUSY while users still hold it.
 */
#include <linux/ctype.h>
#include <linux/export.h>
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <kunit/visibility.h>

#include <lnet/ip2nets.h>
#include <lnet/lib-lnet.h>
#include <lnet/route.h>
#include <lnet/router.h>

struct lnet the_lnet = {
	.ln_lock	= __SPIN_LOCK_UNLOCKED(the_lnet.ln_lock),
	.ln_api_mutex	= __MUTEX_INITIALIZER(the_lnet.ln_api_mutex),
	.ln_nets	= LIST_HEAD_INIT(the_lnet.ln_nets),
	.ln_lnds	= LIST_HEAD_INIT(the_lnet.ln_lnds),
	/* Locked with _bh: its allocations drop and retake it so. */
	.ln_mds		= XARRAY_INIT(the_lnet.ln_mds,
				      XA_FLAGS_ALLOC1 | XA_FLAGS_LOCK_BH),
	.ln_peers	= LIST_HEAD_INIT(the_lnet.ln_peers),
	.ln_udsp	= LIST_HEAD_INIT(the_lnet.ln_udsp),
	.ln_udsp_gen	= 1,
	.ln_msgs_wq	= __WAIT_QUEUE_HEAD_INITIALIZER(the_lnet.ln_msgs_wq),
	.ln_rsp_list	= LIST_HEAD_INIT(the_lnet.ln_rsp_list),
	.ln_rsp_work	= __DELAYED_WORK_INITIALIZER(the_lnet.ln_rsp_work,
						     lnet_rsp_expire_work, 0),
	.ln_resendq	= LIST_HEAD_INIT(the_lnet.ln_resendq),
	.ln_resend_work	= __WORK_INITIALIZER(the_lnet.ln_resend_work,
					     lnet_resend_work),
	.ln_ni_recoveryq = LIST_HEAD_INIT(the_lnet.ln_ni_recoveryq),
	.ln_peer_ni_recoveryq = LIST_HEAD_INIT(the_lnet.ln_peer_ni_recoveryq),
};

/* For LNDs' and KUnit suites' use of the internal (lib-lnet.h) API. */
EXPORT_SYMBOL_GPL(the_lnet);

static char *networks = "";
module_param(networks, charp, 0444);
MODULE_PARM_DESC(networks, "local networks, e.g. \"tcp0(eth0),tcp1(eth1)\" (an in-kernel user that starts LNet: \"tcp\" when empty)");

/* What an in-kernel user starts LNet with when networks= is empty. */
#define LNET_NETWORKS_DEFAULT	"tcp"

/* One NI of the networks= parameter. */
struct lnet_net_spec {
	u32		net_id;
	char		ifname[IFNAMSIZ];
	struct lnet_ni	*started;	/* by this lnet_configure() */
};

#define LNET_NETWORKS_MAX	32

/*
 * Interface names as the kernel accepts them (dev_valid_name()), or an
 * alias label ("eth0:1", as stock and ip2nets= give them).
 */
static bool lnet_ifname_valid(const char *s, size_t len)
{
	size_t i;

	if (!len || len >= IFNAMSIZ || s[0] == ':' || s[len - 1] == ':')
		return false;
	for (i = 0; i < len; i++)
		if (s[i] == '/' || isspace(s[i]) ||
		    s[i] == '(' || s[i] == ')' || s[i] == ',' || !isprint(s[i]))
			return false;
	return true;
}

/*
 * Parse networks= in Lustre's syntax: comma-separated "<net>" or
 * "<net>(<if>[,<if>...])", e.g. "tcp0(eth0,eth1),o2ib(ib0)".  Strict:
 * no blanks, no CPT lists, no lo, no NI given twice.
 */
static int lnet_parse_networks(const char *str, struct lnet_net_spec *specs,
			       unsigned int max, struct netlink_ext_ack *extack)
{
	unsigned int n = 0, i;
	const char *p = str;

	while (*p) {
		const char *name = p, *end;
		char buf[LNET_NIDSTR_SIZE];
		u32 net;

		while (*p && *p != ',' && *p != '(')
			p++;
		if (p - name >= sizeof(buf) || p == name)
			goto bad;
		memcpy(buf, name, p - name);
		buf[p - name] = '\0';
		if (lnet_net_from_str(buf, &net) || lnet_net_type(net) == LNET_LND_LO)
			goto bad;
		if (*p != '(') {
			if (n == max)
				goto bad;
			specs[n].net_id = net;
			specs[n++].ifname[0] = '\0';
		} else {
			do {
				end = ++p;
				while (*end && *end != ',' && *end != ')')
					end++;
				if (!*end || !lnet_ifname_valid(p, end - p) ||
				    n == max)
					goto bad;
				specs[n].net_id = net;
				memcpy(specs[n].ifname, p, end - p);
				specs[n++].ifname[end - p] = '\0';
				p = end;
			} while (*p == ',');
			p++;	/* ')' */
		}
		if (*p == ',') {
			if (!*++p)
				goto bad;
		} else if (*p) {
			goto bad;
		}
	}
	for (i = 0; i < n; i++) {
		unsigned int j;

		for (j = 0; j < i; j++)
			if (specs[i].net_id == specs[j].net_id &&
			    !strcmp(specs[i].ifname, specs[j].ifname))
				goto bad;
	}
	return n;
bad:
	NL_SET_ERR_MSG(extack, "bad networks= module parameter");
	pr_err("LNet: bad networks=\"%s\"\n", str);
	return -EINVAL;
}

/* Start the NIs of @nets; all or none.  Caller holds ln_api_mutex. */
static int lnet_start_networks(const char *nets, struct netlink_ext_ack *extack)
{
	struct lnet_net_spec *specs;
	int n, i, rc = 0;

	specs = kcalloc(LNET_NETWORKS_MAX, sizeof(*specs), GFP_KERNEL);
	if (!specs)
		return -ENOMEM;
	n = lnet_parse_networks(nets, specs, LNET_NETWORKS_MAX, extack);
	if (n < 0) {
		rc = n;
		goto out;
	}
	for (i = 0; i < n; i++) {
		rc = lnet_ni_start(specs[i].net_id, specs[i].ifname, NULL,
				   extack, &specs[i].started);
		if (rc == -EEXIST)
			rc = 0;
		if (rc)
			break;
	}
	if (rc) {
		while (--i >= 0)
			if (specs[i].started)
				lnet_ni_stop(specs[i].started);
	}
out:
	kfree(specs);
	return rc;
}

/* Configured LNet: the ping target, then "running". */
static int lnet_startup_locked(struct netlink_ext_ack *extack)
{
	int rc;

	the_lnet.ln_interface_cookie = get_random_u64() & ~1ULL;
	memset(&the_lnet.ln_counters, 0, sizeof(the_lnet.ln_counters));
	memset(&the_lnet.ln_dc_stats, 0, sizeof(the_lnet.ln_dc_stats));
	memset(the_lnet.ln_drops, 0, sizeof(the_lnet.ln_drops));
	rc = lnet_ni_start(lnet_mknet(LNET_LND_LO, 0), "", NULL, extack,
			   NULL);
	if (rc)
		return rc;
	lnet_lock();
	the_lnet.ln_state = LNET_STATE_RUNNING;
	lnet_unlock();
	lnet_peers_start();
	rc = lnet_ping_target_update();
	if (!rc)
		rc = lnet_push_target_init();
	if (rc) {
		NL_SET_ERR_MSG(extack, "cannot set up the ping and push targets");
		lnet_lock();
		the_lnet.ln_state = LNET_STATE_STOPPING;
		lnet_unlock();
		lnet_ping_target_fini();
		lnet_push_target_fini();
		lnet_stop_all_nis();
		lnet_peers_free();
		lnet_lock();
		the_lnet.ln_state = LNET_STATE_DOWN;
		lnet_unlock();
	} else {
		lnet_rtrcheck_start();
	}
	return rc;
}

/*
 * The shutdown order (Documentation/lifetimes.rst): no new send or
 * discovery once STOPPING; the ping and push targets go; messages held
 * for discovery fail; the NIs stop (each waits for its messages); every
 * response still awaited expires, which ends the discoveries' pings and
 * pushes; once the discoveries have ended, the peers go.
 */
static void lnet_shutdown_locked(void)
{
	lnet_lock();
	the_lnet.ln_state = LNET_STATE_STOPPING;
	lnet_unlock();
	lnet_rtrcheck_stop();
	lnet_ping_target_fini();
	lnet_push_target_fini();
	lnet_discovery_stop();
	lnet_resend_flush();
	lnet_fault_delay_flush();
	lnet_routing_stop();
	lnet_stop_all_nis();
	lnet_rsp_expire_all();
	lnet_discovery_flush();
	lnet_peer_down_flush();
	lnet_routes_flush();
	lnet_peers_free();
	lnet_udsp_destroy();
	lnet_lock();
	the_lnet.ln_state = LNET_STATE_DOWN;
	lnet_unlock();
}

/* Stop LNet if nothing holds it any more.  Caller holds ln_api_mutex. */
static void lnet_put_locked(void)
{
	if (!the_lnet.ln_users && !the_lnet.ln_ctl_ref &&
	    the_lnet.ln_state == LNET_STATE_RUNNING)
		lnet_shutdown_locked();
}

/**
 * lnet_configure() - bring LNet up
 * @all: also start the NIs of the "networks=" module parameter
 * @extack: where to report an error
 *
 * See include/lnet/ctl.h.
 *
 * Context: Process context.
 * Return: 0 or -errno.
 */
int lnet_configure(bool all, struct netlink_ext_ack *extack)
{
	bool started = false, router = false;
	int rc = 0;

	mutex_lock(&the_lnet.ln_api_mutex);
	if (the_lnet.ln_state == LNET_STATE_DOWN) {
		rc = lnet_startup_locked(extack);
		started = !rc;
	}
	if (!rc && all) {
		char *ip2 = NULL;

		/*
		 * ip2nets= when networks= is empty; as stock, "tcp" on the
		 * first interface up without either
		 */
		rc = lnet_ip2nets_networks(networks, &ip2, extack);
		if (!rc)
			rc = lnet_start_networks(ip2 ?: (*networks ? networks :
						 LNET_NETWORKS_DEFAULT), extack);
		kfree(ip2);
		if (!rc) {
			rc = lnet_routes_param_start(&router);	/* routes= */
			if (rc == -EINVAL)
				NL_SET_ERR_MSG(extack,
					       "bad routes= module parameter (see the console)");
		}
		if (!rc)
			rc = lnet_routing_start(router);	/* forwarding= */
		if (!rc)
			rc = lnet_ping_target_update();
		/*
		 * Loading an LND drops ln_api_mutex: LNet may be down, or
		 * held meanwhile by an in-kernel user.
		 */
		if (rc && started)
			lnet_put_locked();
	}
	if (!rc)
		the_lnet.ln_ctl_ref = true;
	mutex_unlock(&the_lnet.ln_api_mutex);
	return rc;
}
EXPORT_SYMBOL(lnet_configure);

/**
 * lnet_unconfigure() - drop lnetctl's hold on LNet, stopping it if last
 * @extack: where to report an error
 *
 * As stock's: the reference "lnet configure" took goes in any case; LNet
 * (every NI) stops now if no in-kernel user holds it, else when the last
 * one lets go (lnet_ni_fini()).
 *
 * Context: Process context.
 * Return: 0, or -EBUSY while an in-kernel user holds LNet.
 */
int lnet_unconfigure(struct netlink_ext_ack *extack)
{
	int rc = 0;

	mutex_lock(&the_lnet.ln_api_mutex);
	the_lnet.ln_ctl_ref = false;
	if (the_lnet.ln_users) {
		NL_SET_ERR_MSG(extack,
			       "LNet is in use: it stops when its last user ends");
		rc = -EBUSY;
	}
	lnet_put_locked();
	mutex_unlock(&the_lnet.ln_api_mutex);
	return rc;
}
EXPORT_SYMBOL(lnet_unconfigure);

/**
 * lnet_is_configured() - is LNet up?
 *
 * Return: true while LNet runs: from lnet_configure(), or the
 * lnet_ni_init() that started it, until its last reference went.
 */
bool lnet_is_configured(void)
{
	return READ_ONCE(the_lnet.ln_state) == LNET_STATE_RUNNING;
}
EXPORT_SYMBOL(lnet_is_configured);

/*
 * Start LNet for an in-kernel user, as stock's LNetNIInit(): 0@lo and the
 * NIs of networks=, or of "tcp" (the first interface that is up) when it
 * is empty; all or nothing.  On success the user holds LNet.  Caller
 * holds ln_api_mutex; LNet is down.
 */
static int lnet_startup_for_user_locked(void)
{
	const char *nets = *networks ? networks : LNET_NETWORKS_DEFAULT;
	bool router = false;
	char *ip2;
	int rc;

	rc = lnet_ip2nets_networks(networks, &ip2, NULL);	/* ip2nets= */
	if (rc)
		return rc;
	if (ip2)
		nets = ip2;
	rc = lnet_startup_locked(NULL);
	if (rc) {
		kfree(ip2);
		return rc;
	}
	/*
	 * The user holds LNet while its NIs start: loading an LND drops
	 * ln_api_mutex, and an "lnet unconfigure" meanwhile must not stop
	 * it under us (it says -EBUSY then).
	 */
	the_lnet.ln_users++;
	rc = lnet_start_networks(nets, NULL);
	if (!rc)
		rc = lnet_routes_param_start(&router);	/* routes= */
	if (!rc)
		rc = lnet_routing_start(router);	/* forwarding= */
	if (!rc)
		rc = lnet_ping_target_update();
	if (rc) {
		/* Stopped, unless lnetctl or a user took it meanwhile. */
		the_lnet.ln_users--;
		lnet_put_locked();
		pr_err("LNet: cannot start networks=\"%s\" for an in-kernel user: %d\n",
		       nets, rc);
	} else {
		pr_info("LNet: started with networks=\"%s\" by an in-kernel user\n",
			nets);
	}
	kfree(ip2);
	return rc;
}

/**
 * lnet_ni_init() - become a user of LNet, starting it if it is down
 *
 * The first user of an LNet that nothing configured starts it from the
 * module parameters, as stock's LNetNIInit() does (spec
 * lnet-features-and-lnetctl.md 1c): 0@lo and the networks= NIs, or "tcp"
 * on the first interface that is up when networks= is empty.  A user of
 * a running LNet starts nothing.  LNet then runs until its last user
 * called lnet_ni_fini() and lnetctl does not hold it ("lnet configure"
 * takes a hold of its own; "lnet unconfigure" drops it and says -EBUSY
 * while users remain).  Every MD a user made should be unlinked before
 * lnet_ni_fini().
 *
 * Context: Process context; sleeps (may load an LND module).
 * Return: 0, or the -errno of starting LNet (-ENODEV, -ENETDOWN when no
 * interface is up, -EINVAL for a bad networks=, ...).
 */
int lnet_ni_init(void)
{
	int rc = 0;

	mutex_lock(&the_lnet.ln_api_mutex);
	if (the_lnet.ln_state == LNET_STATE_RUNNING)
		the_lnet.ln_users++;
	else
		rc = lnet_startup_for_user_locked();
	mutex_unlock(&the_lnet.ln_api_mutex);
	return rc;
}
EXPORT_SYMBOL(lnet_ni_init);

/**
 * lnet_ref_running() - hold LNet for a call, if it runs; never start it
 *
 * For LNet's own calls made on request of lnetctl (ping, discover): they
 * must not start an LNet nobody configured.  Released by lnet_ni_fini().
 *
 * Context: Process context; sleeps.
 * Return: 0, or -ENETDOWN if LNet is not running.
 */
int lnet_ref_running(void)
{
	int rc = 0;

	mutex_lock(&the_lnet.ln_api_mutex);
	if (the_lnet.ln_state == LNET_STATE_RUNNING)
		the_lnet.ln_users++;
	else
		rc = -ENETDOWN;
	mutex_unlock(&the_lnet.ln_api_mutex);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_ref_running);

/**
 * lnet_ni_fini() - stop being a user of LNet
 *
 * The last reference stops LNet (see lnet_ni_init()).
 *
 * Context: Process context; sleeps.
 */
void lnet_ni_fini(void)
{
	mutex_lock(&the_lnet.ln_api_mutex);
	if (!WARN_ON(!the_lnet.ln_users))
		the_lnet.ln_users--;
	lnet_put_locked();
	mutex_unlock(&the_lnet.ln_api_mutex);
}
EXPORT_SYMBOL(lnet_ni_fini);
