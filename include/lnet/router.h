/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Forwarding on a router (routing spec 4): router buffer pools
 * (lnet/rtrbuf.c) and the forwarding of messages not addressed to this
 * node (lnet/router.c).
 */
#ifndef _LNET_ROUTER_H
#define _LNET_ROUTER_H

#include <linux/list.h>
#include <linux/types.h>

struct lnet_hdr;
struct lnet_libmd;
struct lnet_msg;
struct lnet_ni;
struct lnet_peer_ni;
struct netlink_ext_ack;

/* Routing states (spec 5.1), as "routing show" prints them (enable:). */
enum lnet_routing_state {
	LNET_ROUTING_DISABLED	= 0,
	LNET_ROUTING_ENABLED	= 1,
	LNET_ROUTING_STOPPING	= 2,
	LNET_ROUTING_STARTING	= 3,
};

/* The three pools, smallest first (spec 4.2). */
enum lnet_rtrpool_idx {
	LNET_RTRPOOL_TINY,
	LNET_RTRPOOL_SMALL,
	LNET_RTRPOOL_LARGE,
	LNET_RTRPOOL_COUNT
};

/* Stock's default totals (spec 1.1) and the counts below which it warns. */
#define LNET_RTR_TINY_DEFAULT	2048
#define LNET_RTR_SMALL_DEFAULT	16384
#define LNET_RTR_LARGE_DEFAULT	1024
#define LNET_RTR_TINY_MIN	512
#define LNET_RTR_SMALL_MIN	4096
#define LNET_RTR_LARGE_MIN	256

/**
 * struct lnet_rtrbuf - one router buffer
 * @rb_list: in its pool's idle list while nobody uses it
 * @rb_pool: its pool
 * @rb_md: an MD over its pages (none for a tiny buffer, length 0): the
 *	LNDs receive into it and send from it as from any MD; it has no
 *	handle, no handler and is in no table
 */
struct lnet_rtrbuf {
	struct list_head	rb_list;
	struct lnet_rtrpool	*rb_pool;
	struct lnet_libmd	*rb_md;
};

/**
 * struct lnet_rtrpool - a router buffer pool (one CPT: this stack has one)
 * @rp_npages: pages per buffer
 * @rp_nbuffers: buffers allocated (idle or in use)
 * @rp_req: buffers wanted; more come back to be freed (lazy shrink)
 * @rp_credits: idle buffers less waiting messages (negative: waiters)
 * @rp_mincredits: the lowest @rp_credits was
 * @rp_idle: idle buffers
 * @rp_waiters: messages waiting for a buffer, oldest first (msg_list)
 */
struct lnet_rtrpool {
	unsigned int		rp_npages;
	int			rp_nbuffers;
	int			rp_req;
	int			rp_credits;
	int			rp_mincredits;
	struct list_head	rp_idle;
	struct list_head	rp_waiters;
};

/* Pool figures, for "routing show". */
struct lnet_rtrpool_info {
	unsigned int	npages;
	int		nbuffers;
	int		credits;
	int		mincredits;
};

/* rtrbuf.c: pure pool accounting (KUnit: kunit/lnet_router_test.c). */
enum lnet_rtrpool_idx lnet_rtrpool_idx(unsigned int len);
unsigned int lnet_rtrpool_npages(enum lnet_rtrpool_idx idx);
void lnet_rtrpool_init(struct lnet_rtrpool *rp, unsigned int npages);
bool lnet_rtrpool_take(struct lnet_rtrpool *rp, struct list_head *waiter);
struct lnet_rtrbuf *lnet_rtrpool_get_idle(struct lnet_rtrpool *rp);
struct list_head *lnet_rtrpool_put(struct lnet_rtrpool *rp,
				   struct lnet_rtrbuf *rb, bool keep,
				   struct list_head *freed);
int lnet_rtrpool_count(int total, int dflt);
bool lnet_rtrpool_idle(const struct lnet_rtrpool *rp);

/* rtrbuf.c: the node's pools, under the LNet lock. */
struct lnet_rtrpool *lnet_rtrpool_of(enum lnet_rtrpool_idx idx);
int lnet_rtrpools_resize(const int *totals, struct list_head *ready);
void lnet_rtrpools_shrink_idle_locked(bool all);
void lnet_rtrbufs_free(struct list_head *freed);
void lnet_rtrpools_info(struct lnet_rtrpool_info *info);
void lnet_rtrbuf_attach(struct lnet_msg *msg, struct lnet_rtrbuf *rb);
bool lnet_rtrpools_allocated(void);
int lnet_rtrpool_param(enum lnet_rtrpool_idx idx);
void lnet_rtrpool_param_set(enum lnet_rtrpool_idx idx, int total);

/* router.c */
enum lnet_routing_state lnet_routing_state(void);
bool lnet_routing_forwards(void);
int lnet_routing_set(bool enable, struct netlink_ext_ack *extack);
int lnet_routing_buffers_set(const int *totals,
			     struct netlink_ext_ack *extack);
int lnet_routing_start(bool router);
void lnet_routing_stop(void);
void lnet_routing_tick(void);
unsigned int lnet_fwd_check_locked(struct lnet_ni *ni,
				   const struct lnet_hdr *hdr, bool rdma_req,
				   bool *eproto);
void lnet_fwd_start(struct lnet_msg *msg);
void lnet_fwd_send(struct lnet_msg *msg);
void lnet_fwd_resume(struct lnet_msg *msg);
void lnet_fwd_release_locked(struct lnet_msg *msg, struct list_head *rx);
int lnet_fwd_recv_rc(struct lnet_msg *msg);
int lnet_rtr_peer_credits(const struct lnet_ni *ni);
void lnet_rtr_credits_info_locked(const struct lnet_peer_ni *lpni,
				  s32 *avail, s32 *min);

/* router-checker.c: W, the window of spec 5.1 and 6.7 (seconds). */
s64 lnet_rtr_window(void);

#if IS_ENABLED(CONFIG_KUNIT)
enum lnet_routing_state
lnet_routing_next(enum lnet_routing_state st, unsigned long now,
		  unsigned long t0, s64 w, bool tiny_idle);
#endif

/* finalize.c */
void lnet_fwd_rx_run(struct list_head *rx);

#endif /* _LNET_ROUTER_H */
