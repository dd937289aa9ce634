// SPDX-License-Identifier: GPL-2.0
/*
 * The acceptor's connection request (wire spec 3.2, 3.4), parsed from the
 * bytes received so far.  A pure function of them, so that the acceptor
 * (acceptor.c) only reads its socket, and the fuzz target connreq runs
 * the very parse the kernel does.
 */
#include <linux/string.h>
#include <linux/swab.h>

#include <lnet/connreq.h>

static u32 lnet_connreq32(const u8 *p, bool flip)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return flip ? swab32(v) : v;
}

/**
 * lnet_connreq_parse() - check a connection request, as far as received
 * @buf: the bytes received, from the first
 * @len: how many: 4 at first, then what @need said
 * @need: out, for %LNET_CONNREQ_MORE: the bytes to have in all (at most
 *	%LNET_CONNREQ_MAX_SIZE) before calling again
 * @nid: out, for %LNET_CONNREQ_OK: the target NID, as the request gives
 *	it (the caller looks for an NI of exactly that NID)
 *
 * The magic may be in either byte order; a swapped one means every later
 * integer is swapped.  A version 1 request gives a nid4, which must leave
 * bits 63..56 clear (spec 1.3) or be ANY; version 2 a large NID of at
 * most 16 address bytes, or ANY.  Neither is cut to a NID it is not.
 *
 * Context: any; touches nothing but @need and @nid.
 * Return: the verdict.
 */
enum lnet_connreq_verdict lnet_connreq_parse(const void *buf, size_t len,
					     size_t *need,
					     struct lnet_nid *nid)
{
	const u8 *p = buf;
	u32 magic, version;
	u64 nid4;
	bool flip;

	if (len < 4) {
		*need = 4;
		return LNET_CONNREQ_MORE;
	}
	magic = lnet_connreq32(p, false);
	if (magic == LNET_PROTO_MAGIC || magic == swab32(LNET_PROTO_MAGIC))
		return LNET_CONNREQ_LNET_MAGIC;
	if (magic != LNET_PROTO_ACCEPTOR_MAGIC &&
	    magic != swab32(LNET_PROTO_ACCEPTOR_MAGIC))
		return LNET_CONNREQ_BAD_MAGIC;
	flip = magic != LNET_PROTO_ACCEPTOR_MAGIC;
	if (len < 8) {
		*need = 8;
		return LNET_CONNREQ_MORE;
	}
	version = lnet_connreq32(p + 4, flip);
	if (version == LNET_ACCEPTOR_VERSION) {
		if (len < 8 + sizeof(nid4)) {
			*need = 8 + sizeof(nid4);
			return LNET_CONNREQ_MORE;
		}
		memcpy(&nid4, p + 8, sizeof(nid4));
		if (flip)
			nid4 = swab64(nid4);
		if (nid4 >> 56 && nid4 != LNET_NID_ANY)
			return LNET_CONNREQ_BAD_NID;
		lnet_nid4_to_nid(nid4, nid);
		return LNET_CONNREQ_OK;
	}
	if (version != LNET_ACCEPTOR_VERSION_16)
		return LNET_CONNREQ_BAD_VERSION;
	if (len < 8 + sizeof(*nid)) {
		*need = 8 + sizeof(*nid);
		return LNET_CONNREQ_MORE;
	}
	memcpy(nid, p + 8, sizeof(*nid));
	if (!lnet_nid_is_any(nid) && lnet_nid_addr_len(nid) > 16)
		return LNET_CONNREQ_BAD_NID;
	return LNET_CONNREQ_OK;
}
