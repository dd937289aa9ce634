/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internals of lnet_selftest.ko (work in progress): the wire is in
 * wire.h, data patterns and the destination distribution in pattern.c.
 */
#ifndef _LNET_SELFTEST_INTERNAL_H
#define _LNET_SELFTEST_INTERNAL_H

#include <linux/sizes.h>
#include <linux/types.h>

/* BRW check modes (brw_flags, spec 5.4). */
#define LST_BRW_CHECK_NONE	1
#define LST_BRW_CHECK_SIMPLE	2
#define LST_BRW_CHECK_FULL	3
#define LST_BRW_CHECK_DISCARD	4

#define LST_BRW_READ		1
#define LST_BRW_WRITE		2
#define LST_BRW_MAX_LEN		SZ_1M

#define LST_BRW_MAGIC		0xeeb0eeb1eeb2eeb3ULL
#define LST_BRW_POISON		0xbeefbeefbeefbeefULL

void lst_brw_fill(void *frag, unsigned int len, unsigned int mode);
void lst_brw_poison(void *frag, unsigned int len, unsigned int mode);
int lst_brw_check(const void *frag, unsigned int len, unsigned int mode,
		  bool swapped);
int lst_dest_first(unsigned int i, unsigned int dist, unsigned int span,
		   unsigned int n);

#endif /* _LNET_SELFTEST_INTERNAL_H */
