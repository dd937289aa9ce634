// SPDX-License-Identifier: GPL-2.0
/*
 * The routes= module parameter, parsed as stock's lnet_parse_routes()
 * (routing spec 10.2):
 *
 *	routes  := entry { (";" | CR | LF) entry }	"#" comments to the
 *							next separator
 *	entry   := <net> [<hops>] <gateway>[":"<priority>] { <gateway>... }
 *
 * Tokens are separated by whitespace.  The second token is the hop count
 * if it is a plain decimal 1..255, else the first gateway.  A priority is
 * a decimal u32 (default 0).  A net or gateway token may hold bracketed
 * expansions, "o2ib[1-3]" or "10.0.0.[1-10/2,20]@tcp": items separated
 * by ",", each "lo-hi", "lo-hi/stride" or a literal string; hi < lo or
 * (hi - lo) not a multiple of stride is an error.  Stock expands again
 * what an expansion gave, so a token may have several; this one takes up
 * to LNET_RP_BRACKETS_MAX.  Every (net x gateway) pair of an entry is
 * then added, nets outer: a gateway that is one of the node's own NIDs is
 * not added but makes the node "a router" (spec 5.2); -EEXIST and
 * -EHOSTUNREACH from the add are ignored (a gateway on a net that is not
 * local is skipped); any other error stops the parse.
 *
 * Pure functions: the node is asked through struct lnet_routes_param_ops,
 * so that KUnit runs the grammar with a fake one (kunit/
 * lnet_routes_param_test.c).  The strings expanded here are not NID
 * ranges but text substitution (a net name can be expanded too), which
 * is why lnet/nidlist.c's NID-range parser is not used.
 */
#include <kunit/visibility.h>
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/string.h>

#include <lnet/nid.h>
#include <lnet/route.h>

/* A token, and each string its expansion gives, in bytes with the NUL. */
#define LNET_RP_TOKEN_MAX	256
/* Brackets in one token (stock: no bound). */
#define LNET_RP_BRACKETS_MAX	4
/* Nets, and gateways, that one entry expands to at most. */
#define LNET_RP_EXPAND_MAX	4096
#define LNET_RP_BAD_RANGE \
	"bad range \"%.*s\" (hi < lo, or hi - lo not a multiple of the stride) in"
/* Bound of a range's numbers (stock reads them with "%d"). */
#define LNET_RP_NUM_MAX		INT_MAX

struct lnet_rp_gw {
	struct lnet_nid	nid;
	u32		priority;
};

/* One entry, being parsed. */
struct lnet_rp_entry {
	const char		*text;	/* the entry, for messages */
	const char		*token;	/* the token being parsed */
	size_t			toklen;
	u32			*nets;
	unsigned int		nnets;
	struct lnet_rp_gw	*gws;
	unsigned int		ngws;
	char			*why;
	size_t			whysize;
};

static __printf(2, 3) int lnet_rp_err(struct lnet_rp_entry *e,
				      const char *fmt, ...)
{
	char reason[96];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	if (e->whysize && e->toklen)
		snprintf(e->why, e->whysize, "%s \"%.*s\" in entry \"%s\"",
			 reason, (int)e->toklen, e->token, e->text);
	else if (e->whysize)
		snprintf(e->why, e->whysize, "%s in entry \"%s\"", reason,
			 e->text);
	return -EINVAL;
}

/* Plain decimal in s[0..len), at most @max: 0, else -EINVAL. */
static int lnet_rp_decimal(const char *s, size_t len, u64 max, u64 *val)
{
	u64 v = 0;
	size_t i;

	if (!len)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		if (!isdigit(s[i]))
			return -EINVAL;
		v = v * 10 + (s[i] - '0');
		if (v > max)
			return -EINVAL;
	}
	*val = v;
	return 0;
}

/* The token's text once expanded: a net or a gateway[:priority]. */
static int lnet_rp_leaf(struct lnet_rp_entry *e, bool is_net, char *s)
{
	struct lnet_rp_gw *gw;
	char *colon, *at;
	u64 prio = 0;
	u32 net;

	if (is_net) {
		if (lnet_net_from_str(s, &net))
			return lnet_rp_err(e, "bad network \"%s\":", s);
		if (net == LNET_NET_ANY || lnet_net_type(net) == LNET_LND_LO)
			return lnet_rp_err(e, "the remote network cannot be \"%s\":",
					   s);
		if (e->nnets >= LNET_RP_EXPAND_MAX)
			return lnet_rp_err(e, "more than %d networks:",
					   LNET_RP_EXPAND_MAX);
		e->nets[e->nnets++] = net;
		return 0;
	}

	/* The priority follows the net: an IPv6 address has colons. */
	at = strrchr(s, '@');
	colon = strchr(at ? at : s, ':');
	if (colon) {
		if (lnet_rp_decimal(colon + 1, strlen(colon + 1), U32_MAX,
				    &prio))
			return lnet_rp_err(e, "bad priority \"%s\":", colon + 1);
		*colon = '\0';
	}
	if (e->ngws >= LNET_RP_EXPAND_MAX)
		return lnet_rp_err(e, "more than %d gateways:",
				   LNET_RP_EXPAND_MAX);
	gw = &e->gws[e->ngws];
	if (lnet_nid_from_str(s, &gw->nid))
		return lnet_rp_err(e, "bad gateway NID \"%s\":", s);
	if (lnet_nid_is_any(&gw->nid) ||
	    lnet_net_type(lnet_nid_net(&gw->nid)) == LNET_LND_LO)
		return lnet_rp_err(e, "the gateway cannot be \"%s\":", s);
	gw->priority = prio;
	e->ngws++;
	return 0;
}

/*
 * Expand the first bracket of @s (a NUL-terminated string of at most
 * LNET_RP_TOKEN_MAX bytes); what each item gives is expanded again.
 */
static int lnet_rp_expand(struct lnet_rp_entry *e, bool is_net, char *s,
			  unsigned int depth)
{
	char *open, *close, *item, *end, *next, *dash, *slash;
	size_t prefix, suffix;
	u64 lo, hi, stride, v;
	char num[12];
	char *buf;
	int rc = 0;

	open = strchr(s, '[');
	if (!open)
		return lnet_rp_leaf(e, is_net, s);
	if (depth >= LNET_RP_BRACKETS_MAX)
		return lnet_rp_err(e, "more than %d expansions in", depth);
	close = strchr(open, ']');
	if (!close)
		return lnet_rp_err(e, "'[' without ']' in");
	if (close == open + 1)
		return lnet_rp_err(e, "empty expansion in");
	prefix = open - s;
	suffix = strlen(close + 1);
	buf = kmalloc(LNET_RP_TOKEN_MAX, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;

	for (item = open + 1; item < close && !rc; item = next + 1) {
		next = memchr(item, ',', close - item);
		if (!next)
			next = close;
		end = next;
		/* "lo-hi" or "lo-hi/stride": else a literal string */
		dash = memchr(item, '-', end - item);
		slash = dash ? memchr(dash, '/', end - dash) : NULL;
		if (!dash || lnet_rp_decimal(item, dash - item,
					     LNET_RP_NUM_MAX, &lo) ||
		    !isdigit(dash[1])) {
			if (prefix + (end - item) + suffix >= LNET_RP_TOKEN_MAX) {
				rc = lnet_rp_err(e, "too long an expansion of");
				break;
			}
			memcpy(buf, s, prefix);
			memcpy(buf + prefix, item, end - item);
			strscpy(buf + prefix + (end - item), close + 1,
				suffix + 1);
			rc = lnet_rp_expand(e, is_net, buf, depth + 1);
			continue;
		}
		stride = 1;
		if (lnet_rp_decimal(dash + 1, (slash ? slash : end) - dash - 1,
				    LNET_RP_NUM_MAX, &hi) ||
		    (slash && lnet_rp_decimal(slash + 1, end - slash - 1,
					      LNET_RP_NUM_MAX, &stride))) {
			rc = lnet_rp_err(e, "bad range \"%.*s\" in",
					 (int)(end - item), item);
			break;
		}
		/* all three fit in a u32: no 64-bit division */
		if (hi < lo || !stride || (u32)(hi - lo) % (u32)stride) {
			rc = lnet_rp_err(e, LNET_RP_BAD_RANGE,
					 (int)(end - item), item);
			break;
		}
		for (v = lo; v <= hi && !rc; v += stride) {
			int n = snprintf(num, sizeof(num), "%llu", v);

			if (prefix + n + suffix >= LNET_RP_TOKEN_MAX) {
				rc = lnet_rp_err(e, "too long an expansion of");
				break;
			}
			memcpy(buf, s, prefix);
			memcpy(buf + prefix, num, n);
			strscpy(buf + prefix + n, close + 1, suffix + 1);
			rc = lnet_rp_expand(e, is_net, buf, depth + 1);
		}
	}
	kfree(buf);
	return rc;
}

static int lnet_rp_token(struct lnet_rp_entry *e, bool is_net,
			 const char *tok, size_t len)
{
	char buf[LNET_RP_TOKEN_MAX];

	if (len >= sizeof(buf))
		return lnet_rp_err(e, "too long a token");
	memcpy(buf, tok, len);
	buf[len] = '\0';
	return lnet_rp_expand(e, is_net, buf, 0);
}

/* Is the token a hop count, a plain decimal 1..255? */
static bool lnet_rp_hops(const char *tok, size_t len, u32 *hops)
{
	u64 v;

	if (lnet_rp_decimal(tok, len, LNET_ROUTE_HOPS_MAX, &v) || !v)
		return false;
	*hops = v;
	return true;
}

/* One entry, s[0..len), with no separator in it. */
static int lnet_rp_entry(struct lnet_rp_entry *e, char *s,
			 const struct lnet_routes_param_ops *ops, void *arg,
			 bool *router)
{
	u32 hops = LNET_ROUTE_HOPS_UNSET;
	unsigned int ntok = 0, i, j;
	char *tok, *p;
	char nidstr[64], netstr[32];
	int rc;

	while (isspace(*s))
		s++;
	p = s;
	e->text = s;
	e->nnets = 0;
	e->ngws = 0;
	for (;;) {
		size_t len;

		while (isspace(*p))
			p++;
		if (!*p)
			break;
		tok = p;
		while (*p && !isspace(*p))
			p++;
		len = p - tok;
		ntok++;
		e->token = tok;
		e->toklen = len;
		if (ntok == 1)
			rc = lnet_rp_token(e, true, tok, len);
		else if (ntok == 2 && lnet_rp_hops(tok, len, &hops))
			rc = 0;
		else
			rc = lnet_rp_token(e, false, tok, len);
		if (rc)
			return rc;
	}
	if (!ntok)
		return 0;		/* blank */
	if (!e->ngws) {
		e->token = "";
		e->toklen = 0;
		return lnet_rp_err(e, "no gateway");
	}
	if (!ops)
		return 0;

	for (i = 0; i < e->nnets; i++) {
		for (j = 0; j < e->ngws; j++) {
			const struct lnet_rp_gw *gw = &e->gws[j];

			if (ops->nid_local(&gw->nid, arg)) {
				*router = true;
				continue;
			}
			rc = ops->add(e->nets[i], &gw->nid, hops, gw->priority,
				      arg);
			if (!rc || rc == -EEXIST || rc == -EHOSTUNREACH)
				continue;
			lnet_net_to_str(e->nets[i], netstr, sizeof(netstr));
			lnet_nid_to_str(&gw->nid, nidstr, sizeof(nidstr));
			if (e->whysize)
				snprintf(e->why, e->whysize,
					 "cannot add the route to %s via %s: %d (entry \"%s\")",
					 netstr, nidstr, rc, e->text);
			return rc;
		}
	}
	return 0;
}

/**
 * lnet_routes_param_apply() - parse routes= and add its routes
 * @str: the parameter's value
 * @ops: the node's table and NIDs, or NULL to check the syntax only
 * @arg: for @ops
 * @router: set to true if a gateway is one of the node's own NIDs
 *	(left alone otherwise)
 * @why: where to say what is wrong, or NULL
 * @whysize: size of @why
 *
 * Entries are parsed and applied one after the other: an error leaves
 * the routes of the entries before it added, so a caller that wants all
 * or nothing checks the string first with @ops NULL (spec 10.2: an error
 * fails LNet start, which removes every route anyway).
 *
 * Context: Process context (allocates; sleeps in @ops as they do).
 * Return: 0; -EINVAL for a syntax error; -ENOMEM; or the first error of
 * @ops->add other than -EEXIST and -EHOSTUNREACH.
 */
int lnet_routes_param_apply(const char *str,
			    const struct lnet_routes_param_ops *ops, void *arg,
			    bool *router, char *why, size_t whysize)
{
	struct lnet_rp_entry e = { .why = why, .whysize = why ? whysize : 0 };
	char *copy, *s, *sep;
	int rc = 0;

	if (why && whysize)
		why[0] = '\0';
	copy = kstrdup(str, GFP_KERNEL);
	e.nets = kvcalloc(LNET_RP_EXPAND_MAX, sizeof(*e.nets), GFP_KERNEL);
	e.gws = kvcalloc(LNET_RP_EXPAND_MAX, sizeof(*e.gws), GFP_KERNEL);
	if (!copy || !e.nets || !e.gws) {
		rc = -ENOMEM;
		goto out;
	}
	for (s = copy; !rc; s = sep + 1) {
		bool last, comment;

		sep = strpbrk(s, ";\r\n#");
		if (!sep)
			sep = s + strlen(s);
		comment = *sep == '#';
		last = !*sep;
		*sep = '\0';
		rc = lnet_rp_entry(&e, s, ops, arg, router);
		if (comment) {
			/* the comment runs to the next separator */
			sep = strpbrk(sep + 1, ";\r\n");
			if (!sep)
				break;
		} else if (last) {
			break;
		}
	}
out:
	kvfree(e.gws);
	kvfree(e.nets);
	kfree(copy);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_routes_param_apply);
