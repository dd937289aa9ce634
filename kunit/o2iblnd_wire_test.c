// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: ko2iblnd's wire codec (lnd/o2ib/wire.c) against byte vectors
 * written out by hand from the wire protocol specification, sections 5.2
 * (header), 5.4-5.5 (types, sizes, bodies), 5.6 (NID hash), 5.7 (reject),
 * 5.10 (receive validation) and 5.11 (checksum).  Vectors are
 * little-endian, as the senders we talk to are; a big-endian sender is
 * made from them by swapping the fields the spec tables list as SBO.
 */
#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/string.h>

#include "../lnd/o2ib/wire.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define NID_A		0x00050000C0A8010AULL	/* A: 192.168.1.10@o2ib */
#define NID_B		0x00050000C0A8010BULL	/* B: 192.168.1.11@o2ib */
#define STAMP_A		0x1122334455667788ULL
#define STAMP_B		0x0102030405060708ULL

#define COOKIE_S	0xa1a2a3a4a5a6a7a8ULL	/* the PUT source's */
#define COOKIE_K	0xb1b2b3b4b5b6b7b8ULL	/* the PUT sink's */
#define COOKIE_G	0xc1c2c3c4c5c6c7c8ULL	/* the GET initiator's */

/* CONNREQ A -> B: queue depth 8, 257 fragments, 4096-byte messages. */
static const u8 v_connreq[56] = {
	0x91, 0x1b, 0xe9, 0x0b,			/* magic */
	0x12, 0x00,				/* version 2 */
	0xc0,					/* CONNREQ */
	0x00,					/* credits */
	0x38, 0x00, 0x00, 0x00,			/* nob 56 */
	0x00, 0x00, 0x00, 0x00,			/* cksum */
	0x0a, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x05, 0x00,	/* srcnid A */
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,	/* srcstamp */
	0x0b, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x05, 0x00,	/* dstnid B */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* dststamp: unknown */
	0x08, 0x00,				/* queue_depth */
	0x01, 0x01,				/* max_frags 257 */
	0x00, 0x10, 0x00, 0x00,			/* max_msg_size */
};

/* CONNACK B -> A: queue depth 4, 256 fragments. */
static const u8 v_connack[56] = {
	0x91, 0x1b, 0xe9, 0x0b,			/* magic */
	0x12, 0x00,
	0xc1,					/* CONNACK */
	0x00,
	0x38, 0x00, 0x00, 0x00,			/* nob 56 */
	0x00, 0x00, 0x00, 0x00,
	0x0b, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x05, 0x00,	/* srcnid B */
	0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,	/* srcstamp */
	0x0a, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x05, 0x00,	/* dstnid A */
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,	/* dststamp */
	0x04, 0x00,				/* queue_depth */
	0x00, 0x01,				/* max_frags 256 */
	0x00, 0x10, 0x00, 0x00,			/* max_msg_size */
};

/* NOOP A -> B returning 3 credits. */
static const u8 v_noop[48] = {
	0x91, 0x1b, 0xe9, 0x0b,			/* magic */
	0x12, 0x00,
	0xd0,					/* NOOP */
	0x03,					/* credits */
	0x30, 0x00, 0x00, 0x00,			/* nob 48 */
	0x00, 0x00, 0x00, 0x00,
	0x0a, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x05, 0x00,	/* srcnid A */
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,	/* srcstamp */
	0x0b, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x05, 0x00,	/* dstnid B */
	0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,	/* dststamp */
};

/* IMMEDIATE A -> B: an 8-byte PUT inline, 1 credit. */
static const u8 v_immediate[128] = {
	0x91, 0x1b, 0xe9, 0x0b,			/* magic */
	0x12, 0x00,
	0xd1,					/* IMMEDIATE */
	0x01,
	0x80, 0x00, 0x00, 0x00,			/* nob 128 */
	0x00, 0x00, 0x00, 0x00,
	0x0a, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x05, 0x00,	/* srcnid A */
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,	/* srcstamp */
	0x0b, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x05, 0x00,	/* dstnid B */
	0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,	/* dststamp */
	0x0b, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x05, 0x00,	/* dest_nid */
	0x0a, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x05, 0x00,	/* src_nid */
	0x39, 0x30, 0x00, 0x00,			/* dest_pid 12345 */
	0x39, 0x30, 0x00, 0x00,			/* src_pid */
	0x01, 0x00, 0x00, 0x00,			/* type PUT */
	0x08, 0x00, 0x00, 0x00,			/* payload_length 8 */
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,	/* ack_wmd: NONE */
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* match_bits 0x400 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* hdr_data */
	0x04, 0x00, 0x00, 0x00,			/* ptl_index 4 */
	0x00, 0x00, 0x00, 0x00,			/* offset */
	0xde, 0xad, 0xbe, 0xef, 0x80, 0x81, 0x82, 0x83,	/* payload at 120 */
};

/* PUT_REQ A -> B: a 1 MiB PUT, cookie S. */
static const u8 v_putreq[128] = {
	0x91, 0x1b, 0xe9, 0x0b,			/* magic */
	0x12, 0x00,
	0xd2,					/* PUT_REQ */
	0x00,
	0x80, 0x00, 0x00, 0x00,			/* nob 128 */
	0x00, 0x00, 0x00, 0x00,
	0x0a, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x05, 0x00,	/* srcnid A */
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,	/* srcstamp */
	0x0b, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x05, 0x00,	/* dstnid B */
	0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,	/* dststamp */
	0x0b, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x05, 0x00,	/* dest_nid */
	0x0a, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x05, 0x00,	/* src_nid */
	0x39, 0x30, 0x00, 0x00,			/* dest_pid 12345 */
	0x39, 0x30, 0x00, 0x00,			/* src_pid */
	0x01, 0x00, 0x00, 0x00,			/* type PUT */
	0x00, 0x00, 0x10, 0x00,			/* payload_length 1048576 */
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,	/* ack_wmd: NONE */
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* match_bits 0x400 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* hdr_data */
	0x04, 0x00, 0x00, 0x00,			/* ptl_index 4 */
	0x00, 0x00, 0x00, 0x00,			/* offset */
	0xa8, 0xa7, 0xa6, 0xa5, 0xa4, 0xa3, 0xa2, 0xa1,	/* cookie S at 120 */
};

/* PUT_ACK B -> A: one fragment, 1 MiB at 0xffff888012345000. */
static const u8 v_putack1[84] = {
	0x91, 0x1b, 0xe9, 0x0b,			/* magic */
	0x12, 0x00,
	0xd4,					/* PUT_ACK */
	0x00,
	0x54, 0x00, 0x00, 0x00,			/* nob 84 */
	0x00, 0x00, 0x00, 0x00,
	0x0b, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x05, 0x00,	/* srcnid B */
	0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,	/* srcstamp */
	0x0a, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x05, 0x00,	/* dstnid A */
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,	/* dststamp */
	0xa8, 0xa7, 0xa6, 0xa5, 0xa4, 0xa3, 0xa2, 0xa1,	/* src_cookie at 48 */
	0xb8, 0xb7, 0xb6, 0xb5, 0xb4, 0xb3, 0xb2, 0xb1,	/* dst_cookie at 56 */
	0x78, 0x56, 0x34, 0x12,			/* rd_key at 64 */
	0x01, 0x00, 0x00, 0x00,			/* rd_nfrags */
	0x00, 0x00, 0x10, 0x00,			/* rf_nob at 72 */
	0x00, 0x50, 0x34, 0x12, 0x80, 0x88, 0xff, 0xff,	/* rf_addr at 76 */
};

/* PUT_ACK B -> A: two fragments, 4 KiB at 0x7f0000001000, 8 KiB at ...3000. */
static const u8 v_putack2[96] = {
	0x91, 0x1b, 0xe9, 0x0b,			/* magic */
	0x12, 0x00,
	0xd4,
	0x00,
	0x60, 0x00, 0x00, 0x00,			/* nob 96 */
	0x00, 0x00, 0x00, 0x00,
	0x0b, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x05, 0x00,	/* srcnid B */
	0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,	/* srcstamp */
	0x0a, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x05, 0x00,	/* dstnid A */
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,	/* dststamp */
	0xa8, 0xa7, 0xa6, 0xa5, 0xa4, 0xa3, 0xa2, 0xa1,	/* src_cookie S */
	0xb8, 0xb7, 0xb6, 0xb5, 0xb4, 0xb3, 0xb2, 0xb1,	/* dst_cookie K */
	0x78, 0x56, 0x34, 0x12,			/* rd_key */
	0x02, 0x00, 0x00, 0x00,			/* rd_nfrags */
	0x00, 0x10, 0x00, 0x00,			/* [0] nob at 72 */
	0x00, 0x10, 0x00, 0x00, 0x00, 0x7f, 0x00, 0x00,	/* [0] addr at 76 */
	0x00, 0x20, 0x00, 0x00,			/* [1] nob at 84 */
	0x00, 0x30, 0x00, 0x00, 0x00, 0x7f, 0x00, 0x00,	/* [1] addr at 88 */
};

/* GET_REQ A -> B: cookie G, reply sink 8 KiB at 0x200000000, key 0x0badcafe. */
static const u8 v_getreq[148] = {
	0x91, 0x1b, 0xe9, 0x0b,			/* magic */
	0x12, 0x00,
	0xd6,					/* GET_REQ */
	0x02,					/* credits */
	0x94, 0x00, 0x00, 0x00,			/* nob 148 */
	0x00, 0x00, 0x00, 0x00,
	0x0a, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x05, 0x00,	/* srcnid A */
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,	/* srcstamp */
	0x0b, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x05, 0x00,	/* dstnid B */
	0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,	/* dststamp */
	0x0b, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x05, 0x00,	/* dest_nid */
	0x0a, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x05, 0x00,	/* src_nid */
	0x39, 0x30, 0x00, 0x00,			/* dest_pid 12345 */
	0x39, 0x30, 0x00, 0x00,			/* src_pid */
	0x02, 0x00, 0x00, 0x00,			/* type GET */
	0x00, 0x00, 0x00, 0x00,			/* payload_length */
	0xef, 0xbe, 0xad, 0xde, 0x00, 0x00, 0x00, 0x00,	/* return_wmd */
	0x2a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* match_bits 0x400 */
	0x04, 0x00, 0x00, 0x00,			/* ptl_index 4 */
	0x00, 0x00, 0x00, 0x00,			/* src_offset */
	0x00, 0x20, 0x00, 0x00,			/* sink_length 8192 */
	0x00, 0x00, 0x00, 0x00,			/* unused */
	0xc8, 0xc7, 0xc6, 0xc5, 0xc4, 0xc3, 0xc2, 0xc1,	/* cookie G at 120 */
	0xfe, 0xca, 0xad, 0x0b,			/* rd_key at 128 */
	0x01, 0x00, 0x00, 0x00,			/* rd_nfrags */
	0x00, 0x20, 0x00, 0x00,			/* rf_nob at 136 */
	0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,	/* rf_addr at 140 */
};

/* PUT_DONE A -> B: cookie K, status -EIO (-5). */
static const u8 v_putdone[60] = {
	0x91, 0x1b, 0xe9, 0x0b,			/* magic */
	0x12, 0x00,
	0xd5,					/* PUT_DONE */
	0x00,
	0x3c, 0x00, 0x00, 0x00,			/* nob 60 */
	0x00, 0x00, 0x00, 0x00,
	0x0a, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x05, 0x00,	/* srcnid A */
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,	/* srcstamp */
	0x0b, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x05, 0x00,	/* dstnid B */
	0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,	/* dststamp */
	0xb8, 0xb7, 0xb6, 0xb5, 0xb4, 0xb3, 0xb2, 0xb1,	/* cookie K at 48 */
	0xfb, 0xff, 0xff, 0xff,			/* status at 56 */
};

/* GET_DONE B -> A: cookie G, status -ENODATA (-61). */
static const u8 v_getdone[60] = {
	0x91, 0x1b, 0xe9, 0x0b,			/* magic */
	0x12, 0x00,
	0xd7,					/* GET_DONE */
	0x00,
	0x3c, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
	0x0b, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x05, 0x00,	/* srcnid B */
	0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,	/* srcstamp */
	0x0a, 0x01, 0xa8, 0xc0, 0x00, 0x00, 0x05, 0x00,	/* dstnid A */
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,	/* dststamp */
	0xc8, 0xc7, 0xc6, 0xc5, 0xc4, 0xc3, 0xc2, 0xc1,	/* cookie G at 48 */
	0xc3, 0xff, 0xff, 0xff,			/* status at 56 */
};

/* Reject by B: MSG_QUEUE_SIZE, its queue depth 4. */
static const u8 v_rej[24] = {
	0x91, 0x1b, 0xe9, 0x0b,			/* magic */
	0x12, 0x00,				/* version 2 */
	0x07,					/* why MSG_QUEUE_SIZE */
	0x00,					/* padding */
	0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,	/* incarnation */
	0x04, 0x00,				/* queue_depth */
	0x01, 0x01,				/* max_frags 257 */
	0x00, 0x10, 0x00, 0x00,			/* max_msg_size */
};

/* Reject by a V1 peer: FATAL; nothing after the padding. */
static const u8 v_rej_v1[8] = {
	0x91, 0x1b, 0xe9, 0x0b,			/* magic */
	0x11, 0x00,				/* version 1 */
	0x03,					/* why FATAL */
	0x00,
};

/*
 * The SBO fields of each message (spec 5.2, 5.5): {offset, size}.  A
 * big-endian sender writes each of them reversed.
 */
struct sbo_field {
	u8 off;
	u8 size;
};

static const struct sbo_field sbo_hdr[] = {
	{0, 4}, {4, 2}, {8, 4}, {12, 4}, {16, 8}, {24, 8}, {32, 8}, {40, 8}, {}
};

static const struct sbo_field sbo_connparams[] = {
	{48, 2}, {50, 2}, {52, 4}, {}
};

static const struct sbo_field sbo_none[] = { {} };

static const struct sbo_field sbo_putreq[] = { {120, 8}, {} };

static const struct sbo_field sbo_putack1[] = {
	{48, 8}, {56, 8}, {64, 4}, {68, 4}, {72, 4}, {76, 8}, {}
};

static const struct sbo_field sbo_putack2[] = {
	{48, 8}, {56, 8}, {64, 4}, {68, 4}, {72, 4}, {76, 8}, {84, 4}, {88, 8},
	{}
};

static const struct sbo_field sbo_getreq[] = {
	{120, 8}, {128, 4}, {132, 4}, {136, 4}, {140, 8}, {}
};

static const struct sbo_field sbo_completion[] = { {48, 8}, {56, 4}, {} };

static const struct sbo_field sbo_rej[] = {
	{0, 4}, {4, 2}, {8, 8}, {16, 2}, {18, 2}, {20, 4}, {}
};

static void flip_fields(u8 *buf, const struct sbo_field *f)
{
	u8 t;
	int i;

	for (; f->size; f++)
		for (i = 0; i < f->size / 2; i++) {
			t = buf[f->off + i];
			buf[f->off + i] = buf[f->off + f->size - 1 - i];
			buf[f->off + f->size - 1 - i] = t;
		}
}

/* A message as a big-endian sender writes it: header and @body fields. */
static void sbo_flip(u8 *buf, const struct sbo_field *body)
{
	flip_fields(buf, sbo_hdr);
	flip_fields(buf, body);
}

struct vector {
	const char *name;
	const u8 *bytes;
	u32 nob;
	const struct sbo_field *sbo;
};

#define VEC(v, s) { #v, v, sizeof(v), s }

static const struct vector vectors[] = {
	VEC(v_connreq, sbo_connparams),
	VEC(v_connack, sbo_connparams),
	VEC(v_noop, sbo_none),
	VEC(v_immediate, sbo_none),
	VEC(v_putreq, sbo_putreq),
	VEC(v_putack1, sbo_putack1),
	VEC(v_putack2, sbo_putack2),
	VEC(v_getreq, sbo_getreq),
	VEC(v_putdone, sbo_completion),
	VEC(v_getdone, sbo_completion),
};

/* A byte-by-byte comparison naming the first difference. */
static void expect_bytes(struct kunit *test, const void *got,
			 const void *want, size_t n, const char *what)
{
	const u8 *g = got, *w = want;
	size_t i;

	for (i = 0; i < n; i++) {
		if (g[i] != w[i]) {
			KUNIT_FAIL(test, "%s: byte %zu is 0x%02x, want 0x%02x",
				   what, i, g[i], w[i]);
			return;
		}
	}
}

#define EXPECT_BYTES(test, got, want, n) \
	expect_bytes(test, got, want, n, #got)

/* A message buffer as the LND posts it, so unaligned fields stay so. */
static struct kib_msg *msg_buf(struct kunit *test, const u8 *vec, u32 nob)
{
	u8 *buf = kunit_kzalloc(test, IBLND_MSG_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	if (vec)
		memcpy(buf, vec, nob);
	return (struct kib_msg *)buf;
}

static void expect_hdr(struct kunit *test, const struct kib_msg *m, u8 type,
		       u8 credits, u32 nob, u64 src, u64 srcstamp, u64 dst,
		       u64 dststamp)
{
	KUNIT_EXPECT_EQ(test, m->ibm_version, (u16)IBLND_MSG_VERSION_2);
	KUNIT_EXPECT_EQ(test, m->ibm_type, type);
	KUNIT_EXPECT_EQ(test, m->ibm_credits, credits);
	KUNIT_EXPECT_EQ(test, m->ibm_nob, nob);
	KUNIT_EXPECT_EQ(test, m->ibm_cksum, 0U);
	KUNIT_EXPECT_EQ(test, m->ibm_srcnid, src);
	KUNIT_EXPECT_EQ(test, m->ibm_srcstamp, srcstamp);
	KUNIT_EXPECT_EQ(test, m->ibm_dstnid, dst);
	KUNIT_EXPECT_EQ(test, m->ibm_dststamp, dststamp);
}

static void wire_min_size(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, kib_msg_min_size(IBLND_MSG_CONNREQ), (size_t)56);
	KUNIT_EXPECT_EQ(test, kib_msg_min_size(IBLND_MSG_CONNACK), (size_t)56);
	KUNIT_EXPECT_EQ(test, kib_msg_min_size(IBLND_MSG_NOOP), (size_t)48);
	KUNIT_EXPECT_EQ(test, kib_msg_min_size(IBLND_MSG_IMMEDIATE),
			(size_t)120);
	KUNIT_EXPECT_EQ(test, kib_msg_min_size(IBLND_MSG_PUT_REQ), (size_t)128);
	KUNIT_EXPECT_EQ(test, kib_msg_min_size(IBLND_MSG_PUT_NAK), (size_t)60);
	KUNIT_EXPECT_EQ(test, kib_msg_min_size(IBLND_MSG_PUT_ACK), (size_t)72);
	KUNIT_EXPECT_EQ(test, kib_msg_min_size(IBLND_MSG_PUT_DONE), (size_t)60);
	KUNIT_EXPECT_EQ(test, kib_msg_min_size(IBLND_MSG_GET_REQ), (size_t)136);
	KUNIT_EXPECT_EQ(test, kib_msg_min_size(IBLND_MSG_GET_DONE), (size_t)60);
	KUNIT_EXPECT_EQ(test, kib_msg_min_size(0xd8), (size_t)0);
	KUNIT_EXPECT_EQ(test, kib_msg_min_size(0xc2), (size_t)0);
	KUNIT_EXPECT_EQ(test, kib_msg_min_size(0x00), (size_t)0);
	KUNIT_EXPECT_EQ(test, kib_rdma_desc_size(0), 8U);
	KUNIT_EXPECT_EQ(test, kib_rdma_desc_size(1), 20U);
	KUNIT_EXPECT_EQ(test, kib_rdma_desc_size(IBLND_MAX_RDMA_FRAGS), 3092U);
}

static void wire_connparams(struct kunit *test)
{
	struct kib_msg *m = msg_buf(test, NULL, 0);

	/* pack: the body first, then the header. */
	m->ibm_u.connparams.ibcp_queue_depth = 8;
	m->ibm_u.connparams.ibcp_max_frags = IBLND_MAX_RDMA_FRAGS;
	m->ibm_u.connparams.ibcp_max_msg_size = IBLND_MSG_SIZE;
	kib_msg_pack(m, IBLND_MSG_VERSION, IBLND_MSG_CONNREQ, 0,
		     IBLND_CONNPARAMS_SIZE, NID_A, STAMP_A, NID_B, 0, false);
	EXPECT_BYTES(test, m, v_connreq, sizeof(v_connreq));

	m->ibm_u.connparams.ibcp_queue_depth = 4;
	m->ibm_u.connparams.ibcp_max_frags = 256;
	kib_msg_pack(m, IBLND_MSG_VERSION, IBLND_MSG_CONNACK, 0,
		     IBLND_CONNPARAMS_SIZE, NID_B, STAMP_B, NID_A, STAMP_A,
		     false);
	EXPECT_BYTES(test, m, v_connack, sizeof(v_connack));

	m = msg_buf(test, v_connreq, sizeof(v_connreq));
	KUNIT_ASSERT_EQ(test, kib_msg_unpack(m, sizeof(v_connreq)),
			KIB_WIRE_OK);
	KUNIT_EXPECT_EQ(test, m->ibm_magic, IBLND_MSG_MAGIC);
	expect_hdr(test, m, IBLND_MSG_CONNREQ, 0, 56, NID_A, STAMP_A, NID_B, 0);
	KUNIT_EXPECT_EQ(test, m->ibm_u.connparams.ibcp_queue_depth, 8);
	KUNIT_EXPECT_EQ(test, m->ibm_u.connparams.ibcp_max_frags, 257);
	KUNIT_EXPECT_EQ(test, m->ibm_u.connparams.ibcp_max_msg_size, 4096U);

	m = msg_buf(test, v_connack, sizeof(v_connack));
	KUNIT_ASSERT_EQ(test, kib_msg_unpack(m, sizeof(v_connack)),
			KIB_WIRE_OK);
	expect_hdr(test, m, IBLND_MSG_CONNACK, 0, 56, NID_B, STAMP_B, NID_A,
		   STAMP_A);
	KUNIT_EXPECT_EQ(test, m->ibm_u.connparams.ibcp_queue_depth, 4);
	KUNIT_EXPECT_EQ(test, m->ibm_u.connparams.ibcp_max_frags, 256);
	KUNIT_EXPECT_EQ(test, m->ibm_u.connparams.ibcp_max_msg_size, 4096U);
}

/* A CONNREQ from a big-endian peer, written out in full. */
static void wire_connreq_be(struct kunit *test)
{
	static const u8 be[56] = {
		0x0b, 0xe9, 0x1b, 0x91,			/* magic */
		0x00, 0x12,				/* version */
		0xc0, 0x00,				/* type, credits */
		0x00, 0x00, 0x00, 0x38,			/* nob */
		0x00, 0x00, 0x00, 0x00,			/* cksum */
		0x00, 0x05, 0x00, 0x00, 0xc0, 0xa8, 0x01, 0x0a,
		0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
		0x00, 0x05, 0x00, 0x00, 0xc0, 0xa8, 0x01, 0x0b,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x08, 0x01, 0x01,			/* qd 8, 257 frags */
		0x00, 0x00, 0x10, 0x00,			/* 4096 */
	};
	struct kib_msg *m = msg_buf(test, be, sizeof(be));

	KUNIT_ASSERT_EQ(test, kib_msg_unpack(m, sizeof(be)), KIB_WIRE_OK);
	/* The magic stays as received: the peer's byte order. */
	KUNIT_EXPECT_EQ(test, m->ibm_magic, swab32(IBLND_MSG_MAGIC));
	expect_hdr(test, m, IBLND_MSG_CONNREQ, 0, 56, NID_A, STAMP_A, NID_B, 0);
	KUNIT_EXPECT_EQ(test, m->ibm_u.connparams.ibcp_queue_depth, 8);
	KUNIT_EXPECT_EQ(test, m->ibm_u.connparams.ibcp_max_frags, 257);
	KUNIT_EXPECT_EQ(test, m->ibm_u.connparams.ibcp_max_msg_size, 4096U);
	/* Everything after the magic is now our (little-endian) CONNREQ. */
	EXPECT_BYTES(test, (u8 *)m + 4, v_connreq + 4, 52);
}

static void wire_noop(struct kunit *test)
{
	struct kib_msg *m = msg_buf(test, NULL, 0);

	kib_msg_pack(m, IBLND_MSG_VERSION, IBLND_MSG_NOOP, 3,
		     IBLND_MSG_HDR_SIZE, NID_A, STAMP_A, NID_B, STAMP_B, false);
	EXPECT_BYTES(test, m, v_noop, sizeof(v_noop));

	m = msg_buf(test, v_noop, sizeof(v_noop));
	/* The receive buffer is bigger than the message. */
	KUNIT_ASSERT_EQ(test, kib_msg_unpack(m, IBLND_MSG_SIZE), KIB_WIRE_OK);
	expect_hdr(test, m, IBLND_MSG_NOOP, 3, 48, NID_A, STAMP_A, NID_B,
		   STAMP_B);
}

static void wire_immediate(struct kunit *test)
{
	static const u8 payload[8] = {
		0xde, 0xad, 0xbe, 0xef, 0x80, 0x81, 0x82, 0x83
	};
	struct kib_msg *m = msg_buf(test, NULL, 0);

	memcpy(m->ibm_u.immediate.ibim_hdr, v_immediate + 48,
	       LNET_HDR_NID4_SIZE);
	memcpy(m->ibm_u.immediate.ibim_payload, payload, sizeof(payload));
	kib_msg_pack(m, IBLND_MSG_VERSION, IBLND_MSG_IMMEDIATE, 1,
		     IBLND_IMMEDIATE_HDR_SIZE + sizeof(payload), NID_A, STAMP_A,
		     NID_B, STAMP_B, false);
	EXPECT_BYTES(test, m, v_immediate, sizeof(v_immediate));

	m = msg_buf(test, v_immediate, sizeof(v_immediate));
	KUNIT_ASSERT_EQ(test, kib_msg_unpack(m, sizeof(v_immediate)),
			KIB_WIRE_OK);
	expect_hdr(test, m, IBLND_MSG_IMMEDIATE, 1, 128, NID_A, STAMP_A, NID_B,
		   STAMP_B);
	EXPECT_BYTES(test, m->ibm_u.immediate.ibim_hdr, v_immediate + 48,
		     LNET_HDR_NID4_SIZE);
	EXPECT_BYTES(test, m->ibm_u.immediate.ibim_payload, payload,
		     sizeof(payload));
}

static void wire_putreq(struct kunit *test)
{
	struct kib_msg *m = msg_buf(test, NULL, 0);

	memcpy(m->ibm_u.putreq.ibprm_hdr, v_putreq + 48, LNET_HDR_NID4_SIZE);
	m->ibm_u.putreq.ibprm_cookie = COOKIE_S;
	kib_msg_pack(m, IBLND_MSG_VERSION, IBLND_MSG_PUT_REQ, 0, 128, NID_A,
		     STAMP_A, NID_B, STAMP_B, false);
	EXPECT_BYTES(test, m, v_putreq, sizeof(v_putreq));

	m = msg_buf(test, v_putreq, sizeof(v_putreq));
	KUNIT_ASSERT_EQ(test, kib_msg_unpack(m, sizeof(v_putreq)),
			KIB_WIRE_OK);
	expect_hdr(test, m, IBLND_MSG_PUT_REQ, 0, 128, NID_A, STAMP_A, NID_B,
		   STAMP_B);
	KUNIT_EXPECT_EQ(test, m->ibm_u.putreq.ibprm_cookie, COOKIE_S);
	EXPECT_BYTES(test, m->ibm_u.putreq.ibprm_hdr, v_putreq + 48,
		     LNET_HDR_NID4_SIZE);
}

static void wire_putack(struct kunit *test)
{
	struct kib_msg *m = msg_buf(test, NULL, 0);
	struct kib_rdma_desc *rd = &m->ibm_u.putack.ibpam_rd;
	u64 addr;

	m->ibm_u.putack.ibpam_src_cookie = COOKIE_S;
	m->ibm_u.putack.ibpam_dst_cookie = COOKIE_K;
	rd->rd_key = 0x12345678;
	rd->rd_nfrags = 1;
	rd->rd_frags[0].rf_nob = 0x100000;
	rd->rd_frags[0].rf_addr = 0xffff888012345000ULL;
	kib_msg_pack(m, IBLND_MSG_VERSION, IBLND_MSG_PUT_ACK, 0,
		     64 + kib_rdma_desc_size(1), NID_B, STAMP_B, NID_A,
		     STAMP_A, false);
	EXPECT_BYTES(test, m, v_putack1, sizeof(v_putack1));

	m = msg_buf(test, v_putack1, sizeof(v_putack1));
	KUNIT_ASSERT_EQ(test, kib_msg_unpack(m, sizeof(v_putack1)),
			KIB_WIRE_OK);
	expect_hdr(test, m, IBLND_MSG_PUT_ACK, 0, 84, NID_B, STAMP_B, NID_A,
		   STAMP_A);
	rd = &m->ibm_u.putack.ibpam_rd;
	KUNIT_EXPECT_EQ(test, m->ibm_u.putack.ibpam_src_cookie, COOKIE_S);
	KUNIT_EXPECT_EQ(test, m->ibm_u.putack.ibpam_dst_cookie, COOKIE_K);
	KUNIT_EXPECT_EQ(test, rd->rd_key, 0x12345678U);
	KUNIT_EXPECT_EQ(test, rd->rd_nfrags, 1U);
	KUNIT_EXPECT_EQ(test, rd->rd_frags[0].rf_nob, 0x100000U);
	/* rf_addr sits at offset 76: not 8-byte aligned. */
	KUNIT_EXPECT_EQ(test, offsetof(struct kib_msg,
				       ibm_u.putack.ibpam_rd.rd_frags[0].rf_addr),
			(size_t)76);
	KUNIT_EXPECT_EQ(test, rd->rd_frags[0].rf_addr, 0xffff888012345000ULL);
	memcpy(&addr, (u8 *)m + 76, 8);
	KUNIT_EXPECT_EQ(test, addr, 0xffff888012345000ULL);
	KUNIT_EXPECT_EQ(test, kib_rdma_desc_nob(rd), 0x100000ULL);

	m = msg_buf(test, v_putack2, sizeof(v_putack2));
	KUNIT_ASSERT_EQ(test, kib_msg_unpack(m, sizeof(v_putack2)),
			KIB_WIRE_OK);
	rd = &m->ibm_u.putack.ibpam_rd;
	KUNIT_EXPECT_EQ(test, m->ibm_nob, 96U);
	KUNIT_EXPECT_EQ(test, rd->rd_nfrags, 2U);
	KUNIT_EXPECT_EQ(test, rd->rd_frags[0].rf_nob, 0x1000U);
	KUNIT_EXPECT_EQ(test, rd->rd_frags[0].rf_addr, 0x7f0000001000ULL);
	KUNIT_EXPECT_EQ(test, rd->rd_frags[1].rf_nob, 0x2000U);
	KUNIT_EXPECT_EQ(test, offsetof(struct kib_msg,
				       ibm_u.putack.ibpam_rd.rd_frags[1].rf_addr),
			(size_t)88);
	memcpy(&addr, (u8 *)m + 88, 8);
	KUNIT_EXPECT_EQ(test, addr, 0x7f0000003000ULL);
	KUNIT_EXPECT_EQ(test, rd->rd_frags[1].rf_addr, 0x7f0000003000ULL);
	KUNIT_EXPECT_EQ(test, kib_rdma_desc_nob(rd), 0x3000ULL);
}

static void wire_getreq(struct kunit *test)
{
	struct kib_msg *m = msg_buf(test, NULL, 0);
	struct kib_rdma_desc *rd = &m->ibm_u.get.ibgm_rd;
	u64 addr;

	memcpy(m->ibm_u.get.ibgm_hdr, v_getreq + 48, LNET_HDR_NID4_SIZE);
	m->ibm_u.get.ibgm_cookie = COOKIE_G;
	rd->rd_key = 0x0badcafe;
	rd->rd_nfrags = 1;
	rd->rd_frags[0].rf_nob = 8192;
	rd->rd_frags[0].rf_addr = 0x200000000ULL;
	kib_msg_pack(m, IBLND_MSG_VERSION, IBLND_MSG_GET_REQ, 2,
		     128 + kib_rdma_desc_size(1), NID_A, STAMP_A, NID_B,
		     STAMP_B, false);
	EXPECT_BYTES(test, m, v_getreq, sizeof(v_getreq));

	m = msg_buf(test, v_getreq, sizeof(v_getreq));
	KUNIT_ASSERT_EQ(test, kib_msg_unpack(m, sizeof(v_getreq)),
			KIB_WIRE_OK);
	expect_hdr(test, m, IBLND_MSG_GET_REQ, 2, 148, NID_A, STAMP_A, NID_B,
		   STAMP_B);
	rd = &m->ibm_u.get.ibgm_rd;
	KUNIT_EXPECT_EQ(test, m->ibm_u.get.ibgm_cookie, COOKIE_G);
	KUNIT_EXPECT_EQ(test, rd->rd_key, 0x0badcafeU);
	KUNIT_EXPECT_EQ(test, rd->rd_nfrags, 1U);
	KUNIT_EXPECT_EQ(test, rd->rd_frags[0].rf_nob, 8192U);
	KUNIT_EXPECT_EQ(test, offsetof(struct kib_msg,
				       ibm_u.get.ibgm_rd.rd_frags[0].rf_addr),
			(size_t)140);
	KUNIT_EXPECT_EQ(test, rd->rd_frags[0].rf_addr, 0x200000000ULL);
	memcpy(&addr, (u8 *)m + 140, 8);
	KUNIT_EXPECT_EQ(test, addr, 0x200000000ULL);
	KUNIT_EXPECT_EQ(test, kib_rdma_desc_nob(rd), 8192ULL);
	EXPECT_BYTES(test, m->ibm_u.get.ibgm_hdr, v_getreq + 48,
		     LNET_HDR_NID4_SIZE);
}

static void wire_completion(struct kunit *test)
{
	struct kib_msg *m = msg_buf(test, NULL, 0);

	m->ibm_u.completion.ibcm_cookie = COOKIE_K;
	m->ibm_u.completion.ibcm_status = -EIO;
	kib_msg_pack(m, IBLND_MSG_VERSION, IBLND_MSG_PUT_DONE, 0, 60, NID_A,
		     STAMP_A, NID_B, STAMP_B, false);
	EXPECT_BYTES(test, m, v_putdone, sizeof(v_putdone));

	m->ibm_u.completion.ibcm_cookie = COOKIE_G;
	m->ibm_u.completion.ibcm_status = -ENODATA;
	kib_msg_pack(m, IBLND_MSG_VERSION, IBLND_MSG_GET_DONE, 0, 60, NID_B,
		     STAMP_B, NID_A, STAMP_A, false);
	EXPECT_BYTES(test, m, v_getdone, sizeof(v_getdone));

	m = msg_buf(test, v_putdone, sizeof(v_putdone));
	KUNIT_ASSERT_EQ(test, kib_msg_unpack(m, sizeof(v_putdone)),
			KIB_WIRE_OK);
	expect_hdr(test, m, IBLND_MSG_PUT_DONE, 0, 60, NID_A, STAMP_A, NID_B,
		   STAMP_B);
	KUNIT_EXPECT_EQ(test, m->ibm_u.completion.ibcm_cookie, COOKIE_K);
	KUNIT_EXPECT_EQ(test, m->ibm_u.completion.ibcm_status, -5);

	m = msg_buf(test, v_getdone, sizeof(v_getdone));
	KUNIT_ASSERT_EQ(test, kib_msg_unpack(m, sizeof(v_getdone)),
			KIB_WIRE_OK);
	KUNIT_EXPECT_EQ(test, m->ibm_type, IBLND_MSG_GET_DONE);
	KUNIT_EXPECT_EQ(test, m->ibm_u.completion.ibcm_cookie, COOKIE_G);
	KUNIT_EXPECT_EQ(test, m->ibm_u.completion.ibcm_status, -61);

	/* PUT_NAK has the same body. */
	m = msg_buf(test, v_getdone, sizeof(v_getdone));
	((u8 *)m)[6] = IBLND_MSG_PUT_NAK;
	KUNIT_ASSERT_EQ(test, kib_msg_unpack(m, sizeof(v_getdone)),
			KIB_WIRE_OK);
	KUNIT_EXPECT_EQ(test, m->ibm_u.completion.ibcm_status, -61);
}

/*
 * Every vector from a big-endian sender: after unpack, the buffer equals
 * the little-endian vector's after unpack, but for the magic left as
 * received.  The LNet headers, never swapped by the sender, must not be
 * swapped by the receiver either.
 */
static void wire_flipped(struct kunit *test)
{
	const struct vector *v;

	for (v = vectors; v < vectors + ARRAY_SIZE(vectors); v++) {
		struct kib_msg *le = msg_buf(test, v->bytes, v->nob);
		struct kib_msg *be = msg_buf(test, v->bytes, v->nob);

		kunit_info(test, "%s\n", v->name);
		sbo_flip((u8 *)be, v->sbo);
		KUNIT_EXPECT_EQ(test, be->ibm_magic, swab32(IBLND_MSG_MAGIC));
		KUNIT_ASSERT_EQ(test, kib_msg_unpack(le, v->nob), KIB_WIRE_OK);
		KUNIT_ASSERT_EQ(test, kib_msg_unpack(be, v->nob), KIB_WIRE_OK);
		KUNIT_EXPECT_EQ(test, be->ibm_magic, swab32(IBLND_MSG_MAGIC));
		EXPECT_BYTES(test, (u8 *)be + 4, (u8 *)le + 4, v->nob - 4);
	}
}

static enum kib_wire_err unpack_mod(struct kunit *test, const u8 *vec,
				    u32 nob, u32 received, u32 off, u8 val)
{
	struct kib_msg *m = msg_buf(test, vec, nob);

	((u8 *)m)[off] = val;
	return kib_msg_unpack(m, received);
}

static void wire_refuse(struct kunit *test)
{
	const u32 n = sizeof(v_connreq);
	struct kib_msg *m;

	/* Too short for a magic, then for a header. */
	KUNIT_EXPECT_EQ(test, unpack_mod(test, v_noop, 48, 0, 7, 3),
			KIB_WIRE_SHORT);
	KUNIT_EXPECT_EQ(test, unpack_mod(test, v_noop, 48, 3, 7, 3),
			KIB_WIRE_SHORT);
	KUNIT_EXPECT_EQ(test, unpack_mod(test, v_noop, 48, 47, 7, 3),
			KIB_WIRE_SHORT);
	/* The magic is checked first, from 4 bytes on. */
	KUNIT_EXPECT_EQ(test, unpack_mod(test, v_noop, 48, 4, 0, 0x92),
			KIB_WIRE_BAD_MAGIC);
	KUNIT_EXPECT_EQ(test, unpack_mod(test, v_connreq, n, n, 3, 0x0a),
			KIB_WIRE_BAD_MAGIC);
	/* LNET_PROTO_MAGIC, either order, is not a message magic. */
	m = msg_buf(test, v_connreq, n);
	memcpy(m, "\x63\x69\x72\x45", 4);
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(m, n), KIB_WIRE_BAD_MAGIC);
	memcpy(m, "\x45\x72\x69\x63", 4);
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(m, n), KIB_WIRE_BAD_MAGIC);
	/* Versions: 0x11 passes, 0x13 and 0x10 do not. */
	KUNIT_EXPECT_EQ(test, unpack_mod(test, v_connreq, n, n, 4, 0x11),
			KIB_WIRE_OK);
	KUNIT_EXPECT_EQ(test, unpack_mod(test, v_connreq, n, n, 4, 0x13),
			KIB_WIRE_BAD_VERSION);
	KUNIT_EXPECT_EQ(test, unpack_mod(test, v_connreq, n, n, 4, 0x10),
			KIB_WIRE_BAD_VERSION);
	KUNIT_EXPECT_EQ(test, unpack_mod(test, v_connreq, n, n, 5, 0x12),
			KIB_WIRE_BAD_VERSION);
	/* nob > received, nob < 48, nob below the type's minimum. */
	KUNIT_EXPECT_EQ(test, unpack_mod(test, v_connreq, n, n - 1, 7, 0),
			KIB_WIRE_BAD_NOB);
	KUNIT_EXPECT_EQ(test, unpack_mod(test, v_connreq, n, n, 8, 57),
			KIB_WIRE_BAD_NOB);
	KUNIT_EXPECT_EQ(test, unpack_mod(test, v_connreq, n, n, 11, 1),
			KIB_WIRE_BAD_NOB);
	KUNIT_EXPECT_EQ(test, unpack_mod(test, v_noop, 48, 48, 8, 47),
			KIB_WIRE_BAD_NOB);
	KUNIT_EXPECT_EQ(test, unpack_mod(test, v_connreq, n, n, 8, 52),
			KIB_WIRE_BAD_NOB);
	KUNIT_EXPECT_EQ(test, unpack_mod(test, v_putack1, 84, 84, 8, 71),
			KIB_WIRE_BAD_NOB);
	KUNIT_EXPECT_EQ(test, unpack_mod(test, v_getreq, 148, 148, 8, 135),
			KIB_WIRE_BAD_NOB);
	KUNIT_EXPECT_EQ(test, unpack_mod(test, v_putdone, 60, 60, 8, 59),
			KIB_WIRE_BAD_NOB);
	KUNIT_EXPECT_EQ(test, unpack_mod(test, v_immediate, 128, 128, 8, 119),
			KIB_WIRE_BAD_NOB);
	/* Unknown types. */
	KUNIT_EXPECT_EQ(test, unpack_mod(test, v_noop, 48, 48, 6, 0xd8),
			KIB_WIRE_BAD_TYPE);
	KUNIT_EXPECT_EQ(test, unpack_mod(test, v_noop, 48, 48, 6, 0xc2),
			KIB_WIRE_BAD_TYPE);
	/* srcnid LNET_NID_ANY. */
	m = msg_buf(test, v_noop, 48);
	m->ibm_srcnid = LNET_NID_ANY;
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(m, 48), KIB_WIRE_BAD_SRCNID);
	/* Fragments: 0, 258, and more than nob holds. */
	KUNIT_EXPECT_EQ(test, unpack_mod(test, v_putack1, 84, 84, 68, 0),
			KIB_WIRE_BAD_FRAGS);
	m = msg_buf(test, v_putack1, 84);
	m->ibm_u.putack.ibpam_rd.rd_nfrags = IBLND_MAX_RDMA_FRAGS + 1;
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(m, 84), KIB_WIRE_BAD_FRAGS);
	KUNIT_EXPECT_EQ(test, unpack_mod(test, v_putack1, 84, 84, 68, 2),
			KIB_WIRE_BAD_FRAGS);
	/* 2 fragments in a 2-fragment nob, received in a bigger buffer. */
	KUNIT_EXPECT_EQ(test, unpack_mod(test, v_putack2, 96, 4096, 68, 2),
			KIB_WIRE_OK);
	KUNIT_EXPECT_EQ(test, unpack_mod(test, v_putack2, 96, 96, 8, 95),
			KIB_WIRE_BAD_FRAGS);
	KUNIT_EXPECT_EQ(test, unpack_mod(test, v_getreq, 148, 148, 132, 0),
			KIB_WIRE_BAD_FRAGS);
	KUNIT_EXPECT_EQ(test, unpack_mod(test, v_getreq, 148, 148, 132, 2),
			KIB_WIRE_BAD_FRAGS);
	/*
	 * nfrags 0x40000001: 8 + 12 * nfrags wraps to 20 in 32 bits, which
	 * nob would cover.
	 */
	KUNIT_EXPECT_EQ(test, unpack_mod(test, v_getreq, 148, 148, 135, 0x40),
			KIB_WIRE_BAD_FRAGS);
	/* 257 fragments fit in 4096 bytes. */
	m = msg_buf(test, v_putack1, 84);
	m->ibm_nob = 64 + kib_rdma_desc_size(IBLND_MAX_RDMA_FRAGS);
	m->ibm_u.putack.ibpam_rd.rd_nfrags = IBLND_MAX_RDMA_FRAGS;
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(m, IBLND_MSG_SIZE), KIB_WIRE_OK);
	/* A refused message from a big-endian peer is left as received. */
	m = msg_buf(test, v_putack1, 84);
	sbo_flip((u8 *)m, sbo_putack1);
	((u8 *)m)[71] = 0;	/* nfrags 0 */
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(m, 84), KIB_WIRE_BAD_FRAGS);
	KUNIT_EXPECT_EQ(test, ((u8 *)m)[11], 84);
}

/*
 * The checksum of v_immediate (ibm_cksum 0), computed apart from wire.c
 * per spec 5.11, adding bytes unsigned and sign-extended (bytes >= 0x80 differ).
 */
#define CKSUM_IMM_U	0x5e107999U
#define CKSUM_IMM_S	0x5caecac7U

static void wire_cksum(struct kunit *test)
{
	static const u8 zero[48];
	struct kib_msg *m = msg_buf(test, v_immediate, sizeof(v_immediate));
	u32 c;

	KUNIT_EXPECT_EQ(test, kib_msg_cksum(v_immediate, 128), CKSUM_IMM_U);
	KUNIT_EXPECT_EQ(test, kib_msg_cksum(v_immediate, 1), 0x91U);
	KUNIT_EXPECT_EQ(test, kib_msg_cksum(v_immediate, 2), 0x13dU);
	/* A sum of 0 is sent as 1. */
	KUNIT_EXPECT_EQ(test, kib_msg_cksum(zero, sizeof(zero)), 1U);
	KUNIT_EXPECT_EQ(test, kib_msg_cksum(zero, 0), 1U);

	/* pack with the checksum: the vector with the sum at 12. */
	kib_msg_pack(m, IBLND_MSG_VERSION, IBLND_MSG_IMMEDIATE, 1, 128, NID_A,
		     STAMP_A, NID_B, STAMP_B, true);
	KUNIT_EXPECT_EQ(test, ((u8 *)m)[12], 0x99);
	KUNIT_EXPECT_EQ(test, ((u8 *)m)[13], 0x79);
	KUNIT_EXPECT_EQ(test, ((u8 *)m)[14], 0x10);
	KUNIT_EXPECT_EQ(test, ((u8 *)m)[15], 0x5e);
	EXPECT_BYTES(test, m, v_immediate, 12);
	EXPECT_BYTES(test, (u8 *)m + 16, v_immediate + 16, 128 - 16);
	KUNIT_ASSERT_EQ(test, kib_msg_unpack(m, 128), KIB_WIRE_OK);
	KUNIT_EXPECT_EQ(test, m->ibm_cksum, CKSUM_IMM_U);

	/* A flipped payload byte, a wrong sum. */
	m = msg_buf(test, v_immediate, sizeof(v_immediate));
	m->ibm_cksum = CKSUM_IMM_U;
	((u8 *)m)[127] ^= 0x01;
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(m, 128), KIB_WIRE_BAD_CKSUM);
	KUNIT_EXPECT_EQ(test, m->ibm_cksum, CKSUM_IMM_U);	/* untouched */
	m = msg_buf(test, v_immediate, sizeof(v_immediate));
	m->ibm_cksum = CKSUM_IMM_U + 1;
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(m, 128), KIB_WIRE_BAD_CKSUM);
	/* Bytes past nob are not summed. */
	m = msg_buf(test, v_immediate, sizeof(v_immediate));
	m->ibm_cksum = CKSUM_IMM_U;
	((u8 *)m)[128] = 0x55;
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(m, 129), KIB_WIRE_OK);

	/* Sign-extended chars (older Lustre on x86 before Linux 6.2). */
	m = msg_buf(test, v_immediate, sizeof(v_immediate));
	m->ibm_cksum = CKSUM_IMM_S;
	KUNIT_EXPECT_EQ(test, kib_msg_unpack(m, 128), KIB_WIRE_OK);
	KUNIT_EXPECT_EQ(test, m->ibm_cksum, CKSUM_IMM_S);

	/* A big-endian sender sums its own bytes and sends the sum swapped. */
	m = msg_buf(test, v_immediate, sizeof(v_immediate));
	sbo_flip((u8 *)m, sbo_none);
	c = kib_msg_cksum(m, 128);
	KUNIT_EXPECT_NE(test, c, CKSUM_IMM_U);
	m->ibm_cksum = swab32(c);
	KUNIT_ASSERT_EQ(test, kib_msg_unpack(m, 128), KIB_WIRE_OK);
	KUNIT_EXPECT_EQ(test, m->ibm_cksum, c);
	KUNIT_EXPECT_EQ(test, m->ibm_nob, 128U);
}

static void wire_rej(struct kunit *test)
{
	u8 buf[148];
	struct kib_rej rej;

	kib_rej_pack(&rej, IBLND_MSG_VERSION, IBLND_REJECT_MSG_QUEUE_SIZE,
		     STAMP_B, 4);
	EXPECT_BYTES(test, &rej, v_rej, sizeof(v_rej));

	/* As IB delivers it: padded to 148 bytes. */
	memset(buf, 0xaa, sizeof(buf));
	memcpy(buf, v_rej, sizeof(v_rej));
	memset(&rej, 0x55, sizeof(rej));
	KUNIT_ASSERT_EQ(test, kib_rej_unpack(buf, sizeof(buf), &rej), 0);
	KUNIT_EXPECT_EQ(test, rej.ibr_magic, IBLND_MSG_MAGIC);
	KUNIT_EXPECT_EQ(test, rej.ibr_version, (u16)IBLND_MSG_VERSION_2);
	KUNIT_EXPECT_EQ(test, rej.ibr_why, IBLND_REJECT_MSG_QUEUE_SIZE);
	KUNIT_EXPECT_EQ(test, rej.ibr_padding, 0);
	KUNIT_EXPECT_EQ(test, rej.ibr_incarnation, STAMP_B);
	KUNIT_EXPECT_EQ(test, rej.ibr_cp.ibcp_queue_depth, 4);
	KUNIT_EXPECT_EQ(test, rej.ibr_cp.ibcp_max_frags, 257);
	KUNIT_EXPECT_EQ(test, rej.ibr_cp.ibcp_max_msg_size, 4096U);

	/* Exactly 24 bytes, from a big-endian peer. */
	memcpy(buf, v_rej, sizeof(v_rej));
	flip_fields(buf, sbo_rej);
	KUNIT_ASSERT_EQ(test, kib_rej_unpack(buf, IBLND_REJ_SIZE, &rej), 0);
	EXPECT_BYTES(test, &rej, v_rej, sizeof(v_rej));

	/* Fewer than 24 bytes: no incarnation, no connparams. */
	memcpy(buf, v_rej, sizeof(v_rej));
	KUNIT_ASSERT_EQ(test, kib_rej_unpack(buf, 23, &rej), 0);
	KUNIT_EXPECT_EQ(test, rej.ibr_why, IBLND_REJECT_MSG_QUEUE_SIZE);
	KUNIT_EXPECT_EQ(test, rej.ibr_incarnation, 0ULL);
	KUNIT_EXPECT_EQ(test, rej.ibr_cp.ibcp_queue_depth, 0);

	/* LNET_PROTO_MAGIC is accepted too. */
	memcpy(buf, "\x63\x69\x72\x45", 4);
	KUNIT_ASSERT_EQ(test, kib_rej_unpack(buf, 24, &rej), 0);
	KUNIT_EXPECT_EQ(test, rej.ibr_magic, IBLND_PROTO_MAGIC);
	KUNIT_EXPECT_EQ(test, rej.ibr_incarnation, STAMP_B);
	memcpy(buf, "\x45\x72\x69\x63\x00\x12", 6);
	KUNIT_ASSERT_EQ(test, kib_rej_unpack(buf, 24, &rej), 0);
	KUNIT_EXPECT_EQ(test, rej.ibr_magic, IBLND_PROTO_MAGIC);
	KUNIT_EXPECT_EQ(test, rej.ibr_version, (u16)IBLND_MSG_VERSION_2);
	KUNIT_EXPECT_EQ(test, rej.ibr_incarnation, swab64(STAMP_B));

	/* Refused: an unknown magic, fewer than 8 bytes. */
	memcpy(buf, v_rej, sizeof(v_rej));
	buf[0] ^= 0x80;
	KUNIT_EXPECT_EQ(test, kib_rej_unpack(buf, 24, &rej), -EPROTO);
	memcpy(buf, v_rej, sizeof(v_rej));
	KUNIT_EXPECT_EQ(test, kib_rej_unpack(buf, 7, &rej), -EPROTO);
	KUNIT_EXPECT_EQ(test, rej.ibr_magic, 0U);
}

static void wire_rej_v1(struct kunit *test)
{
	u8 buf[148];
	struct kib_rej rej;

	KUNIT_ASSERT_EQ(test, kib_rej_unpack(v_rej_v1, sizeof(v_rej_v1), &rej),
			0);
	KUNIT_EXPECT_EQ(test, rej.ibr_magic, IBLND_MSG_MAGIC);
	KUNIT_EXPECT_EQ(test, rej.ibr_version, (u16)IBLND_MSG_VERSION_1);
	KUNIT_EXPECT_EQ(test, rej.ibr_why, IBLND_REJECT_FATAL);
	KUNIT_EXPECT_EQ(test, rej.ibr_incarnation, 0ULL);
	KUNIT_EXPECT_EQ(test, rej.ibr_cp.ibcp_max_frags, 0);

	/* Padded by IB: version 0x11, so the padding is not read. */
	memset(buf, 0xaa, sizeof(buf));
	memcpy(buf, v_rej_v1, sizeof(v_rej_v1));
	KUNIT_ASSERT_EQ(test, kib_rej_unpack(buf, sizeof(buf), &rej), 0);
	KUNIT_EXPECT_EQ(test, rej.ibr_why, IBLND_REJECT_FATAL);
	KUNIT_EXPECT_EQ(test, rej.ibr_incarnation, 0ULL);
	KUNIT_EXPECT_EQ(test, rej.ibr_cp.ibcp_queue_depth, 0);
	KUNIT_EXPECT_EQ(test, rej.ibr_cp.ibcp_max_msg_size, 0U);

	/* Our V1 reject packs the same first 8 bytes. */
	kib_rej_pack(&rej, IBLND_MSG_VERSION_1, IBLND_REJECT_FATAL, 0, 8);
	EXPECT_BYTES(test, &rej, v_rej_v1, sizeof(v_rej_v1));
}

static void wire_nidhash(struct kunit *test)
{
	/*
	 * 192.168.1.10@o2ib: net (5 << 16) | 0 = 0x00050000; address bytes
	 * c0 a8 01 0a read little-endian = 0x0a01a8c0; XOR = 0x0a04a8c0.
	 */
	KUNIT_EXPECT_EQ(test, kib_nidhash(NID_A), 0x0a04a8c0U);
	/* 10.0.0.1@o2ib3: 0x00050003 ^ 0x0100000a. */
	KUNIT_EXPECT_EQ(test, kib_nidhash(0x000500030A000001ULL), 0x01050009U);
	/* The race is decided by the low address byte first. */
	KUNIT_EXPECT_LT(test, kib_nidhash(NID_A), kib_nidhash(NID_B));
}

static void wire_err_str(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, kib_wire_err_str(KIB_WIRE_OK), "ok");
	KUNIT_EXPECT_STREQ(test, kib_wire_err_str(KIB_WIRE_SHORT), "short");
	KUNIT_EXPECT_STREQ(test, kib_wire_err_str(KIB_WIRE_BAD_MAGIC),
			   "bad_magic");
	KUNIT_EXPECT_STREQ(test, kib_wire_err_str(KIB_WIRE_BAD_VERSION),
			   "bad_version");
	KUNIT_EXPECT_STREQ(test, kib_wire_err_str(KIB_WIRE_BAD_NOB),
			   "bad_nob");
	KUNIT_EXPECT_STREQ(test, kib_wire_err_str(KIB_WIRE_BAD_CKSUM),
			   "bad_cksum");
	KUNIT_EXPECT_STREQ(test, kib_wire_err_str(KIB_WIRE_BAD_TYPE),
			   "bad_type");
	KUNIT_EXPECT_STREQ(test, kib_wire_err_str(KIB_WIRE_BAD_SRCNID),
			   "bad_srcnid");
	KUNIT_EXPECT_STREQ(test, kib_wire_err_str(KIB_WIRE_BAD_FRAGS),
			   "bad_frags");
	KUNIT_EXPECT_STREQ(test, kib_wire_err_str(KIB_WIRE_ERR_COUNT),
			   "unknown");
}

static struct kunit_case o2iblnd_wire_cases[] = {
	KUNIT_CASE(wire_min_size),
	KUNIT_CASE(wire_connparams),
	KUNIT_CASE(wire_connreq_be),
	KUNIT_CASE(wire_noop),
	KUNIT_CASE(wire_immediate),
	KUNIT_CASE(wire_putreq),
	KUNIT_CASE(wire_putack),
	KUNIT_CASE(wire_getreq),
	KUNIT_CASE(wire_completion),
	KUNIT_CASE(wire_flipped),
	KUNIT_CASE(wire_refuse),
	KUNIT_CASE(wire_cksum),
	KUNIT_CASE(wire_rej),
	KUNIT_CASE(wire_rej_v1),
	KUNIT_CASE(wire_nidhash),
	KUNIT_CASE(wire_err_str),
	{}
};

static struct kunit_suite o2iblnd_wire_suite = {
	.name = "o2iblnd_wire",
	.test_cases = o2iblnd_wire_cases,
};

kunit_test_suite(o2iblnd_wire_suite);

MODULE_DESCRIPTION("KUnit tests for the o2iblnd wire codec");
MODULE_LICENSE("GPL");
