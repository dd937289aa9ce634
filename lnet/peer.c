// SPDX-License-Identifier: GPL-2.0
/*
 * The peer table.  Without discovery (not implemented yet) every remote
 * NID LNet sends to becomes a peer of its own, with one peer net holding
 * one peer NI; discovery will merge the NIDs of a multi-rail node under
 * one peer.  Peer NIs carry the per-peer tx credits.  Peers live until
 * LNet is unconfigured, when no message refers to them any more.
 */
#include <linux/jhash.h>
#include <linux/slab.h>

#include <lnet/lib-lnet.h>

static u32 lnet_nid_hash(const struct lnet_nid *nid)
{
	return jhash(nid, sizeof(*nid), 0);
}

static struct lnet_peer_ni *lnet_peer_ni_find_locked(const struct lnet_nid *nid)
{
	struct lnet_peer_ni *lpni;

	hash_for_each_possible(the_lnet.ln_peer_table, lpni, lpni_hash,
			       lnet_nid_hash(nid))
		if (lnet_nid_equal(&lpni->lpni_nid, nid))
			return lpni;
	return NULL;
}

/**
 * lnet_peer_ni_get_locked() - the peer NI of a NID, created on first use
 * @nid: the remote NID
 * @ni: the local NI used to reach it; its peer_credits size a new peer NI
 *
 * Return: the peer NI, or NULL when out of memory.
 */
struct lnet_peer_ni *lnet_peer_ni_get_locked(const struct lnet_nid *nid,
					     const struct lnet_ni *ni)
{
	struct lnet_peer_net *lpn;
	struct lnet_peer_ni *lpni;
	struct lnet_peer *lp;

	lpni = lnet_peer_ni_find_locked(nid);
	if (lpni)
		return lpni;

	lp = kzalloc(sizeof(*lp), GFP_ATOMIC);
	lpn = kzalloc(sizeof(*lpn), GFP_ATOMIC);
	lpni = kzalloc(sizeof(*lpni), GFP_ATOMIC);
	if (!lp || !lpn || !lpni) {
		kfree(lp);
		kfree(lpn);
		kfree(lpni);
		return NULL;
	}
	lp->lp_primary_nid = *nid;
	INIT_LIST_HEAD(&lp->lp_nets);
	list_add_tail(&lp->lp_list, &the_lnet.ln_peers);

	lpn->lpn_peer = lp;
	lpn->lpn_net_id = lnet_nid_net(nid);
	INIT_LIST_HEAD(&lpn->lpn_peer_nis);
	list_add_tail(&lpn->lpn_list, &lp->lp_nets);

	lpni->lpni_peer_net = lpn;
	lpni->lpni_nid = *nid;
	lnet_credits_init(&lpni->lpni_txc, ni->ni_tunables.peer_credits);
	list_add_tail(&lpni->lpni_list, &lpn->lpn_peer_nis);
	hash_add(the_lnet.ln_peer_table, &lpni->lpni_hash, lnet_nid_hash(nid));
	return lpni;
}

/* Restart every peer NI's credit low-water mark. */
void lnet_peers_reset_min_locked(void)
{
	struct lnet_peer_ni *lpni;
	unsigned int bkt;

	hash_for_each(the_lnet.ln_peer_table, bkt, lpni, lpni_hash)
		lnet_credits_reset_min(&lpni->lpni_txc);
}

/**
 * lnet_peers_drain_ni_locked() - take off the peer NIs what would leave by @ni
 * @ni: a local NI being stopped, which no send can choose any more
 * @out: the messages that waited for a peer NI credit to leave by @ni are
 *	moved here, holding no peer credit, in each peer NI's queue order
 *
 * A peer NI is keyed by its NID and can be reached through several local
 * NIs, so its queue mixes messages of several; only @ni's go.
 */
void lnet_peers_drain_ni_locked(const struct lnet_ni *ni,
				struct list_head *out)
{
	struct lnet_peer_ni *lpni;
	struct lnet_msg *msg, *tmp;
	unsigned int bkt;

	hash_for_each(the_lnet.ln_peer_table, bkt, lpni, lpni_hash) {
		list_for_each_entry_safe(msg, tmp, &lpni->lpni_txc.queue,
					 msg_list) {
			if (msg->msg_txni != ni)
				continue;
			lnet_credits_unqueue(&lpni->lpni_txc, &msg->msg_list);
			msg->msg_peertxcredit = false;
			list_add_tail(&msg->msg_list, out);
		}
	}
}

/* Free every peer; no message may refer to one. */
void lnet_peers_free(void)
{
	struct lnet_peer_net *lpn, *lpn_tmp;
	struct lnet_peer_ni *lpni, *lpni_tmp;
	struct lnet_peer *lp, *lp_tmp;

	lnet_lock();
	list_for_each_entry_safe(lp, lp_tmp, &the_lnet.ln_peers, lp_list) {
		list_for_each_entry_safe(lpn, lpn_tmp, &lp->lp_nets, lpn_list) {
			list_for_each_entry_safe(lpni, lpni_tmp,
						 &lpn->lpn_peer_nis,
						 lpni_list) {
				WARN_ON(!list_empty(&lpni->lpni_txc.queue));
				hash_del(&lpni->lpni_hash);
				list_del(&lpni->lpni_list);
				kfree(lpni);
			}
			list_del(&lpn->lpn_list);
			kfree(lpn);
		}
		list_del(&lp->lp_list);
		kfree(lp);
	}
	lnet_unlock();
}
