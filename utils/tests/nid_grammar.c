// SPDX-License-Identifier: GPL-2.0
/*
 * nid_grammar: the user-space build of the kernel's NID grammar
 * (lnet/nidparse.c, as linked into lnetctl) against the table the
 * kernel's KUnit test uses (kunit/lnet_nid_vectors.h).  Prints one line
 * per disagreement and "N passed, N failed"; exits 1 on any failure.
 * Run by tests/static.py (host test nid_grammar).
 */
#include <stdio.h>

#include <lnet/nid.h>

#include "../../kunit/lnet_nid_vectors.h"

static int failed, passed;

static void check(bool ok, const char *what, const char *str)
{
	if (ok) {
		passed++;
		return;
	}
	failed++;
	printf("FAIL %s: \"%s\"\n", what, str);
}

static u64 nid4_of(const struct lnet_nid *nid)
{
	if (lnet_nid_is_any(nid))
		return LNET_NID_ANY;
	return lnet_mknid4(lnet_nid_net(nid), be32_to_cpu(nid->nid_addr[0]));
}

/* @str parses, and to the same bytes as its canonical form. */
static bool parses_as_canon(const struct nid_vector *v, struct lnet_nid *nid)
{
	struct lnet_nid canon;

	if (lnet_nid_from_str(v->str, nid) ||
	    lnet_nid_from_str(v->canon, &canon))
		return false;
	return !memcmp(nid, &canon, sizeof(canon));
}

int main(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(valid_nids); i++) {
		const struct nid_vector *v = &valid_nids[i];
		struct lnet_nid nid;

		check(parses_as_canon(v, &nid), "valid nid", v->str);
		check(nid4_of(&nid) == v->nid4 && lnet_nid_is_nid4(&nid),
		      "nid4 value", v->str);
	}
	for (i = 0; i < ARRAY_SIZE(valid_ipv6_nids); i++) {
		const struct nid_vector *v = &valid_ipv6_nids[i];
		struct lnet_nid nid;

		check(parses_as_canon(v, &nid) && nid.nid_size == 12,
		      "valid IPv6 nid", v->str);
	}
	for (i = 0; i < ARRAY_SIZE(invalid_nids); i++) {
		struct lnet_nid nid = {}, untouched = {};

		check(lnet_nid_from_str(invalid_nids[i], &nid) == -EINVAL &&
		      !memcmp(&nid, &untouched, sizeof(nid)),
		      "invalid nid accepted", invalid_nids[i]);
	}
	for (i = 0; i < ARRAY_SIZE(valid_nets); i++) {
		u32 net = 0, canon = 1;

		check(!lnet_net_from_str(valid_nets[i].str, &net) &&
		      net == valid_nets[i].net &&
		      !lnet_net_from_str(valid_nets[i].canon, &canon) &&
		      canon == net, "valid net", valid_nets[i].str);
	}
	for (i = 0; i < ARRAY_SIZE(invalid_nets); i++) {
		u32 net = 0x55;

		check(lnet_net_from_str(invalid_nets[i], &net) == -EINVAL &&
		      net == 0x55, "invalid net accepted", invalid_nets[i]);
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
