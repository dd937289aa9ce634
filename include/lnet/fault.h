/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LNet fault injection ("lnetctl fault drop|delay", Lustre's net_fault.c,
 * spec features section 6): rules that drop received messages, make an
 * LND report a chosen health failure for a message it was about to send,
 * or hold messages for a while before they are sent.  lnet/fault.c.
 */
#ifndef _LNET_FAULT_H
#define _LNET_FAULT_H

#include <linux/time64.h>
#include <linux/types.h>

#include <lnet/health.h>
#include <lnet/hdr.h>
#include <lnet/nid.h>

struct lnet_msg;
struct netlink_ext_ack;

enum lnet_fault_type {
	LNET_FAULT_DROP,
	LNET_FAULT_DELAY,
};

/* Message type bits of fa_msg_mask: BIT(enum lnet_msg_type) (spec 6). */
#define LNET_FAULT_MSG_ALL	(BIT(LNET_MSG_ACK) | BIT(LNET_MSG_PUT) | \
				 BIT(LNET_MSG_GET) | BIT(LNET_MSG_REPLY))
/* da_health_error_mask: BIT(hstatus) for LOCAL_INTERRUPT..NETWORK_TIMEOUT. */
#define LNET_FAULT_HEALTH_ALL	GENMASK(LNET_MSG_STATUS_NETWORK_TIMEOUT, \
					LNET_MSG_STATUS_LOCAL_INTERRUPT)
#define LNET_FAULT_HEALTH_RANDOM 0xffffffffU

/**
 * struct lnet_fault_nid - a NID a rule matches
 * @any: every NID (lnetctl "*")
 * @net_any: every NID of @nid's net (lnetctl "*@tcp", Lustre's
 *	255.255.255.255@net)
 * @nid: the NID, or (with @net_any) one of the net
 */
struct lnet_fault_nid {
	bool		any;
	bool		net_any;
	struct lnet_nid	nid;
};

/**
 * struct lnet_fault_attr - what a rule matches and what it does
 * @type: drop or delay
 * @src: header source NID
 * @dst: header destination NID
 * @local: the NI a message was received on (drop rules, on receive)
 * @ptl_mask: portals of PUTs and GETs (0: any)
 * @msg_mask: message types, BIT(LNET_MSG_*) (0 at add: all)
 * @rate: one message in each run of @rate matching ones (xor @interval)
 * @interval: the first message after a random instant of each @interval
 *	seconds
 * @health_mask: drop: the health failure an LND reports instead of
 *	sending, BIT(hstatus) or %LNET_FAULT_HEALTH_RANDOM; 0: a plain drop
 *	rule, applied to received messages
 * @random: drop, with @interval: each match dropped with probability 1/2
 * @drop_all: drop every matching message
 * @latency: delay: seconds a message is held
 */
struct lnet_fault_attr {
	enum lnet_fault_type	type;
	struct lnet_fault_nid	src;
	struct lnet_fault_nid	dst;
	struct lnet_fault_nid	local;
	u64			ptl_mask;
	u32			msg_mask;
	u32			rate;
	u32			interval;
	u32			health_mask;
	bool			random;
	bool			drop_all;
	u32			latency;
};

/**
 * struct lnet_fault_stats - a rule's counters (Lustre's fs_*, ds_, ls_)
 * @count: messages that matched its NIDs, types and portals
 * @put: of them dropped or delayed, PUTs
 * @ack: ACKs
 * @get: GETs
 * @reply: REPLY messages
 * @acted: dropped (ds_dropped) or delayed (ls_delayed)
 */
struct lnet_fault_stats {
	u64	count;
	u64	put;
	u64	ack;
	u64	get;
	u64	reply;
	u64	acted;
};

/**
 * struct lnet_fault_sched - when a rule acts next (under the rule's lock)
 * @hit_at: rate: the match count at which it acts
 * @hit_time: interval: the second after which the next match acts
 * @time_base: interval: start of the next window
 */
struct lnet_fault_sched {
	u64		hit_at;
	time64_t	hit_time;
	time64_t	time_base;
};

int lnet_fault_attr_check(struct lnet_fault_attr *attr,
			  struct netlink_ext_ack *extack);
bool lnet_fault_attr_match(const struct lnet_fault_attr *attr,
			   const struct lnet_hdr *hdr,
			   const struct lnet_nid *local);
void lnet_fault_sched_init(const struct lnet_fault_attr *attr,
			   struct lnet_fault_sched *s, time64_t now,
			   u32 (*rnd)(u32 ceil));
bool lnet_fault_sched_hit(const struct lnet_fault_attr *attr,
			  struct lnet_fault_sched *s, u64 count, time64_t now,
			  u32 (*rnd)(u32 ceil));
enum lnet_msg_hstatus lnet_fault_hstatus(u32 mask, u32 (*rnd)(u32 ceil));

int lnet_fault_add(const struct lnet_fault_attr *attr,
		   struct netlink_ext_ack *extack);
int lnet_fault_del(enum lnet_fault_type type,
		   const struct lnet_fault_nid *src,
		   const struct lnet_fault_nid *dst);
void lnet_fault_reset(enum lnet_fault_type type);
int lnet_fault_get(enum lnet_fault_type type, unsigned int idx,
		   struct lnet_fault_attr *attr,
		   struct lnet_fault_stats *stats);

bool lnet_fault_drop_rx(const struct lnet_hdr *hdr,
			const struct lnet_nid *local);
bool lnet_fault_delay_tx(struct lnet_msg *msg);
bool lnet_fault_delay_rx(struct lnet_msg *msg, bool rdma_req);
void lnet_fault_delay_flush(void);
void lnet_fault_delay_flush_ni(struct lnet_ni *ni);
void lnet_fault_fini(void);

bool lnet_send_error_simulation(struct lnet_msg *msg,
				enum lnet_msg_hstatus *hstatus);

#endif /* _LNET_FAULT_H */
