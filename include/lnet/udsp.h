/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-defined selection policies (UDSP, spec features 4d): rules an
 * administrator adds with "lnetctl udsp add" that give local nets, local
 * NIs, peer nets and peer NIs a selection priority, or pair peer NIs with
 * preferred local NIs.  lnet/udsp.c keeps the rules; lnet/select.c reads
 * the priorities they give.  See Documentation/multirail.rst.
 */
#ifndef _LNET_UDSP_H
#define _LNET_UDSP_H

#include <linux/list.h>
#include <linux/netlink.h>
#include <linux/types.h>

#include <lnet/nid.h>
#include <uapi/lnet/lnet_genl.h>

struct lnet_nidlist;
struct lnet_net;
struct lnet_ni;
struct lnet_peer_net;
struct lnet_peer_ni;

/* No rule gives a priority: the worst (lower numbers are better). */
#define LNET_UDSP_PRIO_NONE	U32_MAX
/* Rules at most. */
#define LNET_UDSP_MAX		256

/* The three terms of a rule, as "udsp add" names them. */
enum lnet_udsp_term_kind {
	LNET_UDSP_SRC,		/* local nets or NIs */
	LNET_UDSP_DST,		/* peer nets or peer NIs */
	LNET_UDSP_RTE,		/* gateways (routing) */
	LNET_UDSP_TERMS
};

/**
 * struct lnet_udsp_term - what one term of a rule matches
 * @net_id: a whole network ("tcp1"), or LNET_NET_ANY
 * @nids: else NID-range expressions ("192.0.2.[1-4]@tcp *@o2ib"), or NULL
 *	for an absent term
 * @text: canonical form, "" for an absent term
 */
struct lnet_udsp_term {
	u32			net_id;
	struct lnet_nidlist	*nids;
	char			text[LNET_GENL_UDSP_LEN];
};

/**
 * struct lnet_udsp - one rule
 * @udsp_list: in the_lnet.ln_udsp, in index order
 * @udsp_term: its terms, by enum lnet_udsp_term_kind
 * @udsp_prio: the priority it gives, LNET_UDSP_PRIO_NONE for a NID pair
 *	or a router preference
 */
struct lnet_udsp {
	struct list_head	udsp_list;
	struct lnet_udsp_term	udsp_term[LNET_UDSP_TERMS];
	u32			udsp_prio;
};

/**
 * struct lnet_sel_prio - a priority the rules give an object, cached
 * @gen: the_lnet.ln_udsp_gen when @prio was found; 0: never
 * @prio: the priority, LNET_UDSP_PRIO_NONE if no rule gives one
 */
struct lnet_sel_prio {
	u32	gen;
	u32	prio;
};

/* A rule as "udsp show" prints it. */
struct lnet_udsp_info {
	char	text[LNET_UDSP_TERMS][LNET_GENL_UDSP_LEN];
	u32	prio;
};

int lnet_udsp_add(const char *const text[LNET_UDSP_TERMS], bool has_prio,
		  u32 prio, int idx, struct netlink_ext_ack *extack);
int lnet_udsp_del(int idx, struct netlink_ext_ack *extack);
int lnet_udsp_info_get(unsigned int idx, struct lnet_udsp_info *info);
void lnet_udsp_destroy(void);

/* Selection, under the LNet lock (cached per object). */
u32 lnet_udsp_net_prio(struct lnet_net *net);
u32 lnet_udsp_ni_prio(struct lnet_ni *ni);
u32 lnet_udsp_lpn_prio(struct lnet_peer_net *lpn);
u32 lnet_udsp_lpni_prio(struct lnet_peer_ni *lpni);
bool lnet_udsp_preferred(const struct lnet_peer_ni *lpni,
			 const struct lnet_ni *ni);

/* The same without the cache, for snapshots; under the LNet lock. */
u32 lnet_udsp_prio_find(const struct list_head *rules,
			enum lnet_udsp_term_kind kind, bool whole_net,
			const struct lnet_nid *nid, u32 net_id);
bool lnet_udsp_pair_find(const struct list_head *rules,
			 const struct lnet_nid *dst,
			 const struct lnet_nid *src);
bool lnet_udsp_rte_find(const struct list_head *rules,
			const struct lnet_nid *dst, const struct lnet_nid *gw);

#if IS_ENABLED(CONFIG_KUNIT)
struct lnet_udsp *lnet_udsp_parse(const char *const text[LNET_UDSP_TERMS],
				  bool has_prio, u32 prio,
				  struct netlink_ext_ack *extack);
void lnet_udsp_free(struct lnet_udsp *udsp);
#endif

#endif /* _LNET_UDSP_H */
