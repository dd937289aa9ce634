// SPDX-License-Identifier: GPL-2.0
/*
 * LNet message header codec (spec section 2): struct lnet_hdr to and from
 * the 72-byte nid4 and 96-byte nid16 wire headers, with the receive-side
 * checks every header must pass before the message engine looks at it.
 *
 * Every wire field is little-endian.  Large NIDs are copied byte for byte.
 * A decoder reads all of the header, checks it and only then writes to the
 * caller's struct lnet_hdr, so a rejected header changes nothing.
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/string.h>
#include <asm/byteorder.h>

#include <lnet/hdr.h>

/* Bytes 0..7 of a socklnd V1 HELLO, read as a little-endian u64. */
#define LNET_HDR_HELLO_V1_DEST	((u64)LNET_HDR_HELLO_MINOR << 48 |	\
				 (u64)LNET_HDR_HELLO_MAJOR << 32 |	\
				 LNET_HDR_HELLO_MAGIC)

/* Largest nid_size: a 16-byte address. */
#define LNET_NID_SIZE_MAX	12

static const char * const lnet_hdr_drop_names[LNET_HDR_DROP_COUNT] = {
	[LNET_HDR_DROP_NONE]			= "none",
	[LNET_HDR_DROP_BAD_TYPE]		= "bad_type",
	[LNET_HDR_DROP_HELLO]			= "hello",
	[LNET_HDR_DROP_HELLO_VERSION]		= "hello_version",
	[LNET_HDR_DROP_NOT_HELLO]		= "not_hello",
	[LNET_HDR_DROP_BAD_NID]			= "bad_nid",
	[LNET_HDR_DROP_DEST_ANY]		= "dest_any",
	[LNET_HDR_DROP_SRC_ANY]			= "src_any",
	[LNET_HDR_DROP_PAYLOAD_TOO_LONG]	= "payload_too_long",
	[LNET_HDR_DROP_PAYLOAD_NOT_EMPTY]	= "payload_not_empty",
	[LNET_HDR_DROP_BAD_PORTAL]		= "bad_portal",
};

/**
 * lnet_hdr_drop_reason_str() - name of a drop reason
 * @why: reason
 *
 * The names are short lower-case identifiers ("bad_type", "src_any", ...)
 * suitable as counter names.
 *
 * Return: the name, or "unknown" if @why is out of range.
 */
const char *lnet_hdr_drop_reason_str(enum lnet_hdr_drop_reason why)
{
	if ((unsigned int)why >= LNET_HDR_DROP_COUNT)
		return "unknown";
	return lnet_hdr_drop_names[why];
}
EXPORT_SYMBOL(lnet_hdr_drop_reason_str);

static void lnet_wmd_encode(struct lnet_handle_wire_le *w,
			    const struct lnet_handle_wire *wh)
{
	w->wh_interface_cookie = cpu_to_le64(wh->wh_interface_cookie);
	w->wh_object_cookie = cpu_to_le64(wh->wh_object_cookie);
}

static void lnet_wmd_decode(struct lnet_handle_wire *wh,
			    const struct lnet_handle_wire_le *w)
{
	wh->wh_interface_cookie = le64_to_cpu(w->wh_interface_cookie);
	wh->wh_object_cookie = le64_to_cpu(w->wh_object_cookie);
}

/* Encode the per-type fields; every byte outside the active member is 0. */
static void lnet_hdr_msg_encode(union lnet_hdr_msg_wire *w,
				const struct lnet_hdr *hdr)
{
	memset(w, 0, sizeof(*w));

	switch (hdr->type) {
	case LNET_MSG_ACK:
		lnet_wmd_encode(&w->ack.dst_wmd, &hdr->msg.ack.dst_wmd);
		w->ack.match_bits = cpu_to_le64(hdr->msg.ack.match_bits);
		w->ack.mlength = cpu_to_le32(hdr->msg.ack.mlength);
		break;
	case LNET_MSG_PUT:
		lnet_wmd_encode(&w->put.ack_wmd, &hdr->msg.put.ack_wmd);
		w->put.match_bits = cpu_to_le64(hdr->msg.put.match_bits);
		w->put.hdr_data = cpu_to_le64(hdr->msg.put.hdr_data);
		w->put.ptl_index = cpu_to_le32(hdr->msg.put.ptl_index);
		w->put.offset = cpu_to_le32(hdr->msg.put.offset);
		break;
	case LNET_MSG_GET:
		lnet_wmd_encode(&w->get.return_wmd, &hdr->msg.get.return_wmd);
		w->get.match_bits = cpu_to_le64(hdr->msg.get.match_bits);
		w->get.ptl_index = cpu_to_le32(hdr->msg.get.ptl_index);
		w->get.src_offset = cpu_to_le32(hdr->msg.get.src_offset);
		w->get.sink_length = cpu_to_le32(hdr->msg.get.sink_length);
		break;
	case LNET_MSG_REPLY:
		lnet_wmd_encode(&w->reply.dst_wmd, &hdr->msg.reply.dst_wmd);
		break;
	case LNET_MSG_HELLO:
		w->hello.incarnation = cpu_to_le64(hdr->msg.hello.incarnation);
		w->hello.type = cpu_to_le32(hdr->msg.hello.type);
		break;
	}
}

/* Decode the fields that follow the NIDs; @hdr must be zeroed. */
static void lnet_hdr_rest_decode(struct lnet_hdr *hdr, __le32 dest_pid,
				 __le32 src_pid, u32 type, __le32 payload_length,
				 const union lnet_hdr_msg_wire *w)
{
	hdr->dest_pid = le32_to_cpu(dest_pid);
	hdr->src_pid = le32_to_cpu(src_pid);
	hdr->type = type;
	hdr->payload_length = le32_to_cpu(payload_length);

	switch (type) {
	case LNET_MSG_ACK:
		lnet_wmd_decode(&hdr->msg.ack.dst_wmd, &w->ack.dst_wmd);
		hdr->msg.ack.match_bits = le64_to_cpu(w->ack.match_bits);
		hdr->msg.ack.mlength = le32_to_cpu(w->ack.mlength);
		break;
	case LNET_MSG_PUT:
		lnet_wmd_decode(&hdr->msg.put.ack_wmd, &w->put.ack_wmd);
		hdr->msg.put.match_bits = le64_to_cpu(w->put.match_bits);
		hdr->msg.put.hdr_data = le64_to_cpu(w->put.hdr_data);
		hdr->msg.put.ptl_index = le32_to_cpu(w->put.ptl_index);
		hdr->msg.put.offset = le32_to_cpu(w->put.offset);
		break;
	case LNET_MSG_GET:
		lnet_wmd_decode(&hdr->msg.get.return_wmd, &w->get.return_wmd);
		hdr->msg.get.match_bits = le64_to_cpu(w->get.match_bits);
		hdr->msg.get.ptl_index = le32_to_cpu(w->get.ptl_index);
		hdr->msg.get.src_offset = le32_to_cpu(w->get.src_offset);
		hdr->msg.get.sink_length = le32_to_cpu(w->get.sink_length);
		break;
	case LNET_MSG_REPLY:
		lnet_wmd_decode(&hdr->msg.reply.dst_wmd, &w->reply.dst_wmd);
		break;
	case LNET_MSG_HELLO:
		hdr->msg.hello.incarnation = le64_to_cpu(w->hello.incarnation);
		hdr->msg.hello.type = le32_to_cpu(w->hello.type);
		break;
	}
}

/* A data message's type: ACK, PUT, GET or REPLY. */
static enum lnet_hdr_drop_reason lnet_hdr_check_type(u32 type)
{
	switch (type) {
	case LNET_MSG_ACK:
	case LNET_MSG_PUT:
	case LNET_MSG_GET:
	case LNET_MSG_REPLY:
		return LNET_HDR_DROP_NONE;
	case LNET_MSG_HELLO:
		return LNET_HDR_DROP_HELLO;
	default:
		return LNET_HDR_DROP_BAD_TYPE;
	}
}

/* A nid4 must leave bits 63..56 clear, unless it is LNET_NID_ANY. */
static bool lnet_nid4_valid(u64 nid4)
{
	return nid4 == LNET_NID_ANY || !(nid4 >> 56);
}

/* A large NID's address is at most 16 bytes, unless it is ANY. */
static bool lnet_nid16_valid(const struct lnet_nid *nid)
{
	return lnet_nid_is_any(nid) || nid->nid_size <= LNET_NID_SIZE_MAX;
}

/* The checks after type and NID format, on a decoded data header. */
static enum lnet_hdr_drop_reason lnet_hdr_check(const struct lnet_hdr *hdr)
{
	if (lnet_nid_is_any(&hdr->dest_nid))
		return LNET_HDR_DROP_DEST_ANY;
	if (lnet_nid_is_any(&hdr->src_nid))
		return LNET_HDR_DROP_SRC_ANY;

	switch (hdr->type) {
	case LNET_MSG_PUT:
	case LNET_MSG_REPLY:
		if (hdr->payload_length > LNET_MTU)
			return LNET_HDR_DROP_PAYLOAD_TOO_LONG;
		break;
	default:
		if (hdr->payload_length)
			return LNET_HDR_DROP_PAYLOAD_NOT_EMPTY;
		break;
	}

	if (hdr->type == LNET_MSG_PUT &&
	    hdr->msg.put.ptl_index >= LNET_MAX_PORTALS)
		return LNET_HDR_DROP_BAD_PORTAL;
	if (hdr->type == LNET_MSG_GET &&
	    hdr->msg.get.ptl_index >= LNET_MAX_PORTALS)
		return LNET_HDR_DROP_BAD_PORTAL;
	return LNET_HDR_DROP_NONE;
}

/* Report @why; copy the decoded header out only if it passed. */
static int lnet_hdr_decoded(struct lnet_hdr *hdr, const struct lnet_hdr *tmp,
			    enum lnet_hdr_drop_reason why,
			    enum lnet_hdr_drop_reason *whyp)
{
	if (whyp)
		*whyp = why;
	if (why != LNET_HDR_DROP_NONE)
		return -EPROTO;
	memcpy(hdr, tmp, sizeof(*hdr));
	return 0;
}

/**
 * lnet_hdr_to_nid4() - encode a header into the 72-byte nid4 wire form
 * @hdr: header to encode
 * @buf: %LNET_HDR_NID4_SIZE bytes, any alignment
 *
 * Used by socklnd V1-V3 and o2iblnd.  Bytes that no field of @hdr->type
 * uses are written as zero.  Only the member of @hdr->msg that @hdr->type
 * selects is read.  The header is encoded as is, not checked; a HELLO is
 * encoded like any other type (see lnet_hdr_hello_to_nid4() for the form
 * socklnd V1 sends).
 *
 * Context: Any context.
 * Return: 0, or -EINVAL if a NID has a 16-byte address and so cannot be
 * written as a nid4; @buf is then left untouched.
 */
int lnet_hdr_to_nid4(const struct lnet_hdr *hdr, void *buf)
{
	struct lnet_hdr_nid4 *w = buf;

	if (!lnet_nid_is_nid4(&hdr->dest_nid) ||
	    !lnet_nid_is_nid4(&hdr->src_nid))
		return -EINVAL;

	w->dest_nid = cpu_to_le64(lnet_nid_to_nid4(&hdr->dest_nid));
	w->src_nid = cpu_to_le64(lnet_nid_to_nid4(&hdr->src_nid));
	w->dest_pid = cpu_to_le32(hdr->dest_pid);
	w->src_pid = cpu_to_le32(hdr->src_pid);
	w->type = cpu_to_le32(hdr->type);
	w->payload_length = cpu_to_le32(hdr->payload_length);
	lnet_hdr_msg_encode(&w->msg, hdr);
	return 0;
}
EXPORT_SYMBOL(lnet_hdr_to_nid4);

/**
 * lnet_hdr_to_nid16() - encode a header into the 96-byte nid16 wire form
 * @hdr: header to encode
 * @buf: %LNET_HDR_NID16_SIZE bytes, any alignment
 *
 * Used by socklnd V4.  The NIDs are copied byte for byte.  Bytes that no
 * field of @hdr->type uses are written as zero.  Only the member of
 * @hdr->msg that @hdr->type selects is read.  The header is not checked.
 *
 * Context: Any context.
 */
void lnet_hdr_to_nid16(const struct lnet_hdr *hdr, void *buf)
{
	struct lnet_hdr_nid16 *w = buf;

	memcpy(&w->dest_nid, &hdr->dest_nid, sizeof(w->dest_nid));
	memcpy(&w->src_nid, &hdr->src_nid, sizeof(w->src_nid));
	w->dest_pid = cpu_to_le32(hdr->dest_pid);
	w->src_pid = cpu_to_le32(hdr->src_pid);
	w->type = cpu_to_le32(hdr->type);
	w->payload_length = cpu_to_le32(hdr->payload_length);
	lnet_hdr_msg_encode(&w->msg, hdr);
}
EXPORT_SYMBOL(lnet_hdr_to_nid16);

/**
 * lnet_hdr_from_nid4() - decode and check a 72-byte nid4 data header
 * @hdr: where the decoded header is stored on success
 * @buf: %LNET_HDR_NID4_SIZE bytes as received, any alignment
 * @why: if not NULL, set to the reason for rejecting the header, or to
 *	%LNET_HDR_DROP_NONE when it is accepted
 *
 * The header must be an ACK, PUT, GET or REPLY (a HELLO is rejected; see
 * lnet_hdr_hello_from_nid4()), with well-formed NIDs, neither of them ANY,
 * a payload length that suits its type (at most %LNET_MTU for PUT and
 * REPLY, 0 for ACK and GET) and, for PUT and GET, a portal index below
 * %LNET_MAX_PORTALS.  The checks are made in the order of
 * enum lnet_hdr_drop_reason.  The NIDs are widened to large NIDs; bytes of
 * @buf beyond the fields of the message type are ignored.
 *
 * Context: Any context.
 * Return: 0, or -EPROTO if the header is rejected; @hdr is then left
 * untouched.
 */
int lnet_hdr_from_nid4(struct lnet_hdr *hdr, const void *buf,
		       enum lnet_hdr_drop_reason *why)
{
	const struct lnet_hdr_nid4 *w = buf;
	u64 dest_nid = le64_to_cpu(w->dest_nid);
	u64 src_nid = le64_to_cpu(w->src_nid);
	u32 type = le32_to_cpu(w->type);
	enum lnet_hdr_drop_reason r;
	struct lnet_hdr tmp;

	memset(&tmp, 0, sizeof(tmp));
	r = lnet_hdr_check_type(type);
	if (r == LNET_HDR_DROP_NONE &&
	    (!lnet_nid4_valid(dest_nid) || !lnet_nid4_valid(src_nid)))
		r = LNET_HDR_DROP_BAD_NID;
	if (r == LNET_HDR_DROP_NONE) {
		lnet_nid4_to_nid(dest_nid, &tmp.dest_nid);
		lnet_nid4_to_nid(src_nid, &tmp.src_nid);
		lnet_hdr_rest_decode(&tmp, w->dest_pid, w->src_pid, type,
				     w->payload_length, &w->msg);
		r = lnet_hdr_check(&tmp);
	}
	return lnet_hdr_decoded(hdr, &tmp, r, why);
}
EXPORT_SYMBOL(lnet_hdr_from_nid4);

/**
 * lnet_hdr_from_nid16() - decode and check a 96-byte nid16 data header
 * @hdr: where the decoded header is stored on success
 * @buf: %LNET_HDR_NID16_SIZE bytes as received, any alignment
 * @why: if not NULL, set to the reason for rejecting the header, or to
 *	%LNET_HDR_DROP_NONE when it is accepted
 *
 * As lnet_hdr_from_nid4(), for the socklnd V4 header.  A large NID is
 * well-formed if it is ANY or its address is at most 16 bytes; it is
 * copied byte for byte.
 *
 * Context: Any context.
 * Return: 0, or -EPROTO if the header is rejected; @hdr is then left
 * untouched.
 */
int lnet_hdr_from_nid16(struct lnet_hdr *hdr, const void *buf,
			enum lnet_hdr_drop_reason *why)
{
	const struct lnet_hdr_nid16 *w = buf;
	u32 type = le32_to_cpu(w->type);
	enum lnet_hdr_drop_reason r;
	struct lnet_hdr tmp;

	memset(&tmp, 0, sizeof(tmp));
	memcpy(&tmp.dest_nid, &w->dest_nid, sizeof(tmp.dest_nid));
	memcpy(&tmp.src_nid, &w->src_nid, sizeof(tmp.src_nid));
	r = lnet_hdr_check_type(type);
	if (r == LNET_HDR_DROP_NONE &&
	    (!lnet_nid16_valid(&tmp.dest_nid) ||
	     !lnet_nid16_valid(&tmp.src_nid)))
		r = LNET_HDR_DROP_BAD_NID;
	if (r == LNET_HDR_DROP_NONE) {
		lnet_hdr_rest_decode(&tmp, w->dest_pid, w->src_pid, type,
				     w->payload_length, &w->msg);
		r = lnet_hdr_check(&tmp);
	}
	return lnet_hdr_decoded(hdr, &tmp, r, why);
}
EXPORT_SYMBOL(lnet_hdr_from_nid16);

/**
 * lnet_hdr_hello_to_nid4() - encode a socklnd V1 HELLO header
 * @hdr: source of src_nid, src_pid, dest_pid, payload_length and
 *	msg.hello; dest_nid and type are ignored
 * @buf: %LNET_HDR_NID4_SIZE bytes, any alignment
 *
 * Spec 4.5: a nid4 header of type %LNET_MSG_HELLO whose dest_nid bytes
 * hold %LNET_HDR_HELLO_MAGIC, %LNET_HDR_HELLO_MAJOR and
 * %LNET_HDR_HELLO_MINOR.  The sender sets dest_pid to 0 and payload_length
 * to 4 times the number of IPv4 addresses that follow the header.  Bytes
 * after msg.hello are written as zero.
 *
 * Context: Any context.
 * Return: 0, or -EINVAL if src_nid has a 16-byte address; @buf is then
 * left untouched.
 */
int lnet_hdr_hello_to_nid4(const struct lnet_hdr *hdr, void *buf)
{
	struct lnet_hdr_nid4 *w = buf;

	if (!lnet_nid_is_nid4(&hdr->src_nid))
		return -EINVAL;

	w->dest_nid = cpu_to_le64(LNET_HDR_HELLO_V1_DEST);
	w->src_nid = cpu_to_le64(lnet_nid_to_nid4(&hdr->src_nid));
	w->dest_pid = cpu_to_le32(hdr->dest_pid);
	w->src_pid = cpu_to_le32(hdr->src_pid);
	w->type = cpu_to_le32(LNET_MSG_HELLO);
	w->payload_length = cpu_to_le32(hdr->payload_length);
	memset(&w->msg, 0, sizeof(w->msg));
	w->msg.hello.incarnation = cpu_to_le64(hdr->msg.hello.incarnation);
	w->msg.hello.type = cpu_to_le32(hdr->msg.hello.type);
	return 0;
}
EXPORT_SYMBOL(lnet_hdr_hello_to_nid4);

/**
 * lnet_hdr_hello_from_nid4() - decode and check a socklnd V1 HELLO header
 * @hdr: where the decoded header is stored on success
 * @buf: %LNET_HDR_NID4_SIZE bytes as received, any alignment
 * @why: if not NULL, set to the reason for rejecting the header, or to
 *	%LNET_HDR_DROP_NONE when it is accepted
 *
 * The only way to decode a HELLO; the data-message decoders reject it.
 * Bytes 0..7 must hold the V1 magic and version 1.0, the type must be
 * %LNET_MSG_HELLO, and src_nid must be a well-formed NID other than ANY.
 * On success @hdr->dest_nid is set to ANY, as a HELLO carries no
 * destination NID.  payload_length (4 times the number of IPv4 addresses
 * after the header) and the pids are not checked: limits on them are the
 * socklnd's to enforce.
 *
 * Context: Any context.
 * Return: 0, or -EPROTO if the header is rejected; @hdr is then left
 * untouched.
 */
int lnet_hdr_hello_from_nid4(struct lnet_hdr *hdr, const void *buf,
			     enum lnet_hdr_drop_reason *why)
{
	const struct lnet_hdr_nid4 *w = buf;
	u64 src_nid = le64_to_cpu(w->src_nid);
	u32 type = le32_to_cpu(w->type);
	enum lnet_hdr_drop_reason r = LNET_HDR_DROP_NONE;
	struct lnet_hdr tmp;

	memset(&tmp, 0, sizeof(tmp));
	if (le64_to_cpu(w->dest_nid) != LNET_HDR_HELLO_V1_DEST)
		r = LNET_HDR_DROP_HELLO_VERSION;
	else if (type != LNET_MSG_HELLO)
		r = LNET_HDR_DROP_NOT_HELLO;
	else if (!lnet_nid4_valid(src_nid))
		r = LNET_HDR_DROP_BAD_NID;

	if (r == LNET_HDR_DROP_NONE) {
		tmp.dest_nid = LNET_ANY_NID;
		lnet_nid4_to_nid(src_nid, &tmp.src_nid);
		if (lnet_nid_is_any(&tmp.src_nid))
			r = LNET_HDR_DROP_SRC_ANY;
		lnet_hdr_rest_decode(&tmp, w->dest_pid, w->src_pid, type,
				     w->payload_length, &w->msg);
	}
	return lnet_hdr_decoded(hdr, &tmp, r, why);
}
EXPORT_SYMBOL(lnet_hdr_hello_from_nid4);
