// SPDX-License-Identifier: GPL-2.0
/*
 * lnet.ko: module entry points.  The LNet core registers its parts here as
 * they land; for now it provides the NID and network string library.
 */
#include <linux/module.h>

static int __init lnet_init(void)
{
	return 0;
}

static void __exit lnet_exit(void)
{
}

module_init(lnet_init);
module_exit(lnet_exit);

MODULE_DESCRIPTION("LNet: Lustre networking core");
MODULE_LICENSE("GPL");
