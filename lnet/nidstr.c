// SPDX-License-Identifier: GPL-2.0
/*
 * NID and network strings in Lustre's syntax (spec 1.6):
 *
 *	net := <lnd name>[<decimal number>]	"tcp", "tcp7", "o2ib3", "lo"
 *	nid := <address>@<net> | <address> | "<?>"
 *
 * A NID without "@" is an address on tcp (net 0).  Number 0 is printed
 * without digits.  Anything that does not match exactly is rejected with
 * -EINVAL: a config string is never guessed at.
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/inet.h>
#include <linux/jhash.h>
#include <linux/kernel.h>
#include <linux/rhashtable.h>
#include <linux/string.h>

#include <lnet/nid.h>

/* How the address part of a NID is written for an LND. */
enum lnet_addr_kind {
	LNET_ADDR_LO,		/* always "0" */
	LNET_ADDR_IP,		/* IPv4 dotted quad or IPv6 text */
	LNET_ADDR_NUM,		/* u32, decimal or 0x-prefixed hex */
};

struct lnet_lnd_name {
	u8			type;
	enum lnet_addr_kind	kind;
	const char		*name;
};

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

static const struct lnet_lnd_name *lnet_lnd_by_type(u32 type)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(lnet_lnd_names); i++)
		if (lnet_lnd_names[i].type == type)
			return &lnet_lnd_names[i];
	return NULL;
}

/*
 * Parse an unsigned number made only of digits of @base in s[0..len).
 * Unlike kstrtouint() this takes a length, and refuses a sign, spaces and
 * a trailing newline: config strings are taken literally.
 */
static int lnet_parse_uint(const char *s, size_t len, unsigned int base,
			   u32 max, u32 *out)
{
	u64 val = 0;
	size_t i;

	if (len == 0)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		int d = hex_to_bin(s[i]);

		if (d < 0 || d >= base)
			return -EINVAL;
		val = val * base + d;
		if (val > max)
			return -EINVAL;
	}
	*out = val;
	return 0;
}

/* Net string in s[0..len): returns the LND entry and the network. */
static const struct lnet_lnd_name *lnet_parse_net(const char *s, size_t len,
						  u32 *net)
{
	const struct lnet_lnd_name *best = NULL;
	size_t best_len = 0;
	u32 num = 0;
	int i;

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
	const char *end;
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
		if (len && in4_pton(s, len, (u8 *)nid->nid_addr, -1, &end) &&
		    end == s + len)
			return 0;
		if (len && in6_pton(s, len, (u8 *)nid->nid_addr, -1, &end) &&
		    end == s + len) {
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

/**
 * lnet_nid4_from_str() - parse a NID string into a 64-bit NID
 * @str: NUL-terminated NID string, as for lnet_nid_from_str()
 * @nid4: where the NID is stored on success
 *
 * Return: 0, or -EINVAL if @str is invalid or its address does not fit
 * in 32 bits (IPv6).
 */
int lnet_nid4_from_str(const char *str, u64 *nid4)
{
	struct lnet_nid nid;

	if (lnet_nid_from_str(str, &nid) || !lnet_nid_is_nid4(&nid))
		return -EINVAL;
	*nid4 = lnet_nid_to_nid4(&nid);
	return 0;
}
EXPORT_SYMBOL(lnet_nid4_from_str);

/**
 * lnet_net_to_str() - format a network in Lustre's syntax
 * @net: network
 * @buf: output buffer, always NUL-terminated when @size > 0
 * @size: size of @buf
 *
 * An unknown LND type is printed as "<type:num>".
 *
 * Return: the length of the full string, as for snprintf().
 */
int lnet_net_to_str(u32 net, char *buf, size_t size)
{
	const struct lnet_lnd_name *lnd = lnet_lnd_by_type(lnet_net_type(net));
	u32 num = lnet_net_num(net);

	if (net == LNET_NET_ANY)
		return snprintf(buf, size, "<?>");
	if (!lnd)
		return snprintf(buf, size, "<%u:%u>", lnet_net_type(net), num);
	if (num == 0)
		return snprintf(buf, size, "%s", lnd->name);
	return snprintf(buf, size, "%s%u", lnd->name, num);
}
EXPORT_SYMBOL(lnet_net_to_str);

/**
 * lnet_nid_to_str() - format a large NID in Lustre's syntax
 * @nid: NID
 * @buf: output buffer, always NUL-terminated when @size > 0
 * @size: size of @buf; %LNET_NIDSTR_SIZE always suffices
 *
 * Return: the length of the full string, as for snprintf().
 */
int lnet_nid_to_str(const struct lnet_nid *nid, char *buf, size_t size)
{
	const struct lnet_lnd_name *lnd = lnet_lnd_by_type(nid->nid_type);
	u32 addr = be32_to_cpu(nid->nid_addr[0]);
	char net[16];
	int n;

	if (lnet_nid_is_any(nid))
		return snprintf(buf, size, "<?>");

	lnet_net_to_str(lnet_nid_net(nid), net, sizeof(net));
	if (!lnd || lnd->kind == LNET_ADDR_NUM)
		n = snprintf(buf, size, "%u", addr);
	else if (lnd->kind == LNET_ADDR_LO)
		n = snprintf(buf, size, "0");
	else if (nid->nid_size == 12)
		n = snprintf(buf, size, "%pI6c", nid->nid_addr);
	else
		n = snprintf(buf, size, "%pI4", nid->nid_addr);

	return n + snprintf(buf + min_t(size_t, n, size),
			    size - min_t(size_t, n, size), "@%s", net);
}
EXPORT_SYMBOL(lnet_nid_to_str);

/**
 * lnet_nid4_to_str() - format a 64-bit NID in Lustre's syntax
 * @nid4: NID
 * @buf: output buffer, always NUL-terminated when @size > 0
 * @size: size of @buf
 *
 * Return: the length of the full string, as for snprintf().
 */
int lnet_nid4_to_str(u64 nid4, char *buf, size_t size)
{
	struct lnet_nid nid;

	lnet_nid4_to_nid(nid4, &nid);
	return lnet_nid_to_str(&nid, buf, size);
}
EXPORT_SYMBOL(lnet_nid4_to_str);

/**
 * lnet_nid4_to_nid() - widen a 64-bit NID to a large NID
 * @nid4: NID; %LNET_NID_ANY becomes %LNET_ANY_NID
 * @nid: result
 */
void lnet_nid4_to_nid(u64 nid4, struct lnet_nid *nid)
{
	if (nid4 == LNET_NID_ANY) {
		*nid = LNET_ANY_NID;
		return;
	}
	memset(nid, 0, sizeof(*nid));
	nid->nid_type = lnet_net_type(lnet_nid4_net(nid4));
	nid->nid_num = cpu_to_be16(lnet_net_num(lnet_nid4_net(nid4)));
	nid->nid_addr[0] = cpu_to_be32(lnet_nid4_addr(nid4));
}
EXPORT_SYMBOL(lnet_nid4_to_nid);

/**
 * lnet_nid_to_nid4() - narrow a large NID to a 64-bit NID
 * @nid: NID; only the first address word is kept
 *
 * Return: the 64-bit NID; %LNET_NID_ANY for the wildcard.
 */
u64 lnet_nid_to_nid4(const struct lnet_nid *nid)
{
	if (lnet_nid_is_any(nid))
		return LNET_NID_ANY;
	return lnet_mknid4(lnet_nid_net(nid), be32_to_cpu(nid->nid_addr[0]));
}
EXPORT_SYMBOL(lnet_nid_to_nid4);

/**
 * lnet_nid_equal() - compare two large NIDs
 * @a: first NID
 * @b: second NID
 *
 * Only the significant bytes (nid_size + 8) take part.
 *
 * Return: true if both name the same NID.
 */
bool lnet_nid_equal(const struct lnet_nid *a, const struct lnet_nid *b)
{
	if (lnet_nid_is_any(a) || lnet_nid_is_any(b))
		return lnet_nid_is_any(a) && lnet_nid_is_any(b);
	return a->nid_size == b->nid_size &&
	       !memcmp(a, b, min_t(size_t, a->nid_size + 8, sizeof(*a)));
}
EXPORT_SYMBOL(lnet_nid_equal);

/**
 * lnet_nid_hash() - hash the bytes of a NID that lnet_nid_equal() compares
 * @nid: the NID
 * @seed: hash seed
 *
 * Two NIDs that compare equal hash equal, whatever their unused address
 * bytes hold (a header from the wire may set them).
 *
 * Return: the hash.
 */
u32 lnet_nid_hash(const struct lnet_nid *nid, u32 seed)
{
	if (lnet_nid_is_any(nid))
		return jhash_1word(LNET_NID_TYPE_ANY, seed);
	return jhash(nid, min_t(size_t, nid->nid_size + 8, sizeof(*nid)),
		     seed);
}
EXPORT_SYMBOL(lnet_nid_hash);

/**
 * lnet_nid_rht_hashfn() - rhashtable .hashfn of a table keyed by a NID
 * @nid: the key, a struct lnet_nid
 * @len: the params' key_len, unused
 * @seed: hash seed
 *
 * With lnet_nid_rht_cmpfn(), NIDs that lnet_nid_equal() finds equal
 * are one key: the table's key_len alone would compare unused bytes.
 *
 * Return: the hash.
 */
u32 lnet_nid_rht_hashfn(const void *nid, u32 len, u32 seed)
{
	return lnet_nid_hash(nid, seed);
}
EXPORT_SYMBOL(lnet_nid_rht_hashfn);

/**
 * lnet_nid_rht_cmpfn() - rhashtable .obj_cmpfn of a table keyed by a NID
 * @arg: the lookup: its key and its table (whose key_offset finds the
 *	NID in @obj)
 * @obj: an object of the table
 *
 * Return: 0 if @obj's NID is the key.
 */
int lnet_nid_rht_cmpfn(struct rhashtable_compare_arg *arg, const void *obj)
{
	return !lnet_nid_equal(arg->key, obj + arg->ht->p.key_offset);
}
EXPORT_SYMBOL(lnet_nid_rht_cmpfn);
