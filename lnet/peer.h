/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files that change the peer table share (peer.c, the table;
 * peer-config.c, "peer add|del"; discovery.c).  Everything here runs
 * under the LNet lock unless it says otherwise.
 */
#ifndef _LNET_PEER_H
#define _LNET_PEER_H

#include <lnet/lib-lnet.h>

/* Peer NIs at most: beyond, a new one cannot be made (-ENOMEM). */
#define LNET_PEER_NIS_MAX	65536
/* Of those, what discovery cannot fill: for the NIDs we send to. */
#define LNET_PEER_NIS_RESERVE	(LNET_PEER_NIS_MAX / 4)

static inline struct lnet_peer *lnet_peer_of(const struct lnet_peer_ni *lpni)
{
	return lpni->lpni_peer_net->lpn_peer;
}

struct lnet_peer_net *lnet_peer_net_find(const struct lnet_peer *lp,
					 u32 net_id);

/* Messages use it or wait on it. */
static inline bool lnet_peer_ni_busy(const struct lnet_peer_ni *lpni)
{
	return lpni->lpni_refcount || !list_empty(&lpni->lpni_txc.queue);
}

/*
 * Objects for a change of the table, allocated (may sleep) before the
 * lock is taken, so that the change cannot fail half-way.
 */
struct lnet_peer_spares {
	struct lnet_peer	*lp;
	struct list_head	lpns;
	struct list_head	lpnis;
};

int lnet_peer_spares_alloc(struct lnet_peer_spares *sp, unsigned int n);
void lnet_peer_spares_free(struct lnet_peer_spares *sp);
struct lnet_peer *lnet_peer_new_locked(const struct lnet_nid *prim,
				       struct lnet_peer_spares *sp);
struct lnet_peer_ni *lnet_peer_take_nid_locked(struct lnet_peer *lp,
					       const struct lnet_nid *nid,
					       struct lnet_peer_spares *sp);
bool lnet_peer_ni_movable(const struct lnet_peer_ni *lpni,
			  const struct lnet_peer *to);
void lnet_peer_ni_detach(struct lnet_peer_ni *lpni);

/*
 * The NIDs of a peer to keep (lnet_peer_ni_unkept()): @nids[0..@n), and
 * @also (may be NULL).
 */
struct lnet_peer_keep {
	const struct lnet_nid	*nids;
	unsigned int		n;
	const struct lnet_nid	*also;
};

bool lnet_peer_ni_unkept(const struct lnet_peer_ni *lpni, const void *arg);
bool lnet_peer_ni_any(const struct lnet_peer_ni *lpni, const void *arg);
bool lnet_peer_ni_is(const struct lnet_peer_ni *lpni, const void *arg);
void lnet_peer_free_nis_locked(struct lnet_peer *lp,
			       bool (*pick)(const struct lnet_peer_ni *,
					    const void *),
			       const void *arg);

struct lnet_peer_ni *
lnet_peer_ni_visit_locked(bool (*fn)(struct lnet_peer_ni *, void *),
			  void *arg);

#endif /* _LNET_PEER_H */
