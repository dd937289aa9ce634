// SPDX-License-Identifier: GPL-2.0
/*
 * lnet_nidmap.ko: a versioned target-to-NID table published over LNet
 * (Documentation/nidmap.rst).  Loading it starts nothing: the roles are
 * started by the "nidmap" netlink family (lnetctl nidmap), and each
 * holds LNet (lnet_ni_init()) while it runs.
 *
 * Unload: the family first (no command starts a role after), then the
 * registrations stop following the NIDs (renew.c), then the roles stop
 * (each waits for its handlers, requests and sends), then the transport
 * waits for whatever is still in flight, then the keys and the senders'
 * windows go (trust.c).
 */
#include <linux/module.h>

#include "node.h"

static int __init nidmap_init(void)
{
	int rc;

	rc = nidmap_trust_init();
	if (rc)
		return rc;
	rc = nidmap_transport_init();
	if (rc) {
		nidmap_trust_fini();
		return rc;
	}
	rc = nidmap_renew_init();
	if (rc) {
		nidmap_transport_fini();
		nidmap_trust_fini();
		return rc;
	}
	rc = nidmap_netlink_init();
	if (rc) {
		nidmap_renew_fini();
		nidmap_transport_fini();
		nidmap_trust_fini();
		return rc;
	}
	nidmap_debugfs_init();
	return 0;
}

static void __exit nidmap_exit(void)
{
	nidmap_debugfs_fini();
	nidmap_netlink_fini();
	nidmap_renew_fini();
	mutex_lock(&nidmap_cfg_lock);
	nidmap_sub_stop();
	nidmap_pub_stop();
	mutex_unlock(&nidmap_cfg_lock);
	nidmap_transport_fini();
	nidmap_trust_fini();
	/* Entries replaced or deleted are freed by kfree_rcu(). */
	rcu_barrier();
}

module_init(nidmap_init);
module_exit(nidmap_exit);
MODULE_DESCRIPTION("LNet nidmap: versioned target-to-NID table");
MODULE_LICENSE("GPL");
