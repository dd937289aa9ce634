// SPDX-License-Identifier: GPL-2.0
/*
 * ko2iblnd memory registration pools: fast registration (IB_WR_REG_MR)
 * MRs, one pool per protection domain shared by all its connections,
 * grown in chunks on demand and trimmed when idle.  Interface and rules
 * in mr.h, design in Documentation/o2iblnd-mr.rst.
 */
#include <linux/bvec.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <kunit/visibility.h>

#include "mr.h"
#include "wire.h"

/* After a failed chunk allocation, do not try again sooner than this. */
#define KIB_MR_GROW_RETRY	HZ

/*
 * One MR.  The work requests live here rather than in the caller's map so
 * that a tx carries only a small struct kib_mr_map.
 */
struct kib_mr {
	struct list_head	list;	/* pool->free or pool->dead */
	struct kib_mr_pool	*pool;
	struct ib_mr		*mr;
	struct ib_cqe		cqe;	/* error completions of inv_wr/reg_wr */
	struct ib_send_wr	inv_wr;
	struct ib_reg_wr	reg_wr;
	/* registered on the HCA: LOCAL_INV before the next REG_MR */
	bool			valid;
	/* a work request on it failed: its state is unknown, retire it */
	bool			failed;
};

struct kib_mr_pool {
	struct ib_pd			*pd;
	struct kib_mr_pool_params	params;
	unsigned int			max_pages;

	spinlock_t			lock;	/* everything below */
	/* LIFO: maps take the hottest MR, trimming frees the coldest */
	struct list_head		free;
	struct list_head		dead;	/* to deregister in a work */
	struct kib_mr_pool_stats	stats;	/* total, in_use, counters */
	unsigned long			grow_after;	/* jiffies */
	bool				waiting;	/* -EAGAIN given out */
	bool				shutdown;	/* being destroyed */
	bool				orphaned;	/* destroyed, maps out */
	/* rxe: invalidate before every registration, never change keys */
	bool				stable_keys;

	struct delayed_work		grow_work;
	struct delayed_work		trim_work;
};

/**
 * kib_mr_pool_grow_count() - how many MRs to add to a pool now
 * @total: MRs in the pool
 * @nfree: MRs not mapped
 * @params: the pool's sizing (0 fields take their defaults)
 *
 * Grows by one chunk of @params->pool_size once fewer than
 * pool_size - flush_trigger MRs are free (at least: once none is), so a
 * busy pool grows in the background before maps see -EAGAIN; never
 * beyond @params->max_mrs.
 *
 * Return: the number of MRs to allocate, 0 for none.
 */
unsigned int kib_mr_pool_grow_count(unsigned int total, unsigned int nfree,
				    const struct kib_mr_pool_params *params)
{
	unsigned int size = params->pool_size ?: KIB_MR_POOL_SIZE;
	unsigned int low = size > params->flush_trigger ?
			   size - params->flush_trigger : 1;
	unsigned int max = params->max_mrs;

	if (nfree >= low)
		return 0;
	if (max && total >= max)
		return 0;
	if (max && size > max - total)
		return max - total;
	return size;
}
EXPORT_SYMBOL_IF_KUNIT(kib_mr_pool_grow_count);

/**
 * kib_mr_pool_trim_count() - how many idle MRs to free
 * @total: MRs in the pool
 * @peak: most MRs in use at once during the last idle period
 * @pool_size: MRs per chunk (0: the default)
 *
 * Keeps what the period needed, rounded up to whole chunks, and never less
 * than one chunk: the rest has been idle for a whole period.
 *
 * Return: the number of MRs to free, 0 for none.
 */
unsigned int kib_mr_pool_trim_count(unsigned int total, unsigned int peak,
				    unsigned int pool_size)
{
	unsigned int size = pool_size ?: KIB_MR_POOL_SIZE;
	unsigned int keep = max(roundup(peak, size), size);

	return total > keep ? total - keep : 0;
}
EXPORT_SYMBOL_IF_KUNIT(kib_mr_pool_trim_count);

/**
 * kib_mr_sg_pages() - can one MR map this DMA-mapped scatterlist?
 * @sgl: the list, after ib_dma_map_sg() (its DMA addresses are checked)
 * @nents: entries in @sgl (what ib_dma_map_sg() returned)
 * @max_pages: pages an MR maps (kib_mr_pool_max_pages())
 *
 * An MR maps a list of PAGE_SIZE pages, so only the first entry may start
 * inside a page and only the last may end inside one; between them every
 * boundary is a page boundary, or the entries are contiguous.  Anything
 * else ib_map_mr_sg() would map short.  The caller then cannot advertise
 * the buffer as one fragment: it fails the transfer with -EINVAL (PUT_NAK
 * or GET_DONE with the status), as Lustre does.
 *
 * Return: the number of pages the list spans, -EINVAL if it has a gap (or
 * is empty, or has an empty entry), -E2BIG if it spans more than
 * @max_pages.
 */
int kib_mr_sg_pages(struct scatterlist *sgl, int nents,
		    unsigned int max_pages)
{
	const u64 mask = PAGE_SIZE - 1;
	struct scatterlist *sg;
	u64 prev_end = 0;
	u64 pages = 0;
	int i;

	if (nents <= 0)
		return -EINVAL;

	for_each_sg(sgl, sg, nents, i) {
		u64 start = sg_dma_address(sg);
		u32 len = sg_dma_len(sg);

		if (!len)
			return -EINVAL;
		pages += ((start + len - 1) >> PAGE_SHIFT) -
			 (start >> PAGE_SHIFT) + 1;
		if (i > 0 && start == prev_end) {
			/* contiguous: mid-page, the page is already counted */
			if (start & mask)
				pages--;
		} else if (i > 0 && ((prev_end & mask) || (start & mask))) {
			return -EINVAL;
		}
		prev_end = start + len;
	}
	return pages > max_pages ? -E2BIG : (int)pages;
}
EXPORT_SYMBOL_IF_KUNIT(kib_mr_sg_pages);

/**
 * kib_mr_kiov_to_sg() - a scatterlist for part of an LNet page list
 * @kiov: the fragments (LNet's kiov)
 * @nkiov: entries in @kiov
 * @offset: bytes of @kiov to skip
 * @nob: bytes to take from there
 * @sgl: out: at least @max_nents entries
 * @max_nents: capacity of @sgl (the negotiated max_frags, at most
 *	kib_mr_pool_max_pages())
 *
 * Also checks the page rule of kib_mr_sg_pages() on the pages (interior
 * fragments whole pages), so a list one MR cannot map is refused before
 * it is DMA-mapped.  The list is terminated; DMA-map it with
 * ib_dma_map_sg().
 *
 * Return: the number of entries used, -EINVAL if @nob is 0, runs past the
 * end of @kiov, or the fragments have a gap, -E2BIG if more than
 * @max_nents entries are needed.
 */
int kib_mr_kiov_to_sg(const struct bio_vec *kiov, unsigned int nkiov,
		      unsigned int offset, unsigned int nob,
		      struct scatterlist *sgl, unsigned int max_nents)
{
	const unsigned int mask = PAGE_SIZE - 1;
	struct scatterlist *sg = NULL;
	unsigned int n = 0;

	if (!nob)
		return -EINVAL;

	while (nkiov && offset >= kiov->bv_len) {
		offset -= kiov->bv_len;
		kiov++;
		nkiov--;
	}

	sg_init_table(sgl, max_nents);
	for (; nob; kiov++, nkiov--, offset = 0) {
		unsigned int start, frag;

		if (!nkiov)
			return -EINVAL;
		frag = min(kiov->bv_len - offset, nob);
		start = kiov->bv_offset + offset;
		if (!frag)
			continue;
		/* interior boundaries must be page boundaries */
		if (n > 0 && (start & mask))
			return -EINVAL;
		if (nob > frag && ((start + frag) & mask))
			return -EINVAL;
		if (n == max_nents)
			return -E2BIG;
		sg = sg ? sg_next(sg) : sgl;
		sg_set_page(sg, kiov->bv_page, frag, start);
		nob -= frag;
		n++;
	}
	sg_mark_end(sg);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(kib_mr_kiov_to_sg);

/*
 * The pool's work requests are unsignaled, so only their failures (and
 * flushes) complete.  Mark the MR: its key on the HCA is now unknown, so
 * a LOCAL_INV with the key we believe in could fail and take the next
 * user's QP down with it.  kib_mr_unmap() retires it instead.
 */
static void kib_mr_wr_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct kib_mr *fmr = container_of(wc->wr_cqe, struct kib_mr, cqe);
	struct kib_mr_pool *pool = fmr->pool;
	unsigned long flags;

	if (wc->status == IB_WC_SUCCESS)
		return;
	WRITE_ONCE(fmr->failed, true);
	if (wc->status == IB_WC_WR_FLUSH_ERR)
		return;
	spin_lock_irqsave(&pool->lock, flags);
	pool->stats.reg_failures++;
	spin_unlock_irqrestore(&pool->lock, flags);
	pr_warn_ratelimited("ko2iblnd: %s: memory registration failed: %s (%d)\n",
			    dev_name(&pool->pd->device->dev),
			    ib_wc_status_msg(wc->status), wc->status);
}

static void kib_mr_free_list(struct list_head *list)
{
	struct kib_mr *fmr, *tmp;

	list_for_each_entry_safe(fmr, tmp, list, list) {
		list_del(&fmr->list);
		ib_dereg_mr(fmr->mr);
		kfree(fmr);
	}
}

/* Allocate up to @n MRs onto @list; may sleep.  Return: how many. */
static unsigned int kib_mr_alloc(struct kib_mr_pool *pool, unsigned int n,
				 struct list_head *list, int *err)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct kib_mr *fmr = kzalloc(sizeof(*fmr), GFP_KERNEL);

		if (!fmr) {
			*err = -ENOMEM;
			break;
		}
		fmr->mr = ib_alloc_mr(pool->pd, IB_MR_TYPE_MEM_REG,
				      pool->max_pages);
		if (IS_ERR(fmr->mr)) {
			*err = PTR_ERR(fmr->mr);
			kfree(fmr);
			break;
		}
		fmr->pool = pool;
		fmr->cqe.done = kib_mr_wr_done;
		list_add_tail(&fmr->list, list);
	}
	return i;
}

/* Under pool->lock: start growing (or deregistering) if there is need. */
static void kib_mr_pool_kick(struct kib_mr_pool *pool)
{
	struct kib_mr_pool_stats *st = &pool->stats;
	long delay;

	if (pool->shutdown)
		return;
	if (list_empty(&pool->dead) &&
	    !kib_mr_pool_grow_count(st->total, st->total - st->in_use,
				    &pool->params))
		return;
	delay = (long)(pool->grow_after - jiffies);
	queue_delayed_work(system_unbound_wq, &pool->grow_work,
			   delay > 0 ? delay : 0);
}

static void kib_mr_pool_grow_work(struct work_struct *work)
{
	struct kib_mr_pool *pool = container_of(to_delayed_work(work),
						struct kib_mr_pool, grow_work);
	struct kib_mr_pool_stats *st = &pool->stats;
	void (*wake)(void *arg) = NULL;
	LIST_HEAD(dead);
	LIST_HEAD(new);
	unsigned int n, got;
	int err = 0;

	spin_lock_irq(&pool->lock);
	list_splice_init(&pool->dead, &dead);
	n = kib_mr_pool_grow_count(st->total, st->total - st->in_use,
				   &pool->params);
	spin_unlock_irq(&pool->lock);

	kib_mr_free_list(&dead);
	if (!n)
		return;

	got = kib_mr_alloc(pool, n, &new, &err);

	spin_lock_irq(&pool->lock);
	list_splice_tail(&new, &pool->free);
	st->total += got;
	if (got)
		st->grown++;
	if (got < n) {
		st->grow_failures++;
		pool->grow_after = jiffies + KIB_MR_GROW_RETRY;
		pr_warn_ratelimited("ko2iblnd: %s: MR pool grew by %u of %u: %d\n",
				    dev_name(&pool->pd->device->dev), got, n,
				    err);
		/* someone waits for an MR and none will come back: retry */
		if (pool->waiting && !st->in_use && !got && !pool->shutdown)
			queue_delayed_work(system_unbound_wq, &pool->grow_work,
					   KIB_MR_GROW_RETRY);
	}
	if (pool->waiting && !list_empty(&pool->free)) {
		pool->waiting = false;
		wake = pool->params.wake;
	}
	spin_unlock_irq(&pool->lock);

	if (wake)
		wake(pool->params.wake_arg);
}

static void kib_mr_pool_trim_work(struct work_struct *work)
{
	struct kib_mr_pool *pool = container_of(to_delayed_work(work),
						struct kib_mr_pool, trim_work);
	struct kib_mr_pool_stats *st = &pool->stats;
	LIST_HEAD(idle);
	unsigned int n;

	spin_lock_irq(&pool->lock);
	n = kib_mr_pool_trim_count(st->total, st->peak,
				   pool->params.pool_size);
	/* peak >= in_use, so n <= free MRs; but be defensive */
	n = min(n, st->total - st->in_use);
	st->total -= n;
	st->trimmed += n;
	st->peak = st->in_use;
	while (n--)
		list_move(pool->free.prev, &idle);	/* the coldest */
	if (!pool->shutdown)
		queue_delayed_work(system_unbound_wq, &pool->trim_work,
				   pool->params.idle_secs * HZ);
	spin_unlock_irq(&pool->lock);

	kib_mr_free_list(&idle);
}

/**
 * kib_mr_pool_create() - a memory registration pool for a PD
 * @pd: the protection domain every user of the pool registers in
 * @params: sizing; copied
 *
 * Allocates the first chunk.  May sleep.
 *
 * Return: the pool, ERR_PTR(-EOPNOTSUPP) if the device cannot do fast
 * registration, or another ERR_PTR if the first MR cannot be allocated.
 */
struct kib_mr_pool *kib_mr_pool_create(struct ib_pd *pd,
				       const struct kib_mr_pool_params *params)
{
	const struct ib_device_attr *attrs = &pd->device->attrs;
	struct kib_mr_pool *pool;
	unsigned int n, got;
	LIST_HEAD(new);
	int err = 0;

	if (!(attrs->device_cap_flags & IB_DEVICE_MEM_MGT_EXTENSIONS) ||
	    !attrs->max_fast_reg_page_list_len)
		return ERR_PTR(-EOPNOTSUPP);

	pool = kzalloc(sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return ERR_PTR(-ENOMEM);

	pool->pd = pd;
	pool->params = *params;
	/*
	 * Soft-RoCE (Linux 6.1 at least) executes a queue's local work
	 * requests again when a transport retry rewinds the queue to an
	 * earlier, unacknowledged send: a REG_MR again on a registered MR
	 * fails ("not free"), a LOCAL_INV of the previous key after the new
	 * key's REG_MR fails, and the QP stalls.  On rxe every registration
	 * is therefore LOCAL_INV + REG_MR with the MR's one key, which
	 * repeats harmlessly; the cost is the stale-key protection below.
	 */
	pool->stable_keys = pd->device->ops.driver_id == RDMA_DRIVER_RXE;
	if (!pool->params.pool_size)
		pool->params.pool_size = KIB_MR_POOL_SIZE;
	if (!pool->params.idle_secs)
		pool->params.idle_secs = KIB_MR_IDLE_SECS;
	pool->max_pages = min_t(unsigned int, IBLND_MAX_RDMA_FRAGS,
				attrs->max_fast_reg_page_list_len);
	pool->stats.max_pages = pool->max_pages;
	spin_lock_init(&pool->lock);
	INIT_LIST_HEAD(&pool->free);
	INIT_LIST_HEAD(&pool->dead);
	INIT_DELAYED_WORK(&pool->grow_work, kib_mr_pool_grow_work);
	INIT_DELAYED_WORK(&pool->trim_work, kib_mr_pool_trim_work);

	n = pool->params.pool_size;
	if (pool->params.max_mrs)
		n = min(n, pool->params.max_mrs);
	got = kib_mr_alloc(pool, n, &new, &err);
	if (!got) {
		kfree(pool);
		return ERR_PTR(err);
	}
	list_splice(&new, &pool->free);
	pool->stats.total = got;
	pool->stats.grown = 1;

	queue_delayed_work(system_unbound_wq, &pool->trim_work,
			   pool->params.idle_secs * HZ);
	return pool;
}

/**
 * kib_mr_pool_destroy() - free a pool
 * @pool: from kib_mr_pool_create()
 *
 * Call after every QP that used the pool is drained, i.e. every map has
 * been unmapped.  If some are not, that is a bug: WARN, and leave their
 * MRs registered (the device may be going away; deregistering an MR the
 * hardware may still use is worse than leaking it).  The pool structure
 * then lives on until the last of them is unmapped.  May sleep.
 */
void kib_mr_pool_destroy(struct kib_mr_pool *pool)
{
	unsigned int outstanding;
	LIST_HEAD(list);

	spin_lock_irq(&pool->lock);
	pool->shutdown = true;
	spin_unlock_irq(&pool->lock);

	cancel_delayed_work_sync(&pool->grow_work);
	cancel_delayed_work_sync(&pool->trim_work);

	spin_lock_irq(&pool->lock);
	list_splice_init(&pool->free, &list);
	list_splice_init(&pool->dead, &list);
	outstanding = pool->stats.in_use;
	pool->orphaned = outstanding > 0;
	spin_unlock_irq(&pool->lock);

	kib_mr_free_list(&list);
	if (WARN(outstanding, "ko2iblnd: %s: MR pool destroyed with %u MRs mapped; leaking them\n",
		 dev_name(&pool->pd->device->dev), outstanding))
		return;
	kfree(pool);
}

/**
 * kib_mr_map() - register a DMA-mapped buffer for the peer
 * @pool: the pool of the PD the QP belongs to
 * @sgl: the buffer, DMA-mapped (see kib_mr_sg_pages() for what one MR
 *	can map)
 * @sg_nents: entries of @sgl, as ib_dma_map_sg() returned
 * @access: IB_ACCESS_* (a sink: IB_ACCESS_LOCAL_WRITE |
 *	IB_ACCESS_REMOTE_WRITE)
 * @map: out: the key, address and length to advertise, and the work
 *	requests to post before the caller's (kib_mr_map_chain())
 *
 * Never sleeps.  The registration takes effect when the work requests
 * execute, so the caller must post them on a QP of @pool's PD, ahead of
 * the message that advertises the key.
 *
 * Return: 0; -EAGAIN if every MR is in use (the pool grows in the
 * background; params->wake is called when one is free); -EINVAL if one MR
 * cannot map the list; -EIO if the device does not map it all;
 * -ESHUTDOWN if the pool is being destroyed.
 */
int kib_mr_map(struct kib_mr_pool *pool, struct scatterlist *sgl,
	       int sg_nents, int access, struct kib_mr_map *map)
{
	struct kib_mr_pool_stats *st = &pool->stats;
	struct ib_send_wr *first = NULL;
	unsigned long flags;
	struct kib_mr *fmr;
	struct ib_mr *mr;
	int rc;

	memset(map, 0, sizeof(*map));

	rc = kib_mr_sg_pages(sgl, sg_nents, pool->max_pages);
	if (rc < 0)
		return -EINVAL;

	spin_lock_irqsave(&pool->lock, flags);
	if (pool->shutdown) {
		spin_unlock_irqrestore(&pool->lock, flags);
		return -ESHUTDOWN;
	}
	fmr = list_first_entry_or_null(&pool->free, struct kib_mr, list);
	if (!fmr) {
		st->exhausted++;
		pool->waiting = true;
		kib_mr_pool_kick(pool);
		spin_unlock_irqrestore(&pool->lock, flags);
		return -EAGAIN;
	}
	list_del(&fmr->list);
	st->in_use++;
	st->peak = max(st->peak, st->in_use);
	kib_mr_pool_kick(pool);
	spin_unlock_irqrestore(&pool->lock, flags);

	/* The MR is ours alone now. */
	mr = fmr->mr;
	rc = ib_map_mr_sg(mr, sgl, sg_nents, NULL, PAGE_SIZE);
	if (rc != sg_nents) {
		/* Software state only: nothing reached the HCA. */
		spin_lock_irqsave(&pool->lock, flags);
		st->reg_failures++;
		st->in_use--;
		list_add(&fmr->list, &pool->free);
		spin_unlock_irqrestore(&pool->lock, flags);
		return -EIO;
	}

	/*
	 * A valid registration must be invalidated before REG_MR (the MR has
	 * to be free).  We do it lazily here, in the same chain, rather than
	 * at unmap: the pool has no QP of its own, and it costs no extra
	 * round trip.
	 */
	if (fmr->valid || pool->stable_keys) {
		fmr->inv_wr = (struct ib_send_wr) {
			.opcode = IB_WR_LOCAL_INV,
			.wr_cqe = &fmr->cqe,
			.ex.invalidate_rkey = mr->rkey,
			.next = &fmr->reg_wr.wr,
		};
		first = &fmr->inv_wr;
	}

	/*
	 * A new key for every registration, so a peer still holding the
	 * previous one (e.g. after a timed-out transfer) cannot write into
	 * the new buffer.
	 */
	if (!pool->stable_keys)
		ib_update_fast_reg_key(mr, ib_inc_rkey(mr->rkey));
	fmr->reg_wr = (struct ib_reg_wr) {
		.wr = {
			.opcode = IB_WR_REG_MR,
			.wr_cqe = &fmr->cqe,
		},
		.mr = mr,
		.key = mr->rkey,
		.access = access,
	};
	fmr->valid = true;
	fmr->failed = false;

	map->key = mr->rkey;
	map->iova = mr->iova;
	map->nob = mr->length;
	map->first_wr = first ?: &fmr->reg_wr.wr;
	map->last_wr = &fmr->reg_wr.wr;
	map->mr = fmr;

	spin_lock_irqsave(&pool->lock, flags);
	st->maps++;
	if (first)
		st->invalidations++;
	spin_unlock_irqrestore(&pool->lock, flags);
	return 0;
}

/**
 * kib_mr_unmap() - give a registration back to the pool
 * @map: from a successful kib_mr_map(); cleared.  A cleared or zeroed map
 *	is ignored, so a caller may always call this on its tx.
 * @status: 0 if the map's work requests were posted and the caller's
 *	signaled work request after them completed successfully; otherwise
 *	the MR's state on the HCA is unknown and it is retired (freed in a
 *	work, replaced by growth when needed).
 *
 * Call only when no work request using the map is outstanding.  The
 * registration stays valid on the HCA until the MR's next use invalidates
 * it (see Documentation/o2iblnd-mr.rst).  Never sleeps.
 */
void kib_mr_unmap(struct kib_mr_map *map, int status)
{
	struct kib_mr *fmr = map->mr;
	void (*wake)(void *arg) = NULL;
	struct kib_mr_pool *pool;
	struct kib_mr_pool_stats *st;
	unsigned long flags;
	bool free_pool;

	memset(map, 0, sizeof(*map));
	if (!fmr)
		return;
	pool = fmr->pool;
	st = &pool->stats;

	spin_lock_irqsave(&pool->lock, flags);
	st->in_use--;
	if (pool->orphaned) {
		/* destroyed: the device may be gone, leak the MR itself */
		free_pool = !st->in_use;
		spin_unlock_irqrestore(&pool->lock, flags);
		kfree(fmr);
		if (free_pool)
			kfree(pool);
		return;
	}
	if (status || READ_ONCE(fmr->failed)) {
		list_add(&fmr->list, &pool->dead);
		st->total--;
		st->retired++;
	} else {
		list_add(&fmr->list, &pool->free);
	}
	kib_mr_pool_kick(pool);
	if (pool->waiting && !list_empty(&pool->free) && !pool->shutdown) {
		pool->waiting = false;
		wake = pool->params.wake;
	}
	spin_unlock_irqrestore(&pool->lock, flags);

	if (wake)
		wake(pool->params.wake_arg);
}

/**
 * kib_mr_pool_stats() - a snapshot of a pool's counters
 * @pool: the pool
 * @out: filled in
 */
void kib_mr_pool_stats(struct kib_mr_pool *pool,
		       struct kib_mr_pool_stats *out)
{
	unsigned long flags;

	spin_lock_irqsave(&pool->lock, flags);
	*out = pool->stats;
	spin_unlock_irqrestore(&pool->lock, flags);
}

/**
 * kib_mr_pool_max_pages() - the largest list one map can take
 * @pool: the pool
 *
 * Return: pages per MR: IBLND_MAX_RDMA_FRAGS, or fewer if the device's
 * max_fast_reg_page_list_len is smaller.  A connection should not accept
 * a max_frags above it (IBLND_REJECT_RDMA_FRAGS).
 */
unsigned int kib_mr_pool_max_pages(const struct kib_mr_pool *pool)
{
	return pool->max_pages;
}

/**
 * kib_mr_pool_local_lkey() - the key for buffers only this node accesses
 * @pool: the pool
 *
 * Return: the PD's local_dma_lkey, to use with DMA addresses in SGEs of
 * sends and of RDMA WRITE sources, which need no MR.
 */
u32 kib_mr_pool_local_lkey(const struct kib_mr_pool *pool)
{
	return pool->pd->local_dma_lkey;
}
