/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of the "lnet" generic netlink family share: netlink.c
 * registers the family and holds the NI, ping and parameter commands,
 * netlink-peer.c the peer commands.
 */
#ifndef _LNET_NETLINK_H
#define _LNET_NETLINK_H

#include <net/genetlink.h>

#include <lnet/ctl.h>
#include <lnet/genl.h>
#include <lnet/nid.h>
#include <uapi/lnet/lnet_genl.h>

extern struct genl_family lnet_genl_family;
/* Serializes the requests that change state. */
extern struct mutex lnet_genl_mutex;

int lnet_genl_parse_nid(const struct nlattr *attr, struct lnet_nid *nid,
			struct netlink_ext_ack *extack);
int lnet_genl_put_nid(struct sk_buff *skb, int type,
		      const struct lnet_nid *nid);
int lnet_genl_put_msg_types(struct sk_buff *skb, int type, const u32 *count);
int lnet_genl_put_latency(struct sk_buff *skb, const struct lnet_latency *lat);

/* netlink-peer.c */
#define LNET_PEER_POLICY_MAX	LNET_A_FORCE
extern const struct nla_policy lnet_peer_get_policy[LNET_PEER_POLICY_MAX + 1];
extern const struct nla_policy lnet_peer_del_policy[LNET_PEER_POLICY_MAX + 1];
extern const struct nla_policy lnet_peer_add_policy[LNET_PEER_POLICY_MAX + 1];
int lnet_genl_peer_get_dump(struct sk_buff *skb, struct netlink_callback *cb);
int lnet_genl_peer_del(struct sk_buff *skb, struct genl_info *info);
int lnet_genl_peer_add(struct sk_buff *skb, struct genl_info *info);
int lnet_genl_peer_debug(struct sk_buff *skb, struct genl_info *info);

/* netlink-udsp.c */
#define LNET_UDSP_POLICY_MAX	LNET_A_IDX
extern const struct nla_policy lnet_udsp_add_policy[LNET_UDSP_POLICY_MAX + 1];
extern const struct nla_policy lnet_udsp_del_policy[LNET_UDSP_POLICY_MAX + 1];
extern const struct nla_policy lnet_udsp_get_policy[LNET_UDSP_POLICY_MAX + 1];
int lnet_genl_udsp_add(struct sk_buff *skb, struct genl_info *info);
int lnet_genl_udsp_del(struct sk_buff *skb, struct genl_info *info);
int lnet_genl_udsp_get_dump(struct sk_buff *skb, struct netlink_callback *cb);
int lnet_genl_put_udsp_info(struct sk_buff *skb, u32 net_prio, u32 nid_prio,
			    const struct lnet_nid *pref, unsigned int npref,
			    const struct lnet_nid *rtr, unsigned int nrtr);

/* netlink.c */
extern const struct nla_policy
lnet_lnd_tunables_policy[LNET_LND_TUN_A_MAX + 1];

/* netlink-health.c */
#define LNET_HEALTH_POLICY_MAX	LNET_A_PEER
extern const struct nla_policy lnet_health_policy[LNET_HEALTH_POLICY_MAX + 1];
int lnet_genl_health_set(struct sk_buff *skb, struct genl_info *info);
int lnet_genl_recovery_get(struct sk_buff *skb, struct genl_info *info);
int lnet_genl_put_ni_health(struct sk_buff *skb,
			    const struct lnet_ni_info *ni);
int lnet_genl_put_peer_ni_health(struct sk_buff *skb,
				 const struct lnet_peer_ni_info *p);
int lnet_genl_put_health_counters(struct sk_buff *skb,
				  const struct lnet_counters_common *c);

/* netlink-fault.c */
#define LNET_FAULT_POLICY_MAX	LNET_A_FAULT
extern const struct nla_policy lnet_fault_policy[LNET_FAULT_POLICY_MAX + 1];
int lnet_genl_fault_add(struct sk_buff *skb, struct genl_info *info);
int lnet_genl_fault_del(struct sk_buff *skb, struct genl_info *info);
int lnet_genl_fault_reset(struct sk_buff *skb, struct genl_info *info);
int lnet_genl_fault_get_dump(struct sk_buff *skb, struct netlink_callback *cb);

/* netlink-route.c */
#define LNET_ROUTE_POLICY_MAX	LNET_A_HOP
extern const struct nla_policy lnet_route_policy[LNET_ROUTE_POLICY_MAX + 1];
int lnet_genl_route_add(struct sk_buff *skb, struct genl_info *info);
int lnet_genl_route_del(struct sk_buff *skb, struct genl_info *info);
int lnet_genl_route_get_dump(struct sk_buff *skb, struct netlink_callback *cb);

/* netlink-routing.c */
#define LNET_ROUTING_POLICY_MAX	LNET_A_RTR_LARGE
extern const struct nla_policy lnet_routing_policy[LNET_ROUTING_POLICY_MAX + 1];
int lnet_genl_routing_set(struct sk_buff *skb, struct genl_info *info);
int lnet_genl_buffers_set(struct sk_buff *skb, struct genl_info *info);
int lnet_genl_routing_get(struct sk_buff *skb, struct genl_info *info);

#endif /* _LNET_NETLINK_H */
