// SPDX-License-Identifier: GPL-2.0
/*
 * The ping buffer (wire spec 6.2): building ours, parsing anyone's.  The
 * same format is a ping reply and a push payload (spec 7).
 *
 * A buffer is a 16-byte header (magic, features, pid, nnis) and nnis
 * 16-byte nid4 status entries, entry 0 being 0@lo with the sequence
 * number as its status; with LARGE_ADDR, large-NID entries follow, whose
 * end entry 0's ns_msg_size gives.  Fields are in the responder's byte
 * order: a swapped magic means swap everything.
 */
#include <linux/export.h>
#include <linux/overflow.h>
#include <linux/string.h>
#include <linux/swab.h>

#include <kunit/visibility.h>

#include <lnet/lib-lnet.h>

#define LNET_PING_HDR_SIZE	sizeof(struct lnet_ping_info)
#define LNET_PING_ENTRY_SIZE	sizeof(struct lnet_ni_status)

/**
 * lnet_ping_buf_size() - bytes of a buffer listing @n NIs besides 0@lo
 * @n: the NIs, all with a nid4
 *
 * Return: the size.
 */
size_t lnet_ping_buf_size(unsigned int n)
{
	return LNET_PING_HDR_SIZE + (n + 1) * LNET_PING_ENTRY_SIZE;
}
EXPORT_SYMBOL_GPL(lnet_ping_buf_size);

/**
 * lnet_ping_buf_build() - fill in our ping buffer
 * @pi: lnet_ping_buf_size(@n) bytes
 * @features: LNET_PING_FEAT_* (NI_STATUS is always set)
 * @seq: the sequence number, in entry 0
 * @nis: our NIs but 0@lo, in configuration order, each with a nid4 (the
 *	first is the primary NID)
 * @n: entries in @nis
 */
void lnet_ping_buf_build(struct lnet_ping_info *pi, u32 features, u32 seq,
			 const struct lnet_ping_ni *nis, unsigned int n)
{
	unsigned int i;

	memset(pi, 0, lnet_ping_buf_size(n));
	pi->pi_magic = LNET_PROTO_PING_MAGIC;
	pi->pi_features = features | LNET_PING_FEAT_NI_STATUS;
	pi->pi_pid = LNET_PID_LUSTRE;
	pi->pi_nnis = n + 1;
	pi->pi_ni[0].ns_nid = LNET_NID_LO_0;
	pi->pi_ni[0].ns_status = seq;
	for (i = 0; i < n; i++) {
		pi->pi_ni[i + 1].ns_nid = lnet_nid_to_nid4(&nis[i].nid);
		pi->pi_ni[i + 1].ns_status = nis[i].up ? LNET_NI_STATUS_UP :
							 LNET_NI_STATUS_DOWN;
	}
}
EXPORT_SYMBOL_IF_KUNIT(lnet_ping_buf_build);

/**
 * lnet_ping_buf_set_status() - write an NI's status into a built buffer
 * @pi: a buffer lnet_ping_buf_build() made (ours: native order)
 * @nid: the NI's NID
 * @up: its status
 *
 * Spec 6.2: a status change is written in place; the sequence number in
 * entry 0 and every other byte stay, so it is no new buffer.
 *
 * Return: true if @pi lists @nid (and now says @up for it).
 */
bool lnet_ping_buf_set_status(struct lnet_ping_info *pi,
			      const struct lnet_nid *nid, bool up)
{
	u64 nid4 = lnet_nid_to_nid4(nid);
	unsigned int i;

	if (!lnet_nid_is_nid4(nid))
		return false;
	for (i = 1; i < pi->pi_nnis; i++) {
		if (pi->pi_ni[i].ns_nid != nid4)
			continue;
		WRITE_ONCE(pi->pi_ni[i].ns_status,
			   up ? LNET_NI_STATUS_UP : LNET_NI_STATUS_DOWN);
		return true;
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_ping_buf_set_status);

static u32 lnet_pb32(const u8 *p, bool swap)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return swap ? swab32(v) : v;
}

static u64 lnet_pb64(const u8 *p, bool swap)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return swap ? swab64(v) : v;
}

/* One NID of the buffer: stored if there is room, always counted. */
static void lnet_ping_buf_add(struct lnet_ping_data *pd,
			      const struct lnet_nid *nid, u32 status,
			      struct lnet_nid *nids, u32 *statuses,
			      unsigned int max)
{
	if (pd->nnids < max) {
		nids[pd->nnids] = *nid;
		if (statuses)
			statuses[pd->nnids] = status;
	}
	pd->nnids++;
}

/*
 * The large entries (LARGE_ADDR) in buf[off..end): u32 status, then the
 * NID cut to nid_size + 8 bytes, padded to 4.  An entry whose NID would
 * exceed 20 bytes is skipped, as Lustre's receiver does, and so is ANY.
 */
static void lnet_ping_buf_parse_large(const u8 *buf, unsigned int off,
				      unsigned int end, bool swap,
				      struct lnet_ping_data *pd,
				      struct lnet_nid *nids, u32 *statuses,
				      unsigned int max)
{
	while (off + 4 + 8 <= end) {
		unsigned int nlen = buf[off + 4] + 8;
		unsigned int elen = ALIGN(4 + nlen, 4);
		struct lnet_nid nid = {};

		if (off + elen > end)
			break;
		/* LND type 0xFF is the ANY wildcard, no NI's NID. */
		if (nlen <= sizeof(nid) && buf[off + 5] != 0xff) {
			memcpy(&nid, buf + off + 4, nlen);
			lnet_ping_buf_add(pd, &nid, lnet_pb32(buf + off, swap),
					  nids, statuses, max);
		}
		off += elen;
	}
}

/**
 * lnet_ping_buf_parse() - validate a ping buffer and take its NIDs
 * @buf: the buffer as received
 * @len: its length (a truncated one is parsed as far as it goes)
 * @pd: out: its header fields and sizes
 * @nids: out: the NIDs it lists, 0@lo excluded: the nid4 entries, then
 *	the large ones; room for @max.  An entry that cannot be an NI's NID
 *	(a nid4 with bits 63..56 set or LND type 0xFF, ANY among them; a
 *	large NID over 20 bytes) is skipped.
 * @statuses: out, may be NULL: the status of each of @nids
 * @max: room in @nids (and @statuses)
 *
 * Validates as a Lustre node's discovery does (spec 6.2): the magic in
 * either byte order, NI_STATUS, 1 <= nnis <= max_interfaces, entry 0 is
 * 0@lo.  @pd->truncated says that @len is shorter than the buffer its
 * header describes (@pd->size): a discovery asks again with that much.
 *
 * Return: 0, or -EPROTO for a buffer that does not validate.
 */
int lnet_ping_buf_parse(const void *buf, unsigned int len,
			struct lnet_ping_data *pd, struct lnet_nid *nids,
			u32 *statuses, unsigned int max)
{
	const u8 *b = buf;
	unsigned int i, nnis, have, end;
	struct lnet_nid nid;
	bool swap;
	u32 magic;

	memset(pd, 0, sizeof(*pd));
	if (len < LNET_PING_HDR_SIZE + LNET_PING_ENTRY_SIZE)
		return -EPROTO;
	magic = lnet_pb32(b, false);
	if (magic == LNET_PROTO_PING_MAGIC)
		swap = false;
	else if (swab32(magic) == LNET_PROTO_PING_MAGIC)
		swap = true;
	else
		return -EPROTO;
	pd->features = lnet_pb32(b + 4, swap);
	pd->pid = lnet_pb32(b + 8, swap);
	nnis = lnet_pb32(b + 12, swap);
	pd->nnis = nnis;
	if (!(pd->features & LNET_PING_FEAT_NI_STATUS) || !nnis ||
	    nnis > lnet_max_interfaces() ||
	    lnet_pb64(b + LNET_PING_HDR_SIZE, swap) != LNET_NID_LO_0)
		return -EPROTO;
	pd->seq = lnet_pb32(b + LNET_PING_HDR_SIZE + 8, swap);
	pd->size = LNET_PING_HDR_SIZE + nnis * LNET_PING_ENTRY_SIZE;
	if (pd->features & LNET_PING_FEAT_LARGE_ADDR) {
		end = lnet_pb32(b + LNET_PING_HDR_SIZE + 12, swap) & ~3U;
		if (end < pd->size)
			return -EPROTO;
		pd->size = end;
	}
	pd->truncated = len < pd->size;

	have = min_t(unsigned int, nnis, (len - LNET_PING_HDR_SIZE) /
					 LNET_PING_ENTRY_SIZE);
	for (i = 1; i < have; i++) {
		const u8 *e = b + LNET_PING_HDR_SIZE + i * LNET_PING_ENTRY_SIZE;
		u64 nid4 = lnet_pb64(e, swap);

		/*
		 * Not a NID an NI can have (spec 1.3: bits 63..56 are 0;
		 * LND type 0xFF is the ANY wildcard, spec 1.4): narrowed,
		 * it would alias a real NID or become ANY.  Skipped, as an
		 * oversized large entry is.
		 */
		if ((nid4 >> 56) || ((nid4 >> 48) & 0xff) == 0xff)
			continue;
		lnet_nid4_to_nid(nid4, &nid);
		lnet_ping_buf_add(pd, &nid, lnet_pb32(e + 8, swap), nids,
				  statuses, max);
	}
	pd->nnid4 = pd->nnids;
	if (pd->features & LNET_PING_FEAT_LARGE_ADDR && !pd->truncated)
		lnet_ping_buf_parse_large(b, LNET_PING_HDR_SIZE +
					  nnis * LNET_PING_ENTRY_SIZE,
					  pd->size, swap, pd, nids, statuses,
					  max);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_ping_buf_parse);
