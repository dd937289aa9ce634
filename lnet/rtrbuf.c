// SPDX-License-Identifier: GPL-2.0
/*
 * Router buffer pools (routing spec 4.2): tiny (no page, for header-only
 * messages), small (one page) and large (1 MiB) buffers that a router
 * receives a forwarded message's payload into and sends it onward from.
 *
 * A pool's credits are its idle buffers less the messages waiting for
 * one: a message takes a credit and an idle buffer, or waits (FIFO) when
 * the credit count went negative; a buffer that comes back goes straight
 * to the oldest waiter.  Growing allocates at once; shrinking is lazy,
 * buffers above the wanted count being freed as they come back, as
 * stock does; a pool of a router whose routing is disabled frees every
 * buffer that comes back with no waiter.  This stack has one CPT: one
 * pool of each size, holding the whole total.
 *
 * The accounting (lnet_rtrpool_*()) knows nothing of LNet and is tested
 * by KUnit (kunit/lnet_router_test.c); the node's pools are under the
 * LNet lock.
 */
#include <linux/bvec.h>
#include <linux/export.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include <kunit/visibility.h>

#include <lnet/lib-lnet.h>
#include <lnet/router.h>

static int tiny_router_buffers;
module_param(tiny_router_buffers, int, 0444);
MODULE_PARM_DESC(tiny_router_buffers,
		 "# of 0 payload messages to buffer in the router (0: 2048)");
static int small_router_buffers;
module_param(small_router_buffers, int, 0444);
MODULE_PARM_DESC(small_router_buffers,
		 "# of small (1 page) messages to buffer in the router (0: 16384)");
static int large_router_buffers;
module_param(large_router_buffers, int, 0444);
MODULE_PARM_DESC(large_router_buffers,
		 "# of large messages to buffer in the router (0: 1024)");

static int *const lnet_rtrpool_params[LNET_RTRPOOL_COUNT] = {
	&tiny_router_buffers, &small_router_buffers, &large_router_buffers,
};

static const int lnet_rtrpool_defaults[LNET_RTRPOOL_COUNT] = {
	LNET_RTR_TINY_DEFAULT, LNET_RTR_SMALL_DEFAULT, LNET_RTR_LARGE_DEFAULT,
};

static const int lnet_rtrpool_mins[LNET_RTRPOOL_COUNT] = {
	LNET_RTR_TINY_MIN, LNET_RTR_SMALL_MIN, LNET_RTR_LARGE_MIN,
};

static struct lnet_rtrpool lnet_rtrpools[LNET_RTRPOOL_COUNT];
static bool lnet_rtrpools_made;

/**
 * lnet_rtrpool_idx() - the pool a payload of @len bytes takes
 * @len: payload_length (at most %LNET_MTU, checked by the header parser)
 *
 * The smallest pool whose buffers hold it (spec 4.2): tiny for 0 bytes
 * (GET, ACK, empty PUT or REPLY), small up to a page, else large.
 *
 * Return: the pool's index.
 */
enum lnet_rtrpool_idx lnet_rtrpool_idx(unsigned int len)
{
	if (!len)
		return LNET_RTRPOOL_TINY;
	if (len <= PAGE_SIZE)
		return LNET_RTRPOOL_SMALL;
	return LNET_RTRPOOL_LARGE;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_rtrpool_idx);

/**
 * lnet_rtrpool_npages() - pages of a buffer of pool @idx
 * @idx: the pool
 *
 * Return: 0, 1, or enough pages for %LNET_MTU (256 with 4 KiB pages).
 */
unsigned int lnet_rtrpool_npages(enum lnet_rtrpool_idx idx)
{
	if (idx == LNET_RTRPOOL_TINY)
		return 0;
	if (idx == LNET_RTRPOOL_SMALL)
		return 1;
	return DIV_ROUND_UP(LNET_MTU, PAGE_SIZE);
}
EXPORT_SYMBOL_IF_KUNIT(lnet_rtrpool_npages);

/**
 * lnet_rtrpool_init() - an empty pool
 * @rp: the pool
 * @npages: pages per buffer
 */
void lnet_rtrpool_init(struct lnet_rtrpool *rp, unsigned int npages)
{
	memset(rp, 0, sizeof(*rp));
	rp->rp_npages = npages;
	INIT_LIST_HEAD(&rp->rp_idle);
	INIT_LIST_HEAD(&rp->rp_waiters);
}
EXPORT_SYMBOL_IF_KUNIT(lnet_rtrpool_init);

/**
 * lnet_rtrpool_take() - take a pool credit, or queue for one
 * @rp: the pool
 * @waiter: the message's list entry, queued at the tail if none is left
 *
 * Return: true if an idle buffer is there for the caller to take
 * (lnet_rtrpool_get_idle()); false if @waiter now waits for one.
 */
bool lnet_rtrpool_take(struct lnet_rtrpool *rp, struct list_head *waiter)
{
	rp->rp_credits--;
	if (rp->rp_credits < rp->rp_mincredits)
		rp->rp_mincredits = rp->rp_credits;
	if (rp->rp_credits >= 0)
		return true;
	list_add_tail(waiter, &rp->rp_waiters);
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_rtrpool_take);

/**
 * lnet_rtrpool_get_idle() - an idle buffer, for a credit just taken
 * @rp: the pool
 *
 * Return: the buffer, off the idle list.
 */
struct lnet_rtrbuf *lnet_rtrpool_get_idle(struct lnet_rtrpool *rp)
{
	struct lnet_rtrbuf *rb;

	rb = list_first_entry_or_null(&rp->rp_idle, struct lnet_rtrbuf,
				      rb_list);
	if (!WARN_ON(!rb))
		list_del_init(&rb->rb_list);
	return rb;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_rtrpool_get_idle);

/**
 * lnet_rtrpool_put() - a buffer comes back (or is new)
 * @rp: its pool, which counts it in rp_nbuffers
 * @rb: the buffer
 * @keep: routing is on: a buffer nobody waits for stays, unless the pool
 *	holds more than it wants
 * @freed: a buffer to free is moved here
 *
 * Return: the oldest waiter's list entry, dequeued: @rb is now its
 * buffer; or NULL (@rb went idle or to @freed).
 */
struct list_head *lnet_rtrpool_put(struct lnet_rtrpool *rp,
				   struct lnet_rtrbuf *rb, bool keep,
				   struct list_head *freed)
{
	struct list_head *w;

	if (!list_empty(&rp->rp_waiters)) {
		rp->rp_credits++;
		w = rp->rp_waiters.next;
		list_del_init(w);
		return w;
	}
	if (!keep || rp->rp_nbuffers > rp->rp_req) {
		rp->rp_nbuffers--;
		list_add_tail(&rb->rb_list, freed);
		return NULL;
	}
	rp->rp_credits++;
	list_add_tail(&rb->rb_list, &rp->rp_idle);
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_rtrpool_put);

/**
 * lnet_rtrpool_idle() - is every buffer of a pool idle?
 * @rp: the pool
 *
 * Return: no buffer is in use and no message waits for one.
 */
bool lnet_rtrpool_idle(const struct lnet_rtrpool *rp)
{
	return rp->rp_credits == rp->rp_nbuffers;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_rtrpool_idle);

/**
 * lnet_rtrpool_count() - a pool's buffer count from its total
 * @total: the module parameter or lnetctl value: 0 means the default
 * @dflt: the default total
 *
 * The total is divided among the CPTs (one here), at least one each.
 *
 * Return: the count, or -EINVAL for a negative total.
 */
int lnet_rtrpool_count(int total, int dflt)
{
	if (total < 0)
		return -EINVAL;
	return max(total ? total : dflt, 1);
}
EXPORT_SYMBOL_IF_KUNIT(lnet_rtrpool_count);

/**
 * lnet_rtrpool_of() - the node's pool @idx
 * @idx: the pool
 *
 * Return: the pool.
 */
struct lnet_rtrpool *lnet_rtrpool_of(enum lnet_rtrpool_idx idx)
{
	return &lnet_rtrpools[idx];
}

/**
 * lnet_rtrpool_param() - a pool's stored total (0: the default)
 * @idx: the pool
 *
 * Return: the value of its module parameter, as lnetctl last set it.
 */
int lnet_rtrpool_param(enum lnet_rtrpool_idx idx)
{
	return READ_ONCE(*lnet_rtrpool_params[idx]);
}

/**
 * lnet_rtrpool_param_set() - store a pool's total, as stock does
 * @idx: the pool
 * @total: the new value (0: the default)
 */
void lnet_rtrpool_param_set(enum lnet_rtrpool_idx idx, int total)
{
	WRITE_ONCE(*lnet_rtrpool_params[idx], total);
}

static void lnet_rtrbuf_free(struct lnet_rtrbuf *rb)
{
	struct lnet_libmd *md = rb->rb_md;
	unsigned int i;

	if (md) {
		for (i = 0; i < md->md_niov; i++)
			__free_page(md->md_kiov[i].bv_page);
		kfree(md);
	}
	kfree(rb);
}

/**
 * lnet_rtrbufs_free() - free buffers a pool let go
 * @freed: the buffers (lnet_rtrpool_put()'s @freed)
 */
void lnet_rtrbufs_free(struct list_head *freed)
{
	struct lnet_rtrbuf *rb, *tmp;

	list_for_each_entry_safe(rb, tmp, freed, rb_list) {
		list_del(&rb->rb_list);
		lnet_rtrbuf_free(rb);
	}
}

/*
 * A pool's buffers are many pages (stock's default large pool alone is
 * 256 MiB): one that does not fit fails "set routing 1" or the resize
 * with -ENOMEM instead of waking the OOM killer.
 */
#define LNET_RTRBUF_GFP	(GFP_KERNEL | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

/* A new buffer of @npages zeroed pages, with its MD (may sleep). */
static struct lnet_rtrbuf *lnet_rtrbuf_alloc(struct lnet_rtrpool *rp)
{
	unsigned int npages = rp->rp_npages;
	struct lnet_rtrbuf *rb;
	struct lnet_libmd *md;
	struct page *page;
	unsigned int i;

	rb = kzalloc(sizeof(*rb), LNET_RTRBUF_GFP);
	if (!rb)
		return NULL;
	INIT_LIST_HEAD(&rb->rb_list);
	rb->rb_pool = rp;
	md = kzalloc(struct_size(md, md_kiov, npages), LNET_RTRBUF_GFP);
	if (!md) {
		kfree(rb);
		return NULL;
	}
	rb->rb_md = md;
	md->md_threshold = LNET_MD_THRESH_INF;
	md->md_user_ptr = rb;
	INIT_LIST_HEAD(&md->md_rsp_list);
	for (i = 0; i < npages; i++) {
		page = alloc_page(LNET_RTRBUF_GFP | __GFP_ZERO);
		if (!page) {
			lnet_rtrbuf_free(rb);
			return NULL;
		}
		bvec_set_page(&md->md_kiov[i], page, PAGE_SIZE, 0);
		md->md_niov++;
	}
	md->md_length = npages * PAGE_SIZE;
	md->md_max_size = md->md_length;
	return rb;
}

/* The messages the new buffers went to join @ready, holding them. */
static void lnet_rtrpool_add_locked(struct lnet_rtrpool *rp,
				    struct list_head *new,
				    struct list_head *ready)
{
	struct lnet_rtrbuf *rb, *tmp;
	struct list_head *w;
	LIST_HEAD(unused);

	list_for_each_entry_safe(rb, tmp, new, rb_list) {
		list_del_init(&rb->rb_list);
		rp->rp_nbuffers++;
		w = lnet_rtrpool_put(rp, rb, true, &unused);
		if (w) {
			lnet_rtrbuf_attach(list_entry(w, struct lnet_msg,
						      msg_list), rb);
			list_add_tail(w, ready);
		}
	}
	WARN_ON(!list_empty(&unused));
}

/**
 * lnet_rtrpools_shrink_idle_locked() - free idle buffers above the counts
 * @all: free every idle buffer (routing is disabled)
 *
 * Buffers in use are freed when they come back (lnet_rtrpool_put()).
 * Context: the LNet lock held.
 */
void lnet_rtrpools_shrink_idle_locked(bool all)
{
	struct lnet_rtrpool *rp;
	struct lnet_rtrbuf *rb;
	LIST_HEAD(freed);
	int i;

	if (!lnet_rtrpools_made)
		return;
	for (i = 0; i < LNET_RTRPOOL_COUNT; i++) {
		rp = &lnet_rtrpools[i];
		while ((all || rp->rp_nbuffers > rp->rp_req) &&
		       rp->rp_credits > 0) {
			rb = lnet_rtrpool_get_idle(rp);
			if (!rb)
				break;
			rp->rp_credits--;
			rp->rp_mincredits = min(rp->rp_mincredits,
						rp->rp_credits);
			rp->rp_nbuffers--;
			list_add_tail(&rb->rb_list, &freed);
		}
	}
	lnet_rtrbufs_free(&freed);
}

/**
 * lnet_rtrpools_resize() - give the pools their counts
 * @totals: per pool, the total wanted (0: the default; negative: refused)
 * @ready: messages that waited and now hold a buffer join it: the caller
 *	hands them to their LND (lnet_fwd_recv_rc())
 *
 * Growing allocates now; shrinking frees idle buffers now and the others
 * as they come back.  On an allocation failure the pools already resized
 * stay so (as stock).
 *
 * Context: process context, under ln_api_mutex; takes the LNet lock.
 * Return: 0, -EINVAL or -ENOMEM.
 */
int lnet_rtrpools_resize(const int *totals, struct list_head *ready)
{
	struct lnet_rtrpool *rp;
	struct lnet_rtrbuf *rb;
	int i, n, want, have;
	LIST_HEAD(new);

	for (i = 0; i < LNET_RTRPOOL_COUNT; i++)
		if (lnet_rtrpool_count(totals[i], 1) < 0)
			return -EINVAL;
	if (!lnet_rtrpools_made) {
		for (i = 0; i < LNET_RTRPOOL_COUNT; i++)
			lnet_rtrpool_init(&lnet_rtrpools[i],
					  lnet_rtrpool_npages(i));
		lnet_rtrpools_made = true;
	}
	for (i = 0; i < LNET_RTRPOOL_COUNT; i++) {
		rp = &lnet_rtrpools[i];
		want = lnet_rtrpool_count(totals[i], lnet_rtrpool_defaults[i]);
		if (want < lnet_rtrpool_mins[i])
			pr_warn_once("lnet: %d %s router buffers are few; %d or more are advised\n",
				     want, i == LNET_RTRPOOL_TINY ? "tiny" :
				     i == LNET_RTRPOOL_SMALL ? "small" : "large",
				     lnet_rtrpool_mins[i]);
		lnet_lock();
		rp->rp_req = want;
		have = rp->rp_nbuffers;
		lnet_unlock();
		for (n = have; n < want; n++) {
			rb = lnet_rtrbuf_alloc(rp);
			if (!rb)
				break;
			list_add_tail(&rb->rb_list, &new);
		}
		lnet_lock();
		/* the low-water mark moves up by what was added */
		rp->rp_mincredits += max(n - have, 0);
		lnet_rtrpool_add_locked(rp, &new, ready);
		lnet_unlock();
		if (n < want)
			return -ENOMEM;
	}
	lnet_lock();
	lnet_rtrpools_shrink_idle_locked(false);
	lnet_unlock();
	return 0;
}

/**
 * lnet_rtrpools_info() - the pools' figures, for "routing show"
 * @info: out, one per pool
 */
void lnet_rtrpools_info(struct lnet_rtrpool_info *info)
{
	int i;

	lnet_lock();
	for (i = 0; i < LNET_RTRPOOL_COUNT; i++) {
		info[i].npages = lnet_rtrpools[i].rp_npages;
		info[i].nbuffers = lnet_rtrpools[i].rp_nbuffers;
		info[i].credits = lnet_rtrpools[i].rp_credits;
		info[i].mincredits = lnet_rtrpools[i].rp_mincredits;
	}
	lnet_unlock();
}

/**
 * lnet_rtrpools_allocated() - were pools ever made (routing enabled once)?
 *
 * Return: true if so; "routing show" prints nothing otherwise.
 */
bool lnet_rtrpools_allocated(void)
{
	return READ_ONCE(lnet_rtrpools_made);
}

/**
 * lnet_rtrbuf_attach() - a forwarded message receives into @rb
 * @msg: the message, holding its pool credit
 * @rb: its buffer
 *
 * The whole payload goes into the buffer from offset 0 (spec 4.3 step 5).
 */
void lnet_rtrbuf_attach(struct lnet_msg *msg, struct lnet_rtrbuf *rb)
{
	msg->msg_rtrbuf = rb;
	msg->msg_md = rb->rb_md;
	rb->rb_md->md_refcount++;
	msg->msg_offset = 0;
	msg->msg_len = msg->msg_hdr.payload_length;
}
