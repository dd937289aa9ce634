/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ko2iblnd wire format (wire spec section 5): the 48-byte message header,
 * the bodies, connection parameters and the reject structure, with the
 * pure functions that pack, check and byte-swap them (wire.c).
 *
 * All multi-byte fields are in the sender's byte order (SBO): we send
 * host order, and a receiver that sees the magic swapped swaps every
 * field.  Hence host-order types in the structures below.  The embedded
 * LNet header is always little-endian (spec 2.1) and is left to the core.
 */
#ifndef _KO2IBLND_WIRE_H
#define _KO2IBLND_WIRE_H

#include <linux/build_bug.h>
#include <linux/types.h>

#include <lnet/hdr.h>

#define IBLND_MSG_MAGIC		0x0BE91B91U
#define IBLND_PROTO_MAGIC	0x45726963U	/* LNET_PROTO_MAGIC */
#define IBLND_MSG_VERSION_1	0x11
#define IBLND_MSG_VERSION_2	0x12
#define IBLND_MSG_VERSION	IBLND_MSG_VERSION_2

#define IBLND_MSG_SIZE		4096	/* every message fits in this */
#define IBLND_MAX_RDMA_FRAGS	257	/* LNET_MAX_IOV + 1 */
#define IBLND_SERVICE_PORT	987
#define IBLND_MAX_QUEUE_DEPTH	255
#define IBLND_MSG_QUEUE_SIZE_V1	8	/* V1: fixed queue depth, */
#define IBLND_CREDITS_HIGHWATER_V1 7	/* and credit-return point */

/* ibm_type (spec 5.4) */
#define IBLND_MSG_CONNREQ	0xc0
#define IBLND_MSG_CONNACK	0xc1
#define IBLND_MSG_NOOP		0xd0
#define IBLND_MSG_IMMEDIATE	0xd1
#define IBLND_MSG_PUT_REQ	0xd2
#define IBLND_MSG_PUT_NAK	0xd3
#define IBLND_MSG_PUT_ACK	0xd4
#define IBLND_MSG_PUT_DONE	0xd5
#define IBLND_MSG_GET_REQ	0xd6
#define IBLND_MSG_GET_DONE	0xd7

/* ibr_why (spec 5.7) */
#define IBLND_REJECT_CONN_RACE		1
#define IBLND_REJECT_NO_RESOURCES	2
#define IBLND_REJECT_FATAL		3
#define IBLND_REJECT_CONN_UNCOMPAT	4
#define IBLND_REJECT_CONN_STALE		5
#define IBLND_REJECT_RDMA_FRAGS		6
#define IBLND_REJECT_MSG_QUEUE_SIZE	7
#define IBLND_REJECT_INVALID_SRV_ID	8
#define IBLND_REJECT_EARLY		9

struct kib_connparams {
	u16	ibcp_queue_depth;
	u16	ibcp_max_frags;
	u32	ibcp_max_msg_size;
} __packed;

struct kib_immediate_msg {
	u8	ibim_hdr[LNET_HDR_NID4_SIZE];	/* LNet header, LE */
	u8	ibim_payload[];
} __packed;

struct kib_rdma_frag {
	u32	rf_nob;		/* bytes */
	u64	rf_addr;	/* remote IOVA; not 8-byte aligned on the wire */
} __packed;

struct kib_rdma_desc {
	u32			rd_key;		/* rkey */
	u32			rd_nfrags;	/* 1..IBLND_MAX_RDMA_FRAGS */
	struct kib_rdma_frag	rd_frags[];
} __packed;

struct kib_putreq_msg {
	u8	ibprm_hdr[LNET_HDR_NID4_SIZE];
	u64	ibprm_cookie;
} __packed;

struct kib_putack_msg {
	u64			ibpam_src_cookie;
	u64			ibpam_dst_cookie;
	struct kib_rdma_desc	ibpam_rd;
} __packed;

struct kib_get_msg {
	u8			ibgm_hdr[LNET_HDR_NID4_SIZE];
	u64			ibgm_cookie;
	struct kib_rdma_desc	ibgm_rd;
} __packed;

struct kib_completion_msg {
	u64	ibcm_cookie;
	s32	ibcm_status;	/* >= 0: bytes; < 0: -errno */
} __packed;

struct kib_msg {
	u32	ibm_magic;
	u16	ibm_version;
	u8	ibm_type;
	u8	ibm_credits;	/* returned to the receiver */
	u32	ibm_nob;	/* header included */
	u32	ibm_cksum;	/* 0: none */
	u64	ibm_srcnid;	/* nid4 */
	u64	ibm_srcstamp;	/* sender's incarnation */
	u64	ibm_dstnid;
	u64	ibm_dststamp;	/* receiver's incarnation, as known */
	union {
		struct kib_connparams		connparams;
		struct kib_immediate_msg	immediate;
		struct kib_putreq_msg		putreq;
		struct kib_putack_msg		putack;
		struct kib_get_msg		get;
		struct kib_completion_msg	completion;
	} __packed ibm_u;
} __packed;

struct kib_rej {
	u32			ibr_magic;
	u16			ibr_version;
	u8			ibr_why;
	u8			ibr_padding;
	u64			ibr_incarnation;
	struct kib_connparams	ibr_cp;
} __packed;

#define IBLND_MSG_HDR_SIZE	offsetof(struct kib_msg, ibm_u)	/* 48 */
#define IBLND_CONNPARAMS_SIZE	(IBLND_MSG_HDR_SIZE + 8)	/* 56 */
#define IBLND_IMMEDIATE_HDR_SIZE \
	offsetof(struct kib_msg, ibm_u.immediate.ibim_payload)	/* 120 */
#define IBLND_IMMEDIATE_MAX	(IBLND_MSG_SIZE - IBLND_IMMEDIATE_HDR_SIZE)
#define IBLND_REJ_SIZE		24
#define IBLND_REJ_V1_SIZE	8	/* magic, version, why, padding */

static_assert(IBLND_MSG_HDR_SIZE == 48);
static_assert(sizeof(struct kib_rej) == IBLND_REJ_SIZE);

/* Why wire.c refused a message: index of a named counter. */
enum kib_wire_err {
	KIB_WIRE_OK,
	KIB_WIRE_SHORT,		/* fewer bytes than a header / nob */
	KIB_WIRE_BAD_MAGIC,
	KIB_WIRE_BAD_VERSION,
	KIB_WIRE_BAD_NOB,	/* nob < 48, > received, < the type's size */
	KIB_WIRE_BAD_CKSUM,
	KIB_WIRE_BAD_TYPE,
	KIB_WIRE_BAD_SRCNID,	/* LNET_NID_ANY */
	KIB_WIRE_BAD_FRAGS,	/* rd_nfrags 0, > 257, or beyond nob */
	KIB_WIRE_ERR_COUNT
};

/* wire.c */
const char *kib_wire_err_str(enum kib_wire_err err);
size_t kib_msg_min_size(u8 type);
u32 kib_msg_cksum(const void *msg, u32 nob);
void kib_msg_pack(struct kib_msg *msg, u16 version, u8 type, u8 credits,
		  u32 nob, u64 srcnid, u64 srcstamp, u64 dstnid, u64 dststamp,
		  bool cksum);
enum kib_wire_err kib_msg_unpack(struct kib_msg *msg, u32 received);
u32 kib_rdma_desc_size(u32 nfrags);
u64 kib_rdma_desc_nob(const struct kib_rdma_desc *rd);
void kib_rej_pack(struct kib_rej *rej, u16 version, u8 why, u64 incarnation,
		  u16 queue_depth);
int kib_rej_unpack(const void *priv, size_t len, struct kib_rej *rej);
u32 kib_nidhash(u64 nid4);

#endif /* _KO2IBLND_WIRE_H */
