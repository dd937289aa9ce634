/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few kernel types and helpers that <lnet/nid.h> and lnet/nidparse.c
 * use, for their user-space build into lnetctl: the NID grammar is one
 * source compiled into both (Documentation/nids.rst).  Never included by
 * kernel code.
 */
#ifndef _LNET_USER_TYPES_H
#define _LNET_USER_TYPES_H

#ifdef __KERNEL__
#error "user space only"
#endif

#include <assert.h>
#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <linux/types.h>	/* __u8 ... __be32 */

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;

#define U32_MAX		UINT32_MAX
/*
 * struct lnet_nid has no padding (its static_assert checks the size), so
 * user space, which only parses into it, needs no packing.
 */
#define __packed
#define cpu_to_be16(x)	htobe16(x)
#define cpu_to_be32(x)	htobe32(x)
#define be16_to_cpu(x)	be16toh(x)
#define be32_to_cpu(x)	be32toh(x)
/* What lnet/nidparse.c exports from lnet.ko is plain C in user space. */
#define EXPORT_SYMBOL(sym)

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#endif /* _LNET_USER_TYPES_H */
