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
 *	serve | unserve
 *
 * The target side ("serve", automatic for a run when not serving) posts
 * on LNET_TEST_PORTAL one sink MD per concurrency slot for PUTs, and one
 * source MD for GETs; both are page arrays (LNET_MD_KIOV) while the
 * initiator uses plain buffers, so both MD forms are exercised.  Every
 * payload is a pattern derived from a seed and the byte offset: the target
 * checks each PUT as it lands (seed = hdr_data), the initiator checks
 * each GET reply, and ACK/REPLY lengths are checked too.
 */
#include <linux/debugfs.h>
#include <linux/highmem.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include <lnet/api.h>
#include <lnet/ctl.h>

#define LNET_TEST_PORTAL	60
#define LNET_TEST_MAX_CONC	8
#define LNET_TEST_PAGES		(LNET_MTU / PAGE_SIZE)
#define LNET_TEST_PUT_BITS	0x1000000000ULL		/* + slot */
#define LNET_TEST_GET_BITS	0x2000000000ULL
#define LNET_TEST_GET_SEED	0x5eedU
#define LNET_TEST_TIMEOUT	(30 * HZ)
#define LNET_TEST_RESULT_SIZE	384

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

/* As lnet_test_pattern() over the first @len bytes of a page array. */
static bool lnet_test_pages(struct bio_vec *bv, u32 len, u32 seed, u32 off,
			    bool fill)
{
	bool ok = true;
	u32 done = 0;
	u8 *va;

	while (done < len && ok) {
		u32 n = min_t(u32, len - done, PAGE_SIZE);

		va = kmap_local_page(bv->bv_page);
		ok = lnet_test_pattern(va, n, seed, off + done, fill);
		kunmap_local(va);
		done += n;
		bv++;
	}
	return ok;
}

/* The target side: PUT sinks, one per slot, and the GET source. */
struct lnet_test_target {
	struct bio_vec		kiov[LNET_TEST_MAX_CONC + 1][LNET_TEST_PAGES];
	struct lnet_handle_md	mdh[LNET_TEST_MAX_CONC + 1];
	atomic_t		live;		/* MDs not yet unlinked */
	atomic_t		puts;		/* PUTs landed */
	atomic_t		bad;		/* ... with wrong data/length */
	wait_queue_head_t	wq;
};

/* One operation in flight on the initiator side. */
struct lnet_test_slot {
	struct lnet_test_run	*run;
	unsigned int		idx;
	u8			*buf;
	struct lnet_handle_md	mdh;
	u32			seed;
	u32			offset;
	bool			busy;
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
	struct lnet_processid	target;
	u32			size;
	struct lnet_test_slot	slots[LNET_TEST_MAX_CONC];
};

static DEFINE_MUTEX(lnet_test_mutex);	/* one command at a time */
static struct lnet_test_target *lnet_test_tgt;
static struct dentry *lnet_test_dir;
static char lnet_test_result[LNET_TEST_RESULT_SIZE] = "none\n";
static u32 lnet_test_seq;

static void lnet_test_target_event(struct lnet_event *ev)
{
	struct lnet_test_target *t = lnet_test_tgt;
	struct bio_vec *kiov = ev->md_user_ptr;

	if (ev->type == LNET_EVENT_PUT) {
		atomic_inc(&t->puts);
		if (ev->status || ev->mlength != ev->rlength || ev->offset ||
		    !lnet_test_pages(kiov, ev->mlength, ev->hdr_data, 0, false))
			atomic_inc(&t->bad);
	}
	if (ev->unlinked && atomic_dec_and_test(&t->live))
		wake_up(&t->wq);
}

static void lnet_test_target_free(struct lnet_test_target *t)
{
	unsigned int i, j;

	for (i = 0; i <= LNET_TEST_MAX_CONC; i++)
		for (j = 0; j < LNET_TEST_PAGES; j++)
			if (t->kiov[i][j].bv_page)
				__free_page(t->kiov[i][j].bv_page);
	kfree(t);
}

static void lnet_test_unserve(void)
{
	struct lnet_test_target *t = lnet_test_tgt;
	unsigned int i;

	if (!t)
		return;
	for (i = 0; i <= LNET_TEST_MAX_CONC; i++)
		lnet_md_unlink(t->mdh[i]);
	/* A busy MD goes when its last operation ends. */
	wait_event(t->wq, !atomic_read(&t->live));
	lnet_test_tgt = NULL;
	lnet_test_target_free(t);
	lnet_ni_fini();
}

static int lnet_test_serve(void)
{
	struct lnet_processid any = { .nid = LNET_ANY_NID, .pid = LNET_PID_ANY };
	struct lnet_test_target *t;
	unsigned int i, j;
	struct lnet_md md;
	struct lnet_me *me;
	int rc;

	if (lnet_test_tgt)
		return 0;
	rc = lnet_ni_init();
	if (rc)
		return rc;
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t) {
		lnet_ni_fini();
		return -ENOMEM;
	}
	init_waitqueue_head(&t->wq);
	for (i = 0; i <= LNET_TEST_MAX_CONC; i++)
		for (j = 0; j < LNET_TEST_PAGES; j++) {
			struct page *p = alloc_page(GFP_KERNEL);

			if (!p)
				goto nomem;
			bvec_set_page(&t->kiov[i][j], p, PAGE_SIZE, 0);
		}
	lnet_test_pages(t->kiov[LNET_TEST_MAX_CONC], LNET_MTU,
			LNET_TEST_GET_SEED, 0, true);
	lnet_test_tgt = t;

	for (i = 0; i <= LNET_TEST_MAX_CONC; i++) {
		bool get = i == LNET_TEST_MAX_CONC;

		me = lnet_me_attach(LNET_TEST_PORTAL, &any,
				    get ? LNET_TEST_GET_BITS :
					  LNET_TEST_PUT_BITS + i,
				    0, LNET_INS_AFTER);
		if (IS_ERR(me)) {
			rc = PTR_ERR(me);
			break;
		}
		md = (struct lnet_md) {
			.start = t->kiov[i],
			.length = LNET_TEST_PAGES,
			.threshold = LNET_MD_THRESH_INF,
			.options = LNET_MD_KIOV | LNET_MD_MANAGE_REMOTE |
				   (get ? LNET_MD_OP_GET | LNET_MD_TRUNCATE :
					  LNET_MD_OP_PUT),
			.user_ptr = t->kiov[i],
			.handler = lnet_test_target_event,
		};
		rc = lnet_md_attach(me, &md, LNET_RETAIN, &t->mdh[i]);
		if (rc)
			break;
		atomic_inc(&t->live);
	}
	if (rc) {
		while (i--)
			lnet_md_unlink(t->mdh[i]);
		lnet_test_tgt = NULL;
		lnet_test_target_free(t);
		lnet_ni_fini();
	}
	return rc;
nomem:
	lnet_test_target_free(t);
	lnet_ni_fini();
	return -ENOMEM;
}

static void lnet_test_event(struct lnet_event *ev)
{
	struct lnet_test_slot *s = ev->md_user_ptr;
	struct lnet_test_run *run = s->run;

	spin_lock(&run->lock);
	if (ev->status && !s->status)
		s->status = ev->status;
	if (ev->type == LNET_EVENT_SEND && ev->status)
		s->failed = true;
	if (ev->type == LNET_EVENT_ACK || ev->type == LNET_EVENT_REPLY) {
		s->answered = true;
		s->mlength = ev->mlength;
	}
	if (ev->unlinked)
		s->unlinked = true;
	spin_unlock(&run->lock);
	wake_up(&run->wq);
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

	s->failed = false;
	s->answered = false;
	s->unlinked = false;
	s->status = 0;
	s->mlength = 0;
	s->seed = ++lnet_test_seq;
	if (run->put) {
		lnet_test_pattern(s->buf, run->size, s->seed, 0, true);
	} else {
		memset(s->buf, 0, run->size);
		s->offset = (s->seed * 512) % (LNET_MTU - run->size + 1);
	}
	rc = lnet_md_bind(&md, LNET_UNLINK, &s->mdh);
	if (rc)
		return rc;
	if (run->put)
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

/* Wait for slot @s to finish; true if it moved the right data. */
static bool lnet_test_finish(struct lnet_test_run *run,
			     struct lnet_test_slot *s)
{
	bool done, ok;

	s->busy = false;
	done = wait_event_timeout(run->wq, READ_ONCE(s->unlinked) ||
				  READ_ONCE(s->failed), LNET_TEST_TIMEOUT);
	spin_lock_bh(&run->lock);
	done = done && s->unlinked;
	spin_unlock_bh(&run->lock);
	if (!done) {
		/* Failed or timed out: the MD is still there. */
		lnet_md_unlink(s->mdh);
		wait_event(run->wq, READ_ONCE(s->unlinked));
		return false;
	}
	ok = !s->status && s->answered && s->mlength == run->size;
	if (ok && !run->put)
		ok = lnet_test_pattern(s->buf, run->size, LNET_TEST_GET_SEED,
				       s->offset, false);
	return ok;
}

static int lnet_test_traffic(bool put, const struct lnet_nid *nid, u32 size,
			     u32 count, u32 conc)
{
	char nidstr[LNET_NIDSTR_SIZE];
	unsigned int i, started = 0, done = 0, errors = 0, bad0 = 0;
	struct lnet_test_run *run;
	bool served = false;
	u64 t0, elapsed;
	int rc = 0;

	if (size > LNET_MTU || !conc || conc > LNET_TEST_MAX_CONC)
		return -EINVAL;
	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!run)
		return -ENOMEM;
	spin_lock_init(&run->lock);
	init_waitqueue_head(&run->wq);
	run->put = put;
	run->size = size;
	run->target.nid = *nid;
	run->target.pid = LNET_PID_LUSTRE;
	for (i = 0; i < conc; i++) {
		run->slots[i].run = run;
		run->slots[i].idx = i;
		run->slots[i].buf = kvmalloc(max_t(u32, size, 1), GFP_KERNEL);
		if (!run->slots[i].buf) {
			rc = -ENOMEM;
			goto out;
		}
	}
	if (!lnet_test_tgt) {
		rc = lnet_test_serve();
		if (rc)
			goto out;
		served = true;
	}
	bad0 = atomic_read(&lnet_test_tgt->bad);

	t0 = ktime_get_ns();
	/* Keep @conc operations in flight, finishing them in order. */
	for (i = 0; done < count; i = (i + 1) % conc) {
		struct lnet_test_slot *s = &run->slots[i];

		if (s->busy) {
			if (!lnet_test_finish(run, s))
				errors++;
			done++;
		}
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
	errors += atomic_read(&lnet_test_tgt->bad) - bad0;

	lnet_nid_to_str(nid, nidstr, sizeof(nidstr));
	snprintf(lnet_test_result, sizeof(lnet_test_result),
		 "op=%s nid=%s size=%u concurrency=%u done=%u errors=%u bytes=%llu elapsed_ns=%llu rc=%d\n",
		 put ? "put" : "get", nidstr, size, conc, done, errors,
		 (u64)size * (done - errors), elapsed, rc);
	if (!rc && errors)
		rc = -EIO;
	if (served)
		lnet_test_unserve();
out:
	for (i = 0; i < conc; i++)
		kvfree(run->slots[i].buf);
	kfree(run);
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

/* Parse and run one command line. */
static int lnet_test_command(char *line)
{
	char *argv[5], *p = strim(line);
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
	for (i = 2; i < argc; i++) {
		rc = kstrtou32(argv[i], 0, &v[i - 2]);
		if (rc)
			return rc;
	}
	if (!strcmp(argv[0], "ping") && argc <= 3)
		return lnet_test_ping(&nid, v[0]);
	if (argc != 5)
		return -EINVAL;
	if (!strcmp(argv[0], "put"))
		return lnet_test_traffic(true, &nid, v[0], v[1], v[2]);
	if (!strcmp(argv[0], "get"))
		return lnet_test_traffic(false, &nid, v[0], v[1], v[2]);
	return -EINVAL;
}

static ssize_t lnet_test_run_write(struct file *file, const char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	char buf[128];
	int rc;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	mutex_lock(&lnet_test_mutex);
	rc = lnet_test_command(buf);
	mutex_unlock(&lnet_test_mutex);
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

static int __init lnet_test_init(void)
{
	lnet_test_dir = debugfs_create_dir("lnet_test", NULL);
	debugfs_create_file("run", 0600, lnet_test_dir, NULL,
			    &lnet_test_run_fops);
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
