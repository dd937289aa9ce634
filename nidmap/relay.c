// SPDX-License-Identifier: GPL-2.0
/*
 * nidmap: the relay plan (Documentation/nidmap.rst, "Relay").
 *
 * A pure function of the subscriber list and the fan-out k: which
 * subscriber relays a publisher's NOTICE to which.  The tree has fixed
 * slots: level j (1 = the publisher's children) has k^j of them, slot s
 * of level j is the parent of slots s*k .. s*k+k-1 of level j+1, and the
 * depth D is the least with k^D >= n.  Each subscriber has a key (a hash
 * of its NID, the same on every node and byte order) and a home leaf (its
 * key scaled to the k^D slots of level D).  In key order, each takes the
 * first free slot on the path from level 1 down to its home leaf; when
 * that path is full, the path to the next leaf, and so on (wrapping).
 * A slot taken has its parent slot taken (a free slot above would have
 * been taken first), and there are more slots than subscribers, so the
 * plan reaches each subscriber once, through at most D relays, none
 * relaying to more than k.  A join or leave moves the subscribers of a
 * few paths; the others keep their parent (the plan is re-laid whole
 * only when D changes, at n = k^j + 1).
 */
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "node.h"

/**
 * nidmap_relay_key() - a subscriber's key in the relay plan
 * @nid: its NID
 *
 * FNV-1a (64 bits) over the NID's 20 bytes as on the wire, then
 * splitmix64's finaliser: the same on every node whatever its byte order.
 *
 * Return: the key.
 */
u64 nidmap_relay_key(const struct lnet_nid *nid)
{
	const u8 *p = (const u8 *)nid;
	u64 h = 0xcbf29ce484222325ULL;
	unsigned int i;

	for (i = 0; i < sizeof(*nid); i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebULL;
	h ^= h >> 31;
	return h;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_relay_key);

/**
 * nidmap_relay_depth() - the depth of the plan for @n subscribers
 * @n: subscribers
 * @k: fan-out
 *
 * Return: the least D >= 1 with k^D >= n (0 for no subscriber).
 */
u32 nidmap_relay_depth(u32 n, u32 k)
{
	u64 cap = k;
	u32 d = 1;

	if (!n)
		return 0;
	while (cap < n) {
		cap *= k;
		d++;
	}
	return d;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_relay_depth);

struct nidmap_relay_ord {
	u64		key;
	struct lnet_nid	nid;	/* ties of keys: the NIDs' bytes */
	u32		idx;
};

static int nidmap_relay_cmp(const void *a, const void *b)
{
	const struct nidmap_relay_ord *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return memcmp(&x->nid, &y->nid, sizeof(x->nid));
}

/**
 * nidmap_relay_plan() - who relays a NOTICE to whom
 * @subs: the subscribers' NIDs, distinct, in any order
 * @n: how many (at most NIDMAP_RELAY_SUBS_MAX)
 * @k: the fan-out, NIDMAP_RELAY_K_MIN to NIDMAP_RELAY_K_MAX
 * @parent: out, n entries: the index in @subs of the subscriber that
 *	sends subs[i] its notices, or NIDMAP_RELAY_ROOT for the publisher
 * @level: out, n entries or NULL: subs[i]'s depth (1: the publisher's
 *	child)
 *
 * A pure function of the set of NIDs and @k (the order of @subs does
 * not matter): the same list gives the same plan on any node.  Every
 * subscriber has one parent, the parents form a tree rooted at the
 * publisher of depth nidmap_relay_depth(@n, @k), and no node (the
 * publisher included) has more than @k children.  Sleeps (allocates 4
 * bytes per slot of the tree, fewer than 2 * k * n slots, and 32 bytes
 * per subscriber; freed before return).
 *
 * Return: 0, -EINVAL for a bad @n or @k, -ENOMEM.
 */
int nidmap_relay_plan(const struct lnet_nid *subs, u32 n, u32 k,
		      u32 *parent, u8 *level)
{
	struct nidmap_relay_ord *ord;
	u32 *slots[NIDMAP_RELAY_DEPTH_MAX + 1] = { NULL };
	u32 width[NIDMAP_RELAY_DEPTH_MAX + 1];
	u32 d, depth, i, s, off, leaf, up;
	int rc = -ENOMEM;

	if (k < NIDMAP_RELAY_K_MIN || k > NIDMAP_RELAY_K_MAX ||
	    n > NIDMAP_RELAY_SUBS_MAX)
		return -EINVAL;
	if (!n)
		return 0;
	depth = nidmap_relay_depth(n, k);
	if (depth > NIDMAP_RELAY_DEPTH_MAX)
		return -EINVAL;

	ord = kvmalloc_array(n, sizeof(*ord), GFP_KERNEL);
	if (!ord)
		goto out;
	width[0] = 1;
	for (d = 1; d <= depth; d++) {
		width[d] = width[d - 1] * k;
		slots[d] = kvmalloc_array(width[d], sizeof(u32), GFP_KERNEL);
		if (!slots[d])
			goto out;
		memset(slots[d], 0xff, width[d] * sizeof(u32));
	}

	for (i = 0; i < n; i++) {
		ord[i].key = nidmap_relay_key(&subs[i]);
		ord[i].nid = subs[i];
		ord[i].idx = i;
	}
	sort(ord, n, sizeof(*ord), nidmap_relay_cmp, NULL);

	/*
	 * The first free slot from level 1 down the path to the home leaf,
	 * else to the next leaf's.  Fewer subscribers than slots: some path
	 * has a free slot, and its first free slot has its parent taken.
	 */
	for (i = 0; i < n; i++) {
		u32 home = mul_u64_u64_shr(ord[i].key, width[depth], 64);

		for (off = 0; off < width[depth]; off++) {
			leaf = home + off < width[depth] ?
			       home + off : home + off - width[depth];
			up = NIDMAP_RELAY_ROOT;
			for (d = 1; d <= depth; d++) {
				s = leaf / (width[depth] / width[d]);
				if (slots[d][s] == U32_MAX)
					break;
				up = slots[d][s];
			}
			if (d <= depth)
				break;
		}
		if (WARN_ON(off == width[depth])) {
			rc = -EIO;
			goto out;
		}
		slots[d][s] = ord[i].idx;
		parent[ord[i].idx] = up;
		if (level)
			level[ord[i].idx] = d;
	}
	rc = 0;
out:
	for (d = 1; d <= depth; d++)
		kvfree(slots[d]);
	kvfree(ord);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_relay_plan);
