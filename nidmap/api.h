/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lnet_nidmap.ko's in-kernel API for upper layers: send to a target by
 * its name (NID-amnesia, Documentation/nidmap.rst "Sending by name").
 */
#ifndef _NIDMAP_API_H
#define _NIDMAP_API_H

#include <lnet/api.h>

#include "nidmap.h"

/**
 * struct nidmap_put - a PUT for nidmap_put_by_name()
 * @start: the data: a buffer, or with LNET_MD_KIOV a struct bio_vec array
 * @length: its bytes, or with LNET_MD_KIOV its entries
 * @options: 0 or LNET_MD_KIOV
 * @pid: the target process (LNET_PID_LUSTRE for a kernel service)
 * @portal: its portal
 * @match_bits: matched against its MEs
 * @offset: the offset asked for in its MD
 * @hdr_data: 64 bits delivered with the PUT event
 * @ack: LNET_ACK_REQ: done when the ACK arrives; LNET_NOACK_REQ: when sent
 */
struct nidmap_put {
	void			*start;
	unsigned int		length;
	unsigned int		options;
	u32			pid;
	unsigned int		portal;
	u64			match_bits;
	unsigned int		offset;
	u64			hdr_data;
	enum lnet_ack_req	ack;
};

/**
 * struct nidmap_by_name_res - what a send by name did
 * @nid: the NID that took it (on success)
 * @version: the version of the entry last tried
 * @resolves: resolutions whose NIDs were tried
 * @skipped: NIDs skipped: no NI of ours and no route on their net
 * @failed: NIDs whose send failed
 */
struct nidmap_by_name_res {
	struct lnet_nid	nid;
	u64		version;
	unsigned int	resolves;
	unsigned int	skipped;
	unsigned int	failed;
};

/* nidmap_by_name_ops.put(): no NI or route to the NID's net, nothing sent. */
#define NIDMAP_PUT_SKIPPED	1

/* Resolutions of one send by name: the first, and one after failures. */
#define NIDMAP_BY_NAME_ROUNDS	2

/**
 * struct nidmap_by_name_ops - what nidmap_by_name_run() does a send with
 * @resolve: the target's record (0, or -errno: ends the send)
 * @refresh: before resolving again: bring the table up to date (may be
 *	NULL)
 * @put: send to a NID: 0 taken, NIDMAP_PUT_SKIPPED nothing sent (no NI
 *	of ours and no route on its net), -errno the send failed
 */
struct nidmap_by_name_ops {
	int	(*resolve)(void *arg, const char *name, struct nidmap_rec *rec);
	void	(*refresh)(void *arg);
	int	(*put)(void *arg, const struct lnet_nid *nid);
};

int nidmap_by_name_run(const struct nidmap_by_name_ops *ops, void *arg,
		       const char *name, struct nidmap_by_name_res *res);
int nidmap_put_by_name(const char *name, const struct nidmap_put *put,
		       struct nidmap_by_name_res *res);

#endif /* _NIDMAP_API_H */
