/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The LNet selftest wire (../shared/spec/lnet-selftest.md sections 2-3):
 * every selftest RPC message is 160 bytes, a 24-byte header and a body
 * whose layout its type decides, written in the sender's byte order
 * (SBO) and told apart by its magic.
 *
 * We send little-endian (every Lustre host is) and accept both orders:
 * lst_msg_unpack() turns a received message into little-endian in place,
 * field by field as its type's layout says, so that everything after it
 * reads fields with the lst_get*() accessors at the offsets below, which
 * are the spec's body offsets.
 */
#ifndef _LNET_SELFTEST_WIRE_H
#define _LNET_SELFTEST_WIRE_H

#include <linux/types.h>
#include <asm/unaligned.h>

#define LST_MSG_MAGIC		0xeeb0f00dU
#define LST_MSG_VERSION		1
#define LST_MSG_SIZE		160
#define LST_BODY_OFF		24	/* msg_body */
#define LST_BODY_SIZE		(LST_MSG_SIZE - LST_BODY_OFF)

/* Header offsets (spec 3.1). */
#define LST_HDR_MAGIC		0
#define LST_HDR_VERSION		4
#define LST_HDR_TYPE		8
#define LST_HDR_RESERVED0	12
#define LST_HDR_RESERVED1	16
#define LST_HDR_FEATS		20

/* Session features (spec 3.7). */
#define LST_FEAT_BULK_LEN	0x1U
#define LST_FEATS_MASK		LST_FEAT_BULK_LEN

/* Portals and services (spec 2.1). */
#define LST_PORTAL_TEST		50	/* BRW and PING requests; lazy */
#define LST_PORTAL_FRAMEWORK	51	/* framework requests; lazy */
#define LST_PORTAL_RDMA		52	/* replies and bulk, by match bits */

enum lst_service {
	LST_SVC_DEBUG		= 0,
	LST_SVC_MAKE_SESSION	= 1,
	LST_SVC_REMOVE_SESSION	= 2,
	LST_SVC_BATCH		= 3,
	LST_SVC_TEST		= 4,
	LST_SVC_QUERY_STAT	= 5,
	LST_SVC_JOIN		= 6,
	LST_SVC_FRAMEWORK_MAX	= 10,	/* below: portal 51 */
	LST_SVC_BRW		= 11,
	LST_SVC_PING		= 12,
};

/* The portal a service's requests go to (spec 2.1). */
static inline unsigned int lst_service_portal(unsigned int svc)
{
	return svc < LST_SVC_FRAMEWORK_MAX ? LST_PORTAL_FRAMEWORK :
					     LST_PORTAL_TEST;
}

/* Message types (spec 3.2): a request is even, its reply the next. */
enum lst_msg_type {
	LST_MSG_MKSN_REQST	= 0,
	LST_MSG_MKSN_REPLY	= 1,
	LST_MSG_RMSN_REQST	= 2,
	LST_MSG_RMSN_REPLY	= 3,
	LST_MSG_BATCH_REQST	= 4,
	LST_MSG_BATCH_REPLY	= 5,
	LST_MSG_STAT_REQST	= 6,
	LST_MSG_STAT_REPLY	= 7,
	LST_MSG_TEST_REQST	= 8,
	LST_MSG_TEST_REPLY	= 9,
	LST_MSG_DEBUG_REQST	= 10,
	LST_MSG_DEBUG_REPLY	= 11,
	LST_MSG_BRW_REQST	= 12,
	LST_MSG_BRW_REPLY	= 13,
	LST_MSG_PING_REQST	= 14,
	LST_MSG_PING_REPLY	= 15,
	LST_MSG_JOIN_REQST	= 16,
	LST_MSG_JOIN_REPLY	= 17,
	LST_MSG_TYPES
};

/* A service's request type (its reply is the next), or LST_MSG_TYPES. */
static inline u32 lst_service_req_type(unsigned int svc)
{
	switch (svc) {
	case LST_SVC_DEBUG:		return LST_MSG_DEBUG_REQST;
	case LST_SVC_MAKE_SESSION:	return LST_MSG_MKSN_REQST;
	case LST_SVC_REMOVE_SESSION:	return LST_MSG_RMSN_REQST;
	case LST_SVC_BATCH:		return LST_MSG_BATCH_REQST;
	case LST_SVC_TEST:		return LST_MSG_TEST_REQST;
	case LST_SVC_QUERY_STAT:	return LST_MSG_STAT_REQST;
	case LST_SVC_JOIN:		return LST_MSG_JOIN_REQST;
	case LST_SVC_BRW:		return LST_MSG_BRW_REQST;
	case LST_SVC_PING:		return LST_MSG_PING_REQST;
	default:			return LST_MSG_TYPES;
	}
}

/* Session id (spec 3.3): 16 bytes, two u64; "none" is all ones. */
#define LST_SID_SIZE		16
#define LST_SID_NID		0
#define LST_SID_STAMP		8
#define LST_NAME_SIZE		32	/* session and group names, NUL in */

/*
 * Body offsets (spec 3.4, 3.5).  Every request body starts with its
 * rpyid; every framework reply with its status and the node's sid.
 */
#define LST_REQ_RPYID		0
#define LST_REQ_BULKID		8	/* BRW and TEST requests */
#define LST_REQ_SID		8	/* framework requests but TEST */
#define LST_REP_STATUS		0
#define LST_REP_SID		4	/* framework replies */

#define LST_MKSN_FORCE		24
#define LST_MKSN_NAME		28
#define LST_MKSN_REP_TIMEOUT	20
#define LST_MKSN_REP_NAME	24

#define LST_DBG_FLAGS		24
#define LST_DBG_REP_TIMEOUT	20
#define LST_DBG_REP_NBATCH	24
#define LST_DBG_REP_NAME	28

#define LST_BAR_BID		24
#define LST_BAR_OPC		32	/* 1 RUN, 2 STOP, 3 QUERY */
#define LST_BAR_TESTIDX		36
#define LST_BAR_ARG		40
#define LST_BAR_REP_ACTIVE	20
#define LST_BAR_REP_TIME	24

#define LST_STR_TYPE		24
#define LST_STR_REP_FW		20	/* struct sfw_counters, 20 bytes */
#define LST_STR_REP_RPC		40	/* struct srpc_counters, 36 bytes */
#define LST_STR_REP_LNET	76	/* lnet_counters_common, 60 bytes */

#define LST_TSR_SID		16
#define LST_TSR_BID		32
#define LST_TSR_SERVICE		40
#define LST_TSR_LOOP		44
#define LST_TSR_CONCUR		48
#define LST_TSR_IS_CLIENT	52
#define LST_TSR_STOP_ONERR	53
#define LST_TSR_NDEST		54
#define LST_TSR_U		58	/* 12 bytes: one of the three below */
/* ... ping: png_size u32 @0, png_flags u32 @4 */
/* ... bulk v0 (no BULK_LEN): blk_opc u32 @0, blk_npg u32 @4, blk_flags u32 @8 */
/* ... bulk v1 (BULK_LEN): blk_opc u16 @0, blk_flags u16 @2, blk_len u32 @4,
 *     blk_offset u32 @8
 */

#define LST_JOIN_GROUP		24
#define LST_JOIN_REP_TIMEOUT	20
#define LST_JOIN_REP_SESSION	24

#define LST_BRW_RW		16	/* 1 READ, 2 WRITE */
#define LST_BRW_LEN		20
#define LST_BRW_FLAGS		24	/* check mode 1..4 */

#define LST_PING_MAGIC		0xbabefaceU
#define LST_PNR_MAGIC		8
#define LST_PNR_SEQ		12
#define LST_PNR_TIME_SEC	16
#define LST_PNR_TIME_NSEC	24
#define LST_PNR_REP_MAGIC	4
#define LST_PNR_REP_SEQ		8

/* A destination list entry (lnet_process_id_packed): nid u64, pid u32. */
#define LST_DEST_SIZE		12
#define LST_DESTS_PER_PAGE	341	/* entries per 4096-byte chunk */

/**
 * struct lst_msg_info - a received message's header
 * @type: msg_type (enum lst_msg_type)
 * @version: msg_version (a framework server answers EPROTO unless 1)
 * @feats: msg_ses_feats
 * @swapped: the sender's byte order was big-endian: data patterns
 *	(BRW magic) come swapped too
 */
struct lst_msg_info {
	u32	type;
	u32	version;
	u32	feats;
	bool	swapped;
};

int lst_msg_unpack(void *msg, unsigned int len, struct lst_msg_info *mi);
unsigned int lst_body_size(u32 type);
void lst_msg_init(void *msg, u32 type, u32 feats);
void lst_dests_unpack(void *dests, unsigned int n, bool swapped);

/* Fields of a message in little-endian, at body offset @off. */
static inline u8 *lst_body(void *msg)
{
	return (u8 *)msg + LST_BODY_OFF;
}

static inline u16 lst_get16(const void *msg, unsigned int off)
{
	return get_unaligned_le16((const u8 *)msg + LST_BODY_OFF + off);
}

static inline u32 lst_get32(const void *msg, unsigned int off)
{
	return get_unaligned_le32((const u8 *)msg + LST_BODY_OFF + off);
}

static inline u64 lst_get64(const void *msg, unsigned int off)
{
	return get_unaligned_le64((const u8 *)msg + LST_BODY_OFF + off);
}

static inline void lst_put16(void *msg, unsigned int off, u16 v)
{
	put_unaligned_le16(v, (u8 *)msg + LST_BODY_OFF + off);
}

static inline void lst_put32(void *msg, unsigned int off, u32 v)
{
	put_unaligned_le32(v, (u8 *)msg + LST_BODY_OFF + off);
}

static inline void lst_put64(void *msg, unsigned int off, u64 v)
{
	put_unaligned_le64(v, (u8 *)msg + LST_BODY_OFF + off);
}

#endif /* _LNET_SELFTEST_WIRE_H */
