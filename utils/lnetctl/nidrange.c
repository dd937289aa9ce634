// SPDX-License-Identifier: GPL-2.0
/*
 * NID range expressions, as Lustre's lnetctl takes them wherever it takes
 * a list of NIDs (peer add/del --nid): a comma-separated list whose items
 * are NIDs or NIDs with bracketed ranges in their address, for example
 *
 *	7.7.7.[8-12]@tcp,[13-14/1].[13-15/2].1.1@tcp1,[1-4,9]@kfi
 *
 * A range list "[...]" holds items "N", "LO-HI" or "LO-HI/STEP" separated
 * by commas, and stands for one field of the address: an IPv4 octet
 * (0..255) or the whole number of a numeric address.  Expansion runs the
 * leftmost field slowest; every NID it gives must be one the kernel's
 * grammar (lnet/nidparse.c) accepts.  A NID given twice counts once.
 * Kept free of the rest of lnetctl so that the host test nid_grammar
 * links it alone.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nidrange.h"

#define NIDRANGE_FIELDS	4	/* IPv4: the most fields of an address */

/* One field of an address: its text, or the values of its range list. */
struct nid_field {
	const char *text;	/* literal text, when @n is 0 */
	size_t len;
	unsigned long *val;	/* range values in order */
	unsigned int n;
};

static int parse_ulong(const char **p, const char *end, unsigned long *v)
{
	const char *s = *p;

	*v = 0;
	if (s == end || *s < '0' || *s > '9')
		return -EINVAL;
	while (s < end && *s >= '0' && *s <= '9') {
		*v = *v * 10 + (unsigned long)(*s++ - '0');
		if (*v > 0xffffffffUL)
			return -EINVAL;
	}
	*p = s;
	return 0;
}

/*
 * One item of a range list at *@p: "N", "LO-HI" or "LO-HI/STEP" (@hi
 * = @lo, @step = 1 when not given); *@p moves past it.
 */
static int parse_range_item(const char **p, const char *end,
			    unsigned long *lo, unsigned long *hi,
			    unsigned long *step)
{
	if (parse_ulong(p, end, lo))
		return -EINVAL;
	*hi = *lo;
	*step = 1;
	if (*p == end || **p != '-')
		return 0;
	++*p;
	if (parse_ulong(p, end, hi))
		return -EINVAL;
	if (*p == end || **p != '/')
		return 0;
	++*p;
	return parse_ulong(p, end, step);
}

/* The values of the range list between @s and @end (brackets excluded). */
static int parse_range_list(const char *s, const char *end, unsigned long cap,
			    struct nid_field *f, unsigned int max)
{
	unsigned long lo, hi, step, v;
	unsigned long *nv;

	for (;;) {
		if (parse_range_item(&s, end, &lo, &hi, &step))
			return -EINVAL;
		if (hi < lo || !step || hi > cap)
			return -EINVAL;
		for (v = lo; v <= hi; v += step) {
			if (f->n >= max)
				return -E2BIG;
			nv = realloc(f->val, (f->n + 1) * sizeof(*nv));
			if (!nv)
				return -ENOMEM;
			f->val = nv;
			f->val[f->n++] = v;
			if (hi - v < step)
				break;
		}
		if (s == end)
			return 0;
		if (*s++ != ',')
			return -EINVAL;
	}
}

/* Append @nid to @out unless it is there already. */
static int add_nid(const char *nid, char (*out)[LNET_GENL_NID_LEN],
		   unsigned int *n, unsigned int max)
{
	struct lnet_nid parsed;
	unsigned int i;

	if (strlen(nid) >= LNET_GENL_NID_LEN ||
	    lnet_nid_from_str(nid, &parsed) || lnet_nid_is_any(&parsed))
		return -EINVAL;
	for (i = 0; i < *n; i++)
		if (!strcmp(out[i], nid))
			return 0;
	if (*n >= max)
		return -E2BIG;
	snprintf(out[(*n)++], LNET_GENL_NID_LEN, "%s", nid);
	return 0;
}

/* Every combination of the values of @f[0..@nf) with @net appended. */
static int expand_fields(const struct nid_field *f, unsigned int nf,
			 const char *net, char (*out)[LNET_GENL_NID_LEN],
			 unsigned int *n, unsigned int max)
{
	unsigned int idx[NIDRANGE_FIELDS] = { 0 };
	char nid[LNET_GENL_NID_LEN];
	unsigned int i;
	size_t len;
	int rc;

	for (;;) {
		len = 0;
		for (i = 0; i < nf; i++) {
			int w = f[i].n ?
				snprintf(nid + len, sizeof(nid) - len, "%s%lu",
					 i ? "." : "", f[i].val[idx[i]]) :
				snprintf(nid + len, sizeof(nid) - len, "%s%.*s",
					 i ? "." : "", (int)f[i].len,
					 f[i].text);

			if (w < 0 || (size_t)w >= sizeof(nid) - len)
				return -EINVAL;
			len += (size_t)w;
		}
		if (snprintf(nid + len, sizeof(nid) - len, "@%s", net) >=
		    (int)(sizeof(nid) - len))
			return -EINVAL;
		rc = add_nid(nid, out, n, max);
		if (rc)
			return rc;
		/* the next combination: the rightmost field fastest */
		for (i = nf; i-- > 0;) {
			if (f[i].n && ++idx[i] < f[i].n)
				break;
			idx[i] = 0;
		}
		if (i == (unsigned int)-1)
			return 0;
	}
}

/* One item of the list, @len bytes at @s, expanded into @out. */
static int expand_item(const char *s, size_t len,
		       char (*out)[LNET_GENL_NID_LEN], unsigned int *n,
		       unsigned int max)
{
	struct nid_field f[NIDRANGE_FIELDS] = { { 0 } };
	char item[LNET_GENL_NID_LEN * 4];
	const char *at, *p, *end, *close;
	unsigned int nf = 0, i;
	int rc = 0;

	if (!len || len >= sizeof(item))
		return -EINVAL;
	memcpy(item, s, len);
	item[len] = '\0';
	if (!memchr(item, '[', len))
		return add_nid(item, out, n, max);
	at = strrchr(item, '@');
	if (!at || strchr(at, '[') || strchr(at, ']'))
		return -EINVAL;
	for (p = item; p < at && !rc; p = end + 1) {
		end = p;
		if (*p == '[') {
			close = memchr(p, ']', (size_t)(at - p));
			end = close ? close + 1 : at;
			if (!close || (end != at && *end != '.'))
				rc = -EINVAL;
		}
		while (!rc && end < at && *end != '.') {
			if (*end == '[' || *end == ']')
				rc = -EINVAL;
			end++;
		}
		if (rc || nf == NIDRANGE_FIELDS) {
			rc = -EINVAL;
			break;
		}
		f[nf].text = p;
		f[nf].len = (size_t)(end - p);
		if (*p == '[')
			rc = parse_range_list(p + 1, end - 1, 0xffffffffUL,
					      &f[nf], max);
		nf++;
		if (end == at)
			break;
	}
	/* an IPv4 octet is at most 255; a numeric address is one field */
	for (i = 0; !rc && nf > 1 && i < nf; i++)
		if (f[i].n && f[i].val[f[i].n - 1] > 255)
			rc = -EINVAL;
	if (!rc && (nf == 2 || nf == 3 || !nf))
		rc = -EINVAL;
	if (!rc)
		rc = expand_fields(f, nf, at + 1, out, n, max);
	for (i = 0; i < NIDRANGE_FIELDS; i++)
		free(f[i].val);
	return rc;
}

/**
 * nid_list_expand() - the NIDs of a list of NIDs and NID ranges
 * @list: comma-separated NIDs and range expressions (commas inside
 *	brackets belong to the range)
 * @out: room for @max NIDs
 * @max: the most NIDs accepted
 *
 * Return: the number of distinct NIDs written to @out (at least 1),
 * -EINVAL if an item is malformed or gives a NID the grammar refuses,
 * -E2BIG if the list holds more than @max NIDs, -ENOMEM.
 */
int nid_list_expand(const char *list, char (*out)[LNET_GENL_NID_LEN],
		    unsigned int max)
{
	const char *p = list, *s = list;
	unsigned int n = 0;
	int depth = 0, rc;

	for (;; p++) {
		if (*p == '[') {
			depth++;
		} else if (*p == ']') {
			depth--;
		} else if ((*p == ',' && !depth) || !*p) {
			rc = expand_item(s, (size_t)(p - s), out, &n, max);
			if (rc)
				return rc;
			if (!*p)
				break;
			s = p + 1;
		}
	}
	return n ? (int)n : -EINVAL;
}

/*
 * One field of an IP range: "*", a number, or a bracketed list of items
 * "N", "LO-HI", "LO-HI/STEP" (Lustre's cfs_expr_list: a plain field is a
 * number or "*" only).  Return: 1 if @v is in it, 0 if not, -EINVAL if
 * the field is malformed.
 */
static int ip_field_match(const char *s, const char *end, unsigned long v)
{
	unsigned long lo, hi, step;
	int in = 0;

	if (end - s == 1 && *s == '*')
		return 1;
	if (*s != '[') {
		if (parse_ulong(&s, end, &lo) || s != end || lo > 255)
			return -EINVAL;
		return lo == v;
	}
	if (end - s < 3 || end[-1] != ']')
		return -EINVAL;
	s++;
	end--;
	for (;;) {
		/* "*" as an item: the whole octet (stock's cfs_expr_list) */
		if (*s == '*') {
			s++;
			lo = 0;
			hi = 255;
			step = 1;
		} else if (parse_range_item(&s, end, &lo, &hi, &step)) {
			return -EINVAL;
		}
		if (hi < lo || !step || hi > 255)
			return -EINVAL;
		if (v >= lo && v <= hi && !((v - lo) % step))
			in = 1;
		if (s == end)
			return in;
		if (*s++ != ',')
			return -EINVAL;
	}
}

/**
 * ip_range_match() - does an IPv4 address match an ip2nets IP range
 * @range: four dot-separated fields, each "*", a number or a bracketed
 *	range list ("192.168.*.[1-10/2,20]"), as Lustre's cfs_ip_addr_parse()
 *	takes them
 * @addr: the address, host byte order
 *
 * Return: 1 if it matches, 0 if not, -EINVAL if @range is malformed
 * (checked whole, whatever @addr).
 */
int ip_range_match(const char *range, u32 addr)
{
	const char *s = range, *end;
	int i, in, all = 1;

	for (i = 0; i < 4; i++) {
		end = strchr(s, '.');
		if (!end || i == 3)
			end = s + strlen(s);
		if (end == s || (i < 3 && !*end))
			return -EINVAL;
		in = ip_field_match(s, end, (addr >> (24 - 8 * i)) & 0xff);
		if (in < 0)
			return in;
		all &= in;
		s = end + 1;
	}
	return end[0] ? -EINVAL : all;
}

/* Add @name to @out unless it is there; -E2BIG past @max. */
static int add_name(const char *name, const char **out, unsigned int *n,
		    unsigned int max)
{
	unsigned int i;

	for (i = 0; i < *n; i++)
		if (!strcmp(out[i], name))
			return 0;
	if (*n >= max)
		return -E2BIG;
	out[(*n)++] = name;
	return 0;
}

/* Does @a match one of @r's ranges (any address when it has none)? */
static int rule_range_match(const struct ip2nets_rule *r, u32 a)
{
	unsigned int i;
	int in;

	if (!r->nranges)
		return 1;
	for (i = 0; i < r->nranges; i++) {
		in = ip_range_match(r->ranges[i], a);
		if (in)
			return in;
	}
	return 0;
}

/**
 * ip2nets_match() - the interfaces an ip2nets rule brings up on this node
 * @r: the rule
 * @ifs: this node's IPv4 addresses, each with its interface's name (an
 *	alias's label) and whether it is up, in the kernel's order
 * @n_ifs: how many
 * @out: the interface names, each once, in the order found
 * @max: room in @out
 *
 * As Lustre's lnetctl (lustre_lnet_match_ip_to_intf()) for the YAML
 * block: without interfaces or ranges, the first interface up but lo;
 * with ranges only, every interface up with an address in one of them;
 * with interfaces, each listed one that is up and whose first address
 * is in a range (any, without ranges).  @r->legacy (the module
 * parameter's syntax, "net add --ip2net"): the rule matches when any
 * address up is in a range, and then brings up its listed interfaces,
 * or, listing none, those whose addresses matched.
 *
 * Return: the number of names in @out (0: the rule matches nothing),
 * -EINVAL for a malformed range, -E2BIG.
 */
int ip2nets_match(const struct ip2nets_rule *r, const struct ip2nets_if *ifs,
		  unsigned int n_ifs, const char **out, unsigned int max)
{
	unsigned int n = 0, i, j;
	bool any = false;
	int in, rc;

	for (i = 0; i < r->nranges; i++)
		if (ip_range_match(r->ranges[i], 0) < 0)
			return -EINVAL;
	if (!r->nifs || r->legacy) {
		for (i = 0; i < n_ifs; i++) {
			/* lo: never by the module parameter's syntax */
			if (!ifs[i].up || ((r->legacy || !r->nranges) &&
					   !strcmp(ifs[i].name, "lo")))
				continue;
			in = rule_range_match(r, ifs[i].addr);
			if (in <= 0)
				continue;
			any = true;
			if (r->nifs)
				break;
			rc = add_name(ifs[i].name, out, &n, max);
			if (rc)
				return rc;
			if (!r->nranges)
				break;	/* the first interface up */
		}
		for (j = 0; any && j < r->nifs; j++) {
			rc = add_name(r->ifs[j], out, &n, max);
			if (rc)
				return rc;
		}
		return (int)n;
	}
	for (j = 0; j < r->nifs; j++) {
		for (i = 0; i < n_ifs; i++)
			if (!strcmp(ifs[i].name, r->ifs[j]))
				break;
		if (i == n_ifs || !ifs[i].up ||
		    rule_range_match(r, ifs[i].addr) <= 0)
			continue;
		rc = add_name(r->ifs[j], out, &n, max);
		if (rc)
			return rc;
	}
	return (int)n;
}

/* The next token of @s (blanks skip), or NULL at the end. */
static char *next_token(char **s)
{
	char *t = *s + strspn(*s, " \t");

	if (!*t)
		return NULL;
	*s = t + strcspn(t, " \t");
	if (**s)
		*(*s)++ = '\0';
	return t;
}

/**
 * ip2nets_parse_legacy() - the rules of an ip2nets module parameter string
 * @s: "NET[(IF[,IF...])] RANGE [RANGE...]" rules separated by ';' or
 *	newlines, '#' starting a comment to the end of its rule, as
 *	Lustre's ip2nets= ("tcp(eth0) 192.168.0.*; o2ib 10.0.[0-3].*");
 *	cut in place, the rules pointing into it
 * @rules: out, room for @max rules (each marked legacy)
 * @max: the most rules
 *
 * Each rule needs at least one range; ranges and interface names are
 * checked for form (the net by the caller).
 *
 * Return: the number of rules (at least 1), -EINVAL, -E2BIG.
 */
int ip2nets_parse_legacy(char *s, struct ip2nets_rule *rules,
			 unsigned int max)
{
	unsigned int n = 0;
	char *rule, *save = NULL, *isave = NULL, *t, *p, *c;

	for (rule = strtok_r(s, ";\n", &save); rule;
	     rule = strtok_r(NULL, ";\n", &save)) {
		struct ip2nets_rule *r = &rules[n];

		c = strchr(rule, '#');
		if (c)
			*c = '\0';
		t = next_token(&rule);
		if (!t)
			continue;	/* an empty rule or a comment */
		if (n >= max)
			return -E2BIG;
		memset(r, 0, sizeof(*r));
		r->legacy = true;
		r->net = t;
		p = strchr(t, '(');
		if (p) {
			c = strchr(p, ')');
			if (!c || c[1] || c == p + 1)
				return -EINVAL;
			*p++ = '\0';
			*c = '\0';
			for (c = strtok_r(p, ",", &isave); c;
			     c = strtok_r(NULL, ",", &isave)) {
				if (r->nifs >= IP2NETS_MAX)
					return -E2BIG;
				if (strlen(c) >= 16)
					return -EINVAL;
				r->ifs[r->nifs++] = c;
			}
			if (!r->nifs)
				return -EINVAL;
		} else if (strchr(t, ')')) {
			return -EINVAL;
		}
		while ((t = next_token(&rule))) {
			if (r->nranges >= IP2NETS_MAX)
				return -E2BIG;
			if (ip_range_match(t, 0) < 0)
				return -EINVAL;
			r->ranges[r->nranges++] = t;
		}
		if (!r->nranges)
			return -EINVAL;
		n++;
	}
	return n ? (int)n : -EINVAL;
}
