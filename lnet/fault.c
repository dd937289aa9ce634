// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection: "lnetctl fault drop|delay add|del|reset|show", as
 * Lustre's net_fault.c (spec features section 6), so that a test can make
 * any failure happen on demand.
 *
 * A rule matches messages by header source and destination NID (a NID,
 * "*@net" or "*"), message type and portal, and acts on one in each run
 * of `rate` matches or once per `interval` seconds:
 * - a drop rule without a health error drops a received message in
 *   lnet_parse() (silent loss: the sender sees its ACK, REPLY or
 *   response time out);
 * - a drop rule with a health error makes the LND report that failure
 *   (include/lnet/health.h) for a message it was about to send, instead
 *   of sending it: lnet_send_error_simulation(), called by ksocklnd and
 *   ko2iblnd where they hand a message to the wire, as Lustre's do;
 * - a delay rule holds a message for `latency` seconds, as Lustre does
 *   both on send and on receive: a message to send, holding its credits,
 *   before its LND gets it; a received message after its header was
 *   checked, before it is matched (lnet_parse_local()): its LND keeps
 *   its buffer and connection until lnd_recv() (the sender's credit comes
 *   back late, as in Lustre).  As in Lustre the delay matcher passes no
 *   local NID: a delay rule that names one never matches.
 *
 * Rules are few and set by an admin: a list read under RCU, written under
 * a mutex, at most LNET_FAULT_RULES_MAX.  Each has a spinlock for its
 * counters and schedule (taken from softirq receive paths too: _bh).
 * A work item releases held messages when their time comes, or at once
 * when a delay rule is deleted (sent, received) or LNet stops (sent, the
 * received ones dropped); an NI that stops first releases its own (sends
 * fail, receives are dropped), so that it never waits for a delay.
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/jiffies.h>
#include <linux/netlink.h>
#include <linux/random.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <lnet/fault.h>
#include <lnet/lib-lnet.h>

#define LNET_FAULT_RULES_MAX	256

struct lnet_fault_rule {
	struct list_head	fr_list;
	struct rcu_head		fr_rcu;
	struct lnet_fault_attr	fr_attr;
	spinlock_t		fr_lock;	/* fr_stats, fr_sched */
	struct lnet_fault_stats	fr_stats;
	struct lnet_fault_sched	fr_sched;
};

static LIST_HEAD(lnet_fault_rules);
static DEFINE_MUTEX(lnet_fault_mutex);		/* writers of the list */
static unsigned int lnet_fault_nrules[2];	/* per type, for fast paths */

/* Messages a delay rule holds, in the order their time comes. */
struct lnet_fault_held {
	struct list_head	fh_list;
	struct lnet_msg		*fh_msg;
	unsigned long		fh_due;
	bool			fh_rx;		/* received, not yet matched */
	bool			fh_rdma_req;	/* lnet_parse_rdma()'s */
};

static LIST_HEAD(lnet_fault_heldq);
static DEFINE_SPINLOCK(lnet_fault_held_lock);
static void lnet_fault_delay_work(struct work_struct *work);
static DECLARE_DELAYED_WORK(lnet_fault_delay_dwork, lnet_fault_delay_work);

static u32 lnet_fault_rnd(u32 ceil)
{
	return get_random_u32_below(ceil);
}

/**
 * lnet_fault_attr_check() - validate a new rule, and complete it
 * @attr: the rule; a zero msg_mask becomes every type, and a portal mask
 *	restricts it to PUT and GET (the others have no portal)
 * @extack: why it is refused
 *
 * Return: 0, or -EINVAL.
 */
int lnet_fault_attr_check(struct lnet_fault_attr *attr,
			  struct netlink_ext_ack *extack)
{
	bool drop = attr->type == LNET_FAULT_DROP;

	if (attr->msg_mask & ~LNET_FAULT_MSG_ALL) {
		NL_SET_ERR_MSG(extack, "unknown message type bits");
		return -EINVAL;
	}
	if (!attr->msg_mask)
		attr->msg_mask = LNET_FAULT_MSG_ALL;
	if (attr->ptl_mask) {
		attr->msg_mask &= BIT(LNET_MSG_PUT) | BIT(LNET_MSG_GET);
		if (!attr->msg_mask) {
			NL_SET_ERR_MSG(extack,
				       "a portal filter matches only PUT and GET");
			return -EINVAL;
		}
	}
	if (!(drop && attr->drop_all) && !attr->rate == !attr->interval) {
		NL_SET_ERR_MSG(extack,
			       "give a rate or an interval, not both");
		return -EINVAL;
	}
	if (!drop && (attr->health_mask || attr->random || attr->drop_all)) {
		NL_SET_ERR_MSG(extack,
			       "health_error, random and drop_all are drop options");
		return -EINVAL;
	}
	if (drop && attr->latency) {
		NL_SET_ERR_MSG(extack, "latency is a delay option");
		return -EINVAL;
	}
	if (!drop && !attr->latency) {
		NL_SET_ERR_MSG(extack, "a delay rule needs a latency > 0");
		return -EINVAL;
	}
	if (attr->random && !attr->interval) {
		NL_SET_ERR_MSG(extack, "random needs an interval");
		return -EINVAL;
	}
	if (attr->health_mask != LNET_FAULT_HEALTH_RANDOM &&
	    attr->health_mask & ~LNET_FAULT_HEALTH_ALL) {
		NL_SET_ERR_MSG(extack, "unknown health error bits");
		return -EINVAL;
	}
	if (attr->health_mask && !attr->local.any) {
		NL_SET_ERR_MSG(extack,
			       "a health error rule applies at send: no local NID");
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_fault_attr_check);

static bool lnet_fault_nid_match(const struct lnet_fault_nid *f,
				 const struct lnet_nid *nid)
{
	if (f->any)
		return true;
	if (!nid)
		return false;
	if (f->net_any)
		return lnet_nid_net(&f->nid) == lnet_nid_net(nid);
	return lnet_nid_equal(&f->nid, nid);
}

/**
 * lnet_fault_attr_match() - does a rule's filter take this message
 * @attr: the rule
 * @hdr: the message's header
 * @local: the NI it was received on, or NULL (at send)
 *
 * Return: true if NIDs, type and portal all match.
 */
bool lnet_fault_attr_match(const struct lnet_fault_attr *attr,
			   const struct lnet_hdr *hdr,
			   const struct lnet_nid *local)
{
	u32 ptl;

	if (hdr->type > LNET_MSG_REPLY || !(attr->msg_mask & BIT(hdr->type)))
		return false;
	if (!lnet_fault_nid_match(&attr->src, &hdr->src_nid) ||
	    !lnet_fault_nid_match(&attr->dst, &hdr->dest_nid) ||
	    !lnet_fault_nid_match(&attr->local, local))
		return false;
	if (!attr->ptl_mask)
		return true;
	ptl = hdr->type == LNET_MSG_PUT ? hdr->msg.put.ptl_index :
					  hdr->msg.get.ptl_index;
	return ptl < 64 && (attr->ptl_mask & BIT_ULL(ptl));
}
EXPORT_SYMBOL_IF_KUNIT(lnet_fault_attr_match);

/**
 * lnet_fault_sched_init() - a new rule's first hit
 * @attr: the rule
 * @s: its schedule
 * @now: seconds
 * @rnd: a random number below its argument
 */
void lnet_fault_sched_init(const struct lnet_fault_attr *attr,
			   struct lnet_fault_sched *s, time64_t now,
			   u32 (*rnd)(u32 ceil))
{
	memset(s, 0, sizeof(*s));
	if (attr->interval) {
		s->time_base = now + attr->interval;
		s->hit_time = now + rnd(attr->interval);
	} else if (attr->rate) {
		s->hit_at = rnd(attr->rate);
	}
}
EXPORT_SYMBOL_IF_KUNIT(lnet_fault_sched_init);

/**
 * lnet_fault_sched_hit() - does this match act (Lustre's schedule)
 * @attr: the rule
 * @s: its schedule, moved on
 * @count: matches before this one
 * @now: seconds
 * @rnd: a random number below its argument
 *
 * drop_all: always.  random: with probability 1/2.  interval: the first
 * match at or after a random second of each window of @interval seconds.
 * rate: the match of a random place in each run of @rate matches (so
 * with rate 1, every one).
 *
 * Return: true if the rule acts on this message.
 */
bool lnet_fault_sched_hit(const struct lnet_fault_attr *attr,
			  struct lnet_fault_sched *s, u64 count, time64_t now,
			  u32 (*rnd)(u32 ceil))
{
	bool hit;

	if (attr->drop_all)
		return true;
	if (attr->random)
		return rnd(attr->interval) >= attr->interval / 2;
	if (attr->interval) {
		if (now < s->hit_time)
			return false;
		if (now > s->time_base)
			s->time_base = now;
		s->hit_time = s->time_base + rnd(attr->interval);
		s->time_base += attr->interval;
		return true;
	}
	hit = count == s->hit_at;
	if ((count + 1) % attr->rate == 0)
		s->hit_at = count + 1 + rnd(attr->rate);
	return hit;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_fault_sched_hit);

/**
 * lnet_fault_hstatus() - the failure a health error rule reports
 * @mask: BIT(hstatus) bits, or %LNET_FAULT_HEALTH_RANDOM
 * @rnd: a random number below its argument
 *
 * Return: a random failure for %LNET_FAULT_HEALTH_RANDOM, else the
 * lowest one of @mask.
 */
enum lnet_msg_hstatus lnet_fault_hstatus(u32 mask, u32 (*rnd)(u32 ceil))
{
	if (mask == LNET_FAULT_HEALTH_RANDOM)
		return LNET_MSG_STATUS_LOCAL_INTERRUPT +
		       rnd(LNET_MSG_STATUS_NETWORK_TIMEOUT);
	return __ffs(mask & LNET_FAULT_HEALTH_ALL);
}
EXPORT_SYMBOL_IF_KUNIT(lnet_fault_hstatus);

static bool lnet_fault_nid_same(const struct lnet_fault_nid *a,
				const struct lnet_fault_nid *b)
{
	if (a->any || b->any)
		return a->any == b->any;
	return a->net_any == b->net_any &&
	       (a->net_any ? lnet_nid_net(&a->nid) == lnet_nid_net(&b->nid) :
			     lnet_nid_equal(&a->nid, &b->nid));
}

/**
 * lnet_fault_add() - add a rule, after the others
 * @attr: the rule (lnet_fault_attr_check() completes it)
 * @extack: why it is refused
 *
 * Return: 0, -EINVAL, -ENOSPC (LNET_FAULT_RULES_MAX rules) or -ENOMEM.
 */
int lnet_fault_add(const struct lnet_fault_attr *attr,
		   struct netlink_ext_ack *extack)
{
	struct lnet_fault_rule *rule;
	unsigned int n;
	int rc;

	rule = kzalloc(sizeof(*rule), GFP_KERNEL);
	if (!rule)
		return -ENOMEM;
	rule->fr_attr = *attr;
	rc = lnet_fault_attr_check(&rule->fr_attr, extack);
	if (rc) {
		kfree(rule);
		return rc;
	}
	spin_lock_init(&rule->fr_lock);
	lnet_fault_sched_init(&rule->fr_attr, &rule->fr_sched,
			      ktime_get_seconds(), lnet_fault_rnd);
	mutex_lock(&lnet_fault_mutex);
	n = lnet_fault_nrules[LNET_FAULT_DROP] +
	    lnet_fault_nrules[LNET_FAULT_DELAY];
	if (n >= LNET_FAULT_RULES_MAX) {
		mutex_unlock(&lnet_fault_mutex);
		kfree(rule);
		NL_SET_ERR_MSG(extack, "too many fault rules");
		return -ENOSPC;
	}
	list_add_tail_rcu(&rule->fr_list, &lnet_fault_rules);
	WRITE_ONCE(lnet_fault_nrules[attr->type],
		   lnet_fault_nrules[attr->type] + 1);
	mutex_unlock(&lnet_fault_mutex);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_fault_add);

/**
 * lnet_fault_del() - delete rules
 * @type: drop or delay rules
 * @src: with @dst, the rules of exactly these NIDs; NULL: all of @type
 * @dst: see @src
 *
 * Messages held by delay rules are sent at once when one goes.
 *
 * Return: how many were deleted.
 */
int lnet_fault_del(enum lnet_fault_type type,
		   const struct lnet_fault_nid *src,
		   const struct lnet_fault_nid *dst)
{
	struct lnet_fault_rule *rule, *tmp;
	LIST_HEAD(gone);
	int n = 0;

	mutex_lock(&lnet_fault_mutex);
	list_for_each_entry_safe(rule, tmp, &lnet_fault_rules, fr_list) {
		if (rule->fr_attr.type != type ||
		    (src && (!lnet_fault_nid_same(&rule->fr_attr.src, src) ||
			     !lnet_fault_nid_same(&rule->fr_attr.dst, dst))))
			continue;
		list_del_rcu(&rule->fr_list);
		kfree_rcu(rule, fr_rcu);
		n++;
	}
	WRITE_ONCE(lnet_fault_nrules[type], lnet_fault_nrules[type] - n);
	mutex_unlock(&lnet_fault_mutex);
	if (n && type == LNET_FAULT_DELAY)
		lnet_fault_delay_flush();
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_fault_del);

/**
 * lnet_fault_reset() - zero the counters of every rule of a type
 * @type: drop or delay
 */
void lnet_fault_reset(enum lnet_fault_type type)
{
	struct lnet_fault_rule *rule;

	rcu_read_lock();
	list_for_each_entry_rcu(rule, &lnet_fault_rules, fr_list) {
		if (rule->fr_attr.type != type)
			continue;
		spin_lock_bh(&rule->fr_lock);
		memset(&rule->fr_stats, 0, sizeof(rule->fr_stats));
		lnet_fault_sched_init(&rule->fr_attr, &rule->fr_sched,
				      ktime_get_seconds(), lnet_fault_rnd);
		spin_unlock_bh(&rule->fr_lock);
	}
	rcu_read_unlock();
}

/**
 * lnet_fault_get() - the @idx-th rule of a type, for "fault show"
 * @type: drop or delay
 * @idx: from 0
 * @attr: its filter and action
 * @stats: its counters
 *
 * Return: 0, or -ENOENT past the last one.
 */
int lnet_fault_get(enum lnet_fault_type type, unsigned int idx,
		   struct lnet_fault_attr *attr,
		   struct lnet_fault_stats *stats)
{
	struct lnet_fault_rule *rule;
	int rc = -ENOENT;

	rcu_read_lock();
	list_for_each_entry_rcu(rule, &lnet_fault_rules, fr_list) {
		if (rule->fr_attr.type != type || idx--)
			continue;
		*attr = rule->fr_attr;
		spin_lock_bh(&rule->fr_lock);
		*stats = rule->fr_stats;
		spin_unlock_bh(&rule->fr_lock);
		rc = 0;
		break;
	}
	rcu_read_unlock();
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_fault_get);

static void lnet_fault_count(struct lnet_fault_stats *st, u32 type)
{
	switch (type) {
	case LNET_MSG_PUT:
		st->put++;
		break;
	case LNET_MSG_ACK:
		st->ack++;
		break;
	case LNET_MSG_GET:
		st->get++;
		break;
	default:
		st->reply++;
		break;
	}
	st->acted++;
}

/*
 * The first rule of @type that matches and acts on @hdr; @health: only
 * rules with (else without) a health error.  Its health failure, if any,
 * goes to @hstatus.
 */
static bool lnet_fault_apply(enum lnet_fault_type type, bool health,
			     const struct lnet_hdr *hdr,
			     const struct lnet_nid *local,
			     enum lnet_msg_hstatus *hstatus, u32 *latency)
{
	struct lnet_fault_rule *rule;
	bool hit = false;

	rcu_read_lock();
	list_for_each_entry_rcu(rule, &lnet_fault_rules, fr_list) {
		struct lnet_fault_attr *attr = &rule->fr_attr;

		if (attr->type != type || !attr->health_mask != !health ||
		    !lnet_fault_attr_match(attr, hdr, local))
			continue;
		spin_lock_bh(&rule->fr_lock);
		hit = lnet_fault_sched_hit(attr, &rule->fr_sched,
					   rule->fr_stats.count++,
					   ktime_get_seconds(), lnet_fault_rnd);
		if (hit)
			lnet_fault_count(&rule->fr_stats, hdr->type);
		spin_unlock_bh(&rule->fr_lock);
		if (!hit)
			continue;
		if (hstatus)
			*hstatus = lnet_fault_hstatus(attr->health_mask,
						      lnet_fault_rnd);
		if (latency)
			*latency = attr->latency;
		break;
	}
	rcu_read_unlock();
	return hit;
}

/**
 * lnet_fault_drop_rx() - is this received message to be dropped
 * @hdr: its header
 * @local: the NID of the NI it came in on
 *
 * Return: true if a drop rule (without health error) drops it.
 */
bool lnet_fault_drop_rx(const struct lnet_hdr *hdr,
			const struct lnet_nid *local)
{
	if (!READ_ONCE(lnet_fault_nrules[LNET_FAULT_DROP]))
		return false;
	return lnet_fault_apply(LNET_FAULT_DROP, false, hdr, local, NULL,
				NULL);
}
EXPORT_SYMBOL_IF_KUNIT(lnet_fault_drop_rx);

/**
 * lnet_send_error_simulation() - should the LND fail this send
 * @msg: the message the LND is about to put on the wire (NULL: none)
 * @hstatus: set to the failure to report
 *
 * Called by an LND where it hands a message to the wire: if a drop rule
 * with a health error takes it, the LND does not send it and fails it
 * with @hstatus as its health status, as if that failure had happened.
 *
 * Context: any; takes no LNet lock.
 * Return: true if the LND must fail @msg.
 */
bool lnet_send_error_simulation(struct lnet_msg *msg,
				enum lnet_msg_hstatus *hstatus)
{
	if (!msg || !READ_ONCE(lnet_fault_nrules[LNET_FAULT_DROP]))
		return false;
	return lnet_fault_apply(LNET_FAULT_DROP, true, &msg->msg_hdr, NULL,
				hstatus, NULL);
}
EXPORT_SYMBOL(lnet_send_error_simulation);

/* Release held messages: send, or match and receive (@drop: discard). */
static void lnet_fault_held_release(struct list_head *list, bool drop)
{
	struct lnet_fault_held *fh, *tmp;
	int rc;

	list_for_each_entry_safe(fh, tmp, list, fh_list) {
		struct lnet_msg *msg = fh->fh_msg;

		list_del(&fh->fh_list);
		if (fh->fh_rx) {
			lnet_parse_local(msg, fh->fh_rdma_req, drop);
		} else {
			rc = lnet_ni_send_delayed(msg);
			/* Its NI stopped: another may take it (resend.c). */
			if (rc == -ESHUTDOWN)
				msg->msg_health_status =
					LNET_MSG_STATUS_LOCAL_DROPPED;
			if (rc)
				lnet_finalize(msg, rc);
		}
		kfree(fh);
	}
}

/* Release the held messages whose time came; rearm for the next one. */
static void lnet_fault_delay_work(struct work_struct *work)
{
	struct lnet_fault_held *fh, *tmp;
	LIST_HEAD(due);

	spin_lock_bh(&lnet_fault_held_lock);
	list_for_each_entry_safe(fh, tmp, &lnet_fault_heldq, fh_list) {
		if (time_before(jiffies, fh->fh_due)) {
			mod_delayed_work(system_wq, &lnet_fault_delay_dwork,
					 fh->fh_due - jiffies);
			break;
		}
		list_move_tail(&fh->fh_list, &due);
	}
	spin_unlock_bh(&lnet_fault_held_lock);
	lnet_fault_held_release(&due, false);
}

/*
 * Hold @msg for a delay rule that takes it (@rx: received).  Not once
 * LNet or its NI stops: the flushes that ran then, under the same lock,
 * saw every message held before.
 */
static bool lnet_fault_hold(struct lnet_msg *msg, bool rx, bool rdma_req)
{
	struct lnet_ni *ni = rx ? msg->msg_rxni : msg->msg_txni;
	struct lnet_fault_held *fh, *last;
	u32 latency;

	if (!READ_ONCE(lnet_fault_nrules[LNET_FAULT_DELAY]) ||
	    !lnet_fault_apply(LNET_FAULT_DELAY, false, &msg->msg_hdr, NULL,
			      NULL, &latency))
		return false;
	fh = kmalloc(sizeof(*fh), GFP_ATOMIC);
	if (!fh)
		return false;	/* not delayed, then */
	fh->fh_msg = msg;
	fh->fh_rx = rx;
	fh->fh_rdma_req = rdma_req;
	fh->fh_due = jiffies + lnet_secs_to_jiffies(latency);
	spin_lock_bh(&lnet_fault_held_lock);
	if (READ_ONCE(the_lnet.ln_state) != LNET_STATE_RUNNING ||
	    !READ_ONCE(ni->ni_up)) {
		spin_unlock_bh(&lnet_fault_held_lock);
		kfree(fh);
		return false;
	}
	/* Keep the queue in due order: latencies differ between rules. */
	list_for_each_entry_reverse(last, &lnet_fault_heldq, fh_list)
		if (!time_after(last->fh_due, fh->fh_due))
			break;
	list_add(&fh->fh_list, &last->fh_list);
	if (list_is_first(&fh->fh_list, &lnet_fault_heldq))
		mod_delayed_work(system_wq, &lnet_fault_delay_dwork,
				 lnet_secs_to_jiffies(latency));
	spin_unlock_bh(&lnet_fault_held_lock);
	return true;
}

/**
 * lnet_fault_delay_tx() - hold a message a delay rule takes
 * @msg: a message holding its credits, about to go to its LND
 *
 * Return: true if held (it is sent later by lnet_ni_send_delayed()).
 */
bool lnet_fault_delay_tx(struct lnet_msg *msg)
{
	return lnet_fault_hold(msg, false, false);
}

/**
 * lnet_fault_delay_rx() - hold a received message a delay rule takes
 * @msg: its header checked, not matched yet (lnet_parse())
 * @rdma_req: it came through lnet_parse_rdma()
 *
 * Context: the LNet lock held (the rule and held-queue locks nest
 * inside it; neither is ever held while taking it).
 * Return: true if held (lnet_parse_local() matches it later).
 */
bool lnet_fault_delay_rx(struct lnet_msg *msg, bool rdma_req)
{
	return lnet_fault_hold(msg, true, rdma_req);
}

/**
 * lnet_fault_delay_flush() - release every held message now
 *
 * When a delay rule is deleted, and before LNet stops its NIs (the
 * received messages are then dropped: lnet_parse_local() sees LNet
 * stopping).
 *
 * Context: process, no LNet lock held.
 */
void lnet_fault_delay_flush(void)
{
	LIST_HEAD(all);

	spin_lock_bh(&lnet_fault_held_lock);
	list_splice_init(&lnet_fault_heldq, &all);
	spin_unlock_bh(&lnet_fault_held_lock);
	lnet_fault_held_release(&all, false);
}

/**
 * lnet_fault_delay_flush_ni() - release what is held on an NI that stops
 * @ni: the NI, no longer up and with no sender left in it
 *
 * Its held sends fail (-ESHUTDOWN, resendable), its held receives are
 * dropped: the NI's LND then shuts down with no message of ours holding
 * its buffers, and the NI waits for no delay.  An LND whose device goes
 * while the NI stays calls it too, once its connections are closed.
 *
 * Context: process, no LNet lock held.
 */
void lnet_fault_delay_flush_ni(struct lnet_ni *ni)
{
	struct lnet_fault_held *fh, *tmp;
	LIST_HEAD(mine);

	spin_lock_bh(&lnet_fault_held_lock);
	list_for_each_entry_safe(fh, tmp, &lnet_fault_heldq, fh_list)
		if ((fh->fh_rx ? fh->fh_msg->msg_rxni :
				 fh->fh_msg->msg_txni) == ni)
			list_move_tail(&fh->fh_list, &mine);
	spin_unlock_bh(&lnet_fault_held_lock);
	lnet_fault_held_release(&mine, true);
}
EXPORT_SYMBOL(lnet_fault_delay_flush_ni);

/**
 * lnet_fault_fini() - module exit: no rule, no held message left
 */
void lnet_fault_fini(void)
{
	lnet_fault_del(LNET_FAULT_DROP, NULL, NULL);
	lnet_fault_del(LNET_FAULT_DELAY, NULL, NULL);
	cancel_delayed_work_sync(&lnet_fault_delay_dwork);
	lnet_fault_delay_flush();
	rcu_barrier();	/* the rules' kfree_rcu() */
}
