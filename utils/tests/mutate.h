/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mutate: the seeded mutations of the hostile peers' "mutate" attacks
 * (sock_hostile, o2ib_hostile): a valid session is built, then bytes of
 * it are damaged the way a broken or hostile peer damages them.  The
 * same seed gives the same sessions, so a failing run can be replayed.
 */
#ifndef MUTATE_H
#define MUTATE_H

#include <stddef.h>
#include <string.h>
#include <linux/types.h>

/* xorshift64: the same seed, the same sessions. */
static __u64 rnd_state;

static inline __u32 rnd(__u32 n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return n ? (__u32)(rnd_state % n) : 0;
}

/*
 * One mutation of @b[@from..*@len), in @b's @max bytes: a bit flipped, a
 * byte or a 32-bit field set to an edge value, the rest cut off, or a
 * piece repeated.
 */
static inline void mutate_once(__u8 *b, size_t *len, size_t from, size_t max)
{
	static const __u32 edge[] = { 0, 1, 0x7fffffff, 0x80000000,
				      0xffffffff, 0xc0, 0xc1, 4096, 1048577 };
	static const __u8 edge8[] = { 0, 0xff, 0x7f, 0x80 };
	size_t at, n;

	if (*len <= from)
		return;
	at = from + rnd(*len - from);
	switch (rnd(5)) {
	case 0:
		b[at] ^= 1 << rnd(8);
		break;
	case 1:
		b[at] = edge8[rnd(sizeof(edge8))];
		break;
	case 2:
		if (at + 4 <= *len) {
			__u32 v = edge[rnd(sizeof(edge) / sizeof(*edge))];

			memcpy(b + at, &v, sizeof(v));
		}
		break;
	case 3:
		*len = at;	/* cut short */
		break;
	default:	/* a piece repeated */
		n = rnd(64) + 1;
		if (at + n <= *len && *len + n <= max) {
			memmove(b + at + n, b + at, *len - at);
			*len += n;
		}
	}
}

#endif
