// SPDX-License-Identifier: GPL-2.0
/*
 * nid_grammar: the user-space build of the kernel's NID grammar
 * (lnet/nidparse.c, as linked into lnetctl) against the table the
 * kernel's KUnit test uses (kunit/lnet_nid_vectors.h).  Prints one line
 * per disagreement and "N passed, N failed"; exits 1 on any failure.
 * Also lnetctl's expansion of NID range expressions (nidrange.c)
 * against the table below.
 * And ip2nets (nidrange.c): IP range matching, a rule's interfaces on a
 * made-up node, the module parameter's syntax.
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

/* An IP range, an address (a.b.c.d), and whether it matches (-1: bad). */
static const struct {
	const char *range;
	u32 addr;
	int in;
} ip_ranges[] = {
	{ "192.168.*.19", 0xc0a80513, 1 },
	{ "192.168.*.19", 0xc0a80514, 0 },
	{ "*.*.*.*", 0x01020304, 1 },
	{ "10.0.[1-5/2].*", 0x0a000301, 1 },
	{ "10.0.[1-5/2].*", 0x0a000401, 0 },
	{ "10.0.[0,2,7-9].1", 0x0a000801, 1 },
	{ "10.0.[0,2,7-9].1", 0x0a000101, 0 },
	{ "192.0.2.10", 0xc000020a, 1 },
	{ "192.0.2", 0, -1 }, { "192.0.2.1.1", 0, -1 }, { "1.2.3.256", 0, -1 },
	{ "1.2.3.[4-2]", 0, -1 }, { "1.2.3.[1-4/0]", 0, -1 },
	{ "1.2.3.[1,]", 0, -1 }, { "1.2.3.1-4", 0, -1 }, { "1.2..4", 0, -1 },
	{ "1.2.3.4.", 0, -1 }, { "1.2.3.[*]", 0x01020309, 1 },
	{ "1.2.3.[**]", 0, -1 }, { "", 0, -1 },
};

/* A node: eth0 192.0.2.10 and its alias 192.0.2.78, eth1 10.1.0.5, eth2 down. */
static const struct ip2nets_if node_ifs[] = {
	{ "lo", 0x7f000001, true },
	{ "eth0", 0xc000020a, true },
	{ "eth0:1", 0xc000024e, true },
	{ "eth1", 0x0a010005, true },
	{ "eth2", 0x0a010006, false },
};

/* @r's interfaces on node_ifs, space-separated, are exactly @want. */
static bool matches_to(const struct ip2nets_rule *r, const char *want)
{
	const char *out[8];
	char got[128] = "";
	int n = ip2nets_match(r, node_ifs, ARRAY_SIZE(node_ifs), out, 8), i;

	for (i = 0; i < n; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s",
			 i ? " " : "", out[i]);
	if (n < 0 || strcmp(got, want))
		printf("  got \"%s\" (%d), want \"%s\"\n", got, n, want);
	return n >= 0 && !strcmp(got, want);
}

static void check_ip2nets(void)
{
	struct ip2nets_rule r = { .net = "tcp" }, lr[4];
	char legacy[128];
	unsigned int i;
	int n;

	for (i = 0; i < ARRAY_SIZE(ip_ranges); i++)
		check(ip_range_match(ip_ranges[i].range, ip_ranges[i].addr) ==
		      (ip_ranges[i].in < 0 ? -EINVAL : ip_ranges[i].in),
		      "ip range", ip_ranges[i].range);
	/* neither interfaces nor ranges: the first interface up but lo */
	check(matches_to(&r, "eth0"), "ip2nets", "no interfaces or ranges");
	/* ranges only: every interface up with an address in one */
	r.ranges[r.nranges++] = "192.0.2.*";
	check(matches_to(&r, "eth0 eth0:1"), "ip2nets", "192.0.2.*");
	r.ranges[r.nranges++] = "10.1.0.[5-6]";
	check(matches_to(&r, "eth0 eth0:1 eth1"), "ip2nets",
	      "192.0.2.*, 10.1.0.[5-6] (eth2 down)");
	/* interfaces: each whose address is in a range */
	r.ifs[r.nifs++] = "eth1";
	r.ifs[r.nifs++] = "eth2";
	r.ifs[r.nifs++] = "eth9";
	check(matches_to(&r, "eth1"), "ip2nets", "eth1, eth2 (down), eth9");
	r.nranges = 1;
	check(matches_to(&r, ""), "ip2nets", "eth1 not in 192.0.2.*");
	r.nranges = 0;
	check(matches_to(&r, "eth1"), "ip2nets", "interfaces, no range");
	r.ranges[r.nranges++] = "1.2.3";
	check(ip2nets_match(&r, node_ifs, ARRAY_SIZE(node_ifs), lr[0].ifs,
			    4) == -EINVAL, "ip2nets", "a bad range");
	/* the module parameter's syntax */
	snprintf(legacy, sizeof(legacy),
		 " tcp1(eth1,eth2) 192.0.2.* 10.9.*.*; o2ib 10.1.0.5 # x\n# y\ntcp 1.1.1.1");
	n = ip2nets_parse_legacy(legacy, lr, ARRAY_SIZE(lr));
	check(n == 3 && !strcmp(lr[0].net, "tcp1") && lr[0].nifs == 2 &&
	      !strcmp(lr[0].ifs[1], "eth2") && lr[0].nranges == 2 &&
	      !strcmp(lr[0].ranges[1], "10.9.*.*") && lr[0].legacy &&
	      !strcmp(lr[1].net, "o2ib") && !lr[1].nifs &&
	      lr[1].nranges == 1 && !strcmp(lr[2].ranges[0], "1.1.1.1"),
	      "ip2nets legacy", "three rules");
	/* legacy: any address in a range brings up the listed interfaces */
	check(n == 3 && matches_to(&lr[0], "eth1 eth2"), "ip2nets legacy",
	      "tcp1(eth1,eth2) 192.0.2.*");
	check(n == 3 && matches_to(&lr[1], "eth1"), "ip2nets legacy",
	      "o2ib 10.1.0.5");
	check(n == 3 && matches_to(&lr[2], ""), "ip2nets legacy",
	      "tcp 1.1.1.1");
	{
		static const char * const bad[] = {
			"", ";", "tcp", "tcp(eth0)", "tcp() 1.2.3.4",
			"tcp(eth0 1.2.3.4", "tcp)eth0 1.2.3.4",
			"tcp 1.2.3", "tcp(eth0)x 1.2.3.4",
			"tcp(,) 1.2.3.4", "tcp(eth0123456789abc) 1.2.3.4",
		};

		for (i = 0; i < ARRAY_SIZE(bad); i++) {
			snprintf(legacy, sizeof(legacy), "%s", bad[i]);
			check(ip2nets_parse_legacy(legacy, lr,
						   ARRAY_SIZE(lr)) == -EINVAL,
			      "bad ip2nets accepted", bad[i]);
		}
		snprintf(legacy, sizeof(legacy),
			 "a 1.1.1.1;b 1.1.1.1;c 1.1.1.1;d 1.1.1.1;e 1.1.1.1");
		check(ip2nets_parse_legacy(legacy, lr, ARRAY_SIZE(lr)) ==
		      -E2BIG, "ip2nets legacy", "5 rules, room for 4");
	}
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
	check_ip2nets();
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
