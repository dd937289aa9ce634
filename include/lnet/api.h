/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The in-kernel LNet API: what an LNet user (Lustre's ptlrpc, the test
 * module, the ping code) programs.  It is Portals-style, like Lustre's
 * lnet/api.h:
 *
 * - A memory descriptor (MD) describes a buffer: one virtually contiguous
 *   kernel buffer, or an array of page fragments (struct bio_vec).
 * - A match entry (ME) attaches an MD to one of the 64 portals with match
 *   and ignore bits and a source filter, so that incoming PUTs and GETs can
 *   find it (wire spec section 8).
 * - An MD that is only a source or sink of one's own operations is bound
 *   (lnet_md_bind()) instead of attached.
 * - Every operation on an MD ends in an event passed to the MD's handler.
 *
 * See Documentation/api.rst.
 */
#ifndef _LNET_API_H
#define _LNET_API_H

#include <linux/types.h>

#include <lnet/hdr.h>
#include <lnet/nid.h>

/* A process: NID and PID.  LNET_ANY_NID / LNET_PID_ANY are wildcards. */
struct lnet_processid {
	struct lnet_nid	nid;
	u32		pid;
};

/* Handle of an MD; LNET_MD_HANDLE_NONE is "no MD". */
struct lnet_handle_md {
	u64	cookie;
};

#define LNET_MD_HANDLE_NONE	((struct lnet_handle_md) { .cookie = ~0ULL })

static inline bool lnet_md_handle_is_none(struct lnet_handle_md h)
{
	return h.cookie == ~0ULL;
}

/* MD options (struct lnet_md.options). */
#define LNET_MD_OP_PUT		0x0001	/* accept incoming PUTs */
#define LNET_MD_OP_GET		0x0002	/* serve incoming GETs */
#define LNET_MD_MANAGE_REMOTE	0x0004	/* use the offset the peer sends */
#define LNET_MD_TRUNCATE	0x0010	/* accept/serve less than asked */
#define LNET_MD_ACK_DISABLE	0x0020	/* never ACK a PUT into this MD */
/* one operation takes at most max_size; exhausted once less is left */
#define LNET_MD_MAX_SIZE	0x0080
#define LNET_MD_KIOV		0x0100	/* start is a struct bio_vec array */
#define LNET_MD_OPTIONS_ALL	(LNET_MD_OP_PUT | LNET_MD_OP_GET |	\
				 LNET_MD_MANAGE_REMOTE |		\
				 LNET_MD_TRUNCATE | LNET_MD_ACK_DISABLE |	\
				 LNET_MD_MAX_SIZE | LNET_MD_KIOV)

/* Threshold value for "any number of operations". */
#define LNET_MD_THRESH_INF	(-1)

/* Most page fragments one MD may have (a 1 MiB payload in 4 KiB pages). */
#define LNET_MAX_IOV		256

enum lnet_event_kind {
	LNET_EVENT_GET = 1,	/* a GET was served from the MD */
	LNET_EVENT_PUT,		/* a PUT was deposited into the MD */
	LNET_EVENT_REPLY,	/* a REPLY was received into the MD */
	LNET_EVENT_ACK,		/* an ACK for a PUT from the MD arrived */
	LNET_EVENT_SEND,	/* a PUT or GET from the MD left this node */
	LNET_EVENT_UNLINK,	/* the idle MD was unlinked by the user */
};

/**
 * struct lnet_event - what happened to an MD
 * @type: what happened
 * @status: 0, or -errno if the operation failed
 * @unlinked: the MD is unlinked; this is its last event
 * @initiator: who started the operation (for PUT/GET: the peer)
 * @target: the other end (for SEND/ACK/REPLY: the peer)
 * @source: a message received: the NID it came from (the peer NI, where
 *	@initiator names the peer by its primary NID)
 * @pt_index: portal of the operation
 * @match_bits: match bits of the operation
 * @rlength: bytes asked for (PUT length, GET sink length)
 * @mlength: bytes actually moved (after truncation)
 * @offset: offset in the MD where the data went or came from
 * @hdr_data: the PUT's out-of-band data
 * @md_handle: the MD
 * @md_start: the MD's start, as given by the user
 * @md_user_ptr: the MD's user_ptr, as given by the user
 */
struct lnet_event {
	enum lnet_event_kind	type;
	int			status;
	bool			unlinked;
	struct lnet_processid	initiator;
	struct lnet_processid	target;
	struct lnet_nid		source;
	u32			pt_index;
	u64			match_bits;
	u32			rlength;
	u32			mlength;
	u32			offset;
	u64			hdr_data;
	struct lnet_handle_md	md_handle;
	void			*md_start;
	void			*md_user_ptr;
};

/*
 * Event callback.  It runs in atomic context with LNet's resource lock
 * held, so that events of one MD arrive in order and the one with
 * @unlinked set is the last: it must not sleep and must not call LNet
 * (defer such work, e.g. to a workqueue).
 */
typedef void (*lnet_handler_t)(struct lnet_event *ev);

/**
 * struct lnet_md - memory descriptor, as the user describes it
 * @start: a kernel buffer, or with %LNET_MD_KIOV a struct bio_vec array
 * @length: bytes of the buffer, or with %LNET_MD_KIOV entries of the array
 * @threshold: operations before the MD is exhausted, or %LNET_MD_THRESH_INF
 * @options: LNET_MD_* flags
 * @user_ptr: passed back in every event
 * @handler: event callback, may be NULL
 * @max_size: with %LNET_MD_MAX_SIZE (and local offsets: no
 *	%LNET_MD_MANAGE_REMOTE), one operation takes at most this many
 *	bytes (more is truncated, or dropped without %LNET_MD_TRUNCATE),
 *	and the MD is exhausted once fewer are left past its offset: one
 *	MD takes many operations, each in its own part of the buffer, and
 *	is unlinked when it is full
 *
 * LNet copies the description; the memory it points to must stay valid
 * until the MD is unlinked (the event with @unlinked set).
 */
struct lnet_md {
	void		*start;
	unsigned int	length;
	int		threshold;
	unsigned int	options;
	void		*user_ptr;
	lnet_handler_t	handler;
	unsigned int	max_size;
};

enum lnet_ins_pos {
	LNET_INS_AFTER,		/* append to the portal's list */
	LNET_INS_BEFORE,	/* insert at the head */
};

enum lnet_unlink {
	LNET_RETAIN,		/* keep the MD when its threshold reaches 0 */
	LNET_UNLINK,		/* unlink it when exhausted and idle */
};

enum lnet_ack_req {
	LNET_NOACK_REQ,
	LNET_ACK_REQ,
};

struct lnet_me;

int lnet_ni_init(void);
void lnet_ni_fini(void);

struct lnet_me *lnet_me_attach(unsigned int portal,
			       const struct lnet_processid *match_id,
			       u64 match_bits, u64 ignore_bits,
			       enum lnet_ins_pos pos);
int lnet_md_attach(struct lnet_me *me, const struct lnet_md *umd,
		   enum lnet_unlink unlink, struct lnet_handle_md *handle);
int lnet_md_bind(const struct lnet_md *umd, enum lnet_unlink unlink,
		 struct lnet_handle_md *handle);
int lnet_md_unlink(struct lnet_handle_md handle);

int lnet_put(const struct lnet_nid *self, struct lnet_handle_md mdh,
	     enum lnet_ack_req ack, const struct lnet_processid *target,
	     unsigned int portal, u64 match_bits, unsigned int offset,
	     u64 hdr_data);
int lnet_get(const struct lnet_nid *self, struct lnet_handle_md mdh,
	     const struct lnet_processid *target, unsigned int portal,
	     u64 match_bits, unsigned int offset);

struct notifier_block;

/*
 * An NI of ours took a new NID: its interface's address changed (a DHCP
 * renew) and the NI followed it (lnet/ni-addr.c).  Passed to the
 * callbacks of lnet_nid_change_notifier_register() (event 0).
 */
struct lnet_nid_change {
	struct lnet_nid	old_nid;
	struct lnet_nid	new_nid;
};

int lnet_nid_change_notifier_register(struct notifier_block *nb);
int lnet_nid_change_notifier_unregister(struct notifier_block *nb);

#endif /* _LNET_API_H */
