/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The "lnet" generic netlink family: the interface between lnet.ko and
 * lnetctl.  Attributes are typed (no YAML over netlink); every request is
 * validated strictly by the kernel.  See Documentation/netlink.rst.
 */
#ifndef _UAPI_LNET_GENL_H
#define _UAPI_LNET_GENL_H

#define LNET_GENL_NAME		"lnet"
#define LNET_GENL_VERSION	1

/* Longest net ("tcp1"), NID and parameter name strings, with their NUL. */
#define LNET_GENL_NET_LEN	32
#define LNET_GENL_NID_LEN	64
#define LNET_GENL_PARAM_LEN	32
/* Longest UDSP term ("192.0.2.[1-10]@tcp *@o2ib1"), with its NUL. */
#define LNET_GENL_UDSP_LEN	256

/* Ping: timeout bounds in milliseconds, and most NIDs of one reply. */
#define LNET_GENL_PING_TIMEOUT_MIN	1
#define LNET_GENL_PING_TIMEOUT_MAX	(180 * 1000)
#define LNET_GENL_PING_NIDS_MAX		256

/* Highest health value ("net set --health", "peer set --health"). */
#define LNET_GENL_HEALTH_MAX	1000

/* Highest "net show" detail level (lnetctl -v N). */
#define LNET_GENL_DETAIL_MAX	4

/* Upper bounds of the per-NI tunables accepted by "net add". */
#define LNET_GENL_PEER_TIMEOUT_MAX	(24 * 3600)
#define LNET_GENL_CREDITS_MAX		1048576	/* 1 Mi */

/* Upper bound of the LND tunable conns_per_peer (Lustre's lnetctl's). */
#define LNET_GENL_CONNS_PER_PEER_MAX	127
/* The LND tunable tos: -1 (unset) or the IP ToS byte of the NI's sockets. */
#define LNET_GENL_TOS_MIN		(-1)
#define LNET_GENL_TOS_MAX		255
#define LNET_GENL_PEER_NIDS_MAX		256	/* NIDs of one PEER_ADD */

/*
 * Upper bounds of ko2iblnd's LND tunables: its queue depth limit is 255
 * (peercredits_hiw below it, concurrent_sends at most twice it); a
 * transfer has at most 256 fragments (map_on_demand 257 as Lustre's
 * IBLND_MAX_RDMA_FRAGS); MR pool and tx counts are capped at 16 Ki.
 */
#define LNET_GENL_PEERCREDITS_HIW_MAX	254
#define LNET_GENL_MAP_ON_DEMAND_MAX	257
#define LNET_GENL_CONCURRENT_SENDS_MAX	510
#define LNET_GENL_FMR_POOL_MAX		16384
#define LNET_GENL_NTX_MAX		16384

enum lnet_genl_cmd {
	LNET_CMD_UNSPEC,
	LNET_CMD_CONFIGURE,	/* [ALL] */
	LNET_CMD_UNCONFIGURE,
	LNET_CMD_NET_ADD,	/* NET, IFNAME, [TUNABLES], [LND_TUNABLES] */
	LNET_CMD_NET_DEL,	/* NET, [IFNAME] */
	LNET_CMD_NET_GET,	/* dump: [NET], [DETAIL]; one message per NI */
	LNET_CMD_PING,		/* NID, [SOURCE], [TIMEOUT_MS] */
	LNET_CMD_STATS_GET,	/* reply: STATS */
	LNET_CMD_STATS_RESET,
	LNET_CMD_GLOBAL_GET,	/* [PARAM_NAME]; reply: PARAM per parameter */
	LNET_CMD_GLOBAL_SET,	/* PARAM_NAME, PARAM_VALUE */
	LNET_CMD_PEER_GET,	/* dump: [NID], [DETAIL]; one message per peer NI */
	LNET_CMD_PEER_DEL,	/* PRIMARY_NID, [NID], [FORCE] */
	LNET_CMD_PEER_ADD,	/* PRIMARY_NID, [PEER_NIDS], [MULTI_RAIL], */
				/* [LOCK_PRIMARY] */
	LNET_CMD_DISCOVER,	/* NID, [TIMEOUT_MS], [FORCE]; reply as PING */
	LNET_CMD_UDSP_ADD,	/* [UDSP_SRC], [UDSP_DST], [UDSP_RTE], */
				/* [PRIORITY], [IDX] */
	LNET_CMD_UDSP_DEL,	/* IDX or ALL */
	LNET_CMD_UDSP_GET,	/* dump: [IDX]; one message per rule: IDX, */
				/* UDSP_SRC/DST/RTE ("" absent), [PRIORITY] */
	LNET_CMD_HEALTH_SET,	/* "net|peer set": HEALTH_VALUE and/or */
				/* LND_TUNABLES (CONNS_PER_PEER; not PEER), */
				/* [NID] (none: all), [PEER] */
	LNET_CMD_RECOVERY_GET,	/* [PEER]; reply: PEER_NIDS, PEER_NID_COUNT */
	LNET_CMD_FAULT_ADD,	/* FAULT (TYPE, SRC, DST, rule) */
	LNET_CMD_FAULT_DEL,	/* FAULT (TYPE, SRC + DST) or FAULT (TYPE) + ALL */
	LNET_CMD_FAULT_RESET,	/* FAULT (TYPE): zero the rules' counters */
	LNET_CMD_FAULT_GET,	/* dump: FAULT (TYPE); one message per rule */
	LNET_CMD_ROUTE_ADD,	/* NET, GATEWAY, [HOP], [PRIORITY] */
	LNET_CMD_ROUTE_DEL,	/* NET, [GATEWAY] (none: every route to NET) */
	LNET_CMD_ROUTE_GET,	/* dump: [NET], [GATEWAY], [HOP], [PRIORITY]; */
				/* one message per route: NET, GATEWAY, HOP, */
				/* PRIORITY, ROUTE_ALIVE, ROUTE_SINGLE_HOP */
	LNET_CMD_ROUTING_SET,	/* ROUTING_ENABLE */
	LNET_CMD_BUFFERS_SET,	/* [RTR_TINY], [RTR_SMALL], [RTR_LARGE] */
	LNET_CMD_ROUTING_GET,	/* reply: ROUTING_STATE, [RTR_POOL x 3] */
	LNET_CMD_PEER_DEBUG,	/* NID: the peer's state to the kernel log */

	__LNET_CMD_MAX,
	LNET_CMD_MAX = __LNET_CMD_MAX - 1
};

/* Top-level attributes, requests and replies. */
enum lnet_genl_attr {
	LNET_A_UNSPEC,
	LNET_A_PAD,
	LNET_A_ALL,		/* flag: configure also starts "networks=" */
	LNET_A_NET,		/* string: "tcp1" */
	LNET_A_IFNAME,		/* string: interface name */
	LNET_A_TUNABLES,	/* nest: LNET_TUN_A_* */
	LNET_A_DETAIL,		/* u8: net show detail level */
	LNET_A_NID,		/* string: a NID (ping target, NI's NID) */
	LNET_A_SOURCE,		/* string: ping source NID */
	LNET_A_TIMEOUT_MS,	/* u32: ping timeout */
	LNET_A_PEER_NIDS,	/* nest: LNET_A_NID strings, ping reply */
	LNET_A_PEER_NID_COUNT,	/* u32: NIDs the peer listed */
	LNET_A_MULTI_RAIL,	/* u8: the (pinged) peer is Multi-Rail */
	LNET_A_PARAM_NAME,	/* string: global parameter */
	LNET_A_PARAM_VALUE,	/* s64: global parameter value */
	LNET_A_PARAM,		/* nest: PARAM_NAME, PARAM_VALUE */
	LNET_A_STATS,		/* nest: LNET_STATS_A_* */
	LNET_A_NI_STATUS,	/* u8: 1 up, 0 down */
	LNET_A_NI_STATS,	/* nest: LNET_NI_STATS_A_* */
	LNET_A_NI_SENT,		/* nest: LNET_MSG_A_* */
	LNET_A_NI_RECEIVED,	/* nest: LNET_MSG_A_* */
	LNET_A_NI_DROPPED,	/* nest: LNET_MSG_A_* */
	LNET_A_LND_TUNABLES,	/* nest: LNET_LND_TUN_A_* */
	LNET_A_PRIMARY_NID,	/* string: a peer's primary NID */
	LNET_A_PEER_REFCOUNT,	/* u32: messages using the peer NI */
	LNET_A_PEER_CREDITS,	/* nest: LNET_PEER_CR_A_* */
	LNET_A_LOCK_PRIMARY,	/* flag: peer add: keep the primary NID */
	LNET_A_FORCE,		/* flag: peer del: also a locked primary */
	LNET_A_PEER_STATE,	/* u32: peer state bits, Lustre's numbers */
	LNET_A_LATENCY,		/* nest: LNET_LAT_A_* (NI, peer NI) */
	LNET_A_UDSP_SRC,	/* string: a net or NID ranges */
	LNET_A_UDSP_DST,	/* string: a net or NID ranges */
	LNET_A_UDSP_RTE,	/* string: gateways, a net or NID ranges */
	LNET_A_PRIORITY,	/* u32: UDSP or route priority, 0 best */
	LNET_A_IDX,		/* u32: UDSP rule index */
	LNET_A_UDSP_INFO,	/* nest: LNET_UDSP_A_* (NI, peer NI; detail 4) */
	LNET_A_HEALTH_VALUE,	/* u32: 0..LNET_GENL_HEALTH_MAX */
	LNET_A_PEER,		/* flag: peer NIs (else local NIs) */
	LNET_A_HEALTH,		/* nest: LNET_HEALTH_A_* (NI, peer NI; detail 2) */
	LNET_A_FAULT,		/* nest: LNET_FAULT_A_* (a fault injection rule) */
	LNET_A_GATEWAY,		/* string: a route's gateway NID */
	LNET_A_HOP,		/* s32: a route's hop count, 1..255, -1 unset */
	LNET_A_ROUTE_ALIVE,	/* u8: the route is up */
	LNET_A_ROUTE_SINGLE_HOP, /* u8: the gateway showed an NI on the net */
	LNET_A_ROUTING_ENABLE,	/* u8: 1 forward, 0 do not */
	LNET_A_ROUTING_STATE,	/* u32: 0 disabled, 1 enabled, 2 stopping, */
				/* 3 starting (routing spec 5.1) */
	LNET_A_RTR_TINY,	/* s32: buffers total; 0 default, -1 unchanged */
	LNET_A_RTR_SMALL,	/* s32: as RTR_TINY */
	LNET_A_RTR_LARGE,	/* s32: as RTR_TINY */
	LNET_A_RTR_POOL,	/* nest: LNET_RTRPOOL_A_*, tiny, small, large */

	__LNET_A_MAX,
	LNET_A_MAX = __LNET_A_MAX - 1
};

/* LNET_A_TUNABLES: s32 each; absent means the LND's default. */
enum lnet_genl_tun_attr {
	LNET_TUN_A_UNSPEC,
	LNET_TUN_A_PEER_TIMEOUT,
	LNET_TUN_A_PEER_CREDITS,
	LNET_TUN_A_PEER_BUFFER_CREDITS,
	LNET_TUN_A_CREDITS,

	__LNET_TUN_A_MAX,
	LNET_TUN_A_MAX = __LNET_TUN_A_MAX - 1
};

/*
 * LNET_A_LND_TUNABLES: tunables of the NI's LND (lnetctl "lnd tunables"),
 * s32 each; absent means the LND's default.
 */
enum lnet_genl_lnd_tun_attr {
	LNET_LND_TUN_A_UNSPEC,
	LNET_LND_TUN_A_CONNS_PER_PEER,	/* 0..127; 0: from the link speed */
	/* ko2iblnd only (dumped for o2ib NIs only): */
	LNET_LND_TUN_A_PEERCREDITS_HIW,	/* 0..254, < peer_credits; 0: auto */
	LNET_LND_TUN_A_MAP_ON_DEMAND,	/* 0..257; obsolete, 0 taken as 1 */
	LNET_LND_TUN_A_CONCURRENT_SENDS, /* 0..510; 0: peer_credits */
	LNET_LND_TUN_A_FMR_POOL_SIZE,	/* 0..16384; 0: 512 */
	LNET_LND_TUN_A_FMR_FLUSH_TRIGGER, /* 0..16384 */
	LNET_LND_TUN_A_FMR_CACHE,	/* 0..1; no effect */
	LNET_LND_TUN_A_NTX,		/* 1..16384; no effect */
	/* both LNDs (dumped for every NI but 0@lo): */
	LNET_LND_TUN_A_TIMEOUT,		/* dump only: the LND's timeout, s */
	LNET_LND_TUN_A_TOS,		/* -1..255: IP ToS of its connections; */
					/* -1 none; absent: the module's tos */

	__LNET_LND_TUN_A_MAX,
	LNET_LND_TUN_A_MAX = __LNET_LND_TUN_A_MAX - 1
};

/* LNET_A_STATS: global counters. */
enum lnet_genl_stats_attr {
	LNET_STATS_A_UNSPEC,
	LNET_STATS_A_PAD,
	LNET_STATS_A_MSGS_ALLOC,	/* u32 */
	LNET_STATS_A_MSGS_MAX,		/* u32 */
	LNET_STATS_A_ERRORS,		/* u32 */
	LNET_STATS_A_SEND_COUNT,	/* u32 */
	LNET_STATS_A_RECV_COUNT,	/* u32 */
	LNET_STATS_A_ROUTE_COUNT,	/* u32 */
	LNET_STATS_A_DROP_COUNT,	/* u32 */
	LNET_STATS_A_SEND_LENGTH,	/* u64 */
	LNET_STATS_A_RECV_LENGTH,	/* u64 */
	LNET_STATS_A_ROUTE_LENGTH,	/* u64 */
	LNET_STATS_A_DROP_LENGTH,	/* u64 */
	LNET_STATS_A_RESPONSE_TIMEOUTS,	/* u32 */
	LNET_STATS_A_RESEND_COUNT,	/* u32 each, health: */
	LNET_STATS_A_LOCAL_INTERRUPT,
	LNET_STATS_A_LOCAL_DROPPED,
	LNET_STATS_A_LOCAL_ABORTED,
	LNET_STATS_A_LOCAL_NO_ROUTE,
	LNET_STATS_A_LOCAL_TIMEOUT,
	LNET_STATS_A_LOCAL_ERROR,
	LNET_STATS_A_REMOTE_DROPPED,
	LNET_STATS_A_REMOTE_ERROR,
	LNET_STATS_A_REMOTE_TIMEOUT,
	LNET_STATS_A_NETWORK_TIMEOUT,
	LNET_STATS_A_FAILED_RESENDS,
	LNET_STATS_A_SUCCESSFUL_RESENDS,
	LNET_STATS_A_LATE_MSGS,		/* failed past their deadline */

	__LNET_STATS_A_MAX,
	LNET_STATS_A_MAX = __LNET_STATS_A_MAX - 1
};

/* LNET_A_NI_STATS: per-NI totals, u32 each. */
enum lnet_genl_ni_stats_attr {
	LNET_NI_STATS_A_UNSPEC,
	LNET_NI_STATS_A_SEND_COUNT,
	LNET_NI_STATS_A_RECV_COUNT,
	LNET_NI_STATS_A_DROP_COUNT,

	__LNET_NI_STATS_A_MAX,
	LNET_NI_STATS_A_MAX = __LNET_NI_STATS_A_MAX - 1
};

/*
 * LNET_A_LATENCY: latency samples of a local NI or peer NI: PUT to its
 * send completion, GET to REPLY, PUT to ACK; count u32, nanoseconds u64.
 */
enum lnet_genl_latency_attr {
	LNET_LAT_A_UNSPEC,
	LNET_LAT_A_PAD,
	LNET_LAT_A_PUT_EGRESS_SAMPLES,
	LNET_LAT_A_PUT_EGRESS_MIN_NSEC,
	LNET_LAT_A_PUT_EGRESS_MAX_NSEC,
	LNET_LAT_A_PUT_EGRESS_AVG_NSEC,
	LNET_LAT_A_GET_RTT_SAMPLES,
	LNET_LAT_A_GET_RTT_MIN_NSEC,
	LNET_LAT_A_GET_RTT_MAX_NSEC,
	LNET_LAT_A_GET_RTT_AVG_NSEC,
	LNET_LAT_A_PUT_ACK_SAMPLES,
	LNET_LAT_A_PUT_ACK_MIN_NSEC,
	LNET_LAT_A_PUT_ACK_MAX_NSEC,
	LNET_LAT_A_PUT_ACK_AVG_NSEC,

	__LNET_LAT_A_MAX,
	LNET_LAT_A_MAX = __LNET_LAT_A_MAX - 1
};

/* LNET_A_RTR_POOL: one router buffer pool ("routing show"). */
enum lnet_genl_rtrpool_attr {
	LNET_RTRPOOL_A_UNSPEC,
	LNET_RTRPOOL_A_NPAGES,		/* u32: pages per buffer */
	LNET_RTRPOOL_A_NBUFFERS,	/* s32: buffers allocated */
	LNET_RTRPOOL_A_CREDITS,		/* s32: idle less waiting */
	LNET_RTRPOOL_A_MINCREDITS,	/* s32: low-water mark */
	LNET_RTRPOOL_A_WANTED,		/* s32: the total asked for */

	__LNET_RTRPOOL_A_MAX,
	LNET_RTRPOOL_A_MAX = __LNET_RTRPOOL_A_MAX - 1
};

/* LNET_A_PEER_CREDITS: a peer NI's tx credits. */
enum lnet_genl_peer_credits_attr {
	LNET_PEER_CR_A_UNSPEC,
	LNET_PEER_CR_A_TX_MAX,		/* s32: peer_credits */
	LNET_PEER_CR_A_TX_AVAIL,	/* s32: now; < 0: messages wait */
	LNET_PEER_CR_A_TX_MIN,		/* s32: low-water mark */
	LNET_PEER_CR_A_TXQ_BYTES,	/* u32: payload of those waiting */
	LNET_PEER_CR_A_RTR_AVAIL,	/* s32: router credits now */
	LNET_PEER_CR_A_RTR_MIN,		/* s32: their low-water mark */

	__LNET_PEER_CR_A_MAX,
	LNET_PEER_CR_A_MAX = __LNET_PEER_CR_A_MAX - 1
};

/*
 * LNET_A_UDSP_INFO: what the UDSP rules give a local NI or a peer NI;
 * priorities u32, absent when no rule gives one.
 */
enum lnet_genl_udsp_info_attr {
	LNET_UDSP_A_UNSPEC,
	LNET_UDSP_A_NET_PRIO,	/* its net's */
	LNET_UDSP_A_NID_PRIO,	/* its own */
	LNET_UDSP_A_PREF_SRC,	/* nest of LNET_A_NID: preferred local NIDs */
	LNET_UDSP_A_PREF_RTR,	/* nest of LNET_A_NID: preferred gateways */

	__LNET_UDSP_A_MAX,
	LNET_UDSP_A_MAX = __LNET_UDSP_A_MAX - 1
};

/*
 * LNET_A_HEALTH: health of a local NI or peer NI (lnetctl "health
 * stats"); u32 counters of failures by class, those of the other kind
 * absent.
 */
enum lnet_genl_health_attr {
	LNET_HEALTH_A_UNSPEC,
	LNET_HEALTH_A_PAD,
	LNET_HEALTH_A_FATAL,		/* u8: local NI: its LND reports it down */
	LNET_HEALTH_A_VALUE,		/* u32: 0..1000 */
	LNET_HEALTH_A_INTERRUPTS,	/* local NI */
	LNET_HEALTH_A_DROPPED,		/* local NI and peer NI */
	LNET_HEALTH_A_ABORTED,		/* local NI */
	LNET_HEALTH_A_NO_ROUTE,		/* local NI */
	LNET_HEALTH_A_TIMEOUTS,		/* local NI: timeouts; peer NI: timeout */
	LNET_HEALTH_A_ERROR,		/* local NI and peer NI */
	LNET_HEALTH_A_NETWORK_TIMEOUT,	/* peer NI */
	LNET_HEALTH_A_PING_COUNT,	/* recovery pings since it last worked */
	LNET_HEALTH_A_NEXT_PING,	/* s64: seconds (monotonic) of the next */

	__LNET_HEALTH_A_MAX,
	LNET_HEALTH_A_MAX = __LNET_HEALTH_A_MAX - 1
};

/*
 * LNET_A_FAULT: a fault injection rule ("lnetctl fault drop|delay", spec
 * features 6) and, in dumps, its counters.  NIDs are strings: a NID,
 * "*@net" (every NID of the net) or "*" (any).
 */
enum lnet_genl_fault_type {
	LNET_FAULT_TYPE_DROP,
	LNET_FAULT_TYPE_DELAY,
};

#define LNET_GENL_FAULT_LATENCY_MAX	3600	/* seconds */

enum lnet_genl_fault_attr {
	LNET_FAULT_A_UNSPEC,
	LNET_FAULT_A_PAD,
	LNET_FAULT_A_TYPE,		/* u8: LNET_FAULT_TYPE_* */
	LNET_FAULT_A_SRC,		/* string: header source NID */
	LNET_FAULT_A_DST,		/* string: header destination NID */
	LNET_FAULT_A_LOCAL_NID,		/* string: receiving NI (drop) */
	LNET_FAULT_A_PTL_MASK,		/* u64: portals (PUT, GET); 0 any */
	LNET_FAULT_A_MSG_MASK,		/* u32: BIT(ACK 0, PUT 1, GET 2, */
					/* REPLY 3); 0 all */
	LNET_FAULT_A_RATE,		/* u32: one in each RATE matches */
	LNET_FAULT_A_INTERVAL,		/* u32: once per INTERVAL seconds */
	LNET_FAULT_A_HEALTH_MASK,	/* u32: drop: BIT(hstatus 1..10) or */
					/* 0xffffffff random */
	LNET_FAULT_A_RANDOM,		/* flag: drop: 50 % within INTERVAL */
	LNET_FAULT_A_DROP_ALL,		/* flag: drop every match */
	LNET_FAULT_A_LATENCY,		/* u32: delay: seconds, > 0 */
	LNET_FAULT_A_COUNT,		/* u64 (dump): messages matched */
	LNET_FAULT_A_PUT,		/* u64: PUTs dropped or delayed */
	LNET_FAULT_A_ACK,		/* u64: ACKs */
	LNET_FAULT_A_GET,		/* u64: GETs */
	LNET_FAULT_A_REPLY,		/* u64: REPLY messages */
	LNET_FAULT_A_ACTED,		/* u64: all dropped (or delayed) */

	__LNET_FAULT_A_MAX,
	LNET_FAULT_A_MAX = __LNET_FAULT_A_MAX - 1
};

/* LNET_A_NI_SENT/RECEIVED/DROPPED: u32 per message type. */
enum lnet_genl_msg_attr {
	LNET_MSG_A_UNSPEC,
	LNET_MSG_A_ACK,
	LNET_MSG_A_PUT,
	LNET_MSG_A_GET,
	LNET_MSG_A_REPLY,
	LNET_MSG_A_HELLO,

	__LNET_MSG_A_MAX,
	LNET_MSG_A_MAX = __LNET_MSG_A_MAX - 1
};

#endif /* _UAPI_LNET_GENL_H */
