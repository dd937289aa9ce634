// SPDX-License-Identifier: GPL-2.0
/*
 * Target pingbuf: a ping reply or push payload (lnet/pingbuf.c), parsed
 * as discovery parses it; the buffer is exactly the bytes received.  The
 * first input byte picks max_interfaces (16 to 4096, what the tunable
 * allows) and the room the caller gives for NIDs; the rest is the buffer.
 *
 * Checks: a refused buffer is refused whatever the room; an accepted one
 * gives a header that passed the spec's checks (6.2), as many NIDs as
 * its entries whatever the room (those that fit stored, the same each
 * time), no more than the bytes can hold, none that no NI can have (ANY,
 * a nid4 with bits 63..56 set); a buffer of ours
 * (lnet_ping_buf_build()) from the nid4 entries found parses back to
 * them.
 */
#include <lnet/lib-lnet.h>

#include "../fuzz.h"

#define ROOM	64

static int max_interfaces = 4096;

/* lnet/params.c's tunable. */
int lnet_max_interfaces(void)
{
	return max_interfaces;
}

/* Our own buffer of @n entries of @nids comes back the same. */
static void check_ours(const struct lnet_nid *nids, const u32 *st,
		       unsigned int n, u32 seq)
{
	struct lnet_ping_ni nis[ROOM];
	struct lnet_nid got[ROOM];
	struct lnet_ping_data pd;
	struct lnet_ping_info *pi;
	size_t size = lnet_ping_buf_size(n);
	u32 gst[ROOM];
	unsigned int i;

	for (i = 0; i < n; i++) {
		nis[i].nid = nids[i];
		nis[i].up = st[i] == LNET_NI_STATUS_UP;
	}
	pi = malloc(size);
	if (!pi)
		abort();
	lnet_ping_buf_build(pi, LNET_PING_FEAT_DISCOVERY, seq, nis, n);
	FUZZ_CHECK(!lnet_ping_buf_parse(pi, size, &pd, got, gst, ROOM));
	FUZZ_CHECK(pd.nnids == n && pd.nnid4 == n && !pd.truncated);
	FUZZ_CHECK(pd.size == size && pd.seq == seq);
	for (i = 0; i < n; i++) {
		FUZZ_CHECK(lnet_nid_equal(&got[i], &nids[i]));
		FUZZ_CHECK(gst[i] == (nis[i].up ? LNET_NI_STATUS_UP :
					     LNET_NI_STATUS_DOWN));
	}
	free(pi);
}

int fuzz_one_input(const u8 *data, size_t size)
{
	struct lnet_nid nids[ROOM], nids2[ROOM];
	struct lnet_ping_data pd, pd2;
	unsigned int room, i, n4;
	u32 st[ROOM];
	u8 *buf;
	int rc;

	if (!size || size > 65536)
		return 0;
	max_interfaces = 16 + (data[0] & 0x0f) * 272;
	room = data[0] >> 4 << 2;
	buf = fuzz_dup(data + 1, size - 1, false);

	rc = lnet_ping_buf_parse(buf, size - 1, &pd, nids, st, room);
	FUZZ_CHECK(!memcmp(buf, data + 1, size - 1));
	FUZZ_CHECK(rc == 0 || rc == -EPROTO);
	/* The room changes what is stored, not what is found. */
	FUZZ_CHECK(lnet_ping_buf_parse(buf, size - 1, &pd2, nids2, NULL,
				       ROOM) == rc);
	free(buf);
	if (rc)
		return 0;
	FUZZ_CHECK(!memcmp(&pd, &pd2, sizeof(pd)));
	for (i = 0; i < min(room, pd.nnids); i++)
		FUZZ_CHECK(!memcmp(&nids[i], &nids2[i], sizeof(nids[i])));

	FUZZ_CHECK(pd.features & LNET_PING_FEAT_NI_STATUS);
	FUZZ_CHECK(pd.nnis >= 1 && pd.nnis <= (unsigned int)max_interfaces);
	FUZZ_CHECK(pd.nnid4 <= pd.nnids && pd.nnid4 < pd.nnis);
	FUZZ_CHECK(pd.size >= 16 + 16 * pd.nnis);
	FUZZ_CHECK(pd.truncated == (size - 1 < pd.size));
	/* Every NID takes at least 12 bytes of what arrived. */
	FUZZ_CHECK(pd.nnids <= (size - 1) / 12);
	if (pd.truncated)
		FUZZ_CHECK(pd.nnids == pd.nnid4);

	for (i = 0; i < min_t(unsigned int, pd.nnids, ROOM); i++)
		FUZZ_CHECK(!lnet_nid_is_any(&nids2[i]));
	n4 = min_t(unsigned int, pd.nnid4, ROOM);
	/* Only NIDs an NI can have: no ANY, no nid4 with bits 63..56 set. */
	for (i = 0; i < n4; i++)
		FUZZ_CHECK(lnet_nid_is_nid4(&nids2[i]) &&
			   !lnet_nid_is_any(&nids2[i]) &&
			   !(lnet_nid_to_nid4(&nids2[i]) >> 56));
	for (i = 0; i < n4; i++)
		st[i] = i & 1 ? LNET_NI_STATUS_UP : LNET_NI_STATUS_DOWN;
	check_ours(nids2, st, n4, pd.seq);
	return 0;
}
