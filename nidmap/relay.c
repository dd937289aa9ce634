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
#include <linux/jiffies.h>
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
 * Return: the least D >= 1 with k^D >= n (0 for no subscriber); for
 * k = 1 (a chain), @n.
 */
u32 nidmap_relay_depth(u32 n, u32 k)
{
	u64 cap = k;
	u32 d = 1;

	if (!n)
		return 0;
	if (k == 1)
		return n;	/* a chain */
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
 * @k: the fan-out, NIDMAP_RELAY_K_MIN to NIDMAP_RELAY_K_MAX; or 1, a
 *	chain in key order (n at most NIDMAP_RELAY_CHAIN_MAX: for tests, where
 *	a tree of two or three subscribers would relay nothing)
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

	if (!k || k > NIDMAP_RELAY_K_MAX || n > NIDMAP_RELAY_SUBS_MAX ||
	    (k == 1 && n > NIDMAP_RELAY_CHAIN_MAX))
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

/**
 * nidmap_relay_sets() - each node's children in a plan, grouped
 * @parent: nidmap_relay_plan()'s output, @n entries
 * @n: subscribers
 * @first: out, @n + 2 entries: the children of subscriber i are
 *	@order[@first[i]] to @order[@first[i + 1] - 1]; the publisher's
 *	(NIDMAP_RELAY_ROOT) are at @first[@n] to @first[@n + 1] - 1
 * @order: out, @n entries: subscriber indices grouped by parent, each
 *	group in index order
 *
 * Pure and allocation-free (a counting sort): the publisher turns a plan
 * into the relay set it sends each relay.
 *
 * Return: 0, or -EINVAL if a parent is neither a subscriber nor the root.
 */
int nidmap_relay_sets(const u32 *parent, u32 n, u32 *first, u32 *order)
{
	u32 i, p;

	for (i = 0; i < n; i++)
		if (parent[i] != NIDMAP_RELAY_ROOT && parent[i] >= n)
			return -EINVAL;
	memset(first, 0, (n + 2) * sizeof(*first));
	for (i = 0; i < n; i++) {
		p = parent[i] == NIDMAP_RELAY_ROOT ? n : parent[i];
		first[p + 1]++;
	}
	for (i = 1; i < n + 2; i++)
		first[i] += first[i - 1];
	/* first[p] is now where p's group starts: fill, then shift back. */
	for (i = 0; i < n; i++) {
		p = parent[i] == NIDMAP_RELAY_ROOT ? n : parent[i];
		order[first[p]++] = i;
	}
	for (i = n + 1; i > 0; i--)
		first[i] = first[i - 1];
	first[0] = 0;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_relay_sets);

/**
 * nidmap_relay_forward() - does a relay forward a notice, and when
 * @f: what it forwarded last
 * @epoch: the notice's epoch
 * @version: its version
 * @copy_epoch: the relay's copy's epoch
 * @copy_version: its version
 * @now: jiffies
 *
 * Documentation/nidmap.rst, "Relaying a notice": a notice is forwarded
 * when it is newer than the relay's copy (another epoch, or a higher
 * version: the copy's version comes from the publisher's pages, so a
 * forged huge version does not stop later notices) and is not the one
 * forwarded last (deduplicated by epoch and version), at most one round
 * per NIDMAP_NOTICE_DELAY.
 *
 * Return: NIDMAP_FWD_NO, NIDMAP_FWD_NOW, or NIDMAP_FWD_LATER (the caller
 * starts the round at @f->last + NIDMAP_NOTICE_DELAY).
 */
enum nidmap_fwd_verdict nidmap_relay_forward(const struct nidmap_fwd *f,
					     u64 epoch, u64 version,
					     u64 copy_epoch, u64 copy_version,
					     unsigned long now)
{
	if (epoch == copy_epoch && version <= copy_version)
		return NIDMAP_FWD_NO;
	if (f->rounds && f->epoch == epoch && f->version == version)
		return NIDMAP_FWD_NO;
	if (f->rounds && time_before(now, f->last + NIDMAP_NOTICE_DELAY))
		return NIDMAP_FWD_LATER;
	return NIDMAP_FWD_NOW;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_relay_forward);
