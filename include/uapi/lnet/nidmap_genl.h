/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The "nidmap" generic netlink family: lnet_nidmap.ko's configuration
 * (Documentation/nidmap.rst, "Configuration").  Every command needs
 * CAP_NET_ADMIN; attributes are validated strictly and a refusal comes
 * with an extack message.
 */
#ifndef _UAPI_LNET_NIDMAP_GENL_H
#define _UAPI_LNET_NIDMAP_GENL_H

#define NIDMAP_GENL_NAME	"nidmap"
#define NIDMAP_GENL_VERSION	1
#define NIDMAP_GENL_NID_LEN	64	/* a NID string with its NUL */
#define NIDMAP_GENL_NAME_LEN	64	/* a target name with its NUL */
#define NIDMAP_GENL_NIDS_MAX	16	/* NIDs of one target */
#define NIDMAP_GENL_TARGETS_MAX	256	/* targets of one REGISTER */

enum nidmap_genl_cmd {
	NIDMAP_CMD_UNSPEC,
	NIDMAP_CMD_PUBLISH,	/* NIDMAP_A_ENABLE, limits: be a publisher */
	NIDMAP_CMD_SUBSCRIBE,	/* NIDMAP_A_PUBLISHER, or ENABLE 0 to stop */
	NIDMAP_CMD_REGISTER,	/* PUBLISHER, NAME, NIDS or DELETE; or TARGETS */
	NIDMAP_CMD_SHOW,	/* the roles' state and the counters */
	NIDMAP_CMD_TABLE,	/* dump: NIDMAP_A_SOURCE's entries */
	NIDMAP_CMD_LOOKUP,	/* NIDMAP_A_NAME: its NIDMAP_A_ENTRY */
	NIDMAP_CMD_KEY_ADD,	/* KEY_ID, KEY_SECRET: a key to sign and check */
	NIDMAP_CMD_KEY_USE,	/* KEY_ID: sign with this key from now on */
	NIDMAP_CMD_KEY_DEL,	/* KEY_ID: forget the key */
	NIDMAP_CMD_REGISTRATIONS, /* dump: the registrations this node made
				   * through this family, each PUBLISHER
				   * and ENTRY (version 0)
				   */
	__NIDMAP_CMD_MAX,
};

#define NIDMAP_CMD_MAX (__NIDMAP_CMD_MAX - 1)

/* Which table NIDMAP_CMD_TABLE lists. */
enum nidmap_genl_source {
	NIDMAP_SOURCE_PUBLISHER = 1,	/* the table this node publishes */
	NIDMAP_SOURCE_SUBSCRIBER,	/* this node's copy */
	NIDMAP_SOURCE_DNS,		/* a TXT record (LOOKUP only) */
};

enum nidmap_genl_attr {
	NIDMAP_A_UNSPEC,
	NIDMAP_A_ENABLE,	/* u8: 1 start the role, 0 stop it */
	NIDMAP_A_MAX_ENTRIES,	/* u32: publisher's live entries */
	NIDMAP_A_MAX_TOMBSTONES, /* u32: publisher's deletions kept */
	NIDMAP_A_PUBLISHER,	/* string: the publisher's NID */
	NIDMAP_A_NAME,		/* string: a target */
	NIDMAP_A_NIDS,		/* nest of NIDMAP_A_NID: failover order */
	NIDMAP_A_NID,		/* string */
	NIDMAP_A_DELETE,	/* flag: REGISTER removes the target */
	NIDMAP_A_SOURCE,	/* u32: enum nidmap_genl_source */
	NIDMAP_A_PUB,		/* nest of NIDMAP_A_STATE_* (SHOW) */
	NIDMAP_A_SUB,		/* nest of NIDMAP_A_STATE_* (SHOW) */
	NIDMAP_A_COUNTERS,	/* nest of NIDMAP_A_CTR_* (SHOW) */
	NIDMAP_A_ENTRY,		/* nest of NIDMAP_A_ENT_* (TABLE) */
	NIDMAP_A_STATUS,	/* u32: REGISTER's answer (enum nidmap_status) */
	NIDMAP_A_VERSION,	/* u64: REGISTER: the table's version after */
	NIDMAP_A_PAD,
	NIDMAP_A_TOMB_AGE,	/* u32: publisher's seconds a deletion is kept */
	NIDMAP_A_RELAY,		/* flag: SUBSCRIBE says RELAY (can relay) */
	NIDMAP_A_MAX_SUBS,	/* u32: publisher's subscribers kept */
	NIDMAP_A_RELAY_FANOUT,	/* u32: publisher's relay plan k (1: chain) */
	NIDMAP_A_TARGETS,	/* REGISTER: nest of up to 256 nests (any
				 * type), each NAME and NIDS or DELETE
				 */
	NIDMAP_A_ROUTER,	/* flag: REGISTER's target is a router */
	NIDMAP_A_NETS,		/* nest of NIDMAP_A_NET: the nets it routes to */
	NIDMAP_A_NET,		/* string: a net ("o2ib") */
	NIDMAP_A_ROUTES,	/* flag: SUBSCRIBE installs the table's routes */
	NIDMAP_A_KEY_ID,	/* u32, not 0: a key's id (the trailer's) */
	NIDMAP_A_KEY_SECRET,	/* binary, 16 to 64 bytes: its secret */
	NIDMAP_A_KEYS,		/* nest of NIDMAP_A_KEY_ID: keys held (SHOW) */
	NIDMAP_A_KEY_SIGNING,	/* u32: the key signing, 0 none (SHOW) */
	__NIDMAP_A_MAX,
};

#define NIDMAP_A_MAX (__NIDMAP_A_MAX - 1)

enum nidmap_genl_state_attr {
	NIDMAP_A_STATE_UNSPEC,
	NIDMAP_A_STATE_EPOCH,		/* u64 */
	NIDMAP_A_STATE_VERSION,		/* u64 */
	NIDMAP_A_STATE_HORIZON,		/* u64 (publisher) */
	NIDMAP_A_STATE_ENTRIES,		/* u32 */
	NIDMAP_A_STATE_TOMBSTONES,	/* u32 (publisher) */
	NIDMAP_A_STATE_SUBSCRIBERS,	/* u32 (publisher) */
	NIDMAP_A_STATE_PUBLISHER,	/* string (subscriber) */
	NIDMAP_A_STATE_SUBSCRIBED,	/* u8 (subscriber): SUBSCRIBE answered */
	NIDMAP_A_STATE_PAD,
	NIDMAP_A_STATE_RELAY,		/* u8 (subscriber): said RELAY */
	NIDMAP_A_STATE_RELAY_SET,	/* nest of NIDMAP_A_NID (subscriber) */
	NIDMAP_A_STATE_RELAYS,		/* u32 (publisher): planned relays */
	NIDMAP_A_STATE_DIRECT,		/* u32 (publisher): noticed by it */
	NIDMAP_A_STATE_DEPTH,		/* u32 (publisher): the plan's depth */
	NIDMAP_A_STATE_MAX_SUBS,	/* u32 (publisher) */
	NIDMAP_A_STATE_FANOUT,		/* u32 (publisher): the plan's k */
	NIDMAP_A_STATE_ROUTES,		/* u8 (subscriber): installs routes */
	NIDMAP_A_STATE_ROUTES_INSTALLED, /* u32 (subscriber): routes it owns */
	NIDMAP_A_STATE_ROUTES_ADDED,	/* u32 (subscriber): routes it added */
	NIDMAP_A_STATE_ROUTES_REMOVED,	/* u32 (subscriber): and removed */
	NIDMAP_A_STATE_ROUTES_SKIPPED,	/* u32 (subscriber): nets not routed */
	NIDMAP_A_STATE_MAX_ENTRIES,	/* u32 (publisher): as PUBLISH set it */
	NIDMAP_A_STATE_MAX_TOMBSTONES,	/* u32 (publisher) */
	NIDMAP_A_STATE_TOMB_AGE,	/* u32 (publisher): seconds, 0 none */
	__NIDMAP_A_STATE_MAX,
};

#define NIDMAP_A_STATE_MAX (__NIDMAP_A_STATE_MAX - 1)

/* Counters (u64 each), in this order; names in lnetctl's output. */
enum nidmap_genl_ctr {
	NIDMAP_A_CTR_UNSPEC,
	NIDMAP_A_CTR_RX,		/* messages received */
	NIDMAP_A_CTR_RX_DROPPED,	/* malformed, unexpected: dropped */
	NIDMAP_A_CTR_TX,		/* messages sent */
	NIDMAP_A_CTR_TX_ERRORS,		/* sends that failed */
	NIDMAP_A_CTR_TIMEOUTS,		/* requests without an answer */
	NIDMAP_A_CTR_NOTICES_SENT,
	NIDMAP_A_CTR_NOTICES_RCVD,
	NIDMAP_A_CTR_FETCHES,		/* FETCH answered (publisher) */
	NIDMAP_A_CTR_REGISTERS,		/* REGISTER answered (publisher) */
	NIDMAP_A_CTR_REFUSED,		/* requests answered with an error */
	NIDMAP_A_CTR_PAGES,		/* FETCH_REPLY pages applied */
	NIDMAP_A_CTR_RESYNCS,		/* full resyncs started */
	NIDMAP_A_CTR_SUBS_DROPPED,	/* subscribers dropped: notices failed */
	NIDMAP_A_CTR_PAD,
	NIDMAP_A_CTR_RELAYED,		/* notices a relay forwarded */
	NIDMAP_A_CTR_RELAYED_RCVD,	/* RELAYED notices received */
	NIDMAP_A_CTR_AUTH_SIGNED,	/* messages sent with an AUTH trailer */
	NIDMAP_A_CTR_AUTH_VERIFIED,	/* received, MAC and window passed */
	NIDMAP_A_CTR_AUTH_UNSIGNED,	/* refused: no AUTH trailer */
	NIDMAP_A_CTR_AUTH_FORGED,	/* refused: unknown key, wrong MAC */
	NIDMAP_A_CTR_AUTH_REPLAYED,	/* refused: seen, or an old incarnation */
	NIDMAP_A_CTR_AUTH_STALE,	/* refused: stamp outside the clocks' window */
	NIDMAP_A_CTR_AUTH_NOROOM,	/* refused: too many senders to follow */
	NIDMAP_A_CTR_RENEWED,		/* registrations sent again, a NID moved */
	NIDMAP_A_CTR_RENEW_REFUSED,	/* such a renewal refused by the publisher */
	__NIDMAP_A_CTR_MAX,
};

#define NIDMAP_A_CTR_MAX (__NIDMAP_A_CTR_MAX - 1)

enum nidmap_genl_entry_attr {
	NIDMAP_A_ENT_UNSPEC,
	NIDMAP_A_ENT_NAME,	/* string */
	NIDMAP_A_ENT_VERSION,	/* u64: of the entry's last change */
	NIDMAP_A_ENT_FLAGS,	/* u32: NIDMAP_R_* (ROUTER) */
	NIDMAP_A_ENT_NIDS,	/* nest of NIDMAP_A_NID */
	NIDMAP_A_ENT_PAD,
	NIDMAP_A_ENT_NETS,	/* nest of NIDMAP_A_NET (a router's) */
	__NIDMAP_A_ENT_MAX,
};

#define NIDMAP_A_ENT_MAX (__NIDMAP_A_ENT_MAX - 1)

#endif /* _UAPI_LNET_NIDMAP_GENL_H */
