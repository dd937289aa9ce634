// SPDX-License-Identifier: GPL-2.0
/*
 * The push target (wire spec 7): where peers PUT their ping buffer when
 * it changes, on portal 0 with the ping's match bits, behind the ping
 * responder's GET-only MD.  LNet ACKs each push, as the sender requires.
 *
 * LNET_PUSH_BUFS buffers are posted, each its own ME and MD taking one
 * PUT, so that two pushes arriving at once never share a buffer.  The
 * event hands the buffer to the sender's peer (lnet/discovery.c merges
 * it; at most one waits per peer) and a work item posts a fresh one.
 * Lustre's push portal is lazy (a push finding no buffer waits); ours is
 * not: a burst of more than LNET_PUSH_BUFS pushes before the reposts is
 * dropped, unACKed, and the sender retries with its next discovery.
 */
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <lnet/lib-lnet.h>

/* Room for a ping buffer of 255 NIDs; a larger push is truncated. */
#define LNET_PUSH_BUF_SIZE	PAGE_SIZE

static void lnet_push_repost_fn(struct work_struct *work);
static DECLARE_WORK(lnet_push_repost_work, lnet_push_repost_fn);

/* Under the LNet lock: one push arrived, or a buffer was withdrawn. */
static void lnet_push_target_event(struct lnet_event *ev)
{
	unsigned long slot = (unsigned long)ev->md_user_ptr;

	if (ev->type == LNET_EVENT_PUT && !ev->status)
		lnet_dc_push_arrived_locked(ev);	/* takes the buffer */
	else if (ev->unlinked)
		kfree(ev->md_start);
	if (!ev->unlinked)
		return;
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

	buf = kzalloc(LNET_PUSH_BUF_SIZE, GFP_KERNEL);
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
		.length = LNET_PUSH_BUF_SIZE,
		.threshold = 1,
		.options = LNET_MD_OP_PUT | LNET_MD_TRUNCATE,
		.user_ptr = (void *)slot,
		.handler = lnet_push_target_event,
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
