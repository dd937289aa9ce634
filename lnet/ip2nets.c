// SPDX-License-Identifier: GPL-2.0
/*
 * The ip2nets= module parameter: stock's rules choosing this node's nets
 * by its IPv4 addresses, turned into the networks= form for this node
 * (lnet-features-and-lnetctl.md 1c), as "lnetctl net add --ip2net"
 * resolves the same syntax in user space (utils/lnetctl/nidrange.c):
 *
 *	ip2nets := rule { (";" | LF) rule }	"#": a comment to the
 *						next separator
 *	rule    := <net>["("<if>{","<if>}")"] <range> { <range> }
 *	range   := <f> "." <f> "." <f> "." <f>
 *	<f>     := "*" | <0-255> | "[" item { "," item } "]"
 *	item    := <n> | <lo>"-"<hi> | <lo>"-"<hi>"/"<step>
 *
 * Tokens are separated by blanks.  A rule matches when an address of an
 * interface that is up (never lo) is in one of its ranges; it then
 * brings up its net on its listed interfaces, or, listing none, on the
 * interfaces (alias labels) whose addresses matched.  For each net the
 * first rule that matches wins.  A malformed rule anywhere is refused;
 * no rule matching is refused ("no interfaces match ip2nets rules").
 *
 * lnet_ip2nets_resolve() is pure (the node's addresses given), for KUnit
 * (kunit/lnet_ip2nets_test.c); lnet_ip2nets_networks() reads the real
 * addresses under RTNL for lnet/startup.c.
 */
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/inetdevice.h>
#include <linux/moduleparam.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <lnet/ip2nets.h>
#include <lnet/nid.h>
#include <lnet/nidlist.h>

static char *ip2nets = "";
module_param(ip2nets, charp, 0444);
MODULE_PARM_DESC(ip2nets, "rules choosing networks by this node's IPv4 addresses, e.g. \"tcp(eth0) 192.168.0.*; o2ib 10.0.0.[2-10]\" (used when networks= is empty)");

/* Interfaces, and ranges, of one rule at most (as lnetctl's --ip2net). */
#define LNET_IP2NETS_MAX	16
/* Nets that the rules bring up at most (lnet/startup.c's NIs). */
#define LNET_IP2NETS_NETS_MAX	32
/* The networks= string made, in bytes with the NUL. */
#define LNET_IP2NETS_SIZE	1024

/* Scratch of lnet_ip2nets_resolve(). */
struct lnet_ip2nets_scratch {
	u32		nets[LNET_IP2NETS_NETS_MAX];	/* matched */
	unsigned int	nnets;
	const char	*ifs[LNET_IP2NETS_MAX];		/* the rule's */
	unsigned int	nifs;
	const char	*ranges[LNET_IP2NETS_MAX];
	unsigned int	nranges;
	const char	*names[LNET_IP2NETS_NETS_MAX];	/* brought up */
	unsigned int	nnames;
};

/*
 * Is @addr (host byte order) in @range, four dot-separated fields, each
 * "*", a number or a bracketed list ("192.168.0.[2-10/2,20]")?  The
 * IPv4 fields of a NID list (lnet/nidlist.c), as stock's
 * cfs_ip_addr_parse() takes them; a NID list would also take "*" alone
 * (every address) and plain NIDs of other forms: four fields are asked.
 * Return: 1, 0, -EINVAL if @range is malformed, or -ENOMEM.
 */
static int lnet_ip2nets_range(const char *range, u32 addr)
{
	struct lnet_nidlist *nl;
	struct lnet_nid nid;
	const char *p;
	int dots = 0, rc;
	char *expr;

	for (p = range; *p; p++)
		if (*p == '.')
			dots++;
		else if (*p == '@')
			return -EINVAL;
	if (dots != 3)
		return -EINVAL;
	expr = kasprintf(GFP_KERNEL, "%s@tcp", range);
	if (!expr)
		return -ENOMEM;
	rc = lnet_nidlist_parse(expr, &nl);
	kfree(expr);
	if (rc)
		return rc;
	lnet_nid4_to_nid(lnet_mknid4(lnet_mknet(LNET_LND_SOCK, 0), addr), &nid);
	rc = lnet_nidlist_match(nl, &nid);
	lnet_nidlist_free(nl);
	return rc;
}

/* An interface name or alias label as lnetctl takes one. */
static bool lnet_ip2nets_ifname_valid(const char *s)
{
	size_t len = strlen(s);

	return len && len < IFNAMSIZ && !strpbrk(s, "/[], \t\n()#;") &&
	       s[0] != ':' && s[len - 1] != ':' && strcmp(s, ".") &&
	       strcmp(s, "..");
}

/* Add @name to @names unless there; -E2BIG past the room. */
static int lnet_ip2nets_add_name(struct lnet_ip2nets_scratch *sc,
				 const char *name)
{
	unsigned int i;

	for (i = 0; i < sc->nnames; i++)
		if (!strcmp(sc->names[i], name))
			return 0;
	if (sc->nnames == ARRAY_SIZE(sc->names))
		return -E2BIG;
	sc->names[sc->nnames++] = name;
	return 0;
}

/* The next blank-separated token of *@s, or NULL at its end. */
static char *lnet_ip2nets_token(char **s)
{
	char *t = *s + strspn(*s, " \t");

	if (!*t)
		return NULL;
	*s = t + strcspn(t, " \t");
	if (**s)
		*(*s)++ = '\0';
	return t;
}

/*
 * Parse one rule (cut in place) into @sc's ifs and ranges; *@net the net
 * token, *@net_id its net.  Return: 0, or -EINVAL/-E2BIG with @extack
 * and the console told.
 */
static int lnet_ip2nets_parse_rule(char *rule, unsigned int nr, char **net,
				   u32 *net_id, struct lnet_ip2nets_scratch *sc,
				   struct netlink_ext_ack *extack)
{
	char *t = lnet_ip2nets_token(&rule), *p, *c, *list;

	*net = t;
	sc->nifs = 0;
	sc->nranges = 0;
	p = strchr(t, '(');
	if (p) {
		c = strchr(p, ')');
		if (!c || c[1] || c == p + 1)
			goto bad;
		*p = '\0';
		*c = '\0';
		list = p + 1;
		while ((c = strsep(&list, ","))) {
			if (!*c)
				continue;
			if (sc->nifs == LNET_IP2NETS_MAX)
				goto big;
			if (!lnet_ip2nets_ifname_valid(c))
				goto bad;
			sc->ifs[sc->nifs++] = c;
		}
		if (!sc->nifs)
			goto bad;
	} else if (strchr(t, ')')) {
		goto bad;
	}
	if (lnet_net_from_str(t, net_id) ||
	    lnet_net_type(*net_id) == LNET_LND_LO) {
		NL_SET_ERR_MSG(extack, "bad ip2nets=: a rule's net is not a network");
		pr_err("LNet: ip2nets= rule %u: \"%s\" is not a network\n",
		       nr, t);
		return -EINVAL;
	}
	while ((t = lnet_ip2nets_token(&rule))) {
		if (sc->nranges == LNET_IP2NETS_MAX)
			goto big;
		if (lnet_ip2nets_range(t, 0) < 0) {
			NL_SET_ERR_MSG(extack, "bad ip2nets=: a bad IP range");
			pr_err("LNet: ip2nets= rule %u: bad IP range \"%s\"\n",
			       nr, t);
			return -EINVAL;
		}
		sc->ranges[sc->nranges++] = t;
	}
	if (!sc->nranges)
		goto bad;
	return 0;
bad:
	NL_SET_ERR_MSG(extack, "bad ip2nets=: not rules 'NET[(IF,...)] RANGE...; ...'");
	pr_err("LNet: ip2nets= rule %u: not \"NET[(IF,...)] RANGE...\"\n", nr);
	return -EINVAL;
big:
	NL_SET_ERR_MSG(extack, "bad ip2nets=: more than 16 interfaces or ranges in a rule");
	pr_err("LNet: ip2nets= rule %u: more than %d interfaces or ranges\n",
	       nr, LNET_IP2NETS_MAX);
	return -E2BIG;
}

/*
 * The interfaces the parsed rule in @sc brings up on the node @ifs, into
 * @sc->names.  Return: how many (0: it matches nothing), or -E2BIG.
 */
static int lnet_ip2nets_match(struct lnet_ip2nets_scratch *sc,
			      const struct lnet_ip2nets_if *ifs,
			      unsigned int n_ifs)
{
	bool any = false;
	unsigned int i, j;
	int rc;

	sc->nnames = 0;
	for (i = 0; i < n_ifs; i++) {
		bool in = false;

		if (!ifs[i].up || !strcmp(ifs[i].name, "lo"))
			continue;
		for (j = 0; j < sc->nranges && !in; j++)
			in = lnet_ip2nets_range(sc->ranges[j], ifs[i].addr) > 0;
		if (!in)
			continue;
		any = true;
		if (sc->nifs)
			break;
		rc = lnet_ip2nets_add_name(sc, ifs[i].name);
		if (rc)
			return rc;
	}
	for (j = 0; any && j < sc->nifs; j++) {
		rc = lnet_ip2nets_add_name(sc, sc->ifs[j]);
		if (rc)
			return rc;
	}
	return sc->nnames;
}

/**
 * lnet_ip2nets_resolve() - the networks= string ip2nets rules give a node
 * @rules: the ip2nets= string
 * @ifs: the node's IPv4 addresses, each with its interface's name (an
 *	alias's label) and whether it is up, in the kernel's order
 * @n_ifs: how many
 * @nets: out: the networks= form, "tcp(eth0),o2ib(ib0,ib1)"
 * @size: room in @nets
 * @extack: where to report an error (may be NULL)
 *
 * See the top of this file.  Every rule is checked, matching or not.
 *
 * Return: 0; -EINVAL for a malformed rule or none, -ENODEV if no rule
 * matches, -E2BIG, -ENOMEM; each said in @extack and on the console.
 */
int lnet_ip2nets_resolve(const char *rules, const struct lnet_ip2nets_if *ifs,
			 unsigned int n_ifs, char *nets, size_t size,
			 struct netlink_ext_ack *extack)
{
	struct lnet_ip2nets_scratch *sc;
	unsigned int nr = 0, i;
	char *copy, *s, *rule, *net, *c;
	size_t len = 0;
	int rc = 0, m;
	u32 net_id;

	if (size)
		nets[0] = '\0';
	copy = kstrdup(rules, GFP_KERNEL);
	sc = kzalloc(sizeof(*sc), GFP_KERNEL);
	if (!copy || !sc) {
		rc = -ENOMEM;
		goto out;
	}
	s = copy;
	while ((rule = strsep(&s, ";\n"))) {
		c = strchr(rule, '#');
		if (c)
			*c = '\0';
		if (!rule[strspn(rule, " \t")])
			continue;	/* an empty rule or a comment */
		nr++;
		rc = lnet_ip2nets_parse_rule(rule, nr, &net, &net_id, sc,
					     extack);
		if (rc)
			goto out;
		for (i = 0; i < sc->nnets; i++)
			if (sc->nets[i] == net_id)
				break;
		if (i < sc->nnets)
			continue;	/* an earlier rule of this net matched */
		m = lnet_ip2nets_match(sc, ifs, n_ifs);
		if (m < 0 || (m && sc->nnets == ARRAY_SIZE(sc->nets))) {
			rc = -E2BIG;
			goto too_big;
		}
		if (!m)
			continue;
		sc->nets[sc->nnets++] = net_id;
		len += scnprintf(nets + len, size - len, "%s%s(", len ? "," : "",
				 net);
		for (i = 0; i < sc->nnames; i++)
			len += scnprintf(nets + len, size - len, "%s%s",
					 i ? "," : "", sc->names[i]);
		if (len + 2 > size) {
			rc = -E2BIG;
			goto too_big;
		}
		len += scnprintf(nets + len, size - len, ")");
	}
	if (!nr) {
		NL_SET_ERR_MSG(extack, "bad ip2nets=: no rule");
		pr_err("LNet: ip2nets= has no rule\n");
		rc = -EINVAL;
	} else if (!sc->nnets) {
		NL_SET_ERR_MSG(extack, "no interfaces match ip2nets rules");
		pr_err("LNet: no interfaces match ip2nets=\"%s\"\n", rules);
		rc = -ENODEV;
	}
	goto out;
too_big:
	NL_SET_ERR_MSG(extack, "ip2nets= brings up too many networks");
	pr_err("LNet: ip2nets= brings up too many networks (rule %u)\n", nr);
out:
	if (rc && size)
		nets[0] = '\0';
	kfree(sc);
	kfree(copy);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(lnet_ip2nets_resolve);

/**
 * lnet_ip2nets_networks() - the networks= string ip2nets= gives this node
 * @networks: the networks= module parameter
 * @nets: out: NULL when ip2nets= is empty, else the networks= form
 *	(kfree())
 * @extack: where to report an error (may be NULL)
 *
 * Reads the IPv4 addresses of the initial namespace's interfaces under
 * RTNL, and resolves ip2nets= against them (lnet_ip2nets_resolve()).
 * Stock refuses both parameters set.
 *
 * Context: Process context; takes the RTNL lock.
 * Return: 0, -EINVAL for networks= and ip2nets= both set or a malformed
 * rule, -ENODEV if no rule matches, -E2BIG, -ENOMEM.
 */
int lnet_ip2nets_networks(const char *networks, char **nets,
			  struct netlink_ext_ack *extack)
{
	struct lnet_ip2nets_if *ifs = NULL;
	const struct in_ifaddr *ifa;
	struct in_device *in_dev;
	struct net_device *dev;
	unsigned int n = 0, i = 0;
	char *names = NULL;
	int rc;

	*nets = NULL;
	if (!*ip2nets)
		return 0;
	if (*networks) {
		NL_SET_ERR_MSG(extack, "networks and ip2nets both set");
		pr_err("LNet: networks= and ip2nets= both set: use one\n");
		return -EINVAL;
	}
	rtnl_lock();
	for_each_netdev(&init_net, dev) {
		in_dev = __in_dev_get_rtnl(dev);
		if (!in_dev)
			continue;
		in_dev_for_each_ifa_rtnl(ifa, in_dev)
			n++;
	}
	if (n) {
		ifs = kcalloc(n, sizeof(*ifs), GFP_KERNEL);
		names = kcalloc(n, IFNAMSIZ, GFP_KERNEL);
	}
	if (n && (!ifs || !names)) {
		rtnl_unlock();
		rc = -ENOMEM;
		goto out;
	}
	for_each_netdev(&init_net, dev) {
		in_dev = __in_dev_get_rtnl(dev);
		if (!in_dev)
			continue;
		in_dev_for_each_ifa_rtnl(ifa, in_dev) {
			if (i == n)
				break;
			strscpy(names + i * IFNAMSIZ, ifa->ifa_label, IFNAMSIZ);
			ifs[i].name = names + i * IFNAMSIZ;
			ifs[i].addr = ntohl(ifa->ifa_local);
			ifs[i++].up = dev->flags & IFF_UP;
		}
	}
	rtnl_unlock();
	*nets = kmalloc(LNET_IP2NETS_SIZE, GFP_KERNEL);
	if (!*nets) {
		rc = -ENOMEM;
		goto out;
	}
	rc = lnet_ip2nets_resolve(ip2nets, ifs, i, *nets, LNET_IP2NETS_SIZE,
				  extack);
	if (rc) {
		kfree(*nets);
		*nets = NULL;
	} else {
		pr_info("LNet: ip2nets= gives networks=\"%s\"\n", *nets);
	}
out:
	kfree(names);
	kfree(ifs);
	return rc;
}
