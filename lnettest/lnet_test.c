// SPDX-License-Identifier: GPL-2.0
/*
 * lnet_test.ko: test traffic over LNet, for the VM tests and benchmarks.
 *
 * Write a command to /sys/kernel/debug/lnet_test/run; the write returns
 * when the run is over (-EIO if anything failed) and reading the file
 * gives the result of the last run on one line of key=value pairs:
 *
 *	ping <nid> <count>
 *	put <nid> <size> <count> <concurrency>
 *	get <nid> <size> <count> <concurrency>
 *	mix <nid> <size> <count> <concurrency>
 *	stop
 *	push <nid> [bad|nomr|burst]
 *	raw <nid> <portal> <match bits> <length> <hex bytes>
 *	serve | unserve
 *
 * The target side ("serve", automatic for a run when not serving) posts
 * on LNET_TEST_PORTAL one sink MD per concurrency slot for bulk PUTs, one
 * sink of a page per slot for small PUTs (at most a page, more than
 * LNET_TEST_BULK_CONC in flight) and one source MD for GETs; all are page
 * arrays (LNET_MD_KIOV) while the initiator uses plain buffers, so both MD
 * forms are exercised; the buf_offset module parameter starts the
 * initiator's MDs that many bytes into their buffers, so that they are
 * not page-aligned (a 1 MiB one then spans 257 pages); src_pages makes
 * the initiator's MDs page arrays too (as a file system's bulk is), and
 * scribble has the initiator overwrite (invert) each PUT's buffer the
 * moment its SEND event arrives, as a caller reusing it would: an LND
 * still reading those pages then puts other bytes on the wire, which the
 * target's check catches.  sink_gap
 * leaves the last bytes of every page of the bulk PUT sinks out of their
 * fragments (gaps between fragments: LNet and ksocklnd take them, an
 * RDMA LND cannot map them into one MR).  Every payload is
 * a pattern derived from a seed and the byte offset: the target checks
 * each PUT as it lands (seed = hdr_data), the initiator checks each GET
 * reply, and ACK/REPLY lengths are checked too.  The target counts the
 * PUTs that landed (puts=), those delivered as good whose bytes or length
 * were wrong (bad=: corruption, never expected) and those whose event
 * carried an error (failed=: a receive the LND could not complete).
 * "raw" PUTs (no ACK) <length> bytes, the hex bytes then zeros, to any
 * portal and match bits of pid 12345 at <nid>: a hostile or malformed
 * message of another protocol on top of LNet (the selftest's), as a
 * misbehaving node would send it.
 * A PUT whose wrong bytes are all those of another recent operation's
 * pattern counts as overlap= instead: two PUTs landed in one sink at
 * once, which LNet allows and happens when the initiator gave up on one
 * (a timeout) and reused its slot while the first was still on its way,
 * on another connection; only a test that makes operations fail sees it.
 *
 * Seeds grow with every operation started, so they also give the order:
 * the initiator counts answers that arrive after one to a later operation
 * (reordered=), the target PUTs that land after a later one from the same
 * initiator; /sys/kernel/debug/lnet_test/target shows the target's counts
 * since "serve", and /sys/kernel/debug/lnet_test/slots the state of each
 * operation of the run in progress (readable while it hangs).  status= is
 * the first error status an event reported,
 * timeouts= the operations that lnet_test gave up waiting for (after the
 * op_timeout module parameter, in seconds) rather than LNet failing them.
 * "mix" alternates PUTs (even slots) and GETs (odd slots) in one run, so
 * one initiator moves data both ways at once.  "stop", written while a
 * run is in progress (it does not wait for the run's turn), makes the run
 * start no more operations: those in flight end as they would, and the
 * run reports; a long run can so be ended when a test has seen enough
 * (stopped=1 in its result).  An operation whose MD is reported unlinked
 * twice counts in dups= (every operation must complete exactly once).
 * The check module parameter (default on) turns the patterns off, on both
 * nodes, for benchmarks, which should measure LNet rather than the
 * pattern code: the data is then not verified.
 */
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/highmem.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include <lnet/api.h>
#include <lnet/ctl.h>

#define LNET_TEST_PORTAL	60
#define LNET_TEST_BULK_CONC	8	/* in flight above a page */
#define LNET_TEST_MAX_CONC	1024	/* in flight up to a page */
#define LNET_TEST_PAGES		(LNET_MTU / PAGE_SIZE)
#define LNET_TEST_SMALL_MDS	(LNET_TEST_MAX_CONC / LNET_TEST_PAGES)
#define LNET_TEST_PUT_BITS	0x1000000000ULL		/* + slot */
#define LNET_TEST_GET_BITS	0x2000000000ULL
#define LNET_TEST_SMALL_BITS	0x3000000000ULL		/* + slot / pages */
#define LNET_TEST_GET_SEED	0x5eedU
#define LNET_TEST_RESULT_SIZE	448
#define LNET_TEST_SOURCES	8	/* initiators whose order is tracked */

static unsigned int op_timeout = 30;
module_param(op_timeout, uint, 0644);
MODULE_PARM_DESC(op_timeout,
		 "Seconds to wait for an operation before giving up on it");

static unsigned int buf_offset;
module_param(buf_offset, uint, 0644);
MODULE_PARM_DESC(buf_offset,
		 "Bytes into its buffer where an initiator's MD starts (0: page-aligned buffers of a page or more; below PAGE_SIZE)");

static unsigned int sink_gap;
module_param(sink_gap, uint, 0644);
MODULE_PARM_DESC(sink_gap,
		 "Bytes left out at the end of every page of the bulk PUT sinks, from the next serve (0: whole pages; else gapped fragments, which one RDMA MR cannot map)");

static bool src_pages;
module_param(src_pages, bool, 0644);
MODULE_PARM_DESC(src_pages,
		 "Initiator MDs are page arrays (LNET_MD_KIOV), not plain buffers (at most LNET_MAX_IOV pages with buf_offset)");

static bool scribble;
module_param(scribble, bool, 0644);
MODULE_PARM_DESC(scribble,
		 "The initiator inverts each PUT's buffer the moment its SEND event arrives (an LND must be done with it then)");

static bool check = true;
module_param(check, bool, 0644);
MODULE_PARM_DESC(check,
		 "Write and verify payload patterns (off for benchmarks: data is then not checked)");

/* Byte @off of the pattern for @seed. */
static u8 lnet_test_byte(u32 seed, u32 off)
{
	u32 w = (seed + (off >> 2)) * 0x9e3779b1U;

	return w >> (8 * (off & 3));
}

/* One byte of the pattern: check it, or with @fill write it. */
static bool lnet_test_pattern_byte(u8 *p, u32 seed, u32 off, bool fill)
{
	u8 b = lnet_test_byte(seed, off);

	if (fill)
		*p = b;
	return *p == b;
}

/*
 * Check (or with @fill, write) @len pattern bytes at @va, from pattern
 * offset @off; whole words at a time where the offset allows, as 1 MiB
 * payloads are checked in an event handler.
 */
static bool lnet_test_pattern(u8 *va, u32 len, u32 seed, u32 off, bool fill)
{
	u32 i = 0;
	__le32 w;

	for (; i < len && ((off + i) & 3); i++)
		if (!lnet_test_pattern_byte(va + i, seed, off + i, fill))
			return false;
	for (; i + 4 <= len; i += 4) {
		w = cpu_to_le32((seed + ((off + i) >> 2)) * 0x9e3779b1U);
		if (fill)
			memcpy(va + i, &w, 4);
		else if (memcmp(va + i, &w, 4))
			return false;
	}
	for (; i < len; i++)
		if (!lnet_test_pattern_byte(va + i, seed, off + i, fill))
			return false;
	return true;
}

/* As lnet_test_pattern() over the first @len bytes of a fragment array. */
static bool lnet_test_pages(struct bio_vec *bv, u32 len, u32 seed, u32 off,
			    bool fill)
{
	bool ok = true;
	u32 done = 0;
	u8 *va;

	while (done < len && ok) {
		u32 n = min_t(u32, len - done, bv->bv_len);

		va = kmap_local_page(bv->bv_page);
		ok = lnet_test_pattern(va + bv->bv_offset, n, seed, off + done,
				       fill);
		kunmap_local(va);
		done += n;
		bv++;
	}
	return ok;
}

/* The last seed that landed from one initiator. */
struct lnet_test_source {
	struct lnet_nid		nid;
	u64			seed;
	bool			used;
};

/*
 * The target side: MD index i < LNET_TEST_BULK_CONC is the bulk PUT sink
 * of slot i, LNET_TEST_TGT_GET the GET source, both in @kiov; then come
 * the small PUT sinks, a page per slot (an MD has at most LNET_MAX_IOV
 * pages, hence several), in @small.
 */
#define LNET_TEST_TGT_GET	LNET_TEST_BULK_CONC
#define LNET_TEST_TGT_SMALL	(LNET_TEST_BULK_CONC + 1)
#define LNET_TEST_TGT_MDS	(LNET_TEST_TGT_SMALL + LNET_TEST_SMALL_MDS)
struct lnet_test_target {
	struct bio_vec		kiov[LNET_TEST_BULK_CONC + 1][LNET_TEST_PAGES];
	struct bio_vec		small[LNET_TEST_SMALL_MDS][LNET_TEST_PAGES];
	struct lnet_handle_md	mdh[LNET_TEST_TGT_MDS];
	atomic_t		live;		/* MDs not yet unlinked */
	atomic_t		puts;		/* PUTs landed */
	atomic_t		bad;		/* ... with wrong data/length */
	atomic_t		failed;		/* ... whose event had an error */
	atomic_t		overlap;	/* ... mixed with another PUT */
	spinlock_t		order_lock;	/* @sources, @reordered */
	struct lnet_test_source	sources[LNET_TEST_SOURCES];
	unsigned int		reordered;	/* PUTs landed out of order */
	/*
	 * Completed by the last MD's unlink event.  Not a wait queue and a
	 * count: unserve, seeing the count at 0 on another CPU, could free
	 * the target before that handler's wake_up() ran (KASAN saw it, on
	 * two vCPUs); complete() is safe to free after.
	 */
	struct completion	gone;
};

/* One operation in flight on the initiator side. */
struct lnet_test_slot {
	struct lnet_test_run	*run;
	unsigned int		idx;
	u8			*mem;		/* allocated */
	u8			*buf;		/* the MD: buf_offset into @mem */
	struct bio_vec		*kiov;		/* or the MD's pages (src_pages) */
	unsigned int		nkiov;
	struct lnet_handle_md	mdh;
	u32			seed;
	u32			offset;
	bool			busy;
	bool			put;		/* a PUT, else a GET */
	/* set by the event handler, under run->lock */
	bool			failed;		/* SEND failed */
	bool			answered;	/* ACK or REPLY arrived */
	bool			unlinked;
	int			status;
	u32			mlength;
};

struct lnet_test_run {
	spinlock_t		lock;		/* slot event state */
	wait_queue_head_t	wq;
	bool			put;
	bool			mix;		/* odd slots GET */
	bool			stop;		/* start no more operations */
	struct lnet_processid	target;
	u32			size;
	u32			conc;
	/* under @lock */
	u32			last_answered;	/* highest seed answered */
	unsigned int		reordered;
	unsigned int		dups;		/* MDs unlinked twice */
	int			status;		/* first event error */
	struct lnet_test_slot	slots[];
};

/*
 * Set the first @len bytes of slot @s's MD to @v, or with @xor invert
 * them with @v: clearing a GET sink, scribbling over a PUT source.
 */
static void lnet_test_slot_bytes(struct lnet_test_slot *s, u32 len, u8 v,
				 bool xor)
{
	struct bio_vec one = { .bv_len = len };
	struct bio_vec *bv = s->nkiov ? s->kiov : &one;
	u32 n, i;
	u8 *va;

	for (; len; len -= n, bv++) {
		n = min(len, bv->bv_len);
		va = s->nkiov ? kmap_local_page(bv->bv_page) + bv->bv_offset :
				s->buf;
		if (!xor)
			memset(va, v, n);
		else
			for (i = 0; i < n; i++)
				va[i] ^= v;
		if (s->nkiov)
			kunmap_local(va);
	}
}

/* Fill or check slot @s's MD with the pattern, as lnet_test_pattern(). */
static bool lnet_test_slot_pattern(struct lnet_test_slot *s, u32 len,
				   u32 seed, u32 off, bool fill)
{
	if (s->nkiov)
		return lnet_test_pages(s->kiov, len, seed, off, fill);
	return lnet_test_pattern(s->buf, len, seed, off, fill);
}

/* Slot @s's MD as pages: the first one starts @off into its page. */
static int lnet_test_slot_pages(struct lnet_test_slot *s, u32 size, u32 off)
{
	unsigned int i, n = DIV_ROUND_UP(off + size, PAGE_SIZE);
	u32 len;

	if (n > LNET_MAX_IOV)
		return -EINVAL;
	s->kiov = kcalloc(n, sizeof(*s->kiov), GFP_KERNEL);
	if (!s->kiov)
		return -ENOMEM;
	for (i = 0; i < n; i++, size -= len, off = 0) {
		struct page *p = alloc_page(GFP_KERNEL);

		if (!p)
			return -ENOMEM;
		len = min_t(u32, size, PAGE_SIZE - off);
		bvec_set_page(&s->kiov[i], p, len, off);
		s->nkiov++;
	}
	return 0;
}

static void lnet_test_slot_free(struct lnet_test_slot *s)
{
	unsigned int i;

	for (i = 0; i < s->nkiov; i++)
		__free_page(s->kiov[i].bv_page);
	kfree(s->kiov);
	kvfree(s->mem);
}

static DEFINE_MUTEX(lnet_test_mutex);	/* one command at a time */
/* The run in progress, for the slots file, which never takes the mutex. */
static DEFINE_SPINLOCK(lnet_test_cur_lock);
static struct lnet_test_run *lnet_test_cur;
/*
 * The target being served.  Set and cleared under the mutex and under
 * lnet_test_tgt_lock, so the target file reads it under the lock alone
 * (a run holds the mutex for its whole length) and the target is freed
 * only after it is cleared.
 */
static DEFINE_SPINLOCK(lnet_test_tgt_lock);
static struct lnet_test_target *lnet_test_tgt;
static struct dentry *lnet_test_dir;
static char lnet_test_result[LNET_TEST_RESULT_SIZE] = "none\n";
static u32 lnet_test_seq;

/* Count a PUT from @ev->initiator landing after a later one. */
static void lnet_test_target_order(struct lnet_test_target *t,
				   struct lnet_event *ev)
{
	struct lnet_test_source *src, *free = NULL;
	unsigned int i;

	spin_lock(&t->order_lock);
	for (i = 0; i < LNET_TEST_SOURCES; i++) {
		src = &t->sources[i];
		if (!src->used) {
			free = free ?: src;
			continue;
		}
		if (!memcmp(&src->nid, &ev->initiator.nid, sizeof(src->nid))) {
			if (ev->hdr_data < src->seed)
				t->reordered++;
			else
				src->seed = ev->hdr_data;
			goto out;
		}
	}
	if (free) {
		free->used = true;
		free->nid = ev->initiator.nid;
		free->seed = ev->hdr_data;
	}
out:
	spin_unlock(&t->order_lock);
}

/* Seeds this close to a PUT's own may have landed in its sink at once. */
#define LNET_TEST_OVERLAP_WINDOW	64

/*
 * Is byte @b at @off of a PUT of @seed another recent PUT's?  *@cand is
 * the last such seed found, tried first: an overlap leaves long runs.
 */
static bool lnet_test_other_byte(u8 b, u32 seed, u32 off, u32 *cand)
{
	u32 s;

	if (*cand != seed && lnet_test_byte(*cand, off) == b)
		return true;
	for (s = seed - LNET_TEST_OVERLAP_WINDOW;
	     s != seed + LNET_TEST_OVERLAP_WINDOW + 1; s++)
		if (s != seed && lnet_test_byte(s, off) == b) {
			*cand = s;
			return true;
		}
	return false;
}

/*
 * A PUT of @len bytes and @seed landed whole in @kiov but not intact:
 * true if every wrong byte is one of another recent PUT's pattern.
 */
static bool lnet_test_overlapped(struct bio_vec *bv, u32 len, u32 seed)
{
	u32 done = 0, cand = seed, i, n;
	bool ok = true;
	u8 *va;

	for (; done < len && ok; bv++) {
		n = min_t(u32, len - done, bv->bv_len);
		va = kmap_local_page(bv->bv_page) + bv->bv_offset;
		for (i = 0; i < n && ok; i++)
			ok = va[i] == lnet_test_byte(seed, done + i) ||
			     lnet_test_other_byte(va[i], seed, done + i, &cand);
		kunmap_local(va);
		done += n;
	}
	return ok;
}

static void lnet_test_target_event(struct lnet_event *ev)
{
	struct lnet_test_target *t = lnet_test_tgt;
	struct bio_vec *kiov = ev->md_user_ptr;
	u32 off = ev->offset;
	bool ok;

	if (ev->type == LNET_EVENT_PUT) {
		atomic_inc(&t->puts);
		/* Small PUTs land at their slot's page of the small sink. */
		if ((void *)kiov >= (void *)t->small &&
		    (void *)kiov < (void *)(t->small + LNET_TEST_SMALL_MDS)) {
			ok = !(off % PAGE_SIZE) && ev->mlength <= PAGE_SIZE;
			kiov += off / PAGE_SIZE;
			off = 0;
		} else {
			ok = true;
		}
		/*
		 * A receive that failed (the event says so) is not data
		 * corruption: bad counts only PUTs LNet delivered as good.
		 */
		if (ev->status)
			atomic_inc(&t->failed);
		else if (!ok || ev->mlength != ev->rlength || off)
			atomic_inc(&t->bad);
		else if (READ_ONCE(check) &&
			 !lnet_test_pages(kiov, ev->mlength, ev->hdr_data, 0,
					  false))
			atomic_inc(lnet_test_overlapped(kiov, ev->mlength,
							ev->hdr_data) ?
				   &t->overlap : &t->bad);
		if (!ev->status)
			lnet_test_target_order(t, ev);
	}
	if (ev->unlinked && atomic_dec_and_test(&t->live))
		complete(&t->gone);
}

static void lnet_test_target_free(struct lnet_test_target *t)
{
	unsigned int i, j;

	for (i = 0; i <= LNET_TEST_BULK_CONC; i++)
		for (j = 0; j < LNET_TEST_PAGES; j++)
			if (t->kiov[i][j].bv_page)
				__free_page(t->kiov[i][j].bv_page);
	for (i = 0; i < LNET_TEST_SMALL_MDS; i++)
		for (j = 0; j < LNET_TEST_PAGES; j++)
			if (t->small[i][j].bv_page)
				__free_page(t->small[i][j].bv_page);
	kvfree(t);
}

/* The MD of target index @i: bulk sink, GET source or small sink. */
static struct lnet_md lnet_test_target_md(struct lnet_test_target *t,
					  unsigned int i)
{
	struct bio_vec *kiov = i >= LNET_TEST_TGT_SMALL ?
			       t->small[i - LNET_TEST_TGT_SMALL] : t->kiov[i];
	unsigned int opt = LNET_MD_KIOV | LNET_MD_MANAGE_REMOTE;

	if (i == LNET_TEST_TGT_GET)
		opt |= LNET_MD_OP_GET | LNET_MD_TRUNCATE;
	else
		opt |= LNET_MD_OP_PUT;
	return (struct lnet_md) {
		.start = kiov,
		.length = LNET_TEST_PAGES,
		.threshold = LNET_MD_THRESH_INF,
		.options = opt,
		.user_ptr = kiov,
		.handler = lnet_test_target_event,
	};
}

static u64 lnet_test_target_bits(unsigned int i)
{
	if (i == LNET_TEST_TGT_GET)
		return LNET_TEST_GET_BITS;
	if (i >= LNET_TEST_TGT_SMALL)
		return LNET_TEST_SMALL_BITS + i - LNET_TEST_TGT_SMALL;
	return LNET_TEST_PUT_BITS + i;
}

static int lnet_test_target_pages(struct lnet_test_target *t)
{
	u32 gap = min_t(u32, READ_ONCE(sink_gap), PAGE_SIZE - 1);
	unsigned int i, j;
	struct page *p;

	for (i = 0; i <= LNET_TEST_BULK_CONC; i++)
		for (j = 0; j < LNET_TEST_PAGES; j++) {
			p = alloc_page(GFP_KERNEL);
			if (!p)
				return -ENOMEM;
			bvec_set_page(&t->kiov[i][j], p, i == LNET_TEST_TGT_GET ?
				      PAGE_SIZE : PAGE_SIZE - gap, 0);
		}
	for (i = 0; i < LNET_TEST_SMALL_MDS; i++)
		for (j = 0; j < LNET_TEST_PAGES; j++) {
			p = alloc_page(GFP_KERNEL);
			if (!p)
				return -ENOMEM;
			bvec_set_page(&t->small[i][j], p, PAGE_SIZE, 0);
		}
	return 0;
}

static void lnet_test_tgt_set(struct lnet_test_target *t)
{
	spin_lock_bh(&lnet_test_tgt_lock);
	lnet_test_tgt = t;
	spin_unlock_bh(&lnet_test_tgt_lock);
}

static void lnet_test_unserve(void)
{
	struct lnet_test_target *t = lnet_test_tgt;
	unsigned int i;

	if (!t)
		return;
	for (i = 0; i < LNET_TEST_TGT_MDS; i++)
		lnet_md_unlink(t->mdh[i]);
	/* A busy MD goes when its last operation ends. */
	wait_for_completion(&t->gone);
	lnet_test_tgt_set(NULL);
	lnet_test_target_free(t);
	lnet_ni_fini();
}

static int lnet_test_serve(void)
{
	struct lnet_processid any = { .nid = LNET_ANY_NID, .pid = LNET_PID_ANY };
	struct lnet_test_target *t;
	struct lnet_md md;
	struct lnet_me *me;
	unsigned int i;
	int rc;

	if (lnet_test_tgt)
		return 0;
	rc = lnet_ni_init();
	if (rc)
		return rc;
	t = kvzalloc(sizeof(*t), GFP_KERNEL);
	if (!t) {
		lnet_ni_fini();
		return -ENOMEM;
	}
	init_completion(&t->gone);
	spin_lock_init(&t->order_lock);
	rc = lnet_test_target_pages(t);
	if (rc) {
		lnet_test_target_free(t);
		lnet_ni_fini();
		return rc;
	}
	lnet_test_pages(t->kiov[LNET_TEST_TGT_GET], LNET_MTU,
			LNET_TEST_GET_SEED, 0, true);
	lnet_test_tgt_set(t);

	for (i = 0; i < LNET_TEST_TGT_MDS; i++) {
		me = lnet_me_attach(LNET_TEST_PORTAL, &any,
				    lnet_test_target_bits(i), 0,
				    LNET_INS_AFTER);
		if (IS_ERR(me)) {
			rc = PTR_ERR(me);
			break;
		}
		md = lnet_test_target_md(t, i);
		rc = lnet_md_attach(me, &md, LNET_RETAIN, &t->mdh[i]);
		if (rc)
			break;
		atomic_inc(&t->live);
	}
	if (rc) {
		bool attached = i;

		while (i--)
			lnet_md_unlink(t->mdh[i]);
		if (attached)
			wait_for_completion(&t->gone);
		lnet_test_tgt_set(NULL);
		lnet_test_target_free(t);
		lnet_ni_fini();
	}
	return rc;
}

static void lnet_test_event(struct lnet_event *ev)
{
	struct lnet_test_slot *s = ev->md_user_ptr;
	struct lnet_test_run *run = s->run;

	if (ev->type == LNET_EVENT_SEND && !ev->status && s->put &&
	    READ_ONCE(scribble))
		lnet_test_slot_bytes(s, run->size, 0xff, true);
	spin_lock(&run->lock);
	if (ev->status && !s->status)
		s->status = ev->status;
	if (ev->status && !run->status)
		run->status = ev->status;
	if (ev->type == LNET_EVENT_SEND && ev->status)
		s->failed = true;
	if (ev->type == LNET_EVENT_ACK || ev->type == LNET_EVENT_REPLY) {
		s->answered = true;
		s->mlength = ev->mlength;
		if (s->seed < run->last_answered)
			run->reordered++;
		else
			run->last_answered = s->seed;
	}
	if (ev->unlinked && s->unlinked)
		run->dups++;
	if (ev->unlinked)
		s->unlinked = true;
	/*
	 * Under the lock: the initiator may free @run once it saw the
	 * slot unlinked, and it takes the lock before it does.
	 */
	wake_up(&run->wq);
	spin_unlock(&run->lock);
}

/* Start one operation on slot @s. */
static int lnet_test_start(struct lnet_test_run *run, struct lnet_test_slot *s)
{
	struct lnet_md md = {
		.start = s->buf,
		.length = run->size,
		.threshold = 2,
		.user_ptr = s,
		.handler = lnet_test_event,
	};
	int rc;

	if (s->nkiov) {
		md.start = s->kiov;
		md.length = s->nkiov;
		md.options = LNET_MD_KIOV;
	}
	s->failed = false;
	s->answered = false;
	s->unlinked = false;
	s->status = 0;
	s->mlength = 0;
	s->seed = ++lnet_test_seq;
	s->put = run->put && !(run->mix && (s->idx & 1));
	if (s->put) {
		if (READ_ONCE(check))
			lnet_test_slot_pattern(s, run->size, s->seed, 0, true);
	} else {
		lnet_test_slot_bytes(s, run->size, 0, false);
		s->offset = (s->seed * 512) % (LNET_MTU - run->size + 1);
	}
	rc = lnet_md_bind(&md, LNET_UNLINK, &s->mdh);
	if (rc)
		return rc;
	if (s->put && run->conc > LNET_TEST_BULK_CONC)
		rc = lnet_put(NULL, s->mdh, LNET_ACK_REQ, &run->target,
			      LNET_TEST_PORTAL,
			      LNET_TEST_SMALL_BITS + s->idx / LNET_TEST_PAGES,
			      (s->idx % LNET_TEST_PAGES) * PAGE_SIZE, s->seed);
	else if (s->put)
		rc = lnet_put(NULL, s->mdh, LNET_ACK_REQ, &run->target,
			      LNET_TEST_PORTAL, LNET_TEST_PUT_BITS + s->idx, 0,
			      s->seed);
	else
		rc = lnet_get(NULL, s->mdh, &run->target, LNET_TEST_PORTAL,
			      LNET_TEST_GET_BITS, s->offset);
	if (rc) {
		lnet_md_unlink(s->mdh);
		return rc;
	}
	s->busy = true;
	return 0;
}

/*
 * Wait for slot @s to finish; true if it moved the right data.  *@timedout
 * is set when LNet had not ended the operation after op_timeout.
 */
static bool lnet_test_finish(struct lnet_test_run *run,
			     struct lnet_test_slot *s, bool *timedout)
{
	bool done, ok;
	long left;

	s->busy = false;
	/* Not a hung task: an operation may rightly take minutes. */
	left = wait_event_idle_timeout(run->wq, READ_ONCE(s->unlinked) ||
				       READ_ONCE(s->failed),
				       READ_ONCE(op_timeout) * HZ);
	spin_lock_bh(&run->lock);
	done = left && s->unlinked;
	spin_unlock_bh(&run->lock);
	*timedout = !left;
	if (!done) {
		/* Failed or timed out: the MD is still there. */
		lnet_md_unlink(s->mdh);
		wait_event_idle(run->wq, READ_ONCE(s->unlinked));
		/* The handler that set it has left @run (see the event). */
		spin_lock_bh(&run->lock);
		spin_unlock_bh(&run->lock);
		return false;
	}
	ok = !s->status && s->answered && s->mlength == run->size;
	if (ok && !s->put && READ_ONCE(check))
		ok = lnet_test_slot_pattern(s, run->size, LNET_TEST_GET_SEED,
					    s->offset, false);
	return ok;
}

static int lnet_test_traffic(const char *op, const struct lnet_nid *nid,
			     u32 size, u32 count, u32 conc)
{
	unsigned int i, started = 0, done = 0, errors = 0, bad0 = 0;
	unsigned int timeouts = 0, off = READ_ONCE(buf_offset);
	char nidstr[LNET_NIDSTR_SIZE];
	struct lnet_test_run *run;
	bool served = false, timedout;
	u64 t0, elapsed;
	int rc = 0;

	if (size > LNET_MTU || !conc || conc > LNET_TEST_MAX_CONC ||
	    (conc > LNET_TEST_BULK_CONC && size > PAGE_SIZE) ||
	    off >= PAGE_SIZE)
		return -EINVAL;
	run = kvzalloc(struct_size(run, slots, conc), GFP_KERNEL);
	if (!run)
		return -ENOMEM;
	spin_lock_init(&run->lock);
	init_waitqueue_head(&run->wq);
	run->put = strcmp(op, "get") != 0;
	run->mix = !strcmp(op, "mix");
	run->size = size;
	run->conc = conc;
	run->target.nid = *nid;
	run->target.pid = LNET_PID_LUSTRE;
	for (i = 0; i < conc; i++) {
		run->slots[i].run = run;
		run->slots[i].idx = i;
		run->slots[i].mem = kvmalloc(max_t(u32, size, 1) + off,
					     GFP_KERNEL);
		if (!run->slots[i].mem) {
			rc = -ENOMEM;
			goto out;
		}
		run->slots[i].buf = run->slots[i].mem + off;
		if (READ_ONCE(src_pages) && size) {
			rc = lnet_test_slot_pages(&run->slots[i], size, off);
			if (rc)
				goto out;
		}
	}
	if (!lnet_test_tgt) {
		rc = lnet_test_serve();
		if (rc)
			goto out;
		served = true;
	}
	bad0 = atomic_read(&lnet_test_tgt->bad) +
	       atomic_read(&lnet_test_tgt->failed) +
	       atomic_read(&lnet_test_tgt->overlap);

	spin_lock(&lnet_test_cur_lock);
	lnet_test_cur = run;
	spin_unlock(&lnet_test_cur_lock);
	t0 = ktime_get_ns();
	/* Keep @conc operations in flight, finishing them in order. */
	for (i = 0; done < count; i = (i + 1) % conc) {
		struct lnet_test_slot *s = &run->slots[i];

		if (s->busy) {
			if (!lnet_test_finish(run, s, &timedout))
				errors++;
			timeouts += timedout;
			done++;
		}
		if (READ_ONCE(run->stop))
			count = started;
		if (started < count && !rc) {
			rc = lnet_test_start(run, s);
			if (rc)
				count = started;
			else
				started++;
		}
		if (rc && done == started)
			break;
	}
	elapsed = ktime_get_ns() - t0;
	spin_lock(&lnet_test_cur_lock);
	lnet_test_cur = NULL;
	spin_unlock(&lnet_test_cur_lock);
	errors += atomic_read(&lnet_test_tgt->bad) +
		  atomic_read(&lnet_test_tgt->failed) +
		  atomic_read(&lnet_test_tgt->overlap) - bad0;

	lnet_nid_to_str(nid, nidstr, sizeof(nidstr));
	snprintf(lnet_test_result, sizeof(lnet_test_result),
		 "op=%s nid=%s size=%u concurrency=%u done=%u errors=%u bytes=%llu elapsed_ns=%llu rc=%d status=%d timeouts=%u reordered=%u offset=%u dups=%u stopped=%d\n",
		 op, nidstr, size, conc, done, errors,
		 (u64)size * (done - errors), elapsed, rc, run->status,
		 timeouts, run->reordered, off, run->dups, run->stop);
	if (!rc && errors)
		rc = -EIO;
	if (served)
		lnet_test_unserve();
out:
	for (i = 0; i < conc; i++)
		lnet_test_slot_free(&run->slots[i]);
	kvfree(run);
	return rc;
}

static int lnet_test_ping(const struct lnet_nid *nid, u32 count)
{
	char nidstr[LNET_NIDSTR_SIZE];
	unsigned int i, errors = 0;
	struct lnet_nid nids[16];
	int n = 0, rc = 0;
	u32 features = 0;
	u64 t0, elapsed;

	if (!count)
		return -EINVAL;
	t0 = ktime_get_ns();
	for (i = 0; i < count; i++) {
		n = lnet_ping(nid, NULL, 5000, nids, ARRAY_SIZE(nids),
			      &features);
		if (n < 0) {
			errors++;
			rc = n;
		}
	}
	elapsed = ktime_get_ns() - t0;
	lnet_nid_to_str(nid, nidstr, sizeof(nidstr));
	snprintf(lnet_test_result, sizeof(lnet_test_result),
		 "op=ping nid=%s done=%u errors=%u nids=%d features=0x%x elapsed_ns=%llu rc=%d\n",
		 nidstr, count, errors, n, features, elapsed, rc);
	return rc;
}

/*
 * What a stock Lustre node sends after discovering a Multi-Rail peer (wire
 * spec 7): its ping buffer (0@lo with the sequence number, then its NIDs;
 * NI_STATUS|RTE_DISABLED|MULTI_RAIL|DISCOVERY) in a PUT to portal 0, match
 * bits 0x8000000000000000, offset 0, hdr_data 0, ACK requested, pid 12345.
 * Lustre fails its discovery of the peer if the ACK does not come.
 */
#define LNET_TEST_PING_MAGIC	0x70696e67U
#define LNET_TEST_PING_BITS	0x8000000000000000ULL
#define LNET_TEST_PING_FEAT	0x1eU
#define LNET_TEST_PING_FEAT_MULTI_RAIL	0x08U
#define LNET_TEST_NI_UP		0x15aac0deU
#define LNET_TEST_PUSH_NIS	4

struct lnet_test_push {
	struct completion	done;		/* ACK, or a failed SEND */
	struct completion	unlinked;
	int			status;
	bool			acked;
	u32			buf[4 + 4 * LNET_TEST_PUSH_NIS];
};

static void lnet_test_push_event(struct lnet_event *ev)
{
	struct lnet_test_push *p = ev->md_user_ptr;

	if (ev->type == LNET_EVENT_ACK) {
		p->acked = !ev->status;
		p->status = ev->status;
		complete(&p->done);
	} else if (ev->type == LNET_EVENT_SEND && ev->status) {
		p->status = ev->status;
		complete(&p->done);
	}
	if (ev->unlinked)
		complete(&p->unlinked);
}

/* Pushes of "push NID burst": as many landing at once as 64 nodes'. */
#define LNET_TEST_PUSH_BURST	64

/* Fill @p's buffer: a ping buffer of our NIDs (@kind as below). */
static unsigned int lnet_test_push_buf(struct lnet_test_push *p,
				       const char *kind,
				       struct lnet_ni_info *info)
{
	unsigned int n = 1;
	u64 nid4;

	/* Header, then 0@lo with sequence number 1, then our NIDs. */
	p->buf[0] = strcmp(kind, "bad") ? LNET_TEST_PING_MAGIC : 0xdeadbeef;
	p->buf[1] = LNET_TEST_PING_FEAT;
	if (!strcmp(kind, "nomr"))
		p->buf[1] &= ~LNET_TEST_PING_FEAT_MULTI_RAIL;
	p->buf[2] = 12345;
	nid4 = LNET_NID_LO_0;
	memcpy(&p->buf[4], &nid4, sizeof(nid4));
	p->buf[6] = 1;
	while (n < LNET_TEST_PUSH_NIS && !lnet_ni_info_get(n, info)) {
		nid4 = lnet_nid_to_nid4(&info->nid);
		memcpy(&p->buf[4 + 4 * n], &nid4, sizeof(nid4));
		p->buf[4 + 4 * n + 2] = LNET_TEST_NI_UP;
		n++;
	}
	p->buf[3] = n;
	return n;
}

/*
 * lnet_test_push() - push our NIDs to @nid as a Lustre node does; @kind
 * "bad" spoils the magic, "nomr" leaves MULTI_RAIL out: the receiver
 * must ACK both (LNet does) and merge neither; "burst" sends
 * LNET_TEST_PUSH_BURST good ones at once (as when many nodes push to a
 * server together): the receiver must ACK every one.
 */
static int lnet_test_push(const struct lnet_nid *nid, const char *kind)
{
	unsigned int i, n = 0, acked = 0, count = 1, sent = 0;
	struct lnet_processid target = { .nid = *nid, .pid = 12345 };
	char nidstr[LNET_NIDSTR_SIZE];
	struct lnet_handle_md *mdh;
	struct lnet_test_push *p;
	struct lnet_ni_info *info;
	unsigned long deadline;
	struct lnet_md md;
	int rc = 0;

	if (!strcmp(kind, "burst")) {
		count = LNET_TEST_PUSH_BURST;
		kind = "";
	}
	p = kcalloc(count, sizeof(*p), GFP_KERNEL);
	mdh = kcalloc(count, sizeof(*mdh), GFP_KERNEL);
	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (!p || !mdh || !info) {
		rc = -ENOMEM;
		goto out;
	}
	/* All sent before any is waited for, so that they arrive together. */
	for (i = 0; i < count && !rc; i++) {
		init_completion(&p[i].done);
		init_completion(&p[i].unlinked);
		n = lnet_test_push_buf(&p[i], kind, info);
		md = (struct lnet_md) {
			.start = p[i].buf,
			.length = 16 + 16 * n,
			.threshold = 2,			/* SEND and ACK */
			.user_ptr = &p[i],
			.handler = lnet_test_push_event,
		};
		rc = lnet_md_bind(&md, LNET_UNLINK, &mdh[i]);
		if (rc)
			break;
		sent++;
		rc = lnet_put(NULL, mdh[i], LNET_ACK_REQ, &target, 0,
			      LNET_TEST_PING_BITS, 0, 0);
	}
	deadline = jiffies + op_timeout * HZ;
	for (i = 0; i < sent; i++) {
		long left = max_t(long, deadline - jiffies, 1);

		if (!rc && !wait_for_completion_timeout(&p[i].done, left))
			rc = -ETIMEDOUT;
		lnet_md_unlink(mdh[i]);
		wait_for_completion(&p[i].unlinked);
		if (p[i].acked)
			acked++;
		else if (!rc)
			rc = p[i].status ? p[i].status : -EIO;
	}
	lnet_nid_to_str(nid, nidstr, sizeof(nidstr));
	snprintf(lnet_test_result, sizeof(lnet_test_result),
		 "op=push nid=%s nnis=%u acked=%u rc=%d\n", nidstr, n, acked,
		 rc);
out:
	kfree(info);
	kfree(mdh);
	kfree(p);
	return rc;
}

#define LNET_TEST_RAW_MAX	8192	/* a raw PUT's bytes at most */

struct lnet_test_raw {
	struct completion	unlinked;
	int			status;
};

static void lnet_test_raw_event(struct lnet_event *ev)
{
	struct lnet_test_raw *r = ev->md_user_ptr;

	if (ev->type == LNET_EVENT_SEND)
		r->status = ev->status;
	if (ev->unlinked)
		complete(&r->unlinked);
}

/*
 * lnet_test_raw() - PUT @len bytes (@hex's, then zeros) without ACK to
 * @portal and @mbits of @nid, and wait for its SEND event.
 */
static int lnet_test_raw(const struct lnet_nid *nid, u32 portal, u64 mbits,
			 u32 len, const char *hex)
{
	struct lnet_processid target = { .nid = *nid, .pid = LNET_PID_LUSTRE };
	size_t nhex = strlen(hex) / 2;
	char nidstr[LNET_NIDSTR_SIZE];
	struct lnet_test_raw r = {};
	struct lnet_handle_md mdh;
	struct lnet_md md;
	u8 *buf;
	int rc;

	if (strlen(hex) % 2 || nhex > len || len > LNET_TEST_RAW_MAX ||
	    portal >= LNET_MAX_PORTALS)
		return -EINVAL;
	buf = kzalloc(len ?: 1, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	rc = hex2bin(buf, hex, nhex);
	if (rc)
		goto out;
	init_completion(&r.unlinked);
	md = (struct lnet_md) {
		.start = buf,
		.length = len,
		.threshold = 1,			/* SEND */
		.user_ptr = &r,
		.handler = lnet_test_raw_event,
	};
	rc = lnet_md_bind(&md, LNET_UNLINK, &mdh);
	if (rc)
		goto out;
	rc = lnet_put(NULL, mdh, LNET_NOACK_REQ, &target, portal, mbits, 0,
		      0);
	if (rc)
		lnet_md_unlink(mdh);
	wait_for_completion(&r.unlinked);
	if (!rc)
		rc = r.status;
out:
	lnet_nid_to_str(nid, nidstr, sizeof(nidstr));
	snprintf(lnet_test_result, sizeof(lnet_test_result),
		 "op=raw nid=%s portal=%u mbits=%llu len=%u rc=%d\n", nidstr,
		 portal, mbits, len, rc);
	kfree(buf);
	return rc;
}

/* "raw NID PORTAL MBITS LEN HEX" */
static int lnet_test_raw_command(const struct lnet_nid *nid, char **argv)
{
	u32 portal, len;
	u64 mbits;
	int rc;

	rc = kstrtou32(argv[2], 0, &portal);
	if (!rc)
		rc = kstrtou64(argv[3], 0, &mbits);
	if (!rc)
		rc = kstrtou32(argv[4], 0, &len);
	return rc ?: lnet_test_raw(nid, portal, mbits, len, argv[5]);
}

/* Parse and run one command line. */
static int lnet_test_command(char *line)
{
	char *argv[6], *p = strim(line);
	struct lnet_nid nid;
	u32 v[3] = { 1, 1, 1 };
	int argc = 0, i, rc;

	while (p && *p && argc < ARRAY_SIZE(argv))
		argv[argc++] = strsep(&p, " ");
	if (!argc || (p && *p))
		return -EINVAL;
	if (!strcmp(argv[0], "serve") && argc == 1)
		return lnet_test_serve();
	if (!strcmp(argv[0], "unserve") && argc == 1) {
		lnet_test_unserve();
		return 0;
	}
	if (argc < 2 || lnet_nid_from_str(argv[1], &nid))
		return -EINVAL;
	if (!strcmp(argv[0], "raw") && argc == 6)
		return lnet_test_raw_command(&nid, argv);
	if (!strcmp(argv[0], "push") && argc == 2)
		return lnet_test_push(&nid, "");
	if (!strcmp(argv[0], "push") && argc == 3 &&
	    (!strcmp(argv[2], "bad") || !strcmp(argv[2], "nomr") ||
	     !strcmp(argv[2], "burst")))
		return lnet_test_push(&nid, argv[2]);
	if (argc == 6)
		return -EINVAL;
	for (i = 2; i < argc; i++) {
		rc = kstrtou32(argv[i], 0, &v[i - 2]);
		if (rc)
			return rc;
	}
	if (!strcmp(argv[0], "ping") && argc <= 3)
		return lnet_test_ping(&nid, v[0]);
	if (argc != 5)
		return -EINVAL;
	if (!strcmp(argv[0], "put") || !strcmp(argv[0], "get") ||
	    !strcmp(argv[0], "mix"))
		return lnet_test_traffic(argv[0], &nid, v[0], v[1], v[2]);
	return -EINVAL;
}

static ssize_t lnet_test_run_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	char *buf;
	int rc;

	/* A raw command's hex bytes, and the rest of a line. */
	if (count > 2 * LNET_TEST_RAW_MAX + 128)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	/* Not in turn: the run to stop holds the mutex. */
	if (!strcmp(strim(buf), "stop")) {
		spin_lock(&lnet_test_cur_lock);
		if (lnet_test_cur)
			WRITE_ONCE(lnet_test_cur->stop, true);
		spin_unlock(&lnet_test_cur_lock);
		kfree(buf);
		return count;
	}
	mutex_lock(&lnet_test_mutex);
	rc = lnet_test_command(buf);
	mutex_unlock(&lnet_test_mutex);
	kfree(buf);
	return rc ? rc : count;
}

static ssize_t lnet_test_run_read(struct file *file, char __user *ubuf,
				  size_t count, loff_t *ppos)
{
	char buf[LNET_TEST_RESULT_SIZE];

	mutex_lock(&lnet_test_mutex);
	strscpy(buf, lnet_test_result, sizeof(buf));
	mutex_unlock(&lnet_test_mutex);
	return simple_read_from_buffer(ubuf, count, ppos, buf, strlen(buf));
}

static const struct file_operations lnet_test_run_fops = {
	.owner	= THIS_MODULE,
	.read	= lnet_test_run_read,
	.write	= lnet_test_run_write,
	.llseek	= default_llseek,
};

/* The target side's counts since "serve"; readable while a run goes. */
static int lnet_test_target_show(struct seq_file *m, void *v)
{
	struct lnet_test_target *t;

	spin_lock_bh(&lnet_test_tgt_lock);
	t = lnet_test_tgt;
	if (t) {
		spin_lock(&t->order_lock);
		seq_printf(m, "serving=1 puts=%d bad=%d failed=%d overlap=%d reordered=%u\n",
			   atomic_read(&t->puts), atomic_read(&t->bad),
			   atomic_read(&t->failed), atomic_read(&t->overlap),
			   t->reordered);
		spin_unlock(&t->order_lock);
	} else {
		seq_puts(m, "serving=0 puts=0 bad=0 failed=0 overlap=0 reordered=0\n");
	}
	spin_unlock_bh(&lnet_test_tgt_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lnet_test_target);

/* The run in progress: one line per operation whose MD is not unlinked. */
static int lnet_test_slots_show(struct seq_file *m, void *v)
{
	struct lnet_test_slot *s;
	struct lnet_test_run *run;
	unsigned int i;

	spin_lock(&lnet_test_cur_lock);
	run = lnet_test_cur;
	if (run) {
		spin_lock_bh(&run->lock);
		seq_printf(m, "op=%s size=%u concurrency=%u\n",
			   run->mix ? "mix" : run->put ? "put" : "get",
			   run->size, run->conc);
		for (i = 0; i < run->conc; i++) {
			s = &run->slots[i];
			if (!s->seed || s->unlinked)
				continue;
			seq_printf(m, "slot=%u seed=%u md=%#llx failed=%d answered=%d unlinked=%d status=%d mlength=%u\n",
				   i, s->seed, s->mdh.cookie, s->failed,
				   s->answered, s->unlinked, s->status,
				   s->mlength);
		}
		spin_unlock_bh(&run->lock);
	} else {
		seq_puts(m, "none\n");
	}
	spin_unlock(&lnet_test_cur_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lnet_test_slots);

static int __init lnet_test_init(void)
{
	lnet_test_dir = debugfs_create_dir("lnet_test", NULL);
	debugfs_create_file("run", 0600, lnet_test_dir, NULL,
			    &lnet_test_run_fops);
	debugfs_create_file("target", 0400, lnet_test_dir, NULL,
			    &lnet_test_target_fops);
	debugfs_create_file("slots", 0400, lnet_test_dir, NULL,
			    &lnet_test_slots_fops);
	return 0;
}

static void __exit lnet_test_exit(void)
{
	debugfs_remove_recursive(lnet_test_dir);
	mutex_lock(&lnet_test_mutex);
	lnet_test_unserve();
	mutex_unlock(&lnet_test_mutex);
}

module_init(lnet_test_init);
module_exit(lnet_test_exit);

MODULE_DESCRIPTION("LNet test traffic");
MODULE_LICENSE("GPL");
