// SPDX-License-Identifier: GPL-2.0
/*
 * nidmap's AUTH trailer and replay window (Documentation/nidmap.rst,
 * "Trust").  Pure functions of their arguments: no key, no clock, no
 * lock (keyset.c holds the keys and makes the MAC; the caller keeps a
 * struct nidmap_replay per sender under its own lock).
 *
 * The trailer (48 bytes, its integers big-endian: the trailer is bytes
 * and keeps no byte order of the sender's):
 *
 *	0	1	algorithm: 1, HMAC-SHA256
 *	1	1	MAC length: 32
 *	2	2	zero
 *	4	4	key id, never 0
 *	8	8	stamp: the sender's clock, ms since the Unix epoch
 *	16	32	MAC of every byte of the message before it
 */
#include <asm/unaligned.h>
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <kunit/visibility.h>

#include "auth.h"

/**
 * nidmap_auth_parse() - read a decoded message's AUTH trailer
 * @msg: a message nidmap_msg_decode() accepted
 * @a: its trailer's fields, on success
 *
 * Return: 0; -EKEYREJECTED if it has no AUTH trailer or one of an
 * algorithm we do not know (answered with the AUTH status); -EPROTO if
 * the trailer is malformed (a wrong length, nonzero reserved bytes, key
 * id 0).
 */
int nidmap_auth_parse(const struct nidmap_msg *msg, struct nidmap_auth *a)
{
	const u8 *t = msg->trailer;

	if (!(msg->hdr.flags & NIDMAP_F_AUTH) || !t)
		return -EKEYREJECTED;
	if (msg->hdr.trailer_len < NIDMAP_AUTH_HEAD_LEN ||
	    t[0] != NIDMAP_AUTH_HMAC_SHA256 || t[1] != NIDMAP_AUTH_MAC_LEN)
		return -EKEYREJECTED;
	if (msg->hdr.trailer_len != NIDMAP_AUTH_TRAILER_LEN || t[2] || t[3])
		return -EPROTO;
	a->key_id = get_unaligned_be32(t + 4);
	if (!a->key_id)
		return -EPROTO;
	a->stamp = get_unaligned_be64(t + 8);
	a->mac = t + NIDMAP_AUTH_HEAD_LEN;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_auth_parse);

/**
 * nidmap_auth_head() - write an AUTH trailer's fields before its MAC
 * @trailer: the trailer, NIDMAP_AUTH_TRAILER_LEN bytes
 * @key_id: the key the MAC will be made with
 * @stamp: the sender's clock, ms since the Unix epoch
 */
void nidmap_auth_head(u8 *trailer, u32 key_id, u64 stamp)
{
	trailer[0] = NIDMAP_AUTH_HMAC_SHA256;
	trailer[1] = NIDMAP_AUTH_MAC_LEN;
	trailer[2] = 0;
	trailer[3] = 0;
	put_unaligned_be32(key_id, trailer + 4);
	put_unaligned_be64(stamp, trailer + 8);
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_auth_head);

/**
 * nidmap_replay_check() - take a sender's message once, and only fresh
 * @r: what this receiver remembers of the sender (zeroed: nothing yet)
 * @incarnation: the message's incarnation (never 0: the decoder)
 * @seq: its seq within @incarnation (never 0)
 * @stamp: its AUTH stamp
 * @now: the receiver's clock, ms since the Unix epoch
 * @skew: how far apart the two clocks may be, ms
 *
 * Call it once the MAC is verified, so that only a key holder's messages
 * move @r.  A message is taken if its stamp is within @skew of @now and
 * it is new: in the incarnation @r follows, a seq not seen among the
 * NIDMAP_AUTH_WINDOW highest (messages may be reordered, not repeated);
 * of another incarnation, one stamped after every message taken from the
 * sender (a restart moves the clock on: a replay of an incarnation
 * before it cannot).
 *
 * Return: 0 and @r updated; -ESTALE if the stamp is outside the window
 * of clocks; -EALREADY if the message was taken before, is older than
 * the seq window, or is of an earlier incarnation (@r unchanged).
 */
int nidmap_replay_check(struct nidmap_replay *r, u64 incarnation, u64 seq,
			u64 stamp, u64 now, u64 skew)
{
	u64 d;

	/* Distances, not sums: a stamp off the wire may be near 2^64. */
	d = stamp > now ? stamp - now : now - stamp;
	if (d > skew)
		return -ESTALE;
	if (incarnation != r->incarnation) {
		if (r->incarnation && stamp <= r->stamp)
			return -EALREADY;
		r->incarnation = incarnation;
		r->top = seq;
		r->seen = 1;
		r->stamp = stamp;
		return 0;
	}
	if (seq > r->top) {
		d = seq - r->top;
		r->seen = d >= NIDMAP_AUTH_WINDOW ? 1 : r->seen << d | 1;
		r->top = seq;
	} else {
		d = r->top - seq;
		if (d >= NIDMAP_AUTH_WINDOW || r->seen & BIT_ULL(d))
			return -EALREADY;
		r->seen |= BIT_ULL(d);
	}
	if (stamp > r->stamp)
		r->stamp = stamp;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_replay_check);
