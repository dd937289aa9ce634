/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal types of the LNet core.  The object model is Lustre's
 * (lib-types.h), so that multi-rail and routing fit without reshaping:
 *
 *	struct lnet_net   a local network (tcp1) owning several NIs
 *	struct lnet_ni    a local interface on it (192.0.2.1@tcp1)
 *	struct lnet_peer  a remote node, owning one lnet_peer_net per network
 *	struct lnet_peer_net  owning the peer's NIs on that network
 *	struct lnet_peer_ni   one remote NID, with its own tx credits
 *	struct lnet_msg   one message in flight, sent or received
 *	struct lnet_libmd / lnet_me   memory descriptors and match entries
 *	struct lnet_lnd   an LND's operations
 *
 * Locking: the_lnet.ln_lock (a BH-safe spinlock) protects portals, MEs,
 * MDs, credits, the peer table and counters; the_lnet.ln_api_mutex
 * serialises configuration.  The NI list is changed under both, so either
 * is enough to read it.
 */
#ifndef _LNET_LIB_TYPES_H
#define _LNET_LIB_TYPES_H

#include <linux/bits.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/percpu-refcount.h>
#include <linux/rhashtable-types.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uio.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

struct socket;

#include <lnet/api.h>
#include <lnet/ctl.h>
#include <lnet/hdr.h>
#include <lnet/health.h>
#include <lnet/udsp.h>

struct lnet_ni;
struct lnet_msg;

/* Push target MDs posted at a time (lnet/push.c). */
#define LNET_PUSH_BUFS		4

/**
 * struct lnet_credits - a pool of send credits with a FIFO of waiters
 * @max: credits when idle; 0 means "unlimited" (no accounting)
 * @credits: available now; negative: -@credits messages are queued
 * @min: lowest value @credits reached (low-water mark)
 * @queue: messages waiting, oldest first, linked by msg_list
 *
 * A message takes a credit by decrementing @credits even when none is
 * left; it then waits in @queue and the next credit returned is handed to
 * it.  So @credits = @max - holders - waiters at all times.
 */
struct lnet_credits {
	int			max;
	int			credits;
	int			min;
	struct list_head	queue;
};

/**
 * struct lnet_lnd - operations of a network driver
 * @lnd_list: in the registry
 * @lnd_type: LND type (enum lnet_lnd_type)
 * @lnd_owner: module that provides it
 * @lnd_refcount: NIs using it
 * @lnd_tunables: defaults for negative fields of struct lnet_ni_tunables
 * @lnd_startup: start @ni; sets ni->ni_nid; may sleep
 * @lnd_shutdown: stop @ni; every message it holds must be finalized
 *	before it returns
 * @lnd_send: start sending @msg; call lnet_finalize() when done
 * @lnd_recv: receive @msg's payload (@mlen of @rlen bytes) into @to;
 *	call lnet_finalize() when done.  @msg is NULL for a message that
 *	is dropped: the LND then discards @rlen bytes
 * @lnd_eager_recv: called before matching for a message that cannot be
 *	matched yet, so the LND can release its receive buffer; may be NULL
 * @lnd_query: report when @nid was last heard from; may be NULL
 * @lnd_get_timeout: the LND's own timeout in seconds (sock_timeout,
 *	ko2iblnd's timeout), from which a message's deadline is derived;
 *	may be NULL (then transaction_timeout is the deadline)
 * @lnd_accept: take over @sock, a TCP connection the acceptor accepted
 *	for @ni (the connection request already read).  The LND owns @sock
 *	from then on, even when it fails.  NULL for LNDs that do not use
 *	the acceptor; an NI whose LND has it makes the acceptor listen
 * @lnd_notify_peer_down: close @ni's connections to @nid, which its peer
 *	reported DOWN (lnet/peer-down.c): what they hold fails at once and
 *	may go by another rail, not after the LND's timeout.  Process
 *	context, no LNet lock held, @ni not stopping.  May be NULL
 */
struct lnet_lnd {
	struct list_head	lnd_list;
	u32			lnd_type;
	struct module		*lnd_owner;
	int			lnd_refcount;
	struct lnet_ni_tunables	lnd_tunables;
	int (*lnd_startup)(struct lnet_ni *ni);
	void (*lnd_shutdown)(struct lnet_ni *ni);
	int (*lnd_send)(struct lnet_ni *ni, void *private,
			struct lnet_msg *msg);
	int (*lnd_recv)(struct lnet_ni *ni, void *private,
			struct lnet_msg *msg, struct iov_iter *to,
			unsigned int mlen, unsigned int rlen);
	int (*lnd_eager_recv)(struct lnet_ni *ni, void *private,
			      struct lnet_msg *msg, void **new_privatep);
	void (*lnd_query)(struct lnet_ni *ni, const struct lnet_nid *nid,
			  time64_t *when);
	int (*lnd_accept)(struct lnet_ni *ni, struct socket *sock);
	unsigned int (*lnd_get_timeout)(void);
	void (*lnd_notify_peer_down)(struct lnet_ni *ni,
				     const struct lnet_nid *nid);
};

/* Why the core dropped a received message (beyond header checks). */
enum lnet_drop_reason {
	LNET_DROP_NOT_FOR_ME = LNET_HDR_DROP_COUNT, /* dest_nid not ours */
	LNET_DROP_BAD_PID,		/* dest_pid is not LNET_PID_LUSTRE */
	LNET_DROP_NO_MATCH,		/* PUT/GET matched no MD */
	LNET_DROP_BAD_WMD,		/* ACK/REPLY for an MD that is gone */
	LNET_DROP_TOO_LONG,		/* REPLY longer than a non-TRUNCATE MD */
	LNET_DROP_SHUTDOWN,		/* LNet is stopping */
	LNET_DROP_NOMEM,		/* no memory for a message */
	LNET_DROP_BAD_SRC,		/* src_nid another NID of from's net */
	LNET_DROP_FAULT,		/* a fault injection drop rule */
	LNET_DROP_NO_ROUTING,		/* not ours, routing disabled */
	LNET_DROP_ROUTED_LOCAL,		/* not ours, to our NID or net */
	LNET_DROP_ROUTED_GET_REQ,	/* an RDMA GET not for us */
	LNET_DROP_NO_ROUTE,		/* forwarding found no next hop */
	LNET_DROP_PEER_DOWN,		/* forwarding: next hop down (4.7) */
	LNET_DROP_ASYM_ROUTE,		/* routed to us by a gateway we */
					/* would not use back (spec 7) */
	LNET_DROP_COUNT
};

/* Per-NI message counters (lnetctl "statistics", "*_stats"). */
struct lnet_ni_stats {
	u32	send_count;
	u32	recv_count;
	u32	drop_count;
	u32	sent[LNET_CTL_MSG_TYPES];
	u32	received[LNET_CTL_MSG_TYPES];
	u32	dropped[LNET_CTL_MSG_TYPES];
	u64	send_length;
	u64	recv_length;
	u64	drop_length;
	struct lnet_latency	lat[LNET_LAT_KINDS];
};

/**
 * struct lnet_net - a local network: the NIs LNet has on it
 * @net_list: in the_lnet.ln_nets
 * @net_id: network number (lnet_mknet())
 * @net_lnd: its LND
 * @net_nis: its NIs, in configuration order
 * @net_prio: its UDSP priority (lnet_udsp_net_prio())
 * @net_last_ping: when one of its NIs last received a ping from another
 *	node (jiffies; its creation until then): a router's NIs on a net
 *	no ping reached for a while are reported down (routing spec 6.7,
 *	lnet/router-checker.c)
 */
struct lnet_net {
	struct list_head	net_list;
	u32			net_id;
	struct lnet_lnd		*net_lnd;
	struct list_head	net_nis;
	struct lnet_sel_prio	net_prio;
	unsigned long		net_last_ping;
};

/**
 * struct lnet_ni - a local network interface
 * @ni_list: in net->net_nis
 * @ni_refcount: 1 while configured, plus one per message using it
 * @ni_net: owning network
 * @ni_nid: its NID, set by the LND's startup
 * @ni_ifname: interface, "" for 0@lo
 * @ni_up: started and not being shut down
 * @ni_fatal: its LND reports its link down or its device gone
 *	(lnet_ni_set_fatal()): sent from only when its net has no other
 *	NI, reported down
 * @ni_tunables: values in force
 * @ni_txc: NI tx credits
 * @ni_stats: counters
 * @ni_data: the LND's private data
 * @ni_seq: round-robin tie breaker for NI selection
 * @ni_senders: held by each sender while it is in the LND's lnd_send();
 *	killed when the NI stops, so that no new one enters and the stop
 *	can wait for those inside (lnet_ni_stop())
 * @ni_senders_gone: completed when the last sender left a killed
 *	@ni_senders
 * @ni_prio: its UDSP priority (lnet_udsp_ni_prio())
 * @ni_healthv: its health value, 0..LNET_MAX_HEALTH_VALUE (health.h)
 * @ni_hstats: its failures by class
 * @ni_recovery: in the_lnet.ln_ni_recoveryq while its health is below
 *	the maximum (health/recovery.c)
 * @ni_ping_count: recovery pings sent since it was last heard to work
 * @ni_next_ping: when the next is due (jiffies)
 * @ni_recovery_pending: a recovery ping of it is in flight
 * @ni_health_down: its health reached 0: reported down (in ping replies
 *	too) until it is back to the maximum
 * @ni_rtr_down: routing, its net had no ping for alive_router_check_interval
 *	+ router_ping_timeout: reported down until it is pinged (routing
 *	spec 6.7, lnet/router-checker.c)
 * @ni_former_nid: the NID it had before its address changed (lnet/ni-addr.c),
 *	listed DOWN in our ping buffer until @ni_former_until, so that peers
 *	keep it as a NID of ours and send to the new one; ANY when none
 * @ni_former_until: jiffies
 * @ni_addr_lost: its interface has no IPv4 address: reported down (fatal)
 *	by lnet/ni-addr.c until one returns
 */
struct lnet_ni {
	struct list_head	ni_list;
	int			ni_refcount;
	struct lnet_net		*ni_net;
	struct lnet_nid		ni_nid;
	char			ni_ifname[IFNAMSIZ];
	bool			ni_up;
	bool			ni_fatal;
	struct lnet_ni_tunables	ni_tunables;
	struct lnet_credits	ni_txc;
	struct lnet_ni_stats	ni_stats;
	void			*ni_data;
	unsigned int		ni_seq;
	struct percpu_ref	ni_senders;
	struct completion	ni_senders_gone;
	struct lnet_sel_prio	ni_prio;
	int			ni_healthv;
	struct lnet_ni_hstats	ni_hstats;
	struct list_head	ni_recovery;
	unsigned int		ni_ping_count;
	unsigned long		ni_next_ping;
	bool			ni_recovery_pending;
	bool			ni_health_down;
	bool			ni_rtr_down;
	struct lnet_nid		ni_former_nid;
	unsigned long		ni_former_until;
	bool			ni_addr_lost;
};

/**
 * struct lnet_peer_ni - one NID of a remote peer
 * @lpni_node: in the_lnet.ln_peer_nis, keyed by NID
 * @lpni_list: in its peer net
 * @lpni_peer_net: owning peer net
 * @lpni_nid: the NID
 * @lpni_refcount: messages that go to it (msg_txpeer)
 * @lpni_last_used: jiffies when the last of them was freed
 * @lpni_txc: per-peer-NI tx credits
 * @lpni_txqnob: bytes of the messages holding or waiting for one of
 *	them, payload plus a header each (stock's txqnob: a tie-break
 *	between gateways, routing spec 3.2 step 4)
 * @lpni_rtrc: router credits of a previous hop (lnet/router.c): messages
 *	it sends us to forward wait here, FIFO, when they run out; set up
 *	when it first sends one (@lpni_rtrc_set)
 * @lpni_rtrc_set: @lpni_rtrc is set up
 * @lpni_stats: counters
 * @lpni_seq: round-robin tie breaker: the peer's send count when it was
 *	last chosen (select.c)
 * @lpni_pref_nid: the local NID a non-multi-rail peer is pinned to (the
 *	first one used), or ANY
 * @lpni_configured: added by an administrator ("peer add"): neither the
 *	reaper nor a merge removes it
 * @lpni_prio: its UDSP priority (lnet_udsp_lpni_prio())
 * @lpni_healthv: its health value, 0..LNET_MAX_HEALTH_VALUE (health.h)
 * @lpni_hstats: its failures by class
 * @lpni_ns_status: LNET_NI_STATUS_UP or _DOWN as its peer's last ping
 *	reply or push listed it (UP until one does, as Lustre)
 * @lpni_lnd_down: an LND reported it unreachable (lnet_notify()), or,
 *	with check_routers_before_use, it is new, and nothing was heard
 *	from it since: a router forwards nothing to it (routing spec 4.7)
 * @lpni_last_alive: when a message from it last arrived (jiffies; 0:
 *	never): only a peer NI heard from is recovered
 * @lpni_recovery: in the_lnet.ln_peer_ni_recoveryq while its health is
 *	below the maximum (health/recovery.c)
 * @lpni_ping_count: recovery pings sent since it was last heard from
 * @lpni_next_ping: when the next is due (jiffies)
 * @lpni_recovery_pending: a recovery ping of it is in flight
 */
struct lnet_peer_ni {
	struct rhash_head	lpni_node;
	struct list_head	lpni_list;
	struct lnet_peer_net	*lpni_peer_net;
	struct lnet_nid		lpni_nid;
	int			lpni_refcount;
	unsigned long		lpni_last_used;
	struct lnet_credits	lpni_txc;
	u32			lpni_txqnob;
	struct lnet_credits	lpni_rtrc;
	bool			lpni_rtrc_set;
	struct lnet_ni_stats	lpni_stats;
	unsigned int		lpni_seq;
	struct lnet_nid		lpni_pref_nid;
	bool			lpni_configured;
	struct lnet_sel_prio	lpni_prio;
	int			lpni_healthv;
	struct lnet_peer_ni_hstats lpni_hstats;
	u32			lpni_ns_status;
	bool			lpni_lnd_down;
	unsigned long		lpni_last_alive;
	struct list_head	lpni_recovery;
	unsigned int		lpni_ping_count;
	unsigned long		lpni_next_ping;
	bool			lpni_recovery_pending;
};

/**
 * struct lnet_peer_net - a peer's NIs on one network
 * @lpn_list: in the peer's lp_nets
 * @lpn_peer: owning peer
 * @lpn_net_id: the network
 * @lpn_peer_nis: the peer NIs
 * @lpn_seq: round-robin tie breaker between the peer's nets (select.c)
 * @lpn_prio: its UDSP priority (lnet_udsp_lpn_prio())
 * @lpn_rtrcheck_sched: @lpn_rtrcheck_next is set (else a gateway's net
 *	is due for a router check now)
 * @lpn_rtrcheck_next: when a gateway's next check on this net is due
 *	(jiffies; lnet/router-checker.c)
 */
struct lnet_peer_net {
	struct list_head	lpn_list;
	struct lnet_peer	*lpn_peer;
	u32			lpn_net_id;
	struct list_head	lpn_peer_nis;
	unsigned int		lpn_seq;
	struct lnet_sel_prio	lpn_prio;
	bool			lpn_rtrcheck_sched;
	unsigned long		lpn_rtrcheck_next;
};

/*
 * Peer state bits, with Lustre's bit numbers (spec features 4c), so that
 * "lnetctl peer show -v" prints the value a Lustre node would.  The
 * discovery bits are changed by lnet/discovery.c only.
 */
#define LNET_PEER_MULTI_RAIL	BIT(0)	/* uses every NID it has */
#define LNET_PEER_NO_DISCOVERY	BIT(1)
#define LNET_PEER_CONFIGURED	BIT(3)	/* made or changed by "peer add" */
#define LNET_PEER_DISCOVERED	BIT(4)	/* its ping buffer was merged */
#define LNET_PEER_DISCOVERING	BIT(6)	/* discovery runs: sends are held */
#define LNET_PEER_DATA_PRESENT	BIT(7)	/* a ping reply or push to merge */
#define LNET_PEER_NIDS_UPTODATE	BIT(8)	/* no need to ping it */
#define LNET_PEER_PING_SENT	BIT(9)
#define LNET_PEER_PUSH_SENT	BIT(10)
#define LNET_PEER_PING_FAILED	BIT(11)
#define LNET_PEER_PUSH_FAILED	BIT(12)
#define LNET_PEER_FORCE_PING	BIT(13)
#define LNET_PEER_FORCE_PUSH	BIT(14)
#define LNET_PEER_LOCK_PRIMARY	BIT(20)	/* primary NID kept; del needs force */

/**
 * struct lnet_peer_dc_op - a ping or push of a discovery
 * @lp: its peer, held (lp_refcount) until the op is freed
 * @mdh: its MD
 * @buf: the MD's buffer: the reply's sink, or the copy of our ping
 *	buffer pushed; freed with the op
 * @size: its length
 * @seq: a push: the sequence number of the buffer pushed
 * @deadline: when it has failed if no outcome came (jiffies)
 * @status: its outcome once known: 0 (REPLY or ACK arrived) or -errno
 * @is_ping: a ping, else a push
 * @done: @status is known
 * @unlinked: the MD is gone
 * @detached: the discovery is done with it: it is freed once @unlinked
 * @mlength: a ping: the bytes the reply wrote
 * @answered: a ping: the NID the reply came from
 * @local: a ping: our NID the reply came to
 *
 * The discovery acts on the outcome as soon as it is known (or at the
 * deadline: the LND may hold a message to a dead peer longer) and
 * detaches the op; the op lives on until its MD is unlinked.
 */
struct lnet_peer_dc_op {
	struct lnet_peer	*lp;
	struct lnet_handle_md	mdh;
	void			*buf;
	unsigned int		size;
	u32			seq;
	unsigned long		deadline;
	int			status;
	bool			is_ping;
	bool			done;
	bool			unlinked;
	bool			detached;
	unsigned int		mlength;
	struct lnet_nid		answered;
	struct lnet_nid		local;
};

/**
 * struct lnet_dc_stats - what discovery did (debugfs lnet/discovery)
 * @discovered: discoveries that ended well
 * @failed: discoveries that failed (their held messages with them)
 * @pushes: pushes received (each ACKed by LNet)
 * @pushes_unknown: of those, from a NID that is no peer's, on a net we
 *	have no NI on: dropped
 * @pushes_new_peer: of those, from a NID on one of our nets that was no
 *	peer's: its peer was made (a node whose NID changed)
 * @pushes_bad: of those, not a valid multi-rail ping buffer: dropped
 * @pushes_replaced: of those, replaced by a newer one before merged
 * @pushes_nomem: of those, dropped: no memory to copy it out
 */
struct lnet_dc_stats {
	u32	discovered;
	u32	failed;
	u32	pushes;
	u32	pushes_unknown;
	u32	pushes_new_peer;
	u32	pushes_bad;
	u32	pushes_replaced;
	u32	pushes_nomem;
};

/**
 * struct lnet_peer - a remote node
 * @lp_list: in the_lnet.ln_peers, in the order made (ids increase)
 * @lp_id: its number, from 1, in the order made: where a dump of the
 *	peers is (struct lnet_peer_ni_cursor)
 * @lp_primary_nid: its primary NID (the source NID used for matching)
 * @lp_nets: its peer nets
 * @lp_state: LNET_PEER_* bits
 * @lp_refcount: holders besides its NIs (a discovery running, its work
 *	item queued, a "lnetctl discover" waiting): a peer is freed when it
 *	has neither
 * @lp_send_seq: messages sent to it: the round-robin clock of its nets
 *	and NIs
 * @lp_peer_seqno: the sequence number of its last ping buffer merged
 * @lp_node_seqno: the sequence number of our ping buffer it acknowledged
 *	(push); behind the_lnet.ln_ping_seq: it needs a push
 * @lp_dc_work: runs its discovery (lnet/discovery.c)
 * @lp_dc_held: messages held until its discovery ends, oldest first
 * @lp_dc_nheld: how many
 * @lp_dc_error: how its last discovery ended
 * @lp_dc_op: the ping or push in flight, or NULL
 * @lp_dc_data: a ping reply or a push received, to merge (DATA_PRESENT)
 * @lp_dc_data_len: its bytes
 * @lp_dc_data_from: the NID that sent it
 * @lp_dc_data_pushed: it is a push (which must be multi-rail), not a
 *	ping reply
 * @lp_dc_data_seq: its sequence number (the newer of two is kept)
 * @lp_dc_ping_size: the sink of its next discovery ping: more than the
 *	first if its buffer was truncated
 * @lp_dc_push_dst: where a push goes: the NID that last answered a ping
 *	or pushed (ANY: the primary NID)
 * @lp_dc_push_src: and from where: our NID that reply or push came to
 *	(ANY: LNet's choice)
 * @lp_gw_checked: as a gateway, a router check of it finished
 * @lp_gw_dead: as a gateway, its last router check failed
 * @lp_rtr_enabled: its last ping info had RTE_DISABLED clear
 * @lp_rtrcheck_running: a router check (a discovery) of it runs
 * @lp_rtrcheck_net: the net that check is pinned to
 * @lp_rtrcheck_last: the net checked last (round-robin over its nets)
 * @lp_rtrcheck_pass: the checker's last pass that looked at it
 */
struct lnet_peer {
	struct list_head	lp_list;
	u64			lp_id;
	struct lnet_nid		lp_primary_nid;
	struct list_head	lp_nets;
	u32			lp_state;
	int			lp_refcount;
	unsigned int		lp_send_seq;
	u32			lp_peer_seqno;
	u32			lp_node_seqno;
	struct delayed_work	lp_dc_work;
	struct list_head	lp_dc_held;
	unsigned int		lp_dc_nheld;
	int			lp_dc_error;
	struct lnet_peer_dc_op	*lp_dc_op;
	void			*lp_dc_data;
	unsigned int		lp_dc_data_len;
	struct lnet_nid		lp_dc_data_from;
	bool			lp_dc_data_pushed;
	u32			lp_dc_data_seq;
	unsigned int		lp_dc_ping_size;
	struct lnet_nid		lp_dc_push_dst;
	struct lnet_nid		lp_dc_push_src;
	bool			lp_gw_checked;
	bool			lp_gw_dead;
	bool			lp_rtr_enabled;
	bool			lp_rtrcheck_running;
	u32			lp_rtrcheck_net;
	u32			lp_rtrcheck_last;
	unsigned int		lp_rtrcheck_pass;
};

/**
 * struct lnet_libmd - an MD as LNet keeps it
 * @md_handle: handle cookie (index in the_lnet.ln_mds)
 * @md_me: the ME it is attached to, NULL if bound or unlinked
 * @md_start: as given by the user
 * @md_user_ptr: as given by the user
 * @md_handler: as given by the user
 * @md_options: LNET_MD_* options
 * @md_threshold: operations left, or LNET_MD_THRESH_INF
 * @md_refcount: messages using the MD
 * @md_length: total bytes
 * @md_offset: local offset for the next operation (!MANAGE_REMOTE)
 * @md_max_size: with LNET_MD_MAX_SIZE, exhausted when less is left
 * @md_unlink: unlink when exhausted
 * @md_aborted: unlinked because its response did not come in time; events
 *	of operations still running on it report -ETIMEDOUT
 * @md_rsp_list: in the_lnet.ln_rsp_list while a response is awaited
 * @md_rsp_deadline: when that response is late (jiffies)
 * @md_rsp_start_ns: when the operation awaiting it started (ktime ns)
 * @md_rsp_nid: the peer NI the operation went to (ANY: loopback): late,
 *	the response is a failure of that peer NI
 * @md_zombie: unlinked, freed when @md_refcount drops to 0
 * @md_niov: entries in @md_kiov; 0 for the kvec form
 * @md_iov: kvec form: the one buffer
 * @md_kiov: bio_vec form
 */
struct lnet_libmd {
	u64			md_handle;
	struct lnet_me		*md_me;
	void			*md_start;
	void			*md_user_ptr;
	lnet_handler_t		md_handler;
	unsigned int		md_options;
	int			md_threshold;
	int			md_refcount;
	unsigned int		md_length;
	unsigned int		md_offset;
	unsigned int		md_max_size;
	bool			md_unlink;
	bool			md_zombie;
	bool			md_aborted;
	struct list_head	md_rsp_list;
	unsigned long		md_rsp_deadline;
	u64			md_rsp_start_ns;
	struct lnet_nid		md_rsp_nid;
	unsigned int		md_niov;
	struct kvec		md_iov;
	struct bio_vec		md_kiov[];
};

/**
 * struct lnet_me - a match entry
 * @me_list: in its portal's list
 * @me_portal: portal index
 * @me_match_id: accepted source; ANY NID / PID are wildcards
 * @me_match_bits: bits to match
 * @me_ignore_bits: bits not compared
 * @me_md: its MD, NULL until lnet_md_attach()
 * @me_pos: where lnet_md_attach() inserts it
 */
struct lnet_me {
	struct list_head	me_list;
	unsigned int		me_portal;
	struct lnet_processid	me_match_id;
	u64			me_match_bits;
	u64			me_ignore_bits;
	struct lnet_libmd	*me_md;
	enum lnet_ins_pos	me_pos;
};

/* What an incoming PUT or GET is matched with. */
struct lnet_match_info {
	struct lnet_processid	mi_id;		/* source, primary NID */
	u32			mi_portal;
	u64			mi_mbits;
	u32			mi_roffset;	/* offset the peer asks for */
	u32			mi_rlength;	/* bytes the peer sends/asks */
	u32			mi_opc;		/* LNET_MD_OP_PUT or _GET */
};

enum lnet_match_result {
	LNET_MATCHMD_NONE,	/* no ME matched */
	LNET_MATCHMD_OK,	/* matched; the MD is attached to the msg */
	LNET_MATCHMD_DROP,	/* matched an MD that cannot take it */
};

/**
 * struct lnet_msg - a message being sent or received
 * @msg_list: in a credit queue or a "ready" list
 * @msg_hdr: header, host order
 * @msg_type: the message type
 * @msg_target: destination (sends)
 * @msg_initiator: source (receives)
 * @msg_md: the MD the data comes from or goes to, NULL for none
 * @msg_offset: offset into @msg_md
 * @msg_len: bytes of payload moved
 * @msg_rlength: bytes asked for
 * @msg_txni: NI the message leaves by
 * @msg_txpeer: peer NI it goes to; NULL on loopback
 * @msg_rxni: NI it arrived on
 * @msg_private: the LND's receive context
 * @msg_start_ns: a PUT we send: when it started; a REPLY or ACK we
 *	receive: when its operation started (0: not response-tracked)
 * @msg_ev: event to deliver at finalization
 * @msg_send: a send (else a receive)
 * @msg_txcredit: holds (or waits for) an NI tx credit
 * @msg_peertxcredit: holds (or waits for) a peer NI tx credit
 * @msg_ack: send an ACK once the PUT is delivered
 * @msg_reply: a GET that turns into a REPLY send
 * @msg_finalized: lnet_finalize() was called; catches double finalization
 * @msg_self: send from this NID (ANY: LNet chooses)
 * @msg_from: the NID a received message came from, as its LND
 *	authenticated it (the connection's peer NID): a response goes back
 *	through it, whatever source the header claims (a router forwards
 *	messages of other nets' sources); ANY for a message we started
 * @msg_health_status: why it failed (enum lnet_msg_hstatus), set by the
 *	LND before lnet_finalize(); OK if it did not, or if nobody said
 * @msg_retry_count: times it was sent again (lnet/resend.c)
 * @msg_deadline: a PUT or GET we started: when it must be done, sent
 *	again or not (jiffies); a forwarded message: from its last onward
 *	send, the end of its resends; 0 for other messages
 * @msg_no_resend: never sent again (a recovery ping; a GET whose REPLY
 *	the LND made, which would otherwise complete twice)
 * @msg_recovery: a recovery ping (health/recovery.c): its failure moves
 *	no health value
 * @msg_routing: a message this node forwards for others (a router's
 *	receive turned into a send); routing spec 4.6: o2iblnd never RDMAs it
 * @msg_target_is_router: a message we originate whose next hop is a
 *	gateway (routing spec 3.1), not its final destination; routing spec
 *	4.6: o2iblnd sends such a GET IMMEDIATE
 * @msg_rtrcredit: holds (or waits for) a router credit of @msg_rtrpeer
 * @msg_rtrpeer: the previous hop of a forwarded message (a reference)
 * @msg_rtrbuf: the router buffer of a forwarded message
 */
struct lnet_msg {
	struct list_head	msg_list;
	struct lnet_hdr		msg_hdr;
	enum lnet_msg_type	msg_type;
	struct lnet_processid	msg_target;
	struct lnet_processid	msg_initiator;
	struct lnet_libmd	*msg_md;
	unsigned int		msg_offset;
	unsigned int		msg_len;
	unsigned int		msg_rlength;
	struct lnet_ni		*msg_txni;
	struct lnet_peer_ni	*msg_txpeer;
	struct lnet_ni		*msg_rxni;
	void			*msg_private;
	u64			msg_start_ns;
	struct lnet_event	msg_ev;
	bool			msg_send;
	bool			msg_txcredit;
	bool			msg_peertxcredit;
	bool			msg_ack;
	bool			msg_reply;
	bool			msg_finalized;
	struct lnet_nid		msg_self;
	struct lnet_nid		msg_from;
	enum lnet_msg_hstatus	msg_health_status;
	unsigned int		msg_retry_count;
	unsigned long		msg_deadline;
	bool			msg_no_resend;
	bool			msg_recovery;
	bool			msg_routing;
	bool			msg_target_is_router;
	bool			msg_rtrcredit;
	struct lnet_peer_ni	*msg_rtrpeer;
	struct lnet_rtrbuf	*msg_rtrbuf;
};

struct lnet_portal {
	struct list_head	ptl_mes;	/* MEs in match order */
};

enum lnet_state {
	LNET_STATE_DOWN,
	LNET_STATE_RUNNING,
	LNET_STATE_STOPPING,
};

/* Ping-info (spec 6.2): header and nid4 status entry, responder order. */
#define LNET_PROTO_PING_MAGIC		0x70696e67U
#define LNET_PROTO_PING_MATCHBITS	0x8000000000000000ULL
#define LNET_RESERVED_PORTAL		0
#define LNET_PING_FEAT_BASE		0x01
#define LNET_PING_FEAT_NI_STATUS	0x02
#define LNET_PING_FEAT_RTE_DISABLED	0x04
#define LNET_PING_FEAT_MULTI_RAIL	0x08
#define LNET_PING_FEAT_DISCOVERY	0x10
#define LNET_PING_FEAT_LARGE_ADDR	0x20
#define LNET_PING_FEAT_PRIMARY_LARGE	0x40
#define LNET_NI_STATUS_UP		0x15aac0deU
#define LNET_NI_STATUS_DOWN		0xdeadfaceU

struct lnet_ni_status {
	u64	ns_nid;
	u32	ns_status;
	u32	ns_msg_size;
} __packed;

struct lnet_ping_info {
	u32			pi_magic;
	u32			pi_features;
	u32			pi_pid;
	u32			pi_nnis;
	struct lnet_ni_status	pi_ni[];
} __packed;

static_assert(sizeof(struct lnet_ni_status) == 16);
static_assert(sizeof(struct lnet_ping_info) == 16);

/**
 * struct lnet - the state of this LNet instance
 * @ln_lock: see the top of this file
 * @ln_api_mutex: serialises configuration
 * @ln_state: lifecycle state
 * @ln_users: in-kernel users between lnet_ni_init() and lnet_ni_fini()
 *	(and LNet's own calls holding it, lnet_ref_running())
 * @ln_ctl_ref: lnetctl holds LNet, from "lnet configure" to "lnet
 *	unconfigure"; LNet stops when neither this nor a user holds it
 * @ln_interface_cookie: identifies this instance in wire handles
 * @ln_nets: local networks, in configuration order (lo first)
 * @ln_loni: the 0@lo NI
 * @ln_lnds: registered LNDs
 * @ln_portals: the portal table
 * @ln_mds: live MDs by handle cookie
 * @ln_md_next: cyclic allocation hint for @ln_mds
 * @ln_peers: every peer
 * @ln_peer_nis: peer NIs by NID
 * @ln_peer_reaper: frees idle peers (lnet/peer.c)
 * @ln_counters: global counters
 * @ln_drops: received messages dropped, per reason
 * @ln_msgs_wq: woken when the last message is freed
 * @ln_ping_mdh: the ping responder's MD
 * @ln_ping_info: its buffer
 * @ln_ping_size: its size in bytes
 * @ln_ping_seq: its sequence number (entry 0's status)
 * @ln_push_mdh: the push target's MDs (portal 0, many PUTs each)
 * @ln_push_posted: how many of them are posted
 * @ln_push_force: the next ping buffer update pushes to every multi-rail
 *	peer, up to date or not (discovery turned on or off)
 * @ln_dc_wq: runs discoveries (lnet/discovery.c)
 * @ln_dc_waitq: woken when a discovery ends
 * @ln_dc_stats: discovery's counters
 * @ln_udsp: the selection rules, in index order (lnet/udsp.c)
 * @ln_udsp_count: how many
 * @ln_udsp_gen: bumped by every change of them: cached priorities
 *	(struct lnet_sel_prio) of another generation are stale; never 0
 * @ln_health_ops: the health module's, or NULL (include/lnet/health.h)
 * @ln_resendq: messages waiting to be sent again, oldest first
 * @ln_resend_work: sends them (lnet/resend.c)
 * @ln_ni_recoveryq: local NIs in recovery (health/recovery.c)
 * @ln_peer_ni_recoveryq: peer NIs in recovery
 */
struct lnet {
	spinlock_t		ln_lock;	/* see top of file */
	struct mutex		ln_api_mutex;	/* configuration */
	enum lnet_state		ln_state;
	int			ln_users;
	bool			ln_ctl_ref;
	u64			ln_interface_cookie;
	struct list_head	ln_nets;
	struct lnet_ni		*ln_loni;
	struct list_head	ln_lnds;
	struct lnet_portal	ln_portals[LNET_MAX_PORTALS];
	struct xarray		ln_mds;
	u32			ln_md_next;
	struct list_head	ln_peers;
	struct rhashtable	ln_peer_nis;
	struct delayed_work	ln_peer_reaper;
	struct lnet_counters_common ln_counters;
	u32			ln_drops[LNET_DROP_COUNT];
	wait_queue_head_t	ln_msgs_wq;
	struct lnet_handle_md	ln_ping_mdh;
	struct lnet_ping_info	*ln_ping_info;
	unsigned int		ln_ping_size;
	u32			ln_ping_seq;
	struct lnet_handle_md	ln_push_mdh[LNET_PUSH_BUFS];
	unsigned int		ln_push_posted;
	bool			ln_push_force;
	struct workqueue_struct	*ln_dc_wq;
	wait_queue_head_t	ln_dc_waitq;
	struct lnet_dc_stats	ln_dc_stats;
	struct list_head	ln_udsp;
	unsigned int		ln_udsp_count;
	u32			ln_udsp_gen;
	struct list_head	ln_rsp_list;	/* MDs awaiting ACK/REPLY */
	struct delayed_work	ln_rsp_work;	/* expires them */
	const struct lnet_health_ops __rcu *ln_health_ops;
	struct list_head	ln_resendq;
	struct work_struct	ln_resend_work;
	struct list_head	ln_ni_recoveryq;
	struct list_head	ln_peer_ni_recoveryq;
};

extern struct lnet the_lnet;

#endif /* _LNET_LIB_TYPES_H */
