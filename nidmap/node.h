/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nidmap's running part (Documentation/nidmap.rst, "Transport" and
 * "Roles at run time"): the LNet transport on portal 53 (transport.c),
 * the subscriber's copy (copy.c), the roles (publisher.c, subscriber.c,
 * registrant.c) and the netlink family (netlink.c).
 */
#ifndef _NIDMAP_NODE_H
#define _NIDMAP_NODE_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/sched.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <lnet/api.h>
#include <uapi/lnet/nidmap_genl.h>

#include "nidmap.h"

/* Run-time bounds (Documentation/nidmap.rst, "Limits"). */
#define NIDMAP_PUB_RX_SIZE	(120 * 1024)	/* a REGISTER of 256 records */
#define NIDMAP_PUB_RX_NBUF	4		/* requests held at once */
#define NIDMAP_SUB_RX_SIZE	2048		/* a NOTICE of 64 NIDs */
#define NIDMAP_SUB_RX_NBUF	4
#define NIDMAP_FETCH_ROOM	(64 * 1024)	/* a subscriber's page */
#define NIDMAP_STATUS_ROOM	512		/* a STATUS and its trailer */
#define NIDMAP_REQ_TIMEOUT	(5 * HZ)	/* a request's answer */
#define NIDMAP_SUBS_DFLT	65536		/* a publisher's subscribers */
#define NIDMAP_SUBS_MAX		NIDMAP_RELAY_SUBS_MAX	/* the tunable's top */
#define NIDMAP_PLAN_DELAY	HZ		/* re-plans batched this long */
#define NIDMAP_FANOUT		8		/* notices in flight at once */
#define NIDMAP_NOTICE_DELAY	(HZ / 10)	/* changes batched this long */
#define NIDMAP_NOTICE_FAILS	3		/* then the subscriber is dropped */
#define NIDMAP_SUB_PERIOD	(30 * HZ)	/* a subscriber's own fetch */
#define NIDMAP_COPY_MAX		NIDMAP_TARGETS_MAX

/* Counters: NIDMAP_A_CTR_* index them. */
extern atomic64_t nidmap_ctr[NIDMAP_A_CTR_MAX + 1];

static inline void nidmap_count(int which)
{
	atomic64_inc(&nidmap_ctr[which]);
}

extern struct workqueue_struct *nidmap_wq;

/* --- trust.c --- */

/* The node's keys (auth.h's nidmap_key_*()), for the whole module's life. */
extern struct nidmap_keyset *nidmap_keys;
extern bool nidmap_auth_required;	/* the module parameter auth_required */

bool nidmap_holds_key(void);
int nidmap_trust_init(void);
void nidmap_trust_fini(void);
int nidmap_seal(void **buf, unsigned int *len);
unsigned int nidmap_seal_room(void);
int nidmap_trust_check(const void *buf, unsigned int len);

/* --- transport.c --- */

struct nidmap_ep;
struct nidmap_rx;

/* A request buffer's content, handed to its endpoint in process context. */
typedef void (*nidmap_rx_fn)(struct nidmap_ep *ep, const void *buf,
			     unsigned int len,
			     const struct lnet_processid *from);

/**
 * struct nidmap_ep - request buffers posted on NIDMAP_PORTAL for one
 *	match bits value: at most @nbuf messages of at most @size bytes held
 * @match: NIDMAP_MB_PUBLISHER or NIDMAP_MB_SUBSCRIBER
 * @size: bytes of each buffer (a longer PUT is dropped by LNet)
 * @nbuf: buffers kept posted
 * @handle: called for each message received
 * @priv: the role owning the endpoint
 * @lock: protects the fields below
 * @bufs: buffers posted
 * @posted: their number
 * @busy: buffers received, being handled
 * @stopping: nidmap_ep_stop() began: post no more
 * @waitq: nidmap_ep_stop() waits here
 */
struct nidmap_ep {
	u64			match;
	unsigned int		size;
	unsigned int		nbuf;
	nidmap_rx_fn		handle;
	void			*priv;
	spinlock_t		lock;		/* the fields below */
	struct list_head	bufs;
	unsigned int		posted;
	unsigned int		busy;
	bool			stopping;
	wait_queue_head_t	waitq;
};

int nidmap_ep_start(struct nidmap_ep *ep);
void nidmap_ep_stop(struct nidmap_ep *ep);

struct nidmap_req;
typedef void (*nidmap_req_done_t)(struct nidmap_req *req);

/**
 * struct nidmap_req - a request PUT and the answer PUT into our reply MD
 * @dest: the peer
 * @seq: the request's seq; the reply's match bits are
 *	NIDMAP_MB_REPLY | @seq
 * @msg: the request (kmalloc()ed or kvmalloc()ed: freed with the request)
 * @msg_len: its length
 * @reply: the reply buffer, @room bytes
 * @room: its size
 * @reply_len: bytes received into it
 * @status: 0 when an answer arrived, else -errno (-ETIMEDOUT, a send's)
 * @done: called once, in process context, when both MDs are gone
 * @priv: for @done
 * @lock: protects @live and the event state
 * @live: MDs (and the poster) still to end
 * @req_mdh: the request's MD
 * @reply_mdh: the reply's MD
 * @expiry: aborts the request after its timeout
 * @work: runs @done
 * @link: nidmap_reqs while posted
 */
struct nidmap_req {
	struct lnet_processid	dest;
	u64			seq;
	void			*msg;
	unsigned int		msg_len;
	void			*reply;
	unsigned int		room;
	unsigned int		reply_len;
	int			status;
	nidmap_req_done_t	done;
	void			*priv;
	spinlock_t		lock;		/* @live, the event state */
	int			live;
	struct lnet_handle_md	req_mdh;
	struct lnet_handle_md	reply_mdh;
	struct delayed_work	expiry;
	struct work_struct	work;
	struct list_head	link;
};

u64 nidmap_incarnation(void);
u64 nidmap_next_seq(void);
void nidmap_hdr_init(struct nidmap_hdr *hdr, u16 type);
struct nidmap_req *nidmap_req_alloc(const struct lnet_processid *dest,
				    unsigned int room, nidmap_req_done_t done,
				    void *priv);
void nidmap_req_post(struct nidmap_req *req);
void nidmap_req_abort(struct nidmap_req *req);
void nidmap_req_free(struct nidmap_req *req);
int nidmap_send(const struct lnet_processid *dest, u64 match, void *buf,
		unsigned int len, void (*done)(void *arg, int status),
		void *arg);
int nidmap_send_raw(const struct lnet_processid *dest, u64 match, void *buf,
		    unsigned int len, void (*done)(void *arg, int status),
		    void *arg);
/* nidmap_send()'s type: a publisher's way of sending (KUnit's fake). */
typedef int (*nidmap_send_fn)(const struct lnet_processid *dest, u64 match,
			      void *buf, unsigned int len,
			      void (*done)(void *arg, int status), void *arg);
int nidmap_transport_init(void);
void nidmap_live_get(void);
void nidmap_live_put(void);
void nidmap_transport_fini(void);

/* --- copy.c: a subscriber's copy of the table --- */

struct nidmap_copy;

struct nidmap_copy *nidmap_copy_create(u32 max_entries);
void nidmap_copy_destroy(struct nidmap_copy *c);
int nidmap_copy_apply(struct nidmap_copy *c, const struct nidmap_msg *msg);
void nidmap_copy_position(struct nidmap_copy *c, u64 *epoch, u64 *version,
			  u64 *base, bool *resync);
int nidmap_copy_lookup(struct nidmap_copy *c, const char *name,
		       struct nidmap_rec *rec);
int nidmap_copy_walk(struct nidmap_copy *c, u64 after,
		     int (*fn)(void *arg, const struct nidmap_rec *rec),
		     void *arg);
u32 nidmap_copy_count(struct nidmap_copy *c);

/* --- relay.c: the relay plan --- */

#define NIDMAP_RELAY_ROOT	U32_MAX	/* parent: the publisher */
#define NIDMAP_RELAY_K_MIN	2	/* a tree; 1 is a chain (tests) */
#define NIDMAP_RELAY_CHAIN_MAX	16	/* subscribers a chain (k = 1) takes */
#define NIDMAP_RELAY_K_MAX	16	/* notices a relay sends at once */
#define NIDMAP_RELAY_SUBS_MAX	262144	/* subscribers a plan covers */
#define NIDMAP_RELAY_DEPTH_MAX	18	/* k = 2, n = 2^18 */

u64 nidmap_relay_key(const struct lnet_nid *nid);
u32 nidmap_relay_depth(u32 n, u32 k);
int nidmap_relay_plan(const struct lnet_nid *subs, u32 n, u32 k,
		      u32 *parent, u8 *level);
int nidmap_relay_sets(const u32 *parent, u32 n, u32 *first, u32 *order);

/**
 * struct nidmap_fwd - a relay's forwarding state (subscriber.c)
 * @epoch: epoch of the last notice forwarded
 * @version: its version (0: none yet)
 * @last: jiffies when the last round started
 * @rounds: rounds started (0: none yet, @last unset)
 */
struct nidmap_fwd {
	u64		epoch;
	u64		version;
	unsigned long	last;
	u64		rounds;
};

/* nidmap_relay_forward()'s verdicts. */
enum nidmap_fwd_verdict {
	NIDMAP_FWD_NO,		/* not newer than the copy, or forwarded */
	NIDMAP_FWD_NOW,		/* start a round now */
	NIDMAP_FWD_LATER,	/* a round within NIDMAP_NOTICE_DELAY: wait */
};

enum nidmap_fwd_verdict nidmap_relay_forward(const struct nidmap_fwd *f,
					     u64 epoch, u64 version,
					     u64 copy_epoch, u64 copy_version,
					     unsigned long now);

/* --- routes.c: a subscriber's routes from the table --- */

#define NIDMAP_ROUTERS_MAX	256	/* routers whose routes are installed */

/**
 * struct nidmap_route - a route installed from the table
 * @net: the remote net
 * @gw: the gateway: a NID of the router's entry
 */
struct nidmap_route {
	u32		net;
	struct lnet_nid	gw;
};

/**
 * struct nidmap_routes_ops - what installing routes is done with
 * @add: add a route as lnet_route_add(): 0, -EEXIST (the net is local,
 *	or a route to it through that gateway exists: not ours),
 *	-EHOSTUNREACH (the gateway is on no local net), or another -errno
 * @del: delete a route added by @add
 */
struct nidmap_routes_ops {
	int	(*add)(void *arg, u32 net, const struct lnet_nid *gw);
	void	(*del)(void *arg, u32 net, const struct lnet_nid *gw);
};

/**
 * struct nidmap_routes_ctr - what routes from the table did, for show
 * @installed: routes installed now (ours)
 * @added: routes added
 * @removed: routes removed
 * @skipped: nets not routed: no NID of the router reachable, a route
 *	refused, or beyond NIDMAP_ROUTERS_MAX routers
 */
struct nidmap_routes_ctr {
	u32	installed;
	u32	added;
	u32	removed;
	u32	skipped;
};

/**
 * struct nidmap_routes - the routes a subscriber installed, by router
 * @rtrs: struct nidmap_rtr, one per router entry with routes or tried
 * @nrtrs: their number (at most NIDMAP_ROUTERS_MAX)
 * @ops: how routes are added and deleted
 * @arg: for @ops
 * @ctr: its counters
 */
struct nidmap_routes {
	struct list_head			rtrs;
	unsigned int				nrtrs;
	const struct nidmap_routes_ops		*ops;
	void					*arg;
	struct nidmap_routes_ctr		ctr;
};

void nidmap_routes_init(struct nidmap_routes *rs,
			const struct nidmap_routes_ops *ops, void *arg);
void nidmap_routes_begin(struct nidmap_routes *rs);
void nidmap_routes_entry(struct nidmap_routes *rs,
			 const struct nidmap_rec *rec);
void nidmap_routes_end(struct nidmap_routes *rs);
void nidmap_routes_fini(struct nidmap_routes *rs);

/* --- publisher.c --- */

struct nidmap_pub;

int nidmap_pub_answer(struct nidmap_table *t, const struct nidmap_msg *req,
		      const struct lnet_nid *from, bool authed, void *buf,
		      size_t size);
/**
 * struct nidmap_pub_cfg - a publisher's run-time tunables
 * @max_subs: subscribers kept (beyond: NOSPC)
 * @fanout: the relay plan's k (1: a chain, for tests)
 */
struct nidmap_pub_cfg {
	u32	max_subs;
	u32	fanout;
};

/**
 * struct nidmap_pub_info - a publisher's subscribers, for show
 * @subs: subscribers
 * @relays: of them, those that said RELAY (planned)
 * @direct: subscribers the publisher notices itself
 * @depth: the plan's depth (0: no relay)
 * @max_subs: the cap
 * @fanout: the plan's k
 */
struct nidmap_pub_info {
	u32	subs;
	u32	relays;
	u32	direct;
	u32	depth;
	u32	max_subs;
	u32	fanout;
};

int nidmap_pub_start(const struct nidmap_limits *lim,
		     const struct nidmap_pub_cfg *cfg);
void nidmap_pub_stop(void);
struct nidmap_table *nidmap_pub_table(void);
void nidmap_pub_info(struct nidmap_pub_info *info);
/* A publisher's state without LNet (KUnit drives it through these). */
struct nidmap_pub *nidmap_pub_create(const struct nidmap_limits *lim,
				     const struct nidmap_pub_cfg *cfg,
				     nidmap_send_fn send,
				     struct workqueue_struct *wq);
void nidmap_pub_destroy(struct nidmap_pub *pub);
void nidmap_pub_receive(struct nidmap_pub *pub, const void *buf,
			unsigned int len, const struct lnet_processid *from,
			int trust);
void nidmap_pub_notice_round(struct nidmap_pub *pub);
void nidmap_pub_plan(struct nidmap_pub *pub);
void nidmap_pub_get_info(struct nidmap_pub *pub, struct nidmap_pub_info *info);

/* --- subscriber.c --- */

/* nidmap_notice_verdict()'s verdicts on a notice a subscriber received. */
enum nidmap_notice_verdict {
	NIDMAP_NOTICE_DROP,	/* dropped and counted */
	NIDMAP_NOTICE_PUB,	/* the publisher's own */
	NIDMAP_NOTICE_RELAYED,	/* a relay's: a fetch wanted, nothing else */
};

enum nidmap_notice_verdict nidmap_notice_verdict(const struct nidmap_hdr *hdr,
						 bool from_pub, bool relay);

int nidmap_sub_start(const struct lnet_nid *publisher, bool relay,
		     bool routes);
void nidmap_sub_routes_info(bool *on, struct nidmap_routes_ctr *ctr);
int nidmap_sub_relay_set(bool *relay, struct lnet_nid *set);
void nidmap_sub_stop(void);
void nidmap_sub_moved(void);
struct nidmap_copy *nidmap_sub_copy(struct lnet_nid *publisher,
				    bool *subscribed);
void nidmap_sub_refresh(unsigned long timeout);

/* --- byname.c --- */

int nidmap_resolve(const char *name, struct nidmap_rec *rec, u32 *source);

/* --- dns.c: the DNS backend --- */

int nidmap_dns_resolve(const char *name, struct nidmap_rec *rec);
extern const struct file_operations nidmap_dns_fops;

/* --- registrant.c --- */

int nidmap_register_encode(const struct nidmap_rec *recs, unsigned int n,
			   u64 seq, void *buf, size_t size);
int nidmap_register(const struct lnet_nid *publisher,
		    const struct nidmap_rec *recs, unsigned int n,
		    u16 *status, u64 *version, u32 *index);

/* --- renew.c --- */

void nidmap_renew_note(const struct lnet_nid *pub,
		       const struct nidmap_rec *recs, unsigned int n);
bool nidmap_renew_get(unsigned int idx, struct lnet_nid *pub,
		      struct nidmap_rec *rec);
int nidmap_renew_init(void);
void nidmap_renew_fini(void);

/* --- debugfs.c --- */

void nidmap_debugfs_init(void);
void nidmap_debugfs_fini(void);

/* --- netlink.c --- */

/* Serialises the roles' start and stop, and readers of their state. */
extern struct mutex nidmap_cfg_lock;

int nidmap_netlink_init(void);
#if IS_ENABLED(CONFIG_KUNIT)
#include <net/netlink.h>
extern const struct nla_policy nidmap_genl_policy[NIDMAP_A_MAX + 1];
struct genl_info;
int nidmap_genl_recs(struct genl_info *info, struct nidmap_rec *recs,
		     const struct nlattr **names);
#endif
void nidmap_netlink_fini(void);

#endif /* _NIDMAP_NODE_H */
