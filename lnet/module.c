// SPDX-License-Identifier: GPL-2.0
/*
 * lnet.ko: module entry points.  Init registers the loopback LND, the
 * debugfs files and, last, the generic netlink family; with
 * config_on_load=1 (Lustre's parameter) it also configures LNet with the
 * networks= NIs.  Exit undoes it in reverse, netlink first.
 *
 * config_on_load brings LNet up (with 0@lo) during init, but starts the
 * networks= NIs from a work item: their LND modules are loaded on demand
 * and depend on lnet.ko, which must have finished loading first.
 */
#include <linux/module.h>
#include <linux/workqueue.h>

#include <lnet/lib-lnet.h>

static int config_on_load;
module_param(config_on_load, int, 0444);
MODULE_PARM_DESC(config_on_load, "configure LNet (with networks=) at load");

static void lnet_config_networks(struct work_struct *work)
{
	int rc = lnet_configure(true, NULL);

	if (rc)
		pr_err("LNet: config_on_load: cannot start networks=: %d\n", rc);
}

static DECLARE_WORK(lnet_config_work, lnet_config_networks);

static int __init lnet_init(void)
{
	int rc;

	lnet_portals_init();
	rc = lnet_peers_init();
	if (rc)
		return rc;
	rc = lnet_discovery_init();
	if (rc)
		goto fail_peers;
	rc = lnet_acceptor_init();
	if (rc)
		goto fail_discovery;
	rc = lnet_register_lnd(&lnet_lolnd);
	if (rc)
		goto fail_acceptor;
	lnet_debugfs_init();
	rc = lnet_ni_addr_init();
	if (rc)
		goto fail_debugfs;
	if (config_on_load) {
		rc = lnet_configure(false, NULL);
		if (rc)
			goto fail;
		schedule_work(&lnet_config_work);
	}
	rc = lnet_genl_init();
	if (rc)
		goto fail;
	return 0;
fail:
	cancel_work_sync(&lnet_config_work);
	lnet_unconfigure(NULL);
	lnet_ni_addr_fini();
fail_debugfs:
	lnet_debugfs_fini();
	lnet_unregister_lnd(&lnet_lolnd);
	lnet_md_cleanup();
fail_acceptor:
	lnet_acceptor_fini();
fail_discovery:
	lnet_discovery_fini();
fail_peers:
	lnet_peers_fini();
	return rc;
}

static void __exit lnet_exit(void)
{
	lnet_genl_exit();
	cancel_work_sync(&lnet_config_work);
	lnet_ni_addr_fini();
	lnet_ping_target_cancel_updates();
	lnet_push_target_cancel_reposts();
	/* No module uses LNet any more, so nothing holds it. */
	WARN_ON(lnet_unconfigure(NULL));
	lnet_fault_fini();
	lnet_debugfs_fini();
	lnet_unregister_lnd(&lnet_lolnd);
	lnet_md_cleanup();
	lnet_acceptor_fini();
	lnet_discovery_fini();
	lnet_peers_fini();
}

module_init(lnet_init);
module_exit(lnet_exit);

MODULE_DESCRIPTION("LNet: Lustre networking core");
MODULE_LICENSE("GPL");
/* Health (demerits, recovery, resend) comes with LNet under modprobe. */
MODULE_SOFTDEP("post: lnet_health");
