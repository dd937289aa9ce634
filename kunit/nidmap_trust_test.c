// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: nidmap's trust on the transport (nidmap/trust.c,
 * Documentation/nidmap.rst "Trust"), on the node's own key set: without
 * a key nothing is signed and nothing taken (auth_required, the
 * default), or everything taken (auth_required=0); with one, every
 * message sent is signed, and a message received is taken only signed
 * with a key held, unaltered, fresh and once, each refusal counted by its
 * kind.  The cases add the node's keys and delete them again at the end.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "../nidmap/auth.h"
#include "../nidmap/node.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define INC	0x5152535455565758ULL

/* A NOTICE of @inc's @seq, unsigned, kvmalloc()ed as the roles' are. */
static void *notice(struct kunit *test, u64 inc, u64 seq, unsigned int *len)
{
	struct nidmap_hdr h = {
		.type = NIDMAP_NOTICE, .incarnation = inc, .seq = seq,
		.epoch = 5, .version = 57, .base = 3,
	};
	struct nidmap_enc enc;
	void *buf = kvzalloc(NIDMAP_HDR_SIZE, GFP_KERNEL);
	int rc;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, nidmap_enc_init(&enc, buf, NIDMAP_HDR_SIZE, &h),
			0);
	rc = nidmap_enc_finish(&enc, 0);
	KUNIT_ASSERT_EQ(test, rc, NIDMAP_HDR_SIZE);
	*len = rc;
	return buf;
}

static s64 ctr(int which)
{
	return atomic64_read(&nidmap_ctr[which]);
}

static int add_key(u32 id)
{
	u8 secret[32];

	memset(secret, 0x40 + id, sizeof(secret));
	return nidmap_key_add(nidmap_keys, id, secret, sizeof(secret));
}

static void trust_no_key(struct kunit *test)
{
	unsigned int len;
	void *buf = notice(test, INC, 1, &len);
	void *was = buf;

	s64 unsigned_ = ctr(NIDMAP_A_CTR_AUTH_UNSIGNED);

	/* No key: sent as it is; taken only if auth is not required. */
	KUNIT_EXPECT_TRUE(test, nidmap_auth_required);
	KUNIT_EXPECT_EQ(test, nidmap_seal_room(), 0U);
	KUNIT_EXPECT_EQ(test, nidmap_seal(&buf, &len), 0);
	KUNIT_EXPECT_PTR_EQ(test, buf, was);
	KUNIT_EXPECT_EQ(test, len, (unsigned int)NIDMAP_HDR_SIZE);
	KUNIT_EXPECT_EQ(test, nidmap_trust_check(buf, len), -EKEYREJECTED);
	KUNIT_EXPECT_EQ(test, ctr(NIDMAP_A_CTR_AUTH_UNSIGNED), unsigned_ + 1);
	nidmap_auth_required = false;
	KUNIT_EXPECT_EQ(test, nidmap_trust_check(buf, len), 0);
	KUNIT_EXPECT_EQ(test, nidmap_trust_check(buf, len), 0);
	nidmap_auth_required = true;
	kvfree(buf);
}

static void trust_signed_once(struct kunit *test)
{
	s64 verified = ctr(NIDMAP_A_CTR_AUTH_VERIFIED);
	s64 replayed = ctr(NIDMAP_A_CTR_AUTH_REPLAYED);
	s64 signed_ = ctr(NIDMAP_A_CTR_AUTH_SIGNED);
	unsigned int len, len2;
	struct nidmap_msg msg;
	void *buf, *buf2;

	KUNIT_ASSERT_EQ(test, add_key(3), 0);
	KUNIT_EXPECT_EQ(test, nidmap_seal_room(),
			(unsigned int)NIDMAP_AUTH_TRAILER_LEN);
	buf = notice(test, INC, 1, &len);
	KUNIT_EXPECT_EQ(test, nidmap_seal(&buf, &len), 0);
	KUNIT_EXPECT_EQ(test, len,
			(unsigned int)(NIDMAP_HDR_SIZE + NIDMAP_AUTH_TRAILER_LEN));
	KUNIT_EXPECT_EQ(test, nidmap_msg_decode(buf, len, &msg), 0);
	KUNIT_EXPECT_TRUE(test, msg.hdr.flags & NIDMAP_F_AUTH);
	KUNIT_EXPECT_EQ(test, msg.hdr.version, 57ULL);
	KUNIT_EXPECT_EQ(test, ctr(NIDMAP_A_CTR_AUTH_SIGNED), signed_ + 1);

	/* Taken once; the same bytes again are a replay. */
	KUNIT_EXPECT_EQ(test, nidmap_trust_check(buf, len), 0);
	KUNIT_EXPECT_EQ(test, nidmap_trust_check(buf, len), -EALREADY);
	KUNIT_EXPECT_EQ(test, ctr(NIDMAP_A_CTR_AUTH_VERIFIED), verified + 1);
	KUNIT_EXPECT_EQ(test, ctr(NIDMAP_A_CTR_AUTH_REPLAYED), replayed + 1);

	/* The sender's next message, and one reordered before it. */
	buf2 = notice(test, INC, 3, &len2);
	KUNIT_EXPECT_EQ(test, nidmap_seal(&buf2, &len2), 0);
	KUNIT_EXPECT_EQ(test, nidmap_trust_check(buf2, len2), 0);
	kvfree(buf2);
	buf2 = notice(test, INC, 2, &len2);
	KUNIT_EXPECT_EQ(test, nidmap_seal(&buf2, &len2), 0);
	KUNIT_EXPECT_EQ(test, nidmap_trust_check(buf2, len2), 0);
	KUNIT_EXPECT_EQ(test, nidmap_trust_check(buf2, len2), -EALREADY);
	kvfree(buf2);
	kvfree(buf);
	KUNIT_EXPECT_EQ(test, nidmap_key_del(nidmap_keys, 3), 0);
}

static void trust_refusals(struct kunit *test)
{
	s64 forged = ctr(NIDMAP_A_CTR_AUTH_FORGED);
	s64 unsigned_ = ctr(NIDMAP_A_CTR_AUTH_UNSIGNED);
	s64 stale = ctr(NIDMAP_A_CTR_AUTH_STALE);
	u64 now = ktime_get_real_ns() / NSEC_PER_MSEC;
	unsigned int len, plain_len;
	void *buf, *plain;
	u8 *p;

	KUNIT_ASSERT_EQ(test, add_key(4), 0);
	plain = notice(test, INC + 1, 1, &plain_len);
	buf = notice(test, INC + 1, 1, &len);
	KUNIT_EXPECT_EQ(test, nidmap_seal(&buf, &len), 0);
	p = buf;

	/* Unsigned. */
	KUNIT_EXPECT_EQ(test, nidmap_trust_check(plain, plain_len),
			-EKEYREJECTED);
	KUNIT_EXPECT_EQ(test, ctr(NIDMAP_A_CTR_AUTH_UNSIGNED), unsigned_ + 1);
	/* Altered: the version. */
	p[48] ^= 1;
	KUNIT_EXPECT_EQ(test, nidmap_trust_check(buf, len), -EKEYREJECTED);
	p[48] ^= 1;
	/* Signed with a key the node does not hold. */
	p[len - NIDMAP_AUTH_TRAILER_LEN + 7] = 9;
	KUNIT_EXPECT_EQ(test, nidmap_trust_check(buf, len), -EKEYREJECTED);
	KUNIT_EXPECT_EQ(test, ctr(NIDMAP_A_CTR_AUTH_FORGED), forged + 2);
	/* Signed right, but three minutes ago: stale, and no window kept. */
	KUNIT_EXPECT_EQ(test, nidmap_auth_sign(nidmap_keys, buf, len,
					       now - 180 * 1000), 0);
	KUNIT_EXPECT_EQ(test, nidmap_trust_check(buf, len), -ESTALE);
	KUNIT_EXPECT_EQ(test, ctr(NIDMAP_A_CTR_AUTH_STALE), stale + 1);
	/* The same seq signed now is still new. */
	KUNIT_EXPECT_EQ(test, nidmap_auth_sign(nidmap_keys, buf, len, now), 0);
	KUNIT_EXPECT_EQ(test, nidmap_trust_check(buf, len), 0);
	kvfree(buf);
	kvfree(plain);
	KUNIT_EXPECT_EQ(test, nidmap_key_del(nidmap_keys, 4), 0);
	/* No key again: nothing is taken, unless auth is not required. */
	buf = notice(test, INC + 1, 9, &len);
	KUNIT_EXPECT_EQ(test, nidmap_trust_check(buf, len), -EKEYREJECTED);
	nidmap_auth_required = false;
	KUNIT_EXPECT_EQ(test, nidmap_trust_check(buf, len), 0);
	nidmap_auth_required = true;
	kvfree(buf);
}

static struct kunit_case nidmap_trust_cases[] = {
	KUNIT_CASE(trust_no_key),
	KUNIT_CASE(trust_signed_once),
	KUNIT_CASE(trust_refusals),
	{}
};

static struct kunit_suite nidmap_trust_suite = {
	.name = "nidmap_trust",
	.test_cases = nidmap_trust_cases,
};

kunit_test_suite(nidmap_trust_suite);

MODULE_DESCRIPTION("KUnit tests of nidmap's signing and checking of messages");
MODULE_LICENSE("GPL");
