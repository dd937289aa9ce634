// SPDX-License-Identifier: GPL-2.0
/*
 * User-defined selection policies (spec features 4d), the rules of
 * "lnetctl udsp add|del|show":
 *
 *	--src NET --priority P		local net priority
 *	--src NIDS --priority P		local NI priority
 *	--dst NET --priority P		peer net priority
 *	--dst NIDS --priority P		peer NI priority
 *	--src X --dst Y			NID pair: the local NIs X are preferred
 *					for the peer NIs Y
 *	--dst Y --rte Z			router preference: routes through the
 *					gateways Z are preferred for the peer
 *					NIs Y (route-select.c)
 *
 * NIDS is NID-range expressions (include/lnet/nidlist.h); lower
 * priorities are better.  The rules are kept in index order; where
 * several give an object a priority the one of the lowest index wins,
 * as with Lustre's, which applies them from the last to the first.
 * NID pairs and router preferences add up: any matching rule prefers.
 * As stock's, --rte goes with --dst alone (not with --src).
 *
 * Priorities are found when selection asks (select.c) and cached in the
 * object with the rules' generation number, which every change bumps:
 * objects made later (a peer NI learnt by discovery, an NI added) need
 * no hook, and a change costs nothing until the next send.  Preferred
 * local NIs and gateways are asked the rules at each choice, so a route
 * or a gateway NID added later is preferred at once too (stock re-applies
 * its rules to fill lpni_rtr_pref_nids).
 *
 * Locking: the rules change under ln_api_mutex and the LNet lock; they
 * are read under the LNet lock.  They are dropped when LNet stops.
 */
#include <linux/export.h>
#include <linux/slab.h>

#include <kunit/visibility.h>

#include <lnet/lib-lnet.h>
#include <lnet/nidlist.h>
#include <lnet/udsp.h>

static bool lnet_udsp_term_set(const struct lnet_udsp_term *t)
{
	return t->net_id != LNET_NET_ANY || t->nids;
}

/* Does @t match @nid (or, @whole_net, the net @net_id itself)? */
static bool lnet_udsp_term_match(const struct lnet_udsp_term *t,
				 bool whole_net, const struct lnet_nid *nid,
				 u32 net_id)
{
	if (whole_net)
		return t->net_id != LNET_NET_ANY && t->net_id == net_id;
	if (t->nids)
		return lnet_nidlist_match(t->nids, nid);
	return false;
}

/* Does @t match @nid, as a net or as NIDs (a NID pair's terms)? */
static bool lnet_udsp_term_has(const struct lnet_udsp_term *t,
			       const struct lnet_nid *nid)
{
	if (t->net_id != LNET_NET_ANY)
		return t->net_id == lnet_nid_net(nid);
	return t->nids && lnet_nidlist_match(t->nids, nid);
}

static void lnet_udsp_term_error(struct netlink_ext_ack *extack,
				 enum lnet_udsp_term_kind kind)
{
	if (kind == LNET_UDSP_SRC)
		NL_SET_ERR_MSG(extack, "--src: not a net or NID range");
	else if (kind == LNET_UDSP_DST)
		NL_SET_ERR_MSG(extack, "--dst: not a net or NID range");
	else
		NL_SET_ERR_MSG(extack, "--rte: not a net or NID range");
}

static int lnet_udsp_term_parse(struct lnet_udsp_term *t, const char *str,
				enum lnet_udsp_term_kind kind,
				struct netlink_ext_ack *extack)
{
	int rc;

	t->net_id = LNET_NET_ANY;
	if (!str || !*str)
		return 0;
	if (!lnet_net_from_str(str, &t->net_id)) {
		lnet_net_to_str(t->net_id, t->text, sizeof(t->text));
		return 0;
	}
	t->net_id = LNET_NET_ANY;
	rc = lnet_nidlist_parse(str, &t->nids);
	if (!rc && lnet_nidlist_to_str(t->nids, t->text, sizeof(t->text)) >=
	    sizeof(t->text))
		rc = -E2BIG;
	if (rc == -EINVAL || rc == -E2BIG)
		lnet_udsp_term_error(extack, kind);
	return rc;
}

/**
 * lnet_udsp_free() - free a rule lnet_udsp_parse() made
 * @udsp: the rule; NULL does nothing
 */
VISIBLE_IF_KUNIT void lnet_udsp_free(struct lnet_udsp *udsp)
{
	int i;

	if (!udsp)
		return;
	for (i = 0; i < LNET_UDSP_TERMS; i++)
		lnet_nidlist_free(udsp->udsp_term[i].nids);
	kfree(udsp);
}
EXPORT_SYMBOL_IF_KUNIT(lnet_udsp_free);

/**
 * lnet_udsp_parse() - check and make a rule
 * @text: its terms by enum lnet_udsp_term_kind, NULL or "" if absent
 * @has_prio: a priority is given
 * @prio: the priority
 * @extack: where to say what is wrong
 *
 * Context: Process context (allocates).
 * Return: the rule, or an ERR_PTR: -EINVAL for a bad or missing term or
 * priority, or a bad mix of terms (--rte with --src, or without --dst),
 * -ENOMEM.
 */
VISIBLE_IF_KUNIT struct lnet_udsp *
lnet_udsp_parse(const char *const text[LNET_UDSP_TERMS], bool has_prio,
		u32 prio, struct netlink_ext_ack *extack)
{
	struct lnet_udsp *udsp;
	bool src, dst, rte;
	int i, rc = 0;

	udsp = kzalloc(sizeof(*udsp), GFP_KERNEL);
	if (!udsp)
		return ERR_PTR(-ENOMEM);
	for (i = 0; i < LNET_UDSP_TERMS && !rc; i++)
		rc = lnet_udsp_term_parse(&udsp->udsp_term[i], text[i], i,
					  extack);
	if (rc)
		goto fail;
	src = lnet_udsp_term_set(&udsp->udsp_term[LNET_UDSP_SRC]);
	dst = lnet_udsp_term_set(&udsp->udsp_term[LNET_UDSP_DST]);
	rte = lnet_udsp_term_set(&udsp->udsp_term[LNET_UDSP_RTE]);
	rc = -EINVAL;
	if (rte && src) {
		NL_SET_ERR_MSG(extack,
			       "--rte goes with --dst only, not with --src");
	} else if (rte && !dst) {
		NL_SET_ERR_MSG(extack,
			       "--rte needs --dst: the peers that prefer the gateways");
	} else if (rte && has_prio) {
		NL_SET_ERR_MSG(extack,
			       "a router preference (--dst with --rte) takes no --priority");
	} else if (rte) {
		udsp->udsp_prio = LNET_UDSP_PRIO_NONE;
		return udsp;
	} else if (!src && !dst) {
		NL_SET_ERR_MSG(extack, "a rule needs --src or --dst");
	} else if (src && dst && has_prio) {
		NL_SET_ERR_MSG(extack,
			       "a NID pair (--src with --dst) takes no --priority");
	} else if (!(src && dst) && !has_prio) {
		NL_SET_ERR_MSG(extack, "--priority is missing");
	} else if (has_prio && prio == LNET_UDSP_PRIO_NONE) {
		NL_SET_ERR_MSG(extack, "--priority is out of range");
	} else {
		udsp->udsp_prio = has_prio ? prio : LNET_UDSP_PRIO_NONE;
		return udsp;
	}
fail:
	lnet_udsp_free(udsp);
	return ERR_PTR(rc);
}
EXPORT_SYMBOL_IF_KUNIT(lnet_udsp_parse);

static bool lnet_udsp_same_terms(const struct lnet_udsp *a,
				 const struct lnet_udsp *b)
{
	int i;

	for (i = 0; i < LNET_UDSP_TERMS; i++)
		if (strcmp(a->udsp_term[i].text, b->udsp_term[i].text))
			return false;
	return true;
}

/* Every cached priority is stale; 0 is "never found", so skip it. */
static void lnet_udsp_changed_locked(void)
{
	if (!++the_lnet.ln_udsp_gen)
		the_lnet.ln_udsp_gen = 1;
}

/**
 * lnet_udsp_add() - add a rule ("lnetctl udsp add")
 * @text: its terms (--src, --dst, --rte), NULL or "" if absent
 * @has_prio: --priority is given
 * @prio: its value
 * @idx: where it goes (0 first); past the last, or negative: last
 * @extack: where to say what is wrong
 *
 * A rule with the same terms as one there takes that one's place.
 *
 * Context: Process context.
 * Return: 0, -ENETDOWN if LNet is down, -ENOSPC with LNET_UDSP_MAX
 * rules, or an error of lnet_udsp_parse(); nothing changed on error.
 */
int lnet_udsp_add(const char *const text[LNET_UDSP_TERMS], bool has_prio,
		  u32 prio, int idx, struct netlink_ext_ack *extack)
{
	struct lnet_udsp *udsp, *old = NULL, *pos;
	struct list_head *at = &the_lnet.ln_udsp;
	int rc = 0;

	udsp = lnet_udsp_parse(text, has_prio, prio, extack);
	if (IS_ERR(udsp))
		return PTR_ERR(udsp);
	mutex_lock(&the_lnet.ln_api_mutex);
	if (the_lnet.ln_state != LNET_STATE_RUNNING) {
		NL_SET_ERR_MSG(extack, "LNet is not configured");
		rc = -ENETDOWN;
		goto out;
	}
	list_for_each_entry(pos, &the_lnet.ln_udsp, udsp_list) {
		if (lnet_udsp_same_terms(pos, udsp))
			old = pos;
		if (idx-- == 0)
			at = &pos->udsp_list;
	}
	if (!old && the_lnet.ln_udsp_count >= LNET_UDSP_MAX) {
		NL_SET_ERR_MSG(extack, "too many rules");
		rc = -ENOSPC;
		goto out;
	}
	lnet_lock();
	if (old) {
		list_replace(&old->udsp_list, &udsp->udsp_list);
	} else {
		list_add_tail(&udsp->udsp_list, at);
		the_lnet.ln_udsp_count++;
	}
	lnet_udsp_changed_locked();
	lnet_unlock();
	udsp = old;
out:
	mutex_unlock(&the_lnet.ln_api_mutex);
	lnet_udsp_free(udsp);
	return rc;
}

/**
 * lnet_udsp_del() - delete a rule, or all ("lnetctl udsp del")
 * @idx: its index, or negative for every rule
 * @extack: where to say what is wrong
 *
 * The rules after it move up one index.
 *
 * Context: Process context.
 * Return: 0, -ENETDOWN if LNet is down, -ENOENT for no rule at @idx.
 */
int lnet_udsp_del(int idx, struct netlink_ext_ack *extack)
{
	struct lnet_udsp *udsp, *tmp;
	LIST_HEAD(gone);
	int rc = 0;

	mutex_lock(&the_lnet.ln_api_mutex);
	if (the_lnet.ln_state != LNET_STATE_RUNNING) {
		NL_SET_ERR_MSG(extack, "LNet is not configured");
		rc = -ENETDOWN;
		goto out;
	}
	lnet_lock();
	if (idx < 0) {
		list_splice_init(&the_lnet.ln_udsp, &gone);
		the_lnet.ln_udsp_count = 0;
	} else {
		rc = -ENOENT;
		list_for_each_entry(udsp, &the_lnet.ln_udsp, udsp_list) {
			if (idx--)
				continue;
			list_move(&udsp->udsp_list, &gone);
			the_lnet.ln_udsp_count--;
			rc = 0;
			break;
		}
	}
	lnet_udsp_changed_locked();
	lnet_unlock();
	if (rc)
		NL_SET_ERR_MSG(extack, "no rule has that index");
out:
	mutex_unlock(&the_lnet.ln_api_mutex);
	/* Readers hold the LNet lock: none sees these rules any more. */
	list_for_each_entry_safe(udsp, tmp, &gone, udsp_list)
		lnet_udsp_free(udsp);
	return rc;
}

/**
 * lnet_udsp_info_get() - the @idx-th rule, for "udsp show"
 * @idx: its index
 * @info: filled in
 *
 * Context: Any context.
 * Return: 0, or -ENOENT past the last rule.
 */
int lnet_udsp_info_get(unsigned int idx, struct lnet_udsp_info *info)
{
	struct lnet_udsp *udsp;
	int i, rc = -ENOENT;

	lnet_lock();
	list_for_each_entry(udsp, &the_lnet.ln_udsp, udsp_list) {
		if (idx--)
			continue;
		for (i = 0; i < LNET_UDSP_TERMS; i++)
			strscpy(info->text[i], udsp->udsp_term[i].text,
				sizeof(info->text[i]));
		info->prio = udsp->udsp_prio;
		rc = 0;
		break;
	}
	lnet_unlock();
	return rc;
}

/**
 * lnet_udsp_destroy() - drop every rule: LNet stops
 *
 * Context: Process context, under ln_api_mutex.
 */
void lnet_udsp_destroy(void)
{
	struct lnet_udsp *udsp, *tmp;
	LIST_HEAD(gone);

	lnet_lock();
	list_splice_init(&the_lnet.ln_udsp, &gone);
	the_lnet.ln_udsp_count = 0;
	lnet_udsp_changed_locked();
	lnet_unlock();
	list_for_each_entry_safe(udsp, tmp, &gone, udsp_list)
		lnet_udsp_free(udsp);
}

/**
 * lnet_udsp_prio_find() - the priority @rules give a net or a NID
 * @rules: the rules, in index order
 * @kind: LNET_UDSP_SRC (local) or LNET_UDSP_DST (peer)
 * @whole_net: of the net @net_id (net rules), else of @nid (NID rules)
 * @nid: the NID
 * @net_id: the net
 *
 * Context: Under the LNet lock (or on a private list).
 * Return: the priority of the first rule of @kind alone that matches,
 * or LNET_UDSP_PRIO_NONE.
 */
u32 lnet_udsp_prio_find(const struct list_head *rules,
			enum lnet_udsp_term_kind kind, bool whole_net,
			const struct lnet_nid *nid, u32 net_id)
{
	enum lnet_udsp_term_kind other = kind == LNET_UDSP_SRC ?
					 LNET_UDSP_DST : LNET_UDSP_SRC;
	const struct lnet_udsp *udsp;

	list_for_each_entry(udsp, rules, udsp_list) {
		if (udsp->udsp_prio == LNET_UDSP_PRIO_NONE ||
		    lnet_udsp_term_set(&udsp->udsp_term[other]))
			continue;
		if (lnet_udsp_term_match(&udsp->udsp_term[kind], whole_net,
					 nid, net_id))
			return udsp->udsp_prio;
	}
	return LNET_UDSP_PRIO_NONE;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_udsp_prio_find);

/**
 * lnet_udsp_pair_find() - is @src a preferred local NID for @dst?
 * @rules: the rules
 * @dst: a peer NID
 * @src: a local NID
 *
 * Context: Under the LNet lock (or on a private list).
 * Return: true if a NID-pair rule matches both.
 */
bool lnet_udsp_pair_find(const struct list_head *rules,
			 const struct lnet_nid *dst,
			 const struct lnet_nid *src)
{
	const struct lnet_udsp *udsp;

	list_for_each_entry(udsp, rules, udsp_list) {
		if (udsp->udsp_prio != LNET_UDSP_PRIO_NONE ||
		    lnet_udsp_term_set(&udsp->udsp_term[LNET_UDSP_RTE]))
			continue;
		if (lnet_udsp_term_has(&udsp->udsp_term[LNET_UDSP_DST], dst) &&
		    lnet_udsp_term_has(&udsp->udsp_term[LNET_UDSP_SRC], src))
			return true;
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_udsp_pair_find);

/**
 * lnet_udsp_rte_find() - is @gw a preferred gateway NID for @dst?
 * @rules: the rules
 * @dst: a peer NID (a routed send's final destination)
 * @gw: a gateway NID, or ANY: does any rule prefer gateways for @dst?
 *
 * Stock's lpni_rtr_pref_nids of @dst's peer NI, asked rather than kept.
 *
 * Context: Under the LNet lock (or on a private list).
 * Return: true if a router-preference rule (--dst with --rte) matches
 * both (@dst alone for ANY).
 */
bool lnet_udsp_rte_find(const struct list_head *rules,
			const struct lnet_nid *dst, const struct lnet_nid *gw)
{
	const struct lnet_udsp *udsp;

	list_for_each_entry(udsp, rules, udsp_list) {
		if (!lnet_udsp_term_set(&udsp->udsp_term[LNET_UDSP_RTE]) ||
		    !lnet_udsp_term_has(&udsp->udsp_term[LNET_UDSP_DST], dst))
			continue;
		if (lnet_nid_is_any(gw) ||
		    lnet_udsp_term_has(&udsp->udsp_term[LNET_UDSP_RTE], gw))
			return true;
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_udsp_rte_find);

static u32 lnet_udsp_cached(struct lnet_sel_prio *c,
			    enum lnet_udsp_term_kind kind, bool whole_net,
			    const struct lnet_nid *nid, u32 net_id)
{
	if (c->gen != the_lnet.ln_udsp_gen) {
		c->prio = lnet_udsp_prio_find(&the_lnet.ln_udsp, kind,
					      whole_net, nid, net_id);
		c->gen = the_lnet.ln_udsp_gen;
	}
	return c->prio;
}

/* The priorities selection compares: lower is better.  LNet lock. */
u32 lnet_udsp_net_prio(struct lnet_net *net)
{
	return lnet_udsp_cached(&net->net_prio, LNET_UDSP_SRC, true,
				&LNET_ANY_NID, net->net_id);
}

u32 lnet_udsp_ni_prio(struct lnet_ni *ni)
{
	return lnet_udsp_cached(&ni->ni_prio, LNET_UDSP_SRC, false,
				&ni->ni_nid, LNET_NET_ANY);
}

u32 lnet_udsp_lpn_prio(struct lnet_peer_net *lpn)
{
	return lnet_udsp_cached(&lpn->lpn_prio, LNET_UDSP_DST, true,
				&LNET_ANY_NID, lpn->lpn_net_id);
}

u32 lnet_udsp_lpni_prio(struct lnet_peer_ni *lpni)
{
	return lnet_udsp_cached(&lpni->lpni_prio, LNET_UDSP_DST, false,
				&lpni->lpni_nid, LNET_NET_ANY);
}

/* Is @ni one of @lpni's preferred local NIs (a NID pair)?  LNet lock. */
bool lnet_udsp_preferred(const struct lnet_peer_ni *lpni,
			 const struct lnet_ni *ni)
{
	return lnet_udsp_pair_find(&the_lnet.ln_udsp, &lpni->lpni_nid,
				   &ni->ni_nid);
}
