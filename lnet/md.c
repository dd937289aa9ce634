// SPDX-License-Identifier: GPL-2.0
/*
 * Memory descriptors and match entries: building them from the user's
 * description, their handles, unlinking, and moving data in and out of
 * them.  Handles are xarray indexes, allocated cyclically so that a stale
 * handle is unlikely to name a new MD; the wire form adds
 * the_lnet.ln_interface_cookie so that a handle from an earlier instance
 * is refused.
 */
#include <linux/bvec.h>
#include <linux/export.h>
#include <linux/highmem.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/uio.h>

#include <lnet/lib-lnet.h>

/* Handles stay below this, so that none is ever LNET_MD_HANDLE_NONE. */
#define LNET_MD_HANDLE_LIMIT	XA_LIMIT(1, U32_MAX)

/* Validate @umd and build the MD; no handle yet. */
static struct lnet_libmd *lnet_md_build(const struct lnet_md *umd,
					enum lnet_unlink unlink)
{
	struct lnet_libmd *md;
	unsigned int i, niov = 0;
	u64 total = 0;

	if (umd->options & ~LNET_MD_OPTIONS_ALL)
		return ERR_PTR(-EINVAL);
	if (umd->threshold < LNET_MD_THRESH_INF ||
	    (!umd->threshold && unlink == LNET_UNLINK))
		return ERR_PTR(-EINVAL);
	/* A size limit needs local offsets to have a meaning. */
	if ((umd->options & LNET_MD_MAX_SIZE) &&
	    (!umd->max_size || (umd->options & LNET_MD_MANAGE_REMOTE)))
		return ERR_PTR(-EINVAL);
	if (umd->options & LNET_MD_KIOV) {
		const struct bio_vec *bv = umd->start;

		niov = umd->length;
		if (!niov || niov > LNET_MAX_IOV || !bv)
			return ERR_PTR(-EINVAL);
		for (i = 0; i < niov; i++) {
			if (!bv[i].bv_page ||
			    bv[i].bv_offset + bv[i].bv_len > PAGE_SIZE)
				return ERR_PTR(-EINVAL);
			total += bv[i].bv_len;
		}
		if (total > U32_MAX)
			return ERR_PTR(-EINVAL);
	} else {
		if (umd->length && !umd->start)
			return ERR_PTR(-EINVAL);
		total = umd->length;
	}

	md = kzalloc(struct_size(md, md_kiov, niov), GFP_KERNEL);
	if (!md)
		return ERR_PTR(-ENOMEM);
	md->md_start = umd->start;
	md->md_user_ptr = umd->user_ptr;
	md->md_handler = umd->handler;
	md->md_options = umd->options;
	md->md_threshold = umd->threshold;
	md->md_length = total;
	if (umd->options & LNET_MD_MAX_SIZE)
		md->md_max_size = umd->max_size;
	md->md_unlink = unlink == LNET_UNLINK;
	INIT_LIST_HEAD(&md->md_rsp_list);
	md->md_niov = niov;
	if (niov)
		memcpy(md->md_kiov, umd->start, niov * sizeof(md->md_kiov[0]));
	else
		md->md_iov = (struct kvec){ umd->start, umd->length };
	return md;
}

/* Give @md a handle; it can be looked up from now on. */
static int lnet_md_register(struct lnet_libmd *md)
{
	u32 id;
	int rc;

	rc = xa_alloc_cyclic_bh(&the_lnet.ln_mds, &id, md, LNET_MD_HANDLE_LIMIT,
				&the_lnet.ln_md_next, GFP_KERNEL);
	if (rc < 0)
		return rc;
	md->md_handle = id;
	return 0;
}

/**
 * lnet_me_attach() - create a match entry on a portal
 * @portal: portal index, below %LNET_MAX_PORTALS
 * @match_id: accepted source; LNET_ANY_NID and %LNET_PID_ANY match all
 * @match_bits: bits an incoming message must carry...
 * @ignore_bits: ...except these
 * @pos: where in the portal's list the ME goes
 *
 * The ME takes part in matching once lnet_md_attach() gives it an MD; it
 * is freed with that MD (or by lnet_md_attach() failing).
 *
 * Context: Process context.
 * Return: the ME, or ERR_PTR(-EINVAL / -ENOMEM).
 */
struct lnet_me *lnet_me_attach(unsigned int portal,
			       const struct lnet_processid *match_id,
			       u64 match_bits, u64 ignore_bits,
			       enum lnet_ins_pos pos)
{
	struct lnet_me *me;

	if (portal >= LNET_MAX_PORTALS || !match_id)
		return ERR_PTR(-EINVAL);
	me = kzalloc(sizeof(*me), GFP_KERNEL);
	if (!me)
		return ERR_PTR(-ENOMEM);
	INIT_LIST_HEAD(&me->me_list);
	me->me_portal = portal;
	me->me_match_id = *match_id;
	me->me_match_bits = match_bits;
	me->me_ignore_bits = ignore_bits;
	me->me_pos = pos;
	return me;
}
EXPORT_SYMBOL(lnet_me_attach);

/**
 * lnet_md_attach() - give an ME its MD and start matching
 * @me: from lnet_me_attach(); consumed, even on failure
 * @umd: the buffer
 * @unlink: %LNET_UNLINK to unlink the MD (and ME) once its threshold is
 *	used up and it is idle
 * @handle: the MD's handle on success
 *
 * Context: Process context.
 * Return: 0 or -EINVAL (bad @umd) / -ENOMEM.
 */
int lnet_md_attach(struct lnet_me *me, const struct lnet_md *umd,
		   enum lnet_unlink unlink, struct lnet_handle_md *handle)
{
	struct lnet_libmd *md;
	int rc;

	md = lnet_md_build(umd, unlink);
	if (IS_ERR(md)) {
		kfree(me);
		return PTR_ERR(md);
	}
	rc = lnet_md_register(md);
	if (rc) {
		kfree(md);
		kfree(me);
		return rc;
	}
	lnet_lock();
	md->md_me = me;
	me->me_md = md;
	lnet_ptl_insert_locked(me);
	lnet_unlock();
	handle->cookie = md->md_handle;
	return 0;
}
EXPORT_SYMBOL(lnet_md_attach);

/**
 * lnet_md_bind() - create an MD that is not on any portal
 * @umd: the buffer
 * @unlink: as for lnet_md_attach()
 * @handle: the MD's handle on success
 *
 * A bound MD is the source of lnet_put() and the sink of lnet_get()
 * (and of the ACK or REPLY they bring).
 *
 * Context: Process context.
 * Return: 0 or -EINVAL / -ENOMEM.
 */
int lnet_md_bind(const struct lnet_md *umd, enum lnet_unlink unlink,
		 struct lnet_handle_md *handle)
{
	struct lnet_libmd *md;
	int rc;

	md = lnet_md_build(umd, unlink);
	if (IS_ERR(md))
		return PTR_ERR(md);
	rc = lnet_md_register(md);
	if (rc) {
		kfree(md);
		return rc;
	}
	handle->cookie = md->md_handle;
	return 0;
}
EXPORT_SYMBOL(lnet_md_bind);

/**
 * lnet_md_unlink_locked() - unlink an MD
 * @md: the MD
 *
 * Its ME leaves the portal and is freed, its handle stops resolving, and
 * the MD itself is freed now if idle, else by the last message using it
 * (whose event then has @unlinked set).  Idempotent.
 */
void lnet_md_unlink_locked(struct lnet_libmd *md)
{
	if (!md->md_zombie) {
		md->md_zombie = true;
		lnet_rsp_untrack_locked(md);
		xa_erase_bh(&the_lnet.ln_mds, md->md_handle);
		if (md->md_me) {
			list_del(&md->md_me->me_list);
			kfree(md->md_me);
			md->md_me = NULL;
		}
	}
	if (!md->md_refcount)
		kfree(md);
}

/**
 * lnet_md_unlink() - unlink an MD
 * @handle: the MD
 *
 * An idle MD gets an %LNET_EVENT_UNLINK event and is gone when this
 * returns; a busy one is unlinked when its last operation ends, and that
 * operation's event has @unlinked set.  Must not be called from an event
 * handler.
 *
 * Context: Process context or softirq.
 * Return: 0, or -ENOENT for a handle that names no MD.
 */
int lnet_md_unlink(struct lnet_handle_md handle)
{
	struct lnet_libmd *md;

	lnet_lock();
	md = xa_load(&the_lnet.ln_mds, handle.cookie);
	if (!md || md->md_zombie || handle.cookie > U32_MAX) {
		lnet_unlock();
		return -ENOENT;
	}
	lnet_md_unlink_event_locked(md, 0);
	lnet_unlock();
	return 0;
}
EXPORT_SYMBOL(lnet_md_unlink);

/**
 * lnet_md_unlink_event_locked() - unlink an MD, telling its user
 * @md: a live MD
 * @status: status of the %LNET_EVENT_UNLINK event an idle MD gets
 *
 * As lnet_md_unlink(), for an MD already looked up.
 */
void lnet_md_unlink_event_locked(struct lnet_libmd *md, int status)
{
	struct lnet_event ev;

	if (!md->md_refcount && md->md_handler) {
		memset(&ev, 0, sizeof(ev));
		ev.type = LNET_EVENT_UNLINK;
		ev.status = status;
		ev.unlinked = true;
		ev.md_handle.cookie = md->md_handle;
		ev.md_start = md->md_start;
		ev.md_user_ptr = md->md_user_ptr;
		md->md_handler(&ev);
	}
	lnet_md_unlink_locked(md);
}

/**
 * lnet_md_lookup_locked() - find the MD a wire handle names
 * @wh: a handle from a header
 *
 * Return: the live MD, or NULL if it is gone, was made by another LNet
 * instance or is not a handle at all.
 */
struct lnet_libmd *lnet_md_lookup_locked(const struct lnet_handle_wire *wh)
{
	struct lnet_libmd *md;

	if (wh->wh_interface_cookie != the_lnet.ln_interface_cookie ||
	    wh->wh_object_cookie > U32_MAX)
		return NULL;
	md = xa_load(&the_lnet.ln_mds, wh->wh_object_cookie);
	if (!md || md->md_zombie)
		return NULL;
	return md;
}

/* Its operations, or (LNET_MD_MAX_SIZE) its room, are used up. */
bool lnet_md_exhausted(const struct lnet_libmd *md)
{
	if (!md->md_threshold)
		return true;
	return (md->md_options & LNET_MD_MAX_SIZE) &&
	       (u64)md->md_offset + md->md_max_size > md->md_length;
}

/**
 * lnet_md_iter() - an iov_iter over part of an MD
 * @md: the MD
 * @dir: %ITER_DEST to fill the MD, %ITER_SOURCE to read it
 * @offset: first byte
 * @len: bytes; @offset + @len must not exceed the MD's length
 * @it: the iterator to set up
 */
void lnet_md_iter(const struct lnet_libmd *md, unsigned int dir,
		  unsigned int offset, unsigned int len, struct iov_iter *it)
{
	if (md->md_niov)
		iov_iter_bvec(it, dir, md->md_kiov, md->md_niov, md->md_length);
	else
		iov_iter_kvec(it, dir, &md->md_iov, 1, md->md_length);
	iov_iter_advance(it, offset);
	iov_iter_truncate(it, len);
}
EXPORT_SYMBOL(lnet_md_iter);

/**
 * lnet_md_copy_to_iter() - copy part of an MD into an iterator
 * @md: the source MD
 * @offset: first byte in @md
 * @len: bytes
 * @to: destination, with at least @len bytes of room
 *
 * The loopback LND's data mover: MD to MD without a wire in between.
 *
 * Return: 0, or -EFAULT if fewer than @len bytes were copied.
 */
int lnet_md_copy_to_iter(const struct lnet_libmd *md, unsigned int offset,
			 unsigned int len, struct iov_iter *to)
{
	unsigned int i, n;
	size_t done;
	void *va;

	if (!md->md_niov) {
		if (!len)
			return 0;
		done = copy_to_iter(md->md_iov.iov_base + offset, len, to);
		return done == len ? 0 : -EFAULT;
	}
	for (i = 0; i < md->md_niov && len; i++) {
		const struct bio_vec *bv = &md->md_kiov[i];

		if (offset >= bv->bv_len) {
			offset -= bv->bv_len;
			continue;
		}
		n = min(bv->bv_len - offset, len);
		va = kmap_local_page(bv->bv_page);
		done = copy_to_iter(va + bv->bv_offset + offset, n, to);
		kunmap_local(va);
		if (done != n)
			return -EFAULT;
		len -= n;
		offset = 0;
	}
	return len ? -EFAULT : 0;
}

/* Module exit: free the MDs (and MEs) users left behind. */
void lnet_md_cleanup(void)
{
	struct lnet_libmd *md;
	unsigned long idx;

	lnet_lock();
	xa_for_each(&the_lnet.ln_mds, idx, md) {
		WARN_ON(md->md_refcount);
		md->md_refcount = 0;
		lnet_md_unlink_locked(md);
	}
	lnet_unlock();
	xa_destroy(&the_lnet.ln_mds);
}
