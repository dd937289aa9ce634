// SPDX-License-Identifier: GPL-2.0
/*
 * nidmap's keys and MACs (Documentation/nidmap.rst, "Trust"): a node
 * holds at most NIDMAP_AUTH_KEYS shared keys, signs with one of them (the
 * current one) and takes a message MACed with any of them, so that a key
 * is rotated without downtime: add the new key everywhere, sign with it
 * everywhere, delete the old one.
 *
 * Signers and verifiers read the keys under RCU (a MAC does not sleep);
 * add, use and delete are serialised by the set's mutex, and a deleted
 * key is freed after a grace period.
 */
#include <crypto/algapi.h>
#include <crypto/hash.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include "auth.h"

/**
 * struct nidmap_key - one shared key
 * @id: its id, as the trailer names it (never 0)
 * @tfm: HMAC-SHA256 keyed with its secret
 */
struct nidmap_key {
	u32			id;
	struct crypto_shash	*tfm;
};

/**
 * struct nidmap_keyset - a node's keys
 * @lock: serialises add, use and delete
 * @keys: the keys (NULL: a free slot), read under RCU
 * @current_id: the key messages are signed with (0: none)
 */
struct nidmap_keyset {
	struct mutex			lock;	/* add, use, delete */
	struct nidmap_key __rcu		*keys[NIDMAP_AUTH_KEYS];
	u32				current_id;
};

/**
 * nidmap_keyset_create() - an empty key set
 *
 * Return: the set, or NULL without memory.
 */
struct nidmap_keyset *nidmap_keyset_create(void)
{
	struct nidmap_keyset *ks = kzalloc(sizeof(*ks), GFP_KERNEL);

	if (ks)
		mutex_init(&ks->lock);
	return ks;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_keyset_create);

static void key_free(struct nidmap_key *k)
{
	crypto_free_shash(k->tfm);
	kfree(k);
}

/**
 * nidmap_keyset_destroy() - free a key set and its keys
 * @ks: the set (NULL: nothing); nobody signs or verifies with it any more
 */
void nidmap_keyset_destroy(struct nidmap_keyset *ks)
{
	int i;

	if (!ks)
		return;
	for (i = 0; i < NIDMAP_AUTH_KEYS; i++) {
		struct nidmap_key *k = rcu_dereference_protected(ks->keys[i], 1);

		if (k)
			key_free(k);
	}
	mutex_destroy(&ks->lock);
	kfree(ks);
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_keyset_destroy);

/* The slot of key @id (-1: none); under the set's mutex. */
static int key_slot(struct nidmap_keyset *ks, u32 id)
{
	int i;

	for (i = 0; i < NIDMAP_AUTH_KEYS; i++) {
		struct nidmap_key *k = rcu_dereference_protected(ks->keys[i],
						lockdep_is_held(&ks->lock));

		if (k && k->id == id)
			return i;
	}
	return -1;
}

/**
 * nidmap_key_add() - add a key; the first one is signed with at once
 * @ks: the set
 * @id: its id (not 0, not one the set has)
 * @secret: its secret
 * @len: bytes of @secret, NIDMAP_AUTH_KEY_MIN to NIDMAP_AUTH_KEY_MAX
 *
 * The caller wipes @secret when it is done with it.
 *
 * Return: 0; -EINVAL for id 0 or a secret of a bad length; -EEXIST if
 * the set has @id; -ENOSPC if it holds NIDMAP_AUTH_KEYS already; what
 * the crypto API returned (no HMAC-SHA256, no memory).
 */
int nidmap_key_add(struct nidmap_keyset *ks, u32 id, const u8 *secret,
		   size_t len)
{
	struct nidmap_key *k;
	int i, free_slot = -1, rc;

	if (!id || len < NIDMAP_AUTH_KEY_MIN || len > NIDMAP_AUTH_KEY_MAX)
		return -EINVAL;
	k = kzalloc(sizeof(*k), GFP_KERNEL);
	if (!k)
		return -ENOMEM;
	k->id = id;
	k->tfm = crypto_alloc_shash("hmac(sha256)", 0, 0);
	if (IS_ERR(k->tfm)) {
		rc = PTR_ERR(k->tfm);
		kfree(k);
		return rc;
	}
	rc = crypto_shash_setkey(k->tfm, secret, len);
	if (rc)
		goto out_free;
	mutex_lock(&ks->lock);
	rc = -EEXIST;
	if (key_slot(ks, id) >= 0)
		goto out_unlock;
	for (i = 0; i < NIDMAP_AUTH_KEYS && free_slot < 0; i++)
		if (!rcu_access_pointer(ks->keys[i]))
			free_slot = i;
	rc = -ENOSPC;
	if (free_slot < 0)
		goto out_unlock;
	rcu_assign_pointer(ks->keys[free_slot], k);
	if (!ks->current_id)
		WRITE_ONCE(ks->current_id, id);
	mutex_unlock(&ks->lock);
	return 0;

out_unlock:
	mutex_unlock(&ks->lock);
out_free:
	key_free(k);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_key_add);

/**
 * nidmap_key_use() - sign with key @id from now on
 * @ks: the set
 * @id: a key it holds
 *
 * Return: 0, or -ENOENT if the set has no key @id.
 */
int nidmap_key_use(struct nidmap_keyset *ks, u32 id)
{
	int rc = -ENOENT;

	mutex_lock(&ks->lock);
	if (id && key_slot(ks, id) >= 0) {
		WRITE_ONCE(ks->current_id, id);
		rc = 0;
	}
	mutex_unlock(&ks->lock);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_key_use);

/**
 * nidmap_key_del() - delete key @id; messages MACed with it are refused
 * @ks: the set
 * @id: a key it holds
 *
 * The key signed with may go only when it is the last one: during a
 * rotation, sign with the new key first.  Sleeps for a grace period.
 *
 * Return: 0; -ENOENT if the set has no key @id; -EBUSY if @id is signed
 * with and another key is there to sign with instead.
 */
int nidmap_key_del(struct nidmap_keyset *ks, u32 id)
{
	struct nidmap_key *k;
	int slot, i, others = 0;

	mutex_lock(&ks->lock);
	slot = id ? key_slot(ks, id) : -1;
	if (slot < 0) {
		mutex_unlock(&ks->lock);
		return -ENOENT;
	}
	for (i = 0; i < NIDMAP_AUTH_KEYS; i++)
		others += i != slot && rcu_access_pointer(ks->keys[i]);
	if (ks->current_id == id && others) {
		mutex_unlock(&ks->lock);
		return -EBUSY;
	}
	k = rcu_dereference_protected(ks->keys[slot],
				      lockdep_is_held(&ks->lock));
	RCU_INIT_POINTER(ks->keys[slot], NULL);
	if (ks->current_id == id)
		WRITE_ONCE(ks->current_id, 0);
	mutex_unlock(&ks->lock);
	synchronize_rcu();
	key_free(k);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_key_del);

/**
 * nidmap_key_ids() - the keys a set holds
 * @ks: the set
 * @ids: NIDMAP_AUTH_KEYS ids, in slot order (0: a free slot)
 * @signing: the key signed with (0: none)
 *
 * Return: how many keys the set holds.
 */
int nidmap_key_ids(struct nidmap_keyset *ks, u32 *ids, u32 *signing)
{
	int i, n = 0;

	mutex_lock(&ks->lock);
	for (i = 0; i < NIDMAP_AUTH_KEYS; i++) {
		struct nidmap_key *k = rcu_dereference_protected(ks->keys[i],
						lockdep_is_held(&ks->lock));

		ids[i] = k ? k->id : 0;
		n += !!k;
	}
	*signing = ks->current_id;
	mutex_unlock(&ks->lock);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_key_ids);

/* Key @id, under rcu_read_lock() (NULL: none). */
static struct nidmap_key *key_find_rcu(struct nidmap_keyset *ks, u32 id)
{
	int i;

	for (i = 0; i < NIDMAP_AUTH_KEYS; i++) {
		struct nidmap_key *k = rcu_dereference(ks->keys[i]);

		if (k && k->id == id)
			return k;
	}
	return NULL;
}

/**
 * nidmap_keyset_signs() - does the set hold a key (and so sign)?
 * @ks: the set
 *
 * Without its mutex, for every message: a set signs exactly when it holds
 * a key (the first key added signs; the signing key goes only as the
 * last one).
 *
 * Return: true if it holds a key.
 */
bool nidmap_keyset_signs(struct nidmap_keyset *ks)
{
	return READ_ONCE(ks->current_id);
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_keyset_signs);

/**
 * nidmap_auth_sign() - fill a message's AUTH trailer
 * @ks: the sender's keys
 * @buf: a message encoded with NIDMAP_F_AUTH and a trailer of
 *	NIDMAP_AUTH_TRAILER_LEN bytes (nidmap_enc_finish()), in its final
 *	byte order
 * @len: its length
 * @stamp: the sender's clock, ms since the Unix epoch
 *
 * Return: 0; -ENOKEY if the set has no key to sign with; -EINVAL if
 * @buf is not such a message; what the crypto API returned.
 */
int nidmap_auth_sign(struct nidmap_keyset *ks, void *buf, size_t len,
		     u64 stamp)
{
	struct nidmap_msg msg;
	struct nidmap_key *k;
	u8 *trailer;
	u32 id;
	int rc;

	if (nidmap_msg_decode(buf, len, &msg) ||
	    msg.hdr.trailer_len != NIDMAP_AUTH_TRAILER_LEN)
		return -EINVAL;
	trailer = (u8 *)buf + len - NIDMAP_AUTH_TRAILER_LEN;
	rcu_read_lock();
	id = READ_ONCE(ks->current_id);
	k = id ? key_find_rcu(ks, id) : NULL;
	if (!k) {
		rcu_read_unlock();
		return -ENOKEY;
	}
	nidmap_auth_head(trailer, id, stamp);
	rc = crypto_shash_tfm_digest(k->tfm, buf, len - NIDMAP_AUTH_MAC_LEN,
				     trailer + NIDMAP_AUTH_HEAD_LEN);
	rcu_read_unlock();
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_auth_sign);

/**
 * nidmap_auth_verify() - check a received message's MAC
 * @ks: the receiver's keys
 * @buf: the message as received (the MAC covers its bytes as sent)
 * @msg: @buf decoded (nidmap_msg_decode())
 * @a: its trailer's fields, on success (for nidmap_replay_check())
 *
 * Return: 0; -EKEYREJECTED if it has no AUTH trailer, names a key the
 * set does not hold, or its MAC is wrong; -EPROTO if the trailer is
 * malformed; what the crypto API returned.
 */
int nidmap_auth_verify(struct nidmap_keyset *ks, const void *buf,
		       const struct nidmap_msg *msg, struct nidmap_auth *a)
{
	u8 mac[NIDMAP_AUTH_MAC_LEN];
	struct nidmap_key *k;
	int rc;

	rc = nidmap_auth_parse(msg, a);
	if (rc)
		return rc;
	rcu_read_lock();
	k = key_find_rcu(ks, a->key_id);
	rc = k ? crypto_shash_tfm_digest(k->tfm, buf,
					 msg->hdr.length - NIDMAP_AUTH_MAC_LEN,
					 mac) : -EKEYREJECTED;
	rcu_read_unlock();
	if (!rc && crypto_memneq(mac, a->mac, NIDMAP_AUTH_MAC_LEN))
		rc = -EKEYREJECTED;
	memzero_explicit(mac, sizeof(mac));
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(nidmap_auth_verify);
