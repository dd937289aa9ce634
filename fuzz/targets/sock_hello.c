// SPDX-License-Identifier: GPL-2.0
/*
 * Target sock_hello: what a ksocklnd connection receives, as one byte
 * stream: the HELLO of any version (V1 to V4) with its address list,
 * then the messages that follow it (V2+: the 24-byte ksocklnd header,
 * NOOP or LNET; V1: bare LNet headers), each LNet header with its
 * payload.  The stream is read in the order lnd/sock/handshake.c's
 * ksock_hello_recv() and lnd/sock/rx.c read it, through the same pure
 * functions (lnd/sock/proto.c, lnet/hdr.c); each read takes exactly the
 * bytes it asks for, so ASan sees any read past them.
 *
 * Checks: a HELLO refused is refused for a documented reason; one
 * accepted has NIDs that are NIDs (spec 1.3: no nid4 cut to 56 bits, as
 * this target first found), at most 16 addresses, none 0; encoded again
 * (ksock_hello_encode()) it decodes to the same HELLO and, for a
 * sender of our byte order without addresses, gives the bytes received.
 */
#include "../../lnd/sock/socklnd.h"

#include "../fuzz.h"

struct stream {
	const u8	*data;
	size_t		left;
};

/* The next @len bytes, in a buffer of exactly that size; NULL at EOF. */
static u8 *stream_read(struct stream *s, size_t len)
{
	u8 *p;

	if (len > s->left)
		return NULL;
	p = fuzz_dup(s->data, len, false);
	s->data += len;
	s->left -= len;
	return p;
}

static void check_same_hello(const struct ksock_hello *a,
			     const struct ksock_hello *b)
{
	FUZZ_CHECK(a->version == b->version);
	FUZZ_CHECK(lnet_nid_equal(&a->src_nid, &b->src_nid));
	FUZZ_CHECK(lnet_nid_equal(&a->dst_nid, &b->dst_nid));
	FUZZ_CHECK(a->src_pid == b->src_pid && a->dst_pid == b->dst_pid);
	FUZZ_CHECK(a->src_incarnation == b->src_incarnation);
	FUZZ_CHECK(a->ctype == b->ctype);
	if (a->version != KSOCK_PROTO_V1)
		FUZZ_CHECK(a->dst_incarnation == b->dst_incarnation);
}

/* ksock_hello_encode() of @h decodes back, and is @wire if it can be. */
static void check_encode(const struct ksock_hello *h, const u8 *wire,
			 bool flip)
{
	size_t used[] = { 0, 44, 56, 56, 76 };
	struct ksock_hello h2;
	u8 buf[KSOCK_HELLO_MAX_SIZE];
	size_t size = ksock_hello_encode(h, buf);
	bool flip2;

	FUZZ_CHECK(size == ksock_hello_size(h->version));
	FUZZ_CHECK(ksock_hello_peek(buf, &flip2) == (int)h->version && !flip2);
	FUZZ_CHECK(ksock_hello_decode(&h2, buf, h->version, false) == 0);
	check_same_hello(h, &h2);
	if (!flip && !h->nips && !lnet_nid_is_any(&h->src_nid) &&
	    (h->version == KSOCK_PROTO_V1 || !lnet_nid_is_any(&h->dst_nid)))
		FUZZ_CHECK(!memcmp(buf, wire, used[h->version]));
}

/* The HELLO, as ksock_hello_recv() reads it; false if refused. */
static bool read_hello(struct stream *s, struct ksock_hello *h, bool *flip)
{
	u8 *peek, *fixed, *ips;
	int version, n;

	peek = stream_read(s, KSOCK_HELLO_PEEK_SIZE);
	if (!peek)
		return false;
	version = ksock_hello_peek(peek, flip);
	if (version < 0) {
		FUZZ_CHECK(version == -EPROTO || version == -EPROTONOSUPPORT);
		free(peek);
		return false;
	}
	FUZZ_CHECK(version >= KSOCK_PROTO_V1 && version <= KSOCK_PROTO_V4);
	fixed = malloc(ksock_hello_size(version));
	if (!fixed)
		abort();
	memcpy(fixed, peek, KSOCK_HELLO_PEEK_SIZE);
	free(peek);
	peek = stream_read(s, ksock_hello_size(version) -
			   KSOCK_HELLO_PEEK_SIZE);
	if (!peek) {
		free(fixed);
		return false;
	}
	memcpy(fixed + KSOCK_HELLO_PEEK_SIZE, peek,
	       ksock_hello_size(version) - KSOCK_HELLO_PEEK_SIZE);
	free(peek);
	n = ksock_hello_decode(h, fixed, version, *flip);
	if (n < 0) {
		FUZZ_CHECK(n == -E2BIG || n == -EPROTO || n == -EADDRNOTAVAIL);
		free(fixed);
		return false;
	}
	FUZZ_CHECK(n <= KSOCK_HELLO_NIPS_MAX && (u32)n == h->nips);
	if (n) {
		ips = stream_read(s, 4 * n);
		if (!ips || ksock_hello_decode_ips(h, ips, *flip)) {
			free(ips);
			free(fixed);
			return false;
		}
		for (version = 0; version < n; version++)
			FUZZ_CHECK(h->ips[version]);
		free(ips);
	}
	check_encode(h, fixed, *flip);
	free(fixed);
	return true;
}

/* One LNet header and its payload; false at the end or if refused. */
static bool read_lnet(struct stream *s, bool nid16)
{
	size_t size = nid16 ? LNET_HDR_NID16_SIZE : LNET_HDR_NID4_SIZE;
	u8 *wire = stream_read(s, size);
	struct lnet_hdr hdr;
	u32 plen;
	int rc;

	if (!wire)
		return false;
	plen = get_unaligned_le32(wire + (nid16 ? 52 : 28));
	if (plen > LNET_MTU) {
		free(wire);
		return false;
	}
	rc = nid16 ? lnet_hdr_from_nid16(&hdr, wire, NULL) :
		     lnet_hdr_from_nid4(&hdr, wire, NULL);
	free(wire);
	if (rc)
		return false;
	FUZZ_CHECK(hdr.payload_length == plen);
	if (plen > s->left)
		return false;
	s->data += plen;
	s->left -= plen;
	return true;
}

int fuzz_one_input(const u8 *data, size_t size)
{
	struct stream s = { data, size };
	struct ksock_hello h;
	bool flip;

	if (!read_hello(&s, &h, &flip))
		return 0;
	while (s.left) {
		u64 c0, c1;
		u32 type;
		u8 *mh;

		if (h.version == KSOCK_PROTO_V1) {
			if (!read_lnet(&s, false))
				break;
			continue;
		}
		mh = stream_read(&s, KSOCK_MSG_HDR_SIZE);
		if (!mh)
			break;
		ksock_msg_hdr_decode(mh, flip, &type, &c0, &c1);
		free(mh);
		if (type == KSOCK_MSG_NOOP)
			continue;
		if (type != KSOCK_MSG_LNET ||
		    !read_lnet(&s, h.version == KSOCK_PROTO_V4))
			break;
	}
	return 0;
}
