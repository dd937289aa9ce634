// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: ksocklnd's wire codec (lnd/sock/proto.c) against byte vectors
 * written out by hand from the wire protocol specification, sections
 * 4.2-4.5 (HELLO V1 to V4, connection types) and 4.8 (message header),
 * and its rejection of malformed HELLOs.  Vectors are little-endian, as
 * the senders we talk to are.
 */
#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/string.h>

#include "../lnd/sock/socklnd.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define NID4_A	0x00020000C000020AULL	/* 192.0.2.10@tcp */
#define NID4_B	0x00020000C000020BULL	/* 192.0.2.11@tcp */

/* V3 HELLO 192.0.2.10@tcp -> 192.0.2.11@tcp, BULK_IN, no addresses. */
static const u8 hello_v3[56] = {
	0x63, 0x69, 0x72, 0x45,				/* magic */
	0x03, 0x00, 0x00, 0x00,				/* version 3 */
	0x0a, 0x02, 0x00, 0xc0, 0x00, 0x00, 0x02, 0x00,	/* src_nid */
	0x0b, 0x02, 0x00, 0xc0, 0x00, 0x00, 0x02, 0x00,	/* dst_nid */
	0x39, 0x30, 0x00, 0x00,				/* src_pid */
	0x00, 0x00, 0x00, 0x00,				/* dst_pid */
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,	/* src_incarnation */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* dst_incarnation */
	0x02, 0x00, 0x00, 0x00,				/* ctype BULK_IN */
	0x00, 0x00, 0x00, 0x00,				/* nips */
};

/* The same in V4: large NIDs {size 0, type 2, num 0, 192.0.2.x}. */
static const u8 hello_v4[80] = {
	0x63, 0x69, 0x72, 0x45,				/* magic */
	0x04, 0x00, 0x00, 0x00,				/* version 4 */
	0x00, 0x02, 0x00, 0x00, 0xc0, 0x00, 0x02, 0x0a,	/* src_nid */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x02, 0x00, 0x00, 0xc0, 0x00, 0x02, 0x0b,	/* dst_nid */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x39, 0x30, 0x00, 0x00,				/* src_pid */
	0x00, 0x00, 0x00, 0x00,				/* dst_pid */
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,	/* src_incarnation */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* dst_incarnation */
	0x02, 0x00, 0x00, 0x00,				/* ctype BULK_IN */
	0x00, 0x00, 0x00, 0x00,				/* nips */
};

/* V1: an LNet header, type HELLO, two addresses after it. */
static const u8 hello_v1[72 + 8] = {
	0xed, 0x0d, 0xbc, 0xee, 0x01, 0x00, 0x00, 0x00,	/* magic, 1.0 */
	0x0a, 0x02, 0x00, 0xc0, 0x00, 0x00, 0x02, 0x00,	/* src_nid */
	0x00, 0x00, 0x00, 0x00,				/* dest_pid */
	0x39, 0x30, 0x00, 0x00,				/* src_pid */
	0x04, 0x00, 0x00, 0x00,				/* type HELLO */
	0x08, 0x00, 0x00, 0x00,				/* payload: 2 IPs */
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,	/* incarnation */
	0x00, 0x00, 0x00, 0x00,				/* ctype ANY */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* rest of msg */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x0a, 0x02, 0x00, 0xc0, 0x0c, 0x02, 0x00, 0xc0,	/* ips */
};

static void hello_expect(struct kunit *test, const struct ksock_hello *h,
			 u32 version, u32 ctype)
{
	struct lnet_nid a;

	lnet_nid4_to_nid(NID4_A, &a);
	KUNIT_EXPECT_EQ(test, h->version, version);
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&h->src_nid, &a));
	KUNIT_EXPECT_EQ(test, h->src_pid, 12345U);
	KUNIT_EXPECT_EQ(test, h->src_incarnation, 0x1122334455667788ULL);
	KUNIT_EXPECT_EQ(test, h->ctype, ctype);
}

static void proto_decode_v3(struct kunit *test)
{
	struct ksock_hello h;
	struct lnet_nid b;
	bool flip;

	KUNIT_ASSERT_EQ(test, ksock_hello_peek(hello_v3, &flip), 3);
	KUNIT_EXPECT_FALSE(test, flip);
	KUNIT_EXPECT_EQ(test, ksock_hello_size(3), (size_t)56);
	KUNIT_ASSERT_EQ(test, ksock_hello_decode(&h, hello_v3, 3, flip), 0);
	hello_expect(test, &h, 3, KSOCK_CONN_BULK_IN);
	lnet_nid4_to_nid(NID4_B, &b);
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&h.dst_nid, &b));
	KUNIT_EXPECT_EQ(test, h.dst_pid, 0U);
}

static void proto_decode_v4(struct kunit *test)
{
	struct ksock_hello h;
	bool flip;

	KUNIT_ASSERT_EQ(test, ksock_hello_peek(hello_v4, &flip), 4);
	KUNIT_EXPECT_EQ(test, ksock_hello_size(4), (size_t)80);
	KUNIT_ASSERT_EQ(test, ksock_hello_decode(&h, hello_v4, 4, flip), 0);
	hello_expect(test, &h, 4, KSOCK_CONN_BULK_IN);
}

static void proto_decode_v1(struct kunit *test)
{
	struct ksock_hello h;
	bool flip;

	KUNIT_ASSERT_EQ(test, ksock_hello_peek(hello_v1, &flip), 1);
	KUNIT_EXPECT_EQ(test, ksock_hello_size(1), (size_t)72);
	KUNIT_ASSERT_EQ(test, ksock_hello_decode(&h, hello_v1, 1, flip), 2);
	hello_expect(test, &h, 1, KSOCK_CONN_ANY);
	KUNIT_ASSERT_EQ(test, ksock_hello_decode_ips(&h, hello_v1 + 72, flip),
			0);
	KUNIT_EXPECT_EQ(test, h.ips[0], 0xc000020aU);
	KUNIT_EXPECT_EQ(test, h.ips[1], 0xc000020cU);
}

/* A big-endian sender: magic and every integer byte-swapped. */
static void proto_decode_flipped(struct kunit *test)
{
	u8 buf[56] = {
		0x45, 0x72, 0x69, 0x63, 0x00, 0x00, 0x00, 0x02,
		0x00, 0x02, 0x00, 0x00, 0xc0, 0x00, 0x02, 0x0a,
		0x00, 0x02, 0x00, 0x00, 0xc0, 0x00, 0x02, 0x0b,
		0x00, 0x00, 0x30, 0x39, 0x00, 0x00, 0x00, 0x00,
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00,
	};
	struct ksock_hello h;
	bool flip;

	KUNIT_ASSERT_EQ(test, ksock_hello_peek(buf, &flip), 2);
	KUNIT_EXPECT_TRUE(test, flip);
	KUNIT_ASSERT_EQ(test, ksock_hello_decode(&h, buf, 2, flip), 0);
	hello_expect(test, &h, 2, KSOCK_CONN_BULK_OUT);
}

static void proto_encode(struct kunit *test)
{
	struct ksock_hello h = {
		.version = 3,
		.src_pid = 12345,
		.src_incarnation = 0x1122334455667788ULL,
		.ctype = KSOCK_CONN_BULK_IN,
		.nips = 5,	/* never sent */
	};
	u8 buf[KSOCK_HELLO_MAX_SIZE];

	lnet_nid4_to_nid(NID4_A, &h.src_nid);
	lnet_nid4_to_nid(NID4_B, &h.dst_nid);
	KUNIT_ASSERT_EQ(test, ksock_hello_encode(&h, buf), (size_t)56);
	KUNIT_EXPECT_EQ(test, memcmp(buf, hello_v3, sizeof(hello_v3)), 0);
	h.version = 4;
	KUNIT_ASSERT_EQ(test, ksock_hello_encode(&h, buf), (size_t)80);
	KUNIT_EXPECT_EQ(test, memcmp(buf, hello_v4, sizeof(hello_v4)), 0);
	h.version = 1;
	h.ctype = KSOCK_CONN_ANY;
	KUNIT_ASSERT_EQ(test, ksock_hello_encode(&h, buf), (size_t)72);
	/* Our V1 carries no addresses: payload_length 0. */
	KUNIT_EXPECT_EQ(test, memcmp(buf, hello_v1, 28), 0);
	KUNIT_EXPECT_EQ(test, buf[28], 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf + 32, hello_v1 + 32, 40), 0);
}

static void proto_reject(struct kunit *test)
{
	u8 buf[80];
	struct ksock_hello h;
	bool flip;

	/* Unknown magic: closed without a reply. */
	memcpy(buf, hello_v3, sizeof(hello_v3));
	buf[0] ^= 1;
	KUNIT_EXPECT_EQ(test, ksock_hello_peek(buf, &flip), -EPROTO);
	/* The acceptor's magic is not a HELLO. */
	memcpy(buf, "\x00\x71\xce\xac\x01\x00\x00\x00", 8);
	KUNIT_EXPECT_EQ(test, ksock_hello_peek(buf, &flip), -EPROTO);
	/* Known magic, unknown version: answered, then closed. */
	memcpy(buf, hello_v3, sizeof(hello_v3));
	buf[4] = 5;
	KUNIT_EXPECT_EQ(test, ksock_hello_peek(buf, &flip), -EPROTONOSUPPORT);
	buf[4] = 1;
	KUNIT_EXPECT_EQ(test, ksock_hello_peek(buf, &flip), -EPROTONOSUPPORT);
	/* V1 must be 1.0. */
	memcpy(buf, hello_v1, 72);
	buf[6] = 1;
	KUNIT_EXPECT_EQ(test, ksock_hello_peek(buf, &flip), -EPROTONOSUPPORT);
	/* More than 16 addresses. */
	memcpy(buf, hello_v3, sizeof(hello_v3));
	buf[52] = 17;
	KUNIT_EXPECT_EQ(test, ksock_hello_decode(&h, buf, 3, false), -E2BIG);
	buf[52] = 16;
	KUNIT_EXPECT_EQ(test, ksock_hello_decode(&h, buf, 3, false), 16);
	/* An address of 0. */
	memset(buf, 0, 8);
	h.nips = 2;
	h.version = 3;
	buf[0] = 1;
	KUNIT_EXPECT_EQ(test, ksock_hello_decode_ips(&h, buf, false), -EPROTO);
	/* V1: not a HELLO, or a payload that is not whole addresses. */
	memcpy(buf, hello_v1, 72);
	buf[24] = 1;
	KUNIT_EXPECT_EQ(test, ksock_hello_decode(&h, buf, 1, false), -EPROTO);
	memcpy(buf, hello_v1, 72);
	buf[28] = 6;
	KUNIT_EXPECT_EQ(test, ksock_hello_decode(&h, buf, 1, false), -EPROTO);
}

/*
 * A nid4 with bits 63..56 set (spec 1.3: always 0) is no NID: refused,
 * not cut to the NID below it (found by the fuzz target sock_hello).
 */
static void proto_reject_nid(struct kunit *test)
{
	u8 buf[80];
	struct ksock_hello h;

	memcpy(buf, hello_v3, sizeof(hello_v3));
	buf[15] = 0x0b;				/* src_nid bits 63..56 */
	KUNIT_EXPECT_EQ(test, ksock_hello_decode(&h, buf, 3, false),
			-EADDRNOTAVAIL);
	memcpy(buf, hello_v3, sizeof(hello_v3));
	buf[23] = 0x80;				/* dst_nid bits 63..56 */
	KUNIT_EXPECT_EQ(test, ksock_hello_decode(&h, buf, 3, false),
			-EADDRNOTAVAIL);
	/* V1's src_nid. */
	memcpy(buf, hello_v1, 72);
	buf[15] = 0x01;
	KUNIT_EXPECT_EQ(test, ksock_hello_decode(&h, buf, 1, false),
			-EADDRNOTAVAIL);
	/* V4: an address of more than 16 bytes. */
	memcpy(buf, hello_v4, sizeof(hello_v4));
	buf[8] = 13;				/* src_nid nid_size */
	KUNIT_EXPECT_EQ(test, ksock_hello_decode(&h, buf, 4, false),
			-EADDRNOTAVAIL);
	memcpy(buf, hello_v4, sizeof(hello_v4));
	buf[28] = 0xfe;				/* dst_nid nid_size */
	KUNIT_EXPECT_EQ(test, ksock_hello_decode(&h, buf, 4, false),
			-EADDRNOTAVAIL);
	/* ANY is a NID (the V3 dst of a first HELLO); 12 bytes is IPv6. */
	memcpy(buf, hello_v3, sizeof(hello_v3));
	memset(buf + 16, 0xff, 8);
	KUNIT_EXPECT_EQ(test, ksock_hello_decode(&h, buf, 3, false), 0);
	KUNIT_EXPECT_TRUE(test, lnet_nid_is_any(&h.dst_nid));
	memcpy(buf, hello_v4, sizeof(hello_v4));
	buf[8] = 12;
	KUNIT_EXPECT_EQ(test, ksock_hello_decode(&h, buf, 4, false), 0);
}

static void proto_ctype_invert(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ksock_ctype_invert(0), 0U);
	KUNIT_EXPECT_EQ(test, ksock_ctype_invert(1), 1U);
	KUNIT_EXPECT_EQ(test, ksock_ctype_invert(2), 3U);
	KUNIT_EXPECT_EQ(test, ksock_ctype_invert(3), 2U);
	KUNIT_EXPECT_EQ(test, ksock_ctype_invert(4), KSOCK_CONN_NONE);
	KUNIT_EXPECT_EQ(test, ksock_ctype_invert(KSOCK_CONN_NONE),
			KSOCK_CONN_NONE);
}

static void proto_msg_hdr(struct kunit *test)
{
	static const u8 noop[24] = {
		0xc0, 0x00, 0x00, 0x00,				/* NOOP */
		0x00, 0x00, 0x00, 0x00,				/* csum */
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* cookie 0 */
		0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* keepalive */
	};
	static const u8 lnet_be[24] = {
		0x00, 0x00, 0x00, 0xc1, 0x12, 0x34, 0x56, 0x78,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	};
	u64 c0, c1;
	u8 buf[24];
	u32 type;

	ksock_msg_hdr_encode(buf, KSOCK_MSG_NOOP, 0, KSOCK_KEEPALIVE_COOKIE);
	KUNIT_EXPECT_EQ(test, memcmp(buf, noop, sizeof(noop)), 0);
	ksock_msg_hdr_decode(lnet_be, true, &type, &c0, &c1);
	KUNIT_EXPECT_EQ(test, type, (u32)KSOCK_MSG_LNET);
	KUNIT_EXPECT_EQ(test, c0, 7ULL);
	KUNIT_EXPECT_EQ(test, c1, 0ULL);
}

static struct kunit_case socklnd_proto_cases[] = {
	KUNIT_CASE(proto_decode_v3),
	KUNIT_CASE(proto_decode_v4),
	KUNIT_CASE(proto_decode_v1),
	KUNIT_CASE(proto_decode_flipped),
	KUNIT_CASE(proto_encode),
	KUNIT_CASE(proto_reject),
	KUNIT_CASE(proto_reject_nid),
	KUNIT_CASE(proto_ctype_invert),
	KUNIT_CASE(proto_msg_hdr),
	{}
};

static struct kunit_suite socklnd_proto_suite = {
	.name = "socklnd_proto",
	.test_cases = socklnd_proto_cases,
};

kunit_test_suite(socklnd_proto_suite);

MODULE_DESCRIPTION("KUnit tests for the socklnd wire codec");
MODULE_LICENSE("GPL");
