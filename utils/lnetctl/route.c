// SPDX-License-Identifier: GPL-2.0
/*
 * lnetctl route add | del | show, and the "route:" block of export and
 * import (spec: lnet-routing.md 10.4, 10.5):
 *
 *	route:
 *	    - net: tcp1
 *	      gateway: 192.0.2.2@tcp
 *	      hop: -1			(-v; -1: unset)
 *	      priority: 0		(-v)
 *	      state: up			(-v)
 *	      type: multi-hop		(-v; single-hop once a check saw it)
 *
 * export --backup leaves out state and type.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lnetctl.h"
#include "nidrange.h"

int do_route_add(const struct route_req *r, struct lnl_error *err)
{
	struct nl_msg *msg = lnl_msg(LNET_CMD_ROUTE_ADD, false);
	int bad = !msg;

	if (!bad)
		bad = nla_put_string(msg, LNET_A_NET, r->net) ||
		      nla_put_string(msg, LNET_A_GATEWAY, r->gw);
	if (!bad && r->hop > 0)
		bad = nla_put_s32(msg, LNET_A_HOP, r->hop);
	if (!bad && r->prio >= 0)
		bad = nla_put_u32(msg, LNET_A_PRIORITY, r->prio);
	if (bad && msg) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return lnl_run(msg, NULL, NULL, err);
}

int do_route_del(const char *net, const char *gw, struct lnl_error *err)
{
	struct nl_msg *msg = lnl_msg(LNET_CMD_ROUTE_DEL, false);

	if (msg && (nla_put_string(msg, LNET_A_NET, net) ||
		    (gw && nla_put_string(msg, LNET_A_GATEWAY, gw)))) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return lnl_run(msg, NULL, NULL, err);
}

static int route_cb(struct nlattr **tb, struct nlattr *head, int len,
		    void *arg)
{
	struct route_list *l = arg;
	struct route_rec *r;

	(void)head;
	(void)len;
	if (!tb[LNET_A_NET] || !tb[LNET_A_GATEWAY] || !tb[LNET_A_HOP] ||
	    !tb[LNET_A_PRIORITY])
		return -EPROTO;
	r = realloc(l->r, (l->n + 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	l->r = r;
	r += l->n++;
	memset(r, 0, sizeof(*r));
	snprintf(r->req.net, sizeof(r->req.net), "%s",
		 nla_get_string(tb[LNET_A_NET]));
	snprintf(r->req.gw, sizeof(r->req.gw), "%s",
		 nla_get_string(tb[LNET_A_GATEWAY]));
	r->req.hop = (int32_t)nla_get_u32(tb[LNET_A_HOP]);
	r->req.prio = nla_get_u32(tb[LNET_A_PRIORITY]);
	r->alive = tb[LNET_A_ROUTE_ALIVE] &&
		   nla_get_u8(tb[LNET_A_ROUTE_ALIVE]);
	r->single_hop = tb[LNET_A_ROUTE_SINGLE_HOP] &&
			nla_get_u8(tb[LNET_A_ROUTE_SINGLE_HOP]);
	return 0;
}

/*
 * The routes, @f's filters applied by the kernel (net and gateway ""
 * for any, hop 0 and prio -1 for any).  A filter that matches nothing
 * is no error: an empty list (stock prints nothing).
 */
int get_routes(const struct route_req *f, struct route_list *l,
	       struct lnl_error *err)
{
	struct nl_msg *msg = lnl_msg(LNET_CMD_ROUTE_GET, true);
	int rc;

	l->r = NULL;
	l->n = 0;
	if (msg && f &&
	    ((f->net[0] && nla_put_string(msg, LNET_A_NET, f->net)) ||
	     (f->gw[0] && nla_put_string(msg, LNET_A_GATEWAY, f->gw)) ||
	     (f->hop && nla_put_s32(msg, LNET_A_HOP, f->hop)) ||
	     (f->prio >= 0 && nla_put_u32(msg, LNET_A_PRIORITY, f->prio)))) {
		nlmsg_free(msg);
		msg = NULL;
	}
	rc = lnl_run(msg, route_cb, l, err);
	if (rc == -ENOENT && f)
		rc = 0;
	if (rc < 0) {
		free(l->r);
		l->r = NULL;
		l->n = 0;
	}
	return rc;
}

/*
 * "route:" (nothing for no route); @detail adds hop and priority, and
 * unless @backup state and type.
 */
void emit_routes(struct yout *y, const struct route_list *l, bool detail,
		 bool backup)
{
	unsigned int i;

	if (!l->n)
		return;
	yout_str(y, "route");
	yout_seq(y);
	for (i = 0; i < l->n; i++) {
		const struct route_rec *r = &l->r[i];

		yout_map(y);
		yout_kv_str(y, "net", r->req.net);
		yout_kv_str(y, "gateway", r->req.gw);
		if (detail) {
			yout_kv_int(y, "hop", r->req.hop);
			yout_kv_uint(y, "priority", r->req.prio);
		}
		if (detail && !backup) {
			yout_kv_str(y, "state", r->alive ? "up" : "down");
			yout_kv_str(y, "type",
				    r->single_hop ? "single-hop" : "multi-hop");
		}
		yout_end_map(y);
	}
	yout_end_seq(y);
}

/*
 * One route of import's "route:" block into @r: net and gateway, hop
 * (-1 or absent: unset) and priority; state and type (of an export
 * without --backup) are ignored.  Return: 0, or -EINVAL with @why.
 */
int parse_route(yaml_document_t *doc, yaml_node_t *map,
		struct route_req *r, const char **why)
{
	yaml_node_pair_t *pair;
	long long v;

	memset(r, 0, sizeof(*r));
	r->hop = -1;
	r->prio = -1;
	if (map->type != YAML_MAPPING_NODE) {
		*why = "a route is not a mapping";
		return -EINVAL;
	}
	for (pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		const char *key = PAIR_KEY(doc, pair);
		const char *s = scalar(PAIR_VAL(doc, pair));

		if (!key || !s) {
			*why = "a key or value is not a scalar";
			return -EINVAL;
		}
		if (!strcmp(key, "net")) {
			if (!valid_net(s) || !strcmp(s, "lo")) {
				*why = "net is not a remote network";
				return -EINVAL;
			}
			strcpy(r->net, s);
		} else if (!strcmp(key, "gateway")) {
			if (!valid_nid(s)) {
				*why = "gateway is not a NID";
				return -EINVAL;
			}
			strcpy(r->gw, s);
		} else if (!strcmp(key, "hop")) {
			if (parse_long(s, -1, ROUTE_HOP_MAX, &v) || !v) {
				*why = "hop is not -1 or 1..255";
				return -EINVAL;
			}
			r->hop = v;
		} else if (!strcmp(key, "priority")) {
			if (parse_long(s, 0, UINT32_MAX, &v)) {
				*why = "priority is not 0..4294967295";
				return -EINVAL;
			}
			r->prio = v;
		} else if (strcmp(key, "state") && strcmp(key, "type")) {
			*why = "invalid key in a route";
			return -EINVAL;
		}
	}
	if (!r->net[0] || !r->gw[0]) {
		*why = "a route needs net and gateway";
		return -EINVAL;
	}
	return 0;
}

/* Check --net (remote, not lo) for @op; 0 or 1 (reported). */
static int route_check_net(const char *op, const char *net)
{
	if (!valid_net(net))
		return usage_error(op, "route",
				   "invalid --net value '%s': not a network",
				   net);
	if (!strcmp(net, "lo"))
		return usage_error(op, "route",
				   "invalid --net value '%s': lo cannot have routes",
				   net);
	return 0;
}

/* The first item of list @gws that does not expand (@buf: room). */
static const char *bad_gateway(const char *gws, char (*buf)[LNET_GENL_NID_LEN])
{
	static char item[LNET_GENL_NID_LEN * 4];
	const char *s = gws, *p;
	int depth = 0;

	for (p = gws;; p++) {
		if (*p == '[') {
			depth++;
		} else if (*p == ']') {
			depth--;
		} else if ((*p == ',' && !depth) || !*p) {
			snprintf(item, sizeof(item), "%.*s", (int)(p - s), s);
			if (nid_list_expand(item, buf, LNET_GENL_PEER_NIDS_MAX) < 0)
				return item;
			if (!*p)
				return gws;
			s = p + 1;
		}
	}
}

/*
 * The NIDs of a --gateway value: NIDs and NID range expressions, comma
 * separated (stock's lnetctl expands ranges there as in peer add --nid;
 * the spec is silent).  *@gw is allocated (free() it, also on error).
 * Return: how many, or -1 after saying why.
 */
static int route_gateways(const char *op, const char *gws,
			  char (**gw)[LNET_GENL_NID_LEN])
{
	int n;

	*gw = calloc(LNET_GENL_PEER_NIDS_MAX, sizeof(**gw));
	if (!*gw) {
		usage_error(op, "route", "%s", "out of memory");
		return -1;
	}
	n = nid_list_expand(gws, *gw, LNET_GENL_PEER_NIDS_MAX);
	if (n == -E2BIG) {
		usage_error(op, "route",
			    "invalid --gateway value '%s': more than 256 NIDs",
			    gws);
		return -1;
	}
	if (n < 0) {
		usage_error(op, "route",
			    "invalid --gateway value '%s': not a NID",
			    bad_gateway(gws, *gw));
		return -1;
	}
	return n;
}

/*
 * route add's --gateway: NIDs and ranges as route_gateways(), or the
 * name of a router registered in the nidmap table (a single item that
 * is not a NID): its NIDs in failover order, @byname set.
 * Return: how many NIDs, or -1 after saying why.
 */
static int route_add_gateways(const char *gws,
			      char (**gw)[LNET_GENL_NID_LEN], bool *byname)
{
	char why[256], msg[400];
	int n;

	*byname = false;
	*gw = calloc(LNET_GENL_PEER_NIDS_MAX, sizeof(**gw));
	if (!*gw) {
		usage_error("add", "route", "%s", "out of memory");
		return -1;
	}
	n = nid_list_expand(gws, *gw, LNET_GENL_PEER_NIDS_MAX);
	if (n != -EINVAL || strpbrk(gws, ",[]")) {
		free(*gw);
		return route_gateways("add", gws, gw);
	}
	*byname = true;
	n = nidmap_router_nids(gws, *gw, LNET_GENL_PEER_NIDS_MAX, why,
			       sizeof(why));
	if (n < 0) {
		snprintf(msg, sizeof(msg), "invalid --gateway value '%s': %s",
			 gws, why);
		usage_error("add", "route", "%s", msg);
	}
	return n;
}

static int route_add(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "net", required_argument, NULL, 'n' },
		{ "gateway", required_argument, NULL, 'g' },
		{ "hop", required_argument, NULL, 'c' },
		{ "hop-count", required_argument, NULL, 'c' },
		{ "priority", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	struct route_req r = { .hop = -1, .prio = -1 };
	char (*gw)[LNET_GENL_NID_LEN] = NULL;
	const char *gws = NULL;
	const char *net = NULL;
	struct lnl_error err;
	int c, i, n, rc = 0;
	char prefix[192];
	bool byname;
	long long v;

	while ((c = getopt_long(argc, argv, "n:g:c:p:", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			net = optarg;
			break;
		case 'g':
			gws = optarg;
			break;
		case 'c':
			if (parse_long(optarg, 1, ROUTE_HOP_MAX, &v))
				return usage_error("add", "route",
						   "invalid --hop value '%s': must be 1..255",
						   optarg);
			r.hop = v;
			break;
		case 'p':
			if (parse_long(optarg, 0, UINT32_MAX, &v))
				return usage_error("add", "route",
						   "invalid --priority value '%s': must be 0..4294967295",
						   optarg);
			r.prio = v;
			break;
		default:
			return bad_option("add", "route", argv);
		}
	}
	if (optind < argc)
		return usage_error("add", "route", "unexpected argument '%s'",
				   argv[optind]);
	if (!net)
		return usage_error("add", "route",
				   "missing mandatory parameter --net%s", "");
	if (!gws)
		return usage_error("add", "route",
				   "missing mandatory parameter --gateway%s",
				   "");
	if (route_check_net("add", net))
		return 1;
	strcpy(r.net, net);
	/*
	 * every NID first, ranges expanded (as stock): one bad NID adds
	 * nothing; or a router's name, resolved through the nidmap table
	 */
	n = route_add_gateways(gws, &gw, &byname);
	if (n < 0 || open_or_report("add", "route")) {
		free(gw);
		return 1;
	}
	/*
	 * One route per NID; the first refusal stops (as stock).  A router
	 * by name: one route, through the first of its NIDs (failover
	 * order) on a net of ours.
	 */
	for (i = 0; i < n && !rc; i++) {
		snprintf(r.gw, sizeof(r.gw), "%s", gw[i]);
		if (do_route_add(&r, &err) >= 0) {
			if (byname)
				break;
			continue;
		}
		/* not on a local net, or on NET itself: its next NID */
		if (byname && (err.errnum == EHOSTUNREACH ||
			       err.errnum == EINVAL) && i + 1 < n)
			continue;
		if (byname)
			snprintf(prefix, sizeof(prefix),
				 "cannot add route to %s via router %s (%s)",
				 net, gws, gw[i]);
		else
			snprintf(prefix, sizeof(prefix),
				 "cannot add route to %s via %s", net, gw[i]);
		report_nl_error("add", "route", prefix, &err);
		rc = 1;
	}
	free(gw);
	return rc;
}

static int route_del(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "net", required_argument, NULL, 'n' },
		{ "gateway", required_argument, NULL, 'g' },
		{ NULL, 0, NULL, 0 },
	};
	char (*gw)[LNET_GENL_NID_LEN] = NULL;
	const char *net = NULL, *gws = NULL;
	struct lnl_error err;
	int c, i, n, rc = 0;

	while ((c = getopt_long(argc, argv, "n:g:", opts, NULL)) != -1) {
		if (c == 'n')
			net = optarg;
		else if (c == 'g')
			gws = optarg;
		else
			return bad_option("del", "route", argv);
	}
	if (optind < argc)
		return usage_error("del", "route", "unexpected argument '%s'",
				   argv[optind]);
	/* stock's lnetctl needs both (spec 10.4) */
	if (!net)
		return usage_error("del", "route",
				   "missing mandatory parameter --net%s", "");
	if (!gws)
		return usage_error("del", "route",
				   "missing mandatory parameter --gateway%s",
				   "");
	if (route_check_net("del", net))
		return 1;
	n = route_gateways("del", gws, &gw);
	if (n < 0 || open_or_report("del", "route")) {
		free(gw);
		return 1;
	}
	/* each NID's route; the first refusal stops */
	for (i = 0; i < n && !rc; i++) {
		if (do_route_del(net, gw[i], &err) < 0) {
			report_nl_error("del", "route", "cannot delete route",
					&err);
			rc = 1;
		}
	}
	free(gw);
	return rc;
}

static int route_show(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "net", required_argument, NULL, 'n' },
		{ "gateway", required_argument, NULL, 'g' },
		{ "hop", required_argument, NULL, 'c' },
		{ "hop-count", required_argument, NULL, 'c' },
		{ "priority", required_argument, NULL, 'p' },
		{ "verbose", optional_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	struct route_req f = { .hop = 0, .prio = -1 };
	struct lnl_error err;
	struct route_list l;
	int c, detail = 0, rc;
	struct yout y;
	long long v;

	while ((c = getopt_long(argc, argv, "n:g:c:p:v::", opts,
				NULL)) != -1) {
		switch (c) {
		case 'n':
			if (route_check_net("show", optarg))
				return 1;
			snprintf(f.net, sizeof(f.net), "%s", optarg);
			break;
		case 'g':
			if (!valid_nid(optarg))
				return usage_error("show", "route",
						   "invalid --gateway value '%s': not a NID",
						   optarg);
			snprintf(f.gw, sizeof(f.gw), "%s", optarg);
			break;
		case 'c':
			if (parse_long(optarg, -1, ROUTE_HOP_MAX, &v) || !v)
				return usage_error("show", "route",
						   "invalid --hop value '%s': must be -1 or 1..255",
						   optarg);
			f.hop = v;
			break;
		case 'p':
			if (parse_long(optarg, 0, UINT32_MAX, &v))
				return usage_error("show", "route",
						   "invalid --priority value '%s': must be 0..4294967295",
						   optarg);
			f.prio = v;
			break;
		case 'v':
			if (parse_detail("route", argc, argv, &detail))
				return 1;
			break;
		default:
			return bad_option("show", "route", argv);
		}
	}
	if (optind < argc)
		return usage_error("show", "route", "unexpected argument '%s'",
				   argv[optind]);
	if (open_or_report("show", "route"))
		return 1;
	if (get_routes(&f, &l, &err) < 0) {
		report_nl_error("show", "route", "cannot get routes", &err);
		return 1;
	}
	if (!l.n)
		return 0;	/* no route: nothing, as stock */
	yout_begin(&y, stdout);
	yout_map(&y);
	emit_routes(&y, &l, detail > 0, false);
	yout_end_map(&y);
	rc = yout_end(&y);
	free(l.r);
	return rc ? 1 : 0;
}

int cmd_route(int argc, char **argv)
{
	if (argc < 2)
		return usage_error("route", "route", "%s",
				   "usage: route add|del|show [options]");
	if (!strcmp(argv[1], "add"))
		return route_add(argc - 1, argv + 1);
	if (!strcmp(argv[1], "del"))
		return route_del(argc - 1, argv + 1);
	if (!strcmp(argv[1], "show"))
		return route_show(argc - 1, argv + 1);
	return usage_error("route", "route", "unknown subcommand '%s'",
			   argv[1]);
}
