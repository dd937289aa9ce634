// SPDX-License-Identifier: GPL-2.0
/*
 * lnet_nidmap.ko: a versioned target-to-NID table published over LNet
 * (Documentation/nidmap.rst).  So far the table (table.c) and the wire
 * format (wire.c); the LNet transport, the netlink family and the roles
 * come next.  Nothing runs at load.
 */
#include <linux/module.h>

static int __init nidmap_init(void)
{
	return 0;
}

static void __exit nidmap_exit(void)
{
	/* Entries replaced or deleted are freed by kfree_rcu(). */
	rcu_barrier();
}

module_init(nidmap_init);
module_exit(nidmap_exit);
MODULE_DESCRIPTION("LNet nidmap: versioned target-to-NID table");
MODULE_LICENSE("GPL");
