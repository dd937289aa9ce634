/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The console of lnet_selftest.ko (spec lnet-selftest.md section 7):
 * the session lst makes, its nodes, groups, batches and tests
 * (console.c), the transactions that carry framework RPCs to the nodes
 * (conrpc.c) and the netlink family lst drives it by (netlink.c).
 *
 * Everything here is under lst_con.lock, a mutex held for a whole
 * command, transactions included (they sleep up to their timeout): lst
 * commands are serialised, as stock's are.  RPC completions never take
 * it (a transaction's RPCs complete into the transaction).
 */
#ifndef _LNET_SELFTEST_CONSOLE_H
#define _LNET_SELFTEST_CONSOLE_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/workqueue.h>

#include "selftest.h"

#define LST_CON_RPC_TIMEOUT	30	/* seconds: a transaction's default */
#define LST_CON_PING_INTERVAL	8	/* seconds between pinger rounds */
#define LST_CON_IDLE_DEFAULT	300	/* console idle timeout, seconds */

/**
 * struct lst_con_node - a node of the console's session
 * @link: in lst_con.nodes
 * @id: its NID (a nid4 one: selftest ids are 64-bit) and PID 12345
 * @state: LST_NODE_*
 * @timeout: its session timeout (MAKE_SESSION reply), seconds; 0 never
 * @last_reply: jiffies of its last reply
 * @uses: groups holding it; at 0 it is freed
 */
struct lst_con_node {
	struct list_head	link;
	struct lnet_processid	id;
	u32			state;
	u32			timeout;
	unsigned long		last_reply;
	unsigned int		uses;
};

/* A group: its nodes, in the order they were added. */
struct lst_con_group {
	struct list_head	link;
	char			name[LST_GENL_NAME_LEN];
	unsigned int		nnodes;
	struct lst_con_node	**nodes;
	unsigned int		tests;		/* tests using it */
};

/* A test of a batch, as TEST_ADD took it. */
struct lst_con_test {
	struct list_head	link;
	unsigned int		idx;		/* 1.. in its batch */
	u32			type;		/* LST_TEST_* */
	s32			loop;
	u32			concur;
	u32			dist;
	u32			span;
	u32			brw_opc;
	u32			brw_size;
	u32			brw_check;
	u32			brw_off;
	struct lst_con_group	*from;
	struct lst_con_group	*to;
};

struct lst_con_batch {
	struct list_head	link;
	char			name[LST_GENL_NAME_LEN];
	u64			bid;
	struct list_head	tests;
	unsigned int		ntests;
	bool			running;
};

/**
 * struct lst_console - the console's session (spec 7.1)
 * @lock: everything here
 * @live: a session exists
 * @key: its key ($LST_SESSION of the lst that made it)
 * @name: its name
 * @sid: its id (our first non-loopback NID, a monotonic ms stamp)
 * @feats: the features its RPCs carry
 * @timeout: console idle timeout, seconds
 * @force: MAKE_SESSION takes nodes held by another console
 * @last_used: jiffies of the last command
 * @nodes: every node of its groups (struct lst_con_node)
 * @nnodes: how many
 * @groups: struct lst_con_group, in order of creation
 * @ngroups: how many
 * @batches: struct lst_con_batch, in order of creation
 * @nbatches: how many
 * @pinger: the 8 s round (spec 7.4)
 */
struct lst_console {
	struct mutex		lock;		/* all of the console */
	bool			live;
	u32			key;
	char			name[LST_GENL_NAME_LEN];
	struct lst_sid		sid;
	u32			feats;
	u32			timeout;
	bool			force;
	unsigned long		last_used;
	struct list_head	nodes;
	unsigned int		nnodes;
	struct list_head	groups;
	unsigned int		ngroups;
	struct list_head	batches;
	unsigned int		nbatches;
	struct delayed_work	pinger;
};

extern struct lst_console lst_con;

/**
 * struct lst_con_result - what one node's RPC of a transaction gave
 * @id: the node
 * @state: its state after the RPC
 * @rpc_errno: 0, or why the RPC failed (positive errno)
 * @reply: the reply (little-endian), when @rpc_errno is 0
 */
struct lst_con_result {
	struct lnet_processid	id;
	u32			state;
	u32			rpc_errno;
	u8			reply[LST_MSG_SIZE];
};

/* The results of a command's transactions, handed to the netlink dump. */
struct lst_con_results {
	unsigned int		cmd;		/* LST_CMD_* */
	unsigned int		test_idx;	/* TEST_ADD: the new test's */
	unsigned int		n;
	unsigned int		max;
	struct lst_con_result	res[];
};

struct lst_con_results *lst_con_results_alloc(unsigned int cmd,
					      unsigned int max);

/*
 * Fill @req, the request of @svc to node @i of a transaction (its sid is
 * filled already); may attach @bulk (freed after the transaction).
 */
typedef int (*lst_con_fill_t)(unsigned int i, void *req,
			      struct lst_bulk **bulk, void *arg);

int lst_con_trans(unsigned int svc, struct lst_con_node **nodes,
		  unsigned int n, unsigned int timeout, lst_con_fill_t fill,
		  void *arg, struct lst_con_results *out, bool pinger);

/* console.c: the commands (lst_con.lock held, session checked). */
struct lst_con_node **lst_con_vec(unsigned int n);
struct lst_con_group *lst_con_group_find(const char *name);
struct lst_con_batch *lst_con_batch_find(const char *name);
struct lst_con_node *lst_con_node_find(const struct lnet_processid *id);
int lst_con_session_new(u32 key, const char *name, u32 timeout, bool force,
			struct netlink_ext_ack *extack);
void lst_con_session_end(void);
int lst_con_group_add(const char *name, const struct lnet_processid *ids,
		      unsigned int n, struct lst_con_results *out,
		      struct netlink_ext_ack *extack);
int lst_con_group_refresh(struct lst_con_group *grp,
			  struct lst_con_results *out);
int lst_con_group_clean(struct lst_con_group *grp, u32 states);
int lst_con_group_remove(struct lst_con_group *grp,
			 const struct lnet_processid *ids, unsigned int n,
			 struct lst_con_results *out,
			 struct netlink_ext_ack *extack);
int lst_con_group_del(struct lst_con_group *grp, struct lst_con_results *out,
		      struct netlink_ext_ack *extack);
int lst_con_batch_add(const char *name, struct netlink_ext_ack *extack);
int lst_con_test_add(struct lst_con_batch *bat, struct lst_con_test *t,
		     struct lst_con_results *out,
		     struct netlink_ext_ack *extack);
int lst_con_batch_run(struct lst_con_batch *bat, u32 timeout,
		      struct lst_con_results *out,
		      struct netlink_ext_ack *extack);
int lst_con_batch_stop(struct lst_con_batch *bat, bool force,
		       struct lst_con_results *out);
int lst_con_batch_query(struct lst_con_batch *bat, u32 idx, bool server,
			u32 timeout, struct lst_con_results *out,
			struct netlink_ext_ack *extack);
unsigned int lst_con_batch_nodes(struct lst_con_batch *bat, bool server,
				 unsigned int idx,
				 struct lst_con_node **nodes);
int lst_con_stat(struct lst_con_node **nodes, unsigned int n, u32 timeout,
		 struct lst_con_results *out);
int lst_con_debug(struct lst_con_node **nodes, unsigned int n, u32 timeout,
		  struct lst_con_results *out);

int lst_console_start(void);
void lst_console_stop(void);
int lst_netlink_init(void);
void lst_netlink_fini(void);

#endif /* _LNET_SELFTEST_CONSOLE_H */
