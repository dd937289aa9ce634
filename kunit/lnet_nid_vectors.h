/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NID and network strings with what they must parse to (spec 1.6): one
 * table for the kernel's KUnit test (lnet_nid_test.c) and for the
 * user-space build of the same grammar in lnetctl (utils/tests/
 * nid_grammar.c), so that both are held to the same answers.
 */
#ifndef _LNET_NID_VECTORS_H
#define _LNET_NID_VECTORS_H

struct nid_vector {
	const char *str;	/* input */
	u64 nid4;		/* expected value, for 4-byte addresses */
	const char *canon;	/* expected output of format(parse(str)) */
};

static const struct nid_vector valid_nids[] = {
	{ "192.168.1.2@tcp",	0x00020000C0A80102ULL, "192.168.1.2@tcp" },
	{ "192.168.1.2@tcp0",	0x00020000C0A80102ULL, "192.168.1.2@tcp" },
	{ "192.168.1.2",	0x00020000C0A80102ULL, "192.168.1.2@tcp" },
	{ "10.0.0.1@o2ib3",	0x000500030A000001ULL, "10.0.0.1@o2ib3" },
	{ "0@lo",		0x0009000000000000ULL, "0@lo" },
	{ "192.0.2.7@tcp65535",	0x0002FFFFC0000207ULL, "192.0.2.7@tcp65535" },
	{ "0.0.0.0@tcp7",	0x0002000700000000ULL, "0.0.0.0@tcp7" },
	{ "255.255.255.255@o2ib", 0x00050000FFFFFFFFULL, "255.255.255.255@o2ib" },
	/* Leading zeros are decimal, as Lustre's sscanf("%u") reads them. */
	{ "010.001.0.09@tcp",	0x000200000A010009ULL, "10.1.0.9@tcp" },
	{ "42@gni",		0x000D00000000002AULL, "42@gni" },
	{ "0x2a@gni1",		0x000D00010000002AULL, "42@gni1" },
	{ "0X2A@gni1",		0x000D00010000002AULL, "42@gni1" },
	{ "4294967295@kfi",	0x00100000FFFFFFFFULL, "4294967295@kfi" },
	{ "7@ptlf2",		0x000F000200000007ULL, "7@ptlf2" },
	{ "9@bxi3f",		0x0013000000000009ULL, "9@bxi3f" },
	{ "192.0.2.1@gip4",	0x000E0004C0000201ULL, "192.0.2.1@gip4" },
	{ "192.0.2.1@efa",	0x00120000C0000201ULL, "192.0.2.1@efa" },
	{ "<?>",		LNET_NID_ANY,	       "<?>" },
};

/* IPv6 NIDs: 16-byte addresses, no nid4 form. */
static const struct nid_vector valid_ipv6_nids[] = {
	{ "2001:db8::1@tcp5",	0, "2001:db8::1@tcp5" },
	{ "::1@o2ib",		0, "::1@o2ib" },
	{ "fe80::1:2@tcp",	0, "fe80::1:2@tcp" },
	{ "2001:db8:0:0:0:0:0:7", 0, "2001:db8::7@tcp" },
};

static const char * const invalid_nids[] = {
	"", "@", "@tcp", "192.168.1.2@", "192.168.1.2@tcp65536",
	"192.168.1.2@tcp-1", "192.168.1.2@tcp+1", "192.168.1.2@tcp 1",
	"192.168.1.2@tcp\n", " 192.168.1.2@tcp", "192.168.1.2 @tcp",
	"192.168.1.256@tcp", "192.168.1@tcp", "192.168.1.2.3@tcp",
	"192.168.1.2.@tcp", ".192.168.1.2@tcp", "192..1.2@tcp",
	"192.168.1.+2@tcp", "0x1.2.3.4@tcp",
	"192.168.1.2@TCP", "192.168.1.2@foo", "192.168.1.2@tcpx",
	"192.168.1.2@@tcp", "host.example@tcp", "1@lo", "0@lo1", "0@lo0",
	"x@lo", "-1@gni", "4294967296@kfi", "0x@gni", "0x1g@gni",
	"1.2.3.4@gni", "12@tcp", "2001:db8::1@gni", "::1::2@tcp",
	"2001:db8:::1@tcp", "12345::1@tcp", "1:2:3:4:5:6:7:8:9@tcp",
	"0@o2ib99999", "<?>@tcp",
};

struct net_vector {
	const char *str;
	u32 net;
	const char *canon;
};

static const struct net_vector valid_nets[] = {
	{ "tcp", 0x00020000, "tcp" }, { "tcp0", 0x00020000, "tcp" },
	{ "tcp7", 0x00020007, "tcp7" }, { "o2ib3", 0x00050003, "o2ib3" },
	{ "o2ib", 0x00050000, "o2ib" }, { "lo", 0x00090000, "lo" },
	{ "bxi3f12", 0x0013000C, "bxi3f12" },
	{ "kfi65535", 0x0010FFFF, "kfi65535" },
	{ "tcp007", 0x00020007, "tcp7" },
};

static const char * const invalid_nets[] = {
	"", "tcp65536", "tcp-1", "tc", "lo0", "lo1", "o2ib 3", "tcp\n",
	"TCP", "tofu", "<?>", "tcp0x1",
};

#endif /* _LNET_NID_VECTORS_H */
