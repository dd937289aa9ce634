/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ko2iblnd memory registration pools (mr.c).  See
 * Documentation/o2iblnd-mr.rst for the design.
 *
 * One pool per protection domain, shared by every connection on it.  The
 * interface says nothing about the mechanism (today fast registration with
 * IB_WR_REG_MR; FMR is gone since Linux 5.8): the caller gets a key, an
 * address and a length to advertise, and a chain of work requests to post
 * ahead of its own.
 *
 * Who needs an MR ("map on demand"): only a buffer the *peer* accesses,
 * i.e. the sink buffer advertised in PUT_ACK (ibpam_rd) and GET_REQ
 * (ibgm_rd), registered with IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE.
 * Buffers used only locally (the source of an RDMA WRITE, the pages of a
 * send) need none: DMA-map them and use kib_mr_pool_local_lkey() (the PD's
 * local_dma_lkey) with the DMA addresses in the SGEs.
 *
 * Use, on the sink side:
 *
 *	nents = kib_mr_kiov_to_sg(kiov, nkiov, offset, nob, sgl, max);
 *	n = ib_dma_map_sg(dev, sgl, nents, DMA_FROM_DEVICE);
 *	rc = kib_mr_map(pool, sgl, n, IB_ACCESS_LOCAL_WRITE |
 *			IB_ACCESS_REMOTE_WRITE, &tx->map);
 *	(-EAGAIN: queue the tx; retry after the pool's wake callback)
 *	rd = { tx->map.key, 1, { tx->map.nob, tx->map.iova } };
 *	ib_post_send(qp, kib_mr_map_chain(&tx->map, &send_wr), NULL);
 *	... PUT_DONE/GET_DONE received and the send completed ...
 *	kib_mr_unmap(&tx->map, status);
 *	ib_dma_unmap_sg(dev, sgl, nents, DMA_FROM_DEVICE);
 *
 * Send queue: a map adds at most KIB_MR_MAX_WRS (2) work requests
 * (LOCAL_INV of the MR's previous registration, then REG_MR); size the
 * QP's max_send_wr for them.  Both are posted unsignaled and carry an
 * ib_cqe owned by the pool, so the caller's CQ must use the ib_cqe model
 * (ib_alloc_cq()/ib_cq_pool_get(): wc->wr_cqe->done()).  Their send queue
 * slots are freed by the completion of the caller's signaled WR that
 * follows them; a failed REG_MR or LOCAL_INV is reported to the pool by an
 * error completion, counted, and the MR is retired at unmap.
 */
#ifndef _KO2IBLND_MR_H
#define _KO2IBLND_MR_H

#include <linux/scatterlist.h>
#include <linux/types.h>
#include <rdma/ib_verbs.h>

struct bio_vec;
struct kib_mr;
struct kib_mr_pool;

/* Work requests one kib_mr_map() may add ahead of the caller's. */
#define KIB_MR_MAX_WRS		2

/* Lustre's defaults for the tunables of the same names. */
#define KIB_MR_POOL_SIZE	512	/* fmr_pool_size: MRs per chunk */
#define KIB_MR_FLUSH_TRIGGER	384	/* fmr_flush_trigger */
#define KIB_MR_IDLE_SECS	300	/* IBLND_POOL_DEADLINE */

/**
 * struct kib_mr_pool_params - how a pool is sized
 * @pool_size: MRs per chunk, the unit of growth and trimming, and the
 *	size the pool never shrinks below (fmr_pool_size; 0: 512).
 * @flush_trigger: grow in the background, before maps fail, once fewer
 *	than @pool_size - @flush_trigger MRs are free (fmr_flush_trigger;
 *	at or above @pool_size: grow only when exhausted).
 * @max_mrs: hard limit on MRs in the pool; 0: no limit but memory.
 * @idle_secs: trim chunks the pool has not needed for this long (0: 300).
 * @wake: called once MRs are available again after a kib_mr_map() returned
 *	-EAGAIN.  Called without pool locks, possibly from within
 *	kib_mr_unmap() or from a workqueue; must not sleep.  May be NULL.
 * @wake_arg: argument of @wake.
 */
struct kib_mr_pool_params {
	unsigned int	pool_size;
	unsigned int	flush_trigger;
	unsigned int	max_mrs;
	unsigned int	idle_secs;
	void		(*wake)(void *arg);
	void		*wake_arg;
};

/**
 * struct kib_mr_map - one registration, owned by the caller (e.g. a tx)
 * @key: the key to advertise (rd_key): the rkey of the registration
 * @iova: the address of the first byte in the registration (rf_addr)
 * @nob: bytes registered (rf_nob); one fragment covers them all
 * @first_wr: first work request to post ahead of the caller's, or NULL
 * @last_wr: last of them; kib_mr_map_chain() links the caller's WR to it
 * @mr: private to mr.c
 */
struct kib_mr_map {
	u32			key;
	u64			iova;
	u32			nob;
	struct ib_send_wr	*first_wr;
	struct ib_send_wr	*last_wr;
	struct kib_mr		*mr;
};

/**
 * struct kib_mr_pool_stats - counters, for the LND's debugfs
 * @total: MRs allocated now
 * @in_use: MRs mapped now
 * @peak: most MRs in use at once in the current trim period
 * @max_pages: pages one MR maps (the largest mappable fragment list)
 * @maps: successful kib_mr_map() calls
 * @exhausted: kib_mr_map() calls that returned -EAGAIN
 * @reg_failures: failed registrations: ib_map_mr_sg() or an error
 *	completion of REG_MR/LOCAL_INV
 * @invalidations: LOCAL_INV work requests handed out
 * @grown: chunks added
 * @grow_failures: chunk allocations that failed
 * @trimmed: MRs freed because the pool was idle
 * @retired: MRs freed because their state was unknown
 */
struct kib_mr_pool_stats {
	unsigned int	total;
	unsigned int	in_use;
	unsigned int	peak;
	unsigned int	max_pages;
	u64		maps;
	u64		exhausted;
	u64		reg_failures;
	u64		invalidations;
	u64		grown;
	u64		grow_failures;
	u64		trimmed;
	u64		retired;
};

/*
 * kib_mr_pool_create(): allocates the first chunk; may sleep.  ERR_PTR:
 *	-EOPNOTSUPP (no fast registration), -ENOMEM.
 * kib_mr_pool_destroy(): may sleep; after the caller drained its QPs.
 *	Maps still outstanding are a bug: WARN, and their MRs are leaked
 *	(a later kib_mr_unmap() of them is safe) rather than freed under
 *	the hardware.
 * kib_mr_map(): any context (no sleep).  0, or -EAGAIN (pool exhausted:
 *	queue and retry after @wake), -EINVAL (the list cannot be mapped by
 *	one MR: see kib_mr_sg_pages(); fail the transfer), -EIO (device
 *	refused the mapping), -ESHUTDOWN (pool being destroyed).
 * kib_mr_unmap(): any context.  Only after every WR posted with the map
 *	has completed (or was never posted).  @status 0: the chain was posted
 *	and completed successfully; anything else: the MR's state is unknown
 *	and the MR is retired (freed and later replaced), never reused.
 */
struct kib_mr_pool *kib_mr_pool_create(struct ib_pd *pd,
				       const struct kib_mr_pool_params *params);
void kib_mr_pool_destroy(struct kib_mr_pool *pool);
void kib_mr_pool_stats(struct kib_mr_pool *pool,
		       struct kib_mr_pool_stats *out);
unsigned int kib_mr_pool_max_pages(const struct kib_mr_pool *pool);
u32 kib_mr_pool_local_lkey(const struct kib_mr_pool *pool);

int kib_mr_map(struct kib_mr_pool *pool, struct scatterlist *sgl,
	       int sg_nents, int access, struct kib_mr_map *map);
void kib_mr_unmap(struct kib_mr_map *map, int status);

/**
 * kib_mr_map_chain() - put a map's work requests ahead of the caller's
 * @map: a map from kib_mr_map()
 * @wr: the caller's first work request (e.g. the SEND of PUT_ACK); must
 *	be signaled, or be followed by a signaled one
 *
 * Return: the head of the chain to pass to ib_post_send(): the map's
 * first work request, or @wr if the map needs none.
 */
static inline struct ib_send_wr *kib_mr_map_chain(struct kib_mr_map *map,
						  struct ib_send_wr *wr)
{
	if (!map->first_wr)
		return wr;
	map->last_wr->next = wr;
	return map->first_wr;
}

/* Pure helpers (no device), KUnit-tested. */
int kib_mr_sg_pages(struct scatterlist *sgl, int nents,
		    unsigned int max_pages);
int kib_mr_kiov_to_sg(const struct bio_vec *kiov, unsigned int nkiov,
		      unsigned int offset, unsigned int nob,
		      struct scatterlist *sgl, unsigned int max_nents);
unsigned int kib_mr_pool_grow_count(unsigned int total, unsigned int nfree,
				    const struct kib_mr_pool_params *params);
unsigned int kib_mr_pool_trim_count(unsigned int total, unsigned int peak,
				    unsigned int pool_size);

#endif /* _KO2IBLND_MR_H */
