/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nidmap's authentication (Documentation/nidmap.rst, "Trust"): the AUTH
 * trailer and the replay window (auth.c, pure functions the fuzz
 * harness builds too), the keys and the MAC (keyset.c, the kernel's
 * crypto API).
 */
#ifndef _NIDMAP_AUTH_H
#define _NIDMAP_AUTH_H

#include "nidmap.h"

#define NIDMAP_AUTH_HMAC_SHA256	1	/* the trailer's algorithm */
#define NIDMAP_AUTH_MAC_LEN	32	/* HMAC-SHA256 */
#define NIDMAP_AUTH_HEAD_LEN	16	/* the trailer before its MAC */
#define NIDMAP_AUTH_TRAILER_LEN	(NIDMAP_AUTH_HEAD_LEN + NIDMAP_AUTH_MAC_LEN)
#define NIDMAP_AUTH_KEY_MIN	16	/* bytes of a key's secret */
#define NIDMAP_AUTH_KEY_MAX	64	/* HMAC-SHA256's block */
#define NIDMAP_AUTH_KEYS	2	/* valid at once: a rotation */
#define NIDMAP_AUTH_WINDOW	64	/* seqs a sender's window holds */
#define NIDMAP_AUTH_SKEW_MS	(120 * 1000ULL)	/* clocks this far apart */

/**
 * struct nidmap_auth - an AUTH trailer's fields
 * @key_id: the key the MAC was made with (never 0)
 * @stamp: the sender's clock when it signed, ms since the Unix epoch
 * @mac: the MAC, over every byte of the message before it
 */
struct nidmap_auth {
	u32		key_id;
	u64		stamp;
	const u8	*mac;
};

int nidmap_auth_parse(const struct nidmap_msg *msg, struct nidmap_auth *a);
void nidmap_auth_head(u8 *trailer, u32 key_id, u64 stamp);

/**
 * struct nidmap_replay - what a receiver remembers of one sender
 * @incarnation: the sender's incarnation it last accepted (0: none yet)
 * @top: the highest seq accepted in @incarnation
 * @seen: bit i: seq @top - i was accepted
 * @stamp: the latest stamp accepted from the sender, any incarnation
 */
struct nidmap_replay {
	u64	incarnation;
	u64	top;
	u64	seen;
	u64	stamp;
};

int nidmap_replay_check(struct nidmap_replay *r, u64 incarnation, u64 seq,
			u64 stamp, u64 now, u64 skew);

/* --- keyset.c --- */

struct nidmap_keyset;

struct nidmap_keyset *nidmap_keyset_create(void);
void nidmap_keyset_destroy(struct nidmap_keyset *ks);
int nidmap_key_add(struct nidmap_keyset *ks, u32 id, const u8 *secret,
		   size_t len);
int nidmap_key_use(struct nidmap_keyset *ks, u32 id);
int nidmap_key_del(struct nidmap_keyset *ks, u32 id);
int nidmap_key_ids(struct nidmap_keyset *ks, u32 *ids, u32 *signing);
bool nidmap_keyset_signs(struct nidmap_keyset *ks);
int nidmap_auth_sign(struct nidmap_keyset *ks, void *buf, size_t len,
		     u64 stamp);
int nidmap_auth_verify(struct nidmap_keyset *ks, const void *buf,
		       const struct nidmap_msg *msg, struct nidmap_auth *a);

#endif /* _NIDMAP_AUTH_H */
