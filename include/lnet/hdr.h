/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The LNet message header (wire protocol specification, section 2): the
 * host-order form the stack works with, the two little-endian wire forms
 * (72-byte nid4 header, 96-byte nid16 header) and the codec between them.
 *
 * The wire header is always little-endian.  Large NIDs are byte strings
 * and are copied, never swapped.
 */
#ifndef _LNET_HDR_H
#define _LNET_HDR_H

#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <linux/types.h>

#include <lnet/nid.h>

/* Process IDs (spec 1.7). */
#define LNET_PID_LUSTRE		12345U		/* every kernel LNet instance */
#define LNET_PID_ANY		0xffffffffU	/* wildcard */
#define LNET_PID_USERFLAG	0x80000000U	/* userspace peer */

#define LNET_MTU		1048576U	/* largest PUT/REPLY payload */
#define LNET_MAX_PORTALS	64U		/* portal indexes are 0..63 */

#define LNET_HDR_NID4_SIZE	72
#define LNET_HDR_NID16_SIZE	96

/*
 * A socklnd V1 HELLO (spec 4.5) is a nid4 header whose dest_nid bytes hold
 * this magic (u32 LE) and version (u16 LE major, u16 LE minor).
 */
#define LNET_HDR_HELLO_MAGIC	0xeebc0dedU
#define LNET_HDR_HELLO_MAJOR	1
#define LNET_HDR_HELLO_MINOR	0

/**
 * enum lnet_msg_type - LNet message type, header field "type"
 * @LNET_MSG_ACK: acknowledges a PUT
 * @LNET_MSG_PUT: sends data
 * @LNET_MSG_GET: asks for data
 * @LNET_MSG_REPLY: answers a GET
 * @LNET_MSG_HELLO: socklnd V1 handshake only; never a data message
 */
enum lnet_msg_type {
	LNET_MSG_ACK	= 0,
	LNET_MSG_PUT	= 1,
	LNET_MSG_GET	= 2,
	LNET_MSG_REPLY	= 3,
	LNET_MSG_HELLO	= 4,
};

/**
 * struct lnet_handle_wire - memory descriptor handle as carried in headers
 * @wh_interface_cookie: cookie of the LNet instance that made the handle
 * @wh_object_cookie: cookie of the MD within that instance
 *
 * Host order.  A handle is opaque to everyone but its creator, who gets it
 * back verbatim.  All ones (%LNET_WIRE_HANDLE_NONE) means "no handle".
 */
struct lnet_handle_wire {
	u64	wh_interface_cookie;
	u64	wh_object_cookie;
};

#define LNET_WIRE_HANDLE_NONE ((struct lnet_handle_wire) {		\
	.wh_interface_cookie = ~0ULL, .wh_object_cookie = ~0ULL })

static inline bool lnet_wire_handle_is_none(const struct lnet_handle_wire *wh)
{
	return wh->wh_interface_cookie == ~0ULL &&
	       wh->wh_object_cookie == ~0ULL;
}

/**
 * struct lnet_hdr_ack - fields of an ACK
 * @dst_wmd: the acknowledged PUT's @ack_wmd
 * @match_bits: the acknowledged PUT's match bits
 * @mlength: bytes the PUT deposited
 */
struct lnet_hdr_ack {
	struct lnet_handle_wire	dst_wmd;
	u64			match_bits;
	u32			mlength;
};

/**
 * struct lnet_hdr_put - fields of a PUT
 * @ack_wmd: where to send the ACK; %LNET_WIRE_HANDLE_NONE for no ACK
 * @match_bits: matched against the target's match entries
 * @hdr_data: 64 bits of out-of-band user data
 * @ptl_index: portal index, below %LNET_MAX_PORTALS
 * @offset: remote offset
 */
struct lnet_hdr_put {
	struct lnet_handle_wire	ack_wmd;
	u64			match_bits;
	u64			hdr_data;
	u32			ptl_index;
	u32			offset;
};

/**
 * struct lnet_hdr_get - fields of a GET
 * @return_wmd: the requester's reply MD, echoed in the REPLY
 * @match_bits: matched against the target's match entries
 * @ptl_index: portal index, below %LNET_MAX_PORTALS
 * @src_offset: remote offset to read from
 * @sink_length: most bytes the requester accepts
 */
struct lnet_hdr_get {
	struct lnet_handle_wire	return_wmd;
	u64			match_bits;
	u32			ptl_index;
	u32			src_offset;
	u32			sink_length;
};

/**
 * struct lnet_hdr_reply - fields of a REPLY
 * @dst_wmd: the answered GET's @return_wmd
 */
struct lnet_hdr_reply {
	struct lnet_handle_wire	dst_wmd;
};

/**
 * struct lnet_hdr_hello - fields of a socklnd V1 HELLO
 * @incarnation: the sender's incarnation
 * @type: socklnd connection type
 */
struct lnet_hdr_hello {
	u64	incarnation;
	u32	type;
};

/**
 * struct lnet_hdr - an LNet message header, in host order
 * @dest_nid: final destination NID
 * @src_nid: original source NID
 * @dest_pid: destination process id
 * @src_pid: source process id
 * @type: message type; selects the member of @msg
 * @payload_length: bytes of payload after the header
 * @msg: per-type fields
 * @msg.ack: for %LNET_MSG_ACK
 * @msg.put: for %LNET_MSG_PUT
 * @msg.get: for %LNET_MSG_GET
 * @msg.reply: for %LNET_MSG_REPLY
 * @msg.hello: for %LNET_MSG_HELLO
 *
 * NIDs are always large, whatever the wire format, so that IPv6 works.
 */
struct lnet_hdr {
	struct lnet_nid		dest_nid;
	struct lnet_nid		src_nid;
	u32			dest_pid;
	u32			src_pid;
	enum lnet_msg_type	type;
	u32			payload_length;
	union {
		struct lnet_hdr_ack	ack;
		struct lnet_hdr_put	put;
		struct lnet_hdr_get	get;
		struct lnet_hdr_reply	reply;
		struct lnet_hdr_hello	hello;
	} msg;
};

/*
 * Wire forms, little-endian and packed (spec 2.2 - 2.5).  The codec below
 * is the only code that should need these.
 */

/* struct lnet_handle_wire on the wire. */
struct lnet_handle_wire_le {
	__le64	wh_interface_cookie;
	__le64	wh_object_cookie;
} __packed;

struct lnet_hdr_ack_wire {
	struct lnet_handle_wire_le	dst_wmd;
	__le64				match_bits;
	__le32				mlength;
} __packed;

struct lnet_hdr_put_wire {
	struct lnet_handle_wire_le	ack_wmd;
	__le64				match_bits;
	__le64				hdr_data;
	__le32				ptl_index;
	__le32				offset;
} __packed;

struct lnet_hdr_get_wire {
	struct lnet_handle_wire_le	return_wmd;
	__le64				match_bits;
	__le32				ptl_index;
	__le32				src_offset;
	__le32				sink_length;
} __packed;

struct lnet_hdr_reply_wire {
	struct lnet_handle_wire_le	dst_wmd;
} __packed;

struct lnet_hdr_hello_wire {
	__le64	incarnation;
	__le32	type;
} __packed;

/* The 40-byte per-type part; bytes after the active member are zero. */
union lnet_hdr_msg_wire {
	struct lnet_hdr_ack_wire	ack;
	struct lnet_hdr_put_wire	put;
	struct lnet_hdr_get_wire	get;
	struct lnet_hdr_reply_wire	reply;
	struct lnet_hdr_hello_wire	hello;
	u8				bytes[40];
} __packed;

/* nid4 header: socklnd V1-V3 and o2iblnd. */
struct lnet_hdr_nid4 {
	__le64			dest_nid;
	__le64			src_nid;
	__le32			dest_pid;
	__le32			src_pid;
	__le32			type;
	__le32			payload_length;
	union lnet_hdr_msg_wire	msg;
} __packed;

/* nid16 header: socklnd V4. */
struct lnet_hdr_nid16 {
	struct lnet_nid		dest_nid;
	struct lnet_nid		src_nid;
	__le32			dest_pid;
	__le32			src_pid;
	__le32			type;
	__le32			payload_length;
	union lnet_hdr_msg_wire	msg;
} __packed;

/* Spec 2.5 */
static_assert(sizeof(struct lnet_handle_wire_le) == 16);
static_assert(offsetof(struct lnet_handle_wire_le, wh_interface_cookie) == 0);
static_assert(offsetof(struct lnet_handle_wire_le, wh_object_cookie) == 8);

/* Spec 2.4, offsets relative to msg */
static_assert(offsetof(struct lnet_hdr_put_wire, ack_wmd) == 0);
static_assert(offsetof(struct lnet_hdr_put_wire, match_bits) == 16);
static_assert(offsetof(struct lnet_hdr_put_wire, hdr_data) == 24);
static_assert(offsetof(struct lnet_hdr_put_wire, ptl_index) == 32);
static_assert(offsetof(struct lnet_hdr_put_wire, offset) == 36);
static_assert(sizeof(struct lnet_hdr_put_wire) == 40);

static_assert(offsetof(struct lnet_hdr_get_wire, return_wmd) == 0);
static_assert(offsetof(struct lnet_hdr_get_wire, match_bits) == 16);
static_assert(offsetof(struct lnet_hdr_get_wire, ptl_index) == 24);
static_assert(offsetof(struct lnet_hdr_get_wire, src_offset) == 28);
static_assert(offsetof(struct lnet_hdr_get_wire, sink_length) == 32);
static_assert(sizeof(struct lnet_hdr_get_wire) == 36);

static_assert(offsetof(struct lnet_hdr_ack_wire, dst_wmd) == 0);
static_assert(offsetof(struct lnet_hdr_ack_wire, match_bits) == 16);
static_assert(offsetof(struct lnet_hdr_ack_wire, mlength) == 24);
static_assert(sizeof(struct lnet_hdr_ack_wire) == 28);

static_assert(offsetof(struct lnet_hdr_reply_wire, dst_wmd) == 0);
static_assert(sizeof(struct lnet_hdr_reply_wire) == 16);

static_assert(offsetof(struct lnet_hdr_hello_wire, incarnation) == 0);
static_assert(offsetof(struct lnet_hdr_hello_wire, type) == 8);
static_assert(sizeof(struct lnet_hdr_hello_wire) == 12);

static_assert(sizeof(union lnet_hdr_msg_wire) == 40);

/* Spec 2.2 */
static_assert(offsetof(struct lnet_hdr_nid4, dest_nid) == 0);
static_assert(offsetof(struct lnet_hdr_nid4, src_nid) == 8);
static_assert(offsetof(struct lnet_hdr_nid4, dest_pid) == 16);
static_assert(offsetof(struct lnet_hdr_nid4, src_pid) == 20);
static_assert(offsetof(struct lnet_hdr_nid4, type) == 24);
static_assert(offsetof(struct lnet_hdr_nid4, payload_length) == 28);
static_assert(offsetof(struct lnet_hdr_nid4, msg) == 32);
static_assert(sizeof(struct lnet_hdr_nid4) == LNET_HDR_NID4_SIZE);

/* Spec 2.3 */
static_assert(offsetof(struct lnet_hdr_nid16, dest_nid) == 0);
static_assert(offsetof(struct lnet_hdr_nid16, src_nid) == 20);
static_assert(offsetof(struct lnet_hdr_nid16, dest_pid) == 40);
static_assert(offsetof(struct lnet_hdr_nid16, src_pid) == 44);
static_assert(offsetof(struct lnet_hdr_nid16, type) == 48);
static_assert(offsetof(struct lnet_hdr_nid16, payload_length) == 52);
static_assert(offsetof(struct lnet_hdr_nid16, msg) == 56);
static_assert(sizeof(struct lnet_hdr_nid16) == LNET_HDR_NID16_SIZE);

/**
 * enum lnet_hdr_drop_reason - why a received header was rejected
 * @LNET_HDR_DROP_NONE: not rejected
 * @LNET_HDR_DROP_BAD_TYPE: type is not ACK, PUT, GET, REPLY or HELLO
 * @LNET_HDR_DROP_HELLO: a HELLO where a data message was expected
 * @LNET_HDR_DROP_HELLO_VERSION: V1 HELLO magic or version is wrong
 * @LNET_HDR_DROP_NOT_HELLO: another type where a V1 HELLO was expected
 * @LNET_HDR_DROP_BAD_NID: a NID that is malformed: a nid4 with bits
 *	63..56 set, or a large NID with an address longer than 16 bytes
 * @LNET_HDR_DROP_DEST_ANY: dest_nid is the ANY wildcard
 * @LNET_HDR_DROP_SRC_ANY: src_nid is the ANY wildcard
 * @LNET_HDR_DROP_PAYLOAD_TOO_LONG: PUT or REPLY payload above %LNET_MTU
 * @LNET_HDR_DROP_PAYLOAD_NOT_EMPTY: ACK or GET with a payload
 * @LNET_HDR_DROP_BAD_PORTAL: PUT or GET portal index not below
 *	%LNET_MAX_PORTALS
 * @LNET_HDR_DROP_COUNT: number of reasons, for sizing counter arrays
 *
 * Checks are made in the order listed; the first that fails is reported.
 */
enum lnet_hdr_drop_reason {
	LNET_HDR_DROP_NONE,
	LNET_HDR_DROP_BAD_TYPE,
	LNET_HDR_DROP_HELLO,
	LNET_HDR_DROP_HELLO_VERSION,
	LNET_HDR_DROP_NOT_HELLO,
	LNET_HDR_DROP_BAD_NID,
	LNET_HDR_DROP_DEST_ANY,
	LNET_HDR_DROP_SRC_ANY,
	LNET_HDR_DROP_PAYLOAD_TOO_LONG,
	LNET_HDR_DROP_PAYLOAD_NOT_EMPTY,
	LNET_HDR_DROP_BAD_PORTAL,
	LNET_HDR_DROP_COUNT
};

int lnet_hdr_to_nid4(const struct lnet_hdr *hdr, void *buf);
void lnet_hdr_to_nid16(const struct lnet_hdr *hdr, void *buf);
int lnet_hdr_from_nid4(struct lnet_hdr *hdr, const void *buf,
		       enum lnet_hdr_drop_reason *why);
int lnet_hdr_from_nid16(struct lnet_hdr *hdr, const void *buf,
			enum lnet_hdr_drop_reason *why);

int lnet_hdr_hello_to_nid4(const struct lnet_hdr *hdr, void *buf);
int lnet_hdr_hello_from_nid4(struct lnet_hdr *hdr, const void *buf,
			     enum lnet_hdr_drop_reason *why);

const char *lnet_hdr_drop_reason_str(enum lnet_hdr_drop_reason why);

#endif /* _LNET_HDR_H */
