// SPDX-License-Identifier: GPL-2.0
/*
 * The registrant role (Documentation/nidmap.rst, "Roles at run time"):
 * one REGISTER of up to 256 targets (registrations and removals, all or
 * none) to a publisher, waited for: the caller (netlink) gets the
 * publisher's status and the index of a refused record.
 */
#include <linux/completion.h>
#include <linux/slab.h>

#include <kunit/visibility.h>

#include <lnet/ctl.h>

#include "node.h"

struct nidmap_reg_wait {
	struct completion	done;
	int			status;
	u16			st;
	u64			version;
	u32			index;
};

static void nidmap_reg_done(struct nidmap_req *req)
{
	struct nidmap_reg_wait *w = req->priv;
	struct nidmap_msg msg;
	int rc = req->status;

	if (!rc)
		rc = nidmap_msg_decode(req->reply, req->reply_len, &msg);
	if (!rc && (msg.hdr.type != NIDMAP_STATUS ||
		    msg.hdr.reply_to != req->seq))
		rc = -EPROTO;
	if (!rc) {
		w->st = msg.hdr.status;
		w->version = msg.hdr.version;
		w->index = min_t(u64, msg.hdr.base, U32_MAX);
	} else if (req->reply_len) {
		nidmap_count(NIDMAP_A_CTR_RX_DROPPED);
	}
	w->status = rc;
	complete(&w->done);
}

/**
 * nidmap_register_encode() - a REGISTER of records, in this host's order
 * @recs: the records (version 0; NIDMAP_R_DELETED: a removal), applied
 *	by the publisher in this order, all or none
 * @n: how many: 1 to NIDMAP_REGISTER_MAX
 * @seq: the request's seq
 * @buf: where it goes
 * @size: its bytes (NIDMAP_HDR_SIZE + @n * NIDMAP_REC_MAX is enough)
 *
 * Return: the message's length; -EINVAL @n out of range; -E2BIG or
 * -EPROTO a bad record (nidmap_rec_check()); -ENOSPC @size too small.
 */
int nidmap_register_encode(const struct nidmap_rec *recs, unsigned int n,
			   u64 seq, void *buf, size_t size)
{
	struct nidmap_enc enc;
	struct nidmap_hdr h;
	unsigned int i;
	int rc;

	if (!n || n > NIDMAP_REGISTER_MAX)
		return -EINVAL;
	nidmap_hdr_init(&h, NIDMAP_REGISTER);
	h.seq = seq;
	rc = nidmap_enc_init(&enc, buf, size, &h);
	for (i = 0; !rc && i < n; i++)
		rc = nidmap_enc_rec(&enc, &recs[i]);
	return rc ?: nidmap_enc_finish(&enc, 0);
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_register_encode);

/**
 * nidmap_register() - register targets' NIDs, or remove targets, in one
 *	REGISTER, and wait for the publisher's answer
 * @publisher: the publisher's NID
 * @recs: the targets (NIDMAP_R_DELETED: remove it), applied in this
 *	order, all or none
 * @n: how many: 1 to NIDMAP_REGISTER_MAX
 * @status: set to the publisher's enum nidmap_status
 * @version: set to the publisher's table version after it
 * @index: set to the refused record's index when @status is not OK
 *
 * Context: process context, not on nidmap_wq; sleeps up to
 * NIDMAP_REQ_TIMEOUT.
 * Return: 0 when the publisher answered (@status says how); -ENETDOWN
 * LNet not running; -ETIMEDOUT no answer; -EPROTO a bad answer;
 * -EINVAL a bad record or @n; -ENOMEM.
 */
int nidmap_register(const struct lnet_nid *publisher,
		    const struct nidmap_rec *recs, unsigned int n,
		    u16 *status, u64 *version, u32 *index)
{
	struct lnet_processid dest = { .nid = *publisher,
				       .pid = LNET_PID_LUSTRE };
	struct nidmap_reg_wait w = { };
	struct nidmap_req *req;
	unsigned int i;
	size_t size;
	int rc;

	if (!n || n > NIDMAP_REGISTER_MAX)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (nidmap_rec_check(&recs[i], true))
			return -EINVAL;
	if (!lnet_is_configured())
		return -ENETDOWN;
	rc = lnet_ni_init();
	if (rc)
		return rc;
	init_completion(&w.done);
	rc = -ENOMEM;
	req = nidmap_req_alloc(&dest, NIDMAP_STATUS_ROOM, nidmap_reg_done, &w);
	if (!req)
		goto out;
	size = NIDMAP_HDR_SIZE + n * NIDMAP_REC_MAX;
	req->msg = kvmalloc(size, GFP_KERNEL);
	if (!req->msg) {
		nidmap_req_free(req);
		goto out;
	}
	rc = nidmap_register_encode(recs, n, req->seq, req->msg, size);
	if (rc < 0) {
		nidmap_req_free(req);
		goto out;
	}
	req->msg_len = rc;
	nidmap_req_post(req);
	wait_for_completion_state(&w.done, TASK_IDLE);
	nidmap_req_free(req);
	rc = w.status;
	*status = w.st;
	*version = w.version;
	*index = w.index;
out:
	lnet_ni_fini();
	return rc;
}
