// SPDX-License-Identifier: GPL-2.0
/*
 * BRW data patterns and check modes (spec lnet-selftest.md 5.4), and the
 * console's destination distribution (spec 7.5): pure functions.
 *
 * The writer (data source) puts MAGIC in the checked words of each
 * fragment; the reader (sink) first fills its buffer with POISON, so
 * bytes never delivered show as a mismatch, and then checks the same
 * words.  A fragment is a page piece of that side's own buffer layout:
 * SIMPLE checks its first and last 8 bytes, FULL every 8-byte word.
 * Words are little-endian on the wire from us; a big-endian sender's
 * MAGIC arrives byte-swapped, which the reader accepts when the peer's
 * messages came swapped.
 */
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/swab.h>
#include <asm/unaligned.h>

#include <kunit/visibility.h>

#include "selftest.h"

static void lst_fill_words(u8 *p, unsigned int len, u64 v, bool all)
{
	unsigned int i;

	if (len < 8)
		return;
	if (!all) {
		put_unaligned_le64(v, p);
		put_unaligned_le64(v, p + len - 8);
		return;
	}
	for (i = 0; i + 8 <= len; i += 8)
		put_unaligned_le64(v, p + i);
}

/**
 * lst_brw_fill() - the data source's fill of one fragment
 * @frag: the fragment
 * @len: its length (a multiple of 8)
 * @mode: LST_BRW_CHECK_*
 */
void lst_brw_fill(void *frag, unsigned int len, unsigned int mode)
{
	if (mode == LST_BRW_CHECK_SIMPLE || mode == LST_BRW_CHECK_FULL)
		lst_fill_words(frag, len, LST_BRW_MAGIC,
			       mode == LST_BRW_CHECK_FULL);
}
EXPORT_SYMBOL_IF_KUNIT(lst_brw_fill);

/**
 * lst_brw_poison() - the sink's fill of one fragment before the transfer
 * @frag: the fragment
 * @len: its length (a multiple of 8)
 * @mode: LST_BRW_CHECK_*
 */
void lst_brw_poison(void *frag, unsigned int len, unsigned int mode)
{
	if (mode == LST_BRW_CHECK_SIMPLE || mode == LST_BRW_CHECK_FULL)
		lst_fill_words(frag, len, LST_BRW_POISON, true);
}
EXPORT_SYMBOL_IF_KUNIT(lst_brw_poison);

/**
 * lst_brw_check() - the sink's check of one fragment after the transfer
 * @frag: the fragment
 * @len: its length (a multiple of 8)
 * @mode: LST_BRW_CHECK_*
 * @swapped: the peer's messages came byte-swapped: so does its MAGIC
 *
 * Return: 0, or -EBADMSG at the first checked word that is not MAGIC.
 */
int lst_brw_check(const void *frag, unsigned int len, unsigned int mode,
		  bool swapped)
{
	u64 want = swapped ? swab64(LST_BRW_MAGIC) : LST_BRW_MAGIC;
	const u8 *p = frag;
	unsigned int i;

	if ((mode != LST_BRW_CHECK_SIMPLE && mode != LST_BRW_CHECK_FULL) ||
	    len < 8)
		return 0;
	if (mode == LST_BRW_CHECK_SIMPLE)
		return get_unaligned_le64(p) == want &&
		       get_unaligned_le64(p + len - 8) == want ? 0 : -EBADMSG;
	for (i = 0; i + 8 <= len; i += 8)
		if (get_unaligned_le64(p + i) != want)
			return -EBADMSG;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(lst_brw_check);

/**
 * lst_dest_first() - where a client's destinations start (spec 7.5)
 * @i: the client's index in its group (0-based)
 * @dist: D of the test's D:S distribution (>= 1)
 * @span: S, destinations per client (1 <= S <= @n)
 * @n: nodes in the destination group
 *
 * Client @i gets @span consecutive destinations from here, wrapping.
 *
 * Return: the index of the first, or -EINVAL for a distribution that
 * does not fit.
 */
int lst_dest_first(unsigned int i, unsigned int dist, unsigned int span,
		   unsigned int n)
{
	if (!dist || !span || span > n)
		return -EINVAL;
	return (int)(((u64)(i / dist) * span) % n);
}
EXPORT_SYMBOL_IF_KUNIT(lst_dest_first);

/**
 * lst_server_loop() - the loop hint a console sends a test's servers
 *	(spec 7.3)
 * @nsrc: clients (the --from group's nodes)
 * @ndst: servers (the --to group's nodes)
 * @dist: D of D:S (>= 1)
 * @span: S of D:S (>= 1)
 * @concur: units per destination
 *
 * ceil(ceil(nsrc / D) / ceil(ndst / S)) * D * concur: the most RPCs one
 * server may have from the test at once.
 *
 * Return: the hint, at most S32_MAX.
 */
s32 lst_server_loop(unsigned int nsrc, unsigned int ndst, unsigned int dist,
		    unsigned int span, unsigned int concur)
{
	u64 v = DIV_ROUND_UP(DIV_ROUND_UP(nsrc, dist), DIV_ROUND_UP(ndst, span));

	v *= (u64)dist * concur;
	return (s32)min_t(u64, v, S32_MAX);
}
EXPORT_SYMBOL_IF_KUNIT(lst_server_loop);
