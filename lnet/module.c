// SPDX-License-Identifier: GPL-2.0
/*
 * lnet.ko: module entry points.  Init registers the loopback LND, the
 * debugfs files and, last, the generic netlink family; with
 * config_on_load=1 (Lustre's parameter) it also configures LNet with the
 * networks= NIs.  Exit undoes it in reverse, netlink first.
 */
#include <linux/module.h>

#include <lnet/lib-lnet.h>

static int config_on_load;
module_param(config_on_load, int, 0444);
MODULE_PARM_DESC(config_on_load, "configure LNet (with networks=) at load");

static int __init lnet_init(void)
{
	int rc;

	lnet_portals_init();
	rc = lnet_register_lnd(&lnet_lolnd);
	if (rc)
		return rc;
	lnet_debugfs_init();
	if (config_on_load) {
		rc = lnet_configure(true, NULL);
		if (rc)
			goto fail;
	}
	rc = lnet_genl_init();
	if (rc)
		goto fail;
	return 0;
fail:
	lnet_unconfigure(NULL);
	lnet_debugfs_fini();
	lnet_unregister_lnd(&lnet_lolnd);
	lnet_md_cleanup();
	return rc;
}

static void __exit lnet_exit(void)
{
	lnet_genl_exit();
	/* No module uses LNet any more, so nothing holds it. */
	WARN_ON(lnet_unconfigure(NULL));
	lnet_debugfs_fini();
	lnet_unregister_lnd(&lnet_lolnd);
	lnet_md_cleanup();
}

module_init(lnet_init);
module_exit(lnet_exit);

MODULE_DESCRIPTION("LNet: Lustre networking core");
MODULE_LICENSE("GPL");
