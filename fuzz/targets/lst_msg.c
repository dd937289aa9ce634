// SPDX-License-Identifier: GPL-2.0
/*
 * Target lst_msg: a selftest framework or test message, request or reply
 * of any type (selftest/wire.c), as the selftest's RPC layer receives it:
 * the bytes that arrived, lst_msg_unpack() turning them little-endian in
 * place; for a TEST request, the destination list that follows it
 * (lst_dests_unpack()), made of the bytes after the first 160.
 *
 * Checks: a refused message is left unchanged, for the documented
 * reasons only; an accepted one is the one received when it came
 * little-endian, and otherwise has its header swapped and every byte
 * past the type's body untouched; unpacked again it does not change.
 * A TEST request's destinations come out little-endian.
 */
#include "../../selftest/wire.h"

#include "../fuzz.h"

static void check_accepted(const u8 *got, const u8 *wire,
			   const struct lst_msg_info *mi)
{
	unsigned int body = lst_body_size(mi->type);
	struct lst_msg_info mi2;
	u8 again[LST_MSG_SIZE];

	FUZZ_CHECK(mi->type < LST_MSG_TYPES);
	FUZZ_CHECK(body && body <= LST_BODY_SIZE);
	FUZZ_CHECK(get_unaligned_le32(got + LST_HDR_MAGIC) == LST_MSG_MAGIC);
	FUZZ_CHECK(get_unaligned_le32(got + LST_HDR_TYPE) == mi->type);
	if (!mi->swapped) {
		FUZZ_CHECK(!memcmp(got, wire, LST_MSG_SIZE));
	} else {
		unsigned int i;

		for (i = 0; i < LST_BODY_OFF; i += 4)
			FUZZ_CHECK(get_unaligned_le32(got + i) ==
				   swab32(get_unaligned_le32(wire + i)));
		FUZZ_CHECK(!memcmp(got + LST_BODY_OFF + body,
				   wire + LST_BODY_OFF + body,
				   LST_BODY_SIZE - body));
	}
	memcpy(again, got, sizeof(again));
	FUZZ_CHECK(!lst_msg_unpack(again, sizeof(again), &mi2));
	FUZZ_CHECK(!mi2.swapped && mi2.type == mi->type);
	FUZZ_CHECK(!memcmp(again, got, sizeof(again)));
}

int fuzz_one_input(const u8 *data, size_t size)
{
	struct lst_msg_info mi;
	unsigned int len = min_t(size_t, size, LST_MSG_SIZE + 1);
	u8 *msg;
	int rc;

	if (size > LST_MSG_SIZE + LST_DESTS_PER_PAGE * LST_DEST_SIZE)
		return 0;
	/* A length other than 160 is refused: try 161 as well as less. */
	msg = fuzz_dup(data, len, false);
	memset(&mi, 0xa5, sizeof(mi));
	rc = lst_msg_unpack(msg, len, &mi);
	if (len != LST_MSG_SIZE)
		FUZZ_CHECK(rc == -EMSGSIZE);
	if (rc) {
		FUZZ_CHECK(rc == -EMSGSIZE || rc == -EPROTO || rc == -EBADMSG);
		FUZZ_CHECK(!memcmp(msg, data, len));
		free(msg);
		return 0;
	}
	check_accepted(msg, data, &mi);

	if (mi.type == LST_MSG_TEST_REQST) {
		unsigned int n = (size - LST_MSG_SIZE) / LST_DEST_SIZE;
		u8 *dests = fuzz_dup(data + LST_MSG_SIZE, n * LST_DEST_SIZE,
				     false);
		unsigned int i;

		lst_dests_unpack(dests, n, mi.swapped);
		for (i = 0; i < n; i++) {
			const u8 *w = data + LST_MSG_SIZE + i * LST_DEST_SIZE;
			const u8 *d = dests + i * LST_DEST_SIZE;

			FUZZ_CHECK(get_unaligned_le64(d) == (mi.swapped ?
				   get_unaligned_be64(w) :
				   get_unaligned_le64(w)));
		}
		free(dests);
	}
	free(msg);
	return 0;
}
