// SPDX-License-Identifier: GPL-2.0
/*
 * Peer records: one per remote NID we send to or accept from, found by
 * NID in an rhashtable (a send looks its peer up; at thousands of peers
 * a list walk under kn_lock would be the cost of every message) and kept
 * on kn_peers for the walks of the reaper and of NI shutdown.
 *
 * A peer lives while anything uses it: the table holds one reference,
 * each connection one (its ibc_peer, until the connection is freed).
 * Once a second the reaper forgets idle peers: no connection (closing
 * ones included), nothing queued, no attempt running or being accepted,
 * and no recent failure whose backoff it must remember.  So a peer that
 * connects and goes, or a stream of CONNREQs from ever new NIDs, costs
 * memory only while connected, as in Lustre's o2iblnd.
 */
#include <linux/rhashtable.h>
#include <linux/slab.h>

#include "o2iblnd.h"

static const struct rhashtable_params kib_peer_params = {
	.key_len		= sizeof(u64),
	.key_offset		= offsetof(struct kib_peer, ibp_nid),
	.head_offset		= offsetof(struct kib_peer, ibp_node),
	.automatic_shrinking	= true,
};

/**
 * kib_peer_table_init() - an NI's empty peer table
 * @net: the NI
 *
 * Return: 0 or -ENOMEM.
 */
int kib_peer_table_init(struct kib_net *net)
{
	INIT_LIST_HEAD(&net->kn_peers);
	return rhashtable_init(&net->kn_peer_table, &kib_peer_params);
}

static void kib_peer_release(struct kref *ref)
{
	struct kib_peer *peer = container_of(ref, struct kib_peer, ibp_ref);

	/* A table lookup may still be walking past it. */
	kfree_rcu(peer, ibp_rcu);
}

/**
 * kib_peer_put() - drop a reference to a peer
 * @peer: the peer
 */
void kib_peer_put(struct kib_peer *peer)
{
	kref_put(&peer->ibp_ref, kib_peer_release);
}

/* Take @peer out of the table and the list; the table's reference is the
 * caller's to drop.
 */
static void kib_peer_unlink_locked(struct kib_peer *peer)
{
	struct kib_net *net = peer->ibp_net;

	rhashtable_remove_fast(&net->kn_peer_table, &peer->ibp_node,
			       kib_peer_params);
	list_del(&peer->ibp_list);
	kib_stat_add(KIB_STAT_PEERS, -1);
}

/**
 * kib_peer_table_destroy() - free an NI's peers
 * @net: the NI, stopped: no connection left, so each peer holds only
 *	the table's reference
 */
void kib_peer_table_destroy(struct kib_net *net)
{
	struct kib_peer *peer, *tmp;

	spin_lock_bh(&net->kn_lock);
	list_for_each_entry_safe(peer, tmp, &net->kn_peers, ibp_list) {
		WARN_ON(!list_empty(&peer->ibp_conns) ||
			!list_empty(&peer->ibp_txq) ||
			kref_read(&peer->ibp_ref) != 1);
		kib_peer_unlink_locked(peer);
		kib_peer_put(peer);
	}
	spin_unlock_bh(&net->kn_lock);
	rhashtable_destroy(&net->kn_peer_table);
}

/**
 * kib_peer_find_locked() - the peer of @nid
 * @net: our NI
 * @nid: its nid4
 *
 * Return: the peer or NULL.
 */
struct kib_peer *kib_peer_find_locked(struct kib_net *net, u64 nid)
{
	lockdep_assert_held(&net->kn_lock);
	return rhashtable_lookup_fast(&net->kn_peer_table, &nid,
				      kib_peer_params);
}

/**
 * kib_peer_get_locked() - the peer of @nid, created if needed
 * @net: our NI
 * @nid: its nid4
 *
 * Return: the peer, or NULL without memory or when shutting down.
 */
struct kib_peer *kib_peer_get_locked(struct kib_net *net, u64 nid)
{
	struct kib_peer *peer = kib_peer_find_locked(net, nid);

	if (peer || net->kn_down)
		return peer;
	peer = kzalloc(sizeof(*peer), GFP_ATOMIC | __GFP_NOWARN);
	if (!peer)
		return NULL;
	kref_init(&peer->ibp_ref);	/* the table's */
	peer->ibp_net = net;
	peer->ibp_nid = nid;
	INIT_LIST_HEAD(&peer->ibp_conns);
	INIT_LIST_HEAD(&peer->ibp_txq);
	peer->ibp_version = kib_tun.msg_version;
	peer->ibp_queue_depth = clamp(net->kn_ni->ni_tunables.peer_credits,
				      1, IBLND_MAX_QUEUE_DEPTH);
	peer->ibp_max_frags = IBLND_MAX_RDMA_FRAGS;
	peer->ibp_backoff_ms = KIB_RECONNECT_MIN_MS;
	peer->ibp_reconnect_at = jiffies;
	INIT_DELAYED_WORK(&peer->ibp_connect_work, kib_connect_work);
	/* Unique: we hold kn_lock and found none. */
	if (rhashtable_insert_fast(&net->kn_peer_table, &peer->ibp_node,
				   kib_peer_params)) {
		kfree(peer);
		return NULL;
	}
	list_add_tail(&peer->ibp_list, &net->kn_peers);
	kib_stat_inc(KIB_STAT_PEERS);
	return peer;
}

/*
 * Nothing uses @peer: only the table holds it (kn_lock keeps anyone from
 * taking a new reference), and after a failed attempt the current backoff
 * and the next, doubled, one have passed: forgetting it then costs no
 * earlier retry than the backoff would have allowed.
 */
static bool kib_peer_idle_locked(struct kib_peer *peer)
{
	return kref_read(&peer->ibp_ref) == 1 &&
	       list_empty(&peer->ibp_txq) && !peer->ibp_connecting &&
	       !peer->ibp_accepting &&
	       time_after_eq(jiffies, peer->ibp_reconnect_at +
			     msecs_to_jiffies(peer->ibp_backoff_ms));
}

/**
 * kib_peer_forget_idle_locked() - unlink and free @peer if nothing uses it
 * @peer: the peer; it leaves kn_peers (walk it with the _safe iterator)
 *
 * Return: true if it was freed: the caller must not touch it any more.
 */
bool kib_peer_forget_idle_locked(struct kib_peer *peer)
{
	if (!kib_peer_idle_locked(peer))
		return false;
	kib_peer_unlink_locked(peer);
	kib_peer_put(peer);	/* the table's: the last */
	kib_stat_inc(KIB_STAT_PEERS_FORGOTTEN);
	return true;
}
