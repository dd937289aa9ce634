// SPDX-License-Identifier: GPL-2.0
/*
 * Target lnet_hdr: the LNet header codec (lnet/hdr.c), as every LND's
 * receive path calls it: the 72-byte nid4 form (o2iblnd, socklnd V1-V3)
 * as a data header and as a V1 HELLO, and the 96-byte nid16 form
 * (socklnd V4), on the first 72 and 96 bytes of the input.
 *
 * Checks: a rejected header gives a reason and leaves the output alone;
 * an accepted one passes every check the codec documents, encodes back to
 * the bytes received (the header and the type's fields; unused bytes are
 * written as zero) and decodes again to the same header.
 */
#include <lnet/hdr.h>

#include "../fuzz.h"

/* Bytes of the per-type part that @type uses. */
static size_t msg_bytes(u32 type)
{
	switch (type) {
	case LNET_MSG_ACK:
		return sizeof(struct lnet_hdr_ack_wire);
	case LNET_MSG_PUT:
		return sizeof(struct lnet_hdr_put_wire);
	case LNET_MSG_GET:
		return sizeof(struct lnet_hdr_get_wire);
	case LNET_MSG_REPLY:
		return sizeof(struct lnet_hdr_reply_wire);
	case LNET_MSG_HELLO:
		return sizeof(struct lnet_hdr_hello_wire);
	}
	abort();
}

/* What lnet_hdr_from_nid4/16() promise of a header they accept. */
static void check_accepted(const struct lnet_hdr *h)
{
	FUZZ_CHECK(h->type <= LNET_MSG_REPLY);
	FUZZ_CHECK(!lnet_nid_is_any(&h->dest_nid));
	FUZZ_CHECK(!lnet_nid_is_any(&h->src_nid));
	FUZZ_CHECK(h->dest_nid.nid_size <= 12 && h->src_nid.nid_size <= 12);
	if (h->type == LNET_MSG_PUT || h->type == LNET_MSG_REPLY)
		FUZZ_CHECK(h->payload_length <= LNET_MTU);
	else
		FUZZ_CHECK(!h->payload_length);
	if (h->type == LNET_MSG_PUT)
		FUZZ_CHECK(h->msg.put.ptl_index < LNET_MAX_PORTALS);
	if (h->type == LNET_MSG_GET)
		FUZZ_CHECK(h->msg.get.ptl_index < LNET_MAX_PORTALS);
}

/* The re-encoded header: same bytes as received where used, else 0. */
static void check_encoded(const u8 *wire, const u8 *enc, size_t size,
			  size_t msg_off, u32 type)
{
	size_t used = msg_off + msg_bytes(type);
	size_t i;

	FUZZ_CHECK(!memcmp(wire, enc, used));
	for (i = used; i < size; i++)
		FUZZ_CHECK(!enc[i]);
}

static void fuzz_nid4(const u8 *wire)
{
	struct lnet_hdr h, h2, before;
	enum lnet_hdr_drop_reason why = LNET_HDR_DROP_COUNT;
	u8 enc[LNET_HDR_NID4_SIZE];
	int rc;

	memset(&h, 0xa5, sizeof(h));
	before = h;
	rc = lnet_hdr_from_nid4(&h, wire, &why);
	FUZZ_CHECK(why < LNET_HDR_DROP_COUNT);
	FUZZ_CHECK(strcmp(lnet_hdr_drop_reason_str(why), "unknown"));
	if (rc) {
		FUZZ_CHECK(rc == -EPROTO && why != LNET_HDR_DROP_NONE);
		FUZZ_CHECK(!memcmp(&h, &before, sizeof(h)));
	} else {
		FUZZ_CHECK(why == LNET_HDR_DROP_NONE);
		check_accepted(&h);
		FUZZ_CHECK(lnet_nid_is_nid4(&h.dest_nid) &&
			   lnet_nid_is_nid4(&h.src_nid));
		memset(enc, 0x5a, sizeof(enc));
		FUZZ_CHECK(!lnet_hdr_to_nid4(&h, enc));
		check_encoded(wire, enc, sizeof(enc), 32, h.type);
		memset(&h2, 0, sizeof(h2));
		FUZZ_CHECK(!lnet_hdr_from_nid4(&h2, enc, NULL));
		FUZZ_CHECK(!memcmp(&h, &h2, sizeof(h)));
	}

	memset(&h, 0xa5, sizeof(h));
	rc = lnet_hdr_hello_from_nid4(&h, wire, &why);
	FUZZ_CHECK(why < LNET_HDR_DROP_COUNT);
	if (rc) {
		FUZZ_CHECK(rc == -EPROTO && why != LNET_HDR_DROP_NONE);
		FUZZ_CHECK(!memcmp(&h, &before, sizeof(h)));
		return;
	}
	FUZZ_CHECK(h.type == LNET_MSG_HELLO && lnet_nid_is_any(&h.dest_nid));
	FUZZ_CHECK(!lnet_nid_is_any(&h.src_nid));
	memset(enc, 0x5a, sizeof(enc));
	FUZZ_CHECK(!lnet_hdr_hello_to_nid4(&h, enc));
	check_encoded(wire, enc, sizeof(enc), 32, LNET_MSG_HELLO);
	memset(&h2, 0, sizeof(h2));
	FUZZ_CHECK(!lnet_hdr_hello_from_nid4(&h2, enc, NULL));
	FUZZ_CHECK(!memcmp(&h, &h2, sizeof(h)));
}

static void fuzz_nid16(const u8 *wire)
{
	struct lnet_hdr h, h2, before;
	enum lnet_hdr_drop_reason why = LNET_HDR_DROP_COUNT;
	u8 enc[LNET_HDR_NID16_SIZE];
	int rc;

	memset(&h, 0xa5, sizeof(h));
	before = h;
	rc = lnet_hdr_from_nid16(&h, wire, &why);
	FUZZ_CHECK(why < LNET_HDR_DROP_COUNT);
	if (rc) {
		FUZZ_CHECK(rc == -EPROTO && why != LNET_HDR_DROP_NONE);
		FUZZ_CHECK(!memcmp(&h, &before, sizeof(h)));
		return;
	}
	FUZZ_CHECK(why == LNET_HDR_DROP_NONE);
	check_accepted(&h);
	memset(enc, 0x5a, sizeof(enc));
	lnet_hdr_to_nid16(&h, enc);
	check_encoded(wire, enc, sizeof(enc), 56, h.type);
	memset(&h2, 0, sizeof(h2));
	FUZZ_CHECK(!lnet_hdr_from_nid16(&h2, enc, NULL));
	FUZZ_CHECK(!memcmp(&h, &h2, sizeof(h)));
	/* A header of 4-byte NIDs also goes as nid4, and comes back. */
	if (lnet_nid_is_nid4(&h.dest_nid) && lnet_nid_is_nid4(&h.src_nid)) {
		u8 enc4[LNET_HDR_NID4_SIZE];

		FUZZ_CHECK(!lnet_hdr_to_nid4(&h, enc4));
		memset(&h2, 0, sizeof(h2));
		FUZZ_CHECK(!lnet_hdr_from_nid4(&h2, enc4, NULL));
		FUZZ_CHECK(!memcmp(&h.msg, &h2.msg, sizeof(h.msg)));
		FUZZ_CHECK(lnet_nid_equal(&h.dest_nid, &h2.dest_nid));
		FUZZ_CHECK(lnet_nid_equal(&h.src_nid, &h2.src_nid));
	}
}

int fuzz_one_input(const u8 *data, size_t size)
{
	u8 *wire;

	if (size < LNET_HDR_NID4_SIZE)
		return 0;
	wire = fuzz_dup(data, LNET_HDR_NID4_SIZE, false);
	fuzz_nid4(wire);
	free(wire);
	if (size >= LNET_HDR_NID16_SIZE) {
		wire = fuzz_dup(data, LNET_HDR_NID16_SIZE, false);
		fuzz_nid16(wire);
		free(wire);
	}
	return 0;
}
