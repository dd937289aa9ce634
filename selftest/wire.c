// SPDX-License-Identifier: GPL-2.0
/*
 * Selftest messages to and from the wire (selftest/wire.h): the layout of
 * each body as a list of its fields' sizes, from which a message of
 * either byte order is turned little-endian in place.
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/swab.h>

#include <kunit/visibility.h>

#include "wire.h"

/*
 * A body's fields in order: an integer of 1, 2, 4 or 8 bytes (swapped as
 * one) or, negative, an opaque run of bytes (names: -32; the TEST
 * parameters: -12, which lst_msg_unpack() swaps by their variant).  A
 * session id is two u64 ("8, 8").  A layout ends with 0.
 */
static const s8 lst_layouts[LST_MSG_TYPES][16] = {
	[LST_MSG_MKSN_REQST]	= { 8, 8, 8, 4, -32 },
	[LST_MSG_MKSN_REPLY]	= { 4, 8, 8, 4, -32 },
	[LST_MSG_RMSN_REQST]	= { 8, 8, 8 },
	[LST_MSG_RMSN_REPLY]	= { 4, 8, 8 },
	[LST_MSG_BATCH_REQST]	= { 8, 8, 8, 8, 4, 4, 4 },
	[LST_MSG_BATCH_REPLY]	= { 4, 8, 8, 4, 4 },
	[LST_MSG_STAT_REQST]	= { 8, 8, 8, 4 },
	/* status, sid, sfw_counters, srpc_counters; lst_stat_lnet follows */
	[LST_MSG_STAT_REPLY]	= { 4, 8, 8, 4, 4, 4, 4, 4,
				    4, 4, 4, 4, 4, 8, 8 },
	[LST_MSG_TEST_REQST]	= { 8, 8, 8, 8, 8, 4, 4, 4, 1, 1, 4, -12 },
	[LST_MSG_TEST_REPLY]	= { 4, 8, 8 },
	[LST_MSG_DEBUG_REQST]	= { 8, 8, 8, 4 },
	[LST_MSG_DEBUG_REPLY]	= { 4, 8, 8, 4, 4, -32 },
	[LST_MSG_BRW_REQST]	= { 8, 8, 4, 4, 4 },
	[LST_MSG_BRW_REPLY]	= { 4 },
	[LST_MSG_PING_REQST]	= { 8, 4, 4, 8, 8 },
	[LST_MSG_PING_REPLY]	= { 4, 4, 4 },
	[LST_MSG_JOIN_REQST]	= { 8, 8, 8, -32 },
	[LST_MSG_JOIN_REPLY]	= { 4, 8, 8, 4, -32 },
};

/* STAT_REPLY's lnet_counters_common (a row holds 15 fields at most). */
static const s8 lst_stat_lnet[] = { 4, 4, 4, 4, 4, 4, 4, 8, 8, 8, 8, 0 };

/* Swap the fields of @layout from @p on; return the bytes they cover. */
static unsigned int lst_swab_fields(u8 *p, const s8 *layout)
{
	unsigned int off = 0;

	for (; *layout; layout++) {
		switch (*layout) {
		case 2:
			put_unaligned(swab16(get_unaligned((u16 *)(p + off))),
				      (u16 *)(p + off));
			break;
		case 4:
			put_unaligned(swab32(get_unaligned((u32 *)(p + off))),
				      (u32 *)(p + off));
			break;
		case 8:
			put_unaligned(swab64(get_unaligned((u64 *)(p + off))),
				      (u64 *)(p + off));
			break;
		}
		off += abs(*layout);
	}
	return off;
}

/* The bytes @layout covers. */
static unsigned int lst_layout_size(const s8 *layout)
{
	unsigned int off = 0;

	for (; *layout; layout++)
		off += abs(*layout);
	return off;
}

/**
 * lst_body_size() - the size of a message type's body (spec 3.2)
 * @type: enum lst_msg_type
 *
 * Return: bytes, or 0 for an unknown type.
 */
unsigned int lst_body_size(u32 type)
{
	if (type >= LST_MSG_TYPES)
		return 0;
	return lst_layout_size(lst_layouts[type]) +
	       (type == LST_MSG_STAT_REPLY ? lst_layout_size(lst_stat_lnet) : 0);
}
EXPORT_SYMBOL_IF_KUNIT(lst_body_size);

/*
 * TEST_REQST's parameters (body offset 58), whose variant its service and
 * the session's features decide (spec 3.4): swapped after the fixed
 * fields, so tsr_service is already readable.
 */
static void lst_swab_test_param(u8 *msg, u32 feats)
{
	static const s8 ping[] = { 4, 4, -4, 0 };
	static const s8 bulk_v0[] = { 4, 4, 4, 0 };
	static const s8 bulk_v1[] = { 2, 2, 4, 4, 0 };
	u8 *u = lst_body(msg) + LST_TSR_U;

	if (lst_get32(msg, LST_TSR_SERVICE) == LST_SVC_PING)
		lst_swab_fields(u, ping);
	else if (feats & LST_FEAT_BULK_LEN)
		lst_swab_fields(u, bulk_v1);
	else
		lst_swab_fields(u, bulk_v0);
}

/**
 * lst_msg_unpack() - check a received message and make it little-endian
 * @msg: the message as received, turned little-endian in place
 * @len: the bytes received
 * @mi: out: its header
 *
 * Checks what every receiver checks (spec 2.2, 2.3): exactly
 * %LST_MSG_SIZE bytes, the magic in either order, a known type.  The
 * version and the features are the caller's to judge (a framework
 * server answers EPROTO, a client does not look).
 *
 * Return: 0; -EMSGSIZE, -EPROTO (no magic) or -EBADMSG (unknown type),
 * and then @msg is unchanged.
 */
int lst_msg_unpack(void *msg, unsigned int len, struct lst_msg_info *mi)
{
	u8 *m = msg;
	u32 magic, type;

	if (len != LST_MSG_SIZE)
		return -EMSGSIZE;
	magic = get_unaligned_le32(m + LST_HDR_MAGIC);
	if (magic != LST_MSG_MAGIC && magic != swab32(LST_MSG_MAGIC))
		return -EPROTO;
	mi->swapped = magic != LST_MSG_MAGIC;
	type = get_unaligned_le32(m + LST_HDR_TYPE);
	if (mi->swapped)
		type = swab32(type);
	if (type >= LST_MSG_TYPES)
		return -EBADMSG;
	if (mi->swapped) {
		static const s8 hdr[] = { 4, 4, 4, 4, 4, 4, 0 };
		unsigned int off;

		lst_swab_fields(m, hdr);
		off = lst_swab_fields(lst_body(m), lst_layouts[type]);
		if (type == LST_MSG_STAT_REPLY)
			lst_swab_fields(lst_body(m) + off, lst_stat_lnet);
		if (type == LST_MSG_TEST_REQST)
			lst_swab_test_param(m, get_unaligned_le32(m + LST_HDR_FEATS));
	}
	mi->type = type;
	mi->version = get_unaligned_le32(m + LST_HDR_VERSION);
	mi->feats = get_unaligned_le32(m + LST_HDR_FEATS);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(lst_msg_unpack);

/**
 * lst_msg_init() - start a message to send: zeroed, its header set
 * @msg: %LST_MSG_SIZE bytes
 * @type: enum lst_msg_type
 * @feats: the session's features
 *
 * Zero-filled whole, as the spec asks of a sender (spec 3.1: receivers
 * must not read what the type does not define, and we leave no stale
 * bytes for them to misread).
 */
void lst_msg_init(void *msg, u32 type, u32 feats)
{
	u8 *m = msg;

	memset(m, 0, LST_MSG_SIZE);
	put_unaligned_le32(LST_MSG_MAGIC, m + LST_HDR_MAGIC);
	put_unaligned_le32(LST_MSG_VERSION, m + LST_HDR_VERSION);
	put_unaligned_le32(type, m + LST_HDR_TYPE);
	put_unaligned_le32(feats, m + LST_HDR_FEATS);
}
EXPORT_SYMBOL_IF_KUNIT(lst_msg_init);

/**
 * lst_dests_unpack() - a TEST request's destination list, little-endian
 * @dests: @n entries of %LST_DEST_SIZE bytes (nid u64, pid u32)
 * @n: entries
 * @swapped: the list came from a big-endian sender
 */
void lst_dests_unpack(void *dests, unsigned int n, bool swapped)
{
	static const s8 dest[] = { 8, 4, 0 };
	unsigned int i;

	if (!swapped)
		return;
	for (i = 0; i < n; i++)
		lst_swab_fields((u8 *)dests + i * LST_DEST_SIZE, dest);
}
EXPORT_SYMBOL_IF_KUNIT(lst_dests_unpack);
