// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the LNet message header codec against byte vectors written out by
 * hand from the wire protocol specification, section 2 (nid4 and nid16
 * headers) and 4.5 (socklnd V1 HELLO).
 */
#include <kunit/test.h>
#include <linux/string.h>

#include <lnet/hdr.h>

#define NID4_TCP	0x00020000C0A80102ULL	/* 192.168.1.2@tcp */
#define NID4_O2IB3	0x000500030A000001ULL	/* 10.0.0.1@o2ib3 */

/* PUT 192.168.1.2@tcp -> 10.0.0.1@o2ib3, 4096 bytes, ACK wanted. */
static const u8 put4[LNET_HDR_NID4_SIZE] = {
	0x01, 0x00, 0x00, 0x0a, 0x03, 0x00, 0x05, 0x00,	/* dest_nid */
	0x02, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x02, 0x00,	/* src_nid */
	0x39, 0x30, 0x00, 0x00,				/* dest_pid */
	0x39, 0x30, 0x00, 0x00,				/* src_pid */
	0x01, 0x00, 0x00, 0x00,				/* type PUT */
	0x00, 0x10, 0x00, 0x00,				/* payload_length */
	0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01,	/* ack_wmd */
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
	0xa8, 0xa7, 0xa6, 0xa5, 0xa4, 0xa3, 0xa2, 0xa1,	/* match_bits */
	0xb8, 0xb7, 0xb6, 0xb5, 0xb4, 0xb3, 0xb2, 0xb1,	/* hdr_data */
	0x32, 0x00, 0x00, 0x00,				/* ptl_index 50 */
	0xc4, 0xc3, 0xc2, 0xc1,				/* offset */
};

static const u8 put16[LNET_HDR_NID16_SIZE] = {
	0x00, 0x05, 0x00, 0x03, 0x0a, 0x00, 0x00, 0x01,	/* dest_nid */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x02, 0x00, 0x00, 0xc0, 0xa8, 0x01, 0x02,	/* src_nid */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x39, 0x30, 0x00, 0x00,				/* dest_pid */
	0x39, 0x30, 0x00, 0x00,				/* src_pid */
	0x01, 0x00, 0x00, 0x00,				/* type PUT */
	0x00, 0x10, 0x00, 0x00,				/* payload_length */
	0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01,	/* ack_wmd */
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
	0xa8, 0xa7, 0xa6, 0xa5, 0xa4, 0xa3, 0xa2, 0xa1,	/* match_bits */
	0xb8, 0xb7, 0xb6, 0xb5, 0xb4, 0xb3, 0xb2, 0xb1,	/* hdr_data */
	0x32, 0x00, 0x00, 0x00,				/* ptl_index 50 */
	0xc4, 0xc3, 0xc2, 0xc1,				/* offset */
};

static void fill_put(struct lnet_hdr *h)
{
	/* Junk everywhere first: inactive union members must not leak. */
	memset(h, 0xa5, sizeof(*h));
	lnet_nid4_to_nid(NID4_O2IB3, &h->dest_nid);
	lnet_nid4_to_nid(NID4_TCP, &h->src_nid);
	h->dest_pid = LNET_PID_LUSTRE;
	h->src_pid = LNET_PID_LUSTRE;
	h->type = LNET_MSG_PUT;
	h->payload_length = 4096;
	h->msg.put.ack_wmd.wh_interface_cookie = 0x0123456789abcdefULL;
	h->msg.put.ack_wmd.wh_object_cookie = 0x1122334455667788ULL;
	h->msg.put.match_bits = 0xa1a2a3a4a5a6a7a8ULL;
	h->msg.put.hdr_data = 0xb1b2b3b4b5b6b7b8ULL;
	h->msg.put.ptl_index = 50;
	h->msg.put.offset = 0xc1c2c3c4;
}

/* GET 10.0.0.1@o2ib3 -> 192.168.1.2@tcp: a ping (portal 0). */
static const u8 get4[LNET_HDR_NID4_SIZE] = {
	0x02, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x02, 0x00,	/* dest_nid */
	0x01, 0x00, 0x00, 0x0a, 0x03, 0x00, 0x05, 0x00,	/* src_nid */
	0x39, 0x30, 0x00, 0x00,				/* dest_pid */
	0x39, 0x30, 0x00, 0x00,				/* src_pid */
	0x02, 0x00, 0x00, 0x00,				/* type GET */
	0x00, 0x00, 0x00, 0x00,				/* payload_length */
	0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe,	/* return_wmd */
	0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,	/* match_bits */
	0x00, 0x00, 0x00, 0x00,				/* ptl_index 0 */
	0xd4, 0xd3, 0xd2, 0xd1,				/* src_offset */
	0x00, 0x00, 0x10, 0x00,				/* sink_length */
	0x00, 0x00, 0x00, 0x00,				/* unused */
};

static const u8 get16[LNET_HDR_NID16_SIZE] = {
	0x00, 0x02, 0x00, 0x00, 0xc0, 0xa8, 0x01, 0x02,	/* dest_nid */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x05, 0x00, 0x03, 0x0a, 0x00, 0x00, 0x01,	/* src_nid */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x39, 0x30, 0x00, 0x00,				/* dest_pid */
	0x39, 0x30, 0x00, 0x00,				/* src_pid */
	0x02, 0x00, 0x00, 0x00,				/* type GET */
	0x00, 0x00, 0x00, 0x00,				/* payload_length */
	0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe,	/* return_wmd */
	0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,	/* match_bits */
	0x00, 0x00, 0x00, 0x00,				/* ptl_index 0 */
	0xd4, 0xd3, 0xd2, 0xd1,				/* src_offset */
	0x00, 0x00, 0x10, 0x00,				/* sink_length */
	0x00, 0x00, 0x00, 0x00,				/* unused */
};

static void fill_get(struct lnet_hdr *h)
{
	memset(h, 0xa5, sizeof(*h));
	lnet_nid4_to_nid(NID4_TCP, &h->dest_nid);
	lnet_nid4_to_nid(NID4_O2IB3, &h->src_nid);
	h->dest_pid = LNET_PID_LUSTRE;
	h->src_pid = LNET_PID_LUSTRE;
	h->type = LNET_MSG_GET;
	h->payload_length = 0;
	h->msg.get.return_wmd.wh_interface_cookie = 0xfedcba9876543210ULL;
	h->msg.get.return_wmd.wh_object_cookie = 7;
	h->msg.get.match_bits = 0x8000000000000000ULL;
	h->msg.get.ptl_index = 0;
	h->msg.get.src_offset = 0xd1d2d3d4;
	h->msg.get.sink_length = LNET_MTU;
}

/* ACK 10.0.0.1@o2ib3 -> 192.168.1.2@tcp, answering the PUT above. */
static const u8 ack4[LNET_HDR_NID4_SIZE] = {
	0x02, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x02, 0x00,	/* dest_nid */
	0x01, 0x00, 0x00, 0x0a, 0x03, 0x00, 0x05, 0x00,	/* src_nid */
	0x39, 0x30, 0x00, 0x00,				/* dest_pid */
	0x39, 0x30, 0x00, 0x00,				/* src_pid */
	0x00, 0x00, 0x00, 0x00,				/* type ACK */
	0x00, 0x00, 0x00, 0x00,				/* payload_length */
	0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01,	/* dst_wmd */
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
	0xa8, 0xa7, 0xa6, 0xa5, 0xa4, 0xa3, 0xa2, 0xa1,	/* match_bits */
	0x00, 0x10, 0x00, 0x00,				/* mlength */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* unused */
	0x00, 0x00, 0x00, 0x00,
};

static const u8 ack16[LNET_HDR_NID16_SIZE] = {
	0x00, 0x02, 0x00, 0x00, 0xc0, 0xa8, 0x01, 0x02,	/* dest_nid */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x05, 0x00, 0x03, 0x0a, 0x00, 0x00, 0x01,	/* src_nid */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x39, 0x30, 0x00, 0x00,				/* dest_pid */
	0x39, 0x30, 0x00, 0x00,				/* src_pid */
	0x00, 0x00, 0x00, 0x00,				/* type ACK */
	0x00, 0x00, 0x00, 0x00,				/* payload_length */
	0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01,	/* dst_wmd */
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
	0xa8, 0xa7, 0xa6, 0xa5, 0xa4, 0xa3, 0xa2, 0xa1,	/* match_bits */
	0x00, 0x10, 0x00, 0x00,				/* mlength */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* unused */
	0x00, 0x00, 0x00, 0x00,
};

static void fill_ack(struct lnet_hdr *h)
{
	memset(h, 0xa5, sizeof(*h));
	lnet_nid4_to_nid(NID4_TCP, &h->dest_nid);
	lnet_nid4_to_nid(NID4_O2IB3, &h->src_nid);
	h->dest_pid = LNET_PID_LUSTRE;
	h->src_pid = LNET_PID_LUSTRE;
	h->type = LNET_MSG_ACK;
	h->payload_length = 0;
	h->msg.ack.dst_wmd.wh_interface_cookie = 0x0123456789abcdefULL;
	h->msg.ack.dst_wmd.wh_object_cookie = 0x1122334455667788ULL;
	h->msg.ack.match_bits = 0xa1a2a3a4a5a6a7a8ULL;
	h->msg.ack.mlength = 4096;
}

/* REPLY 192.168.1.2@tcp -> 10.0.0.1@o2ib3, answering the GET above. */
static const u8 reply4[LNET_HDR_NID4_SIZE] = {
	0x01, 0x00, 0x00, 0x0a, 0x03, 0x00, 0x05, 0x00,	/* dest_nid */
	0x02, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x02, 0x00,	/* src_nid */
	0x39, 0x30, 0x00, 0x00,				/* dest_pid */
	0x39, 0x30, 0x00, 0x00,				/* src_pid */
	0x03, 0x00, 0x00, 0x00,				/* type REPLY */
	0xb8, 0x0b, 0x00, 0x00,				/* payload_length */
	0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe,	/* dst_wmd */
	0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* unused */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static const u8 reply16[LNET_HDR_NID16_SIZE] = {
	0x00, 0x05, 0x00, 0x03, 0x0a, 0x00, 0x00, 0x01,	/* dest_nid */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x02, 0x00, 0x00, 0xc0, 0xa8, 0x01, 0x02,	/* src_nid */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x39, 0x30, 0x00, 0x00,				/* dest_pid */
	0x39, 0x30, 0x00, 0x00,				/* src_pid */
	0x03, 0x00, 0x00, 0x00,				/* type REPLY */
	0xb8, 0x0b, 0x00, 0x00,				/* payload_length */
	0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe,	/* dst_wmd */
	0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* unused */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

static void fill_reply(struct lnet_hdr *h)
{
	memset(h, 0xa5, sizeof(*h));
	lnet_nid4_to_nid(NID4_O2IB3, &h->dest_nid);
	lnet_nid4_to_nid(NID4_TCP, &h->src_nid);
	h->dest_pid = LNET_PID_LUSTRE;
	h->src_pid = LNET_PID_LUSTRE;
	h->type = LNET_MSG_REPLY;
	h->payload_length = 3000;
	h->msg.reply.dst_wmd.wh_interface_cookie = 0xfedcba9876543210ULL;
	h->msg.reply.dst_wmd.wh_object_cookie = 7;
}

/* Spec 1.6 example: 2001:db8::1@tcp5, a 16-byte address. */
static void ipv6_nid(struct lnet_nid *nid)
{
	memset(nid, 0, sizeof(*nid));
	nid->nid_size = 12;
	nid->nid_type = LNET_LND_SOCK;
	nid->nid_num = cpu_to_be16(5);
	nid->nid_addr[0] = cpu_to_be32(0x20010db8);
	nid->nid_addr[3] = cpu_to_be32(1);
}

/* The PUT above, sent from 2001:db8::1@tcp5: socklnd V4 only. */
static const u8 put6_16[LNET_HDR_NID16_SIZE] = {
	0x00, 0x05, 0x00, 0x03, 0x0a, 0x00, 0x00, 0x01,	/* dest_nid */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x0c, 0x02, 0x00, 0x05, 0x20, 0x01, 0x0d, 0xb8,	/* src_nid */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x01,
	0x39, 0x30, 0x00, 0x00,				/* dest_pid */
	0x39, 0x30, 0x00, 0x00,				/* src_pid */
	0x01, 0x00, 0x00, 0x00,				/* type PUT */
	0x00, 0x10, 0x00, 0x00,				/* payload_length */
	0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01,	/* ack_wmd */
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
	0xa8, 0xa7, 0xa6, 0xa5, 0xa4, 0xa3, 0xa2, 0xa1,	/* match_bits */
	0xb8, 0xb7, 0xb6, 0xb5, 0xb4, 0xb3, 0xb2, 0xb1,	/* hdr_data */
	0x32, 0x00, 0x00, 0x00,				/* ptl_index 50 */
	0xc4, 0xc3, 0xc2, 0xc1,				/* offset */
};

static void fill_put6(struct lnet_hdr *h)
{
	fill_put(h);
	ipv6_nid(&h->src_nid);
}

/* A PUT without ACK, to 2001:db8::1@tcp5, in a 0-byte message. */
static const u8 put6d_16[LNET_HDR_NID16_SIZE] = {
	0x0c, 0x02, 0x00, 0x05, 0x20, 0x01, 0x0d, 0xb8,	/* dest_nid */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x01,
	0x00, 0x02, 0x00, 0x00, 0xc0, 0xa8, 0x01, 0x02,	/* src_nid */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x39, 0x30, 0x00, 0x00,				/* dest_pid */
	0x39, 0x30, 0x00, 0x00,				/* src_pid */
	0x01, 0x00, 0x00, 0x00,				/* type PUT */
	0x00, 0x00, 0x00, 0x00,				/* payload_length */
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,	/* ack_wmd NONE */
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* match_bits */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* hdr_data */
	0x3f, 0x00, 0x00, 0x00,				/* ptl_index 63 */
	0x00, 0x00, 0x00, 0x00,				/* offset */
};

static void fill_put6d(struct lnet_hdr *h)
{
	memset(h, 0xa5, sizeof(*h));
	ipv6_nid(&h->dest_nid);
	lnet_nid4_to_nid(NID4_TCP, &h->src_nid);
	h->dest_pid = LNET_PID_LUSTRE;
	h->src_pid = LNET_PID_LUSTRE;
	h->type = LNET_MSG_PUT;
	h->payload_length = 0;
	h->msg.put.ack_wmd = LNET_WIRE_HANDLE_NONE;
	h->msg.put.match_bits = 1;
	h->msg.put.hdr_data = 0;
	h->msg.put.ptl_index = LNET_MAX_PORTALS - 1;
	h->msg.put.offset = 0;
}

struct hdr_vector {
	const char *name;
	void (*fill)(struct lnet_hdr *h);
	const u8 *nid4;		/* NULL: a NID has a 16-byte address */
	const u8 *nid16;
	unsigned int used;	/* bytes of msg the type uses (spec 2.4) */
};

static const struct hdr_vector vectors[] = {
	{ "PUT",	fill_put,	put4,	put16,		40 },
	{ "GET",	fill_get,	get4,	get16,		36 },
	{ "ACK",	fill_ack,	ack4,	ack16,		28 },
	{ "REPLY",	fill_reply,	reply4,	reply16,	16 },
	{ "PUT from IPv6", fill_put6,	NULL,	put6_16,	40 },
	{ "PUT to IPv6", fill_put6d,	NULL,	put6d_16,	40 },
};

/* Compare the fields that @want->type uses. */
static void expect_hdr_eq(struct kunit *test, const char *name,
			  const struct lnet_hdr *got,
			  const struct lnet_hdr *want)
{
	KUNIT_EXPECT_EQ_MSG(test, memcmp(&got->dest_nid, &want->dest_nid,
					 sizeof(got->dest_nid)), 0,
			    "%s dest_nid", name);
	KUNIT_EXPECT_EQ_MSG(test, memcmp(&got->src_nid, &want->src_nid,
					 sizeof(got->src_nid)), 0,
			    "%s src_nid", name);
	KUNIT_EXPECT_EQ_MSG(test, got->dest_pid, want->dest_pid, "%s", name);
	KUNIT_EXPECT_EQ_MSG(test, got->src_pid, want->src_pid, "%s", name);
	KUNIT_EXPECT_EQ_MSG(test, got->type, want->type, "%s", name);
	KUNIT_EXPECT_EQ_MSG(test, got->payload_length, want->payload_length,
			    "%s", name);

	switch (want->type) {
	case LNET_MSG_ACK:
		KUNIT_EXPECT_EQ(test, memcmp(&got->msg.ack.dst_wmd,
					     &want->msg.ack.dst_wmd,
					     sizeof(got->msg.ack.dst_wmd)), 0);
		KUNIT_EXPECT_EQ(test, got->msg.ack.match_bits,
				want->msg.ack.match_bits);
		KUNIT_EXPECT_EQ(test, got->msg.ack.mlength,
				want->msg.ack.mlength);
		break;
	case LNET_MSG_PUT:
		KUNIT_EXPECT_EQ(test, memcmp(&got->msg.put.ack_wmd,
					     &want->msg.put.ack_wmd,
					     sizeof(got->msg.put.ack_wmd)), 0);
		KUNIT_EXPECT_EQ(test, got->msg.put.match_bits,
				want->msg.put.match_bits);
		KUNIT_EXPECT_EQ(test, got->msg.put.hdr_data,
				want->msg.put.hdr_data);
		KUNIT_EXPECT_EQ(test, got->msg.put.ptl_index,
				want->msg.put.ptl_index);
		KUNIT_EXPECT_EQ(test, got->msg.put.offset,
				want->msg.put.offset);
		break;
	case LNET_MSG_GET:
		KUNIT_EXPECT_EQ(test, memcmp(&got->msg.get.return_wmd,
					     &want->msg.get.return_wmd,
					     sizeof(got->msg.get.return_wmd)),
				0);
		KUNIT_EXPECT_EQ(test, got->msg.get.match_bits,
				want->msg.get.match_bits);
		KUNIT_EXPECT_EQ(test, got->msg.get.ptl_index,
				want->msg.get.ptl_index);
		KUNIT_EXPECT_EQ(test, got->msg.get.src_offset,
				want->msg.get.src_offset);
		KUNIT_EXPECT_EQ(test, got->msg.get.sink_length,
				want->msg.get.sink_length);
		break;
	case LNET_MSG_REPLY:
		KUNIT_EXPECT_EQ(test, memcmp(&got->msg.reply.dst_wmd,
					     &want->msg.reply.dst_wmd,
					     sizeof(got->msg.reply.dst_wmd)),
				0);
		break;
	case LNET_MSG_HELLO:
		KUNIT_EXPECT_EQ(test, got->msg.hello.incarnation,
				want->msg.hello.incarnation);
		KUNIT_EXPECT_EQ(test, got->msg.hello.type,
				want->msg.hello.type);
		break;
	}
}

static void hdr_encode_nid4(struct kunit *test)
{
	u8 buf[LNET_HDR_NID4_SIZE];
	struct lnet_hdr hdr;
	int i;

	for (i = 0; i < ARRAY_SIZE(vectors); i++) {
		const struct hdr_vector *v = &vectors[i];

		if (!v->nid4)
			continue;
		v->fill(&hdr);
		memset(buf, 0x5a, sizeof(buf));
		KUNIT_EXPECT_EQ_MSG(test, lnet_hdr_to_nid4(&hdr, buf), 0,
				    "%s", v->name);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(buf, v->nid4, sizeof(buf)), 0,
				    "%s", v->name);
	}
}

static void hdr_encode_nid16(struct kunit *test)
{
	u8 buf[LNET_HDR_NID16_SIZE];
	struct lnet_hdr hdr;
	int i;

	for (i = 0; i < ARRAY_SIZE(vectors); i++) {
		const struct hdr_vector *v = &vectors[i];

		v->fill(&hdr);
		memset(buf, 0x5a, sizeof(buf));
		lnet_hdr_to_nid16(&hdr, buf);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(buf, v->nid16, sizeof(buf)), 0,
				    "%s", v->name);
	}
}

/* Bytes of msg past the type's fields are zero, whatever was in hdr. */
static void hdr_unused_zero(struct kunit *test)
{
	u8 buf4[LNET_HDR_NID4_SIZE], buf16[LNET_HDR_NID16_SIZE];
	struct lnet_hdr hdr;
	int i, j;

	for (i = 0; i < ARRAY_SIZE(vectors); i++) {
		const struct hdr_vector *v = &vectors[i];

		v->fill(&hdr);
		memset(buf16, 0xff, sizeof(buf16));
		lnet_hdr_to_nid16(&hdr, buf16);
		for (j = 56 + v->used; j < sizeof(buf16); j++)
			KUNIT_EXPECT_EQ_MSG(test, buf16[j], 0, "%s byte %d",
					    v->name, j);
		if (!v->nid4)
			continue;
		memset(buf4, 0xff, sizeof(buf4));
		KUNIT_ASSERT_EQ(test, lnet_hdr_to_nid4(&hdr, buf4), 0);
		for (j = 32 + v->used; j < sizeof(buf4); j++)
			KUNIT_EXPECT_EQ_MSG(test, buf4[j], 0, "%s byte %d",
					    v->name, j);
	}
}

static void hdr_decode_nid4(struct kunit *test)
{
	enum lnet_hdr_drop_reason why;
	u8 buf[LNET_HDR_NID4_SIZE];
	struct lnet_hdr hdr, want;
	int i;

	for (i = 0; i < ARRAY_SIZE(vectors); i++) {
		const struct hdr_vector *v = &vectors[i];

		if (!v->nid4)
			continue;
		v->fill(&want);
		why = LNET_HDR_DROP_COUNT;
		memset(&hdr, 0x5a, sizeof(hdr));
		KUNIT_EXPECT_EQ_MSG(test, lnet_hdr_from_nid4(&hdr, v->nid4,
							     &why),
				    0, "%s", v->name);
		KUNIT_EXPECT_EQ(test, why, LNET_HDR_DROP_NONE);
		expect_hdr_eq(test, v->name, &hdr, &want);

		/* ... and back to the same bytes. */
		KUNIT_EXPECT_EQ(test, lnet_hdr_to_nid4(&hdr, buf), 0);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(buf, v->nid4, sizeof(buf)), 0,
				    "%s", v->name);
	}
}

static void hdr_decode_nid16(struct kunit *test)
{
	enum lnet_hdr_drop_reason why;
	u8 buf[LNET_HDR_NID16_SIZE];
	struct lnet_hdr hdr, want;
	int i;

	for (i = 0; i < ARRAY_SIZE(vectors); i++) {
		const struct hdr_vector *v = &vectors[i];

		v->fill(&want);
		why = LNET_HDR_DROP_COUNT;
		memset(&hdr, 0x5a, sizeof(hdr));
		KUNIT_EXPECT_EQ_MSG(test, lnet_hdr_from_nid16(&hdr, v->nid16,
							      &why),
				    0, "%s", v->name);
		KUNIT_EXPECT_EQ(test, why, LNET_HDR_DROP_NONE);
		expect_hdr_eq(test, v->name, &hdr, &want);

		lnet_hdr_to_nid16(&hdr, buf);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(buf, v->nid16, sizeof(buf)), 0,
				    "%s", v->name);
	}
}

/* A 16-byte address has no nid4 form: nothing is written. */
static void hdr_ipv6_not_nid4(struct kunit *test)
{
	u8 buf[LNET_HDR_NID4_SIZE], junk[LNET_HDR_NID4_SIZE];
	struct lnet_hdr hdr;

	memset(junk, 0x5a, sizeof(junk));

	fill_put6(&hdr);
	memcpy(buf, junk, sizeof(buf));
	KUNIT_EXPECT_EQ(test, lnet_hdr_to_nid4(&hdr, buf), -EINVAL);
	KUNIT_EXPECT_EQ(test, memcmp(buf, junk, sizeof(buf)), 0);

	fill_put6d(&hdr);
	KUNIT_EXPECT_EQ(test, lnet_hdr_to_nid4(&hdr, buf), -EINVAL);
	KUNIT_EXPECT_EQ(test, memcmp(buf, junk, sizeof(buf)), 0);

	/* Nor can a V1 HELLO come from one. */
	hdr.type = LNET_MSG_HELLO;
	ipv6_nid(&hdr.src_nid);
	KUNIT_EXPECT_EQ(test, lnet_hdr_hello_to_nid4(&hdr, buf), -EINVAL);
	KUNIT_EXPECT_EQ(test, memcmp(buf, junk, sizeof(buf)), 0);

	/* Any other address size but 4 is not a nid4 either. */
	fill_put(&hdr);
	hdr.dest_nid.nid_size = 4;
	KUNIT_EXPECT_EQ(test, lnet_hdr_to_nid4(&hdr, buf), -EINVAL);
	KUNIT_EXPECT_EQ(test, memcmp(buf, junk, sizeof(buf)), 0);
}

/* Fields a bad case may change, at different offsets in the two forms. */
enum hdr_field {
	F_TYPE,			/* nid4 offset 24, nid16 offset 48 */
	F_PAYLOAD,		/* 28, 52 */
	F_MSG,			/* 32, 56, plus rel */
};

struct bad_case {
	const char *name;
	int vec;		/* index in vectors[] */
	enum hdr_field field;
	unsigned int rel;	/* offset within msg, for F_MSG */
	u32 val;		/* written as a LE u32 */
	enum lnet_hdr_drop_reason why;
};

enum { V_PUT, V_GET, V_ACK, V_REPLY };

static const struct bad_case bad_cases[] = {
	{ "type 5",		V_PUT, F_TYPE, 0, 5, LNET_HDR_DROP_BAD_TYPE },
	{ "type 0x101",		V_PUT, F_TYPE, 0, 0x101,
	  LNET_HDR_DROP_BAD_TYPE },
	{ "type 0x80000001",	V_PUT, F_TYPE, 0, 0x80000001,
	  LNET_HDR_DROP_BAD_TYPE },
	{ "type -1",		V_ACK, F_TYPE, 0, ~0U, LNET_HDR_DROP_BAD_TYPE },
	{ "HELLO",		V_PUT, F_TYPE, 0, LNET_MSG_HELLO,
	  LNET_HDR_DROP_HELLO },
	{ "PUT too long",	V_PUT, F_PAYLOAD, 0, LNET_MTU + 1,
	  LNET_HDR_DROP_PAYLOAD_TOO_LONG },
	{ "PUT length -1",	V_PUT, F_PAYLOAD, 0, ~0U,
	  LNET_HDR_DROP_PAYLOAD_TOO_LONG },
	{ "REPLY too long",	V_REPLY, F_PAYLOAD, 0, LNET_MTU + 1,
	  LNET_HDR_DROP_PAYLOAD_TOO_LONG },
	{ "ACK payload",	V_ACK, F_PAYLOAD, 0, 1,
	  LNET_HDR_DROP_PAYLOAD_NOT_EMPTY },
	{ "GET payload",	V_GET, F_PAYLOAD, 0, 1,
	  LNET_HDR_DROP_PAYLOAD_NOT_EMPTY },
	{ "GET payload MTU",	V_GET, F_PAYLOAD, 0, LNET_MTU,
	  LNET_HDR_DROP_PAYLOAD_NOT_EMPTY },
	{ "PUT read as ACK",	V_PUT, F_TYPE, 0, LNET_MSG_ACK,
	  LNET_HDR_DROP_PAYLOAD_NOT_EMPTY },
	{ "PUT portal 64",	V_PUT, F_MSG, 32, 64, LNET_HDR_DROP_BAD_PORTAL },
	{ "PUT portal -1",	V_PUT, F_MSG, 32, ~0U,
	  LNET_HDR_DROP_BAD_PORTAL },
	{ "GET portal 64",	V_GET, F_MSG, 24, 64, LNET_HDR_DROP_BAD_PORTAL },
	{ "GET portal 0x100",	V_GET, F_MSG, 24, 0x100,
	  LNET_HDR_DROP_BAD_PORTAL },
};

static void put_le32(u8 *p, u32 val)
{
	p[0] = val;
	p[1] = val >> 8;
	p[2] = val >> 16;
	p[3] = val >> 24;
}

/*
 * Decode @buf, which must be rejected for @why, and check that the
 * output header was not touched.
 */
static void expect_rejected(struct kunit *test, const char *name,
			    const u8 *buf, bool nid16, bool hello,
			    enum lnet_hdr_drop_reason want)
{
	enum lnet_hdr_drop_reason why = LNET_HDR_DROP_COUNT;
	struct lnet_hdr hdr, junk;
	int rc;

	memset(&junk, 0x5a, sizeof(junk));
	memcpy(&hdr, &junk, sizeof(hdr));
	if (hello)
		rc = lnet_hdr_hello_from_nid4(&hdr, buf, &why);
	else if (nid16)
		rc = lnet_hdr_from_nid16(&hdr, buf, &why);
	else
		rc = lnet_hdr_from_nid4(&hdr, buf, &why);
	KUNIT_EXPECT_EQ_MSG(test, rc, -EPROTO, "%s%s", name,
			    nid16 ? " (nid16)" : "");
	KUNIT_EXPECT_EQ_MSG(test, why, want, "%s%s: %s", name,
			    nid16 ? " (nid16)" : "",
			    lnet_hdr_drop_reason_str(why));
	KUNIT_EXPECT_EQ_MSG(test, memcmp(&hdr, &junk, sizeof(hdr)), 0,
			    "%s%s changed the header", name,
			    nid16 ? " (nid16)" : "");
}

static void hdr_reject(struct kunit *test)
{
	static const unsigned int off4[] = { 24, 28, 32 };
	static const unsigned int off16[] = { 48, 52, 56 };
	u8 buf4[LNET_HDR_NID4_SIZE], buf16[LNET_HDR_NID16_SIZE];
	int i;

	for (i = 0; i < ARRAY_SIZE(bad_cases); i++) {
		const struct bad_case *c = &bad_cases[i];
		const struct hdr_vector *v = &vectors[c->vec];
		unsigned int rel = c->field == F_MSG ? c->rel : 0;

		memcpy(buf4, v->nid4, sizeof(buf4));
		put_le32(buf4 + off4[c->field] + rel, c->val);
		expect_rejected(test, c->name, buf4, false, false, c->why);

		memcpy(buf16, v->nid16, sizeof(buf16));
		put_le32(buf16 + off16[c->field] + rel, c->val);
		expect_rejected(test, c->name, buf16, true, false, c->why);
	}
}

/* NID rules, which differ between the two forms. */
static void hdr_reject_nids(struct kunit *test)
{
	u8 buf4[LNET_HDR_NID4_SIZE], buf16[LNET_HDR_NID16_SIZE];

	/* nid4: LNET_NID_ANY is all ones. */
	memcpy(buf4, put4, sizeof(buf4));
	memset(buf4, 0xff, 8);
	expect_rejected(test, "dest ANY", buf4, false, false,
			LNET_HDR_DROP_DEST_ANY);
	memcpy(buf4, put4, sizeof(buf4));
	memset(buf4 + 8, 0xff, 8);
	expect_rejected(test, "src ANY", buf4, false, false,
			LNET_HDR_DROP_SRC_ANY);

	/* nid4: bits 63..56 must be clear (spec 1.3). */
	memcpy(buf4, put4, sizeof(buf4));
	buf4[7] = 0x01;
	expect_rejected(test, "dest bits 63..56", buf4, false, false,
			LNET_HDR_DROP_BAD_NID);
	memcpy(buf4, ack4, sizeof(buf4));
	buf4[15] = 0x80;
	expect_rejected(test, "src bits 63..56", buf4, false, false,
			LNET_HDR_DROP_BAD_NID);

	/* nid4: LND type 0xff is the wildcard (spec 1.4). */
	memcpy(buf4, put4, sizeof(buf4));
	buf4[6] = 0xff;
	expect_rejected(test, "dest type 0xff", buf4, false, false,
			LNET_HDR_DROP_DEST_ANY);

	/* nid16: LNET_ANY_NID is 20 bytes of ones. */
	memcpy(buf16, put16, sizeof(buf16));
	memset(buf16, 0xff, 20);
	expect_rejected(test, "dest ANY", buf16, true, false,
			LNET_HDR_DROP_DEST_ANY);
	memcpy(buf16, put16, sizeof(buf16));
	memset(buf16 + 20, 0xff, 20);
	expect_rejected(test, "src ANY", buf16, true, false,
			LNET_HDR_DROP_SRC_ANY);

	/* nid16: type 0xff alone makes the wildcard. */
	memcpy(buf16, get16, sizeof(buf16));
	buf16[21] = 0xff;
	expect_rejected(test, "src type 0xff", buf16, true, false,
			LNET_HDR_DROP_SRC_ANY);

	/* nid16: addresses are at most 16 bytes, nid_size <= 12. */
	memcpy(buf16, put16, sizeof(buf16));
	buf16[0] = 13;
	expect_rejected(test, "dest nid_size 13", buf16, true, false,
			LNET_HDR_DROP_BAD_NID);
	memcpy(buf16, reply16, sizeof(buf16));
	buf16[20] = 0xff;
	expect_rejected(test, "src nid_size 0xff", buf16, true, false,
			LNET_HDR_DROP_BAD_NID);
}

/* The first failing check, in enum order, is the one reported. */
static void hdr_reject_order(struct kunit *test)
{
	u8 buf[LNET_HDR_NID4_SIZE];

	/* Bad type and ANY source: the type is reported. */
	memcpy(buf, put4, sizeof(buf));
	memset(buf + 8, 0xff, 8);
	put_le32(buf + 24, 9);
	expect_rejected(test, "type before src", buf, false, false,
			LNET_HDR_DROP_BAD_TYPE);

	/* Malformed dest and ANY source: the malformed NID. */
	memcpy(buf, put4, sizeof(buf));
	buf[7] = 0x10;
	memset(buf + 8, 0xff, 8);
	expect_rejected(test, "bad nid before src", buf, false, false,
			LNET_HDR_DROP_BAD_NID);

	/* ANY dest and ANY source. */
	memcpy(buf, put4, sizeof(buf));
	memset(buf, 0xff, 16);
	expect_rejected(test, "dest before src", buf, false, false,
			LNET_HDR_DROP_DEST_ANY);

	/* ANY source, too long and bad portal. */
	memcpy(buf, put4, sizeof(buf));
	memset(buf + 8, 0xff, 8);
	put_le32(buf + 28, LNET_MTU + 1);
	put_le32(buf + 64, 64);
	expect_rejected(test, "src before length", buf, false, false,
			LNET_HDR_DROP_SRC_ANY);

	/* Too long and bad portal. */
	memcpy(buf, put4, sizeof(buf));
	put_le32(buf + 28, LNET_MTU + 1);
	put_le32(buf + 64, 64);
	expect_rejected(test, "length before portal", buf, false, false,
			LNET_HDR_DROP_PAYLOAD_TOO_LONG);
}

/* The limits themselves are allowed. */
static void hdr_accept_limits(struct kunit *test)
{
	enum lnet_hdr_drop_reason why;
	u8 buf[LNET_HDR_NID4_SIZE];
	struct lnet_hdr hdr;

	memcpy(buf, put4, sizeof(buf));
	put_le32(buf + 28, LNET_MTU);
	put_le32(buf + 64, LNET_MAX_PORTALS - 1);
	KUNIT_EXPECT_EQ(test, lnet_hdr_from_nid4(&hdr, buf, &why), 0);
	KUNIT_EXPECT_EQ(test, hdr.payload_length, LNET_MTU);
	KUNIT_EXPECT_EQ(test, hdr.msg.put.ptl_index, LNET_MAX_PORTALS - 1);

	memcpy(buf, reply4, sizeof(buf));
	put_le32(buf + 28, LNET_MTU);
	KUNIT_EXPECT_EQ(test, lnet_hdr_from_nid4(&hdr, buf, &why), 0);
	KUNIT_EXPECT_EQ(test, hdr.payload_length, LNET_MTU);

	memcpy(buf, get4, sizeof(buf));
	put_le32(buf + 56, LNET_MAX_PORTALS - 1);
	KUNIT_EXPECT_EQ(test, lnet_hdr_from_nid4(&hdr, buf, &why), 0);
	KUNIT_EXPECT_EQ(test, hdr.msg.get.ptl_index, LNET_MAX_PORTALS - 1);

	/* Pids are not checked, and the reason pointer is optional. */
	memcpy(buf, put4, sizeof(buf));
	put_le32(buf + 16, LNET_PID_ANY);
	put_le32(buf + 20, LNET_PID_USERFLAG | 1023);
	KUNIT_EXPECT_EQ(test, lnet_hdr_from_nid4(&hdr, buf, NULL), 0);
	KUNIT_EXPECT_EQ(test, hdr.dest_pid, LNET_PID_ANY);
	KUNIT_EXPECT_EQ(test, hdr.src_pid, LNET_PID_USERFLAG | 1023);
	put_le32(buf + 24, 5);
	KUNIT_EXPECT_EQ(test, lnet_hdr_from_nid4(&hdr, buf, NULL), -EPROTO);
}

/* Spec 4.5: socklnd V1 HELLO from 192.168.1.2@tcp, a BULK_OUT connection. */
static const u8 hello4[LNET_HDR_NID4_SIZE] = {
	0xed, 0x0d, 0xbc, 0xee,				/* magic */
	0x01, 0x00, 0x00, 0x00,				/* version 1.0 */
	0x02, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x02, 0x00,	/* src_nid */
	0x00, 0x00, 0x00, 0x00,				/* dest_pid */
	0x39, 0x30, 0x00, 0x00,				/* src_pid */
	0x04, 0x00, 0x00, 0x00,				/* type HELLO */
	0x08, 0x00, 0x00, 0x00,				/* payload: 2 IPs */
	0x97, 0xa6, 0xb5, 0xc4, 0xd3, 0xe2, 0xf1, 0x17,	/* incarnation */
	0x03, 0x00, 0x00, 0x00,				/* conn type */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* unused */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
};

static void fill_hello(struct lnet_hdr *h)
{
	memset(h, 0xa5, sizeof(*h));
	lnet_nid4_to_nid(NID4_TCP, &h->src_nid);
	h->dest_pid = 0;
	h->src_pid = LNET_PID_LUSTRE;
	h->type = LNET_MSG_HELLO;
	h->payload_length = 8;
	h->msg.hello.incarnation = 0x17f1e2d3c4b5a697ULL;
	h->msg.hello.type = 3;
}

static void hdr_hello(struct kunit *test)
{
	enum lnet_hdr_drop_reason why = LNET_HDR_DROP_COUNT;
	u8 buf[LNET_HDR_NID4_SIZE], buf16[LNET_HDR_NID16_SIZE];
	struct lnet_hdr hdr, want;

	/* dest_nid and type come from the HELLO format, not from hdr. */
	fill_hello(&hdr);
	hdr.type = LNET_MSG_PUT;
	memset(buf, 0x5a, sizeof(buf));
	KUNIT_EXPECT_EQ(test, lnet_hdr_hello_to_nid4(&hdr, buf), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf, hello4, sizeof(buf)), 0);

	fill_hello(&want);
	memset(&hdr, 0x5a, sizeof(hdr));
	KUNIT_EXPECT_EQ(test, lnet_hdr_hello_from_nid4(&hdr, hello4, &why), 0);
	KUNIT_EXPECT_EQ(test, why, LNET_HDR_DROP_NONE);
	want.dest_nid = LNET_ANY_NID;
	expect_hdr_eq(test, "HELLO", &hdr, &want);

	/* A HELLO is never a data message. */
	expect_rejected(test, "HELLO as data", hello4, false, false,
			LNET_HDR_DROP_HELLO);

	/* ... and a data message is not a HELLO. */
	expect_rejected(test, "PUT as HELLO", put4, false, true,
			LNET_HDR_DROP_HELLO_VERSION);
	memcpy(buf, hello4, sizeof(buf));
	put_le32(buf + 24, LNET_MSG_PUT);
	expect_rejected(test, "type PUT", buf, false, true,
			LNET_HDR_DROP_NOT_HELLO);
	put_le32(buf + 24, 5);
	expect_rejected(test, "type 5", buf, false, true,
			LNET_HDR_DROP_NOT_HELLO);

	/* Magic and version must be exactly 0xeebc0ded, 1.0, LE. */
	memcpy(buf, hello4, sizeof(buf));
	buf[6] = 1;
	expect_rejected(test, "minor 1", buf, false, true,
			LNET_HDR_DROP_HELLO_VERSION);
	memcpy(buf, hello4, sizeof(buf));
	buf[7] = 1;
	expect_rejected(test, "minor 0x100", buf, false, true,
			LNET_HDR_DROP_HELLO_VERSION);
	memcpy(buf, hello4, sizeof(buf));
	buf[4] = 2;
	expect_rejected(test, "major 2", buf, false, true,
			LNET_HDR_DROP_HELLO_VERSION);
	memcpy(buf, hello4, sizeof(buf));
	put_le32(buf, 0xed0dbcee);
	expect_rejected(test, "swapped magic", buf, false, true,
			LNET_HDR_DROP_HELLO_VERSION);

	/* The sender's NID must be a real one. */
	memcpy(buf, hello4, sizeof(buf));
	memset(buf + 8, 0xff, 8);
	expect_rejected(test, "src ANY", buf, false, true,
			LNET_HDR_DROP_SRC_ANY);
	memcpy(buf, hello4, sizeof(buf));
	buf[15] = 0x01;
	expect_rejected(test, "src bits 63..56", buf, false, true,
			LNET_HDR_DROP_BAD_NID);

	/* The nid16 header has no HELLO (V4 has its own, spec 4.4). */
	fill_hello(&hdr);
	lnet_nid4_to_nid(NID4_O2IB3, &hdr.dest_nid);
	lnet_hdr_to_nid16(&hdr, buf16);
	expect_rejected(test, "HELLO as nid16 data", buf16, true, false,
			LNET_HDR_DROP_HELLO);
}

static void hdr_drop_reason_names(struct kunit *test)
{
	int i, j;

	for (i = 0; i < LNET_HDR_DROP_COUNT; i++) {
		const char *s = lnet_hdr_drop_reason_str(i);

		KUNIT_ASSERT_NOT_NULL(test, s);
		KUNIT_EXPECT_STRNEQ(test, s, "unknown");
		KUNIT_EXPECT_GT(test, strlen(s), 0);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_STRNEQ(test, s,
					    lnet_hdr_drop_reason_str(j));
	}
	KUNIT_EXPECT_STREQ(test, lnet_hdr_drop_reason_str(LNET_HDR_DROP_NONE),
			   "none");
	KUNIT_EXPECT_STREQ(test,
			   lnet_hdr_drop_reason_str(LNET_HDR_DROP_COUNT),
			   "unknown");
	KUNIT_EXPECT_STREQ(test, lnet_hdr_drop_reason_str(-1), "unknown");
}

static void hdr_wire_handle_none(struct kunit *test)
{
	struct lnet_handle_wire wh = LNET_WIRE_HANDLE_NONE;

	KUNIT_EXPECT_EQ(test, wh.wh_interface_cookie, ~0ULL);
	KUNIT_EXPECT_EQ(test, wh.wh_object_cookie, ~0ULL);
	KUNIT_EXPECT_TRUE(test, lnet_wire_handle_is_none(&wh));
	wh.wh_object_cookie = 0;
	KUNIT_EXPECT_FALSE(test, lnet_wire_handle_is_none(&wh));
}

static struct kunit_case lnet_hdr_cases[] = {
	KUNIT_CASE(hdr_encode_nid4),
	KUNIT_CASE(hdr_encode_nid16),
	KUNIT_CASE(hdr_unused_zero),
	KUNIT_CASE(hdr_decode_nid4),
	KUNIT_CASE(hdr_decode_nid16),
	KUNIT_CASE(hdr_ipv6_not_nid4),
	KUNIT_CASE(hdr_reject),
	KUNIT_CASE(hdr_reject_nids),
	KUNIT_CASE(hdr_reject_order),
	KUNIT_CASE(hdr_accept_limits),
	KUNIT_CASE(hdr_hello),
	KUNIT_CASE(hdr_drop_reason_names),
	KUNIT_CASE(hdr_wire_handle_none),
	{}
};

static struct kunit_suite lnet_hdr_suite = {
	.name = "lnet_hdr",
	.test_cases = lnet_hdr_cases,
};

kunit_test_suite(lnet_hdr_suite);

MODULE_DESCRIPTION("KUnit tests for the LNet message header codec");
MODULE_LICENSE("GPL");
