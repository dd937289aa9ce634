// SPDX-License-Identifier: GPL-2.0
/*
 * The socklnd wire codec (spec 4.3-4.5, 4.8): HELLO V1 to V4 and the
 * 24-byte message header.  Pure functions on byte buffers, so KUnit can
 * check them against vectors built from the spec.
 *
 * V2-V4 fields are in the sender's byte order, told by the magic; we send
 * ours.  V1 is a little-endian LNet header.  Large NIDs are never
 * converted.
 */
#include <linux/export.h>
#include <linux/string.h>
#include <asm/byteorder.h>
#include <kunit/visibility.h>

#include "socklnd.h"

#define KSOCK_V1_HELLO_TYPE	4	/* LNET_MSG_HELLO */

static u32 get32(const u8 *p, bool flip)
{
	u32 v;

	memcpy(&v, p, 4);
	return flip ? swab32(v) : v;
}

static u64 get64(const u8 *p, bool flip)
{
	u64 v;

	memcpy(&v, p, 8);
	return flip ? swab64(v) : v;
}

static void put32(u8 *p, u32 v)
{
	memcpy(p, &v, 4);
}

static void put64(u8 *p, u64 v)
{
	memcpy(p, &v, 8);
}

static u32 getle32(const u8 *p)
{
	__le32 v;

	memcpy(&v, p, 4);
	return le32_to_cpu(v);
}

static u64 getle64(const u8 *p)
{
	__le64 v;

	memcpy(&v, p, 8);
	return le64_to_cpu(v);
}

static void putle32(u8 *p, u32 v)
{
	__le32 w = cpu_to_le32(v);

	memcpy(p, &w, 4);
}

static void putle64(u8 *p, u64 v)
{
	__le64 w = cpu_to_le64(v);

	memcpy(p, &w, 8);
}

/**
 * ksock_hello_peek() - the version of a HELLO from its first 8 bytes
 * @buf: %KSOCK_HELLO_PEEK_SIZE bytes
 * @flip: set when the sender's byte order is the opposite of ours
 *
 * Return: the version (1 to 4), -EPROTO for an unknown magic, or
 * -EPROTONOSUPPORT for a known magic with an unknown version (the peer
 * is then told which version we speak, spec 4.6 passive step 2).
 */
int ksock_hello_peek(const void *buf, bool *flip)
{
	const u8 *p = buf;
	u32 magic = get32(p, false);
	u32 version;

	*flip = false;
	if (getle32(p) == KSOCK_TCP_MAGIC) {
		/* V1: u16 major = 1, u16 minor = 0, little-endian. */
		if (getle32(p + 4) != 1)
			return -EPROTONOSUPPORT;
		return KSOCK_PROTO_V1;
	}
	if (magic == swab32(KSOCK_PROTO_MAGIC))
		*flip = true;
	else if (magic != KSOCK_PROTO_MAGIC)
		return -EPROTO;
	version = get32(p + 4, *flip);
	if (version < KSOCK_PROTO_V2 || version > KSOCK_PROTO_V4)
		return -EPROTONOSUPPORT;
	return version;
}
EXPORT_SYMBOL_IF_KUNIT(ksock_hello_peek);

/**
 * ksock_hello_size() - bytes of a HELLO's fixed part
 * @version: 1 to 4
 *
 * Return: 72 (V1), 56 (V2, V3) or 80 (V4); the V1-V3 address list,
 * 4 bytes per address, follows.
 */
size_t ksock_hello_size(u32 version)
{
	switch (version) {
	case KSOCK_PROTO_V1:
		return LNET_HDR_NID4_SIZE;
	case KSOCK_PROTO_V4:
		return 80;
	default:
		return 56;
	}
}
EXPORT_SYMBOL_IF_KUNIT(ksock_hello_size);

/* Spec 1.3: bits 63..56 of a nid4 are 0, unless it is ANY. */
static bool ksock_nid4_valid(u64 nid4)
{
	return nid4 == LNET_NID_ANY || !(nid4 >> 56);
}

/* A large NID's address is at most 16 bytes, unless it is ANY. */
static bool ksock_nid_valid(const struct lnet_nid *nid)
{
	return lnet_nid_is_any(nid) || lnet_nid_addr_len(nid) <= 16;
}

/**
 * ksock_hello_decode() - decode a HELLO's fixed part
 * @h: filled
 * @buf: ksock_hello_size(@version) bytes, as received
 * @version: from ksock_hello_peek()
 * @flip: from ksock_hello_peek()
 *
 * A NID that is none (spec 1.3: a nid4 with bits 63..56 set, a large NID
 * of more than 16 address bytes; ANY is a NID) is refused, not cut to the
 * NID below it.
 *
 * Return: the number of addresses that follow (0 to 16), -E2BIG for
 * more than %KSOCK_HELLO_NIPS_MAX, -EADDRNOTAVAIL for a NID that is none,
 * or -EPROTO for a malformed V1 header.
 */
int ksock_hello_decode(struct ksock_hello *h, const void *buf, u32 version,
		       bool flip)
{
	const u8 *p = buf;
	u64 src4 = 0, dst4 = 0;
	u32 plen;

	memset(h, 0, sizeof(*h));
	h->version = version;
	switch (version) {
	case KSOCK_PROTO_V1:
		/* An LNet header; dest_nid holds the magic and version. */
		src4 = getle64(p + 8);
		lnet_nid4_to_nid(src4, &h->src_nid);
		h->dst_nid = LNET_ANY_NID;
		h->dst_pid = getle32(p + 16);
		h->src_pid = getle32(p + 20);
		if (getle32(p + 24) != KSOCK_V1_HELLO_TYPE)
			return -EPROTO;
		plen = getle32(p + 28);
		if (plen % 4)
			return -EPROTO;
		h->src_incarnation = getle64(p + 32);
		h->ctype = getle32(p + 40);
		h->nips = plen / 4;
		break;
	case KSOCK_PROTO_V4:
		memcpy(&h->src_nid, p + 8, sizeof(h->src_nid));
		memcpy(&h->dst_nid, p + 28, sizeof(h->dst_nid));
		h->src_pid = get32(p + 48, flip);
		h->dst_pid = get32(p + 52, flip);
		h->src_incarnation = get64(p + 56, flip);
		h->dst_incarnation = get64(p + 64, flip);
		h->ctype = get32(p + 72, flip);
		h->nips = 0;	/* V4 never carries addresses */
		break;
	default:
		src4 = get64(p + 8, flip);
		dst4 = get64(p + 16, flip);
		lnet_nid4_to_nid(src4, &h->src_nid);
		lnet_nid4_to_nid(dst4, &h->dst_nid);
		h->src_pid = get32(p + 24, flip);
		h->dst_pid = get32(p + 28, flip);
		h->src_incarnation = get64(p + 32, flip);
		h->dst_incarnation = get64(p + 40, flip);
		h->ctype = get32(p + 48, flip);
		h->nips = get32(p + 52, flip);
		break;
	}
	if (!ksock_nid4_valid(src4) || !ksock_nid4_valid(dst4) ||
	    !ksock_nid_valid(&h->src_nid) || !ksock_nid_valid(&h->dst_nid))
		return -EADDRNOTAVAIL;
	if (h->nips > KSOCK_HELLO_NIPS_MAX)
		return -E2BIG;
	return h->nips;
}
EXPORT_SYMBOL_IF_KUNIT(ksock_hello_decode);

/**
 * ksock_hello_decode_ips() - decode the address list after a HELLO
 * @h: decoded by ksock_hello_decode(); @h->ips filled
 * @buf: 4 * @h->nips bytes
 * @flip: as for the HELLO (V1 lists are little-endian)
 *
 * Return: 0, or -EPROTO if an address is 0.
 */
int ksock_hello_decode_ips(struct ksock_hello *h, const void *buf, bool flip)
{
	const u8 *p = buf;
	u32 i;

	for (i = 0; i < h->nips; i++) {
		h->ips[i] = h->version == KSOCK_PROTO_V1 ?
			    getle32(p + 4 * i) : get32(p + 4 * i, flip);
		if (!h->ips[i])
			return -EPROTO;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ksock_hello_decode_ips);

/**
 * ksock_hello_encode() - encode a HELLO, without addresses
 * @h: what to send; @h->nips is ignored (we always send 0)
 * @buf: at least %KSOCK_HELLO_MAX_SIZE bytes
 *
 * Return: bytes used, ksock_hello_size(@h->version).
 */
size_t ksock_hello_encode(const struct ksock_hello *h, void *buf)
{
	size_t size = ksock_hello_size(h->version);
	u8 *p = buf;

	memset(p, 0, size);
	switch (h->version) {
	case KSOCK_PROTO_V1:
		putle32(p, KSOCK_TCP_MAGIC);
		putle32(p + 4, 1);	/* major 1, minor 0 */
		putle64(p + 8, lnet_nid_to_nid4(&h->src_nid));
		putle32(p + 16, h->dst_pid);
		putle32(p + 20, h->src_pid);
		putle32(p + 24, KSOCK_V1_HELLO_TYPE);
		putle64(p + 32, h->src_incarnation);
		putle32(p + 40, h->ctype);
		break;
	case KSOCK_PROTO_V4:
		put32(p, KSOCK_PROTO_MAGIC);
		put32(p + 4, h->version);
		memcpy(p + 8, &h->src_nid, sizeof(h->src_nid));
		memcpy(p + 28, &h->dst_nid, sizeof(h->dst_nid));
		put32(p + 48, h->src_pid);
		put32(p + 52, h->dst_pid);
		put64(p + 56, h->src_incarnation);
		put64(p + 64, h->dst_incarnation);
		put32(p + 72, h->ctype);
		break;
	default:
		put32(p, KSOCK_PROTO_MAGIC);
		put32(p + 4, h->version);
		put64(p + 8, lnet_nid_to_nid4(&h->src_nid));
		put64(p + 16, lnet_nid_to_nid4(&h->dst_nid));
		put32(p + 24, h->src_pid);
		put32(p + 28, h->dst_pid);
		put64(p + 32, h->src_incarnation);
		put64(p + 40, h->dst_incarnation);
		put32(p + 48, h->ctype);
		break;
	}
	return size;
}
EXPORT_SYMBOL_IF_KUNIT(ksock_hello_encode);

/**
 * ksock_ctype_invert() - a connection type seen from the other side
 * @ctype: KSOCK_CONN_*
 *
 * Return: BULK_IN and BULK_OUT swapped, ANY and CONTROL kept, or
 * %KSOCK_CONN_NONE for anything else.
 */
u32 ksock_ctype_invert(u32 ctype)
{
	switch (ctype) {
	case KSOCK_CONN_ANY:
	case KSOCK_CONN_CONTROL:
		return ctype;
	case KSOCK_CONN_BULK_IN:
		return KSOCK_CONN_BULK_OUT;
	case KSOCK_CONN_BULK_OUT:
		return KSOCK_CONN_BULK_IN;
	default:
		return KSOCK_CONN_NONE;
	}
}
EXPORT_SYMBOL_IF_KUNIT(ksock_ctype_invert);

/**
 * ksock_msg_hdr_encode() - the 24-byte header before each V2+ message
 * @buf: %KSOCK_MSG_HDR_SIZE bytes
 * @type: %KSOCK_MSG_NOOP or %KSOCK_MSG_LNET
 * @cookie0: ZC request cookie (LNET) or first ACK cookie (NOOP)
 * @cookie1: ZC ACK cookie
 *
 * The checksum is always 0 (spec 4.10).
 */
void ksock_msg_hdr_encode(void *buf, u32 type, u64 cookie0, u64 cookie1)
{
	u8 *p = buf;

	put32(p, type);
	put32(p + 4, 0);
	put64(p + 8, cookie0);
	put64(p + 16, cookie1);
}
EXPORT_SYMBOL_IF_KUNIT(ksock_msg_hdr_encode);

/**
 * ksock_msg_hdr_decode() - decode a received message header
 * @buf: %KSOCK_MSG_HDR_SIZE bytes
 * @flip: the connection's byte order differs from ours
 * @type: its type, not checked
 * @cookie0: first cookie
 * @cookie1: second cookie
 *
 * The checksum is ignored, as the spec allows (4.10).
 */
void ksock_msg_hdr_decode(const void *buf, bool flip, u32 *type,
			  u64 *cookie0, u64 *cookie1)
{
	const u8 *p = buf;

	*type = get32(p, flip);
	*cookie0 = get64(p + 8, flip);
	*cookie1 = get64(p + 16, flip);
}
EXPORT_SYMBOL_IF_KUNIT(ksock_msg_hdr_decode);
