/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The "lnet_selftest" generic netlink family: the console of
 * lnet_selftest.ko as lst drives it (Documentation/selftest.rst).
 *
 * Stock Lustre's family of this name carries YAML-shaped scalar
 * attributes for sessions and groups and leaves the rest to an ioctl;
 * ours is one typed family for everything (as our "lnet" family is),
 * validated strictly by the kernel, CAP_NET_ADMIN for every command.
 *
 * Commands that send framework RPCs to nodes (a "transaction", one RPC
 * per node) are dump requests: the transaction runs when the dump
 * starts (its errors come back as the request's error, with an extack
 * message) and the dump is its per-node results, one message per node,
 * in the order the nodes were asked.
 *
 * Every command but the *_GET ones carries the session key (LST_A_KEY,
 * lst's $LST_SESSION): a key that is not the session's gets EACCES, no
 * session ESRCH.
 */
#ifndef _UAPI_LNET_SELFTEST_GENL_H
#define _UAPI_LNET_SELFTEST_GENL_H

#define LST_GENL_NAME		"lnet_selftest"
#define LST_GENL_VERSION	1

#define LST_GENL_NAME_LEN	32	/* session, group, batch names, NUL in */
#define LST_GENL_NID_LEN	64

/* Bounds of a console session (ours). */
#define LST_GENL_NODES_MAX	4096	/* nodes of a session */
#define LST_GENL_GROUPS_MAX	256
#define LST_GENL_BATCHES_MAX	256
#define LST_GENL_TESTS_MAX	256	/* tests of one batch */
#define LST_GENL_REQ_NODES_MAX	1024	/* LST_A_NODES of one request */

/* Test parameters (spec 7.3, 7.5, 5.1). */
#define LST_GENL_CONCUR_MAX	1024
#define LST_GENL_SPAN_MAX	341	/* a longer list breaks stock nodes */
#define LST_GENL_BRW_SIZE_MAX	1048576
#define LST_GENL_TIMEOUT_MAX	3600	/* seconds, any timeout */

/* Node states (spec 7.1), LST_A_STATE; also a filter mask. */
#define LST_NODE_ACTIVE		0x1
#define LST_NODE_BUSY		0x2
#define LST_NODE_DOWN		0x4
#define LST_NODE_UNKNOWN	0x8

/* LST_A_TEST_TYPE */
#define LST_TEST_BRW		1
#define LST_TEST_PING		2

/* LST_A_BRW_OPC */
#define LST_BRW_OPC_READ	1
#define LST_BRW_OPC_WRITE	2

/* LST_A_BRW_CHECK (spec 5.4) */
#define LST_BRW_CHK_NONE	1
#define LST_BRW_CHK_SIMPLE	2
#define LST_BRW_CHK_FULL	3
#define LST_BRW_CHK_DISCARD	4	/* received, not stored (our nodes: NONE) */

/* LST_A_UPDATE_OPC (lst update_group) */
#define LST_GROUP_CLEAN		1	/* drop nodes in LST_A_STATE's states */
#define LST_GROUP_REFRESH	2	/* MAKE_SESSION to non-ACTIVE nodes */
#define LST_GROUP_REMOVE	3	/* drop LST_A_NODES */

enum lst_genl_cmd {
	LST_CMD_UNSPEC,
	/* KEY, NAME, [TIMEOUT] (console idle, s), [FORCE] */
	LST_CMD_SESSION_NEW,
	/* KEY: REMOVE_SESSION to every ACTIVE node, then ends the session */
	LST_CMD_SESSION_END,
	/* reply: NAME, KEY, SID_NID, SID_STAMP, TIMEOUT, FORCE, NODE_COUNT */
	LST_CMD_SESSION_GET,
	/* dump: KEY, GROUP, NODES: MAKE_SESSION to those not ACTIVE */
	LST_CMD_GROUP_ADD,
	/* dump: KEY, GROUP, UPDATE_OPC, [NODES] (REMOVE), [STATE] (CLEAN) */
	LST_CMD_GROUP_UPDATE,
	/* dump: KEY, GROUP: REMOVE_SESSION to its nodes in no other use */
	LST_CMD_GROUP_DEL,
	/*
	 * dump: no GROUP: one message per group: GROUP, NODE_COUNT and
	 * COUNT_ACTIVE/BUSY/DOWN/UNKNOWN; GROUP: one per node: GROUP,
	 * NID, STATE
	 */
	LST_CMD_GROUP_GET,
	LST_CMD_BATCH_ADD,	/* KEY, BATCH */
	/*
	 * dump: no BATCH: one message per batch: BATCH, TEST_COUNT,
	 * ACTIVE (running); BATCH: one per test: BATCH, TEST_IDX, the
	 * test's attributes as TEST_ADD took them
	 */
	LST_CMD_BATCH_GET,
	/*
	 * dump: KEY, BATCH, TEST_TYPE, FROM, TO, [LOOP], [CONCUR], [DIST],
	 * [SPAN], BRW: BRW_OPC, [BRW_SIZE], [BRW_CHECK], [BRW_OFF]:
	 * TEST to every node of TO (servers), then, if none failed, to
	 * every node of FROM (clients); the results of both rounds.  The
	 * last result message also carries TEST_IDX.
	 */
	LST_CMD_TEST_ADD,
	LST_CMD_BATCH_RUN,	/* dump: KEY, BATCH, [TIMEOUT] */
	LST_CMD_BATCH_STOP,	/* dump: KEY, BATCH, [FORCE] */
	/* dump: KEY, BATCH, [TEST_IDX] (0: all), [SERVER], [TIMEOUT] */
	LST_CMD_BATCH_QUERY,
	/* dump: KEY, GROUP or NODES, [TIMEOUT]: QUERY_STAT; results: STATS */
	LST_CMD_STAT,
	/*
	 * dump: KEY, one of GROUP, NODES, BATCH (+ SERVER) or none (every
	 * node of the session), [TIMEOUT]: DEBUG; results: NAME, TIMEOUT
	 */
	LST_CMD_DEBUG,

	__LST_CMD_MAX,
	LST_CMD_MAX = __LST_CMD_MAX - 1
};

enum lst_genl_attr {
	LST_A_UNSPEC,
	LST_A_PAD,
	LST_A_KEY,		/* u32: the session key ($LST_SESSION) */
	LST_A_NAME,		/* string: session name */
	LST_A_TIMEOUT,		/* u32: seconds */
	LST_A_FORCE,		/* flag */
	LST_A_SID_NID,		/* string: a session id's NID */
	LST_A_SID_STAMP,	/* u64: a session id's stamp */
	LST_A_NODE_COUNT,	/* u32 */
	LST_A_GROUP,		/* string: group name */
	LST_A_NODES,		/* nest of LST_A_NID */
	LST_A_NID,		/* string: a node's NID (its PID is 12345) */
	LST_A_STATE,		/* u32: LST_NODE_* (GROUP_UPDATE: a mask) */
	LST_A_UPDATE_OPC,	/* u32: LST_GROUP_* */
	LST_A_COUNT_ACTIVE,	/* u32 */
	LST_A_COUNT_BUSY,	/* u32 */
	LST_A_COUNT_DOWN,	/* u32 */
	LST_A_COUNT_UNKNOWN,	/* u32 */
	LST_A_BATCH,		/* string: batch name */
	LST_A_TEST_COUNT,	/* u32 */
	LST_A_ACTIVE,		/* u32: running tests (query), running batch */
	LST_A_TEST_IDX,		/* u32: 1.. in the batch */
	LST_A_TEST_TYPE,	/* u32: LST_TEST_* */
	LST_A_FROM,		/* string: the clients' group */
	LST_A_TO,		/* string: the servers' group */
	LST_A_LOOP,		/* s32: RPCs per unit, -1 (default) forever */
	LST_A_CONCUR,		/* u32: 1 (default)..LST_GENL_CONCUR_MAX */
	LST_A_DIST,		/* u32: D of D:S, >= 1 (default 1) */
	LST_A_SPAN,		/* u32: S of D:S, 1..341 (default 1) */
	LST_A_BRW_OPC,		/* u32: LST_BRW_OPC_* */
	LST_A_BRW_SIZE,		/* u32: bytes, 8..1 MiB, multiple of 8 */
	LST_A_BRW_CHECK,	/* u32: LST_BRW_CHK_* (default NONE) */
	LST_A_BRW_OFF,		/* u32: client page offset (ours only) */
	LST_A_SERVER,		/* flag: the batch's servers (query, debug) */
	/* per-node results of a transaction: */
	LST_A_RPC_ERRNO,	/* u32: the RPC failed (positive errno) */
	LST_A_FWK_ERRNO,	/* u32: the reply's status (positive errno) */
	LST_A_STATS,		/* nest: LST_STAT_A_* (STAT results) */

	__LST_A_MAX,
	LST_A_MAX = __LST_A_MAX - 1
};

/* LST_A_STATS: a node's QUERY_STAT reply (spec 3.6). */
enum lst_genl_stat_attr {
	LST_STAT_A_UNSPEC,
	LST_STAT_A_PAD,
	LST_STAT_A_RUNNING_MS,		/* u32 each, to BULK_PUT */
	LST_STAT_A_ACTIVE_BATCHES,
	LST_STAT_A_ZOMBIE_SESSIONS,
	LST_STAT_A_BRW_ERRORS,
	LST_STAT_A_PING_ERRORS,
	LST_STAT_A_RPC_ERRORS,
	LST_STAT_A_RPCS_SENT,
	LST_STAT_A_RPCS_RCVD,
	LST_STAT_A_RPCS_DROPPED,
	LST_STAT_A_RPCS_EXPIRED,
	LST_STAT_A_BULK_GET,		/* u64 */
	LST_STAT_A_BULK_PUT,		/* u64 */
	LST_STAT_A_LNET_ERRORS,		/* u32 */
	LST_STAT_A_SEND_COUNT,		/* u32 */
	LST_STAT_A_RECV_COUNT,		/* u32 */
	LST_STAT_A_DROP_COUNT,		/* u32 */
	LST_STAT_A_SEND_LENGTH,		/* u64 */
	LST_STAT_A_RECV_LENGTH,		/* u64 */
	LST_STAT_A_DROP_LENGTH,		/* u64 */

	__LST_STAT_A_MAX,
	LST_STAT_A_MAX = __LST_STAT_A_MAX - 1
};

#endif /* _UAPI_LNET_SELFTEST_GENL_H */
