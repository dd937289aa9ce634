/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals of lnet_selftest.ko (work in progress): the wire is in
 * wire.h, the framework's session rules in rules.c, data patterns and the
 * destination distribution in pattern.c.
 */
#ifndef _LNET_SELFTEST_INTERNAL_H
#define _LNET_SELFTEST_INTERNAL_H

#include <linux/atomic.h>
#include <linux/bvec.h>
#include <linux/completion.h>
#include <linux/list.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include <lnet/api.h>
#include <uapi/lnet/lnet_selftest_genl.h>

#include "wire.h"

/* BRW check modes (brw_flags, spec 5.4). */
#define LST_BRW_CHECK_NONE	1
#define LST_BRW_CHECK_SIMPLE	2
#define LST_BRW_CHECK_FULL	3
#define LST_BRW_CHECK_DISCARD	4

#define LST_BRW_READ		1
#define LST_BRW_WRITE		2
#define LST_BRW_MAX_LEN		SZ_1M

#define LST_BRW_MAGIC		0xeeb0eeb1eeb2eeb3ULL
#define LST_BRW_POISON		0xbeefbeefbeefbeefULL

/* Session ids (spec 3.3); "none" is LST_NID_ANY with stamp -1. */
#define LST_NID_ANY		(~0ULL)
#define LST_NAME_MAX		31

/* TEST request limits (spec 4.6). */
#define LST_NDEST_MAX		(256 * 341)
#define LST_CONCUR_MAX		1024

struct lst_sid {
	u64	nid;
	s64	stamp;
};

/**
 * struct lst_session - the test node's session (spec 4.1)
 * @sid: its id, the console's
 * @name: its name, NUL-terminated
 * @feats: the features MAKE_SESSION asked for, echoed in every reply
 * @timeout: session_timeout when it was made, seconds (0: never)
 * @refs: MAKE_SESSIONs with this sid, less REMOVE_SESSIONs
 * @brw_errors: failed BRW RPCs of its tests (spec 4.11)
 * @ping_errors: failed PING RPCs of its tests
 * @batches: its batches (struct lst_batch), in order of creation
 * @nbatches: how many
 */
struct lst_session {
	struct lst_sid	sid;
	char		name[LST_NAME_MAX + 1];
	u32		feats;
	u32		timeout;
	unsigned int	refs;
	atomic_t	brw_errors;
	atomic_t	ping_errors;
	struct list_head batches;
	unsigned int	nbatches;
};

/* What a framework request does to the session. */
enum lst_sess_action {
	LST_SESS_NONE,
	LST_SESS_REF,		/* the same session again: +1 reference */
	LST_SESS_CREATE,	/* a new session (there was none) */
	LST_SESS_REPLACE,	/* a new session, the current deactivated */
	LST_SESS_UNREF,		/* -1 reference; at 0 deactivated */
};

int lst_feats_status(u32 type, u32 version, u32 feats,
		     const struct lst_session *cur);
int lst_mksn_rule(const struct lst_session *cur, const struct lst_sid *sid,
		  bool force, enum lst_sess_action *act);
int lst_rmsn_rule(const struct lst_session *cur, const struct lst_sid *sid,
		  enum lst_sess_action *act);
int lst_test_rule(const void *msg, const struct lst_session *cur);

void lst_brw_fill(void *frag, unsigned int len, unsigned int mode);
void lst_brw_poison(void *frag, unsigned int len, unsigned int mode);
int lst_brw_check(const void *frag, unsigned int len, unsigned int mode,
		  bool swapped);
int lst_dest_first(unsigned int i, unsigned int dist, unsigned int span,
		   unsigned int n);
s32 lst_server_loop(unsigned int nsrc, unsigned int ndst, unsigned int dist,
		    unsigned int span, unsigned int concur);
u32 lst_node_state(const struct lst_sid *mine, u64 nid, s64 stamp);
int lst_brw_params_check(u32 size, u32 off);

/* Module parameters (module.c). */
extern unsigned int lst_session_timeout;
extern unsigned int lst_rpc_timeout;
extern unsigned int lst_brw_srv_workitems;
extern unsigned int lst_ping_srv_workitems;
extern int lst_brw_inject_errors;

/*
 * RPC counters (spec 2.8), module-wide since load, sent in every
 * STAT_REPLY: @errors: LNet events that failed (-ECANCELED aside);
 * @rpcs_sent: requests whose SEND completed; @rpcs_rcvd: request buffers
 * filled, valid or not; @rpcs_dropped: served RPCs that sent no reply or
 * whose reply failed; @rpcs_expired: client RPCs timed out; @bulk_get,
 * @bulk_put: bytes our servers moved by GET and PUT.
 */
struct lst_rpc_stats {
	atomic_t	errors;
	atomic_t	rpcs_sent;
	atomic_t	rpcs_rcvd;
	atomic_t	rpcs_dropped;
	atomic_t	rpcs_expired;
	atomic64_t	bulk_get;
	atomic64_t	bulk_put;
};

extern struct lst_rpc_stats lst_rpc_stats;
extern struct workqueue_struct *lst_wq;

/*
 * An RPC's bulk: @len bytes in page fragments, the first @off bytes into
 * its first page.  @sink: the data comes in (a READ's client, a WRITE's
 * server).
 */
struct lst_bulk {
	unsigned int	len;
	unsigned int	off;
	unsigned int	npages;
	bool		sink;
	struct bio_vec	kiov[];
};

struct lst_bulk *lst_bulk_alloc(unsigned int len, unsigned int off,
				bool sink);
void lst_bulk_free(struct lst_bulk *bk);

struct lst_crpc;
typedef void (*lst_crpc_done_t)(struct lst_crpc *rpc);

/**
 * struct lst_crpc - a client RPC (spec 2.6): a request, its reply and
 *	maybe a bulk, to one peer
 * @dest: the peer (its primary NID, PID 12345)
 * @service: the service the request goes to (enum lst_service)
 * @req: the request; its body is the caller's but for the ids
 * @reply: the reply, little-endian once @status is 0
 * @reply_info: the reply's header (@swapped: the peer sends big-endian)
 * @bulk: NULL, or the bulk the server PUTs into or GETs from
 * @status: 0, or why the RPC failed (event status, -ETIMEDOUT expired,
 *	-EINTR aborted, -EBADMSG bad reply); valid in @done
 * @done: called once, in process context, when every MD is gone
 * @priv: the caller's
 *
 * The rest is the RPC's own (rpc.c).
 */
struct lst_crpc {
	struct lnet_processid	dest;
	unsigned int		service;
	u8			req[LST_MSG_SIZE];
	u8			reply[LST_MSG_SIZE];
	struct lst_msg_info	reply_info;
	struct lst_bulk		*bulk;
	int			status;
	lst_crpc_done_t		done;
	void			*priv;

	spinlock_t		lock;		/* the fields below */
	struct lnet_handle_md	req_mdh;
	struct lnet_handle_md	reply_mdh;
	struct lnet_handle_md	bulk_mdh;
	unsigned int		live;		/* MDs not yet unlinked */
	int			req_status;
	int			reply_status;
	int			bulk_status;
	int			abort_status;
	bool			sent;
	bool			replied;
	bool			bulk_done;
	bool			unlink_bulk;	/* reply status != 0 */
	bool			finished;
	struct delayed_work	expiry;
	struct work_struct	work;
};

u64 lst_next_id(void);
struct lst_crpc *lst_crpc_alloc(const struct lnet_processid *dest,
				unsigned int service, u32 feats,
				struct lst_bulk *bulk, lst_crpc_done_t done,
				void *priv);
void lst_crpc_post(struct lst_crpc *rpc, unsigned int timeout);
void lst_crpc_abort(struct lst_crpc *rpc, int why);
void lst_crpc_free(struct lst_crpc *rpc);

struct lst_srpc;

/**
 * struct lst_svc - what a node serves (spec 2.2-2.7)
 * @name: for messages
 * @id: enum lst_service: the match bits of its requests
 * @nbuf: request buffers to keep posted
 * @handle: checks @rpc's msg_version and builds its reply (lst_msg_init()
 *	done: type set, the request's features), may attach a bulk (freed
 *	with the request); a negative return sends no reply
 * @bulk_done: after the bulk moved (optional): a negative return sends no
 *	reply
 * @test: a test service (BRW, PING), not a framework one
 * @wq: where its requests are served (one at a time for the framework)
 */
struct lst_svc {
	const char		*name;
	unsigned int		id;
	unsigned int		nbuf;
	int			(*handle)(struct lst_srpc *rpc);
	int			(*bulk_done)(struct lst_srpc *rpc);
	bool			test;
	struct workqueue_struct	*wq;

	spinlock_t		lock;		/* bufs, rpcs, posted, busy, stopping */
	struct list_head	bufs;		/* posted request buffers */
	struct list_head	rpcs;		/* requests being served */
	unsigned int		posted;
	unsigned int		busy;		/* requests being served */
	bool			stopping;
	wait_queue_head_t	waitq;
};

/**
 * struct lst_srpc - a request being served
 * @svc: its service
 * @req: the request, little-endian
 * @info: its header
 * @reply: the reply being built
 * @peer: who sent it
 * @self: the NID it came to (the reply and bulk go from there)
 * @bulk: set by the handler: the bulk to move before replying
 * @bulkid: the request's bulk match bits
 * @bulk_status: how the bulk went (for @bulk_done)
 * @link: in its service's rpcs while it is served
 * @op_mdh: the MD of its LNet operation in flight, or none
 * @aborted: its service stops: no more operations, no reply
 */
struct lst_srpc {
	struct lst_svc	*svc;
	u8			req[LST_MSG_SIZE];
	struct lst_msg_info	info;
	u8			reply[LST_MSG_SIZE];
	struct lnet_processid	peer;
	struct lnet_nid		self;
	struct lst_bulk		*bulk;
	u64			bulkid;
	int			bulk_status;
	struct list_head	link;		/* svc->lock: and the two below */
	struct lnet_handle_md	op_mdh;
	bool			aborted;

	struct completion	event;
	int			ev_status;
	unsigned int		ev_mlength;
};

int lst_service_start(struct lst_svc *svc);
void lst_service_stop(struct lst_svc *svc);

/* Bounds of what a console can make on a node (ours, not stock's). */
#define LST_BATCHES_MAX		256
#define LST_TESTS_MAX		256
/*
 * A client instance's units (ndest x concur, up to 89 million by spec
 * 4.6's limits) and the BRW buffers they hold, bounded: a console's TEST
 * beyond them is refused with ENOMEM rather than taking the node's
 * memory.
 */
#define LST_UNITS_MAX		65536
#define LST_BRW_CLIENT_BYTES	(512ULL << 20)
/*
 * The units of all client instances of the node, whatever their test
 * (PING units hold no buffer, but each is a unit and, running, an RPC in
 * flight): 256 batches x 256 instances of LST_UNITS_MAX would be 4
 * billion.  A TEST past it is refused with ENOMEM.
 */
#define LST_NODE_UNITS_MAX	(4 * LST_UNITS_MAX)

struct lst_unit;
struct lst_test;

/**
 * struct lst_test_ops - what a test (BRW, PING) does as a client
 * @init: a unit is made (optional): buffers, parameters; -errno refuses
 *	the TEST with that status
 * @fini: the unit goes (optional)
 * @prep: fill the unit's next request in @rpc
 * @check: @rpc is done: 0 if it went well, else -errno
 * @error: count a failure in the session (spec 4.11)
 */
struct lst_test_ops {
	int	(*init)(struct lst_unit *u);
	void	(*fini)(struct lst_unit *u);
	int	(*prep)(struct lst_unit *u, struct lst_crpc *rpc);
	int	(*check)(struct lst_unit *u, struct lst_crpc *rpc);
	void	(*error)(struct lst_unit *u);
};

/* A client unit (spec 4.10): one destination, one RPC at a time. */
struct lst_unit {
	struct lst_test		*test;
	struct lnet_processid	dest;
	s64			loop;		/* RPCs left, -1 forever */
	struct lst_crpc		*rpc;		/* in flight, test->lock */
	struct lst_bulk		*bulk;		/* BRW: the unit's buffer */
	u32			seq;		/* PING: the request's */
};

/**
 * struct lst_test - a test instance (spec 4.1)
 * @link: in its batch's list, in arrival order
 * @batch: its batch
 * @session: its session
 * @ops: the test's client ops (servers: which service they enable)
 * @service: LST_SVC_BRW or LST_SVC_PING
 * @client: a client instance (else a server one)
 * @stop_onerr: a failed RPC ends its unit
 * @loop: RPCs per unit, -1 forever
 * @concur: units per destination
 * @feats: the session features its RPCs carry
 * @params: tsr_u, little-endian
 * @nunits: destinations x @concur
 * @units: them
 * @lock: the units' RPCs and @stopping
 * @stopping: a stop was asked: units end after their RPC
 * @active_units: units still running
 * @reserved: bytes of buffers its units hold (BRW), reserved at once
 * @charged: units charged to the node's budget (LST_NODE_UNITS_MAX)
 */
struct lst_test {
	struct list_head		link;
	struct lst_batch		*batch;
	struct lst_session		*session;
	const struct lst_test_ops	*ops;
	unsigned int			service;
	bool				client;
	bool				stop_onerr;
	s32				loop;
	u32				concur;
	u32				feats;
	u8				params[12];
	unsigned int			nunits;
	struct lst_unit			*units;
	spinlock_t			lock;	/* units' rpc, stopping */
	bool				stopping;
	atomic_t			active_units;
	u64				reserved;
	unsigned int			charged;
};

/* A batch (spec 4.1): its tests, and how many client ones run. */
struct lst_batch {
	struct list_head	link;
	u64			bid;
	struct list_head	tests;
	unsigned int		ntests;
	atomic_t		active;
};

extern const struct lst_test_ops lst_ping_ops;
extern const struct lst_test_ops lst_brw_ops;
extern struct lst_svc lst_ping_svc;
extern struct lst_svc lst_brw_svc;

int lst_test_add(struct lst_session *sn, const void *req,
		 const struct lnet_processid *dests);
int lst_batch_request(struct lst_session *sn, const void *req, void *reply);
void lst_batches_end(struct lst_session *sn);

int lst_framework_start(void);
void lst_framework_stop(void);

int lst_rpc_init(void);
void lst_rpc_fini(void);

#endif /* _LNET_SELFTEST_INTERNAL_H */
