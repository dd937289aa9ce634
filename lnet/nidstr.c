// SPDX-License-Identifier: GPL-2.0
/*
 * NIDs in the kernel: formatting in Lustre's syntax (spec 1.6; number 0 of
 * a net is printed without digits), nid4 conversion, comparison and
 * hashing.  The grammar that parses them is nidparse.c, shared with
 * lnetctl.
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/jhash.h>
#include <linux/kernel.h>
#include <linux/rhashtable.h>
#include <linux/string.h>

#include <lnet/nid.h>

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
