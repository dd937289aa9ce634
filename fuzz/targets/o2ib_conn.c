// SPDX-License-Identifier: GPL-2.0
/*
 * Target o2ib_conn: what a connection's setup receives over rdma_cm
 * (lnd/o2ib/wire.c): the private data of a CONNECT_REQUEST or an
 * ESTABLISHED (CONNREQ, CONNACK), taken as cm.c takes it (copied into a
 * zeroed struct kib_msg, at most its size, then kib_msg_unpack()), and
 * the private data of a REJECT (kib_rej_unpack()).  The first input byte
 * says which; the rest is the private data.
 *
 * Checks: an accepted CONNREQ or CONNACK has its connection parameters
 * in host order, and a message packed back from them unpacks to the
 * same; reject data of unknown magic or too short is refused with the
 * output zeroed; accepted reject data is in host order with the spec's
 * magic, and packed again by kib_rej_pack() gives the same reject (for
 * a full V2 reject of our magic).
 */
#include "../../lnd/o2ib/wire.h"

#include "../fuzz.h"

static void fuzz_connmsg(const u8 *priv, size_t len)
{
	struct kib_msg msg, again;
	const struct kib_connparams *cp = &msg.ibm_u.connparams;
	u32 nob = min_t(u32, len, sizeof(msg));
	enum kib_wire_err err;

	memset(&msg, 0, sizeof(msg));
	memcpy(&msg, priv, nob);
	err = kib_msg_unpack(&msg, nob);
	FUZZ_CHECK(err < KIB_WIRE_ERR_COUNT);
	if (err != KIB_WIRE_OK || (msg.ibm_type != IBLND_MSG_CONNREQ &&
				   msg.ibm_type != IBLND_MSG_CONNACK))
		return;
	FUZZ_CHECK(msg.ibm_nob >= IBLND_CONNPARAMS_SIZE && msg.ibm_nob <= nob);

	/* What cm.c's kib_connparams() and kib_msg_pack() would send. */
	memset(&again, 0, sizeof(again));
	again.ibm_u.connparams = *cp;
	kib_msg_pack(&again, msg.ibm_version, msg.ibm_type, msg.ibm_credits,
		     IBLND_CONNPARAMS_SIZE, msg.ibm_srcnid, msg.ibm_srcstamp,
		     msg.ibm_dstnid, msg.ibm_dststamp, true);
	FUZZ_CHECK(kib_msg_unpack(&again, IBLND_CONNPARAMS_SIZE) ==
		   KIB_WIRE_OK);
	FUZZ_CHECK(!memcmp(&again.ibm_u.connparams, cp, sizeof(*cp)));
	FUZZ_CHECK(again.ibm_srcnid == msg.ibm_srcnid &&
		   again.ibm_dststamp == msg.ibm_dststamp);
}

static void fuzz_rej(const u8 *data, size_t len)
{
	static const struct kib_rej zero;
	u8 *priv = fuzz_dup(data, len, false);
	struct kib_rej rej, re;
	int rc;

	memset(&rej, 0xa5, sizeof(rej));
	rc = kib_rej_unpack(priv, len, &rej);
	FUZZ_CHECK(!memcmp(priv, data, len));
	free(priv);
	if (rc) {
		FUZZ_CHECK(rc == -EPROTO);
		/* Only what the unknown magic came in may have been kept. */
		FUZZ_CHECK(len < IBLND_REJ_V1_SIZE ?
			   !memcmp(&rej, &zero, sizeof(rej)) :
			   !memcmp((u8 *)&rej + IBLND_REJ_V1_SIZE,
				   (const u8 *)&zero + IBLND_REJ_V1_SIZE,
				   sizeof(rej) - IBLND_REJ_V1_SIZE));
		return;
	}
	FUZZ_CHECK(rej.ibr_magic == IBLND_MSG_MAGIC ||
		   rej.ibr_magic == IBLND_PROTO_MAGIC);
	if (len < IBLND_REJ_SIZE || rej.ibr_version <= IBLND_MSG_VERSION_1) {
		FUZZ_CHECK(!rej.ibr_incarnation);
		FUZZ_CHECK(!memcmp(&rej.ibr_cp, &zero.ibr_cp,
				   sizeof(rej.ibr_cp)));
		return;
	}
	if (rej.ibr_magic != IBLND_MSG_MAGIC || rej.ibr_padding ||
	    rej.ibr_cp.ibcp_max_frags != IBLND_MAX_RDMA_FRAGS ||
	    rej.ibr_cp.ibcp_max_msg_size != IBLND_MSG_SIZE)
		return;
	kib_rej_pack(&re, rej.ibr_version, rej.ibr_why, rej.ibr_incarnation,
		     rej.ibr_cp.ibcp_queue_depth);
	FUZZ_CHECK(!memcmp(&re, &rej, sizeof(re)));
}

int fuzz_one_input(const u8 *data, size_t size)
{
	u8 *priv;

	/* Private data is at most 148 bytes (IB CM REJ), 196 (REQ). */
	if (!size || size > 1 + 256)
		return 0;
	priv = fuzz_dup(data + 1, size - 1, false);
	if (data[0] & 1)
		fuzz_rej(priv, size - 1);
	else
		fuzz_connmsg(priv, size - 1);
	free(priv);
	return 0;
}
