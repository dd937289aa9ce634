/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NID range expressions (nidrange.c), shared by lnetctl and the host
 * test nid_grammar.
 */
#ifndef _LNETCTL_NIDRANGE_H
#define _LNETCTL_NIDRANGE_H

#include <stdbool.h>

#include <lnet/nid.h>
#include <uapi/lnet/lnet_genl.h>

int nid_list_expand(const char *list, char (*out)[LNET_GENL_NID_LEN],
		    unsigned int max);

/* ip2nets: the most interfaces, or ranges, of one rule */
#define IP2NETS_MAX	16

/* One ip2nets rule: a net, its interfaces and IP ranges (may be none). */
struct ip2nets_rule {
	const char *net;
	const char *ifs[IP2NETS_MAX];
	unsigned int nifs;
	const char *ranges[IP2NETS_MAX];
	unsigned int nranges;
	bool legacy;	/* the module parameter's syntax (net add --ip2net) */
};

/* An IPv4 address of this node, with its interface (or alias label). */
struct ip2nets_if {
	const char *name;
	u32 addr;	/* host byte order */
	bool up;
};

int ip_range_match(const char *range, u32 addr);
int ip2nets_match(const struct ip2nets_rule *r, const struct ip2nets_if *ifs,
		  unsigned int n_ifs, const char **out, unsigned int max);
int ip2nets_parse_legacy(char *s, struct ip2nets_rule *rules,
			 unsigned int max);

#endif
