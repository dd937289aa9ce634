/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nidmap: a versioned target-to-NID table published over LNet
 * (Documentation/nidmap.rst).  This header is the wire format (wire.c)
 * and the table (table.c); both are compiled unchanged into the fuzz
 * harness (wire.c only) and the KUnit suites.
 */
#ifndef _NIDMAP_NIDMAP_H
#define _NIDMAP_NIDMAP_H

#include <linux/types.h>
#include <lnet/nid.h>

/* Wire constants (Documentation/nidmap.rst, "Wire format"). */
#define NIDMAP_PORTAL		53		/* requests, notices and replies */
#define NIDMAP_MAGIC		0x4e4d4150U	/* "NMAP" */
#define NIDMAP_PROTO		1		/* the one protocol version */

/* Match bits on NIDMAP_PORTAL. */
#define NIDMAP_MB_PUBLISHER	0x1ULL		/* FETCH, REGISTER, SUBSCRIBE */
#define NIDMAP_MB_SUBSCRIBER	0x2ULL		/* NOTICE */
#define NIDMAP_MB_TEST		0x4ULL		/* debugfs send/sink hook */
#define NIDMAP_MB_REPLY		0x8000000000000000ULL	/* | the request's seq */

/* Message types. */
enum nidmap_type {
	NIDMAP_NOTICE		= 1,
	NIDMAP_FETCH		= 2,
	NIDMAP_FETCH_REPLY	= 3,
	NIDMAP_REGISTER		= 4,
	NIDMAP_SUBSCRIBE	= 5,
	NIDMAP_STATUS		= 6,
	NIDMAP_TYPE_MAX		= NIDMAP_STATUS,
};

/* Header flags; bits 0..15 must be understood, 16..31 may be ignored. */
#define NIDMAP_F_AUTH		0x0001U	/* the trailer is an auth trailer */
#define NIDMAP_F_MORE		0x0002U	/* FETCH_REPLY: fetch again */
#define NIDMAP_F_FULL		0x0004U	/* a full resync (FETCH, FETCH_REPLY) */
#define NIDMAP_F_UNSUB		0x0008U	/* SUBSCRIBE: stop notices */
#define NIDMAP_F_KNOWN		0x000fU
#define NIDMAP_F_MUST		0xffffU	/* unknown bits here: refused */
#define NIDMAP_F_RELAYED	0x10000U /* NOTICE: forwarded by a relay */
#define NIDMAP_F_RELAY		0x20000U /* SUBSCRIBE: the sender can relay */

/* Record flags. */
#define NIDMAP_R_DELETED	0x0001U	/* tombstone (FETCH_REPLY), or remove */
#define NIDMAP_R_ROUTER		0x0002U	/* the target is a router */
#define NIDMAP_R_KNOWN		0x0003U

/* Status codes (STATUS replies). */
enum nidmap_status {
	NIDMAP_ST_OK		= 0,
	NIDMAP_ST_PROTO		= 1,	/* malformed message */
	NIDMAP_ST_VERSION	= 2,	/* protocol version not spoken */
	NIDMAP_ST_TOOBIG	= 3,	/* beyond a limit */
	NIDMAP_ST_PERM		= 4,	/* not the owner of the target */
	NIDMAP_ST_AUTH		= 5,	/* authentication missing or wrong */
	NIDMAP_ST_STALE		= 6,	/* epoch or incarnation mismatch */
	NIDMAP_ST_BUSY		= 7,	/* rate-limited: retry later */
	NIDMAP_ST_NOSPC		= 8,	/* table full */
	NIDMAP_ST_NOENT		= 9,	/* no such target */
	NIDMAP_ST_NOTSUPP	= 10,	/* message type not served here */
};

/* Limits. */
#define NIDMAP_HDR_SIZE		72
#define NIDMAP_REC_HDR_SIZE	16
#define NIDMAP_NAME_MAX		64	/* with the NUL */
#define NIDMAP_NIDS_MAX		16
#define NIDMAP_NETS_MAX		16
#define NIDMAP_NID_SIZE		20
#define NIDMAP_REC_MAX		(NIDMAP_REC_HDR_SIZE + NIDMAP_NAME_MAX + \
				 NIDMAP_NIDS_MAX * NIDMAP_NID_SIZE +	\
				 NIDMAP_NETS_MAX * 4)
#define NIDMAP_REC_MIN		(NIDMAP_REC_HDR_SIZE + 8)
#define NIDMAP_TRAILER_MAX	256
#define NIDMAP_FETCH_BODY	8
#define NIDMAP_ROOM_MIN		(NIDMAP_HDR_SIZE + NIDMAP_REC_MAX + \
				 NIDMAP_TRAILER_MAX)
#define NIDMAP_MSG_MAX		1048576U	/* LNET_MTU */
#define NIDMAP_REGISTER_MAX	256	/* records in one REGISTER */
#define NIDMAP_RELAY_MAX	64	/* NIDs in one NOTICE */
#define NIDMAP_TARGETS_MAX	262144	/* live entries of a table */

/**
 * struct nidmap_hdr - a message header, in host byte order
 * @type: enum nidmap_type
 * @flags: NIDMAP_F_*
 * @length: whole message, header, body and trailer
 * @incarnation: the sender's instance
 * @seq: the sender's message number within @incarnation
 * @reply_to: the request's @seq in a reply, else 0
 * @epoch: the table's history (versions compare within one epoch)
 * @version: a table version (meaning per type)
 * @base: a second version or index (meaning per type)
 * @count: records or NIDs in the body
 * @status: enum nidmap_status in STATUS, else 0
 * @trailer_len: bytes of trailer at the end of the message
 * @swabbed: the sender's byte order is not ours (decode only)
 */
struct nidmap_hdr {
	u16	type;
	u32	flags;
	u32	length;
	u64	incarnation;
	u64	seq;
	u64	reply_to;
	u64	epoch;
	u64	version;
	u64	base;
	u32	count;
	u16	status;
	u16	trailer_len;
	bool	swabbed;
};

/**
 * struct nidmap_rec - one table record, in host byte order
 * @version: the version of the entry's last change (0 in REGISTER)
 * @flags: NIDMAP_R_*
 * @nnids: NIDs in @nids, in failover order
 * @nnets: nets in @nets (the nets a router routes to)
 * @name: the target's name, NUL-terminated
 * @nids: the NIDs
 * @nets: the routed nets
 */
struct nidmap_rec {
	u64		version;
	u16		flags;
	u8		nnids;
	u8		nnets;
	char		name[NIDMAP_NAME_MAX];
	struct lnet_nid	nids[NIDMAP_NIDS_MAX];
	u32		nets[NIDMAP_NETS_MAX];
};

/**
 * struct nidmap_msg - a decoded message: the header and where its body is
 * @hdr: the header
 * @body: the body, in the sender's byte order
 * @body_len: its length
 * @trailer: the trailer (NULL if none)
 * @room: FETCH: the reply room the requester posted
 */
struct nidmap_msg {
	struct nidmap_hdr	hdr;
	const u8		*body;
	size_t			body_len;
	const u8		*trailer;
	u32			room;
};

/**
 * struct nidmap_iter - a walk over a decoded message's body
 * @msg: the message
 * @off: the next item's offset in the body
 * @index: the next item's index
 */
struct nidmap_iter {
	const struct nidmap_msg	*msg;
	size_t			off;
	u32			index;
};

/**
 * struct nidmap_enc - a message being encoded, in host byte order
 * @buf: the buffer
 * @size: its size
 * @len: bytes written
 * @hdr: the header written at nidmap_enc_finish()
 */
struct nidmap_enc {
	u8			*buf;
	size_t			size;
	size_t			len;
	struct nidmap_hdr	hdr;
};

int nidmap_name_check(const char *name, size_t size);
int nidmap_nid_check(const struct lnet_nid *nid);
int nidmap_dns_parse(const char *list, size_t len, const char *name,
		     struct nidmap_rec *rec);
int nidmap_rec_check(const struct nidmap_rec *rec, bool reg);
bool nidmap_rec_move_nid(struct nidmap_rec *rec, const struct lnet_nid *old_nid,
			 const struct lnet_nid *new_nid);
size_t nidmap_rec_size(const struct nidmap_rec *rec);

int nidmap_msg_decode(const void *buf, size_t len, struct nidmap_msg *msg);
void nidmap_iter_init(struct nidmap_iter *it, const struct nidmap_msg *msg);
bool nidmap_iter_rec(struct nidmap_iter *it, struct nidmap_rec *rec);
bool nidmap_iter_nid(struct nidmap_iter *it, struct lnet_nid *nid);

int nidmap_enc_init(struct nidmap_enc *enc, void *buf, size_t size,
		    const struct nidmap_hdr *hdr);
int nidmap_enc_rec(struct nidmap_enc *enc, const struct nidmap_rec *rec);
int nidmap_enc_nid(struct nidmap_enc *enc, const struct lnet_nid *nid);
int nidmap_enc_fetch(struct nidmap_enc *enc, u32 room);
int nidmap_enc_finish(struct nidmap_enc *enc, u16 trailer_len);
int nidmap_msg_swab(void *buf, size_t len);
enum nidmap_status nidmap_errno_to_status(int rc);

/* The table (table.c). */
struct nidmap_table;

/**
 * struct nidmap_limits - a table's bounds
 * @max_entries: live entries, at most NIDMAP_TARGETS_MAX
 * @max_tombstones: deletions remembered for deltas; beyond, the oldest
 *	is forgotten and the horizon moves up
 * @max_tomb_age: seconds a deletion is remembered (0: no age bound);
 *	older ones are forgotten as above
 */
struct nidmap_limits {
	u32	max_entries;
	u32	max_tombstones;
	u32	max_tomb_age;
};

/*
 * Called by nidmap_table_extract() for each record in version order;
 * returns 0 to go on, -ENOSPC to stop before this record (page full),
 * or another error to stop and return it.
 */
typedef int (*nidmap_emit_t)(void *arg, const struct nidmap_rec *rec);

/* Gives nidmap_table_apply() its next record; false: no more. */
typedef bool (*nidmap_next_t)(void *arg, struct nidmap_rec *rec);

/**
 * struct nidmap_extract - what nidmap_table_extract() found
 * @full: the delta could not be served: a full resync starts (records
 *	from version 0; the receiver drops what the resync does not bring)
 * @more: stopped on a full page: fetch again from @upto
 * @upto: the version the receiver has after applying the records
 * @horizon: the resync horizon to fetch the next page with (in a resync)
 * @nrecs: records emitted
 */
struct nidmap_extract {
	bool	full;
	bool	more;
	u64	upto;
	u64	horizon;
	u32	nrecs;
};

/* nidmap_table_extract()'s @resync when the fetch is not a resync. */
#define NIDMAP_NO_RESYNC	U64_MAX

struct nidmap_table *nidmap_table_create(const struct nidmap_limits *lim,
					 u64 epoch);
void nidmap_table_destroy(struct nidmap_table *t);
void nidmap_table_set_clock(struct nidmap_table *t, u64 (*clock)(void));
int nidmap_table_set(struct nidmap_table *t, const struct nidmap_rec *rec,
		     const struct lnet_nid *by, u64 *version);
int nidmap_table_delete(struct nidmap_table *t, const char *name,
			const struct lnet_nid *by, u64 *version);
int nidmap_table_apply(struct nidmap_table *t, nidmap_next_t next, void *arg,
		       const struct lnet_nid *by, u64 by_inc, u32 *index);
int nidmap_table_lookup(struct nidmap_table *t, const char *name,
			struct nidmap_rec *rec);
int nidmap_table_extract(struct nidmap_table *t, u64 since, u64 resync,
			 nidmap_emit_t emit, void *arg,
			 struct nidmap_extract *res);
u64 nidmap_table_version(struct nidmap_table *t);
u64 nidmap_table_horizon(struct nidmap_table *t);
u64 nidmap_table_epoch(struct nidmap_table *t);
u32 nidmap_table_count(struct nidmap_table *t, u32 *tombstones);

#endif /* _NIDMAP_NIDMAP_H */
