/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the generic netlink families of the modules on LNet share with
 * lnet.ko's "lnet" family (lnet/netlink.c).
 */
#ifndef _LNET_GENL_H
#define _LNET_GENL_H

#include <linux/netlink.h>

struct sk_buff;

int lnet_genl_netns_check(const struct sk_buff *skb,
			  struct netlink_ext_ack *extack);

#endif /* _LNET_GENL_H */
