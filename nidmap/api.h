/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lnet_nidmap.ko's in-kernel API for upper layers: PUT to and GET from a
 * target by its name (NID-amnesia, Documentation/nidmap.rst "Sending by
 * name").
 */
#ifndef _NIDMAP_API_H
#define _NIDMAP_API_H

#include <linux/completion.h>

#include <lnet/api.h>

#include "nidmap.h"

/**
 * struct nidmap_xfer - the memory and the destination of a PUT or a GET
 *	by name (nidmap_put_by_name(), nidmap_get_by_name())
 * @start: the data or sink: a buffer, or with LNET_MD_KIOV a struct
 *	bio_vec array
 * @length: its bytes, or with LNET_MD_KIOV its entries
 * @options: 0 or LNET_MD_KIOV
 * @pid: the target process (LNET_PID_LUSTRE for a kernel service)
 * @portal: its portal
 * @match_bits: matched against its MEs
 * @offset: the offset asked for in its MD
 */
struct nidmap_xfer {
	void			*start;
	unsigned int		length;
	unsigned int		options;
	u32			pid;
	unsigned int		portal;
	u64			match_bits;
	unsigned int		offset;
};

/**
 * struct nidmap_put - a PUT for nidmap_put_by_name()
 * @xfer: the data and where it goes
 * @hdr_data: 64 bits delivered with the PUT event
 * @ack: LNET_ACK_REQ: done when the ACK arrives; LNET_NOACK_REQ: when sent
 */
struct nidmap_put {
	struct nidmap_xfer	xfer;
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
 * @mlength: a GET's bytes received (on success)
 */
struct nidmap_by_name_res {
	struct lnet_nid	nid;
	u64		version;
	unsigned int	resolves;
	unsigned int	skipped;
	unsigned int	failed;
	unsigned int	mlength;
};

/**
 * typedef nidmap_by_name_done_t - a send by name is over
 * @arg: the caller's, as given to nidmap_put_by_name()
 * @status: 0, or -errno (see nidmap_put_by_name())
 * @res: what was done; valid during the call only
 *
 * Called exactly once per send started, in process context (a work
 * item), never from within the call that started it.
 */
typedef void (*nidmap_by_name_done_t)(void *arg, int status,
				      const struct nidmap_by_name_res *res);

int nidmap_put_by_name(const char *name, const struct nidmap_put *put,
		       nidmap_by_name_done_t done, void *arg);
int nidmap_get_by_name(const char *name, const struct nidmap_xfer *get,
		       nidmap_by_name_done_t done, void *arg);

/* --- the machine behind them (KUnit drives it with fake operations) --- */

struct nidmap_by_name;

/* nidmap_by_name_ops.start(): no NI or route to the NID's net, nothing sent. */
#define NIDMAP_PUT_SKIPPED	1
/* nidmap_by_name_ops.start(): in flight, nidmap_by_name_tried() ends it. */
#define NIDMAP_TRY_PENDING	2

/* Resolutions of one send by name: the first, and one after failures. */
#define NIDMAP_BY_NAME_ROUNDS	2

/**
 * struct nidmap_by_name_ops - what a send by name is done with
 * @resolve: the target's record (0, or -errno: ends the send)
 * @refresh: before resolving again: bring the table up to date (may be
 *	NULL; may sleep)
 * @start: try a NID: 0 it took it, NIDMAP_PUT_SKIPPED nothing sent (no
 *	NI of ours and no route on its net), -errno the try failed, or
 *	NIDMAP_TRY_PENDING: nidmap_by_name_tried() gives its outcome
 *	(exactly once, from any context, possibly before @start returns)
 * @fini: after the caller's done() (may be NULL)
 */
struct nidmap_by_name_ops {
	int	(*resolve)(void *arg, const char *name, struct nidmap_rec *rec);
	void	(*refresh)(void *arg);
	int	(*start)(void *arg, struct nidmap_by_name *op,
			 const struct lnet_nid *nid);
	void	(*fini)(void *arg);
};

void nidmap_by_name_tried(struct nidmap_by_name *op, int status);
int nidmap_by_name_start(const struct nidmap_by_name_ops *ops, void *arg,
			 const char *name, nidmap_by_name_done_t done,
			 void *done_arg);

/**
 * struct nidmap_by_name_wait - to wait for a send by name
 * @done: completed by nidmap_by_name_wake()
 * @status: the send's status
 * @res: what it did
 */
struct nidmap_by_name_wait {
	struct completion		done;
	int				status;
	struct nidmap_by_name_res	res;
};

void nidmap_by_name_wake(void *arg, int status,
			 const struct nidmap_by_name_res *res);

#endif /* _NIDMAP_API_H */
