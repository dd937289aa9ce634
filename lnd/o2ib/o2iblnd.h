/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ko2iblnd: LNet over RDMA (InfiniBand, RoCE, soft-RoCE), wire-compatible
 * with Lustre's o2iblnd (wire spec section 5).  See
 * Documentation/o2iblnd.rst for the design.
 *
 *	wire.c		message and reject codec (pure; see wire.h)
 *	module.c	parameters, the LND ops, NI start and stop, listener
 *	cm.c		rdma_cm events: connecting, accepting, rejecting
 *	peer.c		peer records: table by NID, lifetime
 *	conn.c		connections: QP, CQ, receive buffers, teardown
 *	tx.c		lnd_send, send queues, credits, NOOPs, RDMA setup
 *	rx.c		receive completions, message dispatch, lnd_recv
 *	debugfs.c	/sys/kernel/debug/ko2iblnd/stats
 *
 * Locking: one BH-safe spinlock per NI (kn_lock) protects its peers,
 * their connections' lists and states, every send queue and all credit
 * counters.  Send and receive completions run from ib_comp_wq
 * (IB_POLL_WORKQUEUE), so lnet_parse() and lnd_recv run in process
 * context; lnd_send may still be called in softirq (by lnet_finalize()
 * of another LND), so nothing on the send path sleeps.
 */
#ifndef _KO2IBLND_H
#define _KO2IBLND_H

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/rhashtable-types.h>
#include <linux/scatterlist.h>
#include <linux/uio.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

#include <lnet/lib-lnet.h>
#include <uapi/lnet/lnet_genl.h>

#include "mr.h"
#include "wire.h"

#define KIB_OOB_MSGS		2	/* V2 NOOPs in flight */
#define KIB_QD_MIN		2	/* smallest queue depth a QP shrinks to */
#define KIB_RESOLVE_TIMEOUT_MS	5000	/* address, route: spec 5.12 */
#define KIB_RECONNECT_MIN_MS	1000	/* extra connection's backoff after */
#define KIB_RECONNECT_MAX_MS	60000	/* a failed attempt, doubled to this */
#define KIB_RACE_MAX		20	/* then the lower NID may win */
/* Immediate retries (spec 5.7) in a row: 20 races + one of each other. */
#define KIB_RETRY_MAX		(KIB_RACE_MAX + 4)
#define KIB_MAX_SEND_SGE	16

/* V2 sends NOOPs without credit ("out of band"); V1 spends one on them. */
static inline bool kib_oob_capable(u16 version)
{
	return version != IBLND_MSG_VERSION_1;
}

/* Tunables: module parameters with Lustre's names (module.c). */
struct kib_tunables {
	int	service;
	int	cksum;
	int	timeout;
	int	nscheds;
	int	ntx;
	int	credits;
	int	peer_credits;
	int	peer_credits_hiw;
	int	peer_buffer_credits;
	int	peer_timeout;
	int	retry_count;
	int	rnr_retry_count;
	int	keepalive;
	int	concurrent_sends;
	int	map_on_demand;
	int	fmr_pool_size;
	int	fmr_flush_trigger;
	int	fmr_cache;
	int	fmr_pool_max;
	int	require_privileged_port;
	int	use_privileged_port;
	int	conns_per_peer;
	int	tos;
	int	ib_mtu;
	int	wrq_sge;
	int	msg_version;
};

extern struct kib_tunables kib_tun;
extern struct workqueue_struct *kib_wq;	/* connect, teardown, reaper */

int kib_timeout(void);
unsigned long kib_peer_tx_timeout(void);
void kib_ni_tunables(struct lnet_ni_tunables *t);

/* Counters (debugfs.c); "name value" lines in the stats file. */
enum kib_stat {
	KIB_STAT_CONNS_ACTIVE,		/* gauge */
	KIB_STAT_CONNS_CREATED,
	KIB_STAT_CONNS_CLOSED,
	KIB_STAT_CONNECT_FAILED,
	KIB_STAT_PEERS,			/* gauge: peer records */
	KIB_STAT_PEERS_FORGOTTEN,	/* idle ones freed */
	KIB_STAT_WIRE_SHORT,		/* one per enum kib_wire_err ... */
	KIB_STAT_WIRE_BAD_MAGIC,
	KIB_STAT_WIRE_BAD_VERSION,
	KIB_STAT_WIRE_BAD_NOB,
	KIB_STAT_WIRE_BAD_CKSUM,
	KIB_STAT_WIRE_BAD_TYPE,
	KIB_STAT_WIRE_BAD_SRCNID,
	KIB_STAT_WIRE_BAD_FRAGS,	/* ... in that order */
	KIB_STAT_RX_STALE,		/* nid or stamp mismatch */
	KIB_STAT_RX_BAD_LNET_HDR,
	KIB_STAT_RX_TRUNCATED,		/* IMMEDIATE shorter than its header says */
	KIB_STAT_CREDIT_OVERFLOW,
	KIB_STAT_UNKNOWN_COOKIE,
	KIB_STAT_CONNACK_BAD,
	KIB_STAT_REJ_SENT,		/* + why: 1..9 */
	KIB_STAT_REJ_SENT_LAST = KIB_STAT_REJ_SENT + IBLND_REJECT_EARLY,
	KIB_STAT_REJ_RCVD,		/* + why: 1..9 */
	KIB_STAT_REJ_RCVD_LAST = KIB_STAT_REJ_RCVD + IBLND_REJECT_EARLY,
	KIB_STAT_REJ_RCVD_IB,		/* not consumer defined */
	KIB_STAT_TX_TIMEOUT,
	KIB_STAT_TX_ERRORS,
	KIB_STAT_NOOPS_SENT,
	KIB_STAT_NOOPS_RCVD,
	KIB_STAT_KEEPALIVES,
	KIB_STAT_RDMA_WRITES,
	KIB_STAT_RDMA_BYTES,
	KIB_STAT_PUT_NAKS,
	KIB_STAT_RNR,			/* must stay 0 */
	KIB_STAT_WC_ERRORS,
	KIB_STAT_MR_MAP_FAILED,
	KIB_STAT_MR_WAITS,		/* a message waited for an MR */
	KIB_STAT_MR_RETIRED,		/* an MR of unknown state not reused */
	KIB_STAT_QD_SHRUNK,		/* a QP made at a smaller queue depth */
	KIB_STAT_TX_CONNECT_FAILED,	/* failed with its connection attempt */
	KIB_STAT_COUNT
};

extern atomic64_t kib_stats[KIB_STAT_COUNT];
/* debugfs test_no_fastreg: new NIs see their device without FastReg. */
extern u32 kib_test_no_fastreg;
/* debugfs test_fail_post: the next posts of registered sinks fail. */
extern u32 kib_test_fail_post;
/* debugfs test_max_recv_wr: QPs with more receive WRs cannot be made. */
extern u32 kib_test_max_recv_wr;
/* debugfs test_established_delay_ms: the next ESTABLISHED handled late. */
extern u32 kib_test_established_delay_ms;

static inline void kib_stat_inc(enum kib_stat s)
{
	atomic64_inc(&kib_stats[s]);
}

static inline void kib_stat_add(enum kib_stat s, long n)
{
	atomic64_add(n, &kib_stats[s]);
}

struct seq_file;
void kib_debugfs_init(void);
void kib_conns_print(struct seq_file *m);
void kib_debugfs_fini(void);

/* What an rdma_cm id's context is: its first member says. */
enum kib_ctx_kind {
	KIB_CTX_NET = 1,	/* the listener's */
	KIB_CTX_CONN,		/* a connection's */
};

/**
 * struct kib_net - one NI of ko2iblnd (ni->ni_data)
 * @kn_kind: KIB_CTX_NET
 * @kn_ni: the NI
 * @kn_lock: see the top of this file
 * @kn_peers: struct kib_peer, for walks (see peer.c)
 * @kn_peer_table: the same peers by NID
 * @kn_list: in the list of NIs (module.c), for device removal
 * @kn_down: 0 while the NI runs; then why it stopped (-ESHUTDOWN, or
 *	-ENODEV when its device went): no new peer, connection or send
 * @kn_stopped: kib_net_stop() ran: no listener, connection, PD or MRs
 * @kn_incarnation: srcstamp of every message; constant for the NI
 * @kn_nid: its nid4
 * @kn_ip: its IPv4 address (network order)
 * @kn_listener: rdma_cm id listening on kn_ip:service
 * @kn_dev: the RDMA device of kn_ip
 * @kn_port: its port of kn_ip
 * @kn_event_handler: the device's port events (module.c)
 * @kn_pd: protection domain of every connection of the NI
 * @kn_mr_pool: FastReg MRs for advertised sinks
 * @kn_max_send_sge: SGEs per send WR (device limit, capped)
 * @kn_max_qp_wr: device limit of a queue's WRs
 * @kn_nconns: connections not yet freed (wait_var_event() on it)
 * @kn_cookie: last transaction cookie handed out
 * @kn_mr_waiters: connections whose next message waits for an MR
 * @kn_mr_work: sends what waited, once the MR pool has MRs again
 * @kn_reaper: timeouts, keepalive, reconnects; once a second
 */
struct kib_net {
	enum kib_ctx_kind	kn_kind;
	struct lnet_ni		*kn_ni;
	spinlock_t		kn_lock;	/* see above */
	struct list_head	kn_peers;
	struct rhashtable	kn_peer_table;
	struct list_head	kn_list;
	int			kn_down;
	bool			kn_stopped;
	u64			kn_incarnation;
	u64			kn_nid;
	__be32			kn_ip;
	struct rdma_cm_id	*kn_listener;
	struct ib_device	*kn_dev;
	struct ib_pd		*kn_pd;
	u32			kn_port;
	struct ib_event_handler	kn_event_handler;
	struct kib_mr_pool	*kn_mr_pool;
	int			kn_max_send_sge;
	int			kn_max_qp_wr;
	atomic_t		kn_nconns;
	atomic64_t		kn_cookie;
	struct list_head	kn_mr_waiters;
	struct work_struct	kn_mr_work;
	struct delayed_work	kn_reaper;
};

/**
 * struct kib_peer - a peer NI
 * @ibp_list: in kn_peers
 * @ibp_node: in kn_peer_table
 * @ibp_ref: references: the table's, one per connection (ibc_peer)
 * @ibp_rcu: frees it after table lookups walking past it
 * @ibp_net: our NI
 * @ibp_nid: its nid4
 * @ibp_conns: its connections (struct kib_conn), established or not
 * @ibp_txq: messages waiting for a connection (struct kib_tx)
 * @ibp_incarnation: its incarnation, 0 if unknown
 * @ibp_version: protocol version with it
 * @ibp_queue_depth: queue depth to propose (lowered by MSG_QUEUE_SIZE)
 * @ibp_max_frags: max_frags to propose (lowered by RDMA_FRAGS)
 * @ibp_connecting: an active connection attempt is running
 * @ibp_accepting: passive connections accepted, not established yet
 * @ibp_races: consecutive CONN_RACE rejects sent to it
 * @ibp_retry_now: the running attempt was asked for an immediate retry
 * @ibp_retries: immediate retries in a row (at most KIB_RETRY_MAX)
 * @ibp_backoff_ms: delay after the next failed attempt for an extra
 *	connection (conns_per_peer); a first connection has none
 * @ibp_reconnect_at: no extra connection attempt before (jiffies)
 * @ibp_error: why the last attempt failed
 * @ibp_connect_work: starts an active connection
 */
struct kib_peer {
	struct list_head	ibp_list;
	struct rhash_head	ibp_node;
	struct kref		ibp_ref;
	struct rcu_head		ibp_rcu;
	struct kib_net		*ibp_net;
	u64			ibp_nid;
	struct list_head	ibp_conns;
	struct list_head	ibp_txq;
	u64			ibp_incarnation;
	u16			ibp_version;
	u16			ibp_queue_depth;
	u16			ibp_max_frags;
	bool			ibp_connecting;
	int			ibp_accepting;
	unsigned int		ibp_races;
	bool			ibp_retry_now;
	unsigned int		ibp_retries;
	unsigned int		ibp_backoff_ms;
	unsigned long		ibp_reconnect_at;
	int			ibp_error;
	struct delayed_work	ibp_connect_work;
};

enum kib_conn_state {
	KIB_CONN_CONNECTING,	/* active: resolving, CONNREQ sent */
	KIB_CONN_ACCEPTED,	/* passive: CONNACK sent */
	KIB_CONN_ESTABLISHED,
	KIB_CONN_CLOSING,	/* teardown queued */
	KIB_CONN_DEAD,		/* queues emptied: nothing may be queued */
};

/* Where an LNet message's buffer is between lnet_parse() and kib_recv(). */
enum kib_rx_parse {
	KIB_RX_IDLE,
	KIB_RX_PARSING,		/* in lnet_parse() */
	KIB_RX_HELD,		/* LNet holds it: kib_recv() comes later */
};

/**
 * struct kib_rx - a receive buffer, posted for the connection's life
 * @rx_cqe: completion callback
 * @rx_conn: its connection
 * @rx_list: in ibc_early_rxs while the connection is not established
 * @rx_msg: IBLND_MSG_SIZE bytes (freed with the connection's last
 *	reference)
 * @rx_dma: DMA address of @rx_msg
 * @rx_nob: bytes received
 * @rx_parse: enum kib_rx_parse, changed by xchg()/cmpxchg() (kib_parse()
 *	and kib_recv() may race when LNet releases a held message at once)
 * @rx_parser: the task in kib_parse()'s lnet_parse(), NULL after: a
 *	kib_recv() from any other task is a held message's
 * @rx_held: kib_recv() runs outside the completion handler: its repost
 *	must not race the teardown (kib_repost_rx())
 */
struct kib_rx {
	struct ib_cqe		rx_cqe;
	struct kib_conn		*rx_conn;
	struct list_head	rx_list;
	struct kib_msg		*rx_msg;
	u64			rx_dma;
	u32			rx_nob;
	int			rx_parse;	/* enum kib_rx_parse */
	struct task_struct	*rx_parser;
	bool			rx_held;	/* kib_recv() of a held one */
};

/**
 * struct kib_conn - one RC connection to a peer
 * @ibc_kind: KIB_CTX_CONN
 * @ibc_list: in ibp_conns
 * @ibc_ref: references: the peer's list (until closed), teardown,
 *	senders between lookup and their check_sends
 * @ibc_peer: the peer
 * @ibc_net: our NI
 * @ibc_cmid: its rdma_cm id (destroyed only by teardown)
 * @ibc_cq: send and receive completions
 * @ibc_state: enum kib_conn_state
 * @ibc_active: we connected
 * @ibc_established: reached ESTABLISHED
 * @ibc_error: why it closed
 * @ibc_version: protocol version
 * @ibc_queue_depth: negotiated queue depth
 * @ibc_max_frags: negotiated RDMA fragments
 * @ibc_incarnation: the peer's incarnation
 * @ibc_credits: messages we may send that consume a peer buffer
 * @ibc_outstanding: credits we owe the peer
 * @ibc_reserved: RDMA requests we may still start
 * @ibc_noops_posted: NOOPs posted, not completed
 * @ibc_nsends_posted: messages posted, not completed
 * @ibc_concurrent_sends: limit of @ibc_nsends_posted
 * @ibc_tx_noops: NOOPs to send
 * @ibc_tx_queue: credited messages ready to send
 * @ibc_tx_queue_rsrvd: PUT_REQ, GET_REQ waiting for @ibc_reserved
 * @ibc_tx_queue_nocred: PUT_ACK, PUT_NAK, PUT_DONE, GET_DONE
 * @ibc_tx_queue_mr: PUT_ACK, GET_REQ whose sink waits for an MR of the
 *	exhausted pool, in arrival order; the messages that need none pass
 * @ibc_active_txs: posted, or waiting for the peer's response
 * @ibc_early_rxs: received before ESTABLISHED was processed
 * @ibc_mr_wait: in kn_mr_waiters (with a reference): a message waits
 *	for an MR of the exhausted pool; empty otherwise
 * @ibc_last_send: last message posted (jiffies)
 * @ibc_nsent: messages posted (debugfs "conns")
 * @ibc_nrcvd: messages received
 * @ibc_nrx: receive buffers
 * @ibc_rxs: the receive buffers
 * @ibc_qp_created: rdma_create_qp() succeeded
 * @ibc_teardown: releases its resources once closed
 * @ibc_cm_mutex: held by the rdma_cm handler while it handles an event of
 *	the connection (building it, replaying its early receives); the
 *	teardown takes and drops it before it disconnects and frees, so it
 *	waits for such a handler, and a handler that finds the connection
 *	closing does nothing.
 *
 * States (kib_conn_set_state_locked(), under kn_lock, the only place
 * ibc_state changes): CONNECTING (active) or ACCEPTED (passive) ->
 * ESTABLISHED -> CLOSING (teardown queued) -> DEAD (queues emptied);
 * CONNECTING and ACCEPTED may also go to CLOSING directly.
 */
struct kib_conn {
	enum kib_ctx_kind	ibc_kind;
	struct list_head	ibc_list;
	struct kref		ibc_ref;
	struct kib_peer		*ibc_peer;
	struct kib_net		*ibc_net;
	struct rdma_cm_id	*ibc_cmid;
	struct ib_cq		*ibc_cq;
	enum kib_conn_state	ibc_state;
	bool			ibc_active;
	bool			ibc_established;
	int			ibc_error;
	u16			ibc_version;
	u16			ibc_queue_depth;
	u16			ibc_max_frags;
	u64			ibc_incarnation;
	int			ibc_credits;
	int			ibc_outstanding;
	int			ibc_reserved;
	int			ibc_noops_posted;
	int			ibc_nsends_posted;
	int			ibc_concurrent_sends;
	struct list_head	ibc_tx_noops;
	struct list_head	ibc_tx_queue;
	struct list_head	ibc_tx_queue_rsrvd;
	struct list_head	ibc_tx_queue_nocred;
	struct list_head	ibc_tx_queue_mr;
	struct list_head	ibc_active_txs;
	struct list_head	ibc_early_rxs;
	struct list_head	ibc_mr_wait;
	unsigned long		ibc_last_send;
	atomic64_t		ibc_nsent;
	atomic64_t		ibc_nrcvd;
	int			ibc_nrx;
	struct kib_rx		*ibc_rxs;
	bool			ibc_qp_created;
	struct work_struct	ibc_teardown;
	struct mutex		ibc_cm_mutex;	/* see above */
};

/**
 * struct kib_tx - a message to send, with the RDMA it may carry
 * @tx_list: in a peer or connection queue, or ibc_active_txs
 * @tx_net: our NI
 * @tx_conn: the connection it was queued on
 * @tx_cqe: completion of the message's send WR (signalled)
 * @tx_rdma_cqe: error completions of the RDMA WRITEs (unsignalled)
 * @tx_msg: IBLND_MSG_SIZE bytes, DMA-mapped
 * @tx_msgdma: DMA address of @tx_msg
 * @tx_type: ibm_type
 * @tx_nob: bytes of @tx_msg to send
 * @tx_lntmsg: LNet messages to finalize when done
 * @tx_sending: posted sends not completed
 * @tx_queued: on a send queue
 * @tx_waiting: waiting for the peer's response
 * @tx_status: 0 or the error its LNet messages get
 * @tx_hstatus: why, for LNet's health, when the failure point knows it
 *	(else kib_tx_hstatus() infers it from @tx_status and the state)
 * @tx_cookie: our cookie of the transaction
 * @tx_deadline: fails the connection if still queued or waiting (jiffies)
 * @tx_sgl: mapped local buffer of an RDMA transfer, or NULL
 * @tx_nsg: entries of @tx_sgl used
 * @tx_nmapped: entries after ib_dma_map_sg()
 * @tx_dir: DMA direction of @tx_sgl
 * @tx_map: registration of an advertised sink (PUT_ACK, GET_REQ)
 * @tx_rd: where the sink is described in @tx_msg, filled by the
 *	registration when the message is posted; NULL once done or if none
 * @tx_mapped_mr: @tx_map is in use
 * @tx_posted: posted at least once (so the MR's WRs ran)
 * @tx_wc_err: a work completion of this tx failed
 * @tx_nwrs: RDMA WRs in @tx_wrs
 * @tx_wrs: RDMA WRITE WRs posted before the message
 * @tx_sges: their SGEs
 * @tx_sge: SGE of the message
 * @tx_send_wr: the message's send WR
 */
struct kib_tx {
	struct list_head	tx_list;
	struct kib_net		*tx_net;
	struct kib_conn		*tx_conn;
	struct ib_cqe		tx_cqe;
	struct ib_cqe		tx_rdma_cqe;
	struct kib_msg		*tx_msg;
	u64			tx_msgdma;
	u8			tx_type;
	u32			tx_nob;
	struct lnet_msg		*tx_lntmsg[2];
	int			tx_sending;
	bool			tx_queued;
	bool			tx_waiting;
	int			tx_status;
	enum lnet_msg_hstatus	tx_hstatus;
	u64			tx_cookie;
	unsigned long		tx_deadline;
	struct scatterlist	*tx_sgl;
	int			tx_nsg;
	int			tx_nmapped;
	enum dma_data_direction	tx_dir;
	struct kib_mr_map	tx_map;
	struct kib_rdma_desc	*tx_rd;
	bool			tx_mapped_mr;
	bool			tx_posted;
	bool			tx_wc_err;
	int			tx_nwrs;
	struct ib_rdma_wr	*tx_wrs;
	struct ib_sge		*tx_sges;
	struct ib_sge		tx_sge;
	struct ib_send_wr	tx_send_wr;
};

/* peer.c */
int kib_peer_table_init(struct kib_net *net);
void kib_peer_table_destroy(struct kib_net *net);
struct kib_peer *kib_peer_find_locked(struct kib_net *net, u64 nid);
struct kib_peer *kib_peer_get_locked(struct kib_net *net, u64 nid);
void kib_peer_put(struct kib_peer *peer);
bool kib_peer_forget_idle_locked(struct kib_peer *peer);

/* conn.c */
struct kib_conn *kib_conn_alloc(struct kib_peer *peer, bool active);
int kib_conn_setup(struct kib_conn *conn, struct rdma_cm_id *cmid);
void kib_conn_put(struct kib_conn *conn);
int kib_peer_conns_wanted(const struct kib_peer *peer);
int kib_peer_nconns_locked(const struct kib_peer *peer);
struct kib_conn *kib_peer_conn_locked(struct kib_peer *peer);
void kib_peer_connect_more_locked(struct kib_peer *peer);
void kib_conn_set_state_locked(struct kib_conn *conn,
			       enum kib_conn_state state);
bool kib_conn_closing(const struct kib_conn *conn);
void kib_conn_close_locked(struct kib_conn *conn, int error);
void kib_conn_close(struct kib_conn *conn, int error);
void kib_conn_established(struct kib_conn *conn);
void kib_peer_close_conns_locked(struct kib_peer *peer, int error);
void kib_peer_close_conns_old_locked(struct kib_peer *peer,
				     struct kib_conn *keep);
void kib_peer_connect_locked(struct kib_peer *peer, unsigned long delay);
unsigned long kib_peer_reconnect_delay(struct kib_peer *peer);
void kib_net_close_all(struct kib_net *net);
void kib_reaper(struct work_struct *work);

/* cm.c */
int kib_cm_handler(struct rdma_cm_id *cmid, struct rdma_cm_event *event);
void kib_connect_work(struct work_struct *work);

/* tx.c */
int kib_send(struct lnet_ni *ni, void *private, struct lnet_msg *msg);
struct kib_tx *kib_tx_alloc(struct kib_net *net, u8 type);
void kib_tx_done(struct kib_tx *tx);
void kib_txlist_done(struct list_head *txs, int status);
void kib_queue_tx(struct kib_conn *conn, struct kib_tx *tx);
void kib_check_sends(struct kib_conn *conn);
bool kib_need_noop_locked(const struct kib_conn *conn);
bool kib_credit_ok_locked(const struct kib_conn *conn, u8 type);
void kib_mr_wake(void *arg);
void kib_mr_work(struct work_struct *work);
int kib_map_iter(struct kib_tx *tx, struct iov_iter *it,
		 enum dma_data_direction dir);
int kib_tx_map_rd(struct kib_tx *tx, struct kib_rdma_desc *rd);
int kib_init_rdma(struct kib_conn *conn, struct kib_tx *tx,
		  const struct kib_rdma_desc *rd, u32 nob);
void kib_send_completion(struct kib_conn *conn, u8 type, int status,
			 u64 cookie);
u64 kib_next_cookie(struct kib_net *net);

/* rx.c */
int kib_recv(struct lnet_ni *ni, void *private, struct lnet_msg *msg,
	     struct iov_iter *to, unsigned int mlen, unsigned int rlen);
void kib_rx_done(struct ib_cq *cq, struct ib_wc *wc);
int kib_post_rx(struct kib_rx *rx);
void kib_handle_rx(struct kib_rx *rx);

#endif /* _KO2IBLND_H */
