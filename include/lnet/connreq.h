/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The acceptor's connection request (wire spec 3.2, 3.4), parsed from the
 * bytes received so far by lnet/connreq.c; lnet/acceptor.c reads them.
 */
#ifndef _LNET_CONNREQ_H
#define _LNET_CONNREQ_H

#include <linux/types.h>

#include <lnet/nid.h>

#define LNET_PROTO_ACCEPTOR_MAGIC	0xacce7100U
#define LNET_PROTO_MAGIC		0x45726963U	/* "Eric" */
#define LNET_PROTO_TCP_MAGIC		0xeebc0dedU	/* pre-acceptor */
#define LNET_ACCEPTOR_VERSION		1		/* nid4 target */
#define LNET_ACCEPTOR_VERSION_16	2		/* large-NID target */
/* The longest request: magic, version, a large NID. */
#define LNET_CONNREQ_MAX_SIZE		(4 + 4 + 20)

/**
 * enum lnet_connreq_verdict - what the bytes of a request so far say
 * @LNET_CONNREQ_MORE: read on, up to the size lnet_connreq_parse() gives
 * @LNET_CONNREQ_OK: a whole request, for the NID it gives
 * @LNET_CONNREQ_LNET_MAGIC: a unified-protocol peer: told "old", closed
 * @LNET_CONNREQ_BAD_MAGIC: not an acceptor magic (pre-acceptor socklnd
 *	included): closed
 * @LNET_CONNREQ_BAD_VERSION: an unknown version: told "old", closed
 * @LNET_CONNREQ_BAD_NID: a nid4 with bits 63..56 set, or a large NID of
 *	more than 16 address bytes: no NID of ours, closed
 */
enum lnet_connreq_verdict {
	LNET_CONNREQ_MORE,
	LNET_CONNREQ_OK,
	LNET_CONNREQ_LNET_MAGIC,
	LNET_CONNREQ_BAD_MAGIC,
	LNET_CONNREQ_BAD_VERSION,
	LNET_CONNREQ_BAD_NID,
};

enum lnet_connreq_verdict lnet_connreq_parse(const void *buf, size_t len,
					     size_t *need,
					     struct lnet_nid *nid);

#endif /* _LNET_CONNREQ_H */
