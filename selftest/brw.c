// SPDX-License-Identifier: GPL-2.0
/*
 * The BRW (bulk read/write) test (spec lnet-selftest.md 5): a client unit
 * owns one buffer of the test's length (its first fragment @off into a
 * page) and reuses it for every RPC; a READ's server PUTs its data into
 * it, a WRITE's server GETs the unit's data from it.  Data is checked as
 * the check mode says (pattern.c), at the reader.
 *
 * Good neighbour (spec 8.3): a stock server crashes on a BRW request it
 * rejects and on lengths that are not a multiple of 8.  Ours refuses such
 * a test at the client (TEST status EINVAL), so it never sends one, and
 * as a server answers such a request with EINVAL, and no bulk.  The
 * client's offset stays local (it is never sent).  Check mode DISCARD is
 * served as NONE: the data is stored, not checked (our core has no
 * discarding MD).
 */
#include <linux/highmem.h>

#include "selftest.h"

struct lst_brw_param {
	u32	opc;		/* LST_BRW_READ or LST_BRW_WRITE */
	u32	flags;		/* check mode */
	u32	len;
	u32	off;
};

/* tsr_u of a BRW TEST, v1 with BULK_LEN, v0 in pages without (spec 3.4). */
static void lst_brw_param(const struct lst_test *t, struct lst_brw_param *p)
{
	const u8 *u = t->params;

	if (t->feats & LST_FEAT_BULK_LEN) {
		p->opc = get_unaligned_le16(u);
		p->flags = get_unaligned_le16(u + 2);
		p->len = get_unaligned_le32(u + 4);
		p->off = get_unaligned_le32(u + 8) % PAGE_SIZE;
	} else {
		p->opc = get_unaligned_le32(u);
		p->len = get_unaligned_le32(u + 4) * (u32)PAGE_SIZE;
		p->flags = get_unaligned_le32(u + 8);
		p->off = 0;
	}
}

/* A BRW's opcode, check mode and length, as a stock server takes them. */
static bool lst_brw_valid(u32 opc, u32 flags, u32 len)
{
	return (opc == LST_BRW_READ || opc == LST_BRW_WRITE) &&
	       flags >= LST_BRW_CHECK_NONE && flags <= LST_BRW_CHECK_DISCARD &&
	       len && len <= LST_BRW_MAX_LEN && !(len % 8);
}

/*
 * brw_inject_errors: while it is above 0, each data source filled takes
 * one and gets a wrong MAGIC in its first word, which every checking
 * sink reads (stock's writer does it at random, half the time: ours
 * every time, so that a test knows how many errors to expect).
 */
static bool lst_brw_inject_one(void)
{
	int v = READ_ONCE(lst_brw_inject_errors);

	while (v > 0) {
		int old = cmpxchg(&lst_brw_inject_errors, v, v - 1);

		if (old == v)
			return true;
		v = old;
	}
	return false;
}

/* Fill (@poison: POISON, else MAGIC) each fragment of @bk for @mode. */
static void lst_bulk_fill(struct lst_bulk *bk, unsigned int mode, bool poison)
{
	unsigned int i;
	u8 *p;

	for (i = 0; i < bk->npages; i++) {
		struct bio_vec *bv = &bk->kiov[i];

		p = kmap_local_page(bv->bv_page);
		if (poison)
			lst_brw_poison(p + bv->bv_offset, bv->bv_len, mode);
		else
			lst_brw_fill(p + bv->bv_offset, bv->bv_len, mode);
		kunmap_local(p);
	}
	if (poison || (mode != LST_BRW_CHECK_SIMPLE &&
		       mode != LST_BRW_CHECK_FULL) || !lst_brw_inject_one())
		return;
	p = kmap_local_page(bk->kiov[0].bv_page);
	put_unaligned_le64(~LST_BRW_MAGIC, p + bk->kiov[0].bv_offset);
	kunmap_local(p);
}

/* Check each fragment of @bk as @mode says: 0 or -EBADMSG. */
static int lst_bulk_check(struct lst_bulk *bk, unsigned int mode,
			  bool swapped)
{
	unsigned int i;
	int rc = 0;

	for (i = 0; i < bk->npages && !rc; i++) {
		struct bio_vec *bv = &bk->kiov[i];
		u8 *p = kmap_local_page(bv->bv_page);

		rc = lst_brw_check(p + bv->bv_offset, bv->bv_len, mode,
				   swapped);
		kunmap_local(p);
	}
	return rc;
}

/* Bytes of all client units' buffers (LST_BRW_CLIENT_BYTES at most). */
static atomic64_t lst_brw_client_bytes;

static int lst_brw_init(struct lst_unit *u)
{
	struct lst_test *t = u->test;
	bool first = u == &t->units[0];
	struct lst_brw_param p;

	lst_brw_param(t, &p);
	/* fragments of whole 8-byte words: the offset too (spec 5.1) */
	if (!lst_brw_valid(p.opc, p.flags, p.len) || p.off % 8)
		return -EINVAL;
	/* The first unit reserves for all, before any buffer is made. */
	if (first) {
		t->reserved = (u64)t->nunits * p.len;
		if (atomic64_add_return(t->reserved, &lst_brw_client_bytes) >
		    LST_BRW_CLIENT_BYTES) {
			atomic64_sub(t->reserved, &lst_brw_client_bytes);
			return -ENOMEM;
		}
	}
	u->bulk = lst_bulk_alloc(p.len, p.off, p.opc == LST_BRW_READ);
	if (u->bulk)
		return 0;
	if (first)	/* its ->fini() is not called: release here */
		atomic64_sub(t->reserved, &lst_brw_client_bytes);
	return -ENOMEM;
}

/* Units go with their instance: the first one's reservation with them. */
static void lst_brw_fini(struct lst_unit *u)
{
	if (u == &u->test->units[0])
		atomic64_sub(u->test->reserved, &lst_brw_client_bytes);
	lst_bulk_free(u->bulk);
	u->bulk = NULL;
}

static int lst_brw_prep(struct lst_unit *u, struct lst_crpc *rpc)
{
	struct lst_brw_param p;

	lst_brw_param(u->test, &p);
	lst_bulk_fill(u->bulk, p.flags, p.opc == LST_BRW_READ);
	lst_put32(rpc->req, LST_BRW_RW, p.opc);
	lst_put32(rpc->req, LST_BRW_LEN, p.len);
	lst_put32(rpc->req, LST_BRW_FLAGS, p.flags);
	return 0;
}

/* Spec 5.5: transport, then the reply's status, then a READ's data. */
static int lst_brw_check_rpc(struct lst_unit *u, struct lst_crpc *rpc)
{
	struct lst_brw_param p;
	u32 status;

	if (rpc->status)
		return rpc->status;
	status = lst_get32(rpc->reply, LST_REP_STATUS);
	if (status)
		return -(int)status;
	lst_brw_param(u->test, &p);
	if (p.opc == LST_BRW_READ)
		return lst_bulk_check(u->bulk, p.flags,
				      rpc->reply_info.swapped);
	return 0;
}

static void lst_brw_error(struct lst_unit *u)
{
	atomic_inc(&u->test->session->brw_errors);
}

const struct lst_test_ops lst_brw_ops = {
	.init = lst_brw_init,
	.fini = lst_brw_fini,
	.prep = lst_brw_prep,
	.check = lst_brw_check_rpc,
	.error = lst_brw_error,
};

/* The BRW server (spec 5.3): a valid request gets its bulk moved. */
static int lst_brw_handle(struct lst_srpc *rpc)
{
	u32 opc = lst_get32(rpc->req, LST_BRW_RW);
	u32 len = lst_get32(rpc->req, LST_BRW_LEN);
	u32 flags = lst_get32(rpc->req, LST_BRW_FLAGS);
	u32 status = 0;

	if (rpc->info.version != LST_MSG_VERSION ||
	    rpc->info.feats & ~LST_FEATS_MASK) {
		status = EPROTO;
		put_unaligned_le32(LST_FEATS_MASK, rpc->reply + LST_HDR_FEATS);
	} else if (!lst_brw_valid(opc, flags, len) ||
		   (!(rpc->info.feats & LST_FEAT_BULK_LEN) &&
		    len % PAGE_SIZE)) {
		status = EINVAL;
	}
	lst_put32(rpc->reply, LST_REP_STATUS, status);
	if (status)
		return 0;
	rpc->bulk = lst_bulk_alloc(len, 0, opc == LST_BRW_WRITE);
	if (!rpc->bulk)
		return -ENOMEM;
	lst_bulk_fill(rpc->bulk, flags, opc == LST_BRW_WRITE);
	return 0;
}

/* After the bulk: a failed one gets no reply; a WRITE's data is checked. */
static int lst_brw_bulk_done(struct lst_srpc *rpc)
{
	if (rpc->bulk_status)
		return rpc->bulk_status;
	if (lst_get32(rpc->req, LST_BRW_RW) == LST_BRW_WRITE &&
	    lst_bulk_check(rpc->bulk, lst_get32(rpc->req, LST_BRW_FLAGS),
			   rpc->info.swapped))
		lst_put32(rpc->reply, LST_REP_STATUS, EBADMSG);
	return 0;
}

struct lst_svc lst_brw_svc = {
	.name = "brw",
	.id = LST_SVC_BRW,
	.handle = lst_brw_handle,
	.bulk_done = lst_brw_bulk_done,
	.test = true,
};
