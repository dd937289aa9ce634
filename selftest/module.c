// SPDX-License-Identifier: GPL-2.0
/*
 * lnet_selftest.ko: Lustre's LNet selftest (spec lnet-selftest.md).
 * Work in progress: only the wire codec (wire.c) is here yet.
 */
#include <linux/module.h>

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("LNet selftest");
