// SPDX-License-Identifier: GPL-2.0
/*
 * Portals and matching.  An incoming PUT or GET walks its portal's MEs in
 * order; the first ME whose source filter and bits match (wire spec
 * section 8: ((me.match_bits ^ bits) & ~me.ignore_bits) == 0) and whose
 * MD can take the operation wins.  An ME whose MD cannot take it
 * (exhausted, wrong operation) is skipped; one that could but is too
 * small without LNET_MD_TRUNCATE drops the message, as on Lustre.
 *
 * Portals are not lazy: an unmatched PUT is dropped on every portal.
 */
#include <linux/export.h>
#include <linux/list.h>

#include <lnet/lib-lnet.h>

void lnet_portals_init(void)
{
	unsigned int i;

	for (i = 0; i < LNET_MAX_PORTALS; i++)
		INIT_LIST_HEAD(&the_lnet.ln_portals[i].ptl_mes);
}

/**
 * lnet_me_match() - does an ME accept a message?
 * @me: the match entry
 * @info: the message's source and match bits
 *
 * Return: true if the source passes the ME's filter and the bits match.
 */
bool lnet_me_match(const struct lnet_me *me,
		   const struct lnet_match_info *info)
{
	if (me->me_match_id.pid != LNET_PID_ANY &&
	    me->me_match_id.pid != info->mi_id.pid)
		return false;
	if (!lnet_nid_is_any(&me->me_match_id.nid) &&
	    !lnet_nid_equal(&me->me_match_id.nid, &info->mi_id.nid))
		return false;
	return !((me->me_match_bits ^ info->mi_mbits) & ~me->me_ignore_bits);
}
EXPORT_SYMBOL_GPL(lnet_me_match);

/**
 * lnet_md_match_locked() - try to put a message into an MD
 * @md: the MD of a matching ME
 * @info: the operation
 * @msg: the message; on success its MD, offset and length are set
 *
 * The offset is the peer's with %LNET_MD_MANAGE_REMOTE, else the MD's
 * running local offset, which advances by what each operation moves.
 * With %LNET_MD_MAX_SIZE one operation moves at most md_max_size bytes
 * (more is truncated, or dropped without %LNET_MD_TRUNCATE), so one
 * sender cannot take the room of the many the MD is for.
 *
 * Return: %LNET_MATCHMD_OK; %LNET_MATCHMD_NONE if the MD cannot take this
 * operation (try the next ME); %LNET_MATCHMD_DROP if it is too small.
 */
enum lnet_match_result lnet_md_match_locked(struct lnet_libmd *md,
					    const struct lnet_match_info *info,
					    struct lnet_msg *msg)
{
	unsigned int offset, mlength;

	if (md->md_zombie || lnet_md_exhausted(md) ||
	    !(md->md_options & info->mi_opc))
		return LNET_MATCHMD_NONE;

	if (md->md_options & LNET_MD_MANAGE_REMOTE)
		offset = info->mi_roffset;
	else
		offset = md->md_offset;
	if (offset > md->md_length)
		return LNET_MATCHMD_DROP;
	mlength = md->md_length - offset;
	/* One operation takes at most max_size: Lustre's md_max_size. */
	if (md->md_options & LNET_MD_MAX_SIZE)
		mlength = min(mlength, md->md_max_size);
	if (info->mi_rlength <= mlength)
		mlength = info->mi_rlength;
	else if (!(md->md_options & LNET_MD_TRUNCATE))
		return LNET_MATCHMD_DROP;

	md->md_offset = offset + mlength;
	lnet_msg_attach_md(msg, md, offset, mlength);
	return LNET_MATCHMD_OK;
}
EXPORT_SYMBOL_GPL(lnet_md_match_locked);

/**
 * lnet_ptl_match_md_locked() - match a PUT or GET on its portal
 * @info: the operation
 * @msg: gets the MD attached on success
 *
 * Return: as lnet_md_match_locked(); %LNET_MATCHMD_NONE if no ME matched.
 */
enum lnet_match_result lnet_ptl_match_md_locked(const struct lnet_match_info *info,
						struct lnet_msg *msg)
{
	struct lnet_portal *ptl;
	enum lnet_match_result rc;
	struct lnet_me *me;

	if (info->mi_portal >= LNET_MAX_PORTALS)
		return LNET_MATCHMD_DROP;
	ptl = &the_lnet.ln_portals[info->mi_portal];
	list_for_each_entry(me, &ptl->ptl_mes, me_list) {
		if (!lnet_me_match(me, info))
			continue;
		rc = lnet_md_match_locked(me->me_md, info, msg);
		if (rc != LNET_MATCHMD_NONE)
			return rc;
	}
	return LNET_MATCHMD_NONE;
}
EXPORT_SYMBOL_GPL(lnet_ptl_match_md_locked);

/* Put an ME that has its MD on its portal. */
void lnet_ptl_insert_locked(struct lnet_me *me)
{
	struct lnet_portal *ptl = &the_lnet.ln_portals[me->me_portal];

	if (me->me_pos == LNET_INS_BEFORE)
		list_add(&me->me_list, &ptl->ptl_mes);
	else
		list_add_tail(&me->me_list, &ptl->ptl_mes);
}
