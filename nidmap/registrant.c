// SPDX-License-Identifier: GPL-2.0
/*
 * The registrant role (Documentation/nidmap.rst, "Roles at run time"):
 * one REGISTER of one target (or its removal) to a publisher, waited
 * for: the caller (netlink) gets the publisher's status.
 */
#include <linux/completion.h>
#include <linux/slab.h>

#include <lnet/ctl.h>

#include "node.h"

struct nidmap_reg_wait {
	struct completion	done;
	int			status;
	u16			st;
	u64			version;
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
	} else if (req->reply_len) {
		nidmap_count(NIDMAP_A_CTR_RX_DROPPED);
	}
	w->status = rc;
	complete(&w->done);
}

/**
 * nidmap_register() - register a target's NIDs, or remove it, and wait
 *	for the publisher's answer
 * @publisher: the publisher's NID
 * @rec: the target (NIDMAP_R_DELETED: remove it)
 * @status: set to the publisher's enum nidmap_status
 * @version: set to the publisher's table version after it
 *
 * Context: process context, not on nidmap_wq; sleeps up to
 * NIDMAP_REQ_TIMEOUT.
 * Return: 0 when the publisher answered (@status says how); -ENETDOWN
 * LNet not running; -ETIMEDOUT no answer; -EPROTO a bad answer;
 * -EINVAL a bad @rec; -ENOMEM.
 */
int nidmap_register(const struct lnet_nid *publisher,
		    const struct nidmap_rec *rec, u16 *status, u64 *version)
{
	struct lnet_processid dest = { .nid = *publisher,
				       .pid = LNET_PID_LUSTRE };
	struct nidmap_reg_wait w = { };
	size_t size = NIDMAP_HDR_SIZE + NIDMAP_REC_MAX;
	struct nidmap_req *req;
	struct nidmap_enc enc;
	struct nidmap_hdr h;
	int rc;

	if (nidmap_rec_check(rec, true))
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
	req->msg = kmalloc(size, GFP_KERNEL);
	if (!req->msg) {
		nidmap_req_free(req);
		goto out;
	}
	nidmap_hdr_init(&h, NIDMAP_REGISTER);
	h.seq = req->seq;
	rc = nidmap_enc_init(&enc, req->msg, size, &h) ?:
	     nidmap_enc_rec(&enc, rec);
	if (!rc)
		rc = nidmap_enc_finish(&enc, 0);
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
out:
	lnet_ni_fini();
	return rc;
}
