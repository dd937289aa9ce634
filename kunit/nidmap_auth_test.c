// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: nidmap's AUTH trailer, keys, MAC and replay window
 * (nidmap/auth.c, nidmap/keyset.c, Documentation/nidmap.rst "Trust").
 * The documented example byte for byte (its MAC computed with Python's
 * hmac) and from a big-endian sender; every bit of every byte of it
 * flipped, each refused; a key rotation's states; its trailer read back
 * and written again;
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

/* The same message from a big-endian sender: its MAC. */
static const u8 auth_example_be_mac[32] = {
	0xe6, 0xdb, 0x62, 0xbf, 0x00, 0x8b, 0x6a, 0x16,
	0x70, 0xd3, 0x3f, 0x2e, 0x57, 0x23, 0x2c, 0x52,
	0xba, 0xc1, 0x6d, 0xaf, 0x9d, 0x7f, 0xaa, 0x82,
	0x0a, 0x95, 0xb5, 0xcc, 0xac, 0x6d, 0x8d, 0x12,
};

static_assert(sizeof(auth_example_be_mac) == NIDMAP_AUTH_MAC_LEN);

/* The example's key: bytes 0x20 to 0x3f. */
static void example_secret(u8 *s)
{
	int i;

	for (i = 0; i < 32; i++)
		s[i] = 0x20 + i;
}

static struct nidmap_keyset *keyset_with(struct kunit *test, u32 id)
{
	struct nidmap_keyset *ks = nidmap_keyset_create();
	u8 secret[32];
	int rc;

	KUNIT_ASSERT_NOT_NULL(test, ks);
	example_secret(secret);
	secret[0] += id - KEY_ID;	/* another id, another secret */
	rc = nidmap_key_add(ks, id, secret, sizeof(secret));
	if (rc)
		nidmap_keyset_destroy(ks);	/* no leak when it fails */
	KUNIT_ASSERT_EQ(test, rc, 0);
	return ks;
}

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

/* A NOTICE without a trailer (no AUTH flag): NIDMAP_HDR_SIZE bytes. */
static u8 *plain_notice(struct kunit *test)
{
	struct nidmap_hdr h = {
		.type = NIDMAP_NOTICE, .incarnation = 1, .seq = 1,
	};
	u8 *buf = kunit_kzalloc(test, NIDMAP_HDR_SIZE, GFP_KERNEL);
	struct nidmap_enc enc;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, nidmap_enc_init(&enc, buf, NIDMAP_HDR_SIZE, &h),
			0);
	KUNIT_ASSERT_EQ(test, nidmap_enc_finish(&enc, 0), NIDMAP_HDR_SIZE);
	return buf;
}

static int parse(const u8 *buf, size_t len, struct nidmap_auth *a)
{
	struct nidmap_msg msg;
	int rc = nidmap_msg_decode(buf, len, &msg);

	return rc ? rc : nidmap_auth_parse(&msg, a);
}

static int verify(struct nidmap_keyset *ks, const u8 *buf, size_t len,
		  struct nidmap_auth *a)
{
	struct nidmap_msg msg;
	int rc = nidmap_msg_decode(buf, len, &msg);

	return rc ? rc : nidmap_auth_verify(ks, buf, &msg, a);
}

static void auth_example_bytes(struct kunit *test)
{
	struct nidmap_keyset *ks = keyset_with(test, KEY_ID);
	u8 *buf = example_unsigned(test, NIDMAP_AUTH_TRAILER_LEN);
	struct nidmap_auth a;

	KUNIT_ASSERT_EQ(test, nidmap_auth_sign(ks, buf, sizeof(auth_example),
					       STAMP), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf, auth_example, sizeof(auth_example)), 0);
	KUNIT_EXPECT_EQ(test, verify(ks, auth_example, sizeof(auth_example),
				     &a), 0);
	KUNIT_EXPECT_EQ(test, a.key_id, (u32)KEY_ID);
	KUNIT_EXPECT_EQ(test, a.stamp, STAMP);
	nidmap_keyset_destroy(ks);
}

/* The MAC covers the bytes as sent: a big-endian sender's own. */
static void auth_other_order(struct kunit *test)
{
	struct nidmap_keyset *ks = keyset_with(test, KEY_ID);
	size_t len = sizeof(auth_example);
	u8 *buf = kunit_kmalloc(test, len, GFP_KERNEL);
	struct nidmap_auth a;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	memcpy(buf, auth_example, len);
	KUNIT_ASSERT_EQ(test, nidmap_msg_swab(buf, len), 0);
	/* Swapped after signing: not what was signed. */
	KUNIT_EXPECT_EQ(test, verify(ks, buf, len, &a), -EKEYREJECTED);
	KUNIT_ASSERT_EQ(test, nidmap_auth_sign(ks, buf, len, STAMP), 0);
	KUNIT_EXPECT_EQ(test, memcmp(buf + len - NIDMAP_AUTH_MAC_LEN,
				     auth_example_be_mac, NIDMAP_AUTH_MAC_LEN),
			0);
	KUNIT_EXPECT_EQ(test, verify(ks, buf, len, &a), 0);
	KUNIT_EXPECT_EQ(test, a.stamp, STAMP);
	nidmap_keyset_destroy(ks);
}

/* Any bit of any byte changed: refused, by the decoder or the MAC. */
static void auth_every_byte(struct kunit *test)
{
	struct nidmap_keyset *ks = keyset_with(test, KEY_ID);
	size_t len = sizeof(auth_example), i;
	u8 *buf = kunit_kmalloc(test, len, GFP_KERNEL);
	struct nidmap_auth a;
	int bit, rc;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < len; i++) {
		for (bit = 0; bit < 8; bit++) {
			memcpy(buf, auth_example, len);
			buf[i] ^= 1 << bit;
			rc = verify(ks, buf, len, &a);
			KUNIT_EXPECT_NE_MSG(test, rc, 0, "byte %zu bit %d", i,
					    bit);
		}
	}
	nidmap_keyset_destroy(ks);
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
	struct nidmap_auth a;
	u8 *buf, *t;

	/* No trailer at all. */
	buf = plain_notice(test);
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

static void auth_mac_refusals(struct kunit *test)
{
	struct nidmap_keyset *ks = keyset_with(test, KEY_ID);
	struct nidmap_keyset *other = keyset_with(test, KEY_ID + 2);
	size_t len = sizeof(auth_example);
	struct nidmap_auth a;
	u8 *buf, *t;

	/* No trailer at all. */
	buf = plain_notice(test);
	KUNIT_EXPECT_EQ(test, verify(ks, buf, NIDMAP_HDR_SIZE, &a),
			-EKEYREJECTED);
	KUNIT_EXPECT_EQ(test, nidmap_auth_sign(ks, buf, NIDMAP_HDR_SIZE,
					       STAMP), -EINVAL);

	/* A key the receiver does not hold; the right one. */
	buf = example_unsigned(test, NIDMAP_AUTH_TRAILER_LEN);
	KUNIT_ASSERT_EQ(test, nidmap_auth_sign(other, buf, len, STAMP), 0);
	KUNIT_EXPECT_EQ(test, verify(ks, buf, len, &a), -EKEYREJECTED);
	KUNIT_EXPECT_EQ(test, verify(other, buf, len, &a), 0);
	KUNIT_EXPECT_EQ(test, a.key_id, (u32)KEY_ID + 2);

	/* An algorithm we do not know: AUTH, whatever follows. */
	t = buf + len - NIDMAP_AUTH_TRAILER_LEN;
	t[0] = 2;
	KUNIT_EXPECT_EQ(test, verify(other, buf, len, &a), -EKEYREJECTED);
	t[0] = NIDMAP_AUTH_HMAC_SHA256;
	t[1] = 20;
	KUNIT_EXPECT_EQ(test, verify(other, buf, len, &a), -EKEYREJECTED);
	t[1] = NIDMAP_AUTH_MAC_LEN;
	/* Malformed: reserved bytes, key id 0. */
	t[3] = 1;
	KUNIT_EXPECT_EQ(test, verify(other, buf, len, &a), -EPROTO);
	t[3] = 0;
	memset(t + 4, 0, 4);
	KUNIT_EXPECT_EQ(test, verify(other, buf, len, &a), -EPROTO);

	/* A trailer of the wrong length for HMAC-SHA256. */
	buf = example_unsigned(test, NIDMAP_AUTH_TRAILER_LEN + 8);
	nidmap_auth_head(buf + NIDMAP_HDR_SIZE, KEY_ID, STAMP);
	KUNIT_EXPECT_EQ(test, verify(ks, buf, len + 8, &a), -EPROTO);
	KUNIT_EXPECT_EQ(test, nidmap_auth_sign(ks, buf, len + 8, STAMP),
			-EINVAL);
	nidmap_keyset_destroy(other);
	nidmap_keyset_destroy(ks);
}

/* Sign with @from, verify with @to. */
static int sign_verify(struct kunit *test, struct nidmap_keyset *from,
		       struct nidmap_keyset *to, u32 *key_id)
{
	size_t len = sizeof(auth_example);
	u8 *buf = example_unsigned(test, NIDMAP_AUTH_TRAILER_LEN);
	struct nidmap_auth a = { 0 };
	int rc;

	rc = nidmap_auth_sign(from, buf, len, STAMP);
	if (rc)
		return rc;
	rc = verify(to, buf, len, &a);
	*key_id = a.key_id;
	return rc;
}

/* A rotation from key 1 to key 2, sender s and receiver r. */
static void auth_rotation(struct kunit *test)
{
	struct nidmap_keyset *s = nidmap_keyset_create();
	struct nidmap_keyset *r = nidmap_keyset_create();
	u8 k1[16], k2[NIDMAP_AUTH_KEY_MAX], k3[24];
	u32 ids[NIDMAP_AUTH_KEYS], cur, id;

	if (!s || !r) {
		nidmap_keyset_destroy(s);
		nidmap_keyset_destroy(r);
		KUNIT_FAIL(test, "no memory for the key sets");
		return;
	}
	memset(k1, 1, sizeof(k1));
	memset(k2, 2, sizeof(k2));
	memset(k3, 3, sizeof(k3));
	/* No key: nothing to sign with. */
	KUNIT_EXPECT_EQ(test, sign_verify(test, s, r, &id), -ENOKEY);
	KUNIT_EXPECT_EQ(test, nidmap_key_ids(s, ids, &cur), 0);
	KUNIT_EXPECT_EQ(test, cur, 0U);
	KUNIT_EXPECT_FALSE(test, nidmap_keyset_signs(s));
	/* Bad keys. */
	KUNIT_EXPECT_EQ(test, nidmap_key_add(s, 0, k1, sizeof(k1)), -EINVAL);
	KUNIT_EXPECT_EQ(test, nidmap_key_add(s, 1, k1, sizeof(k1) - 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, nidmap_key_add(s, 1, k2, sizeof(k2) + 1),
			-EINVAL);

	/* Key 1 everywhere: the first key is signed with. */
	KUNIT_EXPECT_EQ(test, nidmap_key_add(s, 1, k1, sizeof(k1)), 0);
	KUNIT_EXPECT_EQ(test, nidmap_key_add(r, 1, k1, sizeof(k1)), 0);
	KUNIT_EXPECT_EQ(test, nidmap_key_add(s, 1, k2, sizeof(k2)), -EEXIST);
	KUNIT_EXPECT_EQ(test, sign_verify(test, s, r, &id), 0);
	KUNIT_EXPECT_EQ(test, id, 1U);
	KUNIT_EXPECT_TRUE(test, nidmap_keyset_signs(s));

	/* Key 2 added at the receiver, then at the sender: still 1. */
	KUNIT_EXPECT_EQ(test, nidmap_key_add(r, 2, k2, sizeof(k2)), 0);
	KUNIT_EXPECT_EQ(test, sign_verify(test, s, r, &id), 0);
	KUNIT_EXPECT_EQ(test, nidmap_key_add(s, 2, k2, sizeof(k2)), 0);
	KUNIT_EXPECT_EQ(test, nidmap_key_add(s, 3, k3, sizeof(k3)), -ENOSPC);
	KUNIT_EXPECT_EQ(test, nidmap_key_ids(s, ids, &cur), 2);
	KUNIT_EXPECT_EQ(test, cur, 1U);
	KUNIT_EXPECT_EQ(test, sign_verify(test, s, r, &id), 0);
	KUNIT_EXPECT_EQ(test, id, 1U);

	/* The sender signs with 2; the key signed with stays. */
	KUNIT_EXPECT_EQ(test, nidmap_key_use(s, 9), -ENOENT);
	KUNIT_EXPECT_EQ(test, nidmap_key_use(s, 2), 0);
	KUNIT_EXPECT_EQ(test, nidmap_key_del(s, 2), -EBUSY);
	KUNIT_EXPECT_EQ(test, sign_verify(test, s, r, &id), 0);
	KUNIT_EXPECT_EQ(test, id, 2U);

	/*
	 * Key 1 deleted at the receiver, which signs with 2 first: a
	 * message MACed with 1 is refused.
	 */
	KUNIT_EXPECT_EQ(test, nidmap_key_use(s, 1), 0);
	KUNIT_EXPECT_EQ(test, nidmap_key_del(r, 1), -EBUSY);
	KUNIT_EXPECT_EQ(test, nidmap_key_use(r, 2), 0);
	KUNIT_EXPECT_EQ(test, nidmap_key_del(r, 1), 0);
	KUNIT_EXPECT_EQ(test, nidmap_key_del(r, 1), -ENOENT);
	KUNIT_EXPECT_EQ(test, sign_verify(test, s, r, &id), -EKEYREJECTED);
	KUNIT_EXPECT_EQ(test, nidmap_key_use(s, 2), 0);
	KUNIT_EXPECT_EQ(test, nidmap_key_del(s, 1), 0);
	KUNIT_EXPECT_TRUE(test, nidmap_keyset_signs(s));
	KUNIT_EXPECT_EQ(test, sign_verify(test, s, r, &id), 0);
	KUNIT_EXPECT_EQ(test, nidmap_key_ids(r, ids, &cur), 1);
	KUNIT_EXPECT_EQ(test, cur, 2U);
	KUNIT_EXPECT_EQ(test, ids[0] + ids[1], 2U);

	/* The last key may go; then nothing is signed. */
	KUNIT_EXPECT_EQ(test, nidmap_key_del(s, 2), 0);
	KUNIT_EXPECT_FALSE(test, nidmap_keyset_signs(s));
	KUNIT_EXPECT_EQ(test, sign_verify(test, s, r, &id), -ENOKEY);
	nidmap_keyset_destroy(r);
	nidmap_keyset_destroy(s);
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
	KUNIT_CASE(auth_example_bytes),
	KUNIT_CASE(auth_other_order),
	KUNIT_CASE(auth_every_byte),
	KUNIT_CASE(auth_mac_refusals),
	KUNIT_CASE(auth_rotation),
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
