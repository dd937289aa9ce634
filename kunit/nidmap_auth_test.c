// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: nidmap's AUTH trailer and replay window (nidmap/auth.c,
 * Documentation/nidmap.rst "Trust").  The documented example's trailer
 * (its MAC computed with Python's hmac) read back and written again;
 * malformed trailers refused with the documented error; the replay
 * window against a model that keeps every seq it took, under random
 * reordering and replays.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../nidmap/auth.h"
#include "xorshift.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define STAMP		1764500000000ULL	/* 2025-11-30 10:53:20 UTC */
#define KEY_ID		7

/* The documented example: a NOTICE of no relay NID, little-endian. */
static const u8 auth_example[120] = {
	0x50, 0x41, 0x4d, 0x4e, 0x01, 0x00, 0x01, 0x00,
	0x01, 0x00, 0x00, 0x00, 0x78, 0x00, 0x00, 0x00,
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11,
	0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x39, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x30, 0x00,
	0x01, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07,
	0x00, 0x00, 0x01, 0x9a, 0xd4, 0x65, 0x4d, 0x00,
	0x21, 0xaf, 0x2c, 0xec, 0x93, 0xfa, 0xfb, 0x14,
	0x18, 0xe9, 0x1c, 0xa1, 0x31, 0xd9, 0xec, 0x84,
	0xb3, 0x6d, 0xda, 0x40, 0x78, 0xa6, 0xea, 0x0e,
	0x82, 0x70, 0x67, 0xbf, 0x0d, 0xe2, 0xdd, 0x59,
};

/* The example's message, unsigned, in a buffer of exactly its size. */
static u8 *example_unsigned(struct kunit *test, u16 trailer_len)
{
	struct nidmap_hdr h = {
		.type = NIDMAP_NOTICE, .flags = NIDMAP_F_AUTH,
		.incarnation = 0x1122334455667788ULL, .seq = 1, .epoch = 5,
		.version = 57, .base = 3,
	};
	size_t len = NIDMAP_HDR_SIZE + trailer_len;
	struct nidmap_enc enc;
	u8 *buf = kunit_kzalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, nidmap_enc_init(&enc, buf, len, &h), 0);
	KUNIT_ASSERT_EQ(test, nidmap_enc_finish(&enc, trailer_len), (int)len);
	return buf;
}

static int parse(const u8 *buf, size_t len, struct nidmap_auth *a)
{
	struct nidmap_msg msg;
	int rc = nidmap_msg_decode(buf, len, &msg);

	return rc ? rc : nidmap_auth_parse(&msg, a);
}

/* The example's trailer: read, and its head written again. */
static void auth_example_trailer(struct kunit *test)
{
	size_t len = sizeof(auth_example);
	u8 *buf = example_unsigned(test, NIDMAP_AUTH_TRAILER_LEN);
	struct nidmap_auth a;

	KUNIT_ASSERT_EQ(test, parse(auth_example, len, &a), 0);
	KUNIT_EXPECT_EQ(test, a.key_id, (u32)KEY_ID);
	KUNIT_EXPECT_EQ(test, a.stamp, STAMP);
	KUNIT_EXPECT_PTR_EQ(test, a.mac, auth_example + len -
			    NIDMAP_AUTH_MAC_LEN);
	/* The encoder and nidmap_auth_head(): the example, MAC aside. */
	nidmap_auth_head(buf + NIDMAP_HDR_SIZE, KEY_ID, STAMP);
	KUNIT_EXPECT_EQ(test, memcmp(buf, auth_example,
				     len - NIDMAP_AUTH_MAC_LEN), 0);
}

static void auth_refusals(struct kunit *test)
{
	size_t len = sizeof(auth_example);
	struct nidmap_hdr h = {
		.type = NIDMAP_NOTICE, .incarnation = 1, .seq = 1,
	};
	struct nidmap_enc enc;
	struct nidmap_auth a;
	u8 *buf, *t;

	/* No trailer at all. */
	buf = kunit_kzalloc(test, NIDMAP_HDR_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, nidmap_enc_init(&enc, buf, NIDMAP_HDR_SIZE, &h),
			0);
	KUNIT_ASSERT_EQ(test, nidmap_enc_finish(&enc, 0), NIDMAP_HDR_SIZE);
	KUNIT_EXPECT_EQ(test, parse(buf, NIDMAP_HDR_SIZE, &a), -EKEYREJECTED);

	/* An algorithm we do not know: AUTH, whatever follows. */
	buf = kunit_kmalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	memcpy(buf, auth_example, len);
	t = buf + len - NIDMAP_AUTH_TRAILER_LEN;
	t[0] = 2;
	KUNIT_EXPECT_EQ(test, parse(buf, len, &a), -EKEYREJECTED);
	t[0] = NIDMAP_AUTH_HMAC_SHA256;
	t[1] = 20;
	KUNIT_EXPECT_EQ(test, parse(buf, len, &a), -EKEYREJECTED);
	t[1] = NIDMAP_AUTH_MAC_LEN;
	KUNIT_EXPECT_EQ(test, parse(buf, len, &a), 0);
	/* Malformed: reserved bytes, key id 0. */
	t[3] = 1;
	KUNIT_EXPECT_EQ(test, parse(buf, len, &a), -EPROTO);
	t[3] = 0;
	memset(t + 4, 0, 4);
	KUNIT_EXPECT_EQ(test, parse(buf, len, &a), -EPROTO);

	/* A trailer of the wrong length for HMAC-SHA256. */
	buf = example_unsigned(test, NIDMAP_AUTH_TRAILER_LEN + 8);
	nidmap_auth_head(buf + NIDMAP_HDR_SIZE, KEY_ID, STAMP);
	KUNIT_EXPECT_EQ(test, parse(buf, len + 8, &a), -EPROTO);
	/* Shorter than the trailer's head: not ours. */
	buf = example_unsigned(test, 8);
	buf[NIDMAP_HDR_SIZE] = NIDMAP_AUTH_HMAC_SHA256;
	buf[NIDMAP_HDR_SIZE + 1] = NIDMAP_AUTH_MAC_LEN;
	KUNIT_EXPECT_EQ(test, parse(buf, NIDMAP_HDR_SIZE + 8, &a),
			-EKEYREJECTED);
}

static void replay_rules(struct kunit *test)
{
	const u64 now = STAMP, skew = NIDMAP_AUTH_SKEW_MS;
	struct nidmap_replay r = { 0 };

	/* Stamps outside the clocks' window, either side. */
	KUNIT_EXPECT_EQ(test, nidmap_replay_check(&r, 5, 1, now - skew - 1,
						  now, skew), -ESTALE);
	KUNIT_EXPECT_EQ(test, nidmap_replay_check(&r, 5, 1, now + skew + 1,
						  now, skew), -ESTALE);
	KUNIT_EXPECT_EQ(test, r.incarnation, 0ULL);
	/*
	 * The stamp is the sender's: one so near 2^64 that adding the skew
	 * wraps, or a clock so near it, must still compare as it is.
	 */
	KUNIT_EXPECT_EQ(test, nidmap_replay_check(&r, 5, 1, U64_MAX - skew / 2,
						  now, skew), -ESTALE);
	KUNIT_EXPECT_EQ(test, nidmap_replay_check(&r, 5, 1, U64_MAX,
						  U64_MAX - 1, skew), 0);
	r = (struct nidmap_replay){ 0 };
	KUNIT_EXPECT_EQ(test, nidmap_replay_check(&r, 5, 1, 1, U64_MAX - 1,
						  skew), -ESTALE);
	KUNIT_EXPECT_EQ(test, r.incarnation, 0ULL);
	/* The first message; the same again; reordered ones. */
	KUNIT_EXPECT_EQ(test, nidmap_replay_check(&r, 5, 10, now, now, skew),
			0);
	KUNIT_EXPECT_EQ(test, nidmap_replay_check(&r, 5, 10, now, now, skew),
			-EALREADY);
	KUNIT_EXPECT_EQ(test, nidmap_replay_check(&r, 5, 12, now, now, skew),
			0);
	KUNIT_EXPECT_EQ(test, nidmap_replay_check(&r, 5, 11, now, now, skew),
			0);
	KUNIT_EXPECT_EQ(test, nidmap_replay_check(&r, 5, 11, now, now, skew),
			-EALREADY);
	/* Older than the window. */
	KUNIT_EXPECT_EQ(test, nidmap_replay_check(&r, 5, 100, now + 1, now,
						  skew), 0);
	KUNIT_EXPECT_EQ(test, nidmap_replay_check(&r, 5, 100 - 64, now, now,
						  skew), -EALREADY);
	KUNIT_EXPECT_EQ(test, nidmap_replay_check(&r, 5, 100 - 63, now, now,
						  skew), 0);
	/*
	 * A restart (incarnation 6): taken if stamped after everything taken
	 * from the sender; then the old incarnation's messages are refused,
	 * even ones never seen (replays of them).
	 */
	KUNIT_EXPECT_EQ(test, nidmap_replay_check(&r, 6, 1, now + 1, now,
						  skew), -EALREADY);
	KUNIT_EXPECT_EQ(test, nidmap_replay_check(&r, 6, 1, now + 2, now,
						  skew), 0);
	KUNIT_EXPECT_EQ(test, r.incarnation, 6ULL);
	KUNIT_EXPECT_EQ(test, nidmap_replay_check(&r, 5, 101, now + 2, now,
						  skew), -EALREADY);
	KUNIT_EXPECT_EQ(test, nidmap_replay_check(&r, 5, 99, now, now, skew),
			-EALREADY);
	KUNIT_EXPECT_EQ(test, nidmap_replay_check(&r, 6, 2, now + 2, now,
						  skew), 0);
	KUNIT_EXPECT_EQ(test, nidmap_replay_check(&r, 6, 2, now + 2, now,
						  skew), -EALREADY);
	KUNIT_EXPECT_EQ(test, r.incarnation, 6ULL);
}

#define MODEL_SEQS	512

/*
 * A sender's messages (two incarnations, seqs 1..MODEL_SEQS each) come
 * reordered by up to 40 places, some twice, some of the first
 * incarnation after the second began.  The model keeps every seq it took
 * and the rules in words: never one twice, one of the incarnation
 * followed unless 64 or more below its top, another only if stamped
 * after all taken.
 */
static void replay_model(struct kunit *test)
{
	const u64 now = STAMP, skew = NIDMAP_AUTH_SKEW_MS;
	struct rng rg = { .s = 0x2545f4914f6cdd1dULL };
	struct nidmap_replay r = { 0 };
	u64 m_inc = 0, m_top = 0, m_stamp = 0;
	bool *taken;
	u32 *order, n = 2 * MODEL_SEQS, i, j, tries = 0, ok = 0;

	taken = kunit_kzalloc(test, 2 * MODEL_SEQS, GFP_KERNEL);
	order = kunit_kmalloc_array(test, n, sizeof(u32), GFP_KERNEL);
	KUNIT_ASSERT_TRUE(test, taken && order);
	for (i = 0; i < n; i++)
		order[i] = i;
	/* Local reordering: swap each with one up to 40 later. */
	for (i = 0; i < n; i++) {
		u32 t;

		j = min(n - 1, i + rnd(&rg, 41));
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; i < n + n / 4; i++) {
		/* every fifth a replay of one sent before */
		u32 m = i < n ? order[i] : order[rnd(&rg, n)];
		u64 inc = m < MODEL_SEQS ? 1 : 2;
		u64 seq = m % MODEL_SEQS + 1;
		/* a sender stamps in order; incarnation 2 after all of 1 */
		u64 stamp = now + m;
		bool want;
		int rc;

		if (inc != m_inc)
			want = !m_inc || stamp > m_stamp;
		else
			want = !taken[m] && seq + NIDMAP_AUTH_WINDOW > m_top;
		rc = nidmap_replay_check(&r, inc, seq, stamp, now, skew);
		KUNIT_EXPECT_EQ_MSG(test, rc, want ? 0 : -EALREADY,
				    "message %u: incarnation %llu seq %llu", i,
				    inc, seq);
		tries++;
		if (rc)
			continue;
		KUNIT_ASSERT_FALSE_MSG(test, taken[m], "seq taken twice");
		if (inc != m_inc) {
			m_inc = inc;
			m_top = seq;
		}
		taken[m] = true;
		m_top = max(m_top, seq);
		m_stamp = max(m_stamp, stamp);
		ok++;
	}
	kunit_info(test, "%u messages, %u taken\n", tries, ok);
	KUNIT_EXPECT_GT(test, ok, MODEL_SEQS);
}

static struct kunit_case nidmap_auth_cases[] = {
	KUNIT_CASE(auth_example_trailer),
	KUNIT_CASE(auth_refusals),
	KUNIT_CASE(replay_rules),
	KUNIT_CASE(replay_model),
	{}
};

static struct kunit_suite nidmap_auth_suite = {
	.name = "nidmap_auth",
	.test_cases = nidmap_auth_cases,
};

kunit_test_suite(nidmap_auth_suite);

MODULE_DESCRIPTION("KUnit tests of nidmap's AUTH trailer and replay window");
MODULE_LICENSE("GPL");
