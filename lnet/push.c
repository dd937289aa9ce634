// SPDX-License-Identifier: GPL-2.0
/*
 * The push target (wire spec 7): where peers PUT their ping buffer when
 * it changes, on portal 0 with the ping's match bits, behind the ping
 * responder's GET-only MD.  LNet ACKs each push, as the sender requires.
 *
 * LNET_PUSH_BUFS MDs of LNET_PUSH_MD_SIZE bytes are posted, each its own
 * ME.  Each takes any number of pushes, every one in its own part of the
 * buffer (local offsets, LNET_MD_MAX_SIZE): pushes arriving together
 * never share bytes, and an MD with less than a page left is unlinked
 * and a work item posts a fresh one.  The event copies the push out for
 * the sender's peer (lnet/discovery.c merges it; at most one waits per
 * peer).  A push is a ping buffer, 16 bytes per NID: the MDs take
 * hundreds at once (a mount storm's worth), where one-push buffers took
 * eight and dropped the rest.
 *
 * Lustre's push portal is lazy: a push that finds no buffer waits in the
 * portal (its LND stalls) until one is posted.  Ours is not: the MDs'
 * room stands in for that wait, and a push beyond it (thousands at once)
 * is dropped unACKed, counted in the drop counters, and the sender's
 * discovery fails and is tried again; no connection stalls.
 */
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <lnet/lib-lnet.h>

/*
 * Each push gets a page (room for 255 NIDs; a larger one is truncated to
 * it, LNET_MD_MAX_SIZE, and its sender re-pinged), so one push never
 * takes the room of the others; an MD takes pushes until less than a
 * page is left.
 */
#define LNET_PUSH_MAX_SIZE	PAGE_SIZE
#define LNET_PUSH_MD_SIZE	(8 * PAGE_SIZE)

static void lnet_push_repost_fn(struct work_struct *work);
static DECLARE_WORK(lnet_push_repost_work, lnet_push_repost_fn);

/* Under the LNet lock: one push arrived, or an MD was used up. */
static void lnet_push_target_event(struct lnet_event *ev)
{
	unsigned long slot = (unsigned long)ev->md_user_ptr;
	void *data;

	if (ev->type == LNET_EVENT_PUT && !ev->status) {
		the_lnet.ln_dc_stats.pushes++;
		/* The MD's bytes go with it: the push is copied out. */
		data = kmemdup(ev->md_start + ev->offset, ev->mlength,
			       GFP_ATOMIC);
		if (data)
			lnet_dc_push_arrived_locked(ev, data);	/* takes it */
		else
			the_lnet.ln_dc_stats.pushes_nomem++;
	}
	if (!ev->unlinked)
		return;
	kfree(ev->md_start);
	the_lnet.ln_push_mdh[slot] = LNET_MD_HANDLE_NONE;
	if (the_lnet.ln_state == LNET_STATE_RUNNING)
		schedule_work(&lnet_push_repost_work);
}

/* Post a buffer in @slot.  Called with ln_api_mutex.  Return: 0/-errno. */
static int lnet_push_buf_post(unsigned long slot)
{
	struct lnet_processid any = { .nid = LNET_ANY_NID, .pid = LNET_PID_ANY };
	struct lnet_handle_md mdh;
	struct lnet_md md;
	struct lnet_me *me;
	void *buf;
	int rc;

	buf = kzalloc(LNET_PUSH_MD_SIZE, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	me = lnet_me_attach(LNET_RESERVED_PORTAL, &any,
			    LNET_PROTO_PING_MATCHBITS, 0, LNET_INS_AFTER);
	if (IS_ERR(me)) {
		kfree(buf);
		return PTR_ERR(me);
	}
	md = (struct lnet_md) {
		.start = buf,
		.length = LNET_PUSH_MD_SIZE,
		.threshold = LNET_MD_THRESH_INF,
		.options = LNET_MD_OP_PUT | LNET_MD_TRUNCATE |
			   LNET_MD_MAX_SIZE,
		.user_ptr = (void *)slot,
		.handler = lnet_push_target_event,
		.max_size = LNET_PUSH_MAX_SIZE,
	};
	rc = lnet_md_attach(me, &md, LNET_UNLINK, &mdh);
	if (rc) {
		kfree(buf);
		return rc;
	}
	lnet_lock();
	the_lnet.ln_push_mdh[slot] = mdh;
	lnet_unlock();
	return 0;
}

/* Fill the empty slots.  Called with ln_api_mutex.  Return: 0/-errno. */
static int lnet_push_bufs_post(void)
{
	unsigned long slot;
	bool empty;
	int rc;

	for (slot = 0; slot < LNET_PUSH_BUFS; slot++) {
		lnet_lock();
		empty = lnet_md_handle_is_none(the_lnet.ln_push_mdh[slot]);
		lnet_unlock();
		if (!empty)
			continue;
		rc = lnet_push_buf_post(slot);
		if (rc)
			return rc;
	}
	return 0;
}

static void lnet_push_repost_fn(struct work_struct *work)
{
	mutex_lock(&the_lnet.ln_api_mutex);
	if (the_lnet.ln_state == LNET_STATE_RUNNING && lnet_push_bufs_post())
		pr_warn_ratelimited("LNet: push buffer not posted: out of memory\n");
	mutex_unlock(&the_lnet.ln_api_mutex);
}

/**
 * lnet_push_target_init() - post the push buffers
 *
 * Once per LNet start, after the first ping MD; lnet_push_target_fini()
 * withdraws them.  Called with ln_api_mutex held.
 *
 * Return: 0 or -errno.
 */
int lnet_push_target_init(void)
{
	unsigned int i;

	for (i = 0; i < LNET_PUSH_BUFS; i++)
		the_lnet.ln_push_mdh[i] = LNET_MD_HANDLE_NONE;
	return lnet_push_bufs_post();
}

/**
 * lnet_push_target_fini() - withdraw the push buffers
 *
 * LNet is stopping (no repost follows); the buffers go with their MDs.
 */
void lnet_push_target_fini(void)
{
	struct lnet_handle_md mdh[LNET_PUSH_BUFS];
	unsigned int i;

	lnet_lock();
	memcpy(mdh, the_lnet.ln_push_mdh, sizeof(mdh));
	lnet_unlock();
	for (i = 0; i < LNET_PUSH_BUFS; i++)
		if (!lnet_md_handle_is_none(mdh[i]) && mdh[i].cookie)
			lnet_md_unlink(mdh[i]);
}

/* Module exit: no repost may run after LNet's code is gone. */
void lnet_push_target_cancel_reposts(void)
{
	cancel_work_sync(&lnet_push_repost_work);
}
