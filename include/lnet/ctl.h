/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The LNet control API: what configuration front ends (the generic netlink
 * family in lnet/netlink.c, the "networks=" module parameter) call in the
 * core.  The core implements it; nothing here knows about netlink
 * messages beyond reporting errors through an extack.
 *
 * Every function that changes state validates everything first and either
 * applies the whole change or none of it.  Errors are -errno with, when
 * @extack is not NULL, a message naming the offending value.
 */
#ifndef _LNET_CTL_H
#define _LNET_CTL_H

#include <linux/if.h>
#include <linux/netlink.h>
#include <linux/types.h>

#include <lnet/nid.h>

/*
 * Per-NI tunables: those common to every LND (lnetctl "tunables:"), then
 * those of some LNDs (lnetctl "lnd tunables:").  On input a negative
 * value means "the LND's default"; on output every field holds the value
 * in force (conns_per_peer: what the LND chose when it was 0; ko2iblnd's
 * fields: as ko2iblnd normalised them, see lnd/o2ib/module.c).
 */
struct lnet_ni_tunables {
	s32	peer_timeout;		/* seconds */
	s32	peer_credits;		/* tx credits per peer NI */
	s32	peer_buffer_credits;	/* router buffer credits per peer NI */
	s32	credits;		/* tx credits of the NI */
	/* ksocklnd: bulk connections per direction and peer; 0: auto */
	s32	conns_per_peer;
	/* ko2iblnd (Lustre's o2iblnd "lnd tunables"); other LNDs ignore them */
	s32	peercredits_hiw;	/* credits owed that make a NOOP */
	s32	map_on_demand;		/* obsolete; 0 is taken as 1 */
	s32	concurrent_sends;	/* sends posted per connection */
	s32	fmr_pool_size;		/* MRs per chunk of the MR pool */
	s32	fmr_flush_trigger;	/* MR pool growth watermark */
	s32	fmr_cache;		/* accepted, no effect */
	s32	ntx;			/* accepted, no effect */
	/*
	 * ksocklnd, ko2iblnd: IP ToS of the NI's connections, -1 none; on
	 * input LNET_NI_TOS_DEFAULT (not -1, a value) means the LND's tos
	 * module parameter, which the LND reads when it starts the NI
	 */
	s32	tos;
};

#define LNET_NI_TOS_DEFAULT	S32_MIN

/* Message types as counted per NI; indexes follow enum lnet_msg_type. */
#define LNET_CTL_MSG_TYPES	5	/* ack, put, get, reply, hello */

/* A snapshot of one local NI, for "net show". */
/*
 * Latency samples (spec features 9b): PUT to its local send completion,
 * GET to its REPLY, PUT to its ACK (the round trips of response-tracked
 * operations only); per local NI and per peer NI.
 */
enum lnet_latency_kind {
	LNET_LAT_PUT_EGRESS,
	LNET_LAT_GET_RTT,
	LNET_LAT_PUT_ACK,
	LNET_LAT_KINDS
};

struct lnet_latency {
	u32	samples;
	u64	min_ns;
	u64	max_ns;
	u64	total_ns;
};

/*
 * Health counters of a local NI (lnetctl "health stats", spec features
 * 3f): its failures by class.
 */
struct lnet_ni_hstats {
	u32	interrupts;
	u32	dropped;
	u32	aborted;
	u32	no_route;
	u32	timeouts;
	u32	error;
};

/* Health counters of a peer NI: its failures by class. */
struct lnet_peer_ni_hstats {
	u32	dropped;
	u32	timeout;
	u32	error;
	u32	network_timeout;
};

struct lnet_ni_info {
	struct lnet_nid		nid;
	u32			net_id;
	bool			up;
	char			ifname[IFNAMSIZ];	/* "" for 0@lo */
	struct lnet_ni_tunables	tunables;
	u32			send_count;
	u32			recv_count;
	u32			drop_count;
	u32			sent[LNET_CTL_MSG_TYPES];
	u32			received[LNET_CTL_MSG_TYPES];
	u32			dropped[LNET_CTL_MSG_TYPES];
	u64			send_length;		/* payload bytes */
	u64			recv_length;
	u64			drop_length;
	s32			tx_credits_max;
	s32			tx_credits;		/* now; < 0: queued */
	s32			tx_credits_min;		/* low-water mark */
	struct lnet_latency	lat[LNET_LAT_KINDS];
	u32			udsp_net_prio;	/* U32_MAX: none */
	u32			udsp_nid_prio;
	bool			fatal;		/* its LND reports it down */
	s32			healthv;	/* 0..1000 */
	struct lnet_ni_hstats	hstats;
	u32			ping_count;	/* recovery pings sent */
	s64			next_ping;	/* s, monotonic; 0: none */
	s32			lnd_timeout;	/* its LND's, s; -1: none */
};

/* Global counters ("stats show"), summed over the whole node. */
struct lnet_counters_common {
	u32	msgs_alloc;
	u32	msgs_max;
	u32	errors;
	u32	send_count;
	u32	recv_count;
	u32	route_count;
	u32	drop_count;
	u64	send_length;
	u64	recv_length;
	u64	route_length;
	u64	drop_length;
	u32	response_timeouts;	/* ACK or REPLY given up on */
	/* health (spec features 9a) */
	u32	resend_count;		/* messages sent again */
	u32	local_interrupt_count;	/* failures by class ... */
	u32	local_dropped_count;
	u32	local_aborted_count;
	u32	local_no_route_count;
	u32	local_timeout_count;
	u32	local_error_count;
	u32	remote_dropped_count;
	u32	remote_error_count;
	u32	remote_timeout_count;
	u32	network_timeout_count;	/* ... */
	u32	failed_resends;		/* resendable, but out of tries */
	u32	successful_resends;	/* a resend that succeeded */
	u32	late_msgs;		/* failed past their deadline */
};

/**
 * lnet_configure() - bring LNet up, and hold it for lnetctl.
 * @all: also start the NIs of the "networks=" module parameter.
 * @extack: where to report an error.
 *
 * Starts the core with 0@lo.  Configuring a configured LNet (by lnetctl
 * or an in-kernel user) is not an error unless @all asks for
 * module-parameter NIs that cannot start.  Takes lnetctl's one hold.
 *
 * Return: 0 or -errno.
 */
int lnet_configure(bool all, struct netlink_ext_ack *extack);

/**
 * lnet_unconfigure() - drop lnetctl's hold; LNet stops with the last one.
 * @extack: where to report an error.
 *
 * Every NI is torn down and LNet stopped now, or, while in-kernel users
 * hold it, when the last of them lets go (lnet_ni_fini()).
 *
 * Return: 0, or -EBUSY while an in-kernel user still holds LNet.
 */
int lnet_unconfigure(struct netlink_ext_ack *extack);

/* True while LNet runs (lnetctl or an in-kernel user holds it). */
bool lnet_is_configured(void);

/**
 * lnet_net_add() - add a local NI.
 * @net_id: the network, e.g. tcp1; must not be lo.
 * @ifname: the interface the NI uses ("" where the LND picks one).
 * @tun: tunables; negative fields take the LND's default.
 * @extack: where to report an error.
 *
 * Return: 0; -ENETDOWN if LNet is not configured; -EEXIST if the NI
 * exists; -ENODEV for an unknown interface; -EPROTONOSUPPORT if no LND
 * of that type is loaded; -EINVAL for bad tunables.
 */
int lnet_net_add(u32 net_id, const char *ifname,
		 const struct lnet_ni_tunables *tun,
		 struct netlink_ext_ack *extack);

/**
 * lnet_net_del() - remove local NIs.
 * @net_id: the network.
 * @ifname: the NI's interface, or NULL for every NI of @net_id.
 * @nid: the NI's NID, or NULL for any.
 * @extack: where to report an error.
 *
 * Return: 0, -ENOENT if nothing matches, -EINVAL for lo.
 */
int lnet_net_del(u32 net_id, const char *ifname, const struct lnet_nid *nid,
		 struct netlink_ext_ack *extack);

/**
 * lnet_ni_info_get() - snapshot the @idx-th local NI.
 * @idx: position in configuration order; 0 is 0@lo.
 * @info: filled on success.
 *
 * Return: 0, or -ENOENT past the last NI (or when LNet is down).
 */
int lnet_ni_info_get(unsigned int idx, struct lnet_ni_info *info);

/* Preferred local and gateway NIDs "peer show -v 4" lists per peer NI. */
#define LNET_CTL_PREF_MAX	16

/* A peer NI as "peer show" reports it (lnet_peer_ni_info_next()). */
struct lnet_peer_ni_info {
	struct lnet_nid		primary_nid;	/* its peer's */
	struct lnet_nid		nid;
	bool			multi_rail;	/* its peer's */
	u32			peer_state;	/* its peer's LNET_PEER_* */
	int			refcount;	/* messages using it */
	s32			tx_credits_max;
	s32			tx_credits;	/* now; < 0: queued */
	s32			tx_credits_min;	/* low-water mark */
	u32			txq_bytes;	/* payload waiting for credits */
	s32			rtr_credits;	/* router credits (forwarding) */
	s32			rtr_credits_min; /* their low-water mark */
	u32			send_count;
	u32			recv_count;
	u32			drop_count;
	u32			sent[LNET_CTL_MSG_TYPES];
	u32			received[LNET_CTL_MSG_TYPES];
	u32			dropped[LNET_CTL_MSG_TYPES];
	struct lnet_latency	lat[LNET_LAT_KINDS];
	u32			udsp_net_prio;	/* U32_MAX: none */
	u32			udsp_nid_prio;
	/* local NIDs a UDSP NID pair prefers for it (the first ones) */
	unsigned int		udsp_npref;
	struct lnet_nid		udsp_pref[LNET_CTL_PREF_MAX];
	/* gateway NIDs a UDSP router preference prefers for it */
	unsigned int		udsp_nrtr;
	struct lnet_nid		udsp_rtr[LNET_CTL_PREF_MAX];
	s32			healthv;	/* 0..1000 */
	struct lnet_peer_ni_hstats hstats;
	u32			ns_status;	/* as its ping buffer says */
	bool			lnd_down;	/* its LND: unreachable */
	/* routing spec 4.7, 9: -1 not tracked ("NA"), 0 down, 1 up */
	s8			alive_state;
	u32			ping_count;	/* recovery pings sent */
	s64			next_ping;	/* s, monotonic; 0: none */
};

/**
 * struct lnet_peer_ni_cursor - where a walk of the peer NIs is
 * @peer_id: the next one's peer (lp_id); 0: the walk starts
 * @nid: the next one
 * @idx: its place among its peer's NIs
 * @one_peer: only the NIs of one peer (lnet_peer_ni_cursor_peer())
 * @done: nothing left
 * @steps: list entries the walk looked at (each call costs a few: the
 *	next one is found by its NID, not by counting from the first)
 *
 * Zeroed, it is at the first peer NI.  Peers made meanwhile come at
 * the end; one whose NIs change meanwhile may be shown as before or
 * after, each NI at most once if it stays in its peer.
 */
struct lnet_peer_ni_cursor {
	u64		peer_id;
	struct lnet_nid	nid;
	u32		idx;
	bool		one_peer;
	bool		done;
	u32		steps;
};

int lnet_peer_ni_cursor_peer(struct lnet_peer_ni_cursor *c,
			     const struct lnet_nid *nid);
int lnet_peer_ni_info_next(struct lnet_peer_ni_cursor *c,
			   struct lnet_peer_ni_info *info);
void lnet_peer_ni_reset_mins(void);
void lnet_peer_primary_get(const struct lnet_nid *nid, struct lnet_nid *prim);
int lnet_discover(const struct lnet_nid *dst, bool force,
		  unsigned int timeout_ms, struct lnet_peer_ni_info *info,
		  struct lnet_nid *nids, unsigned int max);
int lnet_peer_add(const struct lnet_nid *prim, const struct lnet_nid *nids,
		  unsigned int n, bool mr, bool lock_prim,
		  struct netlink_ext_ack *extack);
int lnet_peer_del(const struct lnet_nid *prim, const struct lnet_nid *nid,
		  bool force, struct netlink_ext_ack *extack);

void lnet_counters_get(struct lnet_counters_common *c);

/*
 * "net set --health" (@peer false) / "peer set --health": set the health
 * value (0..1000) of the NI or peer NI @nid, or of every one if @nid is
 * NULL.  Return: 0, -ENOENT, -EINVAL, -ENETDOWN.
 */
int lnet_health_set(bool peer, const struct lnet_nid *nid, int value,
		    struct netlink_ext_ack *extack);

/*
 * "net set --conns-per-peer": set the conns_per_peer (1..127) of the
 * local NI @nid, or of every one if @nid is NULL; the LNDs use it for the
 * connections they make from then on.  Return: 0, -ENOENT, -EINVAL,
 * -ENETDOWN.
 */
int lnet_ni_conns_per_peer_set(const struct lnet_nid *nid, int value,
			       struct netlink_ext_ack *extack);

/*
 * "debug recovery --local|--peer": the NIDs on a recovery queue, at most
 * @max into @nids.  Return: how many are on it.
 */
int lnet_recovery_nids(bool peer, struct lnet_nid *nids, unsigned int max);

/* Reset the global counters and every NI's counters and minima. */
void lnet_counters_reset(void);

/**
 * lnet_ping() - ping a NID and return the NIDs its ping buffer lists.
 * @dst: the target.
 * @src: the local NID to send from, or NULL to let LNet choose.
 * @timeout_ms: how long to wait for the reply.
 * @nids: filled with the peer's NIDs, 0@lo excluded, in buffer order.
 * @max_nids: room in @nids.
 * @features: if not NULL, the reply's pi_features.
 *
 * Return: the number of NIDs the peer listed (may exceed @max_nids),
 * -ETIMEDOUT, -EHOSTUNREACH if no NI reaches @dst, -EPROTO for a reply
 * that does not validate, or another -errno.
 */
int lnet_ping(const struct lnet_nid *dst, const struct lnet_nid *src,
	      unsigned int timeout_ms, struct lnet_nid *nids,
	      unsigned int max_nids, u32 *features);

/*
 * Global parameters ("global show" / "set <param>"), by their lnetctl
 * names: discovery, max_interfaces, drop_asym_route, retry_count,
 * transaction_timeout, health_sensitivity, recovery_interval,
 * router_sensitivity, lnd_timeout (read-only), response_tracking,
 * recovery_limit, max_recovery_ping_interval.
 */

/* The @idx-th parameter name, or NULL past the last one. */
const char *lnet_global_name(unsigned int idx);

/* Return: 0, or -ENOENT for an unknown name. */
int lnet_global_get(const char *name, s64 *value);

/*
 * Return: 0; -ENOENT for an unknown name; -EINVAL (with an extack
 * message) for a value out of range or one that conflicts with another
 * parameter; -EPERM for a read-only one.
 */
int lnet_global_set(const char *name, s64 value,
		    struct netlink_ext_ack *extack);

/* Generic netlink family "lnet" (lnet/netlink.c), called by module init. */
int lnet_genl_init(void);
void lnet_genl_exit(void);

#endif /* _LNET_CTL_H */
