/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small seeded generator for the KUnit suites' random runs: the same
 * seed gives the same sequence on every kernel, so a failure names a run
 * that can be replayed (xorshift64, Marsaglia 2003).
 */
#ifndef _KUNIT_XORSHIFT_H
#define _KUNIT_XORSHIFT_H

#include <linux/types.h>

struct rng {
	u64	s;	/* the state: never 0 */
};

/* The next number in [0, @n). */
static inline u32 rnd(struct rng *r, u32 n)
{
	r->s ^= r->s << 13;
	r->s ^= r->s >> 7;
	r->s ^= r->s << 17;
	return (u32)(r->s >> 32) % n;
}

#endif /* _KUNIT_XORSHIFT_H */
