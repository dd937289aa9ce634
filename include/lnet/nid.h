/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LNet identifiers: LND types, network numbers, 64-bit NIDs ("nid4") and
 * 20-byte large NIDs.  Values and layouts follow the wire protocol
 * specification, section 1; see Documentation/nids.rst.
 */
#ifndef _LNET_NID_H
#define _LNET_NID_H

#ifdef __KERNEL__
#include <linux/build_bug.h>
#include <linux/types.h>
#else
#include <lnet/user-types.h>	/* lnetctl builds lnet/nidparse.c too */
#endif

/* LND type numbers (spec 1.1).  Removed types are never reused. */
enum lnet_lnd_type {
	LNET_LND_SOCK	= 2,	/* tcp */
	LNET_LND_O2IB	= 5,	/* o2ib */
	LNET_LND_LO	= 9,	/* lo, only ever 0@lo */
	LNET_LND_GNI	= 13,	/* gni */
	LNET_LND_GNIIP	= 14,	/* gip */
	LNET_LND_PTL4	= 15,	/* ptlf */
	LNET_LND_KFI	= 16,	/* kfi */
	LNET_LND_TOFU	= 17,	/* reserved, no string form */
	LNET_LND_EFA	= 18,	/* efa */
	LNET_LND_BXI3	= 19,	/* bxi3f */
};

#define LNET_NET_ANY		0xffffffffU
#define LNET_NET_NUM_MAX	0xffffU
#define LNET_NID_ANY		(~0ULL)
#define LNET_NID_LO_0		((u64)LNET_LND_LO << 48)
#define LNET_NID_TYPE_ANY	0xff

/* Longest string lnet_nid_to_str() produces, with its NUL. */
#define LNET_NIDSTR_SIZE	64

/* A network: bits 23..16 are the LND type, bits 15..0 the number. */
static inline u32 lnet_mknet(u32 type, u32 num)
{
	return (type & 0xff) << 16 | (num & 0xffff);
}

static inline u32 lnet_net_type(u32 net)
{
	return (net >> 16) & 0xff;
}

static inline u32 lnet_net_num(u32 net)
{
	return net & 0xffff;
}

/* A nid4: bits 55..32 are the network, bits 31..0 the address. */
static inline u64 lnet_mknid4(u32 net, u32 addr)
{
	return (u64)net << 32 | addr;
}

static inline u32 lnet_nid4_net(u64 nid)
{
	return (u32)(nid >> 32);
}

static inline u32 lnet_nid4_addr(u64 nid)
{
	return (u32)nid;
}

/**
 * struct lnet_nid - large NID, 20 bytes, byte-order independent on the wire
 * @nid_size: address length minus 4: 0 for IPv4/numeric, 12 for IPv6
 * @nid_type: LND type, or %LNET_NID_TYPE_ANY for the wildcard
 * @nid_num: network number, big-endian
 * @nid_addr: address words, big-endian; unused words are zero
 */
struct lnet_nid {
	u8	nid_size;
	u8	nid_type;
	__be16	nid_num;
	__be32	nid_addr[4];
} __packed;

static_assert(sizeof(struct lnet_nid) == 20);

#define LNET_ANY_NID ((struct lnet_nid) {				\
	.nid_size = 0xff, .nid_type = 0xff, .nid_num = cpu_to_be16(0xffff), \
	.nid_addr = { cpu_to_be32(~0U), cpu_to_be32(~0U),		\
		      cpu_to_be32(~0U), cpu_to_be32(~0U) } })

static inline bool lnet_nid_is_any(const struct lnet_nid *nid)
{
	return nid->nid_type == LNET_NID_TYPE_ANY;
}

static inline unsigned int lnet_nid_addr_len(const struct lnet_nid *nid)
{
	return nid->nid_size + 4;
}

/* True if @nid can be carried in a nid4 (a 4-byte address). */
static inline bool lnet_nid_is_nid4(const struct lnet_nid *nid)
{
	return nid->nid_size == 0 || lnet_nid_is_any(nid);
}

static inline u32 lnet_nid_net(const struct lnet_nid *nid)
{
	if (lnet_nid_is_any(nid))
		return LNET_NET_ANY;
	return lnet_mknet(nid->nid_type, be16_to_cpu(nid->nid_num));
}

/* How the address part of a NID is written for an LND (spec 1.6). */
enum lnet_addr_kind {
	LNET_ADDR_LO,		/* always "0" */
	LNET_ADDR_IP,		/* IPv4 dotted quad or IPv6 text */
	LNET_ADDR_NUM,		/* u32, decimal or 0x-prefixed hex */
};

/* An LND's name in NID and network strings. */
struct lnet_lnd_name {
	u8			type;
	enum lnet_addr_kind	kind;
	const char		*name;
};

const struct lnet_lnd_name *lnet_lnd_by_type(u32 type);

void lnet_nid4_to_nid(u64 nid4, struct lnet_nid *nid);
u64 lnet_nid_to_nid4(const struct lnet_nid *nid);
bool lnet_nid_equal(const struct lnet_nid *a, const struct lnet_nid *b);
u32 lnet_nid_hash(const struct lnet_nid *nid, u32 seed);

struct rhashtable_compare_arg;
/* An rhashtable keyed by a struct lnet_nid: its .hashfn and .obj_cmpfn. */
u32 lnet_nid_rht_hashfn(const void *nid, u32 len, u32 seed);
int lnet_nid_rht_cmpfn(struct rhashtable_compare_arg *arg, const void *obj);

int lnet_net_from_str(const char *str, u32 *net);
int lnet_nid_from_str(const char *str, struct lnet_nid *nid);
int lnet_nid4_from_str(const char *str, u64 *nid4);

int lnet_net_to_str(u32 net, char *buf, size_t size);
int lnet_nid_to_str(const struct lnet_nid *nid, char *buf, size_t size);
int lnet_nid4_to_str(u64 nid4, char *buf, size_t size);

#endif /* _LNET_NID_H */
