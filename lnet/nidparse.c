// SPDX-License-Identifier: GPL-2.0
/*
 * The grammar of NID and network strings (spec 1.6), one source compiled
 * into lnet.ko and into lnetctl, so that what the tool accepts and what
 * the kernel accepts cannot drift:
 *
 *	net  := <lnd name>[<decimal number>]	"tcp", "tcp7", "o2ib3", "lo"
 *	nid  := <address>@<net> | <address> | "<?>"
 *	addr := <IPv4 dotted quad> | <IPv6 text>	(tcp, o2ib, gip, efa)
 *	      | <u32, decimal or 0x-hex>		(gni, ptlf, kfi, bxi3f)
 *	      | "0"					(lo)
 *
 * A NID without "@" is an address on tcp (net 0).  Anything that does not
 * match exactly is rejected with -EINVAL: a config string is never
 * guessed at.  Formatting, which only the kernel does, is in nidstr.c.
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/inet.h>
#include <linux/kernel.h>
#include <linux/string.h>
#else
#include <arpa/inet.h>
#endif

#include <lnet/nid.h>

static const struct lnet_lnd_name lnet_lnd_names[] = {
	{ LNET_LND_SOCK,  LNET_ADDR_IP,  "tcp" },
	{ LNET_LND_O2IB,  LNET_ADDR_IP,  "o2ib" },
	{ LNET_LND_LO,    LNET_ADDR_LO,  "lo" },
	{ LNET_LND_GNI,   LNET_ADDR_NUM, "gni" },
	{ LNET_LND_GNIIP, LNET_ADDR_IP,  "gip" },
	{ LNET_LND_PTL4,  LNET_ADDR_NUM, "ptlf" },
	{ LNET_LND_KFI,   LNET_ADDR_NUM, "kfi" },
	{ LNET_LND_EFA,   LNET_ADDR_IP,  "efa" },
	{ LNET_LND_BXI3,  LNET_ADDR_NUM, "bxi3f" },
};

/**
 * lnet_lnd_by_type() - an LND's name and address syntax
 * @type: LND type (enum lnet_lnd_type)
 *
 * Return: the entry, or NULL for a type without a string form.
 */
const struct lnet_lnd_name *lnet_lnd_by_type(u32 type)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lnet_lnd_names); i++)
		if (lnet_lnd_names[i].type == type)
			return &lnet_lnd_names[i];
	return NULL;
}
EXPORT_SYMBOL(lnet_lnd_by_type);

static int lnet_digit(char c, unsigned int base)
{
	int d;

	if (c >= '0' && c <= '9')
		d = c - '0';
	else if (c >= 'a' && c <= 'f')
		d = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		d = c - 'A' + 10;
	else
		return -1;
	return d < (int)base ? d : -1;
}

/*
 * Parse an unsigned number made only of digits of @base in s[0..len).
 * Unlike kstrtouint() or strtoul() this takes a length, and refuses a
 * sign, spaces and a trailing newline: config strings are taken literally.
 */
static int lnet_parse_uint(const char *s, size_t len, unsigned int base,
			   u32 max, u32 *out)
{
	u64 val = 0;
	size_t i;

	if (len == 0)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		int d = lnet_digit(s[i], base);

		if (d < 0)
			return -EINVAL;
		val = val * base + d;
		if (val > max)
			return -EINVAL;
	}
	*out = val;
	return 0;
}

/*
 * IPv4 "a.b.c.d", each part decimal 0..255, leading zeros allowed (as
 * Lustre's sscanf("%u.%u.%u.%u") does; glibc's inet_pton() refuses them,
 * the kernel's in4_pton() takes them, so neither is used).
 */
static int lnet_parse_ipv4(const char *s, size_t len, u32 *addr)
{
	u32 ip = 0, part;
	size_t start = 0, i;
	int parts = 0;

	for (i = 0; i <= len; i++) {
		if (i < len && s[i] != '.')
			continue;
		if (parts == 4 ||
		    lnet_parse_uint(s + start, i - start, 10, 255, &part))
			return -EINVAL;
		ip = ip << 8 | part;
		parts++;
		start = i + 1;
	}
	if (parts != 4)
		return -EINVAL;
	*addr = ip;
	return 0;
}

/* IPv6 text into 16 bytes: the platform's parser, on exactly s[0..len). */
static int lnet_parse_ipv6(const char *s, size_t len, u8 addr[16])
{
#ifdef __KERNEL__
	const char *end;

	if (len && in6_pton(s, len, addr, -1, &end) && end == s + len)
		return 0;
#else
	char buf[64];

	if (len && len < sizeof(buf)) {
		memcpy(buf, s, len);
		buf[len] = '\0';
		if (inet_pton(AF_INET6, buf, addr) == 1)
			return 0;
	}
#endif
	return -EINVAL;
}

/* Net string in s[0..len): returns the LND entry and the network. */
static const struct lnet_lnd_name *lnet_parse_net(const char *s, size_t len,
						  u32 *net)
{
	const struct lnet_lnd_name *best = NULL;
	size_t best_len = 0;
	unsigned int i;
	u32 num = 0;

	/* Longest name first: names may contain digits ("o2ib", "bxi3f"). */
	for (i = 0; i < ARRAY_SIZE(lnet_lnd_names); i++) {
		size_t n = strlen(lnet_lnd_names[i].name);

		if (n <= len && n > best_len &&
		    !memcmp(s, lnet_lnd_names[i].name, n)) {
			best = &lnet_lnd_names[i];
			best_len = n;
		}
	}
	if (!best)
		return NULL;
	if (best_len < len) {
		if (best->type == LNET_LND_LO)
			return NULL;	/* "lo" takes no number */
		if (lnet_parse_uint(s + best_len, len - best_len, 10,
				    LNET_NET_NUM_MAX, &num))
			return NULL;
	}
	*net = lnet_mknet(best->type, num);
	return best;
}

/**
 * lnet_net_from_str() - parse a network name such as "tcp", "o2ib3" or "lo"
 * @str: NUL-terminated network string
 * @net: where the network is stored on success
 *
 * Return: 0, or -EINVAL if @str is not exactly a known network.
 */
int lnet_net_from_str(const char *str, u32 *net)
{
	return lnet_parse_net(str, strlen(str), net) ? 0 : -EINVAL;
}
EXPORT_SYMBOL(lnet_net_from_str);

static int lnet_parse_addr(const char *s, size_t len,
			   enum lnet_addr_kind kind, struct lnet_nid *nid)
{
	u8 ip6[16];
	u32 num;

	switch (kind) {
	case LNET_ADDR_LO:
		return len == 1 && s[0] == '0' ? 0 : -EINVAL;
	case LNET_ADDR_NUM:
		if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
			if (lnet_parse_uint(s + 2, len - 2, 16, U32_MAX, &num))
				return -EINVAL;
		} else if (lnet_parse_uint(s, len, 10, U32_MAX, &num)) {
			return -EINVAL;
		}
		nid->nid_addr[0] = cpu_to_be32(num);
		return 0;
	case LNET_ADDR_IP:
		if (!lnet_parse_ipv4(s, len, &num)) {
			nid->nid_addr[0] = cpu_to_be32(num);
			return 0;
		}
		if (!lnet_parse_ipv6(s, len, ip6)) {
			memcpy(nid->nid_addr, ip6, sizeof(ip6));
			nid->nid_size = 12;
			return 0;
		}
		return -EINVAL;
	}
	return -EINVAL;
}

/**
 * lnet_nid_from_str() - parse a NID string into a large NID
 * @str: NUL-terminated string: "<address>@<net>", "<address>" or "<?>"
 * @nid: where the NID is stored on success
 *
 * IPv6 addresses give a 16-byte address (nid_size 12); every other address
 * is 4 bytes.
 *
 * Return: 0, or -EINVAL if @str is not a valid NID.
 */
int lnet_nid_from_str(const char *str, struct lnet_nid *nid)
{
	const struct lnet_lnd_name *lnd;
	struct lnet_nid tmp = {};
	const char *at;
	size_t addr_len;
	u32 net;

	if (!strcmp(str, "<?>")) {
		*nid = LNET_ANY_NID;
		return 0;
	}

	at = strrchr(str, '@');
	if (at) {
		lnd = lnet_parse_net(at + 1, strlen(at + 1), &net);
		addr_len = at - str;
	} else {
		lnd = lnet_lnd_by_type(LNET_LND_SOCK);
		net = lnet_mknet(LNET_LND_SOCK, 0);
		addr_len = strlen(str);
	}
	if (!lnd)
		return -EINVAL;
	if (lnet_parse_addr(str, addr_len, lnd->kind, &tmp))
		return -EINVAL;

	tmp.nid_type = lnet_net_type(net);
	tmp.nid_num = cpu_to_be16(lnet_net_num(net));
	*nid = tmp;
	return 0;
}
EXPORT_SYMBOL(lnet_nid_from_str);
