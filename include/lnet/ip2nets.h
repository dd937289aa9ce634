/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ip2nets= module parameter (lnet/ip2nets.c): stock's rules choosing
 * this node's nets by its IPv4 addresses, turned into the networks= form.
 */
#ifndef _LNET_IP2NETS_H
#define _LNET_IP2NETS_H

#include <linux/netlink.h>
#include <linux/types.h>

/**
 * struct lnet_ip2nets_if - one IPv4 address of the node
 * @name: its interface's name, or the address's alias label ("eth0:1")
 * @addr: the address, host byte order
 * @up: whether the interface is up
 */
struct lnet_ip2nets_if {
	const char	*name;
	u32		addr;
	bool		up;
};

int lnet_ip2nets_resolve(const char *rules, const struct lnet_ip2nets_if *ifs,
			 unsigned int n_ifs, char *nets, size_t size,
			 struct netlink_ext_ack *extack);
int lnet_ip2nets_networks(const char *networks, char **nets,
			  struct netlink_ext_ack *extack);

#endif /* _LNET_IP2NETS_H */
