// SPDX-License-Identifier: GPL-2.0
/*
 * Target nid: NID and network strings (lnet/nidparse.c, lnet/nidstr.c),
 * as configuration gives them (netlink attributes, module parameters):
 * the input, NUL-terminated, parsed as a NID, a nid4 and a network; and
 * the input's first 20 bytes taken as a large NID (one from the wire) and
 * formatted.
 *
 * Checks: a refused string leaves the output alone; an accepted NID or
 * network prints in its canonical form, within LNET_NIDSTR_SIZE, and
 * that form parses to the same; a nid4 parse agrees with the NID parse;
 * any large NID formats NUL-terminated within LNET_NIDSTR_SIZE, with
 * snprintf()'s return convention on a short buffer.
 */
#include <lnet/nid.h>

#include "../fuzz.h"

static void fuzz_nid_str(const char *str)
{
	struct lnet_nid nid, again, untouched;
	char buf[LNET_NIDSTR_SIZE];
	u64 nid4 = 0x5a5a, nid4b;
	int n, rc;

	memset(&nid, 0xa5, sizeof(nid));
	untouched = nid;
	rc = lnet_nid_from_str(str, &nid);
	if (rc) {
		FUZZ_CHECK(rc == -EINVAL);
		FUZZ_CHECK(!memcmp(&nid, &untouched, sizeof(nid)));
		FUZZ_CHECK(lnet_nid4_from_str(str, &nid4) == -EINVAL &&
			   nid4 == 0x5a5a);
		return;
	}
	FUZZ_CHECK(nid.nid_size == 0 || nid.nid_size == 12 ||
		   lnet_nid_is_any(&nid));
	n = lnet_nid_to_str(&nid, buf, sizeof(buf));
	FUZZ_CHECK(n > 0 && n < (int)sizeof(buf) && strlen(buf) == (size_t)n);
	FUZZ_CHECK(!lnet_nid_from_str(buf, &again));
	FUZZ_CHECK(lnet_nid_equal(&nid, &again));
	FUZZ_CHECK(!memcmp(&nid, &again, sizeof(nid)));

	rc = lnet_nid4_from_str(str, &nid4);
	if (!lnet_nid_is_nid4(&nid)) {
		FUZZ_CHECK(rc == -EINVAL);
		return;
	}
	FUZZ_CHECK(!rc && nid4 == lnet_nid_to_nid4(&nid));
	lnet_nid4_to_nid(nid4, &again);
	FUZZ_CHECK(lnet_nid_equal(&nid, &again));
	FUZZ_CHECK(!lnet_nid4_from_str(buf, &nid4b) && nid4b == nid4);
}

static void fuzz_net_str(const char *str)
{
	char buf[LNET_NIDSTR_SIZE];
	u32 net = 0x5a5a, again;
	int n, rc;

	rc = lnet_net_from_str(str, &net);
	if (rc) {
		FUZZ_CHECK(rc == -EINVAL && net == 0x5a5a);
		return;
	}
	FUZZ_CHECK(lnet_lnd_by_type(lnet_net_type(net)));
	n = lnet_net_to_str(net, buf, sizeof(buf));
	FUZZ_CHECK(n > 0 && n < (int)sizeof(buf));
	FUZZ_CHECK(!lnet_net_from_str(buf, &again) && again == net);
}

/* Any 20 bytes as a NID: formatting never overruns nor fails. */
static void fuzz_nid_bytes(const u8 *data)
{
	struct lnet_nid nid;
	char buf[LNET_NIDSTR_SIZE + 1], small[8];
	int n, m;

	memcpy(&nid, data, sizeof(nid));
	buf[LNET_NIDSTR_SIZE] = 'X';
	n = lnet_nid_to_str(&nid, buf, LNET_NIDSTR_SIZE);
	FUZZ_CHECK(buf[LNET_NIDSTR_SIZE] == 'X');
	FUZZ_CHECK(n > 0 && n < LNET_NIDSTR_SIZE && strlen(buf) == (size_t)n);
	m = lnet_nid_to_str(&nid, small, sizeof(small));
	FUZZ_CHECK(m == n && strlen(small) == min_t(size_t, n,
						    sizeof(small) - 1));
	FUZZ_CHECK(!strncmp(small, buf, sizeof(small) - 1));
	n = lnet_nid4_to_str(lnet_nid_to_nid4(&nid), buf, LNET_NIDSTR_SIZE);
	FUZZ_CHECK(n > 0 && n < LNET_NIDSTR_SIZE);
}

int fuzz_one_input(const u8 *data, size_t size)
{
	char *str;

	if (size > 256)
		return 0;
	str = (char *)fuzz_dup(data, size, true);
	fuzz_nid_str(str);
	fuzz_net_str(str);
	free(str);
	if (size >= sizeof(struct lnet_nid))
		fuzz_nid_bytes(data);
	return 0;
}
