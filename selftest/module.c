// SPDX-License-Identifier: GPL-2.0
/*
 * lnet_selftest.ko: Lustre's LNet selftest (spec lnet-selftest.md), a
 * test node serving the framework services of the console that makes a
 * session on it, and running the BRW and PING tests it is given.  Work
 * in progress (Documentation/selftest.rst).  It is also the console lst
 * drives by the "lnet_selftest" netlink family.
 *
 * The module is a user of LNet (lnet_ni_init()) while loaded: as stock's,
 * it starts LNet from the module parameters if nothing configured it
 * (networks=, or tcp on the first interface up), and LNet keeps running
 * under it until it unloads ("lnet unconfigure" says it is in use).
 * Shutdown: the console (its netlink family,
 * then its session: REMOVE_SESSION to its nodes), then the services (no
 * request is taken, those in progress end), then the RPC layer, then
 * our use of LNet.
 */
#include <linux/module.h>

#include <kunit/visibility.h>

#include "console.h"

unsigned int lst_session_timeout = 100;
EXPORT_SYMBOL_IF_KUNIT(lst_session_timeout);
module_param_named(session_timeout, lst_session_timeout, uint, 0644);
MODULE_PARM_DESC(session_timeout,
		 "Seconds without a framework request before a test node's session ends (0: never)");

unsigned int lst_rpc_timeout = 64;
module_param_named(rpc_timeout, lst_rpc_timeout, uint, 0644);
MODULE_PARM_DESC(rpc_timeout,
		 "Seconds before a selftest RPC is given up (0: never)");

/*
 * A BRW server request holds its bulk (up to 1 MiB) while it is served:
 * the work items bound that memory (stock also caps BRW by memory).
 */
unsigned int lst_brw_srv_workitems = 64;
module_param_named(brw_srv_workitems, lst_brw_srv_workitems, uint, 0644);
MODULE_PARM_DESC(brw_srv_workitems,
		 "BRW requests a test node serves at once (request buffers: at least 256)");

unsigned int lst_ping_srv_workitems = 2048;
module_param_named(ping_srv_workitems, lst_ping_srv_workitems, uint, 0644);
MODULE_PARM_DESC(ping_srv_workitems,
		 "PING requests a test node serves at once (request buffers: at least 256)");

int lst_brw_inject_errors;
module_param_named(brw_inject_errors, lst_brw_inject_errors, int, 0644);
MODULE_PARM_DESC(brw_inject_errors,
		 "BRW data sources to corrupt on purpose (a wrong magic in the first word), for testing");

static int __init lst_init(void)
{
	int rc;

	rc = lnet_ni_init();
	if (rc) {
		pr_err("lnet_selftest: cannot start LNet (networks= of lnet.ko): %d\n",
		       rc);
		return rc;
	}
	rc = lst_rpc_init();
	if (rc)
		goto out_ni;
	rc = lst_framework_start();
	if (rc)
		goto out_rpc;
	rc = lst_console_start();
	if (rc)
		goto out_fw;
	return 0;
out_fw:
	lst_framework_stop();
out_rpc:
	lst_rpc_fini();
out_ni:
	lnet_ni_fini();
	return rc;
}

static void __exit lst_exit(void)
{
	lst_console_stop();
	lst_framework_stop();
	lst_rpc_fini();
	lnet_ni_fini();
}

module_init(lst_init);
module_exit(lst_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("LNet selftest");
