// SPDX-License-Identifier: GPL-2.0
/*
 * The ko2iblnd wire codec (spec 5.2-5.7, 5.10, 5.11): message header and
 * bodies, checksum, reject private data and the connection-race NID hash.
 * Pure functions on buffers, so KUnit can check them against vectors
 * built from the spec.
 *
 * Integers are in the sender's byte order (SBO): we send host order and
 * swap, in place, everything a peer of the other byte order sent, except
 * the magic (left as received, the clue to the peer's order) and the
 * embedded LNet headers (always little-endian, left to the core).
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/swab.h>
#include <kunit/visibility.h>

#include "wire.h"

#define KIB_PUTACK_RD_OFF	offsetof(struct kib_msg, ibm_u.putack.ibpam_rd)
#define KIB_GET_RD_OFF		offsetof(struct kib_msg, ibm_u.get.ibgm_rd)
#define KIB_COMPLETION_SIZE \
	(IBLND_MSG_HDR_SIZE + sizeof(struct kib_completion_msg))
#define KIB_PUTREQ_SIZE \
	(IBLND_MSG_HDR_SIZE + sizeof(struct kib_putreq_msg))

static_assert(IBLND_CONNPARAMS_SIZE == 56);
static_assert(IBLND_IMMEDIATE_HDR_SIZE == 120);
static_assert(KIB_PUTREQ_SIZE == 128);
static_assert(KIB_COMPLETION_SIZE == 60);
static_assert(KIB_PUTACK_RD_OFF == 64);
static_assert(KIB_GET_RD_OFF == 128);
static_assert(sizeof(struct kib_rdma_frag) == 12);
static_assert(sizeof(struct kib_rdma_desc) == 8);

static const char * const kib_wire_err_names[KIB_WIRE_ERR_COUNT] = {
	[KIB_WIRE_OK]		= "ok",
	[KIB_WIRE_SHORT]	= "short",
	[KIB_WIRE_BAD_MAGIC]	= "bad_magic",
	[KIB_WIRE_BAD_VERSION]	= "bad_version",
	[KIB_WIRE_BAD_NOB]	= "bad_nob",
	[KIB_WIRE_BAD_CKSUM]	= "bad_cksum",
	[KIB_WIRE_BAD_TYPE]	= "bad_type",
	[KIB_WIRE_BAD_SRCNID]	= "bad_srcnid",
	[KIB_WIRE_BAD_FRAGS]	= "bad_frags",
};

/**
 * kib_wire_err_str() - short name of a refusal reason
 * @err: from kib_msg_unpack()
 *
 * Return: a lower-case name usable as a counter name ("short",
 * "bad_magic", ...), or "unknown" for a value out of range.
 */
const char *kib_wire_err_str(enum kib_wire_err err)
{
	if ((unsigned int)err >= KIB_WIRE_ERR_COUNT)
		return "unknown";
	return kib_wire_err_names[err];
}
EXPORT_SYMBOL_IF_KUNIT(kib_wire_err_str);

/**
 * kib_msg_min_size() - smallest valid ibm_nob of a message type (spec 5.4)
 * @type: ibm_type
 *
 * For PUT_ACK and GET_REQ this covers the RDMA descriptor's 8-byte header
 * but no fragment; the fragments are checked against ibm_nob separately.
 *
 * Return: the size in bytes, or 0 for an unknown type.
 */
size_t kib_msg_min_size(u8 type)
{
	switch (type) {
	case IBLND_MSG_CONNREQ:
	case IBLND_MSG_CONNACK:
		return IBLND_CONNPARAMS_SIZE;
	case IBLND_MSG_NOOP:
		return IBLND_MSG_HDR_SIZE;
	case IBLND_MSG_IMMEDIATE:
		return IBLND_IMMEDIATE_HDR_SIZE;
	case IBLND_MSG_PUT_REQ:
		return KIB_PUTREQ_SIZE;
	case IBLND_MSG_PUT_NAK:
	case IBLND_MSG_PUT_DONE:
	case IBLND_MSG_GET_DONE:
		return KIB_COMPLETION_SIZE;
	case IBLND_MSG_PUT_ACK:
		return KIB_PUTACK_RD_OFF + kib_rdma_desc_size(0);
	case IBLND_MSG_GET_REQ:
		return KIB_GET_RD_OFF + kib_rdma_desc_size(0);
	default:
		return 0;
	}
}
EXPORT_SYMBOL_IF_KUNIT(kib_msg_min_size);

/**
 * kib_msg_cksum() - checksum of a message (spec 5.11)
 * @msg: the message as on the wire, ibm_cksum zeroed by the caller
 * @nob: bytes to sum, ibm_nob
 *
 * Per byte: rotate the 32-bit sum left by one bit, then add the byte as
 * an unsigned value (Lustre on kernels since 6.2, built with
 * -funsigned-char).  A sum of 0 is sent as 1, 0 meaning "no checksum".
 *
 * Return: the checksum, never 0.
 */
u32 kib_msg_cksum(const void *msg, u32 nob)
{
	const u8 *p = msg;
	u32 sum = 0;
	u32 i;

	for (i = 0; i < nob; i++)
		sum = rol32(sum, 1) + p[i];
	return sum ? sum : 1;
}
EXPORT_SYMBOL_IF_KUNIT(kib_msg_cksum);

/*
 * The same, adding each byte as a signed char, as Lustre does on x86
 * kernels before 6.2: bytes >= 0x80 are sign-extended.
 */
static u32 kib_msg_cksum_signed(const void *msg, u32 nob)
{
	const s8 *p = msg;
	u32 sum = 0;
	u32 i;

	for (i = 0; i < nob; i++)
		sum = rol32(sum, 1) + (u32)(s32)p[i];
	return sum ? sum : 1;
}

/**
 * kib_rdma_desc_size() - bytes of an RDMA descriptor on the wire
 * @nfrags: fragments, at most %IBLND_MAX_RDMA_FRAGS
 *
 * Return: 8 + 12 * @nfrags.
 */
u32 kib_rdma_desc_size(u32 nfrags)
{
	return sizeof(struct kib_rdma_desc) +
	       nfrags * sizeof(struct kib_rdma_frag);
}
EXPORT_SYMBOL_IF_KUNIT(kib_rdma_desc_size);

/**
 * kib_rdma_desc_nob() - capacity of an RDMA descriptor
 * @rd: in host order, rd_nfrags already validated (kib_msg_unpack())
 *
 * Return: the sum of the fragments' rf_nob.
 */
u64 kib_rdma_desc_nob(const struct kib_rdma_desc *rd)
{
	u64 nob = 0;
	u32 i;

	for (i = 0; i < rd->rd_nfrags; i++)
		nob += rd->rd_frags[i].rf_nob;
	return nob;
}
EXPORT_SYMBOL_IF_KUNIT(kib_rdma_desc_nob);

/**
 * kib_msg_pack() - fill in a message header (spec 5.2)
 * @msg: the message; its body (ibm_u) already filled by the caller
 * @version: %IBLND_MSG_VERSION_1 or %IBLND_MSG_VERSION_2
 * @type: IBLND_MSG_*
 * @credits: credits returned to the receiver
 * @nob: total bytes, header included
 * @srcnid: own NI's nid4
 * @srcstamp: own incarnation
 * @dstnid: the receiver's nid4
 * @dststamp: the receiver's incarnation as known, or 0
 * @cksum: compute the checksum over @nob bytes (last), else send 0
 *
 * Every field is written in host order with magic %IBLND_MSG_MAGIC.
 */
void kib_msg_pack(struct kib_msg *msg, u16 version, u8 type, u8 credits,
		  u32 nob, u64 srcnid, u64 srcstamp, u64 dstnid, u64 dststamp,
		  bool cksum)
{
	msg->ibm_magic = IBLND_MSG_MAGIC;
	msg->ibm_version = version;
	msg->ibm_type = type;
	msg->ibm_credits = credits;
	msg->ibm_nob = nob;
	msg->ibm_cksum = 0;
	msg->ibm_srcnid = srcnid;
	msg->ibm_srcstamp = srcstamp;
	msg->ibm_dstnid = dstnid;
	msg->ibm_dststamp = dststamp;
	if (cksum)
		msg->ibm_cksum = kib_msg_cksum(msg, nob);
}
EXPORT_SYMBOL_IF_KUNIT(kib_msg_pack);

/* Byte-swap an RDMA descriptor in place; rd_nfrags is still swapped. */
static void kib_rdma_desc_swab(struct kib_rdma_desc *rd)
{
	u32 i;

	rd->rd_key = swab32(rd->rd_key);
	rd->rd_nfrags = swab32(rd->rd_nfrags);
	for (i = 0; i < rd->rd_nfrags; i++) {
		rd->rd_frags[i].rf_nob = swab32(rd->rd_frags[i].rf_nob);
		rd->rd_frags[i].rf_addr = swab64(rd->rd_frags[i].rf_addr);
	}
}

/* Byte-swap every SBO field of a validated message but its magic. */
static void kib_msg_swab(struct kib_msg *msg)
{
	msg->ibm_version = swab16(msg->ibm_version);
	msg->ibm_nob = swab32(msg->ibm_nob);
	msg->ibm_cksum = swab32(msg->ibm_cksum);
	msg->ibm_srcnid = swab64(msg->ibm_srcnid);
	msg->ibm_srcstamp = swab64(msg->ibm_srcstamp);
	msg->ibm_dstnid = swab64(msg->ibm_dstnid);
	msg->ibm_dststamp = swab64(msg->ibm_dststamp);

	switch (msg->ibm_type) {
	case IBLND_MSG_CONNREQ:
	case IBLND_MSG_CONNACK: {
		struct kib_connparams *cp = &msg->ibm_u.connparams;

		cp->ibcp_queue_depth = swab16(cp->ibcp_queue_depth);
		cp->ibcp_max_frags = swab16(cp->ibcp_max_frags);
		cp->ibcp_max_msg_size = swab32(cp->ibcp_max_msg_size);
		break;
	}
	case IBLND_MSG_PUT_REQ:
		msg->ibm_u.putreq.ibprm_cookie =
			swab64(msg->ibm_u.putreq.ibprm_cookie);
		break;
	case IBLND_MSG_PUT_ACK:
		msg->ibm_u.putack.ibpam_src_cookie =
			swab64(msg->ibm_u.putack.ibpam_src_cookie);
		msg->ibm_u.putack.ibpam_dst_cookie =
			swab64(msg->ibm_u.putack.ibpam_dst_cookie);
		kib_rdma_desc_swab(&msg->ibm_u.putack.ibpam_rd);
		break;
	case IBLND_MSG_GET_REQ:
		msg->ibm_u.get.ibgm_cookie =
			swab64(msg->ibm_u.get.ibgm_cookie);
		kib_rdma_desc_swab(&msg->ibm_u.get.ibgm_rd);
		break;
	case IBLND_MSG_PUT_NAK:
	case IBLND_MSG_PUT_DONE:
	case IBLND_MSG_GET_DONE:
		msg->ibm_u.completion.ibcm_cookie =
			swab64(msg->ibm_u.completion.ibcm_cookie);
		msg->ibm_u.completion.ibcm_status =
			(s32)swab32((u32)msg->ibm_u.completion.ibcm_status);
		break;
	default:	/* NOOP, IMMEDIATE: no SBO body field */
		break;
	}
}

/* Verify a non-zero checksum over the raw bytes: either char signedness. */
static bool kib_msg_cksum_ok(struct kib_msg *msg, u32 nob, u32 cksum)
{
	u32 raw = msg->ibm_cksum;
	bool ok;

	msg->ibm_cksum = 0;
	ok = kib_msg_cksum(msg, nob) == cksum ||
	     kib_msg_cksum_signed(msg, nob) == cksum;
	msg->ibm_cksum = raw;
	return ok;
}

/**
 * kib_msg_unpack() - check a received message and convert it to host order
 * @msg: the receive buffer
 * @received: bytes received
 *
 * Checks, in this order (spec 5.10): the magic in either byte order, a
 * whole header, the version, 48 <= ibm_nob <= @received, a non-zero
 * checksum (over the raw bytes; either signedness of char), a known type,
 * ibm_nob at least the type's minimum, a source NID that is not
 * LNET_NID_ANY and, for PUT_ACK and GET_REQ, 1 to 257 RDMA fragments all
 * within ibm_nob.
 *
 * If the sender's byte order is the opposite of ours, every SBO field of
 * the header and of the type's body is then swapped in place, except
 * ibm_magic, left as received to tell the caller the peer's byte order.
 * The embedded LNet headers (IMMEDIATE, PUT_REQ, GET_REQ) are always
 * little-endian and are left alone.  A refused message is left unchanged.
 *
 * Context: any; touches nothing but @msg.
 * Return: %KIB_WIRE_OK, or the reason for refusing the message.
 */
enum kib_wire_err kib_msg_unpack(struct kib_msg *msg, u32 received)
{
	struct kib_rdma_desc *rd = NULL;
	u32 rd_off = 0;
	u32 nob, cksum, nfrags;
	size_t min;
	u16 version;
	u64 srcnid;
	bool flip;

	if (received < sizeof(msg->ibm_magic))
		return KIB_WIRE_SHORT;
	if (msg->ibm_magic == IBLND_MSG_MAGIC)
		flip = false;
	else if (msg->ibm_magic == swab32(IBLND_MSG_MAGIC))
		flip = true;
	else
		return KIB_WIRE_BAD_MAGIC;
	if (received < IBLND_MSG_HDR_SIZE)
		return KIB_WIRE_SHORT;

	version = flip ? swab16(msg->ibm_version) : msg->ibm_version;
	if (version != IBLND_MSG_VERSION_1 && version != IBLND_MSG_VERSION_2)
		return KIB_WIRE_BAD_VERSION;

	nob = flip ? swab32(msg->ibm_nob) : msg->ibm_nob;
	if (nob < IBLND_MSG_HDR_SIZE || nob > received)
		return KIB_WIRE_BAD_NOB;

	cksum = flip ? swab32(msg->ibm_cksum) : msg->ibm_cksum;
	if (cksum && !kib_msg_cksum_ok(msg, nob, cksum))
		return KIB_WIRE_BAD_CKSUM;

	min = kib_msg_min_size(msg->ibm_type);
	if (!min)
		return KIB_WIRE_BAD_TYPE;
	if (nob < min)
		return KIB_WIRE_BAD_NOB;

	srcnid = flip ? swab64(msg->ibm_srcnid) : msg->ibm_srcnid;
	if (srcnid == LNET_NID_ANY)
		return KIB_WIRE_BAD_SRCNID;

	if (msg->ibm_type == IBLND_MSG_PUT_ACK) {
		rd = &msg->ibm_u.putack.ibpam_rd;
		rd_off = KIB_PUTACK_RD_OFF;
	} else if (msg->ibm_type == IBLND_MSG_GET_REQ) {
		rd = &msg->ibm_u.get.ibgm_rd;
		rd_off = KIB_GET_RD_OFF;
	}
	if (rd) {
		nfrags = flip ? swab32(rd->rd_nfrags) : rd->rd_nfrags;
		/* nfrags <= 257 first: the size below cannot overflow. */
		if (nfrags == 0 || nfrags > IBLND_MAX_RDMA_FRAGS ||
		    nob < rd_off + kib_rdma_desc_size(nfrags))
			return KIB_WIRE_BAD_FRAGS;
	}

	if (flip)
		kib_msg_swab(msg);
	return KIB_WIRE_OK;
}
EXPORT_SYMBOL_IF_KUNIT(kib_msg_unpack);

/**
 * kib_rej_pack() - fill in reject private data (spec 5.7)
 * @rej: %IBLND_REJ_SIZE bytes
 * @version: the version to tell the requester
 * @why: IBLND_REJECT_*
 * @incarnation: own incarnation, 0 if no NI was matched
 * @queue_depth: own maximum queue depth
 *
 * Host order; max_frags %IBLND_MAX_RDMA_FRAGS, max_msg_size
 * %IBLND_MSG_SIZE.
 */
void kib_rej_pack(struct kib_rej *rej, u16 version, u8 why, u64 incarnation,
		  u16 queue_depth)
{
	rej->ibr_magic = IBLND_MSG_MAGIC;
	rej->ibr_version = version;
	rej->ibr_why = why;
	rej->ibr_padding = 0;
	rej->ibr_incarnation = incarnation;
	rej->ibr_cp.ibcp_queue_depth = queue_depth;
	rej->ibr_cp.ibcp_max_frags = IBLND_MAX_RDMA_FRAGS;
	rej->ibr_cp.ibcp_max_msg_size = IBLND_MSG_SIZE;
}
EXPORT_SYMBOL_IF_KUNIT(kib_rej_pack);

/**
 * kib_rej_unpack() - decode reject private data (spec 5.7)
 * @priv: the private data of the REJ
 * @len: its length (IB pads it to 148 bytes)
 * @rej: zeroed, then filled in host order, ibr_magic included
 *
 * The magic may be %IBLND_MSG_MAGIC or %IBLND_PROTO_MAGIC, in either byte
 * order.  The incarnation and connparams are read only from at least
 * %IBLND_REJ_SIZE bytes with a version above %IBLND_MSG_VERSION_1; else
 * they stay 0.
 *
 * Return: 0, or -EPROTO if shorter than %IBLND_REJ_V1_SIZE or of unknown
 * magic.
 */
int kib_rej_unpack(const void *priv, size_t len, struct kib_rej *rej)
{
	u16 version;
	bool flip;

	memset(rej, 0, sizeof(*rej));
	if (len < IBLND_REJ_V1_SIZE)
		return -EPROTO;
	memcpy(rej, priv, IBLND_REJ_V1_SIZE);

	if (rej->ibr_magic == IBLND_MSG_MAGIC ||
	    rej->ibr_magic == IBLND_PROTO_MAGIC)
		flip = false;
	else if (rej->ibr_magic == swab32(IBLND_MSG_MAGIC) ||
		 rej->ibr_magic == swab32(IBLND_PROTO_MAGIC))
		flip = true;
	else
		return -EPROTO;

	version = flip ? swab16(rej->ibr_version) : rej->ibr_version;
	if (len >= IBLND_REJ_SIZE && version > IBLND_MSG_VERSION_1)
		memcpy((u8 *)rej + IBLND_REJ_V1_SIZE,
		       (const u8 *)priv + IBLND_REJ_V1_SIZE,
		       IBLND_REJ_SIZE - IBLND_REJ_V1_SIZE);
	if (!flip)
		return 0;

	rej->ibr_magic = swab32(rej->ibr_magic);
	rej->ibr_version = version;
	rej->ibr_incarnation = swab64(rej->ibr_incarnation);
	rej->ibr_cp.ibcp_queue_depth = swab16(rej->ibr_cp.ibcp_queue_depth);
	rej->ibr_cp.ibcp_max_frags = swab16(rej->ibr_cp.ibcp_max_frags);
	rej->ibr_cp.ibcp_max_msg_size = swab32(rej->ibr_cp.ibcp_max_msg_size);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(kib_rej_unpack);

/**
 * kib_nidhash() - NID hash deciding a connection race (spec 5.6 item 11)
 * @nid4: a 64-bit NID
 *
 * The spec's hash is ((type << 16) | num) XOR the big-endian address
 * bytes read as a little-endian u32.  A nid4 holds the net id in its high
 * 32 bits and the IPv4 address as a host-order integer in its low 32
 * bits, so the address bytes read little-endian are swab32() of that
 * integer, on any host.
 *
 * Return: (u32)(@nid4 >> 32) ^ swab32((u32)@nid4).
 */
u32 kib_nidhash(u64 nid4)
{
	return (u32)(nid4 >> 32) ^ swab32((u32)nid4);
}
EXPORT_SYMBOL_IF_KUNIT(kib_nidhash);
