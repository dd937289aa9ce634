// SPDX-License-Identifier: GPL-2.0
/*
 * Message life cycle: allocation (counted, so that shutdown can wait for
 * the last one), attachment to an MD (which uses up one operation of its
 * threshold), and finalization: return the credits, count the message,
 * deliver the MD's event, unlink an exhausted MD, and turn a delivered PUT
 * that asked for one into its ACK.
 */
#include <linux/export.h>
#include <linux/ktime.h>
#include <linux/slab.h>

#include <lnet/lib-lnet.h>
#include <lnet/router.h>
#include <lnet/trace.h>

/**
 * lnet_msg_alloc() - a new, zeroed message
 * @gfp: allocation flags
 *
 * Return: the message or NULL.
 */
struct lnet_msg *lnet_msg_alloc(gfp_t gfp)
{
	struct lnet_counters_common *c = &the_lnet.ln_counters;
	struct lnet_msg *msg;

	msg = kzalloc(sizeof(*msg), gfp);
	if (!msg)
		return NULL;
	INIT_LIST_HEAD(&msg->msg_list);
	msg->msg_self = LNET_ANY_NID;
	msg->msg_from = LNET_ANY_NID;
	lnet_lock();
	c->msgs_alloc++;
	if (c->msgs_alloc > c->msgs_max)
		c->msgs_max = c->msgs_alloc;
	lnet_unlock();
	return msg;
}
EXPORT_SYMBOL_GPL(lnet_msg_alloc);

/**
 * lnet_msg_free() - free a message that holds no credit and no MD
 * @msg: the message
 */
void lnet_msg_free(struct lnet_msg *msg)
{
	bool last;

	lnet_lock();
	WARN_ON(msg->msg_md || msg->msg_txcredit || msg->msg_peertxcredit ||
		msg->msg_rtrbuf || msg->msg_rtrcredit);
	if (msg->msg_rtrpeer)
		lnet_peer_ni_put_locked(msg->msg_rtrpeer);
	if (msg->msg_txpeer)
		lnet_peer_ni_put_locked(msg->msg_txpeer);
	if (msg->msg_txni)
		lnet_ni_put_locked(msg->msg_txni);
	if (msg->msg_rxni)
		lnet_ni_put_locked(msg->msg_rxni);
	last = !--the_lnet.ln_counters.msgs_alloc;
	lnet_unlock();
	kfree(msg);
	if (last)
		wake_up_all(&the_lnet.ln_msgs_wq);
}
EXPORT_SYMBOL_GPL(lnet_msg_free);

/**
 * lnet_msg_attach_md() - make a message use an MD
 * @msg: the message
 * @md: the MD; one operation of its threshold is used
 * @offset: where in @md the data goes or comes from
 * @mlen: how many bytes
 *
 * An MD with %LNET_UNLINK whose threshold is now used up leaves its portal
 * at once, so it matches nothing more; it is freed after this message.
 */
void lnet_msg_attach_md(struct lnet_msg *msg, struct lnet_libmd *md,
			unsigned int offset, unsigned int mlen)
{
	msg->msg_md = md;
	msg->msg_offset = offset;
	msg->msg_len = mlen;
	md->md_refcount++;
	if (md->md_threshold != LNET_MD_THRESH_INF)
		md->md_threshold--;
	if (md->md_unlink && lnet_md_exhausted(md))
		lnet_md_unlink_locked(md);
}
EXPORT_SYMBOL_GPL(lnet_msg_attach_md);

/**
 * lnet_msg_detach_md() - end a message's use of its MD
 * @msg: the message
 * @status: outcome, reported in the event
 *
 * Delivers msg->msg_ev (if the message has one and the MD a handler) and
 * frees an unlinked MD that is now idle; that event (an UNLINK event if
 * the message had none) has @unlinked set.
 */
void lnet_msg_detach_md(struct lnet_msg *msg, int status)
{
	struct lnet_libmd *md = msg->msg_md;
	struct lnet_event *ev = &msg->msg_ev;
	bool unlinked;

	md->md_refcount--;
	unlinked = md->md_zombie && !md->md_refcount;
	if (md->md_handler && (ev->type || unlinked)) {
		/* The user must learn of the unlink even without an event. */
		if (!ev->type)
			ev->type = LNET_EVENT_UNLINK;
		ev->status = md->md_aborted && !status ? -ETIMEDOUT : status;
		ev->unlinked = unlinked;
		ev->md_handle.cookie = md->md_handle;
		ev->md_start = md->md_start;
		ev->md_user_ptr = md->md_user_ptr;
		md->md_handler(ev);
	}
	msg->msg_md = NULL;
	if (unlinked)
		lnet_md_unlink_locked(md);
}
EXPORT_SYMBOL_GPL(lnet_msg_detach_md);

static void lnet_latency_add(struct lnet_latency *l, u64 ns)
{
	if (!l->samples || ns < l->min_ns)
		l->min_ns = ns;
	l->max_ns = max(l->max_ns, ns);
	l->total_ns += ns;
	l->samples++;
}

/*
 * A latency sample of a message that succeeded: a PUT's egress when sent,
 * a round trip when its REPLY or ACK arrives (spec features 9b).
 */
static void lnet_msg_latency_locked(struct lnet_msg *msg,
				    struct lnet_ni_stats *ni,
				    struct lnet_ni_stats *lpni)
{
	enum lnet_latency_kind kind;
	u64 ns;

	if (!msg->msg_start_ns)
		return;
	if (msg->msg_send && msg->msg_type == LNET_MSG_PUT)
		kind = LNET_LAT_PUT_EGRESS;
	else if (!msg->msg_send && msg->msg_type == LNET_MSG_REPLY)
		kind = LNET_LAT_GET_RTT;
	else if (!msg->msg_send && msg->msg_type == LNET_MSG_ACK)
		kind = LNET_LAT_PUT_ACK;
	else
		return;
	ns = ktime_get_ns() - msg->msg_start_ns;
	lnet_latency_add(&ni->lat[kind], ns);
	if (lpni)
		lnet_latency_add(&lpni->lat[kind], ns);
}

/*
 * Count a finished message on its NI, its peer NI and globally; @lpni is
 * the peer NI a receive came from (none for 0@lo's).  A forwarded
 * message counts on its NIs and peer NIs, and globally only as routed
 * (route_count, once sent on) or dropped (spec 9).
 */
static void lnet_msg_count_locked(struct lnet_msg *msg,
				  struct lnet_peer_ni *lpni, int status)
{
	struct lnet_counters_common *c = &the_lnet.ln_counters;
	unsigned int type = msg->msg_type;
	struct lnet_ni_stats *s;

	if (status) {
		c->errors++;
		if (msg->msg_send && !msg->msg_routing)
			return;
		lnet_drop_count_locked(msg->msg_rxni, LNET_DROP_COUNT,
				       msg->msg_type, msg->msg_len);
		if (lpni) {
			lpni->lpni_stats.drop_count++;
			lpni->lpni_stats.dropped[type]++;
		}
		return;
	}
	if (msg->msg_send) {
		s = &msg->msg_txni->ni_stats;
		s->send_count++;
		s->sent[type]++;
		s->send_length += msg->msg_len;
		if (msg->msg_txpeer) {
			msg->msg_txpeer->lpni_stats.send_count++;
			msg->msg_txpeer->lpni_stats.sent[type]++;
		}
		lnet_msg_latency_locked(msg, s, msg->msg_txpeer ?
					&msg->msg_txpeer->lpni_stats : NULL);
		if (msg->msg_routing) {
			c->route_count++;
			c->route_length += msg->msg_len;
			return;
		}
		c->send_count++;
		c->send_length += msg->msg_len;
	} else {
		s = &msg->msg_rxni->ni_stats;
		s->recv_count++;
		s->received[type]++;
		s->recv_length += msg->msg_len;
		if (lpni) {
			lpni->lpni_stats.recv_count++;
			lpni->lpni_stats.received[type]++;
		}
		lnet_msg_latency_locked(msg, s, lpni ? &lpni->lpni_stats : NULL);
		if (msg->msg_routing)
			return;
		c->recv_count++;
		c->recv_length += msg->msg_len;
	}
}

/**
 * lnet_msg_to_response() - turn a request into its ACK or REPLY
 * @msg: a delivered PUT that asked for an ACK, or a matched GET
 *
 * The one place responses are built (wire spec 2.6): a response goes back
 * to the request's source NID, from the NID the request was addressed to
 * (the receiving NI), by way of the NID it came from (msg_from, kept).  An
 * ACK carries the PUT's match bits and delivered length and no payload; a
 * REPLY carries the bytes the GET matched (msg_len).  The caller sends it
 * (lnet_send_msg(), or the LND's RDMA for a GET_REQ) and fills in the
 * addresses then.
 */
void lnet_msg_to_response(struct lnet_msg *msg)
{
	struct lnet_hdr *hdr = &msg->msg_hdr;
	bool is_ack = msg->msg_type == LNET_MSG_PUT;
	struct lnet_hdr_ack ack = {
		.dst_wmd = hdr->msg.put.ack_wmd,
		.match_bits = hdr->msg.put.match_bits,
		.mlength = msg->msg_len,
	};
	struct lnet_hdr_reply reply = {
		.dst_wmd = hdr->msg.get.return_wmd,
	};
	/* The NID it came from, not the peer's primary NID (initiator). */
	struct lnet_processid src = {
		.nid = hdr->src_nid,
		.pid = hdr->src_pid,
	};

	msg->msg_send = true;
	msg->msg_type = is_ack ? LNET_MSG_ACK : LNET_MSG_REPLY;
	msg->msg_target = src;
	msg->msg_self = msg->msg_rxni->ni_nid;
	memset(hdr, 0, sizeof(*hdr));
	hdr->type = msg->msg_type;
	if (is_ack) {
		hdr->msg.ack = ack;
		msg->msg_len = 0;
	} else {
		hdr->msg.reply = reply;
	}
}

/*
 * A delivered PUT that asked for one becomes its ACK: a new message for
 * the engine, finalized again when the ACK is sent.
 */
static void lnet_msg_send_ack(struct lnet_msg *msg)
{
	msg->msg_finalized = false;
	msg->msg_ack = false;
	memset(&msg->msg_ev, 0, sizeof(msg->msg_ev));
	lnet_msg_to_response(msg);
	lnet_send_msg(msg);
}

/* What becomes of a message once its bookkeeping is done. */
enum lnet_msg_next {
	LNET_MSG_NEXT_FREE,	/* freed */
	LNET_MSG_NEXT_ACK,	/* a delivered PUT: becomes its ACK */
	LNET_MSG_NEXT_RESEND,	/* queued to be sent again: not finalized */
	LNET_MSG_NEXT_FORWARD,	/* received to forward: sent on (router.c) */
};

/*
 * The bookkeeping of one finished message: its health check (which may
 * take it to be sent again), its credits go back (messages that now hold
 * all theirs join @ready), it is counted and its MD gets its event.  A
 * forwarded message received whole is sent on instead; once it is done,
 * its router buffer and credit go back (forwarded messages that now hold
 * theirs join @rx).
 */
static enum lnet_msg_next lnet_msg_complete_locked(struct lnet_msg *msg,
						   int status,
						   struct list_head *ready,
						   struct list_head *rx)
{
	struct lnet_peer_ni *lpni = msg->msg_txpeer;

	/* A receive counts on its sender's peer NI (none for 0@lo's). */
	if (!msg->msg_send && msg->msg_rxni &&
	    msg->msg_rxni != the_lnet.ln_loni)
		lpni = lnet_peer_ni_find_locked(&msg->msg_from);
	if (lnet_msg_health_locked(msg, lpni, status, ready))
		return LNET_MSG_NEXT_RESEND;
	if (msg->msg_routing && !msg->msg_send && !status) {
		lnet_msg_count_locked(msg, lpni, 0);
		return LNET_MSG_NEXT_FORWARD;
	}
	msg->msg_finalized = true;
	if (status)
		trace_lnet_msg_failed(msg, status);
	if (msg->msg_send && msg->msg_txni)
		lnet_msg_credits_release(msg, ready);
	if (msg->msg_txni || msg->msg_rxni)
		lnet_msg_count_locked(msg, lpni, status);
	if (msg->msg_md)
		lnet_msg_detach_md(msg, status);
	if (msg->msg_routing)
		lnet_fwd_release_locked(msg, rx);
	return !status && msg->msg_ack && !msg->msg_send ? LNET_MSG_NEXT_ACK :
							   LNET_MSG_NEXT_FREE;
}

/* After its bookkeeping: a message becomes its ACK, or is freed. */
static void lnet_msg_retire(struct lnet_msg *msg, enum lnet_msg_next next)
{
	if (next == LNET_MSG_NEXT_ACK)
		lnet_msg_send_ack(msg);
	else if (next == LNET_MSG_NEXT_FORWARD)
		lnet_fwd_send(msg);
	else if (next == LNET_MSG_NEXT_FREE)
		lnet_msg_free(msg);
}

/*
 * Start what waited: @ready hold their tx credits (to their LND's
 * lnd_send()), @rx their router buffer (to their LND's lnd_recv(), or
 * dropped).  Iterative: a message its LND refuses at once is completed
 * by this loop, not by a nested call (a nested call per queued message
 * overflowed the stack when an NI failed with a backlog).  The one place
 * where credit waiters are started.
 */
static void lnet_msgs_run(struct list_head *ready, struct list_head *rx)
{
	enum lnet_msg_next next;
	struct lnet_msg *m;
	int rc;

	for (;;) {
		m = list_first_entry_or_null(ready, struct lnet_msg, msg_list);
		if (m) {
			list_del_init(&m->msg_list);
			rc = lnet_ni_send_rc(m);
		} else {
			m = list_first_entry_or_null(rx, struct lnet_msg,
						     msg_list);
			if (!m)
				break;
			list_del_init(&m->msg_list);
			rc = lnet_fwd_recv_rc(m);
		}
		if (!rc)
			continue;
		/* Refused: its credits may release more waiters. */
		lnet_lock();
		next = lnet_msg_complete_locked(m, rc, ready, rx);
		lnet_unlock();
		lnet_msg_retire(m, next);
	}
}

/**
 * lnet_fwd_rx_run() - hand forwarded messages that waited to their LNDs
 * @rx: messages holding their router buffer, or none to be dropped
 *
 * Context: Process context or softirq; no LNet lock held.
 */
void lnet_fwd_rx_run(struct list_head *rx)
{
	LIST_HEAD(ready);

	lnet_msgs_run(&ready, rx);
}

/**
 * lnet_finalize() - a message is done
 * @msg: the message
 * @status: 0, or -errno if it failed
 *
 * Called by an LND when a send completed or a receive was delivered, and
 * by the core for messages that fail before reaching an LND.  A failed
 * send that its LND classified (msg_health_status) may be taken to be
 * sent again by another path (lnet/resend.c); otherwise this returns the
 * message's credits, counts it, delivers its event, frees it or turns it
 * into an ACK, and starts the messages that were waiting for its credits
 * (lnet_msgs_run()).  A forwarded message received whole is sent on
 * (lnet/router.c).  Each message is finalized exactly once (a forwarded
 * one once received and once sent on); a second call is a bug and is
 * refused with a warning.
 *
 * Context: Process context or softirq; no LNet lock held.
 */
void lnet_finalize(struct lnet_msg *msg, int status)
{
	LIST_HEAD(ready);	/* hold their credits: to their LND */
	LIST_HEAD(rx);		/* hold their router buffer: to their LND */
	enum lnet_msg_next next;

	lnet_lock();
	if (WARN_ON(msg->msg_finalized)) {
		lnet_unlock();
		return;
	}
	next = lnet_msg_complete_locked(msg, status, &ready, &rx);
	lnet_unlock();
	lnet_msg_retire(msg, next);
	lnet_msgs_run(&ready, &rx);
}
EXPORT_SYMBOL(lnet_finalize);
