/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal prototypes of the LNet core, and what LNDs call.  Functions
 * named *_locked expect the_lnet.ln_lock to be held (spin_lock_bh).
 */
#ifndef _LNET_LIB_LNET_H
#define _LNET_LIB_LNET_H

#include <linux/jiffies.h>
#include <linux/ktime.h>

#include <lnet/fault.h>
#include <lnet/lib-types.h>

struct seq_file;

/**
 * lnet_secs_to_jiffies() - an administrator's timeout in jiffies
 * @secs: seconds, as a tunable holds them
 *
 * Saturating: a large value means a long time, never a product that
 * wrapped into a short one (17179870 s * HZ 250 is 204 jiffies in 32
 * bits); 0 or less is 0.
 *
 * Return: jiffies, at most MAX_JIFFY_OFFSET.
 */
static inline unsigned long lnet_secs_to_jiffies(long secs)
{
	if (secs <= 0)
		return 0;
	if (secs >= MAX_JIFFY_OFFSET / HZ)
		return MAX_JIFFY_OFFSET;
	return (unsigned long)secs * HZ;
}

/**
 * lnet_jiffies_to_mono_secs() - a jiffies instant as monotonic seconds
 * @j: the instant, within a few hours of now
 *
 * What lnetctl shows for "next_ping" (Lustre's ktime_get_seconds()).
 *
 * Return: seconds since boot.
 */
static inline s64 lnet_jiffies_to_mono_secs(unsigned long j)
{
	return ktime_get_seconds() + (long)(j - jiffies) / HZ;
}

static inline void lnet_lock(void)
{
	spin_lock_bh(&the_lnet.ln_lock);
}

static inline void lnet_unlock(void)
{
	spin_unlock_bh(&the_lnet.ln_lock);
}

/* credits.c: credit pools with FIFO waiters. */
void lnet_credits_init(struct lnet_credits *c, int max);
bool lnet_credits_take(struct lnet_credits *c, struct list_head *waiter);
struct list_head *lnet_credits_return(struct lnet_credits *c);
void lnet_credits_drain(struct lnet_credits *c, struct list_head *out);
void lnet_credits_unqueue(struct lnet_credits *c, struct list_head *waiter);
void lnet_credits_reset_min(struct lnet_credits *c);
bool lnet_msg_credits_acquire(struct lnet_msg *msg);
void lnet_msg_credits_release(struct lnet_msg *msg, struct list_head *ready);

/* What a message counts in its peer NI's lpni_txqnob: payload and header. */
static inline u32 lnet_msg_txqnob(const struct lnet_msg *msg)
{
	return msg->msg_len + LNET_HDR_NID4_SIZE;
}

/* finalize.c: message allocation, MD attachment, responses, finalization. */
struct lnet_msg *lnet_msg_alloc(gfp_t gfp);
void lnet_msg_free(struct lnet_msg *msg);
void lnet_msg_attach_md(struct lnet_msg *msg, struct lnet_libmd *md,
			unsigned int offset, unsigned int mlen);
void lnet_msg_detach_md(struct lnet_msg *msg, int status);
void lnet_finalize(struct lnet_msg *msg, int status);
void lnet_msg_to_response(struct lnet_msg *msg);

/* md.c: MDs, MEs and their handles. */
struct lnet_libmd *lnet_md_lookup_locked(const struct lnet_handle_wire *wh);
void lnet_md_unlink_locked(struct lnet_libmd *md);
bool lnet_md_exhausted(const struct lnet_libmd *md);
void lnet_md_iter(const struct lnet_libmd *md, unsigned int dir,
		  unsigned int offset, unsigned int len, struct iov_iter *it);
int lnet_md_copy_to_iter(const struct lnet_libmd *md, unsigned int offset,
			 unsigned int len, struct iov_iter *to);
void lnet_md_cleanup(void);
void lnet_md_unlink_event_locked(struct lnet_libmd *md, int status);

/* rsp-tracker.c: ACK/REPLY deadlines (lnet_transaction_timeout). */
void lnet_rsp_track_locked(struct lnet_libmd *md, const struct lnet_msg *msg,
			   bool is_put, bool always);
void lnet_rsp_untrack_locked(struct lnet_libmd *md);
void lnet_rsp_expire_work(struct work_struct *work);
void lnet_rsp_expire_all(void);

/* resend.c: health checks of finished messages, resends. */
bool lnet_msg_health_locked(struct lnet_msg *msg, struct lnet_peer_ni *lpni,
			    int status, struct list_head *ready);
unsigned long lnet_msg_deadline(const struct lnet_ni *ni);
bool lnet_msg_late(const struct lnet_msg *msg);
void lnet_remote_failure_locked(const struct lnet_nid *nid);
void lnet_resend_work(struct work_struct *work);
void lnet_resend_flush(void);
void lnet_peer_down_later_locked(const struct lnet_nid *nid);
void lnet_peer_down_flush(void);
int lnet_notify(struct lnet_ni *ni, const struct lnet_nid *nid, bool alive);
void lnet_peer_ni_heard_locked(const struct lnet_nid *from);
bool lnet_peer_ni_down_locked(const struct lnet_peer_ni *lpni);
bool lnet_ni_tracks_aliveness(const struct lnet_ni *ni);
int lnet_peer_ni_alive_state_locked(const struct lnet_peer_ni *lpni);

/* healthv.c: health values and the recovery queues. */
void lnet_ni_healthv_set_locked(struct lnet_ni *ni, int value);
void lnet_peer_ni_healthv_set_locked(struct lnet_peer_ni *lpni, int value);

/* portal.c: portals and matching (wire spec section 8). */
void lnet_portals_init(void);
bool lnet_me_match(const struct lnet_me *me,
		   const struct lnet_match_info *info);
enum lnet_match_result lnet_md_match_locked(struct lnet_libmd *md,
					    const struct lnet_match_info *info,
					    struct lnet_msg *msg);
enum lnet_match_result lnet_ptl_match_md_locked(const struct lnet_match_info *info,
						struct lnet_msg *msg);
void lnet_ptl_insert_locked(struct lnet_me *me);

/* send.c: the send path. */
void lnet_send_msg(struct lnet_msg *msg);
void lnet_msg_resume(struct lnet_msg *msg);
void lnet_msg_resend(struct lnet_msg *msg);
int lnet_get_recovery(const struct lnet_nid *self, struct lnet_handle_md mdh,
		      const struct lnet_processid *target);
void lnet_ni_send(struct lnet_msg *msg);
int lnet_ni_send_rc(struct lnet_msg *msg);
int lnet_ni_send_delayed(struct lnet_msg *msg);
void lnet_msg_address(struct lnet_msg *msg, struct lnet_ni *ni,
		      const struct lnet_nid *dst);

/* recv.c: the receive path. */
void lnet_parse_local(struct lnet_msg *msg, bool rdma_req, bool drop);
int lnet_parse(struct lnet_ni *ni, const void *wire, size_t size,
	       const struct lnet_nid *from, void *private);
int lnet_parse_rdma(struct lnet_ni *ni, const void *wire, size_t size,
		    const struct lnet_nid *from, void *private);
struct lnet_msg *lnet_create_reply_msg(struct lnet_ni *ni,
				       struct lnet_msg *getmsg);
void lnet_set_reply_msg_len(struct lnet_msg *reply, unsigned int len);
const char *lnet_drop_reason_str(unsigned int reason);
void lnet_drop_count_locked(struct lnet_ni *ni, unsigned int reason,
			    enum lnet_msg_type type, unsigned int len);

/* peer.c: the peer table. */
void lnet_peer_put_locked(struct lnet_peer *lp);
int lnet_peers_init(void);
void lnet_peers_fini(void);
void lnet_peers_start(void);
struct lnet_peer_ni *lnet_peer_ni_find_locked(const struct lnet_nid *nid);
const struct lnet_nid *lnet_peer_primary_nid_locked(const struct lnet_nid *nid);
struct lnet_peer_ni *lnet_peer_ni_get_locked(const struct lnet_nid *nid,
					     const struct lnet_ni *ni);
void lnet_peer_ni_put_locked(struct lnet_peer_ni *lpni);
void lnet_peers_reset_stats_locked(void);
void lnet_peers_drain_ni_locked(const struct lnet_ni *ni,
				struct list_head *out);
void lnet_peers_free(void);

/* ni.c: NIs, nets and LNDs; their start and stop. */
int lnet_register_lnd(struct lnet_lnd *lnd);
void lnet_unregister_lnd(struct lnet_lnd *lnd);
bool lnet_nid_is_local_locked(const struct lnet_nid *nid);
struct net_device *lnet_if_lookup_rtnl(const char *name, __be32 *addr);
int lnet_net_peer_credits_locked(u32 net_id);
struct lnet_net *lnet_net_find_in(struct list_head *nets, u32 net_id);
void lnet_ni_put_locked(struct lnet_ni *ni);
void lnet_ni_set_fatal(struct lnet_ni *ni, bool fatal);
int lnet_ni_start(u32 net_id, const char *ifname,
		  const struct lnet_ni_tunables *tun,
		  struct netlink_ext_ack *extack, struct lnet_ni **nip);
void lnet_ni_stop(struct lnet_ni *ni);
void lnet_stop_all_nis(void);

/* ni-addr.c: NIDs that follow their interface's address. */
enum lnet_ni_addr_action {
	LNET_NI_ADDR_KEEP,	/* its NID is its interface's address */
	LNET_NI_ADDR_MOVE,	/* a new address: the NI takes its NID */
	LNET_NI_ADDR_LOST,	/* no address any more: the NI is down */
	LNET_NI_ADDR_BACK,	/* its own address is back: up again */
};

/* Seconds a moved NI's former NID stays in our ping buffer, DOWN. */
#define LNET_NI_FORMER_NID_SECS	300

enum lnet_ni_addr_action lnet_ni_addr_decide(const struct lnet_nid *nid,
					     bool lost, bool have_dev,
					     __be32 addr,
					     struct lnet_nid *new_nid);
bool lnet_ni_former_listed(const struct lnet_ni *ni, unsigned long now);

/**
 * struct lnet_ni_addr_stats - NIs that followed their address (debugfs
 *	lnet/ni_addr); under ln_api_mutex
 * @moves: NIs moved to the NID of their interface's new address
 * @lost: times an NI's interface was left without an address (it is
 *	down until one returns)
 * @failed: NIs that could not start on their new address (they are gone)
 */
struct lnet_ni_addr_stats {
	u32	moves;
	u32	lost;
	u32	failed;
};

extern struct lnet_ni_addr_stats lnet_ni_addr_stats;
int lnet_ni_addr_init(void);
void lnet_ni_addr_fini(void);

/* startup.c: LNet's start and stop. */
int lnet_ref_running(void);	/* released by lnet_ni_fini() */

/* Started, and its LND has not reported a link or device failure. */
static inline bool lnet_ni_usable(const struct lnet_ni *ni)
{
	return ni->ni_up && !READ_ONCE(ni->ni_fatal);
}

/*
 * Reported up (net show, ping replies): usable, its health has not
 * fallen to 0 since it was last fully healthy, and, on a router, it
 * was pinged since its net went unpinged (routing spec 6.7).
 */
static inline bool lnet_ni_status_up(const struct lnet_ni *ni)
{
	return lnet_ni_usable(ni) && !READ_ONCE(ni->ni_health_down) &&
	       !READ_ONCE(ni->ni_rtr_down);
}

/* select.c: multi-rail selection of the local NI and peer NI. */
int lnet_select_pathway_locked(const struct lnet_nid *dst,
			       const struct lnet_nid *self,
			       const struct lnet_nid *hop, bool recovery,
			       struct lnet_ni **nip,
			       struct lnet_peer_ni **lpnip,
			       struct lnet_nid *finalp);
struct lnet_peer_ni *lnet_select_fwd_final(const struct lnet_hdr *hdr);
#if IS_ENABLED(CONFIG_KUNIT)
struct lnet_ni *lnet_select_local(struct list_head *nets,
				  struct lnet_ni *loni,
				  const struct lnet_nid *to,
				  const struct lnet_nid *self, bool recovery);
bool lnet_ni_better(struct lnet_ni *ni, struct lnet_ni *best);
bool lnet_peer_ni_better(struct lnet_peer_ni *lpni, struct lnet_peer_ni *best,
			 const struct lnet_ni *ni);
struct lnet_peer_ni *lnet_select_mr(struct lnet_peer *lp,
				    struct list_head *nets,
				    struct lnet_ni **nip);
struct lnet_peer_ni *lnet_select_remote_mr(struct lnet_peer *lp,
					   bool (*routable)(u32 net));
struct lnet_peer_ni *lnet_fwd_final_choice(struct lnet_peer_ni *dst,
					   bool src_mr);
#endif

/* lo.c: the loopback LND. */
extern struct lnet_lnd lnet_lolnd;

/* pingbuf.c: the ping buffer's format (wire spec 6.2). */
struct lnet_ping_ni {
	struct lnet_nid	nid;
	bool		up;
};

/**
 * struct lnet_ping_data - what lnet_ping_buf_parse() found
 * @features: pi_features
 * @pid: pi_pid
 * @seq: the sequence number (entry 0's status)
 * @nnis: pi_nnis, 0@lo included
 * @nnids: NIDs listed but 0@lo, as far as the buffer goes
 * @nnid4: of those, the nid4 entries (the large ones follow)
 * @size: bytes of the whole buffer, as its header describes it
 * @truncated: fewer bytes arrived than @size
 */
struct lnet_ping_data {
	u32		features;
	u32		pid;
	u32		seq;
	unsigned int	nnis;
	unsigned int	nnids;
	unsigned int	nnid4;
	unsigned int	size;
	bool		truncated;
};

size_t lnet_ping_buf_size(unsigned int n);
void lnet_ping_buf_build(struct lnet_ping_info *pi, u32 features, u32 seq,
			 const struct lnet_ping_ni *nis, unsigned int n);
bool lnet_ping_buf_set_status(struct lnet_ping_info *pi,
			      const struct lnet_nid *nid, bool up);
int lnet_ping_buf_parse(const void *buf, unsigned int len,
			struct lnet_ping_data *pd, struct lnet_nid *nids,
			u32 *statuses, unsigned int max);

/*
 * peer-merge.c: a peer's ping buffer into the peer table.  One buffer
 * makes a peer of at most this many NIDs: far more than a node has NIs,
 * far fewer than a hostile one may list (max_interfaces, 4096).
 */
#define LNET_PEER_MERGE_NIDS_MAX	16

int lnet_peer_merge(const struct lnet_nid *answered,
		    const struct lnet_ping_data *pd,
		    const struct lnet_nid *nids, const u32 *statuses,
		    unsigned int n, bool pushed);

/* discovery.c: discovery and push, the steps (spec 7). */
enum lnet_dc_action {
	LNET_DC_WAIT,		/* for the ping or push in flight */
	LNET_DC_MERGE,		/* a ping reply or push */
	LNET_DC_PING,
	LNET_DC_PUSH,
	LNET_DC_DONE,		/* discovered */
	LNET_DC_FAIL,
};

int lnet_discovery_init(void);
void lnet_discovery_fini(void);
void lnet_peer_dc_init(struct lnet_peer *lp);
struct lnet_peer *lnet_dc_hold_locked(const struct lnet_msg *msg,
				      unsigned int portal);
void lnet_dc_hold_msg_locked(struct lnet_peer *lp, struct lnet_msg *msg);
void lnet_dc_push_arrived_locked(const struct lnet_event *ev, void *data);
void lnet_dc_push_update_locked(bool force);
void lnet_peer_dc_start_locked(struct lnet_peer *lp);
void lnet_discovery_stop(void);
void lnet_discovery_flush(void);
#if IS_ENABLED(CONFIG_KUNIT)
enum lnet_dc_action lnet_dc_next(u32 state, bool needs_push, bool running);
bool lnet_dc_data_offer_locked(struct lnet_peer *lp, void *data,
			       unsigned int len, u32 seq, bool pushed,
			       const struct lnet_nid *from,
			       const struct lnet_nid *local);
#endif

/* ping.c: the responder's buffer, and asking for a peer's. */
int lnet_ping_raw(const struct lnet_nid *dst, const struct lnet_nid *src,
		  unsigned int timeout_ms, void *buf, unsigned int size);
int lnet_ping_target_update(void);
void lnet_ping_target_update_later(bool force);
void lnet_ping_target_status_locked(void);
void lnet_ping_target_status_later(void);
void lnet_ping_target_cancel_updates(void);
void lnet_ping_target_fini(void);
u32 lnet_ping_features(void);

/* push.c: the push target. */
int lnet_push_target_init(void);
void lnet_push_target_fini(void);
void lnet_push_target_cancel_reposts(void);

/* params.c: global parameters. */
int lnet_max_interfaces(void);
bool lnet_discovery_enabled(void);
unsigned int lnet_transaction_timeout(void);
unsigned int lnet_get_lnd_timeout(void);
unsigned int lnet_response_tracking(void);
unsigned int lnet_retry_count(void);
unsigned int lnet_health_sensitivity(void);
unsigned int lnet_recovery_limit(void);
unsigned int lnet_max_recovery_ping_interval(void);
bool lnet_drop_asym_route(void);

/* acceptor.c: the TCP listener of LNDs that have lnd_accept (spec 3). */
int lnet_acceptor_init(void);
void lnet_acceptor_fini(void);
int lnet_acceptor_start(struct lnet_ni *ni);
void lnet_acceptor_stop(struct lnet_ni *ni);
void lnet_acceptor_show(struct seq_file *m);
int lnet_acceptor_port(void);
int lnet_acceptor_port_bulk(void);
int lnet_acceptor_timeout(void);
/**
 * struct lnet_connect_watch - who may abort lnet_connect()
 * @fn: sees each socket before it connects, and NULL before it is
 *	released; a non-zero return aborts the connect with it
 * @arg: its first argument
 */
struct lnet_connect_watch {
	int (*fn)(void *arg, struct socket *sock);
	void *arg;
};

int lnet_connect(struct socket **sockp, const struct lnet_nid *peer_nid,
		 __be32 local_ip, __be32 peer_ip, int port, int timeout,
		 const struct lnet_connect_watch *watch);
int lnet_sock_read(struct socket *sock, void *buf, size_t len, int timeout);
int lnet_sock_write(struct socket *sock, const void *buf, size_t len,
		    int timeout);

/* debugfs.c */
void lnet_debugfs_init(void);
void lnet_debugfs_fini(void);
struct dentry;
void lnet_debugfs_routing_init(struct dentry *root);
/* Test hook: the next this many ping buffer updates fail (-ENOMEM). */
extern u32 lnet_test_fail_ping_update;
/*
 * Test hook: the next lnet_put()/lnet_get() that goes straight to its LND
 * is held this many ms after it chose its NI and dropped the lock, just
 * before the LND's send (a sender in flight when the NI stops); one-shot.
 */
extern u32 lnet_test_hold_send_ms;

#endif /* _LNET_LIB_LNET_H */
