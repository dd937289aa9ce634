// SPDX-License-Identifier: GPL-2.0
/*
 * Target connreq: the acceptor's connection request (lnet/connreq.c),
 * read as lnet/acceptor.c reads it: 4 bytes, then as many more as the
 * parse asks for, each read exactly what was asked.
 *
 * Checks: the parse asks only for more bytes than it has, at most
 * LNET_CONNREQ_MAX_SIZE, and gives the same verdict whether called again
 * on the same bytes; an accepted request gives a NID that is one (a nid4
 * with bits 63..56 clear, a large NID of at most 16 address bytes, or
 * ANY) and that encodes back to the bytes received, for a sender of our
 * byte order (a nid4 of LND type 0xff is taken as ANY).
 */
#include <lnet/connreq.h>

#include "../fuzz.h"

int fuzz_one_input(const u8 *data, size_t size)
{
	enum lnet_connreq_verdict v, again;
	size_t have = 0, need = 4, need2;
	struct lnet_nid nid, nid2;
	u8 *buf = NULL;

	do {
		if (need > size)
			break;
		FUZZ_CHECK(need > have && need <= LNET_CONNREQ_MAX_SIZE);
		free(buf);
		buf = fuzz_dup(data, need, false);
		have = need;
		v = lnet_connreq_parse(buf, have, &need, &nid);
	} while (v == LNET_CONNREQ_MORE);
	if (!buf || v == LNET_CONNREQ_MORE) {
		free(buf);
		return 0;
	}
	again = lnet_connreq_parse(buf, have, &need2, &nid2);
	FUZZ_CHECK(again == v);
	if (v != LNET_CONNREQ_OK) {
		free(buf);
		return 0;
	}
	FUZZ_CHECK(!memcmp(&nid, &nid2, sizeof(nid)));
	FUZZ_CHECK(lnet_nid_is_any(&nid) || nid.nid_size <= 12);
	if (get_unaligned_le32(buf) == LNET_PROTO_ACCEPTOR_MAGIC) {
		if (have == 16) {
			u64 wire4 = get_unaligned_le64(buf + 8);

			/* LND type 0xff is ANY's, as lnet_nid4_to_nid() has it. */
			if (lnet_net_type(lnet_nid4_net(wire4)) == 0xff)
				FUZZ_CHECK(lnet_nid_is_any(&nid));
			else
				FUZZ_CHECK(lnet_nid_to_nid4(&nid) == wire4);
		} else {
			FUZZ_CHECK(have == 28);
			FUZZ_CHECK(!memcmp(buf + 8, &nid, sizeof(nid)));
		}
	}
	free(buf);
	return 0;
}
