// SPDX-License-Identifier: GPL-2.0
/*
 * nidmap's trust on the transport (Documentation/nidmap.rst, "Trust"):
 * the node's keys; every message it sends signed once it holds a key;
 * every message it receives taken only if its MAC checks with a key the
 * node holds and its sender's replay window takes it.  On by default: a
 * node without a key takes nothing (its roles do not start, netlink.c)
 * unless loaded with auth_required=0, a lab's choice, when a node
 * without a key takes every message as it comes.
 *
 * A window follows one sender incarnation (the header's random 64 bits,
 * new at each load of the sender's module), not a source NID: a message
 * replayed under another source NID meets the same window.  A window is
 * made only for a message whose MAC checked, so only key holders make
 * them, and one whose latest stamp is older than the clocks' window is
 * forgotten when room is needed: every message it could still refuse is
 * refused by its stamp alone.
 *
 * Everything here runs on nidmap_wq or under nidmap_cfg_lock; the
 * windows' table has its own mutex all the same.
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <kunit/visibility.h>

#include "auth.h"
#include "node.h"

/* Windows kept at most: a publisher's subscribers and a margin. */
#define NIDMAP_SENDERS_MAX	(NIDMAP_SUBS_MAX + 1024)

/**
 * struct nidmap_sender - one sender incarnation's replay window
 * @node: in nidmap_senders
 * @win: the window (@win.incarnation is the key)
 * @rcu: freed after a grace period (rhashtable readers)
 */
struct nidmap_sender {
	struct rhash_head	node;
	struct nidmap_replay	win;
	struct rcu_head		rcu;
};

static const struct rhashtable_params nidmap_sender_params = {
	.key_len		= sizeof(u64),
	.key_offset		= offsetof(struct nidmap_sender, win.incarnation),
	.head_offset		= offsetof(struct nidmap_sender, node),
	.automatic_shrinking	= true,
};

struct nidmap_keyset *nidmap_keys;
EXPORT_SYMBOL_IF_KUNIT(nidmap_keys);

bool nidmap_auth_required = true;
EXPORT_SYMBOL_IF_KUNIT(nidmap_auth_required);
module_param_named(auth_required, nidmap_auth_required, bool, 0644);
MODULE_PARM_DESC(auth_required,
		 "take only messages signed with a key this node holds (a node without a key takes none); 0: a node without a key takes every message");
static struct rhashtable nidmap_senders;
static DEFINE_MUTEX(nidmap_senders_lock);
static unsigned int nidmap_nsenders;	/* under nidmap_senders_lock */

static u64 nidmap_now_ms(void)
{
	return ktime_get_real_ns() / NSEC_PER_MSEC;
}

/**
 * nidmap_holds_key() - does the node hold a key (and so sign)?
 *
 * Return: true if it does.
 */
bool nidmap_holds_key(void)
{
	return nidmap_keys && nidmap_keyset_signs(nidmap_keys);
}

/**
 * nidmap_seal_room() - bytes nidmap_seal() adds to a message now
 *
 * Return: NIDMAP_AUTH_TRAILER_LEN if the node holds a key, else 0.
 */
unsigned int nidmap_seal_room(void)
{
	return nidmap_holds_key() ? NIDMAP_AUTH_TRAILER_LEN : 0;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_seal_room);

/**
 * nidmap_seal() - sign a message about to be sent, if the node signs
 * @buf: the message as encoded (kvmalloc()ed, no trailer); replaced by a
 *	copy with its AUTH trailer, the original freed
 * @len: its length; the signed copy's
 *
 * Return: 0: signed, or the node has no key to sign with (the message
 * goes as it is); -errno: @buf and @len unchanged, still the caller's.
 */
int nidmap_seal(void **buf, unsigned int *len)
{
	unsigned int n = *len + NIDMAP_AUTH_TRAILER_LEN;
	struct nidmap_msg msg;
	struct nidmap_enc enc;
	void *out;
	int rc;

	if (!nidmap_holds_key())
		return 0;
	rc = nidmap_msg_decode(*buf, *len, &msg);
	if (rc)
		return rc;
	if (msg.hdr.trailer_len)
		return -EINVAL;
	out = kvmalloc(n, GFP_KERNEL);
	if (!out)
		return -ENOMEM;
	msg.hdr.flags |= NIDMAP_F_AUTH;
	rc = nidmap_enc_init(&enc, out, n, &msg.hdr);
	if (!rc) {
		memcpy(enc.buf + enc.len, msg.body, msg.body_len);
		enc.len += msg.body_len;
		enc.hdr.count = msg.hdr.count;
		rc = nidmap_enc_finish(&enc, NIDMAP_AUTH_TRAILER_LEN);
	}
	if (rc >= 0)
		rc = nidmap_auth_sign(nidmap_keys, out, n, nidmap_now_ms());
	if (rc) {
		kvfree(out);
		/* The last key went meanwhile: nothing to sign with. */
		return rc == -ENOKEY ? 0 : rc;
	}
	nidmap_count(NIDMAP_A_CTR_AUTH_SIGNED);
	kvfree(*buf);
	*buf = out;
	*len = n;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_seal);

/* Forget the windows nothing can reach any more: room for a new one. */
static void nidmap_senders_sweep(u64 now)
{
	struct rhashtable_iter iter;
	struct nidmap_sender *s;

	rhashtable_walk_enter(&nidmap_senders, &iter);
	rhashtable_walk_start(&iter);
	while ((s = rhashtable_walk_next(&iter))) {
		if (IS_ERR(s))
			continue;	/* -EAGAIN: a resize, walk on */
		if (s->win.stamp + NIDMAP_AUTH_SKEW_MS >= now)
			continue;
		if (!rhashtable_remove_fast(&nidmap_senders, &s->node,
					    nidmap_sender_params)) {
			nidmap_nsenders--;
			kfree_rcu(s, rcu);
		}
	}
	rhashtable_walk_stop(&iter);
	rhashtable_walk_exit(&iter);
}

/* The window of @incarnation, made if new; NULL if no room. */
static struct nidmap_sender *nidmap_sender_get(u64 incarnation, u64 now)
{
	struct nidmap_sender *s;

	s = rhashtable_lookup_fast(&nidmap_senders, &incarnation,
				   nidmap_sender_params);
	if (s)
		return s;
	if (nidmap_nsenders >= NIDMAP_SENDERS_MAX)
		nidmap_senders_sweep(now);
	if (nidmap_nsenders >= NIDMAP_SENDERS_MAX)
		return NULL;
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return NULL;
	s->win.incarnation = incarnation;
	if (rhashtable_insert_fast(&nidmap_senders, &s->node,
				   nidmap_sender_params)) {
		kfree(s);
		return NULL;
	}
	nidmap_nsenders++;
	return s;
}

/* The message's MAC checked: its sender's window takes it or not. */
static int nidmap_window_check(const struct nidmap_hdr *h, u64 stamp)
{
	u64 now = nidmap_now_ms();
	struct nidmap_sender *s;
	int rc;

	mutex_lock(&nidmap_senders_lock);
	s = nidmap_sender_get(h->incarnation, now);
	if (!s) {
		mutex_unlock(&nidmap_senders_lock);
		nidmap_count(NIDMAP_A_CTR_AUTH_NOROOM);
		return -ENOSPC;
	}
	/* A new window follows its incarnation already: seq from 0. */
	rc = nidmap_replay_check(&s->win, h->incarnation, h->seq, stamp, now,
				 NIDMAP_AUTH_SKEW_MS);
	if (rc && !s->win.stamp) {
		/* Refused as its first message: keep no empty window. */
		rhashtable_remove_fast(&nidmap_senders, &s->node,
				       nidmap_sender_params);
		nidmap_nsenders--;
		kfree_rcu(s, rcu);
	}
	mutex_unlock(&nidmap_senders_lock);
	if (rc == -ESTALE)
		nidmap_count(NIDMAP_A_CTR_AUTH_STALE);
	else if (rc)
		nidmap_count(NIDMAP_A_CTR_AUTH_REPLAYED);
	return rc;
}

/**
 * nidmap_trust_check() - may a received message be taken?
 * @buf: the message as received
 * @len: its length
 *
 * A node takes a message only if it carries an AUTH trailer made with a
 * key the node holds, the MAC checks, and the sender's window takes it
 * (nidmap_replay_check()); so a node without a key takes none, unless
 * auth_required is off, when it takes every one (nothing to check with).
 * A malformed message is left to the role's decoder, which refuses it.
 * Each refusal is counted (NIDMAP_A_CTR_AUTH_*).
 *
 * Return: 0 to take it; -EKEYREJECTED (unsigned, unknown key, wrong
 * MAC), -EPROTO (malformed trailer), -ESTALE (stamp), -EALREADY (replay)
 * or -ENOSPC (no room for a new sender's window) to refuse it.
 */
int nidmap_trust_check(const void *buf, unsigned int len)
{
	struct nidmap_auth a;
	struct nidmap_msg msg;
	int rc;

	if ((!nidmap_auth_required && !nidmap_holds_key()) ||
	    nidmap_msg_decode(buf, len, &msg))
		return 0;
	rc = nidmap_auth_verify(nidmap_keys, buf, &msg, &a);
	if (rc) {
		nidmap_count(msg.hdr.flags & NIDMAP_F_AUTH ?
			     NIDMAP_A_CTR_AUTH_FORGED :
			     NIDMAP_A_CTR_AUTH_UNSIGNED);
		return rc;
	}
	rc = nidmap_window_check(&msg.hdr, a.stamp);
	if (rc)
		return rc;
	nidmap_count(NIDMAP_A_CTR_AUTH_VERIFIED);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_trust_check);

/**
 * nidmap_trust_init() - the node's (empty) key set and senders' windows
 *
 * Return: 0 or -ENOMEM.
 */
int nidmap_trust_init(void)
{
	int rc;

	nidmap_keys = nidmap_keyset_create();
	if (!nidmap_keys)
		return -ENOMEM;
	rc = rhashtable_init(&nidmap_senders, &nidmap_sender_params);
	if (rc) {
		nidmap_keyset_destroy(nidmap_keys);
		nidmap_keys = NULL;
	}
	return rc;
}

static void nidmap_sender_free(void *ptr, void *arg)
{
	kfree(ptr);
}

/**
 * nidmap_trust_fini() - forget the keys and the windows
 *
 * After the transport's last message: nothing signs or checks any more.
 */
void nidmap_trust_fini(void)
{
	rhashtable_free_and_destroy(&nidmap_senders, nidmap_sender_free, NULL);
	nidmap_nsenders = 0;
	nidmap_keyset_destroy(nidmap_keys);
	nidmap_keys = NULL;
}
