// SPDX-License-Identifier: GPL-2.0
/*
 * nidmap's messages (Documentation/nidmap.rst, "Wire format"): encoded in
 * host byte order, decoded from either byte order (the magic tells), and
 * every byte of a received message checked before any of it is used.
 * The decoder reads nothing outside the buffer it is given, whatever the
 * counts and lengths inside say.  Compiled unchanged into the fuzz
 * harness (fuzz/targets/nidmap_msg.c).
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/string.h>
#include <linux/swab.h>
#include <kunit/visibility.h>

#include "nidmap.h"

/* Header field offsets. */
#define H_MAGIC		0
#define H_PROTO		4
#define H_TYPE		6
#define H_FLAGS		8
#define H_LENGTH	12
#define H_INCARNATION	16
#define H_SEQ		24
#define H_REPLY_TO	32
#define H_EPOCH		40
#define H_VERSION	48
#define H_BASE		56
#define H_COUNT		64
#define H_STATUS	68
#define H_TRAILER	70

/* Record field offsets. */
#define R_VERSION	0
#define R_FLAGS		8
#define R_NAME_LEN	10
#define R_NNIDS		11
#define R_NNETS		12
#define R_RESERVED	13

#define NIDMAP_ALIGN(x)	(((x) + 7) & ~(size_t)7)

static u16 rd16(const u8 *p, bool swab)
{
	u16 v;

	memcpy(&v, p, sizeof(v));
	return swab ? swab16(v) : v;
}

static u32 rd32(const u8 *p, bool swab)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return swab ? swab32(v) : v;
}

static u64 rd64(const u8 *p, bool swab)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return swab ? swab64(v) : v;
}

static void wr16(u8 *p, u16 v)
{
	memcpy(p, &v, sizeof(v));
}

static void wr32(u8 *p, u32 v)
{
	memcpy(p, &v, sizeof(v));
}

static void wr64(u8 *p, u64 v)
{
	memcpy(p, &v, sizeof(v));
}

static bool all_zero(const u8 *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

/* A name's characters: letters, digits and "-_.:@". */
static bool name_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' ||
	       c == ':' || c == '@';
}

/**
 * nidmap_name_check() - is @name a valid target name?
 * @name: bytes, NUL-terminated within @size
 * @size: bytes that may be read
 *
 * A name is 1 to NIDMAP_NAME_MAX - 1 characters of letters, digits and
 * "-_.:@", NUL-terminated.
 *
 * Return: its length (without the NUL), or -EPROTO.
 */
int nidmap_name_check(const char *name, size_t size)
{
	size_t i;

	for (i = 0; i < size && i < NIDMAP_NAME_MAX; i++) {
		if (!name[i])
			return i ? (int)i : -EPROTO;
		if (!name_char_ok(name[i]))
			return -EPROTO;
	}
	return -EPROTO;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_name_check);

/**
 * nidmap_nid_check() - may @nid stand in a table entry?
 * @nid: a large NID
 *
 * Not ANY, not on the loopback LND, an address of at most 16 bytes whose
 * unused words are zero.  Any other LND type is taken (a subscriber skips
 * NIDs on nets it does not have).
 *
 * Return: 0 or -EPROTO.
 */
int nidmap_nid_check(const struct lnet_nid *nid)
{
	unsigned int i, words;

	if (nid->nid_type == LNET_NID_TYPE_ANY || nid->nid_type == LNET_LND_LO ||
	    nid->nid_size > 12 || nid->nid_size % 4)
		return -EPROTO;
	words = nid->nid_size / 4 + 1;
	for (i = words; i < 4; i++)
		if (nid->nid_addr[i])
			return -EPROTO;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_nid_check);

/**
 * nidmap_rec_check() - is @rec a record that may be sent?
 * @rec: the record
 * @reg: in a REGISTER (version 0) rather than a FETCH_REPLY
 *
 * Return: 0, -E2BIG beyond a limit, or -EPROTO.
 */
int nidmap_rec_check(const struct nidmap_rec *rec, bool reg)
{
	unsigned int i, j;

	if (rec->flags & ~NIDMAP_R_KNOWN)
		return -EPROTO;
	if (rec->nnids > NIDMAP_NIDS_MAX || rec->nnets > NIDMAP_NETS_MAX)
		return -E2BIG;
	if (nidmap_name_check(rec->name, sizeof(rec->name)) < 0)
		return -EPROTO;
	if (reg ? rec->version != 0 : rec->version == 0)
		return -EPROTO;
	if (rec->flags & NIDMAP_R_DELETED) {
		if (rec->nnids || rec->nnets || rec->flags & NIDMAP_R_ROUTER)
			return -EPROTO;
		return 0;
	}
	if (!rec->nnids)
		return -EPROTO;
	for (i = 0; i < rec->nnids; i++) {
		if (nidmap_nid_check(&rec->nids[i]))
			return -EPROTO;
		for (j = 0; j < i; j++)
			if (lnet_nid_equal(&rec->nids[i], &rec->nids[j]))
				return -EPROTO;
	}
	for (i = 0; i < rec->nnets; i++) {
		if (rec->nets[i] >> 24 || lnet_net_type(rec->nets[i]) ==
		    LNET_LND_LO)
			return -EPROTO;
		for (j = 0; j < i; j++)
			if (rec->nets[i] == rec->nets[j])
				return -EPROTO;
	}
	if (rec->nnets && !(rec->flags & NIDMAP_R_ROUTER))
		return -EPROTO;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_rec_check);

static size_t rec_size(size_t name_len, unsigned int nnids,
		       unsigned int nnets)
{
	return NIDMAP_REC_HDR_SIZE + NIDMAP_ALIGN(name_len) +
	       NIDMAP_ALIGN(nnids * NIDMAP_NID_SIZE + nnets * 4);
}

/**
 * nidmap_rec_size() - bytes @rec takes on the wire
 * @rec: a record that passed nidmap_rec_check()
 *
 * Return: its size, a multiple of 8, at most NIDMAP_REC_MAX.
 */
size_t nidmap_rec_size(const struct nidmap_rec *rec)
{
	return rec_size(strnlen(rec->name, NIDMAP_NAME_MAX - 1) + 1,
			rec->nnids, rec->nnets);
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_rec_size);

/*
 * Decode the record at @p (@avail bytes) into @rec (may be NULL: check
 * only); its size into *@size.
 */
static int rec_decode(const u8 *p, size_t avail, bool swab,
		      struct nidmap_rec *rec, size_t *size)
{
	unsigned int name_len, nnids, nnets, i;
	struct nidmap_rec tmp;
	const u8 *q;
	size_t sz;

	if (!rec)
		rec = &tmp;
	if (avail < NIDMAP_REC_HDR_SIZE)
		return -EPROTO;
	name_len = p[R_NAME_LEN];
	nnids = p[R_NNIDS];
	nnets = p[R_NNETS];
	if (!all_zero(p + R_RESERVED, 3))
		return -EPROTO;
	if (nnids > NIDMAP_NIDS_MAX || nnets > NIDMAP_NETS_MAX)
		return -E2BIG;
	if (name_len < 2 || name_len > NIDMAP_NAME_MAX)
		return -EPROTO;
	sz = rec_size(name_len, nnids, nnets);
	if (sz > avail)
		return -EPROTO;

	memset(rec, 0, sizeof(*rec));
	rec->version = rd64(p + R_VERSION, swab);
	rec->flags = rd16(p + R_FLAGS, swab);
	rec->nnids = nnids;
	rec->nnets = nnets;
	q = p + NIDMAP_REC_HDR_SIZE;
	/* The NUL is the last name byte, and only the padding follows. */
	if (nidmap_name_check((const char *)q, name_len) != name_len - 1 ||
	    !all_zero(q + name_len, NIDMAP_ALIGN(name_len) - name_len))
		return -EPROTO;
	memcpy(rec->name, q, name_len);
	q += NIDMAP_ALIGN(name_len);
	for (i = 0; i < nnids; i++, q += NIDMAP_NID_SIZE)
		memcpy(&rec->nids[i], q, NIDMAP_NID_SIZE);
	for (i = 0; i < nnets; i++, q += 4)
		rec->nets[i] = rd32(q, swab);
	if (!all_zero(q, p + sz - q))
		return -EPROTO;
	*size = sz;
	return 0;
}

/* The body of a checked header: the records or NIDs, each checked. */
static int body_check(struct nidmap_msg *msg)
{
	const struct nidmap_hdr *h = &msg->hdr;
	size_t off = 0, sz;
	u64 last;
	u32 i;
	int rc;

	switch (h->type) {
	case NIDMAP_NOTICE:
		if (h->count > NIDMAP_RELAY_MAX)
			return -E2BIG;
		if (msg->body_len != NIDMAP_ALIGN(h->count * NIDMAP_NID_SIZE))
			return -EPROTO;
		for (i = 0; i < h->count; i++) {
			struct lnet_nid nid;

			memcpy(&nid, msg->body + i * NIDMAP_NID_SIZE,
			       sizeof(nid));
			if (nidmap_nid_check(&nid))
				return -EPROTO;
		}
		off = h->count * NIDMAP_NID_SIZE;
		return all_zero(msg->body + off, msg->body_len - off) ?
			0 : -EPROTO;
	case NIDMAP_FETCH:
		if (h->count)
			return -EPROTO;
		if (msg->body_len != NIDMAP_FETCH_BODY)
			return -EPROTO;
		msg->room = rd32(msg->body, h->swabbed);
		if (msg->room < NIDMAP_ROOM_MIN || msg->room > NIDMAP_MSG_MAX ||
		    !all_zero(msg->body + 4, 4))
			return -EPROTO;
		return 0;
	case NIDMAP_SUBSCRIBE:
	case NIDMAP_STATUS:
		return h->count || msg->body_len ? -EPROTO : 0;
	case NIDMAP_REGISTER:
		if (h->count > NIDMAP_REGISTER_MAX)
			return -E2BIG;
		if (!h->count)
			return -EPROTO;		/* registers nothing */
		break;
	case NIDMAP_FETCH_REPLY:
		break;
	}

	/* Records: at least NIDMAP_REC_MIN bytes each. */
	if (h->count > msg->body_len / NIDMAP_REC_MIN)
		return -E2BIG;
	/* A full resync's records start at 0 (base is the horizon). */
	last = h->flags & NIDMAP_F_FULL ? 0 : h->base;
	for (i = 0; i < h->count; i++) {
		struct nidmap_rec rec;

		rc = rec_decode(msg->body + off, msg->body_len - off,
				h->swabbed, &rec, &sz);
		if (rc)
			return rc;
		rc = nidmap_rec_check(&rec, h->type == NIDMAP_REGISTER);
		if (rc)
			return rc;
		/* A reply's records: in (base, version], in version order. */
		if (h->type == NIDMAP_FETCH_REPLY) {
			if (rec.version <= last || rec.version > h->version)
				return -EPROTO;
			last = rec.version;
		}
		off += sz;
	}
	return off == msg->body_len ? 0 : -EPROTO;
}

/**
 * nidmap_msg_decode() - check and decode a received message
 * @buf: the bytes received
 * @len: how many (LNet's mlength)
 * @msg: filled in on success; its body points into @buf
 *
 * Every field is checked: the magic (in either byte order), the protocol
 * version, the length against @len and the limits, the flags against the
 * type, the body's layout byte for byte (names NUL-terminated, padding and
 * reserved bytes zero, counts within limits and within the bytes there
 * are, NIDs valid and distinct, a reply's records in version order).
 * Nothing outside @buf[0..@len) is read.  On -EOPNOTSUPP (an unknown
 * type) and -EPROTONOSUPPORT (another protocol version), @msg->hdr holds
 * what of the header could be read, so that a STATUS can answer it.
 *
 * Return: 0; -EMSGSIZE truncated, longer than said, or beyond
 * NIDMAP_MSG_MAX; -EBADMSG bad magic; -EPROTONOSUPPORT another protocol
 * version; -EOPNOTSUPP unknown type; -E2BIG a count beyond its limit;
 * -EPROTO anything else malformed.
 */
int nidmap_msg_decode(const void *buf, size_t len, struct nidmap_msg *msg)
{
	struct nidmap_hdr *h = &msg->hdr;
	const u8 *p = buf;
	bool swab;
	u32 magic;
	u16 proto;
	int rc;

	memset(msg, 0, sizeof(*msg));
	if (len < 4)
		return -EMSGSIZE;
	memcpy(&magic, p, sizeof(magic));
	if (magic == NIDMAP_MAGIC)
		swab = false;
	else if (magic == swab32(NIDMAP_MAGIC))
		swab = true;
	else
		return -EBADMSG;
	if (len < NIDMAP_HDR_SIZE)
		return -EMSGSIZE;

	h->swabbed = swab;
	proto = rd16(p + H_PROTO, swab);
	h->type = rd16(p + H_TYPE, swab);
	h->flags = rd32(p + H_FLAGS, swab);
	h->length = rd32(p + H_LENGTH, swab);
	h->incarnation = rd64(p + H_INCARNATION, swab);
	h->seq = rd64(p + H_SEQ, swab);
	h->reply_to = rd64(p + H_REPLY_TO, swab);
	h->epoch = rd64(p + H_EPOCH, swab);
	h->version = rd64(p + H_VERSION, swab);
	h->base = rd64(p + H_BASE, swab);
	h->count = rd32(p + H_COUNT, swab);
	h->status = rd16(p + H_STATUS, swab);
	h->trailer_len = rd16(p + H_TRAILER, swab);
	if (proto != NIDMAP_PROTO)
		return -EPROTONOSUPPORT;

	if (h->length != len || len > NIDMAP_MSG_MAX)
		return -EMSGSIZE;
	if (len % 8)
		return -EPROTO;
	if (h->type < NIDMAP_NOTICE || h->type > NIDMAP_TYPE_MAX)
		return -EOPNOTSUPP;

	/* Flags: the known ones, each only where it means something. */
	if (h->flags & NIDMAP_F_MUST & ~NIDMAP_F_KNOWN)
		return -EPROTO;
	if (h->flags & NIDMAP_F_MORE && h->type != NIDMAP_FETCH_REPLY)
		return -EPROTO;
	if (h->flags & NIDMAP_F_FULL && h->type != NIDMAP_FETCH_REPLY &&
	    h->type != NIDMAP_FETCH)
		return -EPROTO;
	if (h->flags & NIDMAP_F_UNSUB && h->type != NIDMAP_SUBSCRIBE)
		return -EPROTO;
	/* base: a FETCH's resync horizon, only in a resync. */
	if (h->type == NIDMAP_FETCH && !(h->flags & NIDMAP_F_FULL) && h->base)
		return -EPROTO;
	/* A reply's base: its records' lower bound, or a resync's horizon. */
	if (h->type == NIDMAP_FETCH_REPLY && !(h->flags & NIDMAP_F_FULL) &&
	    h->base > h->version)
		return -EPROTO;

	/* The trailer: only with AUTH, 8 to NIDMAP_TRAILER_MAX bytes. */
	if (!!(h->flags & NIDMAP_F_AUTH) != !!h->trailer_len ||
	    h->trailer_len % 8 || h->trailer_len > NIDMAP_TRAILER_MAX ||
	    h->trailer_len > len - NIDMAP_HDR_SIZE)
		return -EPROTO;
	if (h->status && h->type != NIDMAP_STATUS)
		return -EPROTO;
	if (!h->reply_to != (h->type != NIDMAP_FETCH_REPLY &&
			     h->type != NIDMAP_STATUS))
		return -EPROTO;
	if (!h->incarnation || !h->seq)
		return -EPROTO;

	msg->body = p + NIDMAP_HDR_SIZE;
	msg->body_len = len - NIDMAP_HDR_SIZE - h->trailer_len;
	msg->trailer = h->trailer_len ? p + len - h->trailer_len : NULL;
	rc = body_check(msg);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_msg_decode);

/**
 * nidmap_iter_init() - start a walk over a decoded message's body
 * @it: the walk
 * @msg: a message nidmap_msg_decode() accepted
 */
void nidmap_iter_init(struct nidmap_iter *it, const struct nidmap_msg *msg)
{
	it->msg = msg;
	it->off = 0;
	it->index = 0;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_iter_init);

/**
 * nidmap_iter_rec() - the next record of a FETCH_REPLY or REGISTER
 * @it: the walk
 * @rec: the record, in host byte order
 *
 * Return: false after the last record.
 */
bool nidmap_iter_rec(struct nidmap_iter *it, struct nidmap_rec *rec)
{
	const struct nidmap_msg *msg = it->msg;
	size_t sz;

	if (msg->hdr.type != NIDMAP_FETCH_REPLY &&
	    msg->hdr.type != NIDMAP_REGISTER)
		return false;
	if (it->index >= msg->hdr.count)
		return false;
	if (rec_decode(msg->body + it->off, msg->body_len - it->off,
		       msg->hdr.swabbed, rec, &sz))
		return false;	/* not after nidmap_msg_decode() */
	it->off += sz;
	it->index++;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_iter_rec);

/**
 * nidmap_iter_nid() - the next NID of a NOTICE's relay list
 * @it: the walk
 * @nid: the NID
 *
 * Return: false after the last NID.
 */
bool nidmap_iter_nid(struct nidmap_iter *it, struct lnet_nid *nid)
{
	const struct nidmap_msg *msg = it->msg;

	if (msg->hdr.type != NIDMAP_NOTICE || it->index >= msg->hdr.count)
		return false;
	memcpy(nid, msg->body + it->off, sizeof(*nid));
	it->off += NIDMAP_NID_SIZE;
	it->index++;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_iter_nid);

/**
 * nidmap_enc_init() - start a message in @buf
 * @enc: the encoder
 * @buf: where, 8-byte aligned not required
 * @size: its size
 * @hdr: the header; length and count are set by the encoder
 *
 * Return: 0, or -ENOSPC if @size cannot hold a header and a trailer,
 * -EINVAL for a type or flags the encoder does not make.
 */
int nidmap_enc_init(struct nidmap_enc *enc, void *buf, size_t size,
		    const struct nidmap_hdr *hdr)
{
	if (size < NIDMAP_HDR_SIZE || size > NIDMAP_MSG_MAX)
		return -ENOSPC;
	if (hdr->type < NIDMAP_NOTICE || hdr->type > NIDMAP_TYPE_MAX ||
	    hdr->flags & NIDMAP_F_MUST & ~NIDMAP_F_KNOWN)
		return -EINVAL;
	enc->buf = buf;
	enc->size = size;
	enc->len = NIDMAP_HDR_SIZE;
	enc->hdr = *hdr;
	enc->hdr.count = 0;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_enc_init);

/**
 * nidmap_enc_rec() - append a record to a FETCH_REPLY or REGISTER
 * @enc: the encoder
 * @rec: the record
 *
 * Return: 0; -ENOSPC if it does not fit (nothing written: the page is
 * full); -E2BIG or -EPROTO if @rec is not a valid record
 * (nidmap_rec_check()); -EINVAL in another message type.
 */
int nidmap_enc_rec(struct nidmap_enc *enc, const struct nidmap_rec *rec)
{
	size_t name_len, sz;
	unsigned int i;
	u8 *p, *q;
	int rc;

	if (enc->hdr.type != NIDMAP_FETCH_REPLY &&
	    enc->hdr.type != NIDMAP_REGISTER)
		return -EINVAL;
	rc = nidmap_rec_check(rec, enc->hdr.type == NIDMAP_REGISTER);
	if (rc)
		return rc;
	if (enc->hdr.count >= (enc->hdr.type == NIDMAP_REGISTER ?
			       NIDMAP_REGISTER_MAX : U32_MAX))
		return -E2BIG;
	sz = nidmap_rec_size(rec);
	if (enc->len + sz > enc->size)
		return -ENOSPC;
	name_len = strlen(rec->name) + 1;
	p = enc->buf + enc->len;
	memset(p, 0, sz);
	wr64(p + R_VERSION, rec->version);
	wr16(p + R_FLAGS, rec->flags);
	p[R_NAME_LEN] = name_len;
	p[R_NNIDS] = rec->nnids;
	p[R_NNETS] = rec->nnets;
	q = p + NIDMAP_REC_HDR_SIZE;
	memcpy(q, rec->name, name_len);
	q += NIDMAP_ALIGN(name_len);
	for (i = 0; i < rec->nnids; i++, q += NIDMAP_NID_SIZE)
		memcpy(q, &rec->nids[i], NIDMAP_NID_SIZE);
	for (i = 0; i < rec->nnets; i++, q += 4)
		wr32(q, rec->nets[i]);
	enc->len += sz;
	enc->hdr.count++;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_enc_rec);

/**
 * nidmap_enc_nid() - append a NID to a NOTICE's relay list
 * @enc: the encoder
 * @nid: a NID that passes nidmap_nid_check()
 *
 * Return: 0, -ENOSPC, -E2BIG past NIDMAP_RELAY_MAX, -EPROTO a bad NID,
 * -EINVAL in another message type.
 */
int nidmap_enc_nid(struct nidmap_enc *enc, const struct lnet_nid *nid)
{
	size_t off;

	if (enc->hdr.type != NIDMAP_NOTICE)
		return -EINVAL;
	if (nidmap_nid_check(nid))
		return -EPROTO;
	if (enc->hdr.count >= NIDMAP_RELAY_MAX)
		return -E2BIG;
	off = NIDMAP_HDR_SIZE + enc->hdr.count * NIDMAP_NID_SIZE;
	if (NIDMAP_ALIGN(off + NIDMAP_NID_SIZE) > enc->size)
		return -ENOSPC;
	memcpy(enc->buf + off, nid, NIDMAP_NID_SIZE);
	enc->hdr.count++;
	enc->len = NIDMAP_ALIGN(off + NIDMAP_NID_SIZE);
	/* The padding after the last NID. */
	memset(enc->buf + off + NIDMAP_NID_SIZE, 0,
	       enc->len - off - NIDMAP_NID_SIZE);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_enc_nid);

/**
 * nidmap_enc_fetch() - the body of a FETCH
 * @enc: the encoder
 * @room: the bytes of the reply buffer the requester posted
 *
 * Return: 0, -EINVAL (another type, or @room outside NIDMAP_ROOM_MIN ..
 * NIDMAP_MSG_MAX), -ENOSPC.
 */
int nidmap_enc_fetch(struct nidmap_enc *enc, u32 room)
{
	u8 *p;

	if (enc->hdr.type != NIDMAP_FETCH || enc->len != NIDMAP_HDR_SIZE ||
	    room < NIDMAP_ROOM_MIN || room > NIDMAP_MSG_MAX)
		return -EINVAL;
	if (enc->len + NIDMAP_FETCH_BODY > enc->size)
		return -ENOSPC;
	p = enc->buf + enc->len;
	wr32(p, room);
	wr32(p + 4, 0);
	enc->len += NIDMAP_FETCH_BODY;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_enc_fetch);

/**
 * nidmap_enc_finish() - write the header, leave room for a trailer
 * @enc: the encoder
 * @trailer_len: bytes of trailer the caller writes after the body (0, or
 *	with NIDMAP_F_AUTH a multiple of 8 up to NIDMAP_TRAILER_MAX); they
 *	are zeroed here
 *
 * Return: the message's length, or -ENOSPC, -EINVAL.
 */
int nidmap_enc_finish(struct nidmap_enc *enc, u16 trailer_len)
{
	const struct nidmap_hdr *h = &enc->hdr;
	u8 *p = enc->buf;
	size_t len;

	if (!!(h->flags & NIDMAP_F_AUTH) != !!trailer_len ||
	    trailer_len % 8 || trailer_len > NIDMAP_TRAILER_MAX)
		return -EINVAL;
	if (h->type == NIDMAP_FETCH && enc->len == NIDMAP_HDR_SIZE)
		return -EINVAL;		/* no nidmap_enc_fetch() */
	len = enc->len + trailer_len;
	if (len > enc->size)
		return -ENOSPC;
	memset(p + enc->len, 0, trailer_len);
	wr32(p + H_MAGIC, NIDMAP_MAGIC);
	wr16(p + H_PROTO, NIDMAP_PROTO);
	wr16(p + H_TYPE, h->type);
	wr32(p + H_FLAGS, h->flags);
	wr32(p + H_LENGTH, len);
	wr64(p + H_INCARNATION, h->incarnation);
	wr64(p + H_SEQ, h->seq);
	wr64(p + H_REPLY_TO, h->reply_to);
	wr64(p + H_EPOCH, h->epoch);
	wr64(p + H_VERSION, h->version);
	wr64(p + H_BASE, h->base);
	wr32(p + H_COUNT, h->count);
	wr16(p + H_STATUS, h->status);
	wr16(p + H_TRAILER, trailer_len);
	enc->len = len;
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_enc_finish);

static void swab_at(u8 *p, unsigned int size)
{
	unsigned int i;
	u8 c;

	for (i = 0; i < size / 2; i++) {
		c = p[i];
		p[i] = p[size - 1 - i];
		p[size - 1 - i] = c;
	}
}

/**
 * nidmap_msg_swab() - turn a valid message into the other byte order
 * @buf: the message
 * @len: its length
 *
 * What a sender of the other byte order sends: every integer field of
 * the header, the records and the FETCH body swapped; NIDs, names and the
 * trailer kept (they have no byte order).  For tests and simulations.
 *
 * Return: 0, or what nidmap_msg_decode() found wrong (nothing changed).
 */
int nidmap_msg_swab(void *buf, size_t len)
{
	static const u8 hdr_fields[] = { 4, 2, 2, 4, 4, 8, 8, 8, 8, 8, 8,
					 4, 2, 2 };
	struct nidmap_msg msg;
	struct nidmap_iter it;
	struct nidmap_rec rec;
	unsigned int i, n;
	u8 *p = buf;
	size_t off;
	int rc;

	rc = nidmap_msg_decode(buf, len, &msg);
	if (rc)
		return rc;
	for (i = 0, off = 0; i < ARRAY_SIZE(hdr_fields); i++) {
		swab_at(p + off, hdr_fields[i]);
		off += hdr_fields[i];
	}
	p += NIDMAP_HDR_SIZE;
	if (msg.hdr.type == NIDMAP_FETCH) {
		swab_at(p, 4);
		return 0;
	}
	nidmap_iter_init(&it, &msg);
	while (nidmap_iter_rec(&it, &rec)) {
		swab_at(p + R_VERSION, 8);
		swab_at(p + R_FLAGS, 2);
		n = NIDMAP_REC_HDR_SIZE +
		    NIDMAP_ALIGN(strlen(rec.name) + 1) +
		    rec.nnids * NIDMAP_NID_SIZE;
		for (i = 0; i < rec.nnets; i++)
			swab_at(p + n + i * 4, 4);
		p += nidmap_rec_size(&rec);
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_msg_swab);

/**
 * nidmap_errno_to_status() - the STATUS code that answers an error
 * @rc: 0 or a negative errno from the decoder or the table
 *
 * Return: the status a STATUS reply carries for it.
 */
enum nidmap_status nidmap_errno_to_status(int rc)
{
	switch (rc) {
	case 0:
		return NIDMAP_ST_OK;
	case -EPROTONOSUPPORT:
		return NIDMAP_ST_VERSION;
	case -E2BIG:
	case -EMSGSIZE:
		return NIDMAP_ST_TOOBIG;
	case -EPERM:
		return NIDMAP_ST_PERM;
	case -EKEYREJECTED:
		return NIDMAP_ST_AUTH;
	case -ESTALE:
		return NIDMAP_ST_STALE;
	case -EBUSY:
		return NIDMAP_ST_BUSY;
	case -ENOSPC:
		return NIDMAP_ST_NOSPC;
	case -ENOENT:
		return NIDMAP_ST_NOENT;
	case -EOPNOTSUPP:
		return NIDMAP_ST_NOTSUPP;
	default:
		return NIDMAP_ST_PROTO;
	}
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_errno_to_status);

/**
 * nidmap_dns_parse() - a target's record from the resolver's answer
 * @list: "<nid>,<nid>,..." (commas or spaces between NIDs), not
 *	NUL-terminated
 * @len: its length
 * @name: the target
 * @rec: filled: @name, version 0, the NIDs in order
 *
 * The DNS backend's record (dns.c), as lnet-nid-resolver(8) passes it
 * on from a TXT record.  Each NID must be one a table entry may hold (nidmap_nid_check()); a
 * NID listed twice counts once; at most NIDMAP_NIDS_MAX.
 *
 * Return: 0; -EPROTO a malformed list, none, or too many.
 */
int nidmap_dns_parse(const char *list, size_t len, const char *name,
		     struct nidmap_rec *rec)
{
	char tok[LNET_NIDSTR_SIZE];
	size_t i = 0, n;
	unsigned int k;

	memset(rec, 0, sizeof(*rec));
	if (strscpy(rec->name, name, sizeof(rec->name)) < 0)
		return -EPROTO;
	while (i < len) {
		if (list[i] == ',' || list[i] == ' ') {
			i++;
			continue;
		}
		for (n = 0; i + n < len && list[i + n] != ',' &&
		     list[i + n] != ' '; n++)
			;
		if (n >= sizeof(tok) || memchr(list + i, '\0', n))
			return -EPROTO;
		memcpy(tok, list + i, n);
		tok[n] = '\0';
		i += n;
		if (rec->nnids == NIDMAP_NIDS_MAX)
			return -EPROTO;
		if (lnet_nid_from_str(tok, &rec->nids[rec->nnids]) ||
		    nidmap_nid_check(&rec->nids[rec->nnids]))
			return -EPROTO;
		for (k = 0; k < rec->nnids; k++)
			if (lnet_nid_equal(&rec->nids[k],
					   &rec->nids[rec->nnids]))
				break;
		if (k == rec->nnids)
			rec->nnids++;
	}
	return rec->nnids ? 0 : -EPROTO;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_dns_parse);
