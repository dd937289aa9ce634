// SPDX-License-Identifier: GPL-2.0
/*
 * lnet_health.ko: LNet's multi-rail health (Documentation/health.rst).
 * Loaded after lnet.ko (which asks modprobe for it with a soft
 * dependency), it registers the health checks the core calls for every
 * finished message and runs recovery.  Its knobs are lnet.ko's
 * parameters (health_sensitivity, retry_count, transaction_timeout,
 * recovery_limit, max_recovery_ping_interval), as on Lustre.
 *
 * Shutdown order: the core stops calling in (unregister waits for
 * callers), then recovery stops and its pings in flight are unlinked.
 */
#include <linux/module.h>

#include "health.h"

static const struct lnet_health_ops lnet_health_ops = {
	.msg_done	= lnet_health_msg_done,
	.remote_failure	= lnet_health_remote_failure,
};

static int __init lnet_health_init(void)
{
	int rc;

	rc = lnet_recovery_init();
	if (rc)
		return rc;
	rc = lnet_health_register(&lnet_health_ops);
	if (rc)
		lnet_recovery_fini();
	return rc;
}

static void __exit lnet_health_exit(void)
{
	lnet_health_unregister(&lnet_health_ops);
	lnet_recovery_fini();
}

module_init(lnet_health_init);
module_exit(lnet_health_exit);
MODULE_DESCRIPTION("LNet multi-rail health: demerits, recovery, resend");
MODULE_LICENSE("GPL");
