/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksocklnd: LNet over TCP, wire-compatible with Lustre's socklnd (wire
 * spec section 4).  See Documentation/socklnd.rst for the design.
 *
 *	proto.c		HELLO V1-V4 and message-header codec (pure)
 *	module.c	parameters, the LND ops, NI start and stop
 *	handshake.c	connecting and accepting: HELLO exchange
 *	conn.c		peers, connections, their admission and teardown
 *	tx.c		lnd_send, send queues, NOOPs
 *	rx.c		the receive state machine, lnd_recv
 *	zc.c		zero-copy requests and their ACKs
 *	reaper.c	timeouts and keepalive
 *	debugfs.c	/sys/kernel/debug/ksocklnd/stats
 */
#ifndef _KSOCKLND_H
#define _KSOCKLND_H

#include <linux/atomic.h>
#include <linux/mutex.h>
#include <linux/net.h>
#include <linux/rhashtable.h>
#include <linux/uio.h>
#include <linux/workqueue.h>

#include <lnet/lib-lnet.h>

/* Wire constants (spec 4.1-4.8). */
#define KSOCK_PROTO_MAGIC	0x45726963U	/* LNET_PROTO_MAGIC */
#define KSOCK_TCP_MAGIC		0xeebc0dedU	/* V1, always LE */
#define KSOCK_PROTO_V1		1
#define KSOCK_PROTO_V2		2
#define KSOCK_PROTO_V3		3
#define KSOCK_PROTO_V4		4
#define KSOCK_HELLO_PEEK_SIZE	8	/* magic + version */
#define KSOCK_HELLO_MAX_SIZE	80	/* V4 */
#define KSOCK_HELLO_NIPS_MAX	16
#define KSOCK_MSG_HDR_SIZE	24
#define KSOCK_MSG_NOOP		0xc0
#define KSOCK_MSG_LNET		0xc1
#define KSOCK_KEEPALIVE_COOKIE	1
#define KSOCK_ZC_FIRST_COOKIE	2	/* Lustre skips 0 and 1 */
#define KSOCK_ZC_MIN_PAYLOAD	2048	/* floor of zc_min_payload */

/* Connection types (kshm_ctype); NONE only in a refusing reply. */
#define KSOCK_CONN_NONE		0xffffffffU
#define KSOCK_CONN_ANY		0
#define KSOCK_CONN_CONTROL	1
#define KSOCK_CONN_BULK_IN	2	/* "ACK" in V3/V4 */
#define KSOCK_CONN_BULK_OUT	3
#define KSOCK_CONN_TYPES	4

/**
 * struct ksock_hello - a decoded HELLO (any version)
 * @version: 1 to 4
 * @src_nid: sender's NI
 * @dst_nid: the NI the sender believes it talks to (ANY in V1)
 * @src_pid: sender's PID
 * @dst_pid: echoed or 0
 * @src_incarnation: sender's NI incarnation
 * @dst_incarnation: echoed or 0
 * @ctype: connection type, from the sender's point of view
 * @nips: addresses in @ips (V1-V3 legacy list; never sent)
 * @ips: the addresses, host order
 */
struct ksock_hello {
	u32		version;
	struct lnet_nid	src_nid;
	struct lnet_nid	dst_nid;
	u32		src_pid;
	u32		dst_pid;
	u64		src_incarnation;
	u64		dst_incarnation;
	u32		ctype;
	u32		nips;
	u32		ips[KSOCK_HELLO_NIPS_MAX];
};

/* proto.c */
int ksock_hello_peek(const void *buf, bool *flip);
size_t ksock_hello_size(u32 version);
int ksock_hello_decode(struct ksock_hello *h, const void *buf, u32 version,
		       bool flip);
int ksock_hello_decode_ips(struct ksock_hello *h, const void *buf, bool flip);
size_t ksock_hello_encode(const struct ksock_hello *h, void *buf);
u32 ksock_ctype_invert(u32 ctype);
void ksock_msg_hdr_encode(void *buf, u32 type, u64 cookie0, u64 cookie1);
void ksock_msg_hdr_decode(const void *buf, bool flip, u32 *type,
			  u64 *cookie0, u64 *cookie1);

/* Tunables: module parameters with Lustre's names (module.c). */
struct ksock_tunables {
	int	sock_timeout;
	int	credits;
	int	peer_credits;
	int	peer_buffer_credits;
	int	peer_timeout;
	int	nscheds;
	int	nconnds;
	int	nconnds_max;
	int	min_reconnectms;
	int	max_reconnectms;
	int	eager_ack;
	int	typed_conns;
	int	min_bulk;
	int	tx_buffer_size;
	int	rx_buffer_size;
	int	nagle;
	int	round_robin;
	int	keepalive;
	int	keepalive_idle;
	int	keepalive_count;
	int	keepalive_intvl;
	int	enable_csum;
	int	inject_csum_error;
	int	nonblk_zcack;
	int	zc_min_payload;
	int	zc_recv;
	int	zc_recv_min_nfrags;
	int	conns_per_peer;
	int	skip_mr_route_setup;
	int	tos;
	int	protocol;
};

extern struct ksock_tunables ksock_tun;
extern struct workqueue_struct *ksock_sched_wq;	/* rx and tx work */
extern struct workqueue_struct *ksock_connd_wq;	/* handshakes, teardown */

int ksock_timeout(void);

/* Counters (debugfs.c); "name value" lines in the stats file. */
enum ksock_stat {
	KSOCK_STAT_CONNS_ACTIVE,	/* gauge */
	KSOCK_STAT_PEERS,		/* gauge */
	KSOCK_STAT_CONNS_CREATED,
	KSOCK_STAT_CONNS_CLOSED,
	KSOCK_STAT_CONNS_REFUSED,	/* race, duplicate, stale: NONE sent */
	KSOCK_STAT_CONNECT_FAILED,
	KSOCK_STAT_HELLO_BAD_MAGIC,
	KSOCK_STAT_HELLO_BAD_VERSION,
	KSOCK_STAT_HELLO_BAD_NIPS,
	KSOCK_STAT_HELLO_BAD_CTYPE,
	KSOCK_STAT_HELLO_BAD_NID,
	KSOCK_STAT_HELLO_TIMEOUT,
	KSOCK_STAT_RX_BAD_TYPE,
	KSOCK_STAT_RX_BAD_HDR,
	KSOCK_STAT_RX_TOO_LONG,
	KSOCK_STAT_RX_TRUNCATED,
	KSOCK_STAT_RX_ZC_BAD_COOKIE,
	KSOCK_STAT_RX_TIMEOUT,
	KSOCK_STAT_TX_TIMEOUT,
	KSOCK_STAT_TX_ERRORS,
	KSOCK_STAT_KEEPALIVE_SENT,
	KSOCK_STAT_NOOP_RX,
	KSOCK_STAT_ZC_ACKS_SENT,
	KSOCK_STAT_ZC_REQUESTS,
	KSOCK_STAT_ZC_ACKS_RX,
	KSOCK_STAT_ZC_ABORTED,
	KSOCK_STAT_ZC_TIMEOUT,
	KSOCK_STAT_ZC_ACK_OVERFLOW,
	KSOCK_STAT_TX_NO_ROUTE,		/* failed at once: in back-off */
	KSOCK_STAT_COUNT
};

extern atomic64_t ksock_stats[KSOCK_STAT_COUNT];

static inline void ksock_stat_inc(enum ksock_stat s)
{
	atomic64_inc(&ksock_stats[s]);
}

extern u32 ksock_test_admit_delay_ms;
extern u32 ksock_test_hello_delay_ms;
extern u32 ksock_test_reply_delay_ms;
void ksock_test_delay(u32 *ms);
void ksock_debugfs_init(void);
void ksock_debugfs_fini(void);

/**
 * struct ksock_net - one NI of ksocklnd (ni->ni_data)
 * @ksn_ni: the NI
 * @ksn_lock: peers, their connections and every send queue
 * @ksn_peers: struct ksock_peer, until idle (the reaper frees them)
 * @ksn_peer_table: the same, by NID
 * @ksn_shutdown: the NI is stopping: no new peer, connection or send
 * @ksn_incarnation: sent in every HELLO; constant for the NI's life
 * @ksn_ip: the NI's IPv4 address (network order)
 * @ksn_hs_mutex: protects @ksn_handshakes (shutting a socket sleeps)
 * @ksn_handshakes: sockets in a blocking handshake, struct ksock_hs
 * @ksn_reaper: timeouts and keepalive, once a second
 * @ksn_connd_works: the NI's handshakes and teardowns queued or running on
 *	ksock_connd_wq (ksock_connd_queue()), which its shutdown waits for;
 *	the workqueue is shared by every NI, so it is not flushed
 */
struct ksock_net {
	struct lnet_ni		*ksn_ni;
	spinlock_t		ksn_lock;	/* see above */
	struct list_head	ksn_peers;
	struct rhashtable	ksn_peer_table;
	bool			ksn_shutdown;
	u64			ksn_incarnation;
	__be32			ksn_ip;
	struct mutex		ksn_hs_mutex;	/* see above */
	struct list_head	ksn_handshakes;
	struct delayed_work	ksn_reaper;
	struct list_head	ksn_link_list;	/* link.c */
	atomic_t		ksn_connd_works;
};

/**
 * struct ksock_peer - a peer NI we talk to
 * @ksp_list: in ksn_peers
 * @ksp_node: in ksn_peer_table
 * @ksp_net: our NI
 * @ksp_nid: its NID
 * @ksp_pid: its PID (12345, or a userspace peer's)
 * @ksp_ip: its address (network order)
 * @ksp_conns: its connections, struct ksock_conn
 * @ksp_txq: messages waiting for a connection, struct ksock_tx
 * @ksp_version: protocol agreed with it (0 until the first connection)
 * @ksp_incarnation: its incarnation (valid once @ksp_version is)
 * @ksp_connecting: connect work is running
 * @ksp_accepting: per type, passive handshakes that replied "accepted"
 *	and whose connection has not started yet: each holds its place
 *	(spec 4.6 decides a race once, before the reply)
 * @ksp_backoff_ms: current reconnect delay
 * @ksp_reconnect_at: no connection attempt before (jiffies)
 * @ksp_connect_failed: the last connection attempt failed (not a lost
 *	race), and no connection started since: until @ksp_reconnect_at a
 *	send with no connection fails at once (ksock_send())
 * @ksp_last_alive: last bytes received from it (jiffies)
 * @ksp_last_keepalive: last keepalive NOOP sent (jiffies)
 * @ksp_connect_work: opens the missing connections
 * @ksp_zc_reqs: sends whose zero-copy request awaits its ACK, tx_zc_list
 * @ksp_zc_next_cookie: cookie of our next zero-copy request
 * @ksp_refs: its connections, from their start to the end of their
 *	teardown, and a passive handshake between admission and start
 * @ksp_last_used: last send queued or connection torn down (jiffies)
 * @ksp_dead: unlinked by the reaper; its connect work must do nothing
 *
 * Freed by the reaper (ksock_peers_reap_locked()) once nothing refers to
 * it, nothing waits on it and it was idle for sock_timeout, or by the
 * NI's shutdown.
 */
struct ksock_peer {
	struct list_head	ksp_list;
	struct ksock_net	*ksp_net;
	struct lnet_nid		ksp_nid;
	u32			ksp_pid;
	__be32			ksp_ip;
	struct list_head	ksp_conns;
	struct list_head	ksp_txq;
	u32			ksp_version;
	u64			ksp_incarnation;
	bool			ksp_connecting;
	u8			ksp_accepting[KSOCK_CONN_TYPES];
	unsigned int		ksp_backoff_ms;
	unsigned long		ksp_reconnect_at;
	bool			ksp_connect_failed;
	unsigned long		ksp_last_alive;
	unsigned long		ksp_last_keepalive;
	struct delayed_work	ksp_connect_work;
	struct list_head	ksp_zc_reqs;
	u64			ksp_zc_next_cookie;
	struct rhash_head	ksp_node;
	int			ksp_refs;
	unsigned long		ksp_last_used;
	bool			ksp_dead;
};

struct ksock_conn;

/**
 * struct ksock_tx - a message or NOOP to send
 * @tx_list: in ksp_txq or ksc_txq
 * @tx_msg: the LNet message; NULL for a NOOP
 * @tx_cookie0: NOOP: first cookie
 * @tx_cookie1: NOOP: second cookie
 * @tx_nob: bytes on the wire, headers included
 * @tx_deadline: fails with -ETIMEDOUT if still unsent then; once sent
 *	with a zero-copy request, its ACK is due then (jiffies)
 * @tx_hdr_len: bytes in @tx_hdr (0 until encoded for a connection)
 * @tx_hdr_sent: bytes of @tx_hdr sent
 * @tx_payload: what remains of the payload
 * @tx_zc_list: in ksp_zc_reqs while its zero-copy request is unacked
 * @tx_conn: the connection that carries its zero-copy request
 * @tx_zc_cookie: its zero-copy request (spec 4.9), 0 for none
 * @tx_zc_capable: payload pages may go by reference if the peer acks
 * @tx_begun: its header is final (zc.c decided), sending started
 * @tx_sent: all of it is in the socket; it waits for the ACK
 * @tx_ack_noop: a connection's own ZC ACK NOOP (never freed alone)
 * @tx_hdr: ksock_msg header and LNet header, as sent
 */
struct ksock_tx {
	struct list_head	tx_list;
	struct lnet_msg		*tx_msg;
	u64			tx_cookie0;
	u64			tx_cookie1;
	unsigned int		tx_nob;
	unsigned long		tx_deadline;
	unsigned int		tx_hdr_len;
	unsigned int		tx_hdr_sent;
	struct iov_iter		tx_payload;
	struct list_head	tx_zc_list;
	struct ksock_conn	*tx_conn;
	u64			tx_zc_cookie;
	bool			tx_zc_capable;
	bool			tx_begun;
	bool			tx_sent;
	bool			tx_ack_noop;
	enum lnet_msg_hstatus	tx_hstatus;
	u8			tx_hdr[KSOCK_MSG_HDR_SIZE +
				       LNET_HDR_NID16_SIZE];
};

/*
 * Zero-copy ACKs a connection owes its peer: cookies of requests it
 * received whole, as ranges [lo, hi], sorted, disjoint, not adjacent.
 * Bounded: a peer that makes more distinct ranges than this without
 * letting us send them is closed (spec 4.9).
 */
#define KSOCK_ZC_ACK_RANGES	32

struct ksock_zc_range {
	u64	lo;
	u64	hi;
};

struct ksock_zc_acks {
	struct ksock_zc_range	r[KSOCK_ZC_ACK_RANGES];
	unsigned int		n;
};

enum ksock_rx_state {
	KSOCK_RX_MSG_HDR,	/* the 24-byte ksock_msg header */
	KSOCK_RX_LNET_HDR,	/* the LNet header */
	KSOCK_RX_PAYLOAD,	/* into the MD LNet matched */
	KSOCK_RX_DISCARD,	/* what is not received into an MD */
	KSOCK_RX_PARSE,		/* in lnet_parse() */
	KSOCK_RX_PARSE_WAIT,	/* LNet holds the message: ksock_recv() later */
};

/**
 * struct ksock_conn - one TCP connection to a peer
 * @ksc_list: in ksp_conns, from admission (started) to close
 * @ksc_peer: the peer
 * @ksc_sock: the socket
 * @ksc_type: its type from our side (KSOCK_CONN_*)
 * @ksc_version: protocol version
 * @ksc_flip: the peer's byte order is the opposite of ours
 * @ksc_userspace: the peer is a userspace process (spec 3.4 step 6)
 * @ksc_closing: closed; teardown queued
 * @ksc_error: why it was closed
 * @ksc_txq: messages and NOOPs to send, the first one being sent
 * @ksc_tx_bytes: bytes queued in @ksc_txq
 * @ksc_tx_last: last send progress (jiffies)
 * @ksc_snd_una: TCP's snd_una at the last reaper check
 * @ksc_tx_work: sends @ksc_txq
 * @ksc_rx_work: runs the receive state machine
 * @ksc_rx_state: where the receive state machine is
 * @ksc_rx_buf: message header and LNet header being received
 * @ksc_rx_got: bytes of the current header received
 * @ksc_rx_msg: message whose payload is received, or NULL
 * @ksc_rx_iter: where the payload goes
 * @ksc_rx_left: payload bytes of the current message not yet read
 * @ksc_rx_lock: @ksc_rx_state's PARSE/PARSE_WAIT hand-over between the
 *	rx work and a ksock_recv() from elsewhere, and @ksc_rx_closed
 * @ksc_rx_closed: teardown started: a held message's payload is lost
 * @ksc_refs: references: one from allocation to the end of its teardown,
 *	one while LNet holds a message of it (PARSE_WAIT to ksock_recv())
 * @ksc_rx_zc_cookie: ZC request of the current message, to acknowledge
 * @ksc_rx_last: last receive progress (jiffies)
 * @ksc_zc_acks: ZC ACKs owed for requests received here (sent here)
 * @ksc_ack_tx: the NOOP that carries them, queued while some are owed
 * @ksc_teardown: releases the connection once closed
 * @ksc_saved_data_ready: the socket's callbacks before ours
 * @ksc_saved_write_space: see above
 * @ksc_saved_state_change: see above
 */
struct ksock_conn {
	struct list_head	ksc_list;
	struct ksock_peer	*ksc_peer;
	struct socket		*ksc_sock;
	u32			ksc_type;
	u32			ksc_version;
	bool			ksc_flip;
	bool			ksc_userspace;
	bool			ksc_closing;
	int			ksc_error;
	struct list_head	ksc_txq;
	size_t			ksc_tx_bytes;
	unsigned long		ksc_tx_last;
	u32			ksc_snd_una;
	struct work_struct	ksc_tx_work;
	struct work_struct	ksc_rx_work;
	enum ksock_rx_state	ksc_rx_state;
	u8			ksc_rx_buf[KSOCK_MSG_HDR_SIZE +
					   LNET_HDR_NID16_SIZE];
	unsigned int		ksc_rx_got;
	struct lnet_msg		*ksc_rx_msg;
	struct iov_iter		ksc_rx_iter;
	unsigned int		ksc_rx_left;
	spinlock_t		ksc_rx_lock;	/* PARSE/PARSE_WAIT hand-over */
	bool			ksc_rx_closed;
	refcount_t		ksc_refs;
	u64			ksc_rx_zc_cookie;
	unsigned long		ksc_rx_last;
	struct ksock_zc_acks	ksc_zc_acks;
	struct ksock_tx		ksc_ack_tx;
	struct work_struct	ksc_teardown;
	void (*ksc_saved_data_ready)(struct sock *sk);
	void (*ksc_saved_write_space)(struct sock *sk);
	void (*ksc_saved_state_change)(struct sock *sk);
};

/* conn.c */
struct ksock_peer *ksock_peer_find_locked(struct ksock_net *net,
					  const struct lnet_nid *nid);
extern const struct rhashtable_params ksock_peer_params;
void ksock_peer_put_locked(struct ksock_peer *peer);
void ksock_peers_reap_locked(struct ksock_net *net, struct list_head *dead);
void ksock_peers_free(struct list_head *dead);
struct ksock_peer *ksock_peer_get_locked(struct ksock_net *net,
					 const struct lnet_nid *nid, u32 pid);
unsigned int ksock_conns_wanted(const struct ksock_net *net, u32 type);
unsigned int ksock_peer_nconns_locked(const struct ksock_peer *peer, u32 type);
int ksock_conn_admit_locked(struct ksock_peer *peer,
			    const struct ksock_hello *hello, u32 type,
			    bool passive, bool self);
int ksock_conn_accept_locked(struct ksock_peer *peer,
			     const struct ksock_hello *hello, u32 type,
			     bool self);
int ksock_conn_accepted_locked(struct ksock_peer *peer,
			       const struct ksock_hello *hello, u32 type,
			       struct ksock_conn *conn);
bool ksock_sock_is_self(struct socket *sock);
struct ksock_conn *ksock_conn_alloc(struct socket *sock, u32 type,
				    u32 version, bool flip);
void ksock_conn_start_locked(struct ksock_peer *peer, struct ksock_conn *conn);
void ksock_conn_free(struct ksock_conn *conn);
void ksock_conn_put(struct ksock_conn *conn);
void ksock_conn_close_locked(struct ksock_conn *conn, int error);
void ksock_conn_close(struct ksock_conn *conn, int error);
void ksock_peer_close_conns_locked(struct ksock_peer *peer, int error);
void ksock_connd_queue(struct ksock_net *net, struct work_struct *work);
void ksock_connd_work_done(struct ksock_net *net);
void ksock_net_close_all(struct ksock_net *net);
void ksock_sock_setup(struct socket *sock);
void ksock_sock_set_tos(struct ksock_net *net, struct socket *sock);

/* handshake.c */
int ksock_accept(struct lnet_ni *ni, struct socket *sock);
void ksock_connect_work(struct work_struct *work);
void ksock_handshakes_abort(struct ksock_net *net);

/* tx.c */
int ksock_send(struct lnet_ni *ni, void *private, struct lnet_msg *msg);
struct ksock_tx *ksock_noop_alloc(u64 cookie0, u64 cookie1);
void ksock_tx_queue_locked(struct ksock_conn *conn, struct ksock_tx *tx);
void ksock_peer_send_queued_locked(struct ksock_peer *peer);
void ksock_peer_connect_locked(struct ksock_peer *peer);
void ksock_tx_work(struct work_struct *work);
void ksock_tx_done(struct ksock_tx *tx, int status);
void ksock_txlist_done(struct list_head *txs, int status);

/* rx.c */
int ksock_recv(struct lnet_ni *ni, void *private, struct lnet_msg *msg,
	       struct iov_iter *to, unsigned int mlen, unsigned int rlen);
void ksock_rx_work(struct work_struct *work);
void ksock_rx_reset(struct ksock_conn *conn);

/* zc.c */
int ksock_zc_acks_add(struct ksock_zc_acks *acks, u64 cookie);
u64 ksock_zc_acks_take_one(struct ksock_zc_acks *acks);
bool ksock_zc_acks_take_noop(struct ksock_zc_acks *acks, u64 *c0, u64 *c1);
int ksock_zc_ack_count(u64 c0, u64 c1);
bool ksock_zc_ack_covers(u64 c0, u64 c1, u64 cookie);
void ksock_zc_tx_begin_locked(struct ksock_conn *conn, struct ksock_tx *tx);
bool ksock_zc_tx_sent_locked(struct ksock_tx *tx);
int ksock_zc_handle_ack(struct ksock_conn *conn, u64 c0, u64 c1);
int ksock_zc_owe_ack(struct ksock_conn *conn, u64 cookie);
void ksock_zc_conn_abort_locked(struct ksock_conn *conn,
				struct list_head *failed);
void ksock_zc_reap_locked(struct ksock_peer *peer);
int ksock_zc_min_payload(void);

/* reaper.c */
void ksock_reaper(struct work_struct *work);

/* link.c: NIs follow their interface's link. */
void ksock_link_watch(struct ksock_net *net);
void ksock_link_unwatch(struct ksock_net *net);
int ksock_link_init(void);
void ksock_link_fini(void);

#endif /* _KSOCKLND_H */
