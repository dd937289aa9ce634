// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the ping buffer (wire spec 6.2, lnet/pingbuf.c).  Ours, built
 * and parsed back with every field checked, passes the receiver
 * validation of a Lustre node's discovery; the spec's example parses to
 * what it says, in both byte orders; truncated and hostile buffers are
 * refused or flagged, never read beyond their length.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/swab.h>
#include <asm/unaligned.h>

#include <lnet/ctl.h>
#include <lnet/lib-lnet.h>

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/* Spec 6.2's example: 192.168.1.2@tcp, routing off, discovery on. */
static const u8 spec_example[48] = {
	0x67, 0x6E, 0x69, 0x70, 0x1E, 0x00, 0x00, 0x00,
	0x39, 0x30, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x09, 0x00,
	0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x02, 0x01, 0xA8, 0xC0, 0x00, 0x00, 0x02, 0x00,
	0xDE, 0xC0, 0xAA, 0x15, 0x00, 0x00, 0x00, 0x00,
};

static void pingbuf_ours(struct kunit *test)
{
	struct lnet_ping_ni nis[3];
	struct lnet_nid got[4];
	struct lnet_ping_data pd;
	struct lnet_ping_info *pi;
	u32 st[4];
	size_t size = lnet_ping_buf_size(3);

	KUNIT_ASSERT_EQ(test, size, (size_t)(16 + 4 * 16));
	KUNIT_ASSERT_EQ(test, lnet_nid_from_str("192.0.2.1@tcp", &nis[0].nid), 0);
	KUNIT_ASSERT_EQ(test, lnet_nid_from_str("198.51.100.1@tcp1", &nis[1].nid),
			0);
	KUNIT_ASSERT_EQ(test, lnet_nid_from_str("10.0.0.1@o2ib", &nis[2].nid),
			0);
	nis[0].up = true;
	nis[1].up = false;
	nis[2].up = true;
	pi = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pi);
	lnet_ping_buf_build(pi, LNET_PING_FEAT_MULTI_RAIL |
			    LNET_PING_FEAT_DISCOVERY, 7, nis, 3);

	/* The header and entry 0, byte for byte. */
	KUNIT_EXPECT_EQ(test, pi->pi_magic, LNET_PROTO_PING_MAGIC);
	KUNIT_EXPECT_EQ(test, pi->pi_features, LNET_PING_FEAT_NI_STATUS |
			LNET_PING_FEAT_MULTI_RAIL | LNET_PING_FEAT_DISCOVERY);
	KUNIT_EXPECT_EQ(test, pi->pi_pid, LNET_PID_LUSTRE);
	KUNIT_EXPECT_EQ(test, pi->pi_nnis, 4U);
	KUNIT_EXPECT_EQ(test, pi->pi_ni[0].ns_nid, LNET_NID_LO_0);
	KUNIT_EXPECT_EQ(test, pi->pi_ni[0].ns_status, 7U);
	KUNIT_EXPECT_EQ(test, pi->pi_ni[0].ns_msg_size, 0U);
	KUNIT_EXPECT_EQ(test, pi->pi_ni[2].ns_status, LNET_NI_STATUS_DOWN);

	/* Parsed back as a receiver's discovery does. */
	KUNIT_ASSERT_EQ(test, lnet_ping_buf_parse(pi, size, &pd, got, st, 4), 0);
	KUNIT_EXPECT_EQ(test, pd.features, pi->pi_features);
	KUNIT_EXPECT_EQ(test, pd.pid, LNET_PID_LUSTRE);
	KUNIT_EXPECT_EQ(test, pd.seq, 7U);
	KUNIT_EXPECT_EQ(test, pd.nnis, 4U);
	KUNIT_EXPECT_EQ(test, pd.nnids, 3U);
	KUNIT_EXPECT_EQ(test, pd.nnid4, 3U);
	KUNIT_EXPECT_EQ(test, pd.size, (unsigned int)size);
	KUNIT_EXPECT_FALSE(test, pd.truncated);
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&got[0], &nis[0].nid));
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&got[1], &nis[1].nid));
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&got[2], &nis[2].nid));
	KUNIT_EXPECT_EQ(test, st[0], LNET_NI_STATUS_UP);
	KUNIT_EXPECT_EQ(test, st[1], LNET_NI_STATUS_DOWN);
	KUNIT_EXPECT_EQ(test, st[2], LNET_NI_STATUS_UP);

	/* Room for fewer NIDs: all are counted, only that many stored. */
	memset(got, 0, sizeof(got));
	KUNIT_ASSERT_EQ(test, lnet_ping_buf_parse(pi, size, &pd, got, NULL, 1),
			0);
	KUNIT_EXPECT_EQ(test, pd.nnids, 3U);
	KUNIT_EXPECT_NULL(test, memchr_inv(&got[1], 0, sizeof(got[1])));
}

static void pingbuf_spec_example(struct kunit *test)
{
	u8 swapped[sizeof(spec_example)];
	struct lnet_ping_data pd;
	struct lnet_nid nid, want;
	u32 st;
	int i;

	KUNIT_ASSERT_EQ(test, lnet_nid_from_str("192.168.1.2@tcp", &want), 0);
	KUNIT_ASSERT_EQ(test, lnet_ping_buf_parse(spec_example,
						  sizeof(spec_example), &pd,
						  &nid, &st, 1), 0);
	KUNIT_EXPECT_EQ(test, pd.features, 0x1EU);
	KUNIT_EXPECT_EQ(test, pd.pid, 12345U);
	KUNIT_EXPECT_EQ(test, pd.seq, 1U);
	KUNIT_EXPECT_EQ(test, pd.nnids, 1U);
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&nid, &want));
	KUNIT_EXPECT_EQ(test, st, LNET_NI_STATUS_UP);

	/* The same from a big-endian responder. */
	for (i = 0; i < sizeof(swapped); i += 4) {
		u32 v;

		memcpy(&v, spec_example + i, 4);
		v = swab32(v);
		memcpy(swapped + i, &v, 4);
	}
	/* 64-bit NIDs swap as a whole: exchange their 32-bit halves. */
	for (i = 16; i < sizeof(swapped); i += 16) {
		u8 lo[4];

		memcpy(lo, swapped + i, 4);
		memcpy(swapped + i, swapped + i + 4, 4);
		memcpy(swapped + i + 4, lo, 4);
	}
	KUNIT_ASSERT_EQ(test, lnet_ping_buf_parse(swapped, sizeof(swapped),
						  &pd, &nid, &st, 1), 0);
	KUNIT_EXPECT_EQ(test, pd.features, 0x1EU);
	KUNIT_EXPECT_EQ(test, pd.seq, 1U);
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&nid, &want));
	KUNIT_EXPECT_EQ(test, st, LNET_NI_STATUS_UP);
}

/* Each hostile change of the spec's example, refused with -EPROTO. */
static void pingbuf_hostile(struct kunit *test)
{
	static const struct { unsigned int off; u8 val; const char *what; }
	bad[] = {
		{ 0, 0x68, "magic" },
		{ 4, 0x1C, "no NI_STATUS" },
		{ 12, 0x00, "nnis 0" },
		{ 15, 0x7F, "nnis beyond max_interfaces" },
		{ 22, 0x02, "entry 0 not 0@lo" },
		/* LARGE_ADDR with ns_msg_size 0: less than its own entries */
		{ 4, 0x3E, "LARGE_ADDR, size below the nid4 array" },
	};
	u8 buf[sizeof(spec_example)];
	struct lnet_ping_data pd;
	struct lnet_nid nid;
	int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		memcpy(buf, spec_example, sizeof(buf));
		buf[bad[i].off] = bad[i].val;
		KUNIT_EXPECT_EQ_MSG(test, lnet_ping_buf_parse(buf, sizeof(buf),
							      &pd, &nid, NULL,
							      1),
				    -EPROTO, "accepted: %s", bad[i].what);
	}
	/* Shorter than a header and entry 0. */
	for (i = 0; i < 32; i++)
		KUNIT_EXPECT_EQ(test, lnet_ping_buf_parse(spec_example, i, &pd,
							  &nid, NULL, 1),
				-EPROTO);
}

/*
 * An entry that is not a peer's NID (spec 1.3: bits 63..56 of a nid4 are
 * always 0; LNET_NID_ANY names no NI, nor LND type 0xFF, the large
 * form's wildcard) is skipped: narrowed to a large NID it would alias a
 * real one (the high byte dropped) or become ANY.
 */
static void pingbuf_nid4_invalid(struct kunit *test)
{
	static const u64 entry[] = {
		0x55020000C0A80102ULL,	/* 192.168.1.2@tcp, bits 63..56 set */
		0xFFFFFFFFFFFFFFFFULL,	/* LNET_NID_ANY */
		0x00FF0000C0A80102ULL,	/* LND type 0xFF: ANY when large */
		0x0002000BC0A80103ULL,	/* 192.168.1.3@tcp11: a peer's NID */
	};
	u8 buf[16 + 5 * 16] = {};
	struct lnet_nid nids[5], want;
	struct lnet_ping_data pd;
	u32 st[5];
	int i;

	memcpy(buf, spec_example, 32);
	buf[12] = 5;
	for (i = 0; i < ARRAY_SIZE(entry); i++) {
		u8 *e = buf + 32 + i * 16;

		put_unaligned_le64(entry[i], e);
		put_unaligned_le32(LNET_NI_STATUS_UP, e + 8);
	}
	KUNIT_ASSERT_EQ(test, lnet_ping_buf_parse(buf, sizeof(buf), &pd, nids,
						  st, 5), 0);
	KUNIT_EXPECT_EQ(test, pd.nnis, 5U);
	KUNIT_EXPECT_EQ(test, pd.nnids, 1U);
	KUNIT_EXPECT_EQ(test, pd.nnid4, 1U);
	KUNIT_ASSERT_EQ(test, lnet_nid_from_str("192.168.1.3@tcp11", &want), 0);
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&nids[0], &want));
	KUNIT_EXPECT_EQ(test, st[0], LNET_NI_STATUS_UP);
}

/* A truncated buffer: flagged, with the size to ask for; nothing read past. */
static void pingbuf_truncated(struct kunit *test)
{
	struct lnet_ping_data pd;
	struct lnet_nid nid = {};
	u8 *buf;

	/* Only what arrived is copied: KASAN watches the end of @buf. */
	buf = kunit_kmalloc(test, 40, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	memcpy(buf, spec_example, 40);
	KUNIT_ASSERT_EQ(test, lnet_ping_buf_parse(buf, 40, &pd, &nid, NULL, 1),
			0);
	KUNIT_EXPECT_TRUE(test, pd.truncated);
	KUNIT_EXPECT_EQ(test, pd.size, 48U);
	KUNIT_EXPECT_EQ(test, pd.nnids, 0U);

	/* LARGE_ADDR: its size in entry 0, large entries beyond the buffer. */
	buf = kunit_kmalloc(test, 48, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	memcpy(buf, spec_example, 48);
	buf[4] |= LNET_PING_FEAT_LARGE_ADDR;
	buf[28] = 72;		/* 48 + one 24-byte IPv6 entry */
	KUNIT_ASSERT_EQ(test, lnet_ping_buf_parse(buf, 48, &pd, &nid, NULL, 1),
			0);
	KUNIT_EXPECT_TRUE(test, pd.truncated);
	KUNIT_EXPECT_EQ(test, pd.size, 72U);
	KUNIT_EXPECT_EQ(test, pd.nnids, 1U);
}

/* LARGE_ADDR: an IPv6 entry is read; one over 20 bytes or ANY skipped. */
static void pingbuf_large(struct kunit *test)
{
	static const u8 v6[24] = {
		0xDE, 0xC0, 0xAA, 0x15,			/* UP */
		12, LNET_LND_SOCK, 0x00, 0x05,		/* size, type, tcp5 */
		0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 1,
	};
	struct lnet_nid nids[3], want;
	struct lnet_ping_data pd;
	u32 st[3];
	u8 *buf;

	buf = kunit_kzalloc(test, 48 + 24 + 24, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	memcpy(buf, spec_example, 48);
	buf[4] |= LNET_PING_FEAT_LARGE_ADDR;
	buf[28] = 48 + 24 + 24;
	memcpy(buf + 48, v6, sizeof(v6));
	memcpy(buf + 72, v6, sizeof(v6));
	buf[72 + 4] = 200;	/* a 208-byte NID: skipped, and ends the list */
	KUNIT_ASSERT_EQ(test, lnet_ping_buf_parse(buf, 96, &pd, nids, st, 3),
			0);
	KUNIT_EXPECT_FALSE(test, pd.truncated);
	KUNIT_EXPECT_EQ(test, pd.nnid4, 1U);
	KUNIT_EXPECT_EQ(test, pd.nnids, 2U);
	KUNIT_ASSERT_EQ(test, lnet_nid_from_str("2001:db8::1@tcp5", &want), 0);
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&nids[1], &want));
	KUNIT_EXPECT_EQ(test, st[1], LNET_NI_STATUS_UP);

	/* A large entry of LND type 0xFF (ANY) is skipped too. */
	buf[72 + 4] = 12;
	buf[72 + 5] = 0xff;
	KUNIT_ASSERT_EQ(test, lnet_ping_buf_parse(buf, 96, &pd, nids, st, 3),
			0);
	KUNIT_EXPECT_EQ(test, pd.nnids, 2U);
	KUNIT_EXPECT_TRUE(test, lnet_nid_equal(&nids[1], &want));
}

/*
 * Spec 6.2: an NI's status change is written into the buffer in place:
 * its entry's status word changes, every other byte (the sequence number
 * in entry 0 too) stays.
 */
static void pingbuf_status_in_place(struct kunit *test)
{
	size_t size = lnet_ping_buf_size(2);
	struct lnet_ping_ni nis[2];
	struct lnet_ping_info *pi;
	struct lnet_nid other;
	u8 *was;

	KUNIT_ASSERT_EQ(test, lnet_nid_from_str("192.0.2.1@tcp", &nis[0].nid), 0);
	KUNIT_ASSERT_EQ(test, lnet_nid_from_str("192.0.2.2@tcp", &nis[1].nid), 0);
	KUNIT_ASSERT_EQ(test, lnet_nid_from_str("192.0.2.3@tcp", &other), 0);
	nis[0].up = true;
	nis[1].up = true;
	pi = kunit_kzalloc(test, size, GFP_KERNEL);
	was = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pi);
	KUNIT_ASSERT_NOT_NULL(test, was);
	lnet_ping_buf_build(pi, LNET_PING_FEAT_MULTI_RAIL, 5, nis, 2);
	memcpy(was, pi, size);

	KUNIT_EXPECT_TRUE(test, lnet_ping_buf_set_status(pi, &nis[1].nid,
							 false));
	KUNIT_EXPECT_EQ(test, pi->pi_ni[2].ns_status, LNET_NI_STATUS_DOWN);
	KUNIT_EXPECT_EQ(test, pi->pi_ni[0].ns_status, 5U);
	/* Only those 4 bytes changed. */
	KUNIT_EXPECT_EQ(test, memcmp(pi, was, 16 + 2 * 16 + 8), 0);
	KUNIT_EXPECT_EQ(test, memcmp((u8 *)pi + 16 + 2 * 16 + 12,
				     was + 16 + 2 * 16 + 12, 4), 0);
	KUNIT_EXPECT_TRUE(test, lnet_ping_buf_set_status(pi, &nis[1].nid,
							 true));
	KUNIT_EXPECT_EQ(test, memcmp(pi, was, size), 0);
	/* A NID it does not list: nothing written. */
	KUNIT_EXPECT_FALSE(test, lnet_ping_buf_set_status(pi, &other, false));
	KUNIT_EXPECT_EQ(test, memcmp(pi, was, size), 0);
}

/*
 * The live path: an NI's health going to 0 (reported down) and back
 * leaves the published buffer and its sequence number as they are (a
 * rebuild would publish a new buffer with the next number).  LNet with
 * only 0@lo, which the health code treats as any NI here.
 */
static void pingbuf_status_keeps_seq(struct kunit *test)
{
	struct lnet_ping_info *pi, *now_pi;
	unsigned int i;
	u32 seq, now_seq;

	if (lnet_is_configured())
		kunit_skip(test, "LNet already configured");
	KUNIT_ASSERT_EQ(test, lnet_configure(false, NULL), 0);
	lnet_lock();
	pi = the_lnet.ln_ping_info;
	seq = the_lnet.ln_ping_seq;
	lnet_ni_healthv_set_locked(the_lnet.ln_loni, 0);
	lnet_unlock();
	KUNIT_EXPECT_NOT_NULL(test, pi);
	/* A rebuild would come from a work item: give it time. */
	for (i = 0; i < 20 && READ_ONCE(the_lnet.ln_ping_seq) == seq; i++)
		msleep(50);
	lnet_lock();
	lnet_ni_healthv_set_locked(the_lnet.ln_loni, LNET_MAX_HEALTH_VALUE);
	lnet_unlock();
	for (i = 0; i < 20 && READ_ONCE(the_lnet.ln_ping_seq) == seq; i++)
		msleep(50);
	/* Read under the lock, checked outside (a failure allocates). */
	lnet_lock();
	now_seq = the_lnet.ln_ping_seq;
	now_pi = the_lnet.ln_ping_info;
	lnet_unlock();
	KUNIT_EXPECT_EQ(test, now_seq, seq);
	KUNIT_EXPECT_PTR_EQ(test, now_pi, pi);
	KUNIT_EXPECT_EQ(test, lnet_unconfigure(NULL), 0);
}

static struct kunit_case lnet_pingbuf_cases[] = {
	KUNIT_CASE(pingbuf_ours),
	KUNIT_CASE(pingbuf_spec_example),
	KUNIT_CASE(pingbuf_hostile),
	KUNIT_CASE(pingbuf_nid4_invalid),
	KUNIT_CASE(pingbuf_truncated),
	KUNIT_CASE(pingbuf_large),
	KUNIT_CASE(pingbuf_status_in_place),
	KUNIT_CASE(pingbuf_status_keeps_seq),
	{}
};

static struct kunit_suite lnet_pingbuf_suite = {
	.name = "lnet_pingbuf",
	.test_cases = lnet_pingbuf_cases,
};

kunit_test_suite(lnet_pingbuf_suite);

MODULE_DESCRIPTION("KUnit tests for the LNet ping buffer");
MODULE_LICENSE("GPL");
