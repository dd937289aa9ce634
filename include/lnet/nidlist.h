/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NID lists: white-space separated NID-range expressions in Lustre's
 * syntax (what cfs_parse_nidlist() accepts), for example
 *
 *	192.0.2.[1-10/2]@tcp 10.[0-1].*.[5,7,9-11]@o2ib1 [1-100]@gni *@tcp1
 *
 * The grammar and what is rejected are described in lnet/nidlist.c.
 * A parsed list is opaque; it is only read after parsing, so any number of
 * readers may share it without locking.
 */
#ifndef _LNET_NIDLIST_H
#define _LNET_NIDLIST_H

#include <linux/types.h>

#include <lnet/nid.h>

struct lnet_nidlist;

int lnet_nidlist_parse(const char *str, struct lnet_nidlist **out);
void lnet_nidlist_free(struct lnet_nidlist *nl);

bool lnet_nidlist_match(const struct lnet_nidlist *nl,
			const struct lnet_nid *nid);
int lnet_nidlist_to_str(const struct lnet_nidlist *nl, char *buf,
			size_t size);

int lnet_nidlist_expand(const struct lnet_nidlist *nl, struct lnet_nid *nids,
			unsigned int max);
int lnet_nidlist_for_each(const struct lnet_nidlist *nl, unsigned int max,
			  int (*cb)(const struct lnet_nid *nid, void *data),
			  void *data);

#endif /* _LNET_NIDLIST_H */
