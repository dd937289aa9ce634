// SPDX-License-Identifier: GPL-2.0
/*
 * Ping (wire spec section 6).  The responder is an ordinary MD on portal 0
 * with match bits 0x8000000000000000 that serves GETs from anyone, forever,
 * truncated to the asker's sink length.  Its buffer is rebuilt, with the
 * sequence number in entry 0 bumped, whenever the set of NIs changes or
 * discovery is turned on or off; the new MD goes in front of the old,
 * which is then unlinked and frees its buffer when its last REPLY is
 * gone, and multi-rail peers get the new one by a push
 * (lnet/discovery.c).  An NI's status change is written into the buffer
 * in place, with the same sequence number (spec 6.2), and pushed.
 * lnet_ping() is a GET into a bound MD, validated as spec 6.2 says.
 *
 * Its sink is sized as stock Lustre's: 272 bytes first (an IMMEDIATE GET
 * over o2ib, spec 5.8), and a truncated reply is asked again with the
 * size it states, which the reply then fills.  Never a sink larger than
 * the reply: stock ko2iblnd does not write the tail of a reply shorter
 * than the sink fragment it lands in (Documentation/o2iblnd.rst).
 *
 * The buffer advertises the multi-rail profile of spec 7: MULTI_RAIL and
 * (unless turned off) DISCOVERY, so a stock Lustre node discovers our
 * NIDs and pushes its own to us (lnet/push.c takes them).
 */
#include <linux/completion.h>
#include <linux/export.h>
#include <linux/slab.h>

#include <lnet/lib-lnet.h>
#include <lnet/router.h>

/* The responder's MD frees its buffer when it is unlinked. */
static void lnet_ping_target_event(struct lnet_event *ev)
{
	if (ev->unlinked)
		kfree(ev->md_start);
}

/**
 * lnet_ping_features() - the feature bits our ping buffer advertises
 *
 * The multi-rail profile of spec 7: MULTI_RAIL, and DISCOVERY while
 * discovery is on ("lnetctl set discovery"); RTE_DISABLED unless we route.
 *
 * Return: pi_features.
 */
u32 lnet_ping_features(void)
{
	u32 features = LNET_PING_FEAT_NI_STATUS | LNET_PING_FEAT_MULTI_RAIL;

	/* routing spec 5.1: advertised unless forwarding is ENABLED */
	if (lnet_routing_state() != LNET_ROUTING_ENABLED)
		features |= LNET_PING_FEAT_RTE_DISABLED;

	if (lnet_discovery_enabled())
		features |= LNET_PING_FEAT_DISCOVERY;
	return features;
}

/**
 * lnet_ping_target_update() - (re)build and publish the ping buffer
 *
 * Entry 0 is 0@lo with the sequence number; then every NI with a nid4, in
 * configuration order (no LND makes large NIDs yet, so LARGE_ADDR is never
 * needed), then, DOWN, the former NIDs of NIs whose address changed
 * lately (lnet/ni-addr.c).  Called with ln_api_mutex held whenever NIs come or go.  On
 * failure the published buffer and its sequence number are unchanged.
 *
 * Return: 0 or -ENOMEM.
 */
int lnet_ping_target_update(void)
{
	struct lnet_processid any = { .nid = LNET_ANY_NID, .pid = LNET_PID_ANY };
	struct lnet_handle_md old = the_lnet.ln_ping_mdh, mdh;
	unsigned long now = jiffies;
	struct lnet_ping_ni *nis;
	struct lnet_ping_info *pi;
	unsigned int n = 0, size;
	struct lnet_net *net;
	struct lnet_md md;
	struct lnet_me *me;
	struct lnet_ni *ni;
	int rc;

	list_for_each_entry(net, &the_lnet.ln_nets, net_list)
		list_for_each_entry(ni, &net->net_nis, ni_list) {
			if (ni != the_lnet.ln_loni &&
			    lnet_nid_is_nid4(&ni->ni_nid))
				n++;
			if (lnet_ni_former_listed(ni, now))
				n++;
		}
	if (lnet_test_fail_ping_update) {
		lnet_test_fail_ping_update--;
		return -ENOMEM;
	}
	size = lnet_ping_buf_size(n);
	pi = kzalloc(size, GFP_KERNEL);
	nis = kcalloc(n, sizeof(*nis), GFP_KERNEL);
	if (!pi || (n && !nis)) {
		kfree(pi);
		kfree(nis);
		return -ENOMEM;
	}
	n = 0;
	list_for_each_entry(net, &the_lnet.ln_nets, net_list)
		list_for_each_entry(ni, &net->net_nis, ni_list) {
			if (ni == the_lnet.ln_loni ||
			    !lnet_nid_is_nid4(&ni->ni_nid))
				continue;
			nis[n].nid = ni->ni_nid;
			nis[n++].up = lnet_ni_status_up(ni);
		}
	/* Moved NIs' former NIDs, DOWN, after all ours (lnet/ni-addr.c). */
	list_for_each_entry(net, &the_lnet.ln_nets, net_list)
		list_for_each_entry(ni, &net->net_nis, ni_list)
			if (lnet_ni_former_listed(ni, now)) {
				nis[n].nid = ni->ni_former_nid;
				nis[n++].up = false;
			}
	/* The number counts only buffers that were published. */
	lnet_ping_buf_build(pi, lnet_ping_features(), the_lnet.ln_ping_seq + 1,
			    nis, n);
	kfree(nis);

	me = lnet_me_attach(LNET_RESERVED_PORTAL, &any,
			    LNET_PROTO_PING_MATCHBITS, 0, LNET_INS_BEFORE);
	if (IS_ERR(me)) {
		kfree(pi);
		return PTR_ERR(me);
	}
	md = (struct lnet_md) {
		.start = pi,
		.length = size,
		.threshold = LNET_MD_THRESH_INF,
		.options = LNET_MD_OP_GET | LNET_MD_TRUNCATE |
			   LNET_MD_MANAGE_REMOTE,
		.handler = lnet_ping_target_event,
	};
	rc = lnet_md_attach(me, &md, LNET_RETAIN, &mdh);
	if (rc) {
		kfree(pi);
		return rc;
	}
	lnet_lock();
	the_lnet.ln_ping_seq++;
	the_lnet.ln_ping_mdh = mdh;
	the_lnet.ln_ping_info = pi;
	the_lnet.ln_ping_size = size;
	lnet_dc_push_update_locked(the_lnet.ln_push_force);
	the_lnet.ln_push_force = false;
	lnet_unlock();
	if (!lnet_md_handle_is_none(old) && old.cookie)
		lnet_md_unlink(old);
	return 0;
}

static void lnet_ping_update_work_fn(struct work_struct *work)
{
	mutex_lock(&the_lnet.ln_api_mutex);
	if (the_lnet.ln_state == LNET_STATE_RUNNING &&
	    lnet_ping_target_update())
		pr_warn("LNet: ping buffer not updated: out of memory\n");
	mutex_unlock(&the_lnet.ln_api_mutex);
}

static DECLARE_WORK(lnet_ping_update_work, lnet_ping_update_work_fn);

/**
 * lnet_ping_target_update_later() - rebuild the ping buffer soon
 * @force: push it to every multi-rail peer, even those that have it
 *
 * From a context that may not take ln_api_mutex (an LND reporting an
 * NI's status holds its own locks, which it also takes under
 * ln_api_mutex when an NI stops; a parameter's setter).
 */
void lnet_ping_target_update_later(bool force)
{
	if (force)
		WRITE_ONCE(the_lnet.ln_push_force, true);
	schedule_work(&lnet_ping_update_work);
}

/**
 * lnet_ping_target_status_locked() - our NIs' status changed
 *
 * Spec 6.2: each NI's status is written into the published buffer in
 * place, with the same sequence number (a buffer is rebuilt only when
 * NIs come or go, or its features change), and every multi-rail peer
 * gets it by a forced push (spec 7, "also pushed").
 */
void lnet_ping_target_status_locked(void)
{
	struct lnet_net *net;
	struct lnet_ni *ni;

	if (!the_lnet.ln_ping_info)
		return;
	list_for_each_entry(net, &the_lnet.ln_nets, net_list)
		list_for_each_entry(ni, &net->net_nis, ni_list)
			if (ni != the_lnet.ln_loni)
				lnet_ping_buf_set_status(the_lnet.ln_ping_info,
							 &ni->ni_nid,
							 lnet_ni_status_up(ni));
	lnet_dc_push_update_locked(true);
}

static void lnet_ping_status_work_fn(struct work_struct *work)
{
	lnet_lock();
	if (the_lnet.ln_state == LNET_STATE_RUNNING)
		lnet_ping_target_status_locked();
	lnet_unlock();
}

static DECLARE_WORK(lnet_ping_status_work, lnet_ping_status_work_fn);

/**
 * lnet_ping_target_status_later() - lnet_ping_target_status_locked() soon
 *
 * From a context that may not take the LNet lock (an LND reporting an
 * NI's status holds its own locks).
 */
void lnet_ping_target_status_later(void)
{
	schedule_work(&lnet_ping_status_work);
}

/* Module exit: no update may run after LNet's code is gone. */
void lnet_ping_target_cancel_updates(void)
{
	cancel_work_sync(&lnet_ping_update_work);
	cancel_work_sync(&lnet_ping_status_work);
}

/* Withdraw the responder; its buffer goes with its MD. */
void lnet_ping_target_fini(void)
{
	struct lnet_handle_md old;

	lnet_lock();
	old = the_lnet.ln_ping_mdh;
	the_lnet.ln_ping_mdh = LNET_MD_HANDLE_NONE;
	the_lnet.ln_ping_info = NULL;
	lnet_unlock();
	if (!lnet_md_handle_is_none(old) && old.cookie)
		lnet_md_unlink(old);
}

struct lnet_ping_ctx {
	struct completion	replied;	/* REPLY or failed SEND */
	struct completion	unlinked;	/* the MD is gone */
	int			status;
	u32			mlength;
	bool			got_reply;
};

static void lnet_ping_event(struct lnet_event *ev)
{
	struct lnet_ping_ctx *ctx = ev->md_user_ptr;

	if (ev->type == LNET_EVENT_REPLY && !ev->status) {
		ctx->got_reply = true;
		ctx->mlength = ev->mlength;
		complete(&ctx->replied);
	} else if (ev->status && ev->type != LNET_EVENT_UNLINK) {
		ctx->status = ev->status;
		complete(&ctx->replied);
	}
	if (ev->unlinked)
		complete(&ctx->unlinked);
}

/*
 * A ping reply: its NIDs into @nids, its features into *@features.
 * Return: the NIDs it lists (a truncated one: what its header counts),
 * or -EPROTO.
 */
static int lnet_ping_reply_parse(const u8 *buf, unsigned int len,
				 struct lnet_nid *nids, unsigned int max,
				 u32 *features)
{
	struct lnet_ping_data pd;
	int rc;

	rc = lnet_ping_buf_parse(buf, len, &pd, nids, NULL, max);
	if (rc)
		return rc;
	if (features)
		*features = pd.features;
	return pd.truncated ? max(pd.nnids, pd.nnis - 1) : pd.nnids;
}

/**
 * lnet_ping_raw() - GET a NID's ping buffer
 * @dst: the target
 * @src: the local NID to send from, or NULL to let LNet choose
 * @timeout_ms: how long to wait for the reply
 * @buf: the sink
 * @size: its length: a longer reply is truncated
 *
 * The caller holds an LNet reference (lnet_ref_running(), lnet_ni_init()).
 *
 * Context: Process context; sleeps.
 * Return: the bytes the reply wrote, -ETIMEDOUT, or another -errno.
 */
int lnet_ping_raw(const struct lnet_nid *dst, const struct lnet_nid *src,
		  unsigned int timeout_ms, void *buf, unsigned int size)
{
	struct lnet_processid target = { .nid = *dst, .pid = LNET_PID_LUSTRE };
	struct lnet_ping_ctx ctx = { .status = 0 };
	struct lnet_handle_md mdh;
	struct lnet_md md;
	int rc;

	init_completion(&ctx.replied);
	init_completion(&ctx.unlinked);
	md = (struct lnet_md) {
		.start = buf,
		.length = size,
		.threshold = 2,			/* SEND and REPLY */
		.options = LNET_MD_TRUNCATE,
		.user_ptr = &ctx,
		.handler = lnet_ping_event,
	};
	rc = lnet_md_bind(&md, LNET_UNLINK, &mdh);
	if (rc)
		return rc;
	rc = lnet_get(src, mdh, &target, LNET_RESERVED_PORTAL,
		      LNET_PROTO_PING_MATCHBITS, 0);
	if (!rc &&
	    !wait_for_completion_timeout(&ctx.replied,
					 msecs_to_jiffies(timeout_ms)))
		rc = -ETIMEDOUT;
	/* Idle: an UNLINK event now; busy: the last event says unlinked. */
	lnet_md_unlink(mdh);
	wait_for_completion(&ctx.unlinked);

	if (ctx.got_reply)
		return ctx.mlength;
	if (!rc || rc == -ETIMEDOUT)
		rc = ctx.status ? ctx.status : -ETIMEDOUT;
	return rc;
}

/* The first ping's sink, as Lustre's (a buffer of 16 NIs, 0@lo included). */
#define LNET_PING_FIRST_SIZE	272
/* A truncated reply is asked again this many times at most. */
#define LNET_PING_RETRIES	2

/*
 * The largest reply asked for: a buffer of max_interfaces NIDs, large
 * ones among them (as discovery bounds it).
 */
static unsigned int lnet_ping_size_max(void)
{
	return lnet_ping_buf_size(lnet_max_interfaces()) + 24 * 256;
}

/**
 * lnet_ping() - ping a NID and return the NIDs its ping buffer lists
 * @dst: the target
 * @src: the local NID to send from, or NULL to let LNet choose
 * @timeout_ms: how long to wait for the reply
 * @nids: filled with the peer's NIDs, 0@lo excluded, in buffer order
 * @max_nids: room in @nids
 * @features: if not NULL, the reply's pi_features
 *
 * The first GET asks for 272 bytes; a reply that says it is longer is
 * asked again with the size it states (at most twice: the buffer may grow
 * meanwhile), all within @timeout_ms.
 *
 * Context: Process context; sleeps.
 * Return: the number of NIDs the peer listed (may exceed @max_nids),
 * -ETIMEDOUT, -EHOSTUNREACH if no NI reaches @dst, -EPROTO for a reply
 * that does not validate, -ENETDOWN if LNet is down, or another -errno.
 */
int lnet_ping(const struct lnet_nid *dst, const struct lnet_nid *src,
	      unsigned int timeout_ms, struct lnet_nid *nids,
	      unsigned int max_nids, u32 *features)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(timeout_ms);
	unsigned int size = LNET_PING_FIRST_SIZE, tries = 0;
	struct lnet_ping_data pd;
	long left;
	u8 *buf;
	int rc;

	rc = lnet_ref_running();
	if (rc)
		return rc;
	for (;;) {
		buf = kzalloc(size, GFP_KERNEL);
		if (!buf) {
			rc = -ENOMEM;
			break;
		}
		left = (long)(deadline - jiffies);
		rc = left > 0 ? lnet_ping_raw(dst, src, jiffies_to_msecs(left),
					      buf, size) : -ETIMEDOUT;
		if (rc >= 0 && tries++ < LNET_PING_RETRIES &&
		    !lnet_ping_buf_parse(buf, rc, &pd, NULL, NULL, 0) &&
		    pd.truncated && pd.size > size &&
		    pd.size <= lnet_ping_size_max()) {
			size = pd.size;
			kfree(buf);
			continue;
		}
		if (rc >= 0)
			rc = lnet_ping_reply_parse(buf, rc, nids, max_nids,
						   features);
		kfree(buf);
		break;
	}
	lnet_ni_fini();
	return rc;
}
EXPORT_SYMBOL(lnet_ping);
