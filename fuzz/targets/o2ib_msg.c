// SPDX-License-Identifier: GPL-2.0
/*
 * Target o2ib_msg: a received ko2iblnd message (lnd/o2ib/wire.c), the
 * input being the receive buffer's bytes and its length what the
 * completion said arrived, as rx.c gives them to kib_msg_unpack().  The
 * buffer is exactly that long, so a read past the received bytes is an
 * ASan report.  An accepted IMMEDIATE, PUT_REQ or GET_REQ has its LNet
 * header decoded as rx.c does; an accepted PUT_ACK or GET_REQ has its
 * RDMA descriptor summed.
 *
 * Checks: a refused message is left unchanged and the reason has a name;
 * an accepted one is in host order and passes every check the spec
 * lists (5.10); packed again with the same header fields it gives the
 * bytes received (checksum included, when the sender summed as we do),
 * and those unpack again.
 */
#include "../../lnd/o2ib/wire.h"

#include "../fuzz.h"

static void check_accepted(const struct kib_msg *msg, u32 received)
{
	size_t min = kib_msg_min_size(msg->ibm_type);

	FUZZ_CHECK(msg->ibm_version == IBLND_MSG_VERSION_1 ||
		   msg->ibm_version == IBLND_MSG_VERSION_2);
	FUZZ_CHECK(min && msg->ibm_nob >= min && msg->ibm_nob <= received);
	FUZZ_CHECK(msg->ibm_srcnid != LNET_NID_ANY);
	if (msg->ibm_type == IBLND_MSG_PUT_ACK ||
	    msg->ibm_type == IBLND_MSG_GET_REQ) {
		const struct kib_rdma_desc *rd =
			msg->ibm_type == IBLND_MSG_PUT_ACK ?
			&msg->ibm_u.putack.ibpam_rd : &msg->ibm_u.get.ibgm_rd;
		u32 off = (const u8 *)rd - (const u8 *)msg;

		FUZZ_CHECK(rd->rd_nfrags >= 1 &&
			   rd->rd_nfrags <= IBLND_MAX_RDMA_FRAGS);
		FUZZ_CHECK(off + kib_rdma_desc_size(rd->rd_nfrags) <=
			   msg->ibm_nob);
		FUZZ_CHECK(kib_rdma_desc_nob(rd) <=
			   (u64)rd->rd_nfrags * U32_MAX);
	}
}

/* The embedded LNet header, as rx.c's kib_parse() decodes it. */
static void decode_lnet_hdr(const struct kib_msg *msg)
{
	const u8 *wire = NULL;
	struct lnet_hdr hdr;

	switch (msg->ibm_type) {
	case IBLND_MSG_IMMEDIATE:
		wire = msg->ibm_u.immediate.ibim_hdr;
		break;
	case IBLND_MSG_PUT_REQ:
		wire = msg->ibm_u.putreq.ibprm_hdr;
		break;
	case IBLND_MSG_GET_REQ:
		wire = msg->ibm_u.get.ibgm_hdr;
		break;
	default:
		return;
	}
	if (!lnet_hdr_from_nid4(&hdr, wire, NULL) &&
	    msg->ibm_type == IBLND_MSG_IMMEDIATE)
		FUZZ_CHECK(hdr.payload_length <= LNET_MTU);
}

/* Packed again by kib_msg_pack(), the header is the one received. */
static void check_repack(const struct kib_msg *msg, const u8 *wire)
{
	u32 nob = msg->ibm_nob;
	struct kib_msg *re = (struct kib_msg *)fuzz_dup(wire, nob, false);
	struct kib_msg *again;

	kib_msg_pack(re, msg->ibm_version, msg->ibm_type, msg->ibm_credits,
		     nob, msg->ibm_srcnid, msg->ibm_srcstamp, msg->ibm_dstnid,
		     msg->ibm_dststamp, msg->ibm_cksum != 0);
	if (!msg->ibm_cksum || re->ibm_cksum == msg->ibm_cksum)
		FUZZ_CHECK(!memcmp(re, wire, nob));
	again = (struct kib_msg *)fuzz_dup((const u8 *)re, nob, false);
	FUZZ_CHECK(kib_msg_unpack(again, nob) == KIB_WIRE_OK);
	FUZZ_CHECK(!memcmp(again, re, nob));
	free(again);
	free(re);
}

int fuzz_one_input(const u8 *data, size_t size)
{
	struct kib_msg *msg;
	enum kib_wire_err err;
	bool flipped;

	if (size > IBLND_MSG_SIZE)
		return 0;
	msg = (struct kib_msg *)fuzz_dup(data, size, false);
	err = kib_msg_unpack(msg, size);
	FUZZ_CHECK(err < KIB_WIRE_ERR_COUNT);
	FUZZ_CHECK(strcmp(kib_wire_err_str(err), "unknown"));
	if (err != KIB_WIRE_OK) {
		FUZZ_CHECK(!memcmp(msg, data, size));
		free(msg);
		return 0;
	}
	flipped = msg->ibm_magic != IBLND_MSG_MAGIC;
	FUZZ_CHECK(!flipped || msg->ibm_magic == swab32(IBLND_MSG_MAGIC));
	check_accepted(msg, size);
	decode_lnet_hdr(msg);
	if (!flipped)
		check_repack(msg, data);
	free(msg);
	return 0;
}
