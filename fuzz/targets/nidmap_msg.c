// SPDX-License-Identifier: GPL-2.0
/*
 * Target nidmap_msg: a received nidmap message (nidmap/wire.c), decoded as
 * a publisher or subscriber decodes it; the buffer is exactly the bytes
 * received.
 *
 * Checks: the decoder returns one of its documented errors and leaves the
 * buffer alone; an accepted message walks to exactly its count of records
 * or NIDs, each valid (nidmap_rec_check(), nidmap_nid_check()), within the
 * limits; encoded again in host byte order it decodes to the same header
 * and items, and is byte for byte the input up to the trailer when the
 * input was in host order; swapped to the other byte order it decodes to
 * the same, and swapped back it is what it was.  Its AUTH trailer, if
 * any, parses to a documented error or to fields that written again
 * (nidmap_auth_head()) are the trailer's bytes; a replay window fed the
 * message's incarnation and seq takes it once.
 */
#include "../nidmap/auth.h"

#include "../fuzz.h"

static struct nidmap_rec recs[2];

static void check_same_hdr(const struct nidmap_hdr *a,
			   const struct nidmap_hdr *b)
{
	FUZZ_CHECK(a->type == b->type && a->flags == b->flags &&
		   a->length == b->length && a->incarnation == b->incarnation &&
		   a->seq == b->seq && a->reply_to == b->reply_to &&
		   a->epoch == b->epoch && a->version == b->version &&
		   a->base == b->base && a->count == b->count &&
		   a->status == b->status && a->trailer_len == b->trailer_len);
}

/* The items of @a and @b are the same. */
static void check_same_items(const struct nidmap_msg *a,
			     const struct nidmap_msg *b)
{
	struct nidmap_iter ia, ib;
	struct lnet_nid na, nb;
	bool more;

	nidmap_iter_init(&ia, a);
	nidmap_iter_init(&ib, b);
	while ((more = nidmap_iter_rec(&ia, &recs[0]))) {
		FUZZ_CHECK(nidmap_iter_rec(&ib, &recs[1]));
		FUZZ_CHECK(!memcmp(&recs[0], &recs[1], sizeof(recs[0])));
	}
	FUZZ_CHECK(!nidmap_iter_rec(&ib, &recs[1]));
	while (nidmap_iter_nid(&ia, &na)) {
		FUZZ_CHECK(nidmap_iter_nid(&ib, &nb));
		FUZZ_CHECK(!memcmp(&na, &nb, sizeof(na)));
	}
	FUZZ_CHECK(!nidmap_iter_nid(&ib, &nb));
}

/* The AUTH trailer's fields, and a replay window's verdicts on it. */
static void check_auth(const struct nidmap_msg *msg)
{
	u8 head[NIDMAP_AUTH_HEAD_LEN];
	struct nidmap_replay r = { 0 };
	struct nidmap_auth a;
	int rc;

	rc = nidmap_auth_parse(msg, &a);
	FUZZ_CHECK(rc == 0 || rc == -EKEYREJECTED || rc == -EPROTO);
	if (rc)
		return;
	FUZZ_CHECK(msg->hdr.trailer_len == NIDMAP_AUTH_TRAILER_LEN &&
		   a.key_id && a.mac == msg->trailer + NIDMAP_AUTH_HEAD_LEN);
	nidmap_auth_head(head, a.key_id, a.stamp);
	FUZZ_CHECK(!memcmp(head, msg->trailer, sizeof(head)));
	rc = nidmap_replay_check(&r, msg->hdr.incarnation, msg->hdr.seq,
				 a.stamp, a.stamp, NIDMAP_AUTH_SKEW_MS);
	FUZZ_CHECK(rc == 0);
	rc = nidmap_replay_check(&r, msg->hdr.incarnation, msg->hdr.seq,
				 a.stamp, a.stamp, NIDMAP_AUTH_SKEW_MS);
	FUZZ_CHECK(rc == -EALREADY);
}

int fuzz_one_input(const u8 *data, size_t size)
{
	struct nidmap_msg msg, again;
	struct nidmap_enc enc;
	struct nidmap_iter it;
	struct lnet_nid nid;
	u8 *buf, *out;
	u32 n = 0;
	int rc, len;

	if (size > NIDMAP_MSG_MAX + 8)
		return 0;
	buf = fuzz_dup(data, size, false);
	rc = nidmap_msg_decode(buf, size, &msg);
	FUZZ_CHECK(!memcmp(buf, data, size));
	FUZZ_CHECK(rc == 0 || rc == -EMSGSIZE || rc == -EBADMSG ||
		   rc == -EPROTONOSUPPORT || rc == -EOPNOTSUPP ||
		   rc == -E2BIG || rc == -EPROTO);
	if (rc) {
		free(buf);
		return 0;
	}
	FUZZ_CHECK(msg.hdr.length == size && size <= NIDMAP_MSG_MAX);
	FUZZ_CHECK(msg.body + msg.body_len <= buf + size);

	/* Every item valid, as many as the count. */
	nidmap_iter_init(&it, &msg);
	while (nidmap_iter_rec(&it, &recs[0])) {
		FUZZ_CHECK(!nidmap_rec_check(&recs[0],
					     msg.hdr.type == NIDMAP_REGISTER));
		n++;
	}
	while (nidmap_iter_nid(&it, &nid)) {
		FUZZ_CHECK(!nidmap_nid_check(&nid));
		n++;
	}
	if (msg.hdr.type == NIDMAP_FETCH_REPLY ||
	    msg.hdr.type == NIDMAP_REGISTER || msg.hdr.type == NIDMAP_NOTICE)
		FUZZ_CHECK(n == msg.hdr.count);
	else
		FUZZ_CHECK(n == 0 && msg.hdr.count == 0);

	check_auth(&msg);

	/* Encoded again, in host byte order. */
	out = malloc(size);
	if (!out)
		abort();
	FUZZ_CHECK(!nidmap_enc_init(&enc, out, size, &msg.hdr));
	nidmap_iter_init(&it, &msg);
	while (nidmap_iter_rec(&it, &recs[0]))
		FUZZ_CHECK(!nidmap_enc_rec(&enc, &recs[0]));
	while (nidmap_iter_nid(&it, &nid))
		FUZZ_CHECK(!nidmap_enc_nid(&enc, &nid));
	if (msg.hdr.type == NIDMAP_FETCH)
		FUZZ_CHECK(!nidmap_enc_fetch(&enc, msg.room));
	len = nidmap_enc_finish(&enc, msg.hdr.trailer_len);
	FUZZ_CHECK(len == (int)size);
	if (msg.trailer)
		memcpy(out + size - msg.hdr.trailer_len, msg.trailer,
		       msg.hdr.trailer_len);
	if (!msg.hdr.swabbed)
		FUZZ_CHECK(!memcmp(out, buf, size));
	FUZZ_CHECK(!nidmap_msg_decode(out, size, &again));
	FUZZ_CHECK(!again.hdr.swabbed);
	check_same_hdr(&msg.hdr, &again.hdr);
	check_same_items(&msg, &again);

	/* The other byte order, and back. */
	FUZZ_CHECK(!nidmap_msg_swab(out, size));
	FUZZ_CHECK(!nidmap_msg_decode(out, size, &again));
	FUZZ_CHECK(again.hdr.swabbed);
	check_same_hdr(&msg.hdr, &again.hdr);
	check_same_items(&msg, &again);
	FUZZ_CHECK(!nidmap_msg_swab(out, size));
	if (msg.hdr.swabbed)
		FUZZ_CHECK(!nidmap_msg_swab(out, size));
	FUZZ_CHECK(!memcmp(out, buf, size));
	free(out);
	free(buf);
	return 0;
}
