// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: nidmap's messages (nidmap/wire.c, Documentation/nidmap.rst).
 * The documented example byte for byte, in both byte orders; every type
 * encoded and decoded back in both byte orders; hostile messages
 * (truncated at every length, bad magic, another protocol version, bad
 * lengths, counts beyond the bytes or the limits, names without a NUL,
 * too many NIDs, nonzero padding, records out of order) refused with the
 * documented error, from exactly-sized buffers so that KASAN sees any
 * read beyond them.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../nidmap/nidmap.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* Documentation/nidmap.rst's example: a NOTICE, little-endian sender. */
static const u8 notice_example[96] = {
	0x50, 0x41, 0x4d, 0x4e, 0x01, 0x00, 0x01, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x60, 0x00, 0x00, 0x00,
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
	0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x39, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x02, 0x00, 0x03, 0xc0, 0xa8, 0x01, 0x03,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* The documented REGISTER example: lustre-OST0000 at two NIDs. */
static const u8 register_example[144] = {
	0x50, 0x41, 0x4d, 0x4e, 0x01, 0x00, 0x04, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x90, 0x00, 0x00, 0x00,
	0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* record: version 0, flags 0, name_len 15, 2 NIDs, 0 nets */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x0f, 0x02, 0x00, 0x00, 0x00, 0x00,
	/* "lustre-OST0000" */
	0x6c, 0x75, 0x73, 0x74, 0x72, 0x65, 0x2d, 0x4f,
	0x53, 0x54, 0x30, 0x30, 0x30, 0x30, 0x00, 0x00,
	/* 192.168.1.3@tcp3, then 2001:db8::3@tcp */
	0x00, 0x02, 0x00, 0x03, 0xc0, 0xa8, 0x01, 0x03,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x0c, 0x02, 0x00, 0x00,
	0x20, 0x01, 0x0d, 0xb8, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03,
};

/*
 * The documented batch REGISTER: fs-MDT0000 at 10.0.0.1@tcp added, and
 * fs-OST0001 removed, in one message (incarnation 2, seq 8).
 */
static const u8 register_batch_example[160] = {
	0x50, 0x41, 0x4d, 0x4e, 0x01, 0x00, 0x04, 0x00,
	0x00, 0x00, 0x00, 0x00, 0xa0, 0x00, 0x00, 0x00,
	0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* record 0: version 0, flags 0, name_len 11, 1 NID, 0 nets */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x0b, 0x01, 0x00, 0x00, 0x00, 0x00,
	/* "fs-MDT0000" */
	0x66, 0x73, 0x2d, 0x4d, 0x44, 0x54, 0x30, 0x30,
	0x30, 0x30, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* 10.0.0.1@tcp, then 4 bytes of padding */
	0x00, 0x02, 0x00, 0x00, 0x0a, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* record 1: version 0, flags DELETED, name_len 11, no NID */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x01, 0x00, 0x0b, 0x00, 0x00, 0x00, 0x00, 0x00,
	/* "fs-OST0001" */
	0x66, 0x73, 0x2d, 0x4f, 0x53, 0x54, 0x30, 0x30,
	0x30, 0x31, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* A copy of @data in a buffer of exactly @len bytes (KASAN's redzone). */
static u8 *dup_exact(struct kunit *test, const void *data, size_t len)
{
	u8 *p = kunit_kmalloc(test, len ? len : 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	memcpy(p, data, len);
	return p;
}

static void example_rec(struct nidmap_rec *rec)
{
	memset(rec, 0, sizeof(*rec));
	strscpy(rec->name, "lustre-OST0000", sizeof(rec->name));
	rec->nnids = 2;
	rec->nids[0].nid_type = LNET_LND_SOCK;
	rec->nids[0].nid_num = cpu_to_be16(3);
	rec->nids[0].nid_addr[0] = cpu_to_be32(0xc0a80103);
	rec->nids[1].nid_size = 12;
	rec->nids[1].nid_type = LNET_LND_SOCK;
	rec->nids[1].nid_addr[0] = cpu_to_be32(0x20010db8);
	rec->nids[1].nid_addr[3] = cpu_to_be32(3);
}

static void wire_examples(struct kunit *test)
{
	struct nidmap_hdr hdr = { .type = NIDMAP_NOTICE,
				  .incarnation = 0x1122334455667788ULL,
				  .seq = 1, .epoch = 5, .version = 57,
				  .base = 3 };
	struct nidmap_rec *recs = kunit_kzalloc(test, 2 * sizeof(*recs),
						GFP_KERNEL);
	struct nidmap_enc enc;
	struct nidmap_iter it;
	struct nidmap_msg msg;
	struct lnet_nid nid;
	u8 buf[256], *p;
	int len, pass;

	KUNIT_ASSERT_NOT_NULL(test, recs);
#define rec (recs[0])
#define got (recs[1])
	/* Ours, byte for byte (this host is little-endian or swaps). */
	example_rec(&rec);
	KUNIT_ASSERT_EQ(test, nidmap_enc_init(&enc, buf, sizeof(buf), &hdr), 0);
	KUNIT_ASSERT_EQ(test, nidmap_enc_nid(&enc, &rec.nids[0]), 0);
	len = nidmap_enc_finish(&enc, 0);
	KUNIT_ASSERT_EQ(test, len, (int)sizeof(notice_example));
	if (IS_ENABLED(CONFIG_CPU_BIG_ENDIAN))
		KUNIT_ASSERT_EQ(test, nidmap_msg_swab(buf, len), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf, notice_example, len), 0);

	/* Both byte orders decode to the same. */
	for (pass = 0; pass < 2; pass++) {
		p = dup_exact(test, notice_example, sizeof(notice_example));
		if (pass)
			KUNIT_ASSERT_EQ(test, nidmap_msg_swab(p, 96), 0);
		KUNIT_ASSERT_EQ(test, nidmap_msg_decode(p, 96, &msg), 0);
		KUNIT_EXPECT_EQ(test, msg.hdr.type, NIDMAP_NOTICE);
		KUNIT_EXPECT_EQ(test, msg.hdr.incarnation,
				0x1122334455667788ULL);
		KUNIT_EXPECT_EQ(test, msg.hdr.version, 57ULL);
		KUNIT_EXPECT_EQ(test, msg.hdr.base, 3ULL);
		KUNIT_EXPECT_EQ(test, msg.hdr.epoch, 5ULL);
		KUNIT_EXPECT_EQ(test, msg.hdr.swabbed,
				pass != IS_ENABLED(CONFIG_CPU_BIG_ENDIAN));
		nidmap_iter_init(&it, &msg);
		KUNIT_ASSERT_TRUE(test, nidmap_iter_nid(&it, &nid));
		KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&nid, &rec.nids[0]));
		KUNIT_EXPECT_FALSE(test, nidmap_iter_nid(&it, &nid));

		p = dup_exact(test, register_example,
			      sizeof(register_example));
		if (pass)
			KUNIT_ASSERT_EQ(test, nidmap_msg_swab(p, 144), 0);
		KUNIT_ASSERT_EQ(test, nidmap_msg_decode(p, 144, &msg), 0);
		KUNIT_EXPECT_EQ(test, msg.hdr.type, NIDMAP_REGISTER);
		KUNIT_EXPECT_EQ(test, msg.hdr.seq, 7ULL);
		nidmap_iter_init(&it, &msg);
		KUNIT_ASSERT_TRUE(test, nidmap_iter_rec(&it, &got));
		KUNIT_EXPECT_EQ(test, memcmp(&got, &rec, sizeof(rec)), 0);
		KUNIT_EXPECT_FALSE(test, nidmap_iter_rec(&it, &got));
	}
#undef rec
#undef got
}

/*
 * The batch REGISTER example: our encoder writes it byte for byte (a
 * big-endian host's bytes swapped back), and both byte orders decode to
 * the two records, in order.
 */
static void wire_register_batch_example(struct kunit *test)
{
	struct nidmap_hdr hdr = { .type = NIDMAP_REGISTER, .incarnation = 2,
				  .seq = 8 };
	size_t len = sizeof(register_batch_example);
	struct nidmap_rec *recs = kunit_kcalloc(test, 3, sizeof(*recs),
						GFP_KERNEL);
	struct nidmap_enc enc;
	struct nidmap_iter it;
	struct nidmap_msg msg;
	u8 buf[256], *p;
	int i, pass;

	KUNIT_ASSERT_NOT_NULL(test, recs);
	strscpy(recs[0].name, "fs-MDT0000", sizeof(recs[0].name));
	recs[0].nnids = 1;
	recs[0].nids[0].nid_type = LNET_LND_SOCK;
	recs[0].nids[0].nid_addr[0] = cpu_to_be32(0x0a000001);
	strscpy(recs[1].name, "fs-OST0001", sizeof(recs[1].name));
	recs[1].flags = NIDMAP_R_DELETED;
	KUNIT_ASSERT_EQ(test, nidmap_enc_init(&enc, buf, sizeof(buf), &hdr), 0);
	KUNIT_ASSERT_EQ(test, nidmap_enc_rec(&enc, &recs[0]), 0);
	KUNIT_ASSERT_EQ(test, nidmap_enc_rec(&enc, &recs[1]), 0);
	KUNIT_ASSERT_EQ(test, nidmap_enc_finish(&enc, 0), (int)len);
	if (IS_ENABLED(CONFIG_CPU_BIG_ENDIAN))
		KUNIT_ASSERT_EQ(test, nidmap_msg_swab(buf, len), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf, register_batch_example, len), 0);

	for (pass = 0; pass < 2; pass++) {
		p = dup_exact(test, register_batch_example, len);
		if (pass)
			KUNIT_ASSERT_EQ(test, nidmap_msg_swab(p, len), 0);
		KUNIT_ASSERT_EQ(test, nidmap_msg_decode(p, len, &msg), 0);
		KUNIT_EXPECT_EQ(test, msg.hdr.type, NIDMAP_REGISTER);
		KUNIT_EXPECT_EQ(test, msg.hdr.count, 2U);
		KUNIT_EXPECT_EQ(test, msg.hdr.seq, 8ULL);
		nidmap_iter_init(&it, &msg);
		for (i = 0; i < 2; i++) {
			KUNIT_ASSERT_TRUE(test, nidmap_iter_rec(&it, &recs[2]));
			KUNIT_EXPECT_EQ(test, memcmp(&recs[2], &recs[i],
						     sizeof(recs[2])), 0);
		}
		KUNIT_EXPECT_FALSE(test, nidmap_iter_rec(&it, &recs[2]));
	}
}

/* Encode one message of each type, check it decodes back, both orders. */
static void wire_round_trip(struct kunit *test)
{
	static const u16 types[] = { NIDMAP_NOTICE, NIDMAP_FETCH,
				     NIDMAP_FETCH_REPLY, NIDMAP_REGISTER,
				     NIDMAP_SUBSCRIBE, NIDMAP_STATUS };
	struct nidmap_rec *recs, *r;
	struct nidmap_hdr hdr;
	struct nidmap_enc enc;
	struct nidmap_iter it;
	struct nidmap_msg msg;
	int i, k, len, pass, rc = 0;
	u8 *buf, *p;

	buf = kunit_kzalloc(test, 4096, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	/* recs[0..2], then a copy being encoded, then one decoded. */
	recs = kunit_kzalloc(test, 5 * sizeof(*recs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, recs);
	r = &recs[3];
#define got (recs[4])
	for (k = 0; k < 3; k++) {
		example_rec(&recs[k]);
		recs[k].name[13] = '0' + k;
		recs[k].version = 10 + k;
	}
	/* A router with nets, a tombstone, the most NIDs. */
	recs[1].flags = NIDMAP_R_ROUTER;
	recs[1].nnets = 2;
	recs[1].nets[0] = lnet_mknet(LNET_LND_O2IB, 1);
	recs[1].nets[1] = lnet_mknet(LNET_LND_SOCK, 7);
	memset(recs[2].nids, 0, sizeof(recs[2].nids));
	recs[2].nnids = NIDMAP_NIDS_MAX;
	for (k = 0; k < NIDMAP_NIDS_MAX; k++) {
		recs[2].nids[k].nid_type = LNET_LND_O2IB;
		recs[2].nids[k].nid_addr[0] = cpu_to_be32(0x0a000001 + 15 - k);
	}

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		for (pass = 0; pass < 2; pass++) {
			memset(&hdr, 0, sizeof(hdr));
			hdr.type = types[i];
			hdr.incarnation = 0xabcdef0123ULL;
			hdr.seq = 99;
			hdr.epoch = 3;
			hdr.version = 12;
			if (types[i] == NIDMAP_FETCH_REPLY ||
			    types[i] == NIDMAP_STATUS)
				hdr.reply_to = 42;
			if (types[i] == NIDMAP_FETCH_REPLY) {
				hdr.base = 9;
				hdr.flags = NIDMAP_F_MORE;
			}
			if (types[i] == NIDMAP_STATUS)
				hdr.status = NIDMAP_ST_PERM;
			if (pass)
				hdr.flags |= NIDMAP_F_AUTH;
			KUNIT_ASSERT_EQ(test, nidmap_enc_init(&enc, buf, 4096,
							      &hdr), 0);
			for (k = 0; k < 3; k++) {
				*r = recs[k];
				if (types[i] == NIDMAP_NOTICE)
					rc = nidmap_enc_nid(&enc, &r->nids[k]);
				if (types[i] == NIDMAP_REGISTER)
					r->version = 0;
				if (types[i] == NIDMAP_REGISTER ||
				    types[i] == NIDMAP_FETCH_REPLY)
					rc = nidmap_enc_rec(&enc, r);
				KUNIT_ASSERT_EQ(test, rc, 0);
			}
			if (types[i] == NIDMAP_FETCH)
				rc = nidmap_enc_fetch(&enc, 65536);
			KUNIT_ASSERT_EQ(test, rc, 0);
			len = nidmap_enc_finish(&enc, pass ? 32 : 0);
			KUNIT_ASSERT_GT(test, len, 0);
			p = dup_exact(test, buf, len);
			if (pass)
				KUNIT_ASSERT_EQ(test, nidmap_msg_swab(p, len), 0);
			KUNIT_ASSERT_EQ_MSG(test, nidmap_msg_decode(p, len, &msg),
					    0, "type %u pass %d", types[i], pass);
			KUNIT_EXPECT_EQ(test, msg.hdr.type, types[i]);
			KUNIT_EXPECT_EQ(test, msg.hdr.flags, hdr.flags);
			KUNIT_EXPECT_EQ(test, msg.hdr.seq, 99ULL);
			KUNIT_EXPECT_EQ(test, msg.hdr.reply_to, hdr.reply_to);
			KUNIT_EXPECT_EQ(test, msg.hdr.status, hdr.status);
			KUNIT_EXPECT_EQ(test, msg.hdr.incarnation,
					0xabcdef0123ULL);
			KUNIT_EXPECT_EQ(test, msg.hdr.trailer_len, pass ? 32 : 0);
			KUNIT_EXPECT_EQ(test, !!msg.trailer, pass);
			if (types[i] == NIDMAP_FETCH)
				KUNIT_EXPECT_EQ(test, msg.room, 65536U);
			nidmap_iter_init(&it, &msg);
			for (k = 0; k < 3 && (types[i] == NIDMAP_REGISTER ||
					      types[i] == NIDMAP_FETCH_REPLY);
			     k++) {
				KUNIT_ASSERT_TRUE(test, nidmap_iter_rec(&it, &got));
				if (types[i] == NIDMAP_REGISTER)
					got.version = recs[k].version;
				/* Failover order and nets kept. */
				KUNIT_EXPECT_EQ(test, memcmp(&got, &recs[k],
							     sizeof(got)), 0);
			}
			KUNIT_EXPECT_FALSE(test, nidmap_iter_rec(&it, &got));
		}
	}
#undef got
}

/* @data (@len) with @n bytes at @off replaced by @val, decoded. */
static int decode_patched(struct kunit *test, const u8 *data, size_t len,
			  size_t off, const void *val, size_t n)
{
	struct nidmap_msg msg;
	u8 *p = dup_exact(test, data, len);

	memcpy(p + off, val, n);
	return nidmap_msg_decode(p, len, &msg);
}

static void wire_hostile(struct kunit *test)
{
	const u8 *reg = register_example;
	struct nidmap_msg msg;
	u32 v32;
	u16 v16;
	u8 v8, *p;
	size_t len;

	/* Every truncation of both examples, never read beyond. */
	for (len = 0; len < sizeof(register_example); len++) {
		p = dup_exact(test, reg, len);
		KUNIT_EXPECT_EQ(test, nidmap_msg_decode(p, len, &msg),
				-EMSGSIZE);
	}
	for (len = 0; len < sizeof(notice_example); len++) {
		p = dup_exact(test, notice_example, len);
		KUNIT_EXPECT_EQ(test, nidmap_msg_decode(p, len, &msg),
				-EMSGSIZE);
	}
	v32 = 0x12345678;
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 0, &v32, 4),
			-EBADMSG);
	v16 = 2;
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 4, &v16, 2),
			-EPROTONOSUPPORT);
	v16 = 77;
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 6, &v16, 2),
			-EOPNOTSUPP);
	/* Unknown must-understand flag refused, an optional one ignored. */
	v32 = 0x0100;
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 8, &v32, 4),
			-EPROTO);
	v32 = 0x10000;
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 8, &v32, 4), 0);
	v32 = NIDMAP_F_MORE;
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 8, &v32, 4),
			-EPROTO);
	/* Length field against the bytes there are. */
	v32 = 152;
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 12, &v32, 4),
			-EMSGSIZE);
	v32 = 136;
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 12, &v32, 4),
			-EMSGSIZE);
	/* Counts: beyond the bytes, beyond the limit, one short. */
	v32 = 0xffffffff;
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 64, &v32, 4),
			-E2BIG);
	v32 = 2;
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 64, &v32, 4),
			-EPROTO);
	v32 = 0;
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 64, &v32, 4),
			-EPROTO);
	/* Status in a request; a trailer without AUTH; no seq. */
	v16 = 1;
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 68, &v16, 2),
			-EPROTO);
	v16 = 8;
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 70, &v16, 2),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 24,
					     "\0\0\0\0\0\0\0\0", 8), -EPROTO);
	/* Records: a version in a REGISTER, unknown flags, reserved. */
	v8 = 1;
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 72, &v8, 1),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 81, &v8, 1),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 86, &v8, 1),
			-EPROTO);
	/* Names: no NUL, NUL early, a bad character, too long a length. */
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 102, "X", 1),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 90, "\0", 1),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 90, " ", 1),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 103, "\1", 1),
			-EPROTO);
	v8 = 65;
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 82, &v8, 1),
			-EPROTO);
	v8 = 1;
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 82, &v8, 1),
			-EPROTO);
	v8 = 16;	/* the NUL then within the padding: no NUL at 15 */
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 82, &v8, 1),
			-EPROTO);
	/* NIDs: too many, one more than there is room for, bad, the same. */
	v8 = NIDMAP_NIDS_MAX + 1;
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 83, &v8, 1),
			-E2BIG);
	v8 = 3;
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 83, &v8, 1),
			-EPROTO);
	v8 = 0;
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 83, &v8, 1),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 105, "\xff", 1),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 105, "\x09", 1),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 120, "\x01", 1),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 124,
					     reg + 104, 20), -EPROTO);
	/* Nets without the router flag. */
	v8 = 1;
	KUNIT_EXPECT_EQ(test, decode_patched(test, reg, 144, 84, &v8, 1),
			-EPROTO);
}

/* A FETCH_REPLY's records must be in (base, version], in order. */
static void wire_reply_order(struct kunit *test)
{
	struct nidmap_hdr hdr = { .type = NIDMAP_FETCH_REPLY,
				  .incarnation = 1, .seq = 1, .reply_to = 5,
				  .epoch = 1, .version = 20, .base = 10 };
	struct nidmap_rec rec;
	struct nidmap_enc enc;
	struct nidmap_msg msg;
	u8 *buf = kunit_kzalloc(test, 2048, GFP_KERNEL);
	static const u64 cases[][2] = {
		{ 11, 20 }, { 12, 11 }, { 10, 12 }, { 15, 21 }, { 13, 13 },
	};
	int c, len;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	example_rec(&rec);
	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		KUNIT_ASSERT_EQ(test, nidmap_enc_init(&enc, buf, 2048, &hdr), 0);
		rec.version = cases[c][0];
		KUNIT_ASSERT_EQ(test, nidmap_enc_rec(&enc, &rec), 0);
		rec.version = cases[c][1];
		rec.name[0] = 'L';
		KUNIT_ASSERT_EQ(test, nidmap_enc_rec(&enc, &rec), 0);
		rec.name[0] = 'l';
		len = nidmap_enc_finish(&enc, 0);
		KUNIT_ASSERT_GT(test, len, 0);
		KUNIT_EXPECT_EQ(test, nidmap_msg_decode(buf, len, &msg),
				c ? -EPROTO : 0);
	}
	/* The encoder refuses what the decoder would. */
	KUNIT_ASSERT_EQ(test, nidmap_enc_init(&enc, buf, 2048, &hdr), 0);
	rec.version = 0;
	KUNIT_EXPECT_EQ(test, nidmap_enc_rec(&enc, &rec), -EPROTO);
	rec.version = 11;
	rec.nnids = NIDMAP_NIDS_MAX + 1;
	KUNIT_EXPECT_EQ(test, nidmap_enc_rec(&enc, &rec), -E2BIG);
	rec.nnids = 2;
	KUNIT_ASSERT_EQ(test, nidmap_enc_init(&enc, buf, 100, &hdr), 0);
	KUNIT_EXPECT_EQ(test, nidmap_enc_rec(&enc, &rec), -ENOSPC);
	KUNIT_EXPECT_EQ(test, nidmap_errno_to_status(-EPERM), NIDMAP_ST_PERM);
	KUNIT_EXPECT_EQ(test, nidmap_errno_to_status(-EBADMSG),
			NIDMAP_ST_PROTO);
}

static struct kunit_case nidmap_wire_cases[] = {
	KUNIT_CASE(wire_examples),
	KUNIT_CASE(wire_register_batch_example),
	KUNIT_CASE(wire_round_trip),
	KUNIT_CASE(wire_hostile),
	KUNIT_CASE(wire_reply_order),
	{}
};

static struct kunit_suite nidmap_wire_suite = {
	.name = "nidmap_wire",
	.test_cases = nidmap_wire_cases,
};

kunit_test_suite(nidmap_wire_suite);

MODULE_DESCRIPTION("KUnit tests for nidmap's messages: layout, byte orders, hostile input");
MODULE_LICENSE("GPL");
