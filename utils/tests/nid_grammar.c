// SPDX-License-Identifier: GPL-2.0
/*
 * nid_grammar: the user-space build of the kernel's NID grammar
 * (lnet/nidparse.c, as linked into lnetctl) against the table the
 * kernel's KUnit test uses (kunit/lnet_nid_vectors.h).  Prints one line
 * per disagreement and "N passed, N failed"; exits 1 on any failure.
 * Also lnetctl's expansion of NID range expressions (nidrange.c)
 * against the table below.
 * Run by tests/static.py (host test nid_grammar).
 */
#include <stdio.h>

#include <lnet/nid.h>

#include "../../kunit/lnet_nid_vectors.h"
#include "../lnetctl/nidrange.h"

/* A list as "peer add --nid" takes it and its NIDs, space-separated. */
static const struct {
	const char *list;
	const char *nids;
} nid_ranges[] = {
	{ "192.0.2.1@tcp", "192.0.2.1@tcp" },
	{ "7.7.7.[8-12]@tcp",
	  "7.7.7.8@tcp 7.7.7.9@tcp 7.7.7.10@tcp 7.7.7.11@tcp 7.7.7.12@tcp" },
	{ "[13-14/1].[13-15/2].1.1@tcp1",
	  "13.13.1.1@tcp1 13.15.1.1@tcp1 14.13.1.1@tcp1 14.15.1.1@tcp1" },
	{ "7.7.7.[6-8]@tcp,7.7.7.7@tcp",	/* a NID twice counts once */
	  "7.7.7.6@tcp 7.7.7.7@tcp 7.7.7.8@tcp" },
	{ "10.0.0.[1,5-9/4,20]@o2ib2,10.0.1.1@o2ib2",
	  "10.0.0.1@o2ib2 10.0.0.5@o2ib2 10.0.0.9@o2ib2 10.0.0.20@o2ib2 10.0.1.1@o2ib2" },
	{ "[1-3]@kfi", "1@kfi 2@kfi 3@kfi" },
	{ "10.1.[0-1].[254-255]@tcp",
	  "10.1.0.254@tcp 10.1.0.255@tcp 10.1.1.254@tcp 10.1.1.255@tcp" },
};

static const char * const bad_nid_ranges[] = {
	"", ",", "7.7.7.[8-12@tcp", "7.7.7.8-12]@tcp", "7.7.7.[12-8]@tcp",
	"7.7.7.[8-12/0]@tcp", "7.7.7.[250-256]@tcp", "7.7.[1-2]@tcp",
	"7.7.7.[]@tcp", "7.7.7.[1,]@tcp", "7.7.7.[1-2]x@tcp",
	"7.7.7.[1-2]@tcp[1-2]", "7.7.7.1@tcp,", "7.7.7.[a-b]@tcp",
	"7.7.7.[1-2]@nonet", "[1-2].[1-2].[1-2].[1-2].[1-2]@tcp",
};

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

/* nid_list_expand() gives exactly @want, in order. */
static bool expands_to(const char *list, const char *want)
{
	static char out[LNET_GENL_PEER_NIDS_MAX][LNET_GENL_NID_LEN];
	char got[LNET_GENL_PEER_NIDS_MAX * LNET_GENL_NID_LEN] = "";
	int n = nid_list_expand(list, out, LNET_GENL_PEER_NIDS_MAX), i;
	size_t len = 0;

	for (i = 0; i < n; i++)
		len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%s",
					i ? " " : "", out[i]);
	if (n > 0 && !strcmp(got, want))
		return true;
	printf("  got %d: \"%s\"\n", n, got);
	return false;
}

static void check_ranges(void)
{
	static char out[LNET_GENL_PEER_NIDS_MAX][LNET_GENL_NID_LEN];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(nid_ranges); i++)
		check(expands_to(nid_ranges[i].list, nid_ranges[i].nids),
		      "nid range", nid_ranges[i].list);
	for (i = 0; i < ARRAY_SIZE(bad_nid_ranges); i++)
		check(nid_list_expand(bad_nid_ranges[i], out,
				      LNET_GENL_PEER_NIDS_MAX) == -EINVAL,
		      "bad nid range accepted", bad_nid_ranges[i]);
	/* 256 NIDs fit, 257 do not; the cap holds for one field alone */
	check(nid_list_expand("10.0.[0-1].[0-127]@tcp", out, 256) == 256,
	      "256 NIDs", "10.0.[0-1].[0-127]@tcp");
	check(nid_list_expand("10.0.[0-1].[0-128]@tcp", out, 256) == -E2BIG,
	      "257 NIDs", "10.0.[0-1].[0-128]@tcp");
	check(nid_list_expand("[0-4294967295]@kfi", out, 256) == -E2BIG,
	      "2^32 NIDs", "[0-4294967295]@kfi");
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
	check_ranges();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
