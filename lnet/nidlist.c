// SPDX-License-Identifier: GPL-2.0
/*
 * NID lists in Lustre's syntax (cfs_parse_nidlist() and cfs_match_nid()):
 *
 *	nidlist	:= sep* expr (sep+ expr)* sep*	sep: ASCII white space
 *	expr	:= addr "@" net			net: as lnet_net_from_str()
 *	addr	:= "*"				every NID on net
 *		 | field "." field "." field "." field
 *						IPv4 nets; fields are 0..255
 *		 | field			numeric nets (u32) and lo (0)
 *		 | <address of a plain NID>	exact match, see below
 *	field	:= item | "[" item ("," item)* "]"
 *	item	:= "*" | num | num "-" num | num "-" num "/" num
 *						ranges only inside brackets
 *	num	:= decimal digits
 *
 * "*" as an item is the whole range of its field, "a-b" is a..b and
 * "a-b/s" is a, a + s, ... up to b.  Examples: "192.0.2.[1-10/2]@tcp",
 * "10.[0-1].*.[5,7,9-11]@o2ib1", "[1-100]@gni", "*@tcp", "0@lo".
 *
 * Any "<address>@<net>" that lnet_nid_from_str() accepts is also a valid
 * expression matching exactly that NID.  This is how IPv6 NIDs and
 * hexadecimal numeric addresses ("0x2a@gni") are written.  Ranges over
 * IPv6 addresses are not supported and are rejected with -EINVAL.
 *
 * Everything else is rejected with -EINVAL, never guessed at: "<?>", an
 * address without "@net", unknown nets, empty or unbalanced brackets,
 * empty items, reversed ranges (b < a), a zero stride, numbers out of
 * range (an octet or a stride over 255 in IPv4 fields, anything over
 * U32_MAX in numeric ones), signs, spaces or any other character inside
 * an expression, and an address that does not fit the net (an IPv4 form
 * on gni, a number on tcp, anything but 0 on lo).  Unlike Lustre, which
 * lets them through, reversed ranges and zero strides are errors.  As in
 * Lustre, numbers in the range form are decimal only, and a stride may not
 * exceed the largest value of its field.
 *
 * The canonical form prints the expressions in input order separated by
 * one space, numbers in decimal without leading zeros, a field that is a
 * single number or the whole range ("*") without brackets, "a-a" as "a",
 * "/1" not at all, and plain NIDs as lnet_nid_to_str() does.
 */
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/list.h>
#include <linux/math64.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/stdarg.h>
#include <linux/string.h>

#include <lnet/nid.h>
#include <lnet/nidlist.h>

enum nl_kind {
	NL_ANY,		/* "*@net": every NID on the network */
	NL_NID,		/* a plain NID, e.g. IPv6 */
	NL_NUM,		/* one field: numeric nets and lo */
	NL_IPV4,	/* four fields of one octet each */
};

#define NL_IPV4_FIELDS	4

/* lo, lo + stride, ... up to hi; lo == hi implies stride 1. */
struct nl_item {
	u32	lo;
	u32	hi;
	u32	stride;
};

/* A field is items[first .. first + nr) of its expression. */
struct nl_field {
	unsigned int	first;
	unsigned int	nr;
};

struct nl_expr {
	struct list_head	link;
	enum nl_kind		kind;
	u32			net;
	struct lnet_nid		nid;	/* NL_NID only */
	u32			max;	/* largest value of a field */
	unsigned int		nfields;
	struct nl_field		fields[NL_IPV4_FIELDS];
	unsigned int		nitems;
	unsigned int		cap;	/* room in items[] */
	struct nl_item		items[];
};

struct lnet_nidlist {
	struct list_head	exprs;	/* struct nl_expr, in input order */
};

/* The unparsed rest of an address. */
struct nl_cursor {
	const char	*p;
	const char	*end;
};

static bool nl_eat(struct nl_cursor *c, char ch)
{
	if (c->p < c->end && *c->p == ch) {
		c->p++;
		return true;
	}
	return false;
}

/* A run of decimal digits whose value is at most @max. */
static int nl_parse_num(struct nl_cursor *c, u32 max, u32 *out)
{
	const char *start = c->p;
	u64 val = 0;

	while (c->p < c->end && isdigit(*c->p)) {
		val = val * 10 + (*c->p - '0');
		if (val > max)
			return -EINVAL;
		c->p++;
	}
	if (c->p == start)
		return -EINVAL;
	*out = val;
	return 0;
}

static int nl_parse_item(struct nl_cursor *c, struct nl_expr *e,
			 bool bracketed)
{
	struct nl_item *it;
	int rc;

	if (e->nitems >= e->cap)
		return -EINVAL;
	it = &e->items[e->nitems];
	it->stride = 1;
	if (nl_eat(c, '*')) {
		it->lo = 0;
		it->hi = e->max;
	} else {
		rc = nl_parse_num(c, e->max, &it->lo);
		if (rc)
			return rc;
		it->hi = it->lo;
		if (bracketed && nl_eat(c, '-')) {
			rc = nl_parse_num(c, e->max, &it->hi);
			if (rc)
				return rc;
			if (it->hi < it->lo)
				return -EINVAL;
			if (nl_eat(c, '/')) {
				rc = nl_parse_num(c, e->max, &it->stride);
				if (rc)
					return rc;
				if (!it->stride)
					return -EINVAL;
			}
			if (it->lo == it->hi)
				it->stride = 1;
		}
	}
	e->nitems++;
	return 0;
}

static int nl_parse_field(struct nl_cursor *c, struct nl_expr *e)
{
	struct nl_field *f = &e->fields[e->nfields++];
	int rc;

	f->first = e->nitems;
	if (!nl_eat(c, '[')) {
		rc = nl_parse_item(c, e, false);
	} else {
		do {
			rc = nl_parse_item(c, e, true);
		} while (!rc && nl_eat(c, ','));
		if (!rc && !nl_eat(c, ']'))
			rc = -EINVAL;
	}
	f->nr = e->nitems - f->first;
	return rc;
}

/*
 * Whether a NID with this address is valid on @net.  The NID parser is
 * asked so that which LNDs take IP addresses, which take numbers and
 * that lo takes only 0 is known in one place.
 */
static bool nl_nid_valid(u32 net, u32 addr, bool dotted)
{
	char netstr[LNET_NIDSTR_SIZE], str[LNET_NIDSTR_SIZE];
	struct lnet_nid nid;

	lnet_net_to_str(net, netstr, sizeof(netstr));
	if (dotted)
		snprintf(str, sizeof(str), "%u.%u.%u.%u@%s", addr >> 24,
			 (addr >> 16) & 0xff, (addr >> 8) & 0xff, addr & 0xff,
			 netstr);
	else
		snprintf(str, sizeof(str), "%u@%s", addr, netstr);
	return !lnet_nid_from_str(str, &nid);
}

/*
 * Every address an expression covers must be valid on its net.  The valid
 * addresses of a net form one interval (all IPv4 addresses, all of u32,
 * or just 0), so checking the ends is enough.
 */
static bool nl_expr_valid(const struct nl_expr *e)
{
	u32 lo = U32_MAX, hi = 0;
	unsigned int i;

	if (e->kind == NL_IPV4)
		return nl_nid_valid(e->net, 0, true);
	for (i = 0; i < e->nitems; i++) {
		lo = min(lo, e->items[i].lo);
		hi = max(hi, e->items[i].hi);
	}
	return nl_nid_valid(e->net, lo, false) &&
	       nl_nid_valid(e->net, hi, false);
}

/* The range form of an address, s[0..len): one or four fields. */
static int nl_parse_ranges(const char *s, size_t len, u32 net,
			   struct nl_expr **out)
{
	struct nl_cursor c = { .p = s, .end = s + len };
	unsigned int dots = 0, commas = 0, nfields;
	struct nl_expr *e;
	size_t i;
	int rc;

	for (i = 0; i < len; i++) {
		dots += s[i] == '.';
		commas += s[i] == ',';
	}
	if (dots != 0 && dots != NL_IPV4_FIELDS - 1)
		return -EINVAL;
	nfields = dots + 1;

	/* Each field has one item more than it has commas. */
	e = kzalloc(struct_size(e, items, (size_t)commas + nfields),
		    GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	e->kind = dots ? NL_IPV4 : NL_NUM;
	e->net = net;
	e->max = dots ? U8_MAX : U32_MAX;
	e->cap = commas + nfields;

	rc = nl_parse_field(&c, e);
	while (!rc && e->nfields < nfields)
		rc = nl_eat(&c, '.') ? nl_parse_field(&c, e) : -EINVAL;
	if (!rc && (c.p != c.end || !nl_expr_valid(e)))
		rc = -EINVAL;
	if (rc) {
		kfree(e);
		return rc;
	}
	*out = e;
	return 0;
}

/* One expression, s[0..len), which holds no white space. */
static int nl_parse_expr(struct lnet_nidlist *nl, const char *s, size_t len)
{
	struct nl_expr *e = NULL;
	struct lnet_nid nid;
	char *tok, *at;
	u32 net;
	int rc = -EINVAL;

	tok = kmemdup_nul(s, len, GFP_KERNEL);
	if (!tok)
		return -ENOMEM;

	/* lnet_net_from_str() also refuses a second '@'. */
	at = strchr(tok, '@');
	if (!at || at == tok || lnet_net_from_str(at + 1, &net))
		goto out;

	if (at - tok == 1 && tok[0] == '*') {
		e = kzalloc(sizeof(*e), GFP_KERNEL);
		rc = e ? 0 : -ENOMEM;
		if (e)
			e->kind = NL_ANY;
	} else {
		rc = nl_parse_ranges(tok, at - tok, net, &e);
		if (rc == -EINVAL && !lnet_nid_from_str(tok, &nid) &&
		    !lnet_nid_is_any(&nid)) {
			e = kzalloc(sizeof(*e), GFP_KERNEL);
			rc = e ? 0 : -ENOMEM;
			if (e) {
				e->kind = NL_NID;
				e->nid = nid;
			}
		}
	}
	if (!rc) {
		e->net = net;
		list_add_tail(&e->link, &nl->exprs);
	}
out:
	kfree(tok);
	return rc;
}

static bool nl_is_sep(char c)
{
	return isascii(c) && isspace(c);
}

/**
 * lnet_nidlist_parse() - parse a NID list in Lustre's syntax
 * @str: NUL-terminated list of NID-range expressions separated by white
 *	space, e.g. "192.0.2.[1-10/2]@tcp [1-100]@gni *@o2ib1 0@lo"
 * @out: set to the new list on success, to %NULL on failure
 *
 * The grammar is described at the top of this file.  At least one
 * expression is required.  May sleep: allocates with %GFP_KERNEL.
 *
 * Context: process context.
 * Return: 0, with a list to be freed by lnet_nidlist_free(); -EINVAL if
 * @str is not a valid NID list; -ENOMEM.
 */
int lnet_nidlist_parse(const char *str, struct lnet_nidlist **out)
{
	struct lnet_nidlist *nl;
	const char *end;
	int rc = 0;

	*out = NULL;
	nl = kzalloc(sizeof(*nl), GFP_KERNEL);
	if (!nl)
		return -ENOMEM;
	INIT_LIST_HEAD(&nl->exprs);

	for (;;) {
		while (nl_is_sep(*str))
			str++;
		if (!*str)
			break;
		for (end = str; *end && !nl_is_sep(*end); end++)
			;
		rc = nl_parse_expr(nl, str, end - str);
		if (rc)
			break;
		str = end;
	}
	if (!rc && list_empty(&nl->exprs))
		rc = -EINVAL;
	if (rc) {
		lnet_nidlist_free(nl);
		return rc;
	}
	*out = nl;
	return 0;
}
EXPORT_SYMBOL(lnet_nidlist_parse);

/**
 * lnet_nidlist_free() - free a list made by lnet_nidlist_parse()
 * @nl: the list; %NULL is allowed and does nothing
 */
void lnet_nidlist_free(struct lnet_nidlist *nl)
{
	struct nl_expr *e, *tmp;

	if (!nl)
		return;
	list_for_each_entry_safe(e, tmp, &nl->exprs, link) {
		list_del(&e->link);
		kfree(e);
	}
	kfree(nl);
}
EXPORT_SYMBOL(lnet_nidlist_free);

/* The value of field @i of a four-byte address. */
static u32 nl_field_val(const struct nl_expr *e, u32 addr, unsigned int i)
{
	if (e->kind == NL_NUM)
		return addr;
	return (addr >> (8 * (NL_IPV4_FIELDS - 1 - i))) & 0xff;
}

/* The four-byte address made of one value per field. */
static u32 nl_addr(const struct nl_expr *e, const u32 *vals)
{
	u32 addr = 0;
	unsigned int i;

	if (e->kind == NL_NUM)
		return vals[0];
	for (i = 0; i < NL_IPV4_FIELDS; i++)
		addr = addr << 8 | vals[i];
	return addr;
}

static bool nl_field_match(const struct nl_expr *e, const struct nl_field *f,
			   u32 v)
{
	const struct nl_item *it = &e->items[f->first];
	unsigned int i;

	for (i = 0; i < f->nr; i++, it++)
		if (v >= it->lo && v <= it->hi && (v - it->lo) % it->stride == 0)
			return true;
	return false;
}

static bool nl_expr_match(const struct nl_expr *e, const struct lnet_nid *nid)
{
	unsigned int i;
	u32 addr;

	/* The wildcard NID's net is LNET_NET_ANY, which is never e->net. */
	if (lnet_nid_net(nid) != e->net)
		return false;

	switch (e->kind) {
	case NL_ANY:
		return true;
	case NL_NID:
		return lnet_nid_equal(&e->nid, nid);
	case NL_NUM:
	case NL_IPV4:
		break;
	}

	if (nid->nid_size != 0)
		return false;
	addr = be32_to_cpu(nid->nid_addr[0]);
	for (i = 0; i < e->nfields; i++)
		if (!nl_field_match(e, &e->fields[i], nl_field_val(e, addr, i)))
			return false;
	return true;
}

/**
 * lnet_nidlist_match() - whether a NID is covered by a NID list
 * @nl: list made by lnet_nidlist_parse()
 * @nid: NID to look for
 *
 * "*@net" matches every NID on that net, IPv6 ones included.  Range
 * expressions match only NIDs with four-byte addresses, and plain NIDs
 * exactly themselves.  The wildcard NID (%LNET_ANY_NID) matches nothing.
 *
 * Context: any; does not sleep.
 * Return: true if any expression of @nl matches @nid.
 */
bool lnet_nidlist_match(const struct lnet_nidlist *nl,
			const struct lnet_nid *nid)
{
	const struct nl_expr *e;

	list_for_each_entry(e, &nl->exprs, link)
		if (nl_expr_match(e, nid))
			return true;
	return false;
}
EXPORT_SYMBOL(lnet_nidlist_match);

/* Offset for the next append to a buffer holding @len characters. */
static size_t nl_off(int len, size_t size)
{
	return min_t(size_t, len, size);
}

static __printf(4, 5) int nl_printf(char *buf, size_t size, int len,
				     const char *fmt, ...)
{
	size_t off = nl_off(len, size);
	va_list args;

	va_start(args, fmt);
	len += vsnprintf(buf + off, size - off, fmt, args);
	va_end(args);
	return len;
}

/* "*" for a field's whole range (stride 1). */
static bool nl_item_is_all(const struct nl_expr *e, const struct nl_item *it)
{
	return it->lo == 0 && it->hi == e->max && it->stride == 1;
}

static int nl_item_to_str(const struct nl_expr *e, const struct nl_item *it,
			  char *buf, size_t size, int len)
{
	if (nl_item_is_all(e, it))
		return nl_printf(buf, size, len, "*");
	if (it->lo == it->hi)
		return nl_printf(buf, size, len, "%u", it->lo);
	if (it->stride == 1)
		return nl_printf(buf, size, len, "%u-%u", it->lo, it->hi);
	return nl_printf(buf, size, len, "%u-%u/%u", it->lo, it->hi,
			 it->stride);
}

static int nl_field_to_str(const struct nl_expr *e, const struct nl_field *f,
			   char *buf, size_t size, int len)
{
	const struct nl_item *it = &e->items[f->first];
	bool brackets;
	unsigned int i;

	brackets = f->nr > 1 || (it->lo != it->hi && !nl_item_is_all(e, it));
	if (brackets)
		len = nl_printf(buf, size, len, "[");
	for (i = 0; i < f->nr; i++) {
		if (i)
			len = nl_printf(buf, size, len, ",");
		len = nl_item_to_str(e, &it[i], buf, size, len);
	}
	if (brackets)
		len = nl_printf(buf, size, len, "]");
	return len;
}

static int nl_expr_to_str(const struct nl_expr *e, char *buf, size_t size,
			  int len)
{
	unsigned int i;
	size_t off;

	switch (e->kind) {
	case NL_NID:
		off = nl_off(len, size);
		return len + lnet_nid_to_str(&e->nid, buf + off, size - off);
	case NL_ANY:
		len = nl_printf(buf, size, len, "*");
		break;
	case NL_NUM:
	case NL_IPV4:
		for (i = 0; i < e->nfields; i++) {
			if (i)
				len = nl_printf(buf, size, len, ".");
			len = nl_field_to_str(e, &e->fields[i], buf, size, len);
		}
		break;
	}
	len = nl_printf(buf, size, len, "@");
	off = nl_off(len, size);
	return len + lnet_net_to_str(e->net, buf + off, size - off);
}

/**
 * lnet_nidlist_to_str() - format a NID list in canonical form
 * @nl: list made by lnet_nidlist_parse()
 * @buf: output buffer, always NUL-terminated when @size > 0
 * @size: size of @buf; may be 0 (and @buf %NULL) to learn the length
 *
 * The canonical form is described at the top of this file; parsing
 * it gives a list that matches the same NIDs and formats the same way.
 *
 * Context: any; does not sleep.
 * Return: the length of the full string, as for snprintf().
 */
int lnet_nidlist_to_str(const struct lnet_nidlist *nl, char *buf, size_t size)
{
	const struct nl_expr *e;
	int len = 0;

	if (size)
		buf[0] = '\0';
	list_for_each_entry(e, &nl->exprs, link) {
		if (len)
			len = nl_printf(buf, size, len, " ");
		len = nl_expr_to_str(e, buf, size, len);
	}
	return len;
}
EXPORT_SYMBOL(lnet_nidlist_to_str);

/* The smallest value of field @f that is at least @from, if there is one. */
static bool nl_field_next(const struct nl_expr *e, const struct nl_field *f,
			  u64 from, u32 *val)
{
	const struct nl_item *it = &e->items[f->first];
	u64 best = U64_MAX, v;
	unsigned int i;

	for (i = 0; i < f->nr; i++, it++) {
		v = it->lo;
		if (from > v)
			v += div_u64(from - v + it->stride - 1, it->stride) *
			     it->stride;
		if (v <= it->hi)
			best = min(best, v);
	}
	if (best == U64_MAX)
		return false;
	*val = best;
	return true;
}

/* Step to the next address in ascending order: an odometer over fields. */
static bool nl_advance(const struct nl_expr *e, u32 *vals)
{
	unsigned int i = e->nfields;

	while (i--) {
		if (nl_field_next(e, &e->fields[i], (u64)vals[i] + 1, &vals[i]))
			return true;
		nl_field_next(e, &e->fields[i], 0, &vals[i]);
	}
	return false;
}

struct nl_walk {
	const struct lnet_nidlist	*nl;
	unsigned int			max;
	unsigned int			count;
	int (*cb)(const struct lnet_nid *nid, void *data);
	void				*data;
};

/*
 * Count @nid and hand it to the callback, unless an earlier expression
 * already produced it.
 */
static int nl_emit(struct nl_walk *w, const struct nl_expr *cur,
		   const struct lnet_nid *nid)
{
	const struct nl_expr *e;

	list_for_each_entry(e, &w->nl->exprs, link) {
		if (e == cur)
			break;
		if (nl_expr_match(e, nid))
			return 0;
	}
	if (w->count >= w->max)
		return -E2BIG;
	w->count++;
	return w->cb ? w->cb(nid, w->data) : 0;
}

static int nl_walk_expr(struct nl_walk *w, const struct nl_expr *e)
{
	u32 vals[NL_IPV4_FIELDS] = {};
	struct lnet_nid nid;
	unsigned int i;
	int rc;

	switch (e->kind) {
	case NL_ANY:
		/* Only lo has a finite number of addresses: 0@lo. */
		if (lnet_net_type(e->net) != LNET_LND_LO)
			return -E2BIG;
		lnet_nid4_to_nid(LNET_NID_LO_0, &nid);
		return nl_emit(w, e, &nid);
	case NL_NID:
		return nl_emit(w, e, &e->nid);
	case NL_NUM:
	case NL_IPV4:
		break;
	}

	/* Every field has a value: an item's lo is always in it. */
	for (i = 0; i < e->nfields; i++)
		nl_field_next(e, &e->fields[i], 0, &vals[i]);
	do {
		lnet_nid4_to_nid(lnet_mknid4(e->net, nl_addr(e, vals)), &nid);
		rc = nl_emit(w, e, &nid);
		if (rc)
			return rc;
	} while (nl_advance(e, vals));
	return 0;
}

static int nl_walk(struct nl_walk *w)
{
	const struct nl_expr *e;
	int rc;

	list_for_each_entry(e, &w->nl->exprs, link) {
		rc = nl_walk_expr(w, e);
		if (rc)
			return rc;
	}
	return 0;
}

struct nl_store {
	struct lnet_nid	*nids;
	unsigned int	n;
};

static int nl_store_nid(const struct lnet_nid *nid, void *data)
{
	struct nl_store *st = data;

	st->nids[st->n++] = *nid;
	return 0;
}

/**
 * lnet_nidlist_expand() - list the NIDs a NID list covers
 * @nl: list made by lnet_nidlist_parse()
 * @nids: array of @max NIDs to fill, or %NULL to only count
 * @max: most NIDs wanted; values over %INT_MAX count as %INT_MAX
 *
 * Expressions are expanded in input order, each in ascending address
 * order (the first field varies slowest).  A NID that an earlier
 * expression covers is not repeated.  "*@net" covers an unbounded number
 * of NIDs, except "*@lo", which is just 0@lo.  The work done is
 * proportional to @max, so pick it as small as the caller can.
 *
 * Context: any; does not sleep.
 * Return: the number of NIDs (at least 1), or -E2BIG if @nl covers more
 * than @max NIDs; @nids is then partly filled.
 */
int lnet_nidlist_expand(const struct lnet_nidlist *nl, struct lnet_nid *nids,
			unsigned int max)
{
	struct nl_store st = { .nids = nids };
	struct nl_walk w = {
		.nl = nl,
		.max = min_t(unsigned int, max, INT_MAX),
		.cb = nids ? nl_store_nid : NULL,
		.data = &st,
	};
	int rc;

	rc = nl_walk(&w);
	return rc ? rc : w.count;
}
EXPORT_SYMBOL(lnet_nidlist_expand);

/**
 * lnet_nidlist_for_each() - call a function for each NID a list covers
 * @nl: list made by lnet_nidlist_parse()
 * @max: most NIDs allowed
 * @cb: called once per NID, in the order lnet_nidlist_expand() gives;
 *	returns 0 to go on, anything else to stop
 * @data: passed to @cb
 *
 * The NIDs are counted first, so @cb is never called when @nl covers
 * more than @max NIDs.  The walk itself does not sleep; @cb may if the
 * caller's context allows it.
 *
 * Return: 0 once @cb has seen every NID; -E2BIG (with no call to @cb)
 * if @nl covers more than @max NIDs; or the non-zero value @cb returned.
 */
int lnet_nidlist_for_each(const struct lnet_nidlist *nl, unsigned int max,
			  int (*cb)(const struct lnet_nid *nid, void *data),
			  void *data)
{
	struct nl_walk w = { .nl = nl, .max = max };
	int rc;

	rc = nl_walk(&w);
	if (rc)
		return rc;
	w.count = 0;
	w.cb = cb;
	w.data = data;
	return nl_walk(&w);
}
EXPORT_SYMBOL(lnet_nidlist_for_each);
