// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: selftest messages (selftest/wire.c) against the spec
 * (lnet-selftest.md section 3): body sizes, the spec's PING example byte
 * for byte, big-endian messages of each awkward kind made little-endian,
 * and what a receiver refuses, untouched.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "../selftest/wire.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

static void wire_body_sizes(struct kunit *test)
{
	/* spec 3.2, request / reply */
	static const unsigned int sizes[LST_MSG_TYPES] = {
		60, 56, 24, 20, 44, 28, 28, 136, 70, 20, 28, 60, 28, 4, 32, 12,
		56, 56,
	};
	unsigned int t;

	for (t = 0; t < LST_MSG_TYPES; t++)
		KUNIT_EXPECT_EQ_MSG(test, lst_body_size(t), sizes[t], "type %u", t);
	KUNIT_EXPECT_EQ(test, lst_body_size(LST_MSG_TYPES), 0U);
	/* STAT_REPLY fills the message exactly; none is larger. */
	KUNIT_EXPECT_EQ(test, lst_body_size(LST_MSG_STAT_REPLY), LST_BODY_SIZE);
}

/* The spec's example (3.5): a PING request, LE, mask 0x1, seq 5. */
static void wire_ping_example(struct kunit *test)
{
	static const u8 want[40] = {
		0x0D, 0xF0, 0xB0, 0xEE, 0x01, 0x00, 0x00, 0x00,
		0x0E, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
		0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0xB1, 0xC2,
		0xCE, 0xFA, 0xBE, 0xBA, 0x05, 0x00, 0x00, 0x00,
	};
	u8 msg[LST_MSG_SIZE];
	struct lst_msg_info mi;
	unsigned int i;

	memset(msg, 0xa5, sizeof(msg));
	lst_msg_init(msg, LST_MSG_PING_REQST, LST_FEAT_BULK_LEN);
	lst_put64(msg, LST_REQ_RPYID, 0xC2B1000000000001ULL);
	lst_put32(msg, LST_PNR_MAGIC, LST_PING_MAGIC);
	lst_put32(msg, LST_PNR_SEQ, 5);
	KUNIT_EXPECT_EQ(test, memcmp(msg, want, sizeof(want)), 0);
	for (i = 56; i < LST_MSG_SIZE; i++)
		KUNIT_EXPECT_EQ_MSG(test, msg[i], 0, "byte %u", i);

	KUNIT_ASSERT_EQ(test, lst_msg_unpack(msg, sizeof(msg), &mi), 0);
	KUNIT_EXPECT_FALSE(test, mi.swapped);
	KUNIT_EXPECT_EQ(test, mi.type, (u32)LST_MSG_PING_REQST);
	KUNIT_EXPECT_EQ(test, mi.version, 1U);
	KUNIT_EXPECT_EQ(test, mi.feats, LST_FEAT_BULK_LEN);
	KUNIT_EXPECT_EQ(test, memcmp(msg, want, sizeof(want)), 0);
}

/* Big-endian bytes of @v, @n bytes long, at @p. */
static void be_put(u8 *p, u64 v, unsigned int n)
{
	while (n--) {
		p[n] = v & 0xff;
		v >>= 8;
	}
}

/* A big-endian header of @type with @feats. */
static void be_header(u8 *msg, u32 type, u32 feats)
{
	memset(msg, 0, LST_MSG_SIZE);
	be_put(msg + LST_HDR_MAGIC, LST_MSG_MAGIC, 4);
	be_put(msg + LST_HDR_VERSION, 1, 4);
	be_put(msg + LST_HDR_TYPE, type, 4);
	be_put(msg + LST_HDR_FEATS, feats, 4);
}

static void wire_be_mksn(struct kunit *test)
{
	u8 msg[LST_MSG_SIZE], *b = msg + LST_BODY_OFF;
	struct lst_msg_info mi;

	be_header(msg, LST_MSG_MKSN_REQST, 1);
	be_put(b + LST_REQ_RPYID, 0x0102030405060708ULL, 8);
	be_put(b + LST_REQ_SID + LST_SID_NID, 0x00020000c000020aULL, 8);
	be_put(b + LST_REQ_SID + LST_SID_STAMP, 123456789ULL, 8);
	be_put(b + LST_MKSN_FORCE, 1, 4);
	memcpy(b + LST_MKSN_NAME, "read_write", 11);

	KUNIT_ASSERT_EQ(test, lst_msg_unpack(msg, sizeof(msg), &mi), 0);
	KUNIT_EXPECT_TRUE(test, mi.swapped);
	KUNIT_EXPECT_EQ(test, mi.type, (u32)LST_MSG_MKSN_REQST);
	KUNIT_EXPECT_EQ(test, mi.version, 1U);
	KUNIT_EXPECT_EQ(test, mi.feats, 1U);
	KUNIT_EXPECT_EQ(test, lst_get64(msg, LST_REQ_RPYID), 0x0102030405060708ULL);
	KUNIT_EXPECT_EQ(test, lst_get64(msg, LST_REQ_SID + LST_SID_NID),
			0x00020000c000020aULL);
	KUNIT_EXPECT_EQ(test, lst_get64(msg, LST_REQ_SID + LST_SID_STAMP),
			123456789ULL);
	KUNIT_EXPECT_EQ(test, lst_get32(msg, LST_MKSN_FORCE), 1U);
	/* A name is bytes: not swapped. */
	KUNIT_EXPECT_STREQ(test, (char *)b + LST_MKSN_NAME, "read_write");
}

/* TEST_REQST: the parameter variant follows service and features. */
static void wire_be_test_params(struct kunit *test)
{
	u8 msg[LST_MSG_SIZE], *b = msg + LST_BODY_OFF;
	struct lst_msg_info mi;

	/* BRW, BULK_LEN: v1, u16 opc and flags, u32 len and offset. */
	be_header(msg, LST_MSG_TEST_REQST, LST_FEAT_BULK_LEN);
	be_put(b + LST_TSR_SERVICE, LST_SVC_BRW, 4);
	be_put(b + LST_TSR_LOOP, 0xffffffff, 4);
	be_put(b + LST_TSR_CONCUR, 8, 4);
	b[LST_TSR_IS_CLIENT] = 1;
	b[LST_TSR_STOP_ONERR] = 1;
	be_put(b + LST_TSR_NDEST, 2, 4);
	be_put(b + LST_TSR_U, 2, 2);
	be_put(b + LST_TSR_U + 2, 3, 2);
	be_put(b + LST_TSR_U + 4, 1048576, 4);
	be_put(b + LST_TSR_U + 8, 64, 4);
	KUNIT_ASSERT_EQ(test, lst_msg_unpack(msg, sizeof(msg), &mi), 0);
	KUNIT_EXPECT_EQ(test, lst_get32(msg, LST_TSR_LOOP), 0xffffffffU);
	KUNIT_EXPECT_EQ(test, lst_get32(msg, LST_TSR_CONCUR), 8U);
	KUNIT_EXPECT_EQ(test, b[LST_TSR_IS_CLIENT], 1);
	KUNIT_EXPECT_EQ(test, lst_get32(msg, LST_TSR_NDEST), 2U);
	KUNIT_EXPECT_EQ(test, lst_get16(msg, LST_TSR_U), 2);
	KUNIT_EXPECT_EQ(test, lst_get16(msg, LST_TSR_U + 2), 3);
	KUNIT_EXPECT_EQ(test, lst_get32(msg, LST_TSR_U + 4), 1048576U);
	KUNIT_EXPECT_EQ(test, lst_get32(msg, LST_TSR_U + 8), 64U);

	/* BRW without BULK_LEN: v0, three u32. */
	be_header(msg, LST_MSG_TEST_REQST, 0);
	be_put(b + LST_TSR_SERVICE, LST_SVC_BRW, 4);
	be_put(b + LST_TSR_U, 1, 4);
	be_put(b + LST_TSR_U + 4, 256, 4);
	be_put(b + LST_TSR_U + 8, 3, 4);
	KUNIT_ASSERT_EQ(test, lst_msg_unpack(msg, sizeof(msg), &mi), 0);
	KUNIT_EXPECT_EQ(test, lst_get32(msg, LST_TSR_U), 1U);
	KUNIT_EXPECT_EQ(test, lst_get32(msg, LST_TSR_U + 4), 256U);
	KUNIT_EXPECT_EQ(test, lst_get32(msg, LST_TSR_U + 8), 3U);

	/* PING: two u32, the rest left alone. */
	be_header(msg, LST_MSG_TEST_REQST, LST_FEAT_BULK_LEN);
	be_put(b + LST_TSR_SERVICE, LST_SVC_PING, 4);
	be_put(b + LST_TSR_U, 7, 4);
	be_put(b + LST_TSR_U + 4, 9, 4);
	b[LST_TSR_U + 8] = 0x11;
	b[LST_TSR_U + 11] = 0x44;
	KUNIT_ASSERT_EQ(test, lst_msg_unpack(msg, sizeof(msg), &mi), 0);
	KUNIT_EXPECT_EQ(test, lst_get32(msg, LST_TSR_SERVICE), (u32)LST_SVC_PING);
	KUNIT_EXPECT_EQ(test, lst_get32(msg, LST_TSR_U), 7U);
	KUNIT_EXPECT_EQ(test, lst_get32(msg, LST_TSR_U + 4), 9U);
	KUNIT_EXPECT_EQ(test, b[LST_TSR_U + 8], 0x11);
	KUNIT_EXPECT_EQ(test, b[LST_TSR_U + 11], 0x44);
}

/* STAT_REPLY: the counters to its last byte. */
static void wire_be_stat_reply(struct kunit *test)
{
	u8 msg[LST_MSG_SIZE], *b = msg + LST_BODY_OFF;
	struct lst_msg_info mi;

	be_header(msg, LST_MSG_STAT_REPLY, 1);
	be_put(b + LST_STR_REP_FW, 5000, 4);		/* running_ms */
	be_put(b + LST_STR_REP_FW + 16, 2, 4);		/* ping_errors */
	be_put(b + LST_STR_REP_RPC + 20, 1ULL << 40, 8);	/* bulk_get */
	be_put(b + LST_STR_REP_RPC + 28, 3ULL << 33, 8);	/* bulk_put */
	be_put(b + LST_STR_REP_LNET + 12, 77, 4);	/* send_count */
	be_put(b + LST_STR_REP_LNET + 52, 0x0102030405060708ULL, 8);
	KUNIT_ASSERT_EQ(test, lst_msg_unpack(msg, sizeof(msg), &mi), 0);
	KUNIT_EXPECT_EQ(test, lst_get32(msg, LST_STR_REP_FW), 5000U);
	KUNIT_EXPECT_EQ(test, lst_get32(msg, LST_STR_REP_FW + 16), 2U);
	KUNIT_EXPECT_EQ(test, lst_get64(msg, LST_STR_REP_RPC + 20), 1ULL << 40);
	KUNIT_EXPECT_EQ(test, lst_get64(msg, LST_STR_REP_RPC + 28), 3ULL << 33);
	KUNIT_EXPECT_EQ(test, lst_get32(msg, LST_STR_REP_LNET + 12), 77U);
	KUNIT_EXPECT_EQ(test, lst_get64(msg, LST_STR_REP_LNET + 52),
			0x0102030405060708ULL);
}

/* What a receiver refuses, leaving the message as it came. */
static void wire_refused(struct kunit *test)
{
	u8 msg[LST_MSG_SIZE], copy[LST_MSG_SIZE];
	struct lst_msg_info mi;

	be_header(msg, LST_MSG_BRW_REQST, 1);
	memcpy(copy, msg, sizeof(msg));
	KUNIT_EXPECT_EQ(test, lst_msg_unpack(msg, LST_MSG_SIZE - 1, &mi), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, lst_msg_unpack(msg, LST_MSG_SIZE + 1, &mi), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, lst_msg_unpack(msg, 0, &mi), -EMSGSIZE);
	msg[0] ^= 1;					/* no magic */
	KUNIT_EXPECT_EQ(test, lst_msg_unpack(msg, sizeof(msg), &mi), -EPROTO);
	msg[0] ^= 1;
	be_put(msg + LST_HDR_TYPE, LST_MSG_TYPES, 4);	/* no such type */
	KUNIT_EXPECT_EQ(test, lst_msg_unpack(msg, sizeof(msg), &mi), -EBADMSG);
	be_put(msg + LST_HDR_TYPE, 0x0c000000, 4);	/* 12, other order */
	KUNIT_EXPECT_EQ(test, lst_msg_unpack(msg, sizeof(msg), &mi), -EBADMSG);
	be_put(msg + LST_HDR_TYPE, LST_MSG_BRW_REQST, 4);
	KUNIT_EXPECT_EQ(test, memcmp(msg, copy, sizeof(msg)), 0);
}

static void wire_dests(struct kunit *test)
{
	u8 d[2 * LST_DEST_SIZE];

	be_put(d, 0x00020000c0000214ULL, 8);
	be_put(d + 8, 12345, 4);
	be_put(d + 12, 0x00020000c0000215ULL, 8);
	be_put(d + 20, 12345, 4);
	lst_dests_unpack(d, 2, true);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(d), 0x00020000c0000214ULL);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(d + 8), 12345U);
	KUNIT_EXPECT_EQ(test, get_unaligned_le64(d + 12), 0x00020000c0000215ULL);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(d + 20), 12345U);
	/* Little-endian already: untouched. */
	lst_dests_unpack(d, 2, false);
	KUNIT_EXPECT_EQ(test, get_unaligned_le32(d + 20), 12345U);
}

static struct kunit_case lst_wire_cases[] = {
	KUNIT_CASE(wire_body_sizes),
	KUNIT_CASE(wire_ping_example),
	KUNIT_CASE(wire_be_mksn),
	KUNIT_CASE(wire_be_test_params),
	KUNIT_CASE(wire_be_stat_reply),
	KUNIT_CASE(wire_refused),
	KUNIT_CASE(wire_dests),
	{}
};

static struct kunit_suite lst_wire_suite = {
	.name = "lst_wire",
	.test_cases = lst_wire_cases,
};

kunit_test_suite(lst_wire_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit: LNet selftest wire messages");
